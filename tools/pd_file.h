/* pd_file.h - map a perf.data input read-only for the perfdata tools.
   A regular file is mmapped; "-" (standard input) is read into memory; a
   `perf record --threads` directory is mapped as its `data` file plus one
   stream per data.N file. */
#ifndef PD_FILE_H
#define PD_FILE_H

#include <stddef.h>

typedef struct pd_map {
    const unsigned char *data;
    size_t size;
    int owned;          /* 1: malloc'd (stdin), 2: mmapped */
    char path[4096];
} pd_map;

typedef struct pd_input {
    pd_map main;        /* the file, or dir/data */
    pd_map *streams;    /* dir/data.0 ... in numeric order */
    size_t nr_streams;
    int is_dir;
} pd_input;

/* 0 on success; on failure -1 and a message in err. */
int pd_map_path(pd_map *m, const char *path, char *err, size_t errlen);
void pd_unmap(pd_map *m);
int pd_input_open(pd_input *in, const char *path, char *err, size_t errlen);
void pd_input_close(pd_input *in);

#endif
