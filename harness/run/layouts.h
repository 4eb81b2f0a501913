/* SPDX-License-Identifier: GPL-2.0-only */
/* layouts.h — a run's code layouts as the runner uses them (runner.h pb_layout_set, docs/layout.md):
 * each layout's grid (which impls it has), its stack and heap offsets, and which layout each round
 * runs in. */
#ifndef PB_LAYOUTS_H
#define PB_LAYOUTS_H

#include <stddef.h>

#include "runner.h"

typedef struct pb_run_layouts {
    int n;                                   /* >= 1; 1: the run's own suite, no offsets */
    const pb_layout_set *set;                /* NULL when n == 1 */
    pb_grid grid[PB_MAX_LAYOUTS];            /* each layout's plan: which (variant, op, impl) it has */
    size_t stack_offset[PB_MAX_LAYOUTS];     /* bytes below the sampling frame, multiples of 16 */
    size_t heap_offset[PB_MAX_LAYOUTS];      /* each layout's base: pb_layouts_heap_offset adds the impl's own */
    int *of_round;                           /* rounds entries: the layout of each round */
    char short_of[400];                      /* why fewer layouts than asked ran, or "" */
    int rounds;
    int program;                             /* the timed code is another program: one layout (suite.h) */
} pb_run_layouts;

/* Plan every layout of o->layouts (after sharing the run's own calibration with it) and draw the
 * rounds' layouts and the offsets from the set's seed; a layout that cannot plan ends the set
 * before it (short_of says why). 0 or -1 + e. */
int pb_layouts_begin(pb_run_layouts *L, const pb_runner_opts *o, int rounds, pb_err *e);
/* Bytes allocated ahead of the set-up of impl's case in layout l: the layout's base plus an offset of the
 * impl's own, drawn from (seed, layout, impl name), so that two impls of a pair (a build's old and new,
 * the two builds' new in a commit gate) do not sit at one fixed heap distance in every layout. */
size_t pb_layouts_heap_offset(const pb_run_layouts *L, int l, const char *impl);
/* Does layout l have impl in a cell of this variant and op? */
int pb_layouts_has(const pb_run_layouts *L, int l, const pb_cell *cell, const char *impl);
/* "16 layouts (seed 1): ..." for runs.layouts; "1 layout (...)" when there is one */
void pb_layouts_describe(const pb_run_layouts *L, char *buf, size_t cap);
void pb_layouts_end(pb_run_layouts *L);

/* The balanced assignment, exposed for its test: rounds entries, block b of n rounds a permutation
 * of 0..n-1 drawn from (seed, b). */
void pb_layouts_assign(int *of_round, int rounds, int n, uint64_t seed);

#endif
