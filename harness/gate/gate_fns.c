/* SPDX-License-Identifier: GPL-2.0-only */
/* gate_fns.c — where the instructions of a compared cell differ, function by function (gate.h). */
#include "gate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reads.h"
#include "term.h"
#include "text_out.h"

int pb_gate_cells_fns(pb_store *st, int64_t run_a, int64_t run_b, pb_cmp_cell *cells, size_t n, pb_err *e)
{
    pb_fn_row *ra = NULL, *rb = NULL;
    size_t na = 0, nb = 0;
    int rc = pb_store_func_counts(st, run_a, NULL, &ra, &na, e);
    if (rc == 0 && run_b != run_a) rc = pb_store_func_counts(st, run_b, NULL, &rb, &nb, e);
    const pb_fn_row *vb = run_b != run_a ? rb : ra;
    size_t nvb = run_b != run_a ? nb : na;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        pb_cmp_cell *c = &cells[i];
        size_t fa, fb;
        size_t ka = pb_fn_rows_of(ra, na, c->impl_a, c->variant, c->op, c->size, &fa);
        size_t kb = pb_fn_rows_of(vb, nvb, c->impl_b, c->variant, c->op, c->size, &fb);
        c->nfn = pb_fn_diff(ra + fa, ka, vb + fb, kb, c->fn, PB_FN_SHOWN);
    }
    free(ra);
    free(rb);
    return rc;
}

static double total_of(const pb_cmp_cell *c)
{
    double t = 0;
    for (size_t k = 0; k < c->nfn; k++) t += c->fn[k].delta;
    return t;
}

/* no function of c differs by as much as the lines print (0.05 instructions per op) */
static int same_in_every_function(const pb_cmp_cell *c)
{
    for (size_t k = 0; k < c->nfn; k++)
        if (fabs(c->fn[k].delta) >= 0.05) return 0;
    return 1;
}

/* the cells that differ, each a line; those that do not, counted in one line after them (a
 * bisection's gate of one changed impl listed 27 lines of "+0.0 = (rest) +0.0" among 40) */
void pb_gate_print_fns(FILE *f, int md, const pb_cmp_cell *cells, size_t n, int width)
{
    int any = 0;
    size_t same = 0;
    for (size_t i = 0; i < n; i++) {
        const pb_cmp_cell *c = &cells[i];
        if (!c->nfn) continue;
        if (same_in_every_function(c)) {
            same++;
            continue;
        }
        if (!any++)
            fputs(md ? "\n**Where the instructions differ** (B - A per op, by function; (rest) closes the sum):\n\n"
                     : "where the instructions differ (B - A per op, by function; (rest) closes the sum):\n",
                  f);
        char cell[4 * PB_NAME_MAX + 32], list[PB_FN_SHOWN * (PB_FN_NAME + 24)], grew[600] = "",
             line[sizeof cell + sizeof list + sizeof grew + 64];
        if (strcmp(c->impl_a, c->impl_b))
            snprintf(cell, sizeof cell, "%s %s %llu %s-%s", c->variant, c->op, (unsigned long long)c->size, c->impl_b,
                     c->impl_a);
        else snprintf(cell, sizeof cell, "%s %s %s %llu", c->impl_a, c->variant, c->op, (unsigned long long)c->size);
        pb_fn_diff_text(c->fn, c->nfn, list, sizeof list);
        if (c->verdict == PB_CELL_REGRESSION) pb_fn_grew_text(c->fn, c->nfn, grew, sizeof grew);
        snprintf(line, sizeof line, "%s: %+.1f = %s%s%s", cell, total_of(c), list, grew[0] ? "; grew: " : "", grew);
        if (md) {
            fputs("- ", f);
            pb_md_text_fputs(f, line);
            fputc('\n', f);
        } else {
            /* wrapped, not cut: the rest row that closes the sum must stay on screen */
            char shown[sizeof line + 4];
            snprintf(shown, sizeof shown, "  %s", line);
            char safe[4 * sizeof shown];
            pb_term_wrap(f, width, pb_term_text(safe, sizeof safe, shown));
        }
    }
    if (!same) return;
    const char *head = any ? (md ? "\n" : "  ")
                           : (md ? "\n**Where the instructions differ:** nowhere; " : "where the instructions differ: nowhere; ");
    char line[200];
    snprintf(line, sizeof line, "%s%zu %scell%s the same in every function", head, same, any ? "other " : "",
             same == 1 ? "" : "s");
    if (md) fprintf(f, "%s\n", line);
    else pb_term_wrap(f, width, line);
}
