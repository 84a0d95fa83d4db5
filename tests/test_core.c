/* test_core.c - unit tests for perfdata.h.

   Every perf.data image here is built in memory by a small test-only writer
   (below) in either byte order, and every test runs for both: the decoded
   values must be the expected ones whatever the file's byte order.

   Build from the repository root:
     gcc -std=c99 -Wall -Wextra -Wpedantic -Werror -g \
         -fsanitize=address,undefined -fno-sanitize-recover=all \
         -I. tests/test_core.c -o /tmp/tc && /tmp/tc
   (also as C++: g++ -x c++ -std=c++11 ..., and with clang). */
#define PERFDATA_IMPLEMENTATION
#include "../perfdata.h"

#include "test.h"

#include <stdlib.h>
#include <string.h>

/* ===================================================================== */
/*                         test-only perf.data writer                    */
/* ===================================================================== */

#include "writer.h"

/* Zero bytes until (w->n - from) is a multiple of a. */
static void align_from(wr *w, size_t from, size_t a) {
    while ((w->n - from) % a) put8(w, 0);
}

/* s, its NUL, zero padding up to `field` bytes (a char[field]). */
static void put_str_field(wr *w, const char *s, size_t field) {
    size_t n = strlen(s);
    if (n >= field) abort();
    put_bytes(w, s, n);
    put_fill(w, 0, field - n);
}

/* s and its NUL, zero padded so the record (started at `from`) stays
   8-aligned, as the kernel pads filenames and comms. */
static void put_str_padded(wr *w, const char *s, size_t from) {
    put_bytes(w, s, strlen(s) + 1);
    align_from(w, from, 8);
}

static void store16(unsigned char *p, uint16_t v, int big) {
    p[big ? 0 : 1] = (unsigned char)(v >> 8);
    p[big ? 1 : 0] = (unsigned char)(v & 0xffu);
}

static void patch64(wr *w, size_t at, uint64_t v) {
    size_t n = w->n;
    w->n = at;
    put64(w, v);
    w->n = n;
}

/* A u64 bit-field as a C compiler lays it out: fields in declaration order
   from bit 0 upward on a little-endian target, from bit 63 downward on a
   big-endian one (each field keeps its own bit significance), then stored
   as a u64 in the file's byte order. */
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

/* perf_event_attr's flags word, given in the little-endian numbering
   (PERFDATA_ATTR_FLAG_*): 15 one-bit fields, precise_ip:2, 23 one-bit
   fields, 24 reserved bits. */
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

/* One perf_branch_entry, with its flags as separate field values. */
typedef struct tbranch {
    uint64_t from, to;
    unsigned mispred, predicted, in_tx, abort, cycles, type, spec, new_type, privilege;
} tbranch;

static const unsigned branch_flag_widths[10] = {1, 1, 1, 1, 16, 4, 2, 4, 3, 31};

static void branch_flag_values(const tbranch *b, uint64_t *v) {
    v[0] = b->mispred; v[1] = b->predicted; v[2] = b->in_tx; v[3] = b->abort; v[4] = b->cycles;
    v[5] = b->type; v[6] = b->spec; v[7] = b->new_type; v[8] = b->privilege; v[9] = 0;
}

static void put_branch_flags(wr *w, const tbranch *b) {
    uint64_t v[10];
    branch_flag_values(b, v);
    put_bitfield64(w, v, branch_flag_widths, 10);
}

/* The flags word in the little-endian layout (what perfdata normalises to). */
static uint64_t branch_flags_le(const tbranch *b) {
    uint64_t v[10], out = 0;
    unsigned pos = 0, i;
    branch_flag_values(b, v);
    for (i = 0; i < 10; i++) {
        out |= v[i] << pos;
        pos += branch_flag_widths[i];
    }
    return out;
}

/* perf_event_attr as stored: every field at its ABI offset in the file's
   byte order, the flags as a compiler lays them out; attr.size bytes of it
   (0 = VER0, 64 bytes). Bytes past the fields perfdata knows (>= 144) are
   0xEE: a reader must ignore them. */
static void put_attr(wr *w, const perfdata_attr *a) {
    wr t;
    size_t size = a->size ? a->size : PERFDATA_ATTR_SIZE_VER0;
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
    put_bytes(w, t.buf, size);
    wr_free(&t);
}

/* ------------------------------------------------------------ records */

static size_t rec_begin(wr *w, uint32_t type, uint16_t misc) {
    size_t at = w->n;
    put32(w, type);
    put16(w, misc);
    put16(w, 0); /* size, patched by rec_end */
    return at;
}

static void rec_end(wr *w, size_t at) {
    size_t size = w->n - at;
    if (size > 0xffff) abort();
    store16(w->buf + at + 6, (uint16_t)size, w->big_endian);
}

/* sample_id_all trailer values. */
typedef struct tsid {
    uint32_t pid, tid;
    uint64_t time, id, stream_id;
    uint32_t cpu, cpu_res;
    uint64_t identifier;
} tsid;

static void put_trailer(wr *w, uint64_t sample_type, const tsid *s) {
    if (sample_type & PERFDATA_SAMPLE_TID) { put32(w, s->pid); put32(w, s->tid); }
    if (sample_type & PERFDATA_SAMPLE_TIME) put64(w, s->time);
    if (sample_type & PERFDATA_SAMPLE_ID) put64(w, s->id);
    if (sample_type & PERFDATA_SAMPLE_STREAM_ID) put64(w, s->stream_id);
    if (sample_type & PERFDATA_SAMPLE_CPU) { put32(w, s->cpu); put32(w, s->cpu_res); }
    if (sample_type & PERFDATA_SAMPLE_IDENTIFIER) put64(w, s->identifier);
}

/* A COMM record (with a trailer when the attr has sample_id_all). */
static void put_comm(wr *w, const perfdata_attr *a, uint32_t pid, uint32_t tid, const char *comm, const tsid *s) {
    size_t at = rec_begin(w, PERFDATA_RECORD_COMM, PERFDATA_MISC_USER);
    put32(w, pid);
    put32(w, tid);
    put_str_padded(w, comm, at);
    if (a->flags & PERFDATA_ATTR_FLAG_SAMPLE_ID_ALL) put_trailer(w, a->sample_type, s);
    rec_end(w, at);
}

/* ------------------------------------------------------------ samples */

typedef struct tread {
    uint64_t nr, time_enabled, time_running;
    perfdata_read_value v[4];
} tread;

/* Every field a SAMPLE can carry. */
typedef struct tsample {
    uint64_t identifier, ip;
    uint32_t pid, tid;
    uint64_t time, addr, id, stream_id;
    uint32_t cpu, cpu_res;
    uint64_t period;
    tread read;
    size_t nr_ips;
    uint64_t ips[8];
    uint32_t raw_size;
    unsigned char raw[32];
    size_t nr_br;
    uint64_t hw_idx;
    tbranch br[4];
    uint64_t br_counters[4];
    uint64_t regs_user_abi, regs_user[8];
    uint64_t stack_size, stack_dyn;
    unsigned char stack[64];
    uint64_t weight;                         /* WEIGHT */
    uint32_t w_var1;                         /* WEIGHT_STRUCT */
    uint16_t w_ins_lat, w_p_stage;
    uint64_t data_src, transaction;
    uint64_t regs_intr_abi, regs_intr[8];
    uint64_t phys_addr, cgroup, data_page_size, code_page_size;
    uint64_t aux_size;
    unsigned char aux[32];
} tsample;

static unsigned popcount64(uint64_t v) {
    unsigned n = 0;
    while (v) { v &= v - 1; n++; }
    return n;
}

static void put_read(wr *w, uint64_t fmt, const tread *r) {
    uint64_t i;
    if (fmt & PERFDATA_FORMAT_GROUP) {
        put64(w, r->nr);
        if (fmt & PERFDATA_FORMAT_TOTAL_TIME_ENABLED) put64(w, r->time_enabled);
        if (fmt & PERFDATA_FORMAT_TOTAL_TIME_RUNNING) put64(w, r->time_running);
        for (i = 0; i < r->nr; i++) {
            put64(w, r->v[i].value);
            if (fmt & PERFDATA_FORMAT_ID) put64(w, r->v[i].id);
            if (fmt & PERFDATA_FORMAT_LOST) put64(w, r->v[i].lost);
        }
        return;
    }
    put64(w, r->v[0].value);
    if (fmt & PERFDATA_FORMAT_TOTAL_TIME_ENABLED) put64(w, r->time_enabled);
    if (fmt & PERFDATA_FORMAT_TOTAL_TIME_RUNNING) put64(w, r->time_running);
    if (fmt & PERFDATA_FORMAT_ID) put64(w, r->v[0].id);
    if (fmt & PERFDATA_FORMAT_LOST) put64(w, r->v[0].lost);
}

static void put_regs(wr *w, uint64_t abi, uint64_t mask, const uint64_t *values) {
    unsigned i;
    put64(w, abi);
    if (abi)
        for (i = 0; i < popcount64(mask); i++) put64(w, values[i]);
}

/* A SAMPLE record with the fields of a->sample_type, in the kernel's
   output order (perf_output_sample). */
static void put_sample(wr *w, const perfdata_attr *a, const tsample *s) {
    uint64_t t = a->sample_type;
    size_t at = rec_begin(w, PERFDATA_RECORD_SAMPLE, PERFDATA_MISC_USER), i;
    if (t & PERFDATA_SAMPLE_IDENTIFIER) put64(w, s->identifier);
    if (t & PERFDATA_SAMPLE_IP) put64(w, s->ip);
    if (t & PERFDATA_SAMPLE_TID) { put32(w, s->pid); put32(w, s->tid); }
    if (t & PERFDATA_SAMPLE_TIME) put64(w, s->time);
    if (t & PERFDATA_SAMPLE_ADDR) put64(w, s->addr);
    if (t & PERFDATA_SAMPLE_ID) put64(w, s->id);
    if (t & PERFDATA_SAMPLE_STREAM_ID) put64(w, s->stream_id);
    if (t & PERFDATA_SAMPLE_CPU) { put32(w, s->cpu); put32(w, s->cpu_res); }
    if (t & PERFDATA_SAMPLE_PERIOD) put64(w, s->period);
    if (t & PERFDATA_SAMPLE_READ) put_read(w, a->read_format, &s->read);
    if (t & PERFDATA_SAMPLE_CALLCHAIN) {
        put64(w, s->nr_ips);
        for (i = 0; i < s->nr_ips; i++) put64(w, s->ips[i]);
    }
    if (t & PERFDATA_SAMPLE_RAW) {
        put32(w, s->raw_size);
        put_bytes(w, s->raw, s->raw_size);
    }
    if (t & PERFDATA_SAMPLE_BRANCH_STACK) {
        put64(w, s->nr_br);
        if (a->branch_sample_type & PERFDATA_BRANCH_HW_INDEX) put64(w, s->hw_idx);
        for (i = 0; i < s->nr_br; i++) {
            put64(w, s->br[i].from);
            put64(w, s->br[i].to);
            put_branch_flags(w, &s->br[i]);
        }
        if (a->branch_sample_type & PERFDATA_BRANCH_COUNTERS)
            for (i = 0; i < s->nr_br; i++) put64(w, s->br_counters[i]);
    }
    if (t & PERFDATA_SAMPLE_REGS_USER) put_regs(w, s->regs_user_abi, a->sample_regs_user, s->regs_user);
    if (t & PERFDATA_SAMPLE_STACK_USER) {
        put64(w, s->stack_size);
        put_bytes(w, s->stack, (size_t)s->stack_size);
        if (s->stack_size) put64(w, s->stack_dyn);
    }
    if (t & PERFDATA_SAMPLE_WEIGHT_STRUCT)
        /* union perf_sample_weight: var1_dw, var2_w, var3_w from the low
           bits of the u64 up (the struct is declared reversed on BE) */
        put64(w, (uint64_t)s->w_var1 | ((uint64_t)s->w_ins_lat << 32) | ((uint64_t)s->w_p_stage << 48));
    else if (t & PERFDATA_SAMPLE_WEIGHT)
        put64(w, s->weight);
    if (t & PERFDATA_SAMPLE_DATA_SRC) put64(w, s->data_src);
    if (t & PERFDATA_SAMPLE_TRANSACTION) put64(w, s->transaction);
    if (t & PERFDATA_SAMPLE_REGS_INTR) put_regs(w, s->regs_intr_abi, a->sample_regs_intr, s->regs_intr);
    if (t & PERFDATA_SAMPLE_PHYS_ADDR) put64(w, s->phys_addr);
    if (t & PERFDATA_SAMPLE_CGROUP) put64(w, s->cgroup);
    if (t & PERFDATA_SAMPLE_DATA_PAGE_SIZE) put64(w, s->data_page_size);
    if (t & PERFDATA_SAMPLE_CODE_PAGE_SIZE) put64(w, s->code_page_size);
    if (t & PERFDATA_SAMPLE_AUX) {
        put64(w, s->aux_size);
        put_bytes(w, s->aux, (size_t)s->aux_size);
    }
    rec_end(w, at);
}

/* ------------------------------------------------------------- images */

/* One event: its attr and the ids the kernel gave it. */
typedef struct tevent {
    perfdata_attr attr;
    size_t nr_ids;
    uint64_t ids[4];
} tevent;

/* An exact-size heap copy, so that AddressSanitizer catches any read past
   the end of the image. */
typedef struct blob {
    unsigned char *p;
    size_t n;
} blob;

static blob blob_copy(const void *p, size_t n) {
    blob b;
    b.p = (unsigned char *)malloc(n ? n : 1);
    if (!b.p) abort();
    if (n) memcpy(b.p, p, n);
    b.n = n;
    return b;
}

#define PERFDATA_MAGIC 0x32454c4946524550ull /* "PERFILE2" read little-endian */

static void put_magic(wr *w) {
    if (w->big_endian) put64(w, PERFDATA_MAGIC); /* stored big-endian: "2ELIFREP" */
    else put_bytes(w, "PERFILE2", 8);
}

typedef struct file_opts {
    unsigned header_size; /* 104, or 72 for the pre-feature header */
    int data_size_zero;   /* write data.size = 0 (records still present) */
    int features;         /* bitmap, index and sections (104 only) */
    int bitmap_u32;       /* bitmap as a 32-bit writer stores unsigned long[8] */
} file_opts;

static file_opts default_opts(void) {
    file_opts o;
    o.header_size = 104;
    o.data_size_zero = 0;
    o.features = 1;
    o.bitmap_u32 = 0;
    return o;
}

/* Feature sections the file-mode images carry. */
#define TEST_HOSTNAME "testhost"
#define TEST_OSRELEASE "6.1.0-perfdata-test"
#define TEST_FEAT_UNKNOWN 100 /* bits no reader knows: they still take index slots */
#define TEST_FEAT_UNKNOWN2 200
static const unsigned char unknown_feature_bytes[8] = {1, 2, 3, 4, 5, 6, 7, 8};
static const unsigned char unknown2_feature_bytes[4] = {0xde, 0xad, 0xbe, 0xef};

/* A perf string: u32 len = round_up(strlen + 1, 64), then NUL-padded text. */
static void put_perf_string(wr *w, const char *s) {
    uint32_t len = (uint32_t)((strlen(s) + 1 + 63) / 64 * 64);
    put32(w, len);
    put_str_field(w, s, len);
}

/* File mode: header, id arrays, attr table, data (the records in `data`,
   written in the same byte order), feature index, feature sections. */
static blob build_file(int big, const tevent *ev, size_t nev, const wr *data, const file_opts *o) {
    wr w;
    blob b;
    size_t i, ids_off[8], attrs_off, attrs_size, data_off, index_off, sec_off[5], sec_size[5];
    uint64_t entry_size = (ev[0].attr.size ? ev[0].attr.size : 64) + 16;
    wr_init(&w, big);
    put_fill(&w, 0, o->header_size); /* header, written last */
    for (i = 0; i < nev; i++) {
        size_t j;
        ids_off[i] = w.n;
        for (j = 0; j < ev[i].nr_ids; j++) put64(&w, ev[i].ids[j]);
    }
    attrs_off = w.n;
    for (i = 0; i < nev; i++) {
        put_attr(&w, &ev[i].attr);
        put64(&w, ids_off[i]);
        put64(&w, ev[i].nr_ids * 8);
    }
    attrs_size = w.n - attrs_off;
    data_off = w.n;
    put_bytes(&w, data->buf, data->n);
    if (o->features && o->header_size == 104) {
        index_off = w.n;
        put_fill(&w, 0, 5 * 16);
        sec_off[0] = w.n; /* BUILD_ID: present, empty */
        sec_size[0] = 0;
        sec_off[1] = w.n;
        put_perf_string(&w, TEST_HOSTNAME);
        sec_size[1] = w.n - sec_off[1];
        sec_off[2] = w.n;
        put_perf_string(&w, TEST_OSRELEASE);
        sec_size[2] = w.n - sec_off[2];
        sec_off[3] = w.n;
        put_bytes(&w, unknown_feature_bytes, 8);
        sec_size[3] = 8;
        sec_off[4] = w.n;
        put_bytes(&w, unknown2_feature_bytes, 4);
        sec_size[4] = 4;
        for (i = 0; i < 5; i++) {
            patch64(&w, index_off + 16 * i, sec_off[i]);
            patch64(&w, index_off + 16 * i + 8, sec_size[i]);
        }
    }
    /* the header */
    {
        size_t end = w.n;
        w.n = 0;
        put_magic(&w);
        put64(&w, o->header_size);
        put64(&w, entry_size);
        put64(&w, attrs_off);
        put64(&w, attrs_size);
        put64(&w, data_off);
        put64(&w, o->data_size_zero ? 0 : data->n);
        put64(&w, 0); /* event_types */
        put64(&w, 0);
        if (o->header_size == 104) {
            uint64_t bits[4] = {0, 0, 0, 0};
            if (o->features) {
                bits[0] = (1ull << PERFDATA_FEAT_BUILD_ID) | (1ull << PERFDATA_FEAT_HOSTNAME) |
                          (1ull << PERFDATA_FEAT_OSRELEASE);
                bits[TEST_FEAT_UNKNOWN / 64] |= 1ull << (TEST_FEAT_UNKNOWN % 64);
                bits[TEST_FEAT_UNKNOWN2 / 64] |= 1ull << (TEST_FEAT_UNKNOWN2 % 64);
            }
            for (i = 0; i < 4; i++) {
                if (o->bitmap_u32) {
                    put32(&w, (uint32_t)bits[i]);
                    put32(&w, (uint32_t)(bits[i] >> 32));
                } else {
                    put64(&w, bits[i]);
                }
            }
        }
        w.n = end;
    }
    b = blob_copy(w.buf, w.n);
    wr_free(&w);
    return b;
}

static void put_header_attr(wr *w, const tevent *e) {
    size_t at = rec_begin(w, PERFDATA_RECORD_HEADER_ATTR, 0), j;
    put_attr(w, &e->attr);
    for (j = 0; j < e->nr_ids; j++) put64(w, e->ids[j]);
    rec_end(w, at);
}

/* Pipe mode: {magic, size = 16}, a HEADER_ATTR record per event, then the
   records in `data`. */
static blob build_pipe(int big, const tevent *ev, size_t nev, const wr *data) {
    wr w;
    blob b;
    size_t i;
    wr_init(&w, big);
    put_magic(&w);
    put64(&w, 16);
    for (i = 0; i < nev; i++) put_header_attr(&w, &ev[i]);
    put_bytes(&w, data->buf, data->n);
    b = blob_copy(w.buf, w.n);
    wr_free(&w);
    return b;
}

/* ===================================================================== */
/*                               fixtures                                */
/* ===================================================================== */

/* An opened image, its events and a cursor over its records. */
typedef struct fx {
    blob img;
    perfdata_file f;
    perfdata_event events[8];
    perfdata_cursor cur;
    perfdata_error err;
    perfdata_status open_status;
} fx;

static int fx_open_blob(fx *x, blob img) {
    memset(x, 0, sizeof *x);
    x->img = img;
    x->open_status = perfdata_open(&x->f, x->img.p, x->img.n, x->events, 8, &x->err);
    if (x->open_status == PERFDATA_OK) perfdata_cursor_init(&x->f, &x->cur);
    return x->open_status == PERFDATA_OK;
}

static int fx_open_file(fx *x, int big, const tevent *ev, size_t nev, const wr *data) {
    file_opts o = default_opts();
    return fx_open_blob(x, build_file(big, ev, nev, data, &o));
}

static int fx_open_pipe(fx *x, int big, const tevent *ev, size_t nev, const wr *data) {
    return fx_open_blob(x, build_pipe(big, ev, nev, data));
}

static void fx_free(fx *x) {
    free(x->img.p);
    x->img.p = NULL;
}

static int fx_next(fx *x, perfdata_record *rec) {
    return perfdata_next_record(&x->f, &x->cur, rec, &x->err) == PERFDATA_OK;
}

/* The next record must exist and have type t. */
#define NEXT(x, rec, t) (CHECK(fx_next((x), (rec))) && CHECK_EQ_U64((rec)->type, (t)))

/* The next non-HEADER_ATTR record (pipe streams start with attrs). */
static int fx_next_skip_attrs(fx *x, perfdata_record *rec) {
    while (fx_next(x, rec))
        if (rec->type != PERFDATA_RECORD_HEADER_ATTR) return 1;
    return 0;
}

static int view_is(perfdata_view v, const void *p, size_t n) {
    return v.n == n && (n == 0 || memcmp(v.p, p, n) == 0);
}

static int view_str(perfdata_view v, const char *s) {
    return view_is(v, s, strlen(s));
}

static const char *order_name(int big) {
    return big ? "big-endian" : "little-endian";
}

/* A test body run once per byte order: ORDER_TEST(x) { ... big ... } */
#define ORDER_TEST(name)                                                      \
    static void name##_in(int big);                                           \
    TEST(name) {                                                              \
        int big_;                                                             \
        for (big_ = 0; big_ <= 1; big_++) {                                   \
            test_set_context(order_name(big_));                               \
            name##_in(big_);                                                  \
        }                                                                     \
        test_set_context("");                                                 \
    }                                                                         \
    static void name##_in(int big)

/* An attr with the given sample_type and flags, size VER8. */
static perfdata_attr base_attr(uint64_t sample_type, uint64_t flags) {
    perfdata_attr a;
    memset(&a, 0, sizeof a);
    a.type = 1; /* PERF_TYPE_SOFTWARE */
    a.size = PERFDATA_ATTR_SIZE_VER8;
    a.config = 0; /* cpu-clock */
    a.sample_period = 0x3e8;
    a.sample_type = sample_type;
    a.flags = flags;
    return a;
}

static tevent make_event(perfdata_attr a, uint64_t id0, uint64_t id1) {
    tevent e;
    memset(&e, 0, sizeof e);
    e.attr = a;
    e.ids[0] = id0;
    e.ids[1] = id1;
    e.nr_ids = id1 ? 2 : (id0 ? 1 : 0);
    return e;
}

#define TRAILER_TYPES                                                                                      \
    (PERFDATA_SAMPLE_TID | PERFDATA_SAMPLE_TIME | PERFDATA_SAMPLE_ID | PERFDATA_SAMPLE_STREAM_ID |         \
     PERFDATA_SAMPLE_CPU | PERFDATA_SAMPLE_IDENTIFIER)

/* The event of the record-decoder tests: every trailer field, sample_id_all,
   a read_format with every non-group value (for READ records). */
static tevent decoder_event(void) {
    perfdata_attr a = base_attr(TRAILER_TYPES | PERFDATA_SAMPLE_IP | PERFDATA_SAMPLE_PERIOD,
                                PERFDATA_ATTR_FLAG_SAMPLE_ID_ALL | PERFDATA_ATTR_FLAG_MMAP2 |
                                    PERFDATA_ATTR_FLAG_COMM | PERFDATA_ATTR_FLAG_COMM_EXEC |
                                    PERFDATA_ATTR_FLAG_TASK | PERFDATA_ATTR_FLAG_DISABLED);
    a.read_format = PERFDATA_FORMAT_TOTAL_TIME_ENABLED | PERFDATA_FORMAT_TOTAL_TIME_RUNNING | PERFDATA_FORMAT_ID |
                    PERFDATA_FORMAT_LOST;
    return make_event(a, 0x4201, 0x4202);
}

/* The trailer every non-sample record of the decoder tests carries. */
static tsid std_trailer(void) {
    tsid s;
    s.pid = 0x3031;
    s.tid = 0x3233;
    s.time = 0x0000001122334455ull;
    s.id = 0x4201;
    s.stream_id = 0x0000000000abcdefull;
    s.cpu = 5;
    s.cpu_res = 0x77;
    s.identifier = 0x4201;
    return s;
}

static void check_std_trailer(const perfdata_file *f, const perfdata_record *rec) {
    perfdata_sample_id sid;
    perfdata_error err;
    tsid e = std_trailer();
    CHECK_EQ_U64(perfdata_decode_sample_id(f, rec, &sid, &err), PERFDATA_OK);
    CHECK_EQ_U64(sid.event, 0);
    CHECK_EQ_U64(sid.sample_type, TRAILER_TYPES);
    CHECK_EQ_U64(sid.size, 48);
    CHECK_EQ_U64(sid.pid, e.pid);
    CHECK_EQ_U64(sid.tid, e.tid);
    CHECK_EQ_U64(sid.time, e.time);
    CHECK_EQ_U64(sid.id, e.id);
    CHECK_EQ_U64(sid.stream_id, e.stream_id);
    CHECK_EQ_U64(sid.cpu, e.cpu);
    CHECK_EQ_U64(sid.cpu_reserved, e.cpu_res);
    CHECK_EQ_U64(sid.identifier, e.identifier);
}

/* ===================================================================== */
/*                  record streams for the decoder tests                 */
/* ===================================================================== */

/* For each record built: its type and the fewest body bytes (trailer
   excluded) its decoder needs; any shorter body must be an error. */
typedef struct rec_min {
    uint32_t type;
    size_t min_body;
} rec_min;

typedef struct rec_log {
    rec_min v[64];
    size_t n;
} rec_log;

static void log_rec(rec_log *l, uint32_t type, size_t min_body) {
    if (!l) return;
    if (l->n >= sizeof l->v / sizeof l->v[0]) abort();
    l->v[l->n].type = type;
    l->v[l->n].min_body = min_body;
    l->n++;
}

static const unsigned char mmap2_build_id[20] = {0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9,
                                                 0xba, 0xbb, 0xbc, 0xbd, 0xbe, 0xbf, 0xc0, 0xc1, 0xc2, 0xc3};
static const unsigned char bpf_tag[8] = {0x6d, 0xee, 0xf7, 0x35, 0x7e, 0x7b, 0x45, 0x30};
static const unsigned char poke_bytes[8] = {0x0f, 0x1f, 0x44, 0xe8, 0x10, 0x20, 0x30, 0x40};

/* Records in build_kernel_records and build_tool_records (+1 sample). */
#define NR_KERNEL_RECORDS 24
#define NR_TOOL_RECORDS 35
#define NR_ALL_RECORDS (NR_KERNEL_RECORDS + NR_TOOL_RECORDS + 1)

/* Every kernel record type (1..22 but SAMPLE), each with the standard
   trailer, in this order:
   MMAP, MMAP2, MMAP2(build id), LOST, COMM(exec), COMM, FORK, EXIT, THROTTLE,
   UNTHROTTLE, READ, AUX, ITRACE_START, LOST_SAMPLES, SWITCH(out, preempt),
   SWITCH(in), SWITCH_CPU_WIDE(out), NAMESPACES, KSYMBOL, BPF_EVENT, CGROUP,
   TEXT_POKE, AUX_OUTPUT_HW_ID, CALLCHAIN_DEFERRED. */
static void build_kernel_records(wr *w, const perfdata_attr *a, rec_log *log) {
    tsid tr = std_trailer();
    uint64_t t = a->sample_type;
    size_t at;

    at = rec_begin(w, PERFDATA_RECORD_MMAP, PERFDATA_MISC_USER);
    put32(w, 0x1001); put32(w, 0x1002);
    put64(w, 0x0000555555554000ull); put64(w, 0x21000); put64(w, 0x3000);
    put_str_padded(w, "/usr/bin/workload", at);
    put_trailer(w, t, &tr); rec_end(w, at); log_rec(log, PERFDATA_RECORD_MMAP, 32);

    at = rec_begin(w, PERFDATA_RECORD_MMAP2, PERFDATA_MISC_USER);
    put32(w, 0x2001); put32(w, 0x2002);
    put64(w, 0x00007f0000001000ull); put64(w, 0x1d3000); put64(w, 0x28000);
    put32(w, 0x103); put32(w, 0x2a); put64(w, 0x0000000100000abcull); put64(w, 0x55aa);
    put32(w, 5); put32(w, 0x802); /* PROT_READ|PROT_EXEC; MAP_PRIVATE|MAP_DENYWRITE */
    put_str_padded(w, "/usr/lib/x86_64-linux-gnu/libc.so.6", at);
    put_trailer(w, t, &tr); rec_end(w, at); log_rec(log, PERFDATA_RECORD_MMAP2, 64);

    at = rec_begin(w, PERFDATA_RECORD_MMAP2, PERFDATA_MISC_USER | PERFDATA_MISC_MMAP_BUILD_ID);
    put32(w, 0x3001); put32(w, 0x3002);
    put64(w, 0x00007f0000100000ull); put64(w, 0x4000); put64(w, 0);
    put8(w, 16); put8(w, 0); put16(w, 0); put_bytes(w, mmap2_build_id, 20);
    put32(w, 7); put32(w, 0x2);
    put_str_padded(w, "/opt/app.so", at);
    put_trailer(w, t, &tr); rec_end(w, at); log_rec(log, PERFDATA_RECORD_MMAP2, 64);

    at = rec_begin(w, PERFDATA_RECORD_LOST, 0);
    put64(w, 0x4202); put64(w, 0x0000000100000007ull);
    put_trailer(w, t, &tr); rec_end(w, at); log_rec(log, PERFDATA_RECORD_LOST, 16);

    at = rec_begin(w, PERFDATA_RECORD_COMM, PERFDATA_MISC_USER | PERFDATA_MISC_COMM_EXEC);
    put32(w, 0x4001); put32(w, 0x4002);
    put_str_padded(w, "workload", at);
    put_trailer(w, t, &tr); rec_end(w, at); log_rec(log, PERFDATA_RECORD_COMM, 8);

    at = rec_begin(w, PERFDATA_RECORD_COMM, PERFDATA_MISC_USER);
    put32(w, 0x4001); put32(w, 0x4003);
    put_str_padded(w, "worker-1", at);
    put_trailer(w, t, &tr); rec_end(w, at); log_rec(log, PERFDATA_RECORD_COMM, 8);

    at = rec_begin(w, PERFDATA_RECORD_FORK, 0);
    put32(w, 0x5001); put32(w, 0x5002); put32(w, 0x5003); put32(w, 0x5004); put64(w, 0x0000000a0b0c0d0eull);
    put_trailer(w, t, &tr); rec_end(w, at); log_rec(log, PERFDATA_RECORD_FORK, 24);

    at = rec_begin(w, PERFDATA_RECORD_EXIT, 0);
    put32(w, 0x6001); put32(w, 0x6002); put32(w, 0x6003); put32(w, 0x6004); put64(w, 0x0000000a0b0c0d0full);
    put_trailer(w, t, &tr); rec_end(w, at); log_rec(log, PERFDATA_RECORD_EXIT, 24);

    at = rec_begin(w, PERFDATA_RECORD_THROTTLE, 0);
    put64(w, 0x0000000700000001ull); put64(w, 0x4201); put64(w, 0x0000000000abcdefull);
    put_trailer(w, t, &tr); rec_end(w, at); log_rec(log, PERFDATA_RECORD_THROTTLE, 24);

    at = rec_begin(w, PERFDATA_RECORD_UNTHROTTLE, 0);
    put64(w, 0x0000000700000002ull); put64(w, 0x4202); put64(w, 0x0000000000abcdeeull);
    put_trailer(w, t, &tr); rec_end(w, at); log_rec(log, PERFDATA_RECORD_UNTHROTTLE, 24);

    /* READ: value, enabled, running, id, lost (the event's read_format) */
    at = rec_begin(w, PERFDATA_RECORD_READ, 0);
    put32(w, 0x7001); put32(w, 0x7002);
    put64(w, 0x0000000123456789ull); put64(w, 0x1000); put64(w, 0x0800); put64(w, 0x4201); put64(w, 3);
    put_trailer(w, t, &tr); rec_end(w, at); log_rec(log, PERFDATA_RECORD_READ, 48);

    at = rec_begin(w, PERFDATA_RECORD_AUX, 0);
    put64(w, 0x0000000000100000ull); put64(w, 0x8000); put64(w, 0x0305); /* TRUNCATED|PARTIAL, format 3 */
    put_trailer(w, t, &tr); rec_end(w, at); log_rec(log, PERFDATA_RECORD_AUX, 24);

    at = rec_begin(w, PERFDATA_RECORD_ITRACE_START, 0);
    put32(w, 0x8001); put32(w, 0x8002);
    put_trailer(w, t, &tr); rec_end(w, at); log_rec(log, PERFDATA_RECORD_ITRACE_START, 8);

    at = rec_begin(w, PERFDATA_RECORD_LOST_SAMPLES, 0);
    put64(w, 0x0000000200000009ull);
    put_trailer(w, t, &tr); rec_end(w, at); log_rec(log, PERFDATA_RECORD_LOST_SAMPLES, 8);

    at = rec_begin(w, PERFDATA_RECORD_SWITCH, PERFDATA_MISC_SWITCH_OUT | PERFDATA_MISC_SWITCH_OUT_PREEMPT);
    put_trailer(w, t, &tr); rec_end(w, at); log_rec(log, PERFDATA_RECORD_SWITCH, 0);

    at = rec_begin(w, PERFDATA_RECORD_SWITCH, 0);
    put_trailer(w, t, &tr); rec_end(w, at); log_rec(log, PERFDATA_RECORD_SWITCH, 0);

    at = rec_begin(w, PERFDATA_RECORD_SWITCH_CPU_WIDE, PERFDATA_MISC_SWITCH_OUT);
    put32(w, 0x9001); put32(w, 0x9002);
    put_trailer(w, t, &tr); rec_end(w, at); log_rec(log, PERFDATA_RECORD_SWITCH_CPU_WIDE, 8);

    at = rec_begin(w, PERFDATA_RECORD_NAMESPACES, 0);
    put32(w, 0xa001); put32(w, 0xa002); put64(w, 2);
    put64(w, 0x4); put64(w, 0x00000000effffffbull); put64(w, 0x5); put64(w, 0x00000000f0000001ull);
    put_trailer(w, t, &tr); rec_end(w, at); log_rec(log, PERFDATA_RECORD_NAMESPACES, 48);

    at = rec_begin(w, PERFDATA_RECORD_KSYMBOL, 0);
    put64(w, 0xffffffffc0201000ull); put32(w, 0x1a4); put16(w, 1); put16(w, 0x0001);
    put_str_padded(w, "bpf_prog_6deef7357e7b4530_sys_enter", at);
    put_trailer(w, t, &tr); rec_end(w, at); log_rec(log, PERFDATA_RECORD_KSYMBOL, 16);

    at = rec_begin(w, PERFDATA_RECORD_BPF_EVENT, 0);
    put16(w, 1); put16(w, 0x0002); put32(w, 0x00010203); put_bytes(w, bpf_tag, 8);
    put_trailer(w, t, &tr); rec_end(w, at); log_rec(log, PERFDATA_RECORD_BPF_EVENT, 16);

    at = rec_begin(w, PERFDATA_RECORD_CGROUP, 0);
    put64(w, 0x0000000000000c01ull);
    put_str_padded(w, "/sys/fs/cgroup/user.slice", at);
    put_trailer(w, t, &tr); rec_end(w, at); log_rec(log, PERFDATA_RECORD_CGROUP, 8);

    at = rec_begin(w, PERFDATA_RECORD_TEXT_POKE, 0);
    put64(w, 0xffffffff81234560ull); put16(w, 3); put16(w, 5); put_bytes(w, poke_bytes, 8);
    align_from(w, at, 8);
    put_trailer(w, t, &tr); rec_end(w, at); log_rec(log, PERFDATA_RECORD_TEXT_POKE, 20);

    at = rec_begin(w, PERFDATA_RECORD_AUX_OUTPUT_HW_ID, 0);
    put64(w, 0x0000000000000107ull);
    put_trailer(w, t, &tr); rec_end(w, at); log_rec(log, PERFDATA_RECORD_AUX_OUTPUT_HW_ID, 8);

    at = rec_begin(w, PERFDATA_RECORD_CALLCHAIN_DEFERRED, PERFDATA_MISC_USER);
    put64(w, 0x0000c00c1e000001ull); put64(w, 3);
    put64(w, PERFDATA_CONTEXT_USER); put64(w, 0x401234); put64(w, 0x405678);
    put_trailer(w, t, &tr); rec_end(w, at); log_rec(log, PERFDATA_RECORD_CALLCHAIN_DEFERRED, 40);
}

static const unsigned char header_build_id[20] = {0xd0, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9,
                                                  0xda, 0xdb, 0xdc, 0xdd, 0xde, 0xdf, 0xe0, 0xe1, 0xe2, 0xe3};
static const unsigned char compressed_bytes[13] = {0x28, 0xb5, 0x2f, 0xfd, 0x04, 0x58, 0x45, 0x00,
                                                   0x00, 0x10, 0x20, 0x30, 0x41};

static uint64_t double_bits(double d) {
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

#define TEST_SCALE 1234.5678

/* Every perf tool record type (64..86), in this order:
   HEADER_ATTR, HEADER_EVENT_TYPE, HEADER_TRACING_DATA(+16 bytes),
   HEADER_BUILD_ID(size 16), HEADER_BUILD_ID(no size), FINISHED_ROUND,
   ID_INDEX, ID_INDEX(machine), AUXTRACE_INFO, AUXTRACE(+24 bytes),
   AUXTRACE_ERROR fmt 0, 1, 2, THREAD_MAP, CPU_MAP CPUS, CPUS(any),
   MASK/4, MASK/8, RANGE, STAT_CONFIG, STAT, STAT_ROUND, EVENT_UPDATE unit,
   scale, name, cpus, TIME_CONV short, long, HEADER_FEATURE, COMPRESSED,
   COMPRESSED2, FINISHED_INIT, BPF_METADATA, SCHEDSTAT_CPU, SCHEDSTAT_DOMAIN. */
static void build_tool_records(wr *w, const tevent *ev, rec_log *log) {
    size_t at, i;

    put_header_attr(w, ev);
    log_rec(log, PERFDATA_RECORD_HEADER_ATTR, ev->attr.size);

    at = rec_begin(w, PERFDATA_RECORD_HEADER_EVENT_TYPE, 0);
    put64(w, 0x0000000100000002ull); put_str_field(w, "sched:sched_switch", 64);
    rec_end(w, at); log_rec(log, PERFDATA_RECORD_HEADER_EVENT_TYPE, 8);

    at = rec_begin(w, PERFDATA_RECORD_HEADER_TRACING_DATA, 0);
    put32(w, 16); rec_end(w, at); /* header.size 12 */
    for (i = 0; i < 16; i++) put8(w, 0x70 + (unsigned)i);
    log_rec(log, PERFDATA_RECORD_HEADER_TRACING_DATA, 4);

    at = rec_begin(w, PERFDATA_RECORD_HEADER_BUILD_ID, PERFDATA_MISC_KERNEL | PERFDATA_MISC_BUILD_ID_SIZE);
    put32(w, (uint32_t)-1); put_bytes(w, header_build_id, 20); put8(w, 16); put8(w, 0); put16(w, 0);
    put_str_field(w, "[kernel.kallsyms]", 64);
    rec_end(w, at); log_rec(log, PERFDATA_RECORD_HEADER_BUILD_ID, 28);

    at = rec_begin(w, PERFDATA_RECORD_HEADER_BUILD_ID, PERFDATA_MISC_USER);
    put32(w, 4242); put_bytes(w, header_build_id, 20); put8(w, 0); put8(w, 0); put16(w, 0);
    put_str_field(w, "/usr/bin/workload", 64);
    rec_end(w, at); log_rec(log, PERFDATA_RECORD_HEADER_BUILD_ID, 28);

    at = rec_begin(w, PERFDATA_RECORD_FINISHED_ROUND, 0);
    rec_end(w, at); log_rec(log, PERFDATA_RECORD_FINISHED_ROUND, 0);

    at = rec_begin(w, PERFDATA_RECORD_ID_INDEX, 0);
    put64(w, 2);
    put64(w, 0x4201); put64(w, 0); put64(w, 1); put64(w, 4242);
    put64(w, 0x4202); put64(w, 0); put64(w, 2); put64(w, 4243);
    rec_end(w, at); log_rec(log, PERFDATA_RECORD_ID_INDEX, 72);

    at = rec_begin(w, PERFDATA_RECORD_ID_INDEX, 0);
    put64(w, 2);
    put64(w, 0x4201); put64(w, 0); put64(w, 1); put64(w, 4242);
    put64(w, 0x4202); put64(w, 1); put64(w, 2); put64(w, 4243);
    put64(w, 77); put64(w, 3); put64(w, 78); put64(w, 4); /* {machine_pid, vcpu} per entry */
    rec_end(w, at); log_rec(log, PERFDATA_RECORD_ID_INDEX, 72);

    at = rec_begin(w, PERFDATA_RECORD_AUXTRACE_INFO, 0);
    put32(w, 1); put32(w, 0); put64(w, 0x1111); put64(w, 0x2222); put64(w, 0x0000000300000333ull);
    rec_end(w, at); log_rec(log, PERFDATA_RECORD_AUXTRACE_INFO, 8);

    at = rec_begin(w, PERFDATA_RECORD_AUXTRACE, 0);
    put64(w, 24); put64(w, 0x1000); put64(w, 0x00abcdef00000001ull);
    put32(w, 1); put32(w, 4243); put32(w, 1); put32(w, 0);
    rec_end(w, at);
    for (i = 0; i < 24; i++) put8(w, 0x90 + (unsigned)i);
    log_rec(log, PERFDATA_RECORD_AUXTRACE, 40);

    /* fmt 0 (before perf 5.5): no time field, msg[] starts where time is */
    at = rec_begin(w, PERFDATA_RECORD_AUXTRACE_ERROR, 0);
    put32(w, 1); put32(w, 2); put32(w, 3); put32(w, 4); put32(w, 5); put32(w, 0);
    put64(w, 0xffffffff81001234ull);
    put_str_field(w, "fmt zero message", 64);
    rec_end(w, at); log_rec(log, PERFDATA_RECORD_AUXTRACE_ERROR, 32);

    at = rec_begin(w, PERFDATA_RECORD_AUXTRACE_ERROR, 0);
    put32(w, 1); put32(w, 2); put32(w, 3); put32(w, 4); put32(w, 5); put32(w, 1);
    put64(w, 0xffffffff81001234ull); put64(w, 0x0000000500000006ull);
    put_str_field(w, "fmt one message", 64);
    rec_end(w, at); log_rec(log, PERFDATA_RECORD_AUXTRACE_ERROR, 40);

    at = rec_begin(w, PERFDATA_RECORD_AUXTRACE_ERROR, 0);
    put32(w, 1); put32(w, 2); put32(w, 3); put32(w, 4); put32(w, 5); put32(w, 2);
    put64(w, 0xffffffff81001234ull); put64(w, 0x0000000500000007ull);
    put_str_field(w, "fmt two message", 64);
    put32(w, 77); put32(w, 3);
    rec_end(w, at); log_rec(log, PERFDATA_RECORD_AUXTRACE_ERROR, 112);

    at = rec_begin(w, PERFDATA_RECORD_THREAD_MAP, 0);
    put64(w, 2);
    put64(w, 4242); put_str_field(w, "workload", 16);
    put64(w, 4243); put_str_field(w, "worker-1", 16);
    rec_end(w, at); log_rec(log, PERFDATA_RECORD_THREAD_MAP, 56);

    at = rec_begin(w, PERFDATA_RECORD_CPU_MAP, 0); /* CPUS 1, 3, 5 */
    put16(w, PERFDATA_CPU_MAP_CPUS); put16(w, 3); put16(w, 1); put16(w, 3); put16(w, 5);
    align_from(w, at, 8); rec_end(w, at); log_rec(log, PERFDATA_RECORD_CPU_MAP, 10);

    at = rec_begin(w, PERFDATA_RECORD_CPU_MAP, 0); /* CPUS -1 (any), 2 */
    put16(w, PERFDATA_CPU_MAP_CPUS); put16(w, 2); put16(w, 0xffff); put16(w, 2);
    align_from(w, at, 8); rec_end(w, at); log_rec(log, PERFDATA_RECORD_CPU_MAP, 8);

    at = rec_begin(w, PERFDATA_RECORD_CPU_MAP, 0); /* MASK, 32-bit words: 0, 2, 63 */
    put16(w, PERFDATA_CPU_MAP_MASK); put16(w, 2); put16(w, 4); put32(w, 0x00000005); put32(w, 0x80000000u);
    align_from(w, at, 8); rec_end(w, at); log_rec(log, PERFDATA_RECORD_CPU_MAP, 14);

    at = rec_begin(w, PERFDATA_RECORD_CPU_MAP, 0); /* MASK, 64-bit words: 0, 1, 63, 64 */
    put16(w, PERFDATA_CPU_MAP_MASK); put16(w, 2); put16(w, 8); put32(w, 0);
    put64(w, 0x8000000000000003ull); put64(w, 1);
    align_from(w, at, 8); rec_end(w, at); log_rec(log, PERFDATA_RECORD_CPU_MAP, 26);

    at = rec_begin(w, PERFDATA_RECORD_CPU_MAP, 0); /* RANGE any, 4..6 */
    put16(w, PERFDATA_CPU_MAP_RANGE); put8(w, 1); put8(w, 0); put16(w, 4); put16(w, 6);
    align_from(w, at, 8); rec_end(w, at); log_rec(log, PERFDATA_RECORD_CPU_MAP, 8);

    at = rec_begin(w, PERFDATA_RECORD_STAT_CONFIG, 0);
    put64(w, 3); put64(w, 0); put64(w, 2); put64(w, 1); put64(w, 1000); put64(w, 2); put64(w, 1);
    rec_end(w, at); log_rec(log, PERFDATA_RECORD_STAT_CONFIG, 56);

    at = rec_begin(w, PERFDATA_RECORD_STAT, 0);
    put64(w, 0x4201); put32(w, 1); put32(w, 2);
    put64(w, 0x0000000123456789ull); put64(w, 1000); put64(w, 900);
    rec_end(w, at); log_rec(log, PERFDATA_RECORD_STAT, 40);

    at = rec_begin(w, PERFDATA_RECORD_STAT_ROUND, 0);
    put64(w, 1); put64(w, 0x0000009999999999ull);
    rec_end(w, at); log_rec(log, PERFDATA_RECORD_STAT_ROUND, 16);

    at = rec_begin(w, PERFDATA_RECORD_EVENT_UPDATE, 0);
    put64(w, PERFDATA_EVENT_UPDATE_UNIT); put64(w, 0x4201); put_str_padded(w, "MiB", at);
    rec_end(w, at); log_rec(log, PERFDATA_RECORD_EVENT_UPDATE, 16);

    at = rec_begin(w, PERFDATA_RECORD_EVENT_UPDATE, 0);
    put64(w, PERFDATA_EVENT_UPDATE_SCALE); put64(w, 0x4202); put64(w, double_bits(TEST_SCALE));
    rec_end(w, at); log_rec(log, PERFDATA_RECORD_EVENT_UPDATE, 24);

    at = rec_begin(w, PERFDATA_RECORD_EVENT_UPDATE, 0);
    put64(w, PERFDATA_EVENT_UPDATE_NAME); put64(w, 0x4201); put_str_padded(w, "cycles:u", at);
    rec_end(w, at); log_rec(log, PERFDATA_RECORD_EVENT_UPDATE, 16);

    at = rec_begin(w, PERFDATA_RECORD_EVENT_UPDATE, 0); /* CPUS: RANGE 0..3 */
    put64(w, PERFDATA_EVENT_UPDATE_CPUS); put64(w, 0x4201);
    put16(w, PERFDATA_CPU_MAP_RANGE); put8(w, 0); put8(w, 0); put16(w, 0); put16(w, 3);
    align_from(w, at, 8); rec_end(w, at); log_rec(log, PERFDATA_RECORD_EVENT_UPDATE, 24);

    at = rec_begin(w, PERFDATA_RECORD_TIME_CONV, 0);
    put64(w, 31); put64(w, 0x12345); put64(w, 0x0000ffff00001111ull);
    rec_end(w, at); log_rec(log, PERFDATA_RECORD_TIME_CONV, 24);

    at = rec_begin(w, PERFDATA_RECORD_TIME_CONV, 0);
    put64(w, 30); put64(w, 0x54321); put64(w, 0x0000eeee00002222ull);
    put64(w, 0x0000000000002222ull); put64(w, 0x0000ffffffffffffull); put8(w, 1); put8(w, 1); put_fill(w, 0, 6);
    rec_end(w, at); log_rec(log, PERFDATA_RECORD_TIME_CONV, 24);

    at = rec_begin(w, PERFDATA_RECORD_HEADER_FEATURE, 0); /* size 84: not 8-aligned */
    put64(w, PERFDATA_FEAT_HOSTNAME); put_perf_string(w, "pipehost");
    rec_end(w, at); log_rec(log, PERFDATA_RECORD_HEADER_FEATURE, 8);

    at = rec_begin(w, PERFDATA_RECORD_COMPRESSED, 0); /* size 21: not 8-aligned */
    put_bytes(w, compressed_bytes, 13);
    rec_end(w, at); log_rec(log, PERFDATA_RECORD_COMPRESSED, 0);

    at = rec_begin(w, PERFDATA_RECORD_COMPRESSED2, 0);
    put64(w, 13); put_bytes(w, compressed_bytes, 13);
    align_from(w, at, 8); rec_end(w, at); log_rec(log, PERFDATA_RECORD_COMPRESSED2, 21);

    at = rec_begin(w, PERFDATA_RECORD_FINISHED_INIT, 0);
    rec_end(w, at); log_rec(log, PERFDATA_RECORD_FINISHED_INIT, 0);

    at = rec_begin(w, PERFDATA_RECORD_BPF_METADATA, 0);
    put_str_field(w, "bpf_prog_6deef7357e7b4530_sys_enter", 256); put64(w, 2);
    put_str_field(w, "map_name", 64); put_str_field(w, "counts", 256);
    put_str_field(w, "version", 64); put_str_field(w, "42", 256);
    rec_end(w, at); log_rec(log, PERFDATA_RECORD_BPF_METADATA, 904);

    at = rec_begin(w, PERFDATA_RECORD_SCHEDSTAT_CPU, 0);
    put64(w, 0x0000000001234567ull); put32(w, 1); put16(w, 17); put16(w, 0);
    put64(w, 11); put64(w, 22); put64(w, 33);
    rec_end(w, at); log_rec(log, PERFDATA_RECORD_SCHEDSTAT_CPU, 16);

    at = rec_begin(w, PERFDATA_RECORD_SCHEDSTAT_DOMAIN, 0);
    put64(w, 0x0000000001234568ull); put32(w, 2); put16(w, 16); put16(w, 1);
    put64(w, 44); put64(w, 55);
    rec_end(w, at); log_rec(log, PERFDATA_RECORD_SCHEDSTAT_DOMAIN, 16);
}

/* ===================================================================== */
/*                            sample helpers                             */
/* ===================================================================== */

#define REGS_USER_MASK ((1ull << 0) | (1ull << 3) | (1ull << 7) | (1ull << 20)) /* sparse */
#define REGS_INTR_MASK ((1ull << 1) | (1ull << 2) | (1ull << 63))

#define ALL_SAMPLE_FIELDS                                                                                       \
    (PERFDATA_SAMPLE_IDENTIFIER | PERFDATA_SAMPLE_IP | PERFDATA_SAMPLE_TID | PERFDATA_SAMPLE_TIME |                \
     PERFDATA_SAMPLE_ADDR | PERFDATA_SAMPLE_ID | PERFDATA_SAMPLE_STREAM_ID | PERFDATA_SAMPLE_CPU |                 \
     PERFDATA_SAMPLE_PERIOD | PERFDATA_SAMPLE_READ | PERFDATA_SAMPLE_CALLCHAIN | PERFDATA_SAMPLE_RAW |             \
     PERFDATA_SAMPLE_BRANCH_STACK | PERFDATA_SAMPLE_REGS_USER | PERFDATA_SAMPLE_STACK_USER |                      \
     PERFDATA_SAMPLE_DATA_SRC | PERFDATA_SAMPLE_TRANSACTION | PERFDATA_SAMPLE_REGS_INTR |                         \
     PERFDATA_SAMPLE_PHYS_ADDR | PERFDATA_SAMPLE_CGROUP | PERFDATA_SAMPLE_DATA_PAGE_SIZE |                        \
     PERFDATA_SAMPLE_CODE_PAGE_SIZE | PERFDATA_SAMPLE_AUX)

/* A distinct, byte-order-revealing value for every sample field. */
static void sample_defaults(tsample *s) {
    size_t i;
    memset(s, 0, sizeof *s);
    s->identifier = 0x4202;
    s->ip = 0xffffffff81012345ull;
    s->pid = 0x00001234;
    s->tid = 0x00005678;
    s->time = 0x0001020304050607ull;
    s->addr = 0x00007ffd12345678ull;
    s->id = 0x4202;
    s->stream_id = 0x0102030405060708ull;
    s->cpu = 0x0b;
    s->cpu_res = 0x0c;
    s->period = 0x0000000010000003ull;
    s->read.nr = 1;
    s->read.time_enabled = 0x0000000000005555ull;
    s->read.time_running = 0x0000000000004444ull;
    s->read.v[0].value = 0x1111222233334444ull;
    s->read.v[0].id = 0x4202;
    s->read.v[0].lost = 7;
    s->nr_ips = 6;
    s->ips[0] = PERFDATA_CONTEXT_KERNEL;
    s->ips[1] = 0xffffffff81000010ull;
    s->ips[2] = 0xffffffff81000020ull;
    s->ips[3] = PERFDATA_CONTEXT_USER;
    s->ips[4] = 0x0000000000401000ull;
    s->ips[5] = 0x0000000000402000ull;
    s->raw_size = 12; /* 4 + 12 = 16: aligned */
    for (i = 0; i < 12; i++) s->raw[i] = (unsigned char)(0x10 + i);
    s->nr_br = 2;
    s->hw_idx = 3;
    s->br[0].from = 0xffffffff81000100ull;
    s->br[0].to = 0xffffffff81000200ull;
    s->br[0].mispred = 1; s->br[0].predicted = 0; s->br[0].in_tx = 1; s->br[0].abort = 0;
    s->br[0].cycles = 0xbeef; s->br[0].type = 11; s->br[0].spec = 2; s->br[0].new_type = 9; s->br[0].privilege = 5;
    s->br[1].from = 0x0000000000401100ull;
    s->br[1].to = 0x0000000000401200ull;
    s->br[1].mispred = 0; s->br[1].predicted = 1; s->br[1].in_tx = 0; s->br[1].abort = 1;
    s->br[1].cycles = 1; s->br[1].type = 12; s->br[1].spec = 1; s->br[1].new_type = 3; s->br[1].privilege = 2;
    s->br_counters[0] = 0x0000000000010002ull;
    s->br_counters[1] = 0x0000000000030004ull;
    s->regs_user_abi = PERFDATA_REGS_ABI_64;
    s->regs_user[0] = 0x00000000000000a0ull;
    s->regs_user[1] = 0x00000000000000a3ull;
    s->regs_user[2] = 0x00007fff000000a7ull;
    s->regs_user[3] = 0x0000000000000a20ull;
    s->stack_size = 32;
    s->stack_dyn = 24;
    for (i = 0; i < 32; i++) s->stack[i] = (unsigned char)(0x40 + i);
    s->weight = 0x0000000123456789ull;
    s->w_var1 = 0xdeadbeef;
    s->w_ins_lat = 0x1234;
    s->w_p_stage = 0x5678;
    s->data_src = 0x0a0b0c0d0e0f1011ull;
    s->transaction = 0x0000abcd00000006ull;
    s->regs_intr_abi = PERFDATA_REGS_ABI_64;
    s->regs_intr[0] = 0x00000000000000b1ull;
    s->regs_intr[1] = 0x00000000000000b2ull;
    s->regs_intr[2] = 0x80000000000000bfull;
    s->phys_addr = 0x00000001fee1deadull;
    s->cgroup = 0x0000000000000c01ull;
    s->data_page_size = 4096;
    s->code_page_size = 0x200000;
    s->aux_size = 16;
    for (i = 0; i < 16; i++) s->aux[i] = (unsigned char)(0x60 + i);
}

/* The attr of the all-fields sample (WEIGHT_STRUCT or WEIGHT as asked). */
static perfdata_attr all_fields_attr(uint64_t weight_bit) {
    perfdata_attr a = base_attr(ALL_SAMPLE_FIELDS | weight_bit, PERFDATA_ATTR_FLAG_SAMPLE_ID_ALL);
    a.read_format = PERFDATA_FORMAT_TOTAL_TIME_ENABLED | PERFDATA_FORMAT_TOTAL_TIME_RUNNING | PERFDATA_FORMAT_ID |
                    PERFDATA_FORMAT_LOST;
    a.branch_sample_type = 1 /* USER */ | PERFDATA_BRANCH_HW_INDEX | PERFDATA_BRANCH_COUNTERS;
    a.sample_regs_user = REGS_USER_MASK;
    a.sample_regs_intr = REGS_INTR_MASK;
    a.sample_stack_user = 32;
    return a;
}

static void check_read(const perfdata_read *r, uint64_t fmt, const tread *e) {
    size_t i;
    CHECK_EQ_U64(r->read_format, fmt);
    CHECK_EQ_U64(r->nr, (fmt & PERFDATA_FORMAT_GROUP) ? e->nr : 1);
    CHECK_EQ_U64(r->time_enabled, (fmt & PERFDATA_FORMAT_TOTAL_TIME_ENABLED) ? e->time_enabled : 0);
    CHECK_EQ_U64(r->time_running, (fmt & PERFDATA_FORMAT_TOTAL_TIME_RUNNING) ? e->time_running : 0);
    for (i = 0; i < r->nr; i++) {
        perfdata_read_value v = perfdata_read_at(r, i);
        CHECK_EQ_U64(v.value, e->v[i].value);
        CHECK_EQ_U64(v.id, (fmt & PERFDATA_FORMAT_ID) ? e->v[i].id : 0);
        CHECK_EQ_U64(v.lost, (fmt & PERFDATA_FORMAT_LOST) ? e->v[i].lost : 0);
    }
    {
        perfdata_read_value past = perfdata_read_at(r, (size_t)r->nr); /* out of range: zeros */
        CHECK(past.value == 0 && past.id == 0 && past.lost == 0);
    }
}

static void check_branch(const perfdata_branch_stack *b, uint64_t bst, const tsample *e) {
    size_t i;
    CHECK_EQ_U64(b->nr, e->nr_br);
    CHECK_EQ_U64(b->has_hw_idx, (bst & PERFDATA_BRANCH_HW_INDEX) != 0);
    CHECK_EQ_U64(b->hw_idx, (bst & PERFDATA_BRANCH_HW_INDEX) ? e->hw_idx : 0);
    CHECK_EQ_U64(b->entries.n, 24 * e->nr_br);
    for (i = 0; i < e->nr_br; i++) {
        perfdata_branch_entry x = perfdata_branch_at(b, i);
        const tbranch *y = &e->br[i];
        CHECK_EQ_U64(x.from, y->from);
        CHECK_EQ_U64(x.to, y->to);
        CHECK_EQ_U64(x.flags, branch_flags_le(y));
        CHECK_EQ_U64(x.mispred, y->mispred);
        CHECK_EQ_U64(x.predicted, y->predicted);
        CHECK_EQ_U64(x.in_tx, y->in_tx);
        CHECK_EQ_U64(x.abort, y->abort);
        CHECK_EQ_U64(x.cycles, y->cycles);
        CHECK_EQ_U64(x.type, y->type);
        CHECK_EQ_U64(x.spec, y->spec);
        CHECK_EQ_U64(x.new_type, y->new_type);
        CHECK_EQ_U64(x.privilege, y->privilege);
    }
    CHECK_EQ_U64(b->counters.count, (bst & PERFDATA_BRANCH_COUNTERS) ? e->nr_br : 0);
    for (i = 0; i < b->counters.count; i++) CHECK_EQ_U64(perfdata_u64s_at(&b->counters, i), e->br_counters[i]);
}

static void check_regs(const perfdata_regs *r, uint64_t abi, uint64_t mask, const uint64_t *values) {
    unsigned reg, k = 0;
    CHECK_EQ_U64(r->abi, abi);
    CHECK_EQ_U64(r->mask, mask);
    CHECK_EQ_U64(r->values.count, abi ? popcount64(mask) : 0);
    for (reg = 0; reg < 64; reg++) {
        int found = -1;
        uint64_t v = perfdata_regs_get(r, reg, &found);
        if (abi && ((mask >> reg) & 1u)) {
            CHECK_EQ_U64(found, 1);
            CHECK_EQ_U64(v, values[k]);
            k++;
        } else if (found != 0 || v != 0) {
            CHECK_EQ_U64(found, 0); /* reported only on failure */
            CHECK_EQ_U64(v, 0);
        }
    }
}

/* Every field of a->sample_type decoded as written; absent fields zero. */
static void check_sample(const perfdata_sample *s, const perfdata_attr *a, const tsample *e, int big) {
    uint64_t t = a->sample_type;
    CHECK_EQ_U64(s->sample_type, t);
    CHECK_EQ_U64(s->identifier, (t & PERFDATA_SAMPLE_IDENTIFIER) ? e->identifier : 0);
    CHECK_EQ_U64(s->ip, (t & PERFDATA_SAMPLE_IP) ? e->ip : 0);
    CHECK_EQ_U64(s->pid, (t & PERFDATA_SAMPLE_TID) ? e->pid : 0);
    CHECK_EQ_U64(s->tid, (t & PERFDATA_SAMPLE_TID) ? e->tid : 0);
    CHECK_EQ_U64(s->time, (t & PERFDATA_SAMPLE_TIME) ? e->time : 0);
    CHECK_EQ_U64(s->addr, (t & PERFDATA_SAMPLE_ADDR) ? e->addr : 0);
    CHECK_EQ_U64(s->id, (t & PERFDATA_SAMPLE_ID) ? e->id : 0);
    CHECK_EQ_U64(s->stream_id, (t & PERFDATA_SAMPLE_STREAM_ID) ? e->stream_id : 0);
    CHECK_EQ_U64(s->cpu, (t & PERFDATA_SAMPLE_CPU) ? e->cpu : 0);
    CHECK_EQ_U64(s->cpu_reserved, (t & PERFDATA_SAMPLE_CPU) ? e->cpu_res : 0);
    CHECK_EQ_U64(s->period, (t & PERFDATA_SAMPLE_PERIOD) ? e->period : 0);
    if (t & PERFDATA_SAMPLE_READ) check_read(&s->read, a->read_format, &e->read);
    if (t & PERFDATA_SAMPLE_CALLCHAIN) {
        size_t i;
        CHECK_EQ_U64(s->callchain.count, e->nr_ips);
        for (i = 0; i < e->nr_ips; i++) CHECK_EQ_U64(perfdata_u64s_at(&s->callchain, i), e->ips[i]);
    } else {
        CHECK_EQ_U64(s->callchain.count, 0);
    }
    if (t & PERFDATA_SAMPLE_RAW) {
        CHECK(view_is(s->raw, e->raw, e->raw_size));
        CHECK_EQ_U64(s->raw_big_endian, big);
    } else {
        CHECK_EQ_U64(s->raw.n, 0);
    }
    if (t & PERFDATA_SAMPLE_BRANCH_STACK) check_branch(&s->branch_stack, a->branch_sample_type, e);
    if (t & PERFDATA_SAMPLE_REGS_USER) check_regs(&s->regs_user, e->regs_user_abi, a->sample_regs_user, e->regs_user);
    if (t & PERFDATA_SAMPLE_STACK_USER) {
        CHECK_EQ_U64(s->stack_user_size, e->stack_size);
        CHECK_EQ_U64(s->stack_user_dyn_size, e->stack_size ? e->stack_dyn : 0);
        CHECK(view_is(s->stack_user, e->stack, (size_t)(e->stack_size ? e->stack_dyn : 0)));
    }
    if (t & PERFDATA_SAMPLE_WEIGHT_STRUCT) {
        CHECK_EQ_U64(s->weight, e->w_var1);
        CHECK_EQ_U64(s->ins_lat, e->w_ins_lat);
        CHECK_EQ_U64(s->p_stage_cyc, e->w_p_stage);
    } else if (t & PERFDATA_SAMPLE_WEIGHT) {
        CHECK_EQ_U64(s->weight, e->weight);
        CHECK_EQ_U64(s->weight_raw, e->weight);
    }
    CHECK_EQ_U64(s->data_src, (t & PERFDATA_SAMPLE_DATA_SRC) ? e->data_src : 0);
    CHECK_EQ_U64(s->transaction, (t & PERFDATA_SAMPLE_TRANSACTION) ? e->transaction : 0);
    if (t & PERFDATA_SAMPLE_REGS_INTR) check_regs(&s->regs_intr, e->regs_intr_abi, a->sample_regs_intr, e->regs_intr);
    CHECK_EQ_U64(s->phys_addr, (t & PERFDATA_SAMPLE_PHYS_ADDR) ? e->phys_addr : 0);
    CHECK_EQ_U64(s->cgroup, (t & PERFDATA_SAMPLE_CGROUP) ? e->cgroup : 0);
    CHECK_EQ_U64(s->data_page_size, (t & PERFDATA_SAMPLE_DATA_PAGE_SIZE) ? e->data_page_size : 0);
    CHECK_EQ_U64(s->code_page_size, (t & PERFDATA_SAMPLE_CODE_PAGE_SIZE) ? e->code_page_size : 0);
    if (t & PERFDATA_SAMPLE_AUX) CHECK(view_is(s->aux, e->aux, (size_t)e->aux_size));
    else CHECK_EQ_U64(s->aux.n, 0);
}

/* Builds a one-event file holding one sample, opens it and decodes the
   sample into *s; x stays open (fx_free it). */
static perfdata_status one_sample(fx *x, int big, const perfdata_attr *a, const tsample *ts, perfdata_record *rec,
                                  perfdata_sample *s) {
    wr d;
    tevent ev = make_event(*a, 0x4201, 0x4202);
    perfdata_error err;
    perfdata_status st = PERFDATA_ERR_BAD_ARGUMENT;
    wr_init(&d, big);
    put_sample(&d, a, ts);
    if (CHECK(fx_open_file(x, big, &ev, 1, &d)) && NEXT(x, rec, PERFDATA_RECORD_SAMPLE)) {
        st = perfdata_decode_sample(&x->f, rec, s, &err);
        CHECK_EQ_U64(err.code, st);
    }
    wr_free(&d);
    return st;
}

/* Decodes a sample of attr `a` in both byte orders and checks both. */
static void check_sample_both_orders(const perfdata_attr *a, const tsample *ts) {
    int big;
    for (big = 0; big <= 1; big++) {
        fx x;
        perfdata_record rec;
        perfdata_sample s;
        test_set_context(order_name(big));
        if (CHECK_EQ_U64(one_sample(&x, big, a, ts, &rec, &s), PERFDATA_OK)) {
            CHECK_EQ_U64(s.event, 0);
            check_sample(&s, a, ts, big);
        }
        fx_free(&x);
    }
    test_set_context("");
}

/* ===================================================================== */
/*                                 open                                  */
/* ===================================================================== */

/* Two events with different layouts and ids, used by the open tests. */
static void two_events(tevent *ev) {
    perfdata_attr a0 = base_attr(PERFDATA_SAMPLE_IDENTIFIER | PERFDATA_SAMPLE_IP | PERFDATA_SAMPLE_TID |
                                     PERFDATA_SAMPLE_TIME | PERFDATA_SAMPLE_PERIOD,
                                 PERFDATA_ATTR_FLAG_SAMPLE_ID_ALL | PERFDATA_ATTR_FLAG_FREQ);
    perfdata_attr a1 = base_attr(PERFDATA_SAMPLE_IDENTIFIER | PERFDATA_SAMPLE_IP | PERFDATA_SAMPLE_CALLCHAIN,
                                 PERFDATA_ATTR_FLAG_SAMPLE_ID_ALL | PERFDATA_ATTR_FLAG_EXCLUDE_KERNEL);
    a0.config = 0x0000000000000001ull;
    a0.sample_period = 4000;
    a1.type = 2; /* tracepoint */
    a1.config = 0x0000000000000123ull;
    a1.sample_period = 1;
    ev[0] = make_event(a0, 0x0000000000000011ull, 0x0000000000000012ull);
    ev[1] = make_event(a1, 0x0000000100000021ull, 0);
}

static void check_two_events(const perfdata_file *f, const tevent *ev) {
    size_t i, j;
    if (!CHECK_EQ_U64(f->nr_events, 2)) return;
    for (i = 0; i < 2; i++) {
        const perfdata_attr *a = &f->events[i].attr;
        CHECK_EQ_U64(a->type, ev[i].attr.type);
        CHECK_EQ_U64(a->size, ev[i].attr.size);
        CHECK_EQ_U64(a->config, ev[i].attr.config);
        CHECK_EQ_U64(a->sample_period, ev[i].attr.sample_period);
        CHECK_EQ_U64(a->sample_type, ev[i].attr.sample_type);
        CHECK_EQ_U64(a->flags, ev[i].attr.flags);
        CHECK_EQ_U64(f->events[i].attr_bytes.n, ev[i].attr.size);
        CHECK_EQ_U64(f->events[i].ids.count, ev[i].nr_ids);
        for (j = 0; j < ev[i].nr_ids; j++) CHECK_EQ_U64(perfdata_u64s_at(&f->events[i].ids, j), ev[i].ids[j]);
    }
    /* trailer sizes: TID TIME IDENTIFIER = 24; IDENTIFIER = 8 */
    CHECK_EQ_U64(f->events[0].sample_id_size, 24);
    CHECK_EQ_U64(f->events[1].sample_id_size, 8);
}

/* File mode: header fields, sections, both attrs with their ids, and the
   records of the data section. Guards the whole file-mode open path. */
ORDER_TEST(open_file_mode) {
    tevent ev[2];
    wr d;
    fx x;
    perfdata_record rec;
    tsid tr = std_trailer();
    two_events(ev);
    wr_init(&d, big);
    tr.identifier = ev[1].ids[0];
    put_comm(&d, &ev[0].attr, 1, 2, "a", &tr);
    if (CHECK(fx_open_file(&x, big, ev, 2, &d))) {
        CHECK_EQ_U64(x.err.code, PERFDATA_OK);
        CHECK_EQ_U64(x.f.flags & PERFDATA_FILE_PIPE, 0);
        CHECK_EQ_U64((x.f.flags & PERFDATA_FILE_BIG_ENDIAN) != 0, big);
        CHECK_EQ_U64(x.f.flags & PERFDATA_FILE_DATA_SIZE_ZERO, 0);
        CHECK_EQ_U64(x.f.header_size, 104);
        CHECK_EQ_U64(x.f.attr_size, PERFDATA_ATTR_SIZE_VER8 + 16);
        CHECK_EQ_U64(x.f.attrs.size, 2 * (PERFDATA_ATTR_SIZE_VER8 + 16));
        CHECK_EQ_U64(x.f.data.offset, x.f.attrs.offset + x.f.attrs.size);
        CHECK_EQ_U64(x.f.data.size, d.n);
        CHECK_EQ_U64(x.f.priv.sample_type_union, ev[0].attr.sample_type | ev[1].attr.sample_type);
        check_two_events(&x.f, ev);
        if (NEXT(&x, &rec, PERFDATA_RECORD_COMM)) {
            CHECK_EQ_U64(rec.offset, x.f.data.offset);
            CHECK_EQ_U64(rec.size, d.n);
            CHECK_EQ_U64(rec.big_endian, big);
            CHECK_EQ_U64(perfdata_record_event(&x.f, &rec, NULL), 1); /* event 1's identifier */
        }
        CHECK_EQ_U64(perfdata_next_record(&x.f, &x.cur, &rec, &x.err), PERFDATA_END);
        CHECK_EQ_U64(x.err.code, PERFDATA_END);
    }
    fx_free(&x);
    wr_free(&d);
}

/* Pipe mode: events come from HEADER_ATTR records while iterating; a new
   pass starts afresh instead of registering them twice. */
ORDER_TEST(open_pipe_mode) {
    tevent ev[2];
    wr d;
    fx x;
    perfdata_record rec;
    tsample ts;
    int pass;
    two_events(ev);
    sample_defaults(&ts);
    ts.identifier = 0x12;
    wr_init(&d, big);
    put_sample(&d, &ev[0].attr, &ts);
    if (CHECK(fx_open_pipe(&x, big, ev, 2, &d))) {
        CHECK_EQ_U64(x.f.flags & PERFDATA_FILE_PIPE, PERFDATA_FILE_PIPE);
        CHECK_EQ_U64((x.f.flags & PERFDATA_FILE_BIG_ENDIAN) != 0, big);
        CHECK_EQ_U64(x.f.header_size, 16);
        CHECK_EQ_U64(x.f.data.offset, 16);
        CHECK_EQ_U64(x.f.data.size, x.img.n - 16);
        CHECK_EQ_U64(x.f.nr_events, 0);
        for (pass = 0; pass < 2; pass++) {
            perfdata_cursor_init(&x.f, &x.cur);
            CHECK_EQ_U64(x.f.nr_events, 0);
            if (NEXT(&x, &rec, PERFDATA_RECORD_HEADER_ATTR)) {
                perfdata_header_attr ha;
                CHECK_EQ_U64(rec.offset, 16);
                CHECK_EQ_U64(x.f.nr_events, 1);
                CHECK_EQ_U64(perfdata_decode_header_attr(&x.f, &rec, &ha, NULL), PERFDATA_OK);
                CHECK_EQ_U64(ha.attr.sample_type, ev[0].attr.sample_type);
                CHECK_EQ_U64(ha.attr.flags, ev[0].attr.flags);
                CHECK_EQ_U64(ha.attr_bytes.n, PERFDATA_ATTR_SIZE_VER8);
                CHECK_EQ_U64(ha.ids.count, 2);
                CHECK_EQ_U64(perfdata_u64s_at(&ha.ids, 1), 0x12);
            }
            if (NEXT(&x, &rec, PERFDATA_RECORD_HEADER_ATTR)) CHECK_EQ_U64(x.f.nr_events, 2);
            check_two_events(&x.f, ev);
            if (NEXT(&x, &rec, PERFDATA_RECORD_SAMPLE)) {
                perfdata_sample s;
                CHECK_EQ_U64(perfdata_decode_sample(&x.f, &rec, &s, NULL), PERFDATA_OK);
                CHECK_EQ_U64(s.event, 0);
                check_sample(&s, &ev[0].attr, &ts, big);
            }
            CHECK_EQ_U64(perfdata_next_record(&x.f, &x.cur, &rec, &x.err), PERFDATA_END);
            CHECK_EQ_U64(x.f.nr_events, 2);
        }
    }
    fx_free(&x);
    wr_free(&d);
}

/* perfdata_count_events: the attr count in file mode, the HEADER_ATTR
   count in pipe mode. */
ORDER_TEST(count_events) {
    tevent ev[3];
    wr d;
    blob b;
    size_t n = 99;
    perfdata_error err;
    two_events(ev);
    ev[2] = ev[1];
    ev[2].ids[0] = 0x31;
    wr_init(&d, big);
    {
        tsid tr = std_trailer();
        put_comm(&d, &ev[0].attr, 1, 2, "x", &tr);
    }
    {
        file_opts o = default_opts();
        b = build_file(big, ev, 3, &d, &o);
        CHECK_EQ_U64(perfdata_count_events(b.p, b.n, &n, &err), PERFDATA_OK);
        CHECK_EQ_U64(n, 3);
        free(b.p);
    }
    b = build_pipe(big, ev, 3, &d);
    n = 99;
    CHECK_EQ_U64(perfdata_count_events(b.p, b.n, &n, &err), PERFDATA_OK);
    CHECK_EQ_U64(n, 3);
    free(b.p);
    b = build_pipe(big, ev, 0, &d);
    n = 99;
    CHECK_EQ_U64(perfdata_count_events(b.p, b.n, &n, &err), PERFDATA_OK);
    CHECK_EQ_U64(n, 0);
    free(b.p);
    wr_free(&d);
}

/* Too small an events array, for every size below the need: NO_SPACE with
   err.needed = the attr count (file mode). In pipe mode the cursor stops at
   the HEADER_ATTR that does not fit and yields it again once the caller has
   made room. */
ORDER_TEST(open_no_space) {
    tevent ev[3];
    wr d;
    blob b;
    file_opts o = default_opts();
    size_t cap;
    two_events(ev);
    ev[2] = ev[1];
    ev[2].ids[0] = 0x31;
    wr_init(&d, big);
    b = build_file(big, ev, 3, &d, &o);
    for (cap = 0; cap < 3; cap++) {
        perfdata_file f;
        perfdata_event events[3];
        perfdata_error err;
        CHECK_EQ_U64(perfdata_open(&f, b.p, b.n, cap ? events : NULL, cap, &err), PERFDATA_NEED_MEMORY);
        CHECK_EQ_U64(err.code, PERFDATA_NEED_MEMORY);
        CHECK_EQ_U64(err.detail, PERFDATA_POOL_EVENTS);
        CHECK_EQ_U64(err.needed, 3 * sizeof(perfdata_event));
    }
    {
        perfdata_file f;
        perfdata_event events[3];
        perfdata_error err;
        CHECK_EQ_U64(perfdata_open(&f, b.p, b.n, events, 3, &err), PERFDATA_OK);
        CHECK_EQ_U64(f.nr_events, 3);
    }
    free(b.p);

    /* pipe mode */
    b = build_pipe(big, ev, 3, &d);
    {
        perfdata_file f;
        perfdata_event small[1], large[3];
        perfdata_cursor c;
        perfdata_record rec;
        perfdata_error err;
        uint64_t third_offset;
        memset(large, 0, sizeof large);
        CHECK_EQ_U64(perfdata_open(&f, b.p, b.n, small, 1, &err), PERFDATA_OK);
        perfdata_cursor_init(&f, &c);
        CHECK_EQ_U64(perfdata_next_record(&f, &c, &rec, &err), PERFDATA_OK);
        CHECK_EQ_U64(perfdata_next_record(&f, &c, &rec, &err), PERFDATA_NEED_MEMORY);
        CHECK_EQ_U64(err.needed, 2 * sizeof(perfdata_event));
        CHECK_EQ_U64(f.nr_events, 1);
        /* make room: copy the registered event into a larger array */
        large[0] = small[0];
        f.events = large;
        f.priv.cap_events = 3;
        CHECK_EQ_U64(perfdata_next_record(&f, &c, &rec, &err), PERFDATA_OK);
        CHECK_EQ_U64(rec.type, PERFDATA_RECORD_HEADER_ATTR);
        third_offset = rec.offset + rec.size;
        CHECK_EQ_U64(f.nr_events, 2);
        CHECK_EQ_U64(perfdata_next_record(&f, &c, &rec, &err), PERFDATA_OK);
        CHECK_EQ_U64(rec.offset, third_offset);
        if (CHECK_EQ_U64(f.nr_events, 3)) CHECK_EQ_U64(perfdata_u64s_at(&f.events[2].ids, 0), 0x31);
        CHECK_EQ_U64(perfdata_next_record(&f, &c, &rec, &err), PERFDATA_END);
    }
    free(b.p);
    wr_free(&d);
}

/* The 72-byte header from before the feature bitmap: opens, has no
   features, and its records are found. */
ORDER_TEST(open_header_72) {
    tevent ev[2];
    wr d;
    fx x;
    perfdata_record rec;
    file_opts o = default_opts();
    tsid tr = std_trailer();
    two_events(ev);
    wr_init(&d, big);
    put_comm(&d, &ev[0].attr, 7, 8, "old", &tr);
    o.header_size = 72;
    if (CHECK(fx_open_blob(&x, build_file(big, ev, 2, &d, &o)))) {
        perfdata_view v;
        perfdata_error err;
        CHECK_EQ_U64(x.f.header_size, 72);
        CHECK_EQ_U64(x.f.attrs.offset, 72 + 3 * 8);
        check_two_events(&x.f, ev);
        CHECK_EQ_U64(x.f.features[0] | x.f.features[1] | x.f.features[2] | x.f.features[3], 0);
        CHECK_EQ_U64(perfdata_has_feature(&x.f, PERFDATA_FEAT_HOSTNAME), 0);
        CHECK_EQ_U64(perfdata_feature_string(&x.f, PERFDATA_FEAT_HOSTNAME, &v, &err), PERFDATA_ERR_BAD_ARGUMENT);
        if (NEXT(&x, &rec, PERFDATA_RECORD_COMM)) {
            perfdata_comm c;
            CHECK_EQ_U64(perfdata_decode_comm(&x.f, &rec, &c, NULL), PERFDATA_OK);
            CHECK(view_str(c.comm, "old"));
        }
        CHECK_EQ_U64(perfdata_next_record(&x.f, &x.cur, &rec, &x.err), PERFDATA_END);
    }
    /* every length short of the 72 bytes is TRUNCATED */
    {
        size_t n;
        int bad = 0;
        for (n = 0; n < 72; n++) {
            blob cut = blob_copy(x.img.p, n);
            perfdata_file f;
            perfdata_event events[2];
            perfdata_error err;
            if (perfdata_open(&f, cut.p, cut.n, events, 2, &err) != PERFDATA_ERR_TRUNCATED) bad++;
            free(cut.p);
        }
        CHECK_EQ_U64(bad, 0);
    }
    fx_free(&x);
    wr_free(&d);
}

/* An attr with every field set to a distinct non-zero value. */
static perfdata_attr full_attr(uint32_t size) {
    perfdata_attr a;
    memset(&a, 0, sizeof a);
    a.type = 0x00000004;
    a.size = size;
    a.config = 0x0102030405060708ull;
    a.sample_period = 0x1112131415161718ull;
    a.sample_type = PERFDATA_SAMPLE_IP | PERFDATA_SAMPLE_TID | PERFDATA_SAMPLE_REGS_USER;
    a.read_format = PERFDATA_FORMAT_ID;
    a.flags = PERFDATA_ATTR_FLAG_DISABLED | PERFDATA_ATTR_FLAG_INHERIT | PERFDATA_ATTR_FLAG_SAMPLE_ID_ALL |
              (2ull << PERFDATA_ATTR_PRECISE_IP_SHIFT) | PERFDATA_ATTR_FLAG_CGROUP;
    a.wakeup_events = 0x21222324;
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
    a.aux_action = 0x00000005;
    a.sig_data = 0xb1b2b3b4b5b6b7b8ull;
    a.config3 = 0xc1c2c3c4c5c6c7c8ull;
    a.config4 = 0xd1d2d3d4d5d6d7d8ull;
    return a;
}

/* Fields inside attr.size decoded, fields beyond it zero: never read from
   the id section that follows a short attr. */
static void check_attr_upto(const perfdata_attr *got, const perfdata_attr *want, uint32_t size) {
    CHECK_EQ_U64(got->type, want->type);
    CHECK_EQ_U64(got->size, want->size);
    CHECK_EQ_U64(got->config, want->config);
    CHECK_EQ_U64(got->sample_period, want->sample_period);
    CHECK_EQ_U64(got->sample_type, want->sample_type);
    CHECK_EQ_U64(got->read_format, want->read_format);
    CHECK_EQ_U64(got->flags, want->flags);
    CHECK_EQ_U64(got->wakeup_events, want->wakeup_events);
    CHECK_EQ_U64(got->bp_type, want->bp_type);
    CHECK_EQ_U64(got->config1, want->config1);
    CHECK_EQ_U64(got->config2, size >= 72 ? want->config2 : 0);
    CHECK_EQ_U64(got->branch_sample_type, size >= 80 ? want->branch_sample_type : 0);
    CHECK_EQ_U64(got->sample_regs_user, size >= 96 ? want->sample_regs_user : 0);
    CHECK_EQ_U64(got->sample_stack_user, size >= 96 ? want->sample_stack_user : 0);
    CHECK_EQ_U64((int64_t)got->clockid, size >= 96 ? (int64_t)want->clockid : 0);
    CHECK_EQ_U64(got->sample_regs_intr, size >= 104 ? want->sample_regs_intr : 0);
    CHECK_EQ_U64(got->aux_watermark, size >= 112 ? want->aux_watermark : 0);
    CHECK_EQ_U64(got->sample_max_stack, size >= 112 ? want->sample_max_stack : 0);
    CHECK_EQ_U64(got->reserved_2, size >= 112 ? want->reserved_2 : 0);
    CHECK_EQ_U64(got->aux_sample_size, size >= 120 ? want->aux_sample_size : 0);
    CHECK_EQ_U64(got->aux_action, size >= 120 ? want->aux_action : 0);
    CHECK_EQ_U64(got->sig_data, size >= 128 ? want->sig_data : 0);
    CHECK_EQ_U64(got->config3, size >= 136 ? want->config3 : 0);
    CHECK_EQ_U64(got->config4, size >= 144 ? want->config4 : 0);
}

/* Every attr size version (64..136), size 0 (= VER0) and an unknown larger
   size (152: its 8-byte tail is 0xEE and ignored). Two attrs per file, so
   the second one proves the table is stepped by attr.size + 16. */
ORDER_TEST(open_attr_sizes) {
    static const uint32_t sizes[] = {0, 64, 72, 80, 96, 104, 112, 120, 128, 136, 144, 152};
    size_t k;
    for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        tevent ev[2];
        wr d;
        fx x;
        uint32_t eff = sizes[k] ? sizes[k] : 64;
        wr_init(&d, big);
        ev[0] = make_event(full_attr(sizes[k]), 0x0000000a00000001ull, 0x0000000a00000002ull);
        ev[1] = make_event(full_attr(sizes[k]), 0x0000000b00000001ull, 0);
        ev[1].attr.config = 0x0f0e0d0c0b0a0908ull;
        if (CHECK(fx_open_file(&x, big, ev, 2, &d)) && CHECK_EQ_U64(x.f.nr_events, 2)) {
            size_t i;
            CHECK_EQ_U64(x.f.attr_size, eff + 16);
            for (i = 0; i < 2; i++) {
                check_attr_upto(&x.f.events[i].attr, &ev[i].attr, eff);
                CHECK_EQ_U64(x.f.events[i].attr_bytes.n, eff);
                CHECK_EQ_U64(x.f.events[i].ids.count, ev[i].nr_ids);
                CHECK_EQ_U64(perfdata_u64s_at(&x.f.events[i].ids, 0), ev[i].ids[0]);
            }
            CHECK_EQ_U64(x.f.events[1].attr_bytes.offset, x.f.attrs.offset + eff + 16);
        }
        fx_free(&x);
        wr_free(&d);
    }
}

/* The version 1 magic 'PERFFILE' (either order) is UNSUPPORTED, any other
   magic MALFORMED, and every header shorter than 104 bytes TRUNCATED. */
ORDER_TEST(open_bad_headers) {
    tevent ev[2];
    wr d;
    blob good, bad;
    file_opts o = default_opts();
    perfdata_file f;
    perfdata_event events[4];
    perfdata_error err;
    size_t n;
    int wrong = 0;
    two_events(ev);
    wr_init(&d, big);
    good = build_file(big, ev, 2, &d, &o);

    bad = blob_copy(good.p, good.n);
    if (big) {
        wr m;
        wr_init(&m, 1);
        put64(&m, 0x454c494646524550ull); /* "PERFFILE" as a big-endian u64 */
        memcpy(bad.p, m.buf, 8);
        wr_free(&m);
    } else {
        memcpy(bad.p, "PERFFILE", 8);
    }
    CHECK_EQ_U64(perfdata_open(&f, bad.p, bad.n, events, 4, &err), PERFDATA_ERR_UNSUPPORTED);
    CHECK_EQ_U64(err.code, PERFDATA_ERR_UNSUPPORTED);
    CHECK(err.message != NULL && err.message[0] != 0);

    memcpy(bad.p, "PERFILE3", 8);
    CHECK_EQ_U64(perfdata_open(&f, bad.p, bad.n, events, 4, &err), PERFDATA_ERR_MALFORMED);
    CHECK_EQ_U64(err.offset, 0);
    memset(bad.p, 0, 8);
    CHECK_EQ_U64(perfdata_open(&f, bad.p, bad.n, events, 4, &err), PERFDATA_ERR_MALFORMED);
    free(bad.p);

    /* an unknown header size is MALFORMED at offset 8 from the first 16
       bytes on, as in the whole file: a stream's first piece says the same */
    for (n = 16; n <= 104; n += 88) {
        blob odd = blob_copy(good.p, n);
        odd.p[big ? 8 : 15] = 2; /* 104 + 2 << 56 */
        CHECK_EQ_U64(perfdata_open(&f, odd.p, odd.n, events, 4, &err), PERFDATA_ERR_MALFORMED);
        CHECK_EQ_U64(err.offset, 8);
        free(odd.p);
    }

    for (n = 0; n < 104; n++) {
        blob cut = blob_copy(good.p, n);
        if (perfdata_open(&f, cut.p, cut.n, events, 4, &err) != PERFDATA_ERR_TRUNCATED ||
            err.code != PERFDATA_ERR_TRUNCATED)
            wrong++;
        free(cut.p);
    }
    CHECK_EQ_U64(wrong, 0);
    CHECK_EQ_U64(perfdata_open(&f, good.p, good.n, events, 4, &err), PERFDATA_OK);
    free(good.p);
    wr_free(&d);
}

/* data.size 0 (perf was interrupted): flagged, and the cursor yields no
   records although bytes follow. */
ORDER_TEST(open_data_size_zero) {
    tevent ev[2];
    wr d;
    fx x;
    perfdata_record rec;
    file_opts o = default_opts();
    tsid tr = std_trailer();
    two_events(ev);
    wr_init(&d, big);
    put_comm(&d, &ev[0].attr, 7, 8, "lost", &tr);
    o.data_size_zero = 1;
    o.features = 0;
    if (CHECK(fx_open_blob(&x, build_file(big, ev, 2, &d, &o)))) {
        CHECK_EQ_U64(x.f.flags & PERFDATA_FILE_DATA_SIZE_ZERO, PERFDATA_FILE_DATA_SIZE_ZERO);
        CHECK_EQ_U64(x.f.data.size, 0);
        CHECK_EQ_U64(perfdata_next_record(&x.f, &x.cur, &rec, &x.err), PERFDATA_END);
        CHECK_EQ_U64(perfdata_next_record(&x.f, &x.cur, &rec, &x.err), PERFDATA_END);
    }
    fx_free(&x);
    wr_free(&d);
}

/* A file cut at every length after its header (a copy interrupted). Cut
   before the data section (in the id arrays or the attr table): refused
   with TRUNCATED at the cut, needed = the bytes up to the data. Cut later:
   opened with PERFDATA_FILE_CUT, data.size clamped (data_missing the rest);
   the cursor, plain and ordered, yields exactly the whole records before
   the cut and ends with TRUNCATED at the cut (needed = the data bytes
   missing), also when the cut falls between two records; a feature whose
   section is whole is read, the others are TRUNCATED. */
static void put_header_only(wr *w, uint32_t type, uint16_t size);
ORDER_TEST(open_cut) {
    tevent ev = decoder_event();
    tsid tr = std_trailer();
    wr d;
    blob full;
    file_opts o = default_opts();
    perfdata_file f;
    perfdata_event events[2];
    perfdata_error err;
    perfdata_view host, v;
    uint64_t data_off, data_end, ends[3];
    size_t n, i, bad_n = 0;
    unsigned long wrong = 0;
    wr_init(&d, big);
    put_comm(&d, &ev.attr, 1, 2, "a", &tr);
    ends[0] = d.n;
    put_comm(&d, &ev.attr, 3, 4, "bbbbbbbbbbbb", &tr);
    ends[1] = d.n;
    put_header_only(&d, PERFDATA_RECORD_FINISHED_ROUND, 8);
    ends[2] = d.n;
    full = build_file(big, &ev, 1, &d, &o);
    if (!CHECK_EQ_U64(perfdata_open(&f, full.p, full.n, events, 2, &err), PERFDATA_OK)) return;
    CHECK_EQ_U64(f.flags & PERFDATA_FILE_CUT, 0);
    CHECK_EQ_U64(f.data_missing, 0);
    CHECK_EQ_U64(perfdata_feature_section(&f, PERFDATA_FEAT_HOSTNAME, &host, &err), PERFDATA_OK);
    data_off = f.data.offset;
    data_end = data_off + f.data.size;
    for (i = 0; i < 3; i++) ends[i] += data_off;
    for (n = 104; n < full.n; n++) {
        blob cut = blob_copy(full.p, n);
        perfdata_cursor c;
        perfdata_ordered ord;
        perfdata_order_entry window[8];
        perfdata_record rec;
        perfdata_status st = perfdata_open(&f, cut.p, cut.n, events, 2, &err);
        size_t whole = 0, got = 0, got_ordered = 0, count = 9;
        int ok = 1;
        uint64_t have = n < data_end ? n : data_end;
        for (i = 0; i < 3; i++) whole += ends[i] <= n;
        if (n < data_off) {
            ok = st == PERFDATA_ERR_TRUNCATED && err.offset == n && err.needed == data_off - n &&
                 perfdata_count_events(cut.p, cut.n, &count, &err) == PERFDATA_ERR_TRUNCATED;
        } else if (st != PERFDATA_OK) {
            ok = 0;
        } else {
            ok = (f.flags & PERFDATA_FILE_CUT) && f.data.size == have - data_off && f.data_missing == data_end - have &&
                 f.nr_events == 1 && perfdata_count_events(cut.p, cut.n, &count, &err) == PERFDATA_OK && count == 1;
            perfdata_cursor_init(&f, &c);
            while ((st = perfdata_next_record(&f, &c, &rec, &err)) == PERFDATA_OK)
                ok &= rec.offset + rec.size == ends[got++];
            if (n >= data_end) ok &= st == PERFDATA_END;
            else ok &= st == PERFDATA_ERR_TRUNCATED && err.offset == n && err.needed == data_end - n &&
                       perfdata_next_record(&f, &c, &rec, &err) == PERFDATA_ERR_TRUNCATED && err.offset == n;
            ok &= got == whole;
            perfdata_cursor_init(&f, &c);
            perfdata_ordered_init(&ord, &c, window, 8);
            while ((st = perfdata_ordered_next(&f, &ord, &rec, &err)) == PERFDATA_OK) got_ordered++;
            ok &= got_ordered == whole && st == (n >= data_end ? PERFDATA_END : PERFDATA_ERR_TRUNCATED);
            /* HOSTNAME is read when it is whole; a feature cut off is TRUNCATED */
            st = perfdata_feature_section(&f, PERFDATA_FEAT_HOSTNAME, &v, &err);
            if (host.offset + host.n <= n) ok &= st == PERFDATA_OK && v.n == host.n;
            else ok &= st == PERFDATA_ERR_TRUNCATED && err.feature == PERFDATA_FEAT_HOSTNAME && err.needed > 0;
            ok &= perfdata_feature_section(&f, TEST_FEAT_UNKNOWN2, &v, &err) == PERFDATA_ERR_TRUNCATED && v.n == 0;
        }
        if (!ok && !wrong++) bad_n = n;
        free(cut.p);
    }
    CHECK_EQ_U64(wrong, 0);
    CHECK_EQ_U64(bad_n, 0); /* the first length that went wrong */

    /* a cut on a record boundary inside the declared data: TRUNCATED, not END */
    if (CHECK_EQ_U64(perfdata_open(&f, full.p, (size_t)ends[0], events, 2, &err), PERFDATA_OK)) {
        perfdata_cursor c;
        perfdata_record rec;
        perfdata_cursor_init(&f, &c);
        CHECK_EQ_U64(perfdata_next_record(&f, &c, &rec, &err), PERFDATA_OK);
        CHECK_EQ_U64(perfdata_next_record(&f, &c, &rec, &err), PERFDATA_ERR_TRUNCATED);
        CHECK_EQ_U64(err.offset, ends[0]);
        CHECK_EQ_U64(err.needed, data_end - ends[0]);
        CHECK_EQ_U64(err.record_type, 0);
        CHECK_EQ_U64(f.data_missing, data_end - ends[0]);
    }
    /* inside a record: the record's type is named, the offset is the cut */
    if (CHECK_EQ_U64(perfdata_open(&f, full.p, (size_t)ends[0] + 9, events, 2, &err), PERFDATA_OK)) {
        perfdata_cursor c;
        perfdata_record rec;
        perfdata_cursor_init(&f, &c);
        CHECK_EQ_U64(perfdata_next_record(&f, &c, &rec, &err), PERFDATA_OK);
        CHECK_EQ_U64(perfdata_next_record(&f, &c, &rec, &err), PERFDATA_ERR_TRUNCATED);
        CHECK_EQ_U64(err.offset, ends[0] + 9);
        CHECK_EQ_U64(err.record_type, PERFDATA_RECORD_COMM);
    }
    /* the file header itself cut: an error */
    CHECK_EQ_U64(perfdata_open(&f, full.p, 100, events, 2, &err), PERFDATA_ERR_TRUNCATED);
    CHECK_EQ_U64(err.needed, 4);
    free(full.p);
    wr_free(&d);
}

/* Not cut but malformed: a data section whose end overflows, and in a whole
   file a feature section outside it, stay MALFORMED; so does an
   overflowing feature section of a cut file. */
ORDER_TEST(open_malformed_not_cut) {
    tevent ev = decoder_event();
    tsid tr = std_trailer();
    wr d, w;
    blob img;
    file_opts o = default_opts();
    perfdata_file f;
    perfdata_event events[2];
    perfdata_error err;
    perfdata_view v;
    uint64_t index_off;
    wr_init(&d, big);
    put_comm(&d, &ev.attr, 1, 2, "a", &tr);
    img = build_file(big, &ev, 1, &d, &o);
    wr_init(&w, big);
    if (!CHECK_EQ_U64(perfdata_open(&f, img.p, img.n, events, 2, &err), PERFDATA_OK)) return;
    index_off = f.feature_index.offset;
    /* HOSTNAME is the second slot: point it far past the end */
    put64(&w, 0x1818181818181818ull);
    memcpy(img.p + index_off + 16, w.buf, 8);
    CHECK_EQ_U64(perfdata_open(&f, img.p, img.n, events, 2, &err), PERFDATA_OK);
    CHECK_EQ_U64(f.flags & PERFDATA_FILE_CUT, 0);
    CHECK_EQ_U64(perfdata_feature_section(&f, PERFDATA_FEAT_HOSTNAME, &v, &err), PERFDATA_ERR_MALFORMED);
    CHECK_EQ_U64(v.offset, 0x1818181818181818ull);
    /* cut inside OSRELEASE: the file is cut, HOSTNAME's overflowing range is still MALFORMED */
    w.n = 0;
    put64(&w, ~0ull);
    memcpy(img.p + index_off + 24, w.buf, 8);
    CHECK_EQ_U64(perfdata_open(&f, img.p, img.n - 20, events, 2, &err), PERFDATA_OK);
    CHECK_EQ_U64(f.flags & PERFDATA_FILE_CUT, PERFDATA_FILE_CUT);
    CHECK_EQ_U64(perfdata_feature_section(&f, PERFDATA_FEAT_HOSTNAME, &v, &err), PERFDATA_ERR_MALFORMED);
    CHECK_EQ_U64(perfdata_feature_section(&f, TEST_FEAT_UNKNOWN2, &v, &err), PERFDATA_ERR_TRUNCATED);
    /* a data size whose end overflows */
    w.n = 0;
    put64(&w, ~0ull - 8);
    memcpy(img.p + 48, w.buf, 8);
    CHECK_EQ_U64(perfdata_open(&f, img.p, img.n, events, 2, &err), PERFDATA_ERR_MALFORMED);
    CHECK_EQ_U64(err.offset, 40);
    wr_free(&w);
    free(img.p);
    wr_free(&d);
}

/* The feature bitmap, the index slot per set bit (an unknown bit included)
   and string features. */
ORDER_TEST(features) {
    tevent ev[2];
    wr d;
    fx x;
    perfdata_view v;
    perfdata_error err;
    two_events(ev);
    wr_init(&d, big);
    if (CHECK(fx_open_file(&x, big, ev, 2, &d))) {
        CHECK_EQ_U64(x.f.features[0], (1ull << PERFDATA_FEAT_BUILD_ID) | (1ull << PERFDATA_FEAT_HOSTNAME) |
                                          (1ull << PERFDATA_FEAT_OSRELEASE));
        CHECK_EQ_U64(x.f.features[1], 1ull << (TEST_FEAT_UNKNOWN - 64));
        CHECK_EQ_U64(x.f.features[2], 0);
        CHECK_EQ_U64(x.f.features[3], 1ull << (TEST_FEAT_UNKNOWN2 - 192));
        CHECK_EQ_U64(perfdata_has_feature(&x.f, PERFDATA_FEAT_BUILD_ID), 1);
        CHECK_EQ_U64(perfdata_has_feature(&x.f, PERFDATA_FEAT_HOSTNAME), 1);
        CHECK_EQ_U64(perfdata_has_feature(&x.f, PERFDATA_FEAT_OSRELEASE), 1);
        CHECK_EQ_U64(perfdata_has_feature(&x.f, TEST_FEAT_UNKNOWN), 1);
        CHECK_EQ_U64(perfdata_has_feature(&x.f, PERFDATA_FEAT_TRACING_DATA), 0);
        CHECK_EQ_U64(perfdata_has_feature(&x.f, PERFDATA_FEAT_VERSION), 0);
        CHECK_EQ_U64(perfdata_has_feature(&x.f, TEST_FEAT_UNKNOWN2), 1);
        CHECK_EQ_U64(perfdata_has_feature(&x.f, 255), 0);
        CHECK_EQ_U64(perfdata_has_feature(&x.f, 256), 0);
        CHECK_EQ_U64(x.f.feature_index.offset, x.f.data.offset + x.f.data.size);
        CHECK_EQ_U64(x.f.feature_index.n, 5 * 16);
        CHECK_EQ_U64(perfdata_feature_string(&x.f, PERFDATA_FEAT_HOSTNAME, &v, &err), PERFDATA_OK);
        CHECK(view_str(v, TEST_HOSTNAME));
        CHECK_EQ_U64(perfdata_feature_string(&x.f, PERFDATA_FEAT_OSRELEASE, &v, &err), PERFDATA_OK);
        CHECK(view_str(v, TEST_OSRELEASE));
        CHECK_EQ_U64(perfdata_feature_section(&x.f, PERFDATA_FEAT_BUILD_ID, &v, &err), PERFDATA_OK);
        CHECK_EQ_U64(v.n, 0);
        CHECK_EQ_U64(perfdata_feature_section(&x.f, TEST_FEAT_UNKNOWN, &v, &err), PERFDATA_OK);
        CHECK(view_is(v, unknown_feature_bytes, 8));
        CHECK_EQ_U64(perfdata_feature_section(&x.f, TEST_FEAT_UNKNOWN2, &v, &err), PERFDATA_OK);
        CHECK(view_is(v, unknown2_feature_bytes, 4));
        CHECK_EQ_U64(perfdata_feature_section(&x.f, PERFDATA_FEAT_HOSTNAME, &v, &err), PERFDATA_OK);
        CHECK_EQ_U64(v.n, 4 + 64);
        CHECK_EQ_U64(perfdata_feature_string(&x.f, PERFDATA_FEAT_VERSION, &v, &err), PERFDATA_ERR_BAD_ARGUMENT);
        CHECK_EQ_U64(err.feature, PERFDATA_FEAT_VERSION);
        CHECK_EQ_U64(v.n, 0);
    }
    fx_free(&x);

    /* a bitmap stored as a 32-bit writer's unsigned long[8] reads the same */
    {
        file_opts o = default_opts();
        o.bitmap_u32 = 1;
        if (CHECK(fx_open_blob(&x, build_file(big, ev, 2, &d, &o)))) {
            CHECK_EQ_U64(perfdata_has_feature(&x.f, PERFDATA_FEAT_HOSTNAME), 1);
            CHECK_EQ_U64(perfdata_has_feature(&x.f, TEST_FEAT_UNKNOWN), 1);
            CHECK_EQ_U64(perfdata_has_feature(&x.f, TEST_FEAT_UNKNOWN2), 1);
            CHECK_EQ_U64(perfdata_feature_section(&x.f, TEST_FEAT_UNKNOWN2, &v, &err), PERFDATA_OK);
            CHECK(view_is(v, unknown2_feature_bytes, 4));
            CHECK_EQ_U64(perfdata_feature_string(&x.f, PERFDATA_FEAT_HOSTNAME, &v, &err), PERFDATA_OK);
            CHECK(view_str(v, TEST_HOSTNAME));
        }
        fx_free(&x);
    }
    wr_free(&d);
}

/* ===================================================================== */
/*                               attr flags                              */
/* ===================================================================== */

/* The flags bit-field of a big-endian file (laid out by a big-endian
   compiler) reads as the same PERFDATA_ATTR_FLAG_* value as the
   little-endian file, precise_ip 0..3 included. */
TEST(attr_flags_big_endian) {
    unsigned precise;
    for (precise = 0; precise < 4; precise++) {
        uint64_t flags = PERFDATA_ATTR_FLAG_SAMPLE_ID_ALL | PERFDATA_ATTR_FLAG_FREQ | PERFDATA_ATTR_FLAG_MMAP2 |
                         PERFDATA_ATTR_FLAG_COMM_EXEC | PERFDATA_ATTR_FLAG_DISABLED |
                         PERFDATA_ATTR_FLAG_EXCLUDE_KERNEL | PERFDATA_ATTR_FLAG_DEFER_OUTPUT |
                         ((uint64_t)precise << PERFDATA_ATTR_PRECISE_IP_SHIFT);
        uint64_t decoded[2] = {0, 0};
        unsigned got_precise[2] = {9, 9};
        int big;
        for (big = 0; big <= 1; big++) {
            tevent ev;
            wr d;
            fx x;
            test_set_context(order_name(big));
            ev = make_event(base_attr(PERFDATA_SAMPLE_IP, flags), 1, 0);
            wr_init(&d, big);
            if (CHECK(fx_open_file(&x, big, &ev, 1, &d))) {
                const unsigned char *fl = x.f.events[0].attr_bytes.p + 40;
                decoded[big] = x.f.events[0].attr.flags;
                got_precise[big] = perfdata_attr_precise_ip(&x.f.events[0].attr);
                CHECK_EQ_U64(decoded[big], flags);
                CHECK_EQ_U64(got_precise[big], precise);
                CHECK_EQ_U64((decoded[big] & PERFDATA_ATTR_FLAG_SAMPLE_ID_ALL) != 0, 1);
                CHECK_EQ_U64((decoded[big] & PERFDATA_ATTR_FLAG_FREQ) != 0, 1);
                CHECK_EQ_U64((decoded[big] & PERFDATA_ATTR_FLAG_MMAP2) != 0, 1);
                CHECK_EQ_U64((decoded[big] & PERFDATA_ATTR_FLAG_COMM_EXEC) != 0, 1);
                CHECK_EQ_U64((decoded[big] & PERFDATA_ATTR_FLAG_INHERIT) != 0, 0);
                /* the writer itself: disabled is bit 7 of byte 0 on BE, bit 0 on
                   LE; precise_ip's high bit is byte 1 bit 0 (BE) / byte 2 bit 0 (LE) */
                CHECK_EQ_U64(fl[0] & (big ? 0x80 : 0x01), big ? 0x80 : 0x01);
                if (big) {
                    CHECK_EQ_U64(fl[1] & 0x01, (precise >> 1) & 1);
                    CHECK_EQ_U64(fl[2] >> 7, precise & 1);
                } else {
                    CHECK_EQ_U64(fl[1] >> 7, precise & 1);
                    CHECK_EQ_U64(fl[2] & 0x01, (precise >> 1) & 1);
                }
            }
            fx_free(&x);
            /* the same attr in a pipe HEADER_ATTR record */
            if (CHECK(fx_open_pipe(&x, big, &ev, 1, &d))) {
                perfdata_record rec;
                if (NEXT(&x, &rec, PERFDATA_RECORD_HEADER_ATTR)) {
                    CHECK_EQ_U64(x.f.events[0].attr.flags, flags);
                    CHECK_EQ_U64(perfdata_attr_precise_ip(&x.f.events[0].attr), precise);
                }
            }
            fx_free(&x);
            wr_free(&d);
        }
        test_set_context("");
        CHECK_EQ_U64(decoded[0], decoded[1]);
        CHECK_EQ_U64(got_precise[0], got_precise[1]);
    }
}

/* ===================================================================== */
/*                               iteration                               */
/* ===================================================================== */

/* A bare record header (type, misc, size) with no body. */
static void put_header_only(wr *w, uint32_t type, uint16_t size) {
    put32(w, type);
    put16(w, 0);
    put16(w, size);
}

/* A record size below 8 (0 and 4) ends iteration with MALFORMED at that
   record, and keeps returning it: no infinite loop on a zero size. */
ORDER_TEST(iter_size_below_8) {
    static const uint16_t sizes[] = {0, 4, 7};
    size_t k;
    for (k = 0; k < 3; k++) {
        tevent ev = decoder_event();
        tsid tr = std_trailer();
        wr d;
        fx x;
        perfdata_record rec;
        size_t comm_size;
        wr_init(&d, big);
        put_comm(&d, &ev.attr, 1, 2, "ok", &tr);
        comm_size = d.n;
        put_header_only(&d, PERFDATA_RECORD_COMM, sizes[k]);
        put_comm(&d, &ev.attr, 1, 2, "unreachable", &tr);
        if (CHECK(fx_open_file(&x, big, &ev, 1, &d))) {
            int i, ok_after = 0;
            CHECK(NEXT(&x, &rec, PERFDATA_RECORD_COMM));
            CHECK_EQ_U64(perfdata_next_record(&x.f, &x.cur, &rec, &x.err), PERFDATA_ERR_MALFORMED);
            CHECK_EQ_U64(x.err.code, PERFDATA_ERR_MALFORMED);
            CHECK_EQ_U64(x.err.offset, x.f.data.offset + comm_size);
            CHECK_EQ_U64(x.err.record_type, PERFDATA_RECORD_COMM);
            for (i = 0; i < 100; i++)
                if (perfdata_next_record(&x.f, &x.cur, &rec, &x.err) != PERFDATA_ERR_MALFORMED) ok_after++;
            CHECK_EQ_U64(ok_after, 0);
            CHECK_EQ_U64(x.cur.priv.stopped, PERFDATA_ERR_MALFORMED);
        }
        fx_free(&x);
        wr_free(&d);
    }
}

/* A record running past the end of the data section (though the file goes
   on with the feature index), and a partial record header: TRUNCATED. */
ORDER_TEST(iter_truncated) {
    int variant;
    for (variant = 0; variant < 2; variant++) {
        tevent ev = decoder_event();
        tsid tr = std_trailer();
        wr d;
        fx x;
        perfdata_record rec;
        size_t comm_size;
        wr_init(&d, big);
        put_comm(&d, &ev.attr, 1, 2, "ok", &tr);
        comm_size = d.n;
        if (variant == 0) {
            put_header_only(&d, PERFDATA_RECORD_LOST, 64);
            put64(&d, 1); /* 16 of the 64 bytes */
        } else {
            put32(&d, PERFDATA_RECORD_LOST); /* 5 bytes of a header */
            put8(&d, 0);
        }
        if (CHECK(fx_open_file(&x, big, &ev, 1, &d))) {
            CHECK(NEXT(&x, &rec, PERFDATA_RECORD_COMM));
            CHECK_EQ_U64(perfdata_next_record(&x.f, &x.cur, &rec, &x.err), PERFDATA_ERR_TRUNCATED);
            CHECK_EQ_U64(x.err.offset, x.f.data.offset + comm_size);
            CHECK_EQ_U64(perfdata_next_record(&x.f, &x.cur, &rec, &x.err), PERFDATA_ERR_TRUNCATED);
        }
        fx_free(&x);
        wr_free(&d);
    }
}

/* Records of exactly 8 bytes, and unknown types (kernel range and tool
   range) yielded raw with their bodies; iteration continues after them. */
ORDER_TEST(iter_small_and_unknown) {
    tevent ev = decoder_event();
    tsid tr = std_trailer();
    wr d;
    fx x;
    perfdata_record rec;
    size_t at;
    static const unsigned char body[16] = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
    wr_init(&d, big);
    at = rec_begin(&d, PERFDATA_RECORD_FINISHED_ROUND, 0);
    rec_end(&d, at);
    at = rec_begin(&d, PERFDATA_RECORD_FINISHED_INIT, 0);
    rec_end(&d, at);
    at = rec_begin(&d, 12345, 0x1234);
    put_bytes(&d, body, 16);
    rec_end(&d, at);
    at = rec_begin(&d, 63, 0);
    put_bytes(&d, body, 8);
    rec_end(&d, at);
    put_comm(&d, &ev.attr, 1, 2, "after", &tr);
    if (CHECK(fx_open_file(&x, big, &ev, 1, &d))) {
        if (NEXT(&x, &rec, PERFDATA_RECORD_FINISHED_ROUND)) {
            CHECK_EQ_U64(rec.size, 8);
            CHECK_EQ_U64(rec.body.n, 0);
        }
        if (NEXT(&x, &rec, PERFDATA_RECORD_FINISHED_INIT)) CHECK_EQ_U64(rec.size, 8);
        if (NEXT(&x, &rec, 12345)) {
            CHECK_EQ_U64(rec.misc, 0x1234);
            CHECK_EQ_U64(rec.size, 24);
            CHECK(view_is(rec.body, body, 16));
            CHECK_EQ_U64(rec.bytes.n, 24);
            CHECK_EQ_U64(rec.extra.n, 0);
            CHECK(strcmp(perfdata_record_name(rec.type), "UNKNOWN") == 0);
        }
        if (NEXT(&x, &rec, 63)) CHECK(view_is(rec.body, body, 8));
        if (NEXT(&x, &rec, PERFDATA_RECORD_COMM)) {
            perfdata_comm c;
            CHECK_EQ_U64(perfdata_decode_comm(&x.f, &rec, &c, NULL), PERFDATA_OK);
            CHECK(view_str(c.comm, "after"));
        }
        CHECK_EQ_U64(perfdata_next_record(&x.f, &x.cur, &rec, &x.err), PERFDATA_END);
    }
    CHECK(strcmp(perfdata_record_name(PERFDATA_RECORD_MMAP2), "MMAP2") == 0);
    CHECK(strcmp(perfdata_record_name(PERFDATA_RECORD_SCHEDSTAT_DOMAIN), "SCHEDSTAT_DOMAIN") == 0);
    fx_free(&x);
    wr_free(&d);
}

/* HEADER_TRACING_DATA (header.size 12) and AUXTRACE carry payloads outside
   header.size: stepped over in file and pipe mode, exposed in rec.extra and
   by their decoders, and the record after them is found. */
ORDER_TEST(iter_out_of_band) {
    int pipe;
    for (pipe = 0; pipe <= 1; pipe++) {
        tevent ev = decoder_event();
        tsid tr = std_trailer();
        wr d;
        fx x;
        perfdata_record rec;
        size_t at, i;
        unsigned char tracing[24], aux[40];
        for (i = 0; i < 24; i++) tracing[i] = (unsigned char)(0x17 + i);
        for (i = 0; i < 40; i++) aux[i] = (unsigned char)(0xa0 + i);
        wr_init(&d, big);
        at = rec_begin(&d, PERFDATA_RECORD_HEADER_TRACING_DATA, 0);
        put32(&d, 24);
        rec_end(&d, at);
        put_bytes(&d, tracing, 24);
        at = rec_begin(&d, PERFDATA_RECORD_AUXTRACE, 0);
        put64(&d, 40); put64(&d, 0x2000); put64(&d, 0x1234);
        put32(&d, 2); put32(&d, 77); put32(&d, 1); put32(&d, 0);
        rec_end(&d, at);
        put_bytes(&d, aux, 40);
        put_comm(&d, &ev.attr, 0x51, 0x52, "next", &tr);
        if (CHECK(pipe ? fx_open_pipe(&x, big, &ev, 1, &d) : fx_open_file(&x, big, &ev, 1, &d))) {
            uint64_t base;
            size_t n;
            CHECK(pipe ? fx_next_skip_attrs(&x, &rec) : fx_next(&x, &rec));
            base = pipe ? rec.offset : x.f.data.offset; /* pipe: after the HEADER_ATTR */
            if (pipe) CHECK_EQ_U64(base, 16 + 8 + PERFDATA_ATTR_SIZE_VER8 + 16);
            if (CHECK_EQ_U64(rec.type, PERFDATA_RECORD_HEADER_TRACING_DATA)) {
                perfdata_tracing_data td;
                CHECK_EQ_U64(rec.offset, base);
                CHECK_EQ_U64(rec.size, 12);
                CHECK(view_is(rec.extra, tracing, 24));
                CHECK_EQ_U64(rec.extra.offset, base + 12);
                CHECK_EQ_U64(perfdata_decode_tracing_data(&x.f, &rec, &td, NULL), PERFDATA_OK);
                CHECK_EQ_U64(td.size, 24);
                CHECK(view_is(td.data, tracing, 24));
            }
            if (NEXT(&x, &rec, PERFDATA_RECORD_AUXTRACE)) {
                perfdata_auxtrace a;
                CHECK_EQ_U64(rec.offset, base + 12 + 24);
                CHECK(view_is(rec.extra, aux, 40));
                CHECK_EQ_U64(perfdata_decode_auxtrace(&x.f, &rec, &a, NULL), PERFDATA_OK);
                CHECK_EQ_U64(a.size, 40);
                CHECK_EQ_U64(a.offset, 0x2000);
                CHECK_EQ_U64(a.reference, 0x1234);
                CHECK_EQ_U64(a.idx, 2);
                CHECK_EQ_U64(a.tid, 77);
                CHECK_EQ_U64(a.cpu, 1);
                CHECK(view_is(a.data, aux, 40));
            }
            if (NEXT(&x, &rec, PERFDATA_RECORD_COMM)) {
                perfdata_comm c;
                CHECK_EQ_U64(rec.offset, base + 12 + 24 + 48 + 40);
                CHECK_EQ_U64(perfdata_decode_comm(&x.f, &rec, &c, NULL), PERFDATA_OK);
                CHECK_EQ_U64(c.pid, 0x51);
                CHECK(view_str(c.comm, "next"));
                check_std_trailer(&x.f, &rec);
            }
            CHECK_EQ_U64(perfdata_next_record(&x.f, &x.cur, &rec, &x.err), PERFDATA_END);
            if (pipe) {
                CHECK_EQ_U64(perfdata_count_events(x.img.p, x.img.n, &n, NULL), PERFDATA_OK);
                CHECK_EQ_U64(n, 1);
            }
        }
        fx_free(&x);
        wr_free(&d);
    }
    /* a payload cut short: TRUNCATED, not a read past the end */
    {
        wr cut;
        perfdata_file f;
        perfdata_cursor c;
        perfdata_record r;
        perfdata_error err;
        blob b;
        size_t at;
        int k;
        memset(&f, 0, sizeof f);
        for (k = 0; k < 2; k++) {
            wr_init(&cut, big);
            if (k == 0) {
                at = rec_begin(&cut, PERFDATA_RECORD_HEADER_TRACING_DATA, 0);
                put32(&cut, 24);
                rec_end(&cut, at);
                put_fill(&cut, 0x17, 23);
            } else {
                at = rec_begin(&cut, PERFDATA_RECORD_AUXTRACE, 0);
                put64(&cut, 40); put64(&cut, 0); put64(&cut, 0);
                put32(&cut, 0); put32(&cut, 0); put32(&cut, 0); put32(&cut, 0);
                rec_end(&cut, at);
                put_fill(&cut, 0xa0, 39);
            }
            b = blob_copy(cut.buf, cut.n);
            perfdata_cursor_init_range(&c, b.p, b.n, 0, big);
            CHECK_EQ_U64(perfdata_next_record(&f, &c, &r, &err), PERFDATA_ERR_TRUNCATED);
            free(b.p);
            wr_free(&cut);
        }
    }
}

/* perfdata_cursor_init_range over an arbitrary (unaligned) byte range:
   offsets reported from the given base, decoders work, a range ending
   inside a record is TRUNCATED, a NULL range is empty. */
ORDER_TEST(cursor_init_range) {
    tevent ev = decoder_event();
    tsid tr = std_trailer();
    wr d;
    fx x;
    perfdata_cursor c;
    perfdata_record rec;
    perfdata_error err;
    size_t first;
    unsigned char *buf;
    wr_init(&d, big);
    if (!CHECK(fx_open_file(&x, big, &ev, 1, &d))) {
        fx_free(&x);
        wr_free(&d);
        return;
    }
    put_comm(&d, &ev.attr, 0x61, 0x62, "one", &tr);
    first = d.n;
    put_comm(&d, &ev.attr, 0x63, 0x64, "two", &tr);
    buf = (unsigned char *)malloc(d.n + 5);
    if (!buf) abort();
    memset(buf, 0xff, 5);
    memcpy(buf + 5, d.buf, d.n);
    perfdata_cursor_init_range(&c, buf + 5, d.n, 0x5000, big);
    if (CHECK_EQ_U64(perfdata_next_record(&x.f, &c, &rec, &err), PERFDATA_OK)) {
        perfdata_comm cm;
        CHECK_EQ_U64(rec.offset, 0x5000);
        CHECK_EQ_U64(perfdata_decode_comm(&x.f, &rec, &cm, NULL), PERFDATA_OK);
        CHECK_EQ_U64(cm.tid, 0x62);
        CHECK(view_str(cm.comm, "one"));
    }
    if (CHECK_EQ_U64(perfdata_next_record(&x.f, &c, &rec, &err), PERFDATA_OK)) {
        perfdata_comm cm;
        CHECK_EQ_U64(rec.offset, 0x5000 + first);
        CHECK_EQ_U64(rec.body.offset, 0x5000 + first + 8);
        CHECK_EQ_U64(perfdata_decode_comm(&x.f, &rec, &cm, NULL), PERFDATA_OK);
        CHECK(view_str(cm.comm, "two"));
        check_std_trailer(&x.f, &rec);
    }
    CHECK_EQ_U64(perfdata_next_record(&x.f, &c, &rec, &err), PERFDATA_END);

    perfdata_cursor_init_range(&c, buf + 5, d.n - 3, 0, big);
    CHECK_EQ_U64(perfdata_next_record(&x.f, &c, &rec, &err), PERFDATA_OK);
    CHECK_EQ_U64(perfdata_next_record(&x.f, &c, &rec, &err), PERFDATA_ERR_TRUNCATED);

    perfdata_cursor_init_range(&c, NULL, 10, 0, big);
    CHECK_EQ_U64(perfdata_next_record(&x.f, &c, &rec, &err), PERFDATA_END);
    free(buf);
    fx_free(&x);
    wr_free(&d);
}

/* ===================================================================== */
/*                                samples                                */
/* ===================================================================== */

/* Scalar fields and views of two decoded samples are the same. */
static void check_same_sample(const perfdata_sample *a, const perfdata_sample *b) {
    size_t i;
    CHECK_EQ_U64(a->sample_type, b->sample_type);
    CHECK_EQ_U64(a->identifier, b->identifier);
    CHECK_EQ_U64(a->ip, b->ip);
    CHECK_EQ_U64(a->pid, b->pid);
    CHECK_EQ_U64(a->tid, b->tid);
    CHECK_EQ_U64(a->time, b->time);
    CHECK_EQ_U64(a->addr, b->addr);
    CHECK_EQ_U64(a->id, b->id);
    CHECK_EQ_U64(a->stream_id, b->stream_id);
    CHECK_EQ_U64(a->cpu, b->cpu);
    CHECK_EQ_U64(a->cpu_reserved, b->cpu_reserved);
    CHECK_EQ_U64(a->period, b->period);
    CHECK_EQ_U64(a->read.nr, b->read.nr);
    CHECK_EQ_U64(a->read.time_enabled, b->read.time_enabled);
    CHECK_EQ_U64(a->read.single.value, b->read.single.value);
    CHECK_EQ_U64(a->read.single.id, b->read.single.id);
    CHECK_EQ_U64(a->read.single.lost, b->read.single.lost);
    CHECK_EQ_U64(a->callchain.count, b->callchain.count);
    for (i = 0; i < a->callchain.count; i++)
        CHECK_EQ_U64(perfdata_u64s_at(&a->callchain, i), perfdata_u64s_at(&b->callchain, i));
    CHECK(a->raw.n == b->raw.n && memcmp(a->raw.p, b->raw.p, a->raw.n) == 0);
    CHECK_EQ_U64(a->branch_stack.nr, b->branch_stack.nr);
    for (i = 0; i < a->branch_stack.nr; i++) {
        perfdata_branch_entry x = perfdata_branch_at(&a->branch_stack, i), y = perfdata_branch_at(&b->branch_stack, i);
        CHECK_EQ_U64(x.from, y.from);
        CHECK_EQ_U64(x.to, y.to);
        CHECK_EQ_U64(x.flags, y.flags);
    }
    CHECK_EQ_U64(a->regs_user.values.count, b->regs_user.values.count);
    for (i = 0; i < a->regs_user.values.count; i++)
        CHECK_EQ_U64(perfdata_u64s_at(&a->regs_user.values, i), perfdata_u64s_at(&b->regs_user.values, i));
    CHECK(a->stack_user.n == b->stack_user.n && memcmp(a->stack_user.p, b->stack_user.p, a->stack_user.n) == 0);
    CHECK_EQ_U64(a->weight, b->weight);
    CHECK_EQ_U64(a->ins_lat, b->ins_lat);
    CHECK_EQ_U64(a->p_stage_cyc, b->p_stage_cyc);
    CHECK_EQ_U64(a->data_src, b->data_src);
    CHECK_EQ_U64(a->transaction, b->transaction);
    CHECK_EQ_U64(a->regs_intr.values.count, b->regs_intr.values.count);
    CHECK_EQ_U64(a->phys_addr, b->phys_addr);
    CHECK_EQ_U64(a->cgroup, b->cgroup);
    CHECK_EQ_U64(a->data_page_size, b->data_page_size);
    CHECK_EQ_U64(a->code_page_size, b->code_page_size);
    CHECK(a->aux.n == b->aux.n && memcmp(a->aux.p, b->aux.p, a->aux.n) == 0);
}

/* Every sample field at once, in kernel order (WEIGHT_STRUCT, then again
   with plain WEIGHT): each decoded to its written value, and the
   little-endian and big-endian files decode identically. */
TEST(sample_all_fields) {
    static const uint64_t weights[2] = {PERFDATA_SAMPLE_WEIGHT_STRUCT, PERFDATA_SAMPLE_WEIGHT};
    size_t k;
    for (k = 0; k < 2; k++) {
        perfdata_attr a = all_fields_attr(weights[k]);
        tsample ts;
        fx x[2];
        perfdata_record rec[2];
        perfdata_sample s[2];
        int big, ok = 1;
        sample_defaults(&ts);
        for (big = 0; big <= 1; big++) {
            test_set_context(order_name(big));
            if (!CHECK_EQ_U64(one_sample(&x[big], big, &a, &ts, &rec[big], &s[big]), PERFDATA_OK)) {
                ok = 0;
                continue;
            }
            check_sample(&s[big], &a, &ts, big);
            /* nothing left over: the record ends with the AUX data */
            CHECK_EQ_U64(s[big].aux.offset + s[big].aux.n, rec[big].offset + rec[big].size);
        }
        test_set_context("");
        if (ok) check_same_sample(&s[0], &s[1]);
        fx_free(&x[0]);
        fx_free(&x[1]);
    }
}

/* READ without GROUP: value, enabled, running, id, lost, then the next
   field (CALLCHAIN) right after. */
TEST(sample_read_single) {
    perfdata_attr a = base_attr(PERFDATA_SAMPLE_IP | PERFDATA_SAMPLE_READ | PERFDATA_SAMPLE_CALLCHAIN, 0);
    tsample ts;
    sample_defaults(&ts);
    a.read_format = PERFDATA_FORMAT_TOTAL_TIME_ENABLED | PERFDATA_FORMAT_TOTAL_TIME_RUNNING | PERFDATA_FORMAT_ID |
                    PERFDATA_FORMAT_LOST;
    check_sample_both_orders(&a, &ts);
    a.read_format = PERFDATA_FORMAT_TOTAL_TIME_RUNNING; /* value, running */
    check_sample_both_orders(&a, &ts);
}

static void group_values(tsample *ts, uint64_t nr) {
    uint64_t i;
    ts->read.nr = nr;
    for (i = 0; i < nr; i++) {
        ts->read.v[i].value = 0x0000100000000001ull * (i + 1);
        ts->read.v[i].id = 0x4200 + i;
        ts->read.v[i].lost = 0x10 + i;
    }
}

/* READ with GROUP, 3 members, without LOST: nr, enabled, running, then
   {value, id} per member; perfdata_read_at() walks them. */
TEST(sample_read_group) {
    perfdata_attr a = base_attr(PERFDATA_SAMPLE_TID | PERFDATA_SAMPLE_READ | PERFDATA_SAMPLE_PERIOD |
                                    PERFDATA_SAMPLE_CALLCHAIN,
                                0);
    tsample ts;
    sample_defaults(&ts);
    group_values(&ts, 3);
    a.read_format = PERFDATA_FORMAT_GROUP | PERFDATA_FORMAT_TOTAL_TIME_ENABLED |
                    PERFDATA_FORMAT_TOTAL_TIME_RUNNING | PERFDATA_FORMAT_ID;
    check_sample_both_orders(&a, &ts);
    a.read_format = PERFDATA_FORMAT_GROUP; /* bare values */
    check_sample_both_orders(&a, &ts);
}

/* READ with GROUP and LOST, 2 members: {value, id, lost} per member. */
TEST(sample_read_group_lost) {
    perfdata_attr a = base_attr(PERFDATA_SAMPLE_READ | PERFDATA_SAMPLE_CALLCHAIN, 0);
    tsample ts;
    sample_defaults(&ts);
    group_values(&ts, 2);
    a.read_format = PERFDATA_FORMAT_GROUP | PERFDATA_FORMAT_ID | PERFDATA_FORMAT_LOST;
    check_sample_both_orders(&a, &ts);
    a.read_format = PERFDATA_FORMAT_GROUP | PERFDATA_FORMAT_TOTAL_TIME_ENABLED | PERFDATA_FORMAT_LOST;
    check_sample_both_orders(&a, &ts);
}

/* CALLCHAIN with every context marker, and RAW with its size, bytes and
   byte order, followed by a field that must still line up. */
TEST(sample_callchain_raw) {
    perfdata_attr a = base_attr(PERFDATA_SAMPLE_CALLCHAIN | PERFDATA_SAMPLE_RAW | PERFDATA_SAMPLE_PHYS_ADDR, 0);
    tsample ts;
    sample_defaults(&ts);
    ts.nr_ips = 8;
    ts.ips[0] = PERFDATA_CONTEXT_HV;
    ts.ips[1] = PERFDATA_CONTEXT_KERNEL;
    ts.ips[2] = 0xffffffff81000001ull;
    ts.ips[3] = PERFDATA_CONTEXT_USER;
    ts.ips[4] = 0x401000;
    ts.ips[5] = PERFDATA_CONTEXT_USER_DEFERRED;
    ts.ips[6] = PERFDATA_CONTEXT_GUEST_KERNEL;
    ts.ips[7] = PERFDATA_CONTEXT_GUEST_USER;
    ts.raw_size = 20; /* 4 + 20 = 24 */
    {
        size_t i;
        for (i = 0; i < 20; i++) ts.raw[i] = (unsigned char)(0xf0 - i);
    }
    check_sample_both_orders(&a, &ts);
    CHECK_EQ_U64(PERFDATA_CONTEXT_MAX, (uint64_t)-4095);
}

/* BRANCH_STACK: without hw_idx, with hw_idx (HW_INDEX bit 17), with
   COUNTERS (bit 19); every flag field (in BE files the bit-field runs from
   the MSB down) decoded the same in both orders, and REGS_USER after it. */
TEST(sample_branch_stack) {
    static const uint64_t bsts[4] = {0, PERFDATA_BRANCH_HW_INDEX, PERFDATA_BRANCH_COUNTERS,
                                     PERFDATA_BRANCH_HW_INDEX | PERFDATA_BRANCH_COUNTERS | 0x3};
    size_t k;
    for (k = 0; k < 4; k++) {
        perfdata_attr a = base_attr(PERFDATA_SAMPLE_IP | PERFDATA_SAMPLE_BRANCH_STACK | PERFDATA_SAMPLE_REGS_USER, 0);
        tsample ts;
        sample_defaults(&ts);
        a.branch_sample_type = bsts[k];
        a.sample_regs_user = REGS_USER_MASK;
        ts.nr_br = 3;
        ts.br[2].from = 0x0102030405060708ull;
        ts.br[2].to = 0x0807060504030201ull;
        ts.br[2].mispred = 1; ts.br[2].predicted = 1; ts.br[2].in_tx = 1; ts.br[2].abort = 1;
        ts.br[2].cycles = 0xffff; ts.br[2].type = 15; ts.br[2].spec = 3; ts.br[2].new_type = 15; ts.br[2].privilege = 7;
        ts.br_counters[2] = 0xffffffffffffffffull;
        check_sample_both_orders(&a, &ts);
    }
    /* an empty stack */
    {
        perfdata_attr a = base_attr(PERFDATA_SAMPLE_BRANCH_STACK | PERFDATA_SAMPLE_PERIOD, 0);
        tsample ts;
        sample_defaults(&ts);
        a.branch_sample_type = PERFDATA_BRANCH_HW_INDEX | PERFDATA_BRANCH_COUNTERS;
        ts.nr_br = 0;
        check_sample_both_orders(&a, &ts);
    }
}

/* REGS_USER with ABI 64 and a sparse mask (perfdata_regs_get per mask bit),
   ABI NONE with no values, and REGS_INTR by its own mask. */
TEST(sample_regs) {
    perfdata_attr a = base_attr(PERFDATA_SAMPLE_REGS_USER | PERFDATA_SAMPLE_WEIGHT | PERFDATA_SAMPLE_REGS_INTR |
                                    PERFDATA_SAMPLE_PHYS_ADDR,
                                0);
    tsample ts;
    sample_defaults(&ts);
    a.sample_regs_user = REGS_USER_MASK;
    a.sample_regs_intr = REGS_INTR_MASK;
    check_sample_both_orders(&a, &ts);
    ts.regs_user_abi = PERFDATA_REGS_ABI_NONE;
    ts.regs_intr_abi = PERFDATA_REGS_ABI_32;
    check_sample_both_orders(&a, &ts);
    ts.regs_intr_abi = PERFDATA_REGS_ABI_NONE;
    check_sample_both_orders(&a, &ts);
}

/* STACK_USER: size, data (dyn_size of it exposed), dyn_size; and size 0
   with no dyn_size word (the next field must be read from right there). */
TEST(sample_stack_user) {
    perfdata_attr a = base_attr(PERFDATA_SAMPLE_STACK_USER | PERFDATA_SAMPLE_WEIGHT, 0);
    tsample ts;
    sample_defaults(&ts);
    a.sample_stack_user = 32;
    check_sample_both_orders(&a, &ts);
    ts.stack_dyn = 32;
    check_sample_both_orders(&a, &ts);
    ts.stack_size = 0;
    check_sample_both_orders(&a, &ts);
    /* dyn_size larger than size is malformed */
    {
        int big;
        for (big = 0; big <= 1; big++) {
            fx x;
            perfdata_record rec;
            perfdata_sample s;
            test_set_context(order_name(big));
            ts.stack_size = 16;
            ts.stack_dyn = 17;
            CHECK(one_sample(&x, big, &a, &ts, &rec, &s) != PERFDATA_OK);
            fx_free(&x);
        }
        test_set_context("");
    }
}

/* WEIGHT_STRUCT (var1_dw, ins_lat, p_stage_cyc) takes one u64 before
   DATA_SRC; plain WEIGHT keeps all 64 bits. */
TEST(sample_weight) {
    perfdata_attr a = base_attr(PERFDATA_SAMPLE_IP | PERFDATA_SAMPLE_WEIGHT_STRUCT | PERFDATA_SAMPLE_DATA_SRC |
                                    PERFDATA_SAMPLE_TRANSACTION,
                                0);
    tsample ts;
    int big;
    sample_defaults(&ts);
    check_sample_both_orders(&a, &ts);
    for (big = 0; big <= 1; big++) {
        fx x;
        perfdata_record rec;
        perfdata_sample s;
        test_set_context(order_name(big));
        if (CHECK_EQ_U64(one_sample(&x, big, &a, &ts, &rec, &s), PERFDATA_OK)) {
            CHECK_EQ_U64(s.weight, 0xdeadbeef);
            CHECK_EQ_U64(s.ins_lat, 0x1234);
            CHECK_EQ_U64(s.p_stage_cyc, 0x5678);
            CHECK_EQ_U64(s.weight_raw, 0x56781234deadbeefull);
            CHECK_EQ_U64(s.data_src, 0x0a0b0c0d0e0f1011ull);
            CHECK_EQ_U64(s.transaction, 0x0000abcd00000006ull);
        }
        fx_free(&x);
    }
    test_set_context("");
    a.sample_type = PERFDATA_SAMPLE_IP | PERFDATA_SAMPLE_WEIGHT | PERFDATA_SAMPLE_DATA_SRC;
    check_sample_both_orders(&a, &ts);
}

/* CGROUP is consumed (DATA_PAGE_SIZE after it reads right); AUX comes last,
   after both page sizes. */
TEST(sample_cgroup_pages_aux) {
    perfdata_attr a = base_attr(PERFDATA_SAMPLE_CGROUP | PERFDATA_SAMPLE_DATA_PAGE_SIZE, 0);
    tsample ts;
    sample_defaults(&ts);
    check_sample_both_orders(&a, &ts);
    a.sample_type = PERFDATA_SAMPLE_PHYS_ADDR | PERFDATA_SAMPLE_CGROUP | PERFDATA_SAMPLE_DATA_PAGE_SIZE |
                    PERFDATA_SAMPLE_CODE_PAGE_SIZE | PERFDATA_SAMPLE_AUX;
    check_sample_both_orders(&a, &ts);
    a.sample_type = PERFDATA_SAMPLE_CODE_PAGE_SIZE | PERFDATA_SAMPLE_AUX;
    ts.aux_size = 0;
    check_sample_both_orders(&a, &ts);
}

/* A record truncated to a body of this many bytes: an exact-size heap
   copy with header.size rewritten, wrapped in a perfdata_record. */
static unsigned char *truncated_copy(const perfdata_record *rec, size_t body, perfdata_record *out) {
    unsigned char *p = (unsigned char *)malloc(8 + body);
    if (!p) abort();
    memcpy(p, rec->bytes.p, 8 + body);
    store16(p + 6, (uint16_t)(8 + body), rec->big_endian);
    *out = *rec;
    out->size = (uint16_t)(8 + body);
    out->bytes.p = p;
    out->bytes.n = 8 + body;
    out->body.p = p + 8;
    out->body.n = body;
    out->extra.p = p + 8 + body;
    out->extra.n = 0;
    return p;
}

/* The all-fields sample cut at every byte length: iteration frames it, and
   decoding returns an error (never OK, never a read past the cut). */
ORDER_TEST(sample_truncated) {
    perfdata_attr a = all_fields_attr(PERFDATA_SAMPLE_WEIGHT_STRUCT);
    tsample ts;
    fx x;
    perfdata_record rec;
    perfdata_sample s;
    sample_defaults(&ts);
    if (CHECK_EQ_U64(one_sample(&x, big, &a, &ts, &rec, &s), PERFDATA_OK)) {
        size_t body;
        int decoded_ok = 0, not_framed = 0, as_ok = 0;
        for (body = 0; body < rec.body.n; body++) {
            perfdata_record cut, framed;
            perfdata_cursor c;
            perfdata_error err;
            unsigned char *p = truncated_copy(&rec, body, &cut);
            perfdata_cursor_init_range(&c, p, 8 + body, rec.offset, big);
            if (perfdata_next_record(&x.f, &c, &framed, &err) != PERFDATA_OK) {
                not_framed++;
            } else {
                if (perfdata_decode_sample(&x.f, &framed, &s, &err) == PERFDATA_OK) decoded_ok++;
                if (perfdata_decode_sample_as(&x.f, 0, &framed, &s, &err) == PERFDATA_OK) as_ok++;
            }
            free(p);
        }
        CHECK_EQ_U64(not_framed, 0);
        CHECK_EQ_U64(decoded_ok, 0);
        CHECK_EQ_U64(as_ok, 0);
    }
    fx_free(&x);
}

/* perfdata_decode_sample rejects non-SAMPLE records; _as rejects a bad
   event index. */
ORDER_TEST(sample_bad_arguments) {
    perfdata_attr a = base_attr(PERFDATA_SAMPLE_IP, 0);
    tsample ts;
    fx x;
    perfdata_record rec;
    perfdata_sample s;
    perfdata_error err;
    sample_defaults(&ts);
    if (CHECK_EQ_U64(one_sample(&x, big, &a, &ts, &rec, &s), PERFDATA_OK)) {
        perfdata_record other = rec;
        CHECK_EQ_U64(perfdata_decode_sample_as(&x.f, 1, &rec, &s, &err), PERFDATA_ERR_BAD_ARGUMENT);
        CHECK_EQ_U64(perfdata_decode_sample_as(&x.f, -1, &rec, &s, &err), PERFDATA_ERR_BAD_ARGUMENT);
        other.type = PERFDATA_RECORD_MMAP;
        CHECK_EQ_U64(perfdata_decode_sample(&x.f, &other, &s, &err), PERFDATA_ERR_BAD_ARGUMENT);
        CHECK_EQ_U64(perfdata_decode_sample_as(&x.f, 0, &other, &s, &err), PERFDATA_ERR_BAD_ARGUMENT);
        CHECK_EQ_U64(s.ip, 0);
    }
    fx_free(&x);
}

/* ===================================================================== */
/*                          sample_id_all trailer                        */
/* ===================================================================== */

/* The trailer of non-sample records, read backwards from the record's
   end: TID TIME ID STREAM_ID CPU IDENTIFIER; fewer fields when the
   sample_type has fewer; nothing without sample_id_all; refused for
   SAMPLE and perf-tool records; MALFORMED when the record is too short. */
ORDER_TEST(sample_id_trailer) {
    tevent ev = decoder_event();
    tsid tr = std_trailer();
    wr d;
    fx x;
    perfdata_record rec;
    perfdata_sample_id sid;
    perfdata_error err;
    size_t at;
    wr_init(&d, big);
    build_kernel_records(&d, &ev.attr, NULL);
    if (CHECK(fx_open_file(&x, big, &ev, 1, &d))) {
        int n = 0;
        while (fx_next(&x, &rec)) {
            check_std_trailer(&x.f, &rec);
            n++;
        }
        CHECK_EQ_U64(n, NR_KERNEL_RECORDS);
        CHECK_EQ_U64(x.err.code, PERFDATA_END);
    }
    fx_free(&x);
    wr_free(&d);

    /* TIME | CPU only, no IDENTIFIER: still from the end */
    ev.attr.sample_type = PERFDATA_SAMPLE_IP | PERFDATA_SAMPLE_TIME | PERFDATA_SAMPLE_CPU;
    wr_init(&d, big);
    put_comm(&d, &ev.attr, 1, 2, "abcdefghijklmno", &tr); /* 16 bytes of comm */
    at = rec_begin(&d, PERFDATA_RECORD_SAMPLE, 0);
    put64(&d, 1); put64(&d, 2); put64(&d, 3);
    rec_end(&d, at);
    at = rec_begin(&d, PERFDATA_RECORD_LOST, 0); /* too short for a 16-byte trailer */
    put64(&d, 9);
    rec_end(&d, at);
    at = rec_begin(&d, PERFDATA_RECORD_FINISHED_ROUND, 0);
    rec_end(&d, at);
    if (CHECK(fx_open_file(&x, big, &ev, 1, &d))) {
        if (NEXT(&x, &rec, PERFDATA_RECORD_COMM)) {
            CHECK_EQ_U64(perfdata_decode_sample_id(&x.f, &rec, &sid, &err), PERFDATA_OK);
            CHECK_EQ_U64(sid.sample_type, PERFDATA_SAMPLE_TIME | PERFDATA_SAMPLE_CPU);
            CHECK_EQ_U64(sid.size, 16);
            CHECK_EQ_U64(sid.time, tr.time);
            CHECK_EQ_U64(sid.cpu, tr.cpu);
            CHECK_EQ_U64(sid.cpu_reserved, tr.cpu_res);
            CHECK_EQ_U64(sid.pid, 0);
            CHECK_EQ_U64(sid.identifier, 0);
        }
        if (NEXT(&x, &rec, PERFDATA_RECORD_SAMPLE))
            CHECK_EQ_U64(perfdata_decode_sample_id(&x.f, &rec, &sid, &err), PERFDATA_ERR_BAD_ARGUMENT);
        if (NEXT(&x, &rec, PERFDATA_RECORD_LOST))
            CHECK_EQ_U64(perfdata_decode_sample_id(&x.f, &rec, &sid, &err), PERFDATA_ERR_MALFORMED);
        if (NEXT(&x, &rec, PERFDATA_RECORD_FINISHED_ROUND))
            CHECK_EQ_U64(perfdata_decode_sample_id(&x.f, &rec, &sid, &err), PERFDATA_ERR_BAD_ARGUMENT);
    }
    fx_free(&x);
    wr_free(&d);

    /* no sample_id_all: no trailer, decoders see the whole body */
    ev.attr.flags &= ~PERFDATA_ATTR_FLAG_SAMPLE_ID_ALL;
    wr_init(&d, big);
    put_comm(&d, &ev.attr, 1, 2, "plain", &tr);
    if (CHECK(fx_open_file(&x, big, &ev, 1, &d)) && NEXT(&x, &rec, PERFDATA_RECORD_COMM)) {
        perfdata_comm c;
        CHECK_EQ_U64(perfdata_decode_sample_id(&x.f, &rec, &sid, &err), PERFDATA_OK);
        CHECK_EQ_U64(sid.sample_type, 0);
        CHECK_EQ_U64(sid.size, 0);
        CHECK_EQ_U64(sid.event, 0);
        CHECK_EQ_U64(perfdata_decode_comm(&x.f, &rec, &c, NULL), PERFDATA_OK);
        CHECK(view_str(c.comm, "plain"));
    }
    fx_free(&x);
    wr_free(&d);
}

/* ===================================================================== */
/*                          record -> event mapping                      */
/* ===================================================================== */

static tsample mapping_sample(uint64_t id) {
    tsample ts;
    sample_defaults(&ts);
    ts.identifier = id;
    ts.id = id;
    ts.ip = 0x1000 + id;
    return ts;
}

/* Decodes the next SAMPLE and returns its event (-1 on error, *st set). */
static long next_sample_event(fx *x, perfdata_sample *s, perfdata_status *st) {
    perfdata_record rec;
    perfdata_error err;
    if (!NEXT(x, &rec, PERFDATA_RECORD_SAMPLE)) {
        *st = PERFDATA_ERR_BAD_ARGUMENT;
        return -2;
    }
    *st = perfdata_decode_sample(&x->f, &rec, s, &err);
    CHECK_EQ_U64(err.code, *st);
    CHECK_EQ_U64(perfdata_record_event(&x->f, &rec, NULL), *st == PERFDATA_OK ? s->event : -1);
    return *st == PERFDATA_OK ? s->event : -1;
}

static long next_comm_event(fx *x, perfdata_status *st) {
    perfdata_record rec;
    perfdata_sample_id sid;
    perfdata_error err;
    if (!NEXT(x, &rec, PERFDATA_RECORD_COMM)) {
        *st = PERFDATA_ERR_BAD_ARGUMENT;
        return -2;
    }
    *st = perfdata_decode_sample_id(&x->f, &rec, &sid, &err);
    CHECK_EQ_U64(perfdata_record_event(&x->f, &rec, NULL), *st == PERFDATA_OK ? sid.event : -1);
    return *st == PERFDATA_OK ? sid.event : -1;
}

/* By IDENTIFIER: two events of different layouts (the same id positions);
   id 0 goes to event 0, an unknown id is UNKNOWN_ID. */
static void check_mapping_identifier(fx *x, const tevent *ev) {
    perfdata_sample s;
    perfdata_status st;
    perfdata_cursor_init(&x->f, &x->cur);
    CHECK_EQ_U64(next_sample_event(x, &s, &st), 1);
    CHECK_EQ_U64(s.period, 0x0000000010000003ull); /* only event 1 samples PERIOD */
    CHECK_EQ_U64(s.ip, 0x1000 + 0x21);
    CHECK_EQ_U64(next_sample_event(x, &s, &st), 0);
    CHECK_EQ_U64(s.period, 0);
    CHECK_EQ_U64(s.ip, 0x1000 + 0x12);
    CHECK_EQ_U64(next_sample_event(x, &s, &st), 0); /* id 0 */
    CHECK_EQ_U64(next_sample_event(x, &s, &st), -1); /* id 99 */
    CHECK_EQ_U64(st, PERFDATA_ERR_UNKNOWN_ID);
    CHECK_EQ_U64(next_comm_event(x, &st), 1);
    CHECK_EQ_U64(next_comm_event(x, &st), 0);
    CHECK_EQ_U64(next_comm_event(x, &st), -1);
    CHECK_EQ_U64(st, PERFDATA_ERR_UNKNOWN_ID);
    CHECK_EQ_U64(perfdata_find_event(&x->f, ev[0].ids[0]), 0);
    CHECK_EQ_U64(perfdata_find_event(&x->f, ev[0].ids[1]), 0);
    CHECK_EQ_U64(perfdata_find_event(&x->f, ev[1].ids[0]), 1);
    CHECK_EQ_U64(perfdata_find_event(&x->f, ev[1].ids[1]), 1);
    CHECK_EQ_U64(perfdata_find_event(&x->f, 99), -1);
}

/* By ID position: two events sharing one layout without IDENTIFIER. */
static void check_mapping_id_pos(fx *x) {
    perfdata_sample s;
    perfdata_status st;
    perfdata_cursor_init(&x->f, &x->cur);
    CHECK_EQ_U64(x->f.priv.id_pos, 4); /* IP TID TIME ADDR | ID */
    CHECK_EQ_U64(x->f.priv.is_pos, 2); /* ID CPU | end */
    CHECK_EQ_U64(next_sample_event(x, &s, &st), 1);
    CHECK_EQ_U64(s.id, 0x41);
    CHECK_EQ_U64(next_sample_event(x, &s, &st), 0);
    CHECK_EQ_U64(s.id, 0x30);
    CHECK_EQ_U64(next_sample_event(x, &s, &st), -1);
    CHECK_EQ_U64(st, PERFDATA_ERR_UNKNOWN_ID);
    CHECK_EQ_U64(next_comm_event(x, &st), 1);
    CHECK_EQ_U64(next_comm_event(x, &st), 0);
}

/* Both mapping rules, without and then with an id index (same answers);
   an index too small is NO_SPACE with err.needed. */
ORDER_TEST(record_event_mapping) {
    tsid tr = std_trailer();
    perfdata_id_entry idx[8];
    perfdata_error err;
    /* by IDENTIFIER */
    {
        tevent ev[2];
        wr d;
        fx x;
        tsample ts;
        perfdata_attr a0 = base_attr(PERFDATA_SAMPLE_IDENTIFIER | PERFDATA_SAMPLE_IP | PERFDATA_SAMPLE_TID |
                                         PERFDATA_SAMPLE_TIME,
                                     PERFDATA_ATTR_FLAG_SAMPLE_ID_ALL);
        perfdata_attr a1 = a0;
        a1.sample_type |= PERFDATA_SAMPLE_PERIOD | PERFDATA_SAMPLE_ADDR;
        ev[0] = make_event(a0, 0x11, 0x12);
        ev[1] = make_event(a1, 0x20, 0x21);
        wr_init(&d, big);
        ts = mapping_sample(0x21); put_sample(&d, &a1, &ts);
        ts = mapping_sample(0x12); put_sample(&d, &a0, &ts);
        ts = mapping_sample(0); put_sample(&d, &a0, &ts);
        ts = mapping_sample(99); put_sample(&d, &a0, &ts);
        tr.identifier = 0x20; put_comm(&d, &a1, 1, 2, "ev1", &tr);
        tr.identifier = 0x11; put_comm(&d, &a0, 1, 2, "ev0", &tr);
        tr.identifier = 99; put_comm(&d, &a0, 1, 2, "unknown", &tr);
        if (CHECK(fx_open_file(&x, big, ev, 2, &d))) {
            CHECK_EQ_U64(x.f.flags & PERFDATA_FILE_IDS_AMBIGUOUS, 0);
            check_mapping_identifier(&x, ev);
            CHECK_EQ_U64(perfdata_id_index_needed(&x.f), 4);
            CHECK_EQ_U64(perfdata_set_id_index(&x.f, idx, 3, &err), PERFDATA_NEED_MEMORY);
            CHECK_EQ_U64(err.needed, 4 * sizeof(perfdata_id_entry));
            CHECK_EQ_U64(perfdata_set_id_index(&x.f, NULL, 0, &err), PERFDATA_NEED_MEMORY);
            CHECK(x.f.priv.id_index == NULL);
            CHECK_EQ_U64(perfdata_set_id_index(&x.f, idx, 4, &err), PERFDATA_OK);
            CHECK(x.f.priv.id_index == idx);
            CHECK_EQ_U64(x.f.priv.nr_ids, 4);
            CHECK(idx[0].id < idx[1].id && idx[1].id < idx[2].id && idx[2].id < idx[3].id);
            check_mapping_identifier(&x, ev);
        }
        fx_free(&x);
        /* the same in pipe mode, where the index is refilled as attrs arrive */
        if (CHECK(fx_open_pipe(&x, big, ev, 2, &d))) {
            perfdata_record rec;
            CHECK_EQ_U64(perfdata_set_id_index(&x.f, idx, 8, &err), PERFDATA_OK);
            perfdata_cursor_init(&x.f, &x.cur);
            CHECK(NEXT(&x, &rec, PERFDATA_RECORD_HEADER_ATTR));
            CHECK(NEXT(&x, &rec, PERFDATA_RECORD_HEADER_ATTR));
            CHECK_EQ_U64(x.f.priv.nr_ids, 4);
            CHECK_EQ_U64(perfdata_find_event(&x.f, 0x21), 1);
            CHECK_EQ_U64(perfdata_find_event(&x.f, 0x11), 0);
        }
        fx_free(&x);
        wr_free(&d);
    }
    /* by ID position */
    {
        tevent ev[2];
        wr d;
        fx x;
        tsample ts;
        perfdata_attr a = base_attr(PERFDATA_SAMPLE_IP | PERFDATA_SAMPLE_TID | PERFDATA_SAMPLE_TIME |
                                        PERFDATA_SAMPLE_ADDR | PERFDATA_SAMPLE_ID | PERFDATA_SAMPLE_CPU |
                                        PERFDATA_SAMPLE_PERIOD,
                                    PERFDATA_ATTR_FLAG_SAMPLE_ID_ALL);
        ev[0] = make_event(a, 0x30, 0);
        ev[1] = make_event(a, 0x40, 0x41);
        ev[1].attr.config = 7;
        wr_init(&d, big);
        ts = mapping_sample(0x41); put_sample(&d, &a, &ts);
        ts = mapping_sample(0x30); put_sample(&d, &a, &ts);
        ts = mapping_sample(0x55); put_sample(&d, &a, &ts);
        tr.id = 0x41; put_comm(&d, &a, 1, 2, "ev1", &tr);
        tr.id = 0x30; put_comm(&d, &a, 1, 2, "ev0", &tr);
        if (CHECK(fx_open_file(&x, big, ev, 2, &d))) {
            check_mapping_id_pos(&x);
            CHECK_EQ_U64(perfdata_id_index_needed(&x.f), 3);
            CHECK_EQ_U64(perfdata_set_id_index(&x.f, idx, 2, &err), PERFDATA_NEED_MEMORY);
            CHECK_EQ_U64(err.needed, 3 * sizeof(perfdata_id_entry));
            CHECK_EQ_U64(perfdata_set_id_index(&x.f, idx, 3, &err), PERFDATA_OK);
            check_mapping_id_pos(&x);
        }
        fx_free(&x);
        wr_free(&d);
    }
    /* a single event takes every record, whatever its id */
    {
        tevent ev;
        wr d;
        fx x;
        tsample ts;
        perfdata_sample s;
        perfdata_status st;
        perfdata_attr a = base_attr(PERFDATA_SAMPLE_IDENTIFIER | PERFDATA_SAMPLE_IP, PERFDATA_ATTR_FLAG_SAMPLE_ID_ALL);
        ev = make_event(a, 0x77, 0);
        wr_init(&d, big);
        ts = mapping_sample(0x1234); put_sample(&d, &a, &ts);
        tr.identifier = 0x999; put_comm(&d, &a, 1, 2, "single", &tr);
        if (CHECK(fx_open_file(&x, big, &ev, 1, &d))) {
            CHECK_EQ_U64(next_sample_event(&x, &s, &st), 0);
            CHECK_EQ_U64(s.identifier, 0x1234);
            CHECK_EQ_U64(next_comm_event(&x, &st), 0);
        }
        fx_free(&x);
        wr_free(&d);
    }
    /* events whose id positions differ: ambiguous, everything to event 0 */
    {
        tevent ev[2];
        wr d;
        fx x;
        tsample ts;
        perfdata_sample s;
        perfdata_status st;
        perfdata_attr a0 = base_attr(PERFDATA_SAMPLE_IP | PERFDATA_SAMPLE_ID, 0);
        perfdata_attr a1 = base_attr(PERFDATA_SAMPLE_IP | PERFDATA_SAMPLE_TID | PERFDATA_SAMPLE_ID, 0);
        ev[0] = make_event(a0, 0x1, 0);
        ev[1] = make_event(a1, 0x2, 0);
        wr_init(&d, big);
        ts = mapping_sample(0x2); put_sample(&d, &a0, &ts);
        if (CHECK(fx_open_file(&x, big, ev, 2, &d))) {
            CHECK_EQ_U64(x.f.flags & PERFDATA_FILE_IDS_AMBIGUOUS, PERFDATA_FILE_IDS_AMBIGUOUS);
            CHECK_EQ_U64(next_sample_event(&x, &s, &st), 0);
        }
        fx_free(&x);
        wr_free(&d);
    }
    /* a record before any event is known (pipe) */
    {
        perfdata_file f;
        perfdata_record rec;
        perfdata_sample s;
        memset(&f, 0, sizeof f);
        memset(&rec, 0, sizeof rec);
        rec.type = PERFDATA_RECORD_SAMPLE;
        CHECK_EQ_U64(perfdata_record_event(&f, &rec, &err), -1);
        CHECK_EQ_U64(err.code, PERFDATA_ERR_UNKNOWN_ID);
        CHECK_EQ_U64(perfdata_decode_sample(&f, &rec, &s, &err), PERFDATA_ERR_UNKNOWN_ID);
    }
}

/* A record too short to hold its id (two events, id found by position)
   is MALFORMED, and the status returned must not depend on whether the
   caller passes a perfdata_error: without one, too, it is MALFORMED, not
   UNKNOWN_ID. */
ORDER_TEST(status_without_err) {
    tevent ev[2];
    wr d;
    fx x;
    perfdata_record rec;
    size_t at;
    perfdata_attr a = base_attr(PERFDATA_SAMPLE_IP | PERFDATA_SAMPLE_TID | PERFDATA_SAMPLE_TIME |
                                    PERFDATA_SAMPLE_ID | PERFDATA_SAMPLE_CPU,
                                PERFDATA_ATTR_FLAG_SAMPLE_ID_ALL);
    ev[0] = make_event(a, 0x30, 0);
    ev[1] = make_event(a, 0x40, 0);
    wr_init(&d, big);
    at = rec_begin(&d, PERFDATA_RECORD_SAMPLE, 0); /* IP TID TIME, no ID */
    put64(&d, 1); put64(&d, 2); put64(&d, 3);
    rec_end(&d, at);
    at = rec_begin(&d, PERFDATA_RECORD_LOST, 0); /* 8 bytes: the id would be 16 from the end */
    put64(&d, 1);
    rec_end(&d, at);
    if (CHECK(fx_open_file(&x, big, ev, 2, &d))) {
        perfdata_sample s;
        perfdata_sample_id sid;
        perfdata_error err;
        if (NEXT(&x, &rec, PERFDATA_RECORD_SAMPLE)) {
            CHECK_EQ_U64(perfdata_record_event(&x.f, &rec, &err), -1);
            CHECK_EQ_U64(err.code, PERFDATA_ERR_MALFORMED);
            CHECK_EQ_U64(perfdata_decode_sample(&x.f, &rec, &s, &err), PERFDATA_ERR_MALFORMED);
            CHECK_EQ_U64(perfdata_decode_sample(&x.f, &rec, &s, NULL), PERFDATA_ERR_MALFORMED);
        }
        if (NEXT(&x, &rec, PERFDATA_RECORD_LOST)) {
            CHECK_EQ_U64(perfdata_decode_sample_id(&x.f, &rec, &sid, &err), PERFDATA_ERR_MALFORMED);
            CHECK_EQ_U64(perfdata_decode_sample_id(&x.f, &rec, &sid, NULL), PERFDATA_ERR_MALFORMED);
        }
    }
    fx_free(&x);
    wr_free(&d);
}

/* ===================================================================== */
/*                            record decoders                            */
/* ===================================================================== */

/* Decodes with `call` and checks the status and the error code agree. */
#define DECODE_OK(call, errp) (CHECK_EQ_U64((call), PERFDATA_OK) && CHECK_EQ_U64((errp)->code, PERFDATA_OK))

/* Every kernel record decoder on the stream of build_kernel_records:
   values as written, the trailer excluded from bodies and decoded right. */
ORDER_TEST(kernel_record_decoders) {
    tevent ev = decoder_event();
    wr d;
    fx x;
    perfdata_record rec;
    perfdata_error err;
    wr_init(&d, big);
    build_kernel_records(&d, &ev.attr, NULL);
    if (!CHECK(fx_open_file(&x, big, &ev, 1, &d))) {
        fx_free(&x);
        wr_free(&d);
        return;
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_MMAP)) {
        perfdata_mmap m;
        if (DECODE_OK(perfdata_decode_mmap(&x.f, &rec, &m, &err), &err)) {
            CHECK_EQ_U64(m.pid, 0x1001);
            CHECK_EQ_U64(m.tid, 0x1002);
            CHECK_EQ_U64(m.addr, 0x0000555555554000ull);
            CHECK_EQ_U64(m.len, 0x21000);
            CHECK_EQ_U64(m.pgoff, 0x3000);
            CHECK_EQ_U64(m.has_build_id, 0);
            CHECK_EQ_U64(m.prot | m.flags | m.maj | m.min | m.ino, 0);
            CHECK(view_str(m.filename, "/usr/bin/workload"));
        }
        CHECK_EQ_U64(rec.misc & PERFDATA_MISC_CPUMODE_MASK, PERFDATA_MISC_USER);
        check_std_trailer(&x.f, &rec);
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_MMAP2)) {
        perfdata_mmap m;
        if (DECODE_OK(perfdata_decode_mmap(&x.f, &rec, &m, &err), &err)) {
            CHECK_EQ_U64(m.pid, 0x2001);
            CHECK_EQ_U64(m.tid, 0x2002);
            CHECK_EQ_U64(m.addr, 0x00007f0000001000ull);
            CHECK_EQ_U64(m.len, 0x1d3000);
            CHECK_EQ_U64(m.pgoff, 0x28000);
            CHECK_EQ_U64(m.has_build_id, 0);
            CHECK_EQ_U64(m.maj, 0x103);
            CHECK_EQ_U64(m.min, 0x2a);
            CHECK_EQ_U64(m.ino, 0x0000000100000abcull);
            CHECK_EQ_U64(m.ino_generation, 0x55aa);
            CHECK_EQ_U64(m.prot, 5);
            CHECK_EQ_U64(m.flags, 0x802);
            CHECK_EQ_U64(m.build_id.n, 0);
            CHECK(view_str(m.filename, "/usr/lib/x86_64-linux-gnu/libc.so.6"));
        }
        check_std_trailer(&x.f, &rec);
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_MMAP2)) { /* build-id form (misc bit 14) */
        perfdata_mmap m;
        if (DECODE_OK(perfdata_decode_mmap(&x.f, &rec, &m, &err), &err)) {
            CHECK_EQ_U64(m.pid, 0x3001);
            CHECK_EQ_U64(m.addr, 0x00007f0000100000ull);
            CHECK_EQ_U64(m.has_build_id, 1);
            CHECK_EQ_U64(m.build_id_size, 16);
            CHECK(view_is(m.build_id, mmap2_build_id, 16));
            CHECK_EQ_U64(m.maj | m.min | m.ino | m.ino_generation, 0);
            CHECK_EQ_U64(m.prot, 7);
            CHECK_EQ_U64(m.flags, 2);
            CHECK(view_str(m.filename, "/opt/app.so"));
        }
        check_std_trailer(&x.f, &rec);
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_LOST)) {
        perfdata_lost l;
        if (DECODE_OK(perfdata_decode_lost(&x.f, &rec, &l, &err), &err)) {
            CHECK_EQ_U64(l.id, 0x4202);
            CHECK_EQ_U64(l.lost, 0x0000000100000007ull);
        }
        check_std_trailer(&x.f, &rec);
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_COMM)) {
        perfdata_comm c;
        if (DECODE_OK(perfdata_decode_comm(&x.f, &rec, &c, &err), &err)) {
            CHECK_EQ_U64(c.pid, 0x4001);
            CHECK_EQ_U64(c.tid, 0x4002);
            CHECK_EQ_U64(c.exec, 1);
            CHECK(view_str(c.comm, "workload"));
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_COMM)) {
        perfdata_comm c;
        if (DECODE_OK(perfdata_decode_comm(&x.f, &rec, &c, &err), &err)) {
            CHECK_EQ_U64(c.tid, 0x4003);
            CHECK_EQ_U64(c.exec, 0);
            CHECK(view_str(c.comm, "worker-1"));
        }
        check_std_trailer(&x.f, &rec);
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_FORK)) {
        perfdata_task t;
        if (DECODE_OK(perfdata_decode_task(&x.f, &rec, &t, &err), &err)) {
            CHECK_EQ_U64(t.pid, 0x5001);
            CHECK_EQ_U64(t.ppid, 0x5002);
            CHECK_EQ_U64(t.tid, 0x5003);
            CHECK_EQ_U64(t.ptid, 0x5004);
            CHECK_EQ_U64(t.time, 0x0000000a0b0c0d0eull);
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_EXIT)) {
        perfdata_task t;
        if (DECODE_OK(perfdata_decode_task(&x.f, &rec, &t, &err), &err)) {
            CHECK_EQ_U64(t.pid, 0x6001);
            CHECK_EQ_U64(t.ptid, 0x6004);
            CHECK_EQ_U64(t.time, 0x0000000a0b0c0d0full);
        }
        check_std_trailer(&x.f, &rec);
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_THROTTLE)) {
        perfdata_throttle t;
        if (DECODE_OK(perfdata_decode_throttle(&x.f, &rec, &t, &err), &err)) {
            CHECK_EQ_U64(t.time, 0x0000000700000001ull);
            CHECK_EQ_U64(t.id, 0x4201);
            CHECK_EQ_U64(t.stream_id, 0x0000000000abcdefull);
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_UNTHROTTLE)) {
        perfdata_throttle t;
        if (DECODE_OK(perfdata_decode_throttle(&x.f, &rec, &t, &err), &err)) {
            CHECK_EQ_U64(t.time, 0x0000000700000002ull);
            CHECK_EQ_U64(t.id, 0x4202);
            CHECK_EQ_U64(t.stream_id, 0x0000000000abcdeeull);
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_READ)) {
        perfdata_read_record r;
        if (DECODE_OK(perfdata_decode_read_record(&x.f, &rec, &r, &err), &err)) {
            perfdata_read_value v = perfdata_read_at(&r.values, 0);
            CHECK_EQ_U64(r.pid, 0x7001);
            CHECK_EQ_U64(r.tid, 0x7002);
            CHECK_EQ_U64(r.values.read_format, ev.attr.read_format);
            CHECK_EQ_U64(r.values.nr, 1);
            CHECK_EQ_U64(v.value, 0x0000000123456789ull);
            CHECK_EQ_U64(r.values.time_enabled, 0x1000);
            CHECK_EQ_U64(r.values.time_running, 0x0800);
            CHECK_EQ_U64(v.id, 0x4201);
            CHECK_EQ_U64(v.lost, 3);
        }
        check_std_trailer(&x.f, &rec);
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_AUX)) {
        perfdata_aux a;
        if (DECODE_OK(perfdata_decode_aux(&x.f, &rec, &a, &err), &err)) {
            CHECK_EQ_U64(a.aux_offset, 0x100000);
            CHECK_EQ_U64(a.aux_size, 0x8000);
            CHECK_EQ_U64(a.flags, 0x0305);
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_ITRACE_START)) {
        perfdata_itrace_start t;
        if (DECODE_OK(perfdata_decode_itrace_start(&x.f, &rec, &t, &err), &err)) {
            CHECK_EQ_U64(t.pid, 0x8001);
            CHECK_EQ_U64(t.tid, 0x8002);
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_LOST_SAMPLES)) {
        perfdata_lost_samples l;
        if (DECODE_OK(perfdata_decode_lost_samples(&x.f, &rec, &l, &err), &err))
            CHECK_EQ_U64(l.lost, 0x0000000200000009ull);
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_SWITCH)) {
        perfdata_switch s;
        if (DECODE_OK(perfdata_decode_switch(&x.f, &rec, &s, &err), &err)) {
            CHECK_EQ_U64(s.out, 1);
            CHECK_EQ_U64(s.preempt, 1);
            CHECK_EQ_U64(s.cpu_wide, 0);
            CHECK_EQ_U64(s.next_prev_pid | s.next_prev_tid, 0);
        }
        check_std_trailer(&x.f, &rec);
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_SWITCH)) {
        perfdata_switch s;
        if (DECODE_OK(perfdata_decode_switch(&x.f, &rec, &s, &err), &err)) {
            CHECK_EQ_U64(s.out, 0);
            CHECK_EQ_U64(s.preempt, 0);
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_SWITCH_CPU_WIDE)) {
        perfdata_switch s;
        if (DECODE_OK(perfdata_decode_switch(&x.f, &rec, &s, &err), &err)) {
            CHECK_EQ_U64(s.out, 1);
            CHECK_EQ_U64(s.preempt, 0);
            CHECK_EQ_U64(s.cpu_wide, 1);
            CHECK_EQ_U64(s.next_prev_pid, 0x9001);
            CHECK_EQ_U64(s.next_prev_tid, 0x9002);
        }
        check_std_trailer(&x.f, &rec);
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_NAMESPACES)) {
        perfdata_namespaces n;
        if (DECODE_OK(perfdata_decode_namespaces(&x.f, &rec, &n, &err), &err)) {
            CHECK_EQ_U64(n.pid, 0xa001);
            CHECK_EQ_U64(n.tid, 0xa002);
            CHECK_EQ_U64(n.nr, 2);
            CHECK_EQ_U64(n.links.count, 4);
            CHECK_EQ_U64(perfdata_u64s_at(&n.links, 0), 4);
            CHECK_EQ_U64(perfdata_u64s_at(&n.links, 1), 0x00000000effffffbull);
            CHECK_EQ_U64(perfdata_u64s_at(&n.links, 2), 5);
            CHECK_EQ_U64(perfdata_u64s_at(&n.links, 3), 0x00000000f0000001ull);
        }
        check_std_trailer(&x.f, &rec);
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_KSYMBOL)) {
        perfdata_ksymbol k;
        if (DECODE_OK(perfdata_decode_ksymbol(&x.f, &rec, &k, &err), &err)) {
            CHECK_EQ_U64(k.addr, 0xffffffffc0201000ull);
            CHECK_EQ_U64(k.len, 0x1a4);
            CHECK_EQ_U64(k.ksym_type, 1);
            CHECK_EQ_U64(k.flags, 1);
            CHECK(view_str(k.name, "bpf_prog_6deef7357e7b4530_sys_enter"));
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_BPF_EVENT)) {
        perfdata_bpf_event b;
        if (DECODE_OK(perfdata_decode_bpf_event(&x.f, &rec, &b, &err), &err)) {
            CHECK_EQ_U64(b.type, 1);
            CHECK_EQ_U64(b.flags, 2);
            CHECK_EQ_U64(b.id, 0x00010203);
            CHECK(view_is(b.tag, bpf_tag, 8));
        }
        check_std_trailer(&x.f, &rec);
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_CGROUP)) {
        perfdata_cgroup c;
        if (DECODE_OK(perfdata_decode_cgroup(&x.f, &rec, &c, &err), &err)) {
            CHECK_EQ_U64(c.id, 0xc01);
            CHECK(view_str(c.path, "/sys/fs/cgroup/user.slice"));
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_TEXT_POKE)) {
        perfdata_text_poke t;
        if (DECODE_OK(perfdata_decode_text_poke(&x.f, &rec, &t, &err), &err)) {
            CHECK_EQ_U64(t.addr, 0xffffffff81234560ull);
            CHECK_EQ_U64(t.old_len, 3);
            CHECK_EQ_U64(t.new_len, 5);
            CHECK(view_is(t.old_bytes, poke_bytes, 3));
            CHECK(view_is(t.new_bytes, poke_bytes + 3, 5));
        }
        check_std_trailer(&x.f, &rec);
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_AUX_OUTPUT_HW_ID)) {
        perfdata_aux_output_hw_id h;
        if (DECODE_OK(perfdata_decode_aux_output_hw_id(&x.f, &rec, &h, &err), &err)) CHECK_EQ_U64(h.hw_id, 0x107);
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_CALLCHAIN_DEFERRED)) {
        perfdata_callchain_deferred c;
        if (DECODE_OK(perfdata_decode_callchain_deferred(&x.f, &rec, &c, &err), &err)) {
            CHECK_EQ_U64(c.cookie, 0x0000c00c1e000001ull);
            CHECK_EQ_U64(c.ips.count, 3);
            CHECK_EQ_U64(perfdata_u64s_at(&c.ips, 0), PERFDATA_CONTEXT_USER);
            CHECK_EQ_U64(perfdata_u64s_at(&c.ips, 1), 0x401234);
            CHECK_EQ_U64(perfdata_u64s_at(&c.ips, 2), 0x405678);
        }
        check_std_trailer(&x.f, &rec);
    }
    CHECK_EQ_U64(perfdata_next_record(&x.f, &x.cur, &rec, &x.err), PERFDATA_END);
    fx_free(&x);
    wr_free(&d);
}

static int next_cpu(const perfdata_cpu_map *m, size_t *state) {
    int cpu = -99;
    return perfdata_cpu_map_next(m, state, &cpu) ? cpu : -99;
}

/* The cpus of a map, -99 terminated, compared with want[]. */
static void check_cpus(const perfdata_cpu_map *m, const int *want, size_t n) {
    size_t state = 0, i;
    for (i = 0; i < n; i++) CHECK_EQ_U64((int64_t)next_cpu(m, &state), (int64_t)want[i]);
    CHECK_EQ_U64((int64_t)next_cpu(m, &state), -99);
    CHECK_EQ_U64((int64_t)next_cpu(m, &state), -99);
}

/* Every perf-tool record decoder on the stream of build_tool_records. */
ORDER_TEST(tool_record_decoders) {
    tevent ev = decoder_event();
    wr d;
    fx x;
    perfdata_record rec;
    perfdata_error err;
    size_t i;
    wr_init(&d, big);
    build_tool_records(&d, &ev, NULL);
    if (!CHECK(fx_open_file(&x, big, &ev, 1, &d))) {
        fx_free(&x);
        wr_free(&d);
        return;
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_HEADER_ATTR)) {
        perfdata_header_attr h;
        if (DECODE_OK(perfdata_decode_header_attr(&x.f, &rec, &h, &err), &err)) {
            check_attr_upto(&h.attr, &ev.attr, ev.attr.size);
            CHECK_EQ_U64(h.attr_bytes.n, ev.attr.size);
            CHECK_EQ_U64(h.attr_bytes.offset, rec.offset + 8);
            CHECK_EQ_U64(h.ids.count, 2);
            CHECK_EQ_U64(perfdata_u64s_at(&h.ids, 0), 0x4201);
            CHECK_EQ_U64(perfdata_u64s_at(&h.ids, 1), 0x4202);
        }
        CHECK_EQ_U64(x.f.nr_events, 1); /* file mode: not registered */
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_HEADER_EVENT_TYPE)) {
        perfdata_header_event_type t;
        if (DECODE_OK(perfdata_decode_header_event_type(&x.f, &rec, &t, &err), &err)) {
            CHECK_EQ_U64(t.event_id, 0x0000000100000002ull);
            CHECK(view_str(t.name, "sched:sched_switch"));
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_HEADER_TRACING_DATA)) {
        perfdata_tracing_data t;
        unsigned char want[16];
        for (i = 0; i < 16; i++) want[i] = (unsigned char)(0x70 + i);
        if (DECODE_OK(perfdata_decode_tracing_data(&x.f, &rec, &t, &err), &err)) {
            CHECK_EQ_U64(t.size, 16);
            CHECK(view_is(t.data, want, 16));
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_HEADER_BUILD_ID)) { /* misc bit 15: size 16 */
        perfdata_build_id b;
        if (DECODE_OK(perfdata_decode_build_id(&x.f, &rec, &b, &err), &err)) {
            CHECK_EQ_U64((int64_t)b.pid, -1);
            CHECK(view_is(b.build_id, header_build_id, 16));
            CHECK(view_str(b.filename, "[kernel.kallsyms]"));
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_HEADER_BUILD_ID)) { /* no size: 20 bytes */
        perfdata_build_id b;
        if (DECODE_OK(perfdata_decode_build_id(&x.f, &rec, &b, &err), &err)) {
            CHECK_EQ_U64(b.pid, 4242);
            CHECK(view_is(b.build_id, header_build_id, 20));
            CHECK(view_str(b.filename, "/usr/bin/workload"));
        }
    }
    CHECK(NEXT(&x, &rec, PERFDATA_RECORD_FINISHED_ROUND));
    if (NEXT(&x, &rec, PERFDATA_RECORD_ID_INDEX)) {
        perfdata_id_index ix;
        if (DECODE_OK(perfdata_decode_id_index(&x.f, &rec, &ix, &err), &err)) {
            perfdata_id_index_entry e0 = perfdata_id_index_at(&ix, 0), e1 = perfdata_id_index_at(&ix, 1),
                                    e2 = perfdata_id_index_at(&ix, 2);
            CHECK_EQ_U64(ix.nr, 2);
            CHECK_EQ_U64(ix.machine.n, 0);
            CHECK_EQ_U64(e0.id, 0x4201);
            CHECK_EQ_U64(e0.idx, 0);
            CHECK_EQ_U64(e0.cpu, 1);
            CHECK_EQ_U64(e0.tid, 4242);
            CHECK_EQ_U64(e0.machine_pid | e0.vcpu, 0);
            CHECK_EQ_U64(e1.id, 0x4202);
            CHECK_EQ_U64(e1.cpu, 2);
            CHECK_EQ_U64(e1.tid, 4243);
            CHECK_EQ_U64(e2.id, 0);
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_ID_INDEX)) {
        perfdata_id_index ix;
        if (DECODE_OK(perfdata_decode_id_index(&x.f, &rec, &ix, &err), &err)) {
            perfdata_id_index_entry e0 = perfdata_id_index_at(&ix, 0), e1 = perfdata_id_index_at(&ix, 1);
            CHECK_EQ_U64(ix.nr, 2);
            CHECK_EQ_U64(ix.machine.n, 32);
            CHECK_EQ_U64(e0.id, 0x4201);
            CHECK_EQ_U64(e0.machine_pid, 77);
            CHECK_EQ_U64(e0.vcpu, 3);
            CHECK_EQ_U64(e1.idx, 1);
            CHECK_EQ_U64(e1.machine_pid, 78);
            CHECK_EQ_U64(e1.vcpu, 4);
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_AUXTRACE_INFO)) {
        perfdata_auxtrace_info a;
        if (DECODE_OK(perfdata_decode_auxtrace_info(&x.f, &rec, &a, &err), &err)) {
            CHECK_EQ_U64(a.type, 1);
            CHECK_EQ_U64(a.data.count, 3);
            CHECK_EQ_U64(perfdata_u64s_at(&a.data, 0), 0x1111);
            CHECK_EQ_U64(perfdata_u64s_at(&a.data, 2), 0x0000000300000333ull);
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_AUXTRACE)) {
        perfdata_auxtrace a;
        unsigned char want[24];
        for (i = 0; i < 24; i++) want[i] = (unsigned char)(0x90 + i);
        if (DECODE_OK(perfdata_decode_auxtrace(&x.f, &rec, &a, &err), &err)) {
            CHECK_EQ_U64(a.size, 24);
            CHECK_EQ_U64(a.offset, 0x1000);
            CHECK_EQ_U64(a.reference, 0x00abcdef00000001ull);
            CHECK_EQ_U64(a.idx, 1);
            CHECK_EQ_U64(a.tid, 4243);
            CHECK_EQ_U64(a.cpu, 1);
            CHECK(view_is(a.data, want, 24));
        }
    }
    /* AUXTRACE_ERROR fmt 0: before perf added the time field (5.5), msg[]
       started where time is now (perf reads it from &e->time), so the
       decoder reads a time word only for fmt 1 and later. */
    if (NEXT(&x, &rec, PERFDATA_RECORD_AUXTRACE_ERROR)) {
        perfdata_auxtrace_error a;
        if (DECODE_OK(perfdata_decode_auxtrace_error(&x.f, &rec, &a, &err), &err)) {
            CHECK_EQ_U64(a.type, 1);
            CHECK_EQ_U64(a.code, 2);
            CHECK_EQ_U64(a.cpu, 3);
            CHECK_EQ_U64(a.pid, 4);
            CHECK_EQ_U64(a.tid, 5);
            CHECK_EQ_U64(a.fmt, 0);
            CHECK_EQ_U64(a.ip, 0xffffffff81001234ull);
            CHECK_EQ_U64(a.time, 0);
            CHECK(view_str(a.msg, "fmt zero message"));
            CHECK_EQ_U64(a.machine_pid | a.vcpu, 0);
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_AUXTRACE_ERROR)) {
        perfdata_auxtrace_error a;
        if (DECODE_OK(perfdata_decode_auxtrace_error(&x.f, &rec, &a, &err), &err)) {
            CHECK_EQ_U64(a.fmt, 1);
            CHECK_EQ_U64(a.time, 0x0000000500000006ull);
            CHECK(view_str(a.msg, "fmt one message"));
            CHECK_EQ_U64(a.machine_pid | a.vcpu, 0);
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_AUXTRACE_ERROR)) {
        perfdata_auxtrace_error a;
        if (DECODE_OK(perfdata_decode_auxtrace_error(&x.f, &rec, &a, &err), &err)) {
            CHECK_EQ_U64(a.fmt, 2);
            CHECK_EQ_U64(a.ip, 0xffffffff81001234ull);
            CHECK_EQ_U64(a.time, 0x0000000500000007ull);
            CHECK(view_str(a.msg, "fmt two message"));
            CHECK_EQ_U64(a.machine_pid, 77);
            CHECK_EQ_U64(a.vcpu, 3);
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_THREAD_MAP)) {
        perfdata_thread_map m;
        if (DECODE_OK(perfdata_decode_thread_map(&x.f, &rec, &m, &err), &err)) {
            perfdata_thread_map_entry e0 = perfdata_thread_map_at(&m, 0), e1 = perfdata_thread_map_at(&m, 1),
                                      e2 = perfdata_thread_map_at(&m, 2);
            CHECK_EQ_U64(m.nr, 2);
            CHECK_EQ_U64(e0.pid, 4242);
            CHECK(view_str(e0.comm, "workload"));
            CHECK_EQ_U64(e1.pid, 4243);
            CHECK(view_str(e1.comm, "worker-1"));
            CHECK_EQ_U64(e2.pid, 0);
            CHECK_EQ_U64(e2.comm.n, 0);
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_CPU_MAP)) {
        perfdata_cpu_map m;
        static const int want[] = {1, 3, 5};
        if (DECODE_OK(perfdata_decode_cpu_map(&x.f, &rec, &m, &err), &err)) {
            CHECK_EQ_U64(m.encoding, PERFDATA_CPU_MAP_CPUS);
            CHECK_EQ_U64(m.nr, 3);
            check_cpus(&m, want, 3);
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_CPU_MAP)) {
        perfdata_cpu_map m;
        static const int want[] = {-1, 2};
        if (DECODE_OK(perfdata_decode_cpu_map(&x.f, &rec, &m, &err), &err)) check_cpus(&m, want, 2);
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_CPU_MAP)) {
        perfdata_cpu_map m;
        static const int want[] = {0, 2, 63};
        if (DECODE_OK(perfdata_decode_cpu_map(&x.f, &rec, &m, &err), &err)) {
            CHECK_EQ_U64(m.encoding, PERFDATA_CPU_MAP_MASK);
            CHECK_EQ_U64(m.long_size, 4);
            CHECK_EQ_U64(m.nr, 2);
            check_cpus(&m, want, 3);
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_CPU_MAP)) {
        perfdata_cpu_map m;
        static const int want[] = {0, 1, 63, 64};
        if (DECODE_OK(perfdata_decode_cpu_map(&x.f, &rec, &m, &err), &err)) {
            CHECK_EQ_U64(m.encoding, PERFDATA_CPU_MAP_MASK);
            CHECK_EQ_U64(m.long_size, 8);
            CHECK_EQ_U64(m.nr, 2);
            CHECK_EQ_U64(m.data.offset, rec.offset + 8 + 10);
            check_cpus(&m, want, 4);
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_CPU_MAP)) {
        perfdata_cpu_map m;
        static const int want[] = {-1, 4, 5, 6};
        if (DECODE_OK(perfdata_decode_cpu_map(&x.f, &rec, &m, &err), &err)) {
            CHECK_EQ_U64(m.encoding, PERFDATA_CPU_MAP_RANGE);
            CHECK_EQ_U64(m.any_cpu, 1);
            CHECK_EQ_U64(m.start_cpu, 4);
            CHECK_EQ_U64(m.end_cpu, 6);
            check_cpus(&m, want, 4);
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_STAT_CONFIG)) {
        perfdata_stat_config c;
        if (DECODE_OK(perfdata_decode_stat_config(&x.f, &rec, &c, &err), &err)) {
            CHECK_EQ_U64(c.nr, 3);
            CHECK_EQ_U64(c.pairs.count, 6);
            CHECK_EQ_U64(perfdata_u64s_at(&c.pairs, 0), 0);
            CHECK_EQ_U64(perfdata_u64s_at(&c.pairs, 1), 2);
            CHECK_EQ_U64(perfdata_u64s_at(&c.pairs, 2), 1);
            CHECK_EQ_U64(perfdata_u64s_at(&c.pairs, 3), 1000);
            CHECK_EQ_U64(perfdata_u64s_at(&c.pairs, 5), 1);
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_STAT)) {
        perfdata_stat s;
        if (DECODE_OK(perfdata_decode_stat(&x.f, &rec, &s, &err), &err)) {
            CHECK_EQ_U64(s.id, 0x4201);
            CHECK_EQ_U64(s.cpu, 1);
            CHECK_EQ_U64(s.thread, 2);
            CHECK_EQ_U64(s.val, 0x0000000123456789ull);
            CHECK_EQ_U64(s.ena, 1000);
            CHECK_EQ_U64(s.run, 900);
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_STAT_ROUND)) {
        perfdata_stat_round s;
        if (DECODE_OK(perfdata_decode_stat_round(&x.f, &rec, &s, &err), &err)) {
            CHECK_EQ_U64(s.type, 1);
            CHECK_EQ_U64(s.time, 0x0000009999999999ull);
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_EVENT_UPDATE)) {
        perfdata_event_update u;
        if (DECODE_OK(perfdata_decode_event_update(&x.f, &rec, &u, &err), &err)) {
            CHECK_EQ_U64(u.type, PERFDATA_EVENT_UPDATE_UNIT);
            CHECK_EQ_U64(u.id, 0x4201);
            CHECK(view_str(u.text, "MiB"));
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_EVENT_UPDATE)) {
        perfdata_event_update u;
        if (DECODE_OK(perfdata_decode_event_update(&x.f, &rec, &u, &err), &err)) {
            CHECK_EQ_U64(u.type, PERFDATA_EVENT_UPDATE_SCALE);
            CHECK_EQ_U64(u.id, 0x4202);
            CHECK_EQ_U64(u.scale_bits, double_bits(TEST_SCALE));
            CHECK(u.scale == (double)TEST_SCALE); /* x87: compare as a double, not a long double */
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_EVENT_UPDATE)) {
        perfdata_event_update u;
        if (DECODE_OK(perfdata_decode_event_update(&x.f, &rec, &u, &err), &err)) {
            CHECK_EQ_U64(u.type, PERFDATA_EVENT_UPDATE_NAME);
            CHECK(view_str(u.text, "cycles:u"));
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_EVENT_UPDATE)) {
        perfdata_event_update u;
        static const int want[] = {0, 1, 2, 3};
        if (DECODE_OK(perfdata_decode_event_update(&x.f, &rec, &u, &err), &err)) {
            CHECK_EQ_U64(u.type, PERFDATA_EVENT_UPDATE_CPUS);
            CHECK_EQ_U64(u.cpus.encoding, PERFDATA_CPU_MAP_RANGE);
            CHECK_EQ_U64(u.cpus.any_cpu, 0);
            check_cpus(&u.cpus, want, 4);
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_TIME_CONV)) {
        perfdata_time_conv t;
        if (DECODE_OK(perfdata_decode_time_conv(&x.f, &rec, &t, &err), &err)) {
            CHECK_EQ_U64(t.time_shift, 31);
            CHECK_EQ_U64(t.time_mult, 0x12345);
            CHECK_EQ_U64(t.time_zero, 0x0000ffff00001111ull);
            CHECK_EQ_U64(t.has_cycles, 0);
            CHECK_EQ_U64(t.time_cycles | t.time_mask | t.cap_user_time_zero | t.cap_user_time_short, 0);
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_TIME_CONV)) {
        perfdata_time_conv t;
        if (DECODE_OK(perfdata_decode_time_conv(&x.f, &rec, &t, &err), &err)) {
            CHECK_EQ_U64(t.time_shift, 30);
            CHECK_EQ_U64(t.time_mult, 0x54321);
            CHECK_EQ_U64(t.time_zero, 0x0000eeee00002222ull);
            CHECK_EQ_U64(t.has_cycles, 1);
            CHECK_EQ_U64(t.time_cycles, 0x2222);
            CHECK_EQ_U64(t.time_mask, 0x0000ffffffffffffull);
            CHECK_EQ_U64(t.cap_user_time_zero, 1);
            CHECK_EQ_U64(t.cap_user_time_short, 1);
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_HEADER_FEATURE)) {
        perfdata_header_feature h;
        CHECK_EQ_U64(rec.size, 84);
        if (DECODE_OK(perfdata_decode_header_feature(&x.f, &rec, &h, &err), &err)) {
            CHECK_EQ_U64(h.feat_id, PERFDATA_FEAT_HOSTNAME);
            CHECK_EQ_U64(h.data.n, 68);
            CHECK_EQ_U64(h.data.offset, rec.offset + 16);
            CHECK(h.data.n == 68 && memcmp(h.data.p + 4, "pipehost", 9) == 0);
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_COMPRESSED)) {
        perfdata_compressed c;
        CHECK_EQ_U64(rec.size, 21);
        if (DECODE_OK(perfdata_decode_compressed(&x.f, &rec, &c, &err), &err)) {
            CHECK_EQ_U64(c.data_size, 13);
            CHECK(view_is(c.data, compressed_bytes, 13));
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_COMPRESSED2)) {
        perfdata_compressed c;
        CHECK_EQ_U64(rec.size, 32);
        if (DECODE_OK(perfdata_decode_compressed(&x.f, &rec, &c, &err), &err)) {
            CHECK_EQ_U64(c.data_size, 13);
            CHECK(view_is(c.data, compressed_bytes, 13));
        }
    }
    CHECK(NEXT(&x, &rec, PERFDATA_RECORD_FINISHED_INIT));
    if (NEXT(&x, &rec, PERFDATA_RECORD_BPF_METADATA)) {
        perfdata_bpf_metadata m;
        if (DECODE_OK(perfdata_decode_bpf_metadata(&x.f, &rec, &m, &err), &err)) {
            perfdata_bpf_metadata_entry e;
            CHECK(view_str(m.prog_name, "bpf_prog_6deef7357e7b4530_sys_enter"));
            CHECK_EQ_U64(m.nr_entries, 2);
            e = perfdata_bpf_metadata_at(&m, 0);
            CHECK(view_str(e.key, "map_name"));
            CHECK(view_str(e.value, "counts"));
            e = perfdata_bpf_metadata_at(&m, 1);
            CHECK(view_str(e.key, "version"));
            CHECK(view_str(e.value, "42"));
            e = perfdata_bpf_metadata_at(&m, 2);
            CHECK_EQ_U64(e.key.n + e.value.n, 0);
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_SCHEDSTAT_CPU)) {
        perfdata_schedstat s;
        if (DECODE_OK(perfdata_decode_schedstat(&x.f, &rec, &s, &err), &err)) {
            CHECK_EQ_U64(s.timestamp, 0x0000000001234567ull);
            CHECK_EQ_U64(s.cpu, 1);
            CHECK_EQ_U64(s.version, 17);
            CHECK_EQ_U64(s.domain, 0);
            CHECK_EQ_U64(s.counters.count, 3);
            CHECK_EQ_U64(perfdata_u64s_at(&s.counters, 2), 33);
        }
    }
    if (NEXT(&x, &rec, PERFDATA_RECORD_SCHEDSTAT_DOMAIN)) {
        perfdata_schedstat s;
        if (DECODE_OK(perfdata_decode_schedstat(&x.f, &rec, &s, &err), &err)) {
            CHECK_EQ_U64(s.timestamp, 0x0000000001234568ull);
            CHECK_EQ_U64(s.cpu, 2);
            CHECK_EQ_U64(s.version, 16);
            CHECK_EQ_U64(s.domain, 1);
            CHECK_EQ_U64(s.counters.count, 2);
            CHECK_EQ_U64(perfdata_u64s_at(&s.counters, 0), 44);
        }
    }
    CHECK_EQ_U64(perfdata_next_record(&x.f, &x.cur, &rec, &x.err), PERFDATA_END);
    fx_free(&x);
    wr_free(&d);
}

/* ------------------------------------------------ decoders as a table */

/* Each decoder behind one signature. */
typedef perfdata_status (*decode_fn)(const perfdata_file *f, const perfdata_record *rec, perfdata_error *err);

#define THUNK(name, T)                                                                              \
    static perfdata_status thunk_##name(const perfdata_file *f, const perfdata_record *rec,         \
                                        perfdata_error *err) {                                       \
        T out;                                                                                       \
        return perfdata_decode_##name(f, rec, &out, err);                                            \
    }
THUNK(sample, perfdata_sample)
THUNK(mmap, perfdata_mmap)
THUNK(lost, perfdata_lost)
THUNK(comm, perfdata_comm)
THUNK(task, perfdata_task)
THUNK(throttle, perfdata_throttle)
THUNK(read_record, perfdata_read_record)
THUNK(aux, perfdata_aux)
THUNK(itrace_start, perfdata_itrace_start)
THUNK(lost_samples, perfdata_lost_samples)
THUNK(switch, perfdata_switch)
THUNK(namespaces, perfdata_namespaces)
THUNK(ksymbol, perfdata_ksymbol)
THUNK(bpf_event, perfdata_bpf_event)
THUNK(cgroup, perfdata_cgroup)
THUNK(text_poke, perfdata_text_poke)
THUNK(aux_output_hw_id, perfdata_aux_output_hw_id)
THUNK(callchain_deferred, perfdata_callchain_deferred)
THUNK(header_attr, perfdata_header_attr)
THUNK(header_event_type, perfdata_header_event_type)
THUNK(tracing_data, perfdata_tracing_data)
THUNK(build_id, perfdata_build_id)
THUNK(id_index, perfdata_id_index)
THUNK(auxtrace_info, perfdata_auxtrace_info)
THUNK(auxtrace, perfdata_auxtrace)
THUNK(auxtrace_error, perfdata_auxtrace_error)
THUNK(thread_map, perfdata_thread_map)
THUNK(cpu_map, perfdata_cpu_map)
THUNK(stat_config, perfdata_stat_config)
THUNK(stat, perfdata_stat)
THUNK(stat_round, perfdata_stat_round)
THUNK(event_update, perfdata_event_update)
THUNK(time_conv, perfdata_time_conv)
THUNK(header_feature, perfdata_header_feature)
THUNK(compressed, perfdata_compressed)
THUNK(bpf_metadata, perfdata_bpf_metadata)
THUNK(schedstat, perfdata_schedstat)
#undef THUNK

typedef struct decoder {
    const char *name;
    decode_fn fn;
    uint32_t t1, t2; /* the record types it accepts */
} decoder;

#define D(name, t1, t2) {"perfdata_decode_" #name, thunk_##name, PERFDATA_RECORD_##t1, PERFDATA_RECORD_##t2}
static const decoder decoders[] = {
    D(sample, SAMPLE, SAMPLE),
    D(mmap, MMAP, MMAP2),
    D(lost, LOST, LOST),
    D(comm, COMM, COMM),
    D(task, FORK, EXIT),
    D(throttle, THROTTLE, UNTHROTTLE),
    D(read_record, READ, READ),
    D(aux, AUX, AUX),
    D(itrace_start, ITRACE_START, ITRACE_START),
    D(lost_samples, LOST_SAMPLES, LOST_SAMPLES),
    D(switch, SWITCH, SWITCH_CPU_WIDE),
    D(namespaces, NAMESPACES, NAMESPACES),
    D(ksymbol, KSYMBOL, KSYMBOL),
    D(bpf_event, BPF_EVENT, BPF_EVENT),
    D(cgroup, CGROUP, CGROUP),
    D(text_poke, TEXT_POKE, TEXT_POKE),
    D(aux_output_hw_id, AUX_OUTPUT_HW_ID, AUX_OUTPUT_HW_ID),
    D(callchain_deferred, CALLCHAIN_DEFERRED, CALLCHAIN_DEFERRED),
    D(header_attr, HEADER_ATTR, HEADER_ATTR),
    D(header_event_type, HEADER_EVENT_TYPE, HEADER_EVENT_TYPE),
    D(tracing_data, HEADER_TRACING_DATA, HEADER_TRACING_DATA),
    D(build_id, HEADER_BUILD_ID, HEADER_BUILD_ID),
    D(id_index, ID_INDEX, ID_INDEX),
    D(auxtrace_info, AUXTRACE_INFO, AUXTRACE_INFO),
    D(auxtrace, AUXTRACE, AUXTRACE),
    D(auxtrace_error, AUXTRACE_ERROR, AUXTRACE_ERROR),
    D(thread_map, THREAD_MAP, THREAD_MAP),
    D(cpu_map, CPU_MAP, CPU_MAP),
    D(stat_config, STAT_CONFIG, STAT_CONFIG),
    D(stat, STAT, STAT),
    D(stat_round, STAT_ROUND, STAT_ROUND),
    D(event_update, EVENT_UPDATE, EVENT_UPDATE),
    D(time_conv, TIME_CONV, TIME_CONV),
    D(header_feature, HEADER_FEATURE, HEADER_FEATURE),
    D(compressed, COMPRESSED, COMPRESSED2),
    D(bpf_metadata, BPF_METADATA, BPF_METADATA),
    D(schedstat, SCHEDSTAT_CPU, SCHEDSTAT_DOMAIN),
};
#undef D
#define NR_DECODERS (sizeof decoders / sizeof decoders[0])

/* The decoder for a record type, or NULL (FINISHED_ROUND/INIT, unknown). */
static const decoder *decoder_for(uint32_t type) {
    size_t i;
    for (i = 0; i < NR_DECODERS; i++)
        if (decoders[i].t1 == type || decoders[i].t2 == type) return &decoders[i];
    return NULL;
}

/* The kernel, tool and sample records in one file-mode image. */
static int open_all_records(fx *x, int big, rec_log *log) {
    tevent ev = decoder_event();
    tsample ts;
    wr d;
    int ok;
    sample_defaults(&ts);
    wr_init(&d, big);
    build_kernel_records(&d, &ev.attr, log);
    build_tool_records(&d, &ev, log);
    put_sample(&d, &ev.attr, &ts);
    log_rec(log, PERFDATA_RECORD_SAMPLE, 7 * 8);
    ok = fx_open_file(x, big, &ev, 1, &d);
    wr_free(&d);
    return ok;
}

/* Every decoder on every record of the other types: BAD_ARGUMENT. */
ORDER_TEST(decoders_wrong_type) {
    fx x;
    perfdata_record rec;
    if (CHECK(open_all_records(&x, big, NULL))) {
        size_t k;
        int seen = 0;
        unsigned wrong[NR_DECODERS];
        memset(wrong, 0, sizeof wrong);
        while (fx_next(&x, &rec)) {
            seen++;
            for (k = 0; k < NR_DECODERS; k++) {
                perfdata_error err;
                perfdata_status st;
                if (rec.type == decoders[k].t1 || rec.type == decoders[k].t2) continue;
                st = decoders[k].fn(&x.f, &rec, &err);
                if (st != PERFDATA_ERR_BAD_ARGUMENT || err.code != PERFDATA_ERR_BAD_ARGUMENT) wrong[k]++;
            }
        }
        CHECK_EQ_U64(x.err.code, PERFDATA_END);
        CHECK_EQ_U64(seen, NR_ALL_RECORDS);
        for (k = 0; k < NR_DECODERS; k++)
            if (!CHECK_EQ_U64(wrong[k], 0)) fprintf(stderr, "   ... %s\n", decoders[k].name);
    }
    fx_free(&x);
}

/* Every record's body cut to every length below what its decoder needs
   (exact-size heap copies): the decoder returns an error, never OK and
   never a read past the cut. The full record decodes OK. */
ORDER_TEST(decoders_truncated) {
    fx x;
    rec_log log;
    perfdata_record rec;
    memset(&log, 0, sizeof log);
    if (CHECK(open_all_records(&x, big, &log))) {
        size_t i = 0;
        while (fx_next(&x, &rec)) {
            const decoder *dec = decoder_for(rec.type);
            perfdata_error err;
            size_t body, min_body, bad = 0;
            if (!CHECK(i < log.n) || !CHECK_EQ_U64(rec.type, log.v[i].type)) break;
            min_body = log.v[i++].min_body;
            if (!dec) continue;
            if (!CHECK_EQ_U64(dec->fn(&x.f, &rec, &err), PERFDATA_OK)) fprintf(stderr, "   ... %s\n", dec->name);
            for (body = 0; body < min_body && body < rec.body.n; body++) {
                perfdata_record cut;
                unsigned char *p = truncated_copy(&rec, body, &cut);
                perfdata_status st = dec->fn(&x.f, &cut, &err);
                if (st == PERFDATA_OK || st != err.code) bad++;
                free(p);
            }
            if (!CHECK_EQ_U64(bad, 0))
                fprintf(stderr, "   ... %s (record at 0x%llx, %u bytes)\n", dec->name, (unsigned long long)rec.offset,
                        (unsigned)rec.size);
        }
        CHECK_EQ_U64(i, log.n);
        CHECK_EQ_U64(x.err.code, PERFDATA_END);
    }
    fx_free(&x);
}

/* ===================================================================== */
/*                       the input is never written                      */
/* ===================================================================== */

static uint64_t fnv1a(const unsigned char *p, size_t n) {
    uint64_t h = 0xcbf29ce484222325ull;
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* Walks every record of x and runs every applicable decoder. */
static int decode_everything(fx *x) {
    perfdata_record rec;
    int n = 0;
    perfdata_cursor_init(&x->f, &x->cur);
    while (fx_next(x, &rec)) {
        const decoder *dec = decoder_for(rec.type);
        perfdata_error err;
        perfdata_sample_id sid;
        if (dec) dec->fn(&x->f, &rec, &err);
        if (rec.type < 64) perfdata_decode_sample_id(&x->f, &rec, &sid, &err);
        perfdata_record_event(&x->f, &rec, &err);
        n++;
    }
    return n;
}

/* A full decode of a file and of a pipe (with an id index, features, every
   decoder) leaves the caller's buffer byte for byte as it was. */
ORDER_TEST(input_never_written) {
    fx x;
    perfdata_id_entry idx[8];
    perfdata_view v;
    if (CHECK(open_all_records(&x, big, NULL))) {
        unsigned char *copy = (unsigned char *)malloc(x.img.n);
        uint64_t sum = fnv1a(x.img.p, x.img.n);
        if (!copy) abort();
        memcpy(copy, x.img.p, x.img.n);
        CHECK_EQ_U64(perfdata_set_id_index(&x.f, idx, 8, NULL), PERFDATA_OK);
        CHECK_EQ_U64(decode_everything(&x), NR_ALL_RECORDS);
        CHECK_EQ_U64(perfdata_feature_string(&x.f, PERFDATA_FEAT_HOSTNAME, &v, NULL), PERFDATA_OK);
        CHECK_EQ_U64(fnv1a(x.img.p, x.img.n), sum);
        CHECK(memcmp(copy, x.img.p, x.img.n) == 0);
        free(copy);
    }
    fx_free(&x);
    {
        tevent ev[2];
        wr d;
        two_events(ev);
        wr_init(&d, big);
        build_kernel_records(&d, &ev[0].attr, NULL);
        build_tool_records(&d, &ev[1], NULL);
        if (CHECK(fx_open_pipe(&x, big, ev, 2, &d))) {
            uint64_t sum = fnv1a(x.img.p, x.img.n);
            CHECK_EQ_U64(perfdata_set_id_index(&x.f, idx, 8, NULL), PERFDATA_OK);
            CHECK_EQ_U64(decode_everything(&x), 2 + NR_KERNEL_RECORDS + NR_TOOL_RECORDS);
            CHECK_EQ_U64(decode_everything(&x), 2 + NR_KERNEL_RECORDS + NR_TOOL_RECORDS);
            CHECK_EQ_U64(fnv1a(x.img.p, x.img.n), sum);
        }
        fx_free(&x);
        wr_free(&d);
    }
}

/* ===================================================================== */

/* Small API odds and ends: status names, argument checks, and
   perfdata_u64s_at() reading in the array's byte order. */
ORDER_TEST(misc_api) {
    static const unsigned char bytes[16] = {1, 2, 3, 4, 5, 6, 7, 8, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8};
    perfdata_u64s a;
    CHECK(strcmp(perfdata_status_name(PERFDATA_OK), "PERFDATA_OK") == 0);
    CHECK(strcmp(perfdata_status_name(PERFDATA_ERR_UNKNOWN_ID), "PERFDATA_ERR_UNKNOWN_ID") == 0);
    CHECK(strcmp(perfdata_status_name(PERFDATA__STATUS_COUNT), "PERFDATA_?") == 0);
    a.bytes.p = bytes;
    a.bytes.n = 16;
    a.bytes.offset = 0;
    a.count = 2;
    a.big_endian = big;
    CHECK_EQ_U64(perfdata_u64s_at(&a, 0), big ? 0x0102030405060708ull : 0x0807060504030201ull);
    CHECK_EQ_U64(perfdata_u64s_at(&a, 1), big ? 0xf1f2f3f4f5f6f7f8ull : 0xf8f7f6f5f4f3f2f1ull);
    CHECK_EQ_U64(perfdata_u64s_at(&a, 2), 0);
    {
        perfdata_file f;
        perfdata_error err;
        CHECK_EQ_U64(perfdata_open(&f, NULL, 16, NULL, 0, &err), PERFDATA_ERR_BAD_ARGUMENT);
        CHECK_EQ_U64(perfdata_open(&f, "PERFILE2", 8, NULL, 1, &err), PERFDATA_ERR_BAD_ARGUMENT);
    }
}

/* A stand-in decompressor: the payload is a u32 count and one 8-byte
   record, the output that record count times. */
static perfdata_status repeat_records(void *user, const unsigned char *in, size_t in_size, unsigned char *out,
                                      size_t out_cap, size_t *out_size) {
    uint32_t count, i;
    int big = *(const int *)user;
    if (in_size != 12) return PERFDATA_ERR_MALFORMED;
    count = big ? (uint32_t)in[0] << 24 | (uint32_t)in[1] << 16 | (uint32_t)in[2] << 8 | in[3]
                : (uint32_t)in[3] << 24 | (uint32_t)in[2] << 16 | (uint32_t)in[1] << 8 | in[0];
    if ((size_t)count > out_cap / 8) return PERFDATA_ERR_NO_SPACE;
    for (i = 0; i < count; i++) memcpy(out + 8u * i, in + 4, 8);
    *out_size = 8u * count;
    return PERFDATA_OK;
}

/* The bound on decompression: chunks whose records expand past
   max_ratio times the chunks' bytes (plus the slack; a record costs at
   least 256 bytes) stop the chunk stream with ERR_LIMIT, later chunks
   come undecoded; 0 lifts the bound; a higher bound lets them through. */
ORDER_TEST(inflate_max_ratio) {
    tevent ev = decoder_event();
    wr d;
    blob b;
    file_opts o = default_opts();
    perfdata_file f;
    perfdata_event events[2];
    perfdata_error err;
    size_t k, v;
    static unsigned char out[(1u << 20) + 65536];
    enum { CHUNKS = 6, PER_CHUNK = 65536 }; /* 16 MiB of cost each */
    wr_init(&d, big);
    for (k = 0; k < CHUNKS; k++) {
        size_t at = rec_begin(&d, PERFDATA_RECORD_COMPRESSED, 0);
        put32(&d, PER_CHUNK);
        put32(&d, PERFDATA_RECORD_FINISHED_ROUND);
        put16(&d, 0);
        put16(&d, 8);
        rec_end(&d, at);
    }
    b = build_file(big, &ev, 1, &d, &o);
    for (v = 0; v < 3; v++) {
        perfdata_cursor c;
        perfdata_inflate z;
        perfdata_inflate_sizes sizes;
        perfdata_record rec;
        perfdata_status st;
        size_t inside = 0, chunks = 0, undecoded = 0;
        if (!CHECK_EQ_U64(perfdata_open(&f, b.p, b.n, events, 2, &err), PERFDATA_OK)) break;
        perfdata_cursor_init(&f, &c);
        CHECK_EQ_U64(perfdata_inflate_measure(&f, &c, &sizes, &err), PERFDATA_OK);
        perfdata_inflate_init(&z, &c, &sizes, out, sizeof out, repeat_records, &big);
        if (v == 1) perfdata_inflate_set_max_ratio(&z, 0);
        if (v == 2) perfdata_inflate_set_max_ratio(&z, 1u << 20);
        size_t told = 0;
        perfdata_error why;
        while ((st = perfdata_inflate_next(&f, &z, &rec, &err)) != PERFDATA_END) {
            if (st != PERFDATA_OK) { /* the bound: said once, as a status without a record */
                CHECK_EQ_U64(st, PERFDATA_ERR_LIMIT);
                CHECK_EQ_U64(rec.type, 0);
                CHECK_EQ_U64(err.final, 0);
                told++;
                continue;
            }
            if (rec.type == PERFDATA_RECORD_COMPRESSED) {
                chunks++;
                if (!perfdata_inflate_expands(&z, &rec)) undecoded++;
            } else if (rec.type == PERFDATA_RECORD_FINISHED_ROUND) {
                inside++;
            }
        }
        CHECK_EQ_U64(st, PERFDATA_END);
        CHECK_EQ_U64(chunks, CHUNKS);
        if (v == 0) {
            /* 64 MiB of slack (four chunks' worth) and 4096 * 20 bytes per
               chunk: the fifth chunk passes the bound after 1600 records */
            uint64_t allowed = PERFDATA_INFLATE_SLACK + (uint64_t)PERFDATA_INFLATE_MAX_RATIO * 20 * 5;
            CHECK_EQ_U64(inside, allowed / PERFDATA_INFLATE_RECORD_COST);
            CHECK_EQ_U64(told, 1);
            CHECK_EQ_U64(perfdata_inflate_status(&z, &why), PERFDATA_ERR_LIMIT);
            CHECK_EQ_U64(why.offset, f.data.offset + 4 * 20);
            CHECK_EQ_U64(undecoded, CHUNKS - 5);
        } else {
            CHECK_EQ_U64(inside, (size_t)CHUNKS * PER_CHUNK);
            CHECK_EQ_U64(told, 0);
            CHECK_EQ_U64(perfdata_inflate_status(&z, NULL), PERFDATA_OK);
            CHECK_EQ_U64(undecoded, 0);
        }
    }
    free(b.p);
    wr_free(&d);
}

/* A stand-in decompressor that copies its input. */
static perfdata_status copy_chunk(void *user, const unsigned char *in, size_t in_size, unsigned char *out,
                                  size_t out_cap, size_t *out_size) {
    (void)user;
    if (in_size > out_cap) return PERFDATA_ERR_NO_SPACE;
    memcpy(out, in, in_size);
    *out_size = in_size;
    return PERFDATA_OK;
}

/* The last chunk ends inside a record: its whole records come, then that
   is said once (TRUNCATED, without a record, the bytes left over in
   needed, the chunk's offset), then END. A record cut between two chunks
   is put back together and is no such loss. */
ORDER_TEST(inflate_partial_record_at_end) {
    tevent ev = decoder_event();
    wr d;
    blob b;
    file_opts o = default_opts();
    perfdata_file f;
    perfdata_event events[2];
    perfdata_error err;
    int cut;
    static unsigned char out[1 << 16];
    for (cut = 0; cut <= 1; cut++) {
        perfdata_cursor c;
        perfdata_inflate z;
        perfdata_inflate_sizes sizes;
        perfdata_record rec;
        perfdata_status st;
        size_t at, rounds = 0, told = 0, ends = 0;
        uint64_t chunk_offset = 0;
        wr_init(&d, big);
        /* chunk 1: a FINISHED_ROUND and the first half of another */
        at = rec_begin(&d, PERFDATA_RECORD_COMPRESSED, 0);
        put32(&d, PERFDATA_RECORD_FINISHED_ROUND); put16(&d, 0); put16(&d, 8);
        put32(&d, PERFDATA_RECORD_FINISHED_ROUND);
        rec_end(&d, at);
        /* chunk 2 (not when cut): the second half, and one more */
        if (!cut) {
            at = rec_begin(&d, PERFDATA_RECORD_COMPRESSED, 0);
            put16(&d, 0); put16(&d, 8);
            put32(&d, PERFDATA_RECORD_FINISHED_ROUND); put16(&d, 0); put16(&d, 8);
            rec_end(&d, at);
        }
        b = build_file(big, &ev, 1, &d, &o);
        if (!CHECK_EQ_U64(perfdata_open(&f, b.p, b.n, events, 2, &err), PERFDATA_OK)) break;
        perfdata_cursor_init(&f, &c);
        CHECK_EQ_U64(perfdata_inflate_measure(&f, &c, &sizes, &err), PERFDATA_OK);
        perfdata_inflate_init(&z, &c, &sizes, out, sizeof out, copy_chunk, NULL);
        while ((st = perfdata_inflate_next(&f, &z, &rec, &err)) != PERFDATA_END || ends++ < 2) {
            if (st == PERFDATA_END) continue; /* END again after END */
            if (st != PERFDATA_OK) {
                CHECK_EQ_U64(st, PERFDATA_ERR_TRUNCATED);
                CHECK_EQ_U64(rec.type, 0);
                CHECK_EQ_U64(err.needed, 4);
                CHECK_EQ_U64(err.offset, chunk_offset);
                CHECK_EQ_U64(err.final, 0);
                told++;
                continue;
            }
            if (rec.type == PERFDATA_RECORD_COMPRESSED) chunk_offset = rec.offset;
            if (rec.type == PERFDATA_RECORD_FINISHED_ROUND) rounds++;
        }
        CHECK_EQ_U64(rounds, cut ? 1 : 3);
        CHECK_EQ_U64(told, (size_t)cut);
        free(b.p);
        wr_free(&d);
    }
}

/* perfdata_ordered_flush: with a window that never grows, HALF releases
   up to halfway between the earliest queued time and the last queued one,
   and the next round releases up to there too (as perf); ALL releases the
   whole queue. Every record comes out exactly once. */
ORDER_TEST(ordered_flush) {
    tevent ev = decoder_event();
    tsid tr = std_trailer();
    wr d;
    blob b;
    file_opts o = default_opts();
    perfdata_file f;
    perfdata_event events[2];
    perfdata_error err;
    size_t i, how;
    enum { N = 40 };
    /* times 1000, 999, ... : every record earlier than the ones queued */
    wr_init(&d, big);
    for (i = 0; i < N; i++) {
        tr.time = 1000 - i;
        put_comm(&d, &ev.attr, 1, 2, "x", &tr);
    }
    b = build_file(big, &ev, 1, &d, &o);
    for (how = PERFDATA_FLUSH_HALF; how <= PERFDATA_FLUSH_ALL; how++) {
        perfdata_cursor c;
        perfdata_ordered ord;
        perfdata_order_entry window[8];
        perfdata_record rec;
        perfdata_status st;
        uint64_t seen[N], t;
        size_t n = 0, flushes = 0, first_release = 0;
        test_set_context(how == PERFDATA_FLUSH_HALF ? "half" : "all");
        if (!CHECK_EQ_U64(perfdata_open(&f, b.p, b.n, events, 2, &err), PERFDATA_OK)) break;
        perfdata_cursor_init(&f, &c);
        perfdata_ordered_init(&ord, &c, window, 8);
        for (;;) {
            st = perfdata_ordered_next(&f, &ord, &rec, &err);
            if (st == PERFDATA_NEED_MEMORY) {
                if (!flushes++) CHECK_EQ_U64(perfdata_ordered_queued(&ord), 8);
                perfdata_ordered_flush(&ord, (perfdata_flush)how);
                continue;
            }
            if (st != PERFDATA_OK) break;
            t = perfdata_record_time(&f, &rec);
            if (n < N) seen[n] = t;
            if (flushes == 1 && !first_release) first_release = n + 1;
            n++;
        }
        CHECK_EQ_U64(st, PERFDATA_END);
        CHECK_EQ_U64(n, N);
        CHECK(flushes > 0);
        /* the first release: 8 queued (1000..993), the 9th held; HALF
           releases times <= 993 + (993 - 993) / 2 = 993 (the last queued is
           the earliest), ALL all eight, earliest first */
        CHECK_EQ_U64(seen[0], 993);
        if (how == PERFDATA_FLUSH_ALL) CHECK_EQ_U64(seen[7], 1000);
        for (i = 0; i < N; i++) {
            size_t j, same = 0;
            for (j = 0; j < N && j < n; j++) same += seen[j] == 1000 - i;
            CHECK_EQ_U64(same, 1);
        }
    }
    test_set_context("");
    free(b.p);
    wr_free(&d);
}

/* The queue's runs: records in several interleaved runs, out of order
   now and then, with rounds; delivered the same whether the window is
   large from the start, or grown at each NEED_MEMORY and moved now and
   then into a window just large enough (its slots compacted, run by run),
   and equal times come in file order. */
ORDER_TEST(ordered_runs_moved) {
    tevent ev = decoder_event();
    tsid tr = std_trailer();
    wr d;
    blob b;
    file_opts o = default_opts();
    perfdata_file f;
    perfdata_event events[2];
    perfdata_error err;
    enum { N = 3000, RUNS = 5 };
    static uint32_t out[2][N];
    uint64_t clock[RUNS] = {0, 0, 0, 0, 0}, rnd = 12345;
    size_t i, pass, moves = 0;
    wr_init(&d, big);
    for (i = 0; i < N; i++) {
        size_t r;
        rnd = rnd * 6364136223846793005ull + 1442695040888963407ull;
        r = (size_t)(rnd >> 33) % RUNS;
        clock[r] += (rnd >> 40) % 4;                   /* repeats: ties within a run */
        tr.time = 1000 + clock[r] + ((rnd >> 20) % 97 == 0 ? 0 : r); /* now and then early */
        put_comm(&d, &ev.attr, (uint32_t)i, (uint32_t)i, "x", &tr);
        if ((rnd >> 50) % 60 == 0) put_header_only(&d, PERFDATA_RECORD_FINISHED_ROUND, 8);
    }
    b = build_file(big, &ev, 1, &d, &o);
    for (pass = 0; pass < 2; pass++) {
        perfdata_cursor c;
        perfdata_ordered ord;
        perfdata_order_entry *window = (perfdata_order_entry *)malloc((pass ? 4 : N) * sizeof *window);
        perfdata_record rec;
        perfdata_status st;
        uint64_t last_time = 0;
        uint32_t last_pid = 0;
        size_t n = 0, bad = 0;
        if (!window || !CHECK_EQ_U64(perfdata_open(&f, b.p, b.n, events, 2, &err), PERFDATA_OK)) { free(window); break; }
        perfdata_cursor_init(&f, &c);
        perfdata_ordered_init(&ord, &c, window, pass ? 4 : N);
        for (;;) {
            st = perfdata_ordered_next(&f, &ord, &rec, &err);
            if (st == PERFDATA_NEED_MEMORY || (pass && st == PERFDATA_OK && n % 37 == 0)) {
                /* a window of exactly what is needed (or queued, plus a little) */
                size_t cap = st == PERFDATA_NEED_MEMORY ? (size_t)(err.needed / sizeof *window)
                                                        : perfdata_ordered_queued(&ord) + n % 3;
                perfdata_order_entry *w = (perfdata_order_entry *)malloc((cap ? cap : 1) * sizeof *w);
                if (!w || perfdata_ordered_grow(&ord, w, cap, &err) != PERFDATA_OK) { free(w); bad++; break; }
                free(window);
                window = w;
                moves++;
                if (st == PERFDATA_NEED_MEMORY) continue;
            }
            if (st != PERFDATA_OK) break;
            if (rec.type != PERFDATA_RECORD_COMM) continue;
            {
                perfdata_comm cm;
                uint64_t t = perfdata_record_time(&f, &rec);
                if (perfdata_decode_comm(&f, &rec, &cm, &err) != PERFDATA_OK) { bad++; continue; }
                /* within a release: by time, equal times in file order */
                if (n && t == last_time && cm.pid < last_pid) bad++;
                last_time = t;
                last_pid = cm.pid;
                if (n < N) out[pass][n] = cm.pid;
                n++;
            }
        }
        CHECK_EQ_U64(st, PERFDATA_END);
        CHECK_EQ_U64(n, N);
        CHECK_EQ_U64(bad, 0);
        free(window);
    }
    CHECK(moves > 40);
    CHECK(memcmp(out[0], out[1], sizeof out[0]) == 0);
    free(b.p);
    wr_free(&d);
}

/* The id index as pipe mode grows it: events added one by one (many ids
   shared between events), every id found as the latest event that has it,
   as perf's id hash finds it; with room for the merges, and without (then
   the index is sorted whole). The scan without an index agrees. */
TEST(id_index_runs) {
    enum { NEV = 150, MAXIDS = 6, NID = 97 };
    static unsigned char idbytes[NEV][MAXIDS * 8];
    static perfdata_event events[NEV];
    static perfdata_id_entry idx[2 * NEV * MAXIDS];
    unsigned char attr[64];
    size_t total = 0, e, j, v;
    for (e = 0; e < NEV; e++) total += 1 + (e * 7) % MAXIDS;
    memset(attr, 0, sizeof attr);
    attr[0] = 1;  /* type: software */
    attr[4] = 64; /* size */
    for (v = 0; v < 3; v++) {
        size_t cap = v == 0 ? 2 * total : v == 1 ? total : total + 5;
        perfdata_file f;
        perfdata_error err;
        memset(&f, 0, sizeof f);
        f.events = events;
        f.priv.cap_events = NEV;
        f.priv.id_pos = f.priv.is_pos = -1;
        test_set_context(v == 0 ? "room for merges" : v == 1 ? "no scratch" : "little scratch");
        CHECK_EQ_U64(perfdata_set_id_index(&f, idx, cap, &err), PERFDATA_OK);
        for (e = 0; e < NEV; e++) {
            size_t nid = 1 + (e * 7) % MAXIDS;
            perfdata_view av;
            perfdata_u64s ids;
            for (j = 0; j < nid; j++) {
                uint64_t id = (e * 31 + j * 17) % NID + 1;
                unsigned k;
                for (k = 0; k < 8; k++) idbytes[e][8 * j + k] = (unsigned char)(id >> (8 * k));
            }
            av.p = attr; av.n = sizeof attr; av.offset = 0;
            ids.bytes.p = idbytes[e]; ids.bytes.n = 8 * nid; ids.bytes.offset = 0;
            ids.count = nid; ids.big_endian = 0;
            if (!CHECK_EQ_U64(perfdata__add_event(&f, av, ids, &err), PERFDATA_OK)) break;
            if (!CHECK(f.priv.id_index == idx)) break;
            if (e % 10 == 9 || e == NEV - 1) {
                uint64_t id;
                for (id = 0; id <= NID + 1; id++) {
                    long want = -1, i;
                    perfdata_id_entry *keep = f.priv.id_index;
                    for (i = (long)e; i >= 0 && want < 0; i--)
                        for (j = 0; j < events[i].ids.count; j++)
                            if (perfdata_u64s_at(&events[i].ids, j) == id) { want = i; break; }
                    CHECK_EQ_U64(perfdata_find_event(&f, id), want);
                    f.priv.id_index = NULL; /* the scan */
                    CHECK_EQ_U64(perfdata_find_event(&f, id), want);
                    f.priv.id_index = keep;
                }
            }
        }
        CHECK_EQ_U64(f.priv.nr_ids, total);
        /* filled whole again: the same answers */
        CHECK_EQ_U64(perfdata_set_id_index(&f, idx, total, &err), PERFDATA_OK);
        CHECK_EQ_U64(f.priv.sorted_ids, total);
        for (j = 0; j <= NID; j++) {
            long want = -1, i;
            for (i = NEV - 1; i >= 0 && want < 0; i--) {
                size_t k;
                for (k = 0; k < events[i].ids.count; k++)
                    if (perfdata_u64s_at(&events[i].ids, k) == j) { want = i; break; }
            }
            CHECK_EQ_U64(perfdata_find_event(&f, j), want);
        }
    }
    test_set_context("");
}

/* Attrs whose id arrays overlap claim more ids than the file holds: the
   open fails rather than have an index sized by their sum. */
TEST(open_overlapping_id_arrays) {
    int big;
    for (big = 0; big < 2; big++) {
        tevent ev[3];
        wr d;
        blob b;
        perfdata_file f;
        perfdata_error err;
        perfdata_event events[3];
        size_t i, n = 0;
        perfdata_attr a = base_attr(PERFDATA_SAMPLE_IP | PERFDATA_SAMPLE_ID, 0);
        file_opts o = default_opts();
        test_set_context(big ? "big-endian" : "little-endian");
        for (i = 0; i < 3; i++) ev[i] = make_event(a, 0x10 + i, 0x20 + i);
        wr_init(&d, big);
        b = build_file(big, ev, 3, &d, &o);
        CHECK_EQ_U64(perfdata_open(&f, b.p, b.n, events, 3, &err), PERFDATA_OK);
        /* every attr's ids section: the whole file, from offset 0 */
        for (i = 0; i < f.nr_events; i++) {
            uint64_t at = f.events[i].attr_bytes.offset + f.events[i].attr_bytes.n;
            size_t k;
            for (k = 0; k < 8; k++) {
                b.p[at + (big ? 7 - k : k)] = 0;
                b.p[at + 8 + (big ? 7 - k : k)] = (unsigned char)(((uint64_t)b.n & ~7ull) >> (8 * k));
            }
            n++;
        }
        CHECK_EQ_U64(n, 3);
        CHECK_EQ_U64(perfdata_open(&f, b.p, b.n, events, 3, &err), PERFDATA_ERR_MALFORMED);
        CHECK(strstr(err.message, "overlap") != NULL);
        CHECK_EQ_U64(perfdata_count_events(b.p, b.n, &n, &err), PERFDATA_ERR_MALFORMED);
        free(b.p);
        wr_free(&d);
    }
    test_set_context("");
}

int main(int argc, char **argv) {
    test_filter(argc, argv);
    RUN_TEST(open_file_mode);
    RUN_TEST(open_pipe_mode);
    RUN_TEST(count_events);
    RUN_TEST(open_no_space);
    RUN_TEST(open_header_72);
    RUN_TEST(open_attr_sizes);
    RUN_TEST(open_bad_headers);
    RUN_TEST(open_data_size_zero);
    RUN_TEST(open_cut);
    RUN_TEST(open_malformed_not_cut);
    RUN_TEST(features);
    RUN_TEST(attr_flags_big_endian);
    RUN_TEST(iter_size_below_8);
    RUN_TEST(iter_truncated);
    RUN_TEST(iter_small_and_unknown);
    RUN_TEST(iter_out_of_band);
    RUN_TEST(cursor_init_range);
    RUN_TEST(sample_all_fields);
    RUN_TEST(sample_read_single);
    RUN_TEST(sample_read_group);
    RUN_TEST(sample_read_group_lost);
    RUN_TEST(sample_callchain_raw);
    RUN_TEST(sample_branch_stack);
    RUN_TEST(sample_regs);
    RUN_TEST(sample_stack_user);
    RUN_TEST(sample_weight);
    RUN_TEST(sample_cgroup_pages_aux);
    RUN_TEST(sample_truncated);
    RUN_TEST(sample_bad_arguments);
    RUN_TEST(sample_id_trailer);
    RUN_TEST(record_event_mapping);
    RUN_TEST(id_index_runs);
    RUN_TEST(inflate_max_ratio);
    RUN_TEST(inflate_partial_record_at_end);
    RUN_TEST(ordered_flush);
    RUN_TEST(ordered_runs_moved);
    RUN_TEST(open_overlapping_id_arrays);
    RUN_TEST(status_without_err);
    RUN_TEST(kernel_record_decoders);
    RUN_TEST(tool_record_decoders);
    RUN_TEST(decoders_wrong_type);
    RUN_TEST(decoders_truncated);
    RUN_TEST(input_never_written);
    RUN_TEST(misc_api);
    return test_report();
}
