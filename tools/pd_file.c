/* pd_file.c - see pd_file.h. */
/* 64-bit file offsets and inode numbers on 32-bit hosts too: without this,
   stat() and readdir() fail with EOVERFLOW on large filesystems and files
   over 2 GiB cannot be mapped. */
#ifndef _FILE_OFFSET_BITS
#define _FILE_OFFSET_BITS 64
#endif
#define _POSIX_C_SOURCE 200809L
#include "pd_file.h"
#include "perfdata.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(char *err, size_t errlen, const char *path, const char *what) {
    snprintf(err, errlen, "%s: %s", path, what);
    return -1;
}

/* What a command read from standard input before opening it (to see
   what the input is): the stream starts with these bytes. */
static unsigned char stdin_prefix[64];
static size_t stdin_prefix_n;

void pd_input_stdin_prefix(const void *p, size_t n) {
    if (n > sizeof stdin_prefix) n = sizeof stdin_prefix;
    memcpy(stdin_prefix, p, n);
    stdin_prefix_n = n;
}

static int read_stream(pd_map *m, int fd, char *err, size_t errlen) {
    size_t cap = 1 << 20, len = 0;
    unsigned char *buf = malloc(cap);
    int first = 0;
    if (!buf) return fail(err, errlen, m->path, "out of memory");
    if (fd == 0 && stdin_prefix_n) {
        memcpy(buf, stdin_prefix, stdin_prefix_n);
        len = stdin_prefix_n;
        stdin_prefix_n = 0;
        first = 1;
    }
    for (;;) {
        ssize_t got;
        if (first) { /* the bytes already read: looked at as if just read */
            got = (ssize_t)len;
            first = 0;
        } else {
            if (len == cap) {
                unsigned char *bigger = cap > ((size_t)-1) / 2 ? NULL : realloc(buf, cap * 2);
                if (!bigger) { free(buf); return fail(err, errlen, m->path, "out of memory"); }
                buf = bigger; cap *= 2;
            }
            got = read(fd, buf + len, cap - len);
            if (got < 0 && errno == EINTR) continue;
            if (got < 0) { free(buf); return fail(err, errlen, m->path, strerror(errno)); }
            if (got == 0) break;
            len += (size_t)got;
        }
        /* a stream that does not start as a perf.data file is read no
           further (a device such as /dev/zero never ends): perfdata_open
           says what is wrong with the bytes read */
        if (len >= 16 && len - (size_t)got < 16 && memcmp(buf, "PERFILE2", 8) != 0 && memcmp(buf, "2ELIFREP", 8) != 0)
            break;
        /* a pipe-mode stream (header size 16) is read as it arrives by
           pd_input_read: what came so far is its first piece */
        if (len >= 16 && ((buf[8] == 16 && !memcmp(buf + 9, "\0\0\0\0\0\0", 7)) ||
                          (buf[15] == 16 && !memcmp(buf + 8, "\0\0\0\0\0\0", 7)))) {
            m->streaming = 1;
            m->fd = fd;
            break;
        }
    }
    m->data = buf; m->size = len; m->owned = 1;
    m->next_check = (size_t)-1; /* nothing to give back */
    return 0;
}

/* Reads the regular file open on fd (st is its fstat) into memory,
   as much as is there (it may shrink or grow meanwhile). Closes fd. */
static int read_whole(pd_map *m, int fd, const struct stat *st, char *err, size_t errlen) {
    size_t cap = (size_t)st->st_size, len = 0;
    unsigned char *buf = malloc(cap);
    if (!buf) { close(fd); return fail(err, errlen, m->path, "out of memory"); }
    while (len < cap) {
        ssize_t got = read(fd, buf + len, cap - len);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) { int e = errno; free(buf); close(fd); return fail(err, errlen, m->path, strerror(e)); }
        if (got == 0) break;
        len += (size_t)got;
    }
    close(fd);
    m->data = buf; m->size = len; m->owned = 1;
    m->next_check = (size_t)-1;
    return 0;
}

/* Maps the regular file open on fd (st is its fstat); an empty one is an
   error unless allow_empty, then it is an empty map. Closes fd. */
static int map_regular(pd_map *m, int fd, const struct stat *st, int allow_empty, char *err, size_t errlen) {
    void *p;
    if (st->st_size == 0) {
        close(fd);
        return allow_empty ? 0 : fail(err, errlen, m->path, "empty file");
    }
    if ((unsigned long long)st->st_size > (size_t)-1) { close(fd); return fail(err, errlen, m->path, "too large to map"); }
    p = mmap(NULL, (size_t)st->st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED) return fail(err, errlen, m->path, strerror(errno));
    m->data = p; m->size = (size_t)st->st_size; m->owned = 2;
    m->released = m->populated = m->next_check = 0;
    return 0;
}

/* m emptied, with its own copy of path */
static int set_path(pd_map *m, const char *path, char *err, size_t errlen) {
    size_t n = strlen(path) + 1;
    memset(m, 0, sizeof *m);
    m->path = path;
    if (!(m->path_owned = malloc(n))) return fail(err, errlen, path, "out of memory");
    memcpy(m->path_owned, path, n);
    m->path = m->path_owned;
    return 0;
}

int pd_map_path(pd_map *m, const char *path, char *err, size_t errlen) {
    struct stat st;
    int fd;
    if (set_path(m, strcmp(path, "-") ? path : "<stdin>", err, errlen) < 0) return -1;
    if (!strcmp(path, "-")) return read_stream(m, 0, err, errlen);
    fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return fail(err, errlen, path, strerror(errno));
    if (fstat(fd, &st) < 0) { int e = errno; close(fd); return fail(err, errlen, path, strerror(e)); }
    if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) { /* a pipe or a tty: read it */
        int rc = read_stream(m, fd, err, errlen);
        if (rc < 0 || !m->streaming) close(fd);
        return rc;
    }
    if (!S_ISREG(st.st_mode)) { close(fd); return fail(err, errlen, path, "not a regular file"); }
    return map_regular(m, fd, &st, 0, err, errlen);
}

/* The files of a --threads directory: perf wrote them, so they are regular
   files, and anything else (a FIFO would block, a device would be read
   without end) is refused before it is opened, and again after (fstat) in
   case the path changed in between. An empty data.N is an empty stream. */
static int map_member(pd_map *m, const char *path, int allow_empty, int read_it, char *err, size_t errlen) {
    struct stat st;
    int fd;
    if (set_path(m, path, err, errlen) < 0) return -1;
    if (stat(path, &st) < 0) return fail(err, errlen, path, strerror(errno));
    if (!S_ISREG(st.st_mode)) return fail(err, errlen, path, "not a regular file");
    fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return fail(err, errlen, path, strerror(errno));
    if (fstat(fd, &st) < 0) { int e = errno; close(fd); return fail(err, errlen, path, strerror(e)); }
    if (!S_ISREG(st.st_mode)) { close(fd); return fail(err, errlen, path, "not a regular file"); }
    if (st.st_size > 0 && (read_it || st.st_size < sysconf(_SC_PAGESIZE))) return read_whole(m, fd, &st, err, errlen);
    return map_regular(m, fd, &st, allow_empty, err, errlen);
}

#define PD_WINDOW ((size_t)6 << 20)
#define PD_MAP_AHEAD ((size_t)4 << 20)
#define PD_STEP ((size_t)2 << 20)

/* perf reads its input through a window of mappings; the tools map the
   whole file but keep only a window of it resident, so their memory does
   not grow with the file. Pages PD_WINDOW behind are given back
   (MADV_DONTNEED: touched again, they are read back from the page cache,
   so records still queued stay valid, but they stay: the window behind
   covers what the command and the time-order queue still read, measured
   on a dwarf profile's 4 KB records), and the next PD_MAP_AHEAD is mapped in
   with one call where the kernel can (MADV_POPULATE_READ, Linux 5.14),
   which saves a page fault per page; two steps ahead are enough for
   that. */
void pd_map_advance(pd_map *m, const void *at) {
    size_t pos, page, want;
    if (m->owned != 2 || (const unsigned char *)at < m->data) return;
    pos = (size_t)((const unsigned char *)at - m->data);
    if (pos < m->next_check || pos > m->size) return;
    m->next_check = pos + PD_STEP;
    page = (size_t)sysconf(_SC_PAGESIZE);
    if (!page) return;
    if (pos > PD_WINDOW) {
        size_t to = (pos - PD_WINDOW) / page * page;
        if (to > m->released) {
            madvise((void *)(uintptr_t)(m->data + m->released), to - m->released, MADV_DONTNEED);
            m->released = to;
        }
    }
#ifdef MADV_POPULATE_READ
    want = m->size - pos > PD_MAP_AHEAD ? pos + PD_MAP_AHEAD : m->size;
    if (want > m->populated) {
        size_t from = m->populated > pos ? m->populated / page * page : pos / page * page;
        madvise((void *)(uintptr_t)(m->data + from), want - from, MADV_POPULATE_READ);
        m->populated = want;
    }
#else
    (void)want;
#endif
}

void pd_unmap(pd_map *m) {
    if (m->owned == 1) free((void *)m->data);
    if (m->owned == 2) munmap((void *)m->data, m->size);
    free(m->path_owned);
    m->data = NULL; m->size = 0; m->owned = 0;
    m->path = m->path_owned = NULL;
}

/* Whether name is "data." and a decimal number, which is then in *n. */
static int stream_number(const char *name, size_t *n) {
    const char *p = name + 5;
    size_t v = 0;
    if (strncmp(name, "data.", 5) != 0 || !*p) return 0;
    for (; *p; p++) {
        if (*p < '0' || *p > '9' || v > ((size_t)-1 - 9) / 10) return 0;
        v = v * 10 + (size_t)(*p - '0');
    }
    *n = v;
    return 1;
}

static int by_data(const void *a, const void *b) {
    uintptr_t x = (uintptr_t)(*(const pd_map *const *)a)->data, y = (uintptr_t)(*(const pd_map *const *)b)->data;
    return x < y ? -1 : x > y;
}

/* The streams in the order of their bytes in memory, for
   pd_input_stream_at: with a record from a queue, which stream it came
   from, in O(log n). Empty streams are left out. */
static int index_streams(pd_input *in, const char *dir, char *err, size_t errlen) {
    size_t i, n = 0;
    if (!in->nr_streams) return 0;
    /* an array of pointers (NOLINTs: sizeof a pointer is meant) */
    in->by_address = (const pd_map **)malloc(in->nr_streams * sizeof(const pd_map *)); /* NOLINT(bugprone-sizeof-expression) */
    if (!in->by_address) return fail(err, errlen, dir, "out of memory");
    for (i = 0; i < in->nr_streams; i++)
        if (in->streams[i].size) in->by_address[n++] = &in->streams[i];
    qsort(in->by_address, n, sizeof(const pd_map *), by_data); /* NOLINT(bugprone-sizeof-expression) */
    in->nr_by_address = n;
    return 0;
}

const pd_map *pd_input_stream_at(const pd_input *in, const void *p) {
    uintptr_t at = (uintptr_t)p;
    size_t lo = 0, hi = in->nr_by_address;
    while (lo < hi) { /* the last stream starting at or before at */
        size_t mid = lo + (hi - lo) / 2;
        if ((uintptr_t)in->by_address[mid]->data <= at) lo = mid + 1;
        else hi = mid;
    }
    if (lo) {
        const pd_map *m = in->by_address[lo - 1];
        if (at - (uintptr_t)m->data < m->size) return m;
    }
    return NULL;
}

#define PD_MAX_MAPPED 4096

/* data.N files of a --threads directory, in numeric order: data.0 up to
   the first number missing. Whatever is there counts (a dangling symlink
   too, to be refused by name), and a data.N past a gap is an error rather
   than a stream silently left out. */
static int open_streams(pd_input *in, const char *dir, char *err, size_t errlen) {
    size_t n, k, mapped = 0;
    DIR *d;
    struct dirent *de;
    for (n = 0;; n++) {
        char p[4200];
        struct stat st;
        snprintf(p, sizeof p, "%s/data.%zu", dir, n);
        if (lstat(p, &st) < 0) break;
    }
    if (!(d = opendir(dir))) return fail(err, errlen, dir, strerror(errno));
    while ((de = readdir(d)) != NULL)
        if (stream_number(de->d_name, &k) && k >= n) {
            snprintf(err, errlen, "%s/%s: data.%zu is missing (the streams are numbered from 0 without gaps)", dir,
                     de->d_name, n);
            closedir(d);
            return -1;
        }
    closedir(d);
    in->streams = n ? calloc(n, sizeof *in->streams) : NULL;
    if (n && !in->streams) return fail(err, errlen, dir, "out of memory");
    for (in->nr_streams = 0; in->nr_streams < n; in->nr_streams++) {
        char p[4200];
        snprintf(p, sizeof p, "%s/data.%zu", dir, in->nr_streams);
        /* an empty per-thread stream is legal: it had no records */
        /* past PD_MAX_MAPPED mappings, streams are read: a process may
           have only so many (vm.max_map_count, 65,530 by default) */
        if (map_member(&in->streams[in->nr_streams], p, 1, mapped >= PD_MAX_MAPPED, err, errlen) < 0) {
            pd_unmap(&in->streams[in->nr_streams]);
            return -1;
        }
        if (in->streams[in->nr_streams].owned == 2) mapped++;
    }
    return index_streams(in, dir, err, errlen);
}

int pd_input_open(pd_input *in, const char *path, char *err, size_t errlen) {
    struct stat st;
    memset(in, 0, sizeof *in);
    if (strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        char p[4200];
        snprintf(p, sizeof p, "%s/data", path);
        in->is_dir = 1;
        if (map_member(&in->main, p, 0, 0, err, errlen) < 0 || open_streams(in, path, err, errlen) < 0) {
            pd_input_close(in);
            return -1;
        }
        return 0;
    }
    if (pd_map_path(&in->main, path, err, errlen) < 0) {
        pd_input_close(in);
        return -1;
    }
    return 0;
}

int pd_input_read(pd_input *in, perfdata_reader *r) {
    enum { PIECE = 1 << 20 };
    ssize_t got;
    if (!in->main.streaming) return -1;
    if (!in->piece && !(in->piece = malloc(PIECE))) {
        fprintf(stderr, "perfdata: out of memory\n");
        return -1;
    }
    do got = read(in->main.fd, in->piece, PIECE); while (got < 0 && errno == EINTR);
    if (got < 0) {
        fprintf(stderr, "perfdata: %s: %s\n", in->main.path, strerror(errno));
        return -1;
    }
    perfdata_reader_push(r, in->piece, (size_t)got, NULL); /* 0: the end */
    return 0;
}

void pd_input_close(pd_input *in) {
    size_t i;
    if (in->main.streaming && in->main.fd > 0) close(in->main.fd);
    free(in->piece);
    pd_unmap(&in->main);
    for (i = 0; i < in->nr_streams; i++) pd_unmap(&in->streams[i]);
    free(in->streams);
    free(in->by_address);
    memset(in, 0, sizeof *in);
}

FILE *pd_output_create(const char *path, const char *who) {
    struct stat st;
    const char *why = NULL;
    int fd = -1, flags;
    FILE *fp;
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
        why = S_ISLNK(st.st_mode) ? "a symbolic link; not followed" : "not a regular file";
    else if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0666)) < 0)
        why = errno == ELOOP ? "a symbolic link; not followed" : strerror(errno);
    else if (fstat(fd, &st) < 0)
        why = strerror(errno);
    else if (!S_ISREG(st.st_mode))
        why = "not a regular file";
    else if ((flags = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0)
        why = strerror(errno);
    else if (!(fp = fdopen(fd, "w")))
        why = strerror(errno);
    else
        return fp;
    fprintf(stderr, "perfdata %s: %s: %s; not written\n", who, path, why);
    if (fd >= 0) close(fd);
    return NULL;
}
