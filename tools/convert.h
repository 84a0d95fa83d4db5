/* convert.h - records and feature sections of a profile written again in
   the other byte order (perfdata convert --endian). */
#ifndef CONVERT_H
#define CONVERT_H
#include "perfdata.h"

typedef struct convert_swap {
    const perfdata_file *f;
    int big_in, big_out;
    uint32_t nr_cpus;        /* NRCPUS' cpus available: CPU_TOPOLOGY has ids per cpu */
    unsigned char *buf;      /* a record's body in the output's order */
    size_t cap;
} convert_swap;

void convert_swap_init(convert_swap *w, const perfdata_file *f, int big_out);
void convert_swap_free(convert_swap *w);
/* A record of f written to out in out's byte order: OK; ERR_UNSUPPORTED for
   a type not converted yet (nothing written); else the decoder's or the
   writer's error. */
perfdata_status convert_swap_record(convert_swap *w, perfdata_writer *out, const perfdata_file *f,
                                    const perfdata_record *rec, perfdata_error *err);
/* A feature section (n bytes at p, in f's order) in the other order, in a
   new block *out of *outn bytes: 0, or -1 for a feature not converted yet. */
int convert_swap_feature(convert_swap *w, unsigned id, const unsigned char *p, size_t n, unsigned char **out,
                         size_t *outn);
/* HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID: a string each. */
int convert_string_feature(unsigned id);
#endif
