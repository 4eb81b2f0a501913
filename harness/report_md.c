/* SPDX-License-Identifier: GPL-2.0-only */
/* report_md.c — the report's markdown: per cell the measured values, the paired ratio and its CI,
 * the document's ratio and the verdict (what the verdicts mean: report.h). Reads only the
 * loaded data (report_data.h). */
#include "report_data.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "html.h"
#include "metrics.h"

/* A faster claim that does not even show this gain does not hold (a CI wholly
 * above 1 - MIN_GAIN); see pb_verdict in report.h for the rest. */
#define MIN_GAIN 0.01

static const char V_HOLDS[] = "claim holds", V_SIZE[] = "direction holds, size differs",
                  V_NOT[] = "claim does not hold", V_INCONCLUSIVE[] = "inconclusive here", V_NONE[] = "no claim",
                  V_NODATA[] = "no data", CODEGEN_MARK[] = "depends on code generation";

/* Does [lo, hi] meet the document's band [doc/(1+t), doc*(1+t)]? Touching counts. */
static int overlaps_band(double doc, double t, double lo, double hi)
{
    return lo <= doc * (1 + t) && hi >= doc / (1 + t);
}

const char *pb_verdict(pb_claim c, double doc, double t, double lo, double hi)
{
    if (c == PB_CLAIM_NONE) return V_NONE;
    if (isnan(lo) || isnan(hi) || lo > hi || !(t > 0) || !isfinite(t)) return V_INCONCLUSIVE;
    int sized = isfinite(doc) && doc > 0; /* NaN: direction only */
    switch (c) {
    case PB_CLAIM_FASTER:
        if (hi < 1.0) return !sized || overlaps_band(doc, t, lo, hi) ? V_HOLDS : V_SIZE;
        if (lo > 1.0 - MIN_GAIN) return V_NOT;
        return V_INCONCLUSIVE;
    case PB_CLAIM_NOT_SLOWER:
        if (hi <= 1.0 + t) return !sized || overlaps_band(doc, t, lo, hi) ? V_HOLDS : V_SIZE;
        if (lo > 1.0 + t) return V_NOT;
        return V_INCONCLUSIVE;
    case PB_CLAIM_EQUAL:
        if (lo >= 1.0 / (1 + t) && hi <= 1.0 + t) return V_HOLDS;
        if (hi < 1.0 / (1 + t) || lo > 1.0 + t) return V_NOT;
        return V_INCONCLUSIVE;
    default:
        return V_NONE;
    }
}

static void count_verdict(pb_verdict_counts *n, const char *v)
{
    n->cells++;
    if (v == V_HOLDS) n->holds++;
    else if (v == V_SIZE) n->size_differs++;
    else if (v == V_NOT) n->does_not_hold++;
    else if (v == V_INCONCLUSIVE) n->inconclusive++;
    else if (v == V_NONE) n->no_claim++;
    else n->no_data++;
}

void pb_verdict_summary(const pb_verdict_counts *c, char *buf, size_t len)
{
    int k = snprintf(buf, len, "%d cell%s: %s %d; %s %d; %s %d; %s %d", c->cells, c->cells == 1 ? "" : "s",
                     V_HOLDS, c->holds, V_SIZE, c->size_differs, V_NOT, c->does_not_hold, V_INCONCLUSIVE,
                     c->inconclusive);
    if (c->no_claim && k > 0 && (size_t)k < len)
        k += snprintf(buf + k, len - (size_t)k, "; %s %d", V_NONE, c->no_claim);
    if (c->no_data && k > 0 && (size_t)k < len)
        k += snprintf(buf + k, len - (size_t)k, "; %s %d", V_NODATA, c->no_data);
    if (k > 0 && (size_t)k < len) snprintf(buf + k, len - (size_t)k, "; %s %d", CODEGEN_MARK, c->codegen);
}

/* data/verdict.tsv: setting <TAB> suite|* <TAB> value */
int pb_verdict_cfg_load(const char *data_dir, const char *suite, pb_verdict_cfg *cfg, pb_err *e)
{
    cfg->tolerance = 0.10;
    cfg->codegen_threshold = 0.10;
    char path[1024];
    snprintf(path, sizeof path, "%s/verdict.tsv", data_dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(cfg->source, sizeof cfg->source, "built-in defaults (%s: %s)", path, strerror(errno));
        return 0;
    }
    snprintf(cfg->source, sizeof cfg->source, "%s", path);
    int own_tol = 0, own_cg = 0; /* a suite's own line wins over `*` whatever the order */
    char line[512];
    int ln = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        ln++;
        if (line[0] == '#' || line[0] == '\n') continue;
        char setting[PB_NAME_MAX], who[PB_NAME_MAX], rest[64];
        double v;
        int got = sscanf(line, "%47[^\t\n]\t%47[^\t\n]\t%lf%63s", setting, who, &v, rest);
        if (got != 3) {
            rc = pb_errf(e, "%s:%d: expected 3 tab-separated fields (setting suite|* value)", path, ln);
            break;
        }
        if (!(v > 0 && v < 1)) {
            rc = pb_errf(e, "%s:%d: %s wants a fraction between 0 and 1, got %g", path, ln, setting, v);
            break;
        }
        int is_tol = !strcmp(setting, "tolerance");
        if (!is_tol && strcmp(setting, "codegen_threshold")) {
            rc = pb_errf(e, "%s:%d: unknown setting '%s' (tolerance, codegen_threshold)", path, ln, setting);
            break;
        }
        int own = !strcmp(who, suite);
        if (!own && strcmp(who, "*")) continue; /* another suite's override */
        if (is_tol) {
            if (own || !own_tol) cfg->tolerance = v;
            own_tol |= own;
        } else {
            if (own || !own_cg) cfg->codegen_threshold = v;
            own_cg |= own;
        }
    }
    fclose(f);
    return rc;
}

static void run_header(FILE *md, const run_info *ri, const char *label)
{
    if (!ri->have) return;
    char *const *c = ri->col;
    fprintf(md, "**%s: run %lld** (%s, target %s%s%s)\n\n", label, (long long)ri->run, c[0], c[14],
            c[15] && *c[15] ? ", guest kernel " : "", c[15] ? c[15] : "");
    static const char *names[] = {"git", "compiler", "flags", "CPU", "CPU flags", "kernel", "clock source",
                                  "governor", "boost", "tick source", "counters", "command", "options"};
    for (int i = 0; i < 13; i++) fprintf(md, "- %s: `%s`\n", names[i], c[i + 1] ? c[i + 1] : "");
    fprintf(md, "- libraries: `%s`\n", c[16] ? c[16] : "");
    if (c[17]) fprintf(md, "- suite settings derived on this machine: `%s`\n", c[17]);
    if (c[18]) fprintf(md, "- samples taken in the fast core state (core-speed probe): %s\n", c[18]);
    if (c[19]) fprintf(md, "- benchmark thread: %s\n", c[19]);
    if (c[20]) fprintf(md, "- load average (1 min): %s\n", c[20]);
    if (c[RUN_INFO_NOISE]) fprintf(md, "\n**Noise warning: %s.** Read its numbers with that in mind.\n", c[RUN_INFO_NOISE]);
    fprintf(md, "\n");
}

static void unavailable_notes(FILE *md, const pb_report_data *d, int64_t run)
{
    int first = 1;
    for (size_t i = 0; i < d->nnotes; i++) {
        const note_row *x = &d->notes[i];
        if (x->run != run) continue;
        if (first) fprintf(md, "Unavailable here (reported, not counted as zero):\n\n");
        first = 0;
        fprintf(md, "- %s (%s): %s\n", x->impl, x->cells, x->reason);
    }
    if (!first) fprintf(md, "\n");
}

const char *pb_claim_name(pb_claim c)
{
    switch (c) {
    case PB_CLAIM_FASTER: return "faster";
    case PB_CLAIM_EQUAL: return "equal";
    case PB_CLAIM_NOT_SLOWER: return "not slower";
    default: return "-";
    }
}

#define MAXP 8
/* Code-generation profiles P with both <cand>@P and <base>@P among the impls. */
static int find_profiles(const axes *a, const char *base, const char *cand, char prof[][PB_NAME_MAX])
{
    int np = 0;
    size_t nc = strlen(cand);
    for (int k = 0; k < a->ni && np < MAXP; k++) {
        const char *im = a->impl[k];
        if (strncmp(im, cand, nc) || im[nc] != '@' || !im[nc + 1]) continue;
        char b[2 * PB_NAME_MAX];
        snprintf(b, sizeof b, "%s@%s", base, im + nc + 1);
        if (pb_report_index_of((char (*)[PB_NAME_MAX])a->impl, a->ni, b) >= 0)
            snprintf(prof[np++], PB_NAME_MAX, "%s", im + nc + 1);
    }
    return np;
}

/* One table, two notations: cells go through tw_cell, which writes a markdown cell or an HTML
 * cell (its text escaped by pb_html_escape: names come from the store and are untrusted). */
static void tw_row(pb_table_writer *t, int header)
{
    t->header = header;
    if (!t->f) return;
    fputs(t->html ? "<tr>" : "|", t->f);
}

static void tw_end(pb_table_writer *t, int ncols)
{
    if (!t->f) return;
    fputs(t->html ? "</tr>\n" : "\n", t->f);
    if (t->header && !t->html) {
        fputs("|", t->f);
        for (int i = 0; i < ncols; i++) fputs("---|", t->f);
        fputs("\n", t->f);
    }
}

static void tw_cell(pb_table_writer *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tw_cell(pb_table_writer *t, const char *fmt, ...)
{
    char b[512];
    if (!t->f) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    if (!t->html) { fprintf(t->f, " %s |", b); return; }
    fputs(t->header ? "<th>" : "<td>", t->f);
    pb_html_fputs(t->f, b);
    fputs(t->header ? "</th>" : "</td>", t->f);
}

/* The measured/document column: how the measured time ratio sits against the document's, and for
 * a speed-up claim how large the measured speed-up is against the document's. */
static void print_size_column(pb_table_writer *t, pb_claim cl, int have_t, const ratio *rt, double dt)
{
    if (!have_t || !isfinite(dt) || dt <= 0 || !(rt->est > 0)) { tw_cell(t, "-"); return; }
    if (cl != PB_CLAIM_EQUAL) tw_cell(t, "%.2f (speed-up %.2fx the document's)", rt->est / dt, dt / rt->est);
    else tw_cell(t, "%.2f", rt->est / dt);
}

/* a measured median in fixed notation (4 significant digits), or why there is none */
static void print_median(pb_table_writer *t, const pb_report_data *d, int64_t run, const row *x, const char *impl,
                         const char *variant, const char *op)
{
    char b[48];
    if (x) tw_cell(t, "%s", pb_fmt_sig(b, sizeof b, x->median, 4));
    else tw_cell(t, "%s", pb_report_unavailable(d, run, impl, variant, op) ? "unavailable" : "-");
}

static void print_ratio(pb_table_writer *t, int have, const ratio *r)
{
    if (have) tw_cell(t, "%.3f [%.3f, %.3f]", r->est, r->lo, r->hi);
    else tw_cell(t, "-");
}

void pb_report_table(pb_table_writer *t, const pb_report_data *d, const pb_suite *s, int64_t run, int guest,
                     const pb_verdict_cfg *cfg, pb_verdict_counts *n)
{
    const rows *m = &d->m, *doc = &d->doc;
    const char *metric = pb_suite_primary_metric(s);
    axes a;
    rows sub = {0};
    for (int i = 0; i < m->n; i++)
        if (m->v[i].guest == guest) { row *x = pb_report_push(&sub); if (x) *x = m->v[i]; }
    pb_report_axes(&sub, &a);
    const char *base = s->baseline, *cand = s->candidate;
    if (guest && s->kmod_impls) {
        base = s->kmod_baseline;
        cand = s->kmod_candidate;
    }
    char prof[MAXP][PB_NAME_MAX];
    int np = find_profiles(&a, base, cand, prof);
    const pb_metric *pm = pb_metric_find(metric);
    const char *unit = pm ? pm->unit : metric;
    int ncols = 0;
    tw_row(t, 1);
    tw_cell(t, "variant");
    tw_cell(t, "op");
    tw_cell(t, "bytes");
    tw_cell(t, "%s (%s)", base, unit);
    tw_cell(t, "%s (%s)", cand, unit);
    ncols += 5;
    for (int k = 0; k < a.ni; k++)
        if (strcmp(a.impl[k], base) && strcmp(a.impl[k], cand)) { tw_cell(t, "%s (%s)", a.impl[k], unit); ncols++; }
    tw_cell(t, "time %s/%s [95%% CI]", cand, base);
    for (int p = 0; p < np; p++) tw_cell(t, "time %s@%s/%s@%s [95%% CI]", cand, prof[p], base, prof[p]);
    tw_cell(t, "document time %s/%s", cand, base);
    tw_cell(t, "measured/document");
    tw_cell(t, "claim");
    tw_cell(t, "verdict");
    ncols += np + 5;
    if (np) { tw_cell(t, "code generation"); ncols++; }
    tw_end(t, ncols);
    for (int vi = 0; vi < a.nv; vi++)
        for (int oi = 0; oi < a.no; oi++)
            for (int si = 0; si < a.ns; si++) {
                const row *b = pb_report_find(&sub, base, a.v[vi], a.o[oi], a.sizes[si]);
                const row *c = pb_report_find(&sub, cand, a.v[vi], a.o[oi], a.sizes[si]);
                if (!b && !c) continue;
                tw_row(t, 0);
                tw_cell(t, "%s", a.v[vi]);
                tw_cell(t, "%s", a.o[oi]);
                char sz[32]; /* in binary units, as the plots label them (32 KiB, not 32768) */
                tw_cell(t, "%s", pb_fmt_bytes(sz, sizeof sz, a.sizes[si]));
                print_median(t, d, run, b, base, a.v[vi], a.o[oi]);
                print_median(t, d, run, c, cand, a.v[vi], a.o[oi]);
                for (int k = 0; k < a.ni; k++) {
                    if (!strcmp(a.impl[k], base) || !strcmp(a.impl[k], cand)) continue;
                    const row *x = pb_report_find(&sub, a.impl[k], a.v[vi], a.o[oi], a.sizes[si]);
                    print_median(t, d, run, x, a.impl[k], a.v[vi], a.o[oi]);
                }
                /* every ratio in the table is one of time (cost): bench compare and bench gate's orientation */
                ratio rt;
                int have_t = pb_report_ratio(d, run, PB_DEFAULT_METRIC, base, cand, a.v[vi], a.o[oi], a.sizes[si], &rt);
                print_ratio(t, have_t, &rt);
                /* the same sources built with each profile, and whether the answer moves with them */
                int codegen = 0;
                for (int p = 0; p < np; p++) {
                    char pb[2 * PB_NAME_MAX], pc[2 * PB_NAME_MAX];
                    snprintf(pb, sizeof pb, "%s@%s", base, prof[p]);
                    snprintf(pc, sizeof pc, "%s@%s", cand, prof[p]);
                    ratio rpt;
                    int have_p = pb_report_ratio(d, run, PB_DEFAULT_METRIC, pb, pc, a.v[vi], a.o[oi], a.sizes[si], &rpt);
                    print_ratio(t, have_p, &rpt);
                    if (have_t && rt.est > 0 && have_p && fabs(rpt.est / rt.est - 1) > cfg->codegen_threshold)
                        codegen = 1;
                }
                const row *db = pb_report_find(doc, s->baseline, a.v[vi], a.o[oi], a.sizes[si]);
                const row *dc = pb_report_find(doc, s->candidate, a.v[vi], a.o[oi], a.sizes[si]);
                double dr = db && dc && db->median > 0 ? dc->median / db->median : NAN;
                /* the document's ratio in time terms, as every ratio of the table */
                double dt = dr;
                if (isfinite(dr) && pb_metric_higher_is_better(metric)) dt = 1 / dr;
                if (isfinite(dt)) tw_cell(t, "%.3f", dt); else tw_cell(t, "-");
                pb_cell cell;
                memset(&cell, 0, sizeof cell);
                snprintf(cell.variant, sizeof cell.variant, "%s", a.v[vi]);
                snprintf(cell.op, sizeof cell.op, "%s", a.o[oi]);
                cell.size_bytes = (uint64_t)a.sizes[si];
                pb_claim cl = s->claim ? s->claim(&cell, dt) : PB_CLAIM_NONE;
                print_size_column(t, cl, have_t, &rt, dt);
                const char *v = have_t ? pb_verdict(cl, dt, cfg->tolerance, rt.lo, rt.hi) : V_NODATA;
                tw_cell(t, "%s", pb_claim_name(cl));
                tw_cell(t, "%s", v);
                if (np) tw_cell(t, "%s", codegen ? CODEGEN_MARK : "");
                tw_end(t, ncols);
                count_verdict(n, v);
                n->codegen += codegen;
            }
    free(sub.v);
}

/* Every other implementation's time ratio against the baseline, with its CI: the numbers of the
 * ratio figure, for a third implementation (a plug-in, a peer, a build profile) that the verdict
 * table shows only as medians. Nothing when the run stored none. */
static void other_ratios(pb_table_writer *t, const pb_report_data *d, const pb_suite *s, int64_t run)
{
    char impls[MAXV][PB_NAME_MAX];
    int ni = 0;
    for (size_t i = 0; i < d->nratios; i++) {
        const ratio_row *x = &d->ratios[i];
        if (x->run == run && !strcmp(x->metric, PB_DEFAULT_METRIC) && !strcmp(x->base, s->baseline) &&
            strcmp(x->cand, s->candidate) && strlen(x->cand) < PB_NAME_MAX && ni < MAXV)
            pb_report_add_unique(impls, &ni, x->cand);
    }
    if (!ni) return;
    rows sub = {0};
    for (int i = 0; i < d->m.n; i++)
        if (!d->m.v[i].guest) { row *x = pb_report_push(&sub); if (x) *x = d->m.v[i]; }
    axes a;
    pb_report_axes(&sub, &a);
    fprintf(t->f, "Every other implementation against %s (time X/%s [95%% CI], as in the ratio figure):\n\n",
            s->baseline, s->baseline);
    tw_row(t, 1);
    tw_cell(t, "variant");
    tw_cell(t, "op");
    tw_cell(t, "bytes");
    for (int k = 0; k < ni; k++) tw_cell(t, "time %s/%s", impls[k], s->baseline);
    tw_end(t, 3 + ni);
    for (int vi = 0; vi < a.nv; vi++)
        for (int oi = 0; oi < a.no; oi++)
            for (int si = 0; si < a.ns; si++) {
                if (!pb_report_find(&sub, s->baseline, a.v[vi], a.o[oi], a.sizes[si])) continue;
                char sz[32];
                tw_row(t, 0);
                tw_cell(t, "%s", a.v[vi]);
                tw_cell(t, "%s", a.o[oi]);
                tw_cell(t, "%s", pb_fmt_bytes(sz, sizeof sz, a.sizes[si]));
                for (int k = 0; k < ni; k++) {
                    ratio r;
                    int have = pb_report_ratio(d, run, PB_DEFAULT_METRIC, s->baseline, impls[k], a.v[vi], a.o[oi],
                                               a.sizes[si], &r);
                    print_ratio(t, have, &r);
                }
                tw_end(t, 3 + ni);
            }
    fprintf(t->f, "\n");
    free(sub.v);
}

/* What the verdicts mean, with the figures this report used. */
static void verdict_legend(FILE *md, const pb_suite *s, const char *metric, const pb_verdict_cfg *cfg)
{
    fprintf(md,
            "Each cell's implementations ran interleaved in rounds (rotating start); the ratio is the\n"
            "Hodges-Lehmann estimate over rounds of the paired ratio %s/%s, with its 95 %%\n"
            "Wilcoxon signed-rank confidence interval.\n\n"
            "**Every ratio here is one of time per operation (cost), X/%s: below 1, X is faster** (the\n"
            "orientation of `bench compare` and `bench gate`, cost B/A). The medians are in %s",
            s->candidate, s->baseline, s->baseline, pb_metric_words(metric));
    if (pb_metric_higher_is_better(metric))
        fprintf(md, "; a throughput ratio is the inverse of the time ratio (time 1.197 = throughput 0.836), so\n"
                    "the document's throughput figures are inverted too");
    fprintf(md, ".\n\n");
    fprintf(md,
            "**Verdicts** (on the time ratio's CI; tolerance t = %.2f, code-generation threshold %.2f, from %s):\n\n"
            "- *claim holds*: the direction is right and the CI overlaps the document's ratio d widened by the\n"
            "  tolerance, [d/(1+t), d·(1+t)] (multiplicative, so a ratio of 0.5 and one of 1/8 get the same\n"
            "  relative room). Without a document number only the direction is judged. An *equal* claim holds\n"
            "  when the whole CI lies within [1/(1+t), 1+t]; *not slower* needs the CI below 1+t.\n"
            "- *direction holds, size differs*: the direction is right but the CI misses the document's band;\n"
            "  *measured/document* says by how much (and, for a speed-up, how large it is against the document's).\n"
            "- *claim does not hold*: *faster* shows not even a %.0f %% gain, *not slower* is slower by more than\n"
            "  t, *equal* lies wholly outside [1/(1+t), 1+t].\n"
            "- *inconclusive here*: anything else (the CI is too wide to tell on this machine).\n\n",
            cfg->tolerance, cfg->codegen_threshold, cfg->source, MIN_GAIN * 100);
    fprintf(md,
            "**Code generation**: where the same sources were also built with another profile P (impls\n"
            "`%s@P`, `%s@P`, measured interleaved in the same cells), their ratio stands beside the faithful one,\n"
            "and a cell whose two time ratios differ by more than %.0f %% (|r_P/r - 1| > %.2f) is marked\n"
            "*depends on code generation*: that answer is the compiler's as much as the patch's.\n\n",
            s->candidate, s->baseline, cfg->codegen_threshold * 100, cfg->codegen_threshold);
}

static void write_summary(FILE *md, const pb_verdict_counts *n)
{
    char line[512];
    pb_verdict_summary(n, line, sizeof line);
    fprintf(md, "**Summary:** %s.\n\n", line);
    if (n->does_not_hold)
        fprintf(md, "**This machine disagrees with the document in %d of %d cells** (verdict: claim does not hold).\n\n",
                n->does_not_hold, n->cells);
}

int pb_report_markdown(const pb_suite *s, const pb_report_data *d, const pb_verdict_cfg *cfg,
                       const pb_report_paths *out, pb_verdict_counts *host, pb_verdict_counts *guest, pb_err *e)
{
    FILE *md = fopen(out->md, "w");
    if (!md) {
        pb_report_remove_outputs(out);
        return pb_errf(e, "cannot write %s: %s", out->md, strerror(errno));
    }
    fprintf(md, "# %s — %s\n\n", s->name, s->title ? s->title : "");
    fprintf(md, "![%s: time ratios against the document](%s_ratio.png)\n\n", s->name, s->name);
    fprintf(md, "![%s: measured medians beside the document's](%s.png)\n\n", s->name, s->name);
    run_header(md, &d->info[0], "Measured");
    verdict_legend(md, s, pb_suite_primary_metric(s), cfg);
    pb_table_writer tw = {.f = md};
    pb_report_table(&tw, d, s, d->run, 0, cfg, host);
    fprintf(md, "\n");
    write_summary(md, host);
    unavailable_notes(md, d, d->run);
    other_ratios(&tw, d, s, d->run);
    if (d->guest_run) {
        fprintf(md, "## Kernel-module variant\n\n");
        run_header(md, &d->info[1], "Kernel module");
        fprintf(md, "Timings under QEMU TCG are emulated (30-60x slower than hardware, ±25 %% between boots): only\n"
                    "the ratios measured within the same boot mean anything.\n\n");
        pb_report_table(&tw, d, s, d->guest_run, 1, cfg, guest);
        fprintf(md, "\n");
        write_summary(md, guest);
        unavailable_notes(md, d, d->guest_run);
    }
    if (s->notes_md) fprintf(md, "## Notes\n\n%s\n", s->notes_md);
    if (pb_report_close_checked(md, out->md, e) < 0) {
        pb_report_remove_outputs(out);
        return -1;
    }
    return 0;
}
