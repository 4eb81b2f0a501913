/* SPDX-License-Identifier: GPL-2.0-only */
/* layout_stats.h — a ratio estimated across code layouts (docs/layout.md).
 *
 * A binary is one sample of the space of code layouts, however often it runs (Curtsinger and
 * Berger, Stabilizer, ASPLOS 2013). The runner runs every round in one of L layouts, balanced, and
 * both sides of a pair in the same layout. Model, on log ratios d of the pairs of layout l:
 *     d = mu + u_l + e,   u_l ~ (0, s_u^2) the layout's effect (both sides' placement), e the noise
 * of one pair. Each layout's own ratio q_l is the Hodges-Lehmann estimate of its pairs' d; the
 * headline is the mean of the q_l over layouts, and its CI a Student t interval on the L values
 * with L - 1 degrees of freedom. Why this and not a bootstrap: with the design balanced, the mean
 * of layout means is the random-effects (ANOVA/REML) estimate of mu, and the variance of the q_l
 * estimates s_u^2 + s_e^2/n_l without a model for either part, so the t interval is exact under
 * normal layout effects; a cluster bootstrap over 8 clusters under-covers (its variance is short
 * by (L-1)/L and its percentiles are coarse). The per-layout q_l are kept: their range is what a
 * verdict or a report shows as "depends on code layout".
 *
 * Stratified layouts (harness/meson.build, suite/layout_script.py): layout l is order l / S, stratum
 * l % S (S = PB_LAYOUT_SHIFTS), and within each order every function starts once in each 16-byte
 * quarter of its 64-byte line. The orders are the independent draws, the strata within each:
 * with strata S, and at least 3 orders whose S layouts all count, the headline is the same mean
 * of the q_l, and its CI a t interval over the orders' means (orders - 1 df):
 *     q_l = mu + a_k + b_r + (ab)_kr + e,   k = l / S, r = l % S,
 * the mean over each order's S layouts takes each function's quarter effects out exactly, so that
 * they neither widen the CI nor, drawn unevenly, move the estimate. Otherwise (too few orders, a layout
 * without pairs, strata 0) the layouts are treated as independent draws, as above.
 *
 * Which to use. One implementation against itself (an A/A gate, a commit gate's two builds of an
 * impl): over the orders. Between two implementations in a run (finalize.c: new/old and every other
 * ratio), two crossed random factors, the order and the time block (the rounds' block of the
 * layouts' permutation: a pass runs every layout once, so a block is a window of the run):
 *     var(mean) = var(orders' means)/orders + var(blocks' means of d - log q_l)/blocks,
 * Welch-Satterthwaite's df, pair noise counted in both parts; then moderated over the run's cells of
 * the comparison (pb_moderate_prior: their variances on 3-6 df each are fitted a common prior). Why:
 * whatever else moves a cell's rounds (a neighbour, the host, in the seconds of a pass) moves two
 * codes differently and is not placement; the blocks measure it. Over six placement seeds, two runs
 * each (docs/measurements/layout-estimate.md), the headline's spread was 0.006-0.011 (log) at 4-32
 * KiB: this CI's standard error 0.008, the layouts as draws' 0.018 (the stratified design's mean is
 * far steadier than 16 independent draws), the orders' alone 0.007 before the time part. Where the
 * layouts are not stratified, or a run has one block (--quick), the layouts count as draws (which
 * take the time part in); the claim gate keeps the layouts as draws. */
#ifndef PB_LAYOUT_STATS_H
#define PB_LAYOUT_STATS_H

#include <stddef.h>

#include "stats.h"

#define PB_STATS_MAX_LAYOUTS 16
/* a layout counts when it has at least this many pairs: one will do (its ratio is that pair's), since
 * 16 layouts and --quick's 16 rounds give one pair each, and the t over layouts needs none within */
#define PB_LAYOUT_MIN_PAIRS 1
/* the strata of one order (suite/layout_script.py: within an order each function visits the four
 * 16-byte quarters of its line, one per stratum l % 4) */
#define PB_LAYOUT_SHIFTS 4
/* at least this many complete orders for the CI over orders */
#define PB_LAYOUT_MIN_ORDERS 3

typedef struct pb_layout_ratio {
    int nlayouts;                                /* layouts that count (>= 2: estimated across them) */
    double per_layout[PB_STATS_MAX_LAYOUTS];     /* each layout's ratio (exp HL); NaN: too few pairs */
    size_t n_per_layout[PB_STATS_MAX_LAYOUTS];   /* pairs per layout */
    double lo, hi;                               /* the smallest and largest per-layout ratio */
    double estimate, ci_lo, ci_hi;               /* exp(mean of log q_l), its t CI at conf */
    double p_value;                              /* two-sided t test of mean log q_l == 0 */
    double se_log;                               /* standard error of the mean log ratio */
    int units;                                   /* what the CI is over: nlayouts, or the orders */
    double df;                                   /* its degrees of freedom: units - 1 */
    int stratified;                              /* 1: over the orders' means (strata > 0 and enough) */
    int blocks;                                  /* two-way: the time blocks in the CI (0: none) */
    double se_order, se_time;                    /* two-way: se_log's two parts (NaN otherwise) */
    int moderated;                               /* cells whose variances were pooled (0: not) */
} pb_layout_ratio;

/* The strata of this build's layouts: PB_LAYOUT_SHIFTS where lld gave each order its own function
 * order (PB_LAYOUT_SHUFFLE), else 0 (one order: its copies are not independent draws). */
int pb_layout_strata(void);

/* From n pairs' log ratios d[i], each in layout[i] (0 <= layout < PB_STATS_MAX_LAYOUTS), the
 * layouts stratified by strata shifts per order (0: independent). block (NULL: none) gives each pair
 * its time block (the round's block of the layouts' permutation, run/layouts.c: every layout once): where
 * the layouts are stratified and at least 2 blocks hold pairs of half the layouts, the CI is the
 * two-way one over the orders and the blocks (above). Returns 0 with out filled when at least 2
 * layouts count; 1 when fewer (out->nlayouts says how many: estimate from the pairs as one layout);
 * -2 when out of memory. */
int pb_layout_ratio_of(const double *d, const int *layout, const int *block, size_t n, double conf, int strata,
                       pb_layout_ratio *out);

/* Smyth's empirical-Bayes prior for k variances v[i] on df[i] degrees of freedom (limma's fitFDist, by
 * moments of log v): *d0 its degrees of freedom (capped at 1e6: a normal), *s0 its variance. Returns 0,
 * or 1 when k < 5 (too few to fit one: each keeps its own) or a v is not positive and finite. */
int pb_moderate_prior(const double *v, const double *df, size_t k, double *d0, double *s0);

/* Moderates a two-way lr (its CI across layouts) with the prior (d0, s0) of its comparison's cells
 * (pb_moderate_prior over their se_log^2): se_log^2 becomes (d0 s0 + df se_log^2)/(d0 + df) on
 * d0 + df degrees of freedom, the CI and p-value recomputed around the same estimate; cells says over
 * how many cells (lr->moderated). */
void pb_layout_moderate(pb_layout_ratio *lr, double d0, double s0, int cells, double conf);

/* The headline over the shifts' strata: the mean over the strata r (0 .. strata - 1) of the mean log
 * ratio of their layouts (l % strata == r) that count, the CI's half-width and degrees of freedom
 * kept. In a complete design (every layout counts) it is the layouts' mean, unchanged; where a layout
 * has no pairs (finalize.c: every round of it ran on a shared core) its stratum's other orders stand
 * for it, so that the missing layout's shift does not move the mean (docs/layout.md, "A shared core").
 * 1 when recentred, 0 when left alone (strata <= 1, too few layouts). */
int pb_layout_poststratify(pb_layout_ratio *lr, int strata, double conf);

/* One sample of a case with its layout, as a cell's ratio across layouts reads it. */
typedef struct pb_keyed_layout {
    pb_round_key key;
    double value;
    int layout;
} pb_keyed_layout;
/* Candidate samples c against baseline samples b (two implementations: a run's ratios), each sorted
 * by key, paired by round: the paired ratio over all pairs in *pr (pb_paired_ratio), and across
 * layouts in *lr (pb_layout_ratio_of, two-way over the orders and the time blocks where the build's
 * layouts are stratified, the rounds' blocks being layouts rounds long (<= 0: the largest layout of
 * the pairs + 1); when that returns 0 the caller reports lr's estimate and CI: pb_cell_ratio_of,
 * cell_ratio.h, composes the headline so). Returns what pb_paired_ratio does, or -2 when out of
 * memory. */
int pb_paired_ratio_by_layout(const pb_keyed_layout *c, size_t nc, const pb_keyed_layout *b, size_t nb, int layouts,
                              double conf, pb_paired *pr, pb_layout_ratio *lr, int *across);

/* What lr's CI is, for a ratio's method: "Student t CI over ..." (cap bytes at most) */
void pb_layout_ci_words(const pb_layout_ratio *lr, char *buf, size_t cap);

/* Student t: the CDF of t with df degrees of freedom, and its quantile (df >= 1). */
double pb_t_cdf(double t, double df);
double pb_t_quantile(double p, double df);

#endif
