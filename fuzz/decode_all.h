/* decode_all.h - drive every decoder of perfdata.h over one input: open,
   every record (with attr registration in pipe mode), the record's own
   decoder, its sample or sample_id trailer, and every element of every
   view through the accessors. Used by the fuzz targets and by the
   mutation sweep in tests/. Returns a checksum of what was decoded, so
   that nothing is optimised away; *steps counts records for hang checks.

   Include after perfdata.h (with the implementation). */
#ifndef DECODE_ALL_H
#define DECODE_ALL_H

#define DA_MAX_EVENTS 64

#if defined(__GNUC__) || defined(__clang__)
#define DA_UNUSED __attribute__((unused)) /* not every includer calls every helper */
#else
#define DA_UNUSED
#endif

static uint64_t da_view(perfdata_view v) {
    uint64_t h = v.n;
    size_t i;
    for (i = 0; i < v.n; i++) h = h * 31 + v.p[i];
    return h;
}

static uint64_t da_u64s(const perfdata_u64s *a) {
    uint64_t h = 0;
    size_t i;
    for (i = 0; i < a->count; i++) h = h * 31 + perfdata_u64s_at(a, i);
    return h + perfdata_u64s_at(a, a->count); /* past the end: must be 0, not a read */
}

static uint64_t da_sample(const perfdata_sample *s) {
    uint64_t h = s->ip ^ s->pid ^ s->tid ^ s->time ^ s->addr ^ s->id ^ s->period ^ s->cpu ^ s->weight;
    size_t i;
    for (i = 0; i <= s->read.nr && i < 4096; i++) {
        perfdata_read_value v = perfdata_read_at(&s->read, i);
        h = h * 31 + v.value + v.id + v.lost;
    }
    h += da_u64s(&s->callchain) + da_view(s->raw);
    for (i = 0; i <= s->branch_stack.nr && i < 4096; i++) {
        perfdata_branch_entry e = perfdata_branch_at(&s->branch_stack, i);
        h = h * 31 + e.from + e.to + e.flags + e.cycles;
    }
    h += da_u64s(&s->branch_stack.counters) + da_u64s(&s->regs_user.values) + da_u64s(&s->regs_intr.values);
    for (i = 0; i < 64; i++) {
        int found;
        h += perfdata_regs_get(&s->regs_user, (unsigned)i, &found) + (uint64_t)found;
    }
    h += da_view(s->stack_user) + s->stack_user_dyn_size + s->data_src + s->transaction + s->phys_addr;
    h += s->cgroup + s->data_page_size + s->code_page_size + da_view(s->aux);
    return h;
}

static uint64_t da_cpu_map(const perfdata_cpu_map *m) {
    size_t st = 0, n = 0;
    int cpu;
    uint64_t h = 0;
    while (perfdata_cpu_map_next(m, &st, &cpu) && n++ < 100000) h = h * 31 + (uint64_t)(int64_t)cpu;
    return h;
}

/* Each record type through its decoder; the result folds into the hash. */
static uint64_t da_record(perfdata_file *f, const perfdata_record *r) {
    uint64_t h = r->type;
    size_t i;
    perfdata_error err;
    switch (r->type) {
    case PERFDATA_RECORD_SAMPLE: { perfdata_sample s; if (perfdata_decode_sample(f, r, &s, &err) == PERFDATA_OK) h += da_sample(&s); break; }
    case PERFDATA_RECORD_MMAP: case PERFDATA_RECORD_MMAP2: { perfdata_mmap m; if (perfdata_decode_mmap(f, r, &m, &err) == PERFDATA_OK) h += m.addr + da_view(m.filename) + da_view(m.build_id); break; }
    case PERFDATA_RECORD_LOST: { perfdata_lost x; if (perfdata_decode_lost(f, r, &x, &err) == PERFDATA_OK) h += x.lost; break; }
    case PERFDATA_RECORD_COMM: { perfdata_comm x; if (perfdata_decode_comm(f, r, &x, &err) == PERFDATA_OK) h += da_view(x.comm); break; }
    case PERFDATA_RECORD_EXIT: case PERFDATA_RECORD_FORK: { perfdata_task x; if (perfdata_decode_task(f, r, &x, &err) == PERFDATA_OK) h += x.time; break; }
    case PERFDATA_RECORD_THROTTLE: case PERFDATA_RECORD_UNTHROTTLE: { perfdata_throttle x; if (perfdata_decode_throttle(f, r, &x, &err) == PERFDATA_OK) h += x.id; break; }
    case PERFDATA_RECORD_READ: { perfdata_read_record x; if (perfdata_decode_read_record(f, r, &x, &err) == PERFDATA_OK) h += perfdata_read_at(&x.values, 0).value; break; }
    case PERFDATA_RECORD_AUX: { perfdata_aux x; if (perfdata_decode_aux(f, r, &x, &err) == PERFDATA_OK) h += x.aux_size; break; }
    case PERFDATA_RECORD_ITRACE_START: { perfdata_itrace_start x; if (perfdata_decode_itrace_start(f, r, &x, &err) == PERFDATA_OK) h += x.pid; break; }
    case PERFDATA_RECORD_LOST_SAMPLES: { perfdata_lost_samples x; if (perfdata_decode_lost_samples(f, r, &x, &err) == PERFDATA_OK) h += x.lost; break; }
    case PERFDATA_RECORD_SWITCH: case PERFDATA_RECORD_SWITCH_CPU_WIDE: { perfdata_switch x; if (perfdata_decode_switch(f, r, &x, &err) == PERFDATA_OK) h += x.next_prev_pid; break; }
    case PERFDATA_RECORD_NAMESPACES: { perfdata_namespaces x; if (perfdata_decode_namespaces(f, r, &x, &err) == PERFDATA_OK) h += da_u64s(&x.links); break; }
    case PERFDATA_RECORD_KSYMBOL: { perfdata_ksymbol x; if (perfdata_decode_ksymbol(f, r, &x, &err) == PERFDATA_OK) h += da_view(x.name); break; }
    case PERFDATA_RECORD_BPF_EVENT: { perfdata_bpf_event x; if (perfdata_decode_bpf_event(f, r, &x, &err) == PERFDATA_OK) h += da_view(x.tag); break; }
    case PERFDATA_RECORD_CGROUP: { perfdata_cgroup x; if (perfdata_decode_cgroup(f, r, &x, &err) == PERFDATA_OK) h += da_view(x.path); break; }
    case PERFDATA_RECORD_TEXT_POKE: { perfdata_text_poke x; if (perfdata_decode_text_poke(f, r, &x, &err) == PERFDATA_OK) h += da_view(x.old_bytes) + da_view(x.new_bytes); break; }
    case PERFDATA_RECORD_AUX_OUTPUT_HW_ID: { perfdata_aux_output_hw_id x; if (perfdata_decode_aux_output_hw_id(f, r, &x, &err) == PERFDATA_OK) h += x.hw_id; break; }
    case PERFDATA_RECORD_CALLCHAIN_DEFERRED: { perfdata_callchain_deferred x; if (perfdata_decode_callchain_deferred(f, r, &x, &err) == PERFDATA_OK) h += da_u64s(&x.ips); break; }
    case PERFDATA_RECORD_HEADER_ATTR: { perfdata_header_attr x; if (perfdata_decode_header_attr(f, r, &x, &err) == PERFDATA_OK) h += x.attr.sample_type + da_u64s(&x.ids); break; }
    case PERFDATA_RECORD_HEADER_EVENT_TYPE: { perfdata_header_event_type x; if (perfdata_decode_header_event_type(f, r, &x, &err) == PERFDATA_OK) h += da_view(x.name); break; }
    case PERFDATA_RECORD_HEADER_TRACING_DATA: { perfdata_tracing_data x; if (perfdata_decode_tracing_data(f, r, &x, &err) == PERFDATA_OK) h += da_view(x.data); break; }
    case PERFDATA_RECORD_HEADER_BUILD_ID: { perfdata_build_id x; if (perfdata_decode_build_id(f, r, &x, &err) == PERFDATA_OK) h += da_view(x.build_id) + da_view(x.filename); break; }
    case PERFDATA_RECORD_ID_INDEX: { perfdata_id_index x; if (perfdata_decode_id_index(f, r, &x, &err) == PERFDATA_OK) for (i = 0; i <= x.nr && i < 100000; i++) h += perfdata_id_index_at(&x, i).id; break; }
    case PERFDATA_RECORD_AUXTRACE_INFO: { perfdata_auxtrace_info x; if (perfdata_decode_auxtrace_info(f, r, &x, &err) == PERFDATA_OK) h += da_u64s(&x.data); break; }
    case PERFDATA_RECORD_AUXTRACE: { perfdata_auxtrace x; if (perfdata_decode_auxtrace(f, r, &x, &err) == PERFDATA_OK) h += da_view(x.data); break; }
    case PERFDATA_RECORD_AUXTRACE_ERROR: { perfdata_auxtrace_error x; if (perfdata_decode_auxtrace_error(f, r, &x, &err) == PERFDATA_OK) h += da_view(x.msg); break; }
    case PERFDATA_RECORD_THREAD_MAP: { perfdata_thread_map x; if (perfdata_decode_thread_map(f, r, &x, &err) == PERFDATA_OK) for (i = 0; i <= x.nr && i < 100000; i++) h += da_view(perfdata_thread_map_at(&x, i).comm); break; }
    case PERFDATA_RECORD_CPU_MAP: { perfdata_cpu_map x; if (perfdata_decode_cpu_map(f, r, &x, &err) == PERFDATA_OK) h += da_cpu_map(&x); break; }
    case PERFDATA_RECORD_STAT_CONFIG: { perfdata_stat_config x; if (perfdata_decode_stat_config(f, r, &x, &err) == PERFDATA_OK) h += da_u64s(&x.pairs); break; }
    case PERFDATA_RECORD_STAT: { perfdata_stat x; if (perfdata_decode_stat(f, r, &x, &err) == PERFDATA_OK) h += x.val; break; }
    case PERFDATA_RECORD_STAT_ROUND: { perfdata_stat_round x; if (perfdata_decode_stat_round(f, r, &x, &err) == PERFDATA_OK) h += x.time; break; }
    case PERFDATA_RECORD_EVENT_UPDATE: { perfdata_event_update x; if (perfdata_decode_event_update(f, r, &x, &err) == PERFDATA_OK) h += da_view(x.text) + x.scale_bits + da_cpu_map(&x.cpus); break; }
    case PERFDATA_RECORD_TIME_CONV: { perfdata_time_conv x; if (perfdata_decode_time_conv(f, r, &x, &err) == PERFDATA_OK) h += x.time_mult; break; }
    case PERFDATA_RECORD_HEADER_FEATURE: { perfdata_header_feature x; if (perfdata_decode_header_feature(f, r, &x, &err) == PERFDATA_OK) h += da_view(x.data); break; }
    case PERFDATA_RECORD_COMPRESSED: case PERFDATA_RECORD_COMPRESSED2: { perfdata_compressed x; if (perfdata_decode_compressed(f, r, &x, &err) == PERFDATA_OK) h += da_view(x.data); break; }
    case PERFDATA_RECORD_BPF_METADATA: {
        perfdata_bpf_metadata x;
        if (perfdata_decode_bpf_metadata(f, r, &x, &err) == PERFDATA_OK)
            for (i = 0; i <= x.nr_entries && i < 1000; i++) { perfdata_bpf_metadata_entry e = perfdata_bpf_metadata_at(&x, i); h += da_view(e.key) + da_view(e.value); }
        break;
    }
    case PERFDATA_RECORD_SCHEDSTAT_CPU: case PERFDATA_RECORD_SCHEDSTAT_DOMAIN: { perfdata_schedstat x; if (perfdata_decode_schedstat(f, r, &x, &err) == PERFDATA_OK) h += da_u64s(&x.counters); break; }
    default: h += da_view(r->body); break;
    }
    if (r->type != PERFDATA_RECORD_SAMPLE && r->type < 64) {
        perfdata_sample_id sid;
        if (perfdata_decode_sample_id(f, r, &sid, &err) == PERFDATA_OK) h += sid.time + sid.id + sid.pid;
    }
    return h;
}

/* Every feature section and string feature. */
static uint64_t da_features(const perfdata_file *f) {
    uint64_t h = 0;
    unsigned feat;
    for (feat = 0; feat < PERFDATA_FEAT_BITS; feat++) {
        perfdata_view v;
        perfdata_error err;
        if (!perfdata_has_feature(f, feat)) continue;
        if (perfdata_feature_section(f, feat, &v, &err) == PERFDATA_OK) h += da_view(v);
        if (perfdata_feature_string(f, feat, &v, &err) == PERFDATA_OK) h += da_view(v);
    }
    return h;
}

DA_UNUSED static uint64_t decode_all(const unsigned char *data, size_t size, unsigned long *steps) {
    static perfdata_event events[DA_MAX_EVENTS];
    static perfdata_id_entry ids[1024];
    perfdata_file f;
    perfdata_cursor c;
    perfdata_record rec;
    perfdata_error err;
    perfdata_status st;
    uint64_t h = 0;
    size_t n = 0;
    perfdata_count_events(data, size, &n, &err);
    if (perfdata_open(&f, data, size, events, DA_MAX_EVENTS, &err) != PERFDATA_OK) return err.offset + err.code;
    h += da_features(&f);
    if (perfdata_id_index_needed(&f) <= 1024) perfdata_set_id_index(&f, ids, 1024, &err);
    perfdata_cursor_init(&f, &c);
    for (;;) {
        st = perfdata_next_record(&f, &c, &rec, &err);
        if (st == PERFDATA_END || c.priv.stopped != PERFDATA_OK) break;
        if (st == PERFDATA_NEED_MEMORY) break;
        ++*steps;
        h += da_record(&f, &rec);
        (void)perfdata_record_name(rec.type);
    }
    return h + c.priv.pos;
}

#endif
