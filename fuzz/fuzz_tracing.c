/* fuzz_tracing.c - libFuzzer target: a TRACING_DATA section and a RAW
   sample payload. The first byte is the payload's length (0..255, capped
   at what follows); the section is the bytes between it and the payload,
   at the input's end. The section is parsed (perfdata_tracing_parse); when
   it parses, every format is walked (perfdata_tp_format_next), looked up
   again by its ID (perfdata_tracing_find), every field walked
   (perfdata_tp_field_next) and found by name (perfdata_tp_field_find), and
   every field read from the payload in both byte orders
   (perfdata_tp_field_bytes, perfdata_tp_field_int on each element). A
   violated promise aborts: a view outside the section or payload, a walk
   that yields more formats than nftrace + nevents or a different number,
   a field walk that does not end at the end of the field lines, a find
   that does not give the format back, a read that disagrees with the bytes.
   Build: clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I. -Itools -DPD_FUZZ_LIBFUZZER fuzz/fuzz_tracing.c -o build/fuzz/fuzz_tracing
   Replay (no libFuzzer): clang -g -O0 -fsanitize=address,undefined -fno-sanitize-recover=all -I. -Itools fuzz/fuzz_tracing.c -o build/fuzz/replay_tracing */
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"

#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C"
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* v lies inside [base, base + n), its offset counted from `offset`. */
static int ft_inside(perfdata_view v, const unsigned char *base, size_t n, uint64_t offset) {
    if (!v.n) return 1;
    return v.p >= base && v.n <= n && (size_t)(v.p - base) <= n - v.n && v.offset == offset + (uint64_t)(v.p - base);
}

static void ft_read_fields(const perfdata_tp_format *fmt, const unsigned char *sec, size_t secn, perfdata_view raw) {
    size_t s = 0, steps = 0;
    perfdata_tp_field f, g;
    while (perfdata_tp_field_next(fmt, &s, &f)) {
        int big;
        if (++steps > fmt->fields.n) abort();       /* more fields than lines could hold */
        if (!ft_inside(f.type, sec, secn, 7) || !ft_inside(f.name, sec, secn, 7) || !f.name.n || !f.type.n) abort();
        if (!perfdata_tp_field_find(fmt, (const char *)f.name.p, f.name.n, &g)) abort();
        if (g.name.n != f.name.n || memcmp(g.name.p, f.name.p, f.name.n) != 0) abort();
        if ((f.flags & PERFDATA_TP_FIELD_ARRAY) && (f.flags & PERFDATA_TP_FIELD_DYNAMIC)) abort();
        if ((f.flags & PERFDATA_TP_FIELD_RELATIVE) && !(f.flags & PERFDATA_TP_FIELD_DYNAMIC)) abort();
        for (big = 0; big <= 1; big++) {
            perfdata_view v;
            uint64_t x;
            size_t i, es = f.elem_size;
            if (!perfdata_tp_field_bytes(&f, raw, big, &v)) {
                if (perfdata_tp_field_int(&f, raw, big, 0, &x)) abort(); /* an int outside the bytes */
                continue;
            }
            if (!ft_inside(v, raw.p, raw.n, raw.offset)) abort();
            if (es != 1 && es != 2 && es != 4 && es != 8) continue;
            for (i = 0; i <= v.n / es && i < 300; i++) {
                int ok = perfdata_tp_field_int(&f, raw, big, i, &x);
                int want = i < v.n / es &&
                           ((f.flags & (PERFDATA_TP_FIELD_ARRAY | PERFDATA_TP_FIELD_DYNAMIC)) || (i == 0 && f.size == es));
                if (ok != want) abort();
                if (ok && !(f.flags & PERFDATA_TP_FIELD_SIGNED) && es < 8 && (x >> (8 * es)) != 0) abort();
                if (ok && es == 1 && (uint8_t)x != v.p[i]) abort();
            }
        }
    }
    if (s != fmt->fields.n) abort(); /* the walk stops at the end of the field lines only */
}

#ifdef __cplusplus
extern "C"
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    perfdata_view sec, raw;
    perfdata_tracing t;
    perfdata_tp_format fmt, g;
    perfdata_error err;
    unsigned char *scopy, *rcopy;
    size_t rawn, secn, state = 0, nformats = 0;
    if (size < 1) return 0;
    rawn = data[0];
    if (rawn > size - 1) rawn = size - 1;
    secn = size - 1 - rawn;
    /* each in its own allocation of exactly its size, so a read past it is caught */
    scopy = (unsigned char *)malloc(secn ? secn : 1);
    rcopy = (unsigned char *)malloc(rawn ? rawn : 1);
    if (!scopy || !rcopy) {
        free(scopy);
        free(rcopy);
        return 0;
    }
    if (secn) memcpy(scopy, data + 1, secn);
    if (rawn) memcpy(rcopy, data + 1 + secn, rawn);
    sec.p = scopy; sec.n = secn; sec.offset = 7;
    raw.p = rcopy; raw.n = rawn; raw.offset = 1000;
    if (perfdata_tracing_parse(sec, &t, &err) == PERFDATA_OK) {
        if (err.code != PERFDATA_OK) abort();
        if (t.long_size != 4 && t.long_size != 8) abort();
        if (!ft_inside(t.version, scopy, secn, 7) || !ft_inside(t.header_page, scopy, secn, 7) ||
            !ft_inside(t.header_event, scopy, secn, 7) || !ft_inside(t.ftrace, scopy, secn, 7) ||
            !ft_inside(t.events, scopy, secn, 7) || !ft_inside(t.kallsyms, scopy, secn, 7) ||
            !ft_inside(t.printk, scopy, secn, 7) || !ft_inside(t.cmdlines, scopy, secn, 7))
            abort();
        while (perfdata_tp_format_next(&t, &state, &fmt)) {
            if (++nformats > (size_t)t.nftrace + t.nevents) abort();
            if (!ft_inside(fmt.text, scopy, secn, 7) || !ft_inside(fmt.name, scopy, secn, 7) ||
                !ft_inside(fmt.fields, scopy, secn, 7) || !ft_inside(fmt.print_fmt, scopy, secn, 7) || !fmt.name.n)
                abort();
            if (nformats > t.nftrace) {
                /* an event: find gives the first format with its ID */
                if (!perfdata_tracing_find(&t, fmt.id, &g) || g.id != fmt.id) abort();
            }
            ft_read_fields(&fmt, scopy, secn, raw);
        }
        if (nformats != (size_t)t.nftrace + t.nevents) abort();
        if (perfdata_tp_format_next(&t, &state, &fmt)) abort(); /* the end stays the end */
    } else if (err.code != PERFDATA_ERR_TRUNCATED && err.code != PERFDATA_ERR_MALFORMED) {
        abort();
    } else if (err.offset < 7 || err.offset > 7 + secn) {
        abort();
    }
    free(scopy);
    free(rcopy);
    return 0;
}

#include "fuzz/fuzz_main.h"
