#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"
#include <stdio.h>

static unsigned char buf[256 << 20];   // the file, read whole
static perfdata_event events[512];     // one per event (attr)

int main(int argc, char **argv) {
    perfdata_file f; perfdata_cursor cur; perfdata_record rec; perfdata_sample s; perfdata_error err;
    FILE *fp = argc > 1 ? fopen(argv[1], "rb") : NULL;
    size_t len = fp ? fread(buf, 1, sizeof buf, fp) : 0, i;
    if (fp) fclose(fp);
    if (perfdata_open(&f, buf, len, events, 512, &err) != PERFDATA_OK) {
        fprintf(stderr, "%s at offset 0x%llx\n", err.message, (unsigned long long)err.offset);
        return 1;
    }
    perfdata_cursor_init(&f, &cur);
    while (perfdata_next_record(&f, &cur, &rec, &err) == PERFDATA_OK) {
        if (rec.type != PERFDATA_RECORD_SAMPLE || perfdata_decode_sample(&f, &rec, &s, &err) != PERFDATA_OK) continue;
        printf("pid %u tid %u time %llu ip 0x%llx\n", s.pid, s.tid, (unsigned long long)s.time, (unsigned long long)s.ip);
        for (i = 0; i < s.callchain.count; i++)
            printf("    0x%llx\n", (unsigned long long)perfdata_u64s_at(&s.callchain, i));
    }
    return err.code == PERFDATA_END ? 0 : 1;
}
