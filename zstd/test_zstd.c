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

#define HARNESS_FAULT (-1) /* stream_decode: more output than dst holds, or input left unconsumed */

/* Streaming decode of a whole buffer with given input chunk and output cap,
 * through a window buffer of win_size bytes. Returns the status of the last
 * call (err: its error) or HARNESS_FAULT. */
static int stream_decode(const unsigned char *src, size_t n, size_t chunk, size_t ocap, unsigned char *dst,
                         size_t dst_cap, size_t *dst_len, size_t win_size, unsigned flags, perfdata_error *err) {
    perfdata_zstd_dctx *c = (perfdata_zstd_dctx *)malloc(sizeof *c);
    unsigned char *win = (unsigned char *)malloc(win_size ? win_size : 1);
    unsigned char *obuf = (unsigned char *)malloc(ocap);
    size_t ip = 0, op = 0;
    int r = PERFDATA_OK;
    perfdata_zstd_dctx_init(c, win, win_size, flags);
    for (;;) {
        size_t give = n - ip < chunk ? n - ip : chunk, used = 0, wr = 0;
        r = perfdata_zstd_decompress_stream(c, src + ip, give, &used, obuf, ocap, &wr, err);
        if (wr > dst_cap - op) { r = HARNESS_FAULT; break; }
        memcpy(dst + op, obuf, wr);
        op += wr;
        ip += used;
        if (r == PERFDATA_ERR_NO_SPACE && err->detail == 0) continue; /* out full: call again */
        if (r != PERFDATA_OK && r != PERFDATA_NEED_INPUT) break;        /* an error */
        if (used != give) { r = HARNESS_FAULT; break; } /* must consume all when not output-full */
        if (ip == n) break;
    }
    free(c); free(win); free(obuf);
    *dst_len = op;
    return r;
}

/* "STATUS/E_DETAIL" of a result, for messages */
static const char *outcome(int st, const perfdata_error *err) {
    static char buf[128];
    if (st == HARNESS_FAULT) return "harness fault";
    snprintf(buf, sizeof buf, "%s/%s", perfdata_status_name((perfdata_status)st), st ? perfdata_zstd_error_name(err->detail) : "-");
    return buf;
}

static size_t max_window_need(const unsigned char *src, size_t n) {
    /* walk frames: use one-shot decoder per frame is overkill; parse headers + blocks */
    size_t ip = 0, best = 0;
    while (ip < n) {
        perfdata_zstd_frame_info fi;
        size_t need = 0;
        if (perfdata_zstd_get_frame_info(src + ip, n - ip, &fi, NULL) != PERFDATA_OK) break;
        if (fi.skippable) { ip += 8 + (size_t)fi.content_size; continue; }
        if (perfdata_zstd_window_buffer_size(src + ip, n - ip, &need, NULL) == PERFDATA_OK && need > best) best = need;
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
    perfdata_status r;
    perfdata_error err;
    size_t on = 0;
    char d[256];
    static const size_t chunks[] = {1, 3, 17, 4096, 65536, (size_t)-1};
    static const size_t ocaps[] = {1, 7, 1000, 1 << 20};
    size_t wneed = max_window_need(z, zn), i;
    unsigned fl;

    for (fl = 0; fl < 2; fl++) {
        memset(out, 0xAA, cap);
        r = perfdata_zstd_decompress(out, cap, z, zn, ws, PERFDATA_ZSTD_WORKSPACE_SIZE, fl, &on, &err);
        snprintf(d, sizeof d, "%s oneshot flags=%u %s size %zu", zpath, fl, outcome(r, &err), on);
        check(r == PERFDATA_OK && on == rn && memcmp(out, ref, rn) == 0, "compare", d);
    }
    /* exact dst capacity must work; one less must fail */
    r = perfdata_zstd_decompress(out, rn, z, zn, ws, PERFDATA_ZSTD_WORKSPACE_SIZE, 0, &on, &err);
    snprintf(d, sizeof d, "%s oneshot exact cap %s size %zu", zpath, outcome(r, &err), on);
    check(r == PERFDATA_OK && on == rn, "compare", d);
    if (rn > 0) {
        r = perfdata_zstd_decompress(out, rn - 1, z, zn, ws, PERFDATA_ZSTD_WORKSPACE_SIZE, 0, &on, &err);
        snprintf(d, sizeof d, "%s oneshot cap-1 %s size %zu", zpath, outcome(r, &err), on);
        check(r == PERFDATA_ERR_NO_SPACE && err.detail == PERFDATA_ZSTD_E_DST_TOO_SMALL && on < rn &&
                  memcmp(out, ref, on) == 0, "compare", d);
    }
    for (i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
        size_t ch = chunks[i], oc = ocaps[i % 4];
        int sr;
        if (ch == 1 && zn > 300000) continue; /* keep 1-byte feeding for small inputs */
        if (oc == 1 && rn > 300000) oc = 4093;
        memset(out, 0xAA, cap);
        sr = stream_decode(z, zn, ch, oc, out, cap, &outn, wneed, i & 1 ? PERFDATA_ZSTD_F_SKIP_CHECKSUM : 0, &err);
        snprintf(d, sizeof d, "%s stream chunk=%zu ocap=%zu win=%zu %s out=%zu/%zu", zpath, ch, oc, wneed,
                 outcome(sr, &err), outn, rn);
        check(sr == PERFDATA_OK && outn == rn && memcmp(out, ref, rn) == 0, "compare", d);
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
    perfdata_error err;
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
                if (perfdata_zstd_window_buffer_size(body, bn, &need, &err) != PERFDATA_OK) {
                    fprintf(stderr, "%s: window size: %s\n", path, err.message);
                    r = -1;
                    break;
                }
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
                perfdata_status st = perfdata_zstd_decompress_stream(c, body + ip, give, &used, out + out_len,
                                                                     out_cap - out_len, &w, &err);
                out_len += w;
                ip += used;
                if (st != PERFDATA_OK && st != PERFDATA_NEED_INPUT && !(st == PERFDATA_ERR_NO_SPACE && !err.detail)) {
                    snprintf(d, sizeof d, "%s chunk %zu: %s at stream offset %llu", path, nchunks, outcome(st, &err),
                             (unsigned long long)err.offset);
                    check(0, "perf", d);
                    r = -1;
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
    size_t zn, i, nth;
    unsigned char *z = read_file(zpath, &zn);
    unsigned char *m = (unsigned char *)malloc(zn + 16);
    size_t cap = 4 << 20;
    unsigned char *out = (unsigned char *)malloc(cap);
    void *ws = malloc(PERFDATA_ZSTD_WORKSPACE_SIZE);
    size_t wneed = max_window_need(z, zn);
    int it, misreported = 0, bad = 0;
    if (wneed > (64u << 20)) wneed = 64u << 20;
    if (wneed < 1024) wneed = 1024;
    /* truncations */
    for (i = 0, nth = 0; i < zn; i += (zn > 2000 ? zn / 500 : 1), nth++) {
        perfdata_error err, serr;
        size_t on = 0, sn = 0;
        perfdata_status r = perfdata_zstd_decompress(out, cap, z, i, ws, PERFDATA_ZSTD_WORKSPACE_SIZE, 0, &on, &err);
        int sr;
        /* a cut is TRUNCATED at the unit it cuts, with the bytes missing,
           unless it falls between two frames */
        if (r != PERFDATA_OK && (r != PERFDATA_ERR_TRUNCATED || err.detail != PERFDATA_ZSTD_E_TRUNCATED || err.needed == 0 ||
                                 err.offset > i || err.message != perfdata_zstd_error_name(err.detail))) {
            fprintf(stderr, "cut at %zu: %s at %llu, needed %llu\n", i, outcome(r, &err), (unsigned long long)err.offset,
                    (unsigned long long)err.needed);
            bad++;
        }
        if (nth % 10) continue;
        /* streamed, the same cut leaves the frame waiting for input */
        sr = stream_decode(z, i, 4096, 1 << 20, out, cap, &sn, wneed, 0, &serr);
        if (sr != (r == PERFDATA_OK ? PERFDATA_OK : PERFDATA_NEED_INPUT)) {
            fprintf(stderr, "cut at %zu: one shot %s, ", i, outcome(r, &err));
            fprintf(stderr, "streamed %s\n", outcome(sr, &serr));
            bad++;
        }
    }
    check(bad == 0, "hostile: cuts are TRUNCATED (one shot) and NEED_INPUT (streamed)", zpath);
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
        {
            perfdata_error e1, e2;
            size_t on = 0;
            perfdata_status r = perfdata_zstd_decompress(out, cap, m, len, ws, PERFDATA_ZSTD_WORKSPACE_SIZE, 0, &on, &e1);
            int sr = stream_decode(m, len, 1 + rnd() % 5000, 1 + rnd() % 70000, out, cap, &outn, wneed, 0, &e2);
            /* every error names its detail, the status it maps to, its text; offsets lie in the input */
            if (r != PERFDATA_OK && (e1.code != r || e1.detail >= 0 || e1.message != perfdata_zstd_error_name(e1.detail) ||
                                     e1.offset > len))
                misreported++;
            if (sr != PERFDATA_OK && sr != PERFDATA_NEED_INPUT && sr != HARNESS_FAULT &&
                ((int)e2.code != sr || e2.detail >= 0 || e2.offset > len || sr == PERFDATA_ERR_TRUNCATED))
                misreported++;
        }
    }
    check(misreported == 0, "hostile: errors reported as documented", zpath);
    free(z); free(m); free(out); free(ws);
    return finish();
}

static int mode_expect_error(const char *zpath) {
    size_t zn, outn;
    unsigned char *z = read_file(zpath, &zn);
    size_t cap = 16 << 20;
    unsigned char *out = (unsigned char *)malloc(cap);
    void *ws = malloc(PERFDATA_ZSTD_WORKSPACE_SIZE);
    perfdata_error e1, e2;
    size_t on = 0;
    perfdata_status r = perfdata_zstd_decompress(out, cap, z, zn, ws, PERFDATA_ZSTD_WORKSPACE_SIZE, 0, &on, &e1);
    int sr = stream_decode(z, zn, 4096, 65536, out, cap, &outn, 1 << 24, 0, &e2);
    char d[256], d1[128];
    snprintf(d1, sizeof d1, "%s", outcome(r, &e1));
    snprintf(d, sizeof d, "%s oneshot=%s at %llu stream=%s at %llu", zpath, d1, (unsigned long long)e1.offset,
             outcome(sr, &e2), (unsigned long long)e2.offset);
    check(r != PERFDATA_OK && sr != PERFDATA_OK, "expect-error", d);
    printf("  %s\n", d);
    free(z); free(out); free(ws);
    return finish();
}

/* One shot of b[0..n) into a 64 KiB buffer. */
static perfdata_status run_bytes(const unsigned char *b, size_t n, size_t *out_n, perfdata_error *err) {
    static unsigned char out[1 << 16];
    static unsigned char ws[PERFDATA_ZSTD_WORKSPACE_SIZE];
    return perfdata_zstd_decompress(out, sizeof out, b, n, ws, sizeof ws, 0, out_n, err);
}

/* b[0..n) must fail with status st, detail `detail`, found at `offset`:
   one shot, and streamed in one piece and byte by byte (where a one-shot
   E_TRUNCATED is a stream waiting for input). */
static void expect_error(const char *what, const unsigned char *b, size_t n, perfdata_status st, int detail,
                         uint64_t offset) {
    static unsigned char out[1 << 16];
    perfdata_error err;
    size_t on = 0, sn = 0, piece;
    perfdata_status r = run_bytes(b, n, &on, &err);
    char d[256];
    snprintf(d, sizeof d, "%s: one shot %s at %llu", what, outcome(r, &err), (unsigned long long)err.offset);
    check(r == st && err.code == st && err.detail == detail && err.offset == offset &&
              strcmp(err.message, perfdata_zstd_error_name(detail)) == 0,
          "unit", d);
    for (piece = 1; piece <= n; piece = piece == n ? n + 1 : n) {
        int sr = stream_decode(b, n, piece, sizeof out, out, sizeof out, &sn, 1 << 20, 0, &err);
        snprintf(d, sizeof d, "%s: streamed in pieces of %zu: %s at %llu", what, piece, outcome(sr, &err),
                 (unsigned long long)err.offset);
        if (detail == PERFDATA_ZSTD_E_TRUNCATED) check(sr == PERFDATA_NEED_INPUT && err.detail == 0, "unit", d);
        else check(sr == (int)st && err.code == st && err.detail == detail && err.offset == offset, "unit", d);
    }
}

/* b[0..n) must decode to want[0..wn), one shot and streamed. */
static void expect_data(const char *what, const unsigned char *b, size_t n, const void *want, size_t wn) {
    static unsigned char out[1 << 16];
    perfdata_error err;
    size_t on = 0;
    perfdata_status r;
    int sr;
    char d[256];
    static unsigned char ws[PERFDATA_ZSTD_WORKSPACE_SIZE];
    r = perfdata_zstd_decompress(out, sizeof out, b, n, ws, sizeof ws, 0, &on, &err);
    snprintf(d, sizeof d, "%s: one shot %s, %zu bytes", what, outcome(r, &err), on);
    check(r == PERFDATA_OK && err.code == PERFDATA_OK && on == wn && memcmp(out, want, wn) == 0, "unit", d);
    sr = stream_decode(b, n, 1, 1, out, sizeof out, &on, 1 << 20, 0, &err);
    snprintf(d, sizeof d, "%s: streamed byte by byte %s, %zu bytes", what, outcome(sr, &err), on);
    check(sr == PERFDATA_OK && on == wn && memcmp(out, want, wn) == 0, "unit", d);
}

/* Frames made by hand. A 1 KiB window (descriptor 0), one compressed
   block: raw literal "a", one sequence in RLE mode (every code given once,
   no state bits): literal length code 1, offset code OF, match length code
   ML, then their extra bits (all zero) and the end marker. */
#define CRAFTED_SEQ(of, ml, bh, ...) {0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x00, bh, 0x00, 0x00, 0x08, 'a', 0x01, 0x54, 0x01, of, ml, __VA_ARGS__}
static const unsigned char seq_aaaa[] = CRAFTED_SEQ(0x00, 0x00, 0x45, 0x01);        /* offset 1, length 3: "aaaa" */
static const unsigned char seq_far[] = CRAFTED_SEQ(0x05, 0x00, 0x45, 0x20);         /* offset 29: before the frame */
static const unsigned char seq_long[] = CRAFTED_SEQ(0x00, 0x34, 0x55, 0x00, 0x00, 0x01); /* length 65539 > 1 KiB block */
/* raw block, single segment, content size 3, "abc" */
static const unsigned char raw_abc[] = {0x28, 0xB5, 0x2F, 0xFD, 0x20, 0x03, 0x19, 0x00, 0x00, 'a', 'b', 'c'};
/* the same with a content checksum: XXH64("abc") = 0x44BC2CF5AD770999 */
static const unsigned char raw_abc_ck[] = {0x28, 0xB5, 0x2F, 0xFD, 0x24, 0x03, 0x19, 0x00, 0x00, 'a', 'b', 'c',
                                           0x99, 0x09, 0x77, 0xAD};

/* The status each detail maps to, as the header documents it. */
static void unit_mapping(void) {
    static const struct { int detail; perfdata_status st; } map[] = {
        {PERFDATA_ZSTD_E_PARAM, PERFDATA_ERR_BAD_ARGUMENT},     {PERFDATA_ZSTD_E_BAD_MAGIC, PERFDATA_ERR_MALFORMED},
        {PERFDATA_ZSTD_E_HEADER, PERFDATA_ERR_MALFORMED},       {PERFDATA_ZSTD_E_DICTIONARY, PERFDATA_ERR_UNSUPPORTED},
        {PERFDATA_ZSTD_E_WINDOW_TOO_LARGE, PERFDATA_ERR_LIMIT}, {PERFDATA_ZSTD_E_BLOCK, PERFDATA_ERR_MALFORMED},
        {PERFDATA_ZSTD_E_LITERALS, PERFDATA_ERR_MALFORMED},     {PERFDATA_ZSTD_E_HUFFMAN, PERFDATA_ERR_MALFORMED},
        {PERFDATA_ZSTD_E_FSE, PERFDATA_ERR_MALFORMED},          {PERFDATA_ZSTD_E_SEQUENCES, PERFDATA_ERR_MALFORMED},
        {PERFDATA_ZSTD_E_OFFSET, PERFDATA_ERR_MALFORMED},       {PERFDATA_ZSTD_E_DST_TOO_SMALL, PERFDATA_ERR_NO_SPACE},
        {PERFDATA_ZSTD_E_CHECKSUM, PERFDATA_ERR_MALFORMED},     {PERFDATA_ZSTD_E_TRUNCATED, PERFDATA_ERR_TRUNCATED},
        {PERFDATA_ZSTD_E_CONTENT_SIZE, PERFDATA_ERR_MALFORMED}, {PERFDATA_ZSTD_E_WORKSPACE, PERFDATA_ERR_BAD_ARGUMENT}};
    size_t i;
    char d[128];
    for (i = 0; i < sizeof map / sizeof map[0]; i++) {
        perfdata_error err;
        perfdata_status st = perfdata__z_fail(&err, map[i].detail, 7, 0);
        snprintf(d, sizeof d, "detail %d (%s) -> %s", map[i].detail, perfdata_zstd_error_name(map[i].detail),
                 perfdata_status_name(st));
        check(st == map[i].st && err.code == st && err.detail == map[i].detail && err.offset == 7 &&
                  strcmp(perfdata_zstd_error_name(map[i].detail), "unknown") != 0 &&
                  err.message == perfdata_zstd_error_name(map[i].detail),
              "mapping", d);
    }
    check(i == 16, "mapping", "every detail -1..-16 listed");
    check(strcmp(perfdata_zstd_error_name(0), "ok") == 0 && strcmp(perfdata_zstd_error_name(1), "unknown") == 0 &&
              strcmp(perfdata_zstd_error_name(-17), "unknown") == 0,
          "mapping", "names outside the details");
}

/* The streaming contract: NEED_INPUT, NO_SPACE (not sticky), sticky
   errors, a window buffer too small, offsets counted over the stream. */
static void unit_stream(void) {
    static perfdata_zstd_dctx c;
    static unsigned char win[4096];
    unsigned char out[16], two[sizeof raw_abc * 2];
    perfdata_error err, again;
    size_t used = 0, wr = 0, got = 0, total_in = 0;
    perfdata_status st;
    int calls = 0;
    char d[160];

    /* NEED_INPUT: the frame cut after 5 bytes, then the rest */
    perfdata_zstd_dctx_init(&c, win, sizeof win, 0);
    st = perfdata_zstd_decompress_stream(&c, raw_abc, 5, &used, out, sizeof out, &wr, &err);
    check(st == PERFDATA_NEED_INPUT && err.code == st && err.detail == 0 && used == 5 && wr == 0, "stream", "need input");
    st = perfdata_zstd_decompress_stream(&c, raw_abc + 5, sizeof raw_abc - 5, &used, out, sizeof out, &wr, &err);
    check(st == PERFDATA_OK && err.code == PERFDATA_OK && used == sizeof raw_abc - 5 && wr == 3 && memcmp(out, "abc", 3) == 0,
          "stream", "the rest of the frame");

    /* NO_SPACE: one byte of room per call; nothing lost, never sticky */
    perfdata_zstd_dctx_init(&c, win, sizeof win, 0);
    for (;;) {
        st = perfdata_zstd_decompress_stream(&c, seq_aaaa + total_in, sizeof seq_aaaa - total_in, &used, out + got, 1, &wr,
                                             &err);
        total_in += used;
        got += wr;
        if (++calls > 10 || st != PERFDATA_ERR_NO_SPACE) break;
        if (err.detail != 0 || err.code != PERFDATA_ERR_NO_SPACE) break;
    }
    snprintf(d, sizeof d, "one byte of room per call: %s after %d calls, %zu bytes", perfdata_status_name(st), calls, got);
    check(st == PERFDATA_OK && calls == 4 && got == 4 && total_in == sizeof seq_aaaa && memcmp(out, "aaaa", 4) == 0, "stream", d);

    /* a window buffer one byte too small: LIMIT, with the size needed; sticky */
    perfdata_zstd_dctx_init(&c, win, 2079, 0);
    st = perfdata_zstd_decompress_stream(&c, seq_aaaa, sizeof seq_aaaa, &used, out, sizeof out, &wr, &err);
    snprintf(d, sizeof d, "window buffer 2079: %s needed %llu", outcome(st, &err), (unsigned long long)err.needed);
    check(st == PERFDATA_ERR_LIMIT && err.detail == PERFDATA_ZSTD_E_WINDOW_TOO_LARGE && err.needed == 2080 && err.offset == 0,
          "stream", d);
    st = perfdata_zstd_decompress_stream(&c, seq_aaaa, sizeof seq_aaaa, &used, out, sizeof out, &wr, &again);
    check(st == PERFDATA_ERR_LIMIT && used == 0 && wr == 0 && again.detail == err.detail && again.offset == err.offset &&
              again.needed == err.needed && again.message == err.message,
          "stream", "the error is sticky, with the same err");
    check(perfdata_zstd_window_buffer_size(seq_aaaa, sizeof seq_aaaa, &used, &err) == PERFDATA_OK && used == 2080, "stream",
          "perfdata_zstd_window_buffer_size says 2080");
    perfdata_zstd_dctx_init(&c, win, 2080, 0);
    st = perfdata_zstd_decompress_stream(&c, seq_aaaa, sizeof seq_aaaa, &used, out, sizeof out, &wr, &err);
    check(st == PERFDATA_OK && wr == 4, "stream", "window buffer 2080 after perfdata_zstd_dctx_init");

    /* an error in the second frame: offsets count from the first byte given */
    memcpy(two, raw_abc, sizeof raw_abc);
    memcpy(two + sizeof raw_abc, raw_abc, sizeof raw_abc);
    two[sizeof raw_abc + 6] = 0x1F; /* reserved block type */
    expect_error("second frame's block", two, sizeof two, PERFDATA_ERR_MALFORMED, PERFDATA_ZSTD_E_BLOCK, sizeof raw_abc + 6);
    perfdata_zstd_dctx_init(&c, win, sizeof win, 0);
    st = perfdata_zstd_decompress_stream(&c, two, 7, &used, out, sizeof out, &wr, &err);
    st = perfdata_zstd_decompress_stream(&c, two + 7, sizeof two - 7, &used, out, sizeof out, &wr, &err);
    snprintf(d, sizeof d, "second frame's block, given in two calls: %s at %llu", outcome(st, &err),
             (unsigned long long)err.offset);
    check(st == PERFDATA_ERR_MALFORMED && err.detail == PERFDATA_ZSTD_E_BLOCK && err.offset == sizeof raw_abc + 6, "stream", d);

    /* NULL context or buffers */
    st = perfdata_zstd_decompress_stream(NULL, raw_abc, sizeof raw_abc, &used, out, sizeof out, &wr, &err);
    check(st == PERFDATA_ERR_BAD_ARGUMENT && err.detail == PERFDATA_ZSTD_E_PARAM, "stream", "NULL context");
    perfdata_zstd_dctx_init(&c, win, sizeof win, 0);
    st = perfdata_zstd_decompress_stream(&c, NULL, 3, &used, out, sizeof out, &wr, &err);
    check(st == PERFDATA_ERR_BAD_ARGUMENT && err.detail == PERFDATA_ZSTD_E_PARAM, "stream", "NULL input");

    /* perfdata_zstd_chunk: out full is NO_SPACE, a broken frame MALFORMED */
    perfdata_zstd_dctx_init(&c, win, sizeof win, 0);
    check(perfdata_zstd_chunk(&c, seq_aaaa, sizeof seq_aaaa, out, 2, &got) == PERFDATA_ERR_NO_SPACE && got == 2, "chunk",
          "output full");
    perfdata_zstd_dctx_init(&c, win, sizeof win, 0);
    check(perfdata_zstd_chunk(&c, seq_long, sizeof seq_long, out, sizeof out, &got) == PERFDATA_ERR_MALFORMED, "chunk",
          "a block decoding past 128 KiB or its window is MALFORMED, not NO_SPACE");
}

static void unit_frame_info(void) {
    perfdata_zstd_frame_info fi;
    perfdata_error err;
    size_t need = 1;
    static const unsigned char skip6[] = {0x50, 0x2A, 0x4D, 0x18, 0x02, 0x00};
    static const unsigned char huge[] = {0x28, 0xB5, 0x2F, 0xFD, 0x00, 0xF8, 0x01, 0x00, 0x00};
    check(perfdata_zstd_get_frame_info(raw_abc, 2, &fi, &err) == PERFDATA_NEED_INPUT && err.code == PERFDATA_NEED_INPUT &&
              err.needed == 2 && err.detail == 0,
          "frame info", "2 bytes: 2 more for the magic");
    check(perfdata_zstd_get_frame_info(raw_abc, 4, &fi, &err) == PERFDATA_NEED_INPUT && err.needed == 1, "frame info",
          "the magic: 1 more for the descriptor");
    check(perfdata_zstd_get_frame_info(raw_abc, 5, &fi, &err) == PERFDATA_NEED_INPUT && err.needed == 1, "frame info",
          "the descriptor: 1 more for the content size");
    check(perfdata_zstd_get_frame_info(skip6, sizeof skip6, &fi, &err) == PERFDATA_NEED_INPUT && err.needed == 2,
          "frame info", "skippable: 2 more for its size");
    check(perfdata_zstd_get_frame_info(raw_abc, sizeof raw_abc, &fi, &err) == PERFDATA_OK && err.code == PERFDATA_OK &&
              fi.header_size == 6 && fi.content_size == 3 && fi.window_size == 3 && !fi.skippable,
          "frame info", "raw_abc");
    check(perfdata_zstd_get_frame_info(NULL, 6, &fi, &err) == PERFDATA_ERR_BAD_ARGUMENT && err.detail == PERFDATA_ZSTD_E_PARAM,
          "frame info", "NULL");
    check(perfdata_zstd_get_frame_info(seq_aaaa + 1, 8, &fi, &err) == PERFDATA_ERR_MALFORMED &&
              err.detail == PERFDATA_ZSTD_E_BAD_MAGIC,
          "frame info", "bad magic");
    check(perfdata_zstd_window_buffer_size(huge, sizeof huge, &need, &err) == PERFDATA_ERR_LIMIT &&
              err.detail == PERFDATA_ZSTD_E_WINDOW_TOO_LARGE && need == 0,
          "window buffer size", "a 2 TiB window");
    check(perfdata_zstd_window_buffer_size(huge, 5, &need, &err) == PERFDATA_NEED_INPUT && err.needed == 1, "window buffer size",
          "short");
    check(perfdata_zstd_window_buffer_size(huge, sizeof huge, NULL, &err) == PERFDATA_ERR_BAD_ARGUMENT &&
              err.detail == PERFDATA_ZSTD_E_PARAM,
          "window buffer size", "NULL");
    check(perfdata_zstd_window_buffer_size(skip6, 8 > sizeof skip6 ? sizeof skip6 : 8, &need, NULL) == PERFDATA_NEED_INPUT,
          "window buffer size", "NULL err");
}

static int mode_unit(void) {
    char d[128];
    perfdata_status r;
    perfdata_error err;
    size_t on = 0;
    /* XXH64 reference vectors (seed 0) */
    check(perfdata_zstd_xxh64("", 0) == 0xEF46DB3751D8E999ULL, "xxh64", "empty");
    check(perfdata_zstd_xxh64("a", 1) == 0xD24EC4F1A98C6E5BULL, "xxh64", "a");
    check(perfdata_zstd_xxh64("abc", 3) == 0x44BC2CF5AD770999ULL, "xxh64", "abc");
    unit_mapping();
    unit_frame_info();
    unit_stream();
    /* crafted frames */
    {
        unsigned char bad[sizeof raw_abc_ck];
        static unsigned char o[4];
        static unsigned char w[PERFDATA_ZSTD_WORKSPACE_SIZE];
        expect_data("raw block", raw_abc, sizeof raw_abc, "abc", 3);
        expect_data("raw block with a checksum", raw_abc_ck, sizeof raw_abc_ck, "abc", 3);
        memcpy(bad, raw_abc, sizeof raw_abc); bad[4] |= 8; /* reserved bit */
        expect_error("reserved bit", bad, sizeof raw_abc, PERFDATA_ERR_MALFORMED, PERFDATA_ZSTD_E_HEADER, 0);
        memcpy(bad, raw_abc, sizeof raw_abc); bad[6] = 0x1F; /* block type 3 */
        expect_error("reserved block type", bad, sizeof raw_abc, PERFDATA_ERR_MALFORMED, PERFDATA_ZSTD_E_BLOCK, 6);
        memcpy(bad, raw_abc, sizeof raw_abc); bad[5] = 4; /* content size 4, one block of 3 */
        expect_error("content size", bad, sizeof raw_abc, PERFDATA_ERR_MALFORMED, PERFDATA_ZSTD_E_CONTENT_SIZE, 6);
        expect_error("cut in the block", raw_abc, sizeof raw_abc - 1, PERFDATA_ERR_TRUNCATED, PERFDATA_ZSTD_E_TRUNCATED, 6);
        r = run_bytes(raw_abc, sizeof raw_abc - 1, &on, &err);
        check(r == PERFDATA_ERR_TRUNCATED && err.needed == 1 && on == 0, "unit", "cut in the block: 1 byte missing");
        expect_error("cut in the header", raw_abc, 5, PERFDATA_ERR_TRUNCATED, PERFDATA_ZSTD_E_TRUNCATED, 0);
        expect_error("cut in the checksum", raw_abc_ck, sizeof raw_abc_ck - 1, PERFDATA_ERR_TRUNCATED,
                     PERFDATA_ZSTD_E_TRUNCATED, 12);
        memcpy(bad, raw_abc, sizeof raw_abc); bad[0] = 0x27;
        expect_error("magic", bad, sizeof raw_abc, PERFDATA_ERR_MALFORMED, PERFDATA_ZSTD_E_BAD_MAGIC, 0);
        memcpy(bad, raw_abc_ck, sizeof raw_abc_ck); bad[15] ^= 1;
        expect_error("checksum", bad, sizeof raw_abc_ck, PERFDATA_ERR_MALFORMED, PERFDATA_ZSTD_E_CHECKSUM, 12);
        r = perfdata_zstd_decompress(o, sizeof o, bad, sizeof raw_abc_ck, w, sizeof w, PERFDATA_ZSTD_F_SKIP_CHECKSUM, &on, &err);
        check(r == PERFDATA_OK && on == 3, "unit", "checksum not checked with PERFDATA_ZSTD_F_SKIP_CHECKSUM");
        /* destination and workspace */
        r = perfdata_zstd_decompress(o, 2, raw_abc, sizeof raw_abc, w, sizeof w, 0, &on, &err);
        snprintf(d, sizeof d, "dst of 2 bytes: %s at %llu", outcome(r, &err), (unsigned long long)err.offset);
        check(r == PERFDATA_ERR_NO_SPACE && err.detail == PERFDATA_ZSTD_E_DST_TOO_SMALL && err.offset == 6 && on == 0, "unit", d);
        r = perfdata_zstd_decompress(o, sizeof o, raw_abc, sizeof raw_abc, w, sizeof w - 17, 0, &on, &err);
        check(r == PERFDATA_ERR_BAD_ARGUMENT && err.detail == PERFDATA_ZSTD_E_WORKSPACE && err.offset == 0, "unit",
              "workspace too small");
        r = perfdata_zstd_decompress(NULL, 3, raw_abc, sizeof raw_abc, w, sizeof w, 0, &on, &err);
        check(r == PERFDATA_ERR_BAD_ARGUMENT && err.detail == PERFDATA_ZSTD_E_PARAM, "unit", "NULL dst");
        r = perfdata_zstd_decompress(NULL, 0, NULL, 0, w, sizeof w, 0, NULL, NULL);
        check(r == PERFDATA_OK, "unit", "nothing into nothing, NULL out_size and err");
    }
    {
        /* dictionary id present -> rejected */
        static const unsigned char dict[] = {0x28, 0xB5, 0x2F, 0xFD, 0x21, 0x07, 0x03, 0x19, 0x00, 0x00, 'a', 'b', 'c'};
        expect_error("dictionary", dict, sizeof dict, PERFDATA_ERR_UNSUPPORTED, PERFDATA_ZSTD_E_DICTIONARY, 0);
    }
    {
        /* window descriptor: 2^10 window, block size 2000 > block max */
        static const unsigned char big[] = {0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x00, 0x81, 0x3E, 0x00};
        /* window too large: exponent 31 -> 2^41 */
        static const unsigned char huge[] = {0x28, 0xB5, 0x2F, 0xFD, 0x00, 0xF8, 0x01, 0x00, 0x00};
        expect_error("block over limit", big, sizeof big, PERFDATA_ERR_MALFORMED, PERFDATA_ZSTD_E_BLOCK, 6);
        expect_error("window too large", huge, sizeof huge, PERFDATA_ERR_LIMIT, PERFDATA_ZSTD_E_WINDOW_TOO_LARGE, 0);
    }
    {
        /* sequences made by hand */
        expect_data("one sequence in RLE mode", seq_aaaa, sizeof seq_aaaa, "aaaa", 4);
        expect_error("offset before the frame", seq_far, sizeof seq_far, PERFDATA_ERR_MALFORMED, PERFDATA_ZSTD_E_OFFSET, 6);
        expect_error("a match past Block_Maximum_Size", seq_long, sizeof seq_long, PERFDATA_ERR_MALFORMED,
                     PERFDATA_ZSTD_E_BLOCK, 6);
    }
    {
        /* compressed block: raw literals "ab", 1 sequence predefined modes with offset beyond history */
        /* literal header: raw, size 2 -> 0x10; seq: nseq=1, modes=0; bitstream crafted roughly */
        static const unsigned char seqbad[] = {0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x00, 0x3D, 0x00, 0x00,
                                               0x10, 'a', 'b', 0x01, 0x00, 0xFF, 0xFF};
        r = run_bytes(seqbad, sizeof seqbad, &on, &err);
        snprintf(d, sizeof d, "crafted bad sequences: %s at %llu", outcome(r, &err), (unsigned long long)err.offset);
        check(r == PERFDATA_ERR_MALFORMED && err.detail < 0 && err.offset == 6, "unit", d);
    }
    {
        /* skippable frame alone and followed by empty frame */
        static const unsigned char sk[] = {0x50, 0x2A, 0x4D, 0x18, 0x02, 0x00, 0x00, 0x00, 0xAA, 0xBB,
                                           0x28, 0xB5, 0x2F, 0xFD, 0x20, 0x00, 0x01, 0x00, 0x00};
        expect_data("skippable + empty frame", sk, sizeof sk, "", 0);
        expect_error("truncated skippable", sk, 9, PERFDATA_ERR_TRUNCATED, PERFDATA_ZSTD_E_TRUNCATED, 0);
        r = run_bytes(sk, 9, &on, &err);
        check(r == PERFDATA_ERR_TRUNCATED && err.needed == 1, "unit", "truncated skippable: 1 byte missing");
    }
    {
        /* hand-made: RLE literals block, no sequences -> "zzzzz" */
        static const unsigned char rle[] = {0x28, 0xB5, 0x2F, 0xFD, 0x20, 0x05, 0x1D, 0x00, 0x00, 0x29, 'z', 0x00};
        expect_data("RLE literals", rle, sizeof rle, "zzzzz", 5);
        /* hand-made: Huffman literals with a direct (4-bit) weight table, 1 stream */
        {
            static const unsigned char huf[] = {0x28, 0xB5, 0x2F, 0xFD, 0x20, 0x08, 0x45, 0x00, 0x00,
                                                0x82, 0x00, 0x01, 0x80, 0x10, 0xB2, 0x01, 0x00};
            static const unsigned char want[8] = {1, 0, 1, 1, 0, 0, 1, 0};
            unsigned char bad[sizeof huf];
            expect_data("direct huffman weights", huf, sizeof huf, want, 8);
            memcpy(bad, huf, sizeof huf); bad[13] = 0x00; /* all weights zero */
            expect_error("huffman weights sum to zero", bad, sizeof bad, PERFDATA_ERR_MALFORMED, PERFDATA_ZSTD_E_HUFFMAN, 6);
            memcpy(bad, huf, sizeof huf); bad[13] = 0xC0; /* weight 12 > 11 */
            expect_error("huffman weight too large", bad, sizeof bad, PERFDATA_ERR_MALFORMED, PERFDATA_ZSTD_E_HUFFMAN, 6);
            memcpy(bad, huf, sizeof huf); bad[15] = 0x00; /* no end marker */
            expect_error("huffman stream without padding marker", bad, sizeof bad, PERFDATA_ERR_MALFORMED,
                         PERFDATA_ZSTD_E_HUFFMAN, 6);
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
        check(perfdata_zstd_window_buffer_size(f, n, &need, &err) == PERFDATA_OK && need == fill + 131072 + 32, "unit",
              "window buffer size of a 4 MiB window");
        sr = stream_decode(f, n, 65536, 1 << 20, out, fill + NSMALL, &outn, need, 0, &err);
        for (i = 0; i < fill + NSMALL && ok && outn == fill + NSMALL; i++)
            ok = out[i] == (i < fill ? 'x' : 'a' + (i - fill) % 26);
        snprintf(d, sizeof d, "tiny blocks after a full window %s out=%zu", outcome(sr, &err), outn);
        check(sr == PERFDATA_OK && outn == fill + NSMALL && ok, "unit", d);
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
    perfdata_status st = PERFDATA_OK;
    perfdata_error err;
    size_t r = 0;
    double secs;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (i = 0; i < iters; i++) st = perfdata_zstd_decompress(out, cap, z, zn, ws, PERFDATA_ZSTD_WORKSPACE_SIZE, 0, &r, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    check(st == PERFDATA_OK && r > 0, "bench", zpath);
    if (st == PERFDATA_OK) printf("pd_zstd oneshot: %.1f MB/s (%zu bytes x %d in %.3fs)\n", (double)r * iters / secs / 1e6, r, iters, secs);
    {
        size_t outn = 0, wneed = max_window_need(z, zn), wsz;
        int sr, pass;
        for (pass = 0; pass < 2; pass++) {
            wsz = pass ? 2 * wneed : wneed; /* minimum vs. recommended (2x: amortized slides) */
            clock_gettime(CLOCK_MONOTONIC, &t0);
            sr = stream_decode(z, zn, 65536, 1 << 20, out, cap, &outn, wsz, 0, &err);
            clock_gettime(CLOCK_MONOTONIC, &t1);
            secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
            check(sr == PERFDATA_OK && outn == r, "bench stream", zpath);
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
