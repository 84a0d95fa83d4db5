/* ordered.c - records in time order, as perf delivers them, with the
   reorder window in caller memory: sized by the hint, grown if a round
   needs more. Prints each process's command and mappings as they appear.
   Usage: ordered FILE */
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"
#include <stdio.h>
#include <stdlib.h>

static unsigned char buf[256 << 20];
static perfdata_event events[512];

int main(int argc, char **argv) {
    perfdata_file f;
    perfdata_cursor cur;
    perfdata_ordered order;
    perfdata_record rec;
    perfdata_error err;
    perfdata_order_entry *window;
    size_t cap;
    FILE *fp = argc > 1 ? fopen(argv[1], "rb") : NULL;
    size_t len = fp ? fread(buf, 1, sizeof buf, fp) : 0;
    if (fp) fclose(fp);
    if (perfdata_open(&f, buf, len, events, 512, &err) != PERFDATA_OK) return 1;
    cap = perfdata_ordered_window_hint(&f) + 1;
    window = malloc(cap * sizeof *window);
    if (!window) return 1;
    perfdata_cursor_init(&f, &cur);
    perfdata_ordered_init(&order, &cur, window, cap);
    for (;;) {
        perfdata_status st = perfdata_ordered_next(&f, &order, &rec, &err);
        if (st == PERFDATA_ERR_NO_SPACE && err.record_type != PERFDATA_RECORD_HEADER_ATTR) { /* a round needs more room */
            perfdata_order_entry *bigger = malloc(err.needed * 2 * sizeof *bigger);
            if (!bigger || perfdata_ordered_grow(&order, bigger, err.needed * 2, NULL) != PERFDATA_OK) {
                free(bigger);
                break; /* out of memory: err.code is not END, so the exit status says so */
            }
            free(window);
            window = bigger;
            continue;
        }
        if (st != PERFDATA_OK) break;
        if (rec.type == PERFDATA_RECORD_COMM) {
            perfdata_comm c;
            if (perfdata_decode_comm(&f, &rec, &c, NULL) == PERFDATA_OK)
                printf("%llu comm %u/%u %.*s\n", (unsigned long long)perfdata_record_time(&f, &rec), c.pid, c.tid,
                       (int)c.comm.n, (const char *)c.comm.p);
        } else if (rec.type == PERFDATA_RECORD_MMAP2 || rec.type == PERFDATA_RECORD_MMAP) {
            perfdata_mmap m;
            if (perfdata_decode_mmap(&f, &rec, &m, NULL) == PERFDATA_OK)
                printf("%llu mmap %d: %#llx-%#llx %.*s\n", (unsigned long long)perfdata_record_time(&f, &rec),
                       (int)m.pid, (unsigned long long)m.addr, (unsigned long long)m.addr + m.len, (int)m.filename.n,
                       (const char *)m.filename.p);
        }
    }
    free(window);
    return err.code == PERFDATA_END ? 0 : 1;
}
