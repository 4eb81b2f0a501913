/* SPDX-License-Identifier: GPL-2.0-only */
/* gate_det.c — see gate_det.h */
#include "gate_det.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate_store.h"
#include "reads.h"
#include "term.h"
#include "text_out.h"

pb_cell_verdict pb_det_verdict(double lo, double hi, double threshold)
{
    if (!isfinite(lo) || !isfinite(hi) || lo <= 0 || hi < lo) return PB_CELL_NODATA;
    if (lo - 1 > threshold) return PB_CELL_REGRESSION;
    return hi - 1 <= threshold ? PB_CELL_PASS : PB_CELL_INCONCLUSIVE;
}

const char *pb_two_metric_note(double count_ratio, double count_threshold, double time_ratio, double time_lo,
                               double time_hi)
{
    if (!isfinite(count_ratio) || !isfinite(time_ratio)) return "one of the two is missing";
    int time_up = time_lo > 1, time_down = time_hi < 1;
    int count_up = count_ratio - 1 > count_threshold, count_down = 1 - count_ratio > count_threshold;
    if ((time_up || time_down) && !count_up && !count_down)
        return time_up ? "time slower, instructions not: layout or memory effect (not more work)"
                       : "time faster, instructions not: layout or memory effect (not less work)";
    if ((count_up || count_down) && !time_up && !time_down)
        return "instructions moved, time did not show it: below the wall-time MDC, or hidden by the core";
    if ((count_up && time_down) || (count_down && time_up))
        return "instructions and time moved in opposite directions: cheaper instructions, or layout";
    if (count_up || count_down) {
        /* same direction; is the work the whole story? */
        if (fabs(log(time_ratio)) > 2 * fabs(log(count_ratio)) + count_threshold)
            return count_up ? "both slower, time far more than instructions: more work, and memory, stalls or "
                              "layout (or uncounted work)"
                            : "both faster, time far more than instructions: less work, and memory, stalls or "
                              "layout (or uncounted work)";
        return count_up ? "both slower: more work" : "both faster: less work";
    }
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

/* one cell: names, each side's range over its repetitions, the verdict; reason: no data */
static void fill_cell(pb_cmp_cell *c, const char *impl_a, const char *impl_b, const char *variant, const char *op,
                      uint64_t size, double t, const char *metric, const double a[3], const double b[3], int reps,
                      const char *reason)
{
    memset(c, 0, sizeof *c);
    snprintf(c->impl_a, PB_NAME_MAX, "%s", impl_a);
    snprintf(c->impl_b, PB_NAME_MAX, "%s", impl_b);
    snprintf(c->variant, PB_NAME_MAX, "%s", variant);
    snprintf(c->op, PB_NAME_MAX, "%s", op);
    c->size = size;
    c->threshold = t;
    c->calibrated_mdc = c->p = c->p_holm = c->order_effect = c->conf = c->mdc = NAN;
    c->n = (size_t)reps;
    if (reason) {
        c->ratio = c->ci_lo = c->ci_hi = NAN;
        c->verdict = PB_CELL_NODATA;
        snprintf(c->note, sizeof c->note, "%s", reason);
        return;
    }
    /* a[] and b[]: smallest, median, largest over the repetitions */
    c->ratio = b[1] / a[1];
    c->ci_lo = b[0] / a[2];
    c->ci_hi = b[2] / a[0];
    c->noise = fmax(a[2] / a[0], b[2] / b[0]) - 1;
    c->exact = 1;
    c->verdict = pb_det_verdict(c->ci_lo, c->ci_hi, t);
    snprintf(c->note, sizeof c->note, "%s %.9g -> %.9g", metric, a[1], b[1]);
}

/* the count gate's own table: each side's count, the change, the verdict */
static void print_counts(FILE *f, const char *title, int64_t id, const pb_cmp_cell *cells, size_t n, const char *where,
                         double t, const char *metric, const char *about, int status)
{
    fprintf(f, "%s, comparison %lld\n", title, (long long)id);
    fprintf(f, "%-12s %-10s %-6s %8s %14s %14s %9s %8s  %s\n", "impl", "variant", "op", "bytes", "baseline",
            "candidate", "ratio", "change", "verdict");
    for (size_t i = 0; i < n; i++) {
        const pb_cmp_cell *c = &cells[i];
        /* names from the store, as terminal text (text_out.h) */
        char impl[PB_NAME_MAX], variant[PB_NAME_MAX], op[PB_NAME_MAX], note[sizeof c->note];
        pb_term_text(impl, sizeof impl, strcmp(c->impl_a, c->impl_b) ? c->impl_b : c->impl_a);
        pb_term_text(variant, sizeof variant, c->variant);
        pb_term_text(op, sizeof op, c->op);
        if (c->verdict == PB_CELL_NODATA) {
            fprintf(f, "%-12s %-10s %-6s %8llu  no data: %s\n", impl, variant, op, (unsigned long long)c->size,
                    pb_term_text(note, sizeof note, c->note));
            continue;
        }
        double va = NAN, vb = NAN;
        const char *sp = strchr(c->note, ' ');
        if (sp) sscanf(sp + 1, "%lg -> %lg", &va, &vb);
        char range[64] = "";
        if (c->ci_hi / c->ci_lo - 1 > PB_VG_TOLERANCE)
            snprintf(range, sizeof range, "  (repetitions differ: %.5f..%.5f)", c->ci_lo, c->ci_hi);
        fprintf(f, "%-12s %-10s %-6s %8llu %14.2f %14.2f %9.5f %+7.2f%%  %s%s\n", impl, variant, op,
                (unsigned long long)c->size, va, vb, c->ratio, 100 * (c->ratio - 1), pb_cell_verdict_name(c->verdict),
                range);
    }
    pb_gate_print_fns(f, 0, cells, n, pb_term_width_fd(fileno(f)));
    fprintf(f, "threshold %.3g%% (%s), metric %s; %s\nexit %d (%s)\n", 100 * t, where, metric, about, status,
            pb_gate_exit_name(status));
}

/* store the comparison, print the table, add it to the document; the exit status, or -1 + e */
static int finish(const pb_det_gate *g, pb_store *st, const char *gate, const char *suite, const char *metric,
                  const char *title, const pb_thresholds *th, double t, int line, const char *about,
                  const int64_t *runs_a, const int64_t *runs_b, pb_cmp_cell *cells, size_t n, pb_err *e)
{
    int status = pb_gate_exit_status(cells, n);
    char note[3200], where[600];
    pb_thresholds_where(th, line, where, sizeof where);
    snprintf(note, sizeof note,
             "counts, no statistics: regression when the ratio exceeds 1 + %.3g%% (%s) over the whole range "
             "of the repetitions, inconclusive when that range straddles it; %s",
             100 * t, where, about);
    pb_gate_params gp = PB_GATE_DEFAULTS;
    /* "medians": the schema's name for no pairing and no test (one deterministic count a side) */
    pb_comparison cmp = {.command = "gate", .gate = gate, .suite = suite, .metric = metric, .pairing = "medians",
                         .thresholds = th->path, .command_line = g->command_line, .note = note, .gp = &gp,
                         .exit_status = status, .runs_a = runs_a, .nruns_a = 1, .runs_b = runs_b,
                         .nruns_b = runs_b ? 1 : 0};
    int64_t id = pb_gate_store(st, &cmp, cells, n, e);
    if (id < 0) return -1;
    if (g->out) print_counts(g->out, title, id, cells, n, where, t, metric, about, status);
    pb_cmp_header h = {.title = title, .suite = suite, .metric = metric,
                       .pairing = "none (one deterministic count a side, no test)", .gate = gate, .comparison_id = id,
                       .gp = &gp, .exit_status = status, .note = note, .measure = "valgrind", .th = th,
                       .threshold_line = line};
    if (g->doc && pb_gate_doc_add(g->doc, st, &h, cells, n, e) < 0) return -1;
    return status;
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
                     .progress = g->progress, .suite_opts = g->suite_opts, .args = g->suite_args};
    pb_vg_result r;
    if (pb_vg_measure(&vo, &r, e) < 0) return -1;
    int64_t run = pb_vg_store(st, &vo, &r, g->command_line, e);
    pb_cmp_cell *cells = calloc(r.n + 1, sizeof *cells);
    size_t n = 0;
    int rc = run < 0 ? -1 : cells ? 0 : pb_errf(e, "out of memory");
    for (size_t i = 0; i < r.n && rc == 0; i++) {
        const pb_vg_case *a = &r.c[i], *b = find(&r, B, a);
        if (strcmp(a->impl, A) || !b) continue;
        double ra[3], rb[3];
        pb_vg_range(a, metric, &ra[0], &ra[1], &ra[2]);
        pb_vg_range(b, metric, &rb[0], &rb[1], &rb[2]);
        fill_cell(&cells[n++], A, B, a->variant, a->op, a->size, t, metric, ra, rb, a->reps < b->reps ? a->reps : b->reps,
                  !a->ok ? a->reason : !b->ok ? b->reason : NULL);
    }
    if (rc == 0) rc = pb_gate_cells_fns(st, run, run, cells, n, e);
    if (rc == 0) {
        char title[256], about[2800];
        snprintf(title, sizeof title, "gate claim %s (valgrind counts): %s (candidate) against %s (baseline), run %lld",
                 s->name, B, A, (long long)run);
        snprintf(about, sizeof about, "%s\n%s\n%s", r.settings, r.codepath, r.not_comparable);
        rc = finish(g, st, "claim", s->name, metric, title, th, t, line, about, &run, NULL, cells, n, e);
    }
    free(cells);
    pb_vg_result_free(&r);
    return rc;
}

/* the per-op counts of one metric in one valgrind run: 0, or -1 + e (none, or the store failed) */
static int load_rows(pb_store *st, int64_t run, const char *metric, pb_case_stat **out, size_t *nout, pb_err *e)
{
    if (pb_store_case_stats(st, run, metric, "valgrind", out, nout, e) < 0) return -1;
    if (*nout) return 0;
    free(*out);
    *out = NULL;
    return pb_errf(e, "run %lld has no %s counted under valgrind (bench run --measure valgrind)", (long long)run, metric);
}

int pb_det_compare_cells(pb_store *st, int64_t run, const char *A, const char *B, const char *metric,
                         pb_cmp_cell **cells, size_t *n, pb_err *e)
{
    pb_case_stat *r = NULL;
    size_t nr = 0;
    *cells = NULL;
    *n = 0;
    if (load_rows(st, run, metric, &r, &nr, e) < 0) return -1;
    pb_cmp_cell *v = calloc(nr + 1, sizeof *v);
    if (!v) { free(r); return pb_errf(e, "out of memory"); }
    for (size_t i = 0; i < nr; i++) {
        if (strcmp(r[i].impl, A)) continue;
        for (size_t j = 0; j < nr; j++)
            if (!strcmp(r[j].impl, B) && !strcmp(r[i].variant, r[j].variant) && !strcmp(r[i].op, r[j].op) &&
                r[i].size == r[j].size) {
                fill_cell(&v[*n], A, B, r[i].variant, r[i].op, r[i].size, NAN, metric, r[i].v, r[j].v,
                          r[i].n < r[j].n ? r[i].n : r[j].n, NULL);
                v[(*n)++].verdict = PB_CELL_COMPARED;
                break;
            }
    }
    free(r);
    int rc = pb_gate_cells_fns(st, run, run, v, *n, e);
    if (rc < 0) { free(v); *n = 0; return -1; }
    *cells = v;
    return 0;
}

static int run_id(const char *list, const char *opt, int64_t *id, pb_err *e)
{
    int64_t *ids = NULL;
    size_t n = 0;
    if (pb_parse_run_ids(list, &ids, &n, e) < 0) return -1;
    int rc = n == 1 ? 0 : pb_errf(e, "%s: --measure valgrind compares one run with one run (counts do not vary), got %zu",
                                  opt, n);
    if (rc == 0) *id = ids[0];
    free(ids);
    return rc;
}

int pb_gate_valgrind_runs(const pb_det_gate *g, const char *runs_a, const char *runs_b, pb_store *st,
                          const pb_thresholds *th, pb_err *e)
{
    const char *metric = g->metric ? g->metric : "insns_per_op", *impl = g->impl;
    if (!pb_vg_metric_known(metric)) return pb_errf(e, "--measure valgrind: '%s' is not a count metric", metric);
    int64_t a, b;
    if (run_id(runs_a, "--baseline-runs", &a, e) < 0 || run_id(runs_b, "--candidate-runs", &b, e) < 0) return -1;
    pb_run_meta ma, mb;
    if (pb_gate_run_meta(st, a, &ma, e) < 0 || pb_gate_run_meta(st, b, &mb, e) < 0) return -1;
    if (strcmp(ma.status, "complete") || strcmp(mb.status, "complete"))
        return pb_errf(e, "run %lld is %s: only complete runs are compared", (long long)(strcmp(ma.status, "complete") ? a : b),
                       strcmp(ma.status, "complete") ? ma.status : mb.status);
    if (strcmp(ma.suite, mb.suite)) return pb_errf(e, "run %lld is of suite %s, run %lld of %s", (long long)a, ma.suite,
                                                  (long long)b, mb.suite);
    double t;
    int line;
    if (pb_thresholds_lookup(th, "commit", ma.suite, metric, &t, &line, e) < 0) return -1;
    pb_case_stat *ra = NULL, *rb = NULL;
    size_t na = 0, nb = 0, n = 0;
    int rc = load_rows(st, a, metric, &ra, &na, e);
    if (rc == 0) rc = load_rows(st, b, metric, &rb, &nb, e);
    pb_cmp_cell *cells = rc == 0 ? calloc(na + 1, sizeof *cells) : NULL;
    if (rc == 0 && !cells) rc = pb_errf(e, "out of memory");
    for (size_t i = 0; i < na && rc == 0; i++) {
        if (impl && strcmp(ra[i].impl, impl)) continue;
        for (size_t j = 0; j < nb; j++)
            if (!strcmp(ra[i].impl, rb[j].impl) && !strcmp(ra[i].variant, rb[j].variant) &&
                !strcmp(ra[i].op, rb[j].op) && ra[i].size == rb[j].size) {
                fill_cell(&cells[n++], ra[i].impl, rb[j].impl, ra[i].variant, ra[i].op, ra[i].size, t, metric, ra[i].v,
                          rb[j].v, ra[i].n < rb[j].n ? ra[i].n : rb[j].n, NULL);
                break;
            }
    }
    if (rc == 0 && !n) rc = pb_errf(e, "runs %lld and %lld have no cell in common%s%s", (long long)a, (long long)b,
                                    impl ? " for impl " : "", impl ? impl : "");
    if (rc == 0) rc = pb_gate_cells_fns(st, a, b, cells, n, e);
    if (rc == 0) {
        char title[256], about[400];
        snprintf(title, sizeof title, "gate commit %s (valgrind counts): build %.12s (run %lld) against build %.12s (run %lld)",
                 ma.suite, mb.git_sha, (long long)b, ma.git_sha, (long long)a);
        snprintf(about, sizeof about, "one valgrind run a side (counts do not vary from run to run)");
        rc = finish(g, st, "commit", ma.suite, metric, title, th, t, line, about, &a, &b, cells, n, e);
    }
    free(cells);
    free(ra);
    free(rb);
    return rc;
}

typedef struct two_ctx {
    FILE *f;
    int64_t time_id, count_id;
    int header;
} two_ctx;

static void two_header(two_ctx *x)
{
    if (x->header++) return;
    fprintf(x->f, "\ntwo metrics per cell (comparisons %lld: time, %lld: counts)\n", (long long)x->time_id,
            (long long)x->count_id);
    fprintf(x->f, "%-12s %-8s %8s  %-24s %-13s  %-9s %-13s  %s\n", "variant", "op", "bytes", "time ratio [CI]",
            "verdict", "insns", "verdict", "reading");
}

static void two_row(void *ctx, const pb_two_metric_row *r)
{
    two_ctx *x = ctx;
    two_header(x);
    char tcol[40];
    snprintf(tcol, sizeof tcol, "%.3f [%.3f, %.3f]", r->time_ratio, r->time_lo, r->time_hi);
    fprintf(x->f, "%-12s %-8s %8lld  %-24s %-13s  %-9.5f %-13s  %s\n", r->variant, r->op, (long long)r->size, tcol,
            r->time_verdict, r->count_ratio, r->count_verdict,
            pb_two_metric_note(r->count_ratio, r->count_threshold, r->time_ratio, r->time_lo, r->time_hi));
}

int pb_two_metric_print(FILE *f, pb_store *st, int64_t time_id, int64_t count_id, pb_err *e)
{
    two_ctx x = {.f = f, .time_id = time_id, .count_id = count_id};
    if (pb_gate_each_two_metric(st, time_id, count_id, two_row, &x, e) < 0) return -1;
    two_header(&x);   /* no cell in common: the header alone */
    return 0;
}
