/* pd_zstd.h - allocation-free zstd frame decoder (RFC 8878), single header.
 *
 * Define PD_ZSTD_IMPLEMENTATION in exactly one translation unit before
 * including this file to get the implementation.
 *
 * No libc calls, no allocation. All multi-byte values are assembled from
 * bytes (little-endian); every read is bounds-checked. Dictionaries are not
 * supported (frames that need one are rejected with PD_ZSTD_E_DICTIONARY).
 *
 * Two ways to decode:
 *   - one shot: pd_zstd_decompress() decodes a whole buffer (any number of
 *     zstd and skippable frames) into dst; it needs a workspace of at least
 *     PD_ZSTD_WORKSPACE_SIZE bytes (holds the decoder context).
 *   - streaming: the caller owns a pd_zstd_dctx and a window buffer of at
 *     least pd_zstd_window_buffer_size() bytes, and feeds input in pieces of
 *     any size with pd_zstd_decompress_stream(). Later blocks may reference
 *     data decoded by earlier calls (within the frame's window). Incomplete
 *     units (block, header, checksum) are staged inside the context, so a
 *     piece may end anywhere.
 */
#ifndef PD_ZSTD_H_INCLUDED
#define PD_ZSTD_H_INCLUDED

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PD_ZSTD_BLOCK_SIZE_MAX 131072u
/* Largest Window_Size accepted (frames asking for more are rejected). */
#define PD_ZSTD_WINDOW_SIZE_MAX ((uint64_t)1 << 31)
#define PD_ZSTD_CONTENT_SIZE_UNKNOWN (~(uint64_t)0)

/* flags for pd_zstd_dctx_init / pd_zstd_decompress_flags */
#define PD_ZSTD_F_SKIP_CHECKSUM 1u /* do not compute/verify XXH64 content checksums */

enum {
    /* statuses (>= 0) of pd_zstd_decompress_stream */
    PD_ZSTD_OK = 0,          /* all input consumed, all output delivered, at a frame boundary */
    PD_ZSTD_NEED_INPUT = 1,  /* all input consumed (possibly staged), frame not finished */
    PD_ZSTD_OUTPUT_FULL = 2, /* out is full; call again with more room (input may remain) */
    /* errors (< 0); sticky on a streaming context */
    PD_ZSTD_E_PARAM = -1,
    PD_ZSTD_E_BAD_MAGIC = -2,
    PD_ZSTD_E_HEADER = -3,
    PD_ZSTD_E_DICTIONARY = -4,
    PD_ZSTD_E_WINDOW_TOO_LARGE = -5, /* above PD_ZSTD_WINDOW_SIZE_MAX or the window buffer */
    PD_ZSTD_E_BLOCK = -6,
    PD_ZSTD_E_LITERALS = -7,
    PD_ZSTD_E_HUFFMAN = -8,
    PD_ZSTD_E_FSE = -9,
    PD_ZSTD_E_SEQUENCES = -10,
    PD_ZSTD_E_OFFSET = -11,
    PD_ZSTD_E_DST_TOO_SMALL = -12,
    PD_ZSTD_E_CHECKSUM = -13,
    PD_ZSTD_E_TRUNCATED = -14,
    PD_ZSTD_E_CONTENT_SIZE = -15,
    PD_ZSTD_E_WORKSPACE = -16
};

typedef struct pd_zstd_frame_info {
    uint64_t content_size; /* PD_ZSTD_CONTENT_SIZE_UNKNOWN if absent; skippable: payload size */
    uint64_t window_size;
    uint32_t dict_id;
    uint32_t header_size; /* bytes incl. magic */
    int single_segment;
    int has_checksum;
    int skippable;
} pd_zstd_frame_info;

/* internal table types (public only so the context has a fixed size) */
typedef struct { uint16_t next; uint8_t nbits; uint8_t xbits; uint32_t base; } pd_zstd__seq_entry;
typedef struct { uint8_t sym; uint8_t nbits; } pd_zstd__huf_entry;
typedef struct { uint64_t v[4]; uint64_t total; uint8_t mem[32]; uint32_t memsize; } pd_zstd__xxh64;

typedef struct pd_zstd_dctx {
    int error;     /* sticky error (< 0) or 0 */
    unsigned flags;
    int state;
    int has_checksum;
    uint64_t window_size, content_size, decoded;
    uint32_t block_max;
    uint32_t rep[3];
    int huf_ok, ll_ok, of_ok, ml_ok;
    unsigned huf_log, ll_log, of_log, ml_log;
    pd_zstd__xxh64 xxh;
    /* streaming */
    uint8_t *win;
    size_t win_cap, win_pos, win_lo, flush_pos, flush_end;
    uint64_t skip_left;
    size_t stage_len;
    pd_zstd__seq_entry ll[512], of[256], ml[512];
    pd_zstd__huf_entry huf[2048];
    uint8_t lit[PD_ZSTD_BLOCK_SIZE_MAX + 32];
    uint8_t stage[PD_ZSTD_BLOCK_SIZE_MAX + 32];
} pd_zstd_dctx;

#define PD_ZSTD_WORKSPACE_SIZE (sizeof(pd_zstd_dctx) + 16)

/* Parse the header of the frame starting at src. Returns PD_ZSTD_OK,
 * PD_ZSTD_NEED_INPUT if src_size is too short, or an error. */
int pd_zstd_get_frame_info(const void *src, size_t src_size, pd_zstd_frame_info *info);

/* Minimum window buffer size the streaming decoder needs for the frame
 * starting at src: Window_Size + min(Window_Size, 128 KiB); 0 for a skippable
 * frame. Any larger buffer works too: when the free space after the decode
 * position drops below one block, the last Window_Size bytes are moved to the
 * front, so with the minimum size that move happens for every block; with
 * 2 * Window_Size + 128 KiB it happens once per Window_Size of output. */
int pd_zstd_window_buffer_size(const void *src, size_t src_size, size_t *needed);

/* Streaming. window may be reused across frames; a frame whose window does not
 * fit in window_cap fails with PD_ZSTD_E_WINDOW_TOO_LARGE. */
void pd_zstd_dctx_init(pd_zstd_dctx *ctx, void *window, size_t window_cap, unsigned flags);
int pd_zstd_decompress_stream(pd_zstd_dctx *ctx, const void *in, size_t in_size, size_t *in_consumed,
                              void *out, size_t out_cap, size_t *out_written);

/* One shot: returns decompressed size (>= 0) or an error (< 0). */
int64_t pd_zstd_decompress(void *dst, size_t dst_cap, const void *src, size_t src_size,
                           void *workspace, size_t ws_size);
int64_t pd_zstd_decompress_flags(void *dst, size_t dst_cap, const void *src, size_t src_size,
                                 void *workspace, size_t ws_size, unsigned flags);

/* XXH64 (seed 0) of a buffer, exposed for tests. */
uint64_t pd_zstd_xxh64(const void *data, size_t size);

const char *pd_zstd_error_name(int code);

#ifdef __cplusplus
}
#endif
#endif /* PD_ZSTD_H_INCLUDED */

/* ======================================================================== */
#ifdef PD_ZSTD_IMPLEMENTATION
#ifndef PD_ZSTD_IMPLEMENTATION_DONE
#define PD_ZSTD_IMPLEMENTATION_DONE

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define PDZ_INLINE static inline __attribute__((always_inline))
#else
#define PDZ_INLINE static inline
#endif

static uint32_t pdz_le16(const uint8_t *p) { return (uint32_t)p[0] | ((uint32_t)p[1] << 8); }
static uint32_t pdz_le24(const uint8_t *p) { return pdz_le16(p) | ((uint32_t)p[2] << 16); }
static uint32_t pdz_le32(const uint8_t *p) { return pdz_le24(p) | ((uint32_t)p[3] << 24); }
PDZ_INLINE uint64_t pdz_le64(const uint8_t *p) {
    return (uint64_t)p[0] | ((uint64_t)p[1] << 8) | ((uint64_t)p[2] << 16) | ((uint64_t)p[3] << 24) |
           ((uint64_t)p[4] << 32) | ((uint64_t)p[5] << 40) | ((uint64_t)p[6] << 48) | ((uint64_t)p[7] << 56);
}

#if defined(__GNUC__) || defined(__clang__)
static unsigned pdz_highbit(uint32_t v) { return 31u - (unsigned)__builtin_clz(v); } /* v > 0 */
#else
static unsigned pdz_highbit(uint32_t v) { unsigned r = 0; while (v >>= 1) r++; return r; }
#endif

PDZ_INLINE void pdz_copy16(uint8_t *d, const uint8_t *s) {
    uint8_t t[16];
    unsigned k;
    for (k = 0; k < 16; k++) t[k] = s[k];
    for (k = 0; k < 16; k++) d[k] = t[k];
}

/* Forward copy; also correct for overlapping buffers when d < s (memmove-forward). */
static void pdz_copy(uint8_t *d, const uint8_t *s, size_t n) {
    while (n >= 16) { pdz_copy16(d, s); d += 16; s += 16; n -= 16; }
    while (n) { *d++ = *s++; n--; }
}

/* Copies n rounded up to a multiple of 16: caller guarantees the slack on both sides,
 * and that s + 16 <= d or the regions do not overlap. */
PDZ_INLINE void pdz_wildcopy(uint8_t *d, const uint8_t *s, size_t n) {
    do { pdz_copy16(d, s); d += 16; s += 16; } while (n > 16 && (n -= 16));
}

static void pdz_fill(uint8_t *d, uint8_t v, size_t n) { while (n) { *d++ = v; n--; } }

/* Copy a match of n bytes at distance off (off <= bytes available behind d). */
static void pdz_match(uint8_t *d, size_t off, size_t n) {
    if (off < 8) {
        size_t k;
        const uint8_t *sp = d - off;
        if (n <= 16) { for (k = 0; k < n; k++) d[k] = sp[k]; return; }
        for (k = 0; k < 16; k++) d[k] = sp[k];
        d += 16; n -= 16;
        off = off * ((8 + off - 1) / off); /* same period, now >= 8 and <= 14 < 16 */
    }
    while (n >= 8) { /* chunks of 8 never overlap since off >= 8 */
        uint8_t t[8];
        const uint8_t *sp = d - off;
        unsigned k;
        for (k = 0; k < 8; k++) t[k] = sp[k];
        for (k = 0; k < 8; k++) d[k] = t[k];
        d += 8; n -= 8;
    }
    while (n) { *d = *(d - off); d++; n--; }
}

/* ---------------------------------------------------------------- XXH64 */
#define PDZ_P1 0x9E3779B185EBCA87ULL
#define PDZ_P2 0xC2B2AE3D27D4EB4FULL
#define PDZ_P3 0x165667B19E3779F9ULL
#define PDZ_P4 0x85EBCA77C2B2AE63ULL
#define PDZ_P5 0x27D4EB2F165667C5ULL

PDZ_INLINE uint64_t pdz_rotl(uint64_t x, unsigned r) { return (x << r) | (x >> (64 - r)); }
PDZ_INLINE uint64_t pdz_xround(uint64_t acc, uint64_t in) { acc += in * PDZ_P2; acc = pdz_rotl(acc, 31); return acc * PDZ_P1; }
static uint64_t pdz_xmerge(uint64_t acc, uint64_t v) { acc ^= pdz_xround(0, v); return acc * PDZ_P1 + PDZ_P4; }

static void pdz_xxh_init(pd_zstd__xxh64 *s) {
    s->v[0] = PDZ_P1 + PDZ_P2; s->v[1] = PDZ_P2; s->v[2] = 0; s->v[3] = 0 - PDZ_P1;
    s->total = 0; s->memsize = 0;
}

static void pdz_xxh_update(pd_zstd__xxh64 *s, const uint8_t *p, size_t n) {
    uint64_t v0, v1, v2, v3;
    s->total += n;
    if (n < 32 - (size_t)s->memsize) { pdz_copy(s->mem + s->memsize, p, n); s->memsize += (uint32_t)n; return; }
    v0 = s->v[0]; v1 = s->v[1]; v2 = s->v[2]; v3 = s->v[3];
    if (s->memsize) {
        size_t k = 32 - s->memsize;
        pdz_copy(s->mem + s->memsize, p, k);
        p += k; n -= k;
        v0 = pdz_xround(v0, pdz_le64(s->mem)); v1 = pdz_xround(v1, pdz_le64(s->mem + 8));
        v2 = pdz_xround(v2, pdz_le64(s->mem + 16)); v3 = pdz_xround(v3, pdz_le64(s->mem + 24));
        s->memsize = 0;
    }
    while (n >= 32) {
        v0 = pdz_xround(v0, pdz_le64(p)); v1 = pdz_xround(v1, pdz_le64(p + 8));
        v2 = pdz_xround(v2, pdz_le64(p + 16)); v3 = pdz_xround(v3, pdz_le64(p + 24));
        p += 32; n -= 32;
    }
    s->v[0] = v0; s->v[1] = v1; s->v[2] = v2; s->v[3] = v3;
    pdz_copy(s->mem, p, n); s->memsize = (uint32_t)n;
}

static uint64_t pdz_xxh_digest(const pd_zstd__xxh64 *s) {
    uint64_t h;
    const uint8_t *p = s->mem;
    size_t n = s->memsize;
    if (s->total >= 32) {
        h = pdz_rotl(s->v[0], 1) + pdz_rotl(s->v[1], 7) + pdz_rotl(s->v[2], 12) + pdz_rotl(s->v[3], 18);
        h = pdz_xmerge(h, s->v[0]); h = pdz_xmerge(h, s->v[1]); h = pdz_xmerge(h, s->v[2]); h = pdz_xmerge(h, s->v[3]);
    } else {
        h = s->v[2] + PDZ_P5;
    }
    h += s->total;
    while (n >= 8) { h ^= pdz_xround(0, pdz_le64(p)); h = pdz_rotl(h, 27) * PDZ_P1 + PDZ_P4; p += 8; n -= 8; }
    if (n >= 4) { h ^= (uint64_t)pdz_le32(p) * PDZ_P1; h = pdz_rotl(h, 23) * PDZ_P2 + PDZ_P3; p += 4; n -= 4; }
    while (n) { h ^= (uint64_t)*p * PDZ_P5; h = pdz_rotl(h, 11) * PDZ_P1; p++; n--; }
    h ^= h >> 33; h *= PDZ_P2; h ^= h >> 29; h *= PDZ_P3; h ^= h >> 32;
    return h;
}

uint64_t pd_zstd_xxh64(const void *data, size_t size) {
    pd_zstd__xxh64 s;
    pdz_xxh_init(&s);
    pdz_xxh_update(&s, (const uint8_t *)data, size);
    return pdz_xxh_digest(&s);
}

/* ------------------------------------------------- backward bit reader */
typedef struct { uint64_t c; unsigned used; const uint8_t *start, *p; } pdz_br;

static int pdz_br_init(pdz_br *b, const uint8_t *src, size_t n) {
    uint8_t last;
    if (n == 0) return -1;
    last = src[n - 1];
    if (last == 0) return -1;
    b->start = src;
    if (n >= 8) {
        b->p = src + (n - 8);
        b->c = pdz_le64(b->p);
        b->used = 8 - pdz_highbit(last);
    } else {
        size_t i;
        b->p = src;
        b->c = 0;
        for (i = 0; i < n; i++) b->c |= (uint64_t)src[i] << (8 * i);
        b->used = 8 - pdz_highbit(last) + (unsigned)(8 - n) * 8;
    }
    return 0;
}

PDZ_INLINE uint64_t pdz_br_look(const pdz_br *b, unsigned n) { return ((b->c << (b->used & 63)) >> 1) >> (63 - n); }
PDZ_INLINE uint32_t pdz_br_read(pdz_br *b, unsigned n) { uint32_t v = (uint32_t)pdz_br_look(b, n); b->used += n; return v; }
/* 0: refilled (>= 57 bits available), 1: at/near the start, 2: overflow */
PDZ_INLINE int pdz_br_reload(pdz_br *b) {
    if (b->used > 64) return 2;
    if ((size_t)(b->p - b->start) >= 8) {
        b->p -= b->used >> 3;
        b->used &= 7;
        b->c = pdz_le64(b->p);
        return 0;
    }
    if (b->p == b->start) return 1;
    {
        size_t nb = b->used >> 3, avail = (size_t)(b->p - b->start);
        if (nb > avail) nb = avail;
        b->p -= nb;
        b->used -= (unsigned)nb * 8;
        b->c = pdz_le64(b->p);
    }
    return 1;
}
static int pdz_br_done(const pdz_br *b) { return b->p == b->start && b->used == 64; }

/* ------------------------------------------------------------------ FSE */
typedef struct { uint16_t base; uint8_t sym; uint8_t nb; } pdz_fse;

static uint32_t pdz_fwd_peek(const uint8_t *s, size_t n, size_t bitpos) {
    uint32_t v = 0;
    size_t i = bitpos >> 3;
    unsigned k;
    for (k = 0; k < 4; k++)
        if (i < n && n - i > k) v |= (uint32_t)s[i + k] << (8 * k);
    return v >> (bitpos & 7);
}

/* Reads an FSE table description. Returns bytes used, 0 on error. */
static size_t pdz_read_ncount(int16_t *norm, unsigned maxsym, unsigned maxlog, unsigned *log_out,
                              const uint8_t *s, size_t n) {
    size_t bp = 4, nbits_total;
    int remaining, threshold, prev0 = 0;
    unsigned nbits, sym = 0, log;
    if (n == 0) return 0;
    nbits_total = n * 8;
    log = (pdz_fwd_peek(s, n, 0) & 15) + 5;
    if (log > maxlog) return 0;
    remaining = (1 << log) + 1;
    threshold = 1 << log;
    nbits = log + 1;
    while (remaining > 1) {
        if (bp > nbits_total) return 0;
        if (prev0) {
            for (;;) {
                unsigned r = pdz_fwd_peek(s, n, bp) & 3, i;
                bp += 2;
                if (r > maxsym + 1 - sym) return 0;
                for (i = 0; i < r; i++) norm[sym++] = 0;
                if (r != 3) break;
                if (bp > nbits_total) return 0;
            }
            prev0 = 0;
        }
        if (sym > maxsym) return 0;
        {
            int max = 2 * threshold - 1 - remaining, count;
            uint32_t v = pdz_fwd_peek(s, n, bp);
            if ((int)(v & (uint32_t)(threshold - 1)) < max) {
                count = (int)(v & (uint32_t)(threshold - 1));
                bp += nbits - 1;
            } else {
                count = (int)(v & (uint32_t)(2 * threshold - 1));
                if (count >= threshold) count -= max;
                bp += nbits;
            }
            count--;
            remaining -= count < 0 ? -count : count;
            norm[sym++] = (int16_t)count;
            prev0 = count == 0;
            while (remaining < threshold && threshold > 1) { nbits--; threshold >>= 1; }
        }
    }
    if (remaining != 1 || bp > nbits_total) return 0;
    for (; sym <= maxsym; sym++) norm[sym] = 0;
    *log_out = log;
    return (bp + 7) >> 3;
}

static int pdz_fse_build(pdz_fse *t, const int16_t *norm, unsigned maxsym, unsigned log) {
    uint32_t size = 1u << log, mask = size - 1, step = (size >> 1) + (size >> 3) + 3, pos = 0, u;
    int hi = (int)size - 1, i;
    unsigned s;
    uint16_t next[256];
    for (s = 0; s <= maxsym; s++) {
        if (norm[s] == -1) {
            if (hi < 0) return -1;
            t[hi--].sym = (uint8_t)s;
            next[s] = 1;
        } else if (norm[s] < -1) {
            return -1;
        } else {
            next[s] = (uint16_t)norm[s];
        }
    }
    for (s = 0; s <= maxsym; s++) {
        for (i = 0; i < norm[s]; i++) {
            if (hi < 0) return -1;
            t[pos].sym = (uint8_t)s;
            do pos = (pos + step) & mask; while ((int)pos > hi);
        }
    }
    if (pos != 0) return -1;
    for (u = 0; u < size; u++) {
        uint32_t x = next[t[u].sym]++;
        unsigned nb;
        if (x == 0) return -1;
        nb = log - pdz_highbit(x);
        t[u].nb = (uint8_t)nb;
        t[u].base = (uint16_t)((x << nb) - size);
    }
    return 0;
}

/* ------------------------------------------------------- sequence tables */
static const uint32_t pdz_ll_base[36] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 22, 24, 28, 32, 40,
                                         48, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536};
static const uint8_t pdz_ll_bits[36] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1,
                                        1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static const uint32_t pdz_ml_base[53] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                                         21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 37, 39, 41,
                                         43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051, 4099, 8195, 16387, 32771, 65539};
static const uint8_t pdz_ml_bits[53] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                        0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static const int16_t pdz_ll_def[36] = {4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2,
                                       2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1};
static const int16_t pdz_ml_def[53] = {1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                       1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1};
static const int16_t pdz_of_def[29] = {1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1};

static void pdz_seq_entry(pd_zstd__seq_entry *e, int kind, unsigned sym) {
    if (kind == 0) { e->xbits = pdz_ll_bits[sym]; e->base = pdz_ll_base[sym]; }
    else if (kind == 1) { e->xbits = (uint8_t)sym; e->base = (uint32_t)1 << sym; }
    else { e->xbits = pdz_ml_bits[sym]; e->base = pdz_ml_base[sym]; }
}

/* kind: 0 LL, 1 OF, 2 ML. Returns bytes used (>= 0) or -1. */
static long pdz_seq_table(pd_zstd__seq_entry *dt, unsigned *log_out, int *valid, int kind, unsigned mode,
                          const uint8_t *s, size_t n) {
    static const unsigned maxsym_tab[3] = {35, 31, 52}, maxlog_tab[3] = {9, 8, 9};
    unsigned maxsym = maxsym_tab[kind], log = 0, u;
    int16_t norm[64];
    pdz_fse t[512];
    size_t used = 0;
    if (mode == 3) return *valid ? 0 : -1;
    if (mode == 1) {
        if (n < 1 || s[0] > maxsym) return -1;
        dt[0].next = 0; dt[0].nbits = 0;
        pdz_seq_entry(&dt[0], kind, s[0]);
        *log_out = 0; *valid = 1;
        return 1;
    }
    if (mode == 0) {
        const int16_t *d = kind == 0 ? pdz_ll_def : kind == 1 ? pdz_of_def : pdz_ml_def;
        unsigned cnt = kind == 0 ? 36 : kind == 1 ? 29 : 53;
        for (u = 0; u < cnt; u++) norm[u] = d[u];
        maxsym = cnt - 1;
        log = kind == 1 ? 5 : 6;
    } else {
        used = pdz_read_ncount(norm, maxsym, maxlog_tab[kind], &log, s, n);
        if (!used) return -1;
    }
    if (pdz_fse_build(t, norm, maxsym, log)) return -1;
    for (u = 0; u < (1u << log); u++) {
        dt[u].next = t[u].base;
        dt[u].nbits = t[u].nb;
        pdz_seq_entry(&dt[u], kind, t[u].sym);
    }
    *log_out = log;
    *valid = 1;
    return (long)used;
}

/* -------------------------------------------------------------- Huffman */
static size_t pdz_huf_read(pd_zstd_dctx *c, const uint8_t *s, size_t n) {
    uint8_t w[256];
    unsigned nw = 0, i, h, maxbits, last, wt;
    uint32_t total = 0, rest, start[13], cnt[13];
    size_t used;
    if (n < 1) return 0;
    h = s[0];
    if (h >= 128) {
        nw = h - 127;
        used = 1 + (nw + 1) / 2;
        if (used > n) return 0;
        for (i = 0; i < nw; i++) w[i] = (uint8_t)((i & 1) ? (s[1 + i / 2] & 15) : (s[1 + i / 2] >> 4));
    } else {
        int16_t norm[256];
        pdz_fse t[64];
        unsigned log;
        size_t hs;
        pdz_br b;
        uint32_t s1, s2;
        if (h == 0 || h > n - 1) return 0;
        used = 1 + (size_t)h;
        hs = pdz_read_ncount(norm, 255, 6, &log, s + 1, h);
        if (!hs || hs > h) return 0;
        if (pdz_fse_build(t, norm, 255, log)) return 0;
        if (pdz_br_init(&b, s + 1 + hs, h - hs)) return 0;
        s1 = pdz_br_read(&b, log);
        s2 = pdz_br_read(&b, log);
        pdz_br_reload(&b);
        for (;;) {
            if (nw > 253) return 0;
            w[nw++] = t[s1].sym;
            s1 = t[s1].base + pdz_br_read(&b, t[s1].nb);
            if (pdz_br_reload(&b) == 2) { w[nw++] = t[s2].sym; break; }
            if (nw > 253) return 0;
            w[nw++] = t[s2].sym;
            s2 = t[s2].base + pdz_br_read(&b, t[s2].nb);
            if (pdz_br_reload(&b) == 2) { w[nw++] = t[s1].sym; break; }
        }
    }
    for (i = 0; i < nw; i++) {
        if (w[i] > 11) return 0;
        if (w[i]) total += (uint32_t)1 << (w[i] - 1);
    }
    if (total == 0) return 0;
    maxbits = pdz_highbit(total) + 1;
    if (maxbits > 11) return 0;
    rest = ((uint32_t)1 << maxbits) - total;
    if (rest & (rest - 1)) return 0;
    last = pdz_highbit(rest) + 1;
    w[nw++] = (uint8_t)last;
    for (i = 0; i < 13; i++) cnt[i] = 0;
    for (i = 0; i < nw; i++) cnt[w[i]]++;
    start[1] = 0;
    for (wt = 1; wt < 12; wt++) start[wt + 1] = start[wt] + (cnt[wt] << (wt - 1));
    if (start[12] != ((uint32_t)1 << maxbits)) return 0;
    for (i = 0; i < nw; i++) {
        wt = w[i];
        if (wt) {
            uint32_t len = (uint32_t)1 << (wt - 1), p = start[wt], k;
            uint8_t nb = (uint8_t)(maxbits + 1 - wt);
            start[wt] += len;
            for (k = 0; k < len; k++) { c->huf[p + k].sym = (uint8_t)i; c->huf[p + k].nbits = nb; }
        }
    }
    c->huf_log = maxbits;
    c->huf_ok = 1;
    return used;
}

#define PDZ_HUF1(bp, dst)                                                  \
    do {                                                                   \
        pd_zstd__huf_entry e_ = t[pdz_br_look((bp), lg)];                  \
        (dst) = e_.sym;                                                    \
        (bp)->used += e_.nbits;                                            \
    } while (0)

/* Decode n symbols from an initialized stream, then require exact consumption. */
static int pdz_huf_finish(const pd_zstd_dctx *c, pdz_br *b, uint8_t *d, size_t n) {
    const pd_zstd__huf_entry *t = c->huf;
    unsigned lg = c->huf_log;
    size_t i = 0;
    while (n - i >= 4 && pdz_br_reload(b) == 0) {
        PDZ_HUF1(b, d[i]); PDZ_HUF1(b, d[i + 1]); PDZ_HUF1(b, d[i + 2]); PDZ_HUF1(b, d[i + 3]);
        i += 4;
    }
    while (i < n) {
        pdz_br_reload(b);
        PDZ_HUF1(b, d[i]);
        i++;
    }
    pdz_br_reload(b);
    return pdz_br_done(b) ? 0 : -1;
}

static int pdz_huf_stream(const pd_zstd_dctx *c, uint8_t *d, size_t n, const uint8_t *s, size_t sn) {
    pdz_br b;
    if (pdz_br_init(&b, s, sn)) return -1;
    return pdz_huf_finish(c, &b, d, n);
}

/* Four streams decoded in lockstep (segment sizes seg, seg, seg, last <= seg). */
static int pdz_huf_4(const pd_zstd_dctx *c, uint8_t *d, size_t seg, size_t last, const uint8_t *p, const size_t *sz) {
    const pd_zstd__huf_entry *t = c->huf;
    unsigned lg = c->huf_log, k;
    pdz_br b0, b1, b2, b3;
    uint8_t *o0 = d, *o1 = d + seg, *o2 = d + 2 * seg, *o3 = d + 3 * seg;
    size_t i = 0;
    if (pdz_br_init(&b0, p, sz[0]) || pdz_br_init(&b1, p + sz[0], sz[1]) ||
        pdz_br_init(&b2, p + sz[0] + sz[1], sz[2]) || pdz_br_init(&b3, p + sz[0] + sz[1] + sz[2], sz[3]))
        return -1;
    while (last - i >= 4) {
        int r0 = pdz_br_reload(&b0), r1 = pdz_br_reload(&b1), r2 = pdz_br_reload(&b2), r3 = pdz_br_reload(&b3);
        if (r0 | r1 | r2 | r3) break;
        for (k = 0; k < 4; k++) {
            PDZ_HUF1(&b0, o0[i + k]); PDZ_HUF1(&b1, o1[i + k]); PDZ_HUF1(&b2, o2[i + k]); PDZ_HUF1(&b3, o3[i + k]);
        }
        i += 4;
    }
    if (pdz_huf_finish(c, &b0, o0 + i, seg - i) || pdz_huf_finish(c, &b1, o1 + i, seg - i) ||
        pdz_huf_finish(c, &b2, o2 + i, seg - i) || pdz_huf_finish(c, &b3, o3 + i, last - i))
        return -1;
    return 0;
}

/* ------------------------------------------------------------- literals */
static int pdz_literals(pd_zstd_dctx *c, const uint8_t *s, size_t n, const uint8_t **lit, size_t *litn,
                        size_t *used) {
    unsigned type, sf;
    size_t hs, size;
    if (n < 1) return PD_ZSTD_E_LITERALS;
    type = s[0] & 3;
    sf = (s[0] >> 2) & 3;
    if (type <= 1) {
        if (sf == 0 || sf == 2) { hs = 1; size = s[0] >> 3; }
        else if (sf == 1) { if (n < 2) return PD_ZSTD_E_LITERALS; hs = 2; size = (s[0] >> 4) + ((size_t)s[1] << 4); }
        else { if (n < 3) return PD_ZSTD_E_LITERALS; hs = 3; size = (s[0] >> 4) + ((size_t)s[1] << 4) + ((size_t)s[2] << 12); }
        if (size > c->block_max) return PD_ZSTD_E_LITERALS;
        if (type == 0) {
            if (size > n - hs) return PD_ZSTD_E_LITERALS;
            pdz_copy(c->lit, s + hs, size);
            *lit = c->lit;
            *used = hs + size;
        } else {
            if (n - hs < 1) return PD_ZSTD_E_LITERALS;
            pdz_fill(c->lit, s[hs], size);
            *lit = c->lit;
            *used = hs + 1;
        }
        *litn = size;
        return 0;
    } else {
        size_t regen, comp, cn;
        const uint8_t *p;
        if (sf <= 1) {
            uint32_t v;
            if (n < 3) return PD_ZSTD_E_LITERALS;
            v = pdz_le24(s); hs = 3; regen = (v >> 4) & 0x3FF; comp = (v >> 14) & 0x3FF;
        } else if (sf == 2) {
            uint32_t v;
            if (n < 4) return PD_ZSTD_E_LITERALS;
            v = pdz_le32(s); hs = 4; regen = (v >> 4) & 0x3FFF; comp = v >> 18;
        } else {
            uint64_t v;
            if (n < 5) return PD_ZSTD_E_LITERALS;
            v = pdz_le32(s) | ((uint64_t)s[4] << 32); hs = 5;
            regen = (size_t)((v >> 4) & 0x3FFFF); comp = (size_t)((v >> 22) & 0x3FFFF);
        }
        if (regen > c->block_max) return PD_ZSTD_E_LITERALS;
        if (comp > n - hs) return PD_ZSTD_E_LITERALS;
        p = s + hs;
        cn = comp;
        if (type == 2) {
            size_t k = pdz_huf_read(c, p, cn);
            if (!k) return PD_ZSTD_E_HUFFMAN;
            p += k; cn -= k;
        } else if (!c->huf_ok) {
            return PD_ZSTD_E_HUFFMAN;
        }
        if (sf == 0) {
            if (pdz_huf_stream(c, c->lit, regen, p, cn)) return PD_ZSTD_E_HUFFMAN;
        } else {
            size_t s1, s2, s3, s4, seg, last;
            if (cn < 6) return PD_ZSTD_E_HUFFMAN;
            s1 = pdz_le16(p); s2 = pdz_le16(p + 2); s3 = pdz_le16(p + 4);
            if (s1 + s2 + s3 > cn - 6) return PD_ZSTD_E_HUFFMAN;
            s4 = cn - 6 - s1 - s2 - s3;
            seg = (regen + 3) / 4;
            if (3 * seg > regen) return PD_ZSTD_E_HUFFMAN;
            last = regen - 3 * seg;
            p += 6;
            {
                size_t sz[4];
                sz[0] = s1; sz[1] = s2; sz[2] = s3; sz[3] = s4;
                if (pdz_huf_4(c, c->lit, seg, last, p, sz)) return PD_ZSTD_E_HUFFMAN;
            }
        }
        *lit = c->lit;
        *litn = regen;
        *used = hs + comp;
        return 0;
    }
}

/* ------------------------------------------------------------ sequences */
/* Output goes to base[pos..cap); base[lo..pos) is history of this frame. */
static int pdz_sequences(pd_zstd_dctx *c, const uint8_t *s, size_t n, const uint8_t *lit, size_t litn,
                         uint8_t *base, size_t lo, size_t pos, size_t cap, size_t *produced) {
    size_t nseq, hs, p, i;
    unsigned modes;
    long k;
    pdz_br b;
    uint8_t *op = base + pos, *const oend = base + cap, *const hstart = base + lo;
    const uint8_t *lp = lit, *const lend = lit + litn;
    uint32_t llst, ofst, mlst;
    size_t r0, r1, r2;
    if (n < 1) return PD_ZSTD_E_SEQUENCES;
    if (s[0] < 128) { nseq = s[0]; hs = 1; }
    else if (s[0] < 255) { if (n < 2) return PD_ZSTD_E_SEQUENCES; nseq = ((size_t)(s[0] - 128) << 8) + s[1]; hs = 2; }
    else { if (n < 3) return PD_ZSTD_E_SEQUENCES; nseq = s[1] + ((size_t)s[2] << 8) + 0x7F00; hs = 3; }
    if (nseq == 0) {
        if (hs != n) return PD_ZSTD_E_SEQUENCES;
        if (litn > cap - pos) return PD_ZSTD_E_DST_TOO_SMALL;
        pdz_copy(op, lit, litn);
        *produced = litn;
        return 0;
    }
    if (n - hs < 1) return PD_ZSTD_E_SEQUENCES;
    modes = s[hs];
    if (modes & 3) return PD_ZSTD_E_SEQUENCES;
    p = hs + 1;
    k = pdz_seq_table(c->ll, &c->ll_log, &c->ll_ok, 0, modes >> 6, s + p, n - p);
    if (k < 0) return PD_ZSTD_E_FSE;
    p += (size_t)k;
    k = pdz_seq_table(c->of, &c->of_log, &c->of_ok, 1, (modes >> 4) & 3, s + p, n - p);
    if (k < 0) return PD_ZSTD_E_FSE;
    p += (size_t)k;
    k = pdz_seq_table(c->ml, &c->ml_log, &c->ml_ok, 2, (modes >> 2) & 3, s + p, n - p);
    if (k < 0) return PD_ZSTD_E_FSE;
    p += (size_t)k;
    if (pdz_br_init(&b, s + p, n - p)) return PD_ZSTD_E_SEQUENCES;
    llst = pdz_br_read(&b, c->ll_log);
    ofst = pdz_br_read(&b, c->of_log);
    mlst = pdz_br_read(&b, c->ml_log);
    pdz_br_reload(&b);
    r0 = c->rep[0]; r1 = c->rep[1]; r2 = c->rep[2];
    for (i = 0; i < nseq; i++) {
        const pd_zstd__seq_entry *le = &c->ll[llst], *oe = &c->of[ofst], *me = &c->ml[mlst];
        uint32_t ofv = oe->base + pdz_br_read(&b, oe->xbits);
        size_t ml = me->base + pdz_br_read(&b, me->xbits), ll, off;
        pdz_br_reload(&b);
        ll = le->base + pdz_br_read(&b, le->xbits);
        if (ofv > 3) {
            off = ofv - 3; r2 = r1; r1 = r0; r0 = off;
        } else {
            unsigned idx = ofv - 1 + (ll == 0);
            if (idx == 0) off = r0;
            else if (idx == 1) { off = r1; r1 = r0; r0 = off; }
            else if (idx == 2) { off = r2; r2 = r1; r1 = r0; r0 = off; }
            else { off = r0 - 1; if (off == 0) return PD_ZSTD_E_OFFSET; r2 = r1; r1 = r0; r0 = off; }
        }
        if (i + 1 < nseq) {
            llst = le->next + pdz_br_read(&b, le->nbits);
            mlst = me->next + pdz_br_read(&b, me->nbits);
            ofst = oe->next + pdz_br_read(&b, oe->nbits);
        }
        pdz_br_reload(&b);
        if (ll > (size_t)(lend - lp)) return PD_ZSTD_E_SEQUENCES;
        if (ll > (size_t)(oend - op)) return PD_ZSTD_E_DST_TOO_SMALL;
        if ((size_t)(oend - op) - ll >= 32) pdz_wildcopy(op, lp, ll); /* lit buffer has 16 bytes slack */
        else pdz_copy(op, lp, ll);
        op += ll; lp += ll;
        if (ml > (size_t)(oend - op)) return PD_ZSTD_E_DST_TOO_SMALL;
        if (off > (size_t)(op - hstart) || off > c->window_size) return PD_ZSTD_E_OFFSET;
        if (off >= 16 && (size_t)(oend - op) - ml >= 32) pdz_wildcopy(op, op - off, ml);
        else pdz_match(op, off, ml);
        op += ml;
    }
    if (!pdz_br_done(&b)) return PD_ZSTD_E_SEQUENCES;
    if ((size_t)(lend - lp) > (size_t)(oend - op)) return PD_ZSTD_E_DST_TOO_SMALL;
    pdz_copy(op, lp, (size_t)(lend - lp));
    op += lend - lp;
    c->rep[0] = (uint32_t)r0; c->rep[1] = (uint32_t)r1; c->rep[2] = (uint32_t)r2;
    *produced = (size_t)(op - (base + pos));
    return 0;
}

/* Decode one block's content (after the 3-byte header). */
static int pdz_block(pd_zstd_dctx *c, unsigned type, uint32_t bsize, const uint8_t *s, size_t n, uint8_t *base,
                     size_t lo, size_t pos, size_t cap, size_t *produced) {
    if (cap - pos > c->block_max) cap = pos + c->block_max;
    if (type == 0) {
        if (n < bsize) return PD_ZSTD_E_TRUNCATED;
        if (bsize > cap - pos) return PD_ZSTD_E_DST_TOO_SMALL;
        pdz_copy(base + pos, s, bsize);
        *produced = bsize;
        return 0;
    }
    if (type == 1) {
        if (n < 1) return PD_ZSTD_E_TRUNCATED;
        if (bsize > cap - pos) return PD_ZSTD_E_DST_TOO_SMALL;
        pdz_fill(base + pos, s[0], bsize);
        *produced = bsize;
        return 0;
    }
    {
        const uint8_t *lit = 0;
        size_t litn = 0, used = 0;
        int r;
        if (n < bsize) return PD_ZSTD_E_TRUNCATED;
        r = pdz_literals(c, s, bsize, &lit, &litn, &used);
        if (r) return r;
        return pdz_sequences(c, s + used, bsize - used, lit, litn, base, lo, pos, cap, produced);
    }
}

/* ---------------------------------------------------------------- frames */
int pd_zstd_get_frame_info(const void *src, size_t n, pd_zstd_frame_info *fi) {
    const uint8_t *s = (const uint8_t *)src;
    uint32_t magic;
    unsigned fhd, fcs_flag, single, did_flag, p;
    static const unsigned did_size[4] = {0, 1, 2, 4};
    if (!s || !fi) return PD_ZSTD_E_PARAM;
    if (n < 4) return PD_ZSTD_NEED_INPUT;
    magic = pdz_le32(s);
    fi->dict_id = 0; fi->single_segment = 0; fi->has_checksum = 0; fi->window_size = 0;
    if ((magic & 0xFFFFFFF0u) == 0x184D2A50u) {
        if (n < 8) return PD_ZSTD_NEED_INPUT;
        fi->skippable = 1;
        fi->header_size = 8;
        fi->content_size = pdz_le32(s + 4);
        return PD_ZSTD_OK;
    }
    if (magic != 0xFD2FB528u) return PD_ZSTD_E_BAD_MAGIC;
    if (n < 5) return PD_ZSTD_NEED_INPUT;
    fhd = s[4];
    fcs_flag = fhd >> 6;
    single = (fhd >> 5) & 1;
    did_flag = fhd & 3;
    if (fhd & 8) return PD_ZSTD_E_HEADER;
    fi->skippable = 0;
    fi->single_segment = (int)single;
    fi->has_checksum = (fhd >> 2) & 1;
    fi->header_size = 5 + !single + did_size[did_flag] + (fcs_flag == 0 ? single : (1u << fcs_flag));
    if (n < fi->header_size) return PD_ZSTD_NEED_INPUT;
    p = 5;
    if (!single) {
        unsigned wd = s[p++], wlog = 10 + (wd >> 3);
        uint64_t wbase = (uint64_t)1 << wlog;
        fi->window_size = wbase + (wbase >> 3) * (wd & 7);
    }
    switch (did_flag) {
    case 1: fi->dict_id = s[p]; p += 1; break;
    case 2: fi->dict_id = pdz_le16(s + p); p += 2; break;
    case 3: fi->dict_id = pdz_le32(s + p); p += 4; break;
    default: break;
    }
    if (fcs_flag == 0) fi->content_size = single ? s[p] : PD_ZSTD_CONTENT_SIZE_UNKNOWN;
    else if (fcs_flag == 1) fi->content_size = pdz_le16(s + p) + 256u;
    else if (fcs_flag == 2) fi->content_size = pdz_le32(s + p);
    else fi->content_size = pdz_le64(s + p);
    if (single) fi->window_size = fi->content_size;
    return PD_ZSTD_OK;
}

static size_t pdz_win_need(uint64_t w) {
    return (size_t)(w + (w < PD_ZSTD_BLOCK_SIZE_MAX ? w : PD_ZSTD_BLOCK_SIZE_MAX));
}

int pd_zstd_window_buffer_size(const void *src, size_t src_size, size_t *needed) {
    pd_zstd_frame_info fi;
    int r = pd_zstd_get_frame_info(src, src_size, &fi);
    if (r) return r;
    if (!needed) return PD_ZSTD_E_PARAM;
    if (fi.skippable) { *needed = 0; return 0; }
    if (fi.window_size > PD_ZSTD_WINDOW_SIZE_MAX ||
        (uint64_t)(size_t)(fi.window_size * 2) != fi.window_size * 2)
        return PD_ZSTD_E_WINDOW_TOO_LARGE;
    *needed = pdz_win_need(fi.window_size);
    return 0;
}

/* Validate a parsed frame header and reset per-frame state. */
static int pdz_frame_begin(pd_zstd_dctx *c, const pd_zstd_frame_info *fi) {
    if (fi->dict_id) return PD_ZSTD_E_DICTIONARY;
    if (fi->window_size > PD_ZSTD_WINDOW_SIZE_MAX ||
        (uint64_t)(size_t)(fi->window_size * 2) != fi->window_size * 2)
        return PD_ZSTD_E_WINDOW_TOO_LARGE;
    c->window_size = fi->window_size;
    c->content_size = fi->content_size;
    c->has_checksum = fi->has_checksum;
    c->block_max = fi->window_size < PD_ZSTD_BLOCK_SIZE_MAX ? (uint32_t)fi->window_size : PD_ZSTD_BLOCK_SIZE_MAX;
    c->decoded = 0;
    c->rep[0] = 1; c->rep[1] = 4; c->rep[2] = 8;
    c->huf_ok = c->ll_ok = c->of_ok = c->ml_ok = 0;
    pdz_xxh_init(&c->xxh);
    return 0;
}

static int pdz_after_block(pd_zstd_dctx *c, const uint8_t *out, size_t produced) {
    c->decoded += produced;
    if (c->content_size != PD_ZSTD_CONTENT_SIZE_UNKNOWN && c->decoded > c->content_size)
        return PD_ZSTD_E_CONTENT_SIZE;
    if (c->has_checksum && !(c->flags & PD_ZSTD_F_SKIP_CHECKSUM)) pdz_xxh_update(&c->xxh, out, produced);
    return 0;
}

static int pdz_frame_end_check(const pd_zstd_dctx *c) {
    if (c->content_size != PD_ZSTD_CONTENT_SIZE_UNKNOWN && c->decoded != c->content_size)
        return PD_ZSTD_E_CONTENT_SIZE;
    return 0;
}

static int pdz_checksum_check(const pd_zstd_dctx *c, const uint8_t *p) {
    if (c->flags & PD_ZSTD_F_SKIP_CHECKSUM) return 0;
    return (uint32_t)pdz_xxh_digest(&c->xxh) == pdz_le32(p) ? 0 : PD_ZSTD_E_CHECKSUM;
}

/* ------------------------------------------------------------- one shot */
int64_t pd_zstd_decompress_flags(void *dst, size_t dst_cap, const void *src, size_t n, void *ws, size_t ws_size,
                                 unsigned flags) {
    const uint8_t *s = (const uint8_t *)src;
    uint8_t *d = (uint8_t *)dst;
    size_t ip = 0, op = 0, adj;
    pd_zstd_dctx *c;
    static uint8_t dummy[1]; /* stands in for NULL buffers of size 0 (never written) */
    if ((!s && n) || (!d && dst_cap) || !ws) return PD_ZSTD_E_PARAM;
    if (!d) d = dummy;
    adj = (size_t)((16 - ((uintptr_t)ws & 15)) & 15);
    if (ws_size < adj || ws_size - adj < sizeof(pd_zstd_dctx)) return PD_ZSTD_E_WORKSPACE;
    c = (pd_zstd_dctx *)(void *)((uint8_t *)ws + adj);
    c->flags = flags;
    c->error = 0;
    while (ip < n) {
        pd_zstd_frame_info fi;
        size_t lo;
        int r = pd_zstd_get_frame_info(s + ip, n - ip, &fi);
        if (r == PD_ZSTD_NEED_INPUT) return PD_ZSTD_E_TRUNCATED;
        if (r) return r;
        if (fi.skippable) {
            if (fi.content_size > n - ip - 8) return PD_ZSTD_E_TRUNCATED;
            ip += 8 + (size_t)fi.content_size;
            continue;
        }
        r = pdz_frame_begin(c, &fi);
        if (r) return r;
        ip += fi.header_size;
        lo = op;
        for (;;) {
            uint32_t bh, bsize;
            unsigned type;
            size_t produced = 0, csize;
            if (n - ip < 3) return PD_ZSTD_E_TRUNCATED;
            bh = pdz_le24(s + ip);
            ip += 3;
            type = (bh >> 1) & 3;
            bsize = bh >> 3;
            if (type == 3 || bsize > c->block_max) return PD_ZSTD_E_BLOCK;
            csize = type == 1 ? 1 : bsize;
            if (csize > n - ip) return PD_ZSTD_E_TRUNCATED;
            r = pdz_block(c, type, bsize, s + ip, csize, d, lo, op, dst_cap, &produced);
            if (r) return r;
            r = pdz_after_block(c, d + op, produced);
            if (r) return r;
            ip += csize;
            op += produced;
            if (bh & 1) break;
        }
        r = pdz_frame_end_check(c);
        if (r) return r;
        if (c->has_checksum) {
            if (n - ip < 4) return PD_ZSTD_E_TRUNCATED;
            r = pdz_checksum_check(c, s + ip);
            if (r) return r;
            ip += 4;
        }
    }
    return (int64_t)op;
}

int64_t pd_zstd_decompress(void *dst, size_t dst_cap, const void *src, size_t src_size, void *ws, size_t ws_size) {
    return pd_zstd_decompress_flags(dst, dst_cap, src, src_size, ws, ws_size, 0);
}

/* ------------------------------------------------------------ streaming */
enum { PDZ_ST_MAGIC = 0, PDZ_ST_SKIP, PDZ_ST_BLOCK, PDZ_ST_CHECKSUM };

void pd_zstd_dctx_init(pd_zstd_dctx *c, void *window, size_t window_cap, unsigned flags) {
    if (!c) return;
    c->error = 0;
    c->flags = flags;
    c->state = PDZ_ST_MAGIC;
    c->win = (uint8_t *)window;
    c->win_cap = window ? window_cap : 0;
    c->win_pos = c->win_lo = c->flush_pos = c->flush_end = 0;
    c->skip_left = 0;
    c->stage_len = 0;
    c->huf_ok = c->ll_ok = c->of_ok = c->ml_ok = 0;
    c->window_size = 0;
    c->content_size = PD_ZSTD_CONTENT_SIZE_UNKNOWN;
    c->decoded = 0;
    c->block_max = 0;
    c->has_checksum = 0;
}

/* Make the first n bytes of the current unit available contiguously.
 * Returns NULL (after staging all remaining input) if not enough yet. */
static const uint8_t *pdz_peek(pd_zstd_dctx *c, const uint8_t *in, size_t in_size, size_t *used, size_t n) {
    if (c->stage_len == 0 && in_size - *used >= n) return in + *used;
    if (c->stage_len < n) {
        size_t k = n - c->stage_len, a = in_size - *used;
        if (k > a) k = a;
        pdz_copy(c->stage + c->stage_len, in + *used, k);
        c->stage_len += k;
        *used += k;
    }
    return c->stage_len >= n ? c->stage : 0;
}

static void pdz_finish(pd_zstd_dctx *c, size_t *used, size_t n) {
    if (c->stage_len) c->stage_len = 0;
    else *used += n;
}

int pd_zstd_decompress_stream(pd_zstd_dctx *c, const void *in_v, size_t in_size, size_t *in_consumed, void *out_v,
                              size_t out_cap, size_t *out_written) {
    const uint8_t *in = (const uint8_t *)in_v;
    uint8_t *out = (uint8_t *)out_v;
    size_t used = 0, wr = 0;
    int ret;
    if (in_consumed) *in_consumed = 0;
    if (out_written) *out_written = 0;
    static uint8_t dummy[1]; /* stands in for NULL buffers of size 0 (never written) */
    if (!c || (!in && in_size) || (!out && out_cap)) return PD_ZSTD_E_PARAM;
    if (c->error) return c->error;
    if (!in) in = dummy;
    if (!out) out = dummy;
    if (!c->win) c->win = dummy;
    for (;;) {
        const uint8_t *p;
        if (c->flush_pos < c->flush_end) {
            size_t k = c->flush_end - c->flush_pos;
            if (k > out_cap - wr) k = out_cap - wr;
            pdz_copy(out + wr, c->win + c->flush_pos, k);
            wr += k;
            c->flush_pos += k;
            if (c->flush_pos < c->flush_end) { ret = PD_ZSTD_OUTPUT_FULL; break; }
        }
        if (c->state == PDZ_ST_SKIP) {
            size_t k = in_size - used;
            if (k > c->skip_left) k = (size_t)c->skip_left;
            used += k;
            c->skip_left -= k;
            if (c->skip_left) { ret = PD_ZSTD_NEED_INPUT; break; }
            c->state = PDZ_ST_MAGIC;
            continue;
        }
        if (used == in_size) { ret = (c->state == PDZ_ST_MAGIC && c->stage_len == 0) ? PD_ZSTD_OK : PD_ZSTD_NEED_INPUT; break; }
        if (c->state == PDZ_ST_MAGIC) {
            pd_zstd_frame_info fi;
            int r;
            size_t have;
            p = pdz_peek(c, in, in_size, &used, 4);
            if (!p) { ret = PD_ZSTD_NEED_INPUT; break; }
            have = c->stage_len ? c->stage_len : in_size - used;
            r = pd_zstd_get_frame_info(p, have, &fi);
            if (r == PD_ZSTD_NEED_INPUT) {
                /* need the whole header contiguous: peek its exact size */
                size_t want = 8;
                if (pdz_le32(p) == 0xFD2FB528u) {
                    want = 5;
                    if (have >= 5) {
                        static const unsigned dsz[4] = {0, 1, 2, 4};
                        unsigned fhd = p[4], single = (fhd >> 5) & 1, fcs = fhd >> 6;
                        want = 5 + !single + dsz[fhd & 3] + (fcs == 0 ? single : (1u << fcs));
                    }
                }
                p = pdz_peek(c, in, in_size, &used, want);
                if (!p) { ret = PD_ZSTD_NEED_INPUT; break; }
                have = c->stage_len ? c->stage_len : in_size - used;
                r = pd_zstd_get_frame_info(p, have, &fi);
                if (r == PD_ZSTD_NEED_INPUT && want == 5) {
                    unsigned fhd = p[4], single = (fhd >> 5) & 1, fcs = fhd >> 6;
                    static const unsigned dsz2[4] = {0, 1, 2, 4};
                    want = 5 + !single + dsz2[fhd & 3] + (fcs == 0 ? single : (1u << fcs));
                    p = pdz_peek(c, in, in_size, &used, want);
                    if (!p) { ret = PD_ZSTD_NEED_INPUT; break; }
                    have = c->stage_len ? c->stage_len : in_size - used;
                    r = pd_zstd_get_frame_info(p, have, &fi);
                }
                if (r == PD_ZSTD_NEED_INPUT) r = PD_ZSTD_E_HEADER;
            }
            if (r) { ret = r; break; }
            pdz_finish(c, &used, fi.header_size);
            if (fi.skippable) {
                c->skip_left = fi.content_size;
                c->state = PDZ_ST_SKIP;
                continue;
            }
            r = pdz_frame_begin(c, &fi);
            if (r) { ret = r; break; }
            if (pdz_win_need(fi.window_size) > c->win_cap) { ret = PD_ZSTD_E_WINDOW_TOO_LARGE; break; }
            c->win_pos = c->win_lo = c->flush_pos = c->flush_end = 0;
            c->state = PDZ_ST_BLOCK;
            continue;
        }
        if (c->state == PDZ_ST_BLOCK) {
            uint32_t bh, bsize;
            unsigned type;
            size_t csize, produced = 0;
            int r;
            p = pdz_peek(c, in, in_size, &used, 3);
            if (!p) { ret = PD_ZSTD_NEED_INPUT; break; }
            bh = pdz_le24(p);
            type = (bh >> 1) & 3;
            bsize = bh >> 3;
            if (type == 3 || bsize > c->block_max) { ret = PD_ZSTD_E_BLOCK; break; }
            csize = type == 1 ? 1 : bsize;
            p = pdz_peek(c, in, in_size, &used, 3 + csize);
            if (!p) { ret = PD_ZSTD_NEED_INPUT; break; }
            if (c->win_cap - c->win_pos < c->block_max) {
                /* slide: keep the last window_size bytes of this frame */
                size_t have = c->win_pos - c->win_lo, keep = have;
                if (keep > c->window_size) keep = (size_t)c->window_size;
                pdz_copy(c->win, c->win + (c->win_pos - keep), keep); /* forward, may overlap */
                c->win_lo = 0;
                c->win_pos = keep;
            }
            r = pdz_block(c, type, bsize, p + 3, csize, c->win, c->win_lo, c->win_pos, c->win_cap, &produced);
            if (!r) r = pdz_after_block(c, c->win + c->win_pos, produced);
            if (r) { ret = r; break; }
            pdz_finish(c, &used, 3 + csize);
            c->flush_pos = c->win_pos;
            c->flush_end = c->win_pos + produced;
            c->win_pos += produced;
            if (bh & 1) {
                r = pdz_frame_end_check(c);
                if (r) { ret = r; break; }
                c->state = c->has_checksum ? PDZ_ST_CHECKSUM : PDZ_ST_MAGIC;
            }
            continue;
        }
        /* checksum */
        p = pdz_peek(c, in, in_size, &used, 4);
        if (!p) { ret = PD_ZSTD_NEED_INPUT; break; }
        {
            int r = pdz_checksum_check(c, p);
            if (r) { ret = r; break; }
        }
        pdz_finish(c, &used, 4);
        c->state = PDZ_ST_MAGIC;
    }
    if (ret < 0) c->error = ret;
    if (in_consumed) *in_consumed = used;
    if (out_written) *out_written = wr;
    return ret;
}

const char *pd_zstd_error_name(int code) {
    switch (code) {
    case PD_ZSTD_OK: return "ok";
    case PD_ZSTD_NEED_INPUT: return "need input";
    case PD_ZSTD_OUTPUT_FULL: return "output full";
    case PD_ZSTD_E_PARAM: return "bad parameter";
    case PD_ZSTD_E_BAD_MAGIC: return "unknown frame magic";
    case PD_ZSTD_E_HEADER: return "bad frame header";
    case PD_ZSTD_E_DICTIONARY: return "dictionary required (unsupported)";
    case PD_ZSTD_E_WINDOW_TOO_LARGE: return "window too large";
    case PD_ZSTD_E_BLOCK: return "bad block";
    case PD_ZSTD_E_LITERALS: return "bad literals section";
    case PD_ZSTD_E_HUFFMAN: return "bad huffman data";
    case PD_ZSTD_E_FSE: return "bad FSE table";
    case PD_ZSTD_E_SEQUENCES: return "bad sequences";
    case PD_ZSTD_E_OFFSET: return "offset out of range";
    case PD_ZSTD_E_DST_TOO_SMALL: return "destination too small";
    case PD_ZSTD_E_CHECKSUM: return "checksum mismatch";
    case PD_ZSTD_E_TRUNCATED: return "truncated input";
    case PD_ZSTD_E_CONTENT_SIZE: return "content size mismatch";
    case PD_ZSTD_E_WORKSPACE: return "workspace too small";
    default: return "unknown";
    }
}

#ifdef __cplusplus
}
#endif
#endif /* PD_ZSTD_IMPLEMENTATION_DONE */
#endif /* PD_ZSTD_IMPLEMENTATION */
