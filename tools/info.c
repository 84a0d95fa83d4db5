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
#include "pd_opts.h"
#include "pd_tool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define U64 unsigned long long

typedef struct info_ctx {
    pd_session *s;
    int big;
    uint32_t nr_cpus_avail;           /* NRCPUS, needed by CPU_TOPOLOGY */
    int group_leader[4096];           /* GROUP_DESC, by event index: members, or 0 */
    perfdata_view group_name[4096];
    perfdata_view btf_sec;            /* BPF_BTF, for BPF program names */
    int have_btf;
} info_ctx;

static void print_view(perfdata_view v) { fwrite(v.p, 1, v.n, stdout); }

/* A cpu list "0-3,8" parsed and printed back as perf's cpu_map__snprint
   does (sorted, merged runs). */
static void print_cpu_list(perfdata_view v) {
    static unsigned char set[8192];
    size_t i = 0;
    int first = 1, n, start = -1, prev = -2;
    memset(set, 0, sizeof set);
    while (i < v.n) {
        long a = 0, b;
        if (v.p[i] < '0' || v.p[i] > '9') { i++; continue; }
        while (i < v.n && v.p[i] >= '0' && v.p[i] <= '9') a = a * 10 + (v.p[i++] - '0');
        b = a;
        if (i < v.n && v.p[i] == '-') {
            i++; b = 0;
            while (i < v.n && v.p[i] >= '0' && v.p[i] <= '9') b = b * 10 + (v.p[i++] - '0');
        }
        for (; a <= b && a < (long)sizeof set; a++) set[a] = 1;
    }
    for (n = 0; n <= (int)sizeof set; n++) {
        int on = n < (int)sizeof set && set[n];
        if (on && start < 0) start = n;
        if (on) { prev = n; continue; }
        if (start >= 0) {
            printf(first ? "%d" : ",%d", start);
            if (prev != start) printf("-%d", prev);
            first = 0;
            start = -1;
        }
    }
    printf("\n");
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
static void print_bits(const char *name, uint64_t v, const uint64_t *bits, const char *const *names) {
    int first = 1, i;
    if (!v) return;
    printf(", %s = ", name);
    for (i = 0; names[i]; i++)
        if (v & bits[i]) { printf("%s%s", first ? "" : "|", names[i]); first = 0; }
}

static void print_attr(const perfdata_attr *a) {
    static const uint64_t st_bits[] = {1u << 0, 1u << 1, 1u << 2, 1u << 3, 1u << 4, 1u << 5, 1u << 6, 1u << 7, 1u << 8,
                                       1u << 9, 1u << 10, 1u << 11, 1u << 12, 1u << 13, 1u << 16, 1u << 18, 1u << 15,
                                       1u << 14, 1u << 19, 1u << 20, 1u << 21, 1u << 22, 1u << 23, 1u << 24};
    static const char *const st_names[] = {"IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU", "PERIOD",
                                           "STREAM_ID", "RAW", "BRANCH_STACK", "REGS_USER", "STACK_USER",
                                           "IDENTIFIER", "REGS_INTR", "DATA_SRC", "WEIGHT", "PHYS_ADDR", "AUX",
                                           "CGROUP", "DATA_PAGE_SIZE", "CODE_PAGE_SIZE", "WEIGHT_STRUCT", NULL};
    static const uint64_t rf_bits[] = {1, 2, 4, 8, 16};
    static const char *const rf_names[] = {"TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID", "GROUP", "LOST", NULL};
    static uint64_t br_bits[19];
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
    for (i = 0; i < 19; i++) br_bits[i] = 1ull << i;
    if (a->type) printf(", type = %u", a->type);
    if (a->size) printf(", size = %u", a->size);
    if (a->config) printf(", config = %#llx", (U64)a->config);
    if (a->sample_period) printf(", { sample_period, sample_freq } = %llu", (U64)a->sample_period);
    print_bits("sample_type", a->sample_type, st_bits, st_names);
    print_bits("read_format", a->read_format, rf_bits, rf_names);
    for (i = 0; i < (int)(sizeof flags / sizeof flags[0]); i++) {
        uint64_t v;
        if (!flags[i]) continue;
        v = i == 15 ? perfdata_attr_precise_ip(a) : (a->flags >> i) & 1u;
        if (v) printf(", %s = %llu", flags[i], (U64)v);
    }
    if (a->wakeup_events) printf(", { wakeup_events, wakeup_watermark } = %u", a->wakeup_events);
    if (a->bp_type) printf(", bp_type = %u", a->bp_type);
    if (a->config1) printf(", { bp_addr, config1 } = %#llx", (U64)a->config1);
    if (a->config2) printf(", { bp_len, config2 } = %#llx", (U64)a->config2);
    print_bits("branch_sample_type", a->branch_sample_type, br_bits, br_names);
    if (a->sample_regs_user) printf(", sample_regs_user = %#llx", (U64)a->sample_regs_user);
    if (a->sample_stack_user) printf(", sample_stack_user = %u", a->sample_stack_user);
    if (a->clockid) printf(", clockid = %d", (int)a->clockid);
    if (a->sample_regs_intr) printf(", sample_regs_intr = %#llx", (U64)a->sample_regs_intr);
    if (a->aux_watermark) printf(", aux_watermark = %u", a->aux_watermark);
    if (a->sample_max_stack) printf(", sample_max_stack = %u", a->sample_max_stack);
    if (a->aux_sample_size) printf(", aux_sample_size = %u", a->aux_sample_size);
    if (a->sig_data) printf(", sig_data = %llu", (U64)a->sig_data);
}

static void print_event_desc(perfdata_view sec, int big) {
    perfdata_feat_event_desc d;
    perfdata_event_desc_entry e;
    size_t st = 0, i;
    if (perfdata_decode_feat_event_desc(sec, big, &d, NULL) != PERFDATA_OK) {
        printf("# event desc: not available or unable to read\n");
        return;
    }
    while (perfdata_event_desc_next(&d, &st, &e)) {
        if (!e.attr.size) break; /* perf's list ends at an attr of size 0 */
        printf("# event : name = ");
        print_view(e.name);
        printf(", ");
        if (e.ids.count) {
            printf(", id = {");
            for (i = 0; i < e.ids.count; i++) printf("%s %llu", i ? "," : "", (U64)perfdata_u64s_at(&e.ids, i));
            printf(" }");
        }
        print_attr(&e.attr);
        printf("\n");
    }
}

/* print_cmdline: arguments separated (and ended) by a space, ' as \' */
static void print_cmdline(perfdata_view sec, int big) {
    perfdata_strlist l;
    perfdata_view a;
    size_t st = 0, i;
    printf("# cmdline : ");
    if (perfdata_decode_feat_strlist(sec, big, &l, NULL) == PERFDATA_OK)
        while (perfdata_strlist_next(&l, &st, &a)) {
            for (i = 0; i < a.n; i++) {
                if (a.p[i] == '\'') printf("\\'");
                else putchar(a.p[i]);
            }
            putchar(' ');
        }
    printf("\n");
}

static void print_cpu_topology(info_ctx *c, perfdata_view sec) {
    perfdata_feat_cpu_topology t;
    perfdata_view v;
    size_t st;
    uint32_t cpu;
    if (perfdata_decode_feat_cpu_topology(sec, c->big, c->nr_cpus_avail, &t, NULL) != PERFDATA_OK) return;
    for (st = 0; perfdata_strlist_next(&t.core_siblings, &st, &v);) { printf("# sibling sockets : "); print_view(v); printf("\n"); }
    if (t.has_dies && t.die_siblings.nr)
        for (st = 0; perfdata_strlist_next(&t.die_siblings, &st, &v);) { printf("# sibling dies    : "); print_view(v); printf("\n"); }
    for (st = 0; perfdata_strlist_next(&t.thread_siblings, &st, &v);) { printf("# sibling threads : "); print_view(v); printf("\n"); }
    if (t.has_dies && t.die_siblings.nr) {
        if (t.nr_cpus)
            for (cpu = 0; cpu < c->nr_cpus_avail; cpu++) {
                int32_t core, sock, die;
                perfdata_cpu_topology_ids(&t, cpu, &core, &sock, &die);
                printf("# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", cpu, core, die, sock);
            }
        else
            printf("# Core ID, Die ID and Socket ID information is not available\n");
    } else if (t.nr_cpus) {
        for (cpu = 0; cpu < c->nr_cpus_avail; cpu++) {
            int32_t core, sock, die;
            perfdata_cpu_topology_ids(&t, cpu, &core, &sock, &die);
            printf("# CPU %u: Core ID %d, Socket ID %d\n", cpu, core, sock);
        }
    } else {
        printf("# Core ID and Socket ID information is not available\n");
    }
}

static const char *unit_number(uint64_t n, char *buf, size_t len) {
    static const char units[] = "BKMG";
    int i = 0;
    while (n / 1024 > 1 && i < 3) { n /= 1024; i++; }
    snprintf(buf, len, "%llu%c", (U64)n, units[i]);
    return buf;
}

static void print_mem_topology(perfdata_view sec, int big) {
    perfdata_feat_mem_topology m;
    perfdata_mem_node n;
    size_t st = 0;
    if (perfdata_decode_feat_mem_topology(sec, big, &m, NULL) != PERFDATA_OK) return;
    printf("# memory nodes (nr %d, block size 0x%llx):\n", (int)m.nodes.nr, (U64)m.block_size);
    while (perfdata_mem_node_next(&m.nodes, &st, &n)) {
        uint64_t b, weight = 0;
        int first = 1;
        long start = -1;
        char size[32];
        for (b = 0; b < n.nbits; b++) weight += (perfdata_u64s_at(&n.bitmap, b / 64) >> (b % 64)) & 1u;
        printf("#  %3llu [%s]: ", (U64)n.node, unit_number(m.block_size * weight, size, sizeof size));
        for (b = 0; b <= n.nbits; b++) {
            int on = b < n.nbits && ((perfdata_u64s_at(&n.bitmap, b / 64) >> (b % 64)) & 1u);
            if (on && start < 0) start = (long)b;
            if (!on && start >= 0) {
                printf(first ? "%ld" : ",%ld", start);
                if ((long)b - 1 != start) printf("-%ld", (long)b - 1);
                first = 0;
                start = -1;
            }
        }
        printf("\n");
    }
}

static void print_pmu_caps_line(const char *pmu, perfdata_feat_list *caps) {
    perfdata_name_value nv;
    size_t st = 0;
    int first = 1;
    if (!caps->nr) { printf("# %s pmu capabilities: not available\n", pmu); return; }
    printf("# %s pmu capabilities: ", pmu);
    while (perfdata_name_value_next(caps, &st, &nv)) {
        printf("%s", first ? "" : ", ");
        print_view(nv.name);
        printf("=");
        print_view(nv.value);
        first = 0;
    }
    printf("\n");
}

static void print_group_desc(info_ctx *c) {
    perfdata_file *f = &c->s->file;
    size_t i, nr = 0;
    for (i = 0; i < f->nr_events && i < 4096; i++) {
        if (c->group_leader[i] > 1) {
            printf("# group: ");
            print_view(c->group_name[i]);
            printf("{%s", pd_event_name(c->s, i));
            nr = (size_t)c->group_leader[i] - 1;
        } else if (nr) {
            printf(",%s", pd_event_name(c->s, i));
            if (--nr == 0) printf("}\n");
        }
    }
}

void pd_bpf_print_prog_info(perfdata_view info, perfdata_view data, int big, perfdata_view btf_sec, int have_btf);

static void print_bpf_prog_info(info_ctx *c, perfdata_view sec) {
    perfdata_feat_list l;
    perfdata_bpf_prog_info p;
    size_t st = 0;
    if (c->big) return; /* perf skips the section in byte-swapped files */
    if (perfdata_decode_feat_bpf_prog_info(sec, c->big, &l, NULL) != PERFDATA_OK) return;
    while (perfdata_bpf_prog_info_next(&l, &st, &p)) pd_bpf_print_prog_info(p.info, p.data, c->big, c->btf_sec, c->have_btf);
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void print_bpf_btf(info_ctx *c, perfdata_view sec) {
    perfdata_feat_list l;
    perfdata_bpf_btf b;
    size_t st = 0, n = 0, i;
    uint32_t *ids;
    if (perfdata_decode_feat_bpf_btf(sec, c->big, &l, NULL) != PERFDATA_OK || !l.nr) return;
    ids = malloc(l.nr * sizeof *ids);
    if (!ids) return;
    while (perfdata_bpf_btf_next(&l, &st, &b)) ids[n++] = b.id;
    qsort(ids, n, sizeof *ids, cmp_u32); /* perf keeps them in a tree by id */
    for (i = 0; i < n; i++)
        if (!i || ids[i] != ids[i - 1]) printf("# btf info of id %u\n", ids[i]);
    free(ids);
}

static void print_feature(info_ctx *c, unsigned feat, perfdata_view sec) {
    int big = c->big;
    perfdata_view v;
    uint64_t u;
    char tbuf[128];
    switch (feat) {
    case PERFDATA_FEAT_HOSTNAME: case PERFDATA_FEAT_OSRELEASE: case PERFDATA_FEAT_VERSION: case PERFDATA_FEAT_ARCH:
    case PERFDATA_FEAT_CPUDESC: case PERFDATA_FEAT_CPUID: {
        static const char *const label[] = {0, 0, 0, "hostname", "os release", "perf version", "arch", 0, "cpudesc", "cpuid"};
        printf("# %s : ", label[feat]);
        if (perfdata_decode_feat_string(sec, big, &v, NULL) == PERFDATA_OK) print_view(v);
        else printf("(null)");
        printf("\n");
        break;
    }
    case PERFDATA_FEAT_NRCPUS: {
        perfdata_feat_nrcpus n = {0, 0};
        perfdata_decode_feat_nrcpus(sec, big, &n, NULL);
        printf("# nrcpus online : %u\n# nrcpus avail : %u\n", n.nr_cpus_online, n.nr_cpus_available);
        break;
    }
    case PERFDATA_FEAT_TOTAL_MEM:
        u = 0;
        perfdata_decode_feat_u64(sec, big, &u, NULL);
        printf("# total memory : %llu kB\n", (U64)u);
        break;
    case PERFDATA_FEAT_CMDLINE: print_cmdline(sec, big); break;
    case PERFDATA_FEAT_EVENT_DESC: print_event_desc(sec, big); break;
    case PERFDATA_FEAT_CPU_TOPOLOGY: print_cpu_topology(c, sec); break;
    case PERFDATA_FEAT_NUMA_TOPOLOGY: {
        perfdata_feat_list l;
        perfdata_numa_node n;
        size_t st = 0;
        if (perfdata_decode_feat_numa_topology(sec, big, &l, NULL) != PERFDATA_OK) break;
        while (perfdata_numa_node_next(&l, &st, &n)) {
            printf("# node%u meminfo  : total = %llu kB, free = %llu kB\n", n.node, (U64)n.mem_total, (U64)n.mem_free);
            printf("# node%u cpu list : ", n.node);
            print_cpu_list(n.cpus);
        }
        break;
    }
    case PERFDATA_FEAT_BRANCH_STACK: printf("# contains samples with branch stack\n"); break;
    case PERFDATA_FEAT_AUXTRACE: printf("# contains AUX area data (e.g. instruction trace)\n"); break;
    case PERFDATA_FEAT_STAT: printf("# contains stat data\n"); break;
    case PERFDATA_FEAT_PMU_MAPPINGS: {
        perfdata_feat_list l;
        perfdata_pmu_mapping m;
        size_t st = 0;
        const char *delim = "# pmu mappings: ";
        if (perfdata_decode_feat_pmu_mappings(sec, big, &l, NULL) != PERFDATA_OK || !l.nr) {
            printf("# pmu mappings: not available\n");
            break;
        }
        while (perfdata_pmu_mapping_next(&l, &st, &m)) {
            printf("%s", delim);
            print_view(m.name);
            printf(" = %u", m.type);
            delim = ", ";
        }
        printf("\n");
        break;
    }
    case PERFDATA_FEAT_GROUP_DESC: print_group_desc(c); break;
    case PERFDATA_FEAT_CACHE: {
        perfdata_feat_cache k;
        perfdata_cache_level l;
        size_t st = 0;
        printf("# CPU cache info:\n");
        if (perfdata_decode_feat_cache(sec, big, &k, NULL) != PERFDATA_OK) break;
        while (perfdata_cache_level_next(&k.levels, &st, &l)) {
            char type[64], size[64], map[256];
            snprintf(type, sizeof type, "%.*s", (int)l.type.n, (const char *)l.type.p);
            snprintf(size, sizeof size, "%.*s", (int)l.size.n, (const char *)l.size.p);
            snprintf(map, sizeof map, "%.*s", (int)l.map.n, (const char *)l.map.p);
            printf("#  L%d %-15s %8s [%s]\n", (int)l.level, type, size, map);
        }
        break;
    }
    case PERFDATA_FEAT_SAMPLE_TIME: {
        uint64_t first = 0, last = 0;
        perfdata_decode_feat_sample_time(sec, big, &first, &last, NULL);
        printf("# time of first sample : %llu.%06llu\n", (U64)(first / 1000000000), (U64)(first % 1000000000 / 1000));
        printf("# time of last sample : %llu.%06llu\n", (U64)(last / 1000000000), (U64)(last % 1000000000 / 1000));
        printf("# sample duration : %10.3f ms\n", (double)(last - first) / 1000000.0);
        break;
    }
    case PERFDATA_FEAT_MEM_TOPOLOGY: print_mem_topology(sec, big); break;
    case PERFDATA_FEAT_CLOCKID:
        u = 0;
        perfdata_decode_feat_u64(sec, big, &u, NULL);
        printf("# clockid frequency: %llu MHz\n", (U64)u * 1000);
        break;
    case PERFDATA_FEAT_DIR_FORMAT:
        /* perf prints the version of the directory it opened, 0 for a file */
        u = 0;
        if (c->s->input.is_dir) perfdata_decode_feat_u64(sec, big, &u, NULL);
        printf("# directory data version : %llu\n", (U64)u);
        break;
    case PERFDATA_FEAT_BPF_PROG_INFO: print_bpf_prog_info(c, sec); break;
    case PERFDATA_FEAT_BPF_BTF: print_bpf_btf(c, sec); break;
    case PERFDATA_FEAT_COMPRESSED: {
        perfdata_feat_compressed z = {0, 0, 0, 0, 0};
        perfdata_decode_feat_compressed(sec, big, &z, NULL);
        printf("# compressed : %s, level = %d, ratio = %d\n", z.type == 1 ? "Zstd" : "Unknown", (int)z.level, (int)z.ratio);
        break;
    }
    case PERFDATA_FEAT_CPU_PMU_CAPS: {
        perfdata_feat_list l;
        if (perfdata_decode_feat_cpu_pmu_caps(sec, big, &l, NULL) != PERFDATA_OK) l.nr = 0;
        print_pmu_caps_line("cpu", &l);
        break;
    }
    case PERFDATA_FEAT_PMU_CAPS: {
        perfdata_feat_list l;
        perfdata_pmu_caps p;
        size_t st = 0;
        if (perfdata_decode_feat_pmu_caps(sec, big, &l, NULL) != PERFDATA_OK) break;
        while (perfdata_pmu_caps_next(&l, &st, &p)) {
            char name[256];
            snprintf(name, sizeof name, "%.*s", (int)p.pmu_name.n, (const char *)p.pmu_name.p);
            print_pmu_caps_line(name, &p.caps);
        }
        break;
    }
    case PERFDATA_FEAT_CLOCK_DATA: {
        perfdata_feat_clock_data d;
        time_t sec_tod;
        struct tm tm;
        char date[64];
        if (perfdata_decode_feat_clock_data(sec, big, &d, NULL) != PERFDATA_OK || d.version != 1) {
            printf("# reference time disabled\n");
            break;
        }
        sec_tod = (time_t)(d.wall_clock_ns / 1000000000);
        if (localtime_r(&sec_tod, &tm)) {
            strftime(date, sizeof date, "%F %T", &tm);
            snprintf(tbuf, sizeof tbuf, "%s.%06d", date, (int)(d.wall_clock_ns % 1000000000 / 1000));
        } else {
            snprintf(tbuf, sizeof tbuf, "<error>");
        }
        printf("# clockid: %s (%u)\n", clockid_name(d.clockid), d.clockid);
        printf("# reference time: %s = %ld.%06d (TOD) = %ld.%09ld (%s)\n", tbuf, (long)(d.wall_clock_ns / 1000000000),
               (int)(d.wall_clock_ns % 1000000000 / 1000), (long)(d.clockid_time_ns / 1000000000),
               (long)(d.clockid_time_ns % 1000000000), clockid_name(d.clockid));
        break;
    }
    case PERFDATA_FEAT_HYBRID_TOPOLOGY: {
        perfdata_feat_list l;
        perfdata_hybrid_node n;
        size_t st = 0;
        printf("# hybrid cpu system:\n");
        if (perfdata_decode_feat_hybrid_topology(sec, big, &l, NULL) != PERFDATA_OK) break;
        while (perfdata_hybrid_node_next(&l, &st, &n)) {
            printf("# ");
            print_view(n.pmu_name);
            printf(" cpu list : ");
            print_view(n.cpus);
            printf("\n");
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
        perfdata_feat_list l;
        perfdata_group_desc g;
        size_t st = 0;
        if (perfdata_decode_feat_group_desc(sec, c->big, &l, NULL) != PERFDATA_OK) return;
        while (perfdata_group_desc_next(&l, &st, &g)) {
            if (g.leader_idx >= 4096) continue;
            c->group_leader[g.leader_idx] = (int)g.nr_members;
            c->group_name[g.leader_idx] = g.name;
            /* "{anon_group}" is perf's placeholder for an unnamed group */
            if (g.name.n == 12 && !memcmp(g.name.p, "{anon_group}", 12)) c->group_name[g.leader_idx].n = 0;
        }
    } else if (feat == PERFDATA_FEAT_BPF_BTF) {
        c->btf_sec = sec;
        c->have_btf = 1;
    }
}

static void walk_pipe_features(void *ctx, const perfdata_record *rec, const char *name) {
    info_ctx *c = (info_ctx *)ctx;
    perfdata_header_feature hf;
    (void)name;
    if (rec->type != PERFDATA_RECORD_HEADER_FEATURE) return;
    if (perfdata_decode_header_feature(&c->s->file, rec, &hf, NULL) != PERFDATA_OK || hf.feat_id >= 32) return;
    note_feature(c, (unsigned)hf.feat_id, hf.data);
    print_feature(c, (unsigned)hf.feat_id, hf.data);
}

enum { INFO_EVENTS = 1 };

static const pd_opt info_opts[] = {
    {0, INFO_EVENTS, "events", NULL, "print the parsed file header and events instead"},
    {0, 0, NULL, NULL, NULL},
};
static const pd_opt *const info_tables[] = {info_opts, pd_ratio_opts, NULL};
const pd_command pd_info_command = {
    "info", "the header and feature sections, as `perf report --header-only -I`",
    "  Prints the header and every feature as `perf report --header-only -I` does.\n", info_tables};

static int info_option(void *ctx, int id, const char *value) {
    (void)value;
    if (id == INFO_EVENTS) *(int *)ctx = 1;
    return 0;
}

int pd_cmd_info(int argc, char **argv) {
    static info_ctx c;
    pd_session s;
    perfdata_file *f;
    struct stat st;
    time_t mtime = 0;
    unsigned feat;
    int rc, show_header = 0;
    unsigned cut = 0;               /* features cut off, by bit */
    const char *path = NULL;
    memset(&c, 0, sizeof c); /* static for its size; a second run starts afresh */
    if ((rc = pd_opts_parse(&pd_info_command, argc, argv, info_option, &show_header, &path)) >= 0) return rc;
    if (pd_session_open(&s, path) != 0) return 1;
    if (show_header) {
        pd_print_header(&s);
        rc = pd_session_finish(&s, PD_EXIT_OK);
        pd_session_close(&s);
        return rc;
    }
    memset(&c, 0, sizeof c);
    c.s = &s;
    f = &s.file;
    c.big = (f->flags & PERFDATA_FILE_BIG_ENDIAN) != 0;
    if (stat(s.input.main.path, &st) == 0) mtime = st.st_mtime;
    printf("# ========\n# captured on    : %s", ctime(&mtime));
    printf("# header version : 1\n");
    if (f->flags & PERFDATA_FILE_PIPE) {
        printf("# data offset    : 0\n# data size      : 0\n# feat offset    : 0\n# ========\n#\n");
        rc = pd_session_walk(&s, walk_pipe_features, &c);
        rc = pd_session_finish(&s, rc);
        pd_session_close(&s);
        return rc;
    }
    /* the sizes the header declares, also of a cut file */
    printf("# data offset    : %llu\n# data size      : %llu\n# feat offset    : %llu\n", (U64)f->data.offset,
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
            fprintf(stderr, "perfdata: %s: feature %s: %s\n", path, perfdata_feature_name(feat), err.message);
            s.partial = 1;
            /* Like perf: an unreadable feature index prints no feature; a
               section at an offset lseek() refuses (2^63 and up) is skipped;
               one past the end prints as a section that failed to parse. */
            if (err.code == PERFDATA_ERR_TRUNCATED) break;
            if (sec.offset >> 63) continue;
            sec.p = f->buffer.p; sec.n = 0;
        }
        print_feature(&c, feat, sec);
    }
    printf("# missing features: ");
    for (feat = 1; feat < 32; feat++)
        if (!perfdata_has_feature(f, feat)) printf("%s ", perfdata_feature_name(feat));
    printf("\n# ========\n#\n");
    if (f->flags & PERFDATA_FILE_CUT) {
        fflush(stdout);
        fprintf(stderr, "perfdata: %s: the file is cut at offset 0x%llx", path, (U64)f->buffer.n);
        if (f->data_missing) fprintf(stderr, ", %llu bytes of the data section missing", (U64)f->data_missing);
        if (cut) {
            fprintf(stderr, "; features cut off:");
            for (feat = 1; feat < 32; feat++)
                if (cut & (1u << feat)) fprintf(stderr, " %s", perfdata_feature_name(feat));
        }
        fprintf(stderr, "\n");
        s.partial = 1;
    }
    rc = pd_session_finish(&s, PD_EXIT_OK);
    pd_session_close(&s);
    return rc;
}
