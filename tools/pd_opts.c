/* pd_opts.c - perf's command-line conventions for every subcommand. */
#include "pd_opts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { OPT_INPUT = -100, OPT_HELP, OPT_MAX_RATIO, OPT_QUEUE_SIZE, OPT_JOBS };

static const pd_opt common[] = {
    {'i', OPT_INPUT, "input", "FILE", "the profile (default ./perf.data; '-' is standard input)"},
    {'h', OPT_HELP, "help", NULL, "this help"},
    {0, 0, NULL, NULL, NULL},
};

pd_limits pd_limit = {4096, 64ull << 20, 0};

const pd_opt pd_ratio_opts[] = {
    {0, OPT_MAX_RATIO, "max-ratio", "N", "records in compressed chunks may expand at most N times (default 4096,\n"
     "                            about three times what perf's own files reach; 0: no bound)"},
    {0, 0, NULL, NULL, NULL},
};

const pd_opt pd_queue_opts[] = {
    {0, OPT_QUEUE_SIZE, "queue-size", "SIZE", "memory for time order, as 64M (the default) or 1G; when full, the\n"
     "                            queue is released early, as perf does (0: no bound)"},
    {'j', OPT_JOBS, "jobs", "N", "threads: 1 reads and processes in one; 2 or more reads ahead in a\n"
     "                            second one (the default for inputs of 16 MiB and more on 2 CPUs or\n"
     "                            more), and symbols and debug files in a third; 3 or more decompress -z\n"
     "                            chunks in N - 2 more, at most 8 (the default: CPUs - 2, at most 4); the\n"
     "                            output is the same"},
    {0, 0, NULL, NULL, NULL},
};

/* A limit's value: decimal digits, for a size a K, M or G suffix (of 1024). */
static int limit_value(const char *value, int suffix, unsigned long long max, unsigned long long *out) {
    unsigned long long v = 0, unit = 1;
    const char *p = value;
    if (!*p) return -1;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (v > (max - (unsigned)(*p - '0')) / 10) return -1;
        v = v * 10 + (unsigned)(*p - '0');
    }
    if (suffix && *p) {
        if (*p == 'K' || *p == 'k') unit = 1ull << 10;
        else if (*p == 'M' || *p == 'm') unit = 1ull << 20;
        else if (*p == 'G' || *p == 'g') unit = 1ull << 30;
        else return -1;
        p++;
    }
    if (*p || p == value || (unit > 1 && v > max / unit)) return -1;
    *out = v * unit;
    return 0;
}

static int take_limit(const pd_command *cmd, const pd_opt *o, const char *value) {
    unsigned long long v;
    if (!value) return -1; /* each takes a value: the parser gives one */
    if (o->id == OPT_MAX_RATIO) {
        if (limit_value(value, 0, 0xffffffffu, &v) != 0) {
            fprintf(stderr, "perfdata %s: --max-ratio wants a whole number up to 4294967295, not '%s'\n", cmd->name, value);
            return -1;
        }
        pd_limit.max_ratio = (unsigned long)v;
    } else if (o->id == OPT_JOBS) {
        if (limit_value(value, 0, 1024, &v) != 0 || v == 0) {
            fprintf(stderr, "perfdata %s: --jobs wants a number of threads from 1 to 1024, not '%s'\n", cmd->name, value);
            return -1;
        }
        pd_limit.jobs = (unsigned long)v;
    } else {
        if (limit_value(value, 1, ~0ull, &v) != 0) {
            fprintf(stderr, "perfdata %s: --queue-size wants a size such as 64M or 1G, not '%s'\n", cmd->name, value);
            return -1;
        }
        pd_limit.queue_bytes = v;
    }
    return 0;
}

static const pd_opt *find_long(const pd_command *cmd, const char *name, size_t len) {
    const pd_opt *const *t;
    const pd_opt *o;
    for (o = common; o->long_name; o++)
        if (strlen(o->long_name) == len && !strncmp(o->long_name, name, len)) return o;
    for (t = cmd->tables; t && *t; t++)
        for (o = *t; o->long_name; o++)
            if (strlen(o->long_name) == len && !strncmp(o->long_name, name, len)) return o;
    return NULL;
}

static const pd_opt *find_short(const pd_command *cmd, char c) {
    const pd_opt *const *t;
    const pd_opt *o;
    for (o = common; o->long_name; o++)
        if (o->short_name == c) return o;
    for (t = cmd->tables; t && *t; t++)
        for (o = *t; o->long_name; o++)
            if (o->short_name == c) return o;
    return NULL;
}

static int usage_error(const pd_command *cmd) {
    pd_opts_usage(cmd, stderr);
    return PD_EXIT_USAGE;
}

/* An input named (a bare argument or -i): kept in inputs, at most max. */
static int take_input(const pd_command *cmd, const char *value, const char **inputs, int max, int *n) {
    if (*n == max) {
        if (max == 1) fprintf(stderr, "perfdata %s: more than one input ('%s' and '%s')\n", cmd->name, inputs[0], value);
        else fprintf(stderr, "perfdata %s: more than %d inputs ('%s')\n", cmd->name, max, value);
        return usage_error(cmd);
    }
    inputs[(*n)++] = value;
    return -1;
}

/* One option with its value (NULL for a flag): the input, help, or the
   subcommand's handler. Returns -1 to go on, else the exit status. */
static int take(const pd_command *cmd, const pd_opt *o, const char *value, pd_opt_handler fn, void *ctx,
                const char **inputs, int max, int *n) {
    if (o->id == OPT_HELP) {
        pd_opts_usage(cmd, stdout);
        return PD_EXIT_OK;
    }
    if (o->id == OPT_INPUT) return take_input(cmd, value, inputs, max, n);
    if (o->id == OPT_MAX_RATIO || o->id == OPT_QUEUE_SIZE || o->id == OPT_JOBS) return take_limit(cmd, o, value) != 0 ? usage_error(cmd) : -1;
    if (fn(ctx, o->id, value) != 0) return usage_error(cmd);
    return -1;
}

int pd_opts_parse_inputs(const pd_command *cmd, int argc, char **argv, pd_opt_handler fn, void *ctx,
                         const char **inputs, int max, int *n) {
    int i, options_end = 0, rc;
    *n = 0;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (options_end || a[0] != '-' || !a[1]) { /* a bare argument; "-" is standard input */
            if ((rc = take_input(cmd, a, inputs, max, n)) >= 0) return rc;
        } else if (a[1] == '-' && !a[2]) {
            options_end = 1;
        } else if (a[1] == '-') {
            const char *name = a + 2, *eq = strchr(name, '=');
            size_t len = eq ? (size_t)(eq - name) : strlen(name);
            const pd_opt *o = find_long(cmd, name, len);
            const char *value = eq ? eq + 1 : NULL;
            if (!o) {
                fprintf(stderr, "perfdata %s: unknown option '--%.*s'\n", cmd->name, (int)len, name);
                return usage_error(cmd);
            }
            if (!o->arg && value) {
                fprintf(stderr, "perfdata %s: option '--%s' takes no value\n", cmd->name, o->long_name);
                return usage_error(cmd);
            }
            if (o->arg && !value) {
                if (i + 1 >= argc) {
                    fprintf(stderr, "perfdata %s: option '--%s' needs a value (%s)\n", cmd->name, o->long_name, o->arg);
                    return usage_error(cmd);
                }
                value = argv[++i];
            }
            if ((rc = take(cmd, o, value, fn, ctx, inputs, max, n)) >= 0) return rc;
        } else {
            const char *p;
            for (p = a + 1; *p; p++) { /* grouped short options: -nv, -iFILE, -i FILE */
                const pd_opt *o = find_short(cmd, *p);
                const char *value = NULL;
                if (!o) {
                    fprintf(stderr, "perfdata %s: unknown option '-%c'\n", cmd->name, *p);
                    return usage_error(cmd);
                }
                if (o->arg) {
                    if (p[1]) value = p + 1;
                    else if (i + 1 < argc) value = argv[++i];
                    else {
                        fprintf(stderr, "perfdata %s: option '-%c' needs a value (%s)\n", cmd->name, *p, o->arg);
                        return usage_error(cmd);
                    }
                }
                if ((rc = take(cmd, o, value, fn, ctx, inputs, max, n)) >= 0) return rc;
                if (value) break;
            }
        }
    }
    return -1;
}

int pd_opts_parse(const pd_command *cmd, int argc, char **argv, pd_opt_handler fn, void *ctx, const char **input) {
    struct stat st;
    int n, rc = pd_opts_parse_inputs(cmd, argc, argv, fn, ctx, input, 1, &n);
    if (rc >= 0) return rc;
    if (!n) /* as perf: a pipe on standard input, else ./perf.data */
        *input = fstat(STDIN_FILENO, &st) == 0 && S_ISFIFO(st.st_mode) ? "-" : "perf.data";
    return -1;
}

/* Names are the tables' own short words; the precisions only bound them
   for the compiler's truncation check. */
static void opt_text(const pd_opt *o, char *buf, size_t len) {
    if (o->arg) snprintf(buf, len, "[--%.60s %.40s]", o->long_name, o->arg);
    else if (o->short_name && strlen(o->long_name) > 3) snprintf(buf, len, "[--%.100s]", o->long_name);
    else if (o->short_name) snprintf(buf, len, "[-%c]", o->short_name);
    else snprintf(buf, len, "[--%.100s]", o->long_name);
}

void pd_opts_synopsis(const pd_command *cmd, FILE *to, int indent, int width) {
    const pd_opt *const *t;
    const pd_opt *o;
    char buf[128];
    const char *operands;
    int col = indent;
    for (t = cmd->tables; t && *t; t++)
        for (o = *t; o->long_name; o++) {
            int n;
            if (!o->help) continue;
            opt_text(o, buf, sizeof buf);
            n = (int)strlen(buf);
            if (col > indent && col + 1 + n > width) { fprintf(to, "\n%*s", indent, ""); col = indent; }
            if (col > indent) { fputc(' ', to); col++; }
            fputs(buf, to);
            col += n;
        }
    operands = cmd->operands ? cmd->operands : "[FILE]";
    if (col > indent && col + 1 + (int)strlen(operands) > width) { fprintf(to, "\n%*s", indent, ""); col = indent; }
    fprintf(to, "%s%s\n", col > indent ? " " : "", operands);
}

static void opt_help(const pd_opt *o, FILE *to) {
    char buf[128];
    if (o->short_name) snprintf(buf, sizeof buf, "-%c, --%s%s%s", o->short_name, o->long_name, o->arg ? " " : "", o->arg ? o->arg : "");
    else snprintf(buf, sizeof buf, "    --%s%s%s", o->long_name, o->arg ? " " : "", o->arg ? o->arg : "");
    if (strlen(buf) > 24) fprintf(to, "  %s\n  %24s  %s\n", buf, "", o->help);
    else fprintf(to, "  %-24s  %s\n", buf, o->help);
}

void pd_opts_usage(const pd_command *cmd, FILE *to) {
    const pd_opt *const *t;
    const pd_opt *o;
    int indent = (int)strlen("usage: perfdata  ") + (int)strlen(cmd->name);
    fprintf(to, "usage: perfdata %s [-i FILE] ", cmd->name);
    pd_opts_synopsis(cmd, to, indent, 100);
    fputs(cmd->description, to);
    for (o = common; o->long_name; o++) opt_help(o, to);
    for (t = cmd->tables; t && *t; t++)
        for (o = *t; o->long_name; o++) {
            if (!o->help) continue;
            opt_help(o, to);
            /* aliases follow the option they stand for */
            if (o[1].long_name && !o[1].help && o[1].id == o->id) {
                char text[80];
                pd_opt alias = o[1];
                snprintf(text, sizeof text, "the same as --%s", o->long_name);
                alias.help = text;
                opt_help(&alias, to);
            }
        }
}

int pd_make_dir(const char *dir, const char *who) {
    size_t len = strlen(dir), i;
    struct stat st;
    char *p;
    int rc = 0;
    if (stat(dir, &st) == 0) {
        if (S_ISDIR(st.st_mode)) return 0;
        fprintf(stderr, "perfdata %s: %s: %s\n", who, dir, strerror(ENOTDIR));
        return -1;
    }
    if (!(p = malloc(len + 1))) return -1;
    memcpy(p, dir, len + 1);
    for (i = 1; i <= len && !rc; i++) {
        if (p[i] != '/' && p[i]) continue;
        p[i] = 0;
        if (mkdir(p, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "perfdata %s: cannot create %s: %s\n", who, p, strerror(errno));
            rc = -1;
        } else if (stat(p, &st) != 0 || !S_ISDIR(st.st_mode)) {
            fprintf(stderr, "perfdata %s: cannot create %s: %s\n", who, dir, strerror(ENOTDIR));
            rc = -1;
        }
        p[i] = i < len ? '/' : 0;
    }
    free(p);
    return rc;
}
