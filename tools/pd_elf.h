/* pd_elf.h - function symbols of ELF binaries and of a kallsyms file, for the
   perfdata tools: which function (and source file) a sampled ip falls in.

   WHAT IT DOES
     - Reads ELF32 and ELF64 of either byte order from a memory buffer, on a
       host of either byte order; never writes the buffer.
     - Keeps the STT_FUNC and STT_GNU_IFUNC symbols of .symtab (else, when
       .symtab has none or is stripped, of .dynsym) in one array sorted by
       address, one symbol per address, with the STT_FILE name that precedes
       each local symbol.
     - Looks up an address: the symbol whose [addr, addr + size) contains
       it; a symbol of size 0 extends, as in perf, to the next symbol's
       address (the last one to the end of the next 4 KiB page).
     - Turns a sampled ip into the ELF's virtual address from the mapping
       perf recorded (start, pgoff), through the PT_LOAD segment holding the
       file offset ip - start + pgoff. This is right for executables, PIEs,
       shared libraries and prelinked libraries alike.
     - Reads the NT_GNU_BUILD_ID note (PT_NOTE segments, else SHT_NOTE).
     - Finds the file to use for a path and/or a recorded build id.
     - Parses /proc/kallsyms text symbols.

   USAGE
     pd_elf *elf;
     pd_elf_error err;
     uint64_t vaddr;
     const pd_elf_sym *sym;
     if (pd_elf_open_file("/usr/lib/libc.so.6", &elf, &err) != PD_ELF_OK) {
         fprintf(stderr, "%s at 0x%llx\n", err.message, (unsigned long long)err.offset);
         return;
     }
     // from a MMAP2 record: start, pgoff; from a sample: ip
     if (pd_elf_map_to_vaddr(elf, start, pgoff, ip, &vaddr) == PD_ELF_OK &&
         (sym = pd_elf_lookup(elf, vaddr)) != NULL)
         printf("%s+0x%llx %s\n", sym->name, (unsigned long long)(vaddr - sym->addr),
                sym->file ? sym->file : "");
     pd_elf_close(elf);

     Finding the binary of a MMAP2 record or a BUILD_ID feature entry:
     pd_elf_search search = {0};          // zero, then set what was given
     pd_elf_found found;
     search.symfs = symfs_option;         // may stay NULL
     search.symdir = symdir_option;
     switch (pd_elf_find(&search, filename, bid, bid_len, &elf, &found, &err)) {
     case PD_ELF_OK: ...use elf (found.path says which file)...
     case PD_ELF_BUILD_ID_MISMATCH: ...elf is the file at the path, whose build
         id differs: use it with a warning, or pd_elf_close(elf)...
     default: ...no symbols for this binary: err says why...
     }
     pd_elf_search_free(&search);         // after the last pd_elf_find

   MEMORY
     pd_elf_open_mem() does not copy the buffer: symbol names, file names and
     the build id point into it, so it must outlive the pd_elf. One malloc'd
     array of symbols per binary (about 56 bytes a function) and the pd_elf
     itself; pd_elf_open_file() adds a read-only mmap (so, as with any map,
     a file truncated by another process while open can raise SIGBUS).
     pd_elf_close() frees all of it. A kallsyms table holds a copy of the
     text and one array. A pd_elf_search holds the paths and build ids of
     the ELF files below symdir once it has been scanned.

   ERRORS
     Every fallible call returns a pd_elf_status (PD_ELF_OK is 0) and fills an
     optional pd_elf_error: the code, the file offset of the fault, a static
     message and, for PD_ELF_IO, errno. A truncated or malformed ELF gives an
     error for that binary and nothing else; no input makes a read outside
     the buffer. Strictness: header tables and the symbol, string and note
     sections in use must lie inside the file, entry sizes must be exact, and
     every name must end inside its string table.

   NOT SUPPORTED
     Relocatable objects' section-relative values (ET_REL is read but values
     are not adjusted); ppc64 ELFv1 function descriptors (.opd);
     MiniDebugInfo (.gnu_debugdata); DWARF. A separate debug file
     (.debug) has no file contents for its PT_LOADs, so translate ips with
     the binary itself and look the vaddr up in the debug file.

   THREAD SAFETY
     A pd_elf and a pd_kallsyms are read-only after opening: any number of
     threads may look up in them. A pd_elf_search caches a directory scan
     on first use: one thread at a time per search. */
#ifndef PD_ELF_H
#define PD_ELF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Values from the ELF gABI, for the fields of pd_elf_sym and pd_elf_info. */
#define PD_ELF_ET_REL 1
#define PD_ELF_ET_EXEC 2
#define PD_ELF_ET_DYN 3
#define PD_ELF_STB_LOCAL 0
#define PD_ELF_STB_GLOBAL 1
#define PD_ELF_STB_WEAK 2
#define PD_ELF_STT_FUNC 2
#define PD_ELF_STT_GNU_IFUNC 10

/* Append-only: the numbers are stable. */
#define PD_ELF_STATUS_LIST(X)                                                    \
    X(PD_ELF_OK, 0, "ok")                                                        \
    X(PD_ELF_NOT_FOUND, 1, "not found")                                          \
    X(PD_ELF_TRUNCATED, 2, "truncated: a table or section runs past the end")    \
    X(PD_ELF_MALFORMED, 3, "malformed ELF")                                      \
    X(PD_ELF_UNSUPPORTED, 4, "not an ELF file of a known class and byte order")  \
    X(PD_ELF_BUILD_ID_MISMATCH, 5, "the build id differs from the recorded one") \
    X(PD_ELF_NO_MEMORY, 6, "out of memory")                                      \
    X(PD_ELF_IO, 7, "cannot open or map the file")                               \
    X(PD_ELF_BAD_ARGUMENT, 8, "bad argument")                                    \
    X(PD_ELF_NOT_REGULAR, 9, "not a regular file; not opened")

typedef enum pd_elf_status {
#define PD_ELF__ENUM(name, value, text) name = (value),
    PD_ELF_STATUS_LIST(PD_ELF__ENUM)
#undef PD_ELF__ENUM
    PD_ELF__STATUS_END
} pd_elf_status;

typedef struct pd_elf_error {
    pd_elf_status code;
    uint64_t offset;            /* file offset of the fault, when there is one */
    const char *message;        /* static text, never NULL after a failed call */
    int os_errno;               /* errno for PD_ELF_IO, else 0 */
} pd_elf_error;

/* The status's message: static text, for any value. */
const char *pd_elf_status_message(pd_elf_status status);

typedef struct pd_elf_sym {
    uint64_t addr;              /* st_value: the ELF virtual address (ARM Thumb bit cleared) */
    uint64_t size;              /* st_size; 0 when the ELF gave none */
    uint64_t end;               /* one past the last address attributed to it (see above) */
    const char *name;
    const char *file;           /* local symbols: the preceding STT_FILE name; else NULL */
    unsigned char type;         /* PD_ELF_STT_FUNC or PD_ELF_STT_GNU_IFUNC */
    unsigned char bind;         /* PD_ELF_STB_LOCAL, _GLOBAL, _WEAK, or another st_info bind */
} pd_elf_sym;

typedef struct pd_elf pd_elf;

typedef struct pd_elf_info {
    int elf64;                  /* 1: ELFCLASS64; 0: ELFCLASS32 */
    int big_endian;             /* 1: ELFDATA2MSB */
    unsigned type;              /* e_type: PD_ELF_ET_EXEC, _DYN, ... */
    unsigned machine;           /* e_machine */
    const char *symbol_table;   /* ".symtab", ".dynsym", or NULL when no function symbols */
    const pd_elf_sym *symbols;  /* sorted by addr, one per address */
    size_t nr_symbols;
    const unsigned char *build_id; /* the NT_GNU_BUILD_ID descriptor, or NULL */
    size_t build_id_size;
    const pd_elf_sym *plt;      /* perf's synthesized PLT symbols ("name@plt"), by address */
    size_t nr_plt;
    uint64_t plt_start, plt_end; /* the PLT area pd_elf_lookup_plt answers for: .plt,
                                   .plt.got, .plt.sec and the entries, on to the
                                   next symbol; 0, 0: none */
} pd_elf_info;

/* Opens path for reading if it is a regular file, as every file the
   resolver reads is opened (binaries, debug files, the build-id cache,
   --symdir, kallsyms): stat first, and anything else (a device, FIFO,
   socket or directory, also through a symlink) is refused with
   PD_ELF_NOT_REGULAR without being opened, since opening a device can act
   on it and opening a FIFO blocks; then open(O_RDONLY | O_NONBLOCK |
   O_NOCTTY | O_CLOEXEC) and fstat the descriptor, refused the same way if
   the path changed in between. On success *fd is the caller's to close and
   *size (may be NULL) the file's size. */
pd_elf_status pd_elf_open_regular(const char *path, int *fd, uint64_t *size, pd_elf_error *err);

/* A recorded path made lexical, as the resolver uses it: rooted at "/" (a
   relative path is taken from "/"), "//" and "." components dropped, and
   ".." removing the component before it but never climbing above "/", so
   that symfs + the result stays below symfs. 0 when out is too small. */
int pd_elf_normalize_path(char *out, size_t cap, const char *path);

/* Parses data[0..size). On success *out must be released with
   pd_elf_close(); on failure *out is NULL. */
pd_elf_status pd_elf_open_mem(const void *data, size_t size, pd_elf **out, pd_elf_error *err);
/* The same on a read-only mmap of the file, opened by pd_elf_open_regular. */
pd_elf_status pd_elf_open_file(const char *path, pd_elf **out, pd_elf_error *err);
/* The same without reading the symbols (for a file read for its sections
   alone: DWARF, say): it fails where pd_elf_open_file would, and
   *symbol_table (may be NULL) says the table pd_elf_open_file would read,
   as pd_elf_info's symbol_table; the info itself lists no symbol. */
pd_elf_status pd_elf_open_sections(const char *path, pd_elf **out, const char **symbol_table, pd_elf_error *err);
/* Frees everything, and unmaps the file of pd_elf_open_file. NULL is fine. */
void pd_elf_close(pd_elf *elf);
/* Gives back the resident pages of pd_elf_open_file's map (its sections
   stay readable: what is read again comes back from the page cache). */
void pd_elf_release_pages(const pd_elf *elf);
/* The same for the whole pages of p[0..n) that are in that map. */
void pd_elf_release_range(const pd_elf *elf, const void *p, size_t n);

const pd_elf_info *pd_elf_get_info(const pd_elf *elf);
/* 1 and n bytes of the file at offset into buf; 0 when they are not all in it. */
int pd_elf_read(const pd_elf *elf, uint64_t offset, void *buf, size_t n);
/* The bytes of the section named name (a DWARF section, say): 1 and
   *data, *size (0 for SHT_NOBITS) and its sh_flags (SHF_COMPRESSED...),
   or 0 when there is none or it runs past the file. */
int pd_elf_section(const pd_elf *elf, const char *name, const unsigned char **data, size_t *size, uint64_t *flags);
/* The first PT_LOAD's p_vaddr: 1, or 0 when there is none. */
int pd_elf_first_load(const pd_elf *elf, uint64_t *vaddr);
/* The address (sh_addr) of the section named name: 1, or 0 when there is none. */
int pd_elf_section_addr(const pd_elf *elf, const char *name, uint64_t *addr);

/* The symbol vaddr falls in (the one with the greatest address when
   several do), or NULL. */
const pd_elf_sym *pd_elf_lookup(const pd_elf *elf, uint64_t vaddr);
/* What perf 6.1 finds at vaddr when it lies in the PLT area, or NULL: a
   PLT entry (dso__synthesize_plt_symbols: "name@plt" for each .rela.plt or
   .rel.plt relocation, from the .dynsym symbol it binds, in .plt after its
   header, sh_entsize bytes each on x86; .plt.sec is not looked at), or a
   symbol of the binary that perf's symbol tree finds there before the
   entry: a size-0 symbol before the PLT (_init) reaches over it. NULL also
   when the tables gave perf no symbol at all (then it makes no entries). */
const pd_elf_sym *pd_elf_lookup_plt(const pd_elf *elf, uint64_t vaddr);
/* Makes pd_elf_lookup_plt answer as perf does when the symbols come from
   syms, bin's separate debug file, rather than from bin itself (perf builds
   one tree of both). bin keeps a reference to syms until pd_elf_close.
   Call it before looking up from several threads. */
void pd_elf_plt_symbols_from(pd_elf *bin, pd_elf *syms);

/* The ELF virtual address of a runtime ip inside a mapping of this file that
   starts at map_start and maps file offset map_pgoff there (perf's MMAP2
   start and pgoff). PD_ELF_NOT_FOUND when the ip is below the mapping or its
   file offset is in no PT_LOAD's file bytes. Executable segments win when
   segments overlap in the file. */
pd_elf_status pd_elf_map_to_vaddr(const pd_elf *elf, uint64_t map_start, uint64_t map_pgoff, uint64_t ip,
                                  uint64_t *vaddr);

/* ------------------------------------------------------ finding binaries */

struct pd_elf__symdir_index;
struct pd_elf__opened;

typedef struct pd_elf_search {
    const char *symfs;          /* --symfs DIR: DIR + the normalised path instead of the
                                   path; NULL: none */
    const char *symdir;         /* --symdir DIR: any ELF below it with the build id; NULL: none */
    const char *buildid_dir;    /* perf's build-id cache; NULL: $HOME/.debug */
    const char *debug_dir;      /* debuginfo root; NULL: /usr/lib/debug */
    struct pd_elf__symdir_index *index_; /* private: the symdir scan, made on first use */
    struct pd_elf__opened *opened_;      /* private: the files read, shared by identity */
} pd_elf_search;

typedef enum pd_elf_where {
    PD_ELF_FROM_NONE,
    PD_ELF_FROM_SYMFS,          /* symfs + path */
    PD_ELF_FROM_PATH,           /* path itself */
    PD_ELF_FROM_BUILDID_CACHE,  /* buildid_dir/.build-id/xx/rest/elf */
    PD_ELF_FROM_DEBUG_DIR,      /* debug_dir/.build-id/xx/rest.debug */
    PD_ELF_FROM_SYMDIR          /* a file below symdir */
} pd_elf_where;

typedef struct pd_elf_found {
    char path[4096];            /* the file opened; after a failure, the candidate whose
                                   error is returned (empty when none was found) */
    pd_elf_where where;
    int passed_over;            /* 1: a file at the path had another build id and was not used */
} pd_elf_found;

/* Finds and opens the ELF for a binary perf recorded by path (may be NULL)
   and build id (bytes; NULL or 0 length: unknown). The path is first
   normalised (pd_elf_normalize_path). Tries, in order: symfs + path (else
   path itself), the build-id cache, the debug dir, symdir (the last three
   only with a build id); every candidate through pd_elf_open_regular. A file found by path is used when no build id
   was recorded or when its own matches; a build id matches when equal, or
   when the recorded one is the first 20 bytes of a longer id (perf keeps 20)
   or the id padded with zeros to 20 bytes (older perf).
   Returns PD_ELF_OK with *out opened; PD_ELF_BUILD_ID_MISMATCH with *out the
   first file found by path whose build id differs, when no matching file was
   found anywhere; else NULL in *out and PD_ELF_NOT_FOUND, or the error of the
   first candidate that exists but would not open. found may be NULL. */
pd_elf_status pd_elf_find(pd_elf_search *search, const char *path, const unsigned char *build_id,
                          size_t build_id_size, pd_elf **out, pd_elf_found *found, pd_elf_error *err);
/* Frees the symdir scan and the search's references to the files it read
   (an ELF pd_elf_find gave out stays valid until its own pd_elf_close).
   The search may be used again afterwards. */
void pd_elf_search_free(pd_elf_search *search);

/* ------------------------------------------------------- kernel symbols */

typedef struct pd_ksym {
    uint64_t addr;
    uint64_t end;               /* the next symbol's address; at the end of the kernel
                                   or of a module, the end of the next page */
    const char *name;
    const char *module;         /* "ext4" for "[ext4]"; NULL for the kernel */
    char type;                  /* 't', 'T', 'w' or 'W' */
} pd_ksym;

typedef struct pd_kallsyms pd_kallsyms;

/* Parses text in /proc/kallsyms format ("addr type name [module]" lines),
   keeping t/T/w/W symbols. Unparsable lines are skipped. The text is
   copied. PD_ELF_NOT_FOUND when no text symbol is left, PD_ELF_MALFORMED
   when all their addresses are 0 (hidden by kernel.kptr_restrict). */
pd_elf_status pd_kallsyms_parse(const char *text, size_t size, pd_kallsyms **out, pd_elf_error *err);
/* The same on a file (read whole: /proc files cannot be mapped), opened by
   pd_elf_open_regular. */
pd_elf_status pd_kallsyms_load(const char *path, pd_kallsyms **out, pd_elf_error *err);
void pd_kallsyms_free(pd_kallsyms *ks);
/* The nearest symbol at or below addr whose end is above it, or NULL. */
const pd_ksym *pd_kallsyms_lookup(const pd_kallsyms *ks, uint64_t addr);
/* The sorted symbols, one per address. */
size_t pd_kallsyms_symbols(const pd_kallsyms *ks, const pd_ksym **symbols);

#ifdef __cplusplus
}
#endif

#endif
