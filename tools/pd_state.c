/* pd_state.c - see pd_state.h. */
#include "pd_state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *grow(void *p, size_t *cap, size_t need, size_t elem) {
    size_t n = *cap ? *cap : 16;
    void *q;
    if (need <= *cap) return p;
    while (n < need) n *= 2;
    q = realloc(p, n * elem);
    if (!q) abort(); /* the tools have no way on without memory */
    *cap = n;
    return q;
}

const char *pd_state_intern(pd_state *st, const char *s, size_t n) { return pd_intern_n(&st->strings, s, n); }

static pd_comm *new_cell(pd_state *st, const char *str) {
    pd_comm *c = malloc(sizeof *c);
    if (!c) abort(); /* the tools have no way on without memory */
    c->str = str;
    c->next = st->cells;
    st->cells = c;
    return c;
}

/* perf's __thread__set_comm: the first name overrides the ":TID" one. */
static void set_comm(pd_state *st, pd_thread *t, const char *name) {
    t->comm = name;
    if (!t->comm_set && t->cell) t->cell->str = name;
    else t->cell = new_cell(st, name);
    t->comm_set = 1;
}

pd_comm *pd_state_comm_cell(pd_state *st, pd_thread *t) {
    if (!t->cell) t->cell = new_cell(st, pd_state_comm(st, t));
    return t->cell;
}

const char *pd_state_comm(pd_state *st, pd_thread *t) {
    char buf[32];
    if (t->comm) return t->comm;
    snprintf(buf, sizeof buf, ":%d", (int)t->tid); /* perf's thread__new name until a COMM */
    t->comm = pd_state_intern(st, buf, strlen(buf));
    return t->comm;
}

void pd_state_init(pd_state *st) {
    memset(st, 0, sizeof *st);
    st->kernel.refs = 1;
}

static void maps_put(pd_maps *m) {
    if (m && --m->refs == 0) { free(m->v); free(m); }
}

void pd_state_free(pd_state *st) {
    size_t i;
    for (i = 0; i < st->cap; i++)
        if (st->threads[i].used) maps_put(st->threads[i].maps);
    free(st->threads);
    free(st->kernel.v);
    free(st->ksyms);
    pd_intern_free(&st->strings);
    while (st->cells) {
        pd_comm *next = st->cells->next;
        free(st->cells);
        st->cells = next;
    }
    memset(st, 0, sizeof *st);
}

static size_t slot_of(int32_t tid, size_t cap) { return ((uint32_t)tid * 2654435761u) & (cap - 1); }

static pd_maps *maps_new(void) {
    pd_maps *m = calloc(1, sizeof *m);
    if (!m) abort();
    m->refs = 1;
    return m;
}

static pd_maps *maps_clone(const pd_maps *src) {
    pd_maps *m = maps_new();
    if (src && src->n) {
        m->v = malloc(src->n * sizeof *m->v);
        if (!m->v) abort();
        memcpy(m->v, src->v, src->n * sizeof *m->v);
        m->n = m->cap = src->n;
    }
    return m;
}

static void rehash(pd_state *st) {
    size_t cap = st->cap ? st->cap * 2 : 1024, i;
    pd_thread *old = st->threads, *t = calloc(cap, sizeof *t);
    if (!t) abort();
    for (i = 0; i < st->cap; i++) {
        size_t s;
        if (!old[i].used) continue;
        for (s = slot_of(old[i].tid, cap); t[s].used; s = (s + 1) & (cap - 1)) {}
        t[s] = old[i];
    }
    free(old);
    st->threads = t;
    st->cap = cap;
}

static pd_thread *find_thread(pd_state *st, int32_t tid) {
    size_t s;
    if (!st->cap) return NULL;
    for (s = slot_of(tid, st->cap); st->threads[s].used; s = (s + 1) & (st->cap - 1))
        if (st->threads[s].tid == tid) return &st->threads[s];
    return NULL;
}

/* perf's machine__findnew_thread: a thread seen first in a sample gets the
   maps of its process leader (found by pid), or new ones. */
pd_thread *pd_state_thread(pd_state *st, int32_t pid, int32_t tid) {
    pd_thread *t = find_thread(st, tid), *leader;
    size_t s;
    if (t) {
        if (t->pid == -1 && pid != -1) t->pid = pid;
        return t;
    }
    if ((st->nthreads + 1) * 2 > st->cap) rehash(st);
    for (s = slot_of(tid, st->cap); st->threads[s].used; s = (s + 1) & (st->cap - 1)) {}
    t = &st->threads[s];
    t->used = 1;
    t->pid = pid;
    t->tid = tid;
    /* perf's idle thread (machine__idle_thread) is named swapper */
    t->comm = NULL;
    t->cell = NULL;
    t->comm_set = 0;
    if (tid == 0) set_comm(st, t, pd_state_intern(st, "swapper", 7));
    t->maps = NULL;
    st->nthreads++;
    leader = pid != tid && pid != -1 ? find_thread(st, pid) : NULL;
    if (leader && leader->maps) { t->maps = leader->maps; t->maps->refs++; }
    else t->maps = maps_new();
    return t;
}

/* Inserts a map, cutting back or removing what it overlaps (perf's
   maps__fixup_overlappings): the newest mapping of an address wins. */
static void maps_insert(pd_maps *m, const pd_map_entry *e) {
    size_t i, out = 0;
    pd_map_entry *v;
    size_t n = m->n;
    v = malloc((n + 2) * sizeof *v);
    if (!v) abort();
    for (i = 0; i < n; i++) {
        pd_map_entry a = m->v[i];
        if (a.end <= e->start || a.start >= e->end) { v[out++] = a; continue; }
        if (a.start < e->start) { pd_map_entry l = a; l.end = e->start; v[out++] = l; }
        if (a.end > e->end) { pd_map_entry r = a; r.pgoff += e->end - a.start; r.start = e->end; v[out++] = r; }
    }
    v[out++] = *e;
    /* keep sorted: insertion of the last element */
    for (i = out - 1; i > 0 && v[i - 1].start > v[i].start; i--) {
        pd_map_entry t = v[i]; v[i] = v[i - 1]; v[i - 1] = t;
    }
    free(m->v);
    m->v = v;
    m->n = out;
    m->cap = n + 2;
}

static const pd_map_entry *maps_find(const pd_maps *m, uint64_t ip) {
    size_t lo = 0, hi = m ? m->n : 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->v[mid].end <= ip) lo = mid + 1;
        else hi = mid;
    }
    if (m && lo < m->n && m->v[lo].start <= ip && ip < m->v[lo].end) return &m->v[lo];
    return NULL;
}

/* A kernel address: the map holding it; else, as perf's kernel map once
   its symbols are loaded (maps__fixup_end), the kernel's own map covers
   everything from its start up to the next kernel map (its init text lies
   beyond the _etext the MMAP record stops at). BPF programs come first. */
static const pd_map_entry *kernel_find(pd_state *st, uint64_t ip) {
    const pd_maps *m = &st->kernel;
    const pd_map_entry *e = maps_find(m, ip);
    size_t lo = 0, hi = m->n;
    if (e || pd_state_find_ksym(st, ip)) return e;
    while (lo < hi) { /* the last map starting at or below ip */
        size_t mid = lo + (hi - lo) / 2;
        if (m->v[mid].start <= ip) lo = mid + 1;
        else hi = mid;
    }
    if (lo && !strncmp(m->v[lo - 1].name, "[kernel.kallsyms]", 17)) return &m->v[lo - 1];
    return NULL;
}

const pd_map_entry *pd_state_find_map(pd_state *st, pd_thread *t, unsigned cpumode, uint64_t ip) {
    if (cpumode == PERFDATA_MISC_KERNEL || cpumode == PERFDATA_MISC_GUEST_KERNEL) return kernel_find(st, ip);
    if (cpumode == PERFDATA_MISC_USER || cpumode == PERFDATA_MISC_GUEST_USER || cpumode == PERFDATA_MISC_CPUMODE_UNKNOWN) {
        const pd_map_entry *e = t ? maps_find(t->maps, ip) : NULL;
        return e ? e : (cpumode == PERFDATA_MISC_CPUMODE_UNKNOWN ? maps_find(&st->kernel, ip) : NULL);
    }
    return NULL;
}

const pd_state_ksym *pd_state_find_ksym(pd_state *st, uint64_t ip) {
    size_t i;
    for (i = 0; i < st->nksyms; i++)
        if (st->ksyms[i].addr <= ip && ip < st->ksyms[i].addr + st->ksyms[i].len) return &st->ksyms[i];
    return NULL;
}

static void on_mmap(pd_state *st, perfdata_file *f, const perfdata_record *rec) {
    perfdata_mmap m;
    pd_map_entry e;
    if (perfdata_decode_mmap(f, rec, &m, NULL) != PERFDATA_OK || !m.len) return;
    memset(&e, 0, sizeof e);
    e.start = m.addr;
    e.end = m.addr + m.len < m.addr ? UINT64_MAX : m.addr + m.len;
    e.pgoff = m.pgoff;
    /* perf's map__new maps the vdso from offset 0 whatever the record says
       (old kernels gave its address as the offset) */
    if (m.filename.n == 6 && !memcmp(m.filename.p, "[vdso]", 6)) e.pgoff = 0;
    e.name = pd_state_intern(st, (const char *)m.filename.p, m.filename.n);
    e.prot = m.prot;
    /* an MMAP record has no prot: perf takes it as executable unless marked data */
    if (rec->type == PERFDATA_RECORD_MMAP && !(rec->misc & PERFDATA_MISC_MMAP_DATA)) e.prot = 4; /* PROT_EXEC */
    if (m.has_build_id && m.build_id.n <= 20) { memcpy(e.build_id, m.build_id.p, m.build_id.n); e.build_id_size = (int)m.build_id.n; }
    /* as perf's machine__process_mmap_event: the record's cpumode says
       whose map it is (a user-mode map of pid -1 belongs to no thread a
       sample has); a guest kernel's maps belong to a guest machine perf
       does not keep */
    if ((rec->misc & PERFDATA_MISC_CPUMODE_MASK) == PERFDATA_MISC_GUEST_KERNEL) return;
    if ((rec->misc & PERFDATA_MISC_CPUMODE_MASK) == PERFDATA_MISC_KERNEL) {
        e.kernel = 1;
        maps_insert(&st->kernel, &e);
    } else {
        pd_thread *t = pd_state_thread(st, (int32_t)m.pid, (int32_t)m.tid);
        maps_insert(t->maps, &e);
    }
}

static void on_comm(pd_state *st, perfdata_file *f, const perfdata_record *rec) {
    perfdata_comm c;
    pd_thread *t;
    if (perfdata_decode_comm(f, rec, &c, NULL) != PERFDATA_OK) return;
    t = pd_state_thread(st, (int32_t)c.pid, (int32_t)c.tid);
    /* As perf does, an exec keeps the maps: the new program's MMAPs replace
       whatever they overlap (maps_insert), which is what matters for samples. */
    set_comm(st, t, pd_state_intern(st, (const char *)c.comm.p, c.comm.n));
}

static void on_fork(pd_state *st, perfdata_file *f, const perfdata_record *rec) {
    perfdata_task k;
    pd_thread *parent, *child;
    if (perfdata_decode_task(f, rec, &k, NULL) != PERFDATA_OK) return;
    pd_state_thread(st, (int32_t)k.ppid, (int32_t)k.ptid);
    child = find_thread(st, (int32_t)k.tid);
    if (!child) child = pd_state_thread(st, (int32_t)k.pid, (int32_t)k.tid);
    /* Looked up again: adding the child may have moved the table (rehash),
       and a pointer taken before would dangle (found by clang's analyzer). */
    parent = find_thread(st, (int32_t)k.ptid);
    if (!parent || child == parent) return; /* a thread forking itself (hostile input): nothing to inherit */
    child->pid = (int32_t)k.pid;
    /* perf's machine__process_fork_event makes the child anew (a thread
       left with its tid is removed) and thread__fork names it after a
       named parent */
    child->comm = NULL;
    child->cell = NULL;
    child->comm_set = 0;
    if (parent->comm_set && parent->comm) set_comm(st, child, parent->comm);
    maps_put(child->maps);
    if (k.pid == k.ppid) { child->maps = parent->maps; child->maps->refs++; } /* a thread */
    else child->maps = maps_clone(parent->maps);                           /* a process */
}

static void on_ksymbol(pd_state *st, perfdata_file *f, const perfdata_record *rec) {
    perfdata_ksymbol k;
    if (perfdata_decode_ksymbol(f, rec, &k, NULL) != PERFDATA_OK) return;
    if (k.flags & 1) return; /* PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER */
    st->ksyms = grow(st->ksyms, &st->capksyms, st->nksyms + 1, sizeof *st->ksyms);
    st->ksyms[st->nksyms].addr = k.addr;
    st->ksyms[st->nksyms].len = k.len;
    st->ksyms[st->nksyms].name = pd_state_intern(st, (const char *)k.name.p, k.name.n);
    st->nksyms++;
}

void pd_state_update(pd_state *st, perfdata_file *f, const perfdata_record *rec) {
    switch (rec->type) {
    case PERFDATA_RECORD_MMAP:
    case PERFDATA_RECORD_MMAP2: on_mmap(st, f, rec); break;
    case PERFDATA_RECORD_COMM: on_comm(st, f, rec); break;
    case PERFDATA_RECORD_FORK: on_fork(st, f, rec); break;
    case PERFDATA_RECORD_KSYMBOL: on_ksymbol(st, f, rec); break;
    default: break; /* EXIT: perf keeps the thread for late samples */
    }
}
