/* SPDX-License-Identifier: GPL-2.0-only */
/* merge_set.h — `bench merge`'s runs copied set-based, where both stores are files of one back end
 * that can attach the other (SQLite): the source attached to DEST's connection, each table copied
 * by one INSERT ... SELECT with its ids moved by an offset, all in one transaction. One row per
 * statement (merge.c's row path, still used where the stores cannot be attached, as with
 * PostgreSQL) took 140-245 s for 1,000 runs. */
#ifndef PB_MERGE_SET_H
#define PB_MERGE_SET_H

#include "merge.h"

/* merge.c's column lists (docs/schema.md): the set path copies the same columns as the row path */
extern const char PB_MERGE_RUN_COLS[], PB_MERGE_OBJECT_COLS[], PB_MERGE_CASE_COLS[], PB_MERGE_SAMPLE_COLS[],
    PB_MERGE_STAT_COLS[], PB_MERGE_FUNC_COLS[], PB_MERGE_RATIO_COLS[];

/* The complete runs of src whose uuid dest lacks, with their cases, samples, sample_metrics,
 * stats, ratios and objects, copied in one transaction (a failure leaves dest as it was); the run
 * counts and samples in n. 1 when done, 0 when the stores cannot be attached (nothing done: use
 * the row path), -1 + e on failure. */
int pb_merge_runs_set(pb_store *dest, pb_store *src, pb_merge_counts *n, pb_err *e);

#endif
