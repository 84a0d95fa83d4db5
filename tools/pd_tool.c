/* pd_tool.c - see pd_tool.h. */
#define PERFDATA_ZSTD
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"
#include "pd_intern.h"
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
    return perfdata_event_name(s->file, e, buf, sizeof buf);
}

/* Events a stream may bring: the commands size their per-event tables by
   it before the events arrive (perf pipes carry a few). */
#define PD_STREAM_EVENTS 4096

/* The largest zstd window set up: libzstd's decoder refuses frames that ask
   for more than 128 MiB (ZSTD_WINDOWLOG_LIMIT_DEFAULT), so perf reads no
   such file: the window, a block and 32 bytes, and the decoder. */
#define PD_ZSTD_LIMIT (((size_t)128 << 20) + 1 + PERFDATA_ZSTD_BLOCK_SIZE_MAX + 32 + sizeof(perfdata_zstd_dctx) + 16)

/* The largest single buffer given: what a record spanning the pieces of a
   stream (an AUXTRACE payload) or one chunk's output may need. */
#define PD_BUFFER_MAX ((uint64_t)256 << 20)

static void take_back(pd_session *s) {
    void *p;
    size_t n;
    while ((p = perfdata_reader_take_back(&s->reader, &n)) != NULL) {
        s->given -= n;
        if (p == s->zstd_mem) { s->zstd_mem = NULL; s->zstd_given = 0; }
        free(p);
    }
}

/* The reader asks for memory: given, or refused where a bound says so
   (said once on stderr). Returns -1 when out of memory. */
static int give(pd_session *s, const perfdata_error *err) {
    size_t n = (size_t)err->needed;
    int pool = err->detail;
    void *p;
    if ((uint64_t)n != err->needed) n = (size_t)-1;
    if (pool == PERFDATA_POOL_QUEUE || pool == PERFDATA_POOL_EVENTS || pool == PERFDATA_POOL_IDS)
        n = n < 4096 ? 4096 : (n > (size_t)-1 / 2 ? n : n * 2);
    if (pool == PERFDATA_POOL_EVENTS && (s->file->flags & PERFDATA_FILE_PIPE) &&
        n / sizeof(perfdata_event) > PD_STREAM_EVENTS)
        n = PD_STREAM_EVENTS * sizeof(perfdata_event);
    if (pool == PERFDATA_POOL_EVENTS && err->needed > n) {
        fprintf(stderr, "perfdata: %s: more than %d events in the pipe; the records stop there\n", s->path,
                PD_STREAM_EVENTS);
        perfdata_reader_give(&s->reader, (perfdata_pool)pool, NULL, 0, NULL);
        return 0;
    }
    if (pool == PERFDATA_POOL_BUFFER && err->needed > PD_BUFFER_MAX) { /* a length from the input */
        fprintf(stderr, "perfdata: %s: a record or chunk needs %llu MiB, more than the %u MiB one buffer may take\n",
                s->path, (unsigned long long)(err->needed >> 20), (unsigned)(PD_BUFFER_MAX >> 20));
        s->partial = 1;
        perfdata_reader_give(&s->reader, (perfdata_pool)pool, NULL, 0, NULL);
        return 0;
    }
    if (pool == PERFDATA_POOL_ZSTD && n > PD_ZSTD_LIMIT) {
        if (!s->said_zstd)
            fprintf(stderr, "perfdata: %s: cannot set up decompression (a window over 128 MiB); compressed records "
                            "are skipped\n", s->path);
        s->said_zstd = 1;
        s->partial = 1;
        perfdata_reader_give(&s->reader, (perfdata_pool)pool, NULL, 0, NULL);
        return 0;
    }
    if ((pool == PERFDATA_POOL_QUEUE || pool == PERFDATA_POOL_BUFFER) && s->ordered && pd_limit.queue_bytes &&
        s->given - s->zstd_given + n > pd_limit.queue_bytes && s->given > s->zstd_given) {
        if (!s->said_bound)
            fprintf(stderr, "perfdata: %s: putting the records in time order took more than --queue-size (%llu MiB): "
                            "queued records are released early, as perf does when its queue is full; a record that "
                            "comes later than such a release may be out of order\n",
                    s->path, pd_limit.queue_bytes >> 20);
        s->said_bound = 1;
        perfdata_reader_give(&s->reader, (perfdata_pool)pool, NULL, 0, NULL);
        return 0;
    }
    if (!(p = malloc(n ? n : 1)) || perfdata_reader_give(&s->reader, (perfdata_pool)pool, p, n, NULL) != PERFDATA_OK) {
        free(p);
        fprintf(stderr, "perfdata: out of memory\n");
        return -1;
    }
    s->given += n;
    if (pool == PERFDATA_POOL_ZSTD) { s->zstd_mem = p; s->zstd_given = n; } /* not the queue's: outside --queue-size */
    return 0;
}

/* Until the header (and attrs) are read. */
static int session_start(pd_session *s, const char *path) {
    perfdata_error err;
    perfdata_status st;
    perfdata_view arch;
    const perfdata_file *f;
    size_t nev = 0;
    perfdata_reader_init(&s->reader, s->flags);
    perfdata_reader_set_max_ratio(&s->reader, (uint32_t)pd_limit.max_ratio);
    s->file = perfdata_reader_file(&s->reader);
    if (s->input.main.streaming) {
        s->stream = 1;
        perfdata_reader_push(&s->reader, s->input.main.data, s->input.main.size, NULL);
    } else {
        perfdata_reader_set_input(&s->reader, s->input.main.data, s->input.main.size);
        if (s->input.nr_streams) {
            size_t i;
            s->views = calloc(s->input.nr_streams, sizeof *s->views);
            if (!s->views) { fprintf(stderr, "perfdata: out of memory\n"); return -1; }
            for (i = 0; i < s->input.nr_streams; i++) {
                s->views[i].p = s->input.streams[i].data;
                s->views[i].n = s->input.streams[i].size;
            }
            perfdata_reader_set_streams(&s->reader, s->views, s->input.nr_streams);
        }
    }
    while ((st = perfdata_reader_start(&s->reader, &err)) != PERFDATA_OK) {
        if (st == PERFDATA_NEED_MEMORY) { if (give(s, &err) < 0) return -1; continue; }
        if (st == PERFDATA_NEED_INPUT) { if (pd_input_read(&s->input, &s->reader) < 0) return -1; continue; }
        report(path, &err);
        return -1;
    }
    f = s->file;
    /* the commands size their per-event tables before the walk */
    if (f->flags & PERFDATA_FILE_PIPE) nev = PD_STREAM_EVENTS; /* known as they come: counting reads it all */
    else nev = f->nr_events;
    s->nev_cap = nev ? nev : 1;
    if (f->flags & PERFDATA_FILE_DATA_SIZE_ZERO) {
        fprintf(stderr, "perfdata: %s: the header's data size is 0 (was perf record interrupted?); "
                        "like perf, no records are read\n", path);
        s->partial = 1;
    }
    snprintf(s->arch, sizeof s->arch, "x86_64");
    if (perfdata_feature_string(f, PERFDATA_FEAT_ARCH, &arch, NULL) == PERFDATA_OK && arch.n < sizeof s->arch) {
        memcpy(s->arch, arch.p, arch.n);
        s->arch[arch.n] = 0;
    }
    return 0;
}

int pd_session_open(pd_session *s, const char *path) {
    return pd_session_open_flags(s, path, 0);
}

int pd_session_open_flags(pd_session *s, const char *path, unsigned flags) {
    char msg[4400];
    memset(s, 0, sizeof *s);
    s->path = path;
    s->flags = flags;
    if (pd_input_open(&s->input, path, msg, sizeof msg) < 0) {
        fprintf(stderr, "perfdata: %s\n", msg);
        return -1;
    }
    if (session_start(s, path) < 0) { pd_session_close(s); return -1; }
    return 0;
}

int pd_session_open_mem(pd_session *s, const unsigned char *data, size_t size, const char *name) {
    memset(s, 0, sizeof *s);
    s->path = name;
    s->input.main.data = data;
    s->input.main.size = size;
    s->input.main.next_check = (size_t)-1; /* not a mapping: nothing to give back */
    s->input.main.path = name;
    if (session_start(s, name) < 0) { pd_session_close(s); return -1; }
    return 0;
}

int pd_session_decompressed(const pd_session *s, const perfdata_record *rec) {
    return perfdata_reader_expands(&s->reader, rec);
}

void pd_session_close(pd_session *s) {
    perfdata_reader_close(&s->reader);
    take_back(s);
    free(s->views);
    s->views = NULL;
    pd_input_close(&s->input);
}

/* The walk stopped on an error: where, and how far the command got.
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
    if (rc != 0 || !(s->file->flags & PERFDATA_FILE_CUT)) return rc;
    fprintf(stderr, "perfdata: %s: the file is cut at offset 0x%llx, after its data section: every record was "
                    "processed, the feature sections are missing\n", s->path, (unsigned long long)s->file->buffer.n);
    s->partial = 1;
    return PD_EXIT_PARTIAL;
}

/* The name a record is reported under: the data.N file of a directory. */
static const char *stream_name(const pd_session *s, const perfdata_record *rec) {
    if (!s->input.is_dir) return s->path;
    if (rec->stream && rec->stream <= s->input.nr_streams) return s->input.streams[rec->stream - 1].path;
    return s->input.main.path;
}

/* The broken chunk stream, said once. */
static void chunks_stopped(pd_session *s, const perfdata_error *err) {
    if (s->said_chunks) return;
    s->said_chunks = 1;
    s->partial = 1;
    if (err->code == PERFDATA_ERR_TRUNCATED && err->needed && !err->final)
        fprintf(stderr, "perfdata: %s: the records inside the compressed chunks end inside a record (%llu bytes "
                        "of it, in the chunk at 0x%llx); it is skipped\n", s->path,
                (unsigned long long)err->needed, (unsigned long long)err->offset);
    else if (err->code == PERFDATA_ERR_LIMIT && !err->detail)
        fprintf(stderr, "perfdata: %s: the records inside the compressed chunks expand more than %lu times "
                "their size by the chunk at 0x%llx; decompression stops there and the records of later "
                "chunks are skipped (--max-ratio N raises the bound, 0 removes it)\n", s->path,
                pd_limit.max_ratio, (unsigned long long)err->offset);
    else
        fprintf(stderr, "perfdata: %s: %s at 0x%llx; the records of later chunks are skipped\n", s->path,
                err->message, (unsigned long long)err->offset);
}

static int walk(pd_session *s, pd_record_fn fn, void *ctx) {
    perfdata_record rec;
    perfdata_error err;
    perfdata_status st;
    uint32_t stream;
    for (;;) {
        st = perfdata_reader_next(&s->reader, &rec, &err);
        take_back(s);
        if (st == PERFDATA_END) return PD_EXIT_OK;
        if (st == PERFDATA_NEED_MEMORY) {
            if (give(s, &err) < 0) return PD_EXIT_ERROR;
            continue;
        }
        if (st == PERFDATA_NEED_INPUT) {
            fflush(stdout); /* what is known is shown before waiting for more */
            if (pd_input_read(&s->input, &s->reader) < 0) return PD_EXIT_ERROR;
            continue;
        }
        if (st != PERFDATA_OK && err.final) {
            if (err.code == PERFDATA_ERR_LIMIT && err.detail == PERFDATA_POOL_EVENTS) { s->partial = 1; return PD_EXIT_PARTIAL; }
            return stopped(s, rec.stream ? stream_name(s, &rec) : (s->input.is_dir ? s->input.main.path : s->path), &err);
        }
        if (st != PERFDATA_OK) {
            if (rec.type == PERFDATA_RECORD_COMPRESSED || rec.type == PERFDATA_RECORD_COMPRESSED2 || !rec.type) {
                chunks_stopped(s, &err);
                if (!rec.type) continue;
            } else {
                pd_session_skip(s, &rec, &err); /* a bad attr record: still a record */
            }
        }
        s->records++;
        fn(ctx, &rec, stream_name(s, &rec));
        {
            uint64_t at = perfdata_reader_position(&s->reader, &stream);
            pd_map *m = stream && stream <= s->input.nr_streams ? &s->input.streams[stream - 1] : &s->input.main;
            if (!s->stream && at < m->size) pd_map_at(m, m->data + at);
        }
    }
}

int pd_session_walk(pd_session *s, pd_record_fn fn, void *ctx) {
    return walk_ended(s, walk(s, fn, ctx));
}

/* In perf's delivery order: the session is opened again in time order. */
int pd_session_walk_ordered(pd_session *s, pd_record_fn fn, void *ctx) {
    s->ordered = 1;
    if (!(s->flags & PERFDATA_READ_ORDERED)) {
        perfdata_reader_close(&s->reader);
        take_back(s);
        s->flags |= PERFDATA_READ_ORDERED;
        if (s->stream) { /* a stream is read once: the header is read again from what was kept */
            fprintf(stderr, "perfdata: internal error: an ordered walk must be asked for before the stream\n");
            return PD_EXIT_ERROR;
        }
        if (session_start(s, s->path) < 0) return PD_EXIT_ERROR;
    }
    return walk_ended(s, walk(s, fn, ctx));
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

void pd_print_header(pd_session *s) {
    const perfdata_file *f = s->file;
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


uint64_t *pd_read_last(pd_read_ids *r, uint64_t id) {
    size_t i, mask;
    if ((r->n + 1) * 2 > r->cap) {
        pd_read_id *old = r->v;
        size_t oldcap = r->cap, j;
        r->cap = oldcap ? oldcap * 2 : 64;
        if (!(r->v = (pd_read_id *)calloc(r->cap, sizeof *r->v))) pd_nomem();
        for (j = 0; j < oldcap; j++) {
            if (!old[j].used) continue;
            for (i = (size_t)pd_hash_u64(old[j].id) & (r->cap - 1); r->v[i].used; i = (i + 1) & (r->cap - 1)) {}
            r->v[i] = old[j];
        }
        free(old);
    }
    mask = r->cap - 1;
    for (i = (size_t)pd_hash_u64(id) & mask; r->v[i].used; i = (i + 1) & mask)
        if (r->v[i].id == id) return &r->v[i].last;
    r->v[i].used = 1;
    r->v[i].id = id;
    r->n++;
    return &r->v[i].last;
}
