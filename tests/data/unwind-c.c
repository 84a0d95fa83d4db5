/* unwind-c.c - the C program of the unwind fixtures (built -O2
   without frame pointers): threads, recursion, calls through the PLT
   into a shared library of ours (unwind-lib.c) and back, qsort calling a
   comparator from inside libc, static helpers the compiler inlines. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

unsigned long uw_lib_walk(unsigned long x, int depth, unsigned long (*step)(unsigned long));

static volatile unsigned long sink;
static int stop_ms;

static inline unsigned long rotl(unsigned long v, int k) { return v << k | v >> (64 - k); }

__attribute__((noinline)) static unsigned long callback(unsigned long x) {
    unsigned long v = x;
    for (int i = 0; i < 500; i++) v = rotl(v, 7) ^ (v >> 3) ^ (unsigned)i;
    return v;
}

static int cmp(const void *a, const void *b) {
    unsigned long x = rotl(*(const unsigned long *)a, 13), y = rotl(*(const unsigned long *)b, 13);
    return x < y ? -1 : x > y;
}

__attribute__((noinline)) static void sort_some(unsigned long seed) {
    unsigned long *v = malloc(256 * sizeof *v);
    if (!v) return;
    for (int i = 0; i < 256; i++) v[i] = seed = seed * 2862933555777941757ul + 3037000493ul;
    qsort(v, 256, sizeof v[0], cmp);
    sink += v[7];
    free(v);
}

__attribute__((noinline)) static unsigned long recurse(unsigned long x, int n) {
    char pad[96];
    memset(pad, (int)x, sizeof pad);
    if (n == 0) return uw_lib_walk(x + (unsigned char)pad[5], 3, callback);
    return recurse(rotl(x, 5) + (unsigned)n, n - 1) ^ (unsigned char)pad[n % 96];
}

__attribute__((noinline)) static void *worker(void *arg) {
    unsigned long seed = (unsigned long)arg * 0x9E3779B97F4A7C15ul, rounds = 0;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do {
        sink += recurse(seed + rounds, (int)(rounds % 6));
        if (rounds % 16 == 0) sort_some(seed ^ rounds);
        rounds++;
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < stop_ms);
    return NULL;
}

int main(int argc, char **argv) {
    pthread_t th[3];
    stop_ms = argc > 1 ? atoi(argv[1]) : 300;
    for (long i = 0; i < 3; i++) pthread_create(&th[i], NULL, worker, (void *)(i + 1));
    worker((void *)0);
    for (int i = 0; i < 3; i++) pthread_join(th[i], NULL);
    return 0;
}
