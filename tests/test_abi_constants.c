/* test_abi_constants.c - perfdata.h's ABI constants and layouts against the
   kernel's own UAPI header, <linux/perf_event.h> (included only here).

   Build from the repository root:
     gcc -std=c99 -Wall -Wextra -Wpedantic -Werror -I. tests/test_abi_constants.c -o /tmp/tabi && /tmp/tabi

   Enum constants cannot be tested with #ifdef, so values newer than the
   installed header (checked against LINUX_VERSION_CODE, or guarded by a
   macro the same kernel release added) are skipped on older headers. */
#define PERFDATA_IMPLEMENTATION
#include "../perfdata.h"

#include "test.h"

#include <linux/perf_event.h>
#include <linux/version.h>
#include <stddef.h>
#include <string.h>

#define EQ(ours, theirs) CHECK_EQ_U64((ours), (theirs))

/* Record types (enum perf_event_type). */
TEST(record_types) {
    EQ(PERFDATA_RECORD_MMAP, PERF_RECORD_MMAP);
    EQ(PERFDATA_RECORD_LOST, PERF_RECORD_LOST);
    EQ(PERFDATA_RECORD_COMM, PERF_RECORD_COMM);
    EQ(PERFDATA_RECORD_EXIT, PERF_RECORD_EXIT);
    EQ(PERFDATA_RECORD_THROTTLE, PERF_RECORD_THROTTLE);
    EQ(PERFDATA_RECORD_UNTHROTTLE, PERF_RECORD_UNTHROTTLE);
    EQ(PERFDATA_RECORD_FORK, PERF_RECORD_FORK);
    EQ(PERFDATA_RECORD_READ, PERF_RECORD_READ);
    EQ(PERFDATA_RECORD_SAMPLE, PERF_RECORD_SAMPLE);
    EQ(PERFDATA_RECORD_MMAP2, PERF_RECORD_MMAP2);
    EQ(PERFDATA_RECORD_AUX, PERF_RECORD_AUX);
    EQ(PERFDATA_RECORD_ITRACE_START, PERF_RECORD_ITRACE_START);
    EQ(PERFDATA_RECORD_LOST_SAMPLES, PERF_RECORD_LOST_SAMPLES);
    EQ(PERFDATA_RECORD_SWITCH, PERF_RECORD_SWITCH);
    EQ(PERFDATA_RECORD_SWITCH_CPU_WIDE, PERF_RECORD_SWITCH_CPU_WIDE);
    EQ(PERFDATA_RECORD_NAMESPACES, PERF_RECORD_NAMESPACES);
    EQ(PERFDATA_RECORD_KSYMBOL, PERF_RECORD_KSYMBOL);
    EQ(PERFDATA_RECORD_BPF_EVENT, PERF_RECORD_BPF_EVENT);
    EQ(PERFDATA_RECORD_CGROUP, PERF_RECORD_CGROUP);
    EQ(PERFDATA_RECORD_TEXT_POKE, PERF_RECORD_TEXT_POKE);
    EQ(PERFDATA_RECORD_AUX_OUTPUT_HW_ID, PERF_RECORD_AUX_OUTPUT_HW_ID);
    /* CALLCHAIN_DEFERRED is newer than most installed headers: it is either
       the header's own value or the next unassigned one (PERF_RECORD_MAX). */
    EQ(PERFDATA_RECORD_CALLCHAIN_DEFERRED, PERFDATA_RECORD_AUX_OUTPUT_HW_ID + 1);
    CHECK(PERFDATA_RECORD_CALLCHAIN_DEFERRED <= PERF_RECORD_MAX);
    /* the perf tool's types start above every kernel type */
    CHECK(PERFDATA_RECORD_HEADER_ATTR >= PERF_RECORD_MAX);
}

/* Sample fields (enum perf_event_sample_format). */
TEST(sample_bits) {
    EQ(PERFDATA_SAMPLE_IP, PERF_SAMPLE_IP);
    EQ(PERFDATA_SAMPLE_TID, PERF_SAMPLE_TID);
    EQ(PERFDATA_SAMPLE_TIME, PERF_SAMPLE_TIME);
    EQ(PERFDATA_SAMPLE_ADDR, PERF_SAMPLE_ADDR);
    EQ(PERFDATA_SAMPLE_READ, PERF_SAMPLE_READ);
    EQ(PERFDATA_SAMPLE_CALLCHAIN, PERF_SAMPLE_CALLCHAIN);
    EQ(PERFDATA_SAMPLE_ID, PERF_SAMPLE_ID);
    EQ(PERFDATA_SAMPLE_CPU, PERF_SAMPLE_CPU);
    EQ(PERFDATA_SAMPLE_PERIOD, PERF_SAMPLE_PERIOD);
    EQ(PERFDATA_SAMPLE_STREAM_ID, PERF_SAMPLE_STREAM_ID);
    EQ(PERFDATA_SAMPLE_RAW, PERF_SAMPLE_RAW);
    EQ(PERFDATA_SAMPLE_BRANCH_STACK, PERF_SAMPLE_BRANCH_STACK);
    EQ(PERFDATA_SAMPLE_REGS_USER, PERF_SAMPLE_REGS_USER);
    EQ(PERFDATA_SAMPLE_STACK_USER, PERF_SAMPLE_STACK_USER);
    EQ(PERFDATA_SAMPLE_WEIGHT, PERF_SAMPLE_WEIGHT);
    EQ(PERFDATA_SAMPLE_DATA_SRC, PERF_SAMPLE_DATA_SRC);
    EQ(PERFDATA_SAMPLE_IDENTIFIER, PERF_SAMPLE_IDENTIFIER);
    EQ(PERFDATA_SAMPLE_TRANSACTION, PERF_SAMPLE_TRANSACTION);
    EQ(PERFDATA_SAMPLE_REGS_INTR, PERF_SAMPLE_REGS_INTR);
    EQ(PERFDATA_SAMPLE_PHYS_ADDR, PERF_SAMPLE_PHYS_ADDR);
    EQ(PERFDATA_SAMPLE_AUX, PERF_SAMPLE_AUX);
    EQ(PERFDATA_SAMPLE_CGROUP, PERF_SAMPLE_CGROUP);
    EQ(PERFDATA_SAMPLE_DATA_PAGE_SIZE, PERF_SAMPLE_DATA_PAGE_SIZE);
    EQ(PERFDATA_SAMPLE_CODE_PAGE_SIZE, PERF_SAMPLE_CODE_PAGE_SIZE);
    EQ(PERFDATA_SAMPLE_WEIGHT_STRUCT, PERF_SAMPLE_WEIGHT_STRUCT);
    CHECK(PERFDATA_SAMPLE_WEIGHT_STRUCT < (uint64_t)PERF_SAMPLE_MAX);
}

/* read_format (enum perf_event_read_format). */
TEST(read_format_bits) {
    EQ(PERFDATA_FORMAT_TOTAL_TIME_ENABLED, PERF_FORMAT_TOTAL_TIME_ENABLED);
    EQ(PERFDATA_FORMAT_TOTAL_TIME_RUNNING, PERF_FORMAT_TOTAL_TIME_RUNNING);
    EQ(PERFDATA_FORMAT_ID, PERF_FORMAT_ID);
    EQ(PERFDATA_FORMAT_GROUP, PERF_FORMAT_GROUP);
    EQ(PERFDATA_FORMAT_LOST, PERF_FORMAT_LOST);
    EQ(PERFDATA_FORMAT_LOST << 1, PERF_FORMAT_MAX);
}

/* PERF_ATTR_SIZE_VER*, and each version's first new field at the previous
   version's size in struct perf_event_attr. */
TEST(attr_sizes) {
    EQ(PERFDATA_ATTR_SIZE_VER0, PERF_ATTR_SIZE_VER0);
    EQ(PERFDATA_ATTR_SIZE_VER1, PERF_ATTR_SIZE_VER1);
    EQ(PERFDATA_ATTR_SIZE_VER2, PERF_ATTR_SIZE_VER2);
    EQ(PERFDATA_ATTR_SIZE_VER3, PERF_ATTR_SIZE_VER3);
    EQ(PERFDATA_ATTR_SIZE_VER4, PERF_ATTR_SIZE_VER4);
    EQ(PERFDATA_ATTR_SIZE_VER5, PERF_ATTR_SIZE_VER5);
    EQ(PERFDATA_ATTR_SIZE_VER6, PERF_ATTR_SIZE_VER6);
    EQ(PERFDATA_ATTR_SIZE_VER7, PERF_ATTR_SIZE_VER7);
#ifdef PERF_ATTR_SIZE_VER8
    EQ(PERFDATA_ATTR_SIZE_VER8, PERF_ATTR_SIZE_VER8);
    EQ(offsetof(struct perf_event_attr, config3), PERFDATA_ATTR_SIZE_VER7);
#endif
#ifdef PERF_ATTR_SIZE_VER9
    EQ(PERFDATA_ATTR_SIZE_VER9, PERF_ATTR_SIZE_VER9);
#endif
    EQ(offsetof(struct perf_event_attr, sample_type), 24);
    EQ(offsetof(struct perf_event_attr, read_format) + 8, 40); /* the flags word */
    EQ(offsetof(struct perf_event_attr, wakeup_events), 48);
    EQ(offsetof(struct perf_event_attr, bp_type), 52);
    EQ(offsetof(struct perf_event_attr, config1), 56);
    EQ(offsetof(struct perf_event_attr, config2), PERFDATA_ATTR_SIZE_VER0);
    EQ(offsetof(struct perf_event_attr, branch_sample_type), PERFDATA_ATTR_SIZE_VER1);
    EQ(offsetof(struct perf_event_attr, sample_regs_user), PERFDATA_ATTR_SIZE_VER2);
    EQ(offsetof(struct perf_event_attr, sample_stack_user), 88);
    EQ(offsetof(struct perf_event_attr, clockid), 92);
    EQ(offsetof(struct perf_event_attr, sample_regs_intr), PERFDATA_ATTR_SIZE_VER3);
    EQ(offsetof(struct perf_event_attr, aux_watermark), PERFDATA_ATTR_SIZE_VER4);
    EQ(offsetof(struct perf_event_attr, sample_max_stack), 108);
    EQ(offsetof(struct perf_event_attr, aux_sample_size), PERFDATA_ATTR_SIZE_VER5);
    EQ(offsetof(struct perf_event_attr, sig_data), PERFDATA_ATTR_SIZE_VER6);
    CHECK(sizeof(struct perf_event_attr) >= PERFDATA_ATTR_SIZE_VER7);
    EQ(sizeof(struct perf_event_header), 8);
}

/* header.misc bits (PERF_RECORD_MISC_*). */
TEST(misc_bits) {
    EQ(PERFDATA_MISC_CPUMODE_MASK, PERF_RECORD_MISC_CPUMODE_MASK);
    EQ(PERFDATA_MISC_CPUMODE_UNKNOWN, PERF_RECORD_MISC_CPUMODE_UNKNOWN);
    EQ(PERFDATA_MISC_KERNEL, PERF_RECORD_MISC_KERNEL);
    EQ(PERFDATA_MISC_USER, PERF_RECORD_MISC_USER);
    EQ(PERFDATA_MISC_HYPERVISOR, PERF_RECORD_MISC_HYPERVISOR);
    EQ(PERFDATA_MISC_GUEST_KERNEL, PERF_RECORD_MISC_GUEST_KERNEL);
    EQ(PERFDATA_MISC_GUEST_USER, PERF_RECORD_MISC_GUEST_USER);
    EQ(PERFDATA_MISC_PROC_MAP_PARSE_TIMEOUT, PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT);
    EQ(PERFDATA_MISC_MMAP_DATA, PERF_RECORD_MISC_MMAP_DATA);
    EQ(PERFDATA_MISC_COMM_EXEC, PERF_RECORD_MISC_COMM_EXEC);
    EQ(PERFDATA_MISC_FORK_EXEC, PERF_RECORD_MISC_FORK_EXEC);
    EQ(PERFDATA_MISC_SWITCH_OUT, PERF_RECORD_MISC_SWITCH_OUT);
    EQ(PERFDATA_MISC_EXACT_IP, PERF_RECORD_MISC_EXACT_IP);
    EQ(PERFDATA_MISC_SWITCH_OUT_PREEMPT, PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
    EQ(PERFDATA_MISC_MMAP_BUILD_ID, PERF_RECORD_MISC_MMAP_BUILD_ID);
    EQ(PERFDATA_MISC_EXT_RESERVED, PERF_RECORD_MISC_EXT_RESERVED);
}

/* Callchain context markers, branch_sample_type bits, regs ABIs. */
TEST(misc_enums) {
    EQ(PERFDATA_CONTEXT_HV, (uint64_t)PERF_CONTEXT_HV);
    EQ(PERFDATA_CONTEXT_KERNEL, (uint64_t)PERF_CONTEXT_KERNEL);
    EQ(PERFDATA_CONTEXT_USER, (uint64_t)PERF_CONTEXT_USER);
    EQ(PERFDATA_CONTEXT_GUEST, (uint64_t)PERF_CONTEXT_GUEST);
    EQ(PERFDATA_CONTEXT_GUEST_KERNEL, (uint64_t)PERF_CONTEXT_GUEST_KERNEL);
    EQ(PERFDATA_CONTEXT_GUEST_USER, (uint64_t)PERF_CONTEXT_GUEST_USER);
    EQ(PERFDATA_CONTEXT_MAX, (uint64_t)PERF_CONTEXT_MAX);
    EQ(PERFDATA_BRANCH_CALL_STACK, PERF_SAMPLE_BRANCH_CALL_STACK);
    EQ(PERFDATA_BRANCH_HW_INDEX, PERF_SAMPLE_BRANCH_HW_INDEX);
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
    EQ(PERFDATA_BRANCH_COUNTERS, PERF_SAMPLE_BRANCH_COUNTERS);
#else
    /* the installed header predates COUNTERS: it is the next free bit */
    EQ(PERFDATA_BRANCH_COUNTERS, 1ull << PERF_SAMPLE_BRANCH_MAX_SHIFT);
#endif
    EQ(PERFDATA_REGS_ABI_NONE, PERF_SAMPLE_REGS_ABI_NONE);
    EQ(PERFDATA_REGS_ABI_32, PERF_SAMPLE_REGS_ABI_32);
    EQ(PERFDATA_REGS_ABI_64, PERF_SAMPLE_REGS_ABI_64);
}

#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOST_LITTLE_ENDIAN 1
#else
#define HOST_LITTLE_ENDIAN 0
#endif

/* The attr bit-field as this (little-endian) compiler lays out the kernel's
   struct, read back through perfdata_decode_attr: each flag lands on its
   PERFDATA_ATTR_FLAG_* bit, precise_ip on its two bits. */
TEST(attr_flag_layout) {
#if HOST_LITTLE_ENDIAN
    struct perf_event_attr a;
    perfdata_attr out;
    perfdata_view v;
    perfdata_error err;
    unsigned precise;
#define FLAG(field, ours)                                                              \
    do {                                                                               \
        memset(&a, 0, sizeof a);                                                       \
        a.size = PERF_ATTR_SIZE_VER7;                                                  \
        a.field = 1;                                                                   \
        v.p = (const unsigned char *)&a;                                               \
        v.n = sizeof a;                                                                \
        v.offset = 0;                                                                  \
        if (CHECK_EQ_U64(perfdata_decode_attr(v, 0, &out, &err), PERFDATA_OK))         \
            CHECK_EQ_U64(out.flags, (ours));                                           \
    } while (0)
    FLAG(disabled, PERFDATA_ATTR_FLAG_DISABLED);
    FLAG(inherit, PERFDATA_ATTR_FLAG_INHERIT);
    FLAG(pinned, PERFDATA_ATTR_FLAG_PINNED);
    FLAG(exclusive, PERFDATA_ATTR_FLAG_EXCLUSIVE);
    FLAG(exclude_user, PERFDATA_ATTR_FLAG_EXCLUDE_USER);
    FLAG(exclude_kernel, PERFDATA_ATTR_FLAG_EXCLUDE_KERNEL);
    FLAG(exclude_hv, PERFDATA_ATTR_FLAG_EXCLUDE_HV);
    FLAG(exclude_idle, PERFDATA_ATTR_FLAG_EXCLUDE_IDLE);
    FLAG(mmap, PERFDATA_ATTR_FLAG_MMAP);
    FLAG(comm, PERFDATA_ATTR_FLAG_COMM);
    FLAG(freq, PERFDATA_ATTR_FLAG_FREQ);
    FLAG(inherit_stat, PERFDATA_ATTR_FLAG_INHERIT_STAT);
    FLAG(enable_on_exec, PERFDATA_ATTR_FLAG_ENABLE_ON_EXEC);
    FLAG(task, PERFDATA_ATTR_FLAG_TASK);
    FLAG(watermark, PERFDATA_ATTR_FLAG_WATERMARK);
    FLAG(mmap_data, PERFDATA_ATTR_FLAG_MMAP_DATA);
    FLAG(sample_id_all, PERFDATA_ATTR_FLAG_SAMPLE_ID_ALL);
    FLAG(exclude_host, PERFDATA_ATTR_FLAG_EXCLUDE_HOST);
    FLAG(exclude_guest, PERFDATA_ATTR_FLAG_EXCLUDE_GUEST);
    FLAG(exclude_callchain_kernel, PERFDATA_ATTR_FLAG_EXCLUDE_CALLCHAIN_KERNEL);
    FLAG(exclude_callchain_user, PERFDATA_ATTR_FLAG_EXCLUDE_CALLCHAIN_USER);
    FLAG(mmap2, PERFDATA_ATTR_FLAG_MMAP2);
    FLAG(comm_exec, PERFDATA_ATTR_FLAG_COMM_EXEC);
    FLAG(use_clockid, PERFDATA_ATTR_FLAG_USE_CLOCKID);
    FLAG(context_switch, PERFDATA_ATTR_FLAG_CONTEXT_SWITCH);
    FLAG(write_backward, PERFDATA_ATTR_FLAG_WRITE_BACKWARD);
    FLAG(namespaces, PERFDATA_ATTR_FLAG_NAMESPACES);
    FLAG(ksymbol, PERFDATA_ATTR_FLAG_KSYMBOL);
    FLAG(bpf_event, PERFDATA_ATTR_FLAG_BPF_EVENT);
    FLAG(aux_output, PERFDATA_ATTR_FLAG_AUX_OUTPUT);
    FLAG(cgroup, PERFDATA_ATTR_FLAG_CGROUP);
    FLAG(text_poke, PERFDATA_ATTR_FLAG_TEXT_POKE);
    FLAG(build_id, PERFDATA_ATTR_FLAG_BUILD_ID);
    FLAG(inherit_thread, PERFDATA_ATTR_FLAG_INHERIT_THREAD);
    FLAG(remove_on_exec, PERFDATA_ATTR_FLAG_REMOVE_ON_EXEC);
    FLAG(sigtrap, PERFDATA_ATTR_FLAG_SIGTRAP);
#undef FLAG
    for (precise = 0; precise < 4; precise++) {
        memset(&a, 0, sizeof a);
        a.size = PERF_ATTR_SIZE_VER7;
        a.precise_ip = precise & 3u;
        a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_WEIGHT_STRUCT;
        a.sample_regs_intr = 0x8182838485868788ull;
        a.clockid = -7;
        v.p = (const unsigned char *)&a;
        v.n = sizeof a;
        v.offset = 0;
        if (CHECK_EQ_U64(perfdata_decode_attr(v, 0, &out, &err), PERFDATA_OK)) {
            CHECK_EQ_U64(perfdata_attr_precise_ip(&out), precise);
            CHECK_EQ_U64(out.flags, (uint64_t)precise << PERFDATA_ATTR_PRECISE_IP_SHIFT);
            CHECK_EQ_U64(out.sample_type, a.sample_type);
            CHECK_EQ_U64(out.sample_regs_intr, a.sample_regs_intr);
            CHECK_EQ_U64((int64_t)out.clockid, -7);
        }
    }
#else
    test_skip("the layout checks need a little-endian host");
#endif
}

/* struct perf_branch_entry's flags as this compiler lays them out, read
   back through perfdata_branch_at; union perf_sample_weight's u64 value
   (what tests/test_core.c writes for WEIGHT_STRUCT). */
TEST(branch_and_weight_layout) {
#if HOST_LITTLE_ENDIAN
    struct perf_branch_entry e[2];
    perfdata_branch_stack b;
    perfdata_branch_entry x;
    union perf_sample_weight w;
    memset(e, 0, sizeof e);
    e[0].from = 0x1111;
    e[0].to = 0x2222;
    e[0].mispred = 1;
    e[0].in_tx = 1;
    e[0].cycles = 0xbeef;
    e[0].type = 11;
    e[0].spec = 2;
    e[0].new_type = 9;
    e[0].priv = 5;
    e[1].predicted = 1;
    e[1].abort = 1;
    e[1].cycles = 1;
    e[1].type = 15;
    e[1].spec = 3;
    e[1].new_type = 15;
    e[1].priv = 7;
    memset(&b, 0, sizeof b);
    b.nr = 2;
    b.entries.p = (const unsigned char *)e;
    b.entries.n = sizeof e;
    b.big_endian = 0;
    CHECK_EQ_U64(sizeof e, 48);
    x = perfdata_branch_at(&b, 0);
    CHECK_EQ_U64(x.from, 0x1111);
    CHECK_EQ_U64(x.to, 0x2222);
    CHECK(x.mispred == 1 && x.predicted == 0 && x.in_tx == 1 && x.abort == 0);
    CHECK_EQ_U64(x.cycles, 0xbeef);
    CHECK_EQ_U64(x.type, 11);
    CHECK_EQ_U64(x.spec, 2);
    CHECK_EQ_U64(x.new_type, 9);
    CHECK_EQ_U64(x.privilege, 5);
    x = perfdata_branch_at(&b, 1);
    CHECK(x.mispred == 0 && x.predicted == 1 && x.in_tx == 0 && x.abort == 1);
    CHECK_EQ_U64(x.cycles, 1);
    CHECK_EQ_U64(x.type, 15);
    CHECK_EQ_U64(x.spec, 3);
    CHECK_EQ_U64(x.new_type, 15);
    CHECK_EQ_U64(x.privilege, 7);

    w.full = 0;
    w.var1_dw = 0xdeadbeef;
    w.var2_w = 0x1234;
    w.var3_w = 0x5678;
    EQ(w.full, 0xdeadbeefull | (0x1234ull << 32) | (0x5678ull << 48));
#else
    test_skip("the layout checks need a little-endian host");
#endif
}

int main(int argc, char **argv) {
    test_filter(argc, argv);
    RUN_TEST(record_types);
    RUN_TEST(sample_bits);
    RUN_TEST(read_format_bits);
    RUN_TEST(attr_sizes);
    RUN_TEST(misc_bits);
    RUN_TEST(misc_enums);
    RUN_TEST(attr_flag_layout);
    RUN_TEST(branch_and_weight_layout);
    return test_report();
}
