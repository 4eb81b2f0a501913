/* SPDX-License-Identifier: GPL-2.0-only */
/* report_data.c — everything a suite's report draws from, loaded once: measured medians, the
 * document's rows, the stored ratios, unavailable cases and the runs' headers; and what report/'s
 * other commands read (which runs, export's rows, history's series, the per-machine columns). All
 * of report/'s SQL is here; the renderers only read what it returns. */
#include "report_data.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "query.h"

static int load_measured(pb_store *st, int64_t run, const char *metric, int guest, rows *out, pb_err *e)
{
    pb_stmt *q;
    if (pb_query(st, &q, e, NULL,
                 "SELECT c.impl, c.variant, c.op, c.size_bytes, s.median, s.p10, s.p90"
                 " FROM cases c JOIN stats s ON s.case_id = c.id JOIN runs r ON r.id = c.run_id"
                 " WHERE c.run_id = ?1 AND s.metric = ?2 AND r.status = 'complete' ORDER BY c.id", "it", run, metric) < 0)
        return -1;
    while (pb_db_step(q) == PB_DB_ROW) {
        row *x = pb_report_push(out);
        if (!x) break;
        snprintf(x->impl, sizeof x->impl, "%s", pb_db_column_text(q, 0));
        snprintf(x->variant, sizeof x->variant, "%s", pb_db_column_text(q, 1));
        snprintf(x->op, sizeof x->op, "%s", pb_db_column_text(q, 2));
        x->size = pb_db_column_int64(q, 3);
        x->median = pb_db_column_double(q, 4);
        x->p10 = pb_db_column_double(q, 5);
        x->p90 = pb_db_column_double(q, 6);
        x->guest = guest;
    }
    if (pb_db_finalize(q) != PB_DB_OK) return pb_store_sqlerr(st, e, "read statistics");
    return 0;
}

/* data/<suite>_doc.tsv: impl variant op size_bytes metric value */
static int load_doc(const char *dir, const char *suite, const char *metric, rows *out, pb_err *e)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s_doc.tsv", dir, suite);
    FILE *f = fopen(path, "r");
    if (!f) return 0; /* a suite without a document table: nothing to draw beside */
    char line[512];
    int ln = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        if (ln == 1 || line[0] == '#' || line[0] == '\n') continue;
        char impl[PB_NAME_MAX], variant[PB_NAME_MAX], op[PB_NAME_MAX], m[PB_NAME_MAX];
        long long size;
        double v;
        if (sscanf(line, "%47[^\t]\t%47[^\t]\t%47[^\t]\t%lld\t%47[^\t]\t%lf", impl, variant, op, &size, m, &v) != 6) {
            fclose(f);
            return pb_errf(e, "%s:%d: expected 6 tab-separated fields (impl variant op size_bytes metric value)",
                           path, ln);
        }
        if (strcmp(m, metric)) continue;
        row *x = pb_report_push(out);
        if (!x) break;
        snprintf(x->impl, sizeof x->impl, "%s", impl);
        snprintf(x->variant, sizeof x->variant, "%s", variant);
        snprintf(x->op, sizeof x->op, "%s", op);
        x->size = size;
        x->median = x->p10 = x->p90 = v;
    }
    fclose(f);
    return 0;
}

static char *dup_text(pb_stmt *q, int col)
{
    const char *t = pb_db_column_text(q, col);
    return t ? strdup((const char *)t) : NULL;
}

/* grow *v (of *n elements of size sz) by one zeroed element; NULL when out of memory */
static void *grow(void **v, size_t *n, size_t sz)
{
    void *nv = realloc(*v, (*n + 1) * sz);
    if (!nv) return NULL;
    *v = nv;
    void *x = (char *)nv + *n * sz;
    memset(x, 0, sz);
    (*n)++;
    return x;
}

typedef struct ratios_ctx {
    pb_report_data *d;
    int64_t run;
    pb_err *e;
} ratios_ctx;

static int ratio_of_row(void *ctx, pb_stmt *q)
{
    ratios_ctx *c = ctx;
    ratio_row *x = grow((void **)&c->d->ratios, &c->d->nratios, sizeof *x);
    if (!x) return pb_errf(c->e, "out of memory loading ratios");
    x->run = c->run;
    snprintf(x->metric, sizeof x->metric, "%s", pb_db_column_text(q, 0));
    snprintf(x->base, sizeof x->base, "%s", pb_db_column_text(q, 1));
    snprintf(x->cand, sizeof x->cand, "%s", pb_db_column_text(q, 2));
    snprintf(x->variant, sizeof x->variant, "%s", pb_db_column_text(q, 3));
    snprintf(x->op, sizeof x->op, "%s", pb_db_column_text(q, 4));
    x->size = pb_db_column_int64(q, 5);
    x->r.est = pb_db_column_double(q, 6);
    x->r.lo = pb_db_column_double(q, 7);
    x->r.hi = pb_db_column_double(q, 8);
    x->r.p = pb_db_column_double(q, 9);
    x->r.n = pb_db_column_int(q, 10);
    x->r.layouts = pb_db_column_int(q, 11);
    x->r.layout_lo = pb_query_real(q, 12);
    x->r.layout_hi = pb_query_real(q, 13);
    x->r.shared = pb_db_column_type(q, 14) == PB_DB_NULL ? 0 : pb_db_column_int(q, 14);
    return 0;
}

static int load_ratios(pb_store *st, int64_t run, pb_report_data *d, pb_err *e)
{
    pb_stmt *q;
    if (pb_query(st, &q, e, NULL,
                 "SELECT metric, baseline, candidate, variant, op, size_bytes, estimate, ci_lo, ci_hi, p_value,"
                 " n_pairs, layouts, layout_lo, layout_hi, shared_pairs FROM ratios WHERE run_id=?1 ORDER BY id", "i",
                 run) < 0)
        return -1;
    ratios_ctx c = {d, run, e};
    return pb_query_rows(st, q, ratio_of_row, &c, e, "reading ratios");
}

static int load_unavailable(pb_store *st, int64_t run, pb_report_data *d, pb_err *e)
{
    pb_stmt *q;
    if (pb_query(st, &q, e, NULL, "SELECT impl, variant, op, reason FROM cases WHERE run_id=?1 AND status='unavailable'",
                 "i", run) < 0)
        return -1;
    int rc = 0;
    while (pb_db_step(q) == PB_DB_ROW) {
        unavail_row *x = grow((void **)&d->unavail, &d->nunavail, sizeof *x);
        if (!x) { rc = pb_errf(e, "out of memory loading cases"); break; }
        x->run = run;
        snprintf(x->impl, sizeof x->impl, "%s", pb_db_column_text(q, 0));
        snprintf(x->variant, sizeof x->variant, "%s", pb_db_column_text(q, 1));
        snprintf(x->op, sizeof x->op, "%s", pb_db_column_text(q, 2));
        const char *why = pb_db_column_text(q, 3);
        snprintf(x->reason, sizeof x->reason, "%s", why ? why : "");
    }
    if (pb_db_finalize(q) != PB_DB_OK && rc == 0) rc = pb_store_sqlerr(st, e, "read cases");
    if (rc < 0) return -1;
    /* the notes: one line per impl and reason, its cells listed */
    if (pb_query(st, &q, e, NULL,
                 "SELECT impl, group_concat(variant || ' ' || op, ', '), min(reason) FROM cases"
                 " WHERE run_id=?1 AND status='unavailable' GROUP BY impl, reason", "i", run) < 0)
        return -1;
    while (pb_db_step(q) == PB_DB_ROW) {
        note_row *x = grow((void **)&d->notes, &d->nnotes, sizeof *x);
        if (!x) { rc = pb_errf(e, "out of memory loading cases"); break; }
        x->run = run;
        x->impl = dup_text(q, 0);
        x->cells = dup_text(q, 1);
        x->reason = dup_text(q, 2);
    }
    if (pb_db_finalize(q) != PB_DB_OK && rc == 0) rc = pb_store_sqlerr(st, e, "read cases");
    return rc;
}

static int load_info(pb_store *st, int64_t run, run_info *ri, pb_err *e)
{
    pb_stmt *q;
    if (pb_query(st, &q, e, NULL,
                "SELECT started_at, git_sha, compiler, cflags, cpu_model, cpu_flags, kernel, clock_source,"
                " governor, boost, tick_source, counter_source, command_line, options, target,"
                " COALESCE(guest_kernel,''), libs, suite_settings,"
                " (SELECT CASE WHEN count(s.speed) > 0 THEN sum(CASE WHEN s.speed = 'fast' THEN 1 ELSE 0 END)"
                "   || ' of ' || count(*) END"
                "   FROM samples s JOIN cases c ON c.id = s.case_id WHERE c.run_id = runs.id),"
                " cpu_affinity, NULL, noise, loadavg_start, loadavg_end, build_parity"
                " FROM runs WHERE id = ?1", "i", run) < 0)
        return -1;
    ri->run = run;
    if (pb_db_step(q) == PB_DB_ROW) {
        ri->have = 1;
        for (int i = 0; i < RUN_INFO_IDENTITY; i++) ri->col[i] = dup_text(q, i);
        ri->col[RUN_INFO_PARITY] = dup_text(q, 24);
        if (ri->col[RUN_INFO_PARITY] && !*ri->col[RUN_INFO_PARITY]) {
            free(ri->col[RUN_INFO_PARITY]);
            ri->col[RUN_INFO_PARITY] = NULL;
        }
        /* column 20, the load averages, formatted here (SQLite's printf() is not PostgreSQL's) */
        int has_start = pb_db_column_type(q, 22) != PB_DB_NULL, has_end = pb_db_column_type(q, 23) != PB_DB_NULL;
        if (has_start || has_end) {
            char a[32] = "unknown", b[32] = "unknown", both[80];
            if (has_start) snprintf(a, sizeof a, "%.2f", pb_db_column_double(q, 22));
            if (has_end) snprintf(b, sizeof b, "%.2f", pb_db_column_double(q, 23));
            snprintf(both, sizeof both, "%s at start, %s at end", a, b);
            free(ri->col[20]);
            ri->col[20] = strdup(both);
        }
    }
    pb_db_finalize(q);
    if (!ri->have) return 0;
    pb_cpu_identity id;
    char words[600];
    if (pb_store_run_identity(st, run, &id, e) < 0) return -1;
    pb_cpu_identity_describe(&id, words, sizeof words);
    if (!(ri->col[RUN_INFO_IDENTITY] = strdup(words))) return pb_errf(e, "out of memory loading run %lld", (long long)run);
    return 0;
}

void pb_report_data_free(pb_report_data *d)
{
    free(d->m.v);
    free(d->t.v);
    free(d->doc.v);
    free(d->ratios);
    free(d->unavail);
    for (size_t i = 0; i < d->nnotes; i++) {
        free(d->notes[i].impl);
        free(d->notes[i].cells);
        free(d->notes[i].reason);
    }
    free(d->notes);
    free(d->spreads);
    free(d->fns);
    pb_run_sides_free(&d->sides);
    pb_decomp_free(&d->decomp);
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < RUN_INFO_COLS; i++) free(d->info[k].col[i]);
    memset(d, 0, sizeof *d);
}

/* The spread of each of run's measured cases, where the suite's sample is one process */
static int load_spreads(pb_store *st, const pb_suite *s, pb_report_data *d, pb_err *e)
{
    if (!s->sample_words) return 0;
    for (int i = 0; i < d->m.n; i++) {
        const row *x = &d->m.v[i];
        if (x->guest) continue;
        pb_time_spread sp;
        const pb_case_key k = {.impl = x->impl, .variant = x->variant, .op = x->op, .size = x->size};
        int rc = pb_store_time_spread(st, d->run, &k, &sp);
        if (rc < 0) return pb_errf(e, "reading the samples of run %lld failed", (long long)d->run);
        if (rc == 0) continue;
        spread_row *y = grow((void **)&d->spreads, &d->nspreads, sizeof *y);
        if (!y) return pb_errf(e, "out of memory");
        snprintf(y->impl, sizeof y->impl, "%s", x->impl);
        snprintf(y->variant, sizeof y->variant, "%s", x->variant);
        snprintf(y->op, sizeof y->op, "%s", x->op);
        y->size = x->size;
        y->sp = sp;
    }
    return 0;
}

/* Where old and new differ (docs/counts.md): the per-function rows of the run where it is a count run,
 * else of the suite's latest count run (the report's other runs are timed: they have none) */
static int load_fns(pb_store *st, const pb_suite *s, int64_t run, pb_report_data *d, pb_err *e)
{
    int64_t id = 0;
    if (pb_query_int(st, &id, e, "find the count run",
                     "SELECT CASE WHEN EXISTS (SELECT 1 FROM runs WHERE id = ?1 AND target = 'valgrind') THEN ?1 ELSE"
                     " (SELECT max(id) FROM runs WHERE suite = ?2 AND status = 'complete' AND target = 'valgrind') END",
                     "it", run, s->name) < 0)
        return -1;
    d->count_run = id;
    return id > 0 ? pb_store_func_counts(st, id, NULL, &d->fns, &d->nfns, e) : 0;
}

int pb_report_data_load(pb_store *st, const pb_suite *s, int64_t run, int64_t guest_run, const char *data_dir,
                        pb_report_data *d, pb_err *e)
{
    const char *metric = pb_suite_primary_metric(s);
    memset(d, 0, sizeof *d);
    d->run = run;
    d->guest_run = guest_run;
    int rc = load_measured(st, run, metric, 0, &d->m, e);
    if (rc == 0 && guest_run) rc = load_measured(st, guest_run, metric, 1, &d->m, e);
    if (rc == 0 && !d->m.n)
        rc = pb_errf(e, "run %lld has no complete %s results for metric %s", (long long)run, s->name, metric);
    /* the time per op, whatever the primary metric, for the per-item columns (suite.h item_unit) */
    if (rc == 0 && pb_suite_has_items(s)) rc = load_measured(st, run, PB_DEFAULT_METRIC, 0, &d->t, e);
    if (rc == 0 && pb_suite_has_items(s) && guest_run) rc = load_measured(st, guest_run, PB_DEFAULT_METRIC, 1, &d->t, e);
    if (rc == 0) rc = load_doc(data_dir, s->name, metric, &d->doc, e);
    for (int k = 0; k < 2 && rc == 0; k++) {
        int64_t r = k ? guest_run : run;
        if (!r) continue;
        rc = load_ratios(st, r, d, e);
        if (rc == 0) rc = load_unavailable(st, r, d, e);
        if (rc == 0) rc = load_info(st, r, &d->info[k], e);
    }
    if (rc == 0) rc = load_spreads(st, s, d, e);
    if (rc == 0) rc = pb_store_run_sides(st, run, &d->sides, e);
    if (rc == 0) rc = load_fns(st, s, run, d, e);
    if (rc == 0) rc = pb_decomp_load(st, run, &d->decomp, e);
    if (rc < 0) pb_report_data_free(d);
    return rc;
}

/* What bench run needs of a suite's verdicts to find the cells near a boundary (report.h). */
struct pb_report_near {
    const pb_suite *s;
    rows doc;
    pb_verdict_cfg cfg;
};

pb_report_near *pb_report_near_open(const pb_suite *s, const char *data_dir, pb_err *e)
{
    pb_report_near *n = calloc(1, sizeof *n);
    if (!n) {
        pb_errf(e, "out of memory");
        return NULL;
    }
    n->s = s;
    if (pb_verdict_cfg_load(data_dir, s->name, &n->cfg, e) < 0 ||
        load_doc(data_dir, s->name, pb_suite_primary_metric(s), &n->doc, e) < 0) {
        pb_report_near_close(n);
        return NULL;
    }
    return n;
}

double pb_report_near_cell(void *ctx, const pb_cell *cell, double est, double lo, double hi)
{
    const pb_report_near *n = ctx;
    int64_t size = (int64_t)cell->size_bytes;
    double dt = pb_report_doc_time(n->s, &n->doc, cell->variant, cell->op, size);
    pb_claim c = pb_report_claim(n->s, cell->variant, cell->op, size, dt);
    return pb_verdict_nearness(c, dt, n->cfg.tolerance, est, lo, hi);
}

void pb_report_near_close(pb_report_near *n)
{
    if (!n) return;
    free(n->doc.v);
    free(n);
}

const pb_suite *pb_report_suite_of_run(pb_store *st, const pb_suite *s, int64_t run, pb_run_roles *r)
{
    pb_stmt *q;
    pb_err e = {{0}};
    if (pb_query(st, &q, &e, NULL, "SELECT baseline, candidate FROM runs WHERE id = ?1", "i", run) < 0) return s;
    int named = 0;
    if (pb_db_step(q) == PB_DB_ROW && pb_db_column_type(q, 0) != PB_DB_NULL && pb_db_column_type(q, 1) != PB_DB_NULL) {
        snprintf(r->base, sizeof r->base, "%s", pb_db_column_str(q, 0));
        snprintf(r->cand, sizeof r->cand, "%s", pb_db_column_str(q, 1));
        named = strcmp(r->base, s->baseline) || strcmp(r->cand, s->candidate);
    }
    pb_db_finalize(q);
    if (!named) return s;
    r->named = *s;
    r->named.baseline = r->base;
    r->named.candidate = r->cand;
    /* the user's own pair (exec --cmd NAME=, --gcrypt-lib, --baseline/--candidate): the document's
     * claim is about the suite's pair, not this one, so its cells read as an A/B (docs/verdicts.md) */
    r->named.claim = NULL;
    return &r->named;
}

/* ---- which runs ---- */

/* The store's own words when a query of it cannot even be prepared or read (a corrupt page, a
 * table missing): -1 + e, never a statement bound and stepped that does not exist */
static int store_unreadable(pb_store *st, pb_err *e)
{
    return pb_errf(e, "%s: cannot read the store: %s", st->path, pb_db_errmsg(st->db));
}

int pb_report_latest_run(pb_store *st, const char *suite, int guest, int64_t *id, pb_err *e)
{
    *id = 0;
    if (pb_query_int(st, id, NULL, NULL,
                     "SELECT id FROM runs WHERE status='complete' AND suite=?1"
                     " AND (CASE WHEN target = 'userspace' THEN 0 WHEN target = 'valgrind' THEN -1 ELSE 1 END) = ?2"
                     " ORDER BY id DESC LIMIT 1",
                     "tn", suite, guest) < 0)
        return store_unreadable(st, e);
    return 0;
}

int pb_report_run_row(pb_store *st, int64_t run, pb_run_row *r, pb_err *e)
{
    int found = pb_store_run_row(st, run, r, NULL);
    return found < 0 ? store_unreadable(st, e) : found;
}

int pb_export_runs(pb_store *st, int64_t run, const char *suite, int64_t *ids, int cap)
{
    return pb_export_runs_of(st, run, suite, "userspace", ids, cap);
}

int pb_export_runs_of(pb_store *st, int64_t run, const char *suite, const char *target, int64_t *ids, int cap)
{
    pb_stmt *q;
    int rc = run ? pb_query(st, &q, NULL, NULL,
                            "SELECT id FROM runs WHERE id = ?1 AND status = 'complete' AND suite = coalesce(?2, suite)",
                            "it", run, suite)
                 : pb_query(st, &q, NULL, NULL,
                            "SELECT max(id) FROM runs WHERE status = 'complete' AND target = ?3"
                            " AND suite = coalesce(?2, suite) GROUP BY suite ORDER BY suite", "-tt", suite, target);
    if (rc < 0) return -1;
    int n = 0;
    rc = PB_DB_DONE;
    while (n < cap && (rc = pb_db_step(q)) == PB_DB_ROW) ids[n++] = pb_db_column_int64(q, 0);
    pb_db_finalize(q);
    return n < cap && rc != PB_DB_DONE ? -1 : n;
}

/* ---- export's rows ---- */

int pb_report_each_stat(pb_store *st, const int64_t *ids, int n, void (*each)(void *ctx, const pb_stat_row *r),
                        void *ctx)
{
    for (int k = 0; k < n; k++) {
        pb_stmt *q;
        if (pb_query(st, &q, NULL, NULL,
                     "SELECT run_id, suite, impl, variant, op, size_bytes, metric, unit, n, median, p10, p90 FROM summary"
                     " WHERE run_id = ?1 ORDER BY suite, variant, op, size_bytes, impl, metric", "i", ids[k]) < 0)
            return -1;
        while (pb_db_step(q) == PB_DB_ROW) {
            const pb_stat_row r = {
                .run = pb_db_column_int64(q, 0), .suite = pb_db_column_str(q, 1), .impl = pb_db_column_str(q, 2),
                .variant = pb_db_column_str(q, 3), .op = pb_db_column_str(q, 4), .size = pb_db_column_int64(q, 5),
                .metric = pb_db_column_str(q, 6), .unit = pb_db_column_str(q, 7), .n = pb_db_column_int64(q, 8),
                .median = pb_db_column_double(q, 9), .p10 = pb_db_column_double(q, 10),
                .p90 = pb_db_column_double(q, 11)};
            each(ctx, &r);
        }
        if (pb_db_finalize(q) != PB_DB_OK) return -1;
    }
    return 0;
}

int pb_report_each_export_ratio(pb_store *st, int64_t run, void (*each)(void *ctx, const pb_export_ratio *r),
                                void *ctx)
{
    pb_stmt *q;
    if (pb_query(st, &q, NULL, NULL,
                 "SELECT suite, variant, op, size_bytes, metric, baseline, candidate, estimate, ci_lo,"
                 " ci_hi, p_value, n_pairs, layouts, layout_lo, layout_hi FROM summary_ratios"
                 " WHERE run_id = ?1 ORDER BY id", "i", run) < 0)
        return -1;
    while (pb_db_step(q) == PB_DB_ROW) {
        const pb_export_ratio r = {
            .run = run, .suite = pb_db_column_str(q, 0), .variant = pb_db_column_str(q, 1),
            .op = pb_db_column_str(q, 2), .size = pb_db_column_int64(q, 3), .metric = pb_db_column_str(q, 4),
            .baseline = pb_db_column_str(q, 5), .candidate = pb_db_column_str(q, 6),
            .estimate = pb_db_column_double(q, 7), .ci_lo = pb_db_column_double(q, 8),
            .ci_hi = pb_db_column_double(q, 9), .p_value = pb_db_column_double(q, 10),
            .n_pairs = pb_db_column_int64(q, 11), .layouts = pb_db_column_int64(q, 12),
            .layout_lo = pb_query_real(q, 13), .layout_hi = pb_query_real(q, 14)};
        each(ctx, &r);
    }
    return pb_db_finalize(q) == PB_DB_OK ? 0 : -1;
}

/* ---- history's series ---- */

int pb_report_history_rows(pb_store *st, const char *suite, const char *impl, const char *metric, const char *target,
                           pb_stmt **q, pb_err *e)
{
    return pb_query(st, q, e, NULL,
                    "SELECT COALESCE(r.machine_id, r.cpu_model, '?'), s.variant, s.op, s.size_bytes, r.id,"
                    " COALESCE(substr(r.git_sha, 1, 12), '?'), r.started_at, s.median,"
                    " COALESCE(r.user_label, r.user_revision, '')"
                    " FROM summary s JOIN runs r ON r.id = s.run_id"
                    " WHERE s.suite = ?1 AND s.impl = ?2 AND s.metric = ?3 AND r.target = ?4"
                    " ORDER BY 1, 2, 3, 4, r.started_at, r.id", "tttt", suite, impl, metric, target);
}

int pb_report_history_next(pb_store *st, pb_stmt *q, pb_history_row *r, pb_err *e)
{
    int step = pb_db_step(q);
    if (step == PB_DB_DONE) return 0;
    if (step != PB_DB_ROW) return pb_errf(e, "%s", pb_db_errmsg(st->db));
    *r = (pb_history_row){.machine = pb_db_column_text(q, 0), .variant = pb_db_column_text(q, 1),
                          .op = pb_db_column_text(q, 2), .size = pb_db_column_int64(q, 3),
                          .run = pb_db_column_int64(q, 4), .git = pb_db_column_text(q, 5),
                          .started = pb_db_column_text(q, 6), .median = pb_db_column_double(q, 7),
                          .user = pb_db_column_text(q, 8)};
    return 1;
}

typedef struct rev_rows {
    int (*each)(void *ctx, int64_t run, const char *git, const char *user, const char *repo);
    void *ctx;
} rev_rows;

static int rev_row(void *ctx, pb_stmt *q)
{
    rev_rows *x = ctx;
    return x->each(x->ctx, pb_db_column_int64(q, 0), pb_db_column_str(q, 1), pb_db_column_str(q, 2),
                   pb_db_column_str(q, 3));
}

int pb_report_each_run_rev(pb_store *st, const char *suite,
                           int (*each)(void *ctx, int64_t run, const char *git, const char *user, const char *repo),
                           void *ctx, pb_err *e)
{
    pb_stmt *q;
    if (pb_query(st, &q, e, "history: read runs",
                 "SELECT id, COALESCE(git_sha, ''), COALESCE(user_revision, ''), COALESCE(user_repo, '')"
                 " FROM runs WHERE suite = ?1 AND status = 'complete' AND target IN ('userspace', 'valgrind')"
                 " ORDER BY id",
                 "t", suite) < 0)
        return -1;
    rev_rows x = {each, ctx};
    return pb_query_rows(st, q, rev_row, &x, e, "history: read runs");
}

/* ---- the per-machine report's columns ---- */

int pb_report_each_machine_run(pb_store *st, const char *suite, int (*each)(void *ctx, const pb_machine_run *r),
                               void *ctx, pb_err *e)
{
    pb_stmt *q;
    if (pb_query(st, &q, e, NULL,
                 "SELECT id, machine_id, target, cpu_affinity, cpu_model, started_at, hostname FROM runs"
                 " WHERE status = 'complete' AND suite = ?1 ORDER BY started_at DESC, id DESC", "t", suite) < 0)
        return -1;
    int rc = 0;
    while (rc == 0 && pb_db_step(q) == PB_DB_ROW) {
        const pb_machine_run r = {.run = pb_db_column_int64(q, 0), .machine = pb_db_column_str(q, 1),
                                  .target = pb_db_column_str(q, 2), .affinity = pb_db_column_str(q, 3),
                                  .cpu = pb_db_column_str(q, 4), .started = pb_db_column_str(q, 5),
                                  .host = pb_db_column_str(q, 6)};
        rc = each(ctx, &r);
    }
    if (pb_db_finalize(q) != PB_DB_OK && rc == 0) rc = pb_store_sqlerr(st, e, "read runs");
    return rc;
}

typedef struct pair_rows {
    int (*each)(void *ctx, const char *base, const char *cand);
    void *ctx;
} pair_rows;

static int pair_row(void *ctx, pb_stmt *q)
{
    pair_rows *x = ctx;
    return x->each(x->ctx, pb_db_column_str(q, 0), pb_db_column_str(q, 1));
}

int pb_report_each_ratio_pair(pb_store *st, int64_t run, const char *metric,
                              int (*each)(void *ctx, const char *base, const char *cand), void *ctx, pb_err *e)
{
    pb_stmt *q;
    if (pb_query(st, &q, e, NULL,
                 "SELECT DISTINCT baseline, candidate FROM ratios WHERE run_id = ?1 AND metric = ?2"
                 " ORDER BY baseline, candidate", "it", run, metric) < 0)
        return -1;
    pair_rows x = {each, ctx};
    return pb_query_rows(st, q, pair_row, &x, e, "reading ratios");
}
