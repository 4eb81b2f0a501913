/* SPDX-License-Identifier: GPL-2.0-only */
/* gate.h — comparisons and performance-regression gates (`bench compare`, `bench gate`).
 *
 * Three layers, one file each:
 *   gate.c        statistics and decisions on paired costs (no I/O): per-cell
 *                 ratio, CI, p-value, minimum detectable change, Holm's
 *                 correction over the cells of one comparison, the verdict;
 *                 and the threshold file (ci/thresholds).
 *   gate_store.c  what comes from and goes to the store: the samples of runs,
 *                 the comparisons/comparison_cells/calibrations tables; and
 *   gate_cells.c  pairing them (within a run by round, across alternating runs
 *                 by alternation), refusing runs of other machines or jobs.
 *   gate_out.c    the gate's render table: the table on stdout, --format md and
 *                 --format json (written with jansson).
 *
 * Vocabulary. A comparison is always "B against A" (candidate against
 * baseline) per cell (impl, variant, op, size). Every metric is turned into a
 * *cost* (higher = worse: ns_per_op as is, a throughput as its inverse), so
 * that the ratio cost(B)/cost(A) reads the same for every metric: 1.05 means
 * B is 5 % slower. Samples are paired (the two sides ran within milliseconds of
 * each other), and the ratio is the Hodges–Lehmann estimate on the paired log
 * ratios with the Wilcoxon signed-rank CI and p-value (stats.h): both hold
 * under a core that flips between two speeds, which multiply both sides of a pair alike.
 *
 * A cell's verdict (threshold t, e.g. 0.03 for 3 %; [lo, hi] the 95 % CI;
 * p_holm the Holm-adjusted p-value over the m cells of the comparison):
 *   regression    p_holm < alpha and ratio > 1 + t: significantly slower, by
 *                 more than the threshold;
 *   inconclusive  not a regression, and either the CI holds both 1 and 1 + t
 *                 (too noisy to tell "no change" from "regression"), or the
 *                 ratio is beyond 1 + t but not significant after Holm;
 *   pass          otherwise: hi < 1 + t, or slower but within the threshold.
 * A gate's exit status: 1 if any cell regressed, else 3 if any is
 * inconclusive, else 0; 2 for errors. See docs/gate.md. */
#ifndef PB_GATE_H
#define PB_GATE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fn_diff.h"
#include "metrics.h"
#include "pb.h"
#include "stats.h"
#include "store.h"
#include "suite.h"

enum { PB_GATE_EXIT_PASS = 0, PB_GATE_EXIT_REGRESSION = 1, PB_GATE_EXIT_ERROR = 2, PB_GATE_EXIT_INCONCLUSIVE = 3 };

typedef enum {
    PB_CELL_PASS,
    PB_CELL_REGRESSION,
    PB_CELL_INCONCLUSIVE,
    PB_CELL_NODATA,       /* too few pairs (or a side unavailable): not judged, shown */
    PB_CELL_UNTESTED,     /* compare of one run against one run: ratio of medians, no test */
    PB_CELL_COMPARED,     /* no threshold (bench compare): tested, but no pass/fail */
} pb_cell_verdict;

typedef struct pb_gate_params {
    double alpha;   /* family-wise error rate over the cells of one comparison (0.05) */
    double conf;    /* coverage of the per-cell CI (0.95) */
    double power;   /* for the minimum detectable change (0.80) */
} pb_gate_params;

#define PB_GATE_DEFAULTS ((pb_gate_params){.alpha = 0.05, .conf = 0.95, .power = 0.80})

/* A gate that reruns inconclusive cells looks at its data up to 1 + reruns
 * times; each look is tested at alpha / (1 + reruns) (Bonferroni over the
 * looks), so that the gate as a whole keeps its family-wise error rate. */
static inline pb_gate_params pb_gate_look_params(pb_gate_params gp, int reruns)
{
    gp.alpha /= 1 + (reruns > 0 ? reruns : 0);
    return gp;
}

typedef struct pb_cmp_cell {
    /* which cell: impl_a/impl_b are equal in a comparison of runs (same impl, two builds) */
    char impl_a[PB_NAME_MAX], impl_b[PB_NAME_MAX];
    char variant[PB_NAME_MAX], op[PB_NAME_MAX];
    uint64_t size;
    double threshold;        /* slowdown that counts as a regression (0.03 = 3 %); NaN: none (compare) */
    int rounds;              /* rounds (or alternations) behind the pairs, after reruns */
    double calibrated_mdc;   /* this machine's A/A minimum detectable change for the cell; NaN if none */
    char note[160];          /* why a cell has no data, or what the pairing was */
    /* filled by pb_cmp_cell_stats */
    size_t n;                /* pairs */
    double ratio;            /* cost(B)/cost(A): Hodges–Lehmann, or ratio of medians when untested */
    double ci_lo, ci_hi;     /* CI of the ratio; infinite when too few pairs */
    double conf;             /* achieved coverage */
    double p;                /* two-sided signed-rank p-value of ratio == 1 */
    double se_log;           /* standard error of log(ratio), from the CI width */
    double noise;            /* robust spread of the paired log ratios (MAD x 1.4826) */
    double order_effect;     /* how much slower the side that ran second was (fraction; NaN: not estimated) */
    double mdc;              /* minimum detectable change (fraction) at `power`, level alpha/m */
    int layouts;             /* code layouts the ratio is estimated across (docs/layout.md); 1: one */
    double layout_lo, layout_hi; /* the smallest and largest per-layout ratio; NaN with one layout */
    double layout_df;        /* degrees of freedom of its t: layout_units - 1, more once moderated; NaN: one layout */
    int layout_units;        /* what its t is over: the layouts, or the function orders' means where the
                                layouts are stratified (layout_stats.h) */
    /* filled by pb_gate_decide */
    double p_holm;
    pb_cell_verdict verdict;
    /* where the instructions differ, function by function (count runs only: gate_fns.c, fn_diff.h);
     * nfn 0 where the runs have no per-function rows */
    pb_fn_delta fn[PB_FN_SHOWN];
    size_t nfn;
    int exact;               /* counts (gate_det.h): the ratio is exact, [ci_lo, ci_hi] the repetitions' range */
} pb_cmp_cell;

/* ---- statistics and decisions (gate.c) ---- */

/* Holm's step-down adjusted p-values: adj[i] for p[i], m values (NaN = not tested, left NaN). */
void pb_holm(const double *p, size_t m, double *adj);

/* Per-cell statistics from n pairs of costs (cost_b[i], cost_a[i]). m is the
 * number of cells in the comparison (for the MDC at Holm's strictest level).
 * With fewer than 6 pairs the cell is PB_CELL_NODATA (no 95 % CI exists).
 *
 * order[i] (or NULL) says which side of pair i ran first: +1 A, -1 B. On a
 * busy VM the sample that runs second in a round is sometimes systematically
 * slower (docs/measurements/gate-design.md says by how much). The runner
 * rotates the start every round, so this adds +e to half the pairs and -e to
 * the other half: symmetric, so the test stays valid, and it only widens the
 * CI (the reruns narrow it again). It is estimated (half the difference of the
 * two orders' medians, with at least 3 pairs in each) and reported as
 * order_effect, not corrected:
 * correcting it helped little in simulation and made very noisy A/A gates
 * alarm more often (docs/gate.md, "Order effect"). */
void pb_cmp_cell_stats(pb_cmp_cell *c, const double *cost_b, const double *cost_a, const signed char *order,
                       size_t n, size_t m, const pb_gate_params *gp);
/* The same with each pair's code layout (NULL: one): with pairs in two or more layouts, the ratio,
 * CI, p-value and MDC are across layouts (layout_stats.h: per-layout Hodges-Lehmann, mean over
 * layouts, Student t over the layouts or, stratified, over the function orders' means), so that a change of placement alone is layout spread,
 * not a regression. */
void pb_cmp_cell_stats_layouts(pb_cmp_cell *c, const double *cost_b, const double *cost_a, const signed char *order,
                               const int *layout, size_t n, size_t m, const pb_gate_params *gp);

/* The cells of one comparison across code layouts, their between-layout variances moderated
 * together (gate_moderate.c: Smyth's empirical-Bayes t), so that each test gains the degrees of
 * freedom its 7 alone lack; CI, p, SE and MDC are recomputed. Needs 5 such cells, else changes
 * nothing. Call before pb_gate_decide. 0, or -1 when out of memory (cells unchanged). */
int pb_gate_moderate_layouts(pb_cmp_cell *cells, size_t m, const pb_gate_params *gp);

/* Ratio of medians only (one run against one run: no valid paired test). */
void pb_cmp_cell_untested(pb_cmp_cell *c, const double *cost_b, size_t nb, const double *cost_a, size_t na);

/* Holm over the tested cells, then each cell's verdict (see the top of this
 * file). A tested cell without a threshold (NaN: bench compare) becomes
 * PB_CELL_COMPARED; pb_cmp_change() says what the test found. */
void pb_gate_decide(pb_cmp_cell *cells, size_t m, const pb_gate_params *gp);

/* A second run's verdicts on the regressions of a first (bench gate's confirmation, docs/gate.md):
 * a regression of cells[] stays one where second[] holds the same cell (impls, variant, op, size)
 * as a regression too; any other becomes inconclusive. Either way its note says what the second run
 * found. Returns the regressions confirmed. */
size_t pb_gate_confirm(pb_cmp_cell *cells, size_t n, const pb_cmp_cell *second, size_t n2);

/* The cell of v (n of them, v may be NULL) that is c's: the same impls, variant, op and size; or NULL. */
const pb_cmp_cell *pb_gate_find_cell(const pb_cmp_cell *c, const pb_cmp_cell *v, size_t n);

/* 1 if any regression, else 3 if any inconclusive, else 0 (NODATA/UNTESTED cells don't count). */
int pb_gate_exit_status(const pb_cmp_cell *cells, size_t m);

const char *pb_cell_verdict_name(pb_cell_verdict v);
/* "pass", "regression", "error", "inconclusive" for the exit statuses; "none" for -1 (compare) */
const char *pb_gate_exit_name(int status);

/* "3,5,7" -> run ids (malloc'd). -1 + e for anything but positive integers. */
int pb_parse_run_ids(const char *list, int64_t **ids, size_t *n, pb_err *e);
/* The two sides of a comparison of runs (compare --runs A B, gate --baseline-runs A --candidate-runs
 * B), each a comma list as pb_parse_run_ids reads it: no run twice on one side (one alternation
 * counted twice) and none on both (a run against itself: a ratio of exactly 1 that measures
 * nothing, stored as if it were a finding). Two different runs of one build are an A/A and are
 * fine. 0, or -1 + e naming the run and the option (opt_a, opt_b: "--runs IDS_A", ...). */
int pb_check_run_sides(const char *list_a, const char *list_b, const char *opt_a, const char *opt_b, pb_err *e);
/* "slower" / "faster" (Holm-significant) or "no difference detected" / "untested" */
const char *pb_cmp_change(const pb_cmp_cell *c, const pb_gate_params *gp);

/* Metric names and directions: metrics.h, the one table. */

/* ---- thresholds file (gate.c) ----
 * One rule a line:  GATE SUITE METRIC SLOWDOWN
 *   GATE     claim | commit | baseline | *   (which gate the rule is for; baseline: bench gate
 *            --against, unpaired, gate_baseline.h)
 *   SUITE    a suite name | *
 *   METRIC   ns_per_op, mb_per_s, ... | *
 *   SLOWDOWN a percentage with its sign, 0% < t <= 100%, e.g. 3% or 2.5%
 * '#' starts a comment; blank lines are ignored. The most specific rule wins
 * (exact names beat '*'; GATE counts most, then SUITE, then METRIC); two rules
 * for the same key are an error. Errors name file:line. */
typedef struct pb_threshold {
    char gate[16], suite[PB_NAME_MAX], metric[PB_NAME_MAX];
    double slowdown;
    int line;
} pb_threshold;

typedef struct pb_thresholds {
    char path[512];          /* the file, or "--threshold P%" for the one rule of the command line */
    int option;              /* 1: from --threshold (pb_thresholds_single), no file */
    int n;
    pb_threshold *v;
} pb_thresholds;

int pb_thresholds_load(pb_thresholds *t, const char *path, pb_err *e);
/* Same, from text in memory (path only names it in errors). */
int pb_thresholds_parse(pb_thresholds *t, const char *path, const char *text, pb_err *e);
/* The slowdown for (gate, suite, metric), or -1 + e naming what is missing. *line gets the rule's line. */
int pb_thresholds_lookup(const pb_thresholds *t, const char *gate, const char *suite, const char *metric,
                         double *slowdown, int *line, pb_err *e);
void pb_thresholds_free(pb_thresholds *t);
/* --threshold P%: one rule '* * * P%' in place of a file, for every gate, suite and metric of the
 * run. P as in the file (a percentage, 0% < P <= 100%) or a bare number of percent ("3" is 3%); -1 +
 * e naming --threshold. */
int pb_thresholds_single(pb_thresholds *t, const char *value, pb_err *e);
/* The thresholds of one command, in the order docs/gate.md documents: --threshold P% (threshold,
 * or NULL), else --thresholds FILE (file, or NULL), else ci/thresholds in the current folder,
 * else the source tree's. Suite names are checked against the registry. -1 + e naming the option
 * (or saying that the default was used). */
int pb_thresholds_for(pb_thresholds *t, const char *threshold, const char *file, pb_err *e);
/* Where rule `line` of t comes from, as notes show it: "FILE:LINE", or "--threshold 3%". */
const char *pb_thresholds_where(const pb_thresholds *t, int line, char *buf, size_t cap);

/* A cell that is significantly slower (p (Holm) < alpha, ratio > 1) and still passed, because
 * it is under its threshold: reported as such in every output, and counted (docs/gate.md). */
int pb_cell_under_threshold(const pb_cmp_cell *c, const pb_gate_params *gp);
/* "slower by 8.9 % [2.7 %, 11.5 %], under the 15 % threshold" into b; returns b */
const char *pb_under_threshold_text(char *b, size_t cap, const pb_cmp_cell *c);

/* ---- the store (gate_store.c), cells and pairs (gate_cells.c) ---- */

/* pb_store_open (whose schema includes the gate's tables, store/schema.c); must_exist:
 * refuse (rather than create) a missing file. */
int pb_gate_open(pb_store *s, const char *path, int must_exist, pb_err *e);

/* Costs of one case of one run: observations by (round, repetition). */
typedef struct pb_gate_obs {
    int round, rep, position;
    double cost;
    int layout;              /* the code layout of its round (docs/layout.md) */
} pb_gate_obs;

typedef struct pb_gate_case {
    int64_t run;
    char impl[PB_NAME_MAX], variant[PB_NAME_MAX], op[PB_NAME_MAX];
    uint64_t size;
    int ok;                  /* 0: the case was 'unavailable' */
    char reason[160];
    pb_gate_obs *obs;
    size_t n;
} pb_gate_case;

typedef struct pb_gate_data {
    pb_gate_case *c;
    size_t n, cap;
} pb_gate_data;

/* What a run is (for checks and for the comparison's record). */
typedef struct pb_run_meta {
    int64_t id;
    char suite[PB_NAME_MAX], status[16], baseline[PB_NAME_MAX], candidate[PB_NAME_MAX], primary_metric[PB_NAME_MAX];
    char machine_id[64], job_id[128], git_sha[64], options[512];
} pb_run_meta;

int pb_gate_run_meta(pb_store *s, int64_t run, pb_run_meta *m, pb_err *e);

/* Append every case of `run` with its costs in `metric` to d. */
int pb_gate_load_run(pb_store *s, int64_t run, const char *metric, pb_gate_data *d, pb_err *e);
void pb_gate_data_free(pb_gate_data *d);

/* Runs that may be compared with each other: all complete, one suite, one
 * machine (machine_id) and one job (job_id, from PB_JOB_ID); the same
 * options. Anything else is refused with a message saying which run differs. */
int pb_gate_check_runs(const pb_run_meta *m, size_t n, pb_err *e);

/* Alternation k of a commit-gate session is the k-th baseline run with the
 * k-th candidate run; they must be adjacent in run order (nothing of either
 * side between them). Checks that, given the id lists. */
int pb_gate_check_alternation(const int64_t *a, const int64_t *b, size_t k, pb_err *e);

/* Cells of one comparison, with their statistics (pb_cmp_cell_stats; m = the
 * number of cells). Thresholds and verdicts are the caller's (pb_gate_decide).
 * Within runs: for each cell key present for both impl_a and impl_b, pairs by
 * (round, repetition) of the same run, pooled over all loaded runs (a gate's
 * reruns add runs). Across alternating runs (commit gate): pair k = (median of
 * the impl in run runs_b[k], median in run runs_a[k]) per cell and impl (NULL:
 * every impl measured on both sides). The samples of one cell in one run ran
 * within milliseconds of each other: they are one moment, not independent
 * pairs, so pairing them by round index across runs would overstate n. With
 * one run each (k == 1) a cell is UNTESTED: ratio of medians, no test. */
int pb_gate_cells_within(const pb_gate_data *d, const char *impl_a, const char *impl_b, const pb_gate_params *gp,
                         pb_cmp_cell **cells, size_t *ncells, pb_err *e);
/* The same for several pairs of impls in one run (the in-process commit gate: X~base against X
 * for every impl X): the cells of all pairs, m = all of them. */
int pb_gate_cells_within_pairs(const pb_gate_data *d, const char *const *impl_a, const char *const *impl_b,
                               size_t npairs, const pb_gate_params *gp, pb_cmp_cell **cells, size_t *ncells, pb_err *e);
int pb_gate_cells_across(const pb_gate_data *d, const int64_t *runs_a, const int64_t *runs_b, size_t k,
                         const char *impl, const pb_gate_params *gp, pb_cmp_cell **cells, size_t *ncells, pb_err *e);

/* Runs against runs (compare --runs, the commit gate): reads the runs' records,
 * refuses what cannot be compared (pb_gate_check_runs; with k > 1 also
 * pb_gate_check_alternation), and loads every run in `metric` (NULL or "": the
 * runs' primary metric; the one used is written to metric_out). meta0 gets the
 * first baseline run's record. */
int pb_gate_load_sessions(pb_store *s, const int64_t *a, const int64_t *b, size_t k, const char *metric,
                          char *metric_out, size_t cap, pb_run_meta *meta0, pb_gate_data *d, pb_err *e);

/* One comparison, as stored. */
typedef struct pb_comparison {
    const char *command;      /* "compare" | "gate" */
    const char *gate;         /* "claim" | "commit" | "aa" | NULL */
    const char *suite, *metric, *pairing;
    const char *thresholds;   /* file, or NULL */
    const char *command_line;
    const char *note;
    const pb_gate_params *gp;
    int exit_status;
    const int64_t *runs_a, *runs_b;   /* runs_b may be NULL when both sides are in runs_a */
    size_t nruns_a, nruns_b;
    int alternating;          /* runs_a[k], runs_b[k] form alternation k */
    const char *baseline;     /* the stored baseline runs_a[0] is (bench gate --against), or NULL */
} pb_comparison;

int64_t pb_gate_store(pb_store *s, const pb_comparison *c, const pb_cmp_cell *cells, size_t n, pb_err *e);

/* The runs a stored comparison used (comparison_runs), in alternation order, then by side and id. */
typedef struct pb_cmp_run {
    int64_t run;
    char side[16];           /* baseline | candidate | both */
    int alternation;         /* 0: none */
} pb_cmp_run;
/* Into *runs (malloc'd, *n of them); 0, or -1 + e. */
int pb_gate_comparison_runs(pb_store *s, int64_t comparison, pb_cmp_run **runs, size_t *n, pb_err *e);

/* An A/A calibration: `repeats` whole A/A gates of one impl against itself.
 * first[r] are the cells of repeat r's first pass (what a quick gate sees:
 * noise, MDC), final[r] after its reruns (what the gate decided: alarms). */
typedef struct pb_calibration {
    const char *suite, *metric, *pairing, *impl;
    int64_t run;                     /* any run of the calibration (machine and job come from it) */
    size_t repeats, ncells;
    pb_cmp_cell **first, **final;    /* [repeats][ncells], the same cells in the same order */
    int64_t first_comparison, last_comparison;
} pb_calibration;

int pb_gate_store_calibration(pb_store *s, const pb_calibration *cal, pb_err *e);

/* The newest A/A calibration of this cell on this machine (pairing "round" or
 * "alternation"); NaN if none. */
double pb_gate_calibrated_mdc(pb_store *s, const char *machine_id, const char *pairing, const char *suite,
                              const char *impl, const char *variant, const char *op, uint64_t size,
                              const char *metric);
/* The same calibration's noise: what one pair scatters on the log scale (with pairing "alternation":
 * one pair of runs of one build, what the machine does between sessions); NaN if none. */
double pb_gate_calibrated_noise(pb_store *s, const char *machine_id, const char *pairing, const char *suite,
                                const char *impl, const char *variant, const char *op, uint64_t size,
                                const char *metric);

/* ---- output (gate_out.c: the tables people read; gate_doc.h: the document every format is made from) ---- */
/* The formats of a comparison's document (gate_doc.h: pb_gate_renderers, one entry each, in this
 * order); PB_FMT_COUNT is how many there are, not a format. */
typedef enum { PB_FMT_TEXT, PB_FMT_MD, PB_FMT_JSON, PB_FMT_JUNIT, PB_FMT_CODEQUALITY, PB_FMT_COUNT } pb_format;
/* The pb_format named s ("text", "md", "json", "junit", "codequality"); 0, or -1 for none. */
int pb_format_parse(const char *s, pb_format *f);
/* "text, md, json, junit or codequality" into buf */
const char *pb_format_names(char *buf, size_t cap);
/* The options compare and gate share: --format F, --alpha A (name without the dashes).
 * 1 if taken, 0 if not one of them, -1 after printing "CMD: what is wrong" to stderr. */
int pb_gate_output_opt(const char *cmd, const char *name, const char *val, pb_format *fmt, pb_gate_params *gp);

typedef struct pb_cmp_header {
    const char *title;        /* "gate claim xts: new against old" */
    const char *suite, *metric, *pairing, *gate;
    int64_t comparison_id;    /* 0 if not stored */
    const pb_gate_params *gp;
    int exit_status;          /* -1: no verdict (compare) */
    const char *note;
    const char *command;      /* "gate" (NULL) or "compare" */
    const char *measure;      /* "time" (NULL) or "valgrind": counts, no statistics */
    const pb_thresholds *th;  /* where the cells' threshold came from; NULL: none (compare) */
    int threshold_line;       /* its rule's line in th (pb_thresholds_where) */
    const char *method;       /* how ratio, CI and p were found, when not the pairing's usual way (NULL) */
} pb_cmp_header;

/* One comparison as people read it: its header, the table of its cells, the verdict line. md = 0:
 * text for a terminal (names through pb_term_text; on stdout its lines fit the terminal's width,
 * docs/gate-outputs.md "The text table"); 1: Markdown (names as Markdown text), a gate's
 * section of the md document (gate_doc.h). A cell significantly slower but under its threshold
 * says so, and the verdict line counts them. */
void pb_gate_print(FILE *f, int md, const pb_cmp_header *h, const pb_cmp_cell *cells, size_t n);
/* s and a line break on f as the text format's lines are: on stdout cut at spaces to fit the
 * terminal (as pb_gate_print's), each further line indented by two spaces. */
void pb_gate_text_line(FILE *f, const char *s);

/* ---- where the instructions differ (gate_fns.c, docs/counts.md) ---- */

/* Each cell's function-by-function difference: impl_a's rows in run_a against impl_b's in run_b
 * (table func_counts; one run for both where the impls differ). Cells of runs without such rows
 * keep nfn 0. 0, or -1 + e. */
int pb_gate_cells_fns(pb_store *st, int64_t run_a, int64_t run_b, pb_cmp_cell *cells, size_t n, pb_err *e);
/* The cells' differences, one line a cell ("256 enc 4096: -4035.0 = xor_tweak +9253.0, ..."), under
 * a heading; regressions say what grew. Text lines are wrapped at width (0: whole); md a list. */
void pb_gate_print_fns(FILE *f, int md, const pb_cmp_cell *cells, size_t n, int width);

#endif
