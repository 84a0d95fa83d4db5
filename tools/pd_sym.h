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
    struct pd_demangled *demangled; /* names demangled so far, open addressing on the name pointer */
    size_t ndemangled, capdemangled;
    size_t demangled_bytes;         /* their texts' total */
    int said_demangled;             /* the bound was said */
} pd_symbolizer;

/* 1 unless --no-demangle: pd_sym_init copies it. */
extern int pd_sym_demangle;

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
} pd_resolved;

void pd_sym_init(pd_symbolizer *s, const perfdata_file *f);
void pd_sym_free(pd_symbolizer *s);
/* Feeds one non-sample record: a pipe's HOSTNAME, OSRELEASE and BUILD_ID
   features, and HEADER_BUILD_ID records (perf inject -b). */
void pd_sym_record(pd_symbolizer *s, const perfdata_record *rec);
void pd_sym_resolve(pd_symbolizer *s, pd_state *st, pd_thread *t, unsigned cpumode, uint64_t ip, pd_resolved *out);

#endif
