/* SPDX-License-Identifier: GPL-2.0-only */
/* dump.h — a run's every row, table by table, as a tree (runs > cases > samples > sample_metrics,
 * cases > stats, cases > func_counts, runs > objects, runs > ratios), read out for `bench export --format json --full`
 * and written back by `bench import` of such a file (import_json.c). The columns are merge.h's
 * lists (the table's own id and its parent column left out: they are the tree), so a version that
 * adds a column to the schema adds it to the export and the import at once. docs/outputs.md. */
#ifndef PB_DUMP_H
#define PB_DUMP_H

#include <stdint.h>

#include "pb.h"
#include "reads.h"
#include "store.h"

enum { PB_DUMP_RUNS, PB_DUMP_CASES, PB_DUMP_SAMPLES, PB_DUMP_SAMPLE_METRICS, PB_DUMP_STATS, PB_DUMP_OBJECTS,
       PB_DUMP_RATIOS, PB_DUMP_FUNC_COUNTS, PB_DUMP_NTABLES };
#define PB_DUMP_MAXCOLS 64

typedef struct pb_dump_table {
    const char *name;   /* the table, and the key of its rows' list under the parent row */
    const char *parent; /* the column that names the parent row (NULL: runs) */
    int up;             /* the parent table's index (-1: runs) */
    const char *cols;   /* merge.h's list, comma-separated */
    const char *key;    /* a table without an id: the column its rows are ordered by (NULL: by id) */
} pb_dump_table;
extern const pb_dump_table pb_dump_tables[PB_DUMP_NTABLES];

/* The index of column name among table t's columns, -1 if it has none such. */
int pb_dump_col(int t, const char *name);
/* How many columns table t has, and the i-th's name into buf. */
int pb_dump_ncols(int t);
const char *pb_dump_col_name(int t, int i, char *buf, size_t cap);

/* What a walk of one run hands on: a row begins (its table), each of its columns in the list's
 * order (text valid until the next call), and the row ends after its children's rows. */
typedef struct pb_dump_cb {
    void (*row)(void *ctx, int table);
    void (*column)(void *ctx, const pb_column *c);
    void (*end)(void *ctx, int table);
} pb_dump_cb;
/* Every row of run id (rows of a table by id), depth first. 0, or -1 + e. */
int pb_dump_run(pb_store *s, int64_t run, const pb_dump_cb *cb, void *ctx, pb_err *e);

/* Rows written back: one INSERT per table, prepared again only when the set of columns given
 * changes (a column not given takes the schema's default). */
typedef struct pb_restore {
    pb_store *s;
    pb_stmt *ins[PB_DUMP_NTABLES];
    uint64_t mask[PB_DUMP_NTABLES];
} pb_restore;
/* Row of table t under parent (ignored for runs) with the n columns c (names checked by the caller
 * with pb_dump_col); *id its new id. 0, or -1 + e naming the table. */
int pb_restore_row(pb_restore *r, int t, int64_t parent, const pb_column *c, int n, int64_t *id, pb_err *e);
void pb_restore_free(pb_restore *r);
/* The id of the run with this uuid: > 0, 0 none, -1 + e. */
int64_t pb_restore_run_by_uuid(pb_store *s, const char *uuid, pb_err *e);

#endif
