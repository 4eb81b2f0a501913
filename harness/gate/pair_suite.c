/* SPDX-License-Identifier: GPL-2.0-only */
/* pair_suite.c — the suite as the gate runs it (pair_suite.h): pairs of impls as cells of their
 * own, reruns of a few cells, an impl against a copy of itself, two builds' suites side by side;
 * each case several instances of the suite's own case. */
#include "pair_suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nearest.h"

static int grid_has(const pb_grid *g, const char *impl)
{
    for (int i = 0; i < g->ncells; i++)
        for (int k = 0; k < g->cells[i].nimpls; k++)
            if (!strcmp(g->cells[i].impls[k], impl)) return 1;
    return 0;
}

/* two builds: one pair per impl that both grids have; the others are listed in unpaired */
static int auto_pair(gate_wrap *w, const pb_grid *ga, const pb_grid *gb, pb_err *e)
{
    w->npairs = 0;
    w->unpaired[0] = 0;
    for (int pass = 0; pass < 2; pass++) {
        const pb_grid *g = pass ? ga : gb, *other = pass ? gb : ga;
        for (int i = 0; i < g->ncells; i++)
            for (int k = 0; k < g->cells[i].nimpls; k++) {
                const char *x = g->cells[i].impls[k];
                if (w->only_impl && strcmp(x, w->only_impl)) continue;
                int seen = 0;
                for (int p = 0; p < w->npairs && !seen; p++) seen = !strcmp(w->pairs[p].real_b, x);
                if (seen) continue;
                if (!grid_has(other, x)) {
                    char item[PB_NAME_MAX + 40];
                    snprintf(item, sizeof item, "%s (only in the %s build)", x, pass ? "baseline" : "candidate");
                    if (!strstr(w->unpaired, item))
                        snprintf(w->unpaired + strlen(w->unpaired), sizeof w->unpaired - strlen(w->unpaired), "%s%s",
                                 w->unpaired[0] ? ", " : "", item);
                    continue;
                }
                if (pass) continue;   /* in both: added while walking the candidate's grid */
                if (w->npairs == GATE_MAX_PAIRS) return pb_errf(e, "more than %d impls", GATE_MAX_PAIRS);
                gate_pair *pp = &w->pairs[w->npairs++];
                if (strlen(x) + strlen(BASE_SUFFIX) >= sizeof pp->a) return pb_errf(e, "impl name %s is too long", x);
                snprintf(pp->a, sizeof pp->a, "%s" BASE_SUFFIX, x);
                snprintf(pp->b, sizeof pp->b, "%s", x);
                snprintf(pp->real_a, sizeof pp->real_a, "%s", x);
                snprintf(pp->real_b, sizeof pp->real_b, "%s", x);
            }
    }
    if (!w->npairs)
        return w->only_impl ? pb_errf(e, "impl %s is not in both builds%s%s", w->only_impl, w->unpaired[0] ? ": " : "",
                                      w->unpaired)
                            : pb_errf(e, "no impl is in both builds");
    return 0;
}

int pb_pair_two_builds(const gate_wrap *w)
{
    return w->side_a.suite != w->side_b.suite || w->side_a.opts != w->side_b.opts;
}

const gate_side *pb_pair_side_of(const gate_wrap *w, const char *impl, const char **real)
{
    for (int i = 0; i < w->npairs; i++) {
        if (!strcmp(impl, w->pairs[i].a)) { *real = w->pairs[i].real_a; return &w->side_a; }
        if (!strcmp(impl, w->pairs[i].b)) { *real = w->pairs[i].real_b; return &w->side_b; }
    }
    return NULL;
}

static int cell_has(const pb_cell *c, const char *impl)
{
    for (int j = 0; j < c->nimpls; j++)
        if (!strcmp(c->impls[j], impl)) return 1;
    return 0;
}

static const pb_cell *find_cell(const pb_grid *g, const pb_cell *like, int same_size)
{
    for (int i = 0; i < g->ncells; i++)
        if (!strcmp(g->cells[i].variant, like->variant) && !strcmp(g->cells[i].op, like->op) &&
            (!same_size || g->cells[i].size_bytes == like->size_bytes))
            return &g->cells[i];
    return NULL;
}

/* Two builds: the candidate's calibrated options (NAME=VALUE words) set on the baseline's suite.
 * An option the baseline build does not have leaves it to calibrate itself, said in the note. */
static int share_calibration(gate_wrap *w, pb_err *e)
{
    if (pb_suite_copy_calibration(w->side_b.suite, w->side_b.opts, w->side_a.suite, w->side_a.opts, w->shared,
                                  sizeof w->shared, e) < 0) {
        char why[sizeof e->msg];
        snprintf(why, sizeof why, "%s", e->msg);
        return pb_errf(e, "the baseline build %.400s", why);
    }
    return 0;
}

static int w_plan(void *opts, const pb_plan_opts *o, pb_grid *g, pb_err *e)
{
    gate_wrap *w = opts;
    pb_grid ga = {0, NULL};
    if (pb_pair_two_builds(w)) {
        /* the candidate build first: what it calibrated (suite.h calibrated_options) the baseline
         * build then uses too, rather than a calibration of its own a moment later */
        if (w->side_b.suite->plan(w->side_b.opts, o, g, e) < 0) return -1;
        if (share_calibration(w, e) < 0 || w->side_a.suite->plan(w->side_a.opts, o, &ga, e) < 0) {
            free(g->cells);
            g->cells = NULL;
            return -1;
        }
    } else {
        if (w->side_a.suite->plan(w->side_a.opts, o, &ga, e) < 0) return -1;
        g->ncells = ga.ncells;
        g->cells = malloc(((size_t)ga.ncells + 1) * sizeof *g->cells);
        if (!g->cells) { free(ga.cells); return pb_errf(e, "out of memory"); }
        memcpy(g->cells, ga.cells, (size_t)ga.ncells * sizeof *g->cells);
    }
    if (w->auto_pairs && auto_pair(w, &ga, g, e) < 0) {
        free(ga.cells);
        free(g->cells);
        g->cells = NULL;
        return -1;
    }
    size_t cap = ((size_t)g->ncells + w->nonly + 1) * (size_t)w->npairs;
    pb_cell *out = calloc(cap, sizeof *out);
    if (!out) { free(ga.cells); return pb_errf(e, "out of memory"); }
    int n = 0;
    for (int i = 0; i < g->ncells; i++) {
        const pb_cell *cb = &g->cells[i];
        const pb_cell *ca = find_cell(&ga, cb, !w->only);
        if (!ca) continue;
        for (int p = 0; p < w->npairs; p++) {
            const gate_pair *pp = &w->pairs[p];
            if (!cell_has(ca, pp->real_a) || !cell_has(cb, pp->real_b)) continue;
            pb_cell c = *cb;
            c.nimpls = 2;
            snprintf(c.impls[0], PB_NAME_MAX, "%s", pp->a);
            snprintf(c.impls[1], PB_NAME_MAX, "%s", pp->b);
            if (!w->only) { out[n++] = c; continue; }
            /* a rerun: the cells asked for, from the template of their (variant, op); sizes may be --sizes' own */
            for (size_t k = 0; k < w->nonly; k++) {
                const pb_cmp_cell *x = &w->only[k];
                if (strcmp(c.variant, x->variant) || strcmp(c.op, x->op) || strcmp(x->impl_a, pp->a) ||
                    strcmp(x->impl_b, pp->b))
                    continue;
                int dup = 0;
                for (int j = 0; j < n && !dup; j++)
                    dup = out[j].size_bytes == x->size && !strcmp(out[j].variant, x->variant) &&
                          !strcmp(out[j].op, x->op) && !strcmp(out[j].impls[1], pp->b);
                if (dup) continue;
                out[n] = c;
                out[n++].size_bytes = x->size;
            }
        }
    }
    free(ga.cells);
    free(g->cells);
    g->cells = out;
    g->ncells = n;
    if (!n) {
        if (w->npairs == 1)
            return pb_errf(e, "no cell of suite %s has both %s and %s", w->side_b.suite->name, w->pairs[0].real_a,
                           w->pairs[0].real_b);
        return pb_errf(e, "no cell of suite %s has an impl on both sides", w->side_b.suite->name);
    }
    return 0;
}

/* Every case of the gate is several instances of the suite's case, set up one
 * after the other; each sample uses one of them, picked at random. Why: the
 * same impl set up twice in one run is not always equally fast, in every round
 * of the run though not from run to run (docs/gate.md, "Instances"): where a
 * case's buffers and contexts land in memory matters. With one instance per case that is a bias of the whole run, which
 * pairing by round cannot remove and the CI does not show; with instances
 * picked at random per sample it becomes noise that the CI does show. */
#define GATE_INSTANCES 4

typedef struct multi_case {
    pb_case c[GATE_INSTANCES];
    int n;
    int last;                  /* the instance the last body call used: the one to check */
    const pb_suite *suite;     /* the side's, whose check_output it is */
    pb_rng pick;
    uint64_t errors;
} multi_case;

static void multi_body(void *p, uint64_t iters)
{
    multi_case *m = p;
    m->last = (int)(pb_rng_next(&m->pick) % (uint64_t)m->n);
    pb_case *c = &m->c[m->last];
    uint64_t e0 = c->error_count ? *c->error_count : 0;
    c->body(c->ctx, iters);
    if (c->error_count) m->errors += *c->error_count - e0;
}

/* a seeded time source (tests) is a property of the case, not of an instance: ask the first */
static double multi_seeded_ns(void *p, int round, int repetition, uint64_t iters)
{
    multi_case *m = p;
    return m->c[0].seeded_ns(m->c[0].ctx, round, repetition, iters);
}

/* so is a measurement outside this process (suite.h external_sample): the first instance's, which
 * its CPU time's split (w_cpu_split) then reads */
static int multi_external_sample(void *p, int64_t *iterations, double *ns, double *cpu_ns, pb_err *e)
{
    multi_case *m = p;
    m->last = 0;
    return m->c[0].external_sample(m->c[0].ctx, iterations, ns, cpu_ns, e);
}

/* the user and system parts of the last sample's CPU time (suite.h cpu_split), from the side's case */
static int w_cpu_split(void *p, double *user_ns, double *sys_ns)
{
    multi_case *m = p;
    return m->suite->cpu_split ? m->suite->cpu_split(m->c[m->last].ctx, user_ns, sys_ns) : 0;
}

static void multi_free(void *p)
{
    multi_case *m = p;
    for (int i = 0; i < m->n; i++)
        if (m->c[i].free_ctx) m->c[i].free_ctx(m->c[i].ctx);
    free(m);
}

static pb_setup_status w_setup(void *opts, const pb_cell *cell, const char *impl, pb_case *c, pb_err *e)
{
    gate_wrap *w = opts;
    const char *real = NULL;
    const gate_side *side = pb_pair_side_of(w, impl, &real);
    if (!side) return pb_errf(e, "gate: impl %s is on neither side", impl);
    multi_case *m = calloc(1, sizeof *m);
    if (!m) return pb_errf(e, "out of memory");
    pb_rng_seed(&m->pick, 0x6761746521ull + w->instances_set_up++);
    m->suite = side->suite;
    for (; m->n < GATE_INSTANCES; m->n++) {
        pb_setup_status st = side->suite->setup_case(side->opts, cell, real, &m->c[m->n], e);
        if (st != PB_SETUP_OK) {
            multi_free(m);
            return st;
        }
    }
    c->body = multi_body;
    c->ctx = m;
    c->free_ctx = multi_free;
    c->error_count = &m->errors;
    if (m->c[0].seeded_ns) c->seeded_ns = multi_seeded_ns;
    if (m->c[0].external_sample) c->external_sample = multi_external_sample;
    return PB_SETUP_OK;
}

/* the side's hooks (suite.h user_code, user_object, check_output), on the side's options and real name */
static int w_user_code(const void *opts, const char *impl, char *what, size_t cap)
{
    const gate_wrap *w = opts;
    const char *real = NULL;
    const gate_side *side = pb_pair_side_of(w, impl, &real);
    return side ? pb_suite_user_code(side->suite, side->opts, real, what, cap) : 0;
}

static int w_user_object(const void *opts, const char *impl, char *path, size_t cap)
{
    const gate_wrap *w = opts;
    const char *real = NULL;
    const gate_side *side = pb_pair_side_of(w, impl, &real);
    return side ? pb_suite_user_object(side->suite, side->opts, real, path, cap) : 0;
}

static int w_check_output(void *ctx, pb_err *e)
{
    multi_case *m = ctx;
    return pb_suite_check_output(m->suite, m->c[m->last].ctx, e);
}

static int w_selftest(const void *opts, const char *impl, pb_err *e)
{
    const gate_wrap *w = opts;
    const char *real = NULL;
    const gate_side *side = pb_pair_side_of(w, impl, &real);
    if (!side) return pb_errf(e, "gate: impl %s is on neither side", impl);
    return pb_suite_selftest(side->suite, side->opts, real, e);
}

/* The sides' cell hooks (suite.h cell_begin, cell_end: exec --setup, --cleanup), each on its own
 * options, for the cell as that side names its impls: the real names of the cell's impls on that
 * side, each once (an A/A gate's X and X~aa are one command). One build: one call for both sides. */
static int w_cell_hook(void *opts, const pb_cell *cell, int end, pb_err *e)
{
    gate_wrap *w = opts;
    int two = pb_pair_two_builds(w);
    for (int k = 0; k < (two ? 2 : 1); k++) {
        const gate_side *side = k ? &w->side_b : &w->side_a;
        int (*hook)(void *, const pb_cell *, pb_err *) = end ? side->suite->cell_end : side->suite->cell_begin;
        if (!hook) continue;
        pb_cell c = *cell;
        c.nimpls = 0;
        for (int i = 0; i < cell->nimpls; i++) {
            const char *real = NULL;
            const gate_side *of = pb_pair_side_of(w, cell->impls[i], &real);
            if (!of || (two && of != side) || cell_has(&c, real)) continue;
            snprintf(c.impls[c.nimpls++], PB_NAME_MAX, "%s", real);
        }
        if (c.nimpls && hook(side->opts, &c, e) < 0) return -1;
    }
    return 0;
}

static int w_cell_begin(void *opts, const pb_cell *cell, pb_err *e) { return w_cell_hook(opts, cell, 0, e); }
static int w_cell_end(void *opts, const pb_cell *cell, pb_err *e) { return w_cell_hook(opts, cell, 1, e); }

/* what the sides derived at start-up (suite.h effective_options), for runs.suite_settings */
static const char *w_effective(const void *opts)
{
    const gate_wrap *w = opts;
    const pb_suite *sa = w->side_a.suite, *sb = w->side_b.suite;
    const char *ea = pb_suite_effective_options(sa, w->side_a.opts);
    if (!pb_pair_two_builds(w)) return ea;
    const char *eb = pb_suite_effective_options(sb, w->side_b.opts);
    gate_wrap *mw = (gate_wrap *)w;   /* the text lives in the wrap, which the runner treats as opaque */
    snprintf(mw->effective, sizeof mw->effective, "baseline build: %s; candidate build: %s", ea && *ea ? ea : "-",
             eb && *eb ? eb : "-");
    return mw->effective;
}

int pb_suite_check_impl(const pb_suite *s, void *suite_opts, const char *impl, pb_err *e)
{
    pb_plan_opts po = {0};
    pb_grid g = {0, NULL};
    if (s->plan(suite_opts, &po, &g, e) < 0) return -1;
    int found = 0;
    char all[512] = "";
    for (int i = 0; i < g.ncells; i++)
        for (int k = 0; k < g.cells[i].nimpls; k++) {
            found |= !strcmp(g.cells[i].impls[k], impl);
            char pat[PB_NAME_MAX + 2];
            snprintf(pat, sizeof pat, " %s", g.cells[i].impls[k]);
            if (!strstr(all, pat)) snprintf(all + strlen(all), sizeof all - strlen(all), "%s", pat);
        }
    free(g.cells);
    char hint[96];
    return found ? 0 : pb_errf(e, "unknown impl '%s' for suite %s (%simpls:%s)", impl, s->name,
                               pb_did_you_mean(hint, sizeof hint, impl, all), all);
}

void pb_pair_claim(gate_wrap *W, const pb_suite *s, void *suite_opts, const char *A, const char *B, int aa)
{
    memset(W, 0, sizeof *W);
    W->side_a = W->side_b = (gate_side){s, suite_opts};
    W->npairs = 1;
    gate_pair *p = &W->pairs[0];
    snprintf(p->a, sizeof p->a, "%s", A);
    snprintf(p->real_a, sizeof p->real_a, "%s", A);
    snprintf(p->b, sizeof p->b, aa ? "%s" AA_SUFFIX : "%s", aa ? A : B);
    snprintf(p->real_b, sizeof p->real_b, "%s", aa ? A : B);
}

void pb_pair_suite(gate_wrap *W, pb_suite *wrapped)
{
    *wrapped = *W->side_b.suite;
    wrapped->opts_size = 0;   /* the wrap is the gate's, not allocated from the table */
    wrapped->opts_init = NULL;
    wrapped->opts_free = NULL;
    wrapped->plan = w_plan;
    wrapped->setup_case = w_setup;
    wrapped->selftest = w_selftest;
    wrapped->effective_options = w_effective;
    wrapped->user_code = w_user_code;
    wrapped->user_object = w_user_object;
    wrapped->check_output = w_check_output;
    /* hooks that take the suite's own options or cases go through the wrap, which hands each side
     * its own (the CPU time's split, exec's --setup and --cleanup), or not at all: the gate names its
     * pairs itself (roles), and ratio_pairs is called with the run's options, which here are the
     * wrap: drbg's read a gate_wrap as its own options and handed finalize a wild pointer (a commit
     * gate of drbg crashed in CI) */
    wrapped->ratio_pairs = NULL;
    wrapped->roles = NULL;
    int split = W->side_a.suite->cpu_split || W->side_b.suite->cpu_split;
    int hooks = W->side_a.suite->cell_begin || W->side_a.suite->cell_end || W->side_b.suite->cell_begin ||
                W->side_b.suite->cell_end;
    wrapped->cpu_split = split ? w_cpu_split : NULL;
    wrapped->cell_begin = hooks ? w_cell_begin : NULL;
    wrapped->cell_end = hooks ? w_cell_end : NULL;
    if (W->auto_pairs) {
        /* the run's own baseline/candidate (what `bench report` of this run divides): the suite's
         * candidate in the two builds */
        snprintf(W->run_base, sizeof W->run_base, "%s" BASE_SUFFIX, W->side_b.suite->candidate);
        wrapped->baseline = W->run_base;
        wrapped->candidate = W->side_b.suite->candidate;
    } else {
        wrapped->baseline = W->pairs[0].a;
        wrapped->candidate = W->pairs[0].b;
    }
}
