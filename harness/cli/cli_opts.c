/* SPDX-License-Identifier: GPL-2.0-only */
/* cli_opts.c — the table-driven command-line parser of every bench subcommand (cli_opts.h). */
#include "cli_opts.h"
#include "cli_help.h"
#include "nearest.h"
#include "runenv.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "gbshim.h"
#include "pb_config.h"
#include "pb_vcs.h"

int pb_cli_error(const pb_cli *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "bench %s: ", c->cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return -1;
}

int pb_cli_int(const pb_cli *c, const char *name, const char *value, long lo, long hi, int *out)
{
    char *end;
    long v = strtol(value, &end, 10);
    if (end == value || *end || v < lo || v > hi)
        return pb_cli_error(c, "--%s wants a whole number from %ld to %ld, got '%s'", name, lo, hi, value);
    *out = (int)v;
    return 0;
}

int pb_cli_run_id(const pb_cli *c, const char *name, const char *value, int allow_latest, int64_t *out)
{
    if (allow_latest && !strcmp(value, "latest")) { *out = 0; return 0; }
    char *end;
    long long v = strtoll(value, &end, 10);
    if (end == value || *end || v <= 0)
        return pb_cli_error(c, "--%s wants a run id%s, got '%s'", name, allow_latest ? " or 'latest'" : "", value);
    *out = v;
    return 0;
}

int64_t pb_cli_run_of(const char *value)
{
    return value && strcmp(value, "latest") ? strtoll(value, NULL, 10) : 0;
}

/* --sample-ms and the like: a number from o->lo to o->hi, stored times o->scale */
static int double_option(const pb_cli *c, const pb_cli_opt *o, const char *value, double *out)
{
    char *end;
    double x = strtod(value, &end);
    if (end == value || *end || !(x >= o->lo && x <= o->hi))
        return pb_cli_error(c, "--%s wants a number from %g to %g, got '%s'", o->name, o->lo, o->hi, value);
    *out = x * o->scale;
    return 0;
}

/* --revision, --label: stored and shown on terminals and in reports, so printable ASCII only, 1 to
 * PB_CLI_USER_TEXT_MAX characters, and not starting with '-' (git would read a revision so as an
 * option; a label so is a forgotten value). */
static int check_user_text(const pb_cli *c, const char *name, const char *v)
{
    size_t n = strlen(v);
    if (!n || n > PB_CLI_USER_TEXT_MAX)
        return pb_cli_error(c, "--%s wants 1 to %d characters, got %zu", name, PB_CLI_USER_TEXT_MAX, n);
    if (v[0] == '-') return pb_cli_error(c, "--%s '%s': a value cannot start with '-'", name, v);
    for (const unsigned char *p = (const unsigned char *)v; *p; p++)
        if (*p < 0x20 || *p >= 0x7f)
            return pb_cli_error(c, "--%s: character %zu is not printable ASCII (byte 0x%02x)", name,
                                (size_t)(p - (const unsigned char *)v) + 1, *p);
    return 0;
}

void pb_cli_version(FILE *f)
{
    fprintf(f, "bench (patchbench) %s, git %s\n", PB_VERSION, PB_VCS_SHA);
}

static void print_opt(FILE *f, const char *name, const char *arg, const char *help)
{
    char head[96];
    int n = snprintf(head, sizeof head, "  --%s%s%s", name, arg ? " " : "", arg ? arg : "");
    const int col = 24;
    fputs(head, f);
    if (n >= col - 1) { fputc('\n', f); n = 0; }
    const char *h = help ? help : "";
    for (;;) {
        size_t len = strcspn(h, "\n");
        fprintf(f, "%*s%.*s\n", col - n, "", (int)len, h);
        n = 0;
        if (!h[len]) break;
        h += len + 1;
    }
}

void pb_cli_help(FILE *f, const pb_cli *c, const char *as)
{
    if (pb_cli_help_other(f, c, as)) return;
    fputs(c->synopsis, f);
    fputs("\nOptions:\n", f);
    for (const pb_cli_opt *o = c->opts; o && o->name; o++)
        if (!o->internal) print_opt(f, o->name, o->arg, o->help);
    print_opt(f, "help", NULL, "this help");
    if (c->epilogue) fputs(c->epilogue, f);
    if (c->suite) {
        fprintf(f, "\nOptions of suite %s:\n", c->suite->name);
        if (!c->suite->options || !c->suite->options[0].name) fprintf(f, "  (none)\n");
        for (const pb_suite_opt *o = c->suite->options; o && o->name; o++)
            if (o->help) print_opt(f, o->name, o->arg, o->help);
    }
    if (c->more_help) c->more_help(f, c);
}

/* The suite named by argv[i] (--suite NAME or --suite=NAME), else NULL; *at: where the name is */
static const char *suite_named_at(int argc, char **argv, int i, int *at)
{
    if (!strcmp(argv[i], "--suite") && i + 1 < argc) return *at = i + 1, argv[i + 1];
    if (!strncmp(argv[i], "--suite=", 8)) return *at = i, argv[i] + 8;
    return NULL;
}

const char *pb_cli_suite_word(int argc, char **argv, int *at)
{
    const char *last = NULL;
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
        const char *name = suite_named_at(argc, argv, i, at);
        if (name) last = name;
    }
    return last;
}

int pb_cli_gb_init(int *argc, char **argv)
{
    enum { MAX_KEPT = 16 };   /* more than any suite declares: gbench has three */
    const char *keep[MAX_KEPT + 1] = {NULL};
    int at, k = 0;
    const char *word = pb_cli_suite_word(*argc, argv, &at);
    const pb_suite *s = word ? pb_suite_find(word) : NULL;
    for (const pb_suite_opt *o = s ? s->options : NULL; o && o->name && k < MAX_KEPT; o++)
        if (!strncmp(o->name, "benchmark_", 10)) keep[k++] = o->name;
    return pb_gb_init_keeping(argc, argv, keep);
}

int pb_cli_find_suite(const char *cmd, int argc, char **argv, const pb_suite **s)
{
    *s = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--")) break;
        int at;
        const char *name = suite_named_at(argc, argv, i, &at);
        if (!name) continue;
        if (!(*s = pb_suite_find(name))) {
            char why[700];
            fprintf(stderr, "bench %s: %s\n", cmd, pb_suite_unknown(why, sizeof why, name, ""));
            return 2;
        }
    }
    return 0;
}

/* The option named in argv[i] ("--name" or "--name=value"), as written, into buf. */
static const char *written_name(const char *arg, char *buf, size_t cap)
{
    if (strncmp(arg, "--", 2)) { snprintf(buf, cap, "%s", arg); return buf; }
    size_t n = strcspn(arg + 2, "=");
    snprintf(buf, cap, "%.*s", (int)(n < cap ? n : cap - 1), arg + 2);
    return buf;
}

static void append_suite_text(pb_cli *c, const char *name, const char *value)
{
    size_t n = strlen(c->suite_text);
    snprintf(c->suite_text + n, sizeof c->suite_text - n, "%s--%s%s%s", n ? " " : "", name, value ? "=" : "",
             value ? value : "");
}

/* getopt_long's value of the i-th option: above every character getopt returns itself */
enum { VAL0 = 1000 };

/* getopt_long's table: the command's options, then the suite's, then --help and --help-as (bench
 * help's: cli_opts.h); *nown: how many are
 * the command's own, *n: all of them. NULL when out of memory. */
static struct option *long_options(const pb_cli *c, size_t *nown, size_t *n)
{
    size_t nsuite = 0;
    *nown = 0;
    for (const pb_cli_opt *o = c->opts; o && o->name; o++) (*nown)++;
    for (const pb_suite_opt *o = c->suite ? c->suite->options : NULL; o && o->name; o++) nsuite++;
    struct option *lo = calloc(*nown + nsuite + 3, sizeof *lo);
    if (!lo) return NULL;
    size_t k = 0;
    for (size_t i = 0; i < *nown; i++)
        lo[k++] = (struct option){c->opts[i].name, c->opts[i].arg ? required_argument : no_argument, NULL,
                                  VAL0 + (int)i};
    for (size_t i = 0; i < nsuite; i++) {
        const pb_suite_opt *so = &c->suite->options[i];
        lo[k++] = (struct option){so->name, so->arg ? required_argument : no_argument, NULL, VAL0 + (int)(*nown + i)};
    }
    lo[k++] = (struct option){"help", no_argument, NULL, 'h'};
    lo[k++] = (struct option){"help-as", required_argument, NULL, 'H'};
    *n = k;
    return lo;
}

const char *pb_cli_nearest(const char *typed, const char *const *names, size_t n)
{
    return pb_nearest(typed, names, n);
}

/* ", did you mean --X?" for a mistyped long option name, nearest among the n getopt entries */
static void suggestion(const pb_cli *c, size_t nown, const char *name, const struct option *lo, size_t n,
                       char *out, size_t cap)
{
    const char *names[256];
    size_t k = 0;
    for (size_t i = 0; i < n && k < sizeof names / sizeof names[0]; i++)
        if (strcmp(lo[i].name, "help-as") && !(i < nown && c->opts[i].internal)) names[k++] = lo[i].name;
    const char *hit = pb_cli_nearest(name, names, k);
    if (hit) snprintf(out, cap, "did you mean --%s? ", hit);
    else out[0] = 0;
}

/* getopt's '?': a value given to a boolean, an option the suite or the command does not have */
static void unknown_option(const pb_cli *c, size_t nown, const struct option *lo, size_t n, const char *arg)
{
    char name[64];
    written_name(arg, name, sizeof name);
    const char *eq = strchr(arg, '=');
    int boolean = 0;
    for (size_t i = 0; i < n && !boolean; i++) boolean = lo[i].has_arg == no_argument && !strcmp(lo[i].name, name);
    char hint[96];
    suggestion(c, nown, name, lo, n, hint, sizeof hint);
    if (eq && boolean && !strncmp(arg, "--", 2))
        pb_cli_error(c, "--%s takes no value (got '%s')", name, eq + 1);   /* "--quick=no" */
    else if (c->suite && !strncmp(arg, "--", 2))
        pb_cli_error(c, "unknown option '--%s' for suite %s (%ssee bench %s --suite %s --help)", name, c->suite->name,
                     hint, c->cmd, c->suite->name);
    else
        pb_cli_error(c, "unknown option '%s%s' (%ssee bench %s --help)", strncmp(arg, "--", 2) ? "" : "--", name,
                     hint, c->cmd);
}

/* One of the command's own options: a typed entry writes its destination in c->ctx, any other
 * goes to on_opt. 0, or -1 after printing why. */
static int command_option(pb_cli *c, const pb_cli_opt *o, const char *value)
{
    char *dst = (char *)c->ctx + o->offset;
    switch (o->type) {
    case PB_CLI_STRING: memcpy(dst, &value, sizeof value); return 0;
    case PB_CLI_CLEAR: memset(dst, 0, sizeof(int)); return 0;
    case PB_CLI_FLAG: {
        const int one = 1;
        memcpy(dst, &one, sizeof one);
        return 0;
    }
    case PB_CLI_INT: {
        int v = 0;
        if (pb_cli_int(c, o->name, value, (long)o->lo, (long)o->hi, &v) < 0) return -1;
        memcpy(dst, &v, sizeof v);
        return 0;
    }
    case PB_CLI_DOUBLE: {
        double v = 0;
        if (double_option(c, o, value, &v) < 0) return -1;
        memcpy(dst, &v, sizeof v);
        return 0;
    }
    case PB_CLI_RUN: {
        int64_t id;
        if (pb_cli_run_id(c, o->name, value, 1, &id) < 0) return -1;
        memcpy(dst, &value, sizeof value);
        return 0;
    }
    case PB_CLI_CPU: {
        int cpu;
        pb_err e = {{0}};
        if (pb_cpu_parse(value, &cpu, &e) < 0) return pb_cli_error(c, "%s", e.msg);
        memcpy(dst, &value, sizeof value);
        return 0;
    }
    case PB_CLI_USER_TEXT:
        if (check_user_text(c, o->name, value) < 0) return -1;
        memcpy(dst, &value, sizeof value);
        return 0;
    default: return c->on_opt ? c->on_opt(c->ctx, o->id, value) : 0;
    }
}

/* The refusal of an option given twice: both values and, for a comma list, the one list to give. */
static int refuse_repeat(const pb_cli *c, const char *name, const char *arg, int list, const char *first,
                         const char *again)
{
    if (list)
        return pb_cli_error(c, "--%s given twice ('%s', then '%s'): give one comma-separated list, --%s %s,%s", name,
                            first, again, name, first, again);
    return pb_cli_error(c, "--%s given twice ('%s', then '%s'): give it once (--%s %s)", name, first, again, name,
                        arg ? arg : "");
}

/* One of the suite's options: set on the suite's options object, and recorded as given. One the
 * suite gives once (suite.h once_options) is refused the second time. */
static int suite_option(pb_cli *c, const char *name, const char *value)
{
    if (pb_suite_opt_once(c->suite, name))
        for (int i = 0; i < c->nsuite_given; i++)
            if (!strcmp(c->suite_given_name[i], name)) {
                const pb_suite_opt *o = pb_suite_opt_find(c->suite, name);
                /* a value like "a,b,..." or "LIST" says the option takes a comma list */
                const int list = o && o->arg && (strchr(o->arg, ',') || strstr(o->arg, "LIST"));
                return refuse_repeat(c, name, o ? o->arg : NULL, list, c->suite_given_value[i] ? c->suite_given_value[i] : "",
                                     value ? value : "");
            }
    pb_err e = {{0}};
    if (pb_suite_set_opt(c->suite, c->suite_opts, name, value, &e) < 0) return pb_cli_error(c, "%s", e.msg);
    append_suite_text(c, name, value);
    if (c->nsuite_given == PB_CLI_MAX_SUITE_GIVEN)
        return pb_cli_error(c, "more than %d suite options", PB_CLI_MAX_SUITE_GIVEN);
    c->suite_given_name[c->nsuite_given] = name;
    c->suite_given_value[c->nsuite_given++] = value;
    return 0;
}

/* A second use of an option that is given once: refused with both values, never the second
 * silently winning. *first holds the first value ("" for a boolean). 0, or -1 after printing. */
static int repeated(const pb_cli *c, const pb_cli_opt *o, const char **first, const char *value)
{
    const char *v = value ? value : "";
    if (!*first || o->repeat == PB_CLI_LAST) { *first = v; return 0; }
    return refuse_repeat(c, o->name, o->arg, o->repeat == PB_CLI_ONE_LIST, *first, v);
}

static int positional(pb_cli *c, const char *arg)
{
    if (!c->on_pos) return pb_cli_error(c, "unexpected argument '%s' (see bench %s --help)", arg, c->cmd);
    return c->on_pos(c->ctx, arg);
}

int pb_cli_parse(pb_cli *c, int argc, char **argv)
{
    size_t nown, k;
    struct option *lo = long_options(c, &nown, &k);
    if (!lo) return pb_cli_error(c, "out of memory"), 2;
    /* '-' first: non-options come back in order, as option 1;
     * ':' : a missing value is reported as ':' and not printed by getopt */
    int rc = 0, help = 0;
    const char *help_as = NULL;
    /* the first value of each of the command's own options, for a repeat's message */
    const char **first = calloc(nown + 1, sizeof *first);
    if (!first) { free(lo); return pb_cli_error(c, "out of memory"), 2; }
    opterr = 0;
    optind = 0;   /* GNU: start afresh (a test may parse twice) */
    while (rc == 0) {
        int idx = -1;
        const int prev = optind ? optind : 1;
        int ch = getopt_long(argc, argv, "-:h", lo, &idx);
        if (ch == -1) break;
        const char *arg = argv[prev < argc ? prev : argc - 1];   /* the option as written (no permutation) */
        char name[64];
        if (ch == 1) {   /* a non-option argument */
            if (positional(c, optarg) < 0) rc = 2;
            continue;
        }
        if (ch == 'h') { help = 1; continue; }
        if (ch == 'H') { help = 1; help_as = optarg; continue; }
        if (ch == ':') {
            pb_cli_error(c, "--%s needs a value", written_name(arg, name, sizeof name));
            rc = 2;
            break;
        }
        if (ch == '?') {
            unknown_option(c, nown, lo, k, arg);
            rc = 2;
            break;
        }
        /* getopt_long takes unambiguous abbreviations: bench does not, a typo must not pick an option */
        const size_t which = (size_t)(ch - VAL0);
        const struct option *hit = &lo[which];
        if (strcmp(written_name(arg, name, sizeof name), hit->name)) {
            pb_cli_error(c, "unknown option '%s%s' (did you mean --%s?)", strncmp(arg, "--", 2) ? "" : "--", name,
                         hit->name);
            rc = 2;
            break;
        }
        if (which < nown && repeated(c, &c->opts[which], &first[which], optarg) < 0) { rc = 2; break; }
        if (which < nown && c->on_seen && c->on_seen(c->ctx, &c->opts[which]) < 0) { rc = 2; break; }
        int r = which < nown ? command_option(c, &c->opts[which], optarg) : suite_option(c, hit->name, optarg);
        if (r < 0) rc = 2;
    }
    free(first);
    /* after "--" getopt stops: what follows is non-option words, never options */
    for (int i = optind; rc == 0 && i < argc; i++)
        if (positional(c, argv[i]) < 0) rc = 2;
    if (rc == 0 && help) {
        pb_cli_help(stdout, c, help_as);
        rc = 1;
    }
    free(lo);
    return rc;
}

void pb_cli_join(int argc, char **argv, char *out, size_t cap)
{
    size_t off = (size_t)snprintf(out, cap, "bench");
    for (int i = 0; i < argc && off < cap; i++) off += (size_t)snprintf(out + off, cap - off, " %s", argv[i]);
}

int pb_cli_apply_suite_opts(const pb_cli *c, const pb_suite *s, void *opts, pb_err *e)
{
    for (int i = 0; c && i < c->nsuite_given; i++) {
        int r = pb_suite_set_opt(s, opts, c->suite_given_name[i], c->suite_given_value[i], e);
        if (r < 0) return -1;
        if (r == 0) return pb_errf(e, "suite %s has no option --%s", s->name, c->suite_given_name[i]);
    }
    return 0;
}
