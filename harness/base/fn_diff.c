/* SPDX-License-Identifier: GPL-2.0-only */
/* fn_diff.c — see fn_diff.h */
#include "fn_diff.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t pb_fn_rows_of(const pb_fn_row *rows, size_t n, const char *impl, const char *variant, const char *op,
                     uint64_t size, size_t *first)
{
    size_t k = 0;
    *first = 0;
    for (size_t i = 0; i < n; i++) {
        const pb_fn_row *r = &rows[i];
        if (r->size != size || strcmp(r->impl, impl) || strcmp(r->variant, variant) || strcmp(r->op, op)) {
            if (k) break;
            continue;
        }
        if (!k) *first = i;
        k++;
    }
    return k;
}

static double total(const pb_fn_row *r, size_t n)
{
    double t = 0;
    for (size_t i = 0; i < n; i++) t += r[i].insns;
    return t;
}

/* a function's instructions on one side: its row, else 0 (it did not run, or is in the rest) */
static double side(const pb_fn_row *r, size_t n, const char *func)
{
    for (size_t i = 0; i < n; i++)
        if (r[i].rank > 0 && !strcmp(r[i].func, func)) return r[i].insns;
    return 0;
}

static int by_size(const void *a, const void *b)
{
    const pb_fn_delta *x = a, *y = b;
    double ax = fabs(x->delta), ay = fabs(y->delta);
    if (ax != ay) return ax < ay ? 1 : -1;
    return strcmp(x->func, y->func);
}

/* each named function of r once into all (those of the other side already there skipped) */
static size_t add_names(pb_fn_delta *all, size_t k, const pb_fn_row *r, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (r[i].rank <= 0) continue;
        size_t j = 0;
        while (j < k && strcmp(all[j].func, r[i].func)) j++;
        if (j == k) snprintf(all[k++].func, PB_FN_NAME, "%s", r[i].func);
    }
    return k;
}

size_t pb_fn_diff(const pb_fn_row *base, size_t nb, const pb_fn_row *cand, size_t nc, pb_fn_delta *out, size_t max)
{
    if (!nb || !nc || max < 1) return 0;
    pb_fn_delta *all = calloc(nb + nc, sizeof *all);
    if (!all) return 0;
    size_t k = add_names(all, 0, base, nb);
    k = add_names(all, k, cand, nc);
    for (size_t i = 0; i < k; i++) {
        all[i].base = side(base, nb, all[i].func);
        all[i].cand = side(cand, nc, all[i].func);
        all[i].delta = all[i].cand - all[i].base;
    }
    qsort(all, k, sizeof *all, by_size);
    size_t m = k < max - 1 ? k : max - 1, n = 0;
    double shown = 0;
    for (size_t i = 0; i < m; i++) {
        if (all[i].delta == 0) break;
        out[n] = all[i];
        shown += out[n++].delta;
    }
    /* the rest closes the sum: what the rows not listed (and each side's rest row) add up to */
    pb_fn_delta *rest = &out[n++];
    memset(rest, 0, sizeof *rest);
    snprintf(rest->func, PB_FN_NAME, "%s", PB_FN_REST);
    rest->base = rest->cand = NAN;
    rest->delta = (total(cand, nc) - total(base, nb)) - shown;
    free(all);
    return n;
}

void pb_fn_grew_text(const pb_fn_delta *d, size_t n, char *buf, size_t cap)
{
    double sum = 0, covered = 0;
    for (size_t i = 0; i < n; i++) sum += d[i].delta;
    if (cap) buf[0] = 0;
    if (!(sum > 0) || !cap) return;
    int listed = 0;
    for (size_t i = 0; i < n && listed < 3 && covered < 0.8 * sum; i++) {
        if (!(d[i].delta > 0) || !strcmp(d[i].func, PB_FN_REST)) continue;
        size_t len = strlen(buf);
        snprintf(buf + len, cap - len, "%s%s %+.1f (%.0f %%)", listed ? ", " : "", d[i].func, d[i].delta,
                 100 * d[i].delta / sum);
        covered += d[i].delta;
        listed++;
    }
}

void pb_fn_diff_text(const pb_fn_delta *d, size_t n, char *buf, size_t cap)
{
    if (!cap) return;
    buf[0] = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(buf);
        snprintf(buf + len, cap - len, "%s%s %+.1f", i ? ", " : "", d[i].func, d[i].delta);
    }
}
