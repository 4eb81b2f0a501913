/* SPDX-License-Identifier: GPL-2.0-only */
/* reads.c — see reads.h */
#include "reads.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query.h"

/* ---- runs ---- */

int pb_store_each_run(pb_store *s, void (*each)(void *ctx, const pb_run_listing *r), void *ctx, pb_err *e)
{
    pb_stmt *q;
    if (pb_query(s, &q, e, NULL,
                 "SELECT r.id, r.suite, r.status, r.target, r.started_at, COALESCE(r.status_reason,''),"
                 " (SELECT count(*) FROM cases c WHERE c.run_id = r.id), substr(r.git_sha,1,12)"
                 " FROM runs r ORDER BY r.id DESC", "") < 0)
        return -1;
    int rc;
    while ((rc = pb_db_step(q)) == PB_DB_ROW) {
        pb_run_listing r = {.id = pb_db_column_int64(q, 0), .suite = pb_db_column_text(q, 1),
                            .status = pb_db_column_text(q, 2), .target = pb_db_column_text(q, 3),
                            .started_at = pb_db_column_text(q, 4), .note = pb_db_column_text(q, 5),
                            .cases = pb_db_column_int(q, 6), .git = pb_db_column_text(q, 7)};
        each(ctx, &r);
    }
    /* a corrupt page shows up here, after some rows: said, not a short list */
    int failed = rc != PB_DB_DONE;
    if (failed) pb_store_sqlerr(s, e, "reading runs");
    pb_db_finalize(q);
    return failed;
}

int pb_store_run_row(pb_store *s, int64_t run, pb_run_row *r, pb_err *e)
{
    memset(r, 0, sizeof *r);
    pb_stmt *q;
    if (pb_query(s, &q, e, "read run",
                 "SELECT suite, status, target, baseline, candidate, primary_metric, machine_id, job_id, git_sha,"
                 " hostname, cpu_model, options, COALESCE(layouts, '1') FROM runs WHERE id = ?1", "i", run) < 0)
        return -1;
    int rc = pb_db_step(q);
    if (rc == PB_DB_ROW) {
        r->id = run;
        char *f[] = {r->suite, r->status, r->target, r->baseline, r->candidate, r->primary_metric, r->machine_id,
                     r->job_id, r->git_sha, r->hostname, r->cpu_model, r->options, r->layouts};
        size_t cap[] = {sizeof r->suite, sizeof r->status, sizeof r->target, sizeof r->baseline, sizeof r->candidate,
                        sizeof r->primary_metric, sizeof r->machine_id, sizeof r->job_id, sizeof r->git_sha,
                        sizeof r->hostname, sizeof r->cpu_model, sizeof r->options, sizeof r->layouts};
        for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) pb_db_column_copy(q, (int)i, f[i], cap[i]);
    }
    pb_db_finalize(q);
    if (rc == PB_DB_ROW) return 1;
    return rc == PB_DB_DONE ? 0 : pb_store_sqlerr(s, e, "read run");
}

int64_t pb_store_newest_run_but(pb_store *s, const char *suite, int64_t but)
{
    int64_t id = 0;
    if (pb_query_int(s, &id, NULL, NULL, "SELECT max(id) FROM runs WHERE suite = ?1 AND status = 'complete' AND id <> ?2",
                     "ti", suite, but) <= 0)
        return 0;
    return id;
}

void pb_store_run_columns(pb_store *s, int64_t id, void (*each)(void *ctx, const pb_column *c), void *ctx)
{
    pb_stmt *q;
    if (pb_query(s, &q, NULL, NULL, "SELECT * FROM runs WHERE id = ?1", "i", id) < 0) return;
    if (pb_db_step(q) == PB_DB_ROW)
        for (int i = 0; i < pb_db_column_count(q); i++) {
            pb_column c = {.name = pb_db_column_name(q, i), .type = pb_db_column_type(q, i)};
            if (c.type == PB_DB_INTEGER) c.i = pb_db_column_int64(q, i);
            else if (c.type == PB_DB_FLOAT) c.d = pb_db_column_double(q, i);
            else if (c.type != PB_DB_NULL) c.text = pb_db_column_str(q, i);
            each(ctx, &c);
        }
    pb_db_finalize(q);
}

/* ---- cases and samples ---- */

static pb_case_key key_of(pb_stmt *q)
{
    return (pb_case_key){.impl = pb_db_column_text(q, 0), .variant = pb_db_column_text(q, 1),
                         .op = pb_db_column_text(q, 2), .size = pb_db_column_int64(q, 3)};
}

int pb_store_each_ok_case(pb_store *s, int64_t run, void (*each)(void *ctx, const pb_case_key *k), void *ctx)
{
    pb_stmt *q;
    if (pb_query(s, &q, NULL, NULL,
                 "SELECT impl, variant, op, size_bytes FROM cases WHERE run_id = ?1 AND status = 'ok' ORDER BY id", "i",
                 run) < 0)
        return -1;
    while (pb_db_step(q) == PB_DB_ROW) {
        pb_case_key k = key_of(q);
        each(ctx, &k);
    }
    return pb_db_finalize(q) == PB_DB_OK ? 0 : -1;
}

int pb_store_each_common_case(pb_store *s, int64_t a, int64_t b, const char *impl,
                              int (*each)(void *ctx, const pb_case_key *k), void *ctx, pb_err *e)
{
    pb_stmt *q;
    if (pb_query(s, &q, e, NULL,
                 "SELECT a.impl, a.variant, a.op, a.size_bytes FROM cases a JOIN cases b"
                 " ON b.run_id = ?2 AND b.impl = a.impl AND b.variant = a.variant AND b.op = a.op"
                 " AND b.size_bytes = a.size_bytes WHERE a.run_id = ?1 AND a.status = 'ok' AND b.status = 'ok'"
                 " AND a.impl = coalesce(?3, a.impl) ORDER BY a.variant, a.op, a.size_bytes, a.impl",
                 "iit", a, b, impl) < 0)
        return -1;
    int rc = 0;
    while (rc == 0 && pb_db_step(q) == PB_DB_ROW) {
        pb_case_key k = key_of(q);
        rc = each(ctx, &k);
    }
    if (pb_db_finalize(q) != PB_DB_OK && rc == 0) rc = pb_store_sqlerr(s, e, "read cases");
    return rc;
}

/* SELECT cols FROM the samples of case k of run (status ok, and `where`), prepared and bound: 0, or -1 */
static int case_samples(pb_store *s, const char *cols, const char *where, int64_t run, const pb_case_key *k,
                        pb_stmt **q)
{
    char sql[768];
    snprintf(sql, sizeof sql,
             "SELECT %s FROM samples s JOIN cases c ON c.id = s.case_id WHERE c.run_id = ?1 AND c.impl = ?2"
             " AND c.variant = ?3 AND c.op = ?4 AND c.size_bytes = ?5%s", cols, where);
    return pb_query(s, q, NULL, NULL, sql, "ittti", run, k->impl, k->variant, k->op, k->size);
}

int pb_store_case_times(pb_store *s, int64_t run, const pb_case_key *k, double **v, size_t *n)
{
    pb_stmt *q;
    *v = NULL;
    *n = 0;
    if (case_samples(s, "s.ns / s.iterations", " AND s.iterations > 0 AND s.ns > 0", run, k, &q) < 0) return -1;
    size_t cap = 0;
    int rc = 0;
    while (pb_db_step(q) == PB_DB_ROW) {
        if (pb_query_grow((void **)v, &cap, *n, sizeof **v) < 0) { rc = -2; break; }
        (*v)[(*n)++] = pb_db_column_double(q, 0);
    }
    if (pb_db_finalize(q) != PB_DB_OK && rc == 0) rc = -1;
    return rc;
}

int pb_store_time_spread(pb_store *s, int64_t run, const pb_case_key *k, pb_time_spread *out)
{
    memset(out, 0, sizeof *out);
    pb_stmt *q;
    /* sums, not the database's stddev (SQLite has none): the deviation is taken here, from the mean */
    if (case_samples(s,
                     "count(*), avg(s.ns / s.iterations), min(s.ns / s.iterations), max(s.ns / s.iterations),"
                     " count(s.user_ns), count(s.sys_ns), avg(s.user_ns / s.iterations), avg(s.sys_ns / s.iterations),"
                     " count(s.cpu_ns), avg(s.cpu_ns / s.iterations)",
                     " AND c.status = 'ok'", run, k, &q) < 0)
        return -1;
    int rc = pb_db_step(q) == PB_DB_ROW ? 0 : -1;
    if (rc == 0) {
        out->n = pb_db_column_int64(q, 0);
        out->mean = pb_db_column_double(q, 1);
        out->min = pb_db_column_double(q, 2);
        out->max = pb_db_column_double(q, 3);
        out->has_split = out->n > 0 && pb_db_column_int64(q, 4) == out->n && pb_db_column_int64(q, 5) == out->n;
        out->user = out->has_split ? pb_db_column_double(q, 6) : 0;
        out->sys = out->has_split ? pb_db_column_double(q, 7) : 0;
        out->has_cpu = out->n > 0 && pb_db_column_int64(q, 8) == out->n;
        out->cpu = out->has_cpu ? pb_db_column_double(q, 9) : 0;
    }
    pb_db_finalize(q);
    if (rc < 0 || out->n < 2) return rc < 0 ? -1 : out->n > 0;
    if (case_samples(s, "s.ns / s.iterations", " AND c.status = 'ok'", run, k, &q) < 0) return -1;
    double ss = 0;
    while (pb_db_step(q) == PB_DB_ROW) {
        double d = pb_db_column_double(q, 0) - out->mean;
        ss += d * d;
    }
    if (pb_db_finalize(q) != PB_DB_OK) return -1;
    out->stddev = sqrt(ss / (double)(out->n - 1));
    return 1;
}

/* ---- statistics and ratios ---- */

int pb_store_ratio(pb_store *s, int64_t run, const char *metric, const char *base, const char *cand,
                   const char *variant, const char *op, int64_t size, double r[3])
{
    pb_stmt *q;
    if (pb_query(s, &q, NULL, NULL,
                 "SELECT estimate, ci_lo, ci_hi FROM ratios WHERE run_id = ?1 AND metric = ?2"
                 " AND baseline = ?3 AND candidate = ?4 AND variant = ?5 AND op = ?6 AND size_bytes = ?7"
                 " AND estimate IS NOT NULL", "ittttti", run, metric, base, cand, variant, op, size) < 0)
        return 0;
    int have = pb_db_step(q) == PB_DB_ROW;
    for (int i = 0; have && i < 3; i++) r[i] = pb_db_column_double(q, i);
    pb_db_finalize(q);
    return have;
}

int pb_store_case_stats(pb_store *s, int64_t run, const char *metric, const char *source, pb_case_stat **out,
                        size_t *n, pb_err *e)
{
    pb_stmt *q;
    *out = NULL;
    *n = 0;
    if (pb_query(s, &q, e, NULL,
                 "SELECT c.impl, c.variant, c.op, c.size_bytes, s.median, s.min, s.max, s.n"
                 " FROM cases c JOIN stats s ON s.case_id = c.id"
                 " WHERE c.run_id = ?1 AND s.metric = ?2 AND s.source = ?3 ORDER BY c.id", "itt", run, metric, source) < 0)
        return -1;
    size_t cap = 0;
    int rc = 0;
    while (pb_db_step(q) == PB_DB_ROW) {
        if (pb_query_grow((void **)out, &cap, *n, sizeof **out) < 0) { rc = pb_errf(e, "out of memory"); break; }
        pb_case_stat *r = &(*out)[(*n)++];
        snprintf(r->impl, PB_NAME_MAX, "%s", pb_db_column_text(q, 0));
        snprintf(r->variant, PB_NAME_MAX, "%s", pb_db_column_text(q, 1));
        snprintf(r->op, PB_NAME_MAX, "%s", pb_db_column_text(q, 2));
        r->size = (uint64_t)pb_db_column_int64(q, 3);
        r->v[1] = pb_db_column_double(q, 4);
        r->v[0] = pb_db_column_double(q, 5);
        r->v[2] = pb_db_column_double(q, 6);
        r->n = pb_db_column_int(q, 7);
    }
    if (pb_db_finalize(q) != PB_DB_OK && rc == 0) rc = pb_store_sqlerr(s, e, "read statistics");
    if (rc < 0) {
        free(*out);
        *out = NULL;
        *n = 0;
    }
    return rc;
}

int pb_store_add_count_stat(pb_store *s, int64_t case_id, const char *metric, const char *unit, int n, double lo,
                            double median, double hi, pb_err *e)
{
    return pb_query_exec(s, e, "insert stats",
                         "INSERT INTO stats (case_id, metric, unit, source, n, median, p10, p90, min, max)"
                         " VALUES (?1, ?2, ?3, 'valgrind', ?4, ?5, ?6, ?7, ?6, ?7)",
                         "ittnddd", case_id, metric, unit, n, median, lo, hi);
}

int pb_store_add_count_ratio(pb_store *s, int64_t run, const char *suite, const char *variant, const char *op,
                             int64_t size, const char *base, const char *cand, double ratio, pb_err *e)
{
    return pb_query_exec(s, e, "insert ratio",
                         "INSERT INTO ratios (run_id, suite, variant, op, size_bytes, metric, baseline, candidate,"
                         " n_pairs, estimate, median_ratio, method)"
                         " VALUES (?1,?2,?3,?4,?5,'insns_per_op',?6,?7,1,?8,?8,"
                         " 'valgrind count ratio (deterministic: no CI)')",
                         "itttittd", run, suite, variant, op, size, base, cand, ratio);
}

/* ---- per-function counts ---- */

int pb_store_add_func_count(pb_store *s, int64_t case_id, const pb_fn_row *r, pb_err *e)
{
    return pb_query_exec(s, e, "insert func_counts",
                         "INSERT INTO func_counts (case_id, rank, func, insns_per_op, l1_miss_per_op, ll_miss_per_op,"
                         " branch_miss_per_op) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                         "intdrrr", case_id, r->rank, r->func, r->insns, r->l1_miss, r->ll_miss, r->branch_miss);
}

typedef struct fn_rows {
    pb_fn_row *v;
    size_t n, cap;
} fn_rows;

static int fn_row(void *ctx, pb_stmt *q)
{
    fn_rows *x = ctx;
    if (pb_query_grow((void **)&x->v, &x->cap, x->n, sizeof *x->v) < 0) return 1;
    pb_fn_row *r = &x->v[x->n++];
    memset(r, 0, sizeof *r);
    snprintf(r->impl, PB_NAME_MAX, "%s", pb_db_column_text(q, 0));
    snprintf(r->variant, PB_NAME_MAX, "%s", pb_db_column_text(q, 1));
    snprintf(r->op, PB_NAME_MAX, "%s", pb_db_column_text(q, 2));
    r->size = (uint64_t)pb_db_column_int64(q, 3);
    r->rank = pb_db_column_int(q, 4);
    snprintf(r->func, PB_FN_NAME, "%s", pb_db_column_text(q, 5));
    r->insns = pb_query_real(q, 6);
    r->l1_miss = pb_query_real(q, 7);
    r->ll_miss = pb_query_real(q, 8);
    r->branch_miss = pb_query_real(q, 9);
    return 0;
}

int pb_store_func_counts(pb_store *s, int64_t run, const char *impl, pb_fn_row **out, size_t *n, pb_err *e)
{
    pb_stmt *q;
    fn_rows x = {0};
    *out = NULL;
    *n = 0;
    if (pb_query(s, &q, e, "read func_counts",
                 "SELECT c.impl, c.variant, c.op, c.size_bytes, f.rank, f.func, f.insns_per_op, f.l1_miss_per_op,"
                 " f.ll_miss_per_op, f.branch_miss_per_op FROM cases c JOIN func_counts f ON f.case_id = c.id"
                 " WHERE c.run_id = ?1 AND (?2 = '' OR c.impl = ?2) ORDER BY c.id, CASE WHEN f.rank = 0 THEN 1 ELSE 0 END, f.rank",
                 "it", run, impl ? impl : "") < 0)
        return -1;
    int rc = pb_query_rows(s, q, fn_row, &x, e, "read func_counts");
    if (rc > 0) rc = pb_errf(e, "out of memory");
    if (rc < 0) { free(x.v); return -1; }
    *out = x.v;
    *n = x.n;
    return 0;
}
