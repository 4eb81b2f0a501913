/* SPDX-License-Identifier: GPL-2.0-only */
/* sim.c — see sim.h */
#include "sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double uniform(pb_rng *r) { return ((double)(pb_rng_next(r) >> 11) + 0.5) * 0x1p-53; }

static double normal(pb_rng *r)
{
    return sqrt(-2 * log(uniform(r))) * cos(2 * M_PI * uniform(r));
}

/* the cost factor of one sample, and the core state after it */
static double sample(pb_rng *r, const sim_noise *nm, int *slow)
{
    static const double speed[2] = {1.0, 3.11 / 1.67};
    double f = speed[*slow];
    if (uniform(r) < nm->flip) {
        double part = uniform(r);
        *slow ^= 1;
        f = part * f + (1 - part) * speed[*slow];
    }
    f *= exp(nm->jitter * normal(r));
    if (uniform(r) < nm->outlier) f *= 1 - 0.3 * log(uniform(r));
    return f;
}

typedef struct cellbuf {
    double *a, *b;
    signed char *o;
    size_t n, cap;
} cellbuf;

static void add_rounds(pb_rng *r, const sim_noise *nm, double shift, int rounds, cellbuf *c, int *slow)
{
    if (c->n + (size_t)rounds > c->cap) {
        c->cap = c->n + (size_t)rounds;
        c->a = realloc(c->a, c->cap * sizeof *c->a);
        c->b = realloc(c->b, c->cap * sizeof *c->b);
        c->o = realloc(c->o, c->cap);
    }
    for (int k = 0; k < rounds; k++) {
        int a_first = (k % 2) == 0;   /* the runner rotates the start every round */
        double first = sample(r, nm, slow), second = sample(r, nm, slow) * (1 + nm->order);
        double a = 100 * (a_first ? first : second), b = 100 * shift * (a_first ? second : first);
        c->a[c->n] = a;
        c->b[c->n] = b;
        c->o[c->n] = a_first ? 1 : -1;
        c->n++;
    }
}

int sim_run_gate(pb_rng *rng, const sim_noise *nm, const sim_gate *g, pb_cmp_cell *cells)
{
    pb_gate_params gp = pb_gate_look_params(PB_GATE_DEFAULTS, g->reruns);
    cellbuf *cb = calloc(g->ncells, sizeof *cb);
    int *rerun = calloc(g->ncells, sizeof *rerun), slow = 0;
    for (size_t i = 0; i < g->ncells; i++) rerun[i] = 1;
    int rounds = g->rounds, status = 0;
    for (int pass = 0;; pass++) {
        for (size_t i = 0; i < g->ncells; i++)
            if (rerun[i]) add_rounds(rng, nm, g->shift[i], rounds, &cb[i], &slow);
        for (size_t i = 0; i < g->ncells; i++) {
            memset(&cells[i], 0, sizeof cells[i]);
            pb_cmp_cell_stats(&cells[i], cb[i].b, cb[i].a, g->use_order ? cb[i].o : NULL, cb[i].n, g->ncells, &gp);
            cells[i].threshold = g->threshold;
        }
        pb_gate_decide(cells, g->ncells, &gp);
        status = pb_gate_exit_status(cells, g->ncells);
        int any = 0;
        for (size_t i = 0; i < g->ncells; i++) any |= rerun[i] = cells[i].verdict == PB_CELL_INCONCLUSIVE;
        if (!any || pass >= g->reruns) break;
        rounds *= 2;
    }
    for (size_t i = 0; i < g->ncells; i++) {
        free(cb[i].a);
        free(cb[i].b);
        free(cb[i].o);
    }
    free(cb);
    free(rerun);
    return status;
}
