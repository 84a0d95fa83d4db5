/* pd_demangle.c - see pd_demangle.h. The grammar is the Itanium C++ ABI's
   <mangled-name>; the output follows what libiberty's cp-demangle prints
   (perf 6.1 and c++filt both use it): where a type's pieces go
   (declarator order: "void (*)(int)", "char const*"), "> >", "(anonymous
   namespace)", "{lambda(int)#2}", literals as "5u" or "(char)97", and the
   substitution rules that decide what S_, S0_... stand for.
   Two passes: the name is parsed into nodes (at most a few per input
   byte), then printed. Printing walks the nodes with a stack of pending
   "modifiers" (pointer, reference, cv, the enclosing function's name)
   so that a function or array type can print them inside its own
   parentheses. */
#include "pd_demangle.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
    K_NAME, K_QUAL, K_LOCAL, K_TYPED, K_TEMPLATE, K_TPARAM, K_FPARAM, K_CTOR, K_DTOR, K_SUB_STD,
    K_SPECIAL,          /* s: "vtable for " ..., l: what */
    K_CTOR_VTABLE,      /* construction vtable for l-in-r */
    K_REFTEMP,          /* reference temporary #r for l */
    K_RESTRICT, K_VOLATILE, K_CONST,
    K_RESTRICT_THIS, K_VOLATILE_THIS, K_CONST_THIS, K_REF_THIS, K_RVREF_THIS, K_TX_SAFE, K_NOEXCEPT, K_THROW,
    K_VENDOR_QUAL, K_POINTER, K_REFERENCE, K_RVREF, K_COMPLEX, K_IMAGINARY,
    K_BUILTIN, K_VENDOR_TYPE, K_FUNCTION, K_ARRAY, K_PTRMEM,
    K_ARGLIST, K_TARGLIST, K_OPERATOR, K_EXT_OPERATOR, K_CAST, K_CONVERSION,
    K_NULLARY, K_UNARY, K_BINARY, K_BINARY_ARGS, K_TRINARY, K_TRINARY_ARG1, K_TRINARY_ARG2,
    K_LITERAL, K_LITERAL_NEG, K_DECLTYPE, K_LAMBDA, K_UNNAMED, K_PACK, K_TAGGED, K_CLONE, K_DEFAULT_ARG,
    K_INIT_LIST, K_GLOBAL_CDTOR
};

/* how a builtin type's literal prints */
enum { P_DEFAULT, P_INT, P_UNSIGNED, P_LONG, P_ULONG, P_LLONG, P_ULLONG, P_BOOL, P_FLOAT, P_VOID };

typedef struct builtin { const char *name; unsigned char print; } builtin;

static const builtin builtins[26] = {
    {"signed char", P_DEFAULT}, {"bool", P_BOOL}, {"char", P_DEFAULT}, {"double", P_FLOAT},
    {"long double", P_FLOAT}, {"float", P_FLOAT}, {"__float128", P_FLOAT}, {"unsigned char", P_DEFAULT},
    {"int", P_INT}, {"unsigned int", P_UNSIGNED}, {NULL, 0}, {"long", P_LONG}, {"unsigned long", P_ULONG},
    {"__int128", P_DEFAULT}, {"unsigned __int128", P_DEFAULT}, {NULL, 0}, {NULL, 0}, {NULL, 0},
    {"short", P_DEFAULT}, {"unsigned short", P_DEFAULT}, {NULL, 0}, {"void", P_VOID}, {"wchar_t", P_DEFAULT},
    {"long long", P_LLONG}, {"unsigned long long", P_ULLONG}, {"...", P_DEFAULT}};

/* the D* builtins */
static const builtin b_d32 = {"decimal32", P_DEFAULT}, b_d64 = {"decimal64", P_DEFAULT},
                     b_d128 = {"decimal128", P_DEFAULT}, b_half = {"half", P_FLOAT},
                     b_char8 = {"char8_t", P_DEFAULT}, b_char16 = {"char16_t", P_DEFAULT},
                     b_char32 = {"char32_t", P_DEFAULT}, b_nullptr = {"decltype(nullptr)", P_DEFAULT};

typedef struct op { const char *name; const char code[3]; unsigned char args; } op;

/* sorted by code */
static const op ops[] = {
    {"&=", "aN", 2}, {"=", "aS", 2}, {"&&", "aa", 2}, {"&", "ad", 1}, {"&", "an", 2}, {"alignof ", "at", 1},
    {"co_await ", "aw", 1}, {"alignof ", "az", 1}, {"const_cast", "cc", 2}, {"()", "cl", 2}, {",", "cm", 2},
    {"~", "co", 1}, {"/=", "dV", 2}, {"[...]=", "dX", 3}, {"delete[] ", "da", 1}, {"dynamic_cast", "dc", 2},
    {"*", "de", 1}, {"=", "di", 2}, {"delete ", "dl", 1}, {".*", "ds", 2}, {".", "dt", 2}, {"/", "dv", 2},
    {"]=", "dx", 2}, {"^=", "eO", 2}, {"^", "eo", 2}, {"==", "eq", 2}, {"...", "fL", 3}, {"...", "fR", 3},
    {"...", "fl", 2}, {"...", "fr", 2}, {">=", "ge", 2}, {"::", "gs", 1}, {">", "gt", 2}, {"[]", "ix", 2},
    {"<<=", "lS", 2}, {"<=", "le", 2}, {"operator\"\" ", "li", 1}, {"<<", "ls", 2}, {"<", "lt", 2},
    {"-=", "mI", 2}, {"*=", "mL", 2}, {"-", "mi", 2}, {"*", "ml", 2}, {"--", "mm", 1}, {"new[]", "na", 3},
    {"!=", "ne", 2}, {"-", "ng", 1}, {"!", "nt", 1}, {"new", "nw", 3}, {"noexcept", "nx", 1}, {"|=", "oR", 2},
    {"||", "oo", 2}, {"|", "or", 2}, {"+=", "pL", 2}, {"+", "pl", 2}, {"->*", "pm", 2}, {"++", "pp", 1},
    {"+", "ps", 1}, {"->", "pt", 2}, {"?", "qu", 3}, {"%=", "rM", 2}, {">>=", "rS", 2},
    {"reinterpret_cast", "rc", 2}, {"%", "rm", 2}, {">>", "rs", 2}, {"sizeof...", "sP", 1},
    {"sizeof...", "sZ", 1}, {"static_cast", "sc", 2}, {"<=>", "ss", 2}, {"sizeof ", "st", 1},
    {"sizeof ", "sz", 1}, {"throw", "tr", 0}, {"throw ", "tw", 1}};

typedef struct node node;
struct node {
    unsigned char kind;
    const char *s;               /* NAME, SUB_STD, SPECIAL's text, CLONE, LITERAL's digits */
    size_t n;
    node *l, *r;
    long num;                    /* TPARAM, FPARAM, LAMBDA, UNNAMED, DEFAULT_ARG, EXT_OPERATOR's args */
    const op *o;
    const builtin *b;
};

typedef struct parser {
    const char *p, *end;
    unsigned flags;
    node *nodes;
    size_t nn, cap;
    node **subs;
    size_t nsubs, capsubs;
    node *last_name;
    int is_expression, is_conversion;
    int unresolved;     /* 1: sr read as the current ABI has it (sr1AE1x); -1: it was; 0: the old way (sr1A1x) */
    int depth;
} parser;

#define MAX_DEPTH 256

static char peek(const parser *d) { return d->p < d->end ? *d->p : 0; }
static char peek2(const parser *d) { return d->p + 1 < d->end ? d->p[1] : 0; }
static char next(parser *d) { return d->p < d->end ? *d->p++ : 0; }
static int check(parser *d, char c) {
    if (peek(d) != c) return 0;
    d->p++;
    return 1;
}
static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_lower(char c) { return c >= 'a' && c <= 'z'; }
static int is_upper(char c) { return c >= 'A' && c <= 'Z'; }

static node *mk(parser *d, int kind, node *l, node *r) {
    node *n;
    if (d->nn == d->cap) return NULL;
    n = &d->nodes[d->nn++];
    memset(n, 0, sizeof *n);
    n->kind = (unsigned char)kind;
    n->l = l;
    n->r = r;
    return n;
}
/* a node that needs its operands: NULL when one failed */
static node *mk2(parser *d, int kind, node *l, node *r) { return l && r ? mk(d, kind, l, r) : NULL; }
static node *mk1(parser *d, int kind, node *l) { return l ? mk(d, kind, l, NULL) : NULL; }
static node *mk_name(parser *d, const char *s, size_t n) {
    node *x = mk(d, K_NAME, NULL, NULL);
    if (x) { x->s = s; x->n = n; }
    return x;
}
static int add_sub(parser *d, node *x) {
    if (!x || d->nsubs == d->capsubs) return 0;
    d->subs[d->nsubs++] = x;
    return 1;
}

static node *type(parser *d);
static node *name(parser *d);
static node *encoding(parser *d, int top);
static node *expression(parser *d);
static node *expression_1(parser *d);
static node *template_args(parser *d);
static node *unqualified_name(parser *d);
static node *operator_name(parser *d);
static node *prefix_levels(parser *d);

/* <number> ::= [n] <decimal>; -1 when none or too large */
static long number(parser *d, int *neg) {
    long v = 0;
    if (neg) *neg = 0;
    if (peek(d) == 'n') {
        if (!neg) return -1;
        *neg = 1;
        d->p++;
    }
    if (!is_digit(peek(d))) return -1;
    while (is_digit(peek(d))) {
        if (v > 100000000L) return -1;
        v = v * 10 + (next(d) - '0');
    }
    return v;
}

/* '_' -> 0, <number> '_' -> number + 1 */
static long compact_number(parser *d) {
    long v;
    if (peek(d) == '_') v = 0;
    else if (peek(d) == 'n') return -1;
    else if ((v = number(d, NULL)) < 0) return -1;
    else v++;
    return check(d, '_') ? v : -1;
}

static node *source_name(parser *d) {
    long len = number(d, NULL);
    node *x;
    if (len <= 0 || len > d->end - d->p) return NULL;
    /* g++'s anonymous namespace: _GLOBAL_[._$]N... */
    if (len >= 10 && !memcmp(d->p, "_GLOBAL_", 8) && (d->p[8] == '.' || d->p[8] == '_' || d->p[8] == '$') &&
        d->p[9] == 'N')
        x = mk_name(d, "(anonymous namespace)", 21);
    else
        x = mk_name(d, d->p, (size_t)len);
    d->p += len;
    d->last_name = x;
    return x;
}

/* _ <digit> | __ <number> _ : read and dropped */
static int discriminator(parser *d) {
    int under = 1;
    long v;
    if (peek(d) != '_') return 1;
    d->p++;
    if (peek(d) == '_') { under++; d->p++; }
    if ((v = number(d, NULL)) < 0) return 0;
    if (under > 1 && v >= 10) {
        if (peek(d) == '_') d->p++;
        else return 0;
    }
    return 1;
}

static node *abi_tags(parser *d, node *x) {
    node *hold = d->last_name;
    while (x && peek(d) == 'B') {
        d->p++;
        x = mk2(d, K_TAGGED, x, source_name(d));
    }
    d->last_name = hold;
    return x;
}

static node *ctor_dtor_name(parser *d) {
    node *x;
    if (peek(d) == 'C') {
        int inheriting = 0;
        if (peek2(d) == 'I') { inheriting = 1; d->p++; }
        if (peek2(d) < '1' || peek2(d) > '5') return NULL;
        d->p += 2;
        if (inheriting && !type(d)) return NULL;
        if (!d->last_name) return NULL;
        x = mk(d, K_CTOR, d->last_name, NULL);
        return x;
    }
    if (peek(d) == 'D') {
        char c = peek2(d);
        if (c != '0' && c != '1' && c != '2' && c != '4' && c != '5') return NULL;
        d->p += 2;
        if (!d->last_name) return NULL;
        return mk(d, K_DTOR, d->last_name, NULL);
    }
    return NULL;
}

static node *parmlist(parser *d);

static node *lambda(parser *d) {
    node *tl, *x;
    long num;
    d->p += 2; /* Ul */
    if (!(tl = parmlist(d)) || !check(d, 'E') || (num = compact_number(d)) < 0) return NULL;
    if (!(x = mk(d, K_LAMBDA, tl, NULL))) return NULL;
    x->num = num;
    return x;
}

static node *unnamed_type(parser *d) {
    node *x;
    long num;
    d->p += 2; /* Ut */
    if ((num = compact_number(d)) < 0 || !(x = mk(d, K_UNNAMED, NULL, NULL))) return NULL;
    x->num = num;
    return add_sub(d, x) ? x : NULL;
}

static node *unqualified_name(parser *d) {
    node *x;
    char c = peek(d);
    if (is_digit(c)) x = source_name(d);
    else if (is_lower(c)) {
        int was = d->is_expression;
        if (c == 'o' && peek2(d) == 'n') { d->p += 2; d->is_expression = 0; }
        x = operator_name(d);
        d->is_expression = was;
        if (x && x->kind == K_OPERATOR && !strcmp(x->o->code, "li")) x = mk2(d, K_UNARY, x, source_name(d));
    } else if (c == 'C' || c == 'D') x = ctor_dtor_name(d);
    else if (c == 'L') {
        d->p++;
        if (!(x = source_name(d)) || !discriminator(d)) return NULL;
    } else if (c == 'U') {
        if (peek2(d) == 'l') x = lambda(d);
        else if (peek2(d) == 't') x = unnamed_type(d);
        else return NULL;
    } else return NULL;
    if (x && peek(d) == 'B') x = abi_tags(d, x);
    return x;
}

static const struct { char code; const char *simple, *full, *last; } std_subs[] = {
    {'t', "std", "std", NULL},
    {'a', "std::allocator", "std::allocator", "allocator"},
    {'b', "std::basic_string", "std::basic_string", "basic_string"},
    {'s', "std::string", "std::basic_string<char, std::char_traits<char>, std::allocator<char> >", "basic_string"},
    {'i', "std::istream", "std::basic_istream<char, std::char_traits<char> >", "basic_istream"},
    {'o', "std::ostream", "std::basic_ostream<char, std::char_traits<char> >", "basic_ostream"},
    {'d', "std::iostream", "std::basic_iostream<char, std::char_traits<char> >", "basic_iostream"}};

static node *substitution(parser *d, int prefix) {
    char c;
    size_t i;
    if (!check(d, 'S')) return NULL;
    c = next(d);
    if (c == '_' || is_digit(c) || is_upper(c)) {
        size_t id = 0;
        if (c != '_') {
            do {
                size_t v;
                if (is_digit(c)) v = id * 36 + (size_t)(c - '0');
                else if (is_upper(c)) v = id * 36 + (size_t)(c - 'A' + 10);
                else return NULL;
                if (v < id || v > 1000000) return NULL;
                id = v;
                c = next(d);
            } while (c != '_');
            id++;
        }
        return id < d->nsubs ? d->subs[id] : NULL;
    }
    for (i = 0; i < sizeof std_subs / sizeof std_subs[0]; i++) {
        if (c == std_subs[i].code) {
            int verbose = (d->flags & PD_DEMANGLE_VERBOSE) != 0;
            const char *s;
            node *x;
            if (!verbose && prefix && (peek(d) == 'C' || peek(d) == 'D')) verbose = 1;
            if (std_subs[i].last) {
                d->last_name = mk(d, K_SUB_STD, NULL, NULL);
                if (!d->last_name) return NULL;
                d->last_name->s = std_subs[i].last;
                d->last_name->n = strlen(std_subs[i].last);
            }
            s = verbose ? std_subs[i].full : std_subs[i].simple;
            if (!(x = mk(d, K_SUB_STD, NULL, NULL))) return NULL;
            x->s = s;
            x->n = strlen(s);
            if (peek(d) == 'B') {
                x = abi_tags(d, x);
                if (!add_sub(d, x)) return NULL;
            }
            return x;
        }
    }
    return NULL;
}

static node *template_param(parser *d) {
    long v;
    node *x;
    if (!check(d, 'T') || (v = compact_number(d)) < 0 || !(x = mk(d, K_TPARAM, NULL, NULL))) return NULL;
    x->num = v;
    return x;
}

static node *decltype_(parser *d) {
    node *x;
    d->p += 2; /* DT or Dt */
    x = mk1(d, K_DECLTYPE, expression(d));
    return x && check(d, 'E') ? x : NULL;
}

/* <prefix> components up to the E of a nested name */
static node *prefix(parser *d) {
    node *ret = NULL;
    for (;;) {
        char c = peek(d);
        int kind = K_QUAL;
        node *x;
        if (!c) return NULL;
        if (c == 'D' && (peek2(d) == 'T' || peek2(d) == 't')) x = type(d);
        else if (c == 'I') {
            if (!ret) return NULL;
            kind = K_TEMPLATE;
            x = template_args(d);
        } else if (c == 'T') x = template_param(d);
        else if (c == 'S') x = substitution(d, 1);
        else if (c == 'M') { /* a lambda's initializer scope: already a candidate */
            d->p++;
            continue;
        } else x = unqualified_name(d);
        if (!x) return NULL;
        ret = ret ? mk(d, kind, ret, x) : x;
        if (!ret) return NULL;
        if (c != 'S' && peek(d) != 'E' && !add_sub(d, ret)) return NULL;
        if (peek(d) == 'E') return ret;
    }
}

/* the qualifier levels of an unresolved name: a prefix that adds no
   substitutions, up to its E */
static node *prefix_levels(parser *d) {
    node *ret = NULL;
    for (;;) {
        char c = peek(d);
        node *x;
        int kind = K_QUAL;
        if (!c) return NULL;
        if (c == 'I') {
            if (!ret) return NULL;
            kind = K_TEMPLATE;
            x = template_args(d);
        } else if (c == 'S') {
            if (ret) return NULL;
            ret = substitution(d, 1);
            if (!ret) return NULL;
            continue;
        } else x = unqualified_name(d);
        if (!x) return NULL;
        ret = ret ? mk(d, kind, ret, x) : x;
        if (!ret || peek(d) == 'E') return ret;
    }
}

/* cv-qualifiers wrapping what follows: returns where the inner goes */
static node **cv_qualifiers(parser *d, node **pret, int member_fn) {
    node **start = pret;
    for (;;) {
        char c = peek(d);
        int kind;
        if (c == 'r') kind = member_fn ? K_RESTRICT_THIS : K_RESTRICT;
        else if (c == 'V') kind = member_fn ? K_VOLATILE_THIS : K_VOLATILE;
        else if (c == 'K') kind = member_fn ? K_CONST_THIS : K_CONST;
        else if (c == 'D' && peek2(d) == 'x') { kind = K_TX_SAFE; d->p++; }
        else if (c == 'D' && (peek2(d) == 'o' || peek2(d) == 'O' || peek2(d) == 'w')) {
            char c2 = peek2(d);
            node *x, *arg = NULL;
            d->p += 2;
            kind = c2 == 'w' ? K_THROW : K_NOEXCEPT;
            if (c2 == 'O') {
                if (!(arg = expression(d)) || !check(d, 'E')) return NULL;
            } else if (c2 == 'w') {
                node *list = NULL, **tail = &list;
                while (peek(d) != 'E') {
                    node *t = type(d);
                    if (!t || !(*tail = mk(d, K_ARGLIST, t, NULL))) return NULL;
                    tail = &(*tail)->r;
                }
                d->p++;
                arg = list;
            }
            if (!(x = mk(d, kind, NULL, arg))) return NULL;
            *pret = x;
            pret = &x->l;
            continue;
        } else break;
        d->p++;
        if (!(*pret = mk(d, kind, NULL, NULL))) return NULL;
        pret = &(*pret)->l;
    }
    /* qualifiers of a function type qualify its 'this': "void () const" */
    if (!member_fn && peek(d) == 'F') {
        for (; start != pret; start = &(*start)->l) {
            if ((*start)->kind == K_RESTRICT) (*start)->kind = K_RESTRICT_THIS;
            else if ((*start)->kind == K_VOLATILE) (*start)->kind = K_VOLATILE_THIS;
            else if ((*start)->kind == K_CONST) (*start)->kind = K_CONST_THIS;
        }
    }
    return pret;
}

static int fnqual(int k) {
    return k == K_RESTRICT_THIS || k == K_VOLATILE_THIS || k == K_CONST_THIS || k == K_REF_THIS ||
           k == K_RVREF_THIS || k == K_TX_SAFE || k == K_NOEXCEPT || k == K_THROW;
}

static node *nested_name(parser *d) {
    node *ret = NULL, **pret, *rq = NULL;
    if (!check(d, 'N')) return NULL;
    if (!(pret = cv_qualifiers(d, &ret, 1))) return NULL;
    if (peek(d) == 'R' || peek(d) == 'O') {
        rq = mk(d, peek(d) == 'R' ? K_REF_THIS : K_RVREF_THIS, NULL, NULL);
        d->p++;
        if (!rq) return NULL;
    }
    if (!(*pret = prefix(d))) return NULL;
    if (rq) { rq->l = ret; ret = rq; }
    return check(d, 'E') ? ret : NULL;
}

static node *local_name(parser *d) {
    node *fn, *nm;
    if (!check(d, 'Z') || !(fn = encoding(d, 0)) || !check(d, 'E')) return NULL;
    if (peek(d) == 's') {
        d->p++;
        if (!discriminator(d)) return NULL;
        nm = mk_name(d, "string literal", 14);
    } else {
        long num = -1;
        if (peek(d) == 'd') {
            d->p++;
            if ((num = compact_number(d)) < 0) return NULL;
        }
        nm = name(d);
        if (nm && nm->kind != K_LAMBDA && nm->kind != K_UNNAMED && !discriminator(d)) return NULL;
        if (nm && num >= 0) {
            node *x = mk(d, K_DEFAULT_ARG, nm, NULL);
            if (x) x->num = num;
            nm = x;
        }
    }
    if (!nm) return NULL;
    /* the enclosing function's return type is not shown */
    if (fn->kind == K_TYPED && fn->r && fn->r->kind == K_FUNCTION) fn->r->l = NULL;
    return mk(d, K_LOCAL, fn, nm);
}

static node *name(parser *d) {
    node *x;
    if (++d->depth > MAX_DEPTH) return NULL;
    switch (peek(d)) {
    case 'N': x = nested_name(d); break;
    case 'Z': x = local_name(d); break;
    case 'U': x = unqualified_name(d); break;
    case 'S': {
        int subst;
        if (peek2(d) != 't') {
            x = substitution(d, 0);
            subst = 1;
        } else {
            d->p += 2;
            x = mk2(d, K_QUAL, mk_name(d, "std", 3), unqualified_name(d));
            subst = 0;
        }
        if (x && peek(d) == 'I') {
            if (!subst && !add_sub(d, x)) { x = NULL; break; }
            x = mk2(d, K_TEMPLATE, x, template_args(d));
        }
        break;
    }
    default:
        x = unqualified_name(d);
        if (x && peek(d) == 'I') {
            if (!add_sub(d, x)) { x = NULL; break; }
            x = mk2(d, K_TEMPLATE, x, template_args(d));
        }
    }
    d->depth--;
    return x;
}

/* types until E (or a clone suffix, or the end); a lone void is none */
static node *parmlist(parser *d) {
    node *list = NULL, **tail = &list;
    for (;;) {
        char c = peek(d);
        node *t;
        if (!c || c == 'E' || c == '.') break;
        if ((c == 'R' || c == 'O') && peek2(d) == 'E') break; /* a function type's ref-qualifier */
        if (!(t = type(d)) || !(*tail = mk(d, K_ARGLIST, t, NULL))) return NULL;
        tail = &(*tail)->r;
    }
    if (!list) return NULL;
    if (!list->r && list->l->kind == K_BUILTIN && list->l->b->print == P_VOID) list->l = NULL;
    return list;
}

static node *bare_function_type(parser *d, int has_return) {
    node *ret = NULL, *params;
    if (peek(d) == 'J') { d->p++; has_return = 1; }
    if (has_return && !(ret = type(d))) return NULL;
    if (!(params = parmlist(d))) return NULL;
    return mk(d, K_FUNCTION, ret, params);
}

static node *function_type(parser *d) {
    node *x;
    if (!check(d, 'F')) return NULL;
    if (peek(d) == 'Y') d->p++; /* extern "C": not shown */
    if (!(x = bare_function_type(d, 1))) return NULL;
    if (peek(d) == 'R' || peek(d) == 'O') x = mk(d, next(d) == 'R' ? K_REF_THIS : K_RVREF_THIS, x, NULL);
    return x && check(d, 'E') ? x : NULL;
}

static node *array_type(parser *d) {
    node *dim = NULL, *t;
    if (!check(d, 'A')) return NULL;
    if (is_digit(peek(d))) {
        const char *s = d->p;
        while (is_digit(peek(d))) d->p++;
        if (!(dim = mk_name(d, s, (size_t)(d->p - s)))) return NULL;
    } else if (peek(d) != '_') {
        if (!(dim = expression(d))) return NULL;
    }
    if (!check(d, '_')) return NULL;
    t = type(d);
    return t ? mk(d, K_ARRAY, dim, t) : NULL;
}

static int has_return_type(const node *x);
static int is_cdtor_or_conversion(const node *x) {
    while (x) {
        switch (x->kind) {
        case K_QUAL: case K_LOCAL: x = x->r; continue;
        case K_CTOR: case K_DTOR: case K_CONVERSION: return 1;
        default: return 0;
        }
    }
    return 0;
}
static int has_return_type(const node *x) {
    if (!x) return 0;
    if (x->kind == K_LOCAL) return has_return_type(x->r);
    if (x->kind == K_TEMPLATE) return !is_cdtor_or_conversion(x->l);
    if (fnqual(x->kind)) return has_return_type(x->l);
    return 0;
}

static node *type(parser *d) {
    node *ret = NULL;
    int can_subst = 1;
    char c = peek(d);
    if (++d->depth > MAX_DEPTH) return NULL;
    if (c == 'r' || c == 'V' || c == 'K' || (c == 'D' && (peek2(d) == 'x' || peek2(d) == 'o' || peek2(d) == 'O' || peek2(d) == 'w'))) {
        node **pret = cv_qualifiers(d, &ret, 0);
        if (!pret) return NULL;
        *pret = peek(d) == 'F' ? function_type(d) : type(d);
        if (!*pret) return NULL;
        if ((*pret)->kind == K_REF_THIS || (*pret)->kind == K_RVREF_THIS) {
            /* the ref-qualifier goes outside the cv-qualifiers, to print in order */
            node *fn = (*pret)->l;
            (*pret)->l = ret;
            ret = *pret;
            *pret = fn;
        }
        d->depth--;
        return add_sub(d, ret) ? ret : NULL;
    }
    switch (c) {
    case 'a': case 'b': case 'c': case 'd': case 'e': case 'f': case 'g': case 'h': case 'i': case 'j':
    case 'l': case 'm': case 'n': case 'o': case 's': case 't': case 'v': case 'w': case 'x': case 'y': case 'z':
        if ((ret = mk(d, K_BUILTIN, NULL, NULL)) != NULL) ret->b = &builtins[c - 'a'];
        d->p++;
        can_subst = 0;
        break;
    case 'u':
        d->p++;
        ret = mk1(d, K_VENDOR_TYPE, source_name(d));
        break;
    case 'F': ret = function_type(d); break;
    case 'A': ret = array_type(d); break;
    case 'M': {
        node *cl, *mem;
        d->p++;
        cl = type(d);
        mem = cl ? type(d) : NULL;
        ret = mk2(d, K_PTRMEM, cl, mem);
        break;
    }
    case 'T':
        ret = template_param(d);
        if (ret && peek(d) == 'I') {
            if (d->is_conversion) { ret = NULL; break; } /* a conversion operator's template: not read */
            if (!add_sub(d, ret)) { ret = NULL; break; }
            ret = mk2(d, K_TEMPLATE, ret, template_args(d));
        }
        break;
    case 'S': {
        char c2 = peek2(d);
        if (is_digit(c2) || c2 == '_' || is_upper(c2)) {
            ret = substitution(d, 0);
            if (ret && peek(d) == 'I') ret = mk2(d, K_TEMPLATE, ret, template_args(d));
            else can_subst = 0;
        } else {
            ret = name(d);
            if (ret && ret->kind == K_SUB_STD) can_subst = 0;
        }
        break;
    }
    case 'O': d->p++; ret = mk1(d, K_RVREF, type(d)); break;
    case 'P': d->p++; ret = mk1(d, K_POINTER, type(d)); break;
    case 'R': d->p++; ret = mk1(d, K_REFERENCE, type(d)); break;
    case 'C': d->p++; ret = mk1(d, K_COMPLEX, type(d)); break;
    case 'G': d->p++; ret = mk1(d, K_IMAGINARY, type(d)); break;
    case 'U': {
        node *q;
        d->p++;
        q = source_name(d);
        if (q && peek(d) == 'I') q = mk2(d, K_TEMPLATE, q, template_args(d));
        ret = q ? mk2(d, K_VENDOR_QUAL, type(d), q) : NULL;
        break;
    }
    case 'D': {
        char c2 = peek2(d);
        const builtin *b = NULL;
        can_subst = 0;
        if (c2 == 'T' || c2 == 't') { ret = decltype_(d); can_subst = 1; break; }
        if (c2 == 'p') { d->p += 2; ret = mk1(d, K_PACK, type(d)); can_subst = 1; break; }
        if (c2 == 'a') { d->p += 2; ret = mk_name(d, "auto", 4); break; }
        if (c2 == 'c') { d->p += 2; ret = mk_name(d, "decltype(auto)", 14); break; }
        switch (c2) {
        case 'f': b = &b_d32; break;
        case 'd': b = &b_d64; break;
        case 'e': b = &b_d128; break;
        case 'h': b = &b_half; break;
        case 'u': b = &b_char8; break;
        case 's': b = &b_char16; break;
        case 'i': b = &b_char32; break;
        case 'n': b = &b_nullptr; break;
        default: ret = NULL;
        }
        if (!b) break;
        d->p += 2;
        if ((ret = mk(d, K_BUILTIN, NULL, NULL)) != NULL) ret->b = b;
        break;
    }
    default:
        ret = name(d);
        break;
    }
    d->depth--;
    if (ret && can_subst && !add_sub(d, ret)) return NULL;
    return ret;
}

static node *expr_primary(parser *d) {
    node *x;
    if (!check(d, 'L')) return NULL;
    if (peek(d) == '_' || peek(d) == 'Z') {
        /* an external name: L_Z encoding E (or LZ, g++'s old bug) */
        if (peek(d) == '_') d->p++;
        if (!check(d, 'Z')) return NULL;
        x = encoding(d, 0);
    } else {
        node *t = type(d);
        int kind = K_LITERAL;
        const char *s;
        if (!t) return NULL;
        if (peek(d) == 'n') { kind = K_LITERAL_NEG; d->p++; }
        s = d->p;
        while (peek(d) != 'E') {
            if (!peek(d)) return NULL;
            d->p++;
        }
        x = mk2(d, kind, t, mk_name(d, s, (size_t)(d->p - s)));
    }
    return x && check(d, 'E') ? x : NULL;
}

static node *template_arg(parser *d) {
    node *x;
    switch (peek(d)) {
    case 'X':
        d->p++;
        x = expression(d);
        return x && check(d, 'E') ? x : NULL;
    case 'L': return expr_primary(d);
    case 'I': case 'J': return template_args(d);
    default: return type(d);
    }
}

static node *template_args_1(parser *d) {
    node *list = NULL, **tail = &list;
    if (peek(d) == 'E') { /* an empty pack */
        d->p++;
        return mk(d, K_TARGLIST, NULL, NULL);
    }
    for (;;) {
        node *a = template_arg(d);
        if (!a || !(*tail = mk(d, K_TARGLIST, a, NULL))) return NULL;
        tail = &(*tail)->r;
        if (peek(d) == 'E') { d->p++; break; }
        if (!peek(d)) return NULL;
    }
    return list;
}

static node *template_args(parser *d) {
    node *hold = d->last_name, *x;
    if (peek(d) != 'I' && peek(d) != 'J') return NULL;
    if (++d->depth > MAX_DEPTH) return NULL;
    d->p++;
    x = template_args_1(d);
    d->last_name = hold;
    d->depth--;
    return x;
}

static node *operator_name(parser *d) {
    char c1 = next(d), c2 = next(d);
    size_t lo = 0, hi = sizeof ops / sizeof ops[0];
    if (c1 == 'v' && is_digit(c2)) {
        node *x = mk1(d, K_EXT_OPERATOR, source_name(d));
        if (x) x->num = c2 - '0';
        return x;
    }
    if (c1 == 'c' && c2 == 'v') {
        int was = d->is_conversion;
        node *t;
        d->is_conversion = !d->is_expression;
        t = type(d);
        t = mk1(d, d->is_conversion ? K_CONVERSION : K_CAST, t);
        d->is_conversion = was;
        return t;
    }
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int cmp = c1 != ops[mid].code[0] ? c1 - ops[mid].code[0] : c2 - ops[mid].code[1];
        if (!cmp) {
            node *x = mk(d, K_OPERATOR, NULL, NULL);
            if (x) x->o = &ops[mid];
            return x;
        }
        if (cmp < 0) hi = mid; else lo = mid + 1;
    }
    return NULL;
}

static node *exprlist(parser *d, char term) {
    node *list = NULL, **tail = &list;
    if (peek(d) == term) {
        d->p++;
        return mk(d, K_ARGLIST, NULL, NULL);
    }
    for (;;) {
        node *a = expression_1(d);
        if (!a || !(*tail = mk(d, K_ARGLIST, a, NULL))) return NULL;
        tail = &(*tail)->r;
        if (peek(d) == term) { d->p++; break; }
        if (!peek(d)) return NULL;
    }
    return list;
}

static int is_new_cast(const node *o) {
    const char *c;
    if (!o || o->kind != K_OPERATOR) return 0;
    c = o->o->code;
    return (c[1] == 'c' && (c[0] == 's' || c[0] == 'd' || c[0] == 'c' || c[0] == 'r'));
}

static node *expression_1(parser *d) {
    char c = peek(d);
    node *x;
    if (++d->depth > MAX_DEPTH) return NULL;
    if (c == 'L') x = expr_primary(d);
    else if (c == 'T') x = template_param(d);
    else if (c == 's' && peek2(d) == 'r') {
        node *t, *n;
        char c3;
        d->p += 2;
        c3 = peek(d);
        if (d->unresolved && (is_digit(c3) || is_lower(c3) || c3 == 'C' || c3 == 'U' || c3 == 'L')) {
            /* sr <qualifier levels> E <name>; if the whole name then fails,
               it is read again the old way, sr <type> <name> */
            d->unresolved = -1;
            t = prefix_levels(d);
            if (t && peek(d) == 'E') d->p++;
        } else {
            t = type(d);
        }
        n = t ? unqualified_name(d) : NULL;
        x = mk2(d, K_QUAL, t, n);
        if (x && peek(d) == 'I') x = mk2(d, K_TEMPLATE, x, template_args(d));
    } else if (c == 's' && peek2(d) == 'p') {
        d->p += 2;
        x = mk1(d, K_PACK, expression_1(d));
    } else if (c == 'f' && peek2(d) == 'p') {
        long idx;
        d->p += 2;
        if (peek(d) == 'T') { d->p++; idx = 0; }
        else if ((idx = compact_number(d)) < 0) x = NULL;
        else idx++;
        x = idx >= 0 ? mk(d, K_FPARAM, NULL, NULL) : NULL;
        if (x) x->num = idx;
    } else if (is_digit(c) || (c == 'o' && peek2(d) == 'n')) {
        if (c == 'o') d->p += 2;
        x = unqualified_name(d);
        if (x && peek(d) == 'I') x = mk2(d, K_TEMPLATE, x, template_args(d));
    } else if ((c == 'i' || c == 't') && peek2(d) == 'l') {
        node *t = NULL;
        d->p += 2;
        if (c == 't' && !(t = type(d))) x = NULL;
        else x = mk(d, K_INIT_LIST, t, exprlist(d, 'E'));
        if (x && !x->r) x = NULL;
    } else {
        node *o = operator_name(d);
        const char *code = NULL;
        int args;
        x = NULL;
        if (!o) goto out;
        if (o->kind == K_OPERATOR) {
            code = o->o->code;
            if (!strcmp(code, "st")) { x = mk2(d, K_UNARY, o, type(d)); goto out; }
            args = o->o->args;
        } else if (o->kind == K_EXT_OPERATOR) args = (int)o->num;
        else if (o->kind == K_CAST) args = 1;
        else goto out;
        switch (args) {
        case 0: x = mk(d, K_NULLARY, o, NULL); break;
        case 1: {
            node *operand;
            int suffix = 0;
            if (code && (code[0] == 'p' || code[0] == 'm') && code[1] == code[0]) suffix = !check(d, '_');
            if (o->kind == K_CAST && check(d, '_')) operand = exprlist(d, 'E');
            else if (code && !strcmp(code, "sP")) operand = template_args_1(d);
            else operand = expression_1(d);
            if (suffix) operand = mk2(d, K_BINARY_ARGS, operand, operand);
            x = mk2(d, K_UNARY, o, operand);
            break;
        }
        case 2: {
            node *l, *r;
            if (!code) break;
            if (is_new_cast(o)) l = type(d);
            else if (code[0] == 'f') l = operator_name(d);
            else if (!strcmp(code, "di")) l = unqualified_name(d);
            else l = expression_1(d);
            if (!strcmp(code, "cl")) r = exprlist(d, 'E');
            else if (!strcmp(code, "dt") || !strcmp(code, "pt")) {
                if ((peek(d) == 'g' && peek2(d) == 's') || (peek(d) == 's' && peek2(d) == 'r')) r = expression_1(d);
                else {
                    r = unqualified_name(d);
                    if (r && peek(d) == 'I') r = mk2(d, K_TEMPLATE, r, template_args(d));
                }
            } else r = expression_1(d);
            x = mk2(d, K_BINARY, o, mk2(d, K_BINARY_ARGS, l, r));
            break;
        }
        case 3: {
            node *a1, *a2, *a3;
            if (!code) break;
            if (!strcmp(code, "qu") || !strcmp(code, "dX")) {
                a1 = expression_1(d);
                a2 = a1 ? expression_1(d) : NULL;
                a3 = a2 ? expression_1(d) : NULL;
            } else if (code[0] == 'f') {
                a1 = operator_name(d);
                a2 = a1 ? expression_1(d) : NULL;
                a3 = a2 ? expression_1(d) : NULL;
            } else if (code[0] == 'n') { /* new: [gs] nw <expression>* _ <type> [<initializer>] E */
                if (code[1] != 'w' && code[1] != 'a') break;
                a1 = exprlist(d, '_');
                a2 = a1 ? type(d) : NULL;
                if (!a2) break;
                if (peek(d) == 'E') { d->p++; a3 = NULL; }
                else if (peek(d) == 'p' && peek2(d) == 'i') { d->p += 2; a3 = exprlist(d, 'E'); if (!a3) break; }
                else if (peek(d) == 'i' && peek2(d) == 'l') { a3 = expression_1(d); if (!a3) break; }
                else break;
                x = mk(d, K_TRINARY, o, mk(d, K_TRINARY_ARG1, a1, mk(d, K_TRINARY_ARG2, a2, a3)));
                if (x && (!x->r || !x->r->r)) x = NULL;
                break;
            } else break;
            if (a3) x = mk2(d, K_TRINARY, o, mk2(d, K_TRINARY_ARG1, a1, mk2(d, K_TRINARY_ARG2, a2, a3)));
            break;
        }
        default: break;
        }
    }
out:
    d->depth--;
    return x;
}

static node *expression(parser *d) {
    int was = d->is_expression;
    node *x;
    d->is_expression = 1;
    x = expression_1(d);
    d->is_expression = was;
    return x;
}

/* h <number> _ | v <number> _ <number> _ */
static int call_offset(parser *d, char c) {
    int neg;
    if (!c) c = next(d);
    if (c == 'h') { if (number(d, &neg) < 0) return 0; }
    else if (c == 'v') {
        if (number(d, &neg) < 0 || !check(d, '_') || number(d, &neg) < 0) return 0;
    } else return 0;
    return check(d, '_');
}

static node *special(parser *d, const char *text, node *what) {
    node *x = mk1(d, K_SPECIAL, what);
    if (x) { x->s = text; x->n = strlen(text); }
    return x;
}

static node *special_name(parser *d) {
    char c = next(d), c2 = next(d);
    if (c == 'T') {
        switch (c2) {
        case 'V': return special(d, "vtable for ", type(d));
        case 'T': return special(d, "VTT for ", type(d));
        case 'I': return special(d, "typeinfo for ", type(d));
        case 'S': return special(d, "typeinfo name for ", type(d));
        case 'F': return special(d, "typeinfo fn for ", type(d));
        case 'J': return special(d, "java Class for ", type(d));
        case 'H': return special(d, "TLS init function for ", name(d));
        case 'W': return special(d, "TLS wrapper function for ", name(d));
        case 'A': return special(d, "template parameter object for ", template_arg(d));
        case 'h': return call_offset(d, 'h') ? special(d, "non-virtual thunk to ", encoding(d, 0)) : NULL;
        case 'v': return call_offset(d, 'v') ? special(d, "virtual thunk to ", encoding(d, 0)) : NULL;
        case 'c':
            if (!call_offset(d, 0) || !call_offset(d, 0)) return NULL;
            return special(d, "covariant return thunk to ", encoding(d, 0));
        case 'C': {
            node *derived = type(d), *base;
            if (!derived || number(d, NULL) < 0 || !check(d, '_')) return NULL;
            base = type(d);
            return mk2(d, K_CTOR_VTABLE, base, derived);
        }
        default: return NULL;
        }
    }
    if (c == 'G') {
        switch (c2) {
        case 'V': return special(d, "guard variable for ", name(d));
        case 'R': {
            node *n = name(d), *num;
            const char *s = d->p;
            long v = -1;
            if (!n) return NULL;
            /* [<seq-id>] _ */
            while (is_digit(peek(d)) || is_upper(peek(d))) d->p++;
            if (!check(d, '_')) {
                d->p = s;
                if ((v = number(d, NULL)) < 0) return NULL;
                num = mk_name(d, s, (size_t)(d->p - s));
            } else {
                num = mk_name(d, s, (size_t)(d->p - 1 - s));
            }
            (void)v;
            return mk2(d, K_REFTEMP, n, num);
        }
        case 'A': return special(d, "hidden alias for ", encoding(d, 0));
        case 'T': {
            char c3 = next(d);
            return special(d, c3 == 'n' ? "non-transaction clone for " : "transaction clone for ", encoding(d, 0));
        }
        default: return NULL;
        }
    }
    return NULL;
}

static node *encoding(parser *d, int top) {
    node *x;
    char c = peek(d);
    if (++d->depth > MAX_DEPTH) return NULL;
    if (c == 'G' || c == 'T') {
        x = special_name(d);
    } else {
        x = name(d);
        if (!x) {
        } else if (top && !(d->flags & PD_DEMANGLE_PARAMS)) {
            /* no parameters: nor the qualifiers that go with them */
            while (x && fnqual(x->kind)) x = x->l;
            if (x && x->kind == K_LOCAL) {
                node *r = x->r;
                while (r && fnqual(r->kind)) r = r->l;
                x->r = r;
            }
        } else {
            c = peek(d);
            if (c && c != 'E') {
                node *ft = bare_function_type(d, has_return_type(x));
                if (!ft) x = NULL;
                else {
                    if (!top && x->kind == K_LOCAL && ft->kind == K_FUNCTION) ft->l = NULL;
                    x = mk(d, K_TYPED, x, ft);
                }
            }
        }
    }
    d->depth--;
    return x;
}

/* .isra.0, .constprop.1.lto_priv.0 ... */
static node *clone_suffix(parser *d, node *enc) {
    const char *s = d->p, *e = d->p;
    node *x;
    if (*e == '.' && e + 1 < d->end && (is_lower(e[1]) || is_digit(e[1]) || e[1] == '_')) {
        e += 2;
        while (e < d->end && (is_lower(*e) || is_digit(*e) || *e == '_')) e++;
    }
    while (e + 1 < d->end && *e == '.' && is_digit(e[1])) {
        e += 2;
        while (e < d->end && is_digit(*e)) e++;
    }
    d->p = e;
    x = mk(d, K_CLONE, enc, NULL);
    if (x) { x->s = s; x->n = (size_t)(e - s); }
    return x;
}

/* ------------------------------------------------------------- printing */

typedef struct mod {
    const node *m;
    struct mod *next;
    int printed;
    struct tmpl *templates;
} mod;

typedef struct tmpl {
    const node *decl;
    struct tmpl *next;
} tmpl;

/* the nodes being printed, innermost first */
typedef struct frame {
    const node *n;
    const struct frame *parent;
} frame;

/* the templates in scope where a reference to a template parameter was
   first printed: printed again (a substitution), it is printed there */
typedef struct saved_scope {
    const node *n;
    tmpl *templates;
} saved_scope;

#define MAX_SCOPES 64
#define MAX_SCOPE_TMPLS 512

typedef struct printer {
    const frame *stack;
    saved_scope scopes[MAX_SCOPES];
    int nscopes;
    tmpl copies[MAX_SCOPE_TMPLS];
    int ncopies;
    char *out;
    size_t cap, len;
    unsigned flags;
    int failed;
    long steps;
    mod *mods;
    tmpl *templates;
    int pack_index;
    int lambda_arg;
    int depth;
    char last;          /* the last character appended: not taken back with a
                           dropped ", " (libiberty keeps it too: "A<B<C>>" then) */
} printer;

static void put(printer *p, const char *s, size_t n) {
    if (p->failed) return;
    if (n >= p->cap - p->len) { p->failed = 1; return; }
    memcpy(p->out + p->len, s, n);
    p->len += n;
    if (n) p->last = s[n - 1];
}
static void puts_(printer *p, const char *s) { put(p, s, strlen(s)); }
static void putc_(printer *p, char c) { put(p, &c, 1); }
static char last(const printer *p) { return p->last; }
static void putnum(printer *p, long v) {
    char b[24];
    int i = (int)sizeof b;
    unsigned long u = v < 0 ? 0ul - (unsigned long)v : (unsigned long)v;
    do b[--i] = (char)('0' + u % 10); while ((u /= 10) != 0);
    if (v < 0) b[--i] = '-';
    put(p, b + i, sizeof b - (size_t)i);
}

static void pr(printer *p, const node *x);

static const node *targ_index(const node *args, long i) {
    if (i < 0) return NULL;
    for (; args && args->kind == K_TARGLIST; args = args->r) {
        if (i-- == 0) return args->l;
    }
    return NULL;
}

static const node *lookup_targ(printer *p, const node *x) {
    if (!p->templates) return NULL;
    return targ_index(p->templates->decl->r, x->num);
}

/* the argument pack a pack expansion's pattern refers to, or NULL */
static const node *find_pack(printer *p, const node *x, int depth) {
    const node *a;
    if (!x || depth > MAX_DEPTH) return NULL;
    switch (x->kind) {
    case K_TPARAM:
        a = lookup_targ(p, x);
        return a && a->kind == K_TARGLIST ? a : NULL;
    case K_PACK: return NULL;
    case K_LAMBDA: case K_NAME: case K_TAGGED: case K_OPERATOR: case K_BUILTIN: case K_SUB_STD: case K_FPARAM:
    case K_UNNAMED: case K_DEFAULT_ARG: case K_LITERAL: case K_LITERAL_NEG:
        return NULL;
    case K_EXT_OPERATOR: case K_CTOR: case K_DTOR: return find_pack(p, x->l, depth + 1);
    default:
        a = find_pack(p, x->l, depth + 1);
        return a ? a : find_pack(p, x->r, depth + 1);
    }
}
static int pack_length(const node *a) {
    int n = 0;
    for (; a && a->kind == K_TARGLIST && a->l; a = a->r) n++;
    return n;
}

static void pr_mod(printer *p, const node *m) {
    switch (m->kind) {
    case K_RESTRICT: case K_RESTRICT_THIS: puts_(p, " restrict"); return;
    case K_VOLATILE: case K_VOLATILE_THIS: puts_(p, " volatile"); return;
    case K_CONST: case K_CONST_THIS: puts_(p, " const"); return;
    case K_TX_SAFE: puts_(p, " transaction_safe"); return;
    case K_NOEXCEPT:
        puts_(p, " noexcept");
        if (m->r) { putc_(p, '('); pr(p, m->r); putc_(p, ')'); }
        return;
    case K_THROW:
        puts_(p, " throw");
        if (m->r) { putc_(p, '('); pr(p, m->r); putc_(p, ')'); }
        return;
    case K_VENDOR_QUAL: putc_(p, ' '); pr(p, m->r); return;
    case K_POINTER: putc_(p, '*'); return;
    case K_REF_THIS: putc_(p, ' '); /* fall through */
    case K_REFERENCE: putc_(p, '&'); return;
    case K_RVREF_THIS: putc_(p, ' '); /* fall through */
    case K_RVREF: puts_(p, "&&"); return;
    case K_COMPLEX: puts_(p, " _Complex"); return;
    case K_IMAGINARY: puts_(p, " _Imaginary"); return;
    case K_PTRMEM:
        if (last(p) != '(') putc_(p, ' ');
        pr(p, m->l);
        puts_(p, "::*");
        return;
    case K_TYPED: pr(p, m->l); return;
    default: pr(p, m); return;
    }
}

static void pr_function_type(printer *p, const node *fn, mod *mods);
static void pr_array_type(printer *p, const node *arr, mod *mods);

static void pr_mod_list(printer *p, mod *mods, int suffix) {
    tmpl *hold;
    if (!mods || p->failed) return;
    if (mods->printed || (!suffix && fnqual(mods->m->kind))) {
        pr_mod_list(p, mods->next, suffix);
        return;
    }
    mods->printed = 1;
    hold = p->templates;
    p->templates = mods->templates;
    if (mods->m->kind == K_FUNCTION) {
        pr_function_type(p, mods->m, mods->next);
        p->templates = hold;
        return;
    }
    if (mods->m->kind == K_ARRAY) {
        pr_array_type(p, mods->m, mods->next);
        p->templates = hold;
        return;
    }
    if (mods->m->kind == K_LOCAL) {
        mod *hm = p->mods;
        const node *r = mods->m->r;
        p->mods = NULL;
        pr(p, mods->m->l);
        p->mods = hm;
        puts_(p, "::");
        if (r->kind == K_DEFAULT_ARG) {
            puts_(p, "{default arg#");
            putnum(p, r->num + 1);
            puts_(p, "}::");
            r = r->l;
        }
        while (fnqual(r->kind)) r = r->l;
        pr(p, r);
        p->templates = hold;
        return;
    }
    pr_mod(p, mods->m);
    p->templates = hold;
    pr_mod_list(p, mods->next, suffix);
}

static void pr_function_type(printer *p, const node *fn, mod *mods) {
    int paren = 0, space = 0;
    mod *m, *hold;
    for (m = mods; m; m = m->next) {
        if (m->printed) break;
        switch (m->m->kind) {
        case K_POINTER: case K_REFERENCE: case K_RVREF: paren = 1; break;
        case K_RESTRICT: case K_VOLATILE: case K_CONST: case K_VENDOR_QUAL: case K_COMPLEX: case K_IMAGINARY:
        case K_PTRMEM:
            space = 1;
            paren = 1;
            break;
        default: break;
        }
        if (paren) break;
    }
    if (paren) {
        if (!space && last(p) != '(' && last(p) != '*') space = 1;
        if (space && last(p) != ' ') putc_(p, ' ');
        putc_(p, '(');
    }
    hold = p->mods;
    p->mods = NULL;
    pr_mod_list(p, mods, 0);
    if (paren) putc_(p, ')');
    putc_(p, '(');
    if (fn->r) pr(p, fn->r);
    putc_(p, ')');
    pr_mod_list(p, mods, 1);
    p->mods = hold;
}

static void pr_array_type(printer *p, const node *arr, mod *mods) {
    int space = 1;
    if (mods) {
        int paren = 0;
        mod *m;
        for (m = mods; m; m = m->next) {
            if (!m->printed) {
                if (m->m->kind == K_ARRAY) space = 0;
                else { paren = 1; space = 1; }
                break;
            }
        }
        if (paren) puts_(p, " (");
        pr_mod_list(p, mods, 0);
        if (paren) putc_(p, ')');
    }
    if (space) putc_(p, ' ');
    putc_(p, '[');
    if (arr->l) pr(p, arr->l);
    putc_(p, ']');
}

/* x printed with x itself pushed as a modifier of what it modifies */
static void pr_modifier(printer *p, const node *x, const node *inner) {
    mod m;
    m.m = x;
    m.next = p->mods;
    m.printed = 0;
    m.templates = p->templates;
    p->mods = &m;
    if (!inner) { p->failed = 1; p->mods = m.next; return; }
    pr(p, inner);
    if (!m.printed) pr_mod(p, x);
    p->mods = m.next;
}

static void pr_subexpr(printer *p, const node *x) {
    int simple = x->kind == K_NAME || x->kind == K_QUAL || x->kind == K_INIT_LIST || x->kind == K_FPARAM;
    if (!simple) putc_(p, '(');
    pr(p, x);
    if (!simple) putc_(p, ')');
}

static void pr_expr_op(printer *p, const node *o) {
    if (o->kind == K_OPERATOR && o->o) puts_(p, o->o->name);
    else pr(p, o);
}

static void pr_literal(printer *p, const node *x) {
    int tp = P_DEFAULT;
    if (x->l->kind == K_BUILTIN) {
        tp = x->l->b->print;
        if (tp == P_INT || tp == P_UNSIGNED || tp == P_LONG || tp == P_ULONG || tp == P_LLONG || tp == P_ULLONG) {
            if (x->r->kind == K_NAME) {
                if (x->kind == K_LITERAL_NEG) putc_(p, '-');
                pr(p, x->r);
                switch (tp) {
                case P_UNSIGNED: putc_(p, 'u'); break;
                case P_LONG: putc_(p, 'l'); break;
                case P_ULONG: puts_(p, "ul"); break;
                case P_LLONG: puts_(p, "ll"); break;
                case P_ULLONG: puts_(p, "ull"); break;
                default: break;
                }
                return;
            }
        } else if (tp == P_BOOL && x->r->kind == K_NAME && x->r->n == 1 && x->kind == K_LITERAL) {
            if (x->r->s[0] == '0') { puts_(p, "false"); return; }
            if (x->r->s[0] == '1') { puts_(p, "true"); return; }
        }
    }
    putc_(p, '(');
    pr(p, x->l);
    putc_(p, ')');
    if (x->kind == K_LITERAL_NEG) putc_(p, '-');
    if (tp == P_FLOAT) putc_(p, '[');
    pr(p, x->r);
    if (tp == P_FLOAT) putc_(p, ']');
}

static void pr_typed(printer *p, const node *x) {
    mod adpm[4];
    mod *hold = p->mods;
    const node *tn = x->l;
    tmpl t;
    int i = 0, is_tmpl;
    p->mods = NULL;
    while (tn) {
        if (i >= 4) { p->failed = 1; return; }
        adpm[i].next = p->mods;
        /* cppcheck-suppress autoVariables ; taken back before the function returns */
        p->mods = &adpm[i];
        adpm[i].m = tn;
        adpm[i].printed = 0;
        adpm[i].templates = p->templates;
        i++;
        if (!fnqual(tn->kind)) break;
        tn = tn->l;
    }
    if (!tn) { p->failed = 1; return; }
    if (tn->kind == K_LOCAL) {
        tn = tn->r;
        if (tn->kind == K_DEFAULT_ARG) tn = tn->l;
        while (tn && fnqual(tn->kind)) {
            if (i >= 4) { p->failed = 1; return; }
            adpm[i] = adpm[i - 1];
            adpm[i - 1].next = &adpm[i];
            adpm[i - 1].m = tn;
            adpm[i - 1].printed = 0;
            adpm[i - 1].templates = p->templates;
            i++;
            tn = tn->l;
        }
        if (!tn) { p->failed = 1; return; }
    }
    is_tmpl = tn->kind == K_TEMPLATE;
    if (is_tmpl) {
        t.next = p->templates;
        t.decl = tn;
        /* cppcheck-suppress autoVariables ; taken back before the function returns */
        p->templates = &t;
    }
    pr(p, x->r);
    if (is_tmpl) p->templates = t.next;
    while (i > 0) {
        i--;
        if (!adpm[i].printed) {
            putc_(p, ' ');
            pr_mod(p, adpm[i].m);
        }
    }
    p->mods = hold;
}

static saved_scope *scope_of(printer *p, const node *n) {
    int i;
    for (i = 0; i < p->nscopes; i++)
        if (p->scopes[i].n == n) return &p->scopes[i];
    return NULL;
}

static void save_scope(printer *p, const node *n) {
    tmpl *t, **tail;
    saved_scope *sc;
    if (p->nscopes == MAX_SCOPES) { p->failed = 1; return; }
    sc = &p->scopes[p->nscopes++];
    sc->n = n;
    sc->templates = NULL;
    tail = &sc->templates;
    for (t = p->templates; t; t = t->next) {
        if (p->ncopies == MAX_SCOPE_TMPLS) { p->failed = 1; return; }
        *tail = &p->copies[p->ncopies++];
        (*tail)->decl = t->decl;
        (*tail)->next = NULL;
        tail = &(*tail)->next;
    }
}

static void pr_inner(printer *p, const node *x);

static void pr(printer *p, const node *x) {
    frame self;
    if (p->failed) return;
    if (!x || ++p->depth > 2 * MAX_DEPTH || ++p->steps > 100000) { p->failed = 1; return; }
    self.n = x;
    self.parent = p->stack;
    p->stack = &self;
    pr_inner(p, x);
    p->stack = self.parent;
    p->depth--;
}

static void pr_inner(printer *p, const node *x) {
    switch (x->kind) {
    case K_NAME: case K_SUB_STD: put(p, x->s, x->n); break;
    case K_TAGGED:
        pr(p, x->l);
        puts_(p, "[abi:");
        pr(p, x->r);
        putc_(p, ']');
        break;
    case K_QUAL: case K_LOCAL: {
        const node *r = x->r;
        pr(p, x->l);
        puts_(p, "::");
        if (r->kind == K_DEFAULT_ARG) {
            puts_(p, "{default arg#");
            putnum(p, r->num + 1);
            puts_(p, "}::");
            r = r->l;
        }
        pr(p, r);
        break;
    }
    case K_TYPED: pr_typed(p, x); break;
    case K_TEMPLATE: {
        mod *hold = p->mods;
        p->mods = NULL;
        pr(p, x->l);
        if (last(p) == '<') putc_(p, ' ');
        putc_(p, '<');
        pr(p, x->r);
        if (last(p) == '>') putc_(p, ' ');
        putc_(p, '>');
        p->mods = hold;
        break;
    }
    case K_TPARAM: {
        const node *a;
        tmpl *hold;
        if (p->lambda_arg) {
            puts_(p, "auto:");
            putnum(p, x->num + 1);
            break;
        }
        a = lookup_targ(p, x);
        if (a && a->kind == K_TARGLIST) a = targ_index(a, p->pack_index);
        if (!a) { p->failed = 1; break; }
        hold = p->templates;
        p->templates = hold->next;
        pr(p, a);
        p->templates = hold;
        break;
    }
    case K_FPARAM:
        if (x->num == 0) puts_(p, "this");
        else { puts_(p, "{parm#"); putnum(p, x->num); putc_(p, '}'); }
        break;
    case K_CTOR: pr(p, x->l); break;
    case K_DTOR: putc_(p, '~'); pr(p, x->l); break;
    case K_SPECIAL: put(p, x->s, x->n); pr(p, x->l); break;
    case K_CTOR_VTABLE:
        puts_(p, "construction vtable for ");
        pr(p, x->l);
        puts_(p, "-in-");
        pr(p, x->r);
        break;
    case K_REFTEMP:
        puts_(p, "reference temporary #");
        pr(p, x->r);
        puts_(p, " for ");
        pr(p, x->l);
        break;
    case K_CLONE:
        pr(p, x->l);
        puts_(p, " [clone ");
        put(p, x->s, x->n);
        putc_(p, ']');
        break;
    case K_RESTRICT: case K_VOLATILE: case K_CONST: {
        mod *m;
        /* a qualifier already pending (an array's, or a template argument's
       under the same one) is printed once */
        for (m = p->mods; m; m = m->next) {
            if (m->printed) continue;
            if (m->m->kind != K_RESTRICT && m->m->kind != K_VOLATILE && m->m->kind != K_CONST) break;
            if (m->m->kind == x->kind) { pr(p, x->l); return; }
        }
        pr_modifier(p, x, x->l);
        break;
    }
    case K_RESTRICT_THIS: case K_VOLATILE_THIS: case K_CONST_THIS: case K_REF_THIS: case K_RVREF_THIS:
    case K_TX_SAFE: case K_NOEXCEPT: case K_THROW: case K_POINTER: case K_COMPLEX: case K_IMAGINARY:
    case K_VENDOR_QUAL:
        pr_modifier(p, x, x->l);
        break;
    case K_REFERENCE: case K_RVREF: {
        /* a reference to a template parameter: references collapse (& and
           && make &), and a second print (a substitution) is in the scope
           of the first */
        const node *sub = x->l, *dc = x, *inner = NULL;
        tmpl *hold = NULL;
        int restore = 0;
        mod m;
        if (sub && sub->kind == K_TPARAM && !p->lambda_arg) {
            saved_scope *sc = scope_of(p, sub);
            const node *a;
            if (!sc) save_scope(p, sub);
            else {
                const frame *f;
                int found = 0;
                for (f = p->stack; f; f = f->parent)
                    if (f->n == sub || (f->n == x && f != p->stack)) { found = 1; break; }
                if (!found) {
                    hold = p->templates;
                    p->templates = sc->templates;
                    restore = 1;
                }
            }
            a = lookup_targ(p, sub);
            if (a && a->kind == K_TARGLIST) a = targ_index(a, p->pack_index);
            if (!a) {
                if (restore) p->templates = hold;
                p->failed = 1;
                break;
            }
            if (a->kind == K_REFERENCE || a->kind == x->kind) dc = a;
            else if (a->kind == K_RVREF) inner = a->l;
        }
        m.m = dc; m.next = p->mods; m.printed = 0; m.templates = p->templates;
        p->mods = &m;
        pr(p, inner ? inner : dc->l);
        if (!m.printed) pr_mod(p, dc);
        p->mods = m.next;
        if (restore) p->templates = hold;
        break;
    }
    case K_PTRMEM: {
        mod m;
        m.m = x; m.next = p->mods; m.printed = 0; m.templates = p->templates;
        p->mods = &m;
        pr(p, x->r);
        if (!m.printed) pr_mod(p, x);
        p->mods = m.next;
        break;
    }
    case K_BUILTIN: puts_(p, x->b->name); break;
    case K_VENDOR_TYPE: pr(p, x->l); break;
    case K_FUNCTION:
        if (x->l) {
            mod m;
            m.m = x; m.next = p->mods; m.printed = 0; m.templates = p->templates;
            p->mods = &m;
            pr(p, x->l);
            p->mods = m.next;
            if (m.printed) break;
            putc_(p, ' ');
        }
        pr_function_type(p, x, p->mods);
        break;
    case K_ARRAY: {
        mod adpm[4], *hold = p->mods, *m;
        int i = 1;
        adpm[0].m = x; adpm[0].printed = 0; adpm[0].templates = p->templates; adpm[0].next = p->mods;
        p->mods = &adpm[0];
        for (m = hold; m && (m->m->kind == K_RESTRICT || m->m->kind == K_VOLATILE || m->m->kind == K_CONST); m = m->next) {
            if (m->printed) continue;
            if (i >= 4) { p->failed = 1; return; }
            adpm[i] = *m;
            adpm[i].next = p->mods;
            p->mods = &adpm[i];
            m->printed = 1;
            i++;
        }
        pr(p, x->r);
        p->mods = hold;
        if (adpm[0].printed) break;
        while (i > 1) { i--; pr_mod(p, adpm[i].m); }
        pr_array_type(p, x, p->mods);
        break;
    }
    case K_ARGLIST: case K_TARGLIST:
        if (x->l) pr(p, x->l);
        if (x->r) {
            size_t before;
            puts_(p, ", ");
            before = p->len;
            pr(p, x->r);
            if (!p->failed && p->len == before) p->len -= 2; /* an empty pack printed nothing */
        }
        break;
    case K_OPERATOR: {
        const char *n = x->o->name;
        size_t len = strlen(n);
        puts_(p, "operator");
        if (is_lower(n[0])) putc_(p, ' ');
        if (len && n[len - 1] == ' ') len--;
        put(p, n, len);
        break;
    }
    case K_EXT_OPERATOR: puts_(p, "operator "); pr(p, x->l); break;
    case K_CONVERSION: puts_(p, "operator "); pr(p, x->l); break;
    case K_CAST: puts_(p, "operator "); pr(p, x->l); break;
    case K_NULLARY: pr_expr_op(p, x->l); break;
    case K_UNARY: {
        const node *o = x->l, *operand = x->r;
        const char *code = o->kind == K_OPERATOR ? o->o->code : NULL;
        if (code && !strcmp(code, "ad") && operand->kind == K_TYPED && operand->l->kind == K_QUAL &&
            operand->r->kind == K_FUNCTION)
            operand = operand->l;
        if (code && operand->kind == K_BINARY_ARGS) { /* a suffix operator */
            pr_subexpr(p, operand->l);
            pr_expr_op(p, o);
            break;
        }
        if (code && !strcmp(code, "sZ")) {
            const node *a = find_pack(p, operand, 0);
            putnum(p, pack_length(a));
            break;
        }
        if (code && !strcmp(code, "sP")) {
            int n = 0;
            const node *a;
            for (a = operand; a && a->kind == K_TARGLIST; a = a->r) {
                if (a->l && a->l->kind == K_PACK) {
                    const node *pk = find_pack(p, a->l->l, 0);
                    n += pack_length(pk);
                } else if (a->l) n++;
            }
            putnum(p, n);
            break;
        }
        if (o->kind != K_CAST) pr_expr_op(p, o);
        else { putc_(p, '('); pr(p, o->l); putc_(p, ')'); }
        if (code && !strcmp(code, "gs")) pr(p, operand);
        else if (code && !strcmp(code, "st")) { putc_(p, '('); pr(p, operand); putc_(p, ')'); }
        else pr_subexpr(p, operand);
        break;
    }
    case K_BINARY: {
        const node *o = x->l, *args = x->r;
        int gt;
        if (!args || args->kind != K_BINARY_ARGS) { p->failed = 1; break; }
        if (is_new_cast(o)) {
            pr_expr_op(p, o);
            putc_(p, '<');
            pr(p, args->l);
            puts_(p, ">(");
            pr(p, args->r);
            putc_(p, ')');
            break;
        }
        if (o->kind == K_OPERATOR && o->o->code[0] == 'f') { /* fold expressions: not read here */
            p->failed = 1;
            break;
        }
        gt = o->kind == K_OPERATOR && !strcmp(o->o->name, ">");
        if (gt) putc_(p, '(');
        if (o->kind == K_OPERATOR && !strcmp(o->o->code, "cl") && args->l->kind == K_TYPED) {
            if (args->l->r->kind != K_FUNCTION) p->failed = 1;
            pr_subexpr(p, args->l->l);
        } else pr_subexpr(p, args->l);
        if (o->kind == K_OPERATOR && !strcmp(o->o->code, "ix")) {
            putc_(p, '[');
            pr(p, args->r);
            putc_(p, ']');
        } else {
            if (!(o->kind == K_OPERATOR && !strcmp(o->o->code, "cl"))) pr_expr_op(p, o);
            pr_subexpr(p, args->r);
        }
        if (gt) putc_(p, ')');
        break;
    }
    case K_TRINARY: {
        const node *o = x->l, *a = x->r;
        if (!a || a->kind != K_TRINARY_ARG1 || !a->r || a->r->kind != K_TRINARY_ARG2) { p->failed = 1; break; }
        if (o->kind == K_OPERATOR && !strcmp(o->o->code, "qu")) {
            pr_subexpr(p, a->l);
            pr_expr_op(p, o);
            pr_subexpr(p, a->r->l);
            puts_(p, " : ");
            pr_subexpr(p, a->r->r);
        } else if (o->kind == K_OPERATOR && (o->o->code[0] == 'n')) {
            pr_expr_op(p, o);
            if (a->l && a->l->l) { putc_(p, '('); pr(p, a->l); putc_(p, ')'); }
            putc_(p, ' ');
            pr(p, a->r->l);
            if (a->r->r) { putc_(p, '('); pr(p, a->r->r); putc_(p, ')'); }
        } else {
            p->failed = 1;
        }
        break;
    }
    case K_LITERAL: case K_LITERAL_NEG: pr_literal(p, x); break;
    case K_DECLTYPE: puts_(p, "decltype ("); pr(p, x->l); putc_(p, ')'); break;
    case K_LAMBDA:
        puts_(p, "{lambda(");
        p->lambda_arg++;
        if (x->l) pr(p, x->l);
        p->lambda_arg--;
        puts_(p, ")#");
        putnum(p, x->num + 1);
        putc_(p, '}');
        break;
    case K_UNNAMED:
        puts_(p, "{unnamed type#");
        putnum(p, x->num + 1);
        putc_(p, '}');
        break;
    case K_PACK: {
        const node *a = find_pack(p, x->l, 0);
        int len, i, hold = p->pack_index;
        if (!a) {
            pr_subexpr(p, x->l);
            puts_(p, "...");
            break;
        }
        len = pack_length(a);
        for (i = 0; i < len; i++) {
            p->pack_index = i;
            pr(p, x->l);
            if (i < len - 1) puts_(p, ", ");
        }
        p->pack_index = hold;
        break;
    }
    case K_INIT_LIST:
        if (x->l) pr(p, x->l);
        putc_(p, '{');
        pr(p, x->r);
        putc_(p, '}');
        break;
    case K_DEFAULT_ARG:
        puts_(p, "{default arg#");
        putnum(p, x->num + 1);
        puts_(p, "}::");
        pr(p, x->l);
        break;
    case K_GLOBAL_CDTOR:
        put(p, x->s, x->n);
        pr(p, x->l);
        break;
    default:
        p->failed = 1;
        break;
    }
}


/* ----------------------------------------------------------------- Rust */

/* Rust's two manglings, as libiberty reads them (before C++: a legacy
   Rust name is also a C++ name): legacy "_ZN...17h<hash>E" and v0 "_R...".
   Printed directly, no nodes: v0's backreferences are positions to read
   again, bounded by a recursion limit. */

typedef struct rust {
    const char *sym;
    size_t len, next;
    int errored, skipping, verbose, legacy;
    unsigned recursion;
    uint64_t bound_depth;
    printer *out;
} rust;

#define RUST_MAX_RECURSION 500

static void r_put(rust *r, const char *s, size_t n) {
    if (!r->errored && !r->skipping) put(r->out, s, n);
}
static void r_puts(rust *r, const char *s) { r_put(r, s, strlen(s)); }
static char r_peek(const rust *r) { return r->next < r->len ? r->sym[r->next] : 0; }
static char r_next(rust *r) {
    char c = r_peek(r);
    if (!c) r->errored = 1;
    else r->next++;
    return c;
}
static int r_eat(rust *r, char c) {
    if (r_peek(r) != c) return 0;
    r->next++;
    return 1;
}
static void r_putu(rust *r, uint64_t v) {
    char b[24];
    int i = (int)sizeof b;
    do b[--i] = (char)('0' + v % 10); while ((v /= 10) != 0);
    r_put(r, b + i, sizeof b - (size_t)i);
}
static void r_putx(rust *r, uint64_t v) {
    char b[24];
    int i = (int)sizeof b;
    do b[--i] = "0123456789abcdef"[v & 15]; while ((v >>= 4) != 0);
    r_put(r, b + i, sizeof b - (size_t)i);
}
static int hex_nibble(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

typedef struct ident { const char *s; size_t n; int puny; } ident;

static ident r_ident(rust *r) {
    ident id = {NULL, 0, 0};
    size_t len, start;
    char c;
    if (!r->legacy) id.puny = r_eat(r, 'u');
    c = r_next(r);
    if (!is_digit(c)) { r->errored = 1; return id; }
    len = (size_t)(c - '0');
    if (c != '0')
        while (is_digit(r_peek(r))) {
            if (len > 100000000) { r->errored = 1; return id; }
            len = len * 10 + (size_t)(r_next(r) - '0');
        }
    if (!r->legacy) r_eat(r, '_');
    start = r->next;
    if (len > r->len - start) { r->errored = 1; return id; }
    r->next += len;
    id.s = r->sym + start;
    id.n = len;
    if (id.puny) r->errored = 1; /* punycode: not read here */
    return id;
}

/* $LT$ and the like, in a legacy name: the character, or 0 */
static char legacy_escape(const char *e, size_t len, size_t *used) {
    char c = 0;
    size_t n = 0;
    if (len < 3 || e[0] != '$') return 0;
    e++;
    len--;
    if (e[0] == 'C') { n = 1; c = ','; }
    else if (len > 2) {
        n = 2;
        if (e[0] == 'S' && e[1] == 'P') c = '@';
        else if (e[0] == 'B' && e[1] == 'P') c = '*';
        else if (e[0] == 'R' && e[1] == 'F') c = '&';
        else if (e[0] == 'L' && e[1] == 'T') c = '<';
        else if (e[0] == 'G' && e[1] == 'T') c = '>';
        else if (e[0] == 'L' && e[1] == 'P') c = '(';
        else if (e[0] == 'R' && e[1] == 'P') c = ')';
        else if (e[0] == 'u' && len > 3) {
            int hi = hex_nibble(e[1]), lo = hex_nibble(e[2]);
            n = 3;
            if (hi < 0 || lo < 0 || hi > 7) return 0;
            c = (char)(hi << 4 | lo);
            if (c < 0x20) return 0;
        }
    }
    if (!c || len <= n || e[n] != '$') return 0;
    *used = 2 + n;
    return c;
}

static void r_print_ident(rust *r, ident id) {
    if (r->errored || r->skipping) return;
    if (!r->legacy) { r_put(r, id.s, id.n); return; }
    if (id.n >= 2 && id.s[0] == '_' && id.s[1] == '$') { id.s++; id.n--; }
    while (id.n > 0) {
        size_t len;
        if (id.s[0] == '$') {
            char c = legacy_escape(id.s, id.n, &len);
            if (!c) { r_put(r, id.s, id.n); return; }
            r_put(r, &c, 1);
        } else if (id.s[0] == '.') {
            if (id.n >= 2 && id.s[1] == '.') { r_put(r, "::", 2); len = 2; }
            else { r_put(r, ".", 1); len = 1; }
        } else {
            for (len = 0; len < id.n; len++)
                if (id.s[len] == '$' || id.s[len] == '.') break;
            r_put(r, id.s, len);
        }
        id.s += len;
        id.n -= len;
    }
}

static uint64_t r_int62(rust *r) {
    uint64_t x = 0;
    if (r_eat(r, '_')) return 0;
    while (!r_eat(r, '_') && !r->errored) {
        char c = r_next(r);
        uint64_t d;
        if (is_digit(c)) d = (uint64_t)(c - '0');
        else if (is_lower(c)) d = (uint64_t)(10 + c - 'a');
        else if (is_upper(c)) d = (uint64_t)(36 + c - 'A');
        else { r->errored = 1; return 0; }
        if (x > (UINT64_MAX - d) / 62) { r->errored = 1; return 0; }
        x = x * 62 + d;
    }
    return x + 1;
}
static uint64_t r_opt_int62(rust *r, char tag) { return r_eat(r, tag) ? 1 + r_int62(r) : 0; }

static const char *r_basic(char tag) {
    switch (tag) {
    case 'b': return "bool"; case 'c': return "char"; case 'e': return "str"; case 'u': return "()";
    case 'a': return "i8"; case 's': return "i16"; case 'l': return "i32"; case 'x': return "i64";
    case 'n': return "i128"; case 'i': return "isize"; case 'h': return "u8"; case 't': return "u16";
    case 'm': return "u32"; case 'y': return "u64"; case 'o': return "u128"; case 'j': return "usize";
    case 'f': return "f32"; case 'd': return "f64"; case 'z': return "!"; case 'p': return "_";
    case 'v': return "...";
    default: return NULL;
    }
}

static void r_path(rust *r, int in_value);
static void r_type(rust *r);
static void r_const(rust *r);

static int r_enter(rust *r) {
    if (r->errored) return 0;
    if (++r->recursion > RUST_MAX_RECURSION) { r->errored = 1; return 0; }
    return 1;
}

/* jumps to a backreference: a position before this one, read again */
static int r_backref(rust *r, size_t *old) {
    uint64_t at = r_int62(r);
    if (r->errored) return 0;
    if (at >= r->next) { r->errored = 1; return 0; }
    *old = r->next;
    r->next = (size_t)at;
    return 1;
}

static void r_lifetime(rust *r, uint64_t lt) {
    uint64_t depth;
    r_put(r, "'", 1);
    if (lt == 0) { r_put(r, "_", 1); return; }
    if (lt > r->bound_depth) { r->errored = 1; return; }
    depth = r->bound_depth - lt;
    if (depth < 26) {
        char c = (char)('a' + depth);
        r_put(r, &c, 1);
    } else {
        r_put(r, "_", 1);
        r_putu(r, depth);
    }
}

static void r_generic_arg(rust *r) {
    if (r_eat(r, 'L')) r_lifetime(r, r_int62(r));
    else if (r_eat(r, 'K')) r_const(r);
    else r_type(r);
}

static void r_binder(rust *r) {
    uint64_t i, n;
    if (r->errored) return;
    n = r_opt_int62(r, 'G');
    if (n > 1000) { r->errored = 1; return; }
    if (n > 0) {
        r_puts(r, "for<");
        for (i = 0; i < n; i++) {
            if (i > 0) r_puts(r, ", ");
            r->bound_depth++;
            r_lifetime(r, 1);
        }
        r_puts(r, "> ");
    }
}

static int r_path_open(rust *r) {
    int open = 0;
    size_t old, i;
    if (!r_enter(r)) return 0;
    if (r_eat(r, 'B')) {
        if (r_backref(r, &old)) {
            if (!r->skipping) open = r_path_open(r);
            r->next = old;
        }
    } else if (r_eat(r, 'I')) {
        r_path(r, 0);
        r_put(r, "<", 1);
        open = 1;
        for (i = 0; !r->errored && !r_eat(r, 'E'); i++) {
            if (i > 0) r_puts(r, ", ");
            r_generic_arg(r);
        }
    } else r_path(r, 0);
    r->recursion--;
    return open;
}

static void r_dyn_trait(rust *r) {
    int open = r_path_open(r);
    while (!r->errored && r_eat(r, 'p')) {
        r_puts(r, open ? ", " : "<");
        open = 1;
        r_print_ident(r, r_ident(r));
        r_puts(r, " = ");
        r_type(r);
    }
    if (open) r_put(r, ">", 1);
}

static uint64_t r_hex(rust *r, size_t *len) {
    uint64_t v = 0;
    *len = 0;
    while (!r_eat(r, '_')) {
        int nb = hex_nibble(r_next(r));
        if (nb < 0) { r->errored = 1; return 0; }
        v = v << 4 | (uint64_t)nb;
        (*len)++;
    }
    return v;
}

static void r_const_uint(rust *r) {
    size_t n;
    uint64_t v = r_hex(r, &n);
    if (r->errored) return;
    if (n > 16) { r_put(r, "0x", 2); r_put(r, r->sym + r->next - 1 - n, n); }
    else if (n > 0) r_putu(r, v);
    else r->errored = 1;
}

static void r_const(rust *r) {
    char tag;
    size_t old;
    if (!r_enter(r)) return;
    if (r_eat(r, 'B')) {
        if (r_backref(r, &old)) {
            if (!r->skipping) r_const(r);
            r->next = old;
        }
        r->recursion--;
        return;
    }
    tag = r_next(r);
    switch (tag) {
    case 'p': r_put(r, "_", 1); r->recursion--; return;
    case 'h': case 't': case 'm': case 'y': case 'o': case 'j': r_const_uint(r); break;
    case 'a': case 's': case 'l': case 'x': case 'n': case 'i':
        if (r_eat(r, 'n')) r_put(r, "-", 1);
        r_const_uint(r);
        break;
    case 'b': {
        size_t n;
        uint64_t v = r_hex(r, &n);
        if (n != 1 || v > 1) r->errored = 1;
        else r_puts(r, v ? "true" : "false");
        break;
    }
    case 'c': {
        size_t n;
        uint64_t v = r_hex(r, &n);
        if (n == 0 || n > 8) { r->errored = 1; break; }
        r_put(r, "'", 1);
        if (v == '\t') r_puts(r, "\\t");
        else if (v == '\r') r_puts(r, "\\r");
        else if (v == '\n') r_puts(r, "\\n");
        else if (v > ' ' && v < '~') { char c = (char)v; r_put(r, &c, 1); }
        else { r_puts(r, "\\u{"); r_putx(r, v); r_put(r, "}", 1); }
        r_put(r, "'", 1);
        break;
    }
    default: r->errored = 1; break;
    }
    if (!r->errored && r->verbose) {
        r_puts(r, ": ");
        r_puts(r, r_basic(tag));
    }
    r->recursion--;
}

static void r_type(rust *r) {
    char tag;
    const char *basic;
    size_t i, old;
    uint64_t hold;
    if (!r_enter(r)) return;
    tag = r_next(r);
    if ((basic = r_basic(tag)) != NULL) {
        r_puts(r, basic);
        r->recursion--;
        return;
    }
    switch (tag) {
    case 'R': case 'Q':
        r_put(r, "&", 1);
        if (r_eat(r, 'L')) {
            uint64_t lt = r_int62(r);
            if (lt) { r_lifetime(r, lt); r_put(r, " ", 1); }
        }
        if (tag != 'R') r_puts(r, "mut ");
        r_type(r);
        break;
    case 'P': case 'O':
        r_put(r, "*", 1);
        r_puts(r, tag != 'P' ? "mut " : "const ");
        r_type(r);
        break;
    case 'A': case 'S':
        r_put(r, "[", 1);
        r_type(r);
        if (tag == 'A') { r_puts(r, "; "); r_const(r); }
        r_put(r, "]", 1);
        break;
    case 'T':
        r_put(r, "(", 1);
        for (i = 0; !r->errored && !r_eat(r, 'E'); i++) {
            if (i > 0) r_puts(r, ", ");
            r_type(r);
        }
        if (i == 1) r_put(r, ",", 1);
        r_put(r, ")", 1);
        break;
    case 'F':
        hold = r->bound_depth;
        r_binder(r);
        if (r_eat(r, 'U')) r_puts(r, "unsafe ");
        if (r_eat(r, 'K')) {
            ident abi;
            if (r_eat(r, 'C')) { abi.s = "C"; abi.n = 1; abi.puny = 0; }
            else {
                abi = r_ident(r);
                if (!abi.s || abi.puny) { r->errored = 1; r->bound_depth = hold; break; }
            }
            r_puts(r, "extern \"");
            for (i = 0; i < abi.n; i++) {
                if (abi.s[i] == '_') {
                    r_put(r, abi.s, i);
                    r_put(r, "-", 1);
                    abi.s += i + 1;
                    abi.n -= i + 1;
                    i = 0;
                }
            }
            r_put(r, abi.s, abi.n);
            r_puts(r, "\" ");
        }
        r_puts(r, "fn(");
        for (i = 0; !r->errored && !r_eat(r, 'E'); i++) {
            if (i > 0) r_puts(r, ", ");
            r_type(r);
        }
        r_put(r, ")", 1);
        if (!r_eat(r, 'u')) {
            r_puts(r, " -> ");
            r_type(r);
        }
        r->bound_depth = hold;
        break;
    case 'D': {
        uint64_t lt;
        r_puts(r, "dyn ");
        hold = r->bound_depth;
        r_binder(r);
        for (i = 0; !r->errored && !r_eat(r, 'E'); i++) {
            if (i > 0) r_puts(r, " + ");
            r_dyn_trait(r);
        }
        r->bound_depth = hold;
        if (!r_eat(r, 'L')) { r->errored = 1; break; }
        lt = r_int62(r);
        if (lt) { r_puts(r, " + "); r_lifetime(r, lt); }
        break;
    }
    case 'B':
        if (r_backref(r, &old)) {
            if (!r->skipping) r_type(r);
            r->next = old;
        }
        break;
    default:
        r->next--;
        r_path(r, 0);
    }
    r->recursion--;
}

static void r_path(rust *r, int in_value) {
    char tag, ns;
    size_t i, old;
    uint64_t dis;
    ident name;
    if (!r_enter(r)) return;
    switch (tag = r_next(r)) {
    case 'C':
        dis = r_opt_int62(r, 's');
        name = r_ident(r);
        r_print_ident(r, name);
        if (r->verbose) { r_put(r, "[", 1); r_putx(r, dis); r_put(r, "]", 1); }
        break;
    case 'N':
        ns = r_next(r);
        if (!is_lower(ns) && !is_upper(ns)) { r->errored = 1; break; }
        r_path(r, in_value);
        dis = r_opt_int62(r, 's');
        name = r_ident(r);
        if (is_upper(ns)) {
            r_puts(r, "::{");
            if (ns == 'C') r_puts(r, "closure");
            else if (ns == 'S') r_puts(r, "shim");
            else r_put(r, &ns, 1);
            if (name.n || name.puny) { r_put(r, ":", 1); r_print_ident(r, name); }
            r_put(r, "#", 1);
            r_putu(r, dis);
            r_put(r, "}", 1);
        } else if (name.n || name.puny) {
            r_puts(r, "::");
            r_print_ident(r, name);
        }
        break;
    case 'M': case 'X': case 'Y':
        if (tag != 'Y') {
            int was = r->skipping;
            r_opt_int62(r, 's');
            r->skipping = 1;
            r_path(r, in_value);
            r->skipping = was;
        }
        r_put(r, "<", 1);
        r_type(r);
        if (tag != 'M') {
            r_puts(r, " as ");
            r_path(r, 0);
        }
        r_put(r, ">", 1);
        break;
    case 'I':
        r_path(r, in_value);
        if (in_value) r_puts(r, "::");
        r_put(r, "<", 1);
        for (i = 0; !r->errored && !r_eat(r, 'E'); i++) {
            if (i > 0) r_puts(r, ", ");
            r_generic_arg(r);
        }
        r_put(r, ">", 1);
        break;
    case 'B':
        if (r_backref(r, &old)) {
            if (!r->skipping) r_path(r, in_value);
            r->next = old;
        }
        break;
    default:
        r->errored = 1;
    }
    r->recursion--;
}

static int legacy_hash(ident id) {
    unsigned seen = 0, count = 0;
    size_t i;
    if (id.n != 17 || id.s[0] != 'h') return 0;
    for (i = 0; i < 16; i++) {
        int nb = hex_nibble(id.s[1 + i]);
        if (nb < 0) return 0;
        seen |= 1u << nb;
    }
    for (; seen; seen >>= 1) count += seen & 1;
    return count >= 5;
}

/* 1 when name is Rust (printed into p), 0 when it is not */
static int rust_demangle(const char *name, unsigned flags, printer *p) {
    rust r;
    const char *q;
    memset(&r, 0, sizeof r);
    r.out = p;
    r.verbose = (flags & PD_DEMANGLE_VERBOSE) != 0;
    if (name[0] == '_' && name[1] == 'Z' && name[2] == 'N') { r.sym = name + 3; r.legacy = 1; }
    else if (name[0] == '_' && name[1] == 'R') r.sym = name + 2;
    else return 0;
    if (!r.legacy && !is_upper(r.sym[0])) return 0;
    for (q = r.sym; *q; q++) {
        if (!r.legacy && *q == '.') break; /* a v0 name's .suffix is not shown */
        r.len++;
        if (*q == '_' || is_digit(*q) || is_lower(*q) || is_upper(*q)) continue;
        if (r.legacy && (*q == '$' || *q == '.' || *q == ':' || *q == '@')) continue;
        return 0;
    }
    if (r.legacy) {
        ident id;
        int dot = 1;
        /* ends in E, maybe followed by a .suffix (not shown) */
        while (r.len > 0 && !(dot && r.sym[r.len - 1] == 'E')) {
            dot = r.sym[r.len - 1] == '.';
            r.len--;
        }
        if (!(r.len > 0 && r.sym[r.len - 1] == 'E')) return 0;
        r.len--;
        if (!(r.len > 19 && !memcmp(&r.sym[r.len - 19], "17h", 3))) return 0;
        do {
            id = r_ident(&r);
            if (r.errored || !id.s) return 0;
        } while (r.next < r.len);
        if (!legacy_hash(id)) return 0;
        r.next = 0;
        if (!r.verbose) r.len -= 19; /* the hash */
        do {
            if (r.next > 0) r_put(&r, "::", 2);
            r_print_ident(&r, r_ident(&r));
        } while (!r.errored && r.next < r.len);
    } else {
        r_path(&r, 1);
        if (!r.errored && r.next < r.len) { /* the instantiating crate: not shown */
            r.skipping = 1;
            r_path(&r, 0);
        }
        r.errored |= r.next != r.len;
    }
    return !r.errored;
}

int pd_demangle_candidate(const char *name) {
    return name && name[0] == '_' && (name[1] == 'Z' || name[1] == 'R' || !strncmp(name, "_GLOBAL_", 8));
}

long pd_demangle(const char *name, unsigned flags, char *out, size_t cap) {
    parser d;
    printer p;
    node *top;
    size_t len;
    if (!name || !out || cap < 2) return -1;
    len = strlen(name);
    if (len < 3 || len > 65536) return -1;
    /* Rust first: its legacy names are C++ names too */
    memset(&p, 0, sizeof p);
    p.out = out;
    p.cap = cap;
    p.flags = flags;
    if (rust_demangle(name, flags, &p) && !p.failed && p.len) {
        out[p.len] = 0;
        return (long)p.len;
    }
    memset(&d, 0, sizeof d);
    d.p = name;
    d.end = name + len;
    d.flags = flags;
    d.cap = 2 * len + 32;
    d.capsubs = len + 8;
    if (!(d.nodes = (node *)malloc(d.cap * sizeof *d.nodes))) return -1;
    if (!(d.subs = (node **)malloc(d.capsubs * sizeof *d.subs))) { /* NOLINT(bugprone-sizeof-expression): pointers */
        free(d.nodes);
        return -1;
    }
    top = NULL;
    d.unresolved = 1;
    while (name[0] == '_' && name[1] == 'Z') {
        d.p = name + 2;
        d.nn = d.nsubs = 0;
        d.last_name = NULL;
        d.depth = d.is_expression = d.is_conversion = 0;
        top = encoding(&d, 1);
        if (top && (flags & PD_DEMANGLE_PARAMS)) {
            while (top && peek(&d) == '.' && (is_lower(peek2(&d)) || peek2(&d) == '_' || is_digit(peek2(&d))))
                top = clone_suffix(&d, top);
            if (d.p != d.end) top = NULL; /* with parameters the whole name must be read */
        }
        if (top || d.unresolved != -1) break;
        d.unresolved = 0; /* again, with unresolved names the old way */
    }
    if (!strncmp(name, "_GLOBAL_", 8) && (name[8] == '.' || name[8] == '_' || name[8] == '$') &&
        (name[9] == 'D' || name[9] == 'I') && name[10] == '_') {
        /* g++'s old static constructor and destructor functions */
        node *what;
        d.p = name + 11;
        if (d.p[0] == '_' && d.p[1] == 'Z') {
            d.p += 2;
            what = encoding(&d, 0);
        } else {
            what = mk_name(&d, d.p, strlen(d.p));
        }
        if ((top = mk1(&d, K_GLOBAL_CDTOR, what)) != NULL) {
            top->s = name[9] == 'I' ? "global constructors keyed to " : "global destructors keyed to ";
            top->n = strlen(top->s);
        }
    }
    memset(&p, 0, sizeof p);
    p.out = out;
    p.cap = cap;
    p.flags = flags;
    if (top) pr(&p, top);
    free(d.nodes);
    free(d.subs);
    if (!top || p.failed || !p.len) return -1;
    out[p.len] = 0;
    return (long)p.len;
}
