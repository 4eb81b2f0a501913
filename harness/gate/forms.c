/* SPDX-License-Identifier: GPL-2.0-only */
/* forms.c — the claim gate, A/A calibration and the commit gate (forms.h). */
#include "forms.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int pb_gate_claim(const pb_gate_job *j, const pb_gate_pair *p, pb_err *e)
{
    const pb_suite *s = p->suite;
    double t;
    int line;
    if (pb_thresholds_lookup(j->th, "claim", s->name, j->metric, &t, &line, e) < 0) return -1;
    pb_gate_session ss;
    gate_wrap W;
    pb_pair_claim(&W, s, p->suite_opts, p->a, p->b, 0);
    pb_gate_target tg = {.W = &W, .layouts = p->layouts, .kind = "claim", .threshold = t};
    if (pb_gate_session_run(j, &tg, &ss, e) < 0) return -1;
    if (pb_gate_session_confirm(j, &tg, &ss, e) < 0) {
        pb_gate_session_free(&ss);
        return -1;
    }
    int status = pb_gate_exit_status(ss.final, ss.nfinal);
    char note[1100];
    snprintf(note, sizeof note, "%s%s", ss.why, ss.why[0] ? "; " : "");
    pb_gate_rounds_note(note + strlen(note), sizeof note - strlen(note), &j->set, &ss, t, line, j->th);
    pb_comparison c = {.command = "gate", .gate = "claim", .suite = s->name, .metric = j->metric, .pairing = "round",
                       .thresholds = j->th->path, .command_line = j->set.command_line, .note = note,
                       .gp = &j->set.look, .exit_status = status, .runs_a = ss.runs,
                       .nruns_a = pb_gate_session_nruns(&ss)};
    int64_t id = pb_gate_store(j->st, &c, ss.final, ss.nfinal, e);
    if (id < 0) { pb_gate_session_free(&ss); return -1; }
    char title[256];
    snprintf(title, sizeof title, "gate claim %s: %s (candidate) must not be slower than %s (baseline)", s->name, p->b,
             p->a);
    pb_cmp_header h = {.title = title, .suite = s->name, .metric = j->metric, .pairing = "round (interleaved in one run)",
                       .gate = "claim", .comparison_id = id, .gp = &j->set.look, .exit_status = status, .note = note,
                       .th = j->th, .threshold_line = line};
    int rc = pb_gate_emit(&j->out, j->st, &h, ss.final, ss.nfinal, e);
    pb_gate_session_free(&ss);
    return rc < 0 ? -1 : status;
}

int pb_gate_both(const pb_gate_job *j, const pb_gate_pair *p, pb_det_gate *dg, pb_err *e)
{
    int rt = pb_gate_claim(j, p, e);
    if (rt < 0) return -1;
    int64_t time_id = pb_gate_last_comparison(j->st);
    dg->metric = NULL;   /* --metric names the wall-time metric; the counts are insns_per_op */
    FILE *out = j->out.human;
    fprintf(out, "\n");
    int rc = pb_gate_valgrind(dg, j->st, j->th, e);
    if (rc < 0 || pb_two_metric_print(out, j->st, time_id, pb_gate_last_comparison(j->st), e) < 0) return -1;
    int status = rt == 1 || rc == 1 ? 1 : rt == 3 || rc == 3 ? 3 : 0;
    fprintf(out, "exit %d (%s): wall time %s, counts %s\n", status, pb_gate_exit_name(status), pb_gate_exit_name(rt),
            pb_gate_exit_name(rc));
    return status;
}

/* ---- calibration ---- */

/* One cell's row of the A/A table: over the gates, its median noise and MDC, its largest A/A ratio
 * and how often it alarmed or stayed inconclusive. */
typedef struct aa_row {
    size_t pairs, alarms, inc, k;
    double noise, mdc, worst;
} aa_row;

static aa_row aa_row_of(const pb_calibration *cal, size_t i, double alpha, double *sig_worst)
{
    double noise[1000], mdc[1000];
    aa_row r = {.worst = 1};
    for (size_t g = 0; g < cal->repeats && r.k < 1000; g++) {
        const pb_cmp_cell *x = &cal->first[g][i];
        r.alarms += cal->final[g][i].verdict == PB_CELL_REGRESSION;
        r.inc += cal->final[g][i].verdict == PB_CELL_INCONCLUSIVE;
        if (x->verdict == PB_CELL_NODATA) continue;
        noise[r.k] = x->noise;
        mdc[r.k] = x->mdc;
        r.pairs += x->n;
        if (fabs(log(x->ratio)) > fabs(log(r.worst))) r.worst = x->ratio;
        if (x->p_holm < alpha && x->ratio - 1 > *sig_worst) *sig_worst = x->ratio - 1;
        r.k++;
    }
    r.noise = pb_median(noise, r.k);
    r.mdc = pb_median(mdc, r.k);
    if (r.k) r.pairs /= r.k;
    return r;
}

/* The A/A table: its name columns as wide as the longest name (any length stays aligned), the
 * rest fixed; the sentences wrapped to the terminal (pb_gate_text_line). */
static void print_calibration(FILE *f, const pb_calibration *cal, int exits[4], double t, const char *pairing,
                              double alpha)
{
    char line[512];
    snprintf(line, sizeof line, "A/A calibration of %s, impl %s, metric %s, paired by %s: %zu gate%s", cal->suite,
             cal->impl, cal->metric, pairing, cal->repeats, cal->repeats == 1 ? "" : "s");
    fputc('\n', f);
    pb_gate_text_line(f, line);
    int wv = (int)strlen("variant"), wo = (int)strlen("op");
    for (size_t i = 0; i < cal->ncells; i++) {
        const pb_cmp_cell *c = &cal->first[0][i];
        if ((int)strlen(c->variant) > wv) wv = (int)strlen(c->variant);
        if ((int)strlen(c->op) > wo) wo = (int)strlen(c->op);
    }
    fprintf(f, "%-*s  %-*s  %8s  %5s  %7s  %7s  %9s  %6s  %5s\n", wv, "variant", wo, "op", "bytes", "pairs", "noise",
            "MDC", "worst A/A", "alarms", "inc.");
    double sig_worst = 0, mdc_all[4096];
    size_t nmdc = 0;
    for (size_t i = 0; i < cal->ncells; i++) {
        aa_row r = aa_row_of(cal, i, alpha, &sig_worst);
        const pb_cmp_cell *c = &cal->first[0][i];
        if (nmdc < 4096 && r.k) mdc_all[nmdc++] = r.mdc;
        fprintf(f, "%-*s  %-*s  %8llu  %5zu  %6.2f%%  %6.2f%%  %9.4f  %6zu  %5zu\n", wv, c->variant, wo, c->op,
                (unsigned long long)c->size, r.pairs, 100 * r.noise, 100 * r.mdc, r.worst, r.alarms, r.inc);
    }
    snprintf(line, sizeof line, "A/A gates: %zu; exit 0 (pass): %d, exit 1 (false alarm): %d, exit 3 (inconclusive): %d; "
             "threshold %.3g%%", cal->repeats, exits[0], exits[1], exits[3], 100 * t);
    pb_gate_text_line(f, line);
    snprintf(line, sizeof line, "largest significant A/A slowdown (first passes): %.1f%%: a threshold above it would not "
             "have alarmed here", 100 * sig_worst);
    pb_gate_text_line(f, line);
    snprintf(line, sizeof line, "MDC over the cells: median %.1f%%, largest %.1f%%: smaller regressions are found less "
             "than %.0f%% of the time at these settings", 100 * pb_median(mdc_all, nmdc),
             100 * pb_quantile(mdc_all, nmdc, 1.0), 100 * PB_GATE_DEFAULTS.power);
    pb_gate_text_line(f, line);
}

/* A/A gate r of R into sessions[r], run, stored and added to the document: the comparison's id (its
 * exit status in *status), or -1 + e. */
static int64_t calibrate_once(const pb_gate_job *j, const pb_gate_pair *p, double t, int line, size_t r, size_t R,
                              pb_gate_session *sessions, int *status, pb_err *e)
{
    const pb_suite *s = p->suite;
    const char *X = p->a;
    pb_gate_session *ss = &sessions[r];
    gate_wrap W;
    pb_pair_claim(&W, s, p->suite_opts, X, X, 1);
    pb_gate_target tg = {.W = &W, .layouts = p->layouts, .kind = "aa", .threshold = t};
    if (pb_gate_session_run(j, &tg, ss, e) < 0) return -1;
    if (r && ss->nfinal != sessions[0].nfinal) return pb_errf(e, "the grid changed between A/A gates");
    *status = pb_gate_exit_status(ss->final, ss->nfinal);
    char note[768];
    pb_gate_rounds_note(note, sizeof note, &j->set, ss, t, line, j->th);
    pb_comparison c = {.command = "gate", .gate = "aa", .suite = s->name, .metric = j->metric, .pairing = "round",
                       .thresholds = j->th->path, .command_line = j->set.command_line, .note = note,
                       .gp = &j->set.look, .exit_status = *status, .runs_a = ss->runs, .nruns_a = ss->nruns};
    int64_t id = pb_gate_store(j->st, &c, ss->final, ss->nfinal, e);
    if (id < 0) return -1;
    /* the document holds every A/A gate; the text shows the calibration's table instead */
    char title[300];
    snprintf(title, sizeof title, "gate A/A calibration %s: %s against %s" AA_SUFFIX " (gate %zu of %zu)", s->name, X,
             X, r + 1, R);
    pb_cmp_header h = {.title = title, .suite = s->name, .metric = j->metric, .pairing = "round (interleaved in one run)",
                       .gate = "aa", .comparison_id = id, .gp = &j->set.look, .exit_status = *status, .note = note,
                       .th = j->th, .threshold_line = line};
    if (j->out.doc && pb_gate_doc_add(j->out.doc, j->st, &h, ss->final, ss->nfinal, e) < 0) return -1;
    size_t k[6] = {0};
    for (size_t i = 0; i < ss->nfinal; i++) k[ss->final[i].verdict]++;
    fprintf(j->set.progress ? stderr : j->out.human,
            "A/A gate %zu/%zu (comparison %lld): exit %d: %zu pass, %zu regression, %zu inconclusive\n", r + 1, R,
            (long long)id, *status, k[PB_CELL_PASS], k[PB_CELL_REGRESSION], k[PB_CELL_INCONCLUSIVE]);
    return id;
}

int pb_gate_calibrate(const pb_gate_job *j, const pb_gate_pair *p, size_t repeat, pb_err *e)
{
    const pb_suite *s = p->suite;
    double t;
    int line;
    if (pb_thresholds_lookup(j->th, "claim", s->name, j->metric, &t, &line, e) < 0) return -1;
    size_t R = repeat ? repeat : 1;
    pb_cmp_cell **first = calloc(R, sizeof *first), **final = calloc(R, sizeof *final);
    pb_gate_session *ss = calloc(R, sizeof *ss);
    int exits[4] = {0}, rc = 0;
    int64_t first_id = 0, last_id = 0;
    if (!first || !final || !ss) rc = pb_errf(e, "out of memory");
    for (size_t r = 0; r < R && rc == 0; r++) {
        int status = 0;
        last_id = calibrate_once(j, p, t, line, r, R, ss, &status, e);
        if (last_id < 0) { rc = -1; break; }
        first[r] = ss[r].first;
        final[r] = ss[r].final;
        exits[status]++;
        if (!first_id) first_id = last_id;
    }
    if (rc == 0) {
        pb_calibration cal = {.suite = s->name, .metric = j->metric, .pairing = "round", .impl = p->a,
                              .run = ss[0].runs[0], .repeats = R, .ncells = ss[0].nfinal, .first = first,
                              .final = final, .first_comparison = first_id, .last_comparison = last_id};
        rc = pb_gate_store_calibration(j->st, &cal, e);
        if (rc == 0) print_calibration(j->out.human, &cal, exits, t, "round (in one run)", j->set.look.alpha);
    }
    for (size_t r = 0; ss && r < R; r++) pb_gate_session_free(&ss[r]);
    free(ss);
    free(first);
    free(final);
    return rc < 0 ? -1 : 0;
}

/* ---- the commit gate ---- */

/* An A/A gate that holds every impl (cells grouped by impl, candidate's name): one calibration per
 * impl. first/final: the cells of the first pass and after reruns, in the same order. */
static int store_per_impl(pb_store *st, const char *suite, const char *metric, const char *pairing,
                          pb_cmp_cell *first, pb_cmp_cell *final, size_t n, int64_t run, int64_t comparison, pb_err *e)
{
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && !strcmp(final[j].impl_b, final[i].impl_b)) j++;
        pb_cmp_cell *fp = &first[i], *fl = &final[i];
        pb_calibration cal = {.suite = suite, .metric = metric, .pairing = pairing, .impl = final[i].impl_b,
                              .run = run, .repeats = 1, .ncells = j - i, .first = &fp, .final = &fl,
                              .first_comparison = comparison, .last_comparison = comparison};
        if (pb_gate_store_calibration(st, &cal, e) < 0) return -1;
        i = j;
    }
    return 0;
}

/* The commit gate's note on runs: the builds, the job, the alternations and what they allow. */
static void runs_note(char *note, size_t cap, const pb_gate_job *j, const pb_run_meta *m0, const pb_run_meta *mb,
                      size_t na, const pb_cmp_cell *cells, size_t n, double t, int line)
{
    /* with k pairs the smallest exact two-sided p is 2/2^k: Holm needs it below alpha/m */
    size_t need = 6;
    while (ldexp(2.0, -(int)need) * (double)n >= j->set.look.alpha && need < 60) need++;
    char where[600];
    snprintf(note, cap,
             "baseline %.12s, candidate %.12s; job %s; %zu alternations; threshold %.3g%% (%s); alpha %g over "
             "up to %d looks%s",
             m0->git_sha, mb->git_sha, m0->job_id, na, 100 * t, pb_thresholds_where(j->th, line, where, sizeof where),
             j->set.gp.alpha, 1 + j->set.reruns,
             na < need ? "; too few alternations for any cell to reach significance after Holm" : "");
    if (na < need) snprintf(note + strlen(note), cap - strlen(note), " (need %zu for %zu cells)", need, n);
    pb_gate_note_mdc_reached(note, cap, cells, n);
}

int pb_gate_commit_runs(const pb_gate_job *j, const pb_gate_runs *r, pb_err *e)
{
    int64_t *ra = NULL, *rb = NULL;
    size_t na = 0, nb = 0;
    pb_gate_data d = {0};
    pb_cmp_cell *cells = NULL;
    size_t n = 0;
    int rc = 0, status = PB_GATE_EXIT_ERROR;
    if (pb_parse_run_ids(r->runs_a, &ra, &na, e) < 0 || pb_parse_run_ids(r->runs_b, &rb, &nb, e) < 0) rc = -1;
    else if (na != nb) rc = pb_errf(e, "%zu baseline runs against %zu candidate runs: one of each per alternation", na, nb);
    else if (na < 6)
        rc = pb_errf(e, "%zu alternations: a gate needs at least 6 (with fewer, no signed-rank test reaches p < 0.05)", na);
    pb_run_meta m0, mb;
    char metric[PB_NAME_MAX];
    if (rc == 0) rc = pb_gate_load_sessions(j->st, ra, rb, na, r->metric, metric, sizeof metric, &m0, &d, e);
    if (rc == 0 && r->suite && strcmp(r->suite, m0.suite))
        rc = pb_errf(e, "the runs are of suite %s, not %s", m0.suite, r->suite);
    if (rc == 0) rc = pb_gate_run_meta(j->st, rb[0], &mb, e);
    double t = NAN;
    int line = 0;
    if (rc == 0) rc = pb_thresholds_lookup(j->th, "commit", m0.suite, metric, &t, &line, e);
    if (rc == 0) rc = pb_gate_cells_across(&d, ra, rb, na, r->impl, &j->set.look, &cells, &n, e);
    if (rc == 0) {
        for (size_t i = 0; i < n; i++) {
            cells[i].threshold = t;
            cells[i].calibrated_mdc = pb_gate_calibrated_mdc(j->st, m0.machine_id, "alternation", m0.suite,
                                                             cells[i].impl_a, cells[i].variant, cells[i].op,
                                                             cells[i].size, metric);
        }
        pb_gate_decide(cells, n, &j->set.look);
        status = pb_gate_exit_status(cells, n);
        char note[1200];
        runs_note(note, sizeof note, j, &m0, &mb, na, cells, n, t, line);
        const char *gate = r->calibrate ? "aa" : "commit";
        pb_comparison c = {.command = "gate", .gate = gate, .suite = m0.suite, .metric = metric,
                           .pairing = "alternation", .thresholds = j->th->path, .command_line = j->set.command_line,
                           .note = note, .gp = &j->set.look, .exit_status = status, .runs_a = ra, .nruns_a = na,
                           .runs_b = rb, .nruns_b = nb, .alternating = 1};
        int64_t id = pb_gate_store(j->st, &c, cells, n, e);
        if (id < 0) rc = -1;
        /* one A/A gate per impl (the runs hold every impl): a calibration per impl */
        if (rc == 0 && r->calibrate) rc = store_per_impl(j->st, m0.suite, metric, "alternation", cells, cells, n, ra[0], id, e);
        if (rc == 0) {
            char title[256];
            snprintf(title, sizeof title, "gate %s %s: build %.12s (runs %s) against build %.12s (runs %s)",
                     r->calibrate ? "A/A calibration" : "commit", m0.suite, mb.git_sha, r->runs_b, m0.git_sha,
                     r->runs_a);
            pb_cmp_header h = {.title = title, .suite = m0.suite, .metric = metric,
                               .pairing = "alternation (medians of each run, one pair per alternation)",
                               .gate = gate, .comparison_id = id, .gp = &j->set.look, .exit_status = status,
                               .note = note, .th = j->th, .threshold_line = line};
            if (pb_gate_emit(&j->out, j->st, &h, cells, n, e) < 0) rc = -1;
        }
    }
    pb_gate_data_free(&d);
    free(cells);
    free(ra);
    free(rb);
    if (rc < 0) return -1;
    return status;   /* an A/A session of runs (ci/perf-gate --aa) exits like the gate it calibrates */
}

/* One commit gate of two builds in one process (an A/A gate of a calibration): run, confirmed,
 * stored and shown. Its exit status, or -1 + e. */
static int builds_once(const pb_gate_job *j, const pb_gate_builds *b, const char *extra, double t, int line,
                       pb_err *e)
{
    const char *name = b->sb->name, *kind = b->calibrate ? "aa" : "commit";
    gate_wrap W;
    memset(&W, 0, sizeof W);
    W.side_a = (gate_side){b->sa, b->oa};
    W.side_b = (gate_side){b->sb, b->ob};
    W.auto_pairs = 1;
    W.only_impl = b->impl;
    pb_gate_target tg = {.W = &W, .layouts = b->layouts, .kind = kind, .extra = extra, .threshold = t, .builds = 1};
    pb_gate_session ss;
    if (pb_gate_session_run(j, &tg, &ss, e) < 0) return -1;
    if (pb_gate_session_confirm(j, &tg, &ss, e) < 0) {
        pb_gate_session_free(&ss);
        return -1;
    }
    int status = pb_gate_exit_status(ss.final, ss.nfinal), rc = 0;
    char note[1400];
    snprintf(note, sizeof note, "baseline build %.60s (%s), candidate build %.60s (%s), in one process; %s%s",
             b->ma->info->vcs, b->path_a, b->mb->info->vcs, b->path_b, ss.why, ss.why[0] ? "; " : "");
    if (W.unpaired[0]) snprintf(note + strlen(note), sizeof note - strlen(note), "not compared: %s; ", W.unpaired);
    if (W.shared[0])
        snprintf(note + strlen(note), sizeof note - strlen(note), "the candidate's calibration, used by both "
                 "(last pass): %s; ", W.shared);
    pb_gate_rounds_note(note + strlen(note), sizeof note - strlen(note), &j->set, &ss, t, line, j->th);
    if (!(j->set.budget > 0)) pb_gate_note_mdc_reached(note, sizeof note, ss.final, ss.nfinal);
    pb_comparison c = {.command = "gate", .gate = kind, .suite = name, .metric = j->metric, .pairing = "round",
                       .thresholds = j->th->path, .command_line = j->set.command_line, .note = note,
                       .gp = &j->set.look, .exit_status = status, .runs_a = ss.runs,
                       .nruns_a = pb_gate_session_nruns(&ss)};
    int64_t id = pb_gate_store(j->st, &c, ss.final, ss.nfinal, e);
    if (id < 0) rc = -1;
    /* A/A: one calibration per impl, on the candidate's name (what a commit gate looks up). Pairing
     * 'round', as the claim gate's A/A of that impl: both are X against another copy of X, interleaved
     * round by round in one process; which of the two was measured last is what a gate shows. */
    if (rc == 0 && b->calibrate)
        rc = store_per_impl(j->st, name, j->metric, "round", ss.first, ss.final, ss.nfinal, ss.runs[0], id, e);
    if (rc == 0) {
        char title[300];
        snprintf(title, sizeof title, "gate %s %s: build %.12s (impls X) against build %.12s (impls X" BASE_SUFFIX
                 "), in one process", b->calibrate ? "A/A calibration (commit, one process)" : "commit", name,
                 b->mb->info->vcs, b->ma->info->vcs);
        pb_cmp_header h = {.title = title, .suite = name, .metric = j->metric,
                           .pairing = "round (two builds interleaved in one run)", .gate = kind,
                           .comparison_id = id, .gp = &j->set.look, .exit_status = status, .note = note,
                           .th = j->th, .threshold_line = line};
        if (pb_gate_emit(&j->out, j->st, &h, ss.final, ss.nfinal, e) < 0) rc = -1;
    }
    pb_gate_session_free(&ss);
    return rc < 0 ? -1 : status;
}

int pb_gate_commit_builds(const pb_gate_job *j, const pb_gate_builds *b, pb_err *e)
{
    double t = NAN;
    int line = 0;
    if (pb_thresholds_lookup(j->th, "commit", b->sb->name, j->metric, &t, &line, e) < 0) return -1;
    char extra[200];
    snprintf(extra, sizeof extra, "baseline-build=%.60s candidate-build=%.60s", b->ma->info ? b->ma->info->vcs : "?",
             b->mb->info ? b->mb->info->vcs : "?");
    size_t R = b->calibrate && b->repeat ? b->repeat : 1;
    int status = 0, exits[4] = {0};
    for (size_t r = 0; r < R; r++) {
        status = builds_once(j, b, extra, t, line, e);
        if (status < 0) return -1;
        exits[status]++;
    }
    if (R > 1)
        fprintf(j->out.human, "A/A gates: %zu; exit 0 (pass): %d, exit 1 (false alarm): %d, exit 3 (inconclusive): %d\n",
                R, exits[0], exits[1], exits[3]);
    return R > 1 ? (exits[1] ? 1 : exits[3] ? 3 : 0) : status;
}
