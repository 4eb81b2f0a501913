/* SPDX-License-Identifier: GPL-2.0-only */
/* report_machines.c — `bench report --machines`: per cell, the claim's time ratio (candidate over
 * baseline, from the stored ratios) with its 95 % CI and the verdict, for every machine and
 * configuration side by side, grouped by CPU identity (vendor, family, model, stepping); a markdown table, a gnuplot figure and a
 * section of the HTML page (docs/fleet.md).
 *
 * A column is a configuration: (runs.machine_id, runs.target, runs.cpu_affinity when recorded, the
 * CPU identity (vendor, family, model, stepping: one machine id on two CPU generations is two
 * columns), the code-generation profile P of an `new@P`/`old@P` pair), filled from the newest complete run
 * (started_at) that holds that pair. Machine ids, CPU models and names come from other machines'
 * stores: they reach gnuplot only through pb_gpq_text, the page only through pb_html_fputs, and
 * the markdown only through pb_md_text_fputs (text_out.h).
 *
 * Here: the columns (which runs, their configurations and labels), the cells, the verdicts counted,
 * the report's life. Its words are machines_table.c's, its figure machines_plot.c's (machines.h). */
#include "machines.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "report_data.h"

int pb_machines_check(const char *spec, pb_err *e)
{
    if (!spec || !*spec) return pb_errf(e, "--machines wants 'all' or machine ids separated by commas");
    if (!strcmp(spec, "all")) return 0;
    for (const char *p = spec;;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        if (!len) return pb_errf(e, "--machines: an empty machine id in '%s'", spec);
        if (len >= 128) return pb_errf(e, "--machines: a machine id longer than 127 characters");
        if (!c) return 0;
        p = c + 1;
    }
}

/* Is machine id selected by spec ("all", or ids / prefixes of ids, comma-separated)? */
static int selected(const char *spec, const char *id)
{
    if (!strcmp(spec, "all")) return 1;
    for (const char *p = spec;;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        if (len && !strncmp(id, p, len)) return 1;
        if (!c) return 0;
        p = c + 1;
    }
}

static int target_rank(const char *t)
{
    return !strcmp(t, "userspace") ? 0 : !strcmp(t, "kmod-host") ? 1 : !strcmp(t, "qemu-tcg") ? 2 : 3;
}

/* Columns are grouped by CPU identity (vendor, family, model, stepping), never by the model name
 * alone: two generations of "AMD EPYC" are two groups. A run without an identity (before schema 5)
 * is grouped by its model name, after every identified group. */
static int group_cmp(const mcol *x, const mcol *y)
{
    if (!*x->ident != !*y->ident) return *x->ident ? -1 : 1;
    if (!*x->ident) return strcmp(x->cpu, y->cpu);
    const pb_cpu_identity *a = &x->id, *b = &y->id;
    int r = strcmp(a->vendor, b->vendor);
    if (!r) r = (a->family > b->family) - (a->family < b->family);
    if (!r) r = (a->model > b->model) - (a->model < b->model);
    if (!r) r = (a->stepping > b->stepping) - (a->stepping < b->stepping);
    return r;
}

static int col_cmp(const void *a, const void *b)
{
    const mcol *x = a, *y = b;
    int r = group_cmp(x, y);
    if (!r) r = strcmp(x->cpu, y->cpu);
    if (!r) r = strcmp(x->machine, y->machine);
    if (!r) r = target_rank(x->target) - target_rank(y->target);
    if (!r) r = strcmp(x->target, y->target);
    if (!r) r = strcmp(x->pin, y->pin);
    if (!r) r = strcmp(x->profile, y->profile);
    return r;
}

/* The configuration part of runs.cpu_affinity: "cpu N" for a pinned run (recorded as "cpu N (why;
 * M online)", or as a bare number by hand), "" for an unpinned one ("not pinned: ...") or none
 * recorded: why a run was or was not pinned is provenance, not a configuration. */
static void pin_key(const char *affinity, char *out, size_t n)
{
    const char *p = affinity;
    if (!strncmp(p, "cpu ", 4)) p += 4;
    size_t d = strspn(p, "0123456789");
    if (d == 0 || d > 9 || (p[d] && p[d] != ' ')) {
        out[0] = 0;
        return;
    }
    snprintf(out, n, "cpu %.*s", (int)d, p);
}

/* "" if (base, cand) is the claim's pair (bb, cc); P if it is (bb@P, cc@P); NULL otherwise */
static const char *pair_profile(const char *base, const char *cand, const char *bb, const char *cc)
{
    if (!strcmp(base, bb) && !strcmp(cand, cc)) return "";
    size_t nb = strlen(bb), nc = strlen(cc);
    if (strncmp(base, bb, nb) || base[nb] != '@' || !base[nb + 1]) return NULL;
    if (strncmp(cand, cc, nc) || cand[nc] != '@' || strcmp(cand + nc + 1, base + nb + 1)) return NULL;
    return base + nb + 1;
}

/* The run's CPU identity into its column: the key it is grouped by and its words. */
static int load_identity(pb_store *st, mcol *x, pb_err *e)
{
    if (pb_store_run_identity(st, x->run, &x->id, e) < 0) return -1;
    pb_cpu_identity_key(&x->id, x->ident, sizeof x->ident);
    pb_cpu_identity_describe(&x->id, x->ident_words, sizeof x->ident_words);
    return 0;
}

/* Is x the configuration of column c (machine, target, pinned CPU, CPU identity, profile prof)? */
static int same_config(const mcol *c, const mcol *x, const char *prof)
{
    return !strcmp(c->machine, x->machine) && !strcmp(c->target, x->target) && !strcmp(c->pin, x->pin) &&
           !group_cmp(c, x) && !strcmp(c->profile, prof);
}

/* The columns as they are collected: those found, and the run being read. */
typedef struct collect_ctx {
    pb_store *st;
    const pb_suite *s;
    const char *spec;
    mcol *c;
    int n;
    mcol x;                 /* the run being read */
    const char *bb, *cc;    /* the suite's pair for its target */
    pb_err *e;
} collect_ctx;

/* A pair (baseline, candidate) the run stored a ratio of: the suite's pair (or one of its profiles)
 * makes a column, unless a newer run of the same configuration holds it already. */
static int add_pair(void *ctx, const char *stored_base, const char *stored_cand)
{
    collect_ctx *k = ctx;
    char base[2 * PB_NAME_MAX], cand[2 * PB_NAME_MAX];
    snprintf(base, sizeof base, "%s", stored_base);
    snprintf(cand, sizeof cand, "%s", stored_cand);
    const char *prof = pair_profile(base, cand, k->bb, k->cc);
    if (!prof) return 0;
    for (int j = 0; j < k->n; j++)
        if (same_config(&k->c[j], &k->x, prof)) { /* a newer run of this configuration holds the column: say so */
            mcol *t = &k->c[j];
            size_t l = strlen(t->older_ids);
            if (t->older++ < 8)
                snprintf(t->older_ids + l, sizeof t->older_ids - l, "%s%lld", l ? ", " : "", (long long)k->x.run);
            return 0;
        }
    if (k->n == MAXCOL) return pb_errf(k->e, "more than %d machine configurations: name fewer with --machines", MAXCOL);
    mcol *c = &k->c[k->n++];
    *c = k->x;
    snprintf(c->profile, sizeof c->profile, "%s", prof);
    snprintf(c->base, sizeof c->base, "%s", base);
    snprintf(c->cand, sizeof c->cand, "%s", cand);
    return 0;
}

/* A complete run, newest first: its configuration, then a column per pair of it (add_pair). */
static int add_run(void *ctx, const pb_machine_run *r)
{
    collect_ctx *k = ctx;
    mcol *x = &k->x;
    memset(x, 0, sizeof *x);
    x->run = r->run;
    snprintf(x->machine, sizeof x->machine, "%s", r->machine);
    snprintf(x->target, sizeof x->target, "%s", r->target);
    snprintf(x->affinity, sizeof x->affinity, "%s", r->affinity);
    pin_key(x->affinity, x->pin, sizeof x->pin);
    snprintf(x->cpu, sizeof x->cpu, "%s", r->cpu);
    snprintf(x->started, sizeof x->started, "%s", r->started);
    snprintf(x->host, sizeof x->host, "%s", r->host);
    if (!selected(k->spec, x->machine)) return 0;
    if (load_identity(k->st, x, k->e) < 0) return -1;
    int user = !strcmp(x->target, "userspace");
    k->bb = user ? k->s->baseline : k->s->kmod_baseline;
    k->cc = user ? k->s->candidate : k->s->kmod_candidate;
    if (!k->bb || !k->cc) return 0;
    return pb_report_each_ratio_pair(k->st, x->run, PB_DEFAULT_METRIC, add_pair, k, k->e);
}

/* labels: machine (its first 8 characters when longer than 12), target, pinned CPU, profile; made
 * distinct where two columns would share one */
static void label_columns(mcol *c, int n)
{
    int group = -1;
    for (int k = 0; k < n; k++) {
        if (k == 0 || group_cmp(&c[k], &c[k - 1])) group++;
        c[k].group = group;
        size_t ml = strlen(c[k].machine);
        snprintf(c[k].label, sizeof c[k].label, "%.*s %s%s%s%s%s", ml > 12 ? 8 : (int)ml,
                 ml ? c[k].machine : "(no machine id)", c[k].target, *c[k].pin ? " " : "", c[k].pin,
                 *c[k].profile ? " @" : "", c[k].profile);
    }
    for (int k = 0; k < n; k++)
        for (int j = k + 1; j < n; j++)
            if (!strcmp(c[k].label, c[j].label)) {
                /* one machine id on two CPUs (a VM moved to other hardware), or two machines that share
                 * their first 8 characters */
                size_t l = strlen(c[j].label);
                if (group_cmp(&c[k], &c[j]) && c[j].ident[0])
                    snprintf(c[j].label + l, sizeof c[j].label - l, " (%s)", c[j].ident);
                else
                    snprintf(c[j].label + l, sizeof c[j].label - l, " (run %lld)", (long long)c[j].run);
            }
}

/* The columns: configurations of the selected machines, each from its newest complete run. */
static int collect(pb_store *st, const pb_suite *s, const char *spec, mcol **out, int *nout, pb_err *e)
{
    collect_ctx *k = calloc(1, sizeof *k);
    mcol *c = calloc(MAXCOL, sizeof *c);
    int rc = k && c ? 0 : pb_errf(e, "out of memory");
    if (rc == 0) {
        *k = (collect_ctx){.st = st, .s = s, .spec = spec, .c = c, .e = e};
        rc = pb_report_each_machine_run(st, s->name, add_run, k, e);
    }
    int n = k ? k->n : 0;
    free(k);
    if (rc < 0) { free(c); return -1; }
    qsort(c, (size_t)n, sizeof *c, col_cmp);
    label_columns(c, n);
    *out = c;
    *nout = n;
    return 0;
}

static void add_size(mreport *m, int64_t size)
{
    for (int i = 0; i < m->ns; i++)
        if (m->sizes[i] == size) return;
    if (m->ns < 64) m->sizes[m->ns++] = size;
}

/* The cells: every (variant, op, size) some column has a ratio for, in the order the runs hold them. */
static void cells_of(mreport *m)
{
    for (int k = 0; k < m->nc; k++) {
        const pb_report_data *d = &m->c[k].d;
        for (size_t i = 0; i < d->nratios; i++) {
            const ratio_row *x = &d->ratios[i];
            if (strcmp(x->metric, PB_DEFAULT_METRIC) || strcmp(x->base, m->c[k].base) || strcmp(x->cand, m->c[k].cand))
                continue;
            pb_report_add_unique(m->v, &m->nv, x->variant);
            pb_report_add_unique(m->o, &m->no, x->op);
            add_size(m, x->size);
        }
    }
    for (int i = 1; i < m->ns; i++)
        for (int j = i; j > 0 && m->sizes[j - 1] > m->sizes[j]; j--) {
            int64_t t = m->sizes[j]; m->sizes[j] = m->sizes[j - 1]; m->sizes[j - 1] = t;
        }
    for (int vi = 0; vi < m->nv; vi++)
        for (int oi = 0; oi < m->no; oi++)
            for (int si = 0; si < m->ns && m->ncells < MAXCELLS; si++) {
                int any = 0;
                ratio r;
                for (int k = 0; k < m->nc && !any; k++)
                    any = pb_report_ratio(&m->c[k].d, m->c[k].run, PB_DEFAULT_METRIC, m->c[k].base, m->c[k].cand,
                                          m->v[vi], m->o[oi], m->sizes[si], &r);
                if (!any) continue;
                mcell *x = &m->cells[m->ncells++];
                snprintf(x->variant, sizeof x->variant, "%s", m->v[vi]);
                snprintf(x->op, sizeof x->op, "%s", m->o[oi]);
                x->size = m->sizes[si];
            }
}

/* The document's time ratio candidate/baseline of a cell, NaN if it gives none. */
double pb_machines_doc_ratio(const mreport *m, const char *variant, const char *op, int64_t size)
{
    const rows *doc = &m->c[0].d.doc;
    const row *b = pb_report_find(doc, m->s->baseline, variant, op, size);
    const row *c = pb_report_find(doc, m->s->candidate, variant, op, size);
    if (!b || !c || !(b->median > 0) || !(c->median > 0)) return NAN;
    double r = c->median / b->median;
    return pb_metric_higher_is_better(pb_suite_primary_metric(m->s)) ? 1 / r : r;
}

pb_claim pb_machines_claim(const mreport *m, const mcell *x, double dt)
{
    return pb_report_claim(m->s, x->variant, x->op, x->size, dt);
}

static void count(pb_verdict_counts *n, const char *v)
{
    n->cells++;
    if (!strcmp(v, "claim holds")) n->holds++;
    else if (!strcmp(v, "direction holds, size differs")) n->size_differs++;
    else if (!strcmp(v, "claim does not hold")) n->does_not_hold++;
    else if (!strcmp(v, "inconclusive here")) n->inconclusive++;
    else if (!strcmp(v, "no claim")) n->no_claim++;
    else n->no_data++;
}

/* ---- the real code's pair beside a column's (docs/verdicts.md) ---- */

/* Which columns hold the real code's pair: a faithful column (no profile) of a run that stored it. */
static void find_real(mreport *m)
{
    for (int k = 0; k < m->nc; k++) {
        mcol *c = &m->c[k];
        c->guest = strcmp(c->target, "userspace") != 0;
        c->real = !*c->profile && pb_report_real_of(&c->d, m->s, c->run, c->guest, &c->real_base, &c->real_cand);
    }
}

int pb_machines_any_real(const mreport *m)
{
    for (int k = 0; k < m->nc; k++)
        if (m->c[k].real) return 1;
    return 0;
}

/* column c's real-code ratio of cell x: 1 and *r, or 0 */
int pb_machines_real_ratio(const mcol *c, const mcell *x, ratio *r)
{
    return c->real &&
           pb_report_ratio(&c->d, c->run, PB_DEFAULT_METRIC, c->real_base, c->real_cand, x->variant, x->op, x->size, r);
}

/* The verdicts of every column, counted once (the table may be written twice). */
static void count_all(mreport *m)
{
    for (int k = 0; k < m->nc; k++) {
        memset(&m->c[k].n, 0, sizeof m->c[k].n);
        m->c[k].n.real = m->c[k].real;
    }
    for (int i = 0; i < m->ncells; i++) {
        const mcell *x = &m->cells[i];
        double dt = pb_machines_doc_ratio(m, x->variant, x->op, x->size);
        pb_claim cl = pb_machines_claim(m, x, dt);
        for (int k = 0; k < m->nc; k++) {
            ratio r;
            int have = pb_report_ratio(&m->c[k].d, m->c[k].run, PB_DEFAULT_METRIC, m->c[k].base, m->c[k].cand,
                                       x->variant, x->op, x->size, &r);
            count(&m->c[k].n, have ? pb_report_verdict(cl, dt, m->cfg.tolerance, &r) : "no data");
            ratio rr;
            m->c[k].n.real_differs += pb_machines_real_ratio(&m->c[k], x, &rr) &&
                                      pb_report_real_differs(m->c[k].guest, have, &r, &rr, m->cfg.real_code_threshold);
        }
    }
}

static void mpaths_of(const pb_suite *s, mpaths *p)
{
    snprintf(p->md, sizeof p->md, "%s_machines.md", s->name);
    snprintf(p->png, sizeof p->png, "%s_machines.png", s->name);
    snprintf(p->svg, sizeof p->svg, "%s_machines.svg", s->name);
    snprintf(p->dat, sizeof p->dat, "%s_machines.dat", s->name);
    snprintf(p->gp, sizeof p->gp, "%s_machines.gp", s->name);
    snprintf(p->log, sizeof p->log, "%s_machines.gnuplot.log", s->name);
}

void pb_machines_files(const pb_suite *s, char (*names)[256])
{
    mpaths p;
    mpaths_of(s, &p);
    const char *const all[PB_MACHINES_FILES] = {p.md, p.png, p.svg, p.dat, p.gp, p.log};
    for (int i = 0; i < PB_MACHINES_FILES; i++) snprintf(names[i], 256, "%s", all[i]);
}

int pb_report_machines(pb_store *st, const pb_suite *s, const pb_machines_opts *o, int *ncols, pb_err *e)
{
    mreport *m = calloc(1, sizeof *m);
    if (!m) return pb_errf(e, "out of memory");
    m->s = s;
    int rc = pb_verdict_cfg_load(o->data_dir, s->name, &m->cfg, e);
    if (rc == 0) rc = collect(st, s, o->machines, &m->c, &m->nc, e);
    if (rc == 0 && m->nc == 0) { free(m->c); free(m); return 0; }
    for (int k = 0; rc == 0 && k < m->nc; k++) rc = pb_report_data_load(st, s, m->c[k].run, 0, o->data_dir, &m->c[k].d, e);
    /* every file is made in a private folder and renamed into --out when all are whole: a failed
     * or refused report leaves the folder as it was (out_stage.h) */
    pb_stage stage = {.dirfd = -1, .fd = -1};
    if (rc == 0) {
        cells_of(m);
        find_real(m);
        count_all(m);
        rc = pb_stage_open(&stage, o->out_dir, "--out", PB_STAGE_MKDIR, e);
    }
    mpaths p;
    mpaths_of(s, &p);
    if (rc == 0) {
        rc = pb_machines_draw(m, &p, &stage, e);
        if (rc == 0) rc = pb_machines_write_md(m, &p, &stage, e);
        if (rc == 0 && o->html) rc = pb_machines_write_html(o->html, m, &p, &stage, e);
        if (rc == 0) rc = pb_stage_commit(&stage, e);
    }
    int refused = stage.refused;
    pb_stage_close(&stage);
    if (rc == 0 && ncols) *ncols = m->nc;
    for (int k = 0; k < m->nc; k++) pb_report_data_free(&m->c[k].d);
    free(m->c);
    free(m);
    return rc < 0 ? (refused ? -2 : -1) : 1;
}
