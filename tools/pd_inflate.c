/* pd_inflate.c - see pd_inflate.h. Stored, fixed and dynamic blocks; the
   canonical Huffman codes (RFC 1951 3.2.2) decoded through lookup tables
   indexed by the next LIT_BITS or DIST_BITS bits of a 64-bit bit buffer;
   the rare longer code is decoded from the counts per length (as RFC 1951
   defines them), which also accepts the incomplete codes RFC 1951 allows
   and the zlib format leaves to the decoder.

   Two loops decode the symbols. The fast one runs while at least 8 input
   bytes and 258 output bytes are left: the bit buffer is refilled with one
   8-byte load per symbol, enough for a length, a distance and their extra
   bits, so it needs no other input check. The careful one refills a byte at
   a time, checks every bit it takes, and finishes the block. Whichever runs,
   a stream is accepted exactly when it would be read a bit at a time: no
   bit past in[n-4) (the Adler-32 trailer), no byte past out[cap), and
   nothing is written past the last byte decoded. */
#include "pd_inflate.h"

#include <stdint.h>
#include <string.h>

#define MAXBITS 15
#define LIT_BITS 10  /* lookup table for literals and lengths: 4 KiB */
#define DIST_BITS 8  /* for distances: 1 KiB */
#define MAXMATCH 258 /* the most one symbol writes */

/* A table entry, and what decode_long returns: bits 0-7 how many bits the
   code and its extra bits take, 8-11 the code's own length, 12-15 its kind,
   16-31 the literal or the base of the length or distance. */
enum { K_LIT, K_LEN, K_EOB, K_LONG, K_BAD };
#define E_ALL(e) ((e) & 0xffu)
#define E_CODE(e) ((e) >> 8 & 0xfu)
#define E_KIND(e) ((e) >> 12 & 0xfu)
#define E_VAL(e) ((e) >> 16)
#define E_BAD ((uint32_t)K_BAD << 12)

enum { C_LENS, C_LIT, C_DIST }; /* which alphabet a code is for */

typedef struct huff {
    short count[MAXBITS + 1];
    short symbol[288];
} huff;

typedef struct inf {
    const unsigned char *in;
    size_t end, pos; /* the deflate data is in[pos..end) */
    uint64_t bitbuf; /* bitcnt bits, zero above them (but in fast_codes) */
    unsigned bitcnt;
    unsigned char *out;
    size_t cap, len;
    int bad, fixed_built;
    huff lith, disth;
    uint32_t lit[1u << LIT_BITS], dist[1u << DIST_BITS];
} inf;

static const unsigned short lbase[29] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
                                         35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const unsigned char lext[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const unsigned short dbase[30] = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
                                         257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const unsigned char dext[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

static uint32_t entry(int alphabet, unsigned sym, unsigned len) {
    uint32_t code = (uint32_t)len << 8 | len;
    if (alphabet == C_LIT) {
        if (sym < 256) return (uint32_t)sym << 16 | (uint32_t)K_LIT << 12 | code;
        if (sym == 256) return (uint32_t)K_EOB << 12 | code;
        sym -= 257;
        if (sym >= 29) return E_BAD; /* 286 and 287: only in the fixed code */
        return (uint32_t)lbase[sym] << 16 | (uint32_t)K_LEN << 12 | (code + lext[sym]);
    }
    if (alphabet == C_DIST) {
        if (sym >= 30) return E_BAD; /* 30 and 31: only in the fixed code */
        return (uint32_t)dbase[sym] << 16 | (uint32_t)K_LEN << 12 | (code + dext[sym]);
    }
    return (uint32_t)sym << 16 | (uint32_t)K_LIT << 12 | code;
}

/* the code starting at bit 0 of bits, one bit at a time from the counts per
   length (a code longer than the table's); E_BAD when none is assigned */
static uint32_t decode_long(const huff *h, int alphabet, uint64_t bits) {
    int code = 0, first = 0, index = 0, len;
    for (len = 1; len <= MAXBITS; len++) {
        int count = h->count[len];
        code |= (int)(bits & 1);
        bits >>= 1;
        if (code - count < first) return entry(alphabet, (unsigned)h->symbol[index + (code - first)], (unsigned)len);
        index += count;
        first += count;
        first <<= 1;
        code <<= 1;
    }
    return E_BAD;
}

/* 0, or -1 for an over-subscribed set of lengths. Incomplete sets are
   allowed: a code that was not assigned is E_BAD in the table, or fails in
   decode_long. */
static int build(uint32_t *table, unsigned bits, huff *h, const short *length, int n, int alphabet) {
    short offs[MAXBITS + 1];
    int sym, len, left = 1, index;
    unsigned code = 0, i, size = 1u << bits;
    for (len = 0; len <= MAXBITS; len++) h->count[len] = 0;
    for (sym = 0; sym < n; sym++) h->count[length[sym]]++;
    for (i = 0; i < size; i++) table[i] = E_BAD;
    if (h->count[0] == n) return 0;
    for (len = 1; len <= MAXBITS; len++) {
        left <<= 1;
        left -= h->count[len];
        if (left < 0) return -1;
    }
    offs[1] = 0;
    for (len = 1; len < MAXBITS; len++) offs[len + 1] = (short)(offs[len] + h->count[len]);
    for (sym = 0; sym < n; sym++)
        if (length[sym]) h->symbol[offs[length[sym]]++] = (short)sym;
    /* canonical codes in order of length, then of symbol; the table is
       indexed by the code's bits as they arrive, the first one lowest */
    index = 0;
    for (len = 1; len <= MAXBITS; len++, code <<= 1) {
        int k;
        for (k = 0; k < h->count[len]; k++, code++, index++) {
            unsigned rev = 0, c = code, b;
            int keep = len <= (int)bits ? len : (int)bits;
            if (len > (int)bits) c >>= len - (int)bits; /* the first bits of a longer code */
            for (b = 0; b < (unsigned)keep; b++, c >>= 1) rev = rev << 1 | (c & 1);
            if (len > (int)bits) table[rev] = (uint32_t)K_LONG << 12;
            else {
                uint32_t e = entry(alphabet, (unsigned)h->symbol[index], (unsigned)len);
                for (i = rev; i < size; i += 1u << len) table[i] = e;
            }
        }
    }
    return 0;
}

/* ---- the careful path: a byte at a time, every bit checked */

static void refill(inf *s) { /* to 56 bits or more (at most 63), or to the end */
    while (s->bitcnt < 56 && s->pos < s->end) {
        s->bitbuf |= (uint64_t)s->in[s->pos++] << s->bitcnt;
        s->bitcnt += 8;
    }
}

static unsigned bits(inf *s, unsigned need) {
    unsigned v;
    if (s->bitcnt < need) refill(s);
    if (s->bitcnt < need) {
        s->bad = 1;
        return 0;
    }
    v = (unsigned)(s->bitbuf & (((uint64_t)1 << need) - 1));
    s->bitbuf >>= need;
    s->bitcnt -= need;
    return v;
}

/* the next code's entry, its bits taken; E_BAD when it is not assigned or
   needs a bit past the input. Above bitcnt the buffer is zero, and an entry
   found with those zeros is only taken when its bits were all there. */
static uint32_t decode(inf *s, const uint32_t *table, unsigned tbits, const huff *h, int alphabet) {
    uint32_t e;
    refill(s);
    e = table[s->bitbuf & ((1u << tbits) - 1)];
    if (E_KIND(e) == K_LONG) e = decode_long(h, alphabet, s->bitbuf);
    if (E_KIND(e) == K_BAD || E_CODE(e) > s->bitcnt) return E_BAD;
    s->bitbuf >>= E_CODE(e);
    s->bitcnt -= E_CODE(e);
    return e;
}

/* out[len..len+length) = the bytes dist before, which may overlap them:
   copies of c <= dist bytes, the last one ending at the match's end (it
   rewrites bytes of the match with the same values); nothing written past */
static inline void copy_match(unsigned char *dst, size_t dist, size_t length) {
    unsigned char *last;
    if (dist >= 8 && length >= 8) {
        last = dst + length - 8;
        for (; dst < last; dst += 8) memcpy(dst, dst - dist, 8);
        memcpy(last, last - dist, 8);
    } else if (dist >= 4 && length >= 4) {
        last = dst + length - 4;
        for (; dst < last; dst += 4) memcpy(dst, dst - dist, 4);
        memcpy(last, last - dist, 4);
    } else if (dist == 1) {
        memset(dst, dst[-1], length);
    } else { /* dist 2 or 3, or fewer than 4 bytes: length is at least 3 */
        last = dst + length - 2;
        for (; dst < last; dst += 2) memcpy(dst, dst - dist, 2);
        memcpy(last, last - dist, 2);
    }
}

/* one symbol: 0, 1 at the end of the block, -1 when malformed */
static int careful_symbol(inf *s) {
    size_t length, dist;
    uint32_t e = decode(s, s->lit, LIT_BITS, &s->lith, C_LIT);
    if (E_KIND(e) == K_LIT) {
        if (s->len == s->cap) return -1;
        s->out[s->len++] = (unsigned char)E_VAL(e);
        return 0;
    }
    if (E_KIND(e) == K_EOB) return 1;
    if (E_KIND(e) != K_LEN) return -1;
    length = E_VAL(e) + bits(s, E_ALL(e) - E_CODE(e));
    e = decode(s, s->dist, DIST_BITS, &s->disth, C_DIST);
    if (s->bad || E_KIND(e) != K_LEN) return -1;
    dist = E_VAL(e) + bits(s, E_ALL(e) - E_CODE(e));
    if (s->bad || dist > s->len || length > s->cap - s->len) return -1;
    copy_match(s->out + s->len, dist, length);
    s->len += length;
    return 0;
}

/* ---- the fast path */

static uint64_t load64(const unsigned char *p) {
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
           (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

/* symbols while 8 input bytes and MAXMATCH output bytes are left: 0 when
   they are not, 1 at the end of the block, -1 when malformed. After a
   refill the buffer holds 56 to 63 bits, and a literal or length code with
   its extra bits (15 + 5) and a distance code with its (15 + 13) take at
   most 48. Above bitcnt the buffer holds the next input bytes (the 8-byte
   load's rest), the same bits the next load puts there. */
static int fast_codes(inf *s) {
    const unsigned char *in = s->in;
    unsigned char *out = s->out;
    const uint32_t *lit = s->lit, *distt = s->dist;
    uint64_t bb = s->bitbuf;
    unsigned bc = s->bitcnt;
    size_t pos = s->pos, len = s->len;
    const size_t end = s->end, cap = s->cap;
    int rc = 0;
    while (end - pos >= 8 && cap - len >= MAXMATCH) {
        uint32_t e;
        size_t length, dist;
        bb |= load64(in + pos) << bc;
        pos += (63 - bc) >> 3;
        bc |= 56;
        e = lit[bb & ((1u << LIT_BITS) - 1)];
        if (E_KIND(e) == K_LONG) e = decode_long(&s->lith, C_LIT, bb);
        if (E_KIND(e) == K_LIT) {
            bb >>= E_CODE(e);
            bc -= E_CODE(e);
            out[len++] = (unsigned char)E_VAL(e);
            e = lit[bb & ((1u << LIT_BITS) - 1)]; /* at least 41 bits left: another literal in the table */
            if (E_KIND(e) == K_LIT) {
                bb >>= E_CODE(e);
                bc -= E_CODE(e);
                out[len++] = (unsigned char)E_VAL(e);
            }
            continue;
        }
        if (E_KIND(e) != K_LEN) {
            if (E_KIND(e) == K_EOB) {
                bb >>= E_CODE(e);
                bc -= E_CODE(e);
                rc = 1;
            } else rc = -1;
            break;
        }
        length = E_VAL(e) + (size_t)((bb & (((uint64_t)1 << E_ALL(e)) - 1)) >> E_CODE(e));
        bb >>= E_ALL(e);
        bc -= E_ALL(e);
        e = distt[bb & ((1u << DIST_BITS) - 1)];
        if (E_KIND(e) == K_LONG) e = decode_long(&s->disth, C_DIST, bb);
        if (E_KIND(e) != K_LEN) {
            rc = -1;
            break;
        }
        dist = E_VAL(e) + (size_t)((bb & (((uint64_t)1 << E_ALL(e)) - 1)) >> E_CODE(e));
        bb >>= E_ALL(e);
        bc -= E_ALL(e);
        if (dist > len) {
            rc = -1;
            break;
        }
        copy_match(out + len, dist, length);
        len += length;
    }
    s->bitbuf = bb & (((uint64_t)1 << bc) - 1); /* bc < 64 */
    s->bitcnt = bc;
    s->pos = pos;
    s->len = len;
    return rc;
}

static int codes(inf *s) {
    for (;;) {
        int rc = fast_codes(s);
        if (rc == 0) rc = careful_symbol(s);
        if (rc) return rc > 0 ? 0 : -1;
    }
}

/* ---- blocks */

static int stored(inf *s) {
    unsigned len;
    s->pos -= s->bitcnt >> 3; /* whole bytes read ahead go back; the partial one is dropped */
    s->bitbuf = 0;
    s->bitcnt = 0;
    if (s->end - s->pos < 4) return -1;
    len = s->in[s->pos] | (unsigned)s->in[s->pos + 1] << 8;
    if ((s->in[s->pos + 2] ^ 0xff) != (len & 0xff) || (s->in[s->pos + 3] ^ 0xff) != (len >> 8)) return -1;
    s->pos += 4;
    if (len > s->end - s->pos || len > s->cap - s->len) return -1;
    if (len) memcpy(s->out + s->len, s->in + s->pos, len);
    s->pos += len;
    s->len += len;
    return 0;
}

static int fixed(inf *s) {
    if (!s->fixed_built) { /* built per call: no state shared between threads */
        short lengths[288];
        int sym;
        for (sym = 0; sym < 144; sym++) lengths[sym] = 8;
        for (; sym < 256; sym++) lengths[sym] = 9;
        for (; sym < 280; sym++) lengths[sym] = 7;
        for (; sym < 288; sym++) lengths[sym] = 8;
        build(s->lit, LIT_BITS, &s->lith, lengths, 288, C_LIT);
        for (sym = 0; sym < 30; sym++) lengths[sym] = 5;
        build(s->dist, DIST_BITS, &s->disth, lengths, 30, C_DIST);
        s->fixed_built = 1;
    }
    return codes(s);
}

static int dynamic(inf *s) {
    static const unsigned char order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    short lengths[288 + 32];
    int nlen, ndist, ncode, index;
    s->fixed_built = 0;
    nlen = (int)bits(s, 5) + 257;
    ndist = (int)bits(s, 5) + 1;
    ncode = (int)bits(s, 4) + 4;
    if (s->bad || nlen > 286 || ndist > 30) return -1;
    for (index = 0; index < ncode; index++) lengths[order[index]] = (short)bits(s, 3);
    for (; index < 19; index++) lengths[order[index]] = 0;
    /* the code length code goes in the literal table until it is built */
    if (s->bad || build(s->lit, LIT_BITS, &s->lith, lengths, 19, C_LENS) != 0) return -1;
    index = 0;
    while (index < nlen + ndist) {
        uint32_t e = decode(s, s->lit, LIT_BITS, &s->lith, C_LENS);
        int sym = (int)E_VAL(e), len = 0, rep;
        if (E_KIND(e) == K_BAD) return -1;
        if (sym < 16) {
            lengths[index++] = (short)sym;
            continue;
        }
        if (sym == 16) {
            if (!index) return -1;
            len = lengths[index - 1];
            rep = 3 + (int)bits(s, 2);
        } else if (sym == 17) rep = 3 + (int)bits(s, 3);
        else rep = 11 + (int)bits(s, 7);
        if (s->bad || index + rep > nlen + ndist) return -1;
        while (rep--) lengths[index++] = (short)len;
    }
    if (!lengths[256]) return -1; /* no end-of-block code */
    if (build(s->lit, LIT_BITS, &s->lith, lengths, nlen, C_LIT) != 0 ||
        build(s->dist, DIST_BITS, &s->disth, lengths + nlen, ndist, C_DIST) != 0)
        return -1;
    return codes(s);
}

/* Adler-32, 8 bytes a step: a gains their sum, b eight times a plus their
   sum weighted 8 down to 1 (the same as a byte at a time); both reduced
   every 5552 bytes, before b can overflow */
static uint32_t adler32(const unsigned char *p, size_t n) {
    uint32_t a = 1, b = 0;
    while (n) {
        size_t k = n < 5552 ? n : 5552;
        n -= k;
        for (; k >= 8; k -= 8, p += 8) {
            b += a * 8 + 8u * p[0] + 7u * p[1] + 6u * p[2] + 5u * p[3] + 4u * p[4] + 3u * p[5] + 2u * p[6] + p[7];
            a += (uint32_t)p[0] + p[1] + p[2] + p[3] + p[4] + p[5] + p[6] + p[7];
        }
        for (; k; k--) {
            a += *p++;
            b += a;
        }
        a %= 65521u;
        b %= 65521u;
    }
    return b << 16 | a;
}

int pd_zlib_inflate(const unsigned char *in, size_t n, unsigned char *out, size_t cap, size_t *written) {
    static unsigned char none[1]; /* no buffer: room for nothing */
    inf s;
    unsigned last;
    uint32_t want;
    if (!in || n < 6 || (!out && cap)) return -1;
    if (!out) out = none;
    if ((in[0] & 0x0f) != 8 || (in[0] >> 4) > 7 || ((unsigned)in[0] << 8 | in[1]) % 31 != 0 || (in[1] & 0x20))
        return -1; /* not deflate, or a preset dictionary */
    s.in = in;
    s.end = n - 4; /* the Adler-32 trailer */
    s.pos = 2;
    s.bitbuf = 0;
    s.bitcnt = 0;
    s.out = out;
    s.cap = cap;
    s.len = 0;
    s.bad = 0;
    s.fixed_built = 0;
    do {
        unsigned type;
        int rc;
        last = bits(&s, 1);
        type = bits(&s, 2);
        if (s.bad) return -1;
        if (type == 0) rc = stored(&s);
        else if (type == 1) rc = fixed(&s);
        else if (type == 2) rc = dynamic(&s);
        else rc = -1;
        if (rc != 0 || s.bad) return -1;
    } while (!last);
    want = (uint32_t)in[n - 4] << 24 | (uint32_t)in[n - 3] << 16 | (uint32_t)in[n - 2] << 8 | in[n - 1];
    if (adler32(out, s.len) != want) return -1;
    if (written) *written = s.len;
    return 0;
}
