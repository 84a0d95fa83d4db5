/* pd_unwind.h - call frame information (.eh_frame with .eh_frame_hdr,
   .debug_frame) and a stack unwinder for `perf record --call-graph dwarf`
   samples: the sampled user registers and the copy of the top of the user
   stack give the caller of each frame by its CFI rules.

   No allocation and no I/O: everything is read in place from buffers the
   caller owns (the ELF sections, the sample's stack copy), every read
   checked against its buffer's bounds, every loop bounded (instructions
   per FDE, expression steps, frames), so that a firmware tool can lift
   these two files as they are. Memory is read only from the stack copy: a
   rule that needs any other address ends the unwinding there. */
#ifndef PD_UNWIND_H
#define PD_UNWIND_H

#include <stddef.h>
#include <stdint.h>

/* DWARF register numbers kept: x86-64's 0-16 (16: the return address),
   aarch64's 0-32, arm's 0-15. */
#define PD_CFI_REGS 33

enum {
    PD_RULE_NONE = 0,           /* no rule: the callee's value (a return address column without one ends the stack) */
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
    unsigned ra;                /* the return address column */
    int signal;                 /* the CIE's 'S': a signal frame (its pc is not a return address) */
} pd_cfi_row;

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
    int big_endian;
    int addr_size;                      /* 4 or 8 */
} pd_cfi;

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
    void *ctx;
} pd_unwind_stack;

/* One frame back: regs (the callee's) become the caller's by row. 1: done
   (the caller's pc is regs->v[row->ra]); 0: the stack ends here (the
   return address is undefined); -1: a rule cannot be followed (a register
   not known, memory outside the stack copy, a malformed expression). */
int pd_unwind_step(const pd_cfi_row *row, pd_unwind_regs *regs, unsigned sp_reg, const pd_unwind_stack *stack);

/* The rules for pc, from the object mapped there (the caller's lookup):
   1 found; 0 the object has none for pc; -1 no object there. */
typedef int (*pd_unwind_cfi_fn)(void *ctx, uint64_t pc, pd_cfi_row *row);

/* Unwinds from regs: ips[0] is the sampled pc, each later one a caller's
   return address minus 1 (as perf prints them: the call instruction's
   last byte, which names the right line and function). At most max;
   returns how many. Stops where no rule is found or followed, at an
   undefined return address or 0, and where the stack pointer does not
   grow (a loop). With PD_UNWIND_PERF, as perf 6.1 with libunwind: where an
   object has no rules, a frame-pointer frame is guessed, and a guessed
   return address of 0 is a last frame, 0 - 1 (stack->perf should be set). */
size_t pd_unwind(const pd_unwind_regs *regs, unsigned pc_reg, unsigned sp_reg, const pd_unwind_stack *stack,
                 pd_unwind_cfi_fn fn, void *ctx, uint64_t *ips, size_t max, unsigned flags);
#define PD_UNWIND_PERF 1u

/* perf's x86-64 sample registers (PERF_REG_X86_*) as DWARF registers. */
void pd_unwind_regs_x86_64(const uint64_t *perf_regs, uint64_t perf_mask, pd_unwind_regs *out);
#define PD_X86_64_SP 7
#define PD_X86_64_RA 16

#endif
