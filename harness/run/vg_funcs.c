/* SPDX-License-Identifier: GPL-2.0-only */
/* vg_funcs.c — a count case's instructions per function (valgrind.h, docs/counts.md). */
#include "valgrind.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reads.h"

_Static_assert(PB_FN_ID_MAX == PB_NAME_MAX, "fn_diff.h names as long as the suites' names");

/* the sum of the events named, of cost v; NaN where the file lacks one (not collected) */
static double events_sum(const pb_cg_fns *f, const uint64_t *v, const char *const *names)
{
    double s = 0;
    for (int i = 0; names[i]; i++) {
        int k = pb_cg_fns_event(f, names[i]);
        if (k < 0) return NAN;
        s += (double)v[k];
    }
    return s;
}

static void fill(pb_fn_row *r, const pb_vg_case *c, const pb_cg_fns *f, const uint64_t *v)
{
    static const char *const L1[] = {"I1mr", "D1mr", "D1mw", NULL}, *const LL[] = {"ILmr", "DLmr", "DLmw", NULL},
                             *const BR[] = {"Bcm", "Bim", NULL}, *const IR[] = {"Ir", NULL};
    double n = (double)c->iters;
    snprintf(r->impl, PB_NAME_MAX, "%s", c->impl);
    snprintf(r->variant, PB_NAME_MAX, "%s", c->variant);
    snprintf(r->op, PB_NAME_MAX, "%s", c->op);
    r->size = c->size;
    r->insns = events_sum(f, v, IR) / n;
    r->l1_miss = events_sum(f, v, L1) / n;
    r->ll_miss = events_sum(f, v, LL) / n;
    r->branch_miss = events_sum(f, v, BR) / n;
}

int pb_vg_case_funcs(pb_vg_case *c, const pb_cg_fns *f, pb_err *e)
{
    free(c->fn);
    c->fn = NULL;
    c->nfn = 0;
    if (!f->n || !c->iters) return 0;
    size_t keep = f->n < PB_FN_KEEP ? f->n : PB_FN_KEEP;
    c->fn = calloc(keep + 1, sizeof *c->fn);
    if (!c->fn) return pb_errf(e, "out of memory");
    /* f's functions are largest first by its first event, Ir (callgrind_fn.h) */
    for (size_t i = 0; i < keep; i++) {
        pb_fn_row *r = &c->fn[c->nfn++];
        fill(r, c, f, f->fn[i].cost);
        r->rank = (int)i + 1;
        snprintf(r->func, PB_FN_NAME, "%s", f->fn[i].name);
    }
    if (keep < f->n) {
        uint64_t rest[PB_CG_MAX_EVENTS] = {0};
        for (size_t i = keep; i < f->n; i++)
            for (int k = 0; k < f->counts.nevents; k++) rest[k] += f->fn[i].cost[k];
        pb_fn_row *r = &c->fn[c->nfn++];
        fill(r, c, f, rest);
        r->rank = 0;
        snprintf(r->func, PB_FN_NAME, "%s", PB_FN_REST);
    }
    return 0;
}

int pb_vg_store_funcs(pb_store *st, int64_t case_id, const pb_vg_case *c, pb_err *e)
{
    for (size_t i = 0; i < c->nfn; i++)
        if (pb_store_add_func_count(st, case_id, &c->fn[i], e) < 0) return -1;
    return 0;
}
