/* pd_intern.c - see pd_intern.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "pd_intern.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

/* --- the seed ----------------------------------------------------------- */

uint64_t pd_hash_key[2];
int pd_hash_keyed;

static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int fill_random(unsigned char *buf, size_t n) {
    size_t got = 0;
    int fd;
    struct stat st;
#if defined(__linux__) && defined(SYS_getrandom)
    while (got < n) { /* GRND_NONBLOCK (1): fall through to /dev/urandom rather than wait at boot */
        long r = syscall(SYS_getrandom, buf + got, n - got, 1);
        if (r > 0) got += (size_t)r;
        else if (r < 0 && errno == EINTR) continue;
        else break;
    }
    if (got == n) return 0;
    got = 0;
#endif
    /* not followed into a FIFO that would block, and only a character device is read */
    fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) return -1;
    if (fstat(fd, &st) != 0 || !S_ISCHR(st.st_mode)) {
        close(fd);
        return -1;
    }
    while (got < n) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r > 0) got += (size_t)r;
        else if (r < 0 && errno == EINTR) continue;
        else break;
    }
    close(fd);
    return got == n ? 0 : -1;
}

void pd_hash_make_key(void) {
    unsigned char b[16];
    uint64_t s = 0;
    size_t i;
    if (fill_random(b, sizeof b) == 0) {
        for (i = 0; i < 8; i++) s = s << 8 | b[i];
        pd_hash_key[0] = s;
        for (s = 0; i < 16; i++) s = s << 8 | b[i];
        pd_hash_key[1] = s;
    } else { /* no randomness to be had: what differs between runs */
        int local = 0;
        s = (uint64_t)time(NULL) ^ (uint64_t)clock() << 32 ^ (uint64_t)getpid() << 16 ^ (uint64_t)(uintptr_t)&local ^
            (uint64_t)(uintptr_t)&pd_hash_keyed << 12;
        pd_hash_key[0] = splitmix64(&s);
        pd_hash_key[1] = splitmix64(&s);
    }
    pd_hash_keyed = 1;
}

/* --- the hashes --------------------------------------------------------- */

#define PD_ROTL(x, b) (((x) << (b)) | ((x) >> (64 - (b))))
#define PD_SIPROUND                                                                                                    \
    do {                                                                                                               \
        v0 += v1; v1 = PD_ROTL(v1, 13); v1 ^= v0; v0 = PD_ROTL(v0, 32);                                                \
        v2 += v3; v3 = PD_ROTL(v3, 16); v3 ^= v2;                                                                      \
        v0 += v3; v3 = PD_ROTL(v3, 21); v3 ^= v0;                                                                      \
        v2 += v1; v1 = PD_ROTL(v1, 17); v1 ^= v2; v2 = PD_ROTL(v2, 32);                                                \
    } while (0)

uint64_t pd_hash_bytes(const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    uint64_t v0, v1, v2, v3, m, last = (uint64_t)n << 56;
    size_t i, k, blocks = n / 8;
    if (!pd_hash_keyed) pd_hash_make_key();
    v0 = 0x736f6d6570736575ull ^ pd_hash_key[0];
    v1 = 0x646f72616e646f6dull ^ pd_hash_key[1];
    v2 = 0x6c7967656e657261ull ^ pd_hash_key[0];
    v3 = 0x7465646279746573ull ^ pd_hash_key[1];
    for (i = 0; i < blocks; i++, b += 8) {
        memcpy(&m, b, 8); /* in the host's order: a hash need not agree between hosts */
        v3 ^= m;
        PD_SIPROUND;
        v0 ^= m;
    }
    for (k = 0; k < (n & 7); k++) last |= (uint64_t)b[k] << (8 * k);
    v3 ^= last;
    PD_SIPROUND;
    v0 ^= last;
    v2 ^= 0xff;
    PD_SIPROUND;
    PD_SIPROUND;
    PD_SIPROUND;
    return v0 ^ v1 ^ v2 ^ v3;
}

/* --- the string table --------------------------------------------------- */

static void intern_grow(pd_intern *t) {
    size_t cap = t->cap ? t->cap * 2 : 1024, i, s;
    char **slots = (char **)calloc(cap, sizeof *slots);
    uint64_t *hashes = (uint64_t *)calloc(cap, sizeof *hashes);
    if (!slots || !hashes) pd_nomem();
    for (i = 0; i < t->cap; i++) {
        if (!t->slots[i]) continue;
        for (s = (size_t)t->hashes[i] & (cap - 1); slots[s]; s = (s + 1) & (cap - 1)) {}
        slots[s] = t->slots[i];
        hashes[s] = t->hashes[i];
    }
    free(t->slots);
    free(t->hashes);
    t->slots = slots;
    t->hashes = hashes;
    t->cap = cap;
}

const char *pd_intern_n(pd_intern *t, const char *s, size_t n) {
    const char *nul = (const char *)memchr(s, 0, n);
    uint64_t h;
    size_t i;
    char *c;
    if (nul) n = (size_t)(nul - s);
    h = pd_hash_bytes(s, n);
    if ((t->n + 1) * 2 > t->cap) intern_grow(t);
    for (i = (size_t)h & (t->cap - 1); t->slots[i]; i = (i + 1) & (t->cap - 1))
        if (t->hashes[i] == h && !strncmp(t->slots[i], s, n) && t->slots[i][n] == 0) return t->slots[i];
    c = (char *)malloc(n + 1);
    if (!c) pd_nomem();
    memcpy(c, s, n);
    c[n] = 0;
    t->slots[i] = c;
    t->hashes[i] = h;
    t->n++;
    return c;
}

const char *pd_intern_str(pd_intern *t, const char *s) { return pd_intern_n(t, s, strlen(s)); }

void pd_intern_free(pd_intern *t) {
    size_t i;
    for (i = 0; i < t->cap; i++) free(t->slots[i]);
    free(t->slots);
    free(t->hashes);
    memset(t, 0, sizeof *t);
}

void pd_nomem(void) {
    fputs("perfdata: out of memory\n", stderr);
    exit(1);
}
