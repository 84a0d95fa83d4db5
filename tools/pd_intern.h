/* pd_intern.h - the tools' one string table: each distinct text is stored
   once, so equal texts are the same pointer and the pointer can be a key
   (grouping rows by comm, dso or symbol name compares pointers). Exact:
   open addressing on a 64-bit FNV-1a hash, compared in full. */
#ifndef PD_INTERN_H
#define PD_INTERN_H

#include <stddef.h>
#include <stdint.h>

typedef struct pd_intern {
    char **slots;              /* open addressing; NULL is empty */
    uint64_t *hashes;          /* the hash of each slot's text */
    size_t n, cap;
} pd_intern;

/* FNV-1a over n bytes. */
uint64_t pd_hash_bytes(const void *p, size_t n);
/* The one copy of the n bytes at s (a NUL is added; the text stops at an
   embedded NUL, as C strings do). Aborts when out of memory. */
const char *pd_intern_n(pd_intern *t, const char *s, size_t n);
const char *pd_intern_str(pd_intern *t, const char *s);
void pd_intern_free(pd_intern *t);

#endif
