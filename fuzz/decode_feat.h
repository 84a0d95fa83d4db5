/* decode_feat.h - drive the feature-section decoders of perfdata.h over one
   section: the decoder for the feature id, then every element of every list
   through its _next() iterator (and nested lists). Feature ids without a
   decoder (TRACING_DATA, BRANCH_STACK, STAT, unknown) hash the raw bytes.
   Returns a checksum of what was decoded. Include after fuzz/decode_all.h. */
#ifndef DECODE_FEAT_H
#define DECODE_FEAT_H

/* Iterations are bounded so that a bad iterator shows as a wrong checksum,
   not a hang; every element consumes input bytes, so more steps than bytes
   plus one would be a bug: df_steps_over counts them for the targets. */
static unsigned long df_steps_over;
#define DF_WALK(limit, cond, body)                                         \
    do {                                                                   \
        size_t df_n_ = 0;                                                  \
        while ((cond)) {                                                   \
            if (++df_n_ > (limit)) { df_steps_over++; break; }             \
            body;                                                          \
        }                                                                  \
    } while (0)

static uint64_t df_strlist(const perfdata_strlist *l, size_t limit) {
    size_t st = 0;
    perfdata_view s;
    uint64_t h = l->nr;
    DF_WALK(limit, perfdata_strlist_next(l, &st, &s), h = h * 31 + da_view(s));
    return h;
}

static uint64_t df_name_values(const perfdata_feat_list *l, size_t limit) {
    size_t st = 0;
    perfdata_name_value e;
    uint64_t h = l->nr;
    DF_WALK(limit, perfdata_name_value_next(l, &st, &e), h = h * 31 + da_view(e.name) + da_view(e.value));
    return h;
}

static uint64_t df_feature(unsigned feat, perfdata_view sec, int big, uint32_t nr_cpus) {
    perfdata_error err;
    perfdata_feat_list l;
    size_t st = 0, limit = sec.n + 1;
    uint64_t h = feat, a = 0, b = 0;
    switch (feat) {
    case PERFDATA_FEAT_BUILD_ID: {
        perfdata_build_id e;
        h = h * 31 + (uint64_t)perfdata_decode_feat_build_id(sec, big, &l, NULL) + l.nr;
        DF_WALK(limit, perfdata_build_id_next(&l, &st, &e),
                h = h * 31 + (uint64_t)(int64_t)e.pid + da_view(e.build_id) + da_view(e.filename));
        break;
    }
    case PERFDATA_FEAT_HOSTNAME: case PERFDATA_FEAT_OSRELEASE: case PERFDATA_FEAT_VERSION:
    case PERFDATA_FEAT_ARCH: case PERFDATA_FEAT_CPUDESC: case PERFDATA_FEAT_CPUID: {
        perfdata_view s;
        if (perfdata_decode_feat_string(sec, big, &s, &err) == PERFDATA_OK) h += da_view(s);
        break;
    }
    case PERFDATA_FEAT_NRCPUS: {
        perfdata_feat_nrcpus x;
        if (perfdata_decode_feat_nrcpus(sec, big, &x, &err) == PERFDATA_OK) h += x.nr_cpus_available + x.nr_cpus_online;
        break;
    }
    case PERFDATA_FEAT_TOTAL_MEM: case PERFDATA_FEAT_CLOCKID: case PERFDATA_FEAT_DIR_FORMAT:
        if (perfdata_decode_feat_u64(sec, big, &a, &err) == PERFDATA_OK) h += a;
        break;
    case PERFDATA_FEAT_CLN_SIZE:
        if (perfdata_decode_feat_cln_size(sec, big, &a, &err) == PERFDATA_OK) h += a;
        if (perfdata_decode_feat_u64(sec, big, &b, &err) == PERFDATA_OK) h += b;
        break;
    case PERFDATA_FEAT_CMDLINE: {
        perfdata_strlist x;
        if (perfdata_decode_feat_strlist(sec, big, &x, &err) == PERFDATA_OK) h += df_strlist(&x, limit);
        break;
    }
    case PERFDATA_FEAT_EVENT_DESC: {
        perfdata_feat_event_desc x;
        perfdata_event_desc_entry e;
        if (perfdata_decode_feat_event_desc(sec, big, &x, &err) == PERFDATA_OK)
            DF_WALK(limit, perfdata_event_desc_next(&x, &st, &e),
                    h = h * 31 + e.attr.sample_type + e.attr.type + e.attr.config + da_view(e.attr_bytes) +
                        da_view(e.name) + da_u64s(&e.ids));
        break;
    }
    case PERFDATA_FEAT_CPU_TOPOLOGY: {
        perfdata_feat_cpu_topology x;
        if (perfdata_decode_feat_cpu_topology(sec, big, nr_cpus, &x, &err) == PERFDATA_OK) {
            uint32_t i;
            h += df_strlist(&x.core_siblings, limit) + df_strlist(&x.thread_siblings, limit);
            h += df_strlist(&x.die_siblings, limit) + da_view(x.cpu_ids) + da_view(x.die_ids) + (uint64_t)x.has_dies;
            /* past the end too: must give -1, not a read */
            for (i = 0; i <= x.nr_cpus + 1 && i < 70000; i++) {
                perfdata_cpu_topology_entry e = perfdata_cpu_topology_at(&x, i);
                h = h * 31 + (uint64_t)(int64_t)e.core_id + (uint64_t)(int64_t)e.socket_id + (uint64_t)(int64_t)e.die_id;
            }
        }
        break;
    }
    case PERFDATA_FEAT_NUMA_TOPOLOGY: {
        perfdata_numa_node e;
        if (perfdata_decode_feat_numa_topology(sec, big, &l, &err) == PERFDATA_OK)
            DF_WALK(limit, perfdata_numa_node_next(&l, &st, &e), h = h * 31 + e.node + e.mem_total + e.mem_free + da_view(e.cpus));
        break;
    }
    case PERFDATA_FEAT_PMU_MAPPINGS: {
        perfdata_pmu_mapping e;
        if (perfdata_decode_feat_pmu_mappings(sec, big, &l, &err) == PERFDATA_OK)
            DF_WALK(limit, perfdata_pmu_mapping_next(&l, &st, &e), h = h * 31 + e.type + da_view(e.name));
        break;
    }
    case PERFDATA_FEAT_GROUP_DESC: {
        perfdata_group_desc e;
        if (perfdata_decode_feat_group_desc(sec, big, &l, &err) == PERFDATA_OK)
            DF_WALK(limit, perfdata_group_desc_next(&l, &st, &e), h = h * 31 + e.leader_idx + e.nr_members + da_view(e.name));
        break;
    }
    case PERFDATA_FEAT_AUXTRACE: {
        perfdata_auxtrace_index_entry e;
        if (perfdata_decode_feat_auxtrace(sec, big, &l, &err) == PERFDATA_OK)
            DF_WALK(limit, perfdata_auxtrace_index_next(&l, &st, &e), h = h * 31 + e.file_offset + e.size);
        break;
    }
    case PERFDATA_FEAT_CACHE: {
        perfdata_feat_cache x;
        perfdata_cache_level e;
        if (perfdata_decode_feat_cache(sec, big, &x, &err) == PERFDATA_OK)
            DF_WALK(limit, perfdata_cache_level_next(&x.levels, &st, &e),
                    h = h * 31 + e.level + e.line_size + e.sets + e.ways + da_view(e.type) + da_view(e.size) + da_view(e.map));
        break;
    }
    case PERFDATA_FEAT_SAMPLE_TIME:
        if (perfdata_decode_feat_sample_time(sec, big, &a, &b, &err) == PERFDATA_OK) h += a + b;
        break;
    case PERFDATA_FEAT_MEM_TOPOLOGY: {
        perfdata_feat_mem_topology x;
        perfdata_mem_node e;
        if (perfdata_decode_feat_mem_topology(sec, big, &x, &err) == PERFDATA_OK)
            DF_WALK(limit, perfdata_mem_node_next(&x.nodes, &st, &e),
                    h = h * 31 + x.version + x.block_size + e.node + e.size + e.nbits + da_u64s(&e.bitmap));
        break;
    }
    case PERFDATA_FEAT_BPF_PROG_INFO: {
        perfdata_bpf_prog_info e;
        if (perfdata_decode_feat_bpf_prog_info(sec, big, &l, &err) == PERFDATA_OK)
            DF_WALK(limit, perfdata_bpf_prog_info_next(&l, &st, &e),
                    h = h * 31 + e.info_len + e.data_len + da_view(e.info) + da_view(e.data));
        break;
    }
    case PERFDATA_FEAT_BPF_BTF: {
        perfdata_bpf_btf e;
        if (perfdata_decode_feat_bpf_btf(sec, big, &l, &err) == PERFDATA_OK)
            DF_WALK(limit, perfdata_bpf_btf_next(&l, &st, &e), h = h * 31 + e.id + da_view(e.data));
        break;
    }
    case PERFDATA_FEAT_COMPRESSED: {
        perfdata_feat_compressed x;
        if (perfdata_decode_feat_compressed(sec, big, &x, &err) == PERFDATA_OK) h += x.version + x.type + x.level + x.ratio + x.mmap_len;
        break;
    }
    case PERFDATA_FEAT_CPU_PMU_CAPS:
        if (perfdata_decode_feat_cpu_pmu_caps(sec, big, &l, &err) == PERFDATA_OK) h += df_name_values(&l, limit);
        break;
    case PERFDATA_FEAT_CLOCK_DATA: {
        perfdata_feat_clock_data x;
        if (perfdata_decode_feat_clock_data(sec, big, &x, &err) == PERFDATA_OK) h += x.version + x.clockid + x.wall_clock_ns + x.clockid_time_ns;
        break;
    }
    case PERFDATA_FEAT_HYBRID_TOPOLOGY: {
        perfdata_hybrid_node e;
        if (perfdata_decode_feat_hybrid_topology(sec, big, &l, &err) == PERFDATA_OK)
            DF_WALK(limit, perfdata_hybrid_node_next(&l, &st, &e), h = h * 31 + da_view(e.pmu_name) + da_view(e.cpus));
        break;
    }
    case PERFDATA_FEAT_PMU_CAPS: {
        perfdata_pmu_caps e;
        if (perfdata_decode_feat_pmu_caps(sec, big, &l, &err) == PERFDATA_OK)
            DF_WALK(limit, perfdata_pmu_caps_next(&l, &st, &e),
                    h = h * 31 + e.nr_caps + da_view(e.pmu_name) + df_name_values(&e.caps, limit));
        break;
    }
    case PERFDATA_FEAT_CPU_DOMAIN_INFO: {
        perfdata_feat_cpu_domain_info x;
        perfdata_cpu_domains c;
        if (perfdata_decode_feat_cpu_domain_info(sec, big, &x, &err) == PERFDATA_OK) {
            h += x.schedstat_version + x.max_sched_domains;
            DF_WALK(limit, perfdata_cpu_domains_next(&x, &st, &c), {
                size_t st2 = 0;
                perfdata_sched_domain d;
                h = h * 31 + c.cpu + c.nr_domains + c.schedstat_version;
                DF_WALK(limit, perfdata_sched_domain_next(&c, &st2, &d),
                        h = h * 31 + d.domain + da_view(d.name) + da_view(d.cpumask) + da_view(d.cpulist));
            });
        }
        break;
    }
    case PERFDATA_FEAT_E_MACHINE: {
        perfdata_feat_e_machine x;
        if (perfdata_decode_feat_e_machine(sec, big, &x, &err) == PERFDATA_OK) h += x.e_machine + x.e_flags;
        break;
    }
    default: h += da_view(sec); break; /* TRACING_DATA, BRANCH_STACK, STAT, unknown */
    }
    (void)perfdata_feature_name(feat);
    return h;
}

/* Every feature of an open file through df_feature, with NRCPUS' count for
   CPU_TOPOLOGY as perf does. */
DA_UNUSED static uint64_t df_file_features(const perfdata_file *f) {
    uint64_t h = 0;
    uint32_t nr_cpus = 0;
    unsigned feat;
    int big = (f->flags & PERFDATA_FILE_BIG_ENDIAN) != 0;
    perfdata_view v;
    perfdata_error err;
    if (perfdata_has_feature(f, PERFDATA_FEAT_NRCPUS) &&
        perfdata_feature_section(f, PERFDATA_FEAT_NRCPUS, &v, &err) == PERFDATA_OK) {
        perfdata_feat_nrcpus n;
        if (perfdata_decode_feat_nrcpus(v, big, &n, &err) == PERFDATA_OK) nr_cpus = n.nr_cpus_available;
    }
    for (feat = 0; feat < PERFDATA_FEAT_BITS; feat++)
        if (perfdata_has_feature(f, feat) && perfdata_feature_section(f, feat, &v, &err) == PERFDATA_OK)
            h += df_feature(feat, v, big, nr_cpus);
    return h;
}

#endif
