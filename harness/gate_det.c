/* gate_det.c — see gate_det.h */
#include "gate_det.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

pb_cell_verdict pb_det_verdict(double ratio, double threshold, double spread_a, double spread_b, double tolerance)
{
    if (!isfinite(ratio) || ratio <= 0) return PB_CELL_NODATA;
    if (!(spread_a <= tolerance) || !(spread_b <= tolerance)) return PB_CELL_INCONCLUSIVE;
    return ratio - 1 > threshold ? PB_CELL_REGRESSION : PB_CELL_PASS;
}

const char *pb_two_metric_note(double count_ratio, double count_threshold, double time_ratio, double time_lo,
                               double time_hi)
{
    if (!isfinite(count_ratio) || !isfinite(time_ratio)) return "one of the two is missing";
    int time_up = time_lo > 1, time_down = time_hi < 1;
    int count_up = count_ratio - 1 > count_threshold, count_down = 1 - count_ratio > count_threshold;
    if ((time_up || time_down) && !count_up && !count_down)
        return time_up ? "time slower, instructions not: memory, stalls or code layout (not more work)"
                       : "time faster, instructions not: memory, stalls or code layout (not less work)";
    if ((count_up || count_down) && !time_up && !time_down)
        return "instructions moved, time did not show it: below the wall-time MDC, or hidden by the core";
    if ((count_up && time_down) || (count_down && time_up))
        return "instructions and time moved in opposite directions: cheaper instructions, or layout";
    if (count_up || count_down) return count_up ? "both slower: more work" : "both faster: less work";
    return "neither moved";
}

static const pb_vg_case *find(const pb_vg_result *r, const char *impl, const pb_vg_case *like)
{
    for (size_t i = 0; i < r->n; i++) {
        const pb_vg_case *c = &r->c[i];
        if (!strcmp(c->impl, impl) && c->size == like->size && !strcmp(c->variant, like->variant) &&
            !strcmp(c->op, like->op))
            return c;
    }
    return NULL;
}

int pb_gate_valgrind(const pb_det_gate *g, pb_store *st, const pb_thresholds *th, pb_err *e)
{
    const pb_suite *s = g->suite;
    const char *A = g->baseline ? g->baseline : s->baseline, *B = g->candidate ? g->candidate : s->candidate;
    const char *metric = g->metric ? g->metric : "insns_per_op";
    if (!pb_vg_metric_known(metric))
        return pb_errf(e, "--measure valgrind gates on insns_per_op, insns_per_byte, l1_miss_per_op, ll_miss_per_op, "
                          "branch_miss_per_op or model_cycles_per_op, not '%s'", metric);
    if (!strcmp(A, B)) return pb_errf(e, "baseline and candidate are both '%s'", A);
    double t;
    int line;
    if (pb_thresholds_lookup(th, "claim", s->name, metric, &t, &line, e) < 0) return -1;
    char impls[2 * PB_NAME_MAX + 2];
    snprintf(impls, sizeof impls, "%s,%s", A, B);
    pb_vg_opts vo = {.suite = s, .impls = impls, .sizes = g->sizes, .quick = g->quick, .reps = 2,
                     .progress = g->progress, .suite_opts = g->suite_opts};
    pb_vg_result r;
    if (pb_vg_measure(&vo, &r, e) < 0) return -1;
    int64_t run = pb_vg_store(st, &vo, &r, g->command_line, e);
    if (run < 0) { pb_vg_result_free(&r); return -1; }

    pb_cmp_cell *cells = calloc(r.n + 1, sizeof *cells);
    size_t n = 0;
    if (!cells) { pb_vg_result_free(&r); return pb_errf(e, "out of memory"); }
    for (size_t i = 0; i < r.n; i++) {
        const pb_vg_case *a = &r.c[i], *b = find(&r, B, a);
        if (strcmp(a->impl, A) || !b) continue;
        pb_cmp_cell *c = &cells[n++];
        snprintf(c->impl_a, PB_NAME_MAX, "%s", A);
        snprintf(c->impl_b, PB_NAME_MAX, "%s", B);
        snprintf(c->variant, PB_NAME_MAX, "%s", a->variant);
        snprintf(c->op, PB_NAME_MAX, "%s", a->op);
        c->size = a->size;
        c->threshold = t;
        c->calibrated_mdc = c->ci_lo = c->ci_hi = c->p = c->p_holm = c->order_effect = c->conf = NAN;
        c->ratio = NAN;
        c->se_log = 0;
        c->mdc = PB_VG_TOLERANCE;   /* what a count can resolve: the repetitions' tolerance */
        if (!a->ok || !b->ok) {
            c->verdict = PB_CELL_NODATA;
            snprintf(c->note, sizeof c->note, "%s", !a->ok ? a->reason : b->reason);
            continue;
        }
        pb_vg_metrics ma, mb;
        pb_vg_metrics_of(a, 0, &ma);
        pb_vg_metrics_of(b, 0, &mb);
        double va = pb_vg_metric_value(&ma, metric), vb = pb_vg_metric_value(&mb, metric);
        c->ratio = c->ci_lo = c->ci_hi = vb / va;
        c->n = (size_t)(a->reps < b->reps ? a->reps : b->reps);
        c->noise = fmax(pb_vg_spread(a), pb_vg_spread(b));
        c->verdict = pb_det_verdict(c->ratio, t, pb_vg_spread(a), pb_vg_spread(b), PB_VG_TOLERANCE);
        snprintf(c->note, sizeof c->note, "%s %.6g -> %.6g", metric, va, vb);
    }
    int status = pb_gate_exit_status(cells, n);
    char note[1600];
    snprintf(note, sizeof note,
             "deterministic counts, no statistics: regression when the ratio exceeds 1 + %.3g%% (%s:%d); repetitions "
             "must agree within %.3g%%; %s; %s; %s",
             100 * t, th->path, line, 100 * PB_VG_TOLERANCE, r.settings, r.codepath, r.not_comparable);
    pb_gate_params gp = PB_GATE_DEFAULTS;
    pb_comparison cmp = {.command = "gate", .gate = "claim", .suite = s->name, .metric = metric,
                         .pairing = "medians" /* the schema's name for "no pairing, no test": one deterministic count a side */, .thresholds = th->path,
                         .command_line = g->command_line, .note = note, .gp = &gp, .exit_status = status,
                         .runs_a = &run, .nruns_a = 1};
    int64_t id = pb_gate_store(st, &cmp, cells, n, e);
    if (id >= 0) {
        printf("gate claim %s on %s (valgrind, deterministic): %s (candidate) against %s (baseline), comparison %lld\n",
               s->name, metric, B, A, (long long)id);
        printf("%-10s %-6s %8s %14s %14s %9s %8s  %s\n", "variant", "op", "bytes", A, B, "ratio", "change",
               "verdict");
        for (size_t i = 0; i < n; i++) {
            const pb_cmp_cell *c = &cells[i];
            if (c->verdict == PB_CELL_NODATA) {
                printf("%-10s %-6s %8llu  no data: %s\n", c->variant, c->op, (unsigned long long)c->size, c->note);
                continue;
            }
            double va, vb;
            sscanf(strchr(c->note, ' ') + 1, "%lg -> %lg", &va, &vb);
            printf("%-10s %-6s %8llu %14.2f %14.2f %9.5f %+7.2f%%  %s%s\n", c->variant, c->op,
                   (unsigned long long)c->size, va, vb, c->ratio, 100 * (c->ratio - 1), pb_cell_verdict_name(c->verdict),
                   c->verdict == PB_CELL_INCONCLUSIVE ? " (repetitions disagree)" : "");
        }
        printf("threshold %.3g%% (%s:%d); %s\n%s\n%s\nexit %d (%s)\n", 100 * t, th->path, line, r.settings, r.codepath,
               r.not_comparable, status, pb_gate_exit_name(status));
    }
    free(cells);
    pb_vg_result_free(&r);
    return id < 0 ? -1 : status;
}
