/* SPDX-License-Identifier: GPL-2.0-only */
/* changepoint.c — E-divisive means with a permutation test (changepoint.h). */
#include "changepoint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* q(tau) = tau (n - tau) / n * (2 B / (tau (n - tau)) - WL / C(tau, 2) - WR / C(n - tau, 2)), with
 * B the sum of distances across the split and WL, WR those within each side; every sum kept
 * up to date as tau moves, so one scan is O(n^2). */
double pb_cp_best_split(const double *x, size_t n, int min_size, size_t *tau)
{
    size_t m = (size_t)(min_size < 1 ? 1 : min_size);
    if (n < 2 * m) return -1;
    double wl = 0, wr = 0, b = 0;
    /* tau = 0: everything on the right */
    for (size_t j = 0; j < n; j++)
        for (size_t k = j + 1; k < n; k++) wr += fabs(x[j] - x[k]);
    double best = -1;
    for (size_t t = 1; t + m <= n; t++) {
        /* point t-1 moves from the right side to the left */
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
        if (q > best) {
            best = q;
            *tau = t;
        }
    }
    return best;
}

static uint64_t next(uint64_t *s) /* splitmix64: a fixed, portable sequence for a fixed seed */
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* the significant split of x[lo, hi), if any, then those of both parts */
static int divide(const double *x, size_t lo, size_t hi, const pb_cp_opts *o, uint64_t *rng, double *perm,
                  pb_change *out, int cap, int *count)
{
    size_t n = hi - lo, tau = 0;
    double q = pb_cp_best_split(x + lo, n, o->min_size, &tau);
    if (q <= 0) return 0;
    int at_least = 0;
    for (int r = 0; r < o->permutations; r++) {
        memcpy(perm, x + lo, n * sizeof *perm);
        for (size_t i = n - 1; i > 0; i--) { /* Fisher-Yates */
            size_t j = (size_t)(next(rng) % (i + 1));
            double t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        size_t ignored;
        if (pb_cp_best_split(perm, n, o->min_size, &ignored) >= q) at_least++;
    }
    double p = (1.0 + at_least) / (1.0 + o->permutations);
    if (p >= o->alpha) return 0;
    if (divide(x, lo, lo + tau, o, rng, perm, out, cap, count) < 0) return -1;
    if (*count < cap) {
        pb_change *c = &out[(*count)++];
        c->index = lo + tau;
        c->q = q;
        c->p = p;
        c->before = pb_median(x + lo, tau);
        c->after = pb_median(x + lo + tau, n - tau);
    }
    return divide(x, lo + tau, hi, o, rng, perm, out, cap, count);
}

int pb_changepoints(const double *x, size_t n, const pb_cp_opts *o, pb_change *out, int cap)
{
    if (n == 0) return 0;
    double *perm = malloc(n * sizeof *perm);
    if (!perm) return -1;
    uint64_t rng = o->seed;
    int count = 0;
    int rc = divide(x, 0, n, o, &rng, perm, out, cap, &count);
    free(perm);
    return rc < 0 ? -1 : count;
}
