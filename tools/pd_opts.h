/* pd_opts.h - the command line of every perfdata subcommand, parsed one
   way: perf's conventions. The input is `-i FILE`, `--input FILE`,
   `--input=FILE` or a bare FILE; without one it is ./perf.data, or standard
   input when that is a pipe (builtin-report.c); `-` is standard input.
   A long option's value is `--opt VALUE` or `--opt=VALUE`, a short one's
   `-o VALUE` or `-oVALUE`; short flags may be grouped (`-nv`); `--` ends the
   options. An unknown option, a missing value or a value given to a flag
   prints the subcommand's usage on stderr: exit 2. `-h`/`--help` prints
   it on stdout: exit 0. */
#ifndef PD_OPTS_H
#define PD_OPTS_H

#include <stdio.h>

/* Exit statuses of every subcommand. */
enum { PD_EXIT_OK = 0, PD_EXIT_ERROR = 1, PD_EXIT_USAGE = 2, PD_EXIT_PARTIAL = 3 };

typedef struct pd_opt {
    char short_name;                /* 0: none */
    int id;                         /* given to the handler */
    const char *long_name;          /* without the dashes; NULL ends a table */
    const char *arg;                /* the value's placeholder; NULL: a flag */
    const char *help;               /* NULL: an alias, left out of the usage */
} pd_opt;

typedef struct pd_command {
    const char *name;
    const char *summary;            /* one line, for `perfdata --help` */
    const char *description;        /* the subcommand's usage text, after its synopsis */
    const pd_opt *const *tables;    /* NULL-terminated; pd_opts_common is added */
    const char *operands;           /* the synopsis of its bare arguments; NULL: "[FILE]" */
} pd_command;

/* Called for each option given, in order; value is NULL for a flag.
   Returns 0, or nonzero after printing why the value is refused. */
typedef int (*pd_opt_handler)(void *ctx, int id, const char *value);

/* Parses argv[1..argc-1] (argv[0] is the subcommand's name). Returns -1
   when the command should run, with *input set; else the exit status
   (0 after --help, 2 after a usage error). */
int pd_opts_parse(const pd_command *cmd, int argc, char **argv, pd_opt_handler fn, void *ctx, const char **input);

/* The same for a command of several inputs: the bare arguments (and -i
   values) in inputs, at most max, *n of them; no default is filled in. */
int pd_opts_parse_inputs(const pd_command *cmd, int argc, char **argv, pd_opt_handler fn, void *ctx,
                         const char **inputs, int max, int *n);

void pd_opts_usage(const pd_command *cmd, FILE *to);
/* "[--raw] [--type T,...] [FILE]" wrapped at `width`, each line after the
   first indented by `indent`. */
void pd_opts_synopsis(const pd_command *cmd, FILE *to, int indent, int width);

/* Bounds on the work an input may cause. Commands take the options by
   putting these tables in theirs; the parser sets pd_limit itself.
   --max-ratio N: records inside compressed chunks may expand at most N
   times (perfdata_inflate_set_max_ratio; 0: no bound).
   --queue-size SIZE: memory for putting records in time order (the reorder
   queue and the decompressed chunks it points into); past it the queue is
   released early, half first, as perf does when its queue is full. */
typedef struct pd_limits {
    unsigned long max_ratio;
    unsigned long long queue_bytes;  /* 0: no bound */
    unsigned long jobs;              /* -j: threads of an ordered walk; 0: 2 for an input of 16 MiB or more on 2 CPUs or more */
} pd_limits;
extern pd_limits pd_limit;
extern const pd_opt pd_ratio_opts[], pd_queue_opts[];

/* A DIR option's directory, made with its parents when missing (mkdir -p).
   Returns 0, or -1 after printing why not. */
int pd_make_dir(const char *dir, const char *who);

#endif
