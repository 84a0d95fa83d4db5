/* pd_tpfmt.h - a tracepoint sample's payload printed as perf 6.1's
   `perf script` prints its trace field: the event's print fmt (from the
   file's TRACING_DATA) interpreted as perf's in-tree libtraceevent
   (linux v6.1 tools/lib/traceevent/event-parse.c) interprets it, with no
   plugins: Debian's perf 6.1 looks for plugins only in
   $TRACEEVENT_PLUGIN_DIR and ~/.local/lib/traceevent/plugins, so
   sched_switch prints its print fmt, not plugin_sched_switch's text.

   The print fmt is parsed once per event (pd_tpfmt_compile), with
   libtraceevent's grammar and its quirks (operators of equal priority
   group to the right; a function it does not know, such as __get_sockaddr
   or a plugin's helper, fails the event). An event that fails to parse
   prints as perf prints it then: "[FAILED TO PARSE]" and " name=value" for
   each of its own fields.

   Hostile input: the print fmt and the field layout come from the file.
   Compiling is linear in the print fmt's length (field names hashed);
   parsing and evaluation are depth-limited; every payload read is
   bounds-checked (a read outside the payload reads as 0, a string stops at
   its end); printed text goes through pd_text's escaping, so no field can
   forge a line. Both byte orders print the same. */
#ifndef PD_TPFMT_H
#define PD_TPFMT_H

#include <stddef.h>
#include <stdint.h>

#include "perfdata.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pd_tpfmt pd_tpfmt;   /* one event's compiled print fmt and fields */

/* Compiles one event. Never NULL (out of memory exits, pd_nomem). When the
   print fmt uses something this module does not support, the result prints
   the fields as perf does for an event it cannot parse, and
   pd_tpfmt_unsupported() names what was not supported. */
pd_tpfmt *pd_tpfmt_compile(const perfdata_tracing *t, const perfdata_tp_format *fmt);
/* NULL when the print fmt is fully supported (also when perf itself fails
   to parse it: that failure is reproduced, not unsupported). */
const char *pd_tpfmt_unsupported(const pd_tpfmt *f);
/* Whether perf fails to parse this event's print fmt (it prints the
   "[FAILED TO PARSE]" form). */
int pd_tpfmt_failed(const pd_tpfmt *f);
void pd_tpfmt_free(pd_tpfmt *f);

/* Kernel address -> symbol, for %pS %ps %pF %pf: 1 with the symbol's name
   and start address, 0 when unknown (perf then prints 0x<address>). */
typedef int (*pd_tpfmt_ksym_fn)(void *ctx, uint64_t addr, const char **name, uint64_t *sym_start);

/* Appends the trace text of one sample (no newline) to *buf (length *len,
   capacity *cap, grown with realloc; NUL-terminated after it). raw is the
   sample's RAW payload in byte order big_endian. ksym may be NULL. Returns
   the bytes appended. */
/* pd_tpfmt_print fills the buffer to at most this length; more text is dropped. */
#define PD_TPFMT_TEXT_MAX 65536
size_t pd_tpfmt_print(const pd_tpfmt *f, perfdata_view raw, int big_endian, pd_tpfmt_ksym_fn ksym, void *ctx,
                      char **buf, size_t *len, size_t *cap);

/* --filter 'EXPR' for one event, in perf's (ftrace's) filter syntax:
   FIELD OP VALUE joined by && and ||, with ! and parentheses. Integer
   fields take == != < <= > >= and & (a bit test: nonzero); string fields
   (char arrays, __data_loc strings) take == != and ~ (a glob: * ? [...]).
   Values are numbers (decimal, 0x hex, 0 octal, negative) or strings,
   quoted with ' or " or bare. NULL with a message for a bad expression or
   a field the event does not have. */
typedef struct pd_tpfilter pd_tpfilter;
pd_tpfilter *pd_tpfilter_compile(const perfdata_tp_format *fmt, const char *expr, char *errbuf, size_t errcap);
/* 1 when the sample matches; a field outside the payload compares as 0 or
   as the empty string. */
int pd_tpfilter_match(const pd_tpfilter *flt, perfdata_view raw, int big_endian);
void pd_tpfilter_free(pd_tpfilter *flt);

#ifdef __cplusplus
}
#endif

#endif
