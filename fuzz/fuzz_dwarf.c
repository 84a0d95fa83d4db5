/* fuzz_dwarf.c - libFuzzer target for tools/pd_dwarf.c and tools/pd_inflate.c:
   the input as a .debug_line section (with itself as .debug_line_str and
   .debug_str, in both byte orders and both address sizes) looked up at
   addresses taken from it and at every row's neighbourhood; and as a zlib
   stream inflated into buffers of several sizes; and as an ELF file whose
   debug information (functions, inlined calls, lines) is looked up at
   addresses it holds.
   Build: clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I. -Itools -D_GNU_SOURCE -DPD_FUZZ_LIBFUZZER fuzz/fuzz_dwarf.c tools/pd_dwarf.c tools/pd_inflate.c tools/pd_elf.c tools/pd_intern.c -o build/fuzz/fuzz_dwarf
   Replay (no libFuzzer): clang -g -O0 -fsanitize=address,undefined -fno-sanitize-recover=all -I. -Itools -D_GNU_SOURCE fuzz/fuzz_dwarf.c tools/pd_dwarf.c tools/pd_inflate.c tools/pd_elf.c tools/pd_intern.c -o build/fuzz/replay_dwarf */
#define PERFDATA_ZSTD
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"
#include "pd_dwarf.h"
#include "pd_elf.h"
#include "pd_inflate.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C"
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const size_t caps[] = {0, 1, 64, 4096, 1 << 20};
    pd_dwarf_sections sec;
    int big, a8;
    size_t k;
    for (big = 0; big < 2; big++) {
        for (a8 = 0; a8 < 2; a8++) {
            pd_dwarf_lines *l;
            memset(&sec, 0, sizeof sec);
            sec.line = sec.line_str = sec.str = data;
            sec.line_n = sec.line_str_n = sec.str_n = size;
            sec.big_endian = big;
            sec.addr_size = a8 ? 8 : 4;
            if (!(l = pd_dwarf_lines_load(&sec, NULL, NULL))) continue;
            for (k = 0; k + 8 <= size && k < 512; k += 8) {
                pd_dwarf_where w;
                uint64_t addr;
                memcpy(&addr, data + k, 8);
                if (pd_dwarf_lookup(l, addr, &w) && w.file_len && !w.file) abort();
                if (pd_dwarf_lookup(l, k, &w) && (w.file_len && !w.file)) abort();
            }
            pd_dwarf_lines_free(l);
        }
    }
    {
        pd_elf *elf;
        unsigned char *copy = (unsigned char *)malloc(size ? size : 1); /* the ELF points into it until closed */
        if (copy) {
            memcpy(copy, data, size);
            if (pd_elf_open_mem(copy, size, &elf, NULL) == PD_ELF_OK) {
                pd_dwarf *d = pd_dwarf_open(elf, NULL);
                if (d) {
                    pd_dwarf_frame f[16];
                    const pd_elf_info *info = pd_elf_get_info(elf);
                    size_t i, n;
                    for (i = 0; i < info->nr_symbols && i < 64; i++) {
                        n = pd_dwarf_frames(d, info->symbols[i].addr + 1, f, 16);
                        if (n > 16) abort();
                    }
                    for (k = 0; k + 8 <= size && k < 256; k += 8) {
                        uint64_t addr;
                        memcpy(&addr, data + k, 8);
                        if (pd_dwarf_frames(d, addr, f, 16) > 16) abort();
                    }
                    pd_dwarf_close(d);
                }
                pd_elf_close(elf);
            }
            free(copy);
        }
    }
    for (k = 0; k < sizeof caps / sizeof caps[0]; k++) {
        unsigned char *out = (unsigned char *)malloc(caps[k] ? caps[k] : 1);
        size_t got = 0;
        if (!out) break;
        if (pd_zlib_inflate(data, size, caps[k] ? out : NULL, caps[k], &got) == 0 && got > caps[k]) abort();
        free(out);
    }
    return 0;
}

#include "fuzz_main.h"
