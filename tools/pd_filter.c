/* pd_filter.c - perf report's sample and entry filters (pd_filter.h). */
#include "pd_filter.h"
#include "pd_intern.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const pd_opt pd_filter_opts[] = {
    {0, PD_FILTER_COMM, "comm", "LIST", "only these commands"},
    {0, PD_FILTER_PID, "pid", "LIST", "only these process ids"},
    {0, PD_FILTER_TID, "tid", "LIST", "only these thread ids"},
    {0, PD_FILTER_DSO, "dso", "LIST", "only these objects, by name or path"},
    {0, PD_FILTER_SYM, "symbols", "LIST", "only these symbols"},
    {0, PD_FILTER_SYM, "sym", "LIST", NULL},
    {0, PD_FILTER_CPU, "cpu", "LIST", "only samples on these cpus, as 0,2-3"},
    {0, PD_FILTER_TIME, "time", "START,END", "only samples in this time span, seconds.fraction, either end open; several\n"
     "                            spans separated by spaces; or percentages: 10%/2, 0%-10%,30%-40%, 25%"},
    {0, PD_FILTER_PERCENT_LIMIT, "percent-limit", "N", "leave out lines under N% of the total"},
    {0, 0, NULL, NULL, NULL},
};

static char *dup(const char *s, size_t n) {
    char *p = malloc(n + 1);
    if (!p) pd_nomem();
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

static int strlist_has(const pd_strlist *l, const char *s) {
    size_t i;
    if (!s) return 0;
    for (i = 0; i < l->n; i++)
        if (!strcmp(l->v[i], s)) return 1;
    return 0;
}

/* strlist__new: comma-separated names, duplicates once. */
static void parse_strlist(pd_strlist *l, const char *value) {
    const char *p = value;
    while (*p) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n) {
            char *s = dup(p, n);
            if (strlist_has(l, s)) free(s);
            else {
                l->v = realloc(l->v, (l->n + 1) * sizeof *l->v);
                if (!l->v) pd_nomem();
                l->v[l->n++] = s;
            }
        }
        p += n + (e != NULL);
    }
}

static void add_range(pd_range **v, size_t *n, uint64_t lo, uint64_t hi) {
    *v = realloc(*v, (*n + 1) * sizeof **v);
    if (!*v) pd_nomem();
    (*v)[*n].lo = lo;
    (*v)[(*n)++].hi = hi;
}

/* intlist__new: comma-separated decimal ids. */
static int parse_ids(pd_range **v, size_t *n, const char *value) {
    const char *p = value;
    while (*p) {
        char *end;
        long id;
        if (*p == ',') { p++; continue; }
        id = strtol(p, &end, 10);
        if (end == p || (*end && *end != ',')) return -1;
        add_range(v, n, (uint32_t)(int32_t)id, (uint32_t)(int32_t)id);
        p = end;
    }
    return *n ? 0 : -1;
}

/* perf_cpu_map__new: N or N-M, comma-separated, numbers as strtoul base 0. */
static int parse_cpus(pd_filter *f, const char *value) {
    const char *p = value;
    while (isdigit((unsigned char)*p)) {
        char *end;
        unsigned long lo = strtoul(p, &end, 0), hi = lo;
        if (lo >= 0x7fffffff || (*end && *end != ',' && *end != '-')) return -1;
        if (*end == '-') {
            p = end + 1;
            hi = strtoul(p, &end, 0);
            if (hi >= 0x7fffffff || (*end && *end != ',') || hi < lo) return -1;
        }
        add_range(&f->cpus, &f->ncpus, lo, hi);
        p = *end ? end + 1 : end;
    }
    return *p || !f->ncpus ? -1 : 0;
}

/* parse_nsec_time: seconds, optionally '.' and up to 9 digits of fraction. */
static int parse_nsec(const char *s, uint64_t *out) {
    char *end, frac[10];
    uint64_t sec = strtoull(s, &end, 10), ns = 0;
    size_t i, n;
    if (*end != '.' && *end) return -1;
    if (*end == '.') {
        const char *d = end + 1;
        n = strlen(d);
        if (n > 9) return -1;
        for (i = 0; i < 9; i++) frac[i] = i < n ? d[i] : '0';
        frac[9] = 0;
        ns = strtoull(frac, &end, 10);
        if (*end) return -1;
    }
    *out = sec * 1000000000ull + ns;
    return 0;
}

/* perf_time__parse_str: "start,end", "start," or ",end". */
static int parse_span(const char *s, size_t len, pd_range *r) {
    char *str = dup(s, len), *comma = strchr(str, ','), *end_str = NULL;
    int rc = 0;
    r->lo = r->hi = 0;
    if (comma) { *comma = 0; end_str = comma + 1; }
    if (*str && parse_nsec(str, &r->lo)) rc = -1;
    if (!rc && end_str && *end_str && parse_nsec(end_str, &r->hi)) rc = -1;
    if (!rc && r->hi && r->hi < r->lo) rc = -1;
    free(str);
    return rc;
}

/* perf_time__parse_strs: spans separated by spaces, each with its comma,
   in ascending order without overlap. */
static int parse_times(pd_filter *f, const char *spec) {
    const char *p = spec, *arg;
    size_t commas = 0, i;
    for (arg = spec; *arg; arg++) commas += *arg == ',';
    if (!commas) return -1;
    for (i = 0; i + 1 < commas; i++) {
        pd_range r;
        arg = p;
        p = strchr(p, ',') + 1;
        while (*p && isspace((unsigned char)*p)) p++;
        while (*p && !isspace((unsigned char)*p))
            if (*p++ == ',') return -1;
        if (parse_span(arg, (size_t)(p - arg), &r)) return -1;
        add_range(&f->times, &f->ntimes, r.lo, r.hi);
        if (*p) p++;
    }
    {
        pd_range r;
        if (parse_span(p, strlen(p), &r)) return -1;
        add_range(&f->times, &f->ntimes, r.lo, r.hi);
    }
    for (i = 0; i + 1 < f->ntimes; i++)
        if (f->times[i].hi >= f->times[i + 1].lo) return -1;
    return 0;
}

/* parse_percent: "N%" as a fraction. */
static int parse_percent(const char *s, size_t len, double *out) {
    char *str = dup(s, len), *pc = strchr(str, '%'), *end;
    int rc = -1;
    if (pc) {
        *pc = 0;
        *out = strtod(str, &end) / 100.0;
        rc = end == str + strlen(str) ? 0 : -1;
    }
    free(str);
    return rc;
}

/* set_percent_time: round(x) for x >= 0, without libm. */
static int percent_span(pd_filter *f, double a, double b, uint64_t first, uint64_t last) {
    uint64_t total = last - first, lo, hi;
    if (a < 0.0 || a > 1.0 || b < 0.0 || b > 1.0) return -1;
    lo = first + (uint64_t)(a * (double)total + 0.5);
    hi = first + (uint64_t)(b * (double)total + 0.5);
    if (hi > lo && hi != last) hi--;
    add_range(&f->times, &f->ntimes, lo, hi);
    return 0;
}

/* perf_time__percent_parse_str: "10%/2,10%/3" (slices), "0%-10%,30%-40%"
   (spans) or "25%" (the first quarter). */
static int parse_time_percent(pd_filter *f, const char *spec, uint64_t first, uint64_t last) {
    int slash = strchr(spec, '/') != NULL, dash = strchr(spec, '-') != NULL;
    const char *p = spec;
    if (!slash && !dash) {
        double pc;
        if (spec[strlen(spec) - 1] != '%' || parse_percent(spec, strlen(spec), &pc) || pc <= 0.0) return -1;
        return percent_span(f, 0.0, pc, first, last);
    }
    while (*p) {
        const char *e = strchr(p, ','), *sep;
        size_t n = e ? (size_t)(e - p) : strlen(p);
        double a, b;
        for (sep = p; sep < p + n && *sep != (slash ? '/' : '-'); sep++) {}
        if (sep == p + n) return -1;
        if (slash) {
            char *num = dup(sep + 1, n - (size_t)(sep + 1 - p)), *end;
            long i = strtol(num, &end, 10);
            int bad = *end != 0;
            free(num);
            if (bad || parse_percent(p, (size_t)(sep - p), &a) || a <= 0.0) return -1;
            b = a * (double)i;
            a = a * (double)(i - 1);
        } else if (parse_percent(p, (size_t)(sep - p), &a) || parse_percent(sep + 1, n - (size_t)(sep + 1 - p), &b)) {
            return -1;
        }
        if (percent_span(f, a, b, first, last)) return -1;
        if (!e) break;
        p = e + 1;
    }
    return f->ntimes ? 0 : -1;
}

int pd_filter_set(pd_filter *f, int id, const char *value, const char *who) {
    int bad = 0;
    switch (id) {
    case PD_FILTER_COMM: parse_strlist(&f->comm, value); break;
    case PD_FILTER_DSO: parse_strlist(&f->dso, value); break;
    case PD_FILTER_SYM: parse_strlist(&f->sym, value); break;
    case PD_FILTER_PID: bad = parse_ids(&f->pids, &f->npids, value); break;
    case PD_FILTER_TID: bad = parse_ids(&f->tids, &f->ntids, value); break;
    case PD_FILTER_CPU: bad = parse_cpus(f, value); break;
    case PD_FILTER_TIME: f->time_spec = value; break;
    case PD_FILTER_PERCENT_LIMIT: {
        char *end;
        f->percent_limit = strtod(value, &end);
        bad = end == value || *end || f->percent_limit < 0;
        break;
    }
    default: bad = 1;
    }
    if (bad) fprintf(stderr, "perfdata %s: bad value '%s'\n", who, value);
    f->active = 1;
    return bad ? -1 : 0;
}

int pd_filter_prepare(pd_filter *f, const perfdata_file *file, const char *who) {
    size_t i;
    if (f->ncpus)
        for (i = 0; i < file->nr_events; i++)
            if (!(file->events[i].attr.sample_type & PERFDATA_SAMPLE_CPU)) {
                fprintf(stderr, "perfdata %s: the samples do not record the cpu: --cpu cannot apply\n", who);
                return -1;
            }
    if (f->ncpus) { /* perf_session__cpu_bitmap: no cpu past the recording machine's */
        perfdata_view sec;
        perfdata_feat_nrcpus nr;
        if (perfdata_feature_section(file, PERFDATA_FEAT_NRCPUS, &sec, NULL) == PERFDATA_OK &&
            perfdata_decode_feat_nrcpus(sec, (file->flags & PERFDATA_FILE_BIG_ENDIAN) != 0, &nr, NULL) == PERFDATA_OK)
            for (i = 0; i < f->ncpus; i++)
                if (f->cpus[i].hi >= nr.nr_cpus_available) {
                    fprintf(stderr, "perfdata %s: --cpu: cpu %llu: the recording machine had %u\n", who,
                            (unsigned long long)(f->cpus[i].lo >= nr.nr_cpus_available ? f->cpus[i].lo : nr.nr_cpus_available),
                            (unsigned)nr.nr_cpus_available);
                    return -1;
                }
    }
    if (f->time_spec && !f->ntimes) {
        int rc;
        if (strchr(f->time_spec, '%')) {
            perfdata_view sec;
            uint64_t first = 0, last = 0;
            if (perfdata_feature_section(file, PERFDATA_FEAT_SAMPLE_TIME, &sec, NULL) != PERFDATA_OK ||
                perfdata_decode_feat_sample_time(sec, (file->flags & PERFDATA_FILE_BIG_ENDIAN) != 0, &first, &last, NULL) !=
                    PERFDATA_OK || (!first && !last)) {
                fprintf(stderr, "perfdata %s: --time %s: percentages need the first and last sample times "
                        "(the SAMPLE_TIME feature), which this file lacks\n", who, f->time_spec);
                return -1;
            }
            rc = parse_time_percent(f, f->time_spec, first, last);
        } else {
            rc = parse_times(f, f->time_spec);
        }
        if (rc) {
            fprintf(stderr, "perfdata %s: invalid time string '%s'\n", who, f->time_spec);
            return -1;
        }
    }
    return 0;
}

void pd_filter_free(pd_filter *f) {
    size_t i;
    for (i = 0; i < f->comm.n; i++) free(f->comm.v[i]);
    for (i = 0; i < f->dso.n; i++) free(f->dso.v[i]);
    for (i = 0; i < f->sym.n; i++) free(f->sym.v[i]);
    free(f->comm.v);
    free(f->dso.v);
    free(f->sym.v);
    free(f->pids);
    free(f->tids);
    free(f->cpus);
    free(f->times);
    memset(f, 0, sizeof *f);
}

static int in_ranges(const pd_range *v, size_t n, uint64_t x) {
    size_t i;
    for (i = 0; i < n; i++)
        if (x >= v[i].lo && x <= v[i].hi) return 1;
    return 0;
}

int pd_filter_sample(const pd_filter *f, const perfdata_sample *s) {
    /* perf's sample time without PERF_SAMPLE_TIME is -1 */
    uint64_t t = (s->sample_type & PERFDATA_SAMPLE_TIME) ? s->time : UINT64_MAX;
    if (f->ncpus && !in_ranges(f->cpus, f->ncpus, s->cpu)) return 0;
    if (f->ntimes && t) { /* perf_time__ranges_skip_sample */
        size_t i;
        for (i = 0; i < f->ntimes; i++)
            if ((!f->times[i].lo || t >= f->times[i].lo) && (!f->times[i].hi || t <= f->times[i].hi)) break;
        if (i == f->ntimes) return 0;
    }
    return 1;
}

int pd_filter_entry(const pd_filter *f, const char *comm, int32_t pid, int32_t tid, const char *dso,
                    const char *dso_path, const char *sym) {
    if (f->comm.n && !strlist_has(&f->comm, comm)) return 0;
    if (f->npids && !in_ranges(f->pids, f->npids, (uint32_t)pid)) return 0;
    if (f->ntids && !in_ranges(f->tids, f->ntids, (uint32_t)tid)) return 0;
    if (f->dso.n && (!dso_path || !(strlist_has(&f->dso, dso) || strlist_has(&f->dso, dso_path)))) return 0;
    if (f->sym.n && !strlist_has(&f->sym, sym)) return 0;
    return 1;
}

int pd_filter_percent(const pd_filter *f, uint64_t period, uint64_t total) {
    /* hists__fprintf compares floats: percent < min_pcnt */
    float pc = total ? (float)((double)period * 100.0 / (double)total) : 0.0f;
    return !(f->percent_limit > 0 && pc < (float)f->percent_limit);
}

const char *pd_filter_elided(const pd_filter *f, const char *key) {
    const pd_strlist *l = !strcmp(key, "comm") ? &f->comm : !strcmp(key, "dso") ? &f->dso
                        : !strcmp(key, "symbol") ? &f->sym : NULL;
    return l && l->n == 1 ? l->v[0] : NULL;
}
