/* SPDX-License-Identifier: GPL-2.0-only */
/* sim.h — simulated gates on synthetic paired samples with a shared VM's noise shape.
 *
 * The noise model (from what measured runs looked like, docs/measurements/gate-design.md):
 *   - the core runs at one of two speeds, 3.11 or 1.67 GHz (a cost factor of
 *     1 or 1.862), and flips with probability `flip` per sample; a sample
 *     during which it flips gets a mixture of both;
 *   - every sample has log-normal jitter (sd `jitter`);
 *   - with probability `outlier` a sample is preempted (another tenant) and
 *     costs 1 + Exp(mean 0.3) times more;
 *   - the sample that runs second in its round is slower by `order` (the
 *     runner rotates the start, so this is +e for half the pairs, -e for the
 *     other half).
 * A simulated gate runs `rounds` rounds per cell, judges the cells like
 * `bench gate`, and reruns inconclusive cells with twice the rounds, up to
 * `reruns` times. Deterministic for a given seed. */
#ifndef PB_TEST_GATE_SIM_H
#define PB_TEST_GATE_SIM_H

#include "gate.h"

typedef struct sim_noise {
    double jitter, flip, outlier, order;
} sim_noise;

typedef struct sim_gate {
    size_t ncells;
    const double *shift;     /* true cost ratio B/A per cell */
    int rounds, reruns;
    double threshold;
    int use_order;           /* pass the order of each pair to the statistics */
} sim_gate;

/* Runs one gate; cells[ncells] get the final statistics and verdicts. Returns the exit status. */
int sim_run_gate(pb_rng *rng, const sim_noise *nm, const sim_gate *g, pb_cmp_cell *cells);

#endif
