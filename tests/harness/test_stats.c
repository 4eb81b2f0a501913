/* SPDX-License-Identifier: GPL-2.0-only */
/* Statistics with known answers: quantiles, Hodges-Lehmann, Wilcoxon CI and p-values. */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "pb.h"
#include "stats.h"
#include "../lib/check.h"

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* a value of a fixed generator: log ratios of 1 +- a few %, with ties and zeros among them */
static double draw(unsigned *state, int ties)
{
    *state = *state * 1103515245u + 12345u;
    int v = (int)((*state >> 8) % 2001) - 1000;
    return ties ? (double)(v / 50) * 0.001 : log1p((double)v * 5e-5);
}

/* pb_hl_ci against what it computed before it stopped storing the Walsh averages: all n(n+1)/2 of
 * them sorted, the median (type 7) and the CI at two symmetric ranks: equal, not near */
static void check_hl_against_all_averages(size_t n, int ties, unsigned seed)
{
    double *d = malloc(n * sizeof *d), *w = malloc(n * (n + 1) / 2 * sizeof *w);
    assert(d && w);
    for (size_t i = 0; i < n; i++) d[i] = draw(&seed, ties);
    size_t M = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i; j < n; j++) w[M++] = (d[i] + d[j]) / 2;
    qsort(w, M, sizeof *w, cmp_d);
    double h = (double)(M - 1) * 0.5;
    size_t a = (size_t)h, b = a + 1 < M ? a + 1 : a;
    double ref = w[a] + (h - (double)a) * (w[b] - w[a]);
    double est, lo, hi, ach;
    CHECK(pb_hl_ci(d, n, 0.95, &est, &lo, &hi, &ach) == 0, "n %zu: HL refused", n);
    CHECK(est == ref, "n %zu ties %d: HL %.17g, all averages' median %.17g", n, ties, est, ref);
    int found = isinf(lo) && isinf(hi);
    for (size_t k = 1; !found && k <= M / 2 + 1; k++) found = w[k - 1] == lo && w[M - k] == hi;
    CHECK(found, "n %zu ties %d: CI [%.17g, %.17g] is no symmetric pair of sorted averages", n, ties, lo, hi);
    free(d);
    free(w);
}

int main(void)
{
    for (size_t n = 2; n <= 40; n++) check_hl_against_all_averages(n, (int)(n % 2), (unsigned)n);
    check_hl_against_all_averages(199, 0, 7);
    check_hl_against_all_averages(201, 1, 8);
    check_hl_against_all_averages(1500, 1, 9);
    {
        /* 50,000 rounds: O(n) memory (the averages would take 9.3 GiB) */
        size_t n = 50000;
        double *d = malloc(n * sizeof *d), est, lo, hi, ach;
        unsigned seed = 11;
        assert(d);
        for (size_t i = 0; i < n; i++) d[i] = draw(&seed, 0);
        CHECK(pb_hl_ci(d, n, 0.95, &est, &lo, &hi, &ach) == 0 && lo < est && est < hi, "50,000: [%g, %g, %g]", lo, est, hi);
        CHECK(pb_signed_rank_p(d, n) >= 0, "50,000: p");
        free(d);
    }

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
