/* SPDX-License-Identifier: GPL-2.0-only */
/* compare_unpaired.h — `bench compare --runs A B` for two runs that were not made in one job
 * (different or no PB_JOB_ID): an explicitly UNPAIRED comparison. Nothing pairs the samples
 * (the machine's state between the two sessions is unknown), so per cell and impl the time per
 * operation of every sample of B is set against every sample of A: Hodges-Lehmann estimate of
 * the ratio B/A (the median of all pairwise ratios) with the distribution-free 95 % CI of the
 * Mann-Whitney statistic, and its two-sided p. Printed, labelled UNPAIRED; not stored and not a
 * gate decision. */
#ifndef PB_COMPARE_UNPAIRED_H
#define PB_COMPARE_UNPAIRED_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pb.h"
#include "store.h"

typedef struct pb_unpaired {
    double est, lo, hi; /* ratio b/a: Hodges-Lehmann, 95 % CI */
    double p;           /* Mann-Whitney, two-sided, normal approximation with tie correction */
    size_t na, nb;
} pb_unpaired;

/* Hodges-Lehmann ratio b/a over positive samples a[0..na-1], b[0..nb-1], 95 % Mann-Whitney CI.
 * 0, -1 with fewer than 2 samples a side, -2 when out of memory. */
int pb_unpaired_ratio(const double *a, size_t na, const double *b, size_t nb, pb_unpaired *out);

/* The UNPAIRED table of run b against run a (one suite, both complete), impl NULL for every impl,
 * to f. 0, or -1 + e. */
int pb_compare_unpaired(pb_store *st, int64_t run_a, int64_t run_b, const char *impl, FILE *f, pb_err *e);

#endif
