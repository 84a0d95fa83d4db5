/* cfi_index_test.c - pd_cfi_index: a lookup through the FDE index gives
   the row a pass over the section gives, at every FDE's first and last
   address and at a few inside, for each ELF file named (.eh_frame
   searched as if it had no .eh_frame_hdr, and .debug_frame; about 600
   FDEs of each file).
   `cfi_index_test FILE...`; prints "N passed, N failed". */
#include "pd_elf.h"
#include "pd_unwind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int section(pd_elf *elf, const char *name, const unsigned char **p, size_t *n, uint64_t *addr) {
    uint64_t flags = 0;
    if (!pd_elf_section(elf, name, p, n, &flags) || !*n || (flags & 0x800)) return 0; /* compressed: not read */
    if (addr && !pd_elf_section_addr(elf, name, addr)) return 0;
    return 1;
}

static int same_row(const pd_cfi_row *a, const pd_cfi_row *b) {
    unsigned i;
    const pd_cfi_rule *x, *y;
    if (a->ra != b->ra || a->signal != b->signal || a->ra_signed != b->ra_signed) return 0;
    for (i = 0; i <= PD_CFI_REGS; i++) {
        x = i < PD_CFI_REGS ? &a->reg[i] : &a->cfa;
        y = i < PD_CFI_REGS ? &b->reg[i] : &b->cfa;
        if (x->kind != y->kind || x->reg != y->reg || x->off != y->off || x->expr != y->expr || x->expr_n != y->expr_n)
            return 0;
    }
    return 1;
}

int main(int argc, char **argv) {
    int passed = 0, failed = 0, i;
    for (i = 1; i < argc; i++) {
        pd_elf *elf;
        pd_cfi c;
        pd_cfi_fde *ix;
        size_t n, k, checked = 0, wrong = 0;
        const pd_elf_info *info;
        if (pd_elf_open_file(argv[i], &elf, NULL) != PD_ELF_OK) {
            printf("FAIL %s: cannot be read as ELF\n", argv[i]);
            failed++;
            continue;
        }
        info = pd_elf_get_info(elf);
        memset(&c, 0, sizeof c);
        c.big_endian = info->big_endian;
        c.addr_size = info->elf64 ? 8 : 4;
        if (!section(elf, ".eh_frame", &c.eh_frame, &c.eh_frame_n, &c.eh_frame_addr)) c.eh_frame = NULL;
        if (!section(elf, ".debug_frame", &c.debug_frame, &c.debug_frame_n, NULL)) c.debug_frame = NULL;
        n = pd_cfi_index(&c, NULL, 0);
        if (!n || !(ix = (pd_cfi_fde *)malloc(n * sizeof *ix)) || pd_cfi_index(&c, ix, n) != n) {
            printf("FAIL %s: no FDE indexed\n", argv[i]);
            failed++;
            pd_elf_close(elf);
            continue;
        }
        for (k = 0; k + 1 < n; k++)
            if (ix[k].start > ix[k + 1].start) break;
        if (k + 1 < n) {
            printf("FAIL %s: the index is not sorted at %zu\n", argv[i], k);
            failed++;
        }
        for (k = 0; k < n; k += n / 600 + 1) { /* the scanned side costs a pass each: about 600 FDEs a file */
            uint64_t span = ix[k].end - ix[k].start, pcs[5];
            int j;
            pcs[0] = ix[k].start;
            pcs[1] = ix[k].end - 1;
            pcs[2] = ix[k].start + span / 2;
            pcs[3] = ix[k].start + span / 3;
            pcs[4] = ix[k].end; /* the next one's, or none */
            for (j = 0; j < 5; j++) {
                pd_cfi plain = c, fast = c;
                pd_cfi_row a, b;
                int ra, rb;
                fast.index = ix;
                fast.index_n = n;
                memset(&a, 0, sizeof a);
                memset(&b, 0, sizeof b);
                ra = pd_cfi_find(&plain, pcs[j], &a);
                rb = pd_cfi_find(&fast, pcs[j], &b);
                checked++;
                if (ra != rb || (ra == 1 && !same_row(&a, &b))) {
                    if (wrong++ < 3)
                        printf("     %s: pc %#llx: scanned %d, indexed %d%s\n", argv[i], (unsigned long long)pcs[j], ra, rb,
                               ra == rb ? " (rows differ)" : "");
                }
            }
        }
        if (wrong || !checked) {
            printf("FAIL %s: %zu of %zu lookups differ (%zu FDEs)\n", argv[i], wrong, checked, n);
            failed++;
        } else {
            printf("ok   %s: %zu FDEs, %zu lookups through the index = a pass over the section\n", argv[i], n, checked);
            passed++;
        }
        free(ix);
        pd_elf_close(elf);
    }
    if (passed + failed == 0) printf("FAIL no file given\n"), failed = 1;
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
