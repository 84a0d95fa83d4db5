/* emitter_size.c - what perfdata.h's writer adds to a firmware that only
   emits samples (ARMv6-M, -Os, --gc-sections): built with and without
   -DWITH_EMITTER by tests/firmware.sh (as it is, and with
   -DPERFDATA_WRITER_PIPE_ONLY -DPERFDATA_NO_ERROR_STRINGS), the difference
   of the two .text sizes is the emitter's. Both versions read the same inputs and leave a
   result, so the compiler keeps the same surrounding code. */
#include <stddef.h>
#include <stdint.h>
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"

static unsigned char out[512];
static volatile uint32_t pc_in, result;

#ifdef WITH_EMITTER
static perfdata_writer w;
static perfdata_writer_event ev;
static perfdata_sample s;
static const uint64_t id = 1;
static uint32_t emit(void) {
    ev.attr.type = 1;
    ev.attr.sample_type = PERFDATA_SAMPLE_IP | PERFDATA_SAMPLE_TID | PERFDATA_SAMPLE_TIME | PERFDATA_SAMPLE_PERIOD;
    ev.ids = &id;
    ev.nr_ids = 1;
    s.sample_type = ev.attr.sample_type;
    s.ip = pc_in;
    if (perfdata_writer_init_buffer(&w, PERFDATA_WRITE_PIPE, out, sizeof out, 0) != PERFDATA_OK ||
        perfdata_writer_begin(&w, &ev, 1, 0, 0, 0) != PERFDATA_OK ||
        perfdata_writer_sample(&w, PERFDATA_MISC_USER, &s, 0) != PERFDATA_OK ||
        perfdata_writer_finish(&w, 0) != PERFDATA_OK)
        return 0;
    return (uint32_t)perfdata_writer_size(&w);
}
#else
static uint32_t emit(void) { out[0] = (unsigned char)pc_in; return out[0]; }
#endif

void reset_handler(void);
void reset_handler(void) {
    result = emit();
    for (;;) {}
}
extern uint32_t _estack;
__attribute__((section(".vectors"), used))
const void *const vectors[2] = { &_estack, (const void *)reset_handler };
