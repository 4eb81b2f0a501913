/* SPDX-License-Identifier: GPL-2.0-only */
/* gate_against.c — `bench gate --against NAME`: a new run against a stored baseline, unpaired
 * (gate_baseline.h, docs/gate.md "Stored baselines").
 *
 * Per cell, impl X of the new run (B) against impl X of the baseline's run (A):
 *   ratio     Hodges-Lehmann of B/A over every pair of samples (compare_unpaired.h);
 *   SE        of its log, from three parts that a paired gate need not add:
 *               the samples' own scatter (the Mann-Whitney CI's width, as if they were independent),
 *               the code layouts' (Welch, over each layout's median, where both runs have two or more),
 *               the machine's between sessions: this machine's A/A calibration across runs
 *               (pairing 'alternation', ci/perf-gate --aa), where it has one for the cell;
 *   CI, p     normal, on log(ratio) with that SE; Holm over the cells; the MDC from the SE;
 *   verdict   as any gate's (gate.h), at the threshold of rule 'baseline' (ci/thresholds). */
#include "gate_baseline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_unpaired.h"
#include "reads.h"
#include "stats.h"

static const pb_gate_case *case_of(const pb_gate_data *d, int64_t run, const pb_gate_case *like)
{
    for (size_t i = 0; i < d->n; i++) {
        const pb_gate_case *c = &d->c[i];
        if (c->run == run && !strcmp(c->impl, like->impl) && !strcmp(c->variant, like->variant) &&
            !strcmp(c->op, like->op) && c->size == like->size)
            return c;
    }
    return NULL;
}

/* Welch's standard error of the difference of the mean per-layout log medians, or 0 when either
 * side ran in fewer than two layouts */
static double per_layout_median(const pb_gate_case *c, int l, double *tmp)
{
    size_t k = 0;
    for (size_t i = 0; i < c->n; i++)
        if (c->obs[i].layout == l && c->obs[i].cost > 0) tmp[k++] = log(c->obs[i].cost);
    return k ? pb_median(tmp, k) : NAN;
}

static double layout_var(const pb_gate_case *c, double *tmp, double *meds, int *nl)
{
    int max = 0;
    for (size_t i = 0; i < c->n; i++) if (c->obs[i].layout > max) max = c->obs[i].layout;
    *nl = 0;
    for (int l = 0; l <= max && l < 64; l++) {
        double m = per_layout_median(c, l, tmp);
        if (!isnan(m)) meds[(*nl)++] = m;
    }
    if (*nl < 2) return NAN;
    double mean = 0, ss = 0;
    for (int i = 0; i < *nl; i++) mean += meds[i] / *nl;
    for (int i = 0; i < *nl; i++) ss += (meds[i] - mean) * (meds[i] - mean);
    return ss / (*nl - 1);
}

static double layout_se(const pb_gate_case *a, const pb_gate_case *b)
{
    double *tmp = malloc((a->n + b->n + 1) * sizeof *tmp), meds[64];
    int na, nb;
    double va = tmp ? layout_var(a, tmp, meds, &na) : NAN, vb = tmp ? layout_var(b, tmp, meds, &nb) : NAN;
    free(tmp);
    return isnan(va) || isnan(vb) ? 0 : sqrt(va / na + vb / nb);
}

static double *costs(const pb_gate_case *c, size_t *n)
{
    double *v = malloc((c->n + 1) * sizeof *v);
    *n = 0;
    for (size_t i = 0; v && i < c->n; i++)
        if (c->obs[i].cost > 0) v[(*n)++] = c->obs[i].cost;
    return v;
}

/* One cell's statistics (the top of this file). m: the cells of the comparison. 0, or -1 (memory). */
static int unpaired_cell(pb_cmp_cell *c, const pb_gate_case *a, const pb_gate_case *b, double session, size_t m,
                         const pb_gate_params *gp)
{
    size_t na, nb;
    double *va = costs(a, &na), *vb = costs(b, &nb);
    pb_unpaired u;
    int r = va && vb ? pb_unpaired_ratio(va, na, vb, nb, &u) : -2;
    free(va);
    free(vb);
    if (r == -2) return -1;
    c->n = na < nb ? na : nb;
    if (r < 0) {
        c->verdict = PB_CELL_NODATA;
        snprintf(c->note, sizeof c->note, "fewer than 2 samples a side (%zu / %zu)", na, nb);
        return 0;
    }
    double z = pb_norm_quantile(1 - (1 - gp->conf) / 2), se_s = log(u.hi / u.lo) / (2 * z), se_l = layout_se(a, b);
    double se_r = isnan(session) ? 0 : session, se = sqrt(se_s * se_s + se_l * se_l + se_r * se_r);
    c->ratio = u.est;
    c->se_log = se;
    c->conf = gp->conf;
    c->ci_lo = se > 0 ? u.est * exp(-z * se) : u.lo;
    c->ci_hi = se > 0 ? u.est * exp(z * se) : u.hi;
    c->p = se > 0 ? 2 * (1 - pb_norm_cdf(fabs(log(u.est)) / se)) : u.p;
    c->mdc = exp((pb_norm_quantile(1 - gp->alpha / (2.0 * (double)m)) + pb_norm_quantile(gp->power)) * se) - 1;
    c->noise = session;
    c->order_effect = c->layout_lo = c->layout_hi = c->layout_df = NAN;
    c->layouts = c->layout_units = 1;
    char runs[32] = "not calibrated";
    if (!isnan(session)) snprintf(runs, sizeof runs, "%.3f", session);
    snprintf(c->note, sizeof c->note, "unpaired, %zu / %zu samples; SE of log: samples %.3f, layouts %.3f, sessions %s",
             na, nb, se_s, se_l, runs);
    return 0;
}

typedef struct against_ctx {
    const pb_against *o;
    int64_t base, run;
    char suite[PB_NAME_MAX], impl[PB_NAME_MAX], metric[PB_NAME_MAX], machine[64];
    double threshold;
    int line, calibrated;
} against_ctx;

/* the cells of impl: every case of the new run with one of the same key in the baseline's */
static int cells_of(pb_store *st, against_ctx *x, const pb_gate_data *d, pb_cmp_cell **out, size_t *n, pb_err *e)
{
    size_t m = 0;
    for (size_t i = 0; i < d->n; i++) m += d->c[i].run == x->run && !strcmp(d->c[i].impl, x->impl);
    pb_cmp_cell *cells = calloc(m + 1, sizeof *cells);
    if (!cells) return pb_errf(e, "out of memory");
    size_t k = 0;
    for (size_t i = 0; i < d->n; i++) {
        const pb_gate_case *b = &d->c[i], *a = b->run == x->run && !strcmp(b->impl, x->impl) ? case_of(d, x->base, b) : NULL;
        if (!a) continue;
        pb_cmp_cell *c = &cells[k++];
        snprintf(c->impl_a, sizeof c->impl_a, "%s", a->impl);
        snprintf(c->impl_b, sizeof c->impl_b, "%s", b->impl);
        snprintf(c->variant, sizeof c->variant, "%s", b->variant);
        snprintf(c->op, sizeof c->op, "%s", b->op);
        c->size = b->size;
        c->threshold = x->threshold;
        c->calibrated_mdc = pb_gate_calibrated_mdc(st, x->machine, "alternation", x->suite, x->impl, c->variant, c->op,
                                                   c->size, x->metric);
        double session = pb_gate_calibrated_noise(st, x->machine, "alternation", x->suite, x->impl, c->variant, c->op,
                                                  c->size, x->metric);
        x->calibrated += !isnan(session);
        if (!a->ok || !b->ok) {
            c->verdict = PB_CELL_NODATA;
            snprintf(c->note, sizeof c->note, "unavailable in run %lld", (long long)(a->ok ? x->run : x->base));
        } else if (unpaired_cell(c, a, b, session, m, x->o->gp) < 0) {
            free(cells);
            return pb_errf(e, "out of memory");
        }
    }
    *out = cells;
    *n = k;
    return 0;
}

/* which runs, which impl and metric, which threshold: 0, or -1 + e */
static int resolve(pb_store *st, against_ctx *x, pb_err *e)
{
    const pb_against *o = x->o;
    int f = pb_baseline_find(st, o->name, &x->base, e);
    char near[PB_BASELINE_NAME_MAX + 32];
    if (f <= 0)
        return f < 0 ? -1 : pb_errf(e, "no baseline '%s' in %s (%sbench baseline list shows them; bench baseline save "
                                       "%s makes one)", o->name, st->path,
                                    pb_baseline_did_you_mean(st, o->name, near, sizeof near), o->name);
    pb_run_meta ma, mb;
    if (pb_gate_run_meta(st, x->base, &ma, e) < 0) return -1;
    x->run = o->run ? o->run : pb_store_newest_run_but(st, ma.suite, x->base);
    if (!x->run)
        return pb_errf(e, "no complete run of %s but the baseline's own (run %lld): bench run it first", ma.suite,
                       (long long)x->base);
    if (x->run == x->base)
        return pb_errf(e, "run %lld is baseline '%s' itself: a run against itself measures nothing", (long long)x->run,
                       o->name);
    if (pb_baseline_comparable(st, x->base, x->run, e) < 0) return -1;
    if (pb_gate_run_meta(st, x->run, &mb, e) < 0) return -1;
    snprintf(x->suite, sizeof x->suite, "%s", mb.suite);
    snprintf(x->impl, sizeof x->impl, "%s", o->impl ? o->impl : mb.candidate);
    snprintf(x->metric, sizeof x->metric, "%s", o->metric ? o->metric : mb.primary_metric);
    snprintf(x->machine, sizeof x->machine, "%s", mb.machine_id);
    return pb_thresholds_lookup(o->th, "baseline", x->suite, x->metric, &x->threshold, &x->line, e);
}

/* The comparison's words and its record (comparisons, comparison_runs, comparison_cells). 0, or -1 + e. */
static int store(pb_store *st, const against_ctx *x, pb_against_result *r, pb_err *e)
{
    const pb_against *o = x->o;
    char where[600];
    r->status = pb_gate_exit_status(r->cells, r->n);
    r->threshold_line = x->line;
    snprintf(r->suite, sizeof r->suite, "%s", x->suite);
    snprintf(r->metric, sizeof r->metric, "%s", x->metric);
    snprintf(r->note, sizeof r->note,
             "UNPAIRED, weaker than a paired gate: one run each, nothing cancels what the machine did between the two "
             "sessions; threshold %.3g%% (%s, rule baseline); between-run noise from this machine's A/A calibration "
             "(alternation) in %d of %zu cells%s", 100 * x->threshold, pb_thresholds_where(o->th, x->line, where, sizeof where),
             x->calibrated, r->n,
             x->calibrated < (int)r->n ? " (calibrate it: ci/perf-gate --aa; without it the CI holds the runs' own and "
                                         "their layouts' scatter only)" : "");
    snprintf(r->title, sizeof r->title, "gate %s against stored baseline '%s': run %lld (%s) must not be slower than run %lld",
             x->suite, o->name, (long long)x->run, x->impl, (long long)x->base);
    snprintf(r->pairing, sizeof r->pairing, "none: UNPAIRED, run %lld against stored baseline '%s' (run %lld)",
             (long long)x->run, o->name, (long long)x->base);
    pb_comparison c = {.command = "gate", .gate = NULL, .suite = x->suite, .metric = x->metric, .pairing = "medians",
                       .thresholds = o->th->path, .command_line = o->command_line, .note = r->note, .gp = o->gp,
                       .exit_status = r->status, .runs_a = &x->base, .nruns_a = 1, .runs_b = &x->run, .nruns_b = 1,
                       .baseline = o->name};
    r->comparison_id = pb_gate_store(st, &c, r->cells, r->n, e);
    return r->comparison_id < 0 ? -1 : 0;
}

void pb_against_header(const pb_against *o, const pb_against_result *r, pb_cmp_header *h)
{
    *h = (pb_cmp_header){.title = r->title, .suite = r->suite, .metric = r->metric, .pairing = r->pairing,
                         .gate = "baseline", .comparison_id = r->comparison_id, .gp = o->gp, .exit_status = r->status,
                         .note = r->note, .th = o->th, .threshold_line = r->threshold_line,
                         .method = "Hodges-Lehmann ratio over every pair of samples, normal CI and p on an SE of the "
                                   "samples', layouts' and between-run scatter together"};
}

void pb_against_result_free(pb_against_result *r)
{
    free(r->cells);
    r->cells = NULL;
    r->n = 0;
}

int pb_gate_against(pb_store *st, const pb_against *o, pb_against_result *r, pb_err *e)
{
    memset(r, 0, sizeof *r);
    against_ctx x = {.o = o};
    if (resolve(st, &x, e) < 0) return -1;
    pb_gate_data d = {0};
    int rc = pb_gate_load_run(st, x.base, x.metric, &d, e);
    if (rc == 0) rc = pb_gate_load_run(st, x.run, x.metric, &d, e);
    if (rc == 0) rc = cells_of(st, &x, &d, &r->cells, &r->n, e);
    if (rc == 0 && !r->n)
        rc = pb_errf(e, "impl %s has no cell in both run %lld and baseline '%s' (run %lld)", x.impl, (long long)x.run,
                     o->name, (long long)x.base);
    if (rc == 0) {
        pb_gate_decide(r->cells, r->n, o->gp);
        rc = store(st, &x, r, e);
    }
    pb_gate_data_free(&d);
    if (rc < 0) pb_against_result_free(r);
    return rc;
}
