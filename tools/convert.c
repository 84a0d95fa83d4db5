/* convert.c - `perfdata convert`: a profile written again by perfdata.h's
   writer, as a file or a pipe stream, in either byte order, with its
   compressed chunks' records written out plainly. The records, the events
   and the features are the input's: in the input's byte order they are
   copied as they are; in the other one each is decoded and encoded again
   (the types and features convert_swap.c knows; anything else is left
   out, said on stderr, and the exit status is 3). */
#include "perfdata.h"
#include "pd_intern.h"
#include "pd_opts.h"
#include "pd_tool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "convert.h"

/* ------------------------------------------------------------------ output */

/* The writer's sink: pieces gathered in a buffer and written in order; in
   file mode the header comes last at offset 0, through pwrite. */
typedef struct out_file {
    int fd;
    const char *path;
    unsigned char *buf;
    size_t len, cap;
    uint64_t flushed;       /* bytes of the output before buf */
    int failed;
} out_file;

static int out_flush(out_file *o) {
    size_t done = 0;
    while (done < o->len) {
        ssize_t n = write(o->fd, o->buf + done, o->len - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            fprintf(stderr, "perfdata convert: %s: %s\n", o->path, n < 0 ? strerror(errno) : "short write");
            o->failed = 1;
            return -1;
        }
        done += (size_t)n;
    }
    o->flushed += o->len;
    o->len = 0;
    return 0;
}

static perfdata_status out_sink(void *user, uint64_t offset, const void *bytes, size_t n) {
    out_file *o = (out_file *)user;
    if (o->failed) return PERFDATA_ERR_NO_SPACE;
    if (offset != o->flushed + o->len) { /* the file header, at the end */
        size_t done = 0;
        if (out_flush(o) < 0) return PERFDATA_ERR_NO_SPACE;
        while (done < n) {
            ssize_t k = pwrite(o->fd, (const unsigned char *)bytes + done, n - done, (off_t)(offset + done));
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) {
                fprintf(stderr, "perfdata convert: %s: %s\n", o->path, k < 0 ? strerror(errno) : "short write");
                o->failed = 1;
                return PERFDATA_ERR_NO_SPACE;
            }
            done += (size_t)k;
        }
        return PERFDATA_OK;
    }
    while (n) {
        size_t k = o->cap - o->len < n ? o->cap - o->len : n;
        memcpy(o->buf + o->len, bytes, k);
        o->len += k;
        bytes = (const unsigned char *)bytes + k;
        n -= k;
        if (o->len == o->cap && out_flush(o) < 0) return PERFDATA_ERR_NO_SPACE;
    }
    return PERFDATA_OK;
}

/* -------------------------------------------------------------- the input */

typedef struct feature {
    unsigned id;
    unsigned char *bytes;   /* in the output's byte order */
    size_t n;
} feature;

typedef struct convert_ctx {
    pd_session *s;
    perfdata_writer w;
    int pipe_out, big_out, big_in, swap, decompress;
    /* what the first walk of a pipe collects */
    feature feats[PERFDATA_FEAT_BITS];
    int have[PERFDATA_FEAT_BITS];
    unsigned char *tracing;         /* HEADER_TRACING_DATA's bytes */
    size_t tracing_n;
    unsigned char *build_ids;       /* HEADER_BUILD_ID records, as the BUILD_ID feature holds them */
    size_t build_ids_n, build_ids_cap;
    int stat_records;               /* perf stat record's records: a file says so with the STAT feature */
    /* the second walk */
    uint64_t written, left_out;
    unsigned long left_out_types[2];/* bit per record type (0-63, 64-127) */
    uint32_t other_types[8];        /* types from 128 on (simpleperf's), the first few */
    size_t nother;
    int failed;
    convert_swap swapper;
    /* where the AUXTRACE records went: the AUXTRACE feature indexes them by offset */
    uint64_t *aux_at;
    size_t naux, capaux;
} convert_ctx;

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) pd_nomem();
    return p;
}

static void keep_feature(convert_ctx *c, unsigned id, const unsigned char *p, size_t n) {
    if (id == 0 || id >= PERFDATA_FEAT_BITS) return;
    free(c->feats[id].bytes);
    c->feats[id].id = id;
    c->feats[id].bytes = (unsigned char *)xmalloc(n);
    if (n) memcpy(c->feats[id].bytes, p, n);
    c->feats[id].n = n;
    c->have[id] = 1;
}

static void append_build_id(convert_ctx *c, const unsigned char *p, size_t n) {
    if (!n) return;
    if (!c->build_ids || n > c->build_ids_cap - c->build_ids_n) {
        size_t cap = c->build_ids_cap ? c->build_ids_cap * 2 : 4096;
        if (n > ((size_t)-1) / 4 - c->build_ids_n) pd_nomem();
        while (cap - c->build_ids_n < n) cap *= 2;
        if (!(c->build_ids = (unsigned char *)realloc(c->build_ids, cap))) pd_nomem();
        c->build_ids_cap = cap;
    }
    memcpy(c->build_ids + c->build_ids_n, p, n);
    c->build_ids_n += n;
}

/* The first walk of a pipe: its features, tracing data and build ids. */
static void collect(void *ctx, const perfdata_record *rec, const char *name) {
    convert_ctx *c = (convert_ctx *)ctx;
    perfdata_error err;
    (void)name;
    if (rec->type == PERFDATA_RECORD_STAT_CONFIG || rec->type == PERFDATA_RECORD_STAT || rec->type == PERFDATA_RECORD_STAT_ROUND)
        c->stat_records = 1;
    if (rec->type == PERFDATA_RECORD_HEADER_FEATURE) {
        perfdata_header_feature hf;
        if (perfdata_decode_header_feature(c->s->file, rec, &hf, &err) == PERFDATA_OK)
            keep_feature(c, (unsigned)hf.feat_id, hf.data.p, hf.data.n);
    } else if (rec->type == PERFDATA_RECORD_HEADER_TRACING_DATA) {
        perfdata_tracing_data td;
        if (perfdata_decode_tracing_data(c->s->file, rec, &td, &err) == PERFDATA_OK) {
            free(c->tracing);
            c->tracing = (unsigned char *)xmalloc(td.data.n);
            memcpy(c->tracing, td.data.p, td.data.n);
            c->tracing_n = td.data.n;
        }
    } else if (rec->type == PERFDATA_RECORD_HEADER_BUILD_ID) {
        /* in the feature, an entry is the record with type 0 */
        unsigned char hdr[8];
        memcpy(hdr, rec->bytes.p, 8);
        memset(hdr, 0, 4);
        append_build_id(c, hdr, 8);
        append_build_id(c, rec->body.p, rec->body.n);
    }
}

/* A file's feature sections, as they are. */
static void file_features(convert_ctx *c) {
    const perfdata_file *f = c->s->file;
    unsigned id;
    for (id = 1; id < PERFDATA_FEAT_BITS; id++) {
        perfdata_view v;
        if (!perfdata_has_feature(f, id) || perfdata_feature_section(f, id, &v, NULL) != PERFDATA_OK) continue;
        if (id == PERFDATA_FEAT_TRACING_DATA) {
            c->tracing = (unsigned char *)xmalloc(v.n);
            memcpy(c->tracing, v.p, v.n);
            c->tracing_n = v.n;
        } else if (id == PERFDATA_FEAT_BUILD_ID) {
            append_build_id(c, v.p, v.n);
        } else {
            keep_feature(c, id, v.p, v.n);
        }
    }
}

static void note_left_out(convert_ctx *c, uint32_t type) {
    size_t i;
    c->left_out++;
    if (type < 128) {
        c->left_out_types[type / 64] |= 1ul << (type % 64);
        return;
    }
    for (i = 0; i < c->nother && c->other_types[i] != type; i++) {}
    if (i == c->nother && c->nother < sizeof c->other_types / sizeof c->other_types[0]) c->other_types[c->nother++] = type;
}

/* The second walk: every record but what begin wrote. */
static void write_record(void *ctx, const perfdata_record *rec, const char *name) {
    convert_ctx *c = (convert_ctx *)ctx;
    perfdata_error err;
    perfdata_status st;
    uint64_t at;
    (void)name;
    if (c->failed) return;
    switch (rec->type) {
    case PERFDATA_RECORD_HEADER_ATTR:
    case PERFDATA_RECORD_HEADER_FEATURE:
    case PERFDATA_RECORD_HEADER_TRACING_DATA:
    case PERFDATA_RECORD_HEADER_BUILD_ID:
        return; /* given to begin as events and features, or written after it */
    case PERFDATA_RECORD_COMPRESSED:
    case PERFDATA_RECORD_COMPRESSED2:
        if (c->decompress && pd_session_decompressed(c->s, rec)) return; /* its records follow */
        if (c->swap) { note_left_out(c, rec->type); return; }
        break;
    default: break;
    }
    at = perfdata_writer_size(&c->w);
    if (c->swap) st = convert_swap_record(&c->swapper, &c->w, c->s->file, rec, &err);
    else st = perfdata_writer_record(&c->w, rec->type, rec->misc, rec->body.p, rec->body.n, rec->extra.p, rec->extra.n, &err);
    if (st == PERFDATA_ERR_UNSUPPORTED) { note_left_out(c, rec->type); return; }
    if (st != PERFDATA_OK) {
        if (err.code == PERFDATA_ERR_BAD_ARGUMENT || err.code == PERFDATA_ERR_MALFORMED || err.code == PERFDATA_ERR_TRUNCATED) {
            pd_session_skip(c->s, rec, &err); /* a record that cannot be written again */
            return;
        }
        fprintf(stderr, "perfdata convert: writing the %s record at offset 0x%llx: %s\n", perfdata_record_name(rec->type),
                (unsigned long long)rec->offset, err.message);
        c->failed = 1;
        return;
    }
    c->written++;
    if (rec->type == PERFDATA_RECORD_AUXTRACE) {
        if (c->naux == c->capaux) {
            c->capaux = c->capaux ? 2 * c->capaux : 64;
            if (!(c->aux_at = (uint64_t *)realloc(c->aux_at, c->capaux * 2 * sizeof *c->aux_at))) pd_nomem();
        }
        c->aux_at[2 * c->naux] = at;
        c->aux_at[2 * c->naux + 1] = 8 + (uint64_t)rec->body.n; /* perf indexes the record, its header's size */
        c->naux++;
    }
}

/* Whether a feature section decodes (the kinds perf stops at in a pipe). */
static int feature_ok(const convert_ctx *c, unsigned id) {
    perfdata_view v, text;
    v.p = c->feats[id].bytes;
    v.n = c->feats[id].n;
    v.offset = 0;
    return !convert_string_feature(id) || perfdata_decode_feat_string(v, c->big_in, &text, NULL) == PERFDATA_OK;
}

/* A pipe's tracing data: a record with the payload after it, padded to 8. */
static void convert_tracing_record(convert_ctx *c, perfdata_error *err) {
    size_t padded = (c->tracing_n + 7) / 8 * 8;
    unsigned char body[8], *extra;
    if (padded > 0xffffffffu) {
        fprintf(stderr, "perfdata convert: the tracing data is left out: over 4 GiB\n");
        c->s->partial = 1;
        return;
    }
    memset(body, 0, sizeof body);
    body[c->big_out ? 3 : 0] = (unsigned char)padded;
    body[c->big_out ? 2 : 1] = (unsigned char)(padded >> 8);
    body[c->big_out ? 1 : 2] = (unsigned char)(padded >> 16);
    body[c->big_out ? 0 : 3] = (unsigned char)(padded >> 24);
    extra = (unsigned char *)xmalloc(padded);
    memcpy(extra, c->tracing, c->tracing_n);
    memset(extra + c->tracing_n, 0, padded - c->tracing_n);
    if (perfdata_writer_record(&c->w, PERFDATA_RECORD_HEADER_TRACING_DATA, 0, body, sizeof body, extra, padded, err) != PERFDATA_OK) {
        fprintf(stderr, "perfdata convert: the tracing data: %s\n", err->message);
        c->failed = 1;
    }
    free(extra);
}

/* A pipe's build ids: one record each, as the BUILD_ID feature holds
   them (with a type of 0 there). */
static void convert_build_id_records(convert_ctx *c, perfdata_error *err) {
    size_t at = 0;
    const unsigned char *p = c->build_ids;
    while (at + 8 <= c->build_ids_n && !c->failed) {
        int big = c->big_in; /* the collected entries are in the input's order */
        uint16_t misc = (uint16_t)(big ? p[at + 4] << 8 | p[at + 5] : p[at + 5] << 8 | p[at + 4]);
        size_t size = (size_t)(big ? p[at + 6] << 8 | p[at + 7] : p[at + 7] << 8 | p[at + 6]);
        unsigned char body[0x10000];
        if (size < 12 || size > c->build_ids_n - at) {
            fprintf(stderr, "perfdata convert: the build ids after entry %zu are left out: malformed\n", at);
            c->s->partial = 1;
            return;
        }
        memcpy(body, p + at + 8, size - 8);
        if (c->swap) { /* the pid */
            unsigned char t;
            t = body[0]; body[0] = body[3]; body[3] = t;
            t = body[1]; body[1] = body[2]; body[2] = t;
        }
        if (perfdata_writer_record(&c->w, PERFDATA_RECORD_HEADER_BUILD_ID, misc, body, size - 8, NULL, 0, err) != PERFDATA_OK) {
            fprintf(stderr, "perfdata convert: a build id: %s\n", err->message);
            c->failed = 1;
        }
        at += size;
    }
}

/* -------------------------------------------------------------- command */

enum { CONVERT_OUTPUT = 1, CONVERT_PIPE, CONVERT_FILE, CONVERT_ENDIAN, CONVERT_DECOMPRESS };

static const pd_opt convert_opts[] = {
    {'o', CONVERT_OUTPUT, "output", "FILE", "where to write ('-': standard output, as a pipe stream)"},
    {0, CONVERT_PIPE, "pipe", NULL, "write a pipe stream (perf record -o -'s format)"},
    {0, CONVERT_FILE, "file", NULL, "write a file (a header, attrs, data, features)"},
    {0, CONVERT_ENDIAN, "endian", "big|little", "the output's byte order (default: the input's)"},
    {0, CONVERT_DECOMPRESS, "decompress", NULL, "write the records of compressed chunks (perf record -z) plainly"},
    {0, 0, NULL, NULL, NULL},
};
static const pd_opt *const convert_tables[] = {convert_opts, pd_ratio_opts, NULL};
const pd_command pd_convert_command = {
    "convert", "the profile written again: file or pipe, byte order, decompressed",
    "  Writes the profile again with perfdata.h's writer: as a file or a pipe stream (default: as the\n"
    "  input is), in either byte order, with compressed chunks written out plainly on request. A\n"
    "  perf record --threads directory becomes one stream, its records in perf's delivery order.\n", convert_tables, NULL};

typedef struct convert_args { const char *output; int mode, endian, decompress; } convert_args;

static int convert_option(void *ctx, int id, const char *value) {
    convert_args *a = (convert_args *)ctx;
    switch (id) {
    case CONVERT_OUTPUT: a->output = value; break;
    case CONVERT_PIPE: a->mode = 1; break;
    case CONVERT_FILE: a->mode = 2; break;
    case CONVERT_DECOMPRESS: a->decompress = 1; break;
    case CONVERT_ENDIAN:
        if (!strcmp(value, "big")) a->endian = 2;
        else if (!strcmp(value, "little")) a->endian = 1;
        else { fprintf(stderr, "perfdata convert: --endian: big or little, not '%s'\n", value); return -1; }
        break;
    }
    return 0;
}

/* The whole of standard input (read twice: once for the events a pipe
   declares as it goes, once to write). */
static unsigned char *read_all(int fd, size_t *len) {
    size_t cap = 1 << 20, n = 0;
    unsigned char *p = (unsigned char *)xmalloc(cap);
    for (;;) {
        ssize_t k;
        unsigned char *q;
        if (n == cap) {
            if (cap > ((size_t)-1) / 2) { free(p); errno = ENOMEM; return NULL; }
            cap *= 2;
            if (!(q = (unsigned char *)realloc(p, cap))) pd_nomem();
            p = q;
        }
        k = read(fd, p + n, cap - n);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) { free(p); return NULL; }
        if (k == 0) break;
        n += (size_t)k;
    }
    *len = n;
    return p;
}

static int open_input(pd_session *s, const char *path, const unsigned char *mem, size_t len, unsigned flags) {
    (void)flags;
    if (mem) return pd_session_open_mem(s, mem, len, "-");
    return pd_session_open_flags(s, path, flags);
}

int pd_cmd_convert(int argc, char **argv) {
    convert_args args;
    convert_ctx *c;
    pd_session s;
    const char *path = NULL;
    unsigned char *mem = NULL;
    size_t memlen = 0, i, nfeat = 0, nev, aux_feature = (size_t)-1;
    perfdata_writer_event *events = NULL;
    uint64_t **ids = NULL;
    perfdata_writer_feature wf[PERFDATA_FEAT_BITS];
    perfdata_error err;
    out_file o;
    struct stat st;
    int rc, in_pipe, walked, is_dir;
    unsigned flags;
    memset(&args, 0, sizeof args);
    if ((rc = pd_opts_parse(&pd_convert_command, argc, argv, convert_option, &args, &path)) >= 0) return rc;
    if (!args.output) {
        fprintf(stderr, "perfdata convert: no output: -o FILE (or -o - for a pipe stream on standard output)\n");
        pd_opts_usage(&pd_convert_command, stderr);
        return PD_EXIT_USAGE;
    }
    if (!strcmp(path, "-") || (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))) {
        int fd = !strcmp(path, "-") ? 0 : open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0 || !(mem = read_all(fd, &memlen))) {
            fprintf(stderr, "perfdata convert: %s: %s\n", path, strerror(errno));
            if (fd > 0) close(fd);
            return PD_EXIT_ERROR;
        }
        if (fd > 0) close(fd);
    }
    /* a perf record --threads directory becomes one stream: its streams'
       records in perf's delivery order (time order), chunks decompressed */
    is_dir = !mem && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
    if (is_dir) args.decompress = 1;
    c = (convert_ctx *)calloc(1, sizeof *c);
    if (!c) pd_nomem();
    flags = is_dir ? PERFDATA_READ_ORDERED : args.decompress ? 0u : PERFDATA_READ_RAW_CHUNKS;
    if (open_input(&s, path, mem, memlen, flags) != 0) { free(mem); free(c); return PD_EXIT_ERROR; }
    c->s = &s;
    in_pipe = (s.file->flags & PERFDATA_FILE_PIPE) != 0;
    c->big_in = (s.file->flags & PERFDATA_FILE_BIG_ENDIAN) != 0;
    c->pipe_out = args.mode ? args.mode == 1 : in_pipe;
    c->big_out = args.endian ? args.endian == 2 : c->big_in;
    c->swap = c->big_out != c->big_in;
    c->decompress = args.decompress;
    if (!strcmp(args.output, "-") && !c->pipe_out) {
        fprintf(stderr, "perfdata convert: a file is written to a file: -o FILE, or --pipe for standard output\n");
        pd_session_close(&s); free(mem); free(c);
        return PD_EXIT_USAGE;
    }
    /* a pipe declares its events and features as it goes: a first walk */
    walked = 0;
    if (in_pipe) {
        rc = pd_session_walk(&s, collect, c);
        if (rc != PD_EXIT_OK && rc != PD_EXIT_PARTIAL) { pd_session_close(&s); free(mem); free(c); return rc; }
        walked = 1;
    } else {
        file_features(c);
    }
    nev = s.file->nr_events;
    if (!nev) {
        fprintf(stderr, "perfdata convert: %s: no event (attr): nothing to write\n", path);
        pd_session_close(&s); free(mem); free(c);
        return PD_EXIT_ERROR;
    }
    events = (perfdata_writer_event *)xmalloc(nev * sizeof *events);
    ids = (uint64_t **)xmalloc(nev * sizeof *ids);
    for (i = 0; i < nev; i++) {
        const perfdata_event *e = &s.file->events[i];
        size_t k;
        events[i].attr = e->attr;
        /* perf reads no file whose attrs are larger than its own (128 bytes
           up to perf 6.2), but does read them in a pipe: what the fields
           past 128 bytes hold when they are 0 is said by a 128-byte attr */
        if (!c->pipe_out && e->attr.size > PERFDATA_ATTR_SIZE_VER7 && !e->attr.config3 && !e->attr.config4)
            events[i].attr.size = PERFDATA_ATTR_SIZE_VER7;
        events[i].nr_ids = e->ids.count;
        ids[i] = (uint64_t *)xmalloc(e->ids.count * sizeof **ids);
        for (k = 0; k < e->ids.count; k++) ids[i][k] = perfdata_u64s_at(&e->ids, k);
        events[i].ids = ids[i];
    }
    if (c->tracing && !c->pipe_out) keep_feature(c, PERFDATA_FEAT_TRACING_DATA, c->tracing, c->tracing_n);
    if (c->build_ids_n && !c->pipe_out) keep_feature(c, PERFDATA_FEAT_BUILD_ID, c->build_ids, c->build_ids_n);
    if (c->decompress) c->have[PERFDATA_FEAT_COMPRESSED] = 0; /* no chunk is left */
    /* perf stat record marks its files (an empty section); its pipes carry no feature */
    if (c->stat_records && !c->pipe_out && !c->have[PERFDATA_FEAT_STAT]) keep_feature(c, PERFDATA_FEAT_STAT, NULL, 0);
    /* these say where the data is, which the writer decides: DIR_FORMAT
       goes, the AUXTRACE index is made again from where the records go (a
       pipe has none) */
    c->have[PERFDATA_FEAT_DIR_FORMAT] = 0;
    if (c->have[PERFDATA_FEAT_AUXTRACE]) {
        c->have[PERFDATA_FEAT_AUXTRACE] = !c->pipe_out;
        c->feats[PERFDATA_FEAT_AUXTRACE].n = 0; /* until the records are written */
    }
    if (c->swap) convert_swap_init(&c->swapper, s.file, c->big_out);
    if (c->swap && c->have[PERFDATA_FEAT_NRCPUS]) { /* as the input says it, before it is swapped */
        perfdata_view v;
        perfdata_feat_nrcpus nrc;
        v.p = c->feats[PERFDATA_FEAT_NRCPUS].bytes;
        v.n = c->feats[PERFDATA_FEAT_NRCPUS].n;
        v.offset = 0;
        if (perfdata_decode_feat_nrcpus(v, c->big_in, &nrc, NULL) == PERFDATA_OK) c->swapper.nr_cpus = nrc.nr_cpus_available;
    }
    for (i = 1; i < PERFDATA_FEAT_BITS; i++) {
        if (!c->have[i]) continue;
        if (i == PERFDATA_FEAT_AUXTRACE) { /* made after the records */
            aux_feature = nfeat;
            wf[nfeat].id = (unsigned)i;
            wf[nfeat].bytes = NULL;
            wf[nfeat].n = 0;
            nfeat++;
            continue;
        }
        if (!feature_ok(c, (unsigned)i)) {
            /* perf skips a damaged section of a file, but stops at a damaged feature record of a pipe */
            fprintf(stderr, "perfdata convert: the %s feature is left out: malformed\n", perfdata_feature_name((unsigned)i));
            s.partial = 1;
            continue;
        }
        if (c->swap) {
            unsigned char *p = NULL;
            size_t n = 0;
            if (convert_swap_feature(&c->swapper, (unsigned)i, c->feats[i].bytes, c->feats[i].n, &p, &n) != 0) {
                fprintf(stderr, "perfdata convert: the %s feature is left out: its byte order is not changed yet\n",
                        perfdata_feature_name((unsigned)i));
                s.partial = 1;
                continue;
            }
            free(c->feats[i].bytes);
            c->feats[i].bytes = p;
            c->feats[i].n = n;
        }
        if (c->pipe_out && !strcmp(perfdata_feature_name((unsigned)i), "UNKNOWN")) {
            /* a file's reader skips a feature bit it does not know; perf stops at such a record in a pipe */
            fprintf(stderr, "perfdata convert: feature %u is left out: a pipe's reader stops at a feature it does not know\n", (unsigned)i);
            s.partial = 1;
            continue;
        }
        if (c->pipe_out && c->feats[i].n > 0xffff - 16) {
            fprintf(stderr, "perfdata convert: the %s feature is left out: %zu bytes do not fit a pipe's record\n",
                    perfdata_feature_name((unsigned)i), c->feats[i].n);
            s.partial = 1;
            continue;
        }
        wf[nfeat].id = (unsigned)i;
        wf[nfeat].bytes = c->feats[i].bytes;
        wf[nfeat].n = c->feats[i].n;
        nfeat++;
    }
    if (walked) { /* walked once: opened again for the records */
        pd_session_close(&s);
        if (open_input(&s, path, mem, memlen, flags) != 0) rc = PD_EXIT_ERROR;
        else rc = PD_EXIT_OK;
        if (rc != PD_EXIT_OK) goto done_early;
        if (c->swap) convert_swap_init(&c->swapper, s.file, c->big_out);
    }
    memset(&o, 0, sizeof o);
    o.path = args.output;
    {   /* the input is read while the output is written: never the same file */
        struct stat in_st, out_st;
        if (!mem && strcmp(args.output, "-") != 0 && stat(path, &in_st) == 0 && stat(args.output, &out_st) == 0 &&
            in_st.st_dev == out_st.st_dev && in_st.st_ino == out_st.st_ino) {
            fprintf(stderr, "perfdata convert: %s is the input: write to another file\n", args.output);
            rc = PD_EXIT_USAGE;
            goto done_early;
        }
    }
    o.fd = !strcmp(args.output, "-") ? 1 : open(args.output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (o.fd < 0) {
        fprintf(stderr, "perfdata convert: %s: %s\n", args.output, strerror(errno));
        rc = PD_EXIT_ERROR;
        goto done_early;
    }
    o.cap = 1 << 20;
    o.buf = (unsigned char *)xmalloc(o.cap);
    perfdata_writer_init(&c->w, (c->pipe_out ? PERFDATA_WRITE_PIPE : 0u) | (c->big_out ? PERFDATA_WRITE_BIG_ENDIAN : 0u),
                         out_sink, &o, NULL);
    if (perfdata_writer_begin(&c->w, events, nev, wf, nfeat, &err) != PERFDATA_OK) {
        if (!o.failed) fprintf(stderr, "perfdata convert: %s\n", err.message);
        rc = PD_EXIT_ERROR;
    } else {
        /* a pipe has its tracing data and build ids as records */
        if (c->pipe_out && c->tracing) convert_tracing_record(c, &err);
        if (c->pipe_out && c->build_ids_n) convert_build_id_records(c, &err);
        rc = is_dir ? pd_session_walk_ordered(&s, write_record, c) : pd_session_walk(&s, write_record, c);
        if (aux_feature != (size_t)-1) { /* u64 count, then (offset, size) per record, in the output's order */
            size_t k, b;
            unsigned char *p = (unsigned char *)xmalloc(8 + 16 * c->naux);
            uint64_t v;
            for (k = 0; k <= 2 * c->naux; k++) {
                v = k ? c->aux_at[k - 1] : (uint64_t)c->naux;
                for (b = 0; b < 8; b++) p[8 * k + (c->big_out ? 7 - b : b)] = (unsigned char)(v >> (8 * b));
            }
            free(c->feats[PERFDATA_FEAT_AUXTRACE].bytes);
            c->feats[PERFDATA_FEAT_AUXTRACE].bytes = p;
            wf[aux_feature].bytes = p; /* the writer reads the features at finish */
            wf[aux_feature].n = 8 + 16 * c->naux;
        }
        if (!c->failed && perfdata_writer_finish(&c->w, &err) != PERFDATA_OK) {
            if (!o.failed) fprintf(stderr, "perfdata convert: %s\n", err.message);
            c->failed = 1;
        }
        if (!o.failed && out_flush(&o) < 0) c->failed = 1;
        if (c->failed || o.failed) rc = PD_EXIT_ERROR;
    }
    if (o.fd > 1 && close(o.fd) != 0 && rc != PD_EXIT_ERROR) {
        fprintf(stderr, "perfdata convert: %s: %s\n", args.output, strerror(errno));
        rc = PD_EXIT_ERROR;
    }
    free(o.buf);
    if (c->left_out) {
        unsigned t;
        fprintf(stderr, "perfdata convert: %llu records left out (their byte order is not changed yet):",
                (unsigned long long)c->left_out);
        for (t = 0; t < 128; t++)
            if (c->left_out_types[t / 64] & (1ul << (t % 64))) fprintf(stderr, " %s", perfdata_record_name(t));
        for (t = 0; t < c->nother; t++) fprintf(stderr, " %lu", (unsigned long)c->other_types[t]);
        fprintf(stderr, "%s\n", (c->left_out_types[1] & (1ul << (PERFDATA_RECORD_COMPRESSED - 64) | 1ul << (PERFDATA_RECORD_COMPRESSED2 - 64)))
                                     ? " (--decompress writes the records of compressed chunks)" : "");
        s.partial = 1;
    }
    if (rc != PD_EXIT_ERROR) rc = pd_session_finish(&s, rc);
done_early:
    pd_session_close(&s);
    for (i = 0; i < nev; i++) free(ids[i]);
    free(ids);
    free(events);
    for (i = 0; i < PERFDATA_FEAT_BITS; i++) free(c->feats[i].bytes);
    free(c->tracing);
    free(c->build_ids);
    free(c->aux_at);
    if (c->swap) convert_swap_free(&c->swapper);
    free(c);
    free(mem);
    return rc;
}
