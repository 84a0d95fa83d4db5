/* stat.c - `perfdata stat`: decodes every record and every sample field
   (callchains, branch entries, registers and read values walked to the
   end) and prints perf's `report --stats` table -- records per type, then
   samples per event -- followed by bytes per type, lost events and the time
   span. It is the library's throughput in one command. */
#include "perfdata.h"
#include "pd_opts.h"
#include "pd_text.h"
#include "pd_tool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct stat_ctx {
    pd_session *s;
    uint64_t count[128], bytes[128], other_count, other_bytes;
    uint64_t *ev_samples, *ev_lost_samples;
    size_t nev;
    uint64_t lost, lost_samples, first_time, last_time, checksum, decode_errors;
} stat_ctx;

/* Every element of a sample: the checksum keeps the work from being
   optimised away and doubles as a cheap consistency value. */
static uint64_t touch_sample(const perfdata_sample *s) {
    uint64_t h = s->ip + s->time + s->addr + s->period + s->id + s->pid + s->tid + s->cpu + s->weight + s->data_src;
    size_t i;
    for (i = 0; i < s->callchain.count; i++) h += perfdata_u64s_at(&s->callchain, i);
    for (i = 0; i < s->branch_stack.nr; i++) {
        perfdata_branch_entry e = perfdata_branch_at(&s->branch_stack, i);
        h += e.from ^ e.to ^ e.flags;
    }
    for (i = 0; i < s->branch_stack.counters.count; i++) h += perfdata_u64s_at(&s->branch_stack.counters, i);
    for (i = 0; i < s->regs_user.values.count; i++) h += perfdata_u64s_at(&s->regs_user.values, i);
    for (i = 0; i < s->regs_intr.values.count; i++) h += perfdata_u64s_at(&s->regs_intr.values, i);
    for (i = 0; i < s->read.nr; i++) {
        perfdata_read_value v = perfdata_read_at(&s->read, i);
        h += v.value + v.id + v.lost;
    }
    return h + s->raw.n + s->stack_user.n + s->aux.n;
}

/* Which events a sample counts for. As perf delivers it
   (perf_session__deliver_sample): a sample that reads counters stands for
   one sample of each event whose id its read values carry (a group read),
   or of the event of its one value; otherwise for its own event. */
static void count_sample(stat_ctx *c, const perfdata_sample *s) {
    const perfdata_file *f = c->s->file;
    size_t i;
    if (!(s->sample_type & PERFDATA_SAMPLE_READ)) {
        if ((size_t)s->event < c->nev) c->ev_samples[s->event]++;
        return;
    }
    for (i = 0; i < s->read.nr; i++) {
        long e = perfdata_find_event(f, perfdata_read_at(&s->read, i).id);
        if (e >= 0 && (size_t)e < c->nev) c->ev_samples[e]++;
    }
}

static void on_record(void *ctx, const perfdata_record *rec, const char *name) {
    stat_ctx *c = (stat_ctx *)ctx;
    const perfdata_file *f = c->s->file;
    uint64_t size = rec->size + rec->extra.n;
    (void)name;
    if (rec->type < 128) { c->count[rec->type]++; c->bytes[rec->type] += size; }
    else { c->other_count++; c->other_bytes += size; }
    if (rec->type == PERFDATA_RECORD_SAMPLE) {
        perfdata_sample s;
        perfdata_error err;
        if (perfdata_decode_sample(f, rec, &s, &err) != PERFDATA_OK) {
            c->decode_errors++;
            pd_session_skip(c->s, rec, &err);
            return;
        }
        c->checksum += touch_sample(&s);
        count_sample(c, &s);
        if (s.sample_type & PERFDATA_SAMPLE_TIME) {
            if (!c->first_time || s.time < c->first_time) c->first_time = s.time;
            if (s.time > c->last_time) c->last_time = s.time;
        }
        return;
    }
    if (rec->type == PERFDATA_RECORD_LOST) {
        perfdata_lost l;
        if (perfdata_decode_lost(f, rec, &l, NULL) == PERFDATA_OK) c->lost += l.lost;
    } else if (rec->type == PERFDATA_RECORD_LOST_SAMPLES) {
        perfdata_lost_samples l;
        perfdata_sample_id sid;
        if (perfdata_decode_lost_samples(f, rec, &l, NULL) == PERFDATA_OK) {
            c->lost_samples += l.lost;
            if (perfdata_decode_sample_id(f, rec, &sid, NULL) == PERFDATA_OK && (size_t)sid.event < c->nev)
                c->ev_lost_samples[sid.event] += l.lost;
        }
    }
    if (rec->type < 64) { /* the trailer of every other kernel record */
        perfdata_sample_id sid;
        if (perfdata_decode_sample_id(f, rec, &sid, NULL) == PERFDATA_OK) c->checksum += sid.time + sid.id;
    }
}

/* perf's session stats table (perf_session__fprintf_nr_events): the record
   types perf 6.1 names, the empty ones left out, with shares of the total. */
static void print_perf_table(stat_ctx *c) {
    uint64_t total = 0;
    unsigned i;
    size_t e;
    char name[256];
    for (i = 1; i < 83; i++) total += c->count[i];
    printf("\nAggregated stats:%s\n%16s events: %10llu\n",
           perfdata_has_feature(c->s->file, PERFDATA_FEAT_AUXTRACE)
               ? " (excludes AUX area (e.g. instruction trace) decoded / synthesized events)" : "",
           "TOTAL", (unsigned long long)total);
    for (i = 1; i < 83; i++) {
        if (!c->count[i] || !strcmp(perfdata_record_name(i), "UNKNOWN")) continue;
        printf("%16s events: %10llu  (%4.1f%%)\n", perfdata_record_name(i), (unsigned long long)c->count[i],
               100.0 * (double)c->count[i] / (double)total);
    }
    for (e = 0; e < c->s->file->nr_events && e < c->nev; e++) {
        if (!c->ev_samples[e]) continue;
        pd_put_str(stdout, perfdata_event_name(c->s->file, e, name, sizeof name)); /* escaped: a name from the file */
        printf(" stats:\n");
        if (c->ev_samples[e]) printf("%16s events: %10llu\n", "SAMPLE", (unsigned long long)c->ev_samples[e]);
    }
}

static void print_extra(stat_ctx *c) {
    unsigned i;
    printf("\n# %-18s %10s %14s\n", "record type", "count", "bytes");
    for (i = 0; i < 128; i++)
        if (c->count[i]) printf("  %-18s %10llu %14llu\n", perfdata_record_name(i), (unsigned long long)c->count[i],
                                (unsigned long long)c->bytes[i]);
    if (c->other_count)
        printf("  %-18s %10llu %14llu\n", "(type >= 128)", (unsigned long long)c->other_count,
               (unsigned long long)c->other_bytes);
    printf("# lost events: %llu, lost samples: %llu\n", (unsigned long long)c->lost, (unsigned long long)c->lost_samples);
    if (c->last_time >= c->first_time && c->first_time)
        printf("# time span: %llu.%09llu .. %llu.%09llu (%.6f s)\n", (unsigned long long)(c->first_time / 1000000000),
               (unsigned long long)(c->first_time % 1000000000), (unsigned long long)(c->last_time / 1000000000),
               (unsigned long long)(c->last_time % 1000000000), (double)(c->last_time - c->first_time) / 1e9);
    if (c->decode_errors) printf("# samples that did not decode: %llu\n", (unsigned long long)c->decode_errors);
    printf("# decode checksum: %016llx\n", (unsigned long long)c->checksum);
}

static int write_csv(stat_ctx *c, const char *dir) {
    char path[4096];
    unsigned i;
    FILE *fp;
    if (snprintf(path, sizeof path, "%s/stat.csv", dir) >= (int)sizeof path) {
        fprintf(stderr, "perfdata stat: %s/stat.csv: path too long; not written\n", dir);
        return 1;
    }
    if (!(fp = pd_output_create(path, "stat"))) return 1;
    fprintf(fp, "type,name,count,bytes\n");
    for (i = 0; i < 128; i++)
        if (c->count[i]) fprintf(fp, "%u,%s,%llu,%llu\n", i, perfdata_record_name(i), (unsigned long long)c->count[i],
                                 (unsigned long long)c->bytes[i]);
    if (ferror(fp) | fclose(fp)) { fprintf(stderr, "perfdata: %s: write error\n", path); return 1; }
    return 0;
}

enum { STAT_CSV = 1, STAT_TABLE_ONLY };

static const pd_opt stat_opts[] = {
    {0, STAT_CSV, "csv", "DIR", "also write DIR/stat.csv (DIR is created if missing)"},
    {0, STAT_TABLE_ONLY, "table-only", NULL, "only perf's table"},
    {0, 0, NULL, NULL, NULL},
};
static const pd_opt *const stat_tables[] = {stat_opts, pd_ratio_opts, NULL};
const pd_command pd_stat_command = {
    "stat", "decode everything; record counts as `perf report --stats`",
    "  Decodes every record and sample field; prints perf's `report --stats` table,\n"
    "  then bytes per record type, lost events and the time span.\n", stat_tables, NULL};

typedef struct stat_args { const char *csv; int quiet; } stat_args;

static int stat_option(void *ctx, int id, const char *value) {
    stat_args *a = (stat_args *)ctx;
    if (id == STAT_CSV) a->csv = value;
    else if (id == STAT_TABLE_ONLY) a->quiet = 1;
    return 0;
}

int pd_cmd_stat(int argc, char **argv) {
    static stat_ctx c;
    pd_session s;
    const char *path = NULL, *csv;
    int rc, quiet;
    stat_args args = {NULL, 0};
    memset(&c, 0, sizeof c); /* static for its size; a second run starts afresh */
    if ((rc = pd_opts_parse(&pd_stat_command, argc, argv, stat_option, &args, &path)) >= 0) return rc;
    csv = args.csv;
    quiet = args.quiet;
    if (csv && pd_make_dir(csv, "stat") != 0) return PD_EXIT_ERROR;
    if (pd_session_open(&s, path) != 0) return 1;
    c.nev = s.nev_cap;
    c.ev_samples = calloc(c.nev, sizeof *c.ev_samples);
    c.ev_lost_samples = calloc(c.nev, sizeof *c.ev_lost_samples);
    if (!c.ev_samples || !c.ev_lost_samples) {
        fprintf(stderr, "perfdata: out of memory\n");
        free(c.ev_samples);
        free(c.ev_lost_samples);
        pd_session_close(&s);
        return 1;
    }
    c.s = &s;
    rc = pd_session_walk(&s, on_record, &c);
    print_perf_table(&c);
    if (!quiet) print_extra(&c);
    if (csv && write_csv(&c, csv)) rc = PD_EXIT_ERROR;
    free(c.ev_samples);
    free(c.ev_lost_samples);
    c.s = NULL; /* c is static, s is not */
    rc = pd_session_finish(&s, rc);
    pd_session_close(&s);
    return rc;
}
