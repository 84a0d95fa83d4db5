/* pd_sym.c - see pd_sym.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "pd_sym.h"
#include "pd_demangle.h"
#include "pd_dwarf.h"
#include "pd_opts.h"
#include "pd_unwind.h"
#include "pd_text.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/utsname.h>
#include <unistd.h>

typedef struct pd_dso {
    const char *name;               /* interned mapping name */
    pd_elf *elf;                    /* the binary: translates ips; NULL: none */
    pd_elf *symelf;                 /* where the symbols are: elf, or its debug file */
    const char *short_name;         /* interned */
    int own_vdso;                   /* elf is this process's vdso (perf's temporary copy) */
    /* source lines, read on first use */
    int lines_tried;
    pd_dwarf_lines *lines;          /* NULL: none */
    pd_elf *lines_elf;              /* a separate debug file they came from, or NULL */
    unsigned a2l_fails;             /* perf's count of failed lookups before a first success */
    /* functions and inlined calls (pd_dwarf_open), read on first use */
    int dwarf_tried;
    pd_dwarf *dwarf;
    /* binutils' addr2line keeps per function entry what its lookups set:
       bit 0, the entry was looked up innermost once (its name is then
       taken as the linkage name); the name a lookup gave it */
    unsigned char *a2l_seen;
    const char **a2l_name;
    size_t a2l_cap;                 /* their length: entries known + 1 (pd_dwarf_entries grows) */
    int said_cut;                   /* pd_dwarf_cut said on stderr */
    /* call frame information, read on first use */
    int cfi_tried;
    pd_cfi cfi;                     /* all NULL: none */
    pd_cfi_fde *cfi_index;          /* cfi.index: its FDEs by pc, where .eh_frame_hdr is not enough */
} pd_dso;

struct pd_unwindable { const pd_maps *maps; uint64_t gen; int ok; };

typedef struct pd_srcline_slot {
    size_t dso;                     /* 1 + the object's index; 0: an empty slot */
    uint64_t vaddr;
    const char *text;               /* NULL: perf's lookup failed */
} pd_srcline_slot;

typedef struct pd_bid {
    const char *name;               /* interned in names; NULL: an empty slot */
    unsigned char id[20];
    size_t size;
    uint16_t misc;
} pd_bid;

static int big_endian(const pd_symbolizer *s) { return s->file && (s->file->flags & PERFDATA_FILE_BIG_ENDIAN) != 0; }

static const char *intern_view(pd_symbolizer *s, perfdata_view v) {
    return pd_intern_n(&s->names, (const char *)v.p, v.n);
}

static size_t bid_slot(const pd_symbolizer *s, const char *name) {
    size_t mask = s->capbids - 1, i = (size_t)pd_hash_u64((uintptr_t)name) & mask;
    while (s->bids[i].name && s->bids[i].name != name) i = (i + 1) & mask;
    return i;
}

/* A build id for a file name. As perf's dso__set_build_id, the last one
   given wins: the BUILD_ID feature first, then HEADER_BUILD_ID records. */
static void add_build_id(pd_symbolizer *s, const perfdata_build_id *b) {
    const char *name;
    pd_bid *e;
    if (!b->filename.n || b->build_id.n > 20) return;
    name = intern_view(s, b->filename);
    if ((s->nbids + 1) * 2 > s->capbids) {
        pd_bid *old = s->bids;
        size_t oldcap = s->capbids, i;
        s->capbids = oldcap ? oldcap * 2 : 64;
        s->bids = calloc(s->capbids, sizeof *s->bids);
        if (!s->bids) pd_nomem();
        for (i = 0; i < oldcap; i++)
            if (old[i].name) s->bids[bid_slot(s, old[i].name)] = old[i];
        free(old);
    }
    e = &s->bids[bid_slot(s, name)];
    if (!e->name) s->nbids++;
    e->name = name;
    memcpy(e->id, b->build_id.p, b->build_id.n);
    e->size = b->build_id.n;
    e->misc = b->misc;
}

static void add_build_ids(pd_symbolizer *s, perfdata_view sec) {
    perfdata_build_id b;
    perfdata_feat_list l;
    size_t st = 0;
    (void)perfdata_decode_feat_build_id(sec, big_endian(s), &l, NULL); /* the records before a bad one */
    while (perfdata_build_id_next(&l, &st, &b)) add_build_id(s, &b);
}

int pd_sym_demangle = 1;
int pd_sym_inline_frames = 1;

struct pd_demangled { const char *name, *shown; };

void pd_sym_init(pd_symbolizer *s, const perfdata_file *f) {
    perfdata_view sec;
    memset(s, 0, sizeof *s);
    s->file = f;
    s->demangle = pd_sym_demangle;
    s->inline_frames = pd_sym_inline_frames;
    /* perf's build-id cache: PERF_BUILDID_DIR (what perf exports to the commands it runs), else ~/.debug */
    {
        const char *dir = getenv("PERF_BUILDID_DIR");
        if (dir && *dir) s->search.buildid_dir = dir;
    }
    if (f && perfdata_feature_section(f, PERFDATA_FEAT_BUILD_ID, &sec, NULL) == PERFDATA_OK) add_build_ids(s, sec);
}

static void prefetch_free(pd_symbolizer *s);
static void prefetch_close(pd_symbolizer *s);

void pd_sym_free(pd_symbolizer *s) {
    size_t i;
    prefetch_free(s); /* stops its thread; the objects it read stay open until the dsos are freed */
    for (i = 0; i < s->ndsos; i++) {
        if (s->dsos[i].symelf != s->dsos[i].elf) pd_elf_close(s->dsos[i].symelf);
        pd_elf_close(s->dsos[i].elf);
        free(s->dsos[i].cfi_index);
        pd_dwarf_close(s->dsos[i].dwarf); /* before the line tables it borrows */
        pd_dwarf_lines_free(s->dsos[i].lines);
        free(s->dsos[i].a2l_seen);
        free(s->dsos[i].a2l_name);
        pd_elf_close(s->dsos[i].lines_elf);
    }
    free(s->srclines);
    free(s->inlines);
    free(s->unwindable);
    free(s->cfi_bases);
    free(s->cfi_cache);
    free(s->inline_names);
    free(s->inline_scratch);
    free(s->dsos);
    free(s->dso_slots);
    free(s->demangled);
    free(s->bids);
    pd_intern_free(&s->names);
    pd_kallsyms_free(s->kallsyms);
    pd_elf_search_free(&s->search);
    prefetch_close(s);
}

void pd_sym_record(pd_symbolizer *s, const perfdata_record *rec) {
    if (rec->type == PERFDATA_RECORD_HEADER_BUILD_ID) {
        perfdata_build_id b;
        if (perfdata_decode_build_id(s->file, rec, &b, NULL) == PERFDATA_OK) add_build_id(s, &b);
    } else if (rec->type == PERFDATA_RECORD_HEADER_FEATURE) {
        perfdata_header_feature hf;
        perfdata_view text;
        if (perfdata_decode_header_feature(s->file, rec, &hf, NULL) != PERFDATA_OK) return;
        if (hf.feat_id == PERFDATA_FEAT_HOSTNAME && perfdata_decode_feat_string(hf.data, rec->big_endian, &text, NULL) == PERFDATA_OK)
            s->hostname = intern_view(s, text);
        else if (hf.feat_id == PERFDATA_FEAT_OSRELEASE &&
                 perfdata_decode_feat_string(hf.data, rec->big_endian, &text, NULL) == PERFDATA_OK)
            s->osrelease = intern_view(s, text);
        else if (hf.feat_id == PERFDATA_FEAT_BUILD_ID)
            add_build_ids(s, hf.data);
    }
}

static int feature_equals(const perfdata_file *f, unsigned feat, const char *want) {
    perfdata_view v;
    return f && perfdata_feature_string(f, feat, &v, NULL) == PERFDATA_OK && strlen(want) == v.n && !memcmp(v.p, want, v.n);
}

/* /proc/kallsyms applies when the profile was recorded on this host and
   kernel: the HOSTNAME and OSRELEASE features of a file, or, in a pipe,
   the feature records that came before the first kernel sample. */
static int recorded_here(pd_symbolizer *s) {
    struct utsname u;
    if (uname(&u) != 0) return 0;
    if (s->hostname || s->osrelease)
        return s->hostname && s->osrelease && !strcmp(s->hostname, u.nodename) && !strcmp(s->osrelease, u.release);
    return feature_equals(s->file, PERFDATA_FEAT_HOSTNAME, u.nodename) &&
           feature_equals(s->file, PERFDATA_FEAT_OSRELEASE, u.release);
}

static const char *basename_of(const char *p) {
    const char *b = strrchr(p, '/');
    return b ? b + 1 : p;
}

/* Mappings that are not files perf reads symbols from. */
static int is_pseudo(const char *name) {
    return name[0] == '[' || !strncmp(name, "//anon", 6) || !strncmp(name, "/dev/", 5) ||
           !strncmp(name, "/memfd:", 7) || !strcmp(name, "");
}

/* Memory without a file behind it, as perf's is_anon_memory and
   is_no_dso_memory. */
static int is_anon(const char *name) {
    return !strcmp(name, "//anon") || !strncmp(name, "/dev/zero", 9) || !strncmp(name, "/anon_hugepage", 14) ||
           !strncmp(name, "[stack", 6) || !strncmp(name, "/SYSV", 5) || !strcmp(name, "[heap]");
}

/* perf's kmod_path__parse: a kernel module file (NAME.ko, also compressed)
   is shown as [NAME] with '-' as '_'. Returns 0 when path is not one. */
static int module_name(const char *path, char *out, size_t len) {
    static const char *const ext[] = {".ko", ".ko.gz", ".ko.xz", ".ko.zst", ".ko.bz2"};
    const char *base = basename_of(path);
    size_t n = strlen(base), i, k, stem = 0;
    for (i = 0; i < sizeof ext / sizeof ext[0]; i++) {
        size_t e = strlen(ext[i]);
        if (n > e && !strcmp(base + n - e, ext[i])) { stem = n - e; break; }
    }
    if (!stem || stem + 3 > len) return 0;
    out[0] = '[';
    for (k = 0; k < stem; k++) out[k + 1] = base[k] == '-' ? '_' : base[k];
    out[stem + 1] = ']';
    out[stem + 2] = 0;
    return 1;
}

static int is_module_name(const char *name) {
    char buf[512];
    size_t n = strlen(name);
    if (name[0] == '[')
        return n > 1 && name[n - 1] == ']' && strncmp(name, "[kernel.", 8) != 0 && strncmp(name, "[guest.kernel", 13) != 0 &&
               strcmp(name, "[vdso]") != 0 && strcmp(name, "[vsyscall]") != 0;
    return module_name(name, buf, sizeof buf);
}

/* The kernel's dso name, as perf's machine__process_kernel_mmap_event
   gives it: the first kernel binary of the build-id table that is not a
   module is the kernel; when its name has "vmlinux" in it, perf calls
   the dso [kernel.vmlinux]. */
static const char *kernel_dso(pd_symbolizer *s) {
    const pd_bid *first = NULL;
    size_t i;
    if (s->kernel_dso) return s->kernel_dso;
    for (i = 0; i < s->capbids; i++) {
        const pd_bid *b = &s->bids[i];
        unsigned mode = b->misc & PERFDATA_MISC_CPUMODE_MASK;
        if (!b->name || mode != PERFDATA_MISC_KERNEL || is_module_name(b->name)) continue;
        first = b;
        if (strstr(b->name, "vmlinux")) break; /* order is not kept; any vmlinux entry names it */
    }
    s->kernel_dso = pd_intern_str(&s->names, first && strstr(first->name, "vmlinux") ? "[kernel.vmlinux]" : "[kernel.kallsyms]");
    return s->kernel_dso;
}

static void recorded_build_id(pd_symbolizer *s, const char *name, const unsigned char **bid, size_t *len) {
    const pd_bid *b;
    if (!s->capbids) return;
    b = &s->bids[bid_slot(s, pd_intern_str(&s->names, name))];
    if (b->name) { *bid = b->id; *len = b->size; }
}

/* Like perf, symbols come from a separate debug file when the binary has
   only its dynamic symbols: /usr/lib/debug/.build-id/xx/rest.debug (the
   binary still translates ips: a debug file has no PT_LOAD contents). */
static pd_elf *debug_file_for(pd_elf *elf) {
    const pd_elf_info *info = pd_elf_get_info(elf);
    char path[512];
    size_t i;
    int n;
    pd_elf *dbg;
    if ((info->symbol_table && !strcmp(info->symbol_table, ".symtab")) || !info->build_id || info->build_id_size < 2)
        return elf;
    n = snprintf(path, sizeof path, "/usr/lib/debug/.build-id/%02x/", info->build_id[0]);
    for (i = 1; i < info->build_id_size && n + 3 < (int)sizeof path; i++) n += snprintf(path + n, sizeof path - (size_t)n, "%02x", info->build_id[i]);
    snprintf(path + n, sizeof path - (size_t)n, ".debug");
    if (pd_elf_open_file(path, &dbg, NULL) != PD_ELF_OK) return elf;
    if (!pd_elf_get_info(dbg)->nr_symbols) { pd_elf_close(dbg); return elf; }
    return dbg;
}

/* Where the dso of an interned name sits in dso_slots (2 * capdsos
   slots): its slot, or the empty one it would take. */
static size_t dso_slot(const pd_symbolizer *s, const char *name) {
    size_t mask = 2 * s->capdsos - 1, i = (size_t)pd_hash_u64((uintptr_t)name) & mask;
    while (s->dso_slots[i] && s->dsos[s->dso_slots[i] - 1].name != name) i = (i + 1) & mask;
    return i;
}

/* perf reads a [vdso] mapping's symbols from its own process's vdso (the
   image the kernel maps into every process), unless the profile recorded
   a different build id for it. */
static pd_elf *own_vdso(const unsigned char *bid, size_t bid_len) {
    const void *p = (const void *)(uintptr_t)getauxval(AT_SYSINFO_EHDR);
    unsigned long long lo, hi;
    char line[512];
    size_t size = 0;
    pd_elf *elf;
    FILE *fp;
    const pd_elf_info *info;
    int fd;
    if (!p || pd_elf_open_regular("/proc/self/maps", &fd, NULL, NULL) != PD_ELF_OK) return NULL;
    if (!(fp = fdopen(fd, "r"))) { close(fd); return NULL; }
    while (fgets(line, sizeof line, fp))
        if (strstr(line, "[vdso]") && sscanf(line, "%llx-%llx", &lo, &hi) == 2 && lo == (uintptr_t)p && hi > lo)
            size = (size_t)(hi - lo);
    fclose(fp);
    if (!size || pd_elf_open_mem(p, size, &elf, NULL) != PD_ELF_OK) return NULL;
    info = pd_elf_get_info(elf);
    if (bid && (info->build_id_size != bid_len || memcmp(info->build_id, bid, bid_len) != 0)) {
        pd_elf_close(elf);
        return NULL;
    }
    return elf;
}

static pd_dso *dso_for(pd_symbolizer *s, const pd_map_entry *m) {
    char path[4096], shown[1024];
    size_t i;
    pd_dso *d;
    pd_elf_found found;
    pd_elf_error err;
    pd_elf_status st;
    if (s->capdsos) {
        i = dso_slot(s, m->name);
        if (s->dso_slots[i]) return &s->dsos[s->dso_slots[i] - 1];
    }
    if (s->ndsos == s->capdsos) {
        size_t cap = s->capdsos ? s->capdsos * 2 : 64;
        pd_dso *v = realloc(s->dsos, cap * sizeof *v);
        size_t *slots = calloc(2 * cap, sizeof *slots);
        if (!v || !slots) pd_nomem();
        s->dsos = v;
        s->capdsos = cap;
        free(s->dso_slots);
        s->dso_slots = slots;
        for (i = 0; i < s->ndsos; i++) s->dso_slots[dso_slot(s, s->dsos[i].name)] = i + 1;
    }
    s->dso_slots[dso_slot(s, m->name)] = s->ndsos + 1;
    d = &s->dsos[s->ndsos++];
    memset(d, 0, sizeof *d);
    d->a2l_fails = 1;
    d->name = m->name;
    d->short_name = pd_intern_str(&s->names, basename_of(m->name));
    if (!strcmp(m->name, "[vdso]")) {
        /* perf: with a recorded build id, the vdso is looked for by it (the
           build-id cache, --symdir); without one, perf uses a copy of its
           own vdso, a temporary file that --symfs moves out of reach */
        const unsigned char *bid = m->build_id_size ? m->build_id : NULL;
        size_t bid_len = (size_t)m->build_id_size;
        if (!bid) recorded_build_id(s, m->name, &bid, &bid_len);
        if (!bid) d->own_vdso = (d->elf = s->search.symfs ? NULL : own_vdso(NULL, 0)) != NULL;
        else if (pd_elf_find(&s->search, NULL, bid, bid_len, &d->elf, &found, &err) != PD_ELF_OK) d->elf = NULL;
        d->symelf = d->elf;
        return d;
    }
    /* the path as the lookup uses it: "/./dev/x", "//dev/x" and
       "/tmp/../dev/x" are /dev/x, never opened */
    if (is_pseudo(m->name) || !pd_elf_normalize_path(path, sizeof path, m->name) || is_pseudo(path)) return d;
    {
        const unsigned char *bid = m->build_id_size ? m->build_id : NULL;
        size_t bid_len = (size_t)m->build_id_size;
        if (!bid) recorded_build_id(s, m->name, &bid, &bid_len);
        st = pd_elf_find(&s->search, path, bid, bid_len, &d->elf, &found, &err);
    }
    if (st == PD_ELF_BUILD_ID_MISMATCH) {
        fprintf(stderr, "perfdata: %s: build id differs from the recorded one; its symbols are not used\n",
                pd_escaped(shown, sizeof shown, m->name));
        pd_elf_close(d->elf);
        d->elf = NULL;
    } else if (st == PD_ELF_NOT_REGULAR) {
        /* a device, FIFO or socket where the binary should be: said, as
           it is no missing file; the profile itself is complete */
        d->elf = NULL;
        fprintf(stderr, "perfdata: %s: %s", pd_escaped(shown, sizeof shown, found.path), err.message);
        if (strcmp(found.path, path) != 0) fprintf(stderr, " (looked for as the binary of %s)", pd_escaped(shown, sizeof shown, m->name));
        fprintf(stderr, "\n");
    } else if (st != PD_ELF_OK) {
        d->elf = NULL;
        if (s->verbose) fprintf(stderr, "perfdata: %s: no symbols (%s)\n", pd_escaped(shown, sizeof shown, m->name), err.message);
    }
    d->symelf = d->elf;
    if (d->elf) d->symelf = debug_file_for(d->elf);
    if (d->symelf != d->elf) pd_elf_plt_symbols_from(d->elf, d->symelf);
    return d;
}

/* The name perf 6.1 shows for a symbol of a user binary: demangled (C++,
   Rust) with libiberty's default options, as dso__load_sym does; a PLT
   entry's name before its "@plt". Once per name: the result is interned
   and kept by the name's address. */
#define PD_DEMANGLED_MAX (64 << 20)

static const char *shown_name(pd_symbolizer *s, const char *name) {
    static char out[8192];
    char part[4096];
    const char *in = name;
    size_t len, mask, i;
    long n;
    struct pd_demangled *e;
    if (!s->demangle || !name || !pd_demangle_candidate(name)) return name;
    if (s->ndemangled * 2 >= s->capdemangled) {
        size_t cap = s->capdemangled ? s->capdemangled * 2 : 1024, k;
        struct pd_demangled *t = (struct pd_demangled *)calloc(cap, sizeof *t);
        if (!t) pd_nomem();
        for (k = 0; k < s->capdemangled; k++) {
            if (!s->demangled[k].name) continue;
            i = (size_t)pd_hash_u64((uintptr_t)s->demangled[k].name) & (cap - 1);
            while (t[i].name) i = (i + 1) & (cap - 1);
            t[i] = s->demangled[k];
        }
        free(s->demangled);
        s->demangled = t;
        s->capdemangled = cap;
    }
    mask = s->capdemangled - 1;
    for (i = (size_t)pd_hash_u64((uintptr_t)name) & mask; (e = &s->demangled[i])->name; i = (i + 1) & mask)
        if (e->name == name) return e->shown;
    len = strlen(name);
    if (len > 4 && !strcmp(name + len - 4, "@plt")) {
        if (len - 4 >= sizeof part) return name;
        memcpy(part, name, len - 4);
        part[len - 4] = 0;
        in = part;
    }
    n = pd_demangle(in, 0, out, sizeof out - 5);
    e->name = name;
    e->shown = name;
    /* a short name can stand for a long one: the texts kept are bounded
       (PD_DEMANGLED_MAX), past that names stay as stored, said once */
    if (n > 0 && s->demangled_bytes + (size_t)n > PD_DEMANGLED_MAX) {
        if (!s->said_demangled) {
            fprintf(stderr, "perfdata: demangled names take over %d MiB; the rest are shown as stored\n",
                    PD_DEMANGLED_MAX >> 20);
            s->said_demangled = 1;
        }
        n = -1;
    }
    if (n > 0) {
        if (in == part) memcpy(out + n, "@plt", 5);
        e->shown = pd_intern_str(&s->names, out);
        s->demangled_bytes += (size_t)n;
    }
    s->ndemangled++;
    return e->shown;
}

/* As in perf 6.1, the PLT entries synthesized from the binary sit in one
   tree with the symbols: in the PLT area, pd_elf_lookup_plt says what perf
   finds there (an entry, a symbol reaching over it, or nothing). */
static const pd_elf_sym *plt_or_symbol(const pd_dso *d, uint64_t vaddr) {
    const pd_elf_info *bin = pd_elf_get_info(d->elf);
    if (vaddr >= bin->plt_start && vaddr < bin->plt_end) return pd_elf_lookup_plt(d->elf, vaddr);
    return pd_elf_lookup(d->symelf, vaddr);
}

/* ------------------------------------------------------------ read ahead */

/* What pd_sym_prefetch's thread reads, each item QUEUED until one side
   takes it: the thread (RUNNING, then DONE) or a lookup that got there
   first (CLAIMED: it reads the item itself, as without the thread). A
   lookup that finds an item RUNNING waits for it. */
enum { PF_QUEUED, PF_RUNNING, PF_DONE, PF_CLAIMED };
/* objects read ahead at most (a BUILD_ID table can name any number) */
#define PF_OBJECTS_MAX 256

typedef struct pd_prefetch_obj {
    unsigned char id[20];           /* the binary's build id: its debug file is
                                       /usr/lib/debug/.build-id/xx/rest.debug */
    size_t size;
    const char *path;               /* the binary as recorded (interned) */
    int own;                        /* elf is the binary (it has a full symbol table) */
    int state;
    pd_elf *elf;                    /* the debug file, kept open until pd_sym_free: the
                                       line tables and entries point into it */
    pd_dwarf_lines *lines;          /* NULL: none, or taken by a dso */
    pd_dwarf *dwarf;
} pd_prefetch_obj;

struct pd_prefetch {
    pthread_t thread;
    int started;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int stop;                       /* pd_sym_free: take nothing more */
    int want_dwarf;
    int ks_state;
    const char *ks_path;            /* NULL: the kernel's symbols are not read ahead */
    pd_kallsyms *ks;
    pd_elf_status ks_status;
    pd_elf_error ks_err;
    pd_prefetch_obj *objs;
    size_t n;
};

static size_t build_id_path(char *path, size_t cap, const unsigned char *id, size_t size) {
    size_t i;
    int k = snprintf(path, cap, "/usr/lib/debug/.build-id/%02x/", id[0]);
    for (i = 1; i < size && k > 0 && (size_t)k + 3 < cap; i++) k += snprintf(path + k, cap - (size_t)k, "%02x", id[i]);
    if (k <= 0 || (size_t)k + 7 > cap) return 0;
    memcpy(path + k, ".debug", 7);
    return (size_t)k + 6;
}

/* Reads item i (-1: the kernel's symbols, else objs[i]), taken RUNNING */
static void pf_read(struct pd_prefetch *p, long i) {
    char path[256];
    pd_prefetch_obj *o;
    pd_elf *bin;
    const char *table;
    if (i < 0) {
        p->ks_status = pd_kallsyms_load(p->ks_path, &p->ks, &p->ks_err);
        return;
    }
    o = &p->objs[i];
    /* the file whose lines load_lines reads first: the binary when it has
       its full symbol table (debug_file_for), else its debug file */
    if (o->path && pd_elf_open_sections(o->path, &bin, &table, NULL) == PD_ELF_OK) {
        const pd_elf_info *info = pd_elf_get_info(bin);
        if (info->build_id && info->build_id_size == o->size && !memcmp(info->build_id, o->id, o->size) &&
            table && !strcmp(table, ".symtab")) {
            o->elf = bin;
            o->own = 1;
        } else {
            pd_elf_close(bin);
        }
    }
    if (!o->elf &&
        !(build_id_path(path, sizeof path, o->id, o->size) && pd_elf_open_sections(path, &o->elf, NULL, NULL) == PD_ELF_OK))
        return;
    if ((o->lines = pd_dwarf_lines_elf(o->elf, NULL)) != NULL && p->want_dwarf)
        o->dwarf = pd_dwarf_open_lines(o->elf, o->lines, NULL);
}

static int *pf_state(struct pd_prefetch *p, long i) { return i < 0 ? &p->ks_state : &p->objs[i].state; }

/* The first item still QUEUED, taken (RUNNING), with the lock held; 0: none */
static int pf_next(struct pd_prefetch *p, long *i) {
    size_t k;
    if (p->stop) return 0;
    if (p->ks_path && p->ks_state == PF_QUEUED) {
        p->ks_state = PF_RUNNING;
        *i = -1;
        return 1;
    }
    for (k = 0; k < p->n; k++)
        if (p->objs[k].state == PF_QUEUED) {
            p->objs[k].state = PF_RUNNING;
            *i = (long)k;
            return 1;
        }
    return 0;
}

/* Reads item i, then marks it DONE; the lock is taken again */
static void pf_run(struct pd_prefetch *p, long i) {
    pthread_mutex_unlock(&p->mu);
    pf_read(p, i);
    pthread_mutex_lock(&p->mu);
    *pf_state(p, i) = PF_DONE;
    pthread_cond_broadcast(&p->cv);
}

/* A lookup's turn: 1 when the item has been read (by the thread, or by
   this caller while the thread read the item it waits for: the two share
   the rest of the queue), 0 when the caller is to read it itself. */
static int pf_claim(struct pd_prefetch *p, int *state) {
    int done;
    long i;
    pthread_mutex_lock(&p->mu);
    if (*state == PF_QUEUED) *state = PF_CLAIMED;
    while (*state == PF_RUNNING) {
        if (pf_next(p, &i)) pf_run(p, i);
        else pthread_cond_wait(&p->cv, &p->mu);
    }
    done = *state == PF_DONE;
    pthread_mutex_unlock(&p->mu);
    return done;
}

static void *prefetch_main(void *arg) {
    struct pd_prefetch *p = (struct pd_prefetch *)arg;
    long i;
    pthread_mutex_lock(&p->mu);
    while (pf_next(p, &i)) pf_run(p, i);
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

void pd_sym_prefetch(pd_symbolizer *s, int debug) {
    struct pd_prefetch *p;
    const perfdata_file *f = s->file;
    size_t i, k;
    int kernel = 0, unwound = 0;
    if (s->prefetch || !f || (f->flags & PERFDATA_FILE_PIPE)) return; /* a pipe names its host and objects later */
    if (pd_limit.jobs == 1) return;                                    /* -j 1: one thread for everything */
    for (i = 0; i < f->nr_events; i++) {
        const uint64_t dwarf = PERFDATA_SAMPLE_REGS_USER | PERFDATA_SAMPLE_STACK_USER | PERFDATA_SAMPLE_CALLCHAIN;
        if (!(f->events[i].attr.flags & PERFDATA_ATTR_FLAG_EXCLUDE_KERNEL)) kernel = 1;
        if ((f->events[i].attr.sample_type & dwarf) == dwarf) unwound = 1;
    }
    if (debug >= 2 && !unwound) debug = 0; /* inlined frames are those of unwound stacks */
    if (!(p = (struct pd_prefetch *)calloc(1, sizeof *p))) pd_nomem();
    p->want_dwarf = debug >= 2 && s->inline_frames;
    if (kernel && !s->kallsyms_tried) p->ks_path = s->kallsyms_path ? s->kallsyms_path : recorded_here(s) ? "/proc/kallsyms" : NULL;
    p->ks_state = PF_QUEUED;
    if (debug && !s->search.symfs) { /* with --symfs, debug files are looked for below it */
        for (i = 0; i < s->capbids && p->n < PF_OBJECTS_MAX; i++) {
            const pd_bid *b = &s->bids[i];
            unsigned mode = b->misc & PERFDATA_MISC_CPUMODE_MASK;
            if (!b->name || b->size < 2 || mode == PERFDATA_MISC_KERNEL || mode == PERFDATA_MISC_GUEST_KERNEL) continue;
            for (k = 0; k < p->n; k++) /* one read per build id */
                if (p->objs[k].size == b->size && !memcmp(p->objs[k].id, b->id, b->size)) break;
            if (k < p->n) continue;
            if (!p->objs && !(p->objs = (pd_prefetch_obj *)calloc(PF_OBJECTS_MAX, sizeof *p->objs))) pd_nomem();
            memcpy(p->objs[p->n].id, b->id, b->size);
            p->objs[p->n].path = b->name[0] == '/' ? b->name : NULL;
            p->objs[p->n++].size = b->size;
        }
    }
    s->prefetch = p;
    if (!p->ks_path && !p->n) return;
    if (pthread_mutex_init(&p->mu, NULL) != 0) { p->ks_path = NULL; p->n = 0; return; }
    if (pthread_cond_init(&p->cv, NULL) != 0) {
        pthread_mutex_destroy(&p->mu);
        p->ks_path = NULL;
        p->n = 0;
        return;
    }
    pd_hash_u64(0); /* the seed drawn here: the thread reads it */
    p->started = pthread_create(&p->thread, NULL, prefetch_main, p) == 0;
    if (!p->started) { /* nothing read ahead: every lookup reads for itself */
        pthread_cond_destroy(&p->cv);
        pthread_mutex_destroy(&p->mu);
        p->ks_path = NULL;
        p->n = 0;
    }
}

/* The debug file read ahead for binary bin, or NULL */
/* The item read ahead for the binary bin (by its build id), or NULL */
static pd_prefetch_obj *pf_find(struct pd_prefetch *p, const pd_elf *bin) {
    const pd_elf_info *info;
    size_t i;
    if (!p || !p->started || !bin) return NULL;
    info = pd_elf_get_info(bin);
    if (!info->build_id) return NULL;
    for (i = 0; i < p->n; i++)
        if (p->objs[i].size == info->build_id_size && !memcmp(p->objs[i].id, info->build_id, p->objs[i].size))
            return &p->objs[i];
    return NULL;
}

static pd_prefetch_obj *prefetched(pd_symbolizer *s, const pd_elf *bin) {
    pd_prefetch_obj *o = pf_find(s->prefetch, bin);
    return o && pf_claim(s->prefetch, &o->state) ? o : NULL;
}

/* Whether the thread has yet to finish reading an item (under the lock,
   without taking it) */
static int pf_reading(struct pd_prefetch *p, const int *state) {
    int reading;
    pthread_mutex_lock(&p->mu);
    reading = *state == PF_QUEUED || *state == PF_RUNNING;
    pthread_mutex_unlock(&p->mu);
    return reading;
}

/* Whether the kernel's symbols are still being read ahead */
static int kallsyms_reading(pd_symbolizer *s) {
    struct pd_prefetch *p = s->prefetch;
    return p && p->started && p->ks_path && pf_reading(p, &p->ks_state);
}

int pd_sym_kernel_waits(pd_symbolizer *s) { return !s->kallsyms_tried && kallsyms_reading(s); }

int pd_sym_inlines_wait(pd_symbolizer *s, const pd_resolved *r) {
    pd_dso *d = r->dso_index && r->dso_index <= s->ndsos ? &s->dsos[r->dso_index - 1] : NULL;
    pd_prefetch_obj *o;
    if (!s->inline_frames || !d || d->lines_tried || !d->symelf) return 0;
    o = pf_find(s->prefetch, d->elf);
    return o && pf_reading(s->prefetch, &o->state);
}

static void prefetch_free(pd_symbolizer *s) {
    struct pd_prefetch *p = s->prefetch;
    size_t i;
    if (!p) return;
    if (p->started) {
        pthread_mutex_lock(&p->mu);
        p->stop = 1;
        pthread_mutex_unlock(&p->mu);
        pthread_join(p->thread, NULL);
        pthread_cond_destroy(&p->cv);
        pthread_mutex_destroy(&p->mu);
        p->started = 0;
    }
    for (i = 0; i < p->n; i++) {
        pd_dwarf_close(p->objs[i].dwarf); /* before the line tables it borrows */
        pd_dwarf_lines_free(p->objs[i].lines);
        p->objs[i].dwarf = NULL;
        p->objs[i].lines = NULL;
    }
    pd_kallsyms_free(p->ks);
    p->ks = NULL;
}

static void prefetch_close(pd_symbolizer *s) {
    struct pd_prefetch *p = s->prefetch;
    size_t i;
    if (!p) return;
    for (i = 0; i < p->n; i++) pd_elf_close(p->objs[i].elf);
    free(p->objs);
    free(p);
    s->prefetch = NULL;
}

static void load_kallsyms(pd_symbolizer *s) {
    pd_elf_error err;
    pd_elf_status st;
    struct pd_prefetch *p = s->prefetch;
    const char *path = s->kallsyms_path ? s->kallsyms_path : (recorded_here(s) ? "/proc/kallsyms" : NULL);
    s->kallsyms_tried = 1;
    s->host_matches = path && !s->kallsyms_path;
    if (!path) return;
    if (p && p->started && p->ks_path && !strcmp(p->ks_path, path) && pf_claim(p, &p->ks_state)) {
        st = p->ks_status;
        err = p->ks_err;
        s->kallsyms = p->ks;
        p->ks = NULL;
    } else {
        st = pd_kallsyms_load(path, &s->kallsyms, &err);
    }
    if (st != PD_ELF_OK) {
        fprintf(stderr, "perfdata: %s: %s\n", path, err.message);
        pd_kallsyms_free(s->kallsyms);
        s->kallsyms = NULL;
    }
}

static char level_of(unsigned cpumode) {
    switch (cpumode) {
    case PERFDATA_MISC_KERNEL: return 'k';
    case PERFDATA_MISC_GUEST_KERNEL: return 'g';
    case PERFDATA_MISC_GUEST_USER: return 'u';
    case PERFDATA_MISC_HYPERVISOR: return 'H';
    default: return '.';
    }
}

/* The kernel's symbol at ip, read first when not yet */
static void name_kernel(pd_symbolizer *s, uint64_t ip, pd_resolved *out) {
    const pd_ksym *k;
    if (!s->kallsyms_tried) load_kallsyms(s);
    k = s->kallsyms ? pd_kallsyms_lookup(s->kallsyms, ip) : NULL;
    if (k) {
        out->sym = k->name;
        out->sym_start = k->addr;
        out->sym_end = k->end;
        out->sym_off = ip - k->addr;
    }
}

static void resolve_kernel(pd_symbolizer *s, const pd_map_entry *m, uint64_t ip, pd_resolved *out) {
    char mod[512];
    int main_map = !strncmp(m->name, "[kernel.kallsyms]", 17) || !is_module_name(m->name);
    if (main_map) {
        out->dso = kernel_dso(s);
    } else {
        /* a module: [name], and unresolved addresses relative to it */
        out->dso = module_name(m->name, mod, sizeof mod) ? pd_intern_str(&s->names, mod) : pd_intern_str(&s->names, basename_of(m->name));
        out->addr = ip - m->start + m->pgoff;
    }
    if (!s->kallsyms_tried && s->defer_kernel && kallsyms_reading(s)) {
        out->ksym_pending = 1;
        return;
    }
    name_kernel(s, ip, out);
}

void pd_sym_kernel_finish(pd_symbolizer *s, uint64_t ip, pd_resolved *r) {
    if (!r->ksym_pending) return;
    r->ksym_pending = 0;
    name_kernel(s, ip, r);
}

void pd_sym_resolve(pd_symbolizer *s, pd_state *st, pd_thread *t, unsigned cpumode, uint64_t ip, pd_resolved *out) {
    const pd_map_entry *m;
    memset(out, 0, sizeof *out);
    out->kernel = cpumode == PERFDATA_MISC_KERNEL || cpumode == PERFDATA_MISC_GUEST_KERNEL;
    out->level = level_of(cpumode);
    out->addr = ip;
    /* perf keeps no guest machine unless asked to (--guest...): it filters
       guest samples out of report and script */
    out->guest = cpumode == PERFDATA_MISC_GUEST_KERNEL || cpumode == PERFDATA_MISC_GUEST_USER;
    /* and with no guest machine it has no map for them (al->map is NULL) */
    m = out->guest ? NULL : pd_state_find_map(st, t, cpumode, ip);
    if (!m) {
        const pd_state_ksym *k = out->kernel && !out->guest ? pd_state_find_ksym(st, ip) : NULL;
        if (!s->unknown_dso) {
            s->unknown_dso = pd_intern_str(&s->names, "[unknown]");
            s->bpf_dso = pd_intern_str(&s->names, "[bpf_prog]");
        }
        out->dso = s->unknown_dso;
        if (k) {
            out->dso = s->bpf_dso;
            out->mapped = 1;
            out->sym = k->name;
            out->sym_start = k->addr;
            out->sym_end = k->addr + k->len;
            out->sym_off = ip - k->addr;
        }
        return;
    }
    out->dso_path = m->name;
    out->mapped = 1;
    if (cpumode == PERFDATA_MISC_KERNEL || (cpumode == PERFDATA_MISC_CPUMODE_UNKNOWN && m->kernel)) {
        resolve_kernel(s, m, ip, out);
        return;
    }
    if (is_anon(m->name)) {
        /* perf: anonymous memory maps addresses as they are; executable,
           it is the JIT map /tmp/perf-PID.map, shown as [JIT] tid PID */
        char jit[48];
        out->dso = pd_intern_str(&s->names, basename_of(m->name));
        if (m->prot & 4) {
            snprintf(jit, sizeof jit, "[JIT] tid %d", (int)(t ? t->pid : -1));
            out->dso = pd_intern_str(&s->names, jit);
        }
        return;
    }
    {
        pd_dso *d = dso_for(s, m);
        uint64_t vaddr = 0;
        const pd_elf_sym *sym;
        out->dso = d->short_name;
        out->dso_index = (size_t)(d - s->dsos) + 1;
        out->addr = ip - m->start + m->pgoff; /* perf's map__map_ip */
        if (d->elf && pd_elf_map_to_vaddr(d->elf, m->start, m->pgoff, ip, &vaddr) == PD_ELF_OK) {
            out->vaddr = vaddr;
            out->have_vaddr = 1;
        }
        if (out->have_vaddr && (sym = plt_or_symbol(d, vaddr)) != NULL) {
            const pd_elf_info *bin = pd_elf_get_info(d->elf);
            out->plt = bin->nr_plt && sym >= bin->plt && sym < bin->plt + bin->nr_plt;
            out->sym = shown_name(s, sym->name);
            out->src_file = sym->file;
            out->sym_start = sym->addr;
            out->sym_end = sym->end;
            out->sym_off = vaddr - sym->addr;
        }
    }
}

/* ------------------------------------------------------------ source lines */

/* A separate debug file with line tables for bin: its build id (when both
   have one) the binary's. */
static pd_elf *debug_lines_file(const char *path, const pd_elf_info *bin) {
    pd_elf *e;
    const pd_elf_info *i;
    if (pd_elf_open_file(path, &e, NULL) != PD_ELF_OK) return NULL;
    i = pd_elf_get_info(e);
    if ((bin->build_id && i->build_id &&
         (i->build_id_size != bin->build_id_size || memcmp(i->build_id, bin->build_id, bin->build_id_size) != 0)) ||
        !pd_elf_section(e, ".debug_line", NULL, NULL, NULL)) {
        pd_elf_close(e);
        return NULL;
    }
    return e;
}

/* Where perf looks for the debug information of an object whose own file
   has none: /usr/lib/debug/.build-id/xx/rest.debug, then the
   .gnu_debuglink name beside the binary, in its .debug directory and
   under /usr/lib/debug (each below --symfs when given). */
static pd_elf *separate_debug(pd_symbolizer *s, const pd_dso *d) {
    const pd_elf_info *info = pd_elf_get_info(d->elf);
    const char *root = s->search.symfs ? s->search.symfs : "";
    const unsigned char *link;
    size_t n, i, dirlen;
    char path[4096], dir[2048];
    pd_elf *e;
    int k;
    if (info->build_id && info->build_id_size >= 2) {
        k = snprintf(path, sizeof path, "%s/usr/lib/debug/.build-id/%02x/", root, info->build_id[0]);
        for (i = 1; i < info->build_id_size && k > 0 && (size_t)k + 3 < sizeof path; i++)
            k += snprintf(path + k, sizeof path - (size_t)k, "%02x", info->build_id[i]);
        if (k > 0 && (size_t)k + 7 < sizeof path) {
            memcpy(path + k, ".debug", 7);
            if ((e = debug_lines_file(path, info)) != NULL) return e;
        }
    }
    if (!pd_elf_section(d->elf, ".gnu_debuglink", &link, &n, NULL) || !n || !memchr(link, 0, n) || !link[0] ||
        strchr((const char *)link, '/') || d->name[0] != '/')
        return NULL;
    dirlen = (size_t)(strrchr(d->name, '/') - d->name);
    if (dirlen >= sizeof dir) return NULL;
    memcpy(dir, d->name, dirlen);
    dir[dirlen] = 0;
    for (k = 0; k < 3; k++) {
        static const char *const fmt[3] = {"%s%s/%s", "%s%s/.debug/%s", "%s/usr/lib/debug%s/%s"};
        int w = snprintf(path, sizeof path, fmt[k], root, dir, (const char *)link);
        if (w > 0 && (size_t)w < sizeof path && (e = debug_lines_file(path, info)) != NULL) return e;
    }
    return NULL;
}

static void load_lines(pd_symbolizer *s, pd_dso *d) {
    char shown[1024];
    size_t bad;
    pd_prefetch_obj *o;
    d->lines_tried = 1;
    if (!d->symelf) return;
    if ((o = prefetched(s, d->elf)) != NULL && o->lines && o->own == (d->symelf == d->elf)) {
        /* the file read ahead is the one read here: the symbols' debug file
           (debug_file_for), or the binary itself (the same build id) */
        d->lines = o->lines;
        o->lines = NULL;
        if (o->dwarf) {
            d->dwarf = o->dwarf;
            d->dwarf_tried = 1;
            o->dwarf = NULL;
        }
    } else {
        d->lines = pd_dwarf_lines_elf(d->symelf, NULL);
        if (!d->lines && d->elf && (d->lines_elf = separate_debug(s, d)) != NULL &&
            !(d->lines = pd_dwarf_lines_elf(d->lines_elf, NULL))) {
            pd_elf_close(d->lines_elf);
            d->lines_elf = NULL;
        }
    }
    if ((bad = pd_dwarf_bad_units(d->lines)) != 0) {
        fprintf(stderr, "perfdata: %s: %zu unit%s of its line table could not be read; their addresses have no "
                        "source line\n", pd_escaped(shown, sizeof shown, d->name), bad, bad == 1 ? "" : "s");
        s->partial = 1;
    }
}

static size_t srcline_slot(const pd_symbolizer *s, size_t d, uint64_t vaddr) {
    size_t mask = s->capsrclines - 1, i = (size_t)(pd_hash_u64(vaddr ^ (uint64_t)d * 0x9E3779B97F4A7C15ull) & mask);
    while (s->srclines[i].dso && (s->srclines[i].dso != d || s->srclines[i].vaddr != vaddr)) i = (i + 1) & mask;
    return i;
}

/* The answers are kept by address, as perf keeps them (so that its count
   of failures counts addresses), up to this many; then forgotten. */
#define PD_SRCLINES_MAX ((size_t)1 << 20)

static const char *srcline_of(pd_symbolizer *s, pd_dso *d, const pd_resolved *r) {
    pd_dwarf_where w;
    char text[PD_TEXT_CELL_MAX + 32];
    const char *file = NULL, *base;
    size_t file_len = 0, i;
    uint32_t line = 0;
    if (!d->lines_tried) load_lines(s, d);
    if (d->lines && pd_dwarf_lookup(d->lines, r->vaddr, &w)) {
        file = w.file;
        file_len = w.file_len;
        line = w.line;
    } else if (r->sym && !r->plt && d->symelf) {
        /* no line: addr2line names the symbol's file (its STT_FILE), "??"
           without; from the debug file when there is one, which perf reads
           symbols from (strip --strip-debug drops STT_FILE symbols) */
        const pd_elf_sym *sym = pd_elf_lookup(d->lines_elf ? d->lines_elf : d->symelf, r->vaddr);
        if (!sym) return NULL;
        file = sym->file ? sym->file : "??";
        file_len = strlen(file);
    } else {
        return NULL;
    }
    /* perf shows the base name */
    for (base = file, i = 0; i < file_len; i++)
        if (file[i] == '/') base = file + i + 1;
    file_len -= (size_t)(base - file);
    if (file_len > PD_TEXT_CELL_MAX) file_len = PD_TEXT_CELL_MAX;
    memcpy(text, base, file_len);
    snprintf(text + file_len, sizeof text - file_len, ":%u", (unsigned)line);
    return pd_intern_str(&s->names, text);
}

const char *pd_sym_srcline(pd_symbolizer *s, const pd_resolved *r) {
    pd_dso *d = r->dso_index && r->dso_index <= s->ndsos ? &s->dsos[r->dso_index - 1] : NULL;
    pd_srcline_slot *slot;
    const char *text;
    size_t i;
    if (!d || !r->have_vaddr || !d->symelf || d->own_vdso) return NULL;
    if (s->nsrclines * 2 >= s->capsrclines) {
        size_t cap = s->capsrclines ? s->capsrclines * 2 : 1024;
        pd_srcline_slot *old = s->srclines;
        size_t oldcap = s->capsrclines;
        if (s->nsrclines >= PD_SRCLINES_MAX) { /* forgotten: the memory stays bounded */
            memset(s->srclines, 0, s->capsrclines * sizeof *s->srclines);
            s->forgot++;
            s->nsrclines = 0;
        } else {
            if (!(s->srclines = (pd_srcline_slot *)calloc(cap, sizeof *s->srclines))) pd_nomem();
            s->capsrclines = cap;
            for (i = 0; i < oldcap; i++)
                if (old[i].dso) s->srclines[srcline_slot(s, old[i].dso, old[i].vaddr)] = old[i];
            free(old);
        }
    }
    slot = &s->srclines[srcline_slot(s, r->dso_index, r->vaddr)];
    if (slot->dso) return slot->text;
    /* perf 6.1 stops asking about an object once its first 123 lookups
       have all failed */
    text = d->a2l_fails > 123 ? NULL : srcline_of(s, d, r);
    if (text) d->a2l_fails = 0;
    else if (d->a2l_fails) d->a2l_fails++;
    slot->dso = r->dso_index;
    slot->vaddr = r->vaddr;
    slot->text = text;
    s->nsrclines++;
    return text;
}

/* d's functions and inlined calls (which also give its line tables' units
   their compilation directories), read on first use */
static void load_dwarf(pd_symbolizer *s, pd_dso *d) {
    if (d->dwarf_tried) return;
    d->dwarf_tried = 1;
    if (!d->lines_tried) load_lines(s, d);
    d->dwarf = pd_dwarf_open_lines(d->lines_elf ? d->lines_elf : d->symelf, d->lines, NULL);
}

int pd_sym_source(pd_symbolizer *s, size_t dso_index, uint64_t vaddr, char *file, size_t cap, uint32_t *line) {
    pd_dso *d = dso_index && dso_index <= s->ndsos ? &s->dsos[dso_index - 1] : NULL;
    pd_dwarf_where w;
    if (!d || !cap) return 0;
    load_dwarf(s, d); /* the path below the unit's compilation directory, as addr2line joins it */
    if (!d->lines || !pd_dwarf_lookup(d->lines, vaddr, &w)) return 0;
    pd_dwarf_path(&w, file, cap);
    *line = w.line;
    return 1;
}

/* ------------------------------------------------- call frame information */

static void load_cfi(pd_dso *d) {
    const pd_elf_info *info;
    uint64_t flags = 0;
    d->cfi_tried = 1;
    memset(&d->cfi, 0, sizeof d->cfi);
    if (!d->elf) return;
    info = pd_elf_get_info(d->elf);
    d->cfi.big_endian = info->big_endian;
    d->cfi.addr_size = info->elf64 ? 8 : 4;
    if (pd_elf_section(d->elf, ".eh_frame", &d->cfi.eh_frame, &d->cfi.eh_frame_n, NULL) &&
        pd_elf_section_addr(d->elf, ".eh_frame", &d->cfi.eh_frame_addr) &&
        pd_elf_section(d->elf, ".eh_frame_hdr", &d->cfi.eh_frame_hdr, &d->cfi.eh_frame_hdr_n, NULL) &&
        !pd_elf_section_addr(d->elf, ".eh_frame_hdr", &d->cfi.eh_frame_hdr_addr))
        d->cfi.eh_frame_hdr = NULL;
    /* .debug_frame: the binary's, else its debug file's (compressed ones are not read) */
    if (!pd_elf_section(d->elf, ".debug_frame", &d->cfi.debug_frame, &d->cfi.debug_frame_n, &flags) ||
        (flags & 0x800)) {
        d->cfi.debug_frame = NULL;
        d->cfi.debug_frame_n = 0;
        if (d->symelf != d->elf &&
            (!pd_elf_section(d->symelf, ".debug_frame", &d->cfi.debug_frame, &d->cfi.debug_frame_n, &flags) ||
             (flags & 0x800))) {
            d->cfi.debug_frame = NULL;
            d->cfi.debug_frame_n = 0;
        }
    }
    /* arm32's EHABI tables, where neither has an FDE */
    if (pd_elf_section(d->elf, ".ARM.exidx", &d->cfi.arm_exidx, &d->cfi.arm_exidx_n, NULL) &&
        !pd_elf_section_addr(d->elf, ".ARM.exidx", &d->cfi.arm_exidx_addr)) {
        d->cfi.arm_exidx = NULL;
        d->cfi.arm_exidx_n = 0;
    }
    if (pd_elf_section(d->elf, ".ARM.extab", &d->cfi.arm_extab, &d->cfi.arm_extab_n, NULL) &&
        !pd_elf_section_addr(d->elf, ".ARM.extab", &d->cfi.arm_extab_addr)) {
        d->cfi.arm_extab = NULL;
        d->cfi.arm_extab_n = 0;
    }
    /* the FDEs are indexed once, for .debug_frame and for an .eh_frame
       whose header is missing or unusable: a lookup is then a binary
       search, never a pass over the section */
    if (d->cfi.eh_frame || d->cfi.debug_frame) { /* (a header the lookup cannot use falls back to it) */
        /* one pass, into room for as many FDEs as the sections can hold
           (an entry takes 8 bytes and more: its length and CIE pointer;
           the index takes PD_CFI_MAX_SCAN a section at most; pages not
           written are not touched), what is left over given back. Where
           that room cannot be had, the FDEs are counted first, as the
           index is the same whatever the memory. */
        size_t eh = d->cfi.eh_frame_n / 8, dbg = d->cfi.debug_frame_n / 8, n = 0, room;
        room = (eh < PD_CFI_MAX_SCAN ? eh : PD_CFI_MAX_SCAN) + (dbg < PD_CFI_MAX_SCAN ? dbg : PD_CFI_MAX_SCAN) + 1;
        if ((d->cfi_index = (pd_cfi_fde *)malloc(room * sizeof *d->cfi_index)) != NULL) {
            n = pd_cfi_index(&d->cfi, d->cfi_index, room);
        } else if ((room = pd_cfi_index(&d->cfi, NULL, 0)) != 0 &&
                   (d->cfi_index = (pd_cfi_fde *)malloc(room * sizeof *d->cfi_index)) != NULL) {
            n = pd_cfi_index(&d->cfi, d->cfi_index, room);
        }
        if (n && n <= room) {
            pd_cfi_fde *fit = (pd_cfi_fde *)realloc(d->cfi_index, n * sizeof *d->cfi_index);
            if (fit) d->cfi_index = fit;
            d->cfi.index = d->cfi_index;
            d->cfi.index_n = n;
        } else {
            free(d->cfi_index);
            d->cfi_index = NULL;
        }
    }
}

/* perf 6.1 (read_unwind_spec_eh_frame) places an object's unwind table by
   the lowest-starting map of that object in the thread's maps (start -
   pgoff, less the first PT_LOAD's page): where an exec left the parent's
   maps of the object behind, that is the stale one, and the table is
   looked up at addresses that are not the code's. */
struct pd_cfi_base { const pd_maps *maps; uint64_t gen; size_t dso; uint64_t base; int ok; };

static int perf_base(pd_symbolizer *s, pd_thread *t, const pd_dso *d, size_t dso_index, uint64_t *base) {
    struct pd_cfi_base *e;
    size_t i, n;
    uint64_t load = 0;
    if (!t || !t->maps) return 0;
    if (!s->cfi_bases && !(s->cfi_bases = (struct pd_cfi_base *)calloc(1024, sizeof *s->cfi_bases))) pd_nomem();
    e = &s->cfi_bases[(size_t)(pd_hash_u64((uintptr_t)t->maps ^ (uint64_t)dso_index << 48) & 1023)];
    if (e->maps == t->maps && e->gen == t->maps->gen && e->dso == dso_index) {
        *base = e->base;
        return e->ok;
    }
    e->maps = t->maps;
    e->gen = t->maps->gen;
    e->dso = dso_index;
    e->ok = 0;
    n = pd_maps_count(t->maps);
    for (i = 0; i < n; i++) { /* by start: the first of the object's is the lowest */
        const pd_map_entry *m = pd_maps_at(t->maps, i);
        if (m->name != d->name) continue;
        pd_elf_first_load(d->elf, &load);
        e->base = m->start - m->pgoff - (load & ~(uint64_t)4095);
        e->ok = 1;
        break;
    }
    *base = e->base;
    return e->ok;
}

static int cfi_lookup(pd_symbolizer *s, pd_state *st, pd_thread *t, uint64_t pc, pd_cfi_row *row) {
    const pd_map_entry *m = pd_state_find_map(st, t, PERFDATA_MISC_USER, pc);
    pd_dso *d;
    uint64_t base;
    if (!m || (is_pseudo(m->name) && strcmp(m->name, "[vdso]") != 0) || is_anon(m->name)) return -1;
    d = dso_for(s, m);
    if (!d->cfi_tried) load_cfi(d);
    if (!d->elf || !perf_base(s, t, d, (size_t)(d - s->dsos) + 1, &base)) return -1;
    return pd_cfi_find(&d->cfi, pc - base, row) == 1 ? 1 : 0;
}

/* The rules at a pc depend only on the address space's maps (their
   generation) and the pc: a stack's frames meet the same few pcs sample
   after sample. A direct-mapped cache of the answers, each row kept as its
   rules other than PD_RULE_NONE, packed (a register and an offset: 8
   bytes a rule, an entry in about a hundred); a row that does not pack (an
   expression, more rules, an offset beyond 32 bits) is not kept and is
   looked up each time. A collision costs one lookup again. */
#define PD_CFI_CACHE_BITS 13
#define PD_CFI_CACHE_RULES 10
typedef struct pd_cfi_packed {
    unsigned char regno, kind, reg, unused;
    int32_t off;
} pd_cfi_packed;
typedef struct pd_cfi_cached {
    uint64_t gen, pc;           /* gen 0: an empty slot */
    signed char found;          /* pd_sym_cfi's answer */
    unsigned char n, ra, flags; /* flags: 1 signal, 2 ra_signed */
    pd_cfi_packed cfa, rule[PD_CFI_CACHE_RULES];
} pd_cfi_cached;

/* r packed into *p (regno i); 0 when it does not fit */
static int cfi_pack(const pd_cfi_rule *r, unsigned i, pd_cfi_packed *p) {
    if (r->kind == PD_RULE_EXPRESSION || r->kind == PD_RULE_VAL_EXPRESSION || r->kind == PD_RULE_CFA_EXPRESSION ||
        i > 255 || r->reg > 255 || r->off < INT32_MIN || r->off > INT32_MAX)
        return 0;
    p->regno = (unsigned char)i;
    p->kind = r->kind;
    p->reg = (unsigned char)r->reg;
    p->unused = 0;
    p->off = (int32_t)r->off;
    return 1;
}

static void cfi_unpack(const pd_cfi_packed *p, pd_cfi_rule *r) {
    r->kind = p->kind;
    r->reg = p->reg;
    r->off = p->off;
    r->expr = NULL;
    r->expr_n = 0;
}

int pd_sym_cfi(pd_symbolizer *s, pd_state *st, pd_thread *t, uint64_t pc, pd_cfi_row *row) {
    uint64_t gen = t && t->maps ? t->maps->gen : 0;
    pd_cfi_cached *e;
    unsigned i, n;
    int found;
    if (!gen) return cfi_lookup(s, st, t, pc, row);
    if (!s->cfi_cache &&
        !(s->cfi_cache = (pd_cfi_cached *)calloc((size_t)1 << PD_CFI_CACHE_BITS, sizeof *s->cfi_cache)))
        pd_nomem();
    e = &s->cfi_cache[(size_t)(((pc ^ gen * 0xC2B2AE3D27D4EB4Full) * 0x9E3779B97F4A7C15ull) >> (64 - PD_CFI_CACHE_BITS))];
    if (e->gen == gen && e->pc == pc) {
        if (e->found == 1) { /* the rules outside the mask are left as they are: they read as none */
            row->ruled = PD_CFI_RULED;
            cfi_unpack(&e->cfa, &row->cfa);
            row->ra = e->ra;
            row->signal = e->flags & 1;
            row->ra_signed = (e->flags >> 1) & 1;
            for (i = 0; i < e->n; i++) {
                cfi_unpack(&e->rule[i], &row->reg[e->rule[i].regno]);
                row->ruled |= (uint64_t)1 << e->rule[i].regno;
            }
        }
        return e->found;
    }
    memset(row, 0, sizeof *row);
    found = cfi_lookup(s, st, t, pc, row);
    e->gen = 0; /* until filled */
    if (found == 1) {
        if (row->ra > 255 || !cfi_pack(&row->cfa, 0, &e->cfa)) return found;
        for (i = n = 0; i < PD_CFI_REGS; i++) {
            if (pd_cfi_kind(row, i) == PD_RULE_NONE) continue;
            if (n == PD_CFI_CACHE_RULES || !cfi_pack(&row->reg[i], i, &e->rule[n])) return found;
            n++;
        }
        e->n = (unsigned char)n;
        e->ra = (unsigned char)row->ra;
        e->flags = (unsigned char)((row->signal != 0) | (row->ra_signed != 0) << 1);
    }
    e->gen = gen;
    e->pc = pc;
    e->found = (signed char)found;
    return found;
}

/* --------------------------------------------------------- inlined frames */

typedef struct pd_inline_slot {
    size_t dso;                     /* 1 + the object's index; 0: an empty slot */
    uint64_t vaddr;
    size_t first, n;                /* its names in inline_names */
} pd_inline_slot;

static size_t inline_slot(const pd_symbolizer *s, size_t d, uint64_t vaddr) {
    size_t mask = s->capinlines - 1, i = (size_t)(pd_hash_u64(vaddr ^ (uint64_t)d * 0x9E3779B97F4A7C15ull) & mask);
    while (s->inlines[i].dso && (s->inlines[i].dso != d || s->inlines[i].vaddr != vaddr)) i = (i + 1) & mask;
    return i;
}

/* The answers are kept by address, as perf keeps them (its lookups
   change what later ones name), up to this many names; then forgotten. */
#define PD_INLINE_NAMES_MAX ((size_t)1 << 22)

/* "file:line" of a caller's place (a call site): its base name */
static const char *place_text(pd_symbolizer *s, const pd_dwarf_where *w) {
    char text[PD_TEXT_CELL_MAX + 32];
    const char *base = w->file;
    size_t i, n;
    for (i = 0; i < w->file_len; i++)
        if (w->file[i] == '/') base = w->file + i + 1;
    n = w->file_len - (size_t)(base - w->file);
    if (!n) { base = "??"; n = 2; }
    if (n > PD_TEXT_CELL_MAX) n = PD_TEXT_CELL_MAX;
    memcpy(text, base, n);
    snprintf(text + n, sizeof text - n, ":%u", (unsigned)w->line);
    return pd_intern_str(&s->names, text);
}

static size_t inlines_of(pd_symbolizer *s, pd_dso *d, const pd_resolved *r, pd_sym_inline *out, size_t max) {
    pd_dwarf_frame *fr;
    size_t n, i, nent;
    const char *first = pd_sym_srcline(s, r);
    /* perf lists what addr2line -i gives: nothing where it knows nothing */
    if (!first) return 0;
    load_dwarf(s, d);
    if (!s->inline_scratch &&
        !(s->inline_scratch = (pd_dwarf_frame *)malloc(PD_SYM_INLINES_MAX * sizeof *s->inline_scratch)))
        pd_nomem();
    fr = s->inline_scratch;
    n = d->dwarf ? pd_dwarf_frames(d->dwarf, r->vaddr, fr, max < PD_SYM_INLINES_MAX ? max : PD_SYM_INLINES_MAX) : 0;
    if (pd_dwarf_cut(d->dwarf) && !d->said_cut) { /* a hostile file's bounds: said once */
        char shown[1024];
        d->said_cut = 1;
        s->partial = 1;
        fprintf(stderr, "perfdata: %s: its debug information exceeds a bound (nesting or range lists); some inlined "
                        "frames are left out\n", pd_escaped(shown, sizeof shown, d->name));
    }
    if (!n || !fr[0].name) { /* addr2line names the function by the symbol table */
        out[0].name = r->sym;
        out[0].srcline = first;
        return 1;
    }
    nent = pd_dwarf_entries(d->dwarf);
    if (nent + 1 > d->a2l_cap) { /* units read since: their entries start unseen */
        size_t cap = (nent + 1) * 2, k;
        unsigned char *seen = (unsigned char *)realloc(d->a2l_seen, cap);
        const char **names;
        if (!seen) pd_nomem();
        d->a2l_seen = seen;
        if (!(names = (const char **)realloc((void *)d->a2l_name, cap * sizeof *names))) pd_nomem();
        d->a2l_name = names;
        for (k = d->a2l_cap; k < cap; k++) {
            d->a2l_seen[k] = 0;
            d->a2l_name[k] = NULL;
        }
        d->a2l_cap = cap;
    }
    for (i = 0; i < n; i++) {
        uint32_t id = fr[i].id <= nent ? fr[i].id : 0;
        const char *name = NULL;
        if (id && d->a2l_name[id]) {
            name = d->a2l_name[id];
        } else if (i == 0 && !fr[0].linkage && !(id && d->a2l_seen[id]) && r->sym) {
            /* binutils names the innermost by the symbol table the first
               time, where its own name is no linkage name (a C++ lambda's
               operator(), a function in an anonymous namespace), and keeps
               that name for the entry when the symbol starts where it does */
            name = r->sym;
            if (id && r->sym_start == fr[0].low) d->a2l_name[id] = name;
        } else {
            const char *raw = fr[i].name && fr[i].name_len
                                  ? pd_intern_n(&s->names, fr[i].name,
                                                fr[i].name_len > PD_TEXT_CELL_MAX ? PD_TEXT_CELL_MAX : fr[i].name_len)
                                  : pd_intern_str(&s->names, "??");
            name = shown_name(s, raw);
        }
        if (i == 0 && id) d->a2l_seen[id] = 1;
        out[i].name = name;
        /* the innermost at its line (addr2line's), each caller at its call */
        out[i].srcline = i == 0 ? first : place_text(s, &fr[i].where);
    }
    return n;
}

size_t pd_sym_inlines(pd_symbolizer *s, const pd_resolved *r, pd_sym_inline *out, size_t max) {
    pd_dso *d = r->dso_index && r->dso_index <= s->ndsos ? &s->dsos[r->dso_index - 1] : NULL;
    pd_inline_slot *slot;
    size_t i, n;
    if (!s->inline_frames || !d || !r->sym || !r->have_vaddr || !d->symelf || d->own_vdso || !max) return 0;
    if (s->ninlines * 2 >= s->capinlines || s->ninline_names + PD_SYM_INLINES_MAX > s->capinline_names) {
        if (s->ninline_names + PD_SYM_INLINES_MAX > PD_INLINE_NAMES_MAX) { /* forgotten: memory stays bounded */
            memset(s->inlines, 0, s->capinlines * sizeof *s->inlines);
            s->ninlines = s->ninline_names = 0;
            s->forgot++;
        }
        if (s->ninlines * 2 >= s->capinlines) {
            size_t cap = s->capinlines ? s->capinlines * 2 : 1024, oldcap = s->capinlines;
            pd_inline_slot *old = s->inlines;
            if (!(s->inlines = (pd_inline_slot *)calloc(cap, sizeof *s->inlines))) pd_nomem();
            s->capinlines = cap;
            for (i = 0; i < oldcap; i++)
                if (old[i].dso) s->inlines[inline_slot(s, old[i].dso, old[i].vaddr)] = old[i];
            free(old);
        }
        if (s->ninline_names + PD_SYM_INLINES_MAX > s->capinline_names) {
            size_t cap = s->capinline_names ? s->capinline_names * 2 : 4096;
            pd_sym_inline *v = (pd_sym_inline *)realloc(s->inline_names, cap * sizeof *v);
            if (!v) pd_nomem();
            s->inline_names = v;
            s->capinline_names = cap;
        }
    }
    slot = &s->inlines[inline_slot(s, r->dso_index, r->vaddr)];
    if (!slot->dso) {
        slot->dso = r->dso_index;
        slot->vaddr = r->vaddr;
        slot->first = s->ninline_names;
        slot->n = inlines_of(s, d, r, s->inline_names + s->ninline_names, PD_SYM_INLINES_MAX);
        s->ninline_names += slot->n;
        s->ninlines++;
    }
    n = slot->n < max ? slot->n : max;
    for (i = 0; i < n; i++) out[i] = s->inline_names[slot->first + i];
    return n;
}

/* perf unwinds a process's stacks only once one of its maps is of an
   object whose ELF type it could read (unwind__prepare_access, at each
   map insertion until one is): with none at hand (a profile from another
   machine), its samples show no user frames at all. Kept per address
   space and its generation. */
int pd_sym_can_unwind(pd_symbolizer *s, pd_thread *t) {
    struct pd_unwindable *e;
    size_t i, n;
    int ok = 0;
    if (!t || !t->maps) return 0;
    if (!s->unwindable && !(s->unwindable = (struct pd_unwindable *)calloc(256, sizeof *s->unwindable))) pd_nomem();
    e = &s->unwindable[(size_t)(pd_hash_u64((uintptr_t)t->maps) & 255)];
    if (e->maps == t->maps && e->gen == t->maps->gen) return e->ok;
    n = pd_maps_count(t->maps);
    for (i = 0; i < n && !ok; i++) {
        const pd_map_entry *m = pd_maps_at(t->maps, i);
        if (m->kernel || is_anon(m->name) || (is_pseudo(m->name) && strcmp(m->name, "[vdso]") != 0)) continue;
        ok = dso_for(s, m)->elf != NULL;
    }
    e->maps = t->maps;
    e->gen = t->maps->gen;
    e->ok = ok;
    return ok;
}

int pd_sym_user_mapped(pd_state *st, pd_thread *t, uint64_t addr) {
    return pd_state_find_map(st, t, PERFDATA_MISC_USER, addr) != NULL;
}

/* ------------------------------------------------------------- unwinding */

/* the register set smp's user stack is unwound with: perf's ABI of the
   registers (PERF_SAMPLE_REGS_ABI_32 1, _64 2) on the recording's
   architecture (its uname -m); 0: none */
enum { UNWIND_NONE, UNWIND_X86_64, UNWIND_AARCH64, UNWIND_ARM };
static int unwind_kind(const perfdata_sample *smp, const char *arch) {
    /* perf unwinds where it shows a call chain: the sample has one (perf
       record --call-graph dwarf sets CALLCHAIN, the kernel's part) */
    if (!(smp->sample_type & PERFDATA_SAMPLE_REGS_USER) || !(smp->sample_type & PERFDATA_SAMPLE_STACK_USER) ||
        !(smp->sample_type & PERFDATA_SAMPLE_CALLCHAIN) || !smp->stack_user.n || !arch)
        return UNWIND_NONE;
    if (!strcmp(arch, "x86_64")) return smp->regs_user.abi == 2 ? UNWIND_X86_64 : UNWIND_NONE;
    if (!strcmp(arch, "aarch64") || !strcmp(arch, "arm64")) /* a 32-bit task's are arm's r0-r15 */
        return smp->regs_user.abi == 2 ? UNWIND_AARCH64 : smp->regs_user.abi == 1 ? UNWIND_ARM : UNWIND_NONE;
    if (!strncmp(arch, "arm", 3)) return smp->regs_user.abi == 1 ? UNWIND_ARM : UNWIND_NONE;
    return UNWIND_NONE;
}

int pd_sym_unwinds(const perfdata_sample *smp, const char *arch) { return unwind_kind(smp, arch) != UNWIND_NONE; }

typedef struct unwind_ctx { pd_symbolizer *s; pd_state *st; pd_thread *t; } unwind_ctx;
static int unwind_mapped(void *ctx, uint64_t addr) {
    unwind_ctx *u = (unwind_ctx *)ctx;
    return pd_sym_user_mapped(u->st, u->t, addr);
}
/* perf reads any other address from the file of the object mapped there
   (access_dso_mem) */
static int unwind_code(void *ctx, uint64_t addr, unsigned char *buf, size_t n) {
    unwind_ctx *u = (unwind_ctx *)ctx;
    const pd_map_entry *m = pd_state_find_map(u->st, u->t, PERFDATA_MISC_USER, addr);
    pd_dso *d;
    if (!m || is_pseudo(m->name) || is_anon(m->name)) return 0;
    d = dso_for(u->s, m);
    return d->elf && pd_elf_read(d->elf, addr - m->start + m->pgoff, buf, n);
}
static int unwind_cfi(void *ctx, uint64_t pc, pd_cfi_row *row) {
    unwind_ctx *u = (unwind_ctx *)ctx;
    return pd_sym_cfi(u->s, u->st, u->t, pc, row);
}

size_t pd_sym_unwind(pd_symbolizer *s, pd_state *st, pd_thread *t, const perfdata_sample *smp, const char *arch,
                     uint64_t *ips, size_t max) {
    uint64_t perf_regs[PD_CFI_REGS];
    pd_unwind_regs regs;
    pd_unwind_stack stack;
    unwind_ctx u;
    unsigned i, pc_reg, sp_reg, flags = PD_UNWIND_PERF;
    int kind = unwind_kind(smp, arch);
    if (kind == UNWIND_NONE || !pd_sym_can_unwind(s, t)) return 0;
    /* the values in mask order, in one pass (perfdata_regs_get counts the
       bits below each register) */
    memset(perf_regs, 0, sizeof perf_regs);
    if (smp->regs_user.abi) {
        uint64_t bits = smp->regs_user.mask;
        size_t k = 0;
        for (i = 0; i < PD_CFI_REGS && bits; i++, bits >>= 1)
            if (bits & 1) perf_regs[i] = perfdata_u64s_at(&smp->regs_user.values, k++);
    }
    stack.addr_size = 8;
    if (kind == UNWIND_X86_64) {
        pd_unwind_regs_x86_64(perf_regs, smp->regs_user.mask, &regs);
        pc_reg = PD_X86_64_RA;
        sp_reg = PD_X86_64_SP;
    } else if (kind == UNWIND_AARCH64) {
        pd_unwind_regs_aarch64(perf_regs, smp->regs_user.mask, &regs);
        pc_reg = PD_AARCH64_PC;
        sp_reg = PD_AARCH64_SP;
    } else {
        pd_unwind_regs_arm(perf_regs, smp->regs_user.mask, &regs);
        pc_reg = PD_ARM_PC;
        sp_reg = PD_ARM_SP;
        stack.addr_size = 4;
        flags |= PD_UNWIND_ARM;
    }
    if (!((regs.valid >> sp_reg) & 1) || !((regs.valid >> pc_reg) & 1)) return 0;
    stack.p = smp->stack_user.p;
    stack.n = smp->stack_user.n;
    stack.sp = regs.v[sp_reg];
    stack.big_endian = smp->callchain.big_endian;
    stack.perf = 1;
    stack.mapped = unwind_mapped;
    stack.code = unwind_code;
    stack.ctx = &u;
    u.s = s;
    u.st = st;
    u.t = t;
    return pd_unwind(&regs, pc_reg, sp_reg, &stack, unwind_cfi, &u, ips, max, flags);
}
