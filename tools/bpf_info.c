/* bpf_info.c - the "# bpf_prog_info" lines of `perfdata info`, as perf 6.1
   prints them (__bpf_event__print_bpf_prog_info in tools/perf/util/
   bpf-event.c): one line per program, or one per sub-program, named
   bpf_prog_<tag>_<name>, where the name comes from the program's BTF
   function info when the file carries that BTF (a minimal BTF type walk
   here), else the program's own name ("F" for sub-programs). */
#include "perfdata.h"

#include <stdio.h>
#include <string.h>

/* struct bpf_prog_info (include/uapi/linux/bpf.h) field offsets */
enum {
    BI_ID = 4, BI_TAG = 8, BI_NAME = 64, BI_NR_JITED_KSYMS = 104, BI_NR_JITED_FUNC_LENS = 108,
    BI_JITED_KSYMS = 112, BI_JITED_FUNC_LENS = 120, BI_BTF_ID = 128, BI_FUNC_INFO_REC_SIZE = 132,
    BI_FUNC_INFO = 136, BI_NR_FUNC_INFO = 144, BI_NR_PROG_TAGS = 180, BI_PROG_TAGS = 184
};

static uint64_t ld(const unsigned char *p, int width, int big) {
    uint64_t v = 0;
    int i;
    for (i = 0; i < width; i++) v |= (uint64_t)p[big ? i : width - 1 - i] << (8 * (width - 1 - i));
    return v;
}
static uint64_t field(perfdata_view v, size_t off, int width, int big) {
    return off + (size_t)width <= v.n ? ld(v.p + off, width, big) : 0;
}

/* The name of BTF type `id` (types are numbered from 1 in section order). */
static int btf_type_name(perfdata_view btf, uint32_t want, char *out, size_t outlen) {
    uint32_t hdr_len, type_off, type_len, str_off, str_len, id = 1;
    size_t pos, end, strs;
    if (btf.n < 24 || ld(btf.p, 2, 0) != 0xeb9f) return 0; /* little-endian BTF only */
    hdr_len = (uint32_t)ld(btf.p + 4, 4, 0);
    type_off = (uint32_t)ld(btf.p + 8, 4, 0);
    type_len = (uint32_t)ld(btf.p + 12, 4, 0);
    str_off = (uint32_t)ld(btf.p + 16, 4, 0);
    str_len = (uint32_t)ld(btf.p + 20, 4, 0);
    pos = (size_t)hdr_len + type_off;
    end = pos + type_len;
    strs = (size_t)hdr_len + str_off;
    if (end > btf.n || strs + str_len > btf.n || end < pos) return 0;
    while (pos + 12 <= end) {
        uint32_t name_off = (uint32_t)ld(btf.p + pos, 4, 0), info = (uint32_t)ld(btf.p + pos + 4, 4, 0);
        uint32_t kind = (info >> 24) & 0x1f, vlen = info & 0xffff;
        size_t extra = 0;
        if (id == want) {
            size_t i;
            if (name_off >= str_len) return 0;
            for (i = 0; i + 1 < outlen && strs + name_off + i < strs + str_len && btf.p[strs + name_off + i]; i++)
                out[i] = (char)btf.p[strs + name_off + i];
            out[i] = 0;
            return 1;
        }
        switch (kind) { /* bytes after struct btf_type, per kind */
        case 1: extra = 4; break;                 /* INT */
        case 3: extra = 12; break;                /* ARRAY */
        case 4: case 5: extra = 12u * vlen; break; /* STRUCT, UNION */
        case 6: extra = 8u * vlen; break;         /* ENUM */
        case 13: extra = 8u * vlen; break;        /* FUNC_PROTO */
        case 14: extra = 4; break;                /* VAR */
        case 15: extra = 12u * vlen; break;       /* DATASEC */
        case 17: extra = 4; break;                /* DECL_TAG */
        case 19: extra = 12u * vlen; break;       /* ENUM64 */
        default: break;
        }
        pos += 12 + extra;
        id++;
    }
    return 0;
}

/* The BTF blob with this id in the BPF_BTF section: u32 count, then
   {u32 id, u32 size, bytes}. */
static int find_btf(perfdata_view sec, uint32_t id, perfdata_view *out) {
    perfdata_feat_list l;
    perfdata_bpf_btf b;
    size_t st = 0;
    if (perfdata_decode_feat_bpf_btf(sec, 0, &l, NULL) != PERFDATA_OK) return 0;
    while (perfdata_bpf_btf_next(&l, &st, &b))
        if (b.id == id) { *out = b.data; return 1; }
    return 0;
}

void pd_bpf_print_prog_info(perfdata_view info, perfdata_view data, int big, perfdata_view btf_sec, int have_btf);

void pd_bpf_print_prog_info(perfdata_view info, perfdata_view data, int big, perfdata_view btf_sec, int have_btf) {
    uint32_t nr = (uint32_t)field(info, BI_NR_JITED_KSYMS, 4, big), i;
    uint64_t ksyms = field(info, BI_JITED_KSYMS, 8, big), lens = field(info, BI_JITED_FUNC_LENS, 8, big);
    uint64_t tags = field(info, BI_PROG_TAGS, 8, big), finfo = field(info, BI_FUNC_INFO, 8, big);
    uint32_t rec_size = (uint32_t)field(info, BI_FUNC_INFO_REC_SIZE, 4, big);
    uint32_t btf_id = (uint32_t)field(info, BI_BTF_ID, 4, big);
    perfdata_view btf = {0, 0, 0};
    int with_btf = 0;
    /* the pointers were rewritten as offsets into the data area when saved */
    if (nr != field(info, BI_NR_PROG_TAGS, 4, big) || nr != field(info, BI_NR_JITED_FUNC_LENS, 4, big)) return;
    if (ksyms + 8ull * nr > data.n || lens + 4ull * nr > data.n || tags + 8ull * nr > data.n) return;
    if (btf_id && have_btf) with_btf = find_btf(btf_sec, btf_id, &btf);
    if (nr != 1) printf("# bpf_prog_info %u:\n", (unsigned)field(info, BI_ID, 4, big));
    for (i = 0; i < nr; i++) {
        char name[512], fn[256];
        int n = snprintf(name, sizeof name, "bpf_prog_"), k;
        for (k = 0; k < 8; k++) n += snprintf(name + n, sizeof name - (size_t)n, "%02x", data.p[tags + 8u * i + (unsigned)k]);
        fn[0] = 0;
        if (with_btf) {
            uint64_t rec = finfo + (uint64_t)i * rec_size;
            if (rec_size >= 8 && rec + 8 <= data.n) btf_type_name(btf, (uint32_t)ld(data.p + rec + 4, 4, big), fn, sizeof fn);
            snprintf(name + n, sizeof name - (size_t)n, "_%s", fn);
        } else if (i == 0 && nr == 1) {
            if (info.n > BI_NAME && info.p[BI_NAME]) {
                snprintf(fn, sizeof fn, "%.16s", (const char *)info.p + BI_NAME);
                snprintf(name + n, sizeof name - (size_t)n, "_%s", fn);
            }
        } else {
            snprintf(name + n, sizeof name - (size_t)n, "_F");
        }
        if (nr == 1)
            printf("# bpf_prog_info %u: %s addr 0x%llx size %u\n", (unsigned)field(info, BI_ID, 4, big), name,
                   (unsigned long long)ld(data.p + ksyms, 8, big), (unsigned)ld(data.p + lens, 4, big));
        else
            printf("# \tsub_prog %u: %s addr 0x%llx size %u\n", (unsigned)i, name,
                   (unsigned long long)ld(data.p + ksyms + 8u * i, 8, big), (unsigned)ld(data.p + lens + 4u * i, 4, big));
    }
}
