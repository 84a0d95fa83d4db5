/* pd_state.h - what perf calls the machine state, rebuilt from the records
   in time order: threads and their command names (COMM, FORK, EXIT), each
   process's memory maps (MMAP, MMAP2; FORK copies them for a new process;
   a new mapping replaces what it overlaps), the kernel's maps (pid -1) and
   BPF/JIT kernel symbols (KSYMBOL). A sample is then attributed to the comm
   and the map live at its time. */
#ifndef PD_STATE_H
#define PD_STATE_H

#include "perfdata.h"
#include "pd_intern.h"

#include <stddef.h>
#include <stdint.h>

typedef struct pd_map_entry {
    uint64_t start, end, pgoff;
    const char *name;          /* interned */
    unsigned char build_id[20];
    int build_id_size;
    uint32_t prot;             /* PROT_* (MMAP records: PROT_EXEC unless data) */
    int kernel;                /* one of the kernel's maps (the kernel, a module) */
} pd_map_entry;

typedef struct pd_maps {       /* sorted by start, non-overlapping */
    pd_map_entry *v;
    size_t n, cap;
    int refs;
} pd_maps;

/* A thread's command as perf keeps it (struct comm): the first COMM of a
   thread that had none renames its ":TID" in place, so rows made from
   samples before it show the new name too; later COMMs are new ones. */
typedef struct pd_comm {
    const char *str;           /* interned */
    struct pd_comm *next;      /* every one, for pd_state_free */
} pd_comm;

typedef struct pd_thread {
    int32_t pid, tid;
    const char *comm;          /* interned; NULL until a COMM (tid 0: "swapper") */
    pd_comm *cell;             /* the current command as perf's struct comm, or NULL */
    int comm_set;              /* a COMM (or a fork from a named parent) named it */
    pd_maps *maps;             /* shared by the threads of a process */
    int used;
} pd_thread;

typedef struct pd_state_ksym { uint64_t addr, len; const char *name; } pd_state_ksym;

typedef struct pd_state {
    pd_thread *threads;        /* open addressing on tid */
    size_t nthreads, cap;
    pd_maps kernel;
    pd_state_ksym *ksyms;
    size_t nksyms, capksyms;
    pd_intern strings;         /* every name: equal names are one pointer */
    pd_comm *cells;
} pd_state;

void pd_state_init(pd_state *st);
void pd_state_free(pd_state *st);
/* Feeds one record (in time order); samples are ignored here. */
void pd_state_update(pd_state *st, perfdata_file *f, const perfdata_record *rec);
pd_thread *pd_state_thread(pd_state *st, int32_t pid, int32_t tid);
/* The map containing ip for a sample of this cpumode (misc & 7), or NULL. */
const pd_map_entry *pd_state_find_map(pd_state *st, pd_thread *t, unsigned cpumode, uint64_t ip);
const pd_state_ksym *pd_state_find_ksym(pd_state *st, uint64_t ip);
const char *pd_state_intern(pd_state *st, const char *s, size_t n);
/* The thread's command as perf names it: its COMM, "swapper" for the idle
   thread (tid 0), else ":TID". Interned. */
const char *pd_state_comm(pd_state *st, pd_thread *t);
/* The thread's current command as perf's struct comm (see pd_comm). */
pd_comm *pd_state_comm_cell(pd_state *st, pd_thread *t);

#endif
