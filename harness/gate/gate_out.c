/* SPDX-License-Identifier: GPL-2.0-only */
/* gate_out.c — a comparison as people read it: the table on a terminal, or the same as Markdown
 * (a gate's section of the md document, gate_doc.h); and the options compare and gate share. */
#include "gate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "term.h"
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

/* the table's columns, in their order */
enum { C_IMPL, C_VARIANT, C_OP, C_BYTES, C_PAIRS, C_RATIO, C_CI, C_LAY, C_P, C_PH, C_MDC, C_CAL, C_THR, C_RESULT, NCOL };
static const struct { const char *head; int left; } COLS[NCOL] = {
    {"impl", 1}, {"variant", 1}, {"op", 1}, {"bytes", 0}, {"pairs", 0}, {"cost B/A", 0}, {"95% CI", 1},
    {"between layouts", 1}, {"p", 0}, {"p (Holm)", 0}, {"MDC", 0}, {"MDC (A/A)", 0}, {"threshold", 0}, {"result", 1},
};
/* what a narrow terminal loses first; the cell's name, its ratio, CI and result always stay, being the answer */
static const int DROP_ORDER[] = {C_LAY, C_P, C_PAIRS, C_CAL, C_PH, C_THR, C_MDC};
enum { NAME_MIN = 8,     /* a name column cut to fit is never narrower */
       RESULT_MIN = 22,  /* room kept for a result on its row ("no difference detected") */
       WIDTH_MIN = 40 }; /* a narrower COLUMNS is taken as this: below it no table reads */

typedef struct {
    char v[NCOL][5 * 96];   /* room for a name escaped as Markdown text */
    size_t res_len;         /* the result's length without its note (text) */
} table_row;

static void table_columns(int show[NCOL], const pb_cmp_cell *cells, size_t n)
{
    int lay = 0, sized = 0;
    for (size_t i = 0; i < n; i++) lay |= cells[i].layouts > 1, sized |= cells[i].size > 0;
    for (int k = 0; k < NCOL; k++) show[k] = 1;
    show[C_IMPL] = by_impl(cells, n), show[C_CAL] = any_calibrated(cells, n);
    show[C_THR] = n && !isnan(cells[0].threshold), show[C_LAY] = lay;
    show[C_BYTES] = sized;   /* a benchmark or a command has no size of its own: no column of zeros */
}

/* one cell's row, as Markdown (md) or as text */
static void row_values(table_row *r, int md, const pb_cmp_header *h, const pb_cmp_cell *c)
{
    char (*val)[5 * 96] = r->v, mdbuf[5 * 96];
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
    r->res_len = strlen(res);
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

static void print_md_table(FILE *f, const pb_cmp_header *h, const pb_cmp_cell *cells, size_t n)
{
    int show[NCOL];
    table_columns(show, cells, n);
    table_row r;
    for (int row = -1; row < (int)n; row++) {
        if (row < 0)
            for (int k = 0; k < NCOL; k++) snprintf(r.v[k], sizeof r.v[k], "%s", COLS[k].head);
        else row_values(&r, 1, h, &cells[row]);
        int first = 1;
        for (int k = 0; k < NCOL; k++) {
            if (!show[k]) continue;
            fprintf(f, "%s%s", first ? "| " : " | ", r.v[k]);
            first = 0;
        }
        fprintf(f, " |\n");
        if (row < 0) {
            for (int k = 0; k < NCOL; k++)
                if (show[k]) fprintf(f, "%s", COLS[k].left ? "|---" : "|---:");
            fprintf(f, "|\n");
        }
    }
}

/* ---- text: columns as wide as their longest value, lines as wide as the terminal ---- */

/* how many columns f's lines may take; 0: no limit. Only stdout is bounded (a --write file never
 * is): by COLUMNS, else by the terminal when stdout is one (term.h), never under WIDTH_MIN. */
static size_t text_width(FILE *f)
{
    int cols = f == stdout ? pb_term_width_fd(STDOUT_FILENO) : 0;
    return cols <= 0 ? 0 : cols < WIDTH_MIN ? WIDTH_MIN : (size_t)cols;
}

/* the characters of UTF-8 text s, as a terminal counts them (a wide character counted as one) */
static size_t u8_chars(const char *s)
{
    size_t k = 0;
    for (; *s; s++) k += ((unsigned char)*s & 0xC0) != 0x80;
    return k;
}

/* where s's character number i begins (its end if it has fewer) */
static size_t u8_offset(const char *s, size_t i)
{
    size_t b = 0;
    for (; s[b]; b++)
        if (((unsigned char)s[b] & 0xC0) != 0x80 && i-- == 0) return b;
    return b;
}

/* s and a line break, the cursor at column col; with a width, cut at spaces into lines that fit,
 * each further line indented; a word longer than a line is cut where the line ends */
static void put_wrapped(FILE *f, const char *s, size_t col, size_t indent, size_t width)
{
    if (indent + RESULT_MIN > width) indent = 4;   /* a further line has room, whatever the caller's column */
    while (width && *s && col + u8_chars(s) > width) {
        size_t end = u8_offset(s, width > col ? width - col : 1), cut = end;
        while (cut > 0 && s[cut] != ' ') cut--;
        size_t stop = cut;
        while (stop > 0 && s[stop - 1] == ' ') stop--;
        if (!stop) cut = stop = end;
        pb_term_paint(f, s, stop);
        fprintf(f, "\n%*s", (int)indent, "");
        for (s += cut; *s == ' ';) s++;
        col = indent;
    }
    pb_term_paint(f, s, strlen(s));
    fputc('\n', f);
}

/* s in a column w characters wide, padded on the side that aligns it; too long, cut in its middle
 * with an ellipsis: a name keeps its start and its end, which tell names apart */
static void put_cell(FILE *f, const char *s, size_t w, int left)
{
    size_t k = u8_chars(s);
    if (k > w) {
        size_t tail = (w - 1) / 2, head = w - 1 - tail;
        fprintf(f, "%.*s\xe2\x80\xa6%s", (int)u8_offset(s, head), s, s + u8_offset(s, k - tail));
        return;
    }
    if (!left) fprintf(f, "%*s", (int)(w - k), "");
    fputs(s, f);
    if (left) fprintf(f, "%*s", (int)(w - k), "");
}

/* a bounded line: leave out columns (DROP_ORDER), then cut the longest names, until a row's columns
 * and its result fit; what was left out said in note ("" if nothing). The result column's start. */
static size_t fit_columns(int show[NCOL], size_t w[NCOL], size_t width, size_t res_min, char *note, size_t cap)
{
    size_t start = 0, off = 0;
    for (int k = 0; k < C_RESULT; k++) start += show[k] ? w[k] + 2 : 0;
    note[0] = 0;
    if (!width) return start;
    for (size_t d = 0; d < sizeof DROP_ORDER / sizeof DROP_ORDER[0] && start + res_min > width; d++) {
        int k = DROP_ORDER[d];
        if (!show[k]) continue;
        show[k] = 0, start -= w[k] + 2;
        off += (size_t)snprintf(note + off, cap - off, "%s%s", off ? ", " : "left out ", COLS[k].head);
    }
    int cut = 0;
    while (start + res_min > width) {
        int widest = -1;
        for (int k = C_IMPL; k <= C_OP; k++)
            if (show[k] && w[k] > NAME_MIN && (widest < 0 || w[k] > w[widest])) widest = k;
        if (widest < 0) break;
        w[widest]--, start--, cut = 1;
    }
    if (cut && off < cap) off += (size_t)snprintf(note + off, cap - off, "%snames cut", off ? "; " : "");
    if (off && off < cap)
        snprintf(note + off, cap - off, " to fit %zu columns (all in --format md or json, or with COLUMNS=0)", width);
    return start;
}

/* a row's result from its column on; bounded and too long: the verdict there, its note on the
 * lines below (and the verdict too where its first word would not fit: a terminal narrower than
 * the table's names, ratio and CI) */
static void put_result(FILE *f, const table_row *r, size_t start, size_t width)
{
    const char *s = r->v[C_RESULT];
    if (width && start + strcspn(s, " ") > width) {
        fprintf(f, "\n    ");
        start = 4;
    }
    if (!width || start + u8_chars(s) <= width) {
        put_wrapped(f, s, start, start, width);
        return;
    }
    char res[sizeof r->v[0]];
    size_t len = r->res_len < strlen(s) ? r->res_len : strlen(s);
    snprintf(res, sizeof res, "%.*s", (int)len, s);
    put_wrapped(f, res, start, start, width);
    for (s += len; *s == ' ';) s++;
    if (!*s) return;
    fprintf(f, "    ");
    put_wrapped(f, s, 4, 7, width);
}

static void print_text_table(FILE *f, const pb_cmp_header *h, const pb_cmp_cell *cells, size_t n, size_t width)
{
    int show[NCOL];
    table_columns(show, cells, n);
    table_row *rows = calloc(n + 1, sizeof *rows);
    if (!rows) {
        fprintf(f, "(no memory for the table of %zu cells)\n", n);
        return;
    }
    size_t w[NCOL];
    for (int k = 0; k < NCOL; k++) {
        snprintf(rows[0].v[k], sizeof rows[0].v[k], "%s", COLS[k].head);
        w[k] = u8_chars(COLS[k].head);
    }
    size_t res_min = rows[0].res_len = w[C_RESULT];   /* the header's "result" on its line too */
    for (size_t i = 1; i <= n; i++) {
        row_values(&rows[i], 0, h, &cells[i - 1]);
        res_min = rows[i].res_len > res_min ? rows[i].res_len : res_min;
        for (int k = 0; k < NCOL; k++) w[k] = u8_chars(rows[i].v[k]) > w[k] ? u8_chars(rows[i].v[k]) : w[k];
    }
    char note[300];
    size_t start = fit_columns(show, w, width, res_min < RESULT_MIN ? res_min : RESULT_MIN, note, sizeof note);
    if (note[0]) {
        fprintf(f, "  ");
        put_wrapped(f, note, 2, 4, width);
    }
    for (size_t i = 0; i <= n; i++) {
        for (int k = 0; k < C_RESULT; k++) {
            if (!show[k]) continue;
            put_cell(f, rows[i].v[k], w[k], COLS[k].left);
            fprintf(f, "  ");
        }
        put_result(f, &rows[i], start, width);
    }
    free(rows);
}

void pb_gate_text_line(FILE *f, const char *s)
{
    put_wrapped(f, s, 0, 2, text_width(f));
}

/* the text and the markdown: one header, one table, one verdict line; the text's lines cut to fit
 * the terminal (text_width) */
void pb_gate_print(FILE *f, int md, const pb_cmp_header *h, const pb_cmp_cell *cells, size_t n)
{
    size_t width = md ? 0 : text_width(f);
    char counts[256];
    summary_counts(cells, n, counts, sizeof counts, h->gp);
    char title[2048], suite[256], metric[256], note[16384], line[17000];   /* escaped: up to 5 bytes a byte */
    if (md) fprintf(f, "### %s\n\n", md_text(title, sizeof title, h->title));
    else put_wrapped(f, pb_term_text(title, sizeof title, h->title ? h->title : ""), 0, 2, width);
    int lay = 0;
    for (size_t i = 0; i < n; i++) lay = lay > cells[i].layouts ? lay : cells[i].layouts;
    char how[200];
    if (lay > 1)
        snprintf(how, sizeof how, "across %d code layouts: Hodges-Lehmann ratio per layout, their mean, Student t CI "
                 "and p, variances moderated over the cells (docs/layout.md)", lay);
    else snprintf(how, sizeof how, "Hodges-Lehmann ratio, Wilcoxon signed-rank CI and p");
    if (h->method) snprintf(how, sizeof how, "%s", h->method);
    snprintf(line, sizeof line,
             "%s%s, cost = %s%s; paired by %s; %s; Holm over %zu cells, alpha %g; MDC = change found with %.0f%% power",
             md ? "" : "  ", md ? md_text(suite, sizeof suite, h->suite) : h->suite,
             pb_metric_higher_is_better(h->metric) ? "1/" : "", md ? md_text(metric, sizeof metric, h->metric) : h->metric,
             h->pairing, how, n, h->gp->alpha, 100 * h->gp->power);
    if (md) fprintf(f, "%s\n\n", line);
    else put_wrapped(f, line, 0, 4, width);
    if (h->note && h->note[0]) {
        if (md) fprintf(f, "%s\n\n", md_text(note, sizeof note, h->note));
        else {
            snprintf(line, sizeof line, "  %s", pb_term_text(note, sizeof note, h->note));
            put_wrapped(f, line, 0, 4, width);
        }
    }
    if (md) print_md_table(f, h, cells, n);
    else print_text_table(f, h, cells, n, width);
    pb_gate_print_fns(f, md, cells, n, (int)width);
    if (h->exit_status >= 0)
        snprintf(line, sizeof line, md ? "\n**verdict: %s** (%s)" : "verdict: %s (%s)", pb_gate_exit_name(h->exit_status),
                 counts);
    else snprintf(line, sizeof line, md ? "\n%s" : "%s", counts);
    if (h->comparison_id > 0)
        snprintf(line + strlen(line), sizeof line - strlen(line), "; stored as comparison %lld", (long long)h->comparison_id);
    put_wrapped(f, line, 0, 2, width);
}
