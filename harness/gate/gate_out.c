/* SPDX-License-Identifier: GPL-2.0-only */
/* gate_out.c — a comparison as people read it: the table on a terminal, or the same as Markdown
 * (a gate's section of the md document, gate_doc.h); and the options compare and gate share. */
#include "gate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text_out.h"

int pb_gate_output_opt(const char *cmd, const char *name, const char *val, pb_format *fmt, pb_gate_params *gp)
{
    if (!strcmp(name, "format")) {
        if (pb_format_parse(val, fmt) == 0) return 1;
        char list[96];
        fprintf(stderr, "%s: --format wants %s, got '%s'\n", cmd, pb_format_names(list, sizeof list), val);
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

/* the verdict (or what compare found), and for a pass that is significantly slower, by how much */
static const char *cell_result(char *b, size_t cap, const pb_cmp_cell *c, const pb_gate_params *gp)
{
    if (!pb_cell_under_threshold(c, gp))
        return c->verdict == PB_CELL_COMPARED ? pb_cmp_change(c, gp) : pb_cell_verdict_name(c->verdict);
    char why[160];
    snprintf(b, cap, "pass (%s)", pb_under_threshold_text(why, sizeof why, c));
    return b;
}

static void summary_counts(const pb_cmp_cell *cells, size_t n, char *b, size_t cap, const pb_gate_params *gp)
{
    size_t k[PB_CELL_COMPARED + 1] = {0}, slower = 0, faster = 0, under = 0;
    for (size_t i = 0; i < n; i++) {
        k[cells[i].verdict]++;
        under += (size_t)pb_cell_under_threshold(&cells[i], gp);
        const char *ch = pb_cmp_change(&cells[i], gp);
        slower += cells[i].verdict == PB_CELL_COMPARED && !strcmp(ch, "slower");
        faster += cells[i].verdict == PB_CELL_COMPARED && !strcmp(ch, "faster");
    }
    size_t off = (size_t)snprintf(b, cap, "%zu cells:", n);
    const struct { size_t n; const char *what; } parts[] = {
        {k[PB_CELL_PASS], "pass"}, {k[PB_CELL_REGRESSION], "regression"}, {k[PB_CELL_INCONCLUSIVE], "inconclusive"},
        {slower, "slower"}, {faster, "faster"}, {k[PB_CELL_COMPARED] - slower - faster, "without a detected difference"},
        {k[PB_CELL_UNTESTED], "untested"}, {k[PB_CELL_NODATA], "without data"},
        {under, "slower but under the threshold"},
    };
    int first = 1, gate = k[PB_CELL_PASS] + k[PB_CELL_REGRESSION] + k[PB_CELL_INCONCLUSIVE] > 0;
    const size_t last = sizeof parts / sizeof parts[0] - 1;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0] && off < cap; i++) {
        /* a gate always says all three, and how many passed only by their threshold */
        if (!parts[i].n && !(gate && (i < 3 || i == last))) continue;
        off += (size_t)snprintf(b + off, cap - off, "%s %zu %s", first ? "" : ",", parts[i].n, parts[i].what);
        first = 0;
    }
}

/* in (NULL: none) as Markdown text (text_out.h) in buf, returned */
static const char *md_text(char *buf, size_t cap, const char *in)
{
    pb_md_text_escape(buf, cap, in ? in : "");
    return buf;
}

/* one table, two layouts: aligned text, or a markdown table */
static void print_table(FILE *f, int md, const pb_cmp_header *h, const pb_cmp_cell *cells, size_t n)
{
    int imp = by_impl(cells, n), cal = any_calibrated(cells, n), thr = n && !isnan(cells[0].threshold);
    enum { C_IMPL, C_VARIANT, C_OP, C_BYTES, C_PAIRS, C_RATIO, C_CI, C_LAY, C_P, C_PH, C_MDC, C_CAL, C_THR, C_RESULT,
           NCOL };
    static const struct { const char *head; int width, left; } COLS[NCOL] = {
        {"impl", 10, 1}, {"variant", 10, 1}, {"op", 9, 1}, {"bytes", 8, 0}, {"pairs", 5, 0}, {"cost B/A", 8, 0},
        {"95% CI", 16, 1}, {"between layouts", 16, 1}, {"p", 7, 0}, {"p (Holm)", 8, 0}, {"MDC", 6, 0},
        {"MDC (A/A)", 9, 0}, {"threshold", 9, 0}, {"result", 0, 1},
    };
    int show[NCOL], lay = 0;
    for (size_t i = 0; i < n; i++) lay |= cells[i].layouts > 1;
    for (int k = 0; k < NCOL; k++) show[k] = 1;
    show[C_IMPL] = imp, show[C_CAL] = cal, show[C_THR] = thr, show[C_LAY] = lay;
    char val[NCOL][5 * 96], mdbuf[5 * 96];   /* room for a name escaped as Markdown text */
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
            if (c->layouts > 1 && isfinite(c->layout_lo))
                snprintf(val[C_LAY], sizeof val[0], "%.3f to %.3f", c->layout_lo, c->layout_hi);
            else snprintf(val[C_LAY], sizeof val[0], "-");
            fmt_p(val[C_P], sizeof val[0], c->p);
            fmt_p(val[C_PH], sizeof val[0], c->p_holm);
            fmt_pct(val[C_MDC], sizeof val[0], c->mdc);
            fmt_pct(val[C_CAL], sizeof val[0], c->calibrated_mdc);
            fmt_pct(val[C_THR], sizeof val[0], c->threshold);
            char resbuf[200];
            const char *res = cell_result(resbuf, sizeof resbuf, c, h->gp);
            const char *em = md && c->verdict == PB_CELL_REGRESSION ? "**" : "";
            char note[61];
            snprintf(note, sizeof note, "%s", c->note);
            snprintf(val[C_RESULT], sizeof val[0], "%s%s%s%s%s", em, res, em, c->note[0] ? (md ? ": " : "  -- ") : "",
                     md ? md_text(mdbuf, sizeof mdbuf, note) : note);
            /* names and notes come from the store: in Markdown they are text, never markup */
            /* and on a terminal no control byte of them reaches it (the note's too) */
            for (int k = C_IMPL; k <= C_OP; k++) {
                snprintf(mdbuf, sizeof mdbuf, "%s", val[k]);
                if (md) pb_md_text_escape(val[k], sizeof val[k], mdbuf);
                else pb_term_text(val[k], sizeof val[k], mdbuf);
            }
            if (!md) {
                snprintf(mdbuf, sizeof mdbuf, "%s", val[C_RESULT]);
                pb_term_text(val[C_RESULT], sizeof val[C_RESULT], mdbuf);
            }
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

/* the text and the markdown: one header, one table (print_table), one verdict line */
void pb_gate_print(FILE *f, int md, const pb_cmp_header *h, const pb_cmp_cell *cells, size_t n)
{
    char counts[256];
    summary_counts(cells, n, counts, sizeof counts, h->gp);
    char title[2048], suite[256], metric[256], note[16384];   /* escaped: up to 5 bytes a byte */
    fprintf(f, md ? "### %s\n\n" : "%s\n",
            md ? md_text(title, sizeof title, h->title) : pb_term_text(title, sizeof title, h->title ? h->title : ""));
    int lay = 0;
    for (size_t i = 0; i < n; i++) lay = lay > cells[i].layouts ? lay : cells[i].layouts;
    char how[200];
    if (lay > 1)
        snprintf(how, sizeof how, "across %d code layouts: Hodges-Lehmann ratio per layout, their mean, Student t CI "
                 "and p, variances moderated over the cells (docs/layout.md)", lay);
    else snprintf(how, sizeof how, "Hodges-Lehmann ratio, Wilcoxon signed-rank CI and p");
    if (h->method) snprintf(how, sizeof how, "%s", h->method);
    fprintf(f,
            "%s%s, cost = %s%s; paired by %s; %s; Holm over %zu cells, alpha %g; MDC = change found with %.0f%% "
            "power\n%s",
            md ? "" : "  ", md ? md_text(suite, sizeof suite, h->suite) : h->suite,
            pb_metric_higher_is_better(h->metric) ? "1/" : "", md ? md_text(metric, sizeof metric, h->metric) : h->metric,
            h->pairing, how, n, h->gp->alpha, 100 * h->gp->power, md ? "\n" : "");
    if (h->note && h->note[0])
        fprintf(f, md ? "%s\n\n" : "  %s\n", md ? md_text(note, sizeof note, h->note) : h->note);
    print_table(f, md, h, cells, n);
    if (h->exit_status >= 0)
        fprintf(f, md ? "\n**verdict: %s** (%s)" : "verdict: %s (%s)", pb_gate_exit_name(h->exit_status), counts);
    else
        fprintf(f, md ? "\n%s" : "%s", counts);
    if (h->comparison_id > 0) fprintf(f, "; stored as comparison %lld", (long long)h->comparison_id);
    fprintf(f, "\n");
}
