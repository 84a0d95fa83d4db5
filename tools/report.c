/* report.c - `perfdata report`: the flat profile of `perf report --stdio`
   (overhead by period, per event, sorted by --sort keys: comm, pid, dso,
   sym), built from the records in perf's delivery order with the process
   state of pd_state and the symbols of pd_sym. */
#include "perfdata.h"
#include "pd_filter.h"
#include "pd_opts.h"
#include "pd_state.h"
#include "pd_sym.h"
#include "pd_text.h"
#include "pd_tool.h"
#include "report_branch.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { KEY_COMM, KEY_PID, KEY_DSO, KEY_SYM, KEY_SRCLINE, KEY_MAX };

#define NIL ((size_t)-1)
#define PD_GROUP_VIEW_MAX 32            /* members of a group shown as one table */
/* processes.csv's maps column, all processes together: processes share
   their maps (a fork costs no copy), so the column could otherwise grow
   as processes x maps from a small file */
#define PD_CSV_MAPS_MIB 64

/* One row: perf's hist_entry. Rows live in perf's trees, rebuilt here node
   for node (see add), so that they group and order as perf's do even where
   perf's comparison is not a consistent order (an unresolved symbol against
   a resolved one). Names are interned: equal names are one pointer. */
typedef struct entry {
    long event;
    const char *comm;               /* the command at the sample (for the filters) */
    const pd_comm *cell;            /* the command as perf shows it: renamed by a thread's
                                       first COMM (perf's comm__override) */
    const pd_comm *last;            /* its first sample's thread's command, to the last */
    int32_t pid, tid;
    const char *dso;
    int mapped;                     /* the address had a map (perf's he->ms.map) */
    const char *sym;                /* NULL: unresolved, then addr */
    const char *src_file;           /* STT_FILE of a local symbol, or NULL */
    uint64_t sym_start, sym_end;
    uint64_t addr;                  /* the address in the object (perf's he->ip): printed
                                       and compared when unresolved */
    char level;                     /* perf's [k], [.], ... */
    const char *srcline;            /* --sort srcline: perf's text (interned) */
    size_t dso_index;               /* the object (pd_resolved's), for results.csv's source */
    uint64_t period, samples;
    uint64_t acc;                   /* --children: the period of the samples it is in the call chain
                                       of, its own included (perf's stat_acc) */
    int hidden;                     /* by --comm, --pid, --tid, --dso, --sym: its first sample's */
    size_t left, right, parent;     /* the red-black tree node */
    int red, merged;
    size_t seq;                     /* its place in the tree, for the final stable sort */
    size_t *pairs;                  /* a group leader's row: its members' rows (NIL: none) */
    int paired;                     /* a member's row that a leader's row took */
} entry;

typedef struct report_ctx {
    pd_session *s;
    pd_state st;
    pd_symbolizer sym;
    int keys[KEY_MAX], nkeys;
    int want_srcline;               /* a key is srcline */
    entry *v;                       /* every row, in the order they were made */
    size_t n, capv;
    struct add_slot *recent;        /* rows found lately, by a hash of their keys (add) */
    size_t *root;                   /* per event: perf's hists->entries_in tree */
    uint64_t *ev_period, *ev_samples, lost_samples;
    size_t nev;
    int show_samples;
    int children;                   /* --children, where perf keeps it: call chains, not a pipe */
    entry *chain;                   /* --children: one sample's rows so far (perf's he_cache) */
    uint64_t not_unwound;           /* --children: samples with a user stack dump of an architecture not unwound */
    const char *csv_dir;
    FILE *overview;                 /* --csv: every record in time order */
    uint64_t overview_nr;           /* its rows so far */
    uint64_t type_count[128], type_bytes[128];
    struct proc_row *procs;         /* --csv: one row per process, in the order first seen */
    size_t nprocs, capprocs;
    size_t *proc_slots;             /* index + 1 into procs, open addressing on the pid */
    size_t capproc_slots;
    pd_filter filter;
    pd_read_ids read_ids;           /* the last value read per counter id */
    /* event groups (GROUP_DESC), shown as perf's group view: one table per
       group, a column per member */
    long *leader;                   /* per event: its group's leader, or -1 */
    uint32_t *members;              /* per leader event: how many events the group has */
    char **group_name;              /* per leader event: the group's name, or NULL (anon) */
} report_ctx;


/* processes.csv: what happened to each process. */
typedef struct proc_row {
    int32_t pid, ppid;
    const char *comm;
    uint64_t fork_time, exit_time, samples, period;
    pd_thread *thread;
} proc_row;

/* perf 6.1's cmp_null: a missing value sorts first. */
static int64_t cmp_null(const void *l, const void *r) {
    if (!l && !r) return 0;
    return !l ? -1 : 1;
}

static int64_t dso_cmp(const entry *l, const entry *r) { /* sort__dso_cmp */
    if (!l->mapped || !r->mapped) return cmp_null(l->mapped ? l : NULL, r->mapped ? r : NULL);
    return l->dso == r->dso ? 0 : strcmp(r->dso, l->dso);
}

/* One key's se_cmp (and se_collapse) of perf's sort.c, as perf 6.1 has it:
   arguments as hists__findnew_entry passes them (the tree's node, then the
   new entry), the sign as perf computes it (u64 differences as s64). */
static int64_t key_cmp(int key, int has_dso, const entry *l, const entry *r) {
    int64_t c;
    switch (key) {
    case KEY_COMM: return l->cell->str == r->cell->str ? 0 : strcmp(r->cell->str, l->cell->str);
    case KEY_PID: return (int64_t)r->tid - (int64_t)l->tid;
    case KEY_DSO: return dso_cmp(l, r);
    case KEY_SRCLINE: return l->srcline == r->srcline ? 0 : strcmp(r->srcline, l->srcline);
    default: /* sort__sym_cmp */
        if (!l->sym && !r->sym) return (int64_t)(r->addr - l->addr);
        /* the object first unless it is a key of its own (a symbol's
           address is relative to its object) */
        if (!has_dso && (c = dso_cmp(l, r)) != 0) return c;
        if (!l->sym || !r->sym) return cmp_null(l->sym, r->sym);
        if (l->sym_start != r->sym_start) return (int64_t)(r->sym_start - l->sym_start);
        return (int64_t)(r->sym_end - l->sym_end);
    }
}

static int64_t entry_cmp(const report_ctx *r, const entry *a, const entry *b) {
    int k, has_dso = 0;
    int64_t c;
    for (k = 0; k < r->nkeys; k++) has_dso |= r->keys[k] == KEY_DSO;
    for (k = 0; k < r->nkeys; k++)
        if ((c = key_cmp(r->keys[k], has_dso, a, b)) != 0) return c;
    return 0;
}

static void rotate(entry *v, size_t *root, size_t x, int left) {
    size_t y = left ? v[x].right : v[x].left, inner = left ? v[y].left : v[y].right, p = v[x].parent;
    if (left) v[x].right = inner; else v[x].left = inner;
    if (inner != NIL) v[inner].parent = x;
    v[y].parent = p;
    if (p == NIL) *root = y;
    else if (v[p].left == x) v[p].left = y;
    else v[p].right = y;
    if (left) v[y].left = x; else v[y].right = x;
    v[x].parent = y;
}

/* The kernel's rb_insert_color (lib/rbtree.c), which perf's trees use:
   the shape, and so where later descents go, is the kernel's. */
static void insert_color(entry *v, size_t *root, size_t z) {
    while (v[z].parent != NIL && v[v[z].parent].red) {
        size_t p = v[z].parent, g = v[p].parent;
        int p_is_left = v[g].left == p;
        size_t u = p_is_left ? v[g].right : v[g].left;
        if (u != NIL && v[u].red) {
            v[p].red = v[u].red = 0;
            v[g].red = 1;
            z = g;
            continue;
        }
        if (z == (p_is_left ? v[p].right : v[p].left)) {
            z = p;
            rotate(v, root, z, p_is_left);
            p = v[z].parent;
        }
        v[p].red = 0;
        v[g].red = 1;
        rotate(v, root, g, !p_is_left);
    }
    v[*root].red = 0;
}

/* Links node i (a leaf below parent, on the side cmp chose) and rebalances. */
static void link_node(entry *v, size_t *root, size_t i, size_t parent, int64_t cmp) {
    v[i].left = v[i].right = NIL;
    v[i].parent = parent;
    v[i].red = 1;
    if (parent == NIL) *root = i;
    else if (cmp < 0) v[parent].left = i;
    else v[parent].right = i;
    insert_color(v, root, i);
}

/* Room for one more row. */
static void new_row(report_ctx *r) {
    if (r->n == r->capv) {
        r->capv = r->capv ? r->capv * 2 : 4096;
        r->v = realloc(r->v, r->capv * sizeof *r->v);
        if (!r->v) pd_nomem();
    }
}

/* A cache of the rows samples found: a sample of a row met lately skips
   the descent (one comparison instead of one per level, each a strcmp
   for comm and srcline keys). The tree is unchanged by a found row, so
   its shape, and perf's order, are the same. Only without the sym key:
   perf's sym comparison (an unresolved address against a symbol) is no
   order, so a tree can hold two rows equal to a sample, and which one
   the descent meets is perf's answer. */
#define ADD_RECENT 4096
struct add_slot { uint64_t h; size_t at; };

static uint64_t keys_hash(const report_ctx *r, const entry *e) {
    uint64_t h = (uint64_t)e->event * 0x9E3779B97F4A7C15ull;
    int k;
    for (k = 0; k < r->nkeys; k++) {
        uint64_t v;
        switch (r->keys[k]) {
        case KEY_COMM: v = (uintptr_t)e->cell->str; break;
        case KEY_PID: v = (uint64_t)(uint32_t)e->tid; break;
        case KEY_DSO: v = e->mapped ? (uintptr_t)e->dso : 0; break;
        case KEY_SRCLINE: v = (uintptr_t)e->srcline; break;
        default: v = e->sym ? ((e->mapped ? (uintptr_t)e->dso : 0) ^ e->sym_start * 31 ^ e->sym_end * 131) : e->addr;
        }
        h = (h ^ v) * 0xC4CEB9FE1A85EC53ull;
        h ^= h >> 29;
    }
    return h;
}

/* A sample: perf's hists__findnew_entry. The descent compares the node
   with the new entry; equal adds to the node, else the entry is a new
   node, left when the comparison is negative. */
static void add(report_ctx *r, const entry *e) {
    size_t *root = &r->root[e->event], at = *root, parent = NIL;
    int64_t cmp = 0;
    uint64_t h = keys_hash(r, e);
    struct add_slot *slot;
    int k, cached = 1;
    for (k = 0; k < r->nkeys; k++)
        if (r->keys[k] == KEY_SYM) cached = 0;
    if (!r->recent && !(r->recent = (struct add_slot *)calloc(ADD_RECENT, sizeof *r->recent))) pd_nomem();
    slot = &r->recent[cached ? h % ADD_RECENT : 0];
    if (cached && slot->h == h && slot->at < r->n && r->v[slot->at].event == e->event &&
        !entry_cmp(r, &r->v[slot->at], e)) {
        r->v[slot->at].period += e->period;
        r->v[slot->at].samples += e->samples;
        r->v[slot->at].acc += e->acc;
        return;
    }
    while (at != NIL) {
        parent = at;
        cmp = entry_cmp(r, &r->v[at], e);
        if (!cmp) {
            r->v[at].period += e->period;
            r->v[at].samples += e->samples;
            r->v[at].acc += e->acc;
            slot->h = h;
            slot->at = at;
            return;
        }
        at = cmp < 0 ? r->v[at].left : r->v[at].right;
    }
    slot->h = h;
    slot->at = r->n;
    new_row(r);
    r->v[r->n] = *e;
    r->v[r->n].merged = 0;
    /* the row keeps its first sample's thread, whose command it shows at the end */
    r->v[r->n].last = pd_state_last_comm(&r->st, pd_state_thread(&r->st, e->pid, e->tid));
    link_node(r->v, root, r->n, parent, cmp);
    r->n++;
}

/* The in-order sequence of a tree into out; returns how many. */
static size_t in_order(const entry *v, size_t root, size_t *out) {
    size_t n = 0, x = root;
    if (x == NIL) return 0;
    while (v[x].left != NIL) x = v[x].left;
    while (x != NIL) {
        out[n++] = x;
        if (v[x].right != NIL) {
            x = v[x].right;
            while (v[x].left != NIL) x = v[x].left;
        } else {
            size_t p = v[x].parent;
            while (p != NIL && v[p].right == x) { x = p; p = v[p].parent; }
            x = p;
        }
    }
    return n;
}

/* perf's hists__collapse_resort, when a key has a collapse function (comm):
   the rows, in the tree's order, go into a new tree, where equal ones
   merge; that tree is the event's from then on. */
static void collapse(report_ctx *r) {
    size_t ev, i, *order = malloc((r->n ? r->n : 1) * sizeof *order);
    int k, any = 0;
    if (!order) pd_nomem();
    for (k = 0; k < r->nkeys; k++) any |= r->keys[k] == KEY_COMM;
    for (ev = 0; any && ev < r->nev; ev++) {
        size_t n = in_order(r->v, r->root[ev], order), root = NIL;
        for (i = 0; i < n; i++) {
            size_t at = root, parent = NIL, x = order[i];
            int64_t cmp = 0;
            while (at != NIL) {
                parent = at;
                if (!(cmp = entry_cmp(r, &r->v[at], &r->v[x]))) break;
                at = cmp < 0 ? r->v[at].left : r->v[at].right;
            }
            if (at != NIL) {
                r->v[at].period += r->v[x].period;
                r->v[at].samples += r->v[x].samples;
                r->v[at].acc += r->v[x].acc;
                r->v[x].merged = 1;
                continue;
            }
            link_node(r->v, &root, x, parent, cmp);
        }
        r->root[ev] = root;
    }
    free(order);
}

static size_t *pairs_of(report_ctx *r, size_t x, uint32_t nr) {
    size_t i;
    if (!r->v[x].pairs) {
        if (!(r->v[x].pairs = malloc(nr * sizeof *r->v[x].pairs))) pd_nomem();
        for (i = 0; i < nr; i++) r->v[x].pairs[i] = NIL;
    }
    return r->v[x].pairs;
}

/* perf's group view (report__collapse_hists): each member's rows are
   matched to the leader's (hists__match: the leader's rows, in order, find
   their equal in the member's tree), and a member's row no leader's row
   took gets a leader's row of its own with no period (hists__link: a
   dummy entry, inserted in the leader's tree). */
static void link_groups(report_ctx *r) {
    size_t ev, m, i;
    for (ev = 0; ev < r->nev; ev++) {
        uint32_t nr = r->members[ev];
        if (nr < 2 || r->leader[ev] != (long)ev) continue;
        for (m = 1; m < nr && ev + m < r->nev; m++) {
            /* room for every row, the leader's dummies to come included */
            size_t n, *order = malloc((r->n + 1) * 2 * sizeof *order);
            if (!order) pd_nomem();
            n = in_order(r->v, r->root[ev], order);
            for (i = 0; i < n; i++) { /* hists__match */
                size_t at = r->root[ev + m];
                while (at != NIL) {
                    int64_t cmp = entry_cmp(r, &r->v[at], &r->v[order[i]]);
                    if (!cmp) break;
                    at = cmp < 0 ? r->v[at].left : r->v[at].right;
                }
                if (at != NIL) {
                    pairs_of(r, order[i], nr)[m] = at;
                    r->v[at].paired = 1;
                }
            }
            n = in_order(r->v, r->root[ev + m], order);
            for (i = 0; i < n; i++) { /* hists__link */
                size_t at = r->root[ev], parent = NIL, y = order[i];
                int64_t cmp = 0;
                if (r->v[y].paired) continue;
                while (at != NIL) {
                    parent = at;
                    if (!(cmp = entry_cmp(r, &r->v[at], &r->v[y]))) break;
                    at = cmp < 0 ? r->v[at].left : r->v[at].right;
                }
                if (at == NIL) {
                    new_row(r);
                    at = r->n++;
                    r->v[at] = r->v[y];
                    r->v[at].event = (long)ev;
                    r->v[at].period = r->v[at].samples = 0;
                    r->v[at].pairs = NULL;
                    r->v[at].paired = 0;
                    link_node(r->v, &r->root[ev], at, parent, cmp);
                }
                pairs_of(r, at, nr)[m] = y;
                r->v[y].paired = 1;
            }
            free(order);
        }
    }
}

/* Each row's seq: its place in the tree perf prints from. */
static void number(report_ctx *r) {
    size_t ev, i, seq = 0, *order = malloc((r->n ? r->n : 1) * sizeof *order);
    if (!order) pd_nomem();
    for (ev = 0; ev < r->nev; ev++) {
        size_t n = in_order(r->v, r->root[ev], order);
        for (i = 0; i < n; i++) r->v[order[i]].seq = seq++;
    }
    free(order);
}

static size_t proc_slot(const report_ctx *r, int32_t pid) {
    size_t mask = r->capproc_slots - 1, i = (size_t)pd_hash_u64((uint32_t)pid) & mask;
    while (r->proc_slots[i] && r->procs[r->proc_slots[i] - 1].pid != pid) i = (i + 1) & mask;
    return i;
}

static proc_row *proc_of(report_ctx *r, int32_t pid) {
    size_t i;
    if (r->capproc_slots) {
        i = proc_slot(r, pid);
        if (r->proc_slots[i]) return &r->procs[r->proc_slots[i] - 1];
    }
    if (r->nprocs == r->capprocs) {
        r->capprocs = r->capprocs ? r->capprocs * 2 : 64;
        r->procs = realloc(r->procs, r->capprocs * sizeof *r->procs);
        if (!r->procs) pd_nomem();
    }
    if ((r->nprocs + 1) * 2 > r->capproc_slots) {
        r->capproc_slots = r->capproc_slots ? r->capproc_slots * 2 : 128;
        free(r->proc_slots);
        if (!(r->proc_slots = calloc(r->capproc_slots, sizeof *r->proc_slots))) pd_nomem();
        for (i = 0; i < r->nprocs; i++) r->proc_slots[proc_slot(r, r->procs[i].pid)] = i + 1;
    }
    r->proc_slots[proc_slot(r, pid)] = r->nprocs + 1;
    memset(&r->procs[r->nprocs], 0, sizeof *r->procs);
    r->procs[r->nprocs].pid = pid;
    r->procs[r->nprocs].ppid = -1;
    return &r->procs[r->nprocs++];
}

/* overview.csv's info column (readperf's): what the record says, by kind:
   a map's address, size, offset and file; a command's name; a fork's or
   exit's parent; a sample's address and period. One CSV cell. */
static void overview_info(report_ctx *r, const perfdata_record *rec) {
    char buf[PD_TEXT_CELL_MAX + 128], name[PD_TEXT_CELL_MAX + 1];
    const perfdata_file *f = r->s->file;
    size_t n;
    buf[0] = 0;
    switch (rec->type) {
    case PERFDATA_RECORD_MMAP:
    case PERFDATA_RECORD_MMAP2: {
        perfdata_mmap m;
        if (perfdata_decode_mmap(f, rec, &m, NULL) != PERFDATA_OK) break;
        n = m.filename.n < sizeof name ? m.filename.n : sizeof name - 1;
        memcpy(name, m.filename.p, n);
        name[n] = 0;
        snprintf(buf, sizeof buf, "addr=0x%llx len=0x%llx pgoff=0x%llx file=%s", (unsigned long long)m.addr,
                 (unsigned long long)m.len, (unsigned long long)m.pgoff, name);
        break;
    }
    case PERFDATA_RECORD_COMM: {
        perfdata_comm c;
        if (perfdata_decode_comm(f, rec, &c, NULL) != PERFDATA_OK) break;
        n = c.comm.n < sizeof name ? c.comm.n : sizeof name - 1;
        memcpy(name, c.comm.p, n);
        name[n] = 0;
        snprintf(buf, sizeof buf, "%scomm=%s", c.exec ? "exec " : "", name);
        break;
    }
    case PERFDATA_RECORD_FORK:
    case PERFDATA_RECORD_EXIT: {
        perfdata_task k;
        if (perfdata_decode_task(f, rec, &k, NULL) != PERFDATA_OK) break;
        snprintf(buf, sizeof buf, "ppid=%d ptid=%d", (int)k.ppid, (int)k.ptid);
        break;
    }
    case PERFDATA_RECORD_SAMPLE: {
        perfdata_sample s;
        if (perfdata_decode_sample(f, rec, &s, NULL) != PERFDATA_OK) break;
        snprintf(buf, sizeof buf, "ip=0x%llx period=%llu", (unsigned long long)s.ip, (unsigned long long)s.period);
        break;
    }
    default: break;
    }
    /* a name from the file comes last (up to a NUL): whatever it holds, it
       cannot pass for another key */
    pd_put_csv(r->overview, buf);
}

/* --csv bookkeeping: record counts, the overview row, process events. */
static void csv_record(report_ctx *r, const perfdata_record *rec) {
    perfdata_sample_id sid;
    uint64_t time = perfdata_record_time(r->s->file, rec);
    int32_t pid = -1, tid = -1;
    uint32_t cpu = (uint32_t)-1;
    if (rec->type < 128) { r->type_count[rec->type]++; r->type_bytes[rec->type] += rec->size + rec->extra.n; }
    if (rec->type == PERFDATA_RECORD_SAMPLE) {
        perfdata_sample s;
        if (perfdata_decode_sample(r->s->file, rec, &s, NULL) == PERFDATA_OK) {
            pid = (int32_t)s.pid; tid = (int32_t)s.tid;
            if (s.sample_type & PERFDATA_SAMPLE_CPU) cpu = s.cpu;
        }
    } else if (rec->type < 64 && perfdata_decode_sample_id(r->s->file, rec, &sid, NULL) == PERFDATA_OK &&
               (sid.sample_type & PERFDATA_SAMPLE_TID)) {
        pid = (int32_t)sid.pid; tid = (int32_t)sid.tid;
        if (sid.sample_type & PERFDATA_SAMPLE_CPU) cpu = sid.cpu;
    }
    if (rec->type == PERFDATA_RECORD_FORK || rec->type == PERFDATA_RECORD_EXIT) {
        perfdata_task k;
        if (perfdata_decode_task(r->s->file, rec, &k, NULL) == PERFDATA_OK && k.pid == k.tid) {
            proc_row *p = proc_of(r, (int32_t)k.pid);
            if (rec->type == PERFDATA_RECORD_FORK) { p->fork_time = k.time; p->ppid = (int32_t)k.ppid; }
            else p->exit_time = k.time;
        }
    }
    fprintf(r->overview, "%llu,%llu,%llu,%u,%s,%d,%d,%d,", (unsigned long long)++r->overview_nr,
            (unsigned long long)time, (unsigned long long)rec->offset, rec->type, perfdata_record_name(rec->type),
            (int)pid, (int)tid, (int)cpu);
    overview_info(r, rec);
    fputc('\n', r->overview);
}

/* GROUP_DESC (a file's feature, a pipe's HEADER_FEATURE): which events
   form groups. perf shows a group in one table when it has more than one
   member; its name is GROUP_DESC's unless that says "{anon_group}". */
static void add_groups(report_ctx *r, perfdata_view sec, int big) {
    perfdata_feat_list l;
    perfdata_group_desc g;
    size_t st = 0, m;
    if (perfdata_decode_feat_group_desc(sec, big, &l, NULL) != PERFDATA_OK) return;
    while (perfdata_group_desc_next(&l, &st, &g)) {
        if (g.nr_members < 2 || g.leader_idx >= r->nev || g.nr_members > r->nev - g.leader_idx) continue;
        if (g.nr_members > PD_GROUP_VIEW_MAX) {
            /* a row keeps a slot per member: the view is bounded so that a
               file's group cannot ask for memory of rows x members */
            fprintf(stderr, "perfdata report: a group of %u events is reported event by event (the group view "
                            "takes at most %d)\n", g.nr_members, PD_GROUP_VIEW_MAX);
            continue;
        }
        if (r->members[g.leader_idx] != g.nr_members || r->leader[g.leader_idx] != (long)g.leader_idx) {
            /* a row links into one group only: a group that shares an event
               with an earlier one (perf refuses such a GROUP_DESC) is reported
               event by event, so that the view's rows stay as many as the
               events' */
            for (m = 0; m < g.nr_members && r->leader[g.leader_idx + m] < 0; m++) {}
            if (m < g.nr_members) {
                fprintf(stderr, "perfdata report: a group of events %u-%u overlaps an earlier group: it is reported "
                                "event by event\n", g.leader_idx, g.leader_idx + g.nr_members - 1);
                continue;
            }
        }
        r->members[g.leader_idx] = g.nr_members;
        for (m = 0; m < g.nr_members; m++) r->leader[g.leader_idx + m] = (long)g.leader_idx;
        free(r->group_name[g.leader_idx]);
        r->group_name[g.leader_idx] = NULL;
        if (g.name.n && !(g.name.n == 12 && !memcmp(g.name.p, "{anon_group}", 12))) {
            char *name = malloc(g.name.n + 1);
            if (!name) pd_nomem();
            memcpy(name, g.name.p, g.name.n);
            name[g.name.n] = 0;
            r->group_name[g.leader_idx] = name;
        }
    }
}

static void add_chain(report_ctx *r, const entry *self, pd_thread *t, const perfdata_sample *s);

/* One sample of an event (perf's tool->sample): its row and the totals;
   with --children, the rows of its call chain too. */
static void deliver(report_ctx *r, entry *e, pd_thread *t, const perfdata_sample *s) {
    if ((size_t)e->event >= r->nev) return;
    e->acc = e->period;
    add(r, e);
    if (r->children) add_chain(r, e, t, s);
    if (r->overview) {
        proc_row *p = proc_of(r, e->pid);
        p->samples++;
        p->period += e->period;
        p->thread = pd_state_thread(&r->st, e->pid, e->pid);
    }
    r->ev_period[e->event] += e->period;
    r->ev_samples[e->event]++;
}

/* perf 6.1's srcline of a sample (map__srcline): the object's file:line,
   else the symbol and the address's decimal offset in it ("memcmp@plt+0"),
   else the object and the address ("libx.so[1a2b]"); "??:0" without a map. */
static const char *srcline_text(report_ctx *r, const pd_resolved *res) {
    char buf[PD_TEXT_CELL_MAX + 64];
    const char *t;
    if (!res->mapped || !res->dso_path) return pd_intern_str(&r->sym.names, "??:0");
    if ((t = pd_sym_srcline(&r->sym, res)) != NULL) return t;
    if (res->sym)
        snprintf(buf, sizeof buf, "%.*s+%llu", PD_TEXT_CELL_MAX, res->sym, (unsigned long long)res->sym_off);
    else
        snprintf(buf, sizeof buf, "%.*s[%llx]", PD_TEXT_CELL_MAX, res->dso,
                 (unsigned long long)(res->have_vaddr ? res->vaddr : res->addr));
    return pd_intern_str(&r->sym.names, buf);
}

/* A row's place from a resolved address: object, symbol, level, source
   line, and whether the filters hide it (guest samples too: perf keeps
   no guest machine unless asked to, so their rows are filtered out) */
static void place_entry(report_ctx *r, entry *e, const pd_resolved *res) {
    e->dso = res->dso;
    e->mapped = res->mapped;
    e->sym = res->sym;
    e->src_file = res->src_file;
    e->sym_start = res->sym_start;
    e->sym_end = res->sym_end;
    e->addr = res->addr;
    e->level = res->level;
    if (r->want_srcline) e->srcline = srcline_text(r, res);
    e->dso_index = res->dso_index;
    e->hidden = res->guest || (r->filter.active && !pd_filter_entry(&r->filter, e->comm, e->pid, e->tid, res->dso,
                                                                     res->dso_path, res->sym));
}

/* perf's callchain depth for report (--max-stack's default) */
#define PD_REPORT_MAX_STACK 127

/* --children (perf's hist_iter_cumulative): each entry of the sample's
   call chain, from the outermost caller in, is a row that gets the
   sample's period in its children's column, once per sample: an entry
   equal (by the sort keys) to one the sample already gave it to is left
   out, the sample's own row included. The entries are perf's: the chain's
   kernel and user addresses as recorded (its context markers say which),
   then, for a stack copy, the unwound user frames before them; each
   resolved where its mode says, its address the raw one; an address
   with neither map nor symbol takes the mode of the entry before it. */
static void add_chain(report_ctx *r, const entry *self, pd_thread *t, const perfdata_sample *s) {
    uint64_t ips[PD_REPORT_MAX_STACK * 2 + 2];
    unsigned char modes[PD_REPORT_MAX_STACK * 2 + 2];
    size_t n = 0, i, j, nchain = 0, nr = (s->sample_type & PERFDATA_SAMPLE_CALLCHAIN) ? s->callchain.count : 0;
    unsigned mode = PERFDATA_MISC_USER;
    char level = self->level;
    size_t unwound = 0;
    uint64_t uw[PD_REPORT_MAX_STACK];
    if (!r->chain && !(r->chain = (entry *)malloc((PD_REPORT_MAX_STACK + 1) * sizeof *r->chain))) pd_nomem();
    r->chain[nchain++] = *self;
    /* the recorded chain, leaf first, in ips; the markers set the modes */
    for (i = 0; i < nr; i++) {
        uint64_t ip = perfdata_u64s_at(&s->callchain, i);
        if (ip >= PERFDATA_CONTEXT_MAX) {
            if (ip == PERFDATA_CONTEXT_KERNEL) mode = PERFDATA_MISC_KERNEL;
            else if (ip == PERFDATA_CONTEXT_USER) mode = PERFDATA_MISC_USER;
            else if (ip == PERFDATA_CONTEXT_HV) mode = PERFDATA_MISC_HYPERVISOR;
            else return; /* perf: a corrupted chain, none of it */
            continue;
        }
        if (n == PD_REPORT_MAX_STACK * 2) break;
        ips[n] = ip;
        modes[n++] = (unsigned char)mode;
    }
    /* a stack copy's user frames come after the kernel's, leaf first (the
       sampled pc, then each caller's return address - 1) */
    if (pd_sym_unwinds(s, r->s->arch))
        unwound = pd_sym_unwind(&r->sym, &r->st, t, s, r->s->arch, uw, PD_REPORT_MAX_STACK);
    else if ((s->sample_type & PERFDATA_SAMPLE_STACK_USER) && s->stack_user.n)
        r->not_unwound++;
    for (i = 0; i < unwound && n < PD_REPORT_MAX_STACK * 2; i++) {
        ips[n] = uw[i];
        modes[n++] = PERFDATA_MISC_USER;
    }
    /* from the outermost caller in, at most --max-stack of them */
    for (i = n, j = 0; i-- > 0 && j < PD_REPORT_MAX_STACK; j++) {
        pd_resolved res;
        entry e = *self;
        size_t k;
        pd_sym_resolve(&r->sym, &r->st, t, modes[i], ips[i], &res);
        place_entry(r, &e, &res);
        e.addr = ips[i]; /* perf's callchain entries keep the address as recorded */
        if (res.mapped || res.sym) level = res.level;
        e.level = level;
        e.period = e.samples = 0;
        for (k = 0; k < nchain; k++)
            if (!entry_cmp(r, &r->chain[k], &e)) break;
        if (k < nchain) continue;
        e.acc = self->period;
        add(r, &e);
        if (nchain <= PD_REPORT_MAX_STACK) r->chain[nchain++] = e;
    }
}

static void on_record(void *ctx, const perfdata_record *rec, const char *name) {
    report_ctx *r = (report_ctx *)ctx;
    perfdata_sample s;
    pd_thread *t;
    pd_resolved res;
    perfdata_error err;
    entry e;
    size_t i;
    (void)name;
    if (r->overview) csv_record(r, rec);
    if (rec->type == PERFDATA_RECORD_LOST_SAMPLES) {
        perfdata_lost_samples l;
        if (perfdata_decode_lost_samples(r->s->file, rec, &l, NULL) == PERFDATA_OK) r->lost_samples += l.lost;
        return;
    }
    if (rec->type != PERFDATA_RECORD_SAMPLE) {
        pd_state_update(&r->st, r->s->file, rec);
        pd_sym_record(&r->sym, rec);
        if (rec->type == PERFDATA_RECORD_HEADER_FEATURE) {
            perfdata_header_feature hf;
            if (perfdata_decode_header_feature(r->s->file, rec, &hf, NULL) == PERFDATA_OK &&
                hf.feat_id == PERFDATA_FEAT_GROUP_DESC)
                add_groups(r, hf.data, rec->big_endian);
        }
        return;
    }
    if (perfdata_decode_sample(r->s->file, rec, &s, &err) != PERFDATA_OK) {
        pd_session_skip(r->s, rec, &err);
        return;
    }
    if (r->filter.active && !pd_filter_sample(&r->filter, &s)) return;
    t = pd_state_thread(&r->st, (int32_t)s.pid, (int32_t)s.tid);
    pd_sym_resolve(&r->sym, &r->st, t, rec->misc & PERFDATA_MISC_CPUMODE_MASK, s.ip, &res);
    memset(&e, 0, sizeof e);
    e.event = s.event;
    e.comm = pd_state_comm(&r->st, t);
    e.cell = pd_state_comm_cell(&r->st, t);
    e.pid = (int32_t)s.pid;
    e.tid = (int32_t)s.tid;
    place_entry(r, &e, &res);
    e.samples = 1;
    if (!(s.sample_type & PERFDATA_SAMPLE_READ)) {
        /* perf counts the attr's fixed period for events that do not sample it */
        e.period = (s.sample_type & PERFDATA_SAMPLE_PERIOD) ? s.period : r->s->file->events[s.event].attr.sample_period;
        deliver(r, &e, t, &s);
        return;
    }
    /* perf_session__deliver_sample: a sample that reads counters stands,
       for each value read, for a sample of that value's event whose period
       is how much the counter grew since its id was last read; none when it
       did not grow or the id is no event's (a value read without ids) */
    for (i = 0; i < s.read.nr; i++) {
        perfdata_read_value v = perfdata_read_at(&s.read, i);
        long ev = (s.read.read_format & PERFDATA_FORMAT_ID) ? perfdata_find_event(r->s->file, v.id) : -1;
        uint64_t *last;
        if (ev < 0) continue;
        last = pd_read_last(&r->read_ids, v.id);
        e.period = v.value - *last;
        *last = v.value;
        if (!e.period) continue;
        e.event = ev;
        deliver(r, &e, t, &s);
    }
}

/* perf's output order: period descending, then each sort key ascending
   (sort__comm_sort, sort__dso_cmp, sort__sym_sort: resolved symbols first). */
static int g_keys[KEY_MAX], g_nkeys, g_samples;

/* perf's output order (hist_entry__sort over "overhead", the keys and,
   with -n, "sample"): period, then each key's se_sort (comm, dso and
   symbol names ascending, missing ones last; thread ids ascending), then
   more samples first; what ties stays in the tree's order (seq). */
static const report_ctx *g_r;

/* A row's period or samples for group member m (0: the row's own event). */
enum { VALUE_PERIOD, VALUE_SAMPLES, VALUE_ACC };
static uint64_t member_value(const report_ctx *r, const entry *e, size_t m, int what) {
    const entry *p = m == 0 ? e : (e->pairs && e->pairs[m] != NIL ? &r->v[e->pairs[m]] : NULL);
    return p ? (what == VALUE_SAMPLES ? p->samples : what == VALUE_ACC ? p->acc : p->period) : 0;
}

static uint32_t members_of(const report_ctx *r, const entry *e) {
    uint32_t nr = r->members ? r->members[e->event] : 1;
    return nr ? nr : 1;
}

static int by_period(const void *a, const void *b) {
    const entry *x = *(const entry *const *)a, *y = *(const entry *const *)b;
    uint32_t nr = members_of(g_r, x), m;
    int i, c;
    for (m = 0; g_r->children && m < nr; m++) { /* --children: theirs first */
        uint64_t px = member_value(g_r, x, m, VALUE_ACC), py = member_value(g_r, y, m, VALUE_ACC);
        if (px != py) return px < py ? 1 : -1;
    }
    for (m = 0; m < nr; m++) { /* in a group, the members' periods break ties in order */
        uint64_t px = member_value(g_r, x, m, VALUE_PERIOD), py = member_value(g_r, y, m, VALUE_PERIOD);
        if (px != py) return px < py ? 1 : -1;
    }
    for (i = 0; i < g_nkeys; i++) {
        switch (g_keys[i]) {
        case KEY_COMM:
            if (x->cell->str != y->cell->str && (c = strcmp(x->cell->str, y->cell->str)) != 0) return c;
            break;
        case KEY_PID: if (x->tid != y->tid) return x->tid < y->tid ? -1 : 1; break;
        case KEY_DSO:
            if (x->mapped != y->mapped) return x->mapped ? -1 : 1;
            if (x->mapped && x->dso != y->dso && (c = strcmp(x->dso, y->dso)) != 0) return c;
            break;
        case KEY_SRCLINE:
            if (x->srcline != y->srcline && (c = strcmp(x->srcline, y->srcline)) != 0) return c;
            break;
        case KEY_SYM: /* sort__sym_sort: by name only */
            if (!x->sym != !y->sym) return x->sym ? -1 : 1;
            if (x->sym && x->sym != y->sym && (c = strcmp(x->sym, y->sym)) != 0) return c;
            break;
        }
    }
    for (m = 0; g_samples && m < nr; m++) {
        uint64_t sx = member_value(g_r, x, m, VALUE_SAMPLES), sy = member_value(g_r, y, m, VALUE_SAMPLES);
        if (sx != sy) return sx < sy ? 1 : -1;
    }
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* perf's _hist_entry__sym_snprintf: an unresolved address has 16 digits
   ("%-#.*llx" with BITS_PER_LONG / 4), so 0 prints without "0x". The
   name escaped (pd_text), as every name from the file or a symbol table
   is printed, and the columns are sized by what is printed. */
static void sym_text(const entry *e, char *buf, size_t len) {
    char name[1024];
    if (e->sym) snprintf(buf, len, "[%c] %s", e->level, pd_escaped(name, sizeof name, e->sym));
    else snprintf(buf, len, "[%c] %#.16llx", e->level, (unsigned long long)e->addr);
}

static void convert_unit(uint64_t v, uint64_t *out, char *unit) {
    *unit = ' ';
    if (v > 1000) { v /= 1000; *unit = 'K'; }
    if (v > 1000) { v /= 1000; *unit = 'M'; }
    if (v > 1000) { v /= 1000; *unit = 'G'; }
    *out = v;
}

/* The command perf shows in the pid column and sizes the columns by: the
   entry's thread's command at the end (thread__comm_str). */
static const char *thread_comm(report_ctx *r, const entry *e) {
    (void)r;
    return e->last->str;
}

/* Column widths as perf's hists__calc_col_len: the widest value or the
   title; the pid column is the widest command + 8 ("%7d:"); an entry
   without a symbol widens the symbol column to 22 and the dso column to
   16 (the unresolved address). No column is wider than PD_TEXT_CELL_MAX. */
static void column_widths(report_ctx *r, size_t ev, entry **sorted, size_t n, size_t *width) {
    static const char *const titles[] = {"Command", "    Pid:Command", "Shared Object", "Symbol", "Source:Line"};
    size_t i, comm = 0;
    int k;
    char buf[1024];
    for (k = 0; k < KEY_MAX; k++) width[k] = strlen(titles[k]);
    for (i = 0; i < n; i++) {
        const entry *e = sorted[i];
        size_t len;
        if ((size_t)e->event != ev || e->hidden) continue; /* filtered rows do not size columns */
        if ((len = pd_text_width(thread_comm(r, e))) > comm) comm = len;
        if ((len = pd_text_width(e->dso)) > width[KEY_DSO]) width[KEY_DSO] = len;
        sym_text(e, buf, sizeof buf);
        if ((len = strlen(buf)) > width[KEY_SYM]) width[KEY_SYM] = len;
        if (e->srcline && (len = pd_text_width(e->srcline)) > width[KEY_SRCLINE]) width[KEY_SRCLINE] = len;
        /* hists__set_unres_dso_col_len, which --dso turns off */
        if (!e->sym && !r->filter.dso.n && width[KEY_DSO] < 16) width[KEY_DSO] = 16;
    }
    if (comm > width[KEY_COMM]) width[KEY_COMM] = comm;
    if (comm && comm + 8 > width[KEY_PID]) width[KEY_PID] = comm + 8;
    for (k = 0; k < KEY_MAX; k++)
        if (width[k] > PD_TEXT_CELL_MAX) width[k] = PD_TEXT_CELL_MAX;
}

/* perf's evsel__group_desc: "NAME { a, b }", NAME "anon group" unless
   GROUP_DESC named it; an event on its own: its name. */
static void group_name(report_ctx *r, size_t ev, uint32_t nr, char *buf, size_t len) {
    size_t at = 0, m;
    char one[256];
    if (nr < 2) {
        perfdata_event_name(r->s->file, ev, buf, len);
        return;
    }
    at += (size_t)snprintf(buf, len, "%s { ", r->group_name && r->group_name[ev] ? r->group_name[ev] : "anon group");
    for (m = 0; m < nr && ev + m < r->nev && at < len; m++)
        at += (size_t)snprintf(buf + at, len - at, "%s%s", m ? ", " : "", perfdata_event_name(r->s->file, ev + m, one, sizeof one));
    if (at < len) snprintf(buf + at, len - at, " }");
}

static void print_event_table(report_ctx *r, size_t ev, entry **sorted, size_t n) {
    static const char *const titles[] = {"Command", "    Pid:Command", "Shared Object", "Symbol", "Source:Line"};
    size_t width[KEY_MAX], i;
    int k;
    uint64_t total = r->ev_period[ev], samples, all_samples = 0, all_period = 0;
    uint32_t nr = r->members && r->members[ev] > 1 ? r->members[ev] : 1, m;
    char unit, name[1024], shown[1024], buf[1024];
    size_t pid_len;
    for (m = 0; m < nr && ev + m < r->nev; m++) {
        all_samples += r->ev_samples[ev + m];
        all_period += r->ev_period[ev + m];
    }
    convert_unit(all_samples, &samples, &unit);
    group_name(r, ev, nr, name, sizeof name);
    printf("# Samples: %llu%c of event%s '%s'%s%s%s\n", (unsigned long long)samples, unit, nr > 1 ? "s" : "",
           pd_escaped(shown, sizeof shown, name),
           r->filter.time_spec ? " (time slices: " : "", r->filter.time_spec ? r->filter.time_spec : "",
           r->filter.time_spec ? ")" : "");
    printf("# Event count (approx.): %llu\n#\n", (unsigned long long)all_period);
    column_widths(r, ev, sorted, n, width);
    /* a group has a column of each for every member */
    if (r->children) printf("# %*s  %*s", (int)(8 * nr), "Children", (int)(8 * nr), "Self");
    else printf("# %*s", (int)(8 * nr), "Overhead");
    if (r->show_samples) printf("  %*s", (int)(12 * nr), "Samples");
    for (k = 0; k < r->nkeys; k++) printf("  %-*s", (int)width[r->keys[k]], titles[r->keys[k]]);
    printf("\n# ");
    for (i = 0; r->children && i < 8 * nr; i++) putchar('.');
    if (r->children) printf("  ");
    for (i = 0; i < 8 * nr; i++) putchar('.');
    if (r->show_samples) {
        printf("  ");
        for (i = 0; i < 12 * nr; i++) putchar('.');
    }
    for (k = 0; k < r->nkeys; k++) {
        printf("  ");
        for (i = 0; i < width[r->keys[k]]; i++) putchar('.');
    }
    printf("\n#\n");
    for (i = 0; i < n; i++) {
        entry *e = sorted[i];
        if ((size_t)e->event != ev || e->hidden ||
            !pd_filter_percent(&r->filter, r->children ? e->acc : e->period, total))
            continue;
        for (k = r->children ? 0 : 1; k < 2; k++) { /* Children, then Self (Overhead) */
            printf("  ");
            for (m = 0; m < nr; m++) {
                uint64_t t = ev + m < r->nev ? r->ev_period[ev + m] : 0;
                double v = (double)member_value(r, e, m, k ? VALUE_PERIOD : VALUE_ACC);
                printf("%7.2f%%", t ? 100.0 * v / (double)t : 0.0);
            }
        }
        if (r->show_samples) {
            printf("  ");
            for (m = 0; m < nr; m++) printf("%12llu", (unsigned long long)member_value(r, e, m, VALUE_SAMPLES));
        }
        for (k = 0; k < r->nkeys; k++) {
            int w = (int)width[r->keys[k]], last = k == r->nkeys - 1;
            /* comm, dso and pid pad (and cut) themselves to the width; the
               symbol is padded only when a column follows (perf's
               hist_entry__snprintf_alignment) */
            switch (r->keys[k]) {
            case KEY_COMM: pd_text_cell(buf, sizeof buf, e->cell->str, w); break;
            case KEY_PID:
                pid_len = (size_t)snprintf(buf, sizeof buf, "%7d:", (int)e->tid);
                pd_text_cell(buf + pid_len, sizeof buf - pid_len, thread_comm(r, e), w - 8);
                break;
            case KEY_DSO: pd_text_cell(buf, sizeof buf, e->dso, w); break;
            case KEY_SRCLINE: { /* "%-.*s": cut to the width, padded only when a column follows */
                size_t len;
                pd_text_cell(buf, sizeof buf, e->srcline, w);
                for (len = strlen(buf); last && len && buf[len - 1] == ' '; len--) buf[len - 1] = 0;
                break;
            }
            default: sym_text(e, buf, sizeof buf); break;
            }
            if (last) printf("  %s", buf);
            else printf("  %-*s", w, buf);
        }
        printf("\n");
    }
    printf("\n\n");
}

static int parse_sort(report_ctx *r, const char *spec) {
    char buf[256], *tok, *save = NULL;
    snprintf(buf, sizeof buf, "%s", spec);
    r->nkeys = 0;
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int k = !strcmp(tok, "comm") ? KEY_COMM : !strcmp(tok, "pid") ? KEY_PID : !strcmp(tok, "dso") ? KEY_DSO
              : !strcmp(tok, "sym") ? KEY_SYM : !strcmp(tok, "srcline") ? KEY_SRCLINE : -1;
        if (k < 0 || r->nkeys == KEY_MAX) {
            fprintf(stderr, "perfdata report: unknown sort key '%s' (comm, pid, dso, sym, srcline)\n", tok);
            return -1;
        }
        if (k == KEY_SRCLINE) r->want_srcline = 1;
        r->keys[r->nkeys++] = k;
    }
    return r->nkeys ? 0 : -1;
}

/* Closes a CSV file; a failed write or close is an error, said here. */
static int csv_close(FILE *fp, const char *dir, const char *name) {
    int bad = ferror(fp);
    if (fclose(fp) != 0 || bad) {
        fprintf(stderr, "perfdata: %s/%s: write error\n", dir, name);
        return 1;
    }
    return 0;
}

/* sort__setup_elide: a --comm, --dso or --sym list of one name leaves its
   column out of the output and says so ("# dso: NAME"), unless every
   column would go. */
static void elide_keys(report_ctx *r, char *lines, size_t len) {
    static const char *const labels[KEY_MAX] = {"comm", NULL, "dso", "symbol"};
    int k, kept = 0, keys[KEY_MAX] = {0}, n = 0;
    size_t at = 0;
    lines[0] = 0;
    for (k = 0; k < r->nkeys; k++) {
        const char *label = labels[r->keys[k]], *v = label ? pd_filter_elided(&r->filter, label) : NULL;
        char shown[256];
        if (v && at < len) at += (size_t)snprintf(lines + at, len - at, "# %s: %s\n", label, pd_escaped(shown, sizeof shown, v));
        else kept++;
    }
    if (!kept) return;
    for (k = 0; k < r->nkeys; k++) {
        const char *label = labels[r->keys[k]];
        if (!label || !pd_filter_elided(&r->filter, label)) keys[n++] = r->keys[k];
    }
    memcpy(r->keys, keys, sizeof keys);
    r->nkeys = n;
}

static FILE *csv_open(const char *dir, const char *name) {
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) {
        fprintf(stderr, "perfdata report: %s/%s: path too long; not written\n", dir, name);
        return NULL;
    }
    return pd_output_create(path, "report");
}

/* processes.csv's maps cell: "START-END PGOFF NAME" per map, joined by
   ';'. A ';' in a name is written \x3b (as pd_text writes control
   characters), so the cell splits on ';' into the maps and nothing else;
   pd_put_csv then escapes control characters and quotes the cell. The
   text is built in *buf (grown as needed). Processes share their maps, so
   a small file can hold processes x maps entries: the column holds *room
   bytes in all, and a process whose maps do not fit is counted in *cut. */
static const char *map_list(char **buf, size_t *cap, const pd_maps *maps, size_t *room, size_t *cut) {
    size_t j, at = 0, n = pd_maps_count(maps);
    for (j = 0; j < n; j++) {
        const pd_map_entry *m = pd_maps_at(maps, j);
        const char *c;
        size_t len = 3 * 17 + 4 * strlen(m->name) + 1, need = at + len;
        if (len > *room) {
            (*cut)++;
            break;
        }
        *room -= len;
        if (need > *cap) {
            *cap = need * 2;
            if (!(*buf = realloc(*buf, *cap))) pd_nomem();
        }
        at += (size_t)snprintf(*buf + at, *cap - at, "%s%llx-%llx %llx ", j ? ";" : "", (unsigned long long)m->start,
                               (unsigned long long)m->end, (unsigned long long)m->pgoff);
        for (c = m->name; *c; c++) {
            if (*c == ';') { memcpy(*buf + at, "\\x3b", 4); at += 4; }
            else (*buf)[at++] = *c;
        }
    }
    if (!*buf && !(*buf = malloc(*cap = 1))) pd_nomem();
    (*buf)[at] = 0;
    return *buf;
}

/* stat.csv, processes.csv and results.csv, after the walk. Every cell of
   text from the file goes through pd_put_csv. */
static int csv_write(report_ctx *r, entry **sorted, size_t n) {
    FILE *fp;
    size_t i, cap = 0, room = (size_t)PD_CSV_MAPS_MIB << 20, cut = 0;
    char *list = NULL;
    if (!(fp = csv_open(r->csv_dir, "stat.csv"))) return 1;
    fprintf(fp, "type,name,count,bytes\n");
    for (i = 0; i < 128; i++)
        if (r->type_count[i])
            fprintf(fp, "%zu,%s,%llu,%llu\n", i, perfdata_record_name((uint32_t)i), (unsigned long long)r->type_count[i],
                    (unsigned long long)r->type_bytes[i]);
    if (csv_close(fp, r->csv_dir, "stat.csv")) return 1;
    if (!(fp = csv_open(r->csv_dir, "processes.csv"))) return 1;
    fprintf(fp, "pid,ppid,comm,fork_time,exit_time,samples,period,maps\n");
    for (i = 0; i < r->nprocs; i++) {
        proc_row *p = &r->procs[i];
        pd_thread *t = pd_state_thread(&r->st, p->pid, p->pid);
        fprintf(fp, "%d,%d,", (int)p->pid, (int)p->ppid);
        pd_put_csv(fp, t->comm ? t->comm : "");
        fprintf(fp, ",%llu,%llu,%llu,%llu,", (unsigned long long)p->fork_time, (unsigned long long)p->exit_time,
                (unsigned long long)p->samples, (unsigned long long)p->period);
        pd_put_csv(fp, map_list(&list, &cap, t->maps, &room, &cut));
        fputc('\n', fp);
    }
    free(list);
    if (cut) {
        fprintf(stderr, "perfdata report: processes.csv: the maps of %zu processes are cut short (the maps column "
                        "holds at most %d MiB in all)\n", cut, PD_CSV_MAPS_MIB);
        r->s->partial = 1;
    }
    if (csv_close(fp, r->csv_dir, "processes.csv")) return 1;
    if (!(fp = csv_open(r->csv_dir, "results.csv"))) return 1;
    fprintf(fp, "event,function,source_file,line,shared_object,samples,period,percent\n");
    for (i = 0; i < n; i++) {
        entry *e = sorted[i];
        char sym[64], name[256], file[2 * PD_TEXT_CELL_MAX];
        uint32_t line = 0;
        uint64_t total = (size_t)e->event < r->nev ? r->ev_period[e->event] : 0;
        if (e->hidden || !pd_filter_percent(&r->filter, e->period, total)) continue;
        pd_put_csv(fp, perfdata_event_name(r->s->file, (size_t)e->event, name, sizeof name));
        fputc(',', fp);
        if (e->sym) pd_put_csv(fp, e->sym);
        else { snprintf(sym, sizeof sym, "%#llx", (unsigned long long)e->addr); pd_put_csv(fp, sym); }
        fputc(',', fp);
        /* where the function starts, by its line table (addr2line's), else
           the file its symbol table names */
        if (e->sym && pd_sym_source(&r->sym, e->dso_index, e->sym_start, file, sizeof file, &line)) {
            pd_put_csv(fp, file);
            fprintf(fp, ",%u,", (unsigned)line);
        } else {
            pd_put_csv(fp, e->src_file ? e->src_file : "");
            fputs(",,", fp);
        }
        pd_put_csv(fp, e->dso);
        fprintf(fp, ",%llu,%llu,%.4f\n", (unsigned long long)e->samples, (unsigned long long)e->period,
                total ? 100.0 * (double)e->period / (double)total : 0.0);
    }
    if (csv_close(fp, r->csv_dir, "results.csv")) return 1;
    return 0;
}

enum { REPORT_SORT = 1, REPORT_KALLSYMS, REPORT_SYMFS, REPORT_SYMDIR, REPORT_NR_SAMPLES, REPORT_CSV, REPORT_VERBOSE,
       REPORT_STDIO, REPORT_NO_CHILDREN, REPORT_BRANCH, REPORT_NO_BRANCH, REPORT_NO_DEMANGLE, REPORT_CHILDREN };

static const pd_opt report_opts[] = {
    {'s', REPORT_SORT, "sort", "KEYS", "comma-separated from comm, pid, dso, sym, srcline (default comm,dso,sym)"},
    {'n', REPORT_NR_SAMPLES, "show-nr-samples", NULL, "add the sample count"},
    {0, REPORT_KALLSYMS, "kallsyms", "FILE", "kernel symbols (default /proc/kallsyms when recorded on this host)"},
    {0, REPORT_SYMFS, "symfs", "DIR", "look for binaries under DIR first"},
    {0, REPORT_SYMDIR, "symdir", "DIR", "any ELF below DIR with the recorded build id"},
    {0, REPORT_NO_DEMANGLE, "no-demangle", NULL, "C++ and Rust names as the binary has them (perf's --no-demangle)"},
    {0, REPORT_CSV, "csv", "DIR", "also write stat.csv, overview.csv, processes.csv, results.csv in DIR (created if missing)"},
    {0, REPORT_STDIO, "stdio", NULL, "accepted, as perf's: the output is always perf's --stdio text"},
    {0, REPORT_CHILDREN, "children", NULL,
     "perf's Children view of a profile with call chains (as perf report --children -g none): each\n"
     "                         row's share with its callees', then its own"},
    {0, REPORT_NO_CHILDREN, "no-children", NULL, "the Self view (the default)"},
    {'v', REPORT_VERBOSE, "verbose", NULL, "say which binaries and symbol tables were used"},
    {'b', REPORT_BRANCH, "branch-stack", NULL,
     "branch mode (perf's default for profiles recorded with -b or -j): a row per branch, sort keys\n"
     "                         comm, dso_from, symbol_from, dso_to, symbol_to, cycles"},
    {0, REPORT_NO_BRANCH, "no-branch-stack", NULL, "the sample view of a profile with branch stacks"},
    {0, 0, NULL, NULL, NULL},
};
static const pd_opt *const report_tables[] = {report_opts, pd_filter_opts, pd_ratio_opts, pd_queue_opts, NULL};
const pd_command pd_report_command = {
    "report", "the flat profile of `perf report --stdio`, with symbols",
    "  The flat profile of `perf report --stdio --no-children`: overhead by period per event.\n"
    "  As in perf, --comm, --pid, --tid, --dso and --sym hide entries (the percentages stay\n"
    "  of the whole event), --cpu and --time drop samples (the totals change).\n", report_tables, NULL};

typedef struct report_args {
    report_ctx *r;
    const char *who;                /* the command, for messages */
    const char *sort, *kallsyms, *symfs, *symdir;
    int verbose;
    int branch;                     /* 1: -b, 0: --no-branch-stack, -1: as perf decides */
} report_args;

static int report_option(void *ctx, int id, const char *value) {
    report_args *a = (report_args *)ctx;
    switch (id) {
    case REPORT_SORT: a->sort = value; break;
    case REPORT_KALLSYMS: a->kallsyms = value; break;
    case REPORT_SYMFS: a->symfs = value; break;
    case REPORT_SYMDIR: a->symdir = value; break;
    case REPORT_NO_DEMANGLE: pd_sym_demangle = 0; break;
    case REPORT_NR_SAMPLES: a->r->show_samples = 1; break;
    case REPORT_CSV: a->r->csv_dir = value; break;
    case REPORT_VERBOSE: a->verbose = 1; break;
    case REPORT_STDIO: break;
    case REPORT_CHILDREN: a->r->children = 1; break;
    case REPORT_NO_CHILDREN: a->r->children = 0; break;
    case REPORT_BRANCH: a->branch = 1; break;
    case REPORT_NO_BRANCH: a->branch = 0; break;
    default: return pd_filter_set(&a->r->filter, id, value, "report");
    }
    return 0;
}

/* Opens path for r (a session of its own, s), the state, the symbols
   and the per-event tables as the options say. 0, or nonzero after saying
   why on stderr (nothing is left open). */
static int report_open(report_ctx *r, pd_session *s, const char *path, const report_args *a) {
    size_t i;
    if (pd_session_open_flags(s, path, PERFDATA_READ_ORDERED) != 0) return 1;
    if (pd_filter_prepare(&r->filter, s->file, a->who) != 0) {
        pd_session_close(s);
        return 1;
    }
    r->s = s;
    pd_state_init(&r->st);
    r->st.keep_exited = r->csv_dir != NULL; /* processes.csv lists every process's maps */
    pd_sym_init(&r->sym, s->file);
    r->sym.kallsyms_path = a->kallsyms;
    r->sym.search.symfs = a->symfs;
    r->sym.search.symdir = a->symdir;
    r->sym.verbose = a->verbose;
    r->nev = s->nev_cap;
    r->ev_period = calloc(r->nev, sizeof *r->ev_period);
    r->root = malloc(r->nev * sizeof *r->root);
    if (!r->root) pd_nomem();
    for (i = 0; i < r->nev; i++) r->root[i] = NIL;
    r->ev_samples = calloc(r->nev, sizeof *r->ev_samples);
    r->leader = malloc(r->nev * sizeof *r->leader);
    r->members = calloc(r->nev, sizeof *r->members);
    r->group_name = calloc(r->nev, sizeof *r->group_name);
    if (!r->ev_period || !r->ev_samples || !r->leader || !r->members || !r->group_name) pd_nomem();
    for (i = 0; i < r->nev; i++) r->leader[i] = -1;
    {
        perfdata_view sec;
        if (perfdata_feature_section(s->file, PERFDATA_FEAT_GROUP_DESC, &sec, NULL) == PERFDATA_OK)
            add_groups(r, sec, (s->file->flags & PERFDATA_FILE_BIG_ENDIAN) != 0);
    }
    return 0;
}

/* Frees what report_open made, the session included. */
static void report_close(report_ctx *r) {
    size_t i;
    free(r->procs);
    free(r->proc_slots);
    free(r->chain);
    for (i = 0; i < r->n; i++) free(r->v[i].pairs);
    for (i = 0; i < r->nev; i++) free(r->group_name[i]);
    free(r->leader);
    free(r->members);
    free(r->group_name);
    free(r->v);
    free(r->recent);
    free(r->root);
    free(r->read_ids.v);
    free(r->ev_period);
    free(r->ev_samples);
    pd_sym_free(&r->sym);
    pd_state_free(&r->st);
    pd_filter_free(&r->filter);
    pd_session_close(r->s);
}

int pd_cmd_report(int argc, char **argv) {
    static report_ctx r;
    pd_session s;
    const char *path = NULL, *sort, *kallsyms, *symfs, *symdir;
    entry **sorted;
    size_t i, n = 0, ev;
    int rc, verbose;
    char elided[1024];
    report_args args = {&r, "report", NULL, NULL, NULL, NULL, 0, -1};
    memset(&r, 0, sizeof r); /* static for its size; a second run starts afresh */
    if ((rc = pd_opts_parse(&pd_report_command, argc, argv, report_option, &args, &path)) >= 0) return rc;
    sort = args.sort; kallsyms = args.kallsyms; symfs = args.symfs; symdir = args.symdir; verbose = args.verbose;
    {
        pd_branch_options b;
        b.sort = sort;
        b.show_samples = r.show_samples;
        b.verbose = verbose;
        b.kallsyms = kallsyms;
        b.symfs = symfs;
        b.symdir = symdir;
        b.csv = r.csv_dir != NULL;
        b.filtered = r.filter.active;
        if ((rc = pd_report_branch(path, args.branch, &b)) >= 0) return rc;
    }
    if (!sort) sort = "comm,dso,sym";
    if (parse_sort(&r, sort)) { pd_opts_usage(&pd_report_command, stderr); return PD_EXIT_USAGE; }
    if (r.csv_dir && pd_make_dir(r.csv_dir, "report") != 0) return PD_EXIT_ERROR;
    if (report_open(&r, &s, path, &args) != 0) return PD_EXIT_ERROR;
    if (r.csv_dir && !(r.overview = csv_open(r.csv_dir, "overview.csv"))) {
        report_close(&r);
        return PD_EXIT_ERROR;
    }
    if (r.overview) fprintf(r.overview, "nr,time,offset,type,name,pid,tid,cpu,info\n");
    rc = pd_session_walk_ordered(&s, on_record, &r);
    if (r.overview && csv_close(r.overview, r.csv_dir, "overview.csv")) rc = PD_EXIT_ERROR;
    if (r.children) {
        /* perf keeps --children only where samples have call chains (the
           events are known now, a stream's too: perf 6.1 decides before a
           pipe names them, and drops the view for every pipe) */
        int chains = 0;
        for (i = 0; i < s.file->nr_events; i++)
            if (s.file->events[i].attr.sample_type & PERFDATA_SAMPLE_CALLCHAIN) chains = 1;
        if (!chains) r.children = 0;
    }
    collapse(&r);
    link_groups(&r);
    number(&r);
    sorted = malloc((r.n ? r.n : 1) * sizeof(entry *));
    if (!sorted) pd_nomem();
    for (i = 0; i < r.n; i++)
        if (!r.v[i].merged) sorted[n++] = &r.v[i];
    memcpy(g_keys, r.keys, sizeof g_keys);
    g_nkeys = r.nkeys;
    g_samples = r.show_samples;
    g_r = &r;
    qsort(sorted, n, sizeof(entry *), by_period);
    elide_keys(&r, elided, sizeof elided); /* after the grouping and sorting, which keep every key */
    printf("# To display the perf.data header info, please use --header/--header-only options.\n#\n%s", elided);
    if (!n) /* perf says so when no sample was kept, and prints no table */
        fprintf(stderr, "perfdata report: %s has no samples%s\n", path, r.filter.active ? " (after the filters)" : "");
    else {
        printf("#\n# Total Lost Samples: %llu\n#\n", (unsigned long long)r.lost_samples);
        for (ev = 0; ev < s.file->nr_events && ev < r.nev; ev++) {
            uint64_t any = 0;
            size_t m;
            if (r.leader[ev] >= 0 && r.leader[ev] != (long)ev) continue; /* in its leader's table */
            for (m = 0; m < (r.members[ev] > 1 ? r.members[ev] : 1) && ev + m < r.nev; m++) any += r.ev_samples[ev + m];
            if (any) print_event_table(&r, ev, sorted, n);
        }
        printf("#\n#\n"); /* perf puts a random tip between these two lines */
    }
    if (r.not_unwound)
        fprintf(stderr, "perfdata report: %s: %llu samples carry a user stack dump (--call-graph dwarf) of an "
                        "architecture not unwound (x86-64, aarch64 and arm are), so their user frames are the sampled "
                        "ip and any frame-pointer chain only\n", path, (unsigned long long)r.not_unwound);
    if (r.csv_dir && csv_write(&r, sorted, n)) rc = PD_EXIT_ERROR;
    if (r.sym.partial) s.partial = 1;
    rc = pd_session_finish(&s, rc);
    free(sorted);
    report_close(&r);
    return rc;
}

/* ------------------------------------------------------------------ diff */

/* perf diff: each file's rows by object and symbol (perf's hists with the
   keys dso,sym, then collapsed by name: perf diff sets the symbol key's
   collapse to the name comparison), a baseline event's rows paired with
   those of the other file's first event of the same type and config. */
typedef struct diff_row {
    const entry *a, *b;             /* the first row of each side in its tree's order: what is shown */
    uint64_t pa, pb;                /* the periods of each side's rows of this name */
    double delta;                   /* pb of B's total less pa of A's, in percent */
    size_t seq;
} diff_row;

enum { DIFF_DELTA_ABS, DIFF_DELTA };
static int g_compute;

/* perf's collapse of the symbol key: the object's short name (an address
   with no map: [unknown], equal to any other), then the symbol's name (an
   unresolved address: equal to any other in the object) */
static int name_cmp(const entry *x, const entry *y) {
    int c;
    if (x->mapped != y->mapped) return x->mapped ? -1 : 1;
    if (x->mapped && x->dso != y->dso && (c = strcmp(x->dso, y->dso)) != 0) return c;
    if (!x->sym != !y->sym) return x->sym ? -1 : 1;
    if (x->sym && x->sym != y->sym && (c = strcmp(x->sym, y->sym)) != 0) return c;
    return 0;
}

static int by_name_then_seq(const void *pa, const void *pb) {
    const entry *x = *(const entry *const *)pa, *y = *(const entry *const *)pb;
    int c = name_cmp(x, y);
    if (c) return c;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* An event's rows, one per name (the first in the tree's order stands for
   its name, with their periods summed into *period), sorted by name. */
static size_t named_rows(report_ctx *r, long ev, const entry **out, uint64_t *period, size_t *order) {
    size_t n = ev >= 0 && (size_t)ev < r->nev ? in_order(r->v, r->root[ev], order) : 0, i, k = 0;
    const entry **all = (const entry **)malloc((n ? n : 1) * sizeof(const entry *));
    if (!all) pd_nomem();
    for (i = 0; i < n; i++) {
        r->v[order[i]].seq = i;
        all[i] = &r->v[order[i]];
    }
    qsort(all, n, sizeof(const entry *), by_name_then_seq);
    for (i = 0; i < n; i++) {
        if (all[i]->hidden) continue; /* guest samples: in the total, in no row */
        if (k && !name_cmp(out[k - 1], all[i])) {
            period[k - 1] += all[i]->period;
            continue;
        }
        out[k] = all[i];
        period[k++] = all[i]->period;
    }
    free(all);
    return k;
}

/* perf diff's output order: rows with a pair (in the new file) first; by
   the delta (its absolute value by default), larger first; then the
   baseline's period; then object and symbol names (no map, no symbol
   last). */
static int by_delta(const void *pa, const void *pb) {
    const diff_row *x = (const diff_row *)pa, *y = (const diff_row *)pb;
    const entry *ex = x->a ? x->a : x->b, *ey = y->a ? y->a : y->b;
    int c;
    if (!ex || !ey) return !ex - !ey; /* (a row has one side at least) */
    if (!x->b != !y->b) return x->b ? -1 : 1;
    if (x->b) {
        double dx = g_compute == DIFF_DELTA_ABS && x->delta < 0 ? -x->delta : x->delta;
        double dy = g_compute == DIFF_DELTA_ABS && y->delta < 0 ? -y->delta : y->delta;
        if (dx > dy) return -1;
        if (dx < dy) return 1;
    }
    if (x->pa != y->pa) return x->pa > y->pa ? -1 : 1;
    if (ex->mapped != ey->mapped) return ex->mapped ? -1 : 1;
    if (ex->mapped && ex->dso != ey->dso && (c = strcmp(ex->dso, ey->dso)) != 0) return c;
    if (!ex->sym != !ey->sym) return ex->sym ? -1 : 1;
    if (ex->sym && ex->sym != ey->sym && (c = strcmp(ex->sym, ey->sym)) != 0) return c;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The other file's event of the same type and config (perf's
   evsel__match): the first one, or -1. */
static long matching_event(const perfdata_file *a, size_t ev, const perfdata_file *b) {
    size_t i;
    for (i = 0; i < b->nr_events; i++)
        if (b->events[i].attr.type == a->events[ev].attr.type && b->events[i].attr.config == a->events[ev].attr.config)
            return (long)i;
    return -1;
}

static void print_diff_event(report_ctx *ra, report_ctx *rb, size_t ev, int first) {
    long evb = matching_event(ra->s->file, ev, rb->s->file);
    size_t na, nb, n = 0, i, j, dso_w = 13, sym_w = 6, len, *order;
    size_t cap = (ra->n > rb->n ? ra->n : rb->n) + 1;
    const entry **ea, **eb;
    uint64_t *pa, *pb, tot_a = ev < ra->nev ? ra->ev_period[ev] : 0, tot_b = evb >= 0 ? rb->ev_period[evb] : 0;
    diff_row *rows;
    char name[1024], shown[1024], buf[1024];
    const char *title = g_compute == DIFF_DELTA_ABS ? "Delta Abs" : "Delta";
    int delta_w = g_compute == DIFF_DELTA_ABS ? 9 : 7;
    ea = (const entry **)malloc(cap * sizeof(const entry *));
    eb = (const entry **)malloc(cap * sizeof(const entry *));
    pa = (uint64_t *)malloc(cap * sizeof *pa);
    pb = (uint64_t *)malloc(cap * sizeof *pb);
    order = (size_t *)malloc(cap * sizeof *order);
    rows = (diff_row *)malloc(2 * cap * sizeof *rows);
    if (!ea || !eb || !pa || !pb || !order || !rows) pd_nomem();
    na = named_rows(ra, (long)ev, ea, pa, order);
    nb = evb >= 0 ? named_rows(rb, evb, eb, pb, order) : 0;
    /* both sorted by name: pair them as a merge does */
    for (i = j = 0; i < na || j < nb;) {
        int c = i == na ? 1 : j == nb ? -1 : name_cmp(ea[i], eb[j]);
        diff_row *d = &rows[n];
        memset(d, 0, sizeof *d);
        if (c <= 0) { d->a = ea[i]; d->pa = pa[i]; }
        if (c >= 0) { d->b = eb[j]; d->pb = pb[j]; }
        /* the seq keeps the baseline's rows in its tree's order, then the new ones */
        d->seq = c <= 0 ? ea[i]->seq : cap + eb[j]->seq;
        if (c <= 0) i++;
        if (c >= 0) j++;
        if (d->b) d->delta = (double)d->pb * 100.0 / (double)tot_b - (double)d->pa * 100.0 / (double)tot_a;
        n++;
    }
    qsort(rows, n, sizeof *rows, by_delta);
    for (i = 0; i < n; i++) {
        const entry *e = rows[i].a ? rows[i].a : rows[i].b;
        if ((len = pd_text_width(e->dso)) > dso_w) dso_w = len;
        sym_text(e, buf, sizeof buf);
        if ((len = strlen(buf)) > sym_w) sym_w = len;
        if (!e->sym && dso_w < 16) dso_w = 16; /* hists__set_unres_dso_col_len */
    }
    if (dso_w > PD_TEXT_CELL_MAX) dso_w = PD_TEXT_CELL_MAX;
    if (sym_w > PD_TEXT_CELL_MAX) sym_w = PD_TEXT_CELL_MAX;
    perfdata_event_name(ra->s->file, ev, name, sizeof name);
    printf("%s# Event '%s'\n#\n", first ? "" : "\n", pd_escaped(shown, sizeof shown, name));
    printf("# Baseline  %*s  %-*s  %-*s\n# ........  ", delta_w, title, (int)dso_w, "Shared Object", (int)sym_w, "Symbol");
    for (i = 0; i < (size_t)delta_w; i++) putchar('.');
    printf("  ");
    for (i = 0; i < dso_w; i++) putchar('.');
    printf("  ");
    for (i = 0; i < sym_w; i++) putchar('.');
    printf("\n#\n");
    for (i = 0; i < n; i++) {
        const diff_row *d = &rows[i];
        const entry *e = d->a ? d->a : d->b;
        if (d->a) printf("  %7.2f%%", 100.0 * (double)d->pa / (double)tot_a);
        else printf("  %8s", "");
        if (d->b) printf("  %+*.2f%%", delta_w - 1, d->delta);
        else printf("  %*s", delta_w, "");
        pd_text_cell(buf, sizeof buf, e->dso, (int)dso_w);
        printf("  %-*s", (int)dso_w, buf);
        sym_text(e, buf, sizeof buf);
        printf("  %s\n", buf);
    }
    free(ea);
    free(eb);
    free(pa);
    free(pb);
    free(order);
    free(rows);
}

enum { DIFF_COMPUTE = 1, DIFF_KALLSYMS, DIFF_SYMFS, DIFF_SYMDIR, DIFF_NO_DEMANGLE, DIFF_VERBOSE };

static const pd_opt diff_opts[] = {
    {'c', DIFF_COMPUTE, "compute", "METHOD", "delta-abs (the default: rows by the delta's size) or delta (by its value)"},
    {0, DIFF_KALLSYMS, "kallsyms", "FILE", "kernel symbols (default /proc/kallsyms when recorded on this host)"},
    {0, DIFF_SYMFS, "symfs", "DIR", "look for binaries under DIR first"},
    {0, DIFF_SYMDIR, "symdir", "DIR", "any ELF below DIR with the recorded build id"},
    {0, DIFF_NO_DEMANGLE, "no-demangle", NULL, "C++ and Rust names as the binary has them (perf's --no-demangle)"},
    {'v', DIFF_VERBOSE, "verbose", NULL, "say which binaries and symbol tables were used"},
    {0, 0, NULL, NULL, NULL},
};
static const pd_opt *const diff_tables[] = {diff_opts, pd_ratio_opts, pd_queue_opts, NULL};
const pd_command pd_diff_command = {
    "diff", "two profiles side by side, as `perf diff`",
    "  The output of `perf diff OLD NEW`: per event of OLD (the baseline), each object and\n"
    "  symbol's share of OLD's period and how much it grew or shrank in NEW, in percentage\n"
    "  points, matched by name. One file: OLD is ./perf.data.old; none: also NEW is ./perf.data.\n",
    diff_tables, "[OLD] [NEW]"};

static int diff_option(void *ctx, int id, const char *value) {
    report_args *a = (report_args *)ctx;
    switch (id) {
    case DIFF_COMPUTE:
        if (!strcmp(value, "delta-abs")) g_compute = DIFF_DELTA_ABS;
        else if (!strcmp(value, "delta")) g_compute = DIFF_DELTA;
        else {
            fprintf(stderr, "perfdata diff: --compute '%s': delta-abs or delta\n", value);
            return 1;
        }
        break;
    case DIFF_KALLSYMS: a->kallsyms = value; break;
    case DIFF_SYMFS: a->symfs = value; break;
    case DIFF_SYMDIR: a->symdir = value; break;
    case DIFF_NO_DEMANGLE: pd_sym_demangle = 0; break;
    case DIFF_VERBOSE: a->verbose = 1; break;
    default: return 1;
    }
    return 0;
}

/* One side: the rows of path by dso,sym, in time order as report reads. */
static int diff_load(report_ctx *r, pd_session *s, const char *path, report_args *a) {
    int rc;
    memset(r, 0, sizeof *r);
    parse_sort(r, "dso,sym");
    if (report_open(r, s, path, a) != 0) return -1;
    rc = pd_session_walk_ordered(s, on_record, r);
    if (r->sym.partial) s->partial = 1;
    return rc;
}

int pd_cmd_diff(int argc, char **argv) {
    report_ctx *ra, *rb;
    pd_session sa, sb;
    const char *inputs[2], *old_path, *new_path;
    int n, rc, rc_b;
    size_t ev;
    report_args args = {NULL, "diff", NULL, NULL, NULL, NULL, 0, -1};
    g_compute = DIFF_DELTA_ABS;
    if ((rc = pd_opts_parse_inputs(&pd_diff_command, argc, argv, diff_option, &args, inputs, 2, &n)) >= 0) return rc;
    old_path = n == 2 ? inputs[0] : "perf.data.old";
    new_path = n == 2 ? inputs[1] : n == 1 ? inputs[0] : "perf.data";
    if (!strcmp(old_path, "-") && !strcmp(new_path, "-")) {
        fprintf(stderr, "perfdata diff: standard input can be only one of the two inputs\n");
        return PD_EXIT_USAGE;
    }
    ra = (report_ctx *)malloc(sizeof *ra);
    rb = (report_ctx *)malloc(sizeof *rb);
    if (!ra || !rb) pd_nomem();
    rc = diff_load(ra, &sa, old_path, &args);
    if (rc < 0) {
        free(ra);
        free(rb);
        return PD_EXIT_ERROR;
    }
    rc_b = diff_load(rb, &sb, new_path, &args);
    if (rc_b < 0) {
        report_close(ra);
        free(ra);
        free(rb);
        return PD_EXIT_ERROR;
    }
    if (rc_b > rc) rc = rc_b;
    for (ev = 0; ev < sa.file->nr_events; ev++) print_diff_event(ra, rb, ev, ev == 0);
    rc = pd_session_finish(&sa, rc);
    rc = pd_session_finish(&sb, rc);
    report_close(ra);
    report_close(rb);
    free(ra);
    free(rb);
    return rc;
}
