/* pd_tool.c - see pd_tool.h. */
#define PERFDATA_ZSTD
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"
#include "pd_tool.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void report(const char *path, const perfdata_error *err) {
    fprintf(stderr, "perfdata: %s: %s (%s) at offset 0x%llx", path, err->message, perfdata_status_name(err->code),
            (unsigned long long)err->offset);
    if (err->record_type) fprintf(stderr, ", record type %u", err->record_type);
    fprintf(stderr, "\n");
}

const char *pd_event_name(pd_session *s, size_t e) {
    static char buf[256];
    return perfdata_event_name(&s->file, e, buf, sizeof buf);
}

/* The file parsed from s->input, which is open. */
static int session_start(pd_session *s, const char *path) {
    perfdata_error err;
    size_t nev = 0, nids;
    perfdata_view arch;
    /* A pipe that ends badly still has a count of what came before; a bad
       file header fails perfdata_open below with the same error. */
    perfdata_count_events(s->input.main.data, s->input.main.size, &nev, &err);
    s->events = calloc(nev ? nev : 1, sizeof *s->events);
    if (!s->events || perfdata_open(&s->file, s->input.main.data, s->input.main.size, s->events, nev, &err) != PERFDATA_OK) {
        if (s->events) report(path, &err);
        else fprintf(stderr, "perfdata: out of memory\n");
        pd_session_close(s);
        return -1;
    }
    nids = perfdata_id_index_needed(&s->file);
    if (nids) {
        s->ids = calloc(nids, sizeof *s->ids);
        if (s->ids) perfdata_set_id_index(&s->file, s->ids, nids, NULL);
    }
    if (s->file.flags & PERFDATA_FILE_DATA_SIZE_ZERO) {
        fprintf(stderr, "perfdata: %s: the header's data size is 0 (was perf record interrupted?); "
                        "like perf, no records are read\n", path);
        s->partial = 1;
    }
    snprintf(s->arch, sizeof s->arch, "x86_64");
    if (perfdata_feature_string(&s->file, PERFDATA_FEAT_ARCH, &arch, NULL) == PERFDATA_OK && arch.n < sizeof s->arch) {
        memcpy(s->arch, arch.p, arch.n);
        s->arch[arch.n] = 0;
    }
    return 0;
}

int pd_session_open(pd_session *s, const char *path) {
    char msg[4400];
    memset(s, 0, sizeof *s);
    s->path = path;
    if (pd_input_open(&s->input, path, msg, sizeof msg) < 0) {
        fprintf(stderr, "perfdata: %s\n", msg);
        return -1;
    }
    return session_start(s, path);
}

int pd_session_open_mem(pd_session *s, const unsigned char *data, size_t size, const char *name) {
    memset(s, 0, sizeof *s);
    s->path = name;
    s->input.main.data = data;
    s->input.main.size = size;
    s->input.main.next_check = (size_t)-1; /* not a mapping: nothing to give back */
    s->input.main.path = name;
    return session_start(s, name);
}

struct pd_block {
    struct pd_block *next;
    unsigned char *data;
    size_t n;
    const char *stream;             /* the file its chunks came from */
    int in_use;
};

static void free_blocks(struct pd_block *b) {
    while (b) {
        struct pd_block *next = b->next;
        free(b->data);
        free(b);
        b = next;
    }
}

static void inflate_free(pd_inflate *z) {
    free_blocks(z->blocks);
    free_blocks(z->spare);
    free(z->zstd);
    free(z->window);
    memset(z, 0, sizeof *z);
}

/* A new output buffer of n bytes, a spare one when one is large enough. */
static unsigned char *inflate_block(pd_inflate *z, size_t n) {
    struct pd_block **pp, *b = NULL;
    for (pp = &z->spare; *pp; pp = &(*pp)->next)
        if ((*pp)->n >= n) { b = *pp; *pp = b->next; break; }
    if (!b) {
        b = calloc(1, sizeof *b);
        if (!b || !(b->data = malloc(n))) { free(b); return NULL; }
        b->n = n;
    }
    b->stream = z->stream;
    b->next = z->blocks;
    z->blocks = b;
    return b->data;
}

static struct pd_block *block_of(struct pd_block *b, const unsigned char *p) {
    for (; b; b = b->next)
        if (p && p >= b->data && p < b->data + b->n) return b;
    return NULL;
}

static void mark(struct pd_block *blocks, const unsigned char *p) {
    struct pd_block *b = block_of(blocks, p);
    if (b) b->in_use = 1;
}

/* One event view, copied into memory of the session's when it points into
   a decompressed buffer. */
static void own_view(pd_session *s, perfdata_view *v) {
    unsigned char *copy;
    if (!v->n || !block_of(s->inflate.blocks, v->p)) return;
    if (s->ncopies == s->capcopies) {
        size_t cap = s->capcopies ? s->capcopies * 2 : 16;
        void **more = realloc(s->copies, cap * sizeof *more);
        if (!more) return; /* then it stays as it was */
        s->copies = more;
        s->capcopies = cap;
    }
    if (!(copy = malloc(v->n))) return;
    memcpy(copy, v->p, v->n);
    s->copies[s->ncopies++] = copy;
    v->p = copy;
}

static void own_event(pd_session *s, size_t i) {
    perfdata_event *e = &s->file.events[i];
    own_view(s, &e->name);
    own_view(s, &e->attr_bytes);
    own_view(s, &e->ids.bytes);
}

/* An attr, an EVENT_UPDATE or a pipe's EVENT_DESC read from inside a chunk
   leaves perfdata_file's events pointing into that chunk's output: its
   name, attr bytes and ids. That buffer is reused (plain walks) or given
   back (ordered walks), so the tools copy what the events point to. Only
   the events the record names are looked at (looking at every event for
   every such record would be quadratic). */
static void own_event_views(pd_session *s, const perfdata_record *rec, size_t events_before) {
    perfdata_file *f = &s->file;
    size_t i;
    if (rec->type == PERFDATA_RECORD_HEADER_ATTR) {
        for (i = events_before; i < f->nr_events; i++) own_event(s, i);
    } else if (rec->type == PERFDATA_RECORD_EVENT_UPDATE) {
        perfdata_event_update u;
        long ev;
        if (perfdata_decode_event_update(f, rec, &u, NULL) == PERFDATA_OK && u.type == PERFDATA_EVENT_UPDATE_NAME &&
            (ev = perfdata_find_event(f, u.id)) >= 0)
            own_event(s, (size_t)ev);
    } else if (rec->type == PERFDATA_RECORD_HEADER_FEATURE) {
        perfdata_header_feature hf;
        perfdata_feat_event_desc d;
        perfdata_event_desc_entry e;
        size_t st = 0;
        if (perfdata_decode_header_feature(f, rec, &hf, NULL) != PERFDATA_OK || hf.feat_id != PERFDATA_FEAT_EVENT_DESC ||
            perfdata_decode_feat_event_desc(hf.data, rec->big_endian, &d, NULL) != PERFDATA_OK)
            return;
        for (i = 0; perfdata_event_desc_next(&d, &st, &e); i++) { /* the events its entries name */
            long ev = e.ids.count ? perfdata_find_event(f, perfdata_u64s_at(&e.ids, 0)) : (long)i;
            if (i < f->nr_events) own_event(s, i);
            if (ev >= 0 && (size_t)ev < f->nr_events) own_event(s, (size_t)ev);
        }
    }
}

/* In an ordered walk every chunk's output is kept while records from it
   wait in the queue; once none do, its buffer goes to the spares, so the
   memory stays that of the queue's span rather than of the whole file.
   Kept: the buffer being filled, the one the chunk being read is in and
   the one holding a partial record. (Nothing in perfdata_file points into
   them: see own_event_views.) */
static void inflate_reclaim(pd_session *s) {
    pd_inflate *z = &s->inflate;
    struct pd_block **pp, *b;
    size_t i;
    if (!s->ordering) return;
    for (b = z->blocks; b; b = b->next) b->in_use = 0;
    mark(z->blocks, z->z.buf);
    if (z->z.carry) mark(z->blocks, z->z.carry_p);
    if (z->z.inner_active) mark(z->blocks, z->z.inner.range.p);
    for (i = 0; i < s->order.nr; i++) mark(z->blocks, s->order.queue[i].bytes);
    if (s->order.have_held) mark(z->blocks, s->order.held.bytes.p);
    for (pp = &z->blocks; *pp;) {
        b = *pp;
        if (b->in_use) { pp = &b->next; continue; }
        *pp = b->next;
        b->next = z->spare;
        z->spare = b;
    }
}

/* Sets up perfdata_inflate over cursor c, which is at the first chunk or
   before it. Without compressed records or with --no-decompress, the chunks
   (if any) are yielded as they are. */
/* The largest zstd window set up: libzstd's decoder refuses frames that ask
   for more than 128 MiB (ZSTD_WINDOWLOG_LIMIT_DEFAULT), so perf reads no
   such file, and the size is the frame header's to name. */
/* the buffer perfdata_zstd_window_buffer_size asks for libzstd's largest
   window, 128 MiB + 1: the window, a block and 32 bytes */
#define PD_ZSTD_WINDOW_LIMIT (((size_t)128 << 20) + 1 + PERFDATA_ZSTD_BLOCK_SIZE_MAX + 32)

static void inflate_begin(pd_session *s, perfdata_cursor *c) {
    pd_inflate *z = &s->inflate;
    size_t win = 0, cap;
    unsigned char *buf = NULL;
    int keep = z->keep;
    if (!z->sizes.compressed) perfdata_inflate_measure(&s->file, c, &z->sizes, NULL);
    if (z->sizes.compressed && !s->no_decompress && !z->zstd &&
        perfdata_zstd_window_buffer_size(z->sizes.first_chunk.p, z->sizes.first_chunk.n, &win, NULL) == PERFDATA_OK && win &&
        win <= PD_ZSTD_WINDOW_LIMIT) {
        z->zstd = malloc(sizeof(perfdata_zstd_dctx));
        z->window = malloc(win);
        z->window_size = win;
    }
    /* A fresh stream (each data.N of a directory has its own). */
    if (z->zstd && z->window) perfdata_zstd_dctx_init((perfdata_zstd_dctx *)z->zstd, z->window, z->window_size, 0);
    /* The buffer size comes from the file: a hostile mmap_len (up to 4 GiB)
       must not become a huge allocation. One chunk's output is taken to be
       at most 64 MiB (perf writes at most its mmap_len, 512 KiB by default,
       `-m 16M` gives 16 MiB), and the buffer is twice that: a writer may put
       more than mmap_len into one chunk; one beyond the buffer fails. The
       buffers of an ordered walk are sized from the same clamped value. */
    if (z->sizes.buffer > (64u << 20) + 65535u) z->sizes.buffer = (64u << 20) + 65535u;
    cap = (size_t)z->sizes.buffer * 2;
    if (keep) cap += 16u << 20;
    if (z->zstd && z->window) buf = inflate_block(z, cap);
    perfdata_inflate_init(&z->z, c, &z->sizes, buf, buf ? cap : 0, buf ? perfdata_zstd_chunk : NULL, z->zstd);
    perfdata_inflate_set_max_ratio(&z->z, (uint32_t)pd_limit.max_ratio);
    z->z.keep = keep;
    if (z->sizes.compressed && !s->no_decompress && !buf && !z->reported) { /* once, not per data.N */
        fprintf(stderr, "perfdata: %s: cannot set up decompression (bad first chunk, a window over 128 MiB, "
                        "or out of memory); compressed records are skipped\n", s->path);
        z->reported = 1;
        s->partial = 1;
    }
}

/* keep: append every chunk's output (ordered walks); else one buffer is
   reused. A file's COMPRESSED feature is in its header, so the set-up can
   wait for the first chunk: most files have none, and looking for one
   first would read the whole data section once more. A pipe's feature is a
   record before the data, so a pipe is measured from the start. */
static void inflate_start(pd_session *s, perfdata_cursor *c, int keep, const char *stream) {
    pd_inflate *z = &s->inflate;
    z->keep = keep;
    z->stream = stream;
    z->waiting = !z->sizes.compressed && !(s->file.flags & PERFDATA_FILE_PIPE);
    if (!z->waiting) inflate_begin(s, c);
}

static size_t blocks_bytes(const struct pd_block *b) {
    size_t n = 0;
    for (; b; b = b->next) n += b->n;
    return n;
}

static void free_spares(pd_inflate *z) {
    free_blocks(z->spare);
    z->spare = NULL;
}

/* The ordered walk's memory: the queue's window and the decompressed
   buffers its records point into. */
static unsigned long long queue_memory(const pd_session *s) {
    return (unsigned long long)s->order.cap * sizeof(perfdata_order_entry) + blocks_bytes(s->inflate.blocks);
}

/* Before each ordered step: a fresh buffer when the current one is full.
   Past --queue-size the spare buffers go, and the walk releases queued
   records so that theirs can go too. */
static void inflate_make_room(pd_session *s) {
    pd_inflate *z = &s->inflate;
    size_t need = perfdata_inflate_room_needed(&z->z);
    unsigned char *buf;
    if (!need || z->z.failed) return;
    need = need > (16u << 20) ? need : (16u << 20);
    inflate_reclaim(s);
    if (pd_limit.queue_bytes && queue_memory(s) + need > pd_limit.queue_bytes) {
        free_spares(z);
        s->over_bound = 1;
    } else {
        s->flushed_half = 0;
    }
    buf = inflate_block(z, need);
    if (!buf || perfdata_inflate_set_buffer(&z->z, buf, need, NULL) != PERFDATA_OK) z->z.failed = 1;
}

/* The record source of every walk: the cursor's records, and after each
   COMPRESSED chunk the records decompressed from it (at the chunk's offset,
   as perf reports them). When the chunk stream breaks, says once why the
   records of later chunks are missing. */
static inline perfdata_status next_record(void *user, perfdata_file *f, perfdata_cursor *c, perfdata_record *rec,
                                   perfdata_error *err) {
    pd_session *s = (pd_session *)user;
    pd_inflate *z = &s->inflate;
    perfdata_status st;
    size_t before;
    if (!z->sizes.compressed) { /* no chunks so far: the plain walk */
        st = perfdata_next_record(f, c, rec, err);
        if (!z->waiting || st != PERFDATA_OK ||
            (rec->type != PERFDATA_RECORD_COMPRESSED && rec->type != PERFDATA_RECORD_COMPRESSED2))
            return st;
        /* the first chunk: back to it, and decompress from there */
        c->pos = (size_t)(rec->bytes.p - c->range.p);
        z->waiting = 0;
        inflate_begin(s, c);
        if (!z->sizes.compressed) return perfdata_next_record(f, c, rec, err); /* cannot happen: measure starts at this chunk */
    }
    if (z->z.keep) inflate_make_room(s);
    before = f->nr_events;
    st = perfdata_inflate_source(&z->z, f, c, rec, err);
    if (st == PERFDATA_OK &&
        (rec->type == PERFDATA_RECORD_HEADER_ATTR || rec->type == PERFDATA_RECORD_EVENT_UPDATE ||
         rec->type == PERFDATA_RECORD_HEADER_FEATURE) && block_of(z->blocks, rec->bytes.p))
        own_event_views(s, rec, before); /* rare: perf writes these outside the chunks */
    if (z->z.failed && z->z.error.code != PERFDATA_OK && !z->reported) {
        z->reported = 1;
        s->partial = 1;
        if (z->z.error.code == PERFDATA_ERR_LIMIT)
            fprintf(stderr, "perfdata: %s: the records inside the compressed chunks expand more than %lu times "
                    "their size by the chunk at 0x%llx; decompression stops there and the records of later "
                    "chunks are skipped (--max-ratio N raises the bound, 0 removes it)\n", s->path,
                    pd_limit.max_ratio, (unsigned long long)z->z.error.offset);
        else
            fprintf(stderr, "perfdata: %s: %s at 0x%llx; the records of later chunks are skipped\n", s->path,
                    z->z.error.message, (unsigned long long)z->z.error.offset);
        /* a chunk that could not be decompressed is still a record; an
           error that stopped the cursor never becomes OK */
        if (st == PERFDATA_ERR_MALFORMED && c->stopped == PERFDATA_OK &&
            (rec->type == PERFDATA_RECORD_COMPRESSED || rec->type == PERFDATA_RECORD_COMPRESSED2))
            st = PERFDATA_OK;
    }
    return st;
}

int pd_session_decompressed(const pd_session *s, const perfdata_record *rec) {
    return perfdata_inflate_expands(&s->inflate.z, rec) && s->inflate.z.decompress;
}

void pd_session_close(pd_session *s) {
    size_t i;
    for (i = 0; i < s->ncopies; i++) free(s->copies[i]);
    free(s->copies);
    s->copies = NULL;
    s->ncopies = 0;
    inflate_free(&s->inflate);
    free(s->events);
    free(s->ids);
    pd_input_close(&s->input);
    s->events = NULL;
    s->ids = NULL;
}

/* In pipe mode events arrive as HEADER_ATTR records; the index grows with
   them, so it is re-sized whenever an attr is added. */
static void refresh_id_index(pd_session *s) {
    size_t need = perfdata_id_index_needed(&s->file);
    perfdata_id_entry *bigger;
    if (!need || (s->file.id_index && s->file.cap_ids >= need)) return;
    bigger = realloc(s->ids, need * 2 * sizeof *bigger);
    if (!bigger) return; /* scanning still works */
    s->ids = bigger;
    perfdata_set_id_index(&s->file, s->ids, need * 2, NULL);
}

/* The cursor stopped on an error: where, and how far the command got.
   PARTIAL when records came before it or the input is cut; ERROR when
   nothing could be read. */
static int stopped(pd_session *s, const char *name, const perfdata_error *err) {
    fprintf(stderr, "perfdata: %s: %s (%s) at offset 0x%llx", name, err->message, perfdata_status_name(err->code),
            (unsigned long long)err->offset);
    if (err->record_type) fprintf(stderr, ", record type %u", err->record_type);
    if (err->code == PERFDATA_ERR_TRUNCATED && err->needed)
        fprintf(stderr, ", %llu bytes missing", (unsigned long long)err->needed);
    if (!s->records && err->code != PERFDATA_ERR_TRUNCATED) {
        fprintf(stderr, "; no record could be read\n");
        return PD_EXIT_ERROR;
    }
    fprintf(stderr, "; the records stop there: %llu read before it\n", (unsigned long long)s->records);
    s->partial = 1;
    return PD_EXIT_PARTIAL;
}

/* Every record was read, but the file is cut after its data section (the
   feature sections are missing): a partial result. */
static int walk_ended(pd_session *s, int rc) {
    if (rc != 0 || !(s->file.flags & PERFDATA_FILE_CUT)) return rc;
    fprintf(stderr, "perfdata: %s: the file is cut at offset 0x%llx, after its data section: every record was "
                    "processed, the feature sections are missing\n", s->path, (unsigned long long)s->file.buffer.n);
    s->partial = 1;
    return PD_EXIT_PARTIAL;
}

static int walk_cursor(pd_session *s, pd_map *m, perfdata_cursor *c, const char *name, pd_record_fn fn, void *ctx) {
    perfdata_record rec;
    perfdata_error err;
    perfdata_status st;
    for (;;) {
        size_t before = s->file.nr_events;
        st = next_record(s, &s->file, c, &rec, &err);
        if (st == PERFDATA_END) return PD_EXIT_OK;
        if (st == PERFDATA_ERR_NO_SPACE) { /* a pipe with more attrs than counted */
            fprintf(stderr, "perfdata: %s: more events than counted; the records stop there: %llu read before it\n",
                    s->path, (unsigned long long)s->records);
            s->partial = 1;
            return PD_EXIT_PARTIAL;
        }
        if (st != PERFDATA_OK && c->stopped != PERFDATA_OK) return stopped(s, name, &err);
        if (st != PERFDATA_OK) pd_session_skip(s, &rec, &err); /* a bad attr record: still a record */
        if (s->file.nr_events != before) refresh_id_index(s);
        s->records++;
        fn(ctx, &rec, name);
        pd_map_at(m, c->range.p + c->pos);
    }
}

void pd_session_skip(pd_session *s, const perfdata_record *rec, const perfdata_error *err) {
    if (!s->skipped++) {
        if (err) s->first_skip = *err;
        else {
            memset(&s->first_skip, 0, sizeof s->first_skip);
            s->first_skip.code = PERFDATA_ERR_MALFORMED;
            s->first_skip.message = "malformed";
        }
        if (!s->first_skip.offset && rec) s->first_skip.offset = rec->offset;
        if (!s->first_skip.record_type && rec) s->first_skip.record_type = rec->type;
    }
}

int pd_output_status(int rc) {
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "perfdata: write error on standard output: %s\n", errno ? strerror(errno) : "unknown error");
        return PD_EXIT_ERROR;
    }
    return rc;
}

int pd_session_finish(pd_session *s, int rc) {
    if (s->skipped) {
        const perfdata_error *e = &s->first_skip;
        fprintf(stderr, "perfdata: %s: %llu of %llu records could not be decoded and were left out (the first at offset "
                        "0x%llx, record type %u: %s)\n",
                s->path, (unsigned long long)s->skipped, (unsigned long long)s->records, (unsigned long long)e->offset,
                e->record_type, e->message);
        s->partial = 1;
    }
    if (rc == PD_EXIT_OK && s->partial) rc = PD_EXIT_PARTIAL;
    return pd_output_status(rc);
}

int pd_session_walk(pd_session *s, pd_record_fn fn, void *ctx) {
    perfdata_cursor c;
    size_t i;
    int rc;
    perfdata_cursor_init(&s->file, &c);
    if (s->file.flags & PERFDATA_FILE_PIPE) refresh_id_index(s);
    inflate_start(s, &c, 0, NULL);
    rc = walk_cursor(s, &s->input.main, &c, s->input.is_dir ? s->input.main.path : s->path, fn, ctx);
    for (i = 0; i < s->input.nr_streams; i++) {
        pd_map *m = &s->input.streams[i];
        if (!m->size) continue;
        perfdata_cursor_init_range(&c, m->data, m->size, 0, (s->file.flags & PERFDATA_FILE_BIG_ENDIAN) != 0);
        inflate_start(s, &c, 0, NULL);
        rc |= walk_cursor(s, m, &c, m->path, fn, ctx);
    }
    return walk_ended(s, rc);
}

void pd_print_header(pd_session *s) {
    const perfdata_file *f = &s->file;
    size_t i;
    printf("# mode: %s, byte order: %s-endian\n", (f->flags & PERFDATA_FILE_PIPE) ? "pipe" : "file",
           (f->flags & PERFDATA_FILE_BIG_ENDIAN) ? "big" : "little");
    if (!(f->flags & PERFDATA_FILE_PIPE)) {
        printf("# header size: %llu, attr size: %llu\n", (unsigned long long)f->header_size,
               (unsigned long long)f->attr_size);
        printf("# attrs: 0x%llx [%llu], data: 0x%llx [%llu]\n", (unsigned long long)f->attrs.offset,
               (unsigned long long)f->attrs.size, (unsigned long long)f->data.offset, (unsigned long long)f->data.size);
        printf("# features:");
        for (i = 0; i < PERFDATA_FEAT_BITS; i++)
            if (perfdata_has_feature(f, (unsigned)i)) printf(" %zu", i);
        printf("\n");
    }
    for (i = 0; i < f->nr_events; i++) {
        const perfdata_attr *a = &f->events[i].attr;
        printf("# event %zu: type %u, config 0x%llx, size %u, sample_type 0x%llx, read_format 0x%llx, flags 0x%llx, "
               "%zu ids\n",
               i, a->type, (unsigned long long)a->config, a->size, (unsigned long long)a->sample_type,
               (unsigned long long)a->read_format, (unsigned long long)a->flags, f->events[i].ids.count);
    }
}

/* Which file of a directory a record's bytes are in. */
static const char *stream_of(const pd_session *s, const perfdata_record *rec, const char *fallback) {
    const struct pd_block *b;
    const pd_map *m;
    if (!s->input.is_dir) return fallback;
    if ((m = pd_input_stream_at(&s->input, rec->bytes.p)) != NULL) return m->path;
    for (b = s->inflate.blocks; b; b = b->next) /* decompressed */
        if (rec->bytes.p >= b->data && rec->bytes.p < b->data + b->n) return b->stream ? b->stream : fallback;
    return s->input.main.path;
}

/* The ordered walk's memory reached --queue-size: an early release, said
   once on stderr (perf's queue has no bound by default, so where records
   come later than such a release their order can differ from perf's). */
static void queue_bound(pd_session *s, perfdata_flush how) {
    if (!s->said_bound) {
        s->said_bound = 1;
        fprintf(stderr, "perfdata: %s: putting the records in time order took more than --queue-size (%llu MiB): "
                        "queued records are released early, as perf does when its queue is full; a record that "
                        "comes later than such a release may be out of order\n",
                s->path, pd_limit.queue_bytes >> 20);
    }
    perfdata_ordered_flush(&s->order, how);
}

/* Ordered walk: streams of a directory one after another into one queue
   (perf reads them round-robin in 2 MiB steps; with no FINISHED_ROUND in
   them, the kernel records come out at the end in time order either way). */
int pd_session_walk_ordered(pd_session *s, pd_record_fn fn, void *ctx) {
    perfdata_cursor c;
    perfdata_ordered *o = &s->order; /* in the session: the record source looks at its queue */
    perfdata_record rec;
    perfdata_error err;
    perfdata_status st;
    perfdata_order_entry *window;
    size_t cap, stream = 0, before;
    const char *name = s->input.is_dir ? s->input.main.path : s->path;
    pd_map *map = &s->input.main;   /* the one the cursor is in */
    int rc = 0;
    perfdata_cursor_init(&s->file, &c);
    if (s->file.flags & PERFDATA_FILE_PIPE) refresh_id_index(s);
    /* Grown on demand (PERFDATA_ERR_NO_SPACE below) rather than sized by
       perfdata_ordered_window_hint, which would read the whole file once
       more. */
    cap = 4096;
    window = malloc(cap * sizeof *window);
    if (!window) { fprintf(stderr, "perfdata: out of memory\n"); return PD_EXIT_ERROR; }
    perfdata_ordered_init(o, &c, window, cap);
    s->ordering = 1;
    inflate_start(s, &c, 1, name);
    o->source = next_record;
    o->source_user = s;
    o->hold_end = s->input.nr_streams > 0;
    for (;;) {
        before = s->file.nr_events;
        if (s->over_bound) { /* the decompressed buffers passed the bound */
            s->over_bound = 0;
            queue_bound(s, s->flushed_half ? PERFDATA_FLUSH_ALL : PERFDATA_FLUSH_HALF);
            s->flushed_half = 1;
        }
        st = perfdata_ordered_next(&s->file, o, &rec, &err);
        if (st == PERFDATA_ERR_NO_SPACE && err.record_type != PERFDATA_RECORD_HEADER_ATTR &&
            pd_limit.queue_bytes && cap >= 4096 &&
            queue_memory(s) + cap * sizeof *window > pd_limit.queue_bytes) {
            queue_bound(s, PERFDATA_FLUSH_HALF); /* as perf's queue does at its bound */
            continue;
        }
        if (st == PERFDATA_ERR_NO_SPACE && err.record_type != PERFDATA_RECORD_HEADER_ATTR) {
            perfdata_order_entry *bigger = malloc(err.needed * 2 * sizeof *bigger);
            if (!bigger || perfdata_ordered_grow(o, bigger, err.needed * 2, NULL) != PERFDATA_OK) {
                fprintf(stderr, "perfdata: out of memory\n");
                free(bigger);
                rc = PD_EXIT_ERROR;
                break;
            }
            free(window);
            window = bigger;
            cap = err.needed * 2;
            continue;
        }
        if (st == PERFDATA_END && c.stopped != PERFDATA_OK && c.stopped != PERFDATA_END) {
            /* the queue was released first, as perf does; now the reason */
            rc = stopped(s, name, &c.error);
            break;
        }
        if (st == PERFDATA_END && o->hold_end) {
            /* the next data.N stream of a directory */
            while (stream < s->input.nr_streams && !s->input.streams[stream].size) stream++;
            if (stream < s->input.nr_streams) {
                pd_map *m = &s->input.streams[stream++];
                perfdata_cursor_init_range(&c, m->data, m->size, 0, (s->file.flags & PERFDATA_FILE_BIG_ENDIAN) != 0);
                name = m->path;
                map = m;
                inflate_start(s, &c, 1, name);
            }
            if (stream >= s->input.nr_streams) o->hold_end = 0;
            continue;
        }
        if (st == PERFDATA_END) break;
        if (st != PERFDATA_OK) {
            if (st == PERFDATA_ERR_NO_SPACE || c.stopped != PERFDATA_OK) {
                rc = stopped(s, name, &err);
                break;
            }
            pd_session_skip(s, NULL, &err);
            continue;
        }
        if (s->file.nr_events != before) refresh_id_index(s);
        s->records++;
        fn(ctx, &rec, stream_of(s, &rec, name));
        pd_map_at(map, c.range.p + c.pos);
    }
    s->ordering = 0;
    free(window);
    return walk_ended(s, rc);
}
