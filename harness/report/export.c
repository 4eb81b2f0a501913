/* SPDX-License-Identifier: GPL-2.0-only */
/* export.c — a run's per-cell statistics (the `summary` view) for other tools, behind `bench
 * export`: the renderers of the table's export formats (render.h). JSON is written with libjansson,
 * never by hand. gbench is Google Benchmark's JSON schema with one aggregate (the median over every
 * stored sample) per (cell, impl), named suite/impl/variant/op/bytes: names stable across runs (no
 * iteration count in them), so that GB's compare.py matches two exports line by line; its cpu_time
 * is the stored CPU time (metric cpu_ns) where the suite stores one, the wall time where not. A suite that
 * counts in items (suite.h item_unit) gets its per-item figures beside its time: rows of their own
 * (csv, json) and GB's items_per_second (gbench). */
#include "export.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gz.h"
#include "metrics.h"
#include "render.h"
#include "report_data.h"
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

/* The time spread of the row's case (the time metric's rows only): 1 when there is one. */
static int row_spread(pb_store *st, const pb_stat_row *r, pb_time_spread *sp)
{
    if (strcmp(r->metric, PB_DEFAULT_METRIC)) return 0;
    const pb_case_key k = {.impl = r->impl, .variant = r->variant, .op = r->op, .size = r->size};
    return pb_store_time_spread(st, r->run, &k, sp) == 1;
}

/* The suite of a row where it counts in items (suite.h item_unit) and the row is its time, else NULL. */
static const pb_suite *items_suite(const pb_stat_row *r)
{
    const pb_suite *s = pb_suite_find(r->suite);
    return pb_suite_has_items(s) && r->size > 0 && !strcmp(r->metric, PB_DEFAULT_METRIC) ? s : NULL;
}

/* The per-item figures of a suite's time row (metrics.h: ns_per_item, items_per_s), to each as rows of
 * their own beside it: derived from the row's statistics at read time, never stored. */
static void each_per_item(const pb_stat_row *r, void (*each)(void *ctx, const pb_stat_row *r), void *ctx)
{
    const pb_suite *s = items_suite(r);
    if (!s) return;
    double items = pb_suite_items(s, (uint64_t)r->size);
    for (size_t i = 0; i < pb_nmetrics; i++) {
        const pb_metric *m = &pb_metrics[i];
        if (!m->per_item) continue;
        char unit[64];
        const double ns[3] = {r->median, r->p10, r->p90};
        double v[3];
        pb_metric_per_item_stats(m, items, ns, v);
        pb_stat_row x = *r;
        x.metric = m->name;
        x.unit = pb_metric_unit_of(m, s, unit, sizeof unit);
        x.median = v[0];
        x.p10 = v[1];
        x.p90 = v[2];
        each(ctx, &x);
    }
}

typedef struct row_ctx {
    pb_store *st;
    FILE *f;
    json_t *stats;
} row_ctx;

static void csv_row(void *ctx, const pb_stat_row *r)
{
    row_ctx *x = ctx;
    FILE *f = x->f;
    fprintf(f, "%lld,", (long long)r->run);
    const char *names[] = {r->suite, r->impl, r->variant, r->op};
    for (int i = 0; i < 4; i++) csv_field(f, names[i], 0);
    fprintf(f, "%lld,", (long long)r->size);
    csv_field(f, r->metric, 0);
    csv_field(f, r->unit, 0);
    /* %.17g: the stored double exactly */
    fprintf(f, "%lld,%.17g,%.17g,%.17g", (long long)r->n, r->median, r->p10, r->p90);
    /* the time metric's spread, hyperfine's figures: empty for other metrics, user and sys empty
     * where the samples did not keep them apart */
    pb_time_spread sp;
    if (!row_spread(x->st, r, &sp)) {
        fputs(",,,,,,,\n", f);
        each_per_item(r, csv_row, ctx);
        return;
    }
    fprintf(f, ",%.17g,%.17g,%.17g,%.17g", sp.mean, sp.stddev, sp.min, sp.max);
    if (sp.has_split) fprintf(f, ",%.17g,%.17g", sp.user, sp.sys);
    else fputs(",,", f);
    if (sp.has_cpu) fprintf(f, ",%.17g\n", sp.cpu);
    else fputs(",\n", f);
    each_per_item(r, csv_row, ctx);
}

int pb_render_csv(const pb_render_out *out, const pb_render_in *in, pb_err *e)
{
    fputs("run_id,suite,impl,variant,op,size_bytes,metric,unit,n,median,p10,p90,mean,stddev,min,max,user,sys,cpu\n", out->f);
    row_ctx x = {.st = in->st, .f = out->f};
    if (pb_report_each_stat(in->st, in->ids, in->nids, csv_row, &x) < 0) return pb_errf(e, "cannot read the statistics");
    return 0;
}

typedef struct columns_ctx {
    json_t *o;
    const char *const *cols;
    size_t ncols;
} columns_ctx;

/* the column into the object where it is one of those asked for and not NULL */
static void add_column(void *ctx, const pb_column *c)
{
    columns_ctx *x = ctx;
    for (size_t k = 0; k < x->ncols; k++) {
        if (strcmp(c->name, x->cols[k])) continue;
        if (c->type == PB_DB_INTEGER) json_object_set_new(x->o, x->cols[k], json_integer(c->i));
        else if (c->type == PB_DB_FLOAT) json_object_set_new(x->o, x->cols[k], json_real(c->d));
        else if (c->type != PB_DB_NULL) json_object_set_new(x->o, x->cols[k], pb_json_text(c->text));
    }
}

json_t *pb_json_run_columns(pb_store *st, int64_t id, const char *const *cols, size_t ncols)
{
    columns_ctx x = {.o = json_object(), .cols = cols, .ncols = ncols};
    pb_store_run_columns(st, id, add_column, &x);
    return x.o;
}

/* whose code the run timed (docs/your-code.md): one object per side, and the build-parity verdict in
 * each; [] where it timed the lab's own code only */
static json_t *sides_array(pb_store *st, int64_t id)
{
    json_t *a = json_array();
    pb_run_sides sd;
    pb_err e = {{0}};
    if (pb_store_run_sides(st, id, &sd, &e) < 0) return a;
    char parity[1024];
    pb_parity_verdict(sd.parity, parity, sizeof parity);
    for (int i = 0; i < sd.n; i++) {
        const pb_side_id *x = &sd.v[i];
        json_t *o = json_object();
        const char *const keys[] = {"impl", "path", "sha256", "build_id", "revision", "label"};
        const char *const v[] = {x->impl, x->path, x->sha256, x->build_id, x->revision, x->label};
        /* "" in the store is unknown: null, as every other unknown of the export */
        for (int k = 0; k < 6; k++) json_object_set_new(o, keys[k], v[k][0] ? pb_json_text(v[k]) : json_null());
        json_object_set_new(o, "build_parity", pb_json_text(parity));
        json_array_append_new(a, o);
    }
    pb_run_sides_free(&sd);
    return a;
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
    json_t *o = pb_json_run_columns(st, id, cols, sizeof cols / sizeof cols[0]);
    json_object_set_new(o, "sides", sides_array(st, id));
    return o;
}

static json_t *runs_array(pb_store *st, const int64_t *ids, int n)
{
    json_t *runs = json_array();
    for (int r = 0; r < n; r++) json_array_append_new(runs, run_object(st, ids[r]));
    return runs;
}

static int gz_chunk(const char *buf, size_t size, void *w)
{
    return pb_gz_write(w, buf, size);
}

/* the whole document, indented, every double exactly (17 digits), a newline after it; gzip'd as
 * it is encoded where out asks (--out FILE.gz: the document is never whole in memory as text) */
static int dump(const pb_render_out *out, json_t *root, pb_err *e)
{
    const size_t flags = JSON_INDENT(2) | JSON_REAL_PRECISION(17);
    if (!out->gzip) {
        int rc = json_dumpf(root, out->f, flags);
        fputc('\n', out->f);
        json_decref(root);
        return rc ? pb_errf(e, "cannot encode the JSON") : 0;
    }
    pb_gz_writer w;
    if (pb_gz_open(&w, out->f, e) < 0) {
        json_decref(root);
        return -1;
    }
    int rc = json_dump_callback(root, gz_chunk, &w, flags);
    json_decref(root);
    if (rc == 0) rc = pb_gz_write(&w, "\n", 1);
    if (pb_gz_close(&w, e) < 0) return -1;
    return rc ? pb_errf(e, "cannot encode the JSON") : 0;
}

/* keys[i]: values[i], text (pb_json_text) or a real number, into o in their order */
static void set_texts(json_t *o, const char *const *keys, const char *const *values, int n)
{
    for (int i = 0; i < n; i++) json_object_set_new(o, keys[i], pb_json_text(values[i]));
}

static void set_reals(json_t *o, const char *const *keys, const double *values, int n)
{
    for (int i = 0; i < n; i++) json_object_set_new(o, keys[i], json_real(values[i]));
}

static void json_stat(void *ctx, const pb_stat_row *r)
{
    row_ctx *x = ctx;
    json_t *o = json_object();
    json_object_set_new(o, "run_id", json_integer(r->run));
    set_texts(o, (const char *const[]){"suite", "impl", "variant", "op"},
              (const char *const[]){r->suite, r->impl, r->variant, r->op}, 4);
    json_object_set_new(o, "size_bytes", json_integer(r->size));
    set_texts(o, (const char *const[]){"metric", "unit"}, (const char *const[]){r->metric, r->unit}, 2);
    json_object_set_new(o, "n", json_integer(r->n));
    set_reals(o, (const char *const[]){"median", "p10", "p90"}, (const double[]){r->median, r->p10, r->p90}, 3);
    /* the time metric's spread (null for other metrics; user and sys null where not kept apart) */
    pb_time_spread sp;
    int have = row_spread(x->st, r, &sp);
    static const char *const keys[] = {"mean", "stddev", "min", "max", "user", "sys", "cpu"};
    const double v[] = {sp.mean, sp.stddev, sp.min, sp.max, sp.user, sp.sys, sp.cpu};
    const int known[] = {have, have, have, have, have && sp.has_split, have && sp.has_split, have && sp.has_cpu};
    for (int i = 0; i < 7; i++) json_object_set_new(o, keys[i], known[i] ? json_real(v[i]) : json_null());
    /* a suite with items (suite.h item_unit): each row says how many of what one op handles */
    const pb_suite *s = pb_suite_find(r->suite);
    if (pb_suite_has_items(s) && r->size > 0) {
        json_object_set_new(o, "items", json_real(pb_suite_items(s, (uint64_t)r->size)));
        json_object_set_new(o, "item_unit", pb_json_text(s->item_unit));
    }
    json_array_append_new(x->stats, o);
    each_per_item(r, json_stat, ctx);
}

/* a ratio of a run as an object of the export's list */
static void json_ratio(void *ctx, const pb_export_ratio *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "run_id", json_integer(r->run));
    set_texts(o, (const char *const[]){"suite", "variant", "op"}, (const char *const[]){r->suite, r->variant, r->op}, 3);
    json_object_set_new(o, "size_bytes", json_integer(r->size));
    set_texts(o, (const char *const[]){"metric", "baseline", "candidate"},
              (const char *const[]){r->metric, r->baseline, r->candidate}, 3);
    json_object_set_new(o, "orientation", json_string("time (cost) candidate/baseline; < 1: faster"));
    set_reals(o, (const char *const[]){"estimate", "ci_lo", "ci_hi", "p_value"},
              (const double[]){r->estimate, r->ci_lo, r->ci_hi, r->p_value}, 4);
    json_object_set_new(o, "n_pairs", json_integer(r->n_pairs));
    /* across code layouts (docs/layout.md): how many, and the per-layout range (null: one) */
    json_object_set_new(o, "layouts", json_integer(r->layouts));
    json_object_set_new(o, "layout_lo", isnan(r->layout_lo) ? json_null() : json_real(r->layout_lo));
    json_object_set_new(o, "layout_hi", isnan(r->layout_hi) ? json_null() : json_real(r->layout_hi));
    json_array_append_new(ctx, o);
}

/* every paired ratio of the runs, in the order they were stored */
static json_t *ratios_array(pb_store *st, const int64_t *ids, int n)
{
    json_t *ratios = json_array();
    for (int r = 0; r < n; r++)
        if (pb_report_each_export_ratio(st, ids[r], json_ratio, ratios) < 0) break;
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
    pb_report_each_stat(in->st, in->ids, in->nids, json_stat, &x);
    json_object_set_new(root, "ratios", ratios_array(in->st, in->ids, in->nids));
    json_object_set_new(root, "functions", pb_json_fn_rows(in->st, in->ids, in->nids));
    json_object_set_new(root, "function_diffs", pb_json_fn_diffs(in->st, in->ids, in->nids));
    json_object_set_new(root, "decomposition", pb_decomp_json(in->st, in->ids, in->nids));
    if (in->full) {
        json_t *rows = pb_export_store_json(in->st, in->ids, in->nids, e);
        if (!rows) {
            json_decref(root);
            return -1;
        }
        json_object_set_new(root, "store", rows);
    }
    return dump(out, root, e);
}

/* A row's case as a key: the run and the GB name (suite/impl/variant/op/bytes). */
static void case_key(const pb_stat_row *r, char *buf, size_t cap)
{
    snprintf(buf, cap, "%lld:%s/%s/%s/%s/%lld", (long long)r->run, r->suite, r->impl, r->variant, r->op,
             (long long)r->size);
}

/* The median CPU time per op (metric cpu_ns) of each case whose suite stores it (metrics.h). */
typedef struct cpu_time {
    char key[5 * PB_NAME_MAX + 64];
    double median;
} cpu_time;

typedef struct gbench_list {
    json_t *benchmarks;
    int family;
    cpu_time *cpu;
    size_t ncpu, cap;
    int oom;
} gbench_list;

static void gbench_cpu(void *ctx, const pb_stat_row *r)
{
    gbench_list *g = ctx;
    if (strcmp(r->metric, "cpu_ns") || g->oom) return;
    if (g->ncpu == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 16;
        cpu_time *c = realloc(g->cpu, cap * sizeof *c);
        if (!c) { g->oom = 1; return; }
        g->cpu = c;
        g->cap = cap;
    }
    cpu_time *c = &g->cpu[g->ncpu++];
    case_key(r, c->key, sizeof c->key);
    c->median = r->median;
}

/* GB's cpu_time of the row's case: its stored CPU time, else (a suite that stores none) its wall time */
static double gbench_cpu_time(const gbench_list *g, const pb_stat_row *r)
{
    char key[sizeof g->cpu->key];
    case_key(r, key, sizeof key);
    for (size_t i = 0; i < g->ncpu; i++)
        if (!strcmp(g->cpu[i].key, key)) return g->cpu[i].median;
    return r->median;
}

/* one GB aggregate entry per (cell, impl) in the primary time metric */
static void gbench_stat(void *ctx, const pb_stat_row *r)
{
    gbench_list *g = ctx;
    if (strcmp(r->metric, PB_DEFAULT_METRIC)) return;
    char name[5 * PB_NAME_MAX + 32];
    snprintf(name, sizeof name, "%s/%s/%s/%s/%lld", r->suite, r->impl, r->variant, r->op, (long long)r->size);
    char agg[sizeof name + 8];
    snprintf(agg, sizeof agg, "%s_median", name);
    json_t *o = json_object();
    json_object_set_new(o, "name", pb_json_text(agg));
    json_object_set_new(o, "family_index", json_integer(g->family++));
    json_object_set_new(o, "per_family_instance_index", json_integer(0));
    json_object_set_new(o, "run_name", pb_json_text(name));
    json_object_set_new(o, "run_type", json_string("aggregate"));
    json_object_set_new(o, "repetitions", json_integer(r->n));
    json_object_set_new(o, "threads", json_integer(1));
    json_object_set_new(o, "aggregate_name", json_string("median"));
    json_object_set_new(o, "aggregate_unit", json_string("time"));
    json_object_set_new(o, "iterations", json_integer(r->n));
    json_object_set_new(o, "real_time", json_real(r->median));
    json_object_set_new(o, "cpu_time", json_real(gbench_cpu_time(g, r)));
    json_object_set_new(o, "time_unit", json_string("ns"));
    /* Google Benchmark's own field for SetItemsProcessed, where the suite counts in items */
    const pb_suite *s = items_suite(r);
    if (s) {
        double items = pb_suite_items(s, (uint64_t)r->size);
        json_object_set_new(o, "items_per_second", json_real(pb_metric_find("items_per_s")->per_item(r->median, items)));
    }
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
    pb_report_each_stat(in->st, in->ids, in->nids, gbench_cpu, &g);
    if (g.oom) {
        free(g.cpu);
        json_decref(root);
        return pb_errf(e, "out of memory");
    }
    pb_report_each_stat(in->st, in->ids, in->nids, gbench_stat, &g);
    free(g.cpu);
    return dump(out, root, e);
}

int pb_export_write(FILE *f, pb_store *st, const char *format, const int64_t *ids, int n)
{
    pb_err e = {{0}};
    return pb_export_write_as(f, st, format, ids, n, 0, 0, &e);
}

int pb_export_write_as(FILE *f, pb_store *st, const char *format, const int64_t *ids, int n, int full, int gzip,
                       pb_err *e)
{
    const pb_renderer *r = pb_renderer_find(PB_RENDER_EXPORT, format);
    if (!r) return -1;
    const pb_render_out out = {.f = f, .name = NULL, .gzip = gzip};
    const pb_render_in in = {.st = st, .ids = ids, .nids = n, .full = full};
    return r->render(&out, &in, e);
}
