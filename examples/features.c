/* features.c - what a perf.data says about where it was recorded: host,
   kernel, perf version, command line, and every event with its name. A
   file keeps these in its feature sections; a pipe sends them as
   HEADER_FEATURE records (and its events as HEADER_ATTR records, which the
   cursor registers as it passes them). Usage: features FILE */
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"
#include <stdio.h>

static unsigned char buf[256 << 20];
static perfdata_event events[512];

static void show(unsigned feature, perfdata_view section, int big) {
    static const char *const labels[] = {0, 0, 0, "host", "kernel", "perf", "arch"};
    perfdata_view v;
    perfdata_strlist args;
    size_t state = 0;
    if (feature >= PERFDATA_FEAT_HOSTNAME && feature <= PERFDATA_FEAT_ARCH &&
        perfdata_decode_feat_string(section, big, &v, NULL) == PERFDATA_OK)
        printf("%-8s %.*s\n", labels[feature], (int)v.n, (const char *)v.p);
    if (feature == PERFDATA_FEAT_CMDLINE && perfdata_decode_feat_strlist(section, big, &args, NULL) == PERFDATA_OK) {
        printf("command ");
        while (perfdata_strlist_next(&args, &state, &v)) printf(" %.*s", (int)v.n, (const char *)v.p);
        printf("\n");
    }
}

int main(int argc, char **argv) {
    perfdata_file f;
    perfdata_cursor cur;
    perfdata_record rec;
    perfdata_header_feature hf;
    perfdata_view section;
    perfdata_error err;
    size_t len, i;
    unsigned feat;
    int big;
    char name[256];
    FILE *fp = argc > 1 ? fopen(argv[1], "rb") : NULL;
    len = fp ? fread(buf, 1, sizeof buf, fp) : 0;
    if (fp) fclose(fp);
    if (perfdata_open(&f, buf, len, events, 512, &err) != PERFDATA_OK) {
        fprintf(stderr, "%s at offset 0x%llx\n", err.message, (unsigned long long)err.offset);
        return 1;
    }
    big = (f.flags & PERFDATA_FILE_BIG_ENDIAN) != 0;
    if (f.flags & PERFDATA_FILE_PIPE) {
        perfdata_cursor_init(&f, &cur);
        while (perfdata_next_record(&f, &cur, &rec, &err) == PERFDATA_OK)
            if (rec.type == PERFDATA_RECORD_HEADER_FEATURE && perfdata_decode_header_feature(&f, &rec, &hf, NULL) == PERFDATA_OK)
                show((unsigned)hf.feat_id, hf.data, big);
    } else {
        for (feat = 0; feat < PERFDATA_FEAT_BITS; feat++)
            if (perfdata_feature_section(&f, feat, &section, NULL) == PERFDATA_OK) show(feat, section, big);
    }
    for (i = 0; i < f.nr_events; i++)
        printf("event %-2zu %s (type %u, config 0x%llx, %zu ids)\n", i, perfdata_event_name(&f, i, name, sizeof name),
               f.events[i].attr.type, (unsigned long long)f.events[i].attr.config, f.events[i].ids.count);
    return 0;
}
