/* SPDX-License-Identifier: GPL-2.0-only */
/* changepoint.h — change points in a series of per-run medians: E-divisive means (Matteson & James,
 * "A Nonparametric Approach for Multiple Change Point Analysis of Multivariate Data", JASA 2014),
 * in the form Apache Otava (ex Hunter, MongoDB's CI) uses: the split that maximises the energy
 * statistic q(tau), kept when a permutation test finds it significant, then the same in each part
 * (bisection) until no part holds a significant split. Distances |x_i - x_j| (alpha = 1).
 *
 * Cost: a scan of the splits is O(n log n) (the series sorted once per segment, each point's
 * distances to the points before it from Fenwick trees over the ranks), not O(n^2), so 999
 * permutations stay well under a second at 1,000 runs; a test stops as soon as its count alone
 * makes p >= alpha. Two statistics closer than 1e-9 of the series' scale (the sum of all its
 * distances / n) are equal, whatever the order their sums were added in: the earlier split wins,
 * and a permutation that ties the split counts as at least as good. */
#ifndef PB_CHANGEPOINT_H
#define PB_CHANGEPOINT_H

#include <stddef.h>
#include <stdint.h>

typedef struct pb_cp_opts {
    double alpha;       /* significance level of the permutation test (0.01) */
    int permutations;   /* permutations per test (999: affordable at O(n log n) a scan) */
    int min_size;       /* fewest points on either side of a split (3) */
    uint64_t seed;      /* the permutations' generator: the answer is fixed for a series */
} pb_cp_opts;

typedef struct pb_change {
    size_t index;       /* the first point after the change: x[index-1] -> x[index] */
    double q;           /* the energy statistic of the split */
    double p;           /* permutation p-value: (1 + #{q_perm >= q}) / (1 + permutations) */
    double before, after; /* medians of the segments on either side (within the enclosing segment) */
} pb_change;

/* Change points of x[0..n-1] in ascending index order, at most cap of them into out; returns how
 * many, or -1 when out of memory. A series shorter than 2 * min_size has none. */
int pb_changepoints(const double *x, size_t n, const pb_cp_opts *o, pb_change *out, int cap);

/* The energy statistic of the best split of x[0..n-1] (min_size on each side); *tau receives it.
 * Exposed for the tests. Returns -1 when there is no admissible split. */
double pb_cp_best_split(const double *x, size_t n, int min_size, size_t *tau);

#endif
