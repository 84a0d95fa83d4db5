/* report_branch.h - `perfdata report` in perf's branch mode: one row per
   (comm, source object, source symbol, target symbol, cycles) over the
   entries of the samples' branch stacks, as `perf report --stdio` prints
   profiles recorded with -b / -j. */
#ifndef REPORT_BRANCH_H
#define REPORT_BRANCH_H

/* Runs the branch-mode report of the profile at `path` when it calls for
   one: `mode` 1 (-b) always, -1 (the default) when perf would (the file has
   the BRANCH_STACK feature and no event samples user stacks). `argc`/`argv`
   are report's own; the branch report reads --sort, -n, -v, --kallsyms,
   --symfs and --symdir from them. Returns the command's exit status, or -1
   when the profile is not for branch mode (nothing was printed). */
int pd_report_branch(const char *path, int mode, int argc, char **argv);

#endif
