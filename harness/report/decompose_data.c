/* SPDX-License-Identifier: GPL-2.0-only */
/* decompose_data.c — the cells of a decomposition (decompose.h): the time run's stored time ratios
 * and the count run's instruction ratios, matched by cell and pair. No SQL: the stored ratios are
 * read as the export reads them (report_data.h), the count run is found by the store (same_build.h). */
#include "decompose.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "query.h"
#include "report_data.h"
#include "same_build.h"

/* one instruction ratio of the count run */
typedef struct count_ratio {
    char variant[PB_NAME_MAX], op[PB_NAME_MAX], base[2 * PB_NAME_MAX], cand[2 * PB_NAME_MAX];
    int64_t size;
    double ratio;
} count_ratio;

typedef struct load_ctx {
    count_ratio *counts;
    size_t ncounts, cap_counts, cap_cells;
    pb_decomp_set *set;
    int oom;
} load_ctx;

static void each_count(void *ctx, const pb_export_ratio *r)
{
    load_ctx *x = ctx;
    if (x->oom || strcmp(r->metric, "insns_per_op")) return;
    if (pb_query_grow((void **)&x->counts, &x->cap_counts, x->ncounts, sizeof *x->counts) < 0) {
        x->oom = 1;
        return;
    }
    count_ratio *c = &x->counts[x->ncounts++];
    snprintf(c->variant, sizeof c->variant, "%s", r->variant);
    snprintf(c->op, sizeof c->op, "%s", r->op);
    snprintf(c->base, sizeof c->base, "%s", r->baseline);
    snprintf(c->cand, sizeof c->cand, "%s", r->candidate);
    c->size = r->size;
    c->ratio = r->estimate;
}

static const count_ratio *count_of(const load_ctx *x, const pb_export_ratio *r)
{
    for (size_t i = 0; i < x->ncounts; i++) {
        const count_ratio *c = &x->counts[i];
        if (c->size == r->size && !strcmp(c->variant, r->variant) && !strcmp(c->op, r->op) &&
            !strcmp(c->base, r->baseline) && !strcmp(c->cand, r->candidate))
            return c;
    }
    return NULL;
}

/* a time ratio of the time run: a cell of the set where the count run has the same pair's count */
static void each_time(void *ctx, const pb_export_ratio *r)
{
    load_ctx *x = ctx;
    if (x->oom || strcmp(r->metric, PB_DEFAULT_METRIC)) return;
    const count_ratio *c = count_of(x, r);
    pb_decomp d;
    if (!c || pb_decomp_of(r->estimate, r->ci_lo, r->ci_hi, c->ratio, &d) < 0) return;
    pb_decomp_set *s = x->set;
    if (pb_query_grow((void **)&s->v, &x->cap_cells, s->n, sizeof *s->v) < 0) {
        x->oom = 1;
        return;
    }
    pb_decomp_cell *k = &s->v[s->n++];
    memcpy(k->variant, c->variant, sizeof k->variant);
    memcpy(k->op, c->op, sizeof k->op);
    memcpy(k->base, c->base, sizeof k->base);
    memcpy(k->cand, c->cand, sizeof k->cand);
    k->size = c->size;
    k->d = d;
}

/* The count run's own words where Valgrind hid features that dispatch keys on (valgrind.c stores
 * them in runs.options): the rows of code that dispatches are not comparable with wall time. */
static void caveat_of(pb_store *st, pb_decomp_set *set)
{
    pb_run_row r;
    if (pb_store_run_row(st, set->count_run, &r, NULL) != 1) return;
    const char *at = strstr(r.options, "not comparable with wall-time rows");
    if (at) snprintf(set->caveat, sizeof set->caveat, "%s", at);
}

/* runs.suite_settings of a run, "" where NULL */
static void settings_column(void *ctx, const pb_column *c)
{
    if (!strcmp(c->name, "suite_settings") && c->text) snprintf(ctx, PB_DECOMP_TEXT, "%s", c->text);
}

/* The count run's suite settings where they are not the time run's: what the suite did otherwise
 * under valgrind (xts's child-call model, a busy-wait calibrated in time, is off there), which the
 * time per instruction then includes */
static void settings_of(pb_store *st, pb_decomp_set *set)
{
    char timed[PB_DECOMP_TEXT] = "";
    pb_store_run_columns(st, set->time_run, settings_column, timed);
    pb_store_run_columns(st, set->count_run, settings_column, set->settings);
    if (!strcmp(timed, set->settings)) set->settings[0] = 0;
}

int pb_decomp_load(pb_store *st, int64_t time_run, pb_decomp_set *set, pb_err *e)
{
    memset(set, 0, sizeof *set);
    set->time_run = time_run;
    if (pb_store_count_run_of(st, time_run, &set->count_run, e) < 0) return -1;
    if (!set->count_run) return 0;
    load_ctx x = {.set = set};
    int rc = pb_report_each_export_ratio(st, set->count_run, each_count, &x);
    if (rc == 0) rc = pb_report_each_export_ratio(st, time_run, each_time, &x);
    free(x.counts);
    if (rc < 0 || x.oom) {
        pb_decomp_free(set);
        return x.oom ? pb_errf(e, "out of memory") : pb_errf(e, "%s: reading ratios: %s", st->path, pb_db_errmsg(st->db));
    }
    caveat_of(st, set);
    settings_of(st, set);
    return 0;
}

void pb_decomp_free(pb_decomp_set *set)
{
    free(set->v);
    set->v = NULL;
    set->n = 0;
    set->count_run = 0;
}
