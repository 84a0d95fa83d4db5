/* fuzz_zstd.c - libFuzzer target: the zstd decoder alone (PERFDATA_ZSTD).
   The first input byte picks the chunking; the rest is the compressed data.
   Decoded one shot (any number of frames) and streamed in pieces of 1..256
   bytes into an output buffer of 1..4096 bytes, which drives every staging
   path (header, block, checksum split across calls) and
   PERFDATA_ERR_NO_SPACE. When both succeed they must agree byte for byte;
   every status and error must be as documented (a detail for each error,
   offsets inside the input, streaming errors sticky).
   Build: see mk/fuzz.mk (FUZZ_TARGETS). */
#define PERFDATA_ZSTD
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"

#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C"
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ZF_OUT_MAX (1u << 20) /* decoded bytes checked per input */

static unsigned char *zf_alloc(size_t n) { return (unsigned char *)malloc(n ? n : 1); }

/* Streams src in pieces; returns the status of the last call, decoded
   bytes in *out_n. Aborts when a call breaks the documented contract. */
static perfdata_status zf_stream(const uint8_t *src, size_t n, unsigned piece, unsigned room, unsigned char *out,
                                 size_t *out_n) {
    static perfdata_zstd_dctx ctx;
    size_t win = 0, ip = 0, op = 0;
    unsigned char *window;
    perfdata_status r = PERFDATA_OK;
    perfdata_error err;
    if (perfdata_zstd_window_buffer_size(src, n, &win, NULL) != PERFDATA_OK || win > (8u << 20)) win = 1u << 17;
    window = zf_alloc(win);
    if (!window) return PERFDATA_NEED_MEMORY;
    perfdata_zstd_dctx_init(&ctx, window, win, piece & 1 ? PERFDATA_ZSTD_F_SKIP_CHECKSUM : 0);
    for (;;) {
        size_t give = n - ip < piece ? n - ip : piece, used = 0, wr = 0, cap = ZF_OUT_MAX - op;
        if (cap > room) cap = room;
        r = perfdata_zstd_decompress_stream(&ctx, src + ip, give, &used, out + op, cap, &wr, &err);
        if (used > give || wr > cap || err.code != r) abort();
        ip += used;
        op += wr;
        if (r != PERFDATA_OK && r != PERFDATA_NEED_INPUT && r != PERFDATA_ERR_NO_SPACE) {
            /* an error: a detail, an offset inside what was given, never a
               cut (TRUNCATED) or a full output (NO_SPACE); sticky */
            perfdata_error again;
            size_t u2 = 0, w2 = 0;
            if (err.detail >= 0 || err.detail < -16 || r == PERFDATA_ERR_TRUNCATED || err.offset > ip) abort();
            if (perfdata_zstd_decompress_stream(&ctx, src, n, &u2, out, 16, &w2, &again) != r || u2 || w2 ||
                again.detail != err.detail || again.offset != err.offset)
                abort();
            break;
        }
        if (err.detail != 0) abort(); /* OK, NEED_INPUT and NO_SPACE are no errors */
        if (r != PERFDATA_ERR_NO_SPACE && used != give) abort(); /* they take all the input */
        if (op >= ZF_OUT_MAX) break;
        if (r == PERFDATA_ERR_NO_SPACE) continue;
        if (ip >= n) break;
    }
    free(window);
    *out_n = op;
    return r;
}

#ifdef __cplusplus
extern "C"
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static unsigned char ws[PERFDATA_ZSTD_WORKSPACE_SIZE];
    unsigned char *one, *streamed;
    unsigned piece, room;
    size_t sn = 0, on = 0;
    perfdata_status ost, sr;
    perfdata_error err;
    if (size < 1) return 0;
    piece = 1u + (data[0] & 0x3f) * 4u;
    room = 1u + (data[0] >> 6) * 1365u;
    data++;
    size--;
    one = zf_alloc(ZF_OUT_MAX);
    streamed = zf_alloc(ZF_OUT_MAX);
    if (!one || !streamed) { free(one); free(streamed); return 0; }
    ost = perfdata_zstd_decompress(one, ZF_OUT_MAX, data, size, ws, sizeof ws, 0, &on, &err);
    if (on > ZF_OUT_MAX || err.code != ost) abort();
    if (ost != PERFDATA_OK && (err.detail >= 0 || err.detail < -16 || err.offset > size)) abort();
    sr = zf_stream(data, size, piece, room, streamed, &sn);
    /* a whole, valid input decodes the same both ways (the one-shot decoder
       needs every frame complete, the streaming one may stop mid-frame) */
    if (ost == PERFDATA_OK && sr == PERFDATA_OK && sn < ZF_OUT_MAX && (on != sn || memcmp(one, streamed, sn) != 0))
        abort();
    free(one);
    free(streamed);
    return 0;
}

#include "fuzz/fuzz_main.h"
