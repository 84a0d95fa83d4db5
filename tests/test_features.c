/* test_features.c - unit tests for the feature-section decoders of perfdata.h
   (perfdata_decode_feat_*, the *_next iterators, perfdata_cpu_topology_at,
   perfdata_decode_feat_build_id and perfdata_build_id_next,
   perfdata_feature_name).

   Every section is built in memory by a small writer in both byte orders,
   decoded, and every field checked. Then every prefix of the section (each
   copied into a heap block of exactly that size, so ASan sees a read past
   it) must give PERFDATA_ERR_TRUNCATED or PERFDATA_ERR_MALFORMED, except
   the lengths that are legitimately valid (CPU_TOPOLOGY's optional tails).
   The input bytes are checksummed before and after every decode.

   Last, every tests/data/NAME.data fixture is opened and each feature section it
   carries (file mode) or each HEADER_FEATURE record (pipe mode) is decoded,
   and cross-checked against the file's attrs and perf's own header print
   (tests/data/NAME.data.header.txt).

   Build from the repository root:
     gcc -std=c99 -Wall -Wextra -Wpedantic -Werror -g \
         -fsanitize=address,undefined -fno-sanitize-recover=all \
         -I. tests/test_features.c -o /tmp/tf && /tmp/tf
   (also as C++: g++ -x c++ -std=c++11 ..., and with clang). */
#define _POSIX_C_SOURCE 200809L /* glob() for the fixture list */

#define PERFDATA_IMPLEMENTATION
#include "../perfdata.h"

#include "test.h"

#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ===================================================================== */
/*                       test-only section writer                        */
/* ===================================================================== */

#include "writer.h"

/* A perf string as perf writes it: u32 len = round_up(strlen + 1, 64), then
   the text NUL-padded to len. */
static void put_pstr(wr *w, const char *s) {
    size_t n = strlen(s);
    uint32_t len = (uint32_t)((n + 1 + 63) / 64 * 64);
    put32(w, len);
    put_bytes(w, s, n);
    put_fill(w, 0, len - n);
}

/* A perf string with an explicit len: slen bytes of s (NULs included), then
   zero padding up to len. slen == len leaves no NUL inside len. */
static void put_pstr_raw(wr *w, const char *s, size_t slen, uint32_t len) {
    if (slen > len) abort();
    put32(w, len);
    put_bytes(w, s, slen);
    put_fill(w, 0, len - slen);
}

/* A u64 bit-field as a C compiler lays it out: fields in declaration order
   from bit 0 upward on a little-endian target, from bit 63 downward on a
   big-endian one (each field keeps its own bit significance). */
static void put_bitfield64(wr *w, const uint64_t *values, const unsigned *widths, size_t nfields) {
    uint64_t v = 0;
    unsigned pos = 0;
    size_t i;
    for (i = 0; i < nfields; i++) {
        uint64_t f = values[i] & (widths[i] >= 64 ? ~0ull : ((1ull << widths[i]) - 1));
        if (w->big_endian) v |= f << (64 - pos - widths[i]);
        else v |= f << pos;
        pos += widths[i];
    }
    put64(w, v);
}

/* perf_event_attr's flags, given in the little-endian numbering: 15 one-bit
   fields, precise_ip:2, 23 one-bit fields, 24 reserved bits. */
static void put_attr_flags(wr *w, uint64_t le_flags) {
    uint64_t values[48];
    unsigned widths[48];
    size_t n = 0;
    unsigned bit = 0;
    while (bit < 40) {
        unsigned width = bit == PERFDATA_ATTR_PRECISE_IP_SHIFT ? 2u : 1u;
        values[n] = (le_flags >> bit) & ((1ull << width) - 1);
        widths[n] = width;
        n++;
        bit += width;
    }
    values[n] = le_flags >> 40;
    widths[n] = 24;
    n++;
    put_bitfield64(w, values, widths, n);
}

/* The first `nbytes` bytes of a perf_event_attr encoded at the ABI offsets
   (144 bytes of fields, then 0xEE filler). attr.size is written as given,
   whatever nbytes is. */
static void put_attr_bytes(wr *w, const perfdata_attr *a, size_t nbytes) {
    wr t;
    wr_init(&t, w->big_endian);
    put32(&t, a->type);
    put32(&t, a->size);
    put64(&t, a->config);
    put64(&t, a->sample_period);
    put64(&t, a->sample_type);
    put64(&t, a->read_format);
    put_attr_flags(&t, a->flags); /* @40 */
    put32(&t, a->wakeup_events);
    put32(&t, a->bp_type);
    put64(&t, a->config1);
    put64(&t, a->config2); /* @64 */
    put64(&t, a->branch_sample_type);
    put64(&t, a->sample_regs_user); /* @80 */
    put32(&t, a->sample_stack_user);
    put32(&t, (uint32_t)a->clockid);
    put64(&t, a->sample_regs_intr); /* @96 */
    put32(&t, a->aux_watermark);
    put16(&t, a->sample_max_stack);
    put16(&t, a->reserved_2);
    put32(&t, a->aux_sample_size); /* @112 */
    put32(&t, a->aux_action);
    put64(&t, a->sig_data); /* @120 */
    put64(&t, a->config3);  /* @128 */
    put64(&t, a->config4);  /* @136 */
    if (t.n != 144) abort();
    put_fill(&t, 0xEE, 256);
    if (nbytes > t.n) abort();
    put_bytes(w, t.buf, nbytes);
    wr_free(&t);
}

/* ===================================================================== */
/*                              helpers                                  */
/* ===================================================================== */

#define SEC_OFFSET 0x1000u /* file offset given to every synthetic section */
#define ITER_MISMATCH 100  /* wrapper result: decoded, but the walk disagreed */

static unsigned char *copy_exact(const unsigned char *p, size_t n) {
    unsigned char *b = (unsigned char *)malloc(n ? n : 1);
    if (!b) abort();
    if (n) memcpy(b, p, n);
    return b;
}

static perfdata_view mkview(const unsigned char *p, size_t n) {
    perfdata_view v;
    v.p = p;
    v.n = n;
    v.offset = SEC_OFFSET;
    return v;
}

static uint64_t fnv1a(const unsigned char *p, size_t n) {
    uint64_t h = 0xcbf29ce484222325ull;
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static int view_str(perfdata_view v, const char *s) {
    size_t n = strlen(s);
    return v.n == n && (n == 0 || memcmp(v.p, s, n) == 0);
}

static int view_mem(perfdata_view v, const void *p, size_t n) {
    return v.n == n && (n == 0 || memcmp(v.p, p, n) == 0);
}

/* v lies inside base[0, n) and its offset is SEC_OFFSET + its position. */
static int view_inside(perfdata_view v, const unsigned char *base, size_t n) {
    return v.p >= base && v.p <= base + n && v.n <= (size_t)(base + n - v.p) &&
           v.offset == SEC_OFFSET + (uint64_t)(v.p - base);
}

static const char *order_name(int big) {
    return big ? "big-endian" : "little-endian";
}

static char ctx_buf[256];
static void set_ctx(int big, const char *what) {
    snprintf(ctx_buf, sizeof ctx_buf, "%s, %s", order_name(big), what);
    test_set_context(ctx_buf);
}

static const char *st_name(int st) {
    if (st == ITER_MISMATCH) return "iteration mismatch";
    if (st < 0 || st > PERFDATA_ERR_UNKNOWN_ID) return "?";
    return perfdata_status_name((perfdata_status)st);
}

static int is_err(int st) {
    return st == PERFDATA_ERR_TRUNCATED || st == PERFDATA_ERR_MALFORMED;
}

/* A decoder wrapper: decodes sec, walks whatever list it holds to the end,
   and returns the status (or ITER_MISMATCH when the walk did not yield
   exactly nr elements covering exactly the validated bytes). */
typedef int (*dec_fn)(perfdata_view sec, int big, perfdata_error *err, void *ctx);

static int in_list(size_t v, const size_t *l, size_t n) {
    size_t i;
    for (i = 0; i < n; i++)
        if (l[i] == v) return 1;
    return 0;
}

/* Decodes w's prefixes of every length in [lo, hi) (hi capped at w->n + 1),
   each from a heap block of exactly that size. Lengths in ok[] and the full
   length must decode; every other must give TRUNCATED or MALFORMED with a
   consistent perfdata_error. The bytes must be unchanged. Returns the
   number of lengths that misbehaved (the first few are printed). */
static unsigned long sweep_range(const wr *w, dec_fn fn, void *ctx, const size_t *ok, size_t nok, size_t lo,
                                 size_t hi, const char *label) {
    size_t len;
    unsigned long bad = 0;
    if (hi > w->n + 1) hi = w->n + 1;
    for (len = lo; len < hi; len++) {
        unsigned char *b = copy_exact(w->buf, len);
        uint64_t h = fnv1a(b, len);
        perfdata_error err;
        int use_err = (len & 1) == 0; /* odd lengths: err == NULL */
        int want_ok = len == w->n || in_list(len, ok, nok);
        int good, st;
        memset(&err, 0, sizeof err);
        err.code = PERFDATA_ERR_UNKNOWN_ID; /* something the decoder must overwrite */
        err.message = NULL;
        st = fn(mkview(b, len), w->big_endian, use_err ? &err : NULL, ctx);
        good = want_ok ? st == PERFDATA_OK : is_err(st);
        if (good && use_err) {
            if (st == PERFDATA_OK) good = err.code == PERFDATA_OK;
            else good = (int)err.code == st && err.message != NULL && err.offset >= SEC_OFFSET &&
                        err.offset <= SEC_OFFSET + len;
        }
        if (fnv1a(b, len) != h) good = 0;
        if (!good) {
            if (bad < 3)
                fprintf(stderr, "    [%s] %s: length %lu of %lu: got %d (%s), wanted %s\n", test__context, label,
                        (unsigned long)len, (unsigned long)w->n, st, st_name(st), want_ok ? "OK" : "TRUNCATED/MALFORMED");
            bad++;
        }
        free(b);
    }
    return bad;
}

/* Every prefix of w, and w whole (which must decode). */
static unsigned long sweep(const wr *w, dec_fn fn, void *ctx, const char *label) {
    return sweep_range(w, fn, ctx, NULL, 0, 0, w->n + 1, label);
}

/* ---------------------------------------------------- decoder wrappers */

static int dec_string(perfdata_view sec, int big, perfdata_error *err, void *ctx) {
    perfdata_view v;
    (void)ctx;
    return (int)perfdata_decode_feat_string(sec, big, &v, err);
}

static int walk_strlist(const perfdata_strlist *l) {
    size_t s = 0;
    uint64_t k = 0;
    perfdata_view v;
    while (k <= l->nr && perfdata_strlist_next(l, &s, &v)) k++;
    return k == l->nr && s == l->bytes.n;
}

static int dec_strlist(perfdata_view sec, int big, perfdata_error *err, void *ctx) {
    perfdata_strlist l;
    int st = (int)perfdata_decode_feat_strlist(sec, big, &l, err);
    (void)ctx;
    if (st != PERFDATA_OK) return st;
    return walk_strlist(&l) ? st : ITER_MISMATCH;
}

static int dec_nrcpus(perfdata_view sec, int big, perfdata_error *err, void *ctx) {
    perfdata_feat_nrcpus o;
    (void)ctx;
    return (int)perfdata_decode_feat_nrcpus(sec, big, &o, err);
}

static int dec_u64(perfdata_view sec, int big, perfdata_error *err, void *ctx) {
    uint64_t o;
    (void)ctx;
    return (int)perfdata_decode_feat_u64(sec, big, &o, err);
}

static int dec_sample_time(perfdata_view sec, int big, perfdata_error *err, void *ctx) {
    uint64_t a, b;
    (void)ctx;
    return (int)perfdata_decode_feat_sample_time(sec, big, &a, &b, err);
}

static int dec_compressed(perfdata_view sec, int big, perfdata_error *err, void *ctx) {
    perfdata_feat_compressed o;
    (void)ctx;
    return (int)perfdata_decode_feat_compressed(sec, big, &o, err);
}

static int dec_clock_data(perfdata_view sec, int big, perfdata_error *err, void *ctx) {
    perfdata_feat_clock_data o;
    (void)ctx;
    return (int)perfdata_decode_feat_clock_data(sec, big, &o, err);
}

static int dec_e_machine(perfdata_view sec, int big, perfdata_error *err, void *ctx) {
    perfdata_feat_e_machine o;
    (void)ctx;
    return (int)perfdata_decode_feat_e_machine(sec, big, &o, err);
}

static int dec_event_desc(perfdata_view sec, int big, perfdata_error *err, void *ctx) {
    perfdata_feat_event_desc d;
    perfdata_event_desc_entry e;
    size_t s = 0;
    uint64_t k = 0;
    int st = (int)perfdata_decode_feat_event_desc(sec, big, &d, err);
    (void)ctx;
    if (st != PERFDATA_OK) return st;
    while (k <= d.nr && perfdata_event_desc_next(&d, &s, &e)) k++;
    return k == d.nr && s == d.bytes.n ? st : ITER_MISMATCH;
}

#define LIST_WRAPPER(wname, decode, etype, next)                                   \
    static int wname(perfdata_view sec, int big, perfdata_error *err, void *ctx) { \
        perfdata_feat_list l;                                                      \
        etype e;                                                                   \
        size_t s = 0;                                                              \
        uint64_t k = 0;                                                            \
        int st = (int)decode(sec, big, &l, err);                                   \
        (void)ctx;                                                                 \
        if (st != PERFDATA_OK) return st;                                          \
        while (k <= l.nr && next(&l, &s, &e)) k++;                                 \
        return k == l.nr && s == l.bytes.n ? st : ITER_MISMATCH;                   \
    }
LIST_WRAPPER(dec_numa, perfdata_decode_feat_numa_topology, perfdata_numa_node, perfdata_numa_node_next)
LIST_WRAPPER(dec_pmu_mappings, perfdata_decode_feat_pmu_mappings, perfdata_pmu_mapping, perfdata_pmu_mapping_next)
LIST_WRAPPER(dec_group_desc, perfdata_decode_feat_group_desc, perfdata_group_desc, perfdata_group_desc_next)
LIST_WRAPPER(dec_auxtrace, perfdata_decode_feat_auxtrace, perfdata_auxtrace_index_entry, perfdata_auxtrace_index_next)
LIST_WRAPPER(dec_bpf_prog_info, perfdata_decode_feat_bpf_prog_info, perfdata_bpf_prog_info, perfdata_bpf_prog_info_next)
LIST_WRAPPER(dec_bpf_btf, perfdata_decode_feat_bpf_btf, perfdata_bpf_btf, perfdata_bpf_btf_next)
LIST_WRAPPER(dec_cpu_pmu_caps, perfdata_decode_feat_cpu_pmu_caps, perfdata_name_value, perfdata_name_value_next)
LIST_WRAPPER(dec_hybrid, perfdata_decode_feat_hybrid_topology, perfdata_hybrid_node, perfdata_hybrid_node_next)
#undef LIST_WRAPPER

static int walk_list_cache(const perfdata_feat_list *l) {
    perfdata_cache_level e;
    size_t s = 0;
    uint64_t k = 0;
    while (k <= l->nr && perfdata_cache_level_next(l, &s, &e)) k++;
    return k == l->nr && s == l->bytes.n;
}

static int dec_cache(perfdata_view sec, int big, perfdata_error *err, void *ctx) {
    perfdata_feat_cache c;
    int st = (int)perfdata_decode_feat_cache(sec, big, &c, err);
    (void)ctx;
    if (st != PERFDATA_OK) return st;
    return walk_list_cache(&c.levels) ? st : ITER_MISMATCH;
}

static int dec_mem_topology(perfdata_view sec, int big, perfdata_error *err, void *ctx) {
    perfdata_feat_mem_topology m;
    perfdata_mem_node e;
    size_t s = 0;
    uint64_t k = 0;
    int st = (int)perfdata_decode_feat_mem_topology(sec, big, &m, err);
    (void)ctx;
    if (st != PERFDATA_OK) return st;
    while (k <= m.nodes.nr && perfdata_mem_node_next(&m.nodes, &s, &e)) {
        if (e.bitmap.count != e.nbits / 64 + (e.nbits % 64 != 0)) return ITER_MISMATCH;
        k++;
    }
    return k == m.nodes.nr && s == m.nodes.bytes.n ? st : ITER_MISMATCH;
}

static int dec_pmu_caps(perfdata_view sec, int big, perfdata_error *err, void *ctx) {
    perfdata_feat_list l;
    perfdata_pmu_caps e;
    size_t s = 0;
    uint64_t k = 0;
    int st = (int)perfdata_decode_feat_pmu_caps(sec, big, &l, err);
    (void)ctx;
    if (st != PERFDATA_OK) return st;
    while (k <= l.nr && perfdata_pmu_caps_next(&l, &s, &e)) {
        perfdata_name_value nv;
        size_t s2 = 0;
        uint64_t k2 = 0;
        while (k2 <= e.caps.nr && perfdata_name_value_next(&e.caps, &s2, &nv)) k2++;
        if (k2 != e.nr_caps || k2 != e.caps.nr || s2 != e.caps.bytes.n) return ITER_MISMATCH;
        k++;
    }
    return k == l.nr && s == l.bytes.n ? st : ITER_MISMATCH;
}

/* CPU_DOMAIN_INFO: the prefix lengths that end between whole cpu entries
   (header only, after cpu 0, after cpu 1 = whole) and the cpu count each
   must give. */
typedef struct cdi_ctx {
    uint32_t version;
    size_t ends[3];
} cdi_ctx;

/* Decodes, walks every cpu entry and every domain of it; the walks must
   cover exactly the validated bytes. With a ctx, the cpu count at each
   entry boundary must match. */
static int dec_cpu_domain_info(perfdata_view sec, int big, perfdata_error *err, void *vctx) {
    const cdi_ctx *c = (const cdi_ctx *)vctx;
    perfdata_feat_cpu_domain_info d;
    perfdata_cpu_domains e;
    size_t s = 0, k = 0, i;
    int st = (int)perfdata_decode_feat_cpu_domain_info(sec, big, &d, err);
    if (st != PERFDATA_OK) return st;
    if (d.big_endian != big || d.cpus.n + 8 != sec.n) return ITER_MISMATCH;
    while (k <= sec.n / 8 && perfdata_cpu_domains_next(&d, &s, &e)) {
        perfdata_sched_domain sd;
        size_t s2 = 0;
        uint64_t k2 = 0;
        if (e.schedstat_version != d.schedstat_version || e.big_endian != big) return ITER_MISMATCH;
        while (k2 <= e.nr_domains && perfdata_sched_domain_next(&e, &s2, &sd)) {
            if (d.schedstat_version < 17 && sd.name.n != 0) return ITER_MISMATCH;
            k2++;
        }
        if (k2 != e.nr_domains || s2 != e.domains.n) return ITER_MISMATCH;
        k++;
    }
    if (s != d.cpus.n) return ITER_MISMATCH;
    if (c) {
        if (d.schedstat_version != c->version) return ITER_MISMATCH;
        for (i = 0; i < 3; i++)
            if (sec.n == c->ends[i] && k != i) return ITER_MISMATCH;
    }
    return st;
}

static int dec_cln_size(perfdata_view sec, int big, perfdata_error *err, void *ctx) {
    uint64_t o;
    (void)ctx;
    return (int)perfdata_decode_feat_cln_size(sec, big, &o, err);
}

/* CPU_TOPOLOGY: the prefix lengths at which a tail ends, and what the decode
   must say there. */
typedef struct topo_ctx {
    uint32_t nr_cpus;
    size_t end_threads; /* core + thread sibling lists only */
    size_t end_ids;     /* + {core_id, socket_id}[nr_cpus] (0: none) */
    size_t end_dies;    /* + die siblings and die ids (0: none) */
} topo_ctx;

static int dec_cpu_topology(perfdata_view sec, int big, perfdata_error *err, void *vctx) {
    const topo_ctx *c = (const topo_ctx *)vctx;
    perfdata_feat_cpu_topology t;
    int st = (int)perfdata_decode_feat_cpu_topology(sec, big, c->nr_cpus, &t, err);
    if (st != PERFDATA_OK) return st;
    if (!walk_strlist(&t.core_siblings) || !walk_strlist(&t.thread_siblings)) return ITER_MISMATCH;
    if (t.has_dies && !walk_strlist(&t.die_siblings)) return ITER_MISMATCH;
    if (sec.n == c->end_threads && (t.nr_cpus != 0 || t.has_dies)) return ITER_MISMATCH;
    if (c->end_ids && sec.n == c->end_ids && (t.nr_cpus != c->nr_cpus || t.has_dies)) return ITER_MISMATCH;
    if (c->end_dies && sec.n == c->end_dies && (t.nr_cpus != c->nr_cpus || !t.has_dies)) return ITER_MISMATCH;
    return st;
}

/* Decodes w whole from an exact-size heap copy; the caller checks the
   output, then calls done_copy() which verifies the bytes are unchanged. */
typedef struct copy {
    unsigned char *b;
    size_t n;
    uint64_t h;
} copy;

static copy make_copy(const wr *w) {
    copy c;
    c.b = copy_exact(w->buf, w->n);
    c.n = w->n;
    c.h = fnv1a(c.b, c.n);
    return c;
}

static void done_copy(copy *c) {
    CHECK_EQ_U64(fnv1a(c->b, c->n), c->h); /* the decoder never writes its input */
    free(c->b);
    c->b = NULL;
}

/* ===================================================================== */
/*                     strings, string lists, fixed sections             */
/* ===================================================================== */

static void check_string_section(const wr *w, const char *want, uint32_t lenfield) {
    copy c = make_copy(w);
    perfdata_view v;
    perfdata_error err;
    CHECK_EQ_U64(perfdata_decode_feat_string(mkview(c.b, c.n), w->big_endian, &v, &err), PERFDATA_OK);
    CHECK_EQ_U64(err.code, PERFDATA_OK);
    CHECK(view_str(v, want));
    CHECK(v.p == c.b + 4);
    CHECK_EQ_U64(v.offset, SEC_OFFSET + 4);
    CHECK(v.n <= lenfield);
    done_copy(&c);
    CHECK_EQ_U64(sweep(w, dec_string, NULL, "string"), 0);
}

TEST(feat_string) {
    static const unsigned ids[6] = {PERFDATA_FEAT_HOSTNAME, PERFDATA_FEAT_OSRELEASE, PERFDATA_FEAT_VERSION,
                                    PERFDATA_FEAT_ARCH,     PERFDATA_FEAT_CPUDESC,   PERFDATA_FEAT_CPUID};
    static const char *const texts[6] = {"vm", "6.18.44-fc-v657", "6.1.187", "x86_64",
                                         "AMD EPYC 7B13 64-Core Processor", "AuthenticAMD,26,2,1"};
    char s63[64], s64[65];
    int big;
    size_t i;
    memset(s63, 'a', 63); s63[63] = 0;
    memset(s64, 'b', 64); s64[64] = 0;
    for (big = 0; big <= 1; big++) {
        wr w;
        for (i = 0; i < 6; i++) {
            set_ctx(big, perfdata_feature_name(ids[i]));
            wr_init(&w, big);
            put_pstr(&w, texts[i]);
            CHECK_EQ_U64(w.n, 4 + 64);
            check_string_section(&w, texts[i], 64);
            wr_free(&w);
        }
        set_ctx(big, "empty string, padded");
        wr_init(&w, big); put_pstr(&w, ""); check_string_section(&w, "", 64); wr_free(&w);
        set_ctx(big, "63 chars: len 64");
        wr_init(&w, big); put_pstr(&w, s63); CHECK_EQ_U64(w.n, 68); check_string_section(&w, s63, 64); wr_free(&w);
        set_ctx(big, "64 chars: len 128");
        wr_init(&w, big); put_pstr(&w, s64); CHECK_EQ_U64(w.n, 132); check_string_section(&w, s64, 128); wr_free(&w);
        set_ctx(big, "unpadded len 4");
        wr_init(&w, big); put_pstr_raw(&w, "abc", 4, 4); check_string_section(&w, "abc", 4); wr_free(&w);
        set_ctx(big, "unpadded len 7");
        wr_init(&w, big); put_pstr_raw(&w, "hello", 5, 7); check_string_section(&w, "hello", 7); wr_free(&w);
        set_ctx(big, "no NUL inside len");
        wr_init(&w, big); put_pstr_raw(&w, "abcd", 4, 4); check_string_section(&w, "abcd", 4); wr_free(&w);
        set_ctx(big, "no NUL, len 1");
        wr_init(&w, big); put_pstr_raw(&w, "Z", 1, 1); check_string_section(&w, "Z", 1); wr_free(&w);
        set_ctx(big, "len 0");
        wr_init(&w, big); put_pstr_raw(&w, "", 0, 0); check_string_section(&w, "", 0); wr_free(&w);
        set_ctx(big, "NUL inside the text");
        wr_init(&w, big); put_pstr_raw(&w, "ab\0cd", 5, 8); check_string_section(&w, "ab", 8); wr_free(&w);
        {
            /* bytes after the string are not part of it, and not an error */
            copy c;
            perfdata_view v;
            set_ctx(big, "trailing bytes");
            wr_init(&w, big);
            put_pstr(&w, "vm");
            put_fill(&w, 0x5a, 7);
            c = make_copy(&w);
            CHECK_EQ_U64(perfdata_decode_feat_string(mkview(c.b, c.n), big, &v, NULL), PERFDATA_OK);
            CHECK(view_str(v, "vm"));
            done_copy(&c);
            wr_free(&w);
        }
    }
}

static void check_strlist(const wr *w, const char *const *items, size_t n) {
    copy c = make_copy(w);
    perfdata_strlist l;
    perfdata_error err;
    perfdata_view v;
    size_t s = 0, i;
    CHECK_EQ_U64(perfdata_decode_feat_strlist(mkview(c.b, c.n), w->big_endian, &l, &err), PERFDATA_OK);
    CHECK_EQ_U64(err.code, PERFDATA_OK);
    CHECK_EQ_U64(l.nr, n);
    CHECK_EQ_U64(l.big_endian, w->big_endian);
    CHECK(l.bytes.p == c.b + 4);
    CHECK_EQ_U64(l.bytes.n, c.n - 4);
    CHECK_EQ_U64(l.bytes.offset, SEC_OFFSET + 4);
    for (i = 0; i < n; i++) {
        if (!CHECK(perfdata_strlist_next(&l, &s, &v))) break;
        CHECK(view_str(v, items[i]));
        CHECK(view_inside(v, c.b, c.n));
    }
    CHECK_EQ_U64(s, l.bytes.n);
    CHECK(!perfdata_strlist_next(&l, &s, &v)); /* past the end */
    CHECK(!perfdata_strlist_next(&l, &s, &v)); /* and again */
    s = l.bytes.n + 100;
    CHECK(!perfdata_strlist_next(&l, &s, &v));
    s = (size_t)-1;
    CHECK(!perfdata_strlist_next(&l, &s, &v));
    done_copy(&c);
    CHECK_EQ_U64(sweep(w, dec_strlist, NULL, "strlist"), 0);
}

TEST(feat_strlist_cmdline) {
    static const char *const argv[7] = {"/usr/bin/perf", "record", "-o", "plain.data",
                                        "/tmp/perfdata-fixture/workload", "-d", "30"};
    static const char *const mixed[4] = {"abc", "", "xyz", "ab"};
    int big;
    size_t i;
    for (big = 0; big <= 1; big++) {
        wr w;
        set_ctx(big, "CMDLINE, 7 padded strings");
        wr_init(&w, big);
        put32(&w, 7);
        for (i = 0; i < 7; i++) put_pstr(&w, argv[i]);
        check_strlist(&w, argv, 7);
        wr_free(&w);

        set_ctx(big, "CMDLINE, unpadded / no-NUL / empty strings");
        wr_init(&w, big);
        put32(&w, 4);
        put_pstr_raw(&w, "abc", 3, 3); /* no NUL */
        put_pstr_raw(&w, "", 0, 0);    /* len 0 */
        put_pstr(&w, "xyz");
        put_pstr_raw(&w, "ab\0q", 4, 5);
        check_strlist(&w, mixed, 4);
        wr_free(&w);

        set_ctx(big, "CMDLINE, nr = 0");
        wr_init(&w, big);
        put32(&w, 0);
        check_strlist(&w, NULL, 0);
        wr_free(&w);
    }
}

TEST(feat_fixed) {
    static const struct { unsigned id; uint64_t v; } u64s[6] = {
        {PERFDATA_FEAT_TOTAL_MEM, 24684092ull}, {PERFDATA_FEAT_CLOCKID, 1ull},
        {PERFDATA_FEAT_DIR_FORMAT, 1ull},       {PERFDATA_FEAT_CLN_SIZE, 64ull},
        {PERFDATA_FEAT_TOTAL_MEM, 0x0102030405060708ull}, {PERFDATA_FEAT_CLOCKID, ~0ull}};
    int big;
    size_t i;
    for (big = 0; big <= 1; big++) {
        wr w;
        copy c;
        perfdata_error err;

        set_ctx(big, "NRCPUS");
        {
            perfdata_feat_nrcpus o;
            wr_init(&w, big);
            put32(&w, 258); /* available first, as perf writes it */
            put32(&w, 257);
            c = make_copy(&w);
            CHECK_EQ_U64(perfdata_decode_feat_nrcpus(mkview(c.b, c.n), big, &o, &err), PERFDATA_OK);
            CHECK_EQ_U64(err.code, PERFDATA_OK);
            CHECK_EQ_U64(o.nr_cpus_available, 258);
            CHECK_EQ_U64(o.nr_cpus_online, 257);
            done_copy(&c);
            CHECK_EQ_U64(sweep(&w, dec_nrcpus, NULL, "NRCPUS"), 0);
            wr_free(&w);
        }
        for (i = 0; i < 6; i++) {
            uint64_t o = 0;
            set_ctx(big, perfdata_feature_name(u64s[i].id));
            wr_init(&w, big);
            put64(&w, u64s[i].v);
            c = make_copy(&w);
            CHECK_EQ_U64(perfdata_decode_feat_u64(mkview(c.b, c.n), big, &o, &err), PERFDATA_OK);
            CHECK_EQ_U64(o, u64s[i].v);
            done_copy(&c);
            CHECK_EQ_U64(sweep(&w, dec_u64, NULL, "u64"), 0);
            wr_free(&w);
        }
        set_ctx(big, "SAMPLE_TIME");
        {
            uint64_t first = 0, last = 0;
            wr_init(&w, big);
            put64(&w, 299919504123ull);
            put64(&w, 0x8000000000000001ull);
            c = make_copy(&w);
            CHECK_EQ_U64(perfdata_decode_feat_sample_time(mkview(c.b, c.n), big, &first, &last, &err), PERFDATA_OK);
            CHECK_EQ_U64(first, 299919504123ull);
            CHECK_EQ_U64(last, 0x8000000000000001ull);
            done_copy(&c);
            CHECK_EQ_U64(sweep(&w, dec_sample_time, NULL, "SAMPLE_TIME"), 0);
            wr_free(&w);
        }
        set_ctx(big, "COMPRESSED");
        {
            perfdata_feat_compressed o;
            wr_init(&w, big);
            put32(&w, 1); put32(&w, 1); put32(&w, 3); put32(&w, 0x0102); put32(&w, 532480);
            c = make_copy(&w);
            CHECK_EQ_U64(perfdata_decode_feat_compressed(mkview(c.b, c.n), big, &o, &err), PERFDATA_OK);
            CHECK_EQ_U64(o.version, 1);
            CHECK_EQ_U64(o.type, 1);
            CHECK_EQ_U64(o.level, 3);
            CHECK_EQ_U64(o.ratio, 0x0102);
            CHECK_EQ_U64(o.mmap_len, 532480);
            done_copy(&c);
            CHECK_EQ_U64(sweep(&w, dec_compressed, NULL, "COMPRESSED"), 0);
            wr_free(&w);
        }
        set_ctx(big, "CLOCK_DATA");
        {
            perfdata_feat_clock_data o;
            wr_init(&w, big);
            put32(&w, 1); put32(&w, 4);
            put64(&w, 0x17a0b0c0d0e0f011ull); put64(&w, 0x0000004455667788ull);
            c = make_copy(&w);
            CHECK_EQ_U64(perfdata_decode_feat_clock_data(mkview(c.b, c.n), big, &o, &err), PERFDATA_OK);
            CHECK_EQ_U64(o.version, 1);
            CHECK_EQ_U64(o.clockid, 4);
            CHECK_EQ_U64(o.wall_clock_ns, 0x17a0b0c0d0e0f011ull);
            CHECK_EQ_U64(o.clockid_time_ns, 0x0000004455667788ull);
            done_copy(&c);
            CHECK_EQ_U64(sweep(&w, dec_clock_data, NULL, "CLOCK_DATA"), 0);
            wr_free(&w);
        }
        set_ctx(big, "E_MACHINE");
        {
            perfdata_feat_e_machine o;
            wr_init(&w, big);
            put32(&w, 62); put32(&w, 0x12345678);
            c = make_copy(&w);
            CHECK_EQ_U64(perfdata_decode_feat_e_machine(mkview(c.b, c.n), big, &o, &err), PERFDATA_OK);
            CHECK_EQ_U64(o.e_machine, 62);
            CHECK_EQ_U64(o.e_flags, 0x12345678);
            done_copy(&c);
            CHECK_EQ_U64(sweep(&w, dec_e_machine, NULL, "E_MACHINE"), 0);
            wr_free(&w);
        }
    }
}

/* ===================================================================== */
/*                               EVENT_DESC                              */
/* ===================================================================== */

static perfdata_attr desc_attr(uint32_t size, unsigned variant) {
    perfdata_attr a;
    memset(&a, 0, sizeof a);
    a.type = 1 + variant;
    a.size = size;
    a.config = 0x0102030405060708ull + variant;
    a.sample_period = 4000 + variant;
    if (variant == 0) {
        a.sample_type = PERFDATA_SAMPLE_IP | PERFDATA_SAMPLE_TID | PERFDATA_SAMPLE_TIME | PERFDATA_SAMPLE_ID |
                        PERFDATA_SAMPLE_PERIOD;
        a.read_format = PERFDATA_FORMAT_ID | PERFDATA_FORMAT_LOST;
        a.flags = PERFDATA_ATTR_FLAG_DISABLED | PERFDATA_ATTR_FLAG_INHERIT | PERFDATA_ATTR_FLAG_EXCLUDE_KERNEL |
                  PERFDATA_ATTR_FLAG_MMAP | PERFDATA_ATTR_FLAG_COMM | PERFDATA_ATTR_FLAG_FREQ |
                  PERFDATA_ATTR_FLAG_ENABLE_ON_EXEC | PERFDATA_ATTR_FLAG_TASK | (2ull << PERFDATA_ATTR_PRECISE_IP_SHIFT) |
                  PERFDATA_ATTR_FLAG_SAMPLE_ID_ALL | PERFDATA_ATTR_FLAG_MMAP2 | PERFDATA_ATTR_FLAG_COMM_EXEC |
                  PERFDATA_ATTR_FLAG_KSYMBOL | PERFDATA_ATTR_FLAG_BPF_EVENT;
    } else {
        a.sample_type = PERFDATA_SAMPLE_IDENTIFIER | PERFDATA_SAMPLE_IP | PERFDATA_SAMPLE_CPU |
                        PERFDATA_SAMPLE_CALLCHAIN | PERFDATA_SAMPLE_WEIGHT_STRUCT;
        a.read_format = PERFDATA_FORMAT_GROUP | PERFDATA_FORMAT_TOTAL_TIME_ENABLED;
        a.flags = PERFDATA_ATTR_FLAG_PINNED | PERFDATA_ATTR_FLAG_EXCLUDE_HV | PERFDATA_ATTR_FLAG_WATERMARK |
                  (1ull << PERFDATA_ATTR_PRECISE_IP_SHIFT) | PERFDATA_ATTR_FLAG_MMAP_DATA |
                  PERFDATA_ATTR_FLAG_EXCLUDE_GUEST | PERFDATA_ATTR_FLAG_USE_CLOCKID |
                  PERFDATA_ATTR_FLAG_CONTEXT_SWITCH | PERFDATA_ATTR_FLAG_CGROUP | PERFDATA_ATTR_FLAG_TEXT_POKE |
                  PERFDATA_ATTR_FLAG_BUILD_ID | PERFDATA_ATTR_FLAG_SIGTRAP | PERFDATA_ATTR_FLAG_DEFER_OUTPUT;
    }
    a.wakeup_events = 0x21222324 + variant;
    a.bp_type = 0x25262728;
    a.config1 = 0x3132333435363738ull;
    a.config2 = 0x4142434445464748ull;
    a.branch_sample_type = 0x5152535455565758ull;
    a.sample_regs_user = 0x6162636465666768ull;
    a.sample_stack_user = 0x71727374;
    a.clockid = -0x75767778;
    a.sample_regs_intr = 0x8182838485868788ull;
    a.aux_watermark = 0x91929394;
    a.sample_max_stack = 0x9596;
    a.reserved_2 = 0x9798;
    a.aux_sample_size = 0xa1a2a3a4;
    a.aux_action = 5;
    a.sig_data = 0xb1b2b3b4b5b6b7b8ull;
    a.config3 = 0xc1c2c3c4c5c6c7c8ull;
    a.config4 = 0xd1d2d3d4d5d6d7d8ull;
    return a;
}

/* Every field inside `upto` bytes decoded, every field beyond it zero. */
static void check_attr_fields(const perfdata_attr *g, const perfdata_attr *w, unsigned upto) {
#define AF(field, off, width) CHECK_EQ_U64(g->field, (off) + (width) <= upto ? (uint64_t)w->field : 0)
    AF(type, 0, 4);
    AF(config, 8, 8);
    AF(sample_period, 16, 8);
    AF(sample_type, 24, 8);
    AF(read_format, 32, 8);
    AF(flags, 40, 8);
    AF(wakeup_events, 48, 4);
    AF(bp_type, 52, 4);
    AF(config1, 56, 8);
    AF(config2, 64, 8);
    AF(branch_sample_type, 72, 8);
    AF(sample_regs_user, 80, 8);
    AF(sample_stack_user, 88, 4);
    AF(clockid, 92, 4);
    AF(sample_regs_intr, 96, 8);
    AF(aux_watermark, 104, 4);
    AF(sample_max_stack, 108, 2);
    AF(reserved_2, 110, 2);
    AF(aux_sample_size, 112, 4);
    AF(aux_action, 116, 4);
    AF(sig_data, 120, 8);
    AF(config3, 128, 8);
    AF(config4, 136, 8);
#undef AF
    CHECK_EQ_U64(perfdata_attr_precise_ip(g), perfdata_attr_precise_ip(w));
}

typedef struct tdesc {
    perfdata_attr attr;
    const char *name;
    uint32_t name_len; /* 0: padded to 64 as perf does */
    uint32_t nids;
    uint64_t ids[4];
} tdesc;

static void put_event_desc(wr *w, uint32_t attr_size, const tdesc *d, size_t n) {
    size_t i, j;
    put32(w, (uint32_t)n);
    put32(w, attr_size);
    for (i = 0; i < n; i++) {
        put_attr_bytes(w, &d[i].attr, attr_size);
        put32(w, d[i].nids);
        if (d[i].name_len) put_pstr_raw(w, d[i].name, strlen(d[i].name), d[i].name_len);
        else put_pstr(w, d[i].name);
        for (j = 0; j < d[i].nids; j++) put64(w, d[i].ids[j]);
    }
}

/* Builds, decodes and checks one EVENT_DESC section. known_bug_size: the
   expected attr.size of an entry whose attr.size exceeds attr_size. */
static void check_event_desc(int big, uint32_t attr_size, const tdesc *d, size_t n) {
    wr w;
    copy c;
    perfdata_feat_event_desc fd;
    perfdata_event_desc_entry e;
    perfdata_error err;
    size_t s = 0, i, j, pos = 8;
    wr_init(&w, big);
    put_event_desc(&w, attr_size, d, n);
    c = make_copy(&w);
    CHECK_EQ_U64(perfdata_decode_feat_event_desc(mkview(c.b, c.n), big, &fd, &err), PERFDATA_OK);
    CHECK_EQ_U64(err.code, PERFDATA_OK);
    CHECK_EQ_U64(fd.nr, n);
    CHECK_EQ_U64(fd.attr_size, attr_size);
    CHECK_EQ_U64(fd.big_endian, big);
    CHECK(fd.bytes.p == c.b + 8);
    CHECK_EQ_U64(fd.bytes.n, c.n - 8);
    CHECK_EQ_U64(fd.bytes.offset, SEC_OFFSET + 8);
    for (i = 0; i < n; i++) {
        uint32_t own = d[i].attr.size ? d[i].attr.size : PERFDATA_ATTR_SIZE_VER0;
        unsigned upto = own < attr_size ? own : attr_size;
        if (!CHECK(perfdata_event_desc_next(&fd, &s, &e))) break;
        CHECK(e.attr_bytes.p == c.b + pos);
        CHECK_EQ_U64(e.attr_bytes.n, attr_size);
        CHECK_EQ_U64(e.attr_bytes.offset, SEC_OFFSET + pos);
        check_attr_fields(&e.attr, &d[i].attr, upto);
        if (own <= attr_size) {
            CHECK_EQ_U64(e.attr.size, d[i].attr.size);
        } else {
            /* perfdata_attr.size is "as written", also for an EVENT_DESC
               attr whose own size exceeds the section's attr_size (not the
               section's attr_size). */
            if (!CHECK_EQ_U64(e.attr.size, d[i].attr.size))
                fprintf(stderr, "    EVENT_DESC attr.size %u > attr_size %u is reported as %u\n",
                        (unsigned)d[i].attr.size, (unsigned)attr_size, (unsigned)e.attr.size);
        }
        pos += attr_size + 4;
        CHECK(view_str(e.name, d[i].name));
        CHECK_EQ_U64(e.name.offset, SEC_OFFSET + pos + 4);
        pos += 4 + (d[i].name_len ? d[i].name_len : (strlen(d[i].name) + 64) / 64 * 64);
        CHECK_EQ_U64(e.ids.count, d[i].nids);
        CHECK_EQ_U64(e.ids.big_endian, big);
        CHECK_EQ_U64(e.ids.bytes.offset, SEC_OFFSET + pos);
        for (j = 0; j < d[i].nids; j++) CHECK_EQ_U64(perfdata_u64s_at(&e.ids, j), d[i].ids[j]);
        CHECK_EQ_U64(perfdata_u64s_at(&e.ids, d[i].nids), 0); /* out of range */
        pos += 8 * d[i].nids;
    }
    CHECK_EQ_U64(s, fd.bytes.n);
    CHECK_EQ_U64(pos, c.n);
    CHECK(!perfdata_event_desc_next(&fd, &s, &e));
    CHECK(!perfdata_event_desc_next(&fd, &s, &e));
    s = (size_t)-1;
    CHECK(!perfdata_event_desc_next(&fd, &s, &e));
    done_copy(&c);
    CHECK_EQ_U64(sweep(&w, dec_event_desc, NULL, "EVENT_DESC"), 0);
    wr_free(&w);
}

TEST(feat_event_desc) {
    int big;
    for (big = 0; big <= 1; big++) {
        tdesc d[2];
        memset(d, 0, sizeof d);
        d[0].name = "cpu-clock:ppp";
        d[0].nids = 2; d[0].ids[0] = 883; d[0].ids[1] = 884;
        d[1].name = "page-faults";
        d[1].name_len = 12; /* unpadded: "page-faults\0" */
        d[1].nids = 3; d[1].ids[0] = 0x1111222233334444ull; d[1].ids[1] = 5; d[1].ids[2] = 6;

        set_ctx(big, "EVENT_DESC attr_size 128");
        d[0].attr = desc_attr(128, 0); d[1].attr = desc_attr(128, 1);
        check_event_desc(big, 128, d, 2);

        set_ctx(big, "EVENT_DESC attr_size 136");
        d[0].attr = desc_attr(136, 0); d[1].attr = desc_attr(136, 1);
        check_event_desc(big, 136, d, 2);

        set_ctx(big, "EVENT_DESC attr_size 136, attr.size 128 (bytes past it ignored)");
        d[0].attr = desc_attr(128, 0); d[1].attr = desc_attr(136, 1);
        check_event_desc(big, 136, d, 2);

        set_ctx(big, "EVENT_DESC attr_size 128, attr.size 136 (larger than the section's)");
        d[0].attr = desc_attr(136, 0); d[1].attr = desc_attr(128, 1);
        check_event_desc(big, 128, d, 2);

        set_ctx(big, "EVENT_DESC attr_size 64, attr.size 0 (VER0)");
        d[0].attr = desc_attr(0, 0); d[1].attr = desc_attr(64, 1);
        check_event_desc(big, 64, d, 2);

        set_ctx(big, "EVENT_DESC nr 0");
        check_event_desc(big, 128, d, 0);

        set_ctx(big, "EVENT_DESC attr_size below 64");
        {
            wr w;
            copy c;
            perfdata_feat_event_desc fd;
            perfdata_error err;
            wr_init(&w, big);
            put32(&w, 1);
            put32(&w, 32);
            put_fill(&w, 0, 32 + 4 + 4 + 64);
            c = make_copy(&w);
            CHECK_EQ_U64(perfdata_decode_feat_event_desc(mkview(c.b, c.n), big, &fd, &err), PERFDATA_ERR_MALFORMED);
            CHECK_EQ_U64(err.code, PERFDATA_ERR_MALFORMED);
            done_copy(&c);
            wr_free(&w);
        }
    }
}

/* ===================================================================== */
/*                              CPU_TOPOLOGY                             */
/* ===================================================================== */

static const char *const topo_core[1] = {"0-3"};
static const char *const topo_thread[2] = {"0-1", "2-3"};
static const char *const topo_die[2] = {"0,2", "1,3"};

static void put_strlist(wr *w, const char *const *items, size_t n) {
    size_t i;
    put32(w, (uint32_t)n);
    for (i = 0; i < n; i++) put_pstr(w, items[i]);
}

static void check_strlist_items(const perfdata_strlist *l, const char *const *items, size_t n,
                                const unsigned char *base, size_t len) {
    size_t s = 0, i;
    perfdata_view v;
    CHECK_EQ_U64(l->nr, n);
    for (i = 0; i < n; i++) {
        if (!CHECK(perfdata_strlist_next(l, &s, &v))) return;
        CHECK(view_str(v, items[i]));
        CHECK(view_inside(v, base, len));
    }
    CHECK(!perfdata_strlist_next(l, &s, &v));
}

/* 4 cpus: core_id 0x100+i, socket_id 0x200+i, die_id 0x300+i. tails: 0 none,
   1 core/socket ids, 2 also dies. */
static void build_topology(wr *w, int tails, topo_ctx *c) {
    uint32_t i;
    put_strlist(w, topo_core, 1);
    put_strlist(w, topo_thread, 2);
    c->nr_cpus = 4;
    c->end_threads = w->n;
    c->end_ids = c->end_dies = 0;
    if (tails < 1) return;
    for (i = 0; i < 4; i++) {
        put32(w, 0x100 + i);
        put32(w, 0x200 + i);
    }
    c->end_ids = w->n;
    if (tails < 2) return;
    put_strlist(w, topo_die, 2);
    for (i = 0; i < 4; i++) put32(w, 0x300 + i);
    c->end_dies = w->n;
}

static void check_topology_ids(const perfdata_feat_cpu_topology *t, int ids, int dies) {
    uint32_t cpu;
    static const uint32_t out_of_range[4] = {4, 5, 1000, 0xffffffffu};
    perfdata_cpu_topology_entry e;
    for (cpu = 0; cpu < 4; cpu++) {
        e = perfdata_cpu_topology_at(t, cpu);
        CHECK_EQ_U64((int64_t)e.core_id, ids ? (int64_t)(0x100 + cpu) : -1);
        CHECK_EQ_U64((int64_t)e.socket_id, ids ? (int64_t)(0x200 + cpu) : -1);
        CHECK_EQ_U64((int64_t)e.die_id, dies ? (int64_t)(0x300 + cpu) : -1);
    }
    for (cpu = 0; cpu < 4; cpu++) {
        e = perfdata_cpu_topology_at(t, out_of_range[cpu]);
        CHECK_EQ_U64((int64_t)e.core_id, -1);
        CHECK_EQ_U64((int64_t)e.socket_id, -1);
        CHECK_EQ_U64((int64_t)e.die_id, -1);
    }
}

static void decode_topology_prefix(const wr *w, size_t len, uint32_t nr_cpus, int ids, int dies) {
    unsigned char *b = copy_exact(w->buf, len);
    uint64_t h = fnv1a(b, len);
    perfdata_feat_cpu_topology t;
    perfdata_error err;
    CHECK_EQ_U64(perfdata_decode_feat_cpu_topology(mkview(b, len), w->big_endian, nr_cpus, &t, &err), PERFDATA_OK);
    CHECK_EQ_U64(err.code, PERFDATA_OK);
    CHECK_EQ_U64(t.big_endian, w->big_endian);
    check_strlist_items(&t.core_siblings, topo_core, 1, b, len);
    check_strlist_items(&t.thread_siblings, topo_thread, 2, b, len);
    CHECK_EQ_U64(t.nr_cpus, ids ? 4 : 0);
    CHECK_EQ_U64(t.cpu_ids.n, ids ? 32 : 0);
    CHECK_EQ_U64(t.has_dies, dies);
    if (ids) CHECK(view_inside(t.cpu_ids, b, len));
    if (dies) {
        check_strlist_items(&t.die_siblings, topo_die, 2, b, len);
        CHECK_EQ_U64(t.die_ids.n, 16);
        CHECK(view_inside(t.die_ids, b, len));
    } else {
        CHECK_EQ_U64(t.die_siblings.nr, 0);
        CHECK_EQ_U64(t.die_ids.n, 0);
    }
    check_topology_ids(&t, ids, dies);
    CHECK_EQ_U64(fnv1a(b, len), h);
    free(b);
}

TEST(feat_cpu_topology) {
    int big, tails;
    for (big = 0; big <= 1; big++) {
        for (tails = 0; tails <= 2; tails++) {
            wr w;
            topo_ctx c;
            size_t ok[2];
            unsigned long bad;
            set_ctx(big, tails == 0 ? "CPU_TOPOLOGY, no tail" : tails == 1 ? "CPU_TOPOLOGY, core/socket ids"
                                                                             : "CPU_TOPOLOGY, ids and dies");
            wr_init(&w, big);
            build_topology(&w, tails, &c);
            /* whole section, then exactly at each tail boundary: the tail is absent */
            decode_topology_prefix(&w, w.n, 4, tails >= 1, tails >= 2);
            if (tails >= 1) decode_topology_prefix(&w, c.end_threads, 4, 0, 0);
            if (tails >= 2) decode_topology_prefix(&w, c.end_ids, 4, 1, 0);
            /* without NRCPUS (nr_cpus 0) the per-cpu tails are not read */
            decode_topology_prefix(&w, w.n, 0, 0, 0);
            /* a cpu count the section cannot hold: the tail is not read */
            if (tails >= 1) {
                /* an id table shorter than NRCPUS says: an error, as in perf */
                perfdata_feat_cpu_topology t;
                unsigned char *b = copy_exact(w.buf, w.n);
                CHECK(perfdata_decode_feat_cpu_topology(mkview(b, w.n), w.big_endian, 0xffffffffu, &t, NULL) ==
                      PERFDATA_ERR_TRUNCATED);
                free(b);
            }

            /* every prefix up to the sibling lists' end: an error, then OK */
            ok[0] = c.end_threads;
            ok[1] = c.end_ids ? c.end_ids : c.end_threads; /* 0 would mean "length 0 is valid" */
            CHECK_EQ_U64(sweep_range(&w, dec_cpu_topology, &c, ok, 2, 0, c.end_threads + 1, "sibling lists"), 0);
            if (tails >= 1) {
                /* a section that ends inside the {core_id, socket_id}
                   array is an error, as in perf's process_cpu_topology,
                   not a section without ids. */
                bad = sweep_range(&w, dec_cpu_topology, &c, ok, 2, c.end_threads + 1, c.end_ids, "inside core/socket ids");
                if (!CHECK_EQ_U64(bad, 0))
                    fprintf(stderr, "    CPU_TOPOLOGY truncated inside the core/socket id tail decodes "
                                    "as OK with the tail absent (%lu lengths)\n", bad);
                CHECK_EQ_U64(sweep_range(&w, dec_cpu_topology, &c, ok, 2, c.end_ids, w.n + 1, "die tail"), 0);
            }
            wr_free(&w);
        }
    }
}

/* ===================================================================== */
/*                            counted lists                              */
/* ===================================================================== */

TEST(feat_numa_topology) {
    static const struct { uint32_t node; uint64_t total, free_; const char *cpus; } nodes[2] = {
        {0, 4024532, 3240212, "0-1"}, {7, 0x0000000100000002ull, 0x0000000300000004ull, "2-3,8"}};
    int big;
    for (big = 0; big <= 1; big++) {
        wr w;
        copy c;
        perfdata_feat_list l;
        perfdata_numa_node e;
        perfdata_error err;
        size_t s = 0, i;
        set_ctx(big, "NUMA_TOPOLOGY");
        wr_init(&w, big);
        put32(&w, 2);
        for (i = 0; i < 2; i++) {
            put32(&w, nodes[i].node);
            put64(&w, nodes[i].total);
            put64(&w, nodes[i].free_);
            put_pstr(&w, nodes[i].cpus);
        }
        c = make_copy(&w);
        CHECK_EQ_U64(perfdata_decode_feat_numa_topology(mkview(c.b, c.n), big, &l, &err), PERFDATA_OK);
        CHECK_EQ_U64(err.code, PERFDATA_OK);
        CHECK_EQ_U64(l.nr, 2);
        CHECK_EQ_U64(l.big_endian, big);
        CHECK(l.bytes.p == c.b + 4);
        CHECK_EQ_U64(l.bytes.n, c.n - 4);
        CHECK_EQ_U64(l.bytes.offset, SEC_OFFSET + 4);
        for (i = 0; i < 2; i++) {
            if (!CHECK(perfdata_numa_node_next(&l, &s, &e))) break;
            CHECK_EQ_U64(e.node, nodes[i].node);
            CHECK_EQ_U64(e.mem_total, nodes[i].total);
            CHECK_EQ_U64(e.mem_free, nodes[i].free_);
            CHECK(view_str(e.cpus, nodes[i].cpus));
            CHECK(view_inside(e.cpus, c.b, c.n));
            CHECK_EQ_U64(e.cpus.offset, SEC_OFFSET + 4 + i * (4 + 8 + 8 + 4 + 64) + 24);
        }
        CHECK(!perfdata_numa_node_next(&l, &s, &e));
        CHECK(!perfdata_numa_node_next(&l, &s, &e));
        done_copy(&c);
        CHECK_EQ_U64(sweep(&w, dec_numa, NULL, "NUMA_TOPOLOGY"), 0);
        wr_free(&w);
    }
}

TEST(feat_pmu_mappings) {
    static const struct { uint32_t type; const char *name; } m[3] = {
        {1, "software"}, {8, "uprobe"}, {0x01020304, "cpu"}};
    int big;
    for (big = 0; big <= 1; big++) {
        wr w;
        copy c;
        perfdata_feat_list l;
        perfdata_pmu_mapping e;
        size_t s = 0, i;
        set_ctx(big, "PMU_MAPPINGS");
        wr_init(&w, big);
        put32(&w, 3);
        for (i = 0; i < 3; i++) {
            put32(&w, m[i].type);
            put_pstr(&w, m[i].name);
        }
        c = make_copy(&w);
        CHECK_EQ_U64(perfdata_decode_feat_pmu_mappings(mkview(c.b, c.n), big, &l, NULL), PERFDATA_OK);
        CHECK_EQ_U64(l.nr, 3);
        CHECK_EQ_U64(l.bytes.n, c.n - 4);
        for (i = 0; i < 3; i++) {
            if (!CHECK(perfdata_pmu_mapping_next(&l, &s, &e))) break;
            CHECK_EQ_U64(e.type, m[i].type);
            CHECK(view_str(e.name, m[i].name));
            CHECK(view_inside(e.name, c.b, c.n));
        }
        CHECK(!perfdata_pmu_mapping_next(&l, &s, &e));
        CHECK(!perfdata_pmu_mapping_next(&l, &s, &e));
        done_copy(&c);
        CHECK_EQ_U64(sweep(&w, dec_pmu_mappings, NULL, "PMU_MAPPINGS"), 0);
        wr_free(&w);
    }
}

TEST(feat_group_desc) {
    static const struct { const char *name; uint32_t leader, members; } g[2] = {
        {"{cpu-clock,task-clock}", 0, 2}, {"{anon_group}", 0x00010002, 3}};
    int big;
    for (big = 0; big <= 1; big++) {
        wr w;
        copy c;
        perfdata_feat_list l;
        perfdata_group_desc e;
        size_t s = 0, i;
        set_ctx(big, "GROUP_DESC");
        wr_init(&w, big);
        put32(&w, 2);
        for (i = 0; i < 2; i++) {
            put_pstr(&w, g[i].name);
            put32(&w, g[i].leader);
            put32(&w, g[i].members);
        }
        c = make_copy(&w);
        CHECK_EQ_U64(perfdata_decode_feat_group_desc(mkview(c.b, c.n), big, &l, NULL), PERFDATA_OK);
        CHECK_EQ_U64(l.nr, 2);
        for (i = 0; i < 2; i++) {
            if (!CHECK(perfdata_group_desc_next(&l, &s, &e))) break;
            CHECK(view_str(e.name, g[i].name));
            CHECK(view_inside(e.name, c.b, c.n));
            CHECK_EQ_U64(e.leader_idx, g[i].leader);
            CHECK_EQ_U64(e.nr_members, g[i].members);
        }
        CHECK(!perfdata_group_desc_next(&l, &s, &e));
        CHECK(!perfdata_group_desc_next(&l, &s, &e));
        done_copy(&c);
        CHECK_EQ_U64(sweep(&w, dec_group_desc, NULL, "GROUP_DESC"), 0);
        wr_free(&w);
    }
}

TEST(feat_auxtrace) {
    int big;
    for (big = 0; big <= 1; big++) {
        wr w;
        copy c;
        perfdata_feat_list l;
        perfdata_auxtrace_index_entry e;
        size_t s = 0;
        set_ctx(big, "AUXTRACE, 2 entries");
        wr_init(&w, big);
        put64(&w, 2); /* a u64 count */
        put64(&w, 0x1000); put64(&w, 0x2000);
        put64(&w, 0x0123456789abcdefull); put64(&w, 0x40);
        c = make_copy(&w);
        CHECK_EQ_U64(perfdata_decode_feat_auxtrace(mkview(c.b, c.n), big, &l, NULL), PERFDATA_OK);
        CHECK_EQ_U64(l.nr, 2);
        CHECK(l.bytes.p == c.b + 8);
        CHECK_EQ_U64(l.bytes.n, 32);
        CHECK_EQ_U64(l.bytes.offset, SEC_OFFSET + 8);
        if (CHECK(perfdata_auxtrace_index_next(&l, &s, &e))) {
            CHECK_EQ_U64(e.file_offset, 0x1000);
            CHECK_EQ_U64(e.size, 0x2000);
        }
        if (CHECK(perfdata_auxtrace_index_next(&l, &s, &e))) {
            CHECK_EQ_U64(e.file_offset, 0x0123456789abcdefull);
            CHECK_EQ_U64(e.size, 0x40);
        }
        CHECK(!perfdata_auxtrace_index_next(&l, &s, &e));
        CHECK(!perfdata_auxtrace_index_next(&l, &s, &e));
        done_copy(&c);
        CHECK_EQ_U64(sweep(&w, dec_auxtrace, NULL, "AUXTRACE"), 0);
        wr_free(&w);

        set_ctx(big, "AUXTRACE, 0 entries");
        wr_init(&w, big);
        put64(&w, 0);
        c = make_copy(&w);
        CHECK_EQ_U64(perfdata_decode_feat_auxtrace(mkview(c.b, c.n), big, &l, NULL), PERFDATA_OK);
        CHECK_EQ_U64(l.nr, 0);
        CHECK_EQ_U64(l.bytes.n, 0);
        s = 0;
        CHECK(!perfdata_auxtrace_index_next(&l, &s, &e));
        done_copy(&c);
        CHECK_EQ_U64(sweep(&w, dec_auxtrace, NULL, "AUXTRACE nr 0"), 0);
        wr_free(&w);
    }
}

TEST(feat_cache) {
    static const struct { uint32_t level, line, sets, ways; const char *type, *size, *map; } lv[3] = {
        {1, 64, 64, 12, "Data", "48K", "0"},
        {1, 64, 64, 8, "Instruction", "32K", "0"},
        {3, 64, 32768, 0x01000010, "Unified", "32768K", "0-1"}};
    int big;
    for (big = 0; big <= 1; big++) {
        wr w;
        copy c;
        perfdata_feat_cache fc;
        perfdata_cache_level e;
        perfdata_error err;
        size_t s = 0, i;
        set_ctx(big, "CACHE");
        wr_init(&w, big);
        put32(&w, 1);
        put32(&w, 3);
        for (i = 0; i < 3; i++) {
            put32(&w, lv[i].level); put32(&w, lv[i].line); put32(&w, lv[i].sets); put32(&w, lv[i].ways);
            put_pstr(&w, lv[i].type); put_pstr(&w, lv[i].size); put_pstr(&w, lv[i].map);
        }
        c = make_copy(&w);
        CHECK_EQ_U64(perfdata_decode_feat_cache(mkview(c.b, c.n), big, &fc, &err), PERFDATA_OK);
        CHECK_EQ_U64(err.code, PERFDATA_OK);
        CHECK_EQ_U64(fc.version, 1);
        CHECK_EQ_U64(fc.levels.nr, 3);
        CHECK(fc.levels.bytes.p == c.b + 8);
        CHECK_EQ_U64(fc.levels.bytes.n, c.n - 8);
        for (i = 0; i < 3; i++) {
            if (!CHECK(perfdata_cache_level_next(&fc.levels, &s, &e))) break;
            CHECK_EQ_U64(e.level, lv[i].level);
            CHECK_EQ_U64(e.line_size, lv[i].line);
            CHECK_EQ_U64(e.sets, lv[i].sets);
            CHECK_EQ_U64(e.ways, lv[i].ways);
            CHECK(view_str(e.type, lv[i].type));
            CHECK(view_str(e.size, lv[i].size));
            CHECK(view_str(e.map, lv[i].map));
            CHECK(view_inside(e.map, c.b, c.n));
        }
        CHECK(!perfdata_cache_level_next(&fc.levels, &s, &e));
        CHECK(!perfdata_cache_level_next(&fc.levels, &s, &e));
        done_copy(&c);
        CHECK_EQ_U64(sweep(&w, dec_cache, NULL, "CACHE"), 0);
        wr_free(&w);
    }
}

TEST(feat_mem_topology) {
    static const uint64_t nbits[5] = {0, 1, 64, 65, 130};
    int big;
    for (big = 0; big <= 1; big++) {
        wr w;
        copy c;
        perfdata_feat_mem_topology m;
        perfdata_mem_node e;
        perfdata_error err;
        size_t s = 0, i, j;
        set_ctx(big, "MEM_TOPOLOGY");
        wr_init(&w, big);
        put64(&w, 1);
        put64(&w, 0x8000000);
        put64(&w, 5);
        for (i = 0; i < 5; i++) {
            size_t words = (size_t)((nbits[i] + 63) / 64);
            put64(&w, i);
            put64(&w, 0x0000000600000000ull + i);
            put64(&w, nbits[i]);
            for (j = 0; j < words; j++) put64(&w, 0xa0b0c0d0e0f00000ull + 16 * i + j);
        }
        c = make_copy(&w);
        CHECK_EQ_U64(perfdata_decode_feat_mem_topology(mkview(c.b, c.n), big, &m, &err), PERFDATA_OK);
        CHECK_EQ_U64(err.code, PERFDATA_OK);
        CHECK_EQ_U64(m.version, 1);
        CHECK_EQ_U64(m.block_size, 0x8000000);
        CHECK_EQ_U64(m.nodes.nr, 5);
        CHECK(m.nodes.bytes.p == c.b + 24);
        CHECK_EQ_U64(m.nodes.bytes.n, c.n - 24);
        for (i = 0; i < 5; i++) {
            size_t words = (size_t)((nbits[i] + 63) / 64);
            if (!CHECK(perfdata_mem_node_next(&m.nodes, &s, &e))) break;
            CHECK_EQ_U64(e.node, i);
            CHECK_EQ_U64(e.size, 0x0000000600000000ull + i);
            CHECK_EQ_U64(e.nbits, nbits[i]);
            CHECK_EQ_U64(e.bitmap.count, words);
            CHECK_EQ_U64(e.bitmap.big_endian, big);
            CHECK(view_inside(e.bitmap.bytes, c.b, c.n));
            for (j = 0; j < words; j++) CHECK_EQ_U64(perfdata_u64s_at(&e.bitmap, j), 0xa0b0c0d0e0f00000ull + 16 * i + j);
        }
        CHECK(!perfdata_mem_node_next(&m.nodes, &s, &e));
        CHECK(!perfdata_mem_node_next(&m.nodes, &s, &e));
        done_copy(&c);
        CHECK_EQ_U64(sweep(&w, dec_mem_topology, NULL, "MEM_TOPOLOGY"), 0);
        wr_free(&w);
    }
}

TEST(feat_bpf_prog_info) {
    static const unsigned char info0[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    static const unsigned char data0[8] = {0xd0, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7};
    static const unsigned char info1[4] = {0xaa, 0xbb, 0xcc, 0xdd};
    int big;
    for (big = 0; big <= 1; big++) {
        wr w;
        copy c;
        perfdata_feat_list l;
        perfdata_bpf_prog_info e;
        size_t s = 0;
        set_ctx(big, "BPF_PROG_INFO");
        wr_init(&w, big);
        put32(&w, 2);
        put32(&w, 16); put32(&w, 8); put64(&w, 0xdeadbeefcafef00dull);
        put_bytes(&w, info0, 16); put_bytes(&w, data0, 8);
        put32(&w, 4); put32(&w, 0); put64(&w, 0);
        put_bytes(&w, info1, 4);
        c = make_copy(&w);
        CHECK_EQ_U64(perfdata_decode_feat_bpf_prog_info(mkview(c.b, c.n), big, &l, NULL), PERFDATA_OK);
        CHECK_EQ_U64(l.nr, 2);
        CHECK_EQ_U64(l.bytes.n, c.n - 4);
        if (CHECK(perfdata_bpf_prog_info_next(&l, &s, &e))) {
            CHECK_EQ_U64(e.info_len, 16);
            CHECK_EQ_U64(e.data_len, 8);
            CHECK(view_mem(e.info, info0, 16));
            CHECK(view_mem(e.data, data0, 8));
            CHECK_EQ_U64(e.info.offset, SEC_OFFSET + 4 + 16);
            CHECK_EQ_U64(e.data.offset, SEC_OFFSET + 4 + 32);
        }
        if (CHECK(perfdata_bpf_prog_info_next(&l, &s, &e))) {
            CHECK_EQ_U64(e.info_len, 4);
            CHECK_EQ_U64(e.data_len, 0);
            CHECK(view_mem(e.info, info1, 4));
            CHECK_EQ_U64(e.data.n, 0);
            CHECK(view_inside(e.info, c.b, c.n));
        }
        CHECK(!perfdata_bpf_prog_info_next(&l, &s, &e));
        CHECK(!perfdata_bpf_prog_info_next(&l, &s, &e));
        done_copy(&c);
        CHECK_EQ_U64(sweep(&w, dec_bpf_prog_info, NULL, "BPF_PROG_INFO"), 0);
        wr_free(&w);
    }
}

TEST(feat_bpf_btf) {
    static const unsigned char btf0[5] = {0x9f, 0xeb, 0x01, 0x00, 0x18};
    int big;
    for (big = 0; big <= 1; big++) {
        wr w;
        copy c;
        perfdata_feat_list l;
        perfdata_bpf_btf e;
        size_t s = 0;
        set_ctx(big, "BPF_BTF");
        wr_init(&w, big);
        put32(&w, 2);
        put32(&w, 0x00070001); put32(&w, 5); put_bytes(&w, btf0, 5);
        put32(&w, 9); put32(&w, 0);
        c = make_copy(&w);
        CHECK_EQ_U64(perfdata_decode_feat_bpf_btf(mkview(c.b, c.n), big, &l, NULL), PERFDATA_OK);
        CHECK_EQ_U64(l.nr, 2);
        if (CHECK(perfdata_bpf_btf_next(&l, &s, &e))) {
            CHECK_EQ_U64(e.id, 0x00070001);
            CHECK(view_mem(e.data, btf0, 5));
            CHECK_EQ_U64(e.data.offset, SEC_OFFSET + 12);
        }
        if (CHECK(perfdata_bpf_btf_next(&l, &s, &e))) {
            CHECK_EQ_U64(e.id, 9);
            CHECK_EQ_U64(e.data.n, 0);
        }
        CHECK(!perfdata_bpf_btf_next(&l, &s, &e));
        CHECK(!perfdata_bpf_btf_next(&l, &s, &e));
        done_copy(&c);
        CHECK_EQ_U64(sweep(&w, dec_bpf_btf, NULL, "BPF_BTF"), 0);
        wr_free(&w);
    }
}

static const char *const caps_names[3] = {"branches", "max_precise", "pmu_name"};
static const char *const caps_values[3] = {"32", "3", "alderlake_hybrid"};

TEST(feat_cpu_pmu_caps) {
    int big;
    for (big = 0; big <= 1; big++) {
        wr w;
        copy c;
        perfdata_feat_list l;
        perfdata_name_value e;
        size_t s = 0, i;
        set_ctx(big, "CPU_PMU_CAPS");
        wr_init(&w, big);
        put32(&w, 3);
        for (i = 0; i < 3; i++) {
            put_pstr(&w, caps_names[i]);
            put_pstr(&w, caps_values[i]);
        }
        c = make_copy(&w);
        CHECK_EQ_U64(perfdata_decode_feat_cpu_pmu_caps(mkview(c.b, c.n), big, &l, NULL), PERFDATA_OK);
        CHECK_EQ_U64(l.nr, 3);
        for (i = 0; i < 3; i++) {
            if (!CHECK(perfdata_name_value_next(&l, &s, &e))) break;
            CHECK(view_str(e.name, caps_names[i]));
            CHECK(view_str(e.value, caps_values[i]));
            CHECK(view_inside(e.value, c.b, c.n));
        }
        CHECK(!perfdata_name_value_next(&l, &s, &e));
        CHECK(!perfdata_name_value_next(&l, &s, &e));
        done_copy(&c);
        CHECK_EQ_U64(sweep(&w, dec_cpu_pmu_caps, NULL, "CPU_PMU_CAPS"), 0);
        wr_free(&w);
    }
}

TEST(feat_hybrid_topology) {
    static const char *const pmus[2] = {"cpu_core", "cpu_atom"};
    static const char *const cpus[2] = {"0-7", "8-15"};
    int big;
    for (big = 0; big <= 1; big++) {
        wr w;
        copy c;
        perfdata_feat_list l;
        perfdata_hybrid_node e;
        size_t s = 0, i;
        set_ctx(big, "HYBRID_TOPOLOGY");
        wr_init(&w, big);
        put32(&w, 2);
        for (i = 0; i < 2; i++) {
            put_pstr(&w, pmus[i]);
            put_pstr(&w, cpus[i]);
        }
        c = make_copy(&w);
        CHECK_EQ_U64(perfdata_decode_feat_hybrid_topology(mkview(c.b, c.n), big, &l, NULL), PERFDATA_OK);
        CHECK_EQ_U64(l.nr, 2);
        for (i = 0; i < 2; i++) {
            if (!CHECK(perfdata_hybrid_node_next(&l, &s, &e))) break;
            CHECK(view_str(e.pmu_name, pmus[i]));
            CHECK(view_str(e.cpus, cpus[i]));
            CHECK(view_inside(e.cpus, c.b, c.n));
        }
        CHECK(!perfdata_hybrid_node_next(&l, &s, &e));
        CHECK(!perfdata_hybrid_node_next(&l, &s, &e));
        done_copy(&c);
        CHECK_EQ_U64(sweep(&w, dec_hybrid, NULL, "HYBRID_TOPOLOGY"), 0);
        wr_free(&w);
    }
}

TEST(feat_pmu_caps) {
    int big;
    for (big = 0; big <= 1; big++) {
        wr w;
        copy c;
        perfdata_feat_list l;
        perfdata_pmu_caps e;
        perfdata_name_value nv;
        size_t s = 0, s2, i;
        set_ctx(big, "PMU_CAPS");
        wr_init(&w, big);
        put32(&w, 2);
        put32(&w, 0); /* PMU 0: no caps */
        put_pstr(&w, "ibs_op");
        put32(&w, 3); /* PMU 1: three */
        for (i = 0; i < 3; i++) {
            put_pstr(&w, caps_names[i]);
            put_pstr(&w, caps_values[i]);
        }
        put_pstr(&w, "cpu_core");
        c = make_copy(&w);
        CHECK_EQ_U64(perfdata_decode_feat_pmu_caps(mkview(c.b, c.n), big, &l, NULL), PERFDATA_OK);
        CHECK_EQ_U64(l.nr, 2);
        CHECK_EQ_U64(l.bytes.n, c.n - 4);
        if (CHECK(perfdata_pmu_caps_next(&l, &s, &e))) {
            CHECK_EQ_U64(e.nr_caps, 0);
            CHECK_EQ_U64(e.caps.nr, 0);
            CHECK_EQ_U64(e.caps.bytes.n, 0);
            CHECK(view_str(e.pmu_name, "ibs_op"));
            CHECK(view_inside(e.pmu_name, c.b, c.n));
            s2 = 0;
            CHECK(!perfdata_name_value_next(&e.caps, &s2, &nv));
        }
        if (CHECK(perfdata_pmu_caps_next(&l, &s, &e))) {
            CHECK_EQ_U64(e.nr_caps, 3);
            CHECK_EQ_U64(e.caps.nr, 3);
            CHECK_EQ_U64(e.caps.big_endian, big);
            CHECK(view_inside(e.caps.bytes, c.b, c.n));
            s2 = 0;
            for (i = 0; i < 3; i++) {
                if (!CHECK(perfdata_name_value_next(&e.caps, &s2, &nv))) break;
                CHECK(view_str(nv.name, caps_names[i]));
                CHECK(view_str(nv.value, caps_values[i]));
                CHECK(view_inside(nv.name, c.b, c.n));
            }
            CHECK(!perfdata_name_value_next(&e.caps, &s2, &nv));
            CHECK(view_str(e.pmu_name, "cpu_core"));
            CHECK(view_inside(e.pmu_name, c.b, c.n));
        }
        CHECK(!perfdata_pmu_caps_next(&l, &s, &e));
        CHECK(!perfdata_pmu_caps_next(&l, &s, &e));
        done_copy(&c);
        CHECK_EQ_U64(sweep(&w, dec_pmu_caps, NULL, "PMU_CAPS"), 0);
        wr_free(&w);
    }
}

/* ===================================================================== */
/*                       CPU_DOMAIN_INFO, CLN_SIZE                       */
/* ===================================================================== */

/* One sched domain as perf sched stats records it. list_enc says how the
   cpulist string is written: 0 perf's 64-byte padding, 1 a tight len with
   the NUL inside it, 2 a tight len with no NUL at all. */
typedef struct tdom {
    uint32_t domain;
    const char *name, *cpumask, *cpulist;
    int list_enc;
} tdom;

static const tdom cdi_doms[4] = {
    {0, "SMT", "00000003", "0-1", 0},   /* cpu 0: one domain */
    {0, "SMT", "00000030", "4-5", 1},   /* cpu 5: three */
    {1, "MC", "000000ff", "0-7", 0},
    {2, "PKG", "0000ffff", "0-15", 2},
};
static const uint32_t cdi_cpu_id[2] = {0, 5};
static const uint32_t cdi_cpu_ndom[2] = {1, 3};

/* Where the builder put things (offsets into the section). */
typedef struct cdi_layout {
    size_t cpu_end[2];   /* end of each cpu entry */
    size_t dom_start[2]; /* start of each cpu's domain records */
    size_t dom_end[4];   /* end of each domain record */
    size_t name_at[4], mask_at[4], list_at[4]; /* each string's text */
} cdi_layout;

static void build_cpu_domain_info(wr *w, uint32_t version, cdi_layout *lay) {
    size_t cpu, j, g = 0;
    put32(w, version);
    put32(w, 3); /* max_sched_domains */
    for (cpu = 0; cpu < 2; cpu++) {
        put32(w, cdi_cpu_id[cpu]);
        put32(w, cdi_cpu_ndom[cpu]);
        lay->dom_start[cpu] = w->n;
        for (j = 0; j < cdi_cpu_ndom[cpu]; j++, g++) {
            const tdom *d = &cdi_doms[g];
            size_t ln = strlen(d->cpulist);
            put32(w, d->domain);
            lay->name_at[g] = w->n + 4;
            if (version >= 17) put_pstr(w, d->name);
            lay->mask_at[g] = w->n + 4;
            put_pstr(w, d->cpumask);
            lay->list_at[g] = w->n + 4;
            if (d->list_enc == 0) put_pstr(w, d->cpulist);
            else if (d->list_enc == 1) put_pstr_raw(w, d->cpulist, ln + 1, (uint32_t)(ln + 1));
            else put_pstr_raw(w, d->cpulist, ln, (uint32_t)ln);
            lay->dom_end[g] = w->n;
        }
        lay->cpu_end[cpu] = w->n;
    }
}

/* v is the string at section offset `at` and reads s. */
static int view_at(perfdata_view v, const copy *c, size_t at, const char *s) {
    return view_str(v, s) && v.p == c->b + at && view_inside(v, c->b, c->n);
}

TEST(feat_cpu_domain_info) {
    static const uint32_t versions[4] = {16, 17, 15, 18}; /* names from 17 on */
    int big;
    size_t vi;
    for (big = 0; big <= 1; big++) {
        for (vi = 0; vi < 4; vi++) {
            uint32_t version = versions[vi];
            int names = version >= 17;
            char label[64];
            wr w;
            copy c;
            cdi_layout lay;
            cdi_ctx cx;
            perfdata_feat_cpu_domain_info d;
            perfdata_cpu_domains e;
            perfdata_sched_domain sd;
            perfdata_error err;
            size_t s = 0, s2, cpu, j, g = 0, ok[2];
            snprintf(label, sizeof label, "CPU_DOMAIN_INFO v%u", (unsigned)version);
            set_ctx(big, label);
            wr_init(&w, big);
            build_cpu_domain_info(&w, version, &lay);
            c = make_copy(&w);
            memset(&err, 0, sizeof err);
            err.code = PERFDATA_ERR_UNKNOWN_ID;
            CHECK_EQ_U64(perfdata_decode_feat_cpu_domain_info(mkview(c.b, c.n), big, &d, &err), PERFDATA_OK);
            CHECK_EQ_U64(err.code, PERFDATA_OK);
            CHECK_EQ_U64(d.schedstat_version, version);
            CHECK_EQ_U64(d.max_sched_domains, 3);
            CHECK_EQ_U64(d.big_endian, big);
            CHECK(d.cpus.p == c.b + 8);
            CHECK_EQ_U64(d.cpus.n, c.n - 8);
            CHECK_EQ_U64(d.cpus.offset, SEC_OFFSET + 8);
            for (cpu = 0; cpu < 2; cpu++) {
                size_t ds = lay.dom_start[cpu];
                if (!CHECK(perfdata_cpu_domains_next(&d, &s, &e))) break;
                CHECK_EQ_U64(s, lay.cpu_end[cpu] - 8); /* the state is an offset into d.cpus */
                CHECK_EQ_U64(e.cpu, cdi_cpu_id[cpu]);
                CHECK_EQ_U64(e.nr_domains, cdi_cpu_ndom[cpu]);
                CHECK_EQ_U64(e.schedstat_version, version);
                CHECK_EQ_U64(e.big_endian, big);
                CHECK(e.domains.p == c.b + ds);
                CHECK_EQ_U64(e.domains.n, lay.cpu_end[cpu] - ds);
                CHECK(view_inside(e.domains, c.b, c.n));
                s2 = 0;
                for (j = 0; j < cdi_cpu_ndom[cpu]; j++, g++) {
                    const tdom *t = &cdi_doms[g];
                    if (!CHECK(perfdata_sched_domain_next(&e, &s2, &sd))) break;
                    CHECK_EQ_U64(s2, lay.dom_end[g] - ds);
                    CHECK_EQ_U64(sd.domain, t->domain);
                    if (names) {
                        CHECK(view_at(sd.name, &c, lay.name_at[g], t->name));
                    } else {
                        CHECK_EQ_U64(sd.name.n, 0);
                        CHECK(view_inside(sd.name, c.b, c.n));
                    }
                    CHECK(view_at(sd.cpumask, &c, lay.mask_at[g], t->cpumask));
                    CHECK(view_at(sd.cpulist, &c, lay.list_at[g], t->cpulist));
                }
                /* past the last domain, and again */
                CHECK(!perfdata_sched_domain_next(&e, &s2, &sd));
                CHECK(!perfdata_sched_domain_next(&e, &s2, &sd));
                CHECK_EQ_U64(s2, e.domains.n);
                s2 = e.domains.n + 1000;
                CHECK(!perfdata_sched_domain_next(&e, &s2, &sd));
                s2 = e.domains.n - 1; /* a state inside the last domain record */
                CHECK(!perfdata_sched_domain_next(&e, &s2, &sd));
            }
            /* past the last cpu, and again, and far past */
            CHECK(!perfdata_cpu_domains_next(&d, &s, &e));
            CHECK(!perfdata_cpu_domains_next(&d, &s, &e));
            CHECK_EQ_U64(s, d.cpus.n);
            s = (size_t)-1;
            CHECK(!perfdata_cpu_domains_next(&d, &s, &e));
            s = d.cpus.n - 1; /* a state inside the last cpu entry */
            CHECK(!perfdata_cpu_domains_next(&d, &s, &e));
            done_copy(&c);
            /* every prefix: an error, except those ending between whole
               cpu entries (header only: 0 cpus; after cpu 0: 1 cpu) */
            cx.version = version;
            cx.ends[0] = 8;
            cx.ends[1] = lay.cpu_end[0];
            cx.ends[2] = lay.cpu_end[1];
            ok[0] = 8;
            ok[1] = lay.cpu_end[0];
            CHECK_EQ_U64(w.n, lay.cpu_end[1]);
            CHECK_EQ_U64(sweep_range(&w, dec_cpu_domain_info, &cx, ok, 2, 0, w.n + 1, label), 0);
            wr_free(&w);
        }
    }
}

TEST(feat_cpu_domain_info_edges) {
    int big;
    for (big = 0; big <= 1; big++) {
        wr w;
        copy c;
        perfdata_feat_cpu_domain_info d;
        perfdata_cpu_domains e;
        perfdata_sched_domain sd;
        perfdata_error err;
        size_t s = 0, s2 = 0;

        /* the 8-byte header alone: no cpus, valid */
        set_ctx(big, "CPU_DOMAIN_INFO header only");
        {
            cdi_ctx cx;
            wr_init(&w, big);
            put32(&w, 17);
            put32(&w, 0);
            c = make_copy(&w);
            CHECK_EQ_U64(perfdata_decode_feat_cpu_domain_info(mkview(c.b, c.n), big, &d, &err), PERFDATA_OK);
            CHECK_EQ_U64(err.code, PERFDATA_OK);
            CHECK_EQ_U64(d.schedstat_version, 17);
            CHECK_EQ_U64(d.max_sched_domains, 0);
            CHECK_EQ_U64(d.cpus.n, 0);
            CHECK_EQ_U64(d.cpus.offset, SEC_OFFSET + 8);
            CHECK(!perfdata_cpu_domains_next(&d, &s, &e));
            CHECK_EQ_U64(s, 0);
            done_copy(&c);
            cx.version = 17;
            cx.ends[0] = 8;
            cx.ends[1] = cx.ends[2] = (size_t)-1;
            CHECK_EQ_U64(sweep(&w, dec_cpu_domain_info, &cx, "CPU_DOMAIN_INFO header only"), 0);
            wr_free(&w);
        }

        /* a cpu entry with nr_domains 0 (perf skips such cpus, but the
           layout allows it): valid, an empty domain list */
        set_ctx(big, "CPU_DOMAIN_INFO nr_domains 0");
        {
            wr_init(&w, big);
            put32(&w, 16);
            put32(&w, 1);
            put32(&w, 7);
            put32(&w, 0);
            put32(&w, 9);
            put32(&w, 1);
            put32(&w, 4);
            put_pstr(&w, "00000200");
            put_pstr(&w, "9");
            c = make_copy(&w);
            s = 0;
            CHECK_EQ_U64(perfdata_decode_feat_cpu_domain_info(mkview(c.b, c.n), big, &d, NULL), PERFDATA_OK);
            if (CHECK(perfdata_cpu_domains_next(&d, &s, &e))) {
                CHECK_EQ_U64(e.cpu, 7);
                CHECK_EQ_U64(e.nr_domains, 0);
                CHECK_EQ_U64(e.domains.n, 0);
                CHECK_EQ_U64(e.domains.offset, SEC_OFFSET + 16);
                s2 = 0;
                CHECK(!perfdata_sched_domain_next(&e, &s2, &sd));
            }
            if (CHECK(perfdata_cpu_domains_next(&d, &s, &e))) {
                CHECK_EQ_U64(e.cpu, 9);
                CHECK_EQ_U64(e.nr_domains, 1);
                s2 = 0;
                if (CHECK(perfdata_sched_domain_next(&e, &s2, &sd))) {
                    CHECK_EQ_U64(sd.domain, 4);
                    CHECK_EQ_U64(sd.name.n, 0);
                    CHECK(view_str(sd.cpumask, "00000200"));
                    CHECK(view_str(sd.cpulist, "9"));
                }
                CHECK(!perfdata_sched_domain_next(&e, &s2, &sd));
            }
            CHECK(!perfdata_cpu_domains_next(&d, &s, &e));
            done_copy(&c);
            {
                static const size_t ok[2] = {8, 16};
                CHECK_EQ_U64(sweep_range(&w, dec_cpu_domain_info, NULL, ok, 2, 0, w.n + 1, "nr_domains 0"), 0);
            }
            wr_free(&w);
        }
    }
}

TEST(feat_cln_size) {
    static const uint32_t v32[3] = {64, 128, 0xfedcba98u};
    static const uint64_t v64[3] = {64, 0x0000000100000080ull, 0x0102030405060708ull};
    int big;
    size_t i;
    for (big = 0; big <= 1; big++) {
        for (i = 0; i < 3; i++) {
            wr w;
            copy c;
            uint64_t o = 0;
            perfdata_error err;

            set_ctx(big, "CLN_SIZE u32");
            wr_init(&w, big);
            put32(&w, v32[i]);
            c = make_copy(&w);
            CHECK_EQ_U64(perfdata_decode_feat_cln_size(mkview(c.b, c.n), big, &o, &err), PERFDATA_OK);
            CHECK_EQ_U64(err.code, PERFDATA_OK);
            CHECK_EQ_U64(o, v32[i]);
            done_copy(&c);
            CHECK_EQ_U64(sweep(&w, dec_cln_size, NULL, "CLN_SIZE u32"), 0); /* 0..3: errors */
            wr_free(&w);

            set_ctx(big, "CLN_SIZE u64");
            wr_init(&w, big);
            put64(&w, v64[i]);
            c = make_copy(&w);
            o = 0;
            CHECK_EQ_U64(perfdata_decode_feat_cln_size(mkview(c.b, c.n), big, &o, &err), PERFDATA_OK);
            CHECK_EQ_U64(err.code, PERFDATA_OK);
            CHECK_EQ_U64(o, v64[i]);
            done_copy(&c);
            CHECK_EQ_U64(sweep_range(&w, dec_cln_size, NULL, NULL, 0, 0, 4, "CLN_SIZE u64"), 0);
            wr_free(&w);
        }
    }
}

/* ===================================================================== */
/*                                BUILD_ID                               */
/* ===================================================================== */

static const unsigned char bid_kernel[16] = {0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
                                             0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf};
static const unsigned char bid_workload[20] = {0x9a, 0x38, 0xd8, 0xd2, 0x3c, 0xab, 0x24, 0xb9, 0x3f, 0xc4,
                                               0xee, 0xf8, 0xb2, 0x4c, 0xb8, 0xa5, 0x91, 0xbf, 0x07, 0xa9};

/* One HEADER_BUILD_ID record as perf writes it: header, pid, build_id[20],
   size u8, 3 reserved bytes, filename NUL-padded to 64. header.size may be
   overridden (-1: the real size). */
static void put_build_id(wr *w, uint16_t misc, int32_t pid, const unsigned char *id, size_t idlen, unsigned size_byte,
                         const char *filename, long size_override) {
    size_t flen = (strlen(filename) + 1 + 63) / 64 * 64;
    put32(w, PERFDATA_RECORD_HEADER_BUILD_ID);
    put16(w, misc);
    put16(w, (uint16_t)(size_override >= 0 ? size_override : (long)(36 + flen)));
    put32(w, (uint32_t)pid);
    put_bytes(w, id, idlen);
    put_fill(w, 0, 20 - idlen);
    put8(w, size_byte);
    put_fill(w, 0, 3);
    put_bytes(w, filename, strlen(filename));
    put_fill(w, 0, flen - strlen(filename));
}

/* The next build id of a BUILD_ID section, through the decoded list. */
static int bid_next(perfdata_view sec, int big, size_t *state, perfdata_build_id *b) {
    perfdata_feat_list l;
    (void)perfdata_decode_feat_build_id(sec, big, &l, NULL);
    return perfdata_build_id_next(&l, state, b);
}

static size_t count_build_ids(const unsigned char *p, size_t n, int big) {
    size_t s = 0, k = 0;
    perfdata_build_id b;
    while (k < 100 && bid_next(mkview(p, n), big, &s, &b)) k++;
    return k;
}

TEST(build_id_iteration) {
    int big;
    for (big = 0; big <= 1; big++) {
        wr w;
        copy c;
        perfdata_build_id b;
        size_t s = 0, len;
        unsigned long bad = 0;
        set_ctx(big, "BUILD_ID");
        wr_init(&w, big);
        put_build_id(&w, PERFDATA_MISC_BUILD_ID_SIZE | PERFDATA_MISC_KERNEL, -1, bid_kernel, 16, 16,
                     "[kernel.kallsyms]", -1);
        put_build_id(&w, PERFDATA_MISC_USER, 1234, bid_workload, 20, 7 /* ignored without bit 15 */,
                     "/tmp/perfdata-fixture/workload", -1);
        CHECK_EQ_U64(w.n, 200);
        c = make_copy(&w);
        if (CHECK(bid_next(mkview(c.b, c.n), big, &s, &b))) {
            CHECK_EQ_U64((int64_t)b.pid, -1);
            CHECK(view_mem(b.build_id, bid_kernel, 16));
            CHECK_EQ_U64(b.build_id.offset, SEC_OFFSET + 12);
            CHECK(view_str(b.filename, "[kernel.kallsyms]"));
            CHECK_EQ_U64(b.filename.offset, SEC_OFFSET + 36);
            CHECK_EQ_U64(s, 100);
        }
        if (CHECK(bid_next(mkview(c.b, c.n), big, &s, &b))) {
            CHECK_EQ_U64(b.pid, 1234);
            CHECK(view_mem(b.build_id, bid_workload, 20));
            CHECK(view_str(b.filename, "/tmp/perfdata-fixture/workload"));
            CHECK_EQ_U64(b.filename.offset, SEC_OFFSET + 136);
            CHECK_EQ_U64(s, 200);
        }
        CHECK(!bid_next(mkview(c.b, c.n), big, &s, &b)); /* past the end */
        CHECK(!bid_next(mkview(c.b, c.n), big, &s, &b));
        CHECK_EQ_U64(s, 200);
        s = 1000;
        CHECK(!bid_next(mkview(c.b, c.n), big, &s, &b));
        s = (size_t)-1;
        CHECK(!bid_next(mkview(c.b, c.n), big, &s, &b));
        done_copy(&c);

        /* every prefix: only the records that fit whole are yielded */
        for (len = 0; len <= w.n; len++) {
            unsigned char *p = copy_exact(w.buf, len);
            size_t want = len >= 200 ? 2 : len >= 100 ? 1 : 0;
            perfdata_feat_list l;
            perfdata_error e;
            perfdata_status st = perfdata_decode_feat_build_id(mkview(p, len), big, &l, &e);
            /* whole records: OK; cut inside one: TRUNCATED where it starts */
            if (l.nr != want || l.bytes.n != want * 100 ||
                (len == want * 100 ? st != PERFDATA_OK
                                   : st != PERFDATA_ERR_TRUNCATED || e.offset != SEC_OFFSET + want * 100))
                bad++;
            if (count_build_ids(p, len, big) != want) {
                if (bad < 3) fprintf(stderr, "    [%s] BUILD_ID prefix %lu\n", test__context, (unsigned long)len);
                bad++;
            }
            free(p);
        }
        CHECK_EQ_U64(bad, 0);
        wr_free(&w);

        {
            /* a second record with header.size < 8, 0, 8 (no body), 35 (body
               shorter than pid + build id), or past the section: one entry */
            static const uint16_t sizes[6] = {4, 0, 7, 8, 35, 300};
            size_t i;
            for (i = 0; i < 6; i++) {
                set_ctx(big, "BUILD_ID, bad second record");
                wr_init(&w, big);
                put_build_id(&w, PERFDATA_MISC_BUILD_ID_SIZE, 1, bid_kernel, 16, 16, "/a", -1);
                put_build_id(&w, 0, 2, bid_workload, 20, 0, "/b", sizes[i]);
                put_build_id(&w, 0, 3, bid_workload, 20, 0, "/c", -1);
                c = make_copy(&w);
                if (!CHECK_EQ_U64(count_build_ids(c.b, c.n, big), 1))
                    fprintf(stderr, "    second record header.size %u\n", (unsigned)sizes[i]);
                done_copy(&c);
                wr_free(&w);
            }
        }
        {
            /* misc bit 15 with a size byte above 20: at most 20 bytes */
            set_ctx(big, "BUILD_ID, size byte 32");
            wr_init(&w, big);
            put_build_id(&w, PERFDATA_MISC_BUILD_ID_SIZE, 5, bid_workload, 20, 32, "/x", -1);
            c = make_copy(&w);
            s = 0;
            if (CHECK(bid_next(mkview(c.b, c.n), big, &s, &b))) {
                CHECK(b.build_id.n <= 20);
                CHECK_EQ_U64(b.pid, 5);
                CHECK(view_str(b.filename, "/x"));
            }
            done_copy(&c);
            wr_free(&w);
        }
    }
}

/* ===================================================================== */
/*                       hostile counts and lengths                      */
/* ===================================================================== */

typedef struct huge_case {
    const char *what;
    dec_fn fn;
    int want_ok; /* 1: legitimately valid (must still be fast) */
} huge_case;

/* Builds the section for case i in w. */
static void build_huge(wr *w, size_t i) {
    perfdata_attr a;
    size_t k;
    switch (i) {
    case 0: put32(w, 0xffffffffu); put_bytes(w, "abc", 3); break;                     /* string len */
    case 1: put32(w, 0xffffffffu); put_pstr(w, "x"); break;                           /* strlist nr */
    case 2: put32(w, 2); put32(w, 0xffffffffu); put_bytes(w, "abc", 3); break;        /* strlist str len */
    case 3: /* strlist nr 2^32-1 over 16 KiB of empty strings */
        put32(w, 0xffffffffu);
        for (k = 0; k < 4096; k++) put32(w, 0);
        break;
    case 4: /* EVENT_DESC nr */
        a = desc_attr(64, 0);
        put32(w, 0xffffffffu); put32(w, 64); put_attr_bytes(w, &a, 64); put32(w, 0); put_pstr(w, "e");
        break;
    case 5: put32(w, 1); put32(w, 0xffffffffu); put_fill(w, 0, 64); break;            /* attr_size */
    case 6: /* nr_ids */
        a = desc_attr(64, 0);
        put32(w, 1); put32(w, 64); put_attr_bytes(w, &a, 64); put32(w, 0xffffffffu); put_pstr(w, "e");
        break;
    case 7: put32(w, 0xffffffffu); put_pstr(w, "0-3"); break;                         /* CPU_TOPOLOGY core nr */
    case 8: put32(w, 0xffffffffu); put32(w, 0); put64(w, 1); put64(w, 2); put_pstr(w, "0"); break; /* NUMA */
    case 9: put32(w, 0xffffffffu); put32(w, 1); put_pstr(w, "software"); break;       /* PMU_MAPPINGS */
    case 10: put32(w, 0xffffffffu); put_pstr(w, "g"); put32(w, 0); put32(w, 1); break; /* GROUP_DESC */
    case 11: put64(w, ~0ull); put64(w, 1); put64(w, 2); break;                        /* AUXTRACE */
    case 12: put64(w, 0x0fffffffffffffffull); put64(w, 1); put64(w, 2); break;        /* AUXTRACE nr*16 wraps */
    case 13: put32(w, 1); put32(w, 0xffffffffu); put32(w, 1); put32(w, 2); put32(w, 3); put32(w, 4);
        put_pstr(w, "D"); put_pstr(w, "1K"); put_pstr(w, "0"); break;                 /* CACHE */
    case 14: put64(w, 1); put64(w, 1); put64(w, ~0ull); put64(w, 0); put64(w, 0); put64(w, 0); break; /* MEM nr */
    case 15: put64(w, 1); put64(w, 1); put64(w, 1); put64(w, 0); put64(w, 0); put64(w, ~0ull); put64(w, 5); break;
    case 16: put64(w, 1); put64(w, 1); put64(w, 1); put64(w, 0); put64(w, 0); put64(w, ~0ull - 63); put64(w, 5);
        break;
    case 17: put32(w, 0xffffffffu); put32(w, 0); put32(w, 0); put64(w, 0); break;     /* BPF_PROG_INFO count */
    case 18: put32(w, 1); put32(w, 0xffffffffu); put32(w, 0); put64(w, 0); put_fill(w, 1, 8); break;
    case 19: put32(w, 1); put32(w, 0); put32(w, 0xffffffffu); put64(w, 0); put_fill(w, 1, 8); break;
    case 20: put32(w, 0xffffffffu); put32(w, 1); put32(w, 0); break;                  /* BPF_BTF count */
    case 21: put32(w, 1); put32(w, 1); put32(w, 0xffffffffu); put_fill(w, 1, 8); break;
    case 22: put32(w, 0xffffffffu); put_pstr(w, "n"); put_pstr(w, "v"); break;        /* CPU_PMU_CAPS */
    case 23: put32(w, 0xffffffffu); put_pstr(w, "p"); put_pstr(w, "0"); break;        /* HYBRID */
    case 24: put32(w, 0xffffffffu); put32(w, 0); put_pstr(w, "pmu"); break;           /* PMU_CAPS nr_pmu */
    case 25: put32(w, 1); put32(w, 0xffffffffu); put_pstr(w, "n"); put_pstr(w, "v"); put_pstr(w, "pmu"); break;
    case 26: /* PMU_CAPS nr_pmu 2^32-1 over 16 KiB of empty PMUs (u32 0 + len 0) */
        put32(w, 0xffffffffu);
        for (k = 0; k < 2048; k++) { put32(w, 0); put32(w, 0); }
        break;
    case 27: /* CPU_DOMAIN_INFO v16: nr_domains 2^32-1, one domain present */
        put32(w, 16); put32(w, 1); put32(w, 0); put32(w, 0xffffffffu);
        put32(w, 0); put_pstr(w, "00000003"); put_pstr(w, "0-1"); break;
    case 28: /* the same with v17 names */
        put32(w, 17); put32(w, 1); put32(w, 0); put32(w, 0xffffffffu);
        put32(w, 0); put_pstr(w, "SMT"); put_pstr(w, "00000003"); put_pstr(w, "0-1"); break;
    case 29: /* nr_domains 2^32-1 in a 16-byte section */
        put32(w, 16); put32(w, 1); put32(w, 0); put32(w, 0xffffffffu); break;
    case 30: /* nr_domains 2^32-1 over 16 KiB of empty 12-byte v16 domains */
        put32(w, 16); put32(w, 1); put32(w, 0); put32(w, 0xffffffffu);
        for (k = 0; k < 1365; k++) { put32(w, (uint32_t)k); put32(w, 0); put32(w, 0); }
        break;
    case 31: /* a v17 cpumask len 2^32-1 */
        put32(w, 17); put32(w, 1); put32(w, 0); put32(w, 1);
        put32(w, 0); put_pstr(w, "SMT"); put32(w, 0xffffffffu); put_bytes(w, "abc", 3); break;
    default: abort();
    }
}

static int dec_topo_huge(perfdata_view sec, int big, perfdata_error *err, void *ctx) {
    perfdata_feat_cpu_topology t;
    (void)ctx;
    return (int)perfdata_decode_feat_cpu_topology(sec, big, 0xffffffffu, &t, err);
}

TEST(huge_counts) {
    static const huge_case cases[32] = {
        {"string len 2^32-1", dec_string, 0},
        {"strlist nr 2^32-1", dec_strlist, 0},
        {"strlist string len 2^32-1", dec_strlist, 0},
        {"strlist nr 2^32-1, 4096 empty strings", dec_strlist, 0},
        {"EVENT_DESC nr 2^32-1", dec_event_desc, 0},
        {"EVENT_DESC attr_size 2^32-1", dec_event_desc, 0},
        {"EVENT_DESC nr_ids 2^32-1", dec_event_desc, 0},
        {"CPU_TOPOLOGY core_siblings nr 2^32-1", dec_topo_huge, 0},
        {"NUMA_TOPOLOGY nr 2^32-1", dec_numa, 0},
        {"PMU_MAPPINGS nr 2^32-1", dec_pmu_mappings, 0},
        {"GROUP_DESC nr 2^32-1", dec_group_desc, 0},
        {"AUXTRACE nr 2^64-1", dec_auxtrace, 0},
        {"AUXTRACE nr 2^60-1 (nr*16 wraps)", dec_auxtrace, 0},
        {"CACHE cnt 2^32-1", dec_cache, 0},
        {"MEM_TOPOLOGY nr 2^64-1", dec_mem_topology, 0},
        {"MEM_TOPOLOGY nbits 2^64-1", dec_mem_topology, 0},
        {"MEM_TOPOLOGY nbits 2^64-64", dec_mem_topology, 0},
        {"BPF_PROG_INFO count 2^32-1", dec_bpf_prog_info, 0},
        {"BPF_PROG_INFO info_len 2^32-1", dec_bpf_prog_info, 0},
        {"BPF_PROG_INFO data_len 2^32-1", dec_bpf_prog_info, 0},
        {"BPF_BTF count 2^32-1", dec_bpf_btf, 0},
        {"BPF_BTF data_size 2^32-1", dec_bpf_btf, 0},
        {"CPU_PMU_CAPS nr 2^32-1", dec_cpu_pmu_caps, 0},
        {"HYBRID_TOPOLOGY nr 2^32-1", dec_hybrid, 0},
        {"PMU_CAPS nr_pmu 2^32-1", dec_pmu_caps, 0},
        {"PMU_CAPS nr_caps 2^32-1", dec_pmu_caps, 0},
        {"PMU_CAPS nr_pmu 2^32-1, 2048 empty PMUs", dec_pmu_caps, 0},
        {"CPU_DOMAIN_INFO v16 nr_domains 2^32-1", dec_cpu_domain_info, 0},
        {"CPU_DOMAIN_INFO v17 nr_domains 2^32-1", dec_cpu_domain_info, 0},
        {"CPU_DOMAIN_INFO nr_domains 2^32-1, 16-byte section", dec_cpu_domain_info, 0},
        {"CPU_DOMAIN_INFO nr_domains 2^32-1, 1365 empty domains", dec_cpu_domain_info, 0},
        {"CPU_DOMAIN_INFO cpumask len 2^32-1", dec_cpu_domain_info, 0},
    };
    int big;
    size_t i;
    for (big = 0; big <= 1; big++) {
        for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            wr w;
            copy c;
            perfdata_error err;
            clock_t t0;
            double secs;
            int st;
            set_ctx(big, cases[i].what);
            wr_init(&w, big);
            build_huge(&w, i);
            c = make_copy(&w);
            t0 = clock();
            st = cases[i].fn(mkview(c.b, c.n), big, &err, NULL);
            secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
            if (cases[i].want_ok) CHECK_EQ_U64(st, PERFDATA_OK);
            else if (CHECK(is_err(st))) CHECK_EQ_U64(err.code, st);
            if (!CHECK(secs < 0.5)) fprintf(stderr, "    took %.3f s\n", secs);
            done_copy(&c);
            wr_free(&w);
        }
        {
            /* a BUILD_ID record claiming 65535 bytes in a 100-byte section */
            wr w;
            set_ctx(big, "BUILD_ID size 0xffff");
            wr_init(&w, big);
            put_build_id(&w, 0, 1, bid_workload, 20, 0, "/a", 0xffff);
            CHECK_EQ_U64(count_build_ids(w.buf, w.n, big), 0);
            wr_free(&w);
        }
        {
            /* CPU_TOPOLOGY: nr_cpus 2^32-1 with the id tail present is an
               error (the id table cannot hold that many cpus), and fast */
            wr w;
            topo_ctx tc;
            copy c;
            perfdata_feat_cpu_topology t;
            set_ctx(big, "CPU_TOPOLOGY nr_cpus 2^32-1");
            wr_init(&w, big);
            build_topology(&w, 2, &tc);
            c = make_copy(&w);
            CHECK_EQ_U64(perfdata_decode_feat_cpu_topology(mkview(c.b, c.n), big, 0xffffffffu, &t, NULL),
                         PERFDATA_ERR_TRUNCATED);
            CHECK_EQ_U64(t.nr_cpus, 0);
            done_copy(&c);
            wr_free(&w);
        }
    }
}

/* ===================================================================== */
/*                               names                                   */
/* ===================================================================== */

TEST(feature_names) {
    static const char *const names[35] = {
        "RESERVED",      "TRACING_DATA", "BUILD_ID",        "HOSTNAME",      "OSRELEASE",    "VERSION",
        "ARCH",          "NRCPUS",       "CPUDESC",         "CPUID",         "TOTAL_MEM",    "CMDLINE",
        "EVENT_DESC",    "CPU_TOPOLOGY", "NUMA_TOPOLOGY",   "BRANCH_STACK",  "PMU_MAPPINGS", "GROUP_DESC",
        "AUXTRACE",      "STAT",         "CACHE",           "SAMPLE_TIME",   "MEM_TOPOLOGY", "CLOCKID",
        "DIR_FORMAT",    "BPF_PROG_INFO", "BPF_BTF",        "COMPRESSED",    "CPU_PMU_CAPS", "CLOCK_DATA",
        "HYBRID_TOPOLOGY", "PMU_CAPS",   "CPU_DOMAIN_INFO", "E_MACHINE",     "CLN_SIZE"};
    static const unsigned unknown[5] = {35, 100, 255, 256, 0xffffffffu};
    unsigned i;
    for (i = 0; i < 35; i++) {
        const char *n = perfdata_feature_name(i);
        if (!CHECK(n != NULL && strcmp(n, names[i]) == 0))
            fprintf(stderr, "    id %u: %s, wanted %s\n", i, n ? n : "(null)", names[i]);
    }
    CHECK_EQ_U64(PERFDATA_FEAT_CLN_SIZE, 34);
    CHECK(strcmp(perfdata_feature_name(PERFDATA_FEAT_EVENT_DESC), "EVENT_DESC") == 0);
    for (i = 0; i < 5; i++) {
        const char *n = perfdata_feature_name(unknown[i]);
        CHECK(n != NULL && strcmp(n, "UNKNOWN") == 0);
    }
}

/* ===================================================================== */
/*                        real files in tests/data                       */
/* ===================================================================== */

static perfdata_event fx_events[64];
static unsigned fixture_feats_seen[PERFDATA_FEAT_BITS];
static unsigned long header_txt_compared; /* values checked against perf's header print */
static unsigned long event_desc_compared; /* EVENT_DESC entries checked against the attrs */

typedef struct fixture {
    const char *path;
    perfdata_file *f;
    int big, pipe;
    const char *header_txt; /* perf's header print, or NULL */
    int have_nrcpus;
    perfdata_feat_nrcpus nrcpus;
    perfdata_view str[PERFDATA_FEAT_CPUID + 1];
    int have_str[PERFDATA_FEAT_CPUID + 1];
    uint64_t total_mem;
    int have_total_mem;
    char cmdline[4096];
    int have_cmdline;
    uint64_t first, last;
    int have_time;
} fixture;

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
    b[len] = 0;
    *n = (size_t)len;
    return b;
}

/* The text after "# key : " on its line in perf's header print, copied to
   out (NULL when the line is absent). */
static const char *header_value(const char *txt, const char *key, char *out, size_t cap) {
    char pat[128];
    const char *p, *e;
    size_t n;
    if (!txt) return NULL;
    snprintf(pat, sizeof pat, "\n# %s : ", key);
    p = strstr(txt, pat);
    if (!p) return NULL;
    p += strlen(pat);
    e = strchr(p, '\n');
    n = e ? (size_t)(e - p) : strlen(p);
    if (n >= cap) n = cap - 1;
    memcpy(out, p, n);
    out[n] = 0;
    return out;
}

static void check_header_str(const fixture *x, unsigned feat, const char *key) {
    char v[512];
    if (!header_value(x->header_txt, key, v, sizeof v)) return;
    if (!CHECK(x->have_str[feat])) return;
    header_txt_compared++;
    if (!CHECK(view_str(x->str[feat], v)))
        fprintf(stderr, "    %s: %.*s vs perf's %s\n", key, (int)x->str[feat].n, (const char *)x->str[feat].p, v);
}

static void check_build_ids(fixture *x, perfdata_view sec) {
    perfdata_build_id b;
    size_t s = 0, k = 0, named = 0, workload = 0;
    while (k < 100000 && bid_next(sec, x->big, &s, &b)) {
        k++;
        if (b.filename.n) named++;
        if (view_str(b.filename, "/tmp/perfdata-fixture/workload")) {
            workload++;
            CHECK(view_mem(b.build_id, bid_workload, 20)); /* tests/data/README.md */
        }
        CHECK(b.build_id.n == 20 || b.build_id.n == 16 || b.build_id.n < 20);
    }
    CHECK(k >= 1);
    CHECK(named >= 1);
    /* the walk covers the whole section */
    CHECK_EQ_U64(s, sec.n);
}

static void check_event_desc_vs_file(fixture *x, perfdata_view sec) {
    perfdata_feat_event_desc d;
    perfdata_event_desc_entry e;
    size_t s = 0, i = 0, j;
    if (!CHECK_EQ_U64(perfdata_decode_feat_event_desc(sec, x->big, &d, NULL), PERFDATA_OK)) return;
    /* pipe mode: the HEADER_ATTR records precede the HEADER_FEATURE ones,
       so the events registered so far are all of them */
    CHECK_EQ_U64(d.nr, x->f->nr_events);
    while (perfdata_event_desc_next(&d, &s, &e)) {
        CHECK(e.name.n > 0);
        if (i < x->f->nr_events) {
            const perfdata_event *ev = &x->f->events[i];
            event_desc_compared++;
            CHECK_EQ_U64(e.attr.sample_type, ev->attr.sample_type);
            CHECK_EQ_U64(e.attr.read_format, ev->attr.read_format);
            CHECK_EQ_U64(e.attr.flags, ev->attr.flags);
            CHECK_EQ_U64(e.attr.config, ev->attr.config);
            CHECK_EQ_U64(e.attr.type, ev->attr.type);
            if (CHECK_EQ_U64(e.ids.count, ev->ids.count))
                for (j = 0; j < e.ids.count; j++) CHECK_EQ_U64(perfdata_u64s_at(&e.ids, j), perfdata_u64s_at(&ev->ids, j));
        }
        i++;
    }
    CHECK_EQ_U64(i, d.nr);
    CHECK_EQ_U64(s, d.bytes.n);
}

/* Decodes one feature section of a fixture; every decoder must succeed. */
static void fixture_feature(fixture *x, unsigned feat, perfdata_view sec) {
    perfdata_error err;
    static char ctx[300]; /* the test context keeps pointing at it */
    int st = PERFDATA_OK;
    snprintf(ctx, sizeof ctx, "%s %s", x->path, perfdata_feature_name(feat));
    test_set_context(ctx);
    err.code = PERFDATA_OK;
    switch (feat) {
    case PERFDATA_FEAT_HOSTNAME: case PERFDATA_FEAT_OSRELEASE: case PERFDATA_FEAT_VERSION:
    case PERFDATA_FEAT_ARCH: case PERFDATA_FEAT_CPUDESC: case PERFDATA_FEAT_CPUID:
        st = (int)perfdata_decode_feat_string(sec, x->big, &x->str[feat], &err);
        x->have_str[feat] = st == PERFDATA_OK;
        if (st == PERFDATA_OK) CHECK(x->str[feat].n > 0);
        if (st == PERFDATA_OK && !x->pipe) {
            perfdata_view t;
            CHECK_EQ_U64(perfdata_feature_string(x->f, feat, &t, NULL), PERFDATA_OK);
            CHECK(t.p == x->str[feat].p && t.n == x->str[feat].n);
        }
        break;
    case PERFDATA_FEAT_NRCPUS:
        st = (int)perfdata_decode_feat_nrcpus(sec, x->big, &x->nrcpus, &err);
        x->have_nrcpus = st == PERFDATA_OK;
        if (st == PERFDATA_OK) {
            CHECK(x->nrcpus.nr_cpus_online >= 1);
            CHECK(x->nrcpus.nr_cpus_online <= x->nrcpus.nr_cpus_available);
        }
        break;
    case PERFDATA_FEAT_TOTAL_MEM:
        st = (int)perfdata_decode_feat_u64(sec, x->big, &x->total_mem, &err);
        x->have_total_mem = st == PERFDATA_OK;
        break;
    case PERFDATA_FEAT_CLOCKID: case PERFDATA_FEAT_DIR_FORMAT: {
        uint64_t v;
        st = (int)perfdata_decode_feat_u64(sec, x->big, &v, &err);
        break;
    }
    case PERFDATA_FEAT_CMDLINE: {
        perfdata_strlist l;
        st = (int)perfdata_decode_feat_strlist(sec, x->big, &l, &err);
        if (st == PERFDATA_OK) {
            size_t s = 0, pos = 0;
            perfdata_view v;
            CHECK(l.nr >= 2);
            CHECK(walk_strlist(&l));
            while (perfdata_strlist_next(&l, &s, &v) && pos + v.n + 2 < sizeof x->cmdline) {
                memcpy(x->cmdline + pos, v.p, v.n);
                pos += v.n;
                x->cmdline[pos++] = ' ';
            }
            x->cmdline[pos] = 0;
            x->have_cmdline = 1;
        }
        break;
    }
    case PERFDATA_FEAT_EVENT_DESC:
        st = dec_event_desc(sec, x->big, &err, NULL);
        if (st == PERFDATA_OK) check_event_desc_vs_file(x, sec);
        break;
    case PERFDATA_FEAT_CPU_TOPOLOGY: {
        perfdata_feat_cpu_topology t;
        if (!CHECK(x->have_nrcpus)) break; /* NRCPUS (7) comes first */
        st = (int)perfdata_decode_feat_cpu_topology(sec, x->big, x->nrcpus.nr_cpus_available, &t, &err);
        if (st == PERFDATA_OK) {
            uint32_t cpu;
            CHECK(t.core_siblings.nr >= 1);
            CHECK(t.thread_siblings.nr >= 1);
            CHECK(walk_strlist(&t.core_siblings));
            CHECK(walk_strlist(&t.thread_siblings));
            CHECK_EQ_U64(t.nr_cpus, x->nrcpus.nr_cpus_available); /* perf 6.1 writes the ids */
            if (x->header_txt && strstr(x->header_txt, "# sibling dies"))
                CHECK(t.has_dies && walk_strlist(&t.die_siblings));
            for (cpu = 0; cpu < t.nr_cpus; cpu++) {
                perfdata_cpu_topology_entry e = perfdata_cpu_topology_at(&t, cpu);
                int32_t core = e.core_id, socket = e.socket_id, die = e.die_id;
                char line[128];
                CHECK(core >= 0 && socket >= 0);
                if (t.has_dies) {
                    snprintf(line, sizeof line, "# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", (unsigned)cpu,
                             (int)core, (int)die, (int)socket);
                    if (x->header_txt && strstr(x->header_txt, "# CPU 0: Core ID")) {
                        header_txt_compared++;
                        CHECK(strstr(x->header_txt, line) != NULL);
                    }
                }
            }
        }
        break;
    }
    case PERFDATA_FEAT_NUMA_TOPOLOGY: st = dec_numa(sec, x->big, &err, NULL); break;
    case PERFDATA_FEAT_PMU_MAPPINGS: st = dec_pmu_mappings(sec, x->big, &err, NULL); break;
    case PERFDATA_FEAT_GROUP_DESC: st = dec_group_desc(sec, x->big, &err, NULL); break;
    case PERFDATA_FEAT_AUXTRACE: st = dec_auxtrace(sec, x->big, &err, NULL); break;
    case PERFDATA_FEAT_CACHE: {
        perfdata_feat_cache c;
        st = (int)perfdata_decode_feat_cache(sec, x->big, &c, &err);
        if (st == PERFDATA_OK) {
            CHECK_EQ_U64(c.version, 1);
            /* as many levels as perf prints (a machine without cache
               information in sysfs records none) */
            if (x->header_txt) {
                const char *p = strstr(x->header_txt, "# CPU cache info:\n");
                uint64_t lines = 0;
                if (p) p = strchr(p, '\n') + 1;
                while (p && !strncmp(p, "#  L", 4)) {
                    lines++;
                    if ((p = strchr(p, '\n')) != NULL) p++;
                }
                CHECK_EQ_U64(c.levels.nr, lines);
                header_txt_compared++;
            }
            CHECK(walk_list_cache(&c.levels));
        }
        break;
    }
    case PERFDATA_FEAT_SAMPLE_TIME:
        st = (int)perfdata_decode_feat_sample_time(sec, x->big, &x->first, &x->last, &err);
        x->have_time = st == PERFDATA_OK;
        if (st == PERFDATA_OK) CHECK(x->first <= x->last);
        break;
    case PERFDATA_FEAT_MEM_TOPOLOGY: {
        perfdata_feat_mem_topology m;
        st = (int)perfdata_decode_feat_mem_topology(sec, x->big, &m, &err);
        if (st == PERFDATA_OK) {
            CHECK_EQ_U64(m.version, 1);
            CHECK(m.nodes.nr >= 1);
            CHECK_EQ_U64(dec_mem_topology(sec, x->big, NULL, NULL), PERFDATA_OK);
        }
        break;
    }
    case PERFDATA_FEAT_BPF_PROG_INFO: st = dec_bpf_prog_info(sec, x->big, &err, NULL); break;
    case PERFDATA_FEAT_BPF_BTF: st = dec_bpf_btf(sec, x->big, &err, NULL); break;
    case PERFDATA_FEAT_COMPRESSED: {
        perfdata_feat_compressed c;
        st = (int)perfdata_decode_feat_compressed(sec, x->big, &c, &err);
        if (st == PERFDATA_OK) {
            CHECK_EQ_U64(c.type, 1); /* zstd */
            CHECK(c.mmap_len > 0);
        }
        break;
    }
    case PERFDATA_FEAT_CPU_PMU_CAPS: st = dec_cpu_pmu_caps(sec, x->big, &err, NULL); break;
    case PERFDATA_FEAT_CLOCK_DATA: {
        perfdata_feat_clock_data c;
        st = (int)perfdata_decode_feat_clock_data(sec, x->big, &c, &err);
        if (st == PERFDATA_OK) CHECK_EQ_U64(c.version, 1);
        break;
    }
    case PERFDATA_FEAT_HYBRID_TOPOLOGY: st = dec_hybrid(sec, x->big, &err, NULL); break;
    case PERFDATA_FEAT_PMU_CAPS: st = dec_pmu_caps(sec, x->big, &err, NULL); break;
    case PERFDATA_FEAT_E_MACHINE: st = dec_e_machine(sec, x->big, &err, NULL); break;
    case PERFDATA_FEAT_BUILD_ID: check_build_ids(x, sec); break;
    default: return; /* TRACING_DATA, BRANCH_STACK, STAT, ...: no decoder */
    }
    if (!CHECK_EQ_U64(st, PERFDATA_OK))
        fprintf(stderr, "    %s: %s\n", st_name(st), err.message ? err.message : "");
    fixture_feats_seen[feat]++;
}

/* The decoded values against perf's header print. */
static void fixture_vs_header(fixture *x) {
    char v[4096];
    test_set_context(x->path);
    if (!x->header_txt) return;
    check_header_str(x, PERFDATA_FEAT_HOSTNAME, "hostname");
    check_header_str(x, PERFDATA_FEAT_OSRELEASE, "os release");
    check_header_str(x, PERFDATA_FEAT_VERSION, "perf version");
    check_header_str(x, PERFDATA_FEAT_ARCH, "arch");
    check_header_str(x, PERFDATA_FEAT_CPUDESC, "cpudesc");
    check_header_str(x, PERFDATA_FEAT_CPUID, "cpuid");
    if (header_value(x->header_txt, "nrcpus online", v, sizeof v) && CHECK(x->have_nrcpus))
        { header_txt_compared++; CHECK_EQ_U64(strtoull(v, NULL, 10), x->nrcpus.nr_cpus_online); }
    if (header_value(x->header_txt, "nrcpus avail", v, sizeof v) && CHECK(x->have_nrcpus))
        { header_txt_compared++; CHECK_EQ_U64(strtoull(v, NULL, 10), x->nrcpus.nr_cpus_available); }
    if (header_value(x->header_txt, "total memory", v, sizeof v) && CHECK(x->have_total_mem))
        CHECK_EQ_U64(strtoull(v, NULL, 10), x->total_mem);
    if (header_value(x->header_txt, "cmdline", v, sizeof v) && CHECK(x->have_cmdline) && ++header_txt_compared)
        if (!CHECK(strcmp(v, x->cmdline) == 0)) fprintf(stderr, "    cmdline '%s' vs perf's '%s'\n", x->cmdline, v);
    if (header_value(x->header_txt, "time of first sample", v, sizeof v) && x->have_time) {
        char t[64];
        header_txt_compared += 2;
        snprintf(t, sizeof t, "%llu.%06llu", (unsigned long long)(x->first / 1000000000u),
                 (unsigned long long)(x->first % 1000000000u / 1000u));
        if (!CHECK(strcmp(v, t) == 0)) fprintf(stderr, "    first sample %s vs perf's %s\n", t, v);
        header_value(x->header_txt, "time of last sample", v, sizeof v);
        snprintf(t, sizeof t, "%llu.%06llu", (unsigned long long)(x->last / 1000000000u),
                 (unsigned long long)(x->last % 1000000000u / 1000u));
        if (!CHECK(strcmp(v, t) == 0)) fprintf(stderr, "    last sample %s vs perf's %s\n", t, v);
    }
}

static void run_fixture(const char *path) {
    perfdata_file f;
    perfdata_error err;
    fixture *x;
    size_t n, hn;
    unsigned char *buf = read_whole(path, &n);
    char hpath[1024];
    char *htxt;
    uint64_t h;
    unsigned feat, nfeat = 0;
    test_set_context(path);
    if (!CHECK(buf != NULL)) return;
    h = fnv1a(buf, n);
    snprintf(hpath, sizeof hpath, "%s.header.txt", path);
    htxt = (char *)read_whole(hpath, &hn);
    x = (fixture *)calloc(1, sizeof *x);
    if (!x) abort();
    x->path = path;
    x->f = &f;
    x->header_txt = htxt;
    if (!CHECK_EQ_U64(perfdata_open(&f, buf, n, fx_events, 64, &err), PERFDATA_OK)) {
        fprintf(stderr, "    %s\n", err.message);
        free(x); free(buf); free(htxt);
        return;
    }
    x->big = (f.flags & PERFDATA_FILE_BIG_ENDIAN) != 0;
    x->pipe = (f.flags & PERFDATA_FILE_PIPE) != 0;
    if (!x->pipe) {
        for (feat = 0; feat < PERFDATA_FEAT_BITS; feat++) {
            perfdata_view sec;
            if (!perfdata_has_feature(&f, feat)) continue;
            test_set_context(path);
            if (!CHECK_EQ_U64(perfdata_feature_section(&f, feat, &sec, &err), PERFDATA_OK)) continue;
            fixture_feature(x, feat, sec);
            nfeat++;
        }
    } else {
        perfdata_cursor cur;
        perfdata_record rec;
        perfdata_status st;
        perfdata_cursor_init(&f, &cur);
        while ((st = perfdata_next_record(&f, &cur, &rec, &err)) == PERFDATA_OK) {
            perfdata_header_feature hf;
            if (rec.type != PERFDATA_RECORD_HEADER_FEATURE) continue;
            test_set_context(path);
            if (!CHECK_EQ_U64(perfdata_decode_header_feature(&f, &rec, &hf, &err), PERFDATA_OK)) continue;
            CHECK(hf.feat_id < PERFDATA_FEAT_BITS);
            if (hf.feat_id < PERFDATA_FEAT_BITS) fixture_feature(x, (unsigned)hf.feat_id, hf.data);
            nfeat++;
        }
        test_set_context(path);
        CHECK_EQ_U64(st, PERFDATA_END);
    }
    test_set_context(path);
    CHECK(nfeat >= 10);
    fixture_vs_header(x);
    test_set_context(path);
    CHECK_EQ_U64(fnv1a(buf, n), h); /* the file bytes are never written */
    free(x);
    free(buf);
    free(htxt);
}

TEST(fixtures) {
    glob_t g;
    size_t i, files = 0;
    int pipe_seen = 0;
    unsigned feat;
    memset(&g, 0, sizeof g);
    if (!CHECK(glob("tests/data/*.data", GLOB_MARK, NULL, &g) == 0)) return;
    for (i = 0; i < g.gl_pathc; i++) {
        const char *p = g.gl_pathv[i];
        size_t n = strlen(p);
        if (n && p[n - 1] == '/') continue; /* a --threads directory */
        run_fixture(p);
        if (strstr(p, "/pipe.data")) pipe_seen = 1;
        files++;
    }
    globfree(&g);
    test_set_context(NULL);
    CHECK(files >= 10);
    CHECK(pipe_seen);
    printf("fixtures: %lu files; features decoded:", (unsigned long)files);
    for (feat = 0; feat < PERFDATA_FEAT_BITS; feat++)
        if (fixture_feats_seen[feat]) printf(" %s(%u)", perfdata_feature_name(feat), fixture_feats_seen[feat]);
    printf("\nfixtures: %lu values checked against perf's header print, %lu EVENT_DESC entries against the attrs\n",
           header_txt_compared, event_desc_compared);
    CHECK(header_txt_compared >= 100);
    CHECK(event_desc_compared >= 19);
}

/* EVENT_DESC names matched to events: entries in the events' order need no
   index; others wait for the id index, without a scan of every id per
   entry; a name already given is kept. */
TEST(event_desc_names) {
    int big;
    for (big = 0; big <= 1; big++) {
        static const char *const names[3] = {"a-event", "b-event", "c-event"};
        static const uint64_t first_id[3] = {10, 20, 30};
        unsigned char idbytes[3][16];
        perfdata_event events[3];
        perfdata_id_entry idx[8];
        perfdata_file f;
        tdesc d[3];
        size_t i, k, order;
        for (order = 0; order < 2; order++) {
            wr w;
            copy c;
            char buf[64];
            set_ctx(big, order ? "EVENT_DESC out of order" : "EVENT_DESC in order");
            memset(&f, 0, sizeof f);
            memset(events, 0, sizeof events);
            memset(d, 0, sizeof d);
            f.events = events;
            f.priv.cap_events = f.nr_events = 3;
            f.priv.id_pos = f.priv.is_pos = -1;
            if (big) f.flags |= PERFDATA_FILE_BIG_ENDIAN;
            for (i = 0; i < 3; i++) {
                uint64_t ids[2];
                ids[0] = first_id[i];
                ids[1] = first_id[i] + 1;
                for (k = 0; k < 16; k++)
                    idbytes[i][k] = (unsigned char)(ids[k / 8] >> (big ? 8 * (7 - k % 8) : 8 * (k % 8)));
                events[i].ids.bytes = mkview(idbytes[i], 16);
                events[i].ids.count = 2;
                events[i].ids.big_endian = big;
                events[i].attr.type = 1;
                events[i].attr.config = i;
            }
            for (i = 0; i < 3; i++) {
                size_t ev = order ? (i + 2) % 3 : i; /* out of order: c, a, b */
                d[i].attr = desc_attr(128, 0);
                d[i].name = names[ev];
                d[i].nids = 1;
                d[i].ids[0] = order && ev == 0 ? first_id[ev] + 1 : first_id[ev]; /* any id of the event */
            }
            wr_init(&w, big);
            put_event_desc(&w, 128, d, 3);
            c = make_copy(&w);
            perfdata__names_from_event_desc(&f, mkview(c.b, c.n), 1);
            if (order) {
                for (i = 0; i < 3; i++) CHECK_EQ_U64(events[i].name.n, 0); /* waiting for the index */
                CHECK(f.priv.names_pending.n == c.n);
                events[1].name.p = (const unsigned char *)"kept";
                events[1].name.n = 4;
                CHECK_EQ_U64(perfdata_set_id_index(&f, idx, 8, NULL), PERFDATA_OK);
                CHECK_EQ_U64(f.priv.names_pending.n, 0);
                CHECK(!strcmp(perfdata_event_name(&f, 1, buf, sizeof buf), "kept"));
            }
            for (i = 0; i < 3; i++) {
                if (order && i == 1) continue;
                CHECK(!strcmp(perfdata_event_name(&f, i, buf, sizeof buf), names[i]));
            }
            free(c.b);
            wr_free(&w);
        }
    }
    set_ctx(0, "");
}

int main(int argc, char **argv) {
    test_filter(argc, argv);
    RUN_TEST(feat_string);
    RUN_TEST(feat_strlist_cmdline);
    RUN_TEST(feat_fixed);
    RUN_TEST(feat_event_desc);
    RUN_TEST(event_desc_names);
    RUN_TEST(feat_cpu_topology);
    RUN_TEST(feat_numa_topology);
    RUN_TEST(feat_pmu_mappings);
    RUN_TEST(feat_group_desc);
    RUN_TEST(feat_auxtrace);
    RUN_TEST(feat_cache);
    RUN_TEST(feat_mem_topology);
    RUN_TEST(feat_bpf_prog_info);
    RUN_TEST(feat_bpf_btf);
    RUN_TEST(feat_cpu_pmu_caps);
    RUN_TEST(feat_hybrid_topology);
    RUN_TEST(feat_pmu_caps);
    RUN_TEST(feat_cpu_domain_info);
    RUN_TEST(feat_cpu_domain_info_edges);
    RUN_TEST(feat_cln_size);
    RUN_TEST(build_id_iteration);
    RUN_TEST(huge_counts);
    RUN_TEST(feature_names);
    RUN_TEST(fixtures);
    return test_report();
}
