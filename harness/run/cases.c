/* SPDX-License-Identifier: GPL-2.0-only */
/* cases.c — a cell's cases: each impl's set up here, one per code layout (self-tested first: an
 * impl that fails its known answers is never timed), or in a cage of its own (cage_client.c);
 * warmed and timed outside a sample (run_body); their iterations per sample calibrated, or taken
 * from the caller's memo; freed. */
#include "runner_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate.h"
#include "fmt.h"

static int selftest_once(const pb_suite *s, const void *suite_opts, selftest_cache *sc, const char *impl, pb_err *e)
{
    for (int i = 0; i < sc->n; i++)
        if (sc->suite[i] == s && !strcmp(sc->impl[i], impl)) return sc->ok[i] ? 0 : pb_errf(e, "%s", sc->why[i]);
    pb_err te = {{0}};
    int ok = pb_suite_selftest(s, suite_opts, impl, &te) == 0;
    if (sc->n < SELFTEST_CACHE) {
        sc->suite[sc->n] = s;
        snprintf(sc->impl[sc->n], PB_NAME_MAX, "%s", impl);
        sc->ok[sc->n] = ok;
        snprintf(sc->why[sc->n], PB_ERR_MAX, "refusing to time %s/%s: it failed its known-answer self-test: %.400s",
                 s->name, impl, te.msg);
        sc->n++;
    }
    return ok ? 0 : pb_errf(e, "refusing to time %s/%s: it failed its known-answer self-test: %.400s", s->name, impl,
                            te.msg);
}

/* Free what set_up_impl set up of cs (in its cage: the child frees them as it quits). */
void free_impl(case_state *cs)
{
    if (cs->cage.pid) {
        pb_cage_stop(&cs->cage);
        cs->nl = 0;
        return;
    }
    for (int l = 0; l < cs->nl; l++) {
        if (cs->c[l].free_ctx) cs->c[l].free_ctx(cs->c[l].ctx);
        free(cs->heap_spacer[l]);
    }
    cs->nl = 0;
}

/* One case of impl per code layout when every layout has it, else one from the run's own suite:
 * each self-tested first (every layout is a copy of the code of its own), each set up behind its
 * layout's heap offset. 0 (set up, or marked unavailable) or -1 + e. */
int set_up_here(run_ctx *rx, const pb_cell *cell, case_state *cs, pb_err *e)
{
    const pb_runner_opts *o = rx->o;
    const pb_run_layouts *L = &rx->lay;
    int all = L->n > 1;
    for (int l = 0; l < L->n && all; l++) all = pb_layouts_has(L, l, cell, cs->impl);
    int nl = all ? L->n : 1;
    for (int l = 0; l < nl; l++) {
        const pb_suite *s = all ? L->set->v[l].suite : o->suite;
        void *so = all ? L->set->v[l].opts : o->suite_opts;
        if (selftest_once(s, so, &rx->sc, cs->impl, e) < 0) {
            free_impl(cs);
            return -1;
        }
        size_t spacer = all ? pb_layouts_heap_offset(L, l, cs->impl) : 0;
        if (spacer && !(cs->heap_spacer[l] = malloc(spacer))) {
            free_impl(cs);
            return pb_errf(e, "out of memory");
        }
        pb_err se = {{0}};
        cs->suite[l] = s;
        pb_setup_status st = s->setup_case(so, cell, cs->impl, &cs->c[l], &se);
        if (st != PB_SETUP_OK) free(cs->heap_spacer[l]);
        if (st == PB_SETUP_UNAVAILABLE) {
            free_impl(cs);
            snprintf(cs->unavailable, sizeof cs->unavailable, "unavailable: %s", se.msg);
            return 0;
        }
        if (st != PB_SETUP_OK) {
            free_impl(cs);
            char where[3 * PB_NAME_MAX + 32];
            return pb_errf(e, "%s %s, impl %s%s: set-up failed: %s", o->suite->name,
                           pb_fmt_cell(where, sizeof where, cell->variant, cell->op, cell->size_bytes), cs->impl,
                           all ? " (a code layout)" : "", se.msg);
        }
        cs->nl = l + 1;
    }
    cs->ready = 1;
    return 0;
}

/* The impl's cases set up here, or in a cage of their own when they are code the lab did not
 * write (or --cage all): 0 (set up, or marked unavailable, or failed in its cage: cs->failed) or
 * -1 + e (the lab's own set-up failed: the run fails). */
int set_up_impl(run_ctx *rx, const pb_cell *cell, case_state *cs, pb_err *e)
{
    return should_cage_impl(rx, cs->impl) ? set_up_caged(rx, cell, cs, e) : set_up_here(rx, cell, cs, e);
}

/* Is the case's body timed by bench (calibrated, warmed up)? Not when another process measures
 * it (external_sample) or a seeded source gives its time. */
int case_body_is_timed(const case_state *cs)
{
    return !cs->c[0].external_sample && !cs->c[0].seeded_ns;
}

/* Shortest of `reps` timings of case li's body(k), in s, here or in its cage (where a failure
 * marks the case failed and gives 1 s: calibration then stops, stop_requested). A single
 * timing (reps 1) is a warm-up. Shortest of three for calibrating: a preempted or slow-phase
 * timing would otherwise give one case far fewer iterations than its peers. */
double run_body(run_ctx *rx, case_state *cs, int li, uint64_t k, int reps)
{
    if (cs->failed[0]) return 1;
    if (cs->cage.pid) return cage_time(rx, cs, li, k, reps);
    double best = INFINITY;
    for (int i = 0; i < reps; i++) {
        uint64_t t0 = pb_now_ns();
        cs->c[li].body(cs->c[li].ctx, k);
        double dt = (double)(pb_now_ns() - t0) * 1e-9;
        if (dt < best) best = dt;
    }
    return best;
}

typedef struct calibrating {
    run_ctx *rx;
    case_state *cs;
} calibrating;

static double time_case(void *p, uint64_t k)
{
    calibrating *c = p;
    return run_body(c->rx, c->cs, 0, k, 3);
}

static int stop_requested(void *p)
{
    calibrating *c = p;
    return run_interrupted() || c->cs->failed[0] != 0;
}

/* iterations so that one sample holds about `target` seconds of work (calibrate.h: a fixed cost
 * per call of the body is not taken for work) */
static uint64_t calibrate(run_ctx *rx, case_state *cs, const pb_cell *cell, double target)
{
    run_body(rx, cs, 0, 1, 1); /* warm caches, lazy init, page faults */
    calibrating cc = {rx, cs};
    pb_calibration cal = pb_calibrate(time_case, stop_requested, &cc, target);
    char where[3 * PB_NAME_MAX + 32];
    if (cal.fixed_dominates && !cs->failed[0]) {
        char line[4 * PB_NAME_MAX + 192];
        snprintf(line, sizeof line,
                 "bench: warning: %s %s: a fixed cost per call of the body is still over a quarter of "
                 "a %.2f s sample (%llu iterations); its time per op includes part of it",
                 cs->impl, pb_fmt_cell(where, sizeof where, cell->variant, cell->op, cell->size_bytes),
                 PB_CAL_MAX_SAMPLE_S, (unsigned long long)cal.iters);
        progress_clear(rx);
        pb_term_wrap(stderr, rx->o->width, line);  /* stored nowhere else: wrapped, never cut */
    }
    return cal.iters;
}

struct pb_iters_entry {
    char impl[PB_NAME_MAX], variant[PB_NAME_MAX], op[PB_NAME_MAX];
    uint64_t size;
    double target;
    uint64_t iters;
};

void pb_iters_memo_free(pb_iters_memo *m)
{
    free(m->v);
    memset(m, 0, sizeof *m);
}

/* the memo's iterations for this case and sample length, else a calibration (remembered) */
static uint64_t memo_iters(run_ctx *rx, pb_iters_memo *m, const char *impl, const pb_cell *cell, double target,
                           case_state *cs)
{
    for (size_t i = 0; m && i < m->n; i++) {
        const struct pb_iters_entry *x = &m->v[i];
        if (x->size == cell->size_bytes && x->target == target && !strcmp(x->impl, impl) &&
            !strcmp(x->variant, cell->variant) && !strcmp(x->op, cell->op)) {
            run_body(rx, cs, 0, 1, 1);   /* the warm-up calibrate() would have done */
            return x->iters;
        }
    }
    uint64_t iters = calibrate(rx, cs, cell, target);
    if (cs->failed[0]) return iters;   /* nothing to remember of code that failed */
    if (m && m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 256;
        struct pb_iters_entry *nv = realloc(m->v, cap * sizeof *nv);
        if (!nv) return iters;   /* no memo: the next run calibrates again */
        m->v = nv;
        m->cap = cap;
    }
    if (m) {
        struct pb_iters_entry *x = &m->v[m->n++];
        memset(x, 0, sizeof *x);
        snprintf(x->impl, sizeof x->impl, "%s", impl);
        snprintf(x->variant, sizeof x->variant, "%s", cell->variant);
        snprintf(x->op, sizeof x->op, "%s", cell->op);
        x->size = cell->size_bytes;
        x->target = target;
        x->iters = iters;
    }
    return iters;
}

/* The iterations of one sample of the case: one for a sample another process measures (its
 * iterations are its own), any count for a seeded one, else the memo's or a calibration's. */
uint64_t predict_iters(run_ctx *rx, case_state *cs, const pb_cell *cell, double target)
{
    const pb_case *c0 = &cs->c[0];
    if (c0->external_sample) return 1;
    return c0->seeded_ns ? SEEDED_ITERS : memo_iters(rx, rx->o->iters_memo, cs->impl, cell, target, cs);
}
