/* fuzz_elf.c - libFuzzer target for tools/pd_elf.c: the input as an ELF
   (pd_elf_open_mem, the info, every symbol's name and file, lookups at and
   around every symbol and at addresses taken from the input, and
   pd_elf_map_to_vaddr with mappings taken from the input), and the same
   input as /proc/kallsyms text (pd_kallsyms_parse, every symbol, lookups).
   Build: clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I. -Itools -D_GNU_SOURCE -DPD_FUZZ_LIBFUZZER fuzz/fuzz_elf.c tools/pd_elf.c -o build/fuzz/fuzz_elf
   Replay (no libFuzzer): clang -g -O0 -fsanitize=address,undefined -fno-sanitize-recover=all -I. -Itools -D_GNU_SOURCE fuzz/fuzz_elf.c tools/pd_elf.c -o build/fuzz/replay_elf */
#include "pd_elf.h"

#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C"
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t word(const uint8_t *data, size_t size, size_t i) {
    uint64_t v = 0;
    size_t k;
    for (k = 0; k < 8 && i * 8 + k < size; k++) v |= (uint64_t)data[i * 8 + k] << (8 * k);
    return v;
}

static uint64_t hash_str(const char *s) {
    uint64_t h = 0;
    if (!s) return 1;
    while (*s) h = h * 31 + (unsigned char)*s++;
    return h;
}

static uint64_t elf_probe(const pd_elf *elf, uint64_t a) {
    const pd_elf_sym *s = pd_elf_lookup(elf, a);
    if (!s) return 0;
    if (a < s->addr || a >= s->end) abort(); /* lookup gave a symbol that does not hold a */
    return s->addr + hash_str(s->name) + hash_str(s->file);
}

static uint64_t plt_probe(const pd_elf *elf, uint64_t a) {
    const pd_elf_sym *s = pd_elf_lookup_plt(elf, a);
    if (!s) return 0;
    if (a < s->addr || a >= s->end) abort(); /* the PLT entry found does not hold a */
    return s->addr + hash_str(s->name);
}

static uint64_t ks_probe(const pd_kallsyms *ks, uint64_t a) {
    const pd_ksym *s = pd_kallsyms_lookup(ks, a);
    if (!s) return 0;
    if (a < s->addr || a >= s->end) abort();
    return s->addr + hash_str(s->name) + hash_str(s->module) + (uint64_t)s->type;
}

static uint64_t fuzz_elf(const uint8_t *data, size_t size) {
    pd_elf *elf = NULL;
    pd_elf_error err;
    const pd_elf_info *info;
    uint64_t h = 0, v;
    size_t i, nw = (size + 7) / 8;
    /* own allocation: pd_elf keeps pointers into it until pd_elf_close */
    unsigned char *copy = (unsigned char *)malloc(size ? size : 1);
    if (!copy) return 0;
    if (size) memcpy(copy, data, size);
    if (pd_elf_open_mem(copy, size, &elf, &err) != PD_ELF_OK) {
        if (elf || !err.message) abort(); /* contract: NULL and a message on failure */
        free(copy);
        return err.code + err.offset + hash_str(pd_elf_status_message(err.code));
    }
    info = pd_elf_get_info(elf);
    h += (uint64_t)info->elf64 + (uint64_t)info->big_endian + info->type + info->machine + hash_str(info->symbol_table);
    for (i = 0; i < info->build_id_size; i++) h = h * 31 + info->build_id[i];
    for (i = 0; i < info->nr_symbols; i++) {
        const pd_elf_sym *s = &info->symbols[i];
        if (i && s->addr <= info->symbols[i - 1].addr) abort(); /* sorted, one per address */
        h = h * 31 + hash_str(s->name) + hash_str(s->file) + s->size + s->type + s->bind;
        if (i < 4096) {
            h += elf_probe(elf, s->addr) + elf_probe(elf, s->addr - 1) + elf_probe(elf, s->addr + s->size / 2);
            h += elf_probe(elf, s->end) + elf_probe(elf, s->end - 1);
        }
    }
    for (i = 0; i < info->nr_plt; i++) {
        const pd_elf_sym *s = &info->plt[i];
        if (i && s->addr < info->plt[i - 1].addr) abort(); /* by address */
        h = h * 31 + hash_str(s->name) + s->size;
        if (i < 4096) h += plt_probe(elf, s->addr) + plt_probe(elf, s->end - 1) + plt_probe(elf, s->end);
    }
    for (i = 0; i < nw && i < 512; i++) {
        uint64_t w = word(data, size, i);
        h += elf_probe(elf, w) + plt_probe(elf, w);
        if (pd_elf_map_to_vaddr(elf, w & ~0xfffull, word(data, size, i + 1) & ~0xfffull, w, &v) == PD_ELF_OK) h += v;
        if (pd_elf_map_to_vaddr(elf, 0x400000, 0, 0x400000 + (w & 0xffffff), &v) == PD_ELF_OK) h += elf_probe(elf, v);
        if (pd_elf_map_to_vaddr(elf, 0, 0, w, &v) == PD_ELF_OK) h += elf_probe(elf, v);
    }
    h += elf_probe(elf, 0) + elf_probe(elf, ~0ull);
    pd_elf_close(elf);
    free(copy);
    return h;
}

static uint64_t fuzz_kallsyms(const uint8_t *data, size_t size) {
    pd_kallsyms *ks = NULL;
    pd_elf_error err;
    const pd_ksym *syms;
    size_t i, n, nw = (size + 7) / 8;
    uint64_t h = 0;
    if (pd_kallsyms_parse((const char *)data, size, &ks, &err) != PD_ELF_OK) return err.code;
    n = pd_kallsyms_symbols(ks, &syms);
    for (i = 0; i < n; i++) {
        if (i && syms[i].addr <= syms[i - 1].addr) abort(); /* sorted, one per address */
        h = h * 31 + hash_str(syms[i].name) + hash_str(syms[i].module);
        if (i < 4096) h += ks_probe(ks, syms[i].addr) + ks_probe(ks, syms[i].addr - 1) + ks_probe(ks, syms[i].end - 1) + ks_probe(ks, syms[i].end);
    }
    for (i = 0; i < nw && i < 512; i++) h += ks_probe(ks, word(data, size, i));
    pd_kallsyms_free(ks);
    return h;
}

#ifdef __cplusplus
extern "C"
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    volatile uint64_t sink = fuzz_elf(data, size);
    sink = sink + fuzz_kallsyms(data, size);
    (void)sink;
    return 0;
}

#include "fuzz/fuzz_main.h"
