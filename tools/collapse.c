/* collapse.c - `perfdata collapse`: folded stacks for flame graphs
   (flamegraph.pl, inferno, speedscope), one line per distinct stack:
   "comm;outermost;...;innermost count", as `perf script |
   stackcollapse-perf.pl` gives them. Frames come from the sample's
   callchain (context markers switch between kernel and user symbols, as in
   perf), or the sample ip alone when there is no callchain. */
#include "perfdata.h"
#include "pd_state.h"
#include "pd_sym.h"
#include "pd_tool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct stack_count { char *stack; uint64_t count; } stack_count;

typedef struct collapse_ctx {
    pd_session *s;
    pd_state st;
    pd_symbolizer sym;
    stack_count *table;          /* open addressing on the stack text */
    size_t n, cap;
    int annotate_kernel;         /* --kernel: "_[k]" after kernel frames */
    int with_pid;                /* --pid: "comm-pid" as the root */
    int use_period;              /* --period: weigh by period, not samples */
    char *buf;
    size_t buflen;
    const char **frames;
    int *kernel_of;
    char (*tmp)[300];
    size_t capframes;
    struct frame_cache *cache;   /* ip -> frame name, per address space */
} collapse_ctx;

/* Callchains repeat the same addresses over and over: a direct-mapped
   cache of resolved frames (keyed by address space, cpu mode and ip) saves
   the map, ELF and kallsyms lookups. Names are stable (interned, or owned
   by an ELF that stays open); bracketed object names are copied. */
#define FRAME_CACHE_SIZE 65536
typedef struct frame_cache {
    uint64_t ip;
    const void *space;
    unsigned cpumode;
    int kernel, used;
    char name[80];               /* used when the name is not stable */
    const char *stable;
} frame_cache;

static uint64_t hash_str(const char *s) {
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static void table_add(collapse_ctx *c, const char *stack, uint64_t count) {
    size_t i;
    if ((c->n + 1) * 2 > c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 4096, j;
        stack_count *t = calloc(cap, sizeof *t);
        if (!t) abort();
        for (j = 0; j < c->cap; j++) {
            if (!c->table[j].stack) continue;
            for (i = hash_str(c->table[j].stack) & (cap - 1); t[i].stack; i = (i + 1) & (cap - 1)) {}
            t[i] = c->table[j];
        }
        free(c->table);
        c->table = t;
        c->cap = cap;
    }
    for (i = hash_str(stack) & (c->cap - 1); c->table[i].stack; i = (i + 1) & (c->cap - 1))
        if (!strcmp(c->table[i].stack, stack)) { c->table[i].count += count; return; }
    c->table[i].stack = strdup(stack);
    if (!c->table[i].stack) abort();
    c->table[i].count = count;
    c->n++;
}

/* stackcollapse-perf.pl's tidying: ';' would split a frame, argument lists
   and quotes are dropped. */
static void append_frame(collapse_ctx *c, size_t *pos, const char *name, const char *suffix) {
    size_t need = *pos + strlen(name) + strlen(suffix) + 2, i;
    int depth = 0;
    if (need > c->buflen) {
        c->buflen = need * 2;
        c->buf = realloc(c->buf, c->buflen);
        if (!c->buf) abort();
    }
    if (*pos) c->buf[(*pos)++] = ';';
    for (i = 0; name[i]; i++) {
        char ch = name[i];
        if (ch == '(' && strncmp(name + i, "(anonymous namespace)", 21) != 0) depth = 1; /* drop "(args...)" to the end */
        if (depth) continue;
        if (ch == '"' || ch == '\'') continue;
        c->buf[(*pos)++] = ch == ';' ? ':' : ch;
    }
    for (i = 0; suffix[i]; i++) c->buf[(*pos)++] = suffix[i];
    c->buf[*pos] = 0;
}

/* The frame text of one address: the symbol; else the object in brackets;
   else "[unknown]" (stackcollapse-perf.pl's rule for perf script's
   "[unknown] (object)"). */
static const char *frame_name(collapse_ctx *c, pd_thread *t, unsigned cpumode, uint64_t ip, int *kernel, char *tmp,
                              size_t tmplen) {
    pd_resolved r;
    pd_sym_resolve(&c->sym, &c->st, t, cpumode, ip, &r);
    *kernel = r.kernel;
    if (r.sym) return r.sym;
    if (r.dso && strcmp(r.dso, "[unknown]") != 0) {
        snprintf(tmp, tmplen, "[%s]", r.dso[0] == '[' ? r.dso + 1 : r.dso);
        if (r.dso[0] == '[' && strlen(tmp) >= 2 && tmp[strlen(tmp) - 1] == ']' && tmp[strlen(tmp) - 2] == ']')
            tmp[strlen(tmp) - 1] = 0;
        return tmp;
    }
    return "[unknown]";
}

static const char *cached_frame(collapse_ctx *c, pd_thread *t, unsigned cpumode, uint64_t ip, int *kernel, char *tmp,
                                size_t tmplen) {
    const void *space = (cpumode == PERFDATA_MISC_KERNEL || cpumode == PERFDATA_MISC_GUEST_KERNEL) ? NULL : t->maps;
    uint64_t h = (ip ^ (uint64_t)(uintptr_t)space * 0x9E3779B97F4A7C15ull ^ cpumode) * 0x9E3779B97F4A7C15ull;
    frame_cache *e = &c->cache[(h >> 40) & (FRAME_CACHE_SIZE - 1)];
    const char *name;
    if (e->used && e->ip == ip && e->space == space && e->cpumode == cpumode) {
        *kernel = e->kernel;
        return e->stable ? e->stable : e->name;
    }
    name = frame_name(c, t, cpumode, ip, kernel, tmp, tmplen);
    e->used = 1;
    e->ip = ip;
    e->space = space;
    e->cpumode = cpumode;
    e->kernel = *kernel;
    e->stable = name == tmp ? NULL : name;
    if (name == tmp) snprintf(e->name, sizeof e->name, "%s", tmp);
    return name;
}

static void on_sample(collapse_ctx *c, const perfdata_record *rec, const perfdata_sample *s) {
    pd_thread *t = pd_state_thread(&c->st, (int32_t)s->pid, (int32_t)s->tid);
    unsigned cpumode = rec->misc & PERFDATA_MISC_CPUMODE_MASK;
    size_t nf = 0, i, pos = 0;
    const char *comm = t->comm ? t->comm : "[unknown]";
    size_t nr = (s->sample_type & PERFDATA_SAMPLE_CALLCHAIN) ? s->callchain.count : 0;
    if (nr + 1 > c->capframes) {
        c->capframes = (nr + 1) * 2;
        c->frames = realloc((void *)c->frames, c->capframes * sizeof *c->frames);
        c->kernel_of = realloc(c->kernel_of, c->capframes * sizeof *c->kernel_of);
        c->tmp = realloc(c->tmp, c->capframes * sizeof *c->tmp);
        if (!c->frames || !c->kernel_of || !c->tmp) abort();
    }
    if (!c->cache && !(c->cache = calloc(FRAME_CACHE_SIZE, sizeof *c->cache))) abort();
    if (!nr) {
        c->frames[nf] = cached_frame(c, t, cpumode, s->ip, &c->kernel_of[nf], c->tmp[nf], sizeof c->tmp[nf]);
        nf++;
    }
    for (i = 0; i < nr; i++) {
        uint64_t ip = perfdata_u64s_at(&s->callchain, i);
        if (ip >= PERFDATA_CONTEXT_MAX) { /* a context marker: the frames after it are in this mode */
            if (ip == PERFDATA_CONTEXT_KERNEL) cpumode = PERFDATA_MISC_KERNEL;
            else if (ip == PERFDATA_CONTEXT_USER) cpumode = PERFDATA_MISC_USER;
            else if (ip == PERFDATA_CONTEXT_GUEST_KERNEL) cpumode = PERFDATA_MISC_GUEST_KERNEL;
            else if (ip == PERFDATA_CONTEXT_GUEST_USER) cpumode = PERFDATA_MISC_GUEST_USER;
            else if (ip == PERFDATA_CONTEXT_HV) cpumode = PERFDATA_MISC_HYPERVISOR;
            continue;
        }
        c->frames[nf] = cached_frame(c, t, cpumode, ip, &c->kernel_of[nf], c->tmp[nf], sizeof c->tmp[nf]);
        nf++;
    }
    /* the root: the command name, spaces as underscores like the script */
    if (!c->buf) { c->buflen = 256; c->buf = malloc(c->buflen); if (!c->buf) abort(); }
    {
        char root[128];
        size_t k;
        if (c->with_pid) snprintf(root, sizeof root, "%s-%d", comm, (int)s->pid);
        else snprintf(root, sizeof root, "%s", comm);
        for (k = 0; root[k]; k++) if (root[k] == ' ') root[k] = '_';
        append_frame(c, &pos, root, "");
    }
    for (i = nf; i-- > 0;) append_frame(c, &pos, c->frames[i], c->annotate_kernel && c->kernel_of[i] ? "_[k]" : "");
    table_add(c, c->buf, c->use_period ? s->period : 1);
}

static void on_record(void *ctx, const perfdata_record *rec, const char *name) {
    collapse_ctx *c = (collapse_ctx *)ctx;
    perfdata_sample s;
    (void)name;
    if (rec->type != PERFDATA_RECORD_SAMPLE) { pd_state_update(&c->st, &c->s->file, rec); return; }
    if (perfdata_decode_sample(&c->s->file, rec, &s, NULL) == PERFDATA_OK) on_sample(c, rec, &s);
}

static int by_stack(const void *a, const void *b) {
    return strcmp(((const stack_count *)a)->stack, ((const stack_count *)b)->stack);
}

int pd_cmd_collapse(int argc, char **argv) {
    static collapse_ctx c;
    pd_session s;
    const char *path = NULL, *kallsyms = NULL, *symfs = NULL, *symdir = NULL;
    size_t i, n = 0;
    int rc;
    for (i = 1; i < (size_t)argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--kernel")) c.annotate_kernel = 1;
        else if (!strcmp(a, "--pid")) c.with_pid = 1;
        else if (!strcmp(a, "--period")) c.use_period = 1;
        else if (!strcmp(a, "--kallsyms") && i + 1 < (size_t)argc) kallsyms = argv[++i];
        else if (!strcmp(a, "--symfs") && i + 1 < (size_t)argc) symfs = argv[++i];
        else if (!strcmp(a, "--symdir") && i + 1 < (size_t)argc) symdir = argv[++i];
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            printf("usage: perfdata collapse [--kernel] [--pid] [--period] [--kallsyms F] [--symfs D] [--symdir D] FILE\n"
                   "  Folded stacks (comm;outer;...;inner count) for flamegraph.pl, inferno, speedscope.\n"
                   "  --kernel  mark kernel frames with _[k]\n"
                   "  --pid     root each stack at comm-pid\n"
                   "  --period  count periods instead of samples\n");
            return 0;
        } else if (!path) path = a;
        else { fprintf(stderr, "perfdata collapse: unexpected argument '%s'\n", a); return 2; }
    }
    if (!path) { fprintf(stderr, "usage: perfdata collapse [options] FILE\n"); return 2; }
    if (pd_session_open(&s, path) != 0) return 1;
    c.s = &s;
    pd_state_init(&c.st);
    pd_sym_init(&c.sym, &s.file);
    c.sym.kallsyms_path = kallsyms;
    c.sym.search.symfs = symfs;
    c.sym.search.symdir = symdir;
    rc = pd_session_walk_ordered(&s, on_record, &c);
    {
        stack_count *v = malloc((c.n ? c.n : 1) * sizeof *v);
        if (!v) abort();
        for (i = 0; i < c.cap; i++)
            if (c.table[i].stack) v[n++] = c.table[i];
        qsort(v, n, sizeof *v, by_stack);
        for (i = 0; i < n; i++) printf("%s %llu\n", v[i].stack, (unsigned long long)v[i].count);
        for (i = 0; i < n; i++) free(v[i].stack);
        free(v);
    }
    free(c.table);
    free(c.buf);
    free((void *)c.frames);
    free(c.kernel_of);
    free(c.tmp);
    free(c.cache);
    pd_sym_free(&c.sym);
    pd_state_free(&c.st);
    pd_session_close(&s);
    return rc;
}
