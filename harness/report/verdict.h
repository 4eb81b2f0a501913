/* SPDX-License-Identifier: GPL-2.0-only */
/* verdict.h — what a measured ratio says about a document's claim: the verdicts, their counts over
 * a table and the summary line, and the settings they use (data/verdict.tsv). The renderers
 * (report_md.c, report_html.c, the per-machine report) and `bench run`'s closing line share it. */
#ifndef PB_VERDICT_H
#define PB_VERDICT_H

#include <stddef.h>

#include "pb.h"
#include "suite.h"

/* A faster claim that does not even show this gain does not hold (a CI wholly above 1 - this). */
#define PB_VERDICT_MIN_GAIN 0.01

/* How many cells of a table got each verdict (the summary line). */
typedef struct pb_verdict_counts {
    int cells;
    int holds, size_differs, does_not_hold, inconclusive, no_claim, no_data;
    int codegen; /* cells marked "depends on code generation" */
    int layout;  /* cells marked "depends on code layout" */
    int shared;  /* cells marked "core shared": their ratio took pairs from a shared core */
    int real;    /* the table set the real code's ratio beside the re-implementation's (suite.h real_*) */
    int real_differs; /* cells marked "differs from the real code" */
} pb_verdict_counts;

/* "N cell(s): claim holds a; direction holds, size differs b; claim does not hold c;
 * inconclusive here d[; no claim e][; no data f]; depends on code generation g; depends on code layout h
 * [; core shared s][; differs from the real code r]" (core shared only where a cell is, the last only
 * where the table compares with the real code) */
void pb_verdict_summary(const pb_verdict_counts *c, char *buf, size_t len);

/* The verdict settings, from <data_dir>/verdict.tsv (lines `setting<TAB>suite<TAB>value`,
 * suite `*` = the default, a suite's own line overrides it):
 *   tolerance          t: the document's time ratio d is matched by any CI that overlaps
 *                      [d/(1+t), d*(1+t)] (multiplicative, symmetric in log space);
 *                      an "equal" claim holds when the CI lies within [1/(1+t), 1+t];
 *   codegen_threshold  c: a cell "depends on code generation" when |r_P/r - 1| > c,
 *                      r the faithful time ratio, r_P that of the same sources built with profile P;
 *   real_code_threshold  a cell "differs from the real code" when the re-implementation's time
 *                      ratio and the real code's are apart by more than this fraction beyond both
 *                      CIs (pb_verdict_apart; docs/verdicts.md).
 * A missing file leaves the built-in defaults (0.10 each) and says so in `source`.
 * Returns 0, or -1 with "FILE:LINE: what" in e on a malformed line. */
typedef struct pb_verdict_cfg {
    double tolerance, codegen_threshold, real_code_threshold;
    char source[1100]; /* where the figures came from, for the report header */
} pb_verdict_cfg;
int pb_verdict_cfg_load(const char *data_dir, const char *suite, pb_verdict_cfg *cfg, pb_err *e);

/* Verdict of a claim from the 95 % CI [lo, hi] of the measured candidate/baseline
 * *time* ratio, the document's time ratio doc (NaN: the document gives no number,
 * the claim is judged on its direction only) and the tolerance t of pb_verdict_cfg:
 *   faster      "claim holds" when hi < 1 and the CI overlaps [doc/(1+t), doc*(1+t)]
 *               (any hi < 1 without a doc number); "direction holds, size differs"
 *               when hi < 1 and it does not overlap; "claim does not hold" when
 *               lo > 0.99 (not even a 1 % gain) or, with a doc number, lo > doc*(1+t)
 *               (no gain shown and every gain the band allows ruled out); else
 *               "inconclusive here".
 *   not slower  "claim holds" when hi <= 1+t and the CI overlaps doc's band (any
 *               hi <= 1+t without a number); "direction holds, size differs" when
 *               hi <= 1+t outside the band; "claim does not hold" when lo > 1+t.
 *   equal       "claim holds" when [lo, hi] lies within [1/(1+t), 1+t]; "claim does
 *               not hold" when it lies wholly outside; the size of "equal" is 1, so
 *               the document's own (noise) ratio is not used.
 *   none        "no claim".
 * A NaN or inverted CI, or a NaN/non-positive tolerance, is "inconclusive here". */
const char *pb_verdict(pb_claim c, double doc, double t, double lo, double hi);
/* The verdict of a stored ratio over n pairs, shared of which had a sample on a shared core: as
 * pb_verdict, but "inconclusive here" where most of them did (2 shared > n). Such a cell kept every
 * round because too few ran on the core alone (docs/layout.md, "A shared core"), and its ratio is
 * then the shared core's (docs/verdicts.md). Every report uses it for every verdict it draws from a
 * stored ratio. */
const char *pb_verdict_of_pairs(pb_claim c, double doc, double t, double lo, double hi, int n, int shared);
/* Did most of a ratio's n pairs (more than half) have a sample on a shared core? */
int pb_verdict_shared_most(int n, int shared);
/* "faster", "equal", "not slower", or "-" (no claim): the report's claim column. */
const char *pb_claim_name(pb_claim c);

/* Do a cell's per-layout time ratios, lo the smallest and hi the largest (docs/layout.md), straddle
 * a boundary of claim c's verdicts (pb_verdict with the same doc and t)? Then the verdict would be
 * another in another code layout: the cell "depends on code layout". 0 for NaN or lo == hi. */
int pb_verdict_straddles(pb_claim c, double doc, double t, double lo, double hi);

/* How near a boundary of claim c's verdicts is a cell's CI [lo, hi] about its estimate est: the
 * smallest w at which a boundary lies inside the CI widened to w times its width about est on the
 * log scale (est (lo/est)^w to est (hi/est)^w; pb_verdict_straddles), up to PB_VERDICT_NEAR_WIDTH;
 * INFINITY when none is inside even then, or for NaN, non-positive or inverted figures. w <= 1: a
 * boundary inside the CI itself. A rerun's estimate differs from this one by about sqrt(2)
 * standard errors, so a CI edge within one half-width of a boundary (w <= 2) can cross it (about
 * one rerun in twelve at w = 2, more nearer). bench run gives the nearest cells boundary rounds
 * (runner.h). */
#define PB_VERDICT_NEAR_WIDTH 2.0
double pb_verdict_nearness(pb_claim c, double doc, double t, double est, double lo, double hi);

/* Are two time ratios apart by more than a factor 1+c beyond both of their 95 % CIs: [alo, ahi]
 * wholly above [blo, bhi]·(1+c), or wholly below [blo, bhi]/(1+c)? A touch is not apart. The
 * re-implementation's ratio against the real code's (b), or kmod-new/kmod-real against 1 (blo =
 * bhi = 1): "differs from the real code". 0 for a NaN, non-positive or inverted CI and a c that is
 * not positive. */
int pb_verdict_apart(double alo, double ahi, double blo, double bhi, double c);

/* Counts verdict v (a string pb_verdict returned, or pb_verdict_no_data) into n. */
void pb_verdict_count(pb_verdict_counts *n, const char *v);
/* The verdict of a cell without data, and the marks of a cell that depends on code generation, on
 * code layout, and whose ratio differs from the real code's. */
/* How the HTML report shows verdict v (a string pb_verdict or pb_verdict_ab returned, or pb_verdict_no_data): its
 * CSS class (the colour) and a text marker before its words, so that it never rests on colour alone. */
typedef struct pb_verdict_look {
    const char *css_class, *marker;
} pb_verdict_look;
pb_verdict_look pb_verdict_look_of(const char *v);

/* A user's A/B (a cell without a claim: no document, no claim of the suite's; docs/verdicts.md): from
 * the 95 % CI [lo, hi] of the time ratio candidate/baseline, "faster" when hi < 1, "slower" when
 * lo > 1, else "no detectable change" (the CI holds 1: no tolerance band, the user has no claim to
 * give one; an unbounded CI, [0, inf] from too few pairs, too). NULL for a NaN, negative or inverted CI. */
const char *pb_verdict_ab(double lo, double hi);
/* Its words with the size: "faster by 32 % [30 %, 34 %]", "slower by 5.1 % [2.0 %, 8.3 %]" (the time
 * saved or added, 1 - est or est - 1, and the CI's in the same terms), "no detectable change [-3.0 %,
 * +2.1 %]" (the time's change lo - 1 .. hi - 1), "no detectable change [unbounded: too few rounds]";
 * "no data" for a CI pb_verdict_ab refuses. buf. */
char *pb_verdict_ab_words(double est, double lo, double hi, char *buf, size_t len);

extern const char *const pb_verdict_no_data, *const pb_codegen_mark, *const pb_layout_mark, *const pb_real_mark,
    *const pb_shared_mark, *const pb_verdict_no_claim, *const pb_verdict_inconclusive, *const pb_verdict_holds,
    *const pb_verdict_not;

#endif
