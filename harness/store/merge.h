/* SPDX-License-Identifier: GPL-2.0-only */
/* merge.h — `bench merge`: copy the complete runs of another results store (and the gate's
 * comparisons and calibrations that refer only to them) into this one. docs/fleet.md.
 *
 * A run's identity across stores is runs.uuid: integer ids are remapped, a run whose uuid DEST
 * already holds is skipped, so merging twice adds nothing. Between SQLite files every run (with
 * its cases, samples, sample_metrics, stats, ratios) is copied set-based in one transaction
 * (merge_set.h); otherwise (PostgreSQL) each run in a transaction of its own. Each comparison
 * (with its comparison_runs and comparison_cells) goes in another, once every run it names is in
 * DEST. */
#ifndef PB_MERGE_H
#define PB_MERGE_H

#include <stdint.h>

#include "pb.h"
#include "store.h"

typedef struct pb_merge_counts {
    int copied, skipped;          /* complete runs copied; complete runs DEST already held (by uuid) */
    int left_incomplete, left_failed; /* runs of SRC that are not complete: never copied */
    int cmp_copied, cmp_skipped, cmp_left; /* comparisons copied, already there, naming runs not merged */
    int cal_copied, cal_skipped, cal_left; /* calibrations likewise */
    int64_t samples;              /* samples copied */
    int one_transaction;          /* the runs went in one transaction (merge_set.h): a failure copied none */
} pb_merge_counts;

/* Opens the store at src_path for reading only, as pb_store_open_readonly does. A file of an older
 * schema version is copied (SQLite's backup, WAL included) to a temporary file, which is migrated
 * and read instead; the original is never written. *tmp_path is then that file's path (remove it
 * after pb_store_close), else "". Returns 0; -1 + e for a file that cannot be read, is not ours, or
 * is newer than this bench ("use a newer bench"); *refused is set when the file itself is refused
 * (exit 2) rather than unreadable. */
int pb_merge_open_source(pb_store *src, const char *src_path, char tmp_path[1100], int *refused, pb_err *e);

/* Copies from src into dest (opened with pb_store_open). Stops at the first failure: the runs (set
 * path: all of them; row path: the one being copied) or the comparison being copied are rolled
 * back, what was committed before stays. 0, or -1 + e. */
int pb_merge(pb_store *dest, pb_store *src, pb_merge_counts *n, pb_err *e);

#endif
