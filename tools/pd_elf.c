/* pd_elf.c - see pd_elf.h. Field offsets and constants are from the ELF
   gABI and the Linux note and kallsyms formats; symbol preferences and the
   size-0 rule follow what perf does, so the tools name the same functions. */
/* 64-bit file offsets and inode numbers on 32-bit hosts too: without this,
   stat() and readdir() fail with EOVERFLOW on large filesystems and files
   over 2 GiB cannot be mapped. */
#ifndef _FILE_OFFSET_BITS
#define _FILE_OFFSET_BITS 64
#endif
#define _POSIX_C_SOURCE 200809L
#include "pd_elf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------ constants */

#define PD_ELF_EI_NIDENT 16
#define PD_ELF_EI_CLASS 4
#define PD_ELF_EI_DATA 5
#define PD_ELF_EI_VERSION 6
#define PD_ELF_CLASS32 1
#define PD_ELF_CLASS64 2
#define PD_ELF_DATA2LSB 1
#define PD_ELF_DATA2MSB 2
#define PD_ELF_EV_CURRENT 1
#define PD_ELF_PT_LOAD 1
#define PD_ELF_PT_NOTE 4
#define PD_ELF_PF_X 1
#define PD_ELF_SHT_SYMTAB 2
#define PD_ELF_SHT_STRTAB 3
#define PD_ELF_SHT_NOTE 7
#define PD_ELF_SHT_NOBITS 8
#define PD_ELF_SHT_DYNSYM 11
#define PD_ELF_SHT_RELA 4
#define PD_ELF_SHT_REL 9
#define PD_ELF_EM_386 3
#define PD_ELF_EM_X86_64 62
#define PD_ELF_EM_AARCH64 183
#define PD_ELF_PLT_NAMES_MAX (16u << 20) /* bytes of "name@plt" text kept at most */
#define PD_ELF_SHN_UNDEF 0
#define PD_ELF_SHN_ABS 0xfff1
#define PD_ELF_STT_NOTYPE 0
#define PD_ELF_STV_INTERNAL 1
#define PD_ELF_STV_HIDDEN 2
#define PD_ELF_SHN_XINDEX 0xffff
#define PD_ELF_PN_XNUM 0xffff
#define PD_ELF_STT_FILE 4
#define PD_ELF_NT_GNU_BUILD_ID 3
#define PD_ELF_EM_ARM 40
#define PD_ELF_PAGE 4096u
#define PD_ELF_MAX_ID 64        /* longest build id the symdir index keeps */

/* --------------------------------------------------------------- errors */

const char *pd_elf_status_message(pd_elf_status status) {
    switch (status) {
#define PD_ELF__TEXT(name, value, text) case name: return text;
        PD_ELF_STATUS_LIST(PD_ELF__TEXT)
#undef PD_ELF__TEXT
    default: return "unknown status";
    }
}

/* Every failure goes through here so that err is always complete. */
static pd_elf_status fail(pd_elf_error *err, pd_elf_status code, uint64_t offset, const char *message) {
    if (err) {
        err->code = code;
        err->offset = offset;
        err->message = message ? message : pd_elf_status_message(code);
        err->os_errno = code == PD_ELF_IO ? errno : 0;
    }
    return code;
}

static void clear_error(pd_elf_error *err) {
    if (err) { err->code = PD_ELF_OK; err->offset = 0; err->message = "ok"; err->os_errno = 0; }
}

/* -------------------------------------------------------- bytes, views */

typedef struct view {
    const unsigned char *p;
    size_t n;
    uint64_t offset;            /* of p[0] in the file, for error reports */
} view;

/* The n bytes at off inside v, if they are all there. */
static int sub(view v, uint64_t off, uint64_t n, view *out) {
    if (n > v.n || off > v.n - n) return 0;
    out->p = v.p + off;
    out->n = (size_t)n;
    out->offset = v.offset + off;
    return 1;
}

/* An unsigned value of width bytes in the file's byte order. Assembled
   byte by byte: ELF fields may be unaligned in a buffer, and the file's
   order need not be the host's. */
static uint64_t load(const unsigned char *p, unsigned width, int big) {
    uint64_t v = 0;
    unsigned i;
    for (i = 0; i < width; i++) v = v << 8 | (uint64_t)p[big ? i : width - 1 - i];
    return v;
}

/* -------------------------------------------------------------- layouts */

/* Offsets of the fields read, per class; "word" is the address width. */
typedef struct layout {
    unsigned word;
    unsigned ehdr_size, e_phoff, e_shoff, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
    unsigned phdr_size, p_type, p_flags, p_offset, p_vaddr, p_filesz, p_align;
    unsigned shdr_size, sh_type, sh_offset, sh_size, sh_link, sh_info, sh_addralign, sh_entsize;
    unsigned sym_size, st_name, st_info, st_shndx, st_value, st_size;
    unsigned p_memsz;
} layout;

static const layout layout32 = {
    4, 52, 28, 32, 42, 44, 46, 48, 50,
    32, 0, 24, 4, 8, 16, 28,
    40, 4, 16, 20, 24, 28, 32, 36,
    16, 0, 12, 14, 4, 8,
    20,
};

static const layout layout64 = {
    8, 64, 32, 40, 54, 56, 58, 60, 62,
    56, 0, 4, 8, 16, 32, 48,
    64, 4, 24, 32, 40, 44, 48, 56,
    24, 0, 4, 6, 8, 16,
    40,
};

struct pd_elf {
    pd_elf_info info;
    view file;
    const layout *L;
    int big;
    view phdrs, shdrs;
    size_t phnum, shnum;
    size_t shstrndx;            /* the section-name string table, or shnum if none */
    pd_elf_sym *syms;
    uint64_t *reach;            /* reach[i]: greatest end among syms[0..i] */
    pd_elf_sym *plt;            /* synthesized PLT symbols, by address */
    char *plt_names;
    uint64_t plt_delta;         /* .plt's sh_addr - sh_offset: perf keeps file offsets */
    struct pd_elf_plt_answer *plt_answers; /* what perf finds in the PLT area, by address; */
    size_t nr_answers;          /* none: the entries alone */
    pd_elf_sym *plt_copies;     /* the answers that are no entry and none of syms */
    pd_elf *plt_syms;           /* the symbols' file when not this one (a reference) */
    void *mapping;              /* pd_elf_open_file's mmap, else NULL */
    size_t mapping_size;
    /* The PT_LOAD segments decoded once, in table order: map_to_vaddr runs
       for every user frame. all_loads is 0 when there were more. */
    struct { uint64_t offset, filesz, memsz, vaddr; int exec; } loads[16];
    size_t nloads;
    int all_loads;
    uint64_t dev, ino;          /* the file's identity (pd_elf_find shares by it) */
    size_t refs;                /* pd_elf_close drops one */
};

/* The files pd_elf_find has opened, by identity: many recorded names can
   be one file (links, "/proc/self/exe", ...), read once. Open addressing;
   each entry holds a reference. Inode numbers are not the input's to
   choose, so a plain mix of them spreads them well enough. */
struct pd_elf__opened {
    pd_elf **slots;
    size_t n, cap;
};

static size_t opened_slot(const struct pd_elf__opened *o, uint64_t dev, uint64_t ino) {
    uint64_t h = (ino ^ (dev * 0x9E3779B97F4A7C15ull)) * 0xBF58476D1CE4E5B9ull;
    size_t i = (size_t)(h >> 32) & (o->cap - 1);
    while (o->slots[i] && !(o->slots[i]->dev == dev && o->slots[i]->ino == ino)) i = (i + 1) & (o->cap - 1);
    return i;
}

/* A field of an entry whose view is at least the layout's entry size. */
static uint64_t field(const pd_elf *e, view entry, unsigned at, unsigned width) {
    if (at > entry.n || width > entry.n - at) return 0; /* unreachable: entries are sized exactly */
    return load(entry.p + at, width, e->big);
}

static view entry_at(view table, size_t index, unsigned size) {
    view v;
    v.p = table.p + index * size;
    v.n = size;
    v.offset = table.offset + (uint64_t)index * size;
    return v;
}

static view phdr(const pd_elf *e, size_t i) { return entry_at(e->phdrs, i, e->L->phdr_size); }
static view shdr(const pd_elf *e, size_t i) { return entry_at(e->shdrs, i, e->L->shdr_size); }

static uint64_t ph_word(const pd_elf *e, size_t i, unsigned at) { return field(e, phdr(e, i), at, e->L->word); }
static uint64_t sh_word(const pd_elf *e, size_t i, unsigned at) { return field(e, shdr(e, i), at, e->L->word); }
static uint32_t ph_u32(const pd_elf *e, size_t i, unsigned at) { return (uint32_t)field(e, phdr(e, i), at, 4); }
static uint32_t sh_u32(const pd_elf *e, size_t i, unsigned at) { return (uint32_t)field(e, shdr(e, i), at, 4); }

/* ------------------------------------------------------------- headers */

static pd_elf_status parse_ident(pd_elf *e, pd_elf_error *err) {
    const unsigned char *p = e->file.p;
    if (e->file.n < PD_ELF_EI_NIDENT) return fail(err, PD_ELF_TRUNCATED, e->file.n, "shorter than e_ident");
    if (p[0] != 0x7f || p[1] != 'E' || p[2] != 'L' || p[3] != 'F')
        return fail(err, PD_ELF_UNSUPPORTED, 0, "no ELF magic");
    if (p[PD_ELF_EI_CLASS] != PD_ELF_CLASS32 && p[PD_ELF_EI_CLASS] != PD_ELF_CLASS64)
        return fail(err, PD_ELF_UNSUPPORTED, PD_ELF_EI_CLASS, "unknown ELF class");
    if (p[PD_ELF_EI_DATA] != PD_ELF_DATA2LSB && p[PD_ELF_EI_DATA] != PD_ELF_DATA2MSB)
        return fail(err, PD_ELF_UNSUPPORTED, PD_ELF_EI_DATA, "unknown ELF byte order");
    if (p[PD_ELF_EI_VERSION] != PD_ELF_EV_CURRENT)
        return fail(err, PD_ELF_UNSUPPORTED, PD_ELF_EI_VERSION, "unknown ELF version");
    e->L = p[PD_ELF_EI_CLASS] == PD_ELF_CLASS64 ? &layout64 : &layout32;
    e->big = p[PD_ELF_EI_DATA] == PD_ELF_DATA2MSB;
    if (e->file.n < e->L->ehdr_size) return fail(err, PD_ELF_TRUNCATED, e->file.n, "shorter than the ELF header");
    e->info.elf64 = e->L == &layout64;
    e->info.big_endian = e->big;
    e->info.type = (unsigned)load(p + 16, 2, e->big);
    e->info.machine = (unsigned)load(p + 18, 2, e->big);
    return PD_ELF_OK;
}

static uint64_t ehdr(const pd_elf *e, unsigned at, unsigned width) { return load(e->file.p + at, width, e->big); }

/* A header table of count entries: exact entry size, after the ELF header,
   inside the file (count checked by division so that it cannot wrap). */
static pd_elf_status table(pd_elf *e, uint64_t off, uint64_t count, unsigned entsize_at, unsigned want, view *out,
                           pd_elf_error *err, const char *what) {
    out->p = e->file.p; out->n = 0; out->offset = off;
    if (count == 0) return PD_ELF_OK;
    if (ehdr(e, entsize_at, 2) != want) return fail(err, PD_ELF_MALFORMED, entsize_at, what);
    if (off < e->L->ehdr_size) return fail(err, PD_ELF_MALFORMED, off, "header table overlaps the ELF header");
    if (off > e->file.n || count > (e->file.n - off) / want)
        return fail(err, PD_ELF_TRUNCATED, off, "header table runs past the end of the file");
    return sub(e->file, off, count * want, out) ? PD_ELF_OK
                                                : fail(err, PD_ELF_TRUNCATED, off, "header table runs past the end of the file");
}

/* e_shnum, e_shstrndx and e_phnum overflow into section 0 when the real
   values do not fit 16 bits (gABI "extended numbering"). */
static pd_elf_status section_zero(pd_elf *e, uint64_t shoff, uint64_t *shnum, uint64_t *shstrndx, uint64_t *phnum,
                                  pd_elf_error *err) {
    view zero;
    pd_elf_status st;
    if (*shnum != 0 && *shstrndx != PD_ELF_SHN_XINDEX && *phnum != PD_ELF_PN_XNUM) return PD_ELF_OK;
    if (shoff == 0) {
        if (*phnum == PD_ELF_PN_XNUM || *shstrndx == PD_ELF_SHN_XINDEX)
            return fail(err, PD_ELF_MALFORMED, 0, "extended numbering without section headers");
        return PD_ELF_OK;
    }
    st = table(e, shoff, 1, e->L->e_shentsize, e->L->shdr_size, &zero, err, "e_shentsize is wrong");
    if (st != PD_ELF_OK) return st;
    if (*shnum == 0) *shnum = field(e, zero, e->L->sh_size, e->L->word);
    if (*shstrndx == PD_ELF_SHN_XINDEX) *shstrndx = field(e, zero, e->L->sh_link, 4);
    if (*phnum == PD_ELF_PN_XNUM) *phnum = field(e, zero, e->L->sh_info, 4);
    return PD_ELF_OK;
}

static pd_elf_status parse_tables(pd_elf *e, pd_elf_error *err) {
    const layout *L = e->L ? e->L : &layout64; /* set by parse_ident, which runs first */
    uint64_t phoff = ehdr(e, L->e_phoff, L->word), shoff = ehdr(e, L->e_shoff, L->word);
    uint64_t phnum = ehdr(e, L->e_phnum, 2), shnum = ehdr(e, L->e_shnum, 2), shstrndx = ehdr(e, L->e_shstrndx, 2);
    pd_elf_status st = section_zero(e, shoff, &shnum, &shstrndx, &phnum, err);
    if (st != PD_ELF_OK) return st;
    if (shoff == 0 && shnum != 0) return fail(err, PD_ELF_MALFORMED, L->e_shnum, "sections but no section header table");
    st = table(e, phoff, phnum, L->e_phentsize, L->phdr_size, &e->phdrs, err, "e_phentsize is wrong");
    if (st != PD_ELF_OK) return st;
    st = table(e, shoff, shnum, L->e_shentsize, L->shdr_size, &e->shdrs, err, "e_shentsize is wrong");
    if (st != PD_ELF_OK) return st;
    if (shnum && shstrndx >= shnum) return fail(err, PD_ELF_MALFORMED, L->e_shstrndx, "e_shstrndx out of range");
    e->phnum = (size_t)phnum;   /* both fit: their tables lie in the buffer */
    e->shnum = (size_t)shnum;
    e->shstrndx = shnum ? (size_t)shstrndx : 0;
    return PD_ELF_OK;
}

/* The file bytes of section i; SHT_NOBITS has none. */
static pd_elf_status section_data(const pd_elf *e, size_t i, view *out, pd_elf_error *err) {
    uint64_t off = sh_word(e, i, e->L->sh_offset), size = sh_word(e, i, e->L->sh_size);
    if (sh_u32(e, i, e->L->sh_type) == PD_ELF_SHT_NOBITS) { out->p = e->file.p; out->n = 0; out->offset = off; return PD_ELF_OK; }
    if (!sub(e->file, off, size, out)) return fail(err, PD_ELF_TRUNCATED, off, "section runs past the end of the file");
    return PD_ELF_OK;
}

/* ------------------------------------------------------------ build id */

static uint64_t align_up(uint64_t v, uint64_t align) { return (v + align - 1) & ~(align - 1); }

/* Skips n bytes at *pos and the padding after them; the padding may be
   missing at the very end of the area. */
static int note_skip(view area, uint64_t *pos, uint64_t n, uint64_t align) {
    if (n > area.n - *pos) return 0;
    *pos = align_up(*pos + n, align);
    if (*pos > area.n) *pos = area.n;
    return 1;
}

/* Notes: namesz, descsz, type (4 bytes each), then name and desc, each
   padded to the area's alignment (8 for 8-aligned note sections, else 4). */
static pd_elf_status scan_notes(pd_elf *e, view area, uint64_t area_align, pd_elf_error *err) {
    uint64_t pos = 0, align = area_align == 8 ? 8 : 4;
    while (area.n - pos >= 12) {
        uint64_t namesz = load(area.p + pos, 4, e->big), descsz = load(area.p + pos + 4, 4, e->big);
        uint64_t type = load(area.p + pos + 8, 4, e->big), name_at = pos + 12, desc_at;
        pos += 12;
        if (!note_skip(area, &pos, namesz, align)) return fail(err, PD_ELF_MALFORMED, area.offset + name_at, "note name runs past its area");
        desc_at = pos;
        if (!note_skip(area, &pos, descsz, align)) return fail(err, PD_ELF_MALFORMED, area.offset + desc_at, "note desc runs past its area");
        if (type == PD_ELF_NT_GNU_BUILD_ID && namesz == 4 && !memcmp(area.p + name_at, "GNU", 4) && descsz) {
            e->info.build_id = area.p + desc_at;
            e->info.build_id_size = (size_t)descsz;
            return PD_ELF_OK;
        }
    }
    return PD_ELF_OK;
}

/* Segments first: they are what the loader (and perf's build-id reader)
   sees; sections for files without program headers. */
static pd_elf_status find_build_id(pd_elf *e, pd_elf_error *err) {
    size_t i;
    pd_elf_status st;
    view area;
    for (i = 0; i < e->phnum && !e->info.build_id; i++) {
        uint64_t off = ph_word(e, i, e->L->p_offset), size = ph_word(e, i, e->L->p_filesz);
        if (ph_u32(e, i, e->L->p_type) != PD_ELF_PT_NOTE) continue;
        if (!sub(e->file, off, size, &area)) return fail(err, PD_ELF_TRUNCATED, off, "PT_NOTE runs past the end of the file");
        if ((st = scan_notes(e, area, ph_word(e, i, e->L->p_align), err)) != PD_ELF_OK) return st;
    }
    for (i = 0; i < e->shnum && !e->info.build_id; i++) {
        if (sh_u32(e, i, e->L->sh_type) != PD_ELF_SHT_NOTE) continue;
        if ((st = section_data(e, i, &area, err)) != PD_ELF_OK) return st;
        if ((st = scan_notes(e, area, sh_word(e, i, e->L->sh_addralign), err)) != PD_ELF_OK) return st;
    }
    return PD_ELF_OK;
}

/* ------------------------------------------------------------- symbols */

/* A NUL-terminated string at off in a string table, or NULL. */
static const char *string_at(view strs, uint64_t off) {
    /* a table that ends in NUL (as every ELF string table does) ends every
       string in it: only the offset is checked, not each name's bytes */
    if (off >= strs.n || (strs.p[strs.n - 1] != 0 && !memchr(strs.p + off, 0, strs.n - (size_t)off))) return NULL;
    return (const char *)strs.p + off;
}

typedef struct symtab {
    view syms, strs;
    const char *name;
} symtab;

/* The first section of type sh_type with its string table; 0 when none. */
static pd_elf_status find_symtab(const pd_elf *e, uint32_t sh_type, symtab *out, int *found, pd_elf_error *err) {
    size_t i, link;
    pd_elf_status st;
    *found = 0;
    for (i = 0; i < e->shnum; i++) {
        if (sh_u32(e, i, e->L->sh_type) == sh_type) break;
    }
    if (i == e->shnum) return PD_ELF_OK;
    if (sh_word(e, i, e->L->sh_entsize) != e->L->sym_size)
        return fail(err, PD_ELF_MALFORMED, shdr(e, i).offset, "symbol table sh_entsize is wrong");
    link = sh_u32(e, i, e->L->sh_link);
    if (link == 0 || link >= e->shnum || link == i || sh_u32(e, link, e->L->sh_type) != PD_ELF_SHT_STRTAB)
        return fail(err, PD_ELF_MALFORMED, shdr(e, i).offset, "symbol table sh_link is not a string table");
    if ((st = section_data(e, i, &out->syms, err)) != PD_ELF_OK) return st;
    if ((st = section_data(e, link, &out->strs, err)) != PD_ELF_OK) return st;
    out->name = sh_type == PD_ELF_SHT_SYMTAB ? ".symtab" : ".dynsym";
    *found = 1;
    return PD_ELF_OK;
}

/* perf also keeps labels (elf_sym__is_label): untyped, visible symbols
   defined in a section whose name contains "text", such as ld.so's _start. */
static int is_text_label(const pd_elf *e, view s, unsigned type) {
    const layout *L = e->L;
    uint64_t shndx = field(e, s, L->st_shndx, 2), name_off;
    unsigned other = (unsigned)field(e, s, L->st_info + 1, 1); /* st_other follows st_info */
    view names;
    const char *sec;
    if (type != PD_ELF_STT_NOTYPE || shndx == PD_ELF_SHN_ABS || shndx >= e->shnum) return 0;
    if ((other & 3) == PD_ELF_STV_INTERNAL || (other & 3) == PD_ELF_STV_HIDDEN) return 0;
    if (e->shstrndx >= e->shnum || section_data(e, e->shstrndx, &names, NULL) != PD_ELF_OK) return 0;
    name_off = field(e, shdr(e, (size_t)shndx), 0, 4); /* sh_name is the first word in both classes */
    sec = string_at(names, name_off);
    return sec && strstr(sec, "text") != NULL;
}

/* One pass over a symbol table: counts the function symbols, and stores
   up to cap of them when out is not NULL (the cap holds even if a mapped
   file changes between the counting pass and this one). Entry 0 is the
   null symbol. */
static pd_elf_status scan_symbols(const pd_elf *e, const symtab *t, pd_elf_sym *out, size_t cap, size_t *count,
                                  pd_elf_error *err) {
    const layout *L = e->L;
    size_t i, n = t->syms.n / L->sym_size;
    const char *file = NULL;
    *count = 0;
    for (i = 1; i < n; i++) {
        view s = entry_at(t->syms, i, L->sym_size);
        unsigned info = (unsigned)field(e, s, L->st_info, 1), type = info & 0xf;
        const char *name = string_at(t->strs, field(e, s, L->st_name, 4));
        if (!name) return fail(err, PD_ELF_MALFORMED, s.offset, "symbol name outside its string table");
        if (type == PD_ELF_STT_FILE) file = name; /* "" too: addr2line names an empty one "" */
        if (!name[0] || field(e, s, L->st_shndx, 2) == PD_ELF_SHN_UNDEF) continue;
        if (type != PD_ELF_STT_FUNC && type != PD_ELF_STT_GNU_IFUNC && !is_text_label(e, s, type)) continue;
        if (out && *count == cap) break;
        if (out) {
            pd_elf_sym *o = &out[*count];
            o->addr = field(e, s, L->st_value, L->word);
            if (e->info.machine == PD_ELF_EM_ARM) o->addr &= ~(uint64_t)1; /* the Thumb bit is not an address */
            o->size = field(e, s, L->st_size, L->word);
            o->end = 0;
            o->name = name;
            o->bind = (unsigned char)(info >> 4);
            o->file = o->bind == PD_ELF_STB_LOCAL ? file : NULL;
            o->type = (unsigned char)type;
        }
        ++*count;
    }
    return PD_ELF_OK;
}

static size_t leading_underscores(const char *s) {
    size_t n = 0;
    while (s[n] == '_') n++;
    return n;
}

/* Which of two symbols at one address to keep, as perf chooses: a sized
   one, then a non-weak one, then a global one, then fewer leading
   underscores, then the longer name. Negative: a wins. */
static int preference(uint64_t size_a, int bind_a, const char *name_a, uint64_t size_b, int bind_b, const char *name_b) {
    size_t ua, ub, la, lb;
    if (!size_a != !size_b) return size_a ? -1 : 1;
    if ((bind_a == PD_ELF_STB_WEAK) != (bind_b == PD_ELF_STB_WEAK)) return bind_a == PD_ELF_STB_WEAK ? 1 : -1;
    if ((bind_a == PD_ELF_STB_GLOBAL) != (bind_b == PD_ELF_STB_GLOBAL)) return bind_a == PD_ELF_STB_GLOBAL ? -1 : 1;
    ua = leading_underscores(name_a); ub = leading_underscores(name_b);
    if (ua != ub) return ua < ub ? -1 : 1;
    la = strlen(name_a); lb = strlen(name_b);
    if (la != lb) return la > lb ? -1 : 1;
    return 0;
}

static int cmp_opt_str(const char *a, const char *b) {
    if (!a || !b) return (a != NULL) - (b != NULL);
    return strcmp(a, b);
}

/* By address, the preferred symbol first: deduplication keeps the first. */
static int cmp_sym(const void *pa, const void *pb) {
    const pd_elf_sym *a = (const pd_elf_sym *)pa, *b = (const pd_elf_sym *)pb;
    int c;
    if (a->addr != b->addr) return a->addr < b->addr ? -1 : 1;
    if ((c = preference(a->size, a->bind, a->name, b->size, b->bind, b->name)) != 0) return c;
    /* all else equal, the first in the table (perf's arch__choose_best_symbol
       keeps the one inserted first); finish_symbols put the index in end */
    return a->end < b->end ? -1 : a->end > b->end;
}

/* The end of the page after the one holding addr: perf's end for a size-0
   symbol with no next symbol to stop at. */
static uint64_t page_end(uint64_t addr) {
    uint64_t up = addr > UINT64_MAX - (PD_ELF_PAGE - 1) ? UINT64_MAX : align_up(addr, PD_ELF_PAGE);
    return up > UINT64_MAX - PD_ELF_PAGE ? UINT64_MAX : up + PD_ELF_PAGE;
}

static uint64_t sized_end(uint64_t addr, uint64_t size) { return size > UINT64_MAX - addr ? UINT64_MAX : addr + size; }

/* Sort, keep one symbol per address, and give each its end. */
static size_t finish_symbols(pd_elf_sym *syms, uint64_t *reach, size_t n) {
    size_t i, kept = 0;
    for (i = 0; i < n; i++) syms[i].end = i; /* the table order, for cmp_sym; set below */
    qsort(syms, n, sizeof *syms, cmp_sym);
    for (i = 0; i < n; i++) {
        if (kept && syms[kept - 1].addr == syms[i].addr) continue;
        syms[kept++] = syms[i];
    }
    for (i = 0; i < kept; i++) {
        pd_elf_sym *s = &syms[i];
        if (s->size) s->end = sized_end(s->addr, s->size);
        else s->end = i + 1 < kept ? syms[i + 1].addr : page_end(s->addr);
        reach[i] = i && reach[i - 1] > s->end ? reach[i - 1] : s->end;
    }
    return kept;
}

static pd_elf_status read_symbols(pd_elf *e, const symtab *t, size_t count, pd_elf_error *err) {
    pd_elf_status st;
    /* one block: the symbols, then their reach (8-byte aligned after them) */
    if (count > (SIZE_MAX - 8) / (sizeof(pd_elf_sym) + sizeof(uint64_t))) return fail(err, PD_ELF_NO_MEMORY, 0, NULL);
    e->syms = (pd_elf_sym *)malloc(count * (sizeof(pd_elf_sym) + sizeof(uint64_t)));
    if (!e->syms) return fail(err, PD_ELF_NO_MEMORY, 0, NULL);
    e->reach = (uint64_t *)(void *)(e->syms + count);
    if ((st = scan_symbols(e, t, e->syms, count, &count, err)) != PD_ELF_OK) return st;
    e->info.nr_symbols = finish_symbols(e->syms, e->reach, count);
    e->info.symbols = e->syms;
    e->info.symbol_table = t->name;
    return PD_ELF_OK;
}

/* .symtab when it has functions (a debug stub may have none), else .dynsym:
   read (read_it), or only named in *table (NULL: neither has functions). */
static pd_elf_status choose_symbols(pd_elf *e, int read_it, const char **table, pd_elf_error *err) {
    static const uint32_t kinds[2] = {PD_ELF_SHT_SYMTAB, PD_ELF_SHT_DYNSYM};
    int k, found;
    *table = NULL;
    for (k = 0; k < 2; k++) {
        symtab t;
        size_t count;
        pd_elf_status st = find_symtab(e, kinds[k], &t, &found, err);
        if (st != PD_ELF_OK) return st;
        if (!found) continue;
        if ((st = scan_symbols(e, &t, NULL, 0, &count, err)) != PD_ELF_OK) return st;
        if (!count) continue;
        *table = t.name;
        return read_it ? read_symbols(e, &t, count, err) : PD_ELF_OK;
    }
    return PD_ELF_OK;
}

static pd_elf_status load_symbols(pd_elf *e, pd_elf_error *err) {
    const char *table;
    return choose_symbols(e, 1, &table, err);
}

/* ------------------------------------------------------------------ plt */

/* perf 6.1 keeps all of a binary's symbols in one red-black tree ordered by
   start (dso__load): those of .symtab, then those of .dynsym, each table
   followed by symbols__fixup_end (a size-0 symbol ends where the next one
   in the tree starts) and symbols__fixup_duplicate (one symbol per start);
   then, when the tables gave any symbol, one "name@plt" per PLT relocation
   (dso__synthesize_plt_symbols), with no fixup after them. symbols__find
   walks down from the root and takes the first symbol that holds the
   address. Symbols overlap there: a size-0 symbol just before the PLT (the
   _init of any binary that keeps .symtab) reaches over all of it, and an
   address in an entry is the entry's or _init's as one or the other comes
   first on the way down, which only the tree's shape says. So inside the
   PLT area (.plt, .plt.got, .plt.sec and the entries) the tree is built
   as perf builds it, and what symbols__find gives there is kept. */

#define PD_ELF_NIL ((size_t)-1)
#define PD_ELF_SHF_ALLOC 2
#define PD_ELF_STT_OBJECT 1
#define PD_ELF_EM_SPARC 2
#define PD_ELF_EM_SPARCV9 43
#define PD_ELF_PLT_NAME_MAX 1023 /* perf's "%s@plt" goes into a char[1024] */

/* The section perf's elf_section_by_name finds: the first of that name
   after section 0; shnum when none. */
static size_t section_named(const pd_elf *e, const char *want) {
    view names;
    size_t i;
    if (e->shstrndx >= e->shnum || section_data(e, e->shstrndx, &names, NULL) != PD_ELF_OK) return e->shnum;
    for (i = 1; i < e->shnum; i++) {
        const char *n = string_at(names, field(e, shdr(e, i), 0, 4));
        if (n && !strcmp(n, want)) return i;
    }
    return e->shnum;
}

static uint64_t sh_addr(const pd_elf *e, size_t i) { return sh_word(e, i, e->L->word == 8 ? 16 : 12); }
static uint64_t sh_flags(const pd_elf *e, size_t i) { return sh_word(e, i, 8); }

int pd_elf_first_load(const pd_elf *elf, uint64_t *vaddr) {
    size_t i;
    if (!elf) return 0;
    for (i = 0; i < elf->phnum; i++) {
        if (ph_u32(elf, i, elf->L->p_type) != PD_ELF_PT_LOAD) continue;
        *vaddr = ph_word(elf, i, elf->L->p_vaddr);
        return 1;
    }
    return 0;
}

int pd_elf_section_addr(const pd_elf *elf, const char *name, uint64_t *addr) {
    size_t i;
    if (!elf || !name || (i = section_named(elf, name)) >= elf->shnum) return 0;
    *addr = sh_addr(elf, i);
    return 1;
}

int pd_elf_section(const pd_elf *elf, const char *name, const unsigned char **data, size_t *size, uint64_t *flags) {
    size_t i;
    view v;
    if (!elf || !name || (i = section_named(elf, name)) >= elf->shnum || section_data(elf, i, &v, NULL) != PD_ELF_OK)
        return 0;
    if (data) *data = v.p;
    if (size) *size = v.n;
    if (flags) *flags = sh_flags(elf, i);
    return 1;
}

/* perf 6.1's PLT layout: header and entry sizes for ARM, AArch64 and SPARC,
   else both sh_entsize (16 on x86 .plt, 0 when the linker leaves it 0). */
static uint64_t plt_entry_size(const pd_elf *e, size_t plt, uint64_t *header) {
    uint64_t entsize = sh_word(e, plt, e->L->sh_entsize);
    switch (e->info.machine) {
    case PD_ELF_EM_ARM: *header = 20; return 12;
    case PD_ELF_EM_AARCH64: *header = 32; return 16;
    case PD_ELF_EM_SPARC: *header = 48; return 12;
    case PD_ELF_EM_SPARCV9: *header = 128; return 32;
    default: *header = entsize; return entsize;
    }
}

/* ---- perf's symbols, as dso__load_sym_internal takes them */

typedef struct perf_table {
    view syms, strs;
    size_t count;
} perf_table;

/* The table perf reads: the section of that name, when it has that type.
   1: found; 0: none; -1: perf's load fails (no data, no string table). */
static int perf_table_at(const pd_elf *e, const char *name, uint32_t sh_type, perf_table *t) {
    size_t i = section_named(e, name), link;
    uint64_t entsize;
    if (i == e->shnum || sh_u32(e, i, e->L->sh_type) != sh_type) return 0;
    link = sh_u32(e, i, e->L->sh_link);
    if (link >= e->shnum || section_data(e, i, &t->syms, NULL) != PD_ELF_OK ||
        section_data(e, link, &t->strs, NULL) != PD_ELF_OK)
        return -1;
    entsize = sh_word(e, i, e->L->sh_entsize);
    t->count = entsize ? (size_t)(sh_word(e, i, e->L->sh_size) / entsize) : 0; /* both bounded by the data below */
    if (t->count > t->syms.n / e->L->sym_size) t->count = t->syms.n / e->L->sym_size;
    return 1;
}

typedef struct perf_sym {
    uint64_t key;               /* perf's start: a file offset (dso->adjust_symbols) */
    uint64_t vaddr, size;
    const char *name;           /* NULL: outside its string table */
    unsigned char bind, type;
} perf_sym;

/* ARM mapping symbols ($a, $d, $t, $x, and "$a.foo"), read as perf reads
   them: after a lone "$" it looks at the byte past the terminator. */
static int arm_mapping_symbol(view strs, uint64_t off) {
    unsigned char c1, c2;
    if (off >= strs.n || strs.p[off] != '$' || strs.n - off < 3) return 0;
    c1 = strs.p[off + 1];
    c2 = strs.p[off + 2];
    return (!c1 || strchr("adtx", c1)) && (!c2 || c2 == '.');
}

/* perf's file offset for a symbol value: through the runtime binary's
   PT_LOAD holding it (elf_read_program_header), else through the symbol's
   section. */
static uint64_t perf_key(const pd_elf *run, uint64_t value, const pd_elf *sec_elf, size_t sec) {
    size_t i;
    if (run->all_loads) { /* the same walk over the PT_LOADs decoded once: it runs for every symbol */
        for (i = 0; i < run->nloads; i++) {
            uint64_t vaddr = run->loads[i].vaddr, filesz = run->loads[i].filesz, memsz = run->loads[i].memsz;
            uint64_t sz = memsz > filesz ? memsz : filesz;
            if (sz && value >= vaddr && value < vaddr + sz) return value - (vaddr - run->loads[i].offset);
        }
        return value - (sh_addr(sec_elf, sec) - sh_word(sec_elf, sec, sec_elf->L->sh_offset));
    }
    for (i = 0; i < run->phnum; i++) {
        uint64_t vaddr = ph_word(run, i, run->L->p_vaddr), filesz = ph_word(run, i, run->L->p_filesz);
        uint64_t memsz = ph_word(run, i, run->L->p_memsz), sz = memsz > filesz ? memsz : filesz;
        if (ph_u32(run, i, run->L->p_type) != PD_ELF_PT_LOAD || !sz) continue;
        if (value >= vaddr && value < vaddr + sz) return value - (vaddr - ph_word(run, i, run->L->p_offset));
    }
    return value - (sh_addr(sec_elf, sec) - sh_word(sec_elf, sec, sec_elf->L->sh_offset));
}

/* Symbol i of table t of s, the symbols' file (run: the runtime binary):
   1 and *out when perf keeps it, 0 when it skips it, -1 when perf's load
   fails on it (a section index libelf has no section for). Its name only
   when named: finding its end is half the cost of a count. */
static int perf_symbol(const pd_elf *s, const pd_elf *run, const perf_table *t, size_t i, perf_sym *out, int named) {
    const layout *L = s->L;
    view sym = entry_at(t->syms, i, L->sym_size), names;
    uint64_t name_off = field(s, sym, L->st_name, 4), shndx = field(s, sym, L->st_shndx, 2);
    uint64_t value = field(s, sym, L->st_value, L->word);
    unsigned info = (unsigned)field(s, sym, L->st_info, 1), other = (unsigned)field(s, sym, L->st_info + 1, 1);
    unsigned type = info & 0xf, vis = other & 3;
    const pd_elf *where = s;    /* whose section header perf reads */
    int label = type == PD_ELF_STT_NOTYPE && name_off && shndx != PD_ELF_SHN_UNDEF && shndx != PD_ELF_SHN_ABS &&
                vis != PD_ELF_STV_HIDDEN && vis != PD_ELF_STV_INTERNAL;
    if (!label && !((type == PD_ELF_STT_FUNC || type == PD_ELF_STT_GNU_IFUNC || type == PD_ELF_STT_OBJECT) && name_off &&
                    shndx != PD_ELF_SHN_UNDEF))
        return 0;
    if ((s->info.machine == PD_ELF_EM_ARM || s->info.machine == PD_ELF_EM_AARCH64) && arm_mapping_symbol(t->strs, name_off))
        return 0;
    if (shndx == PD_ELF_SHN_ABS) return 0;
    if (shndx >= s->shnum) return -1;
    if (!(sh_flags(s, (size_t)shndx) & PD_ELF_SHF_ALLOC)) return 0;
    /* NOBITS (a debug file's copy of a section): the runtime binary's header */
    if (sh_u32(s, (size_t)shndx, L->sh_type) == PD_ELF_SHT_NOBITS) {
        if (shndx >= run->shnum) return -1;
        where = run;
    }
    if (label) {                /* labels only in sections named *text* or *data* */
        const char *sec = where->shstrndx < where->shnum &&
                                  section_data(where, where->shstrndx, &names, NULL) == PD_ELF_OK
                              ? string_at(names, field(where, shdr(where, (size_t)shndx), 0, 4)) : NULL;
        if (!sec || (!strstr(sec, "text") && !strstr(sec, "data"))) return 0;
    }
    if (s->info.machine == PD_ELF_EM_ARM && type == PD_ELF_STT_FUNC && (value & 1)) value--;
    out->key = perf_key(run, value, where, (size_t)shndx);
    out->vaddr = value;
    out->size = field(s, sym, L->st_size, L->word);
    out->name = named ? string_at(t->strs, name_off) : NULL;
    out->bind = (unsigned char)(info >> 4);
    out->type = (unsigned char)type;
    return 1;
}

/* ---- perf's tree: lib/rbtree.c's insertion and erasure, on indices */

typedef struct pnode {
    uint64_t start, end;        /* perf's, in file offsets; end == start: holds only start */
    uint64_t vaddr, size;
    const char *name;
    size_t child[2], parent;
    size_t entry;               /* the PLT entry it is, or PD_ELF_NIL */
    unsigned char red, bind, type, gone;
} pnode;

typedef struct ptree {
    pnode *n;
    size_t count, root;
} ptree;

static void change_child(ptree *t, size_t old, size_t now, size_t parent) {
    if (parent == PD_ELF_NIL) t->root = now;
    else t->n[parent].child[t->n[parent].child[1] == old] = now;
}

/* now takes old's place and colour; old becomes now's child of colour red */
static void rotate_set_parents(ptree *t, size_t old, size_t now, int red) {
    size_t parent = t->n[old].parent;
    t->n[now].parent = parent;
    t->n[now].red = t->n[old].red;
    t->n[old].parent = now;
    t->n[old].red = (unsigned char)red;
    change_child(t, old, now, parent);
}

/* __symbols__insert: equal starts go right; then __rb_insert */
static void ptree_insert(ptree *t, size_t x) {
    size_t p = PD_ELF_NIL, cur = t->root, node = x, parent, g, u, tmp;
    int d = 0;
    while (cur != PD_ELF_NIL) {
        p = cur;
        d = !(t->n[x].start < t->n[cur].start);
        cur = t->n[cur].child[d];
    }
    t->n[x].parent = p;
    t->n[x].child[0] = t->n[x].child[1] = PD_ELF_NIL;
    t->n[x].red = 1;
    if (p == PD_ELF_NIL) t->root = x;
    else t->n[p].child[d] = x;
    for (;;) {
        parent = t->n[node].parent;
        if (parent == PD_ELF_NIL) { t->n[node].red = 0; break; }
        if (!t->n[parent].red) break;
        g = t->n[parent].parent;
        d = t->n[g].child[1] == parent; /* parent is g's child d */
        u = t->n[g].child[!d];
        if (u != PD_ELF_NIL && t->n[u].red) { /* case 1: colour flips, go up */
            t->n[u].red = 0;
            t->n[parent].red = 0;
            t->n[g].red = 1;
            node = g;
            continue;
        }
        if (node == t->n[parent].child[!d]) { /* case 2: rotate at parent */
            tmp = t->n[node].child[d];
            t->n[parent].child[!d] = tmp;
            t->n[node].child[d] = parent;
            if (tmp != PD_ELF_NIL) { t->n[tmp].parent = parent; t->n[tmp].red = 0; }
            t->n[parent].parent = node;
            t->n[parent].red = 1;
            parent = node;
        }
        tmp = t->n[parent].child[!d]; /* case 3: rotate at g */
        t->n[g].child[d] = tmp;
        t->n[parent].child[!d] = g;
        if (tmp != PD_ELF_NIL) { t->n[tmp].parent = g; t->n[tmp].red = 0; }
        rotate_set_parents(t, g, parent, 1);
        break;
    }
}

/* ____rb_erase_color */
static void ptree_erase_color(ptree *t, size_t parent) {
    size_t node = PD_ELF_NIL, sibling, tmp1, tmp2;
    int d;
    for (;;) {
        d = t->n[parent].child[1] == node; /* node is parent's child d (the left one when both are NIL) */
        sibling = t->n[parent].child[!d];
        if (t->n[sibling].red) { /* case 1: rotate at parent */
            tmp1 = t->n[sibling].child[d];
            t->n[parent].child[!d] = tmp1;
            t->n[sibling].child[d] = parent;
            t->n[tmp1].parent = parent;
            t->n[tmp1].red = 0;
            rotate_set_parents(t, parent, sibling, 1);
            sibling = tmp1;
        }
        tmp1 = t->n[sibling].child[!d];
        if (tmp1 == PD_ELF_NIL || !t->n[tmp1].red) {
            tmp2 = t->n[sibling].child[d];
            if (tmp2 == PD_ELF_NIL || !t->n[tmp2].red) { /* case 2: sibling colour flip */
                t->n[sibling].red = 1;
                if (t->n[parent].red) t->n[parent].red = 0;
                else {
                    node = parent;
                    parent = t->n[node].parent;
                    if (parent != PD_ELF_NIL) continue;
                }
                break;
            }
            tmp1 = t->n[tmp2].child[!d]; /* case 3: rotate at sibling */
            t->n[sibling].child[d] = tmp1;
            t->n[tmp2].child[!d] = sibling;
            t->n[parent].child[!d] = tmp2;
            if (tmp1 != PD_ELF_NIL) { t->n[tmp1].parent = sibling; t->n[tmp1].red = 0; }
            tmp1 = sibling;
            sibling = tmp2;
        }
        tmp2 = t->n[sibling].child[d]; /* case 4: rotate at parent */
        t->n[parent].child[!d] = tmp2;
        t->n[sibling].child[d] = parent;
        t->n[tmp1].parent = sibling;
        t->n[tmp1].red = 0;
        if (tmp2 != PD_ELF_NIL) t->n[tmp2].parent = parent;
        rotate_set_parents(t, parent, sibling, 0);
        break;
    }
}

/* __rb_erase_augmented, then the rebalancing */
static void ptree_erase(ptree *t, size_t node) {
    pnode *n = t->n;
    size_t child = n[node].child[1], tmp = n[node].child[0], parent, successor, child2, rebalance, up = n[node].parent;
    if (tmp == PD_ELF_NIL) {
        change_child(t, node, child, up);
        if (child != PD_ELF_NIL) {
            n[child].parent = up;
            n[child].red = n[node].red;
            rebalance = PD_ELF_NIL;
        } else {
            rebalance = n[node].red ? PD_ELF_NIL : up;
        }
    } else if (child == PD_ELF_NIL) {
        n[tmp].parent = up;
        n[tmp].red = n[node].red;
        change_child(t, node, tmp, up);
        rebalance = PD_ELF_NIL;
    } else {
        successor = child;
        tmp = n[child].child[0];
        if (tmp == PD_ELF_NIL) {
            parent = successor;
            child2 = n[successor].child[1];
        } else {
            do {
                parent = successor;
                successor = tmp;
                tmp = n[tmp].child[0];
            } while (tmp != PD_ELF_NIL);
            child2 = n[successor].child[1];
            n[parent].child[0] = child2;
            n[successor].child[1] = child;
            n[child].parent = successor;
        }
        tmp = n[node].child[0];
        n[successor].child[0] = tmp;
        n[tmp].parent = successor;
        change_child(t, node, successor, up);
        if (child2 != PD_ELF_NIL) {
            n[successor].parent = up;
            n[successor].red = n[node].red;
            n[child2].parent = parent;
            n[child2].red = 0;
            rebalance = PD_ELF_NIL;
        } else {
            int was_red = n[successor].red;
            n[successor].parent = up;
            n[successor].red = n[node].red;
            rebalance = was_red ? PD_ELF_NIL : parent;
        }
    }
    n[node].gone = 1;
    if (rebalance != PD_ELF_NIL) ptree_erase_color(t, rebalance);
}

static size_t ptree_first(const ptree *t) {
    size_t x = t->root;
    while (x != PD_ELF_NIL && t->n[x].child[0] != PD_ELF_NIL) x = t->n[x].child[0];
    return x;
}

static size_t ptree_next(const ptree *t, size_t x) {
    size_t p;
    if (t->n[x].child[1] != PD_ELF_NIL) {
        x = t->n[x].child[1];
        while (t->n[x].child[0] != PD_ELF_NIL) x = t->n[x].child[0];
        return x;
    }
    while ((p = t->n[x].parent) != PD_ELF_NIL && t->n[p].child[1] == x) x = p;
    return p;
}

/* symbols__find */
static size_t ptree_find(const ptree *t, uint64_t ip) {
    size_t x = t->root;
    while (x != PD_ELF_NIL) {
        const pnode *s = &t->n[x];
        if (ip < s->start) x = s->child[0];
        else if (ip > s->end || (ip == s->end && ip != s->start)) x = s->child[1];
        else return x;
    }
    return PD_ELF_NIL;
}

/* symbols__fixup_end, for a binary's symbols */
static void ptree_fixup_end(ptree *t) {
    size_t prev, cur = ptree_first(t), x;
    if (cur == PD_ELF_NIL) return;
    for (x = ptree_next(t, cur); x != PD_ELF_NIL; x = ptree_next(t, x)) {
        prev = cur;
        cur = x;
        if (t->n[prev].end == t->n[prev].start) t->n[prev].end = t->n[cur].start;
    }
    if (t->n[cur].end == t->n[cur].start) t->n[cur].end = page_end(t->n[cur].start);
}

/* choose_best_symbol: 1 when a stays. perf compares the lengths after
   symbols__fixup_end, so of two size-0 symbols at one address the later
   one (which reaches the next symbol) wins. */
static int choose_first(const pnode *a, const pnode *b) {
    int64_t la = (int64_t)(a->end - a->start), lb = (int64_t)(b->end - b->start); /* s64, as perf's */
    const char *na = a->name ? a->name : "", *nb = b->name ? b->name : "";
    size_t ua, ub, sa, sb;
    if (!lb && la > 0) return 1;
    if (!la && lb > 0) return 0;
    if ((a->bind == PD_ELF_STB_WEAK) != (b->bind == PD_ELF_STB_WEAK)) return b->bind == PD_ELF_STB_WEAK;
    if ((a->bind == PD_ELF_STB_GLOBAL) != (b->bind == PD_ELF_STB_GLOBAL)) return a->bind == PD_ELF_STB_GLOBAL;
    ua = leading_underscores(na);
    ub = leading_underscores(nb);
    if (ua != ub) return ua < ub;
    sa = strlen(na);
    sb = strlen(nb);
    if (sa != sb) return sa > sb;
    return strncmp(na, "SyS", 3) != 0 && strncmp(na, "compat_SyS", 10) != 0; /* arch__choose_best_symbol */
}

/* symbols__fixup_duplicate */
static void ptree_fixup_duplicate(ptree *t) {
    size_t x = ptree_first(t), cur, next;
    while (x != PD_ELF_NIL) {
        cur = x;
        for (;;) {
            next = ptree_next(t, cur);
            x = next;
            if (next == PD_ELF_NIL || t->n[cur].start != t->n[next].start) break;
            if (choose_first(&t->n[cur], &t->n[next])) {
                ptree_erase(t, next);
                continue;
            }
            x = ptree_next(t, cur);
            ptree_erase(t, cur);
            break;
        }
    }
}

/* ---- the PLT entries, the symbols' pass, and the answers */

typedef struct pd_elf_plt_answer {
    uint64_t lo;                /* from here to the next answer's lo (the last: to plt_end) */
    const pd_elf_sym *sym;      /* NULL: no symbol */
} pd_elf_plt_answer;

static void drop_plt(pd_elf *e) {
    free(e->plt);
    free(e->plt_names);
    free(e->plt_answers);
    free(e->plt_copies);
    e->plt = NULL;
    e->plt_names = NULL;
    e->plt_answers = NULL;
    e->plt_copies = NULL;
    e->nr_answers = 0;
    e->info.plt = NULL;
    e->info.nr_plt = 0;
    e->info.plt_start = e->info.plt_end = 0;
}

/* perf's dso__synthesize_plt_symbols on the runtime binary: one entry per
   PLT relocation, in relocation order (which is address order), named
   after the .dynsym symbol it binds. 0 when there are none. */
static size_t make_plt_entries(pd_elf *e) {
    size_t dynsym = section_named(e, ".dynsym"), rel = section_named(e, ".rela.plt"), plt, strs, i, nr, entsz,
           total = 0, pos = 0, k = 0;
    uint32_t type;
    uint64_t header = 0, entry, addr, first, relent;
    view relv, symv, strv;
    const char *name, *last = NULL;
    if (dynsym == e->shnum || sh_u32(e, dynsym, e->L->sh_type) != PD_ELF_SHT_DYNSYM) return 0;
    if (rel == e->shnum) rel = section_named(e, ".rel.plt");
    if (rel == e->shnum || sh_u32(e, rel, e->L->sh_link) != dynsym) return 0;
    if ((plt = section_named(e, ".plt")) == e->shnum) return 0;
    type = sh_u32(e, rel, e->L->sh_type);
    if (type != PD_ELF_SHT_RELA && type != PD_ELF_SHT_REL) return 0;
    strs = sh_u32(e, dynsym, e->L->sh_link);
    if (strs >= e->shnum || section_data(e, rel, &relv, NULL) != PD_ELF_OK ||
        section_data(e, dynsym, &symv, NULL) != PD_ELF_OK || section_data(e, strs, &strv, NULL) != PD_ELF_OK || !strv.n)
        return 0;
    entry = plt_entry_size(e, plt, &header);
    entsz = e->L->word == 8 ? (type == PD_ELF_SHT_RELA ? 24 : 16) : (type == PD_ELF_SHT_RELA ? 12 : 8);
    relent = sh_word(e, rel, e->L->sh_entsize);
    nr = relent ? (size_t)(uint32_t)(sh_word(e, rel, e->L->sh_size) / relent) : 0; /* perf's uint32_t count */
    if (nr > relv.n / entsz) nr = relv.n / entsz;
    if (!nr) return 0;
    /* perf reads each relocation's symbol with gelf_getsym, which leaves
       the previous one in place when the index is out of range */
    for (i = 0; i < nr; i++) {
        view r = entry_at(relv, i, (unsigned)entsz), sym;
        uint64_t info = field(e, r, e->L->word, e->L->word), idx = e->L->word == 8 ? info >> 32 : info >> 8;
        if (idx < symv.n / e->L->sym_size) {
            sym = entry_at(symv, (size_t)idx, e->L->sym_size);
            last = string_at(strv, field(e, sym, e->L->st_name, 4));
        }
        if (last) total += strlen(last) + 5;
    }
    if (total > PD_ELF_PLT_NAMES_MAX || !(e->plt_names = (char *)malloc(total ? total : 1)) ||
        !(e->plt = (pd_elf_sym *)calloc(nr, sizeof *e->plt))) {
        free(e->plt_names);
        e->plt_names = NULL;
        return 0;
    }
    addr = first = sh_addr(e, plt) + header;
    last = NULL;
    for (i = 0; i < nr; i++, addr += entry) {
        view r = entry_at(relv, i, (unsigned)entsz), sym;
        uint64_t info = field(e, r, e->L->word, e->L->word), idx = e->L->word == 8 ? info >> 32 : info >> 8;
        size_t len;
        if (addr < first) break; /* past the top of the address space */
        if (idx < symv.n / e->L->sym_size) {
            sym = entry_at(symv, (size_t)idx, e->L->sym_size);
            last = string_at(strv, field(e, sym, e->L->st_name, 4));
        }
        if (!(name = last)) continue;
        len = strlen(name);
        memcpy(e->plt_names + pos, name, len);
        memcpy(e->plt_names + pos + len, "@plt", 5);
        if (len + 4 > PD_ELF_PLT_NAME_MAX) e->plt_names[pos + PD_ELF_PLT_NAME_MAX] = 0;
        e->plt[k].addr = addr;
        e->plt[k].size = entry;
        e->plt[k].end = sized_end(addr, entry);
        e->plt[k].name = e->plt_names + pos;
        e->plt[k].type = PD_ELF_STT_FUNC;
        e->plt[k].bind = PD_ELF_STB_GLOBAL;
        k++;
        pos += len + 5;
    }
    return k;
}

/* The PLT sections (.plt, .plt.got and .plt.sec) and the entries. */
static void plt_area(const pd_elf *e, size_t nr, uint64_t *lo, uint64_t *hi) {
    static const char *const names[] = {".plt", ".plt.got", ".plt.sec"};
    size_t i, k;
    *lo = e->plt[0].addr;
    *hi = e->plt[nr - 1].end > e->plt[nr - 1].addr ? e->plt[nr - 1].end : sized_end(e->plt[nr - 1].addr, 1);
    for (k = 0; k < sizeof names / sizeof *names; k++) {
        uint64_t a, z;
        if ((i = section_named(e, names[k])) == e->shnum) continue;
        a = sh_addr(e, i);
        z = sized_end(a, sh_word(e, i, e->L->sh_size));
        if (a < *lo) *lo = a;
        if (z > *hi) *hi = z;
    }
}

/* What perf's tables hold, in one pass: how many symbols (-1: perf's load
   fails), whether any of them can be found in [lo, hi) (file offsets): one
   starting there, one whose size reaches into it, or a size-0 one that
   symbols__fixup_end stretches over it; and where the area ends (*next):
   at the first start at or above hi, else where the symbols can reach
   (the last one's page end, or a sized one's end). */
static long perf_symbols(const pd_elf *s, const pd_elf *run, uint64_t lo, uint64_t hi, int *reaches, uint64_t *next) {
    static const char *const names[2] = {".symtab", ".dynsym"};
    static const uint32_t types[2] = {PD_ELF_SHT_SYMTAB, PD_ELF_SHT_DYNSYM};
    uint64_t below[2] = {0, 0};  /* the greatest start below lo, per table */
    int has_below[2] = {0, 0}, zero_below[2] = {0, 0}, k, rc;
    uint64_t last = 0, far = hi;
    int above = 0;
    long total = 0;
    size_t i;
    *reaches = 0;
    *next = hi;
    for (k = 0; k < 2; k++) {
        perf_table t;
        perf_sym ps;
        if ((rc = perf_table_at(s, names[k], types[k], &t)) < 0) return -1;
        if (!rc) continue;
        for (i = 0; i < t.count; i++) {
            if ((rc = perf_symbol(s, run, &t, i, &ps, 0)) < 0) return -1;
            if (!rc) continue;
            total++;
            if (ps.key >= hi && (!above || ps.key < *next)) { *next = ps.key; above = 1; }
            if (ps.key > last) last = ps.key;
            if (ps.size && ps.size <= UINT64_MAX - ps.key && ps.key + ps.size > far) far = ps.key + ps.size;
            if (ps.key >= lo && ps.key < hi) *reaches = 1;
            if (ps.key >= lo) continue;
            if (ps.size && ps.size <= UINT64_MAX - ps.key && ps.key + ps.size > lo) *reaches = 1;
            if (!has_below[k] || ps.key > below[k]) { below[k] = ps.key; zero_below[k] = 0; has_below[k] = 1; }
            if (ps.key == below[k] && !ps.size) zero_below[k] = 1;
        }
    }
    /* .symtab's are stretched before .dynsym's are in the tree; .dynsym's
       stop at any symbol above them */
    if (has_below[0] && zero_below[0]) *reaches = 1;
    if (has_below[1] && zero_below[1] && (!has_below[0] || below[1] >= below[0])) *reaches = 1;
    if (!above) *next = page_end(last) > far ? page_end(last) : far;
    return total;
}

static void add_node(ptree *t, const perf_sym *ps, size_t entry) {
    pnode *x = &t->n[t->count];
    x->start = ps->key;
    x->end = ps->size ? ps->key + ps->size : ps->key; /* symbol__new, wrapping as perf's u64 does */
    x->vaddr = ps->vaddr;
    x->size = ps->size;
    x->name = ps->name;
    x->bind = ps->bind;
    x->type = ps->type;
    x->entry = entry;
    x->gone = 0;
    ptree_insert(t, t->count++);
}

/* perf's tree for the symbols of s and the PLT entries of run (e). 0 when
   out of memory. */
static int build_tree(const pd_elf *s, const pd_elf *run, size_t nodes, ptree *t) {
    static const char *const names[2] = {".symtab", ".dynsym"};
    static const uint32_t types[2] = {PD_ELF_SHT_SYMTAB, PD_ELF_SHT_DYNSYM};
    uint64_t delta = run->plt_delta;
    size_t i, before;
    int k;
    t->count = 0;
    t->root = PD_ELF_NIL;
    if (nodes > SIZE_MAX / sizeof *t->n || !(t->n = (pnode *)malloc(nodes * sizeof *t->n))) return 0;
    for (k = 0; k < 2; k++) {
        perf_table t2;
        perf_sym ps;
        if (perf_table_at(s, names[k], types[k], &t2) <= 0) continue;
        before = t->count;
        for (i = 0; i < t2.count && t->count < nodes; i++)
            if (perf_symbol(s, run, &t2, i, &ps, 1) > 0) add_node(t, &ps, PD_ELF_NIL);
        if (t->count > before) {
            ptree_fixup_end(t);
            ptree_fixup_duplicate(t);
        }
    }
    for (i = 0; i < run->info.nr_plt && t->count < nodes; i++) {
        perf_sym ps;
        ps.key = run->plt[i].addr - delta;
        ps.vaddr = run->plt[i].addr;
        ps.size = run->plt[i].size;
        ps.name = run->plt[i].name;
        ps.bind = PD_ELF_STB_GLOBAL;
        ps.type = PD_ELF_STT_FUNC;
        add_node(t, &ps, i);
    }
    return 1;
}

static int cmp_u64(const void *pa, const void *pb) {
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

/* The symbol to give for node x over [lo, hi): the entry, the symbols'
   own entry for it when that covers the range, else a copy with perf's
   end. NULL for none. */
static const pd_elf_sym *answer_for(pd_elf *e, const pd_elf *s, const ptree *t, size_t x, uint64_t lo, uint64_t hi) {
    const pnode *p;
    pd_elf_sym *c;
    if (x == PD_ELF_NIL) return NULL;
    p = &t->n[x];
    if (p->entry != PD_ELF_NIL && e->plt[p->entry].size) return &e->plt[p->entry];
    if (!p->name) return NULL;
    if (p->entry == PD_ELF_NIL) {
        const pd_elf_sym *own = pd_elf_lookup(s, lo);
        if (own && own->addr == p->vaddr && own->end >= hi && !strcmp(own->name, p->name)) return own;
    }
    c = &e->plt_copies[e->nr_answers];
    memset(c, 0, sizeof *c);
    c->addr = p->vaddr;
    c->size = p->size;
    c->end = p->end > p->start ? sized_end(p->vaddr, p->end - p->start) : sized_end(p->vaddr, 1);
    c->name = p->name;
    c->bind = p->bind;
    c->type = p->type;
    return c;
}

/* Walks perf's tree once for each stretch of [lo, hi) over which no
   symbol starts or ends, and keeps the answers, one per run of stretches
   with the same symbol. 0 when out of memory. */
static int find_answers(pd_elf *e, const pd_elf *s, const ptree *t, uint64_t lo, uint64_t hi) {
    uint64_t delta = e->plt_delta, *cut;
    size_t i, n = 0, runs = 0, *node;
    if (t->count > (SIZE_MAX / sizeof *cut - 1) / 3 || !(cut = (uint64_t *)malloc((3 * t->count + 1) * sizeof *cut)))
        return 0;
    cut[n++] = lo;
    for (i = 0; i < t->count; i++) {
        const pnode *p = &t->n[i];
        uint64_t a = p->start + delta, z = p->end + delta;
        if (p->gone) continue;
        if (a > lo && a < hi) cut[n++] = a;
        if (z > lo && z < hi) cut[n++] = z;
        if (p->end == p->start && a >= lo && a < hi && a + 1 < hi) cut[n++] = a + 1; /* it holds just a */
    }
    qsort(cut, n, sizeof *cut, cmp_u64);
    e->plt_answers = (pd_elf_plt_answer *)malloc(n * sizeof *e->plt_answers);
    e->plt_copies = (pd_elf_sym *)malloc(n * sizeof *e->plt_copies);
    node = (size_t *)malloc(n * sizeof *node);
    if (!e->plt_answers || !e->plt_copies || !node) { free(cut); free(node); return 0; }
    for (i = 0; i < n; i++) {
        size_t x;
        if (i && cut[i] == cut[i - 1]) continue;
        x = ptree_find(t, cut[i] - delta);
        if (runs && node[runs - 1] == x) continue;
        node[runs] = x;
        e->plt_answers[runs++].lo = cut[i];
    }
    for (e->nr_answers = 0; e->nr_answers < runs; e->nr_answers++) {
        i = e->nr_answers;
        e->plt_answers[i].sym = answer_for(e, s, t, node[i], e->plt_answers[i].lo, i + 1 < runs ? e->plt_answers[i + 1].lo : hi);
    }
    free(cut);
    free(node);
    return 1;
}

/* The PLT entries perf makes for e and what it finds in e's PLT area, the
   symbols coming from s (e itself, or its debug file). */
static void synthesize_plt(pd_elf *e, const pd_elf *s) {
    size_t nr, plt;
    uint64_t lo, hi, next;
    long count;
    int reaches;
    drop_plt(e);
    if (!(nr = make_plt_entries(e))) { drop_plt(e); return; }
    plt = section_named(e, ".plt");
    e->plt_delta = sh_addr(e, plt) - sh_word(e, plt, e->L->sh_offset);
    e->info.plt = e->plt;
    e->info.nr_plt = nr;
    plt_area(e, nr, &lo, &hi);
    /* dso__load makes them only when the symbol tables gave some symbol */
    count = perf_symbols(s, e, lo - e->plt_delta, hi - e->plt_delta, &reaches, &next);
    if (count <= 0) { drop_plt(e); return; }
    /* up to the next symbol: until there, the search goes by the entries
       (past the last one, an address is in no symbol but a size-0 one that
       is the last entry's ancestor); with none, as far as a symbol reaches */
    if (next + e->plt_delta > hi) hi = next + e->plt_delta;
    e->info.plt_start = lo;
    e->info.plt_end = hi;
    if (reaches || !e->plt[0].size) {
        ptree t;
        t.n = NULL;
        if (!build_tree(s, e, (size_t)count + nr, &t) || !find_answers(e, s, &t, lo, hi)) {
            free(e->plt_answers);
            free(e->plt_copies);
            e->plt_answers = NULL;
            e->plt_copies = NULL;
            e->nr_answers = 0;  /* the entries alone, then */
        }
        free(t.n);
    }
}

void pd_elf_plt_symbols_from(pd_elf *bin, pd_elf *syms) {
    if (!bin || !syms || bin->plt_syms == syms || (!bin->plt_syms && syms == bin)) return;
    if (bin->plt_syms) pd_elf_close(bin->plt_syms);
    bin->plt_syms = NULL;
    if (syms != bin) {
        syms->refs++;
        bin->plt_syms = syms;
    }
    synthesize_plt(bin, syms);
}

const pd_elf_sym *pd_elf_lookup_plt(const pd_elf *elf, uint64_t vaddr) {
    size_t lo = 0, hi;
    const pd_elf_sym *s;
    if (!elf || !elf->info.nr_plt || vaddr < elf->info.plt_start || vaddr >= elf->info.plt_end) return NULL;
    if (elf->nr_answers) {
        hi = elf->nr_answers;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (elf->plt_answers[mid].lo <= vaddr) lo = mid + 1; else hi = mid;
        }
        s = lo ? elf->plt_answers[lo - 1].sym : NULL;
        return s && vaddr >= s->addr && vaddr < s->end ? s : NULL;
    }
    hi = elf->info.nr_plt;      /* no symbol but the entries there */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (elf->plt[mid].addr <= vaddr) lo = mid + 1; else hi = mid;
    }
    return lo && vaddr < elf->plt[lo - 1].end ? &elf->plt[lo - 1] : NULL;
}

/* ---------------------------------------------------------------- open */

static void collect_loads(pd_elf *e);

static pd_elf_status parse(pd_elf *e, int want_symbols, pd_elf_error *err) {
    pd_elf_status st;
    if ((st = parse_ident(e, err)) != PD_ELF_OK) return st;
    if ((st = parse_tables(e, err)) != PD_ELF_OK) return st;
    collect_loads(e);
    if ((st = find_build_id(e, err)) != PD_ELF_OK) return st;
    if (!want_symbols) return PD_ELF_OK;
    if ((st = load_symbols(e, err)) != PD_ELF_OK) return st;
    synthesize_plt(e, e);
    return PD_ELF_OK;
}

static pd_elf_status open_mem(const void *data, size_t size, int want_symbols, pd_elf **out, pd_elf_error *err) {
    pd_elf *e;
    pd_elf_status st;
    clear_error(err);
    if (!out) return fail(err, PD_ELF_BAD_ARGUMENT, 0, NULL);
    *out = NULL;
    if (!data && size) return fail(err, PD_ELF_BAD_ARGUMENT, 0, NULL);
    e = (pd_elf *)calloc(1, sizeof *e);
    if (!e) return fail(err, PD_ELF_NO_MEMORY, 0, NULL);
    e->refs = 1;
    e->file.p = (const unsigned char *)data;
    e->file.n = size;
    e->file.offset = 0;
    if ((st = parse(e, want_symbols, err)) != PD_ELF_OK) {
        pd_elf_close(e);
        return st;
    }
    *out = e;
    return PD_ELF_OK;
}

pd_elf_status pd_elf_open_mem(const void *data, size_t size, pd_elf **out, pd_elf_error *err) {
    return open_mem(data, size, 1, out, err);
}

/* pd_elf_open_regular, with the descriptor's stat. */
static pd_elf_status open_regular(const char *path, int *fd, struct stat *st, pd_elf_error *err) {
    int f;
    clear_error(err);
    if (!path || !fd) return fail(err, PD_ELF_BAD_ARGUMENT, 0, NULL);
    *fd = -1;
    if (stat(path, st) < 0) return fail(err, PD_ELF_IO, 0, "cannot open the file");
    if (!S_ISREG(st->st_mode)) return fail(err, PD_ELF_NOT_REGULAR, 0, NULL);
    if ((f = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)) < 0) return fail(err, PD_ELF_IO, 0, "cannot open the file");
    if (fstat(f, st) < 0) { fail(err, PD_ELF_IO, 0, "cannot stat the file"); close(f); return PD_ELF_IO; }
    if (!S_ISREG(st->st_mode)) { close(f); return fail(err, PD_ELF_NOT_REGULAR, 0, NULL); }
    *fd = f;
    return PD_ELF_OK;
}

pd_elf_status pd_elf_open_regular(const char *path, int *fd, uint64_t *size, pd_elf_error *err) {
    struct stat st;
    pd_elf_status rc = open_regular(path, fd, &st, err);
    if (rc == PD_ELF_OK && size) *size = (uint64_t)st.st_size;
    return rc;
}

/* A read-only private map of the regular file open on fd (n bytes), which
   is closed. */
static pd_elf_status map_fd(int fd, uint64_t n, void **map, size_t *size, pd_elf_error *err) {
    void *p;
    if (n == 0) { close(fd); return fail(err, PD_ELF_TRUNCATED, 0, "empty file"); }
    if (n > (size_t)-1) { close(fd); errno = EFBIG; return fail(err, PD_ELF_IO, 0, "too large to map"); }
    p = mmap(NULL, (size_t)n, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) { fail(err, PD_ELF_IO, 0, "cannot map the file"); close(fd); return PD_ELF_IO; }
    close(fd);
    *map = p;
    *size = (size_t)n;
    return PD_ELF_OK;
}

/* The file at path; with `opened`, one already read under another name is
   shared (a reference more) instead of read again, and a new one is kept
   there (the table's reference). */
static pd_elf_status open_file_shared(const char *path, int want_symbols, struct pd_elf__opened *opened, pd_elf **out,
                                      pd_elf_error *err) {
    void *map = NULL;
    size_t size = 0, i;
    pd_elf_status st;
    struct stat sb;
    int fd;
    clear_error(err);
    if (!out || !path) return fail(err, PD_ELF_BAD_ARGUMENT, 0, NULL);
    *out = NULL;
    if ((st = open_regular(path, &fd, &sb, err)) != PD_ELF_OK) return st;
    if (opened && opened->cap) {
        i = opened_slot(opened, (uint64_t)sb.st_dev, (uint64_t)sb.st_ino);
        if (opened->slots[i]) {
            close(fd);
            *out = opened->slots[i];
            (*out)->refs++;
            return PD_ELF_OK;
        }
    }
    if ((st = map_fd(fd, (uint64_t)sb.st_size, &map, &size, err)) != PD_ELF_OK) return st;
    if ((st = open_mem(map, size, want_symbols, out, err)) != PD_ELF_OK || !*out) {
        munmap(map, size);
        return st != PD_ELF_OK ? st : fail(err, PD_ELF_NO_MEMORY, 0, NULL);
    }
    (*out)->mapping = map;
    (*out)->mapping_size = size;
#ifdef MADV_DONTNEED
    /* Reading the symbol tables made their pages resident: a system-wide
       profile touches hundreds of binaries. The pages go back; the names
       and sections looked at later come back from the page cache. */
    madvise(map, size, MADV_DONTNEED);
#endif
    (*out)->dev = (uint64_t)sb.st_dev;
    (*out)->ino = (uint64_t)sb.st_ino;
    if (opened) {
        if ((opened->n + 1) * 2 > opened->cap) {
            struct pd_elf__opened bigger;
            size_t k;
            bigger.cap = opened->cap ? opened->cap * 2 : 64;
            bigger.n = opened->n;
            /* an array of pointers */
            if (!(bigger.slots = (pd_elf **)calloc(bigger.cap, sizeof(pd_elf *)))) return PD_ELF_OK; /* NOLINT(bugprone-sizeof-expression) */
            for (k = 0; k < opened->cap; k++)
                if (opened->slots[k]) bigger.slots[opened_slot(&bigger, opened->slots[k]->dev, opened->slots[k]->ino)] =
                        opened->slots[k];
            free(opened->slots);
            *opened = bigger;
        }
        opened->slots[opened_slot(opened, (*out)->dev, (*out)->ino)] = *out;
        opened->n++;
        (*out)->refs++;
    }
    return PD_ELF_OK;
}

static pd_elf_status open_file(const char *path, int want_symbols, pd_elf **out, pd_elf_error *err) {
    return open_file_shared(path, want_symbols, NULL, out, err);
}

pd_elf_status pd_elf_open_file(const char *path, pd_elf **out, pd_elf_error *err) {
    return open_file(path, 1, out, err);
}

pd_elf_status pd_elf_open_sections(const char *path, pd_elf **out, const char **symbol_table, pd_elf_error *err) {
    pd_elf_status st = open_file(path, 0, out, err);
    const char *table = NULL;
    if (st == PD_ELF_OK && (st = choose_symbols(*out, 0, &table, err)) != PD_ELF_OK) {
        pd_elf_close(*out);
        *out = NULL;
    }
    if (symbol_table) *symbol_table = table;
    return st;
}

void pd_elf_close(pd_elf *elf) {
    if (!elf || --elf->refs > 0) return;
    free(elf->syms);
    drop_plt(elf);
    pd_elf_close(elf->plt_syms);
    if (elf->mapping) munmap(elf->mapping, elf->mapping_size);
    free(elf);
}

void pd_elf_release_pages(const pd_elf *elf) {
#ifdef MADV_DONTNEED
    if (elf && elf->mapping) madvise(elf->mapping, elf->mapping_size, MADV_DONTNEED);
#else
    (void)elf;
#endif
}

void pd_elf_release_range(const pd_elf *elf, const void *p, size_t n) {
#ifdef MADV_DONTNEED
    uintptr_t map, from, to;
    long page = sysconf(_SC_PAGESIZE);
    if (!elf || !elf->mapping || !p || page <= 0) return;
    map = (uintptr_t)elf->mapping;
    from = (uintptr_t)p;
    if (from < map || from - map > elf->mapping_size || elf->mapping_size - (from - map) < n) return;
    to = (from + n) & ~(uintptr_t)(page - 1);
    from = (from + (uintptr_t)page - 1) & ~(uintptr_t)(page - 1);
    if (to > from) madvise((void *)from, (size_t)(to - from), MADV_DONTNEED);
#else
    (void)elf; (void)p; (void)n;
#endif
}

int pd_elf_read(const pd_elf *elf, uint64_t offset, void *buf, size_t n) {
    if (!elf || offset > elf->file.n || elf->file.n - offset < n) return 0;
    memcpy(buf, elf->file.p + offset, n);
    return 1;
}

const pd_elf_info *pd_elf_get_info(const pd_elf *elf) { return elf ? &elf->info : NULL; }

/* -------------------------------------------------------------- lookup */

const pd_elf_sym *pd_elf_lookup(const pd_elf *elf, uint64_t vaddr) {
    size_t lo = 0, hi;
    if (!elf) return NULL;
    hi = elf->info.nr_symbols;
    while (lo < hi) {           /* lo: the first symbol above vaddr */
        size_t mid = lo + (hi - lo) / 2;
        if (elf->syms[mid].addr <= vaddr) lo = mid + 1; else hi = mid;
    }
    /* Walk back over symbols nested in a bigger one; reach says when no
       earlier symbol can still contain vaddr. */
    while (lo > 0) {
        lo--;
        if (elf->reach[lo] <= vaddr) return NULL;
        if (vaddr < elf->syms[lo].end) return &elf->syms[lo];
    }
    return NULL;
}

/* The vaddr of file offset off in a PT_LOAD's file bytes; executable
   segments only when exec_only. */
static void collect_loads(pd_elf *e) {
    size_t i;
    e->nloads = 0;
    e->all_loads = 1;
    for (i = 0; i < e->phnum; i++) {
        if (ph_u32(e, i, e->L->p_type) != PD_ELF_PT_LOAD) continue;
        if (e->nloads == sizeof e->loads / sizeof e->loads[0]) { e->all_loads = 0; return; }
        e->loads[e->nloads].offset = ph_word(e, i, e->L->p_offset);
        e->loads[e->nloads].filesz = ph_word(e, i, e->L->p_filesz);
        e->loads[e->nloads].memsz = ph_word(e, i, e->L->p_memsz);
        e->loads[e->nloads].vaddr = ph_word(e, i, e->L->p_vaddr);
        e->loads[e->nloads].exec = (ph_u32(e, i, e->L->p_flags) & PD_ELF_PF_X) != 0;
        e->nloads++;
    }
}

static int load_vaddr(const pd_elf *e, uint64_t off, int exec_only, uint64_t *vaddr) {
    size_t i;
    if (e->all_loads) {
        for (i = 0; i < e->nloads; i++) {
            if (exec_only && !e->loads[i].exec) continue;
            if (off < e->loads[i].offset || off - e->loads[i].offset >= e->loads[i].filesz) continue;
            *vaddr = e->loads[i].vaddr + (off - e->loads[i].offset);
            return 1;
        }
        return 0;
    }
    for (i = 0; i < e->phnum; i++) {
        uint64_t p_offset = ph_word(e, i, e->L->p_offset), filesz = ph_word(e, i, e->L->p_filesz);
        if (ph_u32(e, i, e->L->p_type) != PD_ELF_PT_LOAD) continue;
        if (exec_only && !(ph_u32(e, i, e->L->p_flags) & PD_ELF_PF_X)) continue;
        if (off < p_offset || off - p_offset >= filesz) continue;
        *vaddr = ph_word(e, i, e->L->p_vaddr) + (off - p_offset);
        return 1;
    }
    return 0;
}

pd_elf_status pd_elf_map_to_vaddr(const pd_elf *elf, uint64_t map_start, uint64_t map_pgoff, uint64_t ip,
                                  uint64_t *vaddr) {
    uint64_t off;
    if (!elf || !vaddr) return PD_ELF_BAD_ARGUMENT;
    if (ip < map_start || ip - map_start > UINT64_MAX - map_pgoff) return PD_ELF_NOT_FOUND;
    off = ip - map_start + map_pgoff;
    if (load_vaddr(elf, off, 1, vaddr) || load_vaddr(elf, off, 0, vaddr)) return PD_ELF_OK;
    return PD_ELF_NOT_FOUND;
}

/* ------------------------------------------------------ finding binaries */

/* perf keeps at most 20 bytes of a build id, and older perf padded short
   ones with zeros to 20. */
static int build_id_matches(const pd_elf_info *info, const unsigned char *id, size_t n) {
    size_t have = info->build_id_size, i;
    if (!info->build_id || !have || !n) return 0;
    if (have == n) return memcmp(info->build_id, id, n) == 0;
    if (n == 20 && have > 20) return memcmp(info->build_id, id, 20) == 0;
    if (n != 20 || have > 20 || memcmp(info->build_id, id, have) != 0) return 0;
    for (i = have; i < n; i++) {
        if (id[i]) return 0;
    }
    return 1;
}

int pd_elf_normalize_path(char *out, size_t cap, const char *path) {
    size_t n = 1;
    const char *p = path;
    if (!out || cap < 2 || !path) return 0;
    out[0] = '/';
    while (*p) {
        const char *part;
        size_t len;
        while (*p == '/') p++;
        part = p;
        while (*p && *p != '/') p++;
        len = (size_t)(p - part);
        if (len == 0 || (len == 1 && part[0] == '.')) continue;
        if (len == 2 && part[0] == '.' && part[1] == '.') {
            while (n > 1 && out[n - 1] != '/') n--;
            if (n > 1) n--;     /* and the slash before it; "/" stays */
            continue;
        }
        if (n > 1) {
            if (cap - n < 2) return 0;
            out[n++] = '/';
        }
        if (len >= cap - n) return 0;
        memcpy(out + n, part, len);
        n += len;
    }
    out[n] = 0;
    return 1;
}

static int join(char *out, size_t cap, const char *a, const char *b, const char *c) {
    int n = snprintf(out, cap, "%s%s%s", a, b, c);
    return n >= 0 && (size_t)n < cap;
}

typedef struct symdir_entry {
    char *path;
    size_t id_size;
    unsigned char id[PD_ELF_MAX_ID];
} symdir_entry;

struct pd_elf__symdir_index {
    symdir_entry *entries;
    size_t n, cap;
    int out_of_memory;
};

static void index_add(struct pd_elf__symdir_index *ix, const char *path, const pd_elf_info *info) {
    symdir_entry *e;
    if (ix->n == ix->cap) {
        size_t cap = ix->cap ? ix->cap * 2 : 64;
        symdir_entry *grown = cap > SIZE_MAX / sizeof *grown ? NULL : (symdir_entry *)realloc(ix->entries, cap * sizeof *grown);
        if (!grown) { ix->out_of_memory = 1; return; }
        ix->entries = grown;
        ix->cap = cap;
    }
    e = &ix->entries[ix->n];
    e->path = (char *)malloc(strlen(path) + 1);
    if (!e->path) { ix->out_of_memory = 1; return; }
    strcpy(e->path, path);
    e->id_size = info->build_id_size;
    memcpy(e->id, info->build_id, info->build_id_size);
    ix->n++;
}

/* Reads 4 bytes before mapping: most files in a directory are not ELF. */
static int has_elf_magic(const char *path) {
    unsigned char m[4];
    int fd, ok;
    if (pd_elf_open_regular(path, &fd, NULL, NULL) != PD_ELF_OK) return 0;
    ok = read(fd, m, 4) == 4 && m[0] == 0x7f && m[1] == 'E' && m[2] == 'L' && m[3] == 'F';
    close(fd);
    return ok;
}

static void index_file(struct pd_elf__symdir_index *ix, const char *path) {
    pd_elf *e;
    if (!has_elf_magic(path) || open_file(path, 0, &e, NULL) != PD_ELF_OK) return;
    if (e->info.build_id && e->info.build_id_size <= PD_ELF_MAX_ID) index_add(ix, path, &e->info);
    pd_elf_close(e);
}

/* Depth-first; directories are not followed through symlinks, so a link
   loop cannot recurse, and the depth is capped anyway. */
static void index_dir(struct pd_elf__symdir_index *ix, const char *dir, int depth) {
    DIR *d;
    struct dirent *de;
    if (depth > 32 || !(d = opendir(dir))) return;
    while (!ix->out_of_memory && (de = readdir(d)) != NULL) {
        char path[4096];
        struct stat st;
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
        if (!join(path, sizeof path, dir, "/", de->d_name) || lstat(path, &st) < 0) continue;
        if (S_ISDIR(st.st_mode)) index_dir(ix, path, depth + 1);
        else if (S_ISREG(st.st_mode) || (S_ISLNK(st.st_mode) && stat(path, &st) == 0 && S_ISREG(st.st_mode)))
            index_file(ix, path);
    }
    closedir(d);
}

static int cmp_entry(const void *a, const void *b) {
    return strcmp(((const symdir_entry *)a)->path, ((const symdir_entry *)b)->path);
}

/* The scan, made once per search; sorted so that the first match is the
   same whatever order the directory lists its files in. */
static pd_elf_status symdir_index(pd_elf_search *s, pd_elf_error *err) {
    struct pd_elf__symdir_index *ix = s->index_;
    if (ix) return PD_ELF_OK;
    if (!(ix = (struct pd_elf__symdir_index *)calloc(1, sizeof *ix))) return fail(err, PD_ELF_NO_MEMORY, 0, NULL);
    s->index_ = ix;
    index_dir(ix, s->symdir, 0);
    if (ix->n) qsort(ix->entries, ix->n, sizeof *ix->entries, cmp_entry);
    return ix->out_of_memory ? fail(err, PD_ELF_NO_MEMORY, 0, "out of memory indexing --symdir") : PD_ELF_OK;
}

void pd_elf_search_free(pd_elf_search *search) {
    size_t i;
    if (search && search->opened_) {
        for (i = 0; i < search->opened_->cap; i++) pd_elf_close(search->opened_->slots[i]);
        free(search->opened_->slots);
        free(search->opened_);
        search->opened_ = NULL;
    }
    if (!search || !search->index_) return;
    for (i = 0; i < search->index_->n; i++) free(search->index_->entries[i].path);
    free(search->index_->entries);
    free(search->index_);
    search->index_ = NULL;
}

/* What pd_elf_find has seen so far. */
typedef struct finder {
    pd_elf_search *search;
    const unsigned char *id;
    size_t id_size;
    pd_elf *mismatch;           /* first file found by path with another build id */
    char mismatch_path[4096];
    pd_elf_where mismatch_where;
    pd_elf_error first_error;   /* of the first candidate that exists but failed */
    char first_error_path[4096];
} finder;

/* A missing file is not worth reporting; anything else is. */
static void note_failure(finder *f, pd_elf_status st, const pd_elf_error *e, const char *path) {
    if (st == PD_ELF_IO && (e->os_errno == ENOENT || e->os_errno == ENOTDIR)) return;
    if (f->first_error.code != PD_ELF_OK) return;
    f->first_error = *e;
    snprintf(f->first_error_path, sizeof f->first_error_path, "%s", path ? path : "");
}

/* Opens one candidate: 1 when it is the file to use (*out set). */
static int try_candidate(finder *f, const char *path, pd_elf_where where, pd_elf **out, pd_elf_found *found) {
    pd_elf_error e;
    pd_elf *elf = NULL;
    pd_elf_status st;
    int by_path = where == PD_ELF_FROM_SYMFS || where == PD_ELF_FROM_PATH;
    if (!f->search->opened_ && !(f->search->opened_ = (struct pd_elf__opened *)calloc(1, sizeof *f->search->opened_)))
        st = open_file(path, 1, &elf, &e);
    else
        st = open_file_shared(path, 1, f->search->opened_, &elf, &e);
    if (st != PD_ELF_OK || !elf) { note_failure(f, st, &e, path); return 0; }
    if ((by_path && !f->id_size) || build_id_matches(&elf->info, f->id, f->id_size)) {
        *out = elf;
        if (found) { snprintf(found->path, sizeof found->path, "%s", path); found->where = where; }
        return 1;
    }
    if (by_path && !f->mismatch) {
        f->mismatch = elf;
        f->mismatch_where = where;
        snprintf(f->mismatch_path, sizeof f->mismatch_path, "%s", path);
    } else {
        pd_elf_close(elf);
    }
    return 0;
}

static void hex(char *out, const unsigned char *id, size_t n) {
    static const char digits[] = "0123456789abcdef";
    size_t i;
    for (i = 0; i < n; i++) { out[2 * i] = digits[id[i] >> 4]; out[2 * i + 1] = digits[id[i] & 15]; }
    out[2 * n] = 0;
}

/* buildid_dir/.build-id/xx/rest/elf (rest/vdso: perf's cache names a
   vdso's copy so), then debug_dir/.build-id/xx/rest.debug. */
static int try_build_id_dirs(finder *f, const pd_elf_search *s, pd_elf **out, pd_elf_found *found) {
    char h[2 * PD_ELF_MAX_ID + 1], dir[4096], path[4096];
    const char *home = getenv("HOME");
    if (f->id_size < 2 || f->id_size > PD_ELF_MAX_ID) return 0;
    hex(h, f->id, f->id_size);
    if (s->buildid_dir) snprintf(dir, sizeof dir, "%s", s->buildid_dir);
    else if (!home || !join(dir, sizeof dir, home, "/.debug", "")) dir[0] = 0;
    if (dir[0] && snprintf(path, sizeof path, "%s/.build-id/%.2s/%s/elf", dir, h, h + 2) < (int)sizeof path &&
        try_candidate(f, path, PD_ELF_FROM_BUILDID_CACHE, out, found))
        return 1;
    if (dir[0] && snprintf(path, sizeof path, "%s/.build-id/%.2s/%s/vdso", dir, h, h + 2) < (int)sizeof path &&
        try_candidate(f, path, PD_ELF_FROM_BUILDID_CACHE, out, found))
        return 1;
    snprintf(dir, sizeof dir, "%s", s->debug_dir ? s->debug_dir : "/usr/lib/debug");
    return snprintf(path, sizeof path, "%s/.build-id/%.2s/%s.debug", dir, h, h + 2) < (int)sizeof path &&
           try_candidate(f, path, PD_ELF_FROM_DEBUG_DIR, out, found);
}

static int try_symdir(finder *f, pd_elf_search *s, pd_elf **out, pd_elf_found *found) {
    pd_elf_error ierr;
    pd_elf_status st;
    size_t i;
    if (!s->symdir || !f->id_size) return 0;
    /* a partial index after running out of memory is still worth a look */
    if ((st = symdir_index(s, &ierr)) != PD_ELF_OK) note_failure(f, st, &ierr, s->symdir);
    if (!s->index_) return 0;
    for (i = 0; i < s->index_->n; i++) {
        const symdir_entry *e = &s->index_->entries[i];
        pd_elf_info info;
        memset(&info, 0, sizeof info);
        info.build_id = e->id;
        info.build_id_size = e->id_size;
        if (build_id_matches(&info, f->id, f->id_size) && try_candidate(f, e->path, PD_ELF_FROM_SYMDIR, out, found))
            return 1;
    }
    return 0;
}

/* path is normalised: symfs + path stays below symfs whatever the
   recorded path says (symlinks inside symfs are the user's, and followed). */
static int search_all(finder *f, pd_elf_search *s, const char *path, pd_elf **out, pd_elf_found *found) {
    char p[4096];
    if (path && s->symfs && join(p, sizeof p, s->symfs, path, "") && try_candidate(f, p, PD_ELF_FROM_SYMFS, out, found))
        return 1;
    /* as perf's --symfs: every path is looked up below it, never as it is */
    if (path && !s->symfs && try_candidate(f, path, PD_ELF_FROM_PATH, out, found)) return 1;
    return try_build_id_dirs(f, s, out, found) || try_symdir(f, s, out, found);
}

pd_elf_status pd_elf_find(pd_elf_search *search, const char *path, const unsigned char *build_id,
                          size_t build_id_size, pd_elf **out, pd_elf_found *found, pd_elf_error *err) {
    finder f;
    char normal[4096];
    clear_error(err);
    if (!search || !out) return fail(err, PD_ELF_BAD_ARGUMENT, 0, NULL);
    *out = NULL;
    if (found) { found->path[0] = 0; found->where = PD_ELF_FROM_NONE; found->passed_over = 0; }
    if (!build_id) build_id_size = 0;
    if (!path && !build_id_size) return fail(err, PD_ELF_BAD_ARGUMENT, 0, "neither a path nor a build id");
    memset(&f, 0, sizeof f);
    f.search = search;
    f.id = build_id;
    f.id_size = build_id_size;
    /* a path too long to normalise is looked for by build id only */
    if (path && !pd_elf_normalize_path(normal, sizeof normal, path)) path = NULL;
    if (search_all(&f, search, path ? normal : NULL, out, found)) {
        if (found) found->passed_over = f.mismatch != NULL;
        pd_elf_close(f.mismatch);
        return PD_ELF_OK;
    }
    if (f.mismatch) {
        *out = f.mismatch;
        if (found) { snprintf(found->path, sizeof found->path, "%s", f.mismatch_path); found->where = f.mismatch_where; }
        return fail(err, PD_ELF_BUILD_ID_MISMATCH, 0, NULL);
    }
    if (f.first_error.code != PD_ELF_OK) {
        if (err) *err = f.first_error;
        if (found) snprintf(found->path, sizeof found->path, "%s", f.first_error_path);
        return f.first_error.code;
    }
    return fail(err, PD_ELF_NOT_FOUND, 0, "no file with this path or build id");
}

/* ------------------------------------------------------------ kallsyms */

struct pd_kallsyms {
    char *text;                 /* the copy the names point into */
    pd_ksym *syms;
    size_t n;
};

static int is_blank(char c) { return c == ' ' || c == '\t'; }

/* a hex digit's value, or 16 (without branches: addresses mix digits and
   letters, which a branch would guess wrong) */
static unsigned hex_value(unsigned char c) {
    unsigned v = (unsigned)c - '0', a = ((unsigned)c | 0x20) - 'a';
    return v < 10 ? v : a < 6 ? a + 10 : 16;
}

/* "addr type name[\t[module]]" in p[0..n) (one line, without its newline);
   cuts the name and module in place (p[n] is writable). 1 for a text
   symbol, with the lengths of its name and module in out->end (low and
   high 32 bits) until keep_names. A NUL ends the line. */
static int parse_kallsyms_line(char *p, size_t n, pd_ksym *out) {
    uint64_t addr = 0;
    char *end = p + n, *name, *module = NULL;
    size_t name_n, module_n = 0;
    int digits = 0;
    unsigned d;
    char type;
    *end = 0;
    for (; (d = hex_value((unsigned char)*p)) < 16; p++, digits++) addr = addr << 4 | d;
    if (digits == 0 || digits > 16 || !is_blank(*p)) return 0;
    while (is_blank(*p)) p++;
    if (!*p) return 0;
    type = *p++;
    if (!is_blank(*p)) return 0;
    while (is_blank(*p)) p++;
    if (!*p || (type != 't' && type != 'T' && type != 'w' && type != 'W')) return 0;
    name = p;
    p += strcspn(p, " \t"); /* to a blank or the line's end */
    name_n = (size_t)(p - name);
    if (*p) {
        *p++ = 0;
        while (is_blank(*p)) p++;
        if (*p == '[') {
            module = ++p;
            p += strcspn(p, "]");
            *p = 0;
            module_n = (size_t)(p - module);
        }
    }
    if (name_n > UINT32_MAX || module_n > UINT32_MAX) return 0;
    out->addr = addr;
    out->type = type;
    out->name = name;
    out->module = module;
    out->end = (uint64_t)module_n << 32 | name_n;
    return 1;
}

/* By address; of the names at one address the last line wins. That is
   perf's choice for kallsyms: symbols__fixup_end gives every alias but
   the last (in file order) a size of 0, and choose_best_symbol prefers a
   sized symbol before any other rule. Names point into the text in line
   order, so the later line has the greater pointer. */
static int cmp_ksym(const void *pa, const void *pb) {
    const pd_ksym *a = (const pd_ksym *)pa, *b = (const pd_ksym *)pb;
    if (a->addr != b->addr) return a->addr < b->addr ? -1 : 1;
    if (a->name != b->name) return a->name > b->name ? -1 : 1;
    return 0;
}

/* perf's ends for kallsyms: the next symbol, except that the last symbol
   of the kernel or of a module gets only up to the end of the next page,
   so that the gap before the next module is nobody's. */
static void kallsyms_ends(pd_ksym *s, size_t n) {
    size_t i;
    for (i = 0; i < n; i++) {
        if (i + 1 == n) { s[i].end = page_end(s[i].addr); continue; }
        s[i].end = s[i + 1].addr;
        if (s[i].module != s[i + 1].module && cmp_opt_str(s[i].module, s[i + 1].module) &&
            page_end(s[i].addr) < s[i].end)
            s[i].end = page_end(s[i].addr);
    }
}

/* The text symbols of the lines of text[0..size) (text[size] is a spare
   byte) into *syms, grown as needed; 0 and *syms NULL when out of memory. */
static size_t kallsyms_lines(char *text, size_t size, pd_ksym **syms) {
    size_t n = 0, cap = size / 40 + 64; /* a line takes 40 bytes and more */
    char *p = text, *end = text + size;
    pd_ksym *v = (pd_ksym *)malloc(cap * sizeof *v);
    while (v && p < end) {
        char *nl = (char *)memchr(p, '\n', (size_t)(end - p));
        char *line_end = nl ? nl : end;
        if (n == cap) {
            pd_ksym *grown = cap > SIZE_MAX / 2 / sizeof *v ? NULL : (pd_ksym *)realloc(v, cap * 2 * sizeof *v);
            if (!grown) { free(v); v = NULL; break; }
            v = grown;
            cap *= 2;
        }
        if (parse_kallsyms_line(p, (size_t)(line_end - p), &v[n])) n++;
        p = line_end + 1;
    }
    *syms = v;
    return v ? n : 0;
}

/* The names (and module names, once per run of one module) move from the
   whole text, which had every line and field, into a block of their own:
   a kernel's /proc/kallsyms is 5 MB and more, its kept names a third. A
   block that cannot be had leaves them where they are. The lengths are
   in each symbol's end (kallsyms_lines). */
static void keep_names(pd_kallsyms *ks) {
    size_t need = 0, i, n;
    char *names, *p;
    const char *module = NULL, *copied = NULL;
    size_t module_n = 0;
    for (i = 0; i < ks->n; i++) {
        size_t mn = (size_t)(ks->syms[i].end >> 32);
        need += (size_t)(ks->syms[i].end & 0xffffffffu) + 1;
        if (ks->syms[i].module &&
            (!module || module_n != mn || memcmp(module, ks->syms[i].module, mn) != 0))
            need += mn + 1;
        module = ks->syms[i].module;
        module_n = mn;
    }
    if (!(names = p = (char *)malloc(need ? need : 1))) return;
    module = NULL;
    module_n = 0;
    for (i = 0; i < ks->n; i++) {
        pd_ksym *k = &ks->syms[i];
        size_t mn = (size_t)(k->end >> 32);
        if (k->module && (!module || module_n != mn || memcmp(module, k->module, mn) != 0)) {
            module = k->module;
            module_n = mn;
            copied = (const char *)memcpy(p, module, mn + 1);
            p += mn + 1;
        }
        if (k->module) k->module = copied;
        n = (size_t)(k->end & 0xffffffffu) + 1;
        k->name = (const char *)memcpy(p, k->name, n);
        p += n;
    }
    free(ks->text);
    ks->text = names;
}

/* Takes ownership of text[0..size] (text[size] is a spare byte). */
static pd_elf_status kallsyms_from(char *text, size_t size, pd_kallsyms **out, pd_elf_error *err) {
    size_t i, kept = 0;
    pd_kallsyms *ks = (pd_kallsyms *)calloc(1, sizeof *ks);
    if (!ks) {
        free(text);
        return fail(err, PD_ELF_NO_MEMORY, 0, NULL);
    }
    ks->text = text;
    ks->n = kallsyms_lines(text, size, &ks->syms);
    if (!ks->syms) { pd_kallsyms_free(ks); return fail(err, PD_ELF_NO_MEMORY, 0, NULL); }
    if (!ks->n) { pd_kallsyms_free(ks); return fail(err, PD_ELF_NOT_FOUND, 0, "no text symbols"); }
    /* a kernel lists its symbols by address, mostly: sorted only if not */
    for (i = 1; i < ks->n && ks->syms[i - 1].addr <= ks->syms[i].addr; i++) {}
    if (i < ks->n) qsort(ks->syms, ks->n, sizeof *ks->syms, cmp_ksym);
    if (ks->syms[ks->n - 1].addr == 0) {
        pd_kallsyms_free(ks);
        return fail(err, PD_ELF_MALFORMED, 0, "all addresses are 0 (hidden by kernel.kptr_restrict)");
    }
    for (i = 0; i < ks->n; i++) { /* of the names at one address, the last line's (see cmp_ksym) */
        if (kept && ks->syms[kept - 1].addr == ks->syms[i].addr) {
            if (ks->syms[i].name > ks->syms[kept - 1].name) ks->syms[kept - 1] = ks->syms[i];
            continue;
        }
        ks->syms[kept++] = ks->syms[i];
    }
    ks->n = kept;
    keep_names(ks);
    kallsyms_ends(ks->syms, ks->n);
    *out = ks;
    return PD_ELF_OK;
}

pd_elf_status pd_kallsyms_parse(const char *text, size_t size, pd_kallsyms **out, pd_elf_error *err) {
    char *copy;
    clear_error(err);
    if (!out || (!text && size) || size == SIZE_MAX) return fail(err, PD_ELF_BAD_ARGUMENT, 0, NULL);
    *out = NULL;
    if (!(copy = (char *)malloc(size + 1))) return fail(err, PD_ELF_NO_MEMORY, 0, NULL);
    if (size) memcpy(copy, text, size);
    return kallsyms_from(copy, size, out, err);
}

/* Reads a whole file whose size stat cannot tell (/proc reports 0). The
   first buffer holds a kernel's kallsyms (5 MB and more): growing to it
   from a small one copied and touched as much again. */
static pd_elf_status read_whole(int fd, char **text, size_t *size, pd_elf_error *err) {
    size_t cap = (size_t)8 << 20, len = 0;
    char *buf = (char *)malloc(cap);
    if (!buf) return fail(err, PD_ELF_NO_MEMORY, 0, NULL);
    for (;;) {
        ssize_t got;
        if (cap - len < 2) {    /* keep a spare byte for the terminator */
            char *grown = cap > SIZE_MAX / 2 ? NULL : (char *)realloc(buf, cap * 2);
            if (!grown) { free(buf); return fail(err, PD_ELF_NO_MEMORY, 0, NULL); }
            buf = grown; cap *= 2;
        }
        got = read(fd, buf + len, cap - len - 1);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) { free(buf); return fail(err, PD_ELF_IO, len, "cannot read the file"); }
        if (got == 0) break;
        len += (size_t)got;
    }
    *text = buf;
    *size = len;
    return PD_ELF_OK;
}

pd_elf_status pd_kallsyms_load(const char *path, pd_kallsyms **out, pd_elf_error *err) {
    char *text;
    size_t size;
    pd_elf_status st;
    int fd;
    clear_error(err);
    if (!out || !path) return fail(err, PD_ELF_BAD_ARGUMENT, 0, NULL);
    *out = NULL;
    if ((st = pd_elf_open_regular(path, &fd, NULL, err)) != PD_ELF_OK) return st;
    st = read_whole(fd, &text, &size, err);
    close(fd);
    return st != PD_ELF_OK ? st : kallsyms_from(text, size, out, err);
}

void pd_kallsyms_free(pd_kallsyms *ks) {
    if (!ks) return;
    free(ks->syms);
    free(ks->text);
    free(ks);
}

const pd_ksym *pd_kallsyms_lookup(const pd_kallsyms *ks, uint64_t addr) {
    size_t lo = 0, hi;
    if (!ks) return NULL;
    hi = ks->n;
    while (lo < hi) {           /* lo: the first symbol above addr */
        size_t mid = lo + (hi - lo) / 2;
        if (ks->syms[mid].addr <= addr) lo = mid + 1; else hi = mid;
    }
    /* ends never pass the next symbol, so only the nearest can contain addr */
    return lo && addr < ks->syms[lo - 1].end ? &ks->syms[lo - 1] : NULL;
}

size_t pd_kallsyms_symbols(const pd_kallsyms *ks, const pd_ksym **symbols) {
    if (symbols) *symbols = ks ? ks->syms : NULL;
    return ks ? ks->n : 0;
}
