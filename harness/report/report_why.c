/* SPDX-License-Identifier: GPL-2.0-only */
/* report_why.c — the report's per-cell list of where the candidate and the baseline differ,
 * function by function (docs/counts.md); the rows were loaded with the report's data. */
#include "report_data.h"

#include <math.h>
#include <string.h>

#include "html.h"
#include "text_out.h"

/* the first row of each cell of the candidate, in the store's order: the cells to list */
static int first_of_cell(const pb_fn_row *v, size_t i, const char *cand)
{
    if (strcmp(v[i].impl, cand)) return 0;
    return i == 0 || strcmp(v[i - 1].impl, v[i].impl) || strcmp(v[i - 1].variant, v[i].variant) ||
           strcmp(v[i - 1].op, v[i].op) || v[i - 1].size != v[i].size;
}

static void intro(FILE *f, const pb_report_data *d, const pb_suite *s, int html)
{
    char text[1024];
    snprintf(text, sizeof text,
             "Per cell of count run %lld: %s - %s in instructions per op (callgrind's exclusive counts per "
             "function, matched by name), the functions with the largest differences first; (rest) is what the "
             "listed ones leave, so that each line sums to the total difference. docs/counts.md says what this can "
             "and cannot tell.",
             (long long)d->count_run, s->candidate, s->baseline);
    if (html) {
        fputs("<h3>Where the instructions differ</h3>\n<p>", f);
        pb_html_fputs(f, text);
        fputs("</p>\n<ul class=\"why\">\n", f);
    } else {
        fputs("## Where the instructions differ\n\n", f);
        pb_md_text_fputs(f, text);
        fputs("\n\n", f);
    }
}

void pb_report_why(FILE *f, const pb_report_data *d, const pb_suite *s, int html)
{
    int listed = 0;
    for (size_t i = 0; i < d->nfns; i++) {
        const pb_fn_row *c = &d->fns[i];
        if (!first_of_cell(d->fns, i, s->candidate)) continue;
        size_t fb, fc;
        size_t nb = pb_fn_rows_of(d->fns, d->nfns, s->baseline, c->variant, c->op, c->size, &fb);
        size_t nc = pb_fn_rows_of(d->fns, d->nfns, s->candidate, c->variant, c->op, c->size, &fc);
        pb_fn_delta delta[PB_FN_SHOWN];
        size_t n = pb_fn_diff(d->fns + fb, nb, d->fns + fc, nc, delta, PB_FN_SHOWN);
        if (!n) continue;
        if (!listed++) intro(f, d, s, html);
        double total = 0;
        for (size_t k = 0; k < n; k++) total += delta[k].delta;
        char cell[3 * PB_NAME_MAX + 32], line[PB_FN_SHOWN * (PB_FN_NAME + 24)], head[64];
        snprintf(cell, sizeof cell, "%s %s %llu", c->variant, c->op, (unsigned long long)c->size);
        snprintf(head, sizeof head, ": %+.1f = ", total);
        if (html) {
            pb_fn_diff_text(delta, n, line, sizeof line);
            fputs("<li><code>", f);
            pb_html_fputs(f, cell);
            fputs("</code>", f);
            pb_html_fputs(f, head);
            pb_html_fputs(f, line);
            fputs("</li>\n", f);
        } else {
            /* names as code spans: a function's underscores are not emphasis */
            fputs("- ", f);
            pb_md_code_fputs(f, cell);
            fputs(head, f);
            for (size_t k = 0; k < n; k++) {
                fputs(k ? ", " : "", f);
                pb_md_code_fputs(f, delta[k].func);
                fprintf(f, " %+.1f", delta[k].delta);
            }
            fputs("\n", f);
        }
    }
    if (listed) fputs(html ? "</ul>\n" : "\n", f);
}
