/* SPDX-License-Identifier: GPL-2.0-only */
/* dump.c — see dump.h. The SQL names only tables and columns of the schema (the lists below), never
 * text from a file: values are always bound. */
#include "dump.h"

#include <stdio.h>
#include <string.h>

#include "merge_set.h"
#include "query.h"

const pb_dump_table pb_dump_tables[PB_DUMP_NTABLES] = {
    [PB_DUMP_RUNS] = {"runs", NULL, -1, PB_MERGE_RUN_COLS, NULL},
    [PB_DUMP_CASES] = {"cases", "run_id", PB_DUMP_RUNS, PB_MERGE_CASE_COLS, NULL},
    [PB_DUMP_SAMPLES] = {"samples", "case_id", PB_DUMP_CASES, PB_MERGE_SAMPLE_COLS, NULL},
    [PB_DUMP_SAMPLE_METRICS] = {"sample_metrics", "sample_id", PB_DUMP_SAMPLES, "metric, value", "metric"},
    [PB_DUMP_STATS] = {"stats", "case_id", PB_DUMP_CASES, PB_MERGE_STAT_COLS, "metric"},
    [PB_DUMP_OBJECTS] = {"objects", "run_id", PB_DUMP_RUNS, PB_MERGE_OBJECT_COLS, "impl"},
    [PB_DUMP_RATIOS] = {"ratios", "run_id", PB_DUMP_RUNS, PB_MERGE_RATIO_COLS, NULL},
    [PB_DUMP_FUNC_COUNTS] = {"func_counts", "case_id", PB_DUMP_CASES, PB_MERGE_FUNC_COLS, "rank"},
};

/* the i-th name of a comma-separated list (spaces skipped) into buf: buf, or NULL past the end */
static const char *nth(const char *list, int i, char *buf, size_t cap)
{
    const char *p = list;
    for (int k = 0; k < i; k++) {
        p = strchr(p, ',');
        if (!p) return NULL;
        p++;
    }
    while (*p == ' ') p++;
    size_t n = strcspn(p, ",");
    while (n && p[n - 1] == ' ') n--;
    if (n >= cap) n = cap - 1;
    memcpy(buf, p, n);
    buf[n] = 0;
    return buf;
}

int pb_dump_ncols(int t)
{
    int n = 1;
    for (const char *p = pb_dump_tables[t].cols; *p; p++) n += *p == ',';
    return n;
}

const char *pb_dump_col_name(int t, int i, char *buf, size_t cap)
{
    return nth(pb_dump_tables[t].cols, i, buf, cap);
}

int pb_dump_col(int t, const char *name)
{
    char buf[64];
    for (int i = 0, n = pb_dump_ncols(t); i < n; i++)
        if (!strcmp(pb_dump_col_name(t, i, buf, sizeof buf), name)) return i;
    return -1;
}

typedef struct walk {
    pb_store *s;
    pb_stmt *sel[PB_DUMP_NTABLES];
    const pb_dump_cb *cb;
    void *ctx;
    pb_err *e;
} walk;

static int walk_rows(walk *w, int t, int64_t parent);

/* the children of row id of table t, table by table */
static int walk_children(walk *w, int t, int64_t id)
{
    for (int c = 0; c < PB_DUMP_NTABLES; c++)
        if (pb_dump_tables[c].up == t && walk_rows(w, c, id) < 0) return -1;
    return 0;
}

/* The rows of table t under parent (runs: the row parent itself). A level's statement is its own,
 * so a child's walk leaves the parent's statement where it was; the row's columns are handed on
 * before its children are read. */
static int walk_rows(walk *w, int t, int64_t parent)
{
    const pb_dump_table *d = &pb_dump_tables[t];
    if (!w->sel[t]) {
        char sql[2048];
        /* a table without an id has no children: 0 stands for it */
        int k = snprintf(sql, sizeof sql, "SELECT %s, %s FROM %s WHERE %s = ?1 ORDER BY %s", d->key ? "0" : "id",
                         d->cols, d->name, d->parent ? d->parent : "id", d->key ? d->key : "id");
        if (k < 0 || (size_t)k >= sizeof sql) return pb_errf(w->e, "export: SQL for %s too long", d->name);
        if (pb_db_prepare(w->s->db, sql, &w->sel[t]) != PB_DB_OK) return pb_store_sqlerr(w->s, w->e, d->name);
    }
    pb_stmt *q = w->sel[t];
    pb_query_bind(q, "i", parent);
    int n = pb_dump_ncols(t), step;
    char name[64];
    while ((step = pb_db_step(q)) == PB_DB_ROW) {
        int64_t id = pb_db_column_int64(q, 0);
        w->cb->row(w->ctx, t);
        for (int i = 0; i < n; i++) {
            pb_column c = {.name = pb_dump_col_name(t, i, name, sizeof name), .type = pb_db_column_type(q, i + 1)};
            if (c.type == PB_DB_INTEGER) c.i = pb_db_column_int64(q, i + 1);
            else if (c.type == PB_DB_FLOAT) c.d = pb_db_column_double(q, i + 1);
            else if (c.type != PB_DB_NULL) c.text = pb_db_column_str(q, i + 1);
            w->cb->column(w->ctx, &c);
        }
        if (walk_children(w, t, id) < 0) return -1;
        w->cb->end(w->ctx, t);
    }
    if (step != PB_DB_DONE) return pb_store_sqlerr(w->s, w->e, d->name);
    return 0;
}

int pb_dump_run(pb_store *s, int64_t run, const pb_dump_cb *cb, void *ctx, pb_err *e)
{
    walk w = {.s = s, .cb = cb, .ctx = ctx, .e = e};
    int rc = walk_rows(&w, PB_DUMP_RUNS, run);
    for (int t = 0; t < PB_DUMP_NTABLES; t++) pb_db_finalize(w.sel[t]);
    return rc;
}

/* ---- written back ---- */

static int restore_prepare(pb_restore *r, int t, uint64_t mask, pb_err *e)
{
    const pb_dump_table *d = &pb_dump_tables[t];
    char sql[4096], name[64];
    int k = snprintf(sql, sizeof sql, "INSERT INTO %s (%s", d->name, d->parent ? d->parent : "");
    int first = !d->parent, nb = d->parent ? 1 : 0;
    for (int i = 0, n = pb_dump_ncols(t); i < n && k > 0 && (size_t)k < sizeof sql; i++)
        if (mask >> i & 1) {
            k += snprintf(sql + k, sizeof sql - (size_t)k, "%s%s", first ? "" : ", ", pb_dump_col_name(t, i, name, sizeof name));
            first = 0;
            nb++;
        }
    if (k > 0 && (size_t)k < sizeof sql) k += snprintf(sql + k, sizeof sql - (size_t)k, ") VALUES (");
    for (int i = 1; i <= nb && k > 0 && (size_t)k < sizeof sql; i++)
        k += snprintf(sql + k, sizeof sql - (size_t)k, "%s?%d", i > 1 ? ", " : "", i);
    if (k > 0 && (size_t)k < sizeof sql)
        k += snprintf(sql + k, sizeof sql - (size_t)k, ")%s", d->key ? "" : " RETURNING id");
    if (k < 0 || (size_t)k >= sizeof sql) return pb_errf(e, "import: SQL for %s too long", d->name);
    pb_db_finalize(r->ins[t]);
    r->ins[t] = NULL;
    if (pb_db_prepare(r->s->db, sql, &r->ins[t]) != PB_DB_OK) return pb_store_sqlerr(r->s, e, d->name);
    r->mask[t] = mask;
    return 0;
}

static int bind_column(pb_stmt *q, int i, const pb_column *c)
{
    switch (c->type) {
    case PB_DB_INTEGER: return pb_db_bind_int64(q, i, c->i);
    case PB_DB_FLOAT: return pb_db_bind_double(q, i, c->d);
    case PB_DB_NULL: return pb_db_bind_null(q, i);
    default: return pb_db_bind_text(q, i, c->text);
    }
}

int pb_restore_row(pb_restore *r, int t, int64_t parent, const pb_column *c, int n, int64_t *id, pb_err *e)
{
    const pb_dump_table *d = &pb_dump_tables[t];
    int idx[PB_DUMP_MAXCOLS];
    uint64_t mask = 0;
    for (int k = 0; k < n; k++) {
        idx[k] = pb_dump_col(t, c[k].name);
        if (idx[k] < 0 || idx[k] >= PB_DUMP_MAXCOLS) return pb_errf(e, "%s has no column %s", d->name, c[k].name);
        mask |= (uint64_t)1 << idx[k];
    }
    if ((!r->ins[t] || r->mask[t] != mask) && restore_prepare(r, t, mask, e) < 0) return -1;
    pb_stmt *q = r->ins[t];
    pb_db_reset(q);
    pb_db_clear_bindings(q);
    int p = 1;
    if (d->parent) pb_db_bind_int64(q, p++, parent);
    /* parameters in the table's column order, as the statement names them */
    for (int i = 0, nc = pb_dump_ncols(t); i < nc; i++) {
        if (!(mask >> i & 1)) continue;
        for (int k = 0; k < n; k++)
            if (idx[k] == i && bind_column(q, p++, &c[k]) != PB_DB_OK) return pb_store_sqlerr(r->s, e, d->name);
    }
    int step = pb_db_step(q);
    if (step == PB_DB_ROW) {
        *id = pb_db_column_int64(q, 0);
        step = pb_db_step(q);
    }
    pb_db_reset(q);
    if (step != PB_DB_DONE) return pb_errf(e, "%s: insert into %s: %s", r->s->path, d->name, pb_db_errmsg(r->s->db));
    return 0;
}

void pb_restore_free(pb_restore *r)
{
    for (int t = 0; t < PB_DUMP_NTABLES; t++) {
        pb_db_finalize(r->ins[t]);
        r->ins[t] = NULL;
    }
}

int64_t pb_restore_run_by_uuid(pb_store *s, const char *uuid, pb_err *e)
{
    int64_t id = 0;
    int rc = pb_query_int(s, &id, e, "find run by uuid", "SELECT id FROM runs WHERE uuid = ?1", "t", uuid);
    return rc < 0 ? -1 : rc == 0 ? 0 : id;
}
