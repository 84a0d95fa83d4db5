/* test_state.c - tests of tools/pd_state.c (the process state: address
   spaces as persistent treaps, kernel symbols, the thread table) and of
   the keyed hashes of tools/pd_intern.c.

   Build and run from the repository root (tests/run.sh does, with
   ASan+UBSan, and as C++):
     cc -std=c99 -D_GNU_SOURCE -Wall -Wextra -Wpedantic -Werror -g \
        -fsanitize=address,undefined -I. -Itools tests/test_state.c \
        -o build/test/test_state && build/test/test_state

   The oracle for the maps is a sorted array with the same rules
   (ref_insert: a map cuts back or removes what it overlaps, the parts
   above keep their file offsets): every insert of random sequences,
   overlaps of every kind included, must leave the same maps, pgoffs and
   lookups. The kernel symbols' oracle is a linear search for the first
   recorded that covers an address. Leaks and reference counts
   are checked by LeakSanitizer and valgrind, and by the count of every
   node's references after the children are gone. */
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"
#include "../tools/pd_intern.c"
#include "../tools/pd_state.c"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- a deterministic generator for the test cases ------------------------ */

static uint64_t rng_state;
static uint64_t rnd(void) { return splitmix64(&rng_state); }
static uint64_t below(uint64_t n) { return n ? rnd() % n : 0; }

/* --- the oracle: today's semantics as a sorted array --------------------- */

typedef struct ref_maps { pd_map_entry *v; size_t n, cap; } ref_maps;

static void ref_push(ref_maps *r, const pd_map_entry *e) {
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 64;
        r->v = (pd_map_entry *)realloc(r->v, r->cap * sizeof *r->v);
        if (!r->v) abort();
    }
    r->v[r->n++] = *e;
}

static void ref_copy(ref_maps *to, const ref_maps *from) {
    size_t i;
    to->n = 0;
    for (i = 0; i < from->n; i++) ref_push(to, &from->v[i]);
}

/* A new map in a sorted array: what it overlaps cut back or removed. */
static void ref_insert(ref_maps *m, const pd_map_entry *e) {
    ref_maps out = {NULL, 0, 0};
    size_t i;
    for (i = 0; i < m->n; i++) {
        pd_map_entry a = m->v[i];
        if (a.end <= e->start || a.start >= e->end) { ref_push(&out, &a); continue; }
        if (a.start < e->start) { pd_map_entry l = a; l.end = e->start; ref_push(&out, &l); }
        if (a.end > e->end) { pd_map_entry r = a; r.pgoff += e->end - a.start; r.start = e->end; ref_push(&out, &r); }
    }
    ref_push(&out, e);
    for (i = out.n - 1; i > 0 && out.v[i - 1].start > out.v[i].start; i--) {
        pd_map_entry t = out.v[i]; out.v[i] = out.v[i - 1]; out.v[i - 1] = t;
    }
    free(m->v);
    *m = out;
}

static const pd_map_entry *ref_find(const ref_maps *m, uint64_t ip) {
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->v[mid].end <= ip) lo = mid + 1;
        else hi = mid;
    }
    return lo < m->n && m->v[lo].start <= ip && ip < m->v[lo].end ? &m->v[lo] : NULL;
}

static const pd_map_entry *ref_floor(const ref_maps *m, uint64_t ip) {
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->v[mid].start <= ip) lo = mid + 1;
        else hi = mid;
    }
    return lo ? &m->v[lo - 1] : NULL;
}

static int same_entry(const pd_map_entry *a, const pd_map_entry *b) {
    if (!a || !b) return !a && !b;
    return a->start == b->start && a->end == b->end && a->pgoff == b->pgoff && a->name == b->name && a->prot == b->prot;
}

/* 1 when the tree holds exactly the oracle's maps, in order. */
static int same_maps(const pd_maps *m, const ref_maps *r) {
    size_t i;
    if (pd_maps_count(m) != r->n) return 0;
    for (i = 0; i < r->n; i++)
        if (!same_entry(pd_maps_at(m, i), &r->v[i])) return 0;
    return pd_maps_at(m, r->n) == NULL;
}

/* The tree's own invariants: sizes, heap order on priorities, order of
   starts, every node referenced. Returns the depth, or -1. */
static int check_tree(const pd_map_node *t, const pd_map_node *lo, const pd_map_node *hi) {
    int l, r;
    if (!t) return 0;
    if (t->refs < 1 || t->size != 1 + size_of(t->left) + size_of(t->right)) return -1;
    if ((t->left && t->left->prio > t->prio) || (t->right && t->right->prio > t->prio)) return -1;
    if ((lo && t->e.start < lo->e.start) || (hi && t->e.start > hi->e.start)) return -1;
    if ((l = check_tree(t->left, lo, t)) < 0 || (r = check_tree(t->right, t, hi)) < 0) return -1;
    return 1 + (l > r ? l : r);
}

/* A random map: mostly in a small space so that they overlap in every
   way, sometimes at or near the top of the address space. */
static void random_entry(pd_state *st, pd_map_entry *e) {
    static const char *const names[] = {"/bin/a", "/lib/b.so", "[vdso]", "//anon", "/usr/lib/c.so.6"};
    uint64_t len;
    const char *name;
    memset(e, 0, sizeof *e);
    switch (below(16)) {
    case 0: /* reaching the top: end saturates as on_mmap's */
        e->start = UINT64_MAX - below(8) * 0x1000;
        len = (1 + below(8)) * 0x1000;
        break;
    case 1: /* the empty map on_mmap makes of an address of UINT64_MAX */
        e->start = UINT64_MAX;
        len = 1;
        break;
    default:
        e->start = below(64) * 0x1000 + (below(4) ? 0 : below(0x1000));
        len = (1 + below(12)) * 0x1000 - (below(4) ? 0 : below(0x800));
        break;
    }
    e->end = e->start + len < e->start ? UINT64_MAX : e->start + len;
    e->pgoff = below(16) * 0x1000;
    name = names[below(5)];
    e->name = pd_state_intern(st, name, strlen(name));
    e->prot = (uint32_t)below(8);
}

/* Every lookup of ips around every map's edges agrees with the oracle. */
static int same_lookups(const pd_maps *m, const ref_maps *r) {
    size_t i;
    int d;
    for (i = 0; i < r->n; i++) {
        uint64_t edges[6];
        edges[0] = r->v[i].start - 1; edges[1] = r->v[i].start; edges[2] = r->v[i].start + 1;
        edges[3] = r->v[i].end - 1; edges[4] = r->v[i].end; edges[5] = r->v[i].end + 1;
        for (d = 0; d < 6; d++) {
            const pd_map_node *f = floor_of(m->root, edges[d]);
            if (!same_entry(maps_find(m, edges[d]), ref_find(r, edges[d]))) return 0;
            if (!same_entry(f ? &f->e : NULL, ref_floor(r, edges[d]))) return 0;
        }
    }
    return 1;
}

/* --- the maps ------------------------------------------------------------ */

TEST(insert_cuts_what_it_overlaps) {
    pd_state st;
    pd_maps *m;
    pd_map_entry e;
    const pd_map_entry *x;
    pd_state_init(&st);
    m = maps_new(&st, NULL);
    memset(&e, 0, sizeof e);
    e.name = pd_state_intern(&st, "/old", 4);
    e.start = 0x1000; e.end = 0x9000; e.pgoff = 0x100;
    maps_insert(&st, m, &e);
    /* a map inside another: the part below keeps its pgoff, the part above moves it */
    e.name = pd_state_intern(&st, "/new", 4);
    e.start = 0x3000; e.end = 0x4000; e.pgoff = 0x7000;
    maps_insert(&st, m, &e);
    CHECK_EQ_U64(pd_maps_count(m), 3);
    x = pd_maps_at(m, 0);
    if (CHECK(x)) { CHECK_EQ_U64(x->start, 0x1000); CHECK_EQ_U64(x->end, 0x3000); CHECK_EQ_U64(x->pgoff, 0x100); }
    x = pd_maps_at(m, 1);
    if (CHECK(x)) { CHECK_EQ_U64(x->start, 0x3000); CHECK_EQ_U64(x->end, 0x4000); CHECK_EQ_U64(x->pgoff, 0x7000); }
    x = pd_maps_at(m, 2);
    if (CHECK(x)) {
        CHECK_EQ_U64(x->start, 0x4000); CHECK_EQ_U64(x->end, 0x9000); CHECK_EQ_U64(x->pgoff, 0x100 + 0x3000);
        CHECK(!strcmp(x->name, "/old"));
    }
    /* one over the end of the first piece and the start of the last: both cut back */
    e.start = 0x2000; e.end = 0x5000; e.pgoff = 0;
    maps_insert(&st, m, &e);
    CHECK_EQ_U64(pd_maps_count(m), 3);
    x = pd_maps_at(m, 0);
    if (CHECK(x)) { CHECK_EQ_U64(x->end, 0x2000); CHECK_EQ_U64(x->pgoff, 0x100); }
    x = pd_maps_at(m, 2);
    if (CHECK(x)) { CHECK_EQ_U64(x->start, 0x5000); CHECK_EQ_U64(x->pgoff, 0x100 + 0x4000); }
    /* one over everything */
    e.start = 0; e.end = 0x10000;
    maps_insert(&st, m, &e);
    CHECK_EQ_U64(pd_maps_count(m), 1);
    CHECK(maps_find(m, 0xffff) == pd_maps_at(m, 0));
    CHECK(maps_find(m, 0x10000) == NULL);
    maps_put(m);
    pd_state_free(&st);
}

TEST(insert_matches_a_sorted_array) {
    int round;
    for (round = 0; round < 60; round++) {
        pd_state st;
        pd_maps *m;
        ref_maps r = {NULL, 0, 0};
        int i, ok = 1;
        rng_state = 1000 + (uint64_t)round;
        pd_state_init(&st);
        m = maps_new(&st, NULL);
        for (i = 0; i < 200 && ok; i++) {
            pd_map_entry e;
            random_entry(&st, &e);
            maps_insert(&st, m, &e);
            ref_insert(&r, &e);
            ok = same_maps(m, &r) && check_tree(m->root, NULL, NULL) >= 0 && same_lookups(m, &r);
        }
        if (!CHECK(ok)) fprintf(stderr, "  round %d, insert %d\n", round, i);
        maps_put(m);
        free(r.v);
        pd_state_free(&st);
    }
}

/* Addresses in order (or reversed) do not make the tree a list. */
TEST(depth_stays_logarithmic) {
    int order;
    for (order = 0; order < 3; order++) {
        pd_state st;
        pd_maps *m;
        pd_map_entry e;
        uint64_t i, n = (uint64_t)1 << 16;
        int depth;
        pd_state_init(&st);
        m = maps_new(&st, NULL);
        memset(&e, 0, sizeof e);
        e.name = pd_state_intern(&st, "/x", 2);
        for (i = 0; i < n; i++) {
            uint64_t k = order == 0 ? i : order == 1 ? n - 1 - i : (i & 1 ? i : n - i);
            e.start = k << 17;
            e.end = e.start + 0x1000;
            maps_insert(&st, m, &e);
        }
        depth = check_tree(m->root, NULL, NULL);
        CHECK(depth > 0 && depth <= 100);
        CHECK(pd_maps_count(m) >= n / 2);
        /* a file of empty maps at the top: equal starts, still a tree */
        for (i = 0; i < n; i++) {
            e.start = e.end = UINT64_MAX;
            maps_insert(&st, m, &e);
        }
        depth = check_tree(m->root, NULL, NULL);
        CHECK(depth > 0 && depth <= 100);
        maps_put(m);
        pd_state_free(&st);
    }
}

/* The nodes reachable from the roots, each once (a pointer set). */
typedef struct node_set { const pd_map_node **v; size_t cap, n; } node_set;

static void set_add(node_set *s, const pd_map_node *t) {
    while (t) {
        size_t i = (size_t)pd_hash_u64((uintptr_t)t) & (s->cap - 1);
        while (s->v[i] && s->v[i] != t) i = (i + 1) & (s->cap - 1);
        if (s->v[i]) return; /* seen: so is its subtree */
        if (++s->n * 2 > s->cap) abort(); /* sized by the caller */
        s->v[i] = t;
        set_add(s, t->left);
        t = t->right;
    }
}

TEST(fork_shares_and_children_change_alone) {
    enum { M = 1000, C = 40 };
    pd_state st;
    pd_maps *parent, *child[C];
    ref_maps pref = {NULL, 0, 0}, cref[C];
    pd_map_entry e;
    int i, j, ok = 1;
    node_set set;
    rng_state = 42;
    pd_state_init(&st);
    parent = maps_new(&st, NULL);
    memset(&e, 0, sizeof e);
    for (i = 0; i < M; i++) { /* disjoint maps, inserted in a random order */
        e.start = ((uint64_t)(i * 7919 % M) << 16) + 0x1000;
        e.end = e.start + 0x8000;
        e.pgoff = (uint64_t)i;
        e.name = pd_state_intern(&st, "/lib/p.so", 9);
        maps_insert(&st, parent, &e);
        ref_insert(&pref, &e);
    }
    CHECK(same_maps(parent, &pref));
    for (i = 0; i < C; i++) {
        memset(&cref[i], 0, sizeof cref[i]);
        child[i] = maps_fork(&st, parent);
        ref_copy(&cref[i], &pref);
        CHECK(child[i]->root == parent->root); /* shared, not copied */
        CHECK(child[i]->gen != parent->gen);
    }
    CHECK_EQ_U64(parent->root->refs, C + 1);
    /* each child maps over its own ranges, overlapping the parent's maps */
    for (i = 0; i < C; i++)
        for (j = 0; j < 1 + i % 3; j++) {
            uint64_t gen = parent->gen;
            random_entry(&st, &e);
            e.start = (below(M) << 16) + below(0x10000);
            e.end = e.start + 0x1000 + below(0x40000);
            maps_insert(&st, child[i], &e);
            ref_insert(&cref[i], &e);
            CHECK(parent->gen == gen);
        }
    CHECK(same_maps(parent, &pref));
    CHECK(same_lookups(parent, &pref));
    for (i = 0; i < C; i++) {
        ok &= same_maps(child[i], &cref[i]) && same_lookups(child[i], &cref[i]);
        ok &= check_tree(child[i]->root, NULL, NULL) > 0;
    }
    CHECK(ok);
    /* the children copied only their paths: far fewer nodes than C copies */
    set.cap = (size_t)1 << 20;
    set.n = 0;
    set.v = (const pd_map_node **)calloc(set.cap, sizeof *set.v);
    if (!set.v) abort();
    set_add(&set, parent->root);
    for (i = 0; i < C; i++) set_add(&set, child[i]->root);
    CHECK(set.n >= pd_maps_count(parent));
    CHECK(set.n <= pd_maps_count(parent) + (size_t)C * 3 * 200);
    free((void *)set.v);
    /* gone, the children leave the parent's nodes with one reference each */
    for (i = 0; i < C; i++) {
        maps_put(child[i]);
        free(cref[i].v);
    }
    {
        node_set all;
        size_t k;
        all.cap = (size_t)1 << 14;
        all.n = 0;
        all.v = (const pd_map_node **)calloc(all.cap, sizeof *all.v);
        if (!all.v) abort();
        set_add(&all, parent->root);
        CHECK_EQ_U64(all.n, pd_maps_count(parent));
        for (k = 0, ok = 1; k < all.cap; k++)
            if (all.v[k] && all.v[k]->refs != 1) ok = 0;
        CHECK(ok);
        free((void *)all.v);
    }
    CHECK(same_maps(parent, &pref));
    maps_put(parent);
    free(pref.v);
    pd_state_free(&st);
}

/* The fork storm at the size of a 1 MB file: many maps, then a child per
   fork each mapping once. Copy-on-write of whole sets would be M x C. */
TEST(fork_storm_costs_paths) {
    enum { M = 10000, C = 10000 };
    pd_state st;
    pd_maps *parent, **child;
    pd_map_entry e;
    node_set set;
    int i;
    rng_state = 7;
    pd_state_init(&st);
    parent = maps_new(&st, NULL);
    memset(&e, 0, sizeof e);
    e.name = pd_state_intern(&st, "/lib/p.so", 9);
    for (i = 0; i < M; i++) {
        e.start = (uint64_t)i << 16;
        e.end = e.start + 0x8000;
        maps_insert(&st, parent, &e);
    }
    child = (pd_maps **)calloc(C, sizeof *child);
    if (!child) abort();
    for (i = 0; i < C; i++) {
        child[i] = maps_fork(&st, parent);
        e.start = (below(M) << 16) + 0x4000; /* over the end of one map */
        e.end = e.start + 0x8000;
        maps_insert(&st, child[i], &e);
    }
    set.cap = (size_t)1 << 22;
    set.n = 0;
    set.v = (const pd_map_node **)calloc(set.cap, sizeof *set.v);
    if (!set.v) abort();
    set_add(&set, parent->root);
    for (i = 0; i < C; i++) set_add(&set, child[i]->root);
    printf("fork storm: %d maps, %d children with one map each: %lu nodes (%.1f per child)\n", M, C,
           (unsigned long)set.n, (double)(set.n - M) / C);
    CHECK(set.n <= (size_t)M + (size_t)C * 200);
    free((void *)set.v);
    for (i = 0; i < C; i++) maps_put(child[i]);
    free(child);
    maps_put(parent);
    pd_state_free(&st);
}

TEST(threads_share_process_maps) {
    pd_state st;
    pd_thread *leader, *thread;
    pd_map_entry e;
    uint64_t stamp[2], stamp2[2];
    pd_state_init(&st);
    leader = pd_state_thread(&st, 10, 10);
    thread = pd_state_thread(&st, 10, 11);
    CHECK(leader->maps == thread->maps);
    memset(&e, 0, sizeof e);
    e.name = pd_state_intern(&st, "/bin/x", 6);
    e.start = 0x400000; e.end = 0x401000;
    pd_state_stamp(&st, thread, PERFDATA_MISC_USER, stamp);
    maps_insert(&st, leader->maps, &e);
    pd_state_stamp(&st, thread, PERFDATA_MISC_USER, stamp2);
    CHECK(stamp[0] != stamp2[0]); /* the map changed: a cache keyed on the stamp looks again */
    CHECK(pd_state_find_map(&st, thread, PERFDATA_MISC_USER, 0x400800) != NULL);
    CHECK(pd_state_find_map(&st, thread, PERFDATA_MISC_KERNEL, 0x400800) == NULL);
    pd_state_stamp(&st, thread, PERFDATA_MISC_KERNEL, stamp);
    CHECK_EQ_U64(stamp[0], 0);
    CHECK_EQ_U64(stamp[1], st.kernel.gen);
    pd_state_free(&st);
}

/* Threads that come and go: the table holds the live ones and the last
   PD_STATE_EXITED_KEPT exited (whole, maps and comm, for their late
   samples); an older exited thread goes with its maps, unless born again
   under its tid; its last-comm cell stays, with its last command. */
TEST(exited_threads_go_after_a_window) {
    pd_state st;
    pd_thread *t;
    pd_map_entry e;
    int32_t tid, i;
    const int32_t n = 50 * PD_STATE_EXITED_KEPT;
    pd_state_init(&st);
    memset(&e, 0, sizeof e);
    e.name = pd_state_intern(&st, "/bin/x", 6);
    e.start = 0x400000; e.end = 0x401000;
    t = pd_state_thread(&st, 5, 5); /* long-lived, never exits */
    const pd_comm *last;
    pd_state_thread(&st, 7, 7);
    last = pd_state_last_comm(&st, pd_state_thread(&st, 7, 7));
    CHECK(!strcmp(last->str, ":7"));
    set_comm(pd_state_thread(&st, 7, 7), pd_state_intern(&st, "first", 5));
    set_comm(pd_state_thread(&st, 7, 7), pd_state_intern(&st, "second", 6));
    thread_exited(&st, 7);
    for (tid = 100; tid < 100 + n; tid++) {
        t = pd_state_thread(&st, tid, tid);
        maps_insert(&st, t->maps, &e);
        t->comm = pd_state_intern(&st, "short", 5);
        thread_exited(&st, tid);
        /* just after its EXIT a thread is whole: its late samples resolve */
        t = pd_state_thread(&st, tid, tid);
        if (!CHECK(t->comm && !strcmp(t->comm, "short") && pd_state_find_map(&st, t, PERFDATA_MISC_USER, 0x400800)))
            break;
        if (tid % 1000 == 0 && !CHECK(st.nthreads <= PD_STATE_EXITED_KEPT + 3)) break;
    }
    CHECK(st.nthreads <= PD_STATE_EXITED_KEPT + 3);
    CHECK(st.cap <= 8 * PD_STATE_EXITED_KEPT); /* the table did not grow with every thread seen */
    /* the last PD_STATE_EXITED_KEPT are still there, the one before is not */
    CHECK(find_thread(&st, 100 + n - PD_STATE_EXITED_KEPT) != NULL);
    CHECK(find_thread(&st, 100 + n - PD_STATE_EXITED_KEPT - 1) == NULL);
    CHECK(find_thread(&st, 5) != NULL);
    CHECK(find_thread(&st, 7) == NULL);
    CHECK(!strcmp(last->str, "second")); /* the cell outlives the thread */
    /* every thread left is still found where a lookup starts (no hole the
       removals left breaks a probe run) */
    for (i = 0; i < (int32_t)st.cap; i++)
        if (st.threads[i].used && !CHECK(find_thread(&st, st.threads[i].tid) == &st.threads[i])) break;
    pd_state_free(&st);
    /* a tid born again after its EXIT is a new thread: the old one's turn
       to go does not take it */
    pd_state_init(&st);
    pd_state_thread(&st, 42, 42);
    thread_exited(&st, 42);
    t = pd_state_thread(&st, 42, 42);
    t->exited = 0; /* what a FORK of tid 42 does */
    t->serial = ++st.serials;
    for (tid = 1000; tid < 1000 + 2 * PD_STATE_EXITED_KEPT; tid++) {
        pd_state_thread(&st, tid, tid);
        thread_exited(&st, tid);
    }
    CHECK(find_thread(&st, 42) != NULL);
    /* keep_exited keeps them all */
    pd_state_free(&st);
    pd_state_init(&st);
    st.keep_exited = 1;
    for (tid = 1000; tid < 1000 + 2 * PD_STATE_EXITED_KEPT; tid++) {
        pd_state_thread(&st, tid, tid);
        thread_exited(&st, tid);
    }
    CHECK_EQ_U64(st.nthreads, 2 * PD_STATE_EXITED_KEPT);
    pd_state_free(&st);
}

/* --- kernel symbols -------------------------------------------------------- */

typedef struct ref_ksym { uint64_t addr, len; } ref_ksym;

TEST(ksyms_first_recorded_wins) {
    int round;
    for (round = 0; round < 30; round++) {
        pd_state st;
        ref_ksym ref[200];
        size_t nref = 0, i;
        int k, ok = 1;
        uint64_t ip;
        rng_state = 5000 + (uint64_t)round;
        pd_state_init(&st);
        for (k = 0; k < 200 && ok; k++) {
            uint64_t addr = below(400), len = below(4) ? below(40) : 0;
            char name[16];
            if (below(20) == 0) { addr = UINT64_MAX - below(10); len = below(20); } /* at the top, wrapping */
            snprintf(name, sizeof name, "k%d", k);
            ksym_add(&st, addr, len, name, strlen(name));
            if (addr + len > addr) { ref[nref].addr = addr; ref[nref].len = len; nref++; }
            for (ip = 0; ip < 460 && ok; ip++) {
                const pd_state_ksym *got = pd_state_find_ksym(&st, ip);
                for (i = 0; i < nref; i++)
                    if (ref[i].addr <= ip && ip < ref[i].addr + ref[i].len) break;
                ok = i == nref ? got == NULL : got != NULL && got->addr == ref[i].addr && got->len == ref[i].len &&
                                                   got == &st.ksyms[i];
            }
            ok = ok && check_tree(st.ksym_owner, NULL, NULL) >= 0 && check_tree(st.ksym_union, NULL, NULL) >= 0;
        }
        if (!CHECK(ok)) fprintf(stderr, "  round %d, ksym %d, ip %llu\n", round, k, (unsigned long long)ip);
        pd_state_free(&st);
    }
}

/* Nested and repeated ranges: the owners and runs stay O(n). */
TEST(ksyms_stay_linear) {
    pd_state st;
    size_t i, n = 20000;
    int depth;
    pd_state_init(&st);
    for (i = 0; i < n / 2; i++) ksym_add(&st, 0x10000 + 16 * i, 8, "small", 5); /* n/2 small ones with gaps */
    for (i = 0; i < n / 2; i++) ksym_add(&st, 0x10000 - i, 16 * n, "big", 3);  /* each over all of them */
    CHECK(size_of(st.ksym_owner) <= 2 * n);
    CHECK(size_of(st.ksym_union) == 1);
    depth = check_tree(st.ksym_owner, NULL, NULL);
    CHECK(depth > 0 && depth <= 100);
    CHECK(pd_state_find_ksym(&st, 0x10000 + 16 * 5 + 3) == &st.ksyms[5]);
    CHECK(pd_state_find_ksym(&st, 0x10000 + 16 * 5 + 9) == &st.ksyms[n / 2]); /* the first big one fills the gaps */
    CHECK(pd_state_find_ksym(&st, 0x10000 - 3) == &st.ksyms[n / 2 + 3]);
    pd_state_free(&st);
}

/* --- the hashes ------------------------------------------------------------ */

/* The longest run a key is from its home slot, as the thread table probes. */
static size_t max_displacement(const pd_state *st) {
    size_t i, worst = 0;
    for (i = 0; i < st->cap; i++) {
        size_t home, d;
        if (!st->threads[i].used) continue;
        home = slot_of(st->threads[i].tid, st->cap);
        d = (i - home) & (st->cap - 1);
        if (d > worst) worst = d;
    }
    return worst;
}

TEST(thread_table_spreads_crafted_tids) {
    static const int shifts[] = {0, 10, 17, 20};
    size_t s;
    for (s = 0; s < sizeof shifts / sizeof shifts[0]; s++) {
        pd_state st;
        int32_t k, n = 1 << 15;
        int ok = 1;
        pd_state_init(&st);
        for (k = 0; k < n; k++) pd_state_thread(&st, (int32_t)((uint32_t)k << shifts[s] >> 1), (int32_t)((uint32_t)k << shifts[s]));
        for (k = 0; k < n && ok; k++) {
            pd_thread *t = find_thread(&st, (int32_t)((uint32_t)k << shifts[s]));
            ok = t && t->tid == (int32_t)((uint32_t)k << shifts[s]);
        }
        CHECK(ok);
        CHECK_EQ_U64(st.nthreads, shifts[s] >= 17 ? (size_t)1 << (32 - shifts[s]) : (size_t)n);
        if (!CHECK(max_displacement(&st) < 64)) fprintf(stderr, "  tids k << %d\n", shifts[s]);
        pd_state_free(&st);
    }
}

/* Keys that differ only in bits a multiplicative hash drops (above 45)
   still fill the buckets evenly. */
TEST(u64_hash_uses_every_bit) {
    enum { N = 4096, B = 1024 };
    static unsigned counts[B];
    int shift, i;
    for (shift = 0; shift <= 52; shift += 4) { /* 4096 distinct keys */
        unsigned worst = 0;
        memset(counts, 0, sizeof counts);
        for (i = 0; i < N; i++) counts[pd_hash_u64((uint64_t)i << shift) & (B - 1)]++;
        for (i = 0; i < B; i++) if (counts[i] > worst) worst = counts[i];
        if (!CHECK(worst <= 24)) fprintf(stderr, "  keys i << %d: a bucket of %u\n", shift, worst);
    }
    for (i = 0; i < 64; i++) { /* each bit alone moves the bucket */
        uint64_t base = 0x123456789abcdefull;
        CHECK((pd_hash_u64(base) & (B - 1)) != (pd_hash_u64(base ^ ((uint64_t)1 << i)) & (B - 1)) ||
              (pd_hash_u64(base) >> 10) != (pd_hash_u64(base ^ ((uint64_t)1 << i)) >> 10));
    }
}

TEST(bytes_hash_uses_every_byte) {
    enum { B = 1024 };
    static unsigned char seen[B];
    char text[40];
    size_t pos, distinct;
    int v;
    for (pos = 0; pos < sizeof text; pos += 3) {
        memset(seen, 0, sizeof seen);
        distinct = 0;
        for (v = 0; v < 256; v++) {
            size_t b;
            memset(text, 'a', sizeof text);
            text[pos] = (char)v;
            b = (size_t)pd_hash_bytes(text, sizeof text) & (B - 1);
            distinct += !seen[b];
            seen[b] = 1;
        }
        /* 256 keys in 1024 buckets: about 226 distinct when spread */
        if (!CHECK(distinct >= 180)) fprintf(stderr, "  byte %lu: %lu buckets\n", (unsigned long)pos, (unsigned long)distinct);
    }
    CHECK(pd_hash_bytes("", 0) != pd_hash_bytes("\0", 1)); /* the length counts */
}

TEST(intern_is_exact) {
    pd_intern t;
    const char *a, *b, *c;
    char buf[32];
    int i, ok = 1;
    memset(&t, 0, sizeof t);
    a = pd_intern_str(&t, "libc.so.6");
    b = pd_intern_n(&t, "libc.so.6\0junk", 14); /* stops at the NUL */
    c = pd_intern_n(&t, "libc.so", 7);
    CHECK(a == b);
    CHECK(a != c && !strcmp(c, "libc.so"));
    for (i = 0; i < 20000; i++) { /* grown many times: still one copy each */
        snprintf(buf, sizeof buf, "name%d", i);
        ok &= pd_intern_str(&t, buf) == pd_intern_str(&t, buf);
    }
    CHECK(ok);
    CHECK(pd_intern_str(&t, "libc.so.6") == a);
    CHECK_EQ_U64(t.n, 20002);
    pd_intern_free(&t);
}

int main(int argc, char **argv) {
    test_filter(argc, argv);
    RUN_TEST(insert_cuts_what_it_overlaps);
    RUN_TEST(insert_matches_a_sorted_array);
    RUN_TEST(depth_stays_logarithmic);
    RUN_TEST(fork_shares_and_children_change_alone);
    RUN_TEST(fork_storm_costs_paths);
    RUN_TEST(threads_share_process_maps);
    RUN_TEST(exited_threads_go_after_a_window);
    RUN_TEST(ksyms_first_recorded_wins);
    RUN_TEST(ksyms_stay_linear);
    RUN_TEST(thread_table_spreads_crafted_tids);
    RUN_TEST(u64_hash_uses_every_bit);
    RUN_TEST(bytes_hash_uses_every_byte);
    RUN_TEST(intern_is_exact);
    return test_report();
}
