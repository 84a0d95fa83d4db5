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

/* A data section of CHUNKS compressed records: one frame (whole_frames 0)
   or a frame per chunk, a raw block of PAYLOAD bytes in each */
static void make(data *d, int whole_frames) {
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
        put_le(q + z, (uint64_t)PAYLOAD << 3 | (i + 1 == CHUNKS || whole_frames ? 1u : 0u), 3); /* raw */
        z += 3;
        for (k = 0; k < PAYLOAD; k++) q[z + k] = payload(i, k);
        z += PAYLOAD;
        put_le(rec, PERFDATA_RECORD_COMPRESSED, 4);
        put_le(rec + 4, 0, 2);
        put_le(rec + 6, 8 + z, 2);
        d->chunk[i].p = q;
        d->chunk[i].n = z;
        d->n += 8 + z;
    }
}

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
    size_t pos = 0, i;
    perfdata_view first;
    if (!z) abort();
    z->data = d->p;
    z->data_n = d->n;
    z->last_between = 1;
    z->cap = (size_t)1 << 16;
    if (!zahead_next(z, &pos, &first) || !(z->mem_n = zahead_need(first.p, first.n))) abort();
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

/* the helper's work for chunk seq (1-based): decoded in turn, offered as in */
static void offer(struct pd_zahead *z, const data *d, uint64_t seq, const unsigned char *in) {
    pd_zslot *s = &z->slot[seq % z->nslots];
    s->seq = seq;
    s->in = in;
    s->in_size = d->chunk[seq - 1].n;
    s->st = zahead_decode((perfdata_zstd_dctx *)(void *)z->mem[0], d->chunk[seq - 1].p, d->chunk[seq - 1].n, s->out,
                          z->cap, &s->size, &s->between);
    s->ready = 1;
    z->taken = seq;
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
   decodes the two before again with a decoder of its own, then goes on */
TEST(reader_takes_over) {
    static data d;
    static unsigned char out[1 << 16];
    struct pd_zahead *z;
    size_t size = 0;
    unsigned i;
    make(&d, 0);
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

/* chunks that are frames of their own: the reader takes over at the third
   with a decoder between frames */
TEST(reader_takes_over_frames) {
    static data d;
    static unsigned char out[1 << 16];
    struct pd_zahead *z;
    size_t size = 0;
    unsigned i;
    make(&d, 1);
    z = setup(&d);
    for (i = 0; i < 2; i++) {
        offer(z, &d, i + 1, d.chunk[i].p);
        CHECK_EQ_U64(zahead_chunk(z, d.chunk[i].p, d.chunk[i].n, out, sizeof out, &size), PERFDATA_OK);
        CHECK(is_payload(out, size, i));
    }
    offer(z, &d, 3, d.chunk[3].p);
    for (i = 2; i < CHUNKS; i++) {
        CHECK_EQ_U64(zahead_chunk(z, d.chunk[i].p, d.chunk[i].n, out, sizeof out, &size), PERFDATA_OK);
        CHECK(is_payload(out, size, i));
    }
    teardown(z);
}

int main(int argc, char **argv) {
    test_filter(argc, argv);
    RUN_TEST(in_turn_guess);
    RUN_TEST(reader_takes_over);
    RUN_TEST(reader_takes_over_frames);
    return test_report();
}
