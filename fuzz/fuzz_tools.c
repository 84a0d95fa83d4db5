/* fuzz_tools.c - libFuzzer target for the commands themselves: the input's
   first byte picks a command line, the rest is the perf.data file it reads
   (an input that is a whole perf.data file, as in tests/hostile, goes
   through every command line).
   Report (the flat profile; pid keys with -n; the CSV tables; the sample
   view of a branch-stack profile), collapse (plain; --kernel --with-pid
   --period), stat, dump --ordered and info run as a user runs them, so the
   tools' process state (threads, comms, forks, maps), symbol lookup (every
   recorded name is looked for under an empty --symfs, kallsyms come from
   an empty file: nothing is found, nothing outside is opened) and the
   aggregation all see the input. Output goes to /dev/null; run libFuzzer
   with -close_fd_mask=3 so their stderr does not flood the log.
   Build: clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -D_GNU_SOURCE -I. -Itools -DPD_FUZZ_LIBFUZZER fuzz/fuzz_tools.c $(TOOLSRC without tools/perfdata.c) -o build/fuzz/fuzz_tools
   Replay (no libFuzzer): the same without -fsanitize=fuzzer and -DPD_FUZZ_LIBFUZZER (make fuzz-replay) */
#include "pd_tool.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef __cplusplus
extern "C"
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], input[128], kallsyms[128], symfs[128], csv[128];
static int devnull = -1;

static void cleanup(void) {
    static const char *const tables[] = {"stat.csv", "overview.csv", "processes.csv", "results.csv"};
    char p[192];
    size_t i;
    for (i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", csv, tables[i]);
        unlink(p);
    }
    rmdir(csv);
    rmdir(symfs);
    unlink(kallsyms);
    unlink(input);
    rmdir(dir);
}

/* A scratch directory for the input file, the empty kallsyms file, the
   empty --symfs tree and the CSV tables (removed at exit). */
static int setup(void) {
    int fd;
    snprintf(dir, sizeof dir, "/tmp/perfdata-fuzz-XXXXXX");
    if (!mkdtemp(dir)) return -1;
    snprintf(input, sizeof input, "%s/perf.data", dir);
    snprintf(kallsyms, sizeof kallsyms, "%s/kallsyms", dir);
    snprintf(symfs, sizeof symfs, "%s/symfs", dir);
    snprintf(csv, sizeof csv, "%s/csv", dir);
    if (mkdir(symfs, 0700) != 0) return -1;
    if ((fd = open(kallsyms, O_WRONLY | O_CREAT | O_TRUNC, 0600)) < 0) return -1;
    close(fd);
    atexit(cleanup);
    devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    return devnull >= 0 ? 0 : -1;
}

static int write_input(const uint8_t *data, size_t size) {
    int fd = open(input, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    size_t done = 0;
    if (fd < 0) return -1;
    while (done < size) {
        ssize_t n = write(fd, data + done, size - done);
        if (n <= 0) { close(fd); return -1; }
        done += (size_t)n;
    }
    return close(fd);
}

/* Command line `which` (0..8) on the input file, its standard output
   sent to /dev/null. */
static void run(int which) {
    char *argv[16];
    int argc = 0, saved;
#define ARG(s) (argv[argc++] = (char *)(s))
    switch (which) {
    case 0: case 1: case 2: case 3:
        ARG("report"); ARG("--symfs"); ARG(symfs); ARG("--kallsyms"); ARG(kallsyms);
        if (which == 1) { ARG("-n"); ARG("-s"); ARG("pid,dso,sym"); }
        if (which == 2) { ARG("--csv"); ARG(csv); }
        if (which == 3) ARG("--no-branch-stack");
        break;
    case 4: case 5:
        ARG("collapse"); ARG("--symfs"); ARG(symfs); ARG("--kallsyms"); ARG(kallsyms);
        if (which == 5) { ARG("--kernel"); ARG("--with-pid"); ARG("--period"); }
        break;
    case 6: ARG("stat"); break;
    case 7: ARG("dump"); ARG("--ordered"); break;
    default: ARG("info"); break;
    }
    ARG(input);
    argv[argc] = NULL;
#undef ARG
    fflush(stdout);
    if ((saved = dup(STDOUT_FILENO)) < 0 || dup2(devnull, STDOUT_FILENO) < 0) abort();
    if (!strcmp(argv[0], "report")) pd_cmd_report(argc, argv);
    else if (!strcmp(argv[0], "collapse")) pd_cmd_collapse(argc, argv);
    else if (!strcmp(argv[0], "stat")) pd_cmd_stat(argc, argv);
    else if (!strcmp(argv[0], "dump")) pd_cmd_dump(argc, argv);
    else pd_cmd_info(argc, argv);
    fflush(stdout);
    clearerr(stdout);
    if (dup2(saved, STDOUT_FILENO) < 0) abort();
    close(saved);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int ready;
    int which;
    if (!ready) {
        if (setup() != 0) abort();
        ready = 1;
    }
    /* a whole perf.data file (tests/hostile): every command line on it */
    if (size >= 8 && (!memcmp(data, "PERFILE2", 8) || !memcmp(data, "2ELIFREP", 8))) {
        if (write_input(data, size) != 0) return 0;
        for (which = 0; which < 9; which++) run(which);
        return 0;
    }
    if (size < 1 || write_input(data + 1, size - 1) != 0) return 0;
    run(data[0] % 9);
    return 0;
}

#include "fuzz/fuzz_main.h"
