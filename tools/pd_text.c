/* pd_text.c - see pd_text.h. */
#include "pd_text.h"

#include <string.h>

/* Bytes of the control character at s[i] (1 or 2), or 0 for none. */
static size_t control_at(const unsigned char *s, size_t i, size_t n) {
    if (s[i] < 0x20 || s[i] == 0x7f) return 1;
    if (s[i] == 0xc2 && i + 1 < n && s[i + 1] >= 0x80 && s[i + 1] <= 0x9f) return 2;
    return 0;
}

int pd_text_clean(const char *s, size_t n) {
    const unsigned char *u = (const unsigned char *)s;
    size_t i;
    for (i = 0; i < n; i++)
        if (control_at(u, i, n)) return 0;
    return 1;
}

size_t pd_escape(char *out, size_t cap, const char *s, size_t n) {
    static const char hex[] = "0123456789abcdef";
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, o = 0;
    if (!cap) return 0;
    while (i < n) {
        size_t k = control_at(u, i, n), j;
        if (!k) {
            if (o + 1 >= cap) break;
            out[o++] = (char)u[i++];
            continue;
        }
        if (o + 4 * k >= cap) break;
        for (j = 0; j < k; j++, i++) {
            out[o++] = '\\';
            out[o++] = 'x';
            out[o++] = hex[u[i] >> 4];
            out[o++] = hex[u[i] & 15];
        }
    }
    out[o] = 0;
    return o;
}

const char *pd_escaped(char *buf, size_t cap, const char *s) {
    size_t n = strlen(s);
    if (pd_text_clean(s, n)) return s;
    pd_escape(buf, cap, s, n);
    return buf;
}

/* strlen(s), or max when that is more: a cell looks no further. */
static size_t capped_len(const char *s, size_t max) {
    size_t n = 0;
    while (n < max && s[n]) n++;
    return n;
}

size_t pd_text_width(const char *s) {
    const unsigned char *u = (const unsigned char *)s;
    /* every byte takes one column at least: past the widest column (and a
       control character's second byte) nothing changes the answer */
    size_t i = 0, len = 0, n = capped_len(s, PD_TEXT_CELL_MAX + 2), k;
    while (i < n) {
        k = control_at(u, i, n);
        if (k) { len += 4 * k; i += k; }
        else { len++; i++; }
    }
    return len > PD_TEXT_CELL_MAX ? PD_TEXT_CELL_MAX + 1 : len;
}

const char *pd_text_cell(char *buf, size_t len, const char *s, int width) {
    size_t w = width > 0 ? (size_t)width : 0, n;
    if (!len) return buf;
    n = pd_escape(buf, w + 1 < len ? w + 1 : len, s, capped_len(s, len + 1));
    while (n < w && n + 1 < len) buf[n++] = ' ';
    buf[n] = 0;
    return buf;
}

int pd_put_text(FILE *fp, const char *s, size_t n) {
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        size_t start = i, k;
        while (i < n && !control_at(u, i, n)) i++;
        if (i > start && fwrite(s + start, 1, i - start, fp) != i - start) return EOF;
        if (i < n) {
            for (k = control_at(u, i, n); k; k--, i++)
                if (fprintf(fp, "\\x%02x", u[i]) < 0) return EOF;
        }
    }
    return 0;
}

int pd_put_str(FILE *fp, const char *s) { return pd_put_text(fp, s, strlen(s)); }

int pd_put_csv(FILE *fp, const char *s) {
    size_t n = strlen(s), i;
    int quote = strpbrk(s, ",\"\r\n") != NULL;
    if (quote && fputc('"', fp) == EOF) return EOF;
    if (n && strchr("=+-@\t\r", s[0]) && fputc('\'', fp) == EOF) return EOF;
    for (i = 0; i < n;) {
        size_t j = i;
        while (j < n && s[j] != '"') j++;
        if (pd_put_text(fp, s + i, j - i) == EOF) return EOF;
        if (j < n && fputs("\"\"", fp) == EOF) return EOF;
        i = j < n ? j + 1 : j;
    }
    if (quote && fputc('"', fp) == EOF) return EOF;
    return 0;
}
