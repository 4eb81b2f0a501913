/* SPDX-License-Identifier: GPL-2.0-only */
/* The callgrind output parser (a checked-in dump and malformed texts, every error as FILE:LINE),
 * the cycle model, per-op figures, and the deterministic and two-metric verdicts. No valgrind
 * needed, no timing. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "callgrind_parse.h"
#include "gate_det.h"
#include "valgrind.h"
#include "../lib/check.h"

#define HEAD "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\n"
#define EVENTS "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim\n"

static void expect_error(const char *text, const char *want, const char *why)
{
    pb_cg_counts c;
    pb_err e = {{0}};
    int rc = pb_cg_parse_text("t.out", text, &c, &e);
    CHECK(rc == -1 && strstr(e.msg, want), "%s: want an error with '%s', got rc %d '%s'", why, want, rc, e.msg);
}

static void parser(const char *fixtures)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/callgrind.out.synthetic", fixtures);
    pb_cg_counts c;
    pb_err e = {{0}};
    CHECK(pb_cg_parse_file(path, &c, &e) == 0, "the checked-in dump parses: %s", e.msg);
    CHECK(!strcmp(c.trigger, "Client Request: pbcase 2"), "trigger '%s'", c.trigger);
    CHECK(c.nevents == 13 && !strcmp(c.event[0], "Ir") && !strcmp(c.event[12], "Bim"), "13 events, Ir..Bim");
    uint64_t v = 0;
    CHECK(pb_cg_event(&c, "Ir", &v) == 0 && v == 200274, "Ir 200274, got %llu", (unsigned long long)v);
    /* totals (the sum of the cost lines) wins over summary, which says D1mw 0 in this dump */
    CHECK(pb_cg_event(&c, "D1mw", &v) == 0 && v == 2, "D1mw from totals: 2, got %llu", (unsigned long long)v);
    CHECK(pb_cg_event(&c, "Bcm", &v) == 0 && v == 70, "Bcm 70");
    CHECK(pb_cg_event(&c, "Ge", &v) == -1, "an event the file has not: -1");

    /* trailing zeros left out of totals */
    CHECK(pb_cg_parse_text("t.out", HEAD EVENTS "totals: 11 0 6\n", &c, &e) == 0 && c.total[0] == 11 &&
              c.total[2] == 6 && c.total[12] == 0, "short totals: trailing events are 0 (%s)", e.msg);
    /* summary alone (no totals) is used */
    CHECK(pb_cg_parse_text("t.out", HEAD EVENTS "summary: 5 4\n", &c, &e) == 0 && c.total[1] == 4, "summary alone");
    /* body lines are not read; CRLF is tolerated */
    CHECK(pb_cg_parse_text("t.out", "# callgrind format\r\nversion: 1\r\ncreator: callgrind-3.19.0\r\n" EVENTS
                           "fn=(1) x\n0 1 2 junk\ntotals: 7\r\n", &c, &e) == 0 && c.total[0] == 7,
          "CRLF and body lines (%s)", e.msg);

    expect_error("version: 1\n", "t.out: no 'creator:'", "no creator");
    expect_error("hello\n", "t.out:1: not a callgrind output file", "not callgrind");
    expect_error(HEAD "totals: 1 2\n" EVENTS, "t.out:4: 'totals:' before 'events:'", "totals first");
    expect_error(HEAD EVENTS "totals: 1 2 3 4 5 6 7 8 9 10 11 12 13 14\n", "t.out:5: totals: more numbers",
                 "too many numbers");
    expect_error(HEAD EVENTS "totals: 1 2x\n", "t.out:5: totals: bad count", "a bad number");
    expect_error(HEAD EVENTS "totals: 1 -2\n", "t.out:5: totals: '-2' is not an unsigned count", "a negative count");
    expect_error(HEAD EVENTS "totals: 99999999999999999999999\n", "t.out:5: totals: bad count", "overflow");
    expect_error(HEAD EVENTS "totals:\n", "t.out:5: totals: no numbers", "empty totals");
    expect_error(HEAD EVENTS "totals: 1\ntotals: 2\n", "t.out:6: a second 'totals:'", "two totals");
    expect_error(HEAD "events: Ir Ir\n", "t.out:4: event 'Ir' named twice", "duplicate event");
    expect_error(HEAD "events: Ir D-r\n", "t.out:4: bad event name 'D-r'", "bad event name");
    expect_error(HEAD "events:\n", "t.out:4: 'events:' names no event", "no event");
    expect_error(HEAD EVENTS EVENTS, "t.out:5: a second 'events:'", "two events lines");
    expect_error(HEAD EVENTS, "neither 'totals:' nor 'summary:'", "a truncated dump");
    expect_error("# callgrind format\nversion: 2\n", "t.out:2: callgrind format version '2'", "version 2");
    expect_error("# callgrind format\nversion: 1\ncreator: cachegrind\n", "t.out:3: written by 'cachegrind'",
                 "another tool");
    CHECK(pb_cg_parse_file("/nonexistent/cg.out", &c, &e) == -1 && strstr(e.msg, "/nonexistent/cg.out"),
          "a missing file is named: %s", e.msg);
}

static void figures(void)
{
    pb_vg_counts k = {.ir = 100, .dr = 20, .dw = 10, .i1mr = 2, .d1mr = 3, .d1mw = 1, .ilmr = 1, .dlmr = 1,
                      .dlmw = 0, .bc = 9, .bcm = 2, .bi = 3, .bim = 1};
    /* accesses 130, L1 misses 6, LL misses 2: 124 + 5 x 4 + 35 x 2 + 15 x 3 */
    CHECK(pb_vg_model_cycles(&k) == 259, "model cycles 259, got %g", pb_vg_model_cycles(&k));
    pb_vg_case c = {.size = 50, .iters = 10, .ok = 1, .reps = 2};
    c.rep[0] = k;
    c.rep[1] = k;
    pb_vg_metrics m;
    pb_vg_metrics_of(&c, 0, &m);
    CHECK(m.insns_per_op == 10 && m.insns_per_byte == 0.2 && m.l1_miss_per_op == 0.6 && m.ll_miss_per_op == 0.2 &&
              m.branch_miss_per_op == 0.3 && m.model_cycles_per_op == 25.9,
          "per-op figures");
    CHECK(pb_vg_metric_value(&m, "insns_per_op") == 10 && isnan(pb_vg_metric_value(&m, "ns_per_op")), "by name");
    CHECK(pb_vg_spread(&c) == 0, "equal repetitions: spread 0");
    c.rep[1].ir = 101;
    CHECK(fabs(pb_vg_spread(&c) - 0.01) < 1e-12, "spread 1 %%");
    CHECK(pb_vg_metric_known("model_cycles_per_op") && !pb_vg_metric_known("ns_per_op"), "count metric names");
}

static void verdicts(void)
{
    const double t = 0.01;
    CHECK(pb_det_verdict(1.02, 1.02, t) == PB_CELL_REGRESSION, "+2 %% over a 1 %% threshold");
    CHECK(pb_det_verdict(1.0, 1.0, t) == PB_CELL_PASS, "no change");
    CHECK(pb_det_verdict(1.0099, 1.0099, t) == PB_CELL_PASS, "just under the threshold");
    CHECK(pb_det_verdict(1.0101, 1.0101, t) == PB_CELL_REGRESSION, "just over the threshold");
    CHECK(pb_det_verdict(0.8, 0.8, t) == PB_CELL_PASS, "faster");
    CHECK(pb_det_verdict(1.019, 1.021, t) == PB_CELL_REGRESSION, "differing repetitions, all beyond the threshold");
    CHECK(pb_det_verdict(0.999, 1.001, t) == PB_CELL_PASS, "differing repetitions, all within it");
    CHECK(pb_det_verdict(1.009, 1.011, t) == PB_CELL_INCONCLUSIVE, "repetitions straddle the threshold");
    CHECK(pb_det_verdict(NAN, 1.0, t) == PB_CELL_NODATA, "no ratio");
    CHECK(pb_det_verdict(0, 0, t) == PB_CELL_NODATA, "zero ratio");
    CHECK(pb_det_verdict(1.1, 1.0, t) == PB_CELL_NODATA, "an inverted range is refused");

    pb_vg_case c = {.iters = 1, .size = 1, .ok = 1, .reps = 3};
    c.rep[0].ir = 30, c.rep[1].ir = 10, c.rep[2].ir = 20;
    double lo, med, hi;
    pb_vg_range(&c, "insns_per_op", &lo, &med, &hi);
    CHECK(lo == 10 && med == 20 && hi == 30, "range over repetitions: %g %g %g", lo, med, hi);
    c.reps = 2;
    pb_vg_range(&c, "insns_per_op", &lo, &med, &hi);
    CHECK(lo == 10 && med == 20 && hi == 30, "two repetitions: median is their mean");
    CHECK(strstr(pb_two_metric_note(1.0, t, 1.05, 1.03, 1.07), "time slower, instructions not"), "time moved alone");
    CHECK(strstr(pb_two_metric_note(1.002, t, 0.95, 0.93, 0.97), "time faster, instructions not"), "time faster alone");
    CHECK(strstr(pb_two_metric_note(1.02, t, 1.0, 0.98, 1.02), "instructions moved, time did not"), "counts alone");
    CHECK(strstr(pb_two_metric_note(1.02, t, 1.02, 1.01, 1.03), "both slower"), "both slower");
    CHECK(strstr(pb_two_metric_note(0.9, t, 0.9, 0.88, 0.92), "both faster: less work"), "both faster");
    CHECK(strstr(pb_two_metric_note(0.978, t, 0.71, 0.64, 0.72), "time far more than instructions"),
          "time moved far more than the work (xts 32 KiB: counts 0.978, time 0.71)");
    CHECK(strstr(pb_two_metric_note(0.9, t, 1.1, 1.05, 1.15), "opposite"), "opposite directions");
    CHECK(strstr(pb_two_metric_note(1.0, t, 1.0, 0.97, 1.03), "neither"), "neither");
    CHECK(strstr(pb_two_metric_note(NAN, t, 1.0, 0.97, 1.03), "missing"), "a side missing");
}

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: test_callgrind FIXTURES_DIR\n"); return 2; }
    parser(argv[1]);
    figures();
    verdicts();
    return check_summary();
}
