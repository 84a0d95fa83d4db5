/* fuzz_features.c - libFuzzer target: one feature section. The first byte
   picks the decoder: bits 0-5 the feature id (0..63: every
   perfdata_decode_feat_* and the BUILD_ID walk of perfdata_build_id_next;
   ids without a decoder hash the bytes), bits 6-7 the nr_cpus given to
   CPU_TOPOLOGY (0, 1, 4, 100000). The rest is the section, decoded in both
   byte orders, every list walked to its end with its iterator.
   Build: clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I. -Itools -DPD_FUZZ_LIBFUZZER fuzz/fuzz_features.c -o build/fuzz/fuzz_features
   Replay (no libFuzzer): clang -g -O0 -fsanitize=address,undefined -fno-sanitize-recover=all -I. -Itools fuzz/fuzz_features.c -o build/fuzz/replay_features */
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"
#include "fuzz/decode_all.h"
#include "fuzz/decode_feat.h"

#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C"
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifdef __cplusplus
extern "C"
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const uint32_t nr_cpus[4] = {0, 1, 4, 100000};
    volatile uint64_t sink;
    perfdata_view sec;
    unsigned char *copy;
    if (size < 1) return 0;
    /* the section in its own allocation, so a read past its end is caught */
    copy = (unsigned char *)malloc(size - 1 ? size - 1 : 1);
    if (!copy) return 0;
    if (size > 1) memcpy(copy, data + 1, size - 1);
    sec.p = copy;
    sec.n = size - 1;
    sec.offset = 1;
    sink = df_feature(data[0] & 63u, sec, 0, nr_cpus[data[0] >> 6]);
    sink = sink + df_feature(data[0] & 63u, sec, 1, nr_cpus[data[0] >> 6]);
    if (df_steps_over) abort(); /* an iterator yields more elements than bytes */
    (void)sink;
    free(copy);
    return 0;
}

#include "fuzz/fuzz_main.h"
