/* pd_unwind.h - call frame information (.eh_frame with .eh_frame_hdr,
   .debug_frame, and arm32's EHABI tables .ARM.exidx with .ARM.extab) and
   a stack unwinder for `perf record --call-graph dwarf` samples: the
   sampled user registers and the copy of the top of the user stack give
   the caller of each frame by its CFI rules. x86-64, aarch64 and arm32.

   No allocation and no I/O: everything is read in place from buffers the
   caller owns (the ELF sections, the sample's stack copy), every read
   checked against its buffer's bounds, every loop bounded (instructions
   per FDE, expression steps, frames), so that a firmware tool can lift
   these two files as they are. Memory is read only from the stack copy: a
   rule that needs any other address ends the unwinding there.

   Per architecture (pc_reg, sp_reg for pd_unwind; flags):
     x86-64   PD_X86_64_RA, PD_X86_64_SP    the pc is the return address
                                            column (16) itself
     aarch64  PD_AARCH64_PC, PD_AARCH64_SP  the pc is its own slot (DWARF 32);
                                            the CIE's return address column is
                                            x30 (lr)
     arm32    PD_ARM_PC, PD_ARM_SP,         the pc is r15; the return address
              flag PD_UNWIND_ARM            column r14 (lr)
   Where the pc has its own slot, the return address column is a real
   register, and one without a rule still holds the return address (a leaf
   function that has not saved lr): the caller's pc is its value. Where
   they coincide (x86-64), a return address column without a rule ends the
   stack.

   aarch64 pointer authentication (-mbranch-protection=pac-ret):
   DW_CFA_AARCH64_negate_ra_state (0x2d, taken as such where the CIE's
   return address column is x30) toggles pd_cfi_row.ra_signed; a signed
   return address is stripped of its code by clearing bits 48-63 (user
   addresses are below 2^48; a process that maps above it with 52-bit
   addresses is not supported).

   arm32 EHABI ("Exception Handling ABI for the Arm Architecture"): an
   .ARM.exidx entry (the inline compact model, personality 0; or an
   .ARM.extab entry in the compact models 0, 1 and 2, or the generic
   model with its unwind instructions after the personality routine's
   address, as every assembler writes them) is turned into a pd_cfi_row:
   the CFA is the final vsp, as a register plus an offset; each register
   popped is saved at an offset from it; the return address column is r15
   where it is popped, else r14. EXIDX_CANTUNWIND gives a row whose return
   address is undefined (the stack ends). The tables describe a function's
   body: in a prologue or an epilogue they give wrong callers, as they do
   for every EHABI unwinder. VFP and WMMX pops move vsp past their
   bytes; M-profile's return address authentication code (0xb4) is
   skipped the same way. Refused (-1): the "refuse to unwind" and spare
   or reserved instructions, personalities 3-15, a pop of r13, and
   vsp = r[n] after a pop (neither fits a register-plus-offset CFA). The
   tables' addresses are 32-bit: a pc above 2^32 has no entry. */
#ifndef PD_UNWIND_H
#define PD_UNWIND_H

#include <stddef.h>
#include <stdint.h>

/* DWARF register numbers kept: x86-64's 0-16 (16: the return address),
   aarch64's 0-32 (32: the pc), arm's 0-15. */
#define PD_CFI_REGS 33

enum {
    PD_RULE_NONE = 0,           /* no rule: the callee's value (for a return address column, see above) */
    PD_RULE_UNDEFINED,          /* no value: the return address column undefined ends the stack */
    PD_RULE_SAME,               /* the callee's value */
    PD_RULE_OFFSET,             /* saved at CFA + off */
    PD_RULE_VAL_OFFSET,         /* is CFA + off */
    PD_RULE_REGISTER,           /* in register reg */
    PD_RULE_EXPRESSION,         /* saved at the address expr computes (CFA pushed first) */
    PD_RULE_VAL_EXPRESSION,     /* is what expr computes */
    PD_RULE_CFA_REGISTER,       /* the CFA: register reg + off */
    PD_RULE_CFA_EXPRESSION      /* the CFA: what expr computes */
};

typedef struct pd_cfi_rule {
    unsigned char kind;
    unsigned reg;
    int64_t off;
    const unsigned char *expr;
    size_t expr_n;
} pd_cfi_rule;

typedef struct pd_cfi_row {
    pd_cfi_rule cfa;
    pd_cfi_rule reg[PD_CFI_REGS];
    uint64_t ruled;             /* with PD_CFI_RULED: bit i set where reg[i] may have a rule;
                                   the other entries read as PD_RULE_NONE whatever they hold
                                   (pd_cfi_find sets it). 0: every entry is as it is (a row
                                   made by hand) */
    unsigned ra;                /* the return address column */
    int signal;                 /* the CIE's 'S': a signal frame (its pc is not a return address) */
    int ra_signed;              /* aarch64: the return address carries a pointer authentication
                                   code (DW_CFA_AARCH64_negate_ra_state, 0x2d, seen an odd number
                                   of times); pd_unwind_step strips it */
} pd_cfi_row;

#define PD_CFI_RULED ((uint64_t)1 << 63)

/* The kind of register i's rule in row (PD_RULE_NONE past the registers
   kept, or outside the row's mask). */
static inline unsigned pd_cfi_kind(const pd_cfi_row *row, unsigned i) {
    if (i >= PD_CFI_REGS || ((row->ruled & PD_CFI_RULED) && !((row->ruled >> i) & 1))) return PD_RULE_NONE;
    return row->reg[i].kind;
}

/* An FDE's place in an object's index (pd_cfi_index). */
typedef struct pd_cfi_fde {
    uint64_t start, end;        /* the pc range it covers */
    uint64_t reach;             /* the greatest end up to it in the index */
    uint64_t off;               /* its offset in its section */
    unsigned char debug;        /* 1: .debug_frame's, 0: .eh_frame's */
} pd_cfi_fde;

/* An object's call frame information: its sections' bytes and addresses
   (ELF virtual addresses, for pc-relative and data-relative pointers). */
typedef struct pd_cfi {
    const unsigned char *eh_frame;
    size_t eh_frame_n;
    uint64_t eh_frame_addr;
    const unsigned char *eh_frame_hdr;  /* its binary search table; NULL: .eh_frame is scanned */
    size_t eh_frame_hdr_n;
    uint64_t eh_frame_hdr_addr;
    const unsigned char *debug_frame;   /* searched when .eh_frame has no FDE for a pc */
    size_t debug_frame_n;
    const unsigned char *arm_exidx;     /* arm32: .ARM.exidx, searched when neither frame
                                           section has an FDE for a pc; NULL: none */
    size_t arm_exidx_n;
    uint64_t arm_exidx_addr;
    const unsigned char *arm_extab;     /* .ARM.extab, where .ARM.exidx entries point; NULL: none */
    size_t arm_extab_n;
    uint64_t arm_extab_addr;
    const pd_cfi_fde *index;            /* pd_cfi_index's, or NULL: without .eh_frame_hdr (and for
                                           .debug_frame) each lookup reads the FDEs in turn */
    size_t index_n;
    int big_endian;
    int addr_size;                      /* 4 or 8 */
} pd_cfi;

/* The FDEs of c's .eh_frame and .debug_frame (their first 200000 each),
   sorted by pc into out (at most max of them, caller memory): how many
   there are. When that is more than max, out is not sorted: ask again
   with room for all. With it as c->index, a lookup that has no
   .eh_frame_hdr to search costs a binary search, not a pass over the
   section (the first FDE in section order that covers a pc still wins,
   among those starting up to 64 entries below it; a malformed FDE is
   left out, where a pass stops at it). */
size_t pd_cfi_index(const pd_cfi *c, pd_cfi_fde *out, size_t max);
/* The entries pd_cfi_index (and a lookup's scan) looks at in one section,
   at most: it never counts more FDEs than this per section. */
#define PD_CFI_MAX_SCAN 200000

/* 1 and *row: the rules at pc; 0: no FDE covers pc; -1: the FDE that
   covers it is malformed (or its instructions take more than a bound). */
int pd_cfi_find(const pd_cfi *c, uint64_t pc, pd_cfi_row *row);

/* Registers by DWARF number, valid where their bit is set. */
typedef struct pd_unwind_regs {
    uint64_t v[PD_CFI_REGS];
    uint64_t valid;
} pd_unwind_regs;

/* The sample's copy of the user stack: n bytes from address sp. */
typedef struct pd_unwind_stack {
    const unsigned char *p;
    size_t n;
    uint64_t sp;
    int big_endian;
    int addr_size;
    int perf;                   /* read as perf 6.1 does: the copy but its last word; any
                                   other address that mapped says is mapped reads as 0 */
    int (*mapped)(void *ctx, uint64_t addr); /* perf: 1 if a map holds addr; NULL: all do */
    /* perf: 1 and the n bytes of the object mapped at addr (its file's),
       for libunwind's check of a PLT entry where no rules cover a pc;
       NULL: none read */
    int (*code)(void *ctx, uint64_t addr, unsigned char *buf, size_t n);
    void *ctx;
} pd_unwind_stack;

/* One frame back: regs (the callee's) become the caller's by row. 1: done
   (the caller's pc, the return address, is regs->v[row->ra] and
   regs->v[pc_reg]); 0: the stack ends here (the return address is
   undefined, or has no rule where pc_reg is row->ra); -1: a rule cannot be
   followed (a register not known, memory outside the stack copy, a
   malformed expression). */
int pd_unwind_step(const pd_cfi_row *row, pd_unwind_regs *regs, unsigned pc_reg, unsigned sp_reg,
                   const pd_unwind_stack *stack);

/* The rules for pc, from the object mapped there (the caller's lookup):
   1 found; 0 the object has none for pc; -1 no object there. */
typedef int (*pd_unwind_cfi_fn)(void *ctx, uint64_t pc, pd_cfi_row *row);

/* Unwinds from regs: ips[0] is the sampled pc, each later one a caller's
   return address minus 1 (as perf prints them: the call instruction's
   last byte, which names the right line and function). At most max;
   returns how many. Stops where no rule is found or followed, at an
   undefined return address or 0, and where the stack pointer does not
   grow (a loop) -- but for one frame at a time whose return address is
   still in a register (aarch64's and arm's leaf functions: their caller
   may have the same stack pointer). With PD_UNWIND_PERF, as perf 6.1 with
   libunwind: where an object has no rules for a pc (x86-64), a PLT entry
   there (its code, read by stack->code) returns to the address at the
   stack pointer, else a frame-pointer frame is guessed, and a guessed
   return address of 0 is a last frame,
   0 - 1 (stack->perf should be set). With PD_UNWIND_ARM, bit 0 of each
   return address (the Thumb state) is cleared first. */
size_t pd_unwind(const pd_unwind_regs *regs, unsigned pc_reg, unsigned sp_reg, const pd_unwind_stack *stack,
                 pd_unwind_cfi_fn fn, void *ctx, uint64_t *ips, size_t max, unsigned flags);
#define PD_UNWIND_PERF 1u
#define PD_UNWIND_ARM 2u

/* perf's x86-64 sample registers (PERF_REG_X86_*) as DWARF registers. */
void pd_unwind_regs_x86_64(const uint64_t *perf_regs, uint64_t perf_mask, pd_unwind_regs *out);
#define PD_X86_64_SP 7
#define PD_X86_64_RA 16

/* perf's aarch64 sample registers (PERF_REG_ARM64_X0..X28, X29, LR, SP, PC:
   0-32; perf_regs[i] is register i where bit i of perf_mask is set, as
   for x86-64) as DWARF registers (x0-x30: 0-30, sp: 31, pc: 32). */
void pd_unwind_regs_aarch64(const uint64_t *perf_regs, uint64_t perf_mask, pd_unwind_regs *out);
#define PD_AARCH64_LR 30
#define PD_AARCH64_SP 31
#define PD_AARCH64_PC 32

/* perf's arm32 sample registers (PERF_REG_ARM_R0..R10, FP, IP, SP, LR, PC:
   0-15; also what an arm64 kernel records for a 32-bit task,
   PERF_SAMPLE_REGS_ABI_32) as DWARF registers (r0-r15: 0-15); values cut
   to 32 bits. */
void pd_unwind_regs_arm(const uint64_t *perf_regs, uint64_t perf_mask, pd_unwind_regs *out);
#define PD_ARM_SP 13
#define PD_ARM_LR 14
#define PD_ARM_PC 15

#endif
