/* pd_regs.h - register names perf prints for sampled registers, by arch
   (tools/perf/arch/<arch>/include/perf_regs.h and perf_regs.c). */
#ifndef PD_REGS_H
#define PD_REGS_H

#include <stdio.h>
#include <string.h>

static const char *pd_reg_name(unsigned id, const char *arch) {
    static const char *const x86[] = {
        "AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS", "DS", "ES", "FS", "GS",
        "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15"};
    static const char *const arm64[] = {
        "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14", "x15",
        "x16", "x17", "x18", "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29", "lr",
        "sp", "pc", "vg"};
    static const char *const arm[] = {"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10",
                                      "fp", "ip", "sp", "lr", "pc"};
    if (!arch) arch = "x86_64";
    if (!strcmp(arch, "x86_64") || !strcmp(arch, "x86") || !strcmp(arch, "i386") || !strcmp(arch, "i686")) {
        if (id < sizeof x86 / sizeof x86[0]) return x86[id];
        if (id >= 32 && id < 64) {
            static char xmm[16][8];
            unsigned k = (id - 32) / 2;
            /* perf names XMM0..XMM15, each two 64-bit halves */
            snprintf(xmm[k], sizeof xmm[k], "XMM%u", k);
            return xmm[k];
        }
        return "unknown";
    }
    if (!strcmp(arch, "arm64") || !strcmp(arch, "aarch64")) return id < sizeof arm64 / sizeof arm64[0] ? arm64[id] : "unknown";
    if (!strncmp(arch, "arm", 3)) return id < sizeof arm / sizeof arm[0] ? arm[id] : "unknown";
    return "unknown";
}

#endif
