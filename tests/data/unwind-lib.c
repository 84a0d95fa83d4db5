/* unwind-lib.c - the shared library of the unwind fixtures: called
   through the PLT, calls back into the program through a pointer. */
#include <stddef.h>

typedef unsigned long (*uw_step_fn)(unsigned long);

__attribute__((noinline)) static unsigned long lib_mix(unsigned long x, int rounds) {
    volatile unsigned long acc = x;
    for (int i = 0; i < rounds; i++) acc = acc * 6364136223846793005ul + 1442695040888963407ul + (unsigned)i;
    return acc;
}

__attribute__((noinline)) unsigned long uw_lib_walk(unsigned long x, int depth, uw_step_fn step) {
    unsigned long big[32]; /* a frame with room on the stack */
    for (int i = 0; i < 32; i++) big[i] = x + (unsigned)i;
    if (depth <= 0) return step(lib_mix(big[x & 31], 2000));
    return uw_lib_walk(big[depth & 31] ^ x, depth - 1, step) + 1;
}
