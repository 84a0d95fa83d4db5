/* demangle_cli.c - tools/pd_demangle.c as a filter for tests/demangle_test.py:
   `demangle_cli FLAGS < names`: each line's name demangled with FLAGS
   (PD_DEMANGLE_PARAMS 1, PD_DEMANGLE_VERBOSE 2; 3 is c++filt's output, 2
   c++filt -p's, 0 perf's), or the name as it is when it is none this
   reads (as c++filt prints it then). */
#include "pd_demangle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    static char line[1 << 20], out[1 << 17];
    unsigned flags;
    if (argc != 2) {
        fprintf(stderr, "usage: demangle_cli FLAGS < names\n");
        return 2;
    }
    flags = (unsigned)atoi(argv[1]);
    while (fgets(line, sizeof line, stdin)) {
        size_t n = strlen(line);
        if (n && line[n - 1] == '\n') line[--n] = 0;
        if (pd_demangle(line, flags, out, sizeof out) >= 0) puts(out);
        else puts(line);
    }
    return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
