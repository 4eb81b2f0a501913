/* SPDX-License-Identifier: GPL-2.0-only */
/* suite_gbench.c — two builds of any Google Benchmark binary, old vs new.
 *
 *   bench run --suite gbench --old PATH --new PATH [--filter REGEX] [--min-time S]
 *       [--benchmark_filter=REGEX] [--benchmark_min_time=S] [--benchmark_min_warmup_time=S]
 *
 * Both binaries list their benchmarks (--benchmark_list_tests); each benchmark both have is a
 * cell (variant = its name, op "run"), with impls old and new. One sample = one process:
 *   PATH --benchmark_filter=^NAME$ --benchmark_min_time=S --benchmark_format=json
 * whose own timing (GB's real_time and cpu_time over its iterations) is stored (ns_per_op and
 * cpu_ns, both gateable); GB's flags above are this suite's options (bench keeps its other
 * --benchmark_* flags for its own Google Benchmark, as for any suite); the harness
 * alternates old and new round by round with a rotating start, as for any suite, so that the
 * ratio, verdicts, reports and `bench gate` work on these samples unchanged. Processes are
 * started with posix_spawn and an argv: no shell sees a path or a name. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pb_spawn.h"
#include "suite.h"

#define GB_PATH_MAX 1024
#define GB_FILTER_MAX 512

typedef struct gb_opts {
    char old_path[GB_PATH_MAX], new_path[GB_PATH_MAX];
    char filter[GB_FILTER_MAX];
    double min_time;               /* seconds, GB's --benchmark_min_time */
    double timeout_s;              /* --timeout; 0: the defaults below */
    char warmup_arg[64];           /* --benchmark_min_warmup_time=S for each sample, "" when not given */
    /* the option that set filter and min_time (NULL: none yet): --filter and --benchmark_filter
     * are one choice, and two different values of it are refused, never the second winning */
    const char *filter_by, *min_time_by;
} gb_opts;

/* Listing the tests is instant for a GB binary; a sample is one process that runs one benchmark
 * for about min_time after GB's own estimate: generous, short of forever. */
#define GB_LIST_LIMIT_S 60.0
#define GB_SAMPLE_LIMIT_S 60.0

static void opts_init(void *p)
{
    ((gb_opts *)p)->min_time = 0.05;
}

static int set_path(char *dst, const char *opt, const char *value, pb_err *e)
{
    if (!*value) return pb_errf(e, "--%s needs the path of a Google Benchmark binary", opt);
    if (strlen(value) >= GB_PATH_MAX) return pb_errf(e, "--%s: path too long", opt);
    if (access(value, X_OK) != 0) return pb_errf(e, "--%s: %s: not an executable file: %s", opt, value, strerror(errno));
    snprintf(dst, GB_PATH_MAX, "%s", value);
    return 0;
}

static int set_old(void *o, const char *v, pb_err *e) { return set_path(((gb_opts *)o)->old_path, "old", v, e); }
static int set_new(void *o, const char *v, pb_err *e) { return set_path(((gb_opts *)o)->new_path, "new", v, e); }

static int filter_as(gb_opts *o, const char *opt, const char *v, pb_err *e)
{
    if (strlen(v) >= GB_FILTER_MAX) return pb_errf(e, "--%s: at most %d characters", opt, GB_FILTER_MAX - 1);
    if (o->filter_by && strcmp(o->filter, v))
        return pb_errf(e, "--%s '%s': --%s '%s' already chose the benchmarks (give one)", opt, v, o->filter_by,
                       o->filter);
    snprintf(o->filter, GB_FILTER_MAX, "%s", v);
    o->filter_by = opt;
    return 0;
}
static int set_filter(void *o, const char *v, pb_err *e) { return filter_as(o, "filter", v, e); }
static int set_gb_filter(void *o, const char *v, pb_err *e) { return filter_as(o, "benchmark_filter", v, e); }

/* Seconds from lo to hi, a trailing "s" allowed as GB's own flags have it ("0.5s"). */
static int seconds(const char *opt, const char *v, double lo, double hi, double *out, pb_err *e)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (*end == 's' && end != v) end++;
    if (end == v || *end || errno || !(x >= lo && x <= hi))
        return pb_errf(e, "--%s wants seconds from %g to %g, got '%s'", opt, lo, hi, v);
    *out = x;
    return 0;
}

static int min_time_as(gb_opts *o, const char *opt, const char *v, pb_err *e)
{
    double x = 0;
    if (seconds(opt, v, 0.001, 60, &x, e) < 0) return -1;
    if (o->min_time_by && x != o->min_time)
        return pb_errf(e, "--%s %s: --%s already set %g s (give one)", opt, v, o->min_time_by, o->min_time);
    o->min_time = x;
    o->min_time_by = opt;
    return 0;
}
static int set_min_time(void *o, const char *v, pb_err *e) { return min_time_as(o, "min-time", v, e); }
static int set_gb_min_time(void *o, const char *v, pb_err *e) { return min_time_as(o, "benchmark_min_time", v, e); }

static int set_gb_warmup(void *o, const char *v, pb_err *e)
{
    double x = 0;
    if (seconds("benchmark_min_warmup_time", v, 0, 60, &x, e) < 0) return -1;
    snprintf(((gb_opts *)o)->warmup_arg, sizeof ((gb_opts *)o)->warmup_arg, "--benchmark_min_warmup_time=%g", x);
    return 0;
}

static int set_timeout(void *o, const char *v, pb_err *e)
{
    return pb_parse_timeout(v, &((gb_opts *)o)->timeout_s, e);
}

static const pb_suite_opt options[] = {
    {"old", "PATH", "the baseline build of a Google Benchmark binary", set_old},
    {"new", "PATH", "the candidate build of the same benchmarks", set_new},
    {"filter", "REGEX", "only the benchmarks matching REGEX (GB's --benchmark_filter)", set_filter},
    {"min-time", "S", "GB's --benchmark_min_time for one sample, in seconds (default 0.05)", set_min_time},
    /* GB's own spelling of the three, as a user of the binary types them: kept out of bench's own
     * Google Benchmark (pb_cli_gb_init) and handed to the binaries measured */
    {"benchmark_filter", "REGEX", "the same as --filter", set_gb_filter},
    {"benchmark_min_time", "S", "the same as --min-time (\"0.5s\" too)", set_gb_min_time},
    {"benchmark_min_warmup_time", "S", "passed to every sample's process: GB's warm-up before it times", set_gb_warmup},
    {"timeout", "S", "a process past S seconds is killed and fails its cases (default: 60 s to list\n"
                     "the tests, 60 s or 100 x --min-time, the larger, a sample)", set_timeout},
    {NULL, NULL, NULL, NULL},
};

/* Run argv[0] with argv, killed past limit_s; its stdout in *out (malloc'd, NUL-terminated). -1 +
 * e, with the start of its stderr, if it cannot start, dies, exits non-zero, runs past the limit or
 * writes too much. Messages name prog and its first argument arg (argv may put valgrind first). */
static int run_capture_as(const char *prog, const char *arg, char *const argv[], double limit_s, char **out, pb_err *e)
{
    pb_proc p;
    char what[GB_PATH_MAX + 64];
    snprintf(what, sizeof what, "gbench: %s %s", prog, arg ? arg : "");
    pb_err se = {{0}};
    if (pb_spawn(argv, out, limit_s, &p, &se) < 0) return pb_errf(e, "gbench: %s", se.msg);
    if (pb_proc_check(what, &p, e) < 0) {
        free(*out);
        return -1;
    }
    return 0;
}

static int run_capture(char *const argv[], double limit_s, char **out, pb_err *e)
{
    return run_capture_as(argv[0], argv[1], argv, limit_s, out, e);
}

/* The benchmark names a binary lists, one per line, into a malloc'd array (n in *n). */
static int list_tests(const char *path, const char *filter, double limit_s, char ***names, int *n, pb_err *e)
{
    char farg[GB_FILTER_MAX + 32];
    snprintf(farg, sizeof farg, "--benchmark_filter=%s", filter);
    char *argv[] = {(char *)path, "--benchmark_list_tests=true", *filter ? farg : NULL, NULL};
    char *out;
    if (run_capture(argv, limit_s, &out, e) < 0) return -1;
    int cap = 16;
    *n = 0;
    *names = malloc((size_t)cap * sizeof **names);
    for (char *save = NULL, *t = strtok_r(out, "\n", &save); t && *names; t = strtok_r(NULL, "\n", &save)) {
        if (*n == cap) {
            char **nn = realloc(*names, (size_t)(cap *= 2) * sizeof **names);
            if (!nn) break;
            *names = nn;
        }
        if (!((*names)[*n] = strdup(t))) break;
        ++*n;
    }
    free(out);
    return *names ? 0 : pb_errf(e, "gbench: out of memory");
}

static void free_names(char **names, int n)
{
    for (int i = 0; i < n && names; i++) free(names[i]);
    free(names);
}

static int has_name(char **names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], name)) return 1;
    return 0;
}

static int plan(void *opts, const pb_plan_opts *po, pb_grid *g, pb_err *e)
{
    const gb_opts *o = opts;
    (void)po;
    if (!o->old_path[0] || !o->new_path[0])
        return pb_errf(e, "gbench: give both --old PATH and --new PATH (two builds of a Google Benchmark binary)");
    char **on = NULL, **nn = NULL;
    int no = 0, nnew = 0, rc = 0;
    double list_limit = o->timeout_s > 0 ? o->timeout_s : GB_LIST_LIMIT_S;
    if (list_tests(o->old_path, o->filter, list_limit, &on, &no, e) < 0 ||
        list_tests(o->new_path, o->filter, list_limit, &nn, &nnew, e) < 0)
        rc = -1;
    g->ncells = 0;
    g->cells = rc == 0 ? calloc((size_t)(no ? no : 1), sizeof *g->cells) : NULL;
    if (rc == 0 && !g->cells) rc = pb_errf(e, "gbench: out of memory");
    for (int i = 0; rc == 0 && i < no; i++) {
        if (!has_name(nn, nnew, on[i])) {
            fprintf(stderr, "bench: gbench: warning: %s is only in --old (%s): not run\n", on[i], o->old_path);
            continue;
        }
        if (strlen(on[i]) >= PB_NAME_MAX) {
            rc = pb_errf(e, "gbench: benchmark name '%s' is longer than %d characters (narrow with --filter)", on[i],
                         PB_NAME_MAX - 1);
            break;
        }
        pb_cell *c = &g->cells[g->ncells++];
        snprintf(c->variant, sizeof c->variant, "%s", on[i]);
        snprintf(c->op, sizeof c->op, "run");
        c->nimpls = 2;
        snprintf(c->impls[0], PB_NAME_MAX, "old");
        snprintf(c->impls[1], PB_NAME_MAX, "new");
    }
    for (int i = 0; rc == 0 && i < nnew; i++)
        if (!has_name(on, no, nn[i]))
            fprintf(stderr, "bench: gbench: warning: %s is only in --new (%s): not run\n", nn[i], o->new_path);
    if (rc == 0 && g->ncells == 0)
        rc = pb_errf(e, "gbench: %s and %s have no benchmark in common%s", o->old_path, o->new_path,
                     o->filter[0] ? " that matches --filter" : "");
    free_names(on, no);
    free_names(nn, nnew);
    if (rc < 0) {   /* the harness frees the grid of a plan that succeeded only */
        free(g->cells);
        g->cells = NULL;
        g->ncells = 0;
    }
    return rc;
}

typedef struct gb_case {
    char path[GB_PATH_MAX];
    char name[PB_NAME_MAX];
    char filter_arg[2 * PB_NAME_MAX + 32];   /* --benchmark_filter=^NAME$, NAME's ERE specials escaped */
    char min_time_arg[64];
    double min_time;
    char warmup_arg[64];         /* "" when not given */
    double limit_s;
} gb_case;

static double unit_ns(const char *unit)
{
    return !unit ? 1 : !strcmp(unit, "ns") ? 1 : !strcmp(unit, "us") ? 1e3 : !strcmp(unit, "ms") ? 1e6
                   : !strcmp(unit, "s") ? 1e9 : NAN;
}

/* One process of argv (the benchmark's, under valgrind or not): GB's JSON, its one iteration run read. */
static int sample_of(const gb_case *c, char *const *argv, int64_t *iters, double *ns, double *cpu_ns, pb_err *e)
{
    char *out;
    if (run_capture_as(c->path, c->filter_arg, argv, c->limit_s, &out, e) < 0) return -1;
    json_error_t je;
    json_t *root = json_loads(out, 0, &je);
    free(out);
    if (!root) return pb_errf(e, "gbench: %s: its JSON output is malformed at line %d: %s", c->path, je.line, je.text);
    int rc = 1;   /* not found yet */
    size_t i;
    json_t *b;
    json_array_foreach(json_object_get(root, "benchmarks"), i, b) {
        const char *name = json_string_value(json_object_get(b, "name"));
        const char *rt = json_string_value(json_object_get(b, "run_type"));
        if (!name || strcmp(name, c->name) || (rt && strcmp(rt, "iteration"))) continue;
        if (json_is_true(json_object_get(b, "error_occurred"))) {
            rc = pb_errf(e, "gbench: %s: %s reported an error: %s", c->path, c->name,
                         json_string_value(json_object_get(b, "error_message")) ?: "(no message)");
            break;
        }
        json_t *it = json_object_get(b, "iterations");
        double real = json_number_value(json_object_get(b, "real_time"));
        double cpu = json_number_value(json_object_get(b, "cpu_time"));
        double u = unit_ns(json_string_value(json_object_get(b, "time_unit")));
        if (!json_is_integer(it) || json_integer_value(it) <= 0 || !(real > 0) || isnan(u)) {
            rc = pb_errf(e, "gbench: %s: %s: iterations, real_time or time_unit missing or invalid", c->path, c->name);
            break;
        }
        /* GB reports per-iteration times: the harness stores totals over the iterations */
        *iters = json_integer_value(it);
        *ns = real * u * (double)*iters;
        *cpu_ns = cpu > 0 ? cpu * u * (double)*iters : -1;
        rc = 0;
        break;
    }
    json_decref(root);
    if (rc > 0) return pb_errf(e, "gbench: %s: no iteration result for %s in its JSON output", c->path, c->name);
    return rc;
}

/* One process, one benchmark. */
static int external_sample(void *p, int64_t *iters, double *ns, double *cpu_ns, pb_err *e)
{
    gb_case *c = p;
    char *argv[] = {c->path, c->filter_arg, c->min_time_arg, "--benchmark_format=json",
                    c->warmup_arg[0] ? c->warmup_arg : NULL, NULL};
    return sample_of(c, argv, iters, ns, cpu_ns, e);
}

static pb_setup_status setup_case(void *opts, const pb_cell *cell, const char *impl, pb_case *out, pb_err *e)
{
    const gb_opts *o = opts;
    int is_old = !strcmp(impl, "old");
    if (!is_old && strcmp(impl, "new")) return pb_errf(e, "gbench: unknown implementation '%s' (old or new)", impl);
    gb_case *c = calloc(1, sizeof *c);
    if (!c) return pb_errf(e, "gbench: out of memory");
    snprintf(c->path, sizeof c->path, "%s", is_old ? o->old_path : o->new_path);
    snprintf(c->name, sizeof c->name, "%s", cell->variant);
    size_t k = (size_t)snprintf(c->filter_arg, sizeof c->filter_arg, "--benchmark_filter=^");
    for (const char *s = cell->variant; *s; s++) {
        if (strchr(".[]()*+?{}|^$\\", *s)) c->filter_arg[k++] = '\\';
        c->filter_arg[k++] = *s;
    }
    c->filter_arg[k++] = '$';
    c->filter_arg[k] = 0;
    snprintf(c->min_time_arg, sizeof c->min_time_arg, "--benchmark_min_time=%g", o->min_time);
    c->min_time = o->min_time;
    snprintf(c->warmup_arg, sizeof c->warmup_arg, "%s", o->warmup_arg);
    c->limit_s = o->timeout_s > 0 ? o->timeout_s : fmax(GB_SAMPLE_LIMIT_S, 100 * o->min_time);
    out->ctx = c;
    out->free_ctx = free;
    out->external_sample = external_sample;
    return PB_SETUP_OK;
}

/* --measure valgrind (suite.h count_sample): the sample's process under callgrind (wrap), its
 * counts zeroed where GB's State loop starts and dumped where it ends (count_options), so that the
 * last dump holds the reported run's iterations and GB's own start-up of the loop only: its
 * timer, about 250 instructions over the run, not the benchmark's set-up or GB's reporting. A
 * multi-threaded benchmark would dump once per thread: refused. */
static const char *const count_options[] = {"--zero-before=benchmark::State::StartKeepRunning*",
                                            "--dump-before=benchmark::State::FinishKeepRunning*", NULL};

static int count_sample(void *p, char *const *wrap, int longer, int64_t *iters, pb_err *e)
{
    gb_case *c = p;
    const char *t = strstr(c->name, "/threads:");
    if (t && strtol(t + 9, NULL, 10) > 1)
        return pb_errf(e, "gbench: %s: %s runs on several threads: its counts would be one thread's (give it "
                          "--filter without it)", c->path, c->name);
    gb_case v = *c;
    /* GB stops growing its iterations once a run lasts --min-time: under Valgrind, whose first run of
     * new code is slow, the first run (one iteration, cold) can be the one it reports */
    snprintf(v.min_time_arg, sizeof v.min_time_arg, "--benchmark_min_time=%g", c->min_time * pow(10, longer));
    /* Valgrind runs the program 20 to 100 times slower: a limit of its own, never the clock's */
    v.limit_s = fmax(c->limit_s, 600);
    char *argv[64];
    int n = 0;
    while (wrap[n] && n < 56) { argv[n] = wrap[n]; n++; }
    if (wrap[n]) return pb_errf(e, "gbench: too many valgrind options");
    char *own[] = {v.path, v.filter_arg, v.min_time_arg, "--benchmark_format=json", v.warmup_arg[0] ? v.warmup_arg : NULL};
    for (size_t i = 0; i < sizeof own / sizeof own[0] && own[i]; i++) argv[n++] = own[i];
    argv[n] = NULL;
    double ns, cpu;
    return sample_of(&v, argv, iters, &ns, &cpu, e);
}

/* the binary each side runs: its identity and build are stored with the run (suite.h) */
static int user_object(const void *opts, const char *impl, char *path, size_t cap)
{
    const gb_opts *o = opts;
    int is_old = !strcmp(impl, "old");
    if (!is_old && strcmp(impl, "new")) return 0;
    snprintf(path, cap, "%s", is_old ? o->old_path : o->new_path);
    return 1;
}

/* --old and --new are the two impls' binaries: a second of either would replace the first */
static const char *const once_options[] = { "old", "new", NULL };

/* the options that name the code under test: a baseline's configuration is the rest (suite.h) */
static const char *const code_options[] = {"old", "new", NULL};

const pb_suite pb_suite_gbench = {
    .name = "gbench",
    .title = "two builds of a Google Benchmark binary (--old PATH --new PATH), one process per sample",
    .baseline = "old",
    .candidate = "new",
    .metrics = PB_M_NS_PER_OP | PB_M_CPU_NS,   /* GB's cpu_time is the binary's own: --metric cpu_ns */
    .primary_metric = "ns_per_op",
    .opts_size = sizeof(gb_opts),
    .opts_init = opts_init,
    .options = options,
    .plan = plan,
    .setup_case = setup_case,
    .once_options = once_options,
    .user_object = user_object,
    .code_options = code_options,
    .plot_x = "variant",
    .sample_words = "one process running the benchmark once (one Google Benchmark repetition, timed by Google Benchmark)",
    .count_sample = count_sample,
    .count_options = count_options,
    .count_last_dump = 1,
    .notes_md = "Each sample is one process of the binary, timed by Google Benchmark itself (its real_time "
                "over the iterations it chose for --min-time); old and new alternate round by round with a "
                "rotating start. There is no document for these benchmarks: no claim is checked.",
};
