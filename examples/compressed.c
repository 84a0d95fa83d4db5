/* compressed.c - counts the records of a `perf record -z` file, inside the
   compressed chunks too, with the header's own zstd decoder. Every buffer is
   static: the decoder context, its window and the chunk output buffer are
   sized from the file (perfdata_inflate_measure) and checked against what
   is reserved here.
   Usage: compressed FILE */
#define PERFDATA_ZSTD
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"
#include <stdio.h>

static unsigned char file_bytes[64 << 20];
static perfdata_event events[512];
static perfdata_zstd_dctx dctx;              /* ~280 KiB */
static unsigned char window[16 << 20];       /* zstd window (level 1..19: <= 8 MiB + 128 KiB) */
static unsigned char chunk_out[8 << 20];     /* one chunk's records + a partial one */

int main(int argc, char **argv) {
    perfdata_file f;
    perfdata_cursor cur;
    perfdata_inflate z;
    perfdata_inflate_sizes sizes;
    perfdata_record rec;
    perfdata_error err;
    perfdata_status st;
    size_t window_size = 0, chunks = 0, inside = 0, samples = 0;
    FILE *fp = argc > 1 ? fopen(argv[1], "rb") : NULL;
    size_t len = fp ? fread(file_bytes, 1, sizeof file_bytes, fp) : 0;
    if (fp) fclose(fp);
    if (perfdata_open(&f, file_bytes, len, events, 512, &err) != PERFDATA_OK) {
        fprintf(stderr, "%s at offset 0x%llx\n", err.message, (unsigned long long)err.offset);
        return 1;
    }
    perfdata_inflate_measure(&f, NULL, &sizes, NULL);
    if (sizes.compressed &&
        (perfdata_zstd_window_buffer_size(sizes.first_chunk.p, sizes.first_chunk.n, &window_size, NULL) != PERFDATA_OK ||
         window_size > sizeof window || sizes.buffer > sizeof chunk_out)) {
        fprintf(stderr, "needs a %zu-byte window and a %llu-byte buffer\n", window_size,
                (unsigned long long)sizes.buffer);
        return 1;
    }
    perfdata_zstd_dctx_init(&dctx, window, window_size, 0);
    perfdata_cursor_init(&f, &cur);
    perfdata_inflate_init(&z, &cur, &sizes, chunk_out, sizeof chunk_out, perfdata_zstd_chunk, &dctx);
    while ((st = perfdata_inflate_next(&f, &z, &rec, &err)) != PERFDATA_END) {
        if (st != PERFDATA_OK && cur.stopped != PERFDATA_OK) break; /* the data itself is cut or broken */
        if (perfdata_inflate_expands(&z, &rec)) chunks++;
        else if (z.inner_active) inside++;
        if (rec.type == PERFDATA_RECORD_SAMPLE) samples++;
    }
    printf("%zu chunks, %zu records inside them, %zu samples\n", chunks, inside, samples);
    if (z.failed) printf("stopped decompressing: %s at 0x%llx\n", z.error.message, (unsigned long long)z.error.offset);
    return st == PERFDATA_END ? 0 : 1;
}
