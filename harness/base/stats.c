/* SPDX-License-Identifier: GPL-2.0-only */
#include "stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double quantile_sorted(const double *s, size_t n, double q)
{
    if (!n) return NAN;
    double h = (double)(n - 1) * q;
    size_t lo = (size_t)floor(h);
    size_t hi = lo + 1 < n ? lo + 1 : lo;
    return s[lo] + (h - (double)lo) * (s[hi] - s[lo]);
}

double pb_quantile(const double *x, size_t n, double q)
{
    if (!n) return NAN;
    double *s = malloc(n * sizeof *s);
    if (!s) return NAN;
    memcpy(s, x, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    double v = quantile_sorted(s, n, q);
    free(s);
    return v;
}

double pb_median(const double *x, size_t n) { return pb_quantile(x, n, 0.5); }

double pb_norm_cdf(double z) { return 0.5 * erfc(-z / sqrt(2.0)); }

double pb_norm_quantile(double p)
{
    static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                               1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                               6.680131188771972e+01, -1.328068155288572e+01};
    static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                               -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00};
    static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                               3.754408661907416e+00};
    if (p <= 0) return -INFINITY;
    if (p >= 1) return INFINITY;
    double q, r;
    if (p < 0.02425) {
        q = sqrt(-2 * log(p));
        return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
               ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    if (p > 1 - 0.02425) {
        q = sqrt(-2 * log(1 - p));
        return -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
               ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    q = p - 0.5;
    r = q * q;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
           (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

/* Exact null distribution of the signed-rank statistic T+ for n (no ties):
 * cdf[t] = P(T+ <= t). Returned array has M+1 entries, M = n(n+1)/2. */
#define EXACT_MAX_N 200
static double *signed_rank_cdf(size_t n)
{
    size_t M = n * (n + 1) / 2;
    double *f = calloc(M + 1, sizeof *f);
    if (!f) return NULL;
    f[0] = 1;
    size_t top = 0;
    for (size_t k = 1; k <= n; k++) {
        top += k;
        for (size_t t = top; t >= k; t--) f[t] += f[t - k];
    }
    double scale = ldexp(1.0, -(int)n), acc = 0;
    for (size_t t = 0; t <= M; t++) {
        acc += f[t] * scale;
        f[t] = acc;
    }
    return f;
}

/* Largest k such that P(T+ <= k-1) <= alpha/2, i.e. the CI is [W(k), W(M+1-k)] (1-based).
 * CI_RANK_OOM when the exact distribution cannot be allocated: falling back to the normal
 * approximation there would give another answer for the same data. */
#define CI_RANK_OOM ((size_t)-1)
static size_t ci_rank(size_t n, double conf, double *achieved)
{
    size_t M = n * (n + 1) / 2;
    double alpha = 1 - conf;
    if (n <= EXACT_MAX_N) {
        double *cdf = signed_rank_cdf(n);
        if (!cdf) return CI_RANK_OOM;
        size_t k = 0; /* number of Walsh averages cut from each end */
        while (k + 1 <= M && cdf[k] <= alpha / 2) k++;
        *achieved = k ? 1 - 2 * cdf[k - 1] : 1;
        free(cdf);
        return k;
    }
    double z = pb_norm_quantile(1 - alpha / 2);
    double sd = sqrt((double)n * (n + 1) * (2 * n + 1) / 24.0);
    double kf = floor((double)M / 2 - z * sd);
    *achieved = conf;
    return kf > 0 ? (size_t)kf : 0;
}

/* ---- order statistics of the Walsh averages without storing them ----
 * Over d sorted, the Walsh average w(i, j) = fl(d[i] + d[j]) / 2 (i <= j) is non-decreasing in i and
 * in j (rounding is monotone), so how many are <= x is one walk along the boundary of the sorted
 * matrix, O(n). The r-th smallest is the smallest double x with at least r of them <= x: a binary
 * search over the doubles' order (at most 64 walks). It is exactly the value the sorted list of all
 * n(n+1)/2 averages holds at r, computed the same way, in O(n) memory instead of O(n^2) (50,000
 * rounds needed 9.3 GiB). */

static double walsh(const double *d, size_t i, size_t j) { return (d[i] + d[j]) / 2; }

/* how many Walsh averages of sorted d are <= x */
static size_t walsh_count_le(const double *d, size_t n, double x)
{
    size_t count = 0, j = n;
    for (size_t i = 0; i < n; i++) {
        while (j > i && walsh(d, i, j - 1) > x) j--;
        if (j <= i) break;
        count += j - i;
    }
    return count;
}

/* a double's place in the order of doubles, as an unsigned integer, and back */
static uint64_t double_key(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b >> 63 ? ~b : b | (UINT64_C(1) << 63);
}

static double key_double(uint64_t k)
{
    uint64_t b = k >> 63 ? k & ~(UINT64_C(1) << 63) : ~k;
    double x;
    memcpy(&x, &b, sizeof x);
    return x;
}

/* the r-th smallest (1-based, 1 <= r <= n(n+1)/2) Walsh average of sorted, finite d */
static double walsh_select(const double *d, size_t n, size_t r)
{
    uint64_t lo = double_key(d[0]), hi = double_key(d[n - 1]);
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (walsh_count_le(d, n, key_double(mid)) >= r) hi = mid;
        else lo = mid + 1;
    }
    double x = key_double(lo);
    return x == 0 ? 0.0 : x;   /* a zero average is +0 (d[i] + -d[i]), never the key order's -0 */
}

/* R type 7 quantile q of the sorted Walsh averages, as quantile_sorted over all of them */
static double walsh_quantile(const double *d, size_t n, size_t M, double q)
{
    double h = (double)(M - 1) * q;
    size_t lo = (size_t)floor(h), hi = lo + 1 < M ? lo + 1 : lo;
    double a = walsh_select(d, n, lo + 1), b = hi == lo ? a : walsh_select(d, n, hi + 1);
    return a + (h - (double)lo) * (b - a);
}

int pb_hl_ci(const double *d, size_t n, double conf, double *est, double *lo, double *hi, double *achieved)
{
    if (n < 2) return -1;
    size_t M = n * (n + 1) / 2;
    double *s = malloc(n * sizeof *s);
    if (!s) return -2;
    memcpy(s, d, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(s[i])) {   /* no order to search: nothing to estimate */
            free(s);
            return -1;
        }
    *est = walsh_quantile(s, n, M, 0.5);
    double ach = conf;
    size_t k = ci_rank(n, conf, &ach);
    if (k == CI_RANK_OOM) {
        free(s);
        return -2;
    }
    if (k == 0) {       /* too few pairs for this confidence: the CI is unbounded */
        *lo = -INFINITY;
        *hi = INFINITY;
        ach = 1;
    } else {
        *lo = walsh_select(s, n, k);
        *hi = walsh_select(s, n, M - k + 1);
    }
    if (achieved) *achieved = ach;
    free(s);
    return 0;
}

/* a non-zero value's size and sign, sorted by size to rank them */
typedef struct signed_abs {
    double a;
    int positive;
} signed_abs;

static int cmp_abs(const void *x, const void *y)
{
    double a = ((const signed_abs *)x)->a, b = ((const signed_abs *)y)->a;
    return (a > b) - (a < b);
}

double pb_signed_rank_p(const double *d, size_t n)
{
    /* drop zeros (Wilcoxon's convention), rank |d| with midranks for ties (O(n log n): a run of
     * 50,000 rounds is ranked in milliseconds) */
    signed_abs *v = malloc((n ? n : 1) * sizeof *v);
    if (!v) return NAN;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (d[i] != 0) v[m++] = (signed_abs){fabs(d[i]), d[i] > 0};
    if (m == 0) { free(v); return 1.0; }
    qsort(v, m, sizeof *v, cmp_abs);
    double tie_term = 0, tplus = 0;
    int ties = 0;
    for (size_t i = 0; i < m;) {
        size_t j = i;
        while (j + 1 < m && v[j + 1].a == v[i].a) j++;
        double r = (double)(i + j + 2) / 2;
        for (size_t k = i; k <= j; k++)
            if (v[k].positive) tplus += r;
        double t = (double)(j - i + 1);
        if (t > 1) { ties = 1; tie_term += t * t * t - t; }
        i = j + 1;
    }
    free(v);
    double p;
    if (!ties && m <= EXACT_MAX_N) {
        double *cdf = signed_rank_cdf(m);
        if (!cdf) return NAN;
        size_t t = (size_t)llround(tplus);
        double lower = cdf[t];
        double upper = 1 - (t ? cdf[t - 1] : 0);
        p = 2 * (lower < upper ? lower : upper);
        free(cdf);
    } else {
        double mean = (double)m * (m + 1) / 4;
        double var = (double)m * (m + 1) * (2 * m + 1) / 24 - tie_term / 48;
        double z = (tplus - mean) / sqrt(var);
        double cc = 0.5 / sqrt(var); /* continuity correction */
        double az = fabs(z) - cc;
        if (az < 0) az = 0;
        p = 2 * (1 - pb_norm_cdf(az));
    }
    return p > 1 ? 1 : p;
}

int pb_paired_ratio(const double *cand, const double *base, size_t n, double conf, pb_paired *out)
{
    memset(out, 0, sizeof *out);
    double *d = malloc((n ? n : 1) * sizeof *d);
    if (!d) return -2;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (cand[i] > 0 && base[i] > 0 && isfinite(cand[i]) && isfinite(base[i])) d[m++] = log(cand[i] / base[i]);
    int rc = -1;
    if (m >= 2) {
        double est, lo, hi, ach;
        rc = pb_hl_ci(d, m, conf, &est, &lo, &hi, &ach);
        if (rc == 0) {
            out->n = m;
            out->estimate = exp(est);
            out->ci_lo = exp(lo);
            out->ci_hi = exp(hi);
            out->conf = ach;
            out->p_value = pb_signed_rank_p(d, m);
            out->median_ratio = exp(pb_median(d, m));
            if (isnan(out->p_value) || isnan(out->median_ratio)) rc = -2; /* out of memory inside */
        }
    }
    free(d);
    return rc;
}

static const pb_round_key *key_at(const pb_round_key *first, size_t i, size_t stride)
{
    return (const pb_round_key *)((const char *)first + i * stride);
}

int pb_pair_by_round(const pb_round_key *a, size_t na, size_t stride_a, const pb_round_key *b, size_t nb,
                     size_t stride_b, int (*on_pair)(void *ctx, size_t i, size_t j), void *ctx)
{
    /* both lists sorted by (round, rep): merge on equal keys */
    for (size_t x = 0, y = 0; x < na && y < nb;) {
        const pb_round_key *ka = key_at(a, x, stride_a), *kb = key_at(b, y, stride_b);
        if (ka->round == kb->round && ka->rep == kb->rep) {
            int rc = on_pair(ctx, x++, y++);
            if (rc) return rc;
        } else if (ka->round < kb->round || (ka->round == kb->round && ka->rep < kb->rep)) x++;
        else y++;
    }
    return 0;
}
