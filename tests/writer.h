/* tests/writer.h - the test-only byte writer shared by the unit tests: a
   growing buffer that writes integers in a chosen byte order, for building
   perf.data images and feature sections of either endianness. */
#ifndef TESTS_WRITER_H
#define TESTS_WRITER_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A growing byte buffer that writes integers in the file's byte order. */
typedef struct wr {
    unsigned char *buf;
    size_t n, cap;
    int big_endian;
} wr;

static void wr_init(wr *w, int big_endian) {
    w->cap = (size_t)1 << 18; /* the largest image a test builds */
    w->buf = (unsigned char *)calloc(1, w->cap);
    if (!w->buf) abort();
    w->n = 0;
    w->big_endian = big_endian;
}

static void wr_free(wr *w) {
    free(w->buf);
    w->buf = NULL;
    w->n = w->cap = 0;
}

static void put8(wr *w, unsigned v) {
    if (w->n >= w->cap) abort();
    w->buf[w->n++] = (unsigned char)v;
}

static void put16(wr *w, uint16_t v) {
    if (w->big_endian) { put8(w, v >> 8); put8(w, v & 0xffu); }
    else { put8(w, v & 0xffu); put8(w, v >> 8); }
}

static void put32(wr *w, uint32_t v) {
    int i;
    for (i = 0; i < 4; i++) put8(w, (v >> (w->big_endian ? 8 * (3 - i) : 8 * i)) & 0xffu);
}

static void put64(wr *w, uint64_t v) {
    int i;
    for (i = 0; i < 8; i++) put8(w, (unsigned)((v >> (w->big_endian ? 8 * (7 - i) : 8 * i)) & 0xffu));
}

static void put_bytes(wr *w, const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < n; i++) put8(w, b[i]);
}

static void put_fill(wr *w, unsigned byte, size_t n) {
    while (n--) put8(w, byte);
}

#endif
