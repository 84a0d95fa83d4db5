/* unzstd.c - the header's zstd decoder (PERFDATA_ZSTD) on a .zst file, for
   bench/: streams the whole file through perfdata_zstd_decompress_stream
   into a 1 MiB buffer that is overwritten (as `zstd -d -c >/dev/null`
   discards its output) and prints the decoded size and its XXH64.
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
    int rc = PERFDATA_ZSTD_OK;
    int fd = argc > 1 ? open(argv[1], O_RDONLY) : -1;
    if (fd < 0 || fstat(fd, &st) < 0 || st.st_size == 0) return 2;
    p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED || perfdata_zstd_window_buffer_size(p, (size_t)st.st_size, &win) != 0) return 2;
    /* twice the minimum: the window moves once per Window_Size of output */
    window = malloc(2 * win + 1);
    if (!window) return 2;
    perfdata_zstd_dctx_init(&dctx, window, 2 * win + 1, 0);
    while (pos < (size_t)st.st_size || rc == PERFDATA_ZSTD_OUTPUT_FULL) {
        size_t used = 0, written = 0;
        rc = perfdata_zstd_decompress_stream(&dctx, p + pos, (size_t)st.st_size - pos, &used, out, sizeof out, &written);
        if (rc < 0) { fprintf(stderr, "%s\n", perfdata_zstd_error_name(rc)); return 1; }
        pos += used;
        total += written;
    }
    printf("%llu bytes\n", total);
    return rc == PERFDATA_ZSTD_OK ? 0 : 1;
}
