/* perfdata - read perf.data files without perf. */
#include "pd_opts.h"
#include "pd_tool.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

static const struct {
    const pd_command *cmd;
    int (*run)(int argc, char **argv);
} commands[] = {
    {&pd_dump_command, pd_cmd_dump},
    {&pd_info_command, pd_cmd_info},
    {&pd_report_command, pd_cmd_report},
    {&pd_diff_command, pd_cmd_diff},
    {&pd_collapse_command, pd_cmd_collapse},
    {&pd_flamegraph_command, pd_cmd_flamegraph},
    {&pd_script_command, pd_cmd_script},
    {&pd_stat_command, pd_cmd_stat},
    {&pd_convert_command, pd_cmd_convert},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

/* Every option of every subcommand, from the same tables their own usage
   is printed from. */
static int usage(FILE *to) {
    size_t i;
    fprintf(to, "usage: perfdata COMMAND [OPTIONS] [FILE]\ncommands:\n");
    for (i = 0; i < NCOMMANDS; i++) {
        fprintf(to, "  %-10s %s\n             ", commands[i].cmd->name, commands[i].cmd->summary);
        pd_opts_synopsis(commands[i].cmd, to, 13, 100);
    }
    fprintf(to, "  version    print the library version\n"
                "Every command reads FILE, or -i FILE, --input FILE; without one ./perf.data (standard\n"
                "input when it is a pipe). FILE may be '-' for a pipe-mode stream on standard input, or a\n"
                "`perf record --threads` directory. `perfdata COMMAND --help` describes the options.\n"
                "Exit status: 0 done, 1 error, 2 usage error, 3 partial (the input ended early or is damaged).\n");
    return to == stderr ? PD_EXIT_USAGE : PD_EXIT_OK;
}

/* The commands fill a few large tables once (symbols, caches, the reorder
   queue); their pages are first touched one by one, and where a page
   fault is dear (a virtual machine: 12 us each here, thousands a run) that
   is a tenth of the time. So the heap grows in large steps, takes large
   blocks too, and asks for transparent huge pages; where they are off,
   the madvise fails and nothing else changes. One arena: the reader
   thread allocates little, and its memory is then from the same heap. */
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE)
static char *heap_first; /* the heap's first block, kept: where the heap starts */
#endif
static void heap_setup(void) {
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE)
    char *end;
    uintptr_t start;
    long page = sysconf(_SC_PAGESIZE);
    mallopt(M_ARENA_MAX, 1);
    mallopt(M_TOP_PAD, 32 << 20);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
    if (page <= 0 || !(heap_first = (char *)malloc(1))) return;
    end = (char *)sbrk(0);
    start = (uintptr_t)heap_first & ~(uintptr_t)(page - 1);
    if (end != (char *)-1 && (uintptr_t)end > start) (void)madvise((void *)start, (size_t)((uintptr_t)end - start), MADV_HUGEPAGE);
#endif
}

int main(int argc, char **argv) {
    size_t i;
    heap_setup();
    if (argc < 2) return usage(stderr);
    for (i = 0; i < NCOMMANDS; i++)
        if (!strcmp(argv[1], commands[i].cmd->name)) return commands[i].run(argc - 1, argv + 1);
    if (!strcmp(argv[1], "version") || !strcmp(argv[1], "--version")) {
        printf("perfdata %s\n", PERFDATA_VERSION_STRING);
        return 0;
    }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) return usage(stdout);
    fprintf(stderr, "perfdata: unknown command '%s'\n", argv[1]);
    return usage(stderr);
}
