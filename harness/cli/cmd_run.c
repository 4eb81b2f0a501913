/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd_run.c — `bench run --suite NAME [options] [suite options] [--benchmark_* flags]` */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_layouts.h"
#include "cli_opts.h"
#include "decompose.h"
#include "export.h"
#include "fmt.h"
#include "paths.h"
#include "pb_spawn.h"
#include "gbshim.h"
#include "kmod_target.h"
#include "metrics.h"
#include "runner.h"
#include "store.h"
#include "pb_config.h"
#include "reads.h"
#include "report.h"
#include "runenv.h"
#include "suite.h"
#include "term.h"
#include "valgrind.h"

enum { O_MEASURE, O_LAYOUTS, O_LAYOUT_SEED, O_CAGE, O_TIMEOUT };

typedef struct run_args {
    pb_cli *cli;
    pb_runner_opts o;
    const char *suite_name;      /* --suite: found before parsing (pb_cli_find_suite) */
    const char *target;
    const char *measure;         /* --measure: "time", "valgrind" or "both" (time, then valgrind) */
    const char *vg_child;        /* --vg-child DIR: this process is the child under callgrind */
    int vg_reps;
    int vg_cpuid;                /* --vg-cpuid: print the CPU features this process sees (under valgrind) */
    int wide;                    /* --wide: stderr's lines in full, whatever the terminal's width */
    pb_layout_args la;
    int64_t timed_run;           /* the timed run's id once stored (--measure both reads it) */
} run_args;

static const pb_cli_opt OPTS[] = {
    PB_OPT_SUITE("NAME|all", "suite to run (bench list shows them); all: each suite that re-runs a published\n"
                             "patch (bench list --published), in turn, each closed by its summary",
                 run_args, suite_name),
    PB_OPT_IMPLS("only these implementations", run_args, o.impls),
    PB_OPT_STRING_LIST("sizes", "64,4k,...", "only these sizes (sizes outside the grid are added)", run_args, o.sizes),
    PB_OPT_FLAG("quick", "the whole grid with fewer and shorter samples", run_args, o.quick),
    PB_OPT_INT("rounds", "N", "rounds per cell (default " PB_STR(PB_DEFAULT_ROUNDS) ", quick " PB_STR(PB_DEFAULT_ROUNDS_QUICK)
                              ": a multiple of the layouts)", run_args, o.rounds, 2, 100000),
    PB_OPT_INT("passes", "N", "spread each cell's rounds over N passes of the grid, its cases set up anew\n"
                              "in each (default: one per 16 rounds, at most 4; 1 for exec and gbench: a\n"
                              "cell's rounds in one go). See docs/layout.md, \"Passes\".",
               run_args, o.passes, 1, 100000),
    PB_OPT_INT("boundary-rounds", "N", "more rounds of each cell whose verdict is near a boundary after the\n"
                                       "run's rounds (default: half of --rounds; 0: none). See docs/layout.md,\n"
                                       "\"Boundary rounds\".", run_args, o.boundary_rounds, 0, 100000),
    PB_OPT("layouts", "N", PB_LAYOUT_HELP_LAYOUTS, O_LAYOUTS),
    PB_OPT("layout-seed", "N", PB_LAYOUT_HELP_SEED, O_LAYOUT_SEED),
    PB_OPT_DOUBLE("sample-ms", "X", "target length of one sample in ms (default 2, quick 0.5)", run_args,
                  o.sample_seconds, 0.01, 10000, 1e-3),
    PB_OPT_STRING_LIST("counters", "LIST", "hardware events by libpfm4 name (default cycles,instructions;\n"
                                           "'' for none). Unavailable ones fall back to the TSC, visibly.",
                       run_args, o.counters),
    PB_OPT_DB(run_args, o.db_path),
    PB_OPT_STRING("target", "T", "userspace (default): the implementations in this process.\n"
                    "qemu: the kernel-module variant in a QEMU guest (TCG);\n"
                    "host: the kernel-module variant on this machine's kernel\n"
                    "(root, module support and /lib/modules/$(uname -r)/build needed).\n"
                    "See docs/kmod.md.", run_args, target),
    PB_OPT("measure", "M", "time (default): wall time, interleaved as above;\n"
                     "valgrind: instruction, cache and branch counts per op under callgrind\n"
                     "(deterministic; see docs/counts.md and harness/run/valgrind.h);\n"
                     "both: time, then count the same build (two runs stored), then each cell's\n"
                     "time ratio as instructions x time per instruction (docs/why.md)", O_MEASURE),
    PB_OPT("cage", "WHICH", "user (default): time code the lab did not write (plug-ins, --gcrypt-lib\n"
                     "builds) in a child process of its own, so that its crash, exit, hang or wrong\n"
                     "answer fails its cases, not the run; bench never loads it itself; all: every\n"
                     "impl (what the cage costs); none: all in this process, that code loaded into\n"
                     "bench too (a debugger on a plug-in). See docs/cage.md.", O_CAGE),
    PB_OPT("timeout", "S", "the limit of one sample of caged code or of a measured program (exec,\n"
                     "gbench), in seconds; past it, it is killed and fails its cases (default:\n"
                     "10 x the sample length, at least 1 s; see docs/cage.md)", O_TIMEOUT),
    PB_OPT_CPU(run_args, o.cpu),
    PB_OPT_REVISION(run_args, o.user_revision),
    PB_OPT_LABEL(run_args, o.user_label),
    PB_OPT_QUIET(run_args, o.progress),
    PB_OPT_FLAG("live", "the live progress line on stderr even with --quiet (what ci/ scripts\n"
                        "pass on while they keep bench's other lines to themselves)", run_args, o.live),
    PB_OPT_FLAG("wide", "progress and notices in full lines, as when stderr is not a terminal\n"
                        "(else they fit its width, or COLUMNS where set; the detail is stored)", run_args, wide),
    PB_OPT_INTERNAL_STRING("vg-child", "DIR", "bench's own: the child --measure valgrind starts under callgrind", run_args,
                           vg_child),
    PB_OPT_INTERNAL_FLAG("vg-cpuid", "bench's own: the CPU features valgrind shows a program, for the counts of\n"
                                     "another program (gbench, exec)", run_args, vg_cpuid),
    PB_OPT_INTERNAL_INT("vg-reps", "N", "bench's own: repetitions per case in that child (1 to 4)", run_args, vg_reps, 1, 4),
    PB_OPT_END,
};

static int on_opt(void *ctx, int id, const char *v)
{
    run_args *a = ctx;
    switch (id) {
    case O_MEASURE:
        if (strcmp(v, "time") && strcmp(v, "valgrind") && strcmp(v, "both"))
            return pb_cli_error(a->cli, "unknown --measure '%s' (time, valgrind or both)", v);
        a->measure = v;
        return 0;
    case O_LAYOUTS: return pb_cli_layout_opt(a->cli, &a->la, "layouts", v);
    case O_LAYOUT_SEED: return pb_cli_layout_opt(a->cli, &a->la, "layout-seed", v);
    case O_CAGE:
        if (!strcmp(v, "user")) a->o.cage = PB_CAGE_USER;
        else if (!strcmp(v, "all")) a->o.cage = PB_CAGE_ALL;
        else if (!strcmp(v, "none")) a->o.cage = PB_CAGE_NONE;
        else return pb_cli_error(a->cli, "unknown --cage '%s' (user, all or none)", v);
        return 0;
    case O_TIMEOUT: {
        pb_err e = {{0}};
        if (pb_parse_timeout(v, &a->o.timeout_s, &e) < 0) return pb_cli_error(a->cli, "%s", e.msg);
        /* a suite that runs programs (exec, gbench) limits them itself: the same limit */
        if (a->cli->suite && pb_suite_opt_find(a->cli->suite, "timeout") &&
            pb_suite_set_opt(a->cli->suite, a->cli->suite_opts, "timeout", v, &e) < 0)
            return pb_cli_error(a->cli, "%s", e.msg);
        return 0;
    }
    }
    return pb_cli_error(a->cli, "option id %d not handled", id);
}

/* A suite's own words after its options: what its --sizes count, where not bytes (suite.h item_unit). */
static void suite_sizes_help(FILE *f, const pb_suite *s)
{
    if (!pb_suite_has_items(s)) return;
    const char *u = s->item_unit;
    fprintf(f, "\nSizes of suite %s: --sizes counts %ss, not bytes (--sizes 4,16: cells of 4 and 16 %ss)", s->name, u, u);
    if (s->item_bytes) fprintf(f, "; one %s is %llu bytes", u, (unsigned long long)s->item_bytes);
    fprintf(f, ".\nIts progress, reports and exports add ns per %s and %ss/s.\n", u, u);
}

static void list_suites(FILE *f, const pb_cli *c)
{
    if (c->suite) {
        suite_sizes_help(f, c->suite);
        return;
    }
    fprintf(f, "\nSuites:");
    for (int i = 0; pb_suites[i]; i++) fprintf(f, " %s", pb_suites[i]->name);
    fprintf(f, "  (bench run --suite NAME --help shows a suite's options)\n");
}


/* Can --measure valgrind count o's grid? Bad filters and sizes, and cases of another program
 * (gbench, exec: nothing in this process to count), are refused before valgrind starts, the
 * database opens or (--measure both) anything is timed: 0, or 2 after printing why. */
static int vg_refused(const pb_runner_opts *o)
{
    pb_err e = {{0}};
    pb_grid g;
    if (pb_runner_grid(o, &g, &e) < 0) { fprintf(stderr, "bench run: %s\n", e.msg); return 2; }
    int countable = pb_vg_check_countable(o->suite, o->suite_opts, &g, &e);
    free(g.cells);
    if (countable < 0) { fprintf(stderr, "bench run: %s\n", e.msg); return 2; }
    return 0;
}

/* --measure valgrind: counts from a child under callgrind, stored as a run of target "valgrind" */
static int cmd_run_valgrind(const pb_runner_opts *o, const pb_cli *cli, const char *cmdline)
{
    pb_vg_opts vo = {.suite = o->suite, .impls = o->impls, .sizes = o->sizes, .quick = o->quick, .reps = 1,
                     .progress = o->progress, .suite_opts = o->options_text,
                     .args = {cli->nsuite_given, cli->suite_given_name, cli->suite_given_value}};
    pb_err e = {{0}};
    int refused = vg_refused(o);
    if (refused) return refused;
    pb_vg_result r;
    int measured = pb_vg_measure(&vo, &r, &e);
    if (measured < 0) {
        fprintf(stderr, "bench run: %s\n", e.msg);
        return measured == -2 ? 2 : 1;   /* -2: refused (a program valgrind cannot run or count) */
    }
    /* another program's code path under Valgrind is its own: said where a person reads it */
    if (o->suite->count_sample && strncmp(r.not_comparable, "CPUID", 5)) {
        char line[sizeof r.not_comparable + 32];
        snprintf(line, sizeof line, "bench: warning: %s", r.not_comparable);
        pb_term_line(stderr, o->width, line);
    }
    pb_store st;
    int opened = pb_store_open(&st, o->db_path, &e);
    if (opened < 0) {
        fprintf(stderr, "bench run: %s\n", e.msg);
        pb_vg_result_free(&r);
        return opened == PB_STORE_REFUSED ? 2 : 1;
    }
    int64_t run = pb_vg_store(&st, &vo, &r, cmdline, &e);
    pb_store_close(&st);
    if (run < 0) { fprintf(stderr, "bench run: %s\n", e.msg); pb_vg_result_free(&r); return 1; }
    pb_vg_print(stdout, o->suite, &r);
    pb_vg_result_free(&r);
    printf("run %lld complete (suite %s, measure valgrind) in %s\n", (long long)run, o->suite->name, o->db_path);
    return 0;
}

/* The closing line of a run: cells per verdict, smallest and largest ratio (report.h). */
/* The run's answer in a line (and a second at most) within width columns (answer.h) */
static void closing_summary(const pb_suite *s, const char *db, int64_t run, int width)
{
    pb_path data;
    const char *data_dir = pb_data_dir(&data);
    pb_store st;
    pb_err e = {{0}};
    if (pb_store_open_readonly(&st, db, &e) < 0) return;
    fflush(stdout);
    if (pb_report_run_answer(&st, s, run, data_dir, stdout, width, &e) < 0) {
        char line[1200];
        snprintf(line, sizeof line, "%s: no answer (%s)", s->name, e.msg);
        pb_term_line(stdout, width, line);
    }
    pb_store_close(&st);
    /* a published patch whose document has no table (data/<suite>_doc.tsv): its claim is the
     * suite's direction alone (suite.h claim, doc_ratio NaN), and the summary says so */
    char doc[sizeof data.s + 64], line[sizeof doc + 160];
    snprintf(doc, sizeof doc, "%s/%s_doc.tsv", data_dir, s->name);
    if (pb_suite_published(s)[0] && access(doc, R_OK) != 0) {
        snprintf(line, sizeof line, "%s summary: no document table (data/%s_doc.tsv): the claim judged on its direction "
                 "alone", s->name, s->name);
        pb_term_line(stdout, width, line);
    }
}

/* What the hyperfine-style figures of a run's cases need while they are printed. */
typedef struct spread_ctx {
    pb_store *st;
    int64_t run;
    const pb_suite *suite;
    char base[PB_NAME_MAX];            /* the run's baseline */
    char last[2 * PB_NAME_MAX + 32];   /* the cell printed last */
} spread_ctx;

/* One case's figures, under its cell's heading where the cell changes; nothing for a case whose
 * samples keep neither user and system time apart nor (a suite whose sample is a process) CPU time. */
static void print_spread(void *ctx, const pb_case_key *k)
{
    spread_ctx *x = ctx;
    char impl[PB_NAME_MAX], variant[PB_NAME_MAX], op[PB_NAME_MAX];
    snprintf(impl, sizeof impl, "%s", k->impl);
    snprintf(variant, sizeof variant, "%s", k->variant);
    snprintf(op, sizeof op, "%s", k->op);
    const pb_case_key key = {.impl = impl, .variant = variant, .op = op, .size = k->size};
    pb_time_spread sp;
    if (pb_store_time_spread(x->st, x->run, &key, &sp) != 1) return;
    if (!sp.has_split && !(x->suite->sample_words && sp.has_cpu)) return;
    char cell[sizeof x->last];
    snprintf(cell, sizeof cell, "%s %s", variant, op);
    if (strcmp(cell, x->last)) printf("\n%s:\n", cell);
    snprintf(x->last, sizeof x->last, "%s", cell);
    char a[32], b[32], u[32], s[32];
    printf("  %s\n", impl);
    if (sp.has_split)
        printf("    Time (mean \u00b1 \u03c3):  %s \u00b1 %s    [User: %s, System: %s]\n", pb_fmt_ns(a, sizeof a, sp.mean),
               pb_fmt_ns(b, sizeof b, sp.stddev), pb_fmt_ns(u, sizeof u, sp.user), pb_fmt_ns(s, sizeof s, sp.sys));
    else
        printf("    Time (mean \u00b1 \u03c3):  %s \u00b1 %s    [CPU: %s]\n", pb_fmt_ns(a, sizeof a, sp.mean),
               pb_fmt_ns(b, sizeof b, sp.stddev), pb_fmt_ns(u, sizeof u, sp.cpu));
    printf("    Range (min \u2026 max):  %s \u2026 %s    %lld runs\n", pb_fmt_ns(a, sizeof a, sp.min),
           pb_fmt_ns(b, sizeof b, sp.max), (long long)sp.n);
    double r[3];
    if (strcmp(impl, x->base) &&
        pb_store_ratio(x->st, x->run, PB_DEFAULT_METRIC, x->base, impl, variant, op, k->size, r))
        printf("    Ratio %s/%s (paired by round):  %.3f [%.3f, %.3f]\n", impl, x->base, r[0], r[1], r[2]);
}

/* Per command of each cell, hyperfine's figures, for the cases whose samples keep user and system
 * time apart (exec) or whose sample is a whole process with its CPU time (gbench: Google Benchmark's
 * CPU time): mean ± σ, min … max, User and System or CPU (pb_fmt_ns), and the paired ratio
 * against the run's baseline (the ratio the store paired by round, not one of the means). */
static void spread_summary(const char *db, int64_t run, const pb_suite *suite)
{
    pb_store st;
    pb_err e = {{0}};
    if (pb_store_open_readonly(&st, db, &e) < 0) return;
    spread_ctx x = {.st = &st, .run = run, .suite = suite};
    pb_run_row r;
    if (pb_store_run_row(&st, run, &r, NULL) == 1) snprintf(x.base, sizeof x.base, "%s", r.baseline);
    pb_store_each_ok_case(&st, run, print_spread, &x);
    pb_store_close(&st);
}

/* before layout l's plan: what this bench's own suite calibrated in its plan */
static int share_own_calibration(void *ctx, const pb_suite *own, void *own_opts, int l, pb_err *e)
{
    const pb_layout_set *set = ctx;
    const pb_suite *copy = set->v[l].suite;
    /* the layouts are this build's own objects: one registry of loaded code for all (suite.h) */
    if (own->loaded_code && copy->use_loaded_code) copy->use_loaded_code(own->loaded_code());
    return pb_suite_copy_calibration(own, own_opts, copy, set->v[l].opts, NULL, 0, e);
}

/* The code layouts of this bench's build (cli_layouts.h) into a->o.layouts, unless --layouts 1. Without
 * the layout modules beside bench (an install that lacks them), a warning and one layout, not a failure:
 * runs.layouts says which. 0, or -1 after printing why. */
static int open_layouts(run_args *a, pb_module_layouts *ml, pb_layout_set *set)
{
    memset(ml, 0, sizeof *ml);
    memset(set, 0, sizeof *set);
    if (a->la.layouts == 1) return 0;
    if (pb_suite_times_a_program(a->o.suite)) {
        if (a->la.layouts <= 1) return 0;
        fprintf(stderr, "bench run: --layouts %d: suite %s times another program, whose code bench's layouts do not "
                "move (docs/layout.md): it runs in one\n", a->la.layouts, a->o.suite->name);
        return -1;
    }
    char own[1024];
    pb_err e = {{0}};
    if (pb_suite_module_own_path(own, sizeof own, &e) < 0) {
        if (a->la.layouts) { fprintf(stderr, "bench run: --layouts %d: %s\n", a->la.layouts, e.msg); return -1; }
        fprintf(stderr, "bench run: warning: one code layout only (%s)\n", e.msg);
        return 0;
    }
    int built = pb_module_layouts_built(own);
    if (a->la.layouts > built) {
        fprintf(stderr, "bench run: --layouts %d: this build has %d (meson configure -Dlayouts=N)\n", a->la.layouts,
                built);
        return -1;
    }
    int n = a->la.layouts ? a->la.layouts : built;
    if (n < 2) return 0;
    if (pb_module_layouts_open(ml, own, n, a->o.suite->name, a->cli, &e) < 0) {
        fprintf(stderr, "bench run: code layouts: %s\n", e.msg);
        pb_module_layouts_close(ml);
        return -1;
    }
    set->n = n;
    for (int l = 0; l < n; l++) {
        set->v[l].suite = ml->suite[l];
        set->v[l].opts = ml->opts[l];
    }
    set->seed = a->la.seed;
    set->share = share_own_calibration;
    set->share_ctx = set;
    pb_module_layouts_what(set->what, sizeof set->what, n);
    a->o.layouts = set;
    return 0;
}

/* Does the comma list name impl? */
static int list_has(const char *list, const char *impl, size_t len)
{
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        if (n == len && !strncmp(p, impl, len)) return 1;
        p += n + (p[n] == ',');
    }
    return 0;
}

/* --impl A,B with a --plugin NAME=PATH that it does not name: NAME is added to the list, with a
 * note, so that the plug-in loaded to be timed is timed (it was dropped without a word; issue 23,
 * docs/your-code.md says why it is added rather than refused). buf (cap bytes) holds the new list,
 * which the run uses and stores. 0, or 2 after printing why. */
static int plugins_into_impls(run_args *a, const pb_cli *cli, char *buf, size_t cap)
{
    if (!a->o.impls) return 0;
    const char *given = a->o.impls;
    snprintf(buf, cap, "%s", given);
    for (int i = 0; i < cli->nsuite_given; i++) {
        const char *v = cli->suite_given_value[i];
        if (strcmp(cli->suite_given_name[i], "plugin") || !v || !strchr(v, '=')) continue;
        size_t len = (size_t)(strchr(v, '=') - v), have = strlen(buf);
        if (list_has(buf, v, len)) continue;
        if (have + 1 + len >= cap) {
            fprintf(stderr, "bench run: --impl %s with the plug-ins of --plugin is too long\n", given);
            return 2;
        }
        snprintf(buf + have, cap - have, ",%.*s", (int)len, v);
    }
    if (strcmp(buf, given))
        fprintf(stderr, "bench run: --impl %s does not name every --plugin: timing them too (--impl %s)\n", given,
                buf);
    a->o.impls = buf;
    return 0;
}

/* The command line into cli and a; impls (cap bytes) holds the --impl list where --plugin adds to it.
 * 0, 1 after --help, or 2 after printing why. */
static int parse_run(pb_cli *cli, run_args *a, int argc, char **argv, char *impls, size_t cap)
{
    if (pb_cli_find_suite("run", argc, argv, &cli->suite)) return 2;
    pb_err e = {{0}};
    if (cli->suite && !(cli->suite_opts = pb_suite_opts_new(cli->suite, &e))) {
        fprintf(stderr, "bench run: %s\n", e.msg);
        return 2;
    }
    int rc = pb_cli_parse(cli, argc, argv);
    if (rc == 0 && !cli->suite) {
        fprintf(stderr, "bench run: --suite is required (see bench run --help)\n");
        rc = 2;
    }
    if (rc == 0) rc = plugins_into_impls(a, cli, impls, cap);
    return rc;
}

/* Options that mean nothing together (--measure valgrind and timing, --target and passes), and the
 * store's path: 0, or 2 after printing why. --measure both times as a plain run does (its timing
 * options are the timed run's) and counts as valgrind does. */
static int refuse_conflicts(const run_args *a, int vg)
{
    if ((vg || !strcmp(a->measure, "both")) && strcmp(a->target, "userspace")) {
        fprintf(stderr, "bench run: --measure %s counts this process's implementations: not with --target %s\n",
                a->measure, a->target);
        return 2;
    }
    if (vg && (a->o.rounds || a->o.passes || a->o.sample_seconds > 0 || a->o.counters || a->o.boundary_rounds >= 0)) {
        fprintf(stderr, "bench run: --%s has no meaning with --measure valgrind (counts: %d ops per case, no clock, "
                        "no hardware counters)\n",
                a->o.rounds ? "rounds" : a->o.passes ? "passes" : a->o.sample_seconds > 0 ? "sample-ms"
                : a->o.counters ? "counters" : "boundary-rounds",
                PB_VG_ITERS);
        return 2;
    }
    pb_err e = {{0}};
    if (pb_store_check_path(a->o.db_path, &e) < 0) {
        fprintf(stderr, "bench run: %s\n", e.msg);
        return 2;
    }
    if (strcmp(a->target, "userspace") && (a->o.passes || a->o.boundary_rounds >= 0)) {
        fprintf(stderr, "bench run: --%s has no meaning with --target %s (the module times its cells itself)\n",
                a->o.passes ? "passes" : "boundary-rounds", a->target);
        return 2;
    }
    return 0;
}

/* --target qemu|host: the kernel module times the suite's cells (kmod_target.h); its exit status. */
static int run_kmod(const run_args *a, const pb_cli *cli, const char *cmdline)
{
    if (!strcmp(a->target, "qemu") || !strcmp(a->target, "host"))
        return pb_kmod_target_run(cli->suite->name, a->target, a->o.db_path, a->o.quick, a->o.rounds, cmdline);
    fprintf(stderr, "bench run: unknown --target '%s' (userspace, qemu or host)\n", a->target);
    return 2;
}

/* The timed run of a->o (its suite and options set) in this build's code layouts (ml and set: where
 * they are kept while it runs), with the verdicts' boundaries for its boundary rounds, then its
 * closing lines. The command's exit status. */
static int run_timed(run_args *a, const pb_cli *cli, pb_module_layouts *ml, pb_layout_set *set)
{
    if (open_layouts(a, ml, set) < 0) return 2;
    /* the verdicts' boundaries, as the run's report will judge its cells (boundary rounds) */
    pb_err e = {{0}};
    pb_path data;
    pb_report_near *near = pb_report_near_open(cli->suite, pb_data_dir(&data), &e);
    if (!near) {
        fprintf(stderr, "bench run: %s\n", e.msg);
        pb_module_layouts_close(ml);
        return 2;
    }
    a->o.nearness = pb_report_near_cell;
    a->o.near_ctx = near;
    int64_t run = 0;
    int failed = 0;
    a->o.failed_cases = &failed;
    int r = pb_run(&a->o, &run, &e);
    pb_report_near_close(near);
    pb_module_layouts_close(ml);
    if (r == 130) { fprintf(stderr, "bench run: %s\n", e.msg); return 130; }
    if (r < 0) {
        fprintf(stderr, "bench run: %s\n", e.msg);
        return r == -2 ? 2 : 1;
    }
    a->timed_run = run;
    printf("run %lld complete (suite %s) in %s\n", (long long)run, cli->suite->name, a->o.db_path);
    closing_summary(cli->suite, a->o.db_path, run, a->o.width);
    spread_summary(a->o.db_path, run, cli->suite);
    if (failed) {
        /* complete (every other case stands) but not clean: the caller must hear of it */
        fprintf(stderr, "bench run: %lld case%s of code the lab did not write failed (said above; stored unavailable, reason 'failed: ...')\n",
                (long long)failed, failed == 1 ? "" : "s");
        return 1;
    }
    return 0;
}

/* --measure both: the timed run, then a count run of the same build (this process's, with the same
 * grid and suite options), then each cell's time ratio as instructions x time per instruction, as
 * bench report shows it (decompose.h). What would refuse the count run is refused before anything
 * is timed. The first failure's exit status, or 0. */
static int run_both(run_args *a, const pb_cli *cli, pb_module_layouts *ml, pb_layout_set *set, const char *cmdline)
{
    int rc = vg_refused(&a->o);
    if (rc) return rc;
    char vg[1024];
    if (!pb_find_program("valgrind", vg, sizeof vg)) {
        fprintf(stderr, "bench run: --measure both: valgrind not found in PATH (Debian package valgrind; "
                        "scripts/setup.sh installs it)\n");
        return 1;
    }
    if ((rc = run_timed(a, cli, ml, set)) != 0) return rc;
    fflush(stdout);
    if ((rc = cmd_run_valgrind(&a->o, cli, cmdline)) != 0) return rc;
    pb_store st;
    pb_err e = {{0}};
    pb_decomp_set why = {0};
    if (pb_store_open_readonly(&st, a->o.db_path, &e) < 0) {
        fprintf(stderr, "bench run: --measure both: %s\n", e.msg);
        return 1;
    }
    if (pb_decomp_load(&st, a->timed_run, &why, &e) < 0) {
        fprintf(stderr, "bench run: --measure both: %s\n", e.msg);
        pb_store_close(&st);
        return 1;
    }
    pb_decomp_print(stdout, &why, cli->suite->name, cli->suite->baseline, cli->suite->candidate, a->o.width);
    if (!why.count_run) fprintf(stderr, "bench run: --measure both: no count run of run %lld's build to decompose it\n",
                                (long long)a->timed_run);
    pb_decomp_free(&why);
    pb_store_close(&st);
    return 0;
}

static int run_one(int argc, char **argv, const char *cmdline)
{
    pb_cli cli = {
        .cmd = "run",
        .synopsis = "usage: bench run --suite NAME [options] [suite options] [--benchmark_* flags]\n"
                    "\n"
                    "Run a suite's grid: every implementation of a cell interleaved in rounds (rotating\n"
                    "start), every sample stored in SQLite, ratios paired by round.\n",
        .epilogue = "  --benchmark_*         passed to Google Benchmark (e.g. --benchmark_repetitions=3)\n",
        .opts = OPTS,
        .more_help = list_suites,
    };
    run_args a = {.cli = &cli, .target = "userspace", .measure = "time", .vg_reps = 1, .la = {.seed = 1},
                  .o = {.db_path = pb_default_db(), .progress = 1, .command_line = cmdline, .boundary_rounds = -1}};
    cli.on_opt = on_opt;
    cli.ctx = &a;
    char impls[512];
    pb_module_layouts ml;
    pb_layout_set set;
    int rc = parse_run(&cli, &a, argc, argv, impls, sizeof impls);
    const int vg = !strcmp(a.measure, "valgrind");
    a.o.suite = cli.suite;
    a.o.suite_opts = cli.suite_opts;
    a.o.options_text = cli.suite_text;
    a.o.width = a.wide ? 0 : pb_term_width();
    if (rc == 0 && a.vg_cpuid) {
        char feat[256];
        pb_vg_cpu_features(feat, sizeof feat);
        printf("%s\n", feat);
    } else if (rc == 0 && a.vg_child) {
        /* the child under callgrind: it measures and writes its files, it stores nothing */
        pb_err e = {{0}};
        if (pb_vg_child(&a.o, a.vg_child, a.vg_reps, &e) < 0) {
            fprintf(stderr, "bench run: %s\n", e.msg);
            rc = 2;
        }
    } else if (rc == 0 && !(rc = refuse_conflicts(&a, vg))) {
        rc = strcmp(a.target, "userspace")  ? run_kmod(&a, &cli, cmdline)
             : vg                           ? cmd_run_valgrind(&a.o, &cli, cmdline)
             : !strcmp(a.measure, "both")   ? run_both(&a, &cli, &ml, &set, cmdline)
                                            : run_timed(&a, &cli, &ml, &set);
    } else if (rc == 1) {
        rc = 0;   /* --help */
    }
    if (cli.suite) pb_suite_opts_free(cli.suite, cli.suite_opts);
    return rc;
}

int cmd_run(int argc, char **argv)
{
    char cmdline[2048];
    pb_cli_join(argc, argv, cmdline, sizeof cmdline);

    if (pb_cli_gb_init(&argc, argv) < 0) {
        fprintf(stderr, "bench run: bad --benchmark_ flag (see above)\n");
        return 2;
    }
    /* --suite all: each suite that re-runs a published patch, in turn, with the same options */
    int all_at = -1;
    const char *suite = pb_cli_suite_word(argc, argv, &all_at);
    if (!suite || strcmp(suite, "all")) return run_one(argc, argv, cmdline);
    char **copy = malloc((size_t)(argc + 1) * sizeof *copy);
    if (!copy) { fprintf(stderr, "bench run: out of memory\n"); return 1; }
    int rc = 0, ran = 0;
    for (int k = 0; pb_suites[k] && rc != 130; k++) {
        const pb_suite *s = pb_suites[k];
        if (!pb_suite_published(s)[0]) continue;   /* its declaration names no published patch */
        char value[PB_NAME_MAX + 16];
        snprintf(value, sizeof value, "%s%s", strcmp(argv[all_at], "all") ? "--suite=" : "", s->name);
        memcpy(copy, argv, (size_t)(argc + 1) * sizeof *copy);
        copy[all_at] = value;
        fprintf(stderr, "bench run --suite all: %s\n", s->name);
        int r = run_one(argc, copy, cmdline);
        ran++;
        if (r && !rc) rc = r;
        if (r == 130) rc = 130;
    }
    free(copy);
    if (!ran) { fprintf(stderr, "bench run: --suite all: no suite re-runs a published patch\n"); return 2; }
    return rc;
}
