/* SPDX-License-Identifier: GPL-2.0-only */
/* The gate's statistics and decisions with known answers, simulated gates with this VM's
 * noise shape (fixed seeds: deterministic), the thresholds file and its errors, and the
 * refusals of runs that cannot be compared. No wall-clock figure is asserted. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate.h"
#include "nearest.h"
#include "pair_suite.h"
#include "sim.h"
#include "../lib/check.h"

static void test_holm(void)
{
    /* sorted 0.005, 0.01, 0.03, 0.04 -> x4, x3, x2, x1 = 0.02, 0.03, 0.06, 0.04 -> monotone 0.02, 0.03, 0.06, 0.06 */
    double p[] = {0.01, 0.04, NAN, 0.03, 0.005}, adj[5];
    pb_holm(p, 5, adj);
    double want[] = {0.03, 0.06, NAN, 0.06, 0.02};
    for (int i = 0; i < 5; i++)
        CHECK(isnan(want[i]) ? isnan(adj[i]) : fabs(adj[i] - want[i]) < 1e-12, "holm[%d] = %g, want %g", i, adj[i],
              want[i]);
    double big[] = {0.5, 0.9};
    pb_holm(big, 2, adj);
    CHECK(adj[0] == 1 && adj[1] == 1, "holm caps at 1: %g %g", adj[0], adj[1]);
}

static pb_cmp_cell judged(double ratio, double lo, double hi, double p, double t)
{
    pb_cmp_cell c;
    memset(&c, 0, sizeof c);
    c.ratio = ratio, c.ci_lo = lo, c.ci_hi = hi, c.p = p, c.threshold = t, c.n = 15, c.conf = 0.95;
    c.verdict = PB_CELL_COMPARED;
    pb_gate_params gp = PB_GATE_DEFAULTS;
    pb_gate_decide(&c, 1, &gp);
    return c;
}

static void test_verdicts(void)
{
    CHECK(judged(1.10, 1.06, 1.14, 0.001, 0.05).verdict == PB_CELL_REGRESSION, "significant and beyond t");
    CHECK(judged(1.01, 0.99, 1.03, 0.3, 0.05).verdict == PB_CELL_PASS, "CI below 1 + t");
    CHECK(judged(0.50, 0.45, 0.55, 1e-5, 0.05).verdict == PB_CELL_PASS, "faster");
    CHECK(judged(1.02, 0.97, 1.08, 0.4, 0.05).verdict == PB_CELL_INCONCLUSIVE, "CI holds 1 and 1 + t");
    CHECK(judged(1.03, 1.01, 1.06, 0.01, 0.05).verdict == PB_CELL_PASS, "slower, within t");
    CHECK(judged(1.10, 1.06, 1.14, 0.001, NAN).verdict == PB_CELL_COMPARED, "no threshold: compared");
    CHECK(judged(1.10, -INFINITY, INFINITY, 0.5, 0.05).verdict == PB_CELL_INCONCLUSIVE, "unbounded CI");

    /* significant alone, not after Holm over 2 cells: beyond t -> inconclusive, not regression */
    pb_cmp_cell two[2] = {judged(1.07, 1.01, 1.12, 0.04, 0.05), judged(1.07, 1.01, 1.12, 0.04, 0.05)};
    two[0].verdict = two[1].verdict = PB_CELL_COMPARED;
    pb_gate_params gp = PB_GATE_DEFAULTS;
    pb_gate_decide(two, 2, &gp);
    CHECK(fabs(two[0].p_holm - 0.08) < 1e-12, "p_holm %g", two[0].p_holm);
    CHECK(two[0].verdict == PB_CELL_INCONCLUSIVE, "Holm: %s", pb_cell_verdict_name(two[0].verdict));
    CHECK(!strcmp(pb_cmp_change(&two[0], &gp), "no difference detected"), "change %s", pb_cmp_change(&two[0], &gp));

    /* exit status: a regression beats an inconclusive cell; cells without data do not count */
    pb_cmp_cell c[3] = {judged(1.01, 0.99, 1.03, 0.3, 0.05), judged(1.02, 0.97, 1.08, 0.4, 0.05),
                        judged(1.10, 1.06, 1.14, 0.001, 0.05)};
    CHECK(pb_gate_exit_status(c, 1) == PB_GATE_EXIT_PASS, "pass");
    CHECK(pb_gate_exit_status(c, 2) == PB_GATE_EXIT_INCONCLUSIVE, "inconclusive");
    CHECK(pb_gate_exit_status(c, 3) == PB_GATE_EXIT_REGRESSION, "regression");
    c[1].verdict = PB_CELL_NODATA;
    CHECK(pb_gate_exit_status(c, 2) == PB_GATE_EXIT_PASS, "no data does not count");
}

static pb_cmp_cell named(pb_cmp_cell c, const char *op, uint64_t size)
{
    snprintf(c.impl_a, sizeof c.impl_a, "old");
    snprintf(c.impl_b, sizeof c.impl_b, "new");
    snprintf(c.variant, sizeof c.variant, "256");
    snprintf(c.op, sizeof c.op, "%s", op);
    c.size = size;
    return c;
}

/* A second run's verdicts on the first's regressions (pb_gate_confirm): confirmed only where the
 * same cell is a regression again; anything else, a missing cell included, becomes inconclusive. */
static void test_confirm(void)
{
    pb_cmp_cell first[4] = {named(judged(1.10, 1.06, 1.14, 0.001, 0.05), "enc", 4096),
                            named(judged(1.08, 1.06, 1.10, 0.001, 0.05), "dec", 4096),
                            named(judged(1.01, 0.99, 1.03, 0.3, 0.05), "enc", 512),
                            named(judged(1.09, 1.07, 1.11, 0.001, 0.05), "dec", 512)};
    /* the second run: cell 0 a regression again, cell 1 within its threshold, cell 3 absent, and
     * cell 2, which the first did not flag, a regression that must not leak into the first's */
    pb_cmp_cell second[3] = {named(judged(1.02, 1.00, 1.04, 0.04, 0.05), "dec", 4096),
                             named(judged(1.12, 1.10, 1.14, 0.001, 0.05), "enc", 4096),
                             named(judged(1.10, 1.06, 1.14, 0.001, 0.05), "enc", 512)};
    CHECK(first[0].verdict == PB_CELL_REGRESSION && first[1].verdict == PB_CELL_REGRESSION &&
              first[3].verdict == PB_CELL_REGRESSION && first[2].verdict == PB_CELL_PASS &&
              second[0].verdict == PB_CELL_PASS && second[1].verdict == PB_CELL_REGRESSION,
          "the runs' own verdicts");
    size_t k = pb_gate_confirm(first, 4, second, 3);
    CHECK(k == 1, "confirmed %zu, want 1", k);
    CHECK(first[0].verdict == PB_CELL_REGRESSION && strstr(first[0].note, "confirmed by a second run: 1.120 [1.100, 1.140]"),
          "confirmed: %s / %s", pb_cell_verdict_name(first[0].verdict), first[0].note);
    CHECK(first[0].ratio == 1.10, "the first run's ratio stays: %g", first[0].ratio);
    CHECK(first[1].verdict == PB_CELL_INCONCLUSIVE &&
              strstr(first[1].note, "not in a second (pass): 1.020 [1.000, 1.040]"),
          "not reproduced: %s / %s", pb_cell_verdict_name(first[1].verdict), first[1].note);
    CHECK(first[2].verdict == PB_CELL_PASS && !first[2].note[0], "an unflagged cell is left alone: %s / %s",
          pb_cell_verdict_name(first[2].verdict), first[2].note);
    CHECK(first[3].verdict == PB_CELL_INCONCLUSIVE && strstr(first[3].note, "the second had no data for it"),
          "absent from the second run: %s / %s", pb_cell_verdict_name(first[3].verdict), first[3].note);
    CHECK(pb_gate_exit_status(first, 4) == PB_GATE_EXIT_REGRESSION, "one confirmed regression fails the gate");
    CHECK(pb_gate_confirm(first + 1, 3, NULL, 0) == 0 && pb_gate_exit_status(first + 1, 3) == PB_GATE_EXIT_INCONCLUSIVE,
          "none confirmed: inconclusive, not a regression");
}

static void test_cell_stats(void)
{
    pb_gate_params gp = PB_GATE_DEFAULTS;
    pb_rng r;
    pb_rng_seed(&r, 7);
    double a[40], b[40];
    signed char o[40];
    for (int i = 0; i < 40; i++) {
        double speed = (pb_rng_next(&r) % 4) ? 1.0 : 3.11 / 1.67;       /* both sides of a pair alike */
        double j1 = 1 + 0.004 * ((double)(pb_rng_next(&r) % 1000) / 500 - 1);
        double j2 = 1 + 0.004 * ((double)(pb_rng_next(&r) % 1000) / 500 - 1);
        o[i] = (i % 2) ? -1 : 1;
        a[i] = 100 * speed * j1 * (o[i] < 0 ? 1.08 : 1);             /* the second of a round is 8 % slower */
        b[i] = 110 * speed * j2 * (o[i] > 0 ? 1.08 : 1);
    }
    pb_cmp_cell c;
    memset(&c, 0, sizeof c);
    pb_cmp_cell_stats(&c, b, a, o, 40, 1, &gp);
    CHECK(c.verdict == PB_CELL_COMPARED && c.n == 40, "tested, n %zu", c.n);
    CHECK(fabs(c.ratio - 1.10) < 0.01, "ratio %g", c.ratio);
    CHECK(c.ci_lo < c.ratio && c.ratio < c.ci_hi, "CI [%g, %g]", c.ci_lo, c.ci_hi);
    CHECK(fabs(c.order_effect - 0.08) < 0.01, "order effect %g", c.order_effect);
    CHECK(c.mdc > 0 && c.mdc < 0.1 && c.se_log > 0, "mdc %g se %g", c.mdc, c.se_log);
    /* the MDC grows with the number of cells (Holm's strictest level is alpha/m) */
    pb_cmp_cell c30;
    memset(&c30, 0, sizeof c30);
    pb_cmp_cell_stats(&c30, b, a, o, 40, 30, &gp);
    CHECK(c30.mdc > c.mdc, "mdc m=30 %g <= m=1 %g", c30.mdc, c.mdc);

    memset(&c, 0, sizeof c);
    pb_cmp_cell_stats(&c, b, a, NULL, 5, 1, &gp);
    CHECK(c.verdict == PB_CELL_NODATA && strstr(c.note, "at least 6"), "5 pairs: %s / %s",
          pb_cell_verdict_name(c.verdict), c.note);
    memset(&c, 0, sizeof c);
    double vb[] = {3, 3, 3}, va[] = {2, 2, 2};
    pb_cmp_cell_untested(&c, vb, 3, va, 3);
    CHECK(c.verdict == PB_CELL_UNTESTED && fabs(c.ratio - 1.5) < 1e-12 && isnan(c.p), "untested %g", c.ratio);
}

/* 100 simulated gates of 10 cells, 15 rounds, up to 2 reruns, threshold 3 %, this VM's noise */
typedef struct sim_tally {
    int exits[4], cell0_regression, other_regression;
} sim_tally;

static sim_tally simulate(uint64_t seed, const sim_noise *nm, double shift0)
{
    double shift[10];
    for (int i = 0; i < 10; i++) shift[i] = 1.0;
    shift[0] = shift0;
    sim_gate g = {.ncells = 10, .shift = shift, .rounds = 15, .reruns = 2, .threshold = 0.03, .use_order = 1};
    pb_rng r;
    pb_rng_seed(&r, seed);
    sim_tally t;
    memset(&t, 0, sizeof t);
    pb_cmp_cell cells[10];
    for (int k = 0; k < 100; k++) {
        t.exits[sim_run_gate(&r, nm, &g, cells)]++;
        t.cell0_regression += cells[0].verdict == PB_CELL_REGRESSION;
        for (int i = 1; i < 10; i++) t.other_regression += cells[i].verdict == PB_CELL_REGRESSION;
    }
    return t;
}

static void test_simulated_gates(void)
{
    /* the shape seen here: two speeds flipping now and then, 1-3 % jitter, preempted samples,
     * and at times the second sample of a round slower */
    const sim_noise quiet = {.jitter = 0.01, .flip = 0.03, .outlier = 0.02, .order = 0};
    const sim_noise busy = {.jitter = 0.03, .flip = 0.05, .outlier = 0.05, .order = 0.03};
    const sim_noise flipping = {.jitter = 0.01, .flip = 0.08, .outlier = 0.02, .order = 0.05};
    const sim_noise storm = {.jitter = 0.25, .flip = 0.10, .outlier = 0.20, .order = 0};
    struct {
        const char *name;
        const sim_noise *nm;
    } shapes[] = {{"quiet", &quiet}, {"busy", &busy}, {"flipping", &flipping}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        sim_tally aa = simulate(1000 + s, shapes[s].nm, 1.0);
        CHECK(aa.exits[PB_GATE_EXIT_REGRESSION] <= 5, "%s A/A: %d of 100 gates alarmed", shapes[s].name,
              aa.exits[PB_GATE_EXIT_REGRESSION]);
        sim_tally slow = simulate(2000 + s, shapes[s].nm, 1.05);
        CHECK(slow.exits[PB_GATE_EXIT_REGRESSION] >= 95 && slow.cell0_regression >= 95,
              "%s, one cell 5 %% slower: %d of 100 gates failed, %d found the cell", shapes[s].name,
              slow.exits[PB_GATE_EXIT_REGRESSION], slow.cell0_regression);
        CHECK(slow.other_regression <= 5, "%s: %d unchanged cells flagged", shapes[s].name, slow.other_regression);
        printf("noise %-8s  A/A: %3d pass %3d alarm %3d inconclusive | 5 %% slower: %3d failed (cell found %3d)\n",
               shapes[s].name, aa.exits[0], aa.exits[1], aa.exits[3], slow.exits[1], slow.cell0_regression);
    }
    /* far too noisy to tell: inconclusive, not passed, and not failed either */
    sim_tally st = simulate(3000, &storm, 1.0);
    CHECK(st.exits[PB_GATE_EXIT_INCONCLUSIVE] >= 90, "storm A/A: %d of 100 inconclusive", st.exits[3]);
    CHECK(st.exits[PB_GATE_EXIT_REGRESSION] <= 5, "storm A/A: %d of 100 alarmed", st.exits[1]);
    printf("noise storm     A/A: %3d pass %3d alarm %3d inconclusive\n", st.exits[0], st.exits[1], st.exits[3]);
}

static void expect_parse_error(const char *text, const char *want)
{
    pb_thresholds t;
    pb_err e = {{0}};
    int rc = pb_thresholds_parse(&t, "ci/thresholds", text, &e);
    CHECK(rc < 0 && strstr(e.msg, want), "'%s': rc %d, message '%s', want '%s'", text, rc, e.msg, want);
}

static void test_thresholds(void)
{
    const char *text = "# gate  suite  metric  slowdown\n"
                       "\n"
                       "*       *      *          5%   # default\n"
                       "claim   xts    ns_per_op  3%\n"
                       "commit  *      ns_per_op  4.5%\n"
                       "claim   xts    *          7%\n"
                       "*       drbg   mb_per_s   10%\r\n";
    pb_thresholds t;
    pb_err e = {{0}};
    CHECK(pb_thresholds_parse(&t, "ci/thresholds", text, &e) == 0 && t.n == 5, "parse: %s", e.msg);
    double v;
    int line;
    CHECK(pb_thresholds_lookup(&t, "claim", "xts", "ns_per_op", &v, &line, &e) == 0 && fabs(v - 0.03) < 1e-12 &&
              line == 4, "exact rule: %g line %d", v, line);
    CHECK(pb_thresholds_lookup(&t, "claim", "xts", "mb_per_s", &v, &line, &e) == 0 && line == 6, "suite rule: %d", line);
    CHECK(pb_thresholds_lookup(&t, "commit", "xts", "ns_per_op", &v, &line, &e) == 0 && fabs(v - 0.045) < 1e-12,
          "gate beats suite: %g", v);
    CHECK(pb_thresholds_lookup(&t, "claim", "drbg", "mb_per_s", &v, &line, &e) == 0 && line == 7, "crlf: %d", line);
    CHECK(pb_thresholds_lookup(&t, "claim", "sigpool", "ns_per_op", &v, &line, &e) == 0 && line == 3, "default");
    pb_thresholds_free(&t);

    CHECK(pb_thresholds_parse(&t, "x", "claim xts ns_per_op 3%\n", &e) == 0, "parse");
    CHECK(pb_thresholds_lookup(&t, "commit", "xts", "ns_per_op", &v, &line, &e) < 0 &&
              strstr(e.msg, "x has no rule for the commit gate of suite xts, metric ns_per_op"),
          "missing rule: %s", e.msg);
    pb_thresholds_free(&t);

    expect_parse_error("claim xts ns_per_op\n", "ci/thresholds:1: expected 4 fields");
    expect_parse_error("\n\nclaim xts ns_per_op 3% extra\n", "ci/thresholds:3: expected 4 fields");
    expect_parse_error("merge xts ns_per_op 3%\n", "ci/thresholds:1: unknown gate 'merge'");
    expect_parse_error("claim xts ns_per_sec 3%\n", "ci/thresholds:1: unknown metric 'ns_per_sec'");
    expect_parse_error("claim xts ns_per_op 0.03\n", "ci/thresholds:1: slowdown '0.03' is not a percentage");
    expect_parse_error("claim xts ns_per_op 3 %\n", "ci/thresholds:1: expected 4 fields");
    expect_parse_error("claim xts ns_per_op 0%\n", "ci/thresholds:1: slowdown 0% is out of range");
    expect_parse_error("claim xts ns_per_op 150%\n", "ci/thresholds:1: slowdown 150% is out of range");
    expect_parse_error("claim xts ns_per_op -3%\n", "out of range");
    expect_parse_error("claim xts ns_per_op 3%\n# again\nclaim xts ns_per_op 4%\n",
                       "ci/thresholds:3: a rule for 'claim xts ns_per_op' is already on line 1");
    CHECK(pb_thresholds_load(&t, "/nonexistent/thresholds", &e) < 0 && strstr(e.msg, "cannot read thresholds file"),
          "missing file: %s", e.msg);
    expect_parse_error("claim xts ns_per_opp 3%\n", "ci/thresholds:1: unknown metric 'ns_per_opp' (did you mean ns_per_op?; ");
}

/* --threshold: a percentage with its sign or a bare number of percent, 0 < P <= 100, nothing else */
static void test_threshold_option(void)
{
    static const struct { const char *in; double want; } good[] = {
        {"3%", 0.03}, {"3", 0.03}, {"2.5", 0.025}, {"0.5", 0.005}, {"100", 1}, {"100%", 1}, {".5", 0.005},
    };
    pb_thresholds t;
    pb_err e = {{0}};
    double v;
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        int ok = pb_thresholds_single(&t, good[i].in, &e) == 0 &&
                 pb_thresholds_lookup(&t, "claim", "xts", "ns_per_op", &v, NULL, &e) == 0 && fabs(v - good[i].want) < 1e-12;
        CHECK(ok, "--threshold %s: %s", good[i].in, e.msg);
        char where[64], want[64];
        snprintf(want, sizeof want, "--threshold %s", good[i].in);   /* said as it was given */
        CHECK(!strcmp(pb_thresholds_where(&t, 0, where, sizeof where), want), "where: %s", where);
        pb_thresholds_free(&t);
    }
    const char *bad[] = {"0", "0%", "0.0", "-3", "-3%", "150", "100.5", "3x", "3%%", "3 ", " 3", "1e1", "0x10", "inf",
                         "nan", "", "%", "3.5.1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(pb_thresholds_single(&t, bad[i], &e) < 0 && strstr(e.msg, "want a percentage more than 0% and at most 100%"),
              "--threshold '%s' accepted: %s", bad[i], e.msg);
        pb_thresholds_free(&t);
    }
}

/* the nearest name (base/nearest.h): one edit for a short name, a third of a longer one */
static void test_nearest(void)
{
    const char *names[] = {"xts", "drbg", "sigpool", "synthetic", NULL};
    CHECK(pb_nearest("xtz", names, 5) && !strcmp(pb_nearest("xtz", names, 5), "xts"), "xtz");
    CHECK(pb_nearest("synthetc", names, 5) && !strcmp(pb_nearest("synthetc", names, 5), "synthetic"), "synthetc");
    CHECK(pb_nearest("dbrg", names, 5) && !strcmp(pb_nearest("dbrg", names, 5), "drbg"), "a swap is one edit");
    CHECK(!pb_nearest("zzz", names, 5), "zzz is near none");
    char b[96];
    CHECK(!strcmp(pb_did_you_mean(b, sizeof b, "nwe", "old, new"), "did you mean new?; "), "%s", b);
    CHECK(!strcmp(pb_did_you_mean(b, sizeof b, "olld", "old,new"), "did you mean old?; "), "%s", b);
    CHECK(!strcmp(pb_did_you_mean(b, sizeof b, "zzz", "old new"), ""), "%s", b);
}

static void test_runs(void)
{
    int64_t *ids;
    size_t n;
    pb_err e = {{0}};
    CHECK(pb_parse_run_ids("3,5,7", &ids, &n, &e) == 0 && n == 3 && ids[2] == 7, "ids");
    free(ids);
    const char *bad[] = {"", "3,", ",3", "3,x", "0", "-2", "3;4", "1,,2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(pb_parse_run_ids(bad[i], &ids, &n, &e) < 0 && strstr(e.msg, "bad run id"), "'%s' accepted", bad[i]);

    int64_t a[] = {1, 4, 5}, b[] = {2, 3, 6};
    CHECK(pb_gate_check_alternation(a, b, 3, &e) == 0, "ABBAAB: %s", e.msg);
    int64_t a2[] = {1, 2, 5}, b2[] = {3, 4, 6};
    CHECK(pb_gate_check_alternation(a2, b2, 3, &e) < 0 && strstr(e.msg, "must alternate"), "AABB: %s", e.msg);
    int64_t a3[] = {1, 3}, b3[] = {3, 4};
    CHECK(pb_gate_check_alternation(a3, b3, 2, &e) < 0 && strstr(e.msg, "on both sides"), "dup: %s", e.msg);

    pb_run_meta m[2];
    memset(m, 0, sizeof m);
    for (int i = 0; i < 2; i++) {
        m[i].id = i + 1;
        strcpy(m[i].suite, "xts");
        strcpy(m[i].status, "complete");
        strcpy(m[i].machine_id, "3d1219c7c4c5404aaa1f6d2a48adfda4");
        strcpy(m[i].job_id, "ci-42/gate-1");
        strcpy(m[i].options, "rounds=3");
    }
    CHECK(pb_gate_check_runs(m, 2, &e) == 0, "same machine and job: %s", e.msg);
    strcpy(m[1].machine_id, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    CHECK(pb_gate_check_runs(m, 2, &e) < 0 && strstr(e.msg, "across machines are refused"), "machine: %s", e.msg);
    strcpy(m[1].machine_id, m[0].machine_id);
    strcpy(m[1].job_id, "ci-43/gate-1");
    CHECK(pb_gate_check_runs(m, 2, &e) < 0 && strstr(e.msg, "across jobs are refused"), "job: %s", e.msg);
    m[1].job_id[0] = 0;
    CHECK(pb_gate_check_runs(m, 2, &e) < 0 && strstr(e.msg, "run 2 has no job id"), "no job: %s", e.msg);
    strcpy(m[1].job_id, m[0].job_id);
    strcpy(m[1].status, "incomplete");
    CHECK(pb_gate_check_runs(m, 2, &e) < 0 && strstr(e.msg, "run 2 is incomplete"), "incomplete: %s", e.msg);
    strcpy(m[1].status, "complete");
    strcpy(m[1].options, "rounds=5");
    CHECK(pb_gate_check_runs(m, 2, &e) < 0 && strstr(e.msg, "not the same procedure"), "options: %s", e.msg);
}

/* a run's case with `rounds` samples of cost `base` (x 1.01 in odd rounds) */
static void add_case(pb_gate_data *d, int64_t run, const char *impl, uint64_t size, int rounds, double base)
{
    d->c = realloc(d->c, (d->n + 1) * sizeof *d->c);
    pb_gate_case *c = &d->c[d->n++];
    memset(c, 0, sizeof *c);
    c->run = run;
    snprintf(c->impl, sizeof c->impl, "%s", impl);
    snprintf(c->variant, sizeof c->variant, "256");
    snprintf(c->op, sizeof c->op, "enc");
    c->size = size;
    c->ok = 1;
    c->obs = calloc((size_t)rounds, sizeof *c->obs);
    c->n = (size_t)rounds;
    for (int r = 0; r < rounds; r++)
        c->obs[r] = (pb_gate_obs){.round = r, .rep = 0, .position = r % 2, .cost = base * (r % 2 ? 1.01 : 1)};
}

static const char *const fake_pairs[] = {"x", "old", NULL};
static const char *const *fake_ratio_pairs(const void *opts) { return opts ? fake_pairs : NULL; }

/* The gate's wrapped suite hands its hooks the wrap, not the suite's options: a hook that reads
 * the suite's options (drbg's ratio_pairs read a gate_wrap as drbg_opts and gave finalize a wild
 * pointer) must not reach the run through it. */
/* a suite's cell hook: what it was called with */
static const void *hook_opts;
static char hook_impls[256];
static int fake_cell_begin(void *opts, const pb_cell *cell, pb_err *e)
{
    (void)e;
    hook_opts = opts;
    hook_impls[0] = 0;
    for (int i = 0; i < cell->nimpls; i++)
        snprintf(hook_impls + strlen(hook_impls), sizeof hook_impls - strlen(hook_impls), "%s%s", i ? " " : "",
                 cell->impls[i]);
    return 0;
}

static void test_wrap_hooks(void)
{
    pb_suite s;
    memset(&s, 0, sizeof s);
    s.name = "fake";
    s.baseline = "old";
    s.candidate = "new";
    s.ratio_pairs = fake_ratio_pairs;
    int opts = 0;
    gate_wrap W;
    pb_pair_claim(&W, &s, &opts, "old", "new", 0);
    pb_suite wrapped;
    pb_pair_suite(&W, &wrapped);
    CHECK(wrapped.ratio_pairs == NULL, "the wrap keeps the suite's ratio_pairs");
    CHECK(pb_suite_ratio_pairs(&wrapped, &W) == NULL, "ratio pairs through the wrap");
    CHECK(wrapped.roles == NULL && wrapped.cell_begin == NULL && wrapped.cell_end == NULL && wrapped.cpu_split == NULL,
          "option-taking hooks through the wrap of a suite without them");
    /* a suite with cell hooks (exec --setup): the wrap calls them on the suite's own options, with the
     * cell's real impl names, each once */
    s.cell_begin = fake_cell_begin;
    pb_err e = {{0}};
    pb_cell cell;
    memset(&cell, 0, sizeof cell);
    cell.nimpls = 2;
    for (int aa = 0; aa < 2; aa++) {
        pb_pair_claim(&W, &s, &opts, "old", "new", aa);
        pb_pair_suite(&W, &wrapped);
        CHECK(wrapped.cell_begin != NULL && wrapped.cell_end != NULL && wrapped.roles == NULL,
              "cell hooks through the wrap (aa %d)", aa);
        snprintf(cell.impls[0], PB_NAME_MAX, "%s", W.pairs[0].a);
        snprintf(cell.impls[1], PB_NAME_MAX, "%s", W.pairs[0].b);
        hook_opts = NULL;
        CHECK(wrapped.cell_begin && wrapped.cell_begin(&W, &cell, &e) == 0 && hook_opts == &opts,
              "cell_begin got the suite's options (aa %d)", aa);
        CHECK(!strcmp(hook_impls, aa ? "old" : "old new"), "cell_begin's impls '%s' (aa %d)", hook_impls, aa);
        CHECK(wrapped.cell_end && wrapped.cell_end(&W, &cell, &e) == 0, "a missing cell_end is no call (aa %d)", aa);
    }
}

static void test_pairing(void)
{
    pb_gate_params gp = PB_GATE_DEFAULTS;
    pb_err e = {{0}};
    static const char *impls[] = {"old", "new", "gcrypt"};
    /* within runs: run 1 has 40 cells, its rerun (run 2) two of them with 30 rounds: pairs pool */
    pb_gate_data d = {0};
    for (uint64_t s = 1; s <= 40; s++)
        for (int i = 0; i < 2; i++) add_case(&d, 1, impls[i], 16 * s, 15, i ? 110 : 100);
    for (uint64_t s = 1; s <= 2; s++)
        for (int i = 0; i < 2; i++) add_case(&d, 2, impls[i], 16 * s, 30, i ? 110 : 100);
    pb_cmp_cell *cells;
    size_t n;
    CHECK(pb_gate_cells_within(&d, "old", "new", &gp, &cells, &n, &e) == 0 && n == 40, "within: %zu cells", n);
    CHECK(n == 40 && cells[0].n == 45 && cells[2].n == 15, "pooled pairs %zu, %zu", cells[0].n, cells[2].n);
    CHECK(n == 40 && fabs(cells[5].ratio - 1.1) < 1e-9, "ratio %g", cells[5].ratio);
    free(cells);
    pb_gate_data_free(&d);

    /* across runs: 6 alternations of 3 impls x 40 cells; B's gcrypt 20 % slower */
    int64_t ra[6], rb[6];
    for (int k = 0; k < 6; k++) {
        ra[k] = 2 * k + (k % 2 ? 2 : 1);
        rb[k] = 2 * k + (k % 2 ? 1 : 2);
        for (int i = 0; i < 3; i++)
            for (uint64_t s = 1; s <= 40; s++) {
                add_case(&d, ra[k], impls[i], 16 * s, 3, 100);
                add_case(&d, rb[k], impls[i], 16 * s, 3, i == 2 ? 120 : 100);
            }
    }
    CHECK(pb_gate_check_alternation(ra, rb, 6, &e) == 0, "alternation: %s", e.msg);
    CHECK(pb_gate_cells_across(&d, ra, rb, 6, NULL, &gp, &cells, &n, &e) == 0 && n == 120, "across: %zu cells", n);
    CHECK(n == 120 && !strcmp(cells[80].impl_a, "gcrypt") && !strcmp(cells[80].impl_b, "gcrypt") && cells[80].n == 6 &&
              fabs(cells[80].ratio - 1.2) < 1e-9 && fabs(cells[0].ratio - 1) < 1e-9,
          "across: %s n %zu ratio %g", cells[80].impl_a, cells[80].n, cells[80].ratio);
    free(cells);
    CHECK(pb_gate_cells_across(&d, ra, rb, 1, "new", &gp, &cells, &n, &e) == 0 && n == 40 &&
              cells[0].verdict == PB_CELL_UNTESTED, "one run each: %zu cells, %s", n, pb_cell_verdict_name(cells[0].verdict));
    free(cells);
    CHECK(pb_gate_cells_across(&d, ra, rb, 6, "nosuch", &gp, &cells, &n, &e) < 0 && strstr(e.msg, "no implementation nosuch"),
          "unknown impl: %s", e.msg);
    pb_gate_data_free(&d);
}

int main(void)
{
    test_holm();
    test_verdicts();
    test_confirm();
    test_cell_stats();
    test_thresholds();
    test_threshold_option();
    test_nearest();
    test_runs();
    test_pairing();
    test_wrap_hooks();
    test_simulated_gates();
    return check_summary();
}
