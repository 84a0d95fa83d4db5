/* pd_state.c - see pd_state.h.

   An address space is a treap (a binary search tree on the maps' starts,
   heap-ordered on random priorities, so its depth is O(log n) whatever the
   addresses) that is persistent: a node may belong to the trees of many
   processes, and counts its references (parent nodes and roots). A fork
   takes a reference to its parent's root. A change (split, merge) never
   writes to a shared node: it copies the nodes on its path (node_own),
   O(log n) of them, and the rest stays shared. A node with one reference
   is changed in place, so a profile without forks costs what an ordinary
   tree costs. The priorities come from a PRNG seeded with the process's
   hash seed (pd_intern.h): a file cannot choose addresses that unbalance
   the tree. */
#include "pd_state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pd_map_node {
    pd_map_entry e;
    pd_map_node *left, *right;
    size_t refs;               /* parent nodes and roots that hold this node */
    size_t size;               /* the nodes of this subtree */
    uint64_t prio;             /* a parent's is at least its children's */
};

static void *grow(void *p, size_t *cap, size_t need, size_t elem) {
    size_t n = *cap ? *cap : 16;
    void *q;
    if (need <= *cap) return p;
    while (n < need) n *= 2;
    q = realloc(p, n * elem);
    if (!q) pd_nomem();
    *cap = n;
    return q;
}

/* --- the persistent treap ------------------------------------------------ */

static uint64_t next_prio(pd_state *st) { /* splitmix64 */
    uint64_t z = (st->prng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static size_t size_of(const pd_map_node *t) { return t ? t->size : 0; }

static void resize(pd_map_node *t) { t->size = 1 + size_of(t->left) + size_of(t->right); }

static pd_map_node *node_new(pd_state *st, const pd_map_entry *e) {
    pd_map_node *t = (pd_map_node *)malloc(sizeof *t);
    if (!t) pd_nomem();
    t->e = *e;
    t->left = t->right = NULL;
    t->refs = 1;
    t->size = 1;
    t->prio = next_prio(st);
    return t;
}

static pd_map_node *node_get(pd_map_node *t) {
    if (t) t->refs++;
    return t;
}

/* Drops one reference; a node nobody holds any more drops its children's. */
static void node_put(pd_map_node *t) {
    while (t && --t->refs == 0) {
        pd_map_node *right = t->right;
        node_put(t->left);
        free(t);
        t = right;
    }
}

/* A node the caller, who holds one reference to t, may change: t itself
   when that is its only reference, else a copy that takes the caller's
   reference (and one to each child). */
static pd_map_node *node_own(pd_map_node *t) {
    pd_map_node *c;
    if (t->refs == 1) return t;
    c = (pd_map_node *)malloc(sizeof *c);
    if (!c) pd_nomem();
    *c = *t;
    c->refs = 1;
    node_get(c->left);
    node_get(c->right);
    t->refs--;
    return c;
}

/* Splits t (the caller's reference) into the nodes whose start is below
   key (or at most key, when inclusive) and the others. */
static void split(pd_map_node *t, uint64_t key, int inclusive, pd_map_node **l, pd_map_node **r) {
    if (!t) {
        *l = *r = NULL;
        return;
    }
    t = node_own(t);
    if (t->e.start < key || (inclusive && t->e.start == key)) {
        split(t->right, key, inclusive, &t->right, r);
        *l = t;
    } else {
        split(t->left, key, inclusive, l, &t->left);
        *r = t;
    }
    resize(t);
}

/* The tree of l's nodes then r's (every start in l at most every one in r). */
static pd_map_node *merge(pd_map_node *l, pd_map_node *r) {
    if (!l) return r;
    if (!r) return l;
    if (l->prio > r->prio) {
        l = node_own(l);
        l->right = merge(l->right, r);
        resize(l);
        return l;
    }
    r = node_own(r);
    r->left = merge(l, r->left);
    resize(r);
    return r;
}

static const pd_map_node *rightmost(const pd_map_node *t) {
    while (t && t->right) t = t->right;
    return t;
}

/* The node with the greatest start at most ip (the last of equal ones). */
static const pd_map_node *floor_of(const pd_map_node *t, uint64_t ip) {
    const pd_map_node *best = NULL;
    while (t) {
        if (t->e.start <= ip) {
            best = t;
            t = t->right;
        } else {
            t = t->left;
        }
    }
    return best;
}

size_t pd_maps_count(const pd_maps *m) { return m ? size_of(m->root) : 0; }

const pd_map_entry *pd_maps_at(const pd_maps *m, size_t i) {
    const pd_map_node *t = m ? m->root : NULL;
    while (t) {
        size_t left = size_of(t->left);
        if (i == left) return &t->e;
        if (i < left) {
            t = t->left;
        } else {
            i -= left + 1;
            t = t->right;
        }
    }
    return NULL;
}

/* --- address spaces ------------------------------------------------------ */

static pd_maps *maps_new(pd_state *st, pd_map_node *root) {
    pd_maps *m = (pd_maps *)calloc(1, sizeof *m);
    if (!m) pd_nomem();
    m->root = root;
    m->refs = 1;
    m->gen = ++st->gen;
    return m;
}

/* A new process's address space: its parent's as it is, shared (O(1)). */
static pd_maps *maps_fork(pd_state *st, const pd_maps *parent) { return maps_new(st, node_get(parent->root)); }

static void maps_put(pd_maps *m) {
    if (m && --m->refs == 0) {
        node_put(m->root);
        free(m);
    }
}

/* Inserts a map, cutting back or removing what it overlaps (perf's
   maps__fixup_overlappings): the newest mapping of an address wins; a map
   it covers in part keeps its part below (same pgoff) and its part above
   (pgoff moved by as much). Maps stay sorted by start; an empty map (only
   possible at the top of the address space) goes after those starting
   where it does. */
static void maps_insert(pd_state *st, pd_maps *m, const pd_map_entry *e) {
    pd_map_node *below, *rest, *cut, *above, *piece = NULL;
    const pd_map_node *last;
    m->gen = ++st->gen;
    split(m->root, e->start, 0, &below, &rest);
    if (e->start == e->end) {
        split(rest, e->start, 1, &cut, &above);
        m->root = merge(merge(below, cut), merge(node_new(st, e), above));
        return;
    }
    /* of the maps below, only the last can reach into the new one */
    last = rightmost(below);
    if (last && last->e.end > e->start) {
        pd_map_node *l;
        split(below, last->e.start, 0, &below, &l); /* l: that map alone (never NULL) */
        if (l) {
            l = node_own(l);
            if (l->e.end > e->end) {
                pd_map_entry r = l->e;
                r.pgoff += e->end - r.start;
                r.start = e->end;
                piece = node_new(st, &r);
            }
            l->e.end = e->start;
            below = merge(below, l);
        }
    }
    /* the maps starting inside the new one go; the last may reach past it */
    split(rest, e->end, 0, &cut, &above);
    last = rightmost(cut);
    if (last && last->e.end > e->end) {
        pd_map_entry r = last->e;
        r.pgoff += e->end - r.start;
        r.start = e->end;
        piece = node_new(st, &r);
    }
    node_put(cut);
    m->root = merge(below, merge(merge(node_new(st, e), piece), above));
}

static const pd_map_entry *maps_find(const pd_maps *m, uint64_t ip) {
    const pd_map_node *t = m ? floor_of(m->root, ip) : NULL;
    return t && ip < t->e.end ? &t->e : NULL;
}

/* --- kernel symbols ------------------------------------------------------ */

/* A KSYMBOL takes the addresses of its range that no earlier one holds
   (the first recorded wins where ranges overlap): the
   gaps that the union of the earlier ranges leaves in it. The union's runs
   that the new range meets merge into one, so each KSYMBOL adds O(1) runs
   and ranges, amortized, each in O(log n). */
static void own_range(pd_state *st, uint64_t start, uint64_t end, size_t idx) {
    pd_map_entry e;
    pd_map_node *l, *r;
    memset(&e, 0, sizeof e);
    e.start = start;
    e.end = end;
    e.pgoff = idx;
    split(st->ksym_owner, start, 0, &l, &r);
    st->ksym_owner = merge(l, merge(node_new(st, &e), r));
}

/* The runs of t in order: the gaps before them (from *pos on, up to each
   run's start) go to ksym idx. */
static void fill_gaps(pd_state *st, const pd_map_node *t, uint64_t *pos, size_t idx) {
    while (t) {
        fill_gaps(st, t->left, pos, idx);
        if (*pos < t->e.start) own_range(st, *pos, t->e.start, idx);
        if (t->e.end > *pos) *pos = t->e.end;
        t = t->right;
    }
}

static void ksym_cover(pd_state *st, uint64_t start, uint64_t end, size_t idx) {
    pd_map_node *below, *rest, *met, *above;
    const pd_map_node *last;
    pd_map_entry run;
    uint64_t pos = start;
    memset(&run, 0, sizeof run);
    run.start = start;
    split(st->ksym_union, start, 0, &below, &rest);
    last = rightmost(below);
    if (last && last->e.end >= start) { /* a run reaching (or touching) the range joins it */
        pd_map_node *l;
        if (last->e.end >= end) { /* all held already */
            st->ksym_union = merge(below, rest);
            return;
        }
        run.start = last->e.start;
        pos = last->e.end;
        split(below, last->e.start, 0, &below, &l);
        node_put(l);
    }
    split(rest, end, 1, &met, &above); /* the runs starting in the range (or touching its end) */
    fill_gaps(st, met, &pos, idx);
    if (pos < end) {
        own_range(st, pos, end, idx);
        pos = end;
    }
    node_put(met);
    run.end = pos;
    st->ksym_union = merge(below, merge(node_new(st, &run), above));
}

const pd_state_ksym *pd_state_find_ksym(pd_state *st, uint64_t ip) {
    const pd_map_node *t = floor_of(st->ksym_owner, ip);
    return t && ip < t->e.end ? &st->ksyms[t->e.pgoff] : NULL;
}

/* --- threads ------------------------------------------------------------- */

const char *pd_state_intern(pd_state *st, const char *s, size_t n) { return pd_intern_n(&st->strings, s, n); }

static pd_comm *new_cell(pd_state *st, const char *str) {
    pd_comm *c = (pd_comm *)malloc(sizeof *c);
    if (!c) pd_nomem();
    c->str = str;
    c->next = st->cells;
    st->cells = c;
    return c;
}

/* perf's __thread__set_comm: the first name overrides the ":TID" one. A
   later name is a new comm: its cell is made when asked for, as most
   threads' cells never are. */
static void set_comm(pd_thread *t, const char *name) {
    t->comm = name;
    if (t->last) t->last->str = name;
    if (!t->comm_set && t->cell) t->cell->str = name;
    else t->cell = NULL;
    t->comm_set = 1;
}

const pd_comm *pd_state_last_comm(pd_state *st, pd_thread *t) {
    if (!t->last) t->last = new_cell(st, pd_state_comm(st, t));
    return t->last;
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
    st->kernel.gen = ++st->gen;
    st->prng = pd_hash_u64(0x7072696f72697479ull);
}

void pd_state_free(pd_state *st) {
    size_t i;
    for (i = 0; i < st->cap; i++)
        if (st->threads[i].used) maps_put(st->threads[i].maps);
    free(st->threads);
    free(st->exited);
    node_put(st->kernel.root);
    node_put(st->ksym_owner);
    node_put(st->ksym_union);
    free(st->ksyms);
    pd_intern_free(&st->strings);
    while (st->cells) {
        pd_comm *next = st->cells->next;
        free(st->cells);
        st->cells = next;
    }
    memset(st, 0, sizeof *st);
}

static size_t slot_of(int32_t tid, size_t cap) { return (size_t)pd_hash_u64((uint32_t)tid) & (cap - 1); }

static void rehash(pd_state *st) {
    size_t cap = st->cap ? st->cap * 2 : 1024, i;
    pd_thread *old = st->threads, *t = (pd_thread *)calloc(cap, sizeof *t);
    if (!t) pd_nomem();
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

/* Takes the thread at slot i out of the table: the entries after it in its
   run move back where a lookup would no longer reach them (linear probing's
   deletion), so pointers to threads are stale after it. */
static void remove_slot(pd_state *st, size_t i) {
    size_t mask = st->cap - 1, j = i, home;
    maps_put(st->threads[i].maps);
    st->nthreads--;
    for (;;) {
        st->threads[i].used = 0;
        for (;;) {
            j = (j + 1) & mask;
            if (!st->threads[j].used) return;
            home = slot_of(st->threads[j].tid, st->cap);
            /* j stays where it is when its home lies in (i, j], cyclically */
            if (i <= j ? (i < home && home <= j) : (i < home || home <= j)) continue;
            break;
        }
        st->threads[i] = st->threads[j];
        i = j;
    }
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
    t->exited = 0;
    t->serial = ++st->serials;
    t->pid = pid;
    t->tid = tid;
    /* perf's idle thread (machine__idle_thread) is named swapper */
    t->comm = NULL;
    t->cell = t->last = NULL;
    t->comm_set = 0;
    if (tid == 0) set_comm(t, pd_state_intern(st, "swapper", 7));
    t->maps = NULL;
    st->nthreads++;
    leader = pid != tid && pid != -1 ? find_thread(st, pid) : NULL;
    if (leader && leader->maps) { t->maps = leader->maps; t->maps->refs++; }
    else t->maps = maps_new(st, NULL);
    return t;
}

/* --- lookups ------------------------------------------------------------- */

/* A kernel address: the map holding it; else, as perf's kernel map once
   its symbols are loaded (maps__fixup_end), the kernel's own map covers
   everything from its start up to the next kernel map (its init text lies
   beyond the _etext the MMAP record stops at). BPF programs come first. */
static const pd_map_entry *kernel_find(pd_state *st, uint64_t ip) {
    const pd_map_node *t;
    const pd_map_entry *e = maps_find(&st->kernel, ip);
    if (e || pd_state_find_ksym(st, ip)) return e;
    t = floor_of(st->kernel.root, ip); /* the last map starting at or below ip */
    if (t && !strncmp(t->e.name, "[kernel.kallsyms]", 17)) return &t->e;
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

/* --- records ------------------------------------------------------------- */

static void on_mmap(pd_state *st, const perfdata_file *f, const perfdata_record *rec) {
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
        maps_insert(st, &st->kernel, &e);
    } else {
        pd_thread *t = pd_state_thread(st, (int32_t)m.pid, (int32_t)m.tid);
        maps_insert(st, t->maps, &e);
    }
}

static void on_comm(pd_state *st, const perfdata_file *f, const perfdata_record *rec) {
    perfdata_comm c;
    pd_thread *t;
    if (perfdata_decode_comm(f, rec, &c, NULL) != PERFDATA_OK) return;
    t = pd_state_thread(st, (int32_t)c.pid, (int32_t)c.tid);
    /* As perf does, an exec keeps the maps: the new program's MMAPs replace
       whatever they overlap (maps_insert), which is what matters for samples. */
    set_comm(t, pd_state_intern(st, (const char *)c.comm.p, c.comm.n));
}

static void on_fork(pd_state *st, const perfdata_file *f, const perfdata_record *rec) {
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
    child->cell = child->last = NULL;
    child->comm_set = 0;
    child->exited = 0;
    child->serial = ++st->serials;
    if (parent->comm_set && parent->comm) set_comm(child, parent->comm);
    if (k.pid == k.ppid) { /* a thread: the process's maps */
        parent->maps->refs++;
        maps_put(child->maps);
        child->maps = parent->maps;
    } else { /* a process: its own, the parent's as they are (shared until either changes) */
        /* perf makes a synthesized fork (FORK_EXEC: perf record's, of a
           process that ran before it) no copy: its own MMAPs follow */
        pd_maps *m = (rec->misc & PERFDATA_MISC_FORK_EXEC) ? maps_new(st, NULL) : maps_fork(st, parent->maps);
        maps_put(child->maps);
        child->maps = m;
    }
}

/* perf keeps an exited thread for the samples taken on its way out, which
   come after its EXIT and may still hold user frames; this keeps the last
   PD_STATE_EXITED_KEPT exited threads whole, and an older one goes with
   its maps (freed with the last thread that held them). */
static void thread_exited(pd_state *st, int32_t tid) {
    pd_thread *t;
    if (st->keep_exited || !(t = find_thread(st, tid)) || t->exited || t->tid == 0) return;
    t->exited = 1;
    if (!st->exited && !(st->exited = (pd_exited *)calloc(PD_STATE_EXITED_KEPT, sizeof *st->exited))) pd_nomem();
    if (st->nexited == PD_STATE_EXITED_KEPT) { /* the oldest goes, unless its tid was born again */
        pd_thread *old = find_thread(st, st->exited[st->exited_head].tid);
        if (old && old->serial == st->exited[st->exited_head].serial && old->exited)
            remove_slot(st, (size_t)(old - st->threads));
        st->exited_head = (st->exited_head + 1) % PD_STATE_EXITED_KEPT;
        st->nexited--;
        t = find_thread(st, tid); /* the removal may have moved it */
    }
    st->exited[(st->exited_head + st->nexited) % PD_STATE_EXITED_KEPT].tid = t->tid;
    st->exited[(st->exited_head + st->nexited) % PD_STATE_EXITED_KEPT].serial = t->serial;
    st->nexited++;
}

static void on_task_exit(pd_state *st, const perfdata_file *f, const perfdata_record *rec) {
    perfdata_task k;
    if (perfdata_decode_task(f, rec, &k, NULL) == PERFDATA_OK) thread_exited(st, (int32_t)k.tid);
}

/* A KSYMBOL's symbol (the record decoded). */
static void ksym_add(pd_state *st, uint64_t addr, uint64_t len, const char *name, size_t name_len) {
    uint64_t end = addr + len;
    if (end <= addr) return; /* empty, or past the top of the address space: it holds no address */
    st->ksyms = (pd_state_ksym *)grow(st->ksyms, &st->capksyms, st->nksyms + 1, sizeof *st->ksyms);
    st->ksyms[st->nksyms].addr = addr;
    st->ksyms[st->nksyms].len = len;
    st->ksyms[st->nksyms].name = pd_state_intern(st, name, name_len);
    ksym_cover(st, addr, end, st->nksyms);
    st->nksyms++;
    st->kernel.gen = ++st->gen; /* kernel lookups see it */
}

static void on_ksymbol(pd_state *st, const perfdata_file *f, const perfdata_record *rec) {
    perfdata_ksymbol k;
    if (perfdata_decode_ksymbol(f, rec, &k, NULL) != PERFDATA_OK) return;
    if (k.flags & 1) return; /* PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER: not followed */
    ksym_add(st, k.addr, k.len, (const char *)k.name.p, k.name.n);
}

void pd_state_update(pd_state *st, const perfdata_file *f, const perfdata_record *rec) {
    switch (rec->type) {
    case PERFDATA_RECORD_MMAP:
    case PERFDATA_RECORD_MMAP2: on_mmap(st, f, rec); break;
    case PERFDATA_RECORD_COMM: on_comm(st, f, rec); break;
    case PERFDATA_RECORD_FORK: on_fork(st, f, rec); break;
    case PERFDATA_RECORD_KSYMBOL: on_ksymbol(st, f, rec); break;
    case PERFDATA_RECORD_EXIT: on_task_exit(st, f, rec); break;
    default: break;
    }
}
