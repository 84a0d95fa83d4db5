/* Deterministic mutation sweep (run by `make test` under ASan+UBSan): for
   each input file, every truncation length (a dense stride on large files),
   seeded byte and bit flips, and targeted edits of size, count and offset
   fields with hostile values (0, 7, 8, 0xffff, 2^31, 2^32-1, 2^64-1); each
   mutant fully decoded by fuzz/decode_all.h. A record walk that takes more
   steps than the input has 8-byte words is a hang and fails the test.

   Usage: mutate FILE... ; prints "N passed, N failed" (one check per input
   file) and the number of mutants tried. */
#define PERFDATA_IMPLEMENTATION
#include "../perfdata.h"
#include "../fuzz/decode_all.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long mutants;
static int hang;

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng(void) { /* xorshift64*: the sweep is the same every run */
    rng_state ^= rng_state >> 12; rng_state ^= rng_state << 25; rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

static void try_input(const unsigned char *p, size_t n) {
    unsigned long steps = 0;
    volatile uint64_t sink = decode_all(p, n, &steps);
    (void)sink;
    mutants++;
    if (steps > n / 8 + 1) hang = 1;
}

static void put_le(unsigned char *p, uint64_t v, int width) {
    int i;
    for (i = 0; i < width; i++) p[i] = (unsigned char)(v >> (8 * i));
}

/* Offsets of up to `max` record headers of the unmutated input, spread
   evenly over its records: where size, type and count edits hurt most. */
static size_t record_offsets(const unsigned char *p, size_t n, size_t *out, size_t max) {
    static perfdata_event events[DA_MAX_EVENTS];
    perfdata_file f;
    perfdata_cursor c;
    perfdata_record rec;
    size_t total = 0, kept = 0, every;
    if (perfdata_open(&f, p, n, events, DA_MAX_EVENTS, NULL) != PERFDATA_OK) return 0;
    perfdata_cursor_init(&f, &c);
    while (perfdata_next_record(&f, &c, &rec, NULL) == PERFDATA_OK) total++;
    every = total / max + 1;
    perfdata_cursor_init(&f, &c);
    for (total = 0; kept < max && perfdata_next_record(&f, &c, &rec, NULL) == PERFDATA_OK; total++)
        if (total % every == 0) out[kept++] = (size_t)rec.offset;
    return kept;
}

static void sweep(const unsigned char *orig, size_t n) {
    static const uint64_t hostile[] = {0, 7, 8, 0xffff, 1ull << 31, 0xffffffffull, ~0ull};
    static const int widths[] = {2, 4, 8, 8, 8};
    static const size_t at[] = {6, 0, 8, 16, 24}; /* size, type, first body words (counts) */
    static size_t recs[256];
    unsigned char *buf = malloc(n ? n : 1);
    size_t len, stride = n > 16384 ? n / 2048 : 1, i, off, nrec, r;
    int k, w;
    /* every truncation (a dense stride on large files) */
    for (len = 0; len <= n; len += stride) { memcpy(buf, orig, len); try_input(buf, len); }
    /* seeded byte and bit flips */
    for (i = 0; i < (n > 65536 ? 1000u : 3000u) && n; i++) {
        memcpy(buf, orig, n);
        off = (size_t)(rng() % n);
        if (i & 1) buf[off] ^= (unsigned char)(1u << (rng() % 8));
        else buf[off] = (unsigned char)rng();
        try_input(buf, n);
    }
    /* hostile values in every header field */
    for (off = 0; off + 8 <= n && off < 104; off += 8)
        for (k = 0; k < 7; k++) { memcpy(buf, orig, n); put_le(buf + off, hostile[k], 8); try_input(buf, n); }
    /* and in the size, type and count fields of real records */
    nrec = record_offsets(orig, n, recs, sizeof recs / sizeof recs[0]);
    for (r = 0; r < nrec; r++)
        for (w = 0; w < 5; w++) {
            if (recs[r] + at[w] + (size_t)widths[w] > n) continue;
            for (k = 0; k < 7; k++) {
                memcpy(buf, orig, n);
                put_le(buf + recs[r] + at[w], hostile[k], widths[w]);
                try_input(buf, n);
            }
        }
    free(buf);
}

int main(int argc, char **argv) {
    int i, passed = 0, failed = 0;
    for (i = 1; i < argc; i++) {
        FILE *fp = fopen(argv[i], "rb");
        unsigned char *data;
        long size;
        if (!fp) { fprintf(stderr, "cannot open %s\n", argv[i]); failed++; continue; }
        fseek(fp, 0, SEEK_END); size = ftell(fp); fseek(fp, 0, SEEK_SET);
        data = malloc(size > 0 ? (size_t)size : 1);
        if (!data || fread(data, 1, (size_t)size, fp) != (size_t)size) { fclose(fp); failed++; free(data); continue; }
        fclose(fp);
        hang = 0;
        sweep(data, (size_t)size);
        if (hang) { fprintf(stderr, "FAIL %s: a walk took more steps than words\n", argv[i]); failed++; }
        else passed++;
        free(data);
    }
    printf("%lu mutants decoded\n%d passed, %d failed\n", mutants, passed, failed);
    return failed ? 1 : 0;
}
