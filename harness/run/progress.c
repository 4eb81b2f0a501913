/* SPDX-License-Identifier: GPL-2.0-only */
/* progress.c — the progress lines on stderr (pb_runner_opts.progress), once a run has taken more
 * than PROGRESS_AFTER_NS: a pass done, and each cell as it is stored, with its impls' times, the
 * candidate against the baseline as the store will estimate it (cell_ratio.h), and an ETA; per item
 * too where the suite counts its sizes in items (suite.h item_unit). */
#include "runner_internal.h"

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

void progress_pass_done(const run_ctx *rx, int p, int r0, int r1)
{
    if (!should_report_progress(rx)) return;
    fprintf(stderr, "bench: pass %d of %d (rounds %d-%d of every cell) done in %.0f s\n", p + 1, rx->passes, r0,
            r1 - 1, (double)(pb_now_ns() - rx->t0) * 1e-9);
}

/* The seconds the run has left: the cell-passes left taking as long as the mean cell-pass so far
 * (the cells are shown as their last pass stores them). */
static double predict_seconds_left(const run_ctx *rx, int n, double elapsed)
{
    long total = (long)rx->passes * n, done = rx->units_done > 0 ? rx->units_done : 1;
    return elapsed / (double)done * (double)(total - done);
}

/* The candidate against the baseline, where both are ready: across layouts with the layouts'
 * range, else the pairs' */
static void progress_ratio(const run_ctx *rx, const cell_run *cr, int bi, int ci)
{
    const pb_suite *s = rx->o->suite;
    pb_cell_ratio r;
    if (cell_ratio_so_far(cr, cr->cap_rounds, ci, bi, NULL, 0, &r) != 0) return;
    fprintf(stderr, "  time %s/%s %.3f [%.3f, %.3f]", s->candidate, s->baseline, r.pr.estimate, r.pr.ci_lo,
            r.pr.ci_hi);
    if (r.across)
        fprintf(stderr, " across %d layouts (%.3f to %.3f)", r.lr.nlayouts, r.lr.lo, r.lr.hi);
}

void progress_line(const run_ctx *rx, const cell_run *cr, int idx, int n)
{
    const pb_runner_opts *o = rx->o;
    const pb_cell *cell = cr->cell;
    const case_state *cs = cr->cs;
    int ncs = cr->ncs, rounds = cr->cap_rounds;
    double elapsed = (double)(pb_now_ns() - rx->t0) * 1e-9;
    fprintf(stderr, "[%d/%d %.0f s, ETA %.0f s] ", idx + 1, n, elapsed, predict_seconds_left(rx, n, elapsed));
    char where[3 * PB_NAME_MAX + 96];
    if (pb_suite_has_items(o->suite)) {
        char size[64];
        snprintf(where, sizeof where, "%s %s %s", cell->variant, cell->op,
                 pb_suite_fmt_size(o->suite, cell->size_bytes, size, sizeof size));
    } else {
        pb_fmt_cell(where, sizeof where, cell->variant, cell->op, cell->size_bytes);
    }
    fprintf(stderr, "%s %s:", o->suite->name, where);
    double items = pb_suite_items(o->suite, cell->size_bytes);
    int bi = -1, ci = -1;
    for (int i = 0; i < ncs; i++) {
        if (!strcmp(cs[i].impl, o->suite->baseline)) bi = i;
        if (!strcmp(cs[i].impl, o->suite->candidate)) ci = i;
        if (!cs[i].ready) {
            fprintf(stderr, " %s %s", cs[i].impl, cs[i].failed[0] ? "failed" : "unavailable");
            continue;
        }
        double v[4096];
        int k = 0;
        for (int r = 0; r < rounds && k < 4096; r++) {
            const slot *sl = &cr->slots[r * ncs + i];
            if (sl->nraw && sl->raw[0].have) v[k++] = sl->raw[0].s.ns / (double)sl->raw[0].s.iterations;
        }
        char t[32];
        double med = pb_median(v, (size_t)k);
        fprintf(stderr, " %s %s", cs[i].impl, pb_fmt_ns(t, sizeof t, med));
        /* per item (suite.h item_unit): its time and rate, as the reports show them */
        if (items > 0)
            fprintf(stderr, " (%s/%s, %.4g %ss/s)", pb_fmt_ns(t, sizeof t, pb_metric_find("ns_per_item")->per_item(med, items)),
                    o->suite->item_unit, pb_metric_find("items_per_s")->per_item(med, items), o->suite->item_unit);
    }
    if (bi >= 0 && ci >= 0 && cs[bi].ready && cs[ci].ready) progress_ratio(rx, cr, bi, ci);
    fputc('\n', stderr);
}
