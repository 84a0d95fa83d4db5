/* pd_demangle.h - C++ names (the Itanium C++ ABI's mangling, "_Z...") as
   perf prints them, and as c++filt prints them.
   perf 6.1 demangles with libiberty's cplus_demangle and no options: no
   parameter list for the function itself (a local name's enclosing
   function keeps its own), no clone suffix, and the short forms of the
   standard abbreviations (std::string for Ss). PD_DEMANGLE_PARAMS and
   PD_DEMANGLE_VERBOSE together give c++filt's default output.
   Input is hostile: the parse is bounded by the name's length (nodes,
   substitutions and recursion depth), printing by the output buffer and a
   step budget, and anything unexpected fails rather than guesses. */
#ifndef PD_DEMANGLE_H
#define PD_DEMANGLE_H

#include <stddef.h>

#define PD_DEMANGLE_PARAMS 1u  /* the function's parameters and qualifiers, clone suffixes */
#define PD_DEMANGLE_VERBOSE 2u /* std::basic_string<char, ...> rather than std::string */

/* name demangled into out (NUL-terminated, at most cap - 1 bytes). Returns
   its length, or -1 when name is no mangled C++ name this reads (or the
   text does not fit): the caller shows name as it is. */
long pd_demangle(const char *name, unsigned flags, char *out, size_t cap);

/* Whether name looks mangled at all ("_Z"), before any work. */
int pd_demangle_candidate(const char *name);

#endif
