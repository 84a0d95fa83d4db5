/* pd_tool.c - see pd_tool.h. */
#define PERFDATA_ZSTD
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"
#include "pd_intern.h"
#include "pd_tool.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
        s->read_partial = 1;
        perfdata_reader_give(&s->reader, (perfdata_pool)pool, NULL, 0, NULL);
        return 0;
    }
    if (pool == PERFDATA_POOL_ZSTD && n > PD_ZSTD_LIMIT) {
        if (!s->said_zstd)
            fprintf(stderr, "perfdata: %s: cannot set up decompression (a window over 128 MiB); compressed records "
                            "are skipped\n", s->path);
        s->said_zstd = 1;
        s->read_partial = 1;
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

static int pipe_decompressed(const pd_pipe *p);
static uint64_t records_read(const pd_session *s);

static void zahead_stop(pd_session *s);

int pd_session_decompressed(const pd_session *s, const perfdata_record *rec) {
    if (s->pipe) return pipe_decompressed(s->pipe); /* the reader is ahead: said with the record */
    return perfdata_reader_expands(&s->reader, rec);
}

void pd_session_close(pd_session *s) {
    zahead_stop(s);
    perfdata_reader_close(&s->reader);
    take_back(s);
    free(s->views);
    s->views = NULL;
    pd_input_close(&s->input);
}

/* ------------------------------------- -z chunks decompressed ahead */

/* A -z file's chunks hold a zstd stream. Where each chunk is a frame of
   its own, threads of their own decode the chunks ahead of the reader,
   each from a decoder between frames; where the frames run on from chunk
   to chunk (perf's own: it flushes one frame for the whole recording),
   one thread decodes them in turn with one decoder, ahead of the reader
   (in_turn). The reader copies each chunk's output as it comes to it
   (zahead_chunk is its decompressor). What the reader's own decoder would
   have said is said: the same output, the same failure at the same chunk.
   Where the first guess is wrong (a chunk starts inside the frame the one
   before began) or the helpers' walk meets another chunk than the reader
   (a damaged file), the reader decodes from there itself, after decoding
   again what its decoder would have seen to be where the stream was: the
   chunk before, or every chunk before when they were decoded in turn.
   A --threads directory's data.N files each hold a stream of their own,
   which the reader reads after the data section, one after the other,
   each with a decoder set up afresh: one helper decodes them in turn, a
   decoder set up afresh for each. */
#define PD_ZAHEAD_MAX 8              /* helper threads */
#define PD_ZAHEAD_MIN_INPUT ((uint64_t)4 << 20) /* by default, for a data section of this much or more */

typedef struct pd_zslot {
    uint64_t seq;                    /* the chunk's place (1, 2, ...); 0: none yet */
    int ready;
    const unsigned char *in;         /* its payload, as the reader passes it */
    size_t in_size;
    unsigned char *out;              /* zahead.cap bytes */
    size_t size;                     /* what was decoded (up to the error) */
    perfdata_status st;              /* as perfdata_zstd_chunk returns it with cap bytes of room */
    int between;                     /* after it, the stream is between frames */
} pd_zslot;

typedef struct pd_zhelper { struct pd_zahead *z; size_t i; } pd_zhelper;

struct pd_zahead {
    pthread_t thread[PD_ZAHEAD_MAX];
    pd_zhelper helper[PD_ZAHEAD_MAX];
    size_t nthreads;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pd_zslot *slot;                  /* nslots, chunk seq in slot seq % nslots */
    size_t nslots;
    uint64_t taken;                  /* chunks the helpers have taken */
    uint64_t consumed;               /* chunks the reader has taken */
    size_t part, pos;                /* the helpers' walk: its part, and where in it */
    int stop, done;                  /* stop: the session is done with them; done: no chunk is left */
    int in_turn;                     /* one helper, one decoder for every chunk in turn */
    perfdata_view *parts;            /* the data section, then each data.N file, as the reader reads them */
    size_t *part_mem;                /* each part's decoder and window, as the reader sets it up there */
    size_t nparts;
    int big;
    size_t cap;                      /* a chunk's output the reader takes at most */
    size_t mem_n;                    /* the largest of part_mem: the helpers' memory for a decoder */
    unsigned char *mem[PD_ZAHEAD_MAX];
    /* the reader's side */
    int own;                         /* it decodes the chunks itself from now on */
    unsigned char *own_mem;
    size_t own_cap;                  /* bytes at own_mem */
    size_t own_part;                 /* the part its decoder was set up for */
    const unsigned char *last_in;    /* the chunk before, and where the stream was after it */
    size_t last_n;
    int last_between;
};

/* A decoder in mem (mem_n bytes), as the reader sets its own up in the
   memory it asks for */
static perfdata_zstd_dctx *zahead_dctx(unsigned char *mem, size_t mem_n) {
    size_t at = (sizeof(perfdata_zstd_dctx) + 15u) & ~(size_t)15u;
    perfdata_zstd_dctx_init((perfdata_zstd_dctx *)(void *)mem, mem + at, mem_n - at, 0);
    return (perfdata_zstd_dctx *)(void *)mem;
}

/* The memory the reader asks for to decode a stream whose first chunk is
   in[0..n): 0 where it would fail (not a frame, a window past the bound) */
static size_t zahead_need(const unsigned char *in, size_t n) {
    size_t win = 0, need;
    if (perfdata_zstd_window_buffer_size(in, n, &win, 0) != PERFDATA_OK || !win) return 0;
    need = sizeof(perfdata_zstd_dctx) + 16 + win;
    return need < win || need > PD_ZSTD_LIMIT ? 0 : need;
}

/* The next chunk record's payload from *pos in part `part`, as
   perfdata_decode_compressed reads it; 0 at the part's end (or at a
   record that ends the reader's walk there) */
static int zahead_in_part(const struct pd_zahead *z, size_t part, size_t *pos, perfdata_view *payload) {
    const unsigned char *data = z->parts[part].p;
    size_t data_n = z->parts[part].n;
    while (data_n - *pos >= 8) {
        const unsigned char *q = data + *pos;
        uint32_t type = z->big ? (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 | q[3]
                               : (uint32_t)q[3] << 24 | (uint32_t)q[2] << 16 | (uint32_t)q[1] << 8 | q[0];
        size_t size = z->big ? (size_t)q[6] << 8 | q[7] : (size_t)q[7] << 8 | q[6];
        uint64_t extra = 0;
        unsigned k;
        if (size < 8 || size > data_n - *pos) return 0;
        /* the payload after TRACING_DATA and AUXTRACE, which the reader
           steps over too (perfdata__extra_size); where it cannot, it stops */
        if (type == PERFDATA_RECORD_HEADER_TRACING_DATA) {
            uint32_t n = 0;
            if (size < 12) return 0;
            for (k = 0; k < 4; k++) n |= (uint32_t)q[8 + (z->big ? 3 - k : k)] << (8 * k);
            if (size - 12 < n) extra = n;
        } else if (type == PERFDATA_RECORD_AUXTRACE) {
            if (size < 16) return 0;
            for (k = 0; k < 8; k++) extra |= (uint64_t)q[8 + (z->big ? 7 - k : k)] << (8 * k);
        }
        if (extra > data_n - *pos - size) return 0;
        *pos += size + (size_t)extra;
        if (type == PERFDATA_RECORD_COMPRESSED || type == PERFDATA_RECORD_COMPRESSED2) {
            perfdata_record rec;
            perfdata_compressed cz;
            memset(&rec, 0, sizeof rec);
            rec.type = type;
            rec.size = (uint16_t)size;
            rec.big_endian = z->big;
            rec.body.p = q + 8;
            rec.body.n = size - 8;
            if (perfdata_decode_compressed(NULL, &rec, &cz, NULL) == PERFDATA_OK) {
                *payload = cz.data;
                return 1;
            }
        }
    }
    return 0;
}

/* The next chunk record's payload from *pos in part *part, going on to
   the next parts as the reader does; 0 at the end */
static int zahead_next(const struct pd_zahead *z, size_t *part, size_t *pos, perfdata_view *payload) {
    for (; *part < z->nparts; ++*part, *pos = 0)
        if (zahead_in_part(z, *part, pos, payload)) return 1;
    return 0;
}

/* The part holding chunk bytes p: nparts where none does */
static size_t zahead_part_of(const struct pd_zahead *z, const unsigned char *p) {
    size_t i;
    for (i = 0; i < z->nparts; i++)
        if (p >= z->parts[i].p && (size_t)(p - z->parts[i].p) < z->parts[i].n) return i;
    return z->nparts;
}

/* One chunk from dctx's state into out (cap bytes), as perfdata_zstd_chunk
   decodes it; *between: the stream is between frames after it */
static perfdata_status zahead_decode(perfdata_zstd_dctx *dctx, const unsigned char *in, size_t n, unsigned char *out,
                                     size_t cap, size_t *size, int *between) {
    size_t used = 0;
    *size = 0;
    *between = 0;
    for (;;) {
        size_t consumed = 0, written = 0;
        perfdata_error e;
        perfdata_status st = perfdata_zstd_decompress_stream(dctx, in + used, n - used, &consumed, out + *size,
                                                             cap - *size, &written, &e);
        used += consumed;
        *size += written;
        if (st == PERFDATA_ERR_NO_SPACE && e.detail == 0) return st;
        if (st != PERFDATA_OK && st != PERFDATA_NEED_INPUT) return PERFDATA_ERR_MALFORMED;
        if (used >= n) {
            *between = st == PERFDATA_OK;
            return PERFDATA_OK;
        }
    }
}


static void *zahead_main(void *arg) {
    pd_zhelper *h = (pd_zhelper *)arg;
    struct pd_zahead *z = h->z;
    unsigned char *mem = z->mem[h->i];
    perfdata_zstd_dctx *dctx = NULL;
    size_t dctx_part = 0;
    for (;;) {
        perfdata_view in;
        pd_zslot *s;
        uint64_t seq;
        size_t part;
        pthread_mutex_lock(&z->mu);
        /* (a part where the walk saw no first chunk has no decoder size: the
           reader decodes from there) */
        if (z->stop || z->done || !zahead_next(z, &z->part, &z->pos, &in) || !z->part_mem[z->part]) {
            z->done = 1;
            pthread_cond_broadcast(&z->cv);
            pthread_mutex_unlock(&z->mu);
            return NULL;
        }
        seq = ++z->taken;
        part = z->part;
        s = &z->slot[seq % z->nslots];
        while (seq > z->consumed + z->nslots && !z->stop) pthread_cond_wait(&z->cv, &z->mu); /* its slot is the reader's */
        if (z->stop) { pthread_mutex_unlock(&z->mu); return NULL; }
        s->seq = seq;
        s->ready = 0;
        pthread_mutex_unlock(&z->mu);
        s->in = in.p;
        s->in_size = in.n;
        if (!z->in_turn) {
            dctx = zahead_dctx(mem, z->part_mem[0]); /* each chunk from between frames */
        } else if (!dctx || dctx_part != part) { /* a part's stream: a decoder set up afresh */
            dctx = zahead_dctx(mem, z->part_mem[part]);
            dctx_part = part;
        }
        s->st = zahead_decode(dctx, in.p, in.n, s->out, z->cap, &s->size, &s->between);
        pthread_mutex_lock(&z->mu);
        s->ready = 1;
        if (z->in_turn && s->st != PERFDATA_OK) z->done = 1; /* the decoder is lost: the reader asks no further */
        pthread_cond_broadcast(&z->cv);
        pthread_mutex_unlock(&z->mu);
    }
}

/* The reader's own decoder set up afresh for part, whose chunk in is
   next: the memory the reader's decoder has there (in's own need where
   the walks disagree on the part's first chunk); MALFORMED where in is no
   frame the reader would decode */
static perfdata_status zahead_own_reset(struct pd_zahead *z, size_t part, const unsigned char *in, size_t in_size) {
    size_t m = part < z->nparts ? z->part_mem[part] : 0;
    if (!m) m = zahead_need(in, in_size);
    if (!m) return PERFDATA_ERR_MALFORMED;
    if (m > z->own_cap) {
        free(z->own_mem);
        z->own_cap = 0;
        if (!(z->own_mem = (unsigned char *)malloc(m))) return PERFDATA_ERR_MALFORMED;
        z->own_cap = m;
    }
    zahead_dctx(z->own_mem, m);
    z->own_part = part;
    return PERFDATA_OK;
}

/* From this chunk on, the reader decodes: where the stream was after the
   chunk before (between frames, or inside the one it began) */
static perfdata_status zahead_own(struct pd_zahead *z, const unsigned char *in, size_t in_size, unsigned char *out,
                                  size_t out_cap, size_t *out_size) {
    if (!z->own) {
        pthread_mutex_lock(&z->mu);
        z->stop = 1;
        pthread_cond_broadcast(&z->cv);
        pthread_mutex_unlock(&z->mu);
        z->own = 1;
        if (zahead_own_reset(z, zahead_part_of(z, in), in, in_size) != PERFDATA_OK) return PERFDATA_ERR_MALFORMED;
        if (z->in_turn && z->consumed) { /* every chunk the reader took in this part, decoded again in turn */
            unsigned char *scratch = (unsigned char *)malloc(z->cap);
            size_t part = 0, pos = 0, size;
            uint64_t k;
            int between;
            perfdata_view chunk;
            perfdata_status st = scratch ? PERFDATA_OK : PERFDATA_ERR_MALFORMED;
            for (k = 0; k < z->consumed && st == PERFDATA_OK; k++)
                st = !zahead_next(z, &part, &pos, &chunk) ? PERFDATA_ERR_MALFORMED
                     : part != z->own_part                ? PERFDATA_OK
                                                          : zahead_decode((perfdata_zstd_dctx *)(void *)z->own_mem, chunk.p,
                                                                          chunk.n, scratch, z->cap, &size, &between);
            free(scratch);
            if (st != PERFDATA_OK) return PERFDATA_ERR_MALFORMED;
        } else if (!z->in_turn && !z->last_between) { /* the frame began in the chunk before, from between frames: again */
            unsigned char *scratch = (unsigned char *)malloc(z->cap);
            size_t size;
            int between;
            perfdata_status st =
                scratch ? zahead_decode((perfdata_zstd_dctx *)(void *)z->own_mem, z->last_in, z->last_n, scratch, z->cap,
                                        &size, &between)
                        : PERFDATA_ERR_MALFORMED;
            free(scratch);
            if (st != PERFDATA_OK) return PERFDATA_ERR_MALFORMED;
        }
    }
    if (!z->own_mem) return PERFDATA_ERR_MALFORMED;
    if (z->in_turn) { /* the reader sets its decoder up afresh for each part */
        size_t part = zahead_part_of(z, in);
        if (part != z->own_part && part < z->nparts && zahead_own_reset(z, part, in, in_size) != PERFDATA_OK)
            return PERFDATA_ERR_MALFORMED;
    }
    return perfdata_zstd_chunk(z->own_mem, in, in_size, out, out_cap, out_size);
}

/* The reader's decompressor */
static perfdata_status zahead_chunk(void *user, const unsigned char *in, size_t in_size, unsigned char *out,
                                    size_t out_cap, size_t *out_size) {
    struct pd_zahead *z = (struct pd_zahead *)user;
    uint64_t seq = z->consumed + 1;
    pd_zslot *s = &z->slot[seq % z->nslots];
    perfdata_status st;
    size_t size;
    *out_size = 0;
    if (z->own) return zahead_own(z, in, in_size, out, out_cap, out_size);
    pthread_mutex_lock(&z->mu);
    while (!(s->seq == seq && s->ready) && !(z->done && z->taken < seq)) pthread_cond_wait(&z->cv, &z->mu);
    pthread_mutex_unlock(&z->mu);
    /* the helpers' chunk, decoded from between frames where the stream was
       between frames, with room for all its output where the reader gives
       more than they had */
    if (s->seq != seq || !s->ready || s->in != in || s->in_size != in_size || (!z->in_turn && !z->last_between) ||
        (s->st == PERFDATA_ERR_NO_SPACE && out_cap > z->cap))
        return zahead_own(z, in, in_size, out, out_cap, out_size);
    st = s->st;
    size = s->size;
    if (size > out_cap) st = PERFDATA_ERR_NO_SPACE; /* where the reader's decoder runs out of room too */
    else if (size) memcpy(out, s->out, size);
    *out_size = st == PERFDATA_ERR_NO_SPACE ? out_cap : size;
    z->last_in = in;
    z->last_n = in_size;
    z->last_between = s->between;
    pthread_mutex_lock(&z->mu);
    z->consumed = seq;
    pthread_cond_broadcast(&z->cv);
    pthread_mutex_unlock(&z->mu);
    return st;
}

/* Each part's decoder as the reader sets it up at the part's first chunk
(part_mem): memory for that chunk's window, grown, never shrunk; and the
largest (mem_n). 0 where a part's first chunk is not one the reader
would decode: it says so itself. */
static int zahead_sizes(struct pd_zahead *z) {
    size_t part, pos;
    perfdata_view first;
    z->mem_n = 0;
    for (part = 0; part < z->nparts; part++) {
        size_t need;
        pos = 0;
        z->part_mem[part] = part ? z->part_mem[part - 1] : 0;
        if (!zahead_in_part(z, part, &pos, &first)) continue; /* no chunk in this part */
        if (!(need = zahead_need(first.p, first.n))) return 0;
        if (need > z->part_mem[part]) z->part_mem[part] = need;
        if (need > z->mem_n) z->mem_n = need;
    }
    return z->mem_n != 0;
}

/* Whether the first chunk leaves its frame open (0: it ends it; -1: it
   does not decode), decoding it once */
static int zahead_in_turn(const struct pd_zahead *z, perfdata_view first) {
    unsigned char *mem = (unsigned char *)malloc(z->mem_n), *out = (unsigned char *)malloc(z->cap);
    size_t size;
    int between = 0;
    perfdata_status st = mem && out ? zahead_decode(zahead_dctx(mem, z->mem_n), first.p, first.n, out, z->cap, &size,
                                                    &between)
                                    : PERFDATA_ERR_MALFORMED;
    free(mem);
    free(out);
    return st != PERFDATA_OK ? -1 : !between;
}

static void zahead_free(struct pd_zahead *z) {
    size_t i;
    free(z->parts);
    free(z->part_mem);
    if (z->slot)
        for (i = 0; i < z->nslots; i++) free(z->slot[i].out);
    free(z->slot);
    for (i = 0; i < PD_ZAHEAD_MAX; i++) free(z->mem[i]);
    free(z->own_mem);
    free(z);
}

/* Before the walk: the helpers, for a -z file (-j N: N - 2 of them, at
   most 8; by default two fewer than the CPUs, at most 4, for 4 MiB of
   chunks or more: the command and the reader take one CPU each, and on two
   decompressing elsewhere costs more than it saves); where they cannot
   start, the reader decodes */
static void zahead_start(pd_session *s) {
    const perfdata_file *f = s->file;
    struct pd_zahead *z;
    perfdata_feat_compressed fc;
    perfdata_view sec, first;
    size_t part, pos, i, n, nparts = 1 + s->input.nr_streams;
    uint64_t cap, size = f->data.size;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    n = pd_limit.jobs ? (pd_limit.jobs > 2 ? (size_t)pd_limit.jobs - 2 : 0) : cpus > 2 ? (size_t)(cpus > 6 ? 4 : cpus - 2) : 0;
    for (i = 0; i < s->input.nr_streams; i++) size += s->input.streams[i].size;
    if (!pd_limit.jobs && size < PD_ZAHEAD_MIN_INPUT) n = 0; /* threads cost more than they save there */
    if (n > PD_ZAHEAD_MAX) n = PD_ZAHEAD_MAX;
    if (!n || s->stream || !perfdata_has_feature(f, PERFDATA_FEAT_COMPRESSED) || !s->input.main.data ||
        f->data.offset > s->input.main.size || f->data.size > s->input.main.size - f->data.offset)
        return;
    if (!(z = (struct pd_zahead *)calloc(1, sizeof *z)) || !(z->parts = (perfdata_view *)calloc(nparts, sizeof *z->parts)) ||
        !(z->part_mem = (size_t *)calloc(nparts, sizeof *z->part_mem))) {
        if (z) zahead_free(z);
        return;
    }
    z->nparts = nparts;
    z->parts[0].p = s->input.main.data + f->data.offset;
    z->parts[0].n = (size_t)f->data.size;
    for (i = 0; i < s->input.nr_streams; i++) { /* as the reader is given them (session_start) */
        z->parts[1 + i].p = s->input.streams[i].data;
        z->parts[1 + i].n = s->input.streams[i].size;
    }
    z->big = (f->flags & PERFDATA_FILE_BIG_ENDIAN) != 0;
    z->last_between = 1;
    /* the most room the reader gives a chunk: twice its buffer for one
       (the output the feature's mmap_len says, else 512 KiB, at most 64
       MiB, and a record left over) and 16 MiB more when it keeps them in
       time order. Its pages are touched only as far as chunks decode. */
    cap = perfdata_feature_section(f, PERFDATA_FEAT_COMPRESSED, &sec, NULL) == PERFDATA_OK &&
                  perfdata_decode_feat_compressed(sec, z->big, &fc, NULL) == PERFDATA_OK && fc.mmap_len
              ? fc.mmap_len : 512u * 1024u;
    if (cap > ((uint64_t)64 << 20)) cap = (uint64_t)64 << 20;
    z->cap = ((size_t)cap + 65535u) * 2 + ((size_t)16 << 20);
    if (!zahead_sizes(z)) {
        zahead_free(z);
        return;
    }
    part = pos = 0;
    if (!zahead_next(z, &part, &pos, &first) ||
        (z->in_turn = nparts > 1 ? 1 : zahead_in_turn(z, first)) < 0) {
        zahead_free(z);
        return;
    }
    if (z->in_turn) n = 1;
    z->nslots = 2 * n + 1;
    if (!(z->slot = (pd_zslot *)calloc(z->nslots, sizeof *z->slot))) {
        zahead_free(z);
        return;
    }
    for (i = 0; i < z->nslots; i++)
        if (!(z->slot[i].out = (unsigned char *)malloc(z->cap))) { zahead_free(z); return; }
    for (i = 0; i < n; i++)
        if (!(z->mem[i] = (unsigned char *)malloc(z->mem_n))) { zahead_free(z); return; }
    if (pthread_mutex_init(&z->mu, NULL) != 0) { zahead_free(z); return; }
    if (pthread_cond_init(&z->cv, NULL) != 0) { pthread_mutex_destroy(&z->mu); zahead_free(z); return; }
    for (i = 0; i < n; i++) {
        z->helper[i].z = z;
        z->helper[i].i = i;
        if (pthread_create(&z->thread[i], NULL, zahead_main, &z->helper[i]) != 0) break;
    }
    z->nthreads = i;
    if (!i) {
        pthread_cond_destroy(&z->cv);
        pthread_mutex_destroy(&z->mu);
        zahead_free(z);
        return;
    }
    s->zahead = z;
    perfdata_reader_set_decompressor(&s->reader, zahead_chunk, z);
}

static void zahead_stop(pd_session *s) {
    struct pd_zahead *z = s->zahead;
    size_t i;
    if (!z) return;
    pthread_mutex_lock(&z->mu);
    z->stop = 1;
    pthread_cond_broadcast(&z->cv);
    pthread_mutex_unlock(&z->mu);
    for (i = 0; i < z->nthreads; i++) pthread_join(z->thread[i], NULL);
    pthread_cond_destroy(&z->cv);
    pthread_mutex_destroy(&z->mu);
    zahead_free(z);
    s->zahead = NULL;
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
    uint64_t records = records_read(s);
    if (!records && err->code != PERFDATA_ERR_TRUNCATED) {
        fprintf(stderr, "; no record could be read\n");
        return PD_EXIT_ERROR;
    }
    fprintf(stderr, "; the records stop there: %llu read before it\n", (unsigned long long)records);
    s->read_partial = 1;
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
    s->read_partial = 1;
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

/* ------------------------------------------------------- reading ahead */
/* The ordered walk in two threads: the command's (this one) takes the
   records in batches from a second thread that reads, decompresses and
   orders them. A record in the input (a mapping, or bytes that outlive the
   session) is passed as it is; one in the reader's memory (a decompressed
   chunk), which the reader may reuse once it is called again, is copied
   into the batch. The command sees the records, the file's events and the
   session as a walk in one thread shows them: the reader thread waits for
   the command to be idle before anything the command may read changes
   (the file's events, through perfdata_reader_on_change; memory given for
   the events or their id index), and before a record too large to copy or
   a record skipped. */
#define PD_BATCH_SLOTS 8192
#define PD_BATCH_FULL 512
#define PD_BATCH_BYTES ((size_t)1 << 20)
#define PD_BATCHES 4
#define PD_AHEAD 8                   /* records prefetched ahead of the command */
#ifndef PD_PREFETCH_MAX
#define PD_PREFETCH_MAX 2560         /* bytes of a record prefetched at most (a dwarf sample's unwinding reads its stack copy to 2 KB and more) */
#endif

/* A record as the reader gave it, with its name and whether the reader
   also yields its contents (pd_session_decompressed). */
typedef struct pd_item {
    perfdata_record rec;
    const char *name;
    int decompressed;
} pd_item;

/* Most records are passed as their address alone, 16 bytes (the command's
   thread reads what the reader's wrote: the less, the faster): a record in
   the input, rebuilt from its header bytes, its stream and its extra bytes
   as the reader built it (pipe_put makes sure). The others as an item. */
typedef struct pd_slot {
    const void *p;                   /* the record's bytes, or its pd_item */
    uint32_t extra;
    uint16_t stream;
    uint8_t item;                    /* 1: p is a pd_item; 2: p is a copy of the record's bytes in the
                                        batch, its offsets in the 16 bytes before it (copy_rebuilds) */
    uint8_t decompressed;
} pd_slot;

typedef struct pd_batch {
    pd_slot slots[PD_BATCH_SLOTS];
    size_t n;
    size_t weight;                   /* bytes of the input its records span */
    pd_item items[PD_BATCH_FULL];
    size_t nitems;
    unsigned char *bytes;            /* PD_BATCH_BYTES, for copies; allocated when first needed */
    size_t used;
} pd_batch;

struct pd_pipe {
    pthread_mutex_t mu;
    pthread_cond_t filled, emptied;
    pd_batch *full[PD_BATCHES];      /* a queue: head, nfull */
    pd_batch *spare[PD_BATCHES];
    size_t head, nfull, nspare;
    int busy;                        /* the command is taking a batch's records */
    int done, rc;                    /* the reader thread has ended, with this status */
    pd_batch *cur;                   /* the reader thread's, being filled */
    pd_session *s;
    pd_record_fn fn;
    void *ctx;
    /* what one thread writes for every record, each on a cache line of its
       own: a line both write moves between the cores at every record */
    char pad0[64];
    int decompressed;                /* the command's: of the record it is given */
    char pad1[64];
    uint64_t records;                /* the reader's: records read (pd_session.records after) */
    char pad2[64];
    pd_batch *batch;                 /* PD_BATCHES of them */
};

static int pipe_decompressed(const pd_pipe *p) {
    return p->decompressed;
}

static uint64_t records_read(const pd_session *s) {
    return s->pipe ? s->pipe->records : s->records;
}

/* The batch being filled goes to the command. */
static void pipe_send(pd_pipe *p) {
    if (!p->cur || !p->cur->n) return;
    pthread_mutex_lock(&p->mu);
    p->full[(p->head + p->nfull) % PD_BATCHES] = p->cur;
    p->nfull++;
    pthread_cond_signal(&p->filled);
    pthread_mutex_unlock(&p->mu);
    p->cur = NULL;
}

/* Until the command has taken every record sent and waits for more. */
static void pipe_idle(pd_pipe *p) {
    pipe_send(p);
    pthread_mutex_lock(&p->mu);
    while (p->nfull || p->busy) pthread_cond_wait(&p->emptied, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

static pd_batch *pipe_batch(pd_pipe *p) {
    if (!p->cur) {
        pthread_mutex_lock(&p->mu);
        while (!p->nspare) pthread_cond_wait(&p->emptied, &p->mu);
        p->cur = p->spare[--p->nspare];
        pthread_mutex_unlock(&p->mu);
        p->cur->n = p->cur->nitems = p->cur->used = p->cur->weight = 0;
    }
    return p->cur;
}

/* The input map holding n bytes at q (the main one for stream 0, else the
   stream's), or NULL: bytes that outlive the walk. */
static const pd_map *input_of(const pd_session *s, const unsigned char *q, size_t n) {
    const pd_map *m = &s->input.main;
    size_t at;
    if (!(m->data && q >= m->data && q < m->data + m->size)) m = pd_input_stream_at(&s->input, q);
    if (!m || !m->data || q < m->data) return NULL;
    at = (size_t)(q - m->data);
    return at <= m->size && n <= m->size - at ? m : NULL;
}

/* A record of the input from its address, stream and extra bytes. */
/* The record of bytes q, its bytes at offset at */
static void record_at(const pd_session *s, const unsigned char *q, unsigned stream, size_t extra, uint64_t at,
                      perfdata_record *rec) {
    int big = (s->file->flags & PERFDATA_FILE_BIG_ENDIAN) != 0;
    size_t size = big ? (size_t)q[6] << 8 | q[7] : (size_t)q[7] << 8 | q[6];
    rec->type = big ? (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 | q[3]
                    : (uint32_t)q[3] << 24 | (uint32_t)q[2] << 16 | (uint32_t)q[1] << 8 | q[0];
    rec->misc = (uint16_t)(big ? q[4] << 8 | q[5] : q[5] << 8 | q[4]);
    rec->size = (uint16_t)size;
    rec->offset = at;
    rec->big_endian = big;
    rec->stream = stream;
    rec->bytes.p = q; rec->bytes.n = size; rec->bytes.offset = at;
    rec->body.p = q + 8; rec->body.n = size - 8; rec->body.offset = at + 8;
    rec->extra.p = q + size; rec->extra.n = extra; rec->extra.offset = at + size;
}

static void slot_record(const pd_session *s, const unsigned char *q, unsigned stream, size_t extra, perfdata_record *rec) {
    const unsigned char *base = stream ? s->input.streams[stream - 1].data : s->input.main.data;
    record_at(s, q, stream, extra, (uint64_t)(q - base), rec);
}

/* Whether slot_record rebuilds rec from its address, stream and extra
   bytes: its views and offsets are those of its place in the input, and
   its header fields those of its bytes in the file's order (perfdata.h
   builds them so; compared without reading the bytes again, which the
   reader's core may no longer hold). */
static int slot_rebuilds(const pd_session *s, const perfdata_record *rec) {
    const unsigned char *q = rec->bytes.p;
    const unsigned char *base = rec->stream ? s->input.streams[rec->stream - 1].data : s->input.main.data;
    uint64_t at = (uint64_t)(q - base);
    size_t size = rec->bytes.n;
    return rec->big_endian == ((s->file->flags & PERFDATA_FILE_BIG_ENDIAN) != 0) && size >= 8 && size <= 0xffff &&
           rec->size == size && rec->offset == at && rec->bytes.offset == at && rec->body.p == q + 8 &&
           rec->body.n == size - 8 && rec->body.offset == at + 8 && rec->extra.p == q + size &&
           rec->extra.offset == at + size;
}

/* Whether a record the reader holds (a decompressed one) is rebuilt from
   a copy of its bytes, its stream and extra bytes, and its offset and
   its bytes' offset: its views and offsets laid out as perfdata.h lays
   out a record's, its header fields those of its bytes, its name its
   stream's. */
static int copy_rebuilds(const pd_session *s, const perfdata_record *rec, const char *name) {
    size_t size = rec->bytes.n;
    uint64_t at = rec->bytes.offset;
    return rec->big_endian == ((s->file->flags & PERFDATA_FILE_BIG_ENDIAN) != 0) && size >= 8 && size <= 0xffff &&
           rec->size == size && rec->body.p == rec->bytes.p + 8 && rec->body.n == size - 8 &&
           rec->body.offset == at + 8 && rec->extra.n <= 0xffffffffu && (!rec->extra.n || rec->extra.p == rec->bytes.p + size) &&
           rec->extra.offset == at + size && rec->stream <= 0xffff && name == stream_name(s, rec);
}

/* The record a slot of kind 2 holds (copy_rebuilds) */
static void copy_record(const pd_session *s, const pd_slot *slot, perfdata_record *rec) {
    const unsigned char *q = (const unsigned char *)slot->p;
    uint64_t offset, at;
    memcpy(&offset, q - 16, 8);
    memcpy(&at, q - 8, 8);
    record_at(s, q, slot->stream, slot->extra, at, rec);
    rec->offset = offset;
}

/* What the session learns from a record as the command gets it: a pipe
   names its architecture in a feature record (perf's env->arch). */
static void session_saw(pd_session *s, const perfdata_record *rec) {
    perfdata_header_feature hf;
    perfdata_view arch;
    if (rec->type != PERFDATA_RECORD_HEADER_FEATURE ||
        perfdata_decode_header_feature(s->file, rec, &hf, NULL) != PERFDATA_OK || hf.feat_id != PERFDATA_FEAT_ARCH ||
        perfdata_decode_feat_string(hf.data, rec->big_endian, &arch, NULL) != PERFDATA_OK || arch.n >= sizeof s->arch ||
        memchr(arch.p, 0, arch.n))
        return;
    memcpy(s->arch, arch.p, arch.n);
    s->arch[arch.n] = 0;
}

/* One record for the command (the reader thread's side of the walk). */
static void pipe_put(pd_pipe *p, const perfdata_record *rec, const char *name) {
    pd_session *s = p->s;
    pd_batch *b = pipe_batch(p);
    pd_slot *slot;
    pd_item *it;
    size_t need = rec->bytes.n + rec->extra.n, room;
    int decompressed = perfdata_reader_expands(&s->reader, rec), in_reader;
    const pd_map *m = input_of(s, rec->bytes.p, rec->bytes.n);
    if (m && rec->bytes.n >= 8 && rec->extra.n <= 0xffffffffu && rec->stream <= 0xffff &&
        (rec->stream ? rec->stream <= s->input.nr_streams && m == &s->input.streams[rec->stream - 1] : m == &s->input.main)) {
        if (slot_rebuilds(s, rec)) {
            slot = &b->slots[b->n++];
            slot->p = rec->bytes.p;
            slot->extra = (uint32_t)rec->extra.n;
            slot->stream = (uint16_t)rec->stream;
            slot->item = 0;
            slot->decompressed = (uint8_t)decompressed;
            /* the command reads these bytes later: behind the reader, the
               input's pages are given back (pd_map_advance), and pages read
               again stay. A batch spans at most PD_BATCH_BYTES of them. */
            b->weight += need;
            if (b->n == PD_BATCH_SLOTS || b->weight >= PD_BATCH_BYTES) pipe_send(p);
            return;
        }
    }
    in_reader = !(m && (!rec->extra.n || input_of(s, rec->extra.p, rec->extra.n)));
    if (in_reader && need >= rec->bytes.n && need <= PD_BATCH_BYTES - 16 && copy_rebuilds(s, rec, name)) {
        /* copied with its offsets before it: 16 bytes for the command to read, not a whole item */
        room = (16 + need + 7) & ~(size_t)7;
        if (b->used + room > PD_BATCH_BYTES) {
            pipe_send(p);
            b = pipe_batch(p);
        }
        if (!b->bytes) b->bytes = (unsigned char *)malloc(PD_BATCH_BYTES);
        if (b->bytes) {
            unsigned char *to = b->bytes + b->used;
            memcpy(to, &rec->offset, 8);
            memcpy(to + 8, &rec->bytes.offset, 8);
            memcpy(to + 16, rec->bytes.p, rec->bytes.n);
            if (rec->extra.n) memcpy(to + 16 + rec->bytes.n, rec->extra.p, rec->extra.n);
            b->used += room;
            slot = &b->slots[b->n++];
            slot->p = to + 16;
            slot->extra = (uint32_t)rec->extra.n;
            slot->stream = (uint16_t)rec->stream;
            slot->item = 2;
            slot->decompressed = (uint8_t)decompressed;
            if (b->n == PD_BATCH_SLOTS) pipe_send(p);
            return;
        }
    }
    if (b->nitems == PD_BATCH_FULL || (in_reader && need >= rec->bytes.n && need <= PD_BATCH_BYTES &&
                                       b->used + ((need + 7) & ~(size_t)7) > PD_BATCH_BYTES)) {
        pipe_send(p);
        b = pipe_batch(p);
    }
    it = &b->items[b->nitems++];
    it->rec = *rec;
    it->name = name;
    it->decompressed = decompressed;
    if (in_reader && need >= rec->bytes.n && need <= PD_BATCH_BYTES) { /* copied, unless out of memory */
        if (!b->bytes) b->bytes = (unsigned char *)malloc(PD_BATCH_BYTES);
        if (b->bytes) {
            unsigned char *to = b->bytes + b->used;
            room = (need + 7) & ~(size_t)7;
            memcpy(to, rec->bytes.p, rec->bytes.n);
            if (rec->extra.n) memcpy(to + rec->bytes.n, rec->extra.p, rec->extra.n);
            it->rec.bytes.p = to;
            it->rec.body.p = to + (rec->body.p - rec->bytes.p);
            it->rec.extra.p = to + rec->bytes.n;
            b->used += room;
            in_reader = 0;
        }
    }
    slot = &b->slots[b->n++];
    slot->p = it;
    slot->item = 1;
    /* a record left in the reader's memory is taken before the reader is called again */
    if (in_reader) pipe_idle(p);
    else if (b->n == PD_BATCH_SLOTS) pipe_send(p);
}

/* The reader calls this before it changes the file's events. */
static void pipe_on_change(void *user) {
    pipe_idle((pd_pipe *)user);
}

static int walk(pd_session *s, pd_record_fn fn, void *ctx);

static void *pipe_reader(void *arg) {
    pd_pipe *p = (pd_pipe *)arg;
    int rc = walk(p->s, p->fn, p->ctx);
    pipe_send(p);
    pthread_mutex_lock(&p->mu);
    p->rc = rc;
    p->done = 1;
    pthread_cond_signal(&p->filled);
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* Inputs smaller than this are read in one thread unless -j says
   otherwise: a thread and its batches cost more than they save there. */
#define PD_PIPE_MIN_INPUT ((size_t)16 << 20)

/* Whether the walk reads ahead in a second thread: not a stream (its
   pieces are read as the command goes); -j 2 or more, or by default on a
   machine with 2 CPUs or more for an input of some size. */
static int pipe_wanted(const pd_session *s) {
    size_t i, size = s->input.main.size;
    if (s->stream) return 0;
    if (pd_limit.jobs) return pd_limit.jobs > 1;
    for (i = 0; i < s->input.nr_streams; i++) size += s->input.streams[i].size;
    return size >= PD_PIPE_MIN_INPUT && sysconf(_SC_NPROCESSORS_ONLN) > 1;
}

static void pipe_free(pd_pipe *p) {
    size_t i;
    for (i = 0; i < PD_BATCHES; i++) free(p->batch[i].bytes);
    free(p->batch);
    pthread_cond_destroy(&p->emptied);
    pthread_cond_destroy(&p->filled);
    pthread_mutex_destroy(&p->mu);
    free(p);
}

/* The walk with a reader thread; -1 when one cannot be started. */
static int walk_piped(pd_session *s, pd_record_fn fn, void *ctx) {
    pd_pipe *p = (pd_pipe *)calloc(1, sizeof *p);
    pthread_t th;
    size_t i;
    int rc;
    if (!p) return -1;
    if (!(p->batch = (pd_batch *)malloc(PD_BATCHES * sizeof *p->batch))) { free(p); return -1; }
    p->s = s; p->fn = fn; p->ctx = ctx;
    p->records = s->records;
    for (i = 0; i < PD_BATCHES; i++) {
        p->batch[i].n = p->batch[i].nitems = p->batch[i].used = 0;
        p->batch[i].bytes = NULL;
        p->spare[p->nspare++] = &p->batch[i];
    }
    if (pthread_mutex_init(&p->mu, NULL) != 0) { free(p->batch); free(p); return -1; }
    if (pthread_cond_init(&p->filled, NULL) != 0) { pthread_mutex_destroy(&p->mu); free(p->batch); free(p); return -1; }
    if (pthread_cond_init(&p->emptied, NULL) != 0) {
        pthread_cond_destroy(&p->filled);
        pthread_mutex_destroy(&p->mu);
        free(p->batch);
        free(p);
        return -1;
    }
    s->pipe = p;
    perfdata_reader_on_change(&s->reader, pipe_on_change, p);
    if (pthread_create(&th, NULL, pipe_reader, p) != 0) {
        perfdata_reader_on_change(&s->reader, NULL, NULL);
        s->pipe = NULL;
        pipe_free(p);
        return -1;
    }
    for (;;) {
        pd_batch *b;
        pthread_mutex_lock(&p->mu);
        while (!p->nfull && !p->done) pthread_cond_wait(&p->filled, &p->mu);
        if (!p->nfull) { pthread_mutex_unlock(&p->mu); break; }
        b = p->full[p->head];
        p->head = (p->head + 1) % PD_BATCHES;
        p->nfull--;
        p->busy = 1;
        pthread_mutex_unlock(&p->mu);
        for (i = 0; i < b->n; i++) {
            const pd_slot *slot = &b->slots[i];
#if defined(__GNUC__) || defined(__clang__)
            if (i + PD_AHEAD < b->n && b->slots[i + PD_AHEAD].item != 1) { /* the reader's core read it last */
                const char *q = (const char *)b->slots[i + PD_AHEAD].p;
                __builtin_prefetch(q);
                __builtin_prefetch(q + 64);
                __builtin_prefetch(q + 128);
                __builtin_prefetch(q + 192);
            }
            if (i + PD_AHEAD / 2 < b->n && b->slots[i + PD_AHEAD / 2].item != 1) {
                /* a long record (a user stack dump): the lines after those,
                   up to PD_PREFETCH_MAX (its size read from the header,
                   prefetched above; in the file's byte order, so on a
                   swapped file a guess, which costs only prefetches) */
                const unsigned char *q = (const unsigned char *)b->slots[i + PD_AHEAD / 2].p;
                size_t n = (size_t)q[6] | (size_t)q[7] << 8, k;
                if (n > PD_PREFETCH_MAX) n = PD_PREFETCH_MAX;
                for (k = 256; k < n; k += 64) __builtin_prefetch(q + k);
            }
#endif
            if (slot->item == 1) {
                const pd_item *it = (const pd_item *)slot->p;
                p->decompressed = it->decompressed;
                session_saw(s, &it->rec);
                fn(ctx, &it->rec, it->name);
            } else {
                perfdata_record rec;
                if (slot->item == 2) copy_record(s, slot, &rec);
                else slot_record(s, (const unsigned char *)slot->p, slot->stream, slot->extra, &rec);
                p->decompressed = slot->decompressed;
                session_saw(s, &rec);
                fn(ctx, &rec, stream_name(s, &rec));
            }
        }
        pthread_mutex_lock(&p->mu);
        b->n = b->nitems = b->used = b->weight = 0;
        p->spare[p->nspare++] = b;
        p->busy = 0;
        pthread_cond_broadcast(&p->emptied);
        pthread_mutex_unlock(&p->mu);
    }
    pthread_join(th, NULL);
    rc = p->rc;
    s->records = p->records;
    perfdata_reader_on_change(&s->reader, NULL, NULL);
    s->pipe = NULL;
    pipe_free(p);
    return rc;
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
            /* the events and their id index move: the command must not be reading them */
            if (s->pipe && (err.detail == PERFDATA_POOL_EVENTS || err.detail == PERFDATA_POOL_IDS)) pipe_idle(s->pipe);
            if (give(s, &err) < 0) return PD_EXIT_ERROR;
            continue;
        }
        if (st == PERFDATA_NEED_INPUT) {
            fflush(stdout); /* what is known is shown before waiting for more */
            if (pd_input_read(&s->input, &s->reader) < 0) return PD_EXIT_ERROR;
            continue;
        }
        if (st != PERFDATA_OK && err.final) {
            if (err.code == PERFDATA_ERR_LIMIT && err.detail == PERFDATA_POOL_EVENTS) { s->read_partial = 1; return PD_EXIT_PARTIAL; }
            if (!rec.stream && s->input.is_dir) { /* (in time order, the reader names no record): where it is */
                perfdata_reader_position(&s->reader, &stream);
                rec.stream = stream;
            }
            return stopped(s, rec.stream ? stream_name(s, &rec) : (s->input.is_dir ? s->input.main.path : s->path), &err);
        }
        if (st != PERFDATA_OK) {
            if (rec.type == PERFDATA_RECORD_COMPRESSED || rec.type == PERFDATA_RECORD_COMPRESSED2 || !rec.type) {
                chunks_stopped(s, &err);
                if (!rec.type) continue;
            } else { /* a bad attr record: still a record */
                if (s->pipe) pipe_idle(s->pipe);
                pd_session_skip(s, &rec, &err);
            }
        }
        if (s->pipe) s->pipe->records++;
        else s->records++;
        if (s->pipe) pipe_put(s->pipe, &rec, stream_name(s, &rec));
        else {
            session_saw(s, &rec);
            fn(ctx, &rec, stream_name(s, &rec));
        }
        {
            uint64_t at = perfdata_reader_position(&s->reader, &stream);
            pd_map *m = stream && stream <= s->input.nr_streams ? &s->input.streams[stream - 1] : &s->input.main;
            if (!s->stream && at < m->size) pd_map_at(m, m->data + at);
        }
    }
}

int pd_session_walk(pd_session *s, pd_record_fn fn, void *ctx) {
    int rc;
    zahead_start(s);
    /* in file order, a command that asks for it (its own work per record
       is heavy) has the reader thread decompress the chunks ahead of it;
       on plain records that thread would only cost */
    if (s->read_ahead && !(s->flags & PERFDATA_READ_RAW_CHUNKS) &&
        perfdata_has_feature(s->file, PERFDATA_FEAT_COMPRESSED) && pipe_wanted(s) &&
        (rc = walk_piped(s, fn, ctx)) != -1) {
        zahead_stop(s);
        return walk_ended(s, rc);
    }
    rc = walk(s, fn, ctx);
    zahead_stop(s);
    return walk_ended(s, rc);
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
    zahead_start(s);
    if (pipe_wanted(s)) {
        int rc = walk_piped(s, fn, ctx);
        if (rc != -1) {
            zahead_stop(s);
            return walk_ended(s, rc);
        }
    }
    {
        int rc = walk(s, fn, ctx);
        zahead_stop(s);
        return walk_ended(s, rc);
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
    if (rc == PD_EXIT_OK && (s->partial || s->read_partial)) rc = PD_EXIT_PARTIAL;
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
