/* ordered.c - records in time order, as perf delivers them, through
   perfdata_reader with PERFDATA_READ_ORDERED: the reorder queue and every
   other buffer are malloc'd when the reader asks and freed when it gives
   them back. Prints each process's command and mappings as they appear.
   Usage: ordered FILE */
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"
#include <stdio.h>
#include <stdlib.h>

static unsigned char buf[256 << 20];

int main(int argc, char **argv) {
    perfdata_reader r;
    const perfdata_file *f;
    perfdata_record rec;
    perfdata_error err;
    perfdata_status st;
    void *mem;
    FILE *fp = argc > 1 ? fopen(argv[1], "rb") : NULL;
    size_t len = fp ? fread(buf, 1, sizeof buf, fp) : 0;
    if (fp) fclose(fp);
    perfdata_reader_init(&r, PERFDATA_READ_ORDERED);
    perfdata_reader_set_input(&r, buf, len);
    f = perfdata_reader_file(&r);
    while ((st = perfdata_reader_next(&r, &rec, &err)) != PERFDATA_END) {
        while ((mem = perfdata_reader_take_back(&r, NULL)) != NULL) free(mem);
        if (st == PERFDATA_NEED_MEMORY) { /* twice what is asked, so that growing is rare */
            size_t n = (size_t)err.needed * 2;
            mem = malloc(n);
            if (perfdata_reader_give(&r, (perfdata_pool)err.detail, mem, mem ? n : 0, NULL) != PERFDATA_OK) free(mem);
            continue;
        }
        if (st != PERFDATA_OK) {
            fprintf(stderr, "%s at offset 0x%llx\n", err.message, (unsigned long long)err.offset);
            if (err.final) break;
            continue;
        }
        if (rec.type == PERFDATA_RECORD_COMM) {
            perfdata_comm c;
            if (perfdata_decode_comm(f, &rec, &c, NULL) == PERFDATA_OK)
                printf("%llu comm %u/%u %.*s\n", (unsigned long long)perfdata_record_time(f, &rec), c.pid, c.tid,
                       (int)c.comm.n, (const char *)c.comm.p);
        } else if (rec.type == PERFDATA_RECORD_MMAP2 || rec.type == PERFDATA_RECORD_MMAP) {
            perfdata_mmap m;
            if (perfdata_decode_mmap(f, &rec, &m, NULL) == PERFDATA_OK)
                printf("%llu mmap %d: %#llx-%#llx %.*s\n", (unsigned long long)perfdata_record_time(f, &rec),
                       (int)m.pid, (unsigned long long)m.addr, (unsigned long long)m.addr + m.len, (int)m.filename.n,
                       (const char *)m.filename.p);
        }
    }
    perfdata_reader_close(&r);
    while ((mem = perfdata_reader_take_back(&r, NULL)) != NULL) free(mem);
    return st == PERFDATA_END ? 0 : 1;
}
