/* SPDX-License-Identifier: GPL-2.0-only */
/* gate.c — per-cell statistics, Holm's correction, verdicts, and the thresholds file. No I/O but files read here. */
#include "gate.h"

#include "layout_stats.h"
#include "paths.h"
#include "pb_config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Fewer pairs than this have no 95 % signed-rank CI at all (2/2^5 > 0.05). */
#define MIN_PAIRS 6

/* ---- statistics ---- */

static int cmp_idx_p(const void *x, const void *y, void *ctx)
{
    const double *p = ctx;
    double a = p[*(const size_t *)x], b = p[*(const size_t *)y];
    return (a > b) - (a < b);
}

/* qsort_r is glibc's (-D_GNU_SOURCE is project-wide) */
void pb_holm(const double *p, size_t m, double *adj)
{
    size_t *idx = malloc((m ? m : 1) * sizeof *idx), k = 0;
    if (!idx) {
        for (size_t i = 0; i < m; i++) adj[i] = isnan(p[i]) ? NAN : 1.0; /* no memory: claim nothing */
        return;
    }
    for (size_t i = 0; i < m; i++) {
        adj[i] = NAN;
        if (!isnan(p[i])) idx[k++] = i;
    }
    qsort_r(idx, k, sizeof *idx, cmp_idx_p, (void *)p);
    /* adj_(j) = max over i <= j of min(1, (k - i) p_(i)), 0-based: monotone step-down */
    double run = 0;
    for (size_t j = 0; j < k; j++) {
        double v = (double)(k - j) * p[idx[j]];
        if (v > 1) v = 1;
        if (v > run) run = v;
        adj[idx[j]] = run;
    }
    free(idx);
}

static void clear_results(pb_cmp_cell *c)
{
    c->n = 0;
    c->ratio = c->ci_lo = c->ci_hi = c->conf = c->p = c->p_holm = NAN;
    c->se_log = c->noise = c->mdc = c->order_effect = NAN;
    c->layouts = c->layout_units = 1;
    c->layout_lo = c->layout_hi = c->layout_df = NAN;
}

/* half the difference of the medians of the log ratios of the two orders; NaN if an order has < 3 pairs */
static double order_effect(const double *d, const signed char *order, size_t n)
{
    double *v = malloc((n ? n : 1) * sizeof *v), med[2];
    if (!v) return NAN;
    for (int s = 0; s < 2; s++) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (order[i] == (s ? -1 : 1)) v[k++] = d[i];
        if (k < 3) { free(v); return NAN; }
        med[s] = pb_median(v, k);
    }
    free(v);
    return (med[0] - med[1]) / 2;
}

void pb_cmp_cell_stats(pb_cmp_cell *c, const double *cost_b, const double *cost_a, const signed char *order,
                       size_t n, size_t m, const pb_gate_params *gp)
{
    pb_cmp_cell_stats_layouts(c, cost_b, cost_a, order, NULL, n, m, gp);
}

static void set_estimate(pb_cmp_cell *c, double ratio, double lo, double hi, double conf, double p)
{
    c->ratio = ratio;
    c->ci_lo = lo;
    c->ci_hi = hi;
    c->conf = conf;
    c->p = p;
}

/* Is the pair one implementation against itself (an A/A gate's X and X~aa, a commit gate's X~base and
 * X: names equal up to the gate's '~' suffix)? */
static int one_impl(const pb_cmp_cell *c)
{
    size_t na = strcspn(c->impl_a, "~"), nb = strcspn(c->impl_b, "~");
    return na == nb && !strncmp(c->impl_a, c->impl_b, na);
}

/* across layouts: what pb_layout_ratio_of gives replaces the pooled estimate; 0 if it applies. The
 * CI is over the function orders (layout_stats.h) for a pair of one implementation: whatever moves
 * the machine during the cell's rounds moves both sides, the same code, alike, so what is left is
 * placement, whose shifts are strata. Two implementations it moves differently, which one run cannot
 * tell from placement: their layouts count as draws (docs/layout.md, "Stratified layouts"). */
static int across_layouts(pb_cmp_cell *c, const double *d, const int *lay, size_t k, size_t m,
                          const pb_gate_params *gp)
{
    pb_layout_ratio lr;
    if (!lay || pb_layout_ratio_of(d, lay, NULL, k, gp->conf, one_impl(c) ? pb_layout_strata() : 0, &lr) != 0) return -1;
    c->layouts = lr.nlayouts;
    c->layout_units = lr.units;
    c->layout_lo = lr.lo;
    c->layout_hi = lr.hi;
    set_estimate(c, lr.estimate, lr.ci_lo, lr.ci_hi, gp->conf, lr.p_value);
    c->se_log = lr.se_log;
    c->layout_df = lr.df;
    double level = gp->alpha / (double)(m ? m : 1), df = lr.df;
    c->mdc = lr.se_log > 0 ? expm1((pb_t_quantile(1 - level / 2, df) + pb_t_quantile(gp->power, df)) * lr.se_log) : 0;
    return 0;
}

/* A gate's estimate of a cell, on purpose not a run's headline (cell_ratio.h): its pairs are already
 * made (from the gate's runs together, with their order), its layouts count as draws unless one
 * implementation faces itself (across_layouts), without time blocks, and beside the ratio it needs
 * the noise and the smallest change it could find (mdc) at Holm's level. */
void pb_cmp_cell_stats_layouts(pb_cmp_cell *c, const double *cost_b, const double *cost_a, const signed char *order,
                               const int *layout, size_t n, size_t m, const pb_gate_params *gp)
{
    clear_results(c);
    size_t cap = n ? n : 1, k = 0;
    double *a = malloc(cap * sizeof *a), *b = malloc(cap * sizeof *b), *d = malloc(cap * sizeof *d);
    signed char *o = malloc(cap);
    int *lay = layout ? malloc(cap * sizeof *lay) : NULL;
    for (size_t i = 0; a && b && d && o && (!layout || lay) && i < n; i++)
        if (cost_b[i] > 0 && cost_a[i] > 0 && isfinite(cost_b[i]) && isfinite(cost_a[i])) {
            a[k] = cost_a[i];
            b[k] = cost_b[i];
            d[k] = log(cost_b[i] / cost_a[i]);
            if (lay) lay[k] = layout[i];
            o[k++] = order ? order[i] : 0;
        }
    /* diagnostic only: see gate.h */
    if (a && b && d && o && k >= MIN_PAIRS && order) c->order_effect = expm1(order_effect(d, o, k));
    pb_paired pr;
    int ok = a && b && d && o && k >= MIN_PAIRS && pb_paired_ratio(b, a, k, gp->conf, &pr) == 0;
    free(o);
    if (!ok) {
        c->n = k;
        c->verdict = PB_CELL_NODATA;
        if (!c->note[0])
            snprintf(c->note, sizeof c->note, "%zu pairs: at least %d are needed for a 95 %% CI", k, MIN_PAIRS);
        free(a), free(b), free(d), free(lay);
        return;
    }
    c->n = pr.n;
    set_estimate(c, pr.estimate, pr.ci_lo, pr.ci_hi, pr.conf, pr.p_value);
    /* robust spread of the log ratios: what one pair's noise is */
    double med = pb_median(d, k);
    for (size_t i = 0; i < k; i++) d[i] = fabs(d[i] - med);
    c->noise = 1.4826 * pb_median(d, k);
    for (size_t i = 0; i < k; i++) d[i] = log(b[i] / a[i]);
    int across = across_layouts(c, d, lay, k, m, gp) == 0;
    free(a), free(b), free(d), free(lay);
    if (across) {
        c->verdict = PB_CELL_COMPARED;
        return;
    }
    /* The HL estimate is asymptotically normal: its standard error follows from
     * the width of the CI at the coverage actually achieved. This carries the
     * real shape of the noise (two speeds, outliers) into the MDC, where a
     * formula from the standard deviation would assume a normal one. */
    if (isfinite(c->ci_lo) && isfinite(c->ci_hi) && c->conf < 1) {
        double z = pb_norm_quantile(0.5 + c->conf / 2);
        c->se_log = (log(c->ci_hi) - log(c->ci_lo)) / (2 * z);
        /* the change a two-sided test at Holm's strictest level alpha/m finds with probability `power` */
        double level = gp->alpha / (double)(m ? m : 1);
        c->mdc = expm1((pb_norm_quantile(1 - level / 2) + pb_norm_quantile(gp->power)) * c->se_log);
    } else {
        c->se_log = c->mdc = INFINITY;
    }
    c->verdict = PB_CELL_COMPARED; /* tested; pb_gate_decide gives the verdict */
}

void pb_cmp_cell_untested(pb_cmp_cell *c, const double *cost_b, size_t nb, const double *cost_a, size_t na)
{
    clear_results(c);
    double mb = pb_median(cost_b, nb), ma = pb_median(cost_a, na);
    c->n = nb < na ? nb : na;
    c->ratio = (nb && na && ma > 0) ? mb / ma : NAN;
    c->verdict = nb && na ? PB_CELL_UNTESTED : PB_CELL_NODATA;
}

static int tested(const pb_cmp_cell *c)
{
    return c->verdict != PB_CELL_NODATA && c->verdict != PB_CELL_UNTESTED;
}

static pb_cell_verdict judge(const pb_cmp_cell *c, double alpha)
{
    double t1 = 1 + c->threshold;
    if (c->p_holm < alpha && c->ratio > t1) return PB_CELL_REGRESSION;
    if (!isfinite(c->ci_lo) || !isfinite(c->ci_hi)) return PB_CELL_INCONCLUSIVE;
    if (c->ci_hi < t1) return PB_CELL_PASS;                /* a regression beyond t is ruled out */
    if (c->ci_lo <= 1) return PB_CELL_INCONCLUSIVE;        /* the CI holds both 1 and 1 + t */
    if (c->ratio > t1) return PB_CELL_INCONCLUSIVE;        /* beyond t, but not significant after Holm */
    return PB_CELL_PASS;                                   /* slower, within the threshold */
}

void pb_gate_decide(pb_cmp_cell *cells, size_t m, const pb_gate_params *gp)
{
    double *p = calloc(m + 1, sizeof *p), *adj = calloc(m + 1, sizeof *adj);
    if (!p || !adj) {
        free(p);
        free(adj);
        for (size_t i = 0; i < m; i++)
            if (tested(&cells[i])) cells[i].verdict = PB_CELL_INCONCLUSIVE; /* cannot decide: never pass blindly */
        return;
    }
    for (size_t i = 0; i < m; i++) p[i] = tested(&cells[i]) ? cells[i].p : NAN;
    pb_holm(p, m, adj);
    for (size_t i = 0; i < m; i++) {
        pb_cmp_cell *c = &cells[i];
        if (!tested(c)) continue;
        c->p_holm = adj[i];
        c->verdict = isnan(c->threshold) ? PB_CELL_COMPARED : judge(c, gp->alpha);
    }
    free(p);
    free(adj);
}

const pb_cmp_cell *pb_gate_find_cell(const pb_cmp_cell *c, const pb_cmp_cell *v, size_t n)
{
    for (size_t i = 0; v && i < n; i++)
        if (!strcmp(v[i].impl_a, c->impl_a) && !strcmp(v[i].impl_b, c->impl_b) && !strcmp(v[i].variant, c->variant) &&
            !strcmp(v[i].op, c->op) && v[i].size == c->size)
            return &v[i];
    return NULL;
}

size_t pb_gate_confirm(pb_cmp_cell *cells, size_t n, const pb_cmp_cell *second, size_t n2)
{
    size_t confirmed = 0;
    for (size_t i = 0; i < n; i++) {
        pb_cmp_cell *c = &cells[i];
        if (c->verdict != PB_CELL_REGRESSION) continue;
        const pb_cmp_cell *x = pb_gate_find_cell(c, second, n2);
        if (x && x->verdict == PB_CELL_REGRESSION) {
            confirmed++;
            snprintf(c->note, sizeof c->note, "confirmed by a second run: %.3f [%.3f, %.3f]", x->ratio, x->ci_lo,
                     x->ci_hi);
            continue;
        }
        c->verdict = PB_CELL_INCONCLUSIVE;
        if (x && isfinite(x->ratio))
            snprintf(c->note, sizeof c->note, "a regression in the first run, not in a second (%s): %.3f [%.3f, %.3f]",
                     pb_cell_verdict_name(x->verdict), x->ratio, x->ci_lo, x->ci_hi);
        else
            snprintf(c->note, sizeof c->note, "a regression in the first run; the second had no data for it");
    }
    return confirmed;
}

int pb_gate_exit_status(const pb_cmp_cell *cells, size_t m)
{
    int inconclusive = 0;
    for (size_t i = 0; i < m; i++) {
        if (cells[i].verdict == PB_CELL_REGRESSION) return PB_GATE_EXIT_REGRESSION;
        if (cells[i].verdict == PB_CELL_INCONCLUSIVE) inconclusive = 1;
    }
    return inconclusive ? PB_GATE_EXIT_INCONCLUSIVE : PB_GATE_EXIT_PASS;
}

const char *pb_cell_verdict_name(pb_cell_verdict v)
{
    switch (v) {
    case PB_CELL_PASS: return "pass";
    case PB_CELL_REGRESSION: return "regression";
    case PB_CELL_INCONCLUSIVE: return "inconclusive";
    case PB_CELL_NODATA: return "no data";
    case PB_CELL_UNTESTED: return "untested";
    case PB_CELL_COMPARED: return "compared";
    }
    return "?";
}

const char *pb_gate_exit_name(int status)
{
    switch (status) {
    case PB_GATE_EXIT_PASS: return "pass";
    case PB_GATE_EXIT_REGRESSION: return "regression";
    case PB_GATE_EXIT_INCONCLUSIVE: return "inconclusive";
    case PB_GATE_EXIT_ERROR: return "error";
    }
    return "none";
}

int pb_cell_under_threshold(const pb_cmp_cell *c, const pb_gate_params *gp)
{
    return c->verdict == PB_CELL_PASS && isfinite(c->threshold) && c->p_holm < gp->alpha && c->ratio > 1;
}

const char *pb_under_threshold_text(char *b, size_t cap, const pb_cmp_cell *c)
{
    snprintf(b, cap, "slower by %.1f %% [%.1f %%, %.1f %%], under the %.3g %% threshold", 100 * (c->ratio - 1),
             100 * (c->ci_lo - 1), 100 * (c->ci_hi - 1), 100 * c->threshold);
    return b;
}

const char *pb_cmp_change(const pb_cmp_cell *c, const pb_gate_params *gp)
{
    if (c->verdict == PB_CELL_NODATA) return "no data";
    if (c->verdict == PB_CELL_UNTESTED) return "untested";
    /* a count needs no test: it moved where the whole range of its repetitions is off 1 */
    if (c->exact) return c->ci_lo > 1 ? "slower" : c->ci_hi < 1 ? "faster" : "no difference detected";
    if (c->p_holm < gp->alpha) return c->ratio > 1 ? "slower" : "faster";
    return "no difference detected";
}

int pb_parse_run_ids(const char *list, int64_t **ids, size_t *n, pb_err *e)
{
    size_t cap = 1;
    for (const char *p = list; *p; p++) cap += *p == ',';
    *ids = malloc(cap * sizeof **ids);
    *n = 0;
    if (!*ids) return pb_errf(e, "out of memory");
    for (const char *p = list;;) {
        size_t len = strcspn(p, ",");
        char *end;
        errno = 0;
        long long v = strtoll(p, &end, 10);
        if (len == 0 || errno || end != p + len || v <= 0 || *p == '+' || *p == ' ') {
            free(*ids);
            *ids = NULL;
            return pb_errf(e, "bad run id '%.*s' in '%s' (want run ids like 3 or 3,5,7)", (int)len, p, list);
        }
        (*ids)[(*n)++] = v;
        if (!p[len]) break;
        p += len + 1;
    }
    return 0;
}

int pb_check_run_sides(const char *list_a, const char *list_b, const char *opt_a, const char *opt_b, pb_err *e)
{
    int64_t *a = NULL, *b = NULL;
    size_t na = 0, nb = 0;
    int rc = 0;
    if (pb_parse_run_ids(list_a, &a, &na, e) < 0 || pb_parse_run_ids(list_b, &b, &nb, e) < 0) rc = -1;
    for (size_t i = 0; rc == 0 && i < na + nb; i++) {
        const int64_t id = i < na ? a[i] : b[i - na];
        const char *opt = i < na ? opt_a : opt_b;
        /* earlier on its own side, then (for the second side) anywhere on the first */
        for (size_t j = i < na ? 0 : na; rc == 0 && j < i; j++)
            if ((j < na ? a[j] : b[j - na]) == id)
                rc = pb_errf(e, "%s: run %lld given twice: each run is one alternation", opt, (long long)id);
        for (size_t j = 0; rc == 0 && i >= na && j < na; j++)
            if (a[j] == id)
                rc = pb_errf(e, "run %lld is in both %s and %s: a run against itself measures nothing (for an A/A, "
                             "compare two runs of one build)", (long long)id, opt_a, opt_b);
    }
    free(a);
    free(b);
    return rc;
}

/* ---- thresholds file ---- */

static int add_rule(pb_thresholds *t, const pb_threshold *r, pb_err *e)
{
    for (int i = 0; i < t->n; i++)
        if (!strcmp(t->v[i].gate, r->gate) && !strcmp(t->v[i].suite, r->suite) && !strcmp(t->v[i].metric, r->metric))
            return pb_errf(e, "%s:%d: a rule for '%s %s %s' is already on line %d", t->path, r->line, r->gate,
                           r->suite, r->metric, t->v[i].line);
    pb_threshold *nv = realloc(t->v, (size_t)(t->n + 1) * sizeof *nv);
    if (!nv) return pb_errf(e, "out of memory");
    t->v = nv;
    t->v[t->n++] = *r;
    return 0;
}

/* "3%" or "2.5%" -> 0.03 / 0.025; with bare, "3" and "2.5" too (--threshold: a number is a
 * percentage there, as people type it; a file's rule keeps its sign, so that a rule read later never
 * leaves 0.03 meaning 3 % or 0.03 %) */
static int parse_percent(const char *s, int bare, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || !isfinite(v)) return -1;
    if (strcmp(end, "%") != 0 && (!bare || *end || strspn(s, "0123456789.") != strlen(s))) return -1;
    *out = v / 100;
    return 0;
}

static int parse_line(pb_thresholds *t, char *line, int lineno, pb_err *e)
{
    char *hash = strchr(line, '#');
    if (hash) *hash = 0;
    char *f[5];
    int nf = 0;
    for (char *save = NULL, *tok = strtok_r(line, " \t\r", &save); tok; tok = strtok_r(NULL, " \t\r", &save)) {
        if (nf == 5) break;
        f[nf++] = tok;
    }
    if (nf == 0) return 0;
    if (nf != 4)
        return pb_errf(e, "%s:%d: expected 4 fields 'GATE SUITE METRIC SLOWDOWN' (e.g. 'claim xts ns_per_op 5%%'), got %s",
                       t->path, lineno, nf < 4 ? "fewer" : "more");
    pb_threshold r;
    memset(&r, 0, sizeof r);
    r.line = lineno;
    if (strcmp(f[0], "claim") && strcmp(f[0], "commit") && strcmp(f[0], "baseline") && strcmp(f[0], "*"))
        return pb_errf(e, "%s:%d: unknown gate '%s' (claim, commit, baseline or *)", t->path, lineno, f[0]);
    if (strlen(f[1]) >= sizeof r.suite) return pb_errf(e, "%s:%d: suite name too long", t->path, lineno);
    if (strcmp(f[2], "*") && !pb_metric_known(f[2])) {
        char why[700];
        return pb_errf(e, "%s:%d: %s", t->path, lineno, pb_metric_unknown(why, sizeof why, f[2], ", or *"));
    }
    if (parse_percent(f[3], 0, &r.slowdown) < 0)
        return pb_errf(e, "%s:%d: slowdown '%s' is not a percentage like 3%% or 2.5%%", t->path, lineno, f[3]);
    if (!(r.slowdown > 0 && r.slowdown <= 1))
        return pb_errf(e, "%s:%d: slowdown %s is out of range (more than 0%% and at most 100%%)", t->path, lineno, f[3]);
    snprintf(r.gate, sizeof r.gate, "%s", f[0]);
    snprintf(r.suite, sizeof r.suite, "%s", f[1]);
    snprintf(r.metric, sizeof r.metric, "%s", f[2]);
    return add_rule(t, &r, e);
}

int pb_thresholds_parse(pb_thresholds *t, const char *path, const char *text, pb_err *e)
{
    memset(t, 0, sizeof *t);
    snprintf(t->path, sizeof t->path, "%s", path);
    int lineno = 0;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char *line = malloc(len + 1);
        if (!line) { pb_thresholds_free(t); return pb_errf(e, "out of memory"); }
        memcpy(line, p, len);
        line[len] = 0;
        lineno++;
        int rc = memchr(p, 0, len) ? -1 : parse_line(t, line, lineno, e);
        free(line);
        if (rc < 0) { pb_thresholds_free(t); return -1; }
        p += len + (nl ? 1 : 0);
    }
    return 0;
}

int pb_thresholds_load(pb_thresholds *t, const char *path, pb_err *e)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "rb");
    if (!f) return pb_errf(e, "cannot read thresholds file %s: %s", path, strerror(errno));
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0;) {
        n += got;
        if (n + 1 == cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) { free(buf); buf = NULL; }
            buf = nb;
        }
    }
    int err = ferror(f);
    fclose(f);
    if (!buf) return pb_errf(e, "out of memory reading %s", path);
    if (err) { free(buf); return pb_errf(e, "cannot read thresholds file %s", path); }
    buf[n] = 0;
    if (strlen(buf) != n) { free(buf); return pb_errf(e, "%s: not a text file (NUL byte)", path); }
    int rc = pb_thresholds_parse(t, path, buf, e);
    free(buf);
    return rc;
}

int pb_thresholds_lookup(const pb_thresholds *t, const char *gate, const char *suite, const char *metric,
                         double *slowdown, int *line, pb_err *e)
{
    int best = -1, best_score = -1;
    for (int i = 0; i < t->n; i++) {
        const pb_threshold *r = &t->v[i];
        int g = !strcmp(r->gate, gate), s = !strcmp(r->suite, suite), m = !strcmp(r->metric, metric);
        if ((!g && strcmp(r->gate, "*")) || (!s && strcmp(r->suite, "*")) || (!m && strcmp(r->metric, "*"))) continue;
        int score = 4 * g + 2 * s + m;
        if (score > best_score) { best_score = score; best = i; }
    }
    if (best < 0)
        return pb_errf(e, "%s has no rule for the %s gate of suite %s, metric %s (add a line like '%s %s %s 5%%')",
                       t->path, gate, suite, metric, gate, suite, metric);
    *slowdown = t->v[best].slowdown;
    if (line) *line = t->v[best].line;
    return 0;
}

void pb_thresholds_free(pb_thresholds *t)
{
    free(t->v);
    t->v = NULL;
    t->n = 0;
}

int pb_thresholds_single(pb_thresholds *t, const char *value, pb_err *e)
{
    memset(t, 0, sizeof *t);
    pb_threshold r = {.gate = "*", .suite = "*", .metric = "*", .line = 0};
    if (parse_percent(value, 1, &r.slowdown) < 0 || !(r.slowdown > 0 && r.slowdown <= 1))
        return pb_errf(e, "--threshold '%s': want a percentage more than 0%% and at most 100%% (e.g. 3%%, 2.5%% or "
                          "3, which is 3%%)", value);
    snprintf(t->path, sizeof t->path, "--threshold %s", value);
    t->option = 1;
    return add_rule(t, &r, e);
}

/* every suite a rule names is one this bench has (a typo would otherwise be a rule never used) */
static int check_rule_suites(pb_thresholds *t, pb_err *e)
{
    for (int i = 0; i < t->n; i++)
        if (strcmp(t->v[i].suite, "*") && !pb_suite_find(t->v[i].suite)) {
            char why[700];
            pb_errf(e, "%s:%d: %s", t->path, t->v[i].line, pb_suite_unknown(why, sizeof why, t->v[i].suite, ", or *"));
            pb_thresholds_free(t);
            return -1;
        }
    return 0;
}

int pb_thresholds_for(pb_thresholds *t, const char *threshold, const char *file, pb_err *e)
{
    if (threshold) return pb_thresholds_single(t, threshold, e);
    const char *path = file ? file : "ci/thresholds";
    pb_path installed;
    if (!file && access(path, R_OK) != 0) path = pb_thresholds_default(&installed);
    if (pb_thresholds_load(t, path, e) < 0) {
        char why[sizeof e->msg];
        snprintf(why, sizeof why, "%s", e->msg);
        return file ? pb_errf(e, "--thresholds: %.900s", why)
                    : pb_errf(e, "%.900s (the default; give --thresholds FILE or --threshold P%%)", why);
    }
    return check_rule_suites(t, e);
}

const char *pb_thresholds_where(const pb_thresholds *t, int line, char *buf, size_t cap)
{
    if (t->option) snprintf(buf, cap, "%s", t->path);
    else snprintf(buf, cap, "%s:%d", t->path, line);
    return buf;
}
