/* SPDX-License-Identifier: GPL-2.0-only */
/* layout_stats.c — ratios across code layouts (layout_stats.h). */
#include "layout_stats.h"

#include <math.h>
#include <stdio.h>
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
    /* bisection on the CDF (monotone) until the bracket is 1e-12 of the quantile: about 60 of the
     * CDF's continued fractions, where a fixed 200 halvings spent most of a gate's time here */
    double lo = -1e6, hi = 1e6;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * fmax(1, fmin(fabs(lo), fabs(hi))); i++) {
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

/* The time part of a two-way CI: each pair's residual from its layout's ratio, averaged per time block
 * (blocks with pairs of at least half the k layouts that count: a make-up pass's few rounds are
 * not a block); the variance of the mean of the nb block means into *var. 0, -1 when fewer than 2
 * blocks, -2 when out of memory. */
static int time_part(const double *d, const int *layout, const int *block, size_t n, const pb_layout_ratio *out,
                     int k, double *var, int *nb)
{
    int maxb = -1;
    for (size_t i = 0; i < n; i++)
        if (block[i] > maxb) maxb = block[i];
    if (maxb < 1) return -1;
    double *sum = calloc((size_t)maxb + 1, sizeof *sum), *m = calloc((size_t)maxb + 1, sizeof *m);
    int *cnt = calloc((size_t)maxb + 1, sizeof *cnt);
    int rc = -2;
    if (sum && m && cnt) {
        rc = -1;
        for (size_t i = 0; i < n; i++) {
            if (block[i] < 0 || !isfinite(d[i])) continue;
            double q = out->per_layout[layout[i]];
            if (!isfinite(q)) continue;
            sum[block[i]] += d[i] - log(q);
            cnt[block[i]]++;
        }
        double mean = 0, ss = 0;
        int g = 0;
        for (int b = 0; b <= maxb; b++)
            if (cnt[b] > 0 && 2 * cnt[b] >= k) m[g++] = sum[b] / cnt[b];
        for (int i = 0; i < g; i++) mean += m[i];
        if (g >= 2) {
            mean /= g;
            for (int i = 0; i < g; i++) ss += (m[i] - mean) * (m[i] - mean);
            *var = ss / (g - 1) / g;
            *nb = g;
            rc = 0;
        }
    }
    free(sum);
    free(m);
    free(cnt);
    return rc;
}

int pb_layout_ratio_of(const double *d, const int *layout, const int *block, size_t n, double conf, int strata,
                       pb_layout_ratio *out)
{
    *out = (pb_layout_ratio){0};
    out->lo = out->hi = out->estimate = out->ci_lo = out->ci_hi = out->p_value = out->se_log = NAN;
    out->se_order = out->se_time = NAN;
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
    double vt = 0;
    int nb = 0;
    /* with blocks given (two implementations), the orders only with the time part beside them: where
     * it cannot be had (one block: --quick), the layouts as draws, which take it in */
    if (out->stratified && block) {
        int trc = time_part(d, layout, block, n, out, k, &vt, &nb);
        if (trc == -2) return -2;
        if (trc != 0) out->stratified = 0;
    }
    const double *u = out->stratified ? om : q;
    int nu = out->stratified ? g : k;
    double mean = 0, ss = 0;
    for (int i = 0; i < nu; i++) mean += u[i];
    mean /= nu;
    for (int i = 0; i < nu; i++) ss += (u[i] - mean) * (u[i] - mean);
    double var = ss / (nu - 1) / nu, df = nu - 1;
    if (nb) {
        /* two crossed random factors, the function order and the time block: the mean's variance is
         * the sum of the two parts (pair noise counted in both), Welch-Satterthwaite's df */
        out->se_order = sqrt(var);
        out->se_time = sqrt(vt);
        out->blocks = nb;
        double tot = var + vt;
        df = tot > 0 ? tot * tot / (var * var / (nu - 1) + vt * vt / (nb - 1)) : nu - 1;
        var = tot;
    }
    double se = sqrt(var);
    double tq = pb_t_quantile(0.5 + conf / 2, df);
    out->units = nu;
    out->df = df;
    out->se_log = se;
    out->estimate = exp(mean);
    out->ci_lo = exp(mean - tq * se);
    out->ci_hi = exp(mean + tq * se);
    out->p_value = se > 0 ? 2 * pb_t_cdf(-fabs(mean) / se, df) : (mean == 0 ? 1 : 0);
    return 0;
}

static double digamma(double x)
{
    double r = 0;
    for (; x < 6; x += 1) r -= 1 / x;
    double f = 1 / (x * x);
    return r + log(x) - 0.5 / x - f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f / 240)));
}

static double trigamma(double x)
{
    double r = 0;
    for (; x < 6; x += 1) r += 1 / (x * x);
    double f = 1 / (x * x);
    return r + 1 / x + f / 2 + f / x * (1.0 / 6 - f * (1.0 / 30 - f * (1.0 / 42 - f / 30)));
}

/* y with trigamma(y) = v (trigamma falls from +inf to 0): bisection in log y */
static double trigamma_inverse(double v)
{
    double lo = -30, hi = 30;
    for (int i = 0; i < 200; i++) {
        double mid = 0.5 * (lo + hi);
        if (trigamma(exp(mid)) > v) lo = mid;
        else hi = mid;
    }
    return exp(0.5 * (lo + hi));
}

int pb_moderate_prior(const double *v, const double *df, size_t k, double *d0, double *s0)
{
    if (k < 5) return 1;
    double mean = 0, tri = 0, ss = 0;
    for (size_t i = 0; i < k; i++) {
        if (!(v[i] > 0) || !isfinite(v[i]) || !(df[i] > 0)) return 1;
        mean += log(v[i]) - digamma(df[i] / 2) + log(df[i] / 2);
        tri += trigamma(df[i] / 2);
    }
    mean /= (double)k;
    tri /= (double)k;
    for (size_t i = 0; i < k; i++) {
        double e = log(v[i]) - digamma(df[i] / 2) + log(df[i] / 2) - mean;
        ss += e * e;
    }
    double var = ss / (double)(k - 1) - tri;
    /* var <= 0: the cells agree beyond what their df allow: d0 capped, which is a normal */
    *d0 = var > 0 ? 2 * trigamma_inverse(var) : 1e6;
    if (*d0 > 1e6) *d0 = 1e6;
    *s0 = exp(mean + digamma(*d0 / 2) - log(*d0 / 2));
    return 0;
}

void pb_layout_moderate(pb_layout_ratio *lr, double d0, double s0, int cells, double conf)
{
    if (!(lr->se_log > 0) || !isfinite(lr->se_log) || !(lr->df > 0)) return;
    double v = lr->se_log * lr->se_log, df = d0 + lr->df;
    double se = sqrt((d0 * s0 + lr->df * v) / df), mu = log(lr->estimate);
    double tq = pb_t_quantile(0.5 + conf / 2, df);
    lr->se_log = se;
    lr->df = df;
    lr->ci_lo = exp(mu - tq * se);
    lr->ci_hi = exp(mu + tq * se);
    lr->p_value = 2 * pb_t_cdf(-fabs(mu) / se, df);
    lr->moderated = cells;
}

void pb_layout_ci_words(const pb_layout_ratio *lr, char *buf, size_t cap)
{
    int k;
    if (lr->blocks)
        k = snprintf(buf, cap, "Student t CI over the %d function orders' and the %d time blocks' means (two crossed "
                     "random factors)", lr->units, lr->blocks);
    else if (lr->stratified)
        k = snprintf(buf, cap, "Student t CI over the %d function orders' means", lr->units);
    else
        k = snprintf(buf, cap, "Student t CI over the %d layouts as draws", lr->units);
    if (k > 0 && (size_t)k < cap && lr->moderated)
        k += snprintf(buf + k, cap - k, ", its variance moderated over the %d cells of the comparison", lr->moderated);
    /* a prior fitted with d0 capped (the cells agree beyond what their df allow) is a normal quantile */
    if (k > 0 && (size_t)k < cap)
        snprintf(buf + k, cap - k, lr->df >= 1000 ? " (a normal quantile: over 1000 df)" : " (%.1f df)", lr->df);
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
    int *layout, *block;   /* block: the pair's round until pb_paired_ratio_by_layout makes it a block */
    size_t n;
} layout_pairs;

static int push_pair(void *ctx, size_t i, size_t j)
{
    layout_pairs *p = ctx;
    p->cv[p->n] = p->c[i].value;
    p->bv[p->n] = p->b[j].value;
    p->d[p->n] = p->c[i].value > 0 && p->b[j].value > 0 ? log(p->c[i].value / p->b[j].value) : NAN;
    /* one round, one layout: the two sides share it (run/passes.c) */
    p->layout[p->n] = p->c[i].layout;
    p->block[p->n] = p->c[i].key.round;
    p->n++;
    return 0;
}

int pb_paired_ratio_by_layout(const pb_keyed_layout *c, size_t nc, const pb_keyed_layout *b, size_t nb, int layouts,
                              double conf, pb_paired *pr, pb_layout_ratio *lr, int *across)
{
    size_t cap = (nc < nb ? nc : nb) + 1;
    layout_pairs p = {c, b, malloc(cap * sizeof(double)), malloc(cap * sizeof(double)), malloc(cap * sizeof(double)),
                      malloc(cap * sizeof(int)), malloc(cap * sizeof(int)), 0};
    int rc = -2;
    *across = 0;
    if (p.cv && p.bv && p.d && p.layout && p.block) {
        if (nc && nb) pb_pair_by_round(&c[0].key, nc, sizeof *c, &b[0].key, nb, sizeof *b, push_pair, &p);
        int L = layouts;
        for (size_t i = 0; i < p.n; i++) {
            if (p.layout[i] < 0 || p.layout[i] >= PB_STATS_MAX_LAYOUTS) p.layout[i] = 0;
            if (layouts <= 0 && p.layout[i] + 1 > L) L = p.layout[i] + 1;
        }
        /* the runner draws each block of L rounds as a permutation of the L layouts: a time window */
        for (size_t i = 0; i < p.n; i++) p.block[i] = L > 0 && p.block[i] >= 0 ? p.block[i] / L : -1;
        rc = pb_paired_ratio(p.cv, p.bv, p.n, conf, pr);
        /* two implementations: over the orders and the time blocks where the layouts are stratified
         * (layout_stats.h), else the layouts as draws; the mean taken over the shifts' strata, which a
         * design with a layout short of pairs keeps balanced */
        int lrc = pb_layout_ratio_of(p.d, p.layout, p.block, p.n, conf, pb_layout_strata(), lr);
        if (lrc == -2) rc = -2;
        if (lrc == 0) pb_layout_poststratify(lr, pb_layout_strata(), conf);
        *across = lrc == 0;
    }
    free(p.cv);
    free(p.bv);
    free(p.d);
    free(p.layout);
    free(p.block);
    return rc;
}
