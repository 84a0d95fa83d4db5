/* pd_intern.h - the tools' hashes and their one string table.

   Every hash table in the tools is keyed on values read from the file, so
   every hash is keyed too: a seed drawn once per process (getrandom, else
   /dev/urandom, else the clock, the pid and addresses) goes into every
   hash, and the bucket bits depend on every bit of the key. A file cannot
   then be made to put its keys in one bucket. No output may depend on the
   seed: a table's iteration order is never an output order.

   The string table stores each distinct text once, so equal texts are the
   same pointer and the pointer can be a key (grouping rows by comm, dso or
   symbol name compares pointers). Exact: open addressing on the keyed
   hash, compared in full. */
#ifndef PD_INTERN_H
#define PD_INTERN_H

#include <stddef.h>
#include <stdint.h>

/* Out of memory: the tools have no way on. Says so on stderr and exits
   with status 1 (an abort() said nothing). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noreturn))
#endif
void pd_nomem(void);

typedef struct pd_intern {
    char **slots;              /* open addressing; NULL is empty */
    uint64_t *hashes;          /* the hash of each slot's text */
    size_t n, cap;
} pd_intern;

/* The process's seed, drawn on first use (pd_hash_make_key). */
extern uint64_t pd_hash_key[2];
extern int pd_hash_keyed;
void pd_hash_make_key(void);

/* SipHash-1-3 of n bytes under the process's seed. */
uint64_t pd_hash_bytes(const void *p, size_t n);

/* An integer (or pointer) key: the seed, then murmur3's fmix64 finaliser,
   so every bit of x reaches every bit of the result. Inline: the tools
   hash a few integers per sample. */
static inline uint64_t pd_hash_u64(uint64_t x) {
    if (!pd_hash_keyed) pd_hash_make_key();
    x ^= pd_hash_key[0];
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}
/* The one copy of the n bytes at s (a NUL is added; the text stops at an
   embedded NUL, as C strings do). Aborts when out of memory. */
const char *pd_intern_n(pd_intern *t, const char *s, size_t n);
const char *pd_intern_str(pd_intern *t, const char *s);
void pd_intern_free(pd_intern *t);

#endif
