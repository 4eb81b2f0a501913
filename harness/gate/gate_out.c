/* SPDX-License-Identifier: GPL-2.0-only */
/* gate_out.c — a comparison as a table on stdout, as markdown (CI comments) or as JSON, through
 * the gate's render table (pb_gate_renderers; gate.h). The JSON is written with jansson. */
#include "gate.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "render.h"
#include "text_out.h"

int pb_format_parse(const char *s, pb_format *f)
{
    for (int i = 0; i < PB_FMT_COUNT; i++)
        if (!strcmp(s, pb_gate_renderers[i].name)) {
            *f = (pb_format)i;
            return 0;
        }
    return -1;
}

int pb_gate_output_opt(const char *cmd, const char *name, const char *val, pb_format *fmt, pb_gate_params *gp)
{
    if (!strcmp(name, "format")) {
        if (pb_format_parse(val, fmt) == 0) return 1;
        const char *names[PB_FMT_COUNT];
        for (int i = 0; i < PB_FMT_COUNT; i++) names[i] = pb_gate_renderers[i].name;
        char list[64];
        pb_render_join_names(names, PB_FMT_COUNT, list, sizeof list);
        fprintf(stderr, "%s: --format wants %s, got '%s'\n", cmd, list, val);
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
            const char *res = cell_result(c, h->gp), *em = md && c->verdict == PB_CELL_REGRESSION ? "**" : "";
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

/* A number as the gate's JSON has always shown it, %.10g: an integer where that shows neither a
 * fraction nor an exponent (a count, an id, a size), null where it is not finite. */
static json_t *json_num(double v)
{
    if (!isfinite(v)) return json_null();
    char b[40];
    snprintf(b, sizeof b, "%.10g", v);
    if (!strpbrk(b, ".e")) return json_integer(strtoll(b, NULL, 10));
    return json_real(v);
}

static json_t *cell_json(const pb_cmp_cell *c, const pb_gate_params *gp)
{
    json_t *o = json_object();
    json_object_set_new(o, "baseline", pb_json_text(c->impl_a));
    json_object_set_new(o, "candidate", pb_json_text(c->impl_b));
    json_object_set_new(o, "variant", pb_json_text(c->variant));
    json_object_set_new(o, "op", pb_json_text(c->op));
    json_object_set_new(o, "size_bytes", json_num((double)c->size));
    json_object_set_new(o, "pairs", json_num((double)c->n));
    json_object_set_new(o, "rounds", json_num(c->rounds));
    json_object_set_new(o, "layouts", json_num(c->layouts));
    const struct { const char *k; double v; } nums[] = {
        {"ratio", c->ratio}, {"ci_lo", c->ci_lo}, {"ci_hi", c->ci_hi}, {"conf", c->conf}, {"p", c->p},
        {"p_holm", c->p_holm}, {"se_log", c->se_log}, {"noise", c->noise}, {"order_effect", c->order_effect},
        {"mdc", c->mdc}, {"calibrated_mdc", c->calibrated_mdc}, {"threshold", c->threshold},
        {"layout_lo", c->layout_lo}, {"layout_hi", c->layout_hi}, {"layout_df", c->layout_df},
    };
    for (size_t k = 0; k < sizeof nums / sizeof nums[0]; k++) json_object_set_new(o, nums[k].k, json_num(nums[k].v));
    json_object_set_new(o, "change", pb_json_text(pb_cmp_change(c, gp)));
    json_object_set_new(o, "verdict", pb_json_text(pb_cell_verdict_name(c->verdict)));
    json_object_set_new(o, "note", pb_json_text(c->note));
    return o;
}

static void print_json(FILE *f, const pb_cmp_header *h, const pb_cmp_cell *cells, size_t n)
{
    json_t *root = json_object();
    json_object_set_new(root, "title", pb_json_text(h->title ? h->title : ""));
    json_object_set_new(root, "suite", pb_json_text(h->suite));
    json_object_set_new(root, "metric", pb_json_text(h->metric));
    json_object_set_new(root, "ratio", pb_json_text("cost(candidate)/cost(baseline); > 1 is slower"));
    json_object_set_new(root, "pairing", pb_json_text(h->pairing));
    json_object_set_new(root, "gate", pb_json_text(h->gate));
    json_object_set_new(root, "alpha", json_num(h->gp->alpha));
    json_object_set_new(root, "conf", json_num(h->gp->conf));
    json_object_set_new(root, "power", json_num(h->gp->power));
    json_object_set_new(root, "correction", pb_json_text("holm"));
    json_object_set_new(root, "comparison_id", json_num((double)h->comparison_id));
    json_object_set_new(root, "verdict", pb_json_text(pb_gate_exit_name(h->exit_status)));
    json_object_set_new(root, "exit_status", json_num(h->exit_status >= 0 ? h->exit_status : NAN));
    json_object_set_new(root, "note", pb_json_text(h->note));
    json_t *list = json_array();
    for (size_t i = 0; i < n; i++) json_array_append_new(list, cell_json(&cells[i], h->gp));
    json_object_set_new(root, "cells", list);
    /* 10 significant digits, as ever: more would only show the noise */
    json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
    fputc('\n', f);
    json_decref(root);
}

/* the text and the markdown: one header, one table (print_table), one verdict line */
static void print_human(FILE *f, int md, const pb_cmp_header *h, const pb_cmp_cell *cells, size_t n)
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

static void print_text(FILE *f, const pb_cmp_header *h, const pb_cmp_cell *cells, size_t n)
{
    print_human(f, 0, h, cells, n);
}

static void print_md(FILE *f, const pb_cmp_header *h, const pb_cmp_cell *cells, size_t n)
{
    print_human(f, 1, h, cells, n);
}

const pb_gate_renderer pb_gate_renderers[PB_FMT_COUNT] = {
    [PB_FMT_TEXT] = {"text", ".txt", print_text},
    [PB_FMT_MD] = {"md", ".md", print_md},
    [PB_FMT_JSON] = {"json", ".json", print_json},
};

void pb_gate_print(FILE *f, pb_format fmt, const pb_cmp_header *h, const pb_cmp_cell *cells, size_t n)
{
    pb_gate_renderers[fmt].render(f, h, cells, n);
}
