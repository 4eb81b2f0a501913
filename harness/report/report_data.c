/* SPDX-License-Identifier: GPL-2.0-only */
/* report_data.c — everything a suite's report draws from, loaded once: measured medians, the
 * document's rows, the stored ratios, unavailable cases and the runs' headers. All of the
 * report's SQL is here; the renderers (report_gnuplot.c, report_md.c) only read the struct. */
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

static int load_measured(pb_store *st, int64_t run, const char *metric, int guest, rows *out, pb_err *e)
{
    pb_stmt *q;
    if (pb_db_prepare(st->db,
                           "SELECT c.impl, c.variant, c.op, c.size_bytes, s.median, s.p10, s.p90"
                           " FROM cases c JOIN stats s ON s.case_id = c.id JOIN runs r ON r.id = c.run_id"
                           " WHERE c.run_id = ?1 AND s.metric = ?2 AND r.status = 'complete' ORDER BY c.id", &q) != PB_DB_OK)
        return pb_errf(e, "%s: %s", st->path, pb_db_errmsg(st->db));
    pb_db_bind_int64(q, 1, run);
    pb_db_bind_text(q, 2, metric);
    while (pb_db_step(q) == PB_DB_ROW) {
        row *x = pb_report_push(out);
        if (!x) break;
        snprintf(x->impl, sizeof x->impl, "%s", pb_db_column_text(q, 0));
        snprintf(x->variant, sizeof x->variant, "%s", pb_db_column_text(q, 1));
        snprintf(x->op, sizeof x->op, "%s", pb_db_column_text(q, 2));
        x->size = pb_db_column_int64(q, 3);
        x->median = pb_db_column_double(q, 4);
        x->p10 = pb_db_column_double(q, 5);
        x->p90 = pb_db_column_double(q, 6);
        x->guest = guest;
    }
    pb_db_finalize(q);
    return 0;
}

/* data/<suite>_doc.tsv: impl variant op size_bytes metric value */
static int load_doc(const char *dir, const char *suite, const char *metric, rows *out, pb_err *e)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s_doc.tsv", dir, suite);
    FILE *f = fopen(path, "r");
    if (!f) return 0; /* a suite without a document table: nothing to draw beside */
    char line[512];
    int ln = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        if (ln == 1 || line[0] == '#' || line[0] == '\n') continue;
        char impl[PB_NAME_MAX], variant[PB_NAME_MAX], op[PB_NAME_MAX], m[PB_NAME_MAX];
        long long size;
        double v;
        if (sscanf(line, "%47[^\t]\t%47[^\t]\t%47[^\t]\t%lld\t%47[^\t]\t%lf", impl, variant, op, &size, m, &v) != 6) {
            fclose(f);
            return pb_errf(e, "%s:%d: expected 6 tab-separated fields (impl variant op size_bytes metric value)",
                           path, ln);
        }
        if (strcmp(m, metric)) continue;
        row *x = pb_report_push(out);
        if (!x) break;
        snprintf(x->impl, sizeof x->impl, "%s", impl);
        snprintf(x->variant, sizeof x->variant, "%s", variant);
        snprintf(x->op, sizeof x->op, "%s", op);
        x->size = size;
        x->median = x->p10 = x->p90 = v;
    }
    fclose(f);
    return 0;
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

static char *dup_text(pb_stmt *q, int col)
{
    const char *t = pb_db_column_text(q, col);
    return t ? strdup((const char *)t) : NULL;
}

static int prepare(pb_store *st, const char *sql, pb_stmt **q, int64_t run, pb_err *e)
{
    if (pb_db_prepare(st->db, sql, q) != PB_DB_OK)
        return pb_errf(e, "%s: %s", st->path, pb_db_errmsg(st->db));
    pb_db_bind_int64(*q, 1, run);
    return 0;
}

/* grow *v (of *n elements of size sz) by one zeroed element; NULL when out of memory */
static void *grow(void **v, size_t *n, size_t sz)
{
    void *nv = realloc(*v, (*n + 1) * sz);
    if (!nv) return NULL;
    *v = nv;
    void *x = (char *)nv + *n * sz;
    memset(x, 0, sz);
    (*n)++;
    return x;
}

static int load_ratios(pb_store *st, int64_t run, pb_report_data *d, pb_err *e)
{
    pb_stmt *q;
    if (prepare(st, "SELECT metric, baseline, candidate, variant, op, size_bytes, estimate, ci_lo, ci_hi, p_value,"
                    " n_pairs, layouts, layout_lo, layout_hi, shared_pairs FROM ratios WHERE run_id=?1 ORDER BY id", &q,
                    run, e) < 0)
        return -1;
    int rc = 0, step;
    while ((step = pb_db_step(q)) == PB_DB_ROW) {
        ratio_row *x = grow((void **)&d->ratios, &d->nratios, sizeof *x);
        if (!x) { rc = pb_errf(e, "out of memory loading ratios"); break; }
        x->run = run;
        snprintf(x->metric, sizeof x->metric, "%s", pb_db_column_text(q, 0));
        snprintf(x->base, sizeof x->base, "%s", pb_db_column_text(q, 1));
        snprintf(x->cand, sizeof x->cand, "%s", pb_db_column_text(q, 2));
        snprintf(x->variant, sizeof x->variant, "%s", pb_db_column_text(q, 3));
        snprintf(x->op, sizeof x->op, "%s", pb_db_column_text(q, 4));
        x->size = pb_db_column_int64(q, 5);
        x->r.est = pb_db_column_double(q, 6);
        x->r.lo = pb_db_column_double(q, 7);
        x->r.hi = pb_db_column_double(q, 8);
        x->r.p = pb_db_column_double(q, 9);
        x->r.n = pb_db_column_int(q, 10);
        x->r.layouts = pb_db_column_int(q, 11);
        x->r.layout_lo = pb_db_column_type(q, 12) == PB_DB_NULL ? NAN : pb_db_column_double(q, 12);
        x->r.layout_hi = pb_db_column_type(q, 13) == PB_DB_NULL ? NAN : pb_db_column_double(q, 13);
        x->r.shared = pb_db_column_type(q, 14) == PB_DB_NULL ? 0 : pb_db_column_int(q, 14);
    }
    if (rc == 0 && step != PB_DB_DONE) rc = pb_errf(e, "%s: reading ratios: %s", st->path, pb_db_errmsg(st->db));
    pb_db_finalize(q);
    return rc;
}

static int load_unavailable(pb_store *st, int64_t run, pb_report_data *d, pb_err *e)
{
    pb_stmt *q;
    if (prepare(st, "SELECT impl, variant, op, reason FROM cases WHERE run_id=?1 AND status='unavailable'", &q, run,
                e) < 0)
        return -1;
    int rc = 0;
    while (pb_db_step(q) == PB_DB_ROW) {
        unavail_row *x = grow((void **)&d->unavail, &d->nunavail, sizeof *x);
        if (!x) { rc = pb_errf(e, "out of memory loading cases"); break; }
        x->run = run;
        snprintf(x->impl, sizeof x->impl, "%s", pb_db_column_text(q, 0));
        snprintf(x->variant, sizeof x->variant, "%s", pb_db_column_text(q, 1));
        snprintf(x->op, sizeof x->op, "%s", pb_db_column_text(q, 2));
        const char *why = pb_db_column_text(q, 3);
        snprintf(x->reason, sizeof x->reason, "%s", why ? why : "");
    }
    pb_db_finalize(q);
    if (rc < 0) return -1;
    /* the notes: one line per impl and reason, its cells listed */
    if (prepare(st, "SELECT impl, group_concat(variant || ' ' || op, ', '), min(reason) FROM cases"
                    " WHERE run_id=?1 AND status='unavailable' GROUP BY impl, reason", &q, run, e) < 0)
        return -1;
    while (pb_db_step(q) == PB_DB_ROW) {
        note_row *x = grow((void **)&d->notes, &d->nnotes, sizeof *x);
        if (!x) { rc = pb_errf(e, "out of memory loading cases"); break; }
        x->run = run;
        x->impl = dup_text(q, 0);
        x->cells = dup_text(q, 1);
        x->reason = dup_text(q, 2);
    }
    pb_db_finalize(q);
    return rc;
}

static int load_info(pb_store *st, int64_t run, run_info *ri, pb_err *e)
{
    pb_stmt *q;
    if (prepare(st,
                "SELECT started_at, git_sha, compiler, cflags, cpu_model, cpu_flags, kernel, clock_source,"
                " governor, boost, tick_source, counter_source, command_line, options, target,"
                " COALESCE(guest_kernel,''), libs, suite_settings,"
                " (SELECT CASE WHEN count(s.speed) > 0 THEN sum(CASE WHEN s.speed = 'fast' THEN 1 ELSE 0 END)"
                "   || ' of ' || count(*) END"
                "   FROM samples s JOIN cases c ON c.id = s.case_id WHERE c.run_id = runs.id),"
                " cpu_affinity, NULL, noise, loadavg_start, loadavg_end, build_parity"
                " FROM runs WHERE id = ?1", &q, run, e) < 0)
        return -1;
    ri->run = run;
    if (pb_db_step(q) == PB_DB_ROW) {
        ri->have = 1;
        for (int i = 0; i < RUN_INFO_IDENTITY; i++) ri->col[i] = dup_text(q, i);
        ri->col[RUN_INFO_PARITY] = dup_text(q, 24);
        if (ri->col[RUN_INFO_PARITY] && !*ri->col[RUN_INFO_PARITY]) {
            free(ri->col[RUN_INFO_PARITY]);
            ri->col[RUN_INFO_PARITY] = NULL;
        }
        /* column 20, the load averages, formatted here (SQLite's printf() is not PostgreSQL's) */
        int has_start = pb_db_column_type(q, 22) != PB_DB_NULL, has_end = pb_db_column_type(q, 23) != PB_DB_NULL;
        if (has_start || has_end) {
            char a[32] = "unknown", b[32] = "unknown", both[80];
            if (has_start) snprintf(a, sizeof a, "%.2f", pb_db_column_double(q, 22));
            if (has_end) snprintf(b, sizeof b, "%.2f", pb_db_column_double(q, 23));
            snprintf(both, sizeof both, "%s at start, %s at end", a, b);
            free(ri->col[20]);
            ri->col[20] = strdup(both);
        }
    }
    pb_db_finalize(q);
    if (!ri->have) return 0;
    pb_cpu_identity id;
    char words[600];
    if (pb_store_run_identity(st, run, &id, e) < 0) return -1;
    pb_cpu_identity_describe(&id, words, sizeof words);
    if (!(ri->col[RUN_INFO_IDENTITY] = strdup(words))) return pb_errf(e, "out of memory loading run %lld", (long long)run);
    return 0;
}

void pb_report_data_free(pb_report_data *d)
{
    free(d->m.v);
    free(d->doc.v);
    free(d->ratios);
    free(d->unavail);
    for (size_t i = 0; i < d->nnotes; i++) {
        free(d->notes[i].impl);
        free(d->notes[i].cells);
        free(d->notes[i].reason);
    }
    free(d->notes);
    free(d->spreads);
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < RUN_INFO_COLS; i++) free(d->info[k].col[i]);
    memset(d, 0, sizeof *d);
}

/* The spread of each of run's measured cases, where the suite's sample is one process */
static int load_spreads(pb_store *st, const pb_suite *s, pb_report_data *d, pb_err *e)
{
    if (!s->sample_words) return 0;
    for (int i = 0; i < d->m.n; i++) {
        const row *x = &d->m.v[i];
        if (x->guest) continue;
        pb_time_spread sp;
        int rc = pb_export_time_spread(st, d->run, x->impl, x->variant, x->op, x->size, &sp);
        if (rc < 0) return pb_errf(e, "reading the samples of run %lld failed", (long long)d->run);
        if (rc == 0) continue;
        spread_row *y = grow((void **)&d->spreads, &d->nspreads, sizeof *y);
        if (!y) return pb_errf(e, "out of memory");
        snprintf(y->impl, sizeof y->impl, "%s", x->impl);
        snprintf(y->variant, sizeof y->variant, "%s", x->variant);
        snprintf(y->op, sizeof y->op, "%s", x->op);
        y->size = x->size;
        y->sp = sp;
    }
    return 0;
}

int pb_report_data_load(pb_store *st, const pb_suite *s, int64_t run, int64_t guest_run, const char *data_dir,
                        pb_report_data *d, pb_err *e)
{
    const char *metric = pb_suite_primary_metric(s);
    memset(d, 0, sizeof *d);
    d->run = run;
    d->guest_run = guest_run;
    int rc = load_measured(st, run, metric, 0, &d->m, e);
    if (rc == 0 && guest_run) rc = load_measured(st, guest_run, metric, 1, &d->m, e);
    if (rc == 0 && !d->m.n)
        rc = pb_errf(e, "run %lld has no complete %s results for metric %s", (long long)run, s->name, metric);
    if (rc == 0) rc = load_doc(data_dir, s->name, metric, &d->doc, e);
    for (int k = 0; k < 2 && rc == 0; k++) {
        int64_t r = k ? guest_run : run;
        if (!r) continue;
        rc = load_ratios(st, r, d, e);
        if (rc == 0) rc = load_unavailable(st, r, d, e);
        if (rc == 0) rc = load_info(st, r, &d->info[k], e);
    }
    if (rc == 0) rc = load_spreads(st, s, d, e);
    if (rc < 0) pb_report_data_free(d);
    return rc;
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

/* What bench run needs of a suite's verdicts to find the cells near a boundary (report.h). */
struct pb_report_near {
    const pb_suite *s;
    rows doc;
    pb_verdict_cfg cfg;
};

pb_report_near *pb_report_near_open(const pb_suite *s, const char *data_dir, pb_err *e)
{
    pb_report_near *n = calloc(1, sizeof *n);
    if (!n) {
        pb_errf(e, "out of memory");
        return NULL;
    }
    n->s = s;
    if (pb_verdict_cfg_load(data_dir, s->name, &n->cfg, e) < 0 ||
        load_doc(data_dir, s->name, pb_suite_primary_metric(s), &n->doc, e) < 0) {
        pb_report_near_close(n);
        return NULL;
    }
    return n;
}

double pb_report_near_cell(void *ctx, const pb_cell *cell, double est, double lo, double hi)
{
    const pb_report_near *n = ctx;
    int64_t size = (int64_t)cell->size_bytes;
    double dt = pb_report_doc_time(n->s, &n->doc, cell->variant, cell->op, size);
    pb_claim c = pb_report_claim(n->s, cell->variant, cell->op, size, dt);
    return pb_verdict_nearness(c, dt, n->cfg.tolerance, est, lo, hi);
}

void pb_report_near_close(pb_report_near *n)
{
    if (!n) return;
    free(n->doc.v);
    free(n);
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

const pb_suite *pb_report_suite_of_run(pb_store *st, const pb_suite *s, int64_t run, pb_run_roles *r)
{
    pb_stmt *q;
    pb_err e = {{0}};
    if (prepare(st, "SELECT baseline, candidate FROM runs WHERE id = ?1", &q, run, &e) < 0) return s;
    int named = 0;
    if (pb_db_step(q) == PB_DB_ROW && pb_db_column_type(q, 0) != PB_DB_NULL && pb_db_column_type(q, 1) != PB_DB_NULL) {
        snprintf(r->base, sizeof r->base, "%s", pb_db_column_str(q, 0));
        snprintf(r->cand, sizeof r->cand, "%s", pb_db_column_str(q, 1));
        named = strcmp(r->base, s->baseline) || strcmp(r->cand, s->candidate);
    }
    pb_db_finalize(q);
    if (!named) return s;
    r->named = *s;
    r->named.baseline = r->base;
    r->named.candidate = r->cand;
    return &r->named;
}
