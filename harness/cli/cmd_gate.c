/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd_gate.c — `bench gate`: the claim gate (two impls interleaved in one run), the commit
 * gate's decision (one impl across the alternating runs of two builds: ci/perf-gate makes
 * them), and A/A calibration. Statistics and verdicts are gate.c's, the suite the gate runs is
 * pair_suite.c's; this file runs things. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"
#include "cli_opts.h"
#include "gate.h"
#include "gate_baseline.h"
#include "gate_det.h"
#include "gate_doc.h"
#include "gate_outputs.h"
#include "gbshim.h"
#include "metrics.h"
#include "pair_suite.h"
#include "pb_config.h"
#include "runner.h"
#include "runenv.h"
#include "suite_module.h"
#include "gate_layouts.h"

#define MAX_RERUNS 6

static const char GATE_SYNOPSIS[] =
    "usage: bench gate --suite S [--baseline IMPL] [--candidate IMPL] [--quick] [options]\n"
    "       bench gate --baseline-runs IDS --candidate-runs IDS [--impl X] [options]\n"
    "       bench gate --calibrate --suite S [--impl X] [--repeat N] [--quick] [options]\n"
    "       bench gate --suite S --baseline-module PATH [--candidate-module PATH] [--impl X] [options]\n"
    "       bench gate --merge FILE... [--format F] [--out F=FILE] [--annotate github|gitlab]\n"
    "       bench gate --against NAME [--run ID] [--impl X] [options]\n"
    "\n"
    "Claim gate (first form): runs the suite's grid for the two impls, interleaved, and fails\n"
    "a cell only when the candidate is significantly slower (Holm over the cells) AND slower by\n"
    "more than the threshold in the thresholds file (rule 'claim'). Cells too noisy to tell\n"
    "(the CI holds both 1 and 1 + threshold) are rerun with twice the rounds, up to --reruns\n"
    "times, and are then reported inconclusive.\n"
    "Commit gate (second form): one impl (or every impl) of two builds, from runs made\n"
    "alternately in one job on one machine (ci/perf-gate), paired by alternation (rule 'commit').\n"
    "Calibration (third form): A/A, impl X against a second copy of itself (X" AA_SUFFIX ") in the\n"
    "same run, --repeat times: this machine's noise and MDC per cell, and how often an A/A gate\n"
    "alarms; stored (table calibrations) and shown beside later gates. With --baseline-runs and\n"
    "--candidate-runs of one build against itself (ci/perf-gate --aa) it calibrates the commit gate.\n"
    "Commit gate in one process (fourth form): loads two builds' suites (" PB_SUITE_MODULE_FILE ", the\n"
    "baseline's and the candidate's) and runs every impl X of both, X~base against X, interleaved\n"
    "round by round in one run, like the claim gate (rule 'commit'; reruns and --budget as there).\n"
    "With --calibrate: the same with one build on both sides (A/A).\n"
    "Merge (fifth form): the documents of several gates saved with --format json (or --out\n"
    "json=FILE) as one document, in any format (the ci/ scripts: one document for all suites;\n"
    "bench gate --merge --help).\n"
    "Against a stored baseline (sixth form): a stored run (--run, default the newest complete one)\n"
    "against the run named NAME (bench baseline save), of the same machine and configuration,\n"
    "UNPAIRED: weaker than a paired gate, with a wider CI and its own threshold (rule 'baseline');\n"
    "for code whose old build cannot be run again (docs/gate.md, \"Stored baselines\").\n"
    "Thresholds: --threshold P% for every cell of this run, else --thresholds FILE, else\n"
    "ci/thresholds in the current folder, else the source tree's (docs/gate.md).\n";

static const char GATE_EPILOGUE[] =
    "\nExit status: 0 pass, 1 regression, 2 error, 3 inconclusive. Calibration in one run: 0 or 2;\n"
    "calibration with run lists: what its A/A gate decided.\n";

enum { O_SUITE, O_BASELINE, O_CANDIDATE, O_RUNS_A, O_RUNS_B, O_IMPL, O_QUICK, O_ROUNDS, O_RERUNS, O_SIZES,
       O_REPEAT, O_METRIC, O_THRESHOLDS, O_THRESHOLD, O_ALPHA, O_FORMAT, O_OUT, O_ANNOTATE, O_CALIBRATE, O_MEASURE,
       O_BUDGET, O_LAYOUTS, O_LAYOUT_SEED, O_BASE_MODULE, O_CAND_MODULE, O_AGAINST, O_RUN, O_NO_CONFIRM };

typedef struct gate_args {
    const pb_suite *suite;
    const char *baseline, *candidate, *impl, *db, *thresholds, *threshold, *metric, *sizes, *runs_a, *runs_b, *measure;
    const char *cpu;       /* --cpu (runenv.h); NULL: the default */
    const char *user_revision, *user_label;   /* --revision, --label (runner.h) */
    const char *against;   /* the sixth form: the stored baseline's name */
    int64_t against_run;   /* --run: the run gated against it; 0: the newest */
    int run_given;
    const char *base_module, *cand_module;   /* the fourth form */
    int quick, rounds, reruns, repeat, calibrate, progress;
    int no_confirm;        /* --no-confirm: a regression of the first run stands unconfirmed */
    const pb_cmp_cell *only0;   /* the first pass's cells (a confirmation's); NULL: the whole grid */
    size_t nonly0;
    double budget;         /* --budget SECONDS; 0: none */
    pb_gate_outputs out;   /* --format, --out, --annotate */
    pb_gate_doc *doc;      /* every comparison made, for the document's formats */
    pb_gate_params gp;     /* as given: alpha is the whole gate's family-wise error rate */
    pb_gate_params look;   /* what each look at the data is tested at (pb_gate_look_params) */
    void *suite_opts;      /* the suite's options object */
    const char *suite_opts_text;
    char cmdline[2048];
    pb_cli *cli;
    pb_layout_args la;     /* --layouts, --layout-seed (cli_layouts.h) */
    const char *pair_a, *pair_b;   /* the claim or calibration gate's impls, checked (resolve_pair) */
} gate_args;

static const pb_cli_opt OPTS[] = {
    PB_OPT("suite", "S", "suite (bench list)", O_SUITE),
    PB_OPT_ONCE("baseline", "IMPL", "default: the suite's baseline (old; exec --cmd: the first command)", O_BASELINE),
    PB_OPT_ONCE("candidate", "IMPL", "default: the suite's candidate (new; exec --cmd: the second command)", O_CANDIDATE),
    PB_OPT_LIST("baseline-runs", "IDS", "comma list of run ids, alternation k = k-th of each (>= 6 each)", O_RUNS_A),
    PB_OPT_LIST("candidate-runs", "IDS", "the same for the candidate build", O_RUNS_B),
    PB_OPT_ONCE("baseline-module", "PATH", "commit gate in one process (fourth form): the baseline build's suites,\n"
                                "its build/harness/" PB_SUITE_MODULE_FILE, O_BASE_MODULE),
    PB_OPT_ONCE("candidate-module", "PATH", "the candidate build's (default: the one beside this bench)", O_CAND_MODULE),
    PB_OPT("calibrate", NULL, "A/A calibration (third form)", O_CALIBRATE),
    PB_OPT_ONCE("against", "NAME", "the sixth form: gate a stored run against the stored baseline NAME,\n"
                          "unpaired (bench baseline save NAME [--run ID])", O_AGAINST),
    PB_OPT_ONCE("run", "ID|latest", "with --against: the run to gate (default latest: the newest complete\n"
                          "run of the baseline's suite)", O_RUN),
    PB_OPT_ONCE("impl", "X", "commit gate: only impl X; calibration: the impl (default baseline)", O_IMPL),
    PB_OPT("quick", NULL, "fewer, shorter samples (15 rounds of 0.5 ms)", O_QUICK),
    PB_OPT("rounds", "N", "rounds of the first pass (default 61, quick 15)", O_ROUNDS),
    PB_OPT("reruns", "N", "reruns of inconclusive cells, each with twice the rounds (default 2).\n"
                    "With run lists: how many more looks the caller may take (default 0).\n"
                    "Each look is tested at alpha / (1 + N).", O_RERUNS),
    PB_OPT("budget", "SECONDS", "more power per second: after the first pass, rerun (twice the rounds\n"
                          "each time) every cell whose MDC is not yet under half its threshold,\n"
                          "until all are, or the next pass would overrun SECONDS (then the\n"
                          "inconclusive cells alone, where they fit), or --reruns\n"
                          "(default with --budget: 6) is reached; alpha is spent over those\n"
                          "looks as above. Reports the MDC reached (median, largest)", O_BUDGET),
    PB_OPT_LIST("sizes", "LIST", "only these sizes (as bench run)", O_SIZES),
    PB_OPT("layouts", "N", PB_LAYOUT_HELP_LAYOUTS ";\nthe commit gate: layout L of each build against layout L of the other", O_LAYOUTS),
    PB_OPT("layout-seed", "N", PB_LAYOUT_HELP_SEED, O_LAYOUT_SEED),
    PB_OPT("no-confirm", NULL, "let a regression stand without the second run that confirms it\n"
                          "(default: a cell is a regression only when a second run, its modules\n"
                          "loaded anew and the next layout seed, finds it too; docs/gate.md)", O_NO_CONFIRM),
    PB_OPT("repeat", "N", "calibration: A/A gates to run (default 1)", O_REPEAT),
    PB_OPT("metric", "M", "metric (default the suite's primary metric)", O_METRIC),
    PB_OPT("thresholds", "FILE", "default ci/thresholds (here, else in the source tree)", O_THRESHOLDS),
    PB_OPT("threshold", "P%", "one threshold for every cell of this run, in place of the file's", O_THRESHOLD),
    PB_OPT("alpha", "A", "family-wise error rate over the cells (default 0.05)", O_ALPHA),
    PB_GATE_OUTPUT_OPTS(O_FORMAT, O_OUT, O_ANNOTATE),
    PB_OPT_DB(gate_args, db),
    PB_OPT("measure", "M", "time (default): wall time as above; valgrind: claim gate on\n"
                     "deterministic callgrind counts (metric insns_per_op by default; no\n"
                     "statistics: the ratio itself against the threshold; see docs/gate.md).\n"
                     "With --baseline-runs X --candidate-runs Y: one stored valgrind run\n"
                     "(bench run --measure valgrind) of each build, rule 'commit'.\n"
                     "both: the claim gate on wall time and on counts, per cell side by\n"
                     "side (time moved, instructions not: memory, stalls, layout)", O_MEASURE),
    PB_OPT_CPU(gate_args, cpu),
    PB_OPT_REVISION(gate_args, user_revision),
    PB_OPT_LABEL(gate_args, user_label),
    PB_OPT_QUIET(gate_args, progress),
    PB_OPT_END,
};

static int on_opt(void *ctx, int id, const char *v)
{
    gate_args *a = ctx;
    switch (id) {
    case O_SUITE: return 0;   /* found before parsing (pb_cli_find_suite) */
    case O_BASELINE: a->baseline = v; return 0;
    case O_CANDIDATE: a->candidate = v; return 0;
    case O_RUNS_A: a->runs_a = v; return 0;
    case O_BASE_MODULE: a->base_module = v; return 0;
    case O_CAND_MODULE: a->cand_module = v; return 0;
    case O_RUNS_B: a->runs_b = v; return 0;
    case O_IMPL: a->impl = v; return 0;
    case O_SIZES: a->sizes = v; return 0;
    case O_METRIC: a->metric = v; return 0;
    case O_THRESHOLDS: a->thresholds = v; return 0;
    case O_THRESHOLD: {
        pb_thresholds t;
        pb_err te = {{0}};
        int rc = pb_thresholds_single(&t, v, &te);   /* checked now: before anything runs */
        pb_thresholds_free(&t);
        if (rc < 0) return pb_cli_error(a->cli, "%s", te.msg);
        a->threshold = v;
        return 0;
    }
    case O_QUICK: a->quick = 1; return 0;
    case O_NO_CONFIRM: a->no_confirm = 1; return 0;
    case O_CALIBRATE: a->calibrate = 1; return 0;
    case O_AGAINST: a->against = v; return 0;
    case O_RUN: a->run_given = 1; return pb_cli_run_id(a->cli, "run", v, 1, &a->against_run);
    case O_MEASURE: a->measure = v; return 0;
    case O_ROUNDS: return pb_cli_int(a->cli, "rounds", v, 6, 100000, &a->rounds);
    case O_BUDGET: {
        char *end;
        double b = strtod(v, &end);
        if (end == v || *end || !(b > 0) || b > 86400)
            return pb_cli_error(a->cli, "--budget '%s': seconds, a number > 0 and <= 86400", v);
        a->budget = b;
        return 0;
    }
    case O_RERUNS: return pb_cli_int(a->cli, "reruns", v, 0, MAX_RERUNS, &a->reruns);
    case O_LAYOUTS: return pb_cli_layout_opt(a->cli, &a->la, "layouts", v);
    case O_LAYOUT_SEED: return pb_cli_layout_opt(a->cli, &a->la, "layout-seed", v);
    case O_REPEAT: return pb_cli_int(a->cli, "repeat", v, 1, 1000, &a->repeat);
    case O_ALPHA: return pb_gate_output_opt("bench gate", "alpha", v, NULL, &a->gp) < 0 ? -1 : 0;
    case O_FORMAT: return pb_gate_outputs_opt(&a->out, a->cli, "format", v) < 0 ? -1 : 0;
    case O_OUT: return pb_gate_outputs_opt(&a->out, a->cli, "out", v) < 0 ? -1 : 0;
    case O_ANNOTATE: return pb_gate_outputs_opt(&a->out, a->cli, "annotate", v) < 0 ? -1 : 0;
    }
    return pb_cli_error(a->cli, "option id %d not handled", id);
}

/* The sixth form takes stored runs and what judges them only: 0, or -1 after saying what does not go. */
static int check_against(const gate_args *a, const pb_cli *cli)
{
    pb_err e = {{0}};
    if (!a->against) return pb_cli_error(cli, "--run goes with --against NAME (the run to gate against a stored baseline)");
    if (pb_baseline_name_ok(a->against, &e) < 0) return pb_cli_error(cli, "--against: %s", e.msg);
    const char *other = a->runs_a ? "--baseline-runs" : a->base_module ? "--baseline-module" : a->calibrate ? "--calibrate"
                        : a->baseline ? "--baseline" : a->candidate ? "--candidate" : a->budget > 0 ? "--budget"
                        : a->measure ? "--measure" : a->user_revision ? "--revision" : a->user_label ? "--label"
                        : a->suite ? "--suite" : NULL;
    if (other)
        return pb_cli_error(cli, "--against compares stored runs: not with %s (bench run makes the run, with its "
                                 "suite's options; --impl names the impl gated)", other);
    return 0;
}

/* 0 ok, 1 help shown, -1 bad input (message printed) */
static int parse(int argc, char **argv, gate_args *a, pb_cli *cli)
{
    *cli = (pb_cli){.cmd = "gate", .synopsis = GATE_SYNOPSIS, .epilogue = GATE_EPILOGUE, .opts = OPTS,
                    .on_opt = on_opt, .ctx = a};
    a->cli = cli;
    if (pb_cli_find_suite("gate", argc, argv, &cli->suite)) return -1;
    pb_err oe = {{0}};
    if (cli->suite && !(cli->suite_opts = pb_suite_opts_new(cli->suite, &oe))) {
        fprintf(stderr, "bench gate: %s\n", oe.msg);
        return -1;
    }
    a->suite = cli->suite;
    a->suite_opts = cli->suite_opts;
    a->suite_opts_text = cli->suite_text;
    int r = pb_cli_parse(cli, argc, argv);
    if (r) return r == 1 ? 1 : -1;
    if (!!a->runs_a != !!a->runs_b) {
        fprintf(stderr, "bench gate: --baseline-runs and --candidate-runs go together\n");
        return -1;
    }
    if (a->against || a->run_given) return check_against(a, cli);
    if (!a->runs_a && !a->suite) { fprintf(stderr, "bench gate: --suite is required (see bench gate --help)\n"); return -1; }
    pb_err re = {{0}};
    if (a->runs_a && pb_check_run_sides(a->runs_a, a->runs_b, "--baseline-runs", "--candidate-runs", &re) < 0) {
        fprintf(stderr, "bench gate: %s\n", re.msg);
        return -1;
    }
    if (a->cand_module && !a->base_module) {
        fprintf(stderr, "bench gate: --candidate-module goes with --baseline-module\n");
        return -1;
    }
    if (a->base_module && (a->runs_a || a->baseline || a->candidate || (a->measure && strcmp(a->measure, "time")))) {
        fprintf(stderr, "bench gate: --baseline-module (the commit gate in one process) takes no --baseline-runs, "
                        "--baseline, --candidate or --measure other than time\n");
        return -1;
    }
    if (a->measure && strcmp(a->measure, "time") && strcmp(a->measure, "valgrind") && strcmp(a->measure, "both")) {
        fprintf(stderr, "bench gate: unknown --measure '%s' (time, valgrind or both)\n", a->measure);
        return -1;
    }
    int vg = a->measure && !strcmp(a->measure, "valgrind");
    if (a->measure && !strcmp(a->measure, "both") && (a->calibrate || a->runs_a)) {
        fprintf(stderr, "bench gate: --measure both is the claim gate (no --calibrate, no run lists)\n");
        return -1;
    }
    if (a->budget > 0 && (a->runs_a || vg)) {
        /* the commit gate's alternations are made by ci/perf-gate, which takes --budget itself */
        fprintf(stderr, "bench gate: --budget is for the wall-time gate in one run (claim or --calibrate); "
                        "the commit gate: ci/perf-gate --budget\n");
        return -1;
    }
    if (vg && a->calibrate) {
        fprintf(stderr, "bench gate: --measure valgrind has no --calibrate (counts do not vary: nothing to calibrate)\n");
        return -1;
    }
    if (a->metric && !vg && !pb_metric_known(a->metric)) { fprintf(stderr, "bench gate: unknown metric '%s'\n", a->metric); return -1; }
    const pb_metric *pm = a->metric ? pb_metric_find(a->metric) : NULL;
    if (pm && !vg && !pm->bit) {
        /* a count only callgrind gives: a wall-time gate would find no such rows */
        fprintf(stderr, "bench gate: --metric %s is a count of --measure valgrind\n", a->metric);
        return -1;
    }
    return 0;
}

/* where the text of what runs goes: standard output, unless it carries a document */
static FILE *human(const gate_args *a) { return pb_gate_outputs_text(&a->out) ? stdout : stderr; }

/* A comparison decided: its table on standard output now (text), and into the document. */
static int emit(const gate_args *a, pb_store *st, const pb_cmp_header *h, const pb_cmp_cell *cells, size_t n,
                pb_err *e)
{
    if (pb_gate_outputs_text(&a->out)) pb_gate_print(stdout, 0, h, cells, n);
    return a->doc ? pb_gate_doc_add(a->doc, st, h, cells, n, e) : 0;
}

/* --budget: a cell still worth more rounds — decided or not, its MDC is not yet under half its
 * threshold. A regression is left alone (the gate fails on it already); a cell without data
 * (an impl unavailable) gains nothing from more rounds. */
static int needs_power(const pb_cmp_cell *c)
{
    if (c->verdict == PB_CELL_REGRESSION || c->verdict == PB_CELL_NODATA) return 0;
    return !(c->mdc < c->threshold / 2);
}

/* One gate in one run (or in a few, with the reruns): first = the first pass, final = after reruns. */
typedef struct session {
    pb_cmp_cell *first, *final;
    size_t nfirst, nfinal;
    int64_t runs[MAX_RERUNS + 2];   /* the passes, then the confirmation's run */
    size_t nruns;
    int last_rounds;
    /* --budget: the time spent and why it stopped */
    double spent_s;
    const char *stop;
    int narrowed;                   /* passes that reran the inconclusive cells alone (the budget) */
    /* the confirmation of its regressions (confirm_regressions): its run, at runs[nruns]; 0: none */
    int64_t confirm_run;
    char confirm_note[300];
} session;

static void session_free(session *s)
{
    free(s->first);
    free(s->final);
    memset(s, 0, sizeof *s);
}

/* The MDC over the cells with data (median, largest) and how many cells still need power
 * (needs_power), appended to a note as "; MDC reached: ..." — ci/perf-gate --budget reads the count. */
static void note_mdc_reached(char *note, size_t cap, const pb_cmp_cell *c, size_t n)
{
    double *m = malloc((n + 1) * sizeof *m);
    size_t k = 0, short_of = 0;
    for (size_t i = 0; m && i < n; i++) {
        if (c[i].verdict != PB_CELL_NODATA && isfinite(c[i].mdc)) m[k++] = c[i].mdc;
        short_of += needs_power(&c[i]);
    }
    size_t len = strlen(note);
    snprintf(note + len, cap - len, "; MDC reached: median %.2f%%, largest %.2f%%; %zu of %zu cells not under half "
             "their threshold", k ? 100 * pb_median(m, k) : NAN, k ? 100 * pb_quantile(m, k, 1.0) : NAN, short_of, n);
    free(m);
}

/* kind: "claim", "aa" or "commit" (what runs.options says); builds: two builds' modules, whose cells
 * show the calibration of their candidate impl (X), else of their baseline impl (the claim gate's) */
static int run_session(const gate_args *a, pb_store *st, gate_wrap *W, gate_layouts *G, const char *kind,
                       const char *opts_extra, double threshold, const char *metric, int builds, session *out,
                       pb_err *e)
{
    memset(out, 0, sizeof *out);
    pb_suite wrapped;
    pb_pair_suite(W, &wrapped);
    const char *pa[GATE_MAX_PAIRS], *pbn[GATE_MAX_PAIRS];
    char opts[700];
    snprintf(opts, sizeof opts, "gate=%s%s%s %s", kind, opts_extra ? " " : "", opts_extra ? opts_extra : "",
             a->suite_opts_text);
    int rounds = a->rounds ? a->rounds : (a->quick ? 16 : 64);
    pb_gate_data d = {0};
    pb_cmp_cell *only = NULL;
    size_t nonly = 0;
    pb_run_meta m = {0};
    const pb_gate_params gp = a->look;
    int rc = 0;
    pb_iters_memo memo = {0};   /* a rerun's cases keep their first pass's iterations */
    pb_cmp_cell *kept = NULL;   /* the last pass's cells: what a cell left out of a rerun keeps */
    size_t nkept = 0;
    const uint64_t t0 = pb_now_ns();
    for (int pass = 0; rc == 0; pass++) {
        double pass_start = (double)(pb_now_ns() - t0) * 1e-9, grid_s = -1;
        const pb_cmp_cell *run_only = pass ? only : a->only0;
        size_t run_nonly = pass ? nonly : a->nonly0;
        W->only = run_only;
        W->nonly = run_nonly;
        pb_gate_layouts_only(G, run_only, run_nonly);
        pb_runner_opts o = {.suite = &wrapped, .suite_opts = W, .quick = a->quick, .rounds = rounds,
                            .sizes = pass || a->only0 ? NULL : a->sizes,
                            .db_path = a->db, .command_line = a->cmdline, .options_text = opts,
                            .progress = a->progress, .cpu = a->cpu, .iters_memo = &memo,
                            .layouts = pb_gate_layouts_set(G), .grid_s = &grid_s, .user_revision = a->user_revision,
                            .user_label = a->user_label};
        int64_t run = 0;
        int r = pb_run(&o, &run, e);
        if (r != 0) { rc = -1; break; }
        out->runs[out->nruns++] = run;
        out->last_rounds = rounds;
        if (pass == 0 && pb_gate_run_meta(st, run, &m, e) < 0) { rc = -1; break; }
        if (pb_gate_load_run(st, run, metric, &d, e) < 0) { rc = -1; break; }
        free(out->final);
        out->final = NULL;
        for (int i = 0; i < W->npairs; i++) {   /* known once planned (auto_pairs) */
            pa[i] = W->pairs[i].a;
            pbn[i] = W->pairs[i].b;
        }
        if (pb_gate_cells_within_pairs(&d, pa, pbn, (size_t)W->npairs, &gp, &out->final, &out->nfinal, e) < 0) {
            rc = -1;
            break;
        }
        for (size_t i = 0; i < out->nfinal; i++) {
            pb_cmp_cell *c = &out->final[i];
            const char *real = NULL;
            const gate_side *sd = pb_pair_side_of(W, builds ? c->impl_b : c->impl_a, &real);
            c->threshold = threshold;
            c->calibrated_mdc = pb_gate_calibrated_mdc(st, m.machine_id, "round", wrapped.name, sd ? real : c->impl_a,
                                                       c->variant, c->op, c->size, metric);
        }
        pb_gate_decide(out->final, out->nfinal, &gp);
        if (pass > 0 && kept) {
            /* a cell this pass did not rerun keeps what the last look that had it found: it was
             * decided there, on that look's share of alpha. Judged again beside the reruns' cells,
             * whose pairs are now many times its own, the moderation's prior would no longer fit
             * it (a 5 % slowdown's regressions after the first look came out inconclusive) */
            for (size_t i = 0; i < out->nfinal; i++) {
                if (pb_gate_find_cell(&out->final[i], run_only, run_nonly)) continue;
                const pb_cmp_cell *k = pb_gate_find_cell(&out->final[i], kept, nkept);
                if (k) out->final[i] = *k;
            }
        }
        free(kept);
        nkept = 0;
        kept = malloc((out->nfinal + 1) * sizeof *kept);
        if (!kept) { rc = pb_errf(e, "out of memory"); break; }
        memcpy(kept, out->final, out->nfinal * sizeof *kept);
        nkept = out->nfinal;
        if (pass == 0) {
            out->first = malloc((out->nfinal + 1) * sizeof *out->first);
            if (!out->first) { rc = pb_errf(e, "out of memory"); break; }
            memcpy(out->first, out->final, out->nfinal * sizeof *out->first);
            out->nfirst = out->nfinal;
        }
        free(only);
        only = malloc((out->nfinal + 1) * sizeof *only);
        size_t nlast = nonly ? nonly : out->nfinal;
        nonly = 0;
        if (!only) { rc = pb_errf(e, "out of memory"); break; }
        for (size_t i = 0; i < out->nfinal; i++)
            if (out->final[i].verdict == PB_CELL_INCONCLUSIVE || (a->budget > 0 && needs_power(&out->final[i])))
                only[nonly++] = out->final[i];
        double now = (double)(pb_now_ns() - t0) * 1e-9;
        out->spent_s = now;
        if (!nonly) { out->stop = a->budget > 0 ? "every cell's MDC under half its threshold" : NULL; break; }
        if (pass >= a->reruns) { out->stop = "no looks left (--reruns)"; break; }
        /* the next pass: twice the rounds of nonly cells. The last pass's grid, per cell-round,
         * predicts its grid; what came before the grid (planning, the code layouts' modules, the
         * builds' namespaces) is paid once again, not doubled: doubling it too stopped a 120 s
         * commit gate of the drbg suite after its first pass at 25-55 s (issue 20) */
        double pass_s = now - pass_start, grid = grid_s >= 0 && grid_s <= pass_s ? grid_s : pass_s;
        double next_s = (pass_s - grid) + grid * 2.0 * (double)nonly / (double)nlast;
        if (a->budget > 0 && now + next_s > a->budget) {
            /* the cells short of power would overrun the budget: the inconclusive ones, whose decision
             * is open, are rerun alone where they fit (a 5 % slowdown's cells at 1.04 with Holm p just
             * over alpha were left so while the pass for every cell short of power did not fit) */
            size_t ninc = 0;
            for (size_t i = 0; i < nonly; i++)
                if (only[i].verdict == PB_CELL_INCONCLUSIVE) only[ninc++] = only[i];
            double inc_s = (pass_s - grid) + grid * 2.0 * (double)ninc / (double)nlast;
            if (!ninc || ninc == nonly || now + inc_s > a->budget) {
                out->stop = "budget spent (the next pass would overrun it)";
                break;
            }
            nonly = ninc;
            out->narrowed++;
        }
        rounds *= 2;
        if (a->progress)
            fprintf(stderr, "bench gate: %zu cell%s %s: rerun %d of %d with %d rounds\n", nonly,
                    nonly == 1 ? "" : "s",
                    a->budget > 0 && !out->narrowed ? "inconclusive or with MDC >= threshold/2" : "inconclusive",
                    pass + 1, a->reruns, rounds);
    }
    free(only);
    free(kept);
    pb_iters_memo_free(&memo);
    pb_gate_data_free(&d);
    W->only = NULL;
    W->nonly = 0;
    if (rc < 0) session_free(out);
    return rc;
}

/* The layouts of a gate, opened again for its confirmation with other layout arguments. */
typedef gate_layouts *(*layouts_opener)(const void *ctx, const pb_layout_args *la, char *why, size_t cap, pb_err *e);

/* A regression fails a gate only once a second run of the same code finds it too.
 *
 * One run is one sample of everything the process fixed as it started: where the loader put each
 * layout's module (the address bits that index branch predictors and caches), where the heap
 * began, the seed's stack and heap offsets and round order, and what the VM's neighbours did in
 * those seconds. The layouts vary placement within the run; nothing varied it between runs, and
 * on a 2-vCPU VM a commit that changed no timed code once failed CI on one xts cell of 320 (issue
 * 20). So the cells a run calls regressions run again: every layout's module loaded anew behind a
 * gap of address space, the next layout seed (other offsets, another round order), one pass with
 * the rounds of the pass that flagged them, Holm over those cells only, at the whole alpha. A cell
 * stays a regression when both runs call it one: an intersection-union test, each run at level
 * alpha, so the pair is too; a real slowdown is found again, with the fewer cells' Holm even more
 * easily. One not reproduced is inconclusive, and its note gives the second run's ratio. Both runs
 * are stored with the comparison. */
static int confirm_regressions(const gate_args *a, pb_store *st, gate_wrap *W, layouts_opener open_layouts,
                               const void *octx, const char *kind, const char *extra, double t, const char *metric,
                               int builds, session *ss, pb_err *e)
{
    size_t k = 0;
    for (size_t i = 0; i < ss->nfinal; i++) k += ss->final[i].verdict == PB_CELL_REGRESSION;
    if (!k || a->no_confirm) return 0;
    pb_cmp_cell *flagged = malloc(k * sizeof *flagged);
    if (!flagged) return pb_errf(e, "out of memory");
    k = 0;
    for (size_t i = 0; i < ss->nfinal; i++)
        if (ss->final[i].verdict == PB_CELL_REGRESSION) flagged[k++] = ss->final[i];
    gate_args ca = *a;
    ca.reruns = 0;
    ca.budget = 0;
    ca.rounds = ss->last_rounds;
    ca.look = a->gp;
    ca.la.seed = a->la.seed + 1;
    ca.only0 = flagged;
    ca.nonly0 = k;
    if (a->progress)
        fprintf(stderr, "bench gate: %zu regression%s: confirming in a second run (modules loaded anew, layout seed "
                "%llu, %d rounds)\n", k, k == 1 ? "" : "s", (unsigned long long)ca.la.seed, ca.rounds);
    /* A gap of address space ahead of the new copies, so that they do not fall back into the holes the
     * first copies left: the loader maps top-down, first fit. PROT_NONE: no memory behind it. */
    pb_rng r;
    pb_rng_seed(&r, ca.la.seed ^ 0xc0f1c0f1ull);
    size_t gap_len = (size_t)(1 + pb_rng_next(&r) % 4096) * 4096u;   /* 4 KiB to 16 MiB */
    void *gap = mmap(NULL, gap_len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    char why[300], ex[300];
    snprintf(ex, sizeof ex, "%s%sconfirmation=1", extra ? extra : "", extra ? " " : "");
    gate_layouts *G = open_layouts(octx, &ca.la, why, sizeof why, e);
    session cs;
    int rc = !G && e->msg[0] ? -1 : run_session(&ca, st, W, G, kind, ex, t, metric, builds, &cs, e);
    pb_gate_layouts_free(G);
    if (gap != MAP_FAILED) munmap(gap, gap_len);
    free(flagged);
    if (rc < 0) return -1;
    size_t confirmed = pb_gate_confirm(ss->final, ss->nfinal, cs.final, cs.nfinal);
    ss->confirm_run = cs.nruns ? cs.runs[0] : 0;
    if (ss->confirm_run) ss->runs[ss->nruns] = ss->confirm_run;
    snprintf(ss->confirm_note, sizeof ss->confirm_note, "; %zu regression%s in the first run, %zu confirmed by a "
             "second (run %lld: modules loaded anew, layout seed %llu, %d rounds, Holm over those cells)", k,
             k == 1 ? "" : "s", confirmed, (long long)ss->confirm_run, (unsigned long long)ca.la.seed, ca.rounds);
    session_free(&cs);
    return 0;
}

/* the runs a comparison stores: the passes and the confirmation's */
static size_t session_nruns(const session *s)
{
    return s->nruns + (s->confirm_run != 0);
}

static void rounds_note(char *buf, size_t cap, const gate_args *a, const session *s, double t, int line,
                        const pb_thresholds *th)
{
    int r0 = a->rounds ? a->rounds : (a->quick ? 16 : 64);
    char where[600];
    snprintf(buf, cap, "threshold %.3g%% (%s); alpha %g over up to %d looks; %d rounds%s", 100 * t,
             pb_thresholds_where(th, line, where, sizeof where),
             a->gp.alpha, 1 + a->reruns, r0, s->nruns == 1 ? ""
             : a->budget > 0 ? ", cells inconclusive or with MDC >= threshold/2 rerun" : ", inconclusive cells rerun");
    for (size_t i = 1; i < s->nruns; i++)
        snprintf(buf + strlen(buf), cap - strlen(buf), " +%d", r0 << i);
    if (a->budget > 0) {
        snprintf(buf + strlen(buf), cap - strlen(buf), "; budget %gs: %.1fs spent, %s", a->budget, s->spent_s,
                 s->stop ? s->stop : "done");
        if (s->narrowed)
            snprintf(buf + strlen(buf), cap - strlen(buf), "; %d rerun%s of the inconclusive cells alone (the budget "
                     "would not hold every cell short of power)", s->narrowed, s->narrowed == 1 ? "" : "s");
        note_mdc_reached(buf, cap, s->final, s->nfinal);
    }
    snprintf(buf + strlen(buf), cap - strlen(buf), "%s", s->confirm_note);
}

/* impl, from option opt (NULL: the suite's default), is one the suite plans: else e names the option */
static int check_impl_opt(const gate_args *a, const char *impl, const char *opt, pb_err *e)
{
    if (pb_suite_check_impl(a->suite, a->suite_opts, impl, e) == 0) return 0;
    char why[sizeof e->msg];
    snprintf(why, sizeof why, "%s", e->msg);
    return opt ? pb_errf(e, "%s: %.400s", opt, why) : -1;
}

/* A --plugin NAME=PATH whose NAME is neither gated impl would be loaded and self-tested but never
 * gated, so a user who meant to gate it would read a verdict on something else: refused, naming
 * how to gate it (bench run adds such a plug-in to --impl instead, since it times every impl). */
static int plugins_gated(const gate_args *a, const char *A, const char *B, pb_err *e)
{
    const pb_cli *cli = a->cli;
    for (int i = 0; i < cli->nsuite_given; i++) {
        const char *v = cli->suite_given_value[i], *eq = v ? strchr(v, '=') : NULL;
        if (strcmp(cli->suite_given_name[i], "plugin") || !eq) continue;
        size_t len = (size_t)(eq - v);
        if ((strlen(A) == len && !strncmp(A, v, len)) || (strlen(B) == len && !strncmp(B, v, len))) continue;
        return pb_errf(e,
                       "--plugin %.*s: this gate times only %s and %s, so the plug-in would not be gated; "
                       "name it with --candidate %.*s (or --baseline, --impl)",
                       (int)len > 100 ? 100 : (int)len, v, A, B, (int)len > 100 ? 100 : (int)len, v);
    }
    return 0;
}

typedef struct claim_layouts_ctx {
    const gate_args *a;
    const char *A, *B;
} claim_layouts_ctx;

static gate_layouts *claim_layouts(const void *ctx, const pb_layout_args *la, char *why, size_t cap, pb_err *e)
{
    const claim_layouts_ctx *c = ctx;
    return pb_gate_layouts_claim(c->a->cli, la, c->a->suite->name, c->A, c->B, 0, why, cap, e);
}

/* The impls of a claim gate (A against B) or a calibration (A against itself), checked into
 * a->pair_a, pair_b before the store is opened, so that a refused gate leaves no database: the run's
 * roles where the options name the impls (exec --cmd NAME=CMD: the first two commands), else the
 * suite's; --baseline, --candidate, --impl (calibration) over them. */
static int resolve_pair(gate_args *a, pb_err *e)
{
    const char *A, *B;
    pb_suite_roles(a->suite, a->suite_opts, &A, &B);
    if (a->calibrate) {
        if (a->impl) A = a->impl;
        if (check_impl_opt(a, A, a->impl ? "--impl" : NULL, e) < 0 || plugins_gated(a, A, A, e) < 0) return -1;
        a->pair_a = a->pair_b = A;
        return 0;
    }
    if (a->baseline) A = a->baseline;
    if (a->candidate) B = a->candidate;
    if (!strcmp(A, B)) return pb_errf(e, "baseline and candidate are both '%s': for A/A use --calibrate", A);
    if (check_impl_opt(a, A, a->baseline ? "--baseline" : NULL, e) < 0 ||
        check_impl_opt(a, B, a->candidate ? "--candidate" : NULL, e) < 0 || plugins_gated(a, A, B, e) < 0)
        return -1;
    a->pair_a = A;
    a->pair_b = B;
    return 0;
}

static int gate_claim(gate_args *a, pb_store *st, const pb_thresholds *th, const char *metric, pb_err *e)
{
    const pb_suite *s = a->suite;
    const char *A = a->pair_a, *B = a->pair_b;
    double t;
    int line;
    if (pb_thresholds_lookup(th, "claim", s->name, metric, &t, &line, e) < 0) return -1;
    session ss;
    gate_wrap W;
    pb_pair_claim(&W, a->suite, a->suite_opts, A, B, 0);
    char why[300];
    claim_layouts_ctx lc = {a, A, B};
    gate_layouts *G = claim_layouts(&lc, &a->la, why, sizeof why, e);
    if (!G && e->msg[0]) return -1;
    int sr = run_session(a, st, &W, G, "claim", NULL, t, metric, 0, &ss, e);
    pb_gate_layouts_free(G);
    if (sr < 0) return -1;
    if (confirm_regressions(a, st, &W, claim_layouts, &lc, "claim", NULL, t, metric, 0, &ss, e) < 0) {
        session_free(&ss);
        return -1;
    }
    int status = pb_gate_exit_status(ss.final, ss.nfinal);
    char note[1100];
    snprintf(note, sizeof note, "%s%s", why, why[0] ? "; " : "");
    rounds_note(note + strlen(note), sizeof note - strlen(note), a, &ss, t, line, th);
    pb_comparison c = {.command = "gate", .gate = "claim", .suite = s->name, .metric = metric, .pairing = "round",
                       .thresholds = th->path, .command_line = a->cmdline, .note = note, .gp = &a->look,
                       .exit_status = status, .runs_a = ss.runs, .nruns_a = session_nruns(&ss)};
    int64_t id = pb_gate_store(st, &c, ss.final, ss.nfinal, e);
    if (id < 0) { session_free(&ss); return -1; }
    char title[256];
    snprintf(title, sizeof title, "gate claim %s: %s (candidate) must not be slower than %s (baseline)", s->name, B, A);
    pb_cmp_header h = {.title = title, .suite = s->name, .metric = metric, .pairing = "round (interleaved in one run)",
                       .gate = "claim", .comparison_id = id, .gp = &a->look, .exit_status = status, .note = note,
                       .th = th, .threshold_line = line};
    int rc = emit(a, st, &h, ss.final, ss.nfinal, e);
    session_free(&ss);
    return rc < 0 ? -1 : status;
}

/* --measure both: the wall-time claim gate, then the count gate, then both per cell side by side.
 * Fails when either fails (a time-only regression is memory, stalls or layout, and still real). */
static int gate_both(gate_args *a, pb_det_gate *dg, pb_store *st, const pb_thresholds *th, const char *metric,
                     pb_err *e)
{
    int rt = gate_claim(a, st, th, metric, e);
    if (rt < 0) return -1;
    int64_t time_id = pb_gate_last_comparison(st);
    dg->metric = NULL;   /* --metric names the wall-time metric; the counts are insns_per_op */
    FILE *out = human(a);
    fprintf(out, "\n");
    int rc = pb_gate_valgrind(dg, st, th, e);
    if (rc < 0 || pb_two_metric_print(out, st, time_id, pb_gate_last_comparison(st), e) < 0) return -1;
    int status = rt == 1 || rc == 1 ? 1 : rt == 3 || rc == 3 ? 3 : 0;
    fprintf(out, "exit %d (%s): wall time %s, counts %s\n", status, pb_gate_exit_name(status), pb_gate_exit_name(rt),
            pb_gate_exit_name(rc));
    return status;
}

/* ---- calibration ---- */

static void print_calibration(FILE *f, const pb_calibration *cal, int exits[4], double t, const char *pairing,
                              double alpha)
{
    fprintf(f, "\nA/A calibration of %s, impl %s, metric %s, paired by %s: %zu gate%s\n", cal->suite, cal->impl,
           cal->metric, pairing, cal->repeats, cal->repeats == 1 ? "" : "s");
    fprintf(f, "%-10s  %-9s  %8s  %5s  %7s  %7s  %9s  %6s  %12s\n", "variant", "op", "bytes", "pairs", "noise", "MDC",
           "worst A/A", "alarms", "inconclusive");
    double sig_worst = 0, mdc_all[4096];
    size_t nmdc = 0;
    for (size_t i = 0; i < cal->ncells; i++) {
        double noise[1000], mdc[1000], worst = 1;
        size_t k = 0, alarms = 0, inc = 0, pairs = 0;
        for (size_t r = 0; r < cal->repeats && k < 1000; r++) {
            const pb_cmp_cell *x = &cal->first[r][i];
            alarms += cal->final[r][i].verdict == PB_CELL_REGRESSION;
            inc += cal->final[r][i].verdict == PB_CELL_INCONCLUSIVE;
            if (x->verdict == PB_CELL_NODATA) continue;
            noise[k] = x->noise;
            mdc[k] = x->mdc;
            pairs += x->n;
            if (fabs(log(x->ratio)) > fabs(log(worst))) worst = x->ratio;
            if (x->p_holm < alpha && x->ratio - 1 > sig_worst) sig_worst = x->ratio - 1;
            k++;
        }
        const pb_cmp_cell *c = &cal->first[0][i];
        double md = pb_median(mdc, k);
        if (nmdc < 4096 && k) mdc_all[nmdc++] = md;
        fprintf(f, "%-10s  %-9s  %8llu  %5zu  %6.2f%%  %6.2f%%  %9.4f  %6zu  %12zu\n", c->variant, c->op,
               (unsigned long long)c->size, k ? pairs / k : 0, 100 * pb_median(noise, k), 100 * md, worst, alarms,
               inc);
    }
    fprintf(f, "A/A gates: %zu; exit 0 (pass): %d, exit 1 (false alarm): %d, exit 3 (inconclusive): %d; threshold %.3g%%\n",
           cal->repeats, exits[0], exits[1], exits[3], 100 * t);
    fprintf(f, "largest significant A/A slowdown (first passes): %.1f%%: a threshold above it would not have alarmed here\n",
           100 * sig_worst);
    fprintf(f, "MDC over the cells: median %.1f%%, largest %.1f%%: smaller regressions are found less than %.0f%% of the "
           "time at these settings\n",
           100 * pb_median(mdc_all, nmdc), 100 * pb_quantile(mdc_all, nmdc, 1.0), 100 * PB_GATE_DEFAULTS.power);
}

static int gate_calibrate(gate_args *a, pb_store *st, const pb_thresholds *th, const char *metric, pb_err *e)
{
    const pb_suite *s = a->suite;
    const char *X = a->pair_a;
    double t;
    int line;
    if (pb_thresholds_lookup(th, "claim", s->name, metric, &t, &line, e) < 0) return -1;
    size_t R = (size_t)(a->repeat ? a->repeat : 1);
    pb_cmp_cell **first = calloc(R, sizeof *first), **final = calloc(R, sizeof *final);
    session *ss = calloc(R, sizeof *ss);
    int exits[4] = {0}, rc = 0;
    int64_t first_id = 0, last_id = 0;
    if (!first || !final || !ss) rc = pb_errf(e, "out of memory");
    for (size_t r = 0; r < R && rc == 0; r++) {
        gate_wrap W;
        pb_pair_claim(&W, a->suite, a->suite_opts, X, X, 1);
        char why[300];
        gate_layouts *G = pb_gate_layouts_claim(a->cli, &a->la, s->name, X, X, 1, why, sizeof why, e);
        if (!G && e->msg[0]) { rc = -1; break; }
        int sr = run_session(a, st, &W, G, "aa", NULL, t, metric, 0, &ss[r], e);
        pb_gate_layouts_free(G);
        if (sr < 0) { rc = -1; break; }
        if (r && ss[r].nfinal != ss[0].nfinal) { rc = pb_errf(e, "the grid changed between A/A gates"); break; }
        first[r] = ss[r].first;
        final[r] = ss[r].final;
        int status = pb_gate_exit_status(ss[r].final, ss[r].nfinal);
        exits[status]++;
        char note[768];
        rounds_note(note, sizeof note, a, &ss[r], t, line, th);
        pb_comparison c = {.command = "gate", .gate = "aa", .suite = s->name, .metric = metric, .pairing = "round",
                           .thresholds = th->path, .command_line = a->cmdline, .note = note, .gp = &a->look,
                           .exit_status = status, .runs_a = ss[r].runs, .nruns_a = ss[r].nruns};
        last_id = pb_gate_store(st, &c, ss[r].final, ss[r].nfinal, e);
        if (last_id < 0) { rc = -1; break; }
        if (!first_id) first_id = last_id;
        /* the document holds every A/A gate; the text shows the calibration's table instead */
        char title[300];
        snprintf(title, sizeof title, "gate A/A calibration %s: %s against %s" AA_SUFFIX " (gate %zu of %zu)", s->name, X,
                 X, r + 1, R);
        pb_cmp_header h = {.title = title, .suite = s->name, .metric = metric, .pairing = "round (interleaved in one run)",
                           .gate = "aa", .comparison_id = last_id, .gp = &a->look, .exit_status = status, .note = note,
                           .th = th, .threshold_line = line};
        if (a->doc && pb_gate_doc_add(a->doc, st, &h, ss[r].final, ss[r].nfinal, e) < 0) { rc = -1; break; }
        size_t k[6] = {0};
        for (size_t i = 0; i < ss[r].nfinal; i++) k[ss[r].final[i].verdict]++;
        fprintf(a->progress ? stderr : human(a), "A/A gate %zu/%zu (comparison %lld): exit %d: %zu pass, %zu regression, %zu inconclusive\n",
                r + 1, R, (long long)last_id, status, k[PB_CELL_PASS], k[PB_CELL_REGRESSION], k[PB_CELL_INCONCLUSIVE]);
    }
    if (rc == 0) {
        pb_calibration cal = {.suite = s->name, .metric = metric, .pairing = "round", .impl = X, .run = ss[0].runs[0],
                              .repeats = R, .ncells = ss[0].nfinal, .first = first, .final = final,
                              .first_comparison = first_id, .last_comparison = last_id};
        rc = pb_gate_store_calibration(st, &cal, e);
        if (rc == 0) print_calibration(human(a), &cal, exits, t, "round (in one run)", a->look.alpha);
    }
    for (size_t r = 0; ss && r < R; r++) session_free(&ss[r]);
    free(ss);
    free(first);
    free(final);
    return rc < 0 ? -1 : 0;
}

/* ---- the commit gate's decision: runs of two builds ---- */
/* An A/A gate that holds every impl (cells grouped by impl, candidate's name): one calibration per
 * impl. first/final: the cells of the first pass and after reruns, in the same order. */
static int store_per_impl(pb_store *st, const char *suite, const char *metric, const char *pairing,
                          pb_cmp_cell *first, pb_cmp_cell *final, size_t n, int64_t run, int64_t comparison, pb_err *e)
{
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && !strcmp(final[j].impl_b, final[i].impl_b)) j++;
        pb_cmp_cell *fp = &first[i], *fl = &final[i];
        pb_calibration cal = {.suite = suite, .metric = metric, .pairing = pairing, .impl = final[i].impl_b,
                              .run = run, .repeats = 1, .ncells = j - i, .first = &fp, .final = &fl,
                              .first_comparison = comparison, .last_comparison = comparison};
        if (pb_gate_store_calibration(st, &cal, e) < 0) return -1;
        i = j;
    }
    return 0;
}


static int gate_runs(gate_args *a, pb_store *st, const pb_thresholds *th, pb_err *e)
{
    int64_t *ra = NULL, *rb = NULL;
    size_t na = 0, nb = 0;
    pb_gate_data d = {0};
    pb_cmp_cell *cells = NULL;
    size_t n = 0;
    int rc = 0, status = PB_GATE_EXIT_ERROR;
    if (pb_parse_run_ids(a->runs_a, &ra, &na, e) < 0 || pb_parse_run_ids(a->runs_b, &rb, &nb, e) < 0) rc = -1;
    else if (na != nb) rc = pb_errf(e, "%zu baseline runs against %zu candidate runs: one of each per alternation", na, nb);
    else if (na < 6)
        rc = pb_errf(e, "%zu alternations: a gate needs at least 6 (with fewer, no signed-rank test reaches p < 0.05)", na);
    pb_run_meta m0, mb;
    char metric[PB_NAME_MAX];
    if (rc == 0) rc = pb_gate_load_sessions(st, ra, rb, na, a->metric, metric, sizeof metric, &m0, &d, e);
    if (rc == 0 && a->suite && strcmp(a->suite->name, m0.suite))
        rc = pb_errf(e, "the runs are of suite %s, not %s", m0.suite, a->suite->name);
    if (rc == 0) rc = pb_gate_run_meta(st, rb[0], &mb, e);
    double t = NAN;
    int line = 0;
    if (rc == 0) rc = pb_thresholds_lookup(th, "commit", m0.suite, metric, &t, &line, e);
    if (rc == 0) rc = pb_gate_cells_across(&d, ra, rb, na, a->impl, &a->look, &cells, &n, e);
    if (rc == 0) {
        for (size_t i = 0; i < n; i++) {
            cells[i].threshold = t;
            cells[i].calibrated_mdc = pb_gate_calibrated_mdc(st, m0.machine_id, "alternation", m0.suite,
                                                             cells[i].impl_a, cells[i].variant, cells[i].op,
                                                             cells[i].size, metric);
        }
        pb_gate_decide(cells, n, &a->look);
        status = pb_gate_exit_status(cells, n);
        /* with k pairs the smallest exact two-sided p is 2/2^k: Holm needs it below alpha/m */
        size_t need = 6;
        while (ldexp(2.0, -(int)need) * (double)n >= a->look.alpha && need < 60) need++;
        char note[1200], where[600];
        snprintf(note, sizeof note,
                 "baseline %.12s, candidate %.12s; job %s; %zu alternations; threshold %.3g%% (%s); alpha %g over "
                 "up to %d looks%s",
                 m0.git_sha, mb.git_sha, m0.job_id, na, 100 * t, pb_thresholds_where(th, line, where, sizeof where),
                 a->gp.alpha, 1 + a->reruns,
                 na < need ? "; too few alternations for any cell to reach significance after Holm" : "");
        if (na < need)
            snprintf(note + strlen(note), sizeof note - strlen(note), " (need %zu for %zu cells)", need, n);
        note_mdc_reached(note, sizeof note, cells, n);
        const char *gate = a->calibrate ? "aa" : "commit";
        pb_comparison c = {.command = "gate", .gate = gate, .suite = m0.suite, .metric = metric,
                           .pairing = "alternation", .thresholds = th->path, .command_line = a->cmdline, .note = note,
                           .gp = &a->look, .exit_status = status, .runs_a = ra, .nruns_a = na, .runs_b = rb,
                           .nruns_b = nb, .alternating = 1};
        int64_t id = pb_gate_store(st, &c, cells, n, e);
        if (id < 0) rc = -1;
        if (rc == 0 && a->calibrate) {
            /* one A/A gate per impl (the runs hold every impl): a calibration per impl */
            rc = store_per_impl(st, m0.suite, metric, "alternation", cells, cells, n, ra[0], id, e);
        }
        if (rc == 0) {
            char title[256];
            snprintf(title, sizeof title, "gate %s %s: build %.12s (runs %s) against build %.12s (runs %s)",
                     a->calibrate ? "A/A calibration" : "commit", m0.suite, mb.git_sha, a->runs_b, m0.git_sha,
                     a->runs_a);
            pb_cmp_header h = {.title = title, .suite = m0.suite, .metric = metric,
                               .pairing = "alternation (medians of each run, one pair per alternation)",
                               .gate = gate, .comparison_id = id, .gp = &a->look, .exit_status = status, .note = note,
                               .th = th, .threshold_line = line};
            if (emit(a, st, &h, cells, n, e) < 0) rc = -1;
        }
    }
    pb_gate_data_free(&d);
    free(cells);
    free(ra);
    free(rb);
    if (rc < 0) return -1;
    return status;   /* an A/A session of runs (ci/perf-gate --aa) exits like the gate it calibrates */
}

/* ---- the commit gate in one process: two builds' suite modules ---- */

/* the given suite options, set again on another build's copy of the suite */
static int set_suite_opts(const pb_cli *cli, const pb_suite *s, void *opts, const char *which, pb_err *e)
{
    if (pb_cli_apply_suite_opts(cli, s, opts, e) == 0) return 0;
    char why[sizeof e->msg];
    snprintf(why, sizeof why, "%s", e->msg);
    return pb_errf(e, "the %s build: %.400s", which, why);
}

typedef struct build_layouts_ctx {
    const gate_args *a;
    const char *cand;
    const gate_wrap *home;
} build_layouts_ctx;

static gate_layouts *build_layouts(const void *ctx, const pb_layout_args *la, char *why, size_t cap, pb_err *e)
{
    const build_layouts_ctx *c = ctx;
    return pb_gate_layouts_builds(c->a->cli, la, c->a->base_module, c->cand, c->a->suite->name, c->home, why, cap, e);
}

static int gate_builds(gate_args *a, pb_store *st, const pb_thresholds *th, const char *metric, pb_err *e)
{
    char own[1024];
    const char *cand = a->cand_module;
    if (!cand && pb_suite_module_own_path(own, sizeof own, e) < 0) return -1;
    if (!cand) cand = own;
    pb_suite_module ma, mb;
    if (pb_suite_module_open(&ma, a->base_module, e) < 0) return -1;
    if (pb_suite_module_open(&mb, cand, e) < 0) { pb_suite_module_close(&ma); return -1; }
    const char *name = a->suite->name;
    const pb_suite *sa = pb_suite_module_find(&ma, name), *sb = pb_suite_module_find(&mb, name);
    void *oa = NULL, *ob = NULL;
    int rc = 0;
    if (!sa) rc = pb_errf(e, "the baseline build (%s) has no suite %s", a->base_module, name);
    else if (!sb) rc = pb_errf(e, "the candidate build (%s) has no suite %s", cand, name);
    else if (!sa->plan || !sa->setup_case) rc = pb_errf(e, "the baseline build's suite %s cannot run benchmarks yet", name);
    else if (!(oa = pb_suite_opts_new(sa, e)) || !(ob = pb_suite_opts_new(sb, e))) rc = -1;
    else if (set_suite_opts(a->cli, sa, oa, "baseline", e) < 0 || set_suite_opts(a->cli, sb, ob, "candidate", e) < 0)
        rc = -1;
    double t = NAN;
    int line = 0;
    const char *kind = a->calibrate ? "aa" : "commit";
    if (rc == 0) rc = pb_thresholds_lookup(th, "commit", name, metric, &t, &line, e);
    char extra[200];
    snprintf(extra, sizeof extra, "baseline-build=%.60s candidate-build=%.60s", ma.info ? ma.info->vcs : "?",
             mb.info ? mb.info->vcs : "?");
    size_t R = (size_t)(a->calibrate && a->repeat ? a->repeat : 1);
    int status = 0, exits[4] = {0};
    for (size_t r = 0; r < R && rc == 0; r++) {
        gate_wrap W;
        memset(&W, 0, sizeof W);
        W.side_a = (gate_side){sa, oa};
        W.side_b = (gate_side){sb, ob};
        W.auto_pairs = 1;
        W.only_impl = a->impl;
        session ss;
        char why[300];
        build_layouts_ctx lc = {a, cand, &W};
        gate_layouts *G = build_layouts(&lc, &a->la, why, sizeof why, e);
        if (!G && e->msg[0]) { rc = -1; break; }
        int sr = run_session(a, st, &W, G, kind, extra, t, metric, 1, &ss, e);
        pb_gate_layouts_free(G);
        if (sr < 0) { rc = -1; break; }
        if (confirm_regressions(a, st, &W, build_layouts, &lc, kind, extra, t, metric, 1, &ss, e) < 0) {
            session_free(&ss);
            rc = -1;
            break;
        }
        status = pb_gate_exit_status(ss.final, ss.nfinal);
        exits[status]++;
        char note[1400];
        snprintf(note, sizeof note, "baseline build %.60s (%s), candidate build %.60s (%s), in one process; %s%s",
                 ma.info->vcs, a->base_module, mb.info->vcs, cand, why, why[0] ? "; " : "");
        if (W.unpaired[0])
            snprintf(note + strlen(note), sizeof note - strlen(note), "not compared: %s; ", W.unpaired);
        if (W.shared[0])
            snprintf(note + strlen(note), sizeof note - strlen(note), "the candidate's calibration, used by both "
                     "(last pass): %s; ", W.shared);
        rounds_note(note + strlen(note), sizeof note - strlen(note), a, &ss, t, line, th);
        if (!(a->budget > 0)) note_mdc_reached(note, sizeof note, ss.final, ss.nfinal);
        pb_comparison c = {.command = "gate", .gate = kind, .suite = name, .metric = metric, .pairing = "round",
                           .thresholds = th->path, .command_line = a->cmdline, .note = note, .gp = &a->look,
                           .exit_status = status, .runs_a = ss.runs, .nruns_a = session_nruns(&ss)};
        int64_t id = pb_gate_store(st, &c, ss.final, ss.nfinal, e);
        if (id < 0) rc = -1;
        /* A/A: one calibration per impl, on the candidate's name (what a commit gate looks up). Pairing
         * 'round', as the claim gate's A/A of that impl: both are X against another copy of X, interleaved
         * round by round in one process; which of the two was measured last is what a gate shows. */
        if (rc == 0 && a->calibrate)
            rc = store_per_impl(st, name, metric, "round", ss.first, ss.final, ss.nfinal, ss.runs[0], id, e);
        if (rc == 0) {
            char title[300];
            snprintf(title, sizeof title, "gate %s %s: build %.12s (impls X) against build %.12s (impls X" BASE_SUFFIX
                     "), in one process", a->calibrate ? "A/A calibration (commit, one process)" : "commit", name,
                     mb.info->vcs, ma.info->vcs);
            pb_cmp_header h = {.title = title, .suite = name, .metric = metric,
                               .pairing = "round (two builds interleaved in one run)", .gate = kind,
                               .comparison_id = id, .gp = &a->look, .exit_status = status, .note = note,
                               .th = th, .threshold_line = line};
            if (emit(a, st, &h, ss.final, ss.nfinal, e) < 0) rc = -1;
        }
        session_free(&ss);
    }
    if (rc == 0 && R > 1)
        fprintf(human(a), "A/A gates: %zu; exit 0 (pass): %d, exit 1 (false alarm): %d, exit 3 (inconclusive): %d\n", R, exits[0],
               exits[1], exits[3]);
    if (sa) pb_suite_opts_free(sa, oa);
    if (sb) pb_suite_opts_free(sb, ob);
    pb_suite_module_close(&mb);
    pb_suite_module_close(&ma);
    if (rc < 0) return -1;
    return R > 1 ? (exits[1] ? 1 : exits[3] ? 3 : 0) : status;
}

/* --measure valgrind or both on one run: can the valgrind child count the suite's cases? Refused
 * here, before a store opens or valgrind starts, for a suite whose cases are other programs. */
static int vg_countable(const gate_args *a, pb_err *e)
{
    pb_runner_opts o = {.suite = a->suite, .suite_opts = a->suite_opts, .quick = a->quick, .sizes = a->sizes};
    pb_grid g;
    if (pb_runner_grid(&o, &g, e) < 0) return -1;
    int rc = pb_vg_check_countable(a->suite, a->suite_opts, &g, e);
    free(g.cells);
    return rc;
}

/* The sixth form: a stored run against a stored baseline (gate_baseline.h), as every gate is shown. */
static int gate_against(gate_args *a, pb_store *st, const pb_thresholds *th, pb_err *e)
{
    a->look = a->gp;   /* one look */
    pb_against o = {.name = a->against, .run = a->against_run, .impl = a->impl, .metric = a->metric, .th = th,
                    .gp = &a->look, .command_line = a->cmdline};
    pb_against_result r;
    int rc = pb_gate_against(st, &o, &r, e);
    if (rc < 0) return -1;
    pb_cmp_header h;
    pb_against_header(&o, &r, &h);
    rc = emit(a, st, &h, r.cells, r.n, e) < 0 ? -1 : r.status;
    pb_against_result_free(&r);
    return rc;
}

/* everything after the command line: thresholds, the store, the gate of the form asked for. The exit
 * status, or -1 + e (skipped set when the suite cannot run benchmarks yet). */
static int gate_main(gate_args *a, int *skipped, pb_err *e)
{
    if (a->against) {
        pb_thresholds th;
        pb_store st;
        if (pb_thresholds_for(&th, a->threshold, a->thresholds, e) < 0) return -1;
        if (pb_gate_open(&st, a->db, 1, e) < 0) {
            pb_thresholds_free(&th);
            return -1;
        }
        int rc = gate_against(a, &st, &th, e);
        pb_store_close(&st);
        pb_thresholds_free(&th);
        return rc;
    }
    if (!a->runs_a && (!a->suite->plan || !a->suite->setup_case)) {
        *skipped = 1;
        return pb_errf(e, "suite %s cannot run benchmarks yet", a->suite->name);
    }
    if (!a->runs_a && a->measure && strcmp(a->measure, "time") && vg_countable(a, e) < 0) return -1;
    int live_pair = !a->runs_a && !a->base_module && (!a->measure || strcmp(a->measure, "valgrind"));
    if (live_pair && resolve_pair(a, e) < 0) return -1;
    pb_thresholds th;
    if (pb_thresholds_for(&th, a->threshold, a->thresholds, e) < 0) return -1;
    pb_store st;
    if (pb_gate_open(&st, a->db, a->runs_a != NULL, e) < 0) {
        pb_thresholds_free(&th);
        return -1;
    }
    const char *metric = a->metric ? a->metric : pb_suite_primary_metric(a->suite);
    pb_det_gate dg = {.suite = a->suite, .baseline = a->baseline, .candidate = a->candidate, .sizes = a->sizes,
                      .suite_opts = a->suite_opts_text, .metric = a->metric, .command_line = a->cmdline,
                      .quick = a->quick, .progress = a->progress, .impl = a->impl,
                      .suite_args = {a->cli->nsuite_given, a->cli->suite_given_name, a->cli->suite_given_value},
                      .out = pb_gate_outputs_text(&a->out) ? stdout : NULL, .doc = a->doc};
    int vg = a->measure && !strcmp(a->measure, "valgrind");
    int rc = vg && a->runs_a ? pb_gate_valgrind_runs(&dg, a->runs_a, a->runs_b, &st, &th, e)
             : vg          ? pb_gate_valgrind(&dg, &st, &th, e)
             : a->measure && !strcmp(a->measure, "both") ? gate_both(a, &dg, &st, &th, metric, e)
             : a->runs_a    ? gate_runs(a, &st, &th, e)
             : a->base_module ? gate_builds(a, &st, &th, metric, e)
             : a->calibrate ? gate_calibrate(a, &st, &th, metric, e)
                            : gate_claim(a, &st, &th, metric, e);
    pb_store_close(&st);
    pb_thresholds_free(&th);
    return rc;
}

int cmd_gate(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--merge")) return cmd_gate_merge(argc, argv);
    gate_args a = {.la = {.seed = 1}, .db = pb_default_db(), .progress = 1, .reruns = -1, .gp = PB_GATE_DEFAULTS,
                   .out = {.format = PB_FMT_TEXT}};
    pb_cli_join(argc, argv, a.cmdline, sizeof a.cmdline);
    if (pb_gb_init(&argc, argv) < 0) {
        fprintf(stderr, "bench gate: bad --benchmark_ flag (see above)\n");
        return PB_GATE_EXIT_ERROR;
    }
    pb_cli cli;
    int r = parse(argc, argv, &a, &cli);
    if (r == 0 && pb_gate_outputs_check(&a.out, "gate") < 0) r = -1;
    if (r == 0 && !(a.doc = pb_gate_doc_new())) {
        fprintf(stderr, "bench gate: out of memory\n");
        r = -1;
    }
    if (r) {
        if (a.suite) pb_suite_opts_free(a.suite, a.suite_opts);
        return r > 0 ? 0 : PB_GATE_EXIT_ERROR;
    }
    /* in one run the gate reruns by itself; for runs, ci/perf-gate adds alternations and says how often it may */
    if (a.reruns < 0) a.reruns = a.runs_a ? 0 : a.budget > 0 ? MAX_RERUNS : 2;
    a.look = pb_gate_look_params(a.gp, a.reruns);
    pb_err e = {{0}};
    int skipped = 0;
    pb_gate_outputs_begin(&a.out);
    int rc = gate_main(&a, &skipped, &e);
    if (rc < 0) {
        fprintf(stderr, "bench gate: %s\n", e.msg);
        const char *suite = a.suite ? a.suite->name : "";
        if (skipped) pb_gate_doc_skipped(a.doc, suite, e.msg);
        else pb_gate_doc_error(a.doc, suite, e.msg);
        rc = PB_GATE_EXIT_ERROR;
    }
    rc = pb_gate_outputs_status(rc, pb_gate_outputs_finish(&a.out, a.doc, "gate", 1));
    pb_gate_doc_free(a.doc);
    if (a.suite) pb_suite_opts_free(a.suite, a.suite_opts);
    return rc;
}
