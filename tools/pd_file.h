/* pd_file.h - map a perf.data input read-only for the perfdata tools, and
   create their output files.
   A regular file is mmapped; "-" (standard input), a FIFO or a tty is read
   into memory; a `perf record --threads` directory is mapped as its `data`
   file plus one stream per data.N file (one under a page is read into
   memory, as is every one after the first 4096 mapped: a mapping takes a
   page at least, and a process has at most vm.max_map_count of them). */
#ifndef PD_FILE_H
#define PD_FILE_H

#include <stddef.h>
#include <stdio.h>

typedef struct pd_map {
    const unsigned char *data;
    size_t size;
    int owned;          /* 1: malloc'd (stdin, a small data.N), 2: mmapped */
    size_t released;    /* pages before this offset were given back */
    size_t populated;   /* pages before this offset were mapped in ahead */
    size_t next_check;  /* pd_map_advance acts again from this offset */
    const char *path;   /* as given; "<stdin>" for "-" */
    char *path_owned;   /* path's copy, freed by pd_unmap */
    int streaming;      /* a pipe-mode stream: data holds its first bytes,
                           the rest is read from fd by pd_input_read */
    int fd;
} pd_map;

typedef struct pd_input {
    pd_map main;        /* the file, or dir/data */
    pd_map *streams;    /* dir/data.0 ... in numeric order */
    size_t nr_streams;
    const pd_map **by_address; /* the non-empty streams in the order of their data */
    size_t nr_by_address;
    int is_dir;
    unsigned char *piece; /* a stream's read buffer */
} pd_input;

/* 0 on success; on failure -1 and a message in err. */
int pd_map_path(pd_map *m, const char *path, char *err, size_t errlen);
void pd_unmap(pd_map *m);
/* The reader is at `at` in m: keep a window of the mapping resident around
   it (pages well behind are given back, pages ahead mapped in one call). */
void pd_map_advance(pd_map *m, const void *at);
/* The per-record check, inline: pd_map_advance acts every few MiB. */
static inline void pd_map_at(pd_map *m, const unsigned char *at) {
    if (at >= m->data && (size_t)(at - m->data) >= m->next_check) pd_map_advance(m, at);
}
/* path, or for a directory DIR: DIR/data and DIR/data.0 ... (regular files
   only; an empty data.N is an empty stream). */
int pd_input_open(pd_input *in, const char *path, char *err, size_t errlen);
void pd_input_close(pd_input *in);
/* A stream (main.streaming): reads what is there (up to 1 MiB, waiting
   for something) and pushes it to r, 0 bytes at the end. -1 on a read
   error (said on stderr). */
struct perfdata_reader;
int pd_input_read(pd_input *in, struct perfdata_reader *r);
/* The stream of a directory whose bytes hold p, or NULL: O(log streams). */
const pd_map *pd_input_stream_at(const pd_input *in, const void *p);

/* Creates (or truncates) an output file the tools write, such as a --csv
   table, mode 0666 less the umask. Only a regular file is written: a
   symlink at path is not followed (O_NOFOLLOW) and anything else found
   there (a FIFO, a device) is refused, before opening when lstat sees it
   and after (fstat) when it was put there in between; a FIFO is never
   waited on (O_NONBLOCK). NULL on failure, said on stderr as
   "perfdata WHO: PATH: reason". */
FILE *pd_output_create(const char *path, const char *who);

/* Bytes (at most 64) a command has read from standard input before
   opening "-": the input starts with them. */
void pd_input_stdin_prefix(const void *p, size_t n);

#endif
