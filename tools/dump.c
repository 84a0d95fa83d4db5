/* dump.c - `perfdata dump`: every record in file order, printed the way
   perf 6.1's `perf report -D` prints it (summary line and detail lines),
   without perf's symbol-state lines. Nothing is kept per record, so memory
   stays at the mapping whatever the file size. */
#include "perfdata.h"
#include "pd_opts.h"
#include "pd_tool.h"
#include "pd_regs.h"
#include "pd_text.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct dump_ctx {
    pd_session *s;
    const perfdata_file *f;
    const char *arch;
    int raw;
    int show_header;
    uint64_t type_mask[2];      /* selected record types (0..127), all when 0 */
    int selected;
    const char *stream;         /* file of the records being printed */
    unsigned long long counts[128];
} dump_ctx;

#define U64 unsigned long long

/* A name from the file (comm, file name, symbol, cgroup path, event name
   or unit): control characters escaped (pd_text), so that no name can
   forge a line of the dump or drive the terminal. */
static void print_view(perfdata_view v) { pd_put_text(stdout, (const char *)v.p, v.n); }

/* printf was most of dump's time (callgrind: 85% in stdio on a -g file);
   the lines every sample has are formatted by hand and written whole. */
#define PUT_LIT(p, lit) (memcpy((p), (lit), sizeof(lit) - 1), (p) + sizeof(lit) - 1)

static char pairs[512];     /* "00".."ff" */
static char dec_pairs[200]; /* "00".."99" */

/* two digits per division */
static char *put_dec(char *p, uint64_t v) {
    char tmp[20];
    int n = 20, len;
    while (v >= 100) {
        unsigned d = (unsigned)(v % 100);
        v /= 100;
        tmp[--n] = dec_pairs[2 * d + 1];
        tmp[--n] = dec_pairs[2 * d];
    }
    if (v >= 10) { tmp[--n] = dec_pairs[2 * v + 1]; tmp[--n] = dec_pairs[2 * v]; }
    else tmp[--n] = (char)('0' + v);
    len = 20 - n;
    memcpy(p, tmp + n, (size_t)len);
    return p + len;
}

static char *put_int(char *p, int v) {
    if (v < 0) { *p++ = '-'; return put_dec(p, (uint64_t)0 - (uint64_t)(int64_t)v); }
    return put_dec(p, (uint64_t)v);
}

/* at least `width` hex digits, zero-padded; two digits per table lookup */
static char *put_hex(char *p, uint64_t v, int width) {
    int n = 1, i;
#if defined(__GNUC__)
    n = v ? (67 - __builtin_clzll(v)) / 4 : 1;
#else
    while (n < 16 && (v >> (4 * n))) n++;
#endif
    if (n < width) n = width;
    if (n & 1) *p++ = pairs[2 * ((v >> (4 * (n - 1))) & 15) + 1];
    for (i = (n & ~1) - 2; i >= 0; i -= 2) {
        const char *d = pairs + 2 * ((v >> (4 * i)) & 255);
        *p++ = d[0];
        *p++ = d[1];
    }
    return p;
}

/* printf's %#llx: "0" for zero, else 0x and the digits */
static char *put_alt_hex(char *p, uint64_t v) {
    if (!v) { *p++ = '0'; return p; }
    *p++ = '0'; *p++ = 'x';
    return put_hex(p, v, 1);
}

static void init_digit_pairs(void) {
    int i;
    for (i = 0; i < 256; i++) {
        pairs[2 * i] = "0123456789abcdef"[i >> 4];
        pairs[2 * i + 1] = "0123456789abcdef"[i & 15];
    }
    for (i = 0; i < 100; i++) {
        dec_pairs[2 * i] = (char)('0' + i / 10);
        dec_pairs[2 * i + 1] = (char)('0' + i % 10);
    }
}

/* "... FP chain: nr:%llu", then "..... %2d: %016llx" for each entry,
   written in blocks */
static void print_chain(const perfdata_u64s *chain) {
    char buf[64 * 32], *p = buf;
    size_t i;
    p = PUT_LIT(p, "... FP chain: nr:");
    p = put_dec(p, chain->count);
    *p++ = '\n';
    for (i = 0; i < chain->count; i++) {
        uint64_t v = perfdata_u64s_at(chain, i);
        int k;
        p = PUT_LIT(p, "..... ");
        if (i < 10) { *p++ = ' '; *p++ = (char)('0' + i); }
        else if (i < 100) { *p++ = dec_pairs[2 * i]; *p++ = dec_pairs[2 * i + 1]; }
        else p = put_dec(p, i);
        p = PUT_LIT(p, ": ");
        for (k = 56; k >= 0; k -= 8) { /* %016llx */
            memcpy(p, pairs + 2 * ((v >> k) & 255), 2);
            p += 2;
        }
        *p++ = '\n';
        if ((size_t)(p - buf) > sizeof buf - 64) { fwrite(buf, 1, (size_t)(p - buf), stdout); p = buf; }
    }
    fwrite(buf, 1, (size_t)(p - buf), stdout);
}

static void print_raw(const perfdata_record *rec) {
    size_t i, j, n = rec->bytes.n;
    printf(". ... raw event: size %zu bytes\n", n);
    for (i = 0; i < n; i += 16) {
        printf(".  %04zx: ", i);
        for (j = i; j < i + 16; j++) {
            if (j < n) printf(" %02x", rec->bytes.p[j]); else printf("   ");
        }
        printf("  ");
        for (j = i; j < i + 16 && j < n; j++) {
            unsigned char c = rec->bytes.p[j];
            putchar(c >= 32 && c < 127 ? c : '.');
        }
        putchar('\n');
    }
}

/* perf's evlist__print_tstamp: cpu and time from the sample or trailer. */
static void print_tstamp(dump_ctx *d, const perfdata_record *rec, uint32_t cpu, uint64_t time) {
    const perfdata_file *f = d->f;
    size_t n = f->nr_events, i;
    uint64_t combined = 0;
    int id_all;
    /* perf dumps a pipe's ATTR record before it adds the event */
    if (rec->type == PERFDATA_RECORD_HEADER_ATTR && (f->flags & PERFDATA_FILE_PIPE) && n) n--;
    id_all = n && (f->events[0].attr.flags & PERFDATA_ATTR_FLAG_SAMPLE_ID_ALL);
    if (rec->type != PERFDATA_RECORD_SAMPLE && !id_all) { fputs("-1 -1 ", stdout); return; }
    for (i = 0; i < n; i++) combined |= f->events[i].attr.sample_type;
    {
        char line[48], *p = line; /* "%u " and "%llu " */
        if (combined & PERFDATA_SAMPLE_CPU) { p = put_dec(p, cpu); *p++ = ' '; }
        if (combined & PERFDATA_SAMPLE_TIME) { p = put_dec(p, time); *p++ = ' '; }
        fwrite(line, 1, (size_t)(p - line), stdout);
    }
}

static const char *page_size_name(uint64_t n, char *buf, size_t len) {
    static const char units[] = "BKMG";
    int i = 0;
    if (!n) return "N/A";
    while (n / 1024 > 1 && i < 3) { n /= 1024; i++; }
    snprintf(buf, len, "%llu%c", (U64)n, units[i]);
    return buf;
}

static void print_regs(const char *kind, const perfdata_regs *r, const char *arch) {
    static const char *const abi[] = {"none", "32-bit", "64-bit"};
    unsigned bit;
    size_t i = 0;
    if (!r->abi) return;
    printf("... %s regs: mask 0x%llx ABI %s\n", kind, (U64)r->mask, r->abi <= 2 ? abi[r->abi] : "unknown");
    for (bit = 0; bit < 64; bit++) {
        if (!((r->mask >> bit) & 1u)) continue;
        printf(".... %-5s 0x%016llx\n", pd_reg_name(bit, arch), (U64)perfdata_u64s_at(&r->values, i++));
    }
}

static const char *branch_type_name(unsigned t) {
    static const char *const names[] = {"N/A", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL",
                                        "SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX",
                                        "EXTEND_ABI"};
    return t < 16 ? names[t] : "";
}

/* perf's callchain__lbr_callstack_printf: the kernel part of the chain up
   to PERF_CONTEXT_USER, then the user stack rebuilt from the LBR. */
static void print_lbr_callchain(const perfdata_sample *s) {
    size_t nr = s->callchain.count, i, k;
    perfdata_branch_entry e;
    for (i = 0; i < nr; i++)
        if (perfdata_u64s_at(&s->callchain, i) == PERFDATA_CONTEXT_USER) break;
    if (i == nr || !s->branch_stack.nr) return;
    k = i + 1;
    printf("... LBR call chain: nr:%llu\n", (U64)k + s->branch_stack.nr + 1);
    for (i = 0; i < k; i++) printf("..... %2d: %016llx\n", (int)i, (U64)perfdata_u64s_at(&s->callchain, i));
    e = perfdata_branch_at(&s->branch_stack, 0);
    printf("..... %2d: %016llx\n", (int)k, (U64)e.to);
    for (i = 0; i < s->branch_stack.nr; i++)
        printf("..... %2d: %016llx\n", (int)(i + k + 1), (U64)perfdata_branch_at(&s->branch_stack, i).from);
}

static void print_sample(dump_ctx *d, const perfdata_record *rec, const perfdata_sample *s) {
    const perfdata_attr *a = &d->f->events[s->event].attr;
    uint64_t t = a->sample_type;
    size_t i;
    char buf[32];
    uint64_t period = (t & PERFDATA_SAMPLE_PERIOD) ? s->period : a->sample_period;
    {
        char line[200], *p = line; /* "(IP, 0x%x): %d/%d: %#llx period: %llu addr: %#llx" */
        p = PUT_LIT(p, "(IP, ");
        p = put_alt_hex(p, rec->misc);
        p = PUT_LIT(p, "): ");
        p = put_int(p, (int)s->pid);
        *p++ = '/';
        p = put_int(p, (int)s->tid);
        p = PUT_LIT(p, ": ");
        p = put_alt_hex(p, s->ip);
        p = PUT_LIT(p, " period: ");
        p = put_dec(p, period);
        p = PUT_LIT(p, " addr: ");
        p = put_alt_hex(p, s->addr);
        *p++ = '\n';
        fwrite(line, 1, (size_t)(p - line), stdout);
    }
    if (t & PERFDATA_SAMPLE_CALLCHAIN) {
        if (a->branch_sample_type & PERFDATA_BRANCH_CALL_STACK) print_lbr_callchain(s);
        print_chain(&s->callchain);
    }
    if ((t & PERFDATA_SAMPLE_BRANCH_STACK) && (a->branch_sample_type & PERFDATA_BRANCH_CALL_STACK)) {
        printf("... branch callstack: nr:%llu\n", (U64)s->branch_stack.nr + 1);
        for (i = 0; i < s->branch_stack.nr; i++) {
            perfdata_branch_entry e = perfdata_branch_at(&s->branch_stack, i);
            if (i == 0) printf("..... %2llu: %016llx\n..... %2llu: %016llx\n", 0ull, (U64)e.to, 1ull, (U64)e.from);
            else printf("..... %2llu: %016llx\n", (U64)i + 1, (U64)e.from);
        }
    } else if (t & PERFDATA_SAMPLE_BRANCH_STACK) {
        printf("... branch stack: nr:%llu\n", (U64)s->branch_stack.nr);
        for (i = 0; i < s->branch_stack.nr; i++) {
            perfdata_branch_entry e = perfdata_branch_at(&s->branch_stack, i);
            printf("..... %2llu: %016llx -> %016llx %hu cycles %s%s%s%s %x %s\n", (U64)i, (U64)e.from, (U64)e.to,
                   (unsigned short)e.cycles, e.mispred ? "M" : " ", e.predicted ? "P" : " ", e.abort ? "A" : " ",
                   e.in_tx ? "T" : " ", (unsigned)(e.flags >> 33), e.type ? branch_type_name(e.type) : "");
        }
    }
    if (t & PERFDATA_SAMPLE_REGS_USER) print_regs("user", &s->regs_user, d->arch);
    if (t & PERFDATA_SAMPLE_REGS_INTR) print_regs("intr", &s->regs_intr, d->arch);
    if (t & PERFDATA_SAMPLE_STACK_USER)
        printf("... ustack: size %llu, offset 0x%x\n", (U64)s->stack_user.n,
               (unsigned)(s->stack_user.offset - 8 - rec->bytes.offset));
    if (t & (PERFDATA_SAMPLE_WEIGHT | PERFDATA_SAMPLE_WEIGHT_STRUCT)) {
        printf("... weight: %llu", (U64)s->weight);
        if (t & PERFDATA_SAMPLE_WEIGHT_STRUCT) printf(",0x%x,0x%x", s->ins_lat, s->p_stage_cyc);
        printf("\n");
    }
    if (t & PERFDATA_SAMPLE_DATA_SRC) printf(" . data_src: 0x%llx\n", (U64)s->data_src);
    if (t & PERFDATA_SAMPLE_PHYS_ADDR) printf(" .. phys_addr: 0x%llx\n", (U64)s->phys_addr);
    if (t & PERFDATA_SAMPLE_DATA_PAGE_SIZE) printf(" .. data page size: %s\n", page_size_name(s->data_page_size, buf, sizeof buf));
    if (t & PERFDATA_SAMPLE_CODE_PAGE_SIZE) printf(" .. code page size: %s\n", page_size_name(s->code_page_size, buf, sizeof buf));
    if (t & PERFDATA_SAMPLE_TRANSACTION) printf("... transaction: %llx\n", (U64)s->transaction);
    if (t & PERFDATA_SAMPLE_READ) {
        const perfdata_read *r = &s->read;
        printf("... sample_read:\n");
        if (r->read_format & PERFDATA_FORMAT_TOTAL_TIME_ENABLED) printf("...... time enabled %016llx\n", (U64)r->time_enabled);
        if (r->read_format & PERFDATA_FORMAT_TOTAL_TIME_RUNNING) printf("...... time running %016llx\n", (U64)r->time_running);
        if (r->read_format & PERFDATA_FORMAT_GROUP) {
            printf(".... group nr %llu\n", (U64)r->nr);
            for (i = 0; i < r->nr; i++) {
                perfdata_read_value v = perfdata_read_at(r, i);
                printf("..... id %016llx, value %016llx", (U64)v.id, (U64)v.value);
                if (r->read_format & PERFDATA_FORMAT_LOST) printf(", lost %llu", (U64)v.lost);
                printf("\n");
            }
        } else {
            perfdata_read_value v = perfdata_read_at(r, 0);
            printf("..... id %016llx, value %016llx", (U64)v.id, (U64)v.value);
            if (r->read_format & PERFDATA_FORMAT_LOST) printf(", lost %llu", (U64)v.lost);
            printf("\n");
        }
    }
}

static void print_cpu_map(const perfdata_cpu_map *m) {
    size_t st = 0;
    int cpu, first = 1;
    /* perf prints the map as a cpu list: ranges a-b joined by commas */
    int start = -2, prev = -2;
    if (m->encoding == PERFDATA_CPU_MAP_RANGE) {
        /* the same list without walking up to 65,536 cpus per record */
        int lo = m->start_cpu, hi = m->end_cpu;
        if (m->any_cpu && (lo > hi || lo != 0)) printf(lo > hi ? "-1" : "-1,");
        if (lo > hi) return;
        printf("%d", m->any_cpu && lo == 0 ? -1 : lo);
        if (hi != (m->any_cpu && lo == 0 ? -1 : lo)) printf("-%d", hi);
        return;
    }
    while (perfdata_cpu_map_next(m, &st, &cpu)) {
        if (cpu == prev + 1 && start != -2) { prev = cpu; continue; }
        if (start != -2) {
            printf(first ? "%d" : ",%d", start);
            if (prev != start) printf("-%d", prev);
            first = 0;
        }
        start = prev = cpu;
    }
    if (start != -2) {
        printf(first ? "%d" : ",%d", start);
        if (prev != start) printf("-%d", prev);
    }
}

/* The part after "PERF_RECORD_NAME", per type, and detail lines. */
static void print_body(dump_ctx *d, const perfdata_record *rec, const perfdata_sample *s) {
    const perfdata_file *f = d->f;
    perfdata_error err;
    size_t i;
    switch (rec->type) {
    case PERFDATA_RECORD_SAMPLE:
        if (s) print_sample(d, rec, s);
        else printf("\n");
        return;
    case PERFDATA_RECORD_MMAP:
    case PERFDATA_RECORD_MMAP2: {
        perfdata_mmap m;
        if (perfdata_decode_mmap(f, rec, &m, &err) != PERFDATA_OK) break;
        if (rec->type == PERFDATA_RECORD_MMAP) {
            printf(" %d/%d: [%#llx(%#llx) @ %#llx]: %c ", (int)m.pid, (int)m.tid, (U64)m.addr, (U64)m.len, (U64)m.pgoff,
                   (rec->misc & PERFDATA_MISC_MMAP_DATA) ? 'r' : 'x');
        } else {
            printf(" %d/%d: [%#llx(%#llx) @ %#llx", (int)m.pid, (int)m.tid, (U64)m.addr, (U64)m.len, (U64)m.pgoff);
            if (m.has_build_id) {
                printf(" <");
                for (i = 0; i < m.build_id.n; i++) printf("%02x", m.build_id.p[i]);
                printf(">");
            } else {
                printf(" %02x:%02x %llu %llu", m.maj, m.min, (U64)m.ino, (U64)m.ino_generation);
            }
            printf("]: %c%c%c%c ", (m.prot & 1) ? 'r' : '-', (m.prot & 2) ? 'w' : '-', (m.prot & 4) ? 'x' : '-',
                   (m.flags & 1) ? 's' : 'p');
        }
        print_view(m.filename);
        printf("\n");
        return;
    }
    case PERFDATA_RECORD_COMM: {
        perfdata_comm c;
        if (perfdata_decode_comm(f, rec, &c, &err) != PERFDATA_OK) break;
        printf("%s: ", c.exec ? " exec" : "");
        print_view(c.comm);
        printf(":%d/%d\n", (int)c.pid, (int)c.tid);
        return;
    }
    case PERFDATA_RECORD_FORK:
    case PERFDATA_RECORD_EXIT: {
        perfdata_task t;
        if (perfdata_decode_task(f, rec, &t, &err) != PERFDATA_OK) break;
        printf("(%d:%d):(%d:%d)\n", (int)t.pid, (int)t.tid, (int)t.ppid, (int)t.ptid);
        return;
    }
    case PERFDATA_RECORD_ID_INDEX: {
        perfdata_id_index x;
        if (perfdata_decode_id_index(f, rec, &x, &err) != PERFDATA_OK) break;
        printf(" nr: %llu\n", (U64)x.nr);
        for (i = 0; i < x.nr; i++) {
            perfdata_id_index_entry e = perfdata_id_index_at(&x, i);
            printf(" ... id: %llu  idx: %llu  cpu: %lld  tid: %lld", (U64)e.id, (U64)e.idx, (long long)e.cpu, (long long)e.tid);
            if (x.machine.n) printf(" machine_pid: %llu  vcpu: %llu", (U64)e.machine_pid, (U64)e.vcpu);
            printf("\n");
        }
        return;
    }
    case PERFDATA_RECORD_THREAD_MAP: {
        perfdata_thread_map m;
        if (perfdata_decode_thread_map(f, rec, &m, &err) != PERFDATA_OK) break;
        /* as perf's thread_map__fprintf: "thread" or "threads", and each pid
           as the pid_t (32-bit int) perf keeps */
        printf(" nr: %llu thread%s: ", (U64)m.nr, m.nr > 1 ? "s" : "");
        for (i = 0; i < m.nr; i++) {
            uint32_t pid = (uint32_t)perfdata_thread_map_at(&m, i).pid;
            printf("%s%lld", i ? ", " : "", pid >= 0x80000000u ? (long long)pid - 0x100000000ll : (long long)pid);
        }
        printf("\n: unhandled!\n");
        return;
    }
    case PERFDATA_RECORD_CPU_MAP: {
        perfdata_cpu_map m;
        if (perfdata_decode_cpu_map(f, rec, &m, &err) != PERFDATA_OK) break;
        printf(": ");
        print_cpu_map(&m);
        printf("\n: unhandled!\n");
        return;
    }
    case PERFDATA_RECORD_CGROUP: {
        perfdata_cgroup c;
        if (perfdata_decode_cgroup(f, rec, &c, &err) != PERFDATA_OK) break;
        printf(" cgroup: %llu ", (U64)c.id);
        print_view(c.path);
        printf("\n");
        return;
    }
    case PERFDATA_RECORD_FINISHED_ROUND:
        printf("\n");
        return;
    case PERFDATA_RECORD_HEADER_ATTR:
    case PERFDATA_RECORD_HEADER_FEATURE:
    case PERFDATA_RECORD_HEADER_EVENT_TYPE:
    case PERFDATA_RECORD_HEADER_BUILD_ID:
    case PERFDATA_RECORD_HEADER_TRACING_DATA:
        printf("\n"); /* perf prints nothing more, not even the newline */
        return;
    case PERFDATA_RECORD_LOST: {
        perfdata_lost l;
        if (perfdata_decode_lost(f, rec, &l, &err) != PERFDATA_OK) break;
        printf(": id:%llu: lost:%llu\n", (U64)l.id, (U64)l.lost);
        return;
    }
    case PERFDATA_RECORD_LOST_SAMPLES: {
        perfdata_lost_samples l;
        perfdata_sample_id sid;
        if (perfdata_decode_lost_samples(f, rec, &l, &err) != PERFDATA_OK) break;
        if (perfdata_decode_sample_id(f, rec, &sid, NULL) != PERFDATA_OK) sid.id = 0;
        printf(": id:%llu: lost samples :%llu\n", (U64)sid.id, (U64)l.lost);
        return;
    }
    case PERFDATA_RECORD_KSYMBOL: {
        perfdata_ksymbol k;
        if (perfdata_decode_ksymbol(f, rec, &k, &err) != PERFDATA_OK) break;
        printf(" addr %llx len %u type %u flags 0x%x name ", (U64)k.addr, k.len, k.ksym_type, k.flags);
        print_view(k.name);
        printf("\n");
        return;
    }
    case PERFDATA_RECORD_BPF_EVENT: {
        perfdata_bpf_event b;
        if (perfdata_decode_bpf_event(f, rec, &b, &err) != PERFDATA_OK) break;
        printf(" type %u, flags %u, id %u\n", b.type, b.flags, b.id);
        return;
    }
    case PERFDATA_RECORD_TEXT_POKE: {
        perfdata_text_poke tp;
        if (perfdata_decode_text_poke(f, rec, &tp, &err) != PERFDATA_OK) break;
        /* perf adds sym+off from its own kernel maps here: host state, left out */
        printf(" %llx  old len %u new len %u\n", (U64)tp.addr, tp.old_len, tp.new_len);
        if (tp.old_len) { printf("            Old bytes:"); for (i = 0; i < tp.old_bytes.n; i++) printf(" %02x", tp.old_bytes.p[i]); printf("\n"); }
        if (tp.new_len) { printf("            New bytes:"); for (i = 0; i < tp.new_bytes.n; i++) printf(" %02x", tp.new_bytes.p[i]); printf("\n"); }
        return;
    }
    case PERFDATA_RECORD_AUX_OUTPUT_HW_ID: {
        perfdata_aux_output_hw_id h;
        if (perfdata_decode_aux_output_hw_id(f, rec, &h, &err) != PERFDATA_OK) break;
        printf(" hw_id: %#llx\n", (U64)h.hw_id);
        return;
    }
    case PERFDATA_RECORD_ITRACE_START: {
        perfdata_itrace_start it;
        if (perfdata_decode_itrace_start(f, rec, &it, &err) != PERFDATA_OK) break;
        printf(" pid: %u tid: %u\n", it.pid, it.tid);
        return;
    }
    case PERFDATA_RECORD_AUX: {
        perfdata_aux x;
        if (perfdata_decode_aux(f, rec, &x, &err) != PERFDATA_OK) break;
        printf(" offset: %#llx size: %#llx flags: %#llx [%s%s%s]\n", (U64)x.aux_offset, (U64)x.aux_size, (U64)x.flags,
               (x.flags & 1) ? "T" : "", (x.flags & 2) ? "O" : "", (x.flags & 4) ? "P" : "");
        return;
    }
    case PERFDATA_RECORD_AUXTRACE_INFO: {
        perfdata_auxtrace_info x;
        if (perfdata_decode_auxtrace_info(f, rec, &x, &err) != PERFDATA_OK) break;
        printf(" type: %u\n", x.type);
        return;
    }
    case PERFDATA_RECORD_AUXTRACE: {
        perfdata_auxtrace x;
        if (perfdata_decode_auxtrace(f, rec, &x, &err) != PERFDATA_OK) break;
        printf(" size: %#llx  offset: %#llx  ref: %#llx  idx: %u  tid: %d  cpu: %d\n", (U64)x.size, (U64)x.offset,
               (U64)x.reference, x.idx, (int)x.tid, (int)x.cpu);
        return;
    }
    case PERFDATA_RECORD_TIME_CONV: {
        perfdata_time_conv tc;
        if (perfdata_decode_time_conv(f, rec, &tc, &err) != PERFDATA_OK) break;
        printf("\n... Time Shift      %llu\n... Time Muliplier  %llu\n... Time Zero       %llu\n", (U64)tc.time_shift,
               (U64)tc.time_mult, (U64)tc.time_zero);
        if (tc.has_cycles)
            printf("... Time Cycles     %llu\n... Time Mask       %#llx\n... Cap Time Zero   %d\n... Cap Time Short  %d\n",
                   (U64)tc.time_cycles, (U64)tc.time_mask, tc.cap_user_time_zero, tc.cap_user_time_short);
        printf(": unhandled!\n");
        return;
    }
    case PERFDATA_RECORD_STAT: {
        perfdata_stat x;
        if (perfdata_decode_stat(f, rec, &x, &err) != PERFDATA_OK) break;
        printf("\n... id %llu, cpu %d, thread %d\n... value %llu, enabled %llu, running %llu\n: unhandled!\n", (U64)x.id,
               (int)x.cpu, (int)x.thread, (U64)x.val, (U64)x.ena, (U64)x.run);
        return;
    }
    case PERFDATA_RECORD_STAT_ROUND: {
        perfdata_stat_round x;
        if (perfdata_decode_stat_round(f, rec, &x, &err) != PERFDATA_OK) break;
        printf("\n... time %llu, type %s\n: unhandled!\n", (U64)x.time, x.type ? "FINAL" : "INTERVAL");
        return;
    }
    case PERFDATA_RECORD_STAT_CONFIG: {
        /* perf prints aggr_mode, scale, interval in that order, 0 if absent */
        uint64_t v[3] = {0, 0, 0};
        perfdata_stat_config x;
        if (perfdata_decode_stat_config(f, rec, &x, &err) != PERFDATA_OK) break;
        for (i = 0; i < x.nr; i++) {
            uint64_t tag = perfdata_u64s_at(&x.pairs, 2 * i), val = perfdata_u64s_at(&x.pairs, 2 * i + 1);
            if (tag < 3) v[tag] = val;
        }
        printf("\n... aggr_mode %d\n... scale     %d\n... interval  %u\n: unhandled!\n", (int)v[0], (int)v[2],
               (unsigned)v[1]);
        return;
    }
    case PERFDATA_RECORD_EVENT_UPDATE: {
        perfdata_event_update u;
        if (perfdata_decode_event_update(f, rec, &u, &err) != PERFDATA_OK) break;
        printf("\n... id:    %llu\n", (U64)u.id);
        switch (u.type) {
        case PERFDATA_EVENT_UPDATE_SCALE: printf("... scale: %f\n", u.scale); break;
        case PERFDATA_EVENT_UPDATE_UNIT: printf("... unit:  "); print_view(u.text); printf("\n"); break;
        case PERFDATA_EVENT_UPDATE_NAME: printf("... name:  "); print_view(u.text); printf("\n"); break;
        case PERFDATA_EVENT_UPDATE_CPUS: printf("... "); print_cpu_map(&u.cpus); printf("\n"); break;
        default: printf("... unknown type\n"); break;
        }
        return;
    }
    case PERFDATA_RECORD_SWITCH:
    case PERFDATA_RECORD_SWITCH_CPU_WIDE: {
        perfdata_switch w;
        const char *in_out;
        if (perfdata_decode_switch(f, rec, &w, &err) != PERFDATA_OK) break;
        in_out = !w.out ? "IN         " : !w.preempt ? "OUT        " : "OUT preempt";
        if (!w.cpu_wide) printf(" %s\n", in_out);
        else printf(" %s  %s pid/tid: %5d/%-5d\n", in_out, w.out ? "next" : "prev", (int)w.next_prev_pid, (int)w.next_prev_tid);
        return;
    }
    case PERFDATA_RECORD_NAMESPACES: {
        static const char *const ns[] = {"net", "uts", "ipc", "pid", "user", "mnt", "cgroup"};
        perfdata_namespaces n;
        if (perfdata_decode_namespaces(f, rec, &n, &err) != PERFDATA_OK) break;
        printf(" %d/%d - nr_namespaces: %u\n\t\t[", (int)n.pid, (int)n.tid, (unsigned)n.nr);
        for (i = 0; i < n.nr; i++) {
            if (i && i % 4 == 0) printf("\n\t\t ");
            printf("%u/%s: %llu/%#llx%s", (unsigned)i, i < 7 ? ns[i] : "UNKNOWN", (U64)perfdata_u64s_at(&n.links, 2 * i),
                   (U64)perfdata_u64s_at(&n.links, 2 * i + 1), i + 1 != n.nr ? ", " : "]\n");
        }
        return;
    }
    case PERFDATA_RECORD_READ: {
        perfdata_read_record rr;
        long e = perfdata_record_event(f, rec, NULL);
        if (perfdata_decode_read_record(f, rec, &rr, &err) != PERFDATA_OK) break;
        printf(": %d %d ", (int)rr.pid, (int)rr.tid);
        pd_put_str(stdout, e >= 0 ? pd_event_name(d->s, (size_t)e) : "unknown");
        printf(" %llu\n", (U64)perfdata_read_at(&rr.values, 0).value);
        if (rr.values.read_format & PERFDATA_FORMAT_TOTAL_TIME_ENABLED) printf("... time enabled : %llu\n", (U64)rr.values.time_enabled);
        if (rr.values.read_format & PERFDATA_FORMAT_TOTAL_TIME_RUNNING) printf("... time running : %llu\n", (U64)rr.values.time_running);
        if (rr.values.read_format & PERFDATA_FORMAT_ID) printf("... id           : %llu\n", (U64)perfdata_read_at(&rr.values, 0).id);
        if (rr.values.read_format & PERFDATA_FORMAT_LOST) printf("... lost         : %llu\n", (U64)perfdata_read_at(&rr.values, 0).lost);
        return;
    }
    default:
        printf(": unhandled!\n");
        return;
    }
    printf(" (bad record: %s)\n", err.message);
}

static void dump_record(dump_ctx *d, const perfdata_record *rec, const char *name_of_file) {
    perfdata_sample s;
    perfdata_sample_id sid;
    perfdata_error err;
    int have_sample = 0;
    /* perf's defaults: -1 for what a kernel record does not carry, 0 for
       perf's own records (they get a zeroed sample) */
    uint32_t cpu = rec->type < 64 ? (uint32_t)-1 : 0;
    uint64_t time = rec->type < 64 ? (uint64_t)-1 : 0;
    if (rec->type < 128) d->counts[rec->type]++;
    if (pd_session_decompressed(d->s, rec)) return; /* perf shows what is inside, not the chunk */
    if (d->s->input.is_dir && name_of_file != d->stream) {
        /* a --threads directory: say which file the offsets are in */
        d->stream = name_of_file;
        printf("\n# stream: ");
        pd_put_str(stdout, name_of_file);
        putchar('\n');
    }
    if (d->selected && (rec->type >= 128 || !((d->type_mask[rec->type / 64] >> (rec->type % 64)) & 1u))) return;
    if (d->raw) {
        printf("\n%#llx [%#x]: event: %u\n.\n", (U64)rec->offset, rec->size, rec->type);
        print_raw(rec);
    }
    if (rec->type == PERFDATA_RECORD_SAMPLE) {
        if (perfdata_decode_sample(d->f, rec, &s, &err) == PERFDATA_OK) {
            have_sample = 1;
            if (s.sample_type & PERFDATA_SAMPLE_CPU) cpu = s.cpu;
            if (s.sample_type & PERFDATA_SAMPLE_TIME) time = s.time;
        }
    } else if (rec->type < 64 && perfdata_decode_sample_id(d->f, rec, &sid, &err) == PERFDATA_OK) {
        if (sid.sample_type & PERFDATA_SAMPLE_CPU) cpu = sid.cpu;
        if (sid.sample_type & PERFDATA_SAMPLE_TIME) time = sid.time;
    }
    if (!d->raw) putchar('\n');
    print_tstamp(d, rec, cpu, time);
    {
        char line[96], *p = line; /* "%#llx [%#x]: PERF_RECORD_%s" */
        p = put_alt_hex(p, rec->offset);
        p = PUT_LIT(p, " [");
        p = put_alt_hex(p, rec->size);
        p = PUT_LIT(p, "]: PERF_RECORD_");
        fwrite(line, 1, (size_t)(p - line), stdout);
        fputs(perfdata_record_name(rec->type), stdout);
    }
    if (rec->type == PERFDATA_RECORD_SAMPLE && !have_sample) {
        printf(" (bad sample: %s)\n", err.message);
        return;
    }
    print_body(d, rec, have_sample ? &s : NULL);
}

static int parse_types(dump_ctx *d, const char *list) {
    char buf[1024], *tok, *save = NULL;
    snprintf(buf, sizeof buf, "%s", list);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        unsigned t;
        int found = 0;
        for (t = 1; t < 128; t++) {
            const char *n = perfdata_record_name(t);
            if (!strcasecmp(tok, n) || (!strncasecmp(tok, "PERF_RECORD_", 12) && !strcasecmp(tok + 12, n))) {
                d->type_mask[t / 64] |= 1ull << (t % 64);
                found = 1;
            }
        }
        if (!found) {
            char *end;
            unsigned long v = strtoul(tok, &end, 0);
            if (*end || v >= 128) { fprintf(stderr, "perfdata dump: unknown record type '%s'\n", tok); return -1; }
            d->type_mask[v / 64] |= 1ull << (v % 64);
        }
        d->selected = 1;
    }
    return 0;
}

enum { DUMP_RAW = 1, DUMP_ORDERED, DUMP_NO_DECOMPRESS, DUMP_HEADER, DUMP_TYPE };

static const pd_opt dump_opts[] = {
    {0, DUMP_RAW, "raw", NULL, "add the hex bytes of each record"},
    {0, DUMP_HEADER, "header", NULL, "print the file header and events first"},
    {0, DUMP_ORDERED, "ordered", NULL, "in the order perf delivers them (time order per round)"},
    {0, DUMP_NO_DECOMPRESS, "no-decompress", NULL, "show COMPRESSED records as they are, not their contents"},
    {0, DUMP_TYPE, "type", "T1,T2,...", "only these record types (names like SAMPLE,MMAP2 or numbers)"},
    {0, 0, NULL, NULL, NULL},
};
static const pd_opt *const dump_tables[] = {dump_opts, pd_ratio_opts, pd_queue_opts, NULL};
const pd_command pd_dump_command = {
    "dump", "every record, as `perf report -D` prints it",
    "  Prints every record in file order as `perf report -D` does.\n", dump_tables, NULL};

typedef struct dump_args { dump_ctx *d; int ordered, no_decompress; } dump_args;

static int dump_option(void *ctx, int id, const char *value) {
    dump_args *a = (dump_args *)ctx;
    switch (id) {
    case DUMP_RAW: a->d->raw = 1; break;
    case DUMP_ORDERED: a->ordered = 1; break;
    case DUMP_NO_DECOMPRESS: a->no_decompress = 1; break;
    case DUMP_HEADER: a->d->show_header = 1; break;
    case DUMP_TYPE: return parse_types(a->d, value);
    }
    return 0;
}

int pd_cmd_dump(int argc, char **argv) {
    dump_ctx d;
    pd_session s;
    const char *path = NULL;
    int rc, ordered, no_decompress;
    dump_args args;
    memset(&d, 0, sizeof d);
    init_digit_pairs();
    args.d = &d;
    args.ordered = args.no_decompress = 0;
    if ((rc = pd_opts_parse(&pd_dump_command, argc, argv, dump_option, &args, &path)) >= 0) return rc;
    ordered = args.ordered;
    no_decompress = args.no_decompress;
    /* --no-decompress: the walk yields the chunks themselves */
    if (pd_session_open_flags(&s, path, (ordered ? PERFDATA_READ_ORDERED : 0u) |
                                            (no_decompress ? PERFDATA_READ_RAW_CHUNKS : 0u)) != 0)
        return 1;
    d.s = &s;
    d.f = s.file;
    d.arch = s.arch;
    s.read_ahead = 1; /* printing a record costs more than reading it */
    if (d.show_header) pd_print_header(&s);
    rc = ordered ? pd_session_walk_ordered(&s, (pd_record_fn)dump_record, &d)
                 : pd_session_walk(&s, (pd_record_fn)dump_record, &d);
    rc = pd_session_finish(&s, rc);
    pd_session_close(&s);
    return rc;
}
