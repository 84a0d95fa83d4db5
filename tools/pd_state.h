/* pd_state.h - what perf calls the machine state, rebuilt from the records
   in time order: threads and their command names (COMM, FORK, EXIT), each
   process's memory maps (MMAP, MMAP2; a new process starts with its
   parent's; a new mapping replaces what it overlaps), the kernel's maps
   (pid -1) and BPF/JIT kernel symbols (KSYMBOL). A sample is then
   attributed to the comm and the map live at its time.

   Bounds, whatever the file holds (n: the maps of one address space, or
   the KSYMBOL records): a thread is found in O(1) (a keyed hash), a map or
   a kernel symbol in O(log n); an MMAP costs O(log n) time and memory,
   what it overlaps included; a FORK costs O(1): the child shares its
   parent's maps, and a change to either copies only the O(log n) nodes on
   its path (pd_state.c).

   Memory grows with the threads alive at once, not with those that have
   come and gone: an exited thread stays whole, as perf keeps it, for the
   samples taken on its way out (they follow its EXIT, user frames and
   all), until PD_STATE_EXITED_KEPT more threads have exited; then it goes,
   and its process's maps with the last thread that held them (what a
   caller needs of it later, it keeps: pd_state_last_comm); keep_exited
   keeps every exited thread, as perf does, for a listing of every process
   at the end. A comm cell is made only when a caller asks for one. A
   pd_thread pointer holds until the next pd_state_update or
   pd_state_thread. */
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

typedef struct pd_map_node pd_map_node; /* private to pd_state.c */

/* An address space: its maps sorted by start, non-overlapping (read them
   with pd_maps_count and pd_maps_at). */
typedef struct pd_maps {
    pd_map_node *root;
    size_t refs;               /* the threads that share it */
    uint64_t gen;              /* changes with every change; never reused */
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
    pd_comm *last;             /* its last command, kept up to date, or NULL (pd_state_last_comm) */
    int comm_set;              /* a COMM (or a fork from a named parent) named it */
    pd_maps *maps;             /* shared by the threads of a process */
    uint64_t serial;           /* this thread's, unlike a later one with its tid */
    unsigned char used;
    unsigned char exited;      /* an EXIT was seen: it goes PD_STATE_EXITED_KEPT exits later */
} pd_thread;

/* How many exited threads are kept whole for their late samples. */
#define PD_STATE_EXITED_KEPT 1024

typedef struct pd_exited { int32_t tid; uint64_t serial; } pd_exited;

typedef struct pd_state_ksym { uint64_t addr, len; const char *name; } pd_state_ksym;

typedef struct pd_state {
    pd_thread *threads;        /* open addressing on the tid's keyed hash */
    size_t nthreads, cap;
    pd_maps kernel;
    pd_state_ksym *ksyms;      /* every KSYMBOL that covers an address, in record order */
    size_t nksyms, capksyms;
    pd_map_node *ksym_owner;   /* disjoint ranges, each the ksym that holds it (pgoff: its index) */
    pd_map_node *ksym_union;   /* the union of the ksyms' ranges, as disjoint runs */
    pd_intern strings;         /* every name: equal names are one pointer */
    pd_comm *cells;
    int keep_exited;           /* set before the walk: exited threads keep their maps and stay */
    pd_exited *exited;         /* a ring of the exited threads still kept */
    size_t exited_head, nexited;
    uint64_t serials;          /* the last pd_thread.serial given */
    uint64_t gen;              /* the last pd_maps.gen given */
    uint64_t prng;             /* the tree nodes' priorities */
} pd_state;

void pd_state_init(pd_state *st);
void pd_state_free(pd_state *st);
/* Feeds one record (in time order); samples are ignored here. */
void pd_state_update(pd_state *st, const perfdata_file *f, const perfdata_record *rec);
pd_thread *pd_state_thread(pd_state *st, int32_t pid, int32_t tid);
/* A cell that holds the thread's command as it changes, to its last one,
   after the thread has left the table too (perf's thread__comm_str at the
   end, for a row that keeps its first sample's thread). */
const pd_comm *pd_state_last_comm(pd_state *st, pd_thread *t);
/* The map containing ip for a sample of this cpumode (misc & 7), or NULL. */
const pd_map_entry *pd_state_find_map(pd_state *st, pd_thread *t, unsigned cpumode, uint64_t ip);
/* The KSYMBOL holding ip: of those that cover it, the first recorded
   (unregistrations are not followed). */
const pd_state_ksym *pd_state_find_ksym(pd_state *st, uint64_t ip);
/* What pd_state_find_map and pd_state_find_ksym read for (t, cpumode):
   while both numbers stay the same, so do their answers for any ip.
   Inline: a cache of lookups asks for every sample. */
static inline void pd_state_stamp(const pd_state *st, const pd_thread *t, unsigned cpumode, uint64_t stamp[2]) {
    int user = cpumode == PERFDATA_MISC_USER || cpumode == PERFDATA_MISC_GUEST_USER || cpumode == PERFDATA_MISC_CPUMODE_UNKNOWN;
    int kernel = cpumode == PERFDATA_MISC_KERNEL || cpumode == PERFDATA_MISC_GUEST_KERNEL ||
                 cpumode == PERFDATA_MISC_CPUMODE_UNKNOWN;
    stamp[0] = user && t && t->maps ? t->maps->gen : 0;
    stamp[1] = kernel ? st->kernel.gen : 0;
}
const char *pd_state_intern(pd_state *st, const char *s, size_t n);
/* The thread's command as perf names it: its COMM, "swapper" for the idle
   thread (tid 0), else ":TID". Interned. */
const char *pd_state_comm(pd_state *st, pd_thread *t);
/* The thread's current command as perf's struct comm (see pd_comm). */
pd_comm *pd_state_comm_cell(pd_state *st, pd_thread *t);

/* The maps of an address space in address order: how many, and the i-th
   (O(log n)), or NULL past the end. */
size_t pd_maps_count(const pd_maps *m);
const pd_map_entry *pd_maps_at(const pd_maps *m, size_t i);

#endif
