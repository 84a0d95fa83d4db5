/* chain.c - a known call chain for tests/unwind_arch.sh, built for aarch64
   and arm32 (ARM and Thumb) with no C library: _start (start_*.S) runs
   main on a stack of its own; main arms a SIGPROF interval timer and runs
   main -> a -> b -> c -> leaf and a -> d -> e -> c, d -> leaf, e -> leaf2
   until SAMPLES signals have come. The handler writes, per signal, the
   interrupted registers (from the ucontext's mcontext, in perf's sample
   register order) and the interrupted stack from its sp up to the stack's
   top (at most STACK_CAP bytes) to standard output; see the record layout
   at the handler. leaf and leaf2 keep the return address in the link
   register, c and e have large frames, and no call is a tail call
   (-fno-optimize-sibling-calls). The call graph is in the section
   .unwind_graph, one "caller callee" pair a line, for the checker.

   Under qemu-user a signal is taken where a translation block begins (a
   function's first instruction, a branch target, a return site). */
#include <stddef.h>
#include <stdint.h>

#define NOINLINE __attribute__((noinline))
#define SAMPLES 200
#define STACK_CAP 16384
#define ROUNDS 2000000 /* at most this many calls of a (about a minute under qemu without signals) */

__attribute__((used, section(".unwind_graph"))) const char unwind_graph[] =
    "_start main\nmain a\nmain sc\na b\na d\nb c\nc leaf\nd leaf\nd e\ne c\ne leaf2\n";

/* start_*.S: the raw system call, the stack, the restorer */
long sc(long nr, long a, long b, long c, long d);
extern unsigned char unwind_stack[], unwind_stack_top[];
void unwind_restorer(void);

#if defined(__aarch64__)
#define NR_write 64
#define NR_setitimer 103
#define NR_rt_sigaction 134
#define MACHINE 183
#define NREGS 33
typedef struct mcontext { /* arch/arm64/include/uapi/asm/sigcontext.h */
    uint64_t fault_address, regs[31], sp, pc, pstate;
} mcontext;
typedef struct ucontext { /* arch/arm64/include/uapi/asm/ucontext.h */
    unsigned long flags;
    void *link;
    void *ss_sp;
    int ss_flags;
    size_t ss_size;
    uint64_t sigmask;
    unsigned char unused[1024 / 8 - 8];
    mcontext mc __attribute__((aligned(16)));
} ucontext;
#elif defined(__arm__)
#define NR_write 4
#define NR_setitimer 104
#define NR_rt_sigaction 174
#define MACHINE 40
#define NREGS 16
typedef struct mcontext { /* arch/arm/include/uapi/asm/sigcontext.h */
    unsigned long trap_no, error_code, oldmask, r[16], cpsr, fault_address;
} mcontext;
typedef struct ucontext { /* arch/arm/include/asm/ucontext.h */
    unsigned long flags;
    void *link;
    void *ss_sp;
    int ss_flags;
    size_t ss_size;
    mcontext mc;
} ucontext;
#else
#error "aarch64 or arm only"
#endif

struct ksigaction { /* the kernel's, for rt_sigaction */
    void (*handler)(int, void *, void *);
    unsigned long flags;
    void (*restorer)(void);
    unsigned long mask[8 / sizeof(long)];
};
#define SIGPROF 27
#define SA_SIGINFO 4ul
#define SA_RESTART 0x10000000ul
#define SA_RESTORER 0x04000000ul
#define ITIMER_PROF 2

static volatile unsigned long samples;
volatile unsigned long sink;

static void put(const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    while (n) {
        long k = sc(NR_write, 1, (long)b, (long)n, 0);
        if (k <= 0) break;
        b += k;
        n -= (size_t)k;
    }
}

/* One record, little-endian 64-bit words: magic "UAC1", e_machine, the
   number of registers, sp, the stack bytes that follow, pstate or cpsr;
   the registers (perf's order: aarch64 x0-x30, sp, pc; arm r0-r15); then
   the stack bytes from sp. */
static void handler(int sig, void *info, void *context) {
    const ucontext *uc = (const ucontext *)context;
    uint64_t head[6 + NREGS];
    uintptr_t sp, top = (uintptr_t)unwind_stack_top;
    unsigned i;
    (void)sig;
    (void)info;
#if defined(__aarch64__)
    for (i = 0; i < 31; i++) head[6 + i] = uc->mc.regs[i];
    head[6 + 31] = uc->mc.sp;
    head[6 + 32] = uc->mc.pc;
    sp = (uintptr_t)uc->mc.sp;
    head[5] = uc->mc.pstate;
#else
    for (i = 0; i < 16; i++) head[6 + i] = uc->mc.r[i];
    sp = (uintptr_t)uc->mc.r[13];
    head[5] = uc->mc.cpsr;
#endif
    head[0] = 0x31434155; /* "UAC1" */
    head[1] = MACHINE;
    head[2] = NREGS;
    head[3] = sp;
    head[4] = sp >= (uintptr_t)unwind_stack && sp <= top ? (top - sp < STACK_CAP ? top - sp : STACK_CAP) : 0;
    put(head, sizeof head);
    put((const void *)sp, (size_t)head[4]);
    samples++;
}

/* some work in a function's own body */
#define WORK(h, n) do { unsigned long w_; for (w_ = 0; w_ < (n); w_++) (h) = (h) * 33 + (w_ ^ ((h) >> 5)); } while (0)

/* leaves: no frame, the return address stays in the link register */
NOINLINE unsigned long leaf(unsigned long x) {
    unsigned long i, h = x;
    for (i = 0; i < 60 + (x & 63); i++) h = (h ^ i) * 2654435761u + (h >> 7);
    return h;
}

NOINLINE unsigned long leaf2(unsigned long x) {
    unsigned long i, h = x | 1;
    for (i = 0; i < 150; i++) h = h * 5 + (h >> 3);
    return h;
}

NOINLINE unsigned long c(unsigned long x) {
    volatile unsigned char big[3000];
    unsigned long i, h;
    for (i = 0; i < sizeof big; i += 64) big[i] = (unsigned char)(x + i);
    h = leaf(x + big[64]);
    for (i = 0; i < 50; i++) h += big[(h + i) & 2047];
    return h + 1;
}

NOINLINE unsigned long b(unsigned long x) {
    unsigned long h = x, i;
    for (i = 0; i < 3; i++) h = c(h + i) * 3;
    WORK(h, 150);
    return h + 2;
}

NOINLINE unsigned long e(unsigned long x) {
    volatile unsigned long big[700];
    unsigned long h;
    big[x & 7] = x;
    h = c(x);
    WORK(h, 100);
    h += leaf2(big[x & 7]);
    big[(h >> 3) & 511] = h;
    return h + big[5];
}

NOINLINE unsigned long d(unsigned long x) {
    unsigned long h = leaf(x);
    WORK(h, 100);
    h ^= e(h);
    return h + 3;
}

NOINLINE unsigned long a(unsigned long x) {
    unsigned long h = b(x);
    WORK(h, 100);
    h += d(h ^ x);
    return h + 4;
}

int main(void) {
    struct ksigaction act;
    long timer[4] = {0, 1000, 0, 1000}; /* every 1 ms of CPU time */
    unsigned long i;
    act.handler = handler;
    act.flags = SA_SIGINFO | SA_RESTART | SA_RESTORER;
    act.restorer = unwind_restorer;
    for (i = 0; i < sizeof act.mask / sizeof act.mask[0]; i++) act.mask[i] = 0;
    if (sc(NR_rt_sigaction, SIGPROF, (long)&act, 0, sizeof act.mask) != 0) return 1;
    if (sc(NR_setitimer, ITIMER_PROF, (long)timer, 0, 0) != 0) return 2;
    for (i = 0; i < ROUNDS && samples < SAMPLES; i++) {
        unsigned long h = a(i);
        WORK(h, 80);
        sink += h;
    }
    return samples < SAMPLES ? 3 : 0;
}

/* EHABI personality routines the compiler's tables name (never called) */
#if defined(__arm__)
void __aeabi_unwind_cpp_pr0(void);
void __aeabi_unwind_cpp_pr1(void);
void __aeabi_unwind_cpp_pr2(void);
void __aeabi_unwind_cpp_pr0(void) {}
void __aeabi_unwind_cpp_pr1(void) {}
void __aeabi_unwind_cpp_pr2(void) {}
#endif
