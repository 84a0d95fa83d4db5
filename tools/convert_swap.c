/* convert_swap.c - a record or a feature section in the other byte order.
   Samples through perfdata.h's writer from their decoded structs; the
   other known types field by field from a layout, so that the bytes after
   a string's NUL stay as they were; the sample_id trailer from its decoded
   fields. */
#include "convert.h"
#include "pd_intern.h"

#include <stdlib.h>
#include <string.h>

void convert_swap_init(convert_swap *w, const perfdata_file *f, int big_out) {
    w->f = f;
    w->big_in = (f->flags & PERFDATA_FILE_BIG_ENDIAN) != 0;
    w->big_out = big_out;
    if (!w->buf) {
        w->cap = 1 << 17; /* a record, after a scratch writer's header and one event */
        if (!(w->buf = (unsigned char *)malloc(w->cap))) pd_nomem();
    }
}

void convert_swap_free(convert_swap *w) {
    free(w->buf);
    w->buf = NULL;
}

static uint64_t ld(const unsigned char *p, size_t size, int big) {
    uint64_t v = 0;
    size_t i;
    for (i = 0; i < size; i++) v |= (uint64_t)p[big ? size - 1 - i : i] << (8 * i);
    return v;
}
static void st(unsigned char *p, uint64_t v, size_t size, int big) {
    size_t i;
    for (i = 0; i < size; i++) p[big ? size - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

/* n bytes at p laid out by `layout` into out: Q u64, I u32, H u16, B a
   byte, 8 eight bytes as they are; '*' repeats the letter before it to the
   end, R copies the rest as it is. Returns the bytes the layout covered
   (n when it covers the rest), or (size_t)-1 when p is shorter than it. */
static size_t swap_layout(const unsigned char *p, size_t n, const char *layout, int big_in, int big_out, unsigned char *out) {
    size_t at = 0;
    const char *l;
    for (l = layout; *l; l++) {
        size_t size;
        if (*l == 'R') { memcpy(out + at, p + at, n - at); return n; }
        if (*l == '*') {
            char c = l[-1];
            size = c == 'Q' ? 8 : c == 'I' ? 4 : c == 'H' ? 2 : 1;
            for (; at + size <= n; at += size) st(out + at, ld(p + at, size, big_in), size, big_out);
            if (at != n) return (size_t)-1;
            return n;
        }
        if (*l == '8') {
            if (n - at < 8) return (size_t)-1;
            memcpy(out + at, p + at, 8);
            at += 8;
            continue;
        }
        size = *l == 'Q' ? 8 : *l == 'I' ? 4 : *l == 'H' ? 2 : 1;
        if (n - at < size) return (size_t)-1;
        st(out + at, ld(p + at, size, big_in), size, big_out);
        at += size;
    }
    return at;
}

/* The fixed fields of the kernel records converted by layout (the rest of
   the body, a name or bytes, is copied as it is). */
static const char *kernel_layout(uint32_t type, uint16_t misc) {
    switch (type) {
    /* the strings are copied with the bytes after their NUL, as they are */
    case PERFDATA_RECORD_MMAP: return "IIQQQR";
    case PERFDATA_RECORD_MMAP2: return (misc & PERFDATA_MISC_MMAP_BUILD_ID) ? "IIQQQ888IIR" : "IIQQQIIQQIIR";
    case PERFDATA_RECORD_COMM: return "IIR";
    case PERFDATA_RECORD_FORK:
    case PERFDATA_RECORD_EXIT: return "IIIIQ";
    case PERFDATA_RECORD_LOST: return "QQ";
    case PERFDATA_RECORD_READ: return "IIQ*";
    case PERFDATA_RECORD_THROTTLE:
    case PERFDATA_RECORD_UNTHROTTLE: return "QQQ";
    case PERFDATA_RECORD_AUX: return "QQQ";
    case PERFDATA_RECORD_ITRACE_START: return "II";
    case PERFDATA_RECORD_LOST_SAMPLES: return "Q";
    case PERFDATA_RECORD_SWITCH: return "";
    case PERFDATA_RECORD_SWITCH_CPU_WIDE: return "II";
    case PERFDATA_RECORD_NAMESPACES: return "IIQ*";
    case PERFDATA_RECORD_KSYMBOL: return "QIHHR";
    case PERFDATA_RECORD_BPF_EVENT: return "HHI8";
    case PERFDATA_RECORD_CGROUP: return "QR";
    case PERFDATA_RECORD_TEXT_POKE: return "QHHR";
    case PERFDATA_RECORD_AUX_OUTPUT_HW_ID: return "Q";
    default: return NULL;
    }
}

/* The user records converted by layout. */
static const char *user_layout(const perfdata_record *rec) {
    switch (rec->type) {
    case PERFDATA_RECORD_FINISHED_ROUND:
    case PERFDATA_RECORD_FINISHED_INIT: return "";
    case PERFDATA_RECORD_ID_INDEX: return "Q*";
    case PERFDATA_RECORD_STAT: return "QIIQQQ";
    case PERFDATA_RECORD_STAT_ROUND: return "QQ";
    case PERFDATA_RECORD_STAT_CONFIG: return "Q*";
    case PERFDATA_RECORD_TIME_CONV: return rec->body.n > 24 ? "QQQQQR" : "QQQ";
    case PERFDATA_RECORD_HEADER_EVENT_TYPE: return "QR";
    case PERFDATA_RECORD_AUXTRACE_INFO: return "IIQ*";
    case PERFDATA_RECORD_AUXTRACE: return "QQQIIII";
    default: return NULL;
    }
}

static perfdata_status unsupported(const perfdata_record *rec, perfdata_error *err) {
    if (err) {
        memset(err, 0, sizeof *err);
        err->code = PERFDATA_ERR_UNSUPPORTED;
        err->offset = rec->offset;
        err->record_type = rec->type;
        err->message = "this record type's byte order is not changed yet";
    }
    return PERFDATA_ERR_UNSUPPORTED;
}

/* THREAD_MAP: nr, then per thread a u64 pid and a 16-byte name. */
static size_t swap_thread_map(const unsigned char *p, size_t n, int big_in, int big_out, unsigned char *out) {
    size_t at;
    if (n < 8) return (size_t)-1;
    st(out, ld(p, 8, big_in), 8, big_out);
    for (at = 8; at + 24 <= n; at += 24) {
        st(out + at, ld(p + at, 8, big_in), 8, big_out);
        memcpy(out + at + 8, p + at + 8, 16);
    }
    return at == n ? n : (size_t)-1;
}

/* perf_record_cpu_map_data: u16 encoding, then a cpu list (u16s), a mask
   (u16 nr, u16 long size, [u32 pad], words: packed, so 64-bit words start
   at byte 10) or a range (two bytes, two u16s); the padding after it is
   copied. */
static size_t swap_cpu_map(const unsigned char *p, size_t n, int big_in, int big_out, unsigned char *out) {
    perfdata_cpu_map m;
    perfdata_view v;
    size_t got;
    v.p = p; v.n = n; v.offset = 0;
    if (perfdata_decode_cpu_map_data(v, big_in, &m, NULL) != PERFDATA_OK) return (size_t)-1;
    switch (m.encoding) {
    case PERFDATA_CPU_MAP_CPUS: got = swap_layout(p, 4 + 2 * (size_t)m.nr, "HHH*", big_in, big_out, out); break;
    case PERFDATA_CPU_MAP_MASK:
        got = m.long_size == 8 ? swap_layout(p, 10 + 8 * (size_t)m.nr, "HHHIQ*", big_in, big_out, out)
                               : swap_layout(p, 6 + 4 * (size_t)m.nr, "HHHI*", big_in, big_out, out);
        break;
    default: got = swap_layout(p, 8, "HBBHH", big_in, big_out, out); break;
    }
    if (got == (size_t)-1 || got > n) return (size_t)-1;
    memcpy(out + got, p + got, n - got);
    return n;
}

/* EVENT_UPDATE: type and id, then a unit or name (bytes), a scale (a
   double, swapped as a u64) or a cpu map. */
static size_t swap_event_update(const unsigned char *p, size_t n, int big_in, int big_out, unsigned char *out) {
    uint64_t type;
    size_t got;
    if (n < 16) return (size_t)-1;
    type = ld(p, 8, big_in);
    if (type == 0 || type == 2) return swap_layout(p, n, "QQR", big_in, big_out, out);   /* UNIT, NAME */
    if (type == 1) return swap_layout(p, n, "QQQ", big_in, big_out, out);               /* SCALE */
    if (type != 3) return (size_t)-2;                                                   /* CPUS */
    swap_layout(p, 16, "QQ", big_in, big_out, out);
    got = swap_cpu_map(p + 16, n - 16, big_in, big_out, out + 16);
    return got == (size_t)-1 ? got : n;
}

perfdata_status convert_swap_record(convert_swap *w, perfdata_writer *out, const perfdata_file *f,
                                    const perfdata_record *rec, perfdata_error *err) {
    perfdata_sample_id sid;
    perfdata_status s;
    const char *layout;
    size_t body, got;
    switch (rec->type) {
    case PERFDATA_RECORD_SAMPLE: {
        perfdata_sample smp;
        perfdata_writer one;
        perfdata_writer_event ev;
        size_t stack_at, k;
        if ((s = perfdata_decode_sample(f, rec, &smp, err)) != PERFDATA_OK) return s;
        if (!(smp.sample_type & PERFDATA_SAMPLE_STACK_USER) || smp.stack_user_size <= smp.stack_user.n)
            return perfdata_writer_sample(out, rec->misc, &smp, err);
        /* the user stack past its dynamic size is what the kernel left in
           its buffer: kept as it was (the writer writes zeros), at the same
           place, as every field keeps its size in the other order */
        memset(&ev, 0, sizeof ev);
        ev.attr = f->events[smp.event].attr; /* encoded as the scratch writer's only event */
        perfdata_writer_init_buffer(&one, PERFDATA_WRITE_PIPE | (w->big_out ? PERFDATA_WRITE_BIG_ENDIAN : 0u), w->buf, w->cap, NULL);
        if ((s = perfdata_writer_begin(&one, &ev, 1, NULL, 0, err)) != PERFDATA_OK) return s;
        k = (size_t)perfdata_writer_size(&one);
        smp.event = 0;
        if ((s = perfdata_writer_sample(&one, rec->misc, &smp, err)) != PERFDATA_OK) return s;
        stack_at = (size_t)(smp.stack_user.p - rec->body.p);
        if (perfdata_writer_size(&one) - k == rec->bytes.n && stack_at + smp.stack_user_size <= rec->body.n)
            memcpy(w->buf + k + 8 + stack_at + smp.stack_user.n, smp.stack_user.p + smp.stack_user.n,
                   (size_t)smp.stack_user_size - smp.stack_user.n);
        return perfdata_writer_record(out, rec->type, rec->misc, w->buf + k + 8, rec->body.n, NULL, 0, err);
    }
    default: break;
    }
    if (rec->body.n > w->cap) return unsupported(rec, err);
    if (rec->type < PERFDATA_RECORD_HEADER_ATTR) {
        /* a kernel record: its fields by layout, then its trailer */
        size_t trailer;
        if (!(layout = kernel_layout(rec->type, rec->misc))) return unsupported(rec, err);
        if ((s = perfdata_decode_sample_id(f, rec, &sid, err)) != PERFDATA_OK) return s;
        trailer = sid.size;
        if (trailer > rec->body.n) return unsupported(rec, err);
        body = rec->body.n - trailer;
        got = swap_layout(rec->body.p, body, layout, w->big_in, w->big_out, w->buf);
        if (got == (size_t)-1) return unsupported(rec, err);
        if (got < body) memcpy(w->buf + got, rec->body.p + got, body - got); /* padding */
        if (trailer && swap_layout(rec->body.p + body, trailer, "Q*", w->big_in, w->big_out, w->buf + body) != trailer)
            return unsupported(rec, err);
        /* TID and CPU are two u32s each: the u64 swap exchanged their halves */
        if (trailer) {
            uint64_t t = sid.sample_type;
            unsigned char *q = w->buf + body;
            if (t & PERFDATA_SAMPLE_TID) { st(q, sid.pid, 4, w->big_out); st(q + 4, sid.tid, 4, w->big_out); q += 8; }
            if (t & PERFDATA_SAMPLE_TIME) q += 8;
            if (t & PERFDATA_SAMPLE_ID) q += 8;
            if (t & PERFDATA_SAMPLE_STREAM_ID) q += 8;
            if (t & PERFDATA_SAMPLE_CPU) { st(q, sid.cpu, 4, w->big_out); st(q + 4, sid.cpu_reserved, 4, w->big_out); }
        }
        return perfdata_writer_record(out, rec->type, rec->misc, w->buf, rec->body.n, NULL, 0, err);
    }
    if (rec->type == PERFDATA_RECORD_THREAD_MAP) got = swap_thread_map(rec->body.p, rec->body.n, w->big_in, w->big_out, w->buf);
    else if (rec->type == PERFDATA_RECORD_EVENT_UPDATE) got = swap_event_update(rec->body.p, rec->body.n, w->big_in, w->big_out, w->buf);
    else if (rec->type == PERFDATA_RECORD_CPU_MAP) got = swap_cpu_map(rec->body.p, rec->body.n, w->big_in, w->big_out, w->buf);
    else if ((layout = user_layout(rec)) != NULL) got = swap_layout(rec->body.p, rec->body.n, layout, w->big_in, w->big_out, w->buf);
    else return unsupported(rec, err);
    if (got == (size_t)-2) return unsupported(rec, err);
    if (got == (size_t)-1) {
        if (err) { memset(err, 0, sizeof *err); err->code = PERFDATA_ERR_MALFORMED; err->offset = rec->offset; err->record_type = rec->type; err->message = "record shorter than its type's layout"; }
        return PERFDATA_ERR_MALFORMED;
    }
    if (got < rec->body.n) memcpy(w->buf + got, rec->body.p + got, rec->body.n - got);
    return perfdata_writer_record(out, rec->type, rec->misc, w->buf, rec->body.n, rec->extra.p, rec->extra.n, err);
}

/* ------------------------------------------------------------- features */

int convert_string_feature(unsigned id) {
    return id == PERFDATA_FEAT_HOSTNAME || id == PERFDATA_FEAT_OSRELEASE || id == PERFDATA_FEAT_VERSION ||
           id == PERFDATA_FEAT_ARCH || id == PERFDATA_FEAT_CPUDESC || id == PERFDATA_FEAT_CPUID;
}

static unsigned char *dup_swapped(const unsigned char *p, size_t n, const char *layout, int big_in, int big_out, size_t *outn) {
    unsigned char *q = (unsigned char *)malloc(n ? n : 1);
    if (!q) pd_nomem();
    if (swap_layout(p, n, layout, big_in, big_out, q) == (size_t)-1) { free(q); return NULL; }
    *outn = n;
    return q;
}

/* A feature section walked field by field: each value read in the input's
   order is written in the output's; strings (a u32 length, then the
   bytes) are copied. A read past the end sets bad. */
typedef struct swap_cur { const unsigned char *p; unsigned char *q; size_t n, at; int bi, bo, bad; } swap_cur;
static uint64_t sw(swap_cur *c, size_t size) {
    uint64_t v;
    if (c->bad || c->n - c->at < size) { c->bad = 1; return 0; }
    v = ld(c->p + c->at, size, c->bi);
    st(c->q + c->at, v, size, c->bo);
    c->at += size;
    return v;
}
static void sw_str(swap_cur *c) {
    uint64_t len = sw(c, 4);
    if (c->bad || c->n - c->at < len) { c->bad = 1; return; }
    c->at += (size_t)len; /* the bytes were copied with the section */
}
static void sw_strs(swap_cur *c) { /* u32 count, then the strings */
    uint64_t k, nr = sw(c, 4);
    for (k = 0; k < nr && !c->bad; k++) sw_str(c);
}

/* The sections read as lists; 0, or -1 when the section does not parse. */
static int swap_feature_fields(convert_swap *w, unsigned id, swap_cur *c) {
    uint64_t nr, k, j;
    switch (id) {
    case PERFDATA_FEAT_NUMA_TOPOLOGY: /* nr; node, mem_total, mem_free, cpus */
        for (nr = sw(c, 4), k = 0; k < nr && !c->bad; k++) { sw(c, 4); sw(c, 8); sw(c, 8); sw_str(c); }
        break;
    case PERFDATA_FEAT_PMU_MAPPINGS: /* nr; type, name */
        for (nr = sw(c, 4), k = 0; k < nr && !c->bad; k++) { sw(c, 4); sw_str(c); }
        break;
    case PERFDATA_FEAT_CACHE: /* version, nr; level, line size, sets, ways, type, size, map */
        sw(c, 4);
        for (nr = sw(c, 4), k = 0; k < nr && !c->bad; k++) { sw(c, 4); sw(c, 4); sw(c, 4); sw(c, 4); sw_str(c); sw_str(c); sw_str(c); }
        break;
    case PERFDATA_FEAT_GROUP_DESC: /* nr; name, leader, members */
        for (nr = sw(c, 4), k = 0; k < nr && !c->bad; k++) { sw_str(c); sw(c, 4); sw(c, 4); }
        break;
    case PERFDATA_FEAT_MEM_TOPOLOGY: /* version, block size, nr; node, size, bitmap bits and words */
        sw(c, 8); sw(c, 8);
        for (nr = sw(c, 8), k = 0; k < nr && !c->bad; k++) {
            uint64_t bits;
            sw(c, 8); sw(c, 8);
            bits = sw(c, 8);
            for (j = 0; j < (bits + 63) / 64 && !c->bad; j++) sw(c, 8);
        }
        break;
    case PERFDATA_FEAT_CLOCK_DATA: sw(c, 4); sw(c, 4); sw(c, 8); sw(c, 8); break;
    case PERFDATA_FEAT_BPF_BTF: /* nr; id, size, the BTF data (which says its own order) */
        for (nr = sw(c, 4), k = 0; k < nr && !c->bad; k++) {
            uint64_t size;
            sw(c, 4);
            size = sw(c, 4);
            if (c->bad || c->n - c->at < size) c->bad = 1;
            else c->at += (size_t)size;
        }
        break;
    case PERFDATA_FEAT_COMPRESSED: for (k = 0; k < 5; k++) sw(c, 4); break;
    case PERFDATA_FEAT_HYBRID_TOPOLOGY: /* nr; pmu name, cpus */
    case PERFDATA_FEAT_CPU_PMU_CAPS: /* nr; name, value */
        for (nr = sw(c, 4), k = 0; k < nr && !c->bad; k++) { sw_str(c); sw_str(c); }
        break;
    case PERFDATA_FEAT_PMU_CAPS: /* nr pmus; per pmu: nr caps, (name, value) each, the pmu's name */
        for (nr = sw(c, 4), k = 0; k < nr && !c->bad; k++) {
            uint64_t caps = sw(c, 4);
            for (j = 0; j < caps && !c->bad; j++) { sw_str(c); sw_str(c); }
            sw_str(c);
        }
        break;
    case PERFDATA_FEAT_CPU_TOPOLOGY: { /* core and thread siblings; then per cpu core and socket ids; dies */
        uint64_t cpus = w->nr_cpus;
        sw_strs(c);
        sw_strs(c);
        if (c->at < c->n) for (k = 0; k < 2 * cpus && !c->bad; k++) sw(c, 4);
        if (c->at < c->n) {
            sw_strs(c);
            for (k = 0; k < cpus && !c->bad; k++) sw(c, 4);
        }
        break;
    }
    default: return -1;
    }
    return c->bad || c->at != c->n ? -1 : 0;
}

int convert_swap_feature(convert_swap *w, unsigned id, const unsigned char *p, size_t n, unsigned char **out,
                         size_t *outn) {
    int bi = w->big_in, bo = w->big_out;
    perfdata_view v;
    v.p = p; v.n = n; v.offset = 0;
    *out = NULL;
    if (convert_string_feature(id)) {
        *out = dup_swapped(p, n, "IR", bi, bo, outn);
        return *out ? 0 : -1;
    }
    switch (id) {
    case PERFDATA_FEAT_NRCPUS: *out = dup_swapped(p, n, "II", bi, bo, outn); break;
    case PERFDATA_FEAT_TOTAL_MEM:
    case PERFDATA_FEAT_CLOCKID:
    case PERFDATA_FEAT_DIR_FORMAT:
    case PERFDATA_FEAT_SAMPLE_TIME: *out = dup_swapped(p, n, "Q*", bi, bo, outn); break;
    case PERFDATA_FEAT_TRACING_DATA: *out = dup_swapped(p, n, "R", bi, bo, outn); break; /* it says its own order */
    case PERFDATA_FEAT_CMDLINE: {
        /* u32 count, then per string a u32 length and its bytes */
        size_t at = 4;
        uint32_t nr, i;
        unsigned char *q;
        if (n < 4) return -1;
        if (!(q = (unsigned char *)malloc(n))) pd_nomem();
        memcpy(q, p, n);
        nr = (uint32_t)ld(p, 4, bi);
        st(q, nr, 4, bo);
        for (i = 0; i < nr; i++) {
            uint32_t len;
            if (n - at < 4) { free(q); return -1; }
            len = (uint32_t)ld(p + at, 4, bi);
            st(q + at, len, 4, bo);
            at += 4;
            if (n - at < len) { free(q); return -1; }
            at += len;
        }
        *out = q;
        *outn = n;
        break;
    }
    case PERFDATA_FEAT_BUILD_ID: {
        /* entries: a record header (type, misc, size), the pid, 24 bytes, the name */
        size_t at = 0;
        unsigned char *q;
        if (!(q = (unsigned char *)malloc(n ? n : 1))) pd_nomem();
        memcpy(q, p, n);
        while (at < n) {
            size_t size;
            if (n - at < 12) { free(q); return -1; }
            size = (size_t)ld(p + at + 6, 2, bi);
            if (size < 12 || size > n - at) { free(q); return -1; }
            swap_layout(p + at, 12, "IHHI", bi, bo, q + at);
            at += size;
        }
        *out = q;
        *outn = n;
        break;
    }
    case PERFDATA_FEAT_EVENT_DESC: {
        perfdata_feat_event_desc d;
        perfdata_event_desc_entry e;
        perfdata_writer_event *evs;
        const char **names;
        uint64_t **ids;
        size_t state = 0, i = 0, k, len = 0;
        int ok = 1;
        if (perfdata_decode_feat_event_desc(v, bi, &d, NULL) != PERFDATA_OK) return -1;
        evs = (perfdata_writer_event *)calloc(d.nr ? d.nr : 1, sizeof *evs);
        names = (const char **)calloc(d.nr ? d.nr : 1, sizeof *names);
        ids = (uint64_t **)calloc(d.nr ? d.nr : 1, sizeof *ids);
        if (!evs || !names || !ids) pd_nomem();
        while (i < d.nr && perfdata_event_desc_next(&d, &state, &e)) {
            char *name;
            if (!(name = (char *)malloc(e.name.n + 1))) pd_nomem();
            memcpy(name, e.name.p, e.name.n);
            name[e.name.n] = 0;
            names[i] = name;
            evs[i].attr = e.attr;
            evs[i].attr.size = d.attr_size;
            if (!(ids[i] = (uint64_t *)malloc((e.ids.count ? e.ids.count : 1) * sizeof **ids))) pd_nomem();
            for (k = 0; k < e.ids.count; k++) ids[i][k] = perfdata_u64s_at(&e.ids, k);
            evs[i].ids = ids[i];
            evs[i].nr_ids = e.ids.count;
            i++;
        }
        if (i != d.nr) ok = 0;
        if (ok && perfdata_encode_feat_event_desc(NULL, 0, bo, evs, names, i, &len, NULL) == PERFDATA_ERR_NO_SPACE) {
            if (!(*out = (unsigned char *)malloc(len ? len : 1))) pd_nomem();
            ok = perfdata_encode_feat_event_desc(*out, len, bo, evs, names, i, outn, NULL) == PERFDATA_OK;
            if (!ok) { free(*out); *out = NULL; }
        } else {
            ok = 0;
        }
        for (k = 0; k < i; k++) { free((void *)names[k]); free(ids[k]); }
        free(names); free(ids); free(evs);
        return ok ? 0 : -1;
    }
    default: {
        swap_cur c;
        unsigned char *q = (unsigned char *)malloc(n ? n : 1);
        if (!q) pd_nomem();
        memcpy(q, p, n);
        c.p = p; c.q = q; c.n = n; c.at = 0; c.bi = bi; c.bo = bo; c.bad = 0;
        if (swap_feature_fields(w, id, &c) != 0) { free(q); return -1; }
        *out = q;
        *outn = n;
        return 0;
    }
    }
    return *out ? 0 : -1;
}
