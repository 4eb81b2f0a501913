/* SPDX-License-Identifier: GPL-2.0-only */
#include "calibrate.h"

#include <math.h>

#define K_MAX (1ull << 32)

pb_calibration pb_calibrate(double (*time_k)(void *, uint64_t), int (*stop)(void *), void *ctx, double target)
{
    pb_calibration r = {.iters = 1};
    uint64_t k = 1;
    double dt = time_k(ctx, k);
    int confirmed = 0; /* the previous doubling nearly doubled the time */
    for (;;) {
        if (stop && stop(ctx)) {
            r.iters = k;
            r.interrupted = 1;
            return r;
        }
        if (dt < target / 16 && k < K_MAX) {
            /* too short to time well: grow fast, aiming at an eighth of the target. The doublings
             * below then time about 1/8, 1/4 and 1/2 of it (three times each): 2.6 targets where
             * aiming at half took 10.5, a tenth of sigpool's run (10-15 ms samples;
             * docs/measurements/layout-cost.md) */
            double nk = dt <= 0 ? (double)k * 16 : fmin((double)k * 16, (double)k * target / dt / 8 + 1);
            k = nk > (double)K_MAX ? K_MAX : (uint64_t)nk > k ? (uint64_t)nk : k + 1;
            dt = time_k(ctx, k);
            continue;
        }
        double dt2 = k < K_MAX ? time_k(ctx, 2 * k) : dt;
        /* two doublings in a row must each nearly double the time: one can do so by chance when
         * a timing of k was lucky (noise, a quiet moment) and the fixed cost still dominates */
        int doubled = dt2 >= PB_CAL_DOUBLING_RATIO * dt;
        int work_dominates = doubled && confirmed;
        confirmed = doubled;
        if (work_dominates || k >= K_MAX || dt2 >= PB_CAL_MAX_SAMPLE_S) {
            /* the marginal cost per iteration; where the doubling did not show it (the fixed cost
             * still dominates, or timing noise), the average over 2k, which is larger: fewer
             * iterations, never a sample longer than asked */
            double per = work_dominates && dt2 > dt ? (dt2 - dt) / (double)k : dt2 / (double)(2 * k);
            if (!(per > 0)) per = 1e-12;
            double want = target / per;
            /* at least the k from which doubling was shown to double the time (the work dominates
             * the fixed cost from there on) */
            double floor_k = work_dominates ? (double)(k > 1 ? k / 2 : 1) : (double)(2 * k);
            if (want < floor_k) want = floor_k;
            if (want > 4e9) want = 4e9;
            r.iters = (uint64_t)want;
            r.per_iter_s = per;
            r.fixed_dominates = !work_dominates && k < K_MAX;
            return r;
        }
        k *= 2;
        dt = dt2;
    }
}
