/* bpf_info.c - the "# bpf_prog_info" lines of `perfdata info`, as perf 6.1
   prints them (__bpf_event__print_bpf_prog_info in tools/perf/util/
   bpf-event.c): one line per program, or one per sub-program, named
   bpf_prog_<tag>_<name>, where the name comes from the program's BTF
   function info when the file carries that BTF, else the program's own
   name ("F" for sub-programs).

   Every offset, count and id here comes from the file. Each read goes
   through span(), whose checks cannot wrap; the BTF blobs are indexed once
   (types by id, blobs by id), so a lookup costs no walk. A BTF blob that
   libbpf's btf__new would refuse (bad header, sections out of bounds, an
   unknown kind, a type cut short) names no program, as in perf; names
   are then the program's own. */
#include "pd_info.h"
#include "pd_text.h"

#include <stdlib.h>
#include <string.h>

/* struct bpf_prog_info (include/uapi/linux/bpf.h) field offsets */
enum {
    BI_ID = 4, BI_TAG = 8, BI_NAME = 64, BI_NAME_LEN = 16, BI_NR_JITED_KSYMS = 104, BI_NR_JITED_FUNC_LENS = 108,
    BI_JITED_KSYMS = 112, BI_JITED_FUNC_LENS = 120, BI_BTF_ID = 128, BI_FUNC_INFO_REC_SIZE = 132,
    BI_FUNC_INFO = 136, BI_NR_PROG_TAGS = 180, BI_PROG_TAGS = 184
};
enum { BPF_TAG_SIZE = 8, NAME_LEN = 512 }; /* perf's name buffer: KSYM_NAME_LEN */

/* The one checked read: `width` bytes of element `index` of an array of
   `stride`-byte elements that starts `base` bytes into v; NULL when any of
   it lies outside v. Subtractions and a division only: nothing can wrap. */
static const unsigned char *span(perfdata_view v, uint64_t base, uint64_t index, uint64_t stride, uint64_t width) {
    uint64_t rem, off;
    if (base > v.n) return NULL;
    rem = v.n - base;
    if (stride && index > rem / stride) return NULL;
    off = index * stride;
    if (width > rem - off) return NULL;
    return v.p + (size_t)(base + off);
}

/* An unsigned value of `width` bytes (at most 8) in the given byte order. */
static uint64_t load(const unsigned char *p, unsigned width, int big) {
    uint64_t v = 0;
    unsigned i;
    for (i = 0; i < width; i++) v |= (uint64_t)p[big ? i : width - 1 - i] << (8 * (width - 1 - i));
    return v;
}

/* A field of the bpf_prog_info: 0 past the end of a short one, which
   perf fills with zeros. */
static uint64_t info_field(perfdata_view info, unsigned off, unsigned width, int big) {
    const unsigned char *p = span(info, off, 0, 0, width);
    return p ? load(p, width, big) : 0;
}

/* ---------------------------------------------------------------- BTF */

struct pd_btf_blob {
    uint32_t id;
    int usable;                 /* btf__new would take it */
    size_t pos;                 /* place in the section, for a stable order */
    perfdata_view data;
    size_t first, nr_types;     /* its type offsets: types[first .. first + nr_types) */
    size_t strs;                /* the string section: data[strs .. strs + str_len) */
    uint32_t str_len;
};

/* Bytes after struct btf_type for each kind (libbpf's btf_type_size);
   -1 for a kind libbpf does not know. */
static int64_t btf_extra(uint32_t kind, uint32_t vlen) {
    switch (kind) {
    case 2: case 7: case 8: case 9: case 10: case 11: case 12: case 16: case 18: return 0;
    case 1: case 14: case 17: return 4;                    /* INT, VAR, DECL_TAG */
    case 3: return 12;                                     /* ARRAY */
    case 4: case 5: case 15: case 19: return 12 * (int64_t)vlen; /* STRUCT, UNION, DATASEC, ENUM64 */
    case 6: case 13: return 8 * (int64_t)vlen;             /* ENUM, FUNC_PROTO */
    default: return -1;
    }
}

/* The blob's header and sections as libbpf's btf_parse_hdr and
   btf_parse_str_sec check them (little-endian BTF only); its types walked
   as btf_parse_type_sec walks them, their offsets put in out (when not
   NULL). Returns the number of types, or -1 when btf__new would fail. */
static int64_t btf_parse(struct pd_btf_blob *b, uint32_t *out) {
    const unsigned char *h = span(b->data, 0, 0, 0, 24), *s;
    uint64_t hdr_len, type_off, type_len, str_off, str_len, meta, pos, end;
    int64_t n = 0;
    if (!h || load(h, 2, 0) != 0xeb9f) return -1;
    hdr_len = load(h + 4, 4, 0);
    type_off = load(h + 8, 4, 0);
    type_len = load(h + 12, 4, 0);
    str_off = load(h + 16, 4, 0);
    str_len = load(h + 20, 4, 0);
    if (hdr_len < 24 || hdr_len > b->data.n) return -1;
    meta = b->data.n - hdr_len;
    if (str_off + str_len > meta || type_off + type_len > str_off || type_off % 4) return -1; /* u32 sums */
    s = span(b->data, hdr_len + str_off, 0, 0, str_len);
    if (!s || !str_len || s[0] || s[str_len - 1]) return -1;
    b->strs = (size_t)(hdr_len + str_off);
    b->str_len = (uint32_t)str_len;
    pos = hdr_len + type_off;
    end = pos + type_len;
    while (end - pos >= 12) {
        const unsigned char *t = span(b->data, pos, 0, 0, 12);
        uint32_t info = t ? (uint32_t)load(t + 4, 4, 0) : 0;
        int64_t extra = btf_extra((info >> 24) & 0x1f, info & 0xffff);
        if (!t || extra < 0 || (uint64_t)extra > end - pos - 12) return -1;
        if (out) out[n] = (uint32_t)pos;
        n++;
        pos += 12 + (uint64_t)extra;
    }
    return pos == end ? n : -1;
}

static int blob_order(const void *a, const void *b) {
    const struct pd_btf_blob *x = (const struct pd_btf_blob *)a, *y = (const struct pd_btf_blob *)b;
    if (x->id != y->id) return x->id < y->id ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

void pd_btf_index_free(pd_btf_index *x) {
    free(x->blobs);
    free(x->types);
    free(x->copy);
    memset(x, 0, sizeof *x);
}

int pd_btf_index_set(pd_btf_index *x, perfdata_view sec) {
    pd_btf_index_free(x);
    x->copy = (unsigned char *)malloc(sec.n ? sec.n : 1);
    if (!x->copy) return -1;
    if (sec.n) memcpy(x->copy, sec.p, sec.n);
    x->sec = sec;
    x->sec.p = x->copy;
    x->have_sec = 1;
    return 0;
}

/* Indexes every blob of the section: 0, or -1 when out of memory. */
static int btf_build(pd_btf_index *x) {
    perfdata_feat_list l;
    perfdata_bpf_btf e;
    size_t st = 0, n = 0, i, total = 0;
    x->built = 1;
    if (perfdata_decode_feat_bpf_btf(x->sec, 0, &l, NULL) != PERFDATA_OK) return 0;
    while (perfdata_bpf_btf_next(&l, &st, &e)) n++;
    if (!n) return 0;
    x->blobs = (struct pd_btf_blob *)calloc(n, sizeof *x->blobs);
    if (!x->blobs) return -1;
    for (st = 0; x->nr_blobs < n && perfdata_bpf_btf_next(&l, &st, &e); x->nr_blobs++) {
        struct pd_btf_blob *b = &x->blobs[x->nr_blobs];
        int64_t types;
        b->id = e.id;
        b->pos = x->nr_blobs;
        b->data = e.data;
        types = btf_parse(b, NULL);
        b->usable = types >= 0;
        b->nr_types = types > 0 ? (size_t)types : 0;
        b->first = total;
        total += b->nr_types; /* at most one type per 12 bytes of the section */
    }
    if (total) {
        x->types = (uint32_t *)malloc(total * sizeof *x->types);
        if (!x->types) return -1;
        for (i = 0; i < x->nr_blobs; i++)
            if (x->blobs[i].usable) btf_parse(&x->blobs[i], x->types + x->blobs[i].first);
    }
    qsort(x->blobs, x->nr_blobs, sizeof *x->blobs, blob_order);
    return 0;
}

/* The first blob (in file order) with this id, as perf keeps them. */
static const struct pd_btf_blob *btf_find(const pd_btf_index *x, uint32_t id) {
    size_t lo = 0, hi = x->nr_blobs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (x->blobs[mid].id < id) lo = mid + 1;
        else hi = mid;
    }
    return lo < x->nr_blobs && x->blobs[lo].id == id ? &x->blobs[lo] : NULL;
}

/* The name of type `id` (0 is void, named ""): 0, or 1 when the blob has
   no such type or its name is outside the string section. */
static int btf_type_name(const pd_btf_index *x, const struct pd_btf_blob *b, uint32_t id, const char **name,
                         size_t *len) {
    const unsigned char *t, *s;
    uint64_t name_off;
    size_t n = 0;
    *name = "";
    *len = 0;
    if (!id) return 0;
    if (id > b->nr_types) return 1;
    t = span(b->data, x->types[b->first + id - 1], 0, 0, 12);
    name_off = t ? load(t, 4, 0) : b->str_len;
    if (name_off >= b->str_len) return 1;
    s = b->data.p + b->strs + (size_t)name_off;
    while (s[n]) n++; /* the string section ends with a NUL (btf_parse) */
    *name = (const char *)s;
    *len = n;
    return 0;
}

/* ------------------------------------------------------------ programs */

int pd_bpf_print_prog_info(FILE *out, const perfdata_bpf_prog_info *prog, int big, pd_btf_index *btf,
                           const char **why) {
    perfdata_view info = prog->info, data = prog->data;
    uint32_t nr = (uint32_t)info_field(info, BI_NR_JITED_KSYMS, 4, big), i;
    uint64_t ksyms = info_field(info, BI_JITED_KSYMS, 8, big), lens = info_field(info, BI_JITED_FUNC_LENS, 8, big);
    uint64_t tags = info_field(info, BI_PROG_TAGS, 8, big), finfo = info_field(info, BI_FUNC_INFO, 8, big);
    uint32_t rec_size = (uint32_t)info_field(info, BI_FUNC_INFO_REC_SIZE, 4, big);
    uint32_t btf_id = (uint32_t)info_field(info, BI_BTF_ID, 4, big);
    uint32_t prog_id = (uint32_t)info_field(info, BI_ID, 4, big);
    const struct pd_btf_blob *blob = NULL;
    *why = NULL;
    /* perf prints nothing for a program whose counts disagree */
    if (nr != info_field(info, BI_NR_PROG_TAGS, 4, big) || nr != info_field(info, BI_NR_JITED_FUNC_LENS, 4, big))
        return 0;
    /* the pointers were rewritten as offsets into the data area when saved */
    if (nr && (!span(data, ksyms, nr - 1, 8, 8) || !span(data, lens, nr - 1, 4, 4) ||
               !span(data, tags, nr - 1, BPF_TAG_SIZE, BPF_TAG_SIZE))) {
        *why = "its sub-program arrays lie outside its data";
        return 1;
    }
    if (btf_id && btf && btf->have_sec) {
        if (!btf->built && btf_build(btf) != 0) return -1;
        blob = btf_find(btf, btf_id);
        if (blob && !blob->usable) blob = NULL; /* btf__new failed: no BTF names */
    }
    /* Every name first, so that a program is printed whole or not at all. */
    for (i = 0; blob && i < nr; i++) {
        const unsigned char *rec = span(data, finfo, i, rec_size, 8); /* struct bpf_func_info */
        const char *fn;
        size_t fn_len;
        if (!rec) { *why = "its BTF function info lies outside its data"; return 1; }
        if (btf_type_name(btf, blob, (uint32_t)load(rec + 4, 4, big), &fn, &fn_len) != 0) {
            *why = "its BTF function info names a type its BTF does not hold";
            return 1;
        }
    }
    if (nr != 1) fprintf(out, "# bpf_prog_info %u:\n", (unsigned)prog_id);
    for (i = 0; i < nr; i++) {
        char name[NAME_LEN];
        const unsigned char *tag = span(data, tags, i, BPF_TAG_SIZE, BPF_TAG_SIZE);
        const char *fn = NULL;
        size_t fn_len = 0, n, k;
        char own[BI_NAME_LEN + 1];
        n = (size_t)snprintf(name, sizeof name, "bpf_prog_");
        for (k = 0; k < BPF_TAG_SIZE; k++) n += (size_t)snprintf(name + n, sizeof name - n, "%02x", tag[k]);
        if (blob) {
            btf_type_name(btf, blob, (uint32_t)load(span(data, finfo, i, rec_size, 8) + 4, 4, big), &fn, &fn_len);
        } else if (i == 0 && nr == 1) {
            /* info->name: at most BPF_OBJ_NAME_LEN bytes, up to a NUL */
            for (k = 0; k < BI_NAME_LEN && span(info, BI_NAME + k, 0, 0, 1) && info.p[BI_NAME + k]; k++)
                own[k] = (char)info.p[BI_NAME + k];
            own[k] = 0;
            if (k) { fn = own; fn_len = k; }
        } else {
            fn = "F";
            fn_len = 1;
        }
        if (fn) {
            /* "_%s" cut where perf's snprintf into its buffer cuts it */
            size_t room = sizeof name - n - 1;
            name[n++] = '_';
            if (fn_len > room - 1) fn_len = room - 1;
            memcpy(name + n, fn, fn_len);
            n += fn_len;
            name[n] = 0;
        }
        if (nr == 1) fprintf(out, "# bpf_prog_info %u: ", (unsigned)prog_id);
        else fprintf(out, "# \tsub_prog %u: ", (unsigned)i);
        pd_put_text(out, name, n);
        fprintf(out, " addr 0x%llx size %u\n", (unsigned long long)load(span(data, ksyms, i, 8, 8), 8, big),
                (unsigned)load(span(data, lens, i, 4, 4), 4, big));
    }
    return 0;
}
