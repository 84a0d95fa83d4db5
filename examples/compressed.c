/* compressed.c - counts the records of a `perf record -z` file, inside the
   compressed chunks too, with perfdata_reader and the header's own zstd
   decoder. No malloc: the memory the reader asks for comes from a static
   arena, as it would on a board.
   Usage: compressed FILE */
#define PERFDATA_ZSTD
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"
#include <stdio.h>

static unsigned char file_bytes[64 << 20];
static unsigned char arena[48 << 20];  /* events, id index, zstd decoder and window, chunk output */
static size_t arena_used;

/* The next `n` bytes of the arena, 16-byte aligned, or NULL. */
static void *arena_take(size_t n) {
    size_t at = (arena_used + 15) & ~(size_t)15;
    if (at > sizeof arena || n > sizeof arena - at) return NULL;
    arena_used = at + n;
    return arena + at;
}

int main(int argc, char **argv) {
    perfdata_reader r;
    perfdata_record rec;
    perfdata_error err;
    perfdata_status st;
    size_t chunks = 0, inside = 0, samples = 0;
    FILE *fp = argc > 1 ? fopen(argv[1], "rb") : NULL;
    size_t len = fp ? fread(file_bytes, 1, sizeof file_bytes, fp) : 0;
    if (fp) fclose(fp);
    perfdata_reader_init(&r, 0);
    perfdata_reader_set_input(&r, file_bytes, len);
    while ((st = perfdata_reader_next(&r, &rec, &err)) != PERFDATA_END) {
        if (st == PERFDATA_NEED_MEMORY) { /* from the arena; none left: refused */
            void *p = arena_take((size_t)err.needed);
            perfdata_reader_give(&r, (perfdata_pool)err.detail, p, p ? (size_t)err.needed : 0, NULL);
            continue;
        }
        if (st != PERFDATA_OK) {
            fprintf(stderr, "%s at offset 0x%llx\n", err.message, (unsigned long long)err.offset);
            if (err.final) break;  /* the data itself is cut or broken */
            if (!rec.type) continue; /* the chunk stream stopped; the chunks still come */
        }
        if (perfdata_reader_expands(&r, &rec)) chunks++;
        else if (rec.bytes.p < file_bytes || rec.bytes.p >= file_bytes + len) inside++;
        if (rec.type == PERFDATA_RECORD_SAMPLE) samples++;
    }
    printf("%zu chunks, %zu records inside them, %zu samples\n", chunks, inside, samples);
    return st == PERFDATA_END ? 0 : 1;
}
