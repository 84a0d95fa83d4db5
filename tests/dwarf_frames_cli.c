/* dwarf_frames_cli.c - tools/pd_dwarf.c's frames as a filter for
   tests/dwarf_test.py: `dwarf_frames_cli [-C] ELF < addresses` (hex)
   prints, per address, what llvm-addr2line -f -i [-C] prints: for each
   frame, innermost first, the function (a linkage name; with -C demangled
   with parameters) and
   FILE:LINE (the directory joined as the line table has it; 0 for no
   line), or ?? and ??:0 when nothing holds the address. As llvm does, the
   outermost frame is named from the ELF symbol table where a symbol holds
   the address (a clone's suffix shown as " (.cold)"), and an address with
   no debug information at all takes the symbol's STT_FILE, line 0. Each
   address's frames follow a line "@ dwarf" (from the debug information),
   "@ symtab" (the symbol table alone) or "@ none". */
#define PERFDATA_ZSTD
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"
#include "pd_demangle.h"
#include "pd_dwarf.h"
#include "pd_elf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* name demangled as llvm-addr2line -C shows it: a .suffix after the
   mangled name as " (.suffix)" */
static int demangle_names;

static const char *llvm_name(const char *mangled, size_t len, int linkage, char *out, size_t cap) {
    static char base[65536];
    const char *dot;
    size_t k = len < sizeof base - 1 ? len : sizeof base - 1;
    memcpy(base, mangled, k);
    base[k] = 0;
    if (!linkage || !demangle_names) return base;
    dot = strchr(base, '.');
    if (dot && dot != base) {
        char suffix[1024];
        snprintf(suffix, sizeof suffix, "%s", dot);
        base[dot - base] = 0;
        if (pd_demangle(base, PD_DEMANGLE_PARAMS | PD_DEMANGLE_VERBOSE, out, cap - 1100) >= 0) {
            size_t n = strlen(out);
            snprintf(out + n, cap - n, " (%s)", suffix);
            return out;
        }
        base[dot - base] = '.';
    }
    return pd_demangle(base, PD_DEMANGLE_PARAMS | PD_DEMANGLE_VERBOSE, out, cap) >= 0 ? out : base;
}

static void place(const pd_dwarf_where *w) {
    static char path[8192];
    if (!w->file_len) { printf("??:%u\n", (unsigned)w->line); return; }
    pd_dwarf_path(w, path, sizeof path); /* joined below its directory and the compilation directory */
    printf("%s:%u\n", path, (unsigned)w->line);
}

int main(int argc, char **argv) {
    pd_elf *elf;
    pd_elf_error err;
    pd_dwarf *d;
    const char *why;
    char line[256];
    static char out[65536];
    if (argc == 3 && !strcmp(argv[1], "-C")) { demangle_names = 1; argv++; argc--; }
    if (argc != 2) { fprintf(stderr, "usage: dwarf_frames_cli [-C] ELF < addresses\n"); return 2; }
    if (pd_elf_open_file(argv[1], &elf, &err) != PD_ELF_OK) { fprintf(stderr, "%s: %s\n", argv[1], err.message); return 1; }
    if (!(d = pd_dwarf_open(elf, &why))) { fprintf(stderr, "%s: %s\n", argv[1], why); return 1; }
    while (fgets(line, sizeof line, stdin)) {
        pd_dwarf_frame f[64];
        uint64_t addr = strtoull(line, NULL, 16);
        size_t n = pd_dwarf_frames(d, addr, f, 64), i;
        const pd_elf_sym *sym = pd_elf_lookup(elf, addr);
        printf("@ %s\n", n ? "dwarf" : sym ? "symtab" : "none");
        if (!n) {
            if (!sym) { puts("??\n??:0"); continue; }
            f[0].name = NULL;
            memset(&f[0].where, 0, sizeof f[0].where);
            if (sym->file) { f[0].where.file = sym->file; f[0].where.file_len = strlen(sym->file); }
            n = 1;
        }
        if (sym) { /* the outermost frame: the symbol table's name */
            f[n - 1].name = sym->name;
            f[n - 1].name_len = strlen(sym->name);
            f[n - 1].linkage = 1;
        }
        for (i = 0; i < n; i++) {
            if (!f[i].name) puts("??");
            else puts(llvm_name(f[i].name, f[i].name_len, f[i].linkage, out, sizeof out));
            place(&f[i].where);
        }
    }
    pd_dwarf_close(d);
    pd_elf_close(elf);
    return ferror(stdout) ? 1 : 0;
}
