/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd_gate.c — `bench gate`: its options, which form they ask for, and where what it decides goes.
 * The forms are gate/'s: the claim gate, A/A calibration and the commit gate (gate/forms.h) over
 * the gate's loop (gate/loop.h), the gate against a saved run (gate_baseline.h), the count gate
 * (gate_det.h); the merge form joins documents (gate_merge.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_opts.h"
#include "forms.h"
#include "gate.h"
#include "gate_baseline.h"
#include "gate_det.h"
#include "gate_doc.h"
#include "gate_layouts.h"
#include "gate_merge.h"
#include "gate_outputs.h"
#include "gbshim.h"
#include "loop.h"
#include "metrics.h"
#include "pair_suite.h"
#include "pb_config.h"
#include "runner.h"
#include "runenv.h"
#include "term.h"
#include "suite_module.h"

#define PB_GATE_DEFAULT_RERUNS 2

static const char GATE_SYNOPSIS[] =
    "usage: bench gate [claim] --suite S [--baseline IMPL] [--candidate IMPL] [--quick] [options]\n"
    "       bench gate commit --baseline-runs IDS --candidate-runs IDS [--impl X] [options]\n"
    "       bench gate commit --suite S --baseline-module PATH [--candidate-module PATH] [--impl X] [options]\n"
    "       bench gate calibrate --suite S [--impl X] [--repeat N] [--quick] [options]\n"
    "       bench gate calibrate --baseline-runs IDS --candidate-runs IDS [options]\n"
    "       bench gate calibrate --suite S --baseline-module PATH [--repeat N] [options]\n"
    "       bench gate against NAME [--run ID] [--impl X] [options]\n"
    "       bench gate merge FILE... [--skipped SUITE=WHY]... [--error SUITE=WHY]... [--brief] [options]\n"
    "       bench gate merge --check [--format F] [--write F=FILE]... [--annotate github|gitlab]\n"
    "\n"
    "The first word names the form. Without one the options name it, as they always have: --calibrate,\n"
    "--against NAME, --merge, --baseline-runs or --baseline-module (commit), else the claim gate.\n"
    "claim: runs the suite's grid for two impls of this build, the old impl and the new one,\n"
    "interleaved, and fails a cell only when the new impl is significantly slower (Holm over the\n"
    "cells) AND slower by more than the threshold in the thresholds file (rule 'claim'). Cells too\n"
    "noisy to tell (the CI holds both 1 and 1 + threshold) are rerun with twice the rounds, up to\n"
    "--reruns times, and are then reported inconclusive.\n"
    "commit: one impl (or every impl) of two builds, the parent build and the new build, from runs\n"
    "made alternately in one job on one machine (ci/perf-gate), paired by alternation (rule 'commit');\n"
    "or in one process: loads both builds' suites (" PB_SUITE_MODULE_FILE ") and runs every impl X of\n"
    "both, X~base against X, interleaved round by round in one run, like the claim gate (rule\n"
    "'commit'; reruns and --budget as there).\n"
    "calibrate: A/A, impl X against a second copy of itself (X" AA_SUFFIX ") in the same run, --repeat\n"
    "times: this machine's noise and MDC per cell, and how often an A/A gate alarms; stored (table\n"
    "calibrations) and shown beside later gates. With the runs of one build against itself\n"
    "(ci/perf-gate --aa), or with --baseline-module, it calibrates the commit gate.\n"
    "against: a stored run (--run, default the newest complete one) against the run saved as NAME\n"
    "(bench baseline save), of the same machine and configuration, UNPAIRED: weaker than a paired\n"
    "gate, with a wider CI and its own threshold (rule 'baseline'); for code whose old build cannot\n"
    "be run again (docs/gate.md, \"Stored baselines\").\n"
    "merge: joins gate documents saved as JSON (--format json or --write json=FILE; schema\n"
    "patchbench-gate, docs/gate-outputs.md) into one: their gates, the suites they skipped and the\n"
    "gates that could not run, one summary, one verdict, written as --format says (default text:\n"
    "every gate's table, then the verdict sentence), to --write files, as annotations (the ci/\n"
    "scripts: one document for all suites). --check only checks the options and that every --write\n"
    "place may take a file, and writes nothing (the ci/ scripts ask before they gate).\n"
    "Thresholds: --threshold P% for every cell of this run, else --thresholds FILE, else\n"
    "ci/thresholds in the current folder, else the source tree's (docs/gate.md).\n";

static const char GATE_EPILOGUE[] =
    "\nExit status: 0 pass, 1 regression, 2 error, 3 inconclusive. Calibration in one run: 0 or 2;\n"
    "calibration with run lists: what its A/A gate decided. merge: what the joined document decided\n"
    "(2 also for a gate that could not run, or a file that is not a gate document of this schema version).\n";

/* the options on_opt takes: a value checked or kept its own way (the rest are typed entries) */
enum { O_THRESHOLD = 1, O_ALPHA, O_FORMAT, O_WRITE, O_OUT, O_ANNOTATE, O_BUDGET, O_LAYOUTS, O_LAYOUT_SEED, O_SKIPPED,
       O_ERROR };

/* The forms of bench gate, as its first word names them (FORM_WORDS), or its options (form_of). */
typedef enum { FORM_NONE, FORM_CLAIM, FORM_COMMIT, FORM_CALIBRATE, FORM_AGAINST, FORM_MERGE } gate_form;
static const char *const FORM_WORDS[] = {NULL, "claim", "commit", "calibrate", "against", "merge"};

typedef struct gate_args {
    pb_gate_settings set;  /* the loop's (loop.h): --db, --quick, --rounds, --reruns, --budget, --alpha, ... */
    const pb_suite *suite;
    const char *suite_name;   /* --suite: found before parsing (pb_cli_find_suite) */
    const char *baseline, *candidate, *impl, *thresholds, *threshold, *metric, *runs_a, *runs_b, *measure;
    const char *against;   /* the against form: the saved run's name */
    const char *run;       /* --run: the run gated against it (pb_cli_run_of; NULL or latest: the newest) */
    const char *base_module, *cand_module;   /* the commit gate in one process */
    int repeat, calibrate;
    gate_form word, form;  /* the form the first word names (FORM_NONE: none), the form run */
    pb_gate_outputs out;   /* --format, --write, --annotate */
    pb_gate_doc *doc;      /* every comparison made, for the document's formats */
    void *suite_opts;      /* the suite's options object */
    char cmdline[2048];
    pb_cli *cli;
    pb_layout_args la;     /* --layouts, --layout-seed (cli_layouts.h) */
    const char *pair_a, *pair_b;   /* the claim or calibration gate's impls, checked (resolve_pair) */
    int merge_opt;                 /* --merge */
    pb_gate_merge_args merge;      /* the merge form's options, and the words after the options */
    const char *merge_only;        /* the first option given that only the merge form takes */
    const char *timing_only;       /* the first option given that the merge form does not take */
} gate_args;

/* Help words: "old impl" and "new impl" are a claim gate's impls, "parent build" and "new build"
 * the commit gate's, "saved run" the against form's (bench baseline save). */
static const pb_cli_opt OPTS[] = {
    PB_OPT_SUITE("S", "suite (bench list)", gate_args, suite_name),
    PB_OPT_STRING_ONCE("baseline", "IMPL", "claim: the old impl (default: the suite's old impl; exec --cmd: the\n"
                                    "first command)", gate_args, baseline),
    PB_OPT_STRING_ONCE("candidate", "IMPL", "claim: the new impl, which must not be slower (default: the suite's\n"
                                     "new impl; exec --cmd: the second command)", gate_args, candidate),
    PB_OPT_STRING_LIST("baseline-runs", "IDS", "commit: the parent build's runs, a comma list of run ids,\n"
                                        "alternation k = the k-th of each (>= 6 each)", gate_args, runs_a),
    PB_OPT_STRING_LIST("candidate-runs", "IDS", "commit: the new build's runs, as many", gate_args, runs_b),
    PB_OPT_STRING_ONCE("baseline-module", "PATH", "commit in one process: the parent build's suites, its\n"
                                "build/harness/" PB_SUITE_MODULE_FILE, gate_args, base_module),
    PB_OPT_STRING_ONCE("candidate-module", "PATH", "the new build's (default: the one beside this bench)", gate_args,
                       cand_module),
    PB_OPT_FLAG("calibrate", "the calibrate form (A/A calibration)", gate_args, calibrate),
    PB_OPT_STRING_ONCE("against", "NAME", "the against form: gate a stored run against the run saved as NAME,\n"
                          "unpaired (bench baseline save NAME [--run ID])", gate_args, against),
    PB_OPT_RUN("against: the run to gate (default latest: the newest complete run of\n"
               "the saved run's suite)", gate_args, run),
    PB_OPT_IMPL("X", "commit: only impl X; calibrate: the impl (default the suite's old impl)", gate_args, impl),
    PB_OPT_FLAG("quick", "fewer, shorter samples (" PB_STR(PB_DEFAULT_ROUNDS_QUICK) " rounds of 0.5 ms)", gate_args, set.quick),
    PB_OPT_INT("rounds", "N", "rounds of the first pass (default " PB_STR(PB_DEFAULT_ROUNDS) ", quick "
                          PB_STR(PB_DEFAULT_ROUNDS_QUICK) ")", gate_args, set.rounds, 6, 100000),
    PB_OPT_INT("reruns", "N", "reruns of inconclusive cells, each with twice the rounds (default "
                    PB_STR(PB_GATE_DEFAULT_RERUNS) ").\n"
                    "With run lists: how many more looks the caller may take (default 0).\n"
                    "Each look is tested at alpha / (1 + N).", gate_args, set.reruns, 0, PB_GATE_MAX_RERUNS),
    PB_OPT("budget", "SECONDS", "more power per second: after the first pass, rerun (twice the rounds\n"
                          "each time) every cell whose MDC is not yet under half its threshold,\n"
                          "until all are, or the next pass would overrun SECONDS (then the\n"
                          "inconclusive cells alone, where they fit), or --reruns\n"
                          "(default with --budget: " PB_STR(PB_GATE_MAX_RERUNS) ") is reached; alpha is spent over those\n"
                          "looks as above. Reports the MDC reached (median, largest)", O_BUDGET),
    PB_OPT_STRING_LIST("sizes", "LIST", "only these sizes (as bench run)", gate_args, set.sizes),
    PB_OPT("layouts", "N", PB_LAYOUT_HELP_LAYOUTS ";\nthe commit gate: layout L of each build against layout L of the other", O_LAYOUTS),
    PB_OPT("layout-seed", "N", PB_LAYOUT_HELP_SEED, O_LAYOUT_SEED),
    PB_OPT_FLAG("no-confirm", "let a regression stand without the second run that confirms it\n"
                          "(default: a cell is a regression only when a second run, its modules\n"
                          "loaded anew and the next layout seed, finds it too; docs/gate.md)", gate_args, set.no_confirm),
    PB_OPT_INT("repeat", "N", "calibrate: A/A gates to run (default 1)", gate_args, repeat, 1, 1000),
    PB_OPT_STRING("metric", "M", "metric (default the suite's primary metric)", gate_args, metric),
    PB_OPT_STRING("thresholds", "FILE", "default ci/thresholds (here, else in the source tree)", gate_args, thresholds),
    PB_OPT("threshold", "P%", "one threshold for every cell of this run, in place of the file's (3 is 3%)", O_THRESHOLD),
    PB_OPT("alpha", "A", "family-wise error rate over the cells (default 0.05)", O_ALPHA),
    PB_GATE_OUTPUT_OPTS(O_FORMAT, O_WRITE, O_OUT, O_ANNOTATE),
    PB_GATE_MERGE_OPTS(gate_args, merge_opt, merge, O_SKIPPED, O_ERROR),
    PB_OPT_DB(gate_args, set.db),
    PB_OPT_STRING("measure", "M", "time (default): wall time as above; valgrind: claim gate on\n"
                     "deterministic callgrind counts (metric insns_per_op by default; no\n"
                     "statistics: the ratio itself against the threshold; see docs/gate.md).\n"
                     "With --baseline-runs X --candidate-runs Y: one stored valgrind run\n"
                     "(bench run --measure valgrind) of each build, rule 'commit'.\n"
                     "both: the claim gate on wall time and on counts, per cell side by\n"
                     "side (time moved, instructions not: memory, stalls, layout)", gate_args, measure),
    PB_OPT_CPU(gate_args, set.cpu),
    PB_OPT_REVISION(gate_args, set.user_revision),
    PB_OPT_LABEL(gate_args, set.user_label),
    PB_OPT_QUIET(gate_args, set.progress),
    PB_OPT_FLAG("live", "the live progress line of the gate's runs on stderr even with --quiet\n"
                        "(what ci/ scripts pass on while they keep bench's other lines)", gate_args, set.live),
    PB_OPT_END,
};

/* Which forms an option goes with (pb_cli on_seen): the outputs' go with every form, the merge
 * form's own with it only, the rest with the timing forms; the first of each is kept for the
 * message. The stored-run options (--db, --cpu, --revision, --label, --quiet) are timing_option's. */
static int note_form_of_option(void *ctx, const pb_cli_opt *o)
{
    gate_args *a = ctx;
    static const char *const every_form[] = {"format", "write", "out", "annotate", "merge"};
    static const char *const merge_form[] = {"skipped", "error", "brief", "check"};
    static const char *const by_timing_option[] = {"db", "cpu", "revision", "label", "quiet"};
    for (size_t i = 0; i < sizeof every_form / sizeof *every_form; i++)
        if (!strcmp(o->name, every_form[i])) return 0;
    for (size_t i = 0; i < sizeof by_timing_option / sizeof *by_timing_option; i++)
        if (!strcmp(o->name, by_timing_option[i])) return 0;
    int merge_only = 0;
    for (size_t i = 0; i < sizeof merge_form / sizeof *merge_form; i++) merge_only |= !strcmp(o->name, merge_form[i]);
    const char **first = merge_only ? &a->merge_only : &a->timing_only;
    if (!*first) *first = o->name;
    return 0;
}

/* --threshold P%, checked now: before anything runs */
static int threshold_opt(gate_args *a, const char *v)
{
    pb_thresholds t;
    pb_err te = {{0}};
    int rc = pb_thresholds_single(&t, v, &te);
    pb_thresholds_free(&t);
    if (rc < 0) return pb_cli_error(a->cli, "%s", te.msg);
    a->threshold = v;
    return 0;
}

static int budget_opt(gate_args *a, const char *v)
{
    char *end;
    double b = strtod(v, &end);
    if (end == v || *end || !(b > 0) || b > 86400)
        return pb_cli_error(a->cli, "--budget '%s': seconds, a number > 0 and <= 86400", v);
    a->set.budget = b;
    return 0;
}

static int on_opt(void *ctx, int id, const char *v)
{
    gate_args *a = ctx;
    switch (id) {
    case O_THRESHOLD: return threshold_opt(a, v);
    case O_BUDGET: return budget_opt(a, v);
    case O_LAYOUTS: return pb_cli_layout_opt(a->cli, &a->la, "layouts", v);
    case O_LAYOUT_SEED: return pb_cli_layout_opt(a->cli, &a->la, "layout-seed", v);
    case O_ALPHA: return pb_gate_output_opt("bench gate", "alpha", v, NULL, &a->set.gp) < 0 ? -1 : 0;
    case O_FORMAT: return pb_gate_outputs_opt(&a->out, a->cli, "format", v) < 0 ? -1 : 0;
    case O_WRITE: return pb_gate_outputs_opt(&a->out, a->cli, "write", v) < 0 ? -1 : 0;
    case O_OUT: return pb_gate_outputs_opt(&a->out, a->cli, "out", v) < 0 ? -1 : 0;
    case O_ANNOTATE: return pb_gate_outputs_opt(&a->out, a->cli, "annotate", v) < 0 ? -1 : 0;
    case O_SKIPPED: return pb_gate_merge_suite_opt(&a->merge, a->cli, 0, v);
    case O_ERROR: return pb_gate_merge_suite_opt(&a->merge, a->cli, 1, v);
    }
    return pb_cli_error(a->cli, "option id %d not handled", id);
}

/* a word that is not an option: a document (merge) or the saved run's name (against), told apart
 * once the form is known (check_form) */
static int on_pos(void *ctx, const char *w)
{
    gate_args *a = ctx;
    return pb_gate_merge_word(&a->merge, a->cli, w);
}

/* The form the options name, as they always have: the exclusive ones first. */
static gate_form form_of(const gate_args *a)
{
    return a->merge_opt                     ? FORM_MERGE
           : a->against || a->run            ? FORM_AGAINST
           : a->calibrate                    ? FORM_CALIBRATE
           : a->runs_a || a->runs_b || a->base_module ? FORM_COMMIT
                                             : FORM_CLAIM;
}

/* the option that names form f */
static const char *form_option(const gate_args *a, gate_form f)
{
    return f == FORM_MERGE       ? "--merge"
           : f == FORM_AGAINST   ? (a->against ? "--against" : "--run")
           : f == FORM_CALIBRATE ? "--calibrate"
           : a->runs_a           ? "--baseline-runs"
           : a->runs_b           ? "--candidate-runs"
                                 : "--baseline-module";
}

/* the first option given that the merge form does not take (NULL: none) */
static const char *timing_option(const gate_args *a, const char *db0)
{
    return a->timing_only              ? a->timing_only
           : a->set.db != db0          ? "db"
           : a->set.cpu                ? "cpu"
           : a->set.user_revision      ? "revision"
           : a->set.user_label         ? "label"
           : !a->set.progress          ? "quiet"
                                       : NULL;
}

/* The form: the first word's, else the options'; the options and words given must go with it.
 * 0, or -1 after saying what does not go. */
static int check_form(gate_args *a, const pb_cli *cli, const char *db0, int gb_flags)
{
    if (a->word == FORM_CALIBRATE) a->calibrate = 1;
    if (a->word == FORM_MERGE) a->merge_opt = 1;
    if (a->word == FORM_AGAINST && a->merge.nfiles) {   /* bench gate against NAME */
        if (a->against) return pb_cli_error(cli, "against: the NAME given twice ('%s', then --against '%s')",
                                            a->merge.files[0], a->against);
        if (a->merge.nfiles > 1) return pb_cli_error(cli, "against takes one NAME (got '%s' too)", a->merge.files[1]);
        a->against = a->merge.files[0];
        a->merge.nfiles = 0;
    }
    gate_form by_options = form_of(a);
    if (a->word == FORM_COMMIT && by_options == FORM_CLAIM)
        return pb_cli_error(cli, "commit wants --baseline-runs IDS --candidate-runs IDS, or --suite S --baseline-module "
                                 "PATH (see bench gate --help)");
    if (a->word == FORM_AGAINST && by_options == FORM_CLAIM)
        return pb_cli_error(cli, "against wants the NAME of a saved run (bench baseline list)");
    if (a->word && by_options != a->word)
        return pb_cli_error(cli, "%s: not with %s (that is bench gate %s)", FORM_WORDS[a->word],
                            form_option(a, by_options), FORM_WORDS[by_options]);
    a->form = by_options;
    const char *other = timing_option(a, db0);
    if (a->form == FORM_MERGE && other)
        return pb_cli_error(cli, "--%s does not go with merge (it joins gate documents; see bench gate --help)", other);
    if (a->form == FORM_MERGE && gb_flags) return pb_cli_error(cli, "--benchmark_ flags do not go with merge");
    if (a->form != FORM_MERGE && a->merge_only)
        return pb_cli_error(cli, "--%s goes with merge (bench gate merge FILE...)", a->merge_only);
    if (a->form != FORM_MERGE && a->merge.nfiles)
        return pb_cli_error(cli, "unexpected argument '%s' (see bench gate --help)", a->merge.files[0]);
    return 0;
}

/* The against form takes stored runs and what judges them only: 0, or -1 after saying what does not go. */
static int check_against(const gate_args *a, const pb_cli *cli)
{
    pb_err e = {{0}};
    if (!a->against) return pb_cli_error(cli, "--run goes with --against NAME (the run to gate against a stored baseline)");
    if (pb_baseline_name_ok(a->against, &e) < 0) return pb_cli_error(cli, "--against: %s", e.msg);
    const char *other = a->runs_a ? "--baseline-runs" : a->base_module ? "--baseline-module" : a->calibrate ? "--calibrate"
                        : a->baseline ? "--baseline" : a->candidate ? "--candidate" : a->set.budget > 0 ? "--budget"
                        : a->measure ? "--measure" : a->set.user_revision ? "--revision" : a->set.user_label ? "--label"
                        : a->suite ? "--suite" : NULL;
    if (other)
        return pb_cli_error(cli, "--against compares stored runs: not with %s (bench run makes the run, with its "
                                 "suite's options; --impl names the impl gated)", other);
    return 0;
}

/* The timing forms' options together: 0, or -1 after saying what does not go. */
static int check_timing(const gate_args *a, const pb_cli *cli)
{
    if (!a->runs_a && !a->suite) return pb_cli_error(cli, "--suite is required (see bench gate --help)");
    pb_err re = {{0}};
    if (a->runs_a && pb_check_run_sides(a->runs_a, a->runs_b, "--baseline-runs", "--candidate-runs", &re) < 0)
        return pb_cli_error(cli, "%s", re.msg);
    if (a->cand_module && !a->base_module) return pb_cli_error(cli, "--candidate-module goes with --baseline-module");
    if (a->base_module && (a->runs_a || a->baseline || a->candidate || (a->measure && strcmp(a->measure, "time"))))
        return pb_cli_error(cli, "--baseline-module (the commit gate in one process) takes no --baseline-runs, "
                                 "--baseline, --candidate or --measure other than time");
    if (a->measure && strcmp(a->measure, "time") && strcmp(a->measure, "valgrind") && strcmp(a->measure, "both"))
        return pb_cli_error(cli, "unknown --measure '%s' (time, valgrind or both)", a->measure);
    int vg = a->measure && !strcmp(a->measure, "valgrind");
    if (a->measure && !strcmp(a->measure, "both") && (a->calibrate || a->runs_a))
        return pb_cli_error(cli, "--measure both is the claim gate (no --calibrate, no run lists)");
    /* the commit gate's alternations are made by ci/perf-gate, which takes --budget itself */
    if (a->set.budget > 0 && (a->runs_a || vg))
        return pb_cli_error(cli, "--budget is for the wall-time gate in one run (claim or --calibrate); "
                                 "the commit gate: ci/perf-gate --budget");
    if (vg && a->calibrate)
        return pb_cli_error(cli, "--measure valgrind has no --calibrate (counts do not vary: nothing to calibrate)");
    char why[700];
    if (a->metric && !vg && !pb_metric_known(a->metric))
        return pb_cli_error(cli, "%s", pb_metric_unknown(why, sizeof why, a->metric, ""));
    const pb_metric *pm = a->metric ? pb_metric_find(a->metric) : NULL;
    /* a count only callgrind gives: a wall-time gate would find no such rows */
    if (pm && !vg && !pm->bit) return pb_cli_error(cli, "--metric %s is a count of --measure valgrind", a->metric);
    return 0;
}

/* 0 ok, 1 help shown, -1 bad input (message printed). The first word, when it names a form, is
 * the form (bench gate claim ...), as a command's subcommand. */
static int parse(int argc, char **argv, gate_args *a, pb_cli *cli, int gb_flags)
{
    *cli = (pb_cli){.cmd = "gate", .synopsis = GATE_SYNOPSIS, .epilogue = GATE_EPILOGUE, .opts = OPTS,
                    .on_opt = on_opt, .on_seen = note_form_of_option, .on_pos = on_pos, .ctx = a};
    a->cli = cli;
    for (int f = FORM_CLAIM; argc > 1 && f <= FORM_MERGE; f++)
        if (!strcmp(argv[1], FORM_WORDS[f])) a->word = (gate_form)f;
    if (a->word) argc--, argv++;   /* argv[0] is not parsed: the word stands for the command */
    if (pb_cli_find_suite("gate", argc, argv, &cli->suite)) return -1;
    pb_err oe = {{0}};
    if (cli->suite && !(cli->suite_opts = pb_suite_opts_new(cli->suite, &oe))) {
        fprintf(stderr, "bench gate: %s\n", oe.msg);
        return -1;
    }
    a->suite = cli->suite;
    a->suite_opts = cli->suite_opts;
    a->set.suite_opts_text = cli->suite_text;
    const char *db0 = a->set.db;
    int r = pb_cli_parse(cli, argc, argv);
    if (r) return r == 1 ? 1 : -1;
    if (check_form(a, cli, db0, gb_flags) < 0) return -1;
    if (a->form == FORM_MERGE) return 0;
    if (!!a->runs_a != !!a->runs_b) return pb_cli_error(cli, "--baseline-runs and --candidate-runs go together");
    if (a->form == FORM_AGAINST) return check_against(a, cli);
    return check_timing(a, cli);
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
/* the given suite options, set again on another build's copy of the suite */
static int set_suite_opts(const pb_cli *cli, const pb_suite *s, void *opts, const char *which, pb_err *e)
{
    if (pb_cli_apply_suite_opts(cli, s, opts, e) == 0) return 0;
    char why[sizeof e->msg];
    snprintf(why, sizeof why, "%s", e->msg);
    return pb_errf(e, "the %s build: %.400s", which, why);
}
/* --measure valgrind or both on one run: can the valgrind child count the suite's cases? Refused
 * here, before a store opens or valgrind starts, for a suite whose cases are other programs. */
static int vg_countable(const gate_args *a, pb_err *e)
{
    pb_runner_opts o = {.suite = a->suite, .suite_opts = a->suite_opts, .quick = a->set.quick, .sizes = a->set.sizes};
    pb_grid g;
    if (pb_runner_grid(&o, &g, e) < 0) return -1;
    int rc = pb_vg_check_countable(a->suite, a->suite_opts, &g, e);
    free(g.cells);
    return rc;
}

/* Where what the gate decides goes: each table on standard output as it is decided (--format
 * text), what runs there too unless standard output carries a document, and the document. */
static pb_gate_sink sink_of(const gate_args *a)
{
    int text = pb_gate_outputs_text(&a->out);
    return (pb_gate_sink){.tables = text ? stdout : NULL, .human = text ? stdout : stderr, .doc = a->doc};
}

/* The commit gate in one process: both builds' suite modules opened, the suite found in each with
 * the command line's suite options set on it; then gate/'s form. */
static int gate_builds(const gate_args *a, const pb_gate_job *j, pb_err *e)
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
    if (rc == 0) {
        gate_layouts_ctx lc = {.cli = a->cli, .la = a->la, .name = name, .module_a = a->base_module, .module_b = cand};
        pb_gate_builds b = {.ma = &ma, .mb = &mb, .path_a = a->base_module, .path_b = cand, .sa = sa, .sb = sb,
                            .oa = oa, .ob = ob, .impl = a->impl, .calibrate = a->calibrate, .repeat = (size_t)a->repeat,
                            .layouts = pb_gate_layouts_builds_src(&lc)};
        rc = pb_gate_commit_builds(j, &b, e);
    }
    if (sa) pb_suite_opts_free(sa, oa);
    if (sb) pb_suite_opts_free(sb, ob);
    pb_suite_module_close(&mb);
    pb_suite_module_close(&ma);
    return rc;
}

/* The against form: a stored run against a saved run (gate_baseline.h), shown as every gate is. */
static int gate_against(gate_args *a, pb_store *st, const pb_thresholds *th, pb_err *e)
{
    a->set.look = a->set.gp;   /* one look */
    pb_against o = {.name = a->against, .run = pb_cli_run_of(a->run), .impl = a->impl, .metric = a->metric, .th = th,
                    .gp = &a->set.look, .command_line = a->cmdline};
    pb_against_result r;
    int rc = pb_gate_against(st, &o, &r, e);
    if (rc < 0) return -1;
    pb_cmp_header h;
    pb_against_header(&o, &r, &h);
    pb_gate_sink out = sink_of(a);
    rc = pb_gate_emit(&out, st, &h, r.cells, r.n, e) < 0 ? -1 : r.status;
    pb_against_result_free(&r);
    return rc;
}

/* The form asked for, the store and thresholds open: its exit status, or -1 + e. */
static int run_form(const gate_args *a, const pb_gate_job *j, pb_det_gate *dg, pb_err *e)
{
    int vg = a->measure && !strcmp(a->measure, "valgrind"), both = a->measure && !strcmp(a->measure, "both");
    if (a->runs_a) {
        pb_gate_runs r = {.runs_a = a->runs_a, .runs_b = a->runs_b, .impl = a->impl,
                          .suite = a->suite ? a->suite->name : NULL, .metric = a->metric, .calibrate = a->calibrate};
        return vg ? pb_gate_valgrind_runs(dg, a->runs_a, a->runs_b, j->st, j->th, e) : pb_gate_commit_runs(j, &r, e);
    }
    if (a->base_module) return gate_builds(a, j, e);
    gate_layouts_ctx lc = {.cli = a->cli, .la = a->la, .name = a->suite->name, .a = a->pair_a, .b = a->pair_b,
                           .aa = a->calibrate};
    pb_gate_pair p = {.suite = a->suite, .suite_opts = a->suite_opts, .a = a->pair_a, .b = a->pair_b,
                      .layouts = pb_gate_layouts_claim_src(&lc)};
    if (a->form == FORM_CALIBRATE) return pb_gate_calibrate(j, &p, (size_t)a->repeat, e);
    return vg ? pb_gate_valgrind(dg, j->st, j->th, e) : both ? pb_gate_both(j, &p, dg, e) : pb_gate_claim(j, &p, e);
}

/* The timing forms: what they check before a store opens, then the store, the form. */
static int gate_timing(gate_args *a, int *skipped, pb_err *e)
{
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
    if (pb_gate_open(&st, a->set.db, a->runs_a != NULL, e) < 0) {
        pb_thresholds_free(&th);
        return -1;
    }
    const char *metric = a->metric ? a->metric : pb_suite_primary_metric(a->suite);
    pb_gate_job j = {.set = a->set, .st = &st, .th = &th, .metric = metric, .out = sink_of(a)};
    pb_det_gate dg = {.suite = a->suite, .baseline = a->baseline, .candidate = a->candidate, .sizes = a->set.sizes,
                      .suite_opts = a->set.suite_opts_text, .metric = a->metric, .command_line = a->cmdline,
                      .quick = a->set.quick, .progress = a->set.progress, .impl = a->impl,
                      .suite_args = {a->cli->nsuite_given, a->cli->suite_given_name, a->cli->suite_given_value},
                      .out = j.out.tables, .doc = a->doc};
    int rc = run_form(a, &j, &dg, e);
    pb_store_close(&st);
    pb_thresholds_free(&th);
    return rc;
}

/* everything after the command line: the exit status, or -1 + e (skipped set when the suite cannot
 * run benchmarks yet). */
static int gate_main(gate_args *a, int *skipped, pb_err *e)
{
    if (a->form != FORM_AGAINST) return gate_timing(a, skipped, e);
    pb_thresholds th;
    pb_store st;
    if (pb_thresholds_for(&th, a->threshold, a->thresholds, e) < 0) return -1;
    if (pb_gate_open(&st, a->set.db, 1, e) < 0) {
        pb_thresholds_free(&th);
        return -1;
    }
    int rc = gate_against(a, &st, &th, e);
    pb_store_close(&st);
    pb_thresholds_free(&th);
    return rc;
}

int cmd_gate(int argc, char **argv)
{
    gate_args a = {.la = {.seed = 1}, .out = {.format = PB_FMT_TEXT},
                   .set = {.db = pb_default_db(), .progress = 1, .reruns = -1, .gp = PB_GATE_DEFAULTS,
                           .width = pb_term_width()}};
    a.set.command_line = a.cmdline;
    pb_cli_join(argc, argv, a.cmdline, sizeof a.cmdline);
    const int argc0 = argc;
    if (pb_cli_gb_init(&argc, argv) < 0) {
        fprintf(stderr, "bench gate: bad --benchmark_ flag (see above)\n");
        return PB_GATE_EXIT_ERROR;
    }
    pb_cli cli;
    int r = parse(argc, argv, &a, &cli, argc != argc0);
    if (r == 0 && a.form == FORM_MERGE) return pb_gate_merge(&a.merge, &a.out);
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
    if (a.set.reruns < 0) a.set.reruns = a.runs_a ? 0 : a.set.budget > 0 ? PB_GATE_MAX_RERUNS : PB_GATE_DEFAULT_RERUNS;
    a.set.look = pb_gate_look_params(a.set.gp, a.set.reruns);
    a.set.layout_seed = a.la.seed;
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
