/* pd_tool.h - what the perfdata subcommands share: an opened profile (the
   mapping, the parsed file, storage for its events and id index) and a walk
   over every record of it. */
#ifndef PD_TOOL_H
#define PD_TOOL_H

#include "perfdata.h"
#include "pd_file.h"

/* Records inside COMPRESSED/COMPRESSED2 chunks: one zstd stream runs
   through all of them; a record may span two chunks. Every decompressed
   block is kept until the session closes, since the reorder queue holds
   records that point into them. */
typedef struct pd_inflate {
    struct pd_zstd_dctx *ctx;
    unsigned char *window;
    struct pd_block *blocks;
    perfdata_cursor inner;
    int inner_active, failed, expanded_last;
    uint64_t outer_offset;          /* perf prints inner records at the chunk's offset */
    const unsigned char *left;      /* a partial record at the end of the last block */
    size_t left_n;
    unsigned char *out;             /* scratch for one chunk's output */
    size_t out_cap;
} pd_inflate;

typedef struct pd_session {
    pd_input input;
    perfdata_file file;
    perfdata_event *events;
    perfdata_id_entry *ids;
    const char *path;
    char arch[64];
    pd_inflate inflate;
} pd_session;

typedef void (*pd_record_fn)(void *ctx, const perfdata_record *rec, const char *file_name);

int pd_session_open(pd_session *s, const char *path);
void pd_session_close(pd_session *s);
/* Calls fn for every record: the data section (or pipe stream), then each
   data.N stream of a directory. Returns 0, or 1 after reporting an error. */
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

int pd_cmd_dump(int argc, char **argv);
int pd_cmd_info(int argc, char **argv);
int pd_cmd_report(int argc, char **argv);
int pd_cmd_collapse(int argc, char **argv);
int pd_cmd_stat(int argc, char **argv);

#endif
