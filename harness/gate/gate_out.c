/* SPDX-License-Identifier: GPL-2.0-only */
/* gate_out.c — a comparison as a table on stdout, as markdown (CI comments) or as JSON. */
#include "gate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int pb_format_parse(const char *s, pb_format *f)
{
    if (!strcmp(s, "text")) *f = PB_FMT_TEXT;
    else if (!strcmp(s, "md")) *f = PB_FMT_MD;
    else if (!strcmp(s, "json")) *f = PB_FMT_JSON;
    else return -1;
    return 0;
}

int pb_gate_output_opt(const char *cmd, const char *name, const char *val, pb_format *fmt, pb_gate_params *gp)
{
    if (!strcmp(name, "format")) {
        if (pb_format_parse(val, fmt) == 0) return 1;
        fprintf(stderr, "%s: --format wants text, md or json, got '%s'\n", cmd, val);
        return -1;
    }
    if (!strcmp(name, "alpha")) {
        char *end;
        gp->alpha = strtod(val, &end);
        if (!*end && gp->alpha > 0 && gp->alpha < 0.5) return 1;
        fprintf(stderr, "%s: --alpha wants a level between 0 and 0.5, got '%s'\n", cmd, val);
        return -1;
    }
    return 0;
}

/* a comparison of runs has the same impl on both sides, the commit gate in one process several pairs
 * (X~base against X): then the impl (the candidate's name, X) is a column */
static int by_impl(const pb_cmp_cell *cells, size_t n)
{
    if (n > 0 && !strcmp(cells[0].impl_a, cells[0].impl_b)) return 1;
    for (size_t i = 1; i < n; i++)
        if (strcmp(cells[i].impl_b, cells[0].impl_b)) return 1;
    return 0;
}

static void fmt_ratio(char *b, size_t cap, double v) { snprintf(b, cap, isfinite(v) ? "%.3f" : "-", v); }

static void fmt_ci(char *b, size_t cap, const pb_cmp_cell *c)
{
    if (isfinite(c->ci_lo) && isfinite(c->ci_hi)) snprintf(b, cap, "[%.3f, %.3f]", c->ci_lo, c->ci_hi);
    else snprintf(b, cap, "-");
}

static void fmt_p(char *b, size_t cap, double p)
{
    if (isnan(p)) snprintf(b, cap, "-");
    else if (p < 1e-4) snprintf(b, cap, "<1e-4");
    else snprintf(b, cap, "%.4f", p);
}

static void fmt_pct(char *b, size_t cap, double f)
{
    if (isnan(f)) snprintf(b, cap, "-");
    else if (!isfinite(f)) snprintf(b, cap, "inf");
    else snprintf(b, cap, "%.1f%%", 100 * f);
}

static int any_calibrated(const pb_cmp_cell *cells, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isnan(cells[i].calibrated_mdc)) return 1;
    return 0;
}

static const char *cell_result(const pb_cmp_cell *c, const pb_gate_params *gp)
{
    return c->verdict == PB_CELL_COMPARED ? pb_cmp_change(c, gp) : pb_cell_verdict_name(c->verdict);
}

static void summary_counts(const pb_cmp_cell *cells, size_t n, char *b, size_t cap, const pb_gate_params *gp)
{
    size_t k[PB_CELL_COMPARED + 1] = {0}, slower = 0, faster = 0;
    for (size_t i = 0; i < n; i++) {
        k[cells[i].verdict]++;
        const char *ch = pb_cmp_change(&cells[i], gp);
        slower += cells[i].verdict == PB_CELL_COMPARED && !strcmp(ch, "slower");
        faster += cells[i].verdict == PB_CELL_COMPARED && !strcmp(ch, "faster");
    }
    size_t off = (size_t)snprintf(b, cap, "%zu cells:", n);
    const struct { size_t n; const char *what; } parts[] = {
        {k[PB_CELL_PASS], "pass"}, {k[PB_CELL_REGRESSION], "regression"}, {k[PB_CELL_INCONCLUSIVE], "inconclusive"},
        {slower, "slower"}, {faster, "faster"}, {k[PB_CELL_COMPARED] - slower - faster, "without a detected difference"},
        {k[PB_CELL_UNTESTED], "untested"}, {k[PB_CELL_NODATA], "without data"},
    };
    int first = 1, gate = k[PB_CELL_PASS] + k[PB_CELL_REGRESSION] + k[PB_CELL_INCONCLUSIVE] > 0;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0] && off < cap; i++) {
        if (!parts[i].n && !(gate && i < 3)) continue;   /* a gate always says all three */
        off += (size_t)snprintf(b + off, cap - off, "%s %zu %s", first ? "" : ",", parts[i].n, parts[i].what);
        first = 0;
    }
}

/* one table, two layouts: aligned text, or a markdown table */
static void print_table(FILE *f, int md, const pb_cmp_header *h, const pb_cmp_cell *cells, size_t n)
{
    int imp = by_impl(cells, n), cal = any_calibrated(cells, n), thr = n && !isnan(cells[0].threshold);
    enum { C_IMPL, C_VARIANT, C_OP, C_BYTES, C_PAIRS, C_RATIO, C_CI, C_P, C_PH, C_MDC, C_CAL, C_THR, C_RESULT, NCOL };
    static const struct { const char *head; int width, left; } COLS[NCOL] = {
        {"impl", 10, 1}, {"variant", 10, 1}, {"op", 9, 1}, {"bytes", 8, 0}, {"pairs", 5, 0}, {"cost B/A", 8, 0},
        {"95% CI", 16, 1}, {"p", 7, 0}, {"p (Holm)", 8, 0}, {"MDC", 6, 0}, {"MDC (A/A)", 9, 0}, {"threshold", 9, 0},
        {"result", 0, 1},
    };
    int show[NCOL];
    for (int k = 0; k < NCOL; k++) show[k] = 1;
    show[C_IMPL] = imp, show[C_CAL] = cal, show[C_THR] = thr;
    char val[NCOL][96];
    for (int row = -1; row < (int)n; row++) {
        if (row < 0) {
            for (int k = 0; k < NCOL; k++) snprintf(val[k], sizeof val[k], "%s", COLS[k].head);
        } else {
            const pb_cmp_cell *c = &cells[row];
            snprintf(val[C_IMPL], sizeof val[0], "%s", c->impl_b);
            snprintf(val[C_VARIANT], sizeof val[0], "%s", c->variant);
            snprintf(val[C_OP], sizeof val[0], "%s", c->op);
            snprintf(val[C_BYTES], sizeof val[0], "%llu", (unsigned long long)c->size);
            snprintf(val[C_PAIRS], sizeof val[0], "%zu", c->n);
            fmt_ratio(val[C_RATIO], sizeof val[0], c->ratio);
            fmt_ci(val[C_CI], sizeof val[0], c);
            fmt_p(val[C_P], sizeof val[0], c->p);
            fmt_p(val[C_PH], sizeof val[0], c->p_holm);
            fmt_pct(val[C_MDC], sizeof val[0], c->mdc);
            fmt_pct(val[C_CAL], sizeof val[0], c->calibrated_mdc);
            fmt_pct(val[C_THR], sizeof val[0], c->threshold);
            const char *res = cell_result(c, h->gp), *em = md && c->verdict == PB_CELL_REGRESSION ? "**" : "";
            snprintf(val[C_RESULT], sizeof val[0], "%s%s%s%s%.60s", em, res, em, c->note[0] ? (md ? ": " : "  -- ") : "",
                     c->note);
        }
        int first = 1;
        for (int k = 0; k < NCOL; k++) {
            if (!show[k]) continue;
            if (md) fprintf(f, "%s%s", first ? "| " : " | ", val[k]);
            else if (k == C_RESULT) fprintf(f, "%s%s", first ? "" : "  ", val[k]);
            else fprintf(f, COLS[k].left ? "%s%-*s" : "%s%*s", first ? "" : "  ", COLS[k].width, val[k]);
            first = 0;
        }
        fprintf(f, md ? " |\n" : "\n");
        if (md && row < 0) {
            for (int k = 0; k < NCOL; k++)
                if (show[k]) fprintf(f, "%s", COLS[k].left ? "|---" : "|---:");
            fprintf(f, "|\n");
        }
    }
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p < 0x20) fprintf(f, "\\u%04x", *p);
        else fputc(*p, f);
    }
    fputc('"', f);
}

static void json_num(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, "%.10g", v);
    else fprintf(f, "null");
}

/* , "key": value */
static void jstr(FILE *f, const char *key, const char *v)
{
    fprintf(f, ", \"%s\": ", key);
    if (v) json_str(f, v);
    else fprintf(f, "null");
}

static void jnum(FILE *f, const char *key, double v)
{
    fprintf(f, ", \"%s\": ", key);
    json_num(f, v);
}

static void print_json(FILE *f, const pb_cmp_header *h, const pb_cmp_cell *cells, size_t n)
{
    fprintf(f, "{\"title\": ");
    json_str(f, h->title);
    jstr(f, "suite", h->suite);
    jstr(f, "metric", h->metric);
    jstr(f, "ratio", "cost(candidate)/cost(baseline); > 1 is slower");
    jstr(f, "pairing", h->pairing);
    jstr(f, "gate", h->gate);
    jnum(f, "alpha", h->gp->alpha);
    jnum(f, "conf", h->gp->conf);
    jnum(f, "power", h->gp->power);
    jstr(f, "correction", "holm");
    jnum(f, "comparison_id", (double)h->comparison_id);
    jstr(f, "verdict", pb_gate_exit_name(h->exit_status));
    jnum(f, "exit_status", h->exit_status >= 0 ? h->exit_status : NAN);
    jstr(f, "note", h->note);
    fprintf(f, ",\n \"cells\": [");
    for (size_t i = 0; i < n; i++) {
        const pb_cmp_cell *c = &cells[i];
        fprintf(f, "%s\n  {\"baseline\": ", i ? "," : "");
        json_str(f, c->impl_a);
        jstr(f, "candidate", c->impl_b);
        jstr(f, "variant", c->variant);
        jstr(f, "op", c->op);
        jnum(f, "size_bytes", (double)c->size);
        jnum(f, "pairs", (double)c->n);
        jnum(f, "rounds", c->rounds);
        const struct { const char *k; double v; } nums[] = {
            {"ratio", c->ratio}, {"ci_lo", c->ci_lo}, {"ci_hi", c->ci_hi}, {"conf", c->conf}, {"p", c->p},
            {"p_holm", c->p_holm}, {"se_log", c->se_log}, {"noise", c->noise}, {"order_effect", c->order_effect},
            {"mdc", c->mdc}, {"calibrated_mdc", c->calibrated_mdc}, {"threshold", c->threshold},
        };
        for (size_t k = 0; k < sizeof nums / sizeof nums[0]; k++) jnum(f, nums[k].k, nums[k].v);
        jstr(f, "change", pb_cmp_change(c, h->gp));
        jstr(f, "verdict", pb_cell_verdict_name(c->verdict));
        jstr(f, "note", c->note);
        fprintf(f, "}");
    }
    fprintf(f, "\n]}\n");
}

void pb_gate_print(FILE *f, pb_format fmt, const pb_cmp_header *h, const pb_cmp_cell *cells, size_t n)
{
    if (fmt == PB_FMT_JSON) {
        print_json(f, h, cells, n);
        return;
    }
    char counts[256];
    summary_counts(cells, n, counts, sizeof counts, h->gp);
    int md = fmt == PB_FMT_MD;
    fprintf(f, md ? "### %s\n\n" : "%s\n", h->title);
    fprintf(f,
            "%s%s, cost = %s%s; paired by %s; Hodges-Lehmann ratio, Wilcoxon signed-rank CI and p; Holm over %zu "
            "cells, alpha %g; MDC = change found with %.0f%% power\n%s",
            md ? "" : "  ", h->suite, pb_metric_higher_is_better(h->metric) ? "1/" : "", h->metric, h->pairing, n,
            h->gp->alpha, 100 * h->gp->power, md ? "\n" : "");
    if (h->note && h->note[0]) fprintf(f, md ? "%s\n\n" : "  %s\n", h->note);
    print_table(f, md, h, cells, n);
    if (h->exit_status >= 0)
        fprintf(f, md ? "\n**verdict: %s** (%s)" : "verdict: %s (%s)", pb_gate_exit_name(h->exit_status), counts);
    else
        fprintf(f, md ? "\n%s" : "%s", counts);
    if (h->comparison_id > 0) fprintf(f, "; stored as comparison %lld", (long long)h->comparison_id);
    fprintf(f, "\n");
}
