/* fuzz_tools.c - libFuzzer target for the commands themselves: the input's
   first byte picks a command line (its value modulo 17), the rest is the
   perf.data file it reads (an input that is a whole perf.data file, as in
   tests/hostile, goes through every command line, 0 to 12):
     0  report --symfs DIR --kallsyms FILE
     1  report ... -n -s pid,dso,sym
     2  report ... --csv DIR
     3  report ... --no-branch-stack
     4  collapse --symfs DIR --kallsyms FILE
     5  collapse ... --kernel --with-pid --period
     6  stat
     7  dump --ordered -j 4 (-z chunks decompressed in two helper threads)
     8  info
     9  script --symfs DIR --kallsyms FILE
    10  script ... --show-task-events --show-mmap-events
                   -F comm,tid,pid,time,cpu,event,ip,sym,dso,addr,period,trace
    11  script ... --filter 'common_pid > 1 && prev_comm ~ "a*"'
    12  script ... --show-task-events --show-mmap-events --show-lost-events
                   --ns (10 stops at once on a file whose samples lack
                   a field its -F list names: most of them)
    13 to 16: the rest is not a perf.data file but a fuzz_tracing input (a
   byte giving the RAW payload's length, a TRACING_DATA section, the
   payload), made into one: a tracepoint event per format of the section
   (attr.config its ID; a section that does not parse: one event of ID 0),
   a sample of each carrying the payload, in the section's byte order; 13
   to 15 as a file (the section its TRACING_DATA feature) through command
   lines 9 to 11, 16 as a pipe (a HEADER_TRACING_DATA record) through 9.
   So pd_tpfmt sees every print fmt and payload fuzz_tracing's seeds and
   mutations make, not only those that survive inside a whole file.
   Report (the flat profile; pid keys with -n; the CSV tables; the sample
   view of a branch-stack profile), collapse (plain; --kernel --with-pid
   --period), stat, dump --ordered, info and script run as a user runs
   them, so the tools' process state (threads, comms, forks, maps), symbol
   lookup (every recorded name is looked for under an empty --symfs,
   kallsyms come from an empty file: nothing is found, nothing outside is
   opened), the aggregation and the tracepoint printing all see the input.
   Output goes to /dev/null; run libFuzzer with -close_fd_mask=3 so their
   stderr does not flood the log.
   Build: clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -D_GNU_SOURCE -I. -Itools -DPD_FUZZ_LIBFUZZER fuzz/fuzz_tools.c $(TOOLSRC without tools/perfdata.c) -o build/fuzz/fuzz_tools
   Replay (no libFuzzer): the same without -fsanitize=fuzzer and -DPD_FUZZ_LIBFUZZER (make fuzz-replay) */
#include "pd_tool.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef __cplusplus
extern "C"
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], input[128], kallsyms[128], symfs[128], csv[128];
static int devnull = -1;

static void cleanup(void) {
    static const char *const tables[] = {"stat.csv", "overview.csv", "processes.csv", "results.csv"};
    char p[192];
    size_t i;
    for (i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", csv, tables[i]);
        unlink(p);
    }
    rmdir(csv);
    rmdir(symfs);
    unlink(kallsyms);
    unlink(input);
    rmdir(dir);
}

/* A scratch directory for the input file, the empty kallsyms file, the
   empty --symfs tree and the CSV tables (removed at exit). */
static int setup(void) {
    int fd;
    snprintf(dir, sizeof dir, "/tmp/perfdata-fuzz-XXXXXX");
    if (!mkdtemp(dir)) return -1;
    snprintf(input, sizeof input, "%s/perf.data", dir);
    snprintf(kallsyms, sizeof kallsyms, "%s/kallsyms", dir);
    snprintf(symfs, sizeof symfs, "%s/symfs", dir);
    snprintf(csv, sizeof csv, "%s/csv", dir);
    if (mkdir(symfs, 0700) != 0) return -1;
    if ((fd = open(kallsyms, O_WRONLY | O_CREAT | O_TRUNC, 0600)) < 0) return -1;
    close(fd);
    atexit(cleanup);
    devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    return devnull >= 0 ? 0 : -1;
}

static int write_input(const uint8_t *data, size_t size) {
    int fd = open(input, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    size_t done = 0;
    if (fd < 0) return -1;
    while (done < size) {
        ssize_t n = write(fd, data + done, size - done);
        if (n <= 0) { close(fd); return -1; }
        done += (size_t)n;
    }
    return close(fd);
}

/* Command line `which` (0..12) on the input file, its standard output
   sent to /dev/null. */
#define COMMAND_LINES 13
static void run(int which) {
    static int have_defaults;
    static pd_limits defaults;
    char *argv[24];
    int argc = 0, saved;
#define ARG(s) (argv[argc++] = (char *)(s))
    /* the options' limits are process-wide: each command line starts from the defaults */
    if (!have_defaults) {
        defaults = pd_limit;
        have_defaults = 1;
    }
    pd_limit = defaults;
    switch (which) {
    case 0: case 1: case 2: case 3:
        ARG("report"); ARG("--symfs"); ARG(symfs); ARG("--kallsyms"); ARG(kallsyms);
        if (which == 1) { ARG("-n"); ARG("-s"); ARG("pid,dso,sym"); }
        if (which == 2) { ARG("--csv"); ARG(csv); }
        if (which == 3) ARG("--no-branch-stack");
        break;
    case 4: case 5:
        ARG("collapse"); ARG("--symfs"); ARG(symfs); ARG("--kallsyms"); ARG(kallsyms);
        if (which == 5) { ARG("--kernel"); ARG("--with-pid"); ARG("--period"); }
        break;
    case 6: ARG("stat"); break;
    case 7: ARG("dump"); ARG("--ordered"); ARG("-j"); ARG("4"); break;
    case 8: ARG("info"); break;
    default:
        ARG("script"); ARG("--symfs"); ARG(symfs); ARG("--kallsyms"); ARG(kallsyms);
        if (which == 10) {
            ARG("--show-task-events"); ARG("--show-mmap-events");
            ARG("-F"); ARG("comm,tid,pid,time,cpu,event,ip,sym,dso,addr,period,trace");
        }
        if (which == 11) { ARG("--filter"); ARG("common_pid > 1 && prev_comm ~ \"a*\""); }
        if (which == 12) {
            ARG("--show-task-events"); ARG("--show-mmap-events"); ARG("--show-lost-events"); ARG("--ns");
        }
        break;
    }
    ARG(input);
    argv[argc] = NULL;
#undef ARG
    fflush(stdout);
    if ((saved = dup(STDOUT_FILENO)) < 0 || dup2(devnull, STDOUT_FILENO) < 0) abort();
    if (!strcmp(argv[0], "report")) pd_cmd_report(argc, argv);
    else if (!strcmp(argv[0], "collapse")) pd_cmd_collapse(argc, argv);
    else if (!strcmp(argv[0], "stat")) pd_cmd_stat(argc, argv);
    else if (!strcmp(argv[0], "dump")) pd_cmd_dump(argc, argv);
    else if (!strcmp(argv[0], "script")) pd_cmd_script(argc, argv);
    else pd_cmd_info(argc, argv);
    fflush(stdout);
    clearerr(stdout);
    if (dup2(saved, STDOUT_FILENO) < 0) abort();
    close(saved);
}

/* -- a fuzz_tracing input made into a perf.data file ------------------------ */

typedef struct img { unsigned char *p; size_t n, cap; int big; } img;

static void img_bytes(img *b, const void *p, size_t n) {
    if (n > b->cap - b->n) {
        size_t cap = b->cap ? b->cap : 4096;
        while (n > cap - b->n) cap *= 2;
        if (!(b->p = (unsigned char *)realloc(b->p, cap))) abort();
        b->cap = cap;
    }
    if (n) memcpy(b->p + b->n, p, n);
    b->n += n;
}

static void img_int(img *b, uint64_t v, int bytes) {
    unsigned char t[8];
    int i;
    for (i = 0; i < bytes; i++) t[b->big ? bytes - 1 - i : i] = (unsigned char)(v >> (8 * i));
    img_bytes(b, t, (size_t)bytes);
}

static void img_put(img *b, size_t at, uint64_t v) {   /* a u64 written before */
    int i;
    for (i = 0; i < 8; i++) b->p[at + (size_t)(b->big ? 7 - i : i)] = (unsigned char)(v >> (8 * i));
}

#define TP_EVENTS_MAX 64
/* every field command line 10 asks for */
#define TP_SAMPLE_TYPE (PERFDATA_SAMPLE_IDENTIFIER | PERFDATA_SAMPLE_IP | PERFDATA_SAMPLE_TID | \
                        PERFDATA_SAMPLE_TIME | PERFDATA_SAMPLE_ADDR | PERFDATA_SAMPLE_CPU | \
                        PERFDATA_SAMPLE_PERIOD | PERFDATA_SAMPLE_RAW)

/* A perf_event_attr of PERF_ATTR_SIZE_VER0 (64 bytes): a tracepoint with
   this ID, sample_id_all clear. */
static void img_attr(img *b, uint64_t config) {
    img_int(b, 2, 4);                   /* PERF_TYPE_TRACEPOINT */
    img_int(b, 64, 4);
    img_int(b, config, 8);
    img_int(b, 1, 8);                   /* sample_period */
    img_int(b, TP_SAMPLE_TYPE, 8);
    img_int(b, 0, 8);                   /* read_format */
    img_int(b, 0, 8);                   /* flags */
    img_int(b, 0, 8);                   /* wakeup_events, bp_type */
    img_int(b, 0, 8);                   /* config1 */
}

static void img_sample(img *b, uint64_t id, uint64_t time, const uint8_t *raw, size_t rawn) {
    static const unsigned char zero[8];
    size_t pad = (8 - (rawn + 4) % 8) % 8;
    img_int(b, PERFDATA_RECORD_SAMPLE, 4);
    img_int(b, PERFDATA_MISC_KERNEL, 2);
    img_int(b, 8 + 56 + 4 + rawn + pad, 2);
    img_int(b, id, 8);
    img_int(b, 0xffffffff81000010ull, 8);
    img_int(b, 2 + id % 3, 4);          /* pid, tid */
    img_int(b, 2 + id % 3, 4);
    img_int(b, time, 8);
    img_int(b, 0xffff888000001000ull, 8);   /* addr */
    img_int(b, id % 4, 4);              /* cpu, res */
    img_int(b, 0, 4);
    img_int(b, 1, 8);                   /* period */
    img_int(b, rawn + pad, 4);
    img_bytes(b, raw, rawn);
    img_bytes(b, zero, pad);
}

/* data: the payload's length (capped at what follows), the section, the
   payload. The file's byte order is the section's (perf writes both in
   the recording machine's); a pipe when `pipe`. */
static int write_tracing_input(const uint8_t *data, size_t size, int pipe) {
    static const unsigned char zero[8];
    perfdata_tracing t;
    perfdata_tp_format fmt;
    perfdata_error err;
    perfdata_view sec;
    uint64_t ids[TP_EVENTS_MAX];
    size_t rawn, secn, nev = 0, state = 0, i, attrs_at, data_at, at;
    const uint8_t *raw;
    img b = {NULL, 0, 0, 0};
    int rc;
    if (size < 1) return -1;
    rawn = data[0] < size - 1 ? data[0] : size - 1;
    secn = size - 1 - rawn;
    raw = data + 1 + secn;
    sec.p = data + 1;
    sec.n = secn;
    sec.offset = 0;
    if (perfdata_tracing_parse(sec, &t, &err) == PERFDATA_OK) {
        b.big = t.big_endian;
        while (nev < TP_EVENTS_MAX && perfdata_tp_format_next(&t, &state, &fmt)) ids[nev++] = fmt.id;
    } else {
        /* the endian byte after the magic and the version, when there is one */
        const unsigned char *v = secn > 10 ? (const unsigned char *)memchr(sec.p + 10, 0, secn - 10) : NULL;
        b.big = v && v + 1 < sec.p + secn && v[1] == 1;
    }
    if (!nev) ids[nev++] = 0;
    if (pipe) {
        img_bytes(&b, b.big ? "2ELIFREP" : "PERFILE2", 8);
        img_int(&b, 16, 8);
        for (i = 0; i < nev; i++) {     /* HEADER_ATTR: the attr, its id */
            img_int(&b, PERFDATA_RECORD_HEADER_ATTR, 4);
            img_int(&b, 0, 2);
            img_int(&b, 8 + 64 + 8, 2);
            img_attr(&b, ids[i]);
            img_int(&b, i + 1, 8);
        }
        /* HEADER_TRACING_DATA: the section follows the record, padded to 8 */
        img_int(&b, PERFDATA_RECORD_HEADER_TRACING_DATA, 4);
        img_int(&b, 0, 2);
        img_int(&b, 16, 2);
        img_int(&b, (secn + 7) & ~(size_t)7, 4);
        img_int(&b, 0, 4);
        img_bytes(&b, sec.p, secn);
        img_bytes(&b, zero, (8 - secn % 8) % 8);
        for (i = 0; i < nev; i++) img_sample(&b, i + 1, 1000 + i, raw, rawn);
    } else {
        img_bytes(&b, b.big ? "2ELIFREP" : "PERFILE2", 8);
        img_int(&b, 104, 8);
        img_int(&b, 64 + 16, 8);        /* attr_size: the attr and its ids section */
        attrs_at = b.n;
        for (i = 0; i < 10; i++) img_int(&b, 0, 8);  /* attrs, data, event_types, features: set below */
        img_put(&b, attrs_at, b.n);
        img_put(&b, attrs_at + 8, nev * 80);
        at = b.n;
        for (i = 0; i < nev; i++) {
            img_attr(&b, ids[i]);
            img_int(&b, at + nev * 80 + 8 * i, 8);
            img_int(&b, 8, 8);
        }
        for (i = 0; i < nev; i++) img_int(&b, i + 1, 8);
        data_at = b.n;
        for (i = 0; i < nev; i++) img_sample(&b, i + 1, 1000 + i, raw, rawn);
        img_put(&b, attrs_at + 16, data_at);
        img_put(&b, attrs_at + 24, b.n - data_at);
        /* HOSTNAME too: perf (and so the reader) takes a byte-swapped file
           without it to have BUILD_ID alone */
        img_put(&b, attrs_at + 48, (uint64_t)1 << PERFDATA_FEAT_TRACING_DATA | (uint64_t)1 << PERFDATA_FEAT_HOSTNAME);
        at = b.n;                       /* the feature index: two sections */
        img_int(&b, at + 32, 8);
        img_int(&b, secn, 8);
        img_int(&b, at + 32 + secn, 8);
        img_int(&b, 12, 8);
        img_bytes(&b, sec.p, secn);
        img_int(&b, 8, 4);              /* HOSTNAME: a perf string */
        img_bytes(&b, "fuzzing", 8);
    }
    rc = write_input(b.p, b.n);
    free(b.p);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int ready;
    int which;
    if (!ready) {
        if (setup() != 0) abort();
        ready = 1;
    }
    /* a whole perf.data file (tests/hostile): every command line on it */
    if (size >= 8 && (!memcmp(data, "PERFILE2", 8) || !memcmp(data, "2ELIFREP", 8))) {
        if (write_input(data, size) != 0) return 0;
        for (which = 0; which < COMMAND_LINES; which++) run(which);
        return 0;
    }
    if (size < 1) return 0;
    which = data[0] % 17;
    if (which >= COMMAND_LINES) {
        if (write_tracing_input(data + 1, size - 1, which == 16) != 0) return 0;
        run(which == 16 ? 9 : which - 4);
        return 0;
    }
    if (write_input(data + 1, size - 1) != 0) return 0;
    run(which);
    return 0;
}

#include "fuzz/fuzz_main.h"
