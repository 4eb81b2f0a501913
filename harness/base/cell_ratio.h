/* SPDX-License-Identifier: GPL-2.0-only */
/* cell_ratio.h — a cell's headline ratio: the candidate against the baseline, from their samples
 * keyed by round and code layout.
 *
 * The one place the headline is composed, so that the store (store/finalize.c), the runner's
 * progress line, its waits' account and its choice of cells for boundary rounds (run/) all read
 * the same number: the samples paired by round (pb_paired_ratio_by_layout), the estimate across
 * layouts where there are enough of them (layout_stats.h: two-way over the orders and the time
 * blocks where the build's layouts are stratified), else the pairs' own; and, where the cells of a
 * comparison are two-way, their variances moderated together (pb_moderate_prior).
 *
 * The gates estimate otherwise on purpose (gate/gate.c pb_cmp_cell_stats_layouts): their pairs come
 * from several runs, their layouts count as draws (no time blocks, no post-stratification), and
 * their variances are moderated per unit with a minimum detectable change beside them. */
#ifndef PB_CELL_RATIO_H
#define PB_CELL_RATIO_H

#include <stddef.h>

#include "layout_stats.h"
#include "stats.h"

/* the headline's coverage */
#define PB_CELL_RATIO_CONF 0.95

typedef struct pb_cell_ratio {
    /* the headline: estimate, CI, conf and p are lr's where across, the pairs' otherwise; n and
     * median_ratio are always the pairs' (their count, their plain median) */
    pb_paired pr;
    pb_layout_ratio lr;   /* the estimate across layouts: meaningful where across */
    int across;           /* estimated across layouts */
} pb_cell_ratio;

/* Candidate samples c[0..nc) against baseline samples b[0..nb), each sorted by key; layouts: how
 * many the run gave them (the length of a time block of rounds; <= 0: the largest layout of the
 * pairs + 1). Returns 0 (out filled), -1 (fewer than two pairs) or -2 (out of memory). */
int pb_cell_ratio_of(const pb_keyed_layout *c, size_t nc, const pb_keyed_layout *b, size_t nb, int layouts,
                     pb_cell_ratio *out);

/* Is r's CI two-way (over the orders and the time blocks), the kind the cells of one comparison
 * moderate together? */
int pb_cell_ratio_two_way(const pb_cell_ratio *r);

/* The two-way ratios among r[0..k) (the cells of one comparison: the same candidate and baseline)
 * moderated together, their headline's CI and p recomputed around the same estimate; the others
 * are left alone, and all of them where too few are two-way to fit a prior. 0, or -2 when out of
 * memory (nothing moderated). */
int pb_cell_ratios_moderate(pb_cell_ratio *const *r, size_t k);

#endif
