/* pd_dwarf.c - see pd_dwarf.h. One pass over .debug_line runs every unit's
   line program and keeps its rows by sequence; a lookup finds the sequence
   by binary search, then the row. Memory grows with the section (a row
   needs at least one opcode byte), never with a count read from it. */
#include "pd_dwarf.h"
#include "pd_elf.h"
#include "pd_inflate.h"
#include "pd_intern.h"
#ifndef PERFDATA_ZSTD
#define PERFDATA_ZSTD /* the header's zstd decoder (the tools build it in pd_tool.c) */
#endif
#include "perfdata.h"

#include <stdlib.h>
#include <string.h>

/* A row's file: its index in files (ROW_NO_FILE: none), and ROW_INITIAL
   when a DWARF 5 sequence had not set the file register yet: binutils
   (2.40's decode_line_info) starts that register at entry 0 there, where
   the standard (and llvm) start it at 1. */
#define ROW_INITIAL 0x80000000u
#define ROW_NO_FILE 0x7fffffffu
typedef struct row { uint64_t addr; uint32_t file, line; } row;
typedef struct seq {
    uint64_t low, high;
    size_t first, n;
    uint32_t file0;             /* binutils' initial file */
    uint32_t dir0;              /* a DWARF 5 unit's directory 0 (its DW_AT_comp_dir), or ROW_NO_FILE */
    uint32_t unit;              /* its unit in units */
} seq;
typedef struct name { const char *s; size_t n; uint32_t dir; } name;
typedef struct lunit {
    uint64_t offset;
    uint32_t file_base, nfiles;
    int v5;
    const char *comp_dir;       /* before DWARF 5, directory 0: its compile unit's DW_AT_comp_dir
                                   (pd_dwarf_open_lines reads it), or NULL */
    size_t comp_dir_n;
} lunit;

struct pd_dwarf_lines {
    unsigned char *owned[3];    /* sections decompressed for it: .debug_line, .debug_line_str, .debug_str */
    size_t owned_n[3];
    const struct pd_elf *elf;   /* the file they are of */
    row *rows;
    size_t nrows, caprows;
    seq *seqs;
    size_t nseqs, capseqs;
    name *files, *dirs;
    size_t nfiles, capfiles, ndirs, capdirs;
    lunit *units;               /* by offset in .debug_line (ascending: read in order): where a unit's files are */
    size_t nunits, capunits;
    size_t bad_units;           /* units left out as malformed */
    /* the special opcodes' advances for the last header's parameters
       (units of one file share them): no division per row */
    int sp_valid, sp_line_base;
    unsigned sp_opcode_base, sp_line_range, sp_min_inst;
    uint32_t sp_addr[256];
    int32_t sp_line[256];
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
    int file_set;               /* DW_LNS_set_file ran in this sequence */
    uint32_t dir_base;          /* the unit's first directory */
    uint64_t line;              /* modulo 2^64: a line program may run it anywhere */
    size_t seq_first;           /* this sequence's first row */
    int in_seq;
    uint32_t rfile;             /* the rows' file (row_file), kept while the file register and the files stay */
} state;

/* the file a row takes: an index in files, ROW_NO_FILE, with ROW_INITIAL */
static uint32_t row_file(const state *st, uint32_t file_base, size_t nfiles, int v5) {
    uint64_t f = st->file;
    uint32_t file;
    if (v5) file = f < nfiles && file_base + f < ROW_NO_FILE ? file_base + (uint32_t)f : ROW_NO_FILE;
    else file = f >= 1 && f <= nfiles && file_base + f - 1 < ROW_NO_FILE ? file_base + (uint32_t)(f - 1) : ROW_NO_FILE;
    if (v5 && !st->file_set) file |= ROW_INITIAL;
    return file;
}

static inline int add_row(pd_dwarf_lines *l, state *st, uint32_t file_base, size_t nfiles, int v5, int end) {
    row *r;
    uint32_t file = st->rfile, line = st->line <= UINT32_MAX ? (uint32_t)st->line : 0;
    if (!st->in_seq) { st->seq_first = l->nrows; st->in_seq = 1; }
    /* of rows at one address the last stands (binutils, PR ld/4986); a
       row that says what the row before it says adds nothing a lookup
       can tell (it answers with the nearest row at or below an address) */
    if (!end && l->nrows > st->seq_first && l->rows[l->nrows - 1].addr == st->addr) {
        r = &l->rows[l->nrows - 1];
    } else if (!end && l->nrows > st->seq_first && l->rows[l->nrows - 1].addr < st->addr &&
               l->rows[l->nrows - 1].file == file && l->rows[l->nrows - 1].line == line) {
        return 1;
    } else {
        if (l->nrows == l->caprows && !grow((void **)&l->rows, &l->caprows, l->nrows + 1, sizeof *l->rows)) return 0;
        r = &l->rows[l->nrows++];
    }
    r->addr = st->addr;
    r->file = file;
    r->line = line;
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
        s->file0 = v5 && nfiles && file_base < ROW_NO_FILE ? file_base : ROW_NO_FILE;
        s->dir0 = v5 && st->dir_base < l->ndirs && st->dir_base < ROW_NO_FILE ? st->dir_base : ROW_NO_FILE;
        s->unit = (uint32_t)l->nunits; /* the unit being read: it is added last */
    }
    return 1;
}

/* One unit at r (its unit_length read by the caller): 1 read, 0 left out,
   -1 out of memory. */
static int unit(pd_dwarf_lines *l, const pd_dwarf_sections *sec, rd *r, int off8, uint64_t offset) {
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
    if (!l->sp_valid || l->sp_opcode_base != opcode_base || l->sp_line_base != line_base ||
        l->sp_line_range != line_range || l->sp_min_inst != min_inst) {
        for (i = opcode_base; i < 256; i++) {
            l->sp_addr[i] = ((i - opcode_base) / line_range) * min_inst;
            l->sp_line[i] = line_base + (int)((i - opcode_base) % line_range);
        }
        l->sp_valid = 1;
        l->sp_opcode_base = opcode_base;
        l->sp_line_base = line_base;
        l->sp_line_range = line_range;
        l->sp_min_inst = min_inst;
    }
    memset(&st, 0, sizeof st);
    st.file = 1;
    st.line = 1;
    st.dir_base = dir_base;
    st.rfile = row_file(&st, file_base, l->nfiles - file_base, v5);
    while (pr.p < pr.end && !pr.bad) {
        unsigned op = *pr.p++;
        size_t nfiles = l->nfiles - file_base;
        if (op >= opcode_base) {
            st.addr += l->sp_addr[op];
            st.line += (uint64_t)(int64_t)l->sp_line[op];
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
                st.dir_base = dir_base;
                st.rfile = row_file(&st, file_base, nfiles, v5);
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
                    st.rfile = row_file(&st, file_base, l->nfiles - file_base, v5);
                }
            }
            pr.p = next;
            break;
        }
        case 1: if (!add_row(l, &st, file_base, nfiles, v5, 0)) return -1; break; /* copy */
        case 2: st.addr += rd_uleb(&pr) * min_inst; break;
        case 3: st.line += (uint64_t)rd_sleb(&pr); break;
        case 4:
            st.file = rd_uleb(&pr);
            st.file_set = 1;
            st.rfile = row_file(&st, file_base, nfiles, v5);
            break;
        case 8: st.addr += (uint64_t)((255 - opcode_base) / line_range) * min_inst; break;
        case 9: st.addr += rd_n(&pr, 2); break;
        default:
            for (i = 0; i < std_len[op - 1] && !pr.bad; i++) rd_uleb(&pr); /* column, isa, flags...: not kept */
        }
    }
    if (pr.bad) goto bad;
    if (st.in_seq) l->nrows = st.seq_first; /* a sequence with no end: no addresses */
    if (!grow((void **)&l->units, &l->capunits, l->nunits + 1, sizeof *l->units)) return -1;
    l->units[l->nunits].offset = offset;
    l->units[l->nunits].comp_dir = NULL;
    l->units[l->nunits].comp_dir_n = 0;
    l->units[l->nunits].file_base = file_base;
    l->units[l->nunits].nfiles = (uint32_t)(l->nfiles - file_base);
    l->units[l->nunits++].v5 = v5;
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
        else if (len >= 0xfffffff0u) { nb++; break; } /* reserved: the rest is unreadable */
        if (r.bad || len > (uint64_t)(end - r.p)) { nb++; break; }
        r.end = r.p + len;
        p = r.end;
        rc = unit(l, sec, &r, off8, (uint64_t)(r.p - 4 - (off8 ? 8 : 0) - sec->line));
        if (rc < 0) { pd_dwarf_lines_free(l); return NULL; }
        if (rc) nu++;
        else nb++;
    }
    if (l->nseqs) qsort(l->seqs, l->nseqs, sizeof *l->seqs, cmp_seq);
    if (l->nrows && l->nrows < l->caprows) { /* the rows grew by doubling: what is left over goes back */
        row *v = (row *)realloc(l->rows, l->nrows * sizeof *l->rows);
        if (v) {
            l->rows = v;
            l->caprows = l->nrows;
        }
    }
    if (units) *units = nu;
    if (bad) *bad = nb;
    l->bad_units = nb;
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
    free(l->units);
    free(l);
}

size_t pd_dwarf_bad_units(const pd_dwarf_lines *l) { return l ? l->bad_units : 0; }

size_t pd_dwarf_rows(const pd_dwarf_lines *l) { return l ? l->nrows : 0; }

static int lookup(const pd_dwarf_lines *l, uint64_t addr, pd_dwarf_where *where, int binutils);
int pd_dwarf_lookup(const pd_dwarf_lines *l, uint64_t addr, pd_dwarf_where *where) {
    return lookup(l, addr, where, 1);
}
static int lookup(const pd_dwarf_lines *l, uint64_t addr, pd_dwarf_where *where, int binutils) {
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
        uint32_t file = binutils && (r->file & ROW_INITIAL) ? s->file0 : r->file & ~ROW_INITIAL;
        const name *f = file < l->nfiles ? &l->files[file] : NULL;
        where->line = r->line;
        where->file = f ? f->s : "";
        where->file_len = f ? f->n : 0;
        where->dir = f && f->dir < l->ndirs ? l->dirs[f->dir].s : NULL;
        where->dir_len = f && f->dir < l->ndirs ? l->dirs[f->dir].n : 0;
        where->comp_dir = s->dir0 < l->ndirs ? l->dirs[s->dir0].s : NULL;
        where->comp_dir_len = s->dir0 < l->ndirs ? l->dirs[s->dir0].n : 0;
        if (s->dir0 == ROW_NO_FILE && s->unit < l->nunits && l->units[s->unit].comp_dir) {
            where->comp_dir = l->units[s->unit].comp_dir;
            where->comp_dir_len = l->units[s->unit].comp_dir_n;
        }
    }
    return 1;
}

/* binutils' concat_filename: a relative file below its directory, and a
   relative directory below the unit's compilation directory */
size_t pd_dwarf_path(const pd_dwarf_where *w, char *buf, size_t cap) {
    const char *part[3];
    size_t len[3], n = 0, at = 0, i, k;
    if (!cap) return 0;
    if (!(w->file_len && w->file[0] == '/')) {
        if (w->dir && w->dir_len && w->dir[0] == '/') {
            part[n] = w->dir; len[n++] = w->dir_len;
        } else {
            if (w->comp_dir && w->comp_dir_len) { part[n] = w->comp_dir; len[n++] = w->comp_dir_len; }
            if (w->dir && w->dir_len) { part[n] = w->dir; len[n++] = w->dir_len; }
        }
    }
    part[n] = w->file; len[n++] = w->file_len;
    for (i = 0; i < n; i++) {
        if (i && at < cap - 1) buf[at++] = '/';
        for (k = 0; k < len[i] && at < cap - 1; k++) buf[at++] = part[i][k];
    }
    buf[at] = 0;
    return at;
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
        free(owned[0]); /* a compressed one of size 0 */
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
    l->owned_n[0] = sec.line_n;
    l->owned_n[1] = sec.line_str_n;
    l->owned_n[2] = sec.str_n;
    l->elf = elf;
    pd_elf_release_pages(elf); /* the rows are made: the sections' pages can go */
    return l;
}

/* ------------------------------------------------------------ .debug_info */

/* Functions and their inlined calls: every DW_TAG_subprogram and
   DW_TAG_inlined_subroutine with code addresses becomes a scope (one per
   address range) pointing at its entry; an entry keeps its parent (the
   enclosing function entry), its name (followed through
   DW_AT_abstract_origin and DW_AT_specification when it has none) and,
   for an inlined call, the call site. An address's frames are the
   innermost scope holding it and its parents. */

enum {
    TAG_compile_unit = 0x11, TAG_partial_unit = 0x3c, TAG_subprogram = 0x2e, TAG_inlined_subroutine = 0x1d,
    AT_name = 0x03, AT_comp_dir = 0x1b, AT_low_pc = 0x11, AT_high_pc = 0x12, AT_ranges = 0x55, AT_stmt_list = 0x10,
    AT_abstract_origin = 0x31, AT_specification = 0x47, AT_linkage_name = 0x6e, AT_MIPS_linkage_name = 0x2007,
    AT_call_file = 0x58, AT_call_line = 0x59, AT_str_offsets_base = 0x72, AT_addr_base = 0x73,
    AT_rnglists_base = 0x74, AT_GNU_ranges_base = 0x2132
};

/* Small, as a file's abbreviations are many (libc's: a million attribute
   specifications): attribute and form numbers past 16 bits (none is
   defined) read as 0xffff, which no case takes (an unknown form fails the
   entry, as it would); an implicit constant's value is in implicits. */
typedef struct abbrev_attr { uint16_t attr, form; uint32_t implicit; } abbrev_attr;
typedef struct abbrev { uint64_t code; uint32_t tag; uint32_t first, n; unsigned char children; } abbrev;
typedef struct abbrev_table { uint64_t offset; size_t first, n; } abbrev_table;

typedef struct cu {
    uint64_t start, end;        /* the unit in .debug_info, header included */
    const unsigned char *dies;  /* its first entry */
    uint64_t abbr_off;          /* its abbreviations in .debug_abbrev */
    size_t table;               /* their table, TABLE_UNREAD until an entry past the first is read, or TABLE_BAD */
    unsigned version, addr_size;
    int off8;
    uint64_t str_offsets_base, addr_base, rnglists_base, low_pc;
    uint32_t file_base, nfiles; /* its line table's files */
    int v5_files, has_lines;
    int plain_is_linkage;       /* binutils: a DW_AT_name stands for the symbol (C and the like) */
    const char *comp_dir;       /* its DW_AT_comp_dir (directory 0 before DWARF 5), or NULL */
    size_t comp_dir_n;
    int walked;                 /* its entries read (walk_unit): scopes[scope_first..+scope_n] */
    uint32_t stamp;             /* the last lookup that searched it */
    size_t scope_first, scope_n;
} cu;

typedef struct fentry {
    uint64_t die;               /* offset in .debug_info */
    uint64_t low;               /* its first range's start (binutils' arange.low) */
    int32_t parent;             /* index of the enclosing function entry, -1 */
    uint32_t depth;             /* how many enclosing function entries */
    uint32_t cu;
    uint32_t call_file, call_line;
    int inlined;
} fentry;

typedef struct scope { uint64_t low, high, reach; uint32_t entry, depth; } scope;

/* scopes looked at, at most, before an address's innermost is taken:
   real code nests a few dozen deep and starts its scopes in order */
#define PD_DWARF_SCAN 4096
/* entries nested deeper than this in a unit are left out (perf lists 1025
   frames of an address at most) */
#define WALK_DEPTH 1100

struct pd_dwarf {
    const struct pd_elf *elf;   /* the file read (its pages are given back: pd_elf_release_range) */
    pd_dwarf_lines *lines;
    int lines_borrowed;         /* the caller's (pd_dwarf_open_lines): not freed here */
    pd_dwarf_sections sec;
    const unsigned char *info, *abbr, *str_offsets, *addr, *ranges, *rnglists;
    size_t info_n, abbr_n, str_offsets_n, addr_n, ranges_n, rnglists_n;
    unsigned char *owned[8];     /* sections decompressed for it */
    abbrev_attr *attrs;
    size_t nattrs, capattrs;
    int64_t *implicits;         /* DW_FORM_implicit_const values, by abbrev_attr.implicit */
    size_t nimplicits, capimplicits;
    abbrev *abbrevs;
    size_t nabbrevs, capabbrevs;
    abbrev_table *tables;
    size_t ntables, captables;
    uint32_t *table_slots;      /* index + 1 into tables, open addressing on the offset */
    size_t captable_slots;
    cu *cus;
    size_t ncus, capcus;
    fentry *entries;
    size_t nentries, capentries;
    scope *scopes;              /* each walked unit's, sorted, one after the other */
    size_t nscopes, capscopes;
    scope *unit_ranges;         /* the units' address ranges (entry: the unit's index), sorted */
    size_t nunit_ranges, capunit_ranges;
    uint32_t *everywhere;       /* units that say no range: walked at once, */
    size_t neverywhere, capeverywhere;
    size_t every_first, every_n; /* their scopes, sorted together, searched for every address */
    size_t ranges_left;         /* range list entries still to be read: a bound on what lists shared by
                                   many entries may cost (a few times what the sections can hold) */
    uint32_t stamp;             /* pd_dwarf_frames' lookups, counted: a unit is searched once in each */
    size_t partial_read;        /* bytes of .debug_abbrev read for tables not kept (abbrev_table_for's until) */
    int cut;                    /* a bound left entries or ranges out (pd_dwarf_cut) */
};

static int cmp_abbrev(const void *a, const void *b) {
    const abbrev *x = (const abbrev *)a, *y = (const abbrev *)b;
    return x->code < y->code ? -1 : x->code > y->code;
}

#define TABLE_BAD ((size_t)-1)
#define TABLE_UNREAD ((size_t)-2)

/* The table of the abbreviations at offset, read once: units share them,
   found by a hash of the offset. With until (a unit's first entry's code),
   a table read only as far as that code and not kept (the caller drops
   it by taking the counts back): most units' entries past their first are
   never read. TABLE_BAD when it cannot be had. */
static size_t abbrev_table_for(struct pd_dwarf *d, uint64_t offset, uint64_t until) {
    size_t i, slot;
    rd r;
    if (d->ntables * 2 >= d->captable_slots) {
        size_t cap = d->captable_slots ? d->captable_slots * 2 : 64, k;
        uint32_t *t = (uint32_t *)calloc(cap, sizeof *t);
        if (!t) return (size_t)-1;
        for (k = 0; k < d->ntables; k++) {
            slot = (size_t)pd_hash_u64(d->tables[k].offset) & (cap - 1);
            while (t[slot]) slot = (slot + 1) & (cap - 1);
            t[slot] = (uint32_t)k + 1;
        }
        free(d->table_slots);
        d->table_slots = t;
        d->captable_slots = cap;
    }
    for (slot = (size_t)pd_hash_u64(offset) & (d->captable_slots - 1); (i = d->table_slots[slot]) != 0;
         slot = (slot + 1) & (d->captable_slots - 1))
        if (d->tables && d->tables[i - 1].offset == offset) return i - 1;
    if (d->ntables >= UINT32_MAX - 2) return TABLE_BAD;
    if (offset >= d->abbr_n) return TABLE_BAD;
    if (!grow((void **)&d->tables, &d->captables, d->ntables + 1, sizeof *d->tables)) return TABLE_BAD;
    d->tables[d->ntables].offset = offset;
    d->tables[d->ntables].first = d->nabbrevs;
    r.p = d->abbr + offset;
    r.end = d->abbr + d->abbr_n;
    r.big = d->sec.big_endian;
    r.bad = 0;
    for (;;) {
        abbrev a;
        a.code = rd_uleb(&r);
        if (r.bad || !a.code) break;
        a.tag = (uint32_t)rd_uleb(&r);
        a.children = rd_n(&r, 1) != 0;
        if (d->nattrs >= UINT32_MAX - 1) return TABLE_BAD; /* first and n are 32 bits */
        a.first = (uint32_t)d->nattrs;
        for (;;) {
            abbrev_attr at;
            uint64_t attr = rd_uleb(&r), form = rd_uleb(&r);
            int64_t implicit = form == 0x21 ? rd_sleb(&r) : 0;
            if (r.bad || (!attr && !form)) break;
            at.attr = (uint16_t)(attr > 0xffff ? 0xffff : attr);
            at.form = (uint16_t)(form > 0xffff ? 0xffff : form);
            at.implicit = 0;
            if (form == 0x21) {
                if (d->nimplicits >= UINT32_MAX ||
                    !grow((void **)&d->implicits, &d->capimplicits, d->nimplicits + 1, sizeof *d->implicits))
                    return TABLE_BAD;
                at.implicit = (uint32_t)d->nimplicits;
                d->implicits[d->nimplicits++] = implicit;
            }
            if (d->nattrs >= UINT32_MAX - 1 ||
                !grow((void **)&d->attrs, &d->capattrs, d->nattrs + 1, sizeof *d->attrs))
                return TABLE_BAD;
            d->attrs[d->nattrs++] = at;
        }
        a.n = (uint32_t)(d->nattrs - a.first);
        if (r.bad) break;
        if (!grow((void **)&d->abbrevs, &d->capabbrevs, d->nabbrevs + 1, sizeof *d->abbrevs)) return TABLE_BAD;
        d->abbrevs[d->nabbrevs++] = a;
        if (until && a.code == until) break;
    }
    if (until) d->partial_read += (size_t)(r.p - (d->abbr + offset));
    d->tables[d->ntables].n = d->nabbrevs - d->tables[d->ntables].first;
    /* by code, for a binary search (codes are mostly 1, 2, 3...: sorted already) */
    if (d->abbrevs && d->tables[d->ntables].n)
        qsort(d->abbrevs + d->tables[d->ntables].first, d->tables[d->ntables].n, sizeof *d->abbrevs, cmp_abbrev);
    if (!until) d->table_slots[slot] = (uint32_t)d->ntables + 1;
    return d->ntables++;
}

/* u's table, read on first use: 0 when it cannot be */
static int unit_table(struct pd_dwarf *d, cu *u) {
    if (u->table == TABLE_UNREAD) u->table = abbrev_table_for(d, u->abbr_off, 0);
    return u->table != TABLE_BAD;
}

static const abbrev *abbrev_find(const struct pd_dwarf *d, size_t table, uint64_t code) {
    const abbrev_table *t = &d->tables[table];
    const abbrev *a;
    size_t lo = 0, hi = t->n;
    if (!t->n || !d->abbrevs) return NULL; /* an empty table */
    a = d->abbrevs + t->first;
    if (code >= 1 && code <= t->n && a[code - 1].code == code) return &a[code - 1];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid].code < code) lo = mid + 1; else hi = mid;
    }
    return lo < t->n && a[lo].code == code ? &a[lo] : NULL;
}

/* what one entry says, of the attributes read here */
typedef struct die {
    uint64_t offset;
    uint32_t tag;
    int children;
    const char *name, *linkage, *comp_dir;
    size_t name_n, linkage_n, comp_dir_n;
    uint64_t low, high, ranges, origin, spec, call_file, call_line, stmt_list;
    int has_low, has_high, high_is_offset, has_ranges, ranges_is_index, has_origin, has_spec, has_stmt;
    uint64_t str_offsets_base, addr_base, rnglists_base;
    int has_str_offsets_base, has_addr_base, has_rnglists_base;
    uint64_t language;
} die;

static const char *strx(const struct pd_dwarf *d, const cu *u, uint64_t index, size_t *len) {
    unsigned w = u->off8 ? 8 : 4;
    uint64_t at;
    rd r;
    if (!d->str_offsets || u->str_offsets_base > d->str_offsets_n || index > (d->str_offsets_n - u->str_offsets_base) / w)
        return NULL;
    at = u->str_offsets_base + index * w;
    if (at + w > d->str_offsets_n) return NULL;
    r.p = d->str_offsets + at;
    r.end = d->str_offsets + d->str_offsets_n;
    r.big = d->sec.big_endian;
    r.bad = 0;
    return str_at(d->sec.str, d->sec.str_n, rd_n(&r, w), len);
}

static int addrx(const struct pd_dwarf *d, const cu *u, uint64_t index, uint64_t *out) {
    rd r;
    if (!d->addr || u->addr_base > d->addr_n || index > (d->addr_n - u->addr_base) / u->addr_size) return 0;
    r.p = d->addr + u->addr_base + index * u->addr_size;
    r.end = d->addr + d->addr_n;
    r.big = d->sec.big_endian;
    r.bad = 0;
    *out = rd_n(&r, u->addr_size);
    return !r.bad;
}

/* Reads the entry at r (in unit u); 0 at a null entry or a fault (r->bad). */
/* Steps over the attributes of an entry of abbreviation a, as read_die
   reads them (the same bytes, the same forms refused), keeping nothing. */
static int skip_attrs(const struct pd_dwarf *d, const cu *u, rd *r, const abbrev *a) {
    size_t i;
    unsigned off = u->off8 ? 8 : 4;
    for (i = 0; i < a->n && !r->bad; i++) {
        uint32_t form = d->attrs[a->first + i].form;
        size_t skip = 0;
        uint64_t v;
        if (form == 0x16) form = (uint32_t)rd_uleb(r); /* indirect */
        switch (form) {
        case 0x01: skip = u->addr_size; break;
        case 0x03: case 0x04: case 0x0a: /* block2, block4, block1 */
            v = rd_n(r, form == 0x03 ? 2 : form == 0x04 ? 4 : 1);
            if (v > (uint64_t)(r->end - r->p)) r->bad = 1; else r->p += v;
            break;
        case 0x09: case 0x18: /* block, exprloc */
            v = rd_uleb(r);
            if (v > (uint64_t)(r->end - r->p)) r->bad = 1; else r->p += v;
            break;
        case 0x0b: case 0x0c: case 0x11: case 0x25: case 0x29: skip = 1; break;
        case 0x05: case 0x12: case 0x26: case 0x2a: skip = 2; break;
        case 0x27: case 0x2b: skip = 3; break;
        case 0x06: case 0x13: case 0x1c: case 0x28: case 0x2c: skip = 4; break;
        case 0x07: case 0x14: case 0x20: case 0x24: skip = 8; break;
        case 0x1e: skip = 16; break;
        case 0x0e: case 0x17: case 0x1d: case 0x1f: case 0x1f20: case 0x1f21: skip = off; break;
        case 0x10: skip = u->version <= 2 ? u->addr_size : off; break; /* ref_addr */
        case 0x08: { size_t len; rd_str(r, &len); break; }
        case 0x0d: rd_sleb(r); break;
        case 0x0f: case 0x15: case 0x1a: case 0x1b: case 0x22: case 0x23: case 0x1f01: case 0x1f02: rd_uleb(r); break;
        case 0x19: case 0x21: break; /* flag_present, implicit_const: no bytes */
        default: r->bad = 1; return 0;
        }
        if (skip) {
            if ((size_t)(r->end - r->p) < skip) { r->bad = 1; r->p = r->end; return 0; }
            r->p += skip;
        }
    }
    return !r->bad;
}

/* An entry as walk_cu needs it: whole where it is a function or an
   inlined call, else its tag and whether it has children (0 at a null
   entry or when malformed, as read_die) */
static int read_die(struct pd_dwarf *d, cu *u, rd *r, die *e);
static int walk_die(struct pd_dwarf *d, cu *u, rd *r, die *e) {
    const abbrev *a;
    const unsigned char *at = r->p;
    uint64_t code = at < r->end && *at < 0x80 ? *at : 0;
    if (!code || !unit_table(d, u) || !(a = abbrev_find(d, u->table, code)) ||
        a->tag == TAG_subprogram || a->tag == TAG_inlined_subroutine)
        return read_die(d, u, r, e);
    r->p++;
    e->offset = (uint64_t)(at - d->info);
    e->tag = a->tag;
    e->children = a->children;
    e->has_low = e->has_ranges = 0;
    return skip_attrs(d, u, r, a);
}

static int read_die(struct pd_dwarf *d, cu *u, rd *r, die *e) {
    const abbrev *a;
    uint64_t code;
    size_t i;
    memset(e, 0, sizeof *e);
    e->offset = (uint64_t)(r->p - d->info);
    code = rd_uleb(r);
    if (r->bad || !code) return 0;
    if (!unit_table(d, u) || !(a = abbrev_find(d, u->table, code))) { r->bad = 1; return 0; }
    e->tag = a->tag;
    e->children = a->children;
    for (i = 0; i < a->n && !r->bad; i++) {
        const abbrev_attr *at = &d->attrs[a->first + i];
        uint32_t form = at->form;
        uint64_t v = 0;
        const char *s = NULL;
        size_t slen = 0;
        int is_ref = 0, is_str = 0, is_addr = 0, is_index = 0, is_data = 0;
        if (form == 0x16) form = (uint32_t)rd_uleb(r); /* indirect */
        switch (form) {
        case 0x01: v = rd_n(r, u->addr_size); is_addr = 1; break;                     /* addr */
        case 0x03: v = rd_n(r, 2); if (v > (uint64_t)(r->end - r->p)) r->bad = 1; else r->p += v; break;
        case 0x04: v = rd_n(r, 4); if (v > (uint64_t)(r->end - r->p)) r->bad = 1; else r->p += v; break;
        case 0x05: v = rd_n(r, 2); is_data = 1; break;
        case 0x06: v = rd_n(r, 4); is_data = 1; break;
        case 0x07: v = rd_n(r, 8); is_data = 1; break;
        case 0x08: s = rd_str(r, &slen); is_str = 1; break;                                /* string */
        case 0x09: case 0x18: v = rd_uleb(r); if (v > (uint64_t)(r->end - r->p)) r->bad = 1; else r->p += v; break;
        case 0x0a: v = rd_n(r, 1); if (v > (uint64_t)(r->end - r->p)) r->bad = 1; else r->p += v; break;
        case 0x0b: v = rd_n(r, 1); is_data = 1; break;
        case 0x0c: v = rd_n(r, 1); break;
        case 0x0d: v = (uint64_t)rd_sleb(r); is_data = 1; break;
        case 0x0e: s = str_at(d->sec.str, d->sec.str_n, rd_n(r, u->off8 ? 8 : 4), &slen); is_str = 1; break;
        case 0x0f: v = rd_uleb(r); is_data = 1; break;
        case 0x10: v = rd_n(r, u->version <= 2 ? u->addr_size : (u->off8 ? 8 : 4)); is_ref = 2; break; /* ref_addr */
        case 0x11: v = rd_n(r, 1) + u->start; is_ref = 1; break;
        case 0x12: v = rd_n(r, 2) + u->start; is_ref = 1; break;
        case 0x13: v = rd_n(r, 4) + u->start; is_ref = 1; break;
        case 0x14: v = rd_n(r, 8) + u->start; is_ref = 1; break;
        case 0x15: v = rd_uleb(r) + u->start; is_ref = 1; break;
        case 0x17: v = rd_n(r, u->off8 ? 8 : 4); is_data = 1; break;                         /* sec_offset */
        case 0x19: v = 1; break;                                                              /* flag_present */
        case 0x1a: s = strx(d, u, rd_uleb(r), &slen); is_str = 1; break;                      /* strx */
        case 0x1b: v = rd_uleb(r); is_index = 1; break;                                       /* addrx */
        case 0x1c: rd_n(r, 4); break;
        case 0x1d: rd_n(r, u->off8 ? 8 : 4); break;                                           /* strp_sup */
        case 0x1e: rd_n(r, 8); rd_n(r, 8); break;
        case 0x1f: s = str_at(d->sec.line_str, d->sec.line_str_n, rd_n(r, u->off8 ? 8 : 4), &slen); is_str = 1; break;
        case 0x20: rd_n(r, 8); break;                                                         /* ref_sig8 */
        case 0x21: /* its value is the specification's (0 where an indirect form names it) */
            v = at->form == 0x21 && d->implicits ? (uint64_t)d->implicits[at->implicit] : 0;
            is_data = 1;
            break;
        case 0x22: rd_uleb(r); break;                                                         /* loclistx */
        case 0x23: v = rd_uleb(r); is_index = 2; break;                                       /* rnglistx */
        case 0x24: rd_n(r, 8); break;
        case 0x25: case 0x26: case 0x27: case 0x28:
            s = strx(d, u, rd_n(r, form - 0x24 == 3 ? 3 : form == 0x28 ? 4 : form - 0x24), &slen);
            is_str = 1;
            break;
        case 0x29: case 0x2a: case 0x2b: case 0x2c:
            v = rd_n(r, form == 0x2b ? 3 : form == 0x2c ? 4 : form - 0x28);
            is_index = 1;
            break;
        case 0x1f01: v = rd_uleb(r); is_index = 1; break;
        case 0x1f02: s = strx(d, u, rd_uleb(r), &slen); is_str = 1; break;
        case 0x1f20: case 0x1f21: rd_n(r, u->off8 ? 8 : 4); break;                            /* alt files: not read */
        default: r->bad = 1; return 0;
        }
        if (r->bad) return 0;
        switch (at->attr) {
        case AT_name: if (is_str && s) { e->name = s; e->name_n = slen; } break;
        case AT_comp_dir: if (is_str && s) { e->comp_dir = s; e->comp_dir_n = slen; } break;
        case AT_linkage_name: case AT_MIPS_linkage_name: if (is_str && s) { e->linkage = s; e->linkage_n = slen; } break;
        case AT_low_pc:
            if (is_addr) { e->low = v; e->has_low = 1; }
            else if (is_index == 1 && addrx(d, u, v, &e->low)) e->has_low = 1;
            break;
        case AT_high_pc:
            if (is_addr) { e->high = v; e->has_high = 1; }
            else if (is_index == 1 && addrx(d, u, v, &e->high)) e->has_high = 1;
            else if (is_data) { e->high = v; e->has_high = 1; e->high_is_offset = 1; }
            break;
        case AT_ranges:
            if (is_data || is_index == 2) { e->ranges = v; e->has_ranges = 1; e->ranges_is_index = is_index == 2; }
            break;
        case AT_abstract_origin: if (is_ref) { e->origin = v; e->has_origin = 1; } break;
        case AT_specification: if (is_ref) { e->spec = v; e->has_spec = 1; } break;
        case AT_call_file: if (is_data) e->call_file = v; break;
        case AT_call_line: if (is_data) e->call_line = v; break;
        case AT_stmt_list: if (is_data) { e->stmt_list = v; e->has_stmt = 1; } break;
        case 0x13: if (is_data) e->language = v; break; /* DW_AT_language */
        case AT_str_offsets_base: if (is_data) { e->str_offsets_base = v; e->has_str_offsets_base = 1; } break;
        case AT_addr_base: case 0x2133: if (is_data) { e->addr_base = v; e->has_addr_base = 1; } break;
        case AT_rnglists_base: if (is_data) { e->rnglists_base = v; e->has_rnglists_base = 1; } break;
        default: break;
        }
    }
    return !r->bad;
}

static cu *cu_of(struct pd_dwarf *d, uint64_t offset) {
    size_t lo = 0, hi = d->ncus;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->cus[mid].start <= offset) lo = mid + 1; else hi = mid;
    }
    return lo && offset < d->cus[lo - 1].end ? &d->cus[lo - 1] : NULL;
}

static int die_at(struct pd_dwarf *d, uint64_t offset, die *e, cu **u) {
    rd r;
    if (!(*u = cu_of(d, offset)) || offset < (uint64_t)((*u)->dies - d->info)) return 0;
    r.p = d->info + offset;
    r.end = d->info + (*u)->end;
    r.big = d->sec.big_endian;
    r.bad = 0;
    return read_die(d, *u, &r, e);
}

/* the name shown for a function entry: its linkage name (mangled) or name,
   else its abstract origin's or specification's, a few steps at most */
/* binutils' mangle_style (bfd/dwarf2.c) is 0 for these languages: there
   a function's DW_AT_name is its symbol's name */
static int plain_language(uint64_t lang) {
    switch (lang) {
    case 0x1: case 0x2: case 0x5: case 0x6: case 0x7: case 0x9: case 0xc: case 0xf: case 0x12: case 0x1d:
    case 0x8001: case 0x8006: case 0x8007: case 0x8008: case 0x8765:
        return 1;
    default:
        return 0;
    }
}

static int entry_name(struct pd_dwarf *d, uint64_t offset, const char **name, size_t *len, int *linkage) {
    int steps, plain_linkage = 0;
    const char *plain = NULL;
    size_t plain_n = 0;
    for (steps = 0; steps < 8; steps++) {
        die e;
        cu *u;
        if (!die_at(d, offset, &e, &u)) break;
        if (e.linkage) { *name = e.linkage; *len = e.linkage_n; *linkage = 1; return 1; }
        if (e.name && !plain) { plain = e.name; plain_n = e.name_n; plain_linkage = u->plain_is_linkage; }
        if (e.has_origin) offset = e.origin;
        else if (e.has_spec) offset = e.spec;
        else break;
    }
    if (!plain) return 0;
    *name = plain;
    *len = plain_n;
    *linkage = plain_linkage;
    return 1;
}

/* a list of scopes: the entries' (d->scopes) or the units' (d->unit_ranges) */
typedef struct scope_list { scope **v; size_t *n, *cap; } scope_list;

static int add_scope(struct pd_dwarf *d, scope_list to, uint64_t low, uint64_t high, uint32_t entry, uint32_t depth) {
    scope *s;
    (void)d;
    if (high <= low || low == 0) return 1; /* empty, or code the linker dropped (address 0) */
    if (!grow((void **)to.v, to.cap, *to.n + 1, sizeof **to.v)) return 0;
    s = &(*to.v)[(*to.n)++];
    s->low = low;
    s->high = high;
    s->reach = 0;
    s->entry = entry;
    s->depth = depth;
    return 1;
}

/* the ranges of an entry: DW_AT_ranges (.debug_ranges before DWARF 5,
   .debug_rnglists after) */
static int add_ranges(struct pd_dwarf *d, scope_list to, const cu *u, const die *e, uint32_t entry, uint32_t depth) {
    rd r;
    uint64_t base = u->low_pc;
    int count = 0;
    if (u->version < 5) {
        if (!d->ranges || e->ranges >= d->ranges_n) return 1;
        r.p = d->ranges + e->ranges;
        r.end = d->ranges + d->ranges_n;
        r.big = d->sec.big_endian;
        r.bad = 0;
        while (!r.bad && count++ < 100000) {
            uint64_t a = rd_n(&r, u->addr_size), b = rd_n(&r, u->addr_size);
            uint64_t all = u->addr_size == 8 ? ~(uint64_t)0 : 0xffffffffu;
            if (r.bad || (!a && !b)) break;
            if (a == all) { base = b; continue; }
            if (!d->ranges_left) { d->cut = 1; return 1; } /* lists shared by many entries: read up to a bound */
            d->ranges_left--;
            if (!add_scope(d, to, base + a, base + b, entry, depth)) return 0;
        }
        return 1;
    }
    {
        uint64_t off = e->ranges;
        if (e->ranges_is_index) {
            unsigned w = u->off8 ? 8 : 4;
            rd ir;
            if (!d->rnglists || u->rnglists_base > d->rnglists_n || e->ranges > (d->rnglists_n - u->rnglists_base) / w) return 1;
            ir.p = d->rnglists + u->rnglists_base + e->ranges * w;
            ir.end = d->rnglists + d->rnglists_n;
            ir.big = d->sec.big_endian;
            ir.bad = 0;
            off = u->rnglists_base + rd_n(&ir, w);
            if (ir.bad) return 1;
        }
        if (!d->rnglists || off >= d->rnglists_n) return 1;
        r.p = d->rnglists + off;
        r.end = d->rnglists + d->rnglists_n;
        r.big = d->sec.big_endian;
        r.bad = 0;
        while (!r.bad && count++ < 100000) {
            unsigned kind = (unsigned)rd_n(&r, 1);
            uint64_t a = 0, b = 0;
            if (r.bad || kind == 0) break; /* end_of_list */
            switch (kind) {
            case 1: if (!addrx(d, u, rd_uleb(&r), &base)) return 1; continue;           /* base_addressx */
            case 2: if (!addrx(d, u, rd_uleb(&r), &a) || !addrx(d, u, rd_uleb(&r), &b)) return 1; break;
            case 3: if (!addrx(d, u, rd_uleb(&r), &a)) return 1; b = a + rd_uleb(&r); break;
            case 4: a = base + rd_uleb(&r); b = base + rd_uleb(&r); break;               /* offset_pair */
            case 5: base = rd_n(&r, u->addr_size); continue;                             /* base_address */
            case 6: a = rd_n(&r, u->addr_size); b = rd_n(&r, u->addr_size); break;       /* start_end */
            case 7: a = rd_n(&r, u->addr_size); b = a + rd_uleb(&r); break;              /* start_length */
            default: return 1;
            }
            if (r.bad) break;
            if (!d->ranges_left) { d->cut = 1; return 1; }
            d->ranges_left--;
            if (!add_scope(d, to, a, b, entry, depth)) return 0;
        }
    }
    return 1;
}

static scope_list entry_scopes(struct pd_dwarf *d) {
    scope_list l;
    l.v = &d->scopes;
    l.n = &d->nscopes;
    l.cap = &d->capscopes;
    return l;
}

static int cmp_scope(const void *a, const void *b) {
    const scope *x = (const scope *)a, *y = (const scope *)b;
    if (x->low != y->low) return x->low < y->low ? -1 : 1;
    if (x->depth != y->depth) return x->depth < y->depth ? -1 : 1;
    return x->entry < y->entry ? -1 : x->entry > y->entry;
}

/* One compile unit's entries, walked in order with a stack of the
   enclosing function entries. 0 when out of memory. */
static int walk_cu(struct pd_dwarf *d, cu *u) {
    int32_t fn[WALK_DEPTH];   /* for each open level: the nearest function entry at or above it, or -1 */
    int level = 0;
    unsigned long skip = 0;   /* open levels below WALK_DEPTH: their entries are left out */
    rd r;
    r.p = u->dies;
    r.end = d->info + u->end;
    r.big = d->sec.big_endian;
    r.bad = 0;
    while (r.p < r.end && !r.bad) {
        die e;
        int32_t parent;
        if (!walk_die(d, u, &r, &e)) {
            if (r.bad) break;
            if (skip) skip--; /* a null entry closes a level */
            else if (level > 0) level--;
            continue;
        }
        if (skip) { /* inside a subtree too deep to keep */
            if (e.children) skip++;
            continue;
        }
        parent = level ? fn[level - 1] : -1;
        if ((e.tag == TAG_subprogram || e.tag == TAG_inlined_subroutine) && (e.has_low || e.has_ranges)) {
            fentry *f;
            uint32_t idx = (uint32_t)d->nentries, depth = parent >= 0 ? d->entries[parent].depth + 1 : 0;
            if (!grow((void **)&d->entries, &d->capentries, d->nentries + 1, sizeof *d->entries)) return 0;
            f = &d->entries[d->nentries++];
            f->die = e.offset;
            f->parent = parent;
            f->depth = depth;
            f->cu = (uint32_t)(u - d->cus);
            f->inlined = e.tag == TAG_inlined_subroutine;
            f->call_file = e.call_file > UINT32_MAX ? UINT32_MAX : (uint32_t)e.call_file;
            f->call_line = e.call_line > UINT32_MAX ? 0 : (uint32_t)e.call_line;
            f->low = 0;
            if (e.has_low && e.has_high) {
                f->low = e.low;
                if (!add_scope(d, entry_scopes(d), e.low, e.high_is_offset ? e.low + e.high : e.high, idx, depth))
                    return 0;
            } else if (e.has_ranges) {
                size_t first = d->nscopes;
                if (!add_ranges(d, entry_scopes(d), u, &e, idx, depth)) return 0;
                if (d->nscopes > first) d->entries[idx].low = d->scopes[first].low;
            }
            parent = (int32_t)idx;
        }
        if (e.children) {
            if (level >= WALK_DEPTH) { /* deeper than perf's inline lists: this subtree is left out */
                skip = 1;
                d->cut = 1;
            }
            else fn[level++] = parent;
        }
    }
    return 1;
}

/* sorted by start, each with the greatest end up to it: where a search
   going down from an address may stop */
static void sort_scopes(scope *v, size_t n) {
    uint64_t reach = 0;
    size_t i;
    if (!n) return;
    qsort(v, n, sizeof *v, cmp_scope);
    for (i = 0; i < n; i++) {
        if (v[i].high > reach) reach = v[i].high;
        v[i].reach = reach;
    }
}

/* Unit i's function entries, read the first time an address of it is
   asked for (or at once when it says no range): 0 when out of memory. */
static int walk_unit(struct pd_dwarf *d, size_t i) {
    cu *u = &d->cus[i];
    size_t first = d->nscopes;
    if (u->walked) return 1;
    u->walked = 1;
    if (!walk_cu(d, u)) { d->nscopes = first; return 0; }
    u = &d->cus[i];
    /* its entries are read: names are read again from a few of them */
    if (!d->owned[0]) pd_elf_release_range(d->elf, u->dies, (size_t)(d->info + u->end - u->dies));
    u->scope_first = first;
    u->scope_n = d->nscopes - first;
    if (u->scope_n) sort_scopes(d->scopes + first, u->scope_n);
    return 1;
}

/* the deepest of scopes[first..+n] holding addr, or NULL; *budget: the
   scopes a lookup may still look at (hostile ranges could make it long) */
static const scope *deepest_in(const struct pd_dwarf *d, size_t first, size_t n, uint64_t addr, size_t *budget) {
    const scope *v, *best = NULL;
    size_t lo = 0, hi = n, k;
    if (!n) return NULL;
    v = d->scopes + first;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid].low <= addr) lo = mid + 1; else hi = mid;
    }
    for (k = lo; k-- > 0 && *budget;) {
        const scope *s = &v[k];
        (*budget)--;
        if (s->reach <= addr) break;
        if (addr < s->high && (!best || s->depth > best->depth)) best = s;
    }
    return best;
}

void pd_dwarf_close(struct pd_dwarf *d) {
    size_t i;
    if (!d) return;
    if (!d->lines_borrowed) {
        pd_dwarf_lines_free(d->lines);
    } else if (d->lines) { /* the compilation directories it gave them are its strings */
        for (i = 0; i < d->lines->nunits; i++) d->lines->units[i].comp_dir = NULL;
    }
    for (i = 0; i < sizeof d->owned / sizeof d->owned[0]; i++) free(d->owned[i]);
    free(d->attrs);
    free(d->implicits);
    free(d->abbrevs);
    free(d->tables);
    free(d->table_slots);
    free(d->cus);
    free(d->entries);
    free(d->scopes);
    free(d->unit_ranges);
    free(d->everywhere);
    free(d);
}

struct pd_dwarf *pd_dwarf_open(const struct pd_elf *elf, const char **why) {
    return pd_dwarf_open_lines(elf, NULL, why);
}

/* A string section the line tables of elf decompressed already: theirs
   (they outlive d); else read as any other */
static int shared_section(const pd_dwarf_lines *lines, int which, const struct pd_elf *elf, const char *name,
                          const unsigned char **p, size_t *n, unsigned char **owned, const char **why) {
    if (lines && lines->elf == elf && lines->owned[which]) {
        *p = lines->owned[which];
        *n = lines->owned_n[which];
        return 1;
    }
    return dwarf_section(elf, name, p, n, owned, why);
}

struct pd_dwarf *pd_dwarf_open_lines(const struct pd_elf *elf, pd_dwarf_lines *lines, const char **why) {
    struct pd_dwarf *d;
    const char *dummy;
    const pd_elf_info *info;
    const unsigned char *p, *end;
    size_t i;
    if (!why) why = &dummy;
    *why = NULL;
    if (!elf) { *why = "no file"; return NULL; }
    if (!(d = (struct pd_dwarf *)calloc(1, sizeof *d))) { *why = "out of memory"; return NULL; }
    info = pd_elf_get_info(elf);
    d->elf = elf;
    d->sec.big_endian = info->big_endian;
    d->sec.addr_size = info->elf64 ? 8 : 4;
    if (lines) {
        d->lines = lines;
        d->lines_borrowed = 1;
    } else {
        d->lines = pd_dwarf_lines_elf(elf, why); /* NULL: no lines, functions still */
    }
    if (!dwarf_section(elf, ".debug_info", &d->info, &d->info_n, &d->owned[0], why) ||
        !dwarf_section(elf, ".debug_abbrev", &d->abbr, &d->abbr_n, &d->owned[1], why) ||
        !dwarf_section(elf, ".debug_str_offsets", &d->str_offsets, &d->str_offsets_n, &d->owned[2], why) ||
        !dwarf_section(elf, ".debug_addr", &d->addr, &d->addr_n, &d->owned[3], why) ||
        !dwarf_section(elf, ".debug_ranges", &d->ranges, &d->ranges_n, &d->owned[4], why) ||
        !dwarf_section(elf, ".debug_rnglists", &d->rnglists, &d->rnglists_n, &d->owned[5], why) ||
        !shared_section(d->lines, 2, elf, ".debug_str", &d->sec.str, &d->sec.str_n, &d->owned[6], why) ||
        !shared_section(d->lines, 1, elf, ".debug_line_str", &d->sec.line_str, &d->sec.line_str_n, &d->owned[7], why)) {
        pd_dwarf_close(d);
        return NULL;
    }
    if (!d->info_n && !d->lines) { pd_dwarf_close(d); if (!*why) *why = "no debug information"; return NULL; }
    /* a .debug_ranges entry takes 8 or 16 bytes, a .debug_rnglists one 3 or more */
    d->ranges_left = ((size_t)1 << 20) + d->ranges_n / 2 + d->rnglists_n;
    p = d->info;
    end = d->info ? d->info + d->info_n : NULL; /* no .debug_info: the lines alone */
    while (p && end - p >= 11) {
        rd r;
        cu u;
        uint64_t len, abbr_off;
        die top;
        memset(&u, 0, sizeof u);
        r.p = p;
        r.end = end;
        r.big = d->sec.big_endian;
        r.bad = 0;
        u.start = (uint64_t)(p - d->info);
        len = rd_n(&r, 4);
        if (len == 0xffffffffu) { len = rd_n(&r, 8); u.off8 = 1; }
        else if (len >= 0xfffffff0u) break;
        if (r.bad || len > (uint64_t)(end - r.p)) break;
        r.end = r.p + len;
        p = r.end;
        u.end = (uint64_t)(r.end - d->info);
        u.version = (unsigned)rd_n(&r, 2);
        if (u.version < 2 || u.version > 5) continue;
        if (u.version == 5) {
            unsigned type = (unsigned)rd_n(&r, 1);
            u.addr_size = (unsigned)rd_n(&r, 1);
            abbr_off = rd_n(&r, u.off8 ? 8 : 4);
            if (type == 4 || type == 5) rd_n(&r, 8);               /* skeleton, split: dwo_id */
            else if (type == 2 || type == 6) { rd_n(&r, 8); rd_n(&r, u.off8 ? 8 : 4); } /* type units */
            else if (type != 1 && type != 3) continue;
        } else {
            abbr_off = rd_n(&r, u.off8 ? 8 : 4);
            u.addr_size = (unsigned)rd_n(&r, 1);
        }
        if (r.bad || (u.addr_size != 4 && u.addr_size != 8)) continue;
        if (abbr_off >= d->abbr_n) continue;
        u.abbr_off = abbr_off;
        u.dies = r.p;
        if (!grow((void **)&d->cus, &d->capcus, d->ncus + 1, sizeof *d->cus)) goto nomem;
        /* the unit entry: bases, its line table; its abbreviations are read
           as far as its code, then dropped (unit_table reads them all if an
           address in the unit is asked for) */
        {
            rd t = r;
            cu *cur = &d->cus[d->ncus];
            size_t ntables = d->ntables, nabbrevs = d->nabbrevs, nattrs = d->nattrs, nimplicits = d->nimplicits;
            uint64_t code = rd_uleb(&t), until;
            int ok;
            *cur = u;
            d->ncus++;
            if (t.bad || !code) { cur->table = TABLE_UNREAD; continue; }
            /* units may share a table: past a pass over .debug_abbrev in
               tables read in part, they are read whole and kept (each once) */
            until = d->partial_read <= d->abbr_n ? code : 0;
            if ((cur->table = abbrev_table_for(d, abbr_off, until)) == TABLE_BAD) { d->ncus--; continue; }
            t = r;
            ok = read_die(d, cur, &t, &top);
            if (ok) {
                if (top.has_str_offsets_base) cur->str_offsets_base = top.str_offsets_base;
                else if (cur->version == 5) cur->str_offsets_base = 8; /* after the table's header, as compilers put it */
                if (top.has_addr_base) cur->addr_base = top.addr_base;
                if (top.has_rnglists_base) cur->rnglists_base = top.rnglists_base;
                /* read again with the bases known: strx names need them */
                t = r;
                ok = read_die(d, cur, &t, &top);
            }
            if (until && cur->table == ntables) { /* read in part for this entry: dropped */
                d->ntables = ntables;
                d->nabbrevs = nabbrevs;
                d->nattrs = nattrs;
                d->nimplicits = nimplicits;
                cur->table = TABLE_UNREAD;
            }
            if (!ok) continue;
            if (top.has_low) cur->low_pc = top.low;
            cur->plain_is_linkage = plain_language(top.language);
            {   /* where its code is: its entries are read when an address there is asked for */
                scope_list to;
                size_t before = d->nunit_ranges;
                uint32_t idx = (uint32_t)(cur - d->cus);
                to.v = &d->unit_ranges;
                to.n = &d->nunit_ranges;
                to.cap = &d->capunit_ranges;
                if (top.has_low && top.has_high) {
                    if (!add_scope(d, to, top.low, top.high_is_offset ? top.low + top.high : top.high, idx, 0))
                        goto nomem;
                } else if (top.has_ranges) {
                    if (!add_ranges(d, to, cur, &top, idx, 0)) goto nomem;
                }
                if (d->nunit_ranges == before) {
                    if (!grow((void **)&d->everywhere, &d->capeverywhere, d->neverywhere + 1, sizeof *d->everywhere))
                        goto nomem;
                    d->everywhere[d->neverywhere++] = idx;
                }
            }

            if (top.has_stmt && d->lines) { /* its line table's unit: they are read in order of offset */
                size_t lo = 0, hi = d->lines->nunits;
                while (lo < hi) {
                    size_t mid = lo + (hi - lo) / 2;
                    if (d->lines->units[mid].offset < top.stmt_list) lo = mid + 1; else hi = mid;
                }
                if (lo < d->lines->nunits && d->lines->units[lo].offset == top.stmt_list) {
                    lunit *lu = &d->lines->units[lo];
                    cur->file_base = lu->file_base;
                    cur->nfiles = lu->nfiles;
                    cur->v5_files = lu->v5;
                    cur->has_lines = 1;
                    cur->comp_dir = top.comp_dir;
                    cur->comp_dir_n = top.comp_dir_n;
                    if (!lu->v5 && top.comp_dir && !lu->comp_dir) { /* binutils joins files to it */
                        lu->comp_dir = top.comp_dir;
                        lu->comp_dir_n = top.comp_dir_n;
                    }
                }
            }
        }
    }
    if (d->nunit_ranges) sort_scopes(d->unit_ranges, d->nunit_ranges);
    d->every_first = d->nscopes;
    for (i = 0; i < d->neverywhere; i++) {
        d->cus[d->everywhere[i]].walked = 1;
        if (!walk_cu(d, &d->cus[d->everywhere[i]])) goto nomem;
    }
    d->every_n = d->nscopes - d->every_first;
    if (d->every_n) sort_scopes(d->scopes + d->every_first, d->every_n);
    pd_elf_release_pages(elf); /* the units' first entries were read: an address's are read again when asked */
    return d;
nomem:
    pd_dwarf_close(d);
    *why = "out of memory";
    return NULL;
}

static void file_of(const struct pd_dwarf *d, const cu *u, uint64_t index, pd_dwarf_where *w) {
    uint64_t k;
    w->file = "";
    w->file_len = 0;
    w->dir = NULL;
    w->dir_len = 0;
    w->comp_dir = NULL;
    w->comp_dir_len = 0;
    if (!d->lines || !u->has_lines) return;
    if (u->v5_files) k = index;
    else if (index >= 1) k = index - 1;
    else return;
    if (k >= u->nfiles) return;
    {
        const name *f = &d->lines->files[u->file_base + k];
        w->file = f->s;
        w->file_len = f->n;
        if (f->dir < d->lines->ndirs) {
            w->dir = d->lines->dirs[f->dir].s;
            w->dir_len = d->lines->dirs[f->dir].n;
        }
        if (!u->v5_files) { /* directory 0 and relative ones are below it */
            w->comp_dir = u->comp_dir;
            w->comp_dir_len = u->comp_dir_n;
        }
    }
}

size_t pd_dwarf_entries(const pd_dwarf *d) { return d ? d->nentries : 0; }

int pd_dwarf_cut(const pd_dwarf *d) { return d && d->cut; }

/* a better innermost scope than best: deeper; at one depth the later one
   in (start, entry) order, as one sorted list of all would give it (entries
   are numbered in the order units are read, which is not the file's: the
   unit's index decides) */
static int deeper(const struct pd_dwarf *d, const scope *s, const scope *best) {
    uint32_t su, bu;
    if (!best) return 1;
    if (s->depth != best->depth) return s->depth > best->depth;
    if (s->low != best->low) return s->low > best->low;
    su = d->entries[s->entry].cu;
    bu = d->entries[best->entry].cu;
    return su != bu ? su > bu : s->entry > best->entry;
}

size_t pd_dwarf_frames(struct pd_dwarf *d, uint64_t addr, pd_dwarf_frame *frames, size_t max) {
    size_t lo = 0, hi, k, n = 0, best_at = 0, budget = PD_DWARF_SCAN;
    const scope *best, *s;
    int32_t e;
    pd_dwarf_where here;
    int have_line;
    if (!d || !max) return 0;
    have_line = lookup(d->lines, addr, &here, 0); /* the frames are llvm-addr2line's */
    best = deepest_in(d, d->every_first, d->every_n, addr, &budget);
    if (!++d->stamp) { /* wrapped: no unit is marked as searched in this lookup */
        for (k = 0; k < d->ncus; k++) d->cus[k].stamp = 0;
        d->stamp = 1;
    }
    hi = d->nunit_ranges;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->unit_ranges[mid].low <= addr) lo = mid + 1; else hi = mid;
    }
    for (k = lo; k-- > 0 && budget;) { /* each unit holding addr, once: its deepest scope */
        const scope *r = &d->unit_ranges[k];
        const cu *u;
        budget--;
        if (r->reach <= addr) break;
        if (addr >= r->high || r->entry >= d->ncus || d->cus[r->entry].stamp == d->stamp) continue;
        d->cus[r->entry].stamp = d->stamp;
        if (best) best_at = (size_t)(best - d->scopes);
        if (!walk_unit(d, r->entry)) continue; /* (d->scopes may have moved) */
        best = best ? d->scopes + best_at : NULL;
        u = &d->cus[r->entry];
        if ((s = deepest_in(d, u->scope_first, u->scope_n, addr, &budget)) && deeper(d, s, best)) best = s;
    }
    if (!best) {
        if (!have_line) return 0;
        frames[0].name = NULL;
        frames[0].name_len = 0;
        frames[0].linkage = 0;
        frames[0].id = 0;
        frames[0].low = 0;
        frames[0].where = here;
        return 1;
    }
    e = (int32_t)best->entry;
    while (e >= 0 && n < max) {
        const fentry *f = &d->entries[e];
        pd_dwarf_frame *fr = &frames[n];
        if (!entry_name(d, f->die, &fr->name, &fr->name_len, &fr->linkage)) {
            fr->name = NULL;
            fr->name_len = 0;
            fr->linkage = 0;
        }
        fr->id = (uint32_t)e + 1;
        fr->low = f->low;
        if (n == 0) {
            if (have_line) fr->where = here;
            else memset(&fr->where, 0, sizeof fr->where);
        }
        if (f->inlined && n + 1 < max) { /* the caller's place: this call's site */
            file_of(d, &d->cus[f->cu], f->call_file, &frames[n + 1].where);
            frames[n + 1].where.line = f->call_line;
        }
        n++;
        if (!f->inlined) break;
        e = f->parent;
    }
    return n;
}
