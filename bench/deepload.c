/* deepload.c - bench/'s CPU load with deep, varied call stacks.
 *
 *   deepload SECONDS THREADS
 *
 * THREADS threads each walk call chains 8 to 96 frames deep through 64
 * functions (f00..f63, each calling the next through a table, so the
 * stacks vary sample by sample) until SECONDS have passed; meanwhile a
 * spawner forks a short-lived process every few milliseconds, each with a
 * command name of its own (deep-NNN), which walks a few chains and exits.
 * Built with frame pointers (-fno-omit-frame-pointer), no inlining and no
 * tail calls, so that -g stacks hold every frame:
 *
 *   cc -O1 -g -fno-omit-frame-pointer -fno-inline -fno-optimize-sibling-calls -pthread
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NFUNCS 64

typedef unsigned long (*step_fn)(unsigned depth, unsigned long x);
static step_fn table[NFUNCS];
static double deadline;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Some work, then the next function: which one comes from x, so each
   chain takes another path. */
#define STEP(n)                                                                 \
    static unsigned long f##n(unsigned depth, unsigned long x) {                \
        unsigned i;                                                             \
        for (i = 0; i < 200 + (n) * 7; i++) x = x * 6364136223846793005UL + (n); \
        if (depth == 0) return x;                                               \
        return table[(x >> 33) % NFUNCS](depth - 1, x) + 1;                     \
    }
STEP(0) STEP(1) STEP(2) STEP(3) STEP(4) STEP(5) STEP(6) STEP(7)
STEP(8) STEP(9) STEP(10) STEP(11) STEP(12) STEP(13) STEP(14) STEP(15)
STEP(16) STEP(17) STEP(18) STEP(19) STEP(20) STEP(21) STEP(22) STEP(23)
STEP(24) STEP(25) STEP(26) STEP(27) STEP(28) STEP(29) STEP(30) STEP(31)
STEP(32) STEP(33) STEP(34) STEP(35) STEP(36) STEP(37) STEP(38) STEP(39)
STEP(40) STEP(41) STEP(42) STEP(43) STEP(44) STEP(45) STEP(46) STEP(47)
STEP(48) STEP(49) STEP(50) STEP(51) STEP(52) STEP(53) STEP(54) STEP(55)
STEP(56) STEP(57) STEP(58) STEP(59) STEP(60) STEP(61) STEP(62) STEP(63)

static void fill(void) {
    static const step_fn all[NFUNCS] = {
        f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15,
        f16, f17, f18, f19, f20, f21, f22, f23, f24, f25, f26, f27, f28, f29, f30, f31,
        f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42, f43, f44, f45, f46, f47,
        f48, f49, f50, f51, f52, f53, f54, f55, f56, f57, f58, f59, f60, f61, f62, f63};
    unsigned i;
    for (i = 0; i < NFUNCS; i++) table[i] = all[i];
}

/* Chains until the deadline (or count of them, when count > 0). */
static unsigned long walk(unsigned long seed, unsigned count) {
    unsigned long x = seed, n = 0;
    while ((count && n < count) || (!count && now() < deadline)) {
        unsigned depth = 8 + (unsigned)((x >> 40) % 89);
        x = table[x % NFUNCS](depth, x * 2862933555777941757UL + 3037000493UL);
        n++;
    }
    return x;
}

static void *worker(void *arg) {
    static volatile unsigned long sink;
    sink += walk((unsigned long)(size_t)arg * 0x9E3779B97F4A7C15UL + 1, 0);
    return NULL;
}

int main(int argc, char **argv) {
    pthread_t threads[64];
    unsigned long n = 0;
    int i, nthreads;
    if (argc != 3 || atof(argv[1]) <= 0 || (nthreads = atoi(argv[2])) < 1 || nthreads > 64) {
        fprintf(stderr, "usage: deepload SECONDS THREADS\n");
        return 2;
    }
    fill();
    deadline = now() + atof(argv[1]);
    for (i = 0; i < nthreads; i++)
        if (pthread_create(&threads[i], NULL, worker, (void *)(size_t)(i + 1)) != 0) return 1;
    while (now() < deadline) { /* the spawner: short-lived processes, each named apart */
        pid_t pid = fork();
        if (pid == 0) {
            char name[16];
            snprintf(name, sizeof name, "deep-%03lu", n % 1000);
            prctl(PR_SET_NAME, name, 0, 0, 0);
            _exit((int)(walk(n + 7, 20) & 1) * 0);
        }
        if (pid > 0) waitpid(pid, NULL, 0);
        n++;
        usleep(2000);
    }
    for (i = 0; i < nthreads; i++) pthread_join(threads[i], NULL);
    return 0;
}
