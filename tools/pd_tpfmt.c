/* pd_tpfmt.c - see pd_tpfmt.h.

   The parser follows libtraceevent's (linux v6.1 tools/lib/traceevent/
   event-parse.c: __read_token, process_arg_token, process_op and the
   process_* helpers) step for step, since perf's output depends on its
   decisions, quirks included: an operator binds its right operand more
   tightly when the next operator has the same priority (a - b - c is
   a - (b - c)); an array index or a helper's argument is one primary
   expression; a[i] on __get_dynamic_array fails. The print cache follows
   parse_args/print_event_cache; the conversions are written out here
   (never a format string from the file handed to printf) with glibc's
   behaviour for what perf passes: %d of a value cast to int, %zu of an int,
   %p of 0 as "(nil)". */
#include "pd_tpfmt.h"
#include "pd_intern.h"
#include "pd_text.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ limits */

#define TPF_MAX_DEPTH 200      /* parser recursion and evaluation depth */
#define TPF_SPEC_MAX 31        /* a conversion longer than this fails, as perf's "bad format!" */

/* -------------------------------------------------------------- nodes */

/* libtraceevent's print_arg types, numbered as it numbers them: the
   number shows in its "ARG TYPE NOT FIELD BUT %d". */
enum {
    K_NULL = 0, K_ATOM = 1, K_FIELD = 2, K_FLAGS = 3, K_SYMBOL = 4, K_HEX = 5, K_INT_ARRAY = 6, K_TYPE = 7,
    K_STRING = 8, K_BSTRING = 9, K_DYNARRAY = 10, K_OP = 11, K_FUNC = 12, K_BITMASK = 13, K_DYNARRAY_LEN = 14,
    K_HEX_STR = 15
};

typedef struct tpf_node {
    int kind;
    int prio;                 /* K_OP: libtraceevent's op.prio */
    int a, b, c;              /* children (-1: none): OP left/right; TYPE item; FLAGS/SYMBOL field;
                                 HEX field/size; INT_ARRAY field/count/el_size */
    size_t str;               /* arena offset: ATOM text, OP token, TYPE name, FIELD/STRING/BITMASK name,
                                 FLAGS delimiter (or (size_t)-1) */
    int field;                /* resolved field index, -1 when none */
    size_t sym, nsym;         /* FLAGS/SYMBOL: their entries in syms */
} tpf_node;

typedef struct tpf_sym { long long value; size_t str; } tpf_sym;

typedef struct tpf_field {
    perfdata_tp_field f;
    size_t name;              /* arena offset of the NUL-terminated name */
} tpf_field;

enum { SEG_TEXT, SEG_NUM, SEG_PTR, SEG_STR };
typedef struct tpf_seg {
    int type;
    size_t text;              /* arena offset: literal text or the conversion ("%-5lu") */
    int arg, len_arg;         /* nodes, -1 none */
    int ls;
} tpf_seg;

struct pd_tpfmt {
    char *arena;              /* never reallocated after compile: offsets into it */
    size_t arena_n, arena_cap;
    tpf_node *nodes;
    size_t nnodes, capnodes;
    tpf_sym *syms;
    size_t nsyms, capsyms;
    tpf_field *fields;        /* all fields, in their order */
    size_t nfields;
    size_t *slots;            /* field name hash: index + 1 of the first field of that name */
    size_t nslots;
    tpf_seg *segs;
    size_t nsegs, capsegs;
    int *args;                /* the print fmt's argument nodes */
    size_t nargs, capargs;
    unsigned char *string_off; /* per field: perf's TEP_FIELD_IS_STRING cleared (it clears it for good
                                  the first time a string field is not printable) */
    unsigned long_size;
    int failed;               /* perf's TEP_EVENT_FL_FAILED */
    const char *unsupported;
};

/* ----------------------------------------------------------- memory */

static void *tpf_realloc(void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (!q) pd_nomem();
    return q;
}

static void *tpf_grow(void *p, size_t *cap, size_t need, size_t elem) {
    size_t c = *cap;
    if (need <= c) return p;
    while (c < need) c = c ? c * 2 : 16;
    if (c > (size_t)-1 / elem) pd_nomem();
    *cap = c;
    return tpf_realloc(p, c * elem);
}

/* The arena is sized before parsing for everything parsing can put in it
   (texts are never longer than the print fmt they come from), so offsets
   stay valid and pointers into it too. Returns the offset. */
static size_t arena_put(pd_tpfmt *f, const char *s, size_t n) {
    size_t off = f->arena_n;
    if (n + 1 > f->arena_cap - f->arena_n) { /* cannot happen: sized for the worst case */
        f->failed = 1;
        f->unsupported = "internal: text arena exhausted";
        return f->arena_cap - 1; /* the final NUL: an empty string */
    }
    if (n) memcpy(f->arena + off, s, n);
    f->arena[off + n] = 0;
    f->arena_n += n + 1;
    return off;
}

static const char *S(const pd_tpfmt *f, size_t off) { return f->arena + off; }

static int new_node(pd_tpfmt *f, int kind) {
    tpf_node *n;
    f->nodes = (tpf_node *)tpf_grow(f->nodes, &f->capnodes, f->nnodes + 1, sizeof *f->nodes);
    n = &f->nodes[f->nnodes];
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->a = n->b = n->c = -1;
    n->field = -1;
    n->str = (size_t)-1;
    return (int)f->nnodes++;
}

/* ------------------------------------------------------------ fields */

static int c_isalnum_u(int c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

static uint64_t name_hash(const char *s, size_t n) { return pd_hash_bytes(s, n); }

static int tpf_has(perfdata_view v, const char *w) {
    size_t n = strlen(w), i;
    for (i = 0; i + n <= v.n; i++)
        if (!memcmp(v.p + i, w, n)) return 1;
    return 0;
}

/* libtraceevent's type_size: the element types it knows by name */
static uint32_t type_size(const unsigned char *s, size_t n) {
    static const struct { const char *t; uint32_t size; } table[] = {
        {"u8", 1}, {"u16", 2}, {"u32", 4}, {"u64", 8}, {"s8", 1}, {"s16", 2}, {"s32", 4}, {"s64", 8}, {"char", 1}};
    size_t i;
    for (i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strlen(table[i].t) == n && !memcmp(table[i].t, s, n)) return table[i].size;
    return 0;
}

/* The field's flags and element size as libtraceevent's event_read_fields
   sets them (perf prints by those): __data_loc char[] is an array too,
   u8/s8 arrays are strings, any type with "long" in it is long, and an
   array's element size is 0 where libtraceevent cannot tell it. */
static void tep_field_flags(perfdata_tp_field *x, unsigned long_size) {
    uint32_t fl = x->flags & (PERFDATA_TP_FIELD_COMMON | PERFDATA_TP_FIELD_SIGNED);
    perfdata_view t = x->type;
    const unsigned char *br = t.n ? (const unsigned char *)memchr(t.p, '[', t.n) : NULL;
    int dyn = t.n >= 10 && !memcmp(t.p, "__data_loc", 10), rel = t.n >= 9 && !memcmp(t.p, "__rel_loc", 9);
    int array = (x->flags & PERFDATA_TP_FIELD_ARRAY) || br != NULL;
    if (array) fl |= PERFDATA_TP_FIELD_ARRAY;
    if (dyn) fl |= PERFDATA_TP_FIELD_DYNAMIC;
    if (rel) fl |= PERFDATA_TP_FIELD_DYNAMIC | PERFDATA_TP_FIELD_RELATIVE;
    if (array && (tpf_has(t, "char") || tpf_has(t, "u8") || tpf_has(t, "s8"))) fl |= PERFDATA_TP_FIELD_STRING;
    if (tpf_has(t, "long")) fl |= PERFDATA_TP_FIELD_LONG;
    if (t.n && memchr(t.p, '*', t.n)) fl |= PERFDATA_TP_FIELD_POINTER;
    if (array) {
        if (x->array_len && !br) x->elem_size = x->size / x->array_len;
        else if (fl & PERFDATA_TP_FIELD_DYNAMIC) {
            /* the word before the brackets */
            size_t e = br ? (size_t)(br - t.p) : t.n, b;
            while (e && (t.p[e - 1] == ' ' || t.p[e - 1] == '\t')) e--;
            b = e;
            while (b && (c_isalnum_u(t.p[b - 1]) || t.p[b - 1] == '_')) b--;
            x->elem_size = type_size(t.p + b, e - b);
        } else if (fl & PERFDATA_TP_FIELD_STRING) x->elem_size = 1;
        else if (fl & PERFDATA_TP_FIELD_LONG) x->elem_size = long_size;
        else x->elem_size = 0;
    } else {
        x->elem_size = x->size;
    }
    x->flags = fl;
}

static void fields_load(pd_tpfmt *f, const perfdata_tp_format *fmt) {
    size_t st = 0, cap = 0, i;
    perfdata_tp_field fl;
    while (perfdata_tp_field_next(fmt, &st, &fl)) {
        tep_field_flags(&fl, f->long_size);
        f->fields = (tpf_field *)tpf_grow(f->fields, &cap, f->nfields + 1, sizeof *f->fields);
        f->fields[f->nfields].f = fl;
        f->fields[f->nfields].name = (size_t)-1;
        f->nfields++;
    }
    f->string_off = (unsigned char *)calloc(f->nfields ? f->nfields : 1, 1);
    if (!f->string_off) pd_nomem();
    f->nslots = 16;
    while (f->nslots < 2 * f->nfields) f->nslots *= 2;
    f->slots = (size_t *)calloc(f->nslots, sizeof *f->slots);
    if (!f->slots) pd_nomem();
    /* common fields first: a name is found among them first, as
       tep_find_any_field looks */
    for (int pass = 0; pass < 2; pass++) {
        for (i = 0; i < f->nfields; i++) {
            const perfdata_tp_field *x = &f->fields[i].f;
            int common = (x->flags & PERFDATA_TP_FIELD_COMMON) != 0;
            size_t h;
            if (common != (pass == 0)) continue;
            h = (size_t)name_hash((const char *)x->name.p, x->name.n) & (f->nslots - 1);
            for (;;) {
                size_t s = f->slots[h];
                if (!s) { f->slots[h] = i + 1; break; }
                if (f->fields[s - 1].f.name.n == x->name.n && !memcmp(f->fields[s - 1].f.name.p, x->name.p, x->name.n))
                    break; /* the first of that name stays */
                h = (h + 1) & (f->nslots - 1);
            }
        }
    }
}

/* tep_find_any_field: a common field, else an event field. */
static int field_find_any(const pd_tpfmt *f, const char *name, size_t n) {
    size_t h;
    if (!f->nslots) return -1;
    h = (size_t)name_hash(name, n) & (f->nslots - 1);
    for (;;) {
        size_t s = f->slots[h];
        if (!s) return -1;
        if (f->fields[s - 1].f.name.n == n && !memcmp(f->fields[s - 1].f.name.p, name, n)) return (int)(s - 1);
        h = (h + 1) & (f->nslots - 1);
    }
}

/* tep_find_field: the event's own fields only. */
static int field_find_event(const pd_tpfmt *f, const char *name, size_t n) {
    int i = field_find_any(f, name, n);
    size_t j;
    if (i < 0 || !(f->fields[i].f.flags & PERFDATA_TP_FIELD_COMMON)) return i;
    /* a common field hides an event field of the same name: rare, look on */
    for (j = 0; j < f->nfields; j++)
        if (!(f->fields[j].f.flags & PERFDATA_TP_FIELD_COMMON) && f->fields[j].f.name.n == n &&
            !memcmp(f->fields[j].f.name.p, name, n))
            return (int)j;
    return -1;
}

/* ------------------------------------------------------------ tokens */

enum { T_ERROR, T_NONE, T_SPACE, T_NEWLINE, T_OP, T_DELIM, T_ITEM, T_DQUOTE, T_SQUOTE };

typedef struct tpf_tok {
    int type;
    size_t str;               /* arena offset of the token's text */
    size_t at, end;           /* where it was in the input */
} tpf_tok;

typedef struct tpf_parser {
    pd_tpfmt *f;
    const char *in;
    size_t pos, end;
    int depth;
    int is_flag, is_symbolic;
} tpf_parser;

static int c_isspace(int c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
static int c_isalnum(int c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* get_type: bytes are read as (signed) char, as perf reads them: bytes
   from 0x80 up, like NUL and controls, end the input (TEP_EVENT_NONE). */
static int char_type(int ch) {
    if (ch == '\n') return T_NEWLINE;
    if (ch < 0 || ch >= 0x80) return T_NONE;
    if (c_isspace(ch)) return T_SPACE;
    if (c_isalnum(ch) || ch == '_') return T_ITEM;
    if (ch == '\'') return T_SQUOTE;
    if (ch == '"') return T_DQUOTE;
    if (ch < 0x20 || ch == 0x7f) return T_NONE;
    if (ch == '(' || ch == ')' || ch == ',') return T_DELIM;
    return T_OP;
}

static int peek_ch(tpf_parser *p) { return p->pos < p->end ? (unsigned char)p->in[p->pos] : -1; }
static int read_ch(tpf_parser *p) { return p->pos < p->end ? (unsigned char)p->in[p->pos++] : -1; }

static const char *tok_s(tpf_parser *p, const tpf_tok *t) { return S(p->f, t->str); }
static int tok_is(tpf_parser *p, const tpf_tok *t, int type, const char *s) {
    return t->type == type && !strcmp(tok_s(p, t), s);
}

/* __read_token */
static int raw_token(tpf_parser *p, tpf_tok *t) {
    pd_tpfmt *f = p->f;
    size_t start = p->pos;
    int ch = read_ch(p), type;
    t->str = f->arena_cap - 1; /* "" */
    t->at = start;
    if (ch < 0) return t->type = T_NONE;
    type = char_type(ch);
    if (type == T_NONE) return t->type = T_NONE;
    switch (type) {
    case T_NEWLINE:
    case T_DELIM:
        t->str = arena_put(f, p->in + start, 1);
        return t->type = type;
    case T_OP: {
        int last, nx;
        switch (ch) {
        case '-':
            if (peek_ch(p) == '>') { p->pos++; break; }
            /* fall through */
        case '+': case '|': case '&': case '>': case '<':
            last = ch;
            nx = peek_ch(p);
            if (nx != last) goto test_equal;
            p->pos++;
            if (last == '>' || last == '<') goto test_equal;
            break;
        case '!': case '=':
            goto test_equal;
        default:
            break;
        }
        t->str = arena_put(f, p->in + start, p->pos - start);
        return t->type = type;
    test_equal:
        if (peek_ch(p) == '=') p->pos++;
        t->str = arena_put(f, p->in + start, p->pos - start);
        return t->type = type;
    }
    case T_DQUOTE:
    case T_SQUOTE: {
        /* the text without its quotes; "a" "b" concatenate */
        size_t off = f->arena_n;
        int quote = ch, last;
        for (;;) {
            last = 0;
            for (;;) {
                ch = read_ch(p);
                if (ch < 0) { /* unterminated: perf would loop forever; fail the event */
                    if (f->arena_n < f->arena_cap) f->arena[f->arena_n] = 0;
                    return t->type = T_ERROR;
                }
                if (ch == quote && last != '\\') break;
                if (f->arena_n + 1 >= f->arena_cap) return t->type = T_ERROR;
                f->arena[f->arena_n++] = (char)ch;
                if (ch == '\\' && last == '\\') last = 0;
                else last = ch;
            }
            if (type == T_DQUOTE) {
                size_t save = p->pos;
                do ch = read_ch(p); while (ch >= 0 && c_isspace(ch));
                if (ch == '"') continue;
                p->pos = save;
            }
            break;
        }
        f->arena[f->arena_n++] = 0;
        t->str = off;
        return t->type = type;
    }
    default:
        break;
    }
    while (char_type(peek_ch(p)) == type) p->pos++;
    if (type == T_ITEM) {
        /* old kernels' mac80211 formats: the same stand-ins as perf */
        size_t n = p->pos - start;
        const char *s = p->in + start, *rep = NULL;
        if (n == 12 && !memcmp(s, "LOCAL_PR_FMT", 12)) rep = "%s";
        else if (n == 10 && !memcmp(s, "STA_PR_FMT", 10)) rep = " sta:%pM";
        else if (n == 10 && !memcmp(s, "VIF_PR_FMT", 10)) rep = " vif:%p(%d)";
        if (rep) {
            t->str = arena_put(f, rep, strlen(rep));
            return t->type = T_DQUOTE;
        }
    }
    t->str = arena_put(f, p->in + start, p->pos - start);
    t->end = p->pos;
    return t->type = type;
}

static int read_token(tpf_parser *p, tpf_tok *t) {
    for (;;) {
        int type = raw_token(p, t);
        if (type != T_SPACE) return type;
    }
}

static int read_token_item(tpf_parser *p, tpf_tok *t) {
    for (;;) {
        int type = raw_token(p, t);
        if (type != T_SPACE && type != T_NEWLINE) return type;
    }
}

/* read_expected (newline ok) */
static int expect(tpf_parser *p, int type, const char *s) {
    tpf_tok t;
    read_token_item(p, &t);
    return tok_is(p, &t, type, s) ? 0 : -1;
}

static int expect_type(tpf_parser *p, int type, tpf_tok *t) {
    read_token_item(p, t);
    return t->type == type ? 0 : -1;
}

/* ------------------------------------------------------------ parser */

static int process_arg(tpf_parser *p, int arg, tpf_tok *tok);
static int process_arg_token(tpf_parser *p, int arg, tpf_tok *tok);
static int process_op(tpf_parser *p, int arg, tpf_tok *tok);

static tpf_node *N(tpf_parser *p, int i) { return &p->f->nodes[i]; }

static int tpf_fail(tpf_parser *p) {
    (void)p;
    return T_ERROR;
}

static int too_deep(tpf_parser *p) {
    if (p->depth <= TPF_MAX_DEPTH) return 0;
    if (!p->f->unsupported) p->f->unsupported = "print fmt nested too deeply";
    return 1;
}

static int get_op_prio(const char *op) {
    if (!op[0]) return -1;
    if (!op[1]) {
        switch (op[0]) {
        case '~': case '!': return 4;
        case '*': case '/': case '%': return 6;
        case '+': case '-': return 7;
        case '<': case '>': return 9;
        case '&': return 11;
        case '^': return 12;
        case '|': return 13;
        case '?': return 16;
        default: return -1;
        }
    }
    if (!strcmp(op, "++") || !strcmp(op, "--")) return 3;
    if (!strcmp(op, ">>") || !strcmp(op, "<<")) return 8;
    if (!strcmp(op, ">=") || !strcmp(op, "<=")) return 9;
    if (!strcmp(op, "==") || !strcmp(op, "!=")) return 10;
    if (!strcmp(op, "&&")) return 14;
    if (!strcmp(op, "||")) return 15;
    return -1;
}

static int is_binary_op(const char *s) {
    static const char *const ops[] = {">>", "<<", "&", "|", "&&", "||", "-", "+", "*", "^", "/", "%",
                                      "<",  ">",  "<=", ">=", "==", "!="};
    size_t i;
    for (i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (!strcmp(s, ops[i])) return 1;
    return 0;
}

static int copy_node(tpf_parser *p, int from) {
    int n = new_node(p->f, K_NULL);
    *N(p, n) = *N(p, from);
    return n;
}

/* "unsigned" "long": an atom of several items, joined by one space: the
   input they span with each run of white space made one space (no longer
   than that input, and made once: linear). */
static size_t atom_join(tpf_parser *p, size_t at, size_t end) {
    pd_tpfmt *f = p->f;
    size_t off = f->arena_n, n = 0, i;
    if (end - at + 1 > f->arena_cap - f->arena_n) return f->arena_cap - 1;
    for (i = at; i < end; i++) {
        int ch = (unsigned char)p->in[i];
        if (ch == '\n' || c_isspace(ch)) {
            if (n && f->arena[off + n - 1] == ' ') continue;
            ch = ' ';
        }
        f->arena[off + n++] = (char)ch;
    }
    f->arena[off + n] = 0;
    f->arena_n += n + 1;
    return off;
}

/* "type" then " *": a pointer type */
static size_t atom_append(tpf_parser *p, size_t a, const char *more) {
    pd_tpfmt *f = p->f;
    size_t la = strlen(S(f, a)), lm = strlen(more), off = f->arena_n;
    if (la + lm + 2 > f->arena_cap - f->arena_n) return a;
    memmove(f->arena + off, f->arena + a, la);
    f->arena[off + la] = ' ';
    memmove(f->arena + off + la + 1, more, lm);
    f->arena[off + la + 1 + lm] = 0;
    f->arena_n += la + lm + 2;
    return off;
}

static int process_cond(tpf_parser *p, int top, tpf_tok *tok) {
    int arg = new_node(p->f, K_OP), left = new_node(p->f, K_NULL), right = new_node(p->f, K_NULL), type;
    N(p, arg)->a = left;
    N(p, arg)->b = right;
    type = process_arg(p, left, tok);
    for (;;) {
        if (type == T_ERROR) return tpf_fail(p);
        if (type == T_OP && strcmp(tok_s(p, tok), ":") != 0) {
            type = process_op(p, left, tok);
            continue;
        }
        break;
    }
    if (!tok_is(p, tok, T_OP, ":")) return tpf_fail(p);
    N(p, arg)->str = tok->str;
    type = process_arg(p, right, tok);
    N(p, top)->b = arg;
    return type;
}

static int process_array(tpf_parser *p, int top, tpf_tok *tok) {
    int arg = new_node(p->f, K_NULL);
    process_arg(p, arg, tok);
    if (!tok_is(p, tok, T_OP, "]")) return tpf_fail(p);
    N(p, top)->b = arg;
    return read_token_item(p, tok);
}

static int process_op(tpf_parser *p, int arg, tpf_tok *tok) {
    int left, right = -1, type;
    const char *op = tok_s(p, tok);
    tpf_tok optok = *tok;
    if (arg < 0) return tpf_fail(p); /* perf dereferences NULL here */
    p->depth++;
    if (too_deep(p)) { p->depth--; return tpf_fail(p); }
    if (N(p, arg)->kind == K_OP && N(p, arg)->a < 0) {
        /* a unary op */
        if (op[0] == 0 || op[1] || !strchr("~!+-", op[0])) { p->depth--; return tpf_fail(p); }
        left = new_node(p->f, K_NULL);
        N(p, arg)->a = left;
        right = new_node(p->f, K_NULL);
        N(p, arg)->b = right;
        type = process_arg(p, right, tok);
    } else if (!strcmp(op, "?")) {
        left = copy_node(p, arg);
        N(p, arg)->kind = K_OP;
        N(p, arg)->str = optok.str;
        N(p, arg)->a = left;
        N(p, arg)->b = -1;
        N(p, arg)->prio = 0;
        type = process_cond(p, arg, tok);
    } else if (is_binary_op(op)) {
        int prio;
        left = copy_node(p, arg);
        N(p, arg)->kind = K_OP;
        N(p, arg)->str = optok.str;
        N(p, arg)->a = left;
        N(p, arg)->b = -1;
        N(p, arg)->c = -1;
        /* set_op_prio */
        prio = (N(p, left)->kind == K_NULL) ? 0 : get_op_prio(op);
        N(p, arg)->prio = prio;
        if (prio == -1) { p->f->failed = 1; p->depth--; return tpf_fail(p); }
        type = read_token_item(p, tok);
        if (!strcmp(op, "*") && type == T_DELIM && !strcmp(tok_s(p, tok), ")")) {
            /* "(type *)": a pointer type */
            if (N(p, left)->kind != K_ATOM) { p->depth--; return tpf_fail(p); }
            N(p, left)->str = atom_append(p, N(p, left)->str, "*");
            *N(p, arg) = *N(p, left);
            p->depth--;
            return type;
        }
        right = new_node(p->f, K_NULL);
        type = process_arg_token(p, right, tok);
        if (type == T_ERROR) { p->depth--; return tpf_fail(p); }
        if (N(p, right)->kind == K_OP && get_op_prio(op) < get_op_prio(S(p->f, N(p, right)->str))) {
            tpf_node tmp;
            N(p, arg)->b = N(p, right)->a;
            tmp = *N(p, arg);
            *N(p, arg) = *N(p, right);
            *N(p, right) = tmp;
            N(p, arg)->a = right;
        } else {
            N(p, arg)->b = right;
        }
    } else if (!strcmp(op, "[")) {
        left = copy_node(p, arg);
        N(p, arg)->kind = K_OP;
        N(p, arg)->str = optok.str;
        N(p, arg)->a = left;
        N(p, arg)->b = -1;
        N(p, arg)->prio = 0;
        type = process_array(p, arg, tok);
    } else {
        p->f->failed = 1; /* unknown op */
        p->depth--;
        return tpf_fail(p);
    }
    if (type == T_OP && strcmp(tok_s(p, tok), ":") != 0) {
        int prio = get_op_prio(tok_s(p, tok));
        p->depth--;
        if (prio > N(p, arg)->prio) return process_op(p, arg, tok);
        return process_op(p, right, tok);
    }
    p->depth--;
    return type;
}

static int process_entry(tpf_parser *p, int arg, tpf_tok *tok) {
    tpf_tok t;
    if (expect(p, T_OP, "->") < 0) return tpf_fail(p);
    if (expect_type(p, T_ITEM, &t) < 0) return tpf_fail(p);
    N(p, arg)->kind = K_FIELD;
    N(p, arg)->str = t.str;
    if (p->is_flag || p->is_symbolic) {
        /* perf dereferences the field it looks up here: a missing one crashes it */
        if (field_find_any(p->f, tok_s(p, &t), strlen(tok_s(p, &t))) < 0) {
            p->f->unsupported = "__print_flags/__print_symbolic of a field the event does not have";
            return tpf_fail(p);
        }
        p->is_flag = p->is_symbolic = 0;
    }
    return read_token(p, tok);
}

/* process_field_arg */
static int process_field_arg(tpf_parser *p, int arg, tpf_tok *tok) {
    int type = process_arg(p, arg, tok);
    while (type == T_OP) type = process_op(p, arg, tok);
    return type;
}

/* arg_num_eval: the constant arithmetic of flag and symbol values */
static unsigned long long eval_type_str(unsigned long long val, const char *type, int pointer);

static int arg_num_eval(pd_tpfmt *f, int a, long long *val, int depth) {
    tpf_node *n;
    long long l = 0, r = 0;
    const char *op;
    if (a < 0 || depth > TPF_MAX_DEPTH) return 0;
    n = &f->nodes[a];
    switch (n->kind) {
    case K_ATOM:
        *val = strtoll(S(f, n->str), NULL, 0);
        return 1;
    case K_TYPE:
        if (!arg_num_eval(f, n->a, val, depth + 1)) return 0;
        *val = (long long)eval_type_str((unsigned long long)*val, S(f, n->str), 0);
        return 1;
    case K_OP:
        op = S(f, n->str);
        switch (op[0]) {
        case '|': case '&': case '<': case '>': case '=': case '!':
            if (!arg_num_eval(f, n->a, &l, depth + 1) || !arg_num_eval(f, n->b, &r, depth + 1)) return 0;
            break;
        case '-': case '+':
            if (n->a >= 0 && f->nodes[n->a].kind == K_NULL) l = 0;
            else if (!arg_num_eval(f, n->a, &l, depth + 1)) return 0;
            if (!arg_num_eval(f, n->b, &r, depth + 1)) return 0;
            break;
        case '~':
            if (!arg_num_eval(f, n->b, &r, depth + 1)) return 0;
            break;
        default:
            return 0;
        }
        switch (op[0]) {
        case '|': *val = op[1] ? (l || r) : (l | r); return 1;
        case '&': *val = op[1] ? (l && r) : (l & r); return 1;
        case '<':
            if (!op[1]) *val = l < r;
            else if (op[1] == '<') *val = (long long)((unsigned long long)l << (r & 63));
            else if (op[1] == '=') *val = l <= r;
            else return 0;
            return 1;
        case '>':
            if (!op[1]) *val = l > r;
            else if (op[1] == '>') *val = l >> (r & 63);
            else if (op[1] == '=') *val = l >= r;
            else return 0;
            return 1;
        case '=':
            if (op[1] != '=') return 0;
            *val = l == r;
            return 1;
        case '!':
            if (op[1] != '=') return 0;
            *val = l != r;
            return 1;
        case '-': *val = (long long)((unsigned long long)l - (unsigned long long)r); return 1;
        case '+': *val = (long long)((unsigned long long)l + (unsigned long long)r); return 1;
        case '~': *val = ~r; return 1;
        }
        return 0;
    default:
        return 0;
    }
}

/* arg_eval: the text of a flag's value or name. Returns an arena offset
   or (size_t)-1. */
static size_t arg_eval(pd_tpfmt *f, int a, int depth) {
    long long v;
    char buf[24];
    if (a < 0 || depth > TPF_MAX_DEPTH) return (size_t)-1;
    switch (f->nodes[a].kind) {
    case K_ATOM: return f->nodes[a].str;
    case K_TYPE: return arg_eval(f, f->nodes[a].a, depth + 1);
    case K_OP:
        if (!arg_num_eval(f, a, &v, depth + 1)) return (size_t)-1;
        snprintf(buf, sizeof buf, "%lld", v);
        /* room: every op node came from a token of at least one byte,
           and its number is counted in the arena's slack */
        return arena_put(f, buf, strlen(buf));
    default: return (size_t)-1;
    }
}

/* eval_flag */
static long long eval_flag(const char *s) {
    static const struct { const char *name; long long value; } known[] = {
        {"HI_SOFTIRQ", 0}, {"TIMER_SOFTIRQ", 1}, {"NET_TX_SOFTIRQ", 2}, {"NET_RX_SOFTIRQ", 3},
        {"BLOCK_SOFTIRQ", 4}, {"IRQ_POLL_SOFTIRQ", 5}, {"TASKLET_SOFTIRQ", 6}, {"SCHED_SOFTIRQ", 7},
        {"HRTIMER_SOFTIRQ", 8}, {"RCU_SOFTIRQ", 9}, {"HRTIMER_NORESTART", 0}, {"HRTIMER_RESTART", 1},
    };
    size_t i;
    if (s[0] >= '0' && s[0] <= '9') return (long long)strtoull(s, NULL, 0);
    for (i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strcmp(known[i].name, s)) return known[i].value;
    return -1;
}

static int process_fields(tpf_parser *p, int owner, tpf_tok *tok) {
    pd_tpfmt *f = p->f;
    int type;
    N(p, owner)->sym = f->nsyms;
    N(p, owner)->nsym = 0;
    do {
        int arg;
        size_t value, str;
        type = read_token_item(p, tok);
        if (!tok_is(p, tok, T_OP, "{")) break;
        arg = new_node(f, K_NULL);
        type = process_arg(p, arg, tok);
        if (type == T_OP) type = process_op(p, arg, tok);
        if (type == T_ERROR) return tpf_fail(p);
        if (!tok_is(p, tok, T_DELIM, ",")) return tpf_fail(p);
        value = arg_eval(f, arg, 0);
        if (value == (size_t)-1) return tpf_fail(p);
        arg = new_node(f, K_NULL);
        (void)process_arg(p, arg, tok); /* what ends it is checked next */
        if (!tok_is(p, tok, T_OP, "}")) return tpf_fail(p);
        str = arg_eval(f, arg, 0);
        if (str == (size_t)-1) return tpf_fail(p);
        f->syms = (tpf_sym *)tpf_grow(f->syms, &f->capsyms, f->nsyms + 1, sizeof *f->syms);
        f->syms[f->nsyms].value = eval_flag(S(f, value));
        f->syms[f->nsyms].str = str;
        f->nsyms++;
        N(p, owner)->nsym++;
        type = read_token_item(p, tok);
    } while (type == T_DELIM && !strcmp(tok_s(p, tok), ","));
    return type;
}

static int event_item_type(int type) { return type == T_ITEM || type == T_DQUOTE || type == T_SQUOTE; }

static int process_flags(tpf_parser *p, int arg, tpf_tok *tok) {
    int field = new_node(p->f, K_NULL), type;
    N(p, arg)->kind = K_FLAGS;
    N(p, arg)->str = (size_t)-1;
    type = process_field_arg(p, field, tok);
    while (type == T_OP) type = process_op(p, field, tok);
    if (!tok_is(p, tok, T_DELIM, ",")) return tpf_fail(p);
    N(p, arg)->a = field;
    type = read_token_item(p, tok);
    if (event_item_type(type)) {
        N(p, arg)->str = tok->str;
        (void)read_token_item(p, tok);
    }
    if (!tok_is(p, tok, T_DELIM, ",")) return tpf_fail(p);
    (void)process_fields(p, arg, tok);
    if (!tok_is(p, tok, T_DELIM, ")")) return tpf_fail(p);
    return read_token_item(p, tok);
}

static int process_symbols(tpf_parser *p, int arg, tpf_tok *tok) {
    int field = new_node(p->f, K_NULL);
    N(p, arg)->kind = K_SYMBOL;
    (void)process_field_arg(p, field, tok);
    if (!tok_is(p, tok, T_DELIM, ",")) return tpf_fail(p);
    N(p, arg)->a = field;
    (void)process_fields(p, arg, tok);
    if (!tok_is(p, tok, T_DELIM, ")")) return tpf_fail(p);
    return read_token_item(p, tok);
}

/* alloc_and_process_delim */
static int arg_then(tpf_parser *p, const char *delim, int *out) {
    tpf_tok t;
    int n = new_node(p->f, K_NULL);
    process_arg(p, n, &t);
    if (!tok_is(p, &t, T_DELIM, delim)) return -1;
    *out = n;
    return 0;
}

static int process_hex(tpf_parser *p, int arg, tpf_tok *tok, int kind) {
    int a, b;
    if (arg_then(p, ",", &a) < 0 || arg_then(p, ")", &b) < 0) return tpf_fail(p);
    N(p, arg)->kind = kind;
    N(p, arg)->a = a;
    N(p, arg)->b = b;
    return read_token_item(p, tok);
}

static int process_int_array(tpf_parser *p, int arg, tpf_tok *tok) {
    int a, b, c;
    if (arg_then(p, ",", &a) < 0 || arg_then(p, ",", &b) < 0 || arg_then(p, ")", &c) < 0) return tpf_fail(p);
    N(p, arg)->kind = K_INT_ARRAY;
    N(p, arg)->a = a;
    N(p, arg)->b = b;
    N(p, arg)->c = c;
    return read_token_item(p, tok);
}

static int process_dynamic_array(tpf_parser *p, int arg, tpf_tok *tok) {
    int type, fi, sub;
    N(p, arg)->kind = K_DYNARRAY;
    type = read_token(p, tok);
    if (type != T_ITEM) return tpf_fail(p);
    fi = field_find_event(p->f, tok_s(p, tok), strlen(tok_s(p, tok)));
    if (fi < 0) return tpf_fail(p);
    N(p, arg)->field = fi;
    if (expect(p, T_DELIM, ")") < 0) return tpf_fail(p);
    type = read_token_item(p, tok);
    if (type != T_OP || strcmp(tok_s(p, tok), "[") != 0) return type;
    /* perf's process_dynamic_array: a subscript ending in "]" fails the
       event; anything else is read past and dropped */
    sub = new_node(p->f, K_NULL);
    type = process_arg(p, sub, tok);
    if (type == T_ERROR) return tpf_fail(p);
    if (tok_is(p, tok, T_OP, "]")) return tpf_fail(p);
    return read_token_item(p, tok);
}

static int process_dynamic_array_len(tpf_parser *p, int arg, tpf_tok *tok) {
    tpf_tok t;
    int fi;
    if (expect_type(p, T_ITEM, &t) < 0) return tpf_fail(p);
    N(p, arg)->kind = K_DYNARRAY_LEN;
    fi = field_find_event(p->f, tok_s(p, &t), strlen(tok_s(p, &t)));
    if (fi < 0) return tpf_fail(p);
    N(p, arg)->field = fi;
    if (expect(p, T_DELIM, ")") < 0) return tpf_fail(p);
    return read_token(p, tok);
}

static int process_paren(tpf_parser *p, int arg, tpf_tok *tok) {
    int type = process_arg(p, arg, tok), item;
    if (type == T_ERROR) return tpf_fail(p);
    if (type == T_OP) type = process_op(p, arg, tok);
    if (type == T_ERROR) return tpf_fail(p);
    if (!tok_is(p, tok, T_DELIM, ")")) return tpf_fail(p);
    type = read_token_item(p, tok);
    if (event_item_type(type) || (type == T_DELIM && !strcmp(tok_s(p, tok), "("))) {
        /* a typecast */
        if (N(p, arg)->kind != K_ATOM) return tpf_fail(p);
        item = new_node(p->f, K_NULL);
        N(p, arg)->kind = K_TYPE;
        N(p, arg)->a = item;
        type = process_arg_token(p, item, tok);
    }
    return type;
}

static int process_str(tpf_parser *p, int arg, tpf_tok *tok, int kind) {
    tpf_tok t;
    if (expect_type(p, T_ITEM, &t) < 0) return tpf_fail(p);
    N(p, arg)->kind = kind;
    N(p, arg)->str = t.str;
    if (expect(p, T_DELIM, ")") < 0) return tpf_fail(p);
    return read_token(p, tok);
}

static int process_builtin_expect(tpf_parser *p, int arg, tpf_tok *tok) {
    tpf_tok t;
    int type = process_arg(p, arg, tok);
    if (type != T_DELIM || tok_s(p, tok)[0] != ',') return tpf_fail(p);
    if (expect_type(p, T_ITEM, &t) < 0) return tpf_fail(p);
    if (expect(p, T_DELIM, ")") < 0) return tpf_fail(p);
    return read_token_item(p, tok);
}

static int process_function(tpf_parser *p, int arg, const char *name, tpf_tok *tok) {
    if (!strcmp(name, "__print_flags")) { p->is_flag = 1; return process_flags(p, arg, tok); }
    if (!strcmp(name, "__print_symbolic")) { p->is_symbolic = 1; return process_symbols(p, arg, tok); }
    if (!strcmp(name, "__print_hex")) return process_hex(p, arg, tok, K_HEX);
    if (!strcmp(name, "__print_hex_str")) return process_hex(p, arg, tok, K_HEX_STR);
    if (!strcmp(name, "__print_array")) return process_int_array(p, arg, tok);
    if (!strcmp(name, "__get_str") || !strcmp(name, "__get_rel_str")) return process_str(p, arg, tok, K_STRING);
    if (!strcmp(name, "__get_bitmask") || !strcmp(name, "__get_rel_bitmask"))
        return process_str(p, arg, tok, K_BITMASK);
    if (!strcmp(name, "__get_dynamic_array") || !strcmp(name, "__get_rel_dynamic_array"))
        return process_dynamic_array(p, arg, tok);
    if (!strcmp(name, "__get_dynamic_array_len") || !strcmp(name, "__get_rel_dynamic_array_len"))
        return process_dynamic_array_len(p, arg, tok);
    if (!strcmp(name, "__builtin_expect")) return process_builtin_expect(p, arg, tok);
    /* perf registers no print functions without its plugins: the event fails, as in perf */
    return tpf_fail(p);
}

static int process_arg_token(tpf_parser *p, int arg, tpf_tok *tok) {
    int type = tok->type, r;
    p->depth++;
    if (too_deep(p)) { p->depth--; return tpf_fail(p); }
    switch (type) {
    case T_ITEM:
        if (!strcmp(tok_s(p, tok), "REC")) {
            r = process_entry(p, arg, tok);
            break;
        } else {
            size_t atom = tok->str, at = tok->at, end = tok->end;
            int several = 0;
            type = read_token_item(p, tok);
            if (type == T_DELIM && !strcmp(tok_s(p, tok), "(")) {
                r = process_function(p, arg, S(p->f, atom), tok);
                break;
            }
            while (type == T_ITEM) {
                several = 1;
                end = tok->end;
                type = read_token_item(p, tok);
            }
            if (several) atom = atom_join(p, at, end);
            N(p, arg)->kind = K_ATOM;
            N(p, arg)->str = atom;
            r = type;
        }
        break;
    case T_DQUOTE:
    case T_SQUOTE:
        N(p, arg)->kind = K_ATOM;
        N(p, arg)->str = tok->str;
        r = read_token_item(p, tok);
        break;
    case T_DELIM:
        if (!strcmp(tok_s(p, tok), "(")) {
            r = process_paren(p, arg, tok);
            break;
        }
        /* fall through */
    case T_OP:
        N(p, arg)->kind = K_OP;
        N(p, arg)->str = tok->str;
        N(p, arg)->a = -1;
        N(p, arg)->prio = 0;
        r = process_op(p, arg, tok);
        break;
    default:
        r = tpf_fail(p);
        break;
    }
    p->depth--;
    return r;
}

static int process_arg(tpf_parser *p, int arg, tpf_tok *tok) {
    read_token(p, tok);
    return process_arg_token(p, arg, tok);
}

static void add_arg(pd_tpfmt *f, int n) {
    f->args = (int *)tpf_grow(f->args, &f->capargs, f->nargs + 1, sizeof *f->args);
    f->args[f->nargs++] = n;
}

/* event_read_print (after "print fmt: ") and event_read_print_args.
   Returns the format's arena offset, or (size_t)-1 when it fails. */
static size_t read_print(tpf_parser *p) {
    tpf_tok t;
    size_t fmt;
    int type;
    if (p->end - p->pos >= 10 && !memcmp(p->in + p->pos, "print fmt:", 10)) p->pos += 10;
    if (expect_type(p, T_DQUOTE, &t) < 0) return (size_t)-1;
    fmt = t.str;
    for (;;) {
        type = read_token_item(p, &t);
        if (type == T_NONE) return fmt;
        if (type != T_DQUOTE) break;
        /* "a" "b" across a newline: concatenated */
        {
            size_t la = strlen(S(p->f, fmt)), lb = strlen(tok_s(p, &t)), off = p->f->arena_n;
            if (la + lb + 1 > p->f->arena_cap - off) return (size_t)-1;
            memmove(p->f->arena + off, p->f->arena + fmt, la);
            memmove(p->f->arena + off + la, p->f->arena + t.str, lb + 1);
            p->f->arena_n += la + lb + 1;
            fmt = off;
        }
    }
    if (!tok_is(p, &t, T_DELIM, ",")) return (size_t)-1;
    type = T_ERROR;
    do {
        int arg;
        if (type == T_NEWLINE) {
            type = read_token_item(p, &t);
            continue;
        }
        arg = new_node(p->f, K_NULL);
        type = process_arg(p, arg, &t);
        if (type == T_ERROR) return (size_t)-1;
        add_arg(p->f, arg);
        if (type == T_OP) {
            type = process_op(p, arg, &t);
            if (type == T_ERROR) return (size_t)-1;
            continue;
        }
        if (type == T_DELIM && !strcmp(tok_s(p, &t), ",")) continue;
        break;
    } while (type != T_NONE);
    return fmt;
}

/* ---------------------------------------------------- the print cache */

static void add_seg(pd_tpfmt *f, int type, size_t text, int arg, int len_arg, int ls) {
    tpf_seg *s;
    f->segs = (tpf_seg *)tpf_grow(f->segs, &f->capsegs, f->nsegs + 1, sizeof *f->segs);
    s = &f->segs[f->nsegs++];
    s->type = type;
    s->text = text;
    s->arg = arg;
    s->len_arg = len_arg;
    s->ls = ls;
}

/* parse_arg_format_pointer: how many characters after %p belong to it */
static int pointer_ext(const char *fm) {
    int ret = 0, index, loop;
    switch (*fm) {
    case 'F': case 'S': case 'f': case 's':
        ret++;
        break;
    case 'M': case 'm':
        if (fm[1] == 'R' || fm[1] == 'F') ret++;
        ret++;
        break;
    case 'I': case 'i':
        index = 2;
        loop = 1;
        switch (fm[1]) {
        case 'S':
            while (loop) {
                switch (fm[index]) {
                case 'p': case 'f': case 's': ret++; index++; break;
                default: loop = 0; break;
                }
            }
            /* fall through */
        case '4':
            switch (fm[index]) {
            case 'h': case 'n': case 'l': case 'b': ret++; index++; break;
            }
            if (fm[1] == '4') { ret++; break; }
            /* fall through */
        case '6':
            if (fm[index] == 'c') ret++;
            ret++;
            break;
        }
        ret++;
        break;
    case 'U':
        if (fm[1] == 'L' || fm[1] == 'l' || fm[1] == 'B' || fm[1] == 'b') ret++;
        ret++;
        break;
    case 'h':
        if (fm[1] == 'C' || fm[1] == 'D' || fm[1] == 'N') ret++;
        ret++;
        break;
    default:
        break;
    }
    return ret;
}

/* parse_arg_format: one conversion at fm ('%'); returns the characters used */
static size_t parse_arg_format(pd_tpfmt *f, const char *fm, size_t *argi) {
    const char *start = fm;
    size_t ret = 0, len;
    int ls = 0, len_arg = -1, res;
    char buf[40];
    fm++;
    ret++;
    for (; *fm; fm++) {
        switch (*fm) {
        case '#': break;
        case 'h': ls--; break;
        case 'l': ls++; break;
        case 'L': ls = 2; break;
        case '.': case 'z': case 'Z': case '-':
        case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
            break;
        case '*':
            if (*argi >= f->nargs || len_arg >= 0) { f->failed = 1; return ret; }
            len_arg = f->args[(*argi)++];
            break;
        case 'p':
            if (*argi >= f->nargs) { f->failed = 1; return ret; }
            if ((fm[1] == 'I' || fm[1] == 'i') && fm[2] == 'S') f->unsupported = "%pIS (sockaddr)";
            if (fm[1] == 'I' && fm[2] == '6' && fm[3] == 'c') f->unsupported = "%pI6c (compressed IPv6)";
            res = pointer_ext(fm + 1);
            if (res > 0) { fm += res; ret += (size_t)res; }
            len = (size_t)(fm + 1 - start);
            if (len > TPF_SPEC_MAX) { f->failed = 1; len = TPF_SPEC_MAX; }
            add_seg(f, SEG_PTR, arena_put(f, start, len), f->args[(*argi)++], len_arg, ls);
            return ret + 1;
        case 'd': case 'u': case 'i': case 'x': case 'X': case 'o':
            if (*argi >= f->nargs) { f->failed = 1; return ret; }
            len = (size_t)(fm + 1 - start);
            if (len > 30) { f->failed = 1; len = TPF_SPEC_MAX; }
            if (ls < -2 || ls > 2) f->failed = 1;
            add_seg(f, SEG_NUM, arena_put(f, start, len), f->args[(*argi)++], len_arg, ls);
            return ret + 1;
        case 's':
            if (*argi >= f->nargs) { f->failed = 1; return ret; }
            len = (size_t)(fm + 1 - start);
            if (len > TPF_SPEC_MAX) { f->failed = 1; len = TPF_SPEC_MAX; }
            add_seg(f, SEG_STR, arena_put(f, start, len), f->args[(*argi)++], len_arg, 0);
            return ret + 1;
        default:
            /* a conversion perf does not know (%c, %+d, %jd...): it prints
               ">c<" and goes on after that character */
            buf[0] = '>';
            buf[1] = *fm;
            buf[2] = '<';
            add_seg(f, SEG_TEXT, arena_put(f, buf, 3), -1, -1, 0);
            return ret + 1;
        }
        ret++;
    }
    return ret;
}

/* parse_arg_string: literal text up to a conversion, \n \t \r \\ unescaped */
static size_t parse_arg_string(pd_tpfmt *f, const char *fm) {
    size_t ret = 0, off = f->arena_n, room = f->arena_cap - f->arena_n;
    size_t n = 0;
    for (; *fm; fm++) {
        char c;
        if (*fm == '\\') {
            if (!fm[1]) { ret++; break; } /* perf reads past the end here */
            fm++;
            ret++;
            c = *fm == 'n' ? '\n' : *fm == 't' ? '\t' : *fm == 'r' ? '\r' : *fm;
        } else if (*fm == '%') {
            if (fm[1] == '%') { c = '%'; fm++; ret++; }
            else break;
        } else {
            c = *fm;
        }
        if (n + 1 < room) f->arena[off + n++] = c;
        ret++;
    }
    f->arena[off + n] = 0;
    f->arena_n += n + 1;
    add_seg(f, SEG_TEXT, off, -1, -1, 0);
    return ret;
}

static void parse_args(pd_tpfmt *f, size_t fmt_off) {
    size_t len = strlen(S(f, fmt_off)), pos = 0, argi = 0, ret;
    while (pos < len) {
        const char *fm = S(f, fmt_off) + pos;
        if (fm[0] == '%' && fm[1] != '%') ret = parse_arg_format(f, fm, &argi);
        else ret = parse_arg_string(f, fm);
        if (!ret) ret = 1;
        if (ret >= len - pos) break;
        pos += ret;
    }
}

/* ----------------------------------------------------------- compile */

/* Whether the expression under node a reaches deeper than the
   evaluation's limit. */
static int tree_too_deep(const pd_tpfmt *f, int a, int depth) {
    const tpf_node *n;
    if (a < 0 || (size_t)a >= f->nnodes) return 0;
    if (depth > TPF_MAX_DEPTH - 8) return 1;
    n = &f->nodes[a];
    return tree_too_deep(f, n->a, depth + 1) || tree_too_deep(f, n->b, depth + 1) || tree_too_deep(f, n->c, depth + 1);
}

pd_tpfmt *pd_tpfmt_compile(const perfdata_tracing *t, const perfdata_tp_format *fmt) {
    pd_tpfmt *f = (pd_tpfmt *)calloc(1, sizeof *f);
    tpf_parser p;
    size_t n = fmt->print_fmt.n, fmt_off, i;
    if (!f) pd_nomem();
    f->long_size = t ? t->long_size : fmt->long_size;
    if (f->long_size != 4 && f->long_size != 8) f->long_size = fmt->long_size == 4 ? 4 : 8;
    fields_load(f, fmt);
    /* texts: tokens (each at most its input span + 1), atoms joined (at
       most their span + 1), the format concatenated, the print cache's
       pieces (at most the format + 1 per piece), numbers from flag values
       (24 per op token): 32 bytes per input byte is far more than that. */
    if (n > ((size_t)-1 - 4096) / 32) pd_nomem();
    f->arena_cap = 32 * n + 4096;
    f->arena = (char *)malloc(f->arena_cap);
    if (!f->arena) pd_nomem();
    f->arena[f->arena_cap - 1] = 0;
    memset(&p, 0, sizeof p);
    p.f = f;
    p.in = (const char *)fmt->print_fmt.p;
    p.end = n;
    fmt_off = read_print(&p);
    if (fmt_off == (size_t)-1) f->failed = 1;
    for (i = 0; i < f->nnodes; i++) {
        tpf_node *nd = &f->nodes[i];
        if ((nd->kind == K_FIELD || nd->kind == K_STRING || nd->kind == K_BITMASK) && nd->str != (size_t)-1)
            nd->field = field_find_any(f, S(f, nd->str), strlen(S(f, nd->str)));
    }
    if (!f->failed) parse_args(f, fmt_off);
    /* operators of equal priority chain without recursion in the parser:
       a tree deeper than the evaluation goes is refused here, not read
       as zeros there (each check stops TPF_MAX_DEPTH levels down) */
    for (i = 0; i < f->nnodes && !f->unsupported; i++)
        if (tree_too_deep(f, (int)i, 0)) f->unsupported = "print fmt nested too deeply";
    if (f->unsupported) f->failed = 1;
    return f;
}

const char *pd_tpfmt_unsupported(const pd_tpfmt *f) { return f->unsupported; }
int pd_tpfmt_failed(const pd_tpfmt *f) { return f->failed; }

void pd_tpfmt_free(pd_tpfmt *f) {
    if (!f) return;
    free(f->arena);
    free(f->nodes);
    free(f->syms);
    free(f->fields);
    free(f->slots);
    free(f->segs);
    free(f->args);
    free(f->string_off);
    free(f);
}

/* ------------------------------------------------------------ output */

typedef struct tpf_out {
    char **buf;
    size_t *len, *cap;
} tpf_out;

static void out_bytes(tpf_out *o, const char *s, size_t n) {
    /* a print fmt from the file may ask for more text than any line needs:
       past PD_TPFMT_TEXT_MAX bytes, the rest is dropped */
    if (*o->len >= PD_TPFMT_TEXT_MAX) return;
    if (n > PD_TPFMT_TEXT_MAX - *o->len) n = PD_TPFMT_TEXT_MAX - *o->len;
    if (*o->len + n + 1 > *o->cap || !*o->buf) {
        size_t c = *o->cap ? *o->cap : 256;
        while (c < *o->len + n + 1) {
            if (c > (size_t)-1 / 2) pd_nomem();
            c *= 2;
        }
        *o->buf = (char *)tpf_realloc(*o->buf, c);
        *o->cap = c;
    }
    if (n) memcpy(*o->buf + *o->len, s, n);
    *o->len += n;
    (*o->buf)[*o->len] = 0;
}

static void out_str(tpf_out *o, const char *s) { out_bytes(o, s, strlen(s)); }

static void out_pad(tpf_out *o, char c, long n) {
    char b[64];
    memset(b, c, sizeof b);
    while (n > 0 && *o->len < PD_TPFMT_TEXT_MAX) {
        size_t k = n > 64 ? 64 : (size_t)n;
        out_bytes(o, b, k);
        n -= (long)k;
    }
}

/* ------------------------------------------------------ payload reads */

typedef struct tpf_ctx {
    const pd_tpfmt *f;
    perfdata_view raw;
    int be;
    pd_tpfmt_ksym_fn ksym;
    void *kctx;
} tpf_ctx;

/* tep_read_number: sizes 1, 2, 4, 8; anything else, or bytes outside
   the payload, read as 0 */
static uint64_t read_num(const tpf_ctx *c, uint64_t off, uint64_t size) {
    uint64_t v = 0, i;
    if (size != 1 && size != 2 && size != 4 && size != 8) return 0;
    if (off > c->raw.n || size > c->raw.n - off) return 0;
    for (i = 0; i < size; i++) {
        uint64_t b = c->raw.p[off + i];
        if (c->be) v = (v << 8) | b;
        else v |= b << (8 * i);
    }
    return v;
}

/* bytes [off, off+n) of the payload, clipped to it */
static size_t avail(const tpf_ctx *c, uint64_t off, uint64_t n) {
    if (off >= c->raw.n) return 0;
    return (size_t)(n < c->raw.n - off ? n : c->raw.n - off);
}

static const perfdata_tp_field *FLD(const tpf_ctx *c, int i) { return &c->f->fields[i].f; }

/* the data of a __data_loc / __rel_loc field: offset (perf adds the
   __rel_loc base only for strings, bitmasks and the raw field print) */
static uint64_t dyn_word(const tpf_ctx *c, const perfdata_tp_field *fl) { return read_num(c, fl->offset, fl->size); }

/* ---------------------------------------------------------- evaluation */

static int field_of(const tpf_ctx *c, const tpf_node *n) {
    (void)c;
    return n->field;
}

static unsigned long long eval_type_str(unsigned long long val, const char *type, int pointer) {
    size_t len = strlen(type);
    if (!len) return val;
    if (pointer) {
        char ref[256];
        if (type[len - 1] != '*') return val;
        if (len < 2 || len - 2 >= sizeof ref) return val;
        memcpy(ref, type, len - 2);
        ref[len - 2] = 0;
        return eval_type_str(val, ref, 0);
    }
    if (type[len - 1] == '*') return val;
    if (!strncmp(type, "struct", 6)) return val;
    if (!strcmp(type, "u8")) return val & 0xff;
    if (!strcmp(type, "u16")) return val & 0xffff;
    if (!strcmp(type, "u32")) return val & 0xffffffff;
    if (!strcmp(type, "u64") || !strcmp(type, "s64")) return val;
    if (!strcmp(type, "s8")) return (unsigned long long)(signed char)val & 0xff;
    if (!strcmp(type, "s16")) return (unsigned long long)(short)val & 0xffff;
    if (!strcmp(type, "s32")) return (unsigned long long)(int)val & 0xffffffff;
    if (!strncmp(type, "unsigned ", 9)) type += 9;
    /* perf never takes these as signed: its `sign` stays 0 */
    if (!strcmp(type, "char")) return val & 0xff;
    if (!strcmp(type, "short")) return val & 0xffff;
    if (!strcmp(type, "int")) return val & 0xffffffff;
    return val;
}

static uint64_t eval_num(const tpf_ctx *c, int a, int depth) {
    const pd_tpfmt *f = c->f;
    const tpf_node *n;
    uint64_t l, r;
    const char *op;
    if (a < 0 || depth > TPF_MAX_DEPTH) return 0;
    n = &f->nodes[a];
    switch (n->kind) {
    case K_ATOM:
        return strtoull(S(f, n->str), NULL, 0);
    case K_FIELD: {
        int fi = field_of(c, n);
        if (fi < 0) return 0;
        return read_num(c, FLD(c, fi)->offset, FLD(c, fi)->size);
    }
    case K_TYPE:
        return eval_type_str(eval_num(c, n->a, depth + 1), S(f, n->str), 0);
    case K_OP:
        op = S(f, n->str);
        if (!strcmp(op, "[")) {
            const tpf_node *larg = n->a >= 0 ? &f->nodes[n->a] : NULL;
            const tpf_node *typearg = NULL;
            uint64_t off, size = f->long_size, v;
            r = eval_num(c, n->b, depth + 1);
            while (larg && larg->kind == K_TYPE) {
                if (!typearg) typearg = larg;
                larg = larg->a >= 0 ? &f->nodes[larg->a] : NULL;
            }
            if (larg && larg->kind == K_DYNARRAY) {
                const perfdata_tp_field *fl = FLD(c, larg->field);
                off = dyn_word(c, fl);
                if (fl->elem_size) size = fl->elem_size;
                off = (off & 0xffff) + r;
            } else if (larg && larg->kind == K_FIELD) {
                int fi = field_of(c, larg);
                if (fi < 0) return 0;
                size = FLD(c, fi)->elem_size;
                off = FLD(c, fi)->offset + r * FLD(c, fi)->elem_size;
            } else {
                goto binary;
            }
            v = read_num(c, off, size);
            if (typearg) v = eval_type_str(v, S(f, typearg->str), 1);
            return v;
        }
        if (!strcmp(op, "?")) {
            const tpf_node *alt;
            l = eval_num(c, n->a, depth + 1);
            if (n->b < 0) return 0;
            alt = &f->nodes[n->b];
            return eval_num(c, l ? alt->a : alt->b, depth + 1);
        }
    binary:
        l = eval_num(c, n->a, depth + 1);
        r = eval_num(c, n->b, depth + 1);
        switch (op[0]) {
        case '!':
            if (!op[1]) return !r;
            if (op[1] == '=') return l != r;
            return 0;
        case '~': return ~r;
        case '|': return op[1] ? (l || r) : (l | r);
        case '&': return op[1] ? (l && r) : (l & r);
        case '<':
            if (!op[1]) return l < r;
            if (op[1] == '<') return r < 64 ? l << r : 0;
            if (op[1] == '=') return l <= r;
            return 0;
        case '>':
            if (!op[1]) return l > r;
            if (op[1] == '>') return r < 64 ? l >> r : 0;
            if (op[1] == '=') return l >= r;
            return 0;
        case '=': return op[1] == '=' ? l == r : 0;
        case '-': return l - r;
        case '+': return l + r;
        case '/': return r ? l / r : 0; /* perf divides by zero and dies */
        case '%': return r ? l % r : 0;
        case '*': return l * r;
        default: return 0;
        }
    case K_DYNARRAY_LEN:
        return dyn_word(c, FLD(c, n->field)) >> 16;
    case K_DYNARRAY:
        /* perf: the host address of the data; here its payload offset */
        return dyn_word(c, FLD(c, n->field)) & 0xffff;
    default:
        return 0;
    }
}

/* ---------------------------------------------------- printf, written out */

typedef struct tpf_spec {
    int minus, plus, space, hash, zero;
    int width;                 /* -1: none */
    int prec;                  /* -1: none */
    int length;                /* 0 int, -1 short, -2 char, 1: 64-bit */
    char conv;
} tpf_spec;

/* parses "%-08.3lx"; '*' takes star (once for width, then precision) */
static void parse_spec(const char *s, tpf_spec *sp, int star) {
    int used_star = 0;
    memset(sp, 0, sizeof *sp);
    sp->width = sp->prec = -1;
    if (*s == '%') s++;
    for (;; s++) {
        if (*s == '-') sp->minus = 1;
        else if (*s == '+') sp->plus = 1;
        else if (*s == ' ') sp->space = 1;
        else if (*s == '#') sp->hash = 1;
        else if (*s == '0') sp->zero = 1;
        else break;
    }
    if (*s == '*') {
        sp->width = star;
        used_star = 1;
        if (sp->width < 0) { sp->minus = 1; sp->width = -sp->width; }
        s++;
    } else if (*s >= '1' && *s <= '9') {
        sp->width = 0;
        while (*s >= '0' && *s <= '9') { if (sp->width < 100000) sp->width = sp->width * 10 + (*s - '0'); s++; }
    }
    if (*s == '.') {
        s++;
        sp->prec = 0;
        if (*s == '*') {
            sp->prec = used_star ? 0 : star;
            if (sp->prec < 0) sp->prec = -1;
            s++;
        } else {
            while (*s >= '0' && *s <= '9') { if (sp->prec < 100000) sp->prec = sp->prec * 10 + (*s - '0'); s++; }
        }
    }
    for (;; s++) {
        if (*s == 'h') sp->length = sp->length == -1 ? -2 : -1;
        else if (*s == 'l' || *s == 'L' || *s == 'q' || *s == 'j' || *s == 'z' || *s == 'Z' || *s == 't')
            sp->length = 1;
        else break;
    }
    sp->conv = *s;
}

static void put_padded(tpf_out *o, const tpf_spec *sp, const char *prefix, const char *digits, size_t nd,
                       int zero_pad) {
    size_t np = strlen(prefix), body = np + nd;
    long pad = sp->width > 0 && (size_t)sp->width > body ? (long)((size_t)sp->width - body) : 0;
    if (!sp->minus && !zero_pad) out_pad(o, ' ', pad);
    out_bytes(o, prefix, np);
    if (!sp->minus && zero_pad) out_pad(o, '0', pad);
    out_bytes(o, digits, nd);
    if (sp->minus) out_pad(o, ' ', pad);
}

/* one integer conversion as glibc prints it; bits is what the call
   passed (64 bits, or an int zero-extended), read at the spec's length */
static void fmt_int(tpf_out *o, const tpf_spec *sp, uint64_t bits) {
    char digits[128], *d = digits + sizeof digits;
    const char *prefix = "";
    int neg = 0, base = 10, upper = 0;
    uint64_t u;
    size_t nd;
    int is_signed = sp->conv == 'd' || sp->conv == 'i';
    if (sp->conv == 'x') base = 16;
    else if (sp->conv == 'X') { base = 16; upper = 1; }
    else if (sp->conv == 'o') base = 8;
    if (is_signed) {
        int64_t s;
        if (sp->length == 1) s = (int64_t)bits;
        else if (sp->length == -1) s = (int16_t)(uint16_t)bits;
        else if (sp->length == -2) s = (int64_t)((bits & 0xff) ^ 0x80) - 0x80; /* hh: a char's sign */
        else s = (int32_t)(uint32_t)bits;
        neg = s < 0;
        u = neg ? (uint64_t)0 - (uint64_t)s : (uint64_t)s;
    } else {
        if (sp->length == 1) u = bits;
        else if (sp->length == -1) u = (uint16_t)bits;
        else if (sp->length == -2) u = (uint8_t)bits;
        else u = (uint32_t)bits;
    }
    do {
        int dg = (int)(u % (unsigned)base);
        *--d = (char)(dg < 10 ? '0' + dg : (upper ? 'A' : 'a') + dg - 10);
        u /= (unsigned)base;
    } while (u);
    nd = (size_t)(digits + sizeof digits - d);
    if (sp->prec == 0 && nd == 1 && *d == '0') {
        nd = 0;
        if (sp->conv == 'o' && sp->hash) { *--d = '0'; nd = 1; }
    }
    if (sp->prec > 0 && (size_t)sp->prec > nd) {
        size_t want = (size_t)sp->prec < 100 ? (size_t)sp->prec : 100;
        while (nd < want) { *--d = '0'; nd++; }
    }
    if (sp->conv == 'o' && sp->hash && (nd == 0 || *d != '0')) { *--d = '0'; nd++; }
    if (is_signed) {
        prefix = neg ? "-" : sp->plus ? "+" : sp->space ? " " : "";
    } else if (base == 16 && sp->hash) {
        /* glibc: 0x only before a nonzero value */
        uint64_t v = sp->length == 1 ? bits : sp->length == -1 ? (uint16_t)bits : sp->length == -2 ? (uint8_t)bits
                                                                                                   : (uint32_t)bits;
        if (v) prefix = upper ? "0X" : "0x";
    }
    put_padded(o, sp, prefix, d, nd, sp->zero && sp->prec < 0);
}

/* one %s conversion */
static void fmt_str(tpf_out *o, const char *spec, int len_arg, const char *s, size_t n) {
    tpf_spec sp;
    parse_spec(spec, &sp, len_arg);
    if (sp.prec >= 0 && (size_t)sp.prec < n) n = (size_t)sp.prec;
    put_padded(o, &sp, "", s, n, 0);
}

/* print_arg_number */
static void print_number(tpf_out *o, const char *spec, int len_arg, int ls, uint64_t val) {
    tpf_spec sp;
    uint64_t bits;
    parse_spec(spec, &sp, len_arg);
    switch (ls) {
    case -2: bits = (uint32_t)(int32_t)(signed char)val; break;
    case -1: bits = (uint32_t)(int32_t)(short)val; break;
    case 0: bits = (uint32_t)val; break;
    default: bits = val; break;
    }
    fmt_int(o, &sp, bits);
}

static void out_hex64(tpf_out *o, const char *prefix, uint64_t v) {
    char b[40];
    snprintf(b, sizeof b, "%s%llx", prefix, (unsigned long long)v);
    out_str(o, b);
}

/* ------------------------------------------------------ print_str_arg */

/* a NUL-terminated string in the payload from off: its length, stopped at
   the payload's end */
static size_t str_at(const tpf_ctx *c, uint64_t off, const char **s) {
    size_t n = avail(c, off, (uint64_t)-1), i;
    if (!n) { *s = ""; return 0; }
    *s = (const char *)c->raw.p + off;
    for (i = 0; i < n && (*s)[i]; i++) {}
    return i;
}

static void print_bitmask(tpf_out *o, const tpf_ctx *c, const char *spec, int len_arg, uint64_t off, size_t size) {
    /* 32-bit groups separated by commas, most significant first */
    size_t nbits, str_size, len = 0, i;
    char *str;
    const unsigned char *data;
    if (!size) { fmt_str(o, spec, len_arg, "", 0); return; }
    if (avail(c, off, size) < size) size = avail(c, off, size);
    if (!size) { fmt_str(o, spec, len_arg, "", 0); return; }
    nbits = size * 8;
    str_size = (nbits + 3) / 4 + (nbits - 1) / 32;
    str = (char *)malloc(str_size + 1);
    if (!str) pd_nomem();
    str[str_size] = 0;
    data = c->raw.p + off;
    for (i = str_size - 2;; i -= 2) {
        static const char hx[] = "0123456789abcdef";
        size_t index = c->be ? size - (len + 1) : len;
        str[i] = hx[data[index] >> 4];
        str[i + 1] = hx[data[index] & 15];
        len++;
        if (!(len & 3) && i > 0) str[--i] = ',';
        if (i < 2) break;
    }
    fmt_str(o, spec, len_arg, str, strlen(str));
    free(str);
}

static void print_str_arg(tpf_out *o, const tpf_ctx *c, const char *spec, int len_arg, int a, int depth);

static void print_flags(tpf_out *o, const tpf_ctx *c, const char *spec, int len_arg, const tpf_node *n) {
    const pd_tpfmt *f = c->f;
    long long val = (long long)eval_num(c, n->a, 1);
    int print = 0;
    size_t i;
    const char *delim = n->str != (size_t)-1 ? S(f, n->str) : NULL;
    for (i = 0; i < n->nsym; i++) {
        const tpf_sym *sy = &f->syms[n->sym + i];
        long long fval = sy->value;
        if (!val && fval < 0) {
            fmt_str(o, spec, len_arg, S(f, sy->str), strlen(S(f, sy->str)));
            break;
        }
        if (fval > 0 && (val & fval) == fval) {
            if (print && delim) out_str(o, delim);
            fmt_str(o, spec, len_arg, S(f, sy->str), strlen(S(f, sy->str)));
            print = 1;
            val &= ~fval;
        }
    }
    if (val) {
        if (print && delim) out_str(o, delim);
        out_hex64(o, "0x", (uint64_t)val);
    }
}

/* the data start of __print_hex/__print_array's first argument */
static int array_start(const tpf_ctx *c, int a, uint64_t *off) {
    const tpf_node *n;
    if (a < 0) return 0;
    n = &c->f->nodes[a];
    if (n->kind == K_DYNARRAY) {
        *off = dyn_word(c, FLD(c, n->field)) & 0xffff;
        return 1;
    }
    if (n->kind == K_FIELD) {
        int fi = field_of(c, n);
        if (fi < 0) return 0;
        *off = FLD(c, fi)->offset;
        return 1;
    }
    /* perf takes any other argument as a field and crashes */
    return 0;
}

static void print_str_arg(tpf_out *o, const tpf_ctx *c, const char *spec, int len_arg, int a, int depth) {
    const pd_tpfmt *f = c->f;
    const tpf_node *n;
    char b[64];
    if (a < 0 || depth > TPF_MAX_DEPTH) return;
    n = &f->nodes[a];
    switch (n->kind) {
    case K_ATOM:
        fmt_str(o, spec, len_arg, S(f, n->str), strlen(S(f, n->str)));
        return;
    case K_FIELD: {
        int fi = field_of(c, n);
        const perfdata_tp_field *fl;
        uint64_t len;
        size_t k, m;
        const char *s;
        if (fi < 0) return;
        fl = FLD(c, fi);
        len = fl->size ? fl->size : (fl->offset < c->raw.n ? c->raw.n - fl->offset : 0);
        if (!(fl->flags & PERFDATA_TP_FIELD_ARRAY) && fl->size == f->long_size) {
            /* taken as a pointer: its hex (perf would print a printk
               format registered at that address: not looked up here) */
            out_hex64(o, "", read_num(c, fl->offset, fl->size));
            return;
        }
        k = avail(c, fl->offset, len);
        s = k ? (const char *)c->raw.p + fl->offset : "";
        for (m = 0; m < k && s[m]; m++) {}
        fmt_str(o, spec, len_arg, s, m);
        return;
    }
    case K_FLAGS:
        print_flags(o, c, spec, len_arg, n);
        return;
    case K_SYMBOL: {
        long long val = (long long)eval_num(c, n->a, depth + 1);
        size_t i;
        for (i = 0; i < n->nsym; i++) {
            const tpf_sym *sy = &f->syms[n->sym + i];
            if (val == sy->value) {
                fmt_str(o, spec, len_arg, S(f, sy->str), strlen(S(f, sy->str)));
                return;
            }
        }
        out_hex64(o, "0x", (uint64_t)val);
        return;
    }
    case K_HEX:
    case K_HEX_STR: {
        uint64_t off, len, i;
        static const char hx[] = "0123456789abcdef";
        if (!array_start(c, n->a, &off)) return;
        len = (uint64_t)(int)eval_num(c, n->b, depth + 1); /* perf's int */
        if ((int64_t)len <= 0) return;
        for (i = 0; i < len; i++) {
            unsigned char byte = avail(c, off + i, 1) ? c->raw.p[off + i] : 0;
            char two[3];
            if (!avail(c, off + i, 1)) break;
            if (i && n->kind == K_HEX) out_bytes(o, " ", 1);
            two[0] = hx[byte >> 4];
            two[1] = hx[byte & 15];
            out_bytes(o, two, 2);
        }
        return;
    }
    case K_INT_ARRAY: {
        uint64_t off, i;
        int64_t len;
        int el;
        if (!array_start(c, n->a, &off)) return;
        len = (int)eval_num(c, n->b, depth + 1);
        el = (int)eval_num(c, n->c, depth + 1);
        for (i = 0; (int64_t)i < len; i++) {
            if (el == 1 || el == 2 || el == 4 || el == 8) {
                if (avail(c, off, (uint64_t)el) < (size_t)el) break;
                if (i) out_bytes(o, " ", 1);
                snprintf(b, sizeof b, "%llu", (unsigned long long)read_num(c, off, (uint64_t)el));
            } else {
                if (!avail(c, off, 1)) break;
                if (i) out_bytes(o, " ", 1);
                snprintf(b, sizeof b, "BAD SIZE:%d 0x%x", el, c->raw.p[off]);
                el = 1;
            }
            out_str(o, b);
            off += (uint64_t)el;
        }
        return;
    }
    case K_STRING: {
        int fi = n->field;
        uint64_t off;
        const char *s;
        size_t m;
        if (fi < 0) return;
        off = read_num(c, FLD(c, fi)->offset, 4) & 0xffff;
        if (FLD(c, fi)->flags & PERFDATA_TP_FIELD_RELATIVE) off += FLD(c, fi)->offset + FLD(c, fi)->size;
        m = str_at(c, off, &s);
        fmt_str(o, spec, len_arg, s, m);
        return;
    }
    case K_BITMASK: {
        int fi = n->field;
        uint64_t w, off;
        if (fi < 0) return;
        w = read_num(c, FLD(c, fi)->offset, 4);
        off = w & 0xffff;
        if (FLD(c, fi)->flags & PERFDATA_TP_FIELD_RELATIVE) off += FLD(c, fi)->offset + FLD(c, fi)->size;
        print_bitmask(o, c, spec, len_arg, off, (size_t)(w >> 16));
        return;
    }
    case K_OP:
        if (S(f, n->str)[0] != '?' || n->b < 0) return;
        {
            const tpf_node *alt = &f->nodes[n->b];
            uint64_t v = eval_num(c, n->a, depth + 1);
            print_str_arg(o, c, spec, len_arg, v ? alt->a : alt->b, depth + 1);
        }
        return;
    default:
        return;
    }
}

/* ----------------------------------------------------------- pointers */

static void print_function(tpf_out *o, const tpf_ctx *c, char kind, int a) {
    uint64_t val = eval_num(c, a, 1), start = 0;
    const char *name = NULL;
    if (c->ksym && c->ksym(c->kctx, val, &name, &start) && name) {
        out_str(o, name);
        if (kind == 'F' || kind == 'S') out_hex64(o, "+0x", val - start);
    } else {
        out_hex64(o, "0x", val);
    }
}

static int field_arg(const tpf_ctx *c, tpf_out *o, int a, const perfdata_tp_field **fl) {
    const tpf_node *n = &c->f->nodes[a];
    char b[48];
    int fi;
    if (n->kind != K_FIELD) {
        snprintf(b, sizeof b, "ARG TYPE NOT FIELD BUT %d", n->kind);
        out_str(o, b);
        return 0;
    }
    fi = field_of(c, n);
    if (fi < 0) return 0;
    *fl = FLD(c, fi);
    return 1;
}

static void print_pointer(tpf_out *o, const tpf_ctx *c, const char *spec, int plen, int a) {
    const char *x = strchr(spec, 'p');
    const perfdata_tp_field *fl;
    const unsigned char *buf;
    char b[64];
    int i;
    x = x ? x + 1 : "";
    switch (*x) {
    case 'F': case 'f': case 'S': case 's':
        print_function(o, c, *x, a);
        return;
    case 'M': case 'm': {
        int reverse = x[1] == 'R';
        const char *sep = *x == 'm' ? "" : (x[1] == 'F' ? "-" : ":");
        if (!field_arg(c, o, a, &fl)) return;
        if (fl->size != 6 || avail(c, fl->offset, 6) < 6) { out_str(o, "INVALIDMAC"); return; }
        buf = c->raw.p + fl->offset;
        for (i = 0; i < 6; i++) {
            snprintf(b, sizeof b, "%s%.2x", i ? sep : "", buf[reverse ? 5 - i : i]);
            out_str(o, b);
        }
        return;
    }
    case 'I': case 'i': {
        char ic = *x;
        if (x[1] == '4') {
            int reverse = 0;
            const char *fm = ic == 'i' ? "%03d.%03d.%03d.%03d" : "%d.%d.%d.%d";
            if (x[2] == 'h') reverse = !c->be;
            else if (x[2] == 'l') reverse = 1;
            if (!field_arg(c, o, a, &fl)) return;
            if (fl->size != 4 || avail(c, fl->offset, 4) < 4) { out_str(o, "INVALIDIPv4"); return; }
            buf = c->raw.p + fl->offset;
            if (reverse) snprintf(b, sizeof b, fm, buf[3], buf[2], buf[1], buf[0]);
            else snprintf(b, sizeof b, fm, buf[0], buf[1], buf[2], buf[3]);
            out_str(o, b);
            return;
        }
        if (x[1] == '6') {
            if (!field_arg(c, o, a, &fl)) return;
            if (fl->size != 16 || avail(c, fl->offset, 16) < 16) { out_str(o, "INVALIDIPv6"); return; }
            buf = c->raw.p + fl->offset;
            for (i = 0; i < 16; i += 2) {
                snprintf(b, sizeof b, "%02x%02x%s", buf[i], buf[i + 1], (ic == 'I' && i < 14) ? ":" : "");
                out_str(o, b);
            }
            return;
        }
        return; /* %pIS: refused at compile */
    }
    case 'U': {
        static const int guid[16] = {3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15};
        int upper = x[1] == 'L' || x[1] == 'B', g = x[1] == 'L' || x[1] == 'l';
        if (!field_arg(c, o, a, &fl)) return;
        if (fl->size != 16 || avail(c, fl->offset, 16) < 16) { out_str(o, "INVALIDUUID"); return; }
        buf = c->raw.p + fl->offset;
        for (i = 0; i < 16; i++) {
            snprintf(b, sizeof b, upper ? "%02X" : "%02x", buf[g ? guid[i] : i]);
            out_str(o, b);
            if (i == 3 || i == 5 || i == 7 || i == 9) out_str(o, "-");
        }
        return;
    }
    case 'h': {
        const char *delim = x[1] == 'C' ? ":" : x[1] == 'D' ? "-" : x[1] == 'N' ? "" : " ";
        const tpf_node *n = &c->f->nodes[a];
        uint64_t w, off;
        int alen;
        if (n->kind != K_DYNARRAY) {
            snprintf(b, sizeof b, "ARG TYPE NOT FIELD BUT %d", n->kind);
            out_str(o, b);
            return;
        }
        w = dyn_word(c, FLD(c, n->field));
        alen = (int)(w >> 16);
        off = w & 0xffff;
        if (alen < plen) plen = alen;
        for (i = 0; i < plen && avail(c, off + (uint64_t)i, 1); i++) {
            snprintf(b, sizeof b, "%s%02x", i ? delim : "", c->raw.p[off + (uint64_t)i]);
            out_str(o, b);
        }
        return;
    }
    default: {
        uint64_t v = eval_num(c, a, 1);
        if (!v) out_str(o, "(nil)");
        else out_hex64(o, "0x", v);
        return;
    }
    }
}

/* --------------------------------------------------- the failed form */

static int printable_array(const unsigned char *p, size_t len) {
    size_t i;
    for (i = 0; i < len && p[i]; i++)
        if (!(p[i] >= 0x20 && p[i] < 0x7f) && !c_isspace(p[i])) return 0;
    return 1;
}

/* tep_print_field */
static void print_field(tpf_out *o, const tpf_ctx *c, size_t fi) {
    const perfdata_tp_field *fl = FLD(c, (int)fi);
    char b[64];
    if (fl->flags & PERFDATA_TP_FIELD_ARRAY) {
        uint64_t off = fl->offset, len = fl->size, i;
        size_t k;
        if (fl->flags & PERFDATA_TP_FIELD_DYNAMIC) {
            uint64_t w = read_num(c, fl->offset, fl->size);
            len = w >> 16;
            off = w & 0xffff;
            if (fl->flags & PERFDATA_TP_FIELD_RELATIVE) off += fl->offset + fl->size;
        }
        k = avail(c, off, len);
        if ((fl->flags & PERFDATA_TP_FIELD_STRING) && !c->f->string_off[fi] &&
            printable_array(c->raw.p + (k ? off : 0), k)) {
            const char *s;
            size_t m = str_at(c, off, &s);
            out_bytes(o, s, m);
        } else {
            out_str(o, "ARRAY[");
            for (i = 0; i < len && i < k; i++) {
                snprintf(b, sizeof b, "%s%02x", i ? ", " : "", c->raw.p[off + i]);
                out_str(o, b);
            }
            out_str(o, "]");
            c->f->string_off[fi] = 1;
        }
        return;
    }
    {
        uint64_t val = read_num(c, fl->offset, fl->size);
        if (fl->flags & PERFDATA_TP_FIELD_POINTER) {
            out_hex64(o, "0x", val);
        } else if (fl->flags & PERFDATA_TP_FIELD_SIGNED) {
            switch (fl->size) {
            case 4:
                if (fl->flags & PERFDATA_TP_FIELD_LONG) snprintf(b, sizeof b, "0x%x", (unsigned)(uint32_t)val);
                else snprintf(b, sizeof b, "%d", (int)(int32_t)(uint32_t)val);
                break;
            case 2: snprintf(b, sizeof b, "%2d", (int)(int16_t)(uint16_t)val); break;
            case 1: snprintf(b, sizeof b, "%1d", (int)(int8_t)(uint8_t)val); break;
            default: snprintf(b, sizeof b, "%lld", (long long)val); break;
            }
            out_str(o, b);
        } else {
            if (fl->flags & PERFDATA_TP_FIELD_LONG) out_hex64(o, "0x", val);
            else {
                snprintf(b, sizeof b, "%llu", (unsigned long long)val);
                out_str(o, b);
            }
        }
    }
}

static void print_failed(tpf_out *o, const tpf_ctx *c) {
    size_t i;
    out_str(o, "[FAILED TO PARSE]");
    for (i = 0; i < c->f->nfields; i++) {
        const perfdata_tp_field *fl = FLD(c, (int)i);
        if (fl->flags & PERFDATA_TP_FIELD_COMMON) continue;
        out_bytes(o, " ", 1);
        out_bytes(o, (const char *)fl->name.p, fl->name.n);
        out_bytes(o, "=", 1);
        print_field(o, c, i);
    }
}

/* -------------------------------------------------------------- print */

size_t pd_tpfmt_print(const pd_tpfmt *f, perfdata_view raw, int big_endian, pd_tpfmt_ksym_fn ksym, void *ctx,
                      char **buf, size_t *len, size_t *cap) {
    tpf_out o;
    tpf_ctx c;
    size_t start = *len, i;
    o.buf = buf;
    o.len = len;
    o.cap = cap;
    c.f = f;
    c.raw = raw;
    c.be = big_endian;
    c.ksym = ksym;
    c.kctx = ctx;
    out_bytes(&o, "", 0);
    if (f->failed) {
        print_failed(&o, &c);
    } else {
        for (i = 0; i < f->nsegs && *len < PD_TPFMT_TEXT_MAX; i++) { /* full: the rest is not evaluated */
            const tpf_seg *s = &f->segs[i];
            int len_arg = s->len_arg >= 0 ? (int)eval_num(&c, s->len_arg, 1) : -1;
            switch (s->type) {
            case SEG_NUM:
                print_number(&o, S(f, s->text), len_arg, s->ls, eval_num(&c, s->arg, 1));
                break;
            case SEG_PTR:
                print_pointer(&o, &c, S(f, s->text), s->len_arg >= 0 ? len_arg : 1, s->arg);
                break;
            case SEG_STR:
                print_str_arg(&o, &c, S(f, s->text), len_arg, s->arg, 1);
                break;
            default:
                out_str(&o, S(f, s->text));
                break;
            }
        }
    }
    /* nothing from the file may forge a line or drive a terminal */
    if (!pd_text_clean(*buf + start, *len - start)) {
        size_t n = *len - start, need = 4 * n + 1;
        char *tmp = (char *)malloc(need), *esc;
        size_t m;
        if (!tmp) pd_nomem();
        memcpy(tmp, *buf + start, n);
        esc = (char *)malloc(need);
        if (!esc) pd_nomem();
        m = pd_escape(esc, need, tmp, n);
        *len = start;
        out_bytes(&o, esc, m);
        free(tmp);
        free(esc);
    }
    return *len - start;
}

/* ------------------------------------------------------------ filters */

enum { F_OR, F_AND, F_NOT, F_INT, F_STR };
enum { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_BAND, OP_GLOB };

typedef struct tpf_fnode {
    int kind, op;
    int a, b;                  /* children */
    perfdata_tp_field field;
    uint64_t value;
    char *str;                 /* F_STR: the value */
} tpf_fnode;

struct pd_tpfilter {
    tpf_fnode *n;
    size_t nn, cap;
    int root;
    unsigned long_size;
};

typedef struct tpf_fparse {
    pd_tpfilter *flt;
    const perfdata_tp_format *fmt;
    const char *s;
    size_t pos;
    int depth;
    char *err;
    size_t errcap;
    int failed;
    char unknown[80];          /* the first field the event does not have; parsing goes on */
} tpf_fparse;

static void ferr(tpf_fparse *p, const char *what) {
    if (p->failed) return;
    p->failed = 1;
    if (p->errcap) snprintf(p->err, p->errcap, "%s at offset %lu", what, (unsigned long)p->pos);
}

static void fskip(tpf_fparse *p) {
    while (p->s[p->pos] && c_isspace((unsigned char)p->s[p->pos])) p->pos++;
}

static int fnew(tpf_fparse *p, int kind) {
    pd_tpfilter *f = p->flt;
    f->n = (tpf_fnode *)tpf_grow(f->n, &f->cap, f->nn + 1, sizeof *f->n);
    memset(&f->n[f->nn], 0, sizeof f->n[0]);
    f->n[f->nn].kind = kind;
    f->n[f->nn].a = f->n[f->nn].b = -1;
    return (int)f->nn++;
}

static int fexpr(tpf_fparse *p);

static int fcmp(tpf_fparse *p) {
    size_t a, n;
    int node, op = -1, is_str;
    perfdata_tp_field fl;
    fskip(p);
    a = p->pos;
    while (c_isalnum_u((unsigned char)p->s[p->pos]) || p->s[p->pos] == '_') p->pos++;
    if (p->pos == a) { ferr(p, "expected a field name"); return -1; }
    if (!perfdata_tp_field_find(p->fmt, p->s + a, p->pos - a, &fl)) {
        /* an unknown field fails the filter, but the rest is still parsed:
           a syntax error is the user's whatever the event */
        size_t q = p->pos;
        if (!p->unknown[0])
            snprintf(p->unknown, sizeof p->unknown, "unknown field '%.*s'", (int)(p->pos - a > 64 ? 64 : p->pos - a),
                     p->s + a);
        memset(&fl, 0, sizeof fl);
        fl.size = 8;
        while (c_isspace((unsigned char)p->s[q])) q++;
        if (p->s[q] == '~') fl.flags = PERFDATA_TP_FIELD_STRING | PERFDATA_TP_FIELD_ARRAY;
        else if (p->s[q] == '=' || p->s[q] == '!') {
            q += 2;
            while (c_isspace((unsigned char)p->s[q])) q++;
            if (p->s[q] == '"' || p->s[q] == '\'' || (p->s[q] && !(p->s[q] >= '0' && p->s[q] <= '9') && p->s[q] != '-'))
                fl.flags = PERFDATA_TP_FIELD_STRING | PERFDATA_TP_FIELD_ARRAY;
        }
    } else {
        tep_field_flags(&fl, p->flt->long_size);
    }
    is_str = (fl.flags & PERFDATA_TP_FIELD_STRING) != 0;
    fskip(p);
    {
        const char *o = p->s + p->pos;
        if (o[0] == '=' && o[1] == '=') op = OP_EQ, p->pos += 2;
        else if (o[0] == '!' && o[1] == '=') op = OP_NE, p->pos += 2;
        else if (o[0] == '<' && o[1] == '=') op = OP_LE, p->pos += 2;
        else if (o[0] == '>' && o[1] == '=') op = OP_GE, p->pos += 2;
        else if (o[0] == '<') op = OP_LT, p->pos++;
        else if (o[0] == '>') op = OP_GT, p->pos++;
        else if (o[0] == '&' && o[1] != '&') op = OP_BAND, p->pos++;
        else if (o[0] == '~') op = OP_GLOB, p->pos++;
    }
    if (op < 0) { ferr(p, "expected a comparison (== != < <= > >= & ~)"); return -1; }
    if (is_str && op != OP_EQ && op != OP_NE && op != OP_GLOB) { ferr(p, "a string field takes only == != ~"); return -1; }
    if (!is_str && op == OP_GLOB) { ferr(p, "~ is for string fields"); return -1; }
    fskip(p);
    node = fnew(p, is_str ? F_STR : F_INT);
    p->flt->n[node].op = op;
    p->flt->n[node].field = fl;
    if (is_str) {
        char q = p->s[p->pos];
        char *v;
        if (q == '"' || q == '\'') {
            const char *e = strchr(p->s + p->pos + 1, q);
            if (!e) { ferr(p, "unterminated string"); return -1; }
            a = p->pos + 1;
            n = (size_t)(e - (p->s + a));
            p->pos = a + n + 1;
        } else {
            a = p->pos;
            while (p->s[p->pos] && !c_isspace((unsigned char)p->s[p->pos]) && p->s[p->pos] != ')' &&
                   p->s[p->pos] != '&' && p->s[p->pos] != '|')
                p->pos++;
            n = p->pos - a;
        }
        v = (char *)malloc(n + 1);
        if (!v) pd_nomem();
        memcpy(v, p->s + a, n);
        v[n] = 0;
        p->flt->n[node].str = v;
    } else {
        char *end;
        const char *v = p->s + p->pos;
        if (*v == '-') p->flt->n[node].value = (uint64_t)strtoll(v, &end, 0);
        else p->flt->n[node].value = strtoull(v, &end, 0);
        if (end == v) { ferr(p, "expected a number"); return -1; }
        p->pos += (size_t)(end - v);
    }
    return node;
}

static int funary(tpf_fparse *p) {
    int r;
    if (++p->depth > TPF_MAX_DEPTH) { ferr(p, "expression nested too deeply"); return -1; }
    fskip(p);
    if (p->s[p->pos] == '!' && p->s[p->pos + 1] != '=') {
        int n = fnew(p, F_NOT);
        p->pos++;
        r = funary(p);
        if (r < 0) return -1;
        p->flt->n[n].a = r;
        r = n;
    } else if (p->s[p->pos] == '(') {
        p->pos++;
        r = fexpr(p);
        if (r < 0) return -1;
        fskip(p);
        if (p->s[p->pos] != ')') { ferr(p, "expected )"); return -1; }
        p->pos++;
    } else {
        r = fcmp(p);
    }
    p->depth--;
    return r;
}

static int fchain(tpf_fparse *p, int kind) {
    const char *tok = kind == F_OR ? "||" : "&&";
    int l = kind == F_OR ? fchain(p, F_AND) : funary(p);
    while (l >= 0) {
        int r, n;
        fskip(p);
        if (strncmp(p->s + p->pos, tok, 2) != 0) break;
        p->pos += 2;
        r = kind == F_OR ? fchain(p, F_AND) : funary(p);
        if (r < 0) return -1;
        n = fnew(p, kind);
        p->flt->n[n].a = l;
        p->flt->n[n].b = r;
        l = n;
    }
    return l;
}

static int fexpr(tpf_fparse *p) {
    int r;
    if (++p->depth > TPF_MAX_DEPTH) { ferr(p, "expression nested too deeply"); return -1; }
    r = fchain(p, F_OR);
    p->depth--;
    return r;
}

pd_tpfilter *pd_tpfilter_compile(const perfdata_tp_format *fmt, const char *expr, char *errbuf, size_t errcap) {
    tpf_fparse p;
    pd_tpfilter *f = (pd_tpfilter *)calloc(1, sizeof *f);
    if (!f) pd_nomem();
    f->long_size = fmt->long_size == 4 ? 4 : 8;
    memset(&p, 0, sizeof p);
    p.flt = f;
    p.fmt = fmt;
    p.s = expr;
    p.err = errbuf;
    p.errcap = errcap;
    if (errcap) errbuf[0] = 0;
    f->root = fexpr(&p);
    fskip(&p);
    if (!p.failed && p.s[p.pos]) ferr(&p, "unexpected text");
    if (!p.failed && p.unknown[0]) {
        p.failed = 1;
        if (errcap) snprintf(errbuf, errcap, "%s", p.unknown);
    }
    if (p.failed || f->root < 0) {
        if (!p.failed) ferr(&p, "bad expression");
        pd_tpfilter_free(f);
        return NULL;
    }
    return f;
}

void pd_tpfilter_free(pd_tpfilter *f) {
    size_t i;
    if (!f) return;
    for (i = 0; i < f->nn; i++) free(f->n[i].str);
    free(f->n);
    free(f);
}

/* glob: * ? [abc] [a-z] [!x]; linear backtracking on the last * */
static int glob_class(const char *pat, size_t *pi, unsigned char c) {
    size_t i = *pi + 1;
    int neg = 0, hit = 0;
    if (pat[i] == '!' || pat[i] == '^') { neg = 1; i++; }
    if (pat[i] == ']') { hit = c == ']'; i++; }
    for (; pat[i] && pat[i] != ']'; i++) {
        if (pat[i + 1] == '-' && pat[i + 2] && pat[i + 2] != ']') {
            if (c >= (unsigned char)pat[i] && c <= (unsigned char)pat[i + 2]) hit = 1;
            i += 2;
        } else if ((unsigned char)pat[i] == c) {
            hit = 1;
        }
    }
    if (!pat[i]) return -1; /* no closing ]: a literal [ */
    *pi = i + 1;
    return hit != neg;
}

static int glob_match(const char *pat, const char *s, size_t n) {
    size_t pi = 0, si = 0, star_p = (size_t)-1, star_s = 0;
    while (si < n) {
        if (pat[pi] == '*') { star_p = ++pi; star_s = si; continue; }
        if (pat[pi] == '?') { pi++; si++; continue; }
        if (pat[pi] == '[') {
            size_t save = pi;
            int m = glob_class(pat, &pi, (unsigned char)s[si]);
            if (m == 1) { si++; continue; }
            if (m < 0 && s[si] == '[') { pi = save + 1; si++; continue; }
        } else if (pat[pi] && pat[pi] == s[si]) {
            pi++;
            si++;
            continue;
        }
        if (star_p == (size_t)-1) return 0;
        pi = star_p;
        si = ++star_s;
    }
    while (pat[pi] == '*') pi++;
    return !pat[pi];
}

static int fmatch(const pd_tpfilter *f, int i, const tpf_ctx *c, int depth) {
    const tpf_fnode *n;
    if (i < 0 || depth > TPF_MAX_DEPTH + 2) return 0;
    n = &f->n[i];
    switch (n->kind) {
    case F_OR: return fmatch(f, n->a, c, depth + 1) || fmatch(f, n->b, c, depth + 1);
    case F_AND: return fmatch(f, n->a, c, depth + 1) && fmatch(f, n->b, c, depth + 1);
    case F_NOT: return !fmatch(f, n->a, c, depth + 1);
    case F_STR: {
        const perfdata_tp_field *fl = &n->field;
        uint64_t off = fl->offset, len = fl->size;
        const char *s;
        size_t k, m;
        if (fl->flags & PERFDATA_TP_FIELD_DYNAMIC) {
            uint64_t w = read_num(c, fl->offset, fl->size);
            len = w >> 16;
            off = w & 0xffff;
            if (fl->flags & PERFDATA_TP_FIELD_RELATIVE) off += fl->offset + fl->size;
        }
        k = avail(c, off, len);
        s = k ? (const char *)c->raw.p + off : "";
        for (m = 0; m < k && s[m]; m++) {}
        if (n->op == OP_GLOB) return glob_match(n->str, s, m);
        {
            int eq = strlen(n->str) == m && !memcmp(n->str, s, m);
            return n->op == OP_EQ ? eq : !eq;
        }
    }
    case F_INT: {
        const perfdata_tp_field *fl = &n->field;
        uint64_t v = read_num(c, fl->offset, fl->size), w = n->value;
        int sgn = (fl->flags & PERFDATA_TP_FIELD_SIGNED) != 0;
        if (sgn && fl->size < 8 && fl->size > 0) {
            unsigned sh = 64 - 8 * fl->size;
            v = (uint64_t)((int64_t)(v << sh) >> sh);
        }
        switch (n->op) {
        case OP_EQ: return v == w;
        case OP_NE: return v != w;
        case OP_BAND: return (v & w) != 0;
        case OP_LT: return sgn ? (int64_t)v < (int64_t)w : v < w;
        case OP_LE: return sgn ? (int64_t)v <= (int64_t)w : v <= w;
        case OP_GT: return sgn ? (int64_t)v > (int64_t)w : v > w;
        case OP_GE: return sgn ? (int64_t)v >= (int64_t)w : v >= w;
        default: return 0;
        }
    }
    default: return 0;
    }
}

int pd_tpfilter_match(const pd_tpfilter *f, perfdata_view raw, int big_endian) {
    tpf_ctx c;
    memset(&c, 0, sizeof c);
    c.raw = raw;
    c.be = big_endian;
    return fmatch(f, f->root, &c, 0);
}
