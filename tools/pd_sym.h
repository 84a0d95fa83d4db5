/* pd_sym.h - turning a sampled address into (shared object, symbol) as perf
   report shows them: the map live at the sample's time (pd_state), its
   binary found by path or build id (pd_elf_find, cached per mapping name),
   the ip translated through the binary's PT_LOAD segments, and kernel
   addresses through kallsyms (--kallsyms FILE, else /proc/kallsyms when the
   profile was recorded on this host and kernel) and KSYMBOL records. */
#ifndef PD_SYM_H
#define PD_SYM_H

#include "pd_elf.h"
#include "pd_state.h"

struct pd_bid;

typedef struct pd_symbolizer {
    const perfdata_file *file;            /* for its BUILD_ID feature */
    pd_elf_search search;
    const char *kallsyms_path;      /* --kallsyms, or NULL */
    pd_kallsyms *kallsyms;
    int kallsyms_tried;
    int host_matches;               /* recorded here: /proc/kallsyms applies */
    const char *hostname, *osrelease; /* a pipe's HOSTNAME and OSRELEASE records (interned) */
    pd_intern names;                /* build-id file names and kernel dso names */
    struct pd_bid *bids;            /* build ids from HEADER_BUILD_ID records, */
    size_t nbids, capbids;          /* open addressing on the interned file name */
    const char *kernel_dso;         /* [kernel.kallsyms], or [kernel.vmlinux] when the
                                       build-id table names a vmlinux */
    const char *unknown_dso, *bpf_dso; /* [unknown] and [bpf_prog], interned once */
    struct pd_dso *dsos;            /* cache, by mapping name */
    size_t ndsos, capdsos;
    size_t *dso_slots;              /* index + 1 into dsos, open addressing on the name pointer */
    int verbose;
    int demangle;                   /* C++ and Rust names as perf shows them (pd_sym_demangle) */
    int inline_frames;              /* inlined frames in unwound stacks (pd_sym_inline_frames) */
    struct pd_demangled *demangled; /* names demangled so far, open addressing on the name pointer */
    size_t ndemangled, capdemangled;
    size_t demangled_bytes;         /* their texts' total */
    int said_demangled;             /* the bound was said */
    struct pd_srcline_slot *srclines; /* source lines asked so far, by (dso, address) */
    size_t nsrclines, capsrclines;
    struct pd_inline_slot *inlines; /* inlined frames asked so far, by (dso, address) */
    struct pd_unwindable *unwindable; /* pd_sym_can_unwind's answers, by address space */
    struct pd_cfi_base *cfi_bases;  /* where perf places an object's unwind table, by address space */
    struct pd_cfi_cached *cfi_cache; /* pd_sym_cfi's answers, by (address space generation, pc) */
    struct pd_prefetch *prefetch;   /* pd_sym_prefetch's thread and what it read, or NULL */
    size_t ninlines, capinlines;
    struct pd_sym_inline *inline_names; /* their names and places */
    struct pd_dwarf_frame *inline_scratch; /* PD_SYM_INLINES_MAX of them: an address's, as read */
    size_t ninline_names, capinline_names;
    unsigned forgot;                /* counts the times the answers by address were forgotten (a
                                       cache of them must be emptied when it changes) */
    int partial;                    /* something was left out and said on stderr (malformed
                                       line tables): the command exits non-zero */
    int defer_kernel;               /* 1: pd_sym_resolve does not wait for the kernel's symbols
                                       being read ahead (pd_resolved.ksym_pending) */
} pd_symbolizer;

/* 1 unless --no-demangle: pd_sym_init copies it. */
extern int pd_sym_demangle;
/* 1 unless --no-inline (perf's, on by default): pd_sym_init copies it. */
extern int pd_sym_inline_frames;

typedef struct pd_resolved {
    const char *dso;                /* short name as perf shows it, interned: "libc.so.6",
                                       "[kernel.kallsyms]", "[kvm_intel]", "[unknown]" */
    const char *dso_path;           /* the mapping's name, or NULL */
    const char *sym;                /* NULL when unresolved */
    const char *src_file;           /* STT_FILE of a local symbol, or NULL */
    uint64_t sym_start, sym_end;    /* the symbol's range (its identity within the dso) */
    uint64_t sym_off;               /* the address's offset in the symbol (perf's +0x...) */
    uint64_t addr;                  /* what perf prints when unresolved: the address
                                       in the object (perf's map_ip), or the ip */
    int kernel;                     /* [k] rather than [.] */
    char level;                     /* perf's level: 'k', '.', 'g' (guest kernel),
                                       'u' (guest user), 'H' (hypervisor) */
    int guest;                      /* a guest's sample: perf filters it (no guest machine) */
    int mapped;                     /* the address is in a map (perf's al->map) */
    size_t dso_index;               /* the object, for pd_sym_srcline: 1 + its index; 0: none */
    uint64_t vaddr;                 /* the ELF virtual address (valid when have_vaddr) */
    int have_vaddr;
    int plt;                        /* sym is a PLT entry perf synthesized (no symbol in the file) */
    int ksym_pending;               /* a kernel address whose symbol is yet to be looked up
                                       (defer_kernel): pd_sym_kernel_finish */
} pd_resolved;

void pd_sym_init(pd_symbolizer *s, const perfdata_file *f);
void pd_sym_free(pd_symbolizer *s);
/* Reads ahead, on a thread of its own, what the first lookups would
   otherwise stop to read: the kernel's symbols (when an event counts in
   the kernel), and with `debug` the line tables (1), or the line tables
   and inlined functions (2), of the user objects the file's BUILD_ID
   table names that have a debug file in /usr/lib/debug/.build-id (no
   --symfs). Files only: a pipe names its host and objects later; not
   with -j 1. Call it after the options (kallsyms_path,
   search) are set; the answers are the same as without it, only sooner.
   A lookup that needs an object not started yet reads it itself. */
void pd_sym_prefetch(pd_symbolizer *s, int debug);
/* Feeds one non-sample record: a pipe's HOSTNAME, OSRELEASE and BUILD_ID
   features, and HEADER_BUILD_ID records (perf inject -b). */
void pd_sym_record(pd_symbolizer *s, const perfdata_record *rec);
void pd_sym_resolve(pd_symbolizer *s, pd_state *st, pd_thread *t, unsigned cpumode, uint64_t ip, pd_resolved *out);

/* perf 6.1's source line of a resolved user address ("file.c:42", the
   file's base name), as addr2line gives it from the object's DWARF line
   table (or a separate debug file: /usr/lib/debug/.build-id, .gnu_debuglink)
   and perf takes it: an address no line covers but a symbol does is
   "STT_FILE-name:0", or "??:0" without one; interned. NULL where perf's
   lookup fails: no object, the kernel, a PLT entry, no symbol, or (as perf
   gives up) an object whose first 123 addresses all failed. */
const char *pd_sym_srcline(pd_symbolizer *s, const pd_resolved *r);
/* The source file (its directories joined as binutils' addr2line joins them) and line
   of address vaddr of object dso_index (a pd_resolved's): 1, or 0 when no
   line table covers it. */
int pd_sym_source(pd_symbolizer *s, size_t dso_index, uint64_t vaddr, char *file, size_t cap, uint32_t *line);

/* perf 6.1's inline list of a resolved user address (its append_inlines,
   for the frames of unwound stacks): what addr2line -i -f gives there,
   innermost first, the containing function last, each named as perf
   shows it (demangled, binutils' naming rules) with its place
   ("file:line"; a caller's: its call site; "??:0" without lines);
   interned. 0 where addr2line knows nothing. perf prints an entry whose
   name is not the symbol's as "NAME+0xOFF (inlined)". At most perf's
   bound: the first record and MAX_INLINE_NEST (1024) more. */
#define PD_SYM_INLINES_MAX 1025
typedef struct pd_sym_inline { const char *name, *srcline; } pd_sym_inline;
size_t pd_sym_inlines(pd_symbolizer *s, const pd_resolved *r, pd_sym_inline *out, size_t max);
/* 1 when pd_sym_inlines of r would wait for its object's debug
   information, still being read ahead (pd_sym_prefetch). The answers
   depend on the order of the questions (perf's addr2line gives up on an
   object, and names some entries, by what it was asked before), so a
   caller that puts questions off must ask them in their order. */
int pd_sym_inlines_wait(pd_symbolizer *s, const pd_resolved *r);
/* Names a kernel address that pd_sym_resolve left pending (defer_kernel
   set while the kernel's symbols were read ahead), waiting for them; the
   answer is the one pd_sym_resolve would have given. */
void pd_sym_kernel_finish(pd_symbolizer *s, uint64_t ip, pd_resolved *r);
/* 1 while the kernel's symbols are still being read ahead (not waiting) */
int pd_sym_kernel_waits(pd_symbolizer *s);

/* Whether perf 6.1 unwinds t's user stacks: once one of its maps is of an
   object whose ELF file is at hand (elsewhere its samples get no user
   frames from the stack dump at all). */
int pd_sym_can_unwind(pd_symbolizer *s, pd_thread *t);

/* 1 when a map of t holds user address addr (perf's find_map). */
int pd_sym_user_mapped(pd_state *st, pd_thread *t, uint64_t addr);

/* Whether sample smp of a profile recorded on arch (perf's HEADER_ARCH)
   carries a user stack pd_sym_unwind unwinds: user registers and a stack
   copy (perf record --call-graph dwarf) of x86-64, aarch64 or arm32 (on
   arm or, a 32-bit task, on aarch64). */
int pd_sym_unwinds(const perfdata_sample *smp, const char *arch);
/* smp's user frames, unwound from its registers and stack copy as perf
   6.1 unwinds them (pd_unwind with PD_UNWIND_PERF, the objects' CFI placed
   by pd_sym_cfi, perf's reads past the copy), into ips: the sampled pc,
   then each caller's return address - 1; at most max; how many. 0 where
   perf unwinds nothing (pd_sym_can_unwind) or the stack pointer is not
   sampled. */
size_t pd_sym_unwind(pd_symbolizer *s, pd_state *st, pd_thread *t, const perfdata_sample *smp, const char *arch,
                     uint64_t *ips, size_t max);

struct pd_cfi_row;
/* The call frame rules (pd_unwind.h) at user address pc of thread t, by
   the object mapped there (its .eh_frame, else .debug_frame), placed as
   perf places them: 1; 0 when the object has none for pc; -1 when no
   object (or none at hand) is mapped there. */
int pd_sym_cfi(pd_symbolizer *s, pd_state *st, pd_thread *t, uint64_t pc, struct pd_cfi_row *row);

#endif
