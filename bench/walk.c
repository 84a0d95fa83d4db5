/* walk.c - the floor for bench/: the least any perf.data parser can do,
   stepping over every record header of the data section (with the
   out-of-band payloads of TRACING_DATA and AUXTRACE), little-endian files
   only. Built with -DWALK_ZSTD -lzstd it also decompresses COMPRESSED and
   COMPRESSED2 records with libzstd (one stream through all chunks, as perf
   writes them) and walks the records inside: the floor for -z profiles.
   Prints "N records, M samples" (records inside chunks included).
   Build: cc -O2 -o walk walk.c [-DWALK_ZSTD -lzstd] */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef WALK_ZSTD
#include <zstd.h>
#endif

static uint64_t le(const unsigned char *p, int n) {
    uint64_t v = 0;
    while (n--) v = v << 8 | p[n];
    return v;
}

static uint64_t records, samples;

/* Steps over the records in p[pos..end); returns where a partial record
   starts (end when there is none). */
static uint64_t walk(const unsigned char *p, uint64_t pos, uint64_t end, int inner);

#ifdef WALK_ZSTD
static ZSTD_DCtx *dctx;
static unsigned char *out;
static size_t out_cap = 64u << 20, carry;

static void inflate(const unsigned char *in, size_t n) {
    ZSTD_inBuffer ib = {in, n, 0};
    ZSTD_outBuffer ob = {out, out_cap, carry};
    uint64_t rest;
    if (!dctx) dctx = ZSTD_createDCtx();
    while (ib.pos < ib.size) {
        size_t r = ZSTD_decompressStream(dctx, &ob, &ib);
        if (ZSTD_isError(r) || ob.pos == ob.size) { fprintf(stderr, "zstd: %s\n", ZSTD_getErrorName(r)); exit(1); }
    }
    rest = walk(out, 0, ob.pos, 1);
    carry = ob.pos - rest;
    memmove(out, out + rest, carry);
}
#endif

static uint64_t walk(const unsigned char *p, uint64_t pos, uint64_t end, int inner) {
    while (pos + 8 <= end) {
        uint32_t type = (uint32_t)le(p + pos, 4);
        uint64_t size = le(p + pos + 6, 2);
        if (size < 8) break;
        if (type == 66) size += le(p + pos + 8, 4);
        if (type == 71) size += le(p + pos + 8, 8);
        if (pos + size > end) return pos;
        records++;
        samples += type == 9;
#ifdef WALK_ZSTD
        if (!inner && type == 81) inflate(p + pos + 8, size - 8);
        if (!inner && type == 83) inflate(p + pos + 16, le(p + pos + 8, 8));
#endif
        pos += size;
    }
    (void)inner;
    return pos < end ? pos : end;
}

int main(int argc, char **argv) {
    struct stat st;
    const unsigned char *p;
    uint64_t pos, end;
    int fd = argc > 1 ? open(argv[1], O_RDONLY) : -1;
    if (fd < 0 || fstat(fd, &st) < 0 || st.st_size < 104) return 2;
    p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED || memcmp(p, "PERFILE2", 8)) return 2;
#ifdef WALK_ZSTD
    out = malloc(out_cap);
    if (!out) return 2;
#endif
    pos = le(p + 40, 8);
    end = pos + le(p + 48, 8);
    if (end > (uint64_t)st.st_size) end = (uint64_t)st.st_size;
    walk(p, pos, end, 0);
    printf("%llu records, %llu samples\n", (unsigned long long)records, (unsigned long long)samples);
    return 0;
}
