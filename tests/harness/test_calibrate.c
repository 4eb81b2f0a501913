/* SPDX-License-Identifier: GPL-2.0-only */
/* The iteration-count rule (harness/run/calibrate.h) against modelled bodies: time(k) = F + k p, with
 * and without seeded noise. No clock is read: every answer is fixed. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "calibrate.h"
#include "../lib/check.h"

typedef struct model {
    double fixed_s, per_iter_s;
    double noise;     /* relative, multiplicative, from a seeded generator; 0 for none */
    uint64_t state;
    int calls, stop_after;
} model;

static double uniform(model *m)
{
    m->state = m->state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(m->state >> 11) * 0x1.0p-53;
}

static double time_k(void *p, uint64_t k)
{
    model *m = p;
    m->calls++;
    double t = m->fixed_s + (double)k * m->per_iter_s;
    /* the best of three timings, each inflated by up to `noise` */
    double best = INFINITY;
    for (int i = 0; i < 3; i++) {
        double ti = t * (1 + m->noise * uniform(m));
        if (ti < best) best = ti;
    }
    return best;
}

static int stop(void *p)
{
    model *m = p;
    return m->stop_after && m->calls >= m->stop_after;
}

/* the fraction of a sample that is work, for the chosen k */
static double work_share(const model *m, uint64_t k)
{
    return (double)k * m->per_iter_s / ((double)k * m->per_iter_s + m->fixed_s);
}

int main(void)
{
    const double target = 0.5e-3; /* --quick */

    /* no fixed cost: k gives the target, as the one-timing rule did */
    model a = {.fixed_s = 0, .per_iter_s = 1e-6};
    pb_calibration c = pb_calibrate(time_k, stop, &a, target);
    CHECK(c.iters >= 450 && c.iters <= 550, "no fixed cost: %llu iterations, want ~500", (unsigned long long)c.iters);
    CHECK(!c.fixed_dominates && !c.interrupted, "flags");

    /* the sigpool segment op on a loaded machine: 8 ms to wake the workers, 10 us per op. The
     * one-timing rule gave k = 1 (a sample timed a wake-up); now the work is >= 4x the fixed cost. */
    model b = {.fixed_s = 8e-3, .per_iter_s = 10e-6};
    c = pb_calibrate(time_k, stop, &b, target);
    CHECK(work_share(&b, c.iters) >= 0.8, "8 ms per call: %llu iterations, work share %.3f", (unsigned long long)c.iters,
          work_share(&b, c.iters));
    CHECK(fabs(c.per_iter_s - 10e-6) < 1e-9, "marginal cost %g, want 1e-5", c.per_iter_s);
    CHECK(!c.fixed_dominates, "8 ms is amortised within the cap");

    /* the same idle: a 20 us wake-up, already small against a 0.5 ms sample */
    model b2 = {.fixed_s = 20e-6, .per_iter_s = 10e-6};
    c = pb_calibrate(time_k, stop, &b2, target);
    CHECK(c.iters >= 45 && c.iters <= 120, "20 us per call: %llu iterations", (unsigned long long)c.iters);
    CHECK(work_share(&b2, c.iters) >= 0.8, "work share %.3f", work_share(&b2, c.iters));

    /* a fixed cost no sample under the cap can amortise: capped, and said so */
    model d = {.fixed_s = 0.2, .per_iter_s = 1e-6};
    c = pb_calibrate(time_k, stop, &d, target);
    CHECK(c.fixed_dominates, "0.2 s per call: fixed_dominates");
    CHECK(c.iters >= 1 && (double)c.iters * d.per_iter_s + d.fixed_s < 4 * PB_CAL_MAX_SAMPLE_S, "capped: %llu",
          (unsigned long long)c.iters);

    /* a slow operation (one iteration is a whole sample): one iteration */
    model s = {.fixed_s = 0, .per_iter_s = 5e-3};
    c = pb_calibrate(time_k, stop, &s, target);
    CHECK(c.iters == 1, "5 ms per op: %llu iterations, want 1", (unsigned long long)c.iters);

    /* seeded noise of up to 50 % per timing: still amortised, in 100 seeds */
    int bad = 0;
    for (uint64_t seed = 1; seed <= 100; seed++) {
        model n = {.fixed_s = 8e-3, .per_iter_s = 10e-6, .noise = 0.5, .state = seed};
        c = pb_calibrate(time_k, stop, &n, target);
        if (work_share(&n, c.iters) < 0.6) bad++;
    }
    CHECK(bad == 0, "noisy 8 ms per call: %d of 100 seeds left the fixed cost over 40 %% of a sample", bad);

    /* a signal during calibration: stops at once, says so */
    model i = {.fixed_s = 8e-3, .per_iter_s = 10e-6, .stop_after = 2};
    c = pb_calibrate(time_k, stop, &i, target);
    CHECK(c.interrupted && i.calls <= 3, "interrupted after %d timings", i.calls);

    return check_summary();
}
