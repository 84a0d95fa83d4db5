/* Two translation units that each carry a private (PERFDATA_STATIC) copy. */
#define PERFDATA_STATIC
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"

int other_unit(void);

int main(void) {
    perfdata_file f;
    perfdata_error err;
    static const unsigned char not_perf[16] = {0};
    if (perfdata_open(&f, not_perf, sizeof not_perf, 0, 0, &err) != PERFDATA_ERR_MALFORMED) return 1;
    return other_unit();
}
