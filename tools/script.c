/* script.c - `perfdata script`: every sample as a line of text, as perf 6.1's
   `perf script` prints it, in time order: the same default fields per kind
   of event, the same -F field lists, the same side-band lines
   (--show-task-events, --show-mmap-events...), call chains one frame per
   line, and tracepoint samples formatted by their own print_fmt from the
   file's TRACING_DATA (pd_tpfmt). */
#include "perfdata.h"
#include "pd_filter.h"
#include "pd_intern.h"
#include "pd_opts.h"
#include "pd_state.h"
#include "pd_sym.h"
#include "pd_text.h"
#include "pd_tool.h"
#include "pd_tpfmt.h"
#include "pd_unwind.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* perf script's output fields (builtin-script.c's PERF_OUTPUT_*), those
   this command prints */
enum {
    F_COMM = 1u << 0, F_TID = 1u << 1, F_PID = 1u << 2, F_TIME = 1u << 3, F_CPU = 1u << 4, F_EVNAME = 1u << 5,
    F_TRACE = 1u << 6, F_IP = 1u << 7, F_SYM = 1u << 8, F_DSO = 1u << 9, F_ADDR = 1u << 10, F_SYMOFF = 1u << 11,
    F_PERIOD = 1u << 12, F_WEIGHT = 1u << 13, F_PHYS_ADDR = 1u << 14, F_DATA_SRC = 1u << 15,
    F_PAGE_SIZES = 1u << 16, F_INS_LAT = 1u << 17, F_BPF_OUTPUT = 1u << 18, F_SYNTH = 1u << 19,
    F_SRCLINE = 1u << 20
};
static const struct { const char *name; unsigned field; } field_names[] = {
    {"comm", F_COMM}, {"tid", F_TID}, {"pid", F_PID}, {"time", F_TIME}, {"cpu", F_CPU}, {"event", F_EVNAME},
    {"trace", F_TRACE}, {"ip", F_IP}, {"sym", F_SYM}, {"dso", F_DSO}, {"addr", F_ADDR}, {"symoff", F_SYMOFF},
    {"period", F_PERIOD}, {"weight", F_WEIGHT}, {"phys_addr", F_PHYS_ADDR}, {"ins_lat", F_INS_LAT},
    {"srcline", F_SRCLINE},
};
#define NFIELD_NAMES (sizeof field_names / sizeof field_names[0])

/* The kinds of event perf keeps a field list for: attr.type below 6, the
   synthesized events, and every other PMU. */
enum { T_HW, T_SW, T_TRACE, T_HW_CACHE, T_RAW, T_BREAK, T_SYNTH, T_OTHER, NTYPES };
#define PERF_TYPE_SYNTH 4000000000u
static const char *const type_names[NTYPES] = {"hw", "sw", "trace", NULL, "raw", "break", "synth", NULL};

#define COMMON (F_COMM | F_TID | F_CPU | F_TIME | F_EVNAME)
#define SAMPLED (COMMON | F_IP | F_SYM | F_SYMOFF | F_DSO | F_PERIOD)
static const unsigned default_fields[NTYPES] = {
    SAMPLED, SAMPLED | F_BPF_OUTPUT, COMMON | F_TRACE, SAMPLED,
    SAMPLED | F_ADDR | F_DATA_SRC | F_WEIGHT | F_PHYS_ADDR | F_PAGE_SIZES | F_INS_LAT, SAMPLED,
    COMMON | F_SYNTH, SAMPLED,
};
static const unsigned invalid_fields[NTYPES] = {
    F_TRACE | F_BPF_OUTPUT, F_TRACE, F_BPF_OUTPUT, F_TRACE | F_BPF_OUTPUT, F_TRACE | F_BPF_OUTPUT,
    F_TRACE | F_BPF_OUTPUT, F_TRACE | F_BPF_OUTPUT, F_TRACE | F_BPF_OUTPUT,
};
/* fields printed by perf that this command does not print (yet): said on
   stderr when an event would show them, never silently left out */
#define F_UNSUPPORTED (F_DATA_SRC | F_PAGE_SIZES | F_BPF_OUTPUT | F_SYNTH)

/* side-band records shown with --show-*-events */
enum { SHOW_TASK = 1, SHOW_MMAP = 2, SHOW_SWITCH = 4, SHOW_LOST = 8, SHOW_NAMESPACE = 16, SHOW_CGROUP = 32 };

typedef struct out_type {
    unsigned fields;
    unsigned user_fields;      /* asked for by -F: an event without the data is an error */
    int user_set;              /* -F set or changed this kind's list */
    int wildcard_set;          /* ... in a way that does not ask for an event of the kind */
} out_type;

/* A resolved frame, cached per (address space, cpu mode, ip), with its
   text after the address (" sym+0xoff (dso)") for the fields it was
   made for: a call chain repeats the same frames over and over. */
typedef struct frame {
    /* what a hit reads first, together */
    uint64_t ip;
    uint64_t stamp[2];
    unsigned cpumode;
    unsigned text_fields;      /* the fields and kind the text is for, + 1; 0: none */
    char *text;
    size_t textlen;
    int used;
    size_t textcap;
    pd_resolved r;
} frame;
#define FRAME_CACHE_BITS 14
/* the cached texts are bounded, whatever the names in the file (the
   caches then take at most 16 MiB and 32 MiB) */
#define FRAME_TEXT_MAX 1024
#define CHAIN_TEXT_MAX 8192
/* A whole call chain's text, cached by its raw addresses and the state
   of the address spaces they were resolved in: samples repeat the same
   chains (a loop, the idle task), and a hit is one copy. */
#define CHAIN_CACHE 4096
#define CHAIN_CACHED_MAX 256       /* entries of a chain cached at most */
#define PD_UNWIND_MAX 127          /* user frames unwound at most (perf's max stack) */
typedef struct chain_text {
    uint64_t hash, user_gen, kernel_gen;
    unsigned cpumode, fields;
    char *text;                /* the text, then the raw addresses */
    size_t textlen, rawlen, cap;
} chain_text;
/* the start of a sample's line (comm, pid/tid, cpu), the last one per
   cpu: consecutive samples on a cpu are mostly of one thread */
#define START_CACHE 64
typedef struct start_text {
    const char *comm;
    int32_t pid, tid;
    uint32_t cpu;
    unsigned fields;
    int width;
    size_t len;
    char text[96];
} start_text;
/* the commands' padded text, cached by their interned pointer */
#define COMM_CACHE 256
typedef struct comm_text { const char *comm; int width; size_t len; char text[64]; } comm_text;

typedef struct script_ctx {
    pd_session *s;
    pd_state st;
    pd_symbolizer sym;
    pd_filter filter;
    out_type out[NTYPES];
    unsigned show;
    int ns;                    /* --ns */
    int no_callchain;          /* -G */
    uint64_t dwarf_samples;    /* samples with a user stack dump of an architecture not unwound */
    int use_callchain;         /* perf's symbol_conf.use_callchain */
    int prepared;              /* fields checked against the events */
    int stat, auxtrace;        /* the file has the STAT or AUXTRACE feature (a pipe: its record) */
    int name_width;
    uint64_t time_secs;        /* put_time's last seconds, and their digits */
    char time_secs_text[24];
    size_t time_secs_len;
    const char *tp_filter;     /* --filter */
    /* tracepoints */
    perfdata_tracing tracing;
    int have_tracing;
    pd_tpfmt **tp;             /* per event, compiled on first use; events of one */
    pd_tpfilter **tpf;         /* format share it (the tp_ids entry owns it) */
    unsigned char *tp_tried;
    struct tp_id *tp_ids;      /* the event formats by id, sorted: found in O(log n) */
    size_t ntp_ids;
    int tp_indexed;
    size_t ntp;
    int said_trace_cut;
    unsigned said_fields;      /* unsupported fields said */
    uint64_t filter_failed;    /* events the --filter could not be set on */
    /* the line */
    char *buf;
    size_t len, cap;
    char *tbuf;                /* trace text */
    size_t tlen, tcap;
    frame *cache;
    comm_text *comms;
    start_text *starts;
    chain_text *chains;
    char **evtext;             /* per event: its name padded as perf pads it, and ": " */
    size_t *evlen, nevtext;
    pd_read_ids read_ids;      /* SAMPLE_READ: the last value per counter id */
    /* perf stat record files: the counts of the last STAT records */
    int *cpus;                 /* the last CPU_MAP, expanded */
    unsigned char *cpumap;     /* ... as recorded, until a round needs it */
    size_t cpumap_len, cpumap_cap;
    int cpumap_big, cpumap_new;
    int32_t *threads;          /* THREAD_MAP's pids */
    size_t ncpus, nthreads;
    struct stat_count *counts; /* open addressing on (event, cpu index, thread index) */
    size_t ncounts, capcounts;
    int stat_header;
    int failed;                /* an error that stops the command */
} script_ctx;

static void grow(script_ctx *c, size_t n);
/* Room for n more bytes and a NUL in the line buffer. */
static inline void reserve(script_ctx *c, size_t n) {
    if (c->cap - c->len < n + 1) grow(c, n);
}
static inline void put(script_ctx *c, const char *p, size_t n) {
    reserve(c, n);
    memcpy(c->buf + c->len, p, n);
    c->len += n;
}
static void puts_(script_ctx *c, const char *s) { put(c, s, strlen(s)); }
static void grow(script_ctx *c, size_t n) {
    size_t cap;
    cap = c->cap ? c->cap : 4096;
    while (cap - c->len < n + 1) cap *= 2;
    if (!(c->buf = (char *)realloc(c->buf, cap))) pd_nomem();
    c->cap = cap;
}
static void putf(script_ctx *c, const char *fmt, ...) {
    va_list ap;
    int n;
    reserve(c, 64);
    va_start(ap, fmt);
    n = vsnprintf(c->buf + c->len, c->cap - c->len, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n >= c->cap - c->len) {
        reserve(c, (size_t)n);
        va_start(ap, fmt);
        vsnprintf(c->buf + c->len, c->cap - c->len, fmt, ap);
        va_end(ap);
    }
    c->len += (size_t)n;
}
/* printf's %*llu, %-*d, %*llx, written by hand: perf script prints
   several numbers a line, millions of lines */
static void put_num(script_ctx *c, uint64_t v, int neg, unsigned base, int width, int left) {
    char tmp[32], *e = tmp + sizeof tmp, *p = e;
    size_t n, pad;
    if (base == 16) {
        do {
            *--p = "0123456789abcdef"[v & 15];
            v >>= 4;
        } while (v);
    } else {
        do { /* a constant divisor: a multiplication */
            *--p = (char)('0' + v % 10);
            v /= 10;
        } while (v);
    }
    if (neg) *--p = '-';
    n = (size_t)(e - p);
    pad = width > 0 && (size_t)width > n ? (size_t)width - n : 0;
    reserve(c, n + pad);
    if (!left) memset(c->buf + c->len, ' ', pad), c->len += pad;
    memcpy(c->buf + c->len, p, n);
    c->len += n;
    if (left) memset(c->buf + c->len, ' ', pad), c->len += pad;
}
static void put_int(script_ctx *c, int32_t v, int width, int left) {
    put_num(c, v < 0 ? 0 - (uint64_t)(int64_t)v : (uint64_t)v, v < 0, 10, width, left);
}

/* A name from the file, its control characters escaped (pd_text.h), cut
   to PD_TEXT_CELL_MAX bytes: a name is printed on every line that names
   it, and a 64 KB one would make gigabytes of a small file. */
static void put_text(script_ctx *c, const char *s, size_t n);
static void put_name(script_ctx *c, const char *s, size_t n) {
    put_text(c, s, n > PD_TEXT_CELL_MAX ? PD_TEXT_CELL_MAX : n);
}
/* ... and whole, where it is printed once per record that holds it */
static void put_text(script_ctx *c, const char *s, size_t n) {
    char tmp[1024];
    if (pd_text_clean(s, n)) {
        put(c, s, n);
        return;
    }
    while (n) { /* in pieces of whole characters */
        size_t k = n > 200 ? 200 : n;
        put(c, tmp, pd_escape(tmp, sizeof tmp, s, k));
        s += k;
        n -= k;
    }
}
/* printf's "%*s" of a name from the file */
static void put_padded(script_ctx *c, const char *s, int width, int left) {
    size_t n = strnlen(s, PD_TEXT_CELL_MAX), pad = width > 0 && (size_t)width > n ? (size_t)width - n : 0;
    if (!left) while (pad--) put(c, " ", 1);
    put_name(c, s, n);
    if (left) while (pad--) put(c, " ", 1);
}
/* The text goes out in blocks: a line is done, the block is written
   when it is large (flush_out writes whatever is left). */
static void flush_out(script_ctx *c) {
    if (c->len) fwrite(c->buf, 1, c->len, stdout);
    c->len = 0;
}
static void flush_line(script_ctx *c) {
    if (c->len >= ((size_t)1 << 16)) flush_out(c);
}

static int type_of(const perfdata_attr *a) {
    if (a->type == PERF_TYPE_SYNTH) return T_SYNTH;
    return a->type < 6 ? (int)a->type : T_OTHER;
}

/* ------------------------------------------------------------ field lists */

/* -F [type:][+-]field,... as perf 6.1's parse_output_fields: a list
   replaces the kind's fields (all kinds without a type), one of +f and -f
   changes them, and the two forms do not mix; a field named in a list for
   all kinds must be in the samples, one named for a kind is left out when
   it is not; an empty list for a kind shows none of its events, and wants
   one. */
static int parse_fields(script_ctx *c, const char *arg) {
    char buf[1024], *tok, *save = NULL;
    int type = -1, j, change = 0; /* 0 none yet, 2 set, 1 add, -1 remove */
    const char *colon = strchr(arg, ':');
    if (strlen(arg) >= sizeof buf) {
        fprintf(stderr, "perfdata script: -F: list too long\n");
        return -1;
    }
    if (colon) {
        size_t n = (size_t)(colon - arg);
        for (j = 0; j < NTYPES; j++)
            if (type_names[j] && strlen(type_names[j]) == n && !strncmp(arg, type_names[j], n)) type = j;
        if (type < 0) {
            fprintf(stderr, "perfdata script: -F: invalid event type '%.*s' (hw, sw, trace, raw, break, synth)\n",
                    (int)n, arg);
            return -1;
        }
        arg = colon + 1;
    } else if (!*arg) {
        fprintf(stderr, "perfdata script: -F: cannot set fields to none for all event types\n");
        return -1;
    }
    strcpy(buf, arg);
    /* perf keeps the defaults when the list holds a + or - anywhere */
    if (!strchr(buf, '+') && !strchr(buf, '-'))
        for (j = 0; j < NTYPES; j++) {
            if (type >= 0 && j != type) continue;
            c->out[j].fields = 0;
            c->out[j].user_fields = 0;
            c->out[j].user_set = 1;
            c->out[j].wildcard_set = type < 0;
        }
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        size_t i;
        unsigned f = 0;
        if (*tok == '+' || *tok == '-') {
            if (change == 2) goto badmix;
            change = *tok == '+' ? 1 : -1;
            tok++;
        } else {
            if (change == 1 || change == -1) goto badmix;
            change = 2;
        }
        for (i = 0; i < NFIELD_NAMES; i++)
            if (!strcmp(tok, field_names[i].name)) f = field_names[i].field;
        if (!f) {
            char name[256];
            fprintf(stderr, "perfdata script: -F: unknown or unsupported field '%s'\n", pd_escaped(name, sizeof name, tok));
            return -1;
        }
        for (j = 0; j < NTYPES; j++) {
            if (type >= 0 && j != type) continue;
            if (invalid_fields[j] & f) {
                if (type >= 0) {
                    fprintf(stderr, "perfdata script: -F: '%s' not valid for %s events\n", tok, type_names[j]);
                    return -1;
                }
                continue; /* perf warns and ignores it for this kind */
            }
            if (change < 0) {
                c->out[j].fields &= ~f;
                c->out[j].user_fields &= ~f;
            } else {
                c->out[j].fields |= f;
                if (type < 0) c->out[j].user_fields |= f;
            }
            c->out[j].user_set = 1;
            c->out[j].wildcard_set = 1;
        }
    }
    return 0;
badmix:
    fprintf(stderr, "perfdata script: -F: cannot mix +-field with overridden fields\n");
    return -1;
}

static const struct { unsigned field; uint64_t sample; const char *what, *name; } needs[] = {
    {F_IP, PERFDATA_SAMPLE_IP, "IP", "ip"},
    {F_ADDR, PERFDATA_SAMPLE_ADDR, "ADDR", "addr"},
    {F_DATA_SRC, PERFDATA_SAMPLE_DATA_SRC, "DATA_SRC", "data_src"},
    {F_WEIGHT, PERFDATA_SAMPLE_WEIGHT | PERFDATA_SAMPLE_WEIGHT_STRUCT, "WEIGHT", "weight"},
    {F_PID | F_TID, PERFDATA_SAMPLE_TID, "TID", "tid"},
    {F_TIME, PERFDATA_SAMPLE_TIME, "TIME", "time"},
    {F_CPU, PERFDATA_SAMPLE_CPU, "CPU", "cpu"},
    {F_PHYS_ADDR, PERFDATA_SAMPLE_PHYS_ADDR, "PHYS_ADDR", "phys_addr"},
    {F_INS_LAT, PERFDATA_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT", "ins_lat"},
    {F_PAGE_SIZES, PERFDATA_SAMPLE_DATA_PAGE_SIZE | PERFDATA_SAMPLE_CODE_PAGE_SIZE, "PAGE_SIZE", "data_page_size"},
};

/* perf_session__check_output_opt: each kind's list checked against the
   first event of that kind; a field the samples lack is left out of a
   default list, and refused when -F asked for it. */
static int prepare_fields(script_ctx *c) {
    const perfdata_file *f = c->s->file;
    size_t e, i;
    int j, callchains = 0;
    char name[1024];
    c->prepared = 1;
    for (j = 0; j < NTYPES; j++) {
        const perfdata_attr *a = NULL;
        out_type *o = &c->out[j];
        size_t ev = 0;
        for (e = 0; e < f->nr_events && !a; e++)
            if (type_of(&f->events[e].attr) == j) a = &f->events[ev = e].attr;
        /* perf checks before a pipe's events arrive: there, none exists */
        if ((!a || (f->flags & PERFDATA_FILE_PIPE)) && o->user_set && !o->wildcard_set) {
            fprintf(stderr, "perfdata script: -F %s: the file has no %s events\n", type_names[j] ? type_names[j] : "",
                    type_names[j] ? type_names[j] : "such");
            return -1;
        }
        if (!a || !o->fields) continue;
        /* a pipe's events are checked as they come, those that sample nothing not at all */
        if ((f->flags & PERFDATA_FILE_PIPE) && !a->sample_type) continue;
        if (c->stat) continue;
        if ((o->fields & F_TRACE) && !c->have_tracing) {
            fprintf(stderr, "perfdata script: no tracing data in the file: its tracepoint fields cannot be printed\n");
            return -1;
        }
        for (i = 0; i < sizeof needs / sizeof needs[0]; i++) {
            if (!(o->fields & needs[i].field) || (a->sample_type & needs[i].sample)) continue;
            /* perf lets -F ask for ADDR and CPU of AUX trace files */
            if ((needs[i].field & (F_ADDR | F_CPU)) && (o->user_fields & needs[i].field) && c->auxtrace) continue;
            if (o->user_fields & needs[i].field) {
                fprintf(stderr, "perfdata script: samples for '%s' event do not have %s attribute set: cannot print '%s' field\n",
                        pd_escaped(name, sizeof name, pd_event_name(c->s, ev)), needs[i].what, needs[i].name);
                return -1;
            }
            o->fields &= ~needs[i].field;
        }
        if ((o->fields & (F_SYM | F_DSO)) && !(a->sample_type & (PERFDATA_SAMPLE_IP | PERFDATA_SAMPLE_ADDR))) {
            fprintf(stderr, "perfdata script: -F %s: the samples have neither IP nor ADDR to convert\n",
                    (o->fields & F_SYM) ? "sym" : "dso");
            return -1;
        }
        if ((o->fields & F_SYMOFF) && !(o->fields & F_SYM)) {
            fprintf(stderr, "perfdata script: -F symoff needs sym\n");
            return -1;
        }
        if ((o->fields & F_SRCLINE) && !(o->fields & F_IP)) {
            fprintf(stderr, "perfdata script: -F srcline needs ip (the address to look the line up for)\n");
            return -1;
        }
    }
    for (e = 0; e < f->nr_events; e++)
        if (f->events[e].attr.sample_type & PERFDATA_SAMPLE_CALLCHAIN) callchains = 1;
    c->use_callchain = !c->no_callchain && (callchains || (f->flags & PERFDATA_FILE_PIPE && !f->nr_events));
    /* tracepoints print their call chain's symbols when they have one */
    if (c->use_callchain && !c->out[T_TRACE].user_set)
        for (e = 0; e < f->nr_events; e++)
            if (f->events[e].attr.type == 2 && (f->events[e].attr.sample_type & PERFDATA_SAMPLE_CALLCHAIN)) {
                c->out[T_TRACE].fields |= F_IP | F_SYM | F_SYMOFF | F_DSO;
                break;
            }
    return 0;
}

/* ------------------------------------------------------------ tracepoints */

static void load_tracing(script_ctx *c, perfdata_view data) {
    perfdata_error err;
    if (c->have_tracing) return;
    if (perfdata_tracing_parse(data, &c->tracing, &err) != PERFDATA_OK) {
        fprintf(stderr, "perfdata script: tracing data at offset %llu: %s; tracepoint fields are not printed\n",
                (unsigned long long)err.offset, err.message ? err.message : perfdata_status_name(err.code));
        c->s->partial = 1;
        return;
    }
    c->have_tracing = 1;
}

/* The formats of the event systems by id, first of a duplicate id first
   (as perfdata_tracing_find finds them), built once. */
typedef struct tp_id {
    uint64_t id;
    size_t order;
    perfdata_tp_format fmt;
    int compiled;              /* tpf and filter made (for the first event of the format) */
    pd_tpfmt *tpf;
    pd_tpfilter *filter;
} tp_id;
static int by_tp_id(const void *pa, const void *pb) {
    const tp_id *a = (const tp_id *)pa, *b = (const tp_id *)pb;
    if (a->id != b->id) return a->id < b->id ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}
static tp_id *tp_entry(script_ctx *c, uint64_t id);
static int tp_find(script_ctx *c, uint64_t id, perfdata_tp_format *out) {
    tp_id *e = tp_entry(c, id);
    if (e) *out = e->fmt;
    return e != NULL;
}
static tp_id *tp_entry(script_ctx *c, uint64_t id) {
    size_t lo = 0, hi;
    if (!c->have_tracing) return 0;
    if (!c->tp_indexed) {
        size_t st = 0, cap = 0;
        perfdata_tp_format fmt;
        c->tp_indexed = 1;
        while (perfdata_tp_format_next(&c->tracing, &st, &fmt)) {
            if (fmt.system.n == 6 && !memcmp(fmt.system.p, "ftrace", 6)) continue; /* as perfdata_tracing_find */
            if (c->ntp_ids == cap && !(c->tp_ids = (tp_id *)realloc(c->tp_ids, (cap = cap ? cap * 2 : 64) * sizeof *c->tp_ids)))
                pd_nomem();
            memset(&c->tp_ids[c->ntp_ids], 0, sizeof c->tp_ids[0]);
            c->tp_ids[c->ntp_ids].id = fmt.id;
            c->tp_ids[c->ntp_ids].order = c->ntp_ids;
            c->tp_ids[c->ntp_ids].fmt = fmt;
            c->ntp_ids++;
        }
        if (c->ntp_ids) qsort(c->tp_ids, c->ntp_ids, sizeof *c->tp_ids, by_tp_id);
    }
    hi = c->ntp_ids;
    while (lo < hi) { /* the first entry with the id */
        size_t mid = lo + (hi - lo) / 2;
        if (c->tp_ids[mid].id < id) lo = mid + 1;
        else hi = mid;
    }
    if (lo == c->ntp_ids || c->tp_ids[lo].id != id) return NULL;
    return &c->tp_ids[lo];
}

static int tp_slot(script_ctx *c, long event) {
    size_t n;
    if (event < 0) return 0;
    if ((size_t)event < c->ntp) return 1;
    n = (size_t)event + 16;
    if (!(c->tp = (pd_tpfmt **)realloc(c->tp, n * sizeof *c->tp)) ||         /* NOLINT(bugprone-sizeof-expression): pointers */
        !(c->tpf = (pd_tpfilter **)realloc(c->tpf, n * sizeof *c->tpf)) ||    /* NOLINT(bugprone-sizeof-expression): pointers */
        !(c->tp_tried = (unsigned char *)realloc(c->tp_tried, n)))
        pd_nomem();
    memset(c->tp + c->ntp, 0, (n - c->ntp) * sizeof *c->tp);   /* NOLINT(bugprone-sizeof-expression): pointers */
    memset(c->tpf + c->ntp, 0, (n - c->ntp) * sizeof *c->tpf); /* NOLINT(bugprone-sizeof-expression): pointers */
    memset(c->tp_tried + c->ntp, 0, n - c->ntp);
    c->ntp = n;
    return 1;
}

static const char *ev_name(script_ctx *c, long event);

/* The event's compiled format, or NULL (said once). */
static pd_tpfmt *tp_format(script_ctx *c, long event) {
    const perfdata_attr *a = &c->s->file->events[event].attr;
    perfdata_tp_format fmt;
    tp_id *id;
    char name[1024];
    if (!tp_slot(c, event)) return NULL;
    if (c->tp_tried[event]) return c->tp[event];
    c->tp_tried[event] = 1;
    if ((id = tp_entry(c, a->config)) == NULL) {
        fprintf(stderr, "perfdata script: no format for tracepoint %s (id %llu) in the tracing data\n",
                pd_escaped(name, sizeof name, pd_event_name(c->s, (size_t)event)), (unsigned long long)a->config);
        c->s->partial = 1;
        return NULL;
    }
    if (id->compiled) { /* an earlier event of the same format: compiled once, shared */
        c->tp[event] = id->tpf;
        c->tpf[event] = id->filter;
        return c->tp[event];
    }
    fmt = id->fmt;
    id->compiled = 1;
    c->tp[event] = id->tpf = pd_tpfmt_compile(&c->tracing, &fmt);
    if (pd_tpfmt_unsupported(c->tp[event])) {
        fprintf(stderr, "perfdata script: %s: its print format uses %s, not supported: its fields are printed as name=value\n",
                pd_escaped(name, sizeof name, ev_name(c, event)), pd_tpfmt_unsupported(c->tp[event]));
    }
    if (c->tp_filter) {
        char why[256];
        c->tpf[event] = id->filter = pd_tpfilter_compile(&fmt, c->tp_filter, why, sizeof why);
        /* an event without a field the filter names matches nothing; an
           expression that does not parse is the user's error */
        if (!c->tpf[event] && !strncmp(why, "unknown field", 13)) {
            fprintf(stderr, "perfdata script: --filter: %s has no %s: none of its samples match\n",
                    pd_escaped(name, sizeof name, ev_name(c, event)), why + 8);
        } else if (!c->tpf[event]) {
            fprintf(stderr, "perfdata script: --filter: %s\n", why);
            c->failed = PD_EXIT_USAGE;
        }
    }
    return c->tp[event];
}

/* The event's name as perf shows it; a tracepoint the file does not name
   (a pipe's) is "system:name" from its format, as perf names it when it
   reads the tracing data. */
static const char *ev_name(script_ctx *c, long event) {
    static char buf[512];
    const perfdata_event *e = &c->s->file->events[event];
    perfdata_tp_format fmt;
    if (e->attr.type == 2 && !e->name.n && tp_find(c, e->attr.config, &fmt)) {
        snprintf(buf, sizeof buf, "%.*s:%.*s", (int)fmt.system.n, (const char *)fmt.system.p, (int)fmt.name.n,
                 (const char *)fmt.name.p);
        return buf;
    }
    return pd_event_name(c->s, (size_t)event);
}

static int tp_ksym(void *ctx, uint64_t addr, const char **name, uint64_t *start) {
    script_ctx *c = (script_ctx *)ctx;
    pd_resolved r;
    pd_sym_resolve(&c->sym, &c->st, NULL, PERFDATA_MISC_KERNEL, addr, &r);
    if (!r.sym) return 0;
    *name = r.sym;
    *start = addr - r.sym_off;
    return 1;
}

/* ---------------------------------------------------------------- samples */

static frame *resolve_frame_in(script_ctx *c, pd_thread *t, unsigned cpumode, const uint64_t *stamp, uint64_t ip) {
    frame *e;
    if (!c->cache && !(c->cache = (frame *)calloc((size_t)1 << FRAME_CACHE_BITS, sizeof *c->cache))) pd_nomem();
    e = &c->cache[((ip ^ stamp[0] << 24 ^ stamp[1] << 44 ^ cpumode) * 0x9E3779B97F4A7C15ull) >> (64 - FRAME_CACHE_BITS)];
    if (e->used && e->ip == ip && e->cpumode == cpumode && e->stamp[0] == stamp[0] && e->stamp[1] == stamp[1])
        return e;
    pd_sym_resolve(&c->sym, &c->st, t, cpumode, ip, &e->r);
    e->used = 1;
    e->ip = ip;
    e->cpumode = cpumode;
    e->stamp[0] = stamp[0];
    e->stamp[1] = stamp[1];
    e->text_fields = 0;
    return e;
}
static frame *resolve_frame(script_ctx *c, pd_thread *t, unsigned cpumode, uint64_t ip) {
    uint64_t stamp[2];
    pd_state_stamp(&c->st, t, cpumode, stamp);
    return resolve_frame_in(c, t, cpumode, stamp, ip);
}
static const pd_resolved *resolve(script_ctx *c, pd_thread *t, unsigned cpumode, uint64_t ip) {
    return &resolve_frame(c, t, cpumode, ip)->r;
}

/* perf's dso name in a frame: the object's path; the kernel's and a
   module's bracketed name */
static const char *dso_name(const pd_resolved *r) { return r->kernel || !r->dso_path ? r->dso : r->dso_path; }

/* " sym+0xoff (dso)" as sample__fprintf_sym and sample__fprintf_callchain */
static void put_sym(script_ctx *c, unsigned fields, const pd_resolved *r) {
    if (fields & F_SYM) {
        put(c, " ", 1);
        if (r->sym) {
            put_name(c, r->sym, strlen(r->sym));
            if (fields & F_SYMOFF) putf(c, "+0x%llx", (unsigned long long)r->sym_off);
        } else {
            puts_(c, "[unknown]");
        }
    }
    if (fields & F_DSO) {
        const char *d = dso_name(r);
        put(c, " (", 2);
        put_name(c, d, strlen(d));
        put(c, ")", 1);
    }
}

/* perf's map__fprintf_srcline: "\n  file:line" of a frame with a map,
   nothing when addr2line knows nothing ("??:0"), and where perf's lookup
   fails the object and the address ("\n  libx.so[1a2b]") */
static void put_srcline(script_ctx *c, const pd_resolved *r) {
    const char *t;
    char buf[64];
    if (!r->mapped || !r->dso_path) return;
    if ((t = pd_sym_srcline(&c->sym, r)) != NULL) {
        if (strncmp(t, "??:0", 4) != 0) {
            put(c, "\n  ", 3);
            put_name(c, t, strlen(t));
        }
        return;
    }
    put(c, "\n  ", 3);
    put_name(c, r->dso, strlen(r->dso));
    snprintf(buf, sizeof buf, "[%llx]", (unsigned long long)(r->have_vaddr ? r->vaddr : r->addr));
    put(c, buf, strlen(buf));
}

static void put_frame_text(script_ctx *c, unsigned fields, frame *e, int chain);
/* put_sym's text for a cached frame, made once per frame and fields */
static void put_frame_sym(script_ctx *c, unsigned fields, frame *e) { put_frame_text(c, fields, e, 0); }
/* A call chain's line for a cached frame ("\tADDR sym+0xoff (dso)\n"),
   or (chain 0) the text after a sample's address, made once per frame,
   fields and kind */
/* perf's inline list of an unwound frame (pd_sym_inlines): a line per
   function, the inlined ones as "ADDR NAME+0xOFF (inlined)" */
static void put_inlined(script_ctx *c, unsigned fields, frame *e) {
    pd_sym_inline in[PD_SYM_INLINES_MAX];
    const pd_resolved *r = &e->r;
    size_t n = pd_sym_inlines(&c->sym, r, in, PD_SYM_INLINES_MAX), i;
    if (!n) { /* none: the frame's own line */
        if (fields & F_IP) {
            put(c, "\t", 1);
            put_num(c, r->mapped && !r->kernel && r->dso_path ? r->addr : e->ip, 0, 16, 16, 0);
        }
        put_sym(c, fields, r);
        if (fields & F_SRCLINE) put_srcline(c, r);
        put(c, "\n", 1);
        return;
    }
    for (i = 0; i < n; i++) {
        int inlined = strcmp(in[i].name, r->sym) != 0;
        if (fields & F_IP) {
            put(c, "\t", 1);
            put_num(c, r->mapped && !r->kernel && r->dso_path ? r->addr : e->ip, 0, 16, 16, 0);
        }
        if (!inlined) {
            put_sym(c, fields, r);
        } else if (fields & F_SYM) {
            put(c, " ", 1);
            put_name(c, in[i].name, strlen(in[i].name));
            if (fields & F_SYMOFF) putf(c, "+0x%llx", (unsigned long long)r->sym_off);
        }
        if (fields & F_SRCLINE) { /* the entry's own place, "??:0" too */
            put(c, "\n  ", 3);
            put_name(c, in[i].srcline, strlen(in[i].srcline));
        }
        if (inlined) puts_(c, " (inlined)");
        put(c, "\n", 1);
    }
}

static void put_frame_text(script_ctx *c, unsigned fields, frame *e, int chain) {
    unsigned want = ((fields & (F_IP | F_SYM | F_SYMOFF | F_DSO | F_SRCLINE)) | (chain ? 1u << 31 : 0) |
                     (chain == 2 ? 1u << 30 : 0)) + 1;
    if (e->text_fields != want) {
        size_t start = c->len, n;
        if (chain == 2) {
            put_inlined(c, fields, e);
        } else {
            if (chain && (fields & F_IP)) { /* user objects: the address in the object */
                const pd_resolved *r = &e->r;
                put(c, "\t", 1);
                put_num(c, r->mapped && !r->kernel && r->dso_path ? r->addr : e->ip, 0, 16, 16, 0);
            }
            put_sym(c, fields, &e->r);
            if (chain && (fields & F_SRCLINE)) put_srcline(c, &e->r);
            if (chain) put(c, "\n", 1);
        }
        n = c->len - start;
        if (!n || n > FRAME_TEXT_MAX) return; /* a name from the file may be long: not kept */
        if ((!e->text || n > e->textcap) && !(e->text = (char *)realloc(e->text, e->textcap = n))) pd_nomem();
        memcpy(e->text, c->buf + start, n);
        e->textlen = n;
        e->text_fields = want;
        return;
    }
    put(c, e->text, e->textlen);
}

/* The call chain, innermost first, a frame a line (perf's callchain
   cursor: context markers switch the mode and are not printed; at most
   127 frames) */
static void put_callchain_frames(script_ctx *c, unsigned fields, pd_thread *t, unsigned cpumode,
                                 const perfdata_sample *s);
/* A chain's raw addresses hashed in four independent lanes: one lane's
   multiply-and-mix waits for the one before, four keep the core busy
   (this runs for every sample). */
static uint64_t chain_hash(const unsigned char *p, size_t n) {
    uint64_t h[4] = {0x9E3779B97F4A7C15ull, 0xC2B2AE3D27D4EB4Full, 0x165667B19E3779F9ull, 0x27D4EB2F165667C5ull};
    size_t i = 0;
    int k;
    for (; i + 32 <= n; i += 32) {
        for (k = 0; k < 4; k++) {
            uint64_t w;
            memcpy(&w, p + i + 8 * (size_t)k, 8);
            h[k] = (h[k] ^ w) * 0xff51afd7ed558ccdull;
            h[k] ^= h[k] >> 32;
        }
    }
    for (k = 0; i + 8 <= n; i += 8, k++) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h[k] = (h[k] ^ w) * 0xff51afd7ed558ccdull;
        h[k] ^= h[k] >> 32;
    }
    return (h[0] ^ (h[1] << 17 | h[1] >> 47) ^ (h[2] << 31 | h[2] >> 33) ^ (h[3] << 47 | h[3] >> 17) ^ n) *
           0xC4CEB9FE1A85EC53ull;
}

/* --call-graph dwarf: the user frames unwound from the sample's registers
   and stack copy, after the frames the kernel recorded */
static int unwinds(const script_ctx *c, const perfdata_sample *s) { return pd_sym_unwinds(s, c->s->arch); }
static void put_unwound(script_ctx *c, unsigned fields, pd_thread *t, const perfdata_sample *s) {
    uint64_t ips[PD_UNWIND_MAX], stamp[2];
    size_t n = pd_sym_unwind(&c->sym, &c->st, t, s, c->s->arch, ips, PD_UNWIND_MAX), i;
    pd_state_stamp(&c->st, t, PERFDATA_MISC_USER, stamp);
    /* with perf's inlined frames (its --inline, on by default) */
    for (i = 0; i < n; i++) put_frame_text(c, fields, resolve_frame_in(c, t, PERFDATA_MISC_USER, stamp, ips[i]), 2);
}

static void put_callchain(script_ctx *c, unsigned fields, pd_thread *t, unsigned cpumode, const perfdata_sample *s) {
    const perfdata_view *raw = &s->callchain.bytes;
    uint64_t h, ugen = t && t->maps ? t->maps->gen : 0, kgen = c->st.kernel.gen;
    size_t i, start;
    chain_text *e;
    if (unwinds(c, s)) { /* each stack its own: not cached */
        put_callchain_frames(c, fields, t, cpumode, s);
        put_unwound(c, fields, t, s);
        return;
    }
    if ((s->sample_type & PERFDATA_SAMPLE_STACK_USER) && s->stack_user.n) c->dwarf_samples++;
    if (!s->callchain.count || s->callchain.count > CHAIN_CACHED_MAX || cpumode == PERFDATA_MISC_GUEST_KERNEL ||
        cpumode == PERFDATA_MISC_GUEST_USER) {
        put_callchain_frames(c, fields, t, cpumode, s);
        return;
    }
    h = chain_hash(raw->p, raw->n);
    h ^= (uint64_t)fields << 40 ^ (uint64_t)cpumode << 56 ^ (uint64_t)s->callchain.big_endian << 60;
    if (!c->chains && !(c->chains = (chain_text *)calloc(CHAIN_CACHE, sizeof *c->chains))) pd_nomem();
    e = &c->chains[(h ^ ugen * 0x9E3779B97F4A7C15ull ^ kgen << 20) % CHAIN_CACHE];
    if (e->text && e->hash == h && e->user_gen == ugen && e->kernel_gen == kgen && e->cpumode == cpumode &&
        e->fields == fields && e->rawlen == raw->n && !memcmp(e->text + e->textlen, raw->p, raw->n)) {
        put(c, e->text, e->textlen);
        return;
    }
    start = c->len;
    put_callchain_frames(c, fields, t, cpumode, s);
    /* a chain whose frames met a guest or hypervisor marker is not cached:
       their state is not in the stamps */
    for (i = 0; i < s->callchain.count; i++) {
        uint64_t ip = perfdata_u64s_at(&s->callchain, i);
        if (ip >= PERFDATA_CONTEXT_MAX && ip != PERFDATA_CONTEXT_KERNEL && ip != PERFDATA_CONTEXT_USER) return;
    }
    if (c->len == start || c->len - start > CHAIN_TEXT_MAX) return; /* nothing to keep, or too much */
    if ((!e->text || c->len - start + raw->n > e->cap) && !(e->text = (char *)realloc(e->text, e->cap = c->len - start + raw->n)))
        pd_nomem();
    memcpy(e->text, c->buf + start, c->len - start);
    if (raw->n) memcpy(e->text + (c->len - start), raw->p, raw->n);
    e->rawlen = raw->n;
    e->textlen = c->len - start;
    e->hash = h;
    e->user_gen = ugen;
    e->kernel_gen = kgen;
    e->cpumode = cpumode;
    e->fields = fields;
}

static void put_callchain_frames(script_ctx *c, unsigned fields, pd_thread *t, unsigned cpumode,
                                 const perfdata_sample *s) {
    size_t i, depth = 0, nr = s->callchain.count, start = c->len;
    uint64_t stamp[2];
    pd_state_stamp(&c->st, t, cpumode, stamp);
    for (i = 0; i < nr && depth < 127; i++) {
        uint64_t ip = perfdata_u64s_at(&s->callchain, i);
        frame *e;
        if (ip >= PERFDATA_CONTEXT_MAX) {
            if (ip == PERFDATA_CONTEXT_KERNEL) cpumode = PERFDATA_MISC_KERNEL;
            else if (ip == PERFDATA_CONTEXT_USER) cpumode = PERFDATA_MISC_USER;
            else if (ip == PERFDATA_CONTEXT_HV) cpumode = PERFDATA_MISC_HYPERVISOR;
            else { /* perf 6.1 (add_callchain_ip): "the callchain is corrupted", none of it is shown */
                c->len = start;
                return;
            }
            pd_state_stamp(&c->st, t, cpumode, stamp);
            continue;
        }
        depth++;
        e = resolve_frame_in(c, t, cpumode, stamp, ip);
        put_frame_text(c, fields, e, 1);
    }
}

/* "%12s: " of "secs.usecs", or with --ns "%5llu.%09llu: " (the seconds'
   digits are kept: consecutive samples share them) */
static void put_time(script_ctx *c, uint64_t t) {
    static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                "4041424344454647484950515253545556575859606162636465666768697071727374757677787980"
                                "81828384858687888990919293949596979899";
    uint64_t secs = t / 1000000000u;
    uint32_t frac = (uint32_t)(t % 1000000000u);
    int digits = c->ns ? 9 : 6, k;
    char tmp[16], *p = tmp + sizeof tmp;
    size_t n, pad, width;
    if (!c->time_secs_len || c->time_secs != secs) {
        char *e = c->time_secs_text + sizeof c->time_secs_text, *q = e;
        uint64_t v = secs;
        do {
            *--q = (char)('0' + v % 10);
            v /= 10;
        } while (v);
        c->time_secs_len = (size_t)(e - q);
        memmove(c->time_secs_text, q, c->time_secs_len);
        c->time_secs = secs;
    }
    if (!c->ns) frac /= 1000u;
    for (k = digits; k >= 2; k -= 2) {
        p -= 2;
        memcpy(p, pairs + 2 * (frac % 100), 2);
        frac /= 100;
    }
    if (k) *--p = (char)('0' + frac);
    n = c->time_secs_len + 1 + (size_t)digits;
    width = c->ns ? 5 + 10 : 12;
    pad = width > n ? width - n : 0;
    reserve(c, n + pad + 2);
    memset(c->buf + c->len, ' ', pad);
    c->len += pad;
    memcpy(c->buf + c->len, c->time_secs_text, c->time_secs_len);
    c->len += c->time_secs_len;
    c->buf[c->len++] = '.';
    memcpy(c->buf + c->len, p, (size_t)digits);
    c->len += (size_t)digits;
    memcpy(c->buf + c->len, ": ", 2);
    c->len += 2;
}

/* The command as perf pads it ("%16s " or, before a call chain, "%s "),
   escaped, from a cache keyed by the interned pointer */
static void put_comm(script_ctx *c, const char *comm, int width) {
    comm_text *e;
    if (!c->comms && !(c->comms = (comm_text *)calloc(COMM_CACHE, sizeof *c->comms))) pd_nomem();
    e = &c->comms[((uintptr_t)comm >> 4 ^ (uintptr_t)width) % COMM_CACHE];
    if (e->comm != comm || e->width != width) {
        size_t start = c->len, n;
        put_padded(c, comm, width, 0);
        put(c, " ", 1);
        n = c->len - start;
        e->comm = NULL;
        if (n <= sizeof e->text) {
            memcpy(e->text, c->buf + start, n);
            e->len = n;
            e->comm = comm;
            e->width = width;
        }
        return;
    }
    put(c, e->text, e->len);
}

static void put_start_text(script_ctx *c, unsigned fields, const char *comm, int width, int32_t pid, int32_t tid,
                           uint32_t cpu);
/* perf_sample__fprintf_start: comm, pid/tid, cpu, time */
static void put_start(script_ctx *c, unsigned fields, long event, pd_thread *t, int32_t pid, int32_t tid, uint32_t cpu,
                      uint64_t time) {
    const char *comm = NULL;
    int width = 0;
    size_t start = c->len, n;
    start_text *e;
    if (fields & F_COMM) {
        const perfdata_file *f = c->s->file;
        int chain = event >= 0 && (size_t)event < f->nr_events &&
                    (f->events[event].attr.sample_type & PERFDATA_SAMPLE_CALLCHAIN);
        comm = t ? pd_state_comm(&c->st, t) : ":-1";
        width = (fields & F_IP) && chain && c->use_callchain ? 0 : 16;
    }
    if (!c->starts && !(c->starts = (start_text *)calloc(START_CACHE, sizeof *c->starts))) pd_nomem();
    e = &c->starts[cpu % START_CACHE];
    if (e->len && e->comm == comm && e->width == width && e->pid == pid && e->tid == tid && e->cpu == cpu &&
        e->fields == fields) {
        put(c, e->text, e->len);
    } else {
        put_start_text(c, fields, comm, width, pid, tid, cpu);
        n = c->len - start;
        e->len = 0;
        if (n && n <= sizeof e->text) { /* nothing to keep when no field was printed */
            memcpy(e->text, c->buf + start, n);
            e->len = n;
            e->comm = comm;
            e->width = width;
            e->pid = pid;
            e->tid = tid;
            e->cpu = cpu;
            e->fields = fields;
        }
    }
    if (fields & F_TIME) put_time(c, time);
}

/* comm, pid/tid and cpu */
static void put_start_text(script_ctx *c, unsigned fields, const char *comm, int width, int32_t pid, int32_t tid,
                           uint32_t cpu) {
    if (fields & F_COMM) put_comm(c, comm, width);
    if ((fields & F_PID) && (fields & F_TID)) {
        put_int(c, pid, 5, 0);
        put(c, "/", 1);
        put_int(c, tid, 5, 1);
        put(c, " ", 1);
    } else if (fields & (F_PID | F_TID)) {
        put_int(c, (fields & F_PID) ? pid : tid, 5, 0);
        put(c, " ", 1);
    }
    if (fields & F_CPU) {
        if (cpu < 1000) {
            char tmp[7] = {'[', (char)('0' + cpu / 100), (char)('0' + cpu / 10 % 10), (char)('0' + cpu % 10), ']', ' ', 0};
            put(c, tmp, 6);
        } else {
            putf(c, "[%03d] ", (int)cpu);
        }
    }
}

static unsigned fields_of(script_ctx *c, long event) {
    const perfdata_file *f = c->s->file;
    if (event < 0 || (size_t)event >= f->nr_events) event = 0;
    if (!f->nr_events) return 0;
    return c->out[type_of(&f->events[event].attr)].fields;
}

static void said_field(script_ctx *c, unsigned missing) {
    size_t i;
    if (!(missing & ~c->said_fields)) return;
    c->said_fields |= missing;
    fprintf(stderr, "perfdata script: not printed (not supported yet):");
    if (missing & F_DATA_SRC) fprintf(stderr, " data_src");
    if (missing & F_PAGE_SIZES) fprintf(stderr, " data_page_size code_page_size");
    if (missing & F_BPF_OUTPUT) fprintf(stderr, " bpf-output");
    if (missing & F_SYNTH) fprintf(stderr, " synth");
    (void)i;
    fprintf(stderr, "\n");
    c->s->partial = 1;
}

static void print_sample(script_ctx *c, const perfdata_record *rec, const perfdata_sample *s, long event,
                         uint64_t period) {
    const perfdata_file *f = c->s->file;
    unsigned cpumode = rec->misc & PERFDATA_MISC_CPUMODE_MASK;
    unsigned fields = fields_of(c, event);
    const perfdata_attr *a = &f->events[event].attr;
    pd_thread *t;
    if (!fields) return; /* perf shows no event of a kind given no fields */
    t = pd_state_thread(&c->st, (int32_t)s->pid, (int32_t)s->tid);
    pd_tpfmt *tp = NULL;
    int chain;
    /* perf script leaves out guest samples when it keeps no guest machine */
    if (cpumode == PERFDATA_MISC_GUEST_KERNEL || cpumode == PERFDATA_MISC_GUEST_USER) return;
    if (!pd_filter_sample(&c->filter, s)) return;
    if (c->filter.active) {
        const pd_resolved *r = resolve(c, t, cpumode, s->ip);
        if (!pd_filter_entry(&c->filter, pd_state_comm(&c->st, t), (int32_t)s->pid, (int32_t)s->tid, r->dso,
                             r->dso_path, r->sym))
            return;
        t = pd_state_thread(&c->st, (int32_t)s->pid, (int32_t)s->tid);
    }
    if (a->type == 2 && (s->sample_type & PERFDATA_SAMPLE_RAW)) {
        tp = tp_format(c, event);
        if (c->tp_filter) {
            if (!c->tpf[event] || !pd_tpfilter_match(c->tpf[event], s->raw, s->raw_big_endian)) return;
        }
    } else if (c->tp_filter) {
        return; /* perf's --filter applies to tracepoints; others have no fields to match */
    }
    if (fields & F_UNSUPPORTED & ~(F_DATA_SRC & 0)) {
        unsigned missing = fields & F_UNSUPPORTED;
        if ((missing & F_DATA_SRC) && !(s->sample_type & PERFDATA_SAMPLE_DATA_SRC)) missing &= ~F_DATA_SRC;
        if ((missing & F_PAGE_SIZES) &&
            !(s->sample_type & (PERFDATA_SAMPLE_DATA_PAGE_SIZE | PERFDATA_SAMPLE_CODE_PAGE_SIZE)))
            missing &= ~F_PAGE_SIZES;
        if ((missing & F_BPF_OUTPUT) && !(s->sample_type & PERFDATA_SAMPLE_RAW)) missing &= ~F_BPF_OUTPUT;
        if (missing) said_field(c, missing);
    }
    /* what perf's sample holds for a field the event does not sample */
    put_start(c, fields, event, t, (s->sample_type & PERFDATA_SAMPLE_TID) ? (int32_t)s->pid : -1,
              (s->sample_type & PERFDATA_SAMPLE_TID) ? (int32_t)s->tid : -1,
              (s->sample_type & PERFDATA_SAMPLE_CPU) ? s->cpu : (uint32_t)-1,
              (s->sample_type & PERFDATA_SAMPLE_TIME) ? s->time : (uint64_t)-1);
    if (fields & F_PERIOD) {
        put_num(c, period, 0, 10, 10, 0);
        put(c, " ", 1);
    }
    if (fields & F_EVNAME) {
        const char *name;
        if (!c->name_width) {
            size_t e, w = 0;
            for (e = 0; e < f->nr_events; e++) {
                size_t n = strnlen(ev_name(c, (long)e), PD_TEXT_CELL_MAX);
                if (n > w) w = n;
            }
            c->name_width = (int)w;
        }
        if ((size_t)event >= c->nevtext) {
            size_t n = (size_t)event + 16;
            if (!(c->evtext = (char **)realloc(c->evtext, n * sizeof *c->evtext)) ||
                !(c->evlen = (size_t *)realloc(c->evlen, n * sizeof *c->evlen)))
                pd_nomem();
            memset(c->evtext + c->nevtext, 0, (n - c->nevtext) * sizeof *c->evtext);
            c->nevtext = n;
        }
        if (!c->evtext[event]) {
            size_t start = c->len;
            name = ev_name(c, event);
            put_padded(c, name, c->name_width, 0);
            put(c, ": ", 2);
            c->evlen[event] = c->len - start;
            if (!(c->evtext[event] = (char *)malloc(c->evlen[event]))) pd_nomem();
            memcpy(c->evtext[event], c->buf + start, c->evlen[event]);
        } else {
            put(c, c->evtext[event], c->evlen[event]);
        }
    }
    if ((fields & F_TRACE) && (s->sample_type & PERFDATA_SAMPLE_RAW) && tp) {
        c->tlen = 0;
        /* perf resolves kernel addresses in a pipe's tracepoints only after its
           tracing data came, which is too late: it prints them as numbers */
        pd_tpfmt_print(tp, s->raw, s->raw_big_endian, (f->flags & PERFDATA_FILE_PIPE) ? NULL : tp_ksym, c, &c->tbuf,
                       &c->tlen, &c->tcap);
        if (c->tlen >= PD_TPFMT_TEXT_MAX) { /* a print fmt from the file could repeat a long text per sample */
            c->s->partial = 1;
            if (!c->said_trace_cut) {
                fprintf(stderr, "perfdata script: a tracepoint's text is cut to %d bytes\n", PD_TPFMT_TEXT_MAX);
                c->said_trace_cut = 1;
            }
        }
        put(c, c->tbuf, c->tlen);
    }
    if (fields & F_ADDR) {
        put_num(c, s->addr, 0, 16, 16, 0);
        /* perf_sample__fprintf_addr: a page fault's address is resolved,
           in the sample's mode or else the one its address is in */
        if ((fields & (F_SYM | F_DSO)) && a->type == 1 && (a->config == 2 || a->config == 5 || a->config == 6)) {
            pd_resolved r;
            pd_sym_resolve(&c->sym, &c->st, t, cpumode, s->addr, &r);
            if (!r.mapped) {
                unsigned mode = s->addr >= 0xffff800000000000ull ? PERFDATA_MISC_KERNEL : PERFDATA_MISC_USER;
                if (mode != cpumode) pd_sym_resolve(&c->sym, &c->st, t, mode, s->addr, &r);
            }
            put_sym(c, fields, &r);
        }
    }
    if (fields & F_WEIGHT) putf(c, "%16llu", (unsigned long long)s->weight);
    if (fields & F_INS_LAT) putf(c, "%16u", (unsigned)s->ins_lat);
    if (fields & F_IP) {
        chain = c->use_callchain && (s->sample_type & PERFDATA_SAMPLE_CALLCHAIN);
        if (chain) {
            put(c, "\n", 1);
            put_callchain(c, fields, t, cpumode, s);
        } else {
            put(c, " ", 1);
            put_num(c, s->ip, 0, 16, 16, 0);
            if (fields & (F_SYM | F_DSO)) put_frame_sym(c, fields, resolve_frame(c, t, cpumode, s->ip));
        }
    }
    if (fields & F_PHYS_ADDR) putf(c, "%16llx", (unsigned long long)s->phys_addr);
    if ((fields & F_SRCLINE) && (fields & F_IP) && !chain) put_srcline(c, &resolve_frame(c, t, cpumode, s->ip)->r);
    put(c, "\n", 1);
    flush_line(c);
}

/* perf_session__deliver_sample: a sample that reads counters stands, for
   each value read, for a sample of that value's event whose period is how
   much the counter grew since its id was last read (none when it did not
   grow, or the id is no event's); a sample without PERIOD has the attr's. */
static void on_sample(script_ctx *c, const perfdata_record *rec, const perfdata_sample *s) {
    const perfdata_file *f = c->s->file;
    size_t i;
    if (!(s->sample_type & PERFDATA_SAMPLE_READ)) {
        print_sample(c, rec, s, s->event,
                     (s->sample_type & PERFDATA_SAMPLE_PERIOD) ? s->period : f->events[s->event].attr.sample_period);
        return;
    }
    for (i = 0; i < s->read.nr; i++) {
        perfdata_read_value v = perfdata_read_at(&s->read, i);
        long ev = (s->read.read_format & PERFDATA_FORMAT_ID) ? perfdata_find_event(f, v.id) : -1;
        uint64_t *last, period;
        if (ev < 0) continue;
        last = pd_read_last(&c->read_ids, v.id);
        period = v.value - *last;
        *last = v.value;
        if (period) print_sample(c, rec, s, ev, period);
    }
}

/* ------------------------------------------------------- perf stat record */

/* A counter's last values per (event, cpu, thread index), as the
   STAT records give them; a STAT_ROUND prints every event's, as perf
   script's process_stat does. */
typedef struct stat_count { long event; uint32_t cpu, thread; uint64_t val, ena, run; int used; } stat_count;
/* perf prints threads x cpus lines per event: a file's maps may ask for
   more than any machine has; past this many a round is cut, and said */
#define STAT_LINES_MAX 65536

static stat_count *stat_slot(script_ctx *c, long event, uint32_t cpu, uint32_t thread, int add) {
    size_t i, mask;
    uint64_t h;
    if (add && (c->ncounts + 1) * 2 > c->capcounts) {
        stat_count *old = c->counts;
        size_t oldcap = c->capcounts, j;
        c->capcounts = oldcap ? oldcap * 2 : 64;
        if (!(c->counts = (stat_count *)calloc(c->capcounts, sizeof *c->counts))) pd_nomem();
        c->ncounts = 0;
        for (j = 0; j < oldcap; j++) {
            stat_count *d = old[j].used ? stat_slot(c, old[j].event, old[j].cpu, old[j].thread, 1) : NULL;
            if (d) *d = old[j];
        }
        free(old);
    }
    if (!c->capcounts) return NULL;
    mask = c->capcounts - 1;
    h = pd_hash_u64((uint64_t)event * 0x9E3779B97F4A7C15ull ^ (uint64_t)cpu << 32 ^ thread);
    for (i = (size_t)h & mask; c->counts[i].used; i = (i + 1) & mask)
        if (c->counts[i].event == event && c->counts[i].cpu == cpu && c->counts[i].thread == thread) return &c->counts[i];
    if (!add) return NULL;
    c->counts[i].used = 1;
    c->counts[i].event = event;
    c->counts[i].cpu = cpu;
    c->counts[i].thread = thread;
    c->ncounts++;
    return &c->counts[i];
}

static void stat_record(script_ctx *c, const perfdata_record *rec) {
    const perfdata_file *f = c->s->file;
    perfdata_error err;
    size_t i, e, lines = 0;
    if (rec->type == PERFDATA_RECORD_CPU_MAP) {
        /* kept as it is, expanded when a round is printed: a file may hold
           many maps of 65536 cpus and no STAT at all */
        perfdata_cpu_map m;
        if (perfdata_decode_cpu_map(f, rec, &m, &err) != PERFDATA_OK) {
            pd_session_skip(c->s, rec, &err);
            return;
        }
        if (rec->body.n > c->cpumap_cap && !(c->cpumap = (unsigned char *)realloc(c->cpumap, c->cpumap_cap = rec->body.n)))
            pd_nomem();
        memcpy(c->cpumap, rec->body.p, rec->body.n);
        c->cpumap_len = rec->body.n;
        c->cpumap_big = rec->big_endian;
        c->cpumap_new = 1;
    } else if (rec->type == PERFDATA_RECORD_THREAD_MAP) {
        perfdata_thread_map m;
        if (perfdata_decode_thread_map(f, rec, &m, &err) != PERFDATA_OK) {
            pd_session_skip(c->s, rec, &err);
            return;
        }
        free(c->threads);
        c->nthreads = m.nr < STAT_LINES_MAX ? (size_t)m.nr : STAT_LINES_MAX;
        if (!(c->threads = (int32_t *)malloc((c->nthreads ? c->nthreads : 1) * sizeof *c->threads))) pd_nomem();
        for (i = 0; i < c->nthreads; i++) c->threads[i] = (int32_t)perfdata_thread_map_at(&m, i).pid;
    } else if (rec->type == PERFDATA_RECORD_STAT) {
        perfdata_stat st;
        stat_count *n;
        long ev;
        if (perfdata_decode_stat(f, rec, &st, &err) != PERFDATA_OK) {
            pd_session_skip(c->s, rec, &err);
            return;
        }
        if ((ev = perfdata_find_event(f, st.id)) < 0) return; /* perf: no counter has the id */
        if ((n = stat_slot(c, ev, st.cpu, st.thread, 1)) == NULL) return;
        n->val = st.val;
        n->ena = st.ena;
        n->run = st.run;
    } else if (rec->type == PERFDATA_RECORD_STAT_ROUND) {
        perfdata_stat_round r;
        int any_cpu = -1;
        int32_t any_thread = -1;
        if (perfdata_decode_stat_round(f, rec, &r, &err) != PERFDATA_OK) {
            pd_session_skip(c->s, rec, &err);
            return;
        }
        if (c->cpumap_new) {
            perfdata_cpu_map m;
            perfdata_view v;
            size_t st = 0, n = 0;
            int cpu;
            c->cpumap_new = 0;
            v.p = c->cpumap;
            v.n = c->cpumap_len;
            v.offset = 0;
            if (perfdata_decode_cpu_map_data(v, c->cpumap_big, &m, &err) == PERFDATA_OK) {
                while (perfdata_cpu_map_next(&m, &st, &cpu)) n++;
                free(c->cpus);
                if (!(c->cpus = (int *)malloc((n ? n : 1) * sizeof *c->cpus))) pd_nomem();
                for (st = 0, c->ncpus = 0; perfdata_cpu_map_next(&m, &st, &cpu);) c->cpus[c->ncpus++] = cpu;
            }
        }
        if (!c->stat_header) {
            putf(c, "%3s %8s %15s %15s %15s %15s %s\n", "CPU", "THREAD", "VAL", "ENA", "RUN", "TIME", "EVENT");
            c->stat_header = 1;
        }
        for (e = 0; e < f->nr_events; e++) {
            size_t nt = c->nthreads ? c->nthreads : 1, nc = c->ncpus ? c->ncpus : 1, t, k;
            char buf[1024];
            const char *name = pd_escaped(buf, sizeof buf, ev_name(c, (long)e));
            for (t = 0; t < nt; t++)
                for (k = 0; k < nc; k++) {
                    const stat_count *n = stat_slot(c, (long)e, (uint32_t)(c->ncpus ? c->cpus[k] : any_cpu), (uint32_t)t, 0);
                    if (++lines > STAT_LINES_MAX) {
                        fprintf(stderr, "perfdata script: a stat round of more than %d lines (the file's cpu and thread "
                                        "maps) is cut there\n", STAT_LINES_MAX);
                        c->s->partial = 1;
                        return;
                    }
                    putf(c, "%3d %8d %15llu %15llu %15llu %15llu %s\n", c->ncpus ? c->cpus[k] : any_cpu,
                           (int)(c->nthreads ? c->threads[t] : any_thread), (unsigned long long)(n ? n->val : 0),
                           (unsigned long long)(n ? n->ena : 0), (unsigned long long)(n ? n->run : 0),
                           (unsigned long long)r.time, name);
                    flush_line(c);
                }
        }
    }
}

/* ---------------------------------------------------------- side-band lines */

/* The pid, tid, cpu and time a side-band line starts with: from its
   sample_id_all trailer, else the record's own ids at cpu 0 */
static void put_event_start(script_ctx *c, const perfdata_record *rec, int32_t pid, int32_t tid, uint64_t time,
                            long *event_out, pd_thread *t) {
    perfdata_sample_id sid;
    perfdata_error err;
    long event = 0;
    int32_t spid = pid, stid = tid;
    uint32_t cpu = 0;
    uint64_t stime = time;
    const perfdata_file *f = c->s->file;
    if (perfdata_decode_sample_id(f, rec, &sid, &err) == PERFDATA_OK && sid.sample_type) {
        event = sid.event >= 0 ? sid.event : 0;
        spid = (sid.sample_type & PERFDATA_SAMPLE_TID) ? (int32_t)sid.pid : -1;
        stid = (sid.sample_type & PERFDATA_SAMPLE_TID) ? (int32_t)sid.tid : -1;
        cpu = (sid.sample_type & PERFDATA_SAMPLE_CPU) ? sid.cpu : (uint32_t)-1;
        stime = (sid.sample_type & PERFDATA_SAMPLE_TIME) ? sid.time : (uint64_t)-1;
    } else if (f->nr_events && (f->events[0].attr.flags & PERFDATA_ATTR_FLAG_SAMPLE_ID_ALL)) {
        spid = stid = -1;
        cpu = (uint32_t)-1;
        stime = (uint64_t)-1;
    }
    *event_out = event;
    put_start(c, fields_of(c, event), event, t, spid, stid, cpu, stime);
}

static int cpu_kept(script_ctx *c, const perfdata_record *rec) {
    perfdata_sample_id sid;
    perfdata_error err;
    size_t i;
    if (!c->filter.cpus) return 1;
    if (perfdata_decode_sample_id(c->s->file, rec, &sid, &err) != PERFDATA_OK || !(sid.sample_type & PERFDATA_SAMPLE_CPU))
        return 1;
    for (i = 0; i < c->filter.ncpus; i++)
        if (sid.cpu >= c->filter.cpus[i].lo && sid.cpu <= c->filter.cpus[i].hi) return 1;
    return 0;
}

/* perf_event__fprintf's text after the record's name */
static void put_body(script_ctx *c, const perfdata_record *rec) {
    const perfdata_file *f = c->s->file;
    perfdata_error err;
    size_t i;
    char tmp[128];
    snprintf(tmp, sizeof tmp, "PERF_RECORD_%s", perfdata_record_name(rec->type));
    puts_(c, tmp);
    switch (rec->type) {
    case PERFDATA_RECORD_MMAP:
    case PERFDATA_RECORD_MMAP2: {
        perfdata_mmap m;
        if (perfdata_decode_mmap(f, rec, &m, &err) != PERFDATA_OK) break;
        if (rec->type == PERFDATA_RECORD_MMAP) {
            putf(c, " %d/%d: [%#llx(%#llx) @ %#llx]: %c ", (int)m.pid, (int)m.tid, (unsigned long long)m.addr,
                 (unsigned long long)m.len, (unsigned long long)m.pgoff,
                 (rec->misc & PERFDATA_MISC_MMAP_DATA) ? 'r' : 'x');
        } else {
            putf(c, " %d/%d: [%#llx(%#llx) @ %#llx", (int)m.pid, (int)m.tid, (unsigned long long)m.addr,
                 (unsigned long long)m.len, (unsigned long long)m.pgoff);
            if (m.has_build_id) {
                put(c, " <", 2);
                for (i = 0; i < m.build_id.n; i++) putf(c, "%02x", m.build_id.p[i]);
                put(c, ">", 1);
            } else {
                putf(c, " %02x:%02x %llu %llu", m.maj, m.min, (unsigned long long)m.ino,
                     (unsigned long long)m.ino_generation);
            }
            putf(c, "]: %c%c%c%c ", (m.prot & 1) ? 'r' : '-', (m.prot & 2) ? 'w' : '-', (m.prot & 4) ? 'x' : '-',
                 (m.flags & 1) ? 's' : 'p');
        }
        put_text(c, (const char *)m.filename.p, m.filename.n);
        put(c, "\n", 1);
        return;
    }
    case PERFDATA_RECORD_COMM: {
        perfdata_comm cm;
        if (perfdata_decode_comm(f, rec, &cm, &err) != PERFDATA_OK) break;
        putf(c, "%s: ", cm.exec ? " exec" : "");
        put_text(c, (const char *)cm.comm.p, cm.comm.n);
        putf(c, ":%d/%d\n", (int)cm.pid, (int)cm.tid);
        return;
    }
    case PERFDATA_RECORD_FORK:
    case PERFDATA_RECORD_EXIT: {
        perfdata_task t;
        if (perfdata_decode_task(f, rec, &t, &err) != PERFDATA_OK) break;
        putf(c, "(%d:%d):(%d:%d)\n", (int)t.pid, (int)t.tid, (int)t.ppid, (int)t.ptid);
        return;
    }
    case PERFDATA_RECORD_LOST: {
        perfdata_lost l;
        if (perfdata_decode_lost(f, rec, &l, &err) != PERFDATA_OK) break;
        putf(c, ": id:%llu: lost:%llu\n", (unsigned long long)l.id, (unsigned long long)l.lost);
        return;
    }
    case PERFDATA_RECORD_SWITCH:
        putf(c, " %s\n", (rec->misc & PERFDATA_MISC_SWITCH_OUT) ? "OUT" : "IN ");
        return;
    default:
        break;
    }
    put(c, "\n", 1);
}

static void side_band(script_ctx *c, const perfdata_record *rec) {
    const perfdata_file *f = c->s->file;
    perfdata_error err;
    long event;
    pd_thread *t = NULL;
    switch (rec->type) {
    case PERFDATA_RECORD_COMM: {
        perfdata_comm cm;
        pd_state_update(&c->st, f, rec);
        if (!(c->show & SHOW_TASK)) return;
        if (perfdata_decode_comm(f, rec, &cm, &err) != PERFDATA_OK) {
            pd_session_skip(c->s, rec, &err);
            return;
        }
        if (!cpu_kept(c, rec)) return;
        t = pd_state_thread(&c->st, (int32_t)cm.pid, (int32_t)cm.tid);
        put_event_start(c, rec, (int32_t)cm.pid, (int32_t)cm.tid, 0, &event, t);
        break;
    }
    case PERFDATA_RECORD_FORK:
    case PERFDATA_RECORD_EXIT: {
        perfdata_task tk;
        if (rec->type == PERFDATA_RECORD_FORK) pd_state_update(&c->st, f, rec);
        if ((c->show & SHOW_TASK) && perfdata_decode_task(f, rec, &tk, &err) != PERFDATA_OK) pd_session_skip(c->s, rec, &err);
        else if ((c->show & SHOW_TASK) && cpu_kept(c, rec)) {
            t = (int32_t)tk.tid != -1 ? pd_state_thread(&c->st, (int32_t)tk.pid, (int32_t)tk.tid) : NULL;
            put_event_start(c, rec, (int32_t)tk.pid, (int32_t)tk.tid, tk.time, &event, t);
            put_body(c, rec);
            flush_line(c);
        }
        if (rec->type == PERFDATA_RECORD_EXIT) pd_state_update(&c->st, f, rec);
        return;
    }
    case PERFDATA_RECORD_MMAP:
    case PERFDATA_RECORD_MMAP2: {
        perfdata_mmap m;
        pd_state_update(&c->st, f, rec);
        if (!(c->show & SHOW_MMAP)) return;
        if (perfdata_decode_mmap(f, rec, &m, &err) != PERFDATA_OK) {
            pd_session_skip(c->s, rec, &err);
            return;
        }
        if (!cpu_kept(c, rec)) return;
        t = (int32_t)m.tid != -1 ? pd_state_thread(&c->st, (int32_t)m.pid, (int32_t)m.tid) : NULL;
        put_event_start(c, rec, (int32_t)m.pid, (int32_t)m.tid, 0, &event, t);
        break;
    }
    case PERFDATA_RECORD_LOST:
        if (!(c->show & SHOW_LOST) || !cpu_kept(c, rec)) return;
        put_event_start(c, rec, -1, -1, 0, &event, NULL);
        break;
    default:
        pd_state_update(&c->st, f, rec);
        return;
    }
    put_body(c, rec);
    flush_line(c);
}

static void on_record(void *ctx, const perfdata_record *rec, const char *name) {
    script_ctx *c = (script_ctx *)ctx;
    perfdata_sample s;
    perfdata_error err;
    (void)name;
    if (c->failed) return;
    if (rec->type == PERFDATA_RECORD_HEADER_FEATURE) {
        perfdata_header_feature hf;
        if (perfdata_decode_header_feature(c->s->file, rec, &hf, NULL) == PERFDATA_OK) {
            if (hf.feat_id == PERFDATA_FEAT_STAT) c->stat = 1;
            if (hf.feat_id == PERFDATA_FEAT_AUXTRACE) c->auxtrace = 1;
        }
        return;
    }
    if (rec->type == PERFDATA_RECORD_HEADER_TRACING_DATA) {
        perfdata_tracing_data td;
        if (perfdata_decode_tracing_data(c->s->file, rec, &td, &err) == PERFDATA_OK) load_tracing(c, td.data);
        else pd_session_skip(c->s, rec, &err);
        return;
    }
    if (!c->prepared && (rec->type < 64 || rec->type == PERFDATA_RECORD_SAMPLE) && c->s->file->nr_events &&
        prepare_fields(c) != 0) {
        c->failed = 1;
        return;
    }
    if (rec->type == PERFDATA_RECORD_CPU_MAP || rec->type == PERFDATA_RECORD_THREAD_MAP ||
        rec->type == PERFDATA_RECORD_STAT || rec->type == PERFDATA_RECORD_STAT_ROUND) {
        stat_record(c, rec);
        return;
    }
    if (rec->type != PERFDATA_RECORD_SAMPLE) {
        pd_sym_record(&c->sym, rec);
        if (rec->type < 64) side_band(c, rec);
        else pd_state_update(&c->st, c->s->file, rec);
        return;
    }
    if (perfdata_decode_sample(c->s->file, rec, &s, &err) != PERFDATA_OK) pd_session_skip(c->s, rec, &err);
    else on_sample(c, rec, &s);
}

/* ---------------------------------------------------------------- command */

enum { SCRIPT_FIELDS = 1, SCRIPT_SHOW_TASK, SCRIPT_SHOW_MMAP, SCRIPT_SHOW_LOST, SCRIPT_NS, SCRIPT_NO_CALLCHAIN,
       SCRIPT_FILTER, SCRIPT_KALLSYMS, SCRIPT_SYMFS, SCRIPT_SYMDIR, SCRIPT_NO_DEMANGLE,
       SCRIPT_INLINE, SCRIPT_NO_INLINE };

static const pd_opt script_opts[] = {
    {'F', SCRIPT_FIELDS, "fields", "LIST", "perf script's fields: [hw:|sw:|trace:|raw:|break:]comm,tid,pid,time,cpu,\n"
     "                            event,trace,ip,sym,symoff,dso,addr,period,weight,phys_addr,ins_lat,\n"
     "                            srcline; +f adds, -f removes"},
    {0, SCRIPT_SHOW_TASK, "show-task-events", NULL, "also print COMM, FORK and EXIT records"},
    {0, SCRIPT_SHOW_MMAP, "show-mmap-events", NULL, "also print MMAP and MMAP2 records"},
    {0, SCRIPT_SHOW_LOST, "show-lost-events", NULL, "also print LOST records"},
    {0, SCRIPT_NS, "ns", NULL, "times in nanoseconds"},
    {'G', SCRIPT_NO_CALLCHAIN, "hide-call-graph", NULL, "no call chains"},
    {0, SCRIPT_FILTER, "filter", "EXPR", "only tracepoint samples whose fields match, as 'bytes_req > 64 && comm ~ \"sh*\"'"},
    {0, SCRIPT_KALLSYMS, "kallsyms", "FILE", "kernel symbols (default /proc/kallsyms when recorded on this host)"},
    {0, SCRIPT_SYMFS, "symfs", "DIR", "look for binaries under DIR first"},
    {0, SCRIPT_SYMDIR, "symdir", "DIR", "any ELF below DIR with the recorded build id"},
    {0, SCRIPT_NO_DEMANGLE, "no-demangle", NULL, "C++ and Rust names as the binary has them (perf's --no-demangle)"},
    {0, SCRIPT_INLINE, "inline", NULL, "inlined functions as frames of --call-graph dwarf stacks (the default)"},
    {0, SCRIPT_NO_INLINE, "no-inline", NULL, "no inlined frames"},
    {0, 0, NULL, NULL, NULL},
};
static const pd_opt script_filter_opts[] = {
    {0, PD_FILTER_COMM, "comm", "LIST", "only these commands"},
    {0, PD_FILTER_PID, "pid", "LIST", "only these process ids"},
    {0, PD_FILTER_TID, "tid", "LIST", "only these thread ids"},
    {'C', PD_FILTER_CPU, "cpu", "LIST", "only samples on these cpus, as 0,2-3"},
    {0, PD_FILTER_TIME, "time", "START,END", "only samples in this time span, seconds.fraction, either end open; or\n"
     "                            percentages: 10%/2, 0%-10%,30%-40%"},
    {0, 0, NULL, NULL, NULL},
};
static const pd_opt *const script_tables[] = {script_opts, script_filter_opts, pd_ratio_opts, pd_queue_opts, NULL};
const pd_command pd_script_command = {
    "script", "each sample as a line of text, as perf script",
    "  Each sample as perf script prints it, in time order: the same default fields per kind of\n"
    "  event, -F lists, call chains a frame a line, tracepoint samples formatted by their own\n"
    "  print format from the file's tracing data.\n", script_tables, NULL};

typedef struct script_args { script_ctx *c; const char *kallsyms, *symfs, *symdir; } script_args;

static int script_option(void *ctx, int id, const char *value) {
    script_args *a = (script_args *)ctx;
    switch (id) {
    case SCRIPT_FIELDS: return parse_fields(a->c, value);
    case SCRIPT_SHOW_TASK: a->c->show |= SHOW_TASK; break;
    case SCRIPT_SHOW_MMAP: a->c->show |= SHOW_MMAP; break;
    case SCRIPT_SHOW_LOST: a->c->show |= SHOW_LOST; break;
    case SCRIPT_NS: a->c->ns = 1; break;
    case SCRIPT_NO_CALLCHAIN: a->c->no_callchain = 1; break;
    case SCRIPT_FILTER: a->c->tp_filter = value; break;
    case SCRIPT_KALLSYMS: a->kallsyms = value; break;
    case SCRIPT_SYMFS: a->symfs = value; break;
    case SCRIPT_NO_DEMANGLE: pd_sym_demangle = 0; break;
    case SCRIPT_INLINE: pd_sym_inline_frames = 1; break;
    case SCRIPT_NO_INLINE: pd_sym_inline_frames = 0; break;
    case SCRIPT_SYMDIR: a->symdir = value; break;
    default: return pd_filter_set(&a->c->filter, id, value, "script");
    }
    return 0;
}

int pd_cmd_script(int argc, char **argv) {
    static script_ctx c;
    pd_session s;
    const char *path = NULL;
    size_t i;
    int rc, j;
    script_args args = {&c, NULL, NULL, NULL};
    memset(&c, 0, sizeof c);
    for (j = 0; j < NTYPES; j++) c.out[j].fields = default_fields[j];
    if ((rc = pd_opts_parse(&pd_script_command, argc, argv, script_option, &args, &path)) >= 0) return rc;
    if (pd_session_open_flags(&s, path, PERFDATA_READ_ORDERED) != 0) return 1;
    if (pd_filter_prepare(&c.filter, s.file, "script") != 0) {
        pd_session_close(&s);
        return PD_EXIT_ERROR;
    }
    c.stat = perfdata_has_feature(s.file, PERFDATA_FEAT_STAT);
    c.auxtrace = perfdata_has_feature(s.file, PERFDATA_FEAT_AUXTRACE);
    c.s = &s;
    pd_state_init(&c.st);
    pd_sym_init(&c.sym, s.file);
    c.sym.kallsyms_path = args.kallsyms;
    c.sym.search.symfs = args.symfs;
    c.sym.search.symdir = args.symdir;
    pd_sym_prefetch(&c.sym, 2);
    if (!(s.file->flags & PERFDATA_FILE_PIPE) && perfdata_has_feature(s.file, PERFDATA_FEAT_TRACING_DATA)) {
        perfdata_view v;
        perfdata_error err;
        if (perfdata_feature_section(s.file, PERFDATA_FEAT_TRACING_DATA, &v, &err) == PERFDATA_OK) load_tracing(&c, v);
    }
    /* a file's tracepoint formats and --filter are checked before any output */
    for (i = 0; i < s.file->nr_events && !c.failed; i++)
        if (s.file->events[i].attr.type == 2 && (c.tp_filter || c.have_tracing)) tp_format(&c, (long)i);
    rc = c.failed ? PD_EXIT_OK : pd_session_walk_ordered(&s, on_record, &c);
    flush_out(&c);
    if (c.dwarf_samples)
        fprintf(stderr, "perfdata: %s: %llu samples carry a user stack dump (--call-graph dwarf) of an architecture not "
                        "unwound (x86-64, aarch64 and arm are), so their user frames are only those the kernel "
                        "recorded\n",
                path, (unsigned long long)c.dwarf_samples);
    if (c.failed && rc == PD_EXIT_OK) rc = c.failed == PD_EXIT_USAGE ? PD_EXIT_USAGE : PD_EXIT_ERROR;
    rc = pd_session_finish(&s, rc);
    for (i = 0; i < c.ntp_ids; i++) { /* the compiled formats and filters, each once */
        if (c.tp_ids[i].tpf) pd_tpfmt_free(c.tp_ids[i].tpf);
        if (c.tp_ids[i].filter) pd_tpfilter_free(c.tp_ids[i].filter);
    }
    free(c.tp_ids);
    free(c.tp);
    free(c.tpf);
    free(c.tp_tried);
    free(c.buf);
    free(c.tbuf);
    if (c.cache)
        for (i = 0; i < ((size_t)1 << FRAME_CACHE_BITS); i++) free(c.cache[i].text);
    free(c.cache);
    free(c.comms);
    free(c.starts);
    if (c.chains)
        for (i = 0; i < CHAIN_CACHE; i++) free(c.chains[i].text);
    free(c.chains);
    for (i = 0; i < c.nevtext; i++) free(c.evtext[i]);
    free(c.evtext);
    free(c.evlen);
    free(c.read_ids.v);
    free(c.counts);
    free(c.cpus);
    free(c.cpumap);
    free(c.threads);
    pd_sym_free(&c.sym);
    pd_state_free(&c.st);
    pd_filter_free(&c.filter);
    pd_session_close(&s);
    fflush(stdout);
    return rc;
}
