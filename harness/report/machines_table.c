/* SPDX-License-Identifier: GPL-2.0-only */
/* machines_table.c — the per-machine report's words (report_machines.c, docs/fleet.md): one table,
 * markdown or HTML, per cell a column per machine configuration, its legend and the columns' list;
 * the markdown file and the page's section. Names from other machines' stores reach the markdown
 * only through pb_md_text_fputs and the page only through pb_html_fputs (text_out.h, html.h). */
#include "machines.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "answer.h"
#include "fmt.h"
#include "html.h"
#include "metrics.h"
#include "text_out.h"

/* After a cell's text, the real code's: " {real code R [lo, hi] verdict: differs from the real code}"
 * (the verdict on a userspace column only, the mark where pb_report_real_differs), " {real code -}"
 * where the column has a ratio but the real code did not run, into out; nothing for a column
 * without the real code's pair or a cell of neither. */
static void real_text(char *out, size_t cap, const mreport *m, const mcol *c, const mcell *x, pb_claim cl, double dt)
{
    ratio rr, r;
    if (!cap) return;
    out[0] = 0;
    int have = pb_report_ratio(&c->d, c->run, PB_DEFAULT_METRIC, c->base, c->cand, x->variant, x->op, x->size, &r);
    if (!pb_machines_real_ratio(c, x, &rr)) {
        if (c->real && have) snprintf(out, cap, " {real code -}");
        return;
    }
    int differs = pb_report_real_differs(c->guest, have, &r, &rr, m->cfg.real_code_threshold);
    snprintf(out, cap, " {real code %.3f [%.3f, %.3f]%s%s%s%s}", rr.est, rr.lo, rr.hi, c->guest ? "" : " ",
             c->guest ? "" : pb_report_verdict(cl, dt, m->cfg.tolerance, &rr), differs ? ": " : "",
             differs ? pb_real_mark : "");
}

/* A column's summary line: the verdicts and the real code's mark, without the code-generation and
 * code-layout counts, which belong to the single-run report, not to one column. */
static void column_summary(const mcol *c, char *line, size_t len)
{
    pb_verdict_counts n = c->n;
    n.real = 0;
    /* a user's A/B has no claim to count: no line of zero claim counts (answer.h) */
    if (n.no_claim && !(n.holds + n.size_differs + n.does_not_hold + n.inconclusive)) {
        pb_answer_counts(&n, line, len);
        return;
    }
    n.codegen = n.layout = n.shared = 0;   /* a column says its verdicts; the marks are per cell */
    pb_verdict_summary(&n, line, len);
    size_t k = strlen(line);
    if (c->real && k < len) snprintf(line + k, len - k, "; %s %d", pb_real_mark, c->n.real_differs);
}

/* ---- one table, markdown or HTML ---- */

static void cell_text(FILE *f, int html, int header, const char *s)
{
    if (html) {
        fputs(header ? "<th>" : "<td>", f);
        pb_html_fputs(f, s);
        fputs(header ? "</th>" : "</td>", f);
    } else {
        fputc(' ', f);
        pb_md_text_fputs(f, s);
        fputs(" |", f);
    }
}

static void write_table(FILE *f, int html, mreport *m)
{
    const char *base = m->s->baseline, *cand = m->s->candidate;
    char b[700];
    fputs(html ? "<div class=\"tbl\"><table>\n<tr>" : "|", f);
    cell_text(f, html, 1, "variant");
    cell_text(f, html, 1, "op");
    cell_text(f, html, 1, "bytes");
    /* the fixed columns before the machines': variant, op, bytes, the document's ratio ("-" in a
     * suite without a document) and the claim (a suite may claim without one: synthetic) */
    const int nfixed = 5;
    snprintf(b, sizeof b, "document time %s/%s", cand, base);
    cell_text(f, html, 1, b);
    cell_text(f, html, 1, "claim");
    for (int k = 0; k < m->nc; k++) {
        const mcol *c = &m->c[k];
        int n = snprintf(b, sizeof b, "%s: %s/%s [95%% CI], verdict", c->label, c->cand, c->base);
        if (c->real && n > 0 && (size_t)n < sizeof b)
            snprintf(b + n, sizeof b - (size_t)n, "; {real code %s/%s [95%% CI]%s}", c->real_cand, c->real_base,
                     c->guest ? "" : ", verdict");
        cell_text(f, html, 1, b);
    }
    fputs(html ? "</tr>\n" : "\n|", f);
    if (!html) {
        for (int k = 0; k < nfixed + m->nc; k++) fputs("---|", f);
        fputs("\n", f);
    }
    /* grouped by CPU identity: rows naming each column's CPU model and identity */
    fputs(html ? "<tr>" : "|", f);
    for (int k = 0; k < nfixed; k++) cell_text(f, html, 0, k == 0 ? "CPU model" : "");
    for (int k = 0; k < m->nc; k++) cell_text(f, html, 0, m->c[k].cpu[0] ? m->c[k].cpu : "(unknown CPU)");
    fputs(html ? "</tr>\n<tr>" : "\n|", f);
    for (int k = 0; k < nfixed; k++) cell_text(f, html, 0, k == 0 ? "CPU identity" : "");
    for (int k = 0; k < m->nc; k++) cell_text(f, html, 0, m->c[k].ident[0] ? m->c[k].ident : "not recorded");
    fputs(html ? "</tr>\n" : "\n", f);
    for (int i = 0; i < m->ncells; i++) {
        const mcell *x = &m->cells[i];
        fputs(html ? "<tr>" : "|", f);
        cell_text(f, html, 0, x->variant);
        cell_text(f, html, 0, x->op);
        cell_text(f, html, 0, pb_fmt_bytes(b, sizeof b, x->size));
        double dt = pb_machines_doc_ratio(m, x->variant, x->op, x->size);
        if (isfinite(dt)) snprintf(b, sizeof b, "%.3f", dt); else snprintf(b, sizeof b, "-");
        cell_text(f, html, 0, b);
        pb_claim cl = pb_machines_claim(m, x, dt);
        cell_text(f, html, 0, pb_claim_name(cl));
        for (int k = 0; k < m->nc; k++) {
            ratio r;
            if (pb_report_ratio(&m->c[k].d, m->c[k].run, PB_DEFAULT_METRIC, m->c[k].base, m->c[k].cand, x->variant,
                                x->op, x->size, &r))
            {
                /* the between-layout range beside the CI (docs/layout.md), and the mark */
                char lay[96] = "";
                if (r.layouts > 1 && isfinite(r.layout_lo))
                    snprintf(lay, sizeof lay, " {layouts %.3f to %.3f%s}", r.layout_lo, r.layout_hi,
                             pb_verdict_straddles(cl, dt, m->cfg.tolerance, r.layout_lo, r.layout_hi)
                                 ? ": depends on code layout" : "");
                /* a cell without a claim: the A/B's way, "faster", "slower", "no detectable change" */
                const char *look;
                char ab[96];
                pb_report_verdict_words(pb_report_verdict(cl, dt, m->cfg.tolerance, &r), &r, &look, ab, sizeof ab);
                snprintf(b, sizeof b, "%.3f [%.3f, %.3f] %s%s", r.est, r.lo, r.hi, look, lay);
            }
            else
                snprintf(b, sizeof b, "-");
            size_t n = strlen(b);
            real_text(b + n, sizeof b - n, m, &m->c[k], x, cl, dt);
            cell_text(f, html, 0, b);
        }
        fputs(html ? "</tr>\n" : "\n", f);
    }
    if (html) fputs("</table></div>\n", f);
}



/* words[i] as they are, each followed by text[i] through esc (the output language's quoting), n pairs */
static void interleave(FILE *f, void (*esc)(FILE *, const char *), const char *const *words, const char *const *text,
                       int n)
{
    for (int i = 0; i < n; i++) {
        fputs(words[i], f);
        esc(f, text[i]);
    }
}

static void columns_md(FILE *f, const mreport *m)
{
    fprintf(f, "Columns (configurations), grouped by CPU identity (vendor, family, model, stepping; the model name "
               "where a run recorded none); each from its newest complete run:\n\n");
    for (int k = 0; k < m->nc; k++) {
        const mcol *c = &m->c[k];
        interleave(f, pb_md_text_fputs,
                   (const char *const[]){"- **", "**: CPU ", " (", "); machine ", " (host ", "); target ",
                                         "; CPU affinity ", "; ratio ", "/"},
                   (const char *const[]){c->label, c->cpu[0] ? c->cpu : "(unknown)", c->ident_words,
                                         c->machine[0] ? c->machine : "(none recorded)", c->host, c->target,
                                         c->affinity[0] ? c->affinity : "not recorded", c->cand, c->base},
                   9);
        fprintf(f, "; run %lld, started ", (long long)c->run);
        pb_md_text_fputs(f, c->started);
        if (c->older)
            fprintf(f, " (newest of %d runs of this configuration; older: %s%s)", c->older + 1, c->older_ids,
                    c->older > 8 ? ", ..." : "");
        char line[512];
        column_summary(c, line, sizeof line);
        fprintf(f, "; %s\n", line);
    }
    fputs("\n", f);
}

static void legend_md(FILE *f, const mreport *m)
{
    fprintf(f,
            "Every ratio is one of time per operation (cost), candidate/baseline, from the paired samples of\n"
            "one run (Hodges-Lehmann estimate, 95 %% Wilcoxon signed-rank CI): below 1 the candidate is\n"
            "faster. Verdicts as in `bench report` (docs/verdicts.md), tolerance t = %.2f from %s.\n"
            "A column `@P` is the same sources built with code-generation profile P (docs/build-profiles.md).\n",
            m->cfg.tolerance, m->cfg.source);
    if (m->s->kmod_candidate && m->s->kmod_baseline)
        fprintf(f, "Kernel-module columns (target qemu-tcg, kmod-host, import) compare %s/%s; under QEMU TCG timings\n"
                   "are emulated and only ratios within one boot mean anything.\n",
                m->s->kmod_candidate, m->s->kmod_baseline);
    if (pb_machines_any_real(m))
        fprintf(f, "Where a run also timed the real code, `{real code ...}` after a cell gives its ratio (userspace: the\n"
                   "patch's own code, with the verdict on it, which answers whether the patch holds there; kernel module:\n"
                   "the re-implemented template against the kernel's own, 1 = the same cost) and *%s* where\n"
                   "the two differ by more than %.0f %% beyond both CIs (docs/verdicts.md).\n",
                pb_real_mark, m->cfg.real_code_threshold * 100);
    fprintf(f, "\n");
}


int pb_machines_write_md(const mreport *m, const mpaths *p, pb_stage *st, pb_err *e)
{
    FILE *f = pb_stage_fopen(st, p->md, e);
    if (!f) return -1;
    fprintf(f, "# %s across machines — %s\n\n", m->s->name, m->s->title ? m->s->title : "");
    fprintf(f, "![%s: time ratios per machine and configuration](%s_machines.png)\n\n", m->s->name, m->s->name);
    legend_md(f, m);
    columns_md(f, m);
    write_table(f, 0, (mreport *)m);
    fprintf(f, "\n");
    return pb_stage_fclose(st, f, p->md, e);
}

int pb_machines_write_html(FILE *f, const mreport *m, const mpaths *p, const pb_stage *st, pb_err *e)
{
    fputs("<section id=\"machines-", f);
    pb_html_fputs(f, m->s->name);
    fputs("\">\n<h2>", f);
    pb_html_fputs(f, m->s->name);
    fputs(" across machines</h2>\n<p>Time ratio ", f);
    pb_html_fputs(f, m->s->candidate);
    fputs("/", f);
    pb_html_fputs(f, m->s->baseline);
    fprintf(f, " per cell for every machine and configuration, each from its newest complete run, grouped by CPU "
               "identity (vendor, family, model, stepping); verdicts with tolerance t = %.2f (below 1: the candidate is faster).</p>\n<figure>\n",
            m->cfg.tolerance);
    if (pb_report_html_svg(f, st, p->svg, e) < 0) return -1;
    fputs("</figure>\n<ul>\n", f);
    for (int k = 0; k < m->nc; k++) {
        const mcol *c = &m->c[k];
        char line[512];
        column_summary(c, line, sizeof line);
        interleave(f, pb_html_fputs,
                   (const char *const[]){"<li><strong>", "</strong>: CPU ", " (", "); machine ", "; CPU affinity "},
                   (const char *const[]){c->label, c->cpu, c->ident_words, c->machine,
                                         c->affinity[0] ? c->affinity : "not recorded"},
                   5);
        fprintf(f, "; run %lld, started ", (long long)c->run);
        pb_html_fputs(f, c->started);
        fputs("; ", f);
        pb_html_fputs(f, line);
        fputs("</li>\n", f);
    }
    fputs("</ul>\n", f);
    write_table(f, 1, (mreport *)m);
    fputs("</section>\n", f);
    return 0;
}
