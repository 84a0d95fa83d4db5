/* fuzz_stream.c - libFuzzer target: perfdata_reader pushed a pipe-mode
   stream in random piece sizes must yield the same record sequence (types,
   offsets, bytes, the final status) as the same bytes given whole, plain
   and in time order, with memory bounded and every byte given handed back.
   The input is prefixed with a pipe-mode header in either byte order (the
   first input byte chooses) when it does not start with one; the piece
   sizes come from a seed in its last bytes.
   Build: clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I. -Itools -DPD_FUZZ_LIBFUZZER fuzz/fuzz_stream.c -o build/fuzz/fuzz_stream
   Replay (no libFuzzer): clang -g -O0 -fsanitize=address,undefined -fno-sanitize-recover=all -I. -Itools fuzz/fuzz_stream.c -o build/fuzz/replay_stream */
#define PERFDATA_ZSTD
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"
#include "fuzz/reader_walk.h"

#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C"
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const unsigned char pipe_le[16] = {'P', 'E', 'R', 'F', 'I', 'L', 'E', '2', 16, 0, 0, 0, 0, 0, 0, 0};
static const unsigned char pipe_be[16] = {'2', 'E', 'L', 'I', 'F', 'R', 'E', 'P', 0, 0, 0, 0, 0, 0, 0, 16};

#define FS_BOUND ((size_t)256 << 20)

static void same(const rw_result *a, const rw_result *b) {
    if (a->records != b->records || a->hash != b->hash || a->end != b->end || a->errors != b->errors ||
        a->nr_events != b->nr_events)
        abort(); /* pushed in pieces, the records differ from the whole walk */
}

#ifdef __cplusplus
extern "C"
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    unsigned char *p;
    size_t n, piece;
    uint32_t seed = 0;
    unsigned flags;
    if (size >= 4) {
        seed = (uint32_t)data[size - 1] | (uint32_t)data[size - 2] << 8 | (uint32_t)data[size - 3] << 16;
        size -= 3;
    }
    if (size >= 16 && (!memcmp(data, "PERFILE2", 8) || !memcmp(data, "2ELIFREP", 8))) {
        if (!(p = (unsigned char *)malloc(size ? size : 1))) return 0;
        memcpy(p, data, size);
        n = size;
    } else {
        if (!(p = (unsigned char *)malloc(size + 16))) return 0;
        memcpy(p, size && (data[0] & 1) ? pipe_be : pipe_le, 16);
        if (size) memcpy(p + 16, data, size);
        n = size + 16;
    }
    piece = 1 + seed % 4096;
    for (flags = 0; flags <= PERFDATA_READ_ORDERED; flags += PERFDATA_READ_ORDERED) {
        rw_result whole = rw_walk(p, n, flags, 0, 0, FS_BOUND);
        if (n >= 16 && (p[8] == 16 || p[15] == 16)) { /* a pipe: pushed too */
            rw_result pushed = rw_walk(p, n, flags, piece, seed, FS_BOUND);
            if (whole.peak < FS_BOUND / 2 && pushed.peak < FS_BOUND / 2) same(&whole, &pushed);
        }
    }
    free(p);
    return 0;
}

#include "fuzz/fuzz_main.h"
