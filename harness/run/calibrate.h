/* SPDX-License-Identifier: GPL-2.0-only */
/* calibrate.h — how many iterations one sample gets.
 *
 * A case's body(ctx, k) runs k iterations of the operation. Its time is not always k times the
 * cost of one: a body can have a fixed cost per call (the sigpool segment op wakes its worker
 * threads on every call: on a loaded machine a wake-up waits for a scheduler slice, milliseconds).
 * Sizing k from one timing would take that fixed cost for work (k = 1, every sample timing a
 * wake-up instead of the operation, beside peers with 1000 iterations per sample). So k grows
 * until doubling it nearly doubles the time, twice in a row (the work is then at least 4 times
 * the fixed cost), and is then scaled to the target from the marginal cost per iteration.
 * Pure: the clock is a callback, so the rule is tested with modelled times (tests/harness). */
#ifndef PB_CALIBRATE_H
#define PB_CALIBRATE_H

#include <stdint.h>

/* "doubling k nearly doubles the time": time(2k) >= RATIO time(k), i.e. 2kp + F >= 1.8 (kp + F),
 * i.e. the work kp is at least 4 times the fixed cost F; asked of two doublings in a row */
#define PB_CAL_DOUBLING_RATIO 1.8
/* a sample never grows past this many seconds to amortise a fixed cost; the last k is then used
 * (and pb_calibration.fixed_dominates says so) */
#define PB_CAL_MAX_SAMPLE_S 0.25

typedef struct pb_calibration {
    uint64_t iters;        /* iterations per sample */
    double per_iter_s;     /* the marginal cost of one iteration it was sized from */
    int fixed_dominates;   /* gave up at PB_CAL_MAX_SAMPLE_S: the fixed cost per call still >= 1/4 of the work */
    int interrupted;       /* stop() said so */
} pb_calibration;

/* time_k(ctx, k): seconds for one call of the body with k iterations (the caller takes the best
 * of a few); stop(ctx): nonzero to give up now (a signal). target: seconds of work per sample. */
pb_calibration pb_calibrate(double (*time_k)(void *ctx, uint64_t k), int (*stop)(void *ctx), void *ctx,
                            double target);

#endif
