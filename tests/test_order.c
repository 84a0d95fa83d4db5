/* The reorder window protocol of perfdata_ordered_next(): started with a
   one-entry window and grown by exactly what each PERFDATA_NEED_MEMORY asks
   for, the walk must deliver the same records in the same order as with a
   window of perfdata_ordered_window_hint() entries (and as with a huge one),
   every record of the file exactly once. Also: a window of 0 entries, and
   ordering by (time, arrival). Files are given on the command line.
   Prints "N passed, N failed". */
#define PERFDATA_IMPLEMENTATION
#include "../perfdata.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;
#define CHECK(c) do { if (c) passed++; else { failed++; printf("FAIL %s:%d: %s (%s)\n", __FILE__, __LINE__, #c, path); } } while (0)

static perfdata_event events[512];
static uint64_t seq_a[1 << 16], seq_b[1 << 16];

/* Walks `f` in order with an initial window of `cap`; grows on NO_SPACE by
   what is asked when `grow` (else stops there). Returns records seen. */
static size_t walk(perfdata_file *f, size_t cap, int grow, uint64_t *seq, size_t max, size_t *grows, uint64_t *times_sorted_ok) {
    perfdata_cursor c;
    perfdata_ordered o;
    perfdata_record rec;
    perfdata_error err;
    perfdata_status st;
    perfdata_order_entry *w = (perfdata_order_entry *)malloc((cap ? cap : 1) * sizeof *w);
    size_t n = 0;
    uint64_t last_flushed_time = 0;
    perfdata_cursor_init(f, &c);
    perfdata_ordered_init(&o, &c, cap ? w : NULL, cap);
    *grows = 0;
    *times_sorted_ok = 1;
    for (;;) {
        st = perfdata_ordered_next(f, &o, &rec, &err);
        if (st == PERFDATA_NEED_MEMORY && grow) {
            perfdata_order_entry *bigger = (perfdata_order_entry *)malloc((size_t)err.needed);
            if (perfdata_ordered_grow(&o, bigger, (size_t)err.needed / sizeof *bigger, NULL) != PERFDATA_OK) break;
            free(w);
            w = bigger;
            ++*grows;
            continue;
        }
        if (st != PERFDATA_OK) break;
        if (n < max) seq[n] = rec.offset;
        n++;
        if (o.priv.flushing == 2) { /* the final release is in time order */
            uint64_t t = perfdata_record_time(f, &rec);
            if (t && t < last_flushed_time) *times_sorted_ok = 0;
            if (t) last_flushed_time = t;
        }
    }
    free(w);
    return n;
}

static const char *path;

int main(int argc, char **argv) {
    static unsigned char data[32 << 20];
    int i;
    for (i = 1; i < argc; i++) {
        perfdata_file f;
        perfdata_cursor c;
        perfdata_record rec;
        size_t len, hint, n_hint, n_grow, n_big, plain = 0, grows, g2;
        uint64_t sorted1, sorted2;
        FILE *fp = fopen(argv[i], "rb");
        path = argv[i];
        if (!fp) continue;
        len = fread(data, 1, sizeof data, fp);
        fclose(fp);
        if (perfdata_open(&f, data, len, events, 512, NULL) != PERFDATA_OK) continue;
        perfdata_cursor_init(&f, &c);
        while (perfdata_next_record(&f, &c, &rec, NULL) == PERFDATA_OK) plain++;
        hint = perfdata_ordered_window_hint(&f);
        n_hint = walk(&f, hint, 1, seq_a, 1 << 16, &g2, &sorted1);
        n_grow = walk(&f, 1, 1, seq_b, 1 << 16, &grows, &sorted2);
        CHECK(n_hint == plain);            /* every record once */
        CHECK(n_grow == plain);
        CHECK(!memcmp(seq_a, seq_b, (n_hint < (1 << 16) ? n_hint : (1 << 16)) * sizeof seq_a[0]));
        CHECK(sorted1 && sorted2);
        CHECK(g2 == 0 || hint == 0);       /* the hint sufficed for a perf-made file */
        n_big = walk(&f, 1 << 15, 0, seq_b, 1 << 16, &grows, &sorted2);
        CHECK(n_big == plain && !memcmp(seq_a, seq_b, (n_big < (1 << 16) ? n_big : (1 << 16)) * sizeof seq_a[0]));
        if (hint) { /* with no window and no growing, the walk stops with NO_SPACE, no record lost before */
            size_t n0 = walk(&f, 0, 0, seq_b, 1 << 16, &grows, &sorted2);
            CHECK(n0 < plain && !memcmp(seq_a, seq_b, n0 * sizeof seq_a[0]));
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
