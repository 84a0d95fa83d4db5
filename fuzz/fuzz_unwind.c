/* fuzz_unwind.c - libFuzzer target for tools/pd_unwind.c: the input as an
   object's .eh_frame (with itself as .eh_frame_hdr) and as its .debug_frame,
   in both byte orders and both address sizes, looked up at addresses taken
   from it; each rule found applied to registers and a stack copy taken
   from the input, in perf's reading and the strict one; and whole stacks
   unwound through those rules.
   Build: clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I. -Itools -D_GNU_SOURCE -DPD_FUZZ_LIBFUZZER fuzz/fuzz_unwind.c tools/pd_unwind.c -o build/fuzz/fuzz_unwind
   Replay (no libFuzzer): clang -g -O0 -fsanitize=address,undefined -fno-sanitize-recover=all -I. -Itools -D_GNU_SOURCE fuzz/fuzz_unwind.c tools/pd_unwind.c -o build/fuzz/replay_unwind */
#include "pd_unwind.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C"
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct fuzz_ctx { const pd_cfi *cfi; int calls; } fuzz_ctx;

static int lookup(void *ctx, uint64_t pc, pd_cfi_row *row) {
    fuzz_ctx *f = (fuzz_ctx *)ctx;
    if (++f->calls > 256) abort(); /* pd_unwind asks once per frame at most */
    return pd_cfi_find(f->cfi, pc, row);
}

static int mapped(void *ctx, uint64_t addr) {
    (void)ctx;
    return (addr & 0xfff) != 0; /* some addresses unmapped */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    pd_cfi c;
    pd_cfi_row row;
    pd_unwind_regs regs;
    pd_unwind_stack stack;
    uint64_t ips[64];
    fuzz_ctx f;
    size_t k, i, n;
    int big, a8, mode, perf;
    for (mode = 0; mode < 3; mode++) {
        for (big = 0; big < 2; big++) {
            for (a8 = 0; a8 < 2; a8++) {
                memset(&c, 0, sizeof c);
                c.big_endian = big;
                c.addr_size = a8 ? 8 : 4;
                if (mode == 0 || mode == 1) {
                    c.eh_frame = data;
                    c.eh_frame_n = size;
                    c.eh_frame_addr = 0x1000;
                }
                if (mode == 1) {
                    c.eh_frame_hdr = data;
                    c.eh_frame_hdr_n = size;
                    c.eh_frame_hdr_addr = 0x800;
                }
                if (mode == 2) {
                    c.debug_frame = data;
                    c.debug_frame_n = size;
                }
                for (k = 0; k < 80; k++) {
                    uint64_t pc = k < 16 ? 0x1000 + k * 7 : 0;
                    if (k >= 16) {
                        size_t at = (k - 16) * 8;
                        if (at + 8 > size) break;
                        memcpy(&pc, data + at, 8);
                        if (!a8) pc &= 0xffffffffu;
                    }
                    if (pd_cfi_find(&c, pc, &row) != 1) continue;
                    if (row.ra >= PD_CFI_REGS) abort();
                    for (perf = 0; perf < 2; perf++) {
                        memset(&regs, 0, sizeof regs);
                        for (i = 0; i < PD_CFI_REGS; i++) {
                            regs.v[i] = 0x7000 + i * 8 + (size ? data[i % size] : 0);
                            regs.valid |= (uint64_t)1 << i;
                        }
                        stack.p = data;
                        stack.n = size;
                        stack.sp = 0x7000;
                        stack.big_endian = big;
                        stack.addr_size = c.addr_size;
                        stack.perf = perf;
                        stack.mapped = perf ? mapped : NULL;
                        stack.ctx = NULL;
                        (void)pd_unwind_step(&row, &regs, a8 ? 7 : 13, &stack);
                        regs.v[row.ra] = pc;
                        f.cfi = &c;
                        f.calls = 0;
                        n = pd_unwind(&regs, row.ra, a8 ? 7 : 13, &stack, lookup, &f, ips, 64, perf ? PD_UNWIND_PERF : 0);
                        if (n > 64) abort();
                    }
                }
            }
        }
    }
    return 0;
}

#include "fuzz_main.h"
