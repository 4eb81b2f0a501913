/* SPDX-License-Identifier: GPL-2.0-only */
/* export_full.c — `bench export --format json --full`: beside the statistics and ratios every
 * export has, the runs' every row (store/dump.h's tree: each run's columns, its cases with their
 * samples and statistics, its objects and ratios), so that `bench import` of the file into another
 * store gives the same rows (docs/outputs.md, "The lab's JSON, whole"). A real JSON cannot write
 * (an open CI's inf; NaN is NULL in the store) is {"float": "inf"}. */
#include "export.h"

#include <jansson.h>
#include <math.h>

#include "dump.h"
#include "store.h"

typedef struct tree {
    json_t *stack[PB_DUMP_NTABLES + 1];
    int depth;
    json_t *runs;
} tree;

static json_t *value_of(const pb_column *c)
{
    switch (c->type) {
    case PB_DB_INTEGER: return json_integer(c->i);
    case PB_DB_FLOAT:
        if (isfinite(c->d)) return json_real(c->d);
        return json_pack("{s:s}", "float", isnan(c->d) ? "nan" : c->d > 0 ? "inf" : "-inf");
    case PB_DB_NULL: return json_null();
    default: return pb_json_text(c->text);
    }
}

/* a row begins: an object in its parent's list of its table's rows (the runs' list for a run) */
static void row(void *ctx, int t)
{
    tree *x = ctx;
    json_t *o = json_object();
    json_t *list = x->runs;
    if (x->depth > 0) {
        json_t *parent = x->stack[x->depth - 1];
        list = json_object_get(parent, pb_dump_tables[t].name);
        if (!list) {
            list = json_array();
            json_object_set_new(parent, pb_dump_tables[t].name, list);
        }
    }
    json_array_append_new(list, o);
    x->stack[x->depth++] = o;
}

static void column(void *ctx, const pb_column *c)
{
    tree *x = ctx;
    json_object_set_new(x->stack[x->depth - 1], c->name, value_of(c));
}

static void end(void *ctx, int t)
{
    (void)t;
    ((tree *)ctx)->depth--;
}

json_t *pb_export_store_json(pb_store *st, const int64_t *ids, int n, pb_err *e)
{
    static const pb_dump_cb cb = {.row = row, .column = column, .end = end};
    tree x = {.runs = json_array()};
    for (int k = 0; k < n; k++) {
        x.depth = 0;
        if (pb_dump_run(st, ids[k], &cb, &x, e) < 0) {
            json_decref(x.runs);
            return NULL;
        }
    }
    json_t *o = json_object();
    json_object_set_new(o, "schema_version", json_integer(PB_SCHEMA_VERSION));
    json_object_set_new(o, "runs", x.runs);
    return o;
}
