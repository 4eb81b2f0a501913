/* SPDX-License-Identifier: GPL-2.0-only */
/* E-divisive means (changepoint.h) on made-up series: a step found exactly where it is, with its
 * size; a flat noisy series and a single outlier give none; two steps give two. Then the O(n log n)
 * statistic and its early-stopping permutation test against the straightforward O(n^2) one kept
 * here: the same change points, statistics and p-values on seeded series with and without steps.
 * Seeded: no timing. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "changepoint.h"
#include "../lib/check.h"

static uint64_t lcg = 7;
static double noise(void) /* [-1, 1) */
{
    lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(lcg >> 11) / (double)(1ULL << 52) - 1.0;
}

/* ---- the reference: every sum kept up to date as tau moves, O(n^2) a scan, every permutation run ---- */

static double ref_total(const double *x, size_t n)
{
    double t = 0;
    for (size_t j = 0; j < n; j++)
        for (size_t k = j + 1; k < n; k++) t += fabs(x[j] - x[k]);
    return t;
}

static double ref_best_split(const double *x, size_t n, int min_size, size_t *tau)
{
    size_t m = (size_t)(min_size < 1 ? 1 : min_size);
    if (n < 2 * m) return -1;
    double wl = 0, wr = ref_total(x, n), b = 0, tie = 1e-9 * wr / (double)n, best = -1;
    for (size_t t = 1; t + m <= n; t++) {
        size_t p = t - 1;
        double to_left = 0, to_right = 0;
        for (size_t i = 0; i < p; i++) to_left += fabs(x[i] - x[p]);
        for (size_t j = p + 1; j < n; j++) to_right += fabs(x[p] - x[j]);
        wl += to_left;
        wr -= to_right;
        b += to_right - to_left;
        if (t < m) continue;
        double nl = (double)t, nr = (double)(n - t);
        double cl = nl * (nl - 1) / 2, cr = nr * (nr - 1) / 2;
        double q = nl * nr / (double)n * (2 * b / (nl * nr) - (cl > 0 ? wl / cl : 0) - (cr > 0 ? wr / cr : 0));
        if (q > best + tie) {
            best = q;
            *tau = t;
        }
    }
    return best;
}

static uint64_t ref_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int ref_divide(const double *x, size_t lo, size_t hi, const pb_cp_opts *o, uint64_t *rng, double *perm,
                      pb_change *out, int cap, int *count)
{
    size_t n = hi - lo, tau = 0;
    double q = ref_best_split(x + lo, n, o->min_size, &tau);
    if (q <= 0) return 0;
    double tie = 1e-9 * ref_total(x + lo, n) / (double)n;
    int at_least = 0;
    for (int r = 0; r < o->permutations; r++) {
        memcpy(perm, x + lo, n * sizeof *perm);
        for (size_t i = n - 1; i > 0; i--) {
            size_t j = (size_t)(ref_next(rng) % (i + 1));
            double t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        size_t ignored;
        if (ref_best_split(perm, n, o->min_size, &ignored) >= q - tie) at_least++;
    }
    double p = (1.0 + at_least) / (1.0 + o->permutations);
    if (p >= o->alpha) return 0;
    ref_divide(x, lo, lo + tau, o, rng, perm, out, cap, count);
    if (*count < cap) out[(*count)++] = (pb_change){.index = lo + tau, .q = q, .p = p};
    return ref_divide(x, lo + tau, hi, o, rng, perm, out, cap, count);
}

static int ref_changepoints(const double *x, size_t n, const pb_cp_opts *o, pb_change *out, int cap)
{
    double *perm = malloc(n * sizeof *perm);
    uint64_t rng = o->seed;
    int count = 0;
    ref_divide(x, 0, n, o, &rng, perm, out, cap, &count);
    free(perm);
    return count;
}

/* seeded series of n points: 0, 1 or 2 steps of 5-30 %, noise 0.5-3 %, some values repeated */
static void series(double *x, size_t n, int steps, int variant)
{
    size_t a = n / 3 + (size_t)variant % 5, b = 2 * n / 3;
    double level[3] = {100, 100 * (1 + 0.05 * (1 + variant % 6)), 100};
    double amp = 0.005 * (1 + variant % 6);
    for (size_t i = 0; i < n; i++) {
        int seg = steps == 0 ? 0 : i < a ? 0 : steps == 1 || i < b ? 1 : 2;
        x[i] = level[seg] * (1 + amp * noise());
        if (variant % 4 == 3 && i % 7 == 0) x[i] = round(x[i]); /* exact ties among the values */
    }
}

static void against_reference(void)
{
    size_t sizes[] = {6, 9, 17, 40, 75, 130};
    int perms[] = {99, 199, 999};
    int compared = 0, with_changes = 0;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (int steps = 0; steps <= 2; steps++)
            for (int v = 0; v < 4; v++) {
                size_t n = sizes[si];
                double x[130];
                series(x, n, steps, v + (int)si);
                pb_cp_opts o = {.alpha = v == 1 ? 0.05 : 0.01, .permutations = perms[(v + steps) % 3],
                                .min_size = 2 + v % 2, .seed = 1000u + (uint64_t)(si * 10 + (size_t)v)};
                size_t t1 = 0, t2 = 0;
                double q1 = pb_cp_best_split(x, n, o.min_size, &t1), q2 = ref_best_split(x, n, o.min_size, &t2);
                CHECK(t1 == t2 && fabs(q1 - q2) <= 1e-9 * (fabs(q2) + 1), "n %zu steps %d v %d: split %zu q %.17g, "
                      "reference %zu q %.17g", n, steps, v, t1, q1, t2, q2);
                pb_change a[16], b[16];
                int k1 = pb_changepoints(x, n, &o, a, 16), k2 = ref_changepoints(x, n, &o, b, 16);
                int same = k1 == k2;
                for (int i = 0; same && i < k1; i++)
                    same = a[i].index == b[i].index && a[i].p == b[i].p && fabs(a[i].q - b[i].q) <= 1e-9 * fabs(b[i].q);
                CHECK(same, "n %zu steps %d v %d: %d change(s) (first at %zu, p %g), reference %d (first at %zu, p %g)",
                      n, steps, v, k1, k1 > 0 ? a[0].index : 0, k1 > 0 ? a[0].p : 0, k2, k2 > 0 ? b[0].index : 0,
                      k2 > 0 ? b[0].p : 0);
                compared++;
                with_changes += k2 > 0;
            }
    CHECK(compared == 72 && with_changes >= 20, "%d series compared, %d with change points", compared, with_changes);

    /* a series of one value (copies of one run) has no split at all, as the reference says: its
     * sums are exactly 0, never a rounding error that a permutation test would find significant;
     * nor has a series of two values far from 0 any but the reference's */
    static double flat[400], two[400];
    for (size_t i = 0; i < 400; i++) {
        flat[i] = 89.22;
        two[i] = i % 3 ? 89.22 : 89.23;
    }
    pb_cp_opts o = {.alpha = 0.01, .permutations = 999, .min_size = 3, .seed = 20161229};
    pb_change a[16], b[16];
    size_t t = 0;
    CHECK(pb_cp_best_split(flat, 400, 3, &t) == 0 && ref_best_split(flat, 400, 3, &t) == 0, "one value: q %g",
          pb_cp_best_split(flat, 400, 3, &t));
    int k = pb_changepoints(flat, 400, &o, a, 16);
    CHECK(k == 0, "one value 400 times: %d change(s)", k);
    k = pb_changepoints(two, 400, &o, a, 16);
    int k2 = ref_changepoints(two, 400, &o, b, 16);
    CHECK(k == k2 && k == 0, "two values, no step: %d change(s), reference %d", k, k2);
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

    against_reference();
    return check_summary();
}
