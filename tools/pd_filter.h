/* pd_filter.h - perf report's filters, with perf 6.1's semantics, for
   report and collapse.

   Samples dropped before they are counted (the '# Samples' and '# Event
   count' totals change), as builtin-report.c's process_sample_event does:
     --cpu LIST    perf's cpu list: 0,2-3 (perf_cpu_map__new). Every event
                   must sample the cpu, else an error (perf_session__cpu_bitmap).
     --time SPEC   "start,end" in seconds.fraction (up to 9 digits), either
                   end open; several ranges separated by spaces
                   (perf_time__parse_strs); or percentages of the recording
                   (10%/2, 0%-10%, 25%; several separated by commas) measured
                   between the first and last sample times of the SAMPLE_TIME
                   feature (perf_time__percent_parse_str). Bounds are
                   inclusive; a sample at time 0 is always kept.
   Entries hidden, totals kept (perf's default --percentage absolute), as
   machine__resolve and thread__is_filtered mark a hist entry filtered;
   the mark is decided by the first sample of an entry:
     --comm LIST   the thread's command
     --pid LIST, --tid LIST
     --dso LIST    the object's short name or its path; no map: hidden
     --symbols LIST (or --sym) the symbol's name; unresolved: hidden
   LISTs are comma-separated. A --comm, --dso or --symbols list of one name
   elides that column (sort__setup_elide: "# dso: NAME").
     --percent-limit N  entries under N% of the event's total are not
                   printed (still counted, still sizing the columns). */
#ifndef PD_FILTER_H
#define PD_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "perfdata.h"
#include "pd_opts.h"

enum {
    PD_FILTER_COMM = 1000, PD_FILTER_PID, PD_FILTER_TID, PD_FILTER_CPU, PD_FILTER_DSO, PD_FILTER_SYM,
    PD_FILTER_PERCENT_LIMIT, PD_FILTER_TIME
};

/* The options above, for a pd_command's tables. */
extern const pd_opt pd_filter_opts[];

typedef struct pd_strlist { char **v; size_t n; } pd_strlist;
typedef struct pd_range { uint64_t lo, hi; } pd_range;

typedef struct pd_filter {
    pd_strlist comm, dso, sym;
    pd_range *pids, *tids, *cpus;    /* inclusive ranges; NULL: no filter */
    size_t npids, ntids, ncpus;
    const char *time_spec;           /* parsed by pd_filter_prepare, which needs the file */
    pd_range *times;                 /* hi 0: open */
    size_t ntimes;
    double percent_limit;            /* 0: none */
    int active;                      /* any sample or entry filter */
} pd_filter;

/* Takes one of the options above. Returns 0, or -1 after printing why
   the value is refused (a usage error). */
int pd_filter_set(pd_filter *f, int id, const char *value, const char *who);
/* Checks the options against the opened file: --cpu needs the cpu in every
   event's samples, --time percentages need the SAMPLE_TIME feature. Returns
   0, or -1 after printing why. */
int pd_filter_prepare(pd_filter *f, const perfdata_file *file, const char *who);
void pd_filter_free(pd_filter *f);

/* 1: the sample counts; 0: it is dropped (its cpu or time). */
int pd_filter_sample(const pd_filter *f, const perfdata_sample *s);
/* 1: shown; 0: hidden. dso is the short name, dso_path the mapping's
   name (NULL: no map), sym NULL when unresolved. */
int pd_filter_entry(const pd_filter *f, const char *comm, int32_t pid, int32_t tid, const char *dso,
                    const char *dso_path, const char *sym);
/* 1: an entry of this period is printed under --percent-limit. */
int pd_filter_percent(const pd_filter *f, uint64_t period, uint64_t total);
/* The one name a list holds when it elides its column (key "comm", "dso"
   or "symbol", perf's labels), else NULL. */
const char *pd_filter_elided(const pd_filter *f, const char *key);

#endif
