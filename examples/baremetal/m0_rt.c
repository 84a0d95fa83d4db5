/* m0_rt.c - the run-time helpers clang calls on ARMv6-M (Cortex-M0) for code
   that perfdata.h's implementation contains: u64 shifts by a variable amount,
   u64 multiply, 32- and 64-bit division, and struct copies / zeroing. A real
   firmware gets these from libgcc or compiler-rt; with -nostdlib they must be
   supplied. Written with 32-bit operations only, so that none of them calls
   itself. Slow but small; the -ffreestanding build keeps the byte loops as
   loops. */
#include <stddef.h>
#include <stdint.h>

typedef union { uint64_t u; struct { uint32_t lo, hi; } w; } m0_u64;  /* little-endian M0 */

uint64_t __aeabi_llsl(uint64_t v, int s);
uint64_t __aeabi_llsr(uint64_t v, int s);
uint64_t __aeabi_lmul(uint64_t a, uint64_t b);
unsigned __aeabi_uidiv(unsigned n, unsigned d);
uint64_t __aeabi_uidivmod(unsigned n, unsigned d);
uint64_t m0_udivmod64(uint64_t n, uint64_t d, uint64_t *rem);
void __aeabi_memcpy8(void *dst, const void *src, size_t n);
void __aeabi_memcpy4(void *dst, const void *src, size_t n);
void __aeabi_memcpy(void *dst, const void *src, size_t n);
void __aeabi_memclr8(void *dst, size_t n);
void __aeabi_memclr4(void *dst, size_t n);
void __aeabi_memclr(void *dst, size_t n);

uint64_t __aeabi_llsl(uint64_t v, int s) {
    m0_u64 x, r; x.u = v;
    s &= 63;
    if (s == 0) return v;
    if (s >= 32) { r.w.hi = x.w.lo << (s - 32); r.w.lo = 0; }
    else { r.w.hi = (x.w.hi << s) | (x.w.lo >> (32 - s)); r.w.lo = x.w.lo << s; }
    return r.u;
}

uint64_t __aeabi_llsr(uint64_t v, int s) {
    m0_u64 x, r; x.u = v;
    s &= 63;
    if (s == 0) return v;
    if (s >= 32) { r.w.lo = x.w.hi >> (s - 32); r.w.hi = 0; }
    else { r.w.lo = (x.w.lo >> s) | (x.w.hi << (32 - s)); r.w.hi = x.w.hi >> s; }
    return r.u;
}

static uint64_t m0_mul32x32(uint32_t a, uint32_t b) {  /* 16-bit partial products */
    uint32_t al = a & 0xffffu, ah = a >> 16, bl = b & 0xffffu, bh = b >> 16;
    uint32_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint32_t mid = (ll >> 16) + (lh & 0xffffu) + (hl & 0xffffu);
    m0_u64 r;
    r.w.lo = (ll & 0xffffu) | (mid << 16);
    r.w.hi = hh + (lh >> 16) + (hl >> 16) + (mid >> 16);
    return r.u;
}

uint64_t __aeabi_lmul(uint64_t a, uint64_t b) {
    m0_u64 x, y, r; x.u = a; y.u = b;
    r.u = m0_mul32x32(x.w.lo, y.w.lo);
    r.w.hi += x.w.lo * y.w.hi + x.w.hi * y.w.lo;
    return r.u;
}

unsigned __aeabi_uidiv(unsigned n, unsigned d) {
    unsigned q = 0, r = 0; int i;
    if (d == 0) return 0;
    for (i = 31; i >= 0; i--) {
        r = (r << 1) | ((n >> i) & 1u);
        if (r >= d) { r -= d; q |= 1u << i; }
    }
    return q;
}

/* Returns quotient in r0 and remainder in r1: a u64 with the remainder on top. */
uint64_t __aeabi_uidivmod(unsigned n, unsigned d) {
    m0_u64 r; unsigned q = __aeabi_uidiv(n, d);
    r.w.lo = q; r.w.hi = n - q * d;
    return r.u;
}

uint64_t m0_udivmod64(uint64_t n, uint64_t d, uint64_t *rem) {
    uint64_t q = 0, r = 0; int i;
    if (d == 0) { *rem = 0; return 0; }
    for (i = 63; i >= 0; i--) {
        m0_u64 bit; bit.u = n;
        r = (r << 1) | ((i >= 32 ? bit.w.hi >> (i - 32) : bit.w.lo >> i) & 1u);
        q <<= 1;
        if (r >= d) { r -= d; q |= 1u; }
    }
    *rem = r;
    return q;
}

/* __aeabi_uldivmod: quotient in r0:r1, remainder in r2:r3 (not expressible
   as a C return type), so a Thumb-1 wrapper around m0_udivmod64. */
__attribute__((naked)) void __aeabi_uldivmod(void) {
    __asm__ volatile(
        "push {r4, lr}\n"
        "sub sp, sp, #16\n"
        "add r4, sp, #8\n"
        "str r4, [sp]\n"          /* 3rd argument (uint64_t *rem) goes on the stack */
        "bl m0_udivmod64\n"
        "ldr r2, [sp, #8]\n"
        "ldr r3, [sp, #12]\n"
        "add sp, sp, #16\n"
        "pop {r4, pc}\n");
}

void __aeabi_memcpy(void *dst, const void *src, size_t n) {
    unsigned char *d = (unsigned char *)dst; const unsigned char *s = (const unsigned char *)src;
    while (n--) *d++ = *s++;
}
void __aeabi_memcpy4(void *dst, const void *src, size_t n) { __aeabi_memcpy(dst, src, n); }
void __aeabi_memcpy8(void *dst, const void *src, size_t n) { __aeabi_memcpy(dst, src, n); }
void __aeabi_memclr(void *dst, size_t n) { unsigned char *d = (unsigned char *)dst; while (n--) *d++ = 0; }
void __aeabi_memclr4(void *dst, size_t n) { __aeabi_memclr(dst, n); }
void __aeabi_memclr8(void *dst, size_t n) { __aeabi_memclr(dst, n); }
