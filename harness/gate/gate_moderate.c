/* SPDX-License-Identifier: GPL-2.0-only */
/* gate_moderate.c — the between-layout variances of a comparison's cells, moderated (gate.h
 * pb_gate_moderate_layouts).
 *
 * A cell across L code layouts has L - 1 degrees of freedom for its variance: 7 with 8 layouts. At
 * Holm's strictest level over a commit gate's 200 cells (alpha/2m ~ 1e-4) Student's t with 7 df is
 * about 7.0 where the normal is 3.7, so the gate could not find a 5 % slowdown that it measured.
 * The cells of one comparison share the machine and its placement noise, so their variances are
 * estimated together: the empirical-Bayes moderated t of Smyth ("Linear models and empirical Bayes
 * methods for assessing differential expression in microarray experiments", 2004; limma's eBayes):
 * a prior variance s0^2 with d0 degrees of freedom fitted to the cells' variances (a scaled F
 * distribution, by moments of log s^2), each cell's variance then (d0 s0^2 + d s^2)/(d0 + d) with
 * d0 + d degrees of freedom. A cell whose own variance is large keeps most of it when the cells
 * differ much (d0 small); when they agree the tests gain the df of the whole comparison. */
#include "gate.h"

#include <math.h>
#include <stdlib.h>

#include "layout_stats.h"

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

int pb_gate_moderate_layouts(pb_cmp_cell *cells, size_t m, const pb_gate_params *gp)
{
    /* each cell's between-unit variance of the log ratio, v = U se^2, on d = U - 1 df (U: its layouts,
     * or its function orders where the layouts are stratified) */
    size_t k = 0;
    double *e = malloc((m ? m : 1) * sizeof *e);
    if (!e) return -1;
    double tri = 0, mean = 0;
    for (size_t i = 0; i < m; i++) {
        const pb_cmp_cell *c = &cells[i];
        if (c->verdict != PB_CELL_COMPARED || c->layout_units < 2 || !(c->se_log > 0) || !isfinite(c->se_log)) continue;
        double d = c->layout_units - 1, v = c->se_log * c->se_log * c->layout_units;
        e[k] = log(v) - digamma(d / 2) + log(d / 2);
        mean += e[k++];
        tri += trigamma(d / 2);
    }
    if (k < 5) { free(e); return 0; }   /* too few cells to fit a prior: each keeps its own t */
    mean /= (double)k;
    tri /= (double)k;
    double var = 0;
    for (size_t i = 0; i < k; i++) var += (e[i] - mean) * (e[i] - mean);
    var = var / (double)(k - 1) - tri;
    free(e);
    /* d0 = infinity (var <= 0: the cells agree beyond what their df allow): capped, which is a normal */
    double d0 = var > 0 ? 2 * trigamma_inverse(var) : 1e6, s0 = 0;
    if (d0 > 1e6) d0 = 1e6;
    s0 = exp(mean + digamma(d0 / 2) - log(d0 / 2));
    double level = gp->alpha / (double)(m ? m : 1);
    for (size_t i = 0; i < m; i++) {
        pb_cmp_cell *c = &cells[i];
        if (c->verdict != PB_CELL_COMPARED || c->layout_units < 2 || !(c->se_log > 0) || !isfinite(c->se_log)) continue;
        double d = c->layout_units - 1, v = c->se_log * c->se_log * c->layout_units;
        double vm = (d0 * s0 + d * v) / (d0 + d), df = d0 + d;
        double se = sqrt(vm / c->layout_units), mu = log(c->ratio);
        double tq = pb_t_quantile(0.5 + gp->conf / 2, df);
        c->se_log = se;
        c->ci_lo = exp(mu - tq * se);
        c->ci_hi = exp(mu + tq * se);
        c->p = 2 * pb_t_cdf(-fabs(mu) / se, df);
        c->mdc = expm1((pb_t_quantile(1 - level / 2, df) + pb_t_quantile(gp->power, df)) * se);
        c->layout_df = df;
    }
    return 0;
}
