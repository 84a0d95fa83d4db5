/* dwarf_lines_cli.c - tools/pd_dwarf.c's line tables as a filter for
   tests/dwarf_test.py: `dwarf_lines_cli ELF < addresses` (hex, one a line)
   prints FILE:LINE for each as binutils' addr2line prints a line (the
   path joined as binutils joins it, pd_dwarf_path; ? for line 0), or ??:0
   when no sequence covers it. First line: "rows N". */
#define PERFDATA_ZSTD
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"
#include "pd_dwarf.h"
#include "pd_elf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    pd_elf *elf;
    pd_elf_error err;
    pd_dwarf_lines *l;
    pd_dwarf *d;
    const char *why;
    char line[256], path[8192];
    if (argc != 2) { fprintf(stderr, "usage: dwarf_lines_cli ELF < addresses\n"); return 2; }
    if (pd_elf_open_file(argv[1], &elf, &err) != PD_ELF_OK) { fprintf(stderr, "%s: %s\n", argv[1], err.message); return 1; }
    if (!(l = pd_dwarf_lines_elf(elf, &why))) { fprintf(stderr, "%s: %s\n", argv[1], why); return 1; }
    d = pd_dwarf_open_lines(elf, l, NULL); /* the units' compilation directories (before DWARF 5) */
    printf("rows %zu\n", pd_dwarf_rows(l));
    while (fgets(line, sizeof line, stdin)) {
        pd_dwarf_where w;
        uint64_t a = strtoull(line, NULL, 16);
        if (!pd_dwarf_lookup(l, a, &w)) { puts("??:0"); continue; }
        pd_dwarf_path(&w, path, sizeof path);
        printf("%s:", path);
        if (w.line) printf("%u\n", (unsigned)w.line); else puts("?");
    }
    pd_dwarf_close(d);
    pd_dwarf_lines_free(l);
    pd_elf_close(elf);
    return ferror(stdout) ? 1 : 0;
}
