/* SPDX-License-Identifier: GPL-2.0-only */
/* xts_smoke.c — the benchmark path without timing: every implementation
 * passes its selftest, and for every cell of the default grid and every impl
 * of the cell, setup_case + body(ctx, 2) + free_ctx run without an error. */
#include <stdio.h>
#include <stdlib.h>

#include "suite.h"

/* the suite's options object (suite.h), one for the whole test: options accumulate as on a command line */
static void *suite_opts;

extern const pb_suite pb_suite_xts;

int main(void)
{
    suite_opts = pb_suite_opts_new(&pb_suite_xts, NULL);
    if (!suite_opts) return 1;
    const pb_suite *s = &pb_suite_xts;
    pb_plan_opts o = { 0 };
    pb_grid g = { 0, NULL };
    pb_err e = { { 0 } };
    int cases = 0;

    if (s->plan(suite_opts, &o, &g, &e)) {
        fprintf(stderr, "plan: %s\n", e.msg);
        return 1;
    }
    for (int c = 0; c < g.ncells; c++) {
        const pb_cell *cell = &g.cells[c];
        for (int i = 0; i < cell->nimpls; i++) {
            const char *impl = cell->impls[i];
            pb_case k = { 0 };
            /* the first cell (2 x 128 bits) has every impl */
            if (c == 0 && s->selftest(suite_opts, impl, &e)) {
                fprintf(stderr, "selftest %s: %s\n", impl, e.msg);
                return 1;
            }
            if (s->setup_case(suite_opts, cell, impl, &k, &e)) {
                fprintf(stderr, "setup_case %s/%s/%llu %s: %s\n", cell->variant, cell->op,
                        (unsigned long long)cell->size_bytes, impl, e.msg);
                return 1;
            }
            k.body(k.ctx, 2);
            if (k.error_count && *k.error_count) {
                fprintf(stderr, "%s/%s/%llu %s: %llu failed operations\n", cell->variant, cell->op,
                        (unsigned long long)cell->size_bytes, impl, (unsigned long long)*k.error_count);
                return 1;
            }
            if (k.free_ctx) k.free_ctx(k.ctx);
            cases++;
        }
    }
    free(g.cells);
    printf("xts smoke: %d cells, %d cases ran\n", g.ncells, cases);
    return 0;
}
