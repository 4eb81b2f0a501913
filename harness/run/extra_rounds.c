/* SPDX-License-Identifier: GPL-2.0-only */
/* extra_rounds.c — rounds beyond the run's own, after its passes:
 *   make-up rounds (docs/layout.md, "A shared core"): a code layout of a cell none of whose rounds
 *   ran on a core of its own gets one more round, in passes over the cells of their own, up to
 *   PB_MAKEUP_PASSES;
 *   boundary rounds (docs/layout.md, "Boundary rounds"): the cells whose ratio is nearest a
 *   verdict's boundary, by the caller's nearness, get more rounds of all their impls.
 * Each cell has room for them after its own rounds (cell_round_room). */
#include "runner_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Make-up passes follow the passes of a run that has more than one (not --quick, 32 rounds or more
 * by default) in more than one layout: a run in one pass is one look at each cell, and its samples
 * are as many as its rounds say. */
int should_run_makeup_passes(const run_ctx *rx)
{
    return !(rx->o->quick || rx->passes < 2 || rx->lay.n < 2);
}

/* The rounds a cell has room for: its own, then the make-up rounds' room, then the boundary
 * rounds (boundary_layouts puts them after the make-up rounds' room, on a block's start). */
int cell_round_room(const run_ctx *rx)
{
    return rx->boundary_rounds ? rx->boundary_base + rx->boundary_rounds : rx->rounds + rx->makeup_passes * rx->lay.n;
}

/* The code layouts of a cell without a round on the core alone (every ready impl's sample of the
 * round on a core of its own), into missing[] (at most rx->lay.n); how many. finalize.c takes a
 * cell's ratio from the pairs on the core alone only where every layout keeps one. */
static int layouts_without_alone(const run_ctx *rx, const cell_run *cr, int *missing)
{
    int n = 0, ncs = cr->ncs;
    for (int l = 0; l < rx->lay.n; l++) {
        int found = 0, any = 0;
        for (int r = 0; r < rx->rounds + cr->nmakeup && !found; r++) {
            if (cr->layout_of[r] != l) continue;
            int alone = 1, seen = 0;
            for (int i = 0; i < ncs && alone; i++) {
                if (!cr->cs[i].ready || cr->cs[i].failed[0]) continue;
                const slot *sl = &cr->slots[r * ncs + i];
                for (int k = 0; k < sl->nraw && alone; k++)
                    if (sl->raw[k].have) {
                        seen = 1;
                        alone = !on_shared_core(rx, &sl->raw[k].s);
                    }
            }
            any |= seen;
            found = seen && alone;
        }
        if (any && !found) missing[n++] = l;
    }
    return n;
}

/* The code layouts a make-up pass gives the cell a round in (layouts_without_alone, as many as its
 * room holds), into missing[]; how many (0: the cell needs none). */
static int cell_needs_makeup(const run_ctx *rx, const cell_run *cr, int *missing)
{
    int n = layouts_without_alone(rx, cr, missing);
    if (n > cr->cap_rounds - rx->rounds - cr->nmakeup) n = cr->cap_rounds - rx->rounds - cr->nmakeup;
    return n > 0 ? n : 0;
}

/* A make-up pass of a cell: one more round in each code layout that has none on the core alone
 * yet (rounds rx->rounds + nmakeup, ...), its cases set up anew. Every sample is kept: the make-up
 * rounds add to a cell, they replace nothing. 0 (nothing to make up, or made up) or as cell_pass. */
static int cell_makeup(run_ctx *rx, cell_run *cr, pb_err *e)
{
    int missing[PB_MAX_LAYOUTS], rr[PB_MAX_LAYOUTS];
    int n = cell_needs_makeup(rx, cr, missing);
    if (!n) return 0;
    for (int k = 0; k < n; k++) {
        rr[k] = rx->rounds + cr->nmakeup + k;
        cr->layout_of[rr[k]] = missing[k];
    }
    cr->nmakeup += n;
    rx->makeup_rounds += n;
    return cell_pass(rx, cr, 0, rr, n, e);
}

/* Another make-up pass, after one that made made rounds and left left layouts without one? Not
 * where it found the core alone in fewer than half its layouts: the core stays shared, and another
 * pass would cost a quarter of a run for little (the noise says so). */
static int should_run_another_makeup_pass(long made, long left)
{
    return !(2 * left > made);
}

int makeup_passes(run_ctx *rx, cell_run *crs, int n, pb_err *e)
{
    int rc = 0;
    for (int m = 0; m < rx->makeup_passes && rc == 0 && !run_interrupted(); m++) {
        long before = rx->makeup_rounds;
        int missing[PB_MAX_LAYOUTS];
        for (int i = 0; i < n; i++) progress_extend(rx, &crs[i], cell_needs_makeup(rx, &crs[i], missing));
        for (int i = 0; i < n && rc == 0 && !run_interrupted(); i++) {
            progress_where(rx, "make-up rounds", m + 1, rx->makeup_passes, i + 1, n);
            rc = cell_makeup(rx, &crs[i], e);
        }
        long made = rx->makeup_rounds - before, left = 0;
        for (int i = 0; i < n && rc == 0; i++) left += layouts_without_alone(rx, &crs[i], missing);
        if (rx->o->progress && made && rc == 0 && !run_interrupted()) {
            char line[256];
            snprintf(line, sizeof line, "bench: make-up pass %d: %ld round%s in code layouts that had none on a core of"
                     " its own (%ld still without)", m + 1, made, made == 1 ? "" : "s", left);
            progress_clear(rx);
            pb_term_wrap(stderr, rx->o->width, line);
        }
        if (!should_run_another_makeup_pass(made, left)) break;
    }
    return rc;
}

/* Test-only: PB_TEST_NEAR_ALL=1 puts every cell with a ratio on a boundary (nearness 0), so that the
 * boundary rounds of a suite with more impls than the two can be checked without depending on the
 * clock. */
static int near_all_test(void)
{
    const char *t = getenv("PB_TEST_NEAR_ALL");
    return t && !strcmp(t, "1");
}

/* impl's ready case in a cell, or -1 */
static int ready_case(const cell_run *cr, const char *impl)
{
    for (int i = 0; i < cr->ncs; i++)
        if (!strcmp(cr->cs[i].impl, impl)) return cr->cs[i].ready && !cr->cs[i].failed[0] ? i : -1;
    return -1;
}

/* The candidate against the baseline of every cell after the passes and make-up passes, on all
 * the pairs so far, as finalize.c estimates a run's ratio (cell_ratio.h: across layouts, two-way
 * where the layouts allow, the two-way variances moderated over the cells); ok[i] set where cell
 * i has one. 0, or -2 when out of memory. */
static int cells_so_far(run_ctx *rx, cell_run *crs, int n, pb_cell_ratio *r, char *ok)
{
    const pb_suite *s = rx->o->suite;
    pb_cell_ratio **have = calloc((size_t)n, sizeof *have);
    size_t k = 0;
    int rc = have ? 0 : -2;
    for (int i = 0; i < n && rc == 0; i++) {
        cell_run *cr = &crs[i];
        int c = ready_case(cr, s->candidate), b = ready_case(cr, s->baseline);
        if (c < 0 || b < 0) continue;
        int prc = cell_ratio_so_far(cr, rx->rounds + cr->nmakeup, c, b, NULL, rx->lay.n, &r[i]);
        if (prc == -2) rc = -2;
        else if (prc == 0) {
            ok[i] = 1;
            have[k++] = &r[i];
        }
    }
    if (rc == 0) rc = pb_cell_ratios_moderate(have, k);
    free(have);
    return rc;
}

/* The nearest cells by their nearness w (smaller: nearer; INFINITY: not near) into near[], at most
 * one in PB_BOUNDARY_SHARE of the run's (at least one), ties in the grid's order: each time a cell
 * that is not picked yet and nearer than every other not picked. */
static void pick_nearest(const double *w, int n, char *near)
{
    int most = (n + PB_BOUNDARY_SHARE - 1) / PB_BOUNDARY_SHARE;
    for (int k = 0; k < most; k++) {
        int best = -1;
        for (int i = 0; i < n; i++)
            if (!near[i] && isfinite(w[i]) && (best < 0 || w[i] < w[best])) best = i;
        if (best < 0) break;
        near[best] = 1;
    }
}

/* near[i] set for the cells nearest a verdict's boundary by the caller's nearness (cells_so_far,
 * pick_nearest). 0, or -2 when out of memory. */
static int find_near(run_ctx *rx, cell_run *crs, int n, char *near)
{
    const pb_runner_opts *o = rx->o;
    pb_cell_ratio *r = calloc((size_t)n, sizeof *r);
    char *ok = calloc((size_t)n, 1);
    double *w = calloc((size_t)n, sizeof *w);
    int rc = r && ok && w ? cells_so_far(rx, crs, n, r, ok) : -2;
    for (int i = 0; i < n && rc == 0; i++) {
        w[i] = INFINITY;
        if (!ok[i]) continue;
        const pb_paired *h = &r[i].pr;   /* the headline */
        w[i] = near_all_test() ? 0 : o->nearness(o->near_ctx, crs[i].cell, h->estimate, h->ci_lo, h->ci_hi);
    }
    if (rc == 0) pick_nearest(w, n, near);
    free(r);
    free(ok);
    free(w);
    return rc;
}

/* The passes the boundary rounds take: as many rounds each as the run's passes have (each a block
 * of every layout once), at least one. */
static int predict_boundary_passes(const run_ctx *rx)
{
    int passes = (int)((long long)rx->passes * rx->boundary_rounds / rx->rounds);
    return passes < 1 ? 1 : passes;
}

/* Boundary rounds (runner.h; docs/layout.md, "Boundary rounds"): the cells find_near picks get
 * rx->boundary_rounds more rounds of every impl, as the run's own rounds (not the candidate and the
 * baseline alone: with nothing between them they measured another ratio, docs/layout.md), in passes
 * over those cells (predict_boundary_passes). */
int boundary_passes(run_ctx *rx, cell_run *crs, int n, pb_err *e)
{
    const pb_runner_opts *o = rx->o;
    int E = rx->boundary_rounds;
    char *near = calloc((size_t)(n > 0 ? n : 1), 1);
    int *rr = malloc((size_t)E * sizeof *rr);
    int rc = near && rr ? find_near(rx, crs, n, near) : -2;
    if (rc == -2) rc = pb_errf(e, "out of memory");
    for (int i = 0; i < n && rc == 0; i++) rx->boundary_cells += near[i];
    int passes = predict_boundary_passes(rx);
    for (int i = 0; i < n && rc == 0; i++)
        if (near[i]) progress_extend(rx, &crs[i], E);
    progress_where(rx, "boundary rounds", 1, passes, 0, 0);
    if (o->progress && rx->boundary_cells && rc == 0) {
        progress_clear(rx);
        char line[3 * PB_NAME_MAX + 96];
        snprintf(line, sizeof line, "bench: %ld cell%s near a verdict's boundary (%s/%s): %d more rounds each",
                 rx->boundary_cells, rx->boundary_cells == 1 ? "" : "s", o->suite->candidate, o->suite->baseline, E);
        pb_term_wrap(stderr, o->width, line);
    }
    for (int p = 0; p < passes && rx->boundary_cells && rc == 0 && !run_interrupted(); p++) {
        int r0, r1;
        pass_round_range(E, p, passes, &r0, &r1);
        for (int r = r0; r < r1; r++) rr[r - r0] = rx->boundary_base + r;
        for (int i = 0; i < n && rc == 0 && !run_interrupted(); i++)
            if (near[i]) {
                progress_where(rx, "boundary rounds", p + 1, passes, 0, 0);
                rc = cell_pass(rx, &crs[i], 0, rr, r1 - r0, e);
            }
    }
    free(near);
    free(rr);
    return rc;
}

/* Boundary rounds in this run? None with --quick (one look at each cell), for a suite that keeps
 * its cells whole (as passes: such a sample is long already), or without a caller's nearness. */
static int should_run_boundary_rounds(const pb_runner_opts *o)
{
    return o->nearness && !o->quick && !suite_keeps_cells_whole(o->suite) && o->boundary_rounds;
}

/* Boundary rounds' room and code layouts (runner.h), where the run has them: they start on a block
 * of the layouts' permutation after the make-up rounds' room, and continue its blocks
 * (pb_layouts_assign), so that each is a time block of every layout once. 0, or -1 + e. */
int boundary_layouts(run_ctx *rx, pb_err *e)
{
    const pb_runner_opts *o = rx->o;
    if (!should_run_boundary_rounds(o)) return 0;
    int E = o->boundary_rounds < 0 ? (rx->rounds + 1) / 2 : o->boundary_rounds, L = rx->lay.n;
    int base = (rx->rounds + rx->makeup_passes * L + L - 1) / L * L;
    int *all = calloc((size_t)(base + E), sizeof *all);
    rx->boundary_layout = calloc((size_t)E, sizeof *rx->boundary_layout);
    if (!all || !rx->boundary_layout) {
        free(all);
        return pb_errf(e, "out of memory");
    }
    if (L > 1) pb_layouts_assign(all, base + E, L, rx->lay.set->seed);
    memcpy(rx->boundary_layout, all + base, (size_t)E * sizeof *all);
    free(all);
    rx->boundary_rounds = E;
    rx->boundary_base = base;
    return 0;
}
