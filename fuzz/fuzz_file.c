/* fuzz_file.c - libFuzzer target: the input as a perf.data file (either mode,
   either byte order): open, attrs, ids, every record through its decoder,
   every sample and sample_id, every view element, every feature section
   through its decoder and iterators.
   Build: clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I. -Itools -DPD_FUZZ_LIBFUZZER fuzz/fuzz_file.c -o build/fuzz/fuzz_file
   Replay (no libFuzzer): clang -g -O0 -fsanitize=address,undefined -fno-sanitize-recover=all -I. -Itools fuzz/fuzz_file.c -o build/fuzz/replay_file
   Run: build/fuzz/fuzz_file -dict=fuzz/perfdata.dict -max_len=65536 CORPUS_COPY fuzz/corpus/fuzz_file */
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"
#include "fuzz/decode_all.h"
#include "fuzz/decode_feat.h"

#include <stdlib.h>

#ifdef __cplusplus
extern "C"
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifdef __cplusplus
extern "C"
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static perfdata_event events[DA_MAX_EVENTS];
    unsigned long steps = 0;
    volatile uint64_t sink;
    perfdata_file f;
    perfdata_error err;
    sink = decode_all(data, size, &steps);
    if (steps > size / 8 + 1) abort(); /* a record walk that does not advance */
    if (perfdata_open(&f, data, size, events, DA_MAX_EVENTS, &err) == PERFDATA_OK) {
        sink = sink + df_file_features(&f);
        if (df_steps_over) abort(); /* an iterator yields more elements than bytes */
    }
    (void)sink;
    return 0;
}

#include "fuzz/fuzz_main.h"
