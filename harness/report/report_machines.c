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
 * the markdown only through pb_md_text_fputs (text_out.h). */
#include "report_machines.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fmt.h"
#include "html.h"
#include "metrics.h"
#include "report.h"
#include "report_data.h"
#include "text_out.h"

#define MAXCOL 32
#define MAXCELLS 512

typedef struct mcol {
    int64_t run;
    char machine[128], target[64], affinity[128], cpu[256], started[40], host[256];
    /* what tells CPU generations apart, "AuthenticAMD family 25 model 1 stepping 1" (identity.h), or
     * "" where the run recorded none (before schema 5): part of the configuration and the group */
    char ident[160];
    pb_cpu_identity id;
    char ident_words[600];                  /* the whole identity in words, for the list of columns */
    char pin[64];                           /* "cpu N" when the run was pinned, else "" (pin_key) */
    char profile[PB_NAME_MAX];              /* "" faithful build, else P */
    char base[2 * PB_NAME_MAX], cand[2 * PB_NAME_MAX];
    int real;                               /* the run holds the real code's pair (a faithful column only) */
    const char *real_base, *real_cand;      /* that pair (pb_report_real_of), the suite's names */
    int guest;                              /* a kernel-module column (target not userspace) */
    char label[600];
    int older;                              /* older complete runs of this configuration, not shown */
    char older_ids[128];
    int group;                              /* index of its CPU model among the columns' */
    pb_report_data d;
    pb_verdict_counts n;
} mcol;

typedef struct mcell {
    char variant[PB_NAME_MAX], op[PB_NAME_MAX];
    int64_t size;
} mcell;

typedef struct mreport {
    const pb_suite *s;
    mcol *c;
    int nc;
    mcell cells[MAXCELLS];
    int ncells;
    char v[MAXV][PB_NAME_MAX], o[MAXV][PB_NAME_MAX];
    int nv, no;
    int64_t sizes[64];
    int ns;
    pb_verdict_cfg cfg;
} mreport;

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

/* The columns: configurations of the selected machines, each from its newest complete run. */
static int collect(pb_store *st, const pb_suite *s, const char *spec, mcol **out, int *nout, pb_err *e)
{
    pb_stmt *q, *pq;
    if (pb_db_prepare(st->db,
                           "SELECT id, machine_id, target, cpu_affinity, cpu_model, started_at, hostname FROM runs"
                           " WHERE status = 'complete' AND suite = ?1 ORDER BY started_at DESC, id DESC", &q) != PB_DB_OK)
        return pb_errf(e, "%s: %s", st->path, pb_db_errmsg(st->db));
    if (pb_db_prepare(st->db,
                           "SELECT DISTINCT baseline, candidate FROM ratios WHERE run_id = ?1 AND metric = ?2"
                           " ORDER BY baseline, candidate", &pq) != PB_DB_OK) {
        pb_db_finalize(q);
        return pb_errf(e, "%s: %s", st->path, pb_db_errmsg(st->db));
    }
    mcol *c = calloc(MAXCOL, sizeof *c);
    int n = 0, rc = 0, step;
    if (!c) rc = pb_errf(e, "out of memory");
    pb_db_bind_text(q, 1, s->name);
    while (rc == 0 && (step = pb_db_step(q)) == PB_DB_ROW) {
        mcol x;
        memset(&x, 0, sizeof x);
        x.run = pb_db_column_int64(q, 0);
        pb_db_column_copy(q, 1, x.machine, sizeof x.machine);
        pb_db_column_copy(q, 2, x.target, sizeof x.target);
        pb_db_column_copy(q, 3, x.affinity, sizeof x.affinity);
        pin_key(x.affinity, x.pin, sizeof x.pin);
        pb_db_column_copy(q, 4, x.cpu, sizeof x.cpu);
        pb_db_column_copy(q, 5, x.started, sizeof x.started);
        pb_db_column_copy(q, 6, x.host, sizeof x.host);
        if (!selected(spec, x.machine)) continue;
        if (load_identity(st, &x, e) < 0) { rc = -1; break; }
        int user = !strcmp(x.target, "userspace");
        const char *bb = user ? s->baseline : s->kmod_baseline, *cc = user ? s->candidate : s->kmod_candidate;
        if (!bb || !cc) continue;
        pb_db_reset(pq);
        pb_db_bind_int64(pq, 1, x.run);
        pb_db_bind_text(pq, 2, PB_DEFAULT_METRIC);
        while ((step = pb_db_step(pq)) == PB_DB_ROW) {
            char base[2 * PB_NAME_MAX], cand[2 * PB_NAME_MAX];
            pb_db_column_copy(pq, 0, base, sizeof base);
            pb_db_column_copy(pq, 1, cand, sizeof cand);
            const char *prof = pair_profile(base, cand, bb, cc);
            if (!prof) continue;
            int taken = -1;
            for (int k = 0; k < n && taken < 0; k++)
                if (same_config(&c[k], &x, prof)) taken = k;
            if (taken >= 0) { /* a newer run of this configuration holds the column: say so */
                mcol *t = &c[taken];
                size_t l = strlen(t->older_ids);
                if (t->older++ < 8) snprintf(t->older_ids + l, sizeof t->older_ids - l, "%s%lld", l ? ", " : "", (long long)x.run);
                continue;
            }
            if (n == MAXCOL) { rc = pb_errf(e, "more than %d machine configurations: name fewer with --machines", MAXCOL); break; }
            c[n] = x;
            snprintf(c[n].profile, sizeof c[n].profile, "%s", prof);
            snprintf(c[n].base, sizeof c[n].base, "%s", base);
            snprintf(c[n].cand, sizeof c[n].cand, "%s", cand);
            n++;
        }
        if (rc == 0 && step != PB_DB_DONE) rc = pb_errf(e, "%s: reading ratios: %s", st->path, pb_db_errmsg(st->db));
    }
    pb_db_finalize(q);
    pb_db_finalize(pq);
    if (rc < 0) { free(c); return -1; }
    qsort(c, (size_t)n, sizeof *c, col_cmp);
    /* labels: machine (its first 8 characters when longer than 12), target, pinned CPU, profile */
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

/* whether the suite re-runs a published document (data/<suite>_doc.tsv): only then does the figure
 * draw and name the document's ratios */
static int has_doc(const mreport *m) { return m->c[0].d.doc.n > 0; }

/* The document's time ratio candidate/baseline of a cell, NaN if it gives none. */
static double doc_ratio(const mreport *m, const char *variant, const char *op, int64_t size)
{
    const rows *doc = &m->c[0].d.doc;
    const row *b = pb_report_find(doc, m->s->baseline, variant, op, size);
    const row *c = pb_report_find(doc, m->s->candidate, variant, op, size);
    if (!b || !c || !(b->median > 0) || !(c->median > 0)) return NAN;
    double r = c->median / b->median;
    return pb_metric_higher_is_better(pb_suite_primary_metric(m->s)) ? 1 / r : r;
}

static pb_claim claim_of(const mreport *m, const mcell *x, double dt)
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

static int any_real(const mreport *m)
{
    for (int k = 0; k < m->nc; k++)
        if (m->c[k].real) return 1;
    return 0;
}

/* column c's real-code ratio of cell x: 1 and *r, or 0 */
static int real_ratio(const mcol *c, const mcell *x, ratio *r)
{
    return c->real &&
           pb_report_ratio(&c->d, c->run, PB_DEFAULT_METRIC, c->real_base, c->real_cand, x->variant, x->op, x->size, r);
}

/* After a cell's text, the real code's: " {real code R [lo, hi] verdict: differs from the real code}"
 * (the verdict on a userspace column only, the mark where pb_report_real_differs), " {real code -}"
 * where the column has a ratio but the real code did not run, into out; nothing for a column
 * without the real code's pair or a cell of neither. */
static void real_text(char *out, size_t cap, const mreport *m, const mcol *c, const mcell *x, pb_claim cl, double dt)
{
    ratio rr, r;
    if (!cap) return;
    out[0] = 0;
    int have = pb_report_ratio(&c->d, c->run, PB_DEFAULT_METRIC, c->base, c->cand, x->variant, x->op, x->size, &r);
    if (!real_ratio(c, x, &rr)) {
        if (c->real && have) snprintf(out, cap, " {real code -}");
        return;
    }
    int differs = pb_report_real_differs(c->guest, have, &r, &rr, m->cfg.real_code_threshold);
    snprintf(out, cap, " {real code %.3f [%.3f, %.3f]%s%s%s%s}", rr.est, rr.lo, rr.hi, c->guest ? "" : " ",
             c->guest ? "" : pb_report_verdict(cl, dt, m->cfg.tolerance, &rr), differs ? ": " : "",
             differs ? pb_real_mark : "");
}

/* A column's summary line: the verdicts and the real code's mark, without the code-generation and
 * code-layout counts, which belong to the single-run report, not to one column. */
static void column_summary(const mcol *c, char *line, size_t len)
{
    pb_verdict_counts n = c->n;
    n.real = 0;
    pb_verdict_summary(&n, line, len);
    char *cg = strstr(line, "; depends on code generation");
    if (cg) *cg = 0;
    size_t k = strlen(line);
    if (c->real && k < len) snprintf(line + k, len - k, "; %s %d", pb_real_mark, c->n.real_differs);
}

/* ---- one table, markdown or HTML ---- */

static void cell_text(FILE *f, int html, int header, const char *s)
{
    if (html) {
        fputs(header ? "<th>" : "<td>", f);
        pb_html_fputs(f, s);
        fputs(header ? "</th>" : "</td>", f);
    } else {
        fputc(' ', f);
        pb_md_text_fputs(f, s);
        fputs(" |", f);
    }
}

static void write_table(FILE *f, int html, mreport *m)
{
    const char *base = m->s->baseline, *cand = m->s->candidate;
    char b[700];
    fputs(html ? "<div class=\"tbl\"><table>\n<tr>" : "|", f);
    cell_text(f, html, 1, "variant");
    cell_text(f, html, 1, "op");
    cell_text(f, html, 1, "bytes");
    /* the fixed columns before the machines': variant, op, bytes, the document's ratio ("-" in a
     * suite without a document) and the claim (a suite may claim without one: synthetic) */
    const int nfixed = 5;
    snprintf(b, sizeof b, "document time %s/%s", cand, base);
    cell_text(f, html, 1, b);
    cell_text(f, html, 1, "claim");
    for (int k = 0; k < m->nc; k++) {
        const mcol *c = &m->c[k];
        int n = snprintf(b, sizeof b, "%s: %s/%s [95%% CI], verdict", c->label, c->cand, c->base);
        if (c->real && n > 0 && (size_t)n < sizeof b)
            snprintf(b + n, sizeof b - (size_t)n, "; {real code %s/%s [95%% CI]%s}", c->real_cand, c->real_base,
                     c->guest ? "" : ", verdict");
        cell_text(f, html, 1, b);
    }
    fputs(html ? "</tr>\n" : "\n|", f);
    if (!html) {
        for (int k = 0; k < nfixed + m->nc; k++) fputs("---|", f);
        fputs("\n", f);
    }
    /* grouped by CPU identity: rows naming each column's CPU model and identity */
    fputs(html ? "<tr>" : "|", f);
    for (int k = 0; k < nfixed; k++) cell_text(f, html, 0, k == 0 ? "CPU model" : "");
    for (int k = 0; k < m->nc; k++) cell_text(f, html, 0, m->c[k].cpu[0] ? m->c[k].cpu : "(unknown CPU)");
    fputs(html ? "</tr>\n<tr>" : "\n|", f);
    for (int k = 0; k < nfixed; k++) cell_text(f, html, 0, k == 0 ? "CPU identity" : "");
    for (int k = 0; k < m->nc; k++) cell_text(f, html, 0, m->c[k].ident[0] ? m->c[k].ident : "not recorded");
    fputs(html ? "</tr>\n" : "\n", f);
    for (int i = 0; i < m->ncells; i++) {
        const mcell *x = &m->cells[i];
        fputs(html ? "<tr>" : "|", f);
        cell_text(f, html, 0, x->variant);
        cell_text(f, html, 0, x->op);
        cell_text(f, html, 0, pb_fmt_bytes(b, sizeof b, x->size));
        double dt = doc_ratio(m, x->variant, x->op, x->size);
        if (isfinite(dt)) snprintf(b, sizeof b, "%.3f", dt); else snprintf(b, sizeof b, "-");
        cell_text(f, html, 0, b);
        pb_claim cl = claim_of(m, x, dt);
        cell_text(f, html, 0, pb_claim_name(cl));
        for (int k = 0; k < m->nc; k++) {
            ratio r;
            if (pb_report_ratio(&m->c[k].d, m->c[k].run, PB_DEFAULT_METRIC, m->c[k].base, m->c[k].cand, x->variant,
                                x->op, x->size, &r))
            {
                /* the between-layout range beside the CI (docs/layout.md), and the mark */
                char lay[96] = "";
                if (r.layouts > 1 && isfinite(r.layout_lo))
                    snprintf(lay, sizeof lay, " {layouts %.3f to %.3f%s}", r.layout_lo, r.layout_hi,
                             pb_verdict_straddles(cl, dt, m->cfg.tolerance, r.layout_lo, r.layout_hi)
                                 ? ": depends on code layout" : "");
                snprintf(b, sizeof b, "%.3f [%.3f, %.3f] %s%s", r.est, r.lo, r.hi,
                         pb_report_verdict(cl, dt, m->cfg.tolerance, &r), lay);
            }
            else
                snprintf(b, sizeof b, "-");
            size_t n = strlen(b);
            real_text(b + n, sizeof b - n, m, &m->c[k], x, cl, dt);
            cell_text(f, html, 0, b);
        }
        fputs(html ? "</tr>\n" : "\n", f);
    }
    if (html) fputs("</table></div>\n", f);
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
        double dt = doc_ratio(m, x->variant, x->op, x->size);
        pb_claim cl = claim_of(m, x, dt);
        for (int k = 0; k < m->nc; k++) {
            ratio r;
            int have = pb_report_ratio(&m->c[k].d, m->c[k].run, PB_DEFAULT_METRIC, m->c[k].base, m->c[k].cand,
                                       x->variant, x->op, x->size, &r);
            count(&m->c[k].n, have ? pb_report_verdict(cl, dt, m->cfg.tolerance, &r) : "no data");
            ratio rr;
            m->c[k].n.real_differs += real_ratio(&m->c[k], x, &rr) &&
                                      pb_report_real_differs(m->c[k].guest, have, &r, &rr, m->cfg.real_code_threshold);
        }
    }
}

static void columns_md(FILE *f, const mreport *m)
{
    fprintf(f, "Columns (configurations), grouped by CPU identity (vendor, family, model, stepping; the model name "
               "where a run recorded none); each from its newest complete run:\n\n");
    for (int k = 0; k < m->nc; k++) {
        const mcol *c = &m->c[k];
        fputs("- **", f);
        pb_md_text_fputs(f, c->label);
        fputs("**: CPU ", f);
        pb_md_text_fputs(f, c->cpu[0] ? c->cpu : "(unknown)");
        fputs(" (", f);
        pb_md_text_fputs(f, c->ident_words);
        fputs("); machine ", f);
        pb_md_text_fputs(f, c->machine[0] ? c->machine : "(none recorded)");
        fputs(" (host ", f);
        pb_md_text_fputs(f, c->host);
        fputs("); target ", f);
        pb_md_text_fputs(f, c->target);
        fputs("; CPU affinity ", f);
        pb_md_text_fputs(f, c->affinity[0] ? c->affinity : "not recorded");
        fputs("; ratio ", f);
        pb_md_text_fputs(f, c->cand);
        fputs("/", f);
        pb_md_text_fputs(f, c->base);
        fprintf(f, "; run %lld, started ", (long long)c->run);
        pb_md_text_fputs(f, c->started);
        if (c->older)
            fprintf(f, " (newest of %d runs of this configuration; older: %s%s)", c->older + 1, c->older_ids,
                    c->older > 8 ? ", ..." : "");
        char line[512];
        column_summary(c, line, sizeof line);
        fprintf(f, "; %s\n", line);
    }
    fputs("\n", f);
}

static void legend_md(FILE *f, const mreport *m)
{
    fprintf(f,
            "Every ratio is one of time per operation (cost), candidate/baseline, from the paired samples of\n"
            "one run (Hodges-Lehmann estimate, 95 %% Wilcoxon signed-rank CI): below 1 the candidate is\n"
            "faster. Verdicts as in `bench report` (docs/verdicts.md), tolerance t = %.2f from %s.\n"
            "A column `@P` is the same sources built with code-generation profile P (docs/build-profiles.md).\n",
            m->cfg.tolerance, m->cfg.source);
    if (m->s->kmod_candidate && m->s->kmod_baseline)
        fprintf(f, "Kernel-module columns (target qemu-tcg, kmod-host, import) compare %s/%s; under QEMU TCG timings\n"
                   "are emulated and only ratios within one boot mean anything.\n",
                m->s->kmod_candidate, m->s->kmod_baseline);
    if (any_real(m))
        fprintf(f, "Where a run also timed the real code, `{real code ...}` after a cell gives its ratio (userspace: the\n"
                   "patch's own code, with the verdict on it, which answers whether the patch holds there; kernel module:\n"
                   "the re-implemented template against the kernel's own, 1 = the same cost) and *%s* where\n"
                   "the two differ by more than %.0f %% beyond both CIs (docs/verdicts.md).\n",
                pb_real_mark, m->cfg.real_code_threshold * 100);
    fprintf(f, "\n");
}

/* ---- the figure ---- */

/* A column's line in the figure's key: its label, CPU model and identity. */
static void key_title(const mcol *c, char *out, size_t cap)
{
    snprintf(out, cap, "%s (%s; %s)", c->label, c->cpu, c->ident[0] ? c->ident : "identity not recorded");
}

/* The figure's layout follows the suite's plot_x: "size" (one panel per (variant, op), x = bytes per
 * operation, log 2) or "variant" (one panel per op, x = the variants, each at the size its cell has). */
static int by_size(const mreport *m) { return !m->s->plot_x || !strcmp(m->s->plot_x, "size"); }
static int npanels(const mreport *m) { return by_size(m) ? m->nv * m->no : m->no; }
static int npoints(const mreport *m) { return by_size(m) ? m->ns : m->nv; }

/* The cell at point xi of panel p: its variant, op and size (size < 0: any) */
static void point_cell(const mreport *m, int p, int xi, const char **v, const char **o, int64_t *size)
{
    if (by_size(m)) {
        *v = m->v[p / m->no];
        *o = m->o[p % m->no];
        *size = m->sizes[xi];
    } else {
        *v = m->v[xi];
        *o = m->o[p];
        *size = -1;
    }
}

/* column c's time ratio cand/base of a cell; size < 0: the first the run holds for (variant, op) */
static int pair_ratio(const mcol *c, const char *base, const char *cand, const char *v, const char *o, int64_t size,
                      ratio *r)
{
    for (size_t i = 0; i < c->d.nratios; i++) {
        const ratio_row *x = &c->d.ratios[i];
        if (!strcmp(x->metric, PB_DEFAULT_METRIC) && !strcmp(x->base, base) && !strcmp(x->cand, cand) &&
            !strcmp(x->variant, v) && !strcmp(x->op, o) && (size < 0 || x->size == size)) {
            *r = x->r;
            return 1;
        }
    }
    return 0;
}

static void write_xtics(FILE *gp, const mreport *m, pb_gpq *g)
{
    fprintf(gp, "set xtics (");
    for (int i = 0; i < npoints(m); i++) {
        char b[32];
        if (by_size(m))
            fprintf(gp, "%s'%s' %lld", i ? ", " : "", pb_fmt_bytes(b, sizeof b, m->sizes[i]), (long long)m->sizes[i]);
        else
            fprintf(gp, "%s'%s' %d", i ? ", " : "", pb_gpq_text(g, m->v[i]), i);
    }
    fprintf(gp, ")%s\n", npoints(m) > 4 ? " rotate by -30" : "");
}

/* The series of the figure per column k: its ratio, its real code's (where the run holds it), and
 * the cells that differ from the real code (rings on its ratio's points). */
enum { SER_RATIO, SER_REAL, SER_MARK, NSER };
#define NBLOCKS (1 + NSER * MAXCOL)
/* blocks[panel][0]: the document's block (-1 none); blocks[panel][blk(kind, k)]: column k's series of kind */
static int blk(int kind, int k) { return 1 + kind * MAXCOL + k; }

/* Column k's point of series kind at point xi of panel p: 1 and the values of its data line, or 0. */
static int series_point(const mreport *m, int kind, int k, int p, int xi, ratio *r)
{
    const mcol *c = &m->c[k];
    const char *v, *o;
    int64_t size;
    point_cell(m, p, xi, &v, &o, &size);
    ratio own, rr;
    int have_real = c->real && pair_ratio(c, c->real_base, c->real_cand, v, o, size, &rr) && rr.est > 0;
    int have = pair_ratio(c, c->base, c->cand, v, o, size, &own) && own.est > 0;
    /* a ring goes where the table's mark is about: the column's own ratio, or in a kernel-module
     * column kmod_candidate/kmod_real */
    if (kind == SER_REAL || (kind == SER_MARK && c->guest)) *r = rr;
    else *r = own;
    if (kind == SER_RATIO) return have;
    if (kind == SER_REAL) return have_real;
    return have_real && (have || c->guest) && pb_report_real_differs(c->guest, have, &own, &rr, m->cfg.real_code_threshold);
}

/* whether column k's series of kind is drawn at the real code's points (a little apart from its own) */
static int on_real_points(const mreport *m, int kind, int k)
{
    return kind == SER_REAL || (kind == SER_MARK && m->c[k].guest);
}

/* Column k's series of kind over panel p, one block: its number, or -1 when it has no point there. */
static int write_series(FILE *dat, const mreport *m, int kind, int k, int p, int block)
{
    int any = 0;
    double shift = k - (m->nc - 1) / 2.0;
    for (int xi = 0; xi < npoints(m); xi++) {
        const char *v, *o;
        int64_t size;
        point_cell(m, p, xi, &v, &o, &size);
        ratio r;
        if (!series_point(m, kind, k, p, xi, &r)) continue;
        /* side by side so that the error bars do not hide each other (the real code's a little apart) */
        int apart = on_real_points(m, kind, k);
        double x = by_size(m) ? (double)size * pow(2, 0.04 * shift + (apart ? 0.02 : 0)) : xi + 0.06 * shift + (apart ? 0.03 : 0);
        fprintf(dat, "%.6g %.6g %.6g %.6g\n", x, r.est, r.lo, r.hi);
        any = 1;
    }
    if (!any) return -1;
    fprintf(dat, "\n\n");
    return block;
}

static int write_dat(FILE *dat, const mreport *m, int (*blocks)[NBLOCKS])
{
    int block = 0;
    for (int p = 0; p < npanels(m); p++) {
        blocks[p][0] = -1;
        int any = 0;
        for (int xi = 0; xi < npoints(m); xi++) {
            const char *v, *o;
            int64_t size;
            point_cell(m, p, xi, &v, &o, &size);
            double dr = doc_ratio(m, v, o, size);
            if (!isfinite(dr)) continue;
            fprintf(dat, "%.6g %.6g\n", by_size(m) ? (double)size : xi, dr);
            any = 1;
        }
        if (any) { fprintf(dat, "\n\n"); blocks[p][0] = block++; }
        for (int k = 0; k < m->nc; k++)
            for (int kind = 0; kind < NSER; kind++) {
                blocks[p][blk(kind, k)] = write_series(dat, m, kind, k, p, block);
                if (blocks[p][blk(kind, k)] >= 0) block++;
            }
    }
    return block;
}

/* panels, then one that holds only the key (names can be long) */
static void layout(const mreport *m, int *cols, int *nrows)
{
    int np = npanels(m) + 1;
    *cols = by_size(m) && m->no > 1 ? m->no : (np > 3 ? 2 : 1);
    *nrows = (np + *cols - 1) / *cols;
}

static void write_plot(FILE *gp, const mreport *m, int (*blocks)[NBLOCKS], const char *datname, const char *term,
                       const char *out, pb_gpq *g)
{
    int cols, nrows;
    layout(m, &cols, &nrows);
    fprintf(gp, "set terminal %s noenhanced\nset output '%s'\n", term, pb_gpq_text(g, out));
    fprintf(gp, "reset\nset datafile missing '?'\nset logscale y 2\nset format y '%%g'\nset grid\nunset key\n");
    if (by_size(m)) fprintf(gp, "set logscale x 2\nset xlabel 'bytes per operation'\n");
    else fprintf(gp, "set xrange [-0.5:%g]\n", m->nv - 0.5);
    write_xtics(gp, m, g);
    /* the suite's own names only (suite.h constants, not stored text) inside this double-quoted title */
    fprintf(gp, "set multiplot layout %d,%d title \"%s: time %s/%s per machine and configuration, 95 %% CI as "
                "error bars\\n(line colour: configuration; dash type: CPU identity%s)\"\n",
            nrows, cols, m->s->name, m->s->candidate, m->s->baseline, has_doc(m) ? "; diamonds: the document" : "");
    for (int p = 0; p < npanels(m); p++) {
        if (by_size(m))
            fprintf(gp, "set title '%s %s'\n", pb_gpq_text(g, m->v[p / m->no]), pb_gpq_text(g, m->o[p % m->no]));
        else
            fprintf(gp, "set title '%s'\n", pb_gpq_text(g, m->o[p]));
        fprintf(gp, "set ylabel 'time ratio'\nplot 1 with lines dt 2 lc rgb '#606060' notitle");
        if (blocks[p][0] >= 0)
            fprintf(gp, ", \\\n     '%s' index %d using 1:2 with points pt 13 ps 1.5 lc rgb '#a06000' notitle",
                    pb_gpq_text(g, datname), blocks[p][0]);
        for (int k = 0; k < m->nc; k++) {
            if (blocks[p][blk(SER_RATIO, k)] >= 0)
                fprintf(gp, ", \\\n     '%s' index %d using 1:2:3:4 with %s lc %d dt %d lw 1.3 notitle",
                        pb_gpq_text(g, datname), blocks[p][blk(SER_RATIO, k)], by_size(m) ? "yerrorlines" : "yerrorbars",
                        k + 1, m->c[k].group % 5 + 1);
            if (blocks[p][blk(SER_REAL, k)] >= 0)
                fprintf(gp, ", \\\n     '%s' index %d using 1:2:3:4 with yerrorbars pt 4 ps 1.2 lc %d lw 1 notitle",
                        pb_gpq_text(g, datname), blocks[p][blk(SER_REAL, k)], k + 1);
            if (blocks[p][blk(SER_MARK, k)] >= 0)
                fprintf(gp, ", \\\n     '%s' index %d using 1:2 with points pt 6 ps 2.5 lw 1.5 lc rgb '#c00000' notitle",
                        pb_gpq_text(g, datname), blocks[p][blk(SER_MARK, k)]);
        }
        fprintf(gp, "\n");
    }
    /* the key panel: every series' title, nothing drawn (the curves lie outside the range) */
    fprintf(gp, "unset title\nunset xlabel\nunset ylabel\nunset border\nunset tics\nunset grid\nunset logscale\n"
                "set xrange [0:1]\nset yrange [0:1]\nset key center center vertical Left reverse font ',%d'\n"
                "plot 2 with lines dt 2 lc rgb '#606060' title 'no change'",
            PB_FIG_FONT_PT);
    if (has_doc(m)) fprintf(gp, ", \\\n     2 with points pt 13 ps 1.5 lc rgb '#a06000' title 'document'");
    for (int k = 0; k < m->nc; k++) {
        char title[1100];
        key_title(&m->c[k], title, sizeof title);
        fprintf(gp, ", \\\n     2 with linespoints lc %d dt %d lw 1.3 title '%s'", k + 1, m->c[k].group % 5 + 1,
                pb_gpq_text(g, title));
        if (m->c[k].real)
            fprintf(gp, ", \\\n     2 with points pt 4 ps 1.2 lc %d title 'real code %s/%s'", k + 1,
                    pb_gpq_text(g, m->c[k].real_cand), pb_gpq_text(g, m->c[k].real_base));
    }
    if (any_real(m))
        fprintf(gp, ", \\\n     2 with points pt 6 ps 2.5 lw 1.5 lc rgb '#c00000' title '%s'", pb_real_mark);
    fprintf(gp, "\nunset multiplot\nreset\n");
}

/* the suite's files, by name in the report's private folder and in --out (out_stage.h) */
typedef struct mpaths {
    char md[256], png[256], svg[256], dat[256], gp[256], log[256];
} mpaths;

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

static int draw(const mreport *m, const mpaths *p, pb_stage *st, pb_err *e)
{
    char gnuplot[1100];
    if (!pb_report_find_gnuplot(gnuplot, sizeof gnuplot))
        return pb_errf(e, "gnuplot not found on PATH: install it (Debian: apt-get install gnuplot-nox)");
    /* every text that goes into the script checked before anything is written */
    pb_gpq g = {.next = 0, .bad = 0};
    for (int k = 0; k < m->nc && !g.bad; k++) {
        char title[1100];
        key_title(&m->c[k], title, sizeof title);
        pb_gpq_text(&g, title);
    }
    for (int i = 0; i < m->nv && !g.bad; i++) pb_gpq_text(&g, m->v[i]);
    for (int i = 0; i < m->no && !g.bad; i++) pb_gpq_text(&g, m->o[i]);
    if (g.bad) return pb_errf(e, "%s", g.err.msg);
    /* the figures' places checked before anything is drawn: gnuplot writes them by name */
    if (pb_stage_add(st, p->png, e) < 0 || pb_stage_add(st, p->svg, e) < 0) return -1;
    int (*blocks)[NBLOCKS] = calloc((size_t)(npanels(m) + 1), sizeof *blocks);
    if (!blocks) return pb_errf(e, "out of memory");
    FILE *dat = pb_stage_fopen(st, p->dat, e), *gp = dat ? pb_stage_fopen(st, p->gp, e) : NULL;
    if (!dat || !gp) {
        if (dat) fclose(dat);
        free(blocks);
        return -1;
    }
    write_dat(dat, m, blocks);
    int cols, nrows;
    layout(m, &cols, &nrows);
    /* room for PB_FIG_FONT_PT lettering (report.h) */
    int w = cols * 900, h = nrows * 420 + 90;
    char tpng[128], tsvg[128];
    snprintf(tpng, sizeof tpng, "pngcairo size %d,%d font ',%d'", w, h, PB_FIG_FONT_PT);
    snprintf(tsvg, sizeof tsvg, "svg size %d,%d font 'sans,%d' dynamic", w, h, PB_FIG_FONT_PT);
    write_plot(gp, m, blocks, p->dat, tpng, p->png, &g);
    write_plot(gp, m, blocks, p->dat, tsvg, p->svg, &g);
    free(blocks);
    int bad = g.bad;
    if (pb_stage_fclose(st, dat, p->dat, e) < 0) bad = 1;
    if (pb_stage_fclose(st, gp, p->gp, bad ? &(pb_err){{0}} : e) < 0) bad = 1;
    if (g.bad) pb_errf(e, "%s", g.err.msg);
    if (bad) return -1;
    return pb_report_run_gnuplot(gnuplot, st, p->gp, p->log, e);
}

static int write_md(const mreport *m, const mpaths *p, pb_stage *st, pb_err *e)
{
    FILE *f = pb_stage_fopen(st, p->md, e);
    if (!f) return -1;
    fprintf(f, "# %s across machines — %s\n\n", m->s->name, m->s->title ? m->s->title : "");
    fprintf(f, "![%s: time ratios per machine and configuration](%s_machines.png)\n\n", m->s->name, m->s->name);
    legend_md(f, m);
    columns_md(f, m);
    write_table(f, 0, (mreport *)m);
    fprintf(f, "\n");
    return pb_stage_fclose(st, f, p->md, e);
}

static int write_html(FILE *f, const mreport *m, const mpaths *p, const pb_stage *st, pb_err *e)
{
    fputs("<section id=\"machines-", f);
    pb_html_fputs(f, m->s->name);
    fputs("\">\n<h2>", f);
    pb_html_fputs(f, m->s->name);
    fputs(" across machines</h2>\n<p>Time ratio ", f);
    pb_html_fputs(f, m->s->candidate);
    fputs("/", f);
    pb_html_fputs(f, m->s->baseline);
    fprintf(f, " per cell for every machine and configuration, each from its newest complete run, grouped by CPU "
               "identity (vendor, family, model, stepping); verdicts with tolerance t = %.2f (below 1: the candidate is faster).</p>\n<figure>\n",
            m->cfg.tolerance);
    if (pb_report_html_svg(f, st, p->svg, e) < 0) return -1;
    fputs("</figure>\n<ul>\n", f);
    for (int k = 0; k < m->nc; k++) {
        const mcol *c = &m->c[k];
        char line[512];
        column_summary(c, line, sizeof line);
        fputs("<li><strong>", f);
        pb_html_fputs(f, c->label);
        fputs("</strong>: CPU ", f);
        pb_html_fputs(f, c->cpu);
        fputs(" (", f);
        pb_html_fputs(f, c->ident_words);
        fputs("); machine ", f);
        pb_html_fputs(f, c->machine);
        fputs("; CPU affinity ", f);
        pb_html_fputs(f, c->affinity[0] ? c->affinity : "not recorded");
        fprintf(f, "; run %lld, started ", (long long)c->run);
        pb_html_fputs(f, c->started);
        fputs("; ", f);
        pb_html_fputs(f, line);
        fputs("</li>\n", f);
    }
    fputs("</ul>\n", f);
    write_table(f, 1, (mreport *)m);
    fputs("</section>\n", f);
    return 0;
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
        rc = draw(m, &p, &stage, e);
        if (rc == 0) rc = write_md(m, &p, &stage, e);
        if (rc == 0 && o->html) rc = write_html(o->html, m, &p, &stage, e);
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
