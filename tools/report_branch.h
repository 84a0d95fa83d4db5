/* report_branch.h - `perfdata report` in perf's branch mode: one row per
   (comm, source object, source symbol, target symbol, cycles) over the
   entries of the samples' branch stacks, as `perf report --stdio` prints
   profiles recorded with -b / -j. */
#ifndef REPORT_BRANCH_H
#define REPORT_BRANCH_H

/* report's options that the branch view uses. */
typedef struct pd_branch_options {
    const char *sort;               /* --sort, or NULL for perf's branch default */
    int show_samples, verbose;
    const char *kallsyms, *symfs, *symdir;
    int csv;                        /* --csv was given: not for branch mode */
    int filtered;                   /* a filter was given: not for branch mode yet */
} pd_branch_options;

/* Runs the branch-mode report of the profile at `path` when it calls for
   one: `mode` 1 (-b) always, -1 (the default) when perf would (the file has
   the BRANCH_STACK feature and no event samples user stacks), 0 never.
   Returns the command's exit status, or -1 when the profile is not for
   branch mode (nothing was printed). */
int pd_report_branch(const char *path, int mode, const pd_branch_options *o);

#endif
