/* fuzz_info.c - libFuzzer target for `perfdata info` (tools/info.c,
   tools/bpf_info.c): the input as a perf.data file or pipe stream, opened
   from memory as the command opens a file (pd_session_open_mem; a pipe's
   records walked, chunks decompressed), and every feature section printed
   by pd_info_print into a memory stream. The output is then checked, and a
   violation aborts: no control character but newline and tab (text from
   the file is escaped), every line starts with '#' (no field can start a
   line of its own), and its size stays within 128 times the input's plus
   1 MiB (no printer's output grows faster than its section).
   Build: clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I. -Itools -D_GNU_SOURCE -DPD_FUZZ_LIBFUZZER fuzz/fuzz_info.c tools/info.c tools/bpf_info.c tools/pd_text.c tools/pd_tool.c tools/pd_file.c tools/pd_opts.c -o build/fuzz/fuzz_info
   Replay (no libFuzzer): clang -g -O0 -fsanitize=address,undefined -fno-sanitize-recover=all -I. -Itools -D_GNU_SOURCE fuzz/fuzz_info.c tools/info.c tools/bpf_info.c tools/pd_text.c tools/pd_tool.c tools/pd_file.c tools/pd_opts.c -o build/fuzz/replay_info */
#include "pd_info.h"
#include "pd_tool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C"
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The output of one input: its shape, as every printer promises it. */
static void check_output(const char *text, size_t len, size_t input_size) {
    const unsigned char *u = (const unsigned char *)text;
    size_t i;
    if (len > 128 * (uint64_t)input_size + (1u << 20)) abort(); /* output out of proportion to the input */
    for (i = 0; i < len; i++) {
        if ((i == 0 || u[i - 1] == '\n') && u[i] != '#') abort(); /* a line not started by a printer */
        if (u[i] == '\n' || u[i] == '\t') continue;
        if (u[i] < 0x20 || u[i] == 0x7f) abort();                                    /* C0 control, DEL */
        if (u[i] == 0xc2 && i + 1 < len && u[i + 1] >= 0x80 && u[i + 1] <= 0x9f) abort(); /* C1 control */
    }
    if (len && u[len - 1] != '\n') abort(); /* an unended last line */
}

#ifdef __cplusplus
extern "C"
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    pd_session s;
    char *text = NULL;
    size_t len = 0;
    FILE *out;
    /* own allocation of exactly size bytes: a read past the end is caught */
    unsigned char *copy = (unsigned char *)malloc(size ? size : 1);
    if (!copy) return 0;
    if (size) memcpy(copy, data, size);
    if (pd_session_open_mem(&s, copy, size, "fuzz-input") == 0) {
        out = open_memstream(&text, &len);
        if (out) {
            int rc = pd_info_print(&s, out, 0);
            if (rc != PD_EXIT_OK && rc != PD_EXIT_PARTIAL && rc != PD_EXIT_ERROR) abort();
            if (fclose(out) == 0) check_output(text, len, size);
            free(text);
        }
        pd_session_close(&s);
    }
    free(copy);
    return 0;
}

#include "fuzz/fuzz_main.h"
