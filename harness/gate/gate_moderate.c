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
 * differ much (d0 small); when they agree the tests gain the df of the whole comparison. The prior's
 * fit (pb_moderate_prior) is layout_stats.c's, which a run's ratios use too. */
#include "gate.h"

#include <math.h>
#include <stdlib.h>

#include "layout_stats.h"

int pb_gate_moderate_layouts(pb_cmp_cell *cells, size_t m, const pb_gate_params *gp)
{
    /* each cell's between-unit variance of the log ratio, v = U se^2, on d = U - 1 df (U: its layouts,
     * or its function orders where the layouts are stratified) */
    size_t k = 0;
    double *v = calloc(m ? m : 1, sizeof *v), *dfs = calloc(m ? m : 1, sizeof *dfs);
    if (!v || !dfs) {
        free(v);
        free(dfs);
        return -1;
    }
    for (size_t i = 0; i < m; i++) {
        const pb_cmp_cell *c = &cells[i];
        if (c->verdict != PB_CELL_COMPARED || c->layout_units < 2 || !(c->se_log > 0) || !isfinite(c->se_log)) continue;
        dfs[k] = c->layout_units - 1;
        v[k++] = c->se_log * c->se_log * c->layout_units;
    }
    double d0, s0;
    int fitted = pb_moderate_prior(v, dfs, k, &d0, &s0) == 0;
    free(v);
    free(dfs);
    if (!fitted) return 0;   /* too few cells to fit a prior: each keeps its own t */
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
