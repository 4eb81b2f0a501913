/* SPDX-License-Identifier: GPL-2.0-only */
/* gate_det.h — gates on deterministic counts (`bench gate --measure valgrind`), and what a count
 * ratio and a time ratio of the same cell say together.
 *
 * A count from callgrind is the same in every run of the same binary (valgrind.h), so its gate
 * needs no statistics: the change is the ratio itself. Where the repetitions of a case differ (an
 * op whose path depends on its data), the ratio is a range [lo, hi] (smallest candidate over
 * largest baseline, and the reverse); exact counts give lo = hi. A cell's verdict (threshold t):
 *   nodata        a side is missing or unavailable;
 *   regression    lo > 1 + t: slower by more than t whichever repetitions are taken;
 *   pass          hi <= 1 + t;
 *   inconclusive  otherwise: the repetitions straddle the threshold.
 * The exit status is the wall-time gate's (gate.h): 1 regression, 3 inconclusive, 0 pass. */
#ifndef PB_GATE_DET_H
#define PB_GATE_DET_H

#include <stdio.h>

#include "gate.h"
#include "gate_doc.h"
#include "valgrind.h"

/* [lo, hi]: the range of candidate / baseline of a cost (higher = worse), see above */
pb_cell_verdict pb_det_verdict(double lo, double hi, double threshold);

/* One line on a cell measured both ways: the count ratio against its threshold, and the time ratio
 * with its CI. Says "time moved, instructions did not (memory, stalls, code layout)" when the
 * time CI excludes 1 while the count moved by less than its threshold, "time far more than
 * instructions" when both moved one way but |log time| > 2 |log count| + threshold, and so on. */
const char *pb_two_metric_note(double count_ratio, double count_threshold, double time_ratio, double time_lo,
                               double time_hi);

/* The claim gate on counts: baseline against candidate of one suite, both in one valgrind child
 * with two repetitions per case. Stores the run and the comparison, prints the table to out
 * (NULL: not) and adds the comparison to doc (NULL: none), returns the exit status (gate.h), or
 * -1 + e. */
typedef struct pb_det_gate {
    const pb_suite *suite;
    const char *baseline, *candidate, *sizes, *suite_opts, *metric, *command_line;
    pb_vg_suite_args suite_args;   /* the suite options word by word, for the valgrind child */
    const char *impl;        /* the commit gate: only this impl (NULL: every one) */
    int quick, progress;
    FILE *out;               /* the text table */
    pb_gate_doc *doc;        /* the document */
} pb_det_gate;

int pb_gate_valgrind(const pb_det_gate *g, pb_store *st, const pb_thresholds *th, pb_err *e);

/* The commit gate on counts: one stored valgrind run of each build (bench run --measure valgrind),
 * every impl (or only g->impl) cell by cell, rule 'commit' of the thresholds (g->metric, or
 * insns_per_op). Exit status or -1 + e. */
int pb_gate_valgrind_runs(const pb_det_gate *g, const char *runs_a, const char *runs_b, pb_store *st,
                          const pb_thresholds *th, pb_err *e);

/* bench compare of a count run (bench run --measure valgrind): impl A against impl B cell by cell in
 * metric, each side's range over its repetitions, no verdict (PB_CELL_COMPARED), with the cells'
 * function-by-function differences (gate.h pb_gate_cells_fns). *cells malloc'd (*n of them). 0, or -1 + e. */
int pb_det_compare_cells(pb_store *st, int64_t run, const char *A, const char *B, const char *metric,
                         pb_cmp_cell **cells, size_t *n, pb_err *e);

/* `bench gate --measure both`: the id of the newest comparison (0 if none), and the cells of a
 * wall-time comparison and a count comparison of the same gate side by side, with
 * pb_two_metric_note's reading of each. */
int64_t pb_gate_last_comparison(pb_store *st);
int pb_two_metric_print(FILE *f, pb_store *st, int64_t time_id, int64_t count_id, pb_err *e);

#endif
