/* PERFDATA_NO_ERROR_STRINGS: errors keep their code and offset, the
   messages are empty. */
#define PERFDATA_NO_ERROR_STRINGS
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"

int main(void) {
    static const unsigned char not_perf[16] = {'n', 'o', 't', ' ', 'p', 'e', 'r', 'f'};
    perfdata_file f;
    perfdata_error err;
    if (perfdata_open(&f, not_perf, sizeof not_perf, 0, 0, &err) != PERFDATA_ERR_MALFORMED) return 1;
    if (err.code != PERFDATA_ERR_MALFORMED || err.message == 0 || err.message[0] != 0) return 1;
    return perfdata_status_name(PERFDATA_ERR_MALFORMED)[0] == 'P' ? 0 : 1;
}
