/* report.c - `perfdata report`: the flat profile of `perf report --stdio`
   (overhead by period, per event, sorted by --sort keys: comm, pid, dso,
   sym), built from the records in perf's delivery order with the process
   state of pd_state and the symbols of pd_sym. */
#include "perfdata.h"
#include "pd_state.h"
#include "pd_sym.h"
#include "pd_tool.h"
#include "report_branch.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { KEY_COMM, KEY_PID, KEY_DSO, KEY_SYM, KEY_MAX };

typedef struct entry {
    long event;
    const char *comm;
    int32_t pid;
    const char *dso;
    const char *sym;                /* NULL: unresolved, then addr */
    const char *src_file;           /* STT_FILE of a local symbol, or NULL */
    uint64_t addr;
    int kernel;
    uint64_t period, samples;
    int used;
} entry;

typedef struct report_ctx {
    pd_session *s;
    pd_state st;
    pd_symbolizer sym;
    int keys[KEY_MAX], nkeys;
    entry *table;                   /* open addressing */
    size_t n, cap;
    uint64_t *ev_period, *ev_samples, lost_samples;
    size_t nev;
    int show_samples;
    const char *csv_dir;
    FILE *overview;                 /* --csv: every record in time order */
    uint64_t type_count[128], type_bytes[128];
    struct proc_row *procs;         /* --csv: one row per process */
    size_t nprocs, capprocs;
} report_ctx;

/* processes.csv: what happened to each process. */
typedef struct proc_row {
    int32_t pid, ppid;
    const char *comm;
    uint64_t fork_time, exit_time, samples, period;
    pd_thread *thread;
} proc_row;

static uint64_t hash_entry(const report_ctx *r, const entry *e) {
    uint64_t h = (uint64_t)e->event * 0x9E3779B97F4A7C15ull;
    int i;
    for (i = 0; i < r->nkeys; i++) {
        switch (r->keys[i]) {
        case KEY_COMM: h = (h ^ (uint64_t)(uintptr_t)e->comm) * 0x100000001b3ull; break;
        case KEY_PID: h = (h ^ (uint64_t)(uint32_t)e->pid) * 0x100000001b3ull; break;
        case KEY_DSO: h = (h ^ (uint64_t)(uintptr_t)e->dso) * 0x100000001b3ull; break;
        case KEY_SYM: h = (h ^ (e->sym ? (uint64_t)(uintptr_t)e->sym : e->addr)) * 0x100000001b3ull; break;
        }
    }
    return h ^ (h >> 29);
}

static int same_entry(const report_ctx *r, const entry *a, const entry *b) {
    int i;
    if (a->event != b->event) return 0;
    for (i = 0; i < r->nkeys; i++) {
        switch (r->keys[i]) {
        case KEY_COMM: if (a->comm != b->comm) return 0; break;
        case KEY_PID: if (a->pid != b->pid) return 0; break;
        case KEY_DSO: if (a->dso != b->dso) return 0; break;
        case KEY_SYM:
            if (a->sym != b->sym || a->kernel != b->kernel) return 0;
            if (!a->sym && a->addr != b->addr) return 0;
            break;
        }
    }
    return 1;
}

static void table_grow(report_ctx *r) {
    size_t cap = r->cap ? r->cap * 2 : 4096, i;
    entry *t = calloc(cap, sizeof *t);
    if (!t) abort();
    for (i = 0; i < r->cap; i++) {
        size_t s;
        if (!r->table[i].used) continue;
        for (s = hash_entry(r, &r->table[i]) & (cap - 1); t[s].used; s = (s + 1) & (cap - 1)) {}
        t[s] = r->table[i];
    }
    free(r->table);
    r->table = t;
    r->cap = cap;
}

static void add(report_ctx *r, const entry *e) {
    size_t s;
    if ((r->n + 1) * 2 > r->cap) table_grow(r);
    for (s = hash_entry(r, e) & (r->cap - 1); r->table[s].used; s = (s + 1) & (r->cap - 1))
        if (same_entry(r, &r->table[s], e)) {
            r->table[s].period += e->period;
            r->table[s].samples += e->samples;
            return;
        }
    r->table[s] = *e;
    r->table[s].used = 1;
    r->n++;
}

static const char *comm_of(report_ctx *r, pd_thread *t) {
    char buf[32];
    if (t->comm) return t->comm;
    snprintf(buf, sizeof buf, ":%d", (int)t->tid); /* perf's name for a thread it saw no COMM of */
    t->comm = pd_state_intern(&r->st, buf, strlen(buf));
    return t->comm;
}

static proc_row *proc_of(report_ctx *r, int32_t pid) {
    size_t i;
    for (i = r->nprocs; i-- > 0;)
        if (r->procs[i].pid == pid) return &r->procs[i];
    if (r->nprocs == r->capprocs) {
        r->capprocs = r->capprocs ? r->capprocs * 2 : 64;
        r->procs = realloc(r->procs, r->capprocs * sizeof *r->procs);
        if (!r->procs) abort();
    }
    memset(&r->procs[r->nprocs], 0, sizeof *r->procs);
    r->procs[r->nprocs].pid = pid;
    r->procs[r->nprocs].ppid = -1;
    return &r->procs[r->nprocs++];
}

static void csv_string(FILE *fp, const char *s) {
    fputc('"', fp);
    for (; s && *s; s++) {
        if (*s == '"') fputc('"', fp);
        fputc(*s, fp);
    }
    fputc('"', fp);
}

/* --csv bookkeeping: record counts, the overview row, process events. */
static void csv_record(report_ctx *r, const perfdata_record *rec) {
    perfdata_sample_id sid;
    uint64_t time = perfdata_record_time(&r->s->file, rec);
    int32_t pid = -1, tid = -1;
    uint32_t cpu = (uint32_t)-1;
    if (rec->type < 128) { r->type_count[rec->type]++; r->type_bytes[rec->type] += rec->size + rec->extra.n; }
    if (rec->type == PERFDATA_RECORD_SAMPLE) {
        perfdata_sample s;
        if (perfdata_decode_sample(&r->s->file, rec, &s, NULL) == PERFDATA_OK) {
            pid = (int32_t)s.pid; tid = (int32_t)s.tid;
            if (s.sample_type & PERFDATA_SAMPLE_CPU) cpu = s.cpu;
        }
    } else if (rec->type < 64 && perfdata_decode_sample_id(&r->s->file, rec, &sid, NULL) == PERFDATA_OK &&
               (sid.sample_type & PERFDATA_SAMPLE_TID)) {
        pid = (int32_t)sid.pid; tid = (int32_t)sid.tid;
        if (sid.sample_type & PERFDATA_SAMPLE_CPU) cpu = sid.cpu;
    }
    if (rec->type == PERFDATA_RECORD_FORK || rec->type == PERFDATA_RECORD_EXIT) {
        perfdata_task k;
        if (perfdata_decode_task(&r->s->file, rec, &k, NULL) == PERFDATA_OK && k.pid == k.tid) {
            proc_row *p = proc_of(r, (int32_t)k.pid);
            if (rec->type == PERFDATA_RECORD_FORK) { p->fork_time = k.time; p->ppid = (int32_t)k.ppid; }
            else p->exit_time = k.time;
        }
    }
    fprintf(r->overview, "%llu,%llu,%u,%s,%d,%d,%d\n", (unsigned long long)time, (unsigned long long)rec->offset,
            rec->type, perfdata_record_name(rec->type), (int)pid, (int)tid, (int)cpu);
}

static void on_record(void *ctx, const perfdata_record *rec, const char *name) {
    report_ctx *r = (report_ctx *)ctx;
    perfdata_sample s;
    pd_thread *t;
    pd_resolved res;
    entry e;
    (void)name;
    if (r->overview) csv_record(r, rec);
    if (rec->type == PERFDATA_RECORD_LOST_SAMPLES) {
        perfdata_lost_samples l;
        if (perfdata_decode_lost_samples(&r->s->file, rec, &l, NULL) == PERFDATA_OK) r->lost_samples += l.lost;
        return;
    }
    if (rec->type != PERFDATA_RECORD_SAMPLE) {
        pd_state_update(&r->st, &r->s->file, rec);
        return;
    }
    if (perfdata_decode_sample(&r->s->file, rec, &s, NULL) != PERFDATA_OK) return;
    t = pd_state_thread(&r->st, (int32_t)s.pid, (int32_t)s.tid);
    pd_sym_resolve(&r->sym, &r->st, t, rec->misc & PERFDATA_MISC_CPUMODE_MASK, s.ip, &res);
    memset(&e, 0, sizeof e);
    e.event = s.event;
    e.comm = comm_of(r, t);
    e.pid = (int32_t)s.pid;
    e.dso = res.dso;
    e.sym = res.sym;
    e.src_file = res.src_file;
    e.addr = res.addr;
    e.kernel = res.kernel;
    /* perf counts the attr's fixed period for events that do not sample it */
    e.period = (s.sample_type & PERFDATA_SAMPLE_PERIOD) ? s.period : r->s->file.events[s.event].attr.sample_period;
    e.samples = 1;
    add(r, &e);
    if (r->overview) {
        proc_row *p = proc_of(r, (int32_t)s.pid);
        p->samples++;
        p->period += e.period;
        p->thread = pd_state_thread(&r->st, (int32_t)s.pid, (int32_t)s.pid);
    }
    if ((size_t)s.event < r->nev) {
        r->ev_period[s.event] += e.period;
        r->ev_samples[s.event]++;
    }
}

/* perf's output order: period descending, then each sort key ascending
   (sort__comm_sort, sort__dso_cmp, sort__sym_sort: resolved symbols first). */
static int g_keys[KEY_MAX], g_nkeys;

static int by_period(const void *a, const void *b) {
    const entry *x = *(const entry *const *)a, *y = *(const entry *const *)b;
    int i, c;
    if (x->period != y->period) return x->period < y->period ? 1 : -1;
    for (i = 0; i < g_nkeys; i++) {
        switch (g_keys[i]) {
        case KEY_COMM: if ((c = strcmp(x->comm, y->comm)) != 0) return c; break;
        case KEY_PID: if (x->pid != y->pid) return x->pid < y->pid ? -1 : 1; break;
        case KEY_DSO: if ((c = strcmp(x->dso, y->dso)) != 0) return c; break;
        case KEY_SYM:
            if (!x->sym != !y->sym) return x->sym ? -1 : 1;
            if (x->sym && (c = strcmp(x->sym, y->sym)) != 0) return c;
            if (!x->sym && x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
            break;
        }
    }
    return 0;
}

static void sym_text(const entry *e, char *buf, size_t len) {
    if (e->sym) snprintf(buf, len, "[%c] %s", e->kernel ? 'k' : '.', e->sym);
    else snprintf(buf, len, "[%c] %#018llx", e->kernel ? 'k' : '.', (unsigned long long)e->addr);
}

static void convert_unit(uint64_t v, uint64_t *out, char *unit) {
    *unit = ' ';
    if (v > 1000) { v /= 1000; *unit = 'K'; }
    if (v > 1000) { v /= 1000; *unit = 'M'; }
    if (v > 1000) { v /= 1000; *unit = 'G'; }
    *out = v;
}

static void print_event_table(report_ctx *r, size_t ev, entry **sorted, size_t n) {
    static const char *const titles[] = {"Command", "Pid", "Shared Object", "Symbol"};
    size_t width[KEY_MAX], i;
    int k;
    uint64_t total = r->ev_period[ev], samples;
    char unit, name[256], buf[1024];
    convert_unit(r->ev_samples[ev], &samples, &unit);
    printf("# Samples: %llu%c of event '%s'\n", (unsigned long long)samples, unit,
           perfdata_event_name(&r->s->file, ev, name, sizeof name));
    printf("# Event count (approx.): %llu\n#\n", (unsigned long long)total);
    for (k = 0; k < KEY_MAX; k++) width[k] = strlen(titles[k]);
    for (i = 0; i < n; i++) {
        entry *e = sorted[i];
        if ((size_t)e->event != ev) continue;
        if (strlen(e->comm) > width[KEY_COMM]) width[KEY_COMM] = strlen(e->comm);
        snprintf(buf, sizeof buf, "%d:%s", (int)e->pid, e->comm);
        if (strlen(buf) > width[KEY_PID]) width[KEY_PID] = strlen(buf);
        if (strlen(e->dso) > width[KEY_DSO]) width[KEY_DSO] = strlen(e->dso);
        sym_text(e, buf, sizeof buf);
        if (strlen(buf) > width[KEY_SYM]) width[KEY_SYM] = strlen(buf);
    }
    printf("# Overhead%s", r->show_samples ? "       Samples" : "");
    for (k = 0; k < r->nkeys; k++) printf("  %-*s", (int)width[r->keys[k]], titles[r->keys[k]]);
    printf("\n# ........%s", r->show_samples ? "  ............" : "");
    for (k = 0; k < r->nkeys; k++) {
        printf("  ");
        for (i = 0; i < width[r->keys[k]]; i++) putchar('.');
    }
    printf("\n#\n");
    for (i = 0; i < n; i++) {
        entry *e = sorted[i];
        if ((size_t)e->event != ev) continue;
        printf("  %7.2f%%", total ? 100.0 * (double)e->period / (double)total : 0.0);
        if (r->show_samples) printf("  %12llu", (unsigned long long)e->samples);
        for (k = 0; k < r->nkeys; k++) {
            int last = k == r->nkeys - 1;
            switch (r->keys[k]) {
            case KEY_COMM: snprintf(buf, sizeof buf, "%s", e->comm); break;
            case KEY_PID: snprintf(buf, sizeof buf, "%d:%s", (int)e->pid, e->comm); break;
            case KEY_DSO: snprintf(buf, sizeof buf, "%s", e->dso); break;
            default: sym_text(e, buf, sizeof buf); break;
            }
            if (last) printf("  %s", buf);
            else printf("  %-*s", (int)width[r->keys[k]], buf);
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
              : !strcmp(tok, "sym") ? KEY_SYM : -1;
        if (k < 0 || r->nkeys == KEY_MAX) {
            fprintf(stderr, "perfdata report: unknown sort key '%s' (comm, pid, dso, sym)\n", tok);
            return -1;
        }
        r->keys[r->nkeys++] = k;
    }
    return r->nkeys ? 0 : -1;
}

static FILE *csv_open(const char *dir, const char *name) {
    char path[4096];
    FILE *fp;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    fp = fopen(path, "w");
    if (!fp) perror(path);
    return fp;
}

/* stat.csv, processes.csv and results.csv, after the walk. */
static int csv_write(report_ctx *r, entry **sorted, size_t n) {
    FILE *fp;
    size_t i, j;
    if (!(fp = csv_open(r->csv_dir, "stat.csv"))) return 1;
    fprintf(fp, "type,name,count,bytes\n");
    for (i = 0; i < 128; i++)
        if (r->type_count[i])
            fprintf(fp, "%zu,%s,%llu,%llu\n", i, perfdata_record_name((uint32_t)i), (unsigned long long)r->type_count[i],
                    (unsigned long long)r->type_bytes[i]);
    fclose(fp);
    if (!(fp = csv_open(r->csv_dir, "processes.csv"))) return 1;
    fprintf(fp, "pid,ppid,comm,fork_time,exit_time,samples,period,maps\n");
    for (i = 0; i < r->nprocs; i++) {
        proc_row *p = &r->procs[i];
        pd_thread *t = pd_state_thread(&r->st, p->pid, p->pid);
        fprintf(fp, "%d,%d,", (int)p->pid, (int)p->ppid);
        csv_string(fp, t->comm ? t->comm : "");
        fprintf(fp, ",%llu,%llu,%llu,%llu,\"", (unsigned long long)p->fork_time, (unsigned long long)p->exit_time,
                (unsigned long long)p->samples, (unsigned long long)p->period);
        for (j = 0; t->maps && j < t->maps->n; j++) {
            const pd_map_entry *m = &t->maps->v[j];
            const char *c;
            fprintf(fp, "%s%llx-%llx %llx ", j ? ";" : "", (unsigned long long)m->start, (unsigned long long)m->end,
                    (unsigned long long)m->pgoff);
            for (c = m->name; *c; c++) { if (*c == '"') fputc('"', fp); fputc(*c, fp); }
        }
        fprintf(fp, "\"\n");
    }
    fclose(fp);
    if (!(fp = csv_open(r->csv_dir, "results.csv"))) return 1;
    fprintf(fp, "event,function,source_file,shared_object,samples,period,percent\n");
    for (i = 0; i < n; i++) {
        entry *e = sorted[i];
        char sym[64], name[256];
        uint64_t total = (size_t)e->event < r->nev ? r->ev_period[e->event] : 0;
        csv_string(fp, perfdata_event_name(&r->s->file, (size_t)e->event, name, sizeof name));
        fputc(',', fp);
        if (e->sym) csv_string(fp, e->sym);
        else { snprintf(sym, sizeof sym, "%#llx", (unsigned long long)e->addr); csv_string(fp, sym); }
        fputc(',', fp);
        csv_string(fp, e->src_file ? e->src_file : "");
        fputc(',', fp);
        csv_string(fp, e->dso);
        fprintf(fp, ",%llu,%llu,%.4f\n", (unsigned long long)e->samples, (unsigned long long)e->period,
                total ? 100.0 * (double)e->period / (double)total : 0.0);
    }
    fclose(fp);
    return 0;
}

int pd_cmd_report(int argc, char **argv) {
    static report_ctx r;
    pd_session s;
    const char *path = NULL, *sort = "comm,dso,sym", *kallsyms = NULL, *symfs = NULL, *symdir = NULL;
    entry **sorted;
    size_t i, n = 0, ev;
    int rc, verbose = 0, branch = -1;
    for (i = 1; i < (size_t)argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--sort") && i + 1 < (size_t)argc) sort = argv[++i];
        else if (!strncmp(a, "--sort=", 7)) sort = a + 7;
        else if (!strcmp(a, "--kallsyms") && i + 1 < (size_t)argc) kallsyms = argv[++i];
        else if (!strcmp(a, "--symfs") && i + 1 < (size_t)argc) symfs = argv[++i];
        else if (!strcmp(a, "--symdir") && i + 1 < (size_t)argc) symdir = argv[++i];
        else if (!strcmp(a, "-n") || !strcmp(a, "--show-nr-samples")) r.show_samples = 1;
        else if (!strcmp(a, "--csv") && i + 1 < (size_t)argc) r.csv_dir = argv[++i];
        else if (!strcmp(a, "-v")) verbose = 1;
        else if (!strcmp(a, "-b") || !strcmp(a, "--branch-stack")) branch = 1;
        else if (!strcmp(a, "--no-branch-stack")) branch = 0;
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            printf("usage: perfdata report [--sort KEYS] [-n] [--kallsyms FILE] [--symfs DIR] [--symdir DIR] FILE\n"
                   "  The flat profile of `perf report --stdio`: overhead by period per event.\n"
                   "  --sort KEYS   comma-separated from comm, pid, dso, sym (default comm,dso,sym)\n"
                   "  -n            add the sample count\n"
                   "  --kallsyms F  kernel symbols (default /proc/kallsyms when recorded on this host)\n"
                   "  --symfs DIR   look for binaries under DIR first\n"
                   "  --symdir DIR  any ELF below DIR with the recorded build id\n"
                   "  --csv DIR     also write stat.csv, overview.csv, processes.csv, results.csv\n"
                   "  -b, --branch-stack, --no-branch-stack  branch mode (as perf, the default for -b/-j recordings:\n"
                   "                sort keys comm, dso_from, symbol_from, dso_to, symbol_to, cycles) or the sample view\n");
            return 0;
        } else if (!path) path = a;
        else { fprintf(stderr, "perfdata report: unexpected argument '%s'\n", a); return 2; }
    }
    if (path && (rc = pd_report_branch(path, branch, argc, argv)) >= 0) return rc;
    if (!path || parse_sort(&r, sort)) { fprintf(stderr, "usage: perfdata report [options] FILE\n"); return 2; }
    if (pd_session_open(&s, path) != 0) return 1;
    r.s = &s;
    pd_state_init(&r.st);
    pd_sym_init(&r.sym, &s.file);
    r.sym.kallsyms_path = kallsyms;
    r.sym.search.symfs = symfs;
    r.sym.search.symdir = symdir;
    r.sym.verbose = verbose;
    r.nev = s.file.cap_events ? s.file.cap_events : 1;
    r.ev_period = calloc(r.nev, sizeof *r.ev_period);
    r.ev_samples = calloc(r.nev, sizeof *r.ev_samples);
    if (!r.ev_period || !r.ev_samples) abort();
    if (r.csv_dir) {
        if (!(r.overview = csv_open(r.csv_dir, "overview.csv"))) return 1;
        fprintf(r.overview, "time,offset,type,name,pid,tid,cpu\n");
    }
    rc = pd_session_walk_ordered(&s, on_record, &r);
    if (r.overview) fclose(r.overview);
    sorted = malloc((r.n ? r.n : 1) * sizeof(entry *));
    if (!sorted) abort();
    for (i = 0; i < r.cap; i++)
        if (r.table[i].used) sorted[n++] = &r.table[i];
    memcpy(g_keys, r.keys, sizeof g_keys);
    g_nkeys = r.nkeys;
    qsort(sorted, n, sizeof(entry *), by_period);
    printf("# To display the perf.data header info, please use --header/--header-only options.\n#\n");
    printf("#\n# Total Lost Samples: %llu\n#\n", (unsigned long long)r.lost_samples);
    for (ev = 0; ev < s.file.nr_events && ev < r.nev; ev++)
        if (r.ev_samples[ev]) print_event_table(&r, ev, sorted, n);
    printf("#\n#\n"); /* perf puts a random tip between these two lines */
    if (r.csv_dir) rc |= csv_write(&r, sorted, n);
    free(sorted);
    free(r.procs);
    free(r.table);
    free(r.ev_period);
    free(r.ev_samples);
    pd_sym_free(&r.sym);
    pd_state_free(&r.st);
    pd_session_close(&s);
    return rc;
}
