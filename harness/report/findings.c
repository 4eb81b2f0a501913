/* SPDX-License-Identifier: GPL-2.0-only */
/* findings.c — see findings.h. A column is a CPU model: its identity (vendor, family, model,
 * stepping; identity.h) and model name, or the name alone where the runs recorded no identity. Its wall-time run is the
 * newest complete userspace run of the suite on it; its count run the newest complete run of target
 * valgrind (docs/counts.md) of the same build (runs.git_sha). */
#include "findings.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decompose.h"
#include "identity.h"
#include "metrics.h"
#include "report_data.h"
#include "text_out.h"
#include "verdict.h"

#define FMAXCOL 16
#define FMAXRUNS 256
#define FMAXCELLS 512

/* one complete run of the suite, as the columns are chosen from it */
typedef struct frun {
    int64_t id;
    int count;                    /* target valgrind: a count run; else userspace (others are left out) */
    char key[160], cpu[256], ident[600], uuid[40], started[40], git[64], kernel[256];
} frun;

/* one instruction count: impl's insns_per_op in a cell of the count run */
typedef struct fins {
    char impl[PB_NAME_MAX], variant[PB_NAME_MAX], op[PB_NAME_MAX];
    int64_t size;
    double median;
} fins;

typedef struct fcol {
    const frun *time, *count;     /* count NULL: no count run of the time run's build */
    pb_report_data d;
    int loaded;
    fins *ins;
    size_t nins, cap;
} fcol;

typedef struct fcell {
    char variant[PB_NAME_MAX], op[PB_NAME_MAX];
    int64_t size;
} fcell;

typedef struct fsuite {
    pb_store *st;
    const pb_suite *s;
    frun runs[FMAXRUNS];
    int nruns;
    fcol c[FMAXCOL];
    int nc;
    fcell cells[FMAXCELLS];
    int ncells;
    pb_verdict_cfg cfg;
    pb_err *e;
} fsuite;

/* ---- the runs and the columns ---- */

typedef struct run_cols {
    frun *r;
    char vendor[32];
} run_cols;

static void copy_text(char *dst, size_t cap, const pb_column *c)
{
    snprintf(dst, cap, "%s", c->type == PB_DB_TEXT && c->text ? c->text : "");
}

static void run_column(void *ctx, const pb_column *c)
{
    frun *r = ((run_cols *)ctx)->r;
    if (!strcmp(c->name, "uuid")) copy_text(r->uuid, sizeof r->uuid, c);
    else if (!strcmp(c->name, "cpu_model")) copy_text(r->cpu, sizeof r->cpu, c);
    else if (!strcmp(c->name, "started_at")) copy_text(r->started, sizeof r->started, c);
    else if (!strcmp(c->name, "git_sha")) copy_text(r->git, sizeof r->git, c);
    else if (!strcmp(c->name, "kernel")) copy_text(r->kernel, sizeof r->kernel, c);
}

/* each complete run of the suite, newest first: kept when userspace or valgrind */
static int each_run(void *ctx, const pb_machine_run *m)
{
    fsuite *f = ctx;
    int count = !strcmp(m->target, "valgrind");
    if (!count && strcmp(m->target, "userspace")) return 0;
    if (f->nruns == FMAXRUNS) return 0; /* the newest FMAXRUNS: older ones cannot be a column's */
    frun *r = &f->runs[f->nruns++];
    memset(r, 0, sizeof *r);
    r->id = m->run;
    r->count = count;
    run_cols x = {.r = r};
    pb_store_run_columns(f->st, m->run, run_column, &x);
    pb_cpu_identity id;
    pb_err e = {{0}};
    if (pb_store_run_identity(f->st, m->run, &id, &e) < 0) pb_cpu_identity_unknown(&id);
    pb_cpu_identity_key(&id, r->key, sizeof r->key);
    pb_cpu_identity_describe(&id, r->ident, sizeof r->ident);
    /* a run without an identity (before schema 5) is its model name's */
    if (!r->key[0]) {
        size_t n = strnlen(r->cpu, sizeof r->key - 1);
        memcpy(r->key, r->cpu, n);
        r->key[n] = 0;
    }
    return 0;
}

static int by_cpu(const void *a, const void *b)
{
    const fcol *x = a, *y = b;
    int c = strcmp(x->time->cpu, y->time->cpu);
    return c ? c : strcmp(x->time->key, y->time->key);
}

/* One CPU model: the same identity and the same model name (two names of one identity, which some
 * VMs show, are two columns rather than one hiding the other). */
static int same_cpu(const frun *a, const frun *b)
{
    return !strcmp(a->key, b->key) && !strcmp(a->cpu, b->cpu);
}

/* a column per CPU model with a wall-time run, its count run of the same build if any */
static void choose_columns(fsuite *f)
{
    for (int i = 0; i < f->nruns; i++) {
        const frun *r = &f->runs[i];
        if (r->count) continue;
        int k = 0;
        while (k < f->nc && !same_cpu(f->c[k].time, r)) k++;
        if (k < f->nc || f->nc == FMAXCOL) continue; /* newest first: the first is the column's */
        f->c[f->nc++] = (fcol){.time = r};
    }
    for (int k = 0; k < f->nc; k++)
        for (int i = 0; i < f->nruns && !f->c[k].count; i++) {
            const frun *r = &f->runs[i];
            if (r->count && same_cpu(r, f->c[k].time) && r->git[0] && !strcmp(r->git, f->c[k].time->git))
                f->c[k].count = r;
        }
    qsort(f->c, (size_t)f->nc, sizeof f->c[0], by_cpu);
}

/* ---- the count run's instructions ---- */

static void each_ins(void *ctx, const pb_stat_row *r)
{
    fcol *c = ctx;
    if (strcmp(r->metric, "insns_per_op") || !(r->median > 0)) return;
    if (c->nins == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 64;
        fins *v = realloc(c->ins, cap * sizeof *v);
        if (!v) return; /* out of memory: the cells go without an instruction ratio */
        c->ins = v;
        c->cap = cap;
    }
    fins *x = &c->ins[c->nins++];
    snprintf(x->impl, sizeof x->impl, "%s", r->impl);
    snprintf(x->variant, sizeof x->variant, "%s", r->variant);
    snprintf(x->op, sizeof x->op, "%s", r->op);
    x->size = r->size;
    x->median = r->median;
}

static double ins_of(const fcol *c, const char *impl, const fcell *x)
{
    for (size_t i = 0; i < c->nins; i++) {
        const fins *v = &c->ins[i];
        if (!strcmp(v->impl, impl) && !strcmp(v->variant, x->variant) && !strcmp(v->op, x->op) && v->size == x->size)
            return v->median;
    }
    return NAN;
}

/* ---- the cells ---- */

static int by_cell(const void *a, const void *b)
{
    const fcell *x = a, *y = b;
    int c = strcmp(x->variant, y->variant);
    if (!c) c = strcmp(x->op, y->op);
    return c ? c : (x->size > y->size) - (x->size < y->size);
}

/* every cell any column has the claim pair's time ratio of, sorted */
static void collect_cells(fsuite *f)
{
    for (int k = 0; k < f->nc; k++) {
        const pb_report_data *d = &f->c[k].d;
        for (size_t i = 0; i < d->nratios; i++) {
            const ratio_row *r = &d->ratios[i];
            if (strcmp(r->metric, PB_DEFAULT_METRIC) || strcmp(r->base, f->s->baseline) ||
                strcmp(r->cand, f->s->candidate))
                continue;
            int have = 0;
            for (int j = 0; j < f->ncells && !have; j++)
                have = !strcmp(f->cells[j].variant, r->variant) && !strcmp(f->cells[j].op, r->op) &&
                       f->cells[j].size == r->size;
            if (have || f->ncells == FMAXCELLS) continue;
            fcell *x = &f->cells[f->ncells++];
            snprintf(x->variant, sizeof x->variant, "%s", r->variant);
            snprintf(x->op, sizeof x->op, "%s", r->op);
            x->size = r->size;
        }
    }
    qsort(f->cells, (size_t)f->ncells, sizeof f->cells[0], by_cell);
}

/* column c's words for cell x: "0.912 [0.901, 0.925] claim holds" and, with a count run, the
 * instruction ratio, the time-per-instruction ratio and why */
static void cell_words(const fsuite *f, const fcol *c, const fcell *x, pb_claim cl, double dt, char *buf, size_t cap)
{
    ratio r;
    if (!pb_report_ratio(&c->d, c->time->id, PB_DEFAULT_METRIC, f->s->baseline, f->s->candidate, x->variant, x->op,
                         x->size, &r)) {
        snprintf(buf, cap, "-");
        return;
    }
    int k = snprintf(buf, cap, "%.3f [%.3f, %.3f] %s", r.est, r.lo, r.hi, pb_report_verdict(cl, dt, f->cfg.tolerance, &r));
    if (!c->count || k < 0 || (size_t)k >= cap) return;
    double ir = ins_of(c, f->s->candidate, x) / ins_of(c, f->s->baseline, x);
    if (!isfinite(ir) || !(ir > 0)) return;
    /* the report's own decomposition and sentence (decompose.h, docs/why.md) */
    pb_decomp d;
    if (pb_decomp_of(r.est, r.lo, r.hi, ir, &d) < 0) return;
    char why[300];
    pb_decomp_sentence(&d, f->s->candidate, why, sizeof why);
    snprintf(buf + k, cap - (size_t)k, "; instructions %.3f, per instruction %.3f: %s", ir, d.per_insn, why);
}

/* ---- the page ---- */

static void md(FILE *f, const char *s)
{
    pb_md_text_fputs(f, s);
}

/* the table of suite f: a row per cell, a column per CPU model */
static void write_table(FILE *o, const fsuite *f)
{
    fputs("| variant | op | bytes | claim | document |", o);
    for (int k = 0; k < f->nc; k++) {
        fputc(' ', o);
        md(o, f->c[k].time->cpu[0] ? f->c[k].time->cpu : "(CPU model not recorded)");
        fputs(" |", o);
    }
    fputs("\n|---|---|---:|---|---:|", o);
    for (int k = 0; k < f->nc; k++) fputs("---|", o);
    fputs("\n|  |  |  |  |  |", o);
    for (int k = 0; k < f->nc; k++) {
        fputc(' ', o);
        md(o, f->c[k].time->key);
        fputs(" |", o);
    }
    fputc('\n', o);
    for (int i = 0; i < f->ncells; i++) {
        const fcell *x = &f->cells[i];
        double dt = pb_report_doc_time(f->s, &f->c[0].d.doc, x->variant, x->op, x->size);
        pb_claim cl = pb_report_claim(f->s, x->variant, x->op, x->size, dt);
        fputs("| ", o);
        md(o, x->variant);
        fputs(" | ", o);
        md(o, x->op);
        fprintf(o, " | %lld | %s | ", (long long)x->size, pb_claim_name(cl));
        if (isnan(dt)) fputs("-", o);
        else fprintf(o, "%.3f", dt);
        fputs(" |", o);
        for (int k = 0; k < f->nc; k++) {
            char words[800];
            cell_words(f, &f->c[k], x, cl, dt, words, sizeof words);
            fputc(' ', o);
            md(o, words);
            fputs(" |", o);
        }
        fputc('\n', o);
    }
}

static void run_words(FILE *o, const char *what, const frun *r)
{
    fprintf(o, "%s `%.8s` of ", what, r->uuid);
    md(o, r->started);
    fputs(", git ", o);
    md(o, r->git[0] ? r->git : "unknown");
    if (r->kernel[0]) {
        fputs(", kernel ", o);
        md(o, r->kernel);
    }
}

static void write_runs(FILE *o, const fsuite *f)
{
    fputs("\nThe runs (uuid, start, build):\n\n", o);
    for (int k = 0; k < f->nc; k++) {
        const fcol *c = &f->c[k];
        fputs("- ", o);
        md(o, c->time->cpu[0] ? c->time->cpu : "(CPU model not recorded)");
        fputs(" (", o);
        md(o, c->time->ident);
        fputs("): ", o);
        run_words(o, "wall-time run", c->time);
        if (c->count) run_words(o, "; count run", c->count);
        else fputs("; no count run of the same build", o);
        fputs("\n", o);
    }
}

static void fsuite_free(fsuite *f)
{
    for (int k = 0; k < f->nc; k++) {
        if (f->c[k].loaded) pb_report_data_free(&f->c[k].d);
        free(f->c[k].ins);
    }
}

/* suite s's section, or nothing where no CPU model has a wall-time run of it: 0, or -1 + e */
static int write_suite(FILE *o, fsuite *f, const char *data_dir)
{
    int rc = pb_report_each_machine_run(f->st, f->s->name, each_run, f, f->e);
    if (rc < 0) return -1;
    choose_columns(f);
    if (f->nc == 0) return 0;
    rc = pb_verdict_cfg_load(data_dir, f->s->name, &f->cfg, f->e);
    for (int k = 0; rc == 0 && k < f->nc; k++) {
        fcol *c = &f->c[k];
        rc = pb_report_data_load(f->st, f->s, c->time->id, 0, data_dir, &c->d, f->e);
        c->loaded = rc == 0;
        if (rc == 0 && c->count && pb_report_each_stat(f->st, &c->count->id, 1, each_ins, c) < 0)
            rc = pb_errf(f->e, "%s: cannot read the statistics of run %.8s", f->st->path, c->count->uuid);
    }
    if (rc == 0) {
        collect_cells(f);
        fprintf(o, "\n## %s\n\n", f->s->name);
        write_table(o, f);
        write_runs(o, f);
    }
    fsuite_free(f);
    return rc;
}

static void write_head(FILE *o)
{
    fputs("<!-- SPDX-License-Identifier: GPL-2.0-only -->\n"
          "<!-- Generated by `bench findings --from results/published/ --out docs/findings.md` from the\n"
          "     exports in results/published/ (its README says how to add a CPU model). Do not edit: a test\n"
          "     regenerates this file from them and compares it byte for byte. -->\n"
          "# Findings across CPUs\n\n"
          "Per suite and cell, each CPU model's answer side by side, one column per CPU model: the time ratio\n"
          "candidate/baseline of its newest default run (below 1 the candidate is faster) with its 95 % CI and\n"
          "the verdict on the document's claim (docs/verdicts.md); where a count run (`--measure valgrind`,\n"
          "docs/counts.md) of the same build exists, the instruction ratio, the time per instruction\n"
          "(time ratio / instruction ratio) and what the two say together. A second row under each CPU model\n"
          "names its identity (vendor, family, model, stepping), which tells generations apart where the\n"
          "model name does not. Counts under Valgrind run other code paths in code that dispatches on CPU\n"
          "features (libgcrypt, OpenSSL): compare them for code built for a fixed ISA only.\n", o);
}

int pb_findings_write(FILE *o, pb_store *st, const char *data_dir, const char *suite, pb_err *e)
{
    fsuite *f = malloc(sizeof *f);
    if (!f) return pb_errf(e, "out of memory");
    write_head(o);
    /* the suites by name, so that a new suite's place does not depend on the build's list */
    const pb_suite *order[64];
    int n = 0;
    for (int i = 0; pb_suites[i] && n < 64; i++)
        if (!suite || !strcmp(pb_suites[i]->name, suite)) order[n++] = pb_suites[i];
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && strcmp(order[j - 1]->name, order[j]->name) > 0; j--) {
            const pb_suite *t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    int rc = 0, any = 0;
    for (int i = 0; rc == 0 && i < n; i++) {
        memset(f, 0, sizeof *f);
        f->st = st;
        f->s = order[i];
        f->e = e;
        rc = write_suite(o, f, data_dir);
        any += f->nc > 0;
    }
    if (rc == 0 && !any) fputs("\nNo CPU model's runs are published yet.\n", o);
    free(f);
    return rc;
}
