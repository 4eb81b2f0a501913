/* SPDX-License-Identifier: GPL-2.0-only */
/* table.c — the one table writer of the report: per cell the measured values, the paired ratio and
 * its CI, the document's ratio and the verdict, in Markdown or HTML (pb_table_writer); and every
 * other implementation's ratio against the baseline. Reads only the loaded data (report_data.h). */
#include "report_data.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "html.h"
#include "metrics.h"
#include "text_out.h"

#define MAXP 8
/* Code-generation profiles P with both <cand>@P and <base>@P among the impls. */
static int find_profiles(const axes *a, const char *base, const char *cand, char prof[][PB_NAME_MAX])
{
    int np = 0;
    size_t nc = strlen(cand);
    for (int k = 0; k < a->ni && np < MAXP; k++) {
        const char *im = a->impl[k];
        if (strncmp(im, cand, nc) || im[nc] != '@' || !im[nc + 1]) continue;
        char b[2 * PB_NAME_MAX];
        snprintf(b, sizeof b, "%s@%s", base, im + nc + 1);
        if (pb_report_index_of((char (*)[PB_NAME_MAX])a->impl, a->ni, b) >= 0)
            snprintf(prof[np++], PB_NAME_MAX, "%s", im + nc + 1);
    }
    return np;
}

/* One table, two notations: cells go through tw_cell, which writes a markdown cell or an HTML
 * cell (its text escaped by pb_html_escape: names come from the store and are untrusted). In
 * Markdown the cell's own words are written as they are ("[95% CI]" is no link) and each name
 * from the store goes in through tw_name. */
static void tw_row(pb_table_writer *t, int header)
{
    t->header = header;
    t->ncells = 0;
    t->mute = 0;
    if (!t->f) return;
    fputs(t->html ? "<tr>" : "|", t->f);
}

/* The row's end; under a Markdown header, the rule with a column for each cell the header wrote. */
static void tw_end(pb_table_writer *t)
{
    if (!t->f) return;
    fputs(t->html ? "</tr>\n" : "\n", t->f);
    if (t->header && !t->html) {
        fputs("|", t->f);
        for (int i = 0; i < t->ncells; i++) fputs("---|", t->f);
        fputs("\n", t->f);
    }
}

/* A name from the store for a tw_cell argument: as Markdown text in a Markdown table (text_out.h:
 * a '|' would end the cell, a '<' open HTML), as it is in HTML, where tw_cell escapes the whole
 * cell. One of four rotating buffers, so up to four names may stand in one cell. */
static const char *tw_name(pb_table_writer *t, const char *name)
{
    if (t->html || !t->f) return name;
    char *b = t->names[t->next++ % 4];
    pb_md_text_escape(b, sizeof t->names[0], name);
    return b;
}

static void tw_cell(pb_table_writer *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tw_cell(pb_table_writer *t, const char *fmt, ...)
{
    char b[sizeof t->names + 256];   /* room for four escaped names and the cell's own words */
    if (!t->f || t->mute) return;
    t->ncells++;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    if (!t->html) { fprintf(t->f, " %s |", b); return; }
    fputs(t->header ? "<th>" : "<td>", t->f);
    pb_html_fputs(t->f, b);
    fputs(t->header ? "</th>" : "</td>", t->f);
}

/* The column group that follows is written in t's part (pb_table_part): the cell's place in both,
 * the answer's columns in the first table, the detail's in the second. */
enum { G_KEY, G_ANSWER, G_DETAIL };
static void tw_group(pb_table_writer *t, int g)
{
    t->mute = g != G_KEY && t->part != PB_TABLE_ALL && (g == G_ANSWER) != (t->part == PB_TABLE_ANSWER);
}

/* The measured/document column: how the measured time ratio sits against the document's, and for
 * a speed-up claim how large the measured speed-up is against the document's. */
static void print_size_column(pb_table_writer *t, pb_claim cl, int have_t, const ratio *rt, double dt)
{
    if (!have_t || !isfinite(dt) || dt <= 0 || !(rt->est > 0)) { tw_cell(t, "-"); return; }
    if (cl != PB_CLAIM_EQUAL) tw_cell(t, "%.2f (speed-up %.2fx the document's)", rt->est / dt, dt / rt->est);
    else tw_cell(t, "%.2f", rt->est / dt);
}

/* a measured median in fixed notation (4 significant digits), or why there is none */
static void print_median(pb_table_writer *t, const pb_report_data *d, int64_t run, const row *x, const char *impl,
                         const char *variant, const char *op)
{
    char b[48];
    if (x) tw_cell(t, "%s", pb_fmt_sig(b, sizeof b, x->median, 4));
    else tw_cell(t, "%s", pb_report_unavailable(d, run, impl, variant, op) ? "unavailable" : "-");
}

static void print_ratio(pb_table_writer *t, int have, const ratio *r)
{
    if (have) tw_cell(t, "%.3f [%.3f, %.3f]", r->est, r->lo, r->hi);
    else tw_cell(t, "-");
}

/* What one table shows: its pair, the profiles and code layouts beside it, the real code's pair. */
typedef struct table_spec {
    const char *base, *cand, *metric, *unit;
    char prof[MAXP][PB_NAME_MAX];
    int np;                          /* code-generation profiles with both X@P */
    int nl;                          /* code layouts of the run (0: one) */
    int shared;                      /* a ratio of the table took pairs from a shared core: the core column */
    int guest;
    int real;                        /* the real code's column (pb_report_real_of) */
    int doc;                         /* the suite has a document table: its two columns */
    int sized;                       /* a cell has a size (gbench, exec: none): the bytes column */
    const pb_suite *items;           /* the suite, where it counts in items (suite.h item_unit): their columns */
    char per_item[2][64];            /* the per-item metrics' units: "ns/block", "blocks/s" */
    const char *real_base, *real_cand;
} table_spec;

/* Do the cells have sizes? gbench and exec cells have none (size 0): no "0 B" is printed for them. */
static int axes_sized(const axes *a)
{
    for (int i = 0; i < a->ns; i++)
        if (a->sizes[i] > 0) return 1;
    return 0;
}

/* The table's pair, profiles, layouts and real code for run (guest: its kernel-module rows). */
static void table_spec_of(table_spec *ts, const pb_report_data *d, const pb_suite *s, int64_t run, int guest,
                          const axes *a)
{
    memset(ts, 0, sizeof *ts);
    ts->base = s->baseline;
    ts->cand = s->candidate;
    if (guest && s->kmod_impls) {
        ts->base = s->kmod_baseline;
        ts->cand = s->kmod_candidate;
    }
    ts->guest = guest;
    ts->metric = pb_suite_primary_metric(s);
    ts->np = find_profiles(a, ts->base, ts->cand, ts->prof);
    /* a run across code layouts: the between-layout range beside each CI (docs/layout.md) */
    for (size_t i = 0; i < d->nratios; i++)
        if (d->ratios[i].run == run && d->ratios[i].r.layouts > ts->nl) ts->nl = d->ratios[i].r.layouts;
    if (ts->nl < 2) ts->nl = 0;
    /* a ratio that took pairs with a sample on a shared core (docs/layout.md, "A shared core") */
    for (size_t i = 0; i < d->nratios; i++)
        if (d->ratios[i].run == run && d->ratios[i].r.shared > 0) ts->shared = 1;
    const pb_metric *pm = pb_metric_find(ts->metric);
    ts->unit = pm ? pm->unit : ts->metric;
    ts->real = pb_report_real_of(d, s, run, guest, &ts->real_base, &ts->real_cand);
    /* gbench, exec and a plug-in's run have no published table: no column speaks of one */
    ts->doc = d->doc.n > 0;
    ts->sized = axes_sized(a);
    if (pb_suite_has_items(s)) {
        ts->items = s;
        pb_metric_unit_of(pb_metric_find("ns_per_item"), s, ts->per_item[0], sizeof ts->per_item[0]);
        pb_metric_unit_of(pb_metric_find("items_per_s"), s, ts->per_item[1], sizeof ts->per_item[1]);
    }
}

/* The size columns' headers: the bytes (where sizes are bytes) and the items of a suite with items. */
static void size_headers(pb_table_writer *t, const table_spec *ts)
{
    if (ts->sized && !(ts->items && !ts->items->item_bytes)) tw_cell(t, "bytes");
    if (ts->sized && ts->items) tw_cell(t, "%ss", ts->items->item_unit);
}

static void size_cells(pb_table_writer *t, const table_spec *ts, int64_t size)
{
    char sz[32]; /* in binary units, as the plots label them (32 KiB, not 32768) */
    if (!ts->sized) return;
    if (!ts->items || ts->items->item_bytes) tw_cell(t, "%s", pb_fmt_bytes(sz, sizeof sz, size));
    if (ts->items) tw_cell(t, "%g", pb_suite_items(ts->items, (uint64_t)size));
}

/* The per-item columns' headers (a suite with items): the baseline's and candidate's ns per item, then
 * their items/s. */
static void per_item_headers(pb_table_writer *t, const table_spec *ts)
{
    if (!ts->items) return;
    for (int k = 0; k < 2; k++) {
        tw_cell(t, "%s (%s)", tw_name(t, ts->base), ts->per_item[k]);
        tw_cell(t, "%s (%s)", tw_name(t, ts->cand), ts->per_item[k]);
    }
}

/* The per-item figures of the baseline and the candidate in a cell, from their time per op (d->t). */
static void per_item_cells(pb_table_writer *t, const pb_report_data *d, const table_spec *ts, int guest,
                           const char *variant, const char *op, int64_t size)
{
    if (!ts->items) return;
    double items = pb_suite_items(ts->items, (uint64_t)size);
    static const char *const metric[2] = {"ns_per_item", "items_per_s"};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 2; i++) {
            const row *x = NULL;
            for (int j = 0; j < d->t.n && !x; j++) {
                const row *y = &d->t.v[j];
                if (y->guest == guest && y->size == size && !strcmp(y->impl, i ? ts->cand : ts->base) &&
                    !strcmp(y->variant, variant) && !strcmp(y->op, op))
                    x = y;
            }
            double v = x && items > 0 ? pb_metric_find(metric[k])->per_item(x->median, items) : NAN;
            char b[48];
            if (isfinite(v)) tw_cell(t, "%s", pb_fmt_sig(b, sizeof b, v, 4));
            else tw_cell(t, "-");
        }
}

/* The header, in the order of every row: the answer (the verdict first: a reader at 1280 px sees
 * it, the ratio and the document's before any median), then the detail. */
static void write_header(pb_table_writer *t, table_spec *ts, const axes *a)
{
    const char *base = ts->base, *cand = ts->cand;
    tw_row(t, 1);
    tw_group(t, G_ANSWER);
    tw_cell(t, "verdict");
    tw_group(t, G_KEY);
    tw_cell(t, "variant");
    tw_cell(t, "op");
    size_headers(t, ts);
    tw_group(t, G_ANSWER);
    tw_cell(t, "time %s/%s [95%% CI]", tw_name(t, cand), tw_name(t, base));
    if (ts->doc) {
        tw_cell(t, "document time %s/%s", tw_name(t, cand), tw_name(t, base));
        tw_cell(t, "measured/document");
    }
    if (ts->real) tw_cell(t, "real code: time %s/%s [95%% CI]", tw_name(t, ts->real_cand), tw_name(t, ts->real_base));
    tw_group(t, G_DETAIL);
    tw_cell(t, "claim");
    if (ts->real && !ts->guest) tw_cell(t, "verdict on the real code");
    if (ts->nl) tw_cell(t, "between %d code layouts", ts->nl);
    for (int p = 0; p < ts->np; p++) tw_cell(t, "time %s@%s/%s@%s [95%% CI]", tw_name(t, cand), tw_name(t, ts->prof[p]),
                                              tw_name(t, base), tw_name(t, ts->prof[p]));
    if (ts->np) tw_cell(t, "code generation");
    if (ts->nl) tw_cell(t, "code layout");
    if (ts->shared) tw_cell(t, "core");
    if (ts->real) tw_cell(t, "real code");
    tw_cell(t, "%s (%s)", tw_name(t, base), ts->unit);
    tw_cell(t, "%s (%s)", tw_name(t, cand), ts->unit);
    for (int k = 0; k < a->ni; k++)
        if (strcmp(a->impl[k], base) && strcmp(a->impl[k], cand)) tw_cell(t, "%s (%s)", tw_name(t, a->impl[k]), ts->unit);
    per_item_headers(t, ts);
    tw_end(t);
}

/* One cell of a table: where it is, its re-implementation's and its real code's time ratios. */
typedef struct table_cell {
    const char *variant, *op;
    int64_t size;
    ratio rt, rr;
    int have_t, have_r;
} table_cell;

/* The medians of the baseline, the candidate and every other impl of the cell. */
static void print_medians(pb_table_writer *t, const pb_report_data *d, int64_t run, const rows *sub,
                          const table_spec *ts, const axes *a, const table_cell *c)
{
    const char *v = c->variant, *o = c->op;
    print_median(t, d, run, pb_report_find(sub, ts->base, v, o, c->size), ts->base, v, o);
    print_median(t, d, run, pb_report_find(sub, ts->cand, v, o, c->size), ts->cand, v, o);
    for (int k = 0; k < a->ni; k++) {
        if (!strcmp(a->impl[k], ts->base) || !strcmp(a->impl[k], ts->cand)) continue;
        print_median(t, d, run, pb_report_find(sub, a->impl[k], v, o, c->size), a->impl[k], v, o);
    }
}

/* The same sources built with each profile, their ratios; 1 when one differs from the faithful
 * ratio by more than the code-generation threshold (the answer moves with the compiler). */
static int print_profiles(pb_table_writer *t, const pb_report_data *d, int64_t run, const table_spec *ts,
                          const table_cell *c, double threshold)
{
    int codegen = 0;
    for (int p = 0; p < ts->np; p++) {
        char pb[2 * PB_NAME_MAX], pc[2 * PB_NAME_MAX];
        snprintf(pb, sizeof pb, "%s@%s", ts->base, ts->prof[p]);
        snprintf(pc, sizeof pc, "%s@%s", ts->cand, ts->prof[p]);
        ratio rpt;
        int have_p = pb_report_ratio(d, run, PB_DEFAULT_METRIC, pb, pc, c->variant, c->op, c->size, &rpt);
        print_ratio(t, have_p, &rpt);
        if (c->have_t && c->rt.est > 0 && have_p && fabs(rpt.est / c->rt.est - 1) > threshold) codegen = 1;
    }
    return codegen;
}

/* The document's ratio of the cell in time terms, as every ratio of the table (NaN: none). */
static double doc_time(const pb_report_data *d, const pb_suite *s, const char *metric, const table_cell *c)
{
    const row *db = pb_report_find(&d->doc, s->baseline, c->variant, c->op, c->size);
    const row *dc = pb_report_find(&d->doc, s->candidate, c->variant, c->op, c->size);
    double dr = db && dc && db->median > 0 ? dc->median / db->median : NAN;
    if (isfinite(dr) && pb_metric_higher_is_better(metric)) return 1 / dr;
    return dr;
}

/* The verdict cell of the HTML table: coloured by its class, and a text marker beside the colour. */
static void tw_verdict_cell(pb_table_writer *t, const char *look, const char *words)
{
    if (!t->f || t->mute) return;
    t->ncells++;
    pb_verdict_look lk = pb_verdict_look_of(look);
    fprintf(t->f, "<td class=\"verdict %s\">%s ", lk.css_class, lk.marker);
    pb_html_fputs(t->f, words);
    fputs("</td>", t->f);
}

/* The detail's marks: where the answer moves with the compiler, the code layout, a shared core, the real code. */
static void write_marks(pb_table_writer *t, const table_spec *ts, const table_cell *c, int codegen, int layout,
                        int shared, int differs)
{
    if (ts->np) tw_cell(t, "%s", codegen ? pb_codegen_mark : "");
    if (ts->nl) tw_cell(t, "%s", layout ? pb_layout_mark : "");
    /* the candidate's ratio took pairs from a shared core: too few on the core alone (or --quick) */
    if (ts->shared) {
        if (shared)
            tw_cell(t, "%s: %d of %d pairs%s", pb_shared_mark, c->rt.shared, c->rt.n,
                    pb_verdict_shared_most(c->rt.n, c->rt.shared) ? ", no verdict" : "");
        else tw_cell(t, "%s", "");
    }
    if (ts->real) tw_cell(t, "%s", differs ? pb_real_mark : "");
}

static void write_row(pb_table_writer *t, const pb_report_data *d, const pb_suite *s, int64_t run, const rows *sub,
                      const table_spec *ts, const axes *a, table_cell *c, const pb_verdict_cfg *cfg,
                      pb_verdict_counts *n)
{
    /* every ratio in the table is one of time (cost): bench compare and bench gate's orientation */
    c->have_t = pb_report_ratio(d, run, PB_DEFAULT_METRIC, ts->base, ts->cand, c->variant, c->op, c->size, &c->rt);
    double dt = doc_time(d, s, ts->metric, c);
    pb_claim cl = pb_report_claim(s, c->variant, c->op, c->size, dt);
    const char *v = c->have_t ? pb_report_verdict(cl, dt, cfg->tolerance, &c->rt) : pb_verdict_no_data;
    c->have_r = ts->real && pb_report_ratio(d, run, PB_DEFAULT_METRIC, ts->real_base, ts->real_cand, c->variant,
                                            c->op, c->size, &c->rr);
    /* a cell without a claim reads as the user's A/B: "faster by 32 % [30 %, 34 %]" */
    const char *look;
    char ab[96];
    const char *words = pb_report_verdict_words(v, c->have_t ? &c->rt : NULL, &look, ab, sizeof ab);
    tw_row(t, 0);
    tw_group(t, G_ANSWER);
    if (t->html) tw_verdict_cell(t, look, words); else tw_cell(t, "%s", words);
    tw_group(t, G_KEY);
    tw_cell(t, "%s", tw_name(t, c->variant));
    tw_cell(t, "%s", tw_name(t, c->op));
    size_cells(t, ts, c->size);
    tw_group(t, G_ANSWER);
    print_ratio(t, c->have_t, &c->rt);
    if (ts->doc) {
        if (isfinite(dt)) tw_cell(t, "%.3f", dt); else tw_cell(t, "-");
        print_size_column(t, cl, c->have_t, &c->rt, dt);
    }
    if (ts->real) print_ratio(t, c->have_r, &c->rr);
    tw_group(t, G_DETAIL);
    tw_cell(t, "%s", pb_claim_name(cl));
    /* the real code's own answer to the claim (docs/verdicts.md: the one that says whether the patch holds) */
    if (ts->real && !ts->guest)
        tw_cell(t, "%s", c->have_r ? pb_report_verdict_words(pb_report_verdict(cl, dt, cfg->tolerance, &c->rr), &c->rr,
                                                             NULL, ab, sizeof ab)
                                   : pb_verdict_no_data);
    if (ts->nl) {
        if (c->have_t && c->rt.layouts > 1 && isfinite(c->rt.layout_lo))
            tw_cell(t, "%.3f to %.3f", c->rt.layout_lo, c->rt.layout_hi);
        else tw_cell(t, "-");
    }
    int codegen = print_profiles(t, d, run, ts, c, cfg->codegen_threshold);
    int layout = c->have_t && c->rt.layouts > 1 &&
                 pb_verdict_straddles(cl, dt, cfg->tolerance, c->rt.layout_lo, c->rt.layout_hi);
    int shared = c->have_t && c->rt.shared > 0;
    int differs = c->have_r && pb_report_real_differs(ts->guest, c->have_t, &c->rt, &c->rr, cfg->real_code_threshold);
    write_marks(t, ts, c, codegen, layout, shared, differs);
    print_medians(t, d, run, sub, ts, a, c);
    per_item_cells(t, d, ts, ts->guest, c->variant, c->op, c->size);
    tw_end(t);
    /* the counts once per cell: the HTML page's second table writes the same rows again */
    if (t->part == PB_TABLE_DETAIL) return;
    pb_verdict_count(n, v);
    n->codegen += codegen;
    n->layout += layout;
    n->shared += shared;
    n->real_differs += differs;
}

void pb_report_table(pb_table_writer *t, const pb_report_data *d, const pb_suite *s, int64_t run, int guest,
                     const pb_verdict_cfg *cfg, pb_verdict_counts *n)
{
    const rows *m = &d->m;
    axes a;
    rows sub = {0};
    for (int i = 0; i < m->n; i++)
        if (m->v[i].guest == guest) { row *x = pb_report_push(&sub); if (x) *x = m->v[i]; }
    pb_report_axes(&sub, &a);
    table_spec ts;
    table_spec_of(&ts, d, s, run, guest, &a);
    write_header(t, &ts, &a);
    if (ts.real) n->real = 1;
    for (int vi = 0; vi < a.nv; vi++)
        for (int oi = 0; oi < a.no; oi++)
            for (int si = 0; si < a.ns; si++) {
                if (!pb_report_find(&sub, ts.base, a.v[vi], a.o[oi], a.sizes[si]) &&
                    !pb_report_find(&sub, ts.cand, a.v[vi], a.o[oi], a.sizes[si]))
                    continue;
                table_cell c = {.variant = a.v[vi], .op = a.o[oi], .size = a.sizes[si]};
                write_row(t, d, s, run, &sub, &ts, &a, &c, cfg, n);
            }
    free(sub.v);
}

/* Every other implementation's time ratio against the baseline, with its CI: the numbers of the
 * ratio figure, for a third implementation (a plug-in, a peer, a build profile) that the verdict
 * table shows only as medians. Nothing when the run stored none. */
void pb_report_other_ratios(pb_table_writer *t, const pb_report_data *d, const pb_suite *s, int64_t run)
{
    char impls[MAXV][PB_NAME_MAX];
    int ni = 0;
    for (size_t i = 0; i < d->nratios; i++) {
        const ratio_row *x = &d->ratios[i];
        if (x->run == run && !strcmp(x->metric, PB_DEFAULT_METRIC) && !strcmp(x->base, s->baseline) &&
            strcmp(x->cand, s->candidate) && strlen(x->cand) < PB_NAME_MAX && ni < MAXV)
            pb_report_add_unique(impls, &ni, x->cand);
    }
    if (!ni) return;
    rows sub = {0};
    for (int i = 0; i < d->m.n; i++)
        if (!d->m.v[i].guest) { row *x = pb_report_push(&sub); if (x) *x = d->m.v[i]; }
    axes a;
    pb_report_axes(&sub, &a);
    /* in HTML too: every command of an exec run against the first, not only the second (issue 42) */
    if (t->html) {
        fputs("<p>Every other implementation against ", t->f);
        pb_html_fputs(t->f, s->baseline);
        fputs(" (time X/", t->f);
        pb_html_fputs(t->f, s->baseline);
        fputs(" [95% CI], as in the ratio figure):</p>\n<div class=\"tbl\"><table>\n", t->f);
    } else {
        fprintf(t->f, "Every other implementation against %s (time X/%s [95%% CI], as in the ratio figure):\n\n",
                tw_name(t, s->baseline), tw_name(t, s->baseline));
    }
    tw_row(t, 1);
    int sized = axes_sized(&a);
    tw_cell(t, "variant");
    tw_cell(t, "op");
    if (sized) tw_cell(t, "bytes");
    for (int k = 0; k < ni; k++) tw_cell(t, "time %s/%s", tw_name(t, impls[k]), tw_name(t, s->baseline));
    tw_end(t);
    for (int vi = 0; vi < a.nv; vi++)
        for (int oi = 0; oi < a.no; oi++)
            for (int si = 0; si < a.ns; si++) {
                if (!pb_report_find(&sub, s->baseline, a.v[vi], a.o[oi], a.sizes[si])) continue;
                char sz[32];
                tw_row(t, 0);
                tw_cell(t, "%s", tw_name(t, a.v[vi]));
                tw_cell(t, "%s", tw_name(t, a.o[oi]));
                if (sized) tw_cell(t, "%s", pb_fmt_bytes(sz, sizeof sz, a.sizes[si]));
                for (int k = 0; k < ni; k++) {
                    ratio r;
                    int have = pb_report_ratio(d, run, PB_DEFAULT_METRIC, s->baseline, impls[k], a.v[vi], a.o[oi],
                                               a.sizes[si], &r);
                    print_ratio(t, have, &r);
                }
                tw_end(t);
            }
    fputs(t->html ? "</table></div>\n" : "\n", t->f);
    free(sub.v);
}

void pb_report_spread_table(pb_table_writer *t, const pb_report_data *d)
{
    if (!d->nspreads || !t->f) return;
    int sized = 0, split = 0;
    for (size_t i = 0; i < d->nspreads; i++) {
        sized |= d->spreads[i].size > 0;
        split |= d->spreads[i].sp.has_split;
    }
    /* the bench's own words in the notation (no text from the store) */
    static const char head[] = "Every sample, one process each, per operation: mean \u00b1 \u03c3, min \u2026 max and CPU "
                               "time (as ", tail[] = " prints them, hyperfine's figures). Not paired: the ratios above pair "
                                                     "the samples of a round.";
    if (t->html) {
        fputs("<p>", t->f);
        pb_html_fputs(t->f, head);
        fputs("<code>bench run</code>", t->f);
        pb_html_fputs(t->f, tail);
        fputs("</p>\n<div class=\"tbl\"><table>\n", t->f);
    } else
        fprintf(t->f, "%s`bench run`%s\n\n", head, tail);
    tw_row(t, 1);
    tw_cell(t, "variant");
    tw_cell(t, "op");
    if (sized) tw_cell(t, "bytes");
    tw_cell(t, "impl");
    tw_cell(t, "time (mean \u00b1 \u03c3)");
    tw_cell(t, "range (min \u2026 max)");
    if (split) { tw_cell(t, "user"); tw_cell(t, "system"); }
    else tw_cell(t, "CPU");
    tw_cell(t, "samples");
    tw_end(t);
    for (size_t i = 0; i < d->nspreads; i++) {
        const spread_row *x = &d->spreads[i];
        const pb_time_spread *sp = &x->sp;
        char a[32], b[32];
        tw_row(t, 0);
        tw_cell(t, "%s", tw_name(t, x->variant));
        tw_cell(t, "%s", tw_name(t, x->op));
        if (sized) tw_cell(t, "%s", pb_fmt_bytes(a, sizeof a, x->size));
        tw_cell(t, "%s", tw_name(t, x->impl));
        tw_cell(t, "%s \u00b1 %s", pb_fmt_ns(a, sizeof a, sp->mean), pb_fmt_ns(b, sizeof b, sp->stddev));
        tw_cell(t, "%s \u2026 %s", pb_fmt_ns(a, sizeof a, sp->min), pb_fmt_ns(b, sizeof b, sp->max));
        if (split) {
            tw_cell(t, "%s", sp->has_split ? pb_fmt_ns(a, sizeof a, sp->user) : "-");
            tw_cell(t, "%s", sp->has_split ? pb_fmt_ns(b, sizeof b, sp->sys) : "-");
        } else
            tw_cell(t, "%s", sp->has_cpu ? pb_fmt_ns(a, sizeof a, sp->cpu) : "-");
        tw_cell(t, "%lld", (long long)sp->n);
        tw_end(t);
    }
    fputs(t->html ? "</table></div>\n" : "\n", t->f);
}
