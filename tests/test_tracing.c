/* test_tracing.c - unit tests for the tracepoint formats of perfdata.h
   (perfdata_tracing_parse, perfdata_tp_format_next, perfdata_tracing_find,
   perfdata_tp_field_next/_find/_bytes/_int).

   TRACING_DATA sections are built in memory as perf's trace-event-info.c
   writes them, in both byte orders and versions 0.5 and 0.6, parsed, and
   every accessor checked. Every prefix of a section (each copied into a
   heap block of exactly that size, so ASan sees a read past it) must fail
   with PERFDATA_ERR_TRUNCATED at the cut; huge sizes and counts, broken
   framing and malformed format files must fail too, and the bytes are
   never written.

   Arguments that name files are real perf.data inputs: the TRACING_DATA of
   each (file mode: the feature section; pipe mode: the HEADER_TRACING_DATA
   record) is parsed, every tracepoint attr (attr.type 2) must find its
   format by attr.config, every field is walked, and every field of every
   tracepoint sample is read; common_type must equal the format's ID. The
   run fails when files are given and none has tracing data. Other
   arguments are test name filters.

   Build from the repository root:
     cc -std=c99 -Wall -Wextra -Wpedantic -Werror -g \
         -fsanitize=address,undefined -fno-sanitize-recover=all \
         -I. tests/test_tracing.c -o /tmp/tt && /tmp/tt tests/data/tracepoint-raw.data
   (also as C++: c++ -x c++ -std=c++11 ...). */
#define PERFDATA_ZSTD /* compressed real inputs */
#define PERFDATA_IMPLEMENTATION
#include "../perfdata.h"

#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BASE 0x10000u /* the file offset the synthetic sections pretend to be at */

/* ===================================================================== */
/*                     a test-only TRACING_DATA writer                   */
/* ===================================================================== */

typedef struct tb {
    unsigned char *b;
    size_t n, cap;
    int big;
} tb;

static void tb_init(tb *t, int big) {
    t->cap = 4096;
    t->b = (unsigned char *)malloc(t->cap);
    if (!t->b) abort();
    t->n = 0;
    t->big = big;
}
static void tb_bytes(tb *t, const void *p, size_t n) {
    if (n > t->cap - t->n) {
        while (n > t->cap - t->n) t->cap *= 2;
        t->b = (unsigned char *)realloc(t->b, t->cap);
        if (!t->b) abort();
    }
    if (n) memcpy(t->b + t->n, p, n);
    t->n += n;
}
static void tb_fill(tb *t, unsigned char c, size_t n) {
    while (n--) tb_bytes(t, &c, 1);
}
static void tb_int(tb *t, uint64_t v, unsigned size) {
    unsigned char x[8];
    unsigned i;
    for (i = 0; i < size; i++) x[i] = (unsigned char)(v >> (8 * (t->big ? size - 1 - i : i)));
    tb_bytes(t, x, size);
}
static void poke(unsigned char *b, size_t pos, uint64_t v, unsigned size, int big) {
    unsigned i;
    for (i = 0; i < size; i++) b[pos + i] = (unsigned char)(v >> (8 * (big ? size - 1 - i : i)));
}
static void tb_str(tb *t, const char *s) { tb_bytes(t, s, strlen(s)); }

typedef struct tsys {
    const char *name;
    const char *const *files;
    size_t nfiles;
} tsys;

typedef struct tspec {
    const char *version;
    int big;
    unsigned long_byte;
    uint32_t page;
    const char *header_page, *header_event;
    const char *const *ftrace;
    size_t nftrace;
    const tsys *systems;
    size_t nsystems;
    const char *kallsyms, *printk, *cmdlines;
    int with_cmdlines; /* write the u64 cmdlines size and text */
} tspec;

#define MAXF 16
typedef struct tlayout {
    size_t version, endian, long_byte, page, hp_lit, hp_size, hp_text, he_lit, he_size, he_text;
    size_t nftrace, ftrace_start, ftrace_end, nsystems, events_start, events_end;
    size_t kallsyms_size, kallsyms, printk_size, printk, cmdlines_size, cmdlines, end;
    size_t nfiles, file_size[MAXF], file_text[MAXF], file_len[MAXF];
    size_t sys_name[8], sys_count[8];
} tlayout;

static void put_file(tb *t, tlayout *l, const char *text) {
    size_t n = strlen(text);
    if (l->nfiles >= MAXF) abort();
    l->file_size[l->nfiles] = t->n;
    tb_int(t, n, 8);
    l->file_text[l->nfiles] = t->n;
    l->file_len[l->nfiles] = n;
    l->nfiles++;
    tb_bytes(t, text, n);
}

static void build(tb *t, const tspec *s, tlayout *l) {
    size_t i, j;
    tb_init(t, s->big);
    memset(l, 0, sizeof *l);
    tb_bytes(t, "\x17\x08\x44tracing", 10);
    l->version = t->n;
    tb_bytes(t, s->version, strlen(s->version) + 1);
    l->endian = t->n;
    tb_int(t, (unsigned)s->big, 1);
    l->long_byte = t->n;
    tb_int(t, s->long_byte, 1);
    l->page = t->n;
    tb_int(t, s->page, 4);
    l->hp_lit = t->n;
    tb_bytes(t, "header_page", 12);
    l->hp_size = t->n;
    tb_int(t, strlen(s->header_page), 8);
    l->hp_text = t->n;
    tb_str(t, s->header_page);
    l->he_lit = t->n;
    tb_bytes(t, "header_event", 13);
    l->he_size = t->n;
    tb_int(t, strlen(s->header_event), 8);
    l->he_text = t->n;
    tb_str(t, s->header_event);
    l->nftrace = t->n;
    tb_int(t, s->nftrace, 4);
    l->ftrace_start = t->n;
    for (i = 0; i < s->nftrace; i++) put_file(t, l, s->ftrace[i]);
    l->ftrace_end = t->n;
    l->nsystems = t->n;
    tb_int(t, s->nsystems, 4);
    l->events_start = t->n;
    for (i = 0; i < s->nsystems; i++) {
        l->sys_name[i] = t->n;
        tb_bytes(t, s->systems[i].name, strlen(s->systems[i].name) + 1);
        l->sys_count[i] = t->n;
        tb_int(t, s->systems[i].nfiles, 4);
        for (j = 0; j < s->systems[i].nfiles; j++) put_file(t, l, s->systems[i].files[j]);
    }
    l->events_end = t->n;
    l->kallsyms_size = t->n;
    tb_int(t, strlen(s->kallsyms), 4);
    l->kallsyms = t->n;
    tb_str(t, s->kallsyms);
    l->printk_size = t->n;
    tb_int(t, strlen(s->printk), 4);
    l->printk = t->n;
    tb_str(t, s->printk);
    l->cmdlines_size = l->cmdlines = t->n;
    if (s->with_cmdlines) {
        tb_int(t, strlen(s->cmdlines), 8);
        l->cmdlines = t->n;
        tb_str(t, s->cmdlines);
    }
    l->end = t->n;
}

/* ===================================================================== */
/*                         the synthetic contents                        */
/* ===================================================================== */

static const char HEADER_PAGE[] =
    "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
    "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
    "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
    "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";
static const char HEADER_PAGE_COMMIT4[] =
    "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
    "\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"
    "\tfield: char data;\toffset:12;\tsize:4084;\tsigned:0;\n";
static const char HEADER_EVENT[] =
    "# compressed entry header\n\ttype_len    :    5 bits\n\ttime_delta  :   27 bits\n"
    "\tarray       :   32 bits\n\n\tpadding     : type == 29\n\ttime_extend : type == 30\n"
    "\ttime_stamp : type == 31\n\tdata max type_len  == 28\n";

#define COMMON_FIELDS                                                          \
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"     \
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"     \
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"

static const char F_FUNCTION[] =
    "name: function\nID: 1\nformat:\n" COMMON_FIELDS "\n"
    "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
    "\tfield:unsigned long parent_ip;\toffset:16;\tsize:8;\tsigned:0;\n\n"
    "print fmt: \" %ps <-- %ps\", (void *)REC->ip, (void *)REC->parent_ip\n";
/* old style: "field special:", no signed:, no newline at the end */
static const char F_PRINT[] =
    "name: print\nID: 5\nformat:\n"
    "\tfield special:unsigned short common_type;\toffset:0;\tsize:2;\n"
    "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
    "\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:1;\n\n"
    "print fmt: \"%ps: %s\", (void *)REC->ip, REC->buf";
static const char E_SWITCH[] =
    "name: sched_switch\nID: 316\nformat:\n" COMMON_FIELDS "\n"
    "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
    "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
    "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
    "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n\n"
    "print fmt: \"prev_comm=%s prev_pid=%d\", REC->prev_comm, REC->prev_pid\n";
static const char E_STAT[] =
    "name: sched_stat\nID: 317\nformat:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "  \t \n"
    "\tfield:__data_loc char[] comm;\toffset:8;\tsize:4;\tsigned:0;\n"
    "\tfield:__rel_loc char[] rcomm;\toffset:12;\tsize:4;\tsigned:0;\n"
    "\tfield:__data_loc u32[] cpus;\toffset:16;\tsize:4;\tsigned:0;\n"
    "\tfield:__rel_loc unsigned long[] ips;\toffset:20;\tsize:4;\tsigned:0;\n"
    "\tfield:__data_loc struct foo[] foos;\toffset:24;\tsize:4;\tsigned:0;\n\n"
    "print fmt:\t\"comm=%s\", __get_str(comm)  \n"
    "trailing text perf ignores\n";
static const char E_INTS[] =
    "name: ints\nID: 400\nformat:\n"
    "\tfield:u8 a_u8;\toffset:8;\tsize:1;\tsigned:0;\n"
    "\tfield:s8 a_s8;\toffset:9;\tsize:1;\tsigned:1;\n"
    "\tfield:u16 a_u16;\toffset:10;\tsize:2;\tsigned:0;\n"
    "\tfield:short a_s16;\toffset:12;\tsize:2;\tsigned:1;\n"
    "\tfield:u32 a_u32;\toffset:16;\tsize:4;\tsigned:0;\n"
    "\tfield:int a_s32;\toffset:20;\tsize:4;\tsigned:1;\tfuture:abc;\n"
    "\tfield:u64 a_u64;\toffset:24;\tsize:8;\tsigned:0;\n"
    "\tfield:long long a_s64;\toffset:32;\tsize:8;\tsigned:1;\n"
    "\tfield:unsigned long a_long;\toffset:40;\tsize:8;\tsigned:0;\n"
    "\tfield:const char * a_ptr;\toffset:48;\tsize:8;\tsigned:0;\n"
    "\tfield:__u8 saddr[sizeof(struct sockaddr_in6)];\toffset:56;\tsize:28;\tsigned:0;\n"
    "\tfield:unsigned long caller[4];\toffset:88;\tsize:32;\tsigned:0;\n"
    "\tfield:s16 vals[3];\toffset:120;\tsize:6;\tsigned:1;\n"
    "\tfield:struct foo blob[N_FOO];\toffset:128;\tsize:12;\tsigned:0;\n"
    "\tfield:unsigned char triple;\toffset:140;\tsize:3;\tsigned:0;\n"
    "print fmt: \"x\"\n";
static const char E_TINY[] = "name: tiny\nID: 401\nformat:\nprint fmt: \"\"\n";
static const char E_BIGID[] =
    "name: big_id\nID: 18446744073709551615\nformat:\n"
    "\tfield:int v;\toffset:8;\tsize:4;\tsigned:1;\n"
    "print fmt: \"v=%d\", REC->v\n";

static const char *const FTRACE[] = {F_FUNCTION, F_PRINT};
static const char *const SCHED[] = {E_SWITCH, E_STAT};
static const char *const KMEM[] = {E_INTS, E_TINY, E_BIGID};
static const tsys SYSTEMS[] = {{"sched", SCHED, 2}, {"empty", NULL, 0}, {"kmem", KMEM, 3}};

static const char KALLSYMS[] = "ffffffff81000000 T _text\n";
static const char PRINTK[] = "0xffffffff81234567 : \"hello\\n\"\n";
static const char CMDLINES[] = "1 systemd\n2 kthreadd\n";

static tspec default_spec(int big, int v06) {
    tspec s;
    s.version = v06 ? "0.6" : "0.5";
    s.big = big;
    s.long_byte = 8;
    s.page = 4096;
    s.header_page = HEADER_PAGE;
    s.header_event = HEADER_EVENT;
    s.ftrace = FTRACE;
    s.nftrace = 2;
    s.systems = SYSTEMS;
    s.nsystems = 3;
    s.kallsyms = KALLSYMS;
    s.printk = PRINTK;
    s.cmdlines = CMDLINES;
    s.with_cmdlines = v06;
    return s;
}

/* The expected formats, in walk order. */
typedef struct xfmt {
    const char *system, *name;
    uint64_t id;
    const char *print_fmt;
    size_t nfields;
} xfmt;
static const xfmt XFMTS[] = {
    {"ftrace", "function", 1, "\" %ps <-- %ps\", (void *)REC->ip, (void *)REC->parent_ip", 6},
    {"ftrace", "print", 5, "\"%ps: %s\", (void *)REC->ip, REC->buf", 3},
    {"sched", "sched_switch", 316, "\"prev_comm=%s prev_pid=%d\", REC->prev_comm, REC->prev_pid", 8},
    {"sched", "sched_stat", 317, "\"comm=%s\", __get_str(comm)", 6},
    {"kmem", "ints", 400, "\"x\"", 15},
    {"kmem", "tiny", 401, "\"\"", 0},
    {"kmem", "big_id", 18446744073709551615ull, "\"v=%d\", REC->v", 1},
};
#define NXFMTS (sizeof XFMTS / sizeof XFMTS[0])

#define FC PERFDATA_TP_FIELD_COMMON
#define FS PERFDATA_TP_FIELD_SIGNED
#define FA PERFDATA_TP_FIELD_ARRAY
#define FD PERFDATA_TP_FIELD_DYNAMIC
#define FR PERFDATA_TP_FIELD_RELATIVE
#define FSTR PERFDATA_TP_FIELD_STRING
#define FP PERFDATA_TP_FIELD_POINTER
#define FL PERFDATA_TP_FIELD_LONG

typedef struct xfield {
    const char *type, *name;
    uint32_t offset, size, flags, array_len, elem_size;
} xfield;
static const xfield XCOMMON[] = {
    {"unsigned short", "common_type", 0, 2, FC, 0, 2},
    {"unsigned char", "common_flags", 2, 1, FC, 0, 1},
    {"unsigned char", "common_preempt_count", 3, 1, FC, 0, 1},
    {"int", "common_pid", 4, 4, FC | FS, 0, 4},
};
static const xfield XFUNCTION[] = {
    {"unsigned long", "ip", 8, 8, FL, 0, 8},
    {"unsigned long", "parent_ip", 16, 8, FL, 0, 8},
};
static const xfield XPRINT[] = {
    {"unsigned short", "common_type", 0, 2, FC, 0, 2},
    {"unsigned long", "ip", 8, 8, FL, 0, 8},
    {"char", "buf", 16, 0, FA | FSTR | FS, 0, 1},
};
static const xfield XSWITCH[] = {
    {"char", "prev_comm", 8, 16, FA | FSTR, 16, 1},
    {"pid_t", "prev_pid", 24, 4, FS, 0, 4},
    {"long", "prev_state", 32, 8, FS | FL, 0, 8},
    {"char", "next_comm", 40, 16, FA | FSTR, 16, 1},
};
static const xfield XSTAT[] = {
    {"unsigned short", "common_type", 0, 2, FC, 0, 2},
    {"__data_loc char[]", "comm", 8, 4, FD | FSTR, 0, 1},
    {"__rel_loc char[]", "rcomm", 12, 4, FD | FR | FSTR, 0, 1},
    {"__data_loc u32[]", "cpus", 16, 4, FD, 0, 4},
    {"__rel_loc unsigned long[]", "ips", 20, 4, FD | FR | FL, 0, 8},
    {"__data_loc struct foo[]", "foos", 24, 4, FD, 0, 1},
};
static const xfield XINTS[] = {
    {"u8", "a_u8", 8, 1, 0, 0, 1},
    {"s8", "a_s8", 9, 1, FS, 0, 1},
    {"u16", "a_u16", 10, 2, 0, 0, 2},
    {"short", "a_s16", 12, 2, FS, 0, 2},
    {"u32", "a_u32", 16, 4, 0, 0, 4},
    {"int", "a_s32", 20, 4, FS, 0, 4},
    {"u64", "a_u64", 24, 8, 0, 0, 8},
    {"long long", "a_s64", 32, 8, FS, 0, 8},
    {"unsigned long", "a_long", 40, 8, FL, 0, 8},
    {"const char *", "a_ptr", 48, 8, FP, 0, 8},
    {"__u8", "saddr", 56, 28, FA, 28, 1},
    {"unsigned long", "caller", 88, 32, FA | FL, 4, 8},
    {"s16", "vals", 120, 6, FA | FS, 3, 2},
    {"struct foo", "blob", 128, 12, FA, 0, 12},
    {"unsigned char", "triple", 140, 3, 0, 0, 3},
};
static const xfield XBIGID[] = {{"int", "v", 8, 4, FS, 0, 4}};

static int view_is(perfdata_view v, const char *s) {
    size_t n = strlen(s);
    return v.n == n && (n == 0 || memcmp(v.p, s, n) == 0);
}

static int view_in(perfdata_view v, const unsigned char *b, size_t n) {
    return v.p >= b && v.n <= n && (size_t)(v.p - b) <= n - v.n && v.offset == BASE + (uint64_t)(v.p - b);
}

static unsigned char *copy_exact(const unsigned char *p, size_t n) {
    unsigned char *b = (unsigned char *)malloc(n ? n : 1);
    if (!b) abort();
    if (n) memcpy(b, p, n);
    return b;
}

static uint64_t fnv1a(const unsigned char *p, size_t n) {
    uint64_t h = 1469598103934665603ull;
    size_t i;
    for (i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

static perfdata_view mkview(const unsigned char *p, size_t n) {
    perfdata_view v;
    v.p = p;
    v.n = n;
    v.offset = BASE;
    return v;
}

static char ctx[256];
static void set_ctx(int big, const char *what) {
    snprintf(ctx, sizeof ctx, "%s, %s", big ? "big-endian" : "little-endian", what);
    test_set_context(ctx);
}

/* Checks the fields of fmt against x (and a prefix of commons). */
static void check_fields(const perfdata_tp_format *fmt, const xfield *common, size_t ncommon, const xfield *x,
                         size_t nx) {
    size_t s = 0, i, k = 0;
    perfdata_tp_field f, g;
    for (i = 0; i < ncommon + nx; i++) {
        const xfield *e = i < ncommon ? &common[i] : &x[i - ncommon];
        if (!CHECK(perfdata_tp_field_next(fmt, &s, &f))) return;
        k++;
        if (!CHECK(view_is(f.type, e->type)) || !CHECK(view_is(f.name, e->name)))
            fprintf(stderr, "    field %zu: type '%.*s' name '%.*s', expected '%s' '%s'\n", i, (int)f.type.n,
                    (const char *)f.type.p, (int)f.name.n, (const char *)f.name.p, e->type, e->name);
        CHECK(f.type.offset == fmt->fields.offset + (uint64_t)(f.type.p - fmt->fields.p));
        CHECK(f.name.offset == fmt->fields.offset + (uint64_t)(f.name.p - fmt->fields.p));
        CHECK(f.name.p >= fmt->fields.p && f.name.p + f.name.n <= fmt->fields.p + fmt->fields.n);
        CHECK_EQ_U64(f.offset, e->offset);
        CHECK_EQ_U64(f.size, e->size);
        CHECK_EQ_U64(f.flags, e->flags);
        CHECK_EQ_U64(f.array_len, e->array_len);
        CHECK_EQ_U64(f.elem_size, e->elem_size);
        /* found by name */
        if (CHECK(perfdata_tp_field_find(fmt, e->name, strlen(e->name), &g))) {
            CHECK(g.name.p == f.name.p);
            CHECK_EQ_U64(g.offset, f.offset);
        }
    }
    CHECK(!perfdata_tp_field_next(fmt, &s, &f));
    CHECK(!perfdata_tp_field_next(fmt, &s, &f));
    CHECK_EQ_U64(s, fmt->fields.n);
    CHECK_EQ_U64(k, ncommon + nx);
    CHECK(!perfdata_tp_field_find(fmt, "no_such_field", 13, &g));
    CHECK(!perfdata_tp_field_find(fmt, "common_typ", 10, &g)); /* a prefix is not a name */
    CHECK(!perfdata_tp_field_find(fmt, "", 0, &g));
}

static void check_format_fields(const perfdata_tp_format *fmt, size_t i) {
    switch (i) {
    case 0: check_fields(fmt, XCOMMON, 4, XFUNCTION, 2); break;
    case 1: check_fields(fmt, NULL, 0, XPRINT, 3); break;
    case 2: check_fields(fmt, XCOMMON, 4, XSWITCH, 4); break;
    case 3: check_fields(fmt, NULL, 0, XSTAT, 6); break;
    case 4: check_fields(fmt, NULL, 0, XINTS, 15); break;
    case 5: check_fields(fmt, NULL, 0, NULL, 0); break;
    case 6: check_fields(fmt, NULL, 0, XBIGID, 1); break;
    default: CHECK(0);
    }
}

/* ===================================================================== */
/*                               the tests                               */
/* ===================================================================== */

TEST(parse_every_accessor) {
    int big, v06;
    for (big = 0; big <= 1; big++)
        for (v06 = 0; v06 <= 1; v06++) {
            tspec sp = default_spec(big, v06);
            tb t;
            tlayout l;
            perfdata_tracing tr;
            perfdata_error err;
            perfdata_tp_format fmt, g;
            size_t s = 0, i;
            uint64_t h;
            build(&t, &sp, &l);
            set_ctx(big, v06 ? "version 0.6" : "version 0.5");
            h = fnv1a(t.b, t.n);
            memset(&err, 0xa5, sizeof err);
            if (!CHECK_EQ_U64(perfdata_tracing_parse(mkview(t.b, t.n), &tr, &err), PERFDATA_OK)) {
                fprintf(stderr, "    %s at %llu\n", err.message, (unsigned long long)err.offset);
                free(t.b);
                continue;
            }
            CHECK_EQ_U64(err.code, PERFDATA_OK);
            CHECK(view_is(tr.version, v06 ? "0.6" : "0.5"));
            CHECK_EQ_U64(tr.version.offset, BASE + l.version);
            CHECK_EQ_U64(tr.big_endian, big);
            CHECK_EQ_U64(tr.long_size, 8);
            CHECK_EQ_U64(tr.page_size, 4096);
            CHECK(view_is(tr.header_page, HEADER_PAGE));
            CHECK_EQ_U64(tr.header_page.offset, BASE + l.hp_text);
            CHECK(view_is(tr.header_event, HEADER_EVENT));
            CHECK_EQ_U64(tr.header_event.offset, BASE + l.he_text);
            CHECK_EQ_U64(tr.nftrace, 2);
            CHECK_EQ_U64(tr.nsystems, 3);
            CHECK_EQ_U64(tr.nevents, 5);
            CHECK_EQ_U64(tr.ftrace.offset, BASE + l.ftrace_start);
            CHECK_EQ_U64(tr.ftrace.n, l.ftrace_end - l.ftrace_start);
            CHECK_EQ_U64(tr.events.offset, BASE + l.events_start);
            CHECK_EQ_U64(tr.events.n, l.events_end - l.events_start);
            CHECK(view_is(tr.kallsyms, KALLSYMS));
            CHECK_EQ_U64(tr.kallsyms.offset, BASE + l.kallsyms);
            CHECK(view_is(tr.printk, PRINTK));
            CHECK_EQ_U64(tr.printk.offset, BASE + l.printk);
            CHECK(view_is(tr.cmdlines, v06 ? CMDLINES : ""));
            if (v06) CHECK_EQ_U64(tr.cmdlines.offset, BASE + l.cmdlines);
            CHECK(view_in(tr.version, t.b, t.n) && view_in(tr.header_page, t.b, t.n) &&
                  view_in(tr.header_event, t.b, t.n) && view_in(tr.ftrace, t.b, t.n) &&
                  view_in(tr.events, t.b, t.n) && view_in(tr.kallsyms, t.b, t.n) && view_in(tr.printk, t.b, t.n));
            /* every format, in order */
            for (i = 0; i < NXFMTS; i++) {
                if (!CHECK(perfdata_tp_format_next(&tr, &s, &fmt))) break;
                if (!CHECK(view_is(fmt.system, XFMTS[i].system)) || !CHECK(view_is(fmt.name, XFMTS[i].name)))
                    fprintf(stderr, "    format %zu: %.*s:%.*s\n", i, (int)fmt.system.n, (const char *)fmt.system.p,
                            (int)fmt.name.n, (const char *)fmt.name.p);
                CHECK_EQ_U64(fmt.id, XFMTS[i].id);
                if (!CHECK(view_is(fmt.print_fmt, XFMTS[i].print_fmt)))
                    fprintf(stderr, "    print fmt [%.*s]\n", (int)fmt.print_fmt.n, (const char *)fmt.print_fmt.p);
                CHECK_EQ_U64(fmt.long_size, 8);
                CHECK_EQ_U64(fmt.text.offset, BASE + l.file_text[i]);
                CHECK_EQ_U64(fmt.text.n, l.file_len[i]);
                CHECK(fmt.text.p == t.b + l.file_text[i]);
                CHECK(view_in(fmt.name, t.b, t.n) && view_in(fmt.fields, t.b, t.n) &&
                      view_in(fmt.print_fmt, t.b, t.n));
                if (i >= 2) CHECK(view_in(fmt.system, t.b, t.n));
                CHECK(fmt.fields.p >= fmt.text.p && fmt.fields.p + fmt.fields.n <= fmt.text.p + fmt.text.n);
                check_format_fields(&fmt, i);
                /* find: event systems only */
                if (i >= 2) {
                    if (CHECK(perfdata_tracing_find(&tr, XFMTS[i].id, &g))) {
                        CHECK(g.text.p == fmt.text.p);
                        CHECK(view_is(g.system, XFMTS[i].system));
                        CHECK(g.name.p == fmt.name.p && g.fields.p == fmt.fields.p && g.fields.n == fmt.fields.n);
                    }
                } else {
                    CHECK(!perfdata_tracing_find(&tr, XFMTS[i].id, &g));
                }
            }
            CHECK(!perfdata_tp_format_next(&tr, &s, &fmt));
            CHECK(!perfdata_tp_format_next(&tr, &s, &fmt));
            CHECK(!perfdata_tracing_find(&tr, 402, &g));
            CHECK(!perfdata_tracing_find(&tr, 0, &g));
            /* states no walk gives must not read outside (ASan) */
            for (i = 0; i < 4096; i++) {
                size_t st = i * 7919u + (i & 1 ? (size_t)-1 - i : 0);
                int k;
                for (k = 0; k < 3 && perfdata_tp_format_next(&tr, &st, &fmt); k++) {}
            }
            CHECK_EQ_U64(fnv1a(t.b, t.n), h);
            /* trailing bytes after the section are ignored */
            tb_fill(&t, 0xee, 13);
            CHECK_EQ_U64(perfdata_tracing_parse(mkview(t.b, t.n), &tr, &err), PERFDATA_OK);
            free(t.b);
        }
}

/* Every prefix fails TRUNCATED at the cut, from a block of exactly its size. */
TEST(every_prefix_truncated) {
    int big, v06;
    for (big = 0; big <= 1; big++)
        for (v06 = 0; v06 <= 1; v06++) {
            tspec sp = default_spec(big, v06);
            tb t;
            tlayout l;
            size_t len;
            unsigned long bad = 0;
            build(&t, &sp, &l);
            set_ctx(big, v06 ? "0.6 prefixes" : "0.5 prefixes");
            for (len = 0; len < t.n; len++) {
                unsigned char *b = copy_exact(t.b, len);
                perfdata_tracing tr;
                perfdata_error err;
                perfdata_status st;
                uint64_t h = fnv1a(b, len);
                st = perfdata_tracing_parse(mkview(b, len), &tr, (len & 1) ? NULL : &err);
                if (st != PERFDATA_ERR_TRUNCATED ||
                    (!(len & 1) && (err.code != PERFDATA_ERR_TRUNCATED || err.offset != BASE + len || err.needed == 0 ||
                                    err.feature != PERFDATA_FEAT_TRACING_DATA || !err.message || !err.message[0])) ||
                    fnv1a(b, len) != h) {
                    if (bad++ < 5)
                        fprintf(stderr, "    prefix %zu: %s at %llu\n", len, perfdata_status_name(st),
                                (unsigned long long)err.offset);
                }
                free(b);
            }
            CHECK_EQ_U64(bad, 0);
            free(t.b);
        }
}

/* Parses b (a copy of exactly n bytes) and returns the status, err filled. */
static perfdata_status parse_copy(const unsigned char *p, size_t n, perfdata_error *err) {
    unsigned char *b = copy_exact(p, n);
    perfdata_tracing tr;
    perfdata_status st = perfdata_tracing_parse(mkview(b, n), &tr, err);
    if (st == PERFDATA_OK) { /* a successful parse must walk cleanly */
        size_t s = 0;
        perfdata_tp_format f;
        while (perfdata_tp_format_next(&tr, &s, &f)) {}
    }
    free(b);
    return st;
}

TEST(framing_errors) {
    int big;
    for (big = 0; big <= 1; big++) {
        tspec sp = default_spec(big, 1);
        tb t;
        tlayout l;
        perfdata_error err;
        size_t i;
        unsigned char *b;
        build(&t, &sp, &l);
        b = t.b;
        set_ctx(big, "framing");
        /* magic */
        for (i = 0; i < 10; i++) {
            b[i] ^= 0x40;
            CHECK_EQ_U64(parse_copy(b, t.n, &err), PERFDATA_ERR_MALFORMED);
            CHECK_EQ_U64(err.offset, BASE + i);
            CHECK_EQ_U64(err.feature, PERFDATA_FEAT_TRACING_DATA);
            CHECK_EQ_U64(parse_copy(b, i + 1, &err), PERFDATA_ERR_MALFORMED); /* even when cut right after */
            b[i] ^= 0x40;
        }
        CHECK_EQ_U64(parse_copy(b, t.n, &err), PERFDATA_OK);
        /* endian byte */
        b[l.endian] = 2;
        CHECK_EQ_U64(parse_copy(b, t.n, &err), PERFDATA_ERR_MALFORMED);
        CHECK_EQ_U64(err.offset, BASE + l.endian);
        b[l.endian] = (unsigned char)!big; /* the other order: the page size is then wrong-endian, counts huge */
        CHECK(parse_copy(b, t.n, &err) != PERFDATA_OK);
        b[l.endian] = (unsigned char)big;
        /* page size 0 */
        poke(b, l.page, 0, 4, big);
        CHECK_EQ_U64(parse_copy(b, t.n, &err), PERFDATA_ERR_MALFORMED);
        CHECK_EQ_U64(err.offset, BASE + l.page);
        poke(b, l.page, 4096, 4, big);
        /* the literals */
        b[l.hp_lit + 3] = 'X';
        CHECK_EQ_U64(parse_copy(b, t.n, &err), PERFDATA_ERR_MALFORMED);
        CHECK_EQ_U64(err.offset, BASE + l.hp_lit + 3);
        b[l.hp_lit + 3] = 'd';
        b[l.hp_lit + 11] = 'X'; /* the NUL */
        CHECK_EQ_U64(parse_copy(b, t.n, &err), PERFDATA_ERR_MALFORMED);
        b[l.hp_lit + 11] = 0;
        b[l.he_lit + 12] = ' ';
        CHECK_EQ_U64(parse_copy(b, t.n, &err), PERFDATA_ERR_MALFORMED);
        CHECK_EQ_U64(err.offset, BASE + l.he_lit + 12);
        b[l.he_lit + 12] = 0;
        CHECK_EQ_U64(parse_copy(b, t.n, &err), PERFDATA_OK);
        /* huge sizes: the data ends first */
        {
            static const struct { int which; unsigned width; uint64_t v; } huge[] = {
                {0, 8, ~0ull}, {0, 8, 1ull << 63}, {1, 8, ~0ull}, {2, 4, 0xffffffffu}, {3, 4, 0xffffffffu},
                {4, 8, ~0ull}, {5, 8, ~0ull - 7}, {6, 8, ~0ull}, {7, 4, 0xffffffffu}, {8, 4, 0xffffffffu},
                {9, 8, ~0ull}, {10, 8, 0x8000000000000000ull}, {11, 4, 0xfffffff0u}};
            for (i = 0; i < sizeof huge / sizeof huge[0]; i++) {
                size_t at = huge[i].which == 0 ? l.hp_size : huge[i].which == 1 ? l.he_size
                          : huge[i].which == 2 ? l.nftrace : huge[i].which == 3 ? l.nsystems
                          : huge[i].which == 4 ? l.file_size[0] : huge[i].which == 5 ? l.file_size[3]
                          : huge[i].which == 6 ? l.file_size[6] : huge[i].which == 7 ? l.kallsyms_size
                          : huge[i].which == 8 ? l.printk_size : huge[i].which == 9 ? l.cmdlines_size
                          : huge[i].which == 10 ? l.file_size[2] : l.sys_count[2];
                unsigned char save[8];
                memcpy(save, b + at, 8);
                poke(b, at, huge[i].v, huge[i].width, big);
                snprintf(ctx, sizeof ctx, "%s, huge value %zu", big ? "big-endian" : "little-endian", i);
                test_set_context(ctx);
                CHECK_EQ_U64(parse_copy(b, t.n, &err), PERFDATA_ERR_TRUNCATED);
                CHECK_EQ_U64(err.offset, BASE + t.n);
                CHECK(err.needed > 0);
                memcpy(b + at, save, 8);
            }
            set_ctx(big, "framing");
        }
        /* a system name that runs to the end */
        CHECK_EQ_U64(parse_copy(b, l.sys_name[0] + 3, &err), PERFDATA_ERR_TRUNCATED);
        CHECK_EQ_U64(parse_copy(b, t.n, &err), PERFDATA_OK);
        free(t.b);
    }
}

TEST(long_size_and_versions) {
    int big;
    for (big = 0; big <= 1; big++) {
        tspec sp = default_spec(big, 1);
        tb t;
        tlayout l;
        perfdata_tracing tr;
        perfdata_error err;
        perfdata_tp_format fmt;
        perfdata_tp_field f;
        size_t s = 0;
        static const struct { const char *v; int cmdlines; } versions[] = {
            {"0.6", 1}, {"0.5", 0}, {"0.60", 1}, {"0.59", 0}, {"1", 1}, {"1.0", 1}, {"0.10", 0},
            {"abc", 0}, {"", 0}, {" 0.7", 1}, {"+0.6", 1}, {"-1", 0}, {"00.6", 1}, {"0.", 0}};
        size_t i;
        set_ctx(big, "long size from header_page");
        /* commit of size 4 wins over the byte, as in perf */
        sp.header_page = HEADER_PAGE_COMMIT4;
        sp.long_byte = 8;
        build(&t, &sp, &l);
        CHECK_EQ_U64(perfdata_tracing_parse(mkview(t.b, t.n), &tr, &err), PERFDATA_OK);
        CHECK_EQ_U64(tr.long_size, 4);
        /* field sizes follow: unsigned long elements of 4 bytes */
        while (perfdata_tp_format_next(&tr, &s, &fmt))
            if (view_is(fmt.name, "ints")) break;
        if (CHECK(view_is(fmt.name, "ints")) && CHECK(perfdata_tp_field_find(&fmt, "caller", 6, &f))) {
            CHECK_EQ_U64(f.elem_size, 8); /* size / array_len */
            CHECK_EQ_U64(fmt.long_size, 4);
        }
        if (CHECK(perfdata_tracing_find(&tr, 317, &fmt)) && CHECK(perfdata_tp_field_find(&fmt, "ips", 3, &f)))
            CHECK_EQ_U64(f.elem_size, 4); /* __rel_loc unsigned long[]: long_size */
        free(t.b);
        /* no commit field: the byte, which must be 4 or 8 */
        sp.header_page = "";
        sp.long_byte = 4;
        build(&t, &sp, &l);
        CHECK_EQ_U64(perfdata_tracing_parse(mkview(t.b, t.n), &tr, &err), PERFDATA_OK);
        CHECK_EQ_U64(tr.long_size, 4);
        CHECK_EQ_U64(tr.header_page.n, 0);
        t.b[l.long_byte] = 3;
        CHECK_EQ_U64(perfdata_tracing_parse(mkview(t.b, t.n), &tr, &err), PERFDATA_ERR_MALFORMED);
        CHECK_EQ_U64(err.offset, BASE + l.long_byte);
        free(t.b);
        /* a wrong byte that header_page corrects */
        sp.header_page = HEADER_PAGE;
        sp.long_byte = 3;
        build(&t, &sp, &l);
        CHECK_EQ_U64(perfdata_tracing_parse(mkview(t.b, t.n), &tr, &err), PERFDATA_OK);
        CHECK_EQ_U64(tr.long_size, 8);
        free(t.b);
        /* versions: saved cmdlines are read when atof(version) >= 0.6 */
        sp = default_spec(big, 1);
        for (i = 0; i < sizeof versions / sizeof versions[0]; i++) {
            snprintf(ctx, sizeof ctx, "%s, version '%s'", big ? "big-endian" : "little-endian", versions[i].v);
            test_set_context(ctx);
            sp.version = versions[i].v;
            sp.with_cmdlines = versions[i].cmdlines;
            build(&t, &sp, &l);
            if (CHECK_EQ_U64(perfdata_tracing_parse(mkview(t.b, t.n), &tr, &err), PERFDATA_OK)) {
                CHECK(view_is(tr.version, versions[i].v));
                CHECK(view_is(tr.cmdlines, versions[i].cmdlines ? CMDLINES : ""));
            }
            free(t.b);
        }
        /* no ftrace files, no systems, empty everything */
        set_ctx(big, "empty");
        sp = default_spec(big, 0);
        sp.nftrace = 0;
        sp.nsystems = 0;
        sp.kallsyms = sp.printk = "";
        build(&t, &sp, &l);
        if (CHECK_EQ_U64(perfdata_tracing_parse(mkview(t.b, t.n), &tr, &err), PERFDATA_OK)) {
            s = 0;
            CHECK(!perfdata_tp_format_next(&tr, &s, &fmt));
            CHECK(!perfdata_tracing_find(&tr, 1, &fmt));
            CHECK_EQ_U64(tr.kallsyms.n + tr.printk.n + tr.cmdlines.n + tr.ftrace.n + tr.events.n, 0);
        }
        free(t.b);
        /* only ftrace files; only systems with no files */
        sp.nftrace = 2;
        build(&t, &sp, &l);
        if (CHECK_EQ_U64(perfdata_tracing_parse(mkview(t.b, t.n), &tr, &err), PERFDATA_OK)) {
            s = 0;
            CHECK(perfdata_tp_format_next(&tr, &s, &fmt) && view_is(fmt.name, "function"));
            CHECK(perfdata_tp_format_next(&tr, &s, &fmt) && view_is(fmt.name, "print"));
            CHECK(!perfdata_tp_format_next(&tr, &s, &fmt));
        }
        free(t.b);
        {
            static const tsys empties[] = {{"a", NULL, 0}, {"", NULL, 0}, {"c", NULL, 0}};
            sp.nftrace = 0;
            sp.systems = empties;
            sp.nsystems = 3;
            build(&t, &sp, &l);
            if (CHECK_EQ_U64(perfdata_tracing_parse(mkview(t.b, t.n), &tr, &err), PERFDATA_OK)) {
                s = 0;
                CHECK_EQ_U64(tr.nsystems, 3);
                CHECK_EQ_U64(tr.nevents, 0);
                CHECK(!perfdata_tp_format_next(&tr, &s, &fmt));
                CHECK(!perfdata_tp_format_next(&tr, &s, &fmt));
            }
            free(t.b);
        }
    }
}

/* A format file that is not one: MALFORMED, pointing inside the file. */
TEST(malformed_format_files) {
    static const struct { const char *text; int at; /* expected offset in the text, or -1 */ } cases[] = {
        {"nam: x\nID: 1\nformat:\nprint fmt: \"\"\n", 0},
        {"name: \nID: 1\nformat:\nprint fmt: \"\"\n", 6},
        {"name: x", 7},
        {"name: x\nID: abc\nformat:\nprint fmt: \"\"\n", 12},
        {"name: x\nID: 18446744073709551616\nformat:\nprint fmt: \"\"\n", 12},
        {"name: x\nID: 1 2\nformat:\nprint fmt: \"\"\n", 13},
        {"name: x\nID: 1", 13},
        {"name: x\nId: 1\nformat:\nprint fmt: \"\"\n", 8},
        {"name: x\nID: 1\nformats:\nprint fmt: \"\"\n", 14},
        {"name: x\nID: 1\nformat:\n\tfield:int v;\toffset:8;\tsize:4;\n", 54},
        {"name: x\nID: 1\nformat:\n", 22},
        {"name: x\nID: 1\nformat:\n\tfield:int v\toffset:8;\tsize:4;\nprint fmt: \"\"\n", -1},
        {"name: x\nID: 1\nformat:\n\tfield:int v;\tsize:4;\nprint fmt: \"\"\n", -1},
        {"name: x\nID: 1\nformat:\n\tfield:int v;\toffset:8;\nprint fmt: \"\"\n", -1},
        {"name: x\nID: 1\nformat:\n\tfield:int v;\toffset:8;\tsize:4294967296;\nprint fmt: \"\"\n", -1},
        {"name: x\nID: 1\nformat:\n\tfield:int v;\toffset:x;\tsize:4;\nprint fmt: \"\"\n", -1},
        {"name: x\nID: 1\nformat:\n\tfield:int v;\toffset:8;\tsize:4;\tsigned:x;\nprint fmt: \"\"\n", -1},
        {"name: x\nID: 1\nformat:\n\tfield:int v;\toffset:8 9;\tsize:4;\nprint fmt: \"\"\n", -1},
        {"name: x\nID: 1\nformat:\n\tfield:int v;\toffset:8;\tsize:4;\t:1;\nprint fmt: \"\"\n", -1},
        {"name: x\nID: 1\nformat:\n\tfield:int;\toffset:8;\tsize:4;\nprint fmt: \"\"\n", -1},
        {"name: x\nID: 1\nformat:\n\tfield: v;\toffset:8;\tsize:4;\nprint fmt: \"\"\n", -1},
        {"name: x\nID: 1\nformat:\n\tfield:char a[16;\toffset:8;\tsize:4;\nprint fmt: \"\"\n", -1},
        {"name: x\nID: 1\nformat:\n\tfield:char a]16];\toffset:8;\tsize:4;\nprint fmt: \"\"\n", -1},
        {"name: x\nID: 1\nformat:\n\tfield:char [16];\toffset:8;\tsize:4;\nprint fmt: \"\"\n", -1},
        {"name: x\nID: 1\nformat:\n\tfield:int 9v;\toffset:8;\tsize:4;\nprint fmt: \"\"\n", -1},
        {"name: x\nID: 1\nformat:\n\tfield int v;\toffset:8;\tsize:4;\nprint fmt: \"\"\n", -1},
        {"name: x\nID: 1\nformat:\n\tfield:int (*fn)[2];\toffset:8;\tsize:4;\nprint fmt: \"\"\n", -1},
        {"name: x\nID: 1\nformat:\n\tgarbage\nprint fmt: \"\"\n", 23},
        {"name: x\nID: 1\nformat:\n print fmt: \"\"\n", 23},
        {"", 0},
    };
    int big, ftrace;
    size_t i;
    for (big = 0; big <= 1; big++)
        for (ftrace = 0; ftrace <= 1; ftrace++)
            for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
                tspec sp = default_spec(big, 1);
                const char *ftr[2], *km[3];
                tsys sys[3];
                tb t;
                tlayout l;
                perfdata_error err;
                size_t k = ftrace ? 1 : 5; /* which file: F_PRINT, or E_TINY */
                ftr[0] = F_FUNCTION;
                ftr[1] = ftrace ? cases[i].text : F_PRINT;
                km[0] = E_INTS;
                km[1] = ftrace ? E_TINY : cases[i].text;
                km[2] = E_BIGID;
                memcpy(sys, SYSTEMS, sizeof sys);
                sys[2].files = km;
                sp.ftrace = ftr;
                sp.systems = sys;
                build(&t, &sp, &l);
                snprintf(ctx, sizeof ctx, "%s, %s, malformed case %zu", big ? "big-endian" : "little-endian",
                         ftrace ? "ftrace" : "event", i);
                test_set_context(ctx);
                CHECK_EQ_U64(parse_copy(t.b, t.n, &err), PERFDATA_ERR_MALFORMED);
                CHECK(err.offset >= BASE + l.file_text[k] && err.offset <= BASE + l.file_text[k] + l.file_len[k]);
                if (cases[i].at >= 0) CHECK_EQ_U64(err.offset, BASE + l.file_text[k] + (unsigned)cases[i].at);
                CHECK_EQ_U64(err.feature, PERFDATA_FEAT_TRACING_DATA);
                free(t.b);
            }
}

/* Format files perf accepts that look unusual. */
TEST(unusual_format_files) {
    static const char *const texts[] = {
        "name:x\nID:7\nformat:\nprint fmt:\n",
        "name: x \t\nID: 0007 \nformat:  \n\n\n\tfield:int v;\toffset:8;\tsize:4;\nprint fmt: \"\"",
        "name: x\nID: 7\nformat:\n\tfield:int v;\toffset:8;\tsize:4;\tsigned:1;\n\t\n   \nprint fmt: a\nmore\n",
        "name: x\nID: 7\nformat:\n\tfield:char name[TASK_COMM_LEN];\toffset:8;\tsize:16;\tsigned:0;\nprint fmt: \"\"\n",
        "name: x\nID: 7\nformat:\n\tfield:int grid[2] [ 3 ];\toffset:8;\tsize:24;\tsigned:1;\nprint fmt: \"\"\n",
    };
    int big;
    size_t i;
    for (big = 0; big <= 1; big++)
        for (i = 0; i < sizeof texts / sizeof texts[0]; i++) {
            tspec sp = default_spec(big, 1);
            const char *km[1];
            tsys sys[1];
            tb t;
            tlayout l;
            perfdata_tracing tr;
            perfdata_error err;
            perfdata_tp_format fmt;
            perfdata_tp_field f;
            size_t s = 0, n = 0;
            km[0] = texts[i];
            sys[0].name = "s";
            sys[0].files = km;
            sys[0].nfiles = 1;
            sp.systems = sys;
            sp.nsystems = 1;
            sp.nftrace = 0;
            build(&t, &sp, &l);
            snprintf(ctx, sizeof ctx, "%s, unusual case %zu", big ? "big-endian" : "little-endian", i);
            test_set_context(ctx);
            if (!CHECK_EQ_U64(perfdata_tracing_parse(mkview(t.b, t.n), &tr, &err), PERFDATA_OK)) {
                fprintf(stderr, "    %s at %llu\n", err.message, (unsigned long long)(err.offset - BASE));
                free(t.b);
                continue;
            }
            if (CHECK(perfdata_tracing_find(&tr, 7, &fmt))) {
                CHECK(view_is(fmt.name, "x"));
                while (perfdata_tp_field_next(&fmt, &s, &f)) n++;
                CHECK_EQ_U64(n, i == 0 ? 0 : 1);
                CHECK_EQ_U64(s, fmt.fields.n);
                if (i == 2) CHECK(view_is(fmt.print_fmt, "a"));
                if (i == 0) CHECK_EQ_U64(fmt.print_fmt.n, 0);
                if (i == 1) CHECK(view_is(fmt.print_fmt, "\"\""));
                if (i == 3) {
                    CHECK(view_is(f.name, "name") && view_is(f.type, "char"));
                    CHECK_EQ_U64(f.flags, FA | FSTR);
                    CHECK_EQ_U64(f.array_len, 16); /* char: size / 1 */
                    CHECK_EQ_U64(f.elem_size, 1);
                }
                if (i == 4) { /* two dimensions: 6 elements */
                    CHECK(view_is(f.name, "grid") && view_is(f.type, "int"));
                    CHECK_EQ_U64(f.flags, FA | FS);
                    CHECK_EQ_U64(f.array_len, 6);
                    CHECK_EQ_U64(f.elem_size, 4);
                }
            }
            free(t.b);
        }
}

/* Builds the RAW payload of sched_stat (E_STAT) in the given order. */
static size_t stat_raw(unsigned char *r, int big) {
    memset(r, 0, 80);
    poke(r, 0, 317, 2, big);
    /* comm: "hello" + NUL at 28; rcomm "rel" + NUL at 34 (from 16: 18);
       cpus u32 {1, 0xfffffffe} at 38; ips u64 {0x1122334455667788, ~0} at 46
       (from 24: 22); foos "abc" at 62 */
    poke(r, 8, (6u << 16) | 28u, 4, big);
    poke(r, 12, (4u << 16) | 18u, 4, big);
    poke(r, 16, (8u << 16) | 38u, 4, big);
    poke(r, 20, (16u << 16) | 22u, 4, big);
    poke(r, 24, (3u << 16) | 62u, 4, big);
    memcpy(r + 28, "hello", 6);
    memcpy(r + 34, "rel", 4);
    poke(r, 38, 1, 4, big);
    poke(r, 42, 0xfffffffeu, 4, big);
    poke(r, 46, 0x1122334455667788ull, 8, big);
    poke(r, 54, ~0ull, 8, big);
    memcpy(r + 62, "abc", 3);
    return 65;
}

static perfdata_view rawview(const unsigned char *p, size_t n) {
    perfdata_view v;
    v.p = p;
    v.n = n;
    v.offset = 5000;
    return v;
}

TEST(field_bytes_dynamic) {
    int big;
    for (big = 0; big <= 1; big++) {
        tspec sp = default_spec(big, 1);
        tb t;
        tlayout l;
        perfdata_tracing tr;
        perfdata_tp_format fmt;
        perfdata_tp_field comm, rcomm, cpus, ips, foos, ct;
        perfdata_view v;
        unsigned char r[80];
        size_t n, cut;
        uint64_t x;
        build(&t, &sp, &l);
        set_ctx(big, "__data_loc/__rel_loc");
        if (!CHECK_EQ_U64(perfdata_tracing_parse(mkview(t.b, t.n), &tr, NULL), PERFDATA_OK) ||
            !CHECK(perfdata_tracing_find(&tr, 317, &fmt))) {
            free(t.b);
            continue;
        }
        CHECK(perfdata_tp_field_find(&fmt, "comm", 4, &comm));
        CHECK(perfdata_tp_field_find(&fmt, "rcomm", 5, &rcomm));
        CHECK(perfdata_tp_field_find(&fmt, "cpus", 4, &cpus));
        CHECK(perfdata_tp_field_find(&fmt, "ips", 3, &ips));
        CHECK(perfdata_tp_field_find(&fmt, "foos", 4, &foos));
        CHECK(perfdata_tp_field_find(&fmt, "common_type", 11, &ct));
        n = stat_raw(r, big);
        {
            unsigned char *b = copy_exact(r, n);
            perfdata_view raw = rawview(b, n);
            CHECK(perfdata_tp_field_int(&ct, raw, big, 0, &x) && x == 317);
            if (CHECK(perfdata_tp_field_bytes(&comm, raw, big, &v))) {
                CHECK(v.n == 6 && memcmp(v.p, "hello", 6) == 0);
                CHECK(v.p == b + 28);
                CHECK_EQ_U64(v.offset, 5000 + 28);
            }
            if (CHECK(perfdata_tp_field_bytes(&rcomm, raw, big, &v))) {
                CHECK(v.n == 4 && memcmp(v.p, "rel", 4) == 0);
                CHECK_EQ_U64(v.offset, 5000 + 34);
            }
            if (CHECK(perfdata_tp_field_bytes(&cpus, raw, big, &v))) CHECK(v.p == b + 38 && v.n == 8);
            if (CHECK(perfdata_tp_field_bytes(&ips, raw, big, &v))) CHECK(v.p == b + 46 && v.n == 16);
            if (CHECK(perfdata_tp_field_bytes(&foos, raw, big, &v))) CHECK(v.n == 3 && memcmp(v.p, "abc", 3) == 0);
            /* elements of dynamic arrays */
            CHECK(perfdata_tp_field_int(&cpus, raw, big, 0, &x) && x == 1);
            CHECK(perfdata_tp_field_int(&cpus, raw, big, 1, &x) && x == 0xfffffffeu);
            CHECK(!perfdata_tp_field_int(&cpus, raw, big, 2, &x));
            CHECK(perfdata_tp_field_int(&ips, raw, big, 0, &x) && x == 0x1122334455667788ull);
            CHECK(perfdata_tp_field_int(&ips, raw, big, 1, &x) && x == ~0ull);
            CHECK(!perfdata_tp_field_int(&ips, raw, big, 2, &x));
            CHECK(perfdata_tp_field_int(&comm, raw, big, 4, &x) && x == 'o');
            CHECK(perfdata_tp_field_int(&comm, raw, big, 5, &x) && x == 0);
            CHECK(!perfdata_tp_field_int(&comm, raw, big, 6, &x));
            CHECK(!perfdata_tp_field_int(&comm, raw, big, (size_t)-1, &x));
            /* the wrong byte order reads other locations: out of range here */
            CHECK(!perfdata_tp_field_bytes(&comm, raw, !big, &v));
            free(b);
        }
        /* every cut of the payload: a field is there only when all of it is */
        for (cut = 0; cut <= n; cut++) {
            unsigned char *b = copy_exact(r, cut);
            perfdata_view raw = rawview(b, cut);
            CHECK_EQ_U64(perfdata_tp_field_bytes(&comm, raw, big, &v), cut >= 34);
            CHECK_EQ_U64(perfdata_tp_field_bytes(&rcomm, raw, big, &v), cut >= 38);
            CHECK_EQ_U64(perfdata_tp_field_bytes(&cpus, raw, big, &v), cut >= 46);
            CHECK_EQ_U64(perfdata_tp_field_bytes(&ips, raw, big, &v), cut >= 62);
            CHECK_EQ_U64(perfdata_tp_field_bytes(&foos, raw, big, &v), cut >= 65);
            CHECK_EQ_U64(perfdata_tp_field_int(&ips, raw, big, 0, &x), cut >= 62);
            CHECK_EQ_U64(perfdata_tp_field_int(&ct, raw, big, 0, &x), cut >= 2);
            free(b);
        }
        /* locations out of range */
        {
            static const uint32_t locs[] = {0xffffffffu, 0x0001ffffu, (1u << 16) | 65u, (2u << 16) | 64u,
                                            (0xffffu << 16) | 0u, (0u << 16) | 65u, (0u << 16) | 66u};
            size_t i;
            for (i = 0; i < sizeof locs / sizeof locs[0]; i++) {
                int ok_abs = (uint64_t)(locs[i] & 0xffff) + (locs[i] >> 16) <= n;
                int ok_rel = (uint64_t)(locs[i] & 0xffff) + 16 + (locs[i] >> 16) <= n;
                unsigned char *b;
                poke(r, 8, locs[i], 4, big);
                poke(r, 12, locs[i], 4, big);
                b = copy_exact(r, n);
                CHECK_EQ_U64(perfdata_tp_field_bytes(&comm, rawview(b, n), big, &v), ok_abs);
                if (ok_abs) CHECK(v.p == b + (locs[i] & 0xffff) && v.n == (locs[i] >> 16));
                CHECK_EQ_U64(perfdata_tp_field_bytes(&rcomm, rawview(b, n), big, &v), ok_rel);
                if (ok_rel) CHECK(v.p == b + 16 + (locs[i] & 0xffff));
                free(b);
            }
        }
        /* an empty payload; a NULL-pointer empty one */
        CHECK(!perfdata_tp_field_bytes(&comm, rawview(r, 0), big, &v));
        CHECK(!perfdata_tp_field_bytes(&comm, rawview(NULL, 0), big, &v));
        CHECK(!perfdata_tp_field_int(&ct, rawview(NULL, 0), big, 0, &x));
        free(t.b);
    }
}

TEST(field_int_every_size) {
    int big;
    for (big = 0; big <= 1; big++) {
        tspec sp = default_spec(big, 1);
        tb t;
        tlayout l;
        perfdata_tracing tr;
        perfdata_tp_format fmt;
        perfdata_tp_field f;
        unsigned char r[160], *b;
        perfdata_view raw, v;
        size_t i;
        uint64_t x;
        static const struct { const char *name; size_t idx; int ok; uint64_t want; } cases[] = {
            {"a_u8", 0, 1, 0xff},
            {"a_u8", 1, 0, 0},
            {"a_s8", 0, 1, 0xffffffffffffff80ull},
            {"a_u16", 0, 1, 0xfffe},
            {"a_s16", 0, 1, 0xffffffffffff8001ull},
            {"a_u32", 0, 1, 0xdeadbeefu},
            {"a_s32", 0, 1, 0xfffffffffffffffeull},
            {"a_u64", 0, 1, 0x0123456789abcdefull},
            {"a_s64", 0, 1, 0xfffffffffffffffdull},
            {"a_long", 0, 1, 0x8000000000000000ull},
            {"a_ptr", 0, 1, 0xffffffff81000000ull},
            {"saddr", 0, 1, 0},
            {"saddr", 27, 1, 27},
            {"saddr", 28, 0, 0},
            {"caller", 0, 1, 0x1000},
            {"caller", 3, 1, 0x1003},
            {"caller", 4, 0, 0},
            {"vals", 0, 1, 0xffffffffffffffffull},
            {"vals", 1, 1, 0x7fff},
            {"vals", 2, 1, 0xffffffffffff8000ull},
            {"vals", 3, 0, 0},
            {"blob", 0, 0, 0},
            {"triple", 0, 0, 0},
            {"a_s32", 1, 0, 0},
        };
        build(&t, &sp, &l);
        set_ctx(big, "integers");
        if (!CHECK_EQ_U64(perfdata_tracing_parse(mkview(t.b, t.n), &tr, NULL), PERFDATA_OK) ||
            !CHECK(perfdata_tracing_find(&tr, 400, &fmt))) {
            free(t.b);
            continue;
        }
        memset(r, 0, sizeof r);
        poke(r, 8, 0xff, 1, big);
        poke(r, 9, 0x80, 1, big);
        poke(r, 10, 0xfffe, 2, big);
        poke(r, 12, 0x8001, 2, big);
        poke(r, 16, 0xdeadbeefu, 4, big);
        poke(r, 20, 0xfffffffeu, 4, big);
        poke(r, 24, 0x0123456789abcdefull, 8, big);
        poke(r, 32, 0xfffffffffffffffdull, 8, big);
        poke(r, 40, 0x8000000000000000ull, 8, big);
        poke(r, 48, 0xffffffff81000000ull, 8, big);
        for (i = 0; i < 28; i++) r[56 + i] = (unsigned char)i;
        for (i = 0; i < 4; i++) poke(r, 88 + 8 * i, 0x1000 + i, 8, big);
        poke(r, 120, 0xffff, 2, big);
        poke(r, 122, 0x7fff, 2, big);
        poke(r, 124, 0x8000, 2, big);
        b = copy_exact(r, 143);
        raw = rawview(b, 143);
        for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            snprintf(ctx, sizeof ctx, "%s, %s[%zu]", big ? "big-endian" : "little-endian", cases[i].name, cases[i].idx);
            test_set_context(ctx);
            if (!CHECK(perfdata_tp_field_find(&fmt, cases[i].name, strlen(cases[i].name), &f))) continue;
            x = 12345;
            CHECK_EQ_U64(perfdata_tp_field_int(&f, raw, big, cases[i].idx, &x), cases[i].ok);
            if (cases[i].ok) CHECK_EQ_U64(x, cases[i].want);
            CHECK(perfdata_tp_field_bytes(&f, raw, big, &v) && v.p == b + f.offset && v.n == f.size);
            /* one byte short of the field: nothing */
            CHECK(!perfdata_tp_field_int(&f, rawview(b, f.offset + f.size - 1), big, cases[i].idx, &x));
            CHECK(!perfdata_tp_field_bytes(&f, rawview(b, f.offset + f.size - 1), big, &v) || f.size == 0);
        }
        /* a field built by hand: an elem_size that is not an integer size */
        set_ctx(big, "hand-made fields");
        memset(&f, 0, sizeof f);
        f.offset = 0;
        f.size = 16;
        f.elem_size = 16;
        CHECK(!perfdata_tp_field_int(&f, raw, big, 0, &x));
        f.elem_size = 0;
        f.flags = FA;
        CHECK(!perfdata_tp_field_int(&f, raw, big, 0, &x));
        f.flags = 0;
        f.offset = 0xfffffffcu;
        f.size = 4;
        f.elem_size = 4;
        CHECK(!perfdata_tp_field_int(&f, raw, big, 0, &x));
        CHECK(!perfdata_tp_field_bytes(&f, raw, big, &v));
        f.flags = FD | FR;
        CHECK(!perfdata_tp_field_bytes(&f, raw, big, &v));
        free(b);
        free(t.b);
    }
}

/* On hosts whose size_t cannot pack the walk's state (32-bit) or with an
   events part of many MB, _next walks from the start: same results. */
TEST(large_events_walk) {
    int big;
    for (big = 0; big <= 1; big++) {
        static const char head[] = "name: huge\nID: 999\nformat:\n\tfield:int v;\toffset:8;\tsize:4;\nprint fmt: \"\"\n";
        size_t pad = (size_t)9 << 20, s = 0, k = 0;
        char *huge = (char *)malloc(sizeof head + pad);
        const char *km[4];
        tsys sys[2];
        tspec sp = default_spec(big, 1);
        tb t;
        tlayout l;
        perfdata_tracing tr;
        perfdata_tp_format fmt;
        perfdata_error err;
        if (!huge) abort();
        memcpy(huge, head, sizeof head - 1);
        memset(huge + sizeof head - 1, 'x', pad);
        huge[sizeof head - 1 + pad] = 0;
        km[0] = E_INTS;
        km[1] = huge;
        km[2] = E_TINY;
        km[3] = E_BIGID;
        sys[0].name = "big";
        sys[0].files = km;
        sys[0].nfiles = 4;
        sys[1] = SYSTEMS[0];
        sp.systems = sys;
        sp.nsystems = 2;
        build(&t, &sp, &l);
        set_ctx(big, "9 MB events");
        if (CHECK_EQ_U64(perfdata_tracing_parse(mkview(t.b, t.n), &tr, &err), PERFDATA_OK)) {
            static const char *const names[] = {"function", "print", "ints", "huge", "tiny", "big_id", "sched_switch", "sched_stat"};
            while (perfdata_tp_format_next(&tr, &s, &fmt)) {
                if (k < 8 && !CHECK(view_is(fmt.name, names[k])))
                    fprintf(stderr, "    %zu: %.*s\n", k, (int)fmt.name.n, (const char *)fmt.name.p);
                k++;
                if (k > 8) break;
            }
            CHECK_EQ_U64(k, 8);
            CHECK(!perfdata_tp_format_next(&tr, &s, &fmt));
            CHECK(perfdata_tracing_find(&tr, 999, &fmt) && view_is(fmt.system, "big"));
            CHECK(perfdata_tracing_find(&tr, 317, &fmt) && view_is(fmt.system, "sched"));
        }
        free(t.b);
        free(huge);
    }
}

/* ===================================================================== */
/*                             real perf.data files                      */
/* ===================================================================== */

static const char **inputs;
static size_t ninputs;

static unsigned char *read_whole(const char *path, size_t *n) {
    FILE *fp = fopen(path, "rb");
    unsigned char *b;
    long len;
    *n = 0;
    if (!fp) return NULL;
    if (fseek(fp, 0, SEEK_END) != 0 || (len = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET) != 0) {
        fclose(fp);
        return NULL;
    }
    b = (unsigned char *)malloc((size_t)len + 1);
    if (!b) abort();
    if (fread(b, 1, (size_t)len, fp) != (size_t)len) {
        fclose(fp);
        free(b);
        return NULL;
    }
    fclose(fp);
    *n = (size_t)len;
    return b;
}

typedef struct real_stats {
    unsigned long files, tracepoint_attrs, formats, fields, samples, field_reads;
} real_stats;

/* Walks every format and field of tr; returns the number of formats. */
static unsigned long walk_all(const perfdata_tracing *tr, real_stats *st) {
    size_t s = 0;
    unsigned long n = 0;
    perfdata_tp_format fmt, g;
    while (perfdata_tp_format_next(tr, &s, &fmt)) {
        size_t fs = 0;
        perfdata_tp_field f;
        n++;
        while (perfdata_tp_field_next(&fmt, &fs, &f)) {
            st->fields++;
            CHECK(f.name.n > 0 && f.type.n > 0);
            if (f.flags & PERFDATA_TP_FIELD_ARRAY) CHECK(f.elem_size > 0);
        }
        CHECK_EQ_U64(fs, fmt.fields.n);
        if (!view_is(fmt.system, "ftrace")) CHECK(perfdata_tracing_find(tr, fmt.id, &g) && g.id == fmt.id);
    }
    CHECK_EQ_U64(n, (unsigned long)tr->nftrace + tr->nevents);
    return n;
}

/* Reads every field of a tracepoint sample; common_type must be the id. */
static void read_sample(const perfdata_tp_format *fmt, perfdata_view raw, int big, real_stats *st) {
    size_t fs = 0;
    perfdata_tp_field f;
    int type_seen = 0;
    while (perfdata_tp_field_next(fmt, &fs, &f)) {
        perfdata_view v;
        uint64_t x;
        size_t i, n;
        if (!CHECK(perfdata_tp_field_bytes(&f, raw, big, &v))) {
            fprintf(stderr, "    field %.*s of %.*s: outside the %zu-byte payload\n", (int)f.name.n,
                    (const char *)f.name.p, (int)fmt->name.n, (const char *)fmt->name.p, raw.n);
            continue;
        }
        st->field_reads++;
        if (f.elem_size == 1 || f.elem_size == 2 || f.elem_size == 4 || f.elem_size == 8) {
            n = (f.flags & (PERFDATA_TP_FIELD_ARRAY | PERFDATA_TP_FIELD_DYNAMIC)) ? v.n / f.elem_size : 1;
            for (i = 0; i < n; i++) CHECK(perfdata_tp_field_int(&f, raw, big, i, &x));
            CHECK(!perfdata_tp_field_int(&f, raw, big, n, &x));
        }
        if (view_is(f.name, "common_type") && CHECK(perfdata_tp_field_int(&f, raw, big, 0, &x))) {
            type_seen = 1;
            CHECK_EQ_U64(x, fmt->id & 0xffffu);
        }
    }
    CHECK(type_seen);
}

/* Memory for a NEED_MEMORY: twice what is asked, at least 4 KiB; refused
   (so that the reader goes on without it) when the reader will not take it. */
static void give(perfdata_reader *r, const perfdata_error *err) {
    size_t n = err->needed < 2048 ? 4096 : (size_t)err->needed * 2;
    void *mem = malloc(n);
    if (mem && perfdata_reader_give(r, (perfdata_pool)err->detail, mem, n, NULL) == PERFDATA_OK) return;
    free(mem);
    perfdata_reader_give(r, (perfdata_pool)err->detail, NULL, 0, NULL);
}

static int run_real(const char *path, real_stats *st) {
    size_t n, i;
    unsigned char *buf = read_whole(path, &n);
    perfdata_reader r;
    perfdata_record rec;
    perfdata_error err;
    perfdata_status s;
    perfdata_tracing tr;
    int have = 0;
    const perfdata_file *f;
    perfdata_tp_format *cache = NULL; /* per event */
    unsigned char *found = NULL;
    size_t ncache = 0;
    void *mem;
    test_set_context(path);
    if (!CHECK(buf != NULL)) return 0;
    perfdata_reader_init(&r, 0);
    perfdata_reader_set_input(&r, buf, n);
    s = perfdata_reader_start(&r, &err);
    while (s == PERFDATA_NEED_MEMORY) {
        give(&r, &err);
        s = perfdata_reader_start(&r, &err);
    }
    if (s != PERFDATA_OK) { /* not a perf.data file, or one perf cannot open either */
        printf("%s: not opened (%s), skipped\n", path, err.message);
        perfdata_reader_close(&r);
        while ((mem = perfdata_reader_take_back(&r, NULL)) != NULL) free(mem);
        free(buf);
        return 0;
    }
    f = perfdata_reader_file(&r);
    if (!(f->flags & PERFDATA_FILE_PIPE) && perfdata_has_feature(f, PERFDATA_FEAT_TRACING_DATA)) {
        perfdata_view sec;
        if (CHECK_EQ_U64(perfdata_feature_section(f, PERFDATA_FEAT_TRACING_DATA, &sec, &err), PERFDATA_OK)) {
            if (CHECK_EQ_U64(perfdata_tracing_parse(sec, &tr, &err), PERFDATA_OK)) have = 1;
            else fprintf(stderr, "    %s at 0x%llx\n", err.message, (unsigned long long)err.offset);
        }
    }
    while ((s = perfdata_reader_next(&r, &rec, &err)) != PERFDATA_END) {
        while ((mem = perfdata_reader_take_back(&r, NULL)) != NULL) free(mem);
        if (s == PERFDATA_NEED_MEMORY) {
            give(&r, &err);
            continue;
        }
        if (s != PERFDATA_OK) {
            if (err.final) break;
            if (!rec.type) continue;
        }
        f = perfdata_reader_file(&r);
        if (rec.type == PERFDATA_RECORD_HEADER_TRACING_DATA) {
            perfdata_tracing_data td;
            if (CHECK_EQ_U64(perfdata_decode_tracing_data(f, &rec, &td, &err), PERFDATA_OK)) {
                CHECK(td.data.n >= td.size);
                td.data.n = td.size;
                if (CHECK_EQ_U64(perfdata_tracing_parse(td.data, &tr, &err), PERFDATA_OK)) have = 1;
                else fprintf(stderr, "    %s at 0x%llx\n", err.message, (unsigned long long)err.offset);
            }
        }
        if (rec.type == PERFDATA_RECORD_SAMPLE && have) {
            perfdata_sample smp;
            const perfdata_event *ev;
            if (perfdata_decode_sample(f, &rec, &smp, &err) != PERFDATA_OK || smp.event < 0) continue;
            if ((size_t)smp.event >= f->nr_events) continue;
            ev = &f->events[smp.event];
            if (ev->attr.type != 2 /* PERF_TYPE_TRACEPOINT */) continue;
            if (ncache < f->nr_events) {
                size_t m = f->nr_events;
                cache = (perfdata_tp_format *)realloc(cache, m * sizeof *cache);
                found = (unsigned char *)realloc(found, m);
                if (!cache || !found) abort();
                for (i = ncache; i < m; i++) found[i] = 0;
                ncache = m;
            }
            if (!found[smp.event]) {
                found[smp.event] = perfdata_tracing_find(&tr, ev->attr.config, &cache[smp.event]) ? 1 : 2;
                CHECK_EQ_U64(found[smp.event], 1);
            }
            if (found[smp.event] == 1) {
                CHECK(smp.raw.n > 0);
                read_sample(&cache[smp.event], smp.raw, smp.raw_big_endian, st);
                st->samples++;
            }
        }
    }
    if (s != PERFDATA_END) /* a cut or broken recording: what came before it is read */
        printf("%s: the records end with %s (%s)\n", path, perfdata_status_name(err.code), err.message);
    if (have) {
        f = perfdata_reader_file(&r);
        st->files++;
        st->formats += walk_all(&tr, st);
        for (i = 0; i < f->nr_events; i++) {
            perfdata_tp_format fmt;
            if (f->events[i].attr.type != 2) continue;
            st->tracepoint_attrs++;
            if (!CHECK(perfdata_tracing_find(&tr, f->events[i].attr.config, &fmt)))
                fprintf(stderr, "    no format for tracepoint id %llu\n", (unsigned long long)f->events[i].attr.config);
        }
    }
    perfdata_reader_close(&r);
    while ((mem = perfdata_reader_take_back(&r, NULL)) != NULL) free(mem);
    free(cache);
    free(found);
    free(buf);
    printf("%s: %s\n", path, have ? "tracing data" : "no tracing data");
    return have;
}

TEST(real_files) {
    real_stats st;
    size_t i;
    memset(&st, 0, sizeof st);
    if (!ninputs) {
        test_skip("no perf.data files given as arguments");
        return;
    }
    for (i = 0; i < ninputs; i++) run_real(inputs[i], &st);
    test_set_context(NULL);
    printf("real files: %lu with tracing data, %lu formats, %lu fields, %lu tracepoint attrs, %lu samples, "
           "%lu field reads\n",
           st.files, st.formats, st.fields, st.tracepoint_attrs, st.samples, st.field_reads);
    CHECK(st.files > 0); /* files given, none with tracing data: fail */
    CHECK(st.tracepoint_attrs >= st.files);
}

int main(int argc, char **argv) {
    char **filters = (char **)malloc(((size_t)argc + 1) * sizeof *filters);
    const char **files = (const char **)malloc(((size_t)argc + 1) * sizeof *files);
    int i, nf = 0, rc;
    if (!filters || !files) abort();
    filters[nf++] = argv[0];
    for (i = 1; i < argc; i++) {
        FILE *fp = fopen(argv[i], "rb");
        if (fp) {
            int readable = fgetc(fp) != EOF || !ferror(fp); /* a directory opens, but does not read */
            fclose(fp);
            if (!readable) printf("%s: not a file, skipped\n", argv[i]);
            else files[ninputs++] = argv[i];
        } else {
            filters[nf++] = argv[i];
        }
    }
    inputs = files;
    test_filter(nf, filters);
    RUN_TEST(parse_every_accessor);
    RUN_TEST(every_prefix_truncated);
    RUN_TEST(framing_errors);
    RUN_TEST(long_size_and_versions);
    RUN_TEST(malformed_format_files);
    RUN_TEST(unusual_format_files);
    RUN_TEST(field_bytes_dynamic);
    RUN_TEST(field_int_every_size);
    RUN_TEST(large_events_walk);
    RUN_TEST(real_files);
    rc = test_report();
    free(filters);
    free(files);
    return rc;
}
