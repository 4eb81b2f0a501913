/* SPDX-License-Identifier: GPL-2.0-only */
/* E-divisive means (changepoint.h) on made-up series: a step found exactly where it is, with its
 * size; a flat noisy series and a single outlier give none; two steps give two. Seeded: no timing. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "changepoint.h"
#include "../lib/check.h"

static uint64_t lcg = 7;
static double noise(void) /* [-1, 1) */
{
    lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(lcg >> 11) / (double)(1ULL << 52) - 1.0;
}

int main(void)
{
    pb_cp_opts o = {.alpha = 0.01, .permutations = 999, .min_size = 3, .seed = 1};
    pb_change ch[8];
    double x[40];

    /* a 10 % step at index 20, 1 % noise */
    for (int i = 0; i < 40; i++) x[i] = (i < 20 ? 100.0 : 90.0) * (1 + 0.01 * noise());
    int k = pb_changepoints(x, 40, &o, ch, 8);
    CHECK(k == 1 && ch[0].index == 20, "step: %d change(s), first at %zu", k, k > 0 ? ch[0].index : 0);
    CHECK(k == 1 && fabs(ch[0].after / ch[0].before - 0.9) < 0.01, "step size %g", k ? ch[0].after / ch[0].before : 0);
    CHECK(k == 1 && ch[0].p <= 0.002, "p = %g", k ? ch[0].p : 1);

    /* flat, 1 % noise */
    for (int i = 0; i < 40; i++) x[i] = 100.0 * (1 + 0.01 * noise());
    k = pb_changepoints(x, 40, &o, ch, 8);
    CHECK(k == 0, "flat: %d change(s)", k);

    /* one outlier is not a change */
    x[17] = 150;
    k = pb_changepoints(x, 40, &o, ch, 8);
    CHECK(k == 0, "outlier: %d change(s), at %zu", k, k > 0 ? ch[0].index : 0);

    /* two steps, ascending order */
    for (int i = 0; i < 40; i++) x[i] = (i < 12 ? 100.0 : i < 28 ? 80.0 : 100.0) * (1 + 0.01 * noise());
    k = pb_changepoints(x, 40, &o, ch, 8);
    CHECK(k == 2 && ch[0].index == 12 && ch[1].index == 28, "two steps: %d, at %zu %zu", k, k > 0 ? ch[0].index : 0,
          k > 1 ? ch[1].index : 0);

    /* too short to test */
    k = pb_changepoints(x, 5, &o, ch, 8);
    CHECK(k == 0, "5 points: %d", k);
    size_t tau = 0;
    CHECK(pb_cp_best_split(x, 5, 3, &tau) < 0, "no admissible split in 5 points with 3 a side");

    /* the energy statistic peaks at the step of a noiseless series */
    double y[10] = {1, 1, 1, 1, 1, 2, 2, 2, 2, 2};
    double q = pb_cp_best_split(y, 10, 2, &tau);
    CHECK(tau == 5 && q > 0, "noiseless: tau %zu q %g", tau, q);
    return check_summary();
}
