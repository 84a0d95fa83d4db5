/* pd_sym.c - see pd_sym.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "pd_sym.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/utsname.h>

typedef struct pd_dso {
    const char *name;               /* interned mapping name */
    pd_elf *elf;                    /* the binary: translates ips; NULL: none */
    pd_elf *symelf;                 /* where the symbols are: elf, or its debug file */
    const char *short_name;
} pd_dso;

static int feature_equals(perfdata_file *f, unsigned feat, const char *want) {
    perfdata_view v;
    return perfdata_feature_string(f, feat, &v, NULL) == PERFDATA_OK && strlen(want) == v.n &&
           !memcmp(v.p, want, v.n);
}

void pd_sym_init(pd_symbolizer *s, perfdata_file *f) {
    struct utsname u;
    memset(s, 0, sizeof *s);
    s->file = f;
    if (uname(&u) == 0)
        s->host_matches = feature_equals(f, PERFDATA_FEAT_HOSTNAME, u.nodename) &&
                          feature_equals(f, PERFDATA_FEAT_OSRELEASE, u.release);
}

void pd_sym_free(pd_symbolizer *s) {
    size_t i;
    for (i = 0; i < s->ndsos; i++) {
        if (s->dsos[i].symelf != s->dsos[i].elf) pd_elf_close(s->dsos[i].symelf);
        pd_elf_close(s->dsos[i].elf);
    }
    free(s->dsos);
    free(s->dso_slots);
    pd_kallsyms_free(s->kallsyms);
    pd_elf_search_free(&s->search);
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

/* The build id the BUILD_ID feature recorded for a file name. */
static void recorded_build_id(pd_symbolizer *s, const char *name, const unsigned char **bid, size_t *len) {
    perfdata_view sec;
    perfdata_build_id b;
    size_t st = 0, n = strlen(name);
    if (!s->file || perfdata_feature_section(s->file, PERFDATA_FEAT_BUILD_ID, &sec, NULL) != PERFDATA_OK) return;
    while (perfdata_build_id_next(sec, (s->file->flags & PERFDATA_FILE_BIG_ENDIAN) != 0, &st, &b))
        if (b.filename.n == n && !memcmp(b.filename.p, name, n)) {
            *bid = b.build_id.p;
            *len = b.build_id.n;
            return;
        }
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
    size_t mask = 2 * s->capdsos - 1, i = (size_t)(((uint64_t)(uintptr_t)name * 0x9E3779B97F4A7C15ull) >> 32) & mask;
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
    if (!p || !(fp = fopen("/proc/self/maps", "r"))) return NULL;
    while (fgets(line, sizeof line, fp))
        if (strstr(line, "[vdso]") && sscanf(line, "%llx-%llx", &lo, &hi) == 2 && lo == (uintptr_t)p && hi > lo)
            size = (size_t)(hi - lo);
    fclose(fp);
    if (!size || pd_elf_open_mem(p, size, &elf, NULL) != PD_ELF_OK) return NULL;
    info = pd_elf_get_info(elf);
    if (bid && (info->build_id_size != bid_len || memcmp(info->build_id, bid, bid_len))) {
        pd_elf_close(elf);
        return NULL;
    }
    return elf;
}

static pd_dso *dso_for(pd_symbolizer *s, const pd_map_entry *m) {
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
        if (!v || !slots) abort();
        s->dsos = v;
        s->capdsos = cap;
        free(s->dso_slots);
        s->dso_slots = slots;
        for (i = 0; i < s->ndsos; i++) s->dso_slots[dso_slot(s, s->dsos[i].name)] = i + 1;
    }
    s->dso_slots[dso_slot(s, m->name)] = s->ndsos + 1;
    d = &s->dsos[s->ndsos++];
    d->name = m->name;
    d->elf = d->symelf = NULL;
    d->short_name = basename_of(m->name);
    if (!strcmp(m->name, "[vdso]")) {
        const unsigned char *bid = m->build_id_size ? m->build_id : NULL;
        size_t bid_len = (size_t)m->build_id_size;
        if (!bid) recorded_build_id(s, m->name, &bid, &bid_len);
        d->elf = d->symelf = own_vdso(bid, bid_len);
        return d;
    }
    if (is_pseudo(m->name)) return d;
    {
        const unsigned char *bid = m->build_id_size ? m->build_id : NULL;
        size_t bid_len = (size_t)m->build_id_size;
        if (!bid) recorded_build_id(s, m->name, &bid, &bid_len);
        st = pd_elf_find(&s->search, m->name, bid, bid_len, &d->elf, &found, &err);
    }
    if (st == PD_ELF_BUILD_ID_MISMATCH) {
        fprintf(stderr, "perfdata: %s: build id differs from the recorded one; its symbols are not used\n", m->name);
        pd_elf_close(d->elf);
        d->elf = NULL;
    } else if (st != PD_ELF_OK) {
        d->elf = NULL;
        if (s->verbose) fprintf(stderr, "perfdata: %s: no symbols (%s)\n", m->name, err.message);
    }
    d->symelf = d->elf;
    if (d->elf) d->symelf = debug_file_for(d->elf);
    return d;
}

static void load_kallsyms(pd_symbolizer *s) {
    pd_elf_error err;
    const char *path = s->kallsyms_path ? s->kallsyms_path : (s->host_matches ? "/proc/kallsyms" : NULL);
    s->kallsyms_tried = 1;
    if (path && pd_kallsyms_load(path, &s->kallsyms, &err) != PD_ELF_OK) {
        fprintf(stderr, "perfdata: %s: %s\n", path, err.message);
        s->kallsyms = NULL;
    }
}

void pd_sym_resolve(pd_symbolizer *s, pd_state *st, pd_thread *t, unsigned cpumode, uint64_t ip, pd_resolved *out) {
    const pd_map_entry *m = pd_state_find_map(st, t, cpumode, ip);
    memset(out, 0, sizeof *out);
    out->kernel = cpumode == PERFDATA_MISC_KERNEL || cpumode == PERFDATA_MISC_GUEST_KERNEL;
    out->addr = ip;
    if (!m) {
        const pd_state_ksym *k = out->kernel ? pd_state_find_ksym(st, ip) : NULL;
        out->dso = "[unknown]";
        if (k) { out->dso = "[bpf_prog]"; out->sym = k->name; out->sym_start = k->addr; }
        return;
    }
    out->dso_path = m->name;
    if (out->kernel) {
        const pd_ksym *k;
        /* the kernel's own map is named [kernel.kallsyms]_text; modules by path */
        out->dso = !strncmp(m->name, "[kernel.kallsyms]", 17) ? "[kernel.kallsyms]" : basename_of(m->name);
        if (!s->kallsyms_tried) load_kallsyms(s);
        k = s->kallsyms ? pd_kallsyms_lookup(s->kallsyms, ip) : NULL;
        if (k) { out->sym = k->name; out->sym_start = k->addr; }
        return;
    }
    if (is_anon(m->name)) {
        /* perf: anonymous memory maps addresses as they are; executable,
           it is the JIT map /tmp/perf-PID.map, shown as [JIT] tid PID */
        char jit[48];
        out->dso = basename_of(m->name);
        if (m->prot & 4) {
            snprintf(jit, sizeof jit, "[JIT] tid %d", (int)(t ? t->pid : -1));
            out->dso = pd_state_intern(st, jit, strlen(jit));
        }
        return;
    }
    {
        pd_dso *d = dso_for(s, m);
        uint64_t vaddr;
        const pd_elf_sym *sym;
        out->dso = d->short_name;
        out->addr = ip - m->start + m->pgoff; /* perf's map__map_ip */
        if (d->elf && pd_elf_map_to_vaddr(d->elf, m->start, m->pgoff, ip, &vaddr) == PD_ELF_OK &&
            (sym = pd_elf_lookup(d->symelf, vaddr)) != NULL) {
            out->sym = sym->name;
            out->src_file = sym->file;
            out->sym_start = sym->addr;
        }
    }
}
