/* SPDX-License-Identifier: GPL-2.0-only */
/* passes.c — the passes over the grid (docs/layout.md, "Passes"): pass p runs rounds
 * [p R / P, (p + 1) R / P) of every cell in turn, so that each cell's rounds are spread over the whole
 * run; then the extra rounds (extra_rounds.c); then each cell, kept from its first pass to its last,
 * is stored whole. One pass of a cell: the suite's cell hooks around it, its cases set up anew
 * (cases.c), its rounds registered with Google Benchmark in round-robin order, the start rotated
 * every round, and run (sample.c). */
#include "runner_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "term.h"

/* seconds of ops that warm a code layout's case before a pass's rounds (warm_layouts) */
#define PB_WARM_S 0.25e-3

void pass_round_range(int rounds, int p, int passes, int *r0, int *r1)
{
    *r0 = (int)((long long)rounds * p / passes);
    *r1 = (int)((long long)rounds * (p + 1) / passes);
}

static int cell_run_init(run_ctx *rx, cell_run *cr, const pb_cell *cell, pb_err *e)
{
    const pb_suite *s = rx->o->suite;
    cr->cell = cell;
    cr->ncs = cell->nimpls;
    cr->target = cell->sample_seconds > 0 ? cell->sample_seconds : rx->sample_s;
    cr->cs = calloc(PB_MAX_IMPLS, sizeof *cr->cs);
    cr->cap_rounds = cell_round_room(rx);
    cr->slots = calloc((size_t)(unsigned)cr->cap_rounds * (size_t)(unsigned)cr->ncs, sizeof *cr->slots);
    cr->layout_of = calloc((size_t)(unsigned)cr->cap_rounds, sizeof *cr->layout_of);
    if (!cr->cs || !cr->slots || !cr->layout_of) return pb_errf(e, "out of memory");
    for (int r = 0; r < rx->rounds; r++) cr->layout_of[r] = rx->lay.of_round[r];
    for (int j = 0; j < rx->boundary_rounds; j++) cr->layout_of[rx->boundary_base + j] = rx->boundary_layout[j];
    for (int i = 0; i < cr->ncs; i++) {
        case_state *c = &cr->cs[i];
        snprintf(c->impl, sizeof c->impl, "%s", cell->impls[i]);
        char where[3 * PB_NAME_MAX + 32];
        snprintf(c->where, sizeof c->where, "%s %s", s->name,
                 pb_fmt_cell(where, sizeof where, cell->variant, cell->op, cell->size_bytes));
        c->target = cr->target;
    }
    return 0;
}

static void cell_run_free(cell_run *cr)
{
    for (int i = 0; i < cr->cap_rounds * cr->ncs && cr->slots; i++) free(cr->slots[i].raw);
    free(cr->slots);
    free(cr->layout_of);
    for (int i = 0; cr->cs && i < cr->ncs; i++) free_impl(&cr->cs[i]);
    free(cr->cs);
    memset(cr, 0, sizeof *cr);
}

/* Does an impl stay out of a later pass? One that was unavailable or failed in an earlier pass does. */
static int case_stays_out(const case_state *cs, int first)
{
    return !first && (!cs->ready || cs->failed[0]);
}

/* Is the case sampled in this pass? Set up, and not failed in an earlier pass (one that fails in the
 * first pass's calibration is still registered: its samples then fail, take_sample). */
static int case_is_sampled(const case_state *cs, int first)
{
    return cs->ready && !(!first && cs->failed[0]);
}

/* The impls' cases set up anew, the caged ones first: their cage is a fork of this process, and a
 * fork taken while the suite's own cases run threads (sigpool's workers) can inherit a lock one of
 * them held; in the sanitizer build the child's set-up then never ended
 * (tests/sigpool/plugin_test.sh). 0 or -1 + e. */
static int set_up_cases(run_ctx *rx, cell_run *cr, int first, pb_err *e)
{
    case_state *cs = cr->cs;
    int rc = 0;
    for (int caged = 1; caged >= 0; caged--)
        for (int i = 0; i < cr->ncs && rc == 0; i++) {
            if (should_cage_impl(rx, cs[i].impl) != caged || case_stays_out(&cs[i], first)) continue;
            cs[i].ready = 0;
            rc = set_up_impl(rx, cr->cell, &cs[i], e);
            if (rc == 0 && first && cs[i].ready) cs[i].nl_set = cs[i].nl;
        }
    return rc;
}

/* The first pass calibrates each impl's iterations; the later ones reuse them, and warm the case up
 * as the first pass's calibration did. */
static void calibrate_or_warm(run_ctx *rx, cell_run *cr, int first)
{
    case_state *cs = cr->cs;
    for (int i = 0; i < cr->ncs; i++) {
        if (!cs[i].ready || cs[i].failed[0]) continue;
        if (first) cs[i].iters = predict_iters(rx, &cs[i], cr->cell, cr->target);
        else if (case_body_is_timed(&cs[i])) run_body(rx, &cs[i], 0, 1, 1);
    }
}

/* The other layouts' cases warmed, so that no layout's first round pays its page faults and cold
 * code alone: the ops of PB_WARM_S (an eighth of a default 2 ms sample; at least one op) touch
 * every page and line a sample does. A whole sample each, 15 of them per case with 16 layouts,
 * cost a quarter of a default run's time (sigpool: 117 s against 100 s with 8 layouts); an eighth
 * of sigpool's 10-15 ms samples still cost 12 of its 130 s where make-up passes warmed 15 layouts
 * for one round. So only the layouts this pass's rounds run in, each for the same time whatever
 * the sample length. */
static void warm_layouts(run_ctx *rx, cell_run *cr, const int *rr, int nrr)
{
    case_state *cs = cr->cs;
    char used[PB_MAX_LAYOUTS] = {0};
    for (int k = 0; k < nrr; k++) used[cr->layout_of[rr[k]]] = 1;
    double share = cr->target > PB_WARM_S * 8 ? PB_WARM_S / cr->target : 1.0 / 8;
    for (int i = 0; i < cr->ncs; i++) {
        uint64_t warm = (uint64_t)((double)cs[i].iters * share);
        for (int l = 1; cs[i].ready && case_body_is_timed(&cs[i]) && l < cs[i].nl; l++)
            if (used[l]) run_body(rx, &cs[i], l, warm ? warm : 1, 1);
    }
}

/* Round r's slot of case i, at position p of the round: its layout, and which of the case's
 * per-layout cases runs it, at which stack offset. */
static slot *place_slot(run_ctx *rx, cell_run *cr, int r, int p, int i)
{
    slot *sl = &cr->slots[r * cr->ncs + i];
    sl->rx = rx;
    sl->cs = &cr->cs[i];
    sl->round = r;
    sl->position = p;
    sl->layout = cr->layout_of[r];
    sl->li = cr->cs[i].nl > 1 ? sl->layout : 0;
    sl->stack_offset = rx->lay.n > 1 ? rx->lay.stack_offset[sl->layout] : 0;
    return sl;
}

/* Rounds rr[0..nrr) of the cell in one call of Google Benchmark: each impl's sample of a round
 * registered, the start rotated every round. */
static int run_rounds_once(run_ctx *rx, cell_run *cr, int first, const int *rr, int nrr, pb_err *e)
{
    const pb_suite *s = rx->o->suite;
    const pb_cell *cell = cr->cell;
    int ncs = cr->ncs, rc = 0;
    pb_gb_clear();
    for (int k = 0; k < nrr && rc == 0; k++)
        for (int p = 0, r = rr[k]; p < ncs; p++) {
            int i = (p + r) % ncs; /* rotate the start every round */
            slot *sl = place_slot(rx, cr, r, p, i);
            if (!case_is_sampled(&cr->cs[i], first)) continue;
            char name[256];
            snprintf(name, sizeof name, "%s/%s/%s/%llu/%s/round:%d", s->name, cell->variant, cell->op,
                     (unsigned long long)cell->size_bytes, cr->cs[i].impl, r);
            if (pb_gb_register(name, take_sample, sl, cr->cs[i].iters) < 0) {
                rc = pb_errf(e, "cannot register benchmark %s", name);
                break;
            }
        }
    if (rc == 0 && pb_gb_run(keep_result, NULL, NULL) < 0)
        rc = pb_errf(e, "Google Benchmark failed in cell %s/%s/%llu (see above)", cell->variant, cell->op,
                     (unsigned long long)cell->size_bytes);
    pb_gb_clear();
    return rc;
}

/* Google Benchmark takes a pass's rounds this many at a time: its run of a registry grows faster
 * than the registry (a pass of 50,000 rounds spent most of an hour in GB's own copies), and a
 * signal is acted on between two calls (take_sample skips what is left of the call's rounds). No
 * default pass comes near it, so a default run is one call per pass as before. */
#define PB_GB_ROUNDS_PER_CALL 256

/* Rounds rr[0..nrr), every impl in each, registered with Google Benchmark and run. 0 or -1 + e. */
static int run_rounds(run_ctx *rx, cell_run *cr, int first, const int *rr, int nrr, pb_err *e)
{
    int rc = 0;
    for (int k = 0; k < nrr && rc == 0 && !run_interrupted(); k += PB_GB_ROUNDS_PER_CALL) {
        int n = nrr - k < PB_GB_ROUNDS_PER_CALL ? nrr - k : PB_GB_ROUNDS_PER_CALL;
        rc = run_rounds_once(rx, cr, first, rr + k, n, e);
    }
    return rc;
}

/* A cell kept with a note of its suite's (cell_end 1 + e, suite.h: exec's failed --cleanup): warned
 * about now, in a line that fits, and kept for the run's noise (record_noise), which the report shows */
static void cell_noted(run_ctx *rx, const pb_cell *cell, const char *msg)
{
    char line[700];
    snprintf(line, sizeof line, "%s (the cell's samples are kept)", msg);
    pb_term_warn(stderr, rx->o->width, "bench: warning: ", line, "see bench report");
    char where[3 * PB_NAME_MAX + 64];
    pb_fmt_cell(where, sizeof where, cell->variant, cell->op, cell->size_bytes);
    if (!rx->cell_notes++) snprintf(rx->cell_note, sizeof rx->cell_note, "%s: %s", where, msg);
}

/* Rounds rr[0..nrr) of a cell, one pass of it: the suite's cell hooks around it, its cases set up
 * anew (fresh allocations: where its buffers and contexts land is drawn again in every pass), the
 * first pass calibrating each impl's iterations and the later ones reusing them, every layout's
 * case warmed, the rounds run, the cases freed. An impl that was unavailable or failed in an
 * earlier pass stays out; one that turns unavailable in a later pass is out of the whole cell
 * (its samples are not stored). 0, -1 or -2 (the suite refused the cell) + e. */
int cell_pass(run_ctx *rx, cell_run *cr, int first, const int *rr, int nrr, pb_err *e)
{
    const pb_runner_opts *o = rx->o;
    const pb_suite *s = o->suite;
    const pb_cell *cell = cr->cell;
    int rc = 0;
    /* the suite's per-cell set-up, on the run's own options: once per pass of the cell, whatever the layouts */
    pb_err he = {{0}};
    int begun = !s->cell_begin || s->cell_begin(o->suite_opts, cell, &he) == 0;
    if (!begun) {
        pb_errf(e, "%s %s %s %llu B: %s", s->name, cell->variant, cell->op, (unsigned long long)cell->size_bytes,
                he.msg);
        rc = -2;
    }
    if (rc == 0) rc = set_up_cases(rx, cr, first, e);
    if (rc == 0 && first) progress_extend(rx, cr, -rx->rounds);   /* its unavailable impls are not in the plan */
    if (rc == 0) {
        calibrate_or_warm(rx, cr, first);
        warm_layouts(rx, cr, rr, nrr);
        rc = run_rounds(rx, cr, first, rr, nrr, e);
    }
    /* the suite's per-cell clean-up, after the pass's last sample: a failure refuses the run and the
     * cell is not stored */
    int ended = begun && s->cell_end ? s->cell_end(o->suite_opts, cell, &he) : 0;
    if (ended < 0 && rc == 0) {
        pb_errf(e, "%s %s %s %llu B: %s", s->name, cell->variant, cell->op, (unsigned long long)cell->size_bytes,
                he.msg);
        rc = -2;
    }
    if (ended > 0) cell_noted(rx, cell, he.msg);
    for (int i = 0; i < cr->ncs; i++) free_impl(&cr->cs[i]);
    return rc;
}

/* impl i's first sample of each round (skip[r] set: not round r), keyed by its round, into out:
 * paired as the store pairs them. Returns how many. */
static size_t keyed_of(const slot *slots, int rounds, int ncs, int i, const char *skip, pb_keyed_layout *out)
{
    size_t n = 0;
    for (int r = 0; r < rounds; r++) {
        const slot *a = &slots[r * ncs + i];
        if (a->nraw && a->raw[0].have && !(skip && skip[r]))
            out[n++] = (pb_keyed_layout){{r, 0}, a->raw[0].s.ns / (double)a->raw[0].s.iterations, a->layout};
    }
    return n;
}

int cell_ratio_so_far(const cell_run *cr, int rounds, int c, int b, const char *skip, int layouts,
                      pb_cell_ratio *out)
{
    pb_keyed_layout *kc = malloc((size_t)rounds * sizeof *kc), *kb = malloc((size_t)rounds * sizeof *kb);
    int rc = -2;
    if (kc && kb) {
        size_t nc = keyed_of(cr->slots, rounds, cr->ncs, c, skip, kc);
        size_t nb = keyed_of(cr->slots, rounds, cr->ncs, b, skip, kb);
        rc = pb_cell_ratio_of(kc, nc, kb, nb, layouts, out);
    }
    free(kc);
    free(kb);
    return rc;
}

/* The cell after its last pass, stored in one transaction: whole or not at all. idx: its place
 * among the run's ncells. */
static int cell_store(run_ctx *rx, cell_run *cr, int idx, int ncells, int show, pb_err *e)
{
    const pb_suite *s = rx->o->suite;
    const pb_cell *cell = cr->cell;
    case_state *cs = cr->cs;
    int ncs = cr->ncs, rounds = cr->cap_rounds, rc = 0;
    pb_store *st = &rx->st;
    if (pb_store_begin(st, e) < 0) rc = -1;
    for (int i = 0; i < ncs && rc == 0; i++) {
        /* caged code that failed: none of its samples, which it may have faked, and why */
        if (cs[i].failed[0]) {
            cs[i].ready = 0;
            snprintf(cs[i].unavailable, sizeof cs[i].unavailable, "failed: %s", cs[i].failed);
            rx->failed_cases++;
        }
        int64_t cid = pb_store_add_case(st, rx->run, s->name, cs[i].impl, cell->variant, cell->op, cell->size_bytes,
                                        cs[i].ready ? (int64_t)cs[i].iters : 0,
                                        cs[i].ready ? "ok" : "unavailable",
                                        cs[i].ready ? NULL : cs[i].unavailable, e);
        if (cid < 0) { rc = -1; break; }
        /* the layouts of its first pass's set-up: every pass sets up as many (layouts.h) */
        if (cs[i].ready && pb_store_case_layouts(st, cid, cs[i].nl_set, e) < 0) { rc = -1; break; }
        for (int r = 0; r < rounds && rc == 0 && cs[i].ready; r++) {
            slot *sl = &cr->slots[r * ncs + i];
            for (int k = 0; k < sl->nraw && rc == 0; k++)
                if (sl->raw[k].have) {
                    rc = pb_store_add_sample(st, cid, &sl->raw[k].s, e);
                    note_probe(&rx->probes, sl->raw[k].s.probe_before, sl->raw[k].s.probe_after);
                }
        }
    }
    if (rc == 0) rc = pb_store_commit(st, e);
    else pb_store_rollback(st);
    if (rc == 0) cell_waits(rx, cr);
    if (rc == 0 && show) progress_line(rx, cr, idx, ncells);
    return rc;
}

/* The run's own rounds, in its passes: the first pass sets each cell up. 0, or as cell_pass. */
static int run_passes(run_ctx *rx, const pb_grid *g, cell_run *crs, pb_err *e)
{
    int rc = 0, passes = rx->passes, n = g->ncells;
    int *rr = malloc((size_t)(unsigned)(rx->rounds > 0 ? rx->rounds : 1) * sizeof *rr);
    if (!rr) return pb_errf(e, "out of memory");
    for (int p = 0; p < passes && rc == 0 && !run_interrupted(); p++) {
        int r0, r1;
        pass_round_range(rx->rounds, p, passes, &r0, &r1);
        for (int r = r0; r < r1; r++) rr[r - r0] = r;
        for (int i = 0; i < n && rc == 0 && !run_interrupted(); i++) {
            progress_where(rx, "measuring", p + 1, passes, i + 1, n);
            if (p == 0) rc = cell_run_init(rx, &crs[i], &g->cells[i], e);
            if (rc == 0) rc = cell_pass(rx, &crs[i], p == 0, rr, r1 - r0, e);
            progress_cell_done(rx, i, r1 - r0);
            rx->units_done = (long)p * n + i + 1;
        }
        if (p < passes - 1 && rc == 0 && !run_interrupted()) progress_pass_done(rx, p, r0, r1);
    }
    free(rr);
    return rc;
}

int run_grid(run_ctx *rx, const pb_grid *g, pb_err *e)
{
    int rc = 0, n = g->ncells;
    cell_run *crs = calloc((size_t)(n > 0 ? n : 1), sizeof *crs);
    if (!crs) rc = pb_errf(e, "out of memory");
    progress_plan(rx, g);
    if (rc == 0) rc = run_passes(rx, g, crs, e);
    if (rc == 0) rc = makeup_passes(rx, crs, n, e);
    if (rc == 0 && rx->boundary_rounds && !run_interrupted()) rc = boundary_passes(rx, crs, n, e);
    progress_end(rx);   /* measured: the cells' lines, the run's end or its error follow */
    for (int i = 0; i < n && rc == 0 && !run_interrupted(); i++) {
        rc = cell_store(rx, &crs[i], i, n, should_show_cell(rx, i, n), e);
        cell_run_free(&crs[i]);
    }
    for (int i = 0; crs && i < n; i++)
        if (crs[i].cs) cell_run_free(&crs[i]);
    free(crs);
    return rc;
}
