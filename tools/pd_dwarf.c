/* pd_dwarf.c - see pd_dwarf.h. One pass over .debug_line runs every unit's
   line program and keeps its rows by sequence; a lookup finds the sequence
   by binary search, then the row. Memory grows with the section (a row
   needs at least one opcode byte), never with a count read from it. */
#include "pd_dwarf.h"
#include "pd_elf.h"
#include "pd_inflate.h"
#ifndef PERFDATA_ZSTD
#define PERFDATA_ZSTD /* the header's zstd decoder (the tools build it in pd_tool.c) */
#endif
#include "perfdata.h"

#include <stdlib.h>
#include <string.h>

typedef struct row { uint64_t addr; uint32_t file, line; } row;
typedef struct seq { uint64_t low, high; size_t first, n; } seq;
typedef struct name { const char *s; size_t n; uint32_t dir; } name;

struct pd_dwarf_lines {
    unsigned char *owned[3];    /* sections decompressed for it */
    row *rows;
    size_t nrows, caprows;
    seq *seqs;
    size_t nseqs, capseqs;
    name *files, *dirs;
    size_t nfiles, capfiles, ndirs, capdirs;
};

typedef struct rd {
    const unsigned char *p, *end;
    int big, bad;
} rd;

static uint64_t rd_n(rd *r, unsigned n) {
    uint64_t v = 0;
    unsigned i;
    if ((size_t)(r->end - r->p) < n) { r->bad = 1; r->p = r->end; return 0; }
    for (i = 0; i < n; i++) v |= (uint64_t)r->p[r->big ? n - 1 - i : i] << (8 * i);
    r->p += n;
    return v;
}
static uint64_t rd_uleb(rd *r) {
    uint64_t v = 0;
    unsigned shift = 0;
    for (;;) {
        unsigned char b;
        if (r->p >= r->end) { r->bad = 1; return 0; }
        b = *r->p++;
        if (shift < 64) v |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
        if (!(b & 0x80)) return v;
    }
}
static int64_t rd_sleb(rd *r) {
    uint64_t v = 0;
    unsigned shift = 0;
    unsigned char b;
    do {
        if (r->p >= r->end) { r->bad = 1; return 0; }
        b = *r->p++;
        if (shift < 64) v |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
    } while (b & 0x80);
    if (shift < 64 && (b & 0x40)) v |= ~(uint64_t)0 << shift;
    return (int64_t)v;
}
/* a NUL-terminated string in place */
static const char *rd_str(rd *r, size_t *len) {
    const unsigned char *s = r->p, *z = (const unsigned char *)memchr(s, 0, (size_t)(r->end - s));
    if (!z) { r->bad = 1; r->p = r->end; *len = 0; return ""; }
    *len = (size_t)(z - s);
    r->p = z + 1;
    return (const char *)s;
}
/* a string at off in a string section */
static const char *str_at(const unsigned char *sec, size_t n, uint64_t off, size_t *len) {
    const unsigned char *z;
    if (!sec || off >= n || !(z = (const unsigned char *)memchr(sec + off, 0, n - (size_t)off))) return NULL;
    *len = (size_t)(z - (sec + off));
    return (const char *)sec + off;
}

static int grow(void **p, size_t *cap, size_t need, size_t elem) {
    size_t c;
    void *q;
    if (need <= *cap) return 1;
    c = *cap ? *cap : 64;
    while (c < need) {
        if (c > ((size_t)-1 / 2) / elem) return 0;
        c *= 2;
    }
    if (!(q = realloc(*p, c * elem))) return 0;
    *p = q;
    *cap = c;
    return 1;
}

enum {
    FORM_block = 0x09, FORM_block1 = 0x0a, FORM_block2 = 0x03, FORM_block4 = 0x04, FORM_data1 = 0x0b,
    FORM_data2 = 0x05, FORM_data4 = 0x06, FORM_data8 = 0x07, FORM_data16 = 0x1e, FORM_string = 0x08,
    FORM_strp = 0x0e, FORM_line_strp = 0x1f, FORM_udata = 0x0f, FORM_sdata = 0x0d
};
enum { LNCT_path = 1, LNCT_directory_index = 2 };

/* One attribute of a v5 entry: a string (path) or a number (dir index). */
static int v5_value(rd *r, const pd_dwarf_sections *sec, unsigned form, int off8, const char **s, size_t *len,
                    uint64_t *num) {
    uint64_t v;
    *s = NULL;
    *num = 0;
    switch (form) {
    case FORM_string: *s = rd_str(r, len); return !r->bad;
    case FORM_strp: case FORM_line_strp:
        v = rd_n(r, off8 ? 8 : 4);
        if (r->bad) return 0;
        *s = form == FORM_strp ? str_at(sec->str, sec->str_n, v, len) : str_at(sec->line_str, sec->line_str_n, v, len);
        return *s != NULL;
    case FORM_udata: *num = rd_uleb(r); return !r->bad;
    case FORM_sdata: *num = (uint64_t)rd_sleb(r); return !r->bad;
    case FORM_data1: *num = rd_n(r, 1); return !r->bad;
    case FORM_data2: *num = rd_n(r, 2); return !r->bad;
    case FORM_data4: *num = rd_n(r, 4); return !r->bad;
    case FORM_data8: *num = rd_n(r, 8); return !r->bad;
    case FORM_data16: rd_n(r, 8); rd_n(r, 8); return !r->bad;
    case FORM_block: case FORM_block1: case FORM_block2: case FORM_block4:
        v = form == FORM_block ? rd_uleb(r) : rd_n(r, form == FORM_block1 ? 1 : form == FORM_block2 ? 2 : 4);
        if (r->bad || v > (uint64_t)(r->end - r->p)) { r->bad = 1; return 0; }
        r->p += v;
        return 1;
    default: return 0; /* a form line tables do not use: the unit is left out */
    }
}

/* v5 directory or file entries into *out (dirs: dir_base 0, no dir) */
static int v5_entries(rd *r, const pd_dwarf_sections *sec, int off8, pd_dwarf_lines *l, int files, uint32_t dir_base) {
    unsigned nfmt = (unsigned)rd_n(r, 1), i;
    uint64_t fmt[2 * 16], count, k;
    if (r->bad || nfmt > 16) return 0;
    for (i = 0; i < nfmt; i++) {
        fmt[2 * i] = rd_uleb(r);
        fmt[2 * i + 1] = rd_uleb(r);
    }
    count = rd_uleb(r);
    if (r->bad || count > (uint64_t)(r->end - r->p)) return 0;
    for (k = 0; k < count; k++) {
        name e = {"", 0, UINT32_MAX};
        for (i = 0; i < nfmt; i++) {
            const char *s;
            size_t len = 0;
            uint64_t num;
            if (fmt[2 * i + 1] > 0xffff || !v5_value(r, sec, (unsigned)fmt[2 * i + 1], off8, &s, &len, &num)) return 0;
            if (fmt[2 * i] == LNCT_path && s) { e.s = s; e.n = len; }
            if (fmt[2 * i] == LNCT_directory_index && num < UINT32_MAX - dir_base) e.dir = dir_base + (uint32_t)num;
        }
        if (files) {
            if (!grow((void **)&l->files, &l->capfiles, l->nfiles + 1, sizeof *l->files)) return 0;
            l->files[l->nfiles++] = e;
        } else {
            if (!grow((void **)&l->dirs, &l->capdirs, l->ndirs + 1, sizeof *l->dirs)) return 0;
            e.dir = UINT32_MAX;
            l->dirs[l->ndirs++] = e;
        }
    }
    return 1;
}

typedef struct state {
    uint64_t addr;
    uint64_t file;
    int64_t line;
    size_t seq_first;           /* this sequence's first row */
    int in_seq;
} state;

static int add_row(pd_dwarf_lines *l, state *st, uint32_t file_base, size_t nfiles, int v5, int end) {
    row *r;
    uint64_t f = st->file;
    uint32_t file;
    if (v5) file = f < nfiles ? file_base + (uint32_t)f : UINT32_MAX;
    else file = f >= 1 && f <= nfiles ? file_base + (uint32_t)(f - 1) : UINT32_MAX;
    if (!st->in_seq) { st->seq_first = l->nrows; st->in_seq = 1; }
    /* of rows at one address the last stands (binutils, PR ld/4986) */
    if (!end && l->nrows > st->seq_first && l->rows[l->nrows - 1].addr == st->addr) {
        r = &l->rows[l->nrows - 1];
    } else {
        if (!grow((void **)&l->rows, &l->caprows, l->nrows + 1, sizeof *l->rows)) return 0;
        r = &l->rows[l->nrows++];
    }
    r->addr = st->addr;
    r->file = file;
    r->line = st->line > 0 && st->line <= (int64_t)UINT32_MAX ? (uint32_t)st->line : 0;
    if (end) {
        seq *s;
        size_t n = l->nrows - st->seq_first;
        st->in_seq = 0;
        if (n < 2 || l->rows[st->seq_first].addr >= st->addr) { /* empty or backwards: no addresses */
            l->nrows = st->seq_first;
            return 1;
        }
        if (!grow((void **)&l->seqs, &l->capseqs, l->nseqs + 1, sizeof *l->seqs)) return 0;
        s = &l->seqs[l->nseqs++];
        s->low = l->rows[st->seq_first].addr;
        s->high = st->addr;
        s->first = st->seq_first;
        s->n = n;
    }
    return 1;
}

/* One unit at r (its unit_length read by the caller): 1 read, 0 left out,
   -1 out of memory. */
static int unit(pd_dwarf_lines *l, const pd_dwarf_sections *sec, rd *r, int off8) {
    unsigned version, min_inst, line_range, opcode_base, i;
    int line_base, v5;
    uint64_t header_length;
    const unsigned char *program, *std_len;
    uint32_t file_base = (uint32_t)l->nfiles, dir_base = (uint32_t)l->ndirs;
    size_t nrows0 = l->nrows, nseqs0 = l->nseqs;
    state st;
    rd pr;
    version = (unsigned)rd_n(r, 2);
    if (r->bad || version < 2 || version > 5) return 0;
    v5 = version == 5;
    if (v5) {
        rd_n(r, 1); /* address_size */
        if (rd_n(r, 1) != 0) return 0; /* segment selectors: not read */
    }
    header_length = rd_n(r, off8 ? 8 : 4);
    if (r->bad || header_length > (uint64_t)(r->end - r->p)) return 0;
    program = r->p + header_length;
    min_inst = (unsigned)rd_n(r, 1);
    if (version >= 4) rd_n(r, 1); /* maximum_operations_per_instruction: 1 on every target perf profiles */
    rd_n(r, 1);                   /* default_is_stmt */
    line_base = (int)(signed char)rd_n(r, 1);
    line_range = (unsigned)rd_n(r, 1);
    opcode_base = (unsigned)rd_n(r, 1);
    if (r->bad || !line_range || !opcode_base || (size_t)(r->end - r->p) < opcode_base - 1) return 0;
    std_len = r->p;
    r->p += opcode_base - 1;
    if (v5) {
        if (!v5_entries(r, sec, off8, l, 0, 0) || !v5_entries(r, sec, off8, l, 1, dir_base)) goto bad;
    } else {
        for (;;) { /* include_directories */
            size_t len;
            const char *s = rd_str(r, &len);
            if (r->bad) goto bad;
            if (!len) break;
            if (!grow((void **)&l->dirs, &l->capdirs, l->ndirs + 1, sizeof *l->dirs)) return -1;
            l->dirs[l->ndirs].s = s;
            l->dirs[l->ndirs].n = len;
            l->dirs[l->ndirs++].dir = UINT32_MAX;
        }
        for (;;) { /* file_names: dir 0 is the unit's own directory (not here) */
            size_t len;
            uint64_t d;
            const char *s = rd_str(r, &len);
            if (r->bad) goto bad;
            if (!len) break;
            d = rd_uleb(r);
            rd_uleb(r);
            rd_uleb(r);
            if (r->bad) goto bad;
            if (!grow((void **)&l->files, &l->capfiles, l->nfiles + 1, sizeof *l->files)) return -1;
            l->files[l->nfiles].s = s;
            l->files[l->nfiles].n = len;
            l->files[l->nfiles++].dir = d >= 1 && d - 1 < (uint64_t)(l->ndirs - dir_base) ? dir_base + (uint32_t)(d - 1) : UINT32_MAX;
        }
    }
    if (program > r->end) goto bad;
    pr.p = program;
    pr.end = r->end;
    pr.big = r->big;
    pr.bad = 0;
    memset(&st, 0, sizeof st);
    st.file = 1;
    st.line = 1;
    while (pr.p < pr.end && !pr.bad) {
        unsigned op = *pr.p++;
        size_t nfiles = l->nfiles - file_base;
        if (op >= opcode_base) {
            unsigned adj = op - opcode_base;
            st.addr += (uint64_t)(adj / line_range) * min_inst;
            st.line += line_base + (int)(adj % line_range);
            if (!add_row(l, &st, file_base, nfiles, v5, 0)) return -1;
            continue;
        }
        switch (op) {
        case 0: { /* extended */
            uint64_t len = rd_uleb(&pr);
            const unsigned char *next;
            unsigned sub;
            if (pr.bad || !len || len > (uint64_t)(pr.end - pr.p)) { pr.bad = 1; break; }
            next = pr.p + len;
            sub = *pr.p++;
            if (sub == 1) { /* end_sequence */
                if (!add_row(l, &st, file_base, nfiles, v5, 1)) return -1;
                memset(&st, 0, sizeof st);
                st.file = 1;
                st.line = 1;
            } else if (sub == 2) { /* set_address */
                rd sub_r = pr;
                sub_r.end = next;
                st.addr = rd_n(&sub_r, (unsigned)(len - 1 > 8 ? 8 : len - 1));
            } else if (sub == 3 && !v5) { /* define_file */
                rd sub_r = pr;
                size_t slen;
                const char *s;
                uint64_t d;
                sub_r.end = next;
                s = rd_str(&sub_r, &slen);
                d = rd_uleb(&sub_r);
                if (!sub_r.bad) {
                    if (!grow((void **)&l->files, &l->capfiles, l->nfiles + 1, sizeof *l->files)) return -1;
                    l->files[l->nfiles].s = s;
                    l->files[l->nfiles].n = slen;
                    l->files[l->nfiles++].dir = d >= 1 && d - 1 < (uint64_t)(l->ndirs - dir_base) ? dir_base + (uint32_t)(d - 1) : UINT32_MAX;
                }
            }
            pr.p = next;
            break;
        }
        case 1: if (!add_row(l, &st, file_base, nfiles, v5, 0)) return -1; break; /* copy */
        case 2: st.addr += rd_uleb(&pr) * min_inst; break;
        case 3: st.line += rd_sleb(&pr); break;
        case 4: st.file = rd_uleb(&pr); break;
        case 8: st.addr += (uint64_t)((255 - opcode_base) / line_range) * min_inst; break;
        case 9: st.addr += rd_n(&pr, 2); break;
        default:
            for (i = 0; i < std_len[op - 1] && !pr.bad; i++) rd_uleb(&pr); /* column, isa, flags...: not kept */
        }
    }
    if (pr.bad) goto bad;
    if (st.in_seq) l->nrows = st.seq_first; /* a sequence with no end: no addresses */
    return 1;
bad:
    l->nrows = nrows0;
    l->nseqs = nseqs0;
    l->nfiles = file_base;
    l->ndirs = dir_base;
    return 0;
}

static int cmp_seq(const void *a, const void *b) {
    const seq *x = (const seq *)a, *y = (const seq *)b;
    if (x->low != y->low) return x->low < y->low ? -1 : 1;
    return x->first < y->first ? -1 : x->first > y->first;
}

pd_dwarf_lines *pd_dwarf_lines_load(const pd_dwarf_sections *sec, size_t *units, size_t *bad) {
    pd_dwarf_lines *l = (pd_dwarf_lines *)calloc(1, sizeof *l);
    const unsigned char *p = sec->line, *end = sec->line + sec->line_n;
    size_t nu = 0, nb = 0;
    if (!l) return NULL;
    while (p && end - p >= 4) {
        rd r;
        uint64_t len;
        int off8 = 0, rc;
        r.p = p;
        r.end = end;
        r.big = sec->big_endian;
        r.bad = 0;
        len = rd_n(&r, 4);
        if (len == 0xffffffffu) { len = rd_n(&r, 8); off8 = 1; }
        else if (len >= 0xfffffff0u) break; /* reserved */
        if (r.bad || len > (uint64_t)(end - r.p)) { nb++; break; }
        r.end = r.p + len;
        p = r.end;
        rc = unit(l, sec, &r, off8);
        if (rc < 0) { pd_dwarf_lines_free(l); return NULL; }
        if (rc) nu++;
        else nb++;
    }
    if (l->nseqs) qsort(l->seqs, l->nseqs, sizeof *l->seqs, cmp_seq);
    if (units) *units = nu;
    if (bad) *bad = nb;
    return l;
}

void pd_dwarf_lines_free(pd_dwarf_lines *l) {
    if (!l) return;
    free(l->owned[0]);
    free(l->owned[1]);
    free(l->owned[2]);
    free(l->rows);
    free(l->seqs);
    free(l->files);
    free(l->dirs);
    free(l);
}

size_t pd_dwarf_rows(const pd_dwarf_lines *l) { return l ? l->nrows : 0; }

int pd_dwarf_lookup(const pd_dwarf_lines *l, uint64_t addr, pd_dwarf_where *where) {
    size_t lo = 0, hi, k;
    const seq *s = NULL;
    const row *rows;
    if (!l || !l->nseqs) return 0;
    hi = l->nseqs;
    while (lo < hi) { /* the first sequence starting above addr */
        size_t mid = lo + (hi - lo) / 2;
        if (l->seqs[mid].low <= addr) lo = mid + 1; else hi = mid;
    }
    for (k = lo; k-- > 0;) { /* the nearest one that runs past addr */
        if (addr < l->seqs[k].high) { s = &l->seqs[k]; break; }
        if (lo - k > 64) break; /* overlapping sequences are rare: look no further */
    }
    if (!s) return 0;
    rows = l->rows + s->first;
    lo = 0;
    hi = s->n - 1; /* the end row holds no line */
    while (lo < hi) { /* the first row above addr */
        size_t mid = lo + (hi - lo) / 2;
        if (rows[mid].addr <= addr) lo = mid + 1; else hi = mid;
    }
    if (!lo) return 0;
    {
        const row *r = &rows[lo - 1];
        const name *f = r->file < l->nfiles ? &l->files[r->file] : NULL;
        where->line = r->line;
        where->file = f ? f->s : "";
        where->file_len = f ? f->n : 0;
        where->dir = f && f->dir < l->ndirs ? l->dirs[f->dir].s : NULL;
        where->dir_len = f && f->dir < l->ndirs ? l->dirs[f->dir].n : 0;
    }
    return 1;
}

#define PD_SHF_COMPRESSED 0x800
#define PD_ELFCOMPRESS_ZLIB 1
#define PD_ELFCOMPRESS_ZSTD 2
/* a decompressed section may be this large, and this many times its
   compressed size (deflate's and zstd's own limits are about 1032 and
   above: real debug sections compress 3 to 10 times) */
#define PD_SECTION_MAX ((uint64_t)1 << 30)
#define PD_SECTION_RATIO 2048

static uint64_t chdr_word(const unsigned char *p, unsigned n, int big) {
    uint64_t v = 0;
    unsigned i;
    for (i = 0; i < n; i++) v |= (uint64_t)p[big ? n - 1 - i : i] << (8 * i);
    return v;
}

/* section name of elf, decompressed if it is compressed (into *owned) */
static int dwarf_section(const pd_elf *elf, const char *name, const unsigned char **p, size_t *n,
                         unsigned char **owned, const char **why) {
    const pd_elf_info *info = pd_elf_get_info(elf);
    uint64_t flags, type, size;
    size_t hdr = info->elf64 ? 24 : 12, got = 0;
    const unsigned char *raw;
    size_t rawn;
    unsigned char *out;
    *p = NULL;
    *n = 0;
    if (!pd_elf_section(elf, name, &raw, &rawn, &flags)) return 1; /* none: fine */
    if (!(flags & PD_SHF_COMPRESSED)) { *p = raw; *n = rawn; return 1; }
    if (rawn < hdr) { *why = "compressed section header truncated"; return 0; }
    type = chdr_word(raw, 4, info->big_endian);
    size = info->elf64 ? chdr_word(raw + 8, 8, info->big_endian) : chdr_word(raw + 4, 4, info->big_endian);
    if (size > PD_SECTION_MAX || size / PD_SECTION_RATIO > rawn) { *why = "compressed section too large"; return 0; }
    if (!(out = (unsigned char *)malloc(size ? (size_t)size : 1))) { *why = "out of memory"; return 0; }
    if (type == PD_ELFCOMPRESS_ZLIB) {
        if (pd_zlib_inflate(raw + hdr, rawn - hdr, out, (size_t)size, &got) != 0 || got != size) {
            free(out);
            *why = "zlib data of a compressed section is malformed";
            return 0;
        }
    } else if (type == PD_ELFCOMPRESS_ZSTD) {
        void *ws = malloc(PERFDATA_ZSTD_WORKSPACE_SIZE);
        perfdata_status st = ws ? perfdata_zstd_decompress(out, (size_t)size, raw + hdr, rawn - hdr, ws,
                                                           PERFDATA_ZSTD_WORKSPACE_SIZE, 0, &got, NULL)
                                : PERFDATA_ERR_NO_SPACE;
        free(ws);
        if (st != PERFDATA_OK || got != size) {
            free(out);
            *why = "zstd data of a compressed section is malformed";
            return 0;
        }
    } else {
        free(out);
        *why = "compressed section of an unknown kind";
        return 0;
    }
    *owned = out;
    *p = out;
    *n = (size_t)size;
    return 1;
}

pd_dwarf_lines *pd_dwarf_lines_elf(const struct pd_elf *elf, const char **why) {
    pd_dwarf_sections sec;
    unsigned char *owned[3] = {NULL, NULL, NULL};
    const pd_elf_info *info;
    pd_dwarf_lines *l;
    const char *dummy;
    if (!why) why = &dummy;
    *why = NULL;
    if (!elf) { *why = "no file"; return NULL; }
    info = pd_elf_get_info(elf);
    memset(&sec, 0, sizeof sec);
    sec.big_endian = info->big_endian;
    sec.addr_size = info->elf64 ? 8 : 4;
    if (!dwarf_section(elf, ".debug_line", &sec.line, &sec.line_n, &owned[0], why) ||
        !dwarf_section(elf, ".debug_line_str", &sec.line_str, &sec.line_str_n, &owned[1], why) ||
        !dwarf_section(elf, ".debug_str", &sec.str, &sec.str_n, &owned[2], why)) {
        free(owned[0]);
        free(owned[1]);
        free(owned[2]);
        return NULL;
    }
    if (!sec.line_n) {
        *why = "no .debug_line";
        free(owned[1]);
        free(owned[2]);
        return NULL;
    }
    if (!(l = pd_dwarf_lines_load(&sec, NULL, NULL))) {
        *why = "out of memory";
        free(owned[0]);
        free(owned[1]);
        free(owned[2]);
        return NULL;
    }
    memcpy(l->owned, owned, sizeof owned);
    return l;
}
