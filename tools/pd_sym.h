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

typedef struct pd_symbolizer {
    perfdata_file *file;            /* for its BUILD_ID feature */
    pd_elf_search search;
    const char *kallsyms_path;      /* --kallsyms, or NULL */
    pd_kallsyms *kallsyms;
    int kallsyms_tried;
    int host_matches;               /* recorded here: /proc/kallsyms applies */
    struct pd_dso *dsos;            /* cache, by mapping name */
    size_t ndsos, capdsos;
    size_t *dso_slots;              /* index + 1 into dsos, open addressing on the name pointer */
    int verbose;
} pd_symbolizer;

typedef struct pd_resolved {
    const char *dso;                /* short name, "[kernel.kallsyms]", "[unknown]" */
    const char *dso_path;           /* the mapping's name, or NULL */
    const char *sym;                /* NULL when unresolved */
    const char *src_file;           /* STT_FILE of a local symbol, or NULL */
    uint64_t sym_start;             /* the symbol's address (ELF vaddr, kallsyms or KSYMBOL) */
    uint64_t addr;                  /* what perf prints when unresolved */
    int kernel;                     /* [k] rather than [.] */
} pd_resolved;

void pd_sym_init(pd_symbolizer *s, perfdata_file *f);
void pd_sym_free(pd_symbolizer *s);
void pd_sym_resolve(pd_symbolizer *s, pd_state *st, pd_thread *t, unsigned cpumode, uint64_t ip, pd_resolved *out);

#endif
