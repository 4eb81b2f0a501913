/* SPDX-License-Identifier: GPL-2.0-only */
/* export.c — a run's per-cell statistics (the `summary` view) for other tools, behind `bench
 * export`: the renderers of the table's export formats (render.h). JSON is written with libjansson,
 * never by hand. gbench is Google Benchmark's JSON schema with one aggregate (the median over every
 * stored sample) per (cell, impl), named suite/impl/variant/op/bytes: names stable across runs (no
 * iteration count in them), so that GB's compare.py matches two exports line by line. */
#include "export.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "render.h"
#include "text_out.h"

json_t *pb_json_text(const char *s)
{
    if (!s) return json_null();
    json_t *j = json_string(s);
    if (j) return j;
    char *ascii = strdup(s);
    if (!ascii) return json_null();
    for (char *p = ascii; *p; p++)
        if ((unsigned char)*p >= 0x80) *p = '?';
    j = json_string(ascii);
    free(ascii);
    return j ? j : json_null();
}

/* RFC 4180, and formula-looking names neutralised (text_out.h) */
static void csv_field(FILE *f, const char *s, int last)
{
    pb_csv_fputs(f, s);
    fputc(last ? '\n' : ',', f);
}

int pb_export_runs(pb_store *st, int64_t run, const char *suite, int64_t *ids, int cap)
{
    pb_stmt *q;
    const char *sql = run ? "SELECT id FROM runs WHERE id = ?1 AND status = 'complete' AND suite = coalesce(?2, suite)"
                             : "SELECT max(id) FROM runs WHERE status = 'complete' AND target = 'userspace'"
                               " AND suite = coalesce(?2, suite) GROUP BY suite ORDER BY suite";
    if (pb_db_prepare(st->db, sql, &q) != PB_DB_OK) return -1;
    if (run) pb_db_bind_int64(q, 1, run);
    if (suite) pb_db_bind_text(q, 2, suite);
    int n = 0, rc = PB_DB_DONE;
    while (n < cap && (rc = pb_db_step(q)) == PB_DB_ROW) ids[n++] = pb_db_column_int64(q, 0);
    pb_db_finalize(q);
    return n < cap && rc != PB_DB_DONE ? -1 : n;
}

/* SELECT cols FROM the samples of case (run, impl, variant, op, size), prepared and bound: 0, or -1 */
static int case_samples(pb_store *st, const char *cols, int64_t run, const char *impl, const char *variant,
                        const char *op, int64_t size, pb_stmt **q)
{
    char sql[640];
    snprintf(sql, sizeof sql,
             "SELECT %s FROM samples s JOIN cases c ON c.id = s.case_id WHERE c.run_id = ?1 AND c.impl = ?2"
             " AND c.variant = ?3 AND c.op = ?4 AND c.size_bytes = ?5 AND c.status = 'ok'", cols);
    if (pb_db_prepare(st->db, sql, q) != PB_DB_OK) return -1;
    pb_db_bind_int64(*q, 1, run);
    pb_db_bind_text(*q, 2, impl);
    pb_db_bind_text(*q, 3, variant);
    pb_db_bind_text(*q, 4, op);
    pb_db_bind_int64(*q, 5, size);
    return 0;
}

int pb_export_time_spread(pb_store *st, int64_t run, const char *impl, const char *variant, const char *op,
                          int64_t size, pb_time_spread *out)
{
    memset(out, 0, sizeof *out);
    pb_stmt *q;
    /* sums, not the database's stddev (SQLite has none): the deviation is taken here, from the mean */
    if (case_samples(st,
                     "count(*), avg(s.ns / s.iterations), min(s.ns / s.iterations), max(s.ns / s.iterations),"
                     " count(s.user_ns), count(s.sys_ns), avg(s.user_ns / s.iterations), avg(s.sys_ns / s.iterations),"
                     " count(s.cpu_ns), avg(s.cpu_ns / s.iterations)",
                     run, impl, variant, op, size, &q) < 0)
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
    if (case_samples(st, "s.ns / s.iterations", run, impl, variant, op, size, &q) < 0) return -1;
    double ss = 0;
    while (pb_db_step(q) == PB_DB_ROW) {
        double d = pb_db_column_double(q, 0) - out->mean;
        ss += d * d;
    }
    pb_db_finalize(q);
    out->stddev = sqrt(ss / (double)(out->n - 1));
    return 1;
}

static const char STATS_SQL[] =
    "SELECT run_id, suite, impl, variant, op, size_bytes, metric, unit, n, median, p10, p90 FROM summary"
    " WHERE run_id = ?1 ORDER BY suite, variant, op, size_bytes, impl, metric";

/* Every row of STATS_SQL of runs ids[0..n), run by run, handed to each(q, ctx). 0, or -1 when a
 * run's query cannot be prepared (the rows before it were handed on). */
static int each_stat(pb_store *st, const int64_t *ids, int n, void (*each)(pb_stmt *q, void *ctx), void *ctx)
{
    for (int r = 0; r < n; r++) {
        pb_stmt *q;
        if (pb_db_prepare(st->db, STATS_SQL, &q) != PB_DB_OK) return -1;
        pb_db_bind_int64(q, 1, ids[r]);
        while (pb_db_step(q) == PB_DB_ROW) each(q, ctx);
        pb_db_finalize(q);
    }
    return 0;
}

/* The time spread of the row's case (the time metric's rows only): 1 when there is one. */
static int row_spread(pb_store *st, pb_stmt *q, pb_time_spread *sp)
{
    if (strcmp(pb_db_column_str(q, 6), PB_DEFAULT_METRIC)) return 0;
    return pb_export_time_spread(st, pb_db_column_int64(q, 0), pb_db_column_str(q, 2), pb_db_column_str(q, 3),
                                 pb_db_column_str(q, 4), pb_db_column_int64(q, 5), sp) == 1;
}

typedef struct row_ctx {
    pb_store *st;
    FILE *f;
    json_t *stats;
} row_ctx;

static void csv_row(pb_stmt *q, void *ctx)
{
    row_ctx *x = ctx;
    FILE *f = x->f;
    fprintf(f, "%lld,", (long long)pb_db_column_int64(q, 0));
    for (int i = 1; i <= 4; i++) csv_field(f, pb_db_column_str(q, i), 0);
    fprintf(f, "%lld,", (long long)pb_db_column_int64(q, 5));
    csv_field(f, pb_db_column_str(q, 6), 0);
    csv_field(f, pb_db_column_str(q, 7), 0);
    /* %.17g: the stored double exactly */
    fprintf(f, "%lld,%.17g,%.17g,%.17g", (long long)pb_db_column_int64(q, 8), pb_db_column_double(q, 9),
            pb_db_column_double(q, 10), pb_db_column_double(q, 11));
    /* the time metric's spread, hyperfine's figures: empty for other metrics, user and sys empty
     * where the samples did not keep them apart */
    pb_time_spread sp;
    if (!row_spread(x->st, q, &sp)) {
        fputs(",,,,,,,\n", f);
        return;
    }
    fprintf(f, ",%.17g,%.17g,%.17g,%.17g", sp.mean, sp.stddev, sp.min, sp.max);
    if (sp.has_split) fprintf(f, ",%.17g,%.17g", sp.user, sp.sys);
    else fputs(",,", f);
    if (sp.has_cpu) fprintf(f, ",%.17g\n", sp.cpu);
    else fputs(",\n", f);
}

int pb_render_csv(const pb_render_out *out, const pb_render_in *in, pb_err *e)
{
    fputs("run_id,suite,impl,variant,op,size_bytes,metric,unit,n,median,p10,p90,mean,stddev,min,max,user,sys,cpu\n", out->f);
    row_ctx x = {.st = in->st, .f = out->f};
    if (each_stat(in->st, in->ids, in->nids, csv_row, &x) < 0) return pb_errf(e, "cannot read the statistics");
    return 0;
}

json_t *pb_json_run_columns(pb_store *st, int64_t id, const char *const *cols, size_t ncols)
{
    json_t *o = json_object();
    pb_stmt *q;
    if (pb_db_prepare(st->db, "SELECT * FROM runs WHERE id = ?1", &q) != PB_DB_OK) return o;
    pb_db_bind_int64(q, 1, id);
    if (pb_db_step(q) == PB_DB_ROW)
        for (int i = 0; i < pb_db_column_count(q); i++)
            for (size_t k = 0; k < ncols; k++) {
                if (strcmp(pb_db_column_name(q, i), cols[k])) continue;
                int type = pb_db_column_type(q, i);
                if (type == PB_DB_INTEGER) json_object_set_new(o, cols[k], json_integer(pb_db_column_int64(q, i)));
                else if (type == PB_DB_FLOAT) json_object_set_new(o, cols[k], json_real(pb_db_column_double(q, i)));
                else if (type != PB_DB_NULL) json_object_set_new(o, cols[k], pb_json_text(pb_db_column_str(q, i)));
            }
    pb_db_finalize(q);
    return o;
}

/* a run's provenance as a JSON object */
static json_t *run_object(pb_store *st, int64_t id)
{
    static const char *const cols[] = {"id", "suite", "status", "target", "started_at", "git_sha", "compiler", "cflags",
                                 "cpu_model", "kernel", "clock_source", "governor", "boost", "tick_source",
                                 "counter_source", "command_line", "options", "libs", "baseline", "candidate",
                                 "primary_metric", "cpu_vendor", "cpu_family", "cpu_model_number", "cpu_stepping",
                                 "cpu_microcode", "cache_l1d_bytes", "cache_l1i_bytes", "cache_l2_bytes",
                                 "cache_l3_bytes", "threads_per_core", "hypervisor"};
    return pb_json_run_columns(st, id, cols, sizeof cols / sizeof cols[0]);
}

static json_t *runs_array(pb_store *st, const int64_t *ids, int n)
{
    json_t *runs = json_array();
    for (int r = 0; r < n; r++) json_array_append_new(runs, run_object(st, ids[r]));
    return runs;
}

/* the whole document, indented, every double exactly (17 digits), a newline after it */
static int dump(FILE *f, json_t *root, pb_err *e)
{
    int rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
    fputc('\n', f);
    json_decref(root);
    return rc ? pb_errf(e, "cannot encode the JSON") : 0;
}

static void json_stat(pb_stmt *q, void *ctx)
{
    row_ctx *x = ctx;
    json_t *stats = x->stats;
    static const char *const names[] = {"suite", "impl", "variant", "op"};
    json_t *o = json_object();
    json_object_set_new(o, "run_id", json_integer(pb_db_column_int64(q, 0)));
    for (int i = 0; i < 4; i++) json_object_set_new(o, names[i], pb_json_text(pb_db_column_str(q, i + 1)));
    json_object_set_new(o, "size_bytes", json_integer(pb_db_column_int64(q, 5)));
    json_object_set_new(o, "metric", pb_json_text(pb_db_column_str(q, 6)));
    json_object_set_new(o, "unit", pb_json_text(pb_db_column_str(q, 7)));
    json_object_set_new(o, "n", json_integer(pb_db_column_int64(q, 8)));
    json_object_set_new(o, "median", json_real(pb_db_column_double(q, 9)));
    json_object_set_new(o, "p10", json_real(pb_db_column_double(q, 10)));
    json_object_set_new(o, "p90", json_real(pb_db_column_double(q, 11)));
    /* the time metric's spread (null for other metrics; user and sys null where not kept apart) */
    pb_time_spread sp;
    int have = row_spread(x->st, q, &sp);
    json_object_set_new(o, "mean", have ? json_real(sp.mean) : json_null());
    json_object_set_new(o, "stddev", have ? json_real(sp.stddev) : json_null());
    json_object_set_new(o, "min", have ? json_real(sp.min) : json_null());
    json_object_set_new(o, "max", have ? json_real(sp.max) : json_null());
    json_object_set_new(o, "user", have && sp.has_split ? json_real(sp.user) : json_null());
    json_object_set_new(o, "sys", have && sp.has_split ? json_real(sp.sys) : json_null());
    json_object_set_new(o, "cpu", have && sp.has_cpu ? json_real(sp.cpu) : json_null());
    json_array_append_new(stats, o);
}

/* every paired ratio of the runs, in the order they were stored */
static json_t *ratios_array(pb_store *st, const int64_t *ids, int n)
{
    static const char *const names[] = {"suite", "variant", "op"};
    json_t *ratios = json_array();
    for (int r = 0; r < n; r++) {
        pb_stmt *q;
        if (pb_db_prepare(st->db,
                          "SELECT suite, variant, op, size_bytes, metric, baseline, candidate, estimate, ci_lo,"
                          " ci_hi, p_value, n_pairs, layouts, layout_lo, layout_hi FROM summary_ratios"
                          " WHERE run_id = ?1 ORDER BY id", &q) != PB_DB_OK)
            break;
        pb_db_bind_int64(q, 1, ids[r]);
        while (pb_db_step(q) == PB_DB_ROW) {
            json_t *o = json_object();
            json_object_set_new(o, "run_id", json_integer(ids[r]));
            for (int i = 0; i < 3; i++) json_object_set_new(o, names[i], pb_json_text(pb_db_column_str(q, i)));
            json_object_set_new(o, "size_bytes", json_integer(pb_db_column_int64(q, 3)));
            json_object_set_new(o, "metric", pb_json_text(pb_db_column_str(q, 4)));
            json_object_set_new(o, "baseline", pb_json_text(pb_db_column_str(q, 5)));
            json_object_set_new(o, "candidate", pb_json_text(pb_db_column_str(q, 6)));
            json_object_set_new(o, "orientation", json_string("time (cost) candidate/baseline; < 1: faster"));
            for (int i = 7; i <= 10; i++)
                json_object_set_new(o, pb_db_column_name(q, i), json_real(pb_db_column_double(q, i)));
            json_object_set_new(o, "n_pairs", json_integer(pb_db_column_int64(q, 11)));
            /* across code layouts (docs/layout.md): how many, and the per-layout range (null: one) */
            json_object_set_new(o, "layouts", json_integer(pb_db_column_int64(q, 12)));
            for (int i = 13; i <= 14; i++)
                json_object_set_new(o, pb_db_column_name(q, i), pb_db_column_type(q, i) == PB_DB_NULL
                                                                    ? json_null() : json_real(pb_db_column_double(q, i)));
            json_array_append_new(ratios, o);
        }
        pb_db_finalize(q);
    }
    return ratios;
}

/* The runs' provenance, every cell's statistics in every metric, and the paired ratios. A run
 * whose statistics cannot be read ends the list (as the ratios' list) without failing. */
int pb_render_json(const pb_render_out *out, const pb_render_in *in, pb_err *e)
{
    json_t *root = json_object(), *stats = json_array();
    json_object_set_new(root, "format", json_string("patchbench-export"));
    json_object_set_new(root, "version", json_integer(1));
    json_object_set_new(root, "runs", runs_array(in->st, in->ids, in->nids));
    json_object_set_new(root, "stats", stats);
    row_ctx x = {.st = in->st, .stats = stats};
    each_stat(in->st, in->ids, in->nids, json_stat, &x);
    json_object_set_new(root, "ratios", ratios_array(in->st, in->ids, in->nids));
    return dump(out->f, root, e);
}

typedef struct gbench_list {
    json_t *benchmarks;
    int family;
} gbench_list;

/* one GB aggregate entry per (cell, impl) in the primary time metric */
static void gbench_stat(pb_stmt *q, void *ctx)
{
    gbench_list *g = ctx;
    if (strcmp(pb_db_column_str(q, 6), PB_DEFAULT_METRIC)) return;
    char name[5 * PB_NAME_MAX + 32];
    snprintf(name, sizeof name, "%s/%s/%s/%s/%lld", pb_db_column_str(q, 1), pb_db_column_str(q, 2),
             pb_db_column_str(q, 3), pb_db_column_str(q, 4), (long long)pb_db_column_int64(q, 5));
    char agg[sizeof name + 8];
    snprintf(agg, sizeof agg, "%s_median", name);
    json_t *o = json_object();
    json_object_set_new(o, "name", pb_json_text(agg));
    json_object_set_new(o, "family_index", json_integer(g->family++));
    json_object_set_new(o, "per_family_instance_index", json_integer(0));
    json_object_set_new(o, "run_name", pb_json_text(name));
    json_object_set_new(o, "run_type", json_string("aggregate"));
    json_object_set_new(o, "repetitions", json_integer(pb_db_column_int64(q, 8)));
    json_object_set_new(o, "threads", json_integer(1));
    json_object_set_new(o, "aggregate_name", json_string("median"));
    json_object_set_new(o, "aggregate_unit", json_string("time"));
    json_object_set_new(o, "iterations", json_integer(pb_db_column_int64(q, 8)));
    /* the store keeps wall time per operation; GB's cpu_time is set to it too */
    json_object_set_new(o, "real_time", json_real(pb_db_column_double(q, 9)));
    json_object_set_new(o, "cpu_time", json_real(pb_db_column_double(q, 9)));
    json_object_set_new(o, "time_unit", json_string("ns"));
    json_array_append_new(g->benchmarks, o);
}

/* Google Benchmark's JSON: what compare.py reads is only the benchmarks; the context says where
 * they came from. */
int pb_render_gbench(const pb_render_out *out, const pb_render_in *in, pb_err *e)
{
    json_t *root = json_object(), *ctx = json_object();
    json_t *first = in->nids ? run_object(in->st, in->ids[0]) : json_object();
    json_t *date = json_object_get(first, "started_at");
    json_object_set_new(ctx, "date", date ? json_incref(date) : json_string(""));
    json_object_set_new(ctx, "executable", json_string("bench"));
    json_object_set_new(ctx, "library_build_type", json_string("release"));
    json_object_set_new(ctx, "patchbench_runs", runs_array(in->st, in->ids, in->nids));
    json_decref(first);
    json_object_set_new(root, "context", ctx);
    gbench_list g = {.benchmarks = json_array(), .family = 0};
    json_object_set_new(root, "benchmarks", g.benchmarks);
    each_stat(in->st, in->ids, in->nids, gbench_stat, &g);
    return dump(out->f, root, e);
}

int pb_export_write(FILE *f, pb_store *st, const char *format, const int64_t *ids, int n)
{
    const pb_renderer *r = pb_renderer_find(PB_RENDER_EXPORT, format);
    if (!r) return -1;
    const pb_render_out out = {.f = f, .name = NULL};
    const pb_render_in in = {.st = st, .ids = ids, .nids = n};
    pb_err e = {{0}};
    return r->render(&out, &in, &e);
}
