/* fuzz_pipe.c - libFuzzer target: the input as the record stream of a pipe:
   prefixed with a pipe-mode header ("PERFILE2", size 16) in little-endian
   and then in big-endian order, so the fuzzer explores record streams
   (HEADER_ATTR registration, samples, HEADER_FEATURE sections) without
   having to find a valid file header. Every record goes through decode_all;
   every HEADER_FEATURE section through its feature decoder.
   Build: clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I. -Itools -DPD_FUZZ_LIBFUZZER fuzz/fuzz_pipe.c -o build/fuzz/fuzz_pipe
   Replay (no libFuzzer): clang -g -O0 -fsanitize=address,undefined -fno-sanitize-recover=all -I. -Itools fuzz/fuzz_pipe.c -o build/fuzz/replay_pipe */
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

static const unsigned char pipe_le[16] = {'P', 'E', 'R', 'F', 'I', 'L', 'E', '2', 16, 0, 0, 0, 0, 0, 0, 0};
static const unsigned char pipe_be[16] = {'2', 'E', 'L', 'I', 'F', 'R', 'E', 'P', 0, 0, 0, 0, 0, 0, 0, 16};

/* The HEADER_FEATURE records of the stream through their decoders. */
static uint64_t pipe_features(const unsigned char *p, size_t n) {
    static perfdata_event events[DA_MAX_EVENTS];
    perfdata_file f;
    perfdata_cursor c;
    perfdata_record rec;
    perfdata_error err;
    perfdata_header_feature hf;
    uint64_t h = 0;
    unsigned long steps = 0;
    int big;
    if (perfdata_open(&f, p, n, events, DA_MAX_EVENTS, &err) != PERFDATA_OK) return 0;
    big = (f.flags & PERFDATA_FILE_BIG_ENDIAN) != 0;
    perfdata_cursor_init(&f, &c);
    for (;;) {
        perfdata_status st = perfdata_next_record(&f, &c, &rec, &err);
        if (st == PERFDATA_END || st == PERFDATA_NEED_MEMORY || c.priv.stopped != PERFDATA_OK) break;
        if (++steps > n / 8 + 1) abort(); /* a record walk that does not advance */
        if (rec.type == PERFDATA_RECORD_HEADER_FEATURE &&
            perfdata_decode_header_feature(&f, &rec, &hf, &err) == PERFDATA_OK)
            h += df_feature(hf.feat_id < 0x10000 ? (unsigned)hf.feat_id : 0xffffu, hf.data, big, 4096);
    }
    return h;
}

static void run(const unsigned char *hdr, const uint8_t *data, size_t size) {
    unsigned char *p = (unsigned char *)malloc(size + 16);
    unsigned long steps = 0;
    volatile uint64_t sink;
    if (!p) return;
    memcpy(p, hdr, 16);
    if (size) memcpy(p + 16, data, size);
    sink = decode_all(p, size + 16, &steps);
    if (steps > (size + 16) / 8 + 1) abort(); /* a record walk that does not advance */
    sink = sink + pipe_features(p, size + 16);
    if (df_steps_over) abort(); /* an iterator yields more elements than bytes */
    (void)sink;
    free(p);
}

#ifdef __cplusplus
extern "C"
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    run(pipe_le, data, size);
    run(pipe_be, data, size);
    return 0;
}

#include "fuzz/fuzz_main.h"
