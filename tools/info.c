/* info.c - `perfdata info`: the header and every feature section, printed
   the way perf 6.1's `perf report --header-only -I` prints them
   (tools/perf/util/header.c, the print_* functions). */
/* 64-bit file offsets and inode numbers on 32-bit hosts too: without this,
   stat() and readdir() fail with EOVERFLOW on large filesystems and files
   over 2 GiB cannot be mapped. */
#ifndef _FILE_OFFSET_BITS
#define _FILE_OFFSET_BITS 64
#endif
#include "perfdata.h"
#include "pd_info.h"
#include "pd_opts.h"
#include "pd_text.h"
#include "pd_tool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define U64 unsigned long long

/* GROUP_DESC as perf's process_group_desc leaves it on each event. */
typedef struct info_group {
    size_t leader;                    /* the event's leader (itself unless a member) */
    uint32_t nr_members;
    char *name;                       /* the group's name (a copy: a pipe's record may not stay) */
    size_t name_len;
} info_group;

typedef struct info_ctx {
    pd_session *s;
    FILE *out;
    int big;
    uint32_t nr_cpus_avail;           /* NRCPUS, needed by CPU_TOPOLOGY */
    info_group *groups;               /* GROUP_DESC, by event index */
    size_t nr_groups;                 /* entries in groups */
    uint64_t group_budget;            /* GROUP_DESC work left (pipes may repeat it) */
    int group_skipped;                /* GROUP_DESC records left out for the budget */
    pd_btf_index btf;                 /* BPF_BTF, for BPF program names */
    int quiet;                        /* the section's failure is already said */
} info_ctx;

/* A feature that could not be printed (in whole or in part): said on
   stderr, and the result is partial. */
static void feat_fail(info_ctx *c, unsigned feat, const char *what, const perfdata_error *err) {
    c->s->partial = 1;
    if (c->quiet) return;
    fflush(c->out);
    fprintf(stderr, "perfdata: %s: feature %s: %s", c->s->path, perfdata_feature_name(feat), what);
    if (err) fprintf(stderr, " (%s at offset 0x%llx)", err->message, (U64)err->offset);
    fprintf(stderr, "\n");
}

/* Text from the file: control characters escaped (pd_text.h). */
static void print_view(info_ctx *c, perfdata_view v) { pd_put_text(c->out, (const char *)v.p, v.n); }

/* ---------------------------------------------------------- cpu lists */

/* One run of a cpu list, both ends below INT_MAX. */
typedef struct cpu_range { uint32_t lo, hi; } cpu_range;

static int cmp_range(const void *a, const void *b) {
    uint32_t x = ((const cpu_range *)a)->lo, y = ((const cpu_range *)b)->lo;
    return x < y ? -1 : x > y;
}

/* strtoul(s, &end, 0) as glibc does it on a 64-bit host, over v from i:
   spaces, a sign, 0x for hex and 0 for octal; a value past 2^64 - 1 is
   ULONG_MAX, a negative one wraps. Without digits it returns 0 and *end is
   i. (perf 6.1 reads cpu lists with it: perf_cpu_map__new.) */
static uint64_t list_strtoul(perfdata_view v, size_t i, size_t *end) {
    size_t j = i;
    unsigned base = 10;
    int neg = 0, any = 0, over = 0;
    uint64_t x = 0;
    while (j < v.n && (v.p[j] == ' ' || (v.p[j] >= '\t' && v.p[j] <= '\r'))) j++;
    if (j < v.n && (v.p[j] == '+' || v.p[j] == '-')) neg = v.p[j++] == '-';
    if (j < v.n && v.p[j] == '0') {
        base = 8;
        if (j + 2 < v.n && (v.p[j + 1] | 0x20) == 'x' &&
            ((v.p[j + 2] >= '0' && v.p[j + 2] <= '9') || ((v.p[j + 2] | 0x20) >= 'a' && (v.p[j + 2] | 0x20) <= 'f'))) {
            base = 16;
            j += 2;
        }
    }
    for (; j < v.n; j++) {
        unsigned ch = v.p[j], d;
        if (ch >= '0' && ch <= '9') d = ch - '0';
        else if ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'z') d = (ch | 0x20) - 'a' + 10;
        else break;
        if (d >= base) break;
        any = 1;
        if (x > (UINT64_MAX - d) / base) over = 1;
        else x = x * base + d;
    }
    if (!any) { *end = i; return 0; }
    *end = j;
    if (over) return UINT64_MAX;
    return neg ? (uint64_t)0 - x : x;
}

/* A NUMA node's cpu list as perf 6.1 reads it (perf_cpu_map__new): runs
   "N" or "N-M" separated by commas, each number below INT_MAX, no run
   reversed, no cpu twice; reading stops at the first run that does not
   start with a digit. The runs go to *out (malloc'd, sorted; NULL and 0
   for the empty list). Returns 0, 1 when perf refuses the list, -1 when
   out of memory. Time O(n log n) in the list's length, whatever its
   numbers: runs are never expanded into cpus. */
static int parse_cpu_list(perfdata_view v, cpu_range **out, size_t *nr) {
    const uint64_t int_max = 0x7fffffff;
    cpu_range *r;
    size_t i = 0, n = 0, k;
    *out = NULL;
    *nr = 0;
    if (!v.n) return 0;
    if (v.p[0] < '0' || v.p[0] > '9') return 1;
    if (v.n / 2 + 1 > (size_t)-1 / sizeof *r) return -1;
    r = (cpu_range *)malloc((v.n / 2 + 1) * sizeof *r); /* a run takes 2 bytes or more, its comma included */
    if (!r) return -1;
    while (i < v.n && v.p[i] >= '0' && v.p[i] <= '9') {
        size_t e;
        uint64_t lo = list_strtoul(v, i, &e), hi = lo;
        if (lo >= int_max || (e < v.n && v.p[e] != ',' && v.p[e] != '-')) goto refused;
        if (e < v.n && v.p[e] == '-') {
            hi = list_strtoul(v, e + 1, &e);
            if (hi >= int_max || (e < v.n && v.p[e] != ',') || hi < lo) goto refused;
        }
        r[n].lo = (uint32_t)lo;
        r[n].hi = (uint32_t)hi;
        n++;
        i = e < v.n ? e + 1 : e;
    }
    qsort(r, n, sizeof *r, cmp_range);
    for (k = 1; k < n; k++)
        if (r[k].lo <= r[k - 1].hi) goto refused; /* a cpu twice */
    *out = r;
    *nr = n;
    return 0;
refused:
    free(r);
    return 1;
}

/* The list printed back as perf's cpu_map__snprint does: sorted, adjacent
   runs merged; the empty list is perf's dummy map, "-1". */
static void print_cpu_runs(info_ctx *c, const cpu_range *r, size_t n) {
    size_t k = 0;
    if (!n) fprintf(c->out, "-1");
    while (k < n) {
        uint32_t lo = r[k].lo, hi = r[k].hi;
        fprintf(c->out, k ? ",%u" : "%u", (unsigned)lo);
        while (k + 1 < n && r[k + 1].lo == hi + 1) hi = r[++k].hi;
        if (hi != lo) fprintf(c->out, "-%u", (unsigned)hi);
        k++;
    }
    fprintf(c->out, "\n");
}

static const char *clockid_name(uint32_t id) {
    switch (id) {
    case 1: return "monotonic";
    case 4: return "monotonic_raw";
    case 0: return "realtime";
    case 7: return "boottime";
    case 11: return "tai";
    default: return "(not found)";
    }
}

/* perf_event_attr__fprintf with print_event_desc's ", name = value". */
static void print_bits(FILE *out, const char *name, uint64_t v, const uint64_t *bits, const char *const *names) {
    int first = 1, i;
    if (!v) return;
    fprintf(out, ", %s = ", name);
    for (i = 0; names[i]; i++)
        if (v & bits[i]) { fprintf(out, "%s%s", first ? "" : "|", names[i]); first = 0; }
}

static void print_attr(FILE *out, const perfdata_attr *a) {
    static const uint64_t st_bits[] = {1u << 0, 1u << 1, 1u << 2, 1u << 3, 1u << 4, 1u << 5, 1u << 6, 1u << 7, 1u << 8,
                                       1u << 9, 1u << 10, 1u << 11, 1u << 12, 1u << 13, 1u << 16, 1u << 18, 1u << 15,
                                       1u << 14, 1u << 19, 1u << 20, 1u << 21, 1u << 22, 1u << 23, 1u << 24};
    static const char *const st_names[] = {"IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU", "PERIOD",
                                           "STREAM_ID", "RAW", "BRANCH_STACK", "REGS_USER", "STACK_USER",
                                           "IDENTIFIER", "REGS_INTR", "DATA_SRC", "WEIGHT", "PHYS_ADDR", "AUX",
                                           "CGROUP", "DATA_PAGE_SIZE", "CODE_PAGE_SIZE", "WEIGHT_STRUCT", NULL};
    static const uint64_t rf_bits[] = {1, 2, 4, 8, 16};
    static const char *const rf_names[] = {"TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID", "GROUP", "LOST", NULL};
    static const uint64_t br_bits[] = {1u << 0, 1u << 1, 1u << 2, 1u << 3, 1u << 4, 1u << 5, 1u << 6,
                                       1u << 7, 1u << 8, 1u << 9, 1u << 10, 1u << 11, 1u << 12, 1u << 13,
                                       1u << 14, 1u << 15, 1u << 16, 1u << 17, 1u << 18};
    static const char *const br_names[] = {"USER", "KERNEL", "HV", "ANY", "ANY_CALL", "ANY_RETURN", "IND_CALL",
                                           "ABORT_TX", "IN_TX", "NO_TX", "COND", "CALL_STACK", "IND_JUMP", "CALL",
                                           "NO_FLAGS", "NO_CYCLES", "TYPE_SAVE", "HW_INDEX", "PRIV_SAVE", NULL};
    static const char *const flags[] = {
        "disabled", "inherit", "pinned", "exclusive", "exclude_user", "exclude_kernel", "exclude_hv",
        "exclude_idle", "mmap", "comm", "freq", "inherit_stat", "enable_on_exec", "task", "watermark",
        "precise_ip", NULL, "mmap_data", "sample_id_all", "exclude_host", "exclude_guest",
        "exclude_callchain_kernel", "exclude_callchain_user", "mmap2", "comm_exec", "use_clockid",
        "context_switch", "write_backward", "namespaces", "ksymbol", "bpf_event", "aux_output", "cgroup",
        "text_poke", "build_id", "inherit_thread", "remove_on_exec", "sigtrap"};
    int i;
    if (a->type) fprintf(out, ", type = %u", a->type);
    if (a->size) fprintf(out, ", size = %u", a->size);
    if (a->config) fprintf(out, ", config = %#llx", (U64)a->config);
    if (a->sample_period) fprintf(out, ", { sample_period, sample_freq } = %llu", (U64)a->sample_period);
    print_bits(out, "sample_type", a->sample_type, st_bits, st_names);
    print_bits(out, "read_format", a->read_format, rf_bits, rf_names);
    for (i = 0; i < (int)(sizeof flags / sizeof flags[0]); i++) {
        uint64_t v;
        if (!flags[i]) continue;
        v = i == 15 ? perfdata_attr_precise_ip(a) : (a->flags >> i) & 1u;
        if (v) fprintf(out, ", %s = %llu", flags[i], (U64)v);
    }
    if (a->wakeup_events) fprintf(out, ", { wakeup_events, wakeup_watermark } = %u", a->wakeup_events);
    if (a->bp_type) fprintf(out, ", bp_type = %u", a->bp_type);
    if (a->config1) fprintf(out, ", { bp_addr, config1 } = %#llx", (U64)a->config1);
    if (a->config2) fprintf(out, ", { bp_len, config2 } = %#llx", (U64)a->config2);
    print_bits(out, "branch_sample_type", a->branch_sample_type, br_bits, br_names);
    if (a->sample_regs_user) fprintf(out, ", sample_regs_user = %#llx", (U64)a->sample_regs_user);
    if (a->sample_stack_user) fprintf(out, ", sample_stack_user = %u", a->sample_stack_user);
    if (a->clockid) fprintf(out, ", clockid = %d", (int)a->clockid);
    if (a->sample_regs_intr) fprintf(out, ", sample_regs_intr = %#llx", (U64)a->sample_regs_intr);
    if (a->aux_watermark) fprintf(out, ", aux_watermark = %u", a->aux_watermark);
    if (a->sample_max_stack) fprintf(out, ", sample_max_stack = %u", a->sample_max_stack);
    if (a->aux_sample_size) fprintf(out, ", aux_sample_size = %u", a->aux_sample_size);
    if (a->sig_data) fprintf(out, ", sig_data = %llu", (U64)a->sig_data);
}

static void print_event_desc(info_ctx *c, perfdata_view sec) {
    perfdata_feat_event_desc d;
    perfdata_event_desc_entry e;
    perfdata_error err;
    size_t st = 0, i;
    if (perfdata_decode_feat_event_desc(sec, c->big, &d, &err) != PERFDATA_OK) {
        fprintf(c->out, "# event desc: not available or unable to read\n");
        feat_fail(c, PERFDATA_FEAT_EVENT_DESC, "not printed", &err);
        return;
    }
    while (perfdata_event_desc_next(&d, &st, &e)) {
        if (!e.attr.size) break; /* perf's list ends at an attr of size 0 */
        fprintf(c->out, "# event : name = ");
        print_view(c, e.name);
        fprintf(c->out, ", ");
        if (e.ids.count) {
            fprintf(c->out, ", id = {");
            for (i = 0; i < e.ids.count; i++) fprintf(c->out, "%s %llu", i ? "," : "", (U64)perfdata_u64s_at(&e.ids, i));
            fprintf(c->out, " }");
        }
        print_attr(c->out, &e.attr);
        fprintf(c->out, "\n");
    }
}

/* print_cmdline: arguments separated (and ended) by a space, ' as \' */
static void print_cmdline(info_ctx *c, perfdata_view sec) {
    perfdata_strlist l;
    perfdata_view a;
    perfdata_error err;
    size_t st = 0;
    fprintf(c->out, "# cmdline : ");
    if (perfdata_decode_feat_strlist(sec, c->big, &l, &err) == PERFDATA_OK) {
        while (perfdata_strlist_next(&l, &st, &a)) {
            size_t i = 0, j;
            for (j = 0; j < a.n; j++) {
                if (a.p[j] != '\'') continue;
                pd_put_text(c->out, (const char *)a.p + i, j - i);
                fputs("\\'", c->out);
                i = j + 1;
            }
            pd_put_text(c->out, (const char *)a.p + i, a.n - i);
            fputc(' ', c->out);
        }
        fprintf(c->out, "\n");
    } else {
        fprintf(c->out, "\n");
        feat_fail(c, PERFDATA_FEAT_CMDLINE, "not printed", &err);
    }
}

static void print_siblings(info_ctx *c, const char *label, const perfdata_strlist *l) {
    perfdata_view v;
    size_t st;
    for (st = 0; perfdata_strlist_next(l, &st, &v);) {
        fprintf(c->out, "# sibling %s : ", label);
        print_view(c, v);
        fprintf(c->out, "\n");
    }
}

static void print_cpu_topology(info_ctx *c, perfdata_view sec) {
    perfdata_feat_cpu_topology t;
    perfdata_error err;
    uint32_t cpu;
    if (perfdata_decode_feat_cpu_topology(sec, c->big, c->nr_cpus_avail, &t, &err) != PERFDATA_OK) {
        feat_fail(c, PERFDATA_FEAT_CPU_TOPOLOGY, "not printed", &err);
        return;
    }
    print_siblings(c, "sockets", &t.core_siblings);
    if (t.has_dies && t.die_siblings.nr) print_siblings(c, "dies   ", &t.die_siblings);
    print_siblings(c, "threads", &t.thread_siblings);
    /* t.nr_cpus is nr_cpus_avail only when the section holds an id for each */
    if (t.has_dies && t.die_siblings.nr) {
        if (t.nr_cpus)
            for (cpu = 0; cpu < t.nr_cpus; cpu++) {
                perfdata_cpu_topology_entry e = perfdata_cpu_topology_at(&t, cpu);
                fprintf(c->out, "# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", cpu, e.core_id, e.die_id, e.socket_id);
            }
        else
            fprintf(c->out, "# Core ID, Die ID and Socket ID information is not available\n");
    } else if (t.nr_cpus) {
        for (cpu = 0; cpu < t.nr_cpus; cpu++) {
            perfdata_cpu_topology_entry e = perfdata_cpu_topology_at(&t, cpu);
            fprintf(c->out, "# CPU %u: Core ID %d, Socket ID %d\n", cpu, e.core_id, e.socket_id);
        }
    } else {
        fprintf(c->out, "# Core ID and Socket ID information is not available\n");
    }
}

/* NUMA_TOPOLOGY: perf reads every node's cpu list first and prints
   nothing of the feature when it refuses one of them. */
static void print_numa_topology(info_ctx *c, perfdata_view sec) {
    perfdata_feat_list l;
    perfdata_numa_node n;
    perfdata_error err;
    cpu_range *r;
    size_t st, nr;
    int rc;
    if (perfdata_decode_feat_numa_topology(sec, c->big, &l, &err) != PERFDATA_OK) {
        feat_fail(c, PERFDATA_FEAT_NUMA_TOPOLOGY, "not printed", &err);
        return;
    }
    for (st = 0; perfdata_numa_node_next(&l, &st, &n);) {
        rc = parse_cpu_list(n.cpus, &r, &nr);
        free(r);
        if (rc < 0) { feat_fail(c, PERFDATA_FEAT_NUMA_TOPOLOGY, "out of memory; not printed", NULL); return; }
        if (rc > 0) {
            char what[160];
            snprintf(what, sizeof what, "the cpu list of node %u (at offset 0x%llx) is not one perf reads; "
                                        "not printed, as perf", n.node, (U64)n.cpus.offset);
            feat_fail(c, PERFDATA_FEAT_NUMA_TOPOLOGY, what, NULL);
            return;
        }
    }
    for (st = 0; perfdata_numa_node_next(&l, &st, &n);) {
        fprintf(c->out, "# node%u meminfo  : total = %llu kB, free = %llu kB\n", n.node, (U64)n.mem_total,
                (U64)n.mem_free);
        fprintf(c->out, "# node%u cpu list : ", n.node);
        if (parse_cpu_list(n.cpus, &r, &nr) == 0) print_cpu_runs(c, r, nr);
        else fprintf(c->out, "\n"); /* out of memory the second time */
        free(r);
    }
}

static const char *unit_number(uint64_t n, char *buf, size_t len) {
    static const char units[] = "BKMG";
    int i = 0;
    while (n / 1024 > 1 && i < 3) { n /= 1024; i++; }
    snprintf(buf, len, "%llu%c", (U64)n, units[i]);
    return buf;
}

/* perf's scnprintf into a fixed buffer: the text is cut where it fills. */
typedef struct bounded { char *buf; size_t cap, len; } bounded;

static void bounded_add(bounded *b, const char *fmt, unsigned long long v) {
    if (b->len + 1 < b->cap) {
        int n = snprintf(b->buf + b->len, b->cap - b->len, fmt, v);
        if (n > 0) b->len += (size_t)n < b->cap - b->len ? (size_t)n : b->cap - b->len - 1;
    }
}

static int bit_at(const perfdata_u64s *bits, uint64_t b) {
    return (int)((perfdata_u64s_at(bits, (size_t)(b / 64)) >> (b % 64)) & 1u);
}

static unsigned popcount64(uint64_t x) {
    unsigned n = 0;
    while (x) { x &= x - 1; n++; }
    return n;
}

/* MEM_TOPOLOGY as perf's memory_node__fprintf: the node's size is
   block size times the bits set; the bit list is cut at 99 characters
   (perf's bitmap_scnprintf into a 100-byte buffer). */
static void print_mem_topology(info_ctx *c, perfdata_view sec) {
    perfdata_feat_mem_topology m;
    perfdata_mem_node n;
    perfdata_error err;
    size_t st = 0;
    if (perfdata_decode_feat_mem_topology(sec, c->big, &m, &err) != PERFDATA_OK) {
        feat_fail(c, PERFDATA_FEAT_MEM_TOPOLOGY, "not printed", &err);
        return;
    }
    fprintf(c->out, "# memory nodes (nr %d, block size 0x%llx):\n", (int)m.nodes.nr, (U64)m.block_size);
    while (perfdata_mem_node_next(&m.nodes, &st, &n)) {
        /* the bitmap holds ceil(nbits / 64) words: nbits is bounded by it */
        uint64_t b, weight = 0, nbits = n.nbits, run = 0;
        int in_run = 0;
        size_t w;
        char size[32], list[100];
        bounded out;
        out.buf = list; out.cap = sizeof list; out.len = 0; list[0] = 0;
        for (w = 0; w < n.bitmap.count; w++) {
            uint64_t word = perfdata_u64s_at(&n.bitmap, w);
            if ((uint64_t)w * 64 + 64 > nbits) word &= (1ull << (nbits % 64)) - 1; /* the last, partial word */
            weight += popcount64(word);
        }
        for (b = 0; b <= nbits && out.len + 1 < out.cap; b++) {
            int on = b < nbits && bit_at(&n.bitmap, b);
            if (on && !in_run) { run = b; in_run = 1; }
            if (!on && in_run) {
                bounded_add(&out, out.len ? ",%llu" : "%llu", (U64)run);
                if (b - 1 != run) bounded_add(&out, "-%llu", (U64)(b - 1));
                in_run = 0;
            }
        }
        fprintf(c->out, "#  %3llu [%s]: %s\n", (U64)n.node, unit_number(m.block_size * weight, size, sizeof size), list);
    }
}

static void print_pmu_caps_line(info_ctx *c, perfdata_view pmu, const perfdata_feat_list *caps) {
    perfdata_name_value nv;
    size_t st = 0;
    int first = 1;
    fprintf(c->out, "# ");
    print_view(c, pmu);
    if (!caps->nr) { fprintf(c->out, " pmu capabilities: not available\n"); return; }
    fprintf(c->out, " pmu capabilities: ");
    while (perfdata_name_value_next(caps, &st, &nv)) {
        fprintf(c->out, "%s", first ? "" : ", ");
        print_view(c, nv.name);
        fprintf(c->out, "=");
        print_view(c, nv.value);
        first = 0;
    }
    fprintf(c->out, "\n");
}

/* GROUP_DESC, applied to the events as perf's process_group_desc does:
   the groups in order, each at the next event whose index is its leader's;
   the events after a leader are its members, nr_members - 1 of them. A
   group that starts inside another, or groups left over, are "invalid
   group desc" to perf, which keeps what it had set so far. Returns 0, 1
   when invalid, -1 when out of memory. */
static int apply_group_desc(info_ctx *c, const perfdata_feat_list *l) {
    size_t nev = c->s->file->nr_events, i, st = 0;
    perfdata_group_desc g;
    int have = perfdata_group_desc_next(l, &st, &g);
    uint32_t nr = 0;
    size_t leader = 0;
    if (nev > c->nr_groups) { /* a pipe's attrs arrive as records */
        info_group *more = (info_group *)realloc(c->groups, nev * sizeof *more);
        if (!more) return -1;
        for (i = c->nr_groups; i < nev; i++) {
            more[i].leader = i;
            more[i].nr_members = 0;
            more[i].name = NULL;
            more[i].name_len = 0;
        }
        c->groups = more;
        c->nr_groups = nev;
    }
    for (i = 0; i < nev; i++) {
        if (have && (uint64_t)g.leader_idx == (uint64_t)i) {
            info_group *e = &c->groups[i];
            e->leader = i;
            /* "{anon_group}" is perf's placeholder for an unnamed group */
            if (!(g.name.n == 12 && !memcmp(g.name.p, "{anon_group}", 12))) {
                char *copy = g.name.n ? (char *)malloc(g.name.n) : NULL;
                if (g.name.n && !copy) return -1;
                if (copy) memcpy(copy, g.name.p, g.name.n);
                free(e->name);
                e->name = copy;
                e->name_len = g.name.n;
            }
            e->nr_members = g.nr_members;
            if (nr > 0) return 1;
            leader = i;
            nr = g.nr_members - 1; /* u32: 0 members makes every later event a member */
            have = perfdata_group_desc_next(l, &st, &g);
        } else if (nr) {
            c->groups[i].leader = leader;
            nr--;
        }
    }
    return have || nr ? 1 : 0;
}

/* As perf's print_group_desc, but a group that a group description perf
   calls invalid leaves open (a leader inside it, members past the last
   event) is ended with a newline, where perf runs on into the next line. */
static void print_group_desc(info_ctx *c) {
    size_t i;
    uint32_t nr = 0;
    for (i = 0; i < c->nr_groups && i < c->s->file->nr_events; i++) {
        const info_group *e = &c->groups[i];
        if (e->leader == i && e->nr_members > 1) {
            if (nr) fprintf(c->out, "\n");
            fprintf(c->out, "# group: ");
            pd_put_text(c->out, e->name ? e->name : "", e->name_len);
            fprintf(c->out, "{");
            pd_put_str(c->out, pd_event_name(c->s, i));
            nr = e->nr_members - 1;
        } else if (nr) {
            fprintf(c->out, ",");
            pd_put_str(c->out, pd_event_name(c->s, i));
            if (--nr == 0) fprintf(c->out, "}\n");
        }
    }
    if (nr) fprintf(c->out, "\n");
}

/* A pipe may repeat GROUP_DESC, and each one walks every event: the walks
   share a budget that grows with the input, so that the time and output
   cannot grow with its square. */
static int group_desc_affordable(info_ctx *c) {
    uint64_t cost = (uint64_t)c->s->file->nr_events * 258u + 1u;
    if (cost > c->group_budget) {
        c->group_skipped++;
        return 0;
    }
    c->group_budget -= cost;
    return 1;
}

static void note_group_desc(info_ctx *c, perfdata_view sec) {
    perfdata_feat_list l;
    perfdata_error err;
    int rc;
    if (perfdata_decode_feat_group_desc(sec, c->big, &l, &err) != PERFDATA_OK) {
        feat_fail(c, PERFDATA_FEAT_GROUP_DESC, "not applied", &err);
        return;
    }
    rc = apply_group_desc(c, &l);
    if (rc < 0) feat_fail(c, PERFDATA_FEAT_GROUP_DESC, "out of memory; not applied", NULL);
    if (rc > 0)
        feat_fail(c, PERFDATA_FEAT_GROUP_DESC,
                  "the groups do not match the events (perf's \"invalid group desc\"); printed as far as perf applies them",
                  NULL);
}

static void free_groups(info_ctx *c) {
    size_t i;
    for (i = 0; i < c->nr_groups; i++) free(c->groups[i].name);
    free(c->groups);
    c->groups = NULL;
    c->nr_groups = 0;
}

static void print_bpf_prog_info(info_ctx *c, perfdata_view sec) {
    perfdata_feat_list l;
    perfdata_bpf_prog_info p;
    perfdata_error err;
    size_t st = 0, k = 0;
    if (c->big) return; /* perf skips the section in byte-swapped files */
    if (perfdata_decode_feat_bpf_prog_info(sec, c->big, &l, &err) != PERFDATA_OK) {
        feat_fail(c, PERFDATA_FEAT_BPF_PROG_INFO, "not printed", &err);
        return;
    }
    for (; perfdata_bpf_prog_info_next(&l, &st, &p); k++) {
        const char *why;
        int rc = pd_bpf_print_prog_info(c->out, &p, c->big, &c->btf, &why);
        if (rc) {
            char what[200];
            snprintf(what, sizeof what, "program %zu (at offset 0x%llx) not printed: %s", k, (U64)p.info.offset,
                     rc < 0 ? "out of memory" : why);
            feat_fail(c, PERFDATA_FEAT_BPF_PROG_INFO, what, NULL);
        }
    }
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void print_bpf_btf(info_ctx *c, perfdata_view sec) {
    perfdata_feat_list l;
    perfdata_bpf_btf b;
    perfdata_error err;
    size_t st = 0, n = 0, i;
    uint32_t *ids;
    if (c->big) return; /* perf skips the section in byte-swapped files */
    if (perfdata_decode_feat_bpf_btf(sec, c->big, &l, &err) != PERFDATA_OK) {
        feat_fail(c, PERFDATA_FEAT_BPF_BTF, "not printed", &err);
        return;
    }
    while (perfdata_bpf_btf_next(&l, &st, &b)) n++; /* at most one per 8 bytes */
    if (!n) return;
    ids = (uint32_t *)malloc(n * sizeof *ids);
    if (!ids) { feat_fail(c, PERFDATA_FEAT_BPF_BTF, "out of memory; not printed", NULL); return; }
    for (st = 0, i = 0; i < n && perfdata_bpf_btf_next(&l, &st, &b); i++) ids[i] = b.id;
    qsort(ids, n, sizeof *ids, cmp_u32); /* perf keeps them in a tree by id */
    for (i = 0; i < n; i++)
        if (!i || ids[i] != ids[i - 1]) fprintf(c->out, "# btf info of id %u\n", ids[i]);
    free(ids);
}

/* CACHE as perf's cpu_cache_level__fprintf: "L%d %-15s %8s [%s]". */
static void print_cache(info_ctx *c, perfdata_view sec) {
    perfdata_feat_cache k;
    perfdata_cache_level l;
    perfdata_error err;
    size_t st = 0;
    fprintf(c->out, "# CPU cache info:\n");
    if (perfdata_decode_feat_cache(sec, c->big, &k, &err) != PERFDATA_OK) {
        feat_fail(c, PERFDATA_FEAT_CACHE, "not printed", &err);
        return;
    }
    while (perfdata_cache_level_next(&k.levels, &st, &l)) {
        /* escaped, a control character as 4 bytes: room for the worst */
        size_t need = 4 * (l.type.n + l.size.n + l.map.n) + 3;
        char *type, *size, *map;
        if (l.type.n + l.size.n + l.map.n > ((size_t)-1 - 3) / 4) {
            feat_fail(c, PERFDATA_FEAT_CACHE, "a level's strings are too long to print", NULL);
            return;
        }
        type = (char *)malloc(need);
        if (!type) { feat_fail(c, PERFDATA_FEAT_CACHE, "out of memory; not printed", NULL); return; }
        size = type + pd_escape(type, 4 * l.type.n + 1, (const char *)l.type.p, l.type.n) + 1;
        map = size + pd_escape(size, 4 * l.size.n + 1, (const char *)l.size.p, l.size.n) + 1;
        pd_escape(map, 4 * l.map.n + 1, (const char *)l.map.p, l.map.n);
        fprintf(c->out, "#  L%d %-15s %8s [%s]\n", (int)l.level, type, size, map);
        free(type);
    }
}

static void print_feature(info_ctx *c, unsigned feat, perfdata_view sec) {
    int big = c->big;
    perfdata_view v;
    perfdata_error err;
    uint64_t u;
    char tbuf[128];
    switch (feat) {
    case PERFDATA_FEAT_HOSTNAME: case PERFDATA_FEAT_OSRELEASE: case PERFDATA_FEAT_VERSION: case PERFDATA_FEAT_ARCH:
    case PERFDATA_FEAT_CPUDESC: case PERFDATA_FEAT_CPUID: {
        static const char *const label[] = {0, 0, 0, "hostname", "os release", "perf version", "arch", 0, "cpudesc", "cpuid"};
        fprintf(c->out, "# %s : ", label[feat]);
        if (perfdata_decode_feat_string(sec, big, &v, &err) == PERFDATA_OK) {
            print_view(c, v);
            fprintf(c->out, "\n");
        } else {
            fprintf(c->out, "(null)\n"); /* perf prints the string it could not read */
            feat_fail(c, feat, "not printed", &err);
        }
        break;
    }
    case PERFDATA_FEAT_NRCPUS: {
        perfdata_feat_nrcpus n = {0, 0};
        if (perfdata_decode_feat_nrcpus(sec, big, &n, &err) != PERFDATA_OK) {
            n.nr_cpus_available = n.nr_cpus_online = 0;
            feat_fail(c, feat, "printed as 0", &err);
        }
        fprintf(c->out, "# nrcpus online : %u\n# nrcpus avail : %u\n", n.nr_cpus_online, n.nr_cpus_available);
        break;
    }
    case PERFDATA_FEAT_TOTAL_MEM:
        u = 0;
        if (perfdata_decode_feat_u64(sec, big, &u, &err) != PERFDATA_OK) { u = 0; feat_fail(c, feat, "printed as 0", &err); }
        fprintf(c->out, "# total memory : %llu kB\n", (U64)u);
        break;
    case PERFDATA_FEAT_CMDLINE: print_cmdline(c, sec); break;
    case PERFDATA_FEAT_EVENT_DESC: print_event_desc(c, sec); break;
    case PERFDATA_FEAT_CPU_TOPOLOGY: print_cpu_topology(c, sec); break;
    case PERFDATA_FEAT_NUMA_TOPOLOGY: print_numa_topology(c, sec); break;
    case PERFDATA_FEAT_BRANCH_STACK: fprintf(c->out, "# contains samples with branch stack\n"); break;
    case PERFDATA_FEAT_AUXTRACE: fprintf(c->out, "# contains AUX area data (e.g. instruction trace)\n"); break;
    case PERFDATA_FEAT_STAT: fprintf(c->out, "# contains stat data\n"); break;
    case PERFDATA_FEAT_PMU_MAPPINGS: {
        perfdata_feat_list l;
        perfdata_pmu_mapping m;
        size_t st = 0;
        const char *delim = "# pmu mappings: ";
        if (perfdata_decode_feat_pmu_mappings(sec, big, &l, &err) != PERFDATA_OK) {
            fprintf(c->out, "# pmu mappings: not available\n");
            feat_fail(c, feat, "printed as not available", &err);
            break;
        }
        if (!l.nr) {
            fprintf(c->out, "# pmu mappings: not available\n");
            break;
        }
        while (perfdata_pmu_mapping_next(&l, &st, &m)) {
            fprintf(c->out, "%s", delim);
            print_view(c, m.name);
            fprintf(c->out, " = %u", m.type);
            delim = ", ";
        }
        fprintf(c->out, "\n");
        break;
    }
    case PERFDATA_FEAT_GROUP_DESC: print_group_desc(c); break;
    case PERFDATA_FEAT_CACHE: print_cache(c, sec); break;
    case PERFDATA_FEAT_SAMPLE_TIME: {
        uint64_t first = 0, last = 0;
        if (perfdata_decode_feat_sample_time(sec, big, &first, &last, &err) != PERFDATA_OK) {
            first = last = 0;
            feat_fail(c, feat, "printed as 0", &err);
        }
        fprintf(c->out, "# time of first sample : %llu.%06llu\n", (U64)(first / 1000000000), (U64)(first % 1000000000 / 1000));
        fprintf(c->out, "# time of last sample : %llu.%06llu\n", (U64)(last / 1000000000), (U64)(last % 1000000000 / 1000));
        fprintf(c->out, "# sample duration : %10.3f ms\n", (double)(last - first) / 1000000.0);
        break;
    }
    case PERFDATA_FEAT_MEM_TOPOLOGY: print_mem_topology(c, sec); break;
    case PERFDATA_FEAT_CLOCKID:
        u = 0;
        if (perfdata_decode_feat_u64(sec, big, &u, &err) != PERFDATA_OK) { u = 0; feat_fail(c, feat, "printed as 0", &err); }
        fprintf(c->out, "# clockid frequency: %llu MHz\n", (U64)u * 1000);
        break;
    case PERFDATA_FEAT_DIR_FORMAT:
        /* perf prints the version of the directory it opened, 0 for a file */
        u = 0;
        if (c->s->input.is_dir && perfdata_decode_feat_u64(sec, big, &u, &err) != PERFDATA_OK) {
            u = 0;
            feat_fail(c, feat, "printed as 0", &err);
        }
        fprintf(c->out, "# directory data version : %llu\n", (U64)u);
        break;
    case PERFDATA_FEAT_BPF_PROG_INFO: print_bpf_prog_info(c, sec); break;
    case PERFDATA_FEAT_BPF_BTF: print_bpf_btf(c, sec); break;
    case PERFDATA_FEAT_COMPRESSED: {
        perfdata_feat_compressed z = {0, 0, 0, 0, 0};
        if (perfdata_decode_feat_compressed(sec, big, &z, &err) != PERFDATA_OK) {
            memset(&z, 0, sizeof z);
            feat_fail(c, feat, "printed as 0", &err);
        }
        fprintf(c->out, "# compressed : %s, level = %d, ratio = %d\n", z.type == 1 ? "Zstd" : "Unknown", (int)z.level,
                (int)z.ratio);
        break;
    }
    case PERFDATA_FEAT_CPU_PMU_CAPS: {
        static const unsigned char cpu[] = "cpu";
        perfdata_view name;
        perfdata_feat_list l;
        name.p = cpu; name.n = 3; name.offset = 0;
        if (perfdata_decode_feat_cpu_pmu_caps(sec, big, &l, &err) != PERFDATA_OK) {
            l.nr = 0;
            feat_fail(c, feat, "printed as not available", &err);
        }
        print_pmu_caps_line(c, name, &l);
        break;
    }
    case PERFDATA_FEAT_PMU_CAPS: {
        perfdata_feat_list l;
        perfdata_pmu_caps p;
        size_t st = 0;
        if (perfdata_decode_feat_pmu_caps(sec, big, &l, &err) != PERFDATA_OK) {
            feat_fail(c, feat, "not printed", &err);
            break;
        }
        while (perfdata_pmu_caps_next(&l, &st, &p)) print_pmu_caps_line(c, p.pmu_name, &p.caps);
        break;
    }
    case PERFDATA_FEAT_CLOCK_DATA: {
        perfdata_feat_clock_data d;
        time_t sec_tod;
        struct tm tm;
        char date[64];
        if (perfdata_decode_feat_clock_data(sec, big, &d, &err) != PERFDATA_OK || d.version != 1) {
            fprintf(c->out, "# reference time disabled\n");
            if (d.version != 1 && err.code == PERFDATA_OK) feat_fail(c, feat, "version is not 1; not printed, as perf", NULL);
            else feat_fail(c, feat, "not printed", &err);
            break;
        }
        sec_tod = (time_t)(d.wall_clock_ns / 1000000000);
        if (localtime_r(&sec_tod, &tm)) {
            strftime(date, sizeof date, "%F %T", &tm);
            snprintf(tbuf, sizeof tbuf, "%s.%06d", date, (int)(d.wall_clock_ns % 1000000000 / 1000));
        } else {
            snprintf(tbuf, sizeof tbuf, "<error>");
        }
        fprintf(c->out, "# clockid: %s (%u)\n", clockid_name(d.clockid), d.clockid);
        fprintf(c->out, "# reference time: %s = %lld.%06d (TOD) = %lld.%09lld (%s)\n", tbuf,
                (long long)(d.wall_clock_ns / 1000000000), (int)(d.wall_clock_ns % 1000000000 / 1000),
                (long long)(d.clockid_time_ns / 1000000000), (long long)(d.clockid_time_ns % 1000000000),
                clockid_name(d.clockid));
        break;
    }
    case PERFDATA_FEAT_HYBRID_TOPOLOGY: {
        perfdata_feat_list l;
        perfdata_hybrid_node n;
        size_t st = 0;
        fprintf(c->out, "# hybrid cpu system:\n");
        if (perfdata_decode_feat_hybrid_topology(sec, big, &l, &err) != PERFDATA_OK) {
            feat_fail(c, feat, "not printed", &err);
            break;
        }
        while (perfdata_hybrid_node_next(&l, &st, &n)) {
            fprintf(c->out, "# ");
            print_view(c, n.pmu_name);
            fprintf(c->out, " cpu list : ");
            print_view(c, n.cpus);
            fprintf(c->out, "\n");
        }
        break;
    }
    default:
        break; /* TRACING_DATA, BUILD_ID: perf prints nothing */
    }
}

/* What printing needs from other features: NRCPUS for the topology, the
   group descriptions for GROUP_DESC, BTF for BPF program names. */
static void note_feature(info_ctx *c, unsigned feat, perfdata_view sec) {
    if (feat == PERFDATA_FEAT_NRCPUS) {
        perfdata_feat_nrcpus n;
        if (perfdata_decode_feat_nrcpus(sec, c->big, &n, NULL) == PERFDATA_OK) c->nr_cpus_avail = n.nr_cpus_available;
    } else if (feat == PERFDATA_FEAT_GROUP_DESC) {
        note_group_desc(c, sec);
    } else if (feat == PERFDATA_FEAT_BPF_BTF) {
        if (pd_btf_index_set(&c->btf, sec) != 0) feat_fail(c, feat, "out of memory; BPF programs named without it", NULL);
    }
}

static void walk_pipe_features(void *ctx, const perfdata_record *rec, const char *name) {
    info_ctx *c = (info_ctx *)ctx;
    perfdata_header_feature hf;
    perfdata_error err;
    (void)name;
    if (rec->type != PERFDATA_RECORD_HEADER_FEATURE) return;
    if (perfdata_decode_header_feature(c->s->file, rec, &hf, &err) != PERFDATA_OK) {
        fflush(c->out);
        fprintf(stderr, "perfdata: %s: a HEADER_FEATURE record could not be read: %s at offset 0x%llx\n", c->s->path,
                err.message, (U64)err.offset);
        c->s->partial = 1;
        return;
    }
    if (hf.feat_id >= 32) return; /* features after perf 6.1's: it prints none */
    /* features perf has no process function for, which its pipe reader
       skips (perf record never sends them in a pipe) */
    if (hf.feat_id == PERFDATA_FEAT_BRANCH_STACK || hf.feat_id == PERFDATA_FEAT_STAT) return;
    if (hf.feat_id == PERFDATA_FEAT_GROUP_DESC && !group_desc_affordable(c)) return;
    note_feature(c, (unsigned)hf.feat_id, hf.data);
    print_feature(c, (unsigned)hf.feat_id, hf.data);
}

int pd_info_print(pd_session *s, FILE *out, time_t mtime) {
    info_ctx c;
    const perfdata_file *f = s->file;
    unsigned feat;
    int rc = PD_EXIT_OK;
    unsigned cut = 0;               /* features cut off, by bit */
    memset(&c, 0, sizeof c);
    c.s = s;
    c.out = out;
    c.big = (f->flags & PERFDATA_FILE_BIG_ENDIAN) != 0;
    c.group_budget = (uint64_t)f->buffer.n * 8u + 65536u; /* a pipe's attr takes 72 bytes or more */
    fprintf(out, "# ========\n# captured on    : %s", ctime(&mtime));
    fprintf(out, "# header version : 1\n");
    if (f->flags & PERFDATA_FILE_PIPE) {
        fprintf(out, "# data offset    : 0\n# data size      : 0\n# feat offset    : 0\n# ========\n#\n");
        rc = pd_session_walk(s, walk_pipe_features, &c);
        if (c.group_skipped) {
            fflush(out);
            fprintf(stderr, "perfdata: %s: %d more GROUP_DESC records not printed: each walks every event, and "
                            "the walks would grow with the square of the input\n", s->path, c.group_skipped);
            s->partial = 1;
        }
        free_groups(&c);
        pd_btf_index_free(&c.btf);
        return rc;
    }
    /* the sizes the header declares, also of a cut file */
    fprintf(out, "# data offset    : %llu\n# data size      : %llu\n# feat offset    : %llu\n", (U64)f->data.offset,
            (U64)f->data.size + f->data_missing, (U64)f->feature_index.offset);
    for (feat = 1; feat < 32; feat++) {
        perfdata_view sec;
        if (perfdata_has_feature(f, feat) && perfdata_feature_section(f, feat, &sec, NULL) == PERFDATA_OK)
            note_feature(&c, feat, sec);
    }
    for (feat = 1; feat < 32; feat++) {
        perfdata_view sec;
        perfdata_error err;
        if (!perfdata_has_feature(f, feat)) continue;
        if (perfdata_feature_section(f, feat, &sec, &err) != PERFDATA_OK) {
            if (f->flags & PERFDATA_FILE_CUT) { /* named below, all in one line */
                cut |= 1u << feat;
                continue;
            }
            fflush(out);
            fprintf(stderr, "perfdata: %s: feature %s: %s\n", s->path, perfdata_feature_name(feat), err.message);
            s->partial = 1;
            /* Like perf: an unreadable feature index prints no feature; a
               section at an offset lseek() refuses (2^63 and up) is skipped;
               one past the end prints as a section that failed to parse. */
            if (err.code == PERFDATA_ERR_TRUNCATED) break;
            if (sec.offset >> 63) continue;
            sec.p = f->buffer.p; sec.n = 0;
            c.quiet = 1;
        }
        print_feature(&c, feat, sec);
        c.quiet = 0;
    }
    fprintf(out, "# missing features: ");
    for (feat = 1; feat < 32; feat++)
        if (!perfdata_has_feature(f, feat)) fprintf(out, "%s ", perfdata_feature_name(feat));
    fprintf(out, "\n# ========\n#\n");
    if (f->flags & PERFDATA_FILE_CUT) {
        fflush(out);
        fprintf(stderr, "perfdata: %s: the file is cut at offset 0x%llx", s->path, (U64)f->buffer.n);
        if (f->data_missing) fprintf(stderr, ", %llu bytes of the data section missing", (U64)f->data_missing);
        if (cut) {
            fprintf(stderr, "; features cut off:");
            for (feat = 1; feat < 32; feat++)
                if (cut & (1u << feat)) fprintf(stderr, " %s", perfdata_feature_name(feat));
        }
        fprintf(stderr, "\n");
        s->partial = 1;
    }
    free_groups(&c);
    pd_btf_index_free(&c.btf);
    return rc;
}

enum { INFO_EVENTS = 1 };

static const pd_opt info_opts[] = {
    {0, INFO_EVENTS, "events", NULL, "print the parsed file header and events instead"},
    {0, 0, NULL, NULL, NULL},
};
static const pd_opt *const info_tables[] = {info_opts, pd_ratio_opts, NULL};
const pd_command pd_info_command = {
    "info", "the header and feature sections, as `perf report --header-only -I`",
    "  Prints the header and every feature as `perf report --header-only -I` does.\n", info_tables, NULL};

static int info_option(void *ctx, int id, const char *value) {
    (void)value;
    if (id == INFO_EVENTS) *(int *)ctx = 1;
    return 0;
}

int pd_cmd_info(int argc, char **argv) {
    pd_session s;
    struct stat st;
    time_t mtime = 0;
    int rc, show_header = 0;
    const char *path = NULL;
    if ((rc = pd_opts_parse(&pd_info_command, argc, argv, info_option, &show_header, &path)) >= 0) return rc;
    if (pd_session_open(&s, path) != 0) return 1;
    if (show_header) {
        pd_print_header(&s);
        rc = pd_session_finish(&s, PD_EXIT_OK);
        pd_session_close(&s);
        return rc;
    }
    if (stat(s.input.main.path, &st) == 0) mtime = st.st_mtime;
    rc = pd_info_print(&s, stdout, mtime);
    rc = pd_session_finish(&s, rc);
    pd_session_close(&s);
    return rc;
}
