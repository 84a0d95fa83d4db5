/* test_zahead.c - tests of the -z chunk decoding ahead of the reader
   (tools/pd_tool.c's zahead_*), below the command line, where
   tests/zahead_same.py cannot reach: the reader taking over from a helper
   that decoded the chunks in turn, one frame running through all of them.

   Build and run from the repository root (ASan+UBSan):
     cc -std=c99 -Wall -Wextra -Wpedantic -Werror -D_GNU_SOURCE -g -pthread \
        -fsanitize=address,undefined -I. -Itools tests/test_zahead.c \
        -o build/test/test_zahead && build/test/test_zahead

   The chunks are written here: a frame header, then raw blocks, one per
   chunk, so a chunk past the first decodes only after the ones before it. */
#define PERFDATA_IMPLEMENTATION
#define PERFDATA_ZSTD
#include "perfdata.h"
#include "../tools/pd_intern.c"
#include "../tools/pd_text.c"
#include "../tools/pd_file.c"
#include "../tools/pd_opts.c"
#include "../tools/pd_tool.c"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNKS 4
#define PAYLOAD 1000

/* each chunk: its record header, a frame header (6 bytes), a block header (3), the payload */
typedef struct data { unsigned char p[CHUNKS * (8 + 6 + 3 + PAYLOAD)]; size_t n; perfdata_view chunk[CHUNKS]; } data;

static void put_le(unsigned char *p, uint64_t v, unsigned n) {
    unsigned i;
    for (i = 0; i < n; i++) p[i] = (unsigned char)(v >> (8 * i));
}

/* payload byte k of chunk i */
static unsigned char payload(unsigned i, unsigned k) { return (unsigned char)(i * 31 + k * 7 + (k >> 8)); }

/* A data section of CHUNKS compressed records: one frame (whole_frames 0;
   left open at the end, as perf leaves it, when open) or a frame per
   chunk, a raw block of PAYLOAD bytes in each, chunk i's payload that of
   chunk first + i */
static void make_from(data *d, int whole_frames, unsigned first, int open) {
    unsigned i, k;
    d->n = 0;
    for (i = 0; i < CHUNKS; i++) {
        unsigned char *rec = d->p + d->n, *q = rec + 8;
        size_t z = 0;
        if (i == 0 || whole_frames) {
            put_le(q, 0xFD2FB528u, 4);
            q[4] = 0x00;            /* no content size, no checksum, a window descriptor */
            q[5] = (17 - 10) << 3;  /* a 128 KiB window */
            z = 6;
        }
        put_le(q + z, (uint64_t)PAYLOAD << 3 | ((i + 1 == CHUNKS && !open) || whole_frames ? 1u : 0u), 3); /* raw */
        z += 3;
        for (k = 0; k < PAYLOAD; k++) q[z + k] = payload(first + i, k);
        z += PAYLOAD;
        put_le(rec, PERFDATA_RECORD_COMPRESSED, 4);
        put_le(rec + 4, 0, 2);
        put_le(rec + 6, 8 + z, 2);
        d->chunk[i].p = q;
        d->chunk[i].n = z;
        d->n += 8 + z;
    }
}

static void make(data *d, int whole_frames) { make_from(d, whole_frames, 0, 0); }

static int is_payload(const unsigned char *p, size_t n, unsigned i) {
    unsigned k;
    if (n != PAYLOAD) return 0;
    for (k = 0; k < PAYLOAD; k++)
        if (p[k] != payload(i, k)) return 0;
    return 1;
}

/* a zahead as zahead_start sets it up, with no helper running: the test
   plays the helper */
static struct pd_zahead *setup(const data *d) {
    struct pd_zahead *z = (struct pd_zahead *)calloc(1, sizeof *z);
    size_t part = 0, pos = 0, i;
    perfdata_view first;
    if (!z || !(z->parts = (perfdata_view *)calloc(1, sizeof *z->parts)) ||
        !(z->part_mem = (size_t *)calloc(1, sizeof *z->part_mem)))
        abort();
    z->nparts = 1;
    z->parts[0].p = d->p;
    z->parts[0].n = d->n;
    z->last_between = 1;
    z->cap = (size_t)1 << 16;
    if (!zahead_next(z, &part, &pos, &first) || !(z->mem_n = zahead_need(first.p, first.n))) abort();
    z->part_mem[0] = z->mem_n;
    z->in_turn = zahead_in_turn(z, first);
    z->nslots = 3;
    if (!(z->slot = (pd_zslot *)calloc(z->nslots, sizeof *z->slot))) abort();
    for (i = 0; i < z->nslots; i++)
        if (!(z->slot[i].out = (unsigned char *)malloc(z->cap))) abort();
    if (!(z->mem[0] = (unsigned char *)malloc(z->mem_n))) abort();
    zahead_dctx(z->mem[0], z->mem_n);
    pthread_mutex_init(&z->mu, NULL);
    pthread_cond_init(&z->cv, NULL);
    return z;
}

static void teardown(struct pd_zahead *z) {
    pthread_cond_destroy(&z->cv);
    pthread_mutex_destroy(&z->mu);
    zahead_free(z);
}

/* the helper's work for chunk seq (1-based), chunk c of d: decoded in
   turn, offered as in */
static void offer_chunk(struct pd_zahead *z, const data *d, unsigned c, uint64_t seq, const unsigned char *in) {
    pd_zslot *s = &z->slot[seq % z->nslots];
    s->seq = seq;
    s->in = in;
    s->in_size = d->chunk[c].n;
    s->st = zahead_decode((perfdata_zstd_dctx *)(void *)z->mem[0], d->chunk[c].p, d->chunk[c].n, s->out, z->cap,
                          &s->size, &s->between);
    s->ready = 1;
    z->taken = seq;
}

static void offer(struct pd_zahead *z, const data *d, uint64_t seq, const unsigned char *in) {
    offer_chunk(z, d, (unsigned)(seq - 1), seq, in);
}

TEST(in_turn_guess) {
    static data d;
    struct pd_zahead *z;
    make(&d, 0);
    z = setup(&d);
    CHECK_EQ_U64(z->in_turn, 1); /* perf's: the frame runs on */
    teardown(z);
    make(&d, 1);
    z = setup(&d);
    CHECK_EQ_U64(z->in_turn, 0);
    teardown(z);
}

/* the reader meets another chunk than the helper's at the third: it
   decodes the two before again with a decoder of its own (one frame
   through every chunk), or starts between frames (a frame per chunk),
   then goes on */
static void takes_over(int whole_frames) {
    static data d;
    static unsigned char out[1 << 16];
    struct pd_zahead *z;
    size_t size = 0;
    unsigned i;
    make(&d, whole_frames);
    z = setup(&d);
    for (i = 0; i < 2; i++) {
        offer(z, &d, i + 1, d.chunk[i].p);
        CHECK_EQ_U64(zahead_chunk(z, d.chunk[i].p, d.chunk[i].n, out, sizeof out, &size), PERFDATA_OK);
        CHECK(is_payload(out, size, i));
        CHECK_EQ_U64(z->own, 0);
    }
    offer(z, &d, 3, d.chunk[3].p); /* not the chunk the reader has */
    for (i = 2; i < CHUNKS; i++) {
        CHECK_EQ_U64(zahead_chunk(z, d.chunk[i].p, d.chunk[i].n, out, sizeof out, &size), PERFDATA_OK);
        CHECK(is_payload(out, size, i));
    }
    CHECK_EQ_U64(z->own, 1);
    teardown(z);
}

TEST(reader_takes_over) { takes_over(0); }

TEST(reader_takes_over_frames) { takes_over(1); }

/* a --threads directory: two parts, each its own frame through its
   chunks, left open, read one after the other with a decoder set up
   afresh for each (parts 0 and 1 from d0 and d1) */
static struct pd_zahead *setup_parts(data *d0, data *d1) {
    struct pd_zahead *z;
    make_from(d0, 0, 0, 1);
    make_from(d1, 0, CHUNKS, 1);
    z = setup(d0);
    z->parts = (perfdata_view *)realloc(z->parts, 2 * sizeof *z->parts);
    z->part_mem = (size_t *)realloc(z->part_mem, 2 * sizeof *z->part_mem);
    if (!z->parts || !z->part_mem) abort();
    z->nparts = 2;
    z->parts[1].p = d1->p;
    z->parts[1].n = d1->n;
    z->part_mem[1] = z->part_mem[0];
    z->in_turn = 1;
    return z;
}

/* chunk i of the directory's 2 * CHUNKS, through the helper (it offers
   the chunk at as the one it decoded) or, once it took over, the reader */
static void take_chunk(struct pd_zahead *z, const data *d0, const data *d1, unsigned i, unsigned at) {
    static unsigned char out[1 << 16];
    const data *d = i < CHUNKS ? d0 : d1;
    unsigned c = i % CHUNKS;
    size_t size = 0;
    if (!z->own) {
        if (i == CHUNKS) zahead_dctx(z->mem[0], z->part_mem[1]); /* the helper, at the second part */
        offer_chunk(z, d, c, i + 1, (at < CHUNKS ? d0 : d1)->chunk[at % CHUNKS].p);
    }
    CHECK_EQ_U64(zahead_chunk(z, d->chunk[c].p, d->chunk[c].n, out, sizeof out, &size), PERFDATA_OK);
    CHECK(is_payload(out, size, i));
}

/* the reader takes over in the second part: it decodes again that
   part's chunks before, not the first part's */
TEST(reader_takes_over_in_a_part) {
    static data d0, d1;
    struct pd_zahead *z = setup_parts(&d0, &d1);
    unsigned i;
    for (i = 0; i < 2 * CHUNKS; i++) take_chunk(z, &d0, &d1, i, i == CHUNKS + 1 ? 2 * CHUNKS - 1 : i);
    CHECK_EQ_U64(z->own, 1);
    teardown(z);
}

/* the reader takes over in the first part: at the second, it sets its
   decoder up afresh */
TEST(reader_takes_over_before_a_part) {
    static data d0, d1;
    struct pd_zahead *z = setup_parts(&d0, &d1);
    unsigned i;
    for (i = 0; i < 2 * CHUNKS; i++) take_chunk(z, &d0, &d1, i, i == 2 ? 3 : i);
    CHECK_EQ_U64(z->own, 1);
    teardown(z);
}

/* A compressed record at q: one frame of a 2^window_log window, the
   payload of chunk i in a raw block; its payload view */
static perfdata_view one_frame_chunk(unsigned char *q, unsigned window_log, unsigned i) {
    perfdata_view v;
    unsigned k;
    put_le(q, PERFDATA_RECORD_COMPRESSED, 4);
    put_le(q + 4, 0, 2);
    put_le(q + 6, 8 + 6 + 3 + PAYLOAD, 2);
    put_le(q + 8, 0xFD2FB528u, 4);
    q[12] = 0x00;
    q[13] = (unsigned char)((window_log - 10) << 3);
    put_le(q + 14, (uint64_t)PAYLOAD << 3 | 1u, 3);
    for (k = 0; k < PAYLOAD; k++) q[17 + k] = payload(i, k);
    v.p = q + 8;
    v.n = 6 + 3 + PAYLOAD;
    return v;
}

/* An AUXTRACE record's payload before the first chunk: the walk steps
   over it as the reader does, so the part's decoder is sized for the
   chunk the reader meets first (a payload read as records would end the
   part's walk, leave it no size, and the reader's decoder unsized) */
TEST(payload_before_the_first_chunk) {
    static unsigned char p0[16 + 8 + 8 + 6 + 3 + PAYLOAD], p1[8 + 6 + 3 + PAYLOAD];
    static unsigned char out[1 << 16];
    struct pd_zahead *z;
    size_t size = 0, pos;
    perfdata_view a, b;
    static data d;
    make(&d, 0);
    z = setup(&d);
    /* part 0: AUXTRACE (16 bytes, an 8-byte payload of zeros), then a chunk
       of a 1 MiB window; part 1: a chunk of a 128 KiB window */
    put_le(p0, PERFDATA_RECORD_AUXTRACE, 4);
    put_le(p0 + 4, 0, 2);
    put_le(p0 + 6, 16, 2);
    put_le(p0 + 8, 8, 8);
    memset(p0 + 16, 0, 8);
    a = one_frame_chunk(p0 + 24, 20, 0);
    b = one_frame_chunk(p1, 17, 1);
    z->parts = (perfdata_view *)realloc(z->parts, 2 * sizeof *z->parts);
    z->part_mem = (size_t *)realloc(z->part_mem, 2 * sizeof *z->part_mem);
    if (!z->parts || !z->part_mem) abort();
    z->nparts = 2;
    z->parts[0].p = p0;
    z->parts[0].n = sizeof p0;
    z->parts[1].p = p1;
    z->parts[1].n = sizeof p1;
    z->in_turn = 1;
    CHECK(zahead_sizes(z));
    CHECK_EQ_U64(z->part_mem[0], zahead_need(a.p, a.n));
    CHECK_EQ_U64(z->part_mem[1], zahead_need(a.p, a.n)); /* grown, never shrunk */
    CHECK(zahead_need(b.p, b.n) < z->part_mem[0]);
    pos = 0;
    CHECK(zahead_in_part(z, 0, &pos, &a) && a.p == p0 + 32);
    /* the helper offers part 1's chunk first: the reader takes over at part 0's */
    z->slot[1].seq = 1;
    z->slot[1].in = b.p;
    z->slot[1].in_size = b.n;
    z->slot[1].ready = 1;
    z->taken = 1;
    CHECK_EQ_U64(zahead_chunk(z, a.p, a.n, out, sizeof out, &size), PERFDATA_OK);
    CHECK(is_payload(out, size, 0));
    CHECK_EQ_U64(zahead_chunk(z, b.p, b.n, out, sizeof out, &size), PERFDATA_OK);
    CHECK(is_payload(out, size, 1));
    teardown(z);
}

int main(int argc, char **argv) {
    test_filter(argc, argv);
    RUN_TEST(in_turn_guess);
    RUN_TEST(reader_takes_over);
    RUN_TEST(reader_takes_over_frames);
    RUN_TEST(reader_takes_over_in_a_part);
    RUN_TEST(reader_takes_over_before_a_part);
    RUN_TEST(payload_before_the_first_chunk);
    return test_report();
}
