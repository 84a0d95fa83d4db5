/* collapse.c - `perfdata collapse`: folded stacks for flame graphs
   (flamegraph.pl, inferno, speedscope), one line per distinct stack:
   "comm;outermost;...;innermost count", as `perf script |
   stackcollapse-perf.pl` gives them. Frames come from the sample's
   callchain (context markers switch between kernel and user symbols, as in
   perf), or the sample ip alone when there is no callchain. */
#include "perfdata.h"
#include "pd_filter.h"
#include "pd_opts.h"
#include "pd_state.h"
#include "pd_sym.h"
#include "pd_text.h"
#include "pd_tool.h"
#include "pd_unwind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A distinct stack: its frames as interned strings, root first. Equal
   text is the same pointer, so stacks are compared as pointer arrays and
   joined into text only once, for the output. */
typedef struct stack_count { const char **frames; size_t n; uint64_t hash, count; } stack_count;

/* Callchains repeat the same addresses over and over: a direct-mapped
   cache of frames (keyed by the state of the address space, cpu mode and
   ip) saves the map, ELF and kallsyms lookups and the tidying; `text` is
   interned. The state is pd_state_stamp's: a frame found before an MMAP
   that changed its process's maps is looked up anew. */
#define FRAME_CACHE_SIZE 65536     /* 1 << 16: cached_frame takes 16 bits */
typedef struct frame_space {
    uint64_t stamp[2];           /* pd_state_stamp */
    unsigned cpumode;
    uint64_t hash;               /* of the three */
} frame_space;
/* perf script resolves at most this many entries of a call chain, the
   innermost (scripting_max_stack, PERF_MAX_STACK_DEPTH); context markers
   do not count */
#define PD_MAX_STACK 127
typedef struct frame_cache {
    uint64_t ip;
    frame_space space;
    const char *text;            /* NULL: an empty entry */
} frame_cache;

typedef struct collapse_ctx {
    pd_session *s;
    pd_state st;
    pd_symbolizer sym;
    stack_count *table;          /* open addressing on the frame pointers */
    size_t n, cap;
    pd_intern strings;           /* frame texts: equal text, one pointer */
    int annotate_kernel;         /* --kernel: "_[k]" after kernel frames */
    int annotate_jit;            /* --jit: "_[j]" after frames in /tmp/perf-PID.map */
    int annotate_inlined;        /* --mark-inlined: "_[i]" after inlined frames */
    int with_pid;                /* --pid: "comm-pid" as the root */
    int use_period;              /* --period: weigh by period, not samples */
    pd_filter filter;
    const char *event_name;      /* --event, or the first sample's event */
    long event;                  /* its index; -1 until known */
    int other_events;            /* samples of other events were left out */
    uint64_t total;              /* what the folded samples add up to (--percent-limit) */
    char *buf, *ebuf;            /* scratch text; its escaped form */
    size_t buflen, ebuflen;
    const char **key;            /* the stack being built */
    size_t capkey;
    frame_cache *cache;
    uint64_t key_seed;           /* keys the caches' slots (the hash seed's second half) */
    uint64_t dwarf_samples;      /* samples with a user stack dump of an architecture not unwound */
    const char **unwound;        /* a sample's unwound user frames */
    size_t capunwound;
    struct unwound_cache *ucache; /* an unwound address's frames (inlined ones included), by
                                   (address space generation, ip): a cache as frame_cache */
    const char **utexts;         /* their texts, ucache's entries' runs one after another */
    size_t nutexts, caputexts;
    unsigned ucache_forgot;      /* the symbolizer's forgot when they were filled */
    struct pending_frame *pending; /* frames whose names wait for the read-ahead thread */
    size_t npending;
    uint32_t *pslots;            /* 1 + their index, open addressing on their key */
    size_t *asked;               /* the unwound ones among them, in the order asked */
    size_t nasked, answered;     /* answered: those of asked whose texts are known */
    const char **ptexts;         /* their texts: each pending frame's run */
    size_t nptexts, capptexts;
    size_t kernel_pending;       /* kernel frames not yet answered */
    int no_defer;                /* the pending frames reached their bound: names are waited for */
    /* root text by (interned comm, pid): snprintf and tidying once each */
    struct { const char *comm, *root; int32_t pid; } roots[256];
} collapse_ctx;

/* realloc or abort; never of size 0, which may free and return NULL */
static void *grow(void *p, size_t n, size_t size) {
    void *q = realloc(p, n && size ? n * size : 1);
    if (!q) pd_nomem();
    return q;
}

/* malloc or abort (gcc 12's analyzer misreads realloc(NULL, n) repeated) */
static void *alloc(size_t n, size_t size) {
    void *q = malloc(n && size ? n * size : 1);
    if (!q) pd_nomem();
    return q;
}

/* The one copy of a text. */
static const char *intern(collapse_ctx *c, const char *text) { return pd_intern_str(&c->strings, text); }

/* The frames are interned: their pointers are the stack's identity. A
   multiply-xor chain from a keyed start (so that which stacks collide
   depends on the seed), finished by the keyed mix (so that the bucket
   bits depend on every bit): a sample's worth of SipHash would cost more
   than the rest of its folding. */
static uint64_t hash_frames(const char *const *f, size_t n) {
    uint64_t h;
    size_t i;
    if (!pd_hash_keyed) pd_hash_make_key();
    h = pd_hash_key[1] ^ n;
    for (i = 0; i < n; i++) h = (h ^ (uint64_t)(uintptr_t)f[i]) * 0x9E3779B97F4A7C15ull;
    return pd_hash_u64(h);
}

static void table_add(collapse_ctx *c, const char **frames, size_t n, uint64_t count) {
    uint64_t h = hash_frames(frames, n);
    size_t i;
    if ((c->n + 1) * 2 > c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 4096, j;
        stack_count *t = calloc(cap, sizeof *t);
        if (!t) pd_nomem();
        for (j = 0; j < c->cap; j++) {
            if (!c->table[j].frames) continue;
            for (i = c->table[j].hash & (cap - 1); t[i].frames; i = (i + 1) & (cap - 1)) {}
            t[i] = c->table[j];
        }
        free(c->table);
        c->table = t;
        c->cap = cap;
    }
    for (i = h & (c->cap - 1); c->table[i].frames; i = (i + 1) & (c->cap - 1)) {
        stack_count *e = &c->table[i];
        if (e->hash == h && e->n == n && !memcmp(e->frames, frames, n * sizeof *frames)) { e->count += count; return; }
    }
    c->table[i].frames = alloc(n, sizeof *frames);
    memcpy(c->table[i].frames, frames, n * sizeof *frames);
    c->table[i].n = n;
    c->table[i].hash = h;
    c->table[i].count = count;
    c->n++;
}

/* Room for n bytes and a NUL in the scratch text. */
static void reserve(collapse_ctx *c, size_t n) {
    if (n + 1 > c->buflen) {
        c->buflen = (n + 1) * 2;
        c->buf = grow(c->buf, c->buflen, 1);
    }
}

/* The interned frame of c->buf[0..n): as it is, or, when it holds control
   characters, with them as \xHH (pd_text), so that no name can end a
   folded line or drive a terminal. A frame is escaped once, when it is
   interned: the stacks hold the result. */
static const char *intern_frame(collapse_ctx *c, size_t n) {
    c->buf[n] = 0;
    if (pd_text_clean(c->buf, n)) return intern(c, c->buf);
    if (4 * n + 1 > c->ebuflen) {
        c->ebuflen = 4 * n + 1;
        c->ebuf = grow(c->ebuf, c->ebuflen, 1);
    }
    pd_escape(c->ebuf, c->ebuflen, c->buf, n);
    return intern(c, c->ebuf);
}

/* stackcollapse-perf.pl's tidying: ';' would split a frame; what follows
   the first '(' (but "(anonymous namespace)") is dropped unless the name
   looks like a Go method ("pkg.(*T).M"); quotes are dropped. Returns the
   interned result. */
static const char *tidy_frame(collapse_ctx *c, const char *name, const char *suffix) {
    size_t i, pos = 0;
    const char *open = strstr(name, ".("), *go = open ? strstr(open + 2, ").") : NULL;
    reserve(c, strlen(name) + strlen(suffix));
    for (i = 0; name[i]; i++) {
        char ch = name[i];
        if (!go && ch == '(' && strncmp(name + i, "(anonymous namespace)", 21) != 0) break;
        if (ch == '"' || ch == '\'') continue;
        c->buf[pos++] = ch == ';' ? ':' : ch;
    }
    for (i = 0; suffix[i]; i++) c->buf[pos++] = suffix[i];
    return intern_frame(c, pos);
}

/* The frame stackcollapse-perf.pl makes of the line perf script prints for
   an address, "SYMBOL (OBJECT)": the script splits that line at its last
   " (" (so an object like "/memfd:x (deleted)" splits inside the object);
   an unresolved symbol becomes the object's base name in brackets
   ("[libc.so.6]", "[[vdso]]", "[unknown]" when the object is unknown too);
   --kernel marks frames whose object starts with '[' or ends in vmlinux,
   --jit those whose object is a /tmp/perf-PID.map, --mark-inlined the
   inlined frames of unwound stacks (perf script's "(inlined)" lines), in
   that order of precedence, as stackcollapse-perf.pl does. */
static const char *line_text(collapse_ctx *c, const char *sym, const char *mod, int inlined);

/* A frame whose name waits for what the read-ahead thread (pd_sym_prefetch)
   is still reading: the kernel's symbols, or an unwound address's object's
   debug information (its inlined frames). The walk goes on without it:
   the stacks hold the pending frame's address in place of a text, and its
   texts replace it at the end. Unwound ones are asked in the order they
   came, as soon as their object is read, and every later one after them
   (the answers depend on the order: pd_sym_inlines_wait). Bounded: past
   PENDING_MAX, the rest are waited for, as without the thread. */
#ifndef PENDING_MAX
#define PENDING_MAX 8192 /* a power of two; a build for the tests sets a small one, so that it is reached */
#endif
typedef struct pending_frame {
    pd_resolved r;
    uint64_t ip;
    uint64_t key[2];             /* what its texts depend on: (object, address) */
    int unwound;                 /* else a kernel address */
    int done;
    size_t first, n;             /* its texts in ptexts, once known */
} pending_frame;

static int is_pending(const collapse_ctx *c, const char *f) {
    uintptr_t a = (uintptr_t)f, lo = (uintptr_t)c->pending;
    return c->pending && a >= lo && a < lo + PENDING_MAX * sizeof *c->pending;
}

static size_t inline_texts(collapse_ctx *c, const pd_resolved *r, const char **out);

static void pending_answer(collapse_ctx *c, pending_frame *p) {
    const char *one, **out = &one;
    if (p->done) return;
    if (p->unwound) {
        if (c->nptexts + PD_SYM_INLINES_MAX > c->capptexts) {
            c->capptexts = (c->nptexts + PD_SYM_INLINES_MAX) * 2;
            c->ptexts = grow((void *)c->ptexts, c->capptexts, sizeof *c->ptexts);
        }
        p->first = c->nptexts;
        p->n = inline_texts(c, &p->r, c->ptexts + c->nptexts);
    } else {
        pd_sym_kernel_finish(&c->sym, p->ip, &p->r);
        *out = line_text(c, p->r.sym ? p->r.sym : "[unknown]", p->r.kernel || !p->r.dso_path ? p->r.dso : p->r.dso_path, 0);
        if (c->nptexts + 1 > c->capptexts) {
            c->capptexts = (c->nptexts + 1) * 2 + 64;
            c->ptexts = grow((void *)c->ptexts, c->capptexts, sizeof *c->ptexts);
        }
        p->first = c->nptexts;
        c->ptexts[c->nptexts] = one;
        p->n = 1;
    }
    c->nptexts += p->n;
    p->done = 1;
    if (!p->unwound) c->kernel_pending--;
}

/* The kernel frames, once the kernel's symbols are read; the frame cache
   gives their texts from then on */
static void answer_kernel(collapse_ctx *c) {
    size_t i;
    if (pd_sym_kernel_waits(&c->sym)) return;
    for (i = 0; i < c->npending && c->kernel_pending; i++)
        if (!c->pending[i].unwound) pending_answer(c, &c->pending[i]);
    for (i = 0; c->cache && i < FRAME_CACHE_SIZE; i++)
        if (c->cache[i].text && is_pending(c, c->cache[i].text) && !((const pending_frame *)(const void *)c->cache[i].text)->unwound)
            c->cache[i].text = c->ptexts[((const pending_frame *)(const void *)c->cache[i].text)->first];
}

/* The unwound frames asked so far, in order: those whose object has been
   read (all, with wait) */
static void answer_unwound(collapse_ctx *c, int wait) {
    while (c->answered < c->nasked) {
        pending_frame *p = &c->pending[c->asked[c->answered]];
        if (!wait && pd_sym_inlines_wait(&c->sym, &p->r)) return;
        pending_answer(c, p);
        c->answered++;
    }
}

static void answer_all(collapse_ctx *c) {
    size_t i;
    answer_unwound(c, 1);
    for (i = 0; i < c->npending; i++) pending_answer(c, &c->pending[i]);
}

/* The pending frame for r: the one already made for its object and
   address (asked again, pd_sym_inlines would answer from its cache), or a
   new one; NULL past the bound (every one is then answered, and names are
   waited for from now on) */
static pending_frame *pending_new(collapse_ctx *c, const pd_resolved *r, uint64_t ip, int unwound) {
    pending_frame *p;
    uint64_t key[2];
    size_t slot;
    if (!c->pending) {
        c->pending = alloc(PENDING_MAX, sizeof *c->pending);
        c->asked = alloc(PENDING_MAX, sizeof *c->asked);
        if (!(c->pslots = calloc(2 * PENDING_MAX, sizeof *c->pslots))) pd_nomem();
    }
    /* an unwound address's texts are those of its object and address in
       it; a kernel address's, of its object's name and the address */
    key[0] = unwound ? (uint64_t)r->dso_index : (uint64_t)(uintptr_t)(r->kernel || !r->dso_path ? r->dso : r->dso_path);
    key[1] = unwound ? r->vaddr : ip;
    for (slot = (size_t)pd_hash_u64(key[0] * 0x9E3779B97F4A7C15ull ^ key[1] ^ (uint64_t)unwound) & (2 * PENDING_MAX - 1);
         c->pslots[slot]; slot = (slot + 1) & (2 * PENDING_MAX - 1)) {
        p = &c->pending[c->pslots[slot] - 1];
        if (p->unwound == unwound && p->key[0] == key[0] && p->key[1] == key[1]) return p;
    }
    if (c->npending == PENDING_MAX) {
        answer_all(c);
        c->no_defer = 1;
        return NULL;
    }
    p = &c->pending[c->npending];
    c->pslots[slot] = (uint32_t)c->npending + 1;
    p->r = *r;
    p->ip = ip;
    p->key[0] = key[0];
    p->key[1] = key[1];
    p->unwound = unwound;
    p->done = 0;
    p->first = p->n = 0;
    if (unwound) c->asked[c->nasked++] = c->npending;
    else c->kernel_pending++;
    c->npending++;
    return p;
}

/* The stacks with every pending frame's texts in its place (stacks that
   differed only by pending frames become one). Few hold one (those
   folded before the names came): they leave the table, whose other
   entries are put back in place (linear probing: each cluster after an
   empty slot, entry by entry), and come back with their texts. */
static void pending_replace(collapse_ctx *c) {
    stack_count *moved = NULL;
    size_t nmoved = 0, capmoved = 0, i, j, k, m, room = 0, start, mask = c->cap - 1;
    const char **v = NULL;
    answer_all(c);
    if (!c->npending || !c->cap) return;
    for (i = 0; i < c->cap; i++) {
        stack_count *e = &c->table[i];
        if (!e->frames) continue;
        for (k = 0; k < e->n && !is_pending(c, e->frames[k]); k++) {}
        if (k == e->n) continue;
        if (nmoved == capmoved) {
            capmoved = capmoved ? capmoved * 2 : 256;
            moved = grow(moved, capmoved, sizeof *moved);
        }
        moved[nmoved++] = *e;
        e->frames = NULL;
        c->n--;
    }
    if (!nmoved) return;
    for (start = 0; c->table[start].frames; start++) {} /* an empty slot: the table is at most half full */
    for (i = 1; i <= c->cap; i++) {
        stack_count e = c->table[(start + i) & mask];
        if (!e.frames) continue;
        c->table[(start + i) & mask].frames = NULL;
        for (j = e.hash & mask; c->table[j].frames; j = (j + 1) & mask) {}
        c->table[j] = e;
    }
    for (i = 0; i < nmoved; i++) {
        const stack_count *e = &moved[i];
        for (k = 0, m = 0; k < e->n; k++) m += is_pending(c, e->frames[k]) ? ((const pending_frame *)(const void *)e->frames[k])->n : 1;
        if (!v || m > room) {
            room = m * 2 + 16;
            v = grow((void *)v, room, sizeof *v);
        }
        for (k = 0, m = 0; k < e->n; k++) {
            const pending_frame *p = is_pending(c, e->frames[k]) ? (const pending_frame *)(const void *)e->frames[k] : NULL;
            if (!p) v[m++] = e->frames[k];
            else /* the run is innermost first; the stack, root first */
                for (j = p->n; j > 0; j--) v[m++] = c->ptexts[p->first + j - 1];
        }
        table_add(c, v, m, e->count);
        free((void *)e->frames);
    }
    free((void *)v);
    free(moved);
}

static const char *frame_text(collapse_ctx *c, pd_thread *t, unsigned cpumode, uint64_t ip) {
    pd_resolved r;
    c->sym.defer_kernel = !c->no_defer;
    pd_sym_resolve(&c->sym, &c->st, t, cpumode, ip, &r);
    c->sym.defer_kernel = 0;
    if (r.ksym_pending) {
        pending_frame *p = pending_new(c, &r, ip, 0);
        if (p) return (const char *)(void *)p;
        pd_sym_kernel_finish(&c->sym, ip, &r);
    }
    /* perf script's object: the dso's name, the kernel's and modules' in brackets */
    return line_text(c, r.sym ? r.sym : "[unknown]", r.kernel || !r.dso_path ? r.dso : r.dso_path, 0);
}

/* "/tmp/perf-" digits ".map" somewhere in the n bytes at p */
static int jit_map(const char *p, size_t n) {
    size_t i, k;
    for (i = 0; i + 10 <= n; i++) {
        if (memcmp(p + i, "/tmp/perf-", 10) != 0) continue;
        for (k = i + 10; k < n && p[k] >= '0' && p[k] <= '9'; k++) continue;
        if (k > i + 10 && n - k >= 4 && !memcmp(p + k, ".map", 4)) return 1;
    }
    return 0;
}

/* The frame of a line "SYM (MOD)" of perf script's */
static const char *line_text(collapse_ctx *c, const char *sym, const char *mod, int inlined) {
    char line[1200], func[1200];
    const char *split = NULL, *p;
    size_t n;
    int kernel;
    snprintf(line, sizeof line, "%s (%s)", sym, mod);
    for (p = line; (p = strstr(p, " (")) != NULL; p++) split = p;
    n = split ? (size_t)(split - line) : strlen(line);
    memcpy(func, line, n);
    func[n] = 0;
    mod = split ? split + 2 : "";
    n = strlen(mod);
    if (n && mod[n - 1] == ')') n--; /* the object, without the closing parenthesis */
    if (!strcmp(func, "[unknown]")) {
        char obj[1100];
        const char *base;
        snprintf(obj, sizeof obj, "%.*s", (int)n, mod);
        base = strrchr(obj, '/');
        base = base ? base + 1 : obj;
        if (!strcmp(obj, "[unknown]")) snprintf(func, sizeof func, "[unknown]");
        else snprintf(func, sizeof func, "[%s]", base);
    }
    kernel = n && (mod[0] == '[' || (n >= 7 && !strncmp(mod + n - 7, "vmlinux", 7))) && !strstr(mod, "unknown");
    if (c->annotate_inlined && inlined) return tidy_frame(c, func, strstr(func, "_[i]") ? "" : "_[i]");
    if (c->annotate_kernel && kernel) return tidy_frame(c, func, "_[k]");
    if (c->annotate_jit && jit_map(mod, n)) return tidy_frame(c, func, strstr(func, "_[j]") ? "" : "_[j]");
    return tidy_frame(c, func, "");
}

/* The space's part of a frame's slot: its stamps, cpu mode and the seed
   (the cache is keyed by the seed's second half; cached_frame mixes). */
static inline void space_of(collapse_ctx *c, pd_thread *t, unsigned cpumode, frame_space *sp) {
    pd_state_stamp(&c->st, t, cpumode, sp->stamp);
    sp->cpumode = cpumode;
    sp->hash = c->key_seed ^ sp->stamp[0] << 24 ^ sp->stamp[1] << 44 ^ cpumode;
}

/* The slot: the top bits of a product, which every bit of ip reaches, of
   ip and the keyed hash of its space. A cache, not a table: a collision
   costs one lookup again, so the full mix is not worth its time per frame. */
static const char *cached_frame(collapse_ctx *c, pd_thread *t, const frame_space *sp, uint64_t ip) {
    frame_cache *e = &c->cache[((ip ^ sp->hash) * 0x9E3779B97F4A7C15ull) >> (64 - 16)];
    if (e->text && e->ip == ip && e->space.stamp[0] == sp->stamp[0] && e->space.stamp[1] == sp->stamp[1] &&
        e->space.cpumode == sp->cpumode)
        return e->text;
    e->text = frame_text(c, t, sp->cpumode, ip);
    e->ip = ip;
    e->space = *sp;
    return e->text;
}

/* The root: the command name (comm-pid with --pid), spaces as underscores
   like the script, which tidies nothing else of it; a ';' is a ':', as in
   the frames, so that the root stays one frame. comm is interned by
   pd_state, so its pointer is a key. */
static const char *root_text(collapse_ctx *c, const char *comm, int32_t pid, int32_t tid) {
    size_t slot, k, n;
    if (!c->with_pid) pid = 0;
    else if (tid == 0) pid = -1; /* "comm-?" (cached apart from pid 0) */
    /* a cache, as the frames': the top bits of a keyed product */
    slot = (size_t)((((uint64_t)(uintptr_t)comm ^ c->key_seed) * 0x9E3779B97F4A7C15ull ^ (uint32_t)pid) *
                    0xC2B2AE3D27D4EB4Full >> 56);
    if (c->roots[slot].comm == comm && c->roots[slot].pid == pid && c->roots[slot].root) return c->roots[slot].root;
    n = strlen(comm);
    reserve(c, n + 16);
    memcpy(c->buf, comm, n);
    /* the script reads "comm PID/TID" and takes a TID of 0 (Perl's false)
       as absent, so the idle thread's pid is "?" */
    if (c->with_pid && tid == 0) n += (size_t)snprintf(c->buf + n, 16, "-?");
    else if (c->with_pid) n += (size_t)snprintf(c->buf + n, 16, "-%d", (int)pid);
    for (k = 0; k < n; k++) {
        if (c->buf[k] == ' ') c->buf[k] = '_';
        else if (c->buf[k] == ';') c->buf[k] = ':';
    }
    c->roots[slot].comm = comm;
    c->roots[slot].pid = pid;
    c->roots[slot].root = intern_frame(c, n);
    return c->roots[slot].root;
}

/* --call-graph dwarf: the user frames unwound from the sample's
   registers and stack copy, with perf's inlined frames, innermost first,
   as frames in c->unwound; how many */
static int unwinds(const collapse_ctx *c, const perfdata_sample *s) { return pd_sym_unwinds(s, c->s->arch); }
/* An unwound address's frames depend on the address space (its maps'
   generation) and the address alone, as long as the symbolizer keeps its
   answers by address: cached like the call chains' frames, each entry a
   run of texts in c->utexts. When the texts reach their bound, or the
   symbolizer forgets, everything is dropped and filled again. */
#define UNWOUND_CACHE_BITS 14
#define UNWOUND_TEXTS_MAX ((size_t)1 << 18)
typedef struct unwound_cache { uint64_t gen, ip; size_t first, n; } unwound_cache;

static size_t inline_texts(collapse_ctx *c, const pd_resolved *r, const char **out) {
    static pd_sym_inline in[PD_SYM_INLINES_MAX];
    size_t ni = pd_sym_inlines(&c->sym, r, in, PD_SYM_INLINES_MAX), k;
    if (!ni) {
        out[0] = line_text(c, r->sym ? r->sym : "[unknown]", r->kernel || !r->dso_path ? r->dso : r->dso_path, 0);
        return 1;
    }
    for (k = 0; k < ni; k++) /* perf script's line of an inlined frame ends in "(inlined)" */
        out[k] = strcmp(in[k].name, r->sym) ? line_text(c, in[k].name, "inlined", 1)
                                            : line_text(c, r->sym, r->kernel || !r->dso_path ? r->dso : r->dso_path, 0);
    return ni;
}

static size_t unwound_frames(collapse_ctx *c, pd_thread *t, uint64_t ip, const char **out) {
    pd_resolved r;
    pd_sym_resolve(&c->sym, &c->st, t, PERFDATA_MISC_USER, ip, &r);
    /* no object, or no address in it: pd_sym_inlines has nothing to read */
    if (!c->no_defer && r.dso_index && r.have_vaddr && (c->answered < c->nasked || pd_sym_inlines_wait(&c->sym, &r))) {
        pending_frame *p = pending_new(c, &r, ip, 1);
        if (p) {
            out[0] = (const char *)(void *)p;
            return 1;
        }
    }
    return inline_texts(c, &r, out);
}

/* room for n texts in *v (of *cap), grown as needed: most stacks are a
   few dozen frames, and the bounds are megabytes */
static void texts_room(const char ***v, size_t *cap, size_t n) {
    if (n <= *cap) return;
    *cap = n > *cap * 2 ? n : *cap * 2;
    *v = (const char **)grow((void *)*v, *cap, sizeof **v);
}

static size_t unwind(collapse_ctx *c, pd_thread *t, const perfdata_sample *s) {
    uint64_t ips[PD_MAX_STACK];
    size_t n = pd_sym_unwind(&c->sym, &c->st, t, s, c->s->arch, ips, PD_MAX_STACK), i, out = 0;
    uint64_t gen = t && t->maps ? t->maps->gen : 0;
    if (!c->ucache) {
        if (!(c->ucache = calloc((size_t)1 << UNWOUND_CACHE_BITS, sizeof *c->ucache))) pd_nomem();
        c->ucache_forgot = c->sym.forgot;
    }
    for (i = 0; i < n; i++) {
        unwound_cache *e;
        size_t got;
        texts_room(&c->unwound, &c->capunwound, out + PD_SYM_INLINES_MAX); /* what one address gives at most */
        if (!gen) {
            out += unwound_frames(c, t, ips[i], c->unwound + out);
            continue;
        }
        e = &c->ucache[((ips[i] ^ gen * 0xC2B2AE3D27D4EB4Full ^ c->key_seed) * 0x9E3779B97F4A7C15ull) >>
                       (64 - UNWOUND_CACHE_BITS)];
        if (e->gen == gen && e->ip == ips[i] && c->ucache_forgot == c->sym.forgot) {
            memcpy(c->unwound + out, c->utexts + e->first, e->n * sizeof *c->utexts);
            out += e->n;
            continue;
        }
        got = unwound_frames(c, t, ips[i], c->unwound + out);
        if (c->nutexts + got > UNWOUND_TEXTS_MAX || c->ucache_forgot != c->sym.forgot) {
            memset(c->ucache, 0, ((size_t)1 << UNWOUND_CACHE_BITS) * sizeof *c->ucache);
            c->nutexts = 0;
            c->ucache_forgot = c->sym.forgot;
        }
        if (got <= UNWOUND_TEXTS_MAX) {
            texts_room(&c->utexts, &c->caputexts, c->nutexts + got);
            memcpy(c->utexts + c->nutexts, c->unwound + out, got * sizeof *c->utexts);
            e->gen = gen;
            e->ip = ips[i];
            e->first = c->nutexts;
            e->n = got;
            c->nutexts += got;
        }
        out += got;
    }
    return out;
}

static void on_sample(collapse_ctx *c, const perfdata_record *rec, const perfdata_sample *s) {
    pd_thread *t = pd_state_thread(&c->st, (int32_t)s->pid, (int32_t)s->tid);
    unsigned cpumode = rec->misc & PERFDATA_MISC_CPUMODE_MASK;
    size_t nf, i, depth, unwound;
    frame_space sp;
    const char *comm = pd_state_comm(&c->st, t);
    size_t nr = (s->sample_type & PERFDATA_SAMPLE_CALLCHAIN) ? s->callchain.count : 0;
    if (nr + 2 > c->capkey) {
        c->capkey = (nr + 2) * 2;
        c->key = grow((void *)c->key, c->capkey, sizeof *c->key);
    }
    if (!c->cache) {
        if (!(c->cache = calloc(FRAME_CACHE_SIZE, sizeof *c->cache))) pd_nomem();
        pd_hash_u64(0); /* draws the seed */
        c->key_seed = pd_hash_key[1];
    }
    if (c->answered < c->nasked) answer_unwound(c, 0);
    if (c->kernel_pending) answer_kernel(c);
    unwound = unwinds(c, s) ? unwind(c, t, s) : 0;
    if (nr + unwound + 2 > c->capkey) {
        c->capkey = (nr + unwound + 2) * 2;
        c->key = grow((void *)c->key, c->capkey, sizeof *c->key);
    }
    if ((s->sample_type & PERFDATA_SAMPLE_STACK_USER) && (s->sample_type & PERFDATA_SAMPLE_CALLCHAIN) &&
        s->stack_user.n && !unwinds(c, s))
        c->dwarf_samples++;
    /* frames fill the key from its end, so it reads root first */
    nf = c->capkey;
    space_of(c, t, cpumode, &sp);
    if (!nr && !unwound) c->key[--nf] = cached_frame(c, t, &sp, s->ip);
    for (i = 0, depth = 0; i < nr && depth < PD_MAX_STACK; i++) {
        uint64_t ip = perfdata_u64s_at(&s->callchain, i);
        if (ip >= PERFDATA_CONTEXT_MAX) { /* a context marker: the frames after it are in this mode */
            if (ip == PERFDATA_CONTEXT_KERNEL) cpumode = PERFDATA_MISC_KERNEL;
            else if (ip == PERFDATA_CONTEXT_USER) cpumode = PERFDATA_MISC_USER;
            else if (ip == PERFDATA_CONTEXT_HV) cpumode = PERFDATA_MISC_HYPERVISOR;
            else { /* perf 6.1 (add_callchain_ip): "the callchain is corrupted", none of it is shown */
                nf = c->capkey;
                break;
            }
            if (cpumode != sp.cpumode) space_of(c, t, cpumode, &sp);
            continue;
        }
        c->key[--nf] = cached_frame(c, t, &sp, ip);
        depth++;
    }
    /* the user frames unwound from the stack copy, after the kernel's */
    for (i = 0; i < unwound && nf > 1; i++) c->key[--nf] = c->unwound[i];
    c->key[--nf] = root_text(c, comm, (int32_t)s->pid, (int32_t)s->tid);
    table_add(c, c->key + nf, c->capkey - nf, c->use_period ? s->period : 1);
    c->total += c->use_period ? s->period : 1;
}

/* One event's samples, as stackcollapse-perf.pl folds them: --event's, or
   else the first sample's; and the filters, which drop a sample when its
   own address (the leaf) is in another object or symbol, as perf script
   leaves out the samples perf marks filtered. */
static int keep_sample(collapse_ctx *c, const perfdata_record *rec, const perfdata_sample *s) {
    unsigned cpumode = rec->misc & PERFDATA_MISC_CPUMODE_MASK;
    /* perf script leaves out guest samples when it keeps no guest machine */
    if (cpumode == PERFDATA_MISC_GUEST_KERNEL || cpumode == PERFDATA_MISC_GUEST_USER) return 0;
    if (c->event < 0 && c->event_name) { /* a pipe names its events as they come */
        const char *e = pd_event_name(c->s, (size_t)s->event);
        size_t n = strlen(c->event_name);
        if (strcmp(e, c->event_name) != 0 && (strncmp(e, c->event_name, n) != 0 || e[n] != ':')) return 0;
    }
    if (c->event >= 0 && s->event != c->event) {
        c->other_events = 1;
        return 0;
    }
    if (c->filter.active) {
        pd_thread *t = pd_state_thread(&c->st, (int32_t)s->pid, (int32_t)s->tid);
        pd_resolved r;
        const char *name = pd_state_comm(&c->st, t);
        if (!pd_filter_sample(&c->filter, s)) return 0;
        pd_sym_resolve(&c->sym, &c->st, t, cpumode, s->ip, &r);
        if (!pd_filter_entry(&c->filter, name, (int32_t)s->pid, (int32_t)s->tid, r.dso, r.dso_path, r.sym)) return 0;
    }
    if (c->event < 0) c->event = s->event;
    return 1;
}

static void on_record(void *ctx, const perfdata_record *rec, const char *name) {
    collapse_ctx *c = (collapse_ctx *)ctx;
    perfdata_sample s;
    perfdata_error err;
    (void)name;
    if (rec->type != PERFDATA_RECORD_SAMPLE) {
        pd_state_update(&c->st, c->s->file, rec);
        pd_sym_record(&c->sym, rec);
        return;
    }
    if (perfdata_decode_sample(c->s->file, rec, &s, &err) != PERFDATA_OK) pd_session_skip(c->s, rec, &err);
    else if (keep_sample(c, rec, &s)) on_sample(c, rec, &s);
}

/* A stack read as its text, "outer;...;inner", a character at a time:
   stacks are sorted by their text without building it (the texts of every
   stack at once would take as much memory as the output). */
typedef struct joined { const stack_count *e; size_t frame; const unsigned char *p; } joined;

static int joined_next(joined *j) {
    for (;;) {
        if (j->frame >= j->e->n) return -1; /* the end: before any character, as strcmp's NUL */
        if (!j->p) j->p = (const unsigned char *)j->e->frames[j->frame];
        if (*j->p) return *j->p++;
        j->p = NULL;
        if (++j->frame < j->e->n) return ';';
    }
}

static int by_text(const void *pa, const void *pb) {
    joined a, b;
    size_t i = 0;
    a.e = *(const stack_count *const *)pa;
    b.e = *(const stack_count *const *)pb;
    /* frames are interned: the same pointer is the same text, and stacks
       share long roots; the text is read from the first frame that differs
       (both have the same separators before it) */
    while (i < a.e->n && i < b.e->n && a.e->frames[i] == b.e->frames[i]) i++;
    if (i < a.e->n && i < b.e->n) { /* most often the first frames that differ decide */
        const unsigned char *x = (const unsigned char *)a.e->frames[i], *y = (const unsigned char *)b.e->frames[i];
        while (*x && *x == *y) { x++; y++; }
        if (*x && *y) return *x < *y ? -1 : 1;
    }
    a.frame = b.frame = i;
    a.p = b.p = NULL;
    for (;;) {
        int ca = joined_next(&a), cb = joined_next(&b);
        if (ca != cb) return ca < cb ? -1 : 1;
        if (ca < 0) return 0;
    }
}

/* "root;outer;...;inner count" per stack, sorted by text. */
static void print_stacks(collapse_ctx *c, FILE *out) {
    const stack_count **v = alloc(c->n ? c->n : 1, sizeof *v); /* NOLINT(bugprone-sizeof-expression): pointers */
    size_t i, j, n = 0;
    for (i = 0; i < c->cap; i++)
        if (c->table[i].frames) v[n++] = &c->table[i];
    size_t cap = 4096;
    char *line = (char *)alloc(cap, 1);
    qsort(v, n, sizeof *v, by_text); /* NOLINT(bugprone-sizeof-expression): pointers */
    for (i = 0; i < n; i++) {
        size_t at = 0;
        if (!pd_filter_percent(&c->filter, v[i]->count, c->total)) continue;
        /* the line built whole, then written once (a write per frame is
           most of the time when stacks are deep) */
        for (j = 0; j < v[i]->n; j++) {
            size_t len = strlen(v[i]->frames[j]);
            if (at + len + 32 > cap) {
                cap = (at + len + 32) * 2;
                line = (char *)grow(line, cap, 1);
            }
            if (j) line[at++] = ';';
            memcpy(line + at, v[i]->frames[j], len);
            at += len;
        }
        if (at + 32 > cap) {
            cap = at + 32;
            line = (char *)grow(line, cap, 1);
        }
        at += (size_t)snprintf(line + at, cap - at, " %llu\n", (unsigned long long)v[i]->count);
        fwrite(line, 1, at, out);
    }
    free(line);
    free(v);
}

enum { COLLAPSE_KERNEL = 1, COLLAPSE_WITH_PID, COLLAPSE_PERIOD, COLLAPSE_KALLSYMS, COLLAPSE_SYMFS, COLLAPSE_SYMDIR,
       COLLAPSE_EVENT, COLLAPSE_NO_DEMANGLE, COLLAPSE_INLINE, COLLAPSE_NO_INLINE, COLLAPSE_JIT, COLLAPSE_ALL,
       COLLAPSE_MARK_INLINED };

const pd_opt pd_collapse_opts[] = {
    {0, COLLAPSE_KERNEL, "kernel", NULL, "mark kernel frames with _[k]"},
    {0, COLLAPSE_JIT, "jit", NULL, "mark frames of /tmp/perf-PID.map (JIT code) with _[j]"},
    {0, COLLAPSE_ALL, "all", NULL, "--kernel and --jit (stackcollapse-perf.pl's --all)"},
    {0, COLLAPSE_MARK_INLINED, "mark-inlined", NULL, "mark inlined frames with _[i]"},
    {0, COLLAPSE_WITH_PID, "with-pid", NULL, "root each stack at comm-pid (stackcollapse-perf.pl's --pid)"},
    {0, COLLAPSE_PERIOD, "period", NULL, "count periods instead of samples"},
    {0, COLLAPSE_EVENT, "event", "NAME", "fold this event's samples (its name as perf prints it, with or without\n"
     "                            the :modifiers); default: the first sample's event, as stackcollapse-perf.pl"},
    {0, COLLAPSE_KALLSYMS, "kallsyms", "FILE", "kernel symbols (default /proc/kallsyms when recorded on this host)"},
    {0, COLLAPSE_SYMFS, "symfs", "DIR", "look for binaries under DIR first"},
    {0, COLLAPSE_SYMDIR, "symdir", "DIR", "any ELF below DIR with the recorded build id"},
    {0, COLLAPSE_NO_DEMANGLE, "no-demangle", NULL, "C++ and Rust names as the binary has them (perf's --no-demangle)"},
    {0, COLLAPSE_INLINE, "inline", NULL, "inlined functions as frames of --call-graph dwarf stacks (the default)"},
    {0, COLLAPSE_NO_INLINE, "no-inline", NULL, "no inlined frames"},
    {0, 0, NULL, NULL, NULL},
};
const pd_opt *const pd_collapse_tables[] = {pd_collapse_opts, pd_filter_opts, pd_ratio_opts, pd_queue_opts, NULL};
const pd_command pd_collapse_command = {
    "collapse", "folded stacks for flame graphs",
    "  Folded stacks (comm;outer;...;inner count) for flamegraph.pl, inferno, speedscope, of one\n"
    "  event. The filters drop a sample by its own address; --percent-limit leaves out stacks\n"
    "  under N% of the folded total.\n", pd_collapse_tables, NULL};

typedef struct collapse_args {
    collapse_ctx *c;
    const char *kallsyms, *symfs, *symdir;
    pd_opt_handler more;                 /* the options of a command built on collapse (their ids
                                            from PD_COLLAPSE_MORE up) */
    void *more_ctx;
} collapse_args;

static int collapse_option(void *ctx, int id, const char *value) {
    collapse_args *a = (collapse_args *)ctx;
    if (id >= PD_COLLAPSE_MORE && a->more) return a->more(a->more_ctx, id, value);
    switch (id) {
    case COLLAPSE_KERNEL: a->c->annotate_kernel = 1; break;
    case COLLAPSE_JIT: a->c->annotate_jit = 1; break;
    case COLLAPSE_ALL: a->c->annotate_kernel = a->c->annotate_jit = 1; break;
    case COLLAPSE_MARK_INLINED: a->c->annotate_inlined = 1; break;
    case COLLAPSE_WITH_PID: a->c->with_pid = 1; break;
    case COLLAPSE_PERIOD: a->c->use_period = 1; break;
    case COLLAPSE_EVENT: a->c->event_name = value; break;
    case COLLAPSE_KALLSYMS: a->kallsyms = value; break;
    case COLLAPSE_SYMFS: a->symfs = value; break;
    case COLLAPSE_SYMDIR: a->symdir = value; break;
    case COLLAPSE_NO_DEMANGLE: pd_sym_demangle = 0; break;
    case COLLAPSE_INLINE: pd_sym_inline_frames = 1; break;
    case COLLAPSE_NO_INLINE: pd_sym_inline_frames = 0; break;
    default: return pd_filter_set(&a->c->filter, id, value, "collapse");
    }
    return 0;
}

/* --event NAME: the event perf names NAME, or NAME:modifiers. */
static long find_event(pd_session *s, const char *name) {
    size_t i, n = strlen(name);
    for (i = 0; i < s->file->nr_events; i++) {
        const char *e = pd_event_name(s, i);
        if (!strcmp(e, name) || (!strncmp(e, name, n) && e[n] == ':')) return (long)i;
    }
    return -1;
}

/* Says that no event has the name --event gave, and which ones there are
   (names from the file, escaped). */
static void no_such_event(pd_session *s, const char *want) {
    char name[1024];
    size_t i;
    fprintf(stderr, "perfdata collapse: no event named '%s'; the file has:", pd_escaped(name, sizeof name, want));
    for (i = 0; i < s->file->nr_events; i++) fprintf(stderr, " %s", pd_escaped(name, sizeof name, pd_event_name(s, i)));
    fprintf(stderr, "\n");
}

/* The stacks (after --percent-limit) to a command built on collapse */
static void give_stacks(collapse_ctx *c, pd_collapse_sink sink, void *ctx) {
    pd_folded_stack *v = alloc(c->n ? c->n : 1, sizeof *v);
    size_t i, n = 0;
    for (i = 0; i < c->cap; i++) {
        if (!c->table[i].frames || !pd_filter_percent(&c->filter, c->table[i].count, c->total)) continue;
        v[n].frames = c->table[i].frames;
        v[n].n = c->table[i].n;
        v[n].count = c->table[i].count;
        n++;
    }
    sink(ctx, v, n);
    free(v);
}

int pd_collapse_run(const pd_command *cmd, int argc, char **argv, pd_opt_handler more, void *more_ctx, int marks,
                    pd_collapse_input_fn input, pd_collapse_sink sink, FILE *out) {
    static collapse_ctx c;
    pd_session s;
    const char *path = NULL, *kallsyms, *symfs, *symdir;
    size_t i;
    int rc;
    char name[1024];
    collapse_args args;
    memset(&c, 0, sizeof c); /* static for its size; a second run starts afresh */
    memset(&args, 0, sizeof args);
    args.c = &c;
    args.more = more;
    args.more_ctx = more_ctx;
    c.event = -1;
    c.annotate_kernel = c.annotate_jit = c.annotate_inlined = marks;
    if ((rc = pd_opts_parse(cmd, argc, argv, collapse_option, &args, &path)) >= 0) return rc;
    if (input && (rc = input(more_ctx, &path)) >= 0) return rc;
    kallsyms = args.kallsyms; symfs = args.symfs; symdir = args.symdir;
    if (pd_session_open_flags(&s, path, PERFDATA_READ_ORDERED) != 0) return 1;
    if (pd_filter_prepare(&c.filter, s.file, "collapse") != 0) { pd_session_close(&s); return PD_EXIT_ERROR; }
    if (c.event_name && !(s.file->flags & PERFDATA_FILE_PIPE) && (c.event = find_event(&s, c.event_name)) < 0) {
        no_such_event(&s, c.event_name);
        pd_session_close(&s);
        return PD_EXIT_ERROR;
    }
    c.s = &s;
    pd_state_init(&c.st);
    pd_sym_init(&c.sym, s.file);
    c.sym.kallsyms_path = kallsyms;
    c.sym.search.symfs = symfs;
    c.sym.search.symdir = symdir;
    pd_sym_prefetch(&c.sym, 2);
    rc = pd_session_walk_ordered(&s, on_record, &c);
    if (c.event_name && c.event < 0 && find_event(&s, c.event_name) < 0) { /* a pipe: known only now */
        no_such_event(&s, c.event_name);
        rc = PD_EXIT_ERROR;
    }
    if (c.other_events && !c.event_name) /* stackcollapse-perf.pl says so too */
        fprintf(stderr, "perfdata collapse: folding the samples of event %s only (--event NAME for another)\n",
                pd_escaped(name, sizeof name, pd_event_name(&s, (size_t)c.event)));
    pending_replace(&c);
    if (sink) give_stacks(&c, sink, more_ctx);
    else print_stacks(&c, out);
    if (c.dwarf_samples)
        fprintf(stderr, "perfdata: %s: %llu samples carry a user stack dump (--call-graph dwarf) of an architecture not "
                        "unwound (x86-64, aarch64 and arm are), so their user frames are the sampled ip and any frame-pointer chain "
                        "only\n",
                path, (unsigned long long)c.dwarf_samples);
    rc = pd_session_finish(&s, rc);
    for (i = 0; i < c.cap; i++) free((void *)c.table[i].frames);
    free(c.table);
    pd_intern_free(&c.strings);
    free(c.buf);
    free(c.ebuf);
    free((void *)c.key);
    free((void *)c.unwound);
    free(c.ucache);
    free((void *)c.utexts);
    free(c.cache);
    free(c.pending);
    free(c.asked);
    free(c.pslots);
    free((void *)c.ptexts);
    pd_sym_free(&c.sym);
    pd_state_free(&c.st);
    pd_filter_free(&c.filter);
    pd_session_close(&s);
    return rc;
}

int pd_cmd_collapse(int argc, char **argv) {
    return pd_collapse_run(&pd_collapse_command, argc, argv, NULL, NULL, 0, NULL, NULL, stdout);
}
