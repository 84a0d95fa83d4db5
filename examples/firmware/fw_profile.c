/* fw_profile.c - firmware that profiles itself: a Cortex-M0 program (BBC
   micro:bit under qemu-system-arm) samples its own program counter from the
   SysTick interrupt while a workload with known hot functions runs, and
   streams the samples as a pipe-mode perf.data file over ARM semihosting,
   with perfdata.h's writer. On the host, `perf report` and `perfdata
   report` read it like any profile:

     perfdata report --symfs DIR fw.data     (DIR/fw_profile.elf: this program)
     perf report -i fw.data --symfs DIR

   The workload calls hot_a, hot_b and hot_c with 5:3:2 of the same work, so
   they take 50%, 30% and 20% of the samples. The stream holds the event
   (cpu-clock), a few features, the program's COMM and an MMAP2 record with
   its build id (read from the note the linker keeps in flash), then the
   samples, written from the main loop while SysTick is paused: the
   profiler does not sample itself.

   Build: two links, the second telling the program where its code is in
   the ELF file (the MMAP2 record's page offset, which perf and perfdata
   use to find symbols), as tests/firmware.sh does:
     CC="clang --target=armv6m-none-eabi -mthumb -Os -ffreestanding -nostdlib -fuse-ld=lld \
         -Wl,-T,examples/firmware/fw.ld -Wl,-e,reset_handler -Wl,--gc-sections \
         -ffunction-sections -fdata-sections -Wl,--build-id=sha1 -I."
     $CC -Wl,--defsym=__fw_code_offset=0 examples/firmware/fw_profile.c \
         examples/baremetal/m0_rt.c -o fw_profile.elf
     off=$(llvm-readelf -l fw_profile.elf | awk '$1 == "LOAD" { print $2; exit }')
     $CC -Wl,--defsym=__fw_code_offset=$off ... -o fw_profile.elf
   Run (writes fw.data in the current directory):
     qemu-system-arm -M microbit -nographic -monitor none -serial none \
       -icount shift=0 -semihosting-config enable=on,target=native -kernel fw_profile.elf */
#include <stddef.h>
#include <stdint.h>
/* a firmware streams: the pipe-only writer, and no message texts (the
   statuses stay), keep the code small */
#define PERFDATA_WRITER_PIPE_ONLY
#define PERFDATA_NO_ERROR_STRINGS
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"

#define ROUNDS 40
#define WORK 2000               /* loop turns per unit of work */
#define TICK 997                /* SysTick period, cycles: prime, so it does not beat with the loops */
#define RING 256                /* samples buffered between two flushes */

/* ------------------------------------------------------------ semihosting */

static int semihost(int op, const void *arg) {
    register int r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}
static void say(const char *s) { semihost(0x04 /* SYS_WRITE0 */, s); }
static void leave(int ok) { /* ADP_Stopped_ApplicationExit: qemu exits 0, else 1 */
    semihost(0x18 /* SYS_EXIT */, (const void *)(uintptr_t)(ok ? 0x20026u : 0x20023u));
    for (;;) {}
}
static int host_fd; /* set by SYS_OPEN */

/* The writer's sink: a pipe stream is appended to, so offsets are in order. */
static perfdata_status to_host(void *user, uint64_t offset, const void *bytes, size_t n) {
    uintptr_t args[3];
    (void)user; (void)offset;
    args[0] = (uintptr_t)host_fd; args[1] = (uintptr_t)bytes; args[2] = n;
    return semihost(0x05 /* SYS_WRITE: the bytes not written */, args) == 0 ? PERFDATA_OK : PERFDATA_ERR_NO_SPACE;
}

/* --------------------------------------------------------------- sampling */

#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)

static volatile uint32_t ring[RING];
static volatile uint32_t ring_n, ticks, dropped;

void systick_sample(const uint32_t *frame);
void systick_sample(const uint32_t *frame) { /* the stacked registers: r0-r3, r12, lr, pc, xpsr */
    ticks++;
    if (ring_n < RING) ring[ring_n++] = frame[6];
    else dropped++;
}
/* the exception frame is on the main stack (thread mode uses MSP here) */
__attribute__((naked)) void systick_handler(void) {
    __asm__ volatile("mrs r0, msp\n\tldr r1, =systick_sample\n\tbx r1\n\t.ltorg");
}
static void sampling(int on) { SYST_CSR = on ? 7u : 0u; /* enable, interrupt, processor clock */ }

/* ---------------------------------------------------------------- workload */

static volatile uint32_t sink;
__attribute__((noinline)) void hot_a(uint32_t n) { uint32_t i; for (i = 0; i < n; i++) sink += i ^ 0x5a; }
__attribute__((noinline)) void hot_b(uint32_t n) { uint32_t i; for (i = 0; i < n; i++) sink += i ^ 0xa5; }
__attribute__((noinline)) void hot_c(uint32_t n) { uint32_t i; for (i = 0; i < n; i++) sink += i ^ 0x3c; }

/* ------------------------------------------------------------------ stream */

extern const unsigned char __build_id_note[];  /* fw.ld: namesz, descsz, type, "GNU\0", the id */
extern const unsigned char __image_end[];
extern const unsigned char __fw_code_offset[]; /* --defsym: where the code is in the ELF file */

static perfdata_writer w;
static perfdata_writer_event event;
static const uint64_t event_id = 1;
static unsigned char feat_host[80], feat_release[80], feat_arch[80], feat_nrcpus[8], feat_desc[320];
static perfdata_writer_feature feats[5];
static const char *const event_name = "cpu-clock";

static int start_stream(perfdata_error *err) {
    static const uint32_t open_args_mode = 5; /* "wb" */
    uintptr_t args[3];
    perfdata_mmap m;
    perfdata_comm c;
    perfdata_sample_id sid;
    size_t n;
    args[0] = (uintptr_t)"fw.data"; args[1] = open_args_mode; args[2] = 7;
    if ((host_fd = semihost(0x01 /* SYS_OPEN */, args)) < 0) return -1;
    event.attr.type = 1;                       /* PERF_TYPE_SOFTWARE */
    event.attr.config = 0;                     /* PERF_COUNT_SW_CPU_CLOCK */
    event.attr.sample_period = TICK;
    event.attr.sample_type = PERFDATA_SAMPLE_IP | PERFDATA_SAMPLE_TID | PERFDATA_SAMPLE_TIME | PERFDATA_SAMPLE_PERIOD;
    event.attr.flags = PERFDATA_ATTR_FLAG_SAMPLE_ID_ALL;
    event.ids = &event_id;
    event.nr_ids = 1;
    /* features: ascending ids */
    if (perfdata_encode_feat_string(feat_host, sizeof feat_host, 0, "microbit", &n, err) != PERFDATA_OK) return -1;
    feats[0].id = PERFDATA_FEAT_HOSTNAME; feats[0].bytes = feat_host; feats[0].n = n;
    if (perfdata_encode_feat_string(feat_release, sizeof feat_release, 0, "bare-metal", &n, err) != PERFDATA_OK) return -1;
    feats[1].id = PERFDATA_FEAT_OSRELEASE; feats[1].bytes = feat_release; feats[1].n = n;
    if (perfdata_encode_feat_string(feat_arch, sizeof feat_arch, 0, "arm", &n, err) != PERFDATA_OK) return -1;
    feats[2].id = PERFDATA_FEAT_ARCH; feats[2].bytes = feat_arch; feats[2].n = n;
    if (perfdata_encode_feat_nrcpus(feat_nrcpus, sizeof feat_nrcpus, 0, 1, 1, &n, err) != PERFDATA_OK) return -1;
    feats[3].id = PERFDATA_FEAT_NRCPUS; feats[3].bytes = feat_nrcpus; feats[3].n = n;
    if (perfdata_encode_feat_event_desc(feat_desc, sizeof feat_desc, 0, &event, &event_name, 1, &n, err) != PERFDATA_OK) return -1;
    feats[4].id = PERFDATA_FEAT_EVENT_DESC; feats[4].bytes = feat_desc; feats[4].n = n;
    if (perfdata_writer_init(&w, PERFDATA_WRITE_PIPE, to_host, 0, err) != PERFDATA_OK ||
        perfdata_writer_begin(&w, &event, 1, feats, 5, err) != PERFDATA_OK)
        return -1;
    /* the program: process 1, its image mapped at 0 with its build id */
    sid.sample_type = 0; sid.event = 0; sid.pid = sid.tid = 1; sid.time = 0; sid.id = event_id;
    sid.stream_id = 0; sid.cpu = sid.cpu_reserved = 0; sid.identifier = 0; sid.size = 0;
    c.pid = c.tid = 1; c.exec = 1;
    c.comm.p = (const unsigned char *)"fw_profile"; c.comm.n = 10; c.comm.offset = 0;
    if (perfdata_writer_comm(&w, PERFDATA_MISC_USER, &c, &sid, err) != PERFDATA_OK) return -1;
    m.pid = m.tid = 1;
    m.addr = 0;
    m.len = (uint64_t)(uintptr_t)__image_end;
    m.pgoff = (uint64_t)(uintptr_t)__fw_code_offset;
    m.has_build_id = 1;
    m.build_id_size = 20;
    m.build_id.p = __build_id_note + 16; m.build_id.n = 20; m.build_id.offset = 0;
    m.maj = m.min = 0; m.ino = m.ino_generation = 0;
    m.prot = 5; m.flags = 2;                   /* PROT_READ|PROT_EXEC, MAP_PRIVATE */
    m.filename.p = (const unsigned char *)"/fw_profile.elf"; m.filename.n = 15; m.filename.offset = 0;
    return perfdata_writer_mmap(&w, PERFDATA_RECORD_MMAP2, PERFDATA_MISC_USER, &m, &sid, err) == PERFDATA_OK ? 0 : -1;
}

/* The samples buffered since the last flush, as SAMPLE records. */
static int flush_samples(perfdata_error *err) {
    static perfdata_sample s; /* zeroed in .bss: every field its sample_type leaves out stays empty */
    uint32_t i;
    s.sample_type = event.attr.sample_type;
    s.event = 0;
    s.pid = s.tid = 1;
    s.period = TICK;
    for (i = 0; i < ring_n; i++) {
        s.ip = ring[i];
        s.time = (uint64_t)(ticks - ring_n + i) * TICK;
        if (perfdata_writer_sample(&w, PERFDATA_MISC_USER, &s, err) != PERFDATA_OK) return -1;
    }
    ring_n = 0;
    return perfdata_writer_record(&w, PERFDATA_RECORD_FINISHED_ROUND, 0, 0, 0, 0, 0, err) == PERFDATA_OK ? 0 : -1;
}

void reset_handler(void);
void reset_handler(void) {
    perfdata_error err;
    int round;
    if (start_stream(&err) != 0) { say("fw_profile: cannot start the stream\n"); leave(0); }
    SYST_RVR = TICK - 1;
    SYST_CVR = 0;
    for (round = 0; round < ROUNDS; round++) {
        sampling(1);
        hot_a(5 * WORK);
        hot_b(3 * WORK);
        hot_c(2 * WORK);
        sampling(0);
        if (flush_samples(&err) != 0) { say("fw_profile: writing the samples failed\n"); leave(0); }
    }
    if (perfdata_writer_finish(&w, &err) != PERFDATA_OK || semihost(0x02 /* SYS_CLOSE */, &host_fd) != 0) leave(0);
    say(dropped ? "fw_profile: samples dropped (ring full)\n" : "fw_profile: fw.data written\n");
    leave(dropped == 0);
}
void hardfault_handler(void);
void default_handler(void);
void hardfault_handler(void) { say("fw_profile: HardFault\n"); leave(0); }
void default_handler(void) { say("fw_profile: unexpected exception\n"); leave(0); }

extern uint32_t _estack;
__attribute__((section(".vectors"), used))
const void *const vectors[16] = { &_estack, (const void *)reset_handler, (const void *)default_handler,
                                  (const void *)hardfault_handler, 0, 0, 0, 0, 0, 0, 0,
                                  (const void *)default_handler, 0, 0, (const void *)default_handler,
                                  (const void *)systick_handler };
