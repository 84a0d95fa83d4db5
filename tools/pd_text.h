/* pd_text.h - text from a profile written so that it cannot forge output
   structure: a comm, file or symbol name read from a file can hold any byte,
   and printed as it is a newline would start a line of its own, a tab or
   separator a field, and an escape sequence would drive the terminal.
   Control characters (C0 bytes 0x00-0x1f, DEL 0x7f, and C1 characters
   U+0080-U+009F as UTF-8 encodes them, 0xc2 0x80-0x9f) are written as
   \xHH for each of their bytes; every other byte as it is, so names perf
   prints are printed the same. */
#ifndef PD_TEXT_H
#define PD_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* Whether s[0..n) needs escaping at all (the common case is no). */
int pd_text_clean(const char *s, size_t n);
/* s[0..n) escaped into out (at most cap-1 bytes and a NUL; an escape is
   never cut in half). Returns the length written. */
size_t pd_escape(char *out, size_t cap, const char *s, size_t n);
/* The escaped text in a buffer of the caller's, or s itself when it needs
   no escaping (then NUL-terminated as s is). For printf("%s"). */
const char *pd_escaped(char *buf, size_t cap, const char *s);
/* The widest a table column gets: a longer name is cut to it (a 64 KB
   name would pad every row of a table to 64 KB). */
#define PD_TEXT_CELL_MAX 1023
/* The length of s as written escaped, or PD_TEXT_CELL_MAX + 1 when that is
   more: the width of a column (it looks at no more of s than that). */
size_t pd_text_width(const char *s);
/* A table cell: s escaped into buf (len bytes), cut to at most width bytes
   (never inside an escape) and padded with spaces to width, as printf's
   "%-*.*s" does for text that needs no escaping. Returns buf. */
const char *pd_text_cell(char *buf, size_t len, const char *s, int width);
/* Writes s[0..n) escaped. Returns 0, or EOF on a write error. */
int pd_put_text(FILE *fp, const char *s, size_t n);
int pd_put_str(FILE *fp, const char *s);
/* One CSV cell (RFC 4180): quoted when it holds a comma, quote, CR or LF
   (quotes doubled), control characters escaped as above, and a cell that
   starts with = + - @ (or a tab or CR) prefixed with a ' so that no
   spreadsheet takes it for a formula. */
int pd_put_csv(FILE *fp, const char *s);

#endif
