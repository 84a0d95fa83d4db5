/* Compile gate: the implementation, included twice (the second include must
   be a no-op), as C or C++. */
#define PERFDATA_IMPLEMENTATION
#include "perfdata.h"
#include "perfdata.h"
