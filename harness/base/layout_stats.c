/* SPDX-License-Identifier: GPL-2.0-only */
/* layout_stats.c — ratios across code layouts (layout_stats.h). */
#include "layout_stats.h"

#include <math.h>
#include <stdlib.h>

#include "pb_config.h"

int pb_layout_strata(void) { return PB_LAYOUT_SHUFFLE ? PB_LAYOUT_SHIFTS : 0; }

/* The regularised incomplete beta I_x(a, b) by Lentz's continued fraction (Numerical Recipes'
 * betacf), accurate to ~1e-12 where it converges (it is used where x < (a + 1)/(a + b + 2)). */
static double beta_cf(double a, double b, double x)
{
    const double tiny = 1e-300;
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    if (fabs(d) < tiny) d = tiny;
    d = 1 / d;
    double h = d;
    for (int m = 1; m <= 300; m++) {
        double m2 = 2.0 * m;
        double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
        d = 1 + aa * d;
        if (fabs(d) < tiny) d = tiny;
        c = 1 + aa / c;
        if (fabs(c) < tiny) c = tiny;
        d = 1 / d;
        h *= d * c;
        aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
        d = 1 + aa * d;
        if (fabs(d) < tiny) d = tiny;
        c = 1 + aa / c;
        if (fabs(c) < tiny) c = tiny;
        d = 1 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1) < 1e-14) break;
    }
    return h;
}

static double inc_beta(double a, double b, double x)
{
    if (x <= 0) return 0;
    if (x >= 1) return 1;
    double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
    if (x < (a + 1) / (a + b + 2)) return exp(lbt) * beta_cf(a, b, x) / a;
    return 1 - exp(lbt) * beta_cf(b, a, 1 - x) / b;
}

double pb_t_cdf(double t, double df)
{
    if (isnan(t)) return NAN;
    double x = df / (df + t * t);
    double tail = 0.5 * inc_beta(df / 2, 0.5, x);   /* P(T > |t|) */
    return t > 0 ? 1 - tail : tail;
}

double pb_t_quantile(double p, double df)
{
    if (!(p > 0 && p < 1)) return p == 1 ? INFINITY : p == 0 ? -INFINITY : NAN;
    /* bisection on the CDF: monotone, and 200 halvings of [-1e6, 1e6] are far below 1e-9 */
    double lo = -1e6, hi = 1e6;
    for (int i = 0; i < 200; i++) {
        double mid = 0.5 * (lo + hi);
        if (pb_t_cdf(mid, df) < p) lo = mid;
        else hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* The means of the complete orders (every one of their strata layouts counts) into m: how many, or
 * 0 when some counted layout is in an incomplete order (then the layouts are independent draws). */
static int order_means(const pb_layout_ratio *out, int strata, double *m)
{
    int g = 0;
    for (int k = 0; strata > 0 && (k + 1) * strata <= PB_STATS_MAX_LAYOUTS; k++) {
        int have = 0;
        double sum = 0;
        for (int r = 0; r < strata; r++) {
            double q = out->per_layout[k * strata + r];
            if (isfinite(q)) { have++; sum += log(q); }
        }
        if (have == 0) continue;
        if (have < strata) return 0;
        m[g++] = sum / strata;
    }
    return g;
}

int pb_layout_ratio_of(const double *d, const int *layout, size_t n, double conf, int strata, pb_layout_ratio *out)
{
    *out = (pb_layout_ratio){0};
    out->lo = out->hi = out->estimate = out->ci_lo = out->ci_hi = out->p_value = out->se_log = NAN;
    for (int l = 0; l < PB_STATS_MAX_LAYOUTS; l++) out->per_layout[l] = NAN;
    double *v = malloc((n ? n : 1) * sizeof *v);
    if (!v) return -2;
    double q[PB_STATS_MAX_LAYOUTS];
    int k = 0;
    for (int l = 0; l < PB_STATS_MAX_LAYOUTS; l++) {
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (layout[i] == l && isfinite(d[i])) v[m++] = d[i];
        out->n_per_layout[l] = m;
        if (m < PB_LAYOUT_MIN_PAIRS) continue;
        double est, lo, hi, ach;
        if (m == 1)
            est = v[0];   /* the Hodges-Lehmann estimate of one pair: its one Walsh average */
        else if (pb_hl_ci(v, m, conf, &est, &lo, &hi, &ach) < 0)
            continue;
        out->per_layout[l] = exp(est);
        q[k++] = est;
        if (k == 1 || exp(est) < out->lo) out->lo = exp(est);
        if (k == 1 || exp(est) > out->hi) out->hi = exp(est);
    }
    free(v);
    out->nlayouts = k;
    if (k < 2) return 1;
    /* the units of the CI: the orders' means where the layouts are stratified, else the layouts */
    double om[PB_STATS_MAX_LAYOUTS];
    int g = order_means(out, strata, om);
    out->stratified = g >= PB_LAYOUT_MIN_ORDERS;
    const double *u = out->stratified ? om : q;
    int nu = out->stratified ? g : k;
    double mean = 0, ss = 0;
    for (int i = 0; i < nu; i++) mean += u[i];
    mean /= nu;
    for (int i = 0; i < nu; i++) ss += (u[i] - mean) * (u[i] - mean);
    double se = sqrt(ss / (nu - 1) / nu);
    double tq = pb_t_quantile(0.5 + conf / 2, nu - 1);
    out->units = nu;
    out->df = nu - 1;
    out->se_log = se;
    out->estimate = exp(mean);
    out->ci_lo = exp(mean - tq * se);
    out->ci_hi = exp(mean + tq * se);
    out->p_value = se > 0 ? 2 * pb_t_cdf(-fabs(mean) / se, nu - 1) : (mean == 0 ? 1 : 0);
    return 0;
}

int pb_layout_poststratify(pb_layout_ratio *lr, int strata, double conf)
{
    if (strata <= 1 || lr->nlayouts < 2 || !(lr->se_log >= 0)) return 0;
    double sum = 0;
    int have = 0;
    for (int r = 0; r < strata; r++) {
        double s = 0;
        int k = 0;
        for (int l = r; l < PB_STATS_MAX_LAYOUTS; l += strata)
            if (isfinite(lr->per_layout[l])) { s += log(lr->per_layout[l]); k++; }
        if (k) { sum += s / k; have++; }
    }
    if (!have) return 0;
    double mean = sum / have, se = lr->se_log, tq = pb_t_quantile(0.5 + conf / 2, lr->df);
    lr->estimate = exp(mean);
    lr->ci_lo = exp(mean - tq * se);
    lr->ci_hi = exp(mean + tq * se);
    lr->p_value = se > 0 ? 2 * pb_t_cdf(-fabs(mean) / se, lr->df) : (mean == 0 ? 1 : 0);
    return 1;
}

typedef struct layout_pairs {
    const pb_keyed_layout *c, *b;
    double *cv, *bv, *d;
    int *layout;
    size_t n;
} layout_pairs;

static int push_pair(void *ctx, size_t i, size_t j)
{
    layout_pairs *p = ctx;
    p->cv[p->n] = p->c[i].value;
    p->bv[p->n] = p->b[j].value;
    p->d[p->n] = p->c[i].value > 0 && p->b[j].value > 0 ? log(p->c[i].value / p->b[j].value) : NAN;
    /* one round, one layout: the two sides share it (runner.c) */
    p->layout[p->n] = p->c[i].layout;
    p->n++;
    return 0;
}

int pb_paired_ratio_by_layout(const pb_keyed_layout *c, size_t nc, const pb_keyed_layout *b, size_t nb, double conf,
                              pb_paired *pr, pb_layout_ratio *lr, int *across)
{
    size_t cap = (nc < nb ? nc : nb) + 1;
    layout_pairs p = {c, b, malloc(cap * sizeof(double)), malloc(cap * sizeof(double)), malloc(cap * sizeof(double)),
                      malloc(cap * sizeof(int)), 0};
    int rc = -2;
    *across = 0;
    if (p.cv && p.bv && p.d && p.layout) {
        if (nc && nb) pb_pair_by_round(&c[0].key, nc, sizeof *c, &b[0].key, nb, sizeof *b, push_pair, &p);
        for (size_t i = 0; i < p.n; i++)
            if (p.layout[i] < 0 || p.layout[i] >= PB_STATS_MAX_LAYOUTS) p.layout[i] = 0;
        rc = pb_paired_ratio(p.cv, p.bv, p.n, conf, pr);
        /* two implementations: the layouts count as draws (layout_stats.h), their mean taken over the
         * shifts' strata, which a design with a layout short of pairs keeps balanced */
        int lrc = pb_layout_ratio_of(p.d, p.layout, p.n, conf, 0, lr);
        if (lrc == -2) rc = -2;
        if (lrc == 0) pb_layout_poststratify(lr, pb_layout_strata(), conf);
        *across = lrc == 0;
    }
    free(p.cv);
    free(p.bv);
    free(p.d);
    free(p.layout);
    return rc;
}
