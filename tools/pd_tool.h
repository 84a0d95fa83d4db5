/* pd_tool.h - what the perfdata subcommands share: an opened profile (the
   mapping, the parsed file, storage for its events and id index) and a walk
   over every record of it. */
#ifndef PD_TOOL_H
#define PD_TOOL_H

#include "perfdata.h"
#include "pd_file.h"
#include "pd_opts.h"

/* A profile being read: perfdata_reader over the input, its memory given
   with malloc (the reorder queue and decompressed chunks within
   --queue-size), a stream read from standard input as it arrives. */
typedef struct pd_pipe pd_pipe;

typedef struct pd_session {
    pd_input input;
    perfdata_reader reader;
    const perfdata_file *file;       /* the reader's */
    perfdata_view *views;            /* the data.N streams of a directory */
    const char *path;
    char arch[64];
    unsigned flags;                  /* PERFDATA_READ_* */
    int stream;                      /* read as it arrives */
    int ordered;                     /* the walk is in time order */
    int read_ahead;                  /* pd_session_walk: compressed chunks are decompressed in the
                                        reader thread, ahead of the command (-j) */
    size_t nev_cap;                  /* events the input may have: per-event tables */
    size_t given;                    /* bytes given to the reader */
    void *zstd_mem;                  /* of which the zstd decoder's */
    size_t zstd_given;
    int said_bound, said_zstd, said_chunks;
    uint64_t records;               /* records given to the command so far */
    uint64_t skipped;               /* records it could not use (pd_session_skip) */
    perfdata_error first_skip;      /* why the first was skipped */
    int partial;                    /* part of the input was not read or not used */
    int read_partial;               /* the same, said by the reading side of the walk */
    struct pd_pipe *pipe;           /* the walk's reader thread, while there is one */
    struct pd_zahead *zahead;       /* the thread decompressing -z chunks ahead of the reader, while there is one */
} pd_session;

/* Exit statuses: PD_EXIT_* of pd_opts.h. PARTIAL: the output covers what
   was read, and stderr says what was not (where the input stopped, how
   many records were skipped). */

typedef void (*pd_record_fn)(void *ctx, const perfdata_record *rec, const char *file_name);

int pd_session_open(pd_session *s, const char *path);
/* flags: PERFDATA_READ_ORDERED for a command that walks in time order (a
   stream is read once, so the order is chosen before). */
int pd_session_open_flags(pd_session *s, const char *path, unsigned flags);
/* The same over bytes in memory (the fuzz targets), which stay the
   caller's and must outlive the session; name stands for the path. */
int pd_session_open_mem(pd_session *s, const unsigned char *data, size_t size, const char *name);
void pd_session_close(pd_session *s);
/* Calls fn for every record: the data section (or pipe stream), then each
   data.N stream of a directory. Returns PD_EXIT_OK; PD_EXIT_PARTIAL after
   saying on stderr where and why the records stopped, or that some were
   skipped (then the walk went on); PD_EXIT_ERROR when out of memory. */
int pd_session_walk(pd_session *s, pd_record_fn fn, void *ctx);
/* The same in perf's delivery order (perfdata_ordered_next), the reorder
   window grown with malloc as needed. */
int pd_session_walk_ordered(pd_session *s, pd_record_fn fn, void *ctx);
void pd_print_header(pd_session *s);
/* The event's name as perf shows it (perfdata_event_name), in a static
   buffer valid until the next call. */
const char *pd_event_name(pd_session *s, size_t event);

/* A COMPRESSED record whose contents the walk also yields (printing it
   would show its records twice). */
int pd_session_decompressed(const pd_session *s, const perfdata_record *rec);

/* A record the command could not decode and leaves out (err may be NULL):
   counted, and said once at the end by pd_session_finish. */
void pd_session_skip(pd_session *s, const perfdata_record *rec, const perfdata_error *err);
/* The command's exit status from its own rc: PARTIAL when records were
   skipped (said here) or the walk stopped early; ERROR when standard
   output could not be written (said here). Call once, after the output. */
int pd_session_finish(pd_session *s, int rc);
/* The same check of standard output for commands without a session. */
int pd_output_status(int rc);

/* The last value a sample read (PERFDATA_SAMPLE_READ) per counter id, for
   perf's delivery of such samples: one per value, its period the growth
   since the id was last read. Free with free(r->v). */
typedef struct pd_read_id { uint64_t id, last; int used; } pd_read_id;
typedef struct pd_read_ids { pd_read_id *v; size_t n, cap; } pd_read_ids;
uint64_t *pd_read_last(pd_read_ids *r, uint64_t id);

/* Each subcommand: its options (pd_opts) and its entry point, given argv
   from the subcommand's name on; returns a PD_EXIT_ status. */
struct pd_command;
extern const struct pd_command pd_dump_command, pd_info_command, pd_report_command, pd_collapse_command, pd_flamegraph_command,
    pd_stat_command, pd_script_command, pd_convert_command, pd_diff_command;
int pd_cmd_dump(int argc, char **argv);
int pd_cmd_info(int argc, char **argv);
int pd_cmd_report(int argc, char **argv);
int pd_cmd_diff(int argc, char **argv);
int pd_cmd_collapse(int argc, char **argv);
int pd_cmd_flamegraph(int argc, char **argv);
/* collapse for a command built on it (flamegraph): cmd's tables hold
   pd_collapse_tables' and its own, whose ids start at PD_COLLAPSE_MORE and
   go to more(more_ctx, id, value); marks: annotate kernel, JIT and inlined
   frames (_[k], _[j], _[i]) from the start. After the options, input
   (when given) sees the input path: >= 0 ends the command with that status
   (it has read the input itself), -1 lets collapse read the profile at
   *path (which input may change). The folded stacks go to out, or when
   sink is given to sink(more_ctx, stacks, n) instead (their frames are
   valid during the call; in no order). */
#define PD_COLLAPSE_MORE 1000
struct pd_opt;
typedef int (*pd_collapse_input_fn)(void *ctx, const char **path);
typedef struct pd_folded_stack { const char **frames; size_t n; uint64_t count; } pd_folded_stack;
typedef void (*pd_collapse_sink)(void *ctx, const pd_folded_stack *stacks, size_t n);
extern const struct pd_opt *const pd_collapse_tables[];
extern const struct pd_opt pd_collapse_opts[];
int pd_collapse_run(const struct pd_command *cmd, int argc, char **argv, int (*more)(void *, int, const char *),
                    void *more_ctx, int marks, pd_collapse_input_fn input, pd_collapse_sink sink, FILE *out);
int pd_cmd_stat(int argc, char **argv);
int pd_cmd_script(int argc, char **argv);
int pd_cmd_convert(int argc, char **argv);

#endif
