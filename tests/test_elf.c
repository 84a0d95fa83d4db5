/* test_elf.c - tests of tools/pd_elf.c, the ELF and kallsyms symbol resolver.

   Build and run from the repository root:
     gcc -std=c99 -D_GNU_SOURCE -Wall -Wextra -Wpedantic -Werror -g \
         -fsanitize=address,undefined -fno-sanitize-recover=all \
         -Itools tests/test_elf.c tools/pd_elf.c -o /tmp/te && /tmp/te
   (tests/test_elf.sh does this with gcc and clang.)

   The binaries are built here, at test time, with the system compilers: a
   static binary, a PIE, a non-PIE, a shared library, a shared library linked
   at a non-zero address (as prelink leaves them), a stripped library with
   only .dynsym, ELF32 (gcc -m32, freestanding) and big-endian ELF32/ELF64
   (a cross gcc, else clang with lld) when the machine can. nm, readelf -s,
   readelf -l and readelf -n are the oracles. A hand-made image in all four
   class/byte-order combinations needs no toolchain and is the base of the
   targeted hostile-input checks; real binaries get the sweeps (truncation,
   byte flips, random mutation), always from a malloc'd copy of exactly the
   file's size so that ASan sees any read past the end. What cannot be built
   here is skipped with a note, never counted as passed. */
#define _POSIX_C_SOURCE 200809L     /* mkdtemp */
#include "pd_elf.h"
#include "test.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ULL unsigned long long

static char T[256];             /* the temporary directory everything is built in */

/* ------------------------------------------------------------ utilities */

/* Runs a shell command; 1 when it exits 0. Its output goes to T/cmd.log. */
static int run(const char *fmt, ...) {
    char cmd[4096], full[4600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    snprintf(full, sizeof full, "( %s ) >>%s/cmd.log 2>&1", cmd, T);
    return system(full) == 0;
}

static void write_text(const char *name, const char *text) {
    char path[512];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", T, name);
    f = fopen(path, "w");
    if (!f) { perror(path); exit(2); }
    fputs(text, f);
    fclose(f);
}

/* The whole file in a malloc'd block of exactly its size. */
static unsigned char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    unsigned char *buf;
    long n;
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = (unsigned char *)malloc(n > 0 ? (size_t)n : 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) { fclose(f); free(buf); return NULL; }
    fclose(f);
    *size = (size_t)n;
    return buf;
}

static int write_file(const char *path, const unsigned char *p, size_t n) {
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(p, 1, n, f) == n;
    if (f) fclose(f);
    return ok;
}

static void tpath(char *out, size_t cap, const char *name) { snprintf(out, cap, "%s/%s", T, name); }

/* A copy in a fresh malloc'd block of exactly n bytes. */
static unsigned char *dup_bytes(const unsigned char *p, size_t n) {
    unsigned char *q = (unsigned char *)malloc(n ? n : 1);
    if (!q) exit(2);
    if (n) memcpy(q, p, n);
    return q;
}

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

static size_t parse_hex_bytes(const char *s, unsigned char *out, size_t cap) {
    size_t n = 0;
    while (n < cap && hex_value(s[0]) >= 0 && hex_value(s[1]) >= 0) {
        out[n++] = (unsigned char)(hex_value(s[0]) << 4 | hex_value(s[1]));
        s += 2;
    }
    return n;
}

/* ------------------------------------------------------------- oracles */

typedef struct nm_sym {
    ULL addr, size;
    int sized;
    char type;
    char name[256];
} nm_sym;

typedef struct nm_table {
    nm_sym *syms;
    size_t n;
} nm_table;

/* `nm -S --defined-only` (with -D for the dynamic table): "addr [size] type name". */
static nm_table nm_read(const char *bin, int dynamic) {
    nm_table t = {NULL, 0};
    char out[512], line[1024];
    size_t cap = 0;
    FILE *f;
    tpath(out, sizeof out, "nm.txt");
    if (!run("nm %s -S --defined-only %s > %s", dynamic ? "-D" : "", bin, out) || !(f = fopen(out, "r"))) return t;
    while (fgets(line, sizeof line, f)) {
        char a[64], b[64], c[256], d[256];
        int k = sscanf(line, "%63s %63s %255s %255s", a, b, c, d);
        nm_sym s;
        memset(&s, 0, sizeof s);
        if (k == 4) { s.addr = strtoull(a, NULL, 16); s.size = strtoull(b, NULL, 16); s.sized = 1; s.type = c[0]; snprintf(s.name, sizeof s.name, "%s", d); }
        else if (k == 3) { s.addr = strtoull(a, NULL, 16); s.type = b[0]; snprintf(s.name, sizeof s.name, "%s", c); }
        else continue;
        if (t.n == cap) {
            cap = cap ? cap * 2 : 256;
            t.syms = (nm_sym *)realloc(t.syms, cap * sizeof *t.syms);
            if (!t.syms) exit(2);
        }
        t.syms[t.n++] = s;
    }
    fclose(f);
    return t;
}

/* The nth (0-based) symbol called name. */
static const nm_sym *nm_find(const nm_table *t, const char *name, int nth) {
    size_t i;
    for (i = 0; i < t->n; i++) {
        if (!strcmp(t->syms[i].name, name) && nth-- == 0) return &t->syms[i];
    }
    return NULL;
}

/* The build id `readelf -n` prints, as bytes. */
static size_t readelf_build_id(const char *bin, unsigned char *id, size_t cap) {
    char out[512], line[1024];
    size_t n = 0;
    FILE *f;
    tpath(out, sizeof out, "notes.txt");
    run("readelf -nW %s > %s", bin, out);
    if (!(f = fopen(out, "r"))) return 0;
    while (fgets(line, sizeof line, f)) {
        char *p = strstr(line, "Build ID: ");
        if (p) { n = parse_hex_bytes(p + 10, id, cap); break; }
    }
    fclose(f);
    return n;
}

typedef struct load_seg {
    ULL offset, vaddr, filesz;
    int exec;
} load_seg;

/* PT_LOAD lines of `readelf -lW`. */
static size_t readelf_loads(const char *bin, load_seg *segs, size_t cap) {
    char out[512], line[1024];
    size_t n = 0;
    FILE *f;
    tpath(out, sizeof out, "loads.txt");
    run("readelf -lW %s > %s", bin, out);
    if (!(f = fopen(out, "r"))) return 0;
    while (n < cap && fgets(line, sizeof line, f)) {
        ULL off, va, pa, fs, ms;
        int used = 0;
        if (sscanf(line, " LOAD %llx %llx %llx %llx %llx%n", &off, &va, &pa, &fs, &ms, &used) != 5) continue;
        segs[n].offset = off; segs[n].vaddr = va; segs[n].filesz = fs;
        segs[n].exec = strchr(line + used, 'E') != NULL;
        n++;
    }
    fclose(f);
    return n;
}

/* Values of the defined FUNC and IFUNC symbols of one table of `readelf -sW`. */
static size_t readelf_funcs(const char *bin, const char *table, ULL **values) {
    char out[512], line[2048];
    size_t n = 0, cap = 0;
    int in_table = 0;
    FILE *f;
    *values = NULL;
    tpath(out, sizeof out, "syms.txt");
    run("readelf -sW %s > %s", bin, out);
    if (!(f = fopen(out, "r"))) return 0;
    while (fgets(line, sizeof line, f)) {
        char size[64], type[32], bind[32], vis[32], ndx[32], name[512];
        ULL num, value;
        if (!strncmp(line, "Symbol table '", 14)) { in_table = !strncmp(line + 14, table, strlen(table)) && line[14 + strlen(table)] == '\''; continue; }
        if (!in_table || sscanf(line, " %llu: %llx %63s %31s %31s %31s %31s %511s", &num, &value, size, type, bind, vis, ndx, name) != 8) continue;
        if ((strcmp(type, "FUNC") && strcmp(type, "IFUNC")) || !strcmp(ndx, "UND")) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 256;
            *values = (ULL *)realloc(*values, cap * sizeof **values);
            if (!*values) exit(2);
        }
        (*values)[n++] = value;
    }
    fclose(f);
    return n;
}

/* ------------------------------------------------------- sanity checks */

static int inside(const void *p, const unsigned char *buf, size_t n) {
    const unsigned char *q = (const unsigned char *)p;
    return q >= buf && q < buf + n;
}

/* A string that starts inside the buffer and ends inside it. */
static int string_inside(const char *s, const unsigned char *buf, size_t n) {
    return inside(s, buf, n) && memchr(s, 0, (size_t)(buf + n - (const unsigned char *)s)) != NULL;
}

/* What any successfully opened ELF must satisfy, whatever its bytes:
   sorted unique addresses, names and build id inside the buffer, and
   lookups that only ever return a symbol containing the address. */
static int sane(const pd_elf *elf, const unsigned char *buf, size_t n) {
    const pd_elf_info *info = pd_elf_get_info(elf);
    size_t i;
    uint64_t v;
    if (!info) return 0;
    if (info->build_id && (!inside(info->build_id, buf, n) || info->build_id_size > n ||
                           (size_t)(info->build_id - buf) > n - info->build_id_size))
        return 0;
    for (i = 0; i < info->nr_symbols; i++) {
        const pd_elf_sym *s = &info->symbols[i], *r;
        if (i && info->symbols[i - 1].addr >= s->addr) return 0;
        if (!string_inside(s->name, buf, n) || (s->file && !string_inside(s->file, buf, n))) return 0;
        if (s->end < s->addr) return 0;
        r = pd_elf_lookup(elf, s->addr);
        if (s->end > s->addr && (!r || r->addr > s->addr || s->addr >= r->end)) return 0;
        r = pd_elf_lookup(elf, s->addr + s->size / 2);
        if (r && (r->addr > s->addr + s->size / 2 || s->addr + s->size / 2 >= r->end)) return 0;
        pd_elf_map_to_vaddr(elf, 0x10000, 0, s->addr, &v);
    }
    return pd_elf_lookup(elf, 0) == NULL || pd_elf_lookup(elf, 0)->addr == 0;
}

/* Opens a mutated image (a malloc'd block of exactly n bytes); 1 when it
   fails cleanly or opens to a sane result. */
static int survives(const unsigned char *img, size_t n, pd_elf_status *status) {
    unsigned char *copy = dup_bytes(img, n);
    pd_elf *elf = NULL;
    pd_elf_error err;
    pd_elf_status st = pd_elf_open_mem(copy, n, &elf, &err);
    int ok = st == PD_ELF_OK ? sane(elf, copy, n) : (elf == NULL && err.code == st && err.message != NULL);
    if (status) *status = st;
    pd_elf_close(elf);
    free(copy);
    return ok;
}

/* ------------------------------------------------------ test binaries */

static const char *src_a =
    "__attribute__((noinline, used)) static int t_a_local(int x) { return x * 3 + 1; }\n"
    "__attribute__((noinline, used)) static int t_helper(int x) { return (x ^ 0x55) + t_a_local(x); }\n"
    "__attribute__((noinline)) int t_alpha(int x) { int i, s = 0; for (i = 0; i < x; i++) s += t_a_local(i) + t_helper(i); return s; }\n"
    "__attribute__((noinline)) int t_beta(int x) { return t_alpha(x) * 2 + 1; }\n"
    "#if defined(__x86_64__) || defined(__i386__)\n"
    "/* a function symbol without .size: st_size 0 */\n"
    "__asm__(\".text\\n.globl t_zsize\\n.type t_zsize,@function\\nt_zsize:\\n\\tret\\n\\tnop\\n\\tnop\\n\\tnop\\n\");\n"
    "#endif\n";
static const char *src_b =
    "__attribute__((noinline, used)) static int t_b_local(int x) { return x - 7; }\n"
    "__attribute__((noinline, used)) static int t_helper(int x) { return x + 0x77 + t_b_local(x); }\n"
    "__attribute__((noinline)) int t_gamma(int x) { return t_b_local(x) * t_helper(x); }\n";
static const char *src_main =
    "int t_alpha(int), t_beta(int), t_gamma(int);\n"
    "int main(int argc, char **argv) { (void)argv; return (t_alpha(argc) + t_beta(argc) + t_gamma(argc)) == 12345; }\n";
static const char *src_start =      /* the entry of -nostdlib builds */
    "int t_alpha(int), t_beta(int), t_gamma(int);\n"
    "volatile int sink;\n"
    "void _start(void) { sink = t_alpha(3) + t_beta(4) + t_gamma(5); for (;;) ; }\n";

typedef struct bin {
    const char *label;
    char path[512];
    int built;
    int dynamic_only;           /* stripped: .dynsym, nm -D */
    int has_zsize;              /* x86: the size-0 asm function */
} bin;

enum { B_STATIC, B_PIE, B_NOPIE, B_LIB, B_PRELINK, B_STRIPPED, B_ELF32, B_LIB32, B_BE64, B_BE32, B_COUNT };
static bin bins[B_COUNT];

/* -O0 keeps every static function, unnamed by clones; cd so that STT_FILE
   is "a.c". */
static int build(int which, const char *label, const char *cmd_fmt, int dynamic_only, int has_zsize) {
    bin *b = &bins[which];
    b->label = label;
    snprintf(b->path, sizeof b->path, "%s/%s", T, label);
    b->dynamic_only = dynamic_only;
    b->has_zsize = has_zsize;
    b->built = run(cmd_fmt, T, label);
    if (!b->built) printf("note: could not build %s; its checks are skipped (see %s/cmd.log)\n", label, T);
    return b->built;
}

/* The first compiler of a list that links a freestanding program for the
   target; "" when none does. */
static const char *be_compiler(int elf64) {
    static const char *cands64[] = {
        "s390x-linux-gnu-gcc", "mips64-linux-gnuabi64-gcc",
        "clang --target=mips64-linux-gnuabi64 -fuse-ld=lld", "clang --target=aarch64_be-linux-gnu -fuse-ld=lld", NULL};
    static const char *cands32[] = {
        "mips-linux-gnu-gcc", "powerpc-linux-gnu-gcc",
        "clang --target=powerpc-linux-gnu -fuse-ld=lld", "clang --target=mips-linux-gnu -fuse-ld=lld", NULL};
    const char **c = elf64 ? cands64 : cands32;
    for (; *c; c++) {
        if (!run("cd %s && %s -O0 -nostdlib -static -Wl,-e,_start start.c a.c b.c -o be_probe", T, *c)) continue;
        printf("note: big-endian ELF%d built with %s\n", elf64 ? 64 : 32, *c);
        return *c;
    }
    return "";
}

static void build_all(void) {
    char cmd[1024];
    const char *cc;
    write_text("a.c", src_a);
    write_text("b.c", src_b);
    write_text("main.c", src_main);
    write_text("start.c", src_start);
    build(B_STATIC, "static", "cd %s && gcc -O0 -static -Wl,--build-id=sha1 main.c a.c b.c -o %s", 0, 1);
    build(B_PIE, "pie", "cd %s && gcc -O0 -fPIE -pie -Wl,--build-id=sha1 main.c a.c b.c -o %s", 0, 1);
    build(B_NOPIE, "nopie", "cd %s && gcc -O0 -fno-pie -no-pie -Wl,--build-id=sha1 main.c a.c b.c -o %s", 0, 1);
    build(B_LIB, "lib.so", "cd %s && gcc -O0 -fPIC -shared -Wl,--build-id=sha1 a.c b.c -o %s", 0, 1);
    build(B_PRELINK, "libprelinked.so",
          "cd %s && gcc -O0 -fPIC -shared -Wl,--build-id=sha1 -Wl,-Ttext-segment=0x10000000 a.c b.c -o %s", 0, 1);
    if (bins[B_LIB].built) build(B_STRIPPED, "libstripped.so", "cd %s && strip lib.so -o %s", 1, 1);
    if (!run("cd %s && gcc -m32 main.c a.c b.c -o m32_probe", T))
        printf("note: gcc -m32 cannot link a libc program here (no 32-bit libc); ELF32 is built freestanding (-nostdlib)\n");
    if (run("cd %s && gcc -m32 -O0 -nostdlib -static start.c -c -o m32_probe.o", T)) {
        build(B_ELF32, "elf32", "cd %s && gcc -m32 -O0 -ffreestanding -nostdlib -static -Wl,--build-id=sha1 start.c a.c b.c -o %s", 0, 1);
        build(B_LIB32, "lib32.so", "cd %s && gcc -m32 -O0 -fPIC -shared -nostdlib -Wl,--build-id=sha1 a.c b.c -o %s", 0, 1);
    } else {
        printf("note: gcc -m32 does not work here; the ELF32 little-endian binary checks are skipped\n");
    }
    cc = be_compiler(1);
    if (*cc) {
        snprintf(cmd, sizeof cmd, "cd %%s && %s -O0 -nostdlib -static -Wl,--build-id=sha1 -Wl,-e,_start start.c a.c b.c -o %%s", cc);
        build(B_BE64, "be64", cmd, 0, 0);
    } else {
        printf("note: no cross compiler for a big-endian ELF64; only the hand-made big-endian images are checked\n");
    }
    cc = be_compiler(0);
    if (*cc) {
        snprintf(cmd, sizeof cmd, "cd %%s && %s -O0 -nostdlib -static -Wl,--build-id=sha1 -Wl,-e,_start start.c a.c b.c -o %%s", cc);
        build(B_BE32, "be32", cmd, 0, 0);
    } else {
        printf("note: no cross compiler for a big-endian ELF32; only the hand-made big-endian images are checked\n");
    }
}

/* ------------------------------------------- lookups in real binaries */

/* Inside, first byte, last byte, just past. */
static void check_function(const pd_elf *elf, const nm_table *nm, const char *name, int nth) {
    const nm_sym *s = nm_find(nm, name, nth);
    const pd_elf_sym *r;
    if (!CHECK(s != NULL) || !CHECK(s->sized && s->size > 0)) return;
    r = pd_elf_lookup(elf, s->addr);
    if (CHECK(r != NULL)) { CHECK(!strcmp(r->name, name)); CHECK_EQ_U64(r->addr, s->addr); CHECK_EQ_U64(r->size, s->size); }
    r = pd_elf_lookup(elf, s->addr + s->size / 2);
    CHECK(r && !strcmp(r->name, name));
    r = pd_elf_lookup(elf, s->addr + s->size - 1);
    CHECK(r && !strcmp(r->name, name));
    r = pd_elf_lookup(elf, s->addr + s->size);
    CHECK(!r || (r->addr >= s->addr + s->size && strcmp(r->name, name)));
}

/* t_zsize has no size: it owns the bytes up to the next symbol. */
static void check_zero_size(const pd_elf *elf, const nm_table *nm) {
    const nm_sym *s = nm_find(nm, "t_zsize", 0);
    const pd_elf_sym *r;
    if (!CHECK(s != NULL)) return;
    CHECK(!s->sized || s->size == 0);
    r = pd_elf_lookup(elf, s->addr);
    if (CHECK(r != NULL)) { CHECK(!strcmp(r->name, "t_zsize")); CHECK_EQ_U64(r->size, 0); CHECK(r->end > r->addr); }
    r = pd_elf_lookup(elf, s->addr + 1);    /* a nop after the ret */
    CHECK(r && !strcmp(r->name, "t_zsize"));
    r = pd_elf_lookup(elf, s->addr + 3);
    CHECK(r && !strcmp(r->name, "t_zsize"));
}

/* The two static helpers come from different files; a global has none. */
static void check_files(const pd_elf *elf, const nm_table *nm) {
    const nm_sym *h0 = nm_find(nm, "t_helper", 0), *h1 = nm_find(nm, "t_helper", 1);
    const nm_sym *al = nm_find(nm, "t_a_local", 0), *bl = nm_find(nm, "t_b_local", 0), *g = nm_find(nm, "t_alpha", 0);
    const pd_elf_sym *r0, *r1, *r;
    if (!CHECK(h0 && h1 && al && bl && g)) return;
    r0 = pd_elf_lookup(elf, h0->addr);
    r1 = pd_elf_lookup(elf, h1->addr);
    if (CHECK(r0 && r1 && r0->file && r1->file)) {
        CHECK(!strcmp(r0->name, "t_helper") && !strcmp(r1->name, "t_helper"));
        CHECK(r0->bind == PD_ELF_STB_LOCAL);
        CHECK((!strcmp(r0->file, "a.c") && !strcmp(r1->file, "b.c")) || (!strcmp(r0->file, "b.c") && !strcmp(r1->file, "a.c")));
    }
    r = pd_elf_lookup(elf, al->addr);
    CHECK(r && r->file && !strcmp(r->file, "a.c"));
    r = pd_elf_lookup(elf, bl->addr);
    CHECK(r && r->file && !strcmp(r->file, "b.c"));
    r = pd_elf_lookup(elf, g->addr);
    CHECK(r && r->file == NULL && r->bind == PD_ELF_STB_GLOBAL);
}

/* Every FUNC/IFUNC readelf lists is found at its address, and the table
   has one entry per distinct address. */
static void check_against_readelf(const pd_elf *elf, const char *path) {
    const pd_elf_info *info = pd_elf_get_info(elf);
    ULL *values;
    size_t n, i, j, distinct = 0, missing = 0;
    if (!CHECK(info->symbol_table != NULL)) return;
    n = readelf_funcs(path, info->symbol_table, &values);
    CHECK(n > 0);
    for (i = 0; i < n; i++) {
        const pd_elf_sym *r = pd_elf_lookup(elf, values[i]);
        if (!r || r->addr != values[i]) missing++;
        for (j = 0; j < i && values[j] != values[i]; j++) {}
        distinct += j == i;
    }
    CHECK_EQ_U64(missing, 0);
    CHECK_EQ_U64(info->nr_symbols, distinct);
    free(values);
}

static void check_build_id(const pd_elf *elf, const char *path) {
    const pd_elf_info *info = pd_elf_get_info(elf);
    unsigned char id[64];
    size_t n = readelf_build_id(path, id, sizeof id);
    CHECK(n >= 8);
    CHECK_EQ_U64(info->build_id_size, n);
    CHECK(info->build_id && !memcmp(info->build_id, id, n));
}

/* Maps the binary as the loader would, at a base of our choosing, with
   start and pgoff as perf records them for the executable mapping, and
   translates each function's runtime address back. */
static void check_translation(const pd_elf *elf, const bin *b, const nm_table *nm) {
    static const char *names[] = {"t_alpha", "t_beta", "t_gamma", "t_a_local", "t_b_local"};
    load_seg segs[16];
    size_t n = readelf_loads(b->path, segs, 16), i, x = n;
    ULL lowest = ~0ull, bias, start, pgoff, page = 0xfff;
    uint64_t v;
    for (i = 0; i < n; i++) {
        if (segs[i].vaddr < lowest) lowest = segs[i].vaddr;
        if (segs[i].exec && x == n) x = i;
    }
    if (!CHECK(x < n)) return;
    bias = pd_elf_get_info(elf)->type == PD_ELF_ET_DYN ? 0x7f3a12340000ull - (lowest & ~page) : 0;
    start = bias + (segs[x].vaddr & ~page);
    pgoff = segs[x].offset & ~page;
    for (i = 0; i < sizeof names / sizeof *names; i++) {
        const nm_sym *s = nm_find(nm, names[i], 0);
        const pd_elf_sym *r;
        if (!s) continue;       /* stripped: no static functions */
        if (!CHECK(pd_elf_map_to_vaddr(elf, start, pgoff, bias + s->addr + 1, &v) == PD_ELF_OK)) continue;
        CHECK_EQ_U64(v, s->addr + 1);
        r = pd_elf_lookup(elf, v);
        CHECK(r && !strcmp(r->name, names[i]));
    }
    CHECK(pd_elf_map_to_vaddr(elf, start, pgoff, bias + segs[x].vaddr, &v) == PD_ELF_OK && v == segs[x].vaddr);
    CHECK(pd_elf_map_to_vaddr(elf, start, pgoff, start - 1, &v) == PD_ELF_NOT_FOUND);
    CHECK(pd_elf_map_to_vaddr(elf, start, pgoff, start + 0x40000000, &v) == PD_ELF_NOT_FOUND);
}

static void check_binary(const bin *b) {
    nm_table nm;
    pd_elf *elf;
    pd_elf_error err;
    const pd_elf_info *info;
    if (!b->built) return;
    test_set_context(b->label);
    nm = nm_read(b->path, b->dynamic_only);
    if (!CHECK(pd_elf_open_file(b->path, &elf, &err) == PD_ELF_OK)) { free(nm.syms); return; }
    info = pd_elf_get_info(elf);
    CHECK(!strcmp(info->symbol_table, b->dynamic_only ? ".dynsym" : ".symtab"));
    check_function(elf, &nm, "t_alpha", 0);
    check_function(elf, &nm, "t_beta", 0);
    check_function(elf, &nm, "t_gamma", 0);
    if (b->dynamic_only) {
        const nm_sym *s = nm_find(&nm, "t_alpha", 0);
        size_t i;
        for (i = 0; i < info->nr_symbols; i++) CHECK(strcmp(info->symbols[i].name, "t_a_local"));
        CHECK(s && pd_elf_lookup(elf, s->addr) && pd_elf_lookup(elf, s->addr)->file == NULL);
    } else {
        check_function(elf, &nm, "t_a_local", 0);
        check_function(elf, &nm, "t_b_local", 0);
        check_files(elf, &nm);
    }
    if (b->has_zsize) check_zero_size(elf, &nm);
    check_against_readelf(elf, b->path);
    check_build_id(elf, b->path);
    check_translation(elf, b, &nm);
    pd_elf_close(elf);
    free(nm.syms);
    test_set_context(NULL);
}

TEST(real_binaries) {
    int i;
    for (i = 0; i < B_COUNT; i++) check_binary(&bins[i]);
}

TEST(class_and_byte_order) {
    static const struct { int which, elf64, big; } want[] = {
        {B_PIE, 1, 0}, {B_ELF32, 0, 0}, {B_LIB32, 0, 0}, {B_BE64, 1, 1}, {B_BE32, 0, 1}};
    size_t i;
    for (i = 0; i < sizeof want / sizeof *want; i++) {
        pd_elf *elf;
        if (!bins[want[i].which].built) continue;
        test_set_context(bins[want[i].which].label);
        if (!CHECK(pd_elf_open_file(bins[want[i].which].path, &elf, NULL) == PD_ELF_OK)) continue;
        CHECK_EQ_U64(pd_elf_get_info(elf)->elf64, want[i].elf64);
        CHECK_EQ_U64(pd_elf_get_info(elf)->big_endian, want[i].big);
        pd_elf_close(elf);
    }
}

/* The static glibc has STT_GNU_IFUNC symbols (strlen and friends). */
TEST(ifunc_symbols) {
    pd_elf *elf;
    const pd_elf_info *info;
    size_t i, ifuncs = 0;
    if (!bins[B_STATIC].built) return;
    if (!CHECK(pd_elf_open_file(bins[B_STATIC].path, &elf, NULL) == PD_ELF_OK)) return;
    info = pd_elf_get_info(elf);
    for (i = 0; i < info->nr_symbols; i++) {
        if (info->symbols[i].type != PD_ELF_STT_GNU_IFUNC) continue;
        ifuncs++;
        CHECK(pd_elf_lookup(elf, info->symbols[i].addr) == &info->symbols[i]);
    }
    if (ifuncs == 0) printf("note: the static binary has no IFUNC symbols; the IFUNC check rests on the hand-made image\n");
    pd_elf_close(elf);
}

/* A separate debug file keeps .symtab but no file bytes for PT_LOAD. */
TEST(debug_file) {
    char dbg[512];
    nm_table nm;
    pd_elf *elf;
    if (!bins[B_PIE].built) return;
    tpath(dbg, sizeof dbg, "pie.debug");
    if (!CHECK(run("objcopy --only-keep-debug %s %s", bins[B_PIE].path, dbg))) return;
    nm = nm_read(bins[B_PIE].path, 0);
    if (CHECK(pd_elf_open_file(dbg, &elf, NULL) == PD_ELF_OK)) {
        check_function(elf, &nm, "t_alpha", 0);
        check_files(elf, &nm);
        check_build_id(elf, bins[B_PIE].path);
        pd_elf_close(elf);
    }
    free(nm.syms);
}

/* ------------------------------------------------- hand-made images */

/* A minimal executable image: ELF header, PT_LOAD + PT_NOTE, .text,
   a build-id note, .strtab, .shstrtab, .symtab, section headers at the end.
   Written field by field in the chosen class and byte order. */
typedef struct hand {
    unsigned char b[0x700];
    size_t n;
    int elf64, big;
    size_t phoff, shoff, symoff, strtab, note, shentsize, symsize;
} hand;

enum { H_TEXT = 0x100, H_NOTE = 0x200, H_STRTAB = 0x250, H_SHSTRTAB = 0x2b0, H_SYMTAB = 0x300, H_SHOFF = 0x480 };
enum { S_NULL, S_TEXT, S_NOTE, S_SYMTAB, S_STRTAB, S_SHSTRTAB, S_COUNT };
static const uint64_t hand_vaddr = 0x401000;
static const unsigned char hand_id[20] = {0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9,
                                          0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf, 0xb0, 0xb1, 0xb2, 0xb3};
/* string table: offsets of the names below */
static const char hand_strs[] = "\0hand.c\0local_fn\0global_fn\0zero_fn\0data_obj\0undef_fn\0ifunc_fn\0weak_fn\0outer_fn\0inner_fn";
enum { N_FILE = 1, N_LOCAL = 8, N_GLOBAL = 17, N_ZERO = 27, N_DATA = 35, N_UNDEF = 44, N_IFUNC = 53, N_WEAK = 62, N_OUTER = 70, N_INNER = 79 };
static const char hand_shstrs[] = "\0.text\0.note.gnu.build-id\0.symtab\0.strtab\0.shstrtab";

static void put(hand *h, size_t off, uint64_t v, unsigned width) {
    unsigned i;
    for (i = 0; i < width; i++) h->b[off + i] = (unsigned char)(v >> 8 * (h->big ? width - 1 - i : i));
}

static void put_word(hand *h, size_t off, uint64_t v) { put(h, off, v, h->elf64 ? 8 : 4); }

static void hand_phdr(hand *h, int i, uint32_t type, uint32_t flags, uint64_t off, uint64_t vaddr, uint64_t size, uint64_t align) {
    size_t p = h->phoff + (size_t)i * (h->elf64 ? 56 : 32);
    put(h, p, type, 4);
    if (h->elf64) {
        put(h, p + 4, flags, 4); put_word(h, p + 8, off); put_word(h, p + 16, vaddr); put_word(h, p + 24, vaddr);
        put_word(h, p + 32, size); put_word(h, p + 40, size); put_word(h, p + 48, align);
    } else {
        put(h, p + 4, off, 4); put(h, p + 8, vaddr, 4); put(h, p + 12, vaddr, 4); put(h, p + 16, size, 4);
        put(h, p + 20, size, 4); put(h, p + 24, flags, 4); put(h, p + 28, align, 4);
    }
}

typedef struct hand_sec {
    uint32_t name, type;
    uint64_t flags, addr, off, size;
    uint32_t link, info;
    uint64_t align, entsize;
} hand_sec;

static void hand_shdr(hand *h, int i, hand_sec s) {
    size_t p = h->shoff + (size_t)i * h->shentsize;
    put(h, p, s.name, 4);
    put(h, p + 4, s.type, 4);
    if (h->elf64) {
        put_word(h, p + 8, s.flags); put_word(h, p + 16, s.addr); put_word(h, p + 24, s.off); put_word(h, p + 32, s.size);
        put(h, p + 40, s.link, 4); put(h, p + 44, s.info, 4); put_word(h, p + 48, s.align); put_word(h, p + 56, s.entsize);
    } else {
        put(h, p + 8, s.flags, 4); put(h, p + 12, s.addr, 4); put(h, p + 16, s.off, 4); put(h, p + 20, s.size, 4);
        put(h, p + 24, s.link, 4); put(h, p + 28, s.info, 4); put(h, p + 32, s.align, 4); put(h, p + 36, s.entsize, 4);
    }
}

static void hand_sym(hand *h, int i, uint32_t name, unsigned bind, unsigned type, uint16_t shndx, uint64_t value, uint64_t size) {
    size_t p = h->symoff + (size_t)i * h->symsize;
    put(h, p, name, 4);
    if (h->elf64) {
        h->b[p + 4] = (unsigned char)(bind << 4 | type); put(h, p + 6, shndx, 2); put_word(h, p + 8, value); put_word(h, p + 16, size);
    } else {
        put(h, p + 4, value, 4); put(h, p + 8, size, 4); h->b[p + 12] = (unsigned char)(bind << 4 | type); put(h, p + 14, shndx, 2);
    }
}

static void hand_header(hand *h) {
    memcpy(h->b, "\x7f" "ELF", 4);
    h->b[4] = h->elf64 ? 2 : 1;
    h->b[5] = h->big ? 2 : 1;
    h->b[6] = 1;
    put(h, 16, 2, 2);                           /* ET_EXEC */
    put(h, 18, h->big ? 8 : (h->elf64 ? 62 : 3), 2); /* MIPS, x86-64, i386 */
    put(h, 20, 1, 4);
    put_word(h, 24, hand_vaddr);
    put_word(h, h->elf64 ? 32 : 28, h->phoff);
    put_word(h, h->elf64 ? 40 : 32, h->shoff);
    put(h, h->elf64 ? 52 : 40, h->elf64 ? 64 : 52, 2);
    put(h, h->elf64 ? 54 : 42, h->elf64 ? 56 : 32, 2);
    put(h, h->elf64 ? 56 : 44, 3, 2);
    put(h, h->elf64 ? 58 : 46, h->shentsize, 2);
    put(h, h->elf64 ? 60 : 48, S_COUNT, 2);
    put(h, h->elf64 ? 62 : 50, S_SHSTRTAB, 2);
}

static void hand_symbols(hand *h) {
    uint16_t text = S_TEXT;
    hand_sym(h, 1, N_FILE, 0, 4, 0xfff1, 0, 0);                         /* FILE hand.c, ABS */
    hand_sym(h, 2, N_LOCAL, 0, 2, text, hand_vaddr, 0x20);              /* LOCAL FUNC */
    hand_sym(h, 3, N_GLOBAL, 1, 2, text, hand_vaddr + 0x40, 0x30);      /* GLOBAL FUNC */
    hand_sym(h, 4, N_ZERO, 1, 2, text, hand_vaddr + 0x80, 0);           /* size 0 */
    hand_sym(h, 5, N_DATA, 1, 1, text, hand_vaddr + 0x90, 8);           /* OBJECT: ignored */
    hand_sym(h, 6, N_UNDEF, 1, 2, 0, 0, 0);                             /* UNDEF: ignored */
    hand_sym(h, 7, N_IFUNC, 1, 10, text, hand_vaddr + 0xa0, 0x10);      /* GNU_IFUNC */
    hand_sym(h, 8, N_WEAK, 2, 2, text, hand_vaddr + 0xa0, 0x10);        /* WEAK alias: the GLOBAL wins */
    hand_sym(h, 9, N_OUTER, 1, 2, text, hand_vaddr + 0xc0, 0x30);       /* contains inner_fn */
    hand_sym(h, 10, N_INNER, 1, 2, text, hand_vaddr + 0xc8, 4);
}

static void hand_build(hand *h, int elf64, int big) {
    hand_sec s;
    memset(h, 0, sizeof *h);
    h->elf64 = elf64; h->big = big; h->n = H_SHOFF + S_COUNT * (elf64 ? 64 : 40);
    h->phoff = elf64 ? 64 : 52; h->shoff = H_SHOFF; h->shentsize = elf64 ? 64 : 40;
    h->symoff = H_SYMTAB; h->symsize = elf64 ? 24 : 16; h->strtab = H_STRTAB; h->note = H_NOTE;
    hand_header(h);
    /* a read-only PT_LOAD whose file bytes overlap the executable one's */
    hand_phdr(h, 0, 1, 4, 0, hand_vaddr - 0x1000, 0x180, 0x1000);       /* PT_LOAD R */
    hand_phdr(h, 1, 1, 5, H_TEXT, hand_vaddr, 0x100, 0x1000);           /* PT_LOAD R+X */
    hand_phdr(h, 2, 4, 4, H_NOTE, hand_vaddr + 0x100, 36, 4);           /* PT_NOTE */
    memset(h->b + H_TEXT, 0xc3, 0x100);
    put(h, H_NOTE, 4, 4); put(h, H_NOTE + 4, 20, 4); put(h, H_NOTE + 8, 3, 4);
    memcpy(h->b + H_NOTE + 12, "GNU", 4);
    memcpy(h->b + H_NOTE + 16, hand_id, 20);
    memcpy(h->b + H_STRTAB, hand_strs, sizeof hand_strs);
    memcpy(h->b + H_SHSTRTAB, hand_shstrs, sizeof hand_shstrs);
    hand_symbols(h);
    memset(&s, 0, sizeof s);
    hand_shdr(h, S_NULL, s);
    s.name = 1; s.type = 1; s.flags = 6; s.addr = hand_vaddr; s.off = H_TEXT; s.size = 0x100; s.align = 16;
    hand_shdr(h, S_TEXT, s);
    s.name = 7; s.type = 7; s.flags = 2; s.addr = hand_vaddr + 0x100; s.off = H_NOTE; s.size = 36; s.align = 4;
    hand_shdr(h, S_NOTE, s);
    memset(&s, 0, sizeof s);
    s.name = 26; s.type = 2; s.off = H_SYMTAB; s.size = 11 * h->symsize; s.link = S_STRTAB; s.info = 3; s.align = 8; s.entsize = h->symsize;
    hand_shdr(h, S_SYMTAB, s);
    memset(&s, 0, sizeof s);
    s.name = 34; s.type = 3; s.off = H_STRTAB; s.size = sizeof hand_strs; s.align = 1;
    hand_shdr(h, S_STRTAB, s);
    s.name = 42; s.off = H_SHSTRTAB; s.size = sizeof hand_shstrs;
    hand_shdr(h, S_SHSTRTAB, s);
}

static const char *hand_label(int elf64, int big) {
    return elf64 ? (big ? "hand ELF64 big-endian" : "hand ELF64 little-endian") : (big ? "hand ELF32 big-endian" : "hand ELF32 little-endian");
}

/* The image is what binutils reads too (so the builder itself is checked). */
static void check_hand_with_binutils(const hand *h) {
    char path[512];
    nm_table nm;
    const nm_sym *s;
    tpath(path, sizeof path, "hand.elf");
    if (!CHECK(write_file(path, h->b, h->n))) return;
    nm = nm_read(path, 0);
    s = nm_find(&nm, "global_fn", 0);
    CHECK(s && s->addr == hand_vaddr + 0x40 && s->size == 0x30);
    s = nm_find(&nm, "local_fn", 0);
    CHECK(s && s->addr == hand_vaddr && s->type == 't');
    free(nm.syms);
    {
        unsigned char id[64];
        CHECK(readelf_build_id(path, id, sizeof id) == 20 && !memcmp(id, hand_id, 20));
    }
}

static void check_hand_lookups(const pd_elf *elf) {
    const pd_elf_info *info = pd_elf_get_info(elf);
    const pd_elf_sym *r;
    uint64_t v;
    CHECK(!strcmp(info->symbol_table, ".symtab"));
    CHECK_EQ_U64(info->nr_symbols, 6);  /* local, global, zero, ifunc (weak alias folded), outer, inner */
    CHECK(info->build_id_size == 20 && !memcmp(info->build_id, hand_id, 20));
    r = pd_elf_lookup(elf, hand_vaddr + 0x1f);
    CHECK(r && !strcmp(r->name, "local_fn") && r->file && !strcmp(r->file, "hand.c") && r->bind == PD_ELF_STB_LOCAL);
    CHECK(pd_elf_lookup(elf, hand_vaddr + 0x20) == NULL);             /* the gap after a sized symbol */
    CHECK(pd_elf_lookup(elf, hand_vaddr - 1) == NULL);
    r = pd_elf_lookup(elf, hand_vaddr + 0x40);
    CHECK(r && !strcmp(r->name, "global_fn") && r->file == NULL && r->size == 0x30);
    r = pd_elf_lookup(elf, hand_vaddr + 0x9f);                         /* zero_fn reaches ifunc_fn */
    CHECK(r && !strcmp(r->name, "zero_fn") && r->end == hand_vaddr + 0xa0);
    r = pd_elf_lookup(elf, hand_vaddr + 0xa5);
    CHECK(r && !strcmp(r->name, "ifunc_fn") && r->type == PD_ELF_STT_GNU_IFUNC);
    CHECK(pd_elf_lookup(elf, hand_vaddr + 0xb0) == NULL);
    r = pd_elf_lookup(elf, hand_vaddr + 0xc9);                         /* nested: the innermost */
    CHECK(r && !strcmp(r->name, "inner_fn"));
    r = pd_elf_lookup(elf, hand_vaddr + 0xd0);                         /* past inner_fn, still in outer_fn */
    CHECK(r && !strcmp(r->name, "outer_fn"));
    r = pd_elf_lookup(elf, hand_vaddr + 0xef);
    CHECK(r && !strcmp(r->name, "outer_fn"));
    CHECK(pd_elf_lookup(elf, hand_vaddr + 0xf0) == NULL);
    /* mapped at 0x10000000 from file offset 0: file offset 0x110 is vaddr 0x401010 */
    CHECK(pd_elf_map_to_vaddr(elf, 0x10000000, 0, 0x10000110, &v) == PD_ELF_OK && v == hand_vaddr + 0x10);
    CHECK(pd_elf_map_to_vaddr(elf, 0x10000000, 0x100, 0x10000010, &v) == PD_ELF_OK && v == hand_vaddr + 0x10);
    /* file offset 0x10 is only in the read-only PT_LOAD; 0x110 is in both, and the executable one wins */
    CHECK(pd_elf_map_to_vaddr(elf, 0x10000000, 0, 0x10000010, &v) == PD_ELF_OK && v == hand_vaddr - 0x1000 + 0x10);
    CHECK(pd_elf_map_to_vaddr(elf, 0x10000000, 0, 0x10000200, &v) == PD_ELF_NOT_FOUND); /* past them */
    CHECK(pd_elf_map_to_vaddr(elf, 0x10000000, ~0ull, 0x10000010, &v) == PD_ELF_NOT_FOUND); /* wraps */
}

TEST(hand_made_images) {
    int elf64, big;
    for (elf64 = 0; elf64 < 2; elf64++) {
        for (big = 0; big < 2; big++) {
            hand h;
            pd_elf *elf;
            pd_elf_error err;
            unsigned char *copy;
            hand_build(&h, elf64, big);
            test_set_context(hand_label(elf64, big));
            check_hand_with_binutils(&h);
            copy = dup_bytes(h.b, h.n);
            if (CHECK(pd_elf_open_mem(copy, h.n, &elf, &err) == PD_ELF_OK)) {
                CHECK_EQ_U64(pd_elf_get_info(elf)->elf64, elf64);
                CHECK_EQ_U64(pd_elf_get_info(elf)->big_endian, big);
                check_hand_lookups(elf);
                CHECK(sane(elf, copy, h.n));
                pd_elf_close(elf);
            }
            free(copy);
        }
    }
}

/* ------------------------------------------------ targeted bad input */

static size_t sh_at(const hand *h, int section, unsigned off64, unsigned off32) {
    return h->shoff + (size_t)section * h->shentsize + (h->elf64 ? off64 : off32);
}

static pd_elf_status open_hand(const hand *h, pd_elf_error *err) {
    unsigned char *copy = dup_bytes(h->b, h->n);
    pd_elf *elf = NULL;
    pd_elf_status st = pd_elf_open_mem(copy, h->n, &elf, err);
    if (st == PD_ELF_OK && !sane(elf, copy, h->n)) st = PD_ELF__STATUS_END;  /* reported as a failed CHECK */
    pd_elf_close(elf);
    free(copy);
    return st;
}

typedef void (*hand_edit)(hand *h);

static void e_shnum_ffff(hand *h) { put(h, h->elf64 ? 60 : 48, 0xffff, 2); }
static void e_phnum_ffff(hand *h) { put(h, h->elf64 ? 56 : 44, 0xffff, 2); }   /* PN_XNUM: section 0's sh_info (0) */
static void e_shentsize_bad(hand *h) { put(h, h->elf64 ? 58 : 46, h->shentsize + 8, 2); }
static void e_phentsize_bad(hand *h) { put(h, h->elf64 ? 54 : 42, 0, 2); }
static void e_shoff_past_end(hand *h) { put_word(h, h->elf64 ? 40 : 32, h->n + 1); }
static void e_shoff_wraps(hand *h) { put_word(h, h->elf64 ? 40 : 32, h->elf64 ? ~0ull : 0xffffffffu); }
static void e_shoff_in_header(hand *h) { put_word(h, h->elf64 ? 40 : 32, 8); }
static void e_phoff_past_end(hand *h) { put_word(h, h->elf64 ? 32 : 28, h->n - 8); }
static void e_shstrndx_bad(hand *h) { put(h, h->elf64 ? 62 : 50, S_COUNT, 2); }
static void symtab_offset_past_end(hand *h) { put_word(h, sh_at(h, S_SYMTAB, 24, 16), h->n + 64); }
static void symtab_size_huge(hand *h) { put_word(h, sh_at(h, S_SYMTAB, 32, 20), h->elf64 ? (1ull << 62) : 0xfffffff0u); }
static void symtab_offset_wraps(hand *h) { put_word(h, sh_at(h, S_SYMTAB, 24, 16), h->elf64 ? ~0ull - 8 : 0xfffffff8u); }
static void symtab_link_out_of_range(hand *h) { put(h, sh_at(h, S_SYMTAB, 40, 24), 1000, 4); }
static void symtab_link_self(hand *h) { put(h, sh_at(h, S_SYMTAB, 40, 24), S_SYMTAB, 4); }
static void symtab_link_not_strtab(hand *h) { put(h, sh_at(h, S_SYMTAB, 40, 24), S_TEXT, 4); }
static void symtab_entsize_zero(hand *h) { put_word(h, sh_at(h, S_SYMTAB, 56, 36), 0); }
static void strtab_past_end(hand *h) { put_word(h, sh_at(h, S_STRTAB, 32, 20), h->n); }
static void name_past_strtab(hand *h) { put(h, h->symoff + 3 * h->symsize, sizeof hand_strs + 5, 4); }
static void name_unterminated(hand *h) {     /* the table ends inside "weak_fn" */
    put_word(h, sh_at(h, S_STRTAB, 32, 20), N_INNER + 3);
}
static void note_namesz_huge(hand *h) { put(h, H_NOTE, 0xfffffff0u, 4); }
static void note_descsz_huge(hand *h) { put(h, H_NOTE + 4, 0x7fffffffu, 4); }
static void note_segment_past_end(hand *h) {
    size_t p = h->phoff + 2 * (h->elf64 ? 56 : 32);
    put_word(h, p + (h->elf64 ? 32 : 16), h->n);
}
static void bad_class(hand *h) { h->b[4] = 3; }
static void bad_data(hand *h) { h->b[5] = 0; }
static void bad_magic(hand *h) { h->b[1] = 'e'; }

/* gABI extended numbering, done right: e_shnum 0 and the count in section
   0's sh_size; e_shstrndx SHN_XINDEX and the index in its sh_link. */
static void extended_numbering(hand *h) {
    put(h, h->elf64 ? 60 : 48, 0, 2);
    put_word(h, sh_at(h, 0, 32, 20), S_COUNT);
    put(h, h->elf64 ? 62 : 50, 0xffff, 2);
    put(h, sh_at(h, 0, 40, 24), S_SHSTRTAB, 4);
}
/* e_shnum 0 and a count in section 0 whose table size wraps 64 bits */
static void extended_count_wraps(hand *h) {
    put(h, h->elf64 ? 60 : 48, 0, 2);
    put_word(h, sh_at(h, 0, 32, 20), h->elf64 ? 1ull << 58 : 0xffffffffu);
}
static void no_symtab_type(hand *h) { put(h, sh_at(h, S_SYMTAB, 4, 4), 1, 4); }   /* now PROGBITS: no symbols */
static void no_section_headers(hand *h) { put_word(h, h->elf64 ? 40 : 32, 0); put(h, h->elf64 ? 60 : 48, 0, 2); put(h, h->elf64 ? 62 : 50, 0, 2); }

TEST(targeted_bad_input) {
    static const struct { const char *what; hand_edit edit; pd_elf_status want; } cases[] = {
        {"e_shnum 0xffff", e_shnum_ffff, PD_ELF_TRUNCATED},
        {"e_phnum 0xffff (PN_XNUM, real count 0)", e_phnum_ffff, PD_ELF_OK},
        {"e_shentsize wrong", e_shentsize_bad, PD_ELF_MALFORMED},
        {"e_phentsize wrong", e_phentsize_bad, PD_ELF_MALFORMED},
        {"e_shoff past the end", e_shoff_past_end, PD_ELF_TRUNCATED},
        {"e_shoff wraps", e_shoff_wraps, PD_ELF_TRUNCATED},
        {"e_shoff inside the ELF header", e_shoff_in_header, PD_ELF_MALFORMED},
        {"e_phoff past the end", e_phoff_past_end, PD_ELF_TRUNCATED},
        {"e_shstrndx out of range", e_shstrndx_bad, PD_ELF_MALFORMED},
        {"symtab sh_offset past the end", symtab_offset_past_end, PD_ELF_TRUNCATED},
        {"symtab sh_size huge", symtab_size_huge, PD_ELF_TRUNCATED},
        {"symtab sh_offset + sh_size wraps", symtab_offset_wraps, PD_ELF_TRUNCATED},
        {"symtab sh_link out of range", symtab_link_out_of_range, PD_ELF_MALFORMED},
        {"symtab sh_link to itself", symtab_link_self, PD_ELF_MALFORMED},
        {"symtab sh_link to .text", symtab_link_not_strtab, PD_ELF_MALFORMED},
        {"symtab sh_entsize 0", symtab_entsize_zero, PD_ELF_MALFORMED},
        {"strtab past the end", strtab_past_end, PD_ELF_TRUNCATED},
        {"st_name past the string table", name_past_strtab, PD_ELF_MALFORMED},
        {"name not terminated in the string table", name_unterminated, PD_ELF_MALFORMED},
        {"note namesz huge", note_namesz_huge, PD_ELF_MALFORMED},
        {"note descsz huge", note_descsz_huge, PD_ELF_MALFORMED},
        {"PT_NOTE past the end", note_segment_past_end, PD_ELF_TRUNCATED},
        {"ELF class 3", bad_class, PD_ELF_UNSUPPORTED},
        {"byte order 0", bad_data, PD_ELF_UNSUPPORTED},
        {"bad magic", bad_magic, PD_ELF_UNSUPPORTED},
        {"extended numbering", extended_numbering, PD_ELF_OK},
        {"extended numbering, count wraps", extended_count_wraps, PD_ELF_TRUNCATED},
        {"no symbol table", no_symtab_type, PD_ELF_OK},
        {"no section headers", no_section_headers, PD_ELF_OK},
    };
    size_t i;
    int elf64, big;
    for (elf64 = 0; elf64 < 2; elf64++) {
        for (big = 0; big < 2; big++) {
            for (i = 0; i < sizeof cases / sizeof *cases; i++) {
                hand h;
                pd_elf_error err;
                pd_elf_status st;
                char ctx[128];
                snprintf(ctx, sizeof ctx, "%s: %s", hand_label(elf64, big), cases[i].what);
                test_set_context(ctx);
                hand_build(&h, elf64, big);
                cases[i].edit(&h);
                st = open_hand(&h, &err);
                CHECK_EQ_U64(st, cases[i].want);
                if (st != PD_ELF_OK && st != PD_ELF__STATUS_END) CHECK(err.code == st && err.message && err.message[0]);
            }
        }
    }
}

/* What the targeted edits leave: the symbols (extended numbering) or
   nothing but the build id (no symbol table, no section headers). */
TEST(degraded_but_usable) {
    hand h;
    pd_elf *elf;
    hand_build(&h, 1, 1);
    extended_numbering(&h);
    if (CHECK(pd_elf_open_mem(h.b, h.n, &elf, NULL) == PD_ELF_OK)) {
        CHECK_EQ_U64(pd_elf_get_info(elf)->nr_symbols, 6);
        pd_elf_close(elf);
    }
    hand_build(&h, 0, 0);
    no_section_headers(&h);
    if (CHECK(pd_elf_open_mem(h.b, h.n, &elf, NULL) == PD_ELF_OK)) {
        CHECK(pd_elf_get_info(elf)->symbol_table == NULL && pd_elf_lookup(elf, hand_vaddr) == NULL);
        CHECK_EQ_U64(pd_elf_get_info(elf)->build_id_size, 20);   /* from PT_NOTE */
        pd_elf_close(elf);
    }
    hand_build(&h, 1, 0);
    e_phnum_ffff(&h);
    if (CHECK(pd_elf_open_mem(h.b, h.n, &elf, NULL) == PD_ELF_OK)) {
        CHECK_EQ_U64(pd_elf_get_info(elf)->build_id_size, 20);   /* from SHT_NOTE */
        pd_elf_close(elf);
    }
    CHECK(pd_elf_open_mem(NULL, 0, &elf, NULL) == PD_ELF_TRUNCATED && elf == NULL);
    CHECK(pd_elf_open_mem(h.b, h.n, NULL, NULL) == PD_ELF_BAD_ARGUMENT);
    CHECK(pd_elf_open_file("/nonexistent/pd_elf", &elf, NULL) == PD_ELF_IO && elf == NULL);
    CHECK(pd_elf_open_file("/", &elf, NULL) == PD_ELF_NOT_REGULAR && elf == NULL);
    CHECK(pd_elf_lookup(NULL, 0) == NULL && pd_elf_get_info(NULL) == NULL);
    CHECK(!strcmp(pd_elf_status_message(PD_ELF_MALFORMED), "malformed ELF"));
    CHECK(pd_elf_status_message((pd_elf_status)999) != NULL);
}

/* A GNU property note before the build id: notes in an area aligned to 8
   are padded to 8 (name and desc), else to 4. */
static void hand_notes(hand *h, uint64_t align) {
    size_t second = align == 8 ? 32 : 28;
    memset(h->b + H_NOTE, 0, 0x48);
    put(h, H_NOTE, 4, 4); put(h, H_NOTE + 4, 12, 4); put(h, H_NOTE + 8, 5, 4);
    memcpy(h->b + H_NOTE + 12, "GNU", 4);
    memset(h->b + H_NOTE + 16, 0x11, 12);
    put(h, H_NOTE + second, 4, 4); put(h, H_NOTE + second + 4, 20, 4); put(h, H_NOTE + second + 8, 3, 4);
    memcpy(h->b + H_NOTE + second + 12, "GNU", 4);
    memcpy(h->b + H_NOTE + second + 16, hand_id, 20);
    hand_phdr(h, 2, 4, 4, H_NOTE, hand_vaddr + 0x100, second + 36, align);
    put_word(h, sh_at(h, S_NOTE, 32, 20), second + 36);
    put_word(h, sh_at(h, S_NOTE, 48, 32), align);
}

TEST(note_alignment) {
    int elf64, big, align;
    for (elf64 = 0; elf64 < 2; elf64++) {
        for (big = 0; big < 2; big++) {
            for (align = 4; align <= 8; align += 4) {
                hand h;
                pd_elf *elf;
                test_set_context(hand_label(elf64, big));
                hand_build(&h, elf64, big);
                hand_notes(&h, (uint64_t)align);
                if (!CHECK(pd_elf_open_mem(h.b, h.n, &elf, NULL) == PD_ELF_OK)) continue;
                CHECK(pd_elf_get_info(elf)->build_id_size == 20 && !memcmp(pd_elf_get_info(elf)->build_id, hand_id, 20));
                pd_elf_close(elf);
            }
        }
    }
}

/* ------------------------------------------------------------- sweeps */

typedef struct region {
    size_t off, n;
} region;

static uint64_t rd(const unsigned char *b, size_t off, unsigned w, int big) {
    uint64_t v = 0;
    unsigned i;
    for (i = 0; i < w; i++) v = v << 8 | (uint64_t)b[off + (big ? i : w - 1 - i)];
    return v;
}

/* The header tables and the symbol table of an intact image, found with
   a reader of the test's own, and the offsets where truncation is most
   likely to land on a boundary. */
static size_t header_regions(const unsigned char *b, size_t n, region *out, size_t *cuts, size_t *nr_cuts) {
    int is64 = b[4] == 2, big = b[5] == 2;
    size_t phoff = (size_t)rd(b, is64 ? 32 : 28, is64 ? 8 : 4, big), shoff = (size_t)rd(b, is64 ? 40 : 32, is64 ? 8 : 4, big);
    size_t phnum = (size_t)rd(b, is64 ? 56 : 44, 2, big), shnum = (size_t)rd(b, is64 ? 60 : 48, 2, big);
    size_t shent = is64 ? 64 : 40, i, k = 0;
    out[k].off = 0; out[k++].n = is64 ? 64 : 52;
    out[k].off = phoff; out[k++].n = phnum * (is64 ? 56 : 32);
    out[k].off = shoff; out[k++].n = shnum * shent;
    *nr_cuts = 0;
    for (i = 0; i < shnum && shoff + (i + 1) * shent <= n; i++) {
        size_t e = shoff + i * shent;
        uint32_t type = (uint32_t)rd(b, e + 4, 4, big);
        size_t off = (size_t)rd(b, e + (is64 ? 24 : 16), is64 ? 8 : 4, big), size = (size_t)rd(b, e + (is64 ? 32 : 20), is64 ? 8 : 4, big);
        cuts[(*nr_cuts)++] = e;
        if (type != 8) { cuts[(*nr_cuts)++] = off; cuts[(*nr_cuts)++] = off + size; }
        if (type == 2 && k < 4) { out[k].off = off; out[k++].n = size; }
    }
    return k;
}

/* Every cut of the file is an error: its section headers are at the end. */
static void sweep_truncation(const unsigned char *b, size_t n) {
    region regs[4];
    size_t cuts[1024], nr_cuts, i, bad = 0, not_truncated = 0;
    pd_elf_status st;
    header_regions(b, n, regs, cuts, &nr_cuts);
    for (i = 0; i < n; i += 7) {
        if (!survives(b, i, &st)) bad++;
        if (st != PD_ELF_TRUNCATED) not_truncated++;
    }
    for (i = 0; i < nr_cuts; i++) {
        if (cuts[i] >= n) continue;
        if (!survives(b, cuts[i], &st)) bad++;
        if (st != PD_ELF_TRUNCATED) not_truncated++;
    }
    CHECK_EQ_U64(bad, 0);
    CHECK_EQ_U64(not_truncated, 0);
}

/* Each byte of the headers and of the symbol table set to a few values. */
static void sweep_flips(const unsigned char *b, size_t n) {
    static const int xors[] = {0x01, 0x80, 0xff}, sets[] = {0x00, 0xff};
    region regs[4];
    size_t cuts[1024], nr_cuts, k, nr, i, j, bad = 0, opened = 0;
    unsigned char *m = dup_bytes(b, n);
    nr = header_regions(b, n, regs, cuts, &nr_cuts);
    for (k = 0; k < nr; k++) {
        for (i = regs[k].off; i < regs[k].off + regs[k].n && i < n; i++) {
            for (j = 0; j < 5; j++) {
                pd_elf_status st;
                m[i] = (unsigned char)(j < 3 ? b[i] ^ xors[j] : sets[j - 3]);
                if (!survives(m, n, &st)) bad++;
                opened += st == PD_ELF_OK;
                m[i] = b[i];
            }
        }
    }
    CHECK_EQ_U64(bad, 0);
    CHECK(opened > 0);          /* some flips are harmless: the checks above ran on results */
    free(m);
}

/* Random bytes anywhere, 1 to 8 at a time, from a fixed seed. */
static void sweep_random(const unsigned char *b, size_t n, unsigned rounds) {
    uint64_t x = 0x9e3779b97f4a7c15ull;
    unsigned r, k;
    size_t bad = 0;
    unsigned char *m = dup_bytes(b, n);
    for (r = 0; r < rounds; r++) {
        unsigned count = 1 + (unsigned)(x % 8);
        memcpy(m, b, n);
        for (k = 0; k < count; k++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            m[(size_t)(x % n)] = (unsigned char)(x >> 32);
        }
        if (!survives(m, n, NULL)) bad++;
    }
    CHECK_EQ_U64(bad, 0);
    free(m);
}

static void wr(unsigned char *b, size_t off, uint64_t v, unsigned w, int big) {
    unsigned i;
    for (i = 0; i < w; i++) b[off + i] = (unsigned char)(v >> 8 * (big ? w - 1 - i : i));
}

/* The targeted edits again, on a real file's own header fields. */
static void sweep_fields(const unsigned char *b, size_t n) {
    int is64 = b[4] == 2, big = b[5] == 2;
    size_t shoff = (size_t)rd(b, is64 ? 40 : 32, is64 ? 8 : 4, big), shnum = (size_t)rd(b, is64 ? 60 : 48, 2, big), i;
    unsigned char *m = dup_bytes(b, n);
    pd_elf_status st;
    wr(m, is64 ? 60 : 48, 0xffff, 2, big);
    CHECK(survives(m, n, &st) && st == PD_ELF_TRUNCATED);
    memcpy(m, b, n);
    wr(m, is64 ? 56 : 44, 0xffff, 2, big);
    CHECK(survives(m, n, &st));
    memcpy(m, b, n);
    wr(m, is64 ? 58 : 46, is64 ? 40 : 64, 2, big);    /* the other class's e_shentsize */
    CHECK(survives(m, n, &st) && st == PD_ELF_MALFORMED);
    for (i = 1; i < shnum; i++) {   /* each section's sh_offset past the end, then its sh_size huge */
        size_t e = shoff + i * (is64 ? 64 : 40);
        memcpy(m, b, n);
        wr(m, e + (is64 ? 24 : 16), n + 1, is64 ? 8 : 4, big);
        CHECK(survives(m, n, NULL));
        memcpy(m, b, n);
        wr(m, e + (is64 ? 32 : 20), is64 ? ~0ull / 2 : 0xffffffffu, is64 ? 8 : 4, big);
        CHECK(survives(m, n, NULL));
        memcpy(m, b, n);
        wr(m, e + (is64 ? 40 : 24), 0xffffffffu, 4, big);   /* sh_link out of range */
        CHECK(survives(m, n, NULL));
    }
    free(m);
}

static void sweep_file(const char *label, const unsigned char *b, size_t n, unsigned rounds) {
    test_set_context(label);
    sweep_fields(b, n);
    sweep_truncation(b, n);
    sweep_flips(b, n);
    sweep_random(b, n, rounds);
    test_set_context(NULL);
}

TEST(hostile_sweeps) {
    static const int which[] = {B_PIE, B_LIB32, B_BE64, B_STRIPPED};
    size_t i;
    int elf64, big;
    for (i = 0; i < sizeof which / sizeof *which; i++) {
        size_t n;
        unsigned char *b;
        if (!bins[which[i]].built) continue;
        b = read_file(bins[which[i]].path, &n);
        if (CHECK(b != NULL)) sweep_file(bins[which[i]].label, b, n, 4000);
        free(b);
    }
    for (elf64 = 0; elf64 < 2; elf64++) {
        for (big = 0; big < 2; big++) {
            hand h;
            hand_build(&h, elf64, big);
            sweep_file(hand_label(elf64, big), h.b, h.n, 4000);
        }
    }
}

/* ---------------------------------------------------------------- find */

typedef struct find_env {
    char host[512], symfs[512], cache[512], debug[512], symdir[512], other[512];
    unsigned char id[64], other_id[64];
    size_t id_size, other_id_size;
} find_env;

static void build_id_path(char *out, size_t cap, const char *root, const unsigned char *id, size_t n, const char *tail) {
    char h[129];
    size_t i;
    for (i = 0; i < n && i < 64; i++) snprintf(h + 2 * i, 3, "%02x", id[i]);
    snprintf(out, cap, "%s/.build-id/%.2s/%s%s", root, h, h + 2, tail);
}

static pd_elf_status find(pd_elf_search *s, const char *path, const unsigned char *id, size_t n, pd_elf_found *found,
                          const unsigned char **got_id, size_t *got_size) {
    pd_elf *elf;
    pd_elf_error err;
    pd_elf_status st = pd_elf_find(s, path, id, n, &elf, found, &err);
    *got_id = NULL; *got_size = 0;
    if (elf) {
        static unsigned char keep[64];
        *got_size = pd_elf_get_info(elf)->build_id_size;
        if (*got_size > 64) *got_size = 64;
        memcpy(keep, pd_elf_get_info(elf)->build_id, *got_size);
        *got_id = keep;
        pd_elf_close(elf);
    }
    CHECK((st == PD_ELF_OK || st == PD_ELF_BUILD_ID_MISMATCH) == (elf != NULL));
    CHECK(err.code == st);
    return st;
}

static int same_id(const unsigned char *a, size_t an, const unsigned char *b, size_t bn) {
    return a && an == bn && !memcmp(a, b, an);
}

/* host/prog is the PIE (id X); other is the same program linked with a
   fixed different build id (Y). */
static int find_setup(find_env *e) {
    char cmd[1024];
    pd_elf *elf;
    snprintf(e->host, sizeof e->host, "%s/host/usr/bin/prog", T);
    snprintf(e->symfs, sizeof e->symfs, "%s/symfs", T);
    snprintf(e->cache, sizeof e->cache, "%s/cache", T);
    snprintf(e->debug, sizeof e->debug, "%s/debugroot", T);
    snprintf(e->symdir, sizeof e->symdir, "%s/symdir", T);
    snprintf(e->other, sizeof e->other, "%s/other", T);
    snprintf(cmd, sizeof cmd, "cd %%s && gcc -O0 -Wl,--build-id=0x0102030405060708090a0b0c0d0e0f1011121314 main.c a.c b.c -o %%s");
    if (!run(cmd, T, "other")) return 0;
    if (!run("mkdir -p %s/host/usr/bin %s/cache %s/debugroot %s/symdir && cp %s %s", T, T, T, T, bins[B_PIE].path, e->host)) return 0;
    if (pd_elf_open_file(bins[B_PIE].path, &elf, NULL) != PD_ELF_OK) return 0;
    e->id_size = pd_elf_get_info(elf)->build_id_size;
    memcpy(e->id, pd_elf_get_info(elf)->build_id, e->id_size);
    pd_elf_close(elf);
    if (pd_elf_open_file(e->other, &elf, NULL) != PD_ELF_OK) return 0;
    e->other_id_size = pd_elf_get_info(elf)->build_id_size;
    memcpy(e->other_id, pd_elf_get_info(elf)->build_id, e->other_id_size);
    pd_elf_close(elf);
    return e->id_size == 20 && e->other_id_size == 20;
}

/* path; with symfs, symfs + path only. */
static void find_by_path(find_env *e) {
    pd_elf_search s;
    pd_elf_found f;
    const unsigned char *got;
    size_t gn;
    memset(&s, 0, sizeof s);
    s.buildid_dir = e->cache; s.debug_dir = e->debug;
    test_set_context("find: path");
    CHECK(find(&s, e->host, e->id, e->id_size, &f, &got, &gn) == PD_ELF_OK && f.where == PD_ELF_FROM_PATH && !f.passed_over);
    CHECK(!strcmp(f.path, e->host) && same_id(got, gn, e->id, e->id_size));
    CHECK(find(&s, e->host, NULL, 0, &f, &got, &gn) == PD_ELF_OK && f.where == PD_ELF_FROM_PATH);
    test_set_context("find: symfs");
    s.symfs = e->symfs;
    CHECK(run("mkdir -p %s%s && rmdir %s%s && cp %s %s%s", e->symfs, e->host, e->symfs, e->host, bins[B_PIE].path, e->symfs, e->host));
    CHECK(find(&s, e->host, e->id, e->id_size, &f, &got, &gn) == PD_ELF_OK && f.where == PD_ELF_FROM_SYMFS);
    /* as perf's --symfs, the path itself is never looked at: a stale copy
       under symfs is a mismatch even though the path holds the right file */
    CHECK(run("cp %s %s%s", e->other, e->symfs, e->host));
    CHECK(find(&s, e->host, e->id, e->id_size, &f, &got, &gn) != PD_ELF_OK || f.where != PD_ELF_FROM_PATH);
    s.symfs = NULL;
    pd_elf_search_free(&s);
}

/* A file at the path with another build id: reported, not used silently;
   the build-id cache, the debug dir and symdir are tried first. */
static void find_mismatch(find_env *e) {
    pd_elf_search s;
    pd_elf_found f;
    const unsigned char *got;
    size_t gn;
    char p[1024];
    memset(&s, 0, sizeof s);
    s.buildid_dir = e->cache; s.debug_dir = e->debug;
    CHECK(run("cp %s %s", e->other, e->host));
    test_set_context("find: mismatch");
    CHECK(find(&s, e->host, e->id, e->id_size, &f, &got, &gn) == PD_ELF_BUILD_ID_MISMATCH);
    CHECK(f.where == PD_ELF_FROM_PATH && same_id(got, gn, e->other_id, e->other_id_size));
    CHECK(find(&s, e->host, e->other_id, e->other_id_size, &f, &got, &gn) == PD_ELF_OK);
    test_set_context("find: build-id cache");
    build_id_path(p, sizeof p, e->cache, e->id, e->id_size, "");
    CHECK(run("mkdir -p %s && cp %s %s/elf", p, bins[B_PIE].path, p));
    CHECK(find(&s, e->host, e->id, e->id_size, &f, &got, &gn) == PD_ELF_OK && f.where == PD_ELF_FROM_BUILDID_CACHE && f.passed_over);
    CHECK(same_id(got, gn, e->id, e->id_size));
    CHECK(find(&s, NULL, e->id, e->id_size, &f, &got, &gn) == PD_ELF_OK && f.where == PD_ELF_FROM_BUILDID_CACHE && !f.passed_over);
    /* perf's cache keeps a [vdso]'s copy as .../vdso (and kallsyms as .../kallsyms) */
    CHECK(run("mv %s/elf %s/vdso", p, p));
    CHECK(find(&s, NULL, e->id, e->id_size, &f, &got, &gn) == PD_ELF_OK && f.where == PD_ELF_FROM_BUILDID_CACHE &&
          strstr(f.path, "/vdso") != NULL && same_id(got, gn, e->id, e->id_size));
    CHECK(run("rm -r %s/.build-id", e->cache));
    test_set_context("find: debug dir");
    build_id_path(p, sizeof p, e->debug, e->id, e->id_size, ".debug");
    CHECK(run("mkdir -p $(dirname %s) && objcopy --only-keep-debug %s %s", p, bins[B_PIE].path, p));
    CHECK(find(&s, e->host, e->id, e->id_size, &f, &got, &gn) == PD_ELF_OK && f.where == PD_ELF_FROM_DEBUG_DIR && !strcmp(f.path, p));
    CHECK(run("rm -r %s/.build-id", e->debug));
    pd_elf_search_free(&s);
}

/* Any ELF below symdir, by build id, whatever its name; junk is skipped. */
static void find_symdir(find_env *e) {
    pd_elf_search s;
    pd_elf_found f;
    const unsigned char *got;
    size_t gn;
    unsigned char wrong[20];
    memset(&s, 0, sizeof s);
    s.buildid_dir = e->cache; s.debug_dir = e->debug; s.symdir = e->symdir;
    test_set_context("find: symdir");
    CHECK(run("mkdir -p %s/x/y/z %s/loop && ln -s .. %s/loop/up && cp %s %s/x/y/z/renamed && cp %s %s/x/other-copy && "
              "echo 'not an ELF' > %s/readme && head -c 100 %s > %s/x/truncated",
              e->symdir, e->symdir, e->symdir, bins[B_PIE].path, e->symdir, e->other, e->symdir, e->symdir,
              bins[B_PIE].path, e->symdir));
    CHECK(find(&s, e->host, e->id, e->id_size, &f, &got, &gn) == PD_ELF_OK && f.where == PD_ELF_FROM_SYMDIR && f.passed_over);
    CHECK(strstr(f.path, "/x/y/z/renamed") != NULL && same_id(got, gn, e->id, e->id_size));
    CHECK(find(&s, NULL, e->other_id, e->other_id_size, &f, &got, &gn) == PD_ELF_OK && f.where == PD_ELF_FROM_SYMDIR);
    CHECK(strstr(f.path, "/x/other-copy") != NULL);
    memset(wrong, 0x5a, sizeof wrong);
    CHECK(find(&s, NULL, wrong, sizeof wrong, &f, &got, &gn) == PD_ELF_NOT_FOUND && f.where == PD_ELF_FROM_NONE);
    pd_elf_search_free(&s);
    CHECK(s.index_ == NULL);
    /* two copies: the first in path order, whatever order readdir gives */
    CHECK(run("cp %s %s/x/y/z/a_dup && cp %s %s/a_dup", bins[B_PIE].path, e->symdir, bins[B_PIE].path, e->symdir));
    CHECK(find(&s, NULL, e->id, e->id_size, &f, &got, &gn) == PD_ELF_OK && f.where == PD_ELF_FROM_SYMDIR);
    CHECK(strlen(f.path) > 6 && !strcmp(f.path + strlen(f.path) - 6, "/a_dup") && !strstr(f.path, "/x/"));
    pd_elf_search_free(&s);
}

/* perf keeps 20 bytes: a longer id matches its first 20; older perf
   padded a shorter one with zeros. */
static void find_id_lengths(find_env *e) {
    pd_elf_search s;
    pd_elf_found f;
    const unsigned char *got;
    size_t gn;
    unsigned char id[32], padded[20];
    char p[512];
    size_t i;
    memset(&s, 0, sizeof s);
    s.buildid_dir = e->cache; s.debug_dir = e->debug;
    test_set_context("find: build id lengths");
    for (i = 0; i < 32; i++) id[i] = (unsigned char)(0x40 + i);
    tpath(p, sizeof p, "long_id");
    CHECK(run("cd %s && gcc -O0 -Wl,--build-id=0x404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f main.c a.c b.c -o %s", T, p));
    CHECK(find(&s, p, id, 20, &f, &got, &gn) == PD_ELF_OK && gn == 32);
    CHECK(find(&s, p, id, 32, &f, &got, &gn) == PD_ELF_OK);
    CHECK(find(&s, p, id, 19, &f, &got, &gn) == PD_ELF_BUILD_ID_MISMATCH);
    tpath(p, sizeof p, "short_id");
    CHECK(run("cd %s && gcc -O0 -Wl,--build-id=0x404142434445464748494a4b4c4d4e4f main.c a.c b.c -o %s", T, p));
    memset(padded, 0, sizeof padded);
    memcpy(padded, id, 16);
    CHECK(find(&s, p, padded, 20, &f, &got, &gn) == PD_ELF_OK && gn == 16);
    padded[19] = 1;
    CHECK(find(&s, p, padded, 20, &f, &got, &gn) == PD_ELF_BUILD_ID_MISMATCH);
    pd_elf_search_free(&s);
}

static void find_errors(find_env *e) {
    pd_elf_search s;
    pd_elf_found f;
    pd_elf *elf;
    const unsigned char *got;
    size_t gn;
    char p[512];
    memset(&s, 0, sizeof s);
    s.buildid_dir = e->cache; s.debug_dir = e->debug;
    test_set_context("find: errors");
    tpath(p, sizeof p, "missing");
    CHECK(find(&s, p, e->id, e->id_size, &f, &got, &gn) == PD_ELF_NOT_FOUND);
    tpath(p, sizeof p, "host/truncated");
    CHECK(run("head -c 1000 %s > %s", bins[B_PIE].path, p));
    CHECK(find(&s, p, NULL, 0, &f, &got, &gn) == PD_ELF_TRUNCATED);
    CHECK(pd_elf_find(&s, NULL, NULL, 0, &elf, &f, NULL) == PD_ELF_BAD_ARGUMENT && elf == NULL);
    CHECK(pd_elf_find(NULL, p, NULL, 0, &elf, NULL, NULL) == PD_ELF_BAD_ARGUMENT);
    pd_elf_search_free(&s);
    pd_elf_search_free(NULL);
}

TEST(find_binaries) {
    find_env e;
    if (!bins[B_PIE].built) return;
    if (!CHECK(find_setup(&e))) return;
    find_by_path(&e);
    find_mismatch(&e);
    find_symdir(&e);
    find_id_lengths(&e);
    find_errors(&e);
}

/* ------------------------------------------------------------ kallsyms */

static const char *kallsyms_text =
    "ffffffff81000100 t secondary_startup\n"
    "ffffffff81000000 T _stext\n"
    "ffffffff81000000 T startup_64\n"            /* same address: fewer underscores win */
    "ffffffff81000200 D some_data\n"             /* data: ignored */
    "ffffffff81000050 b bss_thing\n"
    "ffffffff81001000 W weak_fn\n"
    "ffffffff81002000 T last_kernel_fn\n"
    "ffffffffc0000000 t mod_a_fn\t[mod_a]\n"
    "ffffffffc0000100 T mod_a_fn2\t[mod_a]\n"
    "bogus line\n"
    "zzzz T not_hex\n"
    "ffffffff8100000000000 T too_long\n"
    "ffffffff81000300\n"
    "ffffffff81000300 t\n"
    "\n"
    "ffffffffc0010000 t mod_b_fn\t[mod_b]";     /* no final newline */

static const char *ksym_name(const pd_kallsyms *ks, uint64_t a) {
    const pd_ksym *s = pd_kallsyms_lookup(ks, a);
    return s ? s->name : "(none)";
}

static void check_kallsyms(const pd_kallsyms *ks) {
    const pd_ksym *syms, *s;
    CHECK_EQ_U64(pd_kallsyms_symbols(ks, &syms), 7);
    CHECK(!strcmp(ksym_name(ks, 0xffffffff80ffffffull), "(none)"));
    CHECK(!strcmp(ksym_name(ks, 0xffffffff81000000ull), "startup_64"));
    CHECK(!strcmp(ksym_name(ks, 0xffffffff810000ffull), "startup_64"));
    CHECK(!strcmp(ksym_name(ks, 0xffffffff81000100ull), "secondary_startup"));
    CHECK(!strcmp(ksym_name(ks, 0xffffffff81000fffull), "secondary_startup"));
    CHECK(!strcmp(ksym_name(ks, 0xffffffff81001800ull), "weak_fn"));
    CHECK(!strcmp(ksym_name(ks, 0xffffffff81002fffull), "last_kernel_fn"));
    CHECK(!strcmp(ksym_name(ks, 0xffffffff81003000ull), "(none)"));   /* the gap before the modules */
    s = pd_kallsyms_lookup(ks, 0xffffffffc0000010ull);
    CHECK(s && !strcmp(s->name, "mod_a_fn") && s->module && !strcmp(s->module, "mod_a") && s->type == 't');
    CHECK(!strcmp(ksym_name(ks, 0xffffffffc0001fffull), "mod_a_fn2"));
    CHECK(!strcmp(ksym_name(ks, 0xffffffffc0002000ull), "(none)"));
    s = pd_kallsyms_lookup(ks, 0xffffffffc0010fffull);
    CHECK(s && !strcmp(s->name, "mod_b_fn") && s->module && !strcmp(s->module, "mod_b"));
    CHECK(!strcmp(ksym_name(ks, 0xffffffffc0011000ull), "(none)"));
    s = pd_kallsyms_lookup(ks, 0xffffffff81000000ull);
    CHECK(s && s->module == NULL && s->type == 'T');
}

TEST(kallsyms) {
    pd_kallsyms *ks;
    pd_elf_error err;
    char path[512];
    size_t i;
    char junk[8192];
    uint64_t x = 12345;
    if (CHECK(pd_kallsyms_parse(kallsyms_text, strlen(kallsyms_text), &ks, &err) == PD_ELF_OK)) {
        check_kallsyms(ks);
        pd_kallsyms_free(ks);
    }
    write_text("kallsyms", kallsyms_text);
    tpath(path, sizeof path, "kallsyms");
    if (CHECK(pd_kallsyms_load(path, &ks, &err) == PD_ELF_OK)) {
        check_kallsyms(ks);
        pd_kallsyms_free(ks);
    }
    CHECK(pd_kallsyms_parse("0000000000000000 T a\n0000000000000000 t b\n", 42, &ks, &err) == PD_ELF_MALFORMED && ks == NULL);
    CHECK(pd_kallsyms_parse("", 0, &ks, &err) == PD_ELF_NOT_FOUND);
    CHECK(pd_kallsyms_parse("ffff D x\n", 9, &ks, &err) == PD_ELF_NOT_FOUND);
    CHECK(pd_kallsyms_load("/nonexistent/kallsyms", &ks, &err) == PD_ELF_IO && err.os_errno != 0);
    /* the text may hold anything; cut at every length, and random bytes */
    for (i = 0; i <= strlen(kallsyms_text); i++) {
        if (pd_kallsyms_parse(kallsyms_text, i, &ks, NULL) == PD_ELF_OK) pd_kallsyms_free(ks);
    }
    for (i = 0; i < sizeof junk; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        junk[i] = "0123456789abcdef \t\n[]Tt"[x % 24];
    }
    if (pd_kallsyms_parse(junk, sizeof junk, &ks, NULL) == PD_ELF_OK) {
        const pd_ksym *syms;
        size_t n = pd_kallsyms_symbols(ks, &syms), bad = 0;
        for (i = 0; i < n; i++) bad += pd_kallsyms_lookup(ks, syms[i].addr) != &syms[i] || (i && syms[i - 1].addr >= syms[i].addr);
        CHECK_EQ_U64(bad, 0);
        pd_kallsyms_free(ks);
    }
    /* this machine's own, when readable: fine either way, never a crash */
    if (pd_kallsyms_load("/proc/kallsyms", &ks, &err) == PD_ELF_OK) {
        const pd_ksym *syms;
        size_t n = pd_kallsyms_symbols(ks, &syms);
        CHECK(n > 0 && pd_kallsyms_lookup(ks, syms[n / 2].addr) == &syms[n / 2]);
        pd_kallsyms_free(ks);
    } else {
        printf("note: /proc/kallsyms not usable here (%s); checked on the written file only\n", err.message);
    }
}

/* ------------------------------------------------------------ PLT images */

/* An x86 ET_DYN image with a PLT, laid out as GNU ld lays out a PIE (vaddr
   == file offset): .init at 0x1000, .plt at 0x1020 (a header, then one
   entry per relocation, sh_entsize each), .plt.got, .plt.sec when asked,
   .text, .data at 0x4000; .dynsym with one undefined function per entry
   and then the exports; .rela.plt (ELF32: .rel.plt); .symtab when given.
   The expectations below are what perf 6.1 prints for these images. */
typedef struct psym {
    const char *name;
    unsigned bind, type, sec;   /* sec: a Q_ section, 0 undefined */
    uint64_t value, size;
} psym;

enum { Q_NULL, Q_INIT, Q_PLT, Q_PLTGOT, Q_PLTSEC, Q_TEXT, Q_DATA, Q_DYNSYM, Q_DYNSTR, Q_REL, Q_SYMTAB, Q_STRTAB, Q_SHSTRTAB, Q_COUNT };
enum { Q_DYNSYM_AT = 0x5000, Q_DYNSTR_AT = 0x5400, Q_REL_AT = 0x5600, Q_SYMTAB_AT = 0x5800, Q_STRTAB_AT = 0x5c00,
       Q_SHSTRTAB_AT = 0x5e00, Q_SHDRS_AT = 0x5f00, Q_SIZE = 0x6400 };
static const char *const plt_funcs[] = {"puts", "abort", "malloc", "free", "strlen", "memcpy", "exit", "getenv"};

typedef struct pspec {
    int elf64;
    unsigned entsize, nplt;     /* .plt's sh_entsize; entries (at most 8) */
    int with_sec;               /* a .plt.sec, as -z ibtplt makes */
    int dynsym_nobits;          /* a debug file's .dynsym */
    const psym *syms;           /* .symtab (none when NULL) */
    size_t nsyms;
    const psym *exports;        /* defined .dynsym symbols */
    size_t nexports;
} pspec;

typedef struct pimg {
    unsigned char *b;
    size_t n;
    uint64_t plt, pltgot, pltsec, text;
} pimg;

static void le(unsigned char *b, size_t off, uint64_t v, unsigned width) {
    unsigned i;
    for (i = 0; i < width; i++) b[off + i] = (unsigned char)(v >> 8 * i);
}

static size_t add_str(unsigned char *b, size_t at, size_t *len, const char *s) {
    size_t o = *len;
    memcpy(b + at + o, s, strlen(s) + 1);
    *len += strlen(s) + 1;
    return o;
}

static void psym_put(const pspec *sp, unsigned char *b, size_t at, size_t i, uint32_t name, const psym *s) {
    size_t p = at + i * (sp->elf64 ? 24 : 16);
    le(b, p, name, 4);
    if (sp->elf64) {
        b[p + 4] = (unsigned char)(s->bind << 4 | s->type); le(b, p + 6, s->sec, 2); le(b, p + 8, s->value, 8); le(b, p + 16, s->size, 8);
    } else {
        le(b, p + 4, s->value, 4); le(b, p + 8, s->size, 4); b[p + 12] = (unsigned char)(s->bind << 4 | s->type); le(b, p + 14, s->sec, 2);
    }
}

static void pshdr(const pspec *sp, unsigned char *b, int i, uint32_t name, uint32_t type, uint64_t flags, uint64_t addr,
                  uint64_t off, uint64_t size, uint32_t link, uint64_t entsize) {
    size_t p = Q_SHDRS_AT + (size_t)i * (sp->elf64 ? 64 : 40);
    le(b, p, name, 4);
    le(b, p + 4, type, 4);
    if (sp->elf64) {
        le(b, p + 8, flags, 8); le(b, p + 16, addr, 8); le(b, p + 24, off, 8); le(b, p + 32, size, 8);
        le(b, p + 40, link, 4); le(b, p + 44, type == 2 || type == 11 ? 1 : 0, 4); le(b, p + 48, 8, 8); le(b, p + 56, entsize, 8);
    } else {
        le(b, p + 8, flags, 4); le(b, p + 12, addr, 4); le(b, p + 16, off, 4); le(b, p + 20, size, 4);
        le(b, p + 24, link, 4); le(b, p + 28, type == 2 || type == 11 ? 1 : 0, 4); le(b, p + 32, 4, 4); le(b, p + 36, entsize, 4);
    }
}

static pimg plt_image(const pspec *sp) {
    static const char *const names[Q_COUNT] = {"", ".init", ".plt", ".plt.got", ".plt.sec", ".text", ".data", ".dynsym",
                                               ".dynstr", ".rela.plt", ".symtab", ".strtab", ".shstrtab"};
    pimg im;
    unsigned char *b = (unsigned char *)calloc(1, Q_SIZE);
    size_t symsz = sp->elf64 ? 24 : 16, relsz = sp->elf64 ? 24 : 8, shstr = 0, dstr = 0, sstr = 0, i;
    uint32_t shname[Q_COUNT];
    psym und = {NULL, 1, 2, 0, 0, 0};
    if (!b) exit(2);
    im.b = b;
    im.n = Q_SIZE;
    im.plt = 0x1020;
    im.pltgot = im.plt + 16 * (sp->nplt + 1);
    im.pltsec = im.pltgot + 0x10;
    im.text = sp->with_sec ? im.pltsec + 16 * sp->nplt : im.pltgot + 0x10;
    for (i = 0; i < Q_COUNT; i++) {
        const char *n = names[i];
        if (i == Q_PLTSEC && !sp->with_sec) n = ".unused";
        if (i == Q_REL && !sp->elf64) n = ".rel.plt";
        shname[i] = (uint32_t)add_str(b, Q_SHSTRTAB_AT, &shstr, n);
    }
    add_str(b, Q_DYNSTR_AT, &dstr, "");
    for (i = 0; i < sp->nplt; i++) {
        und.name = plt_funcs[i];
        psym_put(sp, b, Q_DYNSYM_AT, i + 1, (uint32_t)add_str(b, Q_DYNSTR_AT, &dstr, plt_funcs[i]), &und);
        le(b, Q_REL_AT + i * relsz, 0x4080 + 8 * i, sp->elf64 ? 8 : 4);  /* r_offset: its GOT slot */
        if (sp->elf64) le(b, Q_REL_AT + i * relsz + 8, (uint64_t)(i + 1) << 32 | 7, 8);  /* R_X86_64_JUMP_SLOT */
        else le(b, Q_REL_AT + i * relsz + 4, (uint64_t)(i + 1) << 8 | 7, 4);                /* R_386_JMP_SLOT */
    }
    for (i = 0; i < sp->nexports; i++)
        psym_put(sp, b, Q_DYNSYM_AT, sp->nplt + 1 + i, (uint32_t)add_str(b, Q_DYNSTR_AT, &dstr, sp->exports[i].name), &sp->exports[i]);
    add_str(b, Q_STRTAB_AT, &sstr, "");
    for (i = 0; i < sp->nsyms; i++)
        psym_put(sp, b, Q_SYMTAB_AT, i + 1, (uint32_t)add_str(b, Q_STRTAB_AT, &sstr, sp->syms[i].name), &sp->syms[i]);
    memcpy(b, "\x7f" "ELF", 4);
    b[4] = sp->elf64 ? 2 : 1;
    b[5] = 1;
    b[6] = 1;
    le(b, 16, 3, 2);                                /* ET_DYN */
    le(b, 18, sp->elf64 ? 62 : 3, 2);               /* x86-64, i386 */
    le(b, 20, 1, 4);
    if (sp->elf64) {
        le(b, 24, im.text, 8); le(b, 32, 64, 8); le(b, 40, Q_SHDRS_AT, 8);
        le(b, 52, 64, 2); le(b, 54, 56, 2); le(b, 56, 2, 2); le(b, 58, 64, 2); le(b, 60, Q_COUNT, 2); le(b, 62, Q_SHSTRTAB, 2);
        le(b, 64, 1, 4); le(b, 68, 5, 4); le(b, 72, 0, 8); le(b, 80, 0, 8); le(b, 88, 0, 8);
        le(b, 96, 0x4000, 8); le(b, 104, 0x4000, 8); le(b, 112, 0x1000, 8);          /* PT_LOAD R+X */
        le(b, 120, 1, 4); le(b, 124, 6, 4); le(b, 128, 0x4000, 8); le(b, 136, 0x4000, 8); le(b, 144, 0x4000, 8);
        le(b, 152, 0x100, 8); le(b, 160, 0x100, 8); le(b, 168, 0x1000, 8);             /* PT_LOAD RW */
    } else {
        le(b, 24, im.text, 4); le(b, 28, 52, 4); le(b, 32, Q_SHDRS_AT, 4);
        le(b, 40, 52, 2); le(b, 42, 32, 2); le(b, 44, 2, 2); le(b, 46, 40, 2); le(b, 48, Q_COUNT, 2); le(b, 50, Q_SHSTRTAB, 2);
        le(b, 52, 1, 4); le(b, 56, 0, 4); le(b, 60, 0, 4); le(b, 64, 0, 4); le(b, 68, 0x4000, 4); le(b, 72, 0x4000, 4);
        le(b, 76, 5, 4); le(b, 80, 0x1000, 4);
        le(b, 84, 1, 4); le(b, 88, 0x4000, 4); le(b, 92, 0x4000, 4); le(b, 96, 0x4000, 4); le(b, 100, 0x100, 4);
        le(b, 104, 0x100, 4); le(b, 108, 6, 4); le(b, 112, 0x1000, 4);
    }
    pshdr(sp, b, Q_INIT, shname[Q_INIT], 1, 6, 0x1000, 0x1000, 0x17, 0, 0);
    pshdr(sp, b, Q_PLT, shname[Q_PLT], 1, 6, im.plt, im.plt, 16 * (sp->nplt + 1), 0, sp->entsize);
    pshdr(sp, b, Q_PLTGOT, shname[Q_PLTGOT], 1, 6, im.pltgot, im.pltgot, 8, 0, 8);
    pshdr(sp, b, Q_PLTSEC, shname[Q_PLTSEC], 1, 6, im.pltsec, im.pltsec, sp->with_sec ? 16 * sp->nplt : 0, 0, 16);
    pshdr(sp, b, Q_TEXT, shname[Q_TEXT], 1, 6, im.text, im.text, 0x100, 0, 0);
    pshdr(sp, b, Q_DATA, shname[Q_DATA], 1, 3, 0x4000, 0x4000, 0x100, 0, 0);
    pshdr(sp, b, Q_DYNSYM, shname[Q_DYNSYM], sp->dynsym_nobits ? 8 : 11, 2, Q_DYNSYM_AT, Q_DYNSYM_AT,
          (1 + sp->nplt + sp->nexports) * symsz, Q_DYNSTR, symsz);
    pshdr(sp, b, Q_DYNSTR, shname[Q_DYNSTR], 3, 2, Q_DYNSTR_AT, Q_DYNSTR_AT, dstr, 0, 0);
    pshdr(sp, b, Q_REL, shname[Q_REL], sp->elf64 ? 4 : 9, 2, Q_REL_AT, Q_REL_AT, sp->nplt * relsz, Q_DYNSYM, relsz);
    if (sp->syms) {
        pshdr(sp, b, Q_SYMTAB, shname[Q_SYMTAB], 2, 0, 0, Q_SYMTAB_AT, (1 + sp->nsyms) * symsz, Q_STRTAB, symsz);
        pshdr(sp, b, Q_STRTAB, shname[Q_STRTAB], 3, 0, 0, Q_STRTAB_AT, sstr, 0, 0);
    } else {                    /* stripped: the names stay, as empty sections */
        pshdr(sp, b, Q_SYMTAB, shname[Q_SYMTAB], 8, 0, 0, 0, 0, 0, 0);
        pshdr(sp, b, Q_STRTAB, shname[Q_STRTAB], 8, 0, 0, 0, 0, 0, 0);
    }
    pshdr(sp, b, Q_SHSTRTAB, shname[Q_SHSTRTAB], 3, 0, 0, Q_SHSTRTAB_AT, shstr, 0, 0);
    return im;
}

/* Opens the image (also written to T/name for a look with perf). */
static pd_elf *open_plt_image(const pimg *im, const char *name) {
    char path[512];
    pd_elf *elf = NULL;
    tpath(path, sizeof path, name);
    write_file(path, im->b, im->n);
    test_set_context(name);
    if (!CHECK(pd_elf_open_mem(im->b, im->n, &elf, NULL) == PD_ELF_OK)) return NULL;
    return elf;
}

/* pd_elf_lookup_plt at vaddr gives want (NULL: nothing) starting at addr. */
static void check_plt_at(const pd_elf *elf, uint64_t vaddr, const char *want, uint64_t addr) {
    const pd_elf_sym *s = pd_elf_lookup_plt(elf, vaddr);
    if (!want) {
        if (!CHECK(s == NULL)) fprintf(stderr, "  at 0x%llx: %s, not nothing\n", (ULL)vaddr, s->name);
        return;
    }
    if (!CHECK(s && !strcmp(s->name, want) && s->addr == addr && vaddr < s->end))
        fprintf(stderr, "  at 0x%llx: %s+0x%llx, not %s+0x%llx\n", (ULL)vaddr, s ? s->name : "nothing",
                s ? (ULL)(vaddr - s->addr) : 0, want, (ULL)(vaddr - addr));
}

static const psym sym_init = {"_init", PD_ELF_STB_LOCAL, PD_ELF_STT_FUNC, Q_INIT, 0x1000, 0};
static const psym sym_stdin_used = {"_IO_stdin_used", PD_ELF_STB_GLOBAL, 1, Q_DATA, 0x4000, 4};

/* A stripped binary (cut, env): entries after the 16-byte header, named in
   relocation order; the header and .plt.got are no symbol's; no entry for
   .plt.sec. */
TEST(plt_stripped) {
    pspec sp;
    pimg im;
    pd_elf *elf;
    const pd_elf_info *info;
    size_t i;
    memset(&sp, 0, sizeof sp);
    sp.elf64 = 1; sp.entsize = 16; sp.nplt = 3; sp.exports = &sym_stdin_used; sp.nexports = 1;
    im = plt_image(&sp);
    if ((elf = open_plt_image(&im, "plt-stripped")) != NULL) {
        info = pd_elf_get_info(elf);
        CHECK_EQ_U64(info->nr_plt, 3);
        for (i = 0; i < info->nr_plt; i++) CHECK(strcmp(info->plt[i].name, ".plt") != 0);
        check_plt_at(elf, im.plt, NULL, 0);
        check_plt_at(elf, im.plt + 6, NULL, 0);                 /* the header: perf's [unknown] */
        check_plt_at(elf, im.plt + 0x10, "puts@plt", im.plt + 0x10);
        check_plt_at(elf, im.plt + 0x2f, "abort@plt", im.plt + 0x20);
        check_plt_at(elf, im.plt + 0x36, "malloc@plt", im.plt + 0x30);
        check_plt_at(elf, im.pltgot, NULL, 0);
        pd_elf_close(elf);
    }
    free(im.b);
    /* -z ibtplt: calls go through .plt.sec, which perf 6.1 leaves unnamed */
    sp.with_sec = 1;
    im = plt_image(&sp);
    if ((elf = open_plt_image(&im, "plt-sec")) != NULL) {
        check_plt_at(elf, im.plt + 0x14, "puts@plt", im.plt + 0x10);
        check_plt_at(elf, im.pltsec, NULL, 0);
        check_plt_at(elf, im.pltsec + 0x24, NULL, 0);
        pd_elf_close(elf);
    }
    free(im.b);
    /* ELF32 with .rel.plt */
    sp.elf64 = 0; sp.with_sec = 0;
    im = plt_image(&sp);
    if ((elf = open_plt_image(&im, "plt-elf32")) != NULL) {
        check_plt_at(elf, im.plt + 0x1f, "puts@plt", im.plt + 0x10);
        check_plt_at(elf, im.plt + 0x30, "malloc@plt", im.plt + 0x30);
        pd_elf_close(elf);
    }
    free(im.b);
    /* nothing defined in .dynsym: perf loads no symbol, so makes no entry */
    sp.elf64 = 1; sp.nexports = 0;
    im = plt_image(&sp);
    if ((elf = open_plt_image(&im, "plt-nothing-defined")) != NULL) {
        CHECK_EQ_U64(pd_elf_get_info(elf)->nr_plt, 0);
        check_plt_at(elf, im.plt + 0x16, NULL, 0);
        pd_elf_close(elf);
    }
    free(im.b);
    test_set_context(NULL);
}

/* With .symtab, _init (size 0) reaches over the PLT up to the next symbol;
   an address in an entry is _init's when _init is the entry's ancestor in
   perf's tree, which depends on every symbol perf keeps: objects, and
   those of .dynsym too. */
TEST(plt_under_init) {
    static const psym only_init[] = {{"_init", PD_ELF_STB_LOCAL, PD_ELF_STT_FUNC, Q_INIT, 0x1000, 0}};
    static const psym with_main[] = {{"_init", PD_ELF_STB_LOCAL, PD_ELF_STT_FUNC, Q_INIT, 0x1000, 0},
                                     {"main", PD_ELF_STB_GLOBAL, PD_ELF_STT_FUNC, Q_TEXT, 0x1050, 0x20}};
    static const psym with_object[] = {{"_init", PD_ELF_STB_LOCAL, PD_ELF_STT_FUNC, Q_INIT, 0x1000, 0},
                                       {"counter", PD_ELF_STB_LOCAL, 1, Q_DATA, 0x4010, 4}};
    pspec sp;
    pimg im;
    pd_elf *elf;
    memset(&sp, 0, sizeof sp);
    sp.elf64 = 1; sp.entsize = 16; sp.nplt = 1;
    sp.syms = only_init; sp.nsyms = 1;
    im = plt_image(&sp);
    if ((elf = open_plt_image(&im, "plt-init")) != NULL) {      /* the entry below _init: as python3.11 */
        check_plt_at(elf, im.plt + 0x6, "_init", 0x1000);
        check_plt_at(elf, im.plt + 0x16, "_init", 0x1000);      /* perf: _init+0x36, not puts@plt+0x6 */
        check_plt_at(elf, im.pltgot + 4, "_init", 0x1000);
        check_plt_at(elf, im.text - 1, "_init", 0x1000);        /* the padding before .text */
        pd_elf_close(elf);
    }
    free(im.b);
    /* an object exported in .dynsym makes the entry the tree's root */
    sp.exports = &sym_stdin_used; sp.nexports = 1;
    im = plt_image(&sp);
    if ((elf = open_plt_image(&im, "plt-init-export")) != NULL) {
        check_plt_at(elf, im.plt + 0x6, "_init", 0x1000);
        check_plt_at(elf, im.plt + 0x16, "puts@plt", im.plt + 0x10);
        check_plt_at(elf, im.pltgot + 4, NULL, 0);              /* past the root: no symbol */
        pd_elf_close(elf);
    }
    free(im.b);
    /* one more symbol, a function or an object, and _init is above it again */
    sp.syms = with_main; sp.nsyms = 2;
    im = plt_image(&sp);
    if ((elf = open_plt_image(&im, "plt-init-main")) != NULL) {
        check_plt_at(elf, im.plt + 0x16, "_init", 0x1000);
        check_plt_at(elf, im.pltgot + 4, "_init", 0x1000);
        pd_elf_close(elf);
    }
    free(im.b);
    sp.syms = with_object;
    im = plt_image(&sp);
    if ((elf = open_plt_image(&im, "plt-init-object")) != NULL) {
        check_plt_at(elf, im.plt + 0x16, "_init", 0x1000);
        pd_elf_close(elf);
    }
    free(im.b);
    /* eight entries: the tree's shape names each */
    sp.nplt = 8;
    im = plt_image(&sp);
    if ((elf = open_plt_image(&im, "plt-init-8")) != NULL) {
        unsigned i;
        check_plt_at(elf, im.plt + 0xf, "_init", 0x1000);
        for (i = 0; i < 8; i++) {
            char want[32];
            uint64_t at = im.plt + 0x10 + 0x10 * (uint64_t)i;
            snprintf(want, sizeof want, "%s@plt", plt_funcs[i]);
            check_plt_at(elf, at + 3, want, at);
        }
        check_plt_at(elf, im.pltgot, NULL, 0);
        pd_elf_close(elf);
    }
    free(im.b);
    test_set_context(NULL);
}

/* sh_entsize 0 (lld's .plt): perf puts every entry at .plt's start with
   size 0, holding that one address; duplicates at one address go as
   symbols__fixup_duplicate has them (the tree's erasures shape it too);
   and with a debug file, its .symtab is the tree's. */
TEST(plt_oddities) {
    psym syms[5];
    pspec sp;
    pimg im, dbg;
    pd_elf *elf, *syms_elf;
    memset(&sp, 0, sizeof sp);
    memset(syms, 0, sizeof syms);
    sp.elf64 = 1; sp.entsize = 0; sp.nplt = 3; sp.exports = &sym_stdin_used; sp.nexports = 1;
    syms[0] = sym_init;
    syms[1].name = "main"; syms[1].bind = PD_ELF_STB_GLOBAL; syms[1].type = PD_ELF_STT_FUNC; syms[1].sec = Q_TEXT;
    syms[1].value = 0x1080; syms[1].size = 0x20;   /* the .text of 3 entries */
    sp.syms = syms; sp.nsyms = 2;
    im = plt_image(&sp);
    if ((elf = open_plt_image(&im, "plt-entsize-0")) != NULL) {
        CHECK_EQ_U64(pd_elf_get_info(elf)->nr_plt, 3);
        check_plt_at(elf, im.plt, "puts@plt", im.plt);        /* one of the three, as the tree has it */
        check_plt_at(elf, im.plt + 1, NULL, 0);
        pd_elf_close(elf);
    }
    free(im.b);
    /* three symbols at _init's address, and one more before the PLT */
    sp.entsize = 16; sp.nplt = 5;
    syms[1].name = "_init_alias"; syms[1].bind = PD_ELF_STB_GLOBAL; syms[1].sec = Q_INIT; syms[1].value = 0x1000; syms[1].size = 0;
    syms[2].name = "init_weak"; syms[2].bind = PD_ELF_STB_WEAK; syms[2].type = PD_ELF_STT_FUNC; syms[2].sec = Q_INIT;
    syms[2].value = 0x1000; syms[2].size = 0x17;
    syms[3].name = "init_tail"; syms[3].bind = PD_ELF_STB_LOCAL; syms[3].type = PD_ELF_STT_FUNC; syms[3].sec = Q_INIT;
    syms[3].value = 0x1010; syms[3].size = 0;
    syms[4].name = "main"; syms[4].bind = PD_ELF_STB_GLOBAL; syms[4].type = PD_ELF_STT_FUNC; syms[4].sec = Q_TEXT;
    syms[4].value = 0x1090; syms[4].size = 0x20;
    sp.nsyms = 5;
    im = plt_image(&sp);
    if ((elf = open_plt_image(&im, "plt-duplicates")) != NULL) {
        check_plt_at(elf, im.plt + 0x2, "init_tail", 0x1010);
        check_plt_at(elf, im.plt + 0x12, "init_tail", 0x1010);  /* the first entry */
        check_plt_at(elf, im.plt + 0x22, "abort@plt", im.plt + 0x20);
        check_plt_at(elf, im.plt + 0x32, "malloc@plt", im.plt + 0x30);
        check_plt_at(elf, im.plt + 0x5f, "strlen@plt", im.plt + 0x50);
        check_plt_at(elf, im.pltgot, NULL, 0);
        pd_elf_close(elf);
    }
    free(im.b);
    /* a stripped binary whose .dynsym defines nothing, and its debug file */
    sp.nplt = 1; sp.nexports = 0; sp.syms = NULL; sp.nsyms = 0;
    im = plt_image(&sp);
    sp.syms = &sym_init; sp.nsyms = 1; sp.dynsym_nobits = 1;
    dbg = plt_image(&sp);
    elf = open_plt_image(&im, "plt-debug-bin");
    syms_elf = open_plt_image(&dbg, "plt-debug-file");
    if (elf && syms_elf) {
        CHECK_EQ_U64(pd_elf_get_info(elf)->nr_plt, 0);
        check_plt_at(elf, im.plt + 0x16, NULL, 0);
        pd_elf_plt_symbols_from(elf, syms_elf);
        pd_elf_close(syms_elf);            /* elf keeps it */
        syms_elf = NULL;
        CHECK_EQ_U64(pd_elf_get_info(elf)->nr_plt, 1);
        check_plt_at(elf, im.plt + 0x6, "_init", 0x1000);
        check_plt_at(elf, im.plt + 0x16, "_init", 0x1000);
        pd_elf_plt_symbols_from(elf, elf);  /* back to its own: none */
        CHECK_EQ_U64(pd_elf_get_info(elf)->nr_plt, 0);
    }
    pd_elf_close(elf);
    pd_elf_close(syms_elf);
    free(im.b);
    free(dbg.b);
    test_set_context(NULL);
}

/* ----------------------------------------------------------------- main */

int main(int argc, char **argv) {
    test_filter(argc, argv);
    snprintf(T, sizeof T, "/tmp/pd_elf_test.XXXXXX");
    if (!mkdtemp(T)) { perror("mkdtemp"); return 2; }
    build_all();
    RUN_TEST(hand_made_images);
    RUN_TEST(targeted_bad_input);
    RUN_TEST(degraded_but_usable);
    RUN_TEST(note_alignment);
    RUN_TEST(real_binaries);
    RUN_TEST(class_and_byte_order);
    RUN_TEST(ifunc_symbols);
    RUN_TEST(debug_file);
    RUN_TEST(plt_stripped);
    RUN_TEST(plt_under_init);
    RUN_TEST(plt_oddities);
    RUN_TEST(hostile_sweeps);
    RUN_TEST(find_binaries);
    RUN_TEST(kallsyms);
    if (!getenv("PD_ELF_KEEP")) run("rm -rf %s", T);
    else printf("note: kept %s\n", T);
    return test_report();
}
