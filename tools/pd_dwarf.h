/* pd_dwarf.h - source lines from DWARF line tables (.debug_line, versions
   2 to 5, 32- and 64-bit DWARF, either byte order), for the tools.
   An address's line is the row binutils' addr2line gives it (which perf
   6.1 asks): the last row at the greatest address not above it, within a
   sequence that runs past it; of several rows at one address, the last.
   Everything read is checked against the section's bounds; a unit that is
   malformed is left out (its addresses have no line), the others stay. */
#ifndef PD_DWARF_H
#define PD_DWARF_H

#include <stddef.h>
#include <stdint.h>

typedef struct pd_dwarf_sections {
    const unsigned char *line, *line_str, *str; /* .debug_line, .debug_line_str, .debug_str */
    size_t line_n, line_str_n, str_n;
    int big_endian;
    int addr_size;                              /* 4 or 8: the ELF class's */
} pd_dwarf_sections;

typedef struct pd_dwarf_lines pd_dwarf_lines;

typedef struct pd_dwarf_where {
    const char *file;           /* the file entry's name, as stored (not NUL-terminated) */
    size_t file_len;
    const char *dir;            /* its directory entry, or NULL */
    size_t dir_len;
    uint32_t line;              /* 0: the table says no line */
    const char *comp_dir;       /* a DWARF 5 unit's directory 0 (its compilation directory), or NULL */
    size_t comp_dir_len;
} pd_dwarf_where;
/* The path binutils' addr2line prints for where: a relative file joined to
   its directory, a relative directory to the compilation directory; cut
   to cap - 1 bytes, NUL-terminated. Returns its length. */
size_t pd_dwarf_path(const pd_dwarf_where *where, char *buf, size_t cap);

/* The line tables of sec (which must outlive them); NULL when out of
   memory. *units and *bad (may be NULL) count the units read and left out. */
pd_dwarf_lines *pd_dwarf_lines_load(const pd_dwarf_sections *sec, size_t *units, size_t *bad);
void pd_dwarf_lines_free(pd_dwarf_lines *l);
/* 1 and *where for an address some sequence covers, else 0. */
int pd_dwarf_lookup(const pd_dwarf_lines *l, uint64_t addr, pd_dwarf_where *where);
/* How many units were left out as malformed (their addresses have no line). */
size_t pd_dwarf_bad_units(const pd_dwarf_lines *l);
/* How many rows were kept (for tests). */
size_t pd_dwarf_rows(const pd_dwarf_lines *l);

struct pd_elf;
/* The line tables of an ELF file (or its debug file), its compressed
   sections (SHF_COMPRESSED: zlib or zstd) decompressed into memory the
   result owns. NULL when it has no line table or it cannot be read; *why
   (may be NULL) says which. */
pd_dwarf_lines *pd_dwarf_lines_elf(const struct pd_elf *elf, const char **why);

/* Functions and inlined calls too (.debug_info, versions 2 to 5): an
   address's frames, innermost first, as addr2line -f -i lists them: the
   innermost function (an inlined one, if the address is in inlined code)
   at the line table's place, then each caller at the call site of the
   frame before it; the last is the function the code is in. */
typedef struct pd_dwarf pd_dwarf;
typedef struct pd_dwarf_frame {
    const char *name;           /* the linkage name (mangled) or the name; NULL: none */
    size_t name_len;
    pd_dwarf_where where;
    uint64_t low;               /* its first address range's start */
    uint32_t id;                /* the function or inlined call's entry (1-based; 0: none) */
    int linkage;                /* 1: name stands for the symbol (binutils' is_linkage): a
                                   linkage name, or the name in a unit of C (or the like) */
} pd_dwarf_frame;
/* How many function and inlined-call entries d has read so far (ids run
   1..this; a unit's entries are read the first time one of its addresses
   is asked for, so this grows, and ids stay). */
size_t pd_dwarf_entries(const pd_dwarf *d);
/* 1 once a bound has left something out of what d has read (entries
   nested over 1100 deep, range lists past a multiple of the sections'
   size: hostile files), so that its answers may lack frames. */
int pd_dwarf_cut(const pd_dwarf *d);
pd_dwarf *pd_dwarf_open(const struct pd_elf *elf, const char **why);
/* The same with the file's line tables already read (pd_dwarf_lines_elf
   of elf): borrowed, they must outlive the result. */
pd_dwarf *pd_dwarf_open_lines(const struct pd_elf *elf, pd_dwarf_lines *lines, const char **why);
void pd_dwarf_close(pd_dwarf *d);
/* Up to max frames of addr; 0 when no function or line holds it (or
   reading the unit that holds it ran out of memory). */
size_t pd_dwarf_frames(pd_dwarf *d, uint64_t addr, pd_dwarf_frame *frames, size_t max);

#endif
