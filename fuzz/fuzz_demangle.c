/* fuzz_demangle.c - libFuzzer target for tools/pd_demangle.c: the input,
   cut at its first NUL, demangled with each combination of flags and into
   buffers of several sizes; the result must be a NUL-terminated string of
   the length returned that fits the buffer, and a buffer too small must
   fail rather than cut.
   Build: clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I. -Itools -D_GNU_SOURCE -DPD_FUZZ_LIBFUZZER fuzz/fuzz_demangle.c tools/pd_demangle.c -o build/fuzz/fuzz_demangle
   Replay (no libFuzzer): clang -g -O0 -fsanitize=address,undefined -fno-sanitize-recover=all -I. -Itools -D_GNU_SOURCE fuzz/fuzz_demangle.c tools/pd_demangle.c -o build/fuzz/replay_demangle */
#include "pd_demangle.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C"
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const size_t caps[] = {2, 16, 256, 65536};
    char *name = (char *)malloc(size + 1), *out;
    unsigned flags;
    size_t k;
    if (!name) return 0;
    memcpy(name, data, size);
    name[size] = 0;
    for (flags = 0; flags < 4; flags++) {
        long full = -1;
        for (k = 0; k < sizeof caps / sizeof caps[0]; k++) {
            long n;
            if (!(out = (char *)malloc(caps[k]))) break;
            n = pd_demangle(name, flags, out, caps[k]);
            if (n >= 0 && ((size_t)n >= caps[k] || strlen(out) != (size_t)n)) abort();
            if (k == sizeof caps / sizeof caps[0] - 1) full = n;
            free(out);
        }
        (void)full;
    }
    free(name);
    return 0;
}

#include "fuzz_main.h"
