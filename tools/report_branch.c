/* report_branch.c - see report_branch.h. What perf 6.1 does, and so this:
   - Branch mode is the default when the header has the BRANCH_STACK feature
     and no event samples STACK_USER (builtin-report.c); a pipe has no
     features, so never there. Samples without a branch stack are skipped.
   - Every entry of a sample's branch stack is one hit of period 1, so the
     'Samples' line and the event count are numbers of branch entries and
     the overhead is a share of them (hist_iter_branch in util/hist.c).
   - Each address is looked up as a user address of the sample's thread,
     then as a kernel address; found in neither, it is shown at level [H]
     in [unknown] with its raw value (ip__resolve_ams, thread__find_map).
     A user address perf cannot symbolize is shown relative to its map.
   - The default sort is comm,dso_from,symbol_from,symbol_to,cycles
     (util/sort.c). Rows are the distinct values of the sort keys: comm and
     object by name; a symbol by object, name and address, or, unresolved,
     by the raw address; cycles by value.
   - Output order: overhead descending, then the keys in order the way
     perf's comparators leave them: comm ascending, objects descending by
     name, symbols resolved first then by address, cycles descending.
   - Column widths (hists__calc_col_len): the header's length at least;
     a comm its length; a symbol its name + 4, or 22 unresolved; an object
     column grows with the object's name only when its symbol resolved, and
     is at least 16 wide when it did not. Names wider than their object
     column are cut, and no column is wider than PD_TEXT_CELL_MAX. */
#include "report_branch.h"

#include "perfdata.h"
#include "pd_state.h"
#include "pd_sym.h"
#include "pd_text.h"
#include "pd_tool.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { BK_COMM, BK_DSO_FROM, BK_SYM_FROM, BK_DSO_TO, BK_SYM_TO, BK_CYCLES, BK_IPC, BK_MAX };

static const struct {
    const char *name, *title;
} bkeys[BK_MAX] = {
    {"comm", "Command"},
    {"dso_from", "Source Shared Object"},
    {"symbol_from", "Source Symbol"},
    {"dso_to", "Target Shared Object"},
    {"symbol_to", "Target Symbol"},
    {"cycles", "Basic Block Cycles"},
    {"ipc_lbr", "IPC   [IPC Coverage]"},
};

/* One end of a branch as perf resolved it. */
typedef struct bend {
    const char *dso;                /* NULL: no map ("[unknown]") */
    const char *sym;                /* NULL: unresolved */
    uint64_t ip;                    /* the raw address */
    uint64_t addr;                  /* what is printed when unresolved */
    uint64_t sym_start;
    char level;                     /* '.', 'k' or 'H' */
} bend;

typedef struct brow {
    long event;
    const char *comm;
    int32_t pid, tid;               /* the thread of the row's first hit */
    bend from, to;
    unsigned cycles;
    uint64_t count;
    char *key;                      /* the row's identity, see row_key */
    size_t keylen;
    size_t seq;                     /* rows made before it: the last tie-break of the output
                                       order, which the table's (keyed) order must not decide */
} brow;

typedef struct bctx {
    pd_session s;
    pd_state st;
    pd_symbolizer sym;
    int keys[BK_MAX], nkeys, show_samples;
    brow *rows;                     /* open addressing on key */
    size_t n, cap;
    uint64_t *ev_count, lost_samples;
    size_t nev;
    char *kbuf;                     /* scratch for keys */
    size_t kcap, klen;
} bctx;

/* --- identity: the sort keys' values as length-prefixed text ---------- */

static void key_put(bctx *b, const void *p, size_t n) {
    if (b->klen + n + 8 > b->kcap) {
        b->kcap = (b->klen + n + 8) * 2;
        b->kbuf = realloc(b->kbuf, b->kcap);
        if (!b->kbuf) pd_nomem();
    }
    memcpy(b->kbuf + b->klen, &n, sizeof n);
    b->klen += sizeof n;
    memcpy(b->kbuf + b->klen, p, n);
    b->klen += n;
}

static void key_str(bctx *b, const char *s) {
    if (s) key_put(b, s, strlen(s) + 1);
    else key_put(b, "", 0);
}

static void key_sym(bctx *b, const bend *e) {
    if (e->sym) {
        key_put(b, "R", 1);
        key_str(b, e->dso);
        key_str(b, e->sym);
        key_put(b, &e->sym_start, sizeof e->sym_start);
    } else {
        key_put(b, "U", 1);
        key_put(b, &e->ip, sizeof e->ip);
    }
}

static void row_key(bctx *b, const brow *r) {
    int i;
    b->klen = 0;
    key_put(b, &r->event, sizeof r->event);
    for (i = 0; i < b->nkeys; i++) {
        switch (b->keys[i]) {
        case BK_COMM: key_str(b, r->comm); break;
        case BK_DSO_FROM: key_str(b, r->from.dso); break;
        case BK_DSO_TO: key_str(b, r->to.dso); break;
        case BK_SYM_FROM: key_sym(b, &r->from); break;
        case BK_SYM_TO: case BK_IPC: key_sym(b, &r->to); break;
        case BK_CYCLES: key_put(b, &r->cycles, sizeof r->cycles); break;
        }
    }
}

static void table_grow(bctx *b) {
    size_t cap = b->cap ? b->cap * 2 : 1024, i, s;
    brow *t = calloc(cap, sizeof *t);
    if (!t) pd_nomem();
    for (i = 0; i < b->cap; i++) {
        if (!b->rows[i].key) continue;
        for (s = (size_t)pd_hash_bytes(b->rows[i].key, b->rows[i].keylen) & (cap - 1); t[s].key; s = (s + 1) & (cap - 1)) {}
        t[s] = b->rows[i];
    }
    free(b->rows);
    b->rows = t;
    b->cap = cap;
}

static void add(bctx *b, const brow *r) {
    size_t s;
    if ((b->n + 1) * 2 > b->cap) table_grow(b);
    row_key(b, r);
    for (s = (size_t)pd_hash_bytes(b->kbuf, b->klen) & (b->cap - 1); b->rows[s].key; s = (s + 1) & (b->cap - 1))
        if (b->rows[s].keylen == b->klen && !memcmp(b->rows[s].key, b->kbuf, b->klen)) {
            b->rows[s].count++;
            return;
        }
    b->rows[s] = *r;
    b->rows[s].count = 1;
    b->rows[s].seq = b->n;
    b->rows[s].key = malloc(b->klen);
    if (!b->rows[s].key) pd_nomem();
    memcpy(b->rows[s].key, b->kbuf, b->klen);
    b->rows[s].keylen = b->klen;
    b->n++;
}

/* --- the walk ---------------------------------------------------------- */

static const char *comm_of(bctx *b, pd_thread *t) {
    char buf[32];
    if (t->comm) return t->comm;
    /* perf registers the idle thread as swapper; a thread it saw no COMM of is :tid */
    if (t->tid == 0) snprintf(buf, sizeof buf, "swapper");
    else snprintf(buf, sizeof buf, ":%d", (int)t->tid);
    t->comm = pd_state_intern(&b->st, buf, strlen(buf));
    return t->comm;
}

/* perf's name of a kernel module map: "[name]" from .../name.ko[.xz],
   '-' read as '_'. */
static const char *module_name(bctx *b, const char *path) {
    const char *base = strrchr(path, '/'), *ko;
    char buf[256];
    size_t n, i;
    base = base ? base + 1 : path;
    ko = strstr(base, ".ko");
    n = ko ? (size_t)(ko - base) : strlen(base);
    if (n > sizeof buf - 3) n = sizeof buf - 3;
    buf[0] = '[';
    for (i = 0; i < n; i++) buf[i + 1] = base[i] == '-' ? '_' : base[i];
    buf[n + 1] = ']';
    return pd_state_intern(&b->st, buf, n + 2);
}

/* A branch address: the thread's user maps first, then the kernel's. */
static void resolve(bctx *b, pd_thread *t, uint64_t ip, bend *out) {
    unsigned mode;
    pd_resolved res;
    const pd_map_entry *km = NULL;
    memset(out, 0, sizeof *out);
    out->ip = out->addr = ip;
    out->level = 'H';
    if (pd_state_find_map(&b->st, t, PERFDATA_MISC_USER, ip)) mode = PERFDATA_MISC_USER;
    else if ((km = pd_state_find_map(&b->st, t, PERFDATA_MISC_KERNEL, ip)) != NULL || pd_state_find_ksym(&b->st, ip))
        mode = PERFDATA_MISC_KERNEL;
    else return;
    pd_sym_resolve(&b->sym, &b->st, t, mode, ip, &res);
    out->dso = res.dso;
    out->sym = res.sym;
    out->sym_start = res.sym_start;
    out->addr = res.addr;
    if (km && km->name[0] == '/') { /* a module: its own object, addresses relative to it */
        out->dso = module_name(b, km->name);
        if (!res.sym) out->addr = ip - km->start + km->pgoff;
    }
    out->level = mode == PERFDATA_MISC_KERNEL ? 'k' : '.';
}

static void on_record(void *ctx, const perfdata_record *rec, const char *name) {
    bctx *b = (bctx *)ctx;
    perfdata_sample s;
    perfdata_error err;
    pd_thread *t;
    brow r;
    size_t i;
    (void)name;
    if (rec->type == PERFDATA_RECORD_LOST_SAMPLES) {
        perfdata_lost_samples l;
        if (perfdata_decode_lost_samples(b->s.file, rec, &l, NULL) == PERFDATA_OK) b->lost_samples += l.lost;
        return;
    }
    if (rec->type != PERFDATA_RECORD_SAMPLE) {
        pd_state_update(&b->st, b->s.file, rec);
        pd_sym_record(&b->sym, rec);
        return;
    }
    if (perfdata_decode_sample(b->s.file, rec, &s, &err) != PERFDATA_OK) {
        pd_session_skip(&b->s, rec, &err);
        return;
    }
    if (!(s.sample_type & PERFDATA_SAMPLE_BRANCH_STACK) || s.event < 0 || (size_t)s.event >= b->nev) return;
    t = pd_state_thread(&b->st, (int32_t)s.pid, (int32_t)s.tid);
    memset(&r, 0, sizeof r);
    r.event = s.event;
    r.comm = comm_of(b, t);
    r.pid = (int32_t)s.pid;
    r.tid = (int32_t)s.tid;
    for (i = 0; i < s.branch_stack.nr; i++) {
        perfdata_branch_entry e = perfdata_branch_at(&s.branch_stack, i);
        resolve(b, t, e.to, &r.to);
        resolve(b, t, e.from, &r.from);
        r.cycles = e.cycles;
        add(b, &r);
        b->ev_count[s.event]++;
    }
}

/* --- output ------------------------------------------------------------ */

static int g_keys[BK_MAX], g_nkeys;

static int cmp_text(const char *x, const char *y) { /* no object sorts as perf's NULL dso */
    if (!x || !y) return !x && !y ? 0 : !x ? 1 : -1;
    return strcmp(x, y);
}

/* > 0 when x is listed before y, as perf's comparators order them */
static int64_t sym_first(const bend *x, const bend *y) {
    if (!x->sym && !y->sym) return (int64_t)(y->ip - x->ip);
    if (!x->sym || !y->sym) return x->sym ? 1 : -1;
    if (x->sym_start != y->sym_start) return (int64_t)(y->sym_start - x->sym_start);
    return strcmp(y->sym, x->sym);
}

static int by_overhead(const void *a, const void *b) {
    const brow *x = *(const brow *const *)a, *y = *(const brow *const *)b;
    int i;
    int64_t c = 0;
    if (x->count != y->count) return x->count < y->count ? 1 : -1;
    for (i = 0; i < g_nkeys && !c; i++) {
        switch (g_keys[i]) {
        case BK_COMM: c = -(int64_t)strcmp(x->comm, y->comm); break;
        case BK_DSO_FROM: c = cmp_text(x->from.dso, y->from.dso); break;
        case BK_DSO_TO: c = cmp_text(x->to.dso, y->to.dso); break;
        case BK_SYM_FROM: c = sym_first(&x->from, &y->from); break;
        case BK_SYM_TO: case BK_IPC: c = sym_first(&x->to, &y->to); break;
        case BK_CYCLES: c = (int64_t)x->cycles - (int64_t)y->cycles; break;
        }
    }
    if (!c) return x->seq < y->seq ? -1 : x->seq > y->seq;
    return c > 0 ? -1 : c < 0 ? 1 : 0;
}

/* Names are printed escaped (pd_text), and the columns sized by what is
   printed. */
static void sym_text(const bend *e, char *buf, size_t len) {
    char name[1024];
    if (e->sym) snprintf(buf, len, "[%c] %s", e->level, pd_escaped(name, sizeof name, e->sym));
    else snprintf(buf, len, "[%c] %-#.*llx", e->level, 16, (unsigned long long)e->addr);
}

static void widen(size_t *w, size_t n) {
    if (n > *w) *w = n;
}

static void print_event(bctx *b, size_t ev, brow **sorted, size_t n) {
    size_t width[BK_MAX], i, total = b->ev_count[ev];
    uint64_t shown;
    int k;
    char unit, name[256], buf[1024];
    for (k = 0; k < BK_MAX; k++) width[k] = strlen(bkeys[k].title);
    for (i = 0; i < n; i++) {
        const brow *r = sorted[i];
        if ((size_t)r->event != ev) continue;
        /* perf sizes the column by the thread's last comm, not the row's */
        widen(&width[BK_COMM], pd_text_width(comm_of(b, pd_state_thread(&b->st, r->pid, r->tid))));
        widen(&width[BK_SYM_FROM], r->from.sym ? pd_text_width(r->from.sym) + 4 : 22);
        widen(&width[BK_SYM_TO], r->to.sym ? pd_text_width(r->to.sym) + 4 : 22);
        widen(&width[BK_DSO_FROM], r->from.sym ? pd_text_width(r->from.dso) : 16);
        widen(&width[BK_DSO_TO], r->to.sym ? pd_text_width(r->to.dso) : 16);
    }
    for (k = 0; k < BK_MAX; k++)
        if (width[k] > PD_TEXT_CELL_MAX) width[k] = PD_TEXT_CELL_MAX;
    unit = ' ';
    shown = total;
    if (shown > 1000) { shown /= 1000; unit = 'K'; }
    if (shown > 1000) { shown /= 1000; unit = 'M'; }
    if (shown > 1000) { shown /= 1000; unit = 'G'; }
    printf("# Samples: %llu%c of event '%s'\n", (unsigned long long)shown, unit,
           pd_escaped(buf, sizeof buf, perfdata_event_name(b->s.file, ev, name, sizeof name)));
    printf("# Event count (approx.): %llu\n#\n", (unsigned long long)total);
    printf("# Overhead%s", b->show_samples ? "       Samples" : "");
    for (k = 0; k < b->nkeys; k++) printf("  %-*s", (int)width[b->keys[k]], bkeys[b->keys[k]].title);
    printf("\n# ........%s", b->show_samples ? "  ............" : "");
    for (k = 0; k < b->nkeys; k++) {
        printf("  ");
        for (i = 0; i < width[b->keys[k]]; i++) putchar('.');
    }
    printf("\n#\n");
    for (i = 0; i < n; i++) {
        const brow *r = sorted[i];
        if ((size_t)r->event != ev) continue;
        printf("  %7.2f%%", total ? 100.0 * (double)r->count / (double)total : 0.0);
        if (b->show_samples) printf("  %12llu", (unsigned long long)r->count);
        for (k = 0; k < b->nkeys; k++) {
            int key = b->keys[k], w = (int)width[key], last = k == b->nkeys - 1;
            const char *dso;
            switch (key) {
            case BK_COMM: printf("  %s", pd_text_cell(buf, sizeof buf, r->comm, w)); break;
            case BK_DSO_FROM: case BK_DSO_TO:
                dso = key == BK_DSO_FROM ? r->from.dso : r->to.dso;
                printf("  %s", pd_text_cell(buf, sizeof buf, dso ? dso : "[unknown]", w));
                break;
            case BK_SYM_FROM: case BK_SYM_TO:
                sym_text(key == BK_SYM_FROM ? &r->from : &r->to, buf, sizeof buf);
                if (last) printf("  %.*s", w, buf); /* perf pads a symbol only before another column */
                else printf("  %-*.*s", w, w, buf);
                break;
            case BK_CYCLES:
                if (r->cycles) printf("  %-*hd", w, (short)r->cycles); /* perf prints the u16 as a short */
                else printf("  %-*s", w, "-");
                break;
            case BK_IPC: /* perf's stdio report computes no IPC: zero for a known target */
                printf("  %-*s", w, r->to.sym ? "0.00  [  0.0%]" : "-");
                break;
            }
        }
        printf("\n");
    }
    printf("\n\n");
}

static int parse_sort(bctx *b, const char *spec, int given) {
    char buf[256], *tok, *save = NULL;
    snprintf(buf, sizeof buf, "%s", spec);
    b->nkeys = 0;
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int k;
        for (k = 0; k < BK_MAX && strcmp(tok, bkeys[k].name) != 0; k++) {}
        if (k == BK_MAX || b->nkeys == BK_MAX) {
            fprintf(stderr, "perfdata report: unknown branch sort key '%s' (comm, dso_from, symbol_from, dso_to, "
                            "symbol_to, cycles; --no-branch-stack for the sample view)\n", tok);
            return -1;
        }
        b->keys[b->nkeys++] = k;
    }
    /* perf adds the IPC of the target's symbol to a --sort naming "symbol" */
    if (given && strstr(spec, "symbol") && b->nkeys < BK_MAX) b->keys[b->nkeys++] = BK_IPC;
    return b->nkeys ? 0 : -1;
}

/* Whether perf would report this profile in branch mode. */
static int wants_branch_mode(const perfdata_file *f, int mode) {
    uint64_t types = 0;
    size_t i;
    for (i = 0; i < f->nr_events; i++) types |= f->events[i].attr.sample_type;
    if (mode == 1) return 1;
    return perfdata_has_feature(f, PERFDATA_FEAT_BRANCH_STACK) && !(types & PERFDATA_SAMPLE_STACK_USER);
}

static int is_stream(const char *path) {
    struct stat st;
    return !strcmp(path, "-") || (stat(path, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)));
}

int pd_report_branch(const char *path, int mode, const pd_branch_options *o) {
    static bctx b;
    const char *sort = o->sort, *kallsyms = o->kallsyms, *symfs = o->symfs, *symdir = o->symdir;
    brow **sorted;
    size_t i, n = 0, ev;
    uint64_t types = 0;
    int rc, verbose = o->verbose;
    if (mode == 0 || (mode < 0 && is_stream(path))) return -1; /* a pipe has no BRANCH_STACK feature */
    memset(&b, 0, sizeof b);
    b.show_samples = o->show_samples;
    if (pd_session_open_flags(&b.s, path, PERFDATA_READ_ORDERED) != 0) return 1;
    if (!wants_branch_mode(b.s.file, mode)) {
        pd_session_close(&b.s);
        return -1;
    }
    for (i = 0; i < b.s.file->nr_events; i++) types |= b.s.file->events[i].attr.sample_type;
    if (!(types & PERFDATA_SAMPLE_BRANCH_STACK) && !(b.s.file->flags & PERFDATA_FILE_PIPE)) {
        fprintf(stderr, "perfdata report: -b given but the profile has no branch stacks (recorded without -b or -j?)\n");
        pd_session_close(&b.s);
        return 1;
    }
    if (o->csv || o->filtered) {
        fprintf(stderr, "perfdata report: %s is for the sample view of a profile with branch stacks "
                        "(add --no-branch-stack)\n", o->csv ? "--csv" : "a filter");
        pd_session_close(&b.s);
        return PD_EXIT_USAGE;
    }
    if (parse_sort(&b, sort ? sort : "comm,dso_from,symbol_from,symbol_to,cycles", sort != NULL)) {
        pd_session_close(&b.s);
        return PD_EXIT_USAGE;
    }
    pd_state_init(&b.st);
    pd_sym_init(&b.sym, b.s.file);
    b.sym.kallsyms_path = kallsyms;
    b.sym.search.symfs = symfs;
    b.sym.search.symdir = symdir;
    b.sym.verbose = verbose;
    b.nev = b.s.nev_cap;
    b.ev_count = calloc(b.nev, sizeof *b.ev_count);
    if (!b.ev_count) pd_nomem();
    rc = pd_session_walk_ordered(&b.s, on_record, &b);
    sorted = malloc((b.n ? b.n : 1) * sizeof(brow *));
    if (!sorted) pd_nomem();
    for (i = 0; i < b.cap; i++)
        if (b.rows[i].key) sorted[n++] = &b.rows[i];
    memcpy(g_keys, b.keys, sizeof g_keys);
    g_nkeys = b.nkeys;
    qsort(sorted, n, sizeof(brow *), by_overhead);
    printf("# To display the perf.data header info, please use --header/--header-only options.\n#\n");
    printf("#\n# Total Lost Samples: %llu\n#\n", (unsigned long long)b.lost_samples);
    for (ev = 0; ev < b.s.file->nr_events && ev < b.nev; ev++)
        if (b.ev_count[ev]) print_event(&b, ev, sorted, n);
    printf("#\n#\n"); /* perf puts a random tip between these two lines */
    rc = pd_session_finish(&b.s, rc);
    free(sorted);
    for (i = 0; i < b.cap; i++) free(b.rows[i].key);
    free(b.rows);
    free(b.kbuf);
    free(b.ev_count);
    pd_sym_free(&b.sym);
    pd_state_free(&b.st);
    pd_session_close(&b.s);
    return rc;
}
