/* SPDX-License-Identifier: GPL-2.0-only */
/* Statistics with known answers: quantiles, Hodges-Lehmann, Wilcoxon CI and p-values. */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "pb.h"
#include "stats.h"
#include "../lib/check.h"

int main(void)
{
    double x[] = {3, 1, 4, 1, 5, 9, 2, 6};
    CHECK(fabs(pb_median(x, 8) - 3.5) < 1e-12, "median %g", pb_median(x, 8));
    CHECK(fabs(pb_quantile(x, 8, 0.1) - 1.0) < 1e-12, "p10 %g", pb_quantile(x, 8, 0.1));
    CHECK(fabs(pb_quantile(x, 8, 0.9) - 6.9) < 1e-12, "p90 %g", pb_quantile(x, 8, 0.9));
    CHECK(isnan(pb_median(x, 0)), "empty median");

    /* HL of {1..9} is 5; exact 95 % signed-rank CI for n = 9 cuts k = 6 Walsh averages per side
     * (P(T+ <= 5) = 0.0195 <= 0.025 < P(T+ <= 6) = 0.0273), giving [2.5, 7.5]. */
    double d[9];
    for (int i = 0; i < 9; i++) d[i] = i + 1;
    double est, lo, hi, ach;
    pb_hl_ci(d, 9, 0.95, &est, &lo, &hi, &ach);
    CHECK(fabs(est - 5) < 1e-12, "HL %g", est);
    CHECK(fabs(lo - 2.5) < 1e-12 && fabs(hi - 7.5) < 1e-12, "CI [%g, %g]", lo, hi);
    CHECK(ach >= 0.95 && ach < 0.97, "achieved %g", ach);

    /* all-positive n = 10: exact two-sided p = 2 / 2^10 */
    double pos[10];
    for (int i = 0; i < 10; i++) pos[i] = 0.1 * (i + 1);
    double p = pb_signed_rank_p(pos, 10);
    CHECK(fabs(p - 2.0 / 1024) < 1e-12, "p %g", p);
    /* symmetric data: p = 1 */
    double sym[] = {-3, -2, -1, 1, 2, 3};
    CHECK(pb_signed_rank_p(sym, 6) > 0.99, "symmetric p %g", pb_signed_rank_p(sym, 6));

    /* paired ratio: a 5 % shift in noisy two-speed data is estimated within 1 % */
    pb_rng r;
    pb_rng_seed(&r, 42);
    double base[200], cand[200];
    for (int i = 0; i < 200; i++) {
        double speed = (pb_rng_next(&r) & 1) ? 1.0 : 1.86; /* the VM's two core speeds */
        double noise1 = 1 + 0.02 * ((double)(pb_rng_next(&r) % 1000) / 1000 - 0.5);
        double noise2 = 1 + 0.02 * ((double)(pb_rng_next(&r) % 1000) / 1000 - 0.5);
        base[i] = 100 * speed * noise1;
        cand[i] = 105 * speed * noise2;
    }
    pb_paired pr;
    CHECK(pb_paired_ratio(cand, base, 200, 0.95, &pr) == 0, "paired ratio failed");
    CHECK(fabs(pr.estimate - 1.05) < 0.01, "estimate %g", pr.estimate);
    CHECK(pr.ci_lo < pr.estimate && pr.estimate < pr.ci_hi && pr.ci_lo > 1.03, "CI [%g, %g]", pr.ci_lo, pr.ci_hi);
    CHECK(pr.p_value < 1e-6, "p %g", pr.p_value);
    CHECK(pb_paired_ratio(cand, base, 1, 0.95, &pr) < 0, "one pair must be refused");

    /* normal quantile */
    CHECK(fabs(pb_norm_quantile(0.975) - 1.959963985) < 1e-6, "z %g", pb_norm_quantile(0.975));
    return check_summary();
}
