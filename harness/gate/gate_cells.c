/* SPDX-License-Identifier: GPL-2.0-only */
/* gate_cells.c — from the runs' loaded samples (gate_store.c) to the gate's cells: whether runs may
 * be compared at all (one suite, machine, job and procedure; sides that alternate), which cells both
 * sides have, and their pairs (within a run by round, across runs by alternation). No SQL. */
#include "gate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pb_gate_check_runs(const pb_run_meta *m, size_t n, pb_err *e)
{
    for (size_t i = 0; i < n; i++) {
        const pb_run_meta *r = &m[i], *f = &m[0];
        if (strcmp(r->status, "complete"))
            return pb_errf(e, "run %lld is %s, not complete: it cannot be compared", (long long)r->id, r->status);
        if (strcmp(r->suite, f->suite))
            return pb_errf(e, "run %lld is of suite %s, run %lld of suite %s: only runs of one suite compare",
                           (long long)r->id, r->suite, (long long)f->id, f->suite);
        if (!r->machine_id[0])
            return pb_errf(e, "run %lld does not record its machine: refusing to compare it with other runs",
                           (long long)r->id);
        if (strcmp(r->machine_id, f->machine_id))
            return pb_errf(e,
                           "run %lld was measured on machine %.12s..., run %lld on machine %.12s...: comparisons "
                           "across machines are refused (each machine has its own speed and noise; run both "
                           "sides on one machine, see ci/perf-gate)",
                           (long long)r->id, r->machine_id, (long long)f->id, f->machine_id);
        if (!r->job_id[0])
            return pb_errf(e,
                           "run %lld has no job id (PB_JOB_ID was not set): only runs made in one job, alternating "
                           "on one machine, are compared (see ci/perf-gate)",
                           (long long)r->id);
        if (strcmp(r->job_id, f->job_id))
            return pb_errf(e,
                           "run %lld belongs to job '%s', run %lld to job '%s': comparisons across jobs are refused "
                           "(the machine's state between jobs is unknown; see ci/perf-gate)",
                           (long long)r->id, r->job_id, (long long)f->id, f->job_id);
        if (strcmp(r->options, f->options))
            return pb_errf(e, "run %lld was run with '%s', run %lld with '%s': not the same procedure",
                           (long long)r->id, r->options, (long long)f->id, f->options);
    }
    return 0;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int pb_gate_check_alternation(const int64_t *a, const int64_t *b, size_t k, pb_err *e)
{
    int64_t *all = malloc((2 * k + 1) * sizeof *all);
    if (!all) return pb_errf(e, "out of memory");
    memcpy(all, a, k * sizeof *a);
    memcpy(all + k, b, k * sizeof *b);
    qsort(all, 2 * k, sizeof *all, cmp_i64);
    int rc = 0;
    for (size_t i = 0; i + 1 < 2 * k && rc == 0; i++)
        if (all[i] == all[i + 1]) rc = pb_errf(e, "run %lld is on both sides", (long long)all[i]);
    for (size_t j = 0; j < k && rc == 0; j++) {
        int64_t x = all[2 * j], y = all[2 * j + 1];
        if (!((x == a[j] && y == b[j]) || (x == b[j] && y == a[j])))
            rc = pb_errf(e,
                         "baseline run %lld and candidate run %lld are not alternation %zu: the runs of the two "
                         "sides must alternate (give both lists in run order; ci/perf-gate makes such sessions)",
                         (long long)a[j], (long long)b[j], j + 1);
    }
    free(all);
    return rc;
}

/* ---- cells and pairs ---- */

static const pb_gate_case *find_case(const pb_gate_data *d, int64_t run, const char *impl, const pb_cmp_cell *key)
{
    for (size_t i = 0; i < d->n; i++) {
        const pb_gate_case *c = &d->c[i];
        if (c->run == run && c->size == key->size && !strcmp(c->impl, impl) && !strcmp(c->variant, key->variant) &&
            !strcmp(c->op, key->op))
            return c;
    }
    return NULL;
}

static int same_key(const pb_cmp_cell *c, const pb_gate_case *g)
{
    return c->size == g->size && !strcmp(c->variant, g->variant) && !strcmp(c->op, g->op);
}

/* append the distinct cell keys where impl_a and impl_b both have a case in some run, in the order of the data */
static int collect_keys(const pb_gate_data *d, const char *impl_a, const char *impl_b, pb_cmp_cell **out, size_t *n,
                        pb_err *e)
{
    for (size_t i = 0; i < d->n; i++) {
        const pb_gate_case *g = &d->c[i];
        if (strcmp(g->impl, impl_a)) continue;
        int dup = 0;
        for (size_t j = 0; j < *n && !dup; j++)
            dup = !strcmp((*out)[j].impl_a, impl_a) && !strcmp((*out)[j].impl_b, impl_b) && same_key(&(*out)[j], g);
        if (dup) continue;
        pb_cmp_cell key;
        memset(&key, 0, sizeof key);
        snprintf(key.variant, sizeof key.variant, "%s", g->variant);
        snprintf(key.op, sizeof key.op, "%s", g->op);
        key.size = g->size;
        int has_b = 0;
        for (size_t j = 0; j < d->n && !has_b; j++) has_b = !strcmp(d->c[j].impl, impl_b) && same_key(&key, &d->c[j]);
        if (!has_b) continue;
        pb_cmp_cell *nv = realloc(*out, (*n + 1) * sizeof *nv);   /* a few hundred cells at most */
        if (!nv) return pb_errf(e, "out of memory");
        *out = nv;
        key.threshold = NAN;
        key.calibrated_mdc = NAN;
        snprintf(key.impl_a, sizeof key.impl_a, "%s", impl_a);
        snprintf(key.impl_b, sizeof key.impl_b, "%s", impl_b);
        (*out)[(*n)++] = key;
    }
    return 0;
}

typedef struct pairs {
    double *a, *b;
    signed char *o;   /* +1: A ran first, -1: B did */
    int *l;           /* the pair's code layout */
    size_t n, cap;
} pairs;

static int pairs_push(pairs *p, double b, double a, int a_first, int layout)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 64;
        double *na = realloc(p->a, cap * sizeof *na);
        if (!na) return -1;
        p->a = na;
        double *nb = realloc(p->b, cap * sizeof *nb);
        if (!nb) return -1;
        p->b = nb;
        signed char *no = realloc(p->o, cap);
        if (!no) return -1;
        p->o = no;
        int *nl = realloc(p->l, cap * sizeof *nl);
        if (!nl) return -1;
        p->l = nl;
        p->cap = cap;
    }
    p->l[p->n] = layout;
    p->a[p->n] = a;
    p->b[p->n] = b;
    p->o[p->n] = a_first ? 1 : -1;
    p->n++;
    return 0;
}

static void pairs_free(pairs *p)
{
    free(p->a);
    free(p->b);
    free(p->o);
    free(p->l);
}

/* the costs of a pair of observations of cases a and b (pb_pair_by_round) */
typedef struct obs_pairs {
    const pb_gate_case *a, *b;
    pairs *p;
} obs_pairs;

static int push_obs_pair(void *ctx, size_t i, size_t j)
{
    obs_pairs *op = ctx;
    const pb_gate_obs *oa = &op->a->obs[i], *ob = &op->b->obs[j];
    /* one round, one layout (run/passes.c): the two sides share it */
    return pairs_push(op->p, ob->cost, oa->cost, oa->position < ob->position, oa->layout) < 0 ? -1 : 0;
}

static double case_median(const pb_gate_case *c)
{
    double *v = malloc((c->n ? c->n : 1) * sizeof *v);
    if (!v) return NAN;
    for (size_t i = 0; i < c->n; i++) v[i] = c->obs[i].cost;
    double m = pb_median(v, c->n);
    free(v);
    return m;
}

/* why a cell has no pairs: an unavailable side */
static void note_unavailable(pb_cmp_cell *c, const pb_gate_case *a, const pb_gate_case *b)
{
    const pb_gate_case *u = (a && !a->ok) ? a : (b && !b->ok) ? b : NULL;
    if (u && !c->note[0]) snprintf(c->note, sizeof c->note, "%s unavailable: %.120s", u->impl, u->reason);
}

static int runs_of(const pb_gate_data *d, int64_t **runs, size_t *n)
{
    *runs = malloc((d->n ? d->n : 1) * sizeof **runs);
    *n = 0;
    if (!*runs) return -1;
    for (size_t i = 0; i < d->n; i++) {
        int dup = 0;
        for (size_t j = 0; j < *n && !dup; j++) dup = (*runs)[j] == d->c[i].run;
        if (!dup) (*runs)[(*n)++] = d->c[i].run;
    }
    return 0;
}

int pb_gate_cells_within_pairs(const pb_gate_data *d, const char *const *impl_a, const char *const *impl_b,
                               size_t npairs, const pb_gate_params *gp, pb_cmp_cell **cells, size_t *ncells, pb_err *e)
{
    *cells = NULL;
    *ncells = 0;
    for (size_t k = 0; k < npairs; k++)
        if (collect_keys(d, impl_a[k], impl_b[k], cells, ncells, e) < 0) { free(*cells); *cells = NULL; *ncells = 0; return -1; }
    int64_t *runs;
    size_t nruns;
    if (runs_of(d, &runs, &nruns) < 0) { free(*cells); *cells = NULL; *ncells = 0; return pb_errf(e, "out of memory"); }
    int rc = 0;
    for (size_t i = 0; i < *ncells && rc == 0; i++) {
        pb_cmp_cell *c = &(*cells)[i];
        pairs p = {0};
        for (size_t r = 0; r < nruns && rc == 0; r++) {
            const pb_gate_case *ca = find_case(d, runs[r], c->impl_a, c), *cb = find_case(d, runs[r], c->impl_b, c);
            note_unavailable(c, ca, cb);
            if (!ca || !cb || !ca->ok || !cb->ok) continue;
            /* both lists are sorted by (round, repetition) */
            obs_pairs op = {ca, cb, &p};
            if (ca->n && cb->n &&
                pb_pair_by_round((const pb_round_key *)&ca->obs[0].round, ca->n, sizeof *ca->obs,
                                 (const pb_round_key *)&cb->obs[0].round, cb->n, sizeof *cb->obs, push_obs_pair, &op))
                rc = pb_errf(e, "out of memory");
        }
        c->rounds = (int)p.n;
        /* m = every cell of every pair: Holm runs over all of them */
        if (rc == 0) pb_cmp_cell_stats_layouts(c, p.b, p.a, p.o, p.l, p.n, *ncells, gp);
        pairs_free(&p);
    }
    free(runs);
    if (rc == 0 && pb_gate_moderate_layouts(*cells, *ncells, gp) < 0) rc = pb_errf(e, "out of memory");
    if (rc < 0) { free(*cells); *cells = NULL; *ncells = 0; }
    return rc;
}

int pb_gate_cells_within(const pb_gate_data *d, const char *impl_a, const char *impl_b, const pb_gate_params *gp,
                         pb_cmp_cell **cells, size_t *ncells, pb_err *e)
{
    return pb_gate_cells_within_pairs(d, &impl_a, &impl_b, 1, gp, cells, ncells, e);
}

int pb_gate_cells_across(const pb_gate_data *d, const int64_t *runs_a, const int64_t *runs_b, size_t k,
                         const char *impl, const pb_gate_params *gp, pb_cmp_cell **cells, size_t *ncells, pb_err *e)
{
    *cells = NULL;
    *ncells = 0;
    /* impls measured on both sides (every impl in the first alternation), or the one asked for */
    for (size_t i = 0; i < d->n; i++) {
        const pb_gate_case *g = &d->c[i];
        if (g->run != runs_a[0] || (impl && strcmp(g->impl, impl))) continue;
        int on_b = 0;
        for (size_t j = 0; j < d->n && !on_b; j++) on_b = d->c[j].run == runs_b[0] && !strcmp(d->c[j].impl, g->impl);
        if (!on_b) continue;
        if (collect_keys(d, g->impl, g->impl, cells, ncells, e) < 0) return -1;
    }
    if (!*ncells)
        return pb_errf(e, "no implementation%s%s was measured on both sides (runs %lld and %lld)", impl ? " " : "",
                       impl ? impl : "", (long long)runs_a[0], (long long)runs_b[0]);
    int rc = 0;
    for (size_t i = 0; i < *ncells && rc == 0; i++) {
        pb_cmp_cell *c = &(*cells)[i];
        pairs p = {0};
        if (k == 1) {
            /* one run each: all samples of a side are one moment; no paired test is valid */
            const pb_gate_case *ca = find_case(d, runs_a[0], c->impl_a, c), *cb = find_case(d, runs_b[0], c->impl_b, c);
            note_unavailable(c, ca, cb);
            if (ca && cb && ca->ok && cb->ok) {
                double *va = malloc((ca->n + 1) * sizeof *va), *vb = malloc((cb->n + 1) * sizeof *vb);
                if (!va || !vb) rc = pb_errf(e, "out of memory");
                for (size_t x = 0; rc == 0 && x < ca->n; x++) va[x] = ca->obs[x].cost;
                for (size_t y = 0; rc == 0 && y < cb->n; y++) vb[y] = cb->obs[y].cost;
                if (rc == 0) pb_cmp_cell_untested(c, vb, cb->n, va, ca->n);
                free(va);
                free(vb);
            } else {
                pb_cmp_cell_untested(c, NULL, 0, NULL, 0);
            }
            snprintf(c->note + strlen(c->note), sizeof c->note - strlen(c->note), "%s",
                     c->note[0] ? "" : "one run each: ratio of medians, no test");
            c->rounds = 1;
            continue;
        }
        for (size_t j = 0; j < k && rc == 0; j++) {
            const pb_gate_case *ca = find_case(d, runs_a[j], c->impl_a, c), *cb = find_case(d, runs_b[j], c->impl_b, c);
            note_unavailable(c, ca, cb);
            if (!ca || !cb || !ca->ok || !cb->ok || !ca->n || !cb->n) continue;
            /* each run's median is over all its layouts already */
            if (pairs_push(&p, case_median(cb), case_median(ca), runs_a[j] < runs_b[j], 0) < 0)
                rc = pb_errf(e, "out of memory");
        }
        c->rounds = (int)p.n;
        if (rc == 0) pb_cmp_cell_stats(c, p.b, p.a, p.o, p.n, *ncells, gp);
        pairs_free(&p);
    }
    if (rc < 0) { free(*cells); *cells = NULL; *ncells = 0; }
    return rc;
}
