/* SPDX-License-Identifier: GPL-2.0-only */
/* cell_ratio.c — a cell's headline ratio (cell_ratio.h). */
#include "cell_ratio.h"

#include <stdlib.h>

/* the headline across layouts (layout_stats.h); median_ratio stays the pairs' plain median */
static void headline_from_layouts(pb_cell_ratio *r)
{
    r->pr.estimate = r->lr.estimate;
    r->pr.ci_lo = r->lr.ci_lo;
    r->pr.ci_hi = r->lr.ci_hi;
    r->pr.p_value = r->lr.p_value;
}

int pb_cell_ratio_of(const pb_keyed_layout *c, size_t nc, const pb_keyed_layout *b, size_t nb, int layouts,
                     pb_cell_ratio *out)
{
    int rc = pb_paired_ratio_by_layout(c, nc, b, nb, layouts, PB_CELL_RATIO_CONF, &out->pr, &out->lr, &out->across);
    if (rc == 0 && out->across) {
        headline_from_layouts(out);
        out->pr.conf = PB_CELL_RATIO_CONF;
    }
    return rc;
}

int pb_cell_ratio_two_way(const pb_cell_ratio *r)
{
    return r->across && r->lr.blocks > 0;
}

int pb_cell_ratios_moderate(pb_cell_ratio *const *r, size_t k)
{
    double *v = calloc(k ? k : 1, sizeof *v), *df = calloc(k ? k : 1, sizeof *df);
    int rc = v && df ? 0 : -2;
    size_t m = 0;
    for (size_t i = 0; i < k && rc == 0; i++)
        if (pb_cell_ratio_two_way(r[i])) {
            v[m] = r[i]->lr.se_log * r[i]->lr.se_log;
            df[m++] = r[i]->lr.df;
        }
    double d0, s0;
    if (rc == 0 && pb_moderate_prior(v, df, m, &d0, &s0) == 0)
        for (size_t i = 0; i < k; i++)
            if (pb_cell_ratio_two_way(r[i])) {
                pb_layout_moderate(&r[i]->lr, d0, s0, (int)m, PB_CELL_RATIO_CONF);
                headline_from_layouts(r[i]);
            }
    free(v);
    free(df);
    return rc;
}
