/* pd_unwind.c - see pd_unwind.h. The CIE and FDE formats, pointer
   encodings and CFA instructions are DWARF 5's section 6.4 with the GCC
   extensions of .eh_frame (the LSB's "Exception Frames") and aarch64's
   DW_CFA_AARCH64_negate_ra_state ("DWARF for the Arm 64-bit
   Architecture"); .ARM.exidx and .ARM.extab are the "Exception Handling
   ABI for the Arm Architecture" (EHABI), sections 5 to 10. */
#include "pd_unwind.h"

#include <string.h>

/* bounds on the work a file may ask for */
#define CFI_MAX_INSNS 100000        /* CFA instructions run for one pc */
#define CFI_MAX_SCAN PD_CFI_MAX_SCAN /* FDEs looked at without a search table */
#define CFI_INDEX_BACK 64           /* index entries looked at below a pc (FDEs that overlap) */
#define CIE_MAX_AUG 16              /* a CIE's augmentation string, at most (a CIE is read per FDE) */
#define CFI_STATE_DEPTH 8           /* DW_CFA_remember_state nesting */
#define EXPR_MAX_STEPS 1000
#define EXPR_STACK 64

/* aarch64: a signed return address's address bits (user addresses are
   below 2^48; the code is in the bits above) */
#define PAC_STRIP 0x0000ffffffffffffull

typedef struct rd {
    const unsigned char *p, *end, *base; /* base: the section's first byte */
    uint64_t base_addr;                  /* its address */
    int big, bad;
} rd;

static uint64_t rd_n(rd *r, unsigned n) {
    uint64_t v = 0;
    unsigned i;
    if (r->bad || (size_t)(r->end - r->p) < n) { r->bad = 1; r->p = r->end; return 0; }
    for (i = 0; i < n; i++) v |= (uint64_t)r->p[i] << (8 * (r->big ? n - 1 - i : i));
    r->p += n;
    return v;
}

static uint64_t rd_uleb(rd *r) {
    uint64_t v = 0;
    unsigned shift = 0;
    while (!r->bad) {
        unsigned char b;
        if (r->p >= r->end) { r->bad = 1; break; }
        b = *r->p++;
        if (shift < 64) v |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
        if (!(b & 0x80)) break;
        if (shift >= 70) { r->bad = 1; break; } /* longer than any 64-bit value: a read costs 10 bytes at most */
    }
    return v;
}

static int64_t rd_sleb(rd *r) {
    uint64_t v = 0;
    unsigned shift = 0;
    unsigned char b = 0;
    while (!r->bad) {
        if (r->p >= r->end) { r->bad = 1; return 0; }
        b = *r->p++;
        if (shift < 64) v |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
        if ((b & 0x80) && shift >= 70) { r->bad = 1; return 0; }
        if (!(b & 0x80)) break;
    }
    if (shift < 64 && (b & 0x40)) v |= ~(uint64_t)0 << shift;
    return (int64_t)v;
}

/* DW_EH_PE_*: the value's format in the low nibble, what it is relative
   to in the next three bits (0x80: indirect, not followed: unwinding never
   needs it) */
static int rd_ptr(rd *r, unsigned enc, int addr_size, uint64_t data_base, uint64_t *out) {
    uint64_t at = r->base_addr + (uint64_t)(r->p - r->base), v;
    if (enc == 0xff) return 0; /* omit */
    switch (enc & 0x0f) {
    case 0x00: v = rd_n(r, (unsigned)addr_size); break;
    case 0x01: v = rd_uleb(r); break;
    case 0x02: v = rd_n(r, 2); break;
    case 0x03: v = rd_n(r, 4); break;
    case 0x04: v = rd_n(r, 8); break;
    case 0x09: v = (uint64_t)rd_sleb(r); break;
    case 0x0a: v = (uint64_t)(int64_t)(int16_t)rd_n(r, 2); break;
    case 0x0b: v = (uint64_t)(int64_t)(int32_t)rd_n(r, 4); break;
    case 0x0c: v = rd_n(r, 8); break;
    default: r->bad = 1; return 0;
    }
    switch (enc & 0x70) {
    case 0x00: break;
    case 0x10: v += at; break;          /* pcrel */
    case 0x30: v += data_base; break;   /* datarel (.eh_frame_hdr's table) */
    default: r->bad = 1; return 0;      /* textrel, funcrel, aligned: not used on Linux */
    }
    if (addr_size == 4) v &= 0xffffffffu;
    *out = v;
    return !r->bad;
}

typedef struct cie {
    uint64_t code_align;
    int64_t data_align;
    unsigned ra;
    unsigned fde_enc;           /* pointer encoding of the FDE's pc range */
    int has_z;                  /* augmentation data in the FDE */
    int signal;
    const unsigned char *insns, *insns_end;
} cie;

/* The CIE at p (a CIE's whole entry after its length), eh: .eh_frame's
   format, else .debug_frame's. */
static int read_cie(const unsigned char *p, const unsigned char *end, const unsigned char *base, uint64_t base_addr,
                    int big, int addr_size, int eh, cie *c) {
    rd r;
    const char *aug;
    size_t aug_len;
    unsigned version;
    r.p = p; r.end = end; r.base = base; r.base_addr = base_addr; r.big = big; r.bad = 0;
    memset(c, 0, sizeof *c);
    c->fde_enc = 0; /* absptr */
    version = (unsigned)rd_n(&r, 1);
    if (r.bad || (version != 1 && version != 3 && version != 4)) return 0;
    aug = (const char *)r.p;
    while (r.p < r.end && *r.p && r.p - p < 1 + CIE_MAX_AUG) r.p++; /* real ones: "zPLR", "eh", "zRS", ... */
    if (r.p >= r.end || *r.p) return 0;
    aug_len = (size_t)((const char *)r.p - aug);
    r.p++;
    if (aug_len >= 2 && aug[0] == 'e' && aug[1] == 'h') rd_n(&r, (unsigned)addr_size); /* old GCC's eh_ptr */
    if (version == 4) { rd_n(&r, 1); rd_n(&r, 1); } /* address_size, segment_selector_size */
    c->code_align = rd_uleb(&r);
    c->data_align = rd_sleb(&r);
    c->ra = version == 1 ? (unsigned)rd_n(&r, 1) : (unsigned)rd_uleb(&r);
    if (aug_len && aug[0] == 'z') {
        uint64_t len = rd_uleb(&r), dummy;
        const unsigned char *data_end;
        size_t i;
        if (r.bad || len > (uint64_t)(r.end - r.p)) return 0;
        data_end = r.p + len;
        c->has_z = 1;
        for (i = 1; i < aug_len && !r.bad; i++) {
            switch (aug[i]) {
            case 'R': c->fde_enc = (unsigned)rd_n(&r, 1); break;
            case 'P': { /* the personality routine's address: skipped */
                unsigned enc = (unsigned)rd_n(&r, 1);
                rd r2 = r;
                r2.end = data_end;
                if (!rd_ptr(&r2, enc & 0x7f, addr_size, 0, &dummy)) return 0;
                r.p = r2.p;
                break;
            }
            case 'L': rd_n(&r, 1); break;
            case 'S': c->signal = 1; break;
            case 'B': break;
            default: i = aug_len; break; /* unknown: the rest of the data is skipped by its length */
            }
        }
        r.p = data_end;
    } else if (aug_len && !(aug_len >= 2 && aug[0] == 'e' && aug[1] == 'h')) {
        return 0; /* an augmentation without 'z' cannot be skipped */
    }
    (void)eh;
    if (r.bad || c->ra >= PD_CFI_REGS) return 0;
    c->insns = r.p;
    c->insns_end = end;
    return 1;
}

/* ------------------------------------------------------ CFA instructions */

/* An offset times the data alignment factor, wrapping as the unsigned
   arithmetic it is used in (a file's factors may overflow int64_t) */
static int64_t factored(uint64_t v, int64_t align) {
    return (int64_t)(v * (uint64_t)align);
}

static void set_rule(pd_cfi_row *row, uint64_t reg, unsigned char kind, int64_t off, unsigned other,
                     const unsigned char *expr, size_t expr_n) {
    pd_cfi_rule *x;
    if (reg >= PD_CFI_REGS) return; /* a register not kept (vector registers): its rule is not needed */
    x = &row->reg[reg];
    x->kind = kind;
    x->off = off;
    x->reg = other;
    x->expr = expr;
    x->expr_n = expr_n;
}

/* Runs insns until the location passes pc (fde: 1; a CIE's initial
   instructions: 0, run whole). init is the row after the CIE's (for
   DW_CFA_restore). Returns 1, or 0 on a malformed or too long program. */
static int run_cfa(const cie *c, const unsigned char *p, const unsigned char *end, int big, int addr_size,
                   const unsigned char *base, uint64_t base_addr, uint64_t loc, uint64_t pc, int fde,
                   const pd_cfi_row *init, pd_cfi_row *row, unsigned *budget) {
    pd_cfi_row stack[CFI_STATE_DEPTH];
    unsigned depth = 0;
    rd r;
    r.p = p; r.end = end; r.base = base; r.base_addr = base_addr; r.big = big; r.bad = 0;
    while (r.p < r.end && !r.bad) {
        unsigned op = *r.p++, low = op & 0x3f;
        uint64_t reg, delta;
        int64_t off;
        if ((*budget)-- == 0) return 0;
        switch (op >> 6) {
        case 1: /* advance_loc */
            delta = (uint64_t)low * c->code_align;
            if (fde && loc + delta > pc) return 1;
            loc += delta;
            continue;
        case 2: /* offset */
            set_rule(row, low, PD_RULE_OFFSET, factored(rd_uleb(&r), c->data_align), 0, NULL, 0);
            continue;
        case 3: /* restore */
            if (init && low < PD_CFI_REGS) row->reg[low] = init->reg[low];
            continue;
        default: break;
        }
        switch (op) {
        case 0x00: break; /* nop */
        case 0x01: { /* set_loc */
            uint64_t to;
            if (!rd_ptr(&r, c->fde_enc, addr_size, 0, &to)) return 0;
            if (fde && to > pc) return 1;
            loc = to;
            break;
        }
        case 0x02: case 0x03: case 0x04: /* advance_loc1, 2, 4 */
            delta = rd_n(&r, op == 0x02 ? 1 : op == 0x03 ? 2 : 4) * c->code_align;
            if (fde && loc + delta > pc) return 1;
            loc += delta;
            break;
        case 0x05: /* offset_extended */
            reg = rd_uleb(&r);
            set_rule(row, reg, PD_RULE_OFFSET, factored(rd_uleb(&r), c->data_align), 0, NULL, 0);
            break;
        case 0x06: /* restore_extended */
            reg = rd_uleb(&r);
            if (init && reg < PD_CFI_REGS) row->reg[reg] = init->reg[reg];
            break;
        case 0x07: set_rule(row, rd_uleb(&r), PD_RULE_UNDEFINED, 0, 0, NULL, 0); break;
        case 0x08: set_rule(row, rd_uleb(&r), PD_RULE_SAME, 0, 0, NULL, 0); break;
        case 0x09: /* register */
            reg = rd_uleb(&r);
            delta = rd_uleb(&r);
            set_rule(row, reg, PD_RULE_REGISTER, 0, delta < PD_CFI_REGS ? (unsigned)delta : PD_CFI_REGS, NULL, 0);
            break;
        case 0x0a: /* remember_state */
            if (depth == CFI_STATE_DEPTH) return 0;
            stack[depth++] = *row;
            break;
        case 0x0b: /* restore_state: the whole row, the CFA rule included */
            if (!depth) return 0;
            *row = stack[--depth];
            break;
        case 0x0c: /* def_cfa */
            reg = rd_uleb(&r);
            row->cfa.kind = PD_RULE_CFA_REGISTER;
            row->cfa.reg = reg < PD_CFI_REGS ? (unsigned)reg : PD_CFI_REGS;
            row->cfa.off = (int64_t)rd_uleb(&r);
            break;
        case 0x0d: /* def_cfa_register */
            reg = rd_uleb(&r);
            row->cfa.kind = PD_RULE_CFA_REGISTER;
            row->cfa.reg = reg < PD_CFI_REGS ? (unsigned)reg : PD_CFI_REGS;
            break;
        case 0x0e: row->cfa.off = (int64_t)rd_uleb(&r); break; /* def_cfa_offset */
        case 0x0f: { /* def_cfa_expression */
            uint64_t n = rd_uleb(&r);
            if (r.bad || n > (uint64_t)(r.end - r.p)) return 0;
            row->cfa.kind = PD_RULE_CFA_EXPRESSION;
            row->cfa.expr = r.p;
            row->cfa.expr_n = (size_t)n;
            r.p += n;
            break;
        }
        case 0x10: case 0x16: { /* expression, val_expression */
            uint64_t n;
            reg = rd_uleb(&r);
            n = rd_uleb(&r);
            if (r.bad || n > (uint64_t)(r.end - r.p)) return 0;
            set_rule(row, reg, op == 0x10 ? PD_RULE_EXPRESSION : PD_RULE_VAL_EXPRESSION, 0, 0, r.p, (size_t)n);
            r.p += n;
            break;
        }
        case 0x11: /* offset_extended_sf */
            reg = rd_uleb(&r);
            set_rule(row, reg, PD_RULE_OFFSET, factored((uint64_t)rd_sleb(&r), c->data_align), 0, NULL, 0);
            break;
        case 0x12: /* def_cfa_sf */
            reg = rd_uleb(&r);
            row->cfa.kind = PD_RULE_CFA_REGISTER;
            row->cfa.reg = reg < PD_CFI_REGS ? (unsigned)reg : PD_CFI_REGS;
            row->cfa.off = factored((uint64_t)rd_sleb(&r), c->data_align);
            break;
        case 0x13: row->cfa.off = factored((uint64_t)rd_sleb(&r), c->data_align); break; /* def_cfa_offset_sf */
        case 0x14: /* val_offset */
            reg = rd_uleb(&r);
            set_rule(row, reg, PD_RULE_VAL_OFFSET, factored(rd_uleb(&r), c->data_align), 0, NULL, 0);
            break;
        case 0x15: /* val_offset_sf */
            reg = rd_uleb(&r);
            set_rule(row, reg, PD_RULE_VAL_OFFSET, factored((uint64_t)rd_sleb(&r), c->data_align), 0, NULL, 0);
            break;
        case 0x2e: rd_uleb(&r); break; /* GNU_args_size */
        case 0x2f: /* GNU_negative_offset_extended */
            reg = rd_uleb(&r);
            off = factored(0 - rd_uleb(&r), c->data_align);
            set_rule(row, reg, PD_RULE_OFFSET, off, 0, NULL, 0);
            break;
        case 0x2d: /* AARCH64_negate_ra_state, where the return address is aarch64's x30
                      (elsewhere SPARC's GNU_window_save: not supported) */
            if (c->ra != 30) return 0;
            row->ra_signed ^= 1;
            break;
        default: return 0; /* unknown */
        }
    }
    return !r.bad;
}

/* The rules at pc from the FDE whose instructions are [p, end), pc range
   from start, its CIE c. */
static int fde_row(const cie *c, const unsigned char *p, const unsigned char *end, int big, int addr_size,
                   const unsigned char *base, uint64_t base_addr, uint64_t start, uint64_t pc, pd_cfi_row *row) {
    pd_cfi_row init;
    unsigned budget = CFI_MAX_INSNS;
    memset(row, 0, sizeof *row);
    row->ra = c->ra;
    row->signal = c->signal;
    if (!run_cfa(c, c->insns, c->insns_end, big, addr_size, base, base_addr, start, pc, 0, NULL, row, &budget)) return -1;
    init = *row;
    if (!run_cfa(c, p, end, big, addr_size, base, base_addr, start, pc, 1, &init, row, &budget)) return -1;
    return 1;
}

/* One entry of a frame section at off: its length's bounds. */
typedef struct entry {
    const unsigned char *body, *end; /* after the length, and one past the entry */
    uint64_t id;                     /* CIE id (0 / ~0: a CIE) or CIE pointer */
    const unsigned char *after_id;
} entry;

static int entry_at(const unsigned char *sec, size_t n, size_t off, int big, int eh, entry *e) {
    rd r;
    uint64_t len;
    int off8 = 0;
    r.p = sec + off; r.end = sec + n; r.base = sec; r.base_addr = 0; r.big = big; r.bad = 0;
    if (off >= n) return 0;
    len = rd_n(&r, 4);
    if (len == 0xffffffffu) { len = rd_n(&r, 8); off8 = 1; }
    if (r.bad || len == 0 || len > (uint64_t)(r.end - r.p)) return 0;
    e->body = r.p;
    e->end = r.p + len;
    r.end = e->end;
    e->id = rd_n(&r, off8 ? 8 : 4);
    if (r.bad) return 0;
    e->after_id = r.p;
    (void)eh;
    return 1;
}

/* The entry of .eh_frame (eh) or .debug_frame at off: 1 an FDE, with its
   CIE, pc range and r at its augmentation data; 0 a CIE; -1 malformed. */
static int fde_head(const unsigned char *sec, size_t n, uint64_t sec_addr, size_t off, int big, int addr_size, int eh,
                    cie *c, uint64_t *start, uint64_t *range, rd *r) {
    entry e, ce;
    size_t cie_off;
    if (!entry_at(sec, n, off, big, eh, &e)) return -1;
    if (eh ? e.id == 0 : (e.id == 0xffffffffu || e.id == ~(uint64_t)0)) return 0; /* a CIE */
    if (eh) {
        size_t idpos = (size_t)(e.after_id - sec) - 4;
        if (e.id > idpos) return -1;
        cie_off = idpos - (size_t)e.id;
    } else {
        if (e.id >= n) return -1;
        cie_off = (size_t)e.id;
    }
    if (!entry_at(sec, n, cie_off, big, eh, &ce) || (eh ? ce.id != 0 : (ce.id != 0xffffffffu && ce.id != ~(uint64_t)0)))
        return -1;
    if (!read_cie(ce.after_id, ce.end, sec, sec_addr, big, addr_size, eh, c)) return -1;
    r->p = e.after_id; r->end = e.end; r->base = sec; r->base_addr = sec_addr; r->big = big; r->bad = 0;
    if (!rd_ptr(r, eh ? c->fde_enc : 0, addr_size, 0, start)) return -1;
    if (!rd_ptr(r, eh ? (c->fde_enc & 0x0f) : 0, addr_size, 0, range)) return -1;
    return 1;
}

/* The FDE of .eh_frame (eh) or .debug_frame at off, if it covers pc. */
static int try_fde(const unsigned char *sec, size_t n, uint64_t sec_addr, size_t off, int big, int addr_size, int eh,
                   uint64_t pc, pd_cfi_row *row) {
    cie c;
    rd r;
    uint64_t start, range;
    int rc = fde_head(sec, n, sec_addr, off, big, addr_size, eh, &c, &start, &range, &r);
    if (rc <= 0) return rc;
    if (pc < start || pc - start >= range) return 0;
    if (c.has_z) {
        uint64_t len = rd_uleb(&r);
        if (r.bad || len > (uint64_t)(r.end - r.p)) return -1;
        r.p += len;
    }
    return fde_row(&c, r.p, r.end, big, addr_size, sec, sec_addr, start, pc, row);
}

/* .eh_frame_hdr's table: (initial location, FDE address) pairs sorted by
   location, datarel to the header. */
static int from_hdr(const pd_cfi *c, uint64_t pc, pd_cfi_row *row) {
    rd r;
    unsigned version, ptr_enc, count_enc, table_enc;
    uint64_t frame_ptr, count, lo, hi, size;
    const unsigned char *table;
    r.p = c->eh_frame_hdr; r.end = c->eh_frame_hdr + c->eh_frame_hdr_n; r.base = c->eh_frame_hdr;
    r.base_addr = c->eh_frame_hdr_addr; r.big = c->big_endian; r.bad = 0;
    version = (unsigned)rd_n(&r, 1);
    ptr_enc = (unsigned)rd_n(&r, 1);
    count_enc = (unsigned)rd_n(&r, 1);
    table_enc = (unsigned)rd_n(&r, 1);
    if (r.bad || version != 1 || !rd_ptr(&r, ptr_enc, c->addr_size, c->eh_frame_hdr_addr, &frame_ptr) ||
        !rd_ptr(&r, count_enc, c->addr_size, c->eh_frame_hdr_addr, &count) || table_enc != 0x3b)
        return -2; /* not the usual table (datarel sdata4): scan instead */
    size = 8;
    table = r.p;
    if (count > (uint64_t)(r.end - table) / size) return -2;
    lo = 0;
    hi = count;
    while (lo < hi) { /* the last entry at or below pc */
        uint64_t mid = lo + (hi - lo) / 2;
        rd e;
        uint64_t loc;
        e.p = table + mid * size; e.end = r.end; e.base = c->eh_frame_hdr; e.base_addr = c->eh_frame_hdr_addr;
        e.big = c->big_endian; e.bad = 0;
        rd_ptr(&e, table_enc, c->addr_size, c->eh_frame_hdr_addr, &loc);
        if (loc <= pc) lo = mid + 1; else hi = mid;
    }
    if (!lo) return 0;
    {
        rd e;
        uint64_t loc, fde;
        e.p = table + (lo - 1) * size; e.end = r.end; e.base = c->eh_frame_hdr; e.base_addr = c->eh_frame_hdr_addr;
        e.big = c->big_endian; e.bad = 0;
        if (!rd_ptr(&e, table_enc, c->addr_size, c->eh_frame_hdr_addr, &loc) ||
            !rd_ptr(&e, table_enc, c->addr_size, c->eh_frame_hdr_addr, &fde))
            return -1;
        if (fde < c->eh_frame_addr || fde - c->eh_frame_addr >= c->eh_frame_n) return -1;
        return try_fde(c->eh_frame, c->eh_frame_n, c->eh_frame_addr, (size_t)(fde - c->eh_frame_addr), c->big_endian,
                       c->addr_size, 1, pc, row);
    }
}

/* Every FDE of a section in turn (no table): bounded. */
static int scan(const unsigned char *sec, size_t n, uint64_t addr, int big, int addr_size, int eh, uint64_t pc,
                pd_cfi_row *row) {
    size_t off = 0, k;
    for (k = 0; off < n && k < CFI_MAX_SCAN; k++) {
        entry e;
        int rc;
        if (!entry_at(sec, n, off, big, eh, &e)) return 0; /* the end (a zero terminator) or a broken entry */
        rc = try_fde(sec, n, addr, off, big, addr_size, eh, pc, row);
        if (rc) return rc;
        off = (size_t)(e.end - sec);
    }
    return 0;
}

/* -------------------------------------------------------- the FDE index */

static size_t index_section(const unsigned char *sec, size_t n, uint64_t addr, int big, int addr_size, int eh,
                            pd_cfi_fde *out, size_t max, size_t have) {
    size_t off = 0, k;
    for (k = 0; off < n && k < CFI_MAX_SCAN; k++) {
        entry e;
        cie c;
        rd r;
        uint64_t start, range;
        if (!entry_at(sec, n, off, big, eh, &e)) break;
        if (fde_head(sec, n, addr, off, big, addr_size, eh, &c, &start, &range, &r) == 1 && range &&
            range <= ~(uint64_t)0 - start) {
            if (have < max) {
                out[have].start = start;
                out[have].end = start + range;
                out[have].reach = 0;
                out[have].off = off;
                out[have].debug = !eh;
            }
            have++;
        }
        off = (size_t)(e.end - sec);
    }
    return have;
}

static int fde_before(const pd_cfi_fde *a, const pd_cfi_fde *b) {
    if (a->start != b->start) return a->start < b->start;
    if (a->debug != b->debug) return a->debug < b->debug;
    return a->off < b->off;
}

static void sift(pd_cfi_fde *v, size_t root, size_t n) {
    for (;;) {
        size_t child = 2 * root + 1;
        pd_cfi_fde t;
        if (child >= n) return;
        if (child + 1 < n && fde_before(&v[child], &v[child + 1])) child++;
        if (!fde_before(&v[root], &v[child])) return;
        t = v[root]; v[root] = v[child]; v[child] = t;
        root = child;
    }
}

size_t pd_cfi_index(const pd_cfi *c, pd_cfi_fde *out, size_t max) {
    size_t n = 0, i, k;
    uint64_t reach = 0;
    if (c->eh_frame && c->eh_frame_n)
        n = index_section(c->eh_frame, c->eh_frame_n, c->eh_frame_addr, c->big_endian, c->addr_size, 1, out, max, n);
    if (c->debug_frame && c->debug_frame_n)
        n = index_section(c->debug_frame, c->debug_frame_n, 0, c->big_endian, c->addr_size, 0, out, max, n);
    if (n > max) return n;
    for (i = n / 2; i-- > 0;) sift(out, i, n); /* heap sort: no library, n log n */
    for (k = n; k > 1; k--) {
        pd_cfi_fde t = out[0];
        out[0] = out[k - 1];
        out[k - 1] = t;
        sift(out, 0, k - 1);
    }
    for (i = 0; i < n; i++) {
        if (out[i].end > reach) reach = out[i].end;
        out[i].reach = reach;
    }
    return n;
}

/* The first FDE of a section (debug: .debug_frame) in the index that
   covers pc, as a scan in section order finds it; its row. */
static int from_index(const pd_cfi *c, int debug, uint64_t pc, pd_cfi_row *row) {
    size_t lo = 0, hi = c->index_n, k, best = (size_t)-1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->index[mid].start <= pc) lo = mid + 1; else hi = mid;
    }
    for (k = lo; k-- > 0 && lo - k <= CFI_INDEX_BACK;) {
        const pd_cfi_fde *f = &c->index[k];
        if (f->reach <= pc) break;
        if (f->debug == (unsigned char)debug && pc < f->end && (best == (size_t)-1 || f->off < c->index[best].off))
            best = k;
    }
    if (best == (size_t)-1) return 0;
    return debug ? try_fde(c->debug_frame, c->debug_frame_n, 0, (size_t)c->index[best].off, c->big_endian,
                           c->addr_size, 0, pc, row)
                 : try_fde(c->eh_frame, c->eh_frame_n, c->eh_frame_addr, (size_t)c->index[best].off, c->big_endian,
                           c->addr_size, 1, pc, row);
}

/* ------------------------------------------------------------ arm EHABI */

#define EXIDX_CANTUNWIND 1u

static uint64_t rd32(const unsigned char *p, int big) {
    rd r;
    r.p = p; r.end = p + 4; r.base = p; r.base_addr = 0; r.big = big; r.bad = 0;
    return rd_n(&r, 4);
}

/* A prel31 word at address place: the 31-bit signed offset from place. */
static uint64_t prel31(uint64_t word, uint64_t place) {
    uint64_t off = word & 0x7fffffffu;
    if (off & 0x40000000u) off |= ~(uint64_t)0x7fffffffu;
    return (place + off) & 0xffffffffu;
}

/* The unwind instructions: n bytes from byte first of the words at p,
   most significant byte first in each word (words in the object's byte
   order). The caller has checked that first + n bytes lie in the buffer. */
typedef struct ehabi_insns {
    const unsigned char *p;
    size_t first, n;
    int big;
} ehabi_insns;

static unsigned ehabi_byte(const ehabi_insns *x, size_t i) {
    size_t k = x->first + i;
    return x->p[k / 4 * 4 + (x->big ? k % 4 : 3 - k % 4)];
}

/* Runs the instructions (EHABI 10.3) on a virtual vsp = r[base] + off,
   and writes the row they amount to. 1, or 0: refused, spare, reserved,
   or not a register-plus-offset CFA. */
static int ehabi_row(const ehabi_insns *x, pd_cfi_row *row) {
    uint64_t off = 0, saved[16];
    unsigned base = 13, popped = 0, r;
    size_t i = 0;
    memset(row, 0, sizeof *row);
    memset(saved, 0, sizeof saved);
    while (i < x->n) {
        unsigned op = ehabi_byte(x, i++), op2 = 0, mask = 0;
        if (op >= 0x80 && op != 0xb0 && (op < 0x90 || op == 0xb1 || op == 0xb3 || op == 0xc6 || op == 0xc7 ||
                                         op == 0xc8 || op == 0xc9)) {
            if (i >= x->n) return 0; /* its second byte is missing */
            op2 = ehabi_byte(x, i++);
        }
        if (op < 0x40) { off += ((uint64_t)(op & 0x3f) << 2) + 4; continue; }  /* vsp += */
        if (op < 0x80) { off -= ((uint64_t)(op & 0x3f) << 2) + 4; continue; }  /* vsp -= */
        if (op < 0x90) {                                                      /* pop r4-r15 by mask */
            mask = ((op & 0x0fu) << 8 | op2) << 4;
            if (!mask) return 0; /* refuse to unwind */
        } else if (op < 0xa0) {                                               /* vsp = r[n] */
            if ((op & 0x0f) == 13 || (op & 0x0f) == 15 || popped) return 0;    /* reserved; or after a pop */
            base = op & 0x0f;
            off = 0;
            continue;
        } else if (op < 0xb0) {                                               /* pop r4-r[4+n] (, r14) */
            mask = ((1u << ((op & 7) + 1)) - 1) << 4;
            if (op & 8) mask |= 1u << 14;
        } else if (op == 0xb0) {                                              /* finish */
            break;
        } else if (op == 0xb1) {                                              /* pop r0-r3 by mask */
            if (!op2 || (op2 & 0xf0)) return 0; /* spare */
            mask = op2;
        } else if (op == 0xb2) {                                              /* vsp += 0x204 + (uleb128 << 2) */
            uint64_t v = 0;
            unsigned shift = 0, b;
            do {
                if (i >= x->n || shift > 28) return 0;
                b = ehabi_byte(x, i++);
                v |= (uint64_t)(b & 0x7f) << shift;
                shift += 7;
            } while (b & 0x80);
            off += 0x204 + (v << 2);
            continue;
        } else if (op == 0xb3) {                                              /* pop VFP d[s]-d[s+c] (FSTMFDX) */
            off += ((uint64_t)(op2 & 0x0f) + 1) * 8 + 4;
            continue;
        } else if (op == 0xb4) {                                              /* pop the return address */
            off += 4;                                                         /* authentication code (M-profile) */
            continue;
        } else if (op == 0xb5) {                                              /* vsp as that code's modifier */
            continue;
        } else if (op < 0xb8) {
            return 0;                                                         /* spare */
        } else if (op < 0xc0) {                                               /* pop VFP d8-d[8+n] (FSTMFDX) */
            off += ((uint64_t)(op & 7) + 1) * 8 + 4;
            continue;
        } else if (op < 0xc6) {                                               /* pop WMMX wR10-wR[10+n] */
            off += ((uint64_t)(op & 7) + 1) * 8;
            continue;
        } else if (op == 0xc6 || op == 0xc8 || op == 0xc9) {                  /* pop WMMX wR[s]-, VFP d[16+s]-, d[s]-d[s+c] */
            off += ((uint64_t)(op2 & 0x0f) + 1) * 8;
            continue;
        } else if (op == 0xc7) {                                              /* pop WMMX wCGR0-3 by mask */
            if (!op2 || (op2 & 0xf0)) return 0; /* spare */
            off += (uint64_t)((op2 & 1) + (op2 >> 1 & 1) + (op2 >> 2 & 1) + (op2 >> 3 & 1)) * 4;
            continue;
        } else if (op >= 0xd0 && op < 0xd8) {                                 /* pop VFP d8-d[8+n] (VPUSH) */
            off += ((uint64_t)(op & 7) + 1) * 8;
            continue;
        } else {
            return 0;                                                         /* spare */
        }
        for (r = 0; r < 16; r++) {              /* the pop: the lowest register at the lowest address */
            if (!((mask >> r) & 1)) continue;
            if (r == 13) return 0;              /* the vsp loaded from the stack: not base plus offset */
            saved[r] = off;
            popped |= 1u << r;
            off += 4;
        }
    }
    row->cfa.kind = PD_RULE_CFA_REGISTER;
    row->cfa.reg = base;
    row->cfa.off = (int64_t)off;
    for (r = 0; r < 16; r++) {
        if (!((popped >> r) & 1)) continue;
        row->reg[r].kind = PD_RULE_OFFSET;
        row->reg[r].off = (int64_t)(saved[r] - off);
    }
    row->ra = (popped >> 15) & 1 ? 15 : 14; /* finish: r15 = r14 unless r15 was popped */
    return 1;
}

/* The .ARM.exidx entry for pc (the last one starting at or below it: they
   are sorted by function address), and its instructions. */
static int from_exidx(const pd_cfi *c, uint64_t pc, pd_cfi_row *row) {
    size_t count = c->arm_exidx_n / 8, lo = 0, hi = count, i;
    uint64_t place, w;
    unsigned char inline_word[4];
    ehabi_insns x;
    int big = c->big_endian;
    if (!count || pc > 0xffffffffu) return 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        place = (c->arm_exidx_addr + (uint64_t)mid * 8) & 0xffffffffu;
        /* a Thumb function's address may carry the Thumb bit */
        if ((prel31(rd32(c->arm_exidx + mid * 8, big), place) & ~(uint64_t)1) <= pc) lo = mid + 1; else hi = mid;
    }
    if (!lo) return 0;
    i = lo - 1;
    place = (c->arm_exidx_addr + (uint64_t)i * 8 + 4) & 0xffffffffu;
    w = rd32(c->arm_exidx + i * 8 + 4, big);
    if (w == EXIDX_CANTUNWIND) { /* the stack ends here */
        memset(row, 0, sizeof *row);
        row->cfa.kind = PD_RULE_CFA_REGISTER;
        row->cfa.reg = 13;
        row->ra = 14;
        row->reg[14].kind = PD_RULE_UNDEFINED;
        return 1;
    }
    if (w & 0x80000000u) { /* the compact model, personality 0, inline */
        if ((w >> 24) != 0x80) return -1;
        inline_word[0] = (unsigned char)(w >> 24); inline_word[1] = (unsigned char)(w >> 16);
        inline_word[2] = (unsigned char)(w >> 8); inline_word[3] = (unsigned char)w;
        x.p = inline_word; x.first = 1; x.n = 3; x.big = 1;
    } else { /* an .ARM.extab entry */
        uint64_t at = prel31(w, place), words;
        size_t avail;
        if (!c->arm_extab || at < c->arm_extab_addr || at - c->arm_extab_addr >= c->arm_extab_n) return -1;
        x.p = c->arm_extab + (size_t)(at - c->arm_extab_addr);
        avail = c->arm_extab_n - (size_t)(at - c->arm_extab_addr);
        x.big = big;
        if (avail < 4) return -1;
        w = rd32(x.p, big);
        if (w & 0x80000000u) { /* the compact model: personality 0, 1 or 2 */
            if ((w >> 28) != 8) return -1;
            switch ((w >> 24) & 0x0f) {
            case 0: words = 0; x.first = 1; x.n = 3; break;
            case 1: case 2: words = (w >> 16) & 0xff; x.first = 2; x.n = 2 + (size_t)words * 4; break;
            default: return -1; /* personality 3-15: not defined */
            }
        } else { /* the generic model: the personality's address, then its data's word count and instructions */
            if (avail < 8) return -1;
            x.p += 4;
            avail -= 4;
            words = rd32(x.p, big) >> 24;
            x.first = 1;
            x.n = 3 + (size_t)words * 4;
        }
        if (words > (avail - 4) / 4) return -1; /* 4 + 4 * words bytes of instructions (words < 256) */
    }
    return ehabi_row(&x, row) ? 1 : -1;
}

int pd_cfi_find(const pd_cfi *c, uint64_t pc, pd_cfi_row *row) {
    int rc = 0;
    if (c->eh_frame && c->eh_frame_n) {
        rc = c->eh_frame_hdr && c->eh_frame_hdr_n ? from_hdr(c, pc, row) : -2;
        if (rc == -2)
            rc = c->index ? from_index(c, 0, pc, row)
                          : scan(c->eh_frame, c->eh_frame_n, c->eh_frame_addr, c->big_endian, c->addr_size, 1, pc, row);
    }
    if (rc == 0 && c->debug_frame && c->debug_frame_n)
        rc = c->index ? from_index(c, 1, pc, row)
                      : scan(c->debug_frame, c->debug_frame_n, 0, c->big_endian, c->addr_size, 0, pc, row);
    if (rc == 0 && c->arm_exidx && c->arm_exidx_n) rc = from_exidx(c, pc, row);
    if (rc == 1) {
        unsigned i;
        row->ruled = PD_CFI_RULED;
        for (i = 0; i < PD_CFI_REGS; i++)
            if (row->reg[i].kind != PD_RULE_NONE) row->ruled |= (uint64_t)1 << i;
    }
    return rc;
}

/* ------------------------------------------------------------- unwinding */

static int read_stack(const pd_unwind_stack *s, uint64_t addr, unsigned size, uint64_t *out) {
    rd r;
    if (s->perf) {
        /* perf's access_mem: the copy up to (not including) its last word;
           another address in a map reads as 0 (perf would read the mapped
           file's bytes there, and an unmapped one fails) */
        if (addr < s->sp || addr - s->sp >= s->n || s->n - (addr - s->sp) <= size) {
            *out = 0;
            return !s->mapped || s->mapped(s->ctx, addr);
        }
    } else if (addr < s->sp || addr - s->sp > s->n || s->n - (addr - s->sp) < size) {
        return 0;
    }
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && defined(__ORDER_BIG_ENDIAN__)
    if (size == 8 && s->big_endian == (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)) { /* a word in the host's order */
        memcpy(out, s->p + (addr - s->sp), 8);
        return 1;
    }
#endif
    r.p = s->p + (addr - s->sp); r.end = s->p + s->n; r.base = s->p; r.base_addr = s->sp; r.big = s->big_endian; r.bad = 0;
    *out = rd_n(&r, size);
    return !r.bad;
}

/* read_stack's common case, inline: a word well inside the copy, in the
   host's order (0: not that case, read_stack decides) */
static inline int stack_word(const pd_unwind_stack *s, uint64_t addr, uint64_t *out) {
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && defined(__ORDER_BIG_ENDIAN__)
    if (s->addr_size == 8 && s->big_endian == (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) && addr >= s->sp &&
        addr - s->sp < s->n && s->n - (addr - s->sp) > 8) {
        memcpy(out, s->p + (addr - s->sp), 8);
        return 1;
    }
#else
    (void)s; (void)addr; (void)out;
#endif
    return 0;
}

/* A DWARF expression (the subset CFI uses: constants, registers, stack
   operations, arithmetic, comparisons and branches, dereferences of the
   stack copy). push: a value pushed first (the CFA), when has_push. */
static int eval(const unsigned char *p, size_t n, const pd_unwind_regs *regs, const pd_unwind_stack *s, int has_push,
                uint64_t push, uint64_t *out) {
    uint64_t st[EXPR_STACK];
    unsigned sp = 0, steps = 0;
    rd r;
    memset(st, 0, sizeof st); /* what NEED guards is set, but analysers cannot tell */
    r.p = p; r.end = p + n; r.base = p; r.base_addr = 0; r.big = s->big_endian; r.bad = 0;
    if (has_push) st[sp++] = push;
#define NEED(k) do { if (sp < (k)) return 0; } while (0)
#define PUSH(v) do { uint64_t v_ = (v); if (sp == EXPR_STACK) return 0; st[sp] = v_; sp++; } while (0)
    while (r.p < r.end) {
        unsigned op = *r.p++;
        uint64_t a, b;
        if (++steps > EXPR_MAX_STEPS || r.bad) return 0;
        if (op >= 0x30 && op <= 0x4f) { PUSH(op - 0x30); continue; } /* lit0-31 */
        if (op >= 0x70 && op <= 0x8f) { /* breg0-31 */
            int64_t off = rd_sleb(&r);
            if (op - 0x70u >= PD_CFI_REGS || !((regs->valid >> (op - 0x70)) & 1)) return 0;
            PUSH(regs->v[op - 0x70] + (uint64_t)off);
            continue;
        }
        switch (op) {
        case 0x03: PUSH(rd_n(&r, (unsigned)s->addr_size)); break;                 /* addr */
        case 0x06: NEED(1); if (!read_stack(s, st[sp - 1], (unsigned)s->addr_size, &st[sp - 1])) return 0; break; /* deref */
        case 0x08: PUSH(rd_n(&r, 1)); break;                                      /* const1u */
        case 0x09: PUSH((uint64_t)(int64_t)(int8_t)rd_n(&r, 1)); break;
        case 0x0a: PUSH(rd_n(&r, 2)); break;
        case 0x0b: PUSH((uint64_t)(int64_t)(int16_t)rd_n(&r, 2)); break;
        case 0x0c: PUSH(rd_n(&r, 4)); break;
        case 0x0d: PUSH((uint64_t)(int64_t)(int32_t)rd_n(&r, 4)); break;
        case 0x0e: case 0x0f: PUSH(rd_n(&r, 8)); break;
        case 0x10: PUSH(rd_uleb(&r)); break;                                      /* constu */
        case 0x11: PUSH((uint64_t)rd_sleb(&r)); break;                            /* consts */
        case 0x12: NEED(1); PUSH(st[sp - 1]); break;                              /* dup */
        case 0x13: NEED(1); sp--; break;                                          /* drop */
        case 0x14: NEED(2); PUSH(st[sp - 2]); break;                              /* over */
        case 0x15: a = rd_n(&r, 1); NEED(a + 1); PUSH(st[sp - 1 - a]); break;      /* pick */
        case 0x16: NEED(2); a = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = a; break; /* swap */
        case 0x17: NEED(3); a = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = st[sp - 3]; st[sp - 3] = a; break;
        case 0x19: NEED(1); if ((int64_t)st[sp - 1] < 0) st[sp - 1] = 0 - st[sp - 1]; break; /* abs */
        case 0x1a: NEED(2); sp--; st[sp - 1] &= st[sp]; break;
        case 0x1b: NEED(2); sp--; if (!st[sp]) return 0;                          /* div (signed) */
            if ((int64_t)st[sp] == -1) st[sp - 1] = 0 - st[sp - 1];
            else st[sp - 1] = (uint64_t)((int64_t)st[sp - 1] / (int64_t)st[sp]);
            break;
        case 0x1c: NEED(2); sp--; st[sp - 1] -= st[sp]; break;
        case 0x1d: NEED(2); sp--; if (!st[sp]) return 0; st[sp - 1] %= st[sp]; break;
        case 0x1e: NEED(2); sp--; st[sp - 1] *= st[sp]; break;
        case 0x1f: NEED(1); st[sp - 1] = 0 - st[sp - 1]; break;
        case 0x20: NEED(1); st[sp - 1] = ~st[sp - 1]; break;
        case 0x21: NEED(2); sp--; st[sp - 1] |= st[sp]; break;
        case 0x22: NEED(2); sp--; st[sp - 1] += st[sp]; break;
        case 0x23: NEED(1); st[sp - 1] += rd_uleb(&r); break;                     /* plus_uconst */
        case 0x24: NEED(2); sp--; st[sp - 1] = st[sp] >= 64 ? 0 : st[sp - 1] << st[sp]; break;
        case 0x25: NEED(2); sp--; st[sp - 1] = st[sp] >= 64 ? 0 : st[sp - 1] >> st[sp]; break;
        case 0x26: NEED(2); sp--; {                                               /* shra */
            uint64_t neg = st[sp - 1] >> 63 ? ~(uint64_t)0 : 0; /* the sign, spread */
            st[sp - 1] = st[sp] >= 64 ? neg : ((st[sp - 1] ^ neg) >> st[sp]) ^ neg;
            break; }
        case 0x27: NEED(2); sp--; st[sp - 1] ^= st[sp]; break;
        case 0x28: { int16_t k = (int16_t)rd_n(&r, 2); NEED(1); sp--;              /* bra */
            if (st[sp]) { if (k < 0 ? (size_t)-k > (size_t)(r.p - p) : (size_t)k > (size_t)(r.end - r.p)) return 0; r.p += k; }
            break; }
        case 0x29: case 0x2a: case 0x2b: case 0x2c: case 0x2d: case 0x2e: {       /* eq ge gt le lt ne */
            int64_t x, y;
            NEED(2); sp--;
            x = (int64_t)st[sp - 1]; y = (int64_t)st[sp];
            st[sp - 1] = op == 0x29 ? x == y : op == 0x2a ? x >= y : op == 0x2b ? x > y : op == 0x2c ? x <= y
                       : op == 0x2d ? x < y : x != y;
            break;
        }
        case 0x2f: { int16_t k = (int16_t)rd_n(&r, 2);                             /* skip */
            if (k < 0 ? (size_t)-k > (size_t)(r.p - p) : (size_t)k > (size_t)(r.end - r.p)) return 0;
            r.p += k;
            break; }
        case 0x92: { uint64_t reg = rd_uleb(&r); int64_t off = rd_sleb(&r);       /* bregx */
            if (reg >= PD_CFI_REGS || !((regs->valid >> reg) & 1)) return 0;
            PUSH(regs->v[reg] + (uint64_t)off);
            break; }
        case 0x94: a = rd_n(&r, 1); NEED(1);                                      /* deref_size */
            if (!a || a > 8 || !read_stack(s, st[sp - 1], (unsigned)a, &b)) return 0;
            st[sp - 1] = b;
            break;
        case 0x96: break;                                                         /* nop */
        default: return 0;
        }
    }
#undef NEED
#undef PUSH
    if (r.bad || !sp) return 0;
    *out = st[sp - 1];
    return 1;
}

/* the lowest set bit's index (m is not 0) */
#if defined(__GNUC__) || defined(__clang__)
#define LOW_BIT(m) ((unsigned)__builtin_ctzll(m))
#else
static unsigned LOW_BIT(uint64_t m) {
    unsigned i = 0;
    while (!(m & 1)) { m >>= 1; i++; }
    return i;
}
#endif

int pd_unwind_step(const pd_cfi_row *row, pd_unwind_regs *regs, unsigned pc_reg, unsigned sp_reg,
                   const pd_unwind_stack *stack) {
    uint64_t cfa, ruled = 0, maybe, valid, m, nv[PD_CFI_REGS];
    unsigned char set[PD_CFI_REGS]; /* nv[k] is the new value of register set[k], k < nset */
    unsigned i, k, nset = 0;
    if (row->cfa.kind == PD_RULE_CFA_REGISTER) {
        if (row->cfa.reg >= PD_CFI_REGS || !((regs->valid >> row->cfa.reg) & 1)) return -1;
        cfa = regs->v[row->cfa.reg] + (uint64_t)row->cfa.off;
    } else if (row->cfa.kind == PD_RULE_CFA_EXPRESSION) {
        if (!eval(row->cfa.expr, row->cfa.expr_n, regs, stack, 0, 0, &cfa)) return -1;
    } else {
        return -1;
    }
    /* no rule for the return address: where it is the pc's column (x86-64)
       the stack ends; where it is a register (aarch64's x30, arm's r14),
       the callee has not moved it yet, and it is read below */
    if (row->ra >= PD_CFI_REGS || pd_cfi_kind(row, row->ra) == PD_RULE_UNDEFINED ||
        (pd_cfi_kind(row, row->ra) == PD_RULE_NONE && row->ra == pc_reg))
        return 0;
    /* registers without a rule (or the same-value rule) keep the callee's
       value; the others are computed from the callee's registers first,
       then stored together (only the row's mask is looked at) */
    maybe = (row->ruled & PD_CFI_RULED ? row->ruled : ~(uint64_t)0) & (((uint64_t)1 << PD_CFI_REGS) - 1);
    for (m = maybe; m; m &= m - 1) {
        i = LOW_BIT(m);
        if (row->reg[i].kind != PD_RULE_NONE && row->reg[i].kind != PD_RULE_SAME) ruled |= (uint64_t)1 << i;
    }
    valid = regs->valid & ~ruled;
    for (m = ruled; m; m &= m - 1) {
        const pd_cfi_rule *x;
        uint64_t v, at;
        i = LOW_BIT(m);
        x = &row->reg[i];
        switch (x->kind) {
        case PD_RULE_UNDEFINED: continue;
        case PD_RULE_OFFSET:
            if (!stack_word(stack, cfa + (uint64_t)x->off, &v) &&
                !read_stack(stack, cfa + (uint64_t)x->off, (unsigned)stack->addr_size, &v)) {
                if (i == row->ra) return -1;
                continue;
            }
            break;
        case PD_RULE_VAL_OFFSET: v = cfa + (uint64_t)x->off; break;
        case PD_RULE_REGISTER:
            if (x->reg >= PD_CFI_REGS || !((regs->valid >> x->reg) & 1)) { if (i == row->ra) return -1; continue; }
            v = regs->v[x->reg];
            break;
        case PD_RULE_EXPRESSION:
            if (!eval(x->expr, x->expr_n, regs, stack, 1, cfa, &at) ||
                !read_stack(stack, at, (unsigned)stack->addr_size, &v)) {
                if (i == row->ra) return -1;
                continue;
            }
            break;
        case PD_RULE_VAL_EXPRESSION:
            if (!eval(x->expr, x->expr_n, regs, stack, 1, cfa, &v)) { if (i == row->ra) return -1; continue; }
            break;
        default: continue;
        }
        nv[nset] = v;
        set[nset++] = (unsigned char)i;
        valid |= (uint64_t)1 << i;
    }
    if (!((valid >> row->ra) & 1) && row->ra != sp_reg) return -1;
    for (k = 0; k < nset; k++) regs->v[set[k]] = nv[k];
    if (sp_reg < PD_CFI_REGS) {
        regs->v[sp_reg] = cfa;
        valid |= (uint64_t)1 << sp_reg;
    }
    if (row->ra_signed) regs->v[row->ra] &= PAC_STRIP;
    if (pc_reg < PD_CFI_REGS) {
        regs->v[pc_reg] = regs->v[row->ra];
        valid |= (uint64_t)1 << pc_reg;
    }
    regs->valid = valid;
    return 1;
}

/* libunwind's is_plt_entry (x86-64): the words at pc read as the lazy PLT
   entry's jmp *disp(%rip) (ff 25), push $n (68) and jmp rel32 (e9) */
static int is_plt_entry(const pd_unwind_stack *s, uint64_t pc) {
    unsigned char b[16];
    if (!s->code || !s->code(s->ctx, pc, b, sizeof b)) return 0;
    return b[0] == 0xff && b[1] == 0x25 && b[6] == 0x68 && b[11] == 0xe9;
}

size_t pd_unwind(const pd_unwind_regs *start, unsigned pc_reg, unsigned sp_reg, const pd_unwind_stack *stack,
                 pd_unwind_cfi_fn fn, void *ctx, uint64_t *ips, size_t max, unsigned flags) {
    pd_unwind_regs regs = *start;
    pd_cfi_row row;
    size_t n = 0;
    uint64_t pc, cfa;
    int signal = 1; /* the sampled pc is where the thread was, not a return address */
    int perf = (flags & PD_UNWIND_PERF) != 0, arm = (flags & PD_UNWIND_ARM) != 0;
    int grew = 1;   /* the last frame's CFA was above its callee's */
    if (!max || pc_reg >= PD_CFI_REGS || sp_reg >= PD_CFI_REGS || !((regs.valid >> pc_reg) & 1)) return 0;
    pc = regs.v[pc_reg];
    cfa = (regs.valid >> sp_reg) & 1 ? regs.v[sp_reg] : 0;
    ips[n++] = pc;
    while (n < max) {
        uint64_t ra, prev_cfa = cfa;
        int found = fn(ctx, signal ? pc : pc - 1, &row);
        if (found < 0) break; /* no object there */
        if (found == 0 && perf && sp_reg == 7 && is_plt_entry(stack, pc) && ((regs.valid >> 7) & 1)) {
            /* no rules, and the code at pc is a PLT entry (jmp *GOT; push;
               jmp), as libunwind (x86-64) checks: the return address is
               at the stack pointer, the CFA above it */
            cfa = regs.v[7] + 8;
            ra = 0;
            if (!read_stack(stack, regs.v[7], 8, &ra)) break;
            regs.v[7] = cfa;
            if (ra == pc && cfa == prev_cfa) break;
        } else if (found == 0) {
            /* no rules: libunwind (x86-64) guesses a frame-pointer frame
               where the frame pointer lies above the CFA by at most 16 KiB */
            uint64_t rbp, rbp1 = 0;
            if (!perf || sp_reg != 7 || !((regs.valid >> 6) & 1) || !(rbp = regs.v[6])) break;
            if (!read_stack(stack, rbp, 8, &rbp1) || rbp < cfa || rbp - cfa > 0x4000) break;
            cfa += 16;
            ra = 0;
            if (!read_stack(stack, rbp + 8, 8, &ra)) break;
            regs.valid = (uint64_t)1 << 6 | (uint64_t)1 << pc_reg; /* the rest unknown */
            regs.v[6] = rbp1;
            if (ra == pc && cfa == prev_cfa) break;
        } else {
            int rc = pd_unwind_step(&row, &regs, pc_reg, sp_reg, stack);
            unsigned char kind;
            if (rc != 1) break;
            /* libunwind: an undefined frame pointer ends the stack too */
            if (perf && sp_reg == 7 && pd_cfi_kind(&row, 6) == PD_RULE_UNDEFINED) break;
            ra = regs.v[row.ra];
            if (arm) ra &= ~(uint64_t)1; /* the Thumb bit */
            cfa = regs.v[sp_reg];
            if (ra == pc && cfa == prev_cfa) break;
            if (!perf && (!ra || cfa < prev_cfa)) break;
            if (!perf && cfa == prev_cfa) {
                /* a leaf whose return address is still in a register (not
                   the pc's column) shares its caller's CFA: once in a row */
                kind = (unsigned char)pd_cfi_kind(&row, row.ra);
                if (pc_reg == row.ra || !grew ||
                    (kind != PD_RULE_NONE && kind != PD_RULE_SAME && kind != PD_RULE_REGISTER))
                    break;
                grew = 0;
            } else {
                grew = 1;
            }
            signal = row.signal;
        }
        /* the call's last byte: the caller's line and function (perf
           shows a return address of 0 as 0 - 1, and stops) */
        ips[n++] = ra - 1;
        if (!ra) break;
        pc = ra;
        regs.v[pc_reg] = pc;
        regs.valid |= (uint64_t)1 << pc_reg;
    }
    return n;
}

void pd_unwind_regs_x86_64(const uint64_t *perf_regs, uint64_t perf_mask, pd_unwind_regs *out) {
    /* perf's order (arch/x86/include/uapi/asm/perf_regs.h): AX BX CX DX SI DI
       BP SP IP FLAGS CS SS DS ES FS GS R8..R15; DWARF's: AX DX CX BX SI DI
       BP SP R8..R15 RA */
    static const unsigned char dwarf_of[24] = {0, 3, 2, 1, 4, 5, 6, 7, 16, 255, 255, 255, 255, 255, 255, 255,
                                               8, 9, 10, 11, 12, 13, 14, 15};
    unsigned i;
    memset(out, 0, sizeof *out);
    for (i = 0; i < 24; i++) {
        if (dwarf_of[i] == 255 || !((perf_mask >> i) & 1)) continue;
        out->v[dwarf_of[i]] = perf_regs[i];
        out->valid |= (uint64_t)1 << dwarf_of[i];
    }
}

void pd_unwind_regs_aarch64(const uint64_t *perf_regs, uint64_t perf_mask, pd_unwind_regs *out) {
    /* perf's order (arch/arm64/include/uapi/asm/perf_regs.h): X0..X30 (LR),
       SP, PC: DWARF's, with the pc in 32 */
    unsigned i;
    memset(out, 0, sizeof *out);
    for (i = 0; i <= PD_AARCH64_PC; i++) {
        if (!((perf_mask >> i) & 1)) continue;
        out->v[i] = perf_regs[i];
        out->valid |= (uint64_t)1 << i;
    }
}

void pd_unwind_regs_arm(const uint64_t *perf_regs, uint64_t perf_mask, pd_unwind_regs *out) {
    /* perf's order (arch/arm/include/uapi/asm/perf_regs.h): R0..R10, FP,
       IP, SP, LR, PC: DWARF's r0-r15 */
    unsigned i;
    memset(out, 0, sizeof *out);
    for (i = 0; i <= PD_ARM_PC; i++) {
        if (!((perf_mask >> i) & 1)) continue;
        out->v[i] = perf_regs[i] & 0xffffffffu;
        out->valid |= (uint64_t)1 << i;
    }
}
