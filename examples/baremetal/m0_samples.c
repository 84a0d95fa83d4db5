/* m0_samples.c - perfdata.h on a bare-metal Cortex-M0 (BBC micro:bit under
   qemu-system-arm): parses the perf.data embedded in sample_data.h (at an odd
   address, straight from flash) and prints the samples per event through ARM
   semihosting, then exits through semihosting (0 = every record parsed).

   Build and run (`make test-m0` does this and checks the counts):
     clang --target=armv6m-none-eabi -mthumb -Os -ffreestanding -nostdlib \
       -fuse-ld=lld -Wl,-T,examples/baremetal/m0.ld -Wl,-e,reset_handler \
       -Wl,--gc-sections -ffunction-sections -fdata-sections -I. \
       examples/baremetal/m0_samples.c examples/baremetal/m0_rt.c -o m0_samples.elf
     qemu-system-arm -M microbit -nographic -monitor none -serial none \
       -semihosting-config enable=on,target=native -kernel m0_samples.elf
   Output: one line per event, "event 0 cpu-clock: 30 samples", then a
   "records N, samples N, status end of records" line. */
#include <stddef.h>
#include <stdint.h>
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"
#include "sample_data.h"

#define MAX_EVENTS 8

static int semihost(int op, const void *arg) {
    register int r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}
static void say(const char *s) { semihost(0x04 /* SYS_WRITE0 */, s); }
static void say_u(unsigned long v) {
    char b[12]; int i = 11;
    b[i] = 0;
    do { b[--i] = (char)('0' + v % 10u); v /= 10u; } while (v && i > 0);
    say(b + i);
}
static void leave(int ok) { /* ADP_Stopped_ApplicationExit -> qemu exits 0, else 1 */
    semihost(0x18 /* SYS_EXIT */, (const void *)(uintptr_t)(ok ? 0x20026u : 0x20023u));
    for (;;) {}
}

static perfdata_event events[MAX_EVENTS];    /* .bss: qemu starts with RAM zeroed */
static unsigned long samples[MAX_EVENTS];

void reset_handler(void);
void hardfault_handler(void);
void default_handler(void);

void reset_handler(void) {
    perfdata_file f; perfdata_cursor cur; perfdata_record rec; perfdata_sample s; perfdata_error err;
    unsigned long records = 0, total = 0, bad = 0;
    char name[64];
    size_t i;
    perfdata_status st = perfdata_open(&f, sample_data_padded + 1, SAMPLE_DATA_SIZE, events, MAX_EVENTS, &err);
    if (st != PERFDATA_OK) { say("open failed: "); say(err.message); say("\n"); leave(0); }
    perfdata_cursor_init(&f, &cur);
    while ((st = perfdata_next_record(&f, &cur, &rec, &err)) == PERFDATA_OK) {
        records++;
        if (rec.type != PERFDATA_RECORD_SAMPLE) continue;
        if (perfdata_decode_sample(&f, &rec, &s, &err) != PERFDATA_OK || s.event < 0 || (size_t)s.event >= f.nr_events) {
            bad++;
            continue;
        }
        samples[s.event]++;
        total++;
    }
    say("file " SAMPLE_DATA_NAME "\n");
    for (i = 0; i < f.nr_events; i++) {
        say("event "); say_u((unsigned long)i); say(" ");
        say(perfdata_event_name(&f, i, name, sizeof name));
        say(": "); say_u(samples[i]); say(" samples\n");
    }
    say("records "); say_u(records); say(", samples "); say_u(total);
    say(", undecodable "); say_u(bad); say(", status "); say(err.message); say("\n");
    leave(st == PERFDATA_END && bad == 0);
}
void hardfault_handler(void) { say("m0: HardFault\n"); leave(0); }
void default_handler(void) { say("m0: unexpected exception\n"); leave(0); }

extern uint32_t _estack;
__attribute__((section(".vectors"), used))
const void *const vectors[16] = { &_estack, (const void *)reset_handler, (const void *)default_handler,
                                  (const void *)hardfault_handler };
