/* SPDX-License-Identifier: GPL-2.0-only */
/* progress.c — the progress lines on stderr (pb_runner_opts.progress): while the run measures, a
 * live line every few seconds (ticker.h) with how much of the plan is done and an ETA, the plan
 * being every cell's rounds of every impl, each sample weighted by its cell's sample length, and
 * extended by the make-up and boundary rounds once they are decided; once a run has taken more
 * than PROGRESS_AFTER_NS: a pass done, and each cell as it is stored, with its impls' times, the
 * candidate against the baseline as the store will estimate it (cell_ratio.h), and an ETA; per item
 * too where the suite counts its sizes in items (suite.h item_unit). A bounded width (pb_runner_opts.width)
 * drops the least needed parts of a cell's line until it fits, then cuts it. */
#include "runner_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "metrics.h"

/* a run shorter than this says nothing but its header and its end */
#define PROGRESS_AFTER_NS 2000000000ull

int should_report_progress(const run_ctx *rx)
{
    return rx->o->progress && pb_now_ns() - rx->t0 > PROGRESS_AFTER_NS;
}

/* Is cell idx of n shown as it is stored? Once the run reports progress, and the last cell always. */
int should_show_cell(const run_ctx *rx, int idx, int n)
{
    return rx->o->progress && (pb_now_ns() - rx->t0 > PROGRESS_AFTER_NS || idx == n - 1);
}

/* The extra rounds that may still follow the passes (they are decided after them), or NULL. */
static const char *extra_rounds_may_follow(const run_ctx *rx, int makeup)
{
    int boundary = rx->boundary_rounds > 0;
    if (makeup && boundary) return "make-up/boundary rounds";
    if (makeup) return "make-up rounds";
    return boundary ? "boundary rounds" : NULL;
}

static double sample_weight(const run_ctx *rx, const pb_cell *c)
{
    return c->sample_seconds > 0 ? c->sample_seconds : rx->sample_s;
}

void progress_plan(run_ctx *rx, const pb_grid *g)
{
    pb_ticker_init(&rx->plan.tick, stderr, rx->o->progress || rx->o->live, rx->o->width, rx->t0);
    rx->plan.total = rx->plan.done = 0;
    for (int i = 0; i < g->ncells; i++)
        rx->plan.total += (double)g->cells[i].nimpls * rx->rounds * sample_weight(rx, &g->cells[i]);
    rx->plan.what = "measuring";
    rx->plan.more = extra_rounds_may_follow(rx, should_run_makeup_passes(rx));
    rx->plan.round_s = calloc((size_t)(g->ncells > 0 ? g->ncells : 1), sizeof *rx->plan.round_s);
}

void progress_cell_done(run_ctx *rx, int cell, int rounds)
{
    uint64_t now = pb_now_ns();
    if (rx->plan.round_s && rounds > 0) rx->plan.round_s[cell] = (double)(now - rx->plan.cell_ns) * 1e-9 / rounds;
}

void progress_where(run_ctx *rx, const char *what, int pass, int passes, int cell, int ncells)
{
    /* the first pass calibrates every case: the later ones' rate says more of what is left */
    if (pass == 2 && !rx->plan.since_ns && !strcmp(what, "measuring")) {
        rx->plan.since_ns = pb_now_ns();
        rx->plan.since_done = rx->plan.done;
    }
    if (strcmp(what, "measuring")) rx->plan.more = rx->boundary_rounds > 0 && strcmp(what, "boundary rounds")
                                                      ? "boundary rounds" : NULL;
    rx->plan.cell_ns = pb_now_ns();
    rx->plan.what = what;
    rx->plan.pass = pass;
    rx->plan.passes = passes;
    rx->plan.cell = cell;
    rx->plan.ncells = ncells;
}

/* rounds more of a cell's sampled impls (make-up, boundary rounds: rounds > 0), or fewer (its
 * impls that are not sampled after all: rounds < 0, with the impls not sampled) */
void progress_extend(run_ctx *rx, const cell_run *cr, int rounds)
{
    int n = 0;
    for (int i = 0; i < cr->ncs; i++) n += rounds > 0 ? cr->cs[i].ready && !cr->cs[i].failed[0] : !cr->cs[i].ready;
    rx->plan.total += (double)abs(rounds) * n * (rounds > 0 ? 1 : -1) * sample_weight(rx, cr->cell);
}

/* The boundary rounds to come, as the passes' cells cost per round: they go to the cells nearest a
 * boundary after the passes, one in PB_BOUNDARY_SHARE of them (extra_rounds.c pick_nearest), which
 * are not known yet: so at the mean cost of a round. Without it the ETA at half-way fell short by
 * the boundary rounds' share (a default xts run: 15 s said, 21 s taken). */
static double predict_boundary_seconds(const run_ctx *rx)
{
    int n = rx->plan.ncells;
    if (rx->boundary_rounds <= 0 || n <= 0) return 0;
    double sum = 0;
    for (int j = 0; j < n; j++) sum += rx->plan.round_s[j];
    int near = (n + PB_BOUNDARY_SHARE - 1) / PB_BOUNDARY_SHARE;
    return sum / n * near * rx->boundary_rounds;
}

/* In the run's own passes after the first: the seconds left by each cell's cost per round in its
 * latest pass (cells differ in their set-up and warming, which a share of the samples does not
 * see): the rest of this cell, the cells after it in this pass, every cell in the passes after. */
static double predict_passes_left(const run_ctx *rx, uint64_t now)
{
    int i = rx->plan.cell - 1, n = rx->plan.ncells, p = rx->plan.pass - 1;
    double left = 0;
    for (int q = p; q < rx->passes; q++) {
        int r0, r1;
        pass_round_range(rx->rounds, q, rx->passes, &r0, &r1);
        for (int j = q == p ? i : 0; j < n; j++) left += rx->plan.round_s[j] * (r1 - r0);
    }
    double in_cell = (double)(now - rx->plan.cell_ns) * 1e-9;
    left = left > in_cell ? left - in_cell : 0;
    return left + predict_boundary_seconds(rx);
}

/* The seconds left: in the passes after the first, by each cell's cost (predict_passes_left); else
 * what is left of the plan at the rate so far, from the second pass's start once it has done a
 * tenth of the plan (the first pass's calibration is not paid again). */
static double predict_plan_left(const run_ctx *rx, uint64_t now)
{
    double done = rx->plan.done, left = rx->plan.total - done;
    if (done <= 0) return -1;
    if (rx->plan.round_s && rx->plan.pass >= 2 && !strcmp(rx->plan.what, "measuring") && rx->plan.cell > 0)
        return predict_passes_left(rx, now);
    double rate = (double)(now - rx->t0) * 1e-9 / done, since = done - rx->plan.since_done;
    if (rx->plan.since_ns && since >= 0.1 * rx->plan.total)
        rate = (double)(now - rx->plan.since_ns) * 1e-9 / since;
    return left > 0 ? left * rate : 0;
}

/* After each sample: its share of the plan done, and the live line when one is due. Cheap: a
 * clock read, and a line every few seconds. */
void progress_sample(run_ctx *rx, const case_state *cs)
{
    rx->plan.done += cs->target;
    uint64_t now = pb_now_ns();
    if (!pb_ticker_due(&rx->plan.tick, now)) return;
    pb_progress p = {.what = rx->plan.what, .done = rx->plan.done, .total = rx->plan.total,
                     .pass = rx->plan.pass, .passes = rx->plan.passes, .cell = rx->plan.cell,
                     .ncells = rx->plan.ncells, .elapsed_s = (double)(now - rx->t0) * 1e-9,
                     .eta_s = predict_plan_left(rx, now), .more = rx->plan.more};
    char line[256];
    pb_progress_text(&p, rx->plan.tick.width, line, sizeof line);
    pb_ticker_show(&rx->plan.tick, line, now);
}

void progress_clear(run_ctx *rx)
{
    pb_ticker_clear(&rx->plan.tick);
}

void progress_end(run_ctx *rx)
{
    progress_clear(rx);
    free(rx->plan.round_s);
    rx->plan.round_s = NULL;
}

void progress_pass_done(run_ctx *rx, int p, int r0, int r1)
{
    if (!should_report_progress(rx)) return;
    progress_clear(rx);
    char line[128];
    snprintf(line, sizeof line, "bench: pass %d of %d (rounds %d-%d of every cell) done in %.0f s", p + 1, rx->passes,
             r0, r1 - 1, (double)(pb_now_ns() - rx->t0) * 1e-9);
    pb_term_line(stderr, rx->o->width, line);
}

/* The seconds the run has left: the cell-passes left taking as long as the mean cell-pass so far
 * (the cells are shown as their last pass stores them). */
static double predict_seconds_left(const run_ctx *rx, int n, double elapsed)
{
    long total = (long)rx->passes * n, done = rx->units_done > 0 ? rx->units_done : 1;
    return elapsed / (double)done * (double)(total - done);
}

/* A cell's progress line as parts, composed at a level of detail (LEVEL_*): what it says is
 * gathered once, and each level leaves out one more of the least needed parts. */
typedef struct line_parts {
    const run_ctx *rx;
    const cell_run *cr;
    char head[64];                     /* "[i/n e s, ETA s]" */
    char where[3 * PB_NAME_MAX + 96];  /* the cell */
    double *med;                       /* each impl's median time per op */
    double items;                      /* items per op (suite.h item_unit), or 0 */
    int bi, ci;                        /* the baseline's and the candidate's case, or -1 */
    int have_ratio;
    pb_cell_ratio r;
    /* every other impl's ratio against the baseline where it has one (exec's third command on):
     * each command of a run is shown against the first, not only the second */
    pb_cell_ratio *other;
    char *has_other;
} line_parts;

enum {
    LEVEL_ALL,          /* every part: the unbounded line */
    LEVEL_NO_RANGE,     /* without the between-layout range "(lo to hi)" */
    LEVEL_TWO_IMPLS,    /* the baseline's and the candidate's times only */
    LEVEL_NO_ITEMS,     /* without the per-item time and rate */
    LEVEL_NO_LAYOUTS,   /* without "across N layouts" */
    LEVEL_SHORT_RATIO,  /* "new/old 0.997 [0.970, 1.024]": without the word "time" */
    LEVEL_RATIO_ONLY,   /* the ratio without the times it comes from (where there is one) */
    LEVEL_NO_SUITE,     /* without the suite's name, which the run's header says */
    LEVEL_NO_OTHERS,    /* without the other impls' ratios (the report has them): never a ratio cut */
    LEVEL_COUNT
};

static void add(char *buf, size_t cap, size_t *off, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void add(char *buf, size_t cap, size_t *off, const char *fmt, ...)
{
    if (*off >= cap) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *off, cap - *off, fmt, ap);
    va_end(ap);
    if (n > 0) *off += (size_t)n < cap - *off ? (size_t)n : cap - *off - 1;
}

/* One impl's part: its time per op (and per item), or why it has none. */
static void add_impl(const line_parts *lp, int i, int level, char *buf, size_t cap, size_t *off)
{
    const pb_suite *s = lp->rx->o->suite;
    const case_state *cs = &lp->cr->cs[i];
    if (!cs->ready) {
        add(buf, cap, off, " %s %s", cs->impl, cs->failed[0] ? "failed" : "unavailable");
        return;
    }
    char t[32];
    double med = lp->med[i];
    add(buf, cap, off, " %s %s", cs->impl, pb_fmt_ns(t, sizeof t, med));
    /* per item (suite.h item_unit): its time and rate, as the reports show them */
    if (lp->items > 0 && level < LEVEL_NO_ITEMS)
        add(buf, cap, off, " (%s/%s, %.4g %ss/s)",
            pb_fmt_ns(t, sizeof t, pb_metric_find("ns_per_item")->per_item(med, lp->items)), s->item_unit,
            pb_metric_find("items_per_s")->per_item(med, lp->items), s->item_unit);
}

static void compose(const line_parts *lp, int level, char *buf, size_t cap)
{
    const pb_suite *s = lp->rx->o->suite;
    size_t off = 0;
    buf[0] = '\0';
    if (level < LEVEL_NO_SUITE) add(buf, cap, &off, "%s %s %s:", lp->head, s->name, lp->where);
    else add(buf, cap, &off, "%s %s:", lp->head, lp->where);
    int only_ratio = level >= LEVEL_RATIO_ONLY && lp->have_ratio;
    for (int i = 0; i < lp->cr->ncs && !only_ratio; i++)
        if (level < LEVEL_TWO_IMPLS || i == lp->bi || i == lp->ci) add_impl(lp, i, level, buf, cap, &off);
    if (!lp->have_ratio) return;
    const pb_cell_ratio *r = &lp->r;
    add(buf, cap, &off, "%s%s/%s %.3f [%.3f, %.3f]", level < LEVEL_SHORT_RATIO ? "  time " : " ", s->candidate,
        s->baseline, r->pr.estimate, r->pr.ci_lo, r->pr.ci_hi);
    if (r->across && level < LEVEL_NO_LAYOUTS) add(buf, cap, &off, " across %d layouts", r->lr.nlayouts);
    if (r->across && level < LEVEL_NO_RANGE) add(buf, cap, &off, " (%.3f to %.3f)", r->lr.lo, r->lr.hi);
    for (int i = 0; i < lp->cr->ncs && level < LEVEL_NO_OTHERS; i++)
        if (lp->has_other[i])
            add(buf, cap, &off, "%s%s/%s %.3f [%.3f, %.3f]", level < LEVEL_SHORT_RATIO ? "; " : " ", lp->cr->cs[i].impl,
                s->baseline, lp->other[i].pr.estimate, lp->other[i].pr.ci_lo, lp->other[i].pr.ci_hi);
}

/* Each impl's median time per op over the cell's rounds so far, into lp->med. */
static void impl_medians(line_parts *lp)
{
    const cell_run *cr = lp->cr;
    int ncs = cr->ncs;
    for (int i = 0; i < ncs; i++) {
        lp->med[i] = 0;
        if (!cr->cs[i].ready) continue;
        double v[4096];
        int k = 0;
        for (int r = 0; r < cr->cap_rounds && k < 4096; r++) {
            const slot *sl = &cr->slots[r * ncs + i];
            if (sl->nraw && sl->raw[0].have) v[k++] = sl->raw[0].s.ns / (double)sl->raw[0].s.iterations;
        }
        lp->med[i] = pb_median(v, (size_t)k);
    }
}

/* The line's head, the baseline and the candidate, and their ratio where both are ready: the
 * candidate against the baseline across layouts (with the layouts' range), else the pairs'. */
static void gather(line_parts *lp, int idx, int n)
{
    const run_ctx *rx = lp->rx;
    const pb_suite *s = rx->o->suite;
    const pb_cell *cell = lp->cr->cell;
    double elapsed = (double)(pb_now_ns() - rx->t0) * 1e-9;
    char *where = lp->where;
    size_t wcap = sizeof lp->where;
    if (pb_suite_has_items(s)) {
        char size[64];
        snprintf(where, wcap, "%s %s %s", cell->variant, cell->op,
                 pb_suite_fmt_size(s, cell->size_bytes, size, sizeof size));
    } else {
        pb_fmt_cell(where, wcap, cell->variant, cell->op, cell->size_bytes);
    }
    /* the ETA is the live line's (ticker.h); a cell line says it too while there is time left, not
     * where the cells come together at the end (stored after their last pass): no column of "ETA 0 s" */
    double left = predict_seconds_left(rx, n, elapsed);
    if (left >= 0.5) snprintf(lp->head, sizeof lp->head, "[%d/%d %.0f s, ETA %.0f s]", idx + 1, n, elapsed, left);
    else snprintf(lp->head, sizeof lp->head, "[%d/%d %.0f s]", idx + 1, n, elapsed);
    lp->items = pb_suite_items(s, cell->size_bytes);
    lp->bi = lp->ci = -1;
    for (int i = 0; i < lp->cr->ncs; i++) {
        if (!strcmp(lp->cr->cs[i].impl, s->baseline)) lp->bi = i;
        if (!strcmp(lp->cr->cs[i].impl, s->candidate)) lp->ci = i;
    }
    impl_medians(lp);
    int bi = lp->bi, ci = lp->ci;
    lp->have_ratio = bi >= 0 && ci >= 0 && lp->cr->cs[bi].ready && lp->cr->cs[ci].ready &&
                     cell_ratio_so_far(lp->cr, lp->cr->cap_rounds, ci, bi, NULL, 0, &lp->r) == 0;
    for (int i = 0; lp->have_ratio && i < lp->cr->ncs; i++)
        lp->has_other[i] = i != bi && i != ci && lp->cr->cs[i].ready &&
                           cell_ratio_so_far(lp->cr, lp->cr->cap_rounds, i, bi, NULL, 0, &lp->other[i]) == 0;
}

void progress_line(run_ctx *rx, const cell_run *cr, int idx, int n)
{
    progress_clear(rx);
    line_parts lp = {.rx = rx, .cr = cr};
    size_t nc = (size_t)(cr->ncs > 0 ? cr->ncs : 1);
    lp.med = calloc(nc, sizeof *lp.med);
    lp.other = calloc(nc, sizeof *lp.other);
    lp.has_other = calloc(nc, 1);
    if (!lp.med || !lp.other || !lp.has_other) {
        free(lp.med);
        free(lp.other);
        free(lp.has_other);
        return;
    }
    gather(&lp, idx, n);
    size_t cap = sizeof lp.head + (size_t)cr->ncs * (2 * PB_NAME_MAX + 160) + 160;
    char *line = malloc(cap);
    int w = rx->o->width;
    for (int level = LEVEL_ALL; line && level < LEVEL_COUNT; level++) {
        compose(&lp, level, line, cap);
        if (w <= 0 || pb_utf8_cols(line) <= (size_t)w) break;
    }
    if (line) pb_term_line(stderr, w, line);
    free(line);
    free(lp.med);
    free(lp.other);
    free(lp.has_other);
}
