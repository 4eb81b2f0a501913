/* SPDX-License-Identifier: GPL-2.0-only */
/* report_cells.c — lookups in a report's loaded data (report_data.h): its rows and axes, a cell's
 * stored ratio, claim and document ratio, unavailable cases, the real code's pair and its legend.
 * No SQL: report_data.c loads what these read. */
#include "report_data.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"

row *pb_report_push(rows *r)
{
    if (r->n == r->cap) {
        int cap = r->cap ? 2 * r->cap : 64;
        row *nv = realloc(r->v, (size_t)cap * sizeof *nv);
        if (!nv) return NULL;
        r->v = nv;
        r->cap = cap;
    }
    row *x = &r->v[r->n++];
    memset(x, 0, sizeof *x);
    return x;
}

int pb_report_index_of(char list[][PB_NAME_MAX], int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(list[i], s)) return i;
    return -1;
}

void pb_report_add_unique(char list[][PB_NAME_MAX], int *n, const char *s)
{
    if (pb_report_index_of(list, *n, s) < 0 && *n < MAXV) snprintf(list[(*n)++], PB_NAME_MAX, "%s", s);
}

void pb_report_axes(const rows *m, axes *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 0; i < m->n; i++) {
        pb_report_add_unique(a->v, &a->nv, m->v[i].variant);
        pb_report_add_unique(a->o, &a->no, m->v[i].op);
        char label[PB_NAME_MAX];
        snprintf(label, sizeof label, "%s", m->v[i].impl);
        pb_report_add_unique(a->impl, &a->ni, label);
        int found = 0;
        for (int k = 0; k < a->ns; k++) found |= a->sizes[k] == m->v[i].size;
        if (!found && a->ns < 64) a->sizes[a->ns++] = m->v[i].size;
    }
    /* sizes ascending */
    for (int i = 1; i < a->ns; i++)
        for (int j = i; j > 0 && a->sizes[j - 1] > a->sizes[j]; j--) {
            int64_t t = a->sizes[j]; a->sizes[j] = a->sizes[j - 1]; a->sizes[j - 1] = t;
        }
}

const row *pb_report_find(const rows *r, const char *impl, const char *variant, const char *op, int64_t size)
{
    for (int i = 0; i < r->n; i++) {
        const row *x = &r->v[i];
        if (!strcmp(x->impl, impl) && !strcmp(x->variant, variant) && !strcmp(x->op, op) &&
            (x->size == size || size < 0 || x->size == 0))
            return x;
    }
    return NULL;
}

int pb_report_ratio(const pb_report_data *d, int64_t run, const char *metric, const char *base, const char *cand,
                    const char *variant, const char *op, int64_t size, ratio *r)
{
    for (size_t i = 0; i < d->nratios; i++) {
        const ratio_row *x = &d->ratios[i];
        if (x->run == run && x->size == size && !strcmp(x->metric, metric) && !strcmp(x->base, base) &&
            !strcmp(x->cand, cand) && !strcmp(x->variant, variant) && !strcmp(x->op, op)) {
            *r = x->r;
            return 1;
        }
    }
    return 0;
}

int pb_report_unavailable(const pb_report_data *d, int64_t run, const char *impl, const char *variant,
                          const char *op)
{
    for (size_t i = 0; i < d->nunavail; i++) {
        const unavail_row *x = &d->unavail[i];
        if (x->run == run && !strcmp(x->impl, impl) && !strcmp(x->variant, variant) &&
            (!strcmp(x->op, op) || !strcmp(x->op, "-")))
            return 1;
    }
    return 0;
}

const char *pb_report_missing_reason(const pb_report_data *d, int64_t run, const char *impl, const char *variant,
                                     const char *op, char *buf, size_t cap)
{
    for (size_t i = 0; i < d->nunavail; i++) {
        const unavail_row *x = &d->unavail[i];
        if (x->run == run && !strcmp(x->impl, impl) && !strcmp(x->variant, variant) &&
            (!strcmp(x->op, op) || !strcmp(x->op, "-")) && x->reason[0]) {
            snprintf(buf, cap, "%s", x->reason);
            return buf;
        }
    }
    snprintf(buf, cap, "no result in run %lld", (long long)run);
    return buf;
}

pb_claim pb_report_claim(const pb_suite *s, const char *variant, const char *op, int64_t size, double dt)
{
    pb_cell cell;
    memset(&cell, 0, sizeof cell);
    snprintf(cell.variant, sizeof cell.variant, "%s", variant);
    snprintf(cell.op, sizeof cell.op, "%s", op);
    cell.size_bytes = (uint64_t)size;
    return pb_suite_claim(s, &cell, dt);
}

double pb_report_doc_time(const pb_suite *s, const rows *doc, const char *variant, const char *op, int64_t size)
{
    const row *b = pb_report_find(doc, s->baseline, variant, op, size);
    const row *c = pb_report_find(doc, s->candidate, variant, op, size);
    if (!b || !c || !(b->median > 0) || !(c->median > 0)) return NAN;
    double r = c->median / b->median;
    return pb_metric_higher_is_better(pb_suite_primary_metric(s)) ? 1 / r : r;
}

int pb_report_real_pair(const pb_suite *s, int guest, const char **base, const char **cand)
{
    *base = guest ? s->kmod_real : s->real_baseline;
    *cand = guest ? s->kmod_candidate : s->real_candidate;
    return *base && *cand;
}

int pb_report_real_of(const pb_report_data *d, const pb_suite *s, int64_t run, int guest, const char **base,
                      const char **cand)
{
    if (!pb_report_real_pair(s, guest, base, cand)) return 0;
    for (size_t i = 0; i < d->nratios; i++) {
        const ratio_row *x = &d->ratios[i];
        if (x->run == run && !strcmp(x->metric, PB_DEFAULT_METRIC) && !strcmp(x->base, *base) &&
            !strcmp(x->cand, *cand))
            return 1;
    }
    return 0;
}

const char *pb_report_verdict(pb_claim c, double dt, double t, const ratio *r)
{
    return pb_verdict_of_pairs(c, dt, t, r->lo, r->hi, r->n, r->shared);
}

const char *pb_report_verdict_words(const char *v, const ratio *r, const char **look, char *buf, size_t cap)
{
    const char *ab = v == pb_verdict_no_claim && r ? pb_verdict_ab(r->lo, r->hi) : NULL;
    if (look) *look = ab ? ab : v;
    if (!ab) return v;
    return pb_verdict_ab_words(r->est, r->lo, r->hi, buf, cap);
}

int pb_report_real_differs(int guest, int have, const ratio *reimpl, const ratio *real, double c)
{
    if (guest) return pb_verdict_apart(real->lo, real->hi, 1, 1, c);
    return have && pb_verdict_apart(reimpl->lo, reimpl->hi, real->lo, real->hi, c);
}

void pb_report_real_legend(FILE *f, const pb_report_data *d, const pb_suite *s, int64_t run, int guest,
                           const pb_verdict_cfg *cfg, void (*esc)(FILE *, const char *), const char *open,
                           const char *close)
{
    const char *rb, *rc;
    if (!pb_report_real_of(d, s, run, guest, &rb, &rc)) return;
    char words[1024];
    double c = cfg->real_code_threshold;
    if (guest)
        snprintf(words, sizeof words,
                 ", the re-implemented template against the kernel's own in the same boot: its time ratio (1: the "
                 "same cost) stands in the column \"real code\", and a cell whose CI lies wholly outside "
                 "[1/%.2f, %.2f] is marked \"%s\".", 1 + c, 1 + c, pb_real_mark);
    else
        snprintf(words, sizeof words,
                 ", the patch's own code at its parent and at the patch. Its time ratio stands beside the "
                 "re-implementation's with the verdict the claim gets on it: where the real code ran, that is the "
                 "answer to whether the patch holds here. A cell is marked \"%s\" when the two ratios are more "
                 "than %.0f %% apart beyond both CIs (one CI wholly above the other's times %.2f, or wholly below it "
                 "divided by %.2f): the re-implementation's answer there is not the real code's.",
                 pb_real_mark, c * 100, 1 + c, 1 + c);
    fputs(open, f);
    esc(f, "the run also timed ");
    esc(f, rc);
    esc(f, " against ");
    esc(f, rb);
    esc(f, words);
    fputs(close, f);
}
