/* features.c - what a perf.data says about where it was recorded: host,
   kernel, perf version, command line, and every event with its name.
   Usage: features FILE */
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"
#include <stdio.h>

static unsigned char buf[256 << 20];
static perfdata_event events[512];

static void print_string(const perfdata_file *f, unsigned feature, const char *label) {
    perfdata_view v;
    if (perfdata_feature_string(f, feature, &v, NULL) == PERFDATA_OK)
        printf("%-12s %.*s\n", label, (int)v.n, (const char *)v.p);
}

int main(int argc, char **argv) {
    perfdata_file f;
    perfdata_view sec, arg;
    perfdata_strlist cmdline;
    perfdata_error err;
    size_t len, i, state = 0;
    char name[256];
    FILE *fp = argc > 1 ? fopen(argv[1], "rb") : NULL;
    len = fp ? fread(buf, 1, sizeof buf, fp) : 0;
    if (fp) fclose(fp);
    if (perfdata_open(&f, buf, len, events, 512, &err) != PERFDATA_OK) {
        fprintf(stderr, "%s at offset 0x%llx\n", err.message, (unsigned long long)err.offset);
        return 1;
    }
    print_string(&f, PERFDATA_FEAT_HOSTNAME, "host");
    print_string(&f, PERFDATA_FEAT_OSRELEASE, "kernel");
    print_string(&f, PERFDATA_FEAT_VERSION, "perf");
    print_string(&f, PERFDATA_FEAT_ARCH, "arch");
    if (perfdata_feature_section(&f, PERFDATA_FEAT_CMDLINE, &sec, NULL) == PERFDATA_OK &&
        perfdata_decode_feat_strlist(sec, (f.flags & PERFDATA_FILE_BIG_ENDIAN) != 0, &cmdline, NULL) == PERFDATA_OK) {
        printf("%-12s", "command");
        while (perfdata_strlist_next(&cmdline, &state, &arg)) printf(" %.*s", (int)arg.n, (const char *)arg.p);
        printf("\n");
    }
    for (i = 0; i < f.nr_events; i++)
        printf("event %-6zu %s (type %u, config 0x%llx, %zu ids)\n", i, perfdata_event_name(&f, i, name, sizeof name),
               f.events[i].attr.type, (unsigned long long)f.events[i].attr.config, f.events[i].ids.count);
    return 0;
}
