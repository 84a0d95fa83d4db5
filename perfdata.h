/* perfdata.h - v0.2.0 - read Linux perf.data files from a memory buffer.
 * Single header, no allocation, no I/O, no libc: only <stddef.h>/<stdint.h>.
 *
 * CONTENTS (each name is a search anchor: search for "- NAME" followed by
 * the end of a comment to find its declarations, then its implementation,
 * which follows the same order; "- NAME:" finds the implementation's parts,
 * "- internals:" the helpers everything uses)
 *   errors           perfdata_status, perfdata_error, perfdata_pool
 *   byte views       perfdata_view, perfdata_u64s
 *   kernel constants record types, sample fields, attr flags, features
 *   attributes       perfdata_attr, perfdata_event
 *   file             perfdata_open, features, the id index
 *   records          perfdata_cursor, perfdata_next_record, event lookup
 *   time order       perfdata_ordered (perf's delivery order)
 *   sample           perfdata_decode_sample and its accessors
 *   kernel record bodies, perf tool record bodies   one decoder per type
 *   features         perfdata_decode_feat_*
 *   tracepoint formats  perfdata_tracing_parse: TRACING_DATA's format
 *                    files, their fields, and fields read from RAW samples
 *   compressed data  perfdata_inflate (records inside perf record -z chunks)
 *   reader           perfdata_reader: all of the above in one call, from a
 *                    whole buffer or pushed pieces
 *   writer           perfdata_writer: perf.data out (file or pipe, either
 *                    byte order), records from the structs above;
 *                    perfdata_encode_feat_*: feature sections
 *   zstd             the built-in zstd decoder (PERFDATA_ZSTD), a part of
 *                    its own
 *
 * INSTANTIATE
 *   In exactly one C or C++ file:
 *       #define PERFDATA_IMPLEMENTATION
 *       #include "perfdata.h"
 *   Everywhere else just #include "perfdata.h".
 *
 * QUICK START (examples/quickstart.c: pid, tid, time, ip and callchain of
 * every sample)
 *
 *   #define PERFDATA_IMPLEMENTATION
 *   #include "perfdata.h"
 *   #include <stdio.h>
 *
 *   static unsigned char buf[256 << 20];   // the file, read whole
 *   static perfdata_event events[512];     // one per event (attr)
 *
 *   int main(int argc, char **argv) {
 *       perfdata_file f; perfdata_cursor cur; perfdata_record rec; perfdata_sample s; perfdata_error err;
 *       FILE *fp = argc > 1 ? fopen(argv[1], "rb") : NULL;
 *       size_t len = fp ? fread(buf, 1, sizeof buf, fp) : 0, i;
 *       if (fp) fclose(fp);
 *       if (perfdata_open(&f, buf, len, events, 512, &err) != PERFDATA_OK) {
 *           fprintf(stderr, "%s at offset 0x%llx\n", err.message, (unsigned long long)err.offset);
 *           return 1;
 *       }
 *       perfdata_cursor_init(&f, &cur);
 *       while (perfdata_next_record(&f, &cur, &rec, &err) == PERFDATA_OK) {
 *           if (rec.type != PERFDATA_RECORD_SAMPLE || perfdata_decode_sample(&f, &rec, &s, &err) != PERFDATA_OK) continue;
 *           printf("pid %u tid %u time %llu ip 0x%llx\n", s.pid, s.tid, (unsigned long long)s.time, (unsigned long long)s.ip);
 *           for (i = 0; i < s.callchain.count; i++)
 *               printf("    0x%llx\n", (unsigned long long)perfdata_u64s_at(&s.callchain, i));
 *       }
 *       return err.code == PERFDATA_END ? 0 : 1;
 *   }
 *
 * CONFIGURATION MACROS
 *   PERFDATA_IMPLEMENTATION   in one file: emit the implementation.
 *   PERFDATA_STATIC           (before every include) make every function static,
 *                             for private use in one translation unit.
 *   PERFDATA_API              (global) decoration of the public functions.
 *   PERFDATA_NO_ERROR_STRINGS (in the implementing file) drop the message
 *                             texts; perfdata_error.message is then "".
 *   PERFDATA_WRITER_PIPE_ONLY (in the implementing file) a writer for pipe
 *                             mode only, smaller: file mode is refused
 *                             (PERFDATA_ERR_UNSUPPORTED), its code left out.
 *   PERFDATA_ZSTD             (before every include) add the built-in zstd
 *                             decoder (perfdata_zstd_*, the part "zstd:"
 *                             after the compressed data declarations, usable
 *                             on its own), for `perf record -z` files
 *                             (examples/compressed.c). Without it the
 *                             header has no zstd code; perfdata_inflate
 *                             still works with any decompressor callback.
 *
 * MEMORY
 *   Nothing is allocated. perfdata_reader asks for what it needs while it
 *   reads (PERFDATA_NEED_MEMORY: err.detail the pool, err.needed the bytes)
 *   and hands it back when done. The layers below it take memory as
 *   arguments; when it is too small they return PERFDATA_NEED_MEMORY the
 *   same way, and the call can be made again after growing it.
 *   The caller owns:
 *   - the file bytes (read-only; never written, may be unaligned, may be flash);
 *   - perfdata_file and perfdata_cursor (plain structs, put them anywhere);
 *   - an array of perfdata_event, one per event (attr) in the file. How many a
 *     buffer needs: perfdata_count_events(). perfdata_open() fails with
 *     PERFDATA_NEED_MEMORY (err.needed in bytes) when it is too small.
 *     In pipe mode the events arrive as records while iterating; a record that
 *     does not fit gives PERFDATA_NEED_MEMORY from perfdata_next_record().
 *   - for compressed data (perf record -z): perfdata_inflate's output buffer,
 *     sized by perfdata_inflate_measure() from the COMPRESSED feature (one
 *     chunk's records plus a partial one), and for the built-in decoder a
 *     perfdata_zstd_dctx (~280 KiB) and a window buffer of the size
 *     perfdata_zstd_window_buffer_size(first_chunk.p, first_chunk.n, &size,
 *     &err) gives: the first frame's window plus up to 128 KiB and 32 bytes
 *     (windows up to PERFDATA_ZSTD_WINDOW_SIZE_MAX). A later frame whose
 *     window does not fit fails with PERFDATA_ERR_LIMIT, err.needed = the
 *     size it needs. The one-shot perfdata_zstd_decompress() needs no window
 *     buffer, only a workspace of PERFDATA_ZSTD_WORKSPACE_SIZE bytes.
 *   - optionally an id index (perfdata_id_entry[]) that makes "which event does
 *     this record belong to" a binary search instead of a scan over every id:
 *     perfdata_id_index_needed() says how many entries; perfdata_set_id_index()
 *     installs it. Without one, lookups still work, by a linear scan. In pipe
 *     mode events keep arriving: an index with room for twice the ids takes
 *     each new event's ids in O(log n) time per id; out of room, lookups fall
 *     back to the scan until a larger index is installed.
 *
 * ERRORS
 *   Every fallible call returns a perfdata_status (PERFDATA_OK is 0) and fills
 *   an optional perfdata_error: the code, the file offset of the fault, the
 *   record type or feature id involved, the bytes needed (NEED_MEMORY) and a
 *   static message. Codes are stable. A record whose framing is sane but whose
 *   body is malformed gives an error from its decoder; iteration goes on. A
 *   record size below 8, or one running past the end, ends iteration with an
 *   error (never a loop). perfdata_next_record() returns PERFDATA_END at the end.
 *   A cut file (`head -c N perf.data`, a copy interrupted) is read as far as
 *   it goes, as perf reads it. When the buffer ends inside the data section,
 *   the feature index or a feature section, perfdata_open() succeeds and sets
 *   PERFDATA_FILE_CUT (data.size is clamped, data_missing says how much is
 *   gone); the cursor yields every whole record before the cut, then returns
 *   PERFDATA_ERR_TRUNCATED with err.offset = the cut and err.needed = the
 *   bytes of the data section missing, also when the cut falls between two
 *   records; a feature cut off gives ERR_TRUNCATED. A cut inside the file
 *   header, the attr table or the id arrays fails perfdata_open() with
 *   ERR_TRUNCATED (err.offset = the cut, err.needed = the bytes missing):
 *   perf refuses such a file too, and writes all of them before the data, so
 *   no record is lost. A section outside the buffer that no cut explains
 *   (not where perf puts it, or whose end overflows) is ERR_MALFORMED.
 *
 * HOSTILE INPUT
 *   Every function takes time O(n log n) at worst in the size of its input,
 *   given the memory it asks for (with no id index, finding a record's event
 *   is a scan of every id), and never asks for memory by an unbounded sum of
 *   file values. Decompression is bounded by default: records inside
 *   compressed chunks may expand at most PERFDATA_INFLATE_MAX_RATIO times
 *   (perfdata_inflate_set_max_ratio), past which the chunk stream stops with
 *   PERFDATA_ERR_LIMIT. The reorder queue takes the memory the caller gives
 *   it; perfdata_ordered_flush() releases it early when no more is to be had.
 *
 * BYTE ORDER
 *   Files of either byte order are read on hosts of either byte order, 32- or
 *   64-bit: every value is assembled from bytes in the file's order as it is
 *   read. The caller's buffer is never written. All decoded values are in host
 *   order. Exceptions, as in the kernel ABI: strings and build ids are bytes;
 *   RAW sample payloads and user stack dumps are exposed as the bytes the
 *   writing machine produced (perfdata_sample.raw_big_endian says which order).
 *   The attr flag bit-field is normalised to the little-endian bit numbering
 *   (PERFDATA_ATTR_FLAG_*), including precise_ip of big-endian files, which
 *   perf 6.1 gets wrong.
 *
 * SUPPORTED
 *   File mode (PERFILE2, attr sizes 64..any, larger ones read up to what is
 *   known), pipe mode, every kernel record type 1..22 and perf tool record
 *   type 64..86, every PERF_SAMPLE_* field, every read_format, sample_id_all
 *   trailers, id->event mapping as perf does it, the feature bitmap and
 *   section table. Unknown record types are yielded raw.
 *   Every feature section (perfdata_decode_feat_*), from the file's section
 *   table or a pipe's HEADER_FEATURE records, and event names as perf shows
 *   them. Records inside COMPRESSED/COMPRESSED2 chunks (perfdata_inflate),
 *   with a built-in zstd decoder (PERFDATA_ZSTD) or any other.
 *   TRACING_DATA (versions 0.5 and 0.6, either byte order): every tracepoint
 *   format, its fields, and each field's bytes and integers in RAW samples.
 * NOT SUPPORTED (yet)
 *   The version 1 'PERFFILE' magic (clear PERFDATA_ERR_UNSUPPORTED);
 *   evaluating a tracepoint's print fmt; kallsyms and printk formats of
 *   TRACING_DATA beyond their text (views); BPF_PROG_INFO contents beyond
 *   their framing (views); zstd frames that need a dictionary (perf never
 *   writes them).
 *
 * THREAD SAFETY
 *   No globals. A perfdata_file is only written by perfdata_open(),
 *   perfdata_set_id_index() and by perfdata_next_record() when it registers a
 *   pipe-mode attr; otherwise any number of threads may decode concurrently.
 *
 * LICENSE
 *   MIT, see the end of this file.
 *
 */
#ifndef PERFDATA_H
#define PERFDATA_H

#include <stddef.h>
#include <stdint.h>

#define PERFDATA_VERSION_MAJOR 0
#define PERFDATA_VERSION_MINOR 2
#define PERFDATA_VERSION_PATCH 0
#define PERFDATA_VERSION_STRING "0.2.0"

#ifndef PERFDATA_API
#ifdef PERFDATA_STATIC
#if defined(__GNUC__) || defined(__clang__)
#define PERFDATA_API static __attribute__((unused))
#else
#define PERFDATA_API static
#endif
#else
#define PERFDATA_API extern
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- errors */

/* Append-only: the numbers are part of the ABI. */
#define PERFDATA__STATUS_LIST(X)                                              \
    X(OK, 0, "ok")                                                            \
    X(END, 1, "end of records")                                               \
    X(ERR_TRUNCATED, 2, "truncated: the data ends inside a structure")        \
    X(ERR_MALFORMED, 3, "malformed")                                          \
    X(ERR_UNSUPPORTED, 4, "unsupported format version")                       \
    X(ERR_NO_SPACE, 5, "a fixed-size output is too small")                   \
    X(ERR_BAD_ARGUMENT, 6, "bad argument")                                    \
    X(ERR_UNKNOWN_ID, 7, "the record's id matches no event")                 \
    X(ERR_LIMIT, 8, "a limit on the work an input may cause was reached")   \
    X(NEED_INPUT, 9, "more input is needed")                                  \
    X(NEED_MEMORY, 10, "more memory is needed")

typedef enum perfdata_status {
#define PERFDATA__ENUM(name, value, text) PERFDATA_##name = (value),
    PERFDATA__STATUS_LIST(PERFDATA__ENUM)
#undef PERFDATA__ENUM
    PERFDATA__STATUS_COUNT
} perfdata_status;

typedef struct perfdata_error {
    perfdata_status code;
    uint64_t offset;       /* file offset of the fault */
    uint32_t record_type;  /* record type involved, or 0 */
    uint32_t feature;      /* feature id involved, or 0 */
    uint64_t needed;       /* bytes: NEED_MEMORY, the size to give; TRUNCATED,
                              the bytes missing */
    const char *message;   /* static text, never NULL */
    int detail;            /* NEED_MEMORY: the perfdata_pool that ran out;
                              zstd errors: a PERFDATA_ZSTD_E_* code; else 0 */
    int final;             /* perfdata_reader_next: 1 when iteration ends
                              with this error (the next call returns
                              PERFDATA_END), 0 when it goes on */
} perfdata_error;

/* What ran out, for PERFDATA_NEED_MEMORY (err.detail). */
typedef enum perfdata_pool {
    PERFDATA_POOL_NONE = 0,
    PERFDATA_POOL_EVENTS = 1,  /* perfdata_event slots: one per attr */
    PERFDATA_POOL_IDS = 2,     /* the id index: perfdata_id_entry slots */
    PERFDATA_POOL_QUEUE = 3,   /* the reorder queue: perfdata_order_entry slots */
    PERFDATA_POOL_BUFFER = 4,  /* bytes: decompressed chunks, records kept for
                                  the reorder queue or spanning pushed pieces */
    PERFDATA_POOL_ZSTD = 5     /* the built-in zstd decoder and its window */
} perfdata_pool;

PERFDATA_API const char *perfdata_status_name(perfdata_status code);

/* ------------------------------------------------------------ byte views */

/* Every byte range the library hands out: pointer, length, file offset. */
typedef struct perfdata_view {
    const unsigned char *p;
    size_t n;
    uint64_t offset;
} perfdata_view;

/* A u64 array inside the file, swapped on read by perfdata_u64s_at(). */
typedef struct perfdata_u64s {
    perfdata_view bytes;
    size_t count;
    int big_endian;
} perfdata_u64s;

PERFDATA_API uint64_t perfdata_u64s_at(const perfdata_u64s *a, size_t i);

/* ------------------------------------------------------ kernel constants */
/* Record types: include/uapi/linux/perf_event.h (enum perf_event_type) and
   tools/lib/perf/include/perf/event.h (enum perf_user_event_type). */
#define PERFDATA_RECORD_MMAP 1
#define PERFDATA_RECORD_LOST 2
#define PERFDATA_RECORD_COMM 3
#define PERFDATA_RECORD_EXIT 4
#define PERFDATA_RECORD_THROTTLE 5
#define PERFDATA_RECORD_UNTHROTTLE 6
#define PERFDATA_RECORD_FORK 7
#define PERFDATA_RECORD_READ 8
#define PERFDATA_RECORD_SAMPLE 9
#define PERFDATA_RECORD_MMAP2 10
#define PERFDATA_RECORD_AUX 11
#define PERFDATA_RECORD_ITRACE_START 12
#define PERFDATA_RECORD_LOST_SAMPLES 13
#define PERFDATA_RECORD_SWITCH 14
#define PERFDATA_RECORD_SWITCH_CPU_WIDE 15
#define PERFDATA_RECORD_NAMESPACES 16
#define PERFDATA_RECORD_KSYMBOL 17
#define PERFDATA_RECORD_BPF_EVENT 18
#define PERFDATA_RECORD_CGROUP 19
#define PERFDATA_RECORD_TEXT_POKE 20
#define PERFDATA_RECORD_AUX_OUTPUT_HW_ID 21
#define PERFDATA_RECORD_CALLCHAIN_DEFERRED 22
#define PERFDATA_RECORD_HEADER_ATTR 64
#define PERFDATA_RECORD_HEADER_EVENT_TYPE 65
#define PERFDATA_RECORD_HEADER_TRACING_DATA 66
#define PERFDATA_RECORD_HEADER_BUILD_ID 67
#define PERFDATA_RECORD_FINISHED_ROUND 68
#define PERFDATA_RECORD_ID_INDEX 69
#define PERFDATA_RECORD_AUXTRACE_INFO 70
#define PERFDATA_RECORD_AUXTRACE 71
#define PERFDATA_RECORD_AUXTRACE_ERROR 72
#define PERFDATA_RECORD_THREAD_MAP 73
#define PERFDATA_RECORD_CPU_MAP 74
#define PERFDATA_RECORD_STAT_CONFIG 75
#define PERFDATA_RECORD_STAT 76
#define PERFDATA_RECORD_STAT_ROUND 77
#define PERFDATA_RECORD_EVENT_UPDATE 78
#define PERFDATA_RECORD_TIME_CONV 79
#define PERFDATA_RECORD_HEADER_FEATURE 80
#define PERFDATA_RECORD_COMPRESSED 81
#define PERFDATA_RECORD_FINISHED_INIT 82
#define PERFDATA_RECORD_COMPRESSED2 83
#define PERFDATA_RECORD_BPF_METADATA 84
#define PERFDATA_RECORD_SCHEDSTAT_CPU 85
#define PERFDATA_RECORD_SCHEDSTAT_DOMAIN 86

/* header.misc bits (perf_event.h PERF_RECORD_MISC_*) */
#define PERFDATA_MISC_CPUMODE_MASK 0x7u
#define PERFDATA_MISC_CPUMODE_UNKNOWN 0u
#define PERFDATA_MISC_KERNEL 1u
#define PERFDATA_MISC_USER 2u
#define PERFDATA_MISC_HYPERVISOR 3u
#define PERFDATA_MISC_GUEST_KERNEL 4u
#define PERFDATA_MISC_GUEST_USER 5u
#define PERFDATA_MISC_PROC_MAP_PARSE_TIMEOUT (1u << 12)
#define PERFDATA_MISC_MMAP_DATA (1u << 13)
#define PERFDATA_MISC_COMM_EXEC (1u << 13)
#define PERFDATA_MISC_FORK_EXEC (1u << 13)
#define PERFDATA_MISC_SWITCH_OUT (1u << 13)
#define PERFDATA_MISC_EXACT_IP (1u << 14)
#define PERFDATA_MISC_SWITCH_OUT_PREEMPT (1u << 14)
#define PERFDATA_MISC_MMAP_BUILD_ID (1u << 14)
#define PERFDATA_MISC_EXT_RESERVED (1u << 15)
#define PERFDATA_MISC_BUILD_ID_SIZE (1u << 15) /* in HEADER_BUILD_ID */

/* Sample fields (enum perf_event_sample_format), in bit order. */
#define PERFDATA_SAMPLE_IP (1ull << 0)
#define PERFDATA_SAMPLE_TID (1ull << 1)
#define PERFDATA_SAMPLE_TIME (1ull << 2)
#define PERFDATA_SAMPLE_ADDR (1ull << 3)
#define PERFDATA_SAMPLE_READ (1ull << 4)
#define PERFDATA_SAMPLE_CALLCHAIN (1ull << 5)
#define PERFDATA_SAMPLE_ID (1ull << 6)
#define PERFDATA_SAMPLE_CPU (1ull << 7)
#define PERFDATA_SAMPLE_PERIOD (1ull << 8)
#define PERFDATA_SAMPLE_STREAM_ID (1ull << 9)
#define PERFDATA_SAMPLE_RAW (1ull << 10)
#define PERFDATA_SAMPLE_BRANCH_STACK (1ull << 11)
#define PERFDATA_SAMPLE_REGS_USER (1ull << 12)
#define PERFDATA_SAMPLE_STACK_USER (1ull << 13)
#define PERFDATA_SAMPLE_WEIGHT (1ull << 14)
#define PERFDATA_SAMPLE_DATA_SRC (1ull << 15)
#define PERFDATA_SAMPLE_IDENTIFIER (1ull << 16)
#define PERFDATA_SAMPLE_TRANSACTION (1ull << 17)
#define PERFDATA_SAMPLE_REGS_INTR (1ull << 18)
#define PERFDATA_SAMPLE_PHYS_ADDR (1ull << 19)
#define PERFDATA_SAMPLE_AUX (1ull << 20)
#define PERFDATA_SAMPLE_CGROUP (1ull << 21)
#define PERFDATA_SAMPLE_DATA_PAGE_SIZE (1ull << 22)
#define PERFDATA_SAMPLE_CODE_PAGE_SIZE (1ull << 23)
#define PERFDATA_SAMPLE_WEIGHT_STRUCT (1ull << 24)

/* read_format (enum perf_event_read_format) */
#define PERFDATA_FORMAT_TOTAL_TIME_ENABLED (1ull << 0)
#define PERFDATA_FORMAT_TOTAL_TIME_RUNNING (1ull << 1)
#define PERFDATA_FORMAT_ID (1ull << 2)
#define PERFDATA_FORMAT_GROUP (1ull << 3)
#define PERFDATA_FORMAT_LOST (1ull << 4)

/* branch_sample_type bits the sample layout depends on */
#define PERFDATA_BRANCH_CALL_STACK (1ull << 11)
#define PERFDATA_BRANCH_HW_INDEX (1ull << 17)
#define PERFDATA_BRANCH_COUNTERS (1ull << 19)

/* sample_regs ABI (enum perf_sample_regs_abi) */
#define PERFDATA_REGS_ABI_NONE 0
#define PERFDATA_REGS_ABI_32 1
#define PERFDATA_REGS_ABI_64 2

/* Callchain context markers (enum perf_callchain_context) */
#define PERFDATA_CONTEXT_HV ((uint64_t)-32)
#define PERFDATA_CONTEXT_KERNEL ((uint64_t)-128)
#define PERFDATA_CONTEXT_USER ((uint64_t)-512)
#define PERFDATA_CONTEXT_USER_DEFERRED ((uint64_t)-640)
#define PERFDATA_CONTEXT_GUEST ((uint64_t)-2048)
#define PERFDATA_CONTEXT_GUEST_KERNEL ((uint64_t)-2176)
#define PERFDATA_CONTEXT_GUEST_USER ((uint64_t)-2560)
#define PERFDATA_CONTEXT_MAX ((uint64_t)-4095)

/* perf_event_attr flag bits, numbered as on a little-endian host. The
   decoder normalises big-endian files to this numbering. */
#define PERFDATA_ATTR_FLAG_DISABLED (1ull << 0)
#define PERFDATA_ATTR_FLAG_INHERIT (1ull << 1)
#define PERFDATA_ATTR_FLAG_PINNED (1ull << 2)
#define PERFDATA_ATTR_FLAG_EXCLUSIVE (1ull << 3)
#define PERFDATA_ATTR_FLAG_EXCLUDE_USER (1ull << 4)
#define PERFDATA_ATTR_FLAG_EXCLUDE_KERNEL (1ull << 5)
#define PERFDATA_ATTR_FLAG_EXCLUDE_HV (1ull << 6)
#define PERFDATA_ATTR_FLAG_EXCLUDE_IDLE (1ull << 7)
#define PERFDATA_ATTR_FLAG_MMAP (1ull << 8)
#define PERFDATA_ATTR_FLAG_COMM (1ull << 9)
#define PERFDATA_ATTR_FLAG_FREQ (1ull << 10)
#define PERFDATA_ATTR_FLAG_INHERIT_STAT (1ull << 11)
#define PERFDATA_ATTR_FLAG_ENABLE_ON_EXEC (1ull << 12)
#define PERFDATA_ATTR_FLAG_TASK (1ull << 13)
#define PERFDATA_ATTR_FLAG_WATERMARK (1ull << 14)
#define PERFDATA_ATTR_PRECISE_IP_SHIFT 15 /* 2 bits */
#define PERFDATA_ATTR_FLAG_MMAP_DATA (1ull << 17)
#define PERFDATA_ATTR_FLAG_SAMPLE_ID_ALL (1ull << 18)
#define PERFDATA_ATTR_FLAG_EXCLUDE_HOST (1ull << 19)
#define PERFDATA_ATTR_FLAG_EXCLUDE_GUEST (1ull << 20)
#define PERFDATA_ATTR_FLAG_EXCLUDE_CALLCHAIN_KERNEL (1ull << 21)
#define PERFDATA_ATTR_FLAG_EXCLUDE_CALLCHAIN_USER (1ull << 22)
#define PERFDATA_ATTR_FLAG_MMAP2 (1ull << 23)
#define PERFDATA_ATTR_FLAG_COMM_EXEC (1ull << 24)
#define PERFDATA_ATTR_FLAG_USE_CLOCKID (1ull << 25)
#define PERFDATA_ATTR_FLAG_CONTEXT_SWITCH (1ull << 26)
#define PERFDATA_ATTR_FLAG_WRITE_BACKWARD (1ull << 27)
#define PERFDATA_ATTR_FLAG_NAMESPACES (1ull << 28)
#define PERFDATA_ATTR_FLAG_KSYMBOL (1ull << 29)
#define PERFDATA_ATTR_FLAG_BPF_EVENT (1ull << 30)
#define PERFDATA_ATTR_FLAG_AUX_OUTPUT (1ull << 31)
#define PERFDATA_ATTR_FLAG_CGROUP (1ull << 32)
#define PERFDATA_ATTR_FLAG_TEXT_POKE (1ull << 33)
#define PERFDATA_ATTR_FLAG_BUILD_ID (1ull << 34)
#define PERFDATA_ATTR_FLAG_INHERIT_THREAD (1ull << 35)
#define PERFDATA_ATTR_FLAG_REMOVE_ON_EXEC (1ull << 36)
#define PERFDATA_ATTR_FLAG_SIGTRAP (1ull << 37)
#define PERFDATA_ATTR_FLAG_DEFER_CALLCHAIN (1ull << 38)
#define PERFDATA_ATTR_FLAG_DEFER_OUTPUT (1ull << 39)

/* attr sizes (PERF_ATTR_SIZE_VER*) */
#define PERFDATA_ATTR_SIZE_VER0 64
#define PERFDATA_ATTR_SIZE_VER1 72
#define PERFDATA_ATTR_SIZE_VER2 80
#define PERFDATA_ATTR_SIZE_VER3 96
#define PERFDATA_ATTR_SIZE_VER4 104
#define PERFDATA_ATTR_SIZE_VER5 112
#define PERFDATA_ATTR_SIZE_VER6 120
#define PERFDATA_ATTR_SIZE_VER7 128
#define PERFDATA_ATTR_SIZE_VER8 136
#define PERFDATA_ATTR_SIZE_VER9 144

/* Feature ids (tools/perf/util/header.h, HEADER_*) */
#define PERFDATA_FEAT_RESERVED 0
#define PERFDATA_FEAT_TRACING_DATA 1
#define PERFDATA_FEAT_BUILD_ID 2
#define PERFDATA_FEAT_HOSTNAME 3
#define PERFDATA_FEAT_OSRELEASE 4
#define PERFDATA_FEAT_VERSION 5
#define PERFDATA_FEAT_ARCH 6
#define PERFDATA_FEAT_NRCPUS 7
#define PERFDATA_FEAT_CPUDESC 8
#define PERFDATA_FEAT_CPUID 9
#define PERFDATA_FEAT_TOTAL_MEM 10
#define PERFDATA_FEAT_CMDLINE 11
#define PERFDATA_FEAT_EVENT_DESC 12
#define PERFDATA_FEAT_CPU_TOPOLOGY 13
#define PERFDATA_FEAT_NUMA_TOPOLOGY 14
#define PERFDATA_FEAT_BRANCH_STACK 15
#define PERFDATA_FEAT_PMU_MAPPINGS 16
#define PERFDATA_FEAT_GROUP_DESC 17
#define PERFDATA_FEAT_AUXTRACE 18
#define PERFDATA_FEAT_STAT 19
#define PERFDATA_FEAT_CACHE 20
#define PERFDATA_FEAT_SAMPLE_TIME 21
#define PERFDATA_FEAT_MEM_TOPOLOGY 22
#define PERFDATA_FEAT_CLOCKID 23
#define PERFDATA_FEAT_DIR_FORMAT 24
#define PERFDATA_FEAT_BPF_PROG_INFO 25
#define PERFDATA_FEAT_BPF_BTF 26
#define PERFDATA_FEAT_COMPRESSED 27
#define PERFDATA_FEAT_CPU_PMU_CAPS 28
#define PERFDATA_FEAT_CLOCK_DATA 29
#define PERFDATA_FEAT_HYBRID_TOPOLOGY 30
#define PERFDATA_FEAT_PMU_CAPS 31
#define PERFDATA_FEAT_CPU_DOMAIN_INFO 32
#define PERFDATA_FEAT_E_MACHINE 33
#define PERFDATA_FEAT_CLN_SIZE 34
#define PERFDATA_FEAT_BITS 256

/* ------------------------------------------------------------ attributes */

/* perf_event_attr in host order. Fields beyond attr.size are 0. */
typedef struct perfdata_attr {
    uint32_t type;
    uint32_t size;               /* as written; 0 in the file means VER0 */
    uint64_t config;
    uint64_t sample_period;      /* or sample_freq when FLAG_FREQ */
    uint64_t sample_type;
    uint64_t read_format;
    uint64_t flags;              /* PERFDATA_ATTR_FLAG_*, normalised */
    uint32_t wakeup_events;      /* or wakeup_watermark */
    uint32_t bp_type;
    uint64_t config1;            /* or bp_addr, kprobe_func, uprobe_path */
    uint64_t config2;            /* or bp_len, kprobe_addr, probe_offset */
    uint64_t branch_sample_type;
    uint64_t sample_regs_user;
    uint32_t sample_stack_user;
    int32_t clockid;
    uint64_t sample_regs_intr;
    uint32_t aux_watermark;
    uint16_t sample_max_stack;
    uint16_t reserved_2;
    uint32_t aux_sample_size;
    uint32_t aux_action;
    uint64_t sig_data;
    uint64_t config3;
    uint64_t config4;
} perfdata_attr;

/* The 2-bit precise_ip field of attr.flags. */
#define perfdata_attr_precise_ip(a) ((unsigned)(((a)->flags >> PERFDATA_ATTR_PRECISE_IP_SHIFT) & 3u))

/* One event of the file: its attr and the sample ids the kernel gave it. */
typedef struct perfdata_event {
    perfdata_attr attr;
    perfdata_view attr_bytes;  /* the attr as stored in the file */
    perfdata_u64s ids;
    uint64_t sample_id_size;   /* bytes of the sample_id_all trailer, 0 if none */
    perfdata_view name;        /* from EVENT_DESC or an EVENT_UPDATE record;
                                  empty if neither named it (see
                                  perfdata_event_name) */
} perfdata_event;

/* One entry of the caller-supplied id index. */
typedef struct perfdata_id_entry {
    uint64_t id;
    uint32_t event;   /* index into perfdata_file.events */
    uint32_t unused;
} perfdata_id_entry;

/* ------------------------------------------------------------------ file */

typedef struct perfdata_section {
    uint64_t offset;
    uint64_t size;
} perfdata_section;

#define PERFDATA_FILE_PIPE 1u             /* pipe-mode stream */
#define PERFDATA_FILE_BIG_ENDIAN 2u       /* written by a big-endian host */
#define PERFDATA_FILE_DATA_SIZE_ZERO 4u   /* header says data size 0: perf was
                                             interrupted; like perf 6.1 the
                                             cursor yields no records */
#define PERFDATA_FILE_IDS_AMBIGUOUS 8u    /* several events whose id positions
                                             differ; records go to event 0 */
#define PERFDATA_FILE_CUT 16u             /* the buffer ends before the data
                                             section, the feature index or a
                                             feature section does (a copy
                                             interrupted): data.size is
                                             clamped to what is there, the
                                             cursor yields the whole records
                                             and ends with ERR_TRUNCATED */

typedef struct perfdata_file {
    perfdata_view buffer;
    unsigned flags;                 /* PERFDATA_FILE_* */
    uint64_t header_size;           /* 104 (or 72), 16 in pipe mode */
    uint64_t attr_size;             /* header's attr_size */
    perfdata_section attrs;
    perfdata_section data;          /* clamped to the buffer in a cut file */
    uint64_t data_missing;          /* PERFDATA_FILE_CUT: bytes of the data
                                       section the header declares past the
                                       end of the buffer (the declared size
                                       is data.size + data_missing), else 0 */
    perfdata_section event_types;
    uint64_t features[4];           /* feature bitmap, host order */
    perfdata_view feature_index;    /* {offset,size} per set bit */
    perfdata_event *events;         /* events[0 .. nr_events) */
    size_t nr_events;
    struct {                        /* private: do not use */
        size_t cap_events;
        perfdata_id_entry *id_index; /* sorted runs of (id, event), or NULL */
        size_t nr_ids;
        size_t cap_ids;
        size_t sorted_ids;           /* the first run's length */
        perfdata_view names_pending; /* EVENT_DESC entries that wait for the id index */
        int id_pos;                  /* u64 index of ID in a SAMPLE, -1 none */
        int is_pos;                  /* u64 index of ID from a trailer's end */
        uint64_t sample_type_union;  /* OR of every event's sample_type */
    } priv;
} perfdata_file;

/* Opens a perf.data image (file or pipe mode). `events` may be NULL when
   `cap_events` is 0 (then only framing is available). */
PERFDATA_API perfdata_status perfdata_open(perfdata_file *f, const void *data, size_t size,
                                           perfdata_event *events, size_t cap_events,
                                           perfdata_error *err);

/* How many perfdata_event a file needs: the attr count in file mode, the
   number of HEADER_ATTR records in pipe mode (walks the stream). */
PERFDATA_API perfdata_status perfdata_count_events(const void *data, size_t size, size_t *count,
                                                   perfdata_error *err);

/* Feature bitmap and sections (file mode). */
PERFDATA_API int perfdata_has_feature(const perfdata_file *f, unsigned feature);
/* The section of a present feature. ERR_TRUNCATED: the feature index slot
   or (in a PERFDATA_FILE_CUT file) the section is cut off, err.needed = the
   bytes past the end of the buffer; ERR_MALFORMED: the section lies outside
   a file that is not cut (then section->offset still holds the offset the
   index gives, n is 0). */
PERFDATA_API perfdata_status perfdata_feature_section(const perfdata_file *f, unsigned feature,
                                                      perfdata_view *section, perfdata_error *err);
/* A string feature (HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID):
   the bytes before the first NUL. */
PERFDATA_API perfdata_status perfdata_feature_string(const perfdata_file *f, unsigned feature,
                                                     perfdata_view *text, perfdata_error *err);

/* The optional id index. */
PERFDATA_API size_t perfdata_id_index_needed(const perfdata_file *f);
PERFDATA_API perfdata_status perfdata_set_id_index(perfdata_file *f, perfdata_id_entry *entries,
                                                   size_t cap, perfdata_error *err);
/* The event an id belongs to, or -1. An event is a `long` index into
   f->events wherever the API takes or gives one, -1 meaning none. */
PERFDATA_API long perfdata_find_event(const perfdata_file *f, uint64_t id);

/* Decodes an attr stored at `bytes` (attr.size, then as much as it says). */
PERFDATA_API perfdata_status perfdata_decode_attr(perfdata_view bytes, int big_endian,
                                                  perfdata_attr *attr, perfdata_error *err);

/* --------------------------------------------------------------- records */

typedef struct perfdata_record {
    uint32_t type;
    uint16_t misc;
    uint16_t size;          /* header.size: bytes of header and body */
    uint64_t offset;        /* file offset of the header */
    perfdata_view bytes;    /* the whole record, header included */
    perfdata_view body;     /* the bytes after the 8-byte header */
    perfdata_view extra;    /* bytes after the record that header.size does
                               not count (TRACING_DATA, AUXTRACE), else empty */
    int big_endian;
    uint32_t stream;        /* which input: 0 the file's data section or the
                               pipe, k+1 the k-th stream given to
                               perfdata_reader_set_streams() */
} perfdata_record;

typedef struct perfdata_cursor {
    struct {                /* private: do not use */
        perfdata_view range;    /* records to walk */
        size_t pos;
        int big_endian;
        int register_attrs;     /* add HEADER_ATTR records to the file's events */
        int update_events;      /* apply EVENT_UPDATE names and pipe EVENT_DESC */
        perfdata_status stopped; /* OK while walking, else END or the error */
        perfdata_error error;
        uint64_t missing;       /* bytes known to be cut off after the range */
        uint32_t stream;        /* perfdata_record.stream of its records */
    } priv;
} perfdata_cursor;

/* The data section of a file, or the stream of a pipe. */
PERFDATA_API void perfdata_cursor_init(perfdata_file *f, perfdata_cursor *c);
/* Any byte range of records (a decompressed chunk, a data.N stream of a
   --threads directory); `offset` is the file offset reported for bytes[0]. */
PERFDATA_API void perfdata_cursor_init_range(perfdata_cursor *c, const void *bytes, size_t n,
                                             uint64_t offset, int big_endian);
PERFDATA_API perfdata_status perfdata_next_record(perfdata_file *f, perfdata_cursor *c,
                                                  perfdata_record *rec, perfdata_error *err);
/* Registers a HEADER_ATTR record as an event (done by the cursor in pipe mode). */
PERFDATA_API perfdata_status perfdata_add_event(perfdata_file *f, const perfdata_record *rec,
                                                perfdata_error *err);

PERFDATA_API const char *perfdata_record_name(uint32_t type);

/* The name perf shows for event `event`, NUL-terminated in buf (truncated
   to len-1): the EVENT_DESC name, overridden by EVENT_UPDATE NAME records
   the file's cursor has passed, else built from type and config with perf's
   modifiers (e.g. "cycles:u", "cpu-clock:ppp", "L1-dcache-load-misses",
   "r1234", "mem:0x1000:rw"). Returns buf. */
PERFDATA_API const char *perfdata_event_name(const perfdata_file *f, long event, char *buf, size_t len);

/* The event a record belongs to (perf's rules: IDENTIFIER, else the ID
   position shared by every event, else the only event). Returns the event
   index, or -1 with err set. */
PERFDATA_API long perfdata_record_event(const perfdata_file *f, const perfdata_record *rec,
                                        perfdata_error *err);

/* ------------------------------------------------------------ time order */
/* Records in the order perf delivers them (ordered_events.c): perf tool
   records (type 64+) and records without a timestamp as they come; the
   others queued and released in time order, equal times in file order, up
   to the previous round's highest time at each FINISHED_ROUND, and all at
   the end. The queue lives in caller memory: perfdata_ordered_window_hint()
   gives a size that suffices for files whose records are at most one round
   out of order (perf's own assumption); if a round needs more,
   perfdata_ordered_next() returns PERFDATA_NEED_MEMORY (err.needed = the
   bytes now needed), nothing is lost, and after perfdata_ordered_grow() the
   same call can be made again. An error that ends the cursor (a cut file's
   ERR_TRUNCATED) is returned after the queued records have been released. */
/* Where a layer takes its records from, instead of perfdata_next_record()
   on a cursor: returns like perfdata_next_record() (also NEED_INPUT or
   NEED_MEMORY, passed on to the caller untouched); `c` is the layer's
   cursor (may be NULL). */
typedef perfdata_status (*perfdata_record_source)(void *user, perfdata_file *f, perfdata_cursor *c,
                                                  perfdata_record *rec, perfdata_error *err);

typedef struct perfdata_order_entry {
    uint64_t time;
    uint64_t seq;                 /* arrival order, breaks ties */
    /* the record, kept small; it is rebuilt from its header bytes when it
       leaves the queue */
    const unsigned char *bytes;
    uint64_t offset;              /* perfdata_record.offset */
    uint64_t bytes_offset;        /* file offset of bytes (differs inside a chunk) */
    size_t extra;                 /* perfdata_record.extra.n */
    uint32_t stream;              /* perfdata_record.stream */
    int big_endian;
    size_t next;                  /* the next entry of its run, or the next free slot */
    size_t run;                   /* slot i of the heap of runs: a run's first entry */
} perfdata_order_entry;

typedef struct perfdata_ordered {
    struct {                      /* private: do not use */
        perfdata_cursor *cursor;
        perfdata_order_entry *queue;  /* runs in (time, seq) order, merged by a heap */
        size_t nr, cap;
        size_t fresh;                 /* slots from here on never used */
        size_t free_slot;             /* a list of slots used and given back */
        size_t runs;                  /* runs in the heap */
        size_t last;                  /* the last entry of the run queued to last */
        uint64_t seq;
        uint64_t max_time;            /* highest time queued since the queue was last empty */
        uint64_t last_time;           /* the time of the record queued last */
        uint64_t next_flush;          /* release up to this time at the next round */
        uint64_t flush_limit;         /* the release in progress */
        int flushing;                 /* 1: releasing up to flush_limit; 2: releasing all */
        int draining;                 /* the cursor has ended */
        perfdata_record held;         /* a record read but not queued for lack of room */
        int have_held;
        perfdata_error final;     /* the error that ended the source, returned after the queue */
        int have_final;
        perfdata_record_source source; /* perfdata_ordered_set_source */
        void *source_user;
        int hold_end;                 /* perfdata_ordered_set_cursor's more_follow */
    } priv;
} perfdata_ordered;

PERFDATA_API void perfdata_ordered_init(perfdata_ordered *o, perfdata_cursor *c, perfdata_order_entry *window, size_t cap);
/* Records from `source` (e.g. perfdata_inflate_next through a small
   wrapper) instead of the cursor. An error the source returns with
   err->final set ends the walk after the queued records. */
PERFDATA_API void perfdata_ordered_set_source(perfdata_ordered *o, perfdata_record_source source, void *user);
/* Continue with another cursor (the next data.N of a --threads directory).
   more_follow: at this cursor's end return PERFDATA_END without releasing
   the queue, so that yet another can be attached; 0 for the last one. */
PERFDATA_API void perfdata_ordered_set_cursor(perfdata_ordered *o, perfdata_cursor *c, int more_follow);
/* How many records wait in the queue. */
PERFDATA_API size_t perfdata_ordered_queued(const perfdata_ordered *o);
PERFDATA_API perfdata_status perfdata_ordered_next(perfdata_file *f, perfdata_ordered *o, perfdata_record *rec,
                                                   perfdata_error *err);
/* An early release, as perf's ordered_events__flush: PERFDATA_FLUSH_HALF
   releases the records up to the time halfway between the earliest queued
   and the one queued last (OE_FLUSH__HALF: what perf does when its queue
   reaches its memory bound, and like perf it makes the next round release
   up to that time); PERFDATA_FLUSH_ALL releases every queued record. The
   next perfdata_ordered_next() calls return them before reading on. A
   record that comes later with an earlier time is delivered after them,
   out of order, as in perf. Nothing happens on an empty queue. */
typedef enum perfdata_flush { PERFDATA_FLUSH_HALF = 1, PERFDATA_FLUSH_ALL = 2 } perfdata_flush;
PERFDATA_API void perfdata_ordered_flush(perfdata_ordered *o, perfdata_flush how);
/* Moves the queue into a larger window (cap >= o->nr). */
PERFDATA_API perfdata_status perfdata_ordered_grow(perfdata_ordered *o, perfdata_order_entry *window, size_t cap,
                                                   perfdata_error *err);
/* Window entries that suffice when no record is more than one round out of
   order: the most timestamped kernel records in two consecutive rounds. */
PERFDATA_API size_t perfdata_ordered_window_hint(perfdata_file *f);
/* The time perf orders a record by, or 0 when it has none (delivered as read).
   Of a sample only the fields up to its time are read, as perf does
   (evsel__parse_sample_timestamp): a sample broken further on still has a
   time; decoding it reports the damage. */
PERFDATA_API uint64_t perfdata_record_time(const perfdata_file *f, const perfdata_record *rec);

/* ----------------------------------------------------------------- sample */

typedef struct perfdata_read_value {
    uint64_t value;
    uint64_t id;
    uint64_t lost;
} perfdata_read_value;

typedef struct perfdata_read {
    uint64_t read_format;
    uint64_t nr;              /* values: group members, or 1 */
    uint64_t time_enabled;
    uint64_t time_running;
    perfdata_view values;     /* GROUP: nr entries of value[,id][,lost] */
    perfdata_read_value single; /* without GROUP: the one value */
    int big_endian;
} perfdata_read;

PERFDATA_API perfdata_read_value perfdata_read_at(const perfdata_read *r, size_t i);

typedef struct perfdata_branch_entry {
    uint64_t from;
    uint64_t to;
    uint64_t flags;           /* normalised to the little-endian bit layout */
    unsigned mispred, predicted, in_tx, abort, cycles, type, spec, new_type;
    unsigned privilege;       /* the kernel's priv bits: PERF_BR_PRIV_* */
} perfdata_branch_entry;

typedef struct perfdata_branch_stack {
    uint64_t nr;
    uint64_t hw_idx;          /* valid when has_hw_idx */
    int has_hw_idx;
    perfdata_view entries;    /* nr * 24 bytes */
    perfdata_u64s counters;   /* nr values when BRANCH_COUNTERS, else empty */
    int big_endian;
} perfdata_branch_stack;

PERFDATA_API perfdata_branch_entry perfdata_branch_at(const perfdata_branch_stack *b, size_t i);

typedef struct perfdata_regs {
    uint64_t abi;             /* PERFDATA_REGS_ABI_*; 0 means no registers */
    uint64_t mask;            /* attr's sample_regs_user or _intr */
    perfdata_u64s values;     /* one per set mask bit, lowest bit first */
} perfdata_regs;

/* Value of register number `reg` (a mask bit); 0 if absent (*found = 0). */
PERFDATA_API uint64_t perfdata_regs_get(const perfdata_regs *r, unsigned reg, int *found);

typedef struct perfdata_sample {
    uint64_t sample_type;     /* the fields present */
    long event;               /* index into file->events */
    uint64_t identifier;
    uint64_t ip;
    uint32_t pid, tid;
    uint64_t time;
    uint64_t addr;
    uint64_t id;
    uint64_t stream_id;
    uint32_t cpu, cpu_reserved;
    uint64_t period;
    perfdata_read read;
    perfdata_u64s callchain;
    perfdata_view raw;        /* RAW bytes after the u32 size */
    int raw_big_endian;       /* byte order of the RAW payload's fields */
    perfdata_branch_stack branch_stack;
    perfdata_regs regs_user;
    perfdata_view stack_user; /* STACK_USER: the dyn_size bytes the kernel
                                 dumped (the record reserves stack_user_size) */
    uint64_t stack_user_size;
    uint64_t stack_user_dyn_size;
    uint64_t weight;          /* WEIGHT, or WEIGHT_STRUCT's var1_dw */
    uint16_t ins_lat;         /* WEIGHT_STRUCT var2_w */
    uint16_t p_stage_cyc;     /* WEIGHT_STRUCT var3_w (retire_lat) */
    uint64_t weight_raw;      /* the u64 as stored, host order */
    uint64_t data_src;
    uint64_t transaction;
    perfdata_regs regs_intr;
    uint64_t phys_addr;
    uint64_t cgroup;
    uint64_t data_page_size;
    uint64_t code_page_size;
    perfdata_view aux;
} perfdata_sample;

PERFDATA_API perfdata_status perfdata_decode_sample(const perfdata_file *f, const perfdata_record *rec,
                                                    perfdata_sample *s, perfdata_error *err);
/* The same, against a given event (for callers who already know it). */
PERFDATA_API perfdata_status perfdata_decode_sample_as(const perfdata_file *f, long event,
                                                       const perfdata_record *rec,
                                                       perfdata_sample *s, perfdata_error *err);

/* The sample_id_all trailer of a non-sample kernel record (types 1..63). */
typedef struct perfdata_sample_id {
    uint64_t sample_type;     /* fields present (TID TIME ID STREAM_ID CPU IDENTIFIER) */
    long event;
    uint32_t pid, tid;
    uint64_t time;
    uint64_t id;
    uint64_t stream_id;
    uint32_t cpu, cpu_reserved;
    uint64_t identifier;
    size_t size;              /* trailer bytes */
} perfdata_sample_id;

/* Fails with ERR_BAD_ARGUMENT for SAMPLE and user records; succeeds with
   sample_type 0 when the event has no sample_id_all. */
PERFDATA_API perfdata_status perfdata_decode_sample_id(const perfdata_file *f, const perfdata_record *rec,
                                                       perfdata_sample_id *sid, perfdata_error *err);

/* ---------------------------------------------------- kernel record bodies */
/* Each decoder checks the record type and reads only the body before the
   sample_id trailer. Strings are views up to (not including) their NUL. */

typedef struct perfdata_mmap {          /* MMAP and MMAP2 */
    uint32_t pid, tid;
    uint64_t addr, len, pgoff;
    int has_build_id;                   /* MMAP2 with MISC_MMAP_BUILD_ID */
    uint32_t maj, min;
    uint64_t ino, ino_generation;
    uint8_t build_id_size;
    perfdata_view build_id;             /* build_id_size bytes (max 20) */
    uint32_t prot, flags;               /* MMAP2 only */
    perfdata_view filename;
} perfdata_mmap;

typedef struct perfdata_lost { uint64_t id, lost; } perfdata_lost;
typedef struct perfdata_comm { uint32_t pid, tid; int exec; perfdata_view comm; } perfdata_comm;
typedef struct perfdata_task { uint32_t pid, ppid, tid, ptid; uint64_t time; } perfdata_task; /* FORK, EXIT */
typedef struct perfdata_throttle { uint64_t time, id, stream_id; } perfdata_throttle;
typedef struct perfdata_read_record { uint32_t pid, tid; perfdata_read values; } perfdata_read_record;
typedef struct perfdata_aux { uint64_t aux_offset, aux_size, flags; } perfdata_aux;
typedef struct perfdata_itrace_start { uint32_t pid, tid; } perfdata_itrace_start;
typedef struct perfdata_lost_samples { uint64_t lost; } perfdata_lost_samples;
typedef struct perfdata_switch {        /* SWITCH and SWITCH_CPU_WIDE */
    int out, preempt, cpu_wide;
    uint32_t next_prev_pid, next_prev_tid;
} perfdata_switch;
typedef struct perfdata_namespaces {
    uint32_t pid, tid;
    uint64_t nr;
    perfdata_u64s links;                /* 2*nr values: dev, ino pairs */
} perfdata_namespaces;
typedef struct perfdata_ksymbol {
    uint64_t addr; uint32_t len; uint16_t ksym_type, flags; perfdata_view name;
} perfdata_ksymbol;
typedef struct perfdata_bpf_event {
    uint16_t type, flags; uint32_t id; perfdata_view tag; /* 8 bytes */
} perfdata_bpf_event;
typedef struct perfdata_cgroup { uint64_t id; perfdata_view path; } perfdata_cgroup;
typedef struct perfdata_text_poke {
    uint64_t addr; uint16_t old_len, new_len; perfdata_view old_bytes, new_bytes;
} perfdata_text_poke;
typedef struct perfdata_aux_output_hw_id { uint64_t hw_id; } perfdata_aux_output_hw_id;
typedef struct perfdata_callchain_deferred { uint64_t cookie; perfdata_u64s ips; } perfdata_callchain_deferred;

PERFDATA_API perfdata_status perfdata_decode_mmap(const perfdata_file *f, const perfdata_record *rec, perfdata_mmap *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_lost(const perfdata_file *f, const perfdata_record *rec, perfdata_lost *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_comm(const perfdata_file *f, const perfdata_record *rec, perfdata_comm *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_task(const perfdata_file *f, const perfdata_record *rec, perfdata_task *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_throttle(const perfdata_file *f, const perfdata_record *rec, perfdata_throttle *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_read_record(const perfdata_file *f, const perfdata_record *rec, perfdata_read_record *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_aux(const perfdata_file *f, const perfdata_record *rec, perfdata_aux *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_itrace_start(const perfdata_file *f, const perfdata_record *rec, perfdata_itrace_start *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_lost_samples(const perfdata_file *f, const perfdata_record *rec, perfdata_lost_samples *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_switch(const perfdata_file *f, const perfdata_record *rec, perfdata_switch *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_namespaces(const perfdata_file *f, const perfdata_record *rec, perfdata_namespaces *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_ksymbol(const perfdata_file *f, const perfdata_record *rec, perfdata_ksymbol *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_bpf_event(const perfdata_file *f, const perfdata_record *rec, perfdata_bpf_event *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_cgroup(const perfdata_file *f, const perfdata_record *rec, perfdata_cgroup *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_text_poke(const perfdata_file *f, const perfdata_record *rec, perfdata_text_poke *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_aux_output_hw_id(const perfdata_file *f, const perfdata_record *rec, perfdata_aux_output_hw_id *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_callchain_deferred(const perfdata_file *f, const perfdata_record *rec, perfdata_callchain_deferred *out, perfdata_error *err);

/* ------------------------------------------------- perf tool record bodies */

typedef struct perfdata_header_attr {   /* HEADER_ATTR */
    perfdata_attr attr;
    perfdata_view attr_bytes;
    perfdata_u64s ids;
} perfdata_header_attr;
typedef struct perfdata_header_event_type { uint64_t event_id; perfdata_view name; } perfdata_header_event_type;
typedef struct perfdata_tracing_data { uint32_t size; perfdata_view data; } perfdata_tracing_data;
typedef struct perfdata_build_id {      /* HEADER_BUILD_ID (also the BUILD_ID feature) */
    int32_t pid;
    perfdata_view build_id;             /* size bytes when MISC_BUILD_ID_SIZE, else 20 */
    perfdata_view filename;
    uint16_t misc;                      /* the record's misc: its cpumode says whose
                                           binary (kernel, user, guest) */
} perfdata_build_id;
typedef struct perfdata_id_index_entry {
    uint64_t id, idx, cpu, tid;
    uint64_t machine_pid, vcpu;         /* when has_machine */
} perfdata_id_index_entry;
typedef struct perfdata_id_index {
    uint64_t nr;
    perfdata_view entries;
    perfdata_view machine;              /* {machine_pid, vcpu} per entry, or empty */
    int big_endian;
} perfdata_id_index;
PERFDATA_API perfdata_id_index_entry perfdata_id_index_at(const perfdata_id_index *x, size_t i);
typedef struct perfdata_auxtrace_info {
    uint32_t type, reserved;
    perfdata_u64s data;                 /* the PMU's own u64s (perf's priv[]) */
} perfdata_auxtrace_info;
typedef struct perfdata_auxtrace {
    uint64_t size, offset, reference;
    uint32_t idx, tid, cpu, reserved;
    perfdata_view data;                 /* the `size` bytes after the record */
} perfdata_auxtrace;
typedef struct perfdata_auxtrace_error {
    uint32_t type, code, cpu, pid, tid, fmt;
    uint64_t ip, time;
    perfdata_view msg;
    uint32_t machine_pid, vcpu;
} perfdata_auxtrace_error;
typedef struct perfdata_thread_map_entry { uint64_t pid; perfdata_view comm; } perfdata_thread_map_entry;
typedef struct perfdata_thread_map { uint64_t nr; perfdata_view entries; int big_endian; } perfdata_thread_map;
PERFDATA_API perfdata_thread_map_entry perfdata_thread_map_at(const perfdata_thread_map *m, size_t i);

/* perf_record_cpu_map_data, every encoding. */
#define PERFDATA_CPU_MAP_CPUS 0
#define PERFDATA_CPU_MAP_MASK 1
#define PERFDATA_CPU_MAP_RANGE 2
typedef struct perfdata_cpu_map {
    uint16_t encoding;
    uint16_t nr;                        /* CPUS: entries; MASK: mask words */
    uint16_t long_size;                 /* MASK: 4 or 8 */
    int any_cpu;                        /* RANGE */
    uint16_t start_cpu, end_cpu;        /* RANGE */
    perfdata_view data;                 /* CPUS: u16[nr]; MASK: words */
    int big_endian;
} perfdata_cpu_map;
/* Iterates the cpus in ascending order: *cpu starts at -1; returns 1 and the
   next cpu, or 0 at the end. (-1 in a CPUS list means "any cpu".) */
PERFDATA_API int perfdata_cpu_map_next(const perfdata_cpu_map *m, size_t *state, int *cpu);
PERFDATA_API perfdata_status perfdata_decode_cpu_map_data(perfdata_view bytes, int big_endian,
                                                          perfdata_cpu_map *out, perfdata_error *err);

typedef struct perfdata_stat_config { uint64_t nr; perfdata_u64s pairs; } perfdata_stat_config; /* tag,val */
typedef struct perfdata_stat { uint64_t id; uint32_t cpu, thread; uint64_t val, ena, run; } perfdata_stat;
typedef struct perfdata_stat_round { uint64_t type, time; } perfdata_stat_round;
#define PERFDATA_EVENT_UPDATE_UNIT 0
#define PERFDATA_EVENT_UPDATE_SCALE 1
#define PERFDATA_EVENT_UPDATE_NAME 2
#define PERFDATA_EVENT_UPDATE_CPUS 3
typedef struct perfdata_event_update {
    uint64_t type, id;
    perfdata_view text;                 /* UNIT, NAME */
    double scale;                       /* SCALE */
    uint64_t scale_bits;
    perfdata_cpu_map cpus;              /* CPUS */
} perfdata_event_update;
typedef struct perfdata_time_conv {
    uint64_t time_shift, time_mult, time_zero;
    int has_cycles;
    uint64_t time_cycles, time_mask;
    uint8_t cap_user_time_zero, cap_user_time_short;
} perfdata_time_conv;
typedef struct perfdata_header_feature { uint64_t feat_id; perfdata_view data; } perfdata_header_feature;
typedef struct perfdata_compressed {    /* COMPRESSED and COMPRESSED2 */
    uint64_t data_size;
    perfdata_view data;
} perfdata_compressed;
typedef struct perfdata_bpf_metadata {
    perfdata_view prog_name;
    uint64_t nr_entries;
    perfdata_view entries;              /* {key[64], value[256]} each */
} perfdata_bpf_metadata;
typedef struct perfdata_bpf_metadata_entry { perfdata_view key, value; } perfdata_bpf_metadata_entry;
/* Entry i (i < nr_entries), its strings up to their NUL; both empty past
   the end. */
PERFDATA_API perfdata_bpf_metadata_entry perfdata_bpf_metadata_at(const perfdata_bpf_metadata *m, size_t i);
typedef struct perfdata_schedstat {     /* SCHEDSTAT_CPU and SCHEDSTAT_DOMAIN */
    uint64_t timestamp;
    uint32_t cpu;
    uint16_t version;
    uint16_t domain;                    /* DOMAIN only */
    perfdata_u64s counters;             /* version-specific u64 counters */
} perfdata_schedstat;

PERFDATA_API perfdata_status perfdata_decode_header_attr(const perfdata_file *f, const perfdata_record *rec, perfdata_header_attr *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_header_event_type(const perfdata_file *f, const perfdata_record *rec, perfdata_header_event_type *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_tracing_data(const perfdata_file *f, const perfdata_record *rec, perfdata_tracing_data *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_build_id(const perfdata_file *f, const perfdata_record *rec, perfdata_build_id *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_id_index(const perfdata_file *f, const perfdata_record *rec, perfdata_id_index *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_auxtrace_info(const perfdata_file *f, const perfdata_record *rec, perfdata_auxtrace_info *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_auxtrace(const perfdata_file *f, const perfdata_record *rec, perfdata_auxtrace *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_auxtrace_error(const perfdata_file *f, const perfdata_record *rec, perfdata_auxtrace_error *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_thread_map(const perfdata_file *f, const perfdata_record *rec, perfdata_thread_map *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_cpu_map(const perfdata_file *f, const perfdata_record *rec, perfdata_cpu_map *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_stat_config(const perfdata_file *f, const perfdata_record *rec, perfdata_stat_config *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_stat(const perfdata_file *f, const perfdata_record *rec, perfdata_stat *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_stat_round(const perfdata_file *f, const perfdata_record *rec, perfdata_stat_round *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_event_update(const perfdata_file *f, const perfdata_record *rec, perfdata_event_update *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_time_conv(const perfdata_file *f, const perfdata_record *rec, perfdata_time_conv *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_header_feature(const perfdata_file *f, const perfdata_record *rec, perfdata_header_feature *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_compressed(const perfdata_file *f, const perfdata_record *rec, perfdata_compressed *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_bpf_metadata(const perfdata_file *f, const perfdata_record *rec, perfdata_bpf_metadata *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_schedstat(const perfdata_file *f, const perfdata_record *rec, perfdata_schedstat *out, perfdata_error *err);

/* -------------------------------------------------------------- features */
/* Decoders for the feature sections (tools/perf/util/header.c write_* and
   process_*). Each takes the section bytes -- from perfdata_feature_section()
   in file mode, or perfdata_header_feature.data of a pipe's HEADER_FEATURE
   record -- and the file's byte order. Lists are validated whole when
   decoded and then walked in place with a _next() call (state starts at 0;
   it returns 1 per element, 0 at the end). A truncated or inconsistent
   section is an error for that section only. */

/* perf's strings: u32 len, then len bytes (NUL-padded); views stop at the NUL. */
typedef struct perfdata_strlist {
    uint32_t nr;
    perfdata_view bytes;      /* the nr strings, validated */
    int big_endian;
} perfdata_strlist;
PERFDATA_API int perfdata_strlist_next(const perfdata_strlist *l, size_t *state, perfdata_view *s);

typedef struct perfdata_feat_nrcpus { uint32_t nr_cpus_available, nr_cpus_online; } perfdata_feat_nrcpus;

typedef struct perfdata_feat_event_desc {  /* EVENT_DESC */
    uint32_t nr;
    uint32_t attr_size;
    perfdata_view bytes;
    int big_endian;
} perfdata_feat_event_desc;
typedef struct perfdata_event_desc_entry {
    perfdata_attr attr;
    perfdata_view attr_bytes;
    perfdata_view name;
    perfdata_u64s ids;
} perfdata_event_desc_entry;
PERFDATA_API int perfdata_event_desc_next(const perfdata_feat_event_desc *d, size_t *state,
                                          perfdata_event_desc_entry *e);

typedef struct perfdata_feat_cpu_topology {  /* CPU_TOPOLOGY */
    perfdata_strlist core_siblings;
    perfdata_strlist thread_siblings;
    uint32_t nr_cpus;                /* entries in cpu_ids (0 if absent) */
    perfdata_view cpu_ids;           /* {u32 core_id, u32 socket_id} per cpu */
    int has_dies;
    perfdata_strlist die_siblings;
    perfdata_view die_ids;           /* u32 per cpu */
    int big_endian;
} perfdata_feat_cpu_topology;
typedef struct perfdata_cpu_topology_entry { int32_t core_id, socket_id, die_id; } perfdata_cpu_topology_entry;
/* The ids of cpu i; -1 where absent. */
PERFDATA_API perfdata_cpu_topology_entry perfdata_cpu_topology_at(const perfdata_feat_cpu_topology *t, size_t cpu);

typedef struct perfdata_feat_list {      /* any counted list of entries */
    uint64_t nr;
    perfdata_view bytes;
    int big_endian;
} perfdata_feat_list;
typedef struct perfdata_numa_node { uint32_t node; uint64_t mem_total, mem_free; perfdata_view cpus; } perfdata_numa_node;
typedef struct perfdata_pmu_mapping { uint32_t type; perfdata_view name; } perfdata_pmu_mapping;
typedef struct perfdata_group_desc { perfdata_view name; uint32_t leader_idx, nr_members; } perfdata_group_desc;
typedef struct perfdata_auxtrace_index_entry { uint64_t file_offset, size; } perfdata_auxtrace_index_entry;
typedef struct perfdata_cache_level {
    uint32_t level, line_size, sets, ways;
    perfdata_view type, size, map;
} perfdata_cache_level;
typedef struct perfdata_mem_node { uint64_t node, size, nbits; perfdata_u64s bitmap; } perfdata_mem_node;
typedef struct perfdata_bpf_btf { uint32_t id; perfdata_view data; } perfdata_bpf_btf;
typedef struct perfdata_bpf_prog_info {
    uint32_t info_len, data_len; perfdata_view info, data;
} perfdata_bpf_prog_info;
typedef struct perfdata_name_value { perfdata_view name, value; } perfdata_name_value;
typedef struct perfdata_hybrid_node { perfdata_view pmu_name, cpus; } perfdata_hybrid_node;
typedef struct perfdata_pmu_caps {       /* one PMU of PMU_CAPS */
    uint32_t nr_caps;
    perfdata_feat_list caps;            /* walk with perfdata_name_value_next */
    perfdata_view pmu_name;
} perfdata_pmu_caps;

PERFDATA_API int perfdata_numa_node_next(const perfdata_feat_list *l, size_t *state, perfdata_numa_node *e);
PERFDATA_API int perfdata_pmu_mapping_next(const perfdata_feat_list *l, size_t *state, perfdata_pmu_mapping *e);
PERFDATA_API int perfdata_group_desc_next(const perfdata_feat_list *l, size_t *state, perfdata_group_desc *e);
PERFDATA_API int perfdata_auxtrace_index_next(const perfdata_feat_list *l, size_t *state, perfdata_auxtrace_index_entry *e);
PERFDATA_API int perfdata_cache_level_next(const perfdata_feat_list *l, size_t *state, perfdata_cache_level *e);
PERFDATA_API int perfdata_mem_node_next(const perfdata_feat_list *l, size_t *state, perfdata_mem_node *e);
PERFDATA_API int perfdata_bpf_btf_next(const perfdata_feat_list *l, size_t *state, perfdata_bpf_btf *e);
PERFDATA_API int perfdata_bpf_prog_info_next(const perfdata_feat_list *l, size_t *state, perfdata_bpf_prog_info *e);
PERFDATA_API int perfdata_name_value_next(const perfdata_feat_list *l, size_t *state, perfdata_name_value *e);
PERFDATA_API int perfdata_hybrid_node_next(const perfdata_feat_list *l, size_t *state, perfdata_hybrid_node *e);
PERFDATA_API int perfdata_pmu_caps_next(const perfdata_feat_list *l, size_t *state, perfdata_pmu_caps *e);

typedef struct perfdata_feat_cache { uint32_t version; perfdata_feat_list levels; } perfdata_feat_cache;
typedef struct perfdata_feat_mem_topology { uint64_t version, block_size; perfdata_feat_list nodes; } perfdata_feat_mem_topology;
typedef struct perfdata_feat_compressed { uint32_t version, type, level, ratio, mmap_len; } perfdata_feat_compressed;
typedef struct perfdata_feat_clock_data {
    uint32_t version, clockid; uint64_t wall_clock_ns, clockid_time_ns;
} perfdata_feat_clock_data;
typedef struct perfdata_feat_e_machine { uint32_t e_machine, e_flags; } perfdata_feat_e_machine;

/* Fixed-layout sections. */
PERFDATA_API perfdata_status perfdata_decode_feat_nrcpus(perfdata_view sec, int big_endian, perfdata_feat_nrcpus *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_feat_u64(perfdata_view sec, int big_endian, uint64_t *out, perfdata_error *err); /* TOTAL_MEM, CLOCKID, DIR_FORMAT, CLN_SIZE */
PERFDATA_API perfdata_status perfdata_decode_feat_sample_time(perfdata_view sec, int big_endian, uint64_t *first, uint64_t *last, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_feat_compressed(perfdata_view sec, int big_endian, perfdata_feat_compressed *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_feat_clock_data(perfdata_view sec, int big_endian, perfdata_feat_clock_data *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_feat_e_machine(perfdata_view sec, int big_endian, perfdata_feat_e_machine *out, perfdata_error *err);
/* Strings and lists. */
PERFDATA_API perfdata_status perfdata_decode_feat_string(perfdata_view sec, int big_endian, perfdata_view *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_feat_strlist(perfdata_view sec, int big_endian, perfdata_strlist *out, perfdata_error *err); /* CMDLINE */
PERFDATA_API perfdata_status perfdata_decode_feat_event_desc(perfdata_view sec, int big_endian, perfdata_feat_event_desc *out, perfdata_error *err);
/* nr_cpus: NRCPUS' nr_cpus_available (the per-cpu ids are optional). */
PERFDATA_API perfdata_status perfdata_decode_feat_cpu_topology(perfdata_view sec, int big_endian, uint32_t nr_cpus, perfdata_feat_cpu_topology *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_feat_numa_topology(perfdata_view sec, int big_endian, perfdata_feat_list *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_feat_pmu_mappings(perfdata_view sec, int big_endian, perfdata_feat_list *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_feat_group_desc(perfdata_view sec, int big_endian, perfdata_feat_list *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_feat_auxtrace(perfdata_view sec, int big_endian, perfdata_feat_list *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_feat_cache(perfdata_view sec, int big_endian, perfdata_feat_cache *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_feat_mem_topology(perfdata_view sec, int big_endian, perfdata_feat_mem_topology *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_feat_bpf_prog_info(perfdata_view sec, int big_endian, perfdata_feat_list *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_feat_bpf_btf(perfdata_view sec, int big_endian, perfdata_feat_list *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_feat_cpu_pmu_caps(perfdata_view sec, int big_endian, perfdata_feat_list *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_feat_hybrid_topology(perfdata_view sec, int big_endian, perfdata_feat_list *out, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_decode_feat_pmu_caps(perfdata_view sec, int big_endian, perfdata_feat_list *out, perfdata_error *err);
/* BUILD_ID: HEADER_BUILD_ID records one after another, without a count:
   nr is how many are whole. A section that ends inside a record, or holds
   one perfdata_decode_build_id refuses, is TRUNCATED at that record, with
   the records before it in *out. */
PERFDATA_API perfdata_status perfdata_decode_feat_build_id(perfdata_view sec, int big_endian, perfdata_feat_list *out, perfdata_error *err);
PERFDATA_API int perfdata_build_id_next(const perfdata_feat_list *l, size_t *state, perfdata_build_id *out);

/* CPU_DOMAIN_INFO (perf sched stats, 2025+): u32 schedstat_version, u32
   max_sched_domains, then per cpu that has domains {u32 cpu; u32
   nr_domains; per domain {u32 domain; [string name if version >= 17];
   string cpumask; string cpulist}} up to the section's end. */
typedef struct perfdata_feat_cpu_domain_info {
    uint32_t schedstat_version, max_sched_domains;
    perfdata_view cpus;               /* the per-cpu entries, validated */
    int big_endian;
} perfdata_feat_cpu_domain_info;
typedef struct perfdata_cpu_domains {
    uint32_t cpu, nr_domains;
    uint32_t schedstat_version;
    perfdata_view domains;            /* walk with perfdata_sched_domain_next */
    int big_endian;
} perfdata_cpu_domains;
typedef struct perfdata_sched_domain {
    uint32_t domain;
    perfdata_view name;               /* empty before schedstat version 17 */
    perfdata_view cpumask, cpulist;
} perfdata_sched_domain;
PERFDATA_API perfdata_status perfdata_decode_feat_cpu_domain_info(perfdata_view sec, int big_endian, perfdata_feat_cpu_domain_info *out, perfdata_error *err);
PERFDATA_API int perfdata_cpu_domains_next(const perfdata_feat_cpu_domain_info *d, size_t *state, perfdata_cpu_domains *e);
PERFDATA_API int perfdata_sched_domain_next(const perfdata_cpu_domains *c, size_t *state, perfdata_sched_domain *e);
/* CLN_SIZE (cache line size, 2026+): a u32 or u64, by the section's size. */
PERFDATA_API perfdata_status perfdata_decode_feat_cln_size(perfdata_view sec, int big_endian, uint64_t *out, perfdata_error *err);

PERFDATA_API const char *perfdata_feature_name(unsigned feature);

/* ------------------------------------------------------ tracepoint formats */
/* The contents of TRACING_DATA: the feature section in file mode
   (perfdata_feature_section(f, PERFDATA_FEAT_TRACING_DATA, ...)), or
   perfdata_tracing_data.data of a pipe's HEADER_TRACING_DATA record. perf
   writes it in tools/perf/util/trace-event-info.c and reads it in
   trace-event-read.c: "\x17\x08\x44tracing", a NUL-terminated version
   ("0.5", "0.6"), an endian byte (1: big), a long size byte, the page size
   (u32), header_page and header_event ("header_page\0"/"header_event\0",
   u64 size, text), the ftrace format files (u32 count; per file u64 size,
   text), the event systems (u32 count; per system a NUL-terminated name,
   u32 count, per file u64 size, text), kallsyms (u32 size, text), printk
   formats (u32 size, text), and from version 0.6 on the saved cmdlines
   (u64 size, text). Numbers are in the byte order the endian byte gives,
   which need not be the perf.data file's; RAW sample payloads are in that
   order too.

   perfdata_tracing_parse validates all of it, every format file's header
   lines (name, ID, format, its field lines, print fmt) included, so that
   the walks below cannot fail later. Nothing is copied: every text is a
   view into the section. A format file looks like

       name: kmalloc
       ID: 441
       format:
       	field:unsigned short common_type;	offset:0;	size:2;	signed:0;
       	field:char comm[16];	offset:8;	size:16;	signed:0;
       	field:__data_loc char[] name;	offset:24;	size:4;	signed:0;

       print fmt: "call_site=%pS ptr=%p", (void *)REC->call_site, REC->ptr

   A field's bytes in a sample's RAW payload (perfdata_sample.raw, in the
   order perfdata_sample.raw_big_endian or perfdata_tracing.big_endian
   gives): a fixed field [offset, offset+size); __data_loc: the u32 at
   offset holds the data's offset (low 16 bits) and length (high 16 bits);
   __rel_loc the same with the offset counted from the end of that u32. */

typedef struct perfdata_tracing {
    perfdata_view version;        /* "0.6", without the NUL */
    int big_endian;               /* the section's numbers and the RAW payloads' byte order */
    unsigned long_size;           /* 4 or 8: the kernel's, as perf takes it (the size of
                                     header_page's "commit" field when it has one, else
                                     the long size byte) */
    uint32_t page_size;
    perfdata_view header_page, header_event;   /* their format text */
    perfdata_view ftrace;         /* the ftrace format files (private framing, walked by _next) */
    perfdata_view events;         /* the event systems (private framing) */
    perfdata_view kallsyms, printk, cmdlines;  /* text, empty when absent */
    uint32_t nftrace, nsystems;
    uint32_t nevents;             /* format files in all event systems */
} perfdata_tracing;
PERFDATA_API perfdata_status perfdata_tracing_parse(perfdata_view data, perfdata_tracing *out, perfdata_error *err);

typedef struct perfdata_tp_format {
    perfdata_view system, name;   /* "kmem", "kmalloc"; the ftrace files' system is "ftrace" */
    uint64_t id;
    perfdata_view fields;         /* the field lines (walked by perfdata_tp_field_next) */
    perfdata_view print_fmt;      /* after "print fmt: " up to the end of its line */
    perfdata_view text;           /* the whole format file */
    unsigned long_size;           /* perfdata_tracing.long_size, for the fields' flags */
} perfdata_tp_format;
/* Every format file: the ftrace ones first, then the event systems' in
   order. *state starts at 0; returns 1 per format, 0 at the end. A call
   costs a pass over its format's text; when size_t cannot hold the walk's
   position (events parts over ~5 MB on 64-bit hosts, over ~3 KB on 32-bit
   ones) it also steps over the files before it, so a whole walk is then
   quadratic in the number of files. */
PERFDATA_API int perfdata_tp_format_next(const perfdata_tracing *t, size_t *state, perfdata_tp_format *out);
/* The event (not ftrace) format whose ID is id: 1 found, 0 not. A walk over
   the files: look each id up once and keep the result. */
PERFDATA_API int perfdata_tracing_find(const perfdata_tracing *t, uint64_t id, perfdata_tp_format *out);

#define PERFDATA_TP_FIELD_COMMON   1u   /* common_* */
#define PERFDATA_TP_FIELD_SIGNED   2u   /* signed:1 */
#define PERFDATA_TP_FIELD_ARRAY    4u   /* fixed array: name[N] (also name[] and name[EXPR]) */
#define PERFDATA_TP_FIELD_DYNAMIC  8u   /* __data_loc (and __rel_loc) */
#define PERFDATA_TP_FIELD_RELATIVE 16u  /* __rel_loc */
#define PERFDATA_TP_FIELD_STRING   32u  /* char array, fixed or dynamic */
#define PERFDATA_TP_FIELD_POINTER  64u  /* the type ends in '*' */
#define PERFDATA_TP_FIELD_LONG     128u /* long or unsigned long (size = long_size) */
typedef struct perfdata_tp_field {
    perfdata_view type;   /* declaration text before the name: "unsigned long", "char", "__data_loc char[]" */
    perfdata_view name;   /* "prev_comm" (without [16]) */
    uint32_t offset, size, flags;
    uint32_t array_len;   /* elements of a fixed array (0 if not one, or [] ) */
    uint32_t elem_size;   /* size of one element: size / array_len for arrays, else size (for __data_loc char[] : 1);
                             for [], [EXPR] and dynamic arrays the element type's size (char, u8..s64, short, int,
                             long, long long, pointers, size_t, pid_t...), 1 for dynamic arrays of another type,
                             and for [EXPR] of another type the whole size (array_len 0) */
} perfdata_tp_field;
/* The fields in their order; *state starts at 0; returns 1 per field, 0 at the end. */
PERFDATA_API int perfdata_tp_field_next(const perfdata_tp_format *fmt, size_t *state, perfdata_tp_field *out);
PERFDATA_API int perfdata_tp_field_find(const perfdata_tp_format *fmt, const char *name, size_t name_len, perfdata_tp_field *out);
/* A field's bytes in a sample's RAW payload (perfdata_sample.raw, byte order perfdata_sample.raw_big_endian):
   fixed fields [offset, offset+size); __data_loc: the u32 at offset, low 16 bits the data's offset, high 16 its length;
   __rel_loc the same with the offset counted from the end of the u32 field. 0 when any byte lies outside raw. */
PERFDATA_API int perfdata_tp_field_bytes(const perfdata_tp_field *f, perfdata_view raw, int big_endian, perfdata_view *out);
/* An integer field, or element idx of a fixed array, of size 1, 2, 4 or 8 in the given byte order, sign-extended to 64 bits
   when SIGNED. 0 when outside raw or not an integer size. For a dynamic array (elem_size 1, 2, 4 or 8), element idx of
   its data. */
PERFDATA_API int perfdata_tp_field_int(const perfdata_tp_field *f, perfdata_view raw, int big_endian, size_t idx, uint64_t *out);

/* ------------------------------------------------------- compressed data */
/* `perf record -z` writes the data as COMPRESSED (or, since perf 6.16,
   COMPRESSED2) records. One zstd stream runs through all of them, and a
   record inside may begin in one chunk and end in the next. perfdata_inflate
   walks a cursor and yields every record it meets; after a chunk record it
   yields the records decompressed from it, in file order, as if they were
   inline (their `offset` is the chunk's, as perf reports them), with records
   that span two chunks put back together.

   The decompressor is a callback, so any zstd library can be plugged in; the
   header's own allocation-free decoder is perfdata_zstd_chunk() (define
   PERFDATA_ZSTD, below). The output buffer is the caller's; how large it must
   be comes from perfdata_inflate_measure().

   A chunk that cannot be decompressed is returned with PERFDATA_ERR_MALFORMED
   (the record is valid, iteration can go on). Broken records inside a chunk
   end the chunk stream: the next call returns that error once, with
   rec->type 0 (perfdata_inflate_status() keeps saying it). Either way later
   chunks are yielded undecoded. When the input ends with part of a record
   left over from the last chunk, the call that meets the end returns
   PERFDATA_ERR_TRUNCATED once (rec->type 0, err.offset the last chunk's,
   err.needed the bytes left over), and PERFDATA_END after it.

   Lifetime: records from inside a chunk point into the buffer. By default the
   buffer is reused for every chunk, so they stay valid until the next chunk
   record is returned. With `keep` set each chunk's output is appended
   instead, so every record stays valid (as perfdata_ordered needs, see
   perfdata_inflate_source); when the rest of the buffer cannot take another
   chunk, perfdata_inflate_next() returns PERFDATA_NEED_MEMORY (err.needed
   = bytes for a new buffer), nothing is lost, and after
   perfdata_inflate_set_buffer() with a fresh buffer the same call can be made
   again. The same holds for what perfdata_file keeps from such records: an
   event's name from an EVENT_UPDATE (or a pipe's EVENT_DESC) read inside a
   chunk, and in a pipe an attr's bytes and ids, point into the buffer too;
   perf writes those records outside the chunks, but a caller that reuses or
   frees buffers should copy them (the tools do). */

/* Continue the stream with one chunk's payload: decode all of `in` into out.
   Return PERFDATA_OK with *out_size set, PERFDATA_ERR_NO_SPACE if out_cap is
   too small, or PERFDATA_ERR_MALFORMED. */
typedef perfdata_status (*perfdata_decompress_fn)(void *user, const unsigned char *in, size_t in_size,
                                                  unsigned char *out, size_t out_cap, size_t *out_size);

typedef struct perfdata_inflate_sizes {
    int compressed;            /* the data has COMPRESSED or COMPRESSED2 records */
    uint32_t mmap_len;         /* the COMPRESSED feature's: most bytes one chunk holds; 0 if absent */
    uint64_t buffer;           /* bytes for perfdata_inflate's buffer: one chunk's output
                                  plus the longest partial record (65535) */
    perfdata_view first_chunk; /* payload of the first chunk (a zstd frame header: it
                                  tells the decompressor's window size) */
} perfdata_inflate_sizes;

typedef struct perfdata_inflate {
    struct {                   /* private: do not use */
        perfdata_cursor *cursor;   /* where the chunks (and all other records) come from */
        perfdata_cursor inner;     /* the records of the current chunk's output */
        perfdata_decompress_fn decompress;
        void *decompress_user;
        unsigned char *buf;
        size_t cap, used;          /* buf[0..used) holds output */
        const unsigned char *carry_p; /* a partial record the last chunk left (in buf, or in
                                      the buffer before the last set_buffer) */
        size_t carry;              /* its length */
        size_t chunk_max;          /* keep mode: room asked for before each chunk */
        perfdata_record chunk_rec; /* the chunk read last */
        perfdata_view chunk;       /* its payload */
        int pending, inner_active;
        int keep;                  /* set by the caller: append output, never reuse it */
        int failed;                /* a chunk could not be decompressed, or the records
                                      inside it are broken: the stream cannot go on,
                                      later chunks are yielded undecoded */
        perfdata_error error;      /* why, when failed */
        size_t lost;               /* bytes of a partial record left at the end (said once) */
        uint64_t in_bytes;         /* private: bytes of the chunk records decompressed */
        uint64_t charged;          /* private: the cost of the records inside them */
        uint64_t allowance;        /* private: what that cost may reach */
        uint32_t max_ratio;        /* private: perfdata_inflate_set_max_ratio */
        perfdata_record_source source; /* perfdata_inflate_set_source, or NULL: the cursor */
        void *source_user;
        int told;                  /* the failure was returned as a status */
    } priv;
} perfdata_inflate;

/* The bound on decompression, on by default: the records inside the chunks
   may cost at most `max_ratio` times the bytes of the chunk records read so
   far, plus PERFDATA_INFLATE_SLACK, where a record costs its size but at
   least PERFDATA_INFLATE_RECORD_COST bytes (so that a flood of tiny records
   counts for the work it makes). zstd can expand data 32768 times; perf's
   own files stay far below the default: about 10 to 20 for samples with
   frame-pointer call chains, about 370 for `--call-graph dwarf` and 1250 for
   64 KiB DWARF stacks. Past the bound the chunk stream stops as a broken one
   does (failed, error.code PERFDATA_ERR_LIMIT); later chunks are yielded
   undecoded. */
#define PERFDATA_INFLATE_MAX_RATIO 4096u
#define PERFDATA_INFLATE_SLACK ((uint64_t)64 << 20)
#define PERFDATA_INFLATE_RECORD_COST 256u

/* Whether the records of `c` (NULL: the file's data section or pipe
   stream) are compressed, and the sizes the iterator and the decompressor
   need. Reads a copy of the cursor up to the first chunk; changes neither
   `f` nor `c`. */
PERFDATA_API perfdata_status perfdata_inflate_measure(perfdata_file *f, const perfdata_cursor *c,
                                                      perfdata_inflate_sizes *out, perfdata_error *err);
/* `c`: a cursor from perfdata_cursor_init() (or _init_range()); `sizes`:
   from perfdata_inflate_measure(); buf: at least sizes->buffer bytes (more
   is fine: in keep mode it holds that many more chunks). */
PERFDATA_API void perfdata_inflate_init(perfdata_inflate *z, perfdata_cursor *c, const perfdata_inflate_sizes *sizes,
                                        void *buf, size_t cap, perfdata_decompress_fn decompress,
                                        void *decompress_user);
/* Like perfdata_next_record(), records inside chunks included. */
PERFDATA_API perfdata_status perfdata_inflate_next(perfdata_file *f, perfdata_inflate *z, perfdata_record *rec,
                                                   perfdata_error *err);
/* keep mode: continue in a new buffer (the partial record is copied over;
   the old buffer must live as long as records from it are used). */
PERFDATA_API perfdata_status perfdata_inflate_set_buffer(perfdata_inflate *z, void *buf, size_t cap,
                                                         perfdata_error *err);
/* keep mode: 0 while the buffer can take another chunk, else the size of
   the fresh buffer perfdata_inflate_set_buffer() needs (calling this first
   avoids NEED_MEMORY, e.g. from inside perfdata_ordered_next()). */
PERFDATA_API size_t perfdata_inflate_room_needed(const perfdata_inflate *z);
/* 0: no bound. Call after perfdata_inflate_init(). */
PERFDATA_API void perfdata_inflate_set_max_ratio(perfdata_inflate *z, uint32_t max_ratio);
/* Whether `rec` is a chunk whose records the iterator also yields (a dump
   that prints both would show them twice). */
PERFDATA_API int perfdata_inflate_expands(const perfdata_inflate *z, const perfdata_record *rec);
/* A perfdata_ordered source (o->source = perfdata_inflate_source,
   o->source_user = z): records in time order, chunks included. Needs `keep`
   and perfdata_inflate_room_needed() checked before each
   perfdata_ordered_next(). */
/* Records from `source` instead of the cursor given to _init (which may
   then be NULL). */
PERFDATA_API void perfdata_inflate_set_source(perfdata_inflate *z, perfdata_record_source source, void *user);
/* keep: append each chunk's output instead of reusing the buffer, so that
   every record stays valid (what perfdata_ordered needs). */
PERFDATA_API void perfdata_inflate_keep(perfdata_inflate *z, int keep);
/* PERFDATA_OK while the chunk stream goes on; else the error that stopped
   it (also returned once by perfdata_inflate_next, with rec->type 0). */
PERFDATA_API perfdata_status perfdata_inflate_status(const perfdata_inflate *z, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_inflate_source(void *z, perfdata_file *f, perfdata_cursor *c,
                                                     perfdata_record *rec, perfdata_error *err);

/* ---------------------------------------------------------------- reader */
/* perfdata_reader: every record of a perf.data input, in one call.
   It puts together what the layers above do: the file or pipe header, the
   records of the data section (and of the data.N streams of a `perf record
   --threads` directory), the records inside COMPRESSED/COMPRESSED2 chunks
   (the built-in zstd decoder or any perfdata_decompress_fn), perf's time
   order (PERFDATA_READ_ORDERED), pipe-mode event registration and the id
   index. All memory is the caller's, given when asked for.

   Input: the whole file in memory (perfdata_reader_set_input), or a
   pipe-mode stream pushed in pieces of any size as it arrives
   (perfdata_reader_push: `perf record -o -`, a UART, a socket). A record
   or chunk that spans pieces is put back together in reader memory. A
   file-mode perf.data cannot be pushed (its features and, often, its
   attrs come after the data): give it whole.

   perfdata_reader_next() returns
   - PERFDATA_OK: *rec is the next record;
   - PERFDATA_END: there are no more;
   - PERFDATA_NEED_INPUT (push mode): every byte pushed so far is used, and
     the piece may be reused or freed; push the next one (a push of 0 bytes
     says the input has ended) and call again;
   - PERFDATA_NEED_MEMORY: err.detail names the perfdata_pool that ran out,
     err.needed the bytes it needs; give them with perfdata_reader_give()
     (more is fine), or refuse with perfdata_reader_give(r, pool, NULL, 0),
     and call again. Nothing is lost either way. A refusal is not an error:
     QUEUE and BUFFER (in time order) release queued records early, as perf
     does when its queue is full (records that come later than such a
     release may be out of order); IDS makes record-to-event lookups a
     scan; ZSTD leaves the chunks undecoded (the chunk comes with
     PERFDATA_ERR_LIMIT); EVENTS and BUFFER (otherwise) end the walk with
     PERFDATA_ERR_LIMIT.
   - an error: err.final = 1 when the walk ends with it (a record cut off,
     a broken framing; records queued for time order are delivered first;
     the next call returns PERFDATA_END); err.final = 0 when it goes on:
     then rec->type != 0 means *rec is still a record (a malformed attr, a
     chunk that could not be decompressed), and rec->type == 0 that the
     records of later chunks are lost (the chunk stream broke or passed the
     bound on decompression; the chunks themselves still come).

   Lifetimes: a record, and the views decoded from it, are valid until the
   next call of perfdata_reader_next() (records of the caller's whole input
   as long as that input). perfdata_reader_file(r) and its events are valid
   while the reader lives; their views point into the whole input or into
   memory the reader keeps. Memory given with perfdata_reader_give() is
   the reader's until perfdata_reader_take_back() hands it back: call it
   after each step (it costs nothing when there is nothing to return) and
   after the walk, until it returns NULL. The reader must not be moved
   (copied) once started: the file points into it in push mode. */
#define PERFDATA_READ_ORDERED 1u    /* records in perf's delivery order */
#define PERFDATA_READ_RAW_CHUNKS 2u /* yield COMPRESSED chunks, not what is inside */

typedef struct perfdata_reader {
    struct {                      /* private: do not use */
        perfdata_file file;
        unsigned flags;
        int started, ended, push, whole, input_ended;
        perfdata_view input;                  /* set_input */
        const perfdata_view *streams;         /* set_streams */
        size_t nr_streams, next_stream;
        unsigned char head[16];               /* push: the pipe header */
        size_t head_len;
        uint64_t consumed;                    /* push: stream offset of the piece */
        const unsigned char *piece;
        size_t piece_n, piece_pos;
        perfdata_cursor cur;
        struct perfdata__block *stage;        /* push: a record spanning pieces */
        size_t stage_len, stage_need;
        uint64_t stage_offset;
        int stage_ready;
        perfdata_record back;                 /* a record put back */
        int have_back;
        perfdata_record reg;                  /* a record waiting to be registered */
        int have_reg;
        perfdata_inflate z;
        perfdata_inflate_sizes sizes;
        int z_on, z_off, z_restart;
        perfdata_decompress_fn decompress;
        void *decompress_user;
        uint32_t max_ratio;
        int ratio_set;
        uint32_t mmap_len;                    /* a pipe's COMPRESSED feature */
        void *zstd;                           /* the dctx, then the window */
        size_t zstd_bytes;
        struct perfdata__block *z_block;      /* the block decompressed chunks go to */
        perfdata_ordered o;
        int refusals;                         /* QUEUE/BUFFER refused in a row */
        int refused;                          /* the pool refused last */
        int ids_refused;
        size_t ids_events;                    /* nr_events when the index was sized */
        struct perfdata__block *blocks;       /* BUFFER memory in use */
        struct perfdata__block *spare;        /* BUFFER memory free */
        struct perfdata__block *copy;         /* where pushed records are kept for the queue */
        struct perfdata__block *pinned;       /* where event views are kept */
        void *released;                       /* memory to take back: a list */
        size_t given[4];                      /* bytes given for EVENTS, IDS, QUEUE */
        void *ids;                            /* the id index given (the file drops it when full) */
        perfdata_error ask;                   /* the NEED_MEMORY asked */
        void (*on_change)(void *user);        /* perfdata_reader_on_change */
        void *on_change_user;
    } priv;
} perfdata_reader;

/* flags: PERFDATA_READ_*. Then the input (set_input, or pushes), then
   perfdata_reader_next() until PERFDATA_END. */
PERFDATA_API void perfdata_reader_init(perfdata_reader *r, unsigned flags);
/* The whole input (file or pipe mode); it must outlive the reader. */
PERFDATA_API void perfdata_reader_set_input(perfdata_reader *r, const void *data, size_t size);
/* After the data section, the records of these streams, in this order (the
   data.N files of a --threads directory): record ranges in the file's byte
   order, each with its own compressed stream, offsets from 0. The array and
   the bytes must outlive the reader. */
PERFDATA_API void perfdata_reader_set_streams(perfdata_reader *r, const perfdata_view *streams, size_t n);
/* The next piece of a pushed pipe-mode stream, after NEED_INPUT (or before
   the first call); size 0: the stream has ended. The piece is read in
   place until the reader returns NEED_INPUT. */
PERFDATA_API perfdata_status perfdata_reader_push(perfdata_reader *r, const void *data, size_t size,
                                                 perfdata_error *err);
/* Chunks through this decompressor instead of the built-in zstd (which is
   there with PERFDATA_ZSTD; without either, chunks come undecoded). */
PERFDATA_API void perfdata_reader_set_decompressor(perfdata_reader *r, perfdata_decompress_fn fn, void *user);
/* The bound on decompression (perfdata_inflate_set_max_ratio); 0: none. */
PERFDATA_API void perfdata_reader_set_max_ratio(perfdata_reader *r, uint32_t max_ratio);
/* fn(user) is called just before the reader changes the file's events
   while reading records (an EVENT_UPDATE name, a pipe's HEADER_ATTR or
   EVENT_DESC): a caller that reads perfdata_reader_file()'s events in
   another thread waits there until that thread is idle. The growth of the
   events or the id index is asked for with NEED_MEMORY, where the caller
   waits likewise before perfdata_reader_give(). The header stays
   single-threaded: it only calls fn. */
PERFDATA_API void perfdata_reader_on_change(perfdata_reader *r, void (*fn)(void *user), void *user);
/* Reads the header (and in file mode the attrs): OK when
   perfdata_reader_file() is ready, else like perfdata_reader_next().
   perfdata_reader_next() does it too. */
PERFDATA_API perfdata_status perfdata_reader_start(perfdata_reader *r, perfdata_error *err);
PERFDATA_API perfdata_status perfdata_reader_next(perfdata_reader *r, perfdata_record *rec, perfdata_error *err);
/* Memory for the pool named by a NEED_MEMORY (or NULL, 0: none). */
PERFDATA_API perfdata_status perfdata_reader_give(perfdata_reader *r, perfdata_pool pool, void *mem, size_t bytes,
                                                 perfdata_error *err);
/* Memory given earlier that the reader no longer uses, one block per call
   (its size in *bytes), or NULL. */
PERFDATA_API void *perfdata_reader_take_back(perfdata_reader *r, size_t *bytes);
/* Ends the walk: every block of memory given is handed to
   perfdata_reader_take_back() (the file's events with it). */
PERFDATA_API void perfdata_reader_close(perfdata_reader *r);
/* The parsed header, attrs and events (after a successful start). */
PERFDATA_API const perfdata_file *perfdata_reader_file(const perfdata_reader *r);
/* Whether `rec` is a chunk whose records the reader also yields. */
PERFDATA_API int perfdata_reader_expands(const perfdata_reader *r, const perfdata_record *rec);
/* How far the reader has read: the offset in the input (0) or stream k+1
   given by *stream. For a caller that maps its input and gives back pages
   behind it. */
PERFDATA_API uint64_t perfdata_reader_position(const perfdata_reader *r, uint32_t *stream);

/* ---------------------------------------------------------------- writer */
/* perf.data out, without allocation: a file (header, attrs and their ids,
   data, feature index and sections) or a pipe stream (a 16-byte header,
   then HEADER_ATTR and HEADER_FEATURE records, then the records), in
   either byte order on any host.

   Bytes go to a sink: a caller buffer (perfdata_writer_init_buffer) or a
   function (perfdata_writer_init) called with each piece and the offset it
   belongs at. Pieces come in order, at the end of what was written, except
   one: in file mode perfdata_writer_finish writes the header again at
   offset 0, so a file-mode sink must be able to seek (a pipe-mode sink is
   only ever appended to).

   Records are encoded from the reader's structs (perfdata_sample,
   perfdata_mmap, ...): a record decoded from a file of either byte order
   is written in the writer's. A record is checked whole before its first
   byte is written: a status other than OK leaves nothing of it in a
   buffer. A sink function's error ends the output: every later call
   returns it (what the sink already took of that record stays there).

   The events and features given to perfdata_writer_begin are read again
   until perfdata_writer_finish (a sample is encoded by its event's attr,
   file mode writes the features last): they must stay where they are.

       perfdata_writer w;
       perfdata_writer_event ev = {attr, ids, 1};     // attr: host order
       perfdata_writer_init_buffer(&w, PERFDATA_WRITE_PIPE, buf, sizeof buf, &err);
       perfdata_writer_begin(&w, &ev, 1, NULL, 0, &err);
       perfdata_writer_mmap(&w, PERFDATA_RECORD_MMAP2, PERFDATA_MISC_USER, &image, NULL, &err);
       ... perfdata_writer_sample(&w, PERFDATA_MISC_USER, &s, &err) per sample ...
       perfdata_writer_finish(&w, &err);   // perfdata_writer_size(&w) bytes in buf */

#define PERFDATA_WRITE_PIPE 1u         /* pipe mode; else file mode */
#define PERFDATA_WRITE_BIG_ENDIAN 2u   /* big-endian output; else little-endian */

/* Writes n bytes at `offset`; anything but OK ends the output. */
typedef perfdata_status (*perfdata_sink)(void *user, uint64_t offset, const void *bytes, size_t n);

/* One event: its attr in host order (attr.size 0: PERFDATA_ATTR_SIZE_VER7,
   the size perf 6.1 writes) and the sample ids the kernel gave it. */
typedef struct perfdata_writer_event {
    perfdata_attr attr;
    const uint64_t *ids;
    size_t nr_ids;
} perfdata_writer_event;

/* One feature: its section as stored, in the writer's byte order
   (perfdata_encode_feat_* make them; a section of another file of the same
   order can be passed as it is). */
typedef struct perfdata_writer_feature {
    unsigned id;                 /* PERFDATA_FEAT_* */
    const void *bytes;
    size_t n;
} perfdata_writer_feature;

typedef struct perfdata_writer {
    struct {                     /* private: do not use */
        unsigned flags;
        int big;
        perfdata_sink sink;
        void *user;
        unsigned char *buf;      /* buffer mode: the caller's buffer */
        size_t cap;
        uint64_t pos;            /* bytes written */
        int state;               /* 0 new, 1 begun, 2 finished */
        perfdata_status failed;  /* a sink's error: the output ended */
        const perfdata_writer_event *events;
        size_t nr_events;
        const perfdata_writer_feature *features;
        size_t nr_features;
        uint32_t attr_size;      /* file mode: every attr's size */
        uint64_t attrs_offset, data_offset;
        unsigned char stage[64]; /* small pieces, gathered */
        size_t staged;
    } priv;
} perfdata_writer;

PERFDATA_API perfdata_status perfdata_writer_init(perfdata_writer *w, unsigned flags, perfdata_sink sink, void *user,
                                                  perfdata_error *err);
/* Output to buf; a record that does not fit fails with ERR_NO_SPACE
   (err.needed: the bytes it lacks) and nothing of it is written. */
PERFDATA_API perfdata_status perfdata_writer_init_buffer(perfdata_writer *w, unsigned flags, void *buf, size_t cap,
                                                         perfdata_error *err);
/* The events (at least one) and the features, before any record. */
PERFDATA_API perfdata_status perfdata_writer_begin(perfdata_writer *w, const perfdata_writer_event *events,
                                                   size_t nr_events, const perfdata_writer_feature *features,
                                                   size_t nr_features, perfdata_error *err);
/* A sample of event s->event (an index into the events given to begin),
   with that event's sample_type and every field it names. Views (call
   chain, read values, branch stack, registers) are read in their own byte
   order; RAW, user stack and AUX bytes are copied as they are. */
PERFDATA_API perfdata_status perfdata_writer_sample(perfdata_writer *w, uint16_t misc, const perfdata_sample *s,
                                                    perfdata_error *err);
/* Kernel records other than samples end with the sample_id trailer of
   their event when its attr has sample_id_all: from sid (its event, and
   the fields that attr's sample_type names), or zeros and event 0 when sid
   is NULL. type: MMAP or MMAP2 (the build id form when m->has_build_id). */
PERFDATA_API perfdata_status perfdata_writer_mmap(perfdata_writer *w, uint32_t type, uint16_t misc,
                                                  const perfdata_mmap *m, const perfdata_sample_id *sid,
                                                  perfdata_error *err);
/* COMM; misc gets PERFDATA_MISC_COMM_EXEC when c->exec. */
PERFDATA_API perfdata_status perfdata_writer_comm(perfdata_writer *w, uint16_t misc, const perfdata_comm *c,
                                                  const perfdata_sample_id *sid, perfdata_error *err);
/* FORK or EXIT. */
PERFDATA_API perfdata_status perfdata_writer_task(perfdata_writer *w, uint32_t type, uint16_t misc,
                                                  const perfdata_task *t, const perfdata_sample_id *sid,
                                                  perfdata_error *err);
/* LOST. */
PERFDATA_API perfdata_status perfdata_writer_lost(perfdata_writer *w, const perfdata_lost *l,
                                                  const perfdata_sample_id *sid, perfdata_error *err);
/* Any other kernel record, from the struct its decoder fills (record
   points to it): THROTTLE and UNTHROTTLE (perfdata_throttle), READ
   (perfdata_read_record, read by sid's event's read_format), AUX,
   ITRACE_START, LOST_SAMPLES, SWITCH and SWITCH_CPU_WIDE (perfdata_switch;
   misc gets its out and preempt bits), NAMESPACES, KSYMBOL, BPF_EVENT,
   CGROUP, TEXT_POKE, AUX_OUTPUT_HW_ID, CALLCHAIN_DEFERRED. ERR_UNSUPPORTED
   for another type. */
PERFDATA_API perfdata_status perfdata_writer_kernel(perfdata_writer *w, uint32_t type, uint16_t misc, const void *record,
                                                    const perfdata_sample_id *sid, perfdata_error *err);
/* A perf tool record (64 and up) from the struct its decoder fills:
   HEADER_EVENT_TYPE, HEADER_TRACING_DATA (its data after the record),
   HEADER_BUILD_ID, FINISHED_ROUND and FINISHED_INIT (record NULL), ID_INDEX,
   AUXTRACE_INFO, AUXTRACE (its data after the record), AUXTRACE_ERROR,
   THREAD_MAP, CPU_MAP, STAT_CONFIG, STAT, STAT_ROUND, EVENT_UPDATE,
   TIME_CONV, COMPRESSED, COMPRESSED2, BPF_METADATA, SCHEDSTAT_CPU and
   SCHEDSTAT_DOMAIN. ERR_UNSUPPORTED for another type (the events and
   features go to perfdata_writer_begin). */
PERFDATA_API perfdata_status perfdata_writer_user(perfdata_writer *w, uint32_t type, uint16_t misc, const void *record,
                                                  perfdata_error *err);
/* Any record whose body (and extra bytes, for TRACING_DATA and AUXTRACE)
   is already in the writer's byte order, e.g. one read from a file of that
   order. FINISHED_ROUND is perfdata_writer_record(w, 68, 0, NULL, 0, NULL,
   0, err). */
PERFDATA_API perfdata_status perfdata_writer_record(perfdata_writer *w, uint32_t type, uint16_t misc,
                                                    const void *body, size_t n, const void *extra, size_t extra_n,
                                                    perfdata_error *err);
/* File mode: the feature index and sections, then the header again, now
   with the data size and the feature bits. Pipe mode: nothing more. */
PERFDATA_API perfdata_status perfdata_writer_finish(perfdata_writer *w, perfdata_error *err);
/* Bytes written so far (in buffer mode: the bytes of buf in use). */
PERFDATA_API uint64_t perfdata_writer_size(const perfdata_writer *w);

/* Feature sections, in the byte order big_endian says, into out (cap
   bytes); *n the bytes used. ERR_NO_SPACE: err.needed is the size wanted.
   HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID: a string. */
PERFDATA_API perfdata_status perfdata_encode_feat_string(void *out, size_t cap, int big_endian, const char *text,
                                                         size_t *n, perfdata_error *err);
/* CMDLINE: a list of strings. */
PERFDATA_API perfdata_status perfdata_encode_feat_strings(void *out, size_t cap, int big_endian,
                                                          const char *const *list, size_t count, size_t *n,
                                                          perfdata_error *err);
/* NRCPUS. */
PERFDATA_API perfdata_status perfdata_encode_feat_nrcpus(void *out, size_t cap, int big_endian, uint32_t available,
                                                         uint32_t online, size_t *n, perfdata_error *err);
/* TOTAL_MEM (kB), CLOCKID (the clock's resolution in ns): one u64. */
PERFDATA_API perfdata_status perfdata_encode_feat_u64(void *out, size_t cap, int big_endian, uint64_t value,
                                                      size_t *n, perfdata_error *err);
/* EVENT_DESC: the events with their names (names[i] may be NULL: ""). */
PERFDATA_API perfdata_status perfdata_encode_feat_event_desc(void *out, size_t cap, int big_endian,
                                                             const perfdata_writer_event *events,
                                                             const char *const *names, size_t count, size_t *n,
                                                             perfdata_error *err);
/* One entry of the BUILD_ID feature (entries are concatenated): the
   object's build id (at most 20 bytes) and path, for process pid (-1 the
   kernel, perf's HOST_KERNEL_ID) in mode misc (PERFDATA_MISC_KERNEL or
   _USER). */
PERFDATA_API perfdata_status perfdata_encode_build_id(void *out, size_t cap, int big_endian, int32_t pid,
                                                      uint16_t misc, const void *build_id, size_t build_id_size,
                                                      const char *path, size_t *n, perfdata_error *err);

/* ======================================================================= */
/* zstd: a self-contained zstd decoder (RFC 8878)                           */
/* ======================================================================= */
/* Compiled only when PERFDATA_ZSTD is defined before every include; without
   it the header has no zstd code. Usable without the rest of the header: it
   turns zstd bytes into bytes and knows nothing of perf.data. What it shares
   is the error vocabulary (perfdata_status and perfdata_error, ERRORS at the
   top), and perfdata_zstd_chunk plugs it into perfdata_inflate.
   Allocation-free, no libc, every read bounds-checked; a hostile frame gives
   an error, never a read or write out of bounds. Frames that need a
   dictionary are refused (perf never writes them).

   Contents (search for the banners "zstd: ..."; the implementation, at the
   end of the file, opens with a contents list of its own):
     zstd: limits and flags   PERFDATA_ZSTD_BLOCK_SIZE_MAX, _WINDOW_SIZE_MAX, _F_SKIP_CHECKSUM
     zstd: errors             statuses and PERFDATA_ZSTD_E_* details, perfdata_zstd_error_name
     zstd: frame headers      perfdata_zstd_get_frame_info, perfdata_zstd_window_buffer_size
     zstd: decoder state      perfdata_zstd_dctx (opaque), PERFDATA_ZSTD_WORKSPACE_SIZE
     zstd: one shot           perfdata_zstd_decompress
     zstd: streaming          perfdata_zstd_dctx_init, perfdata_zstd_decompress_stream
     zstd: perf.data chunks   perfdata_zstd_chunk
     zstd: XXH64              perfdata_zstd_xxh64

   For perf.data: a perfdata_zstd_dctx (about 280 KiB, put it anywhere) with
   a window buffer of perfdata_zstd_window_buffer_size() bytes for the first
   chunk, then perfdata_zstd_chunk as perfdata_inflate's decompressor:

       perfdata_inflate_measure(&f, NULL, &sizes, &err);
       perfdata_zstd_window_buffer_size(sizes.first_chunk.p, sizes.first_chunk.n, &win_size, &err);
       perfdata_zstd_dctx_init(&dctx, window, win_size, 0);
       perfdata_inflate_init(&z, &cursor, &sizes, out, sizes.buffer, perfdata_zstd_chunk, &dctx);

   Standalone: perfdata_zstd_decompress() decodes a whole buffer (any number
   of zstd and skippable frames) in one call, with a workspace of
   PERFDATA_ZSTD_WORKSPACE_SIZE bytes; perfdata_zstd_decompress_stream()
   takes input in pieces of any size and gives output in pieces of any size,
   later blocks referring to data decoded by earlier calls within the
   frame's window. */
#ifdef PERFDATA_ZSTD

/* ------------------------------------------------- zstd: limits and flags */
#define PERFDATA_ZSTD_BLOCK_SIZE_MAX 131072u
/* Largest Window_Size accepted (frames asking for more are rejected). */
#define PERFDATA_ZSTD_WINDOW_SIZE_MAX ((uint64_t)1 << 31)
#define PERFDATA_ZSTD_CONTENT_SIZE_UNKNOWN (~(uint64_t)0)

/* flags of perfdata_zstd_dctx_init and perfdata_zstd_decompress */
#define PERFDATA_ZSTD_F_SKIP_CHECKSUM 1u /* do not compute/verify XXH64 content checksums */

/* ----------------------------------------------------------- zstd: errors */
/* Every call that can fail returns a perfdata_status and fills the optional
   perfdata_error as the rest of the header does. A decoding error gives:
     err.code    the status: PERFDATA_ERR_MALFORMED (the data breaks RFC
                 8878), PERFDATA_ERR_TRUNCATED (one shot: the input ends
                 inside a frame), PERFDATA_ERR_NO_SPACE (one shot: dst is too
                 small), PERFDATA_ERR_LIMIT (a window larger than
                 PERFDATA_ZSTD_WINDOW_SIZE_MAX or than the window buffer),
                 PERFDATA_ERR_UNSUPPORTED (a dictionary is needed) or
                 PERFDATA_ERR_BAD_ARGUMENT (NULL pointers, workspace too
                 small);
     err.detail  the PERFDATA_ZSTD_E_* code below, which says what was wrong;
     err.message its text (perfdata_zstd_error_name(err.detail));
     err.offset  where the fault was found: the offset of the frame header,
                 block header or checksum being decoded, counted from src
                 (one shot; perfdata_zstd_get_frame_info: 0) or from the
                 first byte given to the context since perfdata_zstd_dctx_init
                 (streaming). A fault inside a block is reported at the
                 block's header. 0 for E_PARAM and E_WORKSPACE;
     err.needed  E_TRUNCATED: the bytes missing from the frame header (at
                 least: its size is known from its fifth byte on), block or
                 checksum that runs past the end; E_WINDOW_TOO_LARGE
                 when only the window buffer is too small: the buffer size the
                 frame needs; else 0. */
enum {
    PERFDATA_ZSTD_E_PARAM = -1,            /* ERR_BAD_ARGUMENT */
    PERFDATA_ZSTD_E_BAD_MAGIC = -2,        /* ERR_MALFORMED */
    PERFDATA_ZSTD_E_HEADER = -3,           /* ERR_MALFORMED */
    PERFDATA_ZSTD_E_DICTIONARY = -4,       /* ERR_UNSUPPORTED */
    PERFDATA_ZSTD_E_WINDOW_TOO_LARGE = -5, /* ERR_LIMIT: above PERFDATA_ZSTD_WINDOW_SIZE_MAX or the window buffer */
    PERFDATA_ZSTD_E_BLOCK = -6,            /* ERR_MALFORMED: reserved type, or larger than Block_Maximum_Size */
    PERFDATA_ZSTD_E_LITERALS = -7,         /* ERR_MALFORMED */
    PERFDATA_ZSTD_E_HUFFMAN = -8,          /* ERR_MALFORMED */
    PERFDATA_ZSTD_E_FSE = -9,              /* ERR_MALFORMED */
    PERFDATA_ZSTD_E_SEQUENCES = -10,       /* ERR_MALFORMED */
    PERFDATA_ZSTD_E_OFFSET = -11,          /* ERR_MALFORMED */
    PERFDATA_ZSTD_E_DST_TOO_SMALL = -12,   /* ERR_NO_SPACE: one shot only */
    PERFDATA_ZSTD_E_CHECKSUM = -13,        /* ERR_MALFORMED */
    PERFDATA_ZSTD_E_TRUNCATED = -14,       /* ERR_TRUNCATED */
    PERFDATA_ZSTD_E_CONTENT_SIZE = -15,    /* ERR_MALFORMED */
    PERFDATA_ZSTD_E_WORKSPACE = -16        /* ERR_BAD_ARGUMENT */
};

/* The text of a PERFDATA_ZSTD_E_* detail ("ok" for 0), never NULL. */
PERFDATA_API const char *perfdata_zstd_error_name(int detail);

/* ---------------------------------------------------- zstd: frame headers */
typedef struct perfdata_zstd_frame_info {
    uint64_t content_size; /* PERFDATA_ZSTD_CONTENT_SIZE_UNKNOWN if absent; skippable: payload size */
    uint64_t window_size;
    uint32_t dict_id;
    uint32_t header_size; /* bytes incl. magic */
    int single_segment;
    int has_checksum;
    int skippable;
} perfdata_zstd_frame_info;

/* Parse the header of the frame starting at src. PERFDATA_OK, or
   PERFDATA_NEED_INPUT when src_size is too short to hold the header
   (err.needed = how many more bytes at least), or an error. */
PERFDATA_API perfdata_status perfdata_zstd_get_frame_info(const void *src, size_t src_size,
                                                          perfdata_zstd_frame_info *info, perfdata_error *err);

/* The window buffer the streaming decoder needs for the frame starting at
   src: Window_Size + min(Window_Size, 128 KiB) + 32; 0 for a skippable
   frame. Any larger buffer works too. PERFDATA_NEED_INPUT as
   perfdata_zstd_get_frame_info; PERFDATA_ERR_LIMIT (E_WINDOW_TOO_LARGE) when
   the window is above PERFDATA_ZSTD_WINDOW_SIZE_MAX or twice it does not fit
   in a size_t. The buffer is a ring: when the free space after the decode
   position drops below one block, decoding continues at the front and
   matches reach back into the bytes before the wrap, so no byte is moved
   whatever the size. */
PERFDATA_API perfdata_status perfdata_zstd_window_buffer_size(const void *src, size_t src_size, size_t *needed,
                                                              perfdata_error *err);

/* ---------------------------------------------------- zstd: decoder state */
/* Private: the types below exist only so that perfdata_zstd_dctx has a
   size the caller can reserve. Their fields, and everything in
   perfdata_zstd_dctx.priv, may change in any release; a caller uses
   perfdata_zstd_dctx only through perfdata_zstd_dctx_init and
   perfdata_zstd_decompress_stream (or hands it to perfdata_zstd_chunk). */
typedef struct perfdata_zstd__seq_entry { uint16_t next; uint8_t nbits; uint8_t xbits; uint32_t base; } perfdata_zstd__seq_entry;
typedef struct perfdata_zstd__huf_entry { uint8_t sym; uint8_t nbits; } perfdata_zstd__huf_entry;
typedef struct perfdata_zstd__xxh64 { uint64_t v[4]; uint64_t total; uint8_t mem[32]; uint32_t memsize; } perfdata_zstd__xxh64;

typedef struct perfdata_zstd__state {
    int error;     /* sticky error detail (< 0) or 0 */
    uint64_t error_offset, error_needed; /* its err.offset and err.needed */
    uint64_t in_total;  /* bytes consumed since perfdata_zstd_dctx_init */
    unsigned flags;
    int state;
    int has_checksum;
    uint64_t window_size, content_size, decoded;
    uint32_t block_max;
    uint32_t rep[3];
    int huf_ok, ll_ok, of_ok, ml_ok;
    unsigned huf_log, ll_log, of_log, ml_log;
    perfdata_zstd__xxh64 xxh;
    /* streaming */
    uint8_t *win;
    size_t win_cap, win_pos, win_lo, flush_pos, flush_end;
    size_t ext_end, ext_n;   /* after a wrap: the frame's bytes before win_lo end at win[ext_end] */
    uint64_t skip_left;
    size_t stage_len;
    perfdata_zstd__seq_entry ll[512], of[256], ml[512];
    perfdata_zstd__huf_entry huf[2048];
    uint8_t lit[PERFDATA_ZSTD_BLOCK_SIZE_MAX + 32];
    uint8_t stage[PERFDATA_ZSTD_BLOCK_SIZE_MAX + 32];
} perfdata_zstd__state;

/* A streaming decoder: about 280 KiB, put it anywhere (static, stack of a
   thread with room, heap). Opaque. */
typedef struct perfdata_zstd_dctx {
    perfdata_zstd__state priv; /* private: never read or written by callers */
} perfdata_zstd_dctx;

/* The workspace perfdata_zstd_decompress needs (any alignment). */
#define PERFDATA_ZSTD_WORKSPACE_SIZE (sizeof(perfdata_zstd_dctx) + 16)

/* --------------------------------------------------------- zstd: one shot */
/* Decode all of src (any number of zstd and skippable frames, each
   complete) into dst. PERFDATA_OK with *out_size = the decoded size, or an
   error (see zstd: errors), with *out_size = the bytes of the blocks decoded
   before the fault. flags: PERFDATA_ZSTD_F_*, or 0. out_size and err may be
   NULL. */
PERFDATA_API perfdata_status perfdata_zstd_decompress(void *dst, size_t dst_cap, const void *src, size_t src_size,
                                                      void *workspace, size_t ws_size, unsigned flags,
                                                      size_t *out_size, perfdata_error *err);

/* -------------------------------------------------------- zstd: streaming */
/* window: the buffer of the frames' windows, reused from frame to frame
   (perfdata_zstd_window_buffer_size; may be NULL if every frame is
   skippable). A frame whose window does not fit in window_cap fails with
   PERFDATA_ERR_LIMIT (E_WINDOW_TOO_LARGE, err.needed = the size it needs).
   flags: PERFDATA_ZSTD_F_*, or 0. Also resets a context after an error. */
PERFDATA_API void perfdata_zstd_dctx_init(perfdata_zstd_dctx *ctx, void *window, size_t window_cap, unsigned flags);

/* Decode from in[0..in_size) into out[0..out_cap): *in_consumed and
   *out_written say how much was taken and given (either may be NULL).
   Input that cannot be decoded yet (a unit split across calls) is staged
   in the context and counts as consumed. Returns
     PERFDATA_OK            all input consumed, all output delivered, at a
                            frame boundary (the end of a stream, or more
                            frames may follow);
     PERFDATA_NEED_INPUT    all input consumed, all output so far delivered,
                            the frame not finished: call again with more;
     PERFDATA_ERR_NO_SPACE  out is full: call again with more room (the
                            rest of in, or in_size 0); nothing is lost and
                            the context is fine;
     an error               sticky: every later call returns the same
                            status and err, until perfdata_zstd_dctx_init.
   err (may be NULL) gets the status returned, detail 0 unless an error.
   PERFDATA_ERR_NO_SPACE is never an error here (the window always has room
   for a block: one that decodes to more than Block_Maximum_Size is
   E_BLOCK). A stream cut inside a frame is no error either: after its last
   byte the call returns PERFDATA_NEED_INPUT, and the caller knows no more
   comes. */
PERFDATA_API perfdata_status perfdata_zstd_decompress_stream(perfdata_zstd_dctx *ctx, const void *in, size_t in_size,
                                                             size_t *in_consumed, void *out, size_t out_cap,
                                                             size_t *out_written, perfdata_error *err);

/* ------------------------------------------------- zstd: perf.data chunks */
/* perfdata_decompress_fn for perfdata_inflate; user is a perfdata_zstd_dctx
   initialised with a large enough window. A decoding error is
   PERFDATA_ERR_MALFORMED (and sticky, as the stream cannot go on). */
PERFDATA_API perfdata_status perfdata_zstd_chunk(void *dctx, const unsigned char *in, size_t in_size,
                                                 unsigned char *out, size_t out_cap, size_t *out_size);

/* ------------------------------------------------------------ zstd: XXH64 */
/* XXH64 (seed 0) of a buffer, as the content checksums use it. */
PERFDATA_API uint64_t perfdata_zstd_xxh64(const void *data, size_t size);
#endif /* PERFDATA_ZSTD */

#ifdef __cplusplus
}
#endif
#endif /* PERFDATA_H */

/* ======================================================================= */
/*                            IMPLEMENTATION                               */
/* ======================================================================= */
#if defined(PERFDATA_IMPLEMENTATION) && !defined(PERFDATA__IMPLEMENTED)
#define PERFDATA__IMPLEMENTED

#ifdef PERFDATA_STATIC
#define PERFDATA_DEF PERFDATA_API
#else
#define PERFDATA_DEF
#endif
#if defined(__GNUC__) || defined(__clang__)
#define PERFDATA__PRIVATE static __attribute__((unused))
#define PERFDATA__HOT static __inline__ __attribute__((unused, always_inline))
/* rare paths kept out of line, so the hot caller stays small */
#define PERFDATA__COLD static __attribute__((unused, noinline, cold))
#else
#define PERFDATA__PRIVATE static
#define PERFDATA__HOT static
#define PERFDATA__COLD static
#endif

#ifdef PERFDATA_NO_ERROR_STRINGS
#define PERFDATA__MSG(text) ""
#else
#define PERFDATA__MSG(text) text
#endif

/* ---------------------------------------------------- internals: loads */
/* Values are assembled from bytes in the file's order, so the host's own
   byte order and alignment never matter. Compilers fold these into one
   load (plus a byte swap) at -O2. */

PERFDATA__HOT uint16_t perfdata__ld16(const unsigned char *p, int big) {
    return big ? (uint16_t)(((unsigned)p[0] << 8) | p[1])
               : (uint16_t)(((unsigned)p[1] << 8) | p[0]);
}

PERFDATA__HOT uint32_t perfdata__ld32(const unsigned char *p, int big) {
    if (big)
        return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
    return ((uint32_t)p[3] << 24) | ((uint32_t)p[2] << 16) | ((uint32_t)p[1] << 8) | (uint32_t)p[0];
}

PERFDATA__HOT uint64_t perfdata__ld64(const unsigned char *p, int big) {
    if (big)
        return ((uint64_t)p[0] << 56) | ((uint64_t)p[1] << 48) | ((uint64_t)p[2] << 40) | ((uint64_t)p[3] << 32) |
               ((uint64_t)p[4] << 24) | ((uint64_t)p[5] << 16) | ((uint64_t)p[6] << 8) | (uint64_t)p[7];
    return ((uint64_t)p[7] << 56) | ((uint64_t)p[6] << 48) | ((uint64_t)p[5] << 40) | ((uint64_t)p[4] << 32) |
           ((uint64_t)p[3] << 24) | ((uint64_t)p[2] << 16) | ((uint64_t)p[1] << 8) | (uint64_t)p[0];
}

/* True when [off, off+n) lies inside a buffer of len bytes; written in
   subtraction form so that no sum can wrap. */
PERFDATA__PRIVATE int perfdata__fits(uint64_t len, uint64_t off, uint64_t n) {
    return n <= len && off <= len - n;
}

/* ---------------------------------------------------------------- errors */

static const char *const perfdata__status_text[] = {
#define PERFDATA__TEXT(name, value, text) PERFDATA__MSG(text),
    PERFDATA__STATUS_LIST(PERFDATA__TEXT)
#undef PERFDATA__TEXT
};
static const char *const perfdata__status_names[] = {
#define PERFDATA__NAME(name, value, text) "PERFDATA_" #name,
    PERFDATA__STATUS_LIST(PERFDATA__NAME)
#undef PERFDATA__NAME
};

PERFDATA_DEF const char *perfdata_status_name(perfdata_status code) {
    if ((unsigned)code >= (unsigned)PERFDATA__STATUS_COUNT) return "PERFDATA_?";
    return perfdata__status_names[code];
}

/* Fills *err (when given) and returns the code. `msg` is a static string. */
PERFDATA__PRIVATE perfdata_status perfdata__fail(perfdata_error *err, perfdata_status code,
                                                 uint64_t offset, uint32_t type, const char *msg) {
    if (err) {
        err->code = code;
        err->offset = offset;
        err->record_type = type;
        err->feature = 0;
        err->needed = 0;
        err->message = (msg && msg[0]) ? msg : perfdata__status_text[code];
        err->detail = 0;
        err->final = 0;
    }
    return code;
}

PERFDATA__PRIVATE perfdata_status perfdata__ok(perfdata_error *err) {
    return perfdata__fail(err, PERFDATA_OK, 0, 0, 0);
}

/* ------------------------------------------- internals: bounded reader */
/* A cursor over one structure. Reads past its end set `overrun` and yield 0;
   every decoder checks overrun before returning, so a zero read past the end
   never reaches the caller as a value. */
typedef struct perfdata__rd {
    const unsigned char *p;
    size_t n;
    size_t pos;
    uint64_t offset;   /* file offset of p[0] */
    int big;
    int overrun;
} perfdata__rd;

PERFDATA__PRIVATE perfdata__rd perfdata__rd_view(perfdata_view v, int big) {
    perfdata__rd r;
    r.p = v.p; r.n = v.n; r.pos = 0; r.offset = v.offset; r.big = big; r.overrun = 0;
    return r;
}

PERFDATA__HOT int perfdata__rd_take(perfdata__rd *r, size_t n) {
    if (r->overrun || n > r->n - r->pos) { r->overrun = 1; r->pos = r->n; return 0; }
    return 1;
}
PERFDATA__HOT uint64_t perfdata__rd64(perfdata__rd *r) {
    uint64_t v;
    if (!perfdata__rd_take(r, 8)) return 0;
    v = perfdata__ld64(r->p + r->pos, r->big); r->pos += 8; return v;
}
PERFDATA__HOT uint32_t perfdata__rd32(perfdata__rd *r) {
    uint32_t v;
    if (!perfdata__rd_take(r, 4)) return 0;
    v = perfdata__ld32(r->p + r->pos, r->big); r->pos += 4; return v;
}
PERFDATA__HOT uint16_t perfdata__rd16(perfdata__rd *r) {
    uint16_t v;
    if (!perfdata__rd_take(r, 2)) return 0;
    v = perfdata__ld16(r->p + r->pos, r->big); r->pos += 2; return v;
}
PERFDATA__HOT uint8_t perfdata__rd8(perfdata__rd *r) {
    if (!perfdata__rd_take(r, 1)) return 0;
    return r->p[r->pos++];
}
PERFDATA__PRIVATE perfdata_view perfdata__rd_bytes(perfdata__rd *r, uint64_t n) {
    perfdata_view v;
    v.p = r->p; v.n = 0; v.offset = r->offset + r->pos;
    if (r->overrun || n > (uint64_t)(r->n - r->pos)) { r->overrun = 1; r->pos = r->n; return v; }
    v.p = r->p + r->pos; v.n = (size_t)n; r->pos += (size_t)n;
    return v;
}
/* count elements of elem bytes each; checked by division so it cannot wrap */
PERFDATA__PRIVATE perfdata_view perfdata__rd_array(perfdata__rd *r, uint64_t count, size_t elem) {
    if (!r->overrun && count > (uint64_t)(r->n - r->pos) / elem) {
        perfdata_view v;
        v.p = r->p; v.n = 0; v.offset = r->offset + r->pos;
        r->overrun = 1; r->pos = r->n;
        return v;
    }
    return perfdata__rd_bytes(r, count * elem);
}
PERFDATA__PRIVATE perfdata_u64s perfdata__rd_u64s(perfdata__rd *r, uint64_t count) {
    perfdata_u64s a;
    a.bytes = perfdata__rd_array(r, count, 8);
    a.count = a.bytes.n / 8;
    a.big_endian = r->big;
    return a;
}
/* A NUL-terminated string inside the next `max` bytes (or up to the end):
   the view stops before the NUL; the reader moves past the whole field. */
PERFDATA__PRIVATE perfdata_view perfdata__rd_string(perfdata__rd *r, size_t max) {
    perfdata_view v;
    size_t avail = r->n - r->pos, i;
    if (max > avail) max = avail;
    v = perfdata__rd_bytes(r, max);
    for (i = 0; i < v.n; i++)
        if (v.p[i] == 0) break;
    v.n = i;
    return v;
}
PERFDATA__PRIVATE perfdata_view perfdata__view_cstr(perfdata_view v) {
    size_t i;
    for (i = 0; i < v.n; i++)
        if (v.p[i] == 0) break;
    v.n = i;
    return v;
}

PERFDATA__PRIVATE perfdata_status perfdata__rd_result(const perfdata__rd *r, perfdata_error *err,
                                                      uint32_t type, const char *what) {
    if (r->overrun) return perfdata__fail(err, PERFDATA_ERR_TRUNCATED, r->offset + r->n, type, what);
    return perfdata__ok(err);
}

/* ---------------------------------------------------------- byte views */

PERFDATA_DEF uint64_t perfdata_u64s_at(const perfdata_u64s *a, size_t i) {
    if (i >= a->count) return 0;
    return perfdata__ld64(a->bytes.p + i * 8, a->big_endian);
}

/* ---------------------------------------------------------- attributes */

PERFDATA__PRIVATE unsigned char perfdata__bitrev8(unsigned char b) {
    b = (unsigned char)(((b & 0xF0u) >> 4) | ((b & 0x0Fu) << 4));
    b = (unsigned char)(((b & 0xCCu) >> 2) | ((b & 0x33u) << 2));
    b = (unsigned char)(((b & 0xAAu) >> 1) | ((b & 0x55u) << 1));
    return b;
}

/* The attr bit-field: a little-endian compiler numbers the fields from bit 0
   of byte 0 upward, a big-endian one from bit 7 of byte 0 downward. Reversing
   each byte of a big-endian file and assembling little-endian gives the one
   numbering. precise_ip, the only multi-bit field we use, is then mirrored
   (its high bit came first), so its two bits are exchanged back. */
PERFDATA__PRIVATE uint64_t perfdata__attr_flags(const unsigned char *p, int big) {
    uint64_t v = 0;
    unsigned i;
    for (i = 0; i < 8; i++) {
        unsigned char b = big ? perfdata__bitrev8(p[i]) : p[i];
        v |= (uint64_t)b << (8 * i);
    }
    if (big) {
        uint64_t lo = (v >> 15) & 1u, hi = (v >> 16) & 1u;
        v &= ~(3ull << 15);
        v |= (lo << 16) | (hi << 15);
    }
    return v;
}

/* Field by field: a struct copy or "= {0}" may become a memset call on
   small targets, and "= {0}" warns in C++. */
PERFDATA__PRIVATE void perfdata__zero_attr(perfdata_attr *a) {
    a->type = a->size = 0;
    a->config = a->sample_period = a->sample_type = a->read_format = a->flags = 0;
    a->wakeup_events = a->bp_type = 0;
    a->config1 = a->config2 = a->branch_sample_type = a->sample_regs_user = 0;
    a->sample_stack_user = 0; a->clockid = 0; a->sample_regs_intr = 0;
    a->aux_watermark = 0; a->sample_max_stack = a->reserved_2 = 0;
    a->aux_sample_size = a->aux_action = 0;
    a->sig_data = a->config3 = a->config4 = 0;
}

PERFDATA_DEF perfdata_status perfdata_decode_attr(perfdata_view bytes, int big, perfdata_attr *a,
                                                  perfdata_error *err) {
    perfdata__rd r;
    uint32_t size;
    perfdata__zero_attr(a);
    if (bytes.n < 8) return perfdata__fail(err, PERFDATA_ERR_TRUNCATED, bytes.offset, 0, PERFDATA__MSG("attr shorter than 8 bytes"));
    size = perfdata__ld32(bytes.p + 4, big);
    if (size == 0) size = PERFDATA_ATTR_SIZE_VER0;
    if (size < PERFDATA_ATTR_SIZE_VER0)
        return perfdata__fail(err, PERFDATA_ERR_MALFORMED, bytes.offset, 0, PERFDATA__MSG("attr size below 64"));
    if (size > bytes.n)
        return perfdata__fail(err, PERFDATA_ERR_TRUNCATED, bytes.offset, 0, PERFDATA__MSG("attr runs past its storage"));
    bytes.n = size;
    r = perfdata__rd_view(bytes, big);
    a->type = perfdata__rd32(&r);
    a->size = perfdata__rd32(&r);
    a->config = perfdata__rd64(&r);
    a->sample_period = perfdata__rd64(&r);
    a->sample_type = perfdata__rd64(&r);
    a->read_format = perfdata__rd64(&r);
    a->flags = perfdata__attr_flags(bytes.p + 40, big);
    r.pos = 48;
    a->wakeup_events = perfdata__rd32(&r);
    a->bp_type = perfdata__rd32(&r);
    a->config1 = perfdata__rd64(&r);
    /* Later fields exist only when attr.size covers them. */
    if (size >= PERFDATA_ATTR_SIZE_VER1) a->config2 = perfdata__rd64(&r);
    if (size >= PERFDATA_ATTR_SIZE_VER2) a->branch_sample_type = perfdata__rd64(&r);
    if (size >= PERFDATA_ATTR_SIZE_VER3) {
        a->sample_regs_user = perfdata__rd64(&r);
        a->sample_stack_user = perfdata__rd32(&r);
        a->clockid = (int32_t)perfdata__rd32(&r);
    }
    if (size >= PERFDATA_ATTR_SIZE_VER4) a->sample_regs_intr = perfdata__rd64(&r);
    if (size >= PERFDATA_ATTR_SIZE_VER5) {
        a->aux_watermark = perfdata__rd32(&r);
        a->sample_max_stack = perfdata__rd16(&r);
        a->reserved_2 = perfdata__rd16(&r);
    }
    if (size >= PERFDATA_ATTR_SIZE_VER6) {
        a->aux_sample_size = perfdata__rd32(&r);
        a->aux_action = perfdata__rd32(&r);
    }
    if (size >= PERFDATA_ATTR_SIZE_VER7) a->sig_data = perfdata__rd64(&r);
    if (size >= PERFDATA_ATTR_SIZE_VER8) a->config3 = perfdata__rd64(&r);
    if (size >= PERFDATA_ATTR_SIZE_VER9) a->config4 = perfdata__rd64(&r);
    return perfdata__rd_result(&r, err, 0, PERFDATA__MSG("attr truncated"));
}

PERFDATA__PRIVATE unsigned perfdata__popcount64(uint64_t v) {
    unsigned n = 0;
    while (v) { v &= v - 1; n++; }
    return n;
}

/* Bytes of the sample_id_all trailer an attr gives non-sample records. */
PERFDATA__PRIVATE uint64_t perfdata__trailer_size(const perfdata_attr *a) {
    uint64_t t = a->sample_type;
    if (!(a->flags & PERFDATA_ATTR_FLAG_SAMPLE_ID_ALL)) return 0;
    return 8 * (uint64_t)(!!(t & PERFDATA_SAMPLE_TID) + !!(t & PERFDATA_SAMPLE_TIME) + !!(t & PERFDATA_SAMPLE_ID) +
                          !!(t & PERFDATA_SAMPLE_STREAM_ID) + !!(t & PERFDATA_SAMPLE_CPU) +
                          !!(t & PERFDATA_SAMPLE_IDENTIFIER));
}

/* perf's __evsel__calc_id_pos / __evsel__calc_is_pos. */
PERFDATA__PRIVATE int perfdata__id_pos(uint64_t t) {
    int pos = 0;
    if (t & PERFDATA_SAMPLE_IDENTIFIER) return 0;
    if (!(t & PERFDATA_SAMPLE_ID)) return -1;
    if (t & PERFDATA_SAMPLE_IP) pos++;
    if (t & PERFDATA_SAMPLE_TID) pos++;
    if (t & PERFDATA_SAMPLE_TIME) pos++;
    if (t & PERFDATA_SAMPLE_ADDR) pos++;
    return pos;
}
PERFDATA__PRIVATE int perfdata__is_pos(uint64_t t) {
    int pos = 1;
    if (t & PERFDATA_SAMPLE_IDENTIFIER) return 1;
    if (!(t & PERFDATA_SAMPLE_ID)) return -1;
    if (t & PERFDATA_SAMPLE_CPU) pos++;
    if (t & PERFDATA_SAMPLE_STREAM_ID) pos++;
    return pos;
}

/* Recomputes what every lookup needs after the event list changed. */
PERFDATA__PRIVATE void perfdata__events_changed(perfdata_file *f) {
    size_t i;
    f->priv.sample_type_union = 0;
    f->flags &= ~PERFDATA_FILE_IDS_AMBIGUOUS;
    f->priv.id_pos = f->priv.is_pos = -1;
    if (f->nr_events == 0) return;
    f->priv.id_pos = perfdata__id_pos(f->events[0].attr.sample_type);
    f->priv.is_pos = perfdata__is_pos(f->events[0].attr.sample_type);
    for (i = 0; i < f->nr_events; i++) {
        uint64_t t = f->events[i].attr.sample_type;
        f->priv.sample_type_union |= t;
        if (perfdata__id_pos(t) != f->priv.id_pos || perfdata__is_pos(t) != f->priv.is_pos)
            f->flags |= PERFDATA_FILE_IDS_AMBIGUOUS;
    }
    if (f->nr_events > 1 && (f->priv.id_pos < 0 || f->priv.is_pos < 0)) f->flags |= PERFDATA_FILE_IDS_AMBIGUOUS;
}

PERFDATA__PRIVATE void perfdata__names_from_event_desc(perfdata_file *f, perfdata_view sec, int can_wait);

/* -------------------------------------------------- file: the id index */
/* The index is sorted runs of (id, event): a base run filled and sorted by
   perfdata_set_id_index(), then the ids of events added since (pipe mode),
   appended one by one and merged as a binary counter carries, so the tail
   holds one run per set bit of its length, longest first. Adding an id is
   O(log n) amortised (a merge borrows the free entries after the index:
   room for twice the ids keeps it so) and a lookup searches O(log n) runs.
   Among equal ids the latest event wins, as in perf's id hash. */

PERFDATA_DEF size_t perfdata_id_index_needed(const perfdata_file *f) {
    size_t i, n = 0;
    for (i = 0; i < f->nr_events; i++) {
        if (f->events[i].ids.count > (size_t)-1 - n) return (size_t)-1; /* cannot be had: never wraps */
        n += f->events[i].ids.count;
    }
    return n;
}

PERFDATA__PRIVATE int perfdata__id_less(const perfdata_id_entry *a, const perfdata_id_entry *b) {
    return a->id < b->id || (a->id == b->id && a->event < b->event);
}

PERFDATA__PRIVATE void perfdata__sift_down(perfdata_id_entry *a, size_t root, size_t n) {
    for (;;) {
        size_t child = 2 * root + 1;
        perfdata_id_entry t;
        if (child >= n) return;
        if (child + 1 < n && perfdata__id_less(&a[child], &a[child + 1])) child++;
        if (!perfdata__id_less(&a[root], &a[child])) return;
        t = a[root]; a[root] = a[child]; a[child] = t;
        root = child;
    }
}

/* Heapsort on (id, event): in place, no recursion, O(n log n) whatever the input. */
PERFDATA__PRIVATE void perfdata__sort_ids(perfdata_id_entry *a, size_t n) {
    size_t i;
    if (n < 2) return;
    for (i = n / 2; i-- > 0;) perfdata__sift_down(a, i, n);
    for (i = n - 1; i > 0; i--) {
        perfdata_id_entry t = a[0]; a[0] = a[i]; a[i] = t;
        perfdata__sift_down(a, 0, i);
    }
}

PERFDATA__PRIVATE void perfdata__fill_id_index(perfdata_file *f) {
    size_t i, j, n = 0;
    for (i = 0; i < f->nr_events; i++)
        for (j = 0; j < f->events[i].ids.count; j++) {
            f->priv.id_index[n].id = perfdata_u64s_at(&f->events[i].ids, j);
            f->priv.id_index[n].event = (uint32_t)i;
            f->priv.id_index[n].unused = 0;
            n++;
        }
    f->priv.nr_ids = f->priv.sorted_ids = n;
    perfdata__sort_ids(f->priv.id_index, n);
}

/* Merges the adjacent sorted runs a[0..n) and a[n..2n) through scratch[0..n). */
PERFDATA__PRIVATE void perfdata__merge_runs(perfdata_id_entry *a, size_t n, perfdata_id_entry *scratch) {
    size_t i = 0, j = n, o = 0, k;
    for (k = 0; k < n; k++) scratch[k] = a[k];
    while (i < n && j < 2 * n) {
        if (perfdata__id_less(&a[j], &scratch[i])) a[o++] = a[j++];
        else a[o++] = scratch[i++]; /* ties: the older run first */
    }
    while (i < n) a[o++] = scratch[i++];
}

/* Adds event `e`'s ids to an installed index with room for them. */
PERFDATA__PRIVATE void perfdata__index_event(perfdata_file *f, size_t e) {
    perfdata_id_entry *a = f->priv.id_index;
    size_t j;
    for (j = 0; j < f->events[e].ids.count; j++) {
        size_t tail = f->priv.nr_ids - f->priv.sorted_ids, run = 1;
        a[f->priv.nr_ids].id = perfdata_u64s_at(&f->events[e].ids, j);
        a[f->priv.nr_ids].event = (uint32_t)e;
        a[f->priv.nr_ids].unused = 0;
        f->priv.nr_ids++;
        /* the carry: runs of 1, 2, 4... before the new entry merge with it */
        while (tail & run) {
            if (f->priv.cap_ids - f->priv.nr_ids < run) { /* no scratch: one sorted run */
                perfdata__sort_ids(a, f->priv.nr_ids);
                f->priv.sorted_ids = f->priv.nr_ids;
                break;
            }
            perfdata__merge_runs(a + f->priv.nr_ids - 2 * run, run, a + f->priv.nr_ids);
            run *= 2;
        }
    }
}

PERFDATA_DEF perfdata_status perfdata_set_id_index(perfdata_file *f, perfdata_id_entry *entries, size_t cap,
                                                   perfdata_error *err) {
    size_t need = perfdata_id_index_needed(f);
    if (!entries && cap) return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, 0, 0, 0);
    if (cap < need) {
        perfdata__fail(err, PERFDATA_NEED_MEMORY, 0, 0, PERFDATA__MSG("id index too small"));
        if (err) { err->needed = (uint64_t)need * sizeof(perfdata_id_entry); err->detail = PERFDATA_POOL_IDS; }
        return PERFDATA_NEED_MEMORY;
    }
    f->priv.id_index = entries;
    f->priv.cap_ids = cap;
    if (entries) perfdata__fill_id_index(f);
    else f->priv.nr_ids = f->priv.sorted_ids = 0;
    if (entries && f->priv.names_pending.n) perfdata__names_from_event_desc(f, f->priv.names_pending, 0);
    return perfdata__ok(err);
}

/* The latest event of id in a sorted run, or -1. */
PERFDATA__HOT long perfdata__search_run(const perfdata_id_entry *a, size_t n, uint64_t id) {
    size_t lo = 0, hi = n;
    if (n <= 16) { /* the usual few ids: a scan beats the search */
        while (lo < n && a[lo].id <= id) lo++;
    } else {
        while (lo < hi) { /* the first entry above id */
            size_t mid = lo + (hi - lo) / 2;
            if (a[mid].id <= id) lo = mid + 1;
            else hi = mid;
        }
    }
    return lo && a[lo - 1].id == id ? (long)a[lo - 1].event : -1;
}

/* The search of perfdata_find_event; inlined where every sample needs it. */
PERFDATA__HOT long perfdata__find_event(const perfdata_file *f, uint64_t id) {
    size_t i, j;
    if (f->priv.id_index) {
        size_t tail = f->priv.nr_ids - f->priv.sorted_ids, end = f->priv.nr_ids;
        while (tail) { /* the newest run is the last and shortest */
            size_t run = tail & (~tail + 1);
            long ev = perfdata__search_run(f->priv.id_index + end - run, run, id);
            if (ev >= 0) return ev;
            end -= run;
            tail -= run;
        }
        return perfdata__search_run(f->priv.id_index, f->priv.sorted_ids, id);
    }
    for (i = f->nr_events; i-- > 0;)
        for (j = 0; j < f->events[i].ids.count; j++)
            if (perfdata_u64s_at(&f->events[i].ids, j) == id) return (long)i;
    return -1;
}

PERFDATA_DEF long perfdata_find_event(const perfdata_file *f, uint64_t id) {
    return perfdata__find_event(f, id);
}

/* ---------------------------------------------------------------- file */

#define PERFDATA__MAGIC_LE 0x32454c4946524550ull /* "PERFILE2" read little-endian */
#define PERFDATA__MAGIC_BE 0x50455246494c4532ull
#define PERFDATA__MAGIC_V1 0x454c494646524550ull /* "PERFFILE" */

PERFDATA__PRIVATE perfdata_status perfdata__check_magic(const unsigned char *p, size_t n, int *big,
                                                        perfdata_error *err) {
    uint64_t m;
    if (n < 16) return perfdata__fail(err, PERFDATA_ERR_TRUNCATED, 0, 0, PERFDATA__MSG("shorter than a perf.data header"));
    m = perfdata__ld64(p, 0);
    if (m == PERFDATA__MAGIC_LE) { *big = 0; return PERFDATA_OK; }
    if (m == PERFDATA__MAGIC_BE) { *big = 1; return PERFDATA_OK; }
    if (m == PERFDATA__MAGIC_V1 || perfdata__ld64(p, 1) == PERFDATA__MAGIC_V1)
        return perfdata__fail(err, PERFDATA_ERR_UNSUPPORTED, 0, 0,
                              PERFDATA__MSG("version 1 'PERFFILE' magic is not supported"));
    return perfdata__fail(err, PERFDATA_ERR_MALFORMED, 0, 0, PERFDATA__MSG("not a perf.data file (bad magic)"));
}

PERFDATA__PRIVATE perfdata_status perfdata__add_event(perfdata_file *f, perfdata_view attr_bytes,
                                                      perfdata_u64s ids, perfdata_error *err) {
    perfdata_event *e;
    perfdata_status st;
    if (f->nr_events >= f->priv.cap_events) {
        perfdata__fail(err, PERFDATA_NEED_MEMORY, attr_bytes.offset, 0, PERFDATA__MSG("more events than perfdata_event slots"));
        if (err) { err->needed = ((uint64_t)f->nr_events + 1) * sizeof(perfdata_event); err->detail = PERFDATA_POOL_EVENTS; }
        return PERFDATA_NEED_MEMORY;
    }
    e = &f->events[f->nr_events];
    st = perfdata_decode_attr(attr_bytes, (f->flags & PERFDATA_FILE_BIG_ENDIAN) != 0, &e->attr, err);
    if (st != PERFDATA_OK) return st;
    e->attr_bytes = attr_bytes;
    e->attr_bytes.n = e->attr.size ? e->attr.size : PERFDATA_ATTR_SIZE_VER0;
    e->ids = ids;
    e->sample_id_size = perfdata__trailer_size(&e->attr);
    e->name.p = attr_bytes.p; e->name.n = 0; e->name.offset = attr_bytes.offset;
    f->nr_events++;
    perfdata__events_changed(f);
    if (f->priv.id_index) {
        if (ids.count <= f->priv.cap_ids - f->priv.nr_ids) perfdata__index_event(f, f->nr_events - 1);
        else f->priv.id_index = 0; /* out of room: fall back to scanning */
    }
    return PERFDATA_OK;
}


/* The feature bitmap is an array of unsigned long in the writer's order, so
   for a big-endian writer the bit numbering depends on its word size. perf
   (perf_file_header__read) tries 64-bit words, then 32-bit words, accepting
   the one with the HOSTNAME bit that every perf sets, and otherwise keeps
   BUILD_ID alone. simpleperf sets no HOSTNAME, so perf's test loses every
   feature of a big-endian simpleperf file; we also accept the word size
   under which ARCH or OSRELEASE (which every writer sets) is present, and
   fall back to perf's answer when neither is. */
PERFDATA__PRIVATE int perfdata__plausible_features(const uint64_t bits[4], int strict) {
    if (bits[0] & (1ull << PERFDATA_FEAT_HOSTNAME)) return 1;
    return !strict && (bits[0] & ((1ull << PERFDATA_FEAT_ARCH) | (1ull << PERFDATA_FEAT_OSRELEASE)));
}

PERFDATA__PRIVATE void perfdata__read_feature_bits(perfdata_file *f, const unsigned char *p) {
    uint64_t as64[4], as32[4];
    unsigned i;
    int big = (f->flags & PERFDATA_FILE_BIG_ENDIAN) != 0, strict;
    for (i = 0; i < 4; i++) f->features[i] = perfdata__ld64(p + 8 * i, big);
    if (!big) return;
    for (i = 0; i < 4; i++) {
        as64[i] = f->features[i];
        as32[i] = (uint64_t)perfdata__ld32(p + 8 * i, 1) | ((uint64_t)perfdata__ld32(p + 8 * i + 4, 1) << 32);
    }
    for (strict = 1; strict >= 0; strict--) {
        if (perfdata__plausible_features(as64, strict)) return;
        if (perfdata__plausible_features(as32, strict)) {
            for (i = 0; i < 4; i++) f->features[i] = as32[i];
            return;
        }
    }
    for (i = 0; i < 4; i++) f->features[i] = 0;
    f->features[0] = 1ull << PERFDATA_FEAT_BUILD_ID;
}

/* A range that starts inside a buffer of len bytes (or at its end) and runs
   past it without overflowing: what a cut file looks like. */
PERFDATA__PRIVATE int perfdata__cut_off(uint64_t len, uint64_t off, uint64_t n) {
    return off <= len && n > len - off && n <= (uint64_t)-1 - off;
}

/* TRUNCATED at the cut (the end of the buffer), with the bytes missing. */
PERFDATA__COLD perfdata_status perfdata__fail_cut(perfdata_error *err, uint64_t len, uint64_t end,
                                                  const char *msg) {
    perfdata__fail(err, PERFDATA_ERR_TRUNCATED, len, 0, msg);
    if (err) err->needed = end - len;
    return PERFDATA_ERR_TRUNCATED;
}

PERFDATA__PRIVATE void perfdata__read_section(perfdata__rd *r, perfdata_section *s) {
    s->offset = perfdata__rd64(r);
    s->size = perfdata__rd64(r);
}

/* File mode: each attr entry is perf_event_attr (attr.size bytes) followed by
   a {offset,size} section of u64 ids. Like perf, step by attr.size + 16. */
PERFDATA__PRIVATE perfdata_status perfdata__read_attrs(perfdata_file *f, size_t *count_only, perfdata_error *err) {
    const unsigned char *p = f->buffer.p;
    int big = (f->flags & PERFDATA_FILE_BIG_ENDIAN) != 0;
    uint64_t pos = f->attrs.offset, end = f->attrs.offset + f->attrs.size;
    uint64_t nr = f->attrs.size / f->attr_size, i, id_bytes = 0;
    /* Counting validates every entry too: a corrupt attr_size can claim
       billions of attrs, and the caller would size its storage by that. */
    if (count_only) *count_only = 0;
    for (i = 0; i < nr; i++) {
        uint32_t asize;
        perfdata_view av;
        perfdata_section ids;
        perfdata_u64s idv;
        perfdata_status st;
        if (!perfdata__fits(end, pos, 8))
            return perfdata__fail(err, PERFDATA_ERR_MALFORMED, pos, 0, PERFDATA__MSG("attr table entry out of bounds"));
        asize = perfdata__ld32(p + pos + 4, big);
        if (asize == 0) asize = PERFDATA_ATTR_SIZE_VER0;
        if (!perfdata__fits(end, pos, (uint64_t)asize + 16))
            return perfdata__fail(err, PERFDATA_ERR_MALFORMED, pos, 0, PERFDATA__MSG("attr table entry out of bounds"));
        ids.offset = perfdata__ld64(p + pos + asize, big);
        ids.size = perfdata__ld64(p + pos + asize + 8, big);
        if (!perfdata__fits(f->buffer.n, ids.offset, ids.size))
            return perfdata__fail(err, PERFDATA_ERR_MALFORMED, pos + asize, 0, PERFDATA__MSG("attr id array out of bounds"));
        /* perf writes each event's ids once; arrays that overlap could
           claim more ids than the file holds, and an id index sized by
           their sum would be unbounded */
        id_bytes += ids.size;
        if (id_bytes > f->buffer.n)
            return perfdata__fail(err, PERFDATA_ERR_MALFORMED, pos + asize, 0,
                                  PERFDATA__MSG("the attrs' id arrays overlap: more ids than the file holds"));
        if (!count_only) {
            av.p = p + pos; av.n = asize; av.offset = pos;
            idv.bytes.p = p + ids.offset; idv.bytes.n = (size_t)(ids.size & ~7ull);
            idv.bytes.offset = ids.offset; idv.count = idv.bytes.n / 8; idv.big_endian = big;
            st = perfdata__add_event(f, av, idv, err);
            if (st != PERFDATA_OK) {
                if (st == PERFDATA_NEED_MEMORY && err) err->needed = nr * sizeof(perfdata_event);
                return st;
            }
        }
        pos += (uint64_t)asize + 16;
        if (count_only) *count_only = (size_t)(i + 1);
    }
    return PERFDATA_OK;
}

PERFDATA__PRIVATE perfdata_status perfdata__open_file_mode(perfdata_file *f, size_t *count_only, perfdata_error *err) {
    perfdata__rd r = perfdata__rd_view(f->buffer, (f->flags & PERFDATA_FILE_BIG_ENDIAN) != 0);
    uint64_t n = f->buffer.n, nfeat = 0;
    unsigned i;
    r.pos = 8;
    f->header_size = perfdata__rd64(&r);
    /* judged as soon as it is there: a stream's first 16 bytes say the same */
    if (!r.overrun && f->header_size != 104 && f->header_size != 72)
        return perfdata__fail(err, PERFDATA_ERR_MALFORMED, 8, 0, PERFDATA__MSG("unknown file header size"));
    f->attr_size = perfdata__rd64(&r);
    if (r.overrun) return perfdata__fail(err, PERFDATA_ERR_TRUNCATED, 0, 0, PERFDATA__MSG("file header truncated"));
    if (n < f->header_size) return perfdata__fail_cut(err, n, f->header_size, PERFDATA__MSG("file header truncated"));
    if (f->attr_size == 0)
        return perfdata__fail(err, PERFDATA_ERR_MALFORMED, 16, 0, PERFDATA__MSG("attr_size is 0"));
    perfdata__read_section(&r, &f->attrs);
    perfdata__read_section(&r, &f->data);
    /* A file cut before its data section, inside the id arrays and attr
       table perf writes first, is refused (as perf does); a cut data
       section is read up to the cut. */
    if (n < f->data.offset && f->data.size <= (uint64_t)-1 - f->data.offset && f->attrs.offset <= f->data.offset &&
        f->attrs.size <= f->data.offset - f->attrs.offset)
        return perfdata__fail_cut(err, n, f->data.offset, PERFDATA__MSG("the file is cut off before its data section"));
    if (!perfdata__fits(n, f->attrs.offset, f->attrs.size))
        return perfdata__fail(err, PERFDATA_ERR_MALFORMED, 24, 0, PERFDATA__MSG("attr section out of bounds"));
    if (!perfdata__fits(n, f->data.offset, f->data.size) && !perfdata__cut_off(n, f->data.offset, f->data.size))
        return perfdata__fail(err, PERFDATA_ERR_MALFORMED, 40, 0, PERFDATA__MSG("data section out of bounds"));
    /* event_types is legacy and ignored by perf; keep it, do not check it */
    f->event_types.offset = perfdata__rd64(&r);
    f->event_types.size = perfdata__rd64(&r);
    if (f->header_size == 104) perfdata__read_feature_bits(f, f->buffer.p + 72);
    if (f->data.size == 0) f->flags |= PERFDATA_FILE_DATA_SIZE_ZERO;
    /* The feature index follows the data: one section per set bit. */
    for (i = 0; i < PERFDATA_FEAT_BITS; i++)
        if (f->features[i / 64] & (1ull << (i % 64))) nfeat++;
    f->feature_index.p = f->buffer.p;
    f->feature_index.n = 0;
    f->feature_index.offset = f->data.offset + f->data.size;
    if (f->data.size > n - f->data.offset) { /* the data section is cut */
        f->flags |= PERFDATA_FILE_CUT;
        f->data_missing = f->data.size - (n - f->data.offset);
        f->data.size = n - f->data.offset;
    }
    if (nfeat && f->feature_index.offset <= n) {
        /* A cut index is no index (perf reads it whole or not at all; the
           sections it lists follow it, so they are cut off too). Sections
           laid out as perf writes them are a cut when one of them runs past
           the end of the buffer: after the index (past the slots of bits
           perf cleared while writing, at most 4 KiB), one after the other
           in bit order. One that begins inside the buffer and runs past it,
           after the index, is taken for a cut whatever the layout. Others
           are left to be found malformed. */
        uint64_t whole = nfeat, chain = 0;
        int big = (f->flags & PERFDATA_FILE_BIG_ENDIAN) != 0, in_order = 1;
        if (nfeat * 16 > n - f->feature_index.offset) {
            f->flags |= PERFDATA_FILE_CUT;
            whole = 0;
        }
        f->feature_index.p = f->buffer.p + f->feature_index.offset;
        f->feature_index.n = (size_t)(whole * 16);
        for (i = 0; i < whole; i++) {
            const unsigned char *slot = f->feature_index.p + 16 * i;
            uint64_t off = perfdata__ld64(slot, big), size = perfdata__ld64(slot + 8, big);
            int after_index = off >= f->feature_index.offset && off - f->feature_index.offset >= nfeat * 16;
            if (after_index && perfdata__cut_off(n, off, size)) f->flags |= PERFDATA_FILE_CUT;
            if (i == 0) in_order = after_index && off - f->feature_index.offset - nfeat * 16 <= 4096;
            else in_order &= off == chain;
            if (size > (uint64_t)-1 - off) in_order = 0;
            else chain = off + size;
        }
        if (whole && in_order && chain > n) f->flags |= PERFDATA_FILE_CUT;
    }
    return perfdata__read_attrs(f, count_only, err);
}

/* Names from an EVENT_DESC section: perf gives each entry's name to the
   event that owns its first id (evlist__set_event_name), never replacing a
   name. An entry without ids names the event at its own index. perf writes
   the entries in the events' order, so entry i is checked against event i
   first; any other entry is looked up in the id index. A file's section,
   read by perfdata_open() before an index can be installed, waits for
   perfdata_set_id_index() (a scan of every id for each entry would be
   quadratic); a pipe's, with no index, is matched by that scan, as every
   record then is. */
PERFDATA__PRIVATE void perfdata__names_from_event_desc(perfdata_file *f, perfdata_view sec, int can_wait) {
    perfdata_feat_event_desc d;
    perfdata_event_desc_entry e;
    size_t state = 0, i = 0;
    f->priv.names_pending.n = 0;
    if (perfdata_decode_feat_event_desc(sec, (f->flags & PERFDATA_FILE_BIG_ENDIAN) != 0, &d, 0) != PERFDATA_OK) return;
    for (; perfdata_event_desc_next(&d, &state, &e); i++) {
        long ev = (long)i;
        if (e.ids.count) {
            uint64_t id = perfdata_u64s_at(&e.ids, 0);
            if (i < f->nr_events && f->events[i].ids.count && perfdata_u64s_at(&f->events[i].ids, 0) == id) ev = (long)i;
            else if (f->priv.id_index || !can_wait) ev = perfdata__find_event(f, id);
            else { f->priv.names_pending = sec; continue; }
        }
        if (ev >= 0 && (size_t)ev < f->nr_events && f->events[ev].name.n == 0) f->events[ev].name = e.name;
    }
}

/* EVENT_UPDATE NAME renames an event (perf_event__process_event_update);
   a pipe's EVENT_DESC arrives as a HEADER_FEATURE record. */
PERFDATA__PRIVATE void perfdata__update_names(perfdata_file *f, const perfdata_record *rec) {
    if (rec->type == PERFDATA_RECORD_EVENT_UPDATE) {
        perfdata_event_update u;
        long ev;
        if (perfdata_decode_event_update(f, rec, &u, 0) != PERFDATA_OK || u.type != PERFDATA_EVENT_UPDATE_NAME) return;
        ev = perfdata_find_event(f, u.id);
        if (ev >= 0) f->events[ev].name = u.text;
    } else if (rec->type == PERFDATA_RECORD_HEADER_FEATURE) {
        perfdata_header_feature hf;
        if (perfdata_decode_header_feature(f, rec, &hf, 0) == PERFDATA_OK && hf.feat_id == PERFDATA_FEAT_EVENT_DESC)
            perfdata__names_from_event_desc(f, hf.data, 0);
    }
}

PERFDATA__PRIVATE perfdata_status perfdata__open(perfdata_file *f, const void *data, size_t size,
                                                 perfdata_event *events, size_t cap, size_t *count_only,
                                                 perfdata_error *err) {
    int big = 0;
    unsigned i;
    perfdata_status st;
    f->buffer.p = 0; f->buffer.n = 0; f->buffer.offset = 0;
    f->flags = 0; f->header_size = f->attr_size = 0;
    f->attrs.offset = f->attrs.size = f->data.offset = f->data.size = 0;
    f->data_missing = 0;
    f->event_types.offset = f->event_types.size = 0;
    for (i = 0; i < 4; i++) f->features[i] = 0;
    f->feature_index = f->buffer;
    f->events = 0; f->nr_events = f->priv.cap_events = 0;
    f->priv.id_index = 0; f->priv.nr_ids = f->priv.cap_ids = f->priv.sorted_ids = 0;
    f->priv.names_pending.p = 0; f->priv.names_pending.n = 0; f->priv.names_pending.offset = 0;
    f->priv.id_pos = f->priv.is_pos = -1;
    f->priv.sample_type_union = 0;
    if (!data && size) return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, 0, 0, PERFDATA__MSG("NULL buffer"));
    if (!events && cap) return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, 0, 0, PERFDATA__MSG("NULL events with a capacity"));
    f->buffer.p = (const unsigned char *)data;
    f->buffer.n = size;
    f->buffer.offset = 0;
    f->events = events;
    f->priv.cap_events = cap;
    st = perfdata__check_magic(f->buffer.p, size, &big, err);
    if (st != PERFDATA_OK) return st;
    if (big) f->flags |= PERFDATA_FILE_BIG_ENDIAN;
    /* Like perf, a header size of 16 means a pipe whatever the file type. */
    if (perfdata__ld64(f->buffer.p + 8, big) == 16) {
        f->flags |= PERFDATA_FILE_PIPE;
        f->header_size = 16;
        f->data.offset = 16;
        f->data.size = size - 16;
        if (count_only) {
            perfdata_cursor c;
            perfdata_record rec;
            size_t n = 0;
            perfdata_cursor_init_range(&c, f->buffer.p + 16, size - 16, 16, big);
            while ((st = perfdata_next_record(f, &c, &rec, err)) == PERFDATA_OK)
                if (rec.type == PERFDATA_RECORD_HEADER_ATTR) n++;
            *count_only = n; /* what was seen, also when the stream ends badly */
            return st == PERFDATA_END ? perfdata__ok(err) : st;
        }
        return perfdata__ok(err);
    }
    st = perfdata__open_file_mode(f, count_only, err);
    if (st != PERFDATA_OK) return st;
    if (!count_only && perfdata_has_feature(f, PERFDATA_FEAT_EVENT_DESC)) {
        perfdata_view sec;
        if (perfdata_feature_section(f, PERFDATA_FEAT_EVENT_DESC, &sec, 0) == PERFDATA_OK)
            perfdata__names_from_event_desc(f, sec, 1);
    }
    return perfdata__ok(err);
}

PERFDATA_DEF perfdata_status perfdata_open(perfdata_file *f, const void *data, size_t size,
                                           perfdata_event *events, size_t cap, perfdata_error *err) {
    return perfdata__open(f, data, size, events, cap, 0, err);
}

PERFDATA_DEF perfdata_status perfdata_count_events(const void *data, size_t size, size_t *count,
                                                   perfdata_error *err) {
    perfdata_file f;
    *count = 0;
    return perfdata__open(&f, data, size, 0, 0, count, err);
}

/* ---------------------------------------------- file: feature sections */

PERFDATA_DEF int perfdata_has_feature(const perfdata_file *f, unsigned feature) {
    if (feature >= PERFDATA_FEAT_BITS) return 0;
    return (f->features[feature / 64] >> (feature % 64)) & 1u;
}

PERFDATA_DEF perfdata_status perfdata_feature_section(const perfdata_file *f, unsigned feature,
                                                      perfdata_view *section, perfdata_error *err) {
    unsigned i, slot = 0;
    uint64_t off, sz;
    int big = (f->flags & PERFDATA_FILE_BIG_ENDIAN) != 0;
    perfdata_status st;
    section->p = f->buffer.p; section->n = 0; section->offset = 0;
    if (!perfdata_has_feature(f, feature)) {
        st = perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, 0, 0, PERFDATA__MSG("feature not present"));
        if (err) err->feature = feature;
        return st;
    }
    for (i = 0; i < feature; i++) slot += (unsigned)perfdata_has_feature(f, i);
    if ((uint64_t)slot * 16 + 16 > f->feature_index.n) {
        st = perfdata__fail(err, PERFDATA_ERR_TRUNCATED, f->feature_index.offset, 0, PERFDATA__MSG("feature index out of bounds"));
        if (err) {
            /* the bytes of the index past the end of the buffer (it is
               read whole or not at all) */
            uint64_t nfeat = 0, have = 0;
            for (i = 0; i < PERFDATA_FEAT_BITS; i++) nfeat += (uint64_t)perfdata_has_feature(f, i);
            if (f->feature_index.offset <= f->buffer.n) have = f->buffer.n - f->feature_index.offset;
            err->feature = feature;
            if (nfeat * 16 > have) err->needed = nfeat * 16 - have;
        }
        return st;
    }
    off = perfdata__ld64(f->feature_index.p + slot * 16, big);
    sz = perfdata__ld64(f->feature_index.p + slot * 16 + 8, big);
    if ((f->flags & PERFDATA_FILE_CUT) && !perfdata__fits(f->buffer.n, off, sz) && sz <= (uint64_t)-1 - off) {
        section->offset = off;
        st = perfdata__fail(err, PERFDATA_ERR_TRUNCATED, off, 0, PERFDATA__MSG("feature section cut off"));
        if (err) {
            err->feature = feature;
            err->needed = off + sz - f->buffer.n;
        }
        return st;
    }
    if (!perfdata__fits(f->buffer.n, off, sz)) {
        section->offset = off; /* what the index says, for diagnostics */
        st = perfdata__fail(err, PERFDATA_ERR_MALFORMED, f->feature_index.offset + slot * 16, 0,
                            PERFDATA__MSG("feature section out of bounds"));
        if (err) err->feature = feature;
        return st;
    }
    section->p = f->buffer.p + off;
    section->n = (size_t)sz;
    section->offset = off;
    return perfdata__ok(err);
}

PERFDATA_DEF perfdata_status perfdata_feature_string(const perfdata_file *f, unsigned feature,
                                                     perfdata_view *text, perfdata_error *err) {
    perfdata_view sec;
    perfdata__rd r;
    uint32_t len;
    perfdata_status st = perfdata_feature_section(f, feature, &sec, err);
    text->p = f->buffer.p; text->n = 0; text->offset = 0;
    if (st != PERFDATA_OK) return st;
    r = perfdata__rd_view(sec, (f->flags & PERFDATA_FILE_BIG_ENDIAN) != 0);
    len = perfdata__rd32(&r);
    *text = perfdata__view_cstr(perfdata__rd_bytes(&r, len));
    st = perfdata__rd_result(&r, err, 0, PERFDATA__MSG("string feature truncated"));
    if (st != PERFDATA_OK && err) err->feature = feature;
    return st;
}

/* -------------------------------------------------------------- records */

PERFDATA_DEF void perfdata_cursor_init_range(perfdata_cursor *c, const void *bytes, size_t n, uint64_t offset,
                                             int big_endian) {
    c->priv.range.p = (const unsigned char *)bytes;
    c->priv.range.n = bytes ? n : 0;
    c->priv.range.offset = offset;
    c->priv.pos = 0;
    c->priv.big_endian = big_endian;
    c->priv.register_attrs = 0;
    c->priv.update_events = 0;
    c->priv.stopped = PERFDATA_OK;
    c->priv.error.code = PERFDATA_OK;
    c->priv.error.offset = 0;
    c->priv.error.record_type = 0;
    c->priv.error.feature = 0;
    c->priv.error.needed = 0;
    c->priv.error.message = "";
    c->priv.error.detail = 0;
    c->priv.error.final = 0;
    c->priv.missing = 0;
    c->priv.stream = 0;
}

PERFDATA_DEF uint64_t perfdata_cursor_offset(const perfdata_cursor *c) {
    return c->priv.range.offset + c->priv.pos;
}

/* A cursor over the data section that registers nothing. */
PERFDATA__PRIVATE void perfdata__cursor_data(const perfdata_file *f, perfdata_cursor *c) {
    uint64_t off = f->data.offset, n = f->data.size;
    if (f->flags & PERFDATA_FILE_DATA_SIZE_ZERO) n = 0;
    if (!perfdata__fits(f->buffer.n, off, n)) { off = 0; n = 0; }
    perfdata_cursor_init_range(c, f->buffer.p + off, (size_t)n, off, (f->flags & PERFDATA_FILE_BIG_ENDIAN) != 0);
    if (!(f->flags & PERFDATA_FILE_DATA_SIZE_ZERO)) c->priv.missing = f->data_missing;
}

PERFDATA_DEF void perfdata_cursor_init(perfdata_file *f, perfdata_cursor *c) {
    perfdata__cursor_data(f, c);
    c->priv.update_events = 1;
    if (f->flags & PERFDATA_FILE_PIPE) {
        /* Pipe attrs live only in the stream: a new pass starts afresh. */
        c->priv.register_attrs = 1;
        f->nr_events = 0;
        f->priv.nr_ids = f->priv.sorted_ids = 0;
        f->priv.names_pending.n = 0;
        perfdata__events_changed(f);
    }
}

/* Bytes a record carries after itself, outside header.size. */
PERFDATA__PRIVATE perfdata_status perfdata__extra_size(const perfdata_record *rec, uint64_t *extra,
                                                       perfdata_error *err) {
    *extra = 0;
    if (rec->type == PERFDATA_RECORD_HEADER_TRACING_DATA) {
        uint32_t size;
        if (rec->body.n < 4) return perfdata__fail(err, PERFDATA_ERR_MALFORMED, rec->offset, rec->type, PERFDATA__MSG("TRACING_DATA record too short"));
        size = perfdata__ld32(rec->body.p, rec->big_endian);
        /* perf writes a 12-byte record and the data after it; simpleperf
           puts the data inside the record. */
        if (rec->body.n - 4 < size) *extra = size;
    } else if (rec->type == PERFDATA_RECORD_AUXTRACE) {
        if (rec->body.n < 8) return perfdata__fail(err, PERFDATA_ERR_MALFORMED, rec->offset, rec->type, PERFDATA__MSG("AUXTRACE record too short"));
        *extra = perfdata__ld64(rec->body.p, rec->big_endian);
    }
    return PERFDATA_OK;
}

PERFDATA__COLD perfdata_status perfdata__stop(perfdata_cursor *c, perfdata_status st, perfdata_error *err,
                                                 uint64_t offset, uint32_t type, const char *msg) {
    perfdata__fail(&c->priv.error, st, offset, type, msg);
    c->priv.stopped = st;
    c->priv.error.final = st != PERFDATA_END;
    if (err) *err = c->priv.error;
    return st;
}

/* The end of a cut range: TRUNCATED at the cut, whether or not a partial
   record (of type `type`, 0 if unknown) lies before it. */
PERFDATA__COLD perfdata_status perfdata__stop_cut(perfdata_cursor *c, perfdata_error *err, uint32_t type) {
    perfdata__fail(&c->priv.error, PERFDATA_ERR_TRUNCATED, c->priv.range.offset + c->priv.range.n, type,
                   PERFDATA__MSG("the file is cut off inside the data section"));
    c->priv.error.needed = c->priv.missing;
    c->priv.stopped = PERFDATA_ERR_TRUNCATED;
    c->priv.error.final = 1;
    if (err) *err = c->priv.error;
    return PERFDATA_ERR_TRUNCATED;
}

/* The cold ends of perfdata_next_record: a stopped cursor, the end (or the
   cut), a short header. */

PERFDATA__COLD perfdata_status perfdata__next_stopped(perfdata_cursor *c, perfdata_error *err, size_t left,
                                                         uint64_t off) {
    if (c->priv.stopped != PERFDATA_OK) {
        if (err) *err = c->priv.error;
        return c->priv.stopped;
    }
    if (c->priv.missing) return perfdata__stop_cut(c, err, 0);
    if (left == 0) return perfdata__stop(c, PERFDATA_END, err, off, 0, 0);
    perfdata__stop(c, PERFDATA_ERR_TRUNCATED, err, off, 0, PERFDATA__MSG("record header truncated"));
    c->priv.error.needed = 8 - left;
    if (err) err->needed = c->priv.error.needed;
    return PERFDATA_ERR_TRUNCATED;
}

/* A record running `short_by` bytes past the end of the range. */
PERFDATA__COLD perfdata_status perfdata__next_short(perfdata_cursor *c, perfdata_error *err, uint32_t type,
                                                    size_t short_by, uint64_t off) {
    if (c->priv.missing) return perfdata__stop_cut(c, err, type);
    perfdata__stop(c, PERFDATA_ERR_TRUNCATED, err, off, type, PERFDATA__MSG("record runs past the end of the data"));
    c->priv.error.needed = short_by;
    if (err) err->needed = short_by;
    return PERFDATA_ERR_TRUNCATED;
}

/* What a user record needs beyond framing: the payload after TRACING_DATA
   and AUXTRACE, attrs to register, names to update. 0 when the record is
   to be returned as it is. */
PERFDATA__COLD perfdata_status perfdata__next_user(perfdata_file *f, perfdata_cursor *c, perfdata_record *rec,
                                                      perfdata_error *err, size_t left) {
    uint64_t extra = 0;
    perfdata_status st = perfdata__extra_size(rec, &extra, &c->priv.error);
    if (st != PERFDATA_OK) { c->priv.stopped = st; c->priv.error.final = 1; if (err) *err = c->priv.error; return st; }
    if (extra > left - rec->size) {
        if (c->priv.missing) return perfdata__stop_cut(c, err, rec->type);
        perfdata__stop(c, PERFDATA_ERR_TRUNCATED, err, rec->offset, rec->type,
                       PERFDATA__MSG("record payload runs past the end of the data"));
        c->priv.error.needed = extra - (left - rec->size);
        if (err) err->needed = c->priv.error.needed;
        return PERFDATA_ERR_TRUNCATED;
    }
    rec->extra.n = (size_t)extra;
    c->priv.pos += (size_t)extra;
    if (c->priv.register_attrs && rec->type == PERFDATA_RECORD_HEADER_ATTR) {
        st = perfdata_add_event(f, rec, err);
        if (st == PERFDATA_NEED_MEMORY) {
            c->priv.pos -= rec->size + (size_t)extra; /* retry after the caller makes room */
            return st;
        }
        if (st != PERFDATA_OK) return st; /* a bad attr record: reported, skippable */
    }
    if (c->priv.update_events) perfdata__update_names(f, rec);
    return PERFDATA_OK;
}

PERFDATA_DEF perfdata_status perfdata_next_record(perfdata_file *f, perfdata_cursor *c, perfdata_record *rec,
                                                  perfdata_error *err) {
    size_t left = c->priv.range.n - c->priv.pos, size;
    uint64_t off = c->priv.range.offset + c->priv.pos;
    const unsigned char *p;
    int big = c->priv.big_endian;
    rec->type = 0; /* no record: never a stale type after END or an error */
    rec->bytes.n = rec->extra.n = 0;
    if (c->priv.stopped != PERFDATA_OK || left < 8) return perfdata__next_stopped(c, err, left, off);
    p = c->priv.range.p + c->priv.pos;
    rec->type = perfdata__ld32(p, big);
    rec->misc = perfdata__ld16(p + 4, big);
    rec->size = perfdata__ld16(p + 6, big);
    rec->offset = off;
    rec->big_endian = big;
    rec->stream = c->priv.stream;
    size = rec->size;
    if (size < 8)
        return perfdata__stop(c, PERFDATA_ERR_MALFORMED, err, off, rec->type, PERFDATA__MSG("record size below 8"));
    if (size > left) return perfdata__next_short(c, err, rec->type, size - left, off);
    rec->bytes.p = p; rec->bytes.n = size; rec->bytes.offset = off;
    rec->body.p = p + 8; rec->body.n = size - 8; rec->body.offset = off + 8;
    rec->extra.p = p + size; rec->extra.n = 0; rec->extra.offset = off + size;
    c->priv.pos += size;
    /* Kernel records (below 64) need nothing more. */
    if (rec->type >= PERFDATA_RECORD_HEADER_ATTR) {
        perfdata_status st = perfdata__next_user(f, c, rec, err, left);
        if (st != PERFDATA_OK) return st;
    }
    return err ? perfdata__ok(err) : PERFDATA_OK;
}

PERFDATA_DEF perfdata_status perfdata_add_event(perfdata_file *f, const perfdata_record *rec, perfdata_error *err) {
    perfdata_header_attr ha;
    perfdata_status st = perfdata_decode_header_attr(f, rec, &ha, err);
    if (st != PERFDATA_OK) return st;
    st = perfdata__add_event(f, ha.attr_bytes, ha.ids, err);
    if (st != PERFDATA_OK && err) { err->record_type = rec->type; if (st != PERFDATA_NEED_MEMORY) err->offset = rec->offset; }
    return st;
}

PERFDATA_DEF const char *perfdata_record_name(uint32_t type) {
    static const char *const kernel[] = {
        0, "MMAP", "LOST", "COMM", "EXIT", "THROTTLE", "UNTHROTTLE", "FORK", "READ", "SAMPLE", "MMAP2", "AUX",
        "ITRACE_START", "LOST_SAMPLES", "SWITCH", "SWITCH_CPU_WIDE", "NAMESPACES", "KSYMBOL", "BPF_EVENT",
        "CGROUP", "TEXT_POKE", "AUX_OUTPUT_HW_ID", "CALLCHAIN_DEFERRED"};
    static const char *const user[] = {
        "ATTR", "EVENT_TYPE", "TRACING_DATA", "BUILD_ID", "FINISHED_ROUND", "ID_INDEX", "AUXTRACE_INFO",
        "AUXTRACE", "AUXTRACE_ERROR", "THREAD_MAP", "CPU_MAP", "STAT_CONFIG", "STAT", "STAT_ROUND",
        "EVENT_UPDATE", "TIME_CONV", "FEATURE", "COMPRESSED", "FINISHED_INIT", "COMPRESSED2", "BPF_METADATA",
        "SCHEDSTAT_CPU", "SCHEDSTAT_DOMAIN"};
    if (type >= 1 && type < sizeof kernel / sizeof kernel[0]) return kernel[type];
    if (type >= 64 && type - 64 < sizeof user / sizeof user[0]) return user[type - 64];
    return "UNKNOWN";
}

/* -------------------------------------- records: the event of a record */

PERFDATA__PRIVATE perfdata_status perfdata__no_event(perfdata_error *err, const perfdata_record *rec,
                                                     perfdata_status code, const char *msg) {
    return perfdata__fail(err, code, rec->offset, rec->type, msg);
}

PERFDATA__HOT long perfdata__record_event(const perfdata_file *f, const perfdata_record *rec, perfdata_error *err) {
    uint64_t id;
    size_t words = rec->body.n / 8;
    long e;
    if (f->nr_events == 0) {
        perfdata__no_event(err, rec, PERFDATA_ERR_UNKNOWN_ID, PERFDATA__MSG("no event (attr) known yet"));
        return -1;
    }
    /* evlist__event2evsel: one event, or ids that do not locate => first */
    if (f->nr_events == 1 || (f->flags & PERFDATA_FILE_IDS_AMBIGUOUS)) return 0;
    if (rec->type != PERFDATA_RECORD_SAMPLE && !(f->events[0].attr.flags & PERFDATA_ATTR_FLAG_SAMPLE_ID_ALL))
        return 0;
    if (rec->type == PERFDATA_RECORD_SAMPLE) {
        if ((size_t)f->priv.id_pos >= words) {
            perfdata__no_event(err, rec, PERFDATA_ERR_MALFORMED, PERFDATA__MSG("sample too short to hold its id"));
            return -1;
        }
        id = perfdata__ld64(rec->body.p + 8 * (size_t)f->priv.id_pos, rec->big_endian);
    } else {
        if ((size_t)f->priv.is_pos > words) {
            perfdata__no_event(err, rec, PERFDATA_ERR_MALFORMED, PERFDATA__MSG("record too short to hold its id"));
            return -1;
        }
        id = perfdata__ld64(rec->body.p + 8 * (words - (size_t)f->priv.is_pos), rec->big_endian);
    }
    if (id == 0) return 0; /* perf: synthesized records have id 0 */
    e = perfdata__find_event(f, id);
    if (e < 0) perfdata__no_event(err, rec, PERFDATA_ERR_UNKNOWN_ID, 0);
    return e;
}

PERFDATA_DEF long perfdata_record_event(const perfdata_file *f, const perfdata_record *rec, perfdata_error *err) {
    return perfdata__record_event(f, rec, err);
}

/* ------------------------------------------------ records: event names */

typedef struct perfdata__str { char *buf; size_t len, pos; } perfdata__str;

PERFDATA__PRIVATE void perfdata__puts(perfdata__str *s, const char *t) {
    for (; *t; t++)
        if (s->pos + 1 < s->len) s->buf[s->pos++] = *t;
    if (s->len) s->buf[s->pos < s->len ? s->pos : s->len - 1] = 0;
}
PERFDATA__PRIVATE void perfdata__putc(perfdata__str *s, char c) {
    char t[2];
    t[0] = c; t[1] = 0;
    perfdata__puts(s, t);
}
PERFDATA__PRIVATE void perfdata__puthex(perfdata__str *s, uint64_t v) {
    char t[17];
    int i = 16;
    t[16] = 0;
    do { t[--i] = "0123456789abcdef"[v & 15]; v >>= 4; } while (v);
    perfdata__puts(s, t + i);
}
PERFDATA__PRIVATE void perfdata__putdec(perfdata__str *s, uint64_t v) {
    char t[21];
    int i = 20;
    t[20] = 0;
    do { t[--i] = (char)('0' + v % 10); v /= 10; } while (v);
    perfdata__puts(s, t + i);
}

/* perf's evsel__add_modifiers: ":kuh" for what is not excluded when
   something is, "p" per precise level, and "H"/"G" when host or guest is
   excluded other than by default. */
PERFDATA__PRIVATE void perfdata__modifiers(perfdata__str *s, const perfdata_attr *a) {
    int colon = 0, exclude_guest_default = 0;
    unsigned p = perfdata_attr_precise_ip(a);
#define PERFDATA__MOD(flag, c)                                   \
    do {                                                         \
        if (!(a->flags & (flag))) {                              \
            if (!colon) { perfdata__putc(s, ':'); colon = 1; }   \
            perfdata__putc(s, c);                                \
        }                                                        \
    } while (0)
    if (a->flags & (PERFDATA_ATTR_FLAG_EXCLUDE_KERNEL | PERFDATA_ATTR_FLAG_EXCLUDE_USER | PERFDATA_ATTR_FLAG_EXCLUDE_HV)) {
        PERFDATA__MOD(PERFDATA_ATTR_FLAG_EXCLUDE_KERNEL, 'k');
        PERFDATA__MOD(PERFDATA_ATTR_FLAG_EXCLUDE_USER, 'u');
        PERFDATA__MOD(PERFDATA_ATTR_FLAG_EXCLUDE_HV, 'h');
        exclude_guest_default = 1;
    }
    if (p) {
        if (!colon) { perfdata__putc(s, ':'); colon = 1; }
        while (p--) perfdata__putc(s, 'p');
        exclude_guest_default = 1;
    }
    if ((a->flags & PERFDATA_ATTR_FLAG_EXCLUDE_HOST) ||
        ((a->flags & PERFDATA_ATTR_FLAG_EXCLUDE_GUEST) != 0) == exclude_guest_default) {
        PERFDATA__MOD(PERFDATA_ATTR_FLAG_EXCLUDE_HOST, 'H');
        PERFDATA__MOD(PERFDATA_ATTR_FLAG_EXCLUDE_GUEST, 'G');
    }
#undef PERFDATA__MOD
}

/* perf's hw cache names: type-op-result from the first alias of each,
   "invalid-cache" for combinations perf rejects. */
PERFDATA__PRIVATE void perfdata__hw_cache_name(perfdata__str *s, uint64_t config) {
    static const char *const types[] = {"L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node"};
    static const char *const ops[] = {"load", "store", "prefetch"};
    static const char *const results[] = {"refs", "misses"};
    /* evsel__hw_cache_stat: which ops each type supports (load 1, store 2, prefetch 4) */
    static const unsigned char valid_ops[] = {7, 5, 7, 3, 1, 1, 7};
    unsigned type = (unsigned)(config & 0xff), op = (unsigned)((config >> 8) & 0xff), res = (unsigned)((config >> 16) & 0xff);
    if (type >= 7 || op >= 3 || res >= 2 || !((valid_ops[type] >> op) & 1u)) {
        perfdata__puts(s, "invalid-cache");
        return;
    }
    perfdata__puts(s, types[type]);
    perfdata__putc(s, '-');
    perfdata__puts(s, ops[op]);
    perfdata__putc(s, '-');
    perfdata__puts(s, results[res]);
}

PERFDATA_DEF const char *perfdata_event_name(const perfdata_file *f, long event, char *buf, size_t len) {
    static const char *const hw[] = {"cycles", "instructions", "cache-references", "cache-misses", "branches",
                                     "branch-misses", "bus-cycles", "stalled-cycles-frontend",
                                     "stalled-cycles-backend", "ref-cycles"};
    static const char *const sw[] = {"cpu-clock", "task-clock", "page-faults", "context-switches",
                                     "cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
                                     "emulation-faults", "dummy", "bpf-output", "cgroup-switches"};
    perfdata__str s;
    const perfdata_attr *a;
    size_t i;
    s.buf = buf; s.len = len; s.pos = 0;
    if (!buf || !len) return buf;
    buf[0] = 0;
    if (!f || event < 0 || (size_t)event >= f->nr_events) { perfdata__puts(&s, "unknown"); return buf; }
    if (f->events[event].name.n) {
        const perfdata_view *n = &f->events[event].name;
        for (i = 0; i < n->n && n->p[i]; i++) perfdata__putc(&s, (char)n->p[i]);
        return buf;
    }
    a = &f->events[event].attr;
    switch (a->type) {
    case 0: perfdata__puts(&s, a->config < 10 ? hw[a->config] : "unknown-hardware"); break;
    case 1: perfdata__puts(&s, a->config < 12 ? sw[a->config] : "unknown-software"); break;
    case 2: perfdata__puts(&s, "unknown tracepoint"); return buf;
    case 3: perfdata__hw_cache_name(&s, a->config); break;
    case 4: perfdata__putc(&s, 'r'); perfdata__puthex(&s, a->config); break;
    case 5:
        perfdata__puts(&s, "mem:0x");
        perfdata__puthex(&s, a->config1);
        perfdata__putc(&s, ':');
        if (a->bp_type & 1) perfdata__putc(&s, 'r');
        if (a->bp_type & 2) perfdata__putc(&s, 'w');
        if (a->bp_type & 4) perfdata__putc(&s, 'x');
        break;
    default:
        perfdata__puts(&s, "unknown attr type: ");
        perfdata__putdec(&s, a->type);
        return buf;
    }
    perfdata__modifiers(&s, a);
    return buf;
}

/* ------------------------------------------------------------ time order */

PERFDATA_DEF uint64_t perfdata_record_time(const perfdata_file *f, const perfdata_record *rec) {
    uint64_t t = 0;
    if (rec->type >= 64 || rec->type == 0) return 0;
    if (rec->type == PERFDATA_RECORD_SAMPLE) {
        /* Like perf (evsel__parse_sample_timestamp), only the fields up to
           the time are read: the queue needs no more. */
        long e = perfdata_record_event(f, rec, 0);
        uint64_t st = e >= 0 ? f->events[e].attr.sample_type : 0;
        size_t at = 8u * (size_t)(!!(st & PERFDATA_SAMPLE_IDENTIFIER) + !!(st & PERFDATA_SAMPLE_IP) +
                                  !!(st & PERFDATA_SAMPLE_TID));
        if ((st & PERFDATA_SAMPLE_TIME) && rec->body.n >= at + 8) t = perfdata__ld64(rec->body.p + at, rec->big_endian);
    } else {
        perfdata_sample_id sid;
        if (perfdata_decode_sample_id(f, rec, &sid, 0) == PERFDATA_OK && (sid.sample_type & PERFDATA_SAMPLE_TIME)) t = sid.time;
    }
    return t == (uint64_t)-1 ? 0 : t; /* perf: 0 and ~0 mean "no time" */
}

/* Whether the error just returned by the source ended it: a cursor says
   so by its state, any source by err->final. */
PERFDATA__PRIVATE int perfdata__ordered_stopped(const perfdata_ordered *o, const perfdata_error *err) {
    if (o->priv.cursor && o->priv.cursor->priv.stopped != PERFDATA_OK) return 1;
    return err && err->final;
}

PERFDATA_DEF void perfdata_ordered_set_source(perfdata_ordered *o, perfdata_record_source source, void *user) {
    o->priv.source = source;
    o->priv.source_user = user;
}

PERFDATA_DEF void perfdata_ordered_set_cursor(perfdata_ordered *o, perfdata_cursor *c, int more_follow) {
    o->priv.cursor = c;
    o->priv.hold_end = more_follow;
}

PERFDATA_DEF size_t perfdata_ordered_queued(const perfdata_ordered *o) {
    return o->priv.nr;
}

/* No entry: the end of a run or of the free list. */
#define PERFDATA__ORDER_NONE ((size_t)-1)

PERFDATA_DEF void perfdata_ordered_init(perfdata_ordered *o, perfdata_cursor *c, perfdata_order_entry *window, size_t cap) {
    o->priv.cursor = c;
    o->priv.queue = window;
    o->priv.cap = window ? (cap < PERFDATA__ORDER_NONE ? cap : PERFDATA__ORDER_NONE - 1) : 0;
    o->priv.nr = 0;
    o->priv.fresh = 0;
    o->priv.free_slot = PERFDATA__ORDER_NONE;
    o->priv.runs = 0;
    o->priv.last = PERFDATA__ORDER_NONE;
    o->priv.seq = 0;
    o->priv.max_time = o->priv.last_time = o->priv.next_flush = o->priv.flush_limit = 0;
    o->priv.flushing = o->priv.draining = 0;
    o->priv.have_held = 0;
    o->priv.have_final = 0;
    o->priv.hold_end = 0;
    o->priv.source = 0;
    o->priv.source_user = 0;
}

/* The queue holds runs: records that came in (time, seq) order, each a
   list through `next`. perf's records come so, a run per ring buffer it
   read, and a record later than the last one queued joins its run in
   O(1). A binary heap of the runs' first entries (kept in the `run` fields
   of entries 0, 1, ...) gives the earliest: O(log runs) a record, and no
   worse than a heap of records when nothing comes in order. */
PERFDATA__PRIVATE int perfdata__order_before(const perfdata_order_entry *q, size_t a, size_t b) {
    return q[a].time < q[b].time || (q[a].time == q[b].time && q[a].seq < q[b].seq);
}

PERFDATA__PRIVATE void perfdata__order_down(perfdata_ordered *o, size_t i) {
    perfdata_order_entry *q = o->priv.queue;
    size_t n = o->priv.runs, run = q[i].run;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && perfdata__order_before(q, q[child + 1].run, q[child].run)) child++;
        if (!perfdata__order_before(q, q[child].run, run)) break;
        q[i].run = q[child].run;
        i = child;
    }
    q[i].run = run;
}

PERFDATA__PRIVATE void perfdata__order_push(perfdata_ordered *o, const perfdata_record *rec, uint64_t t) {
    perfdata_order_entry *q = o->priv.queue;
    size_t e;
    if (o->priv.free_slot != PERFDATA__ORDER_NONE) {
        e = o->priv.free_slot;
        o->priv.free_slot = q[e].next;
    } else {
        e = o->priv.fresh++;
    }
    if (o->priv.nr++ == 0 || t >= o->priv.max_time) o->priv.max_time = t;
    o->priv.last_time = t;
    q[e].time = t;
    q[e].seq = o->priv.seq++;
    q[e].bytes = rec->bytes.p;
    q[e].offset = rec->offset;
    q[e].bytes_offset = rec->bytes.offset;
    q[e].extra = rec->extra.n;
    q[e].big_endian = rec->big_endian;
    q[e].stream = rec->stream;
    q[e].next = PERFDATA__ORDER_NONE;
    if (o->priv.last != PERFDATA__ORDER_NONE && t >= q[o->priv.last].time) {
        q[o->priv.last].next = e; /* the run goes on: its first entry, the heap's key, stays */
    } else {
        size_t i = o->priv.runs++;
        while (i > 0 && perfdata__order_before(q, e, q[(i - 1) / 2].run)) {
            q[i].run = q[(i - 1) / 2].run;
            i = (i - 1) / 2;
        }
        q[i].run = e;
    }
    o->priv.last = e;
}

/* The earliest entry (the queue is not empty). */
PERFDATA__PRIVATE const perfdata_order_entry *perfdata__order_first(const perfdata_ordered *o) {
    return &o->priv.queue[o->priv.queue[0].run];
}

/* The record a queue entry stands for, as perfdata_next_record gave it. */
PERFDATA__PRIVATE void perfdata__order_record(const perfdata_order_entry *e, perfdata_record *rec) {
    const unsigned char *p = e->bytes;
    size_t size = perfdata__ld16(p + 6, e->big_endian);
    rec->type = perfdata__ld32(p, e->big_endian);
    rec->misc = perfdata__ld16(p + 4, e->big_endian);
    rec->size = (uint16_t)size;
    rec->offset = e->offset;
    rec->big_endian = e->big_endian;
    rec->stream = e->stream;
    rec->bytes.p = p; rec->bytes.n = size; rec->bytes.offset = e->bytes_offset;
    rec->body.p = p + 8; rec->body.n = size - 8; rec->body.offset = e->bytes_offset + 8;
    rec->extra.p = p + size; rec->extra.n = e->extra; rec->extra.offset = e->bytes_offset + size;
}

PERFDATA__PRIVATE void perfdata__order_pop(perfdata_ordered *o, perfdata_record *rec) {
    perfdata_order_entry *q = o->priv.queue;
    size_t e = q[0].run;
    perfdata__order_record(&q[e], rec);
    if (q[e].next != PERFDATA__ORDER_NONE) {
        q[0].run = q[e].next; /* the run's next entry is its first now */
    } else {
        if (e == o->priv.last) o->priv.last = PERFDATA__ORDER_NONE;
        q[0].run = q[--o->priv.runs].run;
    }
    if (o->priv.runs) perfdata__order_down(o, 0);
    q[e].next = o->priv.free_slot;
    o->priv.free_slot = e;
    if (--o->priv.nr == 0) { /* empty: the slots start afresh, in order */
        o->priv.fresh = 0;
        o->priv.free_slot = PERFDATA__ORDER_NONE;
        o->priv.last = PERFDATA__ORDER_NONE;
    }
}

PERFDATA_DEF perfdata_status perfdata_ordered_grow(perfdata_ordered *o, perfdata_order_entry *window, size_t cap,
                                                   perfdata_error *err) {
    size_t i;
    if (!window || cap < o->priv.nr) return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, 0, 0, PERFDATA__MSG("window smaller than the queue"));
    if (cap >= PERFDATA__ORDER_NONE) cap = PERFDATA__ORDER_NONE - 1;
    if (window != o->priv.queue && o->priv.fresh > cap) {
        /* the queue fits but its slots do not: moved run by run, in order */
        perfdata_order_entry *q = o->priv.queue;
        size_t r, n = 0, last = PERFDATA__ORDER_NONE;
        for (r = 0; r < o->priv.runs; r++) {
            size_t e = q[r].run, first = n;
            for (; e != PERFDATA__ORDER_NONE; e = q[e].next) {
                window[n] = q[e];
                window[n].next = q[e].next == PERFDATA__ORDER_NONE ? PERFDATA__ORDER_NONE : n + 1;
                if (e == o->priv.last) last = n;
                n++;
            }
            q[r].run = first; /* the heap's order is the runs' first entries', which keep their keys */
        }
        for (r = 0; r < o->priv.runs; r++) window[r].run = q[r].run;
        o->priv.fresh = n;
        o->priv.free_slot = PERFDATA__ORDER_NONE;
        o->priv.last = last;
    } else if (window != o->priv.queue) {
        for (i = 0; i < o->priv.fresh; i++) window[i] = o->priv.queue[i];
    }
    o->priv.queue = window;
    o->priv.cap = cap;
    return perfdata__ok(err);
}

/* One step of a release in progress; returns 1 with a record, else 0 when
   this release is over. */
PERFDATA__PRIVATE int perfdata__order_release(perfdata_ordered *o, perfdata_record *rec) {
    if (o->priv.nr && (o->priv.flushing == 2 || perfdata__order_first(o)->time <= o->priv.flush_limit)) {
        perfdata__order_pop(o, rec);
        return 1;
    }
    return 0;
}

/* A FINISHED_ROUND: nothing happens on an empty queue; the first round
   releases nothing; each later one releases up to the previous round's
   highest time (ordered_events__flush, OE_FLUSH__ROUND). */
PERFDATA__PRIVATE void perfdata__order_round(perfdata_ordered *o) {
    if (!o->priv.nr) return;
    o->priv.flush_limit = o->priv.next_flush;
    o->priv.flushing = o->priv.next_flush != 0;
    o->priv.next_flush = o->priv.max_time;
}

PERFDATA_DEF void perfdata_ordered_flush(perfdata_ordered *o, perfdata_flush how) {
    uint64_t first, limit;
    if (!o->priv.nr || o->priv.flushing == 2) return;
    first = perfdata__order_first(o)->time;
    if (how == PERFDATA_FLUSH_ALL) limit = ~(uint64_t)0;
    else {
        limit = first + (o->priv.last_time > first ? (o->priv.last_time - first) / 2 : 0);
        o->priv.next_flush = limit;
    }
    if (!o->priv.flushing || limit > o->priv.flush_limit) o->priv.flush_limit = limit;
    o->priv.flushing = 1;
}

PERFDATA_DEF perfdata_status perfdata_ordered_next(perfdata_file *f, perfdata_ordered *o, perfdata_record *rec,
                                                   perfdata_error *err) {
    perfdata_status st;
    for (;;) {
        uint64_t t;
        if (o->priv.flushing) {
            if (perfdata__order_release(o, rec)) return perfdata__ok(err);
            if (o->priv.flushing == 2) {
                /* the queue is empty: the error that ended the source, if one did */
                if (o->priv.have_final) {
                    o->priv.have_final = 0;
                    if (err) *err = o->priv.final;
                    return o->priv.final.code;
                }
                return perfdata__fail(err, PERFDATA_END, 0, 0, 0);
            }
            o->priv.flushing = 0;
        }
        if (o->priv.draining) {
            o->priv.flushing = 2;
            continue;
        }
        if (o->priv.have_held) {
            *rec = o->priv.held;
        } else {
            st = o->priv.source ? o->priv.source(o->priv.source_user, f, o->priv.cursor, rec, err) : perfdata_next_record(f, o->priv.cursor, rec, err);
            if (st == PERFDATA_NEED_INPUT || st == PERFDATA_NEED_MEMORY) return st; /* call again later */
            if (st == PERFDATA_END && o->priv.hold_end) return st;
            if (st == PERFDATA_END) { o->priv.draining = 1; continue; }
            if (st != PERFDATA_OK) {
                /* an error that ends the cursor still releases the queue,
                   as perf does at the end of a stream; the error comes
                   after the queued records */
                if (perfdata__ordered_stopped(o, err) && o->priv.nr) {
                    o->priv.final = *err;
                    o->priv.have_final = 1;
                    o->priv.draining = 1;
                    continue;
                }
                return st;
            }
        }
        t = perfdata_record_time(f, rec);
        if (!t) {
            o->priv.have_held = 0;
            if (rec->type == PERFDATA_RECORD_FINISHED_ROUND) perfdata__order_round(o);
            return perfdata__ok(err);
        }
        if (o->priv.nr >= o->priv.cap) {
            o->priv.held = *rec;
            o->priv.have_held = 1;
            st = perfdata__fail(err, PERFDATA_NEED_MEMORY, rec->offset, rec->type, PERFDATA__MSG("reorder window full"));
            if (err) { err->needed = ((uint64_t)o->priv.nr + 1) * sizeof(perfdata_order_entry); err->detail = PERFDATA_POOL_QUEUE; }
            return st;
        }
        o->priv.have_held = 0;
        perfdata__order_push(o, rec, t);
    }
}

PERFDATA_DEF size_t perfdata_ordered_window_hint(perfdata_file *f) {
    perfdata_cursor c;
    perfdata_record rec;
    size_t prev = 0, cur = 0, best = 0;
    perfdata_status st;
    perfdata_cursor_init(f, &c);
    while ((st = perfdata_next_record(f, &c, &rec, 0)) != PERFDATA_END) {
        if (st == PERFDATA_NEED_MEMORY || c.priv.stopped != PERFDATA_OK) break;
        if (st != PERFDATA_OK) continue;
        if (rec.type == PERFDATA_RECORD_FINISHED_ROUND) {
            if (prev + cur > best) best = prev + cur;
            prev = cur;
            cur = 0;
        } else if (perfdata_record_time(f, &rec)) {
            cur++;
        }
    }
    if (prev + cur > best) best = prev + cur;
    return best;
}

/* --------------------------------------------------------------- sample */

/* Bytes of one group read entry: value[, id][, lost]. */
PERFDATA__PRIVATE size_t perfdata__read_stride(uint64_t fmt) {
    return (size_t)8 * (1u + ((fmt & PERFDATA_FORMAT_ID) ? 1u : 0u) + ((fmt & PERFDATA_FORMAT_LOST) ? 1u : 0u));
}

PERFDATA_DEF perfdata_read_value perfdata_read_at(const perfdata_read *r, size_t i) {
    perfdata_read_value v = {0, 0, 0};
    size_t stride = perfdata__read_stride(r->read_format);
    const unsigned char *p;
    if (!(r->read_format & PERFDATA_FORMAT_GROUP)) return i == 0 && r->nr ? r->single : v;
    if (i >= r->nr || i >= r->values.n / stride) return v;
    p = r->values.p + i * stride;
    v.value = perfdata__ld64(p, r->big_endian);
    p += 8;
    if (r->read_format & PERFDATA_FORMAT_ID) { v.id = perfdata__ld64(p, r->big_endian); p += 8; }
    if (r->read_format & PERFDATA_FORMAT_LOST) v.lost = perfdata__ld64(p, r->big_endian);
    return v;
}

/* read_format: without GROUP value[,enabled][,running][,id][,lost]; with
   GROUP nr[,enabled][,running] then {value[,id][,lost]} x nr. */
PERFDATA__PRIVATE void perfdata__rd_read(perfdata__rd *r, uint64_t fmt, perfdata_read *out) {
    size_t stride = perfdata__read_stride(fmt);
    out->read_format = fmt;
    out->big_endian = r->big;
    out->time_enabled = out->time_running = 0;
    out->single.value = out->single.id = out->single.lost = 0;
    if (fmt & PERFDATA_FORMAT_GROUP) {
        out->nr = perfdata__rd64(r);
        if (fmt & PERFDATA_FORMAT_TOTAL_TIME_ENABLED) out->time_enabled = perfdata__rd64(r);
        if (fmt & PERFDATA_FORMAT_TOTAL_TIME_RUNNING) out->time_running = perfdata__rd64(r);
        out->values = perfdata__rd_array(r, out->nr, stride);
        if (r->overrun) out->nr = 0;
        return;
    }
    out->nr = 1;
    out->values.p = r->p + r->pos; out->values.n = 0; out->values.offset = r->offset + r->pos;
    out->single.value = perfdata__rd64(r);
    if (fmt & PERFDATA_FORMAT_TOTAL_TIME_ENABLED) out->time_enabled = perfdata__rd64(r);
    if (fmt & PERFDATA_FORMAT_TOTAL_TIME_RUNNING) out->time_running = perfdata__rd64(r);
    if (fmt & PERFDATA_FORMAT_ID) out->single.id = perfdata__rd64(r);
    if (fmt & PERFDATA_FORMAT_LOST) out->single.lost = perfdata__rd64(r);
}

/* Branch entry flags: a bit-field in a u64. On a big-endian writer the
   fields are allocated from the most significant bit down, so after the
   u64 load they sit mirrored; re-pack them into the little-endian layout. */
PERFDATA__PRIVATE uint64_t perfdata__branch_flags(uint64_t v, int big) {
    static const unsigned char widths[] = {1, 1, 1, 1, 16, 4, 2, 4, 3, 31};
    uint64_t out = 0;
    unsigned i, lo = 0, hi = 64;
    if (!big) return v;
    for (i = 0; i < sizeof widths; i++) {
        unsigned w = widths[i];
        uint64_t field;
        hi -= w;
        field = (v >> hi) & ((1ull << w) - 1);
        out |= field << lo;
        lo += w;
    }
    return out;
}

PERFDATA_DEF perfdata_branch_entry perfdata_branch_at(const perfdata_branch_stack *b, size_t i) {
    perfdata_branch_entry e = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    const unsigned char *p;
    uint64_t fl;
    if (i >= b->nr || i >= b->entries.n / 24) return e;
    p = b->entries.p + i * 24;
    e.from = perfdata__ld64(p, b->big_endian);
    e.to = perfdata__ld64(p + 8, b->big_endian);
    fl = perfdata__branch_flags(perfdata__ld64(p + 16, b->big_endian), b->big_endian);
    e.flags = fl;
    e.mispred = (unsigned)(fl & 1u);
    e.predicted = (unsigned)((fl >> 1) & 1u);
    e.in_tx = (unsigned)((fl >> 2) & 1u);
    e.abort = (unsigned)((fl >> 3) & 1u);
    e.cycles = (unsigned)((fl >> 4) & 0xffffu);
    e.type = (unsigned)((fl >> 20) & 0xfu);
    e.spec = (unsigned)((fl >> 24) & 0x3u);
    e.new_type = (unsigned)((fl >> 26) & 0xfu);
    e.privilege = (unsigned)((fl >> 30) & 0x7u);
    return e;
}

PERFDATA_DEF uint64_t perfdata_regs_get(const perfdata_regs *r, unsigned reg, int *found) {
    if (found) *found = 0;
    if (reg >= 64 || !r->abi || !((r->mask >> reg) & 1u)) return 0;
    if (found) *found = 1;
    return perfdata_u64s_at(&r->values, perfdata__popcount64(r->mask & ((1ull << reg) - 1)));
}

PERFDATA__PRIVATE void perfdata__rd_regs(perfdata__rd *r, uint64_t mask, perfdata_regs *out) {
    out->abi = perfdata__rd64(r);
    out->mask = mask;
    out->values = perfdata__rd_u64s(r, out->abi ? perfdata__popcount64(mask) : 0);
}

PERFDATA__PRIVATE void perfdata__rd_branch_stack(perfdata__rd *r, uint64_t bst, perfdata_branch_stack *b) {
    b->big_endian = r->big;
    b->nr = perfdata__rd64(r);
    b->has_hw_idx = (bst & PERFDATA_BRANCH_HW_INDEX) != 0;
    b->hw_idx = b->has_hw_idx ? perfdata__rd64(r) : 0;
    b->entries = perfdata__rd_array(r, b->nr, 24);
    b->counters = perfdata__rd_u64s(r, (bst & PERFDATA_BRANCH_COUNTERS) ? b->nr : 0);
    if (r->overrun) b->nr = 0;
}

/* The fields before READ are 8 bytes each (TID and CPU are two u32s):
   IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID, CPU, PERIOD. Bytes of
   those fields: bits 0-3, 6-9 and 16 gathered into nine bits and
   counted a nibble at a time (no popcount instruction or helper needed). */
PERFDATA__HOT size_t perfdata__sample_fixed_size(uint64_t t) {
    static const unsigned char ones[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
    unsigned x = (unsigned)((t & 0xfu) | ((t >> 2) & 0xf0u) | ((t >> 8) & 0x100u));
    return 8u * (size_t)(ones[x & 0xfu] + ones[(x >> 4) & 0xfu] + (x >> 8));
}

/* Reads the fixed fields from p, which holds all of them, and zeroes those
   t leaves out; returns the bytes read. Every caller passes a constant
   `big`, so after inlining the byte-order test is gone from the loads. */
PERFDATA__HOT size_t perfdata__sample_fixed(perfdata_sample *s, const unsigned char *p, uint64_t t, int big) {
    const unsigned char *q = p;
    s->identifier = s->ip = s->time = s->addr = s->id = s->stream_id = s->period = 0;
    s->pid = s->tid = s->cpu = s->cpu_reserved = 0;
    if (t & PERFDATA_SAMPLE_IDENTIFIER) { s->identifier = perfdata__ld64(q, big); q += 8; }
    if (t & PERFDATA_SAMPLE_IP) { s->ip = perfdata__ld64(q, big); q += 8; }
    if (t & PERFDATA_SAMPLE_TID) { s->pid = perfdata__ld32(q, big); s->tid = perfdata__ld32(q + 4, big); q += 8; }
    if (t & PERFDATA_SAMPLE_TIME) { s->time = perfdata__ld64(q, big); q += 8; }
    if (t & PERFDATA_SAMPLE_ADDR) { s->addr = perfdata__ld64(q, big); q += 8; }
    if (t & PERFDATA_SAMPLE_ID) { s->id = perfdata__ld64(q, big); q += 8; }
    if (t & PERFDATA_SAMPLE_STREAM_ID) { s->stream_id = perfdata__ld64(q, big); q += 8; }
    if (t & PERFDATA_SAMPLE_CPU) { s->cpu = perfdata__ld32(q, big); s->cpu_reserved = perfdata__ld32(q + 4, big); q += 8; }
    if (t & PERFDATA_SAMPLE_PERIOD) { s->period = perfdata__ld64(q, big); q += 8; }
    return (size_t)(q - p);
}

PERFDATA__PRIVATE void perfdata__no_regs(perfdata_regs *out, perfdata_u64s none) {
    out->abi = out->mask = 0;
    out->values = none;
}

/* The fields from READ on, in the kernel's output order
   (perf_output_sample); a field t leaves out is set empty, so each field
   is written once. With t == 0 this only empties them. */
PERFDATA__PRIVATE void perfdata__rd_sample_tail(perfdata__rd *r, const perfdata_attr *a, uint64_t t,
                                                perfdata_sample *s) {
    perfdata_view empty;
    perfdata_u64s none;
    empty.p = r->p; empty.n = 0; empty.offset = r->offset;
    none.bytes = empty; none.count = 0; none.big_endian = r->big;
    if (t & PERFDATA_SAMPLE_READ) perfdata__rd_read(r, a->read_format, &s->read);
    else {
        s->read.read_format = s->read.nr = s->read.time_enabled = s->read.time_running = 0;
        s->read.values = empty; s->read.big_endian = r->big;
        s->read.single.value = s->read.single.id = s->read.single.lost = 0;
    }
    s->callchain = (t & PERFDATA_SAMPLE_CALLCHAIN) ? perfdata__rd_u64s(r, perfdata__rd64(r)) : none;
    s->raw = (t & PERFDATA_SAMPLE_RAW) ? perfdata__rd_bytes(r, perfdata__rd32(r)) : empty;
    s->raw_big_endian = r->big;
    if (t & PERFDATA_SAMPLE_BRANCH_STACK) perfdata__rd_branch_stack(r, a->branch_sample_type, &s->branch_stack);
    else {
        s->branch_stack.nr = s->branch_stack.hw_idx = 0; s->branch_stack.has_hw_idx = 0;
        s->branch_stack.entries = empty; s->branch_stack.counters = none; s->branch_stack.big_endian = r->big;
    }
    if (t & PERFDATA_SAMPLE_REGS_USER) perfdata__rd_regs(r, a->sample_regs_user, &s->regs_user);
    else perfdata__no_regs(&s->regs_user, none);
    s->stack_user = empty; s->stack_user_size = s->stack_user_dyn_size = 0;
    if (t & PERFDATA_SAMPLE_STACK_USER) {
        s->stack_user_size = perfdata__rd64(r);
        s->stack_user = perfdata__rd_bytes(r, s->stack_user_size);
        if (s->stack_user_size) {
            s->stack_user_dyn_size = perfdata__rd64(r);
            /* only dyn_size bytes are real stack; more is malformed */
            if (s->stack_user_dyn_size > s->stack_user_size) r->overrun = 1;
            else s->stack_user.n = (size_t)s->stack_user_dyn_size;
        }
    }
    s->weight = s->weight_raw = 0; s->ins_lat = s->p_stage_cyc = 0;
    if (t & (PERFDATA_SAMPLE_WEIGHT | PERFDATA_SAMPLE_WEIGHT_STRUCT)) {
        s->weight_raw = perfdata__rd64(r);
        s->weight = s->weight_raw;
        if (t & PERFDATA_SAMPLE_WEIGHT_STRUCT) {
            /* var1_dw, var2_w, var3_w: declared so that the u64 load of
               either byte order yields them from the low bits up */
            s->weight = s->weight_raw & 0xffffffffu;
            s->ins_lat = (uint16_t)(s->weight_raw >> 32);
            s->p_stage_cyc = (uint16_t)(s->weight_raw >> 48);
        }
    }
    s->data_src = (t & PERFDATA_SAMPLE_DATA_SRC) ? perfdata__rd64(r) : 0;
    s->transaction = (t & PERFDATA_SAMPLE_TRANSACTION) ? perfdata__rd64(r) : 0;
    if (t & PERFDATA_SAMPLE_REGS_INTR) perfdata__rd_regs(r, a->sample_regs_intr, &s->regs_intr);
    else perfdata__no_regs(&s->regs_intr, none);
    s->phys_addr = (t & PERFDATA_SAMPLE_PHYS_ADDR) ? perfdata__rd64(r) : 0;
    s->cgroup = (t & PERFDATA_SAMPLE_CGROUP) ? perfdata__rd64(r) : 0;
    s->data_page_size = (t & PERFDATA_SAMPLE_DATA_PAGE_SIZE) ? perfdata__rd64(r) : 0;
    s->code_page_size = (t & PERFDATA_SAMPLE_CODE_PAGE_SIZE) ? perfdata__rd64(r) : 0;
    s->aux = (t & PERFDATA_SAMPLE_AUX) ? perfdata__rd_bytes(r, perfdata__rd64(r)) : empty;
}

/* Every field empty: what a sample that cannot be decoded holds. */
PERFDATA__PRIVATE void perfdata__zero_sample(perfdata_sample *s, const perfdata_record *rec) {
    perfdata__rd r = perfdata__rd_view(rec->body, rec->big_endian);
    s->sample_type = 0; s->event = -1;
    perfdata__sample_fixed(s, rec->body.p, 0, 0);
    perfdata__rd_sample_tail(&r, 0, 0, s);
}

PERFDATA_DEF perfdata_status perfdata_decode_sample_as(const perfdata_file *f, long event, const perfdata_record *rec,
                                                       perfdata_sample *s, perfdata_error *err) {
    const perfdata_attr *a;
    perfdata__rd r;
    uint64_t t;
    if (rec->type != PERFDATA_RECORD_SAMPLE || event < 0 || (size_t)event >= f->nr_events) {
        perfdata__zero_sample(s, rec);
        return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, rec->offset, rec->type,
                              rec->type != PERFDATA_RECORD_SAMPLE ? PERFDATA__MSG("not a SAMPLE record")
                                                                  : PERFDATA__MSG("no such event"));
    }
    a = &f->events[event].attr;
    t = a->sample_type;
    /* All nine fixed fields take 72 bytes: a longer body needs no count. */
    if (rec->body.n < 72 && perfdata__sample_fixed_size(t) > rec->body.n) {
        perfdata__zero_sample(s, rec);
        s->sample_type = t; s->event = event;
        return perfdata__fail(err, PERFDATA_ERR_TRUNCATED, rec->body.offset + rec->body.n, rec->type,
                              PERFDATA__MSG("sample runs past its record"));
    }
    s->sample_type = t;
    s->event = event;
    r = perfdata__rd_view(rec->body, rec->big_endian);
    r.pos = rec->big_endian ? perfdata__sample_fixed(s, rec->body.p, t, 1) : perfdata__sample_fixed(s, rec->body.p, t, 0);
    perfdata__rd_sample_tail(&r, a, t, s);
    return perfdata__rd_result(&r, err, rec->type, PERFDATA__MSG("sample runs past its record"));
}

PERFDATA_DEF perfdata_status perfdata_decode_sample(const perfdata_file *f, const perfdata_record *rec,
                                                    perfdata_sample *s, perfdata_error *err) {
    long e;
    perfdata_error why;
    if (rec->type != PERFDATA_RECORD_SAMPLE) {
        perfdata__zero_sample(s, rec);
        return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, rec->offset, rec->type, PERFDATA__MSG("not a SAMPLE record"));
    }
    e = perfdata__record_event(f, rec, &why);
    if (e < 0) {
        perfdata__zero_sample(s, rec);
        if (err) *err = why;
        return why.code;
    }
    return perfdata_decode_sample_as(f, e, rec, s, err);
}

/* perf_evsel__parse_id_sample: the trailer is read backwards from the end. */
PERFDATA_DEF perfdata_status perfdata_decode_sample_id(const perfdata_file *f, const perfdata_record *rec,
                                                       perfdata_sample_id *sid, perfdata_error *err) {
    const perfdata_event *ev;
    perfdata_error why;
    uint64_t t;
    size_t words = rec->body.n / 8, at;
    long e;
    sid->sample_type = 0; sid->event = -1; sid->pid = sid->tid = sid->cpu = sid->cpu_reserved = 0;
    sid->time = sid->id = sid->stream_id = sid->identifier = 0; sid->size = 0;
    if (rec->type == PERFDATA_RECORD_SAMPLE || rec->type >= 64 || rec->type == 0)
        return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, rec->offset, rec->type, PERFDATA__MSG("record type has no sample_id trailer"));
    e = perfdata_record_event(f, rec, &why);
    if (e < 0) {
        if (err) *err = why;
        return why.code;
    }
    sid->event = e;
    ev = &f->events[e];
    if (!(ev->attr.flags & PERFDATA_ATTR_FLAG_SAMPLE_ID_ALL)) return perfdata__ok(err);
    if (ev->sample_id_size > (uint64_t)words * 8)
        return perfdata__fail(err, PERFDATA_ERR_MALFORMED, rec->offset, rec->type, PERFDATA__MSG("record too short for its sample_id trailer"));
    t = ev->attr.sample_type;
    sid->sample_type = t & (PERFDATA_SAMPLE_TID | PERFDATA_SAMPLE_TIME | PERFDATA_SAMPLE_ID | PERFDATA_SAMPLE_STREAM_ID |
                            PERFDATA_SAMPLE_CPU | PERFDATA_SAMPLE_IDENTIFIER);
    sid->size = (size_t)ev->sample_id_size;
    at = words * 8;
#define PERFDATA__BACK(dst) (at -= 8, (dst) = perfdata__ld64(rec->body.p + at, rec->big_endian))
    if (t & PERFDATA_SAMPLE_IDENTIFIER) { PERFDATA__BACK(sid->identifier); sid->id = sid->identifier; }
    if (t & PERFDATA_SAMPLE_CPU) {
        at -= 8;
        sid->cpu = perfdata__ld32(rec->body.p + at, rec->big_endian);
        sid->cpu_reserved = perfdata__ld32(rec->body.p + at + 4, rec->big_endian);
    }
    if (t & PERFDATA_SAMPLE_STREAM_ID) PERFDATA__BACK(sid->stream_id);
    if (t & PERFDATA_SAMPLE_ID) PERFDATA__BACK(sid->id);
    if (t & PERFDATA_SAMPLE_TIME) PERFDATA__BACK(sid->time);
    if (t & PERFDATA_SAMPLE_TID) {
        at -= 8;
        sid->pid = perfdata__ld32(rec->body.p + at, rec->big_endian);
        sid->tid = perfdata__ld32(rec->body.p + at + 4, rec->big_endian);
    }
#undef PERFDATA__BACK
    return perfdata__ok(err);
}

/* ------------------------------------------------ kernel record bodies */

/* The body of a kernel record minus its sample_id trailer (when the trailer
   can be located; otherwise the whole body). */
PERFDATA__PRIVATE perfdata_view perfdata__kernel_body(const perfdata_file *f, const perfdata_record *rec) {
    perfdata_view v = rec->body;
    long e;
    if (!f || f->nr_events == 0) return v;
    e = perfdata_record_event(f, rec, 0);
    if (e >= 0 && f->events[e].sample_id_size <= v.n) v.n -= (size_t)f->events[e].sample_id_size;
    return v;
}

PERFDATA__PRIVATE perfdata_status perfdata__expect(const perfdata_record *rec, uint32_t t1, uint32_t t2,
                                                   perfdata_error *err) {
    if (rec->type == t1 || rec->type == t2) return PERFDATA_OK;
    return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, rec->offset, rec->type, PERFDATA__MSG("wrong record type for this decoder"));
}

#define PERFDATA__BEGIN(t1, t2, body_view)                                   \
    perfdata__rd r;                                                          \
    perfdata_status st_ = perfdata__expect(rec, (t1), (t2), err);            \
    if (st_ != PERFDATA_OK) return st_;                                      \
    r = perfdata__rd_view((body_view), rec->big_endian)
#define PERFDATA__END() return perfdata__rd_result(&r, err, rec->type, PERFDATA__MSG("record body truncated"))

PERFDATA_DEF perfdata_status perfdata_decode_mmap(const perfdata_file *f, const perfdata_record *rec, perfdata_mmap *o,
                                                  perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_MMAP, PERFDATA_RECORD_MMAP2, perfdata__kernel_body(f, rec));
    o->pid = perfdata__rd32(&r); o->tid = perfdata__rd32(&r);
    o->addr = perfdata__rd64(&r); o->len = perfdata__rd64(&r); o->pgoff = perfdata__rd64(&r);
    o->has_build_id = 0; o->maj = o->min = 0; o->ino = o->ino_generation = 0; o->build_id_size = 0;
    o->build_id.p = r.p; o->build_id.n = 0; o->build_id.offset = r.offset;
    o->prot = o->flags = 0;
    if (rec->type == PERFDATA_RECORD_MMAP2) {
        if (rec->misc & PERFDATA_MISC_MMAP_BUILD_ID) {
            o->has_build_id = 1;
            o->build_id_size = perfdata__rd8(&r);
            perfdata__rd8(&r); perfdata__rd16(&r);
            o->build_id = perfdata__rd_bytes(&r, 20);
            if (o->build_id_size < o->build_id.n) o->build_id.n = o->build_id_size;
        } else {
            o->maj = perfdata__rd32(&r); o->min = perfdata__rd32(&r);
            o->ino = perfdata__rd64(&r); o->ino_generation = perfdata__rd64(&r);
        }
        o->prot = perfdata__rd32(&r); o->flags = perfdata__rd32(&r);
    }
    o->filename = perfdata__rd_string(&r, r.n);
    PERFDATA__END();
}

PERFDATA_DEF perfdata_status perfdata_decode_lost(const perfdata_file *f, const perfdata_record *rec, perfdata_lost *o,
                                                  perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_LOST, PERFDATA_RECORD_LOST, perfdata__kernel_body(f, rec));
    o->id = perfdata__rd64(&r); o->lost = perfdata__rd64(&r);
    PERFDATA__END();
}

PERFDATA_DEF perfdata_status perfdata_decode_comm(const perfdata_file *f, const perfdata_record *rec, perfdata_comm *o,
                                                  perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_COMM, PERFDATA_RECORD_COMM, perfdata__kernel_body(f, rec));
    o->pid = perfdata__rd32(&r); o->tid = perfdata__rd32(&r);
    o->exec = (rec->misc & PERFDATA_MISC_COMM_EXEC) != 0;
    o->comm = perfdata__rd_string(&r, r.n);
    PERFDATA__END();
}

PERFDATA_DEF perfdata_status perfdata_decode_task(const perfdata_file *f, const perfdata_record *rec, perfdata_task *o,
                                                  perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_FORK, PERFDATA_RECORD_EXIT, perfdata__kernel_body(f, rec));
    o->pid = perfdata__rd32(&r); o->ppid = perfdata__rd32(&r);
    o->tid = perfdata__rd32(&r); o->ptid = perfdata__rd32(&r);
    o->time = perfdata__rd64(&r);
    PERFDATA__END();
}

PERFDATA_DEF perfdata_status perfdata_decode_throttle(const perfdata_file *f, const perfdata_record *rec,
                                                      perfdata_throttle *o, perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_THROTTLE, PERFDATA_RECORD_UNTHROTTLE, perfdata__kernel_body(f, rec));
    o->time = perfdata__rd64(&r); o->id = perfdata__rd64(&r); o->stream_id = perfdata__rd64(&r);
    PERFDATA__END();
}

PERFDATA_DEF perfdata_status perfdata_decode_read_record(const perfdata_file *f, const perfdata_record *rec,
                                                         perfdata_read_record *o, perfdata_error *err) {
    long e;
    PERFDATA__BEGIN(PERFDATA_RECORD_READ, PERFDATA_RECORD_READ, perfdata__kernel_body(f, rec));
    e = f ? perfdata_record_event(f, rec, 0) : -1;
    o->pid = perfdata__rd32(&r); o->tid = perfdata__rd32(&r);
    perfdata__rd_read(&r, e >= 0 ? f->events[e].attr.read_format : 0, &o->values);
    PERFDATA__END();
}

PERFDATA_DEF perfdata_status perfdata_decode_aux(const perfdata_file *f, const perfdata_record *rec, perfdata_aux *o,
                                                 perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_AUX, PERFDATA_RECORD_AUX, perfdata__kernel_body(f, rec));
    o->aux_offset = perfdata__rd64(&r); o->aux_size = perfdata__rd64(&r); o->flags = perfdata__rd64(&r);
    PERFDATA__END();
}

PERFDATA_DEF perfdata_status perfdata_decode_itrace_start(const perfdata_file *f, const perfdata_record *rec,
                                                          perfdata_itrace_start *o, perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_ITRACE_START, PERFDATA_RECORD_ITRACE_START, perfdata__kernel_body(f, rec));
    o->pid = perfdata__rd32(&r); o->tid = perfdata__rd32(&r);
    PERFDATA__END();
}

PERFDATA_DEF perfdata_status perfdata_decode_lost_samples(const perfdata_file *f, const perfdata_record *rec,
                                                          perfdata_lost_samples *o, perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_LOST_SAMPLES, PERFDATA_RECORD_LOST_SAMPLES, perfdata__kernel_body(f, rec));
    o->lost = perfdata__rd64(&r);
    PERFDATA__END();
}

PERFDATA_DEF perfdata_status perfdata_decode_switch(const perfdata_file *f, const perfdata_record *rec,
                                                    perfdata_switch *o, perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_SWITCH, PERFDATA_RECORD_SWITCH_CPU_WIDE, perfdata__kernel_body(f, rec));
    o->out = (rec->misc & PERFDATA_MISC_SWITCH_OUT) != 0;
    o->preempt = (rec->misc & PERFDATA_MISC_SWITCH_OUT_PREEMPT) != 0;
    o->cpu_wide = rec->type == PERFDATA_RECORD_SWITCH_CPU_WIDE;
    o->next_prev_pid = o->next_prev_tid = 0;
    if (o->cpu_wide) { o->next_prev_pid = perfdata__rd32(&r); o->next_prev_tid = perfdata__rd32(&r); }
    PERFDATA__END();
}

PERFDATA_DEF perfdata_status perfdata_decode_namespaces(const perfdata_file *f, const perfdata_record *rec,
                                                        perfdata_namespaces *o, perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_NAMESPACES, PERFDATA_RECORD_NAMESPACES, perfdata__kernel_body(f, rec));
    o->pid = perfdata__rd32(&r); o->tid = perfdata__rd32(&r);
    o->nr = perfdata__rd64(&r);
    o->links = perfdata__rd_u64s(&r, o->nr > ((uint64_t)-1) / 2 ? (uint64_t)-1 : o->nr * 2);
    PERFDATA__END();
}

PERFDATA_DEF perfdata_status perfdata_decode_ksymbol(const perfdata_file *f, const perfdata_record *rec,
                                                     perfdata_ksymbol *o, perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_KSYMBOL, PERFDATA_RECORD_KSYMBOL, perfdata__kernel_body(f, rec));
    o->addr = perfdata__rd64(&r); o->len = perfdata__rd32(&r);
    o->ksym_type = perfdata__rd16(&r); o->flags = perfdata__rd16(&r);
    o->name = perfdata__rd_string(&r, r.n);
    PERFDATA__END();
}

PERFDATA_DEF perfdata_status perfdata_decode_bpf_event(const perfdata_file *f, const perfdata_record *rec,
                                                       perfdata_bpf_event *o, perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_BPF_EVENT, PERFDATA_RECORD_BPF_EVENT, perfdata__kernel_body(f, rec));
    o->type = perfdata__rd16(&r); o->flags = perfdata__rd16(&r); o->id = perfdata__rd32(&r);
    o->tag = perfdata__rd_bytes(&r, 8);
    PERFDATA__END();
}

PERFDATA_DEF perfdata_status perfdata_decode_cgroup(const perfdata_file *f, const perfdata_record *rec,
                                                    perfdata_cgroup *o, perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_CGROUP, PERFDATA_RECORD_CGROUP, perfdata__kernel_body(f, rec));
    o->id = perfdata__rd64(&r);
    o->path = perfdata__rd_string(&r, r.n);
    PERFDATA__END();
}

PERFDATA_DEF perfdata_status perfdata_decode_text_poke(const perfdata_file *f, const perfdata_record *rec,
                                                       perfdata_text_poke *o, perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_TEXT_POKE, PERFDATA_RECORD_TEXT_POKE, perfdata__kernel_body(f, rec));
    o->addr = perfdata__rd64(&r);
    o->old_len = perfdata__rd16(&r); o->new_len = perfdata__rd16(&r);
    o->old_bytes = perfdata__rd_bytes(&r, o->old_len);
    o->new_bytes = perfdata__rd_bytes(&r, o->new_len);
    PERFDATA__END();
}

PERFDATA_DEF perfdata_status perfdata_decode_aux_output_hw_id(const perfdata_file *f, const perfdata_record *rec,
                                                              perfdata_aux_output_hw_id *o, perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_AUX_OUTPUT_HW_ID, PERFDATA_RECORD_AUX_OUTPUT_HW_ID, perfdata__kernel_body(f, rec));
    o->hw_id = perfdata__rd64(&r);
    PERFDATA__END();
}

PERFDATA_DEF perfdata_status perfdata_decode_callchain_deferred(const perfdata_file *f, const perfdata_record *rec,
                                                                perfdata_callchain_deferred *o, perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_CALLCHAIN_DEFERRED, PERFDATA_RECORD_CALLCHAIN_DEFERRED, perfdata__kernel_body(f, rec));
    o->cookie = perfdata__rd64(&r);
    o->ips = perfdata__rd_u64s(&r, perfdata__rd64(&r));
    PERFDATA__END();
}

/* ------------------------------------------------ perf tool record bodies */

PERFDATA_DEF perfdata_status perfdata_decode_header_attr(const perfdata_file *f, const perfdata_record *rec,
                                                         perfdata_header_attr *o, perfdata_error *err) {
    uint32_t asize;
    perfdata_status st;
    PERFDATA__BEGIN(PERFDATA_RECORD_HEADER_ATTR, PERFDATA_RECORD_HEADER_ATTR, rec->body);
    (void)f;
    if (r.n < 8) return perfdata__fail(err, PERFDATA_ERR_TRUNCATED, rec->offset, rec->type, PERFDATA__MSG("HEADER_ATTR too short"));
    asize = perfdata__ld32(r.p + 4, r.big);
    if (asize == 0) asize = PERFDATA_ATTR_SIZE_VER0;
    o->attr_bytes = perfdata__rd_bytes(&r, asize);
    if (r.overrun) PERFDATA__END();
    st = perfdata_decode_attr(o->attr_bytes, r.big, &o->attr, err);
    if (st != PERFDATA_OK) { if (err) err->record_type = rec->type; return st; }
    o->ids = perfdata__rd_u64s(&r, (r.n - r.pos) / 8);
    PERFDATA__END();
}

PERFDATA_DEF perfdata_status perfdata_decode_header_event_type(const perfdata_file *f, const perfdata_record *rec,
                                                               perfdata_header_event_type *o, perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_HEADER_EVENT_TYPE, PERFDATA_RECORD_HEADER_EVENT_TYPE, rec->body);
    (void)f;
    o->event_id = perfdata__rd64(&r);
    o->name = perfdata__rd_string(&r, 64);
    PERFDATA__END();
}

PERFDATA_DEF perfdata_status perfdata_decode_tracing_data(const perfdata_file *f, const perfdata_record *rec,
                                                          perfdata_tracing_data *o, perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_HEADER_TRACING_DATA, PERFDATA_RECORD_HEADER_TRACING_DATA, rec->body);
    (void)f;
    o->size = perfdata__rd32(&r);
    o->data = rec->extra;
    if (!rec->extra.n) o->data = perfdata__rd_bytes(&r, o->size); /* simpleperf: inside */
    PERFDATA__END();
}

PERFDATA_DEF perfdata_status perfdata_decode_build_id(const perfdata_file *f, const perfdata_record *rec,
                                                      perfdata_build_id *o, perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_HEADER_BUILD_ID, PERFDATA_RECORD_HEADER_BUILD_ID, rec->body);
    (void)f;
    o->misc = rec->misc;
    o->pid = (int32_t)perfdata__rd32(&r);
    o->build_id = perfdata__rd_bytes(&r, 24);
    if (!r.overrun) {
        /* build_id[20], then size u8 when MISC_BUILD_ID_SIZE says it is valid */
        uint8_t size = o->build_id.p[20];
        o->build_id.n = 20;
        if ((rec->misc & PERFDATA_MISC_BUILD_ID_SIZE) && size <= 20) o->build_id.n = size;
    }
    o->filename = perfdata__rd_string(&r, r.n);
    PERFDATA__END();
}

PERFDATA_DEF perfdata_id_index_entry perfdata_id_index_at(const perfdata_id_index *x, size_t i) {
    perfdata_id_index_entry e = {0, 0, 0, 0, 0, 0};
    const unsigned char *p;
    if (i >= x->nr || i >= x->entries.n / 32) return e;
    p = x->entries.p + i * 32;
    e.id = perfdata__ld64(p, x->big_endian);
    e.idx = perfdata__ld64(p + 8, x->big_endian);
    e.cpu = perfdata__ld64(p + 16, x->big_endian);
    e.tid = perfdata__ld64(p + 24, x->big_endian);
    if (i < x->machine.n / 16) {
        e.machine_pid = perfdata__ld64(x->machine.p + i * 16, x->big_endian);
        e.vcpu = perfdata__ld64(x->machine.p + i * 16 + 8, x->big_endian);
    }
    return e;
}

PERFDATA_DEF perfdata_status perfdata_decode_id_index(const perfdata_file *f, const perfdata_record *rec,
                                                      perfdata_id_index *o, perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_ID_INDEX, PERFDATA_RECORD_ID_INDEX, rec->body);
    (void)f;
    o->big_endian = r.big;
    o->nr = perfdata__rd64(&r);
    o->entries = perfdata__rd_array(&r, o->nr, 32);
    /* perf 5.18+ appends {machine_pid, vcpu} per entry when it fits */
    o->machine.p = r.p + r.pos; o->machine.n = 0; o->machine.offset = r.offset + r.pos;
    if (!r.overrun && (r.n - r.pos) / 16 >= o->nr) o->machine = perfdata__rd_array(&r, o->nr, 16);
    if (r.overrun) o->nr = 0;
    PERFDATA__END();
}

PERFDATA_DEF perfdata_status perfdata_decode_auxtrace_info(const perfdata_file *f, const perfdata_record *rec,
                                                           perfdata_auxtrace_info *o, perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_AUXTRACE_INFO, PERFDATA_RECORD_AUXTRACE_INFO, rec->body);
    (void)f;
    o->type = perfdata__rd32(&r); o->reserved = perfdata__rd32(&r);
    o->data = perfdata__rd_u64s(&r, (r.n - r.pos) / 8);
    PERFDATA__END();
}

PERFDATA_DEF perfdata_status perfdata_decode_auxtrace(const perfdata_file *f, const perfdata_record *rec,
                                                      perfdata_auxtrace *o, perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_AUXTRACE, PERFDATA_RECORD_AUXTRACE, rec->body);
    (void)f;
    o->size = perfdata__rd64(&r); o->offset = perfdata__rd64(&r); o->reference = perfdata__rd64(&r);
    o->idx = perfdata__rd32(&r); o->tid = perfdata__rd32(&r); o->cpu = perfdata__rd32(&r); o->reserved = perfdata__rd32(&r);
    o->data = rec->extra;
    PERFDATA__END();
}

PERFDATA_DEF perfdata_status perfdata_decode_auxtrace_error(const perfdata_file *f, const perfdata_record *rec,
                                                            perfdata_auxtrace_error *o, perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_AUXTRACE_ERROR, PERFDATA_RECORD_AUXTRACE_ERROR, rec->body);
    (void)f;
    o->type = perfdata__rd32(&r); o->code = perfdata__rd32(&r); o->cpu = perfdata__rd32(&r);
    o->pid = perfdata__rd32(&r); o->tid = perfdata__rd32(&r); o->fmt = perfdata__rd32(&r);
    o->ip = perfdata__rd64(&r);
    /* fmt 0 predates the time field: msg starts where time is now */
    o->time = o->fmt >= 1 ? perfdata__rd64(&r) : 0;
    o->msg = perfdata__rd_string(&r, 64);
    o->machine_pid = o->vcpu = 0;
    if (o->fmt >= 2) { o->machine_pid = perfdata__rd32(&r); o->vcpu = perfdata__rd32(&r); }
    PERFDATA__END();
}

PERFDATA_DEF perfdata_thread_map_entry perfdata_thread_map_at(const perfdata_thread_map *m, size_t i) {
    perfdata_thread_map_entry e;
    e.pid = 0; e.comm.p = m->entries.p; e.comm.n = 0; e.comm.offset = m->entries.offset;
    if (i >= m->nr || i >= m->entries.n / 24) return e;
    e.pid = perfdata__ld64(m->entries.p + i * 24, m->big_endian);
    e.comm.p = m->entries.p + i * 24 + 8; e.comm.n = 16; e.comm.offset = m->entries.offset + i * 24 + 8;
    e.comm = perfdata__view_cstr(e.comm);
    return e;
}

PERFDATA_DEF perfdata_status perfdata_decode_thread_map(const perfdata_file *f, const perfdata_record *rec,
                                                        perfdata_thread_map *o, perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_THREAD_MAP, PERFDATA_RECORD_THREAD_MAP, rec->body);
    (void)f;
    o->big_endian = r.big;
    o->nr = perfdata__rd64(&r);
    o->entries = perfdata__rd_array(&r, o->nr, 24);
    if (r.overrun) o->nr = 0;
    PERFDATA__END();
}

/* perf_record_cpu_map_data: u16 type, then per encoding
   CPUS {u16 nr; u16 cpu[nr]}; MASK {u16 nr; u16 long_size; [u32 pad if
   long_size 8]; words}; RANGE {u8 any_cpu; u8 pad; u16 start; u16 end}. */
PERFDATA_DEF perfdata_status perfdata_decode_cpu_map_data(perfdata_view bytes, int big, perfdata_cpu_map *o,
                                                          perfdata_error *err) {
    perfdata__rd r = perfdata__rd_view(bytes, big);
    o->big_endian = big; o->nr = 0; o->long_size = 0; o->any_cpu = 0; o->start_cpu = o->end_cpu = 0;
    o->data.p = bytes.p; o->data.n = 0; o->data.offset = bytes.offset;
    o->encoding = perfdata__rd16(&r);
    switch (o->encoding) {
    case PERFDATA_CPU_MAP_CPUS:
        o->nr = perfdata__rd16(&r);
        o->data = perfdata__rd_array(&r, o->nr, 2);
        break;
    case PERFDATA_CPU_MAP_MASK:
        o->nr = perfdata__rd16(&r);
        o->long_size = perfdata__rd16(&r);
        if (o->long_size != 4 && o->long_size != 8)
            return perfdata__fail(err, PERFDATA_ERR_MALFORMED, bytes.offset, 0, PERFDATA__MSG("cpu map mask with a bad long size"));
        if (o->long_size == 8) perfdata__rd32(&r);
        o->data = perfdata__rd_array(&r, o->nr, o->long_size);
        break;
    case PERFDATA_CPU_MAP_RANGE:
        o->any_cpu = perfdata__rd8(&r) != 0;
        perfdata__rd8(&r);
        o->start_cpu = perfdata__rd16(&r); o->end_cpu = perfdata__rd16(&r);
        break;
    default:
        return perfdata__fail(err, PERFDATA_ERR_MALFORMED, bytes.offset, 0, PERFDATA__MSG("unknown cpu map encoding"));
    }
    if (r.overrun) { o->nr = 0; o->data.n = 0; }
    return perfdata__rd_result(&r, err, 0, PERFDATA__MSG("cpu map truncated"));
}

PERFDATA_DEF int perfdata_cpu_map_next(const perfdata_cpu_map *m, size_t *state, int *cpu) {
    size_t i = *state;
    switch (m->encoding) {
    case PERFDATA_CPU_MAP_CPUS:
        if (i >= m->nr || i >= m->data.n / 2) return 0;
        *cpu = (int16_t)perfdata__ld16(m->data.p + 2 * i, m->big_endian);
        *state = i + 1;
        return 1;
    case PERFDATA_CPU_MAP_MASK: {
        size_t bits = (m->data.n / m->long_size) * m->long_size * 8;
        for (; i < bits; i++) {
            size_t word = i / (8u * m->long_size), bit = i % (8u * m->long_size);
            const unsigned char *p = m->data.p + word * m->long_size;
            uint64_t w = m->long_size == 8 ? perfdata__ld64(p, m->big_endian) : perfdata__ld32(p, m->big_endian);
            if ((w >> bit) & 1u) { *cpu = (int)i; *state = i + 1; return 1; }
        }
        *state = i;
        return 0;
    }
    case PERFDATA_CPU_MAP_RANGE:
        if (m->any_cpu && i == 0) { *cpu = -1; *state = 1; return 1; }
        if (m->any_cpu) i--;
        if ((size_t)m->start_cpu + i > m->end_cpu) return 0;
        *cpu = (int)(m->start_cpu + i);
        *state = *state + 1;
        return 1;
    default:
        return 0;
    }
}

PERFDATA_DEF perfdata_status perfdata_decode_cpu_map(const perfdata_file *f, const perfdata_record *rec,
                                                     perfdata_cpu_map *o, perfdata_error *err) {
    perfdata_status st = perfdata__expect(rec, PERFDATA_RECORD_CPU_MAP, PERFDATA_RECORD_CPU_MAP, err);
    (void)f;
    if (st != PERFDATA_OK) return st;
    st = perfdata_decode_cpu_map_data(rec->body, rec->big_endian, o, err);
    if (st != PERFDATA_OK && err) { err->record_type = rec->type; err->offset = rec->offset; }
    return st;
}

PERFDATA_DEF perfdata_status perfdata_decode_stat_config(const perfdata_file *f, const perfdata_record *rec,
                                                         perfdata_stat_config *o, perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_STAT_CONFIG, PERFDATA_RECORD_STAT_CONFIG, rec->body);
    (void)f;
    o->nr = perfdata__rd64(&r);
    o->pairs = perfdata__rd_u64s(&r, o->nr > ((uint64_t)-1) / 2 ? (uint64_t)-1 : o->nr * 2);
    if (r.overrun) o->nr = 0;
    PERFDATA__END();
}

PERFDATA_DEF perfdata_status perfdata_decode_stat(const perfdata_file *f, const perfdata_record *rec, perfdata_stat *o,
                                                  perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_STAT, PERFDATA_RECORD_STAT, rec->body);
    (void)f;
    o->id = perfdata__rd64(&r); o->cpu = perfdata__rd32(&r); o->thread = perfdata__rd32(&r);
    o->val = perfdata__rd64(&r); o->ena = perfdata__rd64(&r); o->run = perfdata__rd64(&r);
    PERFDATA__END();
}

PERFDATA_DEF perfdata_status perfdata_decode_stat_round(const perfdata_file *f, const perfdata_record *rec,
                                                        perfdata_stat_round *o, perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_STAT_ROUND, PERFDATA_RECORD_STAT_ROUND, rec->body);
    (void)f;
    o->type = perfdata__rd64(&r); o->time = perfdata__rd64(&r);
    PERFDATA__END();
}

/* A double from its IEEE-754 bits, through the object representation (legal
   in C and C++, no libc). Assumes doubles share the integers' byte order,
   as on every current ABI. */
PERFDATA__PRIVATE double perfdata__double_from_bits(uint64_t bits) {
    double d = 0;
    unsigned char *dst = (unsigned char *)&d;
    const unsigned char *src = (const unsigned char *)&bits;
    unsigned i;
    for (i = 0; i < sizeof d && i < sizeof bits; i++) dst[i] = src[i];
    return d;
}

PERFDATA_DEF perfdata_status perfdata_decode_event_update(const perfdata_file *f, const perfdata_record *rec,
                                                          perfdata_event_update *o, perfdata_error *err) {
    perfdata_view rest;
    PERFDATA__BEGIN(PERFDATA_RECORD_EVENT_UPDATE, PERFDATA_RECORD_EVENT_UPDATE, rec->body);
    (void)f;
    o->type = perfdata__rd64(&r); o->id = perfdata__rd64(&r);
    o->text.p = r.p; o->text.n = 0; o->text.offset = r.offset;
    o->scale = 0; o->scale_bits = 0;
    o->cpus.encoding = 0; o->cpus.nr = 0; o->cpus.long_size = 0; o->cpus.any_cpu = 0;
    o->cpus.start_cpu = o->cpus.end_cpu = 0; o->cpus.data = o->text; o->cpus.big_endian = r.big;
    if (r.overrun) PERFDATA__END();
    switch (o->type) {
    case PERFDATA_EVENT_UPDATE_UNIT:
    case PERFDATA_EVENT_UPDATE_NAME:
        o->text = perfdata__rd_string(&r, r.n);
        break;
    case PERFDATA_EVENT_UPDATE_SCALE:
        o->scale_bits = perfdata__rd64(&r);
        o->scale = perfdata__double_from_bits(o->scale_bits);
        break;
    case PERFDATA_EVENT_UPDATE_CPUS:
        rest = perfdata__rd_bytes(&r, r.n - r.pos);
        return perfdata_decode_cpu_map_data(rest, r.big, &o->cpus, err);
    default:
        break; /* unknown update type: the raw body is still in rec */
    }
    PERFDATA__END();
}

PERFDATA_DEF perfdata_status perfdata_decode_time_conv(const perfdata_file *f, const perfdata_record *rec,
                                                       perfdata_time_conv *o, perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_TIME_CONV, PERFDATA_RECORD_TIME_CONV, rec->body);
    (void)f;
    o->time_shift = perfdata__rd64(&r); o->time_mult = perfdata__rd64(&r); o->time_zero = perfdata__rd64(&r);
    o->has_cycles = 0; o->time_cycles = o->time_mask = 0; o->cap_user_time_zero = o->cap_user_time_short = 0;
    /* The tail exists only in newer files; its presence is decided by size. */
    if (r.n - r.pos >= 24) {
        o->has_cycles = 1;
        o->time_cycles = perfdata__rd64(&r); o->time_mask = perfdata__rd64(&r);
        o->cap_user_time_zero = perfdata__rd8(&r); o->cap_user_time_short = perfdata__rd8(&r);
    }
    PERFDATA__END();
}

PERFDATA_DEF perfdata_status perfdata_decode_header_feature(const perfdata_file *f, const perfdata_record *rec,
                                                            perfdata_header_feature *o, perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_HEADER_FEATURE, PERFDATA_RECORD_HEADER_FEATURE, rec->body);
    (void)f;
    o->feat_id = perfdata__rd64(&r);
    o->data = perfdata__rd_bytes(&r, r.n - r.pos);
    PERFDATA__END();
}

PERFDATA_DEF perfdata_status perfdata_decode_compressed(const perfdata_file *f, const perfdata_record *rec,
                                                        perfdata_compressed *o, perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_COMPRESSED, PERFDATA_RECORD_COMPRESSED2, rec->body);
    (void)f;
    if (rec->type == PERFDATA_RECORD_COMPRESSED) {
        o->data_size = r.n;
        o->data = perfdata__rd_bytes(&r, r.n);
    } else {
        o->data_size = perfdata__rd64(&r);
        o->data = perfdata__rd_bytes(&r, o->data_size);
    }
    PERFDATA__END();
}

PERFDATA_DEF perfdata_bpf_metadata_entry perfdata_bpf_metadata_at(const perfdata_bpf_metadata *m, size_t i) {
    perfdata_bpf_metadata_entry e;
    e.key.p = e.value.p = m->entries.p; e.key.n = e.value.n = 0; e.key.offset = e.value.offset = m->entries.offset;
    if (i >= m->nr_entries || i >= m->entries.n / 320) return e;
    e.key.p = m->entries.p + i * 320; e.key.n = 64; e.key.offset = m->entries.offset + i * 320;
    e.value.p = e.key.p + 64; e.value.n = 256; e.value.offset = e.key.offset + 64;
    e.key = perfdata__view_cstr(e.key);
    e.value = perfdata__view_cstr(e.value);
    return e;
}

PERFDATA_DEF perfdata_status perfdata_decode_bpf_metadata(const perfdata_file *f, const perfdata_record *rec,
                                                          perfdata_bpf_metadata *o, perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_BPF_METADATA, PERFDATA_RECORD_BPF_METADATA, rec->body);
    (void)f;
    o->prog_name = perfdata__rd_string(&r, 256);
    o->nr_entries = perfdata__rd64(&r);
    o->entries = perfdata__rd_array(&r, o->nr_entries, 320);
    if (r.overrun) o->nr_entries = 0;
    PERFDATA__END();
}

PERFDATA_DEF perfdata_status perfdata_decode_schedstat(const perfdata_file *f, const perfdata_record *rec,
                                                       perfdata_schedstat *o, perfdata_error *err) {
    PERFDATA__BEGIN(PERFDATA_RECORD_SCHEDSTAT_CPU, PERFDATA_RECORD_SCHEDSTAT_DOMAIN, rec->body);
    (void)f;
    o->timestamp = perfdata__rd64(&r);
    o->cpu = perfdata__rd32(&r);
    o->version = perfdata__rd16(&r);
    o->domain = perfdata__rd16(&r);
    if (rec->type == PERFDATA_RECORD_SCHEDSTAT_CPU) o->domain = 0;
    o->counters = perfdata__rd_u64s(&r, (r.n - r.pos) / 8);
    PERFDATA__END();
}

/* ---------------------------------------------------------- features */

PERFDATA_DEF const char *perfdata_feature_name(unsigned feature) {
    static const char *const names[] = {
        "RESERVED", "TRACING_DATA", "BUILD_ID", "HOSTNAME", "OSRELEASE", "VERSION", "ARCH", "NRCPUS",
        "CPUDESC", "CPUID", "TOTAL_MEM", "CMDLINE", "EVENT_DESC", "CPU_TOPOLOGY", "NUMA_TOPOLOGY",
        "BRANCH_STACK", "PMU_MAPPINGS", "GROUP_DESC", "AUXTRACE", "STAT", "CACHE", "SAMPLE_TIME",
        "MEM_TOPOLOGY", "CLOCKID", "DIR_FORMAT", "BPF_PROG_INFO", "BPF_BTF", "COMPRESSED", "CPU_PMU_CAPS",
        "CLOCK_DATA", "HYBRID_TOPOLOGY", "PMU_CAPS", "CPU_DOMAIN_INFO", "E_MACHINE", "CLN_SIZE"};
    if (feature < sizeof names / sizeof names[0]) return names[feature];
    return "UNKNOWN";
}

/* A perf string: u32 len, len bytes; the view stops at the first NUL. */
PERFDATA__PRIVATE perfdata_view perfdata__rd_pstring(perfdata__rd *r) {
    uint32_t len = perfdata__rd32(r);
    return perfdata__view_cstr(perfdata__rd_bytes(r, len));
}

PERFDATA__PRIVATE perfdata_status perfdata__feat_fail(perfdata_view sec, const perfdata__rd *r, perfdata_error *err,
                                                      const char *msg) {
    return perfdata__fail(err, PERFDATA_ERR_TRUNCATED, sec.offset + (r ? r->pos : 0), 0, msg);
}

PERFDATA_DEF int perfdata_strlist_next(const perfdata_strlist *l, size_t *state, perfdata_view *s) {
    perfdata__rd r = perfdata__rd_view(l->bytes, l->big_endian);
    if (*state >= l->bytes.n) return 0;
    r.pos = *state;
    *s = perfdata__rd_pstring(&r);
    if (r.overrun) return 0;
    *state = r.pos;
    return 1;
}

/* Reads a strlist at r (u32 nr, then nr strings), validating all of it. */
PERFDATA__PRIVATE void perfdata__rd_strlist(perfdata__rd *r, perfdata_strlist *l) {
    uint32_t i;
    size_t start;
    l->big_endian = r->big;
    l->nr = perfdata__rd32(r);
    start = r->pos;
    for (i = 0; i < l->nr && !r->overrun; i++) perfdata__rd_pstring(r);
    l->bytes.p = r->p + start;
    l->bytes.n = r->pos - start;
    l->bytes.offset = r->offset + start;
    if (r->overrun) { l->nr = 0; l->bytes.n = 0; }
}

/* The generic counted list: `count_width` 4 or 8 bytes of count, then
   entries each read by `entry` (which must consume at least one byte). */
typedef void (*perfdata__entry_fn)(perfdata__rd *r, void *out);

PERFDATA__PRIVATE perfdata_status perfdata__rd_list(perfdata__rd *r, int count_width, perfdata__entry_fn entry,
                                                    void *scratch, perfdata_feat_list *out) {
    uint64_t i;
    size_t start;
    out->big_endian = r->big;
    out->nr = count_width == 8 ? perfdata__rd64(r) : perfdata__rd32(r);
    start = r->pos;
    for (i = 0; i < out->nr && !r->overrun; i++) entry(r, scratch);
    out->bytes.p = r->p + start;
    out->bytes.n = r->overrun ? 0 : r->pos - start;
    out->bytes.offset = r->offset + start;
    if (r->overrun) { out->nr = 0; return PERFDATA_ERR_TRUNCATED; }
    return PERFDATA_OK;
}

PERFDATA__PRIVATE int perfdata__list_next(const perfdata_feat_list *l, size_t *state, perfdata__entry_fn entry, void *out) {
    perfdata__rd r = perfdata__rd_view(l->bytes, l->big_endian);
    if (*state >= l->bytes.n) return 0;
    r.pos = *state;
    entry(&r, out);
    if (r.overrun) return 0;
    *state = r.pos;
    return 1;
}

PERFDATA__PRIVATE void perfdata__e_numa(perfdata__rd *r, void *o) {
    perfdata_numa_node *e = (perfdata_numa_node *)o;
    e->node = perfdata__rd32(r);
    e->mem_total = perfdata__rd64(r);
    e->mem_free = perfdata__rd64(r);
    e->cpus = perfdata__rd_pstring(r);
}
PERFDATA__PRIVATE void perfdata__e_pmu_mapping(perfdata__rd *r, void *o) {
    perfdata_pmu_mapping *e = (perfdata_pmu_mapping *)o;
    e->type = perfdata__rd32(r);
    e->name = perfdata__rd_pstring(r);
}
PERFDATA__PRIVATE void perfdata__e_group_desc(perfdata__rd *r, void *o) {
    perfdata_group_desc *e = (perfdata_group_desc *)o;
    e->name = perfdata__rd_pstring(r);
    e->leader_idx = perfdata__rd32(r);
    e->nr_members = perfdata__rd32(r);
}
PERFDATA__PRIVATE void perfdata__e_auxtrace(perfdata__rd *r, void *o) {
    perfdata_auxtrace_index_entry *e = (perfdata_auxtrace_index_entry *)o;
    e->file_offset = perfdata__rd64(r);
    e->size = perfdata__rd64(r);
}
PERFDATA__PRIVATE void perfdata__e_cache(perfdata__rd *r, void *o) {
    perfdata_cache_level *e = (perfdata_cache_level *)o;
    e->level = perfdata__rd32(r);
    e->line_size = perfdata__rd32(r);
    e->sets = perfdata__rd32(r);
    e->ways = perfdata__rd32(r);
    e->type = perfdata__rd_pstring(r);
    e->size = perfdata__rd_pstring(r);
    e->map = perfdata__rd_pstring(r);
}
PERFDATA__PRIVATE void perfdata__e_mem_node(perfdata__rd *r, void *o) {
    perfdata_mem_node *e = (perfdata_mem_node *)o;
    e->node = perfdata__rd64(r);
    e->size = perfdata__rd64(r);
    e->nbits = perfdata__rd64(r);
    e->bitmap = perfdata__rd_u64s(r, e->nbits / 64 + ((e->nbits % 64) != 0));
}
PERFDATA__PRIVATE void perfdata__e_bpf_btf(perfdata__rd *r, void *o) {
    perfdata_bpf_btf *e = (perfdata_bpf_btf *)o;
    e->id = perfdata__rd32(r);
    e->data = perfdata__rd_bytes(r, perfdata__rd32(r));
}
/* perf_bpil: u32 info_len, u32 data_len, u64 arrays, info, data */
PERFDATA__PRIVATE void perfdata__e_bpf_prog_info(perfdata__rd *r, void *o) {
    perfdata_bpf_prog_info *e = (perfdata_bpf_prog_info *)o;
    e->info_len = perfdata__rd32(r);
    e->data_len = perfdata__rd32(r);
    perfdata__rd64(r);
    e->info = perfdata__rd_bytes(r, e->info_len);
    e->data = perfdata__rd_bytes(r, e->data_len);
}
PERFDATA__PRIVATE void perfdata__e_name_value(perfdata__rd *r, void *o) {
    perfdata_name_value *e = (perfdata_name_value *)o;
    e->name = perfdata__rd_pstring(r);
    e->value = perfdata__rd_pstring(r);
}
PERFDATA__PRIVATE void perfdata__e_hybrid(perfdata__rd *r, void *o) {
    perfdata_hybrid_node *e = (perfdata_hybrid_node *)o;
    e->pmu_name = perfdata__rd_pstring(r);
    e->cpus = perfdata__rd_pstring(r);
}
PERFDATA__PRIVATE void perfdata__e_pmu_caps(perfdata__rd *r, void *o) {
    perfdata_pmu_caps *e = (perfdata_pmu_caps *)o;
    perfdata_name_value nv;
    /* u32 nr_caps, {name, value} x nr_caps, then the PMU's name */
    perfdata__rd_list(r, 4, perfdata__e_name_value, &nv, &e->caps);
    e->nr_caps = (uint32_t)e->caps.nr;
    e->pmu_name = perfdata__rd_pstring(r);
}

/* `type` names a type, which cannot be parenthesized. */
#define PERFDATA__NEXT(fn, type, entry) /* NOLINTNEXTLINE(bugprone-macro-parentheses) */ \
    PERFDATA_DEF int fn(const perfdata_feat_list *l, size_t *state, type *e) {              \
        return perfdata__list_next(l, state, entry, e);                                     \
    }
PERFDATA__NEXT(perfdata_numa_node_next, perfdata_numa_node, perfdata__e_numa)
PERFDATA__NEXT(perfdata_pmu_mapping_next, perfdata_pmu_mapping, perfdata__e_pmu_mapping)
PERFDATA__NEXT(perfdata_group_desc_next, perfdata_group_desc, perfdata__e_group_desc)
PERFDATA__NEXT(perfdata_auxtrace_index_next, perfdata_auxtrace_index_entry, perfdata__e_auxtrace)
PERFDATA__NEXT(perfdata_cache_level_next, perfdata_cache_level, perfdata__e_cache)
PERFDATA__NEXT(perfdata_mem_node_next, perfdata_mem_node, perfdata__e_mem_node)
PERFDATA__NEXT(perfdata_bpf_btf_next, perfdata_bpf_btf, perfdata__e_bpf_btf)
PERFDATA__NEXT(perfdata_bpf_prog_info_next, perfdata_bpf_prog_info, perfdata__e_bpf_prog_info)
PERFDATA__NEXT(perfdata_name_value_next, perfdata_name_value, perfdata__e_name_value)
PERFDATA__NEXT(perfdata_hybrid_node_next, perfdata_hybrid_node, perfdata__e_hybrid)
PERFDATA__NEXT(perfdata_pmu_caps_next, perfdata_pmu_caps, perfdata__e_pmu_caps)
#undef PERFDATA__NEXT

/* One decoder per counted-list feature: the count's width and the entry. */
#define PERFDATA__LIST_FEATURE(fn, width, type, entry, what)                                          \
    PERFDATA_DEF perfdata_status fn(perfdata_view sec, int big, perfdata_feat_list *out, perfdata_error *err) { \
        perfdata__rd r = perfdata__rd_view(sec, big);                                                  \
        type scratch;                                                                                  \
        if (perfdata__rd_list(&r, width, entry, &scratch, out) != PERFDATA_OK)                         \
            return perfdata__feat_fail(sec, &r, err, PERFDATA__MSG(what));                             \
        return perfdata__ok(err);                                                                      \
    }
PERFDATA__LIST_FEATURE(perfdata_decode_feat_numa_topology, 4, perfdata_numa_node, perfdata__e_numa, "NUMA_TOPOLOGY section truncated")
PERFDATA__LIST_FEATURE(perfdata_decode_feat_pmu_mappings, 4, perfdata_pmu_mapping, perfdata__e_pmu_mapping, "PMU_MAPPINGS section truncated")
PERFDATA__LIST_FEATURE(perfdata_decode_feat_group_desc, 4, perfdata_group_desc, perfdata__e_group_desc, "GROUP_DESC section truncated")
PERFDATA__LIST_FEATURE(perfdata_decode_feat_auxtrace, 8, perfdata_auxtrace_index_entry, perfdata__e_auxtrace, "AUXTRACE section truncated")
PERFDATA__LIST_FEATURE(perfdata_decode_feat_bpf_prog_info, 4, perfdata_bpf_prog_info, perfdata__e_bpf_prog_info, "BPF_PROG_INFO section truncated")
PERFDATA__LIST_FEATURE(perfdata_decode_feat_bpf_btf, 4, perfdata_bpf_btf, perfdata__e_bpf_btf, "BPF_BTF section truncated")
PERFDATA__LIST_FEATURE(perfdata_decode_feat_cpu_pmu_caps, 4, perfdata_name_value, perfdata__e_name_value, "CPU_PMU_CAPS section truncated")
PERFDATA__LIST_FEATURE(perfdata_decode_feat_hybrid_topology, 4, perfdata_hybrid_node, perfdata__e_hybrid, "HYBRID_TOPOLOGY section truncated")
PERFDATA__LIST_FEATURE(perfdata_decode_feat_pmu_caps, 4, perfdata_pmu_caps, perfdata__e_pmu_caps, "PMU_CAPS section truncated")
#undef PERFDATA__LIST_FEATURE

PERFDATA_DEF perfdata_status perfdata_decode_feat_cache(perfdata_view sec, int big, perfdata_feat_cache *out, perfdata_error *err) {
    perfdata__rd r = perfdata__rd_view(sec, big);
    perfdata_cache_level scratch;
    out->version = perfdata__rd32(&r);
    out->levels.nr = 0; out->levels.bytes = sec; out->levels.bytes.n = 0; out->levels.big_endian = big;
    if (!r.overrun && out->version != 1) /* the only version perf writes or reads */
        return perfdata__fail(err, PERFDATA_ERR_MALFORMED, sec.offset, 0, PERFDATA__MSG("CACHE section version is not 1"));
    if (perfdata__rd_list(&r, 4, perfdata__e_cache, &scratch, &out->levels) != PERFDATA_OK)
        return perfdata__feat_fail(sec, &r, err, PERFDATA__MSG("CACHE section truncated"));
    return perfdata__ok(err);
}

PERFDATA_DEF perfdata_status perfdata_decode_feat_mem_topology(perfdata_view sec, int big, perfdata_feat_mem_topology *out,
                                                        perfdata_error *err) {
    perfdata__rd r = perfdata__rd_view(sec, big);
    perfdata_mem_node scratch;
    out->version = perfdata__rd64(&r);
    out->block_size = perfdata__rd64(&r);
    if (perfdata__rd_list(&r, 8, perfdata__e_mem_node, &scratch, &out->nodes) != PERFDATA_OK)
        return perfdata__feat_fail(sec, &r, err, PERFDATA__MSG("MEM_TOPOLOGY section truncated"));
    return perfdata__ok(err);
}

PERFDATA_DEF perfdata_status perfdata_decode_feat_string(perfdata_view sec, int big, perfdata_view *out, perfdata_error *err) {
    perfdata__rd r = perfdata__rd_view(sec, big);
    *out = perfdata__rd_pstring(&r);
    if (r.overrun) return perfdata__feat_fail(sec, &r, err, PERFDATA__MSG("string feature truncated"));
    return perfdata__ok(err);
}

PERFDATA_DEF perfdata_status perfdata_decode_feat_strlist(perfdata_view sec, int big, perfdata_strlist *out, perfdata_error *err) {
    perfdata__rd r = perfdata__rd_view(sec, big);
    perfdata__rd_strlist(&r, out);
    if (r.overrun) return perfdata__feat_fail(sec, &r, err, PERFDATA__MSG("string list truncated"));
    return perfdata__ok(err);
}

PERFDATA_DEF perfdata_status perfdata_decode_feat_nrcpus(perfdata_view sec, int big, perfdata_feat_nrcpus *out, perfdata_error *err) {
    perfdata__rd r = perfdata__rd_view(sec, big);
    out->nr_cpus_available = perfdata__rd32(&r); /* written first, whatever the doc says */
    out->nr_cpus_online = perfdata__rd32(&r);
    if (r.overrun) return perfdata__feat_fail(sec, &r, err, PERFDATA__MSG("NRCPUS section truncated"));
    return perfdata__ok(err);
}

PERFDATA_DEF perfdata_status perfdata_decode_feat_u64(perfdata_view sec, int big, uint64_t *out, perfdata_error *err) {
    perfdata__rd r = perfdata__rd_view(sec, big);
    *out = perfdata__rd64(&r);
    if (r.overrun) return perfdata__feat_fail(sec, &r, err, PERFDATA__MSG("u64 feature truncated"));
    return perfdata__ok(err);
}

PERFDATA_DEF perfdata_status perfdata_decode_feat_sample_time(perfdata_view sec, int big, uint64_t *first, uint64_t *last,
                                                       perfdata_error *err) {
    perfdata__rd r = perfdata__rd_view(sec, big);
    *first = perfdata__rd64(&r);
    *last = perfdata__rd64(&r);
    if (r.overrun) return perfdata__feat_fail(sec, &r, err, PERFDATA__MSG("SAMPLE_TIME section truncated"));
    return perfdata__ok(err);
}

PERFDATA_DEF perfdata_status perfdata_decode_feat_compressed(perfdata_view sec, int big, perfdata_feat_compressed *out,
                                                      perfdata_error *err) {
    perfdata__rd r = perfdata__rd_view(sec, big);
    out->version = perfdata__rd32(&r);
    out->type = perfdata__rd32(&r);
    out->level = perfdata__rd32(&r);
    out->ratio = perfdata__rd32(&r);
    out->mmap_len = perfdata__rd32(&r);
    if (r.overrun) return perfdata__feat_fail(sec, &r, err, PERFDATA__MSG("COMPRESSED section truncated"));
    return perfdata__ok(err);
}

PERFDATA_DEF perfdata_status perfdata_decode_feat_clock_data(perfdata_view sec, int big, perfdata_feat_clock_data *out,
                                                      perfdata_error *err) {
    perfdata__rd r = perfdata__rd_view(sec, big);
    out->version = perfdata__rd32(&r);
    out->clockid = perfdata__rd32(&r);
    out->wall_clock_ns = perfdata__rd64(&r);
    out->clockid_time_ns = perfdata__rd64(&r);
    if (r.overrun) return perfdata__feat_fail(sec, &r, err, PERFDATA__MSG("CLOCK_DATA section truncated"));
    return perfdata__ok(err);
}

PERFDATA_DEF perfdata_status perfdata_decode_feat_e_machine(perfdata_view sec, int big, perfdata_feat_e_machine *out,
                                                     perfdata_error *err) {
    perfdata__rd r = perfdata__rd_view(sec, big);
    out->e_machine = perfdata__rd32(&r);
    out->e_flags = perfdata__rd32(&r);
    if (r.overrun) return perfdata__feat_fail(sec, &r, err, PERFDATA__MSG("E_MACHINE section truncated"));
    return perfdata__ok(err);
}

/* EVENT_DESC: u32 nr, u32 attr_size, then per event attr[attr_size], u32
   nr_ids, string name, u64 ids[nr_ids]. The attr is read as far as both
   its own size and attr_size allow, as perf does. */
PERFDATA__PRIVATE void perfdata__e_event_desc(perfdata__rd *r, uint32_t attr_size, perfdata_event_desc_entry *e) {
    uint32_t nids;
    perfdata_view av = perfdata__rd_bytes(r, attr_size);
    e->attr_bytes = av;
    if (!r->overrun) {
        if (av.n >= 8 && perfdata__ld32(av.p + 4, r->big) > av.n) {
            /* attr.size beyond attr_size: read what the section holds */
            perfdata__zero_attr(&e->attr);
            if (av.n >= PERFDATA_ATTR_SIZE_VER0) {
                unsigned char tmp[PERFDATA_ATTR_SIZE_VER9];
                size_t i, n = av.n < sizeof tmp ? av.n : sizeof tmp;
                perfdata_view tv;
                for (i = 0; i < n; i++) tmp[i] = av.p[i];
                /* rewrite the size field in the copy, in the file's order */
                for (i = 0; i < 4; i++) tmp[4 + i] = (unsigned char)(r->big ? (n >> (8 * (3 - i))) : (n >> (8 * i)));
                tv.p = tmp; tv.n = n; tv.offset = av.offset;
                perfdata_decode_attr(tv, r->big, &e->attr, 0);
                e->attr.size = perfdata__ld32(av.p + 4, r->big); /* as written */
            }
        } else if (perfdata_decode_attr(av, r->big, &e->attr, 0) != PERFDATA_OK) {
            perfdata__zero_attr(&e->attr);
        }
    }
    nids = perfdata__rd32(r);
    e->name = perfdata__rd_pstring(r);
    e->ids = perfdata__rd_u64s(r, nids);
}

PERFDATA_DEF int perfdata_event_desc_next(const perfdata_feat_event_desc *d, size_t *state, perfdata_event_desc_entry *e) {
    perfdata__rd r = perfdata__rd_view(d->bytes, d->big_endian);
    if (*state >= d->bytes.n) return 0;
    r.pos = *state;
    perfdata__e_event_desc(&r, d->attr_size, e);
    if (r.overrun) return 0;
    *state = r.pos;
    return 1;
}

PERFDATA_DEF perfdata_status perfdata_decode_feat_event_desc(perfdata_view sec, int big, perfdata_feat_event_desc *out,
                                                      perfdata_error *err) {
    perfdata__rd r = perfdata__rd_view(sec, big);
    perfdata_event_desc_entry e;
    uint32_t i;
    size_t start;
    out->big_endian = big;
    out->nr = perfdata__rd32(&r);
    out->attr_size = perfdata__rd32(&r);
    start = r.pos;
    out->bytes.p = sec.p + start; out->bytes.n = 0; out->bytes.offset = sec.offset + start;
    if (!r.overrun && out->attr_size < PERFDATA_ATTR_SIZE_VER0)
        return perfdata__fail(err, PERFDATA_ERR_MALFORMED, sec.offset + 4, 0, PERFDATA__MSG("EVENT_DESC attr size below 64"));
    for (i = 0; i < out->nr && !r.overrun; i++) perfdata__e_event_desc(&r, out->attr_size, &e);
    if (r.overrun) { out->nr = 0; return perfdata__feat_fail(sec, &r, err, PERFDATA__MSG("EVENT_DESC section truncated")); }
    out->bytes.n = r.pos - start;
    return perfdata__ok(err);
}

/* CPU_TOPOLOGY: core and thread sibling lists, then (perf 4.x+) core and
   socket id per cpu, then (perf 5.x+) die siblings and die ids; the tails
   are recognised by the bytes left, as perf does. */
PERFDATA_DEF perfdata_status perfdata_decode_feat_cpu_topology(perfdata_view sec, int big, uint32_t nr_cpus,
                                                        perfdata_feat_cpu_topology *out, perfdata_error *err) {
    perfdata__rd r = perfdata__rd_view(sec, big);
    out->big_endian = big;
    out->nr_cpus = 0;
    out->has_dies = 0;
    out->cpu_ids.p = sec.p; out->cpu_ids.n = 0; out->cpu_ids.offset = sec.offset;
    out->die_ids = out->cpu_ids;
    out->die_siblings.nr = 0; out->die_siblings.bytes = out->cpu_ids; out->die_siblings.big_endian = big;
    perfdata__rd_strlist(&r, &out->core_siblings);
    perfdata__rd_strlist(&r, &out->thread_siblings);
    if (r.overrun) return perfdata__feat_fail(sec, &r, err, PERFDATA__MSG("CPU_TOPOLOGY section truncated"));
    /* process_cpu_topology: any byte after the sibling lists starts the
       id table, which must then be whole; likewise the die part. Without a
       cpu count (no NRCPUS) the tails cannot be read at all. */
    if (nr_cpus && r.n > r.pos) {
        out->cpu_ids = perfdata__rd_array(&r, nr_cpus, 8);
        if (r.overrun) return perfdata__feat_fail(sec, &r, err, PERFDATA__MSG("CPU_TOPOLOGY core/socket ids truncated"));
        out->nr_cpus = nr_cpus;
        if (r.n > r.pos) {
            perfdata__rd_strlist(&r, &out->die_siblings);
            out->die_ids = perfdata__rd_array(&r, nr_cpus, 4);
            if (r.overrun) return perfdata__feat_fail(sec, &r, err, PERFDATA__MSG("CPU_TOPOLOGY die ids truncated"));
            out->has_dies = 1;
        }
    }
    return perfdata__ok(err);
}

PERFDATA_DEF perfdata_cpu_topology_entry perfdata_cpu_topology_at(const perfdata_feat_cpu_topology *t, size_t cpu) {
    perfdata_cpu_topology_entry e;
    e.core_id = e.socket_id = e.die_id = -1;
    if (cpu < t->nr_cpus && cpu < t->cpu_ids.n / 8) {
        e.core_id = (int32_t)perfdata__ld32(t->cpu_ids.p + 8 * cpu, t->big_endian);
        e.socket_id = (int32_t)perfdata__ld32(t->cpu_ids.p + 8 * cpu + 4, t->big_endian);
    }
    if (t->has_dies && cpu < t->die_ids.n / 4) e.die_id = (int32_t)perfdata__ld32(t->die_ids.p + 4 * cpu, t->big_endian);
    return e;
}

/* CPU_DOMAIN_INFO: entries run to the section's end; each is validated. */
PERFDATA__PRIVATE void perfdata__e_sched_domain(perfdata__rd *r, uint32_t version, perfdata_sched_domain *e) {
    e->domain = perfdata__rd32(r);
    e->name.p = r->p + r->pos; e->name.n = 0; e->name.offset = r->offset + r->pos;
    if (version >= 17) e->name = perfdata__rd_pstring(r);
    e->cpumask = perfdata__rd_pstring(r);
    e->cpulist = perfdata__rd_pstring(r);
}

PERFDATA__PRIVATE void perfdata__e_cpu_domains(perfdata__rd *r, uint32_t version, perfdata_cpu_domains *e) {
    uint32_t i;
    size_t start;
    perfdata_sched_domain d;
    e->cpu = perfdata__rd32(r);
    e->nr_domains = perfdata__rd32(r);
    e->schedstat_version = version;
    e->big_endian = r->big;
    start = r->pos;
    for (i = 0; i < e->nr_domains && !r->overrun; i++) perfdata__e_sched_domain(r, version, &d);
    e->domains.p = r->p + start;
    e->domains.n = r->overrun ? 0 : r->pos - start;
    e->domains.offset = r->offset + start;
}

PERFDATA_DEF perfdata_status perfdata_decode_feat_cpu_domain_info(perfdata_view sec, int big,
                                                                  perfdata_feat_cpu_domain_info *out, perfdata_error *err) {
    perfdata__rd r = perfdata__rd_view(sec, big);
    perfdata_cpu_domains e;
    size_t start;
    out->big_endian = big;
    out->schedstat_version = perfdata__rd32(&r);
    out->max_sched_domains = perfdata__rd32(&r);
    start = r.pos;
    out->cpus.p = sec.p + start; out->cpus.n = 0; out->cpus.offset = sec.offset + start;
    while (!r.overrun && r.pos < r.n) perfdata__e_cpu_domains(&r, out->schedstat_version, &e);
    if (r.overrun) return perfdata__feat_fail(sec, &r, err, PERFDATA__MSG("CPU_DOMAIN_INFO section truncated"));
    out->cpus.n = r.pos - start;
    return perfdata__ok(err);
}

PERFDATA_DEF int perfdata_cpu_domains_next(const perfdata_feat_cpu_domain_info *d, size_t *state, perfdata_cpu_domains *e) {
    perfdata__rd r = perfdata__rd_view(d->cpus, d->big_endian);
    if (*state >= d->cpus.n) return 0;
    r.pos = *state;
    perfdata__e_cpu_domains(&r, d->schedstat_version, e);
    if (r.overrun) return 0;
    *state = r.pos;
    return 1;
}

PERFDATA_DEF int perfdata_sched_domain_next(const perfdata_cpu_domains *c, size_t *state, perfdata_sched_domain *e) {
    perfdata__rd r = perfdata__rd_view(c->domains, c->big_endian);
    if (*state >= c->domains.n) return 0;
    r.pos = *state;
    perfdata__e_sched_domain(&r, c->schedstat_version, e);
    if (r.overrun) return 0;
    *state = r.pos;
    return 1;
}

PERFDATA_DEF perfdata_status perfdata_decode_feat_cln_size(perfdata_view sec, int big, uint64_t *out, perfdata_error *err) {
    perfdata__rd r = perfdata__rd_view(sec, big);
    *out = sec.n >= 8 ? perfdata__rd64(&r) : perfdata__rd32(&r);
    if (r.overrun) return perfdata__feat_fail(sec, &r, err, PERFDATA__MSG("CLN_SIZE section truncated"));
    return perfdata__ok(err);
}

/* BUILD_ID: HEADER_BUILD_ID records back to back, each sized by its header. */
PERFDATA__PRIVATE int perfdata__build_id_at(perfdata_view sec, int big, size_t *state, perfdata_build_id *out) {
    perfdata_record rec;
    uint16_t size;
    if (*state >= sec.n || sec.n - *state < 8) return 0;
    size = perfdata__ld16(sec.p + *state + 6, big);
    if (size < 8 || size > sec.n - *state) return 0;
    rec.type = PERFDATA_RECORD_HEADER_BUILD_ID;
    rec.misc = perfdata__ld16(sec.p + *state + 4, big);
    rec.size = size;
    rec.offset = sec.offset + *state;
    rec.bytes.p = sec.p + *state; rec.bytes.n = size; rec.bytes.offset = rec.offset;
    rec.body.p = rec.bytes.p + 8; rec.body.n = (size_t)size - 8; rec.body.offset = rec.offset + 8;
    rec.extra.p = rec.bytes.p + size; rec.extra.n = 0; rec.extra.offset = rec.offset + size;
    rec.big_endian = big;
    if (perfdata_decode_build_id(0, &rec, out, 0) != PERFDATA_OK) return 0;
    *state += size;
    return 1;
}

PERFDATA_DEF perfdata_status perfdata_decode_feat_build_id(perfdata_view sec, int big, perfdata_feat_list *out,
                                                           perfdata_error *err) {
    size_t state = 0;
    perfdata_build_id b;
    out->nr = 0; out->bytes = sec; out->big_endian = big;
    while (perfdata__build_id_at(sec, big, &state, &b)) out->nr++;
    out->bytes.n = state;
    if (state < sec.n)
        return perfdata__fail(err, PERFDATA_ERR_TRUNCATED, sec.offset + state, PERFDATA_RECORD_HEADER_BUILD_ID,
                              PERFDATA__MSG("BUILD_ID section: a record cut short or malformed"));
    return perfdata__ok(err);
}

PERFDATA_DEF int perfdata_build_id_next(const perfdata_feat_list *l, size_t *state, perfdata_build_id *out) {
    return perfdata__build_id_at(l->bytes, l->big_endian, state, out);
}

#undef PERFDATA__BEGIN
#undef PERFDATA__END

/* ------------------------------------------------------ tracepoint formats */

PERFDATA__PRIVATE perfdata_status perfdata__tr_fail(perfdata_error *err, perfdata_status code, perfdata_view d,
                                                    size_t pos, uint64_t needed, const char *msg) {
    perfdata__fail(err, code, d.offset + pos, 0, msg);
    if (err) {
        err->feature = PERFDATA_FEAT_TRACING_DATA;
        err->needed = needed;
    }
    return code;
}

PERFDATA__PRIVATE int perfdata__tp_space(unsigned c) { return c == ' ' || c == '\t'; }
PERFDATA__PRIVATE int perfdata__tp_digit(unsigned c) { return c >= '0' && c <= '9'; }
PERFDATA__PRIVATE int perfdata__tp_ident(unsigned c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || perfdata__tp_digit(c) || c == '_';
}

/* The end of the line that starts at pos: its '\n', or n. */
PERFDATA__PRIVATE size_t perfdata__tp_eol(const unsigned char *p, size_t n, size_t pos) {
    while (pos < n && p[pos] != '\n') pos++;
    return pos;
}

/* 1 when p[pos, end) starts with the literal s. */
PERFDATA__PRIVATE int perfdata__tp_starts(const unsigned char *p, size_t pos, size_t end, const char *s) {
    size_t i;
    for (i = 0; s[i]; i++)
        if (i >= end - pos || p[pos + i] != (unsigned char)s[i]) return 0;
    return 1;
}

/* 1 when p[a, b) is the word s. */
PERFDATA__PRIVATE int perfdata__tp_is(const unsigned char *p, size_t a, size_t b, const char *s) {
    size_t i;
    for (i = 0; s[i]; i++)
        if (i >= b - a || p[a + i] != (unsigned char)s[i]) return 0;
    return i == b - a;
}

PERFDATA__PRIVATE size_t perfdata__tp_skip_space(const unsigned char *p, size_t pos, size_t end) {
    while (pos < end && perfdata__tp_space(p[pos])) pos++;
    return pos;
}
PERFDATA__PRIVATE size_t perfdata__tp_trim_back(const unsigned char *p, size_t start, size_t end) {
    while (end > start && (perfdata__tp_space(p[end - 1]) || p[end - 1] == '\r')) end--;
    return end;
}

/* A decimal number of at least one digit at p[*pos, end), at most max. */
PERFDATA__PRIVATE int perfdata__tp_dec(const unsigned char *p, size_t *pos, size_t end, uint64_t max, uint64_t *out) {
    uint64_t v = 0;
    size_t i = *pos;
    if (i >= end || !perfdata__tp_digit(p[i])) return 0;
    for (; i < end && perfdata__tp_digit(p[i]); i++) {
        unsigned d = (unsigned)(p[i] - '0');
        if (v > (max - d) / 10) return 0;
        v = v * 10 + d;
    }
    *pos = i;
    *out = v;
    return 1;
}

PERFDATA__PRIVATE perfdata_view perfdata__tp_sub(perfdata_view v, size_t a, size_t b) {
    perfdata_view s;
    s.p = v.p + a; s.n = b - a; s.offset = v.offset + a;
    return s;
}

/* The size of one element of the C type p[a, b) (no array brackets, no
   __data_loc), its flags added to *flags; 0 when it is not known. */
PERFDATA__PRIVATE uint32_t perfdata__tp_type_size(const unsigned char *p, size_t a, size_t b, unsigned long_size,
                                                  uint32_t *flags) {
    static const char *const names[] = {
        "u8", "s8", "__u8", "__s8", "uint8_t", "int8_t", "bool", "_Bool",
        "u16", "s16", "__u16", "__s16", "uint16_t", "int16_t", "__le16", "__be16",
        "u32", "s32", "__u32", "__s32", "uint32_t", "int32_t", "__le32", "__be32", "pid_t", "gfp_t", "dev_t",
        "u64", "s64", "__u64", "__s64", "uint64_t", "int64_t", "__le64", "__be64", "loff_t", "sector_t", "ktime_t",
        "size_t", "ssize_t", "uintptr_t", "intptr_t"};
    static const unsigned char sizes[] = {1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2,
                                          4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8,
                                          0, 0, 0, 0}; /* 0: long-sized */
    unsigned nlong = 0, is_char = 0, is_short = 0, is_int = 0;
    uint32_t named = 0;
    size_t i = a, j, k;
    b = perfdata__tp_trim_back(p, a, b);
    if (b > a && p[b - 1] == '*') {
        *flags |= PERFDATA_TP_FIELD_POINTER;
        return long_size;
    }
    while (i < b) {
        if (!perfdata__tp_ident(p[i])) { i++; continue; }
        for (j = i; j < b && perfdata__tp_ident(p[j]); j++) {}
        if (perfdata__tp_is(p, i, j, "long")) nlong++;
        else if (perfdata__tp_is(p, i, j, "char")) is_char = 1;
        else if (perfdata__tp_is(p, i, j, "short")) is_short = 1;
        else if (perfdata__tp_is(p, i, j, "int") || perfdata__tp_is(p, i, j, "unsigned") ||
                 perfdata__tp_is(p, i, j, "signed"))
            is_int = 1;
        else if (!named)
            for (k = 0; k < sizeof sizes; k++)
                if (perfdata__tp_is(p, i, j, names[k])) { named = sizes[k] ? sizes[k] : long_size; break; }
        i = j;
    }
    if (is_char) { *flags |= PERFDATA_TP_FIELD_STRING; return 1; } /* kept by the caller for arrays only */
    if (is_short) return 2;
    if (nlong >= 2) return 8;
    if (nlong == 1) { *flags |= PERFDATA_TP_FIELD_LONG; return long_size; }
    if (named) return named;
    return is_int ? 4 : 0;
}

/* One line p[b, e) of a format's field list. Returns 1 with *out, 2 for a
   blank line, 0 when malformed (*bad = where). Linear in the line. */
PERFDATA__PRIVATE int perfdata__tp_field_line(perfdata_view v, size_t b, size_t e, unsigned long_size,
                                              perfdata_tp_field *out, size_t *bad) {
    const unsigned char *p = v.p;
    size_t i = perfdata__tp_skip_space(p, b, e), semi, d0, d1, ns, ne, t0, t1;
    uint64_t off = 0, size = 0, sgn = 0, num, elems = 1;
    int has_off = 0, has_size = 0, bracket = 0, dynamic = 0, empty = 0, expr = 0;
    uint32_t flags = 0, elem;
    e = perfdata__tp_trim_back(p, i, e);
    if (i == e) return 2;
    *bad = i;
    if (!perfdata__tp_starts(p, i, e, "field")) return 0;
    i = perfdata__tp_skip_space(p, i + 5, e);
    if (perfdata__tp_starts(p, i, e, "special")) i = perfdata__tp_skip_space(p, i + 7, e); /* old ftrace files */
    if (i >= e || p[i] != ':') { *bad = i; return 0; }
    for (semi = i + 1; semi < e && p[semi] != ';'; semi++) {}
    if (semi == e) { *bad = e; return 0; }
    /* the declaration: TYPE NAME or TYPE NAME[N] */
    d0 = perfdata__tp_skip_space(p, i + 1, semi);
    d1 = perfdata__tp_trim_back(p, d0, semi);
    *bad = d0;
    ne = d1;
    while (ne > d0 && p[ne - 1] == ']') { /* [N], [N][M]..., [], [EXPR] */
        size_t depth = 0, k = ne, c0, c1, c;
        while (k > d0) {
            k--;
            if (p[k] == ']') depth++;
            else if (p[k] == '[' && --depth == 0) break;
        }
        if (depth) return 0;
        c0 = perfdata__tp_skip_space(p, k + 1, ne - 1);
        c1 = perfdata__tp_trim_back(p, c0, ne - 1);
        c = c0;
        if (c0 == c1) empty = 1;
        else if (perfdata__tp_dec(p, &c, c1, 0xffffffffu, &num) && c == c1 && (!num || elems <= 0xffffffffu / num))
            elems *= num;
        else expr = 1;
        bracket = 1;
        ne = perfdata__tp_trim_back(p, d0, k);
    }
    for (ns = ne; ns > d0 && perfdata__tp_ident(p[ns - 1]); ns--) {}
    if (ns == ne || perfdata__tp_digit(p[ns])) return 0;
    t0 = d0;
    t1 = perfdata__tp_trim_back(p, d0, ns);
    if (t1 == t0) return 0;
    /* offset:N; size:N; signed:N; (others ignored) */
    i = semi + 1;
    for (;;) {
        size_t k0;
        i = perfdata__tp_skip_space(p, i, e);
        if (i == e) break;
        for (k0 = i; i < e && perfdata__tp_ident(p[i]); i++) {}
        if (i == k0 || i == e || p[i] != ':') { *bad = i; return 0; }
        if (perfdata__tp_is(p, k0, i, "offset") || perfdata__tp_is(p, k0, i, "size") ||
            perfdata__tp_is(p, k0, i, "signed")) {
            i = perfdata__tp_skip_space(p, i + 1, e);
            if (!perfdata__tp_dec(p, &i, e, 0xffffffffu, &num)) { *bad = i; return 0; }
            if (p[k0] == 'o') { off = num; has_off = 1; }
            else if (p[k0] == 's' && p[k0 + 1] == 'i' && p[k0 + 2] == 'z') { size = num; has_size = 1; }
            else sgn = num;
            i = perfdata__tp_skip_space(p, i, e);
            if (i < e && p[i] != ';') { *bad = i; return 0; }
        } else {
            while (i < e && p[i] != ';') i++;
        }
        if (i < e) i++; /* the ';' */
    }
    if (!has_off || !has_size) { *bad = e; return 0; }
    out->type = perfdata__tp_sub(v, t0, t1);
    out->name = perfdata__tp_sub(v, ns, ne);
    out->offset = (uint32_t)off;
    out->size = (uint32_t)size;
    out->array_len = 0;
    if (perfdata__tp_starts(p, t0, t1, "__data_loc") && t1 - t0 > 10 && !perfdata__tp_ident(p[t0 + 10])) {
        flags |= PERFDATA_TP_FIELD_DYNAMIC; t0 += 10; dynamic = 1;
    } else if (perfdata__tp_starts(p, t0, t1, "__rel_loc") && t1 - t0 > 9 && !perfdata__tp_ident(p[t0 + 9])) {
        flags |= PERFDATA_TP_FIELD_DYNAMIC | PERFDATA_TP_FIELD_RELATIVE; t0 += 9; dynamic = 1;
    }
    if (dynamic) { /* "char[]": the element type */
        size_t k = t1;
        while (k > t0 && p[k - 1] != '[') k--;
        if (k > t0) t1 = k - 1;
    }
    elem = perfdata__tp_type_size(p, t0, t1, long_size, &flags);
    if (!dynamic && !bracket) {
        flags &= ~PERFDATA_TP_FIELD_STRING;
        elem = (uint32_t)size;
    } else if (dynamic) {
        if (!elem) elem = 1;
    } else {
        flags |= PERFDATA_TP_FIELD_ARRAY;
        if (expr) {                                  /* name[EXPR] */
            if (elem) out->array_len = (uint32_t)(size / elem);
            else elem = (uint32_t)size;
        } else if (empty || !elems) {                /* name[], name[0] */
            if (!elem) elem = 1;
        } else {                                     /* name[N], name[N][M]: N*M elements */
            out->array_len = (uint32_t)elems;
            elem = (uint32_t)(size / elems);
        }
    }
    if (sgn) flags |= PERFDATA_TP_FIELD_SIGNED;
    if (perfdata__tp_starts(p, ns, ne, "common_")) flags |= PERFDATA_TP_FIELD_COMMON;
    out->flags = flags;
    out->elem_size = elem;
    return 1;
}

/* The "name:" and "ID:" lines at the start of a format file. Returns the
   position after them, or 0 (*bad = where). */
PERFDATA__PRIVATE size_t perfdata__tp_head(perfdata_view t, perfdata_view *name, uint64_t *id, size_t *bad) {
    size_t e = perfdata__tp_eol(t.p, t.n, 0), i, a;
    *bad = 0;
    if (!perfdata__tp_starts(t.p, 0, e, "name:")) return 0;
    a = perfdata__tp_skip_space(t.p, 5, e);
    i = perfdata__tp_trim_back(t.p, a, e);
    if (i == a || e == t.n) { *bad = e; return 0; }
    *name = perfdata__tp_sub(t, a, i);
    a = e + 1;
    e = perfdata__tp_eol(t.p, t.n, a);
    *bad = a;
    if (!perfdata__tp_starts(t.p, a, e, "ID:")) return 0;
    i = perfdata__tp_skip_space(t.p, a + 3, e);
    if (!perfdata__tp_dec(t.p, &i, e, ~(uint64_t)0, id)) { *bad = i; return 0; }
    if (perfdata__tp_trim_back(t.p, i, e) != i || e == t.n) { *bad = i; return 0; }
    return e + 1;
}

/* Reads the format file text t into *out (fields checked when `check`).
   1, or 0 with *bad = where it is malformed. Linear in the text. */
PERFDATA__PRIVATE int perfdata__tp_scan(perfdata_view t, unsigned long_size, int check, perfdata_tp_format *out,
                                        size_t *bad) {
    size_t pos = perfdata__tp_head(t, &out->name, &out->id, bad), e, fs;
    perfdata_tp_field f;
    if (!pos) return 0;
    e = perfdata__tp_eol(t.p, t.n, pos);
    *bad = pos;
    if (!perfdata__tp_starts(t.p, pos, e, "format:") || perfdata__tp_trim_back(t.p, pos + 7, e) != pos + 7) return 0;
    fs = pos = e < t.n ? e + 1 : t.n;
    for (;;) {
        if (pos >= t.n) { *bad = t.n; return 0; }  /* no print fmt line */
        e = perfdata__tp_eol(t.p, t.n, pos);
        if (perfdata__tp_starts(t.p, pos, e, "print fmt:")) break;
        if (check && !perfdata__tp_field_line(t, pos, e, long_size, &f, bad)) return 0;
        pos = e < t.n ? e + 1 : t.n;
    }
    out->fields = perfdata__tp_sub(t, fs, pos);
    pos = perfdata__tp_skip_space(t.p, pos + 10, e);
    out->print_fmt = perfdata__tp_sub(t, pos, perfdata__tp_trim_back(t.p, pos, e));
    out->text = t;
    out->long_size = long_size;
    return 1;
}

/* A file in a validated area: u64 size, then the text. The position after
   it, or 0 when it does not fit. */
PERFDATA__PRIVATE size_t perfdata__tr_file(perfdata_view a, int big, size_t pos, perfdata_view *text) {
    uint64_t size;
    if (pos > a.n || a.n - pos < 8) return 0;
    size = perfdata__ld64(a.p + pos, big);
    if (size > a.n - pos - 8) return 0;
    *text = perfdata__tp_sub(a, pos + 8, pos + 8 + (size_t)size);
    return pos + 8 + (size_t)size;
}

/* A system header in a validated area: name, NUL, u32 count. The position
   after it, or 0. */
PERFDATA__PRIVATE size_t perfdata__tr_system(perfdata_view a, int big, size_t pos, perfdata_view *name, uint32_t *count) {
    size_t i = pos;
    while (i < a.n && a.p[i]) i++;
    if (i >= a.n || a.n - i - 1 < 4) return 0;
    *name = perfdata__tp_sub(a, pos, i);
    *count = perfdata__ld32(a.p + i + 1, big);
    return i + 5;
}

/* version >= 0.6, as perf's atof(version) >= 0.6 decides it */
PERFDATA__PRIVATE int perfdata__tr_has_cmdlines(perfdata_view v) {
    size_t i = perfdata__tp_skip_space(v.p, 0, v.n);
    int whole = 0;
    if (i < v.n && v.p[i] == '+') i++;
    for (; i < v.n && perfdata__tp_digit(v.p[i]); i++)
        if (v.p[i] != '0') whole = 1;
    if (whole) return 1;
    return i + 1 < v.n && v.p[i] == '.' && perfdata__tp_digit(v.p[i + 1]) && v.p[i + 1] >= '6';
}

PERFDATA_DEF perfdata_status perfdata_tracing_parse(perfdata_view d, perfdata_tracing *out, perfdata_error *err) {
    static const unsigned char magic[10] = {0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'};
    static const char *const lit[2] = {"header_page", "header_event"};
    perfdata_view empty, *hdr[2];
    perfdata_tp_format fmt;
    size_t pos = 0, i, k, lsize_pos;
    uint64_t size;
    uint32_t count, s, j;
    int big;
    if (!out || (!d.p && d.n)) return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, d.offset, 0, 0);
    empty.p = d.p; empty.n = 0; empty.offset = d.offset;
    out->version = out->header_page = out->header_event = out->ftrace = out->events = empty;
    out->kallsyms = out->printk = out->cmdlines = empty;
    out->big_endian = 0; out->long_size = 0; out->page_size = 0;
    out->nftrace = out->nsystems = out->nevents = 0;
#define PERFDATA__TR_NEED(want, what)                                                                       \
    do {                                                                                                 \
        if ((uint64_t)(want) > (uint64_t)(d.n - pos))                                                       \
            return perfdata__tr_fail(err, PERFDATA_ERR_TRUNCATED, d, d.n, (uint64_t)(want) - (d.n - pos), \
                                     PERFDATA__MSG("TRACING_DATA truncated: " what));                    \
    } while (0)
#define PERFDATA__TR_BAD(at, what) \
    return perfdata__tr_fail(err, PERFDATA_ERR_MALFORMED, d, (at), 0, PERFDATA__MSG("TRACING_DATA: " what))
    for (i = 0; i < sizeof magic && i < d.n; i++)
        if (d.p[i] != magic[i]) PERFDATA__TR_BAD(i, "no \"\\x17\\x08\\x44tracing\" magic");
    PERFDATA__TR_NEED(sizeof magic, "magic");
    pos = sizeof magic;
    for (i = pos; i < d.n && d.p[i]; i++) {}
    PERFDATA__TR_NEED(i - pos + 1, "version string");
    out->version = perfdata__tp_sub(d, pos, i);
    pos = i + 1;
    PERFDATA__TR_NEED(6, "endian, long size, page size");
    if (d.p[pos] > 1) PERFDATA__TR_BAD(pos, "endian byte is neither 0 nor 1");
    big = out->big_endian = d.p[pos];
    out->long_size = d.p[pos + 1];
    lsize_pos = pos + 1;
    out->page_size = perfdata__ld32(d.p + pos + 2, big);
    if (!out->page_size) PERFDATA__TR_BAD(pos + 2, "page size 0");
    pos += 6;
    hdr[0] = &out->header_page;
    hdr[1] = &out->header_event;
    for (k = 0; k < 2; k++) {
        size_t n = k ? 13 : 12;
        for (i = 0; i < n && pos + i < d.n; i++)
            if (d.p[pos + i] != (unsigned char)lit[k][i]) PERFDATA__TR_BAD(pos + i, "no header_page/header_event");
        PERFDATA__TR_NEED(n + 8, "header_page/header_event");
        size = perfdata__ld64(d.p + pos + n, big);
        pos += n + 8;
        PERFDATA__TR_NEED(size, "header_page/header_event text");
        *hdr[k] = perfdata__tp_sub(d, pos, pos + (size_t)size);
        pos += (size_t)size;
    }
    /* perf takes the kernel's long size from header_page's commit field */
    {
        perfdata_view h = out->header_page;
        size_t b = 0, e, bad;
        perfdata_tp_field f;
        while (b < h.n) {
            e = perfdata__tp_eol(h.p, h.n, b);
            if (perfdata__tp_field_line(h, b, e, 8, &f, &bad) == 1 && perfdata__tp_is(f.name.p, 0, f.name.n, "commit") &&
                (f.size == 4 || f.size == 8))
                out->long_size = f.size;
            b = e < h.n ? e + 1 : h.n;
        }
    }
    if (out->long_size != 4 && out->long_size != 8) PERFDATA__TR_BAD(lsize_pos, "long size is neither 4 nor 8");
    /* ftrace format files, then the event systems */
    for (k = 0; k < 2; k++) {
        size_t start;
        PERFDATA__TR_NEED(4, "format file count");
        count = perfdata__ld32(d.p + pos, big);
        pos += 4;
        start = pos;
        if (k) out->nsystems = count;
        else out->nftrace = count;
        for (s = 0; s < (k ? count : 1); s++) {
            uint32_t nfiles = count;
            if (k) {
                for (i = pos; i < d.n && d.p[i]; i++) {}
                PERFDATA__TR_NEED(i - pos + 5, "event system name and count");
                nfiles = perfdata__ld32(d.p + i + 1, big);
                pos = i + 5;
                if (nfiles > 0xffffffffu - out->nevents) PERFDATA__TR_BAD(i + 1, "too many event format files");
                out->nevents += nfiles;
            }
            for (j = 0; j < nfiles; j++) {
                size_t bad;
                PERFDATA__TR_NEED(8, "format file size");
                size = perfdata__ld64(d.p + pos, big);
                pos += 8;
                PERFDATA__TR_NEED(size, "format file");
                if (!perfdata__tp_scan(perfdata__tp_sub(d, pos, pos + (size_t)size), out->long_size, 1, &fmt, &bad))
                    PERFDATA__TR_BAD(pos + bad, "malformed format file");
                pos += (size_t)size;
            }
        }
        if (k) out->events = perfdata__tp_sub(d, start, pos);
        else out->ftrace = perfdata__tp_sub(d, start, pos);
    }
    /* kallsyms, printk formats (u32 sizes), saved cmdlines (u64, 0.6+) */
    for (k = 0; k < 3; k++) {
        perfdata_view *v = k == 0 ? &out->kallsyms : k == 1 ? &out->printk : &out->cmdlines;
        if (k == 2 && !perfdata__tr_has_cmdlines(out->version)) break;
        PERFDATA__TR_NEED(k == 2 ? 8 : 4, "kallsyms/printk/cmdlines size");
        size = k == 2 ? perfdata__ld64(d.p + pos, big) : perfdata__ld32(d.p + pos, big);
        pos += k == 2 ? 8 : 4;
        PERFDATA__TR_NEED(size, "kallsyms/printk/cmdlines text");
        *v = perfdata__tp_sub(d, pos, pos + (size_t)size);
        pos += (size_t)size;
    }
#undef PERFDATA__TR_NEED
#undef PERFDATA__TR_BAD
    return perfdata__ok(err);
}

/* The format file at pos of area a, with its system, into *out. */
PERFDATA__PRIVATE size_t perfdata__tr_yield(const perfdata_tracing *t, perfdata_view a, size_t pos, perfdata_view system,
                                            perfdata_tp_format *out) {
    perfdata_view text;
    size_t next = perfdata__tr_file(a, t->big_endian, pos, &text), bad;
    if (!next || !perfdata__tp_scan(text, t->long_size, 0, out, &bad)) return 0;
    out->system = system;
    return next;
}

PERFDATA_DEF int perfdata_tp_format_next(const perfdata_tracing *t, size_t *state, perfdata_tp_format *out) {
    static const unsigned char ftrace_name[] = "ftrace";
    size_t F = t->ftrace.n, E = t->events.n, L = E / 8 + 1, s = *state, k, sys = 0, pos = 0, left = 0, next;
    size_t room = (size_t)-1 - F - 2;
    int packed = E + 1 <= room / (E + 1) && (E + 1) * (E + 1) <= room / L;
    perfdata_view name;
    uint32_t count;
    /* state: 0 the start; 1 + pos the ftrace file at pos; from F + 1 on
       the event files, (system, next position, files left in it) packed
       in one number, or (when they cannot be) 1 + the files already given */
    name.p = ftrace_name; name.n = 6; name.offset = t->ftrace.offset;
    if (s <= F) {
        size_t p = s ? s - 1 : 0;
        if (p < F) {
            next = perfdata__tr_yield(t, t->ftrace, p, name, out);
            if (!next) return 0;
            *state = next < F ? next + 1 : F + 1;
            return 1;
        }
        s = F + 1;
    }
    k = s - (F + 1);
    if (packed && k) {
        left = (k - 1) % L;
        pos = (k - 1) / L % (E + 1);
        sys = (k - 1) / L / (E + 1);
        if (sys > E) return 0;
    } else if (!packed && k) { /* walk past the k - 1 files already given */
        size_t skip = k - 1;
        for (;;) {
            while (!left) {
                if (pos >= E) return 0;
                sys = pos;
                pos = perfdata__tr_system(t->events, t->big_endian, pos, &name, &count);
                if (!pos) return 0;
                left = count;
            }
            if (!skip) break;
            pos = perfdata__tr_file(t->events, t->big_endian, pos, &name);
            if (!pos) return 0;
            left--;
            skip--;
        }
    }
    while (!left) {
        if (pos >= E) {
            *state = F + 1 + (packed ? 1 + E * L : 0); /* the end, at once next time */
            if (!packed) *state = (size_t)-1;
            return 0;
        }
        sys = pos;
        pos = perfdata__tr_system(t->events, t->big_endian, pos, &name, &count);
        if (!pos) return 0;
        left = count;
    }
    if (!perfdata__tr_system(t->events, t->big_endian, sys, &name, &count)) return 0;
    next = perfdata__tr_yield(t, t->events, pos, name, out);
    if (!next) return 0;
    left--;
    if (packed) *state = F + 1 + 1 + (sys * (E + 1) + next) * L + left;
    else *state = s + (k ? 1 : 2);
    return 1;
}

PERFDATA_DEF int perfdata_tracing_find(const perfdata_tracing *t, uint64_t id, perfdata_tp_format *out) {
    perfdata_view a = t->events, name, text, fname;
    size_t pos = 0, bad;
    uint32_t count, i;
    uint64_t fid;
    while (pos < a.n) {
        pos = perfdata__tr_system(a, t->big_endian, pos, &name, &count);
        if (!pos) return 0;
        for (i = 0; i < count; i++) {
            size_t next = perfdata__tr_file(a, t->big_endian, pos, &text);
            if (!next) return 0;
            if (perfdata__tp_head(text, &fname, &fid, &bad) && fid == id)
                return perfdata__tr_yield(t, a, pos, name, out) != 0;
            pos = next;
        }
    }
    return 0;
}

PERFDATA_DEF int perfdata_tp_field_next(const perfdata_tp_format *fmt, size_t *state, perfdata_tp_field *out) {
    perfdata_view v = fmt->fields;
    size_t s = *state, e, next, bad;
    while (s < v.n) {
        int r;
        e = perfdata__tp_eol(v.p, v.n, s);
        next = e < v.n ? e + 1 : v.n;
        r = perfdata__tp_field_line(v, s, e, fmt->long_size, out, &bad);
        if (r == 0) return 0;
        s = next;
        if (r == 1) {
            *state = s;
            return 1;
        }
    }
    *state = s;
    return 0;
}

PERFDATA_DEF int perfdata_tp_field_find(const perfdata_tp_format *fmt, const char *name, size_t name_len,
                                        perfdata_tp_field *out) {
    size_t s = 0, i;
    perfdata_tp_field f;
    while (perfdata_tp_field_next(fmt, &s, &f)) {
        if (f.name.n != name_len) continue;
        for (i = 0; i < name_len && f.name.p[i] == (unsigned char)name[i]; i++) {}
        if (i == name_len) {
            *out = f;
            return 1;
        }
    }
    return 0;
}

PERFDATA_DEF int perfdata_tp_field_bytes(const perfdata_tp_field *f, perfdata_view raw, int big_endian, perfdata_view *out) {
    uint64_t start = f->offset, len = f->size;
    if (f->flags & PERFDATA_TP_FIELD_DYNAMIC) {
        uint32_t loc;
        if (!perfdata__fits(raw.n, f->offset, 4)) return 0;
        loc = perfdata__ld32(raw.p + f->offset, big_endian);
        start = loc & 0xffffu;
        len = loc >> 16;
        if (f->flags & PERFDATA_TP_FIELD_RELATIVE) start += (uint64_t)f->offset + 4;
    }
    if (!perfdata__fits(raw.n, start, len)) return 0;
    out->p = raw.p + (size_t)start;
    out->n = (size_t)len;
    out->offset = raw.offset + start;
    return 1;
}

PERFDATA_DEF int perfdata_tp_field_int(const perfdata_tp_field *f, perfdata_view raw, int big_endian, size_t idx,
                                       uint64_t *out) {
    uint32_t es = f->elem_size;
    perfdata_view b;
    uint64_t v;
    const unsigned char *p;
    if (es != 1 && es != 2 && es != 4 && es != 8) return 0;
    if (!(f->flags & (PERFDATA_TP_FIELD_ARRAY | PERFDATA_TP_FIELD_DYNAMIC)) && (idx || f->size != es)) return 0;
    if (!perfdata_tp_field_bytes(f, raw, big_endian, &b) || idx >= b.n / es) return 0;
    p = b.p + idx * es;
    v = es == 1 ? p[0] : es == 2 ? perfdata__ld16(p, big_endian) : es == 4 ? perfdata__ld32(p, big_endian)
                                                                          : perfdata__ld64(p, big_endian);
    if ((f->flags & PERFDATA_TP_FIELD_SIGNED) && es < 8 && (v >> (8 * es - 1)) & 1) v |= ~(uint64_t)0 << (8 * es);
    *out = v;
    return 1;
}

/* ------------------------------------------------------- compressed data */

PERFDATA__PRIVATE int perfdata__is_chunk(const perfdata_record *rec) {
    return rec->type == PERFDATA_RECORD_COMPRESSED || rec->type == PERFDATA_RECORD_COMPRESSED2;
}

/* Forward byte copy; safe for overlapping ranges with dst < src. */
PERFDATA__PRIVATE void perfdata__move_down(unsigned char *dst, const unsigned char *src, size_t n) {
    size_t i;
    for (i = 0; i < n; i++) dst[i] = src[i];
}

/* Moves c past the well-formed kernel records (types below 64) ahead of
   it, reading only their headers: they carry neither chunks nor features,
   and this keeps perfdata_inflate_measure near the speed of the bytes. The
   first other record, or one that is malformed, is left for
   perfdata_next_record. */
PERFDATA__PRIVATE void perfdata__skip_kernel_records(perfdata_cursor *c) {
    size_t pos = c->priv.pos, n = c->priv.range.n;
    if (c->priv.stopped != PERFDATA_OK) return;
    while (n - pos >= 8) {
        const unsigned char *p = c->priv.range.p + pos;
        size_t size = perfdata__ld16(p + 6, c->priv.big_endian);
        if (perfdata__ld32(p, c->priv.big_endian) >= PERFDATA_RECORD_HEADER_ATTR || size < 8 || size > n - pos) break;
        pos += size;
    }
    c->priv.pos = pos;
}

PERFDATA_DEF perfdata_status perfdata_inflate_measure(perfdata_file *f, const perfdata_cursor *from,
                                                      perfdata_inflate_sizes *out, perfdata_error *err) {
    perfdata_cursor c;
    perfdata_record rec;
    perfdata_view sec;
    perfdata_feat_compressed feat;
    int big = (f->flags & PERFDATA_FILE_BIG_ENDIAN) != 0;
    out->compressed = 0;
    out->mmap_len = 0;
    out->first_chunk.p = f->buffer.p; out->first_chunk.n = 0; out->first_chunk.offset = 0;
    if (!(f->flags & PERFDATA_FILE_PIPE) && perfdata_has_feature(f, PERFDATA_FEAT_COMPRESSED) &&
        perfdata_feature_section(f, PERFDATA_FEAT_COMPRESSED, &sec, 0) == PERFDATA_OK &&
        perfdata_decode_feat_compressed(sec, big, &feat, 0) == PERFDATA_OK)
        out->mmap_len = feat.mmap_len;
    /* A copy that registers nothing, so `f` is left as it is. A pipe's
       features come as HEADER_FEATURE records before the data. */
    if (from) c = *from;
    else perfdata__cursor_data(f, &c);
    c.priv.register_attrs = c.priv.update_events = 0;
    while (perfdata__skip_kernel_records(&c), perfdata_next_record(f, &c, &rec, 0) == PERFDATA_OK || c.priv.stopped == PERFDATA_OK) {
        perfdata_header_feature hf;
        perfdata_compressed cz;
        if (rec.type == PERFDATA_RECORD_HEADER_FEATURE && !out->mmap_len &&
            perfdata_decode_header_feature(f, &rec, &hf, 0) == PERFDATA_OK && hf.feat_id == PERFDATA_FEAT_COMPRESSED &&
            perfdata_decode_feat_compressed(hf.data, big, &feat, 0) == PERFDATA_OK)
            out->mmap_len = feat.mmap_len;
        if (perfdata__is_chunk(&rec)) {
            out->compressed = 1;
            if (perfdata_decode_compressed(f, &rec, &cz, 0) == PERFDATA_OK) out->first_chunk = cz.data;
            break;
        }
    }
    /* Without the feature, perf's default mmap size of 512 KiB (-m 128 pages
       of 4 KiB) is the best guess. */
    out->buffer = (uint64_t)(out->mmap_len ? out->mmap_len : 512u * 1024u) + 65535u;
    return perfdata__ok(err);
}

PERFDATA_DEF void perfdata_inflate_init(perfdata_inflate *z, perfdata_cursor *c, const perfdata_inflate_sizes *sizes,
                                        void *buf, size_t cap, perfdata_decompress_fn decompress,
                                        void *decompress_user) {
    perfdata_cursor_init_range(&z->priv.inner, 0, 0, 0, 0);
    z->priv.cursor = c;
    z->priv.decompress = decompress;
    z->priv.decompress_user = decompress_user;
    z->priv.buf = (unsigned char *)buf;
    z->priv.cap = buf ? cap : 0;
    z->priv.used = z->priv.carry = 0;
    z->priv.carry_p = z->priv.buf;
    z->priv.chunk_max = sizes->buffer < (uint64_t)(size_t)-1 ? (size_t)sizes->buffer : (size_t)-1;
    z->priv.chunk.p = 0; z->priv.chunk.n = 0; z->priv.chunk.offset = 0;
    z->priv.chunk_rec.type = 0;
    z->priv.chunk_rec.offset = 0;
    perfdata__fail(&z->priv.error, PERFDATA_OK, 0, 0, 0);
    z->priv.pending = z->priv.inner_active = 0;
    z->priv.keep = 0;
    z->priv.failed = !decompress;
    z->priv.lost = 0;
    z->priv.in_bytes = z->priv.charged = 0;
    z->priv.max_ratio = PERFDATA_INFLATE_MAX_RATIO;
    z->priv.allowance = PERFDATA_INFLATE_SLACK;
    z->priv.source = 0;
    z->priv.source_user = 0;
    z->priv.told = 0;
}

PERFDATA_DEF void perfdata_inflate_set_source(perfdata_inflate *z, perfdata_record_source source, void *user) {
    z->priv.source = source;
    z->priv.source_user = user;
}

PERFDATA_DEF void perfdata_inflate_keep(perfdata_inflate *z, int keep) {
    z->priv.keep = keep;
}

PERFDATA_DEF perfdata_status perfdata_inflate_status(const perfdata_inflate *z, perfdata_error *err) {
    if (!z->priv.failed || z->priv.error.code == PERFDATA_OK) return perfdata__ok(err);
    if (err) *err = z->priv.error;
    return z->priv.error.code;
}

PERFDATA__PRIVATE void perfdata__inflate_allow(perfdata_inflate *z) {
    uint64_t r = z->priv.max_ratio;
    if (!r || z->priv.in_bytes > (~(uint64_t)0 - PERFDATA_INFLATE_SLACK) / r) z->priv.allowance = ~(uint64_t)0;
    else z->priv.allowance = r * z->priv.in_bytes + PERFDATA_INFLATE_SLACK;
}

PERFDATA_DEF void perfdata_inflate_set_max_ratio(perfdata_inflate *z, uint32_t max_ratio) {
    z->priv.max_ratio = max_ratio;
    perfdata__inflate_allow(z);
}

PERFDATA_DEF perfdata_status perfdata_inflate_set_buffer(perfdata_inflate *z, void *buf, size_t cap,
                                                         perfdata_error *err) {
    unsigned char *b = (unsigned char *)buf;
    if (!b || cap < z->priv.carry)
        return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, 0, 0, PERFDATA__MSG("new buffer smaller than the partial record"));
    /* a partial record known now moves along; one the current chunk still
       leaves is copied from the old buffer when the next chunk comes */
    perfdata__move_down(b, z->priv.carry_p, z->priv.carry); /* separate buffers: any copy works */
    z->priv.carry_p = b;
    z->priv.buf = b;
    z->priv.cap = cap;
    z->priv.used = z->priv.carry;
    return perfdata__ok(err);
}

PERFDATA__PRIVATE int perfdata__carry_in_place(const perfdata_inflate *z) {
    return !z->priv.carry || (z->priv.carry <= z->priv.used && z->priv.carry_p == z->priv.buf + (z->priv.used - z->priv.carry));
}

PERFDATA_DEF size_t perfdata_inflate_room_needed(const perfdata_inflate *z) {
    /* a partial record not already at the end of the output (it is in the
       buffer before the last set_buffer) has to be copied in too */
    size_t copy = perfdata__carry_in_place(z) ? 0 : z->priv.carry;
    return z->priv.cap - z->priv.used < copy + z->priv.chunk_max ? z->priv.carry + z->priv.chunk_max : 0;
}

PERFDATA_DEF int perfdata_inflate_expands(const perfdata_inflate *z, const perfdata_record *rec) {
    return perfdata__is_chunk(rec) && !z->priv.failed;
}

/* Decompresses the chunk just read behind the partial record the last one
   left, and points the inner cursor at the whole. */
PERFDATA__PRIVATE perfdata_status perfdata__inflate_chunk(perfdata_inflate *z, perfdata_error *err) {
    size_t start, out_size = 0;
    perfdata_status st;
    if (!z->priv.keep) { /* reuse: the partial record moves to the front */
        perfdata__move_down(z->priv.buf, z->priv.carry_p, z->priv.carry);
        z->priv.used = z->priv.carry;
    } else if (perfdata_inflate_room_needed(z)) {
        st = perfdata__fail(err, PERFDATA_NEED_MEMORY, z->priv.chunk_rec.offset, z->priv.chunk_rec.type,
                            PERFDATA__MSG("no room for the next chunk: perfdata_inflate_set_buffer"));
        if (err) { err->needed = perfdata_inflate_room_needed(z); err->detail = PERFDATA_POOL_BUFFER; }
        return st; /* still pending: retried after set_buffer */
    } else if (!perfdata__carry_in_place(z)) {
        /* keep: the partial record is not at the end of the output (the
           buffer was replaced while its chunk was read): copy it there */
        perfdata__move_down(z->priv.buf + z->priv.used, z->priv.carry_p, z->priv.carry);
        z->priv.used += z->priv.carry;
    }
    z->priv.pending = 0;
    start = z->priv.used - z->priv.carry;
    st = z->priv.decompress(z->priv.decompress_user, z->priv.chunk.p, z->priv.chunk.n, z->priv.buf + z->priv.used, z->priv.cap - z->priv.used, &out_size);
    if (st != PERFDATA_OK || out_size > z->priv.cap - z->priv.used) {
        z->priv.failed = 1;
        z->priv.carry = 0;
        st = perfdata__fail(&z->priv.error, PERFDATA_ERR_MALFORMED, z->priv.chunk_rec.offset, z->priv.chunk_rec.type,
                            st == PERFDATA_ERR_NO_SPACE ? PERFDATA__MSG("a chunk decompresses to more than the buffer holds")
                                                        : PERFDATA__MSG("could not decompress the chunk"));
        if (err) *err = z->priv.error;
        return st;
    }
    z->priv.used += out_size;
    z->priv.carry = 0;
    z->priv.in_bytes += z->priv.chunk_rec.size;
    perfdata__inflate_allow(z);
    perfdata_cursor_init_range(&z->priv.inner, z->priv.buf + start, z->priv.used - start, z->priv.chunk_rec.offset,
                               z->priv.chunk_rec.big_endian);
    z->priv.inner.priv.stream = z->priv.chunk_rec.stream;
    if (z->priv.cursor && !z->priv.source) {
        z->priv.inner.priv.register_attrs = z->priv.cursor->priv.register_attrs;
        z->priv.inner.priv.update_events = z->priv.cursor->priv.update_events;
    }
    z->priv.inner_active = 1;
    return PERFDATA_OK;
}

/* The next record of the current chunk's output; 0 when there is none. */
PERFDATA__PRIVATE int perfdata__inflate_inner(perfdata_file *f, perfdata_inflate *z, perfdata_record *rec,
                                              perfdata_status *st, perfdata_error *err) {
    if (!z->priv.inner_active) return 0;
    *st = perfdata_next_record(f, &z->priv.inner, rec, err);
    if (*st == PERFDATA_OK || z->priv.inner.priv.stopped == PERFDATA_OK) { /* a record, maybe with a body error */
        size_t cost = rec->bytes.n + rec->extra.n;
        z->priv.charged += cost > PERFDATA_INFLATE_RECORD_COST ? cost : PERFDATA_INFLATE_RECORD_COST;
        rec->offset = z->priv.chunk_rec.offset;
        if (z->priv.charged <= z->priv.allowance) return 1;
        z->priv.inner_active = 0;
        z->priv.failed = 1;
        z->priv.carry = 0;
        perfdata__fail(&z->priv.error, PERFDATA_ERR_LIMIT, z->priv.chunk_rec.offset, z->priv.chunk_rec.type,
                       PERFDATA__MSG("the compressed records expand beyond the bound on decompression"));
        return 0;
    }
    z->priv.inner_active = 0;
    if (*st == PERFDATA_ERR_TRUNCATED && z->priv.inner.priv.pos < z->priv.inner.priv.range.n) {
        z->priv.carry = z->priv.inner.priv.range.n - z->priv.inner.priv.pos; /* completed by the next chunk */
        z->priv.carry_p = z->priv.inner.priv.range.p + z->priv.inner.priv.pos;
    } else if (*st != PERFDATA_END) { /* broken framing: the stream cannot go on */
        z->priv.failed = 1;
        z->priv.carry = 0;
        z->priv.error = z->priv.inner.priv.error;
        z->priv.error.offset = z->priv.chunk_rec.offset;
    }
    return 0;
}

PERFDATA_DEF perfdata_status perfdata_inflate_next(perfdata_file *f, perfdata_inflate *z, perfdata_record *rec,
                                                   perfdata_error *err) {
    perfdata_status st;
    perfdata_compressed cz;
    if (!z->priv.pending) { /* else retried after NEED_MEMORY and set_buffer */
        if (perfdata__inflate_inner(f, z, rec, &st, err)) return st;
        if (z->priv.failed && !z->priv.told && z->priv.error.code != PERFDATA_OK) {
            /* the records inside the chunks broke or passed the bound: said
               once, as a status; the chunks that follow come undecoded */
            z->priv.told = 1;
            rec->type = 0;
            if (err) *err = z->priv.error;
            return z->priv.error.code;
        }
        st = z->priv.source ? z->priv.source(z->priv.source_user, f, z->priv.cursor, rec, err)
                            : perfdata_next_record(f, z->priv.cursor, rec, err);
        if (st == PERFDATA_END && z->priv.carry && !z->priv.lost && !z->priv.failed) {
            z->priv.lost = z->priv.carry; /* a record begun in the last chunk and never ended */
            rec->type = 0;
            st = perfdata__fail(err, PERFDATA_ERR_TRUNCATED, z->priv.chunk_rec.offset, z->priv.chunk_rec.type,
                                PERFDATA__MSG("the records inside the compressed chunks end inside a record"));
            if (err) err->needed = z->priv.carry;
            return st;
        }
        if (st != PERFDATA_OK || !perfdata__is_chunk(rec) || z->priv.failed) return st;
        z->priv.chunk_rec = *rec;
        st = perfdata_decode_compressed(f, rec, &cz, &z->priv.error);
        if (st != PERFDATA_OK) {
            z->priv.failed = 1;
            z->priv.told = 1;
            if (err) *err = z->priv.error;
            return st;
        }
        z->priv.chunk = cz.data;
        z->priv.pending = 1;
    }
    st = perfdata__inflate_chunk(z, err);
    if (st == PERFDATA_NEED_MEMORY) return st;
    if (st != PERFDATA_OK) z->priv.told = 1; /* returned with the chunk */
    *rec = z->priv.chunk_rec; /* the chunk itself first, at the next call what is inside */
    if (st == PERFDATA_OK) return perfdata__ok(err);
    return st;
}

PERFDATA_DEF perfdata_status perfdata_inflate_source(void *user, perfdata_file *f, perfdata_cursor *c,
                                                     perfdata_record *rec, perfdata_error *err) {
    perfdata_inflate *z = (perfdata_inflate *)user;
    z->priv.cursor = c; /* follows o->cursor when the caller swaps it */
    return perfdata_inflate_next(f, z, rec, err);
}

/* ---------------------------------------------------------------- reader */

/* BUFFER memory: a header at the start of each block given. */
struct perfdata__block {
    struct perfdata__block *next;
    size_t size;          /* bytes after the header */
    size_t used;
    size_t refs;          /* records in it given to the reorder queue and not yet out */
    size_t given;         /* bytes as given */
};
#define PERFDATA__BLOCK_HDR ((sizeof(struct perfdata__block) + 15u) & ~(size_t)15u)
#define PERFDATA__BLOCK_MIN ((size_t)1 << 20)
#define PERFDATA__BLOCK_DATA(b) ((unsigned char *)(b) + PERFDATA__BLOCK_HDR)

struct perfdata__released { struct perfdata__released *next; size_t bytes; };

PERFDATA__PRIVATE void perfdata__r_release(perfdata_reader *r, void *mem, size_t bytes) {
    struct perfdata__released *n = (struct perfdata__released *)mem;
    if (!mem) return;
    n->next = (struct perfdata__released *)r->priv.released;
    n->bytes = bytes;
    r->priv.released = n;
}

PERFDATA_DEF void perfdata_reader_init(perfdata_reader *r, unsigned flags) {
    unsigned char *p = (unsigned char *)r;
    size_t i;
    for (i = 0; i < sizeof *r; i++) p[i] = 0;
    r->priv.flags = flags;
    r->priv.file.events = 0;
    r->priv.max_ratio = PERFDATA_INFLATE_MAX_RATIO;
    r->priv.on_change = 0;
    r->priv.on_change_user = 0;
    perfdata_cursor_init_range(&r->priv.cur, 0, 0, 0, 0);
#ifdef PERFDATA_ZSTD
    r->priv.decompress = perfdata_zstd_chunk;
#endif
}

PERFDATA_DEF void perfdata_reader_set_input(perfdata_reader *r, const void *data, size_t size) {
    r->priv.input.p = (const unsigned char *)data;
    r->priv.input.n = data ? size : 0;
    r->priv.input.offset = 0;
    r->priv.push = 0;
    r->priv.whole = 1;
}

PERFDATA_DEF void perfdata_reader_set_streams(perfdata_reader *r, const perfdata_view *streams, size_t n) {
    r->priv.streams = streams;
    r->priv.nr_streams = streams ? n : 0;
}

PERFDATA_DEF void perfdata_reader_set_decompressor(perfdata_reader *r, perfdata_decompress_fn fn, void *user) {
    r->priv.decompress = fn;
    r->priv.decompress_user = user;
}

PERFDATA_DEF void perfdata_reader_set_max_ratio(perfdata_reader *r, uint32_t max_ratio) {
    r->priv.max_ratio = max_ratio;
}

PERFDATA_DEF void perfdata_reader_on_change(perfdata_reader *r, void (*fn)(void *user), void *user) {
    r->priv.on_change = fn;
    r->priv.on_change_user = user;
}

PERFDATA_DEF const perfdata_file *perfdata_reader_file(const perfdata_reader *r) { return &r->priv.file; }

PERFDATA_DEF int perfdata_reader_expands(const perfdata_reader *r, const perfdata_record *rec) {
    return r->priv.z_on && perfdata_inflate_expands(&r->priv.z, rec);
}

PERFDATA_DEF uint64_t perfdata_reader_position(const perfdata_reader *r, uint32_t *stream) {
    if (stream) *stream = r->priv.cur.priv.stream;
    if (r->priv.push) return r->priv.consumed + r->priv.piece_pos;
    return perfdata_cursor_offset(&r->priv.cur);
}

PERFDATA_DEF void *perfdata_reader_take_back(perfdata_reader *r, size_t *bytes) {
    struct perfdata__released *n = (struct perfdata__released *)r->priv.released;
    if (!n) { if (bytes) *bytes = 0; return 0; }
    r->priv.released = n->next;
    if (bytes) *bytes = n->bytes;
    return n;
}

PERFDATA__PRIVATE perfdata_status perfdata__r_ask(perfdata_reader *r, perfdata_pool pool, uint64_t bytes,
                                                 perfdata_error *err) {
    perfdata__fail(&r->priv.ask, PERFDATA_NEED_MEMORY, 0, 0, 0);
    r->priv.ask.detail = (int)pool;
    r->priv.ask.needed = bytes < 64 ? 64 : bytes; /* perfdata_reader_give takes no less */
    if (err) *err = r->priv.ask;
    return PERFDATA_NEED_MEMORY;
}

PERFDATA__PRIVATE int perfdata__r_in(const struct perfdata__block *b, const void *p) {
    const unsigned char *q = (const unsigned char *)p, *d = (const unsigned char *)b + PERFDATA__BLOCK_HDR;
    return q >= d && q < d + b->size;
}

PERFDATA__PRIVATE struct perfdata__block *perfdata__r_block_of(perfdata_reader *r, const void *p) {
    struct perfdata__block *b;
    for (b = r->priv.blocks; b; b = b->next)
        if (perfdata__r_in(b, p)) return b;
    return 0;
}

/* Blocks that nothing points into any more go back to the spares. */
PERFDATA__PRIVATE void perfdata__r_sweep(perfdata_reader *r) {
    struct perfdata__block **pp = &r->priv.blocks, *b;
    const perfdata_inflate *z = &r->priv.z;
    while ((b = *pp) != 0) {
        int busy = b->refs || b == r->priv.copy || b == r->priv.pinned || b == r->priv.stage || b == r->priv.z_block ||
                   (r->priv.z_on && ((z->priv.carry && perfdata__r_in(b, z->priv.carry_p)) ||
                                     (z->priv.inner_active && perfdata__r_in(b, z->priv.inner.priv.range.p)))) ||
                   (r->priv.have_back && perfdata__r_in(b, r->priv.back.bytes.p)) ||
                   (r->priv.have_reg && perfdata__r_in(b, r->priv.reg.bytes.p));
        if (busy) { pp = &b->next; continue; }
        *pp = b->next;
        b->used = 0;
        b->next = r->priv.spare;
        r->priv.spare = b;
    }
}

/* A block with room for n bytes (taken from the spares), or NULL after
   asking for one. */
PERFDATA__PRIVATE struct perfdata__block *perfdata__r_block(perfdata_reader *r, size_t n, perfdata_error *err) {
    struct perfdata__block **pp, *b;
    int swept = 0;
    for (;;) {
        for (pp = &r->priv.spare; *pp; pp = &(*pp)->next)
            if ((*pp)->size >= n) {
                b = *pp;
                *pp = b->next;
                b->used = 0;
                b->refs = 0;
                b->next = r->priv.blocks;
                r->priv.blocks = b;
                return b;
            }
        if (swept) break;
        perfdata__r_sweep(r);
        swept = 1;
    }
    perfdata__r_ask(r, PERFDATA_POOL_BUFFER,
                    (uint64_t)(n > PERFDATA__BLOCK_MIN ? n : PERFDATA__BLOCK_MIN) + PERFDATA__BLOCK_HDR, err);
    return 0;
}

/* n bytes in the block *slot (replaced by a fresh one when full). */
PERFDATA__PRIVATE unsigned char *perfdata__r_alloc(perfdata_reader *r, struct perfdata__block **slot, size_t n,
                                                   perfdata_error *err) {
    struct perfdata__block *b = *slot;
    unsigned char *p;
    if (!b || b->size - b->used < n) {
        struct perfdata__block *fresh = perfdata__r_block(r, n, err);
        if (!fresh) return 0;
        *slot = b = fresh; /* the old one is swept when nothing points into it */
    }
    p = PERFDATA__BLOCK_DATA(b) + b->used;
    b->used += n;
    return p;
}

/* n bytes from s to d (apart), 16 at a time: the compiler makes each
   16 one load and one store (no libc here for memcpy). */
PERFDATA__PRIVATE void perfdata__r_copy(unsigned char *d, const unsigned char *s, size_t n) {
    while (n >= 16) {
        unsigned char t[16];
        unsigned k;
        for (k = 0; k < 16; k++) t[k] = s[k];
        for (k = 0; k < 16; k++) d[k] = t[k];
        d += 16; s += 16; n -= 16;
    }
    while (n--) *d++ = *s++;
}

/* A copy of rec (and its payload) in the block *slot; rec is made to
   point at it. */
PERFDATA__PRIVATE perfdata_status perfdata__r_keep(perfdata_reader *r, struct perfdata__block **slot,
                                                  perfdata_record *rec, perfdata_error *err) {
    size_t nb = rec->bytes.n, ne = rec->extra.n;
    unsigned char *p = perfdata__r_alloc(r, slot, nb + ne, err);
    if (!p) return PERFDATA_NEED_MEMORY;
    perfdata__r_copy(p, rec->bytes.p, nb);
    perfdata__r_copy(p + nb, rec->extra.p, ne);
    rec->bytes.p = p;
    rec->body.p = p + 8;
    rec->extra.p = p + rec->bytes.n;
    return PERFDATA_OK;
}

PERFDATA__PRIVATE void perfdata__r_cursor(perfdata_reader *r, const unsigned char *p, size_t n, uint64_t off,
                                          uint32_t stream) {
    perfdata_cursor_init_range(&r->priv.cur, p, n, off, (r->priv.file.flags & PERFDATA_FILE_BIG_ENDIAN) != 0);
    r->priv.cur.priv.stream = stream;
}

PERFDATA_DEF perfdata_status perfdata_reader_push(perfdata_reader *r, const void *data, size_t size,
                                                 perfdata_error *err) {
    r->priv.push = 1;
    if (r->priv.input_ended) return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, 0, 0, PERFDATA__MSG("push after the end of the input"));
    if (r->priv.piece_pos < r->priv.piece_n)
        return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, 0, 0, PERFDATA__MSG("push before the last piece was used"));
    r->priv.consumed += r->priv.piece_n;
    r->priv.piece = (const unsigned char *)data;
    r->priv.piece_n = data ? size : 0;
    r->priv.piece_pos = 0;
    if (!size) r->priv.input_ended = 1;
    else if (r->priv.started) perfdata__r_cursor(r, r->priv.piece, r->priv.piece_n, r->priv.consumed, 0);
    return perfdata__ok(err);
}

/* An error that ends the walk (reader_next stops at it, after the queue). */
PERFDATA__PRIVATE perfdata_status perfdata__r_final(perfdata_reader *r, perfdata_status st, perfdata_error *err) {
    (void)r;
    if (err) err->final = 1;
    return st;
}

PERFDATA_DEF perfdata_status perfdata_reader_start(perfdata_reader *r, perfdata_error *err) {
    perfdata_file *f = &r->priv.file;
    perfdata_status st;
    if (r->priv.started) return perfdata__ok(err);
    if (r->priv.ended) return perfdata__fail(err, PERFDATA_END, 0, 0, 0);
    if (!r->priv.whole) r->priv.push = 1; /* no input given whole: it comes in pieces */
    if (r->priv.push) {
        /* the 16-byte pipe header, from as many pieces as it takes */
        while (r->priv.head_len < 16 && r->priv.piece_pos < r->priv.piece_n)
            r->priv.head[r->priv.head_len++] = r->priv.piece[r->priv.piece_pos++];
        if (r->priv.head_len < 16 && !r->priv.input_ended) return perfdata__fail(err, PERFDATA_NEED_INPUT, 0, 0, 0);
        st = perfdata_open(f, r->priv.head, r->priv.head_len, f->events, f->priv.cap_events, err);
        if (st == PERFDATA_OK && !(f->flags & PERFDATA_FILE_PIPE))
            st = perfdata__fail(err, PERFDATA_ERR_UNSUPPORTED, 0, 0,
                                PERFDATA__MSG("a file-mode perf.data cannot be read as it arrives: give it whole"));
    } else {
        st = perfdata_open(f, r->priv.input.p, r->priv.input.n, f->events, f->priv.cap_events, err);
    }
    if (st == PERFDATA_NEED_MEMORY) return st;
    if (st != PERFDATA_OK) return perfdata__r_final(r, st, err);
    if (r->priv.push) {
        perfdata__r_cursor(r, r->priv.piece + r->priv.piece_pos, r->priv.piece_n - r->priv.piece_pos,
                           r->priv.consumed + r->priv.piece_pos, 0);
        r->priv.consumed += r->priv.piece_pos; /* the piece now starts after the header */
        r->priv.piece += r->priv.piece_pos;
        r->priv.piece_n -= r->priv.piece_pos;
        r->priv.piece_pos = 0;
    } else {
        perfdata_cursor_init(f, &r->priv.cur);
    }
    /* the reader registers attrs and names itself: it keeps what they
       point to when the record is not in the caller's input */
    r->priv.cur.priv.register_attrs = r->priv.cur.priv.update_events = 0;
    if (r->priv.flags & PERFDATA_READ_ORDERED) {
        perfdata_ordered_init(&r->priv.o, 0, 0, 0);
        perfdata_ordered_set_source(&r->priv.o, 0, 0); /* set by next: the step below */
    }
    r->priv.started = 1;
    return perfdata__ok(err);
}

/* push mode: the bytes of a record that spans pieces, gathered in the
   stage. 1: complete; 0: NEED_INPUT, NEED_MEMORY or a final error in *st. */
PERFDATA__PRIVATE int perfdata__r_fill_stage(perfdata_reader *r, perfdata_status *st, perfdata_error *err) {
    for (;;) {
        size_t want, avail = r->priv.piece_n - r->priv.piece_pos, take, i;
        unsigned char *d = PERFDATA__BLOCK_DATA(r->priv.stage);
        int big = (r->priv.file.flags & PERFDATA_FILE_BIG_ENDIAN) != 0;
        if (r->priv.stage_len < 8) want = 8;
        else if (!r->priv.stage_need) {
            size_t size = perfdata__ld16(d + 6, big);
            want = size < 8 ? 8 : size; /* below 8: the cursor says what is wrong */
            if (r->priv.stage_len >= want) {
                uint32_t type = perfdata__ld32(d, big);
                uint64_t extra = 0;
                if (type == PERFDATA_RECORD_HEADER_TRACING_DATA || type == PERFDATA_RECORD_AUXTRACE) {
                    perfdata_record t;
                    t.type = type; t.misc = 0; t.size = (uint16_t)want; t.offset = r->priv.stage_offset;
                    t.big_endian = big; t.stream = 0;
                    t.bytes.p = d; t.bytes.n = want; t.bytes.offset = t.offset;
                    t.body.p = d + 8; t.body.n = want - 8; t.body.offset = t.offset + 8;
                    t.extra.p = d + want; t.extra.n = 0; t.extra.offset = t.offset + want;
                    if (perfdata__extra_size(&t, &extra, 0) != PERFDATA_OK) extra = 0; /* the cursor reports it */
                }
                if (extra > (uint64_t)((size_t)-1 - want - PERFDATA__BLOCK_HDR)) {
                    *st = perfdata__fail(err, PERFDATA_ERR_LIMIT, r->priv.stage_offset, type,
                                         PERFDATA__MSG("a record's payload is larger than memory can hold"));
                    *st = perfdata__r_final(r, *st, err);
                    return 0;
                }
                r->priv.stage_need = want + (size_t)extra;
            }
        } else {
            want = r->priv.stage_need;
        }
        if (r->priv.stage_need && r->priv.stage_len >= r->priv.stage_need) return 1;
        if (want > r->priv.stage->size) { /* a larger stage, the bytes so far moved over */
            struct perfdata__block *old = r->priv.stage, *b = perfdata__r_block(r, want, err);
            if (!b) { *st = PERFDATA_NEED_MEMORY; return 0; }
            for (i = 0; i < r->priv.stage_len; i++) PERFDATA__BLOCK_DATA(b)[i] = PERFDATA__BLOCK_DATA(old)[i];
            r->priv.stage = b;
            d = PERFDATA__BLOCK_DATA(b);
        }
        if (!avail) {
            if (r->priv.input_ended) { /* cut inside a record: said as for the same bytes given whole */
                perfdata_record t;
                perfdata__r_cursor(r, d, r->priv.stage_len, r->priv.stage_offset, 0);
                *st = perfdata_next_record(&r->priv.file, &r->priv.cur, &t, err);
                if (*st == PERFDATA_OK || *st == PERFDATA_END) /* cannot be: the bytes are short */
                    *st = perfdata__fail(err, PERFDATA_ERR_TRUNCATED, r->priv.stage_offset, 0,
                                         PERFDATA__MSG("the stream ends inside a record"));
                *st = perfdata__r_final(r, *st, err);
            } else {
                *st = perfdata__fail(err, PERFDATA_NEED_INPUT, 0, 0, 0);
            }
            return 0;
        }
        take = want - r->priv.stage_len < avail ? want - r->priv.stage_len : avail;
        for (i = 0; i < take; i++) d[r->priv.stage_len + i] = r->priv.piece[r->priv.piece_pos + i];
        r->priv.stage_len += take;
        r->priv.piece_pos += take;
    }
}

/* The records of the input as they are: the data section and then each
   stream, or the pushed pieces. END at the end of each range. */
PERFDATA__PRIVATE perfdata_status perfdata__r_raw(void *user, perfdata_file *f, perfdata_cursor *unused,
                                                 perfdata_record *rec, perfdata_error *err) {
    perfdata_reader *r = (perfdata_reader *)user;
    perfdata_status st;
    (void)unused;
    if (r->priv.have_back) {
        *rec = r->priv.back;
        r->priv.have_back = 0;
        return perfdata__ok(err);
    }
    if (!r->priv.push) return perfdata_next_record(f, &r->priv.cur, rec, err);
    for (;;) {
        size_t pos0;
        if (r->priv.stage_ready) { /* the record put together last time is used up */
            r->priv.stage_ready = 0;
            r->priv.stage_len = r->priv.stage_need = 0;
        }
        if (r->priv.stage_len) {
            if (!perfdata__r_fill_stage(r, &st, err)) return st;
            perfdata__r_cursor(r, PERFDATA__BLOCK_DATA(r->priv.stage), r->priv.stage_need, r->priv.stage_offset, 0);
            st = perfdata_next_record(f, &r->priv.cur, rec, err);
            r->priv.stage_ready = 1;
            perfdata__r_cursor(r, r->priv.piece + r->priv.piece_pos, r->priv.piece_n - r->priv.piece_pos,
                               r->priv.consumed + r->priv.piece_pos, 0);
            return st;
        }
        if (r->priv.piece_pos >= r->priv.piece_n) {
            if (r->priv.input_ended) return perfdata__fail(err, PERFDATA_END, r->priv.consumed, 0, 0);
            return perfdata__fail(err, PERFDATA_NEED_INPUT, 0, 0, 0);
        }
        pos0 = r->priv.cur.priv.pos;
        st = perfdata_next_record(f, &r->priv.cur, rec, err);
        r->priv.piece_pos = (size_t)(r->priv.cur.priv.range.p - r->priv.piece) + r->priv.cur.priv.pos;
        if (st == PERFDATA_OK || (st != PERFDATA_ERR_TRUNCATED && st != PERFDATA_END)) return st;
        /* the rest of the piece is the start of a record: to the stage */
        r->priv.piece_pos = (size_t)(r->priv.cur.priv.range.p - r->priv.piece) + pos0;
        r->priv.stage_offset = r->priv.consumed + r->priv.piece_pos;
        /* the cursor stopped there (and may have moved past the record's
           header): a fresh one at the record, should this be retried */
        perfdata__r_cursor(r, r->priv.piece + r->priv.piece_pos, r->priv.piece_n - r->priv.piece_pos,
                           r->priv.consumed + r->priv.piece_pos, 0);
        if (r->priv.piece_pos >= r->priv.piece_n) continue;
        if (!r->priv.stage) {
            r->priv.stage = perfdata__r_block(r, 65536, err);
            if (!r->priv.stage) return PERFDATA_NEED_MEMORY;
        }
        r->priv.stage_len = 0;
        {   /* at least one byte moves, so that the stage is known to be in use */
            unsigned char *d = PERFDATA__BLOCK_DATA(r->priv.stage);
            d[r->priv.stage_len++] = r->priv.piece[r->priv.piece_pos++];
        }
    }
}

/* Sets up decompression at the first chunk (and again at each stream's
   first): the decoder's memory and the output buffer. */
PERFDATA__PRIVATE perfdata_status perfdata__r_inflate_setup(perfdata_reader *r, const perfdata_record *chunk,
                                                           perfdata_error *err) {
    perfdata_file *f = &r->priv.file;
    perfdata_compressed cz;
    perfdata_view sec;
    perfdata_feat_compressed feat;
    uint64_t cap;
    int keep = (r->priv.flags & PERFDATA_READ_ORDERED) != 0;
    unsigned char *buf;
    if (perfdata_decode_compressed(f, chunk, &cz, err) != PERFDATA_OK) return PERFDATA_ERR_MALFORMED;
    if (!r->priv.sizes.compressed) {
        r->priv.sizes.compressed = 1;
        r->priv.sizes.mmap_len = r->priv.mmap_len;
        if (!(f->flags & PERFDATA_FILE_PIPE) && perfdata_has_feature(f, PERFDATA_FEAT_COMPRESSED) &&
            perfdata_feature_section(f, PERFDATA_FEAT_COMPRESSED, &sec, 0) == PERFDATA_OK &&
            perfdata_decode_feat_compressed(sec, (f->flags & PERFDATA_FILE_BIG_ENDIAN) != 0, &feat, 0) == PERFDATA_OK)
            r->priv.sizes.mmap_len = feat.mmap_len;
        /* one chunk's output: perf's mmap size (512 KiB by default), taken
           to be at most 64 MiB whatever the file says */
        cap = r->priv.sizes.mmap_len ? r->priv.sizes.mmap_len : 512u * 1024u;
        if (cap > ((uint64_t)64 << 20)) cap = (uint64_t)64 << 20;
        r->priv.sizes.buffer = cap + 65535u;
    }
    r->priv.sizes.first_chunk = cz.data;
#ifdef PERFDATA_ZSTD
    if (r->priv.decompress == perfdata_zstd_chunk) {
        size_t win = 0, need;
        if (perfdata_zstd_window_buffer_size(cz.data.p, cz.data.n, &win, 0) != PERFDATA_OK || !win)
            return perfdata__fail(err, PERFDATA_ERR_MALFORMED, chunk->offset, chunk->type,
                                  PERFDATA__MSG("the first chunk is not a zstd frame"));
        need = sizeof(perfdata_zstd_dctx) + 16 + win;
        if (need < win) return perfdata__fail(err, PERFDATA_ERR_LIMIT, chunk->offset, chunk->type, 0);
        if (!r->priv.zstd || r->priv.zstd_bytes < need) {
            if (r->priv.zstd) { perfdata__r_release(r, r->priv.zstd, r->priv.zstd_bytes); r->priv.zstd = 0; }
            return perfdata__r_ask(r, PERFDATA_POOL_ZSTD, need, err);
        }
        {
            unsigned char *base = (unsigned char *)r->priv.zstd;
            size_t at = (sizeof(perfdata_zstd_dctx) + 15u) & ~(size_t)15u;
            r->priv.decompress_user = base;
            perfdata_zstd_dctx_init((perfdata_zstd_dctx *)(void *)base, base + at, r->priv.zstd_bytes - at, 0);
        }
    }
#endif
    if (!r->priv.decompress) return perfdata__fail(err, PERFDATA_ERR_UNSUPPORTED, chunk->offset, chunk->type,
                                                   PERFDATA__MSG("no decompressor for the compressed chunks"));
    /* twice one chunk's output, and room for more chunks when kept */
    cap = r->priv.sizes.buffer * 2 + (keep ? (uint64_t)16 << 20 : 0);
    if (!r->priv.z_block || r->priv.z_block->size < cap) {
        struct perfdata__block *b = perfdata__r_block(r, (size_t)cap, err);
        if (!b) return PERFDATA_NEED_MEMORY;
        r->priv.z_block = b;
    }
    buf = PERFDATA__BLOCK_DATA(r->priv.z_block) + r->priv.z_block->used;
    perfdata_inflate_init(&r->priv.z, 0, &r->priv.sizes, buf, r->priv.z_block->size - r->priv.z_block->used,
                          r->priv.decompress, r->priv.decompress_user);
    perfdata_inflate_set_source(&r->priv.z, perfdata__r_raw, r);
    perfdata_inflate_keep(&r->priv.z, keep);
    perfdata_inflate_set_max_ratio(&r->priv.z, r->priv.max_ratio);
    if (!keep) r->priv.z_block->used = 0;
    r->priv.z_on = 1;
    r->priv.z_restart = 0;
    return perfdata__ok(err);
}

/* keep mode: a fresh output buffer before the next chunk when the current
   one is full. */
PERFDATA__PRIVATE perfdata_status perfdata__r_inflate_room(perfdata_reader *r, perfdata_error *err) {
    size_t need = perfdata_inflate_room_needed(&r->priv.z);
    struct perfdata__block *b;
    if (!need) return PERFDATA_OK;
    if (r->priv.z_block) r->priv.z_block->used = r->priv.z_block->size; /* swept once no record points into it */
    r->priv.z_block = 0;
    b = perfdata__r_block(r, need > ((size_t)16 << 20) ? need : ((size_t)16 << 20), err);
    if (!b) return PERFDATA_NEED_MEMORY;
    r->priv.z_block = b;
    b->used = b->size;
    return perfdata_inflate_set_buffer(&r->priv.z, PERFDATA__BLOCK_DATA(b), b->size, err);
}

/* Records that change the file's events: HEADER_ATTR (pipe mode),
   EVENT_UPDATE, a pipe's HEADER_FEATURE (EVENT_DESC; COMPRESSED sizes).
   What they point to is kept in reader memory when it is not the
   caller's input. */
PERFDATA__PRIVATE perfdata_status perfdata__r_register(perfdata_reader *r, perfdata_record *rec, perfdata_error *err) {
    perfdata_file *f = &r->priv.file;
    perfdata_status st;
    int pipe = (f->flags & PERFDATA_FILE_PIPE) != 0;
    const unsigned char *p = rec->bytes.p;
    int inside = !r->priv.push && p >= r->priv.input.p && p < r->priv.input.p + r->priv.input.n;
    if (rec->type == PERFDATA_RECORD_HEADER_FEATURE && pipe) {
        perfdata_header_feature hf;
        perfdata_feat_compressed feat;
        if (perfdata_decode_header_feature(f, rec, &hf, 0) == PERFDATA_OK && hf.feat_id == PERFDATA_FEAT_COMPRESSED &&
            perfdata_decode_feat_compressed(hf.data, rec->big_endian, &feat, 0) == PERFDATA_OK && !r->priv.mmap_len)
            r->priv.mmap_len = feat.mmap_len;
        if (!(perfdata_decode_header_feature(f, rec, &hf, 0) == PERFDATA_OK && hf.feat_id == PERFDATA_FEAT_EVENT_DESC))
            return PERFDATA_OK;
    } else if (!(rec->type == PERFDATA_RECORD_EVENT_UPDATE || (rec->type == PERFDATA_RECORD_HEADER_ATTR && pipe))) {
        return PERFDATA_OK;
    }
    if (!inside) {
        perfdata_record copy = *rec;
        size_t i;
        for (i = 0; r->priv.streams && i < r->priv.nr_streams; i++)
            if (p >= r->priv.streams[i].p && p < r->priv.streams[i].p + r->priv.streams[i].n) break;
        if (!r->priv.streams || i == r->priv.nr_streams) {
            st = perfdata__r_keep(r, &r->priv.pinned, &copy, err);
            if (st != PERFDATA_OK) return st;
            *rec = copy;
        }
    }
    if (r->priv.on_change) r->priv.on_change(r->priv.on_change_user);
    if (rec->type == PERFDATA_RECORD_HEADER_ATTR) {
        st = perfdata_add_event(f, rec, err);
        if (st != PERFDATA_OK) return st;
    }
    perfdata__update_names(f, rec);
    return PERFDATA_OK;
}

/* One record, decompressed, registered: the reorder queue's source. */
PERFDATA__PRIVATE perfdata_status perfdata__r_step(void *user, perfdata_file *f, perfdata_cursor *unused,
                                                  perfdata_record *rec, perfdata_error *err) {
    perfdata_reader *r = (perfdata_reader *)user;
    perfdata_status st;
    struct perfdata__block *b;
    (void)unused;
    for (;;) {
        if (r->priv.have_reg) {
            *rec = r->priv.reg;
            st = perfdata__r_register(r, rec, err);
            if (st == PERFDATA_NEED_MEMORY) return st;
            r->priv.have_reg = 0;
            if (st != PERFDATA_OK) return st; /* a bad attr: still a record */
            return perfdata__ok(err);
        }
        /* the id index grows with the events (pipe mode), unless refused */
        if (f->nr_events != r->priv.ids_events && !r->priv.ids_refused) {
            size_t need = perfdata_id_index_needed(f);
            if (need > f->priv.cap_ids && need < ((size_t)-1) / 2 / sizeof(perfdata_id_entry))
                return perfdata__r_ask(r, PERFDATA_POOL_IDS, (uint64_t)need * 2 * sizeof(perfdata_id_entry), err);
            r->priv.ids_events = f->nr_events;
        }
        if (r->priv.z_on) {
            if (r->priv.z.priv.keep && (st = perfdata__r_inflate_room(r, err)) != PERFDATA_OK) return st;
            st = perfdata_inflate_next(f, &r->priv.z, rec, err);
        } else {
            st = perfdata__r_raw(r, f, 0, rec, err);
        }
        if (st == PERFDATA_END && !r->priv.push && r->priv.next_stream < r->priv.nr_streams) {
            /* the next data.N: its own compressed stream */
            const perfdata_view *v = &r->priv.streams[r->priv.next_stream++];
            perfdata__r_cursor(r, v->p, v->n, 0, (uint32_t)r->priv.next_stream);
            if (r->priv.z_on) {
                r->priv.z_on = 0;
                r->priv.z_restart = 1;
                if (r->priv.z.priv.keep && r->priv.z_block) { /* queued records may point into it */
                    r->priv.z_block->used = r->priv.z_block->size;
                    r->priv.z_block = 0;
                }
            }
            continue;
        }
        if (st == PERFDATA_OK && !r->priv.z_on && !r->priv.z_off && !(r->priv.flags & PERFDATA_READ_RAW_CHUNKS) &&
            (rec->type == PERFDATA_RECORD_COMPRESSED || rec->type == PERFDATA_RECORD_COMPRESSED2)) {
            st = perfdata__r_inflate_setup(r, rec, err);
            r->priv.back = *rec;
            if (st == PERFDATA_NEED_MEMORY) { r->priv.have_back = 1; return st; }
            if (st != PERFDATA_OK) { /* the chunks come undecoded */
                r->priv.z_off = 1;
                if (err) err->final = 0;
                return st;
            }
            r->priv.have_back = 1;
            continue; /* read again, through perfdata_inflate */
        }
        if (st != PERFDATA_OK) return st;
        if (rec->type >= PERFDATA_RECORD_HEADER_ATTR) {
            st = perfdata__r_register(r, rec, err);
            if (st == PERFDATA_NEED_MEMORY) { r->priv.reg = *rec; r->priv.have_reg = 1; return st; }
            if (st != PERFDATA_OK) return st;
        }
        if (r->priv.flags & PERFDATA_READ_ORDERED) {
            /* what the queue holds must stay: pushed records are copied,
               decompressed ones counted in their block (records of perf's
               own types, never queued, are not copied) */
            if (r->priv.push && rec->type < PERFDATA_RECORD_HEADER_ATTR &&
                (!(b = perfdata__r_block_of(r, rec->bytes.p)) || b == r->priv.stage)) {
                perfdata_record copy = *rec;
                st = perfdata__r_keep(r, &r->priv.copy, &copy, err);
                if (st != PERFDATA_OK) { /* read again from the input after the caller gives memory */
                    r->priv.back = *rec;
                    r->priv.have_back = 1;
                    return st;
                }
                *rec = copy;
            }
            if ((b = perfdata__r_block_of(r, rec->bytes.p)) != 0) b->refs++;
        }
        return perfdata__ok(err);
    }
}

PERFDATA_DEF perfdata_status perfdata_reader_give(perfdata_reader *r, perfdata_pool pool, void *mem, size_t bytes,
                                                 perfdata_error *err) {
    perfdata_file *f = &r->priv.file;
    size_t i, cap;
    if (!mem) {
        r->priv.refused = (int)pool;
        return perfdata__ok(err);
    }
    if (bytes < 64) return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, 0, 0, PERFDATA__MSG("less than 64 bytes given"));
    switch (pool) {
    case PERFDATA_POOL_EVENTS: {
        perfdata_event *e = (perfdata_event *)mem;
        cap = bytes / sizeof *e;
        if (cap < f->nr_events) return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, 0, 0, PERFDATA__MSG("fewer events than there are"));
        {   /* a byte copy through a volatile pointer: clang makes a loop of
               struct copies a call to memcpy, which a freestanding build has not */
            volatile unsigned char *to = (volatile unsigned char *)e;
            const unsigned char *from = (const unsigned char *)f->events;
            size_t n = f->nr_events * sizeof *e;
            for (i = 0; i < n; i++) to[i] = from[i];
        }
        perfdata__r_release(r, f->events, r->priv.given[PERFDATA_POOL_EVENTS]);
        r->priv.given[PERFDATA_POOL_EVENTS] = bytes;
        f->events = e;
        f->priv.cap_events = cap;
        break;
    }
    case PERFDATA_POOL_IDS: {
        void *old = r->priv.ids;
        size_t old_bytes = r->priv.given[PERFDATA_POOL_IDS];
        perfdata_status st = perfdata_set_id_index(f, (perfdata_id_entry *)mem, bytes / sizeof(perfdata_id_entry), err);
        if (st != PERFDATA_OK) return st;
        perfdata__r_release(r, old, old_bytes);
        r->priv.ids = mem;
        r->priv.given[PERFDATA_POOL_IDS] = bytes;
        r->priv.ids_events = f->nr_events;
        break;
    }
    case PERFDATA_POOL_QUEUE: {
        void *old = r->priv.o.priv.queue;
        size_t old_bytes = r->priv.given[PERFDATA_POOL_QUEUE];
        perfdata_status st = perfdata_ordered_grow(&r->priv.o, (perfdata_order_entry *)mem, bytes / sizeof(perfdata_order_entry), err);
        if (st != PERFDATA_OK) return st;
        perfdata__r_release(r, old, old_bytes);
        r->priv.given[PERFDATA_POOL_QUEUE] = bytes;
        break;
    }
    case PERFDATA_POOL_BUFFER: {
        struct perfdata__block *b = (struct perfdata__block *)mem;
        if (bytes <= PERFDATA__BLOCK_HDR) return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, 0, 0, 0);
        b->size = bytes - PERFDATA__BLOCK_HDR;
        b->given = bytes;
        b->used = b->refs = 0;
        b->next = r->priv.spare;
        r->priv.spare = b;
        break;
    }
    case PERFDATA_POOL_ZSTD:
        if (r->priv.zstd) perfdata__r_release(r, r->priv.zstd, r->priv.zstd_bytes);
        r->priv.zstd = mem;
        r->priv.zstd_bytes = bytes;
        break;
    default:
        return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, 0, 0, PERFDATA__MSG("no such pool"));
    }
    r->priv.refused = 0;
    if (pool == PERFDATA_POOL_QUEUE || pool == PERFDATA_POOL_BUFFER) r->priv.refusals = 0;
    return perfdata__ok(err);
}

PERFDATA_DEF void perfdata_reader_close(perfdata_reader *r) {
    perfdata_file *f = &r->priv.file;
    struct perfdata__block *lists[2], *b, *next;
    int i;
    perfdata__r_release(r, f->events, r->priv.given[PERFDATA_POOL_EVENTS]);
    f->events = 0;
    f->nr_events = f->priv.cap_events = 0;
    perfdata__r_release(r, r->priv.ids, r->priv.given[PERFDATA_POOL_IDS]);
    r->priv.ids = 0;
    f->priv.id_index = 0;
    f->priv.cap_ids = f->priv.nr_ids = 0;
    perfdata__r_release(r, r->priv.o.priv.queue, r->priv.given[PERFDATA_POOL_QUEUE]);
    r->priv.o.priv.queue = 0;
    r->priv.o.priv.cap = r->priv.o.priv.nr = 0;
    perfdata__r_release(r, r->priv.zstd, r->priv.zstd_bytes);
    r->priv.zstd = 0;
    lists[0] = r->priv.blocks;
    lists[1] = r->priv.spare;
    for (i = 0; i < 2; i++)
        for (b = lists[i]; b; b = next) {
            next = b->next;
            perfdata__r_release(r, b, b->given);
        }
    r->priv.blocks = r->priv.spare = r->priv.copy = r->priv.pinned = r->priv.stage = r->priv.z_block = 0;
    r->priv.given[PERFDATA_POOL_EVENTS] = r->priv.given[PERFDATA_POOL_IDS] = r->priv.given[PERFDATA_POOL_QUEUE] = 0;
    r->priv.z_on = 0;
    r->priv.ended = 1;
}

/* A refused pool: go on without it (see perfdata_reader_next). */
PERFDATA__PRIVATE perfdata_status perfdata__r_refused(perfdata_reader *r, perfdata_error *err) {
    int pool = r->priv.refused, ordered = (r->priv.flags & PERFDATA_READ_ORDERED) != 0;
    r->priv.refused = 0;
    if (pool == PERFDATA_POOL_IDS) { r->priv.ids_refused = 1; return PERFDATA_OK; }
    if (pool == PERFDATA_POOL_ZSTD) {
        r->priv.z_off = 1;
        if (r->priv.have_back) { /* the chunk that asked: given as it is */
            r->priv.have_back = 0;
            perfdata__fail(err, PERFDATA_ERR_LIMIT, r->priv.back.offset, r->priv.back.type,
                           PERFDATA__MSG("no memory for the zstd decoder: the compressed records are skipped"));
            return PERFDATA_ERR_LIMIT;
        }
        return PERFDATA_OK;
    }
    if (ordered && (pool == PERFDATA_POOL_QUEUE || pool == PERFDATA_POOL_BUFFER) && perfdata_ordered_queued(&r->priv.o)) {
        perfdata_ordered_flush(&r->priv.o, r->priv.refusals++ ? PERFDATA_FLUSH_ALL : PERFDATA_FLUSH_HALF);
        return PERFDATA_OK;
    }
    perfdata__fail(err, PERFDATA_ERR_LIMIT, r->priv.stage_len ? r->priv.stage_offset : perfdata_reader_position(r, 0),
                   0, PERFDATA__MSG("out of memory: the caller gave no more"));
    if (err) err->detail = pool;
    return perfdata__r_final(r, PERFDATA_ERR_LIMIT, err);
}

/* perfdata_reader_next through every step. */
PERFDATA__COLD perfdata_status perfdata__r_next(perfdata_reader *r, perfdata_record *rec, perfdata_error *err) {
    perfdata_status st;
    struct perfdata__block *b;
    rec->type = 0;
    rec->bytes.p = 0;
    rec->bytes.n = 0;
    rec->stream = 0;
    perfdata__ok(err);
    if (r->priv.ended) return perfdata__fail(err, PERFDATA_END, 0, 0, 0);
    if (r->priv.refused) {
        int zstd = r->priv.refused == PERFDATA_POOL_ZSTD && r->priv.have_back;
        perfdata_record chunk = r->priv.back;
        st = perfdata__r_refused(r, err);
        if (zstd) *rec = chunk;
        if (st != PERFDATA_OK) return st;
    }
    if (!r->priv.started) {
        st = perfdata_reader_start(r, err);
        if (st != PERFDATA_OK) return st;
    }
    if (!(r->priv.flags & PERFDATA_READ_ORDERED)) {
        st = perfdata__r_step(r, &r->priv.file, 0, rec, err);
    } else {
        perfdata_ordered_set_source(&r->priv.o, perfdata__r_step, r);
        st = perfdata_ordered_next(&r->priv.file, &r->priv.o, rec, err);
        if (st == PERFDATA_OK && r->priv.blocks && (b = perfdata__r_block_of(r, rec->bytes.p)) != 0 && b->refs) b->refs--;
    }
    if (st != PERFDATA_OK && st != PERFDATA_NEED_INPUT && st != PERFDATA_NEED_MEMORY && st != PERFDATA_END && err &&
        err->final)
        r->priv.ended = 1;
    if (st == PERFDATA_END) r->priv.ended = 1;
    return st;
}

PERFDATA_DEF perfdata_status perfdata_reader_next(perfdata_reader *r, perfdata_record *rec, perfdata_error *err) {
    perfdata_status st;
    if (r->priv.started && !r->priv.push && !r->priv.z_on && !r->priv.have_back && !r->priv.have_reg &&
        !r->priv.refused && !r->priv.ended && !(r->priv.flags & PERFDATA_READ_ORDERED) &&
        r->priv.file.nr_events == r->priv.ids_events) {
        /* a whole buffer read as it is stored: a record from the cursor is
           the reader's record, unless it is one the steps act on (chunks,
           perf's own records); those, and the cursor's end or errors
           (which it says again when asked again), go through every step */
        st = perfdata_next_record(&r->priv.file, &r->priv.cur, rec, err);
        if (st != PERFDATA_OK) return perfdata__r_next(r, rec, err);
        if (rec->type < PERFDATA_RECORD_HEADER_ATTR && rec->type != PERFDATA_RECORD_COMPRESSED &&
            rec->type != PERFDATA_RECORD_COMPRESSED2)
            return st;
        r->priv.back = *rec;
        r->priv.have_back = 1;
    }
    return perfdata__r_next(r, rec, err);
}

/* ---------------------------------------------------------------- writer */
/* Each record is encoded twice by the same code: once counting its bytes,
   once writing them, so that its size is in its header and a record that
   cannot be written is refused before its first byte. */

#ifdef PERFDATA_WRITER_PIPE_ONLY
#define PERFDATA__W_PIPE(w) 1
#else
#define PERFDATA__W_PIPE(w) (((w)->priv.flags & PERFDATA_WRITE_PIPE) != 0)
#endif

typedef struct perfdata__em {
    perfdata_writer *w;          /* the output, or NULL: */
    unsigned char *out;          /* ... this memory (feature encoders), or NULL: only count */
    uint64_t n;                  /* bytes so far */
    int big;
    int bad;                     /* counting found a count its view does not hold */
} perfdata__em;

PERFDATA__PRIVATE perfdata__em perfdata__em_into(perfdata_writer *w, unsigned char *out, int big) {
    perfdata__em e;
    e.w = w; e.out = out; e.n = 0; e.big = big; e.bad = 0;
    return e;
}
PERFDATA__PRIVATE perfdata__em perfdata__em_count(int big) { return perfdata__em_into(0, 0, big); }

PERFDATA__PRIVATE void perfdata__w_sink(perfdata_writer *w, uint64_t at, const void *p, size_t n) {
    perfdata_status st;
    if (w->priv.failed != PERFDATA_OK || !n) return;
    st = w->priv.sink(w->priv.user, at, p, n);
    if (st != PERFDATA_OK) w->priv.failed = st;
}

PERFDATA__PRIVATE void perfdata__w_flush(perfdata_writer *w) {
    if (!w->priv.staged) return;
    perfdata__w_sink(w, w->priv.pos - w->priv.staged, w->priv.stage, w->priv.staged);
    w->priv.staged = 0;
}

/* n bytes of p (p NULL: zeros) to the output. */
PERFDATA__PRIVATE void perfdata__em_bytes(perfdata__em *e, const void *p, size_t n) {
    const unsigned char *q = (const unsigned char *)p;
    size_t i, left = n;
    unsigned char *to = e->out ? e->out + e->n : e->w && e->w->priv.buf ? e->w->priv.buf + (size_t)e->w->priv.pos : 0;
    if (to) { /* memory: the encoders' or a buffer writer's */
        for (i = 0; i < n; i++) to[i] = q ? q[i] : 0;
        if (!e->out) e->w->priv.pos += n;
    } else if (e->w) {
        perfdata_writer *w = e->w;
        while (left) {
            size_t k = sizeof w->priv.stage - w->priv.staged;
            if (k > left) k = left;
            if (!w->priv.staged && q && left >= sizeof w->priv.stage) {
                k = left; /* a long run: straight from the caller's bytes */
                w->priv.pos += k;
                perfdata__w_sink(w, w->priv.pos - k, q, k);
            } else {
                for (i = 0; i < k; i++) w->priv.stage[w->priv.staged + i] = q ? q[i] : 0;
                w->priv.staged += k;
                w->priv.pos += k;
                if (w->priv.staged == sizeof w->priv.stage) perfdata__w_flush(w);
            }
            if (q) q += k;
            left -= k;
        }
    }
    e->n += n;
}

/* An integer of `size` bytes (1, 2, 4 or 8) in the output's order, from
   its two 32-bit halves: one out-of-line function, no 64-bit shift (small
   cores call a helper for each). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
PERFDATA__PRIVATE void perfdata__em_uint(perfdata__em *e, uint32_t lo, uint32_t hi, unsigned size) {
    unsigned char b[8];
    unsigned i;
    for (i = 0; i < size; i++) {
        uint32_t word = i < 4 ? lo : hi;
        b[e->big ? size - 1 - i : i] = (unsigned char)(word >> (8 * (i & 3)));
    }
    perfdata__em_bytes(e, b, size);
}
PERFDATA__PRIVATE void perfdata__em_u8(perfdata__em *e, unsigned v) { perfdata__em_uint(e, v, 0, 1); }
PERFDATA__PRIVATE void perfdata__em_u16(perfdata__em *e, uint16_t v) { perfdata__em_uint(e, v, 0, 2); }
PERFDATA__PRIVATE void perfdata__em_u32(perfdata__em *e, uint32_t v) { perfdata__em_uint(e, v, 0, 4); }
PERFDATA__PRIVATE void perfdata__em_u64(perfdata__em *e, uint64_t v) {
    perfdata__em_uint(e, (uint32_t)v, (uint32_t)(v >> 32), 8);
}
/* count values of an array in its own byte order, in the output's; more
   than the array holds is bad (found when counting, before any write) */
/* count u64s of a view stored in byte order `big` */
PERFDATA__PRIVATE void perfdata__em_u64_view(perfdata__em *e, perfdata_view v, size_t count, int big) {
    size_t i;
    if (count > v.n / 8) { e->bad = 1; count = v.n / 8; }
    if (!e->w && !e->out) { e->n += 8 * (uint64_t)count; return; }
    for (i = 0; i < count; i++) perfdata__em_u64(e, perfdata__ld64(v.p + 8 * i, big));
}
PERFDATA__PRIVATE void perfdata__em_u64s(perfdata__em *e, const perfdata_u64s *a, size_t count) {
    if (count > a->count) e->bad = 1;
    perfdata__em_u64_view(e, a->bytes, count, a->big_endian);
}
/* a string and its NUL, zero-padded to a multiple of `align` */
PERFDATA__PRIVATE void perfdata__em_string(perfdata__em *e, const unsigned char *s, size_t len, size_t align) {
    size_t total = (len + 1 + align - 1) / align * align;
    perfdata__em_bytes(e, s, len);
    perfdata__em_bytes(e, 0, total - len);
}
PERFDATA__PRIVATE size_t perfdata__strlen(const char *s) {
    size_t n = 0;
    if (s) while (s[n]) n++;
    return n;
}

/* The attr flags as a writer of that byte order lays them out (the
   inverse of perfdata__attr_flags). */
PERFDATA__PRIVATE void perfdata__em_attr_flags(perfdata__em *e, uint64_t v) {
    unsigned char b[8];
    unsigned i;
    if (e->big) {
        uint64_t lo = (v >> 15) & 1u, hi = (v >> 16) & 1u;
        v &= ~(3ull << 15);
        v |= (lo << 16) | (hi << 15);
    }
    for (i = 0; i < 8; i++) {
        unsigned char x = (unsigned char)(v >> (8 * i));
        b[i] = e->big ? perfdata__bitrev8(x) : x;
    }
    perfdata__em_bytes(e, b, 8);
}

PERFDATA__PRIVATE uint32_t perfdata__w_attr_size(const perfdata_attr *a) {
    return a->size ? a->size : PERFDATA_ATTR_SIZE_VER7;
}

/* The attr's fields after its size, in their order: the struct member and
   its bytes (the flags, at 0, are written apart); each version's size ends
   on a field. */
typedef struct perfdata__afield { unsigned short at; unsigned char size; } perfdata__afield;
#define PERFDATA__AF(field, size) {(unsigned short)offsetof(perfdata_attr, field), size}
static const perfdata__afield perfdata__afields[] = {
    PERFDATA__AF(config, 8), PERFDATA__AF(sample_period, 8), PERFDATA__AF(sample_type, 8),
    PERFDATA__AF(read_format, 8), {0, 8}, PERFDATA__AF(wakeup_events, 4), PERFDATA__AF(bp_type, 4),
    PERFDATA__AF(config1, 8), PERFDATA__AF(config2, 8), PERFDATA__AF(branch_sample_type, 8),
    PERFDATA__AF(sample_regs_user, 8), PERFDATA__AF(sample_stack_user, 4), PERFDATA__AF(clockid, 4),
    PERFDATA__AF(sample_regs_intr, 8), PERFDATA__AF(aux_watermark, 4), PERFDATA__AF(sample_max_stack, 2),
    PERFDATA__AF(reserved_2, 2), PERFDATA__AF(aux_sample_size, 4), PERFDATA__AF(aux_action, 4),
    PERFDATA__AF(sig_data, 8), PERFDATA__AF(config3, 8), PERFDATA__AF(config4, 8)};
#undef PERFDATA__AF

/* An attr of `size` bytes (a known version's size). */
PERFDATA__PRIVATE void perfdata__em_attr(perfdata__em *e, const perfdata_attr *a, uint32_t size) {
    const unsigned char *base = (const unsigned char *)a;
    uint32_t at = 8;
    size_t i;
    perfdata__em_u32(e, a->type);
    perfdata__em_u32(e, size);
    for (i = 0; i < sizeof perfdata__afields / sizeof perfdata__afields[0] && at < size; i++) {
        const perfdata__afield *f = &perfdata__afields[i];
        const void *p = base + f->at;
        at += f->size;
        if (!f->at) perfdata__em_attr_flags(e, a->flags);
        else if (f->size == 8) perfdata__em_u64(e, *(const uint64_t *)p);
        else perfdata__em_uint(e, f->size == 4 ? *(const uint32_t *)p : *(const uint16_t *)p, 0, f->size);
    }
}

PERFDATA__PRIVATE int perfdata__attr_size_known(uint32_t size) {
    return size >= PERFDATA_ATTR_SIZE_VER0 && size <= PERFDATA_ATTR_SIZE_VER9 && size % 8 == 0 &&
           size != 88; /* 88 was never a version: VER2 80, VER3 96 */
}

/* Branch entry flags from one byte order's bit-field layout to the
   other's (a big-endian compiler allocates the fields from the top bit
   down, perfdata__branch_flags); the same layout: as they are. */
PERFDATA__PRIVATE uint64_t perfdata__branch_flags_to(uint64_t v, int from_big, int to_big) {
    static const unsigned char widths[] = {1, 1, 1, 1, 16, 4, 2, 4, 3, 31};
    uint64_t out = 0;
    unsigned i, lo = 0, hi = 64;
    if (from_big == to_big) return v;
    for (i = 0; i < sizeof widths; i++) {
        unsigned w = widths[i];
        uint64_t mask = (1ull << w) - 1;
        hi -= w;
        if (to_big) out |= ((v >> lo) & mask) << hi;
        else out |= ((v >> hi) & mask) << lo;
        lo += w;
    }
    return out;
}

/* The sample_id trailer of event ev's attr (nothing without sample_id_all). */
PERFDATA__PRIVATE void perfdata__em_trailer(perfdata__em *e, const perfdata_attr *a, const perfdata_sample_id *sid) {
    uint64_t t = a->sample_type;
    if (!(a->flags & PERFDATA_ATTR_FLAG_SAMPLE_ID_ALL)) return;
    if (t & PERFDATA_SAMPLE_TID) { perfdata__em_u32(e, sid ? sid->pid : 0); perfdata__em_u32(e, sid ? sid->tid : 0); }
    if (t & PERFDATA_SAMPLE_TIME) perfdata__em_u64(e, sid ? sid->time : 0);
    if (t & PERFDATA_SAMPLE_ID) perfdata__em_u64(e, sid ? sid->id : 0);
    if (t & PERFDATA_SAMPLE_STREAM_ID) perfdata__em_u64(e, sid ? sid->stream_id : 0);
    if (t & PERFDATA_SAMPLE_CPU) { perfdata__em_u32(e, sid ? sid->cpu : 0); perfdata__em_u32(e, sid ? sid->cpu_reserved : 0); }
    if (t & PERFDATA_SAMPLE_IDENTIFIER) perfdata__em_u64(e, sid ? sid->identifier : 0);
}

PERFDATA__PRIVATE perfdata_status perfdata__w_usable(perfdata_writer *w, int begun, perfdata_error *err) {
    if (w->priv.failed != PERFDATA_OK)
        return perfdata__fail(err, w->priv.failed, w->priv.pos, 0, PERFDATA__MSG("the sink failed: the output ended"));
    if (begun && w->priv.state != 1)
        return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, w->priv.pos, 0,
                              w->priv.state ? PERFDATA__MSG("the writer has finished")
                                            : PERFDATA__MSG("perfdata_writer_begin first"));
    return PERFDATA_OK;
}

/* Room for n more bytes (buffer mode). */
PERFDATA__PRIVATE perfdata_status perfdata__w_room(perfdata_writer *w, uint64_t n, uint32_t type, perfdata_error *err) {
    if (w->priv.buf && (n > w->priv.cap || w->priv.pos > w->priv.cap - n)) {
        perfdata_status st = perfdata__fail(err, PERFDATA_ERR_NO_SPACE, w->priv.pos, type, PERFDATA__MSG("the output buffer is full"));
        if (err) err->needed = n - (w->priv.cap - w->priv.pos);
        return st;
    }
    return PERFDATA_OK;
}

/* The end of a write: a sink's failure is the caller's error. */
PERFDATA__PRIVATE perfdata_status perfdata__w_done(perfdata_writer *w, uint32_t type, perfdata_error *err) {
    if (w->priv.failed != PERFDATA_OK)
        return perfdata__fail(err, w->priv.failed, w->priv.pos, type, PERFDATA__MSG("the sink failed: the output ended"));
    return perfdata__ok(err);
}

/* Flags a writer takes: the known ones (file mode only where compiled in). */
PERFDATA__PRIVATE perfdata_status perfdata__w_flags(unsigned flags, perfdata_error *err) {
    if (flags & ~(PERFDATA_WRITE_PIPE | PERFDATA_WRITE_BIG_ENDIAN))
        return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, 0, 0, PERFDATA__MSG("unknown flags"));
#ifdef PERFDATA_WRITER_PIPE_ONLY
    if (!(flags & PERFDATA_WRITE_PIPE))
        return perfdata__fail(err, PERFDATA_ERR_UNSUPPORTED, 0, 0, PERFDATA__MSG("file mode is left out (PERFDATA_WRITER_PIPE_ONLY)"));
#endif
    return PERFDATA_OK;
}

PERFDATA__PRIVATE void perfdata__w_start(perfdata_writer *w, unsigned flags) {
    w->priv.flags = flags;
    w->priv.big = (flags & PERFDATA_WRITE_BIG_ENDIAN) != 0;
    w->priv.sink = 0; w->priv.user = 0; w->priv.buf = 0; w->priv.cap = 0;
    w->priv.pos = 0; w->priv.state = 0; w->priv.failed = PERFDATA_OK;
    w->priv.events = 0; w->priv.nr_events = 0; w->priv.features = 0; w->priv.nr_features = 0;
    w->priv.attr_size = 0; w->priv.attrs_offset = w->priv.data_offset = 0;
    w->priv.staged = 0;
}

PERFDATA_DEF perfdata_status perfdata_writer_init(perfdata_writer *w, unsigned flags, perfdata_sink sink, void *user,
                                                  perfdata_error *err) {
    perfdata_status st = perfdata__w_flags(flags, err);
    perfdata__w_start(w, flags);
    if (st != PERFDATA_OK || !sink) {
        w->priv.state = 2;
        return st != PERFDATA_OK ? st : perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, 0, 0, PERFDATA__MSG("no sink"));
    }
    w->priv.sink = sink;
    w->priv.user = user;
    return perfdata__ok(err);
}

PERFDATA_DEF perfdata_status perfdata_writer_init_buffer(perfdata_writer *w, unsigned flags, void *buf, size_t cap,
                                                         perfdata_error *err) {
    perfdata_status st = perfdata__w_flags(flags, err);
    perfdata__w_start(w, flags);
    if (st != PERFDATA_OK || (!buf && cap)) {
        w->priv.state = 2;
        return st != PERFDATA_OK ? st : perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, 0, 0, PERFDATA__MSG("no buffer"));
    }
    w->priv.buf = (unsigned char *)buf;
    w->priv.cap = cap;
    return perfdata__ok(err);
}

PERFDATA_DEF uint64_t perfdata_writer_size(const perfdata_writer *w) { return w->priv.pos; }

/* The file header: data and feature bits once known (at finish). */
PERFDATA__PRIVATE void perfdata__em_file_header(perfdata__em *e, const perfdata_writer *w, uint64_t data_size) {
    uint64_t bits[4] = {0, 0, 0, 0};
    size_t i;
    for (i = 0; i < w->priv.nr_features; i++) bits[w->priv.features[i].id / 64] |= 1ull << (w->priv.features[i].id % 64);
    perfdata__em_u64(e, PERFDATA__MAGIC_LE);
    perfdata__em_u64(e, 104);
    perfdata__em_u64(e, (uint64_t)w->priv.attr_size + 16);
    perfdata__em_u64(e, w->priv.attrs_offset);
    perfdata__em_u64(e, (uint64_t)w->priv.nr_events * (w->priv.attr_size + 16));
    perfdata__em_u64(e, w->priv.data_offset);
    perfdata__em_u64(e, data_size);
    perfdata__em_u64(e, 0);
    perfdata__em_u64(e, 0);
    for (i = 0; i < 4; i++) perfdata__em_u64(e, bits[i]);
}

/* A record's header; the body follows. */
PERFDATA__PRIVATE void perfdata__em_header(perfdata__em *e, uint32_t type, uint16_t misc, uint64_t size) {
    perfdata__em_u32(e, type);
    perfdata__em_u16(e, misc);
    perfdata__em_u16(e, (uint16_t)size);
}

/* Checks a record's size and room, before anything of it is written. */
PERFDATA__PRIVATE perfdata_status perfdata__w_fits(perfdata_writer *w, uint32_t type, uint64_t size, uint64_t extra,
                                                  perfdata_error *err) {
    perfdata_status st = perfdata__w_usable(w, 1, err);
    if (st != PERFDATA_OK) return st;
    if (size > 0xffff)
        return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, w->priv.pos, type, PERFDATA__MSG("a record over 65535 bytes"));
    return perfdata__w_room(w, size + extra, type, err);
}

/* The start of the output, counted or written: a pipe's header, its
   HEADER_ATTR and HEADER_FEATURE records; a file's header (written again
   at finish), its events' ids, then its attrs. */
PERFDATA__PRIVATE void perfdata__em_start(perfdata__em *e, const perfdata_writer *w) {
    const perfdata_writer_event *ev = w->priv.events;
    const perfdata_writer_feature *ft = w->priv.features;
    int pipe = PERFDATA__W_PIPE(w);
    uint64_t at = 104;
    size_t i, k;
    if (pipe) {
        perfdata__em_u64(e, PERFDATA__MAGIC_LE);
        perfdata__em_u64(e, 16);
    } else {
        perfdata__em_bytes(e, 0, 104);
    }
    for (i = 0; i < w->priv.nr_events; i++) {
        if (pipe) {
            uint32_t s = perfdata__w_attr_size(&ev[i].attr);
            perfdata__em_header(e, PERFDATA_RECORD_HEADER_ATTR, 0, 8 + s + 8 * (uint64_t)ev[i].nr_ids);
            perfdata__em_attr(e, &ev[i].attr, s);
        }
        for (k = 0; k < ev[i].nr_ids; k++) perfdata__em_u64(e, ev[i].ids[k]);
    }
    for (i = 0; i < w->priv.nr_events && !pipe; i++) {
        perfdata__em_attr(e, &ev[i].attr, w->priv.attr_size);
        perfdata__em_u64(e, at);
        perfdata__em_u64(e, 8 * (uint64_t)ev[i].nr_ids);
        at += 8 * (uint64_t)ev[i].nr_ids;
    }
    for (i = 0; i < w->priv.nr_features && pipe; i++) {
        perfdata__em_header(e, PERFDATA_RECORD_HEADER_FEATURE, 0, 16 + (uint64_t)ft[i].n);
        perfdata__em_u64(e, ft[i].id);
        perfdata__em_bytes(e, ft[i].bytes, ft[i].n);
    }
}

PERFDATA_DEF perfdata_status perfdata_writer_begin(perfdata_writer *w, const perfdata_writer_event *events,
                                                   size_t nr_events, const perfdata_writer_feature *features,
                                                   size_t nr_features, perfdata_error *err) {
    perfdata__em e;
    size_t i;
    uint32_t size = 0;
    perfdata_status st = perfdata__w_usable(w, 0, err);
    if (st != PERFDATA_OK) return st;
    if (w->priv.state != 0) return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, w->priv.pos, 0, PERFDATA__MSG("perfdata_writer_begin called twice"));
    if (!events || !nr_events) return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, 0, 0, PERFDATA__MSG("no event"));
    if (nr_features && !features) return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, 0, 0, PERFDATA__MSG("no features"));
    for (i = 0; i < nr_events; i++) {
        uint32_t s = perfdata__w_attr_size(&events[i].attr);
        if (!perfdata__attr_size_known(s))
            return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, 0, 0, PERFDATA__MSG("attr size of no version"));
        if (events[i].nr_ids && !events[i].ids) return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, 0, 0, PERFDATA__MSG("ids missing"));
        if (events[i].nr_ids > 0xffff / 8) return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, 0, 0, PERFDATA__MSG("too many ids for one event"));
        if (s > size) size = s;
    }
    for (i = 0; i < nr_features; i++) {
        if (features[i].id == 0 || features[i].id >= PERFDATA_FEAT_BITS || (features[i].n && !features[i].bytes))
            return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, 0, 0, PERFDATA__MSG("bad feature"));
        if (i && features[i].id <= features[i - 1].id)
            return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, 0, 0, PERFDATA__MSG("features not in ascending order"));
        if (PERFDATA__W_PIPE(w) &&
            (features[i].id == PERFDATA_FEAT_TRACING_DATA || features[i].id == PERFDATA_FEAT_BUILD_ID))
            return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, 0, 0,
                                  PERFDATA__MSG("a pipe has TRACING_DATA and BUILD_ID as records of their own"));
        if (PERFDATA__W_PIPE(w) && features[i].n > 0xffff - 16)
            return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, 0, 0, PERFDATA__MSG("a feature over a pipe record's size"));
    }
    /* the whole start is measured first: it is written whole or not at all */
    w->priv.events = events;
    w->priv.nr_events = nr_events;
    w->priv.features = features;
    w->priv.nr_features = nr_features;
    w->priv.attr_size = size;
    e = perfdata__em_count(w->priv.big);
    perfdata__em_start(&e, w);
    st = perfdata__w_room(w, e.n, 0, err);
    if (st != PERFDATA_OK) {
        w->priv.nr_events = 0;
        return st;
    }
    if (!PERFDATA__W_PIPE(w)) { /* a file's data follows its attrs */
        w->priv.data_offset = e.n;
        w->priv.attrs_offset = e.n - (uint64_t)nr_events * (size + 16);
    }
    e = perfdata__em_into(w, 0, w->priv.big);
    perfdata__em_start(&e, w);
    w->priv.state = 1;
    perfdata__w_flush(w);
    return perfdata__w_done(w, 0, err);
}

PERFDATA_DEF perfdata_status perfdata_writer_record(perfdata_writer *w, uint32_t type, uint16_t misc,
                                                    const void *body, size_t n, const void *extra, size_t extra_n,
                                                    perfdata_error *err) {
    perfdata__em e;
    perfdata_status st;
    if ((n && !body) || (extra_n && !extra))
        return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, w->priv.pos, type, PERFDATA__MSG("no bytes"));
    if (type == 0 || type == PERFDATA_RECORD_HEADER_ATTR || (type == PERFDATA_RECORD_HEADER_FEATURE && !PERFDATA__W_PIPE(w)))
        return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, w->priv.pos, type,
                              PERFDATA__MSG("events and features are given to perfdata_writer_begin"));
    st = perfdata__w_fits(w, type, 8 + (uint64_t)n, extra_n, err);
    if (st != PERFDATA_OK) return st;
    e = perfdata__em_into(w, 0, w->priv.big);
    perfdata__em_header(&e, type, misc, 8 + (uint64_t)n);
    perfdata__em_bytes(&e, body, n);
    perfdata__em_bytes(&e, extra, extra_n);
    perfdata__w_flush(w);
    return perfdata__w_done(w, type, err);
}

/* The body of a sample, counted or written. */
/* A sample's fields in their record order: the sample_type bit, and where
   the struct holds the value (a u64, or two u32s when pair); at 0 the part
   is one of those written by perfdata__em_sample_part. A table, so that
   the encoder stays small where it runs on a microcontroller. */
typedef struct perfdata__sfield { unsigned char bit, pair; unsigned short at; } perfdata__sfield;
#define PERFDATA__SF(bit, field, pair) {bit, pair, (unsigned short)offsetof(perfdata_sample, field)}
static const perfdata__sfield perfdata__sfields[] = {
    PERFDATA__SF(16, identifier, 0), PERFDATA__SF(0, ip, 0), PERFDATA__SF(1, pid, 1), PERFDATA__SF(2, time, 0),
    PERFDATA__SF(3, addr, 0), PERFDATA__SF(6, id, 0), PERFDATA__SF(9, stream_id, 0), PERFDATA__SF(7, cpu, 1),
    PERFDATA__SF(8, period, 0), {4, 0, 0}, {5, 0, 0}, {10, 0, 0}, {11, 0, 0}, {12, 0, 0}, {13, 0, 0},
    PERFDATA__SF(14, weight_raw, 0), PERFDATA__SF(15, data_src, 0), PERFDATA__SF(17, transaction, 0), {18, 0, 0},
    PERFDATA__SF(19, phys_addr, 0), PERFDATA__SF(21, cgroup, 0), PERFDATA__SF(22, data_page_size, 0),
    PERFDATA__SF(23, code_page_size, 0), {20, 0, 0}};
#undef PERFDATA__SF

/* Counter values as read_format lays them out (a sample's or a READ record's). */
PERFDATA__PRIVATE void perfdata__em_read(perfdata__em *e, uint64_t fmt, const perfdata_read *r) {
    int group = (fmt & PERFDATA_FORMAT_GROUP) != 0;
    perfdata__em_u64(e, group ? r->nr : r->single.value);
    if (fmt & PERFDATA_FORMAT_TOTAL_TIME_ENABLED) perfdata__em_u64(e, r->time_enabled);
    if (fmt & PERFDATA_FORMAT_TOTAL_TIME_RUNNING) perfdata__em_u64(e, r->time_running);
    if (group) {
        perfdata__em_u64_view(e, r->values, (size_t)r->nr * (perfdata__read_stride(fmt) / 8), r->big_endian);
    } else {
        if (fmt & PERFDATA_FORMAT_ID) perfdata__em_u64(e, r->single.id);
        if (fmt & PERFDATA_FORMAT_LOST) perfdata__em_u64(e, r->single.lost);
    }
}

PERFDATA__PRIVATE void perfdata__em_regs(perfdata__em *e, const perfdata_regs *r, uint64_t mask) {
    perfdata__em_u64(e, r->abi);
    if (r->abi) perfdata__em_u64s(e, &r->values, perfdata__popcount64(mask));
}

/* The parts that are more than one value. */
PERFDATA__PRIVATE void perfdata__em_sample_part(perfdata__em *e, unsigned bit, const perfdata_attr *a,
                                                 const perfdata_sample *s) {
    size_t i;
    switch (bit) {
    case 4: perfdata__em_read(e, a->read_format, &s->read); break;
    case 5: /* CALLCHAIN */
        perfdata__em_u64(e, s->callchain.count);
        perfdata__em_u64s(e, &s->callchain, s->callchain.count);
        break;
    case 10: { /* RAW: the u32 size and the bytes end on a multiple of 8, as the kernel pads them */
        size_t pad = (8 - (4 + s->raw.n) % 8) % 8;
        perfdata__em_u32(e, (uint32_t)(s->raw.n + pad));
        perfdata__em_bytes(e, s->raw.p, s->raw.n);
        perfdata__em_bytes(e, 0, pad);
        break;
    }
    case 11: { /* BRANCH_STACK */
        const perfdata_branch_stack *b = &s->branch_stack;
        perfdata__em_u64(e, b->nr);
        if (a->branch_sample_type & PERFDATA_BRANCH_HW_INDEX) perfdata__em_u64(e, b->hw_idx);
        if (b->nr > 0xffff || (uint32_t)b->nr * 24u > b->entries.n) { e->bad = 1; break; } /* no division on small cores */
        for (i = 0; i < (size_t)b->nr; i++) {
            const unsigned char *p = b->entries.p + 24 * i;
            perfdata_view two;
            two.p = p; two.n = 16; two.offset = 0;
            perfdata__em_u64_view(e, two, 2, b->big_endian);
            perfdata__em_u64(e, perfdata__branch_flags_to(perfdata__ld64(p + 16, b->big_endian), b->big_endian, e->big));
        }
        if (a->branch_sample_type & PERFDATA_BRANCH_COUNTERS) perfdata__em_u64s(e, &b->counters, (size_t)b->nr);
        break;
    }
    case 12: perfdata__em_regs(e, &s->regs_user, a->sample_regs_user); break;
    case 13: /* STACK_USER: whole u64s, the dump within its size */
        if (s->stack_user.n > s->stack_user_size || s->stack_user_size > 0xffff || s->stack_user_size % 8) e->bad = 1;
        perfdata__em_u64(e, s->stack_user_size);
        if (s->stack_user_size) {
            perfdata__em_bytes(e, s->stack_user.p, s->stack_user.n);
            perfdata__em_bytes(e, 0, (size_t)(s->stack_user_size - s->stack_user.n));
            perfdata__em_u64(e, s->stack_user_dyn_size);
        }
        break;
    case 18: perfdata__em_regs(e, &s->regs_intr, a->sample_regs_intr); break;
    default: /* 20, AUX: whole u64s */
        if (s->aux.n % 8) e->bad = 1;
        perfdata__em_u64(e, s->aux.n);
        perfdata__em_bytes(e, s->aux.p, s->aux.n);
        break;
    }
}

/* The body of a sample, counted or written. */
PERFDATA__PRIVATE void perfdata__em_sample(perfdata__em *e, const perfdata_attr *a, const perfdata_sample *s) {
    uint64_t t = a->sample_type;
    const unsigned char *base = (const unsigned char *)s;
    size_t i;
    if (t & PERFDATA_SAMPLE_WEIGHT_STRUCT) t |= PERFDATA_SAMPLE_WEIGHT; /* the same u64 */
    for (i = 0; i < sizeof perfdata__sfields / sizeof perfdata__sfields[0]; i++) {
        const perfdata__sfield *f = &perfdata__sfields[i];
        const void *at = base + f->at;
        if (!((t >> f->bit) & 1)) continue;
        if (!f->at) perfdata__em_sample_part(e, f->bit, a, s);
        else if (f->pair) {
            perfdata__em_u32(e, ((const uint32_t *)at)[0]);
            perfdata__em_u32(e, ((const uint32_t *)at)[1]);
        }
        else perfdata__em_u64(e, *(const uint64_t *)at);
    }
}

PERFDATA_DEF perfdata_status perfdata_writer_sample(perfdata_writer *w, uint16_t misc, const perfdata_sample *s,
                                                    perfdata_error *err) {
    const perfdata_attr *a;
    perfdata__em c, e;
    perfdata_status st = perfdata__w_usable(w, 1, err);
    const uint32_t type = PERFDATA_RECORD_SAMPLE;
    if (st != PERFDATA_OK) return st;
    if (s->event < 0 || (size_t)s->event >= w->priv.nr_events)
        return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, w->priv.pos, type, PERFDATA__MSG("no such event"));
    a = &w->priv.events[s->event].attr;
    c = perfdata__em_count(w->priv.big);
    perfdata__em_sample(&c, a, s);
    if (c.bad) /* counted before anything is read from the views */
        return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, w->priv.pos, type, PERFDATA__MSG("a sample's counts exceed its views"));
    st = perfdata__w_fits(w, type, 8 + c.n, 0, err);
    if (st != PERFDATA_OK) return st;
    e = perfdata__em_into(w, 0, w->priv.big);
    perfdata__em_header(&e, type, misc, 8 + c.n);
    perfdata__em_sample(&e, a, s);
    perfdata__w_flush(w);
    return perfdata__w_done(w, type, err);
}

/* A kernel record: the body by fn, then the trailer of sid's event. */
typedef void (*perfdata__em_body)(perfdata__em *e, const void *what);

PERFDATA__PRIVATE perfdata_status perfdata__w_kernel(perfdata_writer *w, uint32_t type, uint16_t misc,
                                                    perfdata__em_body fn, const void *what,
                                                    const perfdata_sample_id *sid, perfdata_error *err) {
    perfdata__em c, e;
    const perfdata_attr *a;
    long ev = sid ? sid->event : 0;
    perfdata_status st = perfdata__w_usable(w, 1, err);
    if (st != PERFDATA_OK) return st;
    if (ev < 0 || (size_t)ev >= w->priv.nr_events)
        return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, w->priv.pos, type, PERFDATA__MSG("no such event"));
    a = &w->priv.events[ev].attr;
    c = perfdata__em_count(w->priv.big);
    fn(&c, what);
    perfdata__em_trailer(&c, a, sid);
    st = perfdata__w_fits(w, type, 8 + c.n, 0, err);
    if (st != PERFDATA_OK) return st;
    e = perfdata__em_into(w, 0, w->priv.big);
    perfdata__em_header(&e, type, misc, 8 + c.n);
    fn(&e, what);
    perfdata__em_trailer(&e, a, sid);
    perfdata__w_flush(w);
    return perfdata__w_done(w, type, err);
}

typedef struct perfdata__mmap_out { const perfdata_mmap *m; int mmap2; } perfdata__mmap_out;

PERFDATA__PRIVATE void perfdata__em_mmap(perfdata__em *e, const void *what) {
    const perfdata__mmap_out *o = (const perfdata__mmap_out *)what;
    const perfdata_mmap *m = o->m;
    perfdata__em_u32(e, m->pid);
    perfdata__em_u32(e, m->tid);
    perfdata__em_u64(e, m->addr);
    perfdata__em_u64(e, m->len);
    perfdata__em_u64(e, m->pgoff);
    if (o->mmap2) {
        if (m->has_build_id) {
            perfdata__em_u8(e, m->build_id_size);
            perfdata__em_bytes(e, 0, 3);
            perfdata__em_bytes(e, m->build_id.p, m->build_id.n);
            perfdata__em_bytes(e, 0, 20 - m->build_id.n);
        } else {
            perfdata__em_u32(e, m->maj);
            perfdata__em_u32(e, m->min);
            perfdata__em_u64(e, m->ino);
            perfdata__em_u64(e, m->ino_generation);
        }
        perfdata__em_u32(e, m->prot);
        perfdata__em_u32(e, m->flags);
    }
    perfdata__em_string(e, m->filename.p, m->filename.n, 8);
}

PERFDATA_DEF perfdata_status perfdata_writer_mmap(perfdata_writer *w, uint32_t type, uint16_t misc,
                                                  const perfdata_mmap *m, const perfdata_sample_id *sid,
                                                  perfdata_error *err) {
    perfdata__mmap_out o;
    if ((type != PERFDATA_RECORD_MMAP && type != PERFDATA_RECORD_MMAP2) || (m->filename.n && !m->filename.p) ||
        (m->has_build_id && (m->build_id.n > 20 || (m->build_id.n && !m->build_id.p))))
        return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, w->priv.pos, type, PERFDATA__MSG("not an mmap, or a bad build id"));
    o.m = m;
    o.mmap2 = type == PERFDATA_RECORD_MMAP2;
    if (o.mmap2 && m->has_build_id) misc |= PERFDATA_MISC_MMAP_BUILD_ID;
    return perfdata__w_kernel(w, type, misc, perfdata__em_mmap, &o, sid, err);
}

PERFDATA__PRIVATE void perfdata__em_comm(perfdata__em *e, const void *what) {
    const perfdata_comm *c = (const perfdata_comm *)what;
    perfdata__em_u32(e, c->pid);
    perfdata__em_u32(e, c->tid);
    perfdata__em_string(e, c->comm.p, c->comm.n, 8);
}

PERFDATA_DEF perfdata_status perfdata_writer_comm(perfdata_writer *w, uint16_t misc, const perfdata_comm *c,
                                                  const perfdata_sample_id *sid, perfdata_error *err) {
    if (c->comm.n && !c->comm.p) return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, w->priv.pos, PERFDATA_RECORD_COMM, PERFDATA__MSG("no name"));
    if (c->exec) misc |= PERFDATA_MISC_COMM_EXEC;
    return perfdata__w_kernel(w, PERFDATA_RECORD_COMM, misc, perfdata__em_comm, c, sid, err);
}

PERFDATA__PRIVATE void perfdata__em_task(perfdata__em *e, const void *what) {
    const perfdata_task *t = (const perfdata_task *)what;
    perfdata__em_u32(e, t->pid);
    perfdata__em_u32(e, t->ppid);
    perfdata__em_u32(e, t->tid);
    perfdata__em_u32(e, t->ptid);
    perfdata__em_u64(e, t->time);
}

PERFDATA_DEF perfdata_status perfdata_writer_task(perfdata_writer *w, uint32_t type, uint16_t misc,
                                                  const perfdata_task *t, const perfdata_sample_id *sid,
                                                  perfdata_error *err) {
    if (type != PERFDATA_RECORD_FORK && type != PERFDATA_RECORD_EXIT)
        return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, w->priv.pos, type, PERFDATA__MSG("not FORK or EXIT"));
    return perfdata__w_kernel(w, type, misc, perfdata__em_task, t, sid, err);
}

PERFDATA__PRIVATE void perfdata__em_lost(perfdata__em *e, const void *what) {
    const perfdata_lost *l = (const perfdata_lost *)what;
    perfdata__em_u64(e, l->id);
    perfdata__em_u64(e, l->lost);
}

PERFDATA_DEF perfdata_status perfdata_writer_lost(perfdata_writer *w, const perfdata_lost *l,
                                                  const perfdata_sample_id *sid, perfdata_error *err) {
    return perfdata__w_kernel(w, PERFDATA_RECORD_LOST, 0, perfdata__em_lost, l, sid, err);
}

typedef struct perfdata__kernel_out { uint32_t type; uint64_t read_format; const void *rec; } perfdata__kernel_out;

PERFDATA__PRIVATE void perfdata__em_kernel(perfdata__em *e, const void *what) {
    const perfdata__kernel_out *k = (const perfdata__kernel_out *)what;
    switch (k->type) {
    case PERFDATA_RECORD_THROTTLE:
    case PERFDATA_RECORD_UNTHROTTLE: {
        const perfdata_throttle *o = (const perfdata_throttle *)k->rec;
        perfdata__em_u64(e, o->time); perfdata__em_u64(e, o->id); perfdata__em_u64(e, o->stream_id);
        break;
    }
    case PERFDATA_RECORD_READ: {
        const perfdata_read_record *o = (const perfdata_read_record *)k->rec;
        perfdata__em_u32(e, o->pid); perfdata__em_u32(e, o->tid);
        perfdata__em_read(e, k->read_format, &o->values);
        break;
    }
    case PERFDATA_RECORD_AUX: {
        const perfdata_aux *o = (const perfdata_aux *)k->rec;
        perfdata__em_u64(e, o->aux_offset); perfdata__em_u64(e, o->aux_size); perfdata__em_u64(e, o->flags);
        break;
    }
    case PERFDATA_RECORD_ITRACE_START: {
        const perfdata_itrace_start *o = (const perfdata_itrace_start *)k->rec;
        perfdata__em_u32(e, o->pid); perfdata__em_u32(e, o->tid);
        break;
    }
    case PERFDATA_RECORD_LOST_SAMPLES: perfdata__em_u64(e, ((const perfdata_lost_samples *)k->rec)->lost); break;
    case PERFDATA_RECORD_SWITCH: break;
    case PERFDATA_RECORD_SWITCH_CPU_WIDE: {
        const perfdata_switch *o = (const perfdata_switch *)k->rec;
        perfdata__em_u32(e, o->next_prev_pid); perfdata__em_u32(e, o->next_prev_tid);
        break;
    }
    case PERFDATA_RECORD_NAMESPACES: {
        const perfdata_namespaces *o = (const perfdata_namespaces *)k->rec;
        perfdata__em_u32(e, o->pid); perfdata__em_u32(e, o->tid);
        perfdata__em_u64(e, o->nr);
        perfdata__em_u64s(e, &o->links, (size_t)o->nr * 2);
        break;
    }
    case PERFDATA_RECORD_KSYMBOL: {
        const perfdata_ksymbol *o = (const perfdata_ksymbol *)k->rec;
        perfdata__em_u64(e, o->addr); perfdata__em_u32(e, o->len);
        perfdata__em_u16(e, o->ksym_type); perfdata__em_u16(e, o->flags);
        perfdata__em_string(e, o->name.p, o->name.n, 8);
        break;
    }
    case PERFDATA_RECORD_BPF_EVENT: {
        const perfdata_bpf_event *o = (const perfdata_bpf_event *)k->rec;
        perfdata__em_u16(e, o->type); perfdata__em_u16(e, o->flags); perfdata__em_u32(e, o->id);
        perfdata__em_bytes(e, o->tag.p, o->tag.n);
        perfdata__em_bytes(e, 0, 8 - o->tag.n);
        break;
    }
    case PERFDATA_RECORD_CGROUP: {
        const perfdata_cgroup *o = (const perfdata_cgroup *)k->rec;
        perfdata__em_u64(e, o->id);
        perfdata__em_string(e, o->path.p, o->path.n, 8);
        break;
    }
    case PERFDATA_RECORD_TEXT_POKE: { /* the bytes padded to a multiple of 8, as the kernel does */
        const perfdata_text_poke *o = (const perfdata_text_poke *)k->rec;
        size_t n = (size_t)o->old_len + o->new_len;
        perfdata__em_u64(e, o->addr); perfdata__em_u16(e, o->old_len); perfdata__em_u16(e, o->new_len);
        perfdata__em_bytes(e, o->old_bytes.p, o->old_len);
        perfdata__em_bytes(e, o->new_bytes.p, o->new_len);
        perfdata__em_bytes(e, 0, (8 - (4 + n) % 8) % 8);
        break;
    }
    case PERFDATA_RECORD_AUX_OUTPUT_HW_ID: perfdata__em_u64(e, ((const perfdata_aux_output_hw_id *)k->rec)->hw_id); break;
    default: { /* CALLCHAIN_DEFERRED */
        const perfdata_callchain_deferred *o = (const perfdata_callchain_deferred *)k->rec;
        perfdata__em_u64(e, o->cookie);
        perfdata__em_u64(e, o->ips.count);
        perfdata__em_u64s(e, &o->ips, o->ips.count);
        break;
    }
    }
}

/* Whether a struct's views hold what its counts say. */
PERFDATA__PRIVATE int perfdata__kernel_views_ok(uint32_t type, uint64_t read_format, const void *rec) {
    switch (type) {
    case PERFDATA_RECORD_READ: {
        const perfdata_read *r = &((const perfdata_read_record *)rec)->values;
        return !(read_format & PERFDATA_FORMAT_GROUP) || r->nr <= r->values.n / perfdata__read_stride(read_format);
    }
    case PERFDATA_RECORD_NAMESPACES: {
        const perfdata_namespaces *o = (const perfdata_namespaces *)rec;
        return o->nr <= o->links.count / 2 && o->links.count <= o->links.bytes.n / 8;
    }
    case PERFDATA_RECORD_KSYMBOL: {
        const perfdata_ksymbol *o = (const perfdata_ksymbol *)rec;
        return (o->name.p || !o->name.n) && o->name.n < 0x10000;
    }
    case PERFDATA_RECORD_BPF_EVENT: {
        const perfdata_bpf_event *o = (const perfdata_bpf_event *)rec;
        return o->tag.n <= 8 && (o->tag.p || !o->tag.n);
    }
    case PERFDATA_RECORD_CGROUP: {
        const perfdata_cgroup *o = (const perfdata_cgroup *)rec;
        return (o->path.p || !o->path.n) && o->path.n < 0x10000;
    }
    case PERFDATA_RECORD_TEXT_POKE: {
        const perfdata_text_poke *o = (const perfdata_text_poke *)rec;
        return o->old_bytes.n >= o->old_len && o->new_bytes.n >= o->new_len && (o->old_bytes.p || !o->old_len) &&
               (o->new_bytes.p || !o->new_len);
    }
    case PERFDATA_RECORD_CALLCHAIN_DEFERRED: {
        const perfdata_callchain_deferred *o = (const perfdata_callchain_deferred *)rec;
        return o->ips.count <= o->ips.bytes.n / 8;
    }
    default: return 1;
    }
}

PERFDATA_DEF perfdata_status perfdata_writer_kernel(perfdata_writer *w, uint32_t type, uint16_t misc, const void *record,
                                                    const perfdata_sample_id *sid, perfdata_error *err) {
    perfdata__kernel_out k;
    long ev = sid ? sid->event : 0;
    if (type == 0 || type > PERFDATA_RECORD_CALLCHAIN_DEFERRED || type == PERFDATA_RECORD_SAMPLE ||
        type == PERFDATA_RECORD_MMAP || type == PERFDATA_RECORD_MMAP2 || type == PERFDATA_RECORD_COMM ||
        type == PERFDATA_RECORD_FORK || type == PERFDATA_RECORD_EXIT || type == PERFDATA_RECORD_LOST)
        return perfdata__fail(err, type > PERFDATA_RECORD_CALLCHAIN_DEFERRED ? PERFDATA_ERR_UNSUPPORTED : PERFDATA_ERR_BAD_ARGUMENT,
                              w->priv.pos, type, PERFDATA__MSG("not a type perfdata_writer_kernel writes"));
    k.type = type;
    k.rec = record;
    k.read_format = ev >= 0 && (size_t)ev < w->priv.nr_events ? w->priv.events[ev].attr.read_format : 0;
    if (!record || !perfdata__kernel_views_ok(type, k.read_format, record))
        return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, w->priv.pos, type, PERFDATA__MSG("a record's counts exceed its views"));
    if (type == PERFDATA_RECORD_SWITCH || type == PERFDATA_RECORD_SWITCH_CPU_WIDE) {
        const perfdata_switch *o = (const perfdata_switch *)record;
        misc = (uint16_t)(misc & ~(PERFDATA_MISC_SWITCH_OUT | PERFDATA_MISC_SWITCH_OUT_PREEMPT));
        if (o->out) misc |= PERFDATA_MISC_SWITCH_OUT;
        if (o->preempt) misc |= PERFDATA_MISC_SWITCH_OUT_PREEMPT;
    }
    return perfdata__w_kernel(w, type, misc, perfdata__em_kernel, &k, sid, err);
}

/* Bytes padded with zeros to a multiple of `align` (at least n). */
PERFDATA__PRIVATE void perfdata__em_padded(perfdata__em *e, perfdata_view v, size_t size) {
    perfdata__em_bytes(e, v.p, v.n < size ? v.n : size);
    if (v.n < size) perfdata__em_bytes(e, 0, size - v.n);
}

/* cpu map data as perf_record_cpu_map_data lays it out, padded to 8 */
PERFDATA__PRIVATE void perfdata__em_cpu_map(perfdata__em *e, const perfdata_cpu_map *m) {
    uint64_t start = e->n;
    perfdata__em_u16(e, m->encoding);
    if (m->encoding == PERFDATA_CPU_MAP_RANGE) {
        perfdata__em_u8(e, m->any_cpu ? 1u : 0u);
        perfdata__em_u8(e, 0);
        perfdata__em_u16(e, m->start_cpu);
        perfdata__em_u16(e, m->end_cpu);
    } else if (m->encoding == PERFDATA_CPU_MAP_CPUS) {
        size_t i;
        perfdata__em_u16(e, m->nr);
        for (i = 0; i < m->nr; i++) perfdata__em_u16(e, perfdata__ld16(m->data.p + 2 * i, m->big_endian));
    } else {
        size_t i;
        perfdata__em_u16(e, m->nr);
        perfdata__em_u16(e, m->long_size);
        if (m->long_size == 8) {
            perfdata__em_u32(e, 0);
            perfdata__em_u64_view(e, m->data, m->nr, m->big_endian);
        } else {
            for (i = 0; i < m->nr; i++) perfdata__em_u32(e, perfdata__ld32(m->data.p + 4 * i, m->big_endian));
        }
    }
    perfdata__em_bytes(e, 0, (size_t)((8 - (e->n - start) % 8) % 8));
}

typedef struct perfdata__user_out { uint32_t type; const void *rec; } perfdata__user_out;

PERFDATA__PRIVATE void perfdata__em_user(perfdata__em *e, const void *what) {
    const perfdata__user_out *u = (const perfdata__user_out *)what;
    const void *r = u->rec;
    size_t i;
    switch (u->type) {
    case PERFDATA_RECORD_HEADER_EVENT_TYPE: {
        const perfdata_header_event_type *o = (const perfdata_header_event_type *)r;
        perfdata__em_u64(e, o->event_id);
        perfdata__em_padded(e, o->name, 64);
        break;
    }
    case PERFDATA_RECORD_HEADER_TRACING_DATA: /* the size, then padding; the data follows the record */
        perfdata__em_u32(e, (uint32_t)(((const perfdata_tracing_data *)r)->data.n + 7) / 8 * 8);
        perfdata__em_u32(e, 0);
        break;
    case PERFDATA_RECORD_HEADER_BUILD_ID: {
        const perfdata_build_id *o = (const perfdata_build_id *)r;
        perfdata__em_u32(e, (uint32_t)o->pid);
        perfdata__em_padded(e, o->build_id, 20);
        perfdata__em_u8(e, (unsigned)o->build_id.n);
        perfdata__em_bytes(e, 0, 3);
        perfdata__em_string(e, o->filename.p, o->filename.n, 64);
        break;
    }
    case PERFDATA_RECORD_ID_INDEX: {
        const perfdata_id_index *o = (const perfdata_id_index *)r;
        perfdata__em_u64(e, o->nr);
        perfdata__em_u64_view(e, o->entries, (size_t)o->nr * 4, o->big_endian);
        if (o->machine.n) perfdata__em_u64_view(e, o->machine, (size_t)o->nr * 2, o->big_endian);
        break;
    }
    case PERFDATA_RECORD_AUXTRACE_INFO: {
        const perfdata_auxtrace_info *o = (const perfdata_auxtrace_info *)r;
        perfdata__em_u32(e, o->type);
        perfdata__em_u32(e, o->reserved);
        perfdata__em_u64s(e, &o->data, o->data.count);
        break;
    }
    case PERFDATA_RECORD_AUXTRACE: {
        const perfdata_auxtrace *o = (const perfdata_auxtrace *)r;
        perfdata__em_u64(e, o->data.n); perfdata__em_u64(e, o->offset); perfdata__em_u64(e, o->reference);
        perfdata__em_u32(e, o->idx); perfdata__em_u32(e, o->tid); perfdata__em_u32(e, o->cpu); perfdata__em_u32(e, o->reserved);
        break;
    }
    case PERFDATA_RECORD_AUXTRACE_ERROR: {
        const perfdata_auxtrace_error *o = (const perfdata_auxtrace_error *)r;
        perfdata__em_u32(e, o->type); perfdata__em_u32(e, o->code); perfdata__em_u32(e, o->cpu);
        perfdata__em_u32(e, o->pid); perfdata__em_u32(e, o->tid); perfdata__em_u32(e, o->fmt);
        perfdata__em_u64(e, o->ip);
        if (o->fmt >= 1) perfdata__em_u64(e, o->time);
        perfdata__em_padded(e, o->msg, 64);
        if (o->fmt >= 2) { perfdata__em_u32(e, o->machine_pid); perfdata__em_u32(e, o->vcpu); }
        break;
    }
    case PERFDATA_RECORD_THREAD_MAP: {
        const perfdata_thread_map *o = (const perfdata_thread_map *)r;
        perfdata__em_u64(e, o->nr);
        for (i = 0; i < (size_t)o->nr; i++) {
            perfdata__em_u64(e, perfdata__ld64(o->entries.p + 24 * i, o->big_endian));
            perfdata__em_bytes(e, o->entries.p + 24 * i + 8, 16);
        }
        break;
    }
    case PERFDATA_RECORD_CPU_MAP: perfdata__em_cpu_map(e, (const perfdata_cpu_map *)r); break;
    case PERFDATA_RECORD_STAT_CONFIG: {
        const perfdata_stat_config *o = (const perfdata_stat_config *)r;
        perfdata__em_u64(e, o->nr);
        perfdata__em_u64s(e, &o->pairs, (size_t)o->nr * 2);
        break;
    }
    case PERFDATA_RECORD_STAT: {
        const perfdata_stat *o = (const perfdata_stat *)r;
        perfdata__em_u64(e, o->id); perfdata__em_u32(e, o->cpu); perfdata__em_u32(e, o->thread);
        perfdata__em_u64(e, o->val); perfdata__em_u64(e, o->ena); perfdata__em_u64(e, o->run);
        break;
    }
    case PERFDATA_RECORD_STAT_ROUND: {
        const perfdata_stat_round *o = (const perfdata_stat_round *)r;
        perfdata__em_u64(e, o->type); perfdata__em_u64(e, o->time);
        break;
    }
    case PERFDATA_RECORD_EVENT_UPDATE: {
        const perfdata_event_update *o = (const perfdata_event_update *)r;
        perfdata__em_u64(e, o->type); perfdata__em_u64(e, o->id);
        if (o->type == PERFDATA_EVENT_UPDATE_SCALE) perfdata__em_u64(e, o->scale_bits);
        else if (o->type == PERFDATA_EVENT_UPDATE_CPUS) perfdata__em_cpu_map(e, &o->cpus);
        else perfdata__em_string(e, o->text.p, o->text.n, 8);
        break;
    }
    case PERFDATA_RECORD_TIME_CONV: {
        const perfdata_time_conv *o = (const perfdata_time_conv *)r;
        perfdata__em_u64(e, o->time_shift); perfdata__em_u64(e, o->time_mult); perfdata__em_u64(e, o->time_zero);
        if (o->has_cycles) {
            perfdata__em_u64(e, o->time_cycles); perfdata__em_u64(e, o->time_mask);
            perfdata__em_u8(e, o->cap_user_time_zero); perfdata__em_u8(e, o->cap_user_time_short);
            perfdata__em_bytes(e, 0, 6);
        }
        break;
    }
    case PERFDATA_RECORD_COMPRESSED2: { /* the data's size, the data, padded to 8 */
        const perfdata_compressed *o = (const perfdata_compressed *)r;
        perfdata__em_u64(e, o->data.n);
        perfdata__em_bytes(e, o->data.p, o->data.n);
        perfdata__em_bytes(e, 0, (8 - o->data.n % 8) % 8);
        break;
    }
    case PERFDATA_RECORD_COMPRESSED: {
        const perfdata_compressed *o = (const perfdata_compressed *)r;
        perfdata__em_bytes(e, o->data.p, o->data.n);
        break;
    }
    case PERFDATA_RECORD_BPF_METADATA: {
        const perfdata_bpf_metadata *o = (const perfdata_bpf_metadata *)r;
        perfdata__em_padded(e, o->prog_name, 256);
        perfdata__em_u64(e, o->nr_entries);
        perfdata__em_bytes(e, o->entries.p, (size_t)o->nr_entries * 320); /* {key[64], value[256]} each */
        break;
    }
    case PERFDATA_RECORD_SCHEDSTAT_CPU:
    case PERFDATA_RECORD_SCHEDSTAT_DOMAIN: {
        const perfdata_schedstat *o = (const perfdata_schedstat *)r;
        perfdata__em_u64(e, o->timestamp);
        perfdata__em_u32(e, o->cpu);
        perfdata__em_u16(e, o->version);
        perfdata__em_u16(e, u->type == PERFDATA_RECORD_SCHEDSTAT_DOMAIN ? o->domain : 0);
        perfdata__em_u64s(e, &o->counters, o->counters.count);
        break;
    }
    default: break; /* FINISHED_ROUND, FINISHED_INIT: no body */
    }
}

/* Whether a struct's views hold what its counts say (and fit its fields). */
PERFDATA__PRIVATE int perfdata__user_views_ok(uint32_t type, const void *r) {
    switch (type) {
    case PERFDATA_RECORD_HEADER_EVENT_TYPE: return ((const perfdata_header_event_type *)r)->name.n <= 64;
    case PERFDATA_RECORD_HEADER_BUILD_ID: {
        const perfdata_build_id *o = (const perfdata_build_id *)r;
        return o->build_id.n <= 20 && o->filename.n < 4096;
    }
    case PERFDATA_RECORD_ID_INDEX: {
        const perfdata_id_index *o = (const perfdata_id_index *)r;
        return o->nr <= o->entries.n / 32 && (!o->machine.n || o->nr <= o->machine.n / 16);
    }
    case PERFDATA_RECORD_AUXTRACE_INFO: {
        const perfdata_auxtrace_info *o = (const perfdata_auxtrace_info *)r;
        return o->data.count <= o->data.bytes.n / 8;
    }
    case PERFDATA_RECORD_AUXTRACE_ERROR: return ((const perfdata_auxtrace_error *)r)->msg.n <= 64;
    case PERFDATA_RECORD_THREAD_MAP: {
        const perfdata_thread_map *o = (const perfdata_thread_map *)r;
        return o->nr <= o->entries.n / 24;
    }
    case PERFDATA_RECORD_CPU_MAP: {
        const perfdata_cpu_map *o = (const perfdata_cpu_map *)r;
        return o->encoding == PERFDATA_CPU_MAP_RANGE ||
               (o->encoding == PERFDATA_CPU_MAP_CPUS && o->nr <= o->data.n / 2) ||
               (o->encoding == PERFDATA_CPU_MAP_MASK && (o->long_size == 4 || o->long_size == 8) &&
                o->nr <= o->data.n / o->long_size);
    }
    case PERFDATA_RECORD_STAT_CONFIG: {
        const perfdata_stat_config *o = (const perfdata_stat_config *)r;
        return o->nr <= o->pairs.count / 2 && o->pairs.count <= o->pairs.bytes.n / 8;
    }
    case PERFDATA_RECORD_BPF_METADATA: {
        const perfdata_bpf_metadata *o = (const perfdata_bpf_metadata *)r;
        return o->prog_name.n < 256 && o->nr_entries <= o->entries.n / 320;
    }
    case PERFDATA_RECORD_EVENT_UPDATE: {
        const perfdata_event_update *o = (const perfdata_event_update *)r;
        return o->type != PERFDATA_EVENT_UPDATE_CPUS ? o->text.n < 0x10000 || o->type == PERFDATA_EVENT_UPDATE_SCALE
                                                     : perfdata__user_views_ok(PERFDATA_RECORD_CPU_MAP, &o->cpus);
    }
    default: return 1;
    }
}

PERFDATA_DEF perfdata_status perfdata_writer_user(perfdata_writer *w, uint32_t type, uint16_t misc, const void *record,
                                                  perfdata_error *err) {
    perfdata__user_out u;
    perfdata__em c, e;
    perfdata_view extra;
    perfdata_status st = perfdata__w_usable(w, 1, err);
    if (st != PERFDATA_OK) return st;
    if (type < PERFDATA_RECORD_HEADER_EVENT_TYPE || type > PERFDATA_RECORD_SCHEDSTAT_DOMAIN ||
        type == PERFDATA_RECORD_HEADER_FEATURE)
        return perfdata__fail(err, PERFDATA_ERR_UNSUPPORTED, w->priv.pos, type, PERFDATA__MSG("not a type perfdata_writer_user writes"));
    if ((!record && type != PERFDATA_RECORD_FINISHED_ROUND && type != PERFDATA_RECORD_FINISHED_INIT) ||
        (record && !perfdata__user_views_ok(type, record)))
        return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, w->priv.pos, type, PERFDATA__MSG("a record's counts exceed its views"));
    u.type = type;
    u.rec = record;
    if (type == PERFDATA_RECORD_HEADER_BUILD_ID) misc |= PERFDATA_MISC_BUILD_ID_SIZE; /* the size byte is written */
    extra.p = 0; extra.n = 0; extra.offset = 0;
    if (type == PERFDATA_RECORD_HEADER_TRACING_DATA) extra = ((const perfdata_tracing_data *)record)->data;
    if (type == PERFDATA_RECORD_AUXTRACE) extra = ((const perfdata_auxtrace *)record)->data;
    if (extra.n > 0xfffffff0u) return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, w->priv.pos, type, PERFDATA__MSG("data over 4 GiB"));
    c = perfdata__em_count(w->priv.big);
    perfdata__em_user(&c, &u);
    st = perfdata__w_fits(w, type, 8 + c.n, (extra.n + 7) / 8 * 8, err);
    if (st != PERFDATA_OK) return st;
    e = perfdata__em_into(w, 0, w->priv.big);
    perfdata__em_header(&e, type, misc, 8 + c.n);
    perfdata__em_user(&e, &u);
    if (type == PERFDATA_RECORD_HEADER_TRACING_DATA) { /* padded to 8, as its size says */
        perfdata__em_bytes(&e, extra.p, extra.n);
        perfdata__em_bytes(&e, 0, (8 - extra.n % 8) % 8);
    } else {
        perfdata__em_bytes(&e, extra.p, extra.n);
    }
    perfdata__w_flush(w);
    return perfdata__w_done(w, type, err);
}

PERFDATA_DEF perfdata_status perfdata_writer_finish(perfdata_writer *w, perfdata_error *err) {
    perfdata__em e;
    uint64_t data_size, at, total = 0;
    size_t i;
    perfdata_status st = perfdata__w_usable(w, 1, err);
    if (st != PERFDATA_OK) return st;
    if (PERFDATA__W_PIPE(w)) {
        w->priv.state = 2;
        return perfdata__ok(err);
    }
    for (i = 0; i < w->priv.nr_features; i++) total += 16 + (uint64_t)w->priv.features[i].n;
    st = perfdata__w_room(w, total, 0, err);
    if (st != PERFDATA_OK) return st;
    data_size = w->priv.pos - w->priv.data_offset;
    e = perfdata__em_into(w, 0, w->priv.big);
    at = w->priv.pos + 16 * (uint64_t)w->priv.nr_features;
    for (i = 0; i < w->priv.nr_features; i++) {
        perfdata__em_u64(&e, at);
        perfdata__em_u64(&e, w->priv.features[i].n);
        at += w->priv.features[i].n;
    }
    for (i = 0; i < w->priv.nr_features; i++) perfdata__em_bytes(&e, w->priv.features[i].bytes, w->priv.features[i].n);
    perfdata__w_flush(w);
    /* the header, now complete, over the zeros begin left */
    if (w->priv.buf) {
        perfdata__em h;
        uint64_t end = w->priv.pos;
        h = perfdata__em_into(w, 0, w->priv.big);
        w->priv.pos = 0;
        perfdata__em_file_header(&h, w, data_size);
        w->priv.pos = end;
    } else {
        perfdata__em h;
        unsigned char hdr[104];
        h = perfdata__em_into(0, hdr, w->priv.big);
        perfdata__em_file_header(&h, w, data_size);
        perfdata__w_sink(w, 0, hdr, sizeof hdr);
    }
    w->priv.state = 2;
    return perfdata__w_done(w, 0, err);
}

/* ------------------------------------------------ writer: feature sections */

/* Encodes by fn into out when the count fits cap. */
typedef void (*perfdata__em_feat)(perfdata__em *e, const void *what);

PERFDATA__PRIVATE perfdata_status perfdata__encode(void *out, size_t cap, int big, perfdata__em_feat fn,
                                                  const void *what, size_t *n, perfdata_error *err) {
    perfdata__em c = perfdata__em_count(big), e;
    fn(&c, what);
    if (n) *n = (size_t)c.n;
    if (c.n > cap || (!out && c.n)) {
        perfdata_status st = perfdata__fail(err, PERFDATA_ERR_NO_SPACE, 0, 0, PERFDATA__MSG("the feature's buffer is too small"));
        if (err) err->needed = c.n;
        return st;
    }
    e = perfdata__em_into(0, (unsigned char *)out, big);
    fn(&e, what);
    return perfdata__ok(err);
}

/* perf's do_write_string: a u32 length (the string, its NUL and zeros to a
   multiple of 64), then those bytes */
PERFDATA__PRIVATE void perfdata__em_feat_str(perfdata__em *e, const char *s) {
    size_t len = perfdata__strlen(s);
    perfdata__em_u32(e, (uint32_t)((len + 1 + 63) / 64 * 64));
    perfdata__em_string(e, (const unsigned char *)s, len, 64);
}
PERFDATA__PRIVATE void perfdata__em_feat_string(perfdata__em *e, const void *what) {
    perfdata__em_feat_str(e, (const char *)what);
}

PERFDATA_DEF perfdata_status perfdata_encode_feat_string(void *out, size_t cap, int big_endian, const char *text,
                                                         size_t *n, perfdata_error *err) {
    if (!text) return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, 0, 0, PERFDATA__MSG("no text"));
    return perfdata__encode(out, cap, big_endian, perfdata__em_feat_string, text, n, err);
}

typedef struct perfdata__strs { const char *const *list; size_t count; } perfdata__strs;
PERFDATA__PRIVATE void perfdata__em_feat_strings(perfdata__em *e, const void *what) {
    const perfdata__strs *s = (const perfdata__strs *)what;
    size_t i;
    perfdata__em_u32(e, (uint32_t)s->count);
    for (i = 0; i < s->count; i++) perfdata__em_feat_str(e, s->list[i] ? s->list[i] : "");
}

PERFDATA_DEF perfdata_status perfdata_encode_feat_strings(void *out, size_t cap, int big_endian,
                                                          const char *const *list, size_t count, size_t *n,
                                                          perfdata_error *err) {
    perfdata__strs s;
    if ((count && !list) || count > 0xffffffffu) return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, 0, 0, PERFDATA__MSG("no list"));
    s.list = list; s.count = count;
    return perfdata__encode(out, cap, big_endian, perfdata__em_feat_strings, &s, n, err);
}

PERFDATA__PRIVATE void perfdata__em_feat_u32x2(perfdata__em *e, const void *what) {
    const uint32_t *v = (const uint32_t *)what;
    perfdata__em_u32(e, v[0]);
    perfdata__em_u32(e, v[1]);
}

PERFDATA_DEF perfdata_status perfdata_encode_feat_nrcpus(void *out, size_t cap, int big_endian, uint32_t available,
                                                         uint32_t online, size_t *n, perfdata_error *err) {
    uint32_t v[2];
    v[0] = available; v[1] = online;
    return perfdata__encode(out, cap, big_endian, perfdata__em_feat_u32x2, v, n, err);
}

PERFDATA__PRIVATE void perfdata__em_feat_u64(perfdata__em *e, const void *what) {
    perfdata__em_u64(e, *(const uint64_t *)what);
}

PERFDATA_DEF perfdata_status perfdata_encode_feat_u64(void *out, size_t cap, int big_endian, uint64_t value,
                                                      size_t *n, perfdata_error *err) {
    return perfdata__encode(out, cap, big_endian, perfdata__em_feat_u64, &value, n, err);
}

typedef struct perfdata__descs {
    const perfdata_writer_event *events;
    const char *const *names;
    size_t count;
    uint32_t size;
} perfdata__descs;
PERFDATA__PRIVATE void perfdata__em_feat_event_desc(perfdata__em *e, const void *what) {
    const perfdata__descs *d = (const perfdata__descs *)what;
    size_t i, k;
    perfdata__em_u32(e, (uint32_t)d->count);
    perfdata__em_u32(e, d->size);
    for (i = 0; i < d->count; i++) {
        perfdata__em_attr(e, &d->events[i].attr, d->size);
        perfdata__em_u32(e, (uint32_t)d->events[i].nr_ids);
        perfdata__em_feat_str(e, d->names && d->names[i] ? d->names[i] : "");
        for (k = 0; k < d->events[i].nr_ids; k++) perfdata__em_u64(e, d->events[i].ids[k]);
    }
}

PERFDATA_DEF perfdata_status perfdata_encode_feat_event_desc(void *out, size_t cap, int big_endian,
                                                             const perfdata_writer_event *events,
                                                             const char *const *names, size_t count, size_t *n,
                                                             perfdata_error *err) {
    perfdata__descs d;
    size_t i;
    d.size = 0;
    if ((count && !events) || count > 0xffffffffu) return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, 0, 0, PERFDATA__MSG("no events"));
    for (i = 0; i < count; i++) {
        uint32_t s = perfdata__w_attr_size(&events[i].attr);
        if (!perfdata__attr_size_known(s) || (events[i].nr_ids && !events[i].ids) || events[i].nr_ids > 0xffffffffu)
            return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, 0, 0, PERFDATA__MSG("bad event"));
        if (s > d.size) d.size = s;
    }
    d.events = events; d.names = names; d.count = count;
    if (!d.size) d.size = PERFDATA_ATTR_SIZE_VER7;
    return perfdata__encode(out, cap, big_endian, perfdata__em_feat_event_desc, &d, n, err);
}

typedef struct perfdata__bid {
    int32_t pid; uint16_t misc; const unsigned char *id; size_t size; const char *path;
} perfdata__bid;
PERFDATA__PRIVATE void perfdata__em_build_id(perfdata__em *e, const void *what) {
    const perfdata__bid *b = (const perfdata__bid *)what;
    size_t len = perfdata__strlen(b->path), padded = (len + 1 + 63) / 64 * 64;
    perfdata__em_header(e, PERFDATA_RECORD_HEADER_BUILD_ID, (uint16_t)(b->misc | PERFDATA_MISC_BUILD_ID_SIZE), 36 + padded);
    perfdata__em_u32(e, (uint32_t)b->pid);
    perfdata__em_bytes(e, b->id, b->size);
    perfdata__em_bytes(e, 0, 20 - b->size);
    perfdata__em_u8(e, (unsigned)b->size);
    perfdata__em_bytes(e, 0, 3);
    perfdata__em_string(e, (const unsigned char *)b->path, len, 64);
}

PERFDATA_DEF perfdata_status perfdata_encode_build_id(void *out, size_t cap, int big_endian, int32_t pid,
                                                      uint16_t misc, const void *build_id, size_t build_id_size,
                                                      const char *path, size_t *n, perfdata_error *err) {
    perfdata__bid b;
    if (build_id_size > 20 || (build_id_size && !build_id) || !path || perfdata__strlen(path) > 4096)
        return perfdata__fail(err, PERFDATA_ERR_BAD_ARGUMENT, 0, 0, PERFDATA__MSG("bad build id or path"));
    b.pid = pid; b.misc = misc; b.id = (const unsigned char *)build_id; b.size = build_id_size; b.path = path;
    return perfdata__encode(out, cap, big_endian, perfdata__em_build_id, &b, n, err);
}

/* ======================================================================= */
/* zstd: a self-contained zstd decoder (RFC 8878)                           */
/* ======================================================================= */
/* The implementation of the declarations under the same banner above:
   compiled only with PERFDATA_ZSTD, it uses nothing from the rest of the
   header but the error helpers perfdata__fail and perfdata__ok. Internally every step returns an int:
   0, a positive PERFDATA__Z_* progress code, or a negative PERFDATA_ZSTD_E_*
   detail; the public functions turn those into a perfdata_status at their
   boundary (perfdata__z_fail), once per call, never per block.

   Contents:
     zstd: errors            detail -> status, texts, perfdata_zstd_error_name
     zstd: bytes             loads and copies
     zstd: XXH64             content checksums
     zstd: bit reader        the backward bit stream of FSE and Huffman data
     zstd: FSE               table descriptions and decoding tables
     zstd: sequence tables   literal length, offset and match length codes
     zstd: Huffman           literal weights, tables, 1 and 4 streams
     zstd: literals          the literals section of a block
     zstd: sequences         the sequences section: matches and literals out
     zstd: blocks            raw, RLE and compressed blocks
     zstd: frame headers     perfdata_zstd_get_frame_info, window sizes
     zstd: one shot          perfdata_zstd_decompress
     zstd: streaming         perfdata_zstd_dctx_init, perfdata_zstd_decompress_stream
     zstd: perf.data chunks  perfdata_zstd_chunk */
#ifdef PERFDATA_ZSTD
#if defined(__GNUC__) || defined(__clang__)
#define PERFDATA__Z_INLINE static inline __attribute__((always_inline))
#else
#define PERFDATA__Z_INLINE static inline
#endif

/* ----------------------------------------------------------- zstd: errors */
/* progress codes of the internal steps (>= 0; errors are the E_* < 0) */
#define PERFDATA__Z_NEED_INPUT 1  /* the input ends before the unit does */
#define PERFDATA__Z_OUTPUT_FULL 2 /* streaming: out is full */

/* status and text of each detail, indexed by -detail (0: none) */
static const unsigned char perfdata__z_status[17] = {
    PERFDATA_OK,
    PERFDATA_ERR_BAD_ARGUMENT, /* E_PARAM */
    PERFDATA_ERR_MALFORMED,    /* E_BAD_MAGIC */
    PERFDATA_ERR_MALFORMED,    /* E_HEADER */
    PERFDATA_ERR_UNSUPPORTED,  /* E_DICTIONARY */
    PERFDATA_ERR_LIMIT,        /* E_WINDOW_TOO_LARGE */
    PERFDATA_ERR_MALFORMED,    /* E_BLOCK */
    PERFDATA_ERR_MALFORMED,    /* E_LITERALS */
    PERFDATA_ERR_MALFORMED,    /* E_HUFFMAN */
    PERFDATA_ERR_MALFORMED,    /* E_FSE */
    PERFDATA_ERR_MALFORMED,    /* E_SEQUENCES */
    PERFDATA_ERR_MALFORMED,    /* E_OFFSET */
    PERFDATA_ERR_NO_SPACE,     /* E_DST_TOO_SMALL */
    PERFDATA_ERR_MALFORMED,    /* E_CHECKSUM */
    PERFDATA_ERR_TRUNCATED,    /* E_TRUNCATED */
    PERFDATA_ERR_MALFORMED,    /* E_CONTENT_SIZE */
    PERFDATA_ERR_BAD_ARGUMENT  /* E_WORKSPACE */
};
static const char *const perfdata__z_text[17] = {
    "ok",
    "bad parameter",
    "unknown frame magic",
    "bad frame header",
    "dictionary required (unsupported)",
    "window too large",
    "bad block",
    "bad literals section",
    "bad huffman data",
    "bad FSE table",
    "bad sequences",
    "offset out of range",
    "destination too small",
    "checksum mismatch",
    "truncated input",
    "content size mismatch",
    "workspace too small"
};

PERFDATA_DEF const char *perfdata_zstd_error_name(int detail) {
    return detail <= 0 && detail >= -16 ? perfdata__z_text[-detail] : "unknown";
}

/* Fills *err for a detail (< 0) and returns its status. */
static perfdata_status perfdata__z_fail(perfdata_error *err, int detail, uint64_t offset, uint64_t needed) {
    perfdata_status st = (perfdata_status)perfdata__z_status[-detail];
#ifdef PERFDATA_NO_ERROR_STRINGS
    perfdata__fail(err, st, offset, 0, "");
#else
    perfdata__fail(err, st, offset, 0, perfdata__z_text[-detail]);
#endif
    if (err) {
        err->detail = detail;
        err->needed = needed;
    }
    return st;
}

/* ------------------------------------------------------------ zstd: bytes */

static uint32_t perfdata__z_le16(const uint8_t *p) { return (uint32_t)p[0] | ((uint32_t)p[1] << 8); }
static uint32_t perfdata__z_le24(const uint8_t *p) { return perfdata__z_le16(p) | ((uint32_t)p[2] << 16); }
static uint32_t perfdata__z_le32(const uint8_t *p) { return perfdata__z_le24(p) | ((uint32_t)p[3] << 24); }
PERFDATA__Z_INLINE uint64_t perfdata__z_le64(const uint8_t *p) {
    return (uint64_t)p[0] | ((uint64_t)p[1] << 8) | ((uint64_t)p[2] << 16) | ((uint64_t)p[3] << 24) |
           ((uint64_t)p[4] << 32) | ((uint64_t)p[5] << 40) | ((uint64_t)p[6] << 48) | ((uint64_t)p[7] << 56);
}

/* __builtin_clz only where it is one instruction: on ARMv6-M (no CLZ) it
   would call the runtime's __clzsi2, a helper bare-metal users must supply. */
#if (defined(__GNUC__) || defined(__clang__)) && (!defined(__arm__) || defined(__ARM_FEATURE_CLZ))
static unsigned perfdata__z_highbit(uint32_t v) { return 31u - (unsigned)__builtin_clz(v); } /* v > 0 */
#else
static unsigned perfdata__z_highbit(uint32_t v) { unsigned r = 0; while (v >>= 1) r++; return r; }
#endif

PERFDATA__Z_INLINE void perfdata__z_copy16(uint8_t *d, const uint8_t *s) {
    uint8_t t[16];
    unsigned k;
    for (k = 0; k < 16; k++) t[k] = s[k];
    for (k = 0; k < 16; k++) d[k] = t[k];
}

/* Forward copy; also correct for overlapping buffers when d < s (memmove-forward). */
static void perfdata__z_copy(uint8_t *d, const uint8_t *s, size_t n) {
    while (n >= 16) { perfdata__z_copy16(d, s); d += 16; s += 16; n -= 16; }
    while (n) { *d++ = *s++; n--; }
}

/* Copies n rounded up to a multiple of 16: caller guarantees the slack on both sides,
 * and that s + 16 <= d or the regions do not overlap. */
PERFDATA__Z_INLINE void perfdata__z_wildcopy(uint8_t *d, const uint8_t *s, size_t n) {
    do { perfdata__z_copy16(d, s); d += 16; s += 16; } while (n > 16 && (n -= 16));
}

static void perfdata__z_fill(uint8_t *d, uint8_t v, size_t n) { while (n) { *d++ = v; n--; } }

/* Copy a match of n bytes at distance off (off <= bytes available behind d). */
static void perfdata__z_match(uint8_t *d, size_t off, size_t n) {
    if (off < 8) {
        size_t k;
        const uint8_t *sp = d - off;
        if (n <= 16) { for (k = 0; k < n; k++) d[k] = sp[k]; return; }
        for (k = 0; k < 16; k++) d[k] = sp[k];
        d += 16; n -= 16;
        off = off * ((8 + off - 1) / off); /* same period, now >= 8 and <= 14 < 16 */
    }
    while (n >= 8) { /* chunks of 8 never overlap since off >= 8 */
        uint8_t t[8];
        const uint8_t *sp = d - off;
        unsigned k;
        for (k = 0; k < 8; k++) t[k] = sp[k];
        for (k = 0; k < 8; k++) d[k] = t[k];
        d += 8; n -= 8;
    }
    while (n) { *d = *(d - off); d++; n--; }
}

/* ------------------------------------------------------------ zstd: XXH64 */
#define PERFDATA__Z_P1 0x9E3779B185EBCA87ULL
#define PERFDATA__Z_P2 0xC2B2AE3D27D4EB4FULL
#define PERFDATA__Z_P3 0x165667B19E3779F9ULL
#define PERFDATA__Z_P4 0x85EBCA77C2B2AE63ULL
#define PERFDATA__Z_P5 0x27D4EB2F165667C5ULL

PERFDATA__Z_INLINE uint64_t perfdata__z_rotl(uint64_t x, unsigned r) { return (x << r) | (x >> (64 - r)); }
PERFDATA__Z_INLINE uint64_t perfdata__z_xround(uint64_t acc, uint64_t in) { acc += in * PERFDATA__Z_P2; acc = perfdata__z_rotl(acc, 31); return acc * PERFDATA__Z_P1; }
static uint64_t perfdata__z_xmerge(uint64_t acc, uint64_t v) { acc ^= perfdata__z_xround(0, v); return acc * PERFDATA__Z_P1 + PERFDATA__Z_P4; }

static void perfdata__z_xxh_init(perfdata_zstd__xxh64 *s) {
    s->v[0] = PERFDATA__Z_P1 + PERFDATA__Z_P2; s->v[1] = PERFDATA__Z_P2; s->v[2] = 0; s->v[3] = 0 - PERFDATA__Z_P1;
    s->total = 0; s->memsize = 0;
}

static void perfdata__z_xxh_update(perfdata_zstd__xxh64 *s, const uint8_t *p, size_t n) {
    uint64_t v0, v1, v2, v3;
    s->total += n;
    if (n < 32 - (size_t)s->memsize) { perfdata__z_copy(s->mem + s->memsize, p, n); s->memsize += (uint32_t)n; return; }
    v0 = s->v[0]; v1 = s->v[1]; v2 = s->v[2]; v3 = s->v[3];
    if (s->memsize) {
        size_t k = 32 - s->memsize;
        perfdata__z_copy(s->mem + s->memsize, p, k);
        p += k; n -= k;
        v0 = perfdata__z_xround(v0, perfdata__z_le64(s->mem)); v1 = perfdata__z_xround(v1, perfdata__z_le64(s->mem + 8));
        v2 = perfdata__z_xround(v2, perfdata__z_le64(s->mem + 16)); v3 = perfdata__z_xround(v3, perfdata__z_le64(s->mem + 24));
        s->memsize = 0;
    }
    while (n >= 32) {
        v0 = perfdata__z_xround(v0, perfdata__z_le64(p)); v1 = perfdata__z_xround(v1, perfdata__z_le64(p + 8));
        v2 = perfdata__z_xround(v2, perfdata__z_le64(p + 16)); v3 = perfdata__z_xround(v3, perfdata__z_le64(p + 24));
        p += 32; n -= 32;
    }
    s->v[0] = v0; s->v[1] = v1; s->v[2] = v2; s->v[3] = v3;
    perfdata__z_copy(s->mem, p, n); s->memsize = (uint32_t)n;
}

static uint64_t perfdata__z_xxh_digest(const perfdata_zstd__xxh64 *s) {
    uint64_t h;
    const uint8_t *p = s->mem;
    size_t n = s->memsize;
    if (s->total >= 32) {
        h = perfdata__z_rotl(s->v[0], 1) + perfdata__z_rotl(s->v[1], 7) + perfdata__z_rotl(s->v[2], 12) + perfdata__z_rotl(s->v[3], 18);
        h = perfdata__z_xmerge(h, s->v[0]); h = perfdata__z_xmerge(h, s->v[1]); h = perfdata__z_xmerge(h, s->v[2]); h = perfdata__z_xmerge(h, s->v[3]);
    } else {
        h = s->v[2] + PERFDATA__Z_P5;
    }
    h += s->total;
    while (n >= 8) { h ^= perfdata__z_xround(0, perfdata__z_le64(p)); h = perfdata__z_rotl(h, 27) * PERFDATA__Z_P1 + PERFDATA__Z_P4; p += 8; n -= 8; }
    if (n >= 4) { h ^= (uint64_t)perfdata__z_le32(p) * PERFDATA__Z_P1; h = perfdata__z_rotl(h, 23) * PERFDATA__Z_P2 + PERFDATA__Z_P3; p += 4; n -= 4; }
    while (n) { h ^= (uint64_t)*p * PERFDATA__Z_P5; h = perfdata__z_rotl(h, 11) * PERFDATA__Z_P1; p++; n--; }
    h ^= h >> 33; h *= PERFDATA__Z_P2; h ^= h >> 29; h *= PERFDATA__Z_P3; h ^= h >> 32;
    return h;
}

PERFDATA_DEF uint64_t perfdata_zstd_xxh64(const void *data, size_t size) {
    perfdata_zstd__xxh64 s;
    perfdata__z_xxh_init(&s);
    perfdata__z_xxh_update(&s, (const uint8_t *)data, size);
    return perfdata__z_xxh_digest(&s);
}

/* ------------------------------------------------------- zstd: bit reader */
typedef struct { uint64_t c; unsigned used; const uint8_t *start, *p; } perfdata__z_br;

static int perfdata__z_br_init(perfdata__z_br *b, const uint8_t *src, size_t n) {
    uint8_t last;
    if (n == 0) return -1;
    last = src[n - 1];
    if (last == 0) return -1;
    b->start = src;
    if (n >= 8) {
        b->p = src + (n - 8);
        b->c = perfdata__z_le64(b->p);
        b->used = 8 - perfdata__z_highbit(last);
    } else {
        size_t i;
        b->p = src;
        b->c = 0;
        for (i = 0; i < n; i++) b->c |= (uint64_t)src[i] << (8 * i);
        b->used = 8 - perfdata__z_highbit(last) + (unsigned)(8 - n) * 8;
    }
    return 0;
}

PERFDATA__Z_INLINE uint64_t perfdata__z_br_look(const perfdata__z_br *b, unsigned n) { return ((b->c << (b->used & 63)) >> 1) >> (63 - n); }
PERFDATA__Z_INLINE uint32_t perfdata__z_br_read(perfdata__z_br *b, unsigned n) { uint32_t v = (uint32_t)perfdata__z_br_look(b, n); b->used += n; return v; }
/* 0: refilled (>= 57 bits available), 1: at/near the start, 2: overflow */
PERFDATA__Z_INLINE int perfdata__z_br_reload(perfdata__z_br *b) {
    if (b->used > 64) return 2;
    if ((size_t)(b->p - b->start) >= 8) {
        b->p -= b->used >> 3;
        b->used &= 7;
        b->c = perfdata__z_le64(b->p);
        return 0;
    }
    if (b->p == b->start) return 1;
    {
        size_t nb = b->used >> 3, avail = (size_t)(b->p - b->start);
        if (nb > avail) nb = avail;
        b->p -= nb;
        b->used -= (unsigned)nb * 8;
        b->c = perfdata__z_le64(b->p);
    }
    return 1;
}
static int perfdata__z_br_done(const perfdata__z_br *b) { return b->p == b->start && b->used == 64; }

/* -------------------------------------------------------------- zstd: FSE */
typedef struct { uint16_t base; uint8_t sym; uint8_t nb; } perfdata__z_fse;

static uint32_t perfdata__z_fwd_peek(const uint8_t *s, size_t n, size_t bitpos) {
    uint32_t v = 0;
    size_t i = bitpos >> 3;
    unsigned k;
    for (k = 0; k < 4; k++)
        if (i < n && n - i > k) v |= (uint32_t)s[i + k] << (8 * k);
    return v >> (bitpos & 7);
}

/* Reads an FSE table description. Returns bytes used, 0 on error. */
static size_t perfdata__z_read_ncount(int16_t *norm, unsigned maxsym, unsigned maxlog, unsigned *log_out,
                              const uint8_t *s, size_t n) {
    size_t bp = 4, nbits_total;
    int remaining, threshold, prev0 = 0;
    unsigned nbits, sym = 0, log;
    if (n == 0) return 0;
    nbits_total = n * 8;
    log = (perfdata__z_fwd_peek(s, n, 0) & 15) + 5;
    if (log > maxlog) return 0;
    remaining = (1 << log) + 1;
    threshold = 1 << log;
    nbits = log + 1;
    while (remaining > 1) {
        if (bp > nbits_total) return 0;
        if (prev0) {
            for (;;) {
                unsigned r = perfdata__z_fwd_peek(s, n, bp) & 3, i;
                bp += 2;
                if (r > maxsym + 1 - sym) return 0;
                for (i = 0; i < r; i++) norm[sym++] = 0;
                if (r != 3) break;
                if (bp > nbits_total) return 0;
            }
        }
        if (sym > maxsym) return 0;
        {
            int max = 2 * threshold - 1 - remaining, count;
            uint32_t v = perfdata__z_fwd_peek(s, n, bp);
            if ((int)(v & (uint32_t)(threshold - 1)) < max) {
                count = (int)(v & (uint32_t)(threshold - 1));
                bp += nbits - 1;
            } else {
                count = (int)(v & (uint32_t)(2 * threshold - 1));
                if (count >= threshold) count -= max;
                bp += nbits;
            }
            count--;
            remaining -= count < 0 ? -count : count;
            norm[sym++] = (int16_t)count;
            prev0 = count == 0;
            while (remaining < threshold && threshold > 1) { nbits--; threshold >>= 1; }
        }
    }
    if (remaining != 1 || bp > nbits_total) return 0;
    for (; sym <= maxsym; sym++) norm[sym] = 0;
    *log_out = log;
    return (bp + 7) >> 3;
}

static int perfdata__z_fse_build(perfdata__z_fse *t, const int16_t *norm, unsigned maxsym, unsigned log) {
    uint32_t size = 1u << log, mask = size - 1, step = (size >> 1) + (size >> 3) + 3, pos = 0, u;
    int hi = (int)size - 1, i;
    unsigned s;
    uint16_t next[256];
    for (s = 0; s <= maxsym; s++) {
        if (norm[s] == -1) {
            if (hi < 0) return -1;
            t[hi--].sym = (uint8_t)s;
            next[s] = 1;
        } else if (norm[s] < -1) {
            return -1;
        } else {
            next[s] = (uint16_t)norm[s];
        }
    }
    for (s = 0; s <= maxsym; s++) {
        for (i = 0; i < norm[s]; i++) {
            if (hi < 0) return -1;
            t[pos].sym = (uint8_t)s;
            do pos = (pos + step) & mask; while ((int)pos > hi);
        }
    }
    if (pos != 0) return -1;
    for (u = 0; u < size; u++) {
        uint32_t x = next[t[u].sym]++;
        unsigned nb;
        if (x == 0) return -1;
        nb = log - perfdata__z_highbit(x);
        t[u].nb = (uint8_t)nb;
        t[u].base = (uint16_t)((x << nb) - size);
    }
    return 0;
}

/* -------------------------------------------------- zstd: sequence tables */
static const uint32_t perfdata__z_ll_base[36] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 22, 24, 28, 32, 40,
                                         48, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536};
static const uint8_t perfdata__z_ll_bits[36] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1,
                                        1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static const uint32_t perfdata__z_ml_base[53] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                                         21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 37, 39, 41,
                                         43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051, 4099, 8195, 16387, 32771, 65539};
static const uint8_t perfdata__z_ml_bits[53] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                        0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static const int16_t perfdata__z_ll_def[36] = {4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2,
                                       2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1};
static const int16_t perfdata__z_ml_def[53] = {1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                       1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1};
static const int16_t perfdata__z_of_def[29] = {1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1};

static void perfdata__z_seq_entry(perfdata_zstd__seq_entry *e, int kind, unsigned sym) {
    if (kind == 0) { e->xbits = perfdata__z_ll_bits[sym]; e->base = perfdata__z_ll_base[sym]; }
    else if (kind == 1) { e->xbits = (uint8_t)sym; e->base = (uint32_t)1 << sym; }
    else { e->xbits = perfdata__z_ml_bits[sym]; e->base = perfdata__z_ml_base[sym]; }
}

/* kind: 0 LL, 1 OF, 2 ML. Returns bytes used (>= 0) or -1. */
static long perfdata__z_seq_table(perfdata_zstd__seq_entry *dt, unsigned *log_out, int *valid, int kind, unsigned mode,
                          const uint8_t *s, size_t n) {
    static const unsigned maxsym_tab[3] = {35, 31, 52}, maxlog_tab[3] = {9, 8, 9};
    unsigned maxsym = maxsym_tab[kind], log = 0, u;
    int16_t norm[64];
    perfdata__z_fse t[512];
    size_t used = 0;
    if (mode == 3) return *valid ? 0 : -1;
    if (mode == 1) {
        if (n < 1 || s[0] > maxsym) return -1;
        dt[0].next = 0; dt[0].nbits = 0;
        perfdata__z_seq_entry(&dt[0], kind, s[0]);
        *log_out = 0; *valid = 1;
        return 1;
    }
    if (mode == 0) {
        const int16_t *d = kind == 0 ? perfdata__z_ll_def : kind == 1 ? perfdata__z_of_def : perfdata__z_ml_def;
        unsigned cnt = kind == 0 ? 36 : kind == 1 ? 29 : 53;
        for (u = 0; u < cnt; u++) norm[u] = d[u];
        maxsym = cnt - 1;
        log = kind == 1 ? 5 : 6;
    } else {
        used = perfdata__z_read_ncount(norm, maxsym, maxlog_tab[kind], &log, s, n);
        if (!used) return -1;
    }
    if (perfdata__z_fse_build(t, norm, maxsym, log)) return -1;
    for (u = 0; u < (1u << log); u++) {
        dt[u].next = t[u].base;
        dt[u].nbits = t[u].nb;
        perfdata__z_seq_entry(&dt[u], kind, t[u].sym);
    }
    *log_out = log;
    *valid = 1;
    return (long)used;
}

/* ---------------------------------------------------------- zstd: Huffman */
static size_t perfdata__z_huf_read(perfdata_zstd__state *c, const uint8_t *s, size_t n) {
    uint8_t w[256];
    unsigned nw = 0, i, h, maxbits, last, wt;
    uint32_t total = 0, rest, start[13], cnt[13];
    size_t used;
    if (n < 1) return 0;
    h = s[0];
    if (h >= 128) {
        nw = h - 127;
        used = 1 + (nw + 1) / 2;
        if (used > n) return 0;
        for (i = 0; i < nw; i++) w[i] = (uint8_t)((i & 1) ? (s[1 + i / 2] & 15) : (s[1 + i / 2] >> 4));
    } else {
        int16_t norm[256];
        perfdata__z_fse t[64];
        unsigned log;
        size_t hs;
        perfdata__z_br b;
        uint32_t s1, s2;
        if (h == 0 || h > n - 1) return 0;
        used = 1 + (size_t)h;
        hs = perfdata__z_read_ncount(norm, 255, 6, &log, s + 1, h);
        if (!hs || hs > h) return 0;
        if (perfdata__z_fse_build(t, norm, 255, log)) return 0;
        if (perfdata__z_br_init(&b, s + 1 + hs, h - hs)) return 0;
        s1 = perfdata__z_br_read(&b, log);
        s2 = perfdata__z_br_read(&b, log);
        perfdata__z_br_reload(&b);
        for (;;) {
            if (nw > 253) return 0;
            w[nw++] = t[s1].sym;
            s1 = t[s1].base + perfdata__z_br_read(&b, t[s1].nb);
            if (perfdata__z_br_reload(&b) == 2) { w[nw++] = t[s2].sym; break; }
            if (nw > 253) return 0;
            w[nw++] = t[s2].sym;
            s2 = t[s2].base + perfdata__z_br_read(&b, t[s2].nb);
            if (perfdata__z_br_reload(&b) == 2) { w[nw++] = t[s1].sym; break; }
        }
    }
    for (i = 0; i < nw; i++) {
        if (w[i] > 11) return 0;
        if (w[i]) total += (uint32_t)1 << (w[i] - 1);
    }
    if (total == 0) return 0;
    maxbits = perfdata__z_highbit(total) + 1;
    if (maxbits > 11) return 0;
    rest = ((uint32_t)1 << maxbits) - total;
    if (rest & (rest - 1)) return 0;
    last = perfdata__z_highbit(rest) + 1;
    w[nw++] = (uint8_t)last;
    for (i = 0; i < 13; i++) cnt[i] = 0;
    for (i = 0; i < nw; i++) cnt[w[i]]++;
    start[1] = 0;
    for (wt = 1; wt < 12; wt++) start[wt + 1] = start[wt] + (cnt[wt] << (wt - 1));
    if (start[12] != ((uint32_t)1 << maxbits)) return 0;
    for (i = 0; i < nw; i++) {
        wt = w[i];
        if (wt) {
            uint32_t len = (uint32_t)1 << (wt - 1), p = start[wt], k;
            uint8_t nb = (uint8_t)(maxbits + 1 - wt);
            start[wt] += len;
            for (k = 0; k < len; k++) { c->huf[p + k].sym = (uint8_t)i; c->huf[p + k].nbits = nb; }
        }
    }
    c->huf_log = maxbits;
    c->huf_ok = 1;
    return used;
}

#define PERFDATA__Z_HUF1(bp, dst)                                                  \
    do {                                                                   \
        perfdata_zstd__huf_entry e_ = t[perfdata__z_br_look((bp), lg)];                  \
        (dst) = e_.sym;                                                    \
        (bp)->used += e_.nbits;                                            \
    } while (0)

/* Decode n symbols from an initialized stream, then require exact consumption. */
static int perfdata__z_huf_finish(const perfdata_zstd__state *c, perfdata__z_br *b, uint8_t *d, size_t n) {
    const perfdata_zstd__huf_entry *t = c->huf;
    unsigned lg = c->huf_log;
    size_t i = 0;
    while (n - i >= 4 && perfdata__z_br_reload(b) == 0) {
        PERFDATA__Z_HUF1(b, d[i]); PERFDATA__Z_HUF1(b, d[i + 1]); PERFDATA__Z_HUF1(b, d[i + 2]); PERFDATA__Z_HUF1(b, d[i + 3]);
        i += 4;
    }
    while (i < n) {
        perfdata__z_br_reload(b);
        PERFDATA__Z_HUF1(b, d[i]);
        i++;
    }
    perfdata__z_br_reload(b);
    return perfdata__z_br_done(b) ? 0 : -1;
}

static int perfdata__z_huf_stream(const perfdata_zstd__state *c, uint8_t *d, size_t n, const uint8_t *s, size_t sn) {
    perfdata__z_br b;
    if (perfdata__z_br_init(&b, s, sn)) return -1;
    return perfdata__z_huf_finish(c, &b, d, n);
}

/* Four streams decoded in lockstep (segment sizes seg, seg, seg, last <= seg). */
static int perfdata__z_huf_4(const perfdata_zstd__state *c, uint8_t *d, size_t seg, size_t last, const uint8_t *p, const size_t *sz) {
    const perfdata_zstd__huf_entry *t = c->huf;
    unsigned lg = c->huf_log, k;
    perfdata__z_br b0, b1, b2, b3;
    uint8_t *o0 = d, *o1 = d + seg, *o2 = d + 2 * seg, *o3 = d + 3 * seg;
    size_t i = 0;
    if (perfdata__z_br_init(&b0, p, sz[0]) || perfdata__z_br_init(&b1, p + sz[0], sz[1]) ||
        perfdata__z_br_init(&b2, p + sz[0] + sz[1], sz[2]) || perfdata__z_br_init(&b3, p + sz[0] + sz[1] + sz[2], sz[3]))
        return -1;
    while (last - i >= 4) {
        int r0 = perfdata__z_br_reload(&b0), r1 = perfdata__z_br_reload(&b1), r2 = perfdata__z_br_reload(&b2), r3 = perfdata__z_br_reload(&b3);
        if (r0 | r1 | r2 | r3) break;
        for (k = 0; k < 4; k++) {
            PERFDATA__Z_HUF1(&b0, o0[i + k]); PERFDATA__Z_HUF1(&b1, o1[i + k]); PERFDATA__Z_HUF1(&b2, o2[i + k]); PERFDATA__Z_HUF1(&b3, o3[i + k]);
        }
        i += 4;
    }
    if (perfdata__z_huf_finish(c, &b0, o0 + i, seg - i) || perfdata__z_huf_finish(c, &b1, o1 + i, seg - i) ||
        perfdata__z_huf_finish(c, &b2, o2 + i, seg - i) || perfdata__z_huf_finish(c, &b3, o3 + i, last - i))
        return -1;
    return 0;
}

/* --------------------------------------------------------- zstd: literals */
static int perfdata__z_literals(perfdata_zstd__state *c, const uint8_t *s, size_t n, const uint8_t **lit, size_t *litn,
                        size_t *used) {
    unsigned type, sf;
    size_t hs, size;
    if (n < 1) return PERFDATA_ZSTD_E_LITERALS;
    type = s[0] & 3;
    sf = (s[0] >> 2) & 3;
    if (type <= 1) {
        if (sf == 0 || sf == 2) { hs = 1; size = s[0] >> 3; }
        else if (sf == 1) { if (n < 2) return PERFDATA_ZSTD_E_LITERALS; hs = 2; size = (s[0] >> 4) + ((size_t)s[1] << 4); }
        else { if (n < 3) return PERFDATA_ZSTD_E_LITERALS; hs = 3; size = (s[0] >> 4) + ((size_t)s[1] << 4) + ((size_t)s[2] << 12); }
        if (size > c->block_max) return PERFDATA_ZSTD_E_LITERALS;
        if (type == 0) {
            if (size > n - hs) return PERFDATA_ZSTD_E_LITERALS;
            perfdata__z_copy(c->lit, s + hs, size);
            *lit = c->lit;
            *used = hs + size;
        } else {
            if (n - hs < 1) return PERFDATA_ZSTD_E_LITERALS;
            perfdata__z_fill(c->lit, s[hs], size);
            *lit = c->lit;
            *used = hs + 1;
        }
        *litn = size;
        return 0;
    } else {
        size_t regen, comp, cn;
        const uint8_t *p;
        if (sf <= 1) {
            uint32_t v;
            if (n < 3) return PERFDATA_ZSTD_E_LITERALS;
            v = perfdata__z_le24(s); hs = 3; regen = (v >> 4) & 0x3FF; comp = (v >> 14) & 0x3FF;
        } else if (sf == 2) {
            uint32_t v;
            if (n < 4) return PERFDATA_ZSTD_E_LITERALS;
            v = perfdata__z_le32(s); hs = 4; regen = (v >> 4) & 0x3FFF; comp = v >> 18;
        } else {
            uint64_t v;
            if (n < 5) return PERFDATA_ZSTD_E_LITERALS;
            v = perfdata__z_le32(s) | ((uint64_t)s[4] << 32); hs = 5;
            regen = (size_t)((v >> 4) & 0x3FFFF); comp = (size_t)((v >> 22) & 0x3FFFF);
        }
        if (regen > c->block_max) return PERFDATA_ZSTD_E_LITERALS;
        if (comp > n - hs) return PERFDATA_ZSTD_E_LITERALS;
        p = s + hs;
        cn = comp;
        if (type == 2) {
            size_t k = perfdata__z_huf_read(c, p, cn);
            if (!k) return PERFDATA_ZSTD_E_HUFFMAN;
            p += k; cn -= k;
        } else if (!c->huf_ok) {
            return PERFDATA_ZSTD_E_HUFFMAN;
        }
        if (sf == 0) {
            if (perfdata__z_huf_stream(c, c->lit, regen, p, cn)) return PERFDATA_ZSTD_E_HUFFMAN;
        } else {
            size_t s1, s2, s3, s4, seg, last;
            if (cn < 6) return PERFDATA_ZSTD_E_HUFFMAN;
            s1 = perfdata__z_le16(p); s2 = perfdata__z_le16(p + 2); s3 = perfdata__z_le16(p + 4);
            if (s1 + s2 + s3 > cn - 6) return PERFDATA_ZSTD_E_HUFFMAN;
            s4 = cn - 6 - s1 - s2 - s3;
            seg = (regen + 3) / 4;
            if (3 * seg > regen) return PERFDATA_ZSTD_E_HUFFMAN;
            last = regen - 3 * seg;
            p += 6;
            {
                size_t sz[4];
                sz[0] = s1; sz[1] = s2; sz[2] = s3; sz[3] = s4;
                if (perfdata__z_huf_4(c, c->lit, seg, last, p, sz)) return PERFDATA_ZSTD_E_HUFFMAN;
            }
        }
        *lit = c->lit;
        *litn = regen;
        *used = hs + comp;
        return 0;
    }
}

/* -------------------------------------------------------- zstd: sequences */
/* Output goes to base[pos..cap); base[lo..pos) is history of this frame. */
static int perfdata__z_sequences(perfdata_zstd__state *c, const uint8_t *s, size_t n, const uint8_t *lit, size_t litn,
                         uint8_t *base, size_t lo, size_t pos, size_t cap, size_t *produced) {
    size_t nseq, hs, p, i;
    unsigned modes;
    long k;
    perfdata__z_br b;
    uint8_t *op = base + pos, *const oend = base + cap, *const hstart = base + lo;
    const uint8_t *lp = lit, *const lend = lit + litn;
    uint32_t llst, ofst, mlst;
    size_t r0, r1, r2;
    if (n < 1) return PERFDATA_ZSTD_E_SEQUENCES;
    if (s[0] < 128) { nseq = s[0]; hs = 1; }
    else if (s[0] < 255) { if (n < 2) return PERFDATA_ZSTD_E_SEQUENCES; nseq = ((size_t)(s[0] - 128) << 8) + s[1]; hs = 2; }
    else { if (n < 3) return PERFDATA_ZSTD_E_SEQUENCES; nseq = s[1] + ((size_t)s[2] << 8) + 0x7F00; hs = 3; }
    if (nseq == 0) {
        if (hs != n) return PERFDATA_ZSTD_E_SEQUENCES;
        if (litn > cap - pos) return PERFDATA_ZSTD_E_DST_TOO_SMALL;
        perfdata__z_copy(op, lit, litn);
        *produced = litn;
        return 0;
    }
    if (n - hs < 1) return PERFDATA_ZSTD_E_SEQUENCES;
    modes = s[hs];
    if (modes & 3) return PERFDATA_ZSTD_E_SEQUENCES;
    p = hs + 1;
    k = perfdata__z_seq_table(c->ll, &c->ll_log, &c->ll_ok, 0, modes >> 6, s + p, n - p);
    if (k < 0) return PERFDATA_ZSTD_E_FSE;
    p += (size_t)k;
    k = perfdata__z_seq_table(c->of, &c->of_log, &c->of_ok, 1, (modes >> 4) & 3, s + p, n - p);
    if (k < 0) return PERFDATA_ZSTD_E_FSE;
    p += (size_t)k;
    k = perfdata__z_seq_table(c->ml, &c->ml_log, &c->ml_ok, 2, (modes >> 2) & 3, s + p, n - p);
    if (k < 0) return PERFDATA_ZSTD_E_FSE;
    p += (size_t)k;
    if (perfdata__z_br_init(&b, s + p, n - p)) return PERFDATA_ZSTD_E_SEQUENCES;
    llst = perfdata__z_br_read(&b, c->ll_log);
    ofst = perfdata__z_br_read(&b, c->of_log);
    mlst = perfdata__z_br_read(&b, c->ml_log);
    perfdata__z_br_reload(&b);
    r0 = c->rep[0]; r1 = c->rep[1]; r2 = c->rep[2];
    for (i = 0; i < nseq; i++) {
        const perfdata_zstd__seq_entry *le = &c->ll[llst], *oe = &c->of[ofst], *me = &c->ml[mlst];
        uint32_t ofv = oe->base + perfdata__z_br_read(&b, oe->xbits);
        size_t ml = me->base + perfdata__z_br_read(&b, me->xbits), ll, off;
        perfdata__z_br_reload(&b);
        ll = le->base + perfdata__z_br_read(&b, le->xbits);
        if (ofv > 3) {
            off = ofv - 3; r2 = r1; r1 = r0; r0 = off;
        } else {
            unsigned idx = ofv - 1 + (ll == 0);
            if (idx == 0) off = r0;
            else if (idx == 1) { off = r1; r1 = r0; r0 = off; }
            else if (idx == 2) { off = r2; r2 = r1; r1 = r0; r0 = off; }
            else { off = r0 - 1; if (off == 0) return PERFDATA_ZSTD_E_OFFSET; r2 = r1; r1 = r0; r0 = off; }
        }
        if (i + 1 < nseq) {
            llst = le->next + perfdata__z_br_read(&b, le->nbits);
            mlst = me->next + perfdata__z_br_read(&b, me->nbits);
            ofst = oe->next + perfdata__z_br_read(&b, oe->nbits);
        }
        perfdata__z_br_reload(&b);
        if (ll > (size_t)(lend - lp)) return PERFDATA_ZSTD_E_SEQUENCES;
        if (ll > (size_t)(oend - op)) return PERFDATA_ZSTD_E_DST_TOO_SMALL;
        if ((size_t)(oend - op) - ll >= 32) perfdata__z_wildcopy(op, lp, ll); /* lit buffer has 16 bytes slack */
        else perfdata__z_copy(op, lp, ll);
        op += ll; lp += ll;
        if (ml > (size_t)(oend - op)) return PERFDATA_ZSTD_E_DST_TOO_SMALL;
        if (off > c->window_size) return PERFDATA_ZSTD_E_OFFSET;
        if (off > (size_t)(op - hstart)) {
            /* into the ring's previous lap (streaming, after a wrap); the
               source lies a lap minus off ahead of op, more than 32 bytes */
            size_t back = off - (size_t)(op - hstart), part;
            const uint8_t *from;
            if (back > c->ext_n) return PERFDATA_ZSTD_E_OFFSET;
            from = base + c->ext_end - back;
            part = ml < back ? ml : back;
            perfdata__z_copy(op, from, part);
            op += part;
            ml -= part;
        }
        if (!ml) continue; /* all of it came from the previous lap */
        if (off >= 16 && (size_t)(oend - op) - ml >= 32) perfdata__z_wildcopy(op, op - off, ml);
        else perfdata__z_match(op, off, ml);
        op += ml;
    }
    if (!perfdata__z_br_done(&b)) return PERFDATA_ZSTD_E_SEQUENCES;
    if ((size_t)(lend - lp) > (size_t)(oend - op)) return PERFDATA_ZSTD_E_DST_TOO_SMALL;
    perfdata__z_copy(op, lp, (size_t)(lend - lp));
    op += lend - lp;
    c->rep[0] = (uint32_t)r0; c->rep[1] = (uint32_t)r1; c->rep[2] = (uint32_t)r2;
    *produced = (size_t)(op - (base + pos));
    return 0;
}

/* ----------------------------------------------------------- zstd: blocks */
/* Decode one block's content (after the 3-byte header). */
static int perfdata__z_block(perfdata_zstd__state *c, unsigned type, uint32_t bsize, const uint8_t *s, size_t n, uint8_t *base,
                     size_t lo, size_t pos, size_t cap, size_t *produced) {
    if (cap - pos > c->block_max) cap = pos + c->block_max;
    if (type == 0) {
        if (n < bsize) return PERFDATA_ZSTD_E_TRUNCATED;
        if (bsize > cap - pos) return PERFDATA_ZSTD_E_DST_TOO_SMALL;
        perfdata__z_copy(base + pos, s, bsize);
        *produced = bsize;
        return 0;
    }
    if (type == 1) {
        if (n < 1) return PERFDATA_ZSTD_E_TRUNCATED;
        if (bsize > cap - pos) return PERFDATA_ZSTD_E_DST_TOO_SMALL;
        perfdata__z_fill(base + pos, s[0], bsize);
        *produced = bsize;
        return 0;
    }
    {
        const uint8_t *lit = 0;
        size_t litn = 0, used = 0;
        int r;
        if (n < bsize) return PERFDATA_ZSTD_E_TRUNCATED;
        r = perfdata__z_literals(c, s, bsize, &lit, &litn, &used);
        if (r) return r;
        r = perfdata__z_sequences(c, s + used, bsize - used, lit, litn, base, lo, pos, cap, produced);
        /* out of room with Block_Maximum_Size to fill: the block is too
           large, not the destination too small */
        if (r == PERFDATA_ZSTD_E_DST_TOO_SMALL && cap - pos == c->block_max) r = PERFDATA_ZSTD_E_BLOCK;
        return r;
    }
}

/* ---------------------------------------------------- zstd: frame headers */
/* 0 with *fi filled; PERFDATA__Z_NEED_INPUT with *want = the bytes the
   header needs (the least, until 5 bytes tell its exact size); or an error
   detail. */
static int perfdata__z_frame_info(const uint8_t *s, size_t n, perfdata_zstd_frame_info *fi, size_t *want) {
    uint32_t magic;
    unsigned fhd, fcs_flag, single, did_flag, p;
    static const unsigned did_size[4] = {0, 1, 2, 4};
    *want = 4;
    if (n < 4) return PERFDATA__Z_NEED_INPUT;
    magic = perfdata__z_le32(s);
    fi->dict_id = 0; fi->single_segment = 0; fi->has_checksum = 0; fi->window_size = 0;
    if ((magic & 0xFFFFFFF0u) == 0x184D2A50u) {
        *want = 8;
        if (n < 8) return PERFDATA__Z_NEED_INPUT;
        fi->skippable = 1;
        fi->header_size = 8;
        fi->content_size = perfdata__z_le32(s + 4);
        return 0;
    }
    if (magic != 0xFD2FB528u) return PERFDATA_ZSTD_E_BAD_MAGIC;
    *want = 5;
    if (n < 5) return PERFDATA__Z_NEED_INPUT;
    fhd = s[4];
    fcs_flag = fhd >> 6;
    single = (fhd >> 5) & 1;
    did_flag = fhd & 3;
    if (fhd & 8) return PERFDATA_ZSTD_E_HEADER;
    fi->skippable = 0;
    fi->single_segment = (int)single;
    fi->has_checksum = (fhd >> 2) & 1;
    fi->header_size = 6u - single + did_size[did_flag] + (fcs_flag == 0 ? single : (1u << fcs_flag));
    *want = fi->header_size;
    if (n < fi->header_size) return PERFDATA__Z_NEED_INPUT;
    p = 5;
    if (!single) {
        unsigned wd = s[p++], wlog = 10 + (wd >> 3);
        uint64_t wbase = (uint64_t)1 << wlog;
        fi->window_size = wbase + (wbase >> 3) * (wd & 7);
    }
    switch (did_flag) {
    case 1: fi->dict_id = s[p]; p += 1; break;
    case 2: fi->dict_id = perfdata__z_le16(s + p); p += 2; break;
    case 3: fi->dict_id = perfdata__z_le32(s + p); p += 4; break;
    default: break;
    }
    if (fcs_flag == 0) fi->content_size = single ? s[p] : PERFDATA_ZSTD_CONTENT_SIZE_UNKNOWN;
    else if (fcs_flag == 1) fi->content_size = perfdata__z_le16(s + p) + 256u;
    else if (fcs_flag == 2) fi->content_size = perfdata__z_le32(s + p);
    else fi->content_size = perfdata__z_le64(s + p);
    if (single) fi->window_size = fi->content_size;
    return 0;
}

/* perfdata__z_frame_info's result as a status: OK, NEED_INPUT (err.needed
   = the header bytes missing) or an error. */
static perfdata_status perfdata__z_frame_status(perfdata_error *err, int r, size_t want, size_t src_size) {
    perfdata_status st;
    if (r != PERFDATA__Z_NEED_INPUT) return r ? perfdata__z_fail(err, r, 0, 0) : perfdata__ok(err);
    st = perfdata__fail(err, PERFDATA_NEED_INPUT, 0, 0, 0);
    if (err) err->needed = want - src_size;
    return st;
}

PERFDATA_DEF perfdata_status perfdata_zstd_get_frame_info(const void *src, size_t src_size,
                                                          perfdata_zstd_frame_info *info, perfdata_error *err) {
    size_t want = 0;
    int r;
    if (!src || !info) return perfdata__z_fail(err, PERFDATA_ZSTD_E_PARAM, 0, 0);
    r = perfdata__z_frame_info((const uint8_t *)src, src_size, info, &want);
    return perfdata__z_frame_status(err, r, want, src_size);
}

/* Whether the decoder takes a window of w bytes (its ring, w * 2 at most,
   must fit in a size_t). */
static int perfdata__z_window_ok(uint64_t w) {
    return w <= PERFDATA_ZSTD_WINDOW_SIZE_MAX && (uint64_t)(size_t)(w * 2) == w * 2;
}

/* A lap of the ring is then longer than the window by more than a
   wildcopy's overshoot: a byte is overwritten only once no match can reach it. */
static size_t perfdata__z_win_need(uint64_t w) {
    return (size_t)(w + (w < PERFDATA_ZSTD_BLOCK_SIZE_MAX ? w : PERFDATA_ZSTD_BLOCK_SIZE_MAX) + 32);
}

PERFDATA_DEF perfdata_status perfdata_zstd_window_buffer_size(const void *src, size_t src_size, size_t *needed,
                                                              perfdata_error *err) {
    perfdata_zstd_frame_info fi;
    size_t want = 0;
    int r;
    if (!src || !needed) return perfdata__z_fail(err, PERFDATA_ZSTD_E_PARAM, 0, 0);
    *needed = 0;
    r = perfdata__z_frame_info((const uint8_t *)src, src_size, &fi, &want);
    if (r) return perfdata__z_frame_status(err, r, want, src_size);
    if (fi.skippable) return perfdata__ok(err);
    if (!perfdata__z_window_ok(fi.window_size)) return perfdata__z_fail(err, PERFDATA_ZSTD_E_WINDOW_TOO_LARGE, 0, 0);
    *needed = perfdata__z_win_need(fi.window_size);
    return perfdata__ok(err);
}

/* Validate a parsed frame header and reset per-frame state. */
static int perfdata__z_frame_begin(perfdata_zstd__state *c, const perfdata_zstd_frame_info *fi) {
    if (fi->dict_id) return PERFDATA_ZSTD_E_DICTIONARY;
    if (!perfdata__z_window_ok(fi->window_size)) return PERFDATA_ZSTD_E_WINDOW_TOO_LARGE;
    c->window_size = fi->window_size;
    c->content_size = fi->content_size;
    c->has_checksum = fi->has_checksum;
    c->block_max = fi->window_size < PERFDATA_ZSTD_BLOCK_SIZE_MAX ? (uint32_t)fi->window_size : PERFDATA_ZSTD_BLOCK_SIZE_MAX;
    c->decoded = 0;
    c->ext_end = c->ext_n = 0;
    c->rep[0] = 1; c->rep[1] = 4; c->rep[2] = 8;
    c->huf_ok = c->ll_ok = c->of_ok = c->ml_ok = 0;
    perfdata__z_xxh_init(&c->xxh);
    return 0;
}

static int perfdata__z_after_block(perfdata_zstd__state *c, const uint8_t *out, size_t produced) {
    c->decoded += produced;
    if (c->content_size != PERFDATA_ZSTD_CONTENT_SIZE_UNKNOWN && c->decoded > c->content_size)
        return PERFDATA_ZSTD_E_CONTENT_SIZE;
    if (c->has_checksum && !(c->flags & PERFDATA_ZSTD_F_SKIP_CHECKSUM)) perfdata__z_xxh_update(&c->xxh, out, produced);
    return 0;
}

static int perfdata__z_frame_end_check(const perfdata_zstd__state *c) {
    if (c->content_size != PERFDATA_ZSTD_CONTENT_SIZE_UNKNOWN && c->decoded != c->content_size)
        return PERFDATA_ZSTD_E_CONTENT_SIZE;
    return 0;
}

static int perfdata__z_checksum_check(const perfdata_zstd__state *c, const uint8_t *p) {
    if (c->flags & PERFDATA_ZSTD_F_SKIP_CHECKSUM) return 0;
    return (uint32_t)perfdata__z_xxh_digest(&c->xxh) == perfdata__z_le32(p) ? 0 : PERFDATA_ZSTD_E_CHECKSUM;
}

/* --------------------------------------------------------- zstd: one shot */
/* Decodes every frame of s[0..n) into d[0..cap): 0 or an error detail, with
   *op_out = the bytes of the whole blocks decoded, *at = the offset of the
   unit (frame header, block, checksum) being decoded and, for E_TRUNCATED,
   *missing = the bytes that unit lacks. */
static int perfdata__z_oneshot(perfdata_zstd__state *c, uint8_t *d, size_t cap, const uint8_t *s, size_t n,
                               size_t *op_out, size_t *at, size_t *missing) {
    size_t ip = 0, op = 0, unit = 0, want = 0;
    int r = 0;
    while (ip < n) {
        perfdata_zstd_frame_info fi;
        size_t lo;
        unit = ip;
        r = perfdata__z_frame_info(s + ip, n - ip, &fi, &want);
        if (r == PERFDATA__Z_NEED_INPUT) { want -= n - ip; goto truncated; }
        if (r) goto fail;
        if (fi.skippable) {
            if (fi.content_size > n - ip - 8) { want = (size_t)(fi.content_size - (n - ip - 8)); goto truncated; }
            ip += 8 + (size_t)fi.content_size;
            continue;
        }
        r = perfdata__z_frame_begin(c, &fi);
        if (r) goto fail;
        ip += fi.header_size;
        lo = op;
        for (;;) {
            uint32_t bh, bsize;
            unsigned type;
            size_t produced = 0, csize;
            unit = ip;
            if (n - ip < 3) { want = 3 - (n - ip); goto truncated; }
            bh = perfdata__z_le24(s + ip);
            type = (bh >> 1) & 3;
            bsize = bh >> 3;
            r = PERFDATA_ZSTD_E_BLOCK;
            if (type == 3 || bsize > c->block_max) goto fail;
            csize = type == 1 ? 1 : bsize;
            if (csize > n - ip - 3) { want = csize - (n - ip - 3); goto truncated; }
            ip += 3;
            r = perfdata__z_block(c, type, bsize, s + ip, csize, d, lo, op, cap, &produced);
            if (r) goto fail;
            r = perfdata__z_after_block(c, d + op, produced);
            if (r) goto fail;
            ip += csize;
            op += produced;
            if (bh & 1) break;
        }
        r = perfdata__z_frame_end_check(c); /* found at the last block */
        if (r) goto fail;
        if (c->has_checksum) {
            unit = ip;
            if (n - ip < 4) { want = 4 - (n - ip); goto truncated; }
            r = perfdata__z_checksum_check(c, s + ip);
            if (r) goto fail;
            ip += 4;
        }
    }
    *op_out = op;
    return 0;
truncated:
    r = PERFDATA_ZSTD_E_TRUNCATED;
    *missing = want;
fail:
    *op_out = op;
    *at = unit;
    return r;
}

PERFDATA_DEF perfdata_status perfdata_zstd_decompress(void *dst, size_t dst_cap, const void *src, size_t src_size,
                                                      void *ws, size_t ws_size, unsigned flags, size_t *out_size,
                                                      perfdata_error *err) {
    static uint8_t dummy[1]; /* stands in for a NULL dst of size 0 (never written) */
    uint8_t *d = dst ? (uint8_t *)dst : dummy;
    size_t adj, op = 0, at = 0, missing = 0;
    perfdata_zstd__state *c;
    int r;
    if (out_size) *out_size = 0;
    if ((!src && src_size) || (!dst && dst_cap) || !ws) return perfdata__z_fail(err, PERFDATA_ZSTD_E_PARAM, 0, 0);
    adj = (size_t)((16 - ((uintptr_t)ws & 15)) & 15);
    if (ws_size < adj || ws_size - adj < sizeof(perfdata_zstd_dctx))
        return perfdata__z_fail(err, PERFDATA_ZSTD_E_WORKSPACE, 0, 0);
    c = &((perfdata_zstd_dctx *)(void *)((uint8_t *)ws + adj))->priv;
    c->flags = flags;
    c->error = 0;
    r = perfdata__z_oneshot(c, d, dst_cap, (const uint8_t *)src, src_size, &op, &at, &missing);
    if (out_size) *out_size = op;
    if (r) return perfdata__z_fail(err, r, at, missing);
    return perfdata__ok(err);
}

/* -------------------------------------------------------- zstd: streaming */
enum { PERFDATA__Z_ST_MAGIC = 0, PERFDATA__Z_ST_SKIP, PERFDATA__Z_ST_BLOCK, PERFDATA__Z_ST_CHECKSUM };

PERFDATA_DEF void perfdata_zstd_dctx_init(perfdata_zstd_dctx *ctx, void *window, size_t window_cap, unsigned flags) {
    perfdata_zstd__state *c;
    if (!ctx) return;
    c = &ctx->priv;
    c->error = 0;
    c->error_offset = c->error_needed = 0;
    c->in_total = 0;
    c->flags = flags;
    c->state = PERFDATA__Z_ST_MAGIC;
    c->win = (uint8_t *)window;
    c->win_cap = window ? window_cap : 0;
    c->win_pos = c->win_lo = c->flush_pos = c->flush_end = 0;
    c->skip_left = 0;
    c->stage_len = 0;
    c->huf_ok = c->ll_ok = c->of_ok = c->ml_ok = 0;
    c->window_size = 0;
    c->content_size = PERFDATA_ZSTD_CONTENT_SIZE_UNKNOWN;
    c->decoded = 0;
    c->block_max = 0;
    c->has_checksum = 0;
}

/* Make the first n bytes of the current unit available contiguously.
 * Returns NULL (after staging all remaining input) if not enough yet. */
static const uint8_t *perfdata__z_peek(perfdata_zstd__state *c, const uint8_t *in, size_t in_size, size_t *used, size_t n) {
    if (c->stage_len == 0 && in_size - *used >= n) return in + *used;
    if (c->stage_len < n) {
        size_t k = n - c->stage_len, a = in_size - *used;
        if (k > a) k = a;
        perfdata__z_copy(c->stage + c->stage_len, in + *used, k);
        c->stage_len += k;
        *used += k;
    }
    return c->stage_len >= n ? c->stage : 0;
}

static void perfdata__z_finish(perfdata_zstd__state *c, size_t *used, size_t n) {
    if (c->stage_len) c->stage_len = 0;
    else *used += n;
}

/* The streaming loop: 0 (at a frame boundary), PERFDATA__Z_NEED_INPUT,
   PERFDATA__Z_OUTPUT_FULL or an error detail (with *needed for
   E_WINDOW_TOO_LARGE). Until a unit is finished, its first byte is at
   stream offset in_total + *used_out - stage_len. */
static int perfdata__z_stream(perfdata_zstd__state *c, const uint8_t *in, size_t in_size, size_t *used_out,
                              uint8_t *out, size_t out_cap, size_t *wr_out, uint64_t *needed) {
    size_t used = 0, wr = 0;
    int ret;
    for (;;) {
        const uint8_t *p;
        if (c->flush_pos < c->flush_end) {
            size_t k = c->flush_end - c->flush_pos;
            if (k > out_cap - wr) k = out_cap - wr;
            perfdata__z_copy(out + wr, c->win + c->flush_pos, k);
            wr += k;
            c->flush_pos += k;
            if (c->flush_pos < c->flush_end) { ret = PERFDATA__Z_OUTPUT_FULL; break; }
        }
        if (c->state == PERFDATA__Z_ST_SKIP) {
            size_t k = in_size - used;
            if (k > c->skip_left) k = (size_t)c->skip_left;
            used += k;
            c->skip_left -= k;
            if (c->skip_left) { ret = PERFDATA__Z_NEED_INPUT; break; }
            c->state = PERFDATA__Z_ST_MAGIC;
            continue;
        }
        if (used == in_size) { ret = (c->state == PERFDATA__Z_ST_MAGIC && c->stage_len == 0) ? 0 : PERFDATA__Z_NEED_INPUT; break; }
        if (c->state == PERFDATA__Z_ST_MAGIC) {
            perfdata_zstd_frame_info fi;
            size_t want = 4, have;
            int r = 0;
            /* the whole header contiguous: peek 4 bytes, then as many as
               they (and then the fifth) say the header has */
            for (;;) {
                p = perfdata__z_peek(c, in, in_size, &used, want);
                if (!p) break;
                have = c->stage_len ? c->stage_len : in_size - used;
                r = perfdata__z_frame_info(p, have, &fi, &want);
                if (r != PERFDATA__Z_NEED_INPUT) break;
            }
            if (!p) { ret = PERFDATA__Z_NEED_INPUT; break; }
            if (r) { ret = r; break; }
            if (fi.skippable) {
                perfdata__z_finish(c, &used, fi.header_size);
                c->skip_left = fi.content_size;
                c->state = PERFDATA__Z_ST_SKIP;
                continue;
            }
            r = perfdata__z_frame_begin(c, &fi);
            if (r) { ret = r; break; }
            if (perfdata__z_win_need(fi.window_size) > c->win_cap) {
                *needed = perfdata__z_win_need(fi.window_size);
                ret = PERFDATA_ZSTD_E_WINDOW_TOO_LARGE;
                break;
            }
            perfdata__z_finish(c, &used, fi.header_size);
            c->win_pos = c->win_lo = c->flush_pos = c->flush_end = 0;
            c->state = PERFDATA__Z_ST_BLOCK;
            continue;
        }
        if (c->state == PERFDATA__Z_ST_BLOCK) {
            uint32_t bh, bsize;
            unsigned type;
            size_t csize, produced = 0;
            int r;
            p = perfdata__z_peek(c, in, in_size, &used, 3);
            if (!p) { ret = PERFDATA__Z_NEED_INPUT; break; }
            bh = perfdata__z_le24(p);
            type = (bh >> 1) & 3;
            bsize = bh >> 3;
            if (type == 3 || bsize > c->block_max) { ret = PERFDATA_ZSTD_E_BLOCK; break; }
            csize = type == 1 ? 1 : bsize;
            p = perfdata__z_peek(c, in, in_size, &used, 3 + csize);
            if (!p) { ret = PERFDATA__Z_NEED_INPUT; break; }
            if (c->win_cap - c->win_pos < c->block_max) {
                /* wrap: the lap just ended (longer than the window) is the
                   history matches reach back into */
                c->ext_end = c->win_pos;
                c->ext_n = c->win_pos - c->win_lo;
                c->win_lo = c->win_pos = 0;
            }
            r = perfdata__z_block(c, type, bsize, p + 3, csize, c->win, c->win_lo, c->win_pos, c->win_cap, &produced);
            if (!r) r = perfdata__z_after_block(c, c->win + c->win_pos, produced);
            if (!r && (bh & 1)) r = perfdata__z_frame_end_check(c);
            if (r) { ret = r; break; }
            perfdata__z_finish(c, &used, 3 + csize);
            c->flush_pos = c->win_pos;
            c->flush_end = c->win_pos + produced;
            c->win_pos += produced;
            if (bh & 1) c->state = c->has_checksum ? PERFDATA__Z_ST_CHECKSUM : PERFDATA__Z_ST_MAGIC;
            continue;
        }
        /* checksum */
        p = perfdata__z_peek(c, in, in_size, &used, 4);
        if (!p) { ret = PERFDATA__Z_NEED_INPUT; break; }
        {
            int r = perfdata__z_checksum_check(c, p);
            if (r) { ret = r; break; }
        }
        perfdata__z_finish(c, &used, 4);
        c->state = PERFDATA__Z_ST_MAGIC;
    }
    *used_out = used;
    *wr_out = wr;
    return ret;
}

PERFDATA_DEF perfdata_status perfdata_zstd_decompress_stream(perfdata_zstd_dctx *ctx, const void *in, size_t in_size,
                                                             size_t *in_consumed, void *out, size_t out_cap,
                                                             size_t *out_written, perfdata_error *err) {
    static uint8_t dummy[1]; /* stands in for NULL buffers of size 0 (never written) */
    perfdata_zstd__state *c;
    size_t used = 0, wr = 0;
    uint64_t needed = 0;
    int r;
    if (in_consumed) *in_consumed = 0;
    if (out_written) *out_written = 0;
    if (!ctx || (!in && in_size) || (!out && out_cap)) return perfdata__z_fail(err, PERFDATA_ZSTD_E_PARAM, 0, 0);
    c = &ctx->priv;
    if (c->error) return perfdata__z_fail(err, c->error, c->error_offset, c->error_needed);
    if (!c->win) c->win = dummy;
    r = perfdata__z_stream(c, in ? (const uint8_t *)in : dummy, in_size, &used, out ? (uint8_t *)out : dummy, out_cap,
                           &wr, &needed);
    if (in_consumed) *in_consumed = used;
    if (out_written) *out_written = wr;
    if (r < 0) {
        c->error = r;
        c->error_offset = c->in_total + used - c->stage_len;
        c->error_needed = needed;
        c->in_total += used;
        return perfdata__z_fail(err, r, c->error_offset, needed);
    }
    c->in_total += used;
    return perfdata__fail(err, r == 0 ? PERFDATA_OK : r == PERFDATA__Z_NEED_INPUT ? PERFDATA_NEED_INPUT : PERFDATA_ERR_NO_SPACE,
                          c->in_total, 0, 0);
}

/* ------------------------------------------------- zstd: perf.data chunks */
PERFDATA_DEF perfdata_status perfdata_zstd_chunk(void *dctx, const unsigned char *in, size_t in_size,
                                                 unsigned char *out, size_t out_cap, size_t *out_size) {
    perfdata_zstd_dctx *c = (perfdata_zstd_dctx *)dctx;
    size_t used = 0;
    *out_size = 0;
    for (;;) {
        size_t consumed = 0, written = 0;
        perfdata_error e;
        perfdata_status st = perfdata_zstd_decompress_stream(c, in + used, in_size - used, &consumed, out + *out_size,
                                                             out_cap - *out_size, &written, &e);
        used += consumed;
        *out_size += written;
        if (st == PERFDATA_ERR_NO_SPACE && e.detail == 0) return st; /* out is full */
        if (st != PERFDATA_OK && st != PERFDATA_NEED_INPUT) return PERFDATA_ERR_MALFORMED;
        if (used >= in_size) return PERFDATA_OK; /* the rest of the frame is in later chunks */
    }
}
#endif /* PERFDATA_ZSTD */

#endif /* PERFDATA_IMPLEMENTATION */

/*
------------------------------------------------------------------------------
MIT License

Copyright (c) 2026 the perfdata.h authors

Permission is hereby granted, free of charge, to any person obtaining a copy of
this software and associated documentation files (the "Software"), to deal in
the Software without restriction, including without limitation the rights to
use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies
of the Software, and to permit persons to whom the Software is furnished to do
so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
------------------------------------------------------------------------------
*/
