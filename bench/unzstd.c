/* unzstd.c - the header's zstd decoder (PERFDATA_ZSTD) on a .zst file, for
   bench/: streams the whole file through perfdata_zstd_decompress_stream
   into a 1 MiB buffer that is overwritten (as `zstd -d -c >/dev/null`
   discards its output) and prints the decoded size.
   Build: cc -O2 -I. -o unzstd bench/unzstd.c */
#define PERFDATA_ZSTD
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static perfdata_zstd_dctx dctx;
static unsigned char out[1 << 20];

int main(int argc, char **argv) {
    struct stat st;
    const unsigned char *p;
    unsigned char *window;
    size_t win = 0, pos = 0;
    unsigned long long total = 0;
    perfdata_status rc = PERFDATA_OK;
    perfdata_error err;
    int fd = argc > 1 ? open(argv[1], O_RDONLY) : -1;
    if (fd < 0 || fstat(fd, &st) < 0 || st.st_size == 0) return 2;
    p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED || perfdata_zstd_window_buffer_size(p, (size_t)st.st_size, &win, NULL) != PERFDATA_OK) return 2;
    /* twice the minimum (the minimum works as fast: the window is a ring) */
    window = malloc(2 * win + 1);
    if (!window) return 2;
    perfdata_zstd_dctx_init(&dctx, window, 2 * win + 1, 0);
    while (pos < (size_t)st.st_size || rc == PERFDATA_ERR_NO_SPACE) {
        size_t used = 0, written = 0;
        rc = perfdata_zstd_decompress_stream(&dctx, p + pos, (size_t)st.st_size - pos, &used, out, sizeof out, &written, &err);
        if (rc != PERFDATA_OK && rc != PERFDATA_NEED_INPUT && rc != PERFDATA_ERR_NO_SPACE) {
            fprintf(stderr, "%s at offset %llu\n", err.message, (unsigned long long)err.offset);
            return 1;
        }
        pos += used;
        total += written;
    }
    printf("%llu bytes\n", total);
    if (rc != PERFDATA_OK) fprintf(stderr, "%s: the last frame is cut short\n", argv[1]);
    return rc == PERFDATA_OK ? 0 : 1;
}
