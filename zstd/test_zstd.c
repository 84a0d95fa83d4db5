/* test_zstd.c - tests for the zstd decoder in perfdata.h (PERFDATA_ZSTD)
 *
 *   test_zstd FILE.zst EXPECTED     decode one-shot + streaming (several chunkings), compare
 *   test_zstd --perf FILE.data      stream-decode COMPRESSED/COMPRESSED2 records, check records
 *   test_zstd --hostile FILE.zst    mutated/truncated inputs must error cleanly (run under ASan)
 *   test_zstd --expect-error FILE   decoding must fail with an error (not crash)
 *   test_zstd --unit                built-in checks (XXH64 vectors, crafted bad frames)
 *   test_zstd --bench FILE.zst N    decode N times, print MB/s
 * Every mode prints "N passed, N failed" last and exits 1 on failure.
 */
#define PERFDATA_ZSTD
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int g_pass, g_fail;

static void check(int ok, const char *what, const char *detail) {
    if (ok) g_pass++;
    else { g_fail++; fprintf(stderr, "FAIL: %s %s\n", what, detail ? detail : ""); }
}

static unsigned char *read_file(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    unsigned char *buf;
    long sz;
    if (!f) { fprintf(stderr, "cannot open %s\n", path); exit(2); }
    fseek(f, 0, SEEK_END);
    sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = (unsigned char *)malloc((size_t)sz + 1);
    if (!buf || fread(buf, 1, (size_t)sz, f) != (size_t)sz) { fprintf(stderr, "read error %s\n", path); exit(2); }
    fclose(f);
    *n = (size_t)sz;
    return buf;
}

static int finish(void) {
    printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}

/* Streaming decode of a whole buffer with given input chunk and output cap.
 * Window buffer sized from the largest frame window in src (walks frames via one-shot info). */
static int stream_decode(const unsigned char *src, size_t n, size_t chunk, size_t ocap, unsigned char *dst,
                         size_t dst_cap, size_t *dst_len, size_t win_size, unsigned flags) {
    perfdata_zstd_dctx *c = (perfdata_zstd_dctx *)malloc(sizeof *c);
    unsigned char *win = (unsigned char *)malloc(win_size ? win_size : 1);
    unsigned char *obuf = (unsigned char *)malloc(ocap);
    size_t ip = 0, op = 0;
    int r = PERFDATA_ZSTD_OK;
    perfdata_zstd_dctx_init(c, win, win_size, flags);
    for (;;) {
        size_t give = n - ip < chunk ? n - ip : chunk, used = 0, wr = 0;
        r = perfdata_zstd_decompress_stream(c, src + ip, give, &used, obuf, ocap, &wr);
        if (wr > dst_cap - op) { r = PERFDATA_ZSTD_E_DST_TOO_SMALL; break; }
        memcpy(dst + op, obuf, wr);
        op += wr;
        ip += used;
        if (r < 0) break;
        if (r == PERFDATA_ZSTD_OUTPUT_FULL) continue;
        if (used != give) { r = -100; break; } /* must consume all when not output-full */
        if (ip == n) {
            /* drain */
            while (r == PERFDATA_ZSTD_OUTPUT_FULL) {
                r = perfdata_zstd_decompress_stream(c, 0, 0, &used, obuf, ocap, &wr);
                memcpy(dst + op, obuf, wr);
                op += wr;
            }
            break;
        }
    }
    free(c); free(win); free(obuf);
    *dst_len = op;
    return r;
}

static size_t max_window_need(const unsigned char *src, size_t n) {
    /* walk frames: use one-shot decoder per frame is overkill; parse headers + blocks */
    size_t ip = 0, best = 0;
    while (ip < n) {
        perfdata_zstd_frame_info fi;
        size_t need = 0;
        if (perfdata_zstd_get_frame_info(src + ip, n - ip, &fi) != 0) break;
        if (fi.skippable) { ip += 8 + (size_t)fi.content_size; continue; }
        if (perfdata_zstd_window_buffer_size(src + ip, n - ip, &need) == 0 && need > best) best = need;
        ip += fi.header_size;
        for (;;) {
            unsigned bh;
            size_t csize;
            if (n - ip < 3) return best;
            bh = src[ip] | (src[ip + 1] << 8) | ((unsigned)src[ip + 2] << 16);
            csize = ((bh >> 1) & 3) == 1 ? 1 : (bh >> 3);
            ip += 3 + csize;
            if (ip > n) return best;
            if (bh & 1) break;
        }
        if (fi.has_checksum) ip += 4;
    }
    return best;
}

static int mode_compare(const char *zpath, const char *rpath) {
    size_t zn, rn, outn = 0;
    unsigned char *z = read_file(zpath, &zn), *ref = read_file(rpath, &rn);
    size_t cap = rn + 64;
    unsigned char *out = (unsigned char *)malloc(cap);
    void *ws = malloc(PERFDATA_ZSTD_WORKSPACE_SIZE);
    int64_t r;
    char d[256];
    static const size_t chunks[] = {1, 3, 17, 4096, 65536, (size_t)-1};
    static const size_t ocaps[] = {1, 7, 1000, 1 << 20};
    size_t wneed = max_window_need(z, zn), i;
    unsigned fl;

    for (fl = 0; fl < 2; fl++) {
        memset(out, 0xAA, cap);
        r = perfdata_zstd_decompress_flags(out, cap, z, zn, ws, PERFDATA_ZSTD_WORKSPACE_SIZE, fl);
        snprintf(d, sizeof d, "%s oneshot flags=%u r=%lld (%s)", zpath, fl, (long long)r, r < 0 ? perfdata_zstd_error_name((int)r) : "");
        check(r >= 0 && (size_t)r == rn && memcmp(out, ref, rn) == 0, "compare", d);
    }
    /* exact dst capacity must work; one less must fail */
    r = perfdata_zstd_decompress(out, rn, z, zn, ws, PERFDATA_ZSTD_WORKSPACE_SIZE);
    snprintf(d, sizeof d, "%s oneshot exact cap r=%lld", zpath, (long long)r);
    check(r >= 0 && (size_t)r == rn, "compare", d);
    if (rn > 0) {
        r = perfdata_zstd_decompress(out, rn - 1, z, zn, ws, PERFDATA_ZSTD_WORKSPACE_SIZE);
        snprintf(d, sizeof d, "%s oneshot cap-1 r=%lld", zpath, (long long)r);
        check(r == PERFDATA_ZSTD_E_DST_TOO_SMALL, "compare", d);
    }
    for (i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
        size_t ch = chunks[i], oc = ocaps[i % 4];
        int sr;
        if (ch == 1 && zn > 300000) continue; /* keep 1-byte feeding for small inputs */
        if (oc == 1 && rn > 300000) oc = 4093;
        memset(out, 0xAA, cap);
        sr = stream_decode(z, zn, ch, oc, out, cap, &outn, wneed, i & 1 ? PERFDATA_ZSTD_F_SKIP_CHECKSUM : 0);
        snprintf(d, sizeof d, "%s stream chunk=%zu ocap=%zu win=%zu r=%d (%s) out=%zu/%zu", zpath, ch, oc, wneed, sr,
                 perfdata_zstd_error_name(sr), outn, rn);
        check(sr == PERFDATA_ZSTD_OK && outn == rn && memcmp(out, ref, rn) == 0, "compare", d);
    }
    free(z); free(ref); free(out); free(ws);
    return finish();
}

static uint64_t rd64(const unsigned char *p) {
    uint64_t v = 0;
    int i;
    for (i = 7; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}
static uint32_t rd32(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint32_t rd16(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }

/* decode perf compressed records with given feeding granularity; returns 0 ok */
static int perf_decode(const char *path, const unsigned char *f, size_t fn, size_t feed, size_t *nrec_out,
                       size_t *nchunks_out, size_t *total_out) {
    size_t pos, end, nchunks = 0;
    perfdata_zstd_dctx *c = (perfdata_zstd_dctx *)malloc(sizeof *c);
    unsigned char *win = 0;
    size_t win_cap = 0, out_cap = 1 << 20, out_len = 0;
    unsigned char *out = (unsigned char *)malloc(out_cap);
    int inited = 0, r = 0;
    char d[256];
    if (fn >= 16 && rd64(f + 8) == 16) { pos = 16; end = fn; }           /* pipe mode */
    else if (fn >= 104) { pos = (size_t)rd64(f + 40); end = pos + (size_t)rd64(f + 48); } /* data section */
    else { free(c); free(out); return -1; }
    if (end > fn) end = fn;
    while (end - pos >= 8) {
        uint32_t type = rd32(f + pos), sz = rd16(f + pos + 6);
        const unsigned char *body;
        size_t bn;
        if (sz < 8 || sz > end - pos) break;
        body = f + pos + 8;
        bn = sz - 8;
        if (type == 83) {
            uint64_t ds;
            if (bn < 8) { r = -1; break; }
            ds = rd64(body);
            body += 8; bn -= 8;
            if (ds > bn) { r = -1; break; }
            bn = (size_t)ds;
        }
        if (type == 81 || type == 83) {
            size_t ip = 0;
            nchunks++;
            if (!inited) {
                size_t need = 0;
                int wr = perfdata_zstd_window_buffer_size(body, bn, &need);
                if (wr != 0) { fprintf(stderr, "%s: window size: %s\n", path, perfdata_zstd_error_name(wr)); r = -1; break; }
                win_cap = need;
                win = (unsigned char *)malloc(win_cap);
                perfdata_zstd_dctx_init(c, win, win_cap, 0);
                inited = 1;
            }
            while (ip < bn) {
                size_t give = bn - ip < feed ? bn - ip : feed, used = 0, w = 0;
                if (out_cap - out_len < (1 << 18)) {
                    out_cap *= 2;
                    out = (unsigned char *)realloc(out, out_cap);
                }
                r = perfdata_zstd_decompress_stream(c, body + ip, give, &used, out + out_len, out_cap - out_len, &w);
                out_len += w;
                ip += used;
                if (r < 0) {
                    snprintf(d, sizeof d, "%s chunk %zu: %s", path, nchunks, perfdata_zstd_error_name(r));
                    check(0, "perf", d);
                    break;
                }
            }
            if (r < 0) break;
        }
        pos += sz;
    }
    if (r >= 0) {
        /* validate records */
        size_t q = 0, nrec = 0;
        int bad = 0;
        while (out_len - q >= 8) {
            uint32_t type = rd32(out + q), sz = rd16(out + q + 6);
            if (sz < 8 || sz > out_len - q || type < 1 || type > 86) { bad = 1; break; }
            q += sz;
            nrec++;
        }
        if (q != out_len) bad = 1;
        *nrec_out = nrec;
        *nchunks_out = nchunks;
        *total_out = out_len;
        r = bad || nchunks == 0 ? -1 : 0;
    }
    free(c); free(win); free(out);
    return r;
}

static int mode_perf(const char *path) {
    size_t fn, nrec = 0, nch = 0, tot = 0, nrec2 = 0, nch2 = 0, tot2 = 0;
    unsigned char *f = read_file(path, &fn);
    char d[512];
    int r = perf_decode(path, f, fn, (size_t)-1, &nrec, &nch, &tot);
    snprintf(d, sizeof d, "%s: %zu chunks -> %zu bytes, %zu records", path, nch, tot, nrec);
    check(r == 0, "perf", d);
    if (r == 0) printf("  %s\n", d);
    r = perf_decode(path, f, fn, 5, &nrec2, &nch2, &tot2); /* tiny feeding: staging path */
    snprintf(d, sizeof d, "%s (5-byte feeding): %zu records", path, nrec2);
    check(r == 0 && nrec2 == nrec && tot2 == tot, "perf", d);
    free(f);
    return finish();
}

static uint32_t rng_state = 12345;
static uint32_t rnd(void) {
    rng_state ^= rng_state << 13; rng_state ^= rng_state >> 17; rng_state ^= rng_state << 5;
    return rng_state;
}

static int mode_hostile(const char *zpath, int iters) {
    size_t zn, i;
    unsigned char *z = read_file(zpath, &zn);
    unsigned char *m = (unsigned char *)malloc(zn + 16);
    size_t cap = 4 << 20;
    unsigned char *out = (unsigned char *)malloc(cap);
    void *ws = malloc(PERFDATA_ZSTD_WORKSPACE_SIZE);
    size_t wneed = max_window_need(z, zn);
    int it, crashes = 0;
    if (wneed > (64u << 20)) wneed = 64u << 20;
    if (wneed < 1024) wneed = 1024;
    /* truncations: must never succeed with a complete result unless prefix is whole */
    for (i = 0; i < zn; i += (zn > 2000 ? zn / 500 : 1)) {
        int64_t r = perfdata_zstd_decompress(out, cap, z, i, ws, PERFDATA_ZSTD_WORKSPACE_SIZE);
        (void)r;
    }
    for (it = 0; it < iters; it++) {
        size_t len = zn, k, nmut = 1 + rnd() % 4, outn;
        memcpy(m, z, zn);
        for (k = 0; k < nmut && zn; k++) {
            size_t at = rnd() % zn;
            switch (rnd() % 3) {
            case 0: m[at] ^= (unsigned char)(1u << (rnd() % 8)); break;
            case 1: m[at] = (unsigned char)rnd(); break;
            default: m[at] = (unsigned char)(m[at] + 1); break;
            }
        }
        if (rnd() % 4 == 0 && zn) len = rnd() % zn;
        (void)perfdata_zstd_decompress(out, cap, m, len, ws, PERFDATA_ZSTD_WORKSPACE_SIZE);
        (void)stream_decode(m, len, 1 + rnd() % 5000, 1 + rnd() % 70000, out, cap, &outn, wneed, 0);
    }
    check(crashes == 0, "hostile", zpath);
    free(z); free(m); free(out); free(ws);
    return finish();
}

static int mode_expect_error(const char *zpath) {
    size_t zn, outn;
    unsigned char *z = read_file(zpath, &zn);
    size_t cap = 16 << 20;
    unsigned char *out = (unsigned char *)malloc(cap);
    void *ws = malloc(PERFDATA_ZSTD_WORKSPACE_SIZE);
    int64_t r = perfdata_zstd_decompress(out, cap, z, zn, ws, PERFDATA_ZSTD_WORKSPACE_SIZE);
    int sr = stream_decode(z, zn, 4096, 65536, out, cap, &outn, 1 << 24, 0);
    char d[256];
    snprintf(d, sizeof d, "%s oneshot=%lld (%s) stream=%d (%s)", zpath, (long long)r, perfdata_zstd_error_name((int)r), sr,
             perfdata_zstd_error_name(sr));
    check(r < 0 && sr != PERFDATA_ZSTD_OK, "expect-error", d);
    printf("  %s\n", d);
    free(z); free(out); free(ws);
    return finish();
}

static int run_bytes(const unsigned char *b, size_t n, int64_t *r) {
    static unsigned char out[1 << 16];
    static unsigned char ws[PERFDATA_ZSTD_WORKSPACE_SIZE];
    *r = perfdata_zstd_decompress(out, sizeof out, b, n, ws, sizeof ws);
    return 0;
}

static int mode_unit(void) {
    /* XXH64 reference vectors (seed 0) */
    char d[128];
    int64_t r;
    check(perfdata_zstd_xxh64("", 0) == 0xEF46DB3751D8E999ULL, "xxh64", "empty");
    check(perfdata_zstd_xxh64("a", 1) == 0xD24EC4F1A98C6E5BULL, "xxh64", "a");
    check(perfdata_zstd_xxh64("abc", 3) == 0x44BC2CF5AD770999ULL, "xxh64", "abc");
    /* crafted frames */
    {
        /* raw block, single segment fcs=3, "abc" */
        static const unsigned char ok[] = {0x28, 0xB5, 0x2F, 0xFD, 0x20, 0x03, 0x19, 0x00, 0x00, 'a', 'b', 'c'};
        unsigned char bad[sizeof ok];
        run_bytes(ok, sizeof ok, &r);
        snprintf(d, sizeof d, "raw block r=%lld", (long long)r);
        check(r == 3, "unit", d);
        memcpy(bad, ok, sizeof ok); bad[4] |= 8; /* reserved bit */
        run_bytes(bad, sizeof bad, &r);
        check(r == PERFDATA_ZSTD_E_HEADER, "unit", "reserved bit");
        memcpy(bad, ok, sizeof ok); bad[6] = 0x1F; /* block type 3 */
        run_bytes(bad, sizeof bad, &r);
        check(r == PERFDATA_ZSTD_E_BLOCK, "unit", "reserved block type");
        memcpy(bad, ok, sizeof ok); bad[5] = 4; /* content size mismatch: block of 3 > window 4? no: fcs 4 */
        run_bytes(bad, sizeof bad, &r);
        check(r == PERFDATA_ZSTD_E_CONTENT_SIZE, "unit", "content size");
        run_bytes(ok, sizeof ok - 1, &r);
        check(r == PERFDATA_ZSTD_E_TRUNCATED, "unit", "truncated");
        memcpy(bad, ok, sizeof ok); bad[0] = 0x27;
        run_bytes(bad, sizeof bad, &r);
        check(r == PERFDATA_ZSTD_E_BAD_MAGIC, "unit", "magic");
    }
    {
        /* dictionary id present -> rejected */
        static const unsigned char dict[] = {0x28, 0xB5, 0x2F, 0xFD, 0x21, 0x07, 0x03, 0x19, 0x00, 0x00, 'a', 'b', 'c'};
        run_bytes(dict, sizeof dict, &r);
        check(r == PERFDATA_ZSTD_E_DICTIONARY, "unit", "dictionary");
    }
    {
        /* window descriptor: 2^10 window, block size 2000 > block max */
        static const unsigned char big[] = {0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x00, 0x81, 0x3E, 0x00};
        run_bytes(big, sizeof big, &r);
        check(r == PERFDATA_ZSTD_E_BLOCK, "unit", "block over limit");
        /* window too large: exponent 31 -> 2^41 */
        {
            static const unsigned char huge[] = {0x28, 0xB5, 0x2F, 0xFD, 0x00, 0xF8, 0x01, 0x00, 0x00};
            run_bytes(huge, sizeof huge, &r);
            check(r == PERFDATA_ZSTD_E_WINDOW_TOO_LARGE, "unit", "window too large");
        }
    }
    {
        /* compressed block: raw literals "ab", 1 sequence predefined modes with offset beyond history */
        /* literal header: raw, size 2 -> 0x10; seq: nseq=1, modes=0; bitstream crafted roughly */
        static const unsigned char seqbad[] = {0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x00, 0x3D, 0x00, 0x00,
                                               0x10, 'a', 'b', 0x01, 0x00, 0xFF, 0xFF};
        run_bytes(seqbad, sizeof seqbad, &r);
        snprintf(d, sizeof d, "crafted bad sequences r=%lld", (long long)r);
        check(r < 0, "unit", d);
    }
    {
        /* skippable frame alone and followed by empty frame */
        static const unsigned char sk[] = {0x50, 0x2A, 0x4D, 0x18, 0x02, 0x00, 0x00, 0x00, 0xAA, 0xBB,
                                           0x28, 0xB5, 0x2F, 0xFD, 0x20, 0x00, 0x01, 0x00, 0x00};
        run_bytes(sk, sizeof sk, &r);
        check(r == 0, "unit", "skippable + empty frame");
        run_bytes(sk, 9, &r);
        check(r == PERFDATA_ZSTD_E_TRUNCATED, "unit", "truncated skippable");
    }
    {
        /* hand-made: RLE literals block, no sequences -> "zzzzz" */
        static const unsigned char rle[] = {0x28, 0xB5, 0x2F, 0xFD, 0x20, 0x05, 0x1D, 0x00, 0x00, 0x29, 'z', 0x00};
        static unsigned char o[16];
        static unsigned char w[PERFDATA_ZSTD_WORKSPACE_SIZE];
        r = perfdata_zstd_decompress(o, sizeof o, rle, sizeof rle, w, sizeof w);
        check(r == 5 && memcmp(o, "zzzzz", 5) == 0, "unit", "RLE literals");
        /* hand-made: Huffman literals with a direct (4-bit) weight table, 1 stream */
        {
            static const unsigned char huf[] = {0x28, 0xB5, 0x2F, 0xFD, 0x20, 0x08, 0x45, 0x00, 0x00,
                                                0x82, 0x00, 0x01, 0x80, 0x10, 0xB2, 0x01, 0x00};
            static const unsigned char want[8] = {1, 0, 1, 1, 0, 0, 1, 0};
            unsigned char bad[sizeof huf];
            r = perfdata_zstd_decompress(o, sizeof o, huf, sizeof huf, w, sizeof w);
            snprintf(d, sizeof d, "direct huffman weights r=%lld", (long long)r);
            check(r == 8 && memcmp(o, want, 8) == 0, "unit", d);
            memcpy(bad, huf, sizeof huf); bad[13] = 0x00; /* all weights zero */
            r = perfdata_zstd_decompress(o, sizeof o, bad, sizeof bad, w, sizeof w);
            check(r == PERFDATA_ZSTD_E_HUFFMAN, "unit", "huffman weights sum to zero");
            memcpy(bad, huf, sizeof huf); bad[13] = 0xC0; /* weight 12 > 11 */
            r = perfdata_zstd_decompress(o, sizeof o, bad, sizeof bad, w, sizeof w);
            check(r == PERFDATA_ZSTD_E_HUFFMAN, "unit", "huffman weight too large");
            memcpy(bad, huf, sizeof huf); bad[15] = 0x00; /* no end marker */
            r = perfdata_zstd_decompress(o, sizeof o, bad, sizeof bad, w, sizeof w);
            check(r == PERFDATA_ZSTD_E_HUFFMAN, "unit", "huffman stream without padding marker");
        }
    }
    {
        /* A 4 MiB window filled by RLE blocks, then 40000 one-byte raw
           blocks: through the smallest window buffer the ring wraps and no
           block moves the window (a slide per block would copy 160 GB). */
        enum { WLOG = 22, NSMALL = 40000 };
        size_t fill = (size_t)1 << WLOG, n = 0, i, outn = 0, need = 0;
        unsigned char *f = (unsigned char *)malloc(6 + 4 * (fill >> 17) + 4 * NSMALL + 3);
        unsigned char *out = (unsigned char *)malloc(fill + NSMALL);
        int sr, ok = 1;
        f[n++] = 0x28; f[n++] = 0xB5; f[n++] = 0x2F; f[n++] = 0xFD;
        f[n++] = 0x00;                          /* no content size, no checksum */
        f[n++] = (unsigned char)((WLOG - 10) << 3); /* window 2^WLOG */
        for (i = 0; i < (fill >> 17); i++) {    /* RLE blocks of 128 KiB of 'x' */
            uint32_t bh = (131072u << 3) | (1u << 1);
            f[n++] = (unsigned char)bh; f[n++] = (unsigned char)(bh >> 8); f[n++] = (unsigned char)(bh >> 16);
            f[n++] = 'x';
        }
        for (i = 0; i < NSMALL; i++) {          /* raw blocks of one byte */
            uint32_t bh = (1u << 3) | (i + 1 == NSMALL);
            f[n++] = (unsigned char)bh; f[n++] = (unsigned char)(bh >> 8); f[n++] = (unsigned char)(bh >> 16);
            f[n++] = (unsigned char)('a' + i % 26);
        }
        check(perfdata_zstd_window_buffer_size(f, n, &need) == 0 && need == fill + 131072 + 32, "unit",
              "window buffer size of a 4 MiB window");
        sr = stream_decode(f, n, 65536, 1 << 20, out, fill + NSMALL, &outn, need, 0);
        for (i = 0; i < fill + NSMALL && ok && outn == fill + NSMALL; i++)
            ok = out[i] == (i < fill ? 'x' : 'a' + (i - fill) % 26);
        snprintf(d, sizeof d, "tiny blocks after a full window r=%d out=%zu", sr, outn);
        check(sr == PERFDATA_ZSTD_OK && outn == fill + NSMALL && ok, "unit", d);
        free(f);
        free(out);
    }
    printf("sizeof(perfdata_zstd_dctx) = %zu, PERFDATA_ZSTD_WORKSPACE_SIZE = %zu\n", sizeof(perfdata_zstd_dctx),
           (size_t)PERFDATA_ZSTD_WORKSPACE_SIZE);
    return finish();
}

static int mode_bench(const char *zpath, int iters) {
    size_t zn;
    unsigned char *z = read_file(zpath, &zn);
    void *ws = malloc(PERFDATA_ZSTD_WORKSPACE_SIZE);
    size_t cap = 256u << 20;
    unsigned char *out = (unsigned char *)malloc(cap);
    struct timespec t0, t1;
    int i;
    int64_t r = 0;
    double secs;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (i = 0; i < iters; i++) r = perfdata_zstd_decompress_flags(out, cap, z, zn, ws, PERFDATA_ZSTD_WORKSPACE_SIZE, 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    check(r > 0, "bench", zpath);
    if (r > 0) printf("pd_zstd oneshot: %.1f MB/s (%lld bytes x %d in %.3fs)\n", (double)r * iters / secs / 1e6, (long long)r, iters, secs);
    {
        size_t outn = 0, wneed = max_window_need(z, zn), wsz;
        int sr, pass;
        for (pass = 0; pass < 2; pass++) {
            wsz = pass ? 2 * wneed : wneed; /* minimum vs. recommended (2x: amortized slides) */
            clock_gettime(CLOCK_MONOTONIC, &t0);
            sr = stream_decode(z, zn, 65536, 1 << 20, out, cap, &outn, wsz, 0);
            clock_gettime(CLOCK_MONOTONIC, &t1);
            secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
            check(sr == 0 && (int64_t)outn == r, "bench stream", zpath);
            printf("pd_zstd stream (window buffer %zu): %.1f MB/s\n", wsz, (double)outn / secs / 1e6);
        }
    }
    free(z); free(ws); free(out);
    return finish();
}

int main(int argc, char **argv) {
    if (argc >= 2 && !strcmp(argv[1], "--unit")) return mode_unit();
    if (argc >= 3 && !strcmp(argv[1], "--perf")) return mode_perf(argv[2]);
    if (argc >= 3 && !strcmp(argv[1], "--hostile")) return mode_hostile(argv[2], argc >= 4 ? atoi(argv[3]) : 300);
    if (argc >= 3 && !strcmp(argv[1], "--expect-error")) return mode_expect_error(argv[2]);
    if (argc >= 3 && !strcmp(argv[1], "--bench")) return mode_bench(argv[2], argc >= 4 ? atoi(argv[3]) : 3);
    if (argc >= 3) return mode_compare(argv[1], argv[2]);
    fprintf(stderr, "usage: see source\n");
    return 2;
}
