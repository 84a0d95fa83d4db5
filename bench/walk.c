/* walk.c - the floor for bench/: the least any perf.data parser can do,
   stepping over every record header of the data section (with the
   out-of-band payloads of TRACING_DATA and AUXTRACE), little-endian files
   only. Prints the record count. Build: cc -O2 -o walk walk.c */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static uint64_t le(const unsigned char *p, int n) {
    uint64_t v = 0;
    while (n--) v = v << 8 | p[n];
    return v;
}

int main(int argc, char **argv) {
    struct stat st;
    const unsigned char *p;
    uint64_t pos, end, n = 0;
    int fd = argc > 1 ? open(argv[1], O_RDONLY) : -1;
    if (fd < 0 || fstat(fd, &st) < 0 || st.st_size < 104) return 2;
    p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED || memcmp(p, "PERFILE2", 8)) return 2;
    pos = le(p + 40, 8);
    end = pos + le(p + 48, 8);
    if (end > (uint64_t)st.st_size) end = (uint64_t)st.st_size;
    while (pos + 8 <= end) {
        uint32_t type = (uint32_t)le(p + pos, 4);
        uint64_t size = le(p + pos + 6, 2);
        if (size < 8) break;
        if (type == 66) size += le(p + pos + 8, 4);
        if (type == 71) size += le(p + pos + 8, 8);
        pos += size;
        n++;
    }
    printf("%llu records\n", (unsigned long long)n);
    return 0;
}
