/* pd_info.h - the printing of `perfdata info` (tools/info.c) and of its
   "# bpf_prog_info" lines (tools/bpf_info.c), callable on a session opened
   from a file or from memory, printing to any stream: the command and the
   fuzz target (fuzz/fuzz_info.c) run the same code. */
#ifndef PD_INFO_H
#define PD_INFO_H

#include "perfdata.h"
#include "pd_tool.h"

#include <stdio.h>
#include <time.h>

/* Every feature section of the session's file (or pipe stream) printed
   to out as perf 6.1's `perf report --header-only -I` prints it; mtime is
   the "captured on" time. What could not be printed is said on stderr.
   Returns PD_EXIT_OK, PD_EXIT_PARTIAL or PD_EXIT_ERROR (out of memory);
   the caller checks out for write errors. */
int pd_info_print(pd_session *s, FILE *out, time_t mtime);

/* The BTF blobs of a BPF_BTF section, indexed once for the name lookups
   of every program (types by id, blobs by id). Zeroed to start. */
struct pd_btf_blob;
typedef struct pd_btf_index {
    perfdata_view sec;              /* the section indexed: a copy (a pipe's record may not stay) */
    unsigned char *copy;
    int have_sec;                   /* a BPF_BTF section was seen */
    int built;                      /* blobs and types are filled in */
    struct pd_btf_blob *blobs;      /* by id, file order within an id */
    size_t nr_blobs;
    uint32_t *types;                /* each blob's type offsets, one run per blob */
} pd_btf_index;

/* The BPF_BTF section the names come from (a pipe may send a new one).
   Returns 0, or -1 when out of memory (then no BTF names). */
int pd_btf_index_set(pd_btf_index *x, perfdata_view sec);
void pd_btf_index_free(pd_btf_index *x);

/* The lines of one BPF_PROG_INFO program, as perf's
   __bpf_event__print_bpf_prog_info prints them. Returns 0 when printed (or
   when perf prints nothing for it: sub-program counts that disagree), -1
   when out of memory, 1 when the program's arrays, function info or BTF
   name lie outside what the file holds: then nothing is printed and *why
   says what. */
int pd_bpf_print_prog_info(FILE *out, const perfdata_bpf_prog_info *prog, int big, pd_btf_index *btf,
                           const char **why);

#endif
