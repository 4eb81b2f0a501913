/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd_compare.c — `bench compare`: B against A per cell, from one run or from runs of one job. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_opts.h"
#include "compare_unpaired.h"
#include "gate.h"
#include "gate_det.h"
#include "gate_doc.h"
#include "gate_outputs.h"
#include "nearest.h"


static const char COMPARE_SYNOPSIS[] =
    "usage: bench compare [--run ID|latest] [--suite S] [A B]     impls A and B of one run\n"
    "       bench compare --runs IDS_A IDS_B [--impl X]          runs against runs of one job\n"
    "\n"
    "Per cell: the cost ratio B/A (> 1: B is slower) with its 95 % CI from paired samples\n"
    "(Hodges-Lehmann on log ratios, Wilcoxon signed-rank CI and p-value), Holm's correction\n"
    "for the number of cells, and the minimum detectable change (MDC, 80 % power).\n"
    "\n"
    "With --threshold P% or --thresholds FILE (rule 'claim' for impls of one run, 'commit' for runs\n"
    "against runs) each cell is judged as a gate judges it, and the exit status is a gate's.\n"
    "\n"
    "  A B                   impls to compare in one run (default: the run's baseline and candidate)\n";

enum { O_RUNS = 1, O_ALPHA, O_FORMAT, O_WRITE, O_OUT, O_ANNOTATE, O_THRESHOLD };

typedef struct compare_args {
    pb_cli *cli;
    const char *db, *run, *suite, *runs_a, *runs_b, *impl, *metric, *threshold, *thresholds;
    const char *pos[2];
    int npos;
    int want_runs_b;   /* --runs IDS_A was given: the next word is IDS_B */
    pb_gate_outputs out;   /* --format, --write, --annotate */
    pb_gate_doc *doc;
    pb_gate_params gp;
} compare_args;

static const pb_cli_opt OPTS[] = {
    PB_OPT_RUN("the run (default latest, of --suite if given)", compare_args, run),
    PB_OPT_SUITE("S", "with --run latest: the newest complete run of suite S", compare_args, suite),
    PB_OPT_ONCE("runs", "IDS_A IDS_B", "comma lists of run ids, one run per alternation on each side, made\n"
                            "alternately in one job on one machine (ci/perf-gate does this): pair k\n"
                            "is the k-th run of each side, per cell its medians. With one run each:\n"
                            "ratio of medians only (a single pair of runs allows no valid test).\n"
                            "Runs of other machines or jobs (PB_JOB_ID) are refused, except one run\n"
                            "each of different (or no) jobs: then an UNPAIRED comparison (every sample\n"
                            "against every sample, Hodges-Lehmann ratio, Mann-Whitney CI), not stored.", O_RUNS),
    PB_OPT_IMPL("X", "with --runs: only impl X (default every impl on both sides)", compare_args, impl),
    PB_OPT_STRING("metric", "M", "metric (default the run's primary metric); throughputs become costs", compare_args,
                  metric),
    PB_OPT("alpha", "A", "family-wise error rate (default 0.05)", O_ALPHA),
    PB_OPT("threshold", "P%", "judge every cell against P% as a gate does (exit 0, 1 or 3; 3 is 3%)", O_THRESHOLD),
    PB_OPT_STRING("thresholds", "FILE", "the same with the rules of FILE (ci/thresholds' format)", compare_args,
                  thresholds),
    PB_GATE_OUTPUT_OPTS(O_FORMAT, O_WRITE, O_OUT, O_ANNOTATE),
    PB_OPT_DB(compare_args, db),
    PB_OPT_END,
};

/* --runs IDS_A takes the next word as IDS_B (on_pos): an option there is a list missing */
static int runs_complete(void *ctx, const pb_cli_opt *o)
{
    compare_args *a = ctx;
    (void)o;
    return a->want_runs_b ? pb_cli_error(a->cli, "--runs needs two run lists") : 0;
}

static int on_opt(void *ctx, int id, const char *v)
{
    compare_args *a = ctx;
    switch (id) {
    case O_RUNS: a->runs_a = v; a->want_runs_b = 1; return 0;
    case O_ALPHA: return pb_gate_output_opt("bench compare", "alpha", v, NULL, &a->gp) < 0 ? -1 : 0;
    case O_THRESHOLD: {
        pb_thresholds t;
        pb_err te = {{0}};
        int rc = pb_thresholds_single(&t, v, &te);   /* checked now: before the store is opened */
        pb_thresholds_free(&t);
        if (rc < 0) return pb_cli_error(a->cli, "%s", te.msg);
        a->threshold = v;
        return 0;
    }
    case O_FORMAT: return pb_gate_outputs_opt(&a->out, a->cli, "format", v) < 0 ? -1 : 0;
    case O_WRITE: return pb_gate_outputs_opt(&a->out, a->cli, "write", v) < 0 ? -1 : 0;
    case O_OUT: return pb_gate_outputs_opt(&a->out, a->cli, "out", v) < 0 ? -1 : 0;
    default: return pb_gate_outputs_opt(&a->out, a->cli, "annotate", v) < 0 ? -1 : 0;
    }
}

static int on_pos(void *ctx, const char *w)
{
    compare_args *a = ctx;
    if (a->want_runs_b) {
        a->runs_b = w;
        a->want_runs_b = 0;
        return 0;
    }
    if (a->npos == 2) return pb_cli_error(a->cli, "too many impls ('%s'): give A and B", w);
    a->pos[a->npos++] = w;
    return 0;
}

/* 0 ok, 1 help shown, -1 bad input (message printed) */
static int parse(int argc, char **argv, compare_args *a)
{
    pb_cli cli = {.cmd = "compare", .synopsis = COMPARE_SYNOPSIS, .opts = OPTS, .on_opt = on_opt, .on_seen = runs_complete, .on_pos = on_pos,
                  .ctx = a,
                  .epilogue = "\nExit status 0, or 2 for bad input (also an impl, or a run, against itself: for an A/A\n"
                              "compare two runs of one build); with a threshold a gate's (0 pass, 1 regression,\n"
                              "3 inconclusive). The comparison is stored (table comparisons).\n"};
    a->cli = &cli;
    int r = pb_cli_parse(&cli, argc, argv);
    a->cli = NULL;
    if (r) return r == 1 ? 1 : -1;
    if (a->want_runs_b) { fprintf(stderr, "bench compare: --runs needs two run lists\n"); return -1; }
    if (a->runs_a && (a->run || a->npos)) {
        fprintf(stderr, "bench compare: --runs compares runs; --run and impl names compare impls of one run\n");
        return -1;
    }
    if (a->npos == 1) { fprintf(stderr, "bench compare: give two impls, A and B (or none)\n"); return -1; }
    /* an impl against itself pairs every sample with itself: a ratio of exactly 1, stored as a finding */
    if (a->npos == 2 && !strcmp(a->pos[0], a->pos[1])) {
        fprintf(stderr, "bench compare: A and B are both '%s': an impl against itself measures nothing (for an A/A, "
                        "bench gate --calibrate --impl %s)\n", a->pos[0], a->pos[0]);
        return -1;
    }
    pb_err e = {{0}};
    if (a->runs_a && pb_check_run_sides(a->runs_a, a->runs_b, "--runs IDS_A", "--runs IDS_B", &e) < 0) {
        fprintf(stderr, "bench compare: %s\n", e.msg);
        return -1;
    }
    if (a->metric && !pb_metric_known(a->metric)) {
        char why[700];
        fprintf(stderr, "bench compare: %s\n", pb_metric_unknown(why, sizeof why, a->metric, ""));
        return -1;
    }
    return 0;
}

static int has_impl(const pb_gate_data *d, const char *impl)
{
    for (size_t i = 0; i < d->n; i++)
        if (!strcmp(d->c[i].impl, impl)) return 1;
    return 0;
}

static void list_impls(const pb_gate_data *d, char *buf, size_t cap)
{
    size_t off = 0;
    buf[0] = 0;
    for (size_t i = 0; i < d->n && off < cap; i++) {
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++) seen = !strcmp(d->c[j].impl, d->c[i].impl);
        if (!seen) off += (size_t)snprintf(buf + off, cap - off, "%s%s", off ? "," : "", d->c[i].impl);
    }
}

/* The cells judged against th's rule (NULL: compared only), stored as c, printed (text) and added
 * to the document under title: the exit status (a gate's with a threshold, else 0), or -1 + e. */
static int finish_comparison(compare_args *a, pb_store *st, const pb_thresholds *th, const char *rule, pb_comparison *c,
                             const char *title, const char *pairing, pb_cmp_cell *cells, size_t n, pb_err *e)
{
    /* counts are exact: no estimator, no test (gate_det.h) */
    const char *method = n && cells[0].exact ? "counts: each side's count, their ratio exact (no test)" : NULL;
    double t = NAN;
    int line = 0;
    if (th && pb_thresholds_lookup(th, rule, c->suite, c->metric, &t, &line, e) < 0) return -1;
    for (size_t i = 0; i < n; i++) cells[i].threshold = t;
    pb_gate_decide(cells, n, &a->gp);
    char note[700] = "", where[600];
    if (th)
        snprintf(note, sizeof note, "threshold %.3g%% (%s, rule '%s'), judged as a gate judges", 100 * t,
                 pb_thresholds_where(th, line, where, sizeof where), rule);
    c->exit_status = th ? pb_gate_exit_status(cells, n) : -1;
    c->thresholds = th ? th->path : NULL;
    c->note = th ? note : NULL;
    int64_t id = pb_gate_store(st, c, cells, n, e);
    if (id < 0) return -1;
    pb_cmp_header h = {.title = title, .suite = c->suite, .metric = c->metric, .pairing = pairing, .comparison_id = id,
                       .gp = &a->gp, .exit_status = c->exit_status, .note = c->note, .command = "compare", .th = th,
                       .threshold_line = line, .method = method};
    if (pb_gate_outputs_text(&a->out)) pb_gate_print(stdout, 0, &h, cells, n);
    if (pb_gate_doc_add(a->doc, st, &h, cells, n, e) < 0) return -1;
    return th ? c->exit_status : 0;
}

/* impls A and B of a count run (bench run --measure valgrind): counts need no pairing or test; where
 * the instructions differ, function by function, under the table */
static int compare_counts(pb_store *st, compare_args *a, const pb_thresholds *th, char *cmdline, const pb_run_meta *m,
                          const char *metric, const char *A, const char *B, pb_err *e)
{
    if (th)
        return pb_errf(e, "run %lld is a count run: bench gate --measure valgrind judges counts against a threshold",
                       (long long)m->id);
    pb_cmp_cell *cells;
    size_t n;
    if (pb_det_compare_cells(st, m->id, A, B, metric, &cells, &n, e) < 0) return -1;
    if (!n) { free(cells); return pb_errf(e, "run %lld has no cell where both %s and %s were counted", (long long)m->id, A, B); }
    pb_comparison c = {.command = "compare", .suite = m->suite, .metric = metric, .pairing = "medians",
                       .command_line = cmdline, .gp = &a->gp, .runs_a = &m->id, .nruns_a = 1};
    char title[256];
    snprintf(title, sizeof title, "compare %s count run %lld: %s (B) against %s (A)", m->suite, (long long)m->id, B, A);
    int status = finish_comparison(a, st, NULL, "claim", &c, title, "none (one deterministic count a side, no test)",
                                   cells, n, e);
    free(cells);
    return status;
}

/* impls A and B of one run, paired by round */
static int compare_one_run(pb_store *st, compare_args *a, const pb_thresholds *th, char *cmdline, pb_err *e)
{
    int64_t run;
    if (!a->run || !strcmp(a->run, "latest")) {
        run = pb_store_latest_run(st, a->suite);
        if (!run)
            return pb_errf(e, "no complete run%s%s in %s", a->suite ? " of suite " : "", a->suite ? a->suite : "",
                           a->db);
    } else {
        char *end;
        run = strtoll(a->run, &end, 10);
        if (*end || run <= 0) return pb_errf(e, "--run wants a run id or 'latest', got '%s'", a->run);
    }
    pb_run_meta m;
    if (pb_gate_run_meta(st, run, &m, e) < 0) return -1;
    if (strcmp(m.status, "complete"))
        return pb_errf(e, "run %lld is %s, not complete: it cannot be compared", (long long)run, m.status);
    if (a->suite && strcmp(a->suite, m.suite))
        return pb_errf(e, "run %lld is of suite %s, not %s", (long long)run, m.suite, a->suite);
    const char *metric = a->metric ? a->metric : m.primary_metric;
    const char *A = a->npos ? a->pos[0] : m.baseline, *B = a->npos ? a->pos[1] : m.candidate;
    if (!strncmp(m.options, "measure=valgrind", 16)) return compare_counts(st, a, th, cmdline, &m, metric, A, B, e);
    pb_gate_data d = {0};
    if (pb_gate_load_run(st, run, metric, &d, e) < 0) { pb_gate_data_free(&d); return -1; }
    for (int k = 0; k < 2; k++) {
        const char *x = k ? B : A;
        if (!has_impl(&d, x)) {
            char all[512];
            list_impls(&d, all, sizeof all);
            pb_gate_data_free(&d);
            char hint[96];
            return pb_errf(e, "run %lld has no impl '%s' (%sit has: %s)", (long long)run, x,
                           pb_did_you_mean(hint, sizeof hint, x, all), all);
        }
    }
    pb_cmp_cell *cells;
    size_t n;
    if (pb_gate_cells_within(&d, A, B, &a->gp, &cells, &n, e) < 0) { pb_gate_data_free(&d); return -1; }
    pb_gate_data_free(&d);
    if (!n) return pb_errf(e, "run %lld has no cell where both %s and %s ran", (long long)run, A, B);
    pb_comparison c = {.command = "compare", .suite = m.suite, .metric = metric, .pairing = "round",
                       .command_line = cmdline, .gp = &a->gp, .runs_a = &run, .nruns_a = 1};
    char title[256];
    snprintf(title, sizeof title, "compare %s run %lld: %s (B) against %s (A)", m.suite, (long long)run, B, A);
    int status = finish_comparison(a, st, th, "claim", &c, title, "round (interleaved in one run)", cells, n, e);
    free(cells);
    return status;
}

/* runs against runs: alternations paired by medians, or one run each untested */
static int compare_runs(pb_store *st, compare_args *a, const pb_thresholds *th, char *cmdline, pb_err *e)
{
    int64_t *ra = NULL, *rb = NULL;
    size_t na, nb;
    if (pb_parse_run_ids(a->runs_a, &ra, &na, e) < 0) return -1;
    if (pb_parse_run_ids(a->runs_b, &rb, &nb, e) < 0) { free(ra); return -1; }
    int rc = 0;
    /* one run each from different (or no) jobs: nothing pairs them; say so and compare unpaired */
    pb_run_meta ma, mb;
    if (na == 1 && nb == 1 && pb_gate_run_meta(st, ra[0], &ma, e) == 0 && pb_gate_run_meta(st, rb[0], &mb, e) == 0 &&
        (!ma.job_id[0] || strcmp(ma.job_id, mb.job_id))) {
        /* not a paired comparison, not stored, no verdict: its own table, and nothing else */
        if (th || a->out.format != PB_FMT_TEXT || a->out.nout || a->out.annotate)
            rc = pb_errf(e, "--runs %lld %lld: runs of different (or no) jobs are compared UNPAIRED, as a text table "
                            "only: no threshold, no --format, --write or --annotate", (long long)ra[0], (long long)rb[0]);
        else rc = pb_compare_unpaired(st, ra[0], rb[0], a->impl, stdout, e);
        free(ra);
        free(rb);
        return rc;
    }
    if (na != nb)
        rc = pb_errf(e, "--runs: %zu runs against %zu: give one run per alternation on each side", na, nb);
    pb_gate_data d = {0};
    pb_run_meta m0;
    char metric[PB_NAME_MAX];
    pb_cmp_cell *cells = NULL;
    size_t n = 0;
    if (rc == 0) rc = pb_gate_load_sessions(st, ra, rb, na, a->metric, metric, sizeof metric, &m0, &d, e);
    if (rc == 0) rc = pb_gate_cells_across(&d, ra, rb, na, a->impl, &a->gp, &cells, &n, e);
    pb_gate_data_free(&d);
    if (rc == 0) {
        const char *pairing = na > 1 ? "alternation" : "medians";
        pb_comparison c = {.command = "compare", .suite = m0.suite, .metric = metric, .pairing = pairing,
                           .command_line = cmdline, .gp = &a->gp, .runs_a = ra, .nruns_a = na,
                           .runs_b = rb, .nruns_b = nb, .alternating = na > 1};
        char title[512];
        snprintf(title, sizeof title, "compare %s runs %s (B) against runs %s (A)", m0.suite, a->runs_b, a->runs_a);
        rc = finish_comparison(a, st, th, "commit", &c, title,
                               na > 1 ? "alternation (medians of each run, one pair per alternation)"
                                      : "nothing: one run each, ratio of medians without a test",
                               cells, n, e);
    }
    free(cells);
    free(ra);
    free(rb);
    return rc;
}

/* the comparison asked for, against the thresholds when one is given: its exit status, or -1 + e */
static int compare_main(compare_args *a, char *cmdline, pb_err *e)
{
    pb_thresholds th;
    int judged = a->threshold || a->thresholds;
    if (judged && pb_thresholds_for(&th, a->threshold, a->thresholds, e) < 0) return -1;
    pb_store st;
    int rc = pb_gate_open(&st, a->db, 1, e);
    if (rc == 0) {
        rc = a->runs_a ? compare_runs(&st, a, judged ? &th : NULL, cmdline, e)
                       : compare_one_run(&st, a, judged ? &th : NULL, cmdline, e);
        pb_store_close(&st);
    }
    if (judged) pb_thresholds_free(&th);
    return rc;
}

int cmd_compare(int argc, char **argv)
{
    compare_args a = {.db = pb_default_db(), .out = {.format = PB_FMT_TEXT}, .gp = PB_GATE_DEFAULTS};
    int r = parse(argc, argv, &a);
    if (r == 0 && pb_gate_outputs_check(&a.out, "compare") < 0) r = -1;
    if (r == 0 && !(a.doc = pb_gate_doc_new())) {
        fprintf(stderr, "bench compare: out of memory\n");
        r = -1;
    }
    if (r) return r > 0 ? 0 : 2;
    char cmdline[2048];
    pb_cli_join(argc, argv, cmdline, sizeof cmdline);
    pb_err e = {{0}};
    pb_gate_outputs_begin(&a.out);
    int rc = compare_main(&a, cmdline, &e);
    if (rc < 0) {
        fprintf(stderr, "bench compare: %s\n", e.msg);
        pb_gate_doc_error(a.doc, a.suite ? a.suite : "", e.msg);
        rc = PB_GATE_EXIT_ERROR;
    }
    rc = pb_gate_outputs_status(rc, pb_gate_outputs_finish(&a.out, a.doc, "compare", 1));
    pb_gate_doc_free(a.doc);
    return rc;
}
