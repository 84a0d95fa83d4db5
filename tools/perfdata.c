/* perfdata - read perf.data files without perf. */
#include "pd_tool.h"

#include <stdio.h>
#include <string.h>

static int usage(FILE *to) {
    fprintf(to, "usage: perfdata COMMAND [OPTIONS] FILE\n"
                "commands:\n"
                "  dump    every record, as `perf report -D` prints it\n"
                "  info    the header and feature sections, as `perf report --header-only -I`\n"
                "  report  the flat profile of `perf report --stdio`, with symbols\n"
                "  collapse folded stacks for flame graphs\n"
                "  stat    decode everything; record counts as `perf report --stats`\n"
                "  version print the library version\n"
                "FILE may be '-' for a pipe-mode stream on standard input, or a\n"
                "`perf record --threads` directory.\n");
    return to == stderr ? 2 : 0;
}

int main(int argc, char **argv) {
    if (argc < 2) return usage(stderr);
    if (!strcmp(argv[1], "dump")) return pd_cmd_dump(argc - 1, argv + 1);
    if (!strcmp(argv[1], "info")) return pd_cmd_info(argc - 1, argv + 1);
    if (!strcmp(argv[1], "report")) return pd_cmd_report(argc - 1, argv + 1);
    if (!strcmp(argv[1], "collapse")) return pd_cmd_collapse(argc - 1, argv + 1);
    if (!strcmp(argv[1], "stat")) return pd_cmd_stat(argc - 1, argv + 1);
    if (!strcmp(argv[1], "version") || !strcmp(argv[1], "--version")) {
        printf("perfdata %s\n", PERFDATA_VERSION_STRING);
        return 0;
    }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) return usage(stdout);
    fprintf(stderr, "perfdata: unknown command '%s'\n", argv[1]);
    return usage(stderr);
}
