/* SPDX-License-Identifier: GPL-2.0-only */
/* gate_store.c — the gate's reads and writes, all of gate/'s SQL: runs and their samples in;
 * comparisons, their runs and cells, calibrations and stored baselines out and back; the count
 * gate's two metrics side by side. What the gate does with them is gate_cells.c's and gate.c's. */
#include "gate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate_baseline.h"
#include "gate_det.h"
#include "gate_store.h"
#include "query.h"
#include "reads.h"

int pb_gate_open(pb_store *s, const char *path, int must_exist, pb_err *e)
{
    /* what the path is comes first: a URI or a FIFO is refused as such, not as "no database" */
    if (pb_store_check_path(path, e) < 0) return -1;
    if (must_exist && !pb_store_exists(path)) return pb_errf(e, "no database at %s", path);
    return pb_store_open(s, path, e);
}

int pb_gate_run_meta(pb_store *s, int64_t run, pb_run_meta *m, pb_err *e)
{
    memset(m, 0, sizeof *m);
    pb_run_row row, *r = &row;
    int found = pb_store_run_row(s, run, r, e);
    if (found > 0) {
        m->id = run;
        snprintf(m->suite, sizeof m->suite, "%s", r->suite);
        snprintf(m->status, sizeof m->status, "%s", r->status);
        snprintf(m->baseline, sizeof m->baseline, "%s", r->baseline);
        snprintf(m->candidate, sizeof m->candidate, "%s", r->candidate);
        snprintf(m->primary_metric, sizeof m->primary_metric, "%s", r->primary_metric[0] ? r->primary_metric : PB_DEFAULT_METRIC);
        snprintf(m->machine_id, sizeof m->machine_id, "%s", r->machine_id);
        snprintf(m->job_id, sizeof m->job_id, "%s", r->job_id);
        snprintf(m->git_sha, sizeof m->git_sha, "%s", r->git_sha);
        snprintf(m->options, sizeof m->options, "%s", r->options);
    }
    if (found < 0) return -1;
    return found ? 0 : pb_errf(e, "%s has no run %lld", s->path, (long long)run);
}

static pb_gate_case *new_case(pb_gate_data *d)
{
    if (pb_query_grow((void **)&d->c, &d->cap, d->n, sizeof *d->c) < 0) return NULL;
    pb_gate_case *c = &d->c[d->n++];
    memset(c, 0, sizeof *c);
    return c;
}

static int push_obs(pb_gate_case *c, size_t *cap, const pb_gate_obs *o)
{
    if (pb_query_grow((void **)&c->obs, cap, c->n, sizeof *c->obs) < 0) return -1;
    c->obs[c->n++] = *o;
    return 0;
}

int pb_gate_load_run(pb_store *s, int64_t run, const char *metric, pb_gate_data *d, pb_err *e)
{
    int inverse = pb_metric_higher_is_better(metric);
    /* derived from each sample as finalize derived the run's statistics, for a case that has them
     * (the run asked for the metric); a count of valgrind's has no per-sample value (its gate reads
     * the stats) */
    const pb_metric *pm = pb_metric_find(metric);
    pb_stmt *st;
    if (pb_query(s, &st, e, "read samples",
                 "SELECT c.id, c.impl, c.variant, c.op, c.size_bytes, c.status, c.reason,"
                 "       s.round, s.repetition, s.id, s.position, s.layout, " PB_METRIC_SAMPLE_COLS
                 " FROM cases c LEFT JOIN samples s ON s.case_id = c.id"
                 " AND EXISTS (SELECT 1 FROM stats t WHERE t.case_id = c.id AND t.metric = ?2)"
                 " WHERE c.run_id = ?1 ORDER BY c.id, s.round, s.repetition", "it", run, metric) < 0)
        return -1;
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
        if (pb_db_column_type(st, 9) == PB_DB_NULL || !pm || !pm->value) continue;   /* no sample */
        pb_metric_sample ms;
        pb_query_metric_sample(st, 12, &ms);
        double v = pm->value(&ms, (double)c->size);
        if (!isfinite(v)) continue;
        pb_gate_obs o = {pb_db_column_int(st, 7), pb_db_column_int(st, 8), pb_db_column_int(st, 10),
                         inverse ? (v > 0 ? 1 / v : NAN) : v, pb_db_column_int(st, 11)};
        any_value = 1;
        if (push_obs(c, &cap, &o) < 0) { rc = pb_errf(e, "out of memory"); break; }
    }
    if (pb_db_finalize(st) != PB_DB_OK && rc == 0) rc = pb_store_sqlerr(s, e, "read samples");
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
/* ---- storing comparisons ---- */

static int add_run_link(pb_store *s, int64_t cmp, int64_t run, const char *side, int alternation, pb_err *e)
{
    return pb_query_exec(s, e, "link run",
                         "INSERT INTO comparison_runs (comparison_id, run_id, side, alternation)"
                         " VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING", "iitk", cmp, run, side,
                         (int64_t)(alternation > 0 ? alternation : -1));
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
    if (pb_query(s, &q, e, "read the runs of a comparison", sql, "i", comparison) < 0) return -1;
    int rc = run_rows(q, runs, n, e);
    if (pb_db_finalize(q) != PB_DB_OK && rc == 0) rc = pb_store_sqlerr(s, e, "read the runs of a comparison");
    if (rc < 0) {
        free(*runs);
        *runs = NULL;
        *n = 0;
    }
    return rc;
}

/* The comparison's row, its id in *id (the machine and job are those of its first baseline run). */
static int insert_comparison(pb_store *s, const pb_comparison *c, size_t n, int64_t *id, pb_err *e)
{
    char now[32];
    pb_db_now(now);
    int rc = pb_query_int(s, id, e, "insert comparison",
                          "INSERT INTO comparisons (created_at, command, gate, suite, metric, pairing, alpha, conf,"
                          " power, ncells, thresholds, verdict, exit_status, machine_id, job_id, command_line, note,"
                          " baseline)"
                          " SELECT ?16, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
                          " ?11, ?12, r.machine_id, r.job_id, ?13, ?14, ?17 FROM runs r WHERE r.id = ?15 RETURNING id",
                          "tttttdddittkttitt", c->command, c->gate, c->suite, c->metric, c->pairing, c->gp->alpha,
                          c->gp->conf, c->gp->power, (int64_t)n, c->thresholds, pb_gate_exit_name(c->exit_status),
                          (int64_t)(c->exit_status >= 0 ? c->exit_status : -1), c->command_line, c->note, c->runs_a[0],
                          now, c->baseline);
    if (rc == 0) return pb_store_sqlerr(s, e, "insert comparison");   /* no such run: no row */
    return rc < 0 ? -1 : 0;
}

static const char CELL_SQL[] =
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
    " note = excluded.note, order_effect = excluded.order_effect";

static int store_body(pb_store *s, const pb_comparison *c, const pb_cmp_cell *cells, size_t n, int64_t *id,
                      pb_err *e)
{
    if (insert_comparison(s, c, n, id, e) < 0) return -1;
    for (size_t i = 0; i < c->nruns_a; i++)
        if (add_run_link(s, *id, c->runs_a[i], c->runs_b ? "baseline" : "both", c->alternating ? (int)i + 1 : 0, e) < 0)
            return -1;
    for (size_t i = 0; c->runs_b && i < c->nruns_b; i++)
        if (add_run_link(s, *id, c->runs_b[i], "candidate", c->alternating ? (int)i + 1 : 0, e) < 0) return -1;
    pb_stmt *st;
    if (pb_db_prepare(s->db, CELL_SQL, &st) != PB_DB_OK) return pb_store_sqlerr(s, e, "insert comparison cell");
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        const pb_cmp_cell *x = &cells[i];
        pb_query_bind(st, "itttt" "iin" "rrrrrrrrrrr" "ttt" "r", *id, x->impl_a, x->impl_b, x->variant, x->op,
                      (int64_t)x->size, (int64_t)x->n, x->rounds, x->ratio, x->ci_lo, x->ci_hi, x->conf, x->p,
                      x->p_holm, x->se_log, x->noise, x->mdc, x->calibrated_mdc, x->threshold,
                      pb_cmp_change(x, c->gp), pb_cell_verdict_name(x->verdict), x->note[0] ? x->note : NULL,
                      x->order_effect);
        if (pb_db_step(st) != PB_DB_DONE) rc = pb_store_sqlerr(s, e, "insert comparison cell");
    }
    pb_db_finalize(st);
    return rc;
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

/* What one cell of a calibration stores: medians over the repeats of what one gate sees, the worst
 * A/A ratio, the pairs per repeat and the alarms (v: room for cal->repeats values). */
typedef struct cal_row {
    double se, noise, mdc, worst, npairs;
    int alarms, inconc;
} cal_row;

static cal_row calibration_row(const pb_calibration *cal, size_t i, double *v)
{
    cal_row c = {.se = NAN, .noise = NAN, .mdc = NAN, .worst = NAN};
    for (int pass = 0; pass < 3; pass++) {
        size_t k = 0;
        for (size_t r = 0; r < cal->repeats; r++) {
            const pb_cmp_cell *x = &cal->first[r][i];
            double val = pass == 0 ? x->se_log : pass == 1 ? x->noise : x->mdc;
            if (x->verdict != PB_CELL_NODATA && !isnan(val)) v[k++] = val;
        }
        double med = pb_median(v, k);
        if (pass == 0) c.se = med; else if (pass == 1) c.noise = med; else c.mdc = med;
    }
    for (size_t r = 0; r < cal->repeats; r++) {
        const pb_cmp_cell *x = &cal->first[r][i], *f = &cal->final[r][i];
        if (x->verdict != PB_CELL_NODATA && (isnan(c.worst) || fabs(log(x->ratio)) > fabs(log(c.worst))))
            c.worst = x->ratio;
        c.npairs += (double)x->n;
        c.alarms += f->verdict == PB_CELL_REGRESSION;
        c.inconc += f->verdict == PB_CELL_INCONCLUSIVE;
    }
    c.npairs = (double)llround(c.npairs / (double)cal->repeats);
    return c;
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
        pb_store_sqlerr(s, e, "insert calibration");
        pb_store_rollback(s);
        return -1;
    }
    double *v = malloc((cal->repeats + 1) * sizeof *v);
    int rc = v ? 0 : pb_errf(e, "out of memory");
    for (size_t i = 0; i < cal->ncells && rc == 0; i++) {
        cal_row c = calibration_row(cal, i, v);
        const pb_cmp_cell *c0 = &cal->first[0][i];
        char now[32];
        pb_db_now(now);
        pb_query_bind(st, "ttttttiiirrrrnnriiit", cal->suite, cal->metric, cal->pairing, cal->impl, c0->variant, c0->op,
                      (int64_t)c0->size, (int64_t)cal->repeats, (int64_t)c.npairs, c.se, c.noise, c.mdc, c.worst,
                      c.alarms, c.inconc, c0->threshold, cal->first_comparison, cal->last_comparison, cal->run, now);
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
    if (pb_query(s, &st, NULL, NULL, sql, "ttttttit", machine_id, pairing, suite, impl, variant, op, (int64_t)size,
                 metric) < 0)
        return NAN;
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

/* ---- stored baselines (gate_baseline.h) ---- */

int pb_baseline_find(pb_store *st, const char *name, int64_t *run, pb_err *e)
{
    return pb_query_int(st, run, e, "read baselines", "SELECT run_id FROM baselines WHERE name = ?1", "t", name);
}

int pb_gate_baseline_write(pb_store *st, const char *name, int64_t run, const char *command_line, pb_err *e)
{
    char now[32];
    pb_db_now(now);
    return pb_query_exec(st, e, "save baseline",
                         "INSERT INTO baselines (name, run_id, saved_at, command_line) VALUES (?1, ?2, ?3, ?4)"
                         " ON CONFLICT (name) DO UPDATE SET run_id = excluded.run_id, saved_at = excluded.saved_at,"
                         " command_line = excluded.command_line", "titt", name, run, now, command_line);
}

int pb_gate_each_baseline(pb_store *st, void (*each)(void *ctx, const pb_baseline_row *r), void *ctx, pb_err *e)
{
    pb_stmt *q;
    if (pb_query(st, &q, e, "read baselines",
                 "SELECT b.name, b.run_id, r.suite, b.saved_at, COALESCE(r.user_label, r.user_revision, '')"
                 " FROM baselines b JOIN runs r ON r.id = b.run_id ORDER BY b.name", "") < 0)
        return -1;
    int rc;
    while ((rc = pb_db_step(q)) == PB_DB_ROW) {
        const pb_baseline_row r = {.name = pb_db_column_str(q, 0), .run = pb_db_column_int64(q, 1),
                                   .suite = pb_db_column_str(q, 2), .saved_at = pb_db_column_str(q, 3),
                                   .revision = pb_db_column_str(q, 4)};
        each(ctx, &r);
    }
    pb_db_finalize(q);
    return rc == PB_DB_DONE ? 0 : (pb_store_sqlerr(st, e, "read baselines"), 1);
}

int pb_baseline_delete(pb_store *st, const char *name, pb_err *e)
{
    pb_stmt *q;
    if (pb_query(st, &q, e, "delete baseline", "DELETE FROM baselines WHERE name = ?1 RETURNING run_id", "t", name) < 0)
        return -1;
    int r = pb_db_step(q);
    int found = r == PB_DB_ROW;
    if (found) r = pb_db_step(q);
    pb_db_finalize(q);
    if (r != PB_DB_DONE) return pb_store_sqlerr(st, e, "delete baseline");
    return found;
}

/* ---- the count gate (gate_det.h) ---- */

int64_t pb_gate_last_comparison(pb_store *st)
{
    int64_t id = 0;
    if (pb_query_int(st, &id, NULL, NULL, "SELECT max(id) FROM comparisons", "") <= 0) return 0;
    return id;
}

int pb_gate_each_two_metric(pb_store *st, int64_t time_id, int64_t count_id,
                            void (*each)(void *ctx, const pb_two_metric_row *r), void *ctx, pb_err *e)
{
    char sql[640];
    snprintf(sql, sizeof sql,
             "SELECT t.variant, t.op, t.size_bytes, t.ratio, t.ci_lo, t.ci_hi, t.verdict, c.ratio,"
             " c.verdict, c.threshold FROM comparison_cells t JOIN comparison_cells c"
             " ON c.comparison_id = ?2 AND c.baseline = t.baseline AND c.candidate = t.candidate"
             " AND c.variant = t.variant AND c.op = t.op AND c.size_bytes = t.size_bytes"
             " WHERE t.comparison_id = ?1 ORDER BY t.%s", pb_db_rowid(st->db));
    pb_stmt *q;
    if (pb_query(st, &q, e, NULL, sql, "ii", time_id, count_id) < 0) return -1;
    while (pb_db_step(q) == PB_DB_ROW) {
        const pb_two_metric_row r = {
            .variant = pb_db_column_text(q, 0), .op = pb_db_column_text(q, 1), .size = pb_db_column_int64(q, 2),
            .time_ratio = pb_query_real(q, 3), .time_lo = pb_query_real(q, 4), .time_hi = pb_query_real(q, 5),
            .time_verdict = pb_db_column_text(q, 6), .count_ratio = pb_query_real(q, 7),
            .count_verdict = pb_db_column_text(q, 8), .count_threshold = pb_db_column_double(q, 9)};
        each(ctx, &r);
    }
    return pb_db_finalize(q) == PB_DB_OK ? 0 : pb_store_sqlerr(st, e, "read comparison cells");
}
