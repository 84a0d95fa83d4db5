/* unwind_arch_check.c - tools/pd_unwind.c on aarch64 and arm32, against
   register and stack captures of programs run under qemu-user
   (tests/unwind_arch.sh builds and runs tests/unwind_arch/chain.c):

     unwind_arch_check [--pac] BINARY CAPTURE [[--pac] BINARY CAPTURE]...
     unwind_arch_check --print BINARY CAPTURE

   --print checks nothing: it prints each sample's chain, one line of
   symbol names (innermost first; ?? where none) a sample, unwound as
   perfdata's tools unwind it: by the tables in the order they search
   them (.eh_frame, .debug_frame, .ARM.exidx), and by perf's rules
   (PD_UNWIND_PERF: no stop at a caller's pc of 0 or a stack pointer that
   does not grow; the copy's last word read as 0), which differ where a
   table gives a wrong caller. A sample whose chain goes wrong on a
   function's first instruction with .ARM.exidx (see below) prints
   "- FUNCTION" instead: what follows the sampled function is not known.
   tests/unwind_arch_perf.py compares script and collapse with it.

   Each sample of CAPTURE (records as chain.c's handler writes them) is
   unwound by pd_unwind from the binary's tables, each frame named by the
   ELF symbol table, and the chain must be a path of the call graph in the
   binary's .unwind_graph section ("caller callee" lines), innermost
   first, ending at _start; a capture without samples fails.

   The tables tried, each alone: .eh_frame with .eh_frame_hdr's search
   table, and without it (scanned; the same frames required); .debug_frame;
   .ARM.exidx with .ARM.extab. An .ARM.exidx chain must be right, and the
   same as .debug_frame's where the binary has one. EHABI tables describe
   a function's body, not its prologue, so a sample on a function's first
   instruction (the only place in a prologue where qemu-user delivers a
   signal: where a translation block begins) may go wrong where its first
   step differs from .debug_frame's (or there is no .debug_frame): those
   are counted and shown, and at least one sample must be right. With
   --pac (aarch64, -mbranch-protection=pac-ret): some return address must
   have been signed, and unwound stripped of its code.

   Before them, crafted EHABI tables (every instruction class, the
   generic model, refusals, bounds) and crafted rows (a return address
   column without a rule, pointer authentication) are checked: one pass
   each.

   Ends with "N passed, N failed": N samples times tables, and the crafted
   checks. */
#include "pd_elf.h"
#include "pd_unwind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FRAMES 64
#define MAX_EDGES 64
#define EM_ARM 40
#define EM_AARCH64 183

typedef struct graph {
    char caller[MAX_EDGES][32], callee[MAX_EDGES][32];
    size_t n;
} graph;

typedef struct sample {
    uint64_t regs[33], sp, flags;
    const unsigned char *stack;
    size_t stack_n;
} sample;

typedef struct target {
    const char *path;
    pd_elf *elf;
    unsigned machine;
    graph g;
    pd_cfi eh, eh_scan, debug, exidx, all;
} target;

static unsigned long passed, failed;

static uint64_t le64(const unsigned char *p) {
    uint64_t v = 0;
    unsigned i;
    for (i = 0; i < 8; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static int edge(const graph *g, const char *caller, const char *callee) {
    size_t i;
    for (i = 0; i < g->n; i++)
        if (!strcmp(g->caller[i], caller) && !strcmp(g->callee[i], callee)) return 1;
    return 0;
}

static int node(const graph *g, const char *name) {
    size_t i;
    for (i = 0; i < g->n; i++)
        if (!strcmp(g->caller[i], name) || !strcmp(g->callee[i], name)) return 1;
    return 0;
}

static int read_graph(target *t) {
    const unsigned char *p, *end;
    size_t n;
    if (!pd_elf_section(t->elf, ".unwind_graph", &p, &n, NULL) || !n) return 0;
    end = p + n;
    t->g.n = 0;
    while (p < end && *p) {
        char a[32], b[32];
        const unsigned char *nl = p;
        int k;
        while (nl < end && *nl != '\n' && *nl) nl++;
        if (nl - p > 60 || t->g.n == MAX_EDGES) return 0;
        {
            char line[64];
            memcpy(line, p, (size_t)(nl - p));
            line[nl - p] = 0;
            k = sscanf(line, "%31s %31s", a, b);
        }
        if (k != 2) return 0;
        strcpy(t->g.caller[t->g.n], a);
        strcpy(t->g.callee[t->g.n], b);
        t->g.n++;
        p = nl < end && *nl == '\n' ? nl + 1 : nl;
    }
    return t->g.n > 0;
}

static void section(const target *t, const char *name, const unsigned char **p, size_t *n, uint64_t *addr) {
    *p = NULL;
    *n = 0;
    *addr = 0;
    if (!pd_elf_section(t->elf, name, p, n, NULL) || !*n || !pd_elf_section_addr(t->elf, name, addr)) {
        *p = NULL;
        *n = 0;
    }
}

static int open_target(target *t, const char *path) {
    const pd_elf_info *info;
    pd_elf_error err;
    uint64_t dummy;
    memset(t, 0, sizeof *t);
    t->path = path;
    if (pd_elf_open_file(path, &t->elf, &err) != PD_ELF_OK) {
        printf("%s: %s\n", path, err.message);
        return 0;
    }
    info = pd_elf_get_info(t->elf);
    t->machine = info->machine;
    if ((t->machine != EM_AARCH64 && t->machine != EM_ARM) || info->big_endian) {
        printf("%s: not a little-endian aarch64 or arm ELF\n", path);
        return 0;
    }
    if (!read_graph(t)) {
        printf("%s: no call graph in .unwind_graph\n", path);
        return 0;
    }
    t->eh.addr_size = t->machine == EM_AARCH64 ? 8 : 4;
    section(t, ".eh_frame", &t->eh.eh_frame, &t->eh.eh_frame_n, &t->eh.eh_frame_addr);
    section(t, ".eh_frame_hdr", &t->eh.eh_frame_hdr, &t->eh.eh_frame_hdr_n, &t->eh.eh_frame_hdr_addr);
    t->eh_scan = t->eh;
    t->eh_scan.eh_frame_hdr = NULL;
    t->eh_scan.eh_frame_hdr_n = 0;
    t->debug.addr_size = t->exidx.addr_size = t->eh.addr_size;
    section(t, ".debug_frame", &t->debug.debug_frame, &t->debug.debug_frame_n, &dummy);
    section(t, ".ARM.exidx", &t->exidx.arm_exidx, &t->exidx.arm_exidx_n, &t->exidx.arm_exidx_addr);
    section(t, ".ARM.extab", &t->exidx.arm_extab, &t->exidx.arm_extab_n, &t->exidx.arm_extab_addr);
    t->all = t->exidx; /* every table, searched in pd_cfi_find's order, as tools/pd_sym.c loads them */
    t->all.eh_frame = t->eh.eh_frame; t->all.eh_frame_n = t->eh.eh_frame_n; t->all.eh_frame_addr = t->eh.eh_frame_addr;
    t->all.eh_frame_hdr = t->eh.eh_frame_hdr; t->all.eh_frame_hdr_n = t->eh.eh_frame_hdr_n;
    t->all.eh_frame_hdr_addr = t->eh.eh_frame_hdr_addr;
    t->all.debug_frame = t->debug.debug_frame; t->all.debug_frame_n = t->debug.debug_frame_n;
    return 1;
}

static int find(void *ctx, uint64_t pc, pd_cfi_row *row) {
    return pd_cfi_find((const pd_cfi *)ctx, pc, row);
}

static void start(const target *t, const sample *s, pd_unwind_regs *regs, pd_unwind_stack *st, unsigned *pc_reg,
                  unsigned *sp_reg, unsigned *flags) {
    memset(st, 0, sizeof *st);
    st->p = s->stack;
    st->n = s->stack_n;
    st->sp = s->sp;
    st->addr_size = t->machine == EM_AARCH64 ? 8 : 4;
    if (t->machine == EM_AARCH64) {
        pd_unwind_regs_aarch64(s->regs, ((uint64_t)1 << 33) - 1, regs);
        *pc_reg = PD_AARCH64_PC;
        *sp_reg = PD_AARCH64_SP;
        *flags = 0;
    } else {
        pd_unwind_regs_arm(s->regs, 0xffff, regs);
        *pc_reg = PD_ARM_PC;
        *sp_reg = PD_ARM_SP;
        *flags = PD_UNWIND_ARM;
    }
}

static size_t unwind_as(const target *t, const pd_cfi *c, const sample *s, uint64_t *ips, int perf) {
    pd_unwind_regs regs;
    pd_unwind_stack st;
    unsigned pc_reg, sp_reg, flags;
    start(t, s, &regs, &st, &pc_reg, &sp_reg, &flags);
    st.perf = perf;
    if (perf) flags |= PD_UNWIND_PERF;
    return pd_unwind(&regs, pc_reg, sp_reg, &st, find, (void *)c, ips, MAX_FRAMES, flags);
}

static size_t unwind(const target *t, const pd_cfi *c, const sample *s, uint64_t *ips) {
    return unwind_as(t, c, s, ips, 0);
}

/* The first step by c's row at the sampled pc: rc, and the caller's pc and sp. */
static int first_step(const target *t, const pd_cfi *c, const sample *s, uint64_t *pc, uint64_t *sp) {
    pd_unwind_regs regs;
    pd_unwind_stack st;
    pd_cfi_row row;
    unsigned pc_reg, sp_reg, flags;
    int rc;
    start(t, s, &regs, &st, &pc_reg, &sp_reg, &flags);
    if (pd_cfi_find(c, regs.v[pc_reg], &row) != 1) return -2;
    rc = pd_unwind_step(&row, &regs, pc_reg, sp_reg, &st);
    *pc = rc == 1 ? regs.v[pc_reg] & ~(uint64_t)(flags & PD_UNWIND_ARM ? 1 : 0) : 0;
    *sp = rc == 1 ? regs.v[sp_reg] : 0;
    return rc;
}

static const char *name_of(const target *t, uint64_t ip) {
    const pd_elf_sym *sym = pd_elf_lookup(t->elf, ip);
    return sym ? sym->name : "??";
}

/* 1: ips[0..n) is a path of the call graph ending at _start */
static int chain_ok(const target *t, const uint64_t *ips, size_t n) {
    size_t i;
    if (!n || n == MAX_FRAMES || strcmp(name_of(t, ips[n - 1]), "_start") != 0 || !node(&t->g, name_of(t, ips[0])))
        return 0;
    for (i = 0; i + 1 < n; i++)
        if (!edge(&t->g, name_of(t, ips[i + 1]), name_of(t, ips[i]))) return 0;
    return 1;
}

static void show(const target *t, const char *tables, const sample *s, const uint64_t *ips, size_t n) {
    size_t i;
    printf("  %s: %s: sample at pc 0x%llx sp 0x%llx (%zu stack bytes):", t->path, tables,
           (unsigned long long)s->regs[t->machine == EM_AARCH64 ? 32 : 15], (unsigned long long)s->sp, s->stack_n);
    for (i = 0; i < n; i++) printf(" %s@0x%llx", name_of(t, ips[i]), (unsigned long long)ips[i]);
    printf("\n");
}

/* signed return addresses the unwinding stripped: saved words of the
   stack copy, and lr, that are a frame's return address with bits above 47 */
static unsigned long pac_seen(const sample *s, const uint64_t *ips, size_t n) {
    unsigned long k = 0;
    size_t i, j;
    for (i = 1; i < n; i++) {
        uint64_t ra = ips[i] + 1;
        if (s->regs[30] != ra && (s->regs[30] & 0x0000ffffffffffffull) == ra) k++;
        for (j = 0; j + 8 <= s->stack_n; j += 8) {
            uint64_t w = le64(s->stack + j);
            if (w != ra && (w & 0x0000ffffffffffffull) == ra) k++;
        }
    }
    return k;
}

/* mode 2 (--print): each sample's chain by every table, as names */
static int check(const char *bin, const char *cap, int mode) {
    target t;
    FILE *fp;
    unsigned char *buf;
    long size;
    size_t off = 0, nsamples = 0;
    unsigned long ok_eh = 0, ok_debug = 0, ok_exidx = 0, at_entry_other = 0, bad = 0, signed_seen = 0;
    int shown = 0, pac = mode == 1;
    if (!open_target(&t, bin)) return 0;
    if (!(fp = fopen(cap, "rb")) || fseek(fp, 0, SEEK_END) != 0 || (size = ftell(fp)) < 0 ||
        fseek(fp, 0, SEEK_SET) != 0 || !(buf = (unsigned char *)malloc(size ? (size_t)size : 1)) ||
        fread(buf, 1, (size_t)size, fp) != (size_t)size) {
        printf("%s: cannot read\n", cap);
        if (fp) fclose(fp);
        pd_elf_close(t.elf);
        return 0;
    }
    fclose(fp);
    while (off < (size_t)size) {
        sample s;
        uint64_t ips[MAX_FRAMES], ips2[MAX_FRAMES], nregs, i;
        size_t n, n2;
        unsigned expect_regs = t.machine == EM_AARCH64 ? 33 : 16;
        if ((size_t)size - off < 48 || le64(buf + off) != 0x31434155 || le64(buf + off + 8) != t.machine ||
            (nregs = le64(buf + off + 16)) != expect_regs || ((size_t)size - off - 48) / 8 < nregs) {
            printf("%s: a malformed record at offset %zu\n", cap, off);
            bad++;
            break;
        }
        memset(&s, 0, sizeof s);
        s.sp = le64(buf + off + 24);
        s.stack_n = (size_t)le64(buf + off + 32);
        s.flags = le64(buf + off + 40);
        for (i = 0; i < nregs; i++) s.regs[i] = le64(buf + off + 48 + i * 8);
        off += 48 + nregs * 8;
        if (s.stack_n > (size_t)size - off) {
            printf("%s: a truncated record at offset %zu\n", cap, off);
            bad++;
            break;
        }
        s.stack = buf + off;
        off += s.stack_n;
        nsamples++;
        if (mode == 2) {
            uint64_t pc = s.regs[t.machine == EM_AARCH64 ? 32 : 15];
            const pd_elf_sym *sym = pd_elf_lookup(t.elf, pc);
            n = unwind_as(&t, &t.all, &s, ips, 1);
            if (t.exidx.arm_exidx && sym && sym->addr == pc && !chain_ok(&t, ips, n)) {
                printf("- %s\n", sym->name); /* EHABI before the pushes: its callers unknown */
                continue;
            }
            for (i = 0; i < n; i++) printf("%s%s", i ? " " : "", name_of(&t, ips[i]));
            printf("\n");
            continue;
        }
        if (t.eh.eh_frame) {
            n = unwind(&t, &t.eh, &s, ips);
            n2 = unwind(&t, &t.eh_scan, &s, ips2);
            if (chain_ok(&t, ips, n) && n2 == n && !memcmp(ips, ips2, n * sizeof *ips)) {
                ok_eh++;
                if (pac) signed_seen += pac_seen(&s, ips, n);
            } else {
                bad++;
                if (shown++ < 5) show(&t, ".eh_frame", &s, ips, n);
            }
        }
        if (t.debug.debug_frame) {
            n = unwind(&t, &t.debug, &s, ips);
            if (chain_ok(&t, ips, n)) {
                ok_debug++;
                if (pac) signed_seen += pac_seen(&s, ips, n);
            } else {
                bad++;
                if (shown++ < 5) show(&t, ".debug_frame", &s, ips, n);
            }
        }
        if (t.exidx.arm_exidx) {
            uint64_t pc1 = 0, sp1 = 0, pc2 = 0, sp2 = 0;
            const pd_elf_sym *sym = pd_elf_lookup(t.elf, s.regs[15]);
            int at_entry = sym && sym->addr == s.regs[15];
            n = unwind(&t, &t.exidx, &s, ips);
            if (chain_ok(&t, ips, n) && (!t.debug.debug_frame || ((n2 = unwind(&t, &t.debug, &s, ips2)) == n &&
                                                                   !memcmp(ips, ips2, n * sizeof *ips)))) {
                ok_exidx++;
            } else if (at_entry && (!t.debug.debug_frame || first_step(&t, &t.debug, &s, &pc1, &sp1) !=
                                                                 first_step(&t, &t.exidx, &s, &pc2, &sp2) ||
                                    pc1 != pc2 || sp1 != sp2)) {
                at_entry_other++; /* before the pushes the body's table describes */
            } else {
                bad++;
                if (shown++ < 5) show(&t, ".ARM.exidx", &s, ips, n);
            }
        }
    }
    free(buf);
    if (mode == 2) {
        pd_elf_close(t.elf);
        return nsamples && !bad;
    }
    printf("%s: %zu samples:", bin, nsamples);
    if (t.eh.eh_frame) printf(" .eh_frame %lu right (also scanned);", ok_eh);
    if (t.debug.debug_frame) printf(" .debug_frame %lu right;", ok_debug);
    if (t.exidx.arm_exidx)
        printf(" .ARM.exidx %lu right, %lu wrong on a function's first instruction (EHABI tables describe bodies);",
               ok_exidx, at_entry_other);
    if (pac) printf(" %lu signed return addresses stripped;", signed_seen);
    printf(" %lu wrong\n", bad);
    passed += ok_eh + ok_debug + ok_exidx;
    failed += bad;
    pd_elf_close(t.elf);
    if (!nsamples) printf("%s: no samples\n", cap);
    if (!t.eh.eh_frame && !t.debug.debug_frame && !t.exidx.arm_exidx) printf("%s: no unwind tables\n", bin);
    if (t.exidx.arm_exidx && !ok_exidx) printf("%s: no .ARM.exidx chain checked\n", bin);
    if (pac && !signed_seen) printf("%s: no signed return address seen\n", bin);
    return nsamples && !bad && (t.eh.eh_frame || t.debug.debug_frame || t.exidx.arm_exidx) &&
           (!t.exidx.arm_exidx || ok_exidx) && (!pac || signed_seen);
}

/* ---------------------------------------------------------- crafted tables */

#define CHECK(cond) do { if (cond) passed++; else { failed++; printf("%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); } } while (0)

static void put32(unsigned char *p, uint64_t v) {
    p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8); p[2] = (unsigned char)(v >> 16); p[3] = (unsigned char)(v >> 24);
}
static uint64_t prel(uint64_t target, uint64_t place) { return (target - place) & 0x7fffffffu; }

#define EXIDX 0x1000u
#define EXTAB 0x2000u
#define FN(i) (0x8000u + (i) * 0x100u)

static unsigned char exidx[13 * 8], extab[40];

/* entry i: function FN(i), second word w (absolute extab addresses given as 0x2xxx are made prel31) */
static void entry(unsigned i, uint64_t w) {
    put32(exidx + i * 8, prel(FN(i) | (i & 1), EXIDX + i * 8)); /* odd entries with the Thumb bit */
    put32(exidx + i * 8 + 4, (w & 0xfffff000u) == EXTAB || (w & 0xfffff000u) == 0x7000u ? prel(w, EXIDX + i * 8 + 4) : w);
}

static int row_at(const pd_cfi *c, uint64_t pc, pd_cfi_row *row) { return pd_cfi_find(c, pc, row); }

static int saved_at(const pd_cfi_row *row, unsigned reg, int64_t off) {
    return row->reg[reg].kind == PD_RULE_OFFSET && row->reg[reg].off == off;
}

/* x86-64 code with no rules, as perf reads it from the object's file: a
   lazy PLT entry (jmp *GOT(%rip); push $n; jmp .plt) at 0x400010 */
static int plt_code(void *ctx, uint64_t addr, unsigned char *buf, size_t n) {
    static const unsigned char entry[16] = {0xff, 0x25, 0xea, 0xcf, 0x1a, 0x00, 0x68, 0x34, 0x00, 0x00, 0x00,
                                            0xe9, 0xe0, 0xff, 0xff, 0xff};
    (void)ctx;
    memset(buf, 0x90, n);
    if (addr == 0x400010 && n <= sizeof entry) memcpy(buf, entry, n);
    return 1;
}

/* libunwind's PLT check: where no rules cover the pc and its code is a
   PLT entry, the return address is at the stack pointer (perf's reading
   only); any other code: the stack ends there (no frame pointer) */
static void plt_entry(void) {
    pd_cfi none;
    pd_unwind_regs regs;
    pd_unwind_stack st;
    unsigned char stack[64];
    uint64_t ips[8];
    size_t n, i;
    memset(&none, 0, sizeof none);
    none.addr_size = 8;
    for (i = 0; i < sizeof stack; i++) stack[i] = 0;
    stack[0] = 0x34; stack[1] = 0x12; stack[2] = 0x40; /* [sp] = 0x401234, little-endian */
    memset(&st, 0, sizeof st);
    st.p = stack; st.n = sizeof stack; st.sp = 0x7000; st.addr_size = 8; st.perf = 1; st.code = plt_code;
    memset(&regs, 0, sizeof regs);
    regs.v[7] = 0x7000; regs.v[16] = 0x400010;
    regs.valid = (uint64_t)1 << 7 | (uint64_t)1 << 16;
    n = pd_unwind(&regs, PD_X86_64_RA, PD_X86_64_SP, &st, find, &none, ips, 8, PD_UNWIND_PERF);
    CHECK(n == 2 && ips[0] == 0x400010 && ips[1] == 0x401233);
    regs.v[16] = 0x400020; /* not an entry */
    n = pd_unwind(&regs, PD_X86_64_RA, PD_X86_64_SP, &st, find, &none, ips, 8, PD_UNWIND_PERF);
    CHECK(n == 1 && ips[0] == 0x400020);
    regs.v[16] = 0x400010; /* not perf's reading: no guess */
    n = pd_unwind(&regs, PD_X86_64_RA, PD_X86_64_SP, &st, find, &none, ips, 8, 0);
    CHECK(n == 1);
}

static void crafted(void) {
    pd_cfi c;
    pd_cfi_row row;
    pd_unwind_regs regs;
    pd_unwind_stack st;
    unsigned char stack[32];
    unsigned i;
    memset(&c, 0, sizeof c);
    c.addr_size = 4;
    c.arm_exidx = exidx; c.arm_exidx_n = sizeof exidx; c.arm_exidx_addr = EXIDX;
    c.arm_extab = extab; c.arm_extab_n = sizeof extab; c.arm_extab_addr = EXTAB;
    entry(0, 0x80b10fb0u);                           /* pop {r0-r3}; finish */
    put32(extab + 0, 0x8101c902u);                   /* personality 1, 1 more word: pop d0-d2 (VPUSH), */
    put32(extab + 4, 0xd1b301a8u);                   /* d8-d9 (VPUSH), d0-d1 (FSTMFDX); pop {r4, r14} */
    entry(1, EXTAB + 0);
    put32(extab + 8, prel(0x9000, EXTAB + 8));       /* the generic model: a personality routine, */
    put32(extab + 12, 0x00978408u);                  /* 0 more words: vsp = r7; pop {r7, r14} */
    entry(2, EXTAB + 8);
    entry(3, 0x808000b0u);                           /* refuse to unwind */
    entry(4, 0x80e0b0b0u);                           /* spare */
    entry(5, 0x808200b0u);                           /* pop {r13} */
    entry(6, 0x80a89bb0u);                           /* pop {r4, r14}; vsp = r11: after a pop */
    entry(7, 0x808800b0u);                           /* pop {r15} */
    entry(8, 1);                                     /* EXIDX_CANTUNWIND */
    entry(9, 0x7000u);                               /* an .ARM.extab entry outside it */
    put32(extab + 36, 0x8103b0b0u);                  /* 3 more words, none there */
    entry(10, EXTAB + 36);
    entry(11, 0x8002b0b0u);                          /* vsp += 12 */
    put32(extab + 16, 0x80b28101u);                  /* personality 0 in .ARM.extab: vsp += 0x204 + (129 << 2) */
    entry(12, EXTAB + 16);

    CHECK(row_at(&c, FN(0) - 1, &row) == 0);
    CHECK(row_at(&c, FN(0), &row) == 1 && row.cfa.kind == PD_RULE_CFA_REGISTER && row.cfa.reg == 13 &&
          row.cfa.off == 16 && saved_at(&row, 0, -16) && saved_at(&row, 3, -4) && row.ra == 14 &&
          row.reg[14].kind == PD_RULE_NONE);
    CHECK(row_at(&c, FN(1) - 1, &row) == 1 && row.cfa.off == 16);
    CHECK(row_at(&c, FN(1), &row) == 1 && row.cfa.reg == 13 && row.cfa.off == 24 + 16 + 20 + 8 &&
          saved_at(&row, 4, -8) && saved_at(&row, 14, -4) && row.ra == 14);
    CHECK(row_at(&c, FN(2) + 0x80, &row) == 1 && row.cfa.reg == 7 && row.cfa.off == 8 && saved_at(&row, 7, -8) &&
          saved_at(&row, 14, -4));
    for (i = 3; i <= 6; i++) CHECK(row_at(&c, FN(i), &row) == -1);
    CHECK(row_at(&c, FN(7), &row) == 1 && row.ra == 15 && row.cfa.off == 4 && saved_at(&row, 15, -4));
    CHECK(row_at(&c, FN(8), &row) == 1 && row.reg[14].kind == PD_RULE_UNDEFINED);
    CHECK(row_at(&c, FN(9), &row) == -1);
    CHECK(row_at(&c, FN(10), &row) == -1);
    CHECK(row_at(&c, FN(11), &row) == 1 && row.cfa.off == 12 && row.ra == 14);
    CHECK(row_at(&c, FN(12) + 0x1000, &row) == 1 && row.cfa.off == 0x204 + 129 * 4);
    c.arm_exidx_n = 5; /* less than an entry */
    CHECK(row_at(&c, FN(0), &row) == 0);
    c.arm_exidx_n = sizeof exidx;

    /* steps: a leaf's lr is its caller's pc; a popped pc; the stack's end */
    for (i = 0; i < sizeof stack; i++) stack[i] = (unsigned char)(i * 4 + 1);
    memset(&st, 0, sizeof st);
    st.p = stack; st.n = sizeof stack; st.sp = 0x100; st.addr_size = 4;
    memset(&regs, 0, sizeof regs);
    regs.v[13] = 0x100; regs.v[14] = 0x5555; regs.v[15] = FN(0);
    regs.valid = 0xe000;
    CHECK(row_at(&c, FN(0), &row) == 1 && pd_unwind_step(&row, &regs, PD_ARM_PC, PD_ARM_SP, &st) == 1 &&
          regs.v[15] == 0x5555 && regs.v[13] == 0x110 && regs.v[0] == 0x0d090501u && regs.v[3] == 0x3d393531u);
    regs.v[13] = 0x100; regs.v[15] = FN(7);
    CHECK(row_at(&c, FN(7), &row) == 1 && pd_unwind_step(&row, &regs, PD_ARM_PC, PD_ARM_SP, &st) == 1 &&
          regs.v[15] == 0x0d090501u && regs.v[13] == 0x104);
    regs.v[13] = 0x100; regs.v[15] = FN(8);
    CHECK(row_at(&c, FN(8), &row) == 1 && pd_unwind_step(&row, &regs, PD_ARM_PC, PD_ARM_SP, &st) == 0);

    /* a return address column without a rule: x86-64's (the pc's) ends the
       stack, aarch64's x30 is the caller's pc; a signed one is stripped */
    memset(&row, 0, sizeof row);
    row.cfa.kind = PD_RULE_CFA_REGISTER;
    row.cfa.reg = 7;
    row.cfa.off = 8;
    row.ra = 16;
    memset(&regs, 0, sizeof regs);
    regs.v[7] = 0x100; regs.v[16] = 0x4000;
    regs.valid = (uint64_t)1 << 7 | (uint64_t)1 << 16;
    st.addr_size = 8;
    CHECK(pd_unwind_step(&row, &regs, PD_X86_64_RA, PD_X86_64_SP, &st) == 0);
    row.cfa.reg = 31;
    row.cfa.off = 0;
    row.ra = 30;
    memset(&regs, 0, sizeof regs);
    regs.v[31] = 0x100; regs.v[30] = 0x0012000000401234ull; regs.v[32] = 0x402000;
    regs.valid = (uint64_t)1 << 30 | (uint64_t)1 << 31 | (uint64_t)1 << 32;
    CHECK(pd_unwind_step(&row, &regs, PD_AARCH64_PC, PD_AARCH64_SP, &st) == 1 && regs.v[32] == 0x0012000000401234ull &&
          regs.v[31] == 0x100);
    regs.v[30] = 0x0012000000401234ull;
    row.ra_signed = 1;
    CHECK(pd_unwind_step(&row, &regs, PD_AARCH64_PC, PD_AARCH64_SP, &st) == 1 && regs.v[32] == 0x401234 &&
          regs.v[30] == 0x401234);
    row.reg[30].kind = PD_RULE_UNDEFINED;
    CHECK(pd_unwind_step(&row, &regs, PD_AARCH64_PC, PD_AARCH64_SP, &st) == 0);
    plt_entry();
}

int main(int argc, char **argv) {
    int i, pac = 0, pairs = 0;
    if (argc == 4 && !strcmp(argv[1], "--print")) return check(argv[2], argv[3], 2) ? 0 : 1;
    crafted();
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--pac")) { pac = 1; continue; }
        if (i + 1 >= argc) { fprintf(stderr, "usage: %s [--pac] BINARY CAPTURE...\n", argv[0]); return 2; }
        if (!check(argv[i], argv[i + 1], pac)) failed++;
        pairs++;
        pac = 0;
        i++;
    }
    if (!pairs) failed++;
    printf("%lu passed, %lu failed\n", passed, failed);
    return failed ? 1 : 0;
}
