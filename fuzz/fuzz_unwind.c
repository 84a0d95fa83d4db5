/* fuzz_unwind.c - libFuzzer target for tools/pd_unwind.c: the input as an
   object's .eh_frame (with itself as .eh_frame_hdr), as its .debug_frame,
   and as arm32's .ARM.exidx (with its second half as .ARM.extab), in both
   byte orders and both address sizes, looked up at addresses taken from
   it; each rule found applied to registers and a stack copy taken from
   the input, in perf's reading and the strict one; and whole stacks
   unwound through those rules, as x86-64 (the pc the return address
   column), aarch64 (the pc in its own slot) and arm32 (PD_UNWIND_ARM).
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

/* the object's bytes: the input's, from address 0x1000 on */
static const uint8_t *code_data;
static size_t code_size;
static int code(void *ctx, uint64_t addr, unsigned char *buf, size_t n) {
    (void)ctx;
    if (addr < 0x1000 || addr - 0x1000 > code_size || code_size - (addr - 0x1000) < n) return 0;
    memcpy(buf, code_data + (addr - 0x1000), n);
    return 1;
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
    static pd_cfi_fde index[4096];
    for (mode = 0; mode < 5; mode++) {
        for (big = 0; big < 2; big++) {
            for (a8 = 0; a8 < 2; a8++) {
                memset(&c, 0, sizeof c);
                c.big_endian = big;
                c.addr_size = a8 ? 8 : 4;
                if (mode == 0 || mode == 1 || mode == 4) {
                    c.eh_frame = data;
                    c.eh_frame_n = size;
                    c.eh_frame_addr = 0x1000;
                }
                if (mode == 1) {
                    c.eh_frame_hdr = data;
                    c.eh_frame_hdr_n = size;
                    c.eh_frame_hdr_addr = 0x800;
                }
                if (mode == 2 || mode == 4) {
                    c.debug_frame = data;
                    c.debug_frame_n = size;
                }
                if (mode == 4) { /* both, through the FDE index (when it fits) */
                    size_t have = pd_cfi_index(&c, index, sizeof index / sizeof index[0]);
                    if (have <= sizeof index / sizeof index[0]) {
                        for (i = 0; i + 1 < have; i++)
                            if (index[i].start > index[i + 1].start || index[i].end <= index[i].start) abort();
                        c.index = index;
                        c.index_n = have;
                    }
                }
                if (mode == 3) {
                    c.arm_exidx = data;
                    c.arm_exidx_n = size;
                    c.arm_exidx_addr = 0x1000;
                    c.arm_extab = data + size / 2;
                    c.arm_extab_n = size - size / 2;
                    c.arm_extab_addr = 0x1000 + size / 2;
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
                        /* x86-64 (a8, the pc in the return address column), arm32 (!a8, r15);
                           aarch64's own slot (32) in the strict reading of 64-bit */
                        unsigned sp_reg = a8 ? (perf ? PD_X86_64_SP : PD_AARCH64_SP) : PD_ARM_SP;
                        unsigned pc_reg = a8 ? (perf ? row.ra : PD_AARCH64_PC) : PD_ARM_PC;
                        unsigned flags = (perf ? PD_UNWIND_PERF : 0) | (a8 ? 0 : PD_UNWIND_ARM);
                        uint64_t perf_regs[PD_CFI_REGS];
                        for (i = 0; i < PD_CFI_REGS; i++)
                            perf_regs[i] = 0x7000 + i * 8 + (size ? data[i % size] : 0);
                        if (a8) pd_unwind_regs_aarch64(perf_regs, ~(uint64_t)0, &regs);
                        else pd_unwind_regs_arm(perf_regs, ~(uint64_t)0, &regs);
                        if (a8 && perf) { /* x86-64: every kept register known */
                            for (i = 0; i < PD_CFI_REGS; i++) {
                                regs.v[i] = perf_regs[i];
                                regs.valid |= (uint64_t)1 << i;
                            }
                        }
                        stack.p = data;
                        stack.n = size;
                        stack.sp = 0x7000;
                        stack.big_endian = big;
                        stack.addr_size = c.addr_size;
                        stack.perf = perf;
                        stack.mapped = perf ? mapped : NULL;
                        stack.code = perf ? code : NULL;
                        stack.ctx = NULL;
                        code_data = data;
                        code_size = size;
                        if (pd_unwind_step(&row, &regs, pc_reg, sp_reg, &stack) == 1 &&
                            (!((regs.valid >> pc_reg) & 1) || regs.v[pc_reg] != regs.v[row.ra]))
                            abort(); /* a step gives the caller's pc in both places */
                        regs.v[pc_reg] = pc;
                        regs.valid |= (uint64_t)1 << pc_reg;
                        f.cfi = &c;
                        f.calls = 0;
                        n = pd_unwind(&regs, pc_reg, sp_reg, &stack, lookup, &f, ips, 64, flags);
                        if (n > 64) abort();
                    }
                }
            }
        }
    }
    return 0;
}

#include "fuzz_main.h"
