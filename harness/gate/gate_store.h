/* SPDX-License-Identifier: GPL-2.0-only */
/* gate_store.h — the gate's reads and writes that gate.h does not declare (gate_store.c, which holds
 * all of gate/'s SQL): stored baselines' rows and the count gate's two metrics side by side. Text
 * handed to a function is valid until it returns. */
#ifndef PB_GATE_STORE_H
#define PB_GATE_STORE_H

#include <stdint.h>

#include "store.h"

/* Names run NAME (a new name, or one moved to it), saved now with the command line. 0, or -1 + e. */
int pb_gate_baseline_write(pb_store *st, const char *name, int64_t run, const char *command_line, pb_err *e);

/* A stored baseline as `bench baseline list` shows it ("" for NULL). */
typedef struct pb_baseline_row {
    const char *name;
    int64_t run;
    const char *suite, *saved_at;
    const char *revision;    /* the run's user label, else its user revision, else "" */
} pb_baseline_row;
/* Every baseline, by name, to each: 0; -1 + e ("PATH: read baselines: ...") where none can be read;
 * 1 + e where reading failed after the rows handed on. */
int pb_gate_each_baseline(pb_store *st, void (*each)(void *ctx, const pb_baseline_row *r), void *ctx, pb_err *e);

/* A cell of the same gate measured twice: in time (comparison time_id) and in counts (count_id). */
typedef struct pb_two_metric_row {
    const char *variant, *op;
    int64_t size;
    double time_ratio, time_lo, time_hi;    /* NaN where NULL */
    const char *time_verdict;
    double count_ratio;                     /* NaN where NULL */
    const char *count_verdict;
    double count_threshold;
} pb_two_metric_row;
/* Every cell the two comparisons share, in the time comparison's order, to each. 0, or -1 + e
 * ("PATH: the database's words") where they cannot be read. */
int pb_gate_each_two_metric(pb_store *st, int64_t time_id, int64_t count_id,
                            void (*each)(void *ctx, const pb_two_metric_row *r), void *ctx, pb_err *e);

#endif
