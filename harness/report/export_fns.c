/* SPDX-License-Identifier: GPL-2.0-only */
/* export_fns.c — per-function counts in the JSON export (export.h, docs/counts.md). */
#include "export.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static json_t *real_or_null(double v) { return isfinite(v) ? json_real(v) : json_null(); }

static json_t *row_object(int64_t run, const pb_fn_row *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "run_id", json_integer(run));
    json_object_set_new(o, "impl", pb_json_text(r->impl));
    json_object_set_new(o, "variant", pb_json_text(r->variant));
    json_object_set_new(o, "op", pb_json_text(r->op));
    json_object_set_new(o, "size_bytes", json_integer((json_int_t)r->size));
    json_object_set_new(o, "rank", json_integer(r->rank));
    json_object_set_new(o, "function", pb_json_text(r->func));
    json_object_set_new(o, "insns_per_op", real_or_null(r->insns));
    json_object_set_new(o, "l1_miss_per_op", real_or_null(r->l1_miss));
    json_object_set_new(o, "ll_miss_per_op", real_or_null(r->ll_miss));
    json_object_set_new(o, "branch_miss_per_op", real_or_null(r->branch_miss));
    return o;
}

json_t *pb_json_fn_rows(pb_store *st, const int64_t *ids, int n)
{
    json_t *a = json_array();
    for (int k = 0; k < n; k++) {
        pb_fn_row *v = NULL;
        size_t nv = 0;
        pb_err e = {{0}};
        if (pb_store_func_counts(st, ids[k], NULL, &v, &nv, &e) < 0) break;
        for (size_t i = 0; i < nv; i++) json_array_append_new(a, row_object(ids[k], &v[i]));
        free(v);
    }
    return a;
}

json_t *pb_json_fn_deltas(const pb_fn_delta *d, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++) {
        json_t *o = json_object();
        json_object_set_new(o, "function", pb_json_text(d[i].func));
        json_object_set_new(o, "baseline", real_or_null(d[i].base));
        json_object_set_new(o, "candidate", real_or_null(d[i].cand));
        json_object_set_new(o, "delta", json_real(d[i].delta));
        json_array_append_new(a, o);
    }
    return a;
}

/* each cell of the run's candidate against its baseline */
static void run_diffs(json_t *a, int64_t run, const pb_run_row *rr, const pb_fn_row *v, size_t nv)
{
    for (size_t i = 0; i < nv; i++) {
        const pb_fn_row *c = &v[i];
        if (strcmp(c->impl, rr->candidate) || (i && !strcmp(v[i - 1].impl, c->impl) &&
                                               !strcmp(v[i - 1].variant, c->variant) &&
                                               !strcmp(v[i - 1].op, c->op) && v[i - 1].size == c->size))
            continue;
        size_t fb, fc;
        size_t nb = pb_fn_rows_of(v, nv, rr->baseline, c->variant, c->op, c->size, &fb);
        size_t nc = pb_fn_rows_of(v, nv, c->impl, c->variant, c->op, c->size, &fc);
        pb_fn_delta d[PB_FN_SHOWN];
        size_t n = pb_fn_diff(v + fb, nb, v + fc, nc, d, PB_FN_SHOWN);
        if (!n) continue;
        double total = 0;
        for (size_t k = 0; k < n; k++) total += d[k].delta;
        json_t *o = json_object();
        json_object_set_new(o, "run_id", json_integer(run));
        json_object_set_new(o, "baseline", pb_json_text(rr->baseline));
        json_object_set_new(o, "candidate", pb_json_text(rr->candidate));
        json_object_set_new(o, "variant", pb_json_text(c->variant));
        json_object_set_new(o, "op", pb_json_text(c->op));
        json_object_set_new(o, "size_bytes", json_integer((json_int_t)c->size));
        json_object_set_new(o, "metric", json_string("insns_per_op"));
        json_object_set_new(o, "total_delta", json_real(total));
        json_object_set_new(o, "functions", pb_json_fn_deltas(d, n));
        json_array_append_new(a, o);
    }
}

json_t *pb_json_fn_diffs(pb_store *st, const int64_t *ids, int n)
{
    json_t *a = json_array();
    for (int k = 0; k < n; k++) {
        pb_run_row rr;
        pb_fn_row *v = NULL;
        size_t nv = 0;
        pb_err e = {{0}};
        if (pb_store_run_row(st, ids[k], &rr, &e) != 1 || pb_store_func_counts(st, ids[k], NULL, &v, &nv, &e) < 0)
            break;
        run_diffs(a, ids[k], &rr, v, nv);
        free(v);
    }
    return a;
}
