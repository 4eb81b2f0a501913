/* SPDX-License-Identifier: GPL-2.0-only */
/* finalize.c — a run's samples become its statistics and ratios (pb_store_finalize_run), in named
 * steps: read the run, load its cases and samples, check that it is complete, classify each
 * sample's core speed, derive every metric's statistics (the formulas are metrics.h's), pair the
 * samples of each cell into ratios, mark the run complete. One transaction, one cleanup path. */
#include "store.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cell_ratio.h"
#include "layout_stats.h"
#include "metrics.h"
#include "query.h"
#include "stats.h"

typedef struct raw {
    int64_t id;
    int round, rep;              /* the sample's (round, repetition): its pairing key */
    int layout;                  /* the code layout of its round */
    pb_metric_sample m;
    const char *speed;
    double tb, ta;               /* its core-sharing probes; 0: none */
    int shared;                  /* 1: it ran on a shared core (classify_core) */
} raw;

typedef struct case_row {
    int64_t id;
    char impl[PB_NAME_MAX], variant[PB_NAME_MAX], op[PB_NAME_MAX];
    int64_t size;
    raw *r;
    size_t n;
} case_row;

/* What finalize reads of the run, and what it holds while it works: freed by finalize_free. */
typedef struct finalize_ctx {
    pb_store *s;
    int64_t run;
    unsigned metrics;
    char baseline[PB_NAME_MAX], candidate[PB_NAME_MAX], primary[PB_NAME_MAX], target[64], tick[256], counter[512], suite[PB_NAME_MAX];
    case_row *cs;
    size_t ncases;
    pb_stmt *ins_s, *ins_r, *upd_speed;
    const char *const *pairs;    /* extra {candidate, baseline, ..., NULL} pairs, or NULL */
    int (*stop)(void);           /* has the run been asked to stop (SIGINT, SIGTERM)? NULL: never */
    int quick;                   /* a --quick run: its ratios keep every pair (pair_cell) */
    /* the rounds of the run's candidate against its baseline on a shared core (classify_core, pair_cell) */
    struct {
        long pairs, shared;      /* pairs of candidate/baseline, and how many had a sample on a shared core */
        int alone, every;        /* cells whose ratios took the pairs on the core alone; that kept every pair */
        double move, r_all, r_alone;   /* the largest move of the headline, |alone / all - 1|; NaN: none */
        char where[200];
    } core;
    /* the ratios of the run, held until every cell is paired: their variances across layouts are
     * moderated over the cells of each comparison (moderate_ratios) before they are written */
    struct held_ratio *held;
    size_t nheld, capheld;
} finalize_ctx;

/* Asked between cases and cells: one case's statistics take well under a second even at 50,000
 * rounds (base/stats.c is O(n log n)), so a signal is acted on within one. -1 + e once asked. */
static int stopped(const finalize_ctx *f, pb_err *e)
{
    return f->stop && f->stop() ? pb_errf(e, "run %lld: interrupted while deriving its statistics", (long long)f->run)
                                : 0;
}

/* One ratios row to be written: c against b (insert_ratio's arguments) */
typedef struct held_ratio {
    const struct case_row *c, *b;
    pb_cell_ratio r;             /* the headline (cell_ratio.h) */
    char note[200];
    size_t shared_taken;
} held_ratio;

static void copy_or(char *out, size_t cap, const char *v, const char *dflt)
{
    snprintf(out, cap, "%s", v ? v : dflt);
}

static int read_run(finalize_ctx *f, pb_err *e)
{
    pb_stmt *st;
    if (pb_db_prepare(f->s->db,
                      "SELECT metrics, baseline, primary_metric, target, tick_source, counter_source, suite,"
                      " candidate, options FROM runs WHERE id = ?1", &st) != PB_DB_OK)
        return pb_store_sqlerr(f->s, e, "read run");
    pb_db_bind_int64(st, 1, f->run);
    if (pb_db_step(st) != PB_DB_ROW) {
        pb_db_finalize(st);
        return pb_errf(e, "run %lld not found", (long long)f->run);
    }
    f->metrics = (unsigned)pb_db_column_int64(st, 0) | PB_M_NS_PER_OP; /* time always */
    copy_or(f->baseline, sizeof f->baseline, pb_db_column_text(st, 1), "old");
    copy_or(f->primary, sizeof f->primary, pb_db_column_text(st, 2), PB_DEFAULT_METRIC);
    copy_or(f->target, sizeof f->target, pb_db_column_text(st, 3), "userspace");
    copy_or(f->tick, sizeof f->tick, pb_db_column_text(st, 4), "tsc");
    copy_or(f->counter, sizeof f->counter, pb_db_column_text(st, 5), "");
    copy_or(f->suite, sizeof f->suite, pb_db_column_text(st, 6), "");
    copy_or(f->candidate, sizeof f->candidate, pb_db_column_text(st, 7), "new");
    /* runner.c writes "... quick=1 ..." into a run's options: a quick look keeps every round */
    const char *opts = pb_db_column_text(st, 8);
    f->quick = opts && strstr(opts, " quick=1 ") != NULL;
    pb_db_finalize(st);
    return 0;
}

static int load_raw(pb_store *s, case_row *c, pb_err *e)
{
    pb_stmt *st;
    if (pb_db_prepare(s->db,
                      "SELECT s.id, s.round, s.repetition, s.layout, s.tprobe_before, s.tprobe_after, "
                      PB_METRIC_SAMPLE_COLS " FROM samples s WHERE s.case_id = ?1 ORDER BY s.round, s.repetition",
                      &st) != PB_DB_OK)
        return pb_store_sqlerr(s, e, "read samples");
    pb_db_bind_int64(st, 1, c->id);
    size_t cap = 64, k = 0;
    raw *v = malloc(cap * sizeof *v);
    while (v && pb_db_step(st) == PB_DB_ROW) {
        if (k == cap) {
            raw *nv = realloc(v, (cap *= 2) * sizeof *v);
            if (!nv) { free(v); v = NULL; break; }
            v = nv;
        }
        raw *r = &v[k++];
        memset(r, 0, sizeof *r);
        r->id = pb_db_column_int64(st, 0);
        r->round = pb_db_column_int(st, 1);
        r->rep = pb_db_column_int(st, 2);
        r->layout = pb_db_column_int(st, 3);
        r->tb = pb_db_column_double(st, 4);   /* NULL reads 0: no probe */
        r->ta = pb_db_column_double(st, 5);
        pb_query_metric_sample(st, 6, &r->m);
    }
    int failed = pb_db_finalize(st) != PB_DB_OK;
    if (!v) return pb_errf(e, "out of memory reading samples");
    if (failed) { free(v); return pb_store_sqlerr(s, e, "read samples"); }
    c->r = v;
    c->n = k;
    return 0;
}

/* every measured case of the run with its samples */
static int load_cases(finalize_ctx *f, pb_err *e)
{
    pb_stmt *st;
    if (pb_db_prepare(f->s->db,
                      "SELECT id, impl, variant, op, size_bytes FROM cases WHERE run_id = ?1 AND status = 'ok'"
                      " ORDER BY id", &st) != PB_DB_OK)
        return pb_store_sqlerr(f->s, e, "read cases");
    pb_db_bind_int64(st, 1, f->run);
    size_t cap = 32;
    f->cs = calloc(cap, sizeof *f->cs);
    while (f->cs && pb_db_step(st) == PB_DB_ROW) {
        if (f->ncases == cap) {
            case_row *n2 = realloc(f->cs, (cap *= 2) * sizeof *f->cs);
            if (!n2) { free(f->cs); f->cs = NULL; f->ncases = 0; break; }
            f->cs = n2;
        }
        case_row *c = &f->cs[f->ncases++];
        memset(c, 0, sizeof *c);
        c->id = pb_db_column_int64(st, 0);
        pb_db_column_copy(st, 1, c->impl, sizeof c->impl);
        pb_db_column_copy(st, 2, c->variant, sizeof c->variant);
        pb_db_column_copy(st, 3, c->op, sizeof c->op);
        c->size = pb_db_column_int64(st, 4);
    }
    int failed = pb_db_finalize(st) != PB_DB_OK;
    if (!f->cs) return pb_errf(e, "out of memory");
    if (failed) return pb_store_sqlerr(f->s, e, "read cases");
    for (size_t i = 0; i < f->ncases; i++)
        if (stopped(f, e) < 0 || load_raw(f->s, &f->cs[i], e) < 0) return -1;
    return 0;
}

/* A run is complete only with samples, in every measured case: otherwise it would hide the earlier
 * runs ("latest complete") with nothing to show. A run whose every case is unavailable (with its
 * reason) says something; one with no case at all says nothing. */
static int check_complete(finalize_ctx *f, pb_err *e)
{
    if (f->ncases == 0) {
        pb_stmt *st;
        if (pb_db_prepare(f->s->db, "SELECT count(*) FROM cases WHERE run_id = ?1", &st) != PB_DB_OK)
            return pb_store_sqlerr(f->s, e, "read schema");
        pb_db_bind_int64(st, 1, f->run);
        int step = pb_db_step(st);
        int64_t all = step == PB_DB_ROW ? pb_db_column_int64(st, 0) : -1;
        pb_db_finalize(st);
        if (all < 0) return pb_store_sqlerr(f->s, e, "read schema");
        if (all == 0) return pb_errf(e, "run %lld has no case: nothing measured, not complete", (long long)f->run);
    }
    for (size_t i = 0; i < f->ncases; i++)
        if (f->cs[i].n == 0)
            return pb_errf(e, "run %lld: case %s/%s/%s/%lld has no sample: not complete", (long long)f->run,
                           f->cs[i].impl, f->cs[i].variant, f->cs[i].op, (long long)f->cs[i].size);
    return 0;
}

static int prepare_writes(finalize_ctx *f, pb_err *e)
{
    pb_db *db = f->s->db;
    if (pb_db_prepare(db,
                      "INSERT INTO stats (case_id, metric, unit, source, n, median, p10, p90, min, max,"
                      " n_fast, median_fast) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)"
                      " ON CONFLICT (case_id, metric) DO UPDATE SET unit = excluded.unit,"
                      " source = excluded.source, n = excluded.n, median = excluded.median,"
                      " p10 = excluded.p10, p90 = excluded.p90, min = excluded.min, max = excluded.max,"
                      " n_fast = excluded.n_fast, median_fast = excluded.median_fast", &f->ins_s) != PB_DB_OK ||
        pb_db_prepare(db,
                      "INSERT INTO ratios (run_id, suite, variant, op, size_bytes, metric, baseline, candidate,"
                      " n_pairs, estimate, ci_lo, ci_hi, conf, p_value, median_ratio, method, layouts, layout_lo,"
                      " layout_hi, per_layout, shared_pairs)"
                      " VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19,?20,?21)",
                      &f->ins_r) != PB_DB_OK ||
        pb_db_prepare(db, "UPDATE samples SET speed = ?1 WHERE id = ?2", &f->upd_speed) != PB_DB_OK)
        return pb_store_sqlerr(f->s, e, "prepare finalize");
    return 0;
}

/* The run's fastest probe defines the "fast" core state; each sample is fast, slow or mixed by
 * its probes before and after (none when it has no probe). */
static int classify_speed(finalize_ctx *f, pb_err *e)
{
    double min_probe = INFINITY;
    for (size_t i = 0; i < f->ncases; i++)
        for (size_t j = 0; j < f->cs[i].n; j++) {
            const pb_metric_sample *m = &f->cs[i].r[j].m;
            if (m->probe_before > 0 && m->probe_before < min_probe) min_probe = m->probe_before;
            if (m->probe_after > 0 && m->probe_after < min_probe) min_probe = m->probe_after;
        }
    if (!isfinite(min_probe)) return 0;
    const double lim = PB_FAST_PROBE_FACTOR * min_probe;
    for (size_t i = 0; i < f->ncases; i++)
        for (size_t j = 0; j < f->cs[i].n; j++) {
            raw *r = &f->cs[i].r[j];
            double pb = r->m.probe_before, pa = r->m.probe_after;
            if (pb <= 0 || pa <= 0) continue;
            r->speed = (pb <= lim && pa <= lim) ? "fast" : (pb > lim && pa > lim) ? "slow" : "mixed";
            pb_db_reset(f->upd_speed);
            pb_db_bind_text(f->upd_speed, 1, r->speed);
            pb_db_bind_int64(f->upd_speed, 2, r->id);
            if (pb_db_step(f->upd_speed) != PB_DB_DONE) return pb_store_sqlerr(f->s, e, "update speed");
            if (j % 8192 == 8191 && stopped(f, e) < 0) return -1;   /* a row each: 100,000 take most of a second */
        }
    return 0;
}

/* A shared core (docs/layout.md, "A shared core"): the run's fastest core-sharing probe defines the
 * core alone; a sample either of whose probes is over PB_SHARED_PROBE_FACTOR times that ran while
 * the core's other hardware thread was busy. A sample without both probes is never shared. */
static void classify_core(finalize_ctx *f)
{
    double min_t = INFINITY;
    for (size_t i = 0; i < f->ncases; i++)
        for (size_t j = 0; j < f->cs[i].n; j++) {
            const raw *r = &f->cs[i].r[j];
            if (r->tb > 0 && r->tb < min_t) min_t = r->tb;
            if (r->ta > 0 && r->ta < min_t) min_t = r->ta;
        }
    if (!isfinite(min_t)) return;
    for (size_t i = 0; i < f->ncases; i++)
        for (size_t j = 0; j < f->cs[i].n; j++) {
            raw *r = &f->cs[i].r[j];
            r->shared = pb_shared_core(r->tb, r->ta, min_t);
        }
}

/* Metric m of case c: its samples' statistics (stats). The samples' values are not stored: they are
 * derived again where they are read (query.h PB_METRIC_SAMPLE_COLS).
 * vals and fast hold c->n values each. */
static int case_metric_stats(finalize_ctx *f, const case_row *c, const pb_metric *m, double *vals, double *fast,
                             pb_err *e)
{
    size_t k = 0, kf = 0;
    for (size_t j = 0; j < c->n; j++) {
        double v = m->value(&c->r[j].m, (double)c->size);
        if (!isfinite(v)) continue;
        vals[k++] = v;
        if (c->r[j].speed && !strcmp(c->r[j].speed, "fast")) fast[kf++] = v;
    }
    if (k == 0) return 0;
    double med = pb_median(vals, k), p10 = pb_quantile(vals, k, 0.10), p90 = pb_quantile(vals, k, 0.90),
           lo = pb_quantile(vals, k, 0.0), hi = pb_quantile(vals, k, 1.0), med_fast = kf ? pb_median(fast, kf) : 0;
    if (isnan(med) || isnan(p10) || isnan(p90) || isnan(lo) || isnan(hi) || isnan(med_fast))
        return pb_errf(e, "out of memory deriving statistics");
    pb_stmt *q = f->ins_s;
    pb_db_reset(q);
    pb_db_bind_int64(q, 1, c->id);
    pb_db_bind_text(q, 2, m->name);
    pb_db_bind_text(q, 3, m->unit);
    pb_db_bind_text(q, 4, pb_metric_source(m, f->target, f->tick, f->counter));
    pb_db_bind_int64(q, 5, (int64_t)k);
    pb_db_bind_double(q, 6, med);
    pb_db_bind_double(q, 7, p10);
    pb_db_bind_double(q, 8, p90);
    pb_db_bind_double(q, 9, lo);
    pb_db_bind_double(q, 10, hi);
    pb_db_bind_int64(q, 11, (int64_t)kf);
    if (kf) pb_db_bind_double(q, 12, med_fast); else pb_db_bind_null(q, 12);
    return pb_db_step(q) == PB_DB_DONE ? 0 : pb_store_sqlerr(f->s, e, "insert stats");
}

/* every metric the run asked for, in the metrics table's order */
static int derive_stats(finalize_ctx *f, pb_err *e)
{
    for (size_t i = 0; i < f->ncases; i++) {
        if (stopped(f, e) < 0) return -1;
        const case_row *c = &f->cs[i];
        double *vals = malloc((c->n ? c->n : 1) * sizeof *vals), *fast = malloc((c->n ? c->n : 1) * sizeof *fast);
        int rc = vals && fast ? 0 : pb_errf(e, "out of memory deriving statistics");
        for (size_t m = 0; m < pb_nmetrics && rc == 0; m++)
            if ((f->metrics & pb_metrics[m].bit) && pb_metrics[m].value)
                rc = case_metric_stats(f, c, &pb_metrics[m], vals, fast, e);
        free(vals);
        free(fast);
        if (rc) return rc;
    }
    return 0;
}

/* "" if impl is the baseline itself, P if it is `baseline@P`, NULL otherwise. */
static const char *profile_of_baseline(const char *impl, const char *baseline)
{
    size_t n = strlen(baseline);
    if (strncmp(impl, baseline, n)) return NULL;
    if (!impl[n]) return "";
    return impl[n] == '@' && impl[n + 1] ? impl + n + 1 : NULL;
}

/* Is impl named `X@profile` (X not empty)? */
static int has_profile(const char *impl, const char *profile)
{
    const char *at = strrchr(impl, '@');
    return at && at != impl && !strcmp(at + 1, profile);
}

/* One ratios row of c against b: the time ratio (pass 0), or the primary metric's own when it is
 * a throughput (pass 1, the inverse of the time ratio's). */
static int insert_ratio(finalize_ctx *f, const case_row *c, const case_row *b, const pb_paired *pr,
                        const pb_layout_ratio *lr, int pass, const char *note, size_t shared_taken, pb_err *e)
{
    const char *metric = pass == 0 ? PB_DEFAULT_METRIC : f->primary;
    int inv = pass == 1 && pb_metric_higher_is_better(f->primary);
    pb_stmt *q = f->ins_r;
    pb_db_reset(q);
    pb_db_bind_int64(q, 1, f->run);
    pb_db_bind_text(q, 2, f->suite);
    pb_db_bind_text(q, 3, c->variant);
    pb_db_bind_text(q, 4, c->op);
    pb_db_bind_int64(q, 5, c->size);
    pb_db_bind_text(q, 6, metric);
    pb_db_bind_text(q, 7, b->impl);
    pb_db_bind_text(q, 8, c->impl);
    pb_db_bind_int64(q, 9, (int64_t)pr->n);
    pb_db_bind_double(q, 10, inv ? 1 / pr->estimate : pr->estimate);
    pb_db_bind_double(q, 11, inv ? 1 / pr->ci_hi : pr->ci_lo);
    pb_db_bind_double(q, 12, inv ? 1 / pr->ci_lo : pr->ci_hi);
    pb_db_bind_double(q, 13, pr->conf);
    pb_db_bind_double(q, 14, pr->p_value);
    pb_db_bind_double(q, 15, inv ? 1 / pr->median_ratio : pr->median_ratio);
    if (lr) {
        /* the layouts' own ratios, "LAYOUT:RATIO" separated by spaces (NaN: too few pairs) */
        char per[PB_STATS_MAX_LAYOUTS * 24] = "";
        size_t k = 0;
        for (int l = 0; l < PB_STATS_MAX_LAYOUTS && k < sizeof per; l++)
            if (lr->n_per_layout[l])
                k += (size_t)snprintf(per + k, sizeof per - k, "%s%d:%.6g", k ? " " : "", l,
                                      inv ? 1 / lr->per_layout[l] : lr->per_layout[l]);
        char method[600], ci[300];
        pb_layout_ci_words(lr, ci, sizeof ci);
        snprintf(method, sizeof method, "paired by round within each code layout; Hodges-Lehmann on log ratios per"
                                        " layout, mean over layouts, %s%s", ci, note);
        pb_db_bind_text(q, 16, method);
        pb_db_bind_int(q, 17, lr->nlayouts);
        pb_db_bind_double(q, 18, inv ? 1 / lr->hi : lr->lo);
        pb_db_bind_double(q, 19, inv ? 1 / lr->lo : lr->hi);
        pb_db_bind_text(q, 20, per);
    } else {
        char method[400];
        snprintf(method, sizeof method, "paired by round; Hodges-Lehmann on log ratios, Wilcoxon signed-rank CI%s",
                 note);
        pb_db_bind_text(q, 16, method);
        pb_db_bind_int(q, 17, 1);
        pb_db_bind_null(q, 18);
        pb_db_bind_null(q, 19);
        pb_db_bind_null(q, 20);
    }
    pb_db_bind_int64(q, 21, (int64_t)shared_taken);
    return pb_db_step(q) == PB_DB_DONE ? 0 : pb_store_sqlerr(f->s, e, "insert ratio");
}

/* a case's samples as (key, ns per op, layout), for pb_cell_ratio_of, into k (c->n
 * entries); alone: only those on the core alone. Returns how many. */
static size_t ns_per_op_keyed(const case_row *c, int alone, pb_keyed_layout *k)
{
    size_t n = 0;
    for (size_t i = 0; i < c->n; i++)
        if (!alone || !c->r[i].shared)
            k[n++] = (pb_keyed_layout){{c->r[i].round, c->r[i].rep}, c->r[i].m.ns / c->r[i].m.iters, c->r[i].layout};
    return n;
}

/* how many layouts the run gave c and b: the largest layout of their samples + 1 (the rounds' blocks
 * of the layouts' permutation are that long) */
static int layouts_of(const case_row *c, const case_row *b)
{
    int L = 1;
    for (size_t i = 0; i < c->n; i++)
        if (c->r[i].layout + 1 > L) L = c->r[i].layout + 1;
    for (size_t i = 0; i < b->n; i++)
        if (b->r[i].layout + 1 > L) L = b->r[i].layout + 1;
    return L;
}

/* c against b over their pairs (alone: the pairs whose samples both ran on the core alone), as
 * every cell's headline is composed (cell_ratio.h): 0, -1 (too few pairs), -2 (out of memory) */
static int pair_ratio(const case_row *c, const case_row *b, int alone, pb_cell_ratio *r)
{
    pb_keyed_layout *kc = malloc((c->n ? c->n : 1) * sizeof *kc), *kb = malloc((b->n ? b->n : 1) * sizeof *kb);
    int prc = -2;
    r->across = 0;
    if (kc && kb) {
        size_t nc = ns_per_op_keyed(c, alone, kc), nb = ns_per_op_keyed(b, alone, kb);
        prc = pb_cell_ratio_of(kc, nc, kb, nb, layouts_of(c, b), r);
    }
    free(kc);
    free(kb);
    return prc;
}

/* How many of c's and b's pairs (the same round and repetition, both with a time) have both samples
 * on the core alone; both are sorted by round, repetition (load_raw) */
static size_t pairs_alone(const case_row *c, const case_row *b)
{
    size_t n = 0;
    for (size_t i = 0, j = 0; i < c->n && j < b->n;) {
        const raw *x = &c->r[i], *y = &b->r[j];
        if (x->round != y->round || x->rep != y->rep) {
            if (x->round < y->round || (x->round == y->round && x->rep < y->rep)) i++;
            else j++;
            continue;
        }
        n += !x->shared && !y->shared && x->m.ns > 0 && y->m.ns > 0;
        i++;
        j++;
    }
    return n;
}

/* Does the estimate on the core alone keep the design? Across layouts: every stratum the pairs had
 * keeps a layout (pb_layout_poststratify then keeps the strata balanced), or, in a build without
 * strata, every layout keeps a pair. In one layout: PB_ALONE_MIN_PAIRS pairs stay. */
#define PB_ALONE_MIN_PAIRS 6
static int alone_keeps_design(const pb_cell_ratio *all, const pb_cell_ratio *alone)
{
    if (!all->across) return alone->pr.n >= PB_ALONE_MIN_PAIRS || alone->pr.n == all->pr.n;
    if (!alone->across) return 0;
    int strata = pb_layout_strata() > 1 ? pb_layout_strata() : PB_STATS_MAX_LAYOUTS;
    for (int r = 0; r < strata; r++) {
        int had = 0, kept = 0;
        for (int l = r; l < PB_STATS_MAX_LAYOUTS; l += strata) {
            had += all->lr.n_per_layout[l] > 0;
            kept += alone->lr.n_per_layout[l] > 0;
        }
        if (had && !kept) return 0;
    }
    return 1;
}

/* c against b, their samples paired by (round, repetition). Pairs with a sample on a shared core
 * (classify_core) are left out of the headline where what stays keeps the design: the ratio is then
 * the one on a core of its own, which reruns of a binary reproduce; their count and how far
 * they moved it are said (the run's noise, the ratio's method). */
static int pair_cell(finalize_ctx *f, const case_row *c, const case_row *b, pb_err *e)
{
    if (stopped(f, e) < 0) return -1;
    pb_cell_ratio all, al;
    int prc = pair_ratio(c, b, 0, &all);
    if (prc == -2) return pb_errf(e, "out of memory pairing samples");
    if (prc != 0) return 0;
    if (stopped(f, e) < 0) return -1;   /* a second pairing of as many samples follows */
    /* how many pairs had a sample on a shared core: those the pairs on the core alone lack (where
     * fewer than two are left, pair_ratio counts none: counted here) */
    int prc_a = pair_ratio(c, b, 1, &al);
    if (prc_a == -2) return pb_errf(e, "out of memory pairing samples");
    size_t alone = prc_a == 0 ? al.pr.n : pairs_alone(c, b);
    size_t shared = all.pr.n > alone ? all.pr.n - alone : 0;
    int use_alone = shared && !f->quick && prc_a == 0 && alone_keeps_design(&all, &al);
    char note[200] = "";
    if (shared && use_alone)
        snprintf(note, sizeof note, "; on the core alone: %zu of %zu pairs (%zu had a sample on a shared core)",
                 al.pr.n, all.pr.n, shared);
    else if (shared && f->quick)
        snprintf(note, sizeof note, "; every pair: %zu of %zu had a sample on a shared core (a quick run keeps"
                                    " them)", shared, all.pr.n);
    else if (shared)
        snprintf(note, sizeof note, "; every pair: %zu of %zu had a sample on a shared core, and the rest would"
                                    " leave a stratum of the code layouts without a pair", shared, all.pr.n);
    if (!strcmp(c->impl, f->candidate) && !strcmp(b->impl, f->baseline)) {
        f->core.pairs += (long)all.pr.n;
        f->core.shared += (long)shared;
        f->core.alone += use_alone;
        f->core.every += shared && !use_alone && !f->quick;
        double move = use_alone ? fabs(al.pr.estimate / all.pr.estimate - 1) : 0;
        if (use_alone && !(move <= f->core.move)) {
            f->core.move = move;
            f->core.r_all = all.pr.estimate;
            f->core.r_alone = al.pr.estimate;
            snprintf(f->core.where, sizeof f->core.where, "%s %s %lld B", c->variant, c->op, (long long)c->size);
        }
    }
    if (f->nheld == f->capheld) {
        size_t cap = f->capheld ? 2 * f->capheld : 64;
        held_ratio *h = realloc(f->held, cap * sizeof *h);
        if (!h) return pb_errf(e, "out of memory pairing samples");
        f->held = h;
        f->capheld = cap;
    }
    held_ratio *h = &f->held[f->nheld++];
    h->c = c;
    h->b = b;
    h->r = use_alone ? al : all;
    snprintf(h->note, sizeof h->note, "%s", note);
    h->shared_taken = use_alone ? 0 : shared;
    return 0;
}

/* Are held ratios a and b of one comparison (the same candidate and baseline impls)? */
static int same_comparison(const held_ratio *a, const held_ratio *b)
{
    return !strcmp(a->c->impl, b->c->impl) && !strcmp(a->b->impl, b->b->impl);
}

/* The variances of the two-way ratios of each comparison (candidate, baseline: the same impls in
 * every cell of the run) moderated together (pb_moderate_prior: Smyth's empirical Bayes, as the
 * commit gate's cells are): a cell's variance on 3 to 6 df would put a t quantile of 2.6-3.2 and a
 * CI width that varies from rerun to rerun by a third under every verdict; the cells of a run share
 * the machine, the design and its placement noise. Out of memory: the cells keep their own. */
static void moderate_ratios(finalize_ctx *f)
{
    pb_cell_ratio **grp = malloc((f->nheld ? f->nheld : 1) * sizeof *grp);
    char *done = calloc(f->nheld ? f->nheld : 1, 1);
    for (size_t i = 0; grp && done && i < f->nheld; i++) {
        if (done[i] || !pb_cell_ratio_two_way(&f->held[i].r)) continue;
        size_t k = 0;
        for (size_t j = i; j < f->nheld; j++)
            if (pb_cell_ratio_two_way(&f->held[j].r) && same_comparison(&f->held[j], &f->held[i])) {
                done[j] = 1;
                grp[k++] = &f->held[j].r;
            }
        pb_cell_ratios_moderate(grp, k);
    }
    free(grp);
    free(done);
}

/* Writes every held ratio: the time ratio, and the primary metric's where it is another */
static int insert_ratios(finalize_ctx *f, pb_err *e)
{
    int rc = 0;
    for (size_t i = 0; i < f->nheld && rc == 0; i++) {
        const held_ratio *h = &f->held[i];
        for (int pass = 0; pass < 2 && rc == 0; pass++) {
            if (pass == 1 && !strcmp(f->primary, PB_DEFAULT_METRIC)) break;
            const pb_layout_ratio *lr = h->r.across ? &h->r.lr : NULL;
            rc = insert_ratio(f, h->c, h->b, &h->r.pr, lr, pass, h->note, h->shared_taken, e);
        }
    }
    return rc;
}

/* Paired ratios within one cell: every impl against the run's baseline, and every `X@P` against
 * `baseline@P` (the same sources built with code-generation profile P), so that a report can set
 * the profile's ratio beside the faithful one. */
static int pair_ratios(finalize_ctx *f, pb_err *e)
{
    for (size_t i = 0; i < f->ncases; i++) {
        const case_row *b = &f->cs[i];
        const char *profile = profile_of_baseline(b->impl, f->baseline);
        if (!profile) continue;
        for (size_t j = 0; j < f->ncases; j++) {
            const case_row *c = &f->cs[j];
            if (j == i || strcmp(c->variant, b->variant) || strcmp(c->op, b->op) || c->size != b->size) continue;
            if (*profile && !has_profile(c->impl, profile)) continue;
            if (pair_cell(f, c, b, e) < 0) return -1;
        }
    }
    return 0;
}

/* Would pair_ratios already pair candidate c against baseline b? */
static int paired_anyway(const finalize_ctx *f, const char *c, const char *b)
{
    const char *profile = profile_of_baseline(b, f->baseline);
    return profile && (!*profile || has_profile(c, profile));
}

/* The extra pairs: in each cell where both impls ran, candidate against baseline. */
static int pair_extra(finalize_ctx *f, pb_err *e)
{
    for (const char *const *p = f->pairs; p && p[0] && p[1]; p += 2) {
        if (!strcmp(p[0], p[1]) || paired_anyway(f, p[0], p[1])) continue;
        for (size_t i = 0; i < f->ncases; i++) {
            const case_row *b = &f->cs[i];
            if (strcmp(b->impl, p[1])) continue;
            for (size_t j = 0; j < f->ncases; j++) {
                const case_row *c = &f->cs[j];
                if (strcmp(c->impl, p[0]) || strcmp(c->variant, b->variant) || strcmp(c->op, b->op) ||
                    c->size != b->size)
                    continue;
                if (pair_cell(f, c, b, e) < 0) return -1;
            }
        }
    }
    return 0;
}

static void finalize_free(finalize_ctx *f)
{
    pb_db_finalize(f->ins_s);
    pb_db_finalize(f->ins_r);
    pb_db_finalize(f->upd_speed);
    for (size_t i = 0; i < f->ncases; i++) free(f->cs[i].r);
    free(f->cs);
    free(f->held);
}

int pb_store_finalize_run(pb_store *s, int64_t run, pb_err *e)
{
    return pb_store_finalize_run_pairs(s, run, NULL, e);
}

int pb_store_finalize_run_pairs(pb_store *s, int64_t run, const char *const *pairs, pb_err *e)
{
    return pb_store_finalize_run_noted(s, run, pairs, NULL, 0, NULL, e);
}

/* What the shared core did to the run's candidate/baseline, for its noise: "" when nothing */
static void core_note(const finalize_ctx *f, char *note, size_t cap)
{
    if (!note || !cap) return;
    note[0] = 0;
    if (!f->core.shared) return;
    size_t k = (size_t)snprintf(note, cap, "%ld of %ld rounds of %s/%s ran on a shared core (a core-sharing probe"
                                           " over %.3gx the run's fastest)",
                                f->core.shared, f->core.pairs, f->candidate, f->baseline, PB_SHARED_PROBE_FACTOR);
    if (k < cap && f->core.alone)
        k += (size_t)snprintf(note + k, cap - k, "; %d cell%s take%s the rounds on the core alone, which moves a ratio"
                                                 " by up to %.1f %% (%s: %.3f, %.3f alone)",
                              f->core.alone, f->core.alone == 1 ? "" : "s", f->core.alone == 1 ? "s" : "",
                              100 * f->core.move, f->core.where, f->core.r_all, f->core.r_alone);
    if (k < cap && f->core.every)
        k += (size_t)snprintf(note + k, cap - k, "; %d cell%s keep%s every round: too few on the core alone in a"
                                                 " stratum of the code layouts", f->core.every,
                              f->core.every == 1 ? "" : "s", f->core.every == 1 ? "s" : "");
    if (k < cap && f->quick) snprintf(note + k, cap - k, "; a quick run keeps every round");
}

int pb_store_finalize_run_noted(pb_store *s, int64_t run, const char *const *pairs, char *note, size_t cap,
                                int (*stop)(void), pb_err *e)
{
    if (pb_store_begin(s, e) < 0) return -1;
    /* idempotent: a re-finalize replaces what an earlier one derived */
    char sql[256];
    snprintf(sql, sizeof sql, "DELETE FROM ratios WHERE run_id = %lld", (long long)run);
    finalize_ctx f = {.s = s, .run = run, .pairs = pairs, .stop = stop};
    f.core.move = NAN;
    int rc = pb_store_exec(s, sql, e);
    if (rc == 0) rc = read_run(&f, e);
    if (rc == 0) rc = load_cases(&f, e);
    if (rc == 0) rc = check_complete(&f, e);
    if (rc == 0) rc = prepare_writes(&f, e);
    if (rc == 0) rc = classify_speed(&f, e);
    if (rc == 0) classify_core(&f);
    if (rc == 0) rc = stopped(&f, e);
    if (rc == 0) rc = derive_stats(&f, e);
    if (rc == 0) rc = pair_ratios(&f, e);
    if (rc == 0) rc = pair_extra(&f, e);
    if (rc == 0) moderate_ratios(&f);
    if (rc == 0) rc = insert_ratios(&f, e);
    if (rc == 0) core_note(&f, note, cap);
    finalize_free(&f);
    if (rc == 0) rc = pb_store_end_run(s, run, "complete", NULL, e);
    if (rc < 0) {
        pb_store_rollback(s);
        return -1;
    }
    return pb_store_commit(s, e);
}
