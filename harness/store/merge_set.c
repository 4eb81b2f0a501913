/* SPDX-License-Identifier: GPL-2.0-only */
/* merge_set.c — see merge_set.h. The SQL names only this schema's tables and columns (merge.c's
 * lists); the source's path is a bound parameter of ATTACH, never SQL text. */
#include "merge_set.h"

#include <stdio.h>

#include "db_impl.h"
#include "query.h"

/* The runs copied (temp.pb_merge_runs) and their cases (temp.pb_merge_cases), by source id. The
 * unary + keeps SQLite from walking a child table by its parent index, which would read the
 * samples out of id order; a full scan in id order inserts them in order. */
static const char *const SETUP[] = {
    "DROP TABLE IF EXISTS temp.pb_merge_runs",
    "DROP TABLE IF EXISTS temp.pb_merge_cases",
    "CREATE TEMP TABLE pb_merge_runs (src_id INTEGER PRIMARY KEY)",
    "CREATE TEMP TABLE pb_merge_cases (src_id INTEGER PRIMARY KEY)",
    "INSERT INTO temp.pb_merge_runs SELECT id FROM pb_src.runs WHERE status = 'complete'"
    " AND uuid NOT IN (SELECT uuid FROM main.runs WHERE uuid IS NOT NULL) ORDER BY id",
    "INSERT INTO temp.pb_merge_cases SELECT id FROM pb_src.cases WHERE +run_id IN (SELECT src_id FROM temp.pb_merge_runs)"
    " ORDER BY id",
};

/* The offsets that move a source id past every id of DEST's table: max(DEST) + 1 - min(SRC). */
typedef struct offsets {
    int64_t run, cases, sample, samples_before;
} offsets;

static int offset_of(pb_store *dest, const char *table, int64_t *off, int64_t *dest_max, pb_err *e)
{
    char sql[256];
    int64_t hi = 0, lo = 0;
    snprintf(sql, sizeof sql, "SELECT COALESCE(max(id), 0) FROM main.%s", table);
    if (pb_query_int(dest, &hi, e, "merge: ids", sql, "") < 0) return -1;
    snprintf(sql, sizeof sql, "SELECT COALESCE(min(id), 0) FROM pb_src.%s", table);
    if (pb_query_int(dest, &lo, e, "merge: ids", sql, "") < 0) return -1;
    *off = hi + 1 - lo;
    if (dest_max) *dest_max = hi;
    return 0;
}

/* One INSERT ... SELECT per table, parents first: ?1 the offset of the table's own ids, ?2 its
 * parent's (a table without ids of its own: ?1 the parent's). */
static int copy_tables(pb_store *dest, const offsets *o, pb_err *e)
{
    const char *in_runs = "IN (SELECT src_id FROM temp.pb_merge_runs)";
    const char *in_cases = "IN (SELECT src_id FROM temp.pb_merge_cases)";
    char sql[4096];
    struct { const char *table, *fmt, *cols; int64_t own, parent; } step[] = {
        {"runs", "INSERT INTO main.runs (id, %s) SELECT id + ?1, %s FROM pb_src.runs WHERE id %s ORDER BY id",
         PB_MERGE_RUN_COLS, o->run, -1},
        {"cases", "INSERT INTO main.cases (id, run_id, %s) SELECT id + ?1, run_id + ?2, %s FROM pb_src.cases"
                  " WHERE id %s ORDER BY id", PB_MERGE_CASE_COLS, o->cases, o->run},
        {"samples", "INSERT INTO main.samples (id, case_id, %s) SELECT id + ?1, case_id + ?2, %s FROM pb_src.samples"
                    " WHERE +case_id %s ORDER BY id", PB_MERGE_SAMPLE_COLS, o->sample, o->cases},
        {"stats", "INSERT INTO main.stats (case_id, %s) SELECT case_id + ?1, %s FROM pb_src.stats WHERE +case_id %s"
                  " ORDER BY rowid", PB_MERGE_STAT_COLS, o->cases, -1},
        {"func_counts", "INSERT INTO main.func_counts (case_id, %s) SELECT case_id + ?1, %s FROM pb_src.func_counts"
                        " WHERE +case_id %s ORDER BY rowid", PB_MERGE_FUNC_COLS, o->cases, -1},
        {"ratios", "INSERT INTO main.ratios (run_id, %s) SELECT run_id + ?1, %s FROM pb_src.ratios WHERE +run_id %s"
                   " ORDER BY rowid", PB_MERGE_RATIO_COLS, o->run, -1},
        {"objects", "INSERT INTO main.objects (run_id, %s) SELECT run_id + ?1, %s FROM pb_src.objects"
                    " WHERE +run_id %s ORDER BY rowid", PB_MERGE_OBJECT_COLS, o->run, -1},
    };
    for (size_t i = 0; i < sizeof step / sizeof step[0]; i++) {
        const char *in = i == 0 || i >= 5 ? in_runs : in_cases;
        snprintf(sql, sizeof sql, step[i].fmt, step[i].cols, step[i].cols, in);
        int rc = step[i].parent < 0 ? pb_query_exec(dest, e, step[i].table, sql, "i", step[i].own)
                                    : pb_query_exec(dest, e, step[i].table, sql, "ii", step[i].own, step[i].parent);
        if (rc < 0) return -1;
    }
    /* the samples in id order, each one's metrics found by its key: no set of 15 million ids */
    snprintf(sql, sizeof sql,
             "INSERT INTO main.sample_metrics (sample_id, metric, value) SELECT m.sample_id + ?1, m.metric, m.value"
             " FROM pb_src.samples s CROSS JOIN pb_src.sample_metrics m ON m.sample_id = s.id WHERE +s.case_id %s",
             in_cases);
    return pb_query_exec(dest, e, "sample_metrics", sql, "i", o->sample);
}

/* the counts of what SRC holds beside what was copied */
static int count_left(pb_store *dest, const char *src_path, pb_merge_counts *n, pb_err *e)
{
    int64_t failed = 0, other = 0, copied = 0, complete = 0, no_uuid = 0;
    if (pb_query_int(dest, &no_uuid, e, "merge: runs", "SELECT COALESCE(min(id), 0) FROM pb_src.runs"
                     " WHERE status = 'complete' AND (uuid IS NULL OR uuid = '')", "") < 0) return -1;
    if (no_uuid) return pb_errf(e, "%s: run %lld has no uuid", src_path, (long long)no_uuid);
    if (pb_query_int(dest, &failed, e, "merge: runs", "SELECT count(*) FROM pb_src.runs WHERE status = 'failed'", "") < 0 ||
        pb_query_int(dest, &other, e, "merge: runs", "SELECT count(*) FROM pb_src.runs"
                     " WHERE status IS NOT 'complete' AND status IS NOT 'failed'", "") < 0 ||
        pb_query_int(dest, &complete, e, "merge: runs", "SELECT count(*) FROM pb_src.runs WHERE status = 'complete'",
                     "") < 0 ||
        pb_query_int(dest, &copied, e, "merge: runs", "SELECT count(*) FROM temp.pb_merge_runs", "") < 0)
        return -1;
    n->left_failed = (int)failed;
    n->left_incomplete = (int)other;
    n->copied = (int)copied;
    n->skipped = (int)(complete - copied);
    return 0;
}

static int copy_all(pb_store *dest, const char *src_path, pb_merge_counts *n, pb_err *e)
{
    for (size_t i = 0; i < sizeof SETUP / sizeof SETUP[0]; i++)
        if (pb_query_exec(dest, e, "merge: the runs to copy", SETUP[i], "") < 0) return -1;
    if (count_left(dest, src_path, n, e) < 0) return -1;
    offsets o;
    if (offset_of(dest, "runs", &o.run, NULL, e) < 0 || offset_of(dest, "cases", &o.cases, NULL, e) < 0 ||
        offset_of(dest, "samples", &o.sample, &o.samples_before, e) < 0)
        return -1;
    if (n->copied && copy_tables(dest, &o, e) < 0) return -1;
    if (pb_query_int(dest, &n->samples, e, "merge: samples", "SELECT count(*) FROM main.samples WHERE id > ?1", "i",
                     o.samples_before) < 0)
        return -1;
    if (pb_query_exec(dest, e, "merge: the runs to copy", "DROP TABLE temp.pb_merge_runs", "") < 0) return -1;
    return pb_query_exec(dest, e, "merge: the runs to copy", "DROP TABLE temp.pb_merge_cases", "");
}

int pb_merge_runs_set(pb_store *dest, pb_store *src, pb_merge_counts *n, pb_err *e)
{
    const pb_db_ops *ops = dest->db->ops;
    if (!ops->attach_sql || src->db->ops != ops) return 0;
    pb_err ae = {{0}};
    if (pb_query_exec(dest, &ae, "merge: attach", ops->attach_sql, "t", src->path) < 0) return 0;
    if (ops->bulk_sql) pb_query_exec(dest, &ae, "merge: cache", ops->bulk_sql, "");
    int rc = pb_store_begin(dest, e);
    if (rc == 0) rc = copy_all(dest, src->path, n, e);
    if (rc == 0) rc = pb_store_commit(dest, e);
    if (rc < 0) {
        pb_store_rollback(dest);
        int64_t keep = n->left_failed, keep2 = n->left_incomplete;
        *n = (pb_merge_counts){.left_failed = (int)keep, .left_incomplete = (int)keep2};
    }
    n->one_transaction = 1;
    pb_query_exec(dest, &ae, "merge: detach", ops->detach_sql, "");
    return rc < 0 ? -1 : 1;
}
