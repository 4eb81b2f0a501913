/* SPDX-License-Identifier: GPL-2.0-only */
/* gate_store.c — the gate's side of SQLite: samples of runs in, pairing, refusals, comparisons out. */
#include "gate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int pb_gate_open(pb_store *s, const char *path, int must_exist, pb_err *e)
{
    /* what the path is comes first: a URI or a FIFO is refused as such, not as "no database" */
    if (pb_store_check_path(path, e) < 0) return -1;
    if (must_exist && !pb_store_exists(path)) return pb_errf(e, "no database at %s", path);
    return pb_store_open(s, path, e);
}

int pb_gate_run_meta(pb_store *s, int64_t run, pb_run_meta *m, pb_err *e)
{
    pb_stmt *st;
    memset(m, 0, sizeof *m);
    if (pb_db_prepare(s->db,
                           "SELECT suite, status, baseline, candidate, primary_metric, machine_id, job_id, git_sha,"
                           " options FROM runs WHERE id = ?1", &st) != PB_DB_OK)
        return pb_store_sqlerr(s, e, "read run");
    pb_db_bind_int64(st, 1, run);
    if (pb_db_step(st) != PB_DB_ROW) {
        pb_db_finalize(st);
        return pb_errf(e, "%s has no run %lld", s->path, (long long)run);
    }
    m->id = run;
    pb_db_column_copy(st, 0, m->suite, sizeof m->suite);
    pb_db_column_copy(st, 1, m->status, sizeof m->status);
    pb_db_column_copy(st, 2, m->baseline, sizeof m->baseline);
    pb_db_column_copy(st, 3, m->candidate, sizeof m->candidate);
    pb_db_column_copy(st, 4, m->primary_metric, sizeof m->primary_metric);
    pb_db_column_copy(st, 5, m->machine_id, sizeof m->machine_id);
    pb_db_column_copy(st, 6, m->job_id, sizeof m->job_id);
    pb_db_column_copy(st, 7, m->git_sha, sizeof m->git_sha);
    pb_db_column_copy(st, 8, m->options, sizeof m->options);
    if (!m->primary_metric[0]) snprintf(m->primary_metric, sizeof m->primary_metric, PB_DEFAULT_METRIC);
    pb_db_finalize(st);
    return 0;
}

static pb_gate_case *new_case(pb_gate_data *d)
{
    if (d->n == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 64;
        pb_gate_case *nc = realloc(d->c, cap * sizeof *nc);
        if (!nc) return NULL;
        d->c = nc;
        d->cap = cap;
    }
    pb_gate_case *c = &d->c[d->n++];
    memset(c, 0, sizeof *c);
    return c;
}

static int push_obs(pb_gate_case *c, size_t *cap, const pb_gate_obs *o)
{
    if (c->n == *cap) {
        size_t nc = *cap ? 2 * *cap : 64;
        pb_gate_obs *v = realloc(c->obs, nc * sizeof *v);
        if (!v) return -1;
        c->obs = v;
        *cap = nc;
    }
    c->obs[c->n++] = *o;
    return 0;
}

int pb_gate_load_run(pb_store *s, int64_t run, const char *metric, pb_gate_data *d, pb_err *e)
{
    int inverse = pb_metric_higher_is_better(metric);
    pb_stmt *st;
    if (pb_db_prepare(s->db,
                           "SELECT c.id, c.impl, c.variant, c.op, c.size_bytes, c.status, c.reason,"
                           "       s.round, s.repetition, m.value, s.position, s.layout"
                           " FROM cases c LEFT JOIN samples s ON s.case_id = c.id"
                           " LEFT JOIN sample_metrics m ON m.sample_id = s.id AND m.metric = ?2"
                           " WHERE c.run_id = ?1 ORDER BY c.id, s.round, s.repetition", &st) != PB_DB_OK)
        return pb_store_sqlerr(s, e, "read samples");
    pb_db_bind_int64(st, 1, run);
    pb_db_bind_text(st, 2, metric);
    int64_t cur = -1;
    pb_gate_case *c = NULL;
    size_t cap = 0;
    int rc = 0, any_value = 0;
    while (pb_db_step(st) == PB_DB_ROW) {
        int64_t cid = pb_db_column_int64(st, 0);
        if (cid != cur) {
            if (!(c = new_case(d))) { rc = pb_errf(e, "out of memory"); break; }
            cur = cid;
            cap = 0;
            c->run = run;
            pb_db_column_copy(st, 1, c->impl, sizeof c->impl);
            pb_db_column_copy(st, 2, c->variant, sizeof c->variant);
            pb_db_column_copy(st, 3, c->op, sizeof c->op);
            c->size = (uint64_t)pb_db_column_int64(st, 4);
            char status[16];
            pb_db_column_copy(st, 5, status, sizeof status);
            c->ok = !strcmp(status, "ok");
            pb_db_column_copy(st, 6, c->reason, sizeof c->reason);
        }
        if (pb_db_column_type(st, 9) == PB_DB_NULL) continue;
        double v = pb_db_column_double(st, 9);
        pb_gate_obs o = {pb_db_column_int(st, 7), pb_db_column_int(st, 8), pb_db_column_int(st, 10),
                         inverse ? (v > 0 ? 1 / v : NAN) : v, pb_db_column_int(st, 11)};
        any_value = 1;
        if (push_obs(c, &cap, &o) < 0) { rc = pb_errf(e, "out of memory"); break; }
    }
    pb_db_finalize(st);
    if (rc == 0 && !any_value) {
        pb_run_meta m;
        if (pb_gate_run_meta(s, run, &m, e) < 0) return -1;
        if (strcmp(m.status, "complete"))
            return pb_errf(e, "run %lld is %s, not complete: it cannot be compared", (long long)run, m.status);
        return pb_errf(e, "run %lld has no samples of metric %s (see bench report for its metrics)", (long long)run,
                       metric);
    }
    return rc;
}

void pb_gate_data_free(pb_gate_data *d)
{
    for (size_t i = 0; i < d->n; i++) free(d->c[i].obs);
    free(d->c);
    memset(d, 0, sizeof *d);
}

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

int pb_gate_load_sessions(pb_store *s, const int64_t *a, const int64_t *b, size_t k, const char *metric,
                          char *metric_out, size_t cap, pb_run_meta *meta0, pb_gate_data *d, pb_err *e)
{
    pb_run_meta *m = calloc(2 * k, sizeof *m);
    if (!m) return pb_errf(e, "out of memory");
    int rc = 0;
    for (size_t i = 0; i < k && rc == 0; i++) rc = pb_gate_run_meta(s, a[i], &m[i], e);
    for (size_t i = 0; i < k && rc == 0; i++) rc = pb_gate_run_meta(s, b[i], &m[k + i], e);
    if (rc == 0) rc = pb_gate_check_runs(m, 2 * k, e);
    if (rc == 0 && k > 1) rc = pb_gate_check_alternation(a, b, k, e);
    if (rc == 0) {
        snprintf(metric_out, cap, "%s", metric && metric[0] ? metric : m[0].primary_metric);
        *meta0 = m[0];
    }
    for (size_t i = 0; i < 2 * k && rc == 0; i++) rc = pb_gate_load_run(s, m[i].id, metric_out, d, e);
    free(m);
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
    /* one round, one layout (runner.c): the two sides share it */
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

/* ---- storing comparisons ---- */

static void bind_real(pb_stmt *st, int i, double v)
{
    if (isfinite(v)) pb_db_bind_double(st, i, v);
    else pb_db_bind_null(st, i);
}

static int add_run_link(pb_store *s, int64_t cmp, int64_t run, const char *side, int alternation, pb_err *e)
{
    pb_stmt *st;
    if (pb_db_prepare(s->db,
                           "INSERT INTO comparison_runs (comparison_id, run_id, side, alternation)"
                           " VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING", &st) != PB_DB_OK)
        return pb_store_sqlerr(s, e, "link run");
    pb_db_bind_int64(st, 1, cmp);
    pb_db_bind_int64(st, 2, run);
    pb_db_bind_text(st, 3, side);
    if (alternation > 0) pb_db_bind_int(st, 4, alternation); else pb_db_bind_null(st, 4);
    int rc = pb_db_step(st);
    pb_db_finalize(st);
    return rc == PB_DB_DONE ? 0 : pb_store_sqlerr(s, e, "link run");
}

/* every row of q (run_id, side, alternation) into *runs */
static int run_rows(pb_stmt *q, pb_cmp_run **runs, size_t *n, pb_err *e)
{
    size_t cap = 0;
    while (pb_db_step(q) == PB_DB_ROW) {
        if (*n == cap) {
            pb_cmp_run *nr = realloc(*runs, (cap = cap ? 2 * cap : 8) * sizeof *nr);
            if (!nr) return pb_errf(e, "out of memory");
            *runs = nr;
        }
        pb_cmp_run *r = &(*runs)[(*n)++];
        r->run = pb_db_column_int64(q, 0);
        snprintf(r->side, sizeof r->side, "%s", pb_db_column_str(q, 1));
        r->alternation = pb_db_column_int(q, 2);
    }
    return 0;
}

int pb_gate_comparison_runs(pb_store *s, int64_t comparison, pb_cmp_run **runs, size_t *n, pb_err *e)
{
    static const char sql[] = "SELECT run_id, side, coalesce(alternation, 0) FROM comparison_runs"
                              " WHERE comparison_id = ?1 ORDER BY coalesce(alternation, 0), side, run_id";
    pb_stmt *q;
    *runs = NULL;
    *n = 0;
    if (pb_db_prepare(s->db, sql, &q) != PB_DB_OK) return pb_store_sqlerr(s, e, "read the runs of a comparison");
    pb_db_bind_int64(q, 1, comparison);
    int rc = run_rows(q, runs, n, e);
    pb_db_finalize(q);
    if (rc < 0) {
        free(*runs);
        *runs = NULL;
        *n = 0;
    }
    return rc;
}

static int store_body(pb_store *s, const pb_comparison *c, const pb_cmp_cell *cells, size_t n, int64_t *id,
                      pb_err *e)
{
    pb_stmt *st;
    if (pb_db_prepare(s->db,
                           "INSERT INTO comparisons (created_at, command, gate, suite, metric, pairing, alpha, conf,"
                           " power, ncells, thresholds, verdict, exit_status, machine_id, job_id, command_line, note,"
                           " baseline)"
                           " SELECT ?16, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
                           " ?11, ?12, r.machine_id, r.job_id, ?13, ?14, ?17 FROM runs r WHERE r.id = ?15 RETURNING id", &st) != PB_DB_OK)
        return pb_store_sqlerr(s, e, "insert comparison");
    pb_db_bind_text(st, 1, c->command);
    pb_db_bind_text(st, 2, c->gate);
    pb_db_bind_text(st, 3, c->suite);
    pb_db_bind_text(st, 4, c->metric);
    pb_db_bind_text(st, 5, c->pairing);
    pb_db_bind_double(st, 6, c->gp->alpha);
    pb_db_bind_double(st, 7, c->gp->conf);
    pb_db_bind_double(st, 8, c->gp->power);
    pb_db_bind_int64(st, 9, (int64_t)n);
    pb_db_bind_text(st, 10, c->thresholds);
    pb_db_bind_text(st, 11, pb_gate_exit_name(c->exit_status));
    if (c->exit_status >= 0) pb_db_bind_int(st, 12, c->exit_status); else pb_db_bind_null(st, 12);
    pb_db_bind_text(st, 13, c->command_line);
    pb_db_bind_text(st, 14, c->note);
    pb_db_bind_int64(st, 15, c->runs_a[0]);
    char now[32];
    pb_db_now(now);
    pb_db_bind_text(st, 16, now);
    pb_db_bind_text(st, 17, c->baseline);
    int rc = pb_db_step(st);
    if (rc == PB_DB_ROW) *id = pb_db_column_int64(st, 0);
    pb_db_finalize(st);
    if (rc != PB_DB_ROW) return pb_store_sqlerr(s, e, "insert comparison");

    for (size_t i = 0; i < c->nruns_a; i++)
        if (add_run_link(s, *id, c->runs_a[i], c->runs_b ? "baseline" : "both", c->alternating ? (int)i + 1 : 0, e) < 0)
            return -1;
    for (size_t i = 0; c->runs_b && i < c->nruns_b; i++)
        if (add_run_link(s, *id, c->runs_b[i], "candidate", c->alternating ? (int)i + 1 : 0, e) < 0) return -1;

    if (pb_db_prepare(s->db,
                           "INSERT INTO comparison_cells (comparison_id, baseline, candidate, variant, op,"
                           " size_bytes, n_pairs, rounds, ratio, ci_lo, ci_hi, conf, p_value, p_holm, se_log, noise,"
                           " mdc, calibrated_mdc, threshold, change, verdict, note, order_effect)"
                           " VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19,?20,?21,?22,?23)"
                           " ON CONFLICT (comparison_id, baseline, candidate, variant, op, size_bytes) DO UPDATE SET"
                           " n_pairs = excluded.n_pairs, rounds = excluded.rounds, ratio = excluded.ratio,"
                           " ci_lo = excluded.ci_lo, ci_hi = excluded.ci_hi, conf = excluded.conf,"
                           " p_value = excluded.p_value, p_holm = excluded.p_holm, se_log = excluded.se_log,"
                           " noise = excluded.noise, mdc = excluded.mdc, calibrated_mdc = excluded.calibrated_mdc,"
                           " threshold = excluded.threshold, change = excluded.change, verdict = excluded.verdict,"
                           " note = excluded.note, order_effect = excluded.order_effect", &st) != PB_DB_OK)
        return pb_store_sqlerr(s, e, "insert comparison cell");
    for (size_t i = 0; i < n; i++) {
        const pb_cmp_cell *x = &cells[i];
        pb_db_reset(st);
        pb_db_bind_int64(st, 1, *id);
        pb_db_bind_text(st, 2, x->impl_a);
        pb_db_bind_text(st, 3, x->impl_b);
        pb_db_bind_text(st, 4, x->variant);
        pb_db_bind_text(st, 5, x->op);
        pb_db_bind_int64(st, 6, (int64_t)x->size);
        pb_db_bind_int64(st, 7, (int64_t)x->n);
        pb_db_bind_int(st, 8, x->rounds);
        bind_real(st, 9, x->ratio);
        bind_real(st, 10, x->ci_lo);
        bind_real(st, 11, x->ci_hi);
        bind_real(st, 12, x->conf);
        bind_real(st, 13, x->p);
        bind_real(st, 14, x->p_holm);
        bind_real(st, 15, x->se_log);
        bind_real(st, 16, x->noise);
        bind_real(st, 17, x->mdc);
        bind_real(st, 18, x->calibrated_mdc);
        bind_real(st, 19, x->threshold);
        pb_db_bind_text(st, 20, pb_cmp_change(x, c->gp));
        pb_db_bind_text(st, 21, pb_cell_verdict_name(x->verdict));
        pb_db_bind_text(st, 22, x->note[0] ? x->note : NULL);
        bind_real(st, 23, x->order_effect);
        if (pb_db_step(st) != PB_DB_DONE) {
            pb_db_finalize(st);
            return pb_store_sqlerr(s, e, "insert comparison cell");
        }
    }
    pb_db_finalize(st);
    return 0;
}

int64_t pb_gate_store(pb_store *s, const pb_comparison *c, const pb_cmp_cell *cells, size_t n, pb_err *e)
{
    int64_t id = -1;
    if (pb_store_begin(s, e) < 0) return -1;
    if (store_body(s, c, cells, n, &id, e) < 0) {
        pb_store_rollback(s);
        return -1;
    }
    if (pb_store_commit(s, e) < 0) return -1;
    return id;
}

int pb_gate_store_calibration(pb_store *s, const pb_calibration *cal, pb_err *e)
{
    pb_stmt *st;
    if (pb_store_begin(s, e) < 0) return -1;
    if (pb_db_prepare(s->db,
                           "INSERT INTO calibrations (created_at, machine_id, job_id, suite, metric, pairing, impl,"
                           " variant, op, size_bytes, repeats, n_pairs, se_log, noise, mdc, worst_ratio, false_alarms,"
                           " inconclusive, threshold, first_comparison, last_comparison)"
                           " SELECT ?20, r.machine_id, r.job_id, ?1, ?2, ?3, ?4,"
                           " ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18"
                           " FROM runs r WHERE r.id = ?19", &st) != PB_DB_OK) {
        pb_store_rollback(s);
        return pb_store_sqlerr(s, e, "insert calibration");
    }
    double *v = malloc((cal->repeats + 1) * sizeof *v);
    int rc = v ? 0 : pb_errf(e, "out of memory");
    for (size_t i = 0; i < cal->ncells && rc == 0; i++) {
        /* medians over the repeats of what one gate sees; the worst A/A ratio; the alarms */
        double se = NAN, noise = NAN, mdc = NAN, worst = NAN, npairs = 0;
        int alarms = 0, inconc = 0;
        for (int pass = 0; pass < 3; pass++) {
            size_t k = 0;
            for (size_t r = 0; r < cal->repeats; r++) {
                const pb_cmp_cell *x = &cal->first[r][i];
                double val = pass == 0 ? x->se_log : pass == 1 ? x->noise : x->mdc;
                if (x->verdict != PB_CELL_NODATA && !isnan(val)) v[k++] = val;
            }
            double med = pb_median(v, k);
            if (pass == 0) se = med; else if (pass == 1) noise = med; else mdc = med;
        }
        for (size_t r = 0; r < cal->repeats; r++) {
            const pb_cmp_cell *x = &cal->first[r][i], *f = &cal->final[r][i];
            if (x->verdict != PB_CELL_NODATA && (isnan(worst) || fabs(log(x->ratio)) > fabs(log(worst)))) worst = x->ratio;
            npairs += (double)x->n;
            alarms += f->verdict == PB_CELL_REGRESSION;
            inconc += f->verdict == PB_CELL_INCONCLUSIVE;
        }
        const pb_cmp_cell *c0 = &cal->first[0][i];
        pb_db_reset(st);
        pb_db_bind_text(st, 1, cal->suite);
        pb_db_bind_text(st, 2, cal->metric);
        pb_db_bind_text(st, 3, cal->pairing);
        pb_db_bind_text(st, 4, cal->impl);
        pb_db_bind_text(st, 5, c0->variant);
        pb_db_bind_text(st, 6, c0->op);
        pb_db_bind_int64(st, 7, (int64_t)c0->size);
        pb_db_bind_int64(st, 8, (int64_t)cal->repeats);
        pb_db_bind_int64(st, 9, (int64_t)llround(npairs / (double)cal->repeats));
        bind_real(st, 10, se);
        bind_real(st, 11, noise);
        bind_real(st, 12, mdc);
        bind_real(st, 13, worst);
        pb_db_bind_int(st, 14, alarms);
        pb_db_bind_int(st, 15, inconc);
        bind_real(st, 16, c0->threshold);
        pb_db_bind_int64(st, 17, cal->first_comparison);
        pb_db_bind_int64(st, 18, cal->last_comparison);
        pb_db_bind_int64(st, 19, cal->run);
        char now[32];
        pb_db_now(now);
        pb_db_bind_text(st, 20, now);
        if (pb_db_step(st) != PB_DB_DONE) rc = pb_store_sqlerr(s, e, "insert calibration");
    }
    free(v);
    pb_db_finalize(st);
    if (rc < 0) {
        pb_store_rollback(s);
        return -1;
    }
    return pb_store_commit(s, e);
}

/* The newest calibration's value of the cell, by sql (its column: the file's own words); NaN if none */
static double calibrated(pb_store *s, const char *sql, const char *machine_id, const char *pairing, const char *suite,
                         const char *impl, const char *variant, const char *op, uint64_t size, const char *metric)
{
    pb_stmt *st;
    if (pb_db_prepare(s->db, sql, &st) != PB_DB_OK) return NAN;
    pb_db_bind_text(st, 1, machine_id);
    pb_db_bind_text(st, 2, pairing);
    pb_db_bind_text(st, 3, suite);
    pb_db_bind_text(st, 4, impl);
    pb_db_bind_text(st, 5, variant);
    pb_db_bind_text(st, 6, op);
    pb_db_bind_int64(st, 7, (int64_t)size);
    pb_db_bind_text(st, 8, metric);
    double v = NAN;
    if (pb_db_step(st) == PB_DB_ROW) v = pb_db_column_double(st, 0);
    pb_db_finalize(st);
    return v;
}

#define CALIBRATED_SQL(col)                                                                                     \
    "SELECT " col " FROM calibrations WHERE machine_id = ?1 AND pairing = ?2 AND suite = ?3"                     \
    " AND variant = ?5 AND op = ?6 AND size_bytes = ?7 AND metric = ?8 AND " col " IS NOT NULL"                 \
    " ORDER BY (impl = ?4) DESC, id DESC LIMIT 1"

double pb_gate_calibrated_mdc(pb_store *s, const char *machine_id, const char *pairing, const char *suite,
                              const char *impl, const char *variant, const char *op, uint64_t size,
                              const char *metric)
{
    return calibrated(s, CALIBRATED_SQL("mdc"), machine_id, pairing, suite, impl, variant, op, size, metric);
}

double pb_gate_calibrated_noise(pb_store *s, const char *machine_id, const char *pairing, const char *suite,
                                const char *impl, const char *variant, const char *op, uint64_t size,
                                const char *metric)
{
    return calibrated(s, CALIBRATED_SQL("noise"), machine_id, pairing, suite, impl, variant, op, size, metric);
}
