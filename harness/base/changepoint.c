/* SPDX-License-Identifier: GPL-2.0-only */
/* changepoint.c — E-divisive means with a permutation test (changepoint.h). */
#include "changepoint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* A series sorted once: each value's rank (ties broken by position, so ranks are distinct) and
 * its summed distance to every value of the series, both of which a permutation keeps. */
typedef struct cp_sorted {
    size_t n;
    size_t *rank;     /* rank[i]: the rank of x[i] */
    double *dist;     /* dist[r]: sum over all j of |v_r - x_j|, v_r the value of rank r */
    double total;     /* the sum of |x_i - x_j| over all pairs i < j */
    double low;       /* the lowest value: every value is taken less it, so that equal values give
                       * distances of exactly 0 (89.22 * 1,000 less a sum of 89.22s is not 0) */
    double *fen_n, *fen_s; /* Fenwick trees over ranks: how many values, and their sum, so far */
} cp_sorted;

typedef struct cp_key {
    double v;
    size_t i;
} cp_key;

static int by_value(const void *a, const void *b)
{
    const cp_key *x = a, *y = b;
    if (x->v != y->v) return x->v < y->v ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

static void cp_sorted_free(cp_sorted *s)
{
    free(s->rank);
    free(s->dist);
    free(s->fen_n);
    free(s->fen_s);
    memset(s, 0, sizeof *s);
}

/* O(n log n): the sort, then each value's distances to all from prefix sums of the sorted values */
static int cp_sorted_init(cp_sorted *s, const double *x, size_t n)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    cp_key *k = malloc((n ? n : 1) * sizeof *k);
    s->rank = malloc((n ? n : 1) * sizeof *s->rank);
    s->dist = malloc((n ? n : 1) * sizeof *s->dist);
    s->fen_n = malloc((n + 1) * sizeof *s->fen_n);
    s->fen_s = malloc((n + 1) * sizeof *s->fen_s);
    if (!k || !s->rank || !s->dist || !s->fen_n || !s->fen_s) {
        free(k);
        cp_sorted_free(s);
        return -1;
    }
    for (size_t i = 0; i < n; i++) k[i] = (cp_key){x[i], i};
    qsort(k, n, sizeof *k, by_value);
    double all = 0, below = 0;
    s->low = n ? k[0].v : 0;
    for (size_t r = 0; r < n; r++) all += k[r].v - s->low;
    for (size_t r = 0; r < n; r++) {
        s->rank[k[r].i] = r;
        double v = k[r].v - s->low, above = all - below - v;
        s->dist[r] = (v * (double)r - below) + (above - v * (double)(n - 1 - r));
        below += v;
    }
    double t = 0;
    for (size_t r = 0; r < n; r++) t += s->dist[r];
    s->total = t / 2;
    free(k);
    return 0;
}

/* q(tau) = tau (n - tau) / n * (2 B / (tau (n - tau)) - WL / C(tau, 2) - WR / C(n - tau, 2)), with
 * B the sum of distances across the split and WL, WR those within each side. As tau moves right,
 * point p = tau - 1 joins the left: its distance to the points left of it comes from the Fenwick
 * trees over the ranks seen so far (O(log n)), its distance to those right of it is its distance to
 * all less that. One scan is O(n log n). x[i] has rank rank[i] in s. */
static double best_split_sorted(cp_sorted *s, const double *x, const size_t *rank, int min_size, size_t *tau)
{
    size_t n = s->n, m = (size_t)(min_size < 1 ? 1 : min_size);
    if (n < 2 * m) return -1;
    memset(s->fen_n, 0, (n + 1) * sizeof *s->fen_n);
    memset(s->fen_s, 0, (n + 1) * sizeof *s->fen_s);
    double wl = 0, wr = s->total, b = 0, seen = 0;
    /* statistics closer than this are equal: a sum's rounding depends on the order it is added in */
    double tie = 1e-9 * s->total / (double)n;
    double best = -1;
    for (size_t t = 1; t + m <= n; t++) {
        size_t p = t - 1, r = rank[p];
        double cnt = 0, sum = 0; /* the points left of p with a lower rank */
        for (size_t i = r; i > 0; i -= i & (~i + 1)) {
            cnt += s->fen_n[i];
            sum += s->fen_s[i];
        }
        double left = (double)p, v = x[p] - s->low;
        double to_left = (v * cnt - sum) + ((seen - sum) - v * (left - cnt));
        double to_right = s->dist[r] - to_left;
        for (size_t i = r + 1; i <= n; i += i & (~i + 1)) {
            s->fen_n[i] += 1;
            s->fen_s[i] += v;
        }
        seen += v;
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

double pb_cp_best_split(const double *x, size_t n, int min_size, size_t *tau)
{
    cp_sorted s;
    if (cp_sorted_init(&s, x, n) < 0) return -1;
    double q = best_split_sorted(&s, x, s.rank, min_size, tau);
    cp_sorted_free(&s);
    return q;
}

static uint64_t next(uint64_t *s) /* splitmix64: a fixed, portable sequence for a fixed seed */
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL); /* GOLDEN below: perm_count skips draws by it */
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

#define GOLDEN 0x9e3779b97f4a7c15ULL

/* The permutation test of the split q of x[0..n-1] (sorted in s): how many of o->permutations
 * shuffles split at least as well. It stops as soon as the count alone makes p >= alpha (the
 * answer cannot change), and moves the generator on as the shuffles left would have, so the
 * tests after it draw what they would have drawn. perm and prank: n values and ranks of room. */
static int perm_count(cp_sorted *s, const double *x, double q, const pb_cp_opts *o, uint64_t *rng, double *perm,
                      size_t *prank)
{
    size_t n = s->n;
    double tie = 1e-9 * s->total / (double)n;
    int at_least = 0;
    for (int r = 0; r < o->permutations; r++) {
        if ((1.0 + at_least) / (1.0 + o->permutations) >= o->alpha) {
            *rng += GOLDEN * (uint64_t)(o->permutations - r) * (uint64_t)(n - 1);
            return at_least;
        }
        memcpy(perm, x, n * sizeof *perm);
        memcpy(prank, s->rank, n * sizeof *prank);
        for (size_t i = n - 1; i > 0; i--) { /* Fisher-Yates, values and their ranks together */
            size_t j = (size_t)(next(rng) % (i + 1));
            double t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
            size_t u = prank[i];
            prank[i] = prank[j];
            prank[j] = u;
        }
        size_t ignored;
        if (best_split_sorted(s, perm, prank, o->min_size, &ignored) >= q - tie) at_least++;
    }
    return at_least;
}

/* the significant split of x[lo, hi), if any, then those of both parts */
static int divide(const double *x, size_t lo, size_t hi, const pb_cp_opts *o, uint64_t *rng, double *perm,
                  size_t *prank, pb_change *out, int cap, int *count)
{
    size_t n = hi - lo, tau = 0;
    if (n < 2) return 0;
    cp_sorted s;
    if (cp_sorted_init(&s, x + lo, n) < 0) return -1;
    double q = best_split_sorted(&s, x + lo, s.rank, o->min_size, &tau);
    int at_least = q > 0 ? perm_count(&s, x + lo, q, o, rng, perm, prank) : 0;
    cp_sorted_free(&s);
    if (q <= 0) return 0;
    double p = (1.0 + at_least) / (1.0 + o->permutations);
    if (p >= o->alpha) return 0;
    if (divide(x, lo, lo + tau, o, rng, perm, prank, out, cap, count) < 0) return -1;
    if (*count < cap) {
        pb_change *c = &out[(*count)++];
        c->index = lo + tau;
        c->q = q;
        c->p = p;
        c->before = pb_median(x + lo, tau);
        c->after = pb_median(x + lo + tau, n - tau);
    }
    return divide(x, lo + tau, hi, o, rng, perm, prank, out, cap, count);
}

int pb_changepoints(const double *x, size_t n, const pb_cp_opts *o, pb_change *out, int cap)
{
    if (n == 0) return 0;
    double *perm = malloc(n * sizeof *perm);
    size_t *prank = malloc(n * sizeof *prank);
    if (!perm || !prank) {
        free(perm);
        free(prank);
        return -1;
    }
    uint64_t rng = o->seed;
    int count = 0;
    int rc = divide(x, 0, n, o, &rng, perm, prank, out, cap, &count);
    free(perm);
    free(prank);
    return rc < 0 ? -1 : count;
}
