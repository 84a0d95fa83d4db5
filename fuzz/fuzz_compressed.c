/* fuzz_compressed.c - libFuzzer target: the input as a compressed perf.data
   file (perf record -z) read with perfdata_inflate and the header's zstd
   decoder: the chunks' records iterated twice, once reusing one small
   output buffer and once in keep mode through perfdata_ordered, where a
   buffer too small for the next chunk is replaced (set_buffer) before each
   step. Every record goes through its decoder (decode_all's da_record).
   Build: see mk/fuzz.mk (FUZZ_TARGETS). */
#define PERFDATA_ZSTD
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"
#include "fuzz/decode_all.h"

#include <stdlib.h>

#ifdef __cplusplus
extern "C"
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CF_WINDOW_MAX (1u << 20)
#define CF_BUFFER_MAX (1u << 20)
#define CF_BLOCKS 64

static perfdata_zstd_dctx cf_dctx;

/* Plain walk, one output buffer reused; returns the records seen. */
static unsigned long cf_walk(perfdata_file *f, const perfdata_inflate_sizes *sz, unsigned char *window, size_t win,
                             unsigned char *buf, size_t cap) {
    perfdata_cursor c;
    perfdata_inflate z;
    perfdata_record rec;
    perfdata_status st;
    unsigned long n = 0;
    volatile uint64_t sink = 0;
    perfdata_zstd_dctx_init(&cf_dctx, window, win, 0);
    perfdata_cursor_init(f, &c);
    perfdata_inflate_init(&z, &c, sz, buf, cap, perfdata_zstd_chunk, &cf_dctx);
    while ((st = perfdata_inflate_next(f, &z, &rec, 0)) != PERFDATA_END) {
        if (st == PERFDATA_NEED_MEMORY && z.priv.pending) abort(); /* only keep mode asks for room */
        if (st != PERFDATA_OK && c.priv.stopped != PERFDATA_OK) break;
        if (st == PERFDATA_NEED_MEMORY) break; /* the events table (pipe attrs) */
        sink = sink + da_record(f, &rec);
        n++;
    }
    (void)sink;
    return n;
}

/* Ordered walk in keep mode, new buffers (at most CF_BLOCKS) as needed. */
static void cf_ordered(perfdata_file *f, const perfdata_inflate_sizes *sz, unsigned char *window, size_t win) {
    unsigned char *blocks[CF_BLOCKS];
    size_t nb = 0, i, cap = sz->buffer < 4096 ? 4096 : (size_t)sz->buffer;
    perfdata_order_entry window_q[256];
    perfdata_cursor c;
    perfdata_inflate z;
    perfdata_ordered o;
    perfdata_record rec;
    perfdata_error err;
    volatile uint64_t sink = 0;
    if (!(blocks[nb++] = (unsigned char *)malloc(cap))) return;
    perfdata_zstd_dctx_init(&cf_dctx, window, win, 0);
    perfdata_cursor_init(f, &c);
    perfdata_inflate_init(&z, &c, sz, blocks[0], cap, perfdata_zstd_chunk, &cf_dctx);
    perfdata_inflate_keep(&z, 1);
    perfdata_ordered_init(&o, &c, window_q, 256);
    perfdata_ordered_set_source(&o, perfdata_inflate_source, &z);
    for (;;) {
        size_t need = perfdata_inflate_room_needed(&z);
        perfdata_status st;
        if (need && !z.priv.failed) {
            if (nb == CF_BLOCKS || need > CF_BUFFER_MAX || !(blocks[nb] = (unsigned char *)malloc(need))) break;
            if (perfdata_inflate_set_buffer(&z, blocks[nb++], need, &err) != PERFDATA_OK) abort();
            if (perfdata_inflate_room_needed(&z)) abort(); /* a buffer of the size asked for is enough */
        }
        st = perfdata_ordered_next(f, &o, &rec, &err);
        if (st != PERFDATA_OK) break; /* END, a full queue, or an error */
        sink = sink + da_record(f, &rec);
    }
    (void)sink;
    for (i = 0; i < nb; i++) free(blocks[i]);
}

#ifdef __cplusplus
extern "C"
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static perfdata_event events[DA_MAX_EVENTS];
    perfdata_file f;
    perfdata_inflate_sizes sz;
    perfdata_error err;
    unsigned char *window, *buf;
    size_t win = 0, cap;
    if (perfdata_open(&f, data, size, events, DA_MAX_EVENTS, &err) != PERFDATA_OK) return 0;
    if (perfdata_inflate_measure(&f, NULL, &sz, &err) != PERFDATA_OK) abort();
    if (sz.buffer < 65535) abort(); /* always room for a partial record */
    if (perfdata_zstd_window_buffer_size(sz.first_chunk.p, sz.first_chunk.n, &win, NULL) != PERFDATA_OK || win > CF_WINDOW_MAX)
        win = 1u << 16; /* a bad or huge first frame: the decoder must refuse it cleanly */
    cap = sz.buffer > CF_BUFFER_MAX ? CF_BUFFER_MAX : (size_t)sz.buffer;
    window = (unsigned char *)malloc(win ? win : 1);
    buf = (unsigned char *)malloc(cap);
    if (window && buf) {
        cf_walk(&f, &sz, window, win, buf, cap);
        /* tight: room for a partial record and little more; bigger chunks must fail cleanly */
        cf_walk(&f, &sz, window, win, buf, cap < 70000 ? cap : 70000);
        if (sz.buffer <= CF_BUFFER_MAX) cf_ordered(&f, &sz, window, win);
    }
    free(window);
    free(buf);
    return 0;
}

#include "fuzz/fuzz_main.h"
