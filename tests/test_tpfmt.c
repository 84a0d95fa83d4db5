/* test_tpfmt.c - tests of tools/pd_tpfmt.c: tracepoint payloads printed as
   perf 6.1's `perf script` prints its trace field, and --filter.

   Build and run from the repository root (ASan+UBSan, and as C++11):
     cc -std=c99 -Wall -Wextra -Wpedantic -Werror -D_GNU_SOURCE -g \
        -fsanitize=address,undefined -I. -Itools tests/test_tpfmt.c \
        -o build/test/test_tpfmt && build/test/test_tpfmt [--corpus DIR]
     c++ -x c++ -std=c++11 ... the same.

   Unit tests: synthetic TRACING_DATA (written here, in both byte orders
   and both long sizes) with print fmts that use every helper and
   conversion supported; each payload is written in the tracing data's
   byte order and must print the same text in both.

   Differential tests: with --corpus DIR (default ../shared/corpus when it
   exists), every DIR/recorded/ *.data and DIR/public/ file that has a
   .script-trace.xz oracle (perf script -F comm,tid,pid,time,cpu,event,trace)
   is walked in time order; each sample's trace text (the line's part after
   "event: ") must equal perf's byte for byte. Kernel symbols (%pS) come from
   the recording machine's kallsyms, which is not here: the resolver used
   names every address "KSYM" with offset 0, and "KSYM+0x0" in our text
   matches any SYMBOL+0xOFF (or perf's unresolved 0xADDR) in perf's, counted
   apart. The differential part fails when no line was compared at all. */
#define PERFDATA_IMPLEMENTATION
#define PERFDATA_ZSTD
#include "perfdata.h"
#include "../tools/pd_intern.c"
#include "../tools/pd_text.c"
#ifndef __cplusplus /* the session helpers are C only: the C++ build runs the unit tests */
#include "../tools/pd_file.c"
#include "../tools/pd_opts.c"
#include "../tools/pd_tool.c"
#endif
#include "../tools/pd_tpfmt.c"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ------------------------------------------------ a TRACING_DATA writer */

typedef struct wbuf { unsigned char *p; size_t n, cap; int be; } wbuf;

static void w_bytes(wbuf *b, const void *s, size_t n) {
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->p = (unsigned char *)realloc(b->p, b->cap);
        if (!b->p) abort();
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
}
static void w_uint(wbuf *b, uint64_t v, unsigned size) {
    unsigned char t[8];
    unsigned i;
    for (i = 0; i < size; i++) t[b->be ? size - 1 - i : i] = (unsigned char)(v >> (8 * i));
    w_bytes(b, t, size);
}
static void w_str0(wbuf *b, const char *s) { w_bytes(b, s, strlen(s) + 1); }
static void w_text(wbuf *b, const char *s) { w_uint(b, strlen(s), 8); w_bytes(b, s, strlen(s)); }

static const char *COMMON =
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n";

/* one event "test:ev" id 100 with the given (non-common) field lines and print fmt */
static void make_tracing(wbuf *b, int be, unsigned long_size, const char *fields, const char *print_fmt) {
    char hp[512], ev[8192];
    snprintf(hp, sizeof hp,
             "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
             "\tfield: local_t commit;\toffset:8;\tsize:%u;\tsigned:1;\n"
             "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
             "\tfield: char data;\toffset:%u;\tsize:4080;\tsigned:1;\n",
             long_size, 8 + long_size);
    snprintf(ev, sizeof ev, "name: ev\nID: 100\nformat:\n%s%s\nprint fmt: %s\n", COMMON, fields, print_fmt);
    memset(b, 0, sizeof *b);
    b->be = be;
    w_bytes(b, "\x17\x08\x44tracing", 10);
    w_str0(b, "0.6");
    {
        unsigned char e = (unsigned char)be, l = (unsigned char)long_size;
        w_bytes(b, &e, 1);
        w_bytes(b, &l, 1);
    }
    w_uint(b, 4096, 4);
    w_str0(b, "header_page");
    w_text(b, hp);
    w_str0(b, "header_event");
    w_text(b, "# compressed entry header\n\ttype_len    :    5 bits\n\ttime_delta  :   27 bits\n\tarray       :   32 bits\n");
    w_uint(b, 0, 4); /* ftrace files */
    w_uint(b, 1, 4); /* systems */
    w_str0(b, "test");
    w_uint(b, 1, 4);
    w_text(b, ev);
    w_uint(b, 0, 4); /* kallsyms */
    w_uint(b, 0, 4); /* printk */
    w_uint(b, 0, 8); /* cmdlines */
}

/* a payload: common fields then whatever the test writes */
static void payload_start(wbuf *p, int be) {
    memset(p, 0, sizeof *p);
    p->be = be;
    w_uint(p, 100, 2);
    w_uint(p, 0, 1);
    w_uint(p, 0, 1);
    w_uint(p, 1234, 4);
}

/* a __data_loc word: offset and length */
static void w_loc(wbuf *p, unsigned off, unsigned len) { w_uint(p, ((uint64_t)len << 16) | off, 4); }

static int ksym_test(void *ctx, uint64_t addr, const char **name, uint64_t *start) {
    (void)ctx;
    if (addr >= 0xffffffff81000000ull && addr < 0xffffffff81001000ull) {
        *name = "do_thing";
        *start = 0xffffffff81000000ull;
        return 1;
    }
    return 0;
}

typedef void (*payload_fn)(wbuf *p);

static pd_tpfmt *compiled;

/* compile fields+fmt for one byte order and long size, print the payload,
   compare with want */
static int check_one(const char *fields, const char *print_fmt, payload_fn pay, const char *want, int be,
                     unsigned long_size, const char *line) {
    wbuf tb, pb;
    perfdata_tracing t;
    perfdata_tp_format fmt;
    perfdata_error err;
    perfdata_view v;
    size_t st = 0, len = 0, cap = 0;
    char *out = NULL;
    int ok;
    make_tracing(&tb, be, long_size, fields, print_fmt);
    v.p = tb.p;
    v.n = tb.n;
    v.offset = 0;
    if (!CHECK(perfdata_tracing_parse(v, &t, &err) == PERFDATA_OK)) {
        fprintf(stderr, "  tracing parse: %s\n", err.message);
        free(tb.p);
        return 0;
    }
    if (!CHECK(perfdata_tp_format_next(&t, &st, &fmt) == 1)) { free(tb.p); return 0; }
    compiled = pd_tpfmt_compile(&t, &fmt);
    payload_start(&pb, be);
    if (pay) pay(&pb);
    v.p = pb.p;
    v.n = pb.n;
    pd_tpfmt_print(compiled, v, be, ksym_test, NULL, &out, &len, &cap);
    ok = out && strcmp(out, want) == 0;
    if (!CHECK(ok))
        fprintf(stderr, "  %s (%s-endian, long %u):\n  fmt:  %s\n  want: [%s]\n  got:  [%s]\n", line,
                be ? "big" : "little", long_size, print_fmt, want, out ? out : "(null)");
    pd_tpfmt_free(compiled);
    compiled = NULL;
    free(out);
    free(tb.p);
    free(pb.p);
    return ok;
}

/* the failed form dumps arrays as their bytes, which differ between byte orders */
static void check_fmt2(const char *fields, const char *print_fmt, payload_fn pay, const char *want_le, const char *want_be,
                       const char *line) {
    check_one(fields, print_fmt, pay, want_le, 0, 8, line);
    check_one(fields, print_fmt, pay, want_be, 1, 8, line);
}

static void check_fmt(const char *fields, const char *print_fmt, payload_fn pay, const char *want, const char *line) {
    int be;
    for (be = 0; be < 2; be++) check_one(fields, print_fmt, pay, want, be, 8, line);
}
#define CHECK_FMT(fields, fmt, pay, want) check_fmt(fields, fmt, pay, want, #fmt)

/* --- sched_switch, as a 6.1 kernel writes it ------------------------------ */

static const char *SW_FIELDS =
    "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
    "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
    "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
    "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
    "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
    "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
    "\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n";
static const char *SW_FMT =
    "\"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s next_pid=%d next_prio=%d\", "
    "REC->prev_comm, REC->prev_pid, REC->prev_prio, (REC->prev_state & ((((0x0000 | 0x0001 | 0x0002 | 0x0004 | "
    "0x0008 | 0x0010 | 0x0020 | 0x0040) + 1) << 1) - 1)) ? __print_flags(REC->prev_state & ((((0x0000 | 0x0001 | "
    "0x0002 | 0x0004 | 0x0008 | 0x0010 | 0x0020 | 0x0040) + 1) << 1) - 1), \"|\", { 0x0001, \"S\" }, { 0x0002, "
    "\"D\" }, { 0x0004, \"T\" }, { 0x0008, \"t\" }, { 0x0010, \"X\" }, { 0x0020, \"Z\" }, { 0x0040, \"P\" }, { "
    "0x0080, \"I\" }) : \"R\", REC->prev_state & (((0x0000 | 0x0001 | 0x0002 | 0x0004 | 0x0008 | 0x0010 | 0x0020 "
    "| 0x0040) + 1) << 1) ? \"+\" : \"\", REC->next_comm, REC->next_pid, REC->next_prio";

static uint64_t sw_state;
static void pay_sw(wbuf *p) {
    w_bytes(p, "perf\0\0\0\0\0\0\0\0\0\0\0\0", 16);
    w_uint(p, 760, 4);
    w_uint(p, 120, 4);
    w_uint(p, sw_state, 8);
    w_bytes(p, "migration/0\0\0\0\0\0", 16);
    w_uint(p, 18, 4);
    w_uint(p, 0, 4);
}

TEST(sched_switch) {
    sw_state = 2;
    CHECK_FMT(SW_FIELDS, SW_FMT, pay_sw,
              "prev_comm=perf prev_pid=760 prev_prio=120 prev_state=D ==> next_comm=migration/0 next_pid=18 next_prio=0");
    sw_state = 0;
    CHECK_FMT(SW_FIELDS, SW_FMT, pay_sw,
              "prev_comm=perf prev_pid=760 prev_prio=120 prev_state=R ==> next_comm=migration/0 next_pid=18 next_prio=0");
    sw_state = 0x101;
    CHECK_FMT(SW_FIELDS, SW_FMT, pay_sw,
              "prev_comm=perf prev_pid=760 prev_prio=120 prev_state=S+ ==> next_comm=migration/0 next_pid=18 next_prio=0");
    sw_state = 3;
    CHECK_FMT(SW_FIELDS, SW_FMT, pay_sw,
              "prev_comm=perf prev_pid=760 prev_prio=120 prev_state=S|D ==> next_comm=migration/0 next_pid=18 next_prio=0");
}

/* --- kmalloc: %pS, %p, %zu, flags with casts, a ternary ------------------- */

static const char *KM_FIELDS =
    "\tfield:unsigned long call_site;\toffset:8;\tsize:8;\tsigned:0;\n"
    "\tfield:const void * ptr;\toffset:16;\tsize:8;\tsigned:0;\n"
    "\tfield:size_t bytes_req;\toffset:24;\tsize:8;\tsigned:0;\n"
    "\tfield:unsigned long gfp_flags;\toffset:32;\tsize:8;\tsigned:0;\n"
    "\tfield:int node;\toffset:40;\tsize:4;\tsigned:1;\n"
    "\tfield:bool accounted;\toffset:44;\tsize:1;\tsigned:0;\n";
static const char *KM_FMT =
    "\"call_site=%pS ptr=%p bytes_req=%zu gfp_flags=%s node=%d accounted=%s\", (void *)REC->call_site, REC->ptr, "
    "REC->bytes_req, (REC->gfp_flags) ? __print_flags(REC->gfp_flags, \"|\", {(unsigned long)(((( gfp_t)(0x400u|0x800u)) "
    "| (( gfp_t)0x40u) | (( gfp_t)0x80u))), \"GFP_KERNEL\"}, {(unsigned long)(( gfp_t)0x100u), \"__GFP_ZERO\"}) : "
    "\"none\", REC->node, REC->accounted ? \"true\" : \"false\"";

static uint64_t km_site, km_ptr, km_gfp;
static void pay_km(wbuf *p) {
    w_uint(p, km_site, 8);
    w_uint(p, km_ptr, 8);
    w_uint(p, 32, 8);
    w_uint(p, km_gfp, 8);
    w_uint(p, (uint64_t)-1, 4);
    w_uint(p, 1, 1);
}

TEST(kmalloc) {
    km_site = 0xffffffff8100010cull;
    km_ptr = 0xffff8881043155a0ull;
    km_gfp = 0xcc0;
    CHECK_FMT(KM_FIELDS, KM_FMT, pay_km,
              "call_site=do_thing+0x10c ptr=0xffff8881043155a0 bytes_req=32 gfp_flags=GFP_KERNEL node=-1 accounted=true");
    km_site = 0xffffffff813ceccc;
    km_ptr = 0;
    km_gfp = 0xdc0 | 0x10000;
    CHECK_FMT(KM_FIELDS, KM_FMT, pay_km,
              "call_site=0xffffffff813ceccc ptr=(nil) bytes_req=32 gfp_flags=GFP_KERNEL|__GFP_ZERO|0x10000 node=-1 "
              "accounted=true");
    km_gfp = 0;
    CHECK_FMT(KM_FIELDS, KM_FMT, pay_km,
              "call_site=0xffffffff813ceccc ptr=(nil) bytes_req=32 gfp_flags=none node=-1 accounted=true");
}

/* --- integers: every length, flag, width and precision -------------------- */

static const char *INT_FIELDS =
    "\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n"
    "\tfield:unsigned int b;\toffset:12;\tsize:4;\tsigned:0;\n"
    "\tfield:long c;\toffset:16;\tsize:8;\tsigned:1;\n"
    "\tfield:u8 d;\toffset:24;\tsize:1;\tsigned:0;\n"
    "\tfield:short e;\toffset:26;\tsize:2;\tsigned:1;\n"
    "\tfield:unsigned long args[3];\toffset:32;\tsize:24;\tsigned:0;\n";
static void pay_int(wbuf *p) {
    w_uint(p, (uint64_t)-5, 4);
    w_uint(p, 0xdeadbeef, 4);
    w_uint(p, (uint64_t)-1234567890123ll, 8);
    w_uint(p, 0xfe, 1);
    w_uint(p, 0, 1);
    w_uint(p, (uint64_t)-300, 2);
    w_uint(p, 0, 4);
    w_uint(p, 1, 8);
    w_uint(p, 0x7ffecd3ac13cull, 8);
    w_uint(p, 0x37f, 8);
}

#define FAILED_INT "[FAILED TO PARSE] a=-5 b=3735928559 c=-1234567890123 d=254 e=-300 "
#define ARGS_LE "args=ARRAY[01, 00, 00, 00, 00, 00, 00, 00, 3c, c1, 3a, cd, fe, 7f, 00, 00, 7f, 03, 00, 00, 00, 00, 00, 00]"
#define ARGS_BE "args=ARRAY[00, 00, 00, 00, 00, 00, 00, 01, 00, 00, 7f, fe, cd, 3a, c1, 3c, 00, 00, 00, 00, 00, 00, 03, 7f]"

TEST(integers) {
    CHECK_FMT(INT_FIELDS, "\"%d %u %x %X %o\", REC->a, REC->a, REC->b, REC->b, REC->d", pay_int,
              "-5 4294967291 deadbeef DEADBEEF 376");
    CHECK_FMT(INT_FIELDS, "\"[%5d|%-5d|%05d|%08x|%#x|%#o|%.3d|%5.3d]\", REC->a, REC->a, REC->a, REC->b, REC->b, REC->d, "
              "REC->d, REC->d", pay_int, "[   -5|-5   |-0005|deadbeef|0xdeadbeef|0376|254|  254]");
    CHECK_FMT(INT_FIELDS, "\"%ld %lu %lld %llx %Lx\", REC->c, REC->c, REC->c, REC->c, REC->c", pay_int,
              "-1234567890123 18446742839141661493 -1234567890123 fffffee08e04fb35 fffffee08e04fb35");
    CHECK_FMT(INT_FIELDS, "\"%hd %hu %hhd %hhu %hx\", REC->e, REC->e, REC->d, REC->d, REC->e", pay_int,
              "-300 65236 -2 254 fed4");
    /* perf passes an int for %zu (no l): what glibc reads is that int */
    CHECK_FMT(INT_FIELDS, "\"%zu %zd %zx\", REC->c, REC->a, REC->a", pay_int, "2382691125 4294967291 fffffffb");
    CHECK_FMT(INT_FIELDS, "\"%*d|%-*d|%.*s\", 4, REC->a, 4, REC->a, 2, \"abcdef\"", pay_int, "  -5|-5  |ab");
    CHECK_FMT(INT_FIELDS, "\"NR %ld (%lx, %lx, %lx)\", REC->c, REC->args[0], REC->args[1], REC->args[2]", pay_int,
              "NR -1234567890123 (1, 7ffecd3ac13c, 37f)");
    /* %c, %+d are not perf's: it prints >c< and goes on */
    CHECK_FMT(INT_FIELDS, "\"%c|%+d|100%%\", REC->a, REC->a", pay_int, ">c<|>+<d|100%");
    check_fmt2(INT_FIELDS, "\"%d %d\", REC->a", pay_int, FAILED_INT ARGS_LE, FAILED_INT ARGS_BE, "missing arg");
}

/* --- arithmetic, casts, ternaries, libtraceevent's grouping ---------------- */

TEST(expressions) {
    CHECK_FMT(INT_FIELDS, "\"%d %d %d %d %d\", REC->a + 10, REC->a * 3 + 1, 1 + REC->a * 3, 20 - 4 - 2, 20 / 4 / 2",
              pay_int, "5 -14 -14 18 10");
    CHECK_FMT(INT_FIELDS, "\"%u %u %lu %lu\", (u8)REC->b, (u16)REC->b, (unsigned long)(u8)REC->b, REC->b >> 16",
              pay_int, "239 48879 239 57005");
    /* fields read unsigned, constants 64-bit: -5 in an int field is neither < 0 nor == -5, as in perf */
    CHECK_FMT(INT_FIELDS, "\"%d %d %d %d %d\", REC->a < 0, REC->a == -5, !REC->a, REC->a ? 7 : 8, (int)REC->a == 0xfffffffb",
              pay_int, "0 0 0 7 1");
    CHECK_FMT(INT_FIELDS, "\"%s %s\", REC->a < 0 ? \"neg\" : \"pos\", REC->d & 1 ? \"odd\" : \"even\"", pay_int,
              "pos even");
    CHECK_FMT(INT_FIELDS, "\"%d %d\", REC->a / 0, REC->a % 0", pay_int, "0 0");
    /* a function perf does not know: the event fails, as in perf */
    check_fmt2(INT_FIELDS, "\"%d\", foo(REC->a)", pay_int, FAILED_INT ARGS_LE, FAILED_INT ARGS_BE, "unknown function");
}

/* --- strings, symbols, hex, arrays, bitmasks ------------------------------ */

static const char *STR_FIELDS =
    "\tfield:__data_loc char[] name;\toffset:8;\tsize:4;\tsigned:0;\n"
    "\tfield:__data_loc u8[] buf;\toffset:12;\tsize:4;\tsigned:0;\n"
    "\tfield:__data_loc unsigned long[] mask;\toffset:16;\tsize:4;\tsigned:0;\n"
    "\tfield:__data_loc u32[] vals;\toffset:20;\tsize:4;\tsigned:0;\n"
    "\tfield:int mode;\toffset:24;\tsize:4;\tsigned:1;\n"
    "\tfield:unsigned char mac[6];\toffset:28;\tsize:6;\tsigned:0;\n"
    "\tfield:__u8 addr[4];\toffset:34;\tsize:4;\tsigned:0;\n"
    "\tfield:u8 uuid[16];\toffset:38;\tsize:16;\tsigned:0;\n"
    "\tfield:__rel_loc char[] rel;\toffset:54;\tsize:4;\tsigned:0;\n";
static const char *str_name = "kworker/0:1";
static void pay_str(wbuf *p) {
    unsigned nlen = (unsigned)strlen(str_name) + 1;
    unsigned base = 58;
    w_loc(p, base, nlen);
    w_loc(p, base + nlen, 3);
    w_loc(p, base + nlen + 3, 8);
    w_loc(p, base + nlen + 11, 8);
    w_uint(p, 2, 4);
    w_bytes(p, "\x00\x1b\x21\xaa\xbb\xcc", 6);
    w_bytes(p, "\x0a\x00\x00\x01", 4);
    w_bytes(p, "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10", 16);
    w_loc(p, nlen + 19, 4); /* __rel_loc: from the end of this word (58) */
    w_bytes(p, str_name, nlen);
    w_bytes(p, "\xde\xad\x01", 3);
    w_uint(p, 0x0000000300000005ull, 8); /* a bitmask: one long */
    w_uint(p, 7, 4);
    w_uint(p, 4000000000u, 4);
    w_bytes(p, "rel", 4);
}

TEST(strings_and_helpers) {
    CHECK_FMT(STR_FIELDS, "\"name=%s rel=%s [%-14s] [%5.3s]\", __get_str(name), __get_rel_str(rel), __get_str(name), "
              "__get_str(name)", pay_str, "name=kworker/0:1 rel=rel [kworker/0:1   ] [  kwo]");
    CHECK_FMT(STR_FIELDS, "\"mode=%s\", __print_symbolic(REC->mode, { 1, \"ONE\" }, { 2, \"TWO\" })", pay_str,
              "mode=TWO");
    CHECK_FMT(STR_FIELDS, "\"mode=%s\", __print_symbolic(REC->mode, { 1, \"ONE\" }, { 3, \"THREE\" })", pay_str,
              "mode=0x2");
    CHECK_FMT(STR_FIELDS, "\"f=%s\", __print_flags(REC->mode | 8, \"\", { 2, \"B\" }, { 8, \"D\" })", pay_str, "f=BD");
    CHECK_FMT(STR_FIELDS, "\"buf=%s hex=%s len=%d\", __print_hex(__get_dynamic_array(buf), "
              "__get_dynamic_array_len(buf)), __print_hex_str(__get_dynamic_array(buf), 3), __get_dynamic_array_len(buf)",
              pay_str, "buf=de ad 01 hex=dead01 len=3");
    CHECK_FMT(STR_FIELDS, "\"vals={%s}\", __print_array(__get_dynamic_array(vals), 2, 4)", pay_str,
              "vals={7 4000000000}");
    CHECK_FMT(STR_FIELDS, "\"mask=%s\", __get_bitmask(mask)", pay_str, "mask=00000003,00000005");
    CHECK_FMT(STR_FIELDS, "\"mac=%pM %pm %pMR i4=%pI4 %pi4 u=%pU %pUb\", REC->mac, REC->mac, REC->mac, REC->addr, "
              "REC->addr, REC->uuid, REC->uuid", pay_str,
              "mac=00:1b:21:aa:bb:cc 001b21aabbcc cc:bb:aa:21:1b:00 i4=10.0.0.1 010.000.000.001 "
              "u=01020304-0506-0708-090a-0b0c0d0e0f10 01020304-0506-0708-090a-0b0c0d0e0f10");
    CHECK_FMT(STR_FIELDS, "\"%*ph|%*phC|%ph\", 3, __get_dynamic_array(buf), 2, __get_dynamic_array(buf), "
              "__get_dynamic_array(buf)", pay_str, "de ad 01|de:ad|de");
    /* a name with a newline and an escape cannot forge a line */
    str_name = "a\nb\x1b[0m";
    CHECK_FMT(STR_FIELDS, "\"name=%s\", __get_str(name)", pay_str, "name=a\\x0ab\\x1b[0m");
    str_name = "kworker/0:1";
    /* %pIS is not supported: the fields, as perf prints an event it cannot parse */
    /* (unsigned char and __u8 arrays are strings to perf: mac starts with a NUL, addr with a newline) */
    check_fmt2(STR_FIELDS, "\"%pISpc\", REC->addr", pay_str,
               "[FAILED TO PARSE] name=kworker/0:1 buf=ARRAY[de, ad, 01] mask=ARRAY[05, 00, 00, 00, 03, 00, 00, 00] "
               "vals=ARRAY[07, 00, 00, 00, 00, 28, 6b, ee] mode=2 mac= addr=\\x0a "
               "uuid=ARRAY[01, 02, 03, 04, 05, 06, 07, 08, 09, 0a, 0b, 0c, 0d, 0e, 0f, 10] rel=rel",
               "[FAILED TO PARSE] name=kworker/0:1 buf=ARRAY[de, ad, 01] mask=ARRAY[00, 00, 00, 03, 00, 00, 00, 05] "
               "vals=ARRAY[00, 00, 00, 07, ee, 6b, 28, 00] mode=2 mac= addr=\\x0a "
               "uuid=ARRAY[01, 02, 03, 04, 05, 06, 07, 08, 09, 0a, 0b, 0c, 0d, 0e, 0f, 10] rel=rel",
               "pIS");
}

/* --- the failed form: strings that stop being printable stay arrays ------- */

static const char *fail_comm = "ok";
static void pay_fail(wbuf *p) {
    char c[8] = {0};
    memcpy(c, fail_comm, strlen(fail_comm));
    w_bytes(p, c, 8);
    w_uint(p, 0xffffffff81000000ull, 8);
    w_uint(p, (uint64_t)-2, 2);
    w_uint(p, (uint64_t)-3, 1);
}

TEST(failed_form) {
    const char *fields = "\tfield:char comm[8];\toffset:8;\tsize:8;\tsigned:0;\n"
                         "\tfield:void * p;\toffset:16;\tsize:8;\tsigned:0;\n"
                         "\tfield:short s;\toffset:24;\tsize:2;\tsigned:1;\n"
                         "\tfield:s8 c;\toffset:26;\tsize:1;\tsigned:1;\n";
    CHECK_FMT(fields, "\"%d\", unknown(REC->s)", pay_fail, "[FAILED TO PARSE] comm=ok p=0xffffffff81000000 s=-2 c=-3");
    fail_comm = "bad\x01";
    CHECK_FMT(fields, "\"%d\", unknown(REC->s)", pay_fail,
              "[FAILED TO PARSE] comm=ARRAY[62, 61, 64, 01, 00, 00, 00, 00] p=0xffffffff81000000 s=-2 c=-3");
    fail_comm = "ok";
}

/* --- hostile input ------------------------------------------------------ */

TEST(hostile) {
    /* a payload cut short: reads outside it are 0 and strings stop at its end (ASan checks) */
    {
        wbuf tb, pb;
        perfdata_tracing t;
        perfdata_tp_format fmt;
        perfdata_view v;
        size_t st = 0, len = 0, cap = 0, cut;
        char *out = NULL;
        make_tracing(&tb, 0, 8, STR_FIELDS,
                     "\"%s %s %s %s %s %pM %pI4 %pU %d\", __get_str(name), __print_hex(__get_dynamic_array(buf), 1000), "
                     "__get_bitmask(mask), __print_array(__get_dynamic_array(vals), 100000, 4), __get_rel_str(rel), "
                     "REC->mac, REC->addr, REC->uuid, REC->mode");
        v.p = tb.p;
        v.n = tb.n;
        v.offset = 0;
        CHECK(perfdata_tracing_parse(v, &t, NULL) == PERFDATA_OK && perfdata_tp_format_next(&t, &st, &fmt) == 1);
        compiled = pd_tpfmt_compile(&t, &fmt);
        CHECK(!pd_tpfmt_failed(compiled));
        payload_start(&pb, 0);
        pay_str(&pb);
        for (cut = 0; cut <= pb.n; cut++) {
            unsigned char *copy = (unsigned char *)malloc(cut ? cut : 1);
            memcpy(copy, pb.p, cut);
            v.p = copy;
            v.n = cut;
            len = 0;
            pd_tpfmt_print(compiled, v, 0, NULL, NULL, &out, &len, &cap);
            free(copy);
        }
        CHECK(out != NULL);
        pd_tpfmt_free(compiled);
        free(out);
        free(tb.p);
        free(pb.p);
    }
    /* nesting past the limit: refused (named), never a stack overflow */
    {
        static char fmtbuf[40000];
        size_t i, n = 0;
        wbuf tb;
        perfdata_tracing t;
        perfdata_tp_format fmt;
        perfdata_view v;
        size_t st = 0;
        n += (size_t)sprintf(fmtbuf + n, "\"%%d\", ");
        for (i = 0; i < 5000; i++) fmtbuf[n++] = '(';
        fmtbuf[n++] = '1';
        for (i = 0; i < 5000; i++) fmtbuf[n++] = ')';
        fmtbuf[n] = 0;
        make_tracing(&tb, 0, 8, INT_FIELDS, "\"x\"");
        free(tb.p);
        /* the format goes in by hand: make_tracing's buffer is small */
        {
            char *ev = (char *)malloc(60000);
            snprintf(ev, 60000, "name: ev\nID: 100\nformat:\n%s%s\nprint fmt: %s\n", COMMON, INT_FIELDS, fmtbuf);
            memset(&tb, 0, sizeof tb);
            w_bytes(&tb, "\x17\x08\x44tracing", 10);
            w_str0(&tb, "0.6");
            w_bytes(&tb, "\x00\x08", 2);
            w_uint(&tb, 4096, 4);
            w_str0(&tb, "header_page");
            w_text(&tb, "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n");
            w_str0(&tb, "header_event");
            w_text(&tb, "x\n");
            w_uint(&tb, 0, 4);
            w_uint(&tb, 1, 4);
            w_str0(&tb, "test");
            w_uint(&tb, 1, 4);
            w_text(&tb, ev);
            w_uint(&tb, 0, 4);
            w_uint(&tb, 0, 4);
            w_uint(&tb, 0, 8);
            free(ev);
        }
        v.p = tb.p;
        v.n = tb.n;
        v.offset = 0;
        if (CHECK(perfdata_tracing_parse(v, &t, NULL) == PERFDATA_OK && perfdata_tp_format_next(&t, &st, &fmt) == 1)) {
            compiled = pd_tpfmt_compile(&t, &fmt);
            CHECK(pd_tpfmt_failed(compiled));
            CHECK(pd_tpfmt_unsupported(compiled) != NULL);
            pd_tpfmt_free(compiled);
        }
        free(tb.p);
    }
    /* an unterminated string, a lone %, a trailing backslash */
    check_fmt2(INT_FIELDS, "\"abc", pay_int, FAILED_INT ARGS_LE, FAILED_INT ARGS_BE, "unterminated");
    CHECK_FMT(INT_FIELDS, "\"abc%\"", pay_int, "abc");
}

/* --- long size 4 ---------------------------------------------------------- */

static void pay_l4(wbuf *p) {
    w_uint(p, 0x81000010u, 4);
    w_bytes(p, "xy\0\0", 4);
}

TEST(long_size_4) {
    const char *fields = "\tfield:unsigned long ip;\toffset:8;\tsize:4;\tsigned:0;\n"
                         "\tfield:char s[4];\toffset:12;\tsize:4;\tsigned:0;\n";
    int be;
    for (be = 0; be < 2; be++) {
        /* %s of a long-sized field prints its hex (perf: a printk format's address) */
        check_one(fields, "\"%s %lx %s\", REC->ip, REC->ip, REC->s", pay_l4, "81000010 81000010 xy", be, 4, "long4");
    }
}

/* --- filters -------------------------------------------------------------- */

TEST(tp_filters) {
    int be;
    for (be = 0; be < 2; be++) {
        wbuf tb, pb;
        perfdata_tracing t;
        perfdata_tp_format fmt;
        perfdata_view v;
        size_t st = 0;
        char err[128];
        pd_tpfilter *fl;
        make_tracing(&tb, be, 8, SW_FIELDS, SW_FMT);
        v.p = tb.p;
        v.n = tb.n;
        v.offset = 0;
        if (!CHECK(perfdata_tracing_parse(v, &t, NULL) == PERFDATA_OK && perfdata_tp_format_next(&t, &st, &fmt) == 1))
            continue;
        sw_state = 2;
        payload_start(&pb, be);
        pay_sw(&pb);
        v.p = pb.p;
        v.n = pb.n;
#define FMATCH(expr, want)                                                          \
    do {                                                                            \
        fl = pd_tpfilter_compile(&fmt, expr, err, sizeof err);                      \
        if (CHECK(fl != NULL)) {                                                    \
            if (!CHECK(pd_tpfilter_match(fl, v, be) == (want))) fprintf(stderr, "  %s\n", expr); \
            pd_tpfilter_free(fl);                                                   \
        } else fprintf(stderr, "  %s: %s\n", expr, err);                            \
    } while (0)
        FMATCH("prev_pid == 760", 1);
        FMATCH("prev_pid != 760", 0);
        FMATCH("prev_pid > 700 && next_pid < 20", 1);
        FMATCH("prev_pid >= 761 || next_pid <= 17", 0);
        FMATCH("!(prev_pid == 1) && prev_state & 2", 1);
        FMATCH("prev_state & 1", 0);
        FMATCH("common_pid == 1234", 1);
        FMATCH("next_prio == 0 && prev_prio == 120", 1);
        FMATCH("prev_comm == perf", 1);
        FMATCH("prev_comm == \"perf\"", 1);
        FMATCH("prev_comm != 'perf'", 0);
        FMATCH("next_comm ~ \"migr*\"", 1);
        FMATCH("next_comm ~ \"*/[0-9]\"", 1);
        FMATCH("next_comm ~ \"m?g*/1\"", 0);
        FMATCH("prev_pid == 760 && (next_comm ~ 'x*' || next_pid == 18)", 1);
        FMATCH("prev_pid > -1", 1);
        fl = pd_tpfilter_compile(&fmt, "nosuch == 1", err, sizeof err);
        CHECK(fl == NULL && strstr(err, "nosuch") != NULL);
        fl = pd_tpfilter_compile(&fmt, "prev_pid ==", err, sizeof err);
        CHECK(fl == NULL && err[0]);
        fl = pd_tpfilter_compile(&fmt, "prev_comm < 3", err, sizeof err);
        CHECK(fl == NULL && err[0]);
        fl = pd_tpfilter_compile(&fmt, "(prev_pid == 1", err, sizeof err);
        CHECK(fl == NULL && err[0]);
        fl = pd_tpfilter_compile(&fmt, "prev_pid == 1 garbage", err, sizeof err);
        CHECK(fl == NULL && err[0]);
        {
            static char deep[3000];
            memset(deep, '(', 1000);
            strcpy(deep + 1000, "prev_pid == 1");
            fl = pd_tpfilter_compile(&fmt, deep, err, sizeof err);
            CHECK(fl == NULL && err[0]);
        }
        /* a payload cut short reads as 0 / "" */
        v.n = 8;
        FMATCH("prev_pid == 0 && prev_comm == ''", 1);
        free(tb.p);
        free(pb.p);
    }
}

/* --------------------------------------------- against perf's own output */
#ifndef __cplusplus

typedef struct cmp_ctx {
    pd_session *s;
    perfdata_tracing tracing;
    int have_tracing;
    pd_tpfmt **tp;             /* per event */
    long ntp;
    char **lines;              /* the oracle's trace texts */
    size_t nlines, at;
    char *buf;
    size_t len, cap;
    unsigned long compared, equal, ksym_equal, mismatched, failed_events;
    int shown;
    const char *name;
} cmp_ctx;

static int ksym_any(void *ctx, uint64_t addr, const char **name, uint64_t *start) {
    (void)ctx;
    *name = "KSYM";
    *start = addr;
    return 1;
}

static int is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

/* ours equals perf's, where our "KSYM+0x0" stands for any SYMBOL+0xOFF or 0xADDR. 2: equal with a
   symbol accepted, 1: equal, 0: not */
static int trace_equal(const char *ours, const char *perf) {
    int sym = 0;
    while (*ours || *perf) {
        if (!strncmp(ours, "KSYM+0x0", 8)) {
            const char *q = perf;
            if (q[0] == '0' && q[1] == 'x' && is_hex(q[2])) {
                q += 2;
                while (is_hex(*q)) q++;
            } else {
                while (*q && *q != ' ' && *q != '+') q++;
                if (q == perf || strncmp(q, "+0x", 3) != 0 || !is_hex(q[3])) return 0;
                q += 3;
                while (is_hex(*q)) q++;
            }
            ours += 8;
            perf = q;
            sym = 1;
            continue;
        }
        if (*ours != *perf) return 0;
        ours++;
        perf++;
    }
    return sym ? 2 : 1;
}

static void cmp_record(void *vctx, const perfdata_record *rec, const char *file_name) {
    cmp_ctx *c = (cmp_ctx *)vctx;
    perfdata_sample s;
    perfdata_error err;
    const char *want;
    (void)file_name;
    if (rec->type == PERFDATA_RECORD_HEADER_TRACING_DATA && !c->have_tracing) {
        perfdata_tracing_data td;
        if (perfdata_decode_tracing_data(c->s->file, rec, &td, &err) == PERFDATA_OK &&
            perfdata_tracing_parse(td.data, &c->tracing, &err) == PERFDATA_OK)
            c->have_tracing = 1;
        return;
    }
    if (rec->type != PERFDATA_RECORD_SAMPLE) return;
    if (perfdata_decode_sample(c->s->file, rec, &s, &err) != PERFDATA_OK) return;
    if (c->at >= c->nlines) { c->at++; return; }
    want = c->lines[c->at++];
    c->len = 0;
    if (s.event >= 0 && (size_t)s.event < c->s->file->nr_events &&
        c->s->file->events[s.event].attr.type == 2 && s.raw.n && c->have_tracing) {
        long e = s.event;
        if (e >= c->ntp) {
            long n = e + 1, i;
            c->tp = (pd_tpfmt **)realloc(c->tp, (size_t)n * sizeof *c->tp);
            for (i = c->ntp; i < n; i++) c->tp[i] = NULL;
            c->ntp = n;
        }
        if (!c->tp[e]) {
            perfdata_tp_format fmt;
            if (!perfdata_tracing_find(&c->tracing, c->s->file->events[e].attr.config, &fmt)) return;
            c->tp[e] = pd_tpfmt_compile(&c->tracing, &fmt);
            if (pd_tpfmt_failed(c->tp[e])) c->failed_events++;
            if (pd_tpfmt_unsupported(c->tp[e]))
                printf("# %s: event %ld: unsupported: %s\n", c->name, e, pd_tpfmt_unsupported(c->tp[e]));
        }
        pd_tpfmt_print(c->tp[e], s.raw, s.raw_big_endian, ksym_any, NULL, &c->buf, &c->len, &c->cap);
    } else {
        if (!c->buf) { c->buf = (char *)malloc(1); c->cap = 1; }
        c->buf[0] = 0;
    }
    c->compared++;
    switch (trace_equal(c->buf, want)) {
    case 2: c->ksym_equal++; break;
    case 1: c->equal++; break;
    default:
        c->mismatched++;
        if (c->shown++ < 5) printf("# %s: sample %lu differs:\n#   perf: [%s]\n#   ours: [%s]\n", c->name,
                                   (unsigned long)(c->at - 1), want, c->buf);
    }
}

/* the trace text of each line: after the time's ": ", the event name and its ": " */
static char *trace_part(char *line) {
    char *p = line;
    for (; *p; p++) {
        if (*p == ':' && p[1] == ' ' && p > line && is_hex(p[-1])) {
            char *q = p - 1;
            while (q > line && (*q >= '0' && *q <= '9')) q--;
            if (*q != '.') continue;
            q = p + 2;
            while (*q == ' ') q++;
            q = strstr(q, ": ");
            if (!q) return NULL;
            return q + 2;
        }
    }
    return NULL;
}

static int read_oracle(const char *xz, char ***lines, size_t *n) {
    char cmd[4200], *line = NULL;
    size_t lcap = 0, cap = 0;
    ssize_t got;
    FILE *fp;
    snprintf(cmd, sizeof cmd, "xz -dc '%s'", xz);
    fp = popen(cmd, "r");
    if (!fp) return -1;
    *lines = NULL;
    *n = 0;
    while ((got = getline(&line, &lcap, fp)) >= 0) {
        char *t;
        if (got && line[got - 1] == '\n') line[got - 1] = 0;
        t = trace_part(line);
        if (*n == cap) {
            cap = cap ? cap * 2 : 256;
            *lines = (char **)realloc(*lines, cap * sizeof **lines);
        }
        (*lines)[(*n)++] = strdup(t ? t : "");
    }
    free(line);
    return pclose(fp) == 0 ? 0 : -1;
}

static unsigned long total_compared, total_equal, total_ksym;

static void compare_file(const char *data, const char *oracle) {
    cmp_ctx c;
    pd_session s;
    size_t i;
    memset(&c, 0, sizeof c);
    c.name = data;
    if (read_oracle(oracle, &c.lines, &c.nlines) < 0) {
        CHECK(!"oracle unreadable");
        return;
    }
    if (pd_session_open_flags(&s, data, PERFDATA_READ_ORDERED) != 0) {
        printf("# %s: cannot open\n", data);
        CHECK(!"cannot open");
        return;
    }
    c.s = &s;
    {
        perfdata_view v;
        perfdata_error err;
        if (perfdata_feature_section(s.file, PERFDATA_FEAT_TRACING_DATA, &v, &err) == PERFDATA_OK &&
            perfdata_tracing_parse(v, &c.tracing, &err) == PERFDATA_OK)
            c.have_tracing = 1;
    }
    pd_session_walk_ordered(&s, cmp_record, &c);
    printf("# %s: %lu lines compared, %lu equal, %lu equal with %%pS symbols accepted, %lu differ; oracle %lu "
           "lines, samples %lu; %lu events perf fails to parse\n",
           data, c.compared, c.equal, c.ksym_equal, c.mismatched, (unsigned long)c.nlines, (unsigned long)c.at,
           c.failed_events);
    CHECK_EQ_U64(c.mismatched, 0);
    CHECK_EQ_U64(c.at, c.nlines);
    total_compared += c.compared;
    total_equal += c.equal;
    total_ksym += c.ksym_equal;
    for (i = 0; i < (size_t)c.ntp; i++) pd_tpfmt_free(c.tp[i]);
    free(c.tp);
    for (i = 0; i < c.nlines; i++) free(c.lines[i]);
    free(c.lines);
    free(c.buf);
    pd_session_close(&s);
}

static void corpus(const char *dir) {
    char cmd[4200], *line = NULL;
    size_t lcap = 0;
    ssize_t got;
    FILE *fp;
    snprintf(cmd, sizeof cmd, "find '%s' -name '*.script-trace.xz' | sort", dir);
    fp = popen(cmd, "r");
    if (!fp) return;
    while ((got = getline(&line, &lcap, fp)) > 0) {
        char data[4096];
        size_t n;
        if (line[got - 1] == '\n') line[--got] = 0;
        n = strlen(line) - strlen(".script-trace.xz");
        if (n >= sizeof data) continue;
        memcpy(data, line, n);
        data[n] = 0;
        compare_file(data, line);
    }
    free(line);
    pclose(fp);
}

#endif

int main(int argc, char **argv) {
    const char *dir = NULL;
    struct stat st;
    int i, nf = 0;
    char **filters = (char **)calloc((size_t)argc + 1, sizeof *filters);
    filters[nf++] = argv[0];
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--corpus") && i + 1 < argc) dir = argv[++i];
        else filters[nf++] = argv[i];
    }
    test_filter(nf, filters);
    RUN_TEST(sched_switch);
    RUN_TEST(kmalloc);
    RUN_TEST(integers);
    RUN_TEST(expressions);
    RUN_TEST(strings_and_helpers);
    RUN_TEST(failed_form);
    RUN_TEST(hostile);
    RUN_TEST(long_size_4);
    RUN_TEST(tp_filters);
#ifndef __cplusplus
    if (!dir && stat("../shared/corpus", &st) == 0) dir = "../shared/corpus";
    if (dir) {
        corpus(dir);
        printf("# corpus: %lu lines compared, %lu equal, %lu equal with %%pS symbols accepted\n", total_compared,
               total_equal, total_ksym);
        CHECK(total_compared > 0);
    } else {
        printf("# no corpus (../shared/corpus): the comparison with perf is skipped\n");
        test_skip("no corpus");
    }
#else
    (void)st;
    (void)dir;
    printf("# the C++ build runs the unit tests; the C build compares with perf\n");
#endif
    free(filters);
    return test_report();
}
