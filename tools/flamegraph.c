/* flamegraph.c - `perfdata flamegraph`: an interactive SVG flame graph of a
   profile (collapse's folded stacks) or of folded text, with no Perl and
   no external resources.

   The frames are laid out by the rules flamegraph.pl (FlameGraph, 2019+)
   lays them out, so that a graph made here and one made by
   `flamegraph.pl --hash` of the same folded text have the same
   rectangles (name, x, width, depth):
   - a line is "STACK COUNT": COUNT is the text after the line's last
     whitespace character (\d+(\.\d*)?), STACK the text before it; lines
     that do not read so are left out (and counted on stderr); a stack
     followed by two counts is a differential line (the second counts);
   - lines are sorted as byte strings, whole (count included), then merged
     frame by frame: a frame spans the counts of the consecutive lines
     that share it and every frame before it; frames are split at ';',
     empty trailing frames dropped; every stack starts at the root "all";
   - x = 10 + start * (width - 20) / total, printed "%.1f"; the width is
     the difference of the two printed ends, printed "%.1f"; a frame whose
     span is below --minwidth pixels (default 0.1; or N% of the total)
     is left out;
   - depth d from the bottom (from the top with --inverted) at
     y = height - 34 - (d + 1) * 16 + 1 (the frame height 16 by default).
   The script, the styles and the colours are this program's own: frames
   are coloured by kind (the _[k], _[j], _[i] marks collapse puts on
   kernel, JIT and inlined frames: orange, green, aqua; the rest warm
   colours), each name always the same colour. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* open_memstream */
#endif
#include "pd_filter.h"
#include "pd_intern.h"
#include "pd_opts.h"
#include "pd_text.h"
#include "pd_tool.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { FG_TITLE = PD_COLLAPSE_MORE, FG_SUBTITLE, FG_WIDTH, FG_HEIGHT, FG_MINWIDTH, FG_REVERSE, FG_INVERTED,
       FG_COUNTNAME, FG_COLORS, FG_FOLDED, FG_DIFF, FG_NORMALIZE, FG_STRIP_HEX };

static const pd_opt flamegraph_opts[] = {
    {0, FG_FOLDED, "folded", NULL, "the input is folded stacks (\"a;b;c 12\" lines), as collapse and\n"
     "                            stackcollapse-*.pl write them (found out by itself otherwise)"},
    {0, FG_DIFF, "diff", "BEFORE", "a differential flame graph: FILE's stacks drawn, coloured by how their counts\n"
     "                            changed since BEFORE (a profile or folded stacks): red grew, blue shrank"},
    {0, FG_NORMALIZE, "normalize", NULL, "with --diff, BEFORE's counts scaled to FILE's total (difffolded.pl -n)"},
    {0, FG_STRIP_HEX, "strip-hex", NULL, "with --diff, hexadecimal numbers in frames compared as 0x... (difffolded.pl -s)"},
    {0, FG_TITLE, "title", "TEXT", "the graph's title (default \"Flame Graph\", \"Icicle Graph\" with --inverted)"},
    {0, FG_SUBTITLE, "subtitle", "TEXT", "a second line under the title"},
    {0, FG_WIDTH, "width", "PIXELS", "the image's width (default 1200)"},
    {0, FG_HEIGHT, "height", "PIXELS", "a frame's height (default 16)"},
    {0, FG_MINWIDTH, "minwidth", "N", "leave out frames narrower than N pixels, or N% of the total (default 0.1)"},
    {0, FG_REVERSE, "reverse", NULL, "reverse each stack (leaf first), as flamegraph.pl --reverse"},
    {0, FG_INVERTED, "inverted", NULL, "an icicle graph: the root at the top"},
    {0, FG_COUNTNAME, "countname", "NAME", "what the counts are (default \"samples\")"},
    {0, FG_COLORS, "colors", "kind|hot", "kind: kernel, JIT and inlined frames in colours of their own (default);\n"
     "                            hot: every frame in warm colours"},
    {0, 0, NULL, NULL, NULL},
};
static const pd_opt *const flamegraph_tables[] = {flamegraph_opts, pd_collapse_opts, pd_filter_opts, pd_ratio_opts,
                                                  pd_queue_opts, NULL};

const pd_command pd_flamegraph_command = {
    "flamegraph", "an interactive SVG flame graph",
    "  An interactive SVG flame graph (hover for counts, click to zoom, search) of a profile's\n"
    "  folded stacks (collapse's options choose them), or of folded text (--folded; standard\n"
    "  input when FILE is '-'), laid out as flamegraph.pl lays it out. Writes the SVG to\n"
    "  standard output: perfdata flamegraph perf.data > profile.svg\n",
    flamegraph_tables, NULL};

typedef struct fg_opts {
    const char *title, *subtitle, *countname;
    long width, height;
    double minwidth;
    int minwidth_pct;
    int reverse, inverted, hot, folded;
    const char *diff;                /* --diff BEFORE, or NULL */
    int normalize, strip_hex;
    int before_pass;                 /* the input hook reads BEFORE this time */
    char *before;                    /* BEFORE's folded text, and its length */
    size_t before_n;
    /* the folded text read by the input hook (folded input), or NULL */
    char *text;
    size_t text_n;
    int read_rc;                     /* -2: the input hook read folded text */
    int ran;                         /* the options were good: the input hook was called */
    FILE *mem;                       /* --diff: where a profile's folded stacks go */
    int drawn, draw_rc;              /* the profile's graph was drawn (on_stacks), with this status */
} fg_opts;

/* realloc or exit (out of memory); never of size 0 */
static void *grow(void *p, size_t n, size_t size) {
    size_t bytes;
    void *q;
    if (size && n > (size_t)-1 / size) pd_nomem();
    bytes = n * size;
    q = realloc(p, bytes ? bytes : 1);
    if (!q) pd_nomem();
    return q;
}

static int parse_long(const char *v, long lo, long hi, long *out) {
    char *end;
    long x;
    errno = 0;
    x = strtol(v, &end, 10);
    if (errno || end == v || *end || x < lo || x > hi) return 0;
    *out = x;
    return 1;
}

static int flamegraph_option(void *ctx, int id, const char *value) {
    fg_opts *o = (fg_opts *)ctx;
    switch (id) {
    case FG_TITLE: o->title = value; break;
    case FG_SUBTITLE: o->subtitle = value; break;
    case FG_COUNTNAME: o->countname = value; break;
    case FG_REVERSE: o->reverse = 1; break;
    case FG_INVERTED: o->inverted = 1; break;
    case FG_FOLDED: o->folded = 1; break;
    case FG_DIFF: o->diff = value; break;
    case FG_NORMALIZE: o->normalize = 1; break;
    case FG_STRIP_HEX: o->strip_hex = 1; break;
    case FG_WIDTH:
        if (!parse_long(value, 100, 1000000, &o->width)) {
            fprintf(stderr, "perfdata flamegraph: --width %s: a number of pixels from 100 to 1000000\n", value);
            return 1;
        }
        break;
    case FG_HEIGHT:
        if (!parse_long(value, 4, 1000, &o->height)) {
            fprintf(stderr, "perfdata flamegraph: --height %s: a number of pixels from 4 to 1000\n", value);
            return 1;
        }
        break;
    case FG_MINWIDTH: {
        char *end;
        size_t n = strlen(value);
        o->minwidth_pct = n && value[n - 1] == '%';
        errno = 0;
        o->minwidth = strtod(value, &end);
        if (errno || end == value || end != value + n - (size_t)o->minwidth_pct || !(o->minwidth >= 0) ||
            o->minwidth > 1e9 || !strchr("0123456789.", value[0])) {
            fprintf(stderr, "perfdata flamegraph: --minwidth %s: pixels, or a percentage (0.5%%)\n", value);
            return 1;
        }
        break;
    }
    case FG_COLORS:
        if (!strcmp(value, "hot")) o->hot = 1;
        else if (!strcmp(value, "kind")) o->hot = 0;
        else {
            fprintf(stderr, "perfdata flamegraph: --colors %s: kind or hot\n", value);
            return 1;
        }
        break;
    default: return 1;
    }
    return 0;
}

/* ------------------------------------------------------------ the input */

/* All of fd, appended to *buf (a NUL after it); -1 on a read error */
static int slurp(int fd, char **buf, size_t *n) {
    size_t cap = *n + 65536;
    char *b = (char *)realloc(*buf, cap + 1);
    if (!b) pd_nomem();
    *buf = b;
    for (;;) {
        ssize_t got;
        if (*n == cap) {
            if (cap > ((size_t)-1 - 1) / 2) { errno = ENOMEM; return -1; }
            cap *= 2;
            if (!(b = (char *)realloc(*buf, cap + 1))) pd_nomem();
            *buf = b;
        }
        got = read(fd, *buf + *n, cap - *n);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return -1;
        if (got == 0) break;
        *n += (size_t)got;
    }
    (*buf)[*n] = 0;
    return 0;
}

static int is_perf_data(const char *p, size_t n) {
    return n >= 8 && (!memcmp(p, "PERFILE2", 8) || !memcmp(p, "2ELIFREP", 8));
}

/* An input: -1 when it is a profile (collapse reads it), -2 when it is
   folded text (read into *text, *n), else the exit status of a failure.
   Standard input is looked at first: perf.data bytes read are handed to
   the session. */
static int read_input(const fg_opts *o, const char *path, char **text, size_t *n) {
    char shown[1024];
    int fd;
    if (!strcmp(path, "-")) {
        char head[16];
        size_t got_n = 0;
        while (got_n < sizeof head) {
            ssize_t got = read(0, head + got_n, sizeof head - got_n);
            if (got < 0 && errno == EINTR) continue;
            if (got < 0) {
                fprintf(stderr, "perfdata flamegraph: <stdin>: %s\n", strerror(errno));
                return PD_EXIT_ERROR;
            }
            if (got == 0) break;
            got_n += (size_t)got;
        }
        if (!o->folded && is_perf_data(head, got_n)) {
            pd_input_stdin_prefix(head, got_n);
            return -1;
        }
        if (!(*text = (char *)malloc(got_n + 1))) pd_nomem();
        memcpy(*text, head, got_n);
        *n = got_n;
        if (slurp(0, text, n) < 0) {
            fprintf(stderr, "perfdata flamegraph: <stdin>: %s\n", strerror(errno));
            return PD_EXIT_ERROR;
        }
        return -2;
    }
    if (!o->folded) {
        struct stat st;
        char head[8];
        ssize_t got;
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return -1; /* perf record --threads */
        if ((fd = open(path, O_RDONLY | O_NONBLOCK)) < 0) return -1; /* collapse says why */
        if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) { close(fd); return -1; }
        got = read(fd, head, sizeof head);
        close(fd);
        if (got < 0 || is_perf_data(head, (size_t)got)) return -1;
    }
    /* folded text: a regular file only (no device, FIFO or socket is read) */
    {
        struct stat st;
        if ((fd = open(path, O_RDONLY | O_NONBLOCK)) < 0) {
            fprintf(stderr, "perfdata flamegraph: %s: %s\n", pd_escaped(shown, sizeof shown, path), strerror(errno));
            return PD_EXIT_ERROR;
        }
        if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            fprintf(stderr, "perfdata flamegraph: %s: not a regular file\n", pd_escaped(shown, sizeof shown, path));
            close(fd);
            return PD_EXIT_ERROR;
        }
        if (slurp(fd, text, n) < 0) {
            fprintf(stderr, "perfdata flamegraph: %s: %s\n", pd_escaped(shown, sizeof shown, path), strerror(errno));
            close(fd);
            return PD_EXIT_ERROR;
        }
        close(fd);
    }
    return -2;
}

/* collapse's input hook: FILE, or with --diff first BEFORE in its place */
static int take_input(void *ctx, const char **path) {
    fg_opts *o = (fg_opts *)ctx;
    int rc;
    o->ran = 1;
    if (o->before_pass && o->diff) {
        rc = read_input(o, o->diff, &o->before, &o->before_n);
        if (rc == -1) *path = o->diff;
    } else {
        rc = read_input(o, *path, &o->text, &o->text_n);
    }
    if (rc != -2) return rc;
    o->read_rc = -2; /* read: the graph is drawn by the caller */
    return PD_EXIT_OK;
}

/* ------------------------------------------------------------ the layout */

typedef struct span { const char *p; size_t n; } span;

/* Perl's \s on bytes */
static int is_ws(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

/* /^(.*)\s+?(\d+(?:\.\d*)?)$/ on the n bytes at p: 1 with the stack's
   length and the count's value */
static int split_count(const char *p, size_t n, size_t *stack_n, double *value) {
    size_t k = n, i;
    char small[64], *num;
    while (k > 0 && !is_ws((unsigned char)p[k - 1])) k--;
    if (k == 0 || k == n) return 0;
    for (i = k; i < n && p[i] >= '0' && p[i] <= '9'; i++) continue;
    if (i == k) return 0;
    if (i < n && p[i] == '.')
        for (i++; i < n && p[i] >= '0' && p[i] <= '9'; i++) continue;
    if (i != n) return 0;
    num = n - k < sizeof small ? small : (char *)grow(NULL, n - k + 1, 1); /* any length, as Perl reads it */
    memcpy(num, p + k, n - k);
    num[n - k] = 0;
    *value = strtod(num, NULL);
    if (num != small) free(num);
    *stack_n = k - 1;
    return 1;
}

/* Perl's split(";", STACK): the fields, trailing empty ones dropped; how many */
static size_t split_frames(const char *p, size_t n, span **v, size_t *cap) {
    size_t count = 0, start = 0, i;
    for (i = 0; i <= n; i++) {
        if (i < n && p[i] != ';') continue;
        if (count == *cap) {
            *cap = *cap ? *cap * 2 : 64;
            *v = (span *)grow(*v, *cap, sizeof **v);
        }
        (*v)[count].p = p + start;
        (*v)[count].n = i - start;
        count++;
        start = i + 1;
    }
    while (count && !(*v)[count - 1].n) count--;
    return count;
}

typedef struct fg_node {
    const char *f;
    size_t fn;
    uint32_t depth;
    double stime, etime, delta;
    int has_delta;
} fg_node;

typedef struct fg_open { const char *f; size_t fn; double stime, delta; int has_delta; } fg_open;

typedef struct fg {
    fg_node *nodes;
    size_t n, cap;
    size_t *slots;                   /* index + 1 into nodes, open addressing on (name, depth, end) */
    size_t cap_slots;
    fg_open *open;                   /* the frames of the last stack, by depth */
    size_t nopen, cap_open;
    double time, maxdelta;
    /* frames narrower than prune (in counts) are not kept (write_svg
       would leave them out): once the total is known, before the merge */
    int pruning;
    double prune;
} fg;

/* write_svg's minimum width in counts, for a graph of total counts */
static double min_width_time(const fg_opts *o, double total) {
    const long width = o->width ? o->width : 1200, xpad = 10;
    double wpt = (double)(width - 2 * xpad) / total;
    return o->minwidth_pct ? total * o->minwidth / 100 : o->minwidth / wpt;
}

static uint64_t node_hash(const char *f, size_t n, uint32_t depth, const char *end) {
    uint64_t h = pd_hash_bytes(f, n);
    h ^= pd_hash_u64(depth) * 0x9E3779B97F4A7C15ull;
    return h ^ pd_hash_bytes(end, strlen(end));
}

/* flamegraph.pl keys a frame by "name;depth;end" with end as Perl prints a
   number (15 significant digits), and reads end back from that text */
/* An integer below 10^15 in size (what sums of whole counts are): %.15g
   prints all its digits, and they read back as itself. Not -0 ("-0"). */
static int whole(double v) {
    return v > -1e15 && v < 1e15 && v == (double)(long long)v && !(v == 0 && signbit(v));
}

/* "%.15g" of v, a whole number written by hand */
static void end_text(double v, char *buf, size_t cap) {
    char digits[24];
    size_t n = 0, at = 0;
    long long i;
    uint64_t u;
    if (cap < 20 || !whole(v)) {
        snprintf(buf, cap, "%.15g", v);
        return;
    }
    i = (long long)v;
    if (i < 0) buf[at++] = '-';
    u = i < 0 ? (uint64_t)0 - (uint64_t)i : (uint64_t)i;
    do {
        digits[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    while (n) buf[at++] = digits[--n];
    buf[at] = 0;
}

static void add_node(fg *g, const fg_open *o, uint32_t depth, double v) {
    char end[40], other[40];
    size_t i, mask;
    uint64_t h;
    end_text(v, end, sizeof end);
    if ((g->n + 1) * 2 > g->cap_slots) {
        size_t cap = g->cap_slots ? g->cap_slots * 2 : 1024;
        size_t *slots = (size_t *)calloc(cap, sizeof *slots);
        if (!slots) pd_nomem();
        for (i = 0; i < g->n; i++) {
            size_t k;
            end_text(g->nodes[i].etime, other, sizeof other);
            k = (size_t)node_hash(g->nodes[i].f, g->nodes[i].fn, g->nodes[i].depth, other) & (cap - 1);
            while (slots[k]) k = (k + 1) & (cap - 1);
            slots[k] = i + 1;
        }
        free(g->slots);
        g->slots = slots;
        g->cap_slots = cap;
    }
    mask = g->cap_slots - 1;
    h = node_hash(o->f, o->fn, depth, end);
    for (i = (size_t)h & mask; g->slots[i]; i = (i + 1) & mask) {
        fg_node *e = &g->nodes[g->slots[i] - 1];
        end_text(e->etime, other, sizeof other);
        if (e->depth == depth && e->fn == o->fn && !memcmp(e->f, o->f, o->fn) && !strcmp(end, other)) {
            e->stime = o->stime; /* the same key: Perl's hash keeps the last */
            if (o->has_delta) { e->delta = o->delta; e->has_delta = 1; }
            return;
        }
    }
    /* a new key too narrow to be drawn: not kept (a later frame of the
       same key replaces it in Perl's hash, and is kept if wide) */
    if (g->pruning && (o->fn || depth) && (whole(v) ? v : strtod(end, NULL)) - o->stime < g->prune) return;
    if (g->n == g->cap) {
        g->cap = g->cap ? g->cap * 2 : 1024;
        g->nodes = (fg_node *)grow(g->nodes, g->cap, sizeof *g->nodes);
    }
    g->nodes[g->n].f = o->f;
    g->nodes[g->n].fn = o->fn;
    g->nodes[g->n].depth = depth;
    g->nodes[g->n].stime = o->stime;
    g->nodes[g->n].etime = whole(v) ? v : strtod(end, NULL);
    g->nodes[g->n].delta = o->delta;
    g->nodes[g->n].has_delta = o->has_delta;
    g->slots[i] = ++g->n;
}

/* flamegraph.pl's flow(): the frames this stack does not share with the
   last one end at v, its own start there */
static void flow(fg *g, const span *frames, size_t n, double v, const double *d) {
    size_t same = 0, i;
    while (frames && same < g->nopen && same < n && g->open[same].fn == frames[same].n &&
           !memcmp(g->open[same].f, frames[same].p, frames[same].n))
        same++;
    /* NOLINTNEXTLINE(clang-analyzer-unix.Malloc): draw frees g->open */
    for (i = g->nopen; i > same; i--) add_node(g, &g->open[i - 1], (uint32_t)(i - 1), v);
    if (n > g->cap_open) {
        g->cap_open = n * 2;
        g->open = (fg_open *)grow(g->open, g->cap_open, sizeof *g->open);
    }
    for (i = same; frames && i < n; i++) {
        g->open[i].f = frames[i].p;
        g->open[i].fn = frames[i].n;
        g->open[i].stime = v;
        g->open[i].has_delta = d != NULL;
        g->open[i].delta = d && i == n - 1 ? *d : 0;
    }
    g->nopen = n;
}

typedef struct line { const char *p; size_t n; } line;

static int by_bytes(const void *a, const void *b) {
    const line *x = (const line *)a, *y = (const line *)b;
    int c = memcmp(x->p, y->p, x->n < y->n ? x->n : y->n);
    if (c) return c;
    return x->n < y->n ? -1 : x->n > y->n;
}

/* --reverse: "STACK COUNT [COUNT2]" with STACK's frames reversed, into *out */
static void reversed_line(const char *p, size_t n, char **out, size_t *len, span **v, size_t *cap) {
    size_t sn, sn2, k, m, at = 0;
    double x;
    const char *tail;
    if (!split_count(p, n, &sn, &x)) { /* left as it is: it is left out later */
        if (!(*out = (char *)malloc(n + 1))) pd_nomem();
        memcpy(*out, p, n);
        *len = n;
        return;
    }
    tail = p + sn; /* " COUNT": the separator and the count as written */
    if (split_count(p, sn, &sn2, &x)) { tail = p + sn2; sn = sn2; }
    m = split_frames(p, sn, v, cap);
    if (!(*out = (char *)malloc(n + 2))) pd_nomem();
    for (k = m; k > 0; k--) {
        memcpy(*out + at, (*v)[k - 1].p, (*v)[k - 1].n);
        at += (*v)[k - 1].n;
        if (k > 1) (*out)[at++] = ';';
    }
    /* Perl writes the counts back after one space each */
    {
        size_t t = (size_t)(tail - p), i;
        for (i = t; i < n; i++) {
            if (is_ws((unsigned char)p[i]) && (i == t || !is_ws((unsigned char)p[i - 1]))) (*out)[at++] = ' ';
            else if (!is_ws((unsigned char)p[i])) (*out)[at++] = p[i];
        }
    }
    *len = at;
}

/* One line's stack, as flamegraph.pl reads it: its frames (spans into
   the line, the root "" first) in *frames, its count and, for a
   differential line, the second count; 0 when it is not a stack */
static int line_stack(const char *p, size_t n, span **frames, size_t *capf, size_t *nframes, double *samples,
                      double *samples2, int *two) {
    size_t sn, sn2, m;
    if (!split_count(p, n, &sn, samples)) return 0;
    *two = 0;
    if (split_count(p, sn, &sn2, samples2)) {
        double t = *samples;
        *samples = *samples2;
        *samples2 = t;
        sn = sn2;
        *two = 1;
    }
    m = split_frames(p, sn, frames, capf);
    if (m + 1 > *capf) {
        *capf = (m + 1) * 2;
        *frames = (span *)grow(*frames, *capf, sizeof **frames);
    }
    memmove(*frames + 1, *frames, m * sizeof **frames);
    (*frames)[0].p = "";
    (*frames)[0].n = 0;
    *nframes = m + 1;
    return 1;
}

/* One stack merged into g (its frames' text must outlive g) */
static void add_stack(fg *g, const span *frames, size_t n, double samples, double samples2, int two) {
    double delta = samples2 - samples;
    if (two && (delta < 0 ? -delta : delta) > g->maxdelta) g->maxdelta = delta < 0 ? -delta : delta;
    flow(g, frames, n, g->time, two ? &delta : NULL);
    g->time += two ? samples2 : samples;
}

/* The stacks of text (n bytes) merged into g; how many lines were left out */
/* The total the merge will reach (flamegraph.pl's last end time), summed
   as it sums, so that frames too narrow to draw need no node: g->prune */
static void set_prune(fg *g, const fg_opts *o, double total) {
    if (!(total > 0)) return;
    g->prune = min_width_time(o, total);
    g->pruning = 1;
}

static size_t build(fg *g, const fg_opts *o, char *text, size_t n, int reverse, char ***owned, size_t *nowned) {
    line *lines = NULL;
    size_t nlines = 0, cap = 0, i, ignored = 0, start = 0, capf = 0, m;
    span *frames = NULL;
    for (i = 0; i <= n; i++) {
        if (i < n && text[i] != '\n') continue;
        if (i == n && start == n) break; /* no line after the last newline */
        if (nlines == cap) {
            cap = cap ? cap * 2 : 4096;
            lines = (line *)grow(lines, cap, sizeof *lines);
        }
        lines[nlines].p = text + start;
        lines[nlines].n = i - start;
        nlines++;
        start = i + 1;
    }
    if (reverse) {
        if (!(*owned = (char **)calloc(nlines ? nlines : 1, sizeof **owned))) pd_nomem();
        for (i = 0; i < nlines; i++) {
            char *r;
            size_t rn;
            reversed_line(lines[i].p, lines[i].n, &r, &rn, &frames, &capf);
            (*owned)[i] = r;
            lines[i].p = r;
            lines[i].n = rn;
        }
        *nowned = nlines;
    }
    if (nlines) qsort(lines, nlines, sizeof *lines, by_bytes);
    g->maxdelta = 1;
    {
        double total = 0;
        for (i = 0; i < nlines; i++) {
            double samples, samples2 = 0;
            int two;
            if (line_stack(lines[i].p, lines[i].n, &frames, &capf, &m, &samples, &samples2, &two))
                total += two ? samples2 : samples;
        }
        set_prune(g, o, total);
    }
    for (i = 0; i < nlines; i++) {
        double samples, samples2 = 0;
        int two;
        if (!line_stack(lines[i].p, lines[i].n, &frames, &capf, &m, &samples, &samples2, &two)) {
            ignored++;
            continue;
        }
        add_stack(g, frames, m, samples, samples2, two);
    }
    flow(g, NULL, 0, g->time, NULL);
    free(frames);
    free(lines);
    return ignored;
}

/* A stack of collapse's given as the line it would print, without
   printing it: its frames (text that outlives the graph) joined by ';',
   then suffix (" COUNT", or with --reverse the counts as flamegraph.pl
   writes them back). Lines are sorted and read one at a time, so a
   profile's graph needs memory for its frames, never for its text. */
typedef struct vline { span *f; size_t n; char *suffix; size_t suffix_n; } vline;

typedef struct vit { const vline *v; size_t k, off; int sep; } vit;

static int vit_next(vit *it) {
    if (it->sep) {
        it->sep = 0;
        if (it->k < it->v->n) return ';';
    }
    while (it->k < it->v->n) {
        const span *s = &it->v->f[it->k];
        if (it->off < s->n) return (unsigned char)s->p[it->off++];
        it->k++;
        it->off = 0;
        if (it->k < it->v->n) return ';';
    }
    if (it->off < it->v->suffix_n) return (unsigned char)it->v->suffix[it->off++];
    return -1;
}

static int by_vline(const void *pa, const void *pb) {
    const vline *a = (const vline *)pa, *b = (const vline *)pb;
    vit x, y;
    size_t k = 0;
    while (k < a->n && k < b->n && a->f[k].p == b->f[k].p && a->f[k].n == b->f[k].n) k++; /* the same text */
    x.v = a; y.v = b;
    x.k = y.k = k;
    x.off = y.off = 0;
    x.sep = y.sep = k > 0;
    for (;;) {
        int cx = vit_next(&x), cy = vit_next(&y);
        if (cx != cy) return cx < cy ? -1 : 1;
        if (cx < 0) return 0;
    }
}

/* v's text into *buf (grown), with where each of its frames starts */
static size_t vline_text(const vline *v, char **buf, size_t *cap, size_t **at, size_t *capat) {
    size_t need = v->suffix_n + v->n + 1, k, len = 0;
    for (k = 0; k < v->n; k++) need += v->f[k].n;
    if (need > *cap || !*buf) {
        *cap = need * 2;
        *buf = (char *)grow(*buf, *cap, 1);
    }
    if (v->n > *capat || !*at) {
        *capat = v->n * 2 + 1;
        *at = (size_t *)grow(*at, *capat, sizeof **at);
    }
    for (k = 0; k < v->n; k++) {
        if (k) (*buf)[len++] = ';';
        (*at)[k] = len;
        memcpy(*buf + len, v->f[k].p, v->f[k].n);
        len += v->f[k].n;
    }
    memcpy(*buf + len, v->suffix, v->suffix_n);
    return len + v->suffix_n;
}

/* The frames parsed from v's text (spans into buf) moved onto v's own
   frames' text, which outlives the graph: a field of the line lies within
   one frame (frames hold no ';') */
static void to_frames(const vline *v, const char *buf, const size_t *at, span *frames, size_t n) {
    size_t i, k = 0;
    for (i = 0; i < n; i++) {
        size_t o;
        if (!frames[i].n || !v->n) { frames[i].p = ""; continue; } /* (a field of text lies in a frame) */
        o = (size_t)(frames[i].p - buf);
        while (k + 1 < v->n && at[k + 1] <= o) k++;
        frames[i].p = v->f[k].p + (o - at[k]);
    }
}

/* collapse's stacks merged into g as build() merges their text */
static size_t build_stacks(fg *g, const fg_opts *o, const pd_folded_stack *st, size_t n, int reverse) {
    vline *v = (vline *)grow(NULL, n ? n : 1, sizeof *v);
    char *buf = NULL;
    size_t cap = 0, *at = NULL, capat = 0, i, k, capf = 0, m, ignored = 0, len;
    span *frames = NULL;
    g->maxdelta = 1;
    for (i = 0; i < n; i++) {
        char count[32];
        v[i].n = st[i].n;
        v[i].f = (span *)grow(NULL, st[i].n ? st[i].n : 1, sizeof *v[i].f);
        for (k = 0; k < st[i].n; k++) {
            v[i].f[k].p = st[i].frames[k];
            v[i].f[k].n = strlen(st[i].frames[k]);
        }
        v[i].suffix_n = (size_t)snprintf(count, sizeof count, " %llu", (unsigned long long)st[i].count);
        v[i].suffix = (char *)grow(NULL, v[i].suffix_n + 1, 1);
        memcpy(v[i].suffix, count, v[i].suffix_n + 1);
        if (reverse) { /* the line flamegraph.pl --reverse makes of it: its stack's frames reversed, its counts */
            size_t sn, sn2, cnt_at, cnt_n, cnt2_at = 0, cnt2_n = 0, nf;
            double x;
            len = vline_text(&v[i], &buf, &cap, &at, &capat);
            if (!split_count(buf, len, &sn, &x)) continue;
            cnt_at = sn + 1;
            cnt_n = len - cnt_at;
            if (split_count(buf, sn, &sn2, &x)) {
                cnt2_at = cnt_at;
                cnt2_n = cnt_n;
                cnt_at = sn2 + 1;
                cnt_n = sn - cnt_at;
                sn = sn2;
            }
            nf = split_frames(buf, sn, &frames, &capf);
            to_frames(&v[i], buf, at, frames, nf);
            {
                char *suffix = (char *)grow(NULL, cnt_n + cnt2_n + 3, 1);
                size_t sl = 0;
                suffix[sl++] = ' ';
                memcpy(suffix + sl, buf + cnt_at, cnt_n);
                sl += cnt_n;
                if (cnt2_n) {
                    suffix[sl++] = ' ';
                    memcpy(suffix + sl, buf + cnt2_at, cnt2_n);
                    sl += cnt2_n;
                }
                free(v[i].suffix);
                v[i].suffix = suffix;
                v[i].suffix_n = sl;
            }
            v[i].f = (span *)grow(v[i].f, nf ? nf : 1, sizeof *v[i].f);
            for (k = 0; k < nf; k++) v[i].f[k] = frames[nf - 1 - k];
            v[i].n = nf;
        }
    }
    if (n) qsort(v, n, sizeof *v, by_vline);
    {
        double total = 0;
        for (i = 0; i < n; i++) {
            double samples, samples2 = 0;
            int two;
            len = vline_text(&v[i], &buf, &cap, &at, &capat);
            if (line_stack(buf, len, &frames, &capf, &m, &samples, &samples2, &two)) total += two ? samples2 : samples;
        }
        set_prune(g, o, total);
    }
    for (i = 0; i < n; i++) {
        double samples, samples2 = 0;
        int two;
        len = vline_text(&v[i], &buf, &cap, &at, &capat);
        if (!line_stack(buf, len, &frames, &capf, &m, &samples, &samples2, &two)) {
            ignored++;
            continue;
        }
        to_frames(&v[i], buf, at, frames + 1, m - 1); /* after the root */
        add_stack(g, frames, m, samples, samples2, two);
    }
    flow(g, NULL, 0, g->time, NULL);
    for (i = 0; i < n; i++) {
        free(v[i].f);
        free(v[i].suffix);
    }
    free(v);
    free(frames);
    free(buf);
    free(at);
    return ignored;
}

/* ------------------------------------------------------------ --diff */

typedef struct stack_pair { char *stack; size_t n; double c[2]; } stack_pair;

typedef struct pairs {
    stack_pair *v;
    size_t n, cap;
    size_t *slots;                   /* index + 1, open addressing on the stack's bytes */
    size_t cap_slots;
    double total[2];
} pairs;

static stack_pair *pair_of(pairs *p, const char *stack, size_t n) {
    size_t i, mask;
    if ((p->n + 1) * 2 > p->cap_slots) {
        size_t cap = p->cap_slots ? p->cap_slots * 2 : 1024;
        size_t *slots = (size_t *)calloc(cap, sizeof *slots);
        if (!slots) pd_nomem();
        for (i = 0; i < p->n; i++) {
            size_t k = (size_t)pd_hash_bytes(p->v[i].stack, p->v[i].n) & (cap - 1);
            while (slots[k]) k = (k + 1) & (cap - 1);
            slots[k] = i + 1;
        }
        free(p->slots);
        p->slots = slots;
        p->cap_slots = cap;
    }
    mask = p->cap_slots - 1;
    for (i = (size_t)pd_hash_bytes(stack, n) & mask; p->slots[i]; i = (i + 1) & mask) {
        stack_pair *e = &p->v[p->slots[i] - 1];
        if (e->n == n && !memcmp(e->stack, stack, n)) return e;
    }
    if (p->n == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 1024;
        p->v = (stack_pair *)grow(p->v, p->cap, sizeof *p->v);
    }
    if (!(p->v[p->n].stack = (char *)malloc(n + 1))) pd_nomem();
    memcpy(p->v[p->n].stack, stack, n);
    p->v[p->n].n = n;
    p->v[p->n].c[0] = p->v[p->n].c[1] = 0;
    p->slots[i] = ++p->n;
    return &p->v[p->n - 1];
}

/* difffolded.pl: each stack of either text with its count in each (0 when
   absent); lines that are not "STACK COUNT" are left out (counted) */
static size_t add_counts(pairs *p, const char *text, size_t n, int which, int strip_hex) {
    size_t start = 0, i, ignored = 0;
    char *buf = NULL;
    for (i = 0; i <= n; i++) {
        const char *line = text + start;
        size_t len = i - start, sn, k, at = 0;
        double count;
        if (i < n && text[i] != '\n') continue;
        start = i + 1;
        if (i == n && !len) break;
        if (!split_count(line, len, &sn, &count)) {
            ignored++;
            continue;
        }
        if (strip_hex) { /* s/0x[0-9a-fA-F]+/0x.../g */
            buf = (char *)grow(buf, sn * 2 + 8, 1);
            for (k = 0; k < sn;) {
                size_t h = k + 2;
                if (line[k] == '0' && k + 1 < sn && line[k + 1] == 'x')
                    while (h < sn && strchr("0123456789abcdefABCDEF", line[h])) h++;
                if (line[k] == '0' && k + 1 < sn && line[k + 1] == 'x' && h > k + 2) {
                    const char *dots = "0x...";
                    while (*dots) buf[at++] = *dots++;
                    k = h;
                } else {
                    buf[at++] = line[k++];
                }
            }
            pair_of(p, buf, at)->c[which] += count;
        } else {
            pair_of(p, line, sn)->c[which] += count;
        }
        p->total[which] += count;
    }
    free(buf);
    return ignored;
}

/* "STACK BEFORE AFTER" lines of the two texts, as difffolded.pl writes
   them (its -n: BEFORE's counts scaled to AFTER's total) */
static char *diff_text(const fg_opts *o, const char *before, size_t before_n, const char *after, size_t after_n,
                       size_t *n, size_t *ignored) {
    pairs p;
    char *out = NULL;
    size_t i;
    FILE *mem;
    memset(&p, 0, sizeof p);
    *ignored = add_counts(&p, before, before_n, 0, o->strip_hex) + add_counts(&p, after, after_n, 1, o->strip_hex);
    if (!(mem = open_memstream(&out, n))) pd_nomem();
    for (i = 0; i < p.n; i++) {
        double c0 = p.v[i].c[0];
        if (o->normalize && p.total[0] != p.total[1] && p.total[0] != 0)
            c0 = (double)(long long)(c0 * p.total[1] / p.total[0]); /* Perl's int() */
        fwrite(p.v[i].stack, 1, p.v[i].n, mem);
        fprintf(mem, " %.15g %.15g\n", c0, p.v[i].c[1]);
        free(p.v[i].stack);
    }
    if (fclose(mem) != 0) pd_nomem();
    free(p.v);
    free(p.slots);
    return out;
}

/* ------------------------------------------------------------ the SVG */

/* A name's colour, by kind (its mark) and by a hash of the name: the same
   name is the same colour in every graph */
static void colour(const fg_node *e, int hot, double maxdelta, char *out, size_t cap) {
    uint64_t h = 1469598103934665603ull;
    size_t i, n = e->fn;
    double a, b;
    char kind = 0;
    if (n >= 4 && e->f[n - 4] == '_' && e->f[n - 3] == '[' && e->f[n - 1] == ']') kind = e->f[n - 2];
    for (i = 0; i < n; i++) h = (h ^ (unsigned char)e->f[i]) * 1099511628211ull;
    a = (double)(h >> 40 & 0xffff) / 65536.0;
    b = (double)(h >> 16 & 0xffff) / 65536.0;
    if (e->has_delta) { /* flamegraph.pl's scale: red grew, blue shrank, white the same */
        int r = 255, gb = 255;
        if (e->delta > 0) gb = (int)(210 * (maxdelta - e->delta) / maxdelta);
        else if (e->delta < 0) r = gb = (int)(210 * (maxdelta + e->delta) / maxdelta);
        if (e->delta < 0) snprintf(out, cap, "rgb(%d,%d,255)", r, gb);
        else snprintf(out, cap, "rgb(%d,%d,%d)", r, gb, gb);
    } else if (!e->depth && !e->fn) snprintf(out, cap, "rgb(220,220,220)");
    else if (hot || !kind || kind == 'w') snprintf(out, cap, "rgb(%d,%d,%d)", 205 + (int)(50 * b), (int)(230 * a), (int)(55 * b));
    else if (kind == 'k') snprintf(out, cap, "rgb(%d,%d,0)", 190 + (int)(65 * a), 90 + (int)(65 * a));
    else if (kind == 'j') snprintf(out, cap, "rgb(%d,%d,%d)", 50 + (int)(60 * a), 200 + (int)(55 * a), 50 + (int)(60 * a));
    else snprintf(out, cap, "rgb(%d,%d,%d)", 50 + (int)(60 * a), 165 + (int)(55 * a), 165 + (int)(55 * a));
}

/* Text for XML: & < > " as entities; control characters and bytes that
   are not UTF-8 as '?', so that no name can break the document */
static void put_xml(FILE *out, const char *p, size_t n) {
    size_t i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)p[i];
        size_t len = 0, k;
        if (c == '&') { fputs("&amp;", out); i++; continue; }
        if (c == '<') { fputs("&lt;", out); i++; continue; }
        if (c == '>') { fputs("&gt;", out); i++; continue; }
        if (c == '"') { fputs("&quot;", out); i++; continue; }
        if (c < 0x20 || c == 0x7f) { putc('?', out); i++; continue; }
        if (c < 0x80) { putc((int)c, out); i++; continue; }
        if (c >= 0xc2 && c <= 0xdf) len = 2;
        else if (c >= 0xe0 && c <= 0xef) len = 3;
        else if (c >= 0xf0 && c <= 0xf4) len = 4;
        for (k = 1; len && k < len; k++)
            if (i + k >= n || ((unsigned char)p[i + k] & 0xc0) != 0x80) len = 0;
        if (len == 3 && ((c == 0xe0 && (unsigned char)p[i + 1] < 0xa0) || (c == 0xed && (unsigned char)p[i + 1] >= 0xa0)))
            len = 0;
        if (len == 4 && ((c == 0xf0 && (unsigned char)p[i + 1] < 0x90) || (c == 0xf4 && (unsigned char)p[i + 1] >= 0x90)))
            len = 0;
        if (!len) { putc('?', out); i++; continue; }
        fwrite(p + i, 1, len, out);
        i += len;
    }
}

static void put_xml_str(FILE *out, const char *s) { put_xml(out, s, strlen(s)); }

/* "1234567" as "1,234,567" */
static void commas(const char *digits, char *out, size_t cap) {
    size_t n = strlen(digits), i, at = 0, lead = digits[0] == '-' ? 1 : 0;
    for (i = 0; i < n && at + 2 < cap; i++) {
        if (i > lead && (n - i) % 3 == 0) out[at++] = ',';
        out[at++] = digits[i];
    }
    out[at] = 0;
}

static double printed(double v, const char *fmt) {
    char buf[64];
    snprintf(buf, sizeof buf, fmt, v);
    return strtod(buf, NULL);
}

static int by_place(const void *a, const void *b) {
    const fg_node *x = *(const fg_node *const *)a, *y = *(const fg_node *const *)b;
    if (x->depth != y->depth) return x->depth < y->depth ? -1 : 1;
    return x->stime < y->stime ? -1 : x->stime > y->stime;
}

/* The script, a line per string (C99 bounds a literal's length) */
static const char *const script_lines[] = {
    "\"use strict\";\n",
    "var svg, frames, details, unzoomBtn, searchBtn, matchedTxt, icBtn, nodes = [], zoomedTo = null,\n",
    "    term = null, ignorecase = false;\n",
    "function nameOf(t) { var i = t.lastIndexOf(\" (\"); return i < 0 ? t : t.substring(0, i); }\n",
    "function init(evt) {\n",
    "  svg = document.documentElement; frames = document.getElementById(\"frames\");\n",
    "  details = document.getElementById(\"details\").firstChild; unzoomBtn = document.getElementById(\"unzoom\");\n",
    "  searchBtn = document.getElementById(\"search\"); matchedTxt = document.getElementById(\"matched\");\n",
    "  icBtn = document.getElementById(\"ignorecase\");\n",
    "  var gs = frames.getElementsByTagName(\"g\");\n",
    "  for (var i = 0; i < gs.length; i++) {\n",
    "    var g = gs[i], r = g.getElementsByTagName(\"rect\")[0], t = g.getElementsByTagName(\"title\")[0];\n",
    "    var y = parseFloat(r.getAttribute(\"y\"));\n",
    "    var n = {g: g, rect: r, text: g.getElementsByTagName(\"text\")[0], title: t.textContent,\n",
    "             name: nameOf(t.textContent), x: parseFloat(r.getAttribute(\"x\")),\n",
    "             w: parseFloat(r.getAttribute(\"width\")), fill: r.getAttribute(\"fill\"),\n",
    "             depth: INVERTED ? Math.round((y - YPAD1) / FH) : Math.round((HEIGHT - YPAD2 - y + 1) / FH) - 1};\n",
    "    g.pdNode = n; nodes.push(n);\n",
    "    g.addEventListener(\"click\", function (e) { zoom(this.pdNode); e.stopPropagation(); });\n",
    "    g.addEventListener(\"mouseover\", function () { details.nodeValue = \"Function: \" + this.pdNode.title; });\n",
    "    g.addEventListener(\"mouseout\", function () { details.nodeValue = \" \"; });\n",
    "  }\n",
    "  unzoomBtn.addEventListener(\"click\", function () { unzoom(); });\n",
    "  searchBtn.addEventListener(\"click\", function () {\n",
    "    if (term !== null) { search(null); return; }\n",
    "    var s = prompt(\"Search for (a regular expression\" + (ignorecase ? \", any case\" : \"\") + \"):\", \"\");\n",
    "    if (s) search(s);\n",
    "  });\n",
    "  icBtn.addEventListener(\"click\", function () {\n",
    "    ignorecase = !ignorecase; icBtn.setAttribute(\"class\", ignorecase ? \"on\" : \"\");\n",
    "    if (term !== null) search(term);\n",
    "  });\n",
    "  window.addEventListener(\"keydown\", function (e) {\n",
    "    if ((e.ctrlKey || e.metaKey) && e.key === \"f\") { e.preventDefault(); searchBtn.dispatchEvent(new Event(\"click\")); }\n",
    "    else if (e.key === \"Escape\") { search(null); unzoom(); }\n",
    "  });\n",
    "}\n",
    "function label(n, w) {\n",
    "  if (!n.text) return;\n",
    "  var name = n.name.replace(/_\\[[kwij]\\]$/, \"\"), chars = Math.floor(w / (FONTSIZE * FONTWIDTH));\n",
    "  var s = chars < 3 ? \"\" : name.length > chars ? name.substring(0, chars - 2) + \"..\" : name;\n",
    "  n.text.textContent = s;\n",
    "}\n",
    "function place(n, x, w, shown, parent) {\n",
    "  n.rect.setAttribute(\"x\", x.toFixed(1)); n.rect.setAttribute(\"width\", w.toFixed(1));\n",
    "  if (n.text) n.text.setAttribute(\"x\", (x + 3).toFixed(2));\n",
    "  n.g.style.display = shown ? \"\" : \"none\"; n.g.setAttribute(\"class\", parent ? \"parent\" : \"\");\n",
    "  label(n, w);\n",
    "}\n",
    "function zoom(to) {\n",
    "  if (to.depth === 0 && !to.name) { unzoom(); return; }\n",
    "  var eps = 0.0001, left = to.x, right = to.x + to.w, ratio = (WIDTH - 2 * XPAD) / to.w;\n",
    "  zoomedTo = to; unzoomBtn.setAttribute(\"class\", \"\");\n",
    "  for (var i = 0; i < nodes.length; i++) {\n",
    "    var n = nodes[i];\n",
    "    if (n.depth >= to.depth && n.x >= left - eps && n.x + n.w <= right + eps)\n",
    "      place(n, XPAD + (n.x - left) * ratio, n.w * ratio, true, false);\n",
    "    else if (n.depth < to.depth && n.x <= left + eps && n.x + n.w >= right - eps)\n",
    "      place(n, XPAD, WIDTH - 2 * XPAD, true, true);\n",
    "    else place(n, n.x, n.w, false, false);\n",
    "  }\n",
    "  if (term !== null) search(term);\n",
    "}\n",
    "function unzoom() {\n",
    "  zoomedTo = null; unzoomBtn.setAttribute(\"class\", \"hide\");\n",
    "  for (var i = 0; i < nodes.length; i++) place(nodes[i], nodes[i].x, nodes[i].w, true, false);\n",
    "  if (term !== null) search(term);\n",
    "}\n",
    "function search(s) {\n",
    "  var re = null, spans = [], i;\n",
    "  term = s;\n",
    "  if (s !== null) { try { re = new RegExp(s, ignorecase ? \"i\" : \"\"); } catch (e) { term = null; } }\n",
    "  for (i = 0; i < nodes.length; i++) {\n",
    "    var n = nodes[i], hit = re !== null && re.test(n.name.replace(/_\\[[kwij]\\]$/, \"\"));\n",
    "    n.rect.setAttribute(\"fill\", hit ? \"rgb(230,0,230)\" : n.fill);\n",
    "    if (hit && n.g.style.display !== \"none\") spans.push([parseFloat(n.rect.getAttribute(\"x\")),\n",
    "        parseFloat(n.rect.getAttribute(\"x\")) + parseFloat(n.rect.getAttribute(\"width\"))]);\n",
    "  }\n",
    "  searchBtn.textContent = term === null ? \"Search\" : \"Reset Search\";\n",
    "  if (term === null) { matchedTxt.textContent = \" \"; return; }\n",
    "  /* the share of the width the matched frames cover, each column once */\n",
    "  spans.sort(function (a, b) { return a[0] - b[0]; });\n",
    "  var covered = 0, end = -1;\n",
    "  for (i = 0; i < spans.length; i++) {\n",
    "    if (spans[i][0] >= end) { covered += spans[i][1] - spans[i][0]; end = spans[i][1]; }\n",
    "    else if (spans[i][1] > end) { covered += spans[i][1] - end; end = spans[i][1]; }\n",
    "  }\n",
    "  var pct = 100 * covered / (WIDTH - 2 * XPAD);\n",
    "  matchedTxt.textContent = \"Matched: \" + (pct >= 99.95 ? \"100\" : pct.toFixed(1)) + \"%\";\n",
    "}\n",
    NULL};

static int write_svg(fg *g, const fg_opts *o, FILE *out) {
    const long width = o->width ? o->width : 1200, fh = o->height ? o->height : 16;
    const double fontsize = 12, fontwidth = 0.59;
    const long ypad1 = 36, ypad2 = 34, ypad3 = 24, xpad = 10, framepad = 1;
    const char *title = o->title ? o->title : o->inverted ? "Icicle Graph" : "Flame Graph";
    const char *countname = o->countname ? o->countname : "samples";
    double wpt, minwidth_time;
    uint32_t depthmax = 0;
    long height;
    size_t i, kept = 0;
    const fg_node **v;
    wpt = (double)(width - 2 * xpad) / g->time;
    minwidth_time = min_width_time(o, g->time);
    if (!(v = (const fg_node **)malloc((g->n ? g->n : 1) * sizeof *v))) pd_nomem(); /* NOLINT(bugprone-sizeof-expression) */
    for (i = 0; i < g->n; i++) {
        if (g->nodes[i].etime - g->nodes[i].stime < minwidth_time) continue;
        if (g->nodes[i].depth > depthmax) depthmax = g->nodes[i].depth;
        v[kept++] = &g->nodes[i];
    }
    qsort((void *)v, kept, sizeof *v, by_place); /* NOLINT(bugprone-sizeof-expression): pointers */
    height = ((long)depthmax + 1) * fh + ypad1 + ypad2 + (o->subtitle ? ypad3 : 0);
    fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
                 "<svg version=\"1.1\" width=\"%ld\" height=\"%ld\" onload=\"init(evt)\" viewBox=\"0 0 %ld %ld\" "
                 "xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n"
                 "<!-- a flame graph made by perfdata flamegraph: hover over a frame for its count, click to zoom "
                 "into it, Search (or Ctrl-F) to mark frames by name -->\n",
            width, height, width, height);
    fprintf(out, "<defs><linearGradient id=\"background\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\">"
                 "<stop stop-color=\"#eeeeee\" offset=\"5%%\"/><stop stop-color=\"%s\" offset=\"95%%\"/>"
                 "</linearGradient></defs>\n",
            o->hot ? "#eeeeb0" : "#e8e8f0");
    fprintf(out, "<style type=\"text/css\">\n"
                 "text { font-family: Verdana, sans-serif; font-size: %gpx; fill: rgb(0,0,0); }\n"
                 "#title { text-anchor: middle; font-size: %gpx; }\n"
                 "#subtitle { text-anchor: middle; fill: rgb(160,160,160); }\n"
                 "#search, #ignorecase, #unzoom { cursor: pointer; opacity: 0.6; }\n"
                 "#search:hover, #ignorecase:hover, #unzoom:hover, #ignorecase.on { opacity: 1; }\n"
                 "#frames > g { cursor: pointer; }\n"
                 "#frames > g:hover > rect { stroke: rgb(0,0,0); stroke-width: 0.5; }\n"
                 ".parent { opacity: 0.5; }\n"
                 ".hide { display: none; }\n"
                 "</style>\n",
            fontsize, fontsize + 5);
    fprintf(out, "<script type=\"text/ecmascript\"><![CDATA[\n"
                 "var WIDTH = %ld, HEIGHT = %ld, XPAD = %ld, YPAD1 = %ld, YPAD2 = %ld, FH = %ld, INVERTED = %d,\n"
                 "    FONTSIZE = %g, FONTWIDTH = %g;\n",
            width, height, xpad, ypad1 + (o->subtitle ? ypad3 : 0), ypad2, fh, o->inverted, fontsize, fontwidth);
    for (i = 0; script_lines[i]; i++) fputs(script_lines[i], out);
    fputs("]]></script>\n", out);
    fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%ld\" height=\"%ld\" fill=\"url(#background)\"/>\n", width, height);
    fprintf(out, "<text id=\"title\" x=\"%ld\" y=\"%g\">", width / 2, fontsize * 2);
    put_xml_str(out, title);
    fputs("</text>\n", out);
    if (o->subtitle) {
        fprintf(out, "<text id=\"subtitle\" x=\"%ld\" y=\"%g\">", width / 2, fontsize * 4);
        put_xml_str(out, o->subtitle);
        fputs("</text>\n", out);
    }
    fprintf(out, "<text id=\"details\" x=\"%ld\" y=\"%g\"> </text>\n", xpad, (double)height - ypad2 / 2.0);
    fprintf(out, "<text id=\"unzoom\" x=\"%ld\" y=\"%g\" class=\"hide\">Reset Zoom</text>\n", xpad, fontsize * 2);
    fprintf(out, "<text id=\"search\" x=\"%ld\" y=\"%g\">Search</text>\n", width - xpad - 100, fontsize * 2);
    fprintf(out, "<text id=\"ignorecase\" x=\"%ld\" y=\"%g\">ic</text>\n", width - xpad - 16, fontsize * 2);
    fprintf(out, "<text id=\"matched\" x=\"%ld\" y=\"%g\"> </text>\n", width - xpad - 100, (double)height - ypad2 / 2.0);
    fputs("<g id=\"frames\">\n", out);
    for (i = 0; i < kept; i++) {
        const fg_node *e = v[i];
        double etime = !e->fn && !e->depth ? g->time : e->etime;
        double x1 = (double)xpad + e->stime * wpt, x2 = (double)xpad + etime * wpt, y1, y2, pct;
        char samples[400], samples_txt[560], fill[48]; /* %.0f of a double: up to 309 digits */
        size_t name_n = e->fn, chars;
        if (!o->inverted) {
            y1 = (double)(height - ypad2 - ((long)e->depth + 1) * fh + framepad);
            y2 = (double)(height - ypad2 - (long)e->depth * fh);
        } else {
            y1 = (double)(ypad1 + (o->subtitle ? ypad3 : 0) + (long)e->depth * fh);
            y2 = (double)(ypad1 + (o->subtitle ? ypad3 : 0) + ((long)e->depth + 1) * fh - framepad);
        }
        snprintf(samples, sizeof samples, "%.0f", etime - e->stime);
        commas(samples, samples_txt, sizeof samples_txt);
        if (name_n >= 4 && e->f[name_n - 4] == '_' && e->f[name_n - 3] == '[' && e->f[name_n - 1] == ']' &&
            strchr("kwij", e->f[name_n - 2]))
            name_n -= 4; /* the mark is not shown */
        fputs("<g>\n<title>", out);
        if (!e->fn && !e->depth) {
            fputs("all (", out);
            put_xml_str(out, samples_txt);
            putc(' ', out);
            put_xml_str(out, countname);
            fputs(", 100%)", out);
        } else {
            pct = 100 * strtod(samples, NULL) / g->time;
            put_xml(out, e->f, name_n);
            fputs(" (", out);
            put_xml_str(out, samples_txt);
            putc(' ', out);
            put_xml_str(out, countname);
            fprintf(out, ", %.2f%%", pct);
            if (e->has_delta) {
                double dp = 100 * e->delta / g->time;
                fprintf(out, "; %s%.2f%%", e->delta > 0 ? "+" : "", dp);
            }
            putc(')', out);
        }
        fputs("</title>", out);
        colour(e, o->hot, g->maxdelta, fill, sizeof fill);
        {
            double px1 = printed(x1, "%0.1f"), px2 = printed(x2, "%0.1f");
            fprintf(out, "<rect x=\"%0.1f\" y=\"%g\" width=\"%0.1f\" height=\"%0.1f\" fill=\"%s\" rx=\"2\" ry=\"2\"/>\n",
                    x1, y1, px2 - px1, y2 - y1, fill);
        }
        chars = (size_t)((x2 - x1) / (fontsize * fontwidth));
        fprintf(out, "<text x=\"%0.2f\" y=\"%g\">", x1 + 3, 3 + (y1 + y2) / 2);
        if (chars >= 3) {
            const char *shown = !e->fn && !e->depth ? "all" : e->f;
            size_t n = !e->fn && !e->depth ? 3 : name_n;
            if (chars < n) {
                put_xml(out, shown, chars - 2);
                fputs("..", out);
            } else {
                put_xml(out, shown, n);
            }
        }
        fputs("</text>\n</g>\n", out);
    }
    fputs("</g>\n</svg>\n", out);
    free((void *)v);
    return 0;
}

/* The SVG of a built graph to standard output; frees the graph */
static int finish(fg_opts *o, fg *g, size_t ignored, const char *what) {
    int rc = PD_EXIT_OK;
    if (ignored) {
        fprintf(stderr, "perfdata flamegraph: %s: %zu line%s left out: not \"STACK COUNT\"\n", what, ignored,
                ignored == 1 ? "" : "s");
        rc = PD_EXIT_PARTIAL;
    }
    if (!(g->time > 0)) {
        fprintf(stderr, "perfdata flamegraph: %s: no stacks with counts to draw\n", what);
        rc = PD_EXIT_ERROR;
    } else {
        write_svg(g, o, stdout);
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "perfdata flamegraph: writing the SVG: %s\n", strerror(errno));
        rc = PD_EXIT_ERROR;
    }
    free(g->nodes);
    free(g->slots);
    free(g->open);
    return rc;
}

static int draw(fg_opts *o, char *text, size_t n, const char *what) {
    fg g;
    char **owned = NULL;
    size_t nowned = 0, ignored, i;
    int rc;
    memset(&g, 0, sizeof g);
    ignored = build(&g, o, text, n, o->reverse, &owned, &nowned);
    rc = finish(o, &g, ignored, what);
    for (i = 0; i < nowned; i++) free(owned[i]);
    free((void *)owned);
    return rc;
}

/* collapse's stacks: drawn as they are (their frames are valid only
   now), or with --diff written as folded text */
static void on_stacks(void *ctx, const pd_folded_stack *st, size_t n) {
    fg_opts *o = (fg_opts *)ctx;
    size_t i, k;
    if (o->diff) {
        for (i = 0; i < n; i++) {
            for (k = 0; k < st[i].n; k++) {
                if (k) putc(';', o->mem);
                fputs(st[i].frames[k], o->mem);
            }
            fprintf(o->mem, " %llu\n", (unsigned long long)st[i].count);
        }
        return;
    }
    {
        fg g;
        size_t ignored;
        memset(&g, 0, sizeof g);
        ignored = build_stacks(&g, o, st, n, o->reverse);
        o->drawn = 1;
        o->draw_rc = finish(o, &g, ignored, "the profile");
    }
}

/* The worse of two statuses: an error, then a partial result */
static int worse(int a, int b) {
    if (a == PD_EXIT_ERROR || b == PD_EXIT_ERROR) return PD_EXIT_ERROR;
    if (a == PD_EXIT_PARTIAL || b == PD_EXIT_PARTIAL) return PD_EXIT_PARTIAL;
    return a != PD_EXIT_OK ? a : b;
}

/* One collapse pass: the folded text of the input it reads (o->text when
   the hook read folded text), or NULL with *rc its failure */
static char *folded_of(fg_opts *o, int argc, char **argv, int before, size_t *n, int *rc) {
    char *buf = NULL;
    FILE *mem;
    *n = 0;
    o->before_pass = before;
    o->read_rc = -1;
    o->ran = 0;
    if (!(mem = open_memstream(&buf, n))) pd_nomem();
    o->mem = mem;
    *rc = pd_collapse_run(&pd_flamegraph_command, argc, argv, flamegraph_option, o, 1, take_input, on_stacks, mem);
    if (fclose(mem) != 0) pd_nomem();
    o->mem = NULL;
    if (o->read_rc == -2) { /* folded text */
        free(buf);
        if (before && o->diff) { *n = o->before_n; buf = o->before; o->before = NULL; }
        else { *n = o->text_n; buf = o->text; o->text = NULL; }
        return buf;
    }
    if (!o->ran || (*rc != PD_EXIT_OK && *rc != PD_EXIT_PARTIAL)) { /* --help, a usage error, an unreadable profile */
        free(buf);
        return NULL;
    }
    return buf;
}

int pd_cmd_flamegraph(int argc, char **argv) {
    fg_opts o;
    char *after, *before, *merged;
    size_t after_n, before_n, merged_n, ignored;
    int rc, rc_before = PD_EXIT_OK;
    memset(&o, 0, sizeof o);
    o.minwidth = 0.1;
    /* the first pass reads FILE, or with --diff BEFORE (then a second FILE) */
    if (!(before = folded_of(&o, argc, argv, 1, &before_n, &rc_before))) return rc_before;
    if (o.drawn) { /* a profile, drawn from collapse's stacks */
        free(before);
        return worse(rc_before, o.draw_rc);
    }
    if (o.diff) {
        if (!(after = folded_of(&o, argc, argv, 0, &after_n, &rc))) { free(before); return rc; }
        merged = diff_text(&o, before, before_n, after, after_n, &merged_n, &ignored);
        free(before);
        free(after);
        if (ignored) {
            fprintf(stderr, "perfdata flamegraph: --diff: %zu line%s left out: not \"STACK COUNT\"\n", ignored,
                    ignored == 1 ? "" : "s");
            rc = worse(rc, PD_EXIT_PARTIAL);
        }
        rc = worse(worse(rc_before, rc), draw(&o, merged, merged_n, "the two profiles"));
        free(merged);
        return rc;
    }
    rc = worse(rc_before, draw(&o, before, before_n, o.read_rc == -2 ? "the folded stacks" : "the profile"));
    free(before);
    return rc;
}
