/* pd_intern.c - see pd_intern.h. */
#include "pd_intern.h"

#include <stdlib.h>
#include <string.h>

uint64_t pd_hash_bytes(const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    uint64_t h = 1469598103934665603ull;
    size_t i;
    for (i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static void grow(pd_intern *t) {
    size_t cap = t->cap ? t->cap * 2 : 1024, i, s;
    char **slots = calloc(cap, sizeof *slots);
    uint64_t *hashes = calloc(cap, sizeof *hashes);
    if (!slots || !hashes) abort(); /* the tools have no way on without memory */
    for (i = 0; i < t->cap; i++) {
        if (!t->slots[i]) continue;
        for (s = t->hashes[i] & (cap - 1); slots[s]; s = (s + 1) & (cap - 1)) {}
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
    const char *nul = memchr(s, 0, n);
    uint64_t h;
    size_t i;
    char *c;
    if (nul) n = (size_t)(nul - s);
    h = pd_hash_bytes(s, n);
    if ((t->n + 1) * 2 > t->cap) grow(t);
    for (i = h & (t->cap - 1); t->slots[i]; i = (i + 1) & (t->cap - 1))
        if (t->hashes[i] == h && !strncmp(t->slots[i], s, n) && t->slots[i][n] == 0) return t->slots[i];
    c = malloc(n + 1);
    if (!c) abort();
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
