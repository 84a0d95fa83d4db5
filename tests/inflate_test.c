/* inflate_test.c - tools/pd_inflate.c against zlib and against the decoder
   it replaced (a bit at a time, puff-style; kept below as ref_inflate):

   1. zlib's deflate at every level and strategy (default, filtered, Huffman
      only, RLE, fixed; stored at level 0) and several window and memory
      sizes, over random, text-like, run-heavy and short-period buffers and
      real DWARF sections, 0 bytes to 4 MiB: the bytes come back; with one
      byte less room, with no buffer (NULL, 0) and with written NULL the
      verdict is the reference's;
   2. every SHF_COMPRESSED zlib section of the ELF files named (ELF32/64,
      both byte orders) = zlib's uncompress, and the reference's;
   3. streams from a small encoder here: dynamic blocks with complete,
      incomplete, over-subscribed and single codes up to 15 bits, fixed
      blocks with the unused symbols 286, 287 and distances 30, 31, stored
      blocks with a bad complement, block type 3, bad headers, distances
      too far back, missing end-of-block codes, trailing bytes;
   4. streams of 1 and 3 truncated at every length, and with bits flipped,
      each with its Adler-32 trailer patched to what the reference decoded
      (so the decode itself is compared, not only the checksum).
   Every case: the same return value as the reference, on success the same
   bytes and *written, nothing written past *written, nothing past cap
   (the buffers are exactly cap bytes under ASan). Ends with "N passed,
   N failed"; fails when no case or no ELF section was checked.
   Build: cc -std=c99 -g -O1 -fsanitize=address,undefined -Itools tests/inflate_test.c tools/pd_inflate.c -lz
   Run: inflate_test ELF... (tests/inflate_test.sh does both) */
#include "pd_inflate.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static unsigned long passed, failed;
#define CHECK(c, ...)                                                                                                  \
    do {                                                                                                               \
        if (c) passed++;                                                                                               \
        else {                                                                                                         \
            if (++failed <= 20) {                                                                                      \
                fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                                                        \
                fprintf(stderr, __VA_ARGS__);                                                                          \
                fputc('\n', stderr);                                                                                   \
            }                                                                                                          \
        }                                                                                                              \
    } while (0)

/* ---- the reference: the previous tools/pd_inflate.c, compacted; check=0
   skips the Adler-32 comparison (to patch mutated streams' trailers) */
typedef struct { const unsigned char *in; size_t n, pos; uint32_t bb; int bc; unsigned char *out; size_t cap, len; int bad; } rs;
typedef struct { short count[16], symbol[288]; } rh;
static unsigned rbits(rs *s, int need) {
    uint32_t v = s->bb;
    while (s->bc < need) {
        if (s->pos >= s->n) { s->bad = 1; return 0; }
        v |= (uint32_t)s->in[s->pos++] << s->bc;
        s->bc += 8;
    }
    s->bb = need < 32 ? v >> need : 0;
    s->bc -= need;
    return (unsigned)(v & ((1u << need) - 1));
}
static int rdecode(rs *s, const rh *h) {
    int code = 0, first = 0, index = 0, len;
    for (len = 1; len <= 15; len++) {
        code |= (int)rbits(s, 1);
        if (s->bad) return -1;
        if (code - h->count[len] < first) return h->symbol[index + (code - first)];
        index += h->count[len]; first += h->count[len]; first <<= 1; code <<= 1;
    }
    s->bad = 1;
    return -1;
}
static int rconstruct(rh *h, const short *length, int n) {
    short offs[16];
    int sym, len, left = 1;
    for (len = 0; len <= 15; len++) h->count[len] = 0;
    for (sym = 0; sym < n; sym++) h->count[length[sym]]++;
    if (h->count[0] == n) return 0;
    for (len = 1; len <= 15; len++) { left <<= 1; left -= h->count[len]; if (left < 0) return -1; }
    offs[1] = 0;
    for (len = 1; len < 15; len++) offs[len + 1] = (short)(offs[len] + h->count[len]);
    for (sym = 0; sym < n; sym++) if (length[sym]) h->symbol[offs[length[sym]]++] = (short)sym;
    return 0;
}
static const short LB[29] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const short LE[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const unsigned short DB[30] = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const short DE[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
static int rcodes(rs *s, const rh *lc, const rh *dc) {
    for (;;) {
        int sym = rdecode(s, lc);
        size_t len, dist;
        if (s->bad || sym < 0) return -1;
        if (sym < 256) { if (s->len == s->cap) return -1; s->out[s->len++] = (unsigned char)sym; continue; }
        if (sym == 256) return 0;
        if ((sym -= 257) >= 29) return -1;
        len = (size_t)LB[sym] + rbits(s, LE[sym]);
        sym = rdecode(s, dc);
        if (s->bad || sym < 0 || sym >= 30) return -1;
        dist = (size_t)DB[sym] + rbits(s, DE[sym]);
        if (s->bad || dist > s->len || len > s->cap - s->len) return -1;
        while (len--) { s->out[s->len] = s->out[s->len - dist]; s->len++; }
    }
}
static int rblock(rs *s, int type) {
    static const short order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    short lengths[320];
    rh lc, dc;
    int sym, nlen, ndist, ncode, index;
    unsigned len;
    if (type == 0) {
        s->bb = 0; s->bc = 0;
        if (s->n - s->pos < 4) return -1;
        len = s->in[s->pos] | (unsigned)s->in[s->pos + 1] << 8;
        if ((s->in[s->pos + 2] ^ 0xff) != (len & 0xff) || (s->in[s->pos + 3] ^ 0xff) != (len >> 8)) return -1;
        s->pos += 4;
        if (len > s->n - s->pos || len > s->cap - s->len) return -1;
        if (len) memcpy(s->out + s->len, s->in + s->pos, len);
        s->pos += len; s->len += len;
        return 0;
    }
    if (type == 1) {
        for (sym = 0; sym < 288; sym++) lengths[sym] = sym < 144 ? 8 : sym < 256 ? 9 : sym < 280 ? 7 : 8;
        rconstruct(&lc, lengths, 288);
        for (sym = 0; sym < 30; sym++) lengths[sym] = 5;
        rconstruct(&dc, lengths, 30);
        return rcodes(s, &lc, &dc);
    }
    nlen = (int)rbits(s, 5) + 257; ndist = (int)rbits(s, 5) + 1; ncode = (int)rbits(s, 4) + 4;
    if (s->bad || nlen > 286 || ndist > 30) return -1;
    for (index = 0; index < 19; index++) lengths[order[index]] = index < ncode ? (short)rbits(s, 3) : 0;
    if (s->bad || rconstruct(&lc, lengths, 19) != 0) return -1;
    index = 0;
    while (index < nlen + ndist) {
        int rep, l = 0;
        sym = rdecode(s, &lc);
        if (s->bad || sym < 0) return -1;
        if (sym < 16) { lengths[index++] = (short)sym; continue; }
        if (sym == 16) { if (!index) return -1; l = lengths[index - 1]; rep = 3 + (int)rbits(s, 2); }
        else if (sym == 17) rep = 3 + (int)rbits(s, 3);
        else rep = 11 + (int)rbits(s, 7);
        if (s->bad || index + rep > nlen + ndist) return -1;
        while (rep--) lengths[index++] = (short)l;
    }
    if (!lengths[256]) return -1;
    if (rconstruct(&lc, lengths, nlen) != 0 || rconstruct(&dc, lengths + nlen, ndist) != 0) return -1;
    return rcodes(s, &lc, &dc);
}
static int ref_inflate(const unsigned char *in, size_t n, unsigned char *out, size_t cap, size_t *written, int check) {
    static unsigned char none[1];
    rs s;
    int last;
    uint32_t a = 1, b = 0;
    size_t i;
    if (!in || n < 6 || (!out && cap)) return -1;
    if (!out) out = none;
    if ((in[0] & 0x0f) != 8 || (in[0] >> 4) > 7 || ((unsigned)in[0] << 8 | in[1]) % 31 != 0 || (in[1] & 0x20)) return -1;
    memset(&s, 0, sizeof s);
    s.in = in; s.n = n - 4; s.pos = 2; s.out = out; s.cap = cap;
    do {
        int type;
        last = (int)rbits(&s, 1);
        type = (int)rbits(&s, 2);
        if (s.bad || type == 3 || rblock(&s, type) != 0 || s.bad) return -1;
    } while (!last);
    for (i = 0; i < s.len; i++) { a = (a + out[i]) % 65521u; b = (b + a) % 65521u; }
    if (check && (b << 16 | a) != ((uint32_t)in[n - 4] << 24 | (uint32_t)in[n - 3] << 16 | (uint32_t)in[n - 2] << 8 | in[n - 1])) return -1;
    if (written) *written = s.len;
    return 0;
}

/* ---- comparing */

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint32_t rnd(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}
static uint32_t below(uint32_t n) { return n ? rnd() % n : 0; }

/* pd_zlib_inflate and ref_inflate on in[0..n) with room for cap bytes (no
   buffer at all when cap is 0 and nobuf): same verdict, same bytes, and
   nothing of ours written past *written */
static void compare(const char *what, const unsigned char *in, size_t n, size_t cap, int nobuf, int with_written) {
    unsigned char *a = nobuf ? NULL : (unsigned char *)malloc(cap ? cap : 1);
    unsigned char *b = (unsigned char *)malloc(cap ? cap : 1);
    size_t wa = (size_t)-1, wb = (size_t)-1, i;
    int ra, rb, clean = 1;
    if ((!a && !nobuf) || !b) { fprintf(stderr, "out of memory\n"); exit(2); }
    if (a) memset(a, 0xa5, cap);
    ra = pd_zlib_inflate(in, n, a, cap, with_written ? &wa : NULL);
    rb = ref_inflate(in, n, nobuf ? NULL : b, cap, &wb, 1);
    if (ra == 0 && with_written) {
        for (i = wa; a && i < cap; i++) clean &= a[i] == 0xa5;
    }
    CHECK(ra == rb && (ra != 0 || !with_written || (wa == wb && wa <= cap && clean && (!wa || !memcmp(a, b, wa)))),
          "%s: n %zu cap %zu%s: ours %d written %zu, reference %d written %zu%s", what, n, cap, nobuf ? " (NULL)" : "",
          ra, wa, rb, wb, clean ? "" : ", wrote past *written");
    free(a);
    free(b);
}

/* the same stream with cap = its size, one byte less, no buffer, and
   *written not asked for */
static void compare_caps(const char *what, const unsigned char *in, size_t n, size_t size) {
    compare(what, in, n, size, 0, 1);
    if (size) compare(what, in, n, size - 1, 0, 1);
    compare(what, in, n, 0, 1, 1);
    compare(what, in, n, size + 1 + below(300), 0, below(4) != 0);
}

/* a mutated zlib stream with its trailer set to the Adler-32 of what the
   reference decodes without checking (when it decodes); compared at a
   room of what it decodes, a little less and a lot more */
static unsigned char scratch[1 << 22];
static void compare_patched(const char *what, unsigned char *in, size_t n) {
    size_t w = 0;
    if (n >= 6 && ref_inflate(in, n, scratch, sizeof scratch, &w, 0) == 0) {
        uLong ad = adler32(adler32(0, NULL, 0), scratch, (uInt)w);
        in[n - 4] = (unsigned char)(ad >> 24);
        in[n - 3] = (unsigned char)(ad >> 16);
        in[n - 2] = (unsigned char)(ad >> 8);
        in[n - 1] = (unsigned char)ad;
        compare(what, in, n, w, 0, 1);
        if (w) compare(what, in, n, w - 1 - below((uint32_t)w), 0, 1);
    }
    compare(what, in, n, w + 64 + below(70000), 0, 1);
}

/* ---- 1. zlib's deflate */

static size_t zcompress(const unsigned char *src, size_t n, unsigned char **dst, int level, int strategy, int wbits, int mem) {
    z_stream z;
    size_t cap;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, level, Z_DEFLATED, wbits, mem, strategy) != Z_OK) exit(2);
    cap = deflateBound(&z, (uLong)n) + 16;
    *dst = (unsigned char *)malloc(cap);
    if (!*dst) exit(2);
    z.next_in = (Bytef *)(uintptr_t)src;
    z.avail_in = (uInt)n;
    z.next_out = *dst;
    z.avail_out = (uInt)cap;
    if (deflate(&z, Z_FINISH) != Z_STREAM_END) exit(2);
    cap = z.total_out;
    deflateEnd(&z);
    return cap;
}

static void fill(unsigned char *p, size_t n, int kind) {
    static const char *words[] = {"DW_TAG_", "subprogram", "variable", " ", "\n", "int", "the ", "unsigned ", "(", ")", "_", "base_type"};
    size_t i = 0, k;
    const char *w;
    while (i < n) {
        switch (kind) {
        case 0: p[i++] = (unsigned char)rnd(); break; /* incompressible */
        case 1: /* text */
            for (w = words[below(12)], k = 0; w[k] && i < n; k++) p[i++] = (unsigned char)w[k];
            for (k = 0; i < n && k < 1 + below(8); k++) p[i++] = (unsigned char)('a' + below(26));
            break;
        case 2: { /* runs: distance 1 */
            unsigned char c = (unsigned char)rnd();
            for (k = 1 + below(below(2) ? 400 : 8); k-- && i < n;) p[i++] = c;
            break;
        }
        default: { /* short periods with noise: distances 2 to 9 */
            size_t period = 2 + below(8), reps = 1 + below(60), j;
            unsigned char pat[10];
            for (j = 0; j < period; j++) pat[j] = (unsigned char)below(kind == 3 ? 4 : 256);
            for (j = 0; j < period * reps && i < n; j++) p[i++] = pat[j % period];
            if (i < n) p[i++] = (unsigned char)rnd();
        }
        }
    }
}

static void zlib_round_trips(const unsigned char *real, size_t real_n) {
    static const size_t sizes[] = {0, 1, 2, 3, 5, 8, 31, 100, 257, 258, 259, 1000, 4096, 32767, 65536 + 7, 300000};
    static const int strategies[] = {Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE, Z_FIXED};
    unsigned char *src = (unsigned char *)malloc(4u << 20), *z;
    size_t si, zn;
    int kind, level, st;
    char what[96];
    if (!src) exit(2);
    for (kind = 0; kind < 6; kind++) {
        for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            size_t n = sizes[si];
            if (kind == 5) { /* real data */
                if (!real_n) continue;
                if (n > real_n) n = real_n;
                memcpy(src, real + below((uint32_t)(real_n - n + 1)), n);
            } else fill(src, n, kind);
            for (level = 0; level <= 9; level++) {
                for (st = 0; st < 5; st++) {
                    int wbits = below(3) ? 15 : 9 + (int)below(7), mem = below(3) ? 8 : 1 + (int)below(9);
                    if ((level == 0 && st) || (n > 40000 && level % 4 != 1)) continue; /* big: levels 1, 5, 9 */
                    zn = zcompress(src, n, &z, level, strategies[st], wbits, mem);
                    snprintf(what, sizeof what, "deflate kind %d level %d strategy %d window %d", kind, level, st, wbits);
                    {
                        unsigned char *out = (unsigned char *)malloc(n ? n : 1);
                        size_t w = 0;
                        int rc = pd_zlib_inflate(z, zn, out, n, &w);
                        CHECK(rc == 0 && w == n && (!n || !memcmp(out, src, n)), "%s, %zu bytes: %d, %zu bytes", what, n, rc, w);
                        free(out);
                    }
                    compare_caps(what, z, zn, n);
                    free(z);
                }
            }
        }
    }
    /* big ones: 1 to 4 MiB, a few levels and strategies */
    for (kind = 0; kind < 6; kind++) {
        size_t n = (1u << 20) + below(3u << 20);
        if (kind == 5) {
            if (!real_n) continue;
            n = real_n < n ? real_n : n;
            memcpy(src, real, n);
        } else fill(src, n, kind);
        for (st = 0; st < 5; st++) {
            level = st ? 6 : (int)below(10);
            zn = zcompress(src, n, &z, level, strategies[st], 15, 8);
            snprintf(what, sizeof what, "big deflate kind %d level %d strategy %d", kind, level, st);
            {
                unsigned char *out = (unsigned char *)malloc(n);
                size_t w = 0;
                int rc = pd_zlib_inflate(z, zn, out, n, &w);
                CHECK(rc == 0 && w == n && !memcmp(out, src, n), "%s, %zu bytes: %d, %zu bytes", what, n, rc, w);
                free(out);
            }
            compare(what, z, zn, n, 0, 1);
            compare(what, z, zn, n - 1, 0, 1);
            free(z);
        }
    }
    free(src);
}

/* ---- 2. ELF sections */

static uint64_t rd(const unsigned char *p, int size, int big) {
    uint64_t v = 0;
    int i;
    for (i = 0; i < size; i++) v |= (uint64_t)p[big ? size - 1 - i : i] << (8 * i);
    return v;
}

static unsigned char *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    unsigned char *p = NULL;
    long sz;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (sz = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (p = (unsigned char *)malloc((size_t)sz + 1)) && fread(p, 1, (size_t)sz, f) != (size_t)sz) {
        free(p);
        p = NULL;
    }
    if (p) *n = (size_t)sz;
    fclose(f);
    return p;
}

static unsigned char *real_data; /* a decompressed section, for kind 5 above */
static size_t real_n;
static unsigned long elf_sections, elf_bytes;

static void elf_file(const char *path, int keep_real) {
    size_t n = 0, i;
    unsigned char *p = slurp(path, &n);
    int c64, big;
    uint64_t shoff, shnum, shentsize;
    if (!p) { CHECK(0, "%s: cannot read", path); return; }
    if (n < 64 || memcmp(p, "\177ELF", 4) != 0 || (p[4] != 1 && p[4] != 2)) { free(p); return; }
    c64 = p[4] == 2;
    big = p[5] == 2;
    shoff = rd(p + (c64 ? 0x28 : 0x20), c64 ? 8 : 4, big);
    shentsize = rd(p + (c64 ? 0x3a : 0x2e), 2, big);
    shnum = rd(p + (c64 ? 0x3c : 0x30), 2, big);
    for (i = 0; i < shnum && shentsize >= (c64 ? 64u : 40u) && shoff <= n && i < (n - shoff) / shentsize; i++) {
        const unsigned char *sh = p + shoff + i * shentsize;
        uint64_t flags = rd(sh + 8, c64 ? 8 : 4, big), off = rd(sh + (c64 ? 0x18 : 0x10), c64 ? 8 : 4, big);
        uint64_t size = rd(sh + (c64 ? 0x20 : 0x14), c64 ? 8 : 4, big), chn = c64 ? 24 : 12, usize;
        unsigned char *out, *zout;
        uLongf zn;
        size_t w = 0;
        int rc;
        if (!(flags & 0x800) || off > n || size > n - off || size < chn) continue; /* SHF_COMPRESSED */
        if (rd(p + off, 4, big) != 1) continue; /* ELFCOMPRESS_ZLIB */
        usize = rd(p + off + (c64 ? 8 : 4), c64 ? 8 : 4, big);
        if (usize > (1u << 30)) continue;
        out = (unsigned char *)malloc(usize ? usize : 1);
        zout = (unsigned char *)malloc(usize ? usize : 1);
        if (!out || !zout) exit(2);
        zn = (uLongf)usize;
        CHECK(uncompress(zout, &zn, p + off + chn, (uLong)(size - chn)) == Z_OK && zn == usize, "%s: section %zu: zlib cannot", path, i);
        rc = pd_zlib_inflate(p + off + chn, size - chn, out, usize, &w);
        CHECK(rc == 0 && w == usize && !memcmp(out, zout, usize), "%s: section %zu (%lu bytes): %d, %zu bytes", path, i, (unsigned long)usize, rc, w);
        compare_caps(path, p + off + chn, size - chn, usize);
        elf_sections++;
        elf_bytes += usize;
        if (keep_real && usize > real_n && usize <= (4u << 20)) {
            free(real_data);
            real_data = zout;
            real_n = usize;
            zout = NULL;
        }
        free(out);
        free(zout);
    }
    free(p);
}

/* ---- 3. streams from an encoder of our own */

typedef struct { unsigned char *p; size_t n, cap; uint64_t acc; int cnt; } bw;
static void put(bw *w, uint32_t v, int n) {
    w->acc |= (uint64_t)v << w->cnt;
    w->cnt += n;
    while (w->cnt >= 8) {
        if (w->n < w->cap) w->p[w->n++] = (unsigned char)w->acc;
        w->acc >>= 8;
        w->cnt -= 8;
    }
}
static void puthuff(bw *w, unsigned code, int len) { /* most significant bit first */
    while (len--) put(w, code >> len & 1, 1);
}
static void align(bw *w) {
    if (w->cnt) put(w, 0, 8 - w->cnt);
}

/* canonical codes for lengths (whatever they are for an over-subscribed set) */
static void canon(const int *len, int n, unsigned *code) {
    unsigned next[17] = {0}, count[17] = {0}, c = 0;
    int i, l;
    for (i = 0; i < n; i++) count[len[i]]++;
    count[0] = 0;
    for (l = 1; l <= 16; l++) next[l] = c = (c + count[l - 1]) << 1;
    for (i = 0; i < n; i++) code[i] = len[i] ? next[len[i]]++ : 0;
}

/* lengths for nsym of n symbols: a random binary tree (deep on purpose),
   then mode 1 drops leaves (incomplete), 2 adds one (over-subscribed),
   3 keeps a single code */
static void random_lengths(int *len, int n, int nsym, int maxlen, int mode) {
    int depth[300], sym[300], count = 1, i, tries;
    if (nsym > n) nsym = n;
    depth[0] = 0;
    for (tries = 0; count < nsym && tries < 100000; tries++) {
        int k = below(2) ? count - 1 : (int)below((uint32_t)count);
        if (depth[k] >= maxlen) continue;
        depth[k]++;
        depth[count++] = depth[k];
    }
    for (i = 0; i < n; i++) { sym[i] = i; len[i] = 0; }
    for (i = n - 1; i > 0; i--) { int j = (int)below((uint32_t)i + 1), t = sym[i]; sym[i] = sym[j]; sym[j] = t; }
    if (mode == 3) count = 1;
    for (i = 0; i < count; i++) len[sym[i]] = depth[i] ? depth[i] : 1;
    if (mode == 1) for (i = 0, tries = 1 + (int)below(4); i < tries && count > 1; i++) len[sym[below((uint32_t)count)]] = 0;
    if (mode == 2 && count < n) len[sym[count]] = 1 + (int)below((uint32_t)maxlen);
}

static void emit_body(bw *w, const int *llen, const unsigned *lcode, int nl, const int *dlen, const unsigned *dcode, int nd, size_t *outn, int wild) {
    int lsyms[288], dsyms[32], nls = 0, nds = 0, i, k, count = (int)below(below(4) ? 64 : 3000);
    for (i = 0; i < nl; i++) if (llen[i] && (i != 256 || wild)) lsyms[nls++] = i;
    for (i = 0; i < nd; i++) if (dlen[i]) dsyms[nds++] = i;
    for (k = 0; k < count && nls; k++) {
        int s = lsyms[below((uint32_t)nls)];
        if (s <= 256 || s > 285 || !nds) {
            puthuff(w, lcode[s], llen[s]);
            if (s == 256) return;
            if (s < 256) (*outn)++;
            continue;
        }
        if (*outn == 0 && !wild) continue;
        puthuff(w, lcode[s], llen[s]);
        put(w, below(1u << LE[s - 257]), LE[s - 257]);
        {   /* a distance within what was written, mostly */
            int d = dsyms[below((uint32_t)nds)], tries;
            for (tries = 0; tries < 8 && d < 30 && DB[d] > *outn && !wild; tries++) d = dsyms[below((uint32_t)nds)];
            puthuff(w, dcode[d], dlen[d]);
            if (d < 30) {
                uint32_t extra = below(1u << DE[d]);
                if (!wild && DB[d] + extra > *outn && *outn >= DB[d]) extra = (uint32_t)(*outn - DB[d]);
                put(w, extra, DE[d]);
            }
            *outn += (size_t)LB[s - 257];
        }
    }
    if (llen[256] && below(16)) puthuff(w, lcode[256], llen[256]);
}

static void emit_dynamic(bw *w, int last, size_t *outn, int wild) {
    static const int order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    int llen[288], dlen[32], cl[19], all[320], nlen, ndist, ncode, i, k;
    unsigned lcode[288], dcode[32], ccode[19];
    int lmode = below(4) ? 0 : (int)below(4), dmode = below(4) ? 0 : (int)below(4);
    random_lengths(llen, 286, 2 + (int)below(285), 15 - (int)below(below(2) ? 1 : 7), lmode);
    if (!llen[256] && below(8)) { llen[256] = llen[0] ? llen[0] : 8; llen[0] = 0; }
    random_lengths(dlen, 30, 1 + (int)below(30), 15 - (int)below(8), dmode);
    if (!below(16)) memset(dlen, 0, sizeof dlen); /* no distance codes */
    for (nlen = 286; nlen > 257 && !llen[nlen - 1]; nlen--) {}
    for (ndist = 30; ndist > 1 && !dlen[ndist - 1]; ndist--) {}
    canon(llen, 286, lcode);
    canon(dlen, 30, dcode);
    for (i = 0; i < nlen; i++) all[i] = llen[i];
    for (i = 0; i < ndist; i++) all[nlen + i] = dlen[i];
    random_lengths(cl, 19, 19, 7, below(8) ? 0 : (int)below(4));
    canon(cl, 19, ccode);
    for (ncode = 19; ncode > 4 && !cl[order[ncode - 1]]; ncode--) {}
    put(w, (uint32_t)last, 1);
    put(w, 2, 2);
    put(w, (uint32_t)(nlen - 257 + (wild && !below(8) ? 29 : 0)) & 31, 5);
    put(w, (uint32_t)(ndist - 1 + (wild && !below(8) ? 30 : 0)) & 31, 5);
    put(w, (uint32_t)(ncode - 4), 4);
    for (i = 0; i < ncode; i++) put(w, (uint32_t)cl[order[i]], 3);
    for (i = 0; i < nlen + ndist;) {
        int v = all[i], run = 1;
        while (i + run < nlen + ndist && all[i + run] == v) run++;
        if (v == 0 && run >= 11 && cl[18]) {
            k = run > 138 ? 138 : run;
            puthuff(w, ccode[18], cl[18]);
            put(w, (uint32_t)(k - 11), 7);
        } else if (v == 0 && run >= 3 && cl[17]) {
            k = run > 10 ? 10 : run;
            puthuff(w, ccode[17], cl[17]);
            put(w, (uint32_t)(k - 3), 3);
        } else if (i && all[i - 1] == v && run >= 3 && cl[16]) {
            k = run > 6 ? 6 : run;
            puthuff(w, ccode[16], cl[16]);
            put(w, (uint32_t)(k - 3), 2);
        } else {
            k = 1;
            puthuff(w, ccode[v], cl[v] ? cl[v] : 1 + (int)below(7)); /* a length the code lacks: garbage */
        }
        i += k;
    }
    emit_body(w, llen, lcode, 286, dlen, dcode, 30, outn, wild);
}

static void emit_fixed(bw *w, int last, size_t *outn, int wild) {
    int llen[288], dlen[32], i;
    unsigned lcode[288], dcode[32];
    for (i = 0; i < 288; i++) llen[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
    for (i = 0; i < 32; i++) dlen[i] = 5;
    canon(llen, 288, lcode);
    canon(dlen, 32, dcode);
    put(w, (uint32_t)last, 1);
    put(w, 1, 2);
    emit_body(w, llen, lcode, wild ? 288 : 286, dlen, dcode, wild ? 32 : 30, outn, wild);
}

static void emit_stored(bw *w, int last, size_t *outn, int wild) {
    unsigned len = below(2) ? below(300) : below(70000) & 0xffff, i;
    put(w, (uint32_t)last, 1);
    put(w, 0, 2);
    align(w);
    put(w, len, 16);
    put(w, (~len & 0xffff) ^ (wild && !below(4) ? 1u << below(16) : 0), 16);
    for (i = 0; i < len; i++) put(w, rnd() & 0xff, 8);
    *outn += len;
}

static size_t make_stream(unsigned char *buf, size_t cap) {
    static const unsigned char headers[][2] = {{0x78, 0x9c}, {0x78, 0x01}, {0x78, 0x5e}, {0x78, 0xda}, {0x08, 0x1d}, {0x68, 0x81}};
    bw w;
    size_t outn = 0;
    int blocks = 1 + (int)below(4), b, wild = !below(4);
    memset(&w, 0, sizeof w);
    w.p = buf;
    w.cap = cap - 4;
    b = (int)below(6);
    put(&w, headers[b][0], 8);
    put(&w, headers[b][1], 8);
    if (wild && !below(8)) w.p[below(2)] ^= (unsigned char)(1u << below(8)); /* a bad header */
    for (b = 0; b < blocks; b++) {
        int last = b == blocks - 1, t = (int)below(8);
        if (t < 5) emit_dynamic(&w, last, &outn, wild);
        else if (t < 7) emit_fixed(&w, last, &outn, wild);
        else if (t < 8 && (!wild || below(8))) emit_stored(&w, last, &outn, wild);
        else { put(&w, (uint32_t)last, 1); put(&w, 3, 2); } /* reserved */
    }
    align(&w);
    for (b = below(4) ? 0 : (int)below(20); b > 0; b--) put(&w, rnd() & 0xff, 8); /* trailing bytes */
    memset(w.p + w.n, 0, 4);
    return w.n + 4;
}

/* ---- 4. truncations and flipped bits */

static void mutate(const char *what, const unsigned char *z, size_t zn, int every_length) {
    unsigned char *m = (unsigned char *)malloc(zn + 4);
    size_t cut, k;
    if (!m) exit(2);
    for (cut = 0; cut < zn; cut += every_length ? 1 : 1 + below((uint32_t)(zn / 64 + 1))) {
        memcpy(m, z, cut);
        compare(what, m, cut, 64 + below(5000), below(8) == 0 && cut < 6, 1); /* as cut */
        memset(m + cut, 0, 4);
        compare_patched(what, m, cut + 4); /* cut, then a trailer that fits */
    }
    for (k = 0; k < (every_length ? 4 * zn : 64u); k++) {
        int flips = 1 + (int)below(3), f;
        memcpy(m, z, zn);
        for (f = 0; f < flips; f++) {
            size_t at = zn > 6 && below(16) ? 2 + below((uint32_t)(zn - 6)) : below((uint32_t)zn);
            m[at] ^= (unsigned char)(1u << below(8));
        }
        compare_patched(what, m, zn);
    }
    free(m);
}

int main(int argc, char **argv) {
    static unsigned char buf[1 << 20];
    int i;
    size_t zn;
    unsigned char *z;
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (i = 1; i < argc; i++) elf_file(argv[i], 1);
    printf("ELF sections: %lu zlib sections from %d files (%lu bytes decompressed), %lu checks\n", elf_sections,
           argc - 1, elf_bytes, passed + failed);
    zlib_round_trips(real_data, real_n);
    printf("after zlib round trips: %lu checks\n", passed + failed);
    for (i = 0; i < 20000; i++) {
        zn = make_stream(buf, sizeof buf);
        compare_patched("encoder", buf, zn);
        if (i < 200) mutate("encoder, mutated", buf, zn, zn < 600);
    }
    printf("after encoder streams: %lu checks\n", passed + failed);
    {
        static const int strategies[] = {Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE, Z_FIXED};
        unsigned char src[3000];
        int st, kind;
        for (kind = 0; kind < 5; kind++) {
            for (st = 0; st < 5; st++) {
                size_t n = 1 + below(sizeof src);
                char what[64];
                fill(src, n, kind);
                if (kind == 4 && real_n) memcpy(src, real_data + below((uint32_t)(real_n - (real_n < n ? real_n : n) + 1)), n < real_n ? n : real_n);
                zn = zcompress(src, n, &z, kind == 0 && st == 0 ? 0 : 1 + (int)below(9), strategies[st], 15, 8);
                snprintf(what, sizeof what, "deflate kind %d strategy %d, mutated", kind, st);
                mutate(what, z, zn, 1);
                free(z);
            }
        }
    }
    printf("after mutations: %lu checks\n", passed + failed);
    if (!elf_sections) CHECK(0, "no SHF_COMPRESSED zlib section in the %d files named", argc - 1);
    if (passed + failed == 0) CHECK(0, "no case checked");
    free(real_data);
    printf("inflate: %lu passed, %lu failed\n", passed, failed);
    return failed != 0;
}
