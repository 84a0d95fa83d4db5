/* reader_walk.h - walks an input with perfdata_reader, whole or pushed in
   pieces, and sums up the record sequence, so that two walks can be
   compared. Memory is given with malloc as asked, up to a bound. Shared by
   tests/test_reader.c and fuzz/fuzz_stream.c. */
#ifndef READER_WALK_H
#define READER_WALK_H
#include "perfdata.h"
#include <stdlib.h>
#include <string.h>

typedef struct rw_result {
    uint64_t records, hash, bytes;   /* the records: count, a hash of type/size/offset/bytes, bytes */
    perfdata_status end;             /* END, or the final error */
    uint64_t end_offset;
    uint64_t errors;                 /* non-final errors */
    size_t peak;                     /* memory given at most at once */
    size_t nr_events;
} rw_result;

typedef struct rw_mem { size_t live, peak, bound; } rw_mem;

static uint64_t rw_mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0x100000001b3ull;
}

static void rw_take_back(perfdata_reader *r, rw_mem *m) {
    void *p;
    size_t n;
    while ((p = perfdata_reader_take_back(r, &n)) != NULL) {
        m->live -= n;
        free(p);
    }
}

/* Answers a NEED_MEMORY: malloc'd, or refused past the bound. */
static void rw_give(perfdata_reader *r, const perfdata_error *err, rw_mem *m) {
    size_t n = (size_t)err->needed;
    void *p;
    if (err->detail == PERFDATA_POOL_QUEUE || err->detail == PERFDATA_POOL_EVENTS || err->detail == PERFDATA_POOL_IDS)
        n = n < 4096 ? 4096 : n * 2;
    if (err->needed > m->bound || m->live + n > m->bound || !(p = malloc(n))) {
        perfdata_reader_give(r, (perfdata_pool)err->detail, NULL, 0, NULL);
        return;
    }
    if (perfdata_reader_give(r, (perfdata_pool)err->detail, p, n, NULL) != PERFDATA_OK) {
        free(p);
        perfdata_reader_give(r, (perfdata_pool)err->detail, NULL, 0, NULL);
        return;
    }
    m->live += n;
    if (m->live > m->peak) m->peak = m->live;
}

static void rw_free_all(perfdata_reader *r, rw_mem *m) {
    /* what the reader still holds: every pool, by taking it back after the end */
    rw_take_back(r, m);
    perfdata_reader_close(r);
    rw_take_back(r, m);
}

/* piece: 0 = whole; else pieces of 1..piece bytes from a simple PRNG seeded by seed */
static rw_result rw_walk(const unsigned char *data, size_t n, unsigned flags, size_t piece, uint32_t seed, size_t bound) {
    perfdata_reader r;
    perfdata_record rec;
    perfdata_error err;
    perfdata_status st;
    rw_result res;
    rw_mem m;
    size_t at = 0;
    uint64_t guard = 0;
    memset(&res, 0, sizeof res);
    memset(&m, 0, sizeof m);
    m.bound = bound;
    res.hash = 1469598103934665603ull;
    perfdata_reader_init(&r, flags);
    if (!piece) perfdata_reader_set_input(&r, data, n);
    for (;;) {
        if (++guard > 100000000ull) abort(); /* never a loop */
        st = perfdata_reader_next(&r, &rec, &err);
        rw_take_back(&r, &m);
        if (st == PERFDATA_NEED_MEMORY) { rw_give(&r, &err, &m); continue; }
        if (st == PERFDATA_NEED_INPUT) {
            size_t k;
            if (!piece) abort(); /* only pushed input asks for more */
            seed = seed * 1103515245u + 12345u;
            k = 1 + (size_t)((seed >> 8) % piece);
            if (k > n - at) k = n - at;
            if (perfdata_reader_push(&r, data + at, k, NULL) != PERFDATA_OK) abort();
            at += k;
            continue;
        }
        if (st == PERFDATA_END) { res.end = st; break; }
        if (st != PERFDATA_OK && err.final) { res.end = st; res.end_offset = err.offset; break; }
        if (st != PERFDATA_OK) { res.errors++; if (!rec.type) continue; }
        res.records++;
        res.bytes += rec.bytes.n + rec.extra.n;
        res.hash = rw_mix(res.hash, rec.type);
        res.hash = rw_mix(res.hash, rec.offset);
        res.hash = rw_mix(res.hash, rec.bytes.n + ((uint64_t)rec.extra.n << 16));
        {
            size_t i;
            for (i = 0; i < rec.bytes.n; i++) res.hash = rw_mix(res.hash, rec.bytes.p[i]);
            for (i = 0; i < rec.extra.n && i < 64; i++) res.hash = rw_mix(res.hash, rec.extra.p[i]);
        }
    }
    res.nr_events = perfdata_reader_file(&r)->nr_events;
    res.peak = m.peak;
    rw_free_all(&r, &m);
    if (m.live) abort(); /* every byte given comes back */
    return res;
}
#endif
