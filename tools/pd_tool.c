/* pd_tool.c - see pd_tool.h. */
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"
#include "pd_tool.h"
#define PD_ZSTD_IMPLEMENTATION
#include "pd_zstd.h"

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

int pd_session_open(pd_session *s, const char *path) {
    char msg[4400];
    perfdata_error err;
    size_t nev = 0, nids;
    perfdata_view arch;
    memset(s, 0, sizeof *s);
    s->path = path;
    if (pd_input_open(&s->input, path, msg, sizeof msg) < 0) {
        fprintf(stderr, "perfdata: %s\n", msg);
        return -1;
    }
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
    snprintf(s->arch, sizeof s->arch, "x86_64");
    if (perfdata_feature_string(&s->file, PERFDATA_FEAT_ARCH, &arch, NULL) == PERFDATA_OK && arch.n < sizeof s->arch) {
        memcpy(s->arch, arch.p, arch.n);
        s->arch[arch.n] = 0;
    }
    return 0;
}

struct pd_block {
    struct pd_block *next;
    unsigned char *data;
    size_t n;
};

static void inflate_free(pd_inflate *z) {
    while (z->blocks) {
        struct pd_block *b = z->blocks;
        z->blocks = b->next;
        free(b->data);
        free(b);
    }
    free(z->ctx);
    free(z->window);
    free(z->out);
    memset(z, 0, sizeof *z);
}

/* Decompresses one chunk (continuing the stream) behind whatever partial
   record the last chunk left, into a new block; returns it or NULL. */
static struct pd_block *inflate_chunk(pd_session *s, perfdata_view in) {
    pd_inflate *z = &s->inflate;
    size_t used = 0, n = 0;
    struct pd_block *b;
    if (!z->ctx) {
        size_t win = 0;
        if (pd_zstd_window_buffer_size(in.p, in.n, &win) != 0 || !win) return NULL;
        z->ctx = malloc(sizeof *z->ctx);
        z->window = malloc(win);
        if (!z->ctx || !z->window) return NULL;
        pd_zstd_dctx_init(z->ctx, z->window, win, 0);
    }
    for (;;) {
        size_t consumed = 0, written = 0;
        int rc;
        if (z->out_cap - n < (1u << 16)) {
            size_t cap = z->out_cap ? z->out_cap * 2 : (4u << 20);
            unsigned char *bigger = realloc(z->out, cap);
            if (!bigger) return NULL;
            z->out = bigger;
            z->out_cap = cap;
        }
        rc = pd_zstd_decompress_stream(z->ctx, in.p + used, in.n - used, &consumed, z->out + n, z->out_cap - n, &written);
        used += consumed;
        n += written;
        if (rc < 0) return NULL;
        if (rc == PD_ZSTD_OUTPUT_FULL) continue;
        if (used >= in.n) break;
    }
    b = calloc(1, sizeof *b);
    if (!b || !(b->data = malloc(z->left_n + n + 1))) { free(b); return NULL; }
    if (z->left_n) memcpy(b->data, z->left, z->left_n); /* memcpy from NULL is undefined even for 0 bytes */
    memcpy(b->data + z->left_n, z->out, n);
    b->n = z->left_n + n;
    b->next = z->blocks;
    z->blocks = b;
    z->left_n = 0;
    return b;
}

/* The record source of every walk: the cursor's records, and after each
   COMPRESSED chunk the records decompressed from it (reported at the
   chunk's offset, as perf does). */
static perfdata_status next_record(void *user, perfdata_file *f, perfdata_cursor *c, perfdata_record *rec,
                                   perfdata_error *err) {
    pd_session *s = (pd_session *)user;
    pd_inflate *z = &s->inflate;
    perfdata_status st;
    for (;;) {
        if (z->inner_active) {
            st = perfdata_next_record(f, &z->inner, rec, err);
            if (st == PERFDATA_OK) {
                rec->offset = z->outer_offset;
                return st;
            }
            z->inner_active = 0;
            if (st == PERFDATA_ERR_TRUNCATED && z->inner.pos < z->inner.range.n) {
                z->left = z->inner.range.p + z->inner.pos; /* completed by the next chunk */
                z->left_n = z->inner.range.n - z->inner.pos;
            } else if (st != PERFDATA_END) {
                return st;
            }
        }
        if (z->expanded_last) {
            z->expanded_last = 0;
            z->inner_active = 1;
            continue;
        }
        st = perfdata_next_record(f, c, rec, err);
        if (st != PERFDATA_OK) return st;
        if ((rec->type == PERFDATA_RECORD_COMPRESSED || rec->type == PERFDATA_RECORD_COMPRESSED2) && !z->failed) {
            perfdata_compressed cz;
            struct pd_block *b = NULL;
            if (perfdata_decode_compressed(f, rec, &cz, NULL) == PERFDATA_OK) b = inflate_chunk(s, cz.data);
            if (!b) {
                z->failed = 1;
                fprintf(stderr, "perfdata: %s: could not decompress the chunk at 0x%llx; its records are skipped\n",
                        s->path, (unsigned long long)rec->offset);
            } else {
                perfdata_cursor_init_range(&z->inner, b->data, b->n, rec->offset, rec->big_endian);
                z->inner.register_attrs = c->register_attrs;
                z->inner.update_events = c->update_events;
                z->outer_offset = rec->offset;
                z->expanded_last = 1; /* the chunk itself first, then what is inside */
            }
        }
        return st;
    }
}

int pd_session_decompressed(const pd_session *s, const perfdata_record *rec) {
    return (rec->type == PERFDATA_RECORD_COMPRESSED || rec->type == PERFDATA_RECORD_COMPRESSED2) && !s->inflate.failed;
}

void pd_session_close(pd_session *s) {
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

static int walk_cursor(pd_session *s, perfdata_cursor *c, const char *name, pd_record_fn fn, void *ctx) {
    perfdata_record rec;
    perfdata_error err;
    perfdata_status st;
    for (;;) {
        size_t before = s->file.nr_events;
        st = next_record(s, &s->file, c, &rec, &err);
        if (st == PERFDATA_END) return 0;
        if (st == PERFDATA_ERR_NO_SPACE) { /* a pipe with more attrs than counted */
            fprintf(stderr, "perfdata: %s: more events than counted\n", s->path);
            return 1;
        }
        if (st != PERFDATA_OK && c->stopped != PERFDATA_OK) { report(s->path, &err); return 1; }
        if (st != PERFDATA_OK) report(s->path, &err); /* a bad attr record: still a record */
        if (s->file.nr_events != before) refresh_id_index(s);
        fn(ctx, &rec, name);
    }
}

int pd_session_walk(pd_session *s, pd_record_fn fn, void *ctx) {
    perfdata_cursor c;
    size_t i;
    int rc;
    perfdata_cursor_init(&s->file, &c);
    if (s->file.flags & PERFDATA_FILE_PIPE) refresh_id_index(s);
    if (s->file.flags & PERFDATA_FILE_DATA_SIZE_ZERO)
        fprintf(stderr, "perfdata: %s: the header's data size is 0 (was perf record interrupted?); "
                        "like perf, no records are read\n", s->path);
    rc = walk_cursor(s, &c, s->input.is_dir ? s->input.main.path : s->path, fn, ctx);
    for (i = 0; i < s->input.nr_streams; i++) {
        const pd_map *m = &s->input.streams[i];
        if (!m->size) continue;
        perfdata_cursor_init_range(&c, m->data, m->size, 0, (s->file.flags & PERFDATA_FILE_BIG_ENDIAN) != 0);
        rc |= walk_cursor(s, &c, m->path, fn, ctx);
    }
    return rc;
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
    size_t i;
    if (!s->input.is_dir) return fallback;
    for (i = 0; i < s->input.nr_streams; i++) {
        const pd_map *m = &s->input.streams[i];
        if (m->size && rec->bytes.p >= m->data && rec->bytes.p < m->data + m->size) return m->path;
    }
    return s->input.main.path;
}

/* Ordered walk: streams of a directory one after another into one queue
   (perf reads them round-robin in 2 MiB steps; with no FINISHED_ROUND in
   them, the kernel records come out at the end in time order either way). */
int pd_session_walk_ordered(pd_session *s, pd_record_fn fn, void *ctx) {
    perfdata_cursor c;
    perfdata_ordered o;
    perfdata_record rec;
    perfdata_error err;
    perfdata_status st;
    perfdata_order_entry *window;
    size_t cap, stream = 0, before;
    const char *name = s->input.is_dir ? s->input.main.path : s->path;
    int rc = 0;
    perfdata_cursor_init(&s->file, &c);
    if (s->file.flags & PERFDATA_FILE_PIPE) refresh_id_index(s);
    cap = perfdata_ordered_window_hint(&s->file) + 16;
    perfdata_cursor_init(&s->file, &c); /* the hint walked a pipe's attrs: start afresh */
    window = malloc(cap * sizeof *window);
    if (!window) { fprintf(stderr, "perfdata: out of memory\n"); return 1; }
    perfdata_ordered_init(&o, &c, window, cap);
    o.source = next_record;
    o.source_user = s;
    o.hold_end = s->input.nr_streams > 0;
    for (;;) {
        before = s->file.nr_events;
        st = perfdata_ordered_next(&s->file, &o, &rec, &err);
        if (st == PERFDATA_ERR_NO_SPACE && err.record_type != PERFDATA_RECORD_HEADER_ATTR) {
            perfdata_order_entry *bigger = malloc(err.needed * 2 * sizeof *bigger);
            if (!bigger || perfdata_ordered_grow(&o, bigger, err.needed * 2, NULL) != PERFDATA_OK) {
                fprintf(stderr, "perfdata: out of memory\n");
                free(bigger);
                rc = 1;
                break;
            }
            free(window);
            window = bigger;
            continue;
        }
        if (st == PERFDATA_END && o.hold_end) {
            /* the next data.N stream of a directory */
            while (stream < s->input.nr_streams && !s->input.streams[stream].size) stream++;
            if (stream < s->input.nr_streams) {
                const pd_map *m = &s->input.streams[stream++];
                perfdata_cursor_init_range(&c, m->data, m->size, 0, (s->file.flags & PERFDATA_FILE_BIG_ENDIAN) != 0);
                name = m->path;
            }
            if (stream >= s->input.nr_streams) o.hold_end = 0;
            continue;
        }
        if (st == PERFDATA_END) break;
        if (st != PERFDATA_OK) {
            report(s->path, &err);
            if (st == PERFDATA_ERR_NO_SPACE || c.stopped != PERFDATA_OK) { rc = 1; break; }
            continue;
        }
        if (s->file.nr_events != before) refresh_id_index(s);
        fn(ctx, &rec, stream_of(s, &rec, name));
    }
    free(window);
    return rc;
}
