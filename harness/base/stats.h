/* SPDX-License-Identifier: GPL-2.0-only */
/* stats.h — the statistics the runner, report and gate share.
 *
 * Samples on a shared VM are skewed (a host may flip the vCPU between two
 * speeds) and paired by round (the impls of one cell run interleaved), so
 * ratios are estimated on paired log ratios with distribution-free methods:
 * Hodges–Lehmann estimate and the Wilcoxon signed-rank confidence interval
 * and test. Quantiles are R's type 7 (linear interpolation). */
#ifndef PB_STATS_H
#define PB_STATS_H

#include <stddef.h>

/* Sorts a copy; returns NaN for n == 0. */
double pb_quantile(const double *x, size_t n, double q);
double pb_median(const double *x, size_t n);

typedef struct pb_paired {
    size_t n;          /* pairs used */
    double estimate;   /* Hodges–Lehmann estimate of the ratio (exp of HL on log ratios) */
    double ci_lo, ci_hi; /* Wilcoxon signed-rank CI for the ratio at `conf` */
    double conf;       /* achieved coverage (exact distributions give slightly more than asked) */
    double p_value;    /* two-sided Wilcoxon signed-rank test of ratio == 1 */
    double median_ratio; /* plain median of the per-pair ratios, for reference */
} pb_paired;

/* Ratio candidate/baseline from pairs (cand[i], base[i]), both > 0. conf e.g. 0.95.
 * Returns -1 when fewer than 2 valid pairs. */
int pb_paired_ratio(const double *cand, const double *base, size_t n, double conf, pb_paired *out);
/* (Both return 0, -1 for fewer than 2 usable pairs, -2 when out of memory: never a
 * different answer. pb_quantile/pb_median/pb_signed_rank_p give NaN when out of memory.) */

/* One-sample versions on values d[i] (e.g. log ratios): HL estimate and CI for the
 * centre of symmetry, and the two-sided signed-rank p-value for centre == 0. */
int pb_hl_ci(const double *d, size_t n, double conf, double *est, double *lo, double *hi, double *achieved);
double pb_signed_rank_p(const double *d, size_t n);

/* Inverse standard normal CDF (Acklam's rational approximation, |err| < 1.2e-9). */
double pb_norm_quantile(double p);
double pb_norm_cdf(double z);

/* ---- pairing by (round, repetition): the one place it is written ----
 * A sample's key: its round and its repetition (Google Benchmark's --benchmark_repetitions),
 * two ints side by side in the caller's sample struct. Samples of two cases of one cell are a
 * pair when their keys are equal: both ran within the same round, milliseconds apart. */
typedef struct pb_round_key {
    int round, rep;
} pb_round_key;

/* a: the key of the first of na samples, stride bytes apart (sorted by round, then rep);
 * likewise b. Calls on_pair(ctx, i, j) for sample i of a and j of b with equal keys, in key
 * order; returns 0, or the first non-zero result of on_pair (which stops the walk). */
int pb_pair_by_round(const pb_round_key *a, size_t na, size_t stride_a, const pb_round_key *b, size_t nb,
                     size_t stride_b, int (*on_pair)(void *ctx, size_t i, size_t j), void *ctx);

#endif
