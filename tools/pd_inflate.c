/* pd_inflate.c - see pd_inflate.h. Canonical Huffman codes decoded a bit
   at a time from counts per length (as RFC 1951 defines them), which needs
   no tables beyond the counts and the sorted symbols; stored, fixed and
   dynamic blocks; lengths and distances checked against what was written. */
#include "pd_inflate.h"

#include <stdint.h>
#include <string.h>

#define MAXBITS 15

typedef struct inf {
    const unsigned char *in;
    size_t n, pos;
    uint32_t bitbuf;
    int bitcnt;
    unsigned char *out;
    size_t cap, len;
    int bad;
} inf;

typedef struct huff {
    short count[MAXBITS + 1];
    short symbol[288];
} huff;

static unsigned bits(inf *s, int need) {
    uint32_t v = s->bitbuf;
    while (s->bitcnt < need) {
        if (s->pos >= s->n) { s->bad = 1; return 0; }
        v |= (uint32_t)s->in[s->pos++] << s->bitcnt;
        s->bitcnt += 8;
    }
    s->bitbuf = need < 32 ? v >> need : 0;
    s->bitcnt -= need;
    return (unsigned)(v & ((1u << need) - 1));
}

static int decode(inf *s, const huff *h) {
    int code = 0, first = 0, index = 0, len;
    for (len = 1; len <= MAXBITS; len++) {
        int count;
        code |= (int)bits(s, 1);
        if (s->bad) return -1;
        count = h->count[len];
        if (code - count < first) return h->symbol[index + (code - first)];
        index += count;
        first += count;
        first <<= 1;
        code <<= 1;
    }
    s->bad = 1;
    return -1;
}

/* 0, or -1 for an over-subscribed set of lengths (incomplete sets are
   allowed: a code that was not assigned fails in decode) */
static int construct(huff *h, const short *length, int n) {
    short offs[MAXBITS + 1];
    int sym, len, left = 1;
    for (len = 0; len <= MAXBITS; len++) h->count[len] = 0;
    for (sym = 0; sym < n; sym++) h->count[length[sym]]++;
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
    return 0;
}

static const short lbase[29] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
                                35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const short lext[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const unsigned short dbase[30] = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
                                         257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const short dext[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

static int codes(inf *s, const huff *lencode, const huff *distcode) {
    for (;;) {
        int sym = decode(s, lencode);
        if (s->bad || sym < 0) return -1;
        if (sym < 256) {
            if (s->len == s->cap) return -1;
            s->out[s->len++] = (unsigned char)sym;
        } else if (sym == 256) {
            return 0;
        } else {
            size_t len, dist;
            sym -= 257;
            if (sym >= 29) return -1;
            len = (size_t)lbase[sym] + bits(s, lext[sym]);
            sym = decode(s, distcode);
            if (s->bad || sym < 0 || sym >= 30) return -1;
            dist = (size_t)dbase[sym] + bits(s, dext[sym]);
            if (s->bad || dist > s->len || len > s->cap - s->len) return -1;
            while (len--) {
                s->out[s->len] = s->out[s->len - dist];
                s->len++;
            }
        }
    }
}

static int stored(inf *s) {
    unsigned len;
    s->bitbuf = 0;
    s->bitcnt = 0;
    if (s->n - s->pos < 4) return -1;
    len = s->in[s->pos] | (unsigned)s->in[s->pos + 1] << 8;
    if ((s->in[s->pos + 2] ^ 0xff) != (len & 0xff) || (s->in[s->pos + 3] ^ 0xff) != (len >> 8)) return -1;
    s->pos += 4;
    if (len > s->n - s->pos || len > s->cap - s->len) return -1;
    if (len) memcpy(s->out + s->len, s->in + s->pos, len);
    s->pos += len;
    s->len += len;
    return 0;
}

static int fixed(inf *s) {
    huff lencode, distcode; /* built per block: no state shared between threads */
    short lengths[288];
    int sym;
    for (sym = 0; sym < 144; sym++) lengths[sym] = 8;
    for (; sym < 256; sym++) lengths[sym] = 9;
    for (; sym < 280; sym++) lengths[sym] = 7;
    for (; sym < 288; sym++) lengths[sym] = 8;
    construct(&lencode, lengths, 288);
    for (sym = 0; sym < 30; sym++) lengths[sym] = 5;
    construct(&distcode, lengths, 30);
    return codes(s, &lencode, &distcode);
}

static int dynamic(inf *s) {
    static const short order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    short lengths[288 + 32];
    huff lencode, distcode;
    int nlen = (int)bits(s, 5) + 257, ndist = (int)bits(s, 5) + 1, ncode = (int)bits(s, 4) + 4, index;
    if (s->bad || nlen > 286 || ndist > 30) return -1;
    for (index = 0; index < ncode; index++) lengths[order[index]] = (short)bits(s, 3);
    for (; index < 19; index++) lengths[order[index]] = 0;
    if (s->bad || construct(&lencode, lengths, 19) != 0) return -1;
    index = 0;
    while (index < nlen + ndist) {
        int sym = decode(s, &lencode), len = 0, rep;
        if (s->bad || sym < 0) return -1;
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
    if (construct(&lencode, lengths, nlen) != 0 || construct(&distcode, lengths + nlen, ndist) != 0) return -1;
    return codes(s, &lencode, &distcode);
}

int pd_zlib_inflate(const unsigned char *in, size_t n, unsigned char *out, size_t cap, size_t *written) {
    static unsigned char none[1]; /* no buffer: room for nothing */
    inf s;
    int last;
    uint32_t a = 1, b = 0, want;
    size_t i;
    if (!in || n < 6 || (!out && cap)) return -1;
    if (!out) out = none;
    if ((in[0] & 0x0f) != 8 || (in[0] >> 4) > 7 || ((unsigned)in[0] << 8 | in[1]) % 31 != 0 || (in[1] & 0x20))
        return -1; /* not deflate, or a preset dictionary */
    memset(&s, 0, sizeof s);
    s.in = in;
    s.n = n - 4; /* the Adler-32 trailer */
    s.pos = 2;
    s.out = out;
    s.cap = cap;
    do {
        int type, rc;
        last = (int)bits(&s, 1);
        type = (int)bits(&s, 2);
        if (s.bad) return -1;
        if (type == 0) rc = stored(&s);
        else if (type == 1) rc = fixed(&s);
        else if (type == 2) rc = dynamic(&s);
        else rc = -1;
        if (rc != 0 || s.bad) return -1;
    } while (!last);
    for (i = 0; i < s.len; i++) { /* Adler-32 */
        a = (a + out[i]) % 65521u;
        b = (b + a) % 65521u;
    }
    want = (uint32_t)in[n - 4] << 24 | (uint32_t)in[n - 3] << 16 | (uint32_t)in[n - 2] << 8 | in[n - 1];
    if ((b << 16 | a) != want) return -1;
    if (written) *written = s.len;
    return 0;
}
