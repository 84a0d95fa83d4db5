#define PERFDATA_STATIC
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"

int other_unit(void) {
    return perfdata_status_name(PERFDATA_END)[0] == 'P' ? 0 : 1;
}
