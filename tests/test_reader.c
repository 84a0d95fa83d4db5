/* test_reader.c - perfdata_reader on real files: the records pushed in
   pieces of every size are the records of the whole buffer, plain and in
   time order; the ordered walk yields what perfdata_ordered does; memory
   given comes back; perfdata_reader_on_change is called before every
   change of the file's events. Usage: test_reader FILE... */
#define PERFDATA_ZSTD
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"
#include "../fuzz/reader_walk.h"
#include <stdio.h>

static int passed, failed;
#define CHECK(c, ...) do { if (c) passed++; else { failed++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)

static unsigned char *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    unsigned char *p = NULL;
    long len;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 && (p = malloc((size_t)len + 1)))
        *n = fread(p, 1, (size_t)len, f);
    fclose(f);
    return p;
}

static int is_pipe(const unsigned char *p, size_t n) {
    return n >= 16 && (!memcmp(p, "PERFILE2", 8) || !memcmp(p, "2ELIFREP", 8)) && (p[8] == 16 || p[15] == 16);
}


/* The file's events as a caller in another thread sees them: their
   number, names and where they are. */
static uint64_t events_state(const perfdata_file *f) {
    uint64_t h = rw_mix(0, (uint64_t)f->nr_events);
    size_t i;
    h = rw_mix(h, (uint64_t)(uintptr_t)f->events);
    for (i = 0; i < f->nr_events; i++) {
        h = rw_mix(h, (uint64_t)(uintptr_t)f->events[i].name.p);
        h = rw_mix(h, (uint64_t)f->events[i].name.n);
    }
    return h;
}

typedef struct change_hook { const perfdata_file *f; uint64_t before; unsigned long calls, late; } change_hook;

static void on_change(void *user) {
    change_hook *h = (change_hook *)user;
    h->calls++;
    if (events_state(h->f) != h->before) h->late++; /* called after a change */
}

/* Every call of perfdata_reader_next that changes the events calls the
   hook first, before anything changed; memory given may move them. */
static void check_on_change(const char *name, const unsigned char *p, size_t n, unsigned flags) {
    perfdata_reader r;
    perfdata_record rec;
    perfdata_error err;
    perfdata_status st;
    rw_mem m;
    change_hook h;
    unsigned long changes = 0, unhooked = 0, steps = 0;
    memset(&m, 0, sizeof m);
    m.bound = (size_t)1 << 30;
    perfdata_reader_init(&r, flags);
    perfdata_reader_set_input(&r, p, n);
    h.f = perfdata_reader_file(&r);
    h.calls = h.late = 0;
    /* the header and the attrs, read before the walk (no hook: nobody reads the events yet) */
    while ((st = perfdata_reader_start(&r, &err)) == PERFDATA_NEED_MEMORY) rw_give(&r, &err, &m);
    perfdata_reader_on_change(&r, on_change, &h);
    for (;;) {
        unsigned long calls = h.calls;
        h.before = events_state(h.f);
        st = perfdata_reader_next(&r, &rec, &err);
        rw_take_back(&r, &m);
        if (events_state(h.f) != h.before) {
            changes++;
            if (h.calls == calls) unhooked++;
        }
        if (st == PERFDATA_NEED_MEMORY) { rw_give(&r, &err, &m); continue; }
        if (st == PERFDATA_END || (st != PERFDATA_OK && err.final) || ++steps > 100000000) break;
    }
    CHECK(!unhooked && !h.late, "%s (%s): %lu changes of the events, %lu without the hook called, %lu calls after a "
          "change", name, flags ? "ordered" : "plain", changes, unhooked, h.late);
    rw_free_all(&r, &m);
}

int main(int argc, char **argv) {
    int i, files = 0;
    static const size_t pieces[] = {1, 7, 64, 4096, 65536, 1 << 20};
    for (i = 1; i < argc; i++) {
        size_t n = 0, k;
        unsigned char *p = slurp(argv[i], &n);
        unsigned flags;
        if (!p) { printf("FAIL cannot read %s\n", argv[i]); failed++; continue; }
        files++;
        for (flags = 0; flags <= PERFDATA_READ_ORDERED; flags += PERFDATA_READ_ORDERED) {
            rw_result whole = rw_walk(p, n, flags, 0, 0, (size_t)1 << 30);
            CHECK(whole.end == PERFDATA_END || whole.end != PERFDATA_OK, "%s: whole walk ends", argv[i]);
            check_on_change(argv[i], p, n, flags);
            if (!is_pipe(p, n)) continue;
            for (k = 0; k < sizeof pieces / sizeof pieces[0]; k++) {
                rw_result pushed;
                if (pieces[k] == 1 && n > (4u << 20)) continue; /* byte by byte: small files only */
                pushed = rw_walk(p, n, flags, pieces[k], (uint32_t)(k + 1), (size_t)1 << 30);
                CHECK(pushed.records == whole.records && pushed.hash == whole.hash && pushed.end == whole.end &&
                          pushed.errors == whole.errors && pushed.nr_events == whole.nr_events,
                      "%s (%s, pieces of up to %zu): %llu records (hash %llx, end %d, %llu errors) pushed, %llu whole "
                      "(hash %llx, end %d, %llu errors)",
                      argv[i], flags ? "ordered" : "plain", pieces[k], (unsigned long long)pushed.records,
                      (unsigned long long)pushed.hash, pushed.end, (unsigned long long)pushed.errors,
                      (unsigned long long)whole.records, (unsigned long long)whole.hash, whole.end,
                      (unsigned long long)whole.errors);
            }
        }
        free(p);
    }
    CHECK(files > 0, "no input files");
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
