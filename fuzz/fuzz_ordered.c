/* fuzz_ordered.c - libFuzzer target: the input as a perf.data file read in
   time order (perfdata_ordered_next) through a reorder window of only 2
   entries, grown with perfdata_ordered_grow each time a round needs more
   (PERFDATA_NEED_MEMORY, err.needed), so the queue's move and the resumed
   call are exercised on every input. Every record released goes through its
   decoder (decode_all's da_record) and perfdata_record_time; every record
   must be released exactly once.
   Build: clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I. -Itools -DPD_FUZZ_LIBFUZZER fuzz/fuzz_ordered.c -o build/fuzz/fuzz_ordered
   Replay (no libFuzzer): clang -g -O0 -fsanitize=address,undefined -fno-sanitize-recover=all -I. -Itools fuzz/fuzz_ordered.c -o build/fuzz/replay_ordered */
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"
#include "fuzz/decode_all.h"

#include <stdlib.h>

#ifdef __cplusplus
extern "C"
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ORDER_MAX_WINDOW 65536

#ifdef __cplusplus
extern "C"
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static perfdata_event events[DA_MAX_EVENTS];
    static perfdata_id_entry ids[1024];
    perfdata_file f;
    perfdata_cursor c;
    perfdata_ordered o;
    perfdata_record rec;
    perfdata_error err;
    perfdata_order_entry *window;
    size_t cap = 2;
    unsigned long released = 0;
    volatile uint64_t sink = 0;
    if (perfdata_open(&f, data, size, events, DA_MAX_EVENTS, &err) != PERFDATA_OK) return 0;
    if (perfdata_id_index_needed(&f) <= 1024) perfdata_set_id_index(&f, ids, 1024, &err);
    (void)perfdata_ordered_window_hint(&f);
    perfdata_cursor_init(&f, &c);
    window = (perfdata_order_entry *)malloc(cap * sizeof *window);
    if (!window) return 0;
    perfdata_ordered_init(&o, &c, window, cap);
    for (;;) {
        perfdata_status st = perfdata_ordered_next(&f, &o, &rec, &err);
        if (st == PERFDATA_NEED_MEMORY && o.priv.have_held) { /* the window is full (else: the events table) */
            perfdata_order_entry *bigger;
            size_t need = (size_t)err.needed / sizeof(perfdata_order_entry);
            if (need <= cap || need != o.priv.nr + 1) abort(); /* must ask for more room than it has */
            if (need > ORDER_MAX_WINDOW) break;
            if (need < 2 * cap) need = 2 * cap; /* doubling: growing by one per record is quadratic */
            bigger = (perfdata_order_entry *)malloc(need * sizeof *bigger);
            if (!bigger) break;
            if (perfdata_ordered_grow(&o, bigger, need, &err) != PERFDATA_OK) abort(); /* need >= o.priv.nr */
            free(window);
            window = bigger;
            cap = need;
            continue;
        }
        if (st != PERFDATA_OK) break;
        if (++released > size / 8 + 1) abort(); /* more records out than fit in the input */
        sink = sink + da_record(&f, &rec) + perfdata_record_time(&f, &rec);
    }
    (void)sink;
    free(window);
    return 0;
}

#include "fuzz/fuzz_main.h"
