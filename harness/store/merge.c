/* SPDX-License-Identifier: GPL-2.0-only */
/* merge.c — `bench merge` (merge.h, docs/fleet.md): complete runs of another store copied with
 * their rows, ids remapped, identity kept by runs.uuid. Every statement is prepared with bound
 * parameters; the SQL names only tables and columns of this schema, never stored text. */
#include "merge.h"
#include "merge_set.h"

#include <errno.h>
#include <sqlite3.h> /* a source file of an older version: read and copied as SQLite (peek_version, copy_to_temp) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The columns copied, per table, at schema version PB_SCHEMA_VERSION (docs/schema.md), without the
 * table's own id and its parent column. A version that adds a column adds it here too (the test
 * merge-copies-every-column compares whole rows). */
const char PB_MERGE_RUN_COLS[] =
    "suite, status, status_reason, started_at, ended_at, target, command_line, options, metrics, baseline,"
    " candidate, primary_metric, git_sha, git_dirty, version, compiler, cflags, buildtype, libs, cpu_model,"
    " cpu_flags, online_cpus, kernel, hostname, virt, clock_source, governor, boost, tick_source, tsc_hz,"
    " counter_source, guest_kernel, machine_id, job_id, suite_settings, uuid, cpu_affinity, loadavg_start,"
    " loadavg_end, noise, layouts, cpu_vendor, cpu_family, cpu_model_number, cpu_stepping, cpu_microcode,"
    " cache_l1d_bytes, cache_l1i_bytes, cache_l2_bytes, cache_l3_bytes, threads_per_core, hypervisor,"
    " user_revision, user_label, user_repo, build_parity";
const char PB_MERGE_OBJECT_COLS[] = "impl, path, real_path, size_bytes, sha256, elf, build_id, compiler, flags,"
                                  " flags_source, producers, comment, needed, build_type, revision, repo";
const char PB_MERGE_CASE_COLS[] = "suite, impl, variant, op, size_bytes, iterations, status, reason, layouts";
const char PB_MERGE_SAMPLE_COLS[] = "round, position, repetition, iterations, ns, cpu_ns, tsc, cycles, instructions,"
                                  " probe_before, probe_after, speed, errors, layout, wait_ns, steal_ns, user_ns, sys_ns,"
                                  " tprobe_before, tprobe_after";
static const char METRIC_COLS[] = "metric, value";
const char PB_MERGE_STAT_COLS[] = "metric, unit, source, n, median, p10, p90, min, max, n_fast, median_fast";
const char PB_MERGE_FUNC_COLS[] = "rank, func, insns_per_op, l1_miss_per_op, ll_miss_per_op, branch_miss_per_op";
const char PB_MERGE_RATIO_COLS[] = "suite, variant, op, size_bytes, metric, baseline, candidate, n_pairs, estimate,"
                                 " ci_lo, ci_hi, conf, p_value, median_ratio, method, layouts, layout_lo,"
                                 " layout_hi, per_layout, shared_pairs";
static const char CMP_COLS[] = "created_at, command, gate, suite, metric, pairing, alpha, conf, power, correction,"
                               " ncells, thresholds, verdict, exit_status, machine_id, job_id, command_line, note,"
                               " baseline";
static const char CELL_COLS[] = "baseline, candidate, variant, op, size_bytes, n_pairs, rounds, ratio, ci_lo, ci_hi,"
                                " conf, p_value, p_holm, se_log, noise, order_effect, mdc, calibrated_mdc, threshold,"
                                " change, verdict, note";
static const char CAL_COLS[] = "created_at, machine_id, job_id, suite, metric, pairing, impl, variant, op, size_bytes,"
                               " repeats, n_pairs, se_log, noise, mdc, worst_ratio, false_alarms, inconclusive,"
                               " threshold";

/* One table copied row by row: SELECT [id,] cols FROM table WHERE parent = ?1 in SRC, INSERT
 * (parent, cols) [RETURNING id] in DEST. Statements are prepared once per merge. */
/* how a copier treats the table's own id: none; the new id returned for the row's children (a
 * round trip a row on PostgreSQL); or no id read back, the rows still copied in their id order
 * (PostgreSQL pipelines such writes: db_pg.c) */
enum { ID_NONE, ID_RETURNED, ID_ORDER };

/* rows an INSERT of an ID_ORDER copier: 64 x 21 parameters of a sample, far under SQLite's 32,766
 * and PostgreSQL's 65,535; a run's samples then cost a statement per 64, not one each */
enum { BATCH_ROWS = 64 };

typedef struct copier {
    const char *table, *parent, *cols;
    int has_id; /* ID_RETURNED: rows have an id that children refer to; ID_ORDER: copied in id order */
    int64_t copied; /* rows inserted by this copier */
    pb_stmt *ins_many, *count; /* ID_ORDER: BATCH_ROWS rows an INSERT, and how many rows a parent has */
    int ncols;
    pb_stmt *sel, *ins;
} copier;

typedef struct merge_ctx {
    pb_store *dest, *src;
    pb_merge_counts *n;
    pb_err *e;
    copier runs, cases, samples, samples_flat, metrics, stats, funcs, ratios, objects, cells;
    pb_stmt *case_has_metrics;
} merge_ctx;

static int count_cols(const char *cols)
{
    int n = 1;
    for (const char *p = cols; *p; p++) n += *p == ',';
    return n;
}

/* c's INSERT of BATCH_ROWS rows of nb parameters each, and its count of a parent's rows in SRC */
static int batch_prepare(merge_ctx *m, copier *c, int nb)
{
    size_t cap = strlen(c->table) + strlen(c->parent) + strlen(c->cols) + 64 + (size_t)BATCH_ROWS * (size_t)nb * 9;
    char *sql = malloc(cap);
    if (!sql) return pb_errf(m->e, "merge: out of memory");
    size_t k = (size_t)snprintf(sql, cap, "INSERT INTO %s (%s, %s) VALUES ", c->table, c->parent, c->cols);
    for (int r = 0; r < BATCH_ROWS && k < cap; r++)
        for (int i = 1; i <= nb && k < cap; i++)
            k += (size_t)snprintf(sql + k, cap - k, "%s?%d%s", i == 1 ? (r ? ", (" : "(") : ", ", r * nb + i, i == nb ? ")" : "");
    int rc = 0;
    if (k >= cap) rc = pb_errf(m->e, "merge: SQL for %s too long", c->table);
    else if (pb_db_prepare(m->dest->db, sql, &c->ins_many) != PB_DB_OK) rc = pb_store_sqlerr(m->dest, m->e, c->table);
    if (rc == 0) {
        snprintf(sql, cap, "SELECT count(*) FROM %s WHERE %s = ?1", c->table, c->parent);
        if (pb_db_prepare(m->src->db, sql, &c->count) != PB_DB_OK) rc = pb_store_sqlerr(m->src, m->e, c->table);
    }
    free(sql);
    return rc;
}

/* parent NULL: the root (runs, comparisons, calibrations): SELECT ... WHERE id = ?1, INSERT without a parent. */
static int copier_prepare(merge_ctx *m, copier *c, const char *table, const char *parent, const char *cols, int has_id)
{
    c->table = table;
    c->parent = parent;
    c->cols = cols;
    c->has_id = has_id;
    c->ncols = count_cols(cols);
    char sql[2048];
    int k = snprintf(sql, sizeof sql, "SELECT %s%s FROM %s WHERE %s = ?1%s", has_id == ID_RETURNED ? "id, " : "",
                     cols, table, parent ? parent : "id", has_id != ID_NONE ? " ORDER BY id" : "");
    if (k < 0 || (size_t)k >= sizeof sql) return pb_errf(m->e, "merge: SQL for %s too long", table);
    if (pb_db_prepare(m->src->db, sql, &c->sel) != PB_DB_OK) return pb_store_sqlerr(m->src, m->e, table);
    k = snprintf(sql, sizeof sql, "INSERT INTO %s (%s%s%s) VALUES (", table, parent ? parent : "", parent ? ", " : "",
                 cols);
    int nb = c->ncols + (parent ? 1 : 0);
    for (int i = 1; i <= nb && k > 0 && (size_t)k < sizeof sql; i++)
        k += snprintf(sql + k, sizeof sql - (size_t)k, "%s?%d", i > 1 ? ", " : "", i);
    if (k > 0 && (size_t)k < sizeof sql) k += snprintf(sql + k, sizeof sql - (size_t)k, ")%s", has_id == ID_RETURNED ? " RETURNING id" : "");
    if (k < 0 || (size_t)k >= sizeof sql) return pb_errf(m->e, "merge: SQL for %s too long", table);
    if (pb_db_prepare(m->dest->db, sql, &c->ins) != PB_DB_OK) return pb_store_sqlerr(m->dest, m->e, table);
    return has_id == ID_ORDER && parent ? batch_prepare(m, c, nb) : 0;
}

static void copier_free(copier *c)
{
    pb_db_finalize(c->sel);
    pb_db_finalize(c->ins);
    pb_db_finalize(c->ins_many);
    pb_db_finalize(c->count);
    c->sel = c->ins = c->ins_many = c->count = NULL;
}

/* Column si of src's current row as parameter di of dst, with its type (the store has no BLOB
 * column: what is neither a number nor NULL is text). */
static int bind_from(pb_stmt *dst, int di, pb_stmt *src, int si)
{
    switch (pb_db_column_type(src, si)) {
    case PB_DB_INTEGER: return pb_db_bind_int64(dst, di, pb_db_column_int64(src, si));
    case PB_DB_FLOAT: return pb_db_bind_double(dst, di, pb_db_column_double(src, si));
    case PB_DB_NULL: return pb_db_bind_null(dst, di);
    default: return pb_db_bind_text(dst, di, pb_db_column_text(src, si));
    }
}

typedef int (*child_fn)(merge_ctx *m, int64_t src_id, int64_t dst_id);

/* SRC's current row of c bound to ins from parameter base + 1 on: DEST's parent, then the columns */
static int bind_row(merge_ctx *m, copier *c, pb_stmt *ins, int base, int64_t dst_parent)
{
    int off = c->has_id == ID_RETURNED ? 1 : 0, p = base + 1;
    if (c->parent) pb_db_bind_int64(ins, p++, dst_parent);
    for (int i = 0; i < c->ncols; i++)
        if (bind_from(ins, p + i, c->sel, off + i) != PB_DB_OK) return pb_store_sqlerr(m->dest, m->e, c->table);
    return 0;
}

/* how many rows SRC's parent src_parent has in c's table (the whole batches go BATCH_ROWS an
 * INSERT, the rest one by one); -1 + m->e */
static int64_t rows_under(merge_ctx *m, copier *c, int64_t src_parent)
{
    pb_db_reset(c->count);
    pb_db_bind_int64(c->count, 1, src_parent);
    int step = pb_db_step(c->count);
    int64_t n = step == PB_DB_ROW ? pb_db_column_int64(c->count, 0) : -1;
    if (step == PB_DB_ROW) step = pb_db_step(c->count);
    pb_db_reset(c->count);
    return step == PB_DB_DONE && n >= 0 ? n : pb_store_sqlerr(m->src, m->e, c->table);
}

/* The current row into the batch statement, as its row number k of BATCH_ROWS; the last one sends it. */
static int batch_row(merge_ctx *m, copier *c, int k, int64_t dst_parent)
{
    if (k == 0) {
        pb_db_reset(c->ins_many);
        pb_db_clear_bindings(c->ins_many);
    }
    if (bind_row(m, c, c->ins_many, k * (c->ncols + 1), dst_parent) < 0) return -1;
    if (k < BATCH_ROWS - 1) return 0;
    if (pb_db_step(c->ins_many) != PB_DB_DONE)
        return pb_errf(m->e, "%s: insert into %s: %s", m->dest->path, c->table, pb_db_errmsg(m->dest->db));
    pb_db_reset(c->ins_many);
    c->copied += BATCH_ROWS;
    return 0;
}

/* Copies the rows of c under SRC parent src_parent to DEST parent dst_parent (root: the row with
 * id src_parent; *root_id receives its new id). child is called for each copied row with an id. */
static int copy_rows(merge_ctx *m, copier *c, int64_t src_parent, int64_t dst_parent, child_fn child, int64_t *root_id)
{
    int rc = 0, step;
    int64_t seen = 0, batched = 0;
    if (c->ins_many && !child) {
        int64_t n = rows_under(m, c, src_parent);
        if (n < 0) return -1;
        batched = n - n % BATCH_ROWS;
    }
    pb_db_reset(c->sel);
    pb_db_bind_int64(c->sel, 1, src_parent);
    while (rc == 0 && (step = pb_db_step(c->sel)) == PB_DB_ROW) {
        if (seen < batched) {
            rc = batch_row(m, c, (int)(seen++ % BATCH_ROWS), dst_parent);
            continue;
        }
        seen++;
        pb_db_reset(c->ins);
        pb_db_clear_bindings(c->ins);
        if ((rc = bind_row(m, c, c->ins, 0, dst_parent)) < 0) break;
        int r = pb_db_step(c->ins);
        int64_t new_id = 0;
        if (c->has_id == ID_RETURNED && r == PB_DB_ROW) {
            new_id = pb_db_column_int64(c->ins, 0);
            r = pb_db_step(c->ins);
        }
        if (r != PB_DB_DONE) { rc = pb_errf(m->e, "%s: insert into %s: %s", m->dest->path, c->table, pb_db_errmsg(m->dest->db)); break; }
        pb_db_reset(c->ins);
        if (!c->parent && root_id) *root_id = new_id;
        c->copied++;
        if (c->has_id == ID_RETURNED && child) {
            /* the SRC statement is re-used by the children of the next level only: save our id first */
            int64_t src_id = pb_db_column_int64(c->sel, 0);
            rc = child(m, src_id, new_id);
        }
    }
    if (rc == 0 && step != PB_DB_DONE) rc = pb_store_sqlerr(m->src, m->e, c->table);
    /* fewer rows than counted: a batch bound and never sent; the source changed under the copy */
    if (rc == 0 && seen < batched) rc = pb_errf(m->e, "%s: %s changed while it was copied", m->src->path, c->table);
    pb_db_reset(c->sel);
    return rc;
}

static int sample_children(merge_ctx *m, int64_t src_id, int64_t dst_id)
{
    m->n->samples++;
    return copy_rows(m, &m->metrics, src_id, dst_id, NULL, NULL);
}

/* whether SRC's case src_case has per-sample metric rows (stores before schema 9 kept derived ones):
 * 1, 0, or -1 + m->e */
static int case_has_metrics(merge_ctx *m, int64_t src_case)
{
    pb_stmt *q = m->case_has_metrics;
    pb_db_reset(q);
    pb_db_bind_int64(q, 1, src_case);
    int step = pb_db_step(q), has = step == PB_DB_ROW ? pb_db_column_int(q, 0) != 0 : 0;
    if (step == PB_DB_ROW) step = pb_db_step(q);
    pb_db_reset(q);
    return step == PB_DB_DONE ? has : pb_store_sqlerr(m->src, m->e, "read sample_metrics");
}

static int case_children(merge_ctx *m, int64_t src_id, int64_t dst_id)
{
    /* samples without metric rows need not their new ids: written without RETURNING, they are
     * pipelined to a PostgreSQL store instead of one round trip each (4,700 rows/s) */
    int has = case_has_metrics(m, src_id);
    if (has < 0) return -1;
    if (!has) {
        int64_t before = m->samples_flat.copied;
        if (copy_rows(m, &m->samples_flat, src_id, dst_id, NULL, NULL) < 0) return -1;
        m->n->samples += m->samples_flat.copied - before;
    } else if (copy_rows(m, &m->samples, src_id, dst_id, sample_children, NULL) < 0) {
        return -1;
    }
    if (copy_rows(m, &m->funcs, src_id, dst_id, NULL, NULL) < 0) return -1;
    return copy_rows(m, &m->stats, src_id, dst_id, NULL, NULL);
}

static int run_children(merge_ctx *m, int64_t src_id, int64_t dst_id)
{
    if (copy_rows(m, &m->cases, src_id, dst_id, case_children, NULL) < 0) return -1;
    if (copy_rows(m, &m->objects, src_id, dst_id, NULL, NULL) < 0) return -1;
    return copy_rows(m, &m->ratios, src_id, dst_id, NULL, NULL);
}

/* DEST's run id of a uuid, 0 if none, -1 on error */
static int64_t dest_run_by_uuid(merge_ctx *m, const char *uuid)
{
    pb_stmt *q;
    if (pb_db_prepare(m->dest->db, "SELECT id FROM runs WHERE uuid = ?1", &q) != PB_DB_OK)
        return pb_store_sqlerr(m->dest, m->e, "find run by uuid");
    pb_db_bind_text(q, 1, uuid);
    int r = pb_db_step(q);
    int64_t id = r == PB_DB_ROW ? pb_db_column_int64(q, 0) : 0;
    pb_db_finalize(q);
    if (r != PB_DB_ROW && r != PB_DB_DONE) return pb_store_sqlerr(m->dest, m->e, "find run by uuid");
    return id;
}

/* One complete run of SRC: skipped if DEST holds its uuid, else copied whole in one transaction. */
static int merge_run(merge_ctx *m, int64_t src_run, const char *uuid)
{
    if (pb_store_begin(m->dest, m->e) < 0) return -1;
    int64_t have = dest_run_by_uuid(m, uuid);
    if (have < 0) goto fail;
    if (have > 0) {
        pb_store_rollback(m->dest);
        m->n->skipped++;
        return 0;
    }
    int64_t samples_before = m->n->samples, new_run = 0;
    if (copy_rows(m, &m->runs, src_run, 0, NULL, &new_run) < 0 || new_run <= 0 ||
        run_children(m, src_run, new_run) < 0) {
        m->n->samples = samples_before;
        goto fail;
    }
    if (pb_store_commit(m->dest, m->e) < 0) {
        m->n->samples = samples_before;
        goto fail;
    }
    m->n->copied++;
    return 0;
fail:
    if (!m->e->msg[0]) pb_errf(m->e, "%s: copying run %s failed", m->dest->path, uuid);
    pb_store_rollback(m->dest);
    return -1;
}

/* ---- the gate's rows ---- */

/* A comparison's runs as "uuid side" lines, sorted; NULL + *nruns -1 when one of them is not a
 * complete run (of db) with a uuid. */
typedef struct cmp_runs {
    int n, all_complete;
    char (*key)[80];     /* "uuid side" */
    int64_t *src_run;    /* SRC run ids (SRC side only) */
    char (*side)[16];
    int64_t *alternation; /* -1: NULL */
} cmp_runs;

static void cmp_runs_free(cmp_runs *r)
{
    free(r->key);
    free(r->src_run);
    free(r->side);
    free(r->alternation);
    memset(r, 0, sizeof *r);
}

static int load_cmp_runs(pb_store *s, int64_t cmp, cmp_runs *r, pb_err *e)
{
    memset(r, 0, sizeof *r);
    r->all_complete = 1;
    pb_stmt *q;
    if (pb_db_prepare(s->db,
                           "SELECT r.uuid, cr.side, r.status, cr.run_id, cr.alternation FROM comparison_runs cr"
                           " JOIN runs r ON r.id = cr.run_id WHERE cr.comparison_id = ?1 ORDER BY r.uuid, cr.side", &q) != PB_DB_OK)
        return pb_store_sqlerr(s, e, "read comparison_runs");
    pb_db_bind_int64(q, 1, cmp);
    int step, cap = 0;
    while ((step = pb_db_step(q)) == PB_DB_ROW) {
        if (r->n == cap) {
            cap = cap ? 2 * cap : 4;
            void *a = realloc(r->key, (size_t)cap * sizeof *r->key), *b = a ? realloc(r->src_run, (size_t)cap * sizeof *r->src_run) : NULL;
            if (a) r->key = a;
            if (b) r->src_run = b;
            void *c = b ? realloc(r->side, (size_t)cap * sizeof *r->side) : NULL;
            if (c) r->side = c;
            void *d = c ? realloc(r->alternation, (size_t)cap * sizeof *r->alternation) : NULL;
            if (d) r->alternation = d;
            if (!d) { pb_db_finalize(q); cmp_runs_free(r); return pb_errf(e, "out of memory"); }
        }
        const char *uuid = pb_db_column_text(q, 0), *side = pb_db_column_text(q, 1),
                            *status = pb_db_column_text(q, 2);
        if (!uuid || !status || strcmp((const char *)status, "complete")) r->all_complete = 0;
        snprintf(r->key[r->n], sizeof r->key[0], "%s %s", uuid ? (const char *)uuid : "", side ? (const char *)side : "");
        snprintf(r->side[r->n], sizeof r->side[0], "%s", side ? (const char *)side : "");
        r->src_run[r->n] = pb_db_column_int64(q, 3);
        r->alternation[r->n] = pb_db_column_type(q, 4) == PB_DB_NULL ? -1 : pb_db_column_int64(q, 4);
        r->n++;
    }
    pb_db_finalize(q);
    if (step != PB_DB_DONE) { cmp_runs_free(r); return pb_store_sqlerr(s, e, "read comparison_runs"); }
    return 0;
}

typedef struct id_map {
    int64_t *from, *to;
    size_t n;
} id_map;

static int map_put(id_map *mp, int64_t from, int64_t to)
{
    int64_t *a = realloc(mp->from, (mp->n + 1) * sizeof *a);
    if (!a) return -1;
    mp->from = a;
    int64_t *b = realloc(mp->to, (mp->n + 1) * sizeof *b);
    if (!b) return -1;
    mp->to = b;
    mp->from[mp->n] = from;
    mp->to[mp->n++] = to;
    return 0;
}

static int64_t map_get(const id_map *mp, int64_t from)
{
    for (size_t i = 0; i < mp->n; i++)
        if (mp->from[i] == from) return mp->to[i];
    return 0;
}

/* DEST's comparison with the same created_at, command, suite, metric, command line and the same
 * runs (by uuid and side) as SRC's: its id, 0 if none, -1 on error. */
static int64_t dest_same_comparison(merge_ctx *m, int64_t src_cmp, const cmp_runs *sr)
{
    pb_stmt *sq, *dq;
    if (pb_db_prepare(m->src->db, "SELECT created_at, command, suite, metric, command_line FROM comparisons WHERE id = ?1", &sq) != PB_DB_OK)
        return pb_store_sqlerr(m->src, m->e, "read comparison");
    pb_db_bind_int64(sq, 1, src_cmp);
    if (pb_db_step(sq) != PB_DB_ROW) { pb_db_finalize(sq); return pb_store_sqlerr(m->src, m->e, "read comparison"); }
    if (pb_db_prepare(m->dest->db,
                           "SELECT id FROM comparisons WHERE created_at = ?1 AND command = ?2 AND suite = ?3 AND metric = ?4"
                           " AND (command_line = ?5 OR (command_line IS NULL AND ?5 IS NULL)) ORDER BY id", &dq) != PB_DB_OK) {
        pb_db_finalize(sq);
        return pb_store_sqlerr(m->dest, m->e, "find comparison");
    }
    for (int i = 0; i < 5; i++) bind_from(dq, i + 1, sq, i);
    int64_t found = 0;
    int step;
    while (!found && (step = pb_db_step(dq)) == PB_DB_ROW) {
        int64_t id = pb_db_column_int64(dq, 0);
        cmp_runs dr;
        if (load_cmp_runs(m->dest, id, &dr, m->e) < 0) { found = -1; break; }
        int same = dr.n == sr->n;
        for (int i = 0; same && i < sr->n; i++) same = !strcmp(dr.key[i], sr->key[i]);
        cmp_runs_free(&dr);
        if (same) found = id;
    }
    pb_db_finalize(sq);
    pb_db_finalize(dq);
    return found;
}

static int copy_comparison(merge_ctx *m, int64_t src_cmp, const cmp_runs *sr, int64_t *new_id)
{
    if (pb_store_begin(m->dest, m->e) < 0) return -1;
    copier c = {0};
    pb_stmt *ins = NULL;
    int rc = copier_prepare(m, &c, "comparisons", NULL, CMP_COLS, ID_RETURNED);
    if (rc == 0) rc = copy_rows(m, &c, src_cmp, 0, NULL, new_id);
    if (rc == 0 && pb_db_prepare(m->dest->db,
                                      "INSERT INTO comparison_runs (comparison_id, run_id, side, alternation)"
                                      " VALUES (?1, ?2, ?3, ?4)", &ins) != PB_DB_OK)
        rc = pb_store_sqlerr(m->dest, m->e, "insert comparison_runs");
    for (int i = 0; rc == 0 && i < sr->n; i++) {
        const char *sp = strchr(sr->key[i], ' ');
        char uuid[80];
        snprintf(uuid, sizeof uuid, "%.*s", sp ? (int)(sp - sr->key[i]) : 0, sr->key[i]);
        int64_t run = dest_run_by_uuid(m, uuid);
        if (run <= 0) { rc = run < 0 ? -1 : pb_errf(m->e, "comparison: run %s not in %s", uuid, m->dest->path); break; }
        pb_db_reset(ins);
        pb_db_bind_int64(ins, 1, *new_id);
        pb_db_bind_int64(ins, 2, run);
        pb_db_bind_text(ins, 3, sr->side[i]);
        if (sr->alternation[i] < 0) pb_db_bind_null(ins, 4); else pb_db_bind_int64(ins, 4, sr->alternation[i]);
        if (pb_db_step(ins) != PB_DB_DONE) rc = pb_store_sqlerr(m->dest, m->e, "insert comparison_runs");
    }
    pb_db_finalize(ins);
    if (rc == 0) rc = copy_rows(m, &m->cells, src_cmp, *new_id, NULL, NULL);
    copier_free(&c);
    if (rc == 0) rc = pb_store_commit(m->dest, m->e);
    if (rc < 0) pb_store_rollback(m->dest);
    return rc;
}

static int merge_comparisons(merge_ctx *m, id_map *cmap)
{
    pb_stmt *q;
    if (pb_db_prepare(m->src->db, "SELECT id FROM comparisons ORDER BY id", &q) != PB_DB_OK)
        return pb_store_sqlerr(m->src, m->e, "read comparisons");
    int64_t *ids = NULL;
    size_t nids = 0;
    int step, rc = 0;
    while ((step = pb_db_step(q)) == PB_DB_ROW) {
        int64_t *a = realloc(ids, (nids + 1) * sizeof *a);
        if (!a) { rc = pb_errf(m->e, "out of memory"); break; }
        ids = a;
        ids[nids++] = pb_db_column_int64(q, 0);
    }
    if (rc == 0 && step != PB_DB_DONE) rc = pb_store_sqlerr(m->src, m->e, "read comparisons");
    pb_db_finalize(q);
    for (size_t i = 0; rc == 0 && i < nids; i++) {
        cmp_runs sr;
        if (load_cmp_runs(m->src, ids[i], &sr, m->e) < 0) { rc = -1; break; }
        /* only a comparison whose every run is a complete run of this merge (so now in DEST) */
        int ok = sr.n > 0 && sr.all_complete;
        for (int k = 0; ok && k < sr.n; k++) {
            char uuid[80];
            const char *sp = strchr(sr.key[k], ' ');
            snprintf(uuid, sizeof uuid, "%.*s", sp ? (int)(sp - sr.key[k]) : 0, sr.key[k]);
            int64_t run = dest_run_by_uuid(m, uuid);
            if (run < 0) rc = -1;
            ok = run > 0;
        }
        if (rc == 0 && !ok) m->n->cmp_left++;
        int64_t have = rc == 0 && ok ? dest_same_comparison(m, ids[i], &sr) : 0;
        if (have < 0) rc = -1;
        if (rc == 0 && ok && have > 0) {
            m->n->cmp_skipped++;
            if (map_put(cmap, ids[i], have) < 0) rc = pb_errf(m->e, "out of memory");
        } else if (rc == 0 && ok) {
            int64_t nid = 0;
            rc = copy_comparison(m, ids[i], &sr, &nid);
            if (rc == 0) {
                m->n->cmp_copied++;
                if (map_put(cmap, ids[i], nid) < 0) rc = pb_errf(m->e, "out of memory");
            }
        }
        cmp_runs_free(&sr);
    }
    free(ids);
    return rc;
}

/* A calibration is copied when the comparisons it was drawn from were merged (or were there). */
static int merge_calibrations(merge_ctx *m, const id_map *cmap)
{
    char sql[1024];
    snprintf(sql, sizeof sql, "SELECT id, first_comparison, last_comparison, %s FROM calibrations ORDER BY id", CAL_COLS);
    pb_stmt *q, *find = NULL, *ins = NULL;
    if (pb_db_prepare(m->src->db, sql, &q) != PB_DB_OK) return pb_store_sqlerr(m->src, m->e, "read calibrations");
    int rc = 0;
    if (pb_db_prepare(m->dest->db,
                           "SELECT count(*) FROM calibrations WHERE created_at = ?1"
                           " AND (machine_id = ?2 OR (machine_id IS NULL AND ?2 IS NULL)) AND suite = ?3 AND metric = ?4"
                           " AND pairing = ?5 AND impl = ?6 AND variant = ?7 AND op = ?8 AND size_bytes = ?9", &find) != PB_DB_OK)
        rc = pb_store_sqlerr(m->dest, m->e, "find calibration");
    int ncols = count_cols(CAL_COLS);
    int k = snprintf(sql, sizeof sql, "INSERT INTO calibrations (first_comparison, last_comparison, %s) VALUES (?1, ?2",
                     CAL_COLS);
    for (int i = 0; i < ncols; i++) k += snprintf(sql + k, sizeof sql - (size_t)k, ", ?%d", i + 3);
    snprintf(sql + k, sizeof sql - (size_t)k, ")");
    if (rc == 0 && pb_db_prepare(m->dest->db, sql, &ins) != PB_DB_OK)
        rc = pb_store_sqlerr(m->dest, m->e, "insert calibration");
    int step = PB_DB_DONE;
    while (rc == 0 && (step = pb_db_step(q)) == PB_DB_ROW) {
        int64_t first = pb_db_column_type(q, 1) == PB_DB_NULL ? 0 : map_get(cmap, pb_db_column_int64(q, 1));
        int64_t last = pb_db_column_type(q, 2) == PB_DB_NULL ? 0 : map_get(cmap, pb_db_column_int64(q, 2));
        if (!first || !last) { m->n->cal_left++; continue; }
        pb_db_reset(find);
        for (int i = 0; i < 10; i++) {
            if (i == 2) continue; /* job_id is not part of the identity */
            bind_from(find, i < 2 ? i + 1 : i, q, 3 + i);
        }
        if (pb_db_step(find) != PB_DB_ROW) { rc = pb_store_sqlerr(m->dest, m->e, "find calibration"); break; }
        int64_t have = pb_db_column_int64(find, 0);
        pb_db_reset(find);
        if (have) { m->n->cal_skipped++; continue; }
        if (pb_store_begin(m->dest, m->e) < 0) { rc = -1; break; }
        pb_db_reset(ins);
        pb_db_bind_int64(ins, 1, first);
        pb_db_bind_int64(ins, 2, last);
        for (int i = 0; i < ncols; i++) bind_from(ins, i + 3, q, 3 + i);
        if (pb_db_step(ins) != PB_DB_DONE) rc = pb_store_sqlerr(m->dest, m->e, "insert calibration");
        pb_db_reset(ins);
        if (rc == 0) rc = pb_store_commit(m->dest, m->e);
        if (rc < 0) pb_store_rollback(m->dest);
        else m->n->cal_copied++;
    }
    if (rc == 0 && step != PB_DB_DONE) rc = pb_store_sqlerr(m->src, m->e, "read calibrations");
    pb_db_finalize(q);
    pb_db_finalize(find);
    pb_db_finalize(ins);
    return rc;
}

/* Each complete run of SRC copied in a transaction of its own, row by row: the list is read whole
 * before DEST is written */
static int merge_runs_rows(merge_ctx *m)
{
    int rc = 0;
    int64_t *ids = NULL;
    char (*uuids)[64] = NULL;
    size_t nruns = 0;
    pb_stmt *q = NULL;
    if (rc == 0 && pb_db_prepare(m->src->db, "SELECT id, uuid, status FROM runs ORDER BY id", &q) != PB_DB_OK)
        rc = pb_store_sqlerr(m->src, m->e, "read runs");
    int step = PB_DB_DONE;
    while (rc == 0 && (step = pb_db_step(q)) == PB_DB_ROW) {
        const char *status = pb_db_column_text(q, 2), *uuid = pb_db_column_text(q, 1);
        if (!status || strcmp((const char *)status, "complete")) {
            if (status && !strcmp((const char *)status, "failed")) m->n->left_failed++;
            else m->n->left_incomplete++;
            continue;
        }
        if (!uuid || !*uuid) { rc = pb_errf(m->e, "%s: run %lld has no uuid", m->src->path, (long long)pb_db_column_int64(q, 0)); break; }
        int64_t *a = realloc(ids, (nruns + 1) * sizeof *a);
        if (a) ids = a;
        char (*b)[64] = a ? realloc(uuids, (nruns + 1) * sizeof *b) : NULL;
        if (b) uuids = b;
        if (!a || !b) { rc = pb_errf(m->e, "out of memory"); break; }
        ids[nruns] = pb_db_column_int64(q, 0);
        snprintf(uuids[nruns++], sizeof uuids[0], "%s", (const char *)uuid);
    }
    if (rc == 0 && step != PB_DB_DONE) rc = pb_store_sqlerr(m->src, m->e, "read runs");
    pb_db_finalize(q);
    for (size_t i = 0; rc == 0 && i < nruns; i++) rc = merge_run(m, ids[i], uuids[i]);
    free(ids);
    free(uuids);
    return rc;
}

int pb_merge(pb_store *dest, pb_store *src, pb_merge_counts *n, pb_err *e)
{
    memset(n, 0, sizeof *n);
    merge_ctx m = {.dest = dest, .src = src, .n = n, .e = e};
    int rc = copier_prepare(&m, &m.runs, "runs", NULL, PB_MERGE_RUN_COLS, ID_RETURNED);
    if (rc == 0) rc = copier_prepare(&m, &m.cases, "cases", "run_id", PB_MERGE_CASE_COLS, ID_RETURNED);
    if (rc == 0) rc = copier_prepare(&m, &m.samples, "samples", "case_id", PB_MERGE_SAMPLE_COLS, ID_RETURNED);
    if (rc == 0) rc = copier_prepare(&m, &m.samples_flat, "samples", "case_id", PB_MERGE_SAMPLE_COLS, ID_ORDER);
    if (rc == 0 && pb_db_prepare(src->db, "SELECT EXISTS (SELECT 1 FROM samples s JOIN sample_metrics sm"
                                          " ON sm.sample_id = s.id WHERE s.case_id = ?1)", &m.case_has_metrics) != PB_DB_OK)
        rc = pb_store_sqlerr(src, e, "read sample_metrics");
    if (rc == 0) rc = copier_prepare(&m, &m.metrics, "sample_metrics", "sample_id", METRIC_COLS, ID_NONE);
    if (rc == 0) rc = copier_prepare(&m, &m.stats, "stats", "case_id", PB_MERGE_STAT_COLS, ID_NONE);
    if (rc == 0) rc = copier_prepare(&m, &m.funcs, "func_counts", "case_id", PB_MERGE_FUNC_COLS, ID_NONE);
    if (rc == 0) rc = copier_prepare(&m, &m.ratios, "ratios", "run_id", PB_MERGE_RATIO_COLS, ID_NONE);
    if (rc == 0) rc = copier_prepare(&m, &m.objects, "objects", "run_id", PB_MERGE_OBJECT_COLS, ID_NONE);
    if (rc == 0) rc = copier_prepare(&m, &m.cells, "comparison_cells", "comparison_id", CELL_COLS, ID_NONE);
    /* the runs set-based where the stores can be attached (SQLite files), else row by row */
    int set = rc == 0 ? pb_merge_runs_set(dest, src, n, e) : 0;
    if (set < 0) rc = -1;
    if (rc == 0 && set == 0) rc = merge_runs_rows(&m);
    id_map cmap = {0};
    if (rc == 0) rc = merge_comparisons(&m, &cmap);
    if (rc == 0) rc = merge_calibrations(&m, &cmap);
    free(cmap.from);
    free(cmap.to);
    copier *all[] = {&m.runs,  &m.cases, &m.samples, &m.samples_flat, &m.metrics,
                     &m.stats, &m.funcs, &m.ratios,  &m.objects,      &m.cells};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) copier_free(all[i]);
    pb_db_finalize(m.case_has_metrics);
    return rc;
}

/* ---- opening a source ---- */

/* user_version of a file we could not open as ours, read without writing it: -1 + e if unreadable */
static int peek_version(const char *path, int *has_runs, pb_err *e)
{
    sqlite3 *db = NULL;
    char wal[1100];
    snprintf(wal, sizeof wal, "%s-wal", path);
    /* as pb_store_open_readonly: a WAL being written is read read-only; otherwise a query-only
     * read-write connection, which leaves no -wal/-shm behind and cannot change the file */
    int rc;
    if (access(wal, F_OK) == 0) {
        rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL);
    } else {
        rc = sqlite3_open_v2(path, &db, access(path, W_OK) == 0 ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY, NULL);
        if (rc == SQLITE_OK) rc = sqlite3_exec(db, "PRAGMA query_only = 1", NULL, NULL, NULL);
    }
    int v = -1;
    *has_runs = 0;
    sqlite3_stmt *q;
    if (rc == SQLITE_OK && sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &q, NULL) == SQLITE_OK) {
        if (sqlite3_step(q) == SQLITE_ROW) v = sqlite3_column_int(q, 0);
        sqlite3_finalize(q);
    }
    if (v >= 0 && sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'runs'", -1,
                                     &q, NULL) == SQLITE_OK) {
        if (sqlite3_step(q) == SQLITE_ROW) *has_runs = sqlite3_column_int(q, 0) > 0;
        sqlite3_finalize(q);
    }
    if (v < 0) pb_errf(e, "cannot read %s: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
    sqlite3_close(db);
    return v;
}

/* SQLite's online backup of path (WAL included, the file not written) into tmp */
static int copy_to_temp(const char *path, const char *tmp, pb_err *e)
{
    sqlite3 *from = NULL, *to = NULL;
    int rc = sqlite3_open_v2(path, &from, SQLITE_OPEN_READONLY, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_open_v2(tmp, &to, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_backup *b = sqlite3_backup_init(to, "main", from, "main");
        if (!b) rc = SQLITE_ERROR;
        else {
            rc = sqlite3_backup_step(b, -1);
            int fin = sqlite3_backup_finish(b);
            rc = rc == SQLITE_DONE ? fin : rc;
        }
    }
    if (rc != SQLITE_OK)
        pb_errf(e, "cannot copy %s to %s to migrate it: %s", path, tmp,
                to ? sqlite3_errmsg(to) : from ? sqlite3_errmsg(from) : "out of memory");
    sqlite3_close(from);
    sqlite3_close(to);
    return rc == SQLITE_OK ? 0 : -1;
}

int pb_merge_open_source(pb_store *src, const char *src_path, char tmp_path[1100], int *refused, pb_err *e)
{
    tmp_path[0] = 0;
    *refused = 0;
    if (pb_store_open_readonly(src, src_path, e) == 0) return 0;
    struct stat sb;
    if (stat(src_path, &sb) != 0 || !S_ISREG(sb.st_mode)) return -1; /* e says why */
    pb_err pe = {{0}};
    int has_runs = 0;
    int v = peek_version(src_path, &has_runs, &pe);
    if (v < 0 || !has_runs) { *refused = 1; return -1; } /* not ours, or corrupt: e says so */
    if (v > PB_SCHEMA_VERSION) {
        *refused = 1;
        return pb_errf(e, "%s has schema version %d, newer than this bench's %d: refused (use a newer bench)", src_path,
                       v, PB_SCHEMA_VERSION);
    }
    if (v == PB_SCHEMA_VERSION) return -1; /* ours and current, yet unreadable: e says why */
    /* older: migrate a temporary copy, never the source */
    const char *dir = getenv("TMPDIR");
    snprintf(tmp_path, 1100, "%s/pb-merge-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(tmp_path);
    if (fd < 0) {
        pb_errf(e, "cannot make a temporary copy of %s to migrate: %s: %s", src_path, tmp_path, strerror(errno));
        tmp_path[0] = 0;
        return -1;
    }
    close(fd);
    char why[PB_ERR_MAX];
    if (copy_to_temp(src_path, tmp_path, e) < 0 || pb_store_open(src, tmp_path, e) < 0) {
        snprintf(why, sizeof why, "%s", e->msg);
        pb_errf(e, "%s has schema version %d and a temporary copy could not be migrated, refused: %s", src_path, v, why);
        *refused = 1;
        unlink(tmp_path);
        char side[1200];
        snprintf(side, sizeof side, "%s-wal", tmp_path);
        unlink(side);
        snprintf(side, sizeof side, "%s-shm", tmp_path);
        unlink(side);
        tmp_path[0] = 0;
        return -1;
    }
    /* report the original's name in messages */
    (void)why;
    return 0;
}
