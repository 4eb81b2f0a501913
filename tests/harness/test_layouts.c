/* SPDX-License-Identifier: GPL-2.0-only */
/* Code layouts as a measured factor (docs/layout.md), on seeded synthetic data with layout effects
 * built in: Student t's quantiles; the runner's balanced assignment of rounds to layouts; the
 * across-layout CI covering the true ratio at its nominal rate (where the pairs pooled as one
 * layout do not), over independent layouts, over stratified ones' function orders, and over the
 * orders and the time blocks (a run's ratios), moderated over a run's cells or not; the gate's cell
 * statistics across layouts; and "depends on code layout" marking exactly the cells whose
 * per-layout ratios straddle a verdict boundary. No timing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate.h"
#include "layout_stats.h"
#include "layouts.h"
#include "pb.h"
#include "report.h"
#include "stats.h"
#include "../lib/check.h"

static double uniform(pb_rng *r)
{
    return ((double)(pb_rng_next(r) >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(pb_rng *r)
{
    return sqrt(-2 * log(uniform(r))) * cos(2 * M_PI * uniform(r));
}

static void t_quantiles(void)
{
    /* R: qt(0.975, df) */
    static const struct { double df, q; } T[] = {{1, 12.7062047}, {2, 4.3026527}, {7, 2.3646243}, {15, 2.1314495},
                                                 {30, 2.0422725}, {1000, 1.9623391}};
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++) {
        double q = pb_t_quantile(0.975, T[i].df);
        CHECK(fabs(q - T[i].q) < 1e-5, "t quantile 0.975, df %g: %.7f, want %.7f", T[i].df, q, T[i].q);
        CHECK(fabs(pb_t_cdf(T[i].q, T[i].df) - 0.975) < 1e-7, "t cdf at its quantile, df %g", T[i].df);
    }
    CHECK(pb_t_cdf(0, 7) == 0.5, "t cdf at 0");
    CHECK(fabs(pb_t_quantile(0.025, 7) + 2.3646243) < 1e-5, "t quantile symmetric");
}

static void balanced_assignment(void)
{
    int a[64], b[64], c[64];
    pb_layouts_assign(a, 64, 8, 1);
    pb_layouts_assign(b, 64, 8, 1);
    pb_layouts_assign(c, 64, 8, 2);
    CHECK(!memcmp(a, b, sizeof a), "the same seed, the same order");
    CHECK(memcmp(a, c, sizeof a), "another seed, another order");
    for (int blk = 0; blk < 8; blk++) {
        int seen[8] = {0};
        for (int i = 0; i < 8; i++) seen[a[blk * 8 + i]]++;
        for (int l = 0; l < 8; l++) CHECK(seen[l] == 1, "block %d: layout %d %d times, want once", blk, l, seen[l]);
    }
    int d[20];
    pb_layouts_assign(d, 20, 8, 7);
    int cnt[8] = {0};
    for (int i = 0; i < 20; i++) {
        CHECK(d[i] >= 0 && d[i] < 8, "round %d: layout %d in range", i, d[i]);
        cnt[d[i]]++;
    }
    for (int l = 0; l < 8; l++) CHECK(cnt[l] == 2 || cnt[l] == 3, "20 rounds of 8 layouts: layout %d %d times", l, cnt[l]);
}

/* One synthetic cell: L layouts with effects u_l ~ N(0, layout_sd^2) on the log ratio, `per` pairs
 * each with noise N(0, pair_sd^2) and one pair in ten five times noisier (the VM's slow core). */
static size_t synth_cell(pb_rng *r, double mu, int L, int per, double layout_sd, double pair_sd, double *d, int *lay)
{
    size_t n = 0;
    for (int l = 0; l < L; l++) {
        double u = layout_sd * normal(r);
        for (int k = 0; k < per; k++) {
            double sd = uniform(r) < 0.1 ? 5 * pair_sd : pair_sd;
            d[n] = mu + u + sd * normal(r);
            lay[n++] = l;
        }
    }
    return n;
}

static void coverage(void)
{
    pb_rng r;
    pb_rng_seed(&r, 20261201);
    const int S = 4000, L = 8, per = 8;
    const double mu = log(0.8);
    int cover = 0, pooled_cover = 0, widths_ok = 0;
    double d[64], c[64], b[64];
    int lay[64];
    for (int s = 0; s < S; s++) {
        size_t n = synth_cell(&r, mu, L, per, 0.04, 0.01, d, lay);
        pb_layout_ratio lr;
        int rc = pb_layout_ratio_of(d, lay, NULL, n, 0.95, 0, &lr);
        if (rc != 0) { CHECK(0, "cell %d: not estimated across layouts (%d)", s, rc); continue; }
        cover += lr.ci_lo <= exp(mu) && exp(mu) <= lr.ci_hi;
        widths_ok += lr.lo <= lr.estimate && lr.estimate <= lr.hi;
        /* the same pairs as one layout: the CI of one binary, however many rounds */
        for (size_t i = 0; i < n; i++) { b[i] = 1; c[i] = exp(d[i]); }
        pb_paired pr;
        if (pb_paired_ratio(c, b, n, 0.95, &pr) == 0) pooled_cover += pr.ci_lo <= exp(mu) && exp(mu) <= pr.ci_hi;
    }
    double cv = (double)cover / S, pcv = (double)pooled_cover / S;
    printf("across-layout CI coverage %.4f (nominal 0.95); the pairs pooled as one layout: %.4f\n", cv, pcv);
    CHECK(cv >= 0.935 && cv <= 0.965, "across-layout 95%% CI covers the true ratio %.4f of the time", cv);
    CHECK(pcv < 0.80, "pooled as one layout, the CI ignores the layout spread: coverage %.4f", pcv);
    CHECK(widths_ok == S, "the estimate lies within the per-layout range in every cell (%d of %d)", widths_ok, S);

    /* no layout effect at all: still nominal (the t interval does not need one) */
    cover = 0;
    for (int s = 0; s < S; s++) {
        size_t n = synth_cell(&r, mu, L, per, 0, 0.01, d, lay);
        pb_layout_ratio lr;
        if (pb_layout_ratio_of(d, lay, NULL, n, 0.95, 0, &lr) == 0) cover += lr.ci_lo <= exp(mu) && exp(mu) <= lr.ci_hi;
    }
    cv = (double)cover / S;
    CHECK(cv >= 0.935 && cv <= 0.975, "no layout effect: coverage %.4f", cv);

    /* one layout only: not estimated across layouts */
    for (int i = 0; i < 8; i++) { d[i] = 0.01 * i; lay[i] = 3; }
    pb_layout_ratio lr;
    CHECK(pb_layout_ratio_of(d, lay, NULL, 8, 0.95, 0, &lr) == 1 && lr.nlayouts == 1, "one layout: returns 1");

    /* one pair in each of 16 layouts (--quick, a gate's first pass): across layouts all the same, each
     * layout's ratio that pair's, and the same coverage as with more pairs */
    for (int i = 0; i < 16; i++) { d[i] = 0.01 * (i % 5) - 0.02; lay[i] = 15 - i; }
    CHECK(pb_layout_ratio_of(d, lay, NULL, 16, 0.95, 0, &lr) == 0 && lr.nlayouts == 16, "one pair a layout: across 16 (%d)", lr.nlayouts);
    CHECK(fabs(lr.per_layout[15] - exp(-0.02)) < 1e-12 && lr.n_per_layout[0] == 1, "one pair a layout: its own ratio");
    cover = 0;
    for (int s = 0; s < S; s++) {
        size_t n = synth_cell(&r, mu, 16, 1, 0.04, 0.01, d, lay);
        if (pb_layout_ratio_of(d, lay, NULL, n, 0.95, 0, &lr) == 0) cover += lr.ci_lo <= exp(mu) && exp(mu) <= lr.ci_hi;
    }
    cv = (double)cover / S;
    CHECK(cv >= 0.935 && cv <= 0.965, "one pair in each of 16 layouts: coverage %.4f", cv);
}

/* Stratified layouts (layout_stats.h): 16 layouts, 4 function orders x 4 shifts. Each cell has one
 * shift (of four, drawn per cell) where new is 15 % slower (the Zen 5 VM's loop placement), the
 * other three 5 % faster, centred so that the mean over shifts is the true ratio; small order
 * effects and interactions (sd 0.01), pair noise 0.01. The CI over the orders' means covers the
 * true ratio at its nominal rate and is several times narrower than the CI that treats the 16
 * layouts as independent (which over-covers: the shifts are strata, not draws). */
static size_t strat_cell(pb_rng *r, double mu, int per, double *d, int *lay)
{
    size_t n = 0;
    int slow = (int)(pb_rng_next(r) % 4);
    for (int k = 0; k < 4; k++) {
        double a = 0.01 * normal(r);
        for (int sh = 0; sh < 4; sh++) {
            double b = (sh == slow ? log(1.15) : log(0.95)) - (log(1.15) + 3 * log(0.95)) / 4;
            double ab = 0.01 * normal(r);
            for (int i = 0; i < per; i++) {
                d[n] = mu + a + b + ab + 0.01 * normal(r);
                lay[n++] = k * 4 + sh;
            }
        }
    }
    return n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void stratified(void)
{
    pb_rng r;
    pb_rng_seed(&r, 20261203);
    enum { S = 4000 };
    const double mu = log(0.8);
    static double wide[S], narrow[S];
    int cover = 0, iid_cover = 0, strat = 0;
    double d[64];
    int lay[64];
    for (int s = 0; s < S; s++) {
        size_t n = strat_cell(&r, mu, 4, d, lay);
        pb_layout_ratio st, iid;
        CHECK(pb_layout_ratio_of(d, lay, NULL, n, 0.95, PB_LAYOUT_SHIFTS, &st) == 0 &&
                  pb_layout_ratio_of(d, lay, NULL, n, 0.95, 0, &iid) == 0, "cell %d: estimated", s);
        strat += st.stratified && st.units == 4 && st.df == 3 && !iid.stratified && iid.units == 16;
        cover += st.ci_lo <= exp(mu) && exp(mu) <= st.ci_hi;
        iid_cover += iid.ci_lo <= exp(mu) && exp(mu) <= iid.ci_hi;
        CHECK(fabs(st.estimate - iid.estimate) < 1e-12, "cell %d: one estimate, two CIs", s);
        narrow[s] = log(st.ci_hi / st.ci_lo);
        wide[s] = log(iid.ci_hi / iid.ci_lo);
    }
    qsort(narrow, S, sizeof narrow[0], cmp_double);
    qsort(wide, S, sizeof wide[0], cmp_double);
    double cv = (double)cover / S, icv = (double)iid_cover / S, w = wide[S / 2] / narrow[S / 2];
    printf("stratified layouts: CI over the orders covers %.4f (nominal 0.95); over the layouts as draws %.4f, "
           "median width %.1f times as wide\n", cv, icv, w);
    CHECK(strat == S, "over the 4 orders (3 df) in every cell: %d of %d", strat, S);
    CHECK(cv >= 0.935 && cv <= 0.965, "stratified: the 95%% CI covers the true ratio %.4f of the time", cv);
    CHECK(icv > 0.99 && w > 2, "layouts as draws: over-covers (%.4f), %.1f times as wide", icv, w);

    /* the gate: over the orders for one implementation against itself (a commit gate's X~base and X,
     * an A/A gate's X and X~aa), over the layouts as draws for two (a claim gate's old and new); where
     * this build's layouts are stratified (lld) */
    {
        pb_gate_params gp = PB_GATE_DEFAULTS;
        double ca[64], cb[64];
        size_t m = strat_cell(&r, mu, 4, d, lay);
        for (size_t i = 0; i < m; i++) { ca[i] = 100; cb[i] = 100 * exp(d[i]); }
        static const struct { const char *a, *b; int one; } P[] = {
            {"new~base", "new", 1}, {"new", "new~aa", 1}, {"old", "new", 0}, {"old~base", "new", 0}};
        for (size_t i = 0; i < sizeof P / sizeof P[0]; i++) {
            pb_cmp_cell c;
            memset(&c, 0, sizeof c);
            snprintf(c.impl_a, sizeof c.impl_a, "%s", P[i].a);
            snprintf(c.impl_b, sizeof c.impl_b, "%s", P[i].b);
            c.threshold = 0.03;
            pb_cmp_cell_stats_layouts(&c, cb, ca, NULL, lay, m, 1, &gp);
            int want = P[i].one && pb_layout_strata() ? 4 : 16;
            CHECK(c.layouts == 16 && c.layout_units == want, "gate %s against %s: over %d units, want %d", P[i].b,
                  P[i].a, c.layout_units, want);
        }
    }

    /* a layout without pairs leaves its order incomplete: the layouts are then independent draws */
    size_t n = strat_cell(&r, mu, 4, d, lay), k = 0;
    for (size_t i = 0; i < n; i++)
        if (lay[i] != 5) { d[k] = d[i]; lay[k++] = lay[i]; }
    pb_layout_ratio lr;
    CHECK(pb_layout_ratio_of(d, lay, NULL, k, 0.95, PB_LAYOUT_SHIFTS, &lr) == 0 && !lr.stratified && lr.units == 15,
          "an incomplete order: over the 15 layouts (%d, stratified %d)", lr.units, lr.stratified);
    /* two orders are too few for a CI over them */
    for (size_t i = 0; i < n; i++) lay[i] %= 8;
    CHECK(pb_layout_ratio_of(d, lay, NULL, n, 0.95, PB_LAYOUT_SHIFTS, &lr) == 0 && !lr.stratified && lr.units == 8,
          "two orders: over the 8 layouts (%d)", lr.units);
}

/* A run's ratio between two implementations (finalize.c): 16 stratified layouts, each run once in each
 * of 4 time blocks (the passes: every layout once a block). Each cell has the Zen 5 VM's placement
 * effect (in each order one stratum's layout 15 % slower, which the order's mean takes out), order
 * effects and order x stratum interactions (sd 0.01: what another set of layouts would change), a
 * time effect per block (sd 0.01: the host in the seconds of one pass, the same for every layout of
 * the block) and pair noise (0.01, one pair in ten five times that). The two-way CI over the orders
 * and the blocks covers the true ratio at its nominal rate; the CI over the orders alone misses the
 * time part and under-covers; the layouts as draws over-cover at about twice the width. Moderated
 * over 30 cells of a run (pb_moderate_prior, pb_layout_moderate), still nominal. A block with pairs
 * of fewer than half the layouts (a make-up pass) is not a block. */
static size_t two_way_cell(pb_rng *r, double mu, int extra, double *d, int *lay, int *blk)
{
    size_t n = 0;
    double tau[4];
    for (int b = 0; b < 4; b++) tau[b] = 0.01 * normal(r);
    double b_slow = log(1.15) - (log(1.15) + 3 * log(0.95)) / 4, b_fast = log(0.95) - (log(1.15) + 3 * log(0.95)) / 4;
    for (int k = 0; k < 4; k++) {
        double a = 0.01 * normal(r);
        int slow = (int)(pb_rng_next(r) % 4);
        for (int sh = 0; sh < 4; sh++) {
            double ab = 0.01 * normal(r);
            for (int b = 0; b < 4; b++) {
                double sd = uniform(r) < 0.1 ? 0.05 : 0.01;
                d[n] = mu + a + (sh == slow ? b_slow : b_fast) + ab + tau[b] + sd * normal(r);
                lay[n] = k * 4 + sh;
                blk[n++] = b;
            }
        }
    }
    for (int i = 0; i < extra; i++) {   /* make-up rounds: a fifth block with a few pairs */
        d[n] = mu + 0.01 * normal(r);
        lay[n] = i;
        blk[n++] = 4;
    }
    return n;
}

static void two_way(void)
{
    pb_rng r;
    pb_rng_seed(&r, 20261205);
    enum { S = 4000, M = 30 };
    const double mu = log(1.02);
    int cover = 0, ocover = 0, icover = 0, shape = 0, mcover = 0, mtotal = 0;
    static double wtwo[S], wiid[S];
    double d[80];
    int lay[80], blk[80];
    for (int s = 0; s < S; s++) {
        size_t n = two_way_cell(&r, mu, s % 3, d, lay, blk);
        pb_layout_ratio tw, ord, iid;
        CHECK(pb_layout_ratio_of(d, lay, blk, n, 0.95, PB_LAYOUT_SHIFTS, &tw) == 0 &&
                  pb_layout_ratio_of(d, lay, NULL, n, 0.95, PB_LAYOUT_SHIFTS, &ord) == 0 &&
                  pb_layout_ratio_of(d, lay, NULL, n, 0.95, 0, &iid) == 0, "cell %d: estimated", s);
        shape += tw.stratified && tw.blocks == 4 && tw.units == 4 && tw.df >= 3 && tw.df <= 6 && ord.blocks == 0 &&
                 fabs(tw.se_log * tw.se_log - tw.se_order * tw.se_order - tw.se_time * tw.se_time) < 1e-15 &&
                 fabs(tw.estimate - iid.estimate) < 1e-12;
        cover += tw.ci_lo <= exp(mu) && exp(mu) <= tw.ci_hi;
        ocover += ord.ci_lo <= exp(mu) && exp(mu) <= ord.ci_hi;
        icover += iid.ci_lo <= exp(mu) && exp(mu) <= iid.ci_hi;
        wtwo[s] = log(tw.ci_hi / tw.ci_lo);
        wiid[s] = log(iid.ci_hi / iid.ci_lo);
    }
    qsort(wtwo, S, sizeof wtwo[0], cmp_double);
    qsort(wiid, S, sizeof wiid[0], cmp_double);
    double cv = (double)cover / S, ocv = (double)ocover / S, icv = (double)icover / S, w = wiid[S / 2] / wtwo[S / 2];
    /* a run's 30 cells, their variances moderated together */
    static double wmod[S / M * M];
    int nw = 0;
    for (int g = 0; g < S / M; g++) {
        pb_layout_ratio lr[M];
        double v[M], df[M], d0, s0;
        for (int i = 0; i < M; i++) {
            size_t n = two_way_cell(&r, mu, 0, d, lay, blk);
            pb_layout_ratio_of(d, lay, blk, n, 0.95, PB_LAYOUT_SHIFTS, &lr[i]);
            v[i] = lr[i].se_log * lr[i].se_log;
            df[i] = lr[i].df;
        }
        CHECK(pb_moderate_prior(v, df, M, &d0, &s0) == 0 && d0 > 0 && s0 > 0, "run %d: a prior fitted", g);
        for (int i = 0; i < M; i++) {
            double df0 = lr[i].df;
            pb_layout_moderate(&lr[i], d0, s0, M, 0.95);
            CHECK(lr[i].moderated == M && lr[i].df > df0, "run %d cell %d: moderated (df %.1f)", g, i, lr[i].df);
            mcover += lr[i].ci_lo <= exp(mu) && exp(mu) <= lr[i].ci_hi;
            mtotal++;
            wmod[nw++] = log(lr[i].ci_hi / lr[i].ci_lo);
        }
    }
    qsort(wmod, (size_t)nw, sizeof wmod[0], cmp_double);
    double mcv = (double)mcover / mtotal;
    printf("two-way CI (orders x time blocks) covers %.4f; over the orders alone %.4f; layouts as draws %.4f at %.1f "
           "times the width; moderated over %d cells %.4f at %.2f times the two-way's median width\n", cv, ocv, icv,
           w, M, mcv, wmod[nw / 2] / wtwo[S / 2]);
    CHECK(shape == S, "two-way over 4 orders and 4 blocks, the make-up block left out, in every cell: %d of %d", shape, S);
    CHECK(cv >= 0.935 && cv <= 0.975, "two-way: the 95%% CI covers the true ratio %.4f of the time", cv);
    CHECK(ocv < 0.93, "over the orders alone the time part is missed: coverage %.4f", ocv);
    CHECK(icv > 0.985 && w > 1.5, "layouts as draws: over-covers (%.4f) at %.1f times the width", icv, w);
    CHECK(mcv >= 0.935 && mcv <= 0.965, "moderated over %d cells: coverage %.4f", M, mcv);
    char words[300];
    pb_layout_ratio one;
    size_t n = two_way_cell(&r, mu, 0, d, lay, blk);
    pb_layout_ratio_of(d, lay, blk, n, 0.95, PB_LAYOUT_SHIFTS, &one);
    pb_layout_ci_words(&one, words, sizeof words);
    CHECK(strstr(words, "4 function orders' and the 4 time blocks' means") != NULL, "the method says so: %s", words);
    /* one block only (a --quick run): the time part cannot be had, so the layouts as draws */
    for (size_t i = 0; i < n; i++) blk[i] = 0;
    pb_layout_ratio_of(d, lay, blk, n, 0.95, PB_LAYOUT_SHIFTS, &one);
    CHECK(!one.stratified && one.blocks == 0 && one.units == 16 && one.df == 15,
          "one block: over the layouts as draws (blocks %d, units %d, df %g)", one.blocks, one.units, one.df);
    /* a long run (--rounds 1600: 100 blocks): every block counts */
    {
        enum { B = 100 };
        static double dl[16 * B];
        static int ll[16 * B], bl[16 * B];
        size_t m = 0;
        for (int b = 0; b < B; b++)
            for (int l = 0; l < 16; l++) {
                dl[m] = 0.01 * normal(&r) + (l % 4 == 0 ? 0.1 : 0);
                ll[m] = l;
                bl[m++] = b;
            }
        pb_layout_ratio lng;
        CHECK(pb_layout_ratio_of(dl, ll, bl, m, 0.95, PB_LAYOUT_SHIFTS, &lng) == 0 && lng.blocks == B,
              "100 blocks: all in the time part (%d)", lng.blocks);
    }
    /* too few cells for a prior: each keeps its own */
    double v4[4] = {1e-4, 2e-4, 1e-4, 3e-4}, df4[4] = {3, 3, 3, 3}, d0, s0;
    CHECK(pb_moderate_prior(v4, df4, 4, &d0, &s0) == 1, "4 cells: no prior");
}

/* A layout without pairs (finalize.c: every round of it ran on a shared core): the mean over the
 * shifts' strata keeps the shifts balanced where the layouts' mean takes the missing layout's shift
 * out. Seeded stratified cells, the slow shift's layout of one order left out: over 4000 cells the
 * post-stratified estimate's mean error is within noise of 0, the layouts' mean is biased by about
 * (its shift's effect)/15. A complete design is left as it was. */
static void poststratified(void)
{
    pb_rng r;
    pb_rng_seed(&r, 20261204);
    enum { S = 4000 };
    const double mu = log(0.8);
    double d[64], err_post = 0, err_plain = 0, same = 0;
    int lay[64];
    for (int s = 0; s < S; s++) {
        size_t n = strat_cell(&r, mu, 4, d, lay), k = 0;
        pb_layout_ratio full, lr;
        CHECK(pb_layout_ratio_of(d, lay, NULL, n, 0.95, 0, &full) == 0, "cell %d: estimated", s);
        double before = full.estimate;
        pb_layout_poststratify(&full, PB_LAYOUT_SHIFTS, 0.95);
        same += fabs(full.estimate - before) < 1e-12;
        /* the slow shift's layout of order 1 (its effect log(1.15) against log(0.95) elsewhere) */
        int slow = -1;
        for (int l = 4; l < 8 && slow < 0; l++)
            for (size_t i = 0; i < n; i++)
                if (lay[i] == l && d[i] - mu > log(1.08)) { slow = l; break; }
        for (size_t i = 0; i < n; i++)
            if (lay[i] != slow) { d[k] = d[i]; lay[k++] = lay[i]; }
        CHECK(pb_layout_ratio_of(d, lay, NULL, k, 0.95, 0, &lr) == 0 && lr.nlayouts == 15, "cell %d: 15 layouts", s);
        err_plain += log(lr.estimate) - mu;
        CHECK(pb_layout_poststratify(&lr, PB_LAYOUT_SHIFTS, 0.95) == 1, "cell %d: recentred", s);
        CHECK(lr.ci_lo < lr.estimate && lr.estimate < lr.ci_hi, "cell %d: the CI around the estimate", s);
        err_post += log(lr.estimate) - mu;
    }
    err_post /= S;
    err_plain /= S;
    printf("a layout of the slow shift without pairs: mean log error %.5f over the strata, %.5f over the layouts\n",
           err_post, err_plain);
    CHECK(same == S, "a complete design: the strata's mean is the layouts' (%g of %d)", same, S);
    CHECK(fabs(err_post) < 0.002, "over the strata: unbiased (%.5f)", err_post);
    CHECK(err_plain < -0.008, "over the layouts: the slow shift under-weighted (%.5f)", err_plain);
    pb_layout_ratio one = {0};
    one.nlayouts = 1;
    CHECK(pb_layout_poststratify(&one, PB_LAYOUT_SHIFTS, 0.95) == 0, "one layout: left alone");
}

/* The gate's statistics across layouts: a change of placement alone (layouts of two builds differing
 * by their own effects, no code change) is spread, not a regression; a real 5 % slowdown is found. */
static void gate_cells(void)
{
    pb_rng r;
    pb_rng_seed(&r, 77);
    const pb_gate_params gp = PB_GATE_DEFAULTS;
    double d[64], ca[64], cb[64];
    int lay[64];
    int alarms = 0, found = 0;
    const int S = 400;
    for (int s = 0; s < S; s++) {
        for (int shift = 0; shift < 2; shift++) {
            size_t n = synth_cell(&r, shift ? log(1.05) : 0, 8, 8, 0.01, 0.005, d, lay);
            for (size_t i = 0; i < n; i++) { ca[i] = 100; cb[i] = 100 * exp(d[i]); }
            pb_cmp_cell c;
            memset(&c, 0, sizeof c);
            c.threshold = 0.03;
            pb_cmp_cell_stats_layouts(&c, cb, ca, NULL, lay, n, 1, &gp);
            pb_gate_decide(&c, 1, &gp);
            CHECK(c.layouts == 8, "gate cell across 8 layouts (%d)", c.layouts);
            if (shift) found += c.verdict == PB_CELL_REGRESSION;
            else alarms += c.verdict == PB_CELL_REGRESSION;
        }
    }
    printf("gate across layouts: %d false alarms of %d, a 5%% slowdown found %d of %d\n", alarms, S, found, S);
    CHECK(alarms <= S / 20, "placement only: %d false alarms of %d (at most alpha)", alarms, S);
    CHECK(found >= S * 8 / 10, "a 5%% slowdown with 1%% layout spread: found %d of %d", found, S);
}

/* The moderated t over the cells of a comparison (gate_moderate.c): 30 cells sharing one layout
 * spread. Under no change it alarms no more than alpha; with every cell 5 % slower it finds more
 * cells than the cells' own t with 7 df; its per-cell 95 % CIs cover at the nominal rate. */
static void moderated(void)
{
    pb_rng r;
    pb_rng_seed(&r, 99);
    const pb_gate_params gp = PB_GATE_DEFAULTS;
    enum { M = 30, S = 200 };
    int alarm_gates = 0, found_own = 0, found_mod = 0, covered = 0, total = 0;
    for (int s = 0; s < S; s++)
        for (int shift = 0; shift < 2; shift++) {
            pb_cmp_cell own[M], mod[M];
            for (int i = 0; i < M; i++) {
                double d[64], ca[64], cb[64];
                int lay[64];
                size_t n = synth_cell(&r, shift ? log(1.05) : 0, 8, 8, 0.035, 0.005, d, lay);
                for (size_t j = 0; j < n; j++) { ca[j] = 100; cb[j] = 100 * exp(d[j]); }
                memset(&own[i], 0, sizeof own[i]);
                own[i].threshold = 0.03;
                pb_cmp_cell_stats_layouts(&own[i], cb, ca, NULL, lay, n, M, &gp);
                mod[i] = own[i];
            }
            CHECK(pb_gate_moderate_layouts(mod, M, &gp) == 0, "moderated");
            for (int i = 0; i < M; i++) {
                CHECK(mod[i].layout_df > 7, "cell %d: moderated df %.1f > 7", i, mod[i].layout_df);
                double truth = shift ? 1.05 : 1.0;
                covered += mod[i].ci_lo <= truth && truth <= mod[i].ci_hi;
                total++;
            }
            pb_gate_decide(own, M, &gp);
            pb_gate_decide(mod, M, &gp);
            int any = 0;
            for (int i = 0; i < M; i++) {
                if (shift) {
                    found_own += own[i].verdict == PB_CELL_REGRESSION;
                    found_mod += mod[i].verdict == PB_CELL_REGRESSION;
                } else any |= mod[i].verdict == PB_CELL_REGRESSION;
            }
            alarm_gates += any;
        }
    double cov = (double)covered / total;
    printf("moderated t over %d cells: %d of %d no-change gates alarmed; 5%% slower: found %d (own t: %d) of %d cells; "
           "CI coverage %.4f\n", M, alarm_gates, S, found_mod, found_own, S * M, cov);
    CHECK(alarm_gates <= S / 10, "no change: %d of %d gates alarmed", alarm_gates, S);
    CHECK(found_mod > found_own, "moderation finds more of a 5%% slowdown: %d against %d", found_mod, found_own);
    CHECK(cov >= 0.93 && cov <= 0.97, "moderated CI coverage %.4f", cov);
}

/* Cells with built-in per-layout offsets of known spread around a known ratio, and the mark. */
static void layout_mark(void)
{
    /* claim faster, document 0.8, tolerance 0.10: band [0.727, 0.88]; boundaries 0.727, 0.88, 1 */
    static const struct { double centre, spread; int want; const char *why; } C[] = {
        {0.80, 0.03, 0, "inside the band in every layout"},
        {0.88, 0.04, 1, "across the band's upper edge: holds in some layouts, size differs in others"},
        {1.00, 0.04, 1, "across 1: faster in some layouts, slower in others"},
        {1.10, 0.04, 0, "slower in every layout"},
        {0.60, 0.04, 0, "far faster than the document in every layout"},
        {0.727, 0.02, 1, "across the band's lower edge"},
    };
    pb_rng r;
    pb_rng_seed(&r, 5);
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++) {
        double d[64];
        int lay[64];
        size_t n = 0;
        for (int l = 0; l < 8; l++) {
            /* offsets spread evenly over [-spread, +spread]: the per-layout ratios are known */
            double off = C[i].spread * (2.0 * l / 7 - 1);
            for (int k = 0; k < 8; k++) {
                d[n] = log(C[i].centre) + off + 1e-5 * normal(&r);
                lay[n++] = l;
            }
        }
        pb_layout_ratio lr;
        CHECK(pb_layout_ratio_of(d, lay, NULL, n, 0.95, 0, &lr) == 0, "%s: estimated", C[i].why);
        int got = pb_verdict_straddles(PB_CLAIM_FASTER, 0.8, 0.10, lr.lo, lr.hi);
        CHECK(got == C[i].want, "%s: depends on code layout %d, want %d (per-layout %.3f to %.3f)", C[i].why, got,
              C[i].want, lr.lo, lr.hi);
    }
    CHECK(!pb_verdict_straddles(PB_CLAIM_NONE, 0.8, 0.1, 0.5, 1.5), "no claim: never");
    CHECK(!pb_verdict_straddles(PB_CLAIM_FASTER, 0.8, 0.1, NAN, 1.0), "NaN: never");
    CHECK(pb_verdict_straddles(PB_CLAIM_EQUAL, NAN, 0.1, 1.05, 1.15), "equal: across 1 + t");
    CHECK(pb_verdict_straddles(PB_CLAIM_NOT_SLOWER, NAN, 0.1, 1.05, 1.15), "not slower: across 1 + t");
    CHECK(!pb_verdict_straddles(PB_CLAIM_NOT_SLOWER, NAN, 0.1, 0.9, 1.05), "not slower: within 1 + t");
    pb_verdict_counts n = {0};
    n.layout = 2;
    char line[512];
    pb_verdict_summary(&n, line, sizeof line);
    CHECK(strstr(line, "depends on code layout 2") != NULL, "the summary counts it: %s", line);
}

/* Each section is its own meson test (argv[1]): the sanitizer build on a loaded machine runs them
 * side by side, each well inside the default limit, where all nine in one process did not. */
static const struct {
    const char *name;
    void (*run)(void);
} sections[] = {
    {"quantiles", t_quantiles},     {"balanced", balanced_assignment}, {"coverage", coverage},
    {"stratified", stratified},     {"two-way", two_way},              {"poststratified", poststratified},
    {"gate-cells", gate_cells},     {"moderated", moderated},          {"layout-mark", layout_mark},
};

int main(int argc, char **argv)
{
    int ran = 0;
    for (size_t i = 0; i < sizeof sections / sizeof *sections; i++)
        if (argc < 2 || strcmp(argv[1], sections[i].name) == 0) {
            sections[i].run();
            ran++;
        }
    if (!ran) {
        fprintf(stderr, "test_layouts: no section %s\n", argv[1]);
        return 2;
    }
    return check_summary();
}
