/* perfdata_writer: what it writes, read back with the reader, equals what
   it was given, in file and pipe mode and both byte orders; a record
   decoded from one byte order and written in the other reads back the
   same; a buffer too small at every size leaves whole records only; a
   failing sink ends the output; bad arguments are refused.
   Prints "N passed, N failed". */
#define PERFDATA_IMPLEMENTATION
#include "../perfdata.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;
static const char *where = "";
#define CHECK(c) do { if (c) passed++; else { failed++; printf("FAIL %s:%d: %s (%s)\n", __FILE__, __LINE__, #c, where); } } while (0)

static void le64(unsigned char *p, uint64_t v) { int i; for (i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i)); }

/* ---------------------------------------------------------------- source */

#define ALL_FIELDS                                                                                                 \
    (PERFDATA_SAMPLE_IDENTIFIER | PERFDATA_SAMPLE_IP | PERFDATA_SAMPLE_TID | PERFDATA_SAMPLE_TIME |                \
     PERFDATA_SAMPLE_ADDR | PERFDATA_SAMPLE_ID | PERFDATA_SAMPLE_STREAM_ID | PERFDATA_SAMPLE_CPU |                 \
     PERFDATA_SAMPLE_PERIOD | PERFDATA_SAMPLE_READ | PERFDATA_SAMPLE_CALLCHAIN | PERFDATA_SAMPLE_RAW |              \
     PERFDATA_SAMPLE_BRANCH_STACK | PERFDATA_SAMPLE_REGS_USER | PERFDATA_SAMPLE_STACK_USER |                       \
     PERFDATA_SAMPLE_WEIGHT_STRUCT | PERFDATA_SAMPLE_DATA_SRC | PERFDATA_SAMPLE_TRANSACTION |                      \
     PERFDATA_SAMPLE_REGS_INTR | PERFDATA_SAMPLE_PHYS_ADDR | PERFDATA_SAMPLE_CGROUP |                             \
     PERFDATA_SAMPLE_DATA_PAGE_SIZE | PERFDATA_SAMPLE_CODE_PAGE_SIZE | PERFDATA_SAMPLE_AUX)
/* events of different layouts are told apart by IDENTIFIER, as perf records them */
#define FEW_FIELDS                                                                                                 \
    (PERFDATA_SAMPLE_IDENTIFIER | PERFDATA_SAMPLE_IP | PERFDATA_SAMPLE_TID | PERFDATA_SAMPLE_TIME | PERFDATA_SAMPLE_ID | PERFDATA_SAMPLE_CPU | \
     PERFDATA_SAMPLE_PERIOD)

static uint64_t ids0[2] = {101, 102}, ids1[1] = {201};
static perfdata_writer_event events[2];
static unsigned char chain_b[4 * 8], group_b[2 * 3 * 8], branch_b[2 * 24], counters_b[2 * 8], regs_b[3 * 8];
static unsigned char iregs_b[2 * 8], stack_b[24], raw_b[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, aux_b[16];
static perfdata_sample src0, src1;
static perfdata_mmap mm_ino, mm_bid;
static perfdata_comm comm;
static perfdata_task fork_, exit_;
static perfdata_lost lost;
static perfdata_sample_id sid0, sid1;
static unsigned char bid[20];

static perfdata_u64s u64s(const unsigned char *p, size_t count) {
    perfdata_u64s a;
    a.bytes.p = p; a.bytes.n = 8 * count; a.bytes.offset = 0; a.count = count; a.big_endian = 0;
    return a;
}
static perfdata_view view(const void *p, size_t n) {
    perfdata_view v;
    v.p = (const unsigned char *)p; v.n = n; v.offset = 0;
    return v;
}

static void make_source(void) {
    perfdata_attr *a = &events[0].attr;
    size_t i;
    memset(events, 0, sizeof events);
    a->type = 4; a->size = PERFDATA_ATTR_SIZE_VER7; /* perf 6.1 reads up to this one */ a->config = 0x1234; a->sample_period = 4000;
    a->sample_type = ALL_FIELDS;
    a->read_format = PERFDATA_FORMAT_GROUP | PERFDATA_FORMAT_ID | PERFDATA_FORMAT_LOST |
                     PERFDATA_FORMAT_TOTAL_TIME_ENABLED | PERFDATA_FORMAT_TOTAL_TIME_RUNNING;
    /* precise_ip 2 (the bit pair a big-endian compiler mirrors), sample_id_all, a bit of each byte */
    a->flags = PERFDATA_ATTR_FLAG_SAMPLE_ID_ALL | (2ull << PERFDATA_ATTR_PRECISE_IP_SHIFT) | 1ull | (1ull << 10) |
               (1ull << 23) | (1ull << 33) | (1ull << 37);
    a->wakeup_events = 7; a->bp_type = 3; a->config1 = 0x11; a->config2 = 0x22;
    a->branch_sample_type = PERFDATA_BRANCH_HW_INDEX | PERFDATA_BRANCH_COUNTERS | 1;
    a->sample_regs_user = 0x7; a->sample_stack_user = 24; a->clockid = -5; a->sample_regs_intr = 0x12;
    a->aux_watermark = 9; a->sample_max_stack = 127; a->aux_sample_size = 16; a->aux_action = 3;
    a->sig_data = 0xabcdef;
    events[0].ids = ids0; events[0].nr_ids = 2;
    a = &events[1].attr;
    a->type = 1; a->size = 0; /* perf 6.1's size */
    a->sample_type = FEW_FIELDS; a->flags = PERFDATA_ATTR_FLAG_SAMPLE_ID_ALL | (1ull << PERFDATA_ATTR_PRECISE_IP_SHIFT);
    events[1].ids = ids1; events[1].nr_ids = 1;

    memset(&src0, 0, sizeof src0);
    src0.sample_type = ALL_FIELDS; src0.event = 0;
    src0.identifier = 101; src0.ip = 0xffffffff81000010ull; src0.pid = 10; src0.tid = 11; src0.time = 123456789;
    src0.addr = 0xdead0000; src0.id = 101; src0.stream_id = 99; src0.cpu = 3; src0.cpu_reserved = 0; src0.period = 4001;
    for (i = 0; i < 6; i++) le64(group_b + 8 * i, 1000 + i);
    src0.read.read_format = events[0].attr.read_format; src0.read.nr = 2; src0.read.time_enabled = 55;
    src0.read.time_running = 44; src0.read.values = view(group_b, sizeof group_b);
    le64(chain_b, PERFDATA_CONTEXT_KERNEL); le64(chain_b + 8, 0xffffffff81000010ull);
    le64(chain_b + 16, PERFDATA_CONTEXT_USER); le64(chain_b + 24, 0x401000);
    src0.callchain = u64s(chain_b, 4);
    src0.raw = view(raw_b, sizeof raw_b); /* 4 + 12: padded to 24 by the writer */
    src0.branch_stack.nr = 2; src0.branch_stack.hw_idx = 1; src0.branch_stack.has_hw_idx = 1;
    for (i = 0; i < 2; i++) {
        le64(branch_b + 24 * i, 0x1000 + i); le64(branch_b + 24 * i + 8, 0x2000 + i);
        /* mispred, cycles 0x1234, type 5, spec 2, new_type 9, priv 6 */
        le64(branch_b + 24 * i + 16, 1ull | (0x1234ull << 4) | (5ull << 20) | (2ull << 24) | (9ull << 26) | (6ull << 30) | (i << 3));
        le64(counters_b + 8 * i, 70 + i);
    }
    src0.branch_stack.entries = view(branch_b, sizeof branch_b);
    src0.branch_stack.counters = u64s(counters_b, 2);
    for (i = 0; i < 3; i++) le64(regs_b + 8 * i, 0x100 + i);
    src0.regs_user.abi = 2; src0.regs_user.mask = 7; src0.regs_user.values = u64s(regs_b, 3);
    for (i = 0; i < 16; i++) stack_b[i] = (unsigned char)(0xa0 + i);
    src0.stack_user = view(stack_b, 16); src0.stack_user_size = 24; src0.stack_user_dyn_size = 16;
    src0.weight_raw = 0x0003000200000001ull; src0.weight = 1; src0.ins_lat = 2; src0.p_stage_cyc = 3;
    src0.data_src = 0x5555; src0.transaction = 0x6666;
    for (i = 0; i < 2; i++) le64(iregs_b + 8 * i, 0x200 + i);
    src0.regs_intr.abi = 2; src0.regs_intr.mask = 0x12; src0.regs_intr.values = u64s(iregs_b, 2);
    src0.phys_addr = 0x7777; src0.cgroup = 0x8888; src0.data_page_size = 4096; src0.code_page_size = 2 << 20;
    for (i = 0; i < 16; i++) aux_b[i] = (unsigned char)i;
    src0.aux = view(aux_b, 16);

    memset(&src1, 0, sizeof src1);
    src1.sample_type = FEW_FIELDS; src1.event = 1;
    src1.identifier = 201; src1.ip = 0x401234; src1.pid = 20; src1.tid = 21; src1.time = 223456789; src1.id = 201; src1.cpu = 1; src1.period = 1;

    memset(&sid0, 0, sizeof sid0);
    sid0.event = 0; sid0.pid = 10; sid0.tid = 11; sid0.time = 5; sid0.id = 101; sid0.stream_id = 99; sid0.cpu = 3;
    sid0.identifier = 101;
    memset(&sid1, 0, sizeof sid1);
    sid1.event = 1; sid1.identifier = 201; sid1.pid = 20; sid1.tid = 21; sid1.time = 6; sid1.id = 201; sid1.cpu = 1;

    memset(&mm_ino, 0, sizeof mm_ino);
    mm_ino.pid = 10; mm_ino.tid = 10; mm_ino.addr = 0x400000; mm_ino.len = 0x2000; mm_ino.pgoff = 0x1000;
    mm_ino.maj = 8; mm_ino.min = 1; mm_ino.ino = 4242; mm_ino.ino_generation = 7; mm_ino.prot = 5; mm_ino.flags = 2;
    mm_ino.filename = view("/usr/bin/workload", 17);
    mm_bid = mm_ino;
    for (i = 0; i < 20; i++) bid[i] = (unsigned char)(0x10 + i);
    mm_bid.has_build_id = 1; mm_bid.build_id_size = 20; mm_bid.build_id = view(bid, 20);
    mm_bid.maj = mm_bid.min = 0; mm_bid.ino = mm_bid.ino_generation = 0;
    mm_bid.filename = view("/lib/libfirmware-image.so", 25);
    comm.pid = 10; comm.tid = 11; comm.exec = 1; comm.comm = view("worker", 6);
    fork_.pid = 12; fork_.ppid = 10; fork_.tid = 12; fork_.ptid = 11; fork_.time = 7;
    exit_ = fork_; exit_.time = 8;
    lost.id = 101; lost.lost = 3;
}

/* ---------------------------------------------------------------- compare */

static int same_u64s(const perfdata_u64s *a, const perfdata_u64s *b) {
    size_t i;
    if (a->count != b->count) return 0;
    for (i = 0; i < a->count; i++) if (perfdata_u64s_at(a, i) != perfdata_u64s_at(b, i)) return 0;
    return 1;
}
static int same_bytes(perfdata_view a, perfdata_view b) { return a.n == b.n && (!a.n || !memcmp(a.p, b.p, a.n)); }

static int same_sample(const perfdata_sample *a, const perfdata_sample *b) {
    size_t i;
    int ok = a->sample_type == b->sample_type && a->event == b->event && a->identifier == b->identifier &&
             a->ip == b->ip && a->pid == b->pid && a->tid == b->tid && a->time == b->time && a->addr == b->addr &&
             a->id == b->id && a->stream_id == b->stream_id && a->cpu == b->cpu && a->period == b->period &&
             same_u64s(&a->callchain, &b->callchain) && a->weight == b->weight && a->ins_lat == b->ins_lat &&
             a->p_stage_cyc == b->p_stage_cyc && a->data_src == b->data_src && a->transaction == b->transaction &&
             a->phys_addr == b->phys_addr && a->cgroup == b->cgroup && a->data_page_size == b->data_page_size &&
             a->code_page_size == b->code_page_size && same_bytes(a->aux, b->aux) &&
             a->stack_user_size == b->stack_user_size && a->stack_user_dyn_size == b->stack_user_dyn_size &&
             same_bytes(a->stack_user, b->stack_user) && a->regs_user.abi == b->regs_user.abi &&
             same_u64s(&a->regs_user.values, &b->regs_user.values) && a->regs_intr.abi == b->regs_intr.abi &&
             same_u64s(&a->regs_intr.values, &b->regs_intr.values);
    /* RAW: the bytes given, then the writer's zero padding */
    if (a->sample_type & PERFDATA_SAMPLE_RAW)
        ok = ok && a->raw.n <= b->raw.n && !memcmp(a->raw.p, b->raw.p, a->raw.n) && (4 + b->raw.n) % 8 == 0;
    ok = ok && a->read.nr == b->read.nr && a->read.time_enabled == b->read.time_enabled &&
         a->read.time_running == b->read.time_running;
    for (i = 0; ok && i < a->read.nr && (a->sample_type & PERFDATA_SAMPLE_READ); i++) {
        perfdata_read_value x = perfdata_read_at(&a->read, i), y = perfdata_read_at(&b->read, i);
        ok = x.value == y.value && x.id == y.id && x.lost == y.lost;
    }
    ok = ok && a->branch_stack.nr == b->branch_stack.nr && a->branch_stack.hw_idx == b->branch_stack.hw_idx &&
         same_u64s(&a->branch_stack.counters, &b->branch_stack.counters);
    for (i = 0; ok && i < a->branch_stack.nr; i++) {
        perfdata_branch_entry x = perfdata_branch_at(&a->branch_stack, i), y = perfdata_branch_at(&b->branch_stack, i);
        ok = x.from == y.from && x.to == y.to && x.flags == y.flags && x.cycles == y.cycles && x.type == y.type &&
             x.new_type == y.new_type && x.privilege == y.privilege && x.abort == y.abort;
    }
    return ok;
}

static int same_attr(const perfdata_attr *a, const perfdata_attr *b) {
    return a->type == b->type && a->config == b->config && a->sample_period == b->sample_period &&
           a->sample_type == b->sample_type && a->read_format == b->read_format && a->flags == b->flags &&
           a->wakeup_events == b->wakeup_events && a->bp_type == b->bp_type && a->config1 == b->config1 &&
           a->config2 == b->config2 && a->branch_sample_type == b->branch_sample_type &&
           a->sample_regs_user == b->sample_regs_user && a->sample_stack_user == b->sample_stack_user &&
           a->clockid == b->clockid && a->sample_regs_intr == b->sample_regs_intr &&
           a->aux_watermark == b->aux_watermark && a->sample_max_stack == b->sample_max_stack &&
           a->aux_sample_size == b->aux_sample_size && a->aux_action == b->aux_action && a->sig_data == b->sig_data &&
           a->config3 == b->config3;
}

static int same_sid(const perfdata_sample_id *a, const perfdata_sample_id *b, uint64_t t) {
    return a->event == b->event && (!(t & PERFDATA_SAMPLE_TID) || (a->pid == b->pid && a->tid == b->tid)) &&
           (!(t & PERFDATA_SAMPLE_TIME) || a->time == b->time) && (!(t & PERFDATA_SAMPLE_ID) || a->id == b->id) &&
           (!(t & PERFDATA_SAMPLE_CPU) || a->cpu == b->cpu) &&
           (!(t & PERFDATA_SAMPLE_STREAM_ID) || a->stream_id == b->stream_id) &&
           (!(t & PERFDATA_SAMPLE_IDENTIFIER) || a->identifier == b->identifier);
}

/* ----------------------------------------------------------------- write */

static unsigned char feat_host[128], feat_nr[8], feat_mem[8], feat_cmd[256], feat_desc[1024], feat_bid[128], feat_clk[8];
static perfdata_writer_feature feats[8];
static size_t nfeats;
static const char *names[2] = {"cycles:pp", "cpu-clock"};
static const char *argv_[3] = {"perf", "record", "-a"};

static void make_features(int big, int pipe) {
    size_t n;
    nfeats = 0;
    if (!pipe) {
        CHECK(perfdata_encode_build_id(feat_bid, sizeof feat_bid, big, 10, PERFDATA_MISC_USER, bid, 20, "/usr/bin/workload", &n, NULL) == PERFDATA_OK);
        feats[nfeats].id = PERFDATA_FEAT_BUILD_ID; feats[nfeats].bytes = feat_bid; feats[nfeats++].n = n;
    }
    CHECK(perfdata_encode_feat_string(feat_host, sizeof feat_host, big, "board-7", &n, NULL) == PERFDATA_OK && n == 68);
    feats[nfeats].id = PERFDATA_FEAT_HOSTNAME; feats[nfeats].bytes = feat_host; feats[nfeats++].n = n;
    CHECK(perfdata_encode_feat_nrcpus(feat_nr, sizeof feat_nr, big, 4, 2, &n, NULL) == PERFDATA_OK && n == 8);
    feats[nfeats].id = PERFDATA_FEAT_NRCPUS; feats[nfeats].bytes = feat_nr; feats[nfeats++].n = n;
    CHECK(perfdata_encode_feat_u64(feat_mem, sizeof feat_mem, big, 65536, &n, NULL) == PERFDATA_OK && n == 8);
    feats[nfeats].id = PERFDATA_FEAT_TOTAL_MEM; feats[nfeats].bytes = feat_mem; feats[nfeats++].n = n;
    CHECK(perfdata_encode_feat_strings(feat_cmd, sizeof feat_cmd, big, argv_, 3, &n, NULL) == PERFDATA_OK);
    feats[nfeats].id = PERFDATA_FEAT_CMDLINE; feats[nfeats].bytes = feat_cmd; feats[nfeats++].n = n;
    CHECK(perfdata_encode_feat_event_desc(feat_desc, sizeof feat_desc, big, events, names, 2, &n, NULL) == PERFDATA_OK);
    feats[nfeats].id = PERFDATA_FEAT_EVENT_DESC; feats[nfeats].bytes = feat_desc; feats[nfeats++].n = n;
    CHECK(perfdata_encode_feat_u64(feat_clk, sizeof feat_clk, big, 1, &n, NULL) == PERFDATA_OK);
    feats[nfeats].id = PERFDATA_FEAT_CLOCKID; feats[nfeats].bytes = feat_clk; feats[nfeats++].n = n;
}

/* The sequence every test writes; stops at the first error, returned. */
static perfdata_status write_all(perfdata_writer *w, perfdata_error *err) {
    perfdata_status st;
    if ((st = perfdata_writer_begin(w, events, 2, feats, nfeats, err)) != PERFDATA_OK) return st;
    if ((st = perfdata_writer_mmap(w, PERFDATA_RECORD_MMAP2, PERFDATA_MISC_USER, &mm_ino, &sid0, err)) != PERFDATA_OK) return st;
    if ((st = perfdata_writer_mmap(w, PERFDATA_RECORD_MMAP2, PERFDATA_MISC_USER, &mm_bid, &sid1, err)) != PERFDATA_OK) return st;
    if ((st = perfdata_writer_mmap(w, PERFDATA_RECORD_MMAP, PERFDATA_MISC_USER, &mm_ino, NULL, err)) != PERFDATA_OK) return st;
    if ((st = perfdata_writer_comm(w, 0, &comm, &sid0, err)) != PERFDATA_OK) return st;
    if ((st = perfdata_writer_task(w, PERFDATA_RECORD_FORK, 0, &fork_, &sid1, err)) != PERFDATA_OK) return st;
    if ((st = perfdata_writer_sample(w, PERFDATA_MISC_KERNEL, &src0, err)) != PERFDATA_OK) return st;
    if ((st = perfdata_writer_sample(w, PERFDATA_MISC_USER, &src1, err)) != PERFDATA_OK) return st;
    if ((st = perfdata_writer_lost(w, &lost, &sid0, err)) != PERFDATA_OK) return st;
    if ((st = perfdata_writer_task(w, PERFDATA_RECORD_EXIT, 0, &exit_, &sid1, err)) != PERFDATA_OK) return st;
    if ((st = perfdata_writer_record(w, PERFDATA_RECORD_FINISHED_ROUND, 0, NULL, 0, NULL, 0, err)) != PERFDATA_OK) return st;
    return perfdata_writer_finish(w, err);
}

static unsigned char out[1 << 16], out2[1 << 16];
static perfdata_event rev[8];

/* Reads `len` bytes written with flags back: every record as given. */
static void check_read(const unsigned char *p, size_t len, unsigned flags) {
    perfdata_file f;
    perfdata_cursor c;
    perfdata_record rec;
    perfdata_error err;
    perfdata_status st;
    perfdata_sample s;
    perfdata_sample_id sid;
    size_t i, nrec = 0, nsamples = 0, nfeat = 0;
    int big = (flags & PERFDATA_WRITE_BIG_ENDIAN) != 0;
    st = perfdata_open(&f, p, len, rev, 8, &err);
    CHECK(st == PERFDATA_OK);
    if (st != PERFDATA_OK) { printf("     %s\n", err.message); return; }
    CHECK(!!(f.flags & PERFDATA_FILE_PIPE) == !!(flags & PERFDATA_WRITE_PIPE));
    CHECK(!!(f.flags & PERFDATA_FILE_BIG_ENDIAN) == big);
    perfdata_cursor_init(&f, &c);
    while ((st = perfdata_next_record(&f, &c, &rec, &err)) == PERFDATA_OK) {
        nrec++;
        switch (rec.type) {
        case PERFDATA_RECORD_HEADER_FEATURE: nfeat++; break;
        case PERFDATA_RECORD_SAMPLE:
            CHECK(perfdata_decode_sample(&f, &rec, &s, &err) == PERFDATA_OK);
            CHECK(same_sample(nsamples ? &src1 : &src0, &s));
            CHECK(rec.misc == (nsamples ? PERFDATA_MISC_USER : PERFDATA_MISC_KERNEL));
            if (!nsamples) { /* written again in the other byte order, it reads the same */
                perfdata_writer w2;
                perfdata_file f2;
                perfdata_cursor c2;
                perfdata_record r2;
                perfdata_sample s2;
                perfdata_event ev2[4];
                unsigned fl2 = (flags ^ PERFDATA_WRITE_BIG_ENDIAN) | PERFDATA_WRITE_PIPE;
                CHECK(perfdata_writer_init_buffer(&w2, fl2, out2, sizeof out2, NULL) == PERFDATA_OK);
                CHECK(perfdata_writer_begin(&w2, events, 2, NULL, 0, NULL) == PERFDATA_OK);
                CHECK(perfdata_writer_sample(&w2, rec.misc, &s, NULL) == PERFDATA_OK);
                CHECK(perfdata_writer_finish(&w2, NULL) == PERFDATA_OK);
                CHECK(perfdata_open(&f2, out2, (size_t)perfdata_writer_size(&w2), ev2, 4, NULL) == PERFDATA_OK);
                perfdata_cursor_init(&f2, &c2);
                while (perfdata_next_record(&f2, &c2, &r2, NULL) == PERFDATA_OK && r2.type != PERFDATA_RECORD_SAMPLE) {}
                CHECK(r2.type == PERFDATA_RECORD_SAMPLE && perfdata_decode_sample(&f2, &r2, &s2, NULL) == PERFDATA_OK &&
                      same_sample(&src0, &s2));
            }
            nsamples++;
            break;
        case PERFDATA_RECORD_MMAP:
        case PERFDATA_RECORD_MMAP2: {
            perfdata_mmap m;
            const perfdata_mmap *want = rec.type == PERFDATA_RECORD_MMAP ? &mm_ino : (rec.misc & PERFDATA_MISC_MMAP_BUILD_ID) ? &mm_bid : &mm_ino;
            CHECK(perfdata_decode_mmap(&f, &rec, &m, &err) == PERFDATA_OK);
            CHECK(m.pid == want->pid && m.tid == want->tid && m.addr == want->addr && m.len == want->len &&
                  m.pgoff == want->pgoff && same_bytes(m.filename, want->filename));
            if (rec.type == PERFDATA_RECORD_MMAP2)
                CHECK(m.prot == want->prot && m.flags == want->flags && m.has_build_id == want->has_build_id &&
                      (m.has_build_id ? same_bytes(m.build_id, want->build_id)
                                      : m.maj == want->maj && m.min == want->min && m.ino == want->ino &&
                                            m.ino_generation == want->ino_generation));
            CHECK(perfdata_decode_sample_id(&f, &rec, &sid, &err) == PERFDATA_OK);
            if (rec.type == PERFDATA_RECORD_MMAP) CHECK(sid.event == 0 && sid.pid == 0 && sid.time == 0);
            else CHECK(same_sid(want == &mm_bid ? &sid1 : &sid0, &sid, sid.sample_type));
            break;
        }
        case PERFDATA_RECORD_COMM: {
            perfdata_comm o;
            CHECK(perfdata_decode_comm(&f, &rec, &o, &err) == PERFDATA_OK && o.pid == comm.pid && o.tid == comm.tid &&
                  o.exec == 1 && same_bytes(o.comm, comm.comm));
            CHECK(perfdata_decode_sample_id(&f, &rec, &sid, &err) == PERFDATA_OK && same_sid(&sid0, &sid, sid.sample_type));
            break;
        }
        case PERFDATA_RECORD_FORK:
        case PERFDATA_RECORD_EXIT: {
            perfdata_task t;
            const perfdata_task *want = rec.type == PERFDATA_RECORD_FORK ? &fork_ : &exit_;
            CHECK(perfdata_decode_task(&f, &rec, &t, &err) == PERFDATA_OK && t.pid == want->pid && t.ppid == want->ppid &&
                  t.tid == want->tid && t.ptid == want->ptid && t.time == want->time);
            CHECK(perfdata_decode_sample_id(&f, &rec, &sid, &err) == PERFDATA_OK && same_sid(&sid1, &sid, sid.sample_type));
            break;
        }
        case PERFDATA_RECORD_LOST: {
            perfdata_lost l;
            CHECK(perfdata_decode_lost(&f, &rec, &l, &err) == PERFDATA_OK && l.id == lost.id && l.lost == lost.lost);
            break;
        }
        default: break;
        }
    }
    CHECK(st == PERFDATA_END);
    CHECK(nsamples == 2);
    CHECK(f.nr_events == 2);
    for (i = 0; i < f.nr_events && i < 2; i++) {
        size_t k;
        CHECK(same_attr(&events[i].attr, &f.events[i].attr));
        CHECK(f.events[i].ids.count == events[i].nr_ids);
        for (k = 0; k < f.events[i].ids.count && k < events[i].nr_ids; k++)
            CHECK(perfdata_u64s_at(&f.events[i].ids, k) == events[i].ids[k]);
        CHECK(f.events[i].name.n == strlen(names[i]) && !memcmp(f.events[i].name.p, names[i], f.events[i].name.n));
    }
    if (flags & PERFDATA_WRITE_PIPE) {
        CHECK(nfeat == nfeats);
        CHECK(nrec == 2 + nfeats + 10);
    } else {
        perfdata_view v;
        perfdata_feat_nrcpus nr;
        perfdata_strlist cmd;
        perfdata_feat_list bl;
        perfdata_build_id b;
        size_t state = 0;
        uint64_t mem = 0;
        CHECK(nrec == 10);
        CHECK(perfdata_feature_string(&f, PERFDATA_FEAT_HOSTNAME, &v, NULL) == PERFDATA_OK && v.n == 7 && !memcmp(v.p, "board-7", 7));
        CHECK(perfdata_feature_section(&f, PERFDATA_FEAT_NRCPUS, &v, NULL) == PERFDATA_OK &&
              perfdata_decode_feat_nrcpus(v, big, &nr, NULL) == PERFDATA_OK && nr.nr_cpus_available == 4 && nr.nr_cpus_online == 2);
        CHECK(perfdata_feature_section(&f, PERFDATA_FEAT_TOTAL_MEM, &v, NULL) == PERFDATA_OK &&
              perfdata_decode_feat_u64(v, big, &mem, NULL) == PERFDATA_OK && mem == 65536);
        CHECK(perfdata_feature_section(&f, PERFDATA_FEAT_CMDLINE, &v, NULL) == PERFDATA_OK &&
              perfdata_decode_feat_strlist(v, big, &cmd, NULL) == PERFDATA_OK && cmd.nr == 3);
        CHECK(perfdata_feature_section(&f, PERFDATA_FEAT_BUILD_ID, &v, NULL) == PERFDATA_OK &&
              perfdata_decode_feat_build_id(v, big, &bl, NULL) == PERFDATA_OK && perfdata_build_id_next(&bl, &state, &b) &&
              b.pid == 10 && b.build_id.n == 20 && !memcmp(b.build_id.p, bid, 20) && b.filename.n == 17);
        CHECK(perfdata_has_feature(&f, PERFDATA_FEAT_TOTAL_MEM) && perfdata_has_feature(&f, PERFDATA_FEAT_CLOCKID) &&
              !perfdata_has_feature(&f, PERFDATA_FEAT_ARCH));
    }
}

/* ----------------------------------------------- the other kernel records */

/* One of each type perfdata_writer_kernel writes, read back with its decoder. */
static void kernel_records(unsigned flags) {
    static unsigned char buf[4096];
    static const unsigned char tag[8] = {1, 2, 3, 4, 5, 6, 7, 8}, poke[5] = {9, 8, 7, 6, 5};
    unsigned char links_b[4 * 8], ips_b[3 * 8];
    perfdata_writer w;
    perfdata_file f;
    perfdata_cursor c;
    perfdata_record rec;
    perfdata_throttle th = {11, 101, 99};
    perfdata_read_record rd;
    perfdata_aux aux = {4096, 512, 3};
    perfdata_itrace_start it = {10, 11};
    perfdata_lost_samples ls = {42};
    perfdata_switch sw_out, sw_wide;
    perfdata_namespaces ns;
    perfdata_ksymbol ks;
    perfdata_bpf_event be;
    perfdata_cgroup cg;
    perfdata_text_poke tp;
    perfdata_aux_output_hw_id hw = {77};
    perfdata_callchain_deferred cd;
    size_t i, seen = 0;
    memset(&sw_out, 0, sizeof sw_out); sw_out.out = 1; sw_out.preempt = 1;
    memset(&sw_wide, 0, sizeof sw_wide); sw_wide.cpu_wide = 1; sw_wide.next_prev_pid = 5; sw_wide.next_prev_tid = 6;
    rd.pid = 10; rd.tid = 11; rd.values = src0.read;
    for (i = 0; i < 4; i++) le64(links_b + 8 * i, 0x1000 + i);
    ns.pid = 10; ns.tid = 11; ns.nr = 2; ns.links = u64s(links_b, 4);
    ks.addr = 0xffffffffc0000000ull; ks.len = 360; ks.ksym_type = 1; ks.flags = 0; ks.name = view("bpf_prog_x", 10);
    be.type = 1; be.flags = 0; be.id = 50; be.tag = view(tag, 8);
    cg.id = 3; cg.path = view("/sys/fs/cgroup/a", 16);
    tp.addr = 0xffffffff81000000ull; tp.old_len = 2; tp.new_len = 3; tp.old_bytes = view(poke, 2); tp.new_bytes = view(poke + 2, 3);
    for (i = 0; i < 3; i++) le64(ips_b + 8 * i, 0x400000 + i);
    cd.cookie = 123; cd.ips = u64s(ips_b, 3);
    CHECK(perfdata_writer_init_buffer(&w, flags, buf, sizeof buf, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_begin(&w, events, 2, NULL, 0, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_kernel(&w, PERFDATA_RECORD_THROTTLE, 0, &th, &sid0, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_kernel(&w, PERFDATA_RECORD_READ, 0, &rd, &sid0, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_kernel(&w, PERFDATA_RECORD_AUX, 0, &aux, &sid0, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_kernel(&w, PERFDATA_RECORD_ITRACE_START, 0, &it, &sid0, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_kernel(&w, PERFDATA_RECORD_LOST_SAMPLES, 0, &ls, &sid0, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_kernel(&w, PERFDATA_RECORD_SWITCH, 0, &sw_out, &sid1, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_kernel(&w, PERFDATA_RECORD_SWITCH_CPU_WIDE, 0, &sw_wide, &sid1, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_kernel(&w, PERFDATA_RECORD_NAMESPACES, 0, &ns, &sid0, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_kernel(&w, PERFDATA_RECORD_KSYMBOL, 0, &ks, &sid0, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_kernel(&w, PERFDATA_RECORD_BPF_EVENT, 0, &be, &sid0, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_kernel(&w, PERFDATA_RECORD_CGROUP, 0, &cg, &sid0, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_kernel(&w, PERFDATA_RECORD_TEXT_POKE, 0, &tp, &sid0, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_kernel(&w, PERFDATA_RECORD_AUX_OUTPUT_HW_ID, 0, &hw, &sid0, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_kernel(&w, PERFDATA_RECORD_CALLCHAIN_DEFERRED, 0, &cd, &sid0, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_kernel(&w, PERFDATA_RECORD_SAMPLE, 0, &th, &sid0, NULL) == PERFDATA_ERR_BAD_ARGUMENT);
    CHECK(perfdata_writer_kernel(&w, 40, 0, &th, &sid0, NULL) == PERFDATA_ERR_UNSUPPORTED);
    ns.nr = 3; /* more than its links */
    CHECK(perfdata_writer_kernel(&w, PERFDATA_RECORD_NAMESPACES, 0, &ns, &sid0, NULL) == PERFDATA_ERR_BAD_ARGUMENT);
    ns.nr = 2;
    CHECK(perfdata_writer_finish(&w, NULL) == PERFDATA_OK);
    CHECK(perfdata_open(&f, buf, (size_t)perfdata_writer_size(&w), rev, 8, NULL) == PERFDATA_OK);
    perfdata_cursor_init(&f, &c);
    while (perfdata_next_record(&f, &c, &rec, NULL) == PERFDATA_OK) {
        perfdata_sample_id sid;
        if (rec.type >= 64) continue;
        seen++;
        CHECK(rec.size % 8 == 0);
        CHECK(perfdata_decode_sample_id(&f, &rec, &sid, NULL) == PERFDATA_OK &&
              same_sid(rec.type == PERFDATA_RECORD_SWITCH || rec.type == PERFDATA_RECORD_SWITCH_CPU_WIDE ? &sid1 : &sid0, &sid, sid.sample_type));
        switch (rec.type) {
        case PERFDATA_RECORD_THROTTLE: { perfdata_throttle o; CHECK(perfdata_decode_throttle(&f, &rec, &o, NULL) == PERFDATA_OK && o.time == 11 && o.id == 101 && o.stream_id == 99); break; }
        case PERFDATA_RECORD_READ: {
            perfdata_read_record o;
            perfdata_read_value x, y;
            CHECK(perfdata_decode_read_record(&f, &rec, &o, NULL) == PERFDATA_OK && o.pid == 10 && o.tid == 11 && o.values.nr == 2);
            x = perfdata_read_at(&o.values, 1); y = perfdata_read_at(&src0.read, 1);
            CHECK(x.value == y.value && x.id == y.id && x.lost == y.lost);
            break;
        }
        case PERFDATA_RECORD_AUX: { perfdata_aux o; CHECK(perfdata_decode_aux(&f, &rec, &o, NULL) == PERFDATA_OK && o.aux_offset == 4096 && o.aux_size == 512 && o.flags == 3); break; }
        case PERFDATA_RECORD_ITRACE_START: { perfdata_itrace_start o; CHECK(perfdata_decode_itrace_start(&f, &rec, &o, NULL) == PERFDATA_OK && o.pid == 10 && o.tid == 11); break; }
        case PERFDATA_RECORD_LOST_SAMPLES: { perfdata_lost_samples o; CHECK(perfdata_decode_lost_samples(&f, &rec, &o, NULL) == PERFDATA_OK && o.lost == 42); break; }
        case PERFDATA_RECORD_SWITCH: { perfdata_switch o; CHECK(perfdata_decode_switch(&f, &rec, &o, NULL) == PERFDATA_OK && o.out && o.preempt && !o.cpu_wide); break; }
        case PERFDATA_RECORD_SWITCH_CPU_WIDE: { perfdata_switch o; CHECK(perfdata_decode_switch(&f, &rec, &o, NULL) == PERFDATA_OK && !o.out && o.cpu_wide && o.next_prev_pid == 5 && o.next_prev_tid == 6); break; }
        case PERFDATA_RECORD_NAMESPACES: { perfdata_namespaces o; CHECK(perfdata_decode_namespaces(&f, &rec, &o, NULL) == PERFDATA_OK && o.nr == 2 && same_u64s(&o.links, &ns.links)); break; }
        case PERFDATA_RECORD_KSYMBOL: { perfdata_ksymbol o; CHECK(perfdata_decode_ksymbol(&f, &rec, &o, NULL) == PERFDATA_OK && o.addr == ks.addr && o.len == 360 && o.ksym_type == 1 && same_bytes(o.name, ks.name)); break; }
        case PERFDATA_RECORD_BPF_EVENT: { perfdata_bpf_event o; CHECK(perfdata_decode_bpf_event(&f, &rec, &o, NULL) == PERFDATA_OK && o.type == 1 && o.id == 50 && same_bytes(o.tag, be.tag)); break; }
        case PERFDATA_RECORD_CGROUP: { perfdata_cgroup o; CHECK(perfdata_decode_cgroup(&f, &rec, &o, NULL) == PERFDATA_OK && o.id == 3 && same_bytes(o.path, cg.path)); break; }
        case PERFDATA_RECORD_TEXT_POKE: { perfdata_text_poke o; CHECK(perfdata_decode_text_poke(&f, &rec, &o, NULL) == PERFDATA_OK && o.addr == tp.addr && same_bytes(o.old_bytes, tp.old_bytes) && same_bytes(o.new_bytes, tp.new_bytes)); break; }
        case PERFDATA_RECORD_AUX_OUTPUT_HW_ID: { perfdata_aux_output_hw_id o; CHECK(perfdata_decode_aux_output_hw_id(&f, &rec, &o, NULL) == PERFDATA_OK && o.hw_id == 77); break; }
        case PERFDATA_RECORD_CALLCHAIN_DEFERRED: { perfdata_callchain_deferred o; CHECK(perfdata_decode_callchain_deferred(&f, &rec, &o, NULL) == PERFDATA_OK && o.cookie == 123 && same_u64s(&o.ips, &cd.ips)); break; }
        default: CHECK(0); break;
        }
    }
    CHECK(seen == 14);
}

/* One of each type perfdata_writer_user writes, read back with its decoder. */
static void user_records(unsigned flags) {
    static unsigned char buf[4096];
    static const unsigned char trace[13] = "tracing data", aux_data[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    unsigned char idx_b[2 * 32], mach_b[2 * 16], info_b[3 * 8], tmap_b[2 * 24], cpus_b[3 * 2], mask_b[8], pairs_b[4 * 8];
    perfdata_writer w;
    perfdata_file f;
    perfdata_cursor c;
    perfdata_record rec;
    perfdata_header_event_type et;
    perfdata_tracing_data td;
    perfdata_build_id b;
    perfdata_id_index ix;
    perfdata_auxtrace_info ai;
    perfdata_auxtrace at;
    perfdata_auxtrace_error ae;
    perfdata_thread_map tm;
    perfdata_cpu_map cm, mm;
    perfdata_stat_config sc;
    perfdata_stat stt = {101, 1, 0, 500, 600, 700};
    perfdata_stat_round sr = {1, 999};
    perfdata_event_update eu, es;
    perfdata_time_conv tc;
    size_t i, seen = 0;
    memset(&et, 0, sizeof et); et.event_id = 7; et.name = view("sched:sched_switch", 18);
    td.size = 0; td.data = view(trace, sizeof trace);
    memset(&b, 0, sizeof b); b.pid = -1; b.build_id = view(bid, 20); b.filename = view("/usr/lib/debug/vmlinux", 22);
    for (i = 0; i < 8; i++) le64(idx_b + 8 * i, 100 + i);
    for (i = 0; i < 4; i++) le64(mach_b + 8 * i, 200 + i);
    ix.nr = 2; ix.entries = view(idx_b, sizeof idx_b); ix.machine = view(mach_b, sizeof mach_b); ix.big_endian = 0;
    for (i = 0; i < 3; i++) le64(info_b + 8 * i, 300 + i);
    ai.type = 8; ai.reserved = 0; ai.data = u64s(info_b, 3);
    memset(&at, 0, sizeof at); at.offset = 4096; at.reference = 55; at.idx = 1; at.tid = 11; at.cpu = 1; at.data = view(aux_data, 16);
    memset(&ae, 0, sizeof ae); ae.type = 1; ae.code = 2; ae.cpu = 3; ae.pid = 10; ae.tid = 11; ae.fmt = 2; ae.ip = 0x401000;
    ae.time = 5; ae.msg = view("decoder error", 13); ae.machine_pid = 7; ae.vcpu = 8;
    memset(tmap_b, 0, sizeof tmap_b);
    le64(tmap_b, 10); memcpy(tmap_b + 8, "worker", 6); le64(tmap_b + 24, 11); memcpy(tmap_b + 32, "helper", 6);
    tm.nr = 2; tm.entries = view(tmap_b, sizeof tmap_b); tm.big_endian = 0;
    cpus_b[0] = 0; cpus_b[1] = 0; cpus_b[2] = 2; cpus_b[3] = 0; cpus_b[4] = 5; cpus_b[5] = 0;
    memset(&cm, 0, sizeof cm); cm.encoding = PERFDATA_CPU_MAP_CPUS; cm.nr = 3; cm.data = view(cpus_b, 6);
    le64(mask_b, 0x15); /* cpus 0, 2, 4 */
    memset(&mm, 0, sizeof mm); mm.encoding = PERFDATA_CPU_MAP_MASK; mm.nr = 1; mm.long_size = 8; mm.data = view(mask_b, 8);
    for (i = 0; i < 4; i++) le64(pairs_b + 8 * i, 400 + i);
    sc.nr = 2; sc.pairs = u64s(pairs_b, 4);
    memset(&eu, 0, sizeof eu); eu.type = PERFDATA_EVENT_UPDATE_UNIT; eu.id = 101; eu.text = view("msec", 4);
    memset(&es, 0, sizeof es); es.type = PERFDATA_EVENT_UPDATE_CPUS; es.id = 101; es.cpus = mm;
    memset(&tc, 0, sizeof tc); tc.time_shift = 31; tc.time_mult = 1000; tc.time_zero = 5; tc.has_cycles = 1;
    tc.time_cycles = 6; tc.time_mask = 7; tc.cap_user_time_zero = 1; tc.cap_user_time_short = 1;
    CHECK(perfdata_writer_init_buffer(&w, flags, buf, sizeof buf, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_begin(&w, events, 2, NULL, 0, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_user(&w, PERFDATA_RECORD_HEADER_EVENT_TYPE, 0, &et, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_user(&w, PERFDATA_RECORD_HEADER_TRACING_DATA, 0, &td, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_user(&w, PERFDATA_RECORD_HEADER_BUILD_ID, PERFDATA_MISC_KERNEL, &b, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_user(&w, PERFDATA_RECORD_ID_INDEX, 0, &ix, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_user(&w, PERFDATA_RECORD_AUXTRACE_INFO, 0, &ai, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_user(&w, PERFDATA_RECORD_AUXTRACE, 0, &at, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_user(&w, PERFDATA_RECORD_AUXTRACE_ERROR, 0, &ae, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_user(&w, PERFDATA_RECORD_THREAD_MAP, 0, &tm, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_user(&w, PERFDATA_RECORD_CPU_MAP, 0, &cm, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_user(&w, PERFDATA_RECORD_CPU_MAP, 0, &mm, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_user(&w, PERFDATA_RECORD_STAT_CONFIG, 0, &sc, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_user(&w, PERFDATA_RECORD_STAT, 0, &stt, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_user(&w, PERFDATA_RECORD_STAT_ROUND, 0, &sr, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_user(&w, PERFDATA_RECORD_EVENT_UPDATE, 0, &eu, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_user(&w, PERFDATA_RECORD_EVENT_UPDATE, 0, &es, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_user(&w, PERFDATA_RECORD_TIME_CONV, 0, &tc, NULL) == PERFDATA_OK);
    CHECK(perfdata_writer_user(&w, PERFDATA_RECORD_FINISHED_INIT, 0, NULL, NULL) == PERFDATA_OK);
    {
        static unsigned char md[320];
        unsigned char cnt_b[2 * 8];
        perfdata_bpf_metadata bm;
        perfdata_schedstat ss;
        memcpy(md, "prog_key", 8); memcpy(md + 64, "a value", 7);
        bm.prog_name = view("bpf_prog_x", 10); bm.nr_entries = 1; bm.entries = view(md, sizeof md);
        le64(cnt_b, 1234); le64(cnt_b + 8, 5678);
        ss.timestamp = 9; ss.cpu = 1; ss.version = 17; ss.domain = 2; ss.counters = u64s(cnt_b, 2);
        CHECK(perfdata_writer_user(&w, PERFDATA_RECORD_BPF_METADATA, 0, &bm, NULL) == PERFDATA_OK);
        CHECK(perfdata_writer_user(&w, PERFDATA_RECORD_SCHEDSTAT_DOMAIN, 0, &ss, NULL) == PERFDATA_OK);
    }
    CHECK(perfdata_writer_user(&w, PERFDATA_RECORD_HEADER_FEATURE, 0, &tc, NULL) == PERFDATA_ERR_UNSUPPORTED);
    tm.nr = 3; /* more than its entries */
    CHECK(perfdata_writer_user(&w, PERFDATA_RECORD_THREAD_MAP, 0, &tm, NULL) == PERFDATA_ERR_BAD_ARGUMENT);
    tm.nr = 2;
    CHECK(perfdata_writer_finish(&w, NULL) == PERFDATA_OK);
    CHECK(perfdata_open(&f, buf, (size_t)perfdata_writer_size(&w), rev, 8, NULL) == PERFDATA_OK);
    perfdata_cursor_init(&f, &c);
    while (perfdata_next_record(&f, &c, &rec, NULL) == PERFDATA_OK) {
        if (rec.type < PERFDATA_RECORD_HEADER_EVENT_TYPE || rec.type == PERFDATA_RECORD_HEADER_FEATURE) continue;
        seen++;
        switch (rec.type) {
        case PERFDATA_RECORD_HEADER_EVENT_TYPE: { perfdata_header_event_type o; CHECK(perfdata_decode_header_event_type(&f, &rec, &o, NULL) == PERFDATA_OK && o.event_id == 7 && same_bytes(o.name, et.name)); break; }
        case PERFDATA_RECORD_HEADER_TRACING_DATA: { perfdata_tracing_data o; CHECK(perfdata_decode_tracing_data(&f, &rec, &o, NULL) == PERFDATA_OK && o.data.n >= 13 && !memcmp(o.data.p, trace, 13)); break; }
        case PERFDATA_RECORD_HEADER_BUILD_ID: { perfdata_build_id o; CHECK(perfdata_decode_build_id(&f, &rec, &o, NULL) == PERFDATA_OK && o.pid == -1 && same_bytes(o.build_id, b.build_id) && same_bytes(o.filename, b.filename)); break; }
        case PERFDATA_RECORD_ID_INDEX: {
            perfdata_id_index o;
            CHECK(perfdata_decode_id_index(&f, &rec, &o, NULL) == PERFDATA_OK && o.nr == 2 && o.entries.n == 64 && o.machine.n == 32 &&
                  perfdata__ld64(o.entries.p + 56, o.big_endian) == 107 && perfdata__ld64(o.machine.p + 24, o.big_endian) == 203);
            break;
        }
        case PERFDATA_RECORD_AUXTRACE_INFO: { perfdata_auxtrace_info o; CHECK(perfdata_decode_auxtrace_info(&f, &rec, &o, NULL) == PERFDATA_OK && o.type == 8 && same_u64s(&o.data, &ai.data)); break; }
        case PERFDATA_RECORD_AUXTRACE: { perfdata_auxtrace o; CHECK(perfdata_decode_auxtrace(&f, &rec, &o, NULL) == PERFDATA_OK && o.size == 16 && o.offset == 4096 && o.reference == 55 && o.idx == 1 && o.tid == 11 && o.cpu == 1 && same_bytes(o.data, at.data)); break; }
        case PERFDATA_RECORD_AUXTRACE_ERROR: { perfdata_auxtrace_error o; CHECK(perfdata_decode_auxtrace_error(&f, &rec, &o, NULL) == PERFDATA_OK && o.code == 2 && o.pid == 10 && o.ip == 0x401000 && o.time == 5 && same_bytes(o.msg, ae.msg) && o.machine_pid == 7 && o.vcpu == 8); break; }
        case PERFDATA_RECORD_THREAD_MAP: {
            perfdata_thread_map o;
            perfdata_thread_map_entry e1;
            CHECK(perfdata_decode_thread_map(&f, &rec, &o, NULL) == PERFDATA_OK && o.nr == 2);
            e1 = perfdata_thread_map_at(&o, 1);
            CHECK(e1.pid == 11 && e1.comm.n == 6 && !memcmp(e1.comm.p, "helper", 6));
            break;
        }
        case PERFDATA_RECORD_CPU_MAP: {
            perfdata_cpu_map o;
            size_t state = 0;
            int cpu, got[3], n = 0;
            CHECK(perfdata_decode_cpu_map(&f, &rec, &o, NULL) == PERFDATA_OK);
            while (n < 3 && perfdata_cpu_map_next(&o, &state, &cpu)) got[n++] = cpu;
            CHECK(n == 3 && got[0] == 0 && got[1] == 2 && got[2] == (o.encoding == PERFDATA_CPU_MAP_CPUS ? 5 : 4));
            break;
        }
        case PERFDATA_RECORD_STAT_CONFIG: { perfdata_stat_config o; CHECK(perfdata_decode_stat_config(&f, &rec, &o, NULL) == PERFDATA_OK && o.nr == 2 && same_u64s(&o.pairs, &sc.pairs)); break; }
        case PERFDATA_RECORD_STAT: { perfdata_stat o; CHECK(perfdata_decode_stat(&f, &rec, &o, NULL) == PERFDATA_OK && o.id == 101 && o.cpu == 1 && o.val == 500 && o.run == 700); break; }
        case PERFDATA_RECORD_STAT_ROUND: { perfdata_stat_round o; CHECK(perfdata_decode_stat_round(&f, &rec, &o, NULL) == PERFDATA_OK && o.type == 1 && o.time == 999); break; }
        case PERFDATA_RECORD_EVENT_UPDATE: {
            perfdata_event_update o;
            CHECK(perfdata_decode_event_update(&f, &rec, &o, NULL) == PERFDATA_OK && o.id == 101);
            if (o.type == PERFDATA_EVENT_UPDATE_UNIT) CHECK(same_bytes(o.text, eu.text));
            else CHECK(o.type == PERFDATA_EVENT_UPDATE_CPUS && o.cpus.encoding == PERFDATA_CPU_MAP_MASK && o.cpus.long_size == 8);
            break;
        }
        case PERFDATA_RECORD_TIME_CONV: { perfdata_time_conv o; CHECK(perfdata_decode_time_conv(&f, &rec, &o, NULL) == PERFDATA_OK && o.time_shift == 31 && o.time_mult == 1000 && o.has_cycles && o.time_mask == 7 && o.cap_user_time_short == 1); break; }
        case PERFDATA_RECORD_FINISHED_INIT: CHECK(rec.size == 8); break;
        case PERFDATA_RECORD_BPF_METADATA: {
            perfdata_bpf_metadata o;
            perfdata_bpf_metadata_entry me;
            CHECK(perfdata_decode_bpf_metadata(&f, &rec, &o, NULL) == PERFDATA_OK && o.nr_entries == 1 && o.prog_name.n == 10);
            me = perfdata_bpf_metadata_at(&o, 0);
            CHECK(me.key.n == 8 && !memcmp(me.key.p, "prog_key", 8) && me.value.n == 7);
            break;
        }
        case PERFDATA_RECORD_SCHEDSTAT_DOMAIN: {
            perfdata_schedstat o;
            CHECK(perfdata_decode_schedstat(&f, &rec, &o, NULL) == PERFDATA_OK && o.timestamp == 9 && o.cpu == 1 &&
                  o.version == 17 && o.domain == 2 && o.counters.count == 2 && perfdata_u64s_at(&o.counters, 1) == 5678);
            break;
        }
        default: CHECK(0); break;
        }
    }
    CHECK(seen == 19);
}

/* ----------------------------------------------------------- sink function */

typedef struct sink_state { unsigned char *p; size_t cap, end; uint64_t fail_after; int calls_after_fail; } sink_state;

static perfdata_status sink(void *user, uint64_t at, const void *bytes, size_t n) {
    sink_state *s = (sink_state *)user;
    if (s->fail_after && at + n > s->fail_after) { s->calls_after_fail++; return PERFDATA_ERR_NO_SPACE; }
    if (at > s->cap || n > s->cap - at) return PERFDATA_ERR_NO_SPACE;
    memcpy(s->p + at, bytes, n);
    if (at + n > s->end) s->end = (size_t)(at + n);
    return PERFDATA_OK;
}

/* With a directory argument, each mode's output is also saved there (for
   perf report -D). */
int main(int argc, char **argv) {
    static const unsigned modes[4] = {0, PERFDATA_WRITE_BIG_ENDIAN, PERFDATA_WRITE_PIPE,
                                      PERFDATA_WRITE_PIPE | PERFDATA_WRITE_BIG_ENDIAN};
    static const char *const mode_names[4] = {"file, little-endian", "file, big-endian", "pipe, little-endian", "pipe, big-endian"};
    perfdata_writer w;
    perfdata_error err;
    size_t m;
    make_source();
    for (m = 0; m < 4; m++) {
        unsigned flags = modes[m];
        size_t total, cap, whole = 0;
        sink_state ss;
        where = mode_names[m];
        make_features((flags & PERFDATA_WRITE_BIG_ENDIAN) != 0, (flags & PERFDATA_WRITE_PIPE) != 0);
        /* a buffer */
        CHECK(perfdata_writer_init_buffer(&w, flags, out, sizeof out, &err) == PERFDATA_OK);
        CHECK(write_all(&w, &err) == PERFDATA_OK);
        total = (size_t)perfdata_writer_size(&w);
        check_read(out, total, flags);
        kernel_records(flags);
        user_records(flags);
        if (argc > 1) {
            char path[4096];
            FILE *fp;
            snprintf(path, sizeof path, "%s/writer-%s%s.data", argv[1], (flags & PERFDATA_WRITE_PIPE) ? "pipe" : "file",
                     (flags & PERFDATA_WRITE_BIG_ENDIAN) ? "-be" : "");
            fp = fopen(path, "wb");
            CHECK(fp && fwrite(out, 1, total, fp) == total && fclose(fp) == 0);
        }
        /* a sink function: the same bytes */
        ss.p = out2; ss.cap = sizeof out2; ss.end = 0; ss.fail_after = 0; ss.calls_after_fail = 0;
        memset(out2, 0xee, sizeof out2);
        CHECK(perfdata_writer_init(&w, flags, sink, &ss, &err) == PERFDATA_OK);
        CHECK(write_all(&w, &err) == PERFDATA_OK);
        CHECK(ss.end == total && perfdata_writer_size(&w) == total && !memcmp(out, out2, total));
        /* every buffer size: either it all fits, or a call says ERR_NO_SPACE
           with what it lacks and leaves whole records before it */
        for (cap = 0; cap < total; cap++) {
            perfdata_status st;
            uint64_t before;
            memset(out2, 0xee, cap);
            perfdata_writer_init_buffer(&w, flags, out2, cap, NULL);
            st = write_all(&w, &err);
            before = perfdata_writer_size(&w);
            if (st != PERFDATA_ERR_NO_SPACE || err.needed == 0 || before > cap) {
                CHECK(0);
                printf("     cap %zu: %s, %llu bytes\n", cap, perfdata_status_name(st), (unsigned long long)before);
                break;
            }
            if (flags & PERFDATA_WRITE_PIPE) { /* what is there reads as whole records */
                perfdata_file f;
                perfdata_cursor c;
                perfdata_record rec;
                size_t nrec = 0;
                if (before >= 16 && perfdata_open(&f, out2, (size_t)before, rev, 8, NULL) == PERFDATA_OK) {
                    perfdata_cursor_init(&f, &c);
                    while (perfdata_next_record(&f, &c, &rec, &err) == PERFDATA_OK) nrec++;
                    if (err.code != PERFDATA_END) { CHECK(0); printf("     cap %zu: %s after %zu records\n", cap, err.message, nrec); break; }
                } else if (before != 0) {
                    CHECK(0); printf("     cap %zu: %llu bytes that do not open\n", cap, (unsigned long long)before); break;
                }
            }
            whole++;
        }
        CHECK(whole == total);
        /* a sink that fails: the error comes back, and from every later call */
        ss.end = 0; ss.fail_after = total / 2; ss.calls_after_fail = 0;
        CHECK(perfdata_writer_init(&w, flags, sink, &ss, &err) == PERFDATA_OK);
        CHECK(write_all(&w, &err) == PERFDATA_ERR_NO_SPACE);
        CHECK(perfdata_writer_sample(&w, 0, &src1, &err) == PERFDATA_ERR_NO_SPACE);
        CHECK(ss.calls_after_fail == 1);
    }
    where = "arguments";
    make_features(0, 0);
    CHECK(perfdata_writer_init_buffer(&w, 0, out, sizeof out, &err) == PERFDATA_OK);
    CHECK(perfdata_writer_sample(&w, 0, &src1, &err) == PERFDATA_ERR_BAD_ARGUMENT);        /* before begin */
    CHECK(perfdata_writer_begin(&w, events, 0, NULL, 0, &err) == PERFDATA_ERR_BAD_ARGUMENT); /* no event */
    {
        perfdata_writer_feature two[2];
        two[0] = feats[2]; two[1] = feats[1];
        CHECK(perfdata_writer_begin(&w, events, 2, two, 2, &err) == PERFDATA_ERR_BAD_ARGUMENT); /* not ascending */
    }
    CHECK(perfdata_writer_size(&w) == 0);
    CHECK(perfdata_writer_begin(&w, events, 2, NULL, 0, &err) == PERFDATA_OK);
    CHECK(perfdata_writer_begin(&w, events, 2, NULL, 0, &err) == PERFDATA_ERR_BAD_ARGUMENT); /* twice */
    {
        perfdata_sample s = src1;
        static unsigned char big_raw[70000];
        uint64_t at = perfdata_writer_size(&w);
        s.event = 2;
        CHECK(perfdata_writer_sample(&w, 0, &s, &err) == PERFDATA_ERR_BAD_ARGUMENT); /* no such event */
        s = src0;
        s.raw = view(big_raw, sizeof big_raw);
        CHECK(perfdata_writer_sample(&w, 0, &s, &err) == PERFDATA_ERR_BAD_ARGUMENT); /* over 64 KiB */
        s = src0;
        s.callchain.count = 5; /* more than its bytes */
        CHECK(perfdata_writer_sample(&w, 0, &s, &err) == PERFDATA_ERR_BAD_ARGUMENT);
        CHECK(perfdata_writer_size(&w) == at);
        CHECK(perfdata_writer_record(&w, PERFDATA_RECORD_HEADER_ATTR, 0, out2, 8, NULL, 0, &err) == PERFDATA_ERR_BAD_ARGUMENT);
    }
    CHECK(perfdata_writer_finish(&w, &err) == PERFDATA_OK);
    CHECK(perfdata_writer_sample(&w, 0, &src1, &err) == PERFDATA_ERR_BAD_ARGUMENT); /* after finish */
    {
        size_t n;
        CHECK(perfdata_encode_feat_string(feat_host, 10, 0, "board-7", &n, &err) == PERFDATA_ERR_NO_SPACE && err.needed == 68 && n == 68);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
