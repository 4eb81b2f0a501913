/* SPDX-License-Identifier: GPL-2.0-only */
/* gate_render.c — the formats of the gate document (gate_doc.h, docs/gate-outputs.md): text, the
 * Markdown of a pull request's comment, the JSON itself, JUnit XML, a GitLab Code Quality report,
 * and GitHub workflow commands. Each reads the document's JSON only, so a document joined from
 * saved ones (bench gate --merge) renders as its gates did; every piece of text in it goes through
 * the escaping of the language written (text_out.h), and what people read shows no absolute path
 * (paths.h). */
#include "gate_doc.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "export.h"
#include "paths.h"
#include "text_out.h"

/* ---- reading the document: what is missing or of another type reads as nothing ---- */

static const char *jstr(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_string(v) ? json_string_value(v) : "";
}

static double jnum(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static long long jint(const json_t *o, const char *k, long long dflt)
{
    const json_t *v = json_object_get(o, k);
    return json_is_integer(v) ? (long long)json_integer_value(v) : dflt;
}

static const json_t *jarr(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_array(v) ? v : NULL;
}

static pb_cell_verdict verdict_named(const char *s)
{
    for (int v = PB_CELL_PASS; v <= PB_CELL_COMPARED; v++)
        if (!strcmp(s, pb_cell_verdict_name((pb_cell_verdict)v))) return (pb_cell_verdict)v;
    return PB_CELL_NODATA;
}

static void cell_from_json(pb_cmp_cell *c, const json_t *o)
{
    memset(c, 0, sizeof *c);
    snprintf(c->impl_a, sizeof c->impl_a, "%s", jstr(o, "baseline"));
    snprintf(c->impl_b, sizeof c->impl_b, "%s", jstr(o, "candidate"));
    snprintf(c->variant, sizeof c->variant, "%s", jstr(o, "variant"));
    snprintf(c->op, sizeof c->op, "%s", jstr(o, "op"));
    snprintf(c->note, sizeof c->note, "%s", jstr(o, "note"));
    double size = jnum(o, "size_bytes"), pairs = jnum(o, "pairs");
    c->size = size > 0 ? (uint64_t)size : 0;
    c->n = pairs > 0 ? (size_t)pairs : 0;
    c->rounds = (int)jint(o, "rounds", 0);
    c->layouts = (int)jint(o, "layouts", 1);
    struct { const char *k; double *v; } nums[] = {
        {"ratio", &c->ratio}, {"ci_lo", &c->ci_lo}, {"ci_hi", &c->ci_hi}, {"conf", &c->conf}, {"p", &c->p},
        {"p_holm", &c->p_holm}, {"se_log", &c->se_log}, {"noise", &c->noise}, {"order_effect", &c->order_effect},
        {"mdc", &c->mdc}, {"calibrated_mdc", &c->calibrated_mdc}, {"threshold", &c->threshold},
        {"layout_lo", &c->layout_lo}, {"layout_hi", &c->layout_hi}, {"layout_df", &c->layout_df},
    };
    for (size_t k = 0; k < sizeof nums / sizeof nums[0]; k++) *nums[k].v = jnum(o, nums[k].k);
    c->verdict = verdict_named(jstr(o, "verdict"));
    size_t i;
    const json_t *fd;
    json_array_foreach(jarr(o, "functions"), i, fd) {
        if (c->nfn == PB_FN_SHOWN) break;
        pb_fn_delta *d = &c->fn[c->nfn++];
        snprintf(d->func, sizeof d->func, "%s", jstr(fd, "function"));
        d->base = jnum(fd, "baseline");
        d->cand = jnum(fd, "candidate");
        d->delta = jnum(fd, "delta");
    }
}

/* a gate of the document as pb_gate_print takes it; people: its paths shown as paths.h shows them */
typedef struct gate_view {
    pb_cmp_header h;
    pb_gate_params gp;
    pb_cmp_cell *cells;
    size_t n;
    char title[1024], note[8192];
} gate_view;

static int view_gate(gate_view *v, const json_t *g, int people, pb_err *e)
{
    memset(v, 0, sizeof *v);
    const json_t *cells = jarr(g, "cells");
    v->n = cells ? json_array_size(cells) : 0;
    v->cells = calloc(v->n + 1, sizeof *v->cells);
    if (!v->cells) return pb_errf(e, "out of memory");
    for (size_t i = 0; i < v->n; i++) cell_from_json(&v->cells[i], json_array_get(cells, i));
    v->gp = (pb_gate_params){.alpha = jnum(g, "alpha"), .conf = jnum(g, "conf"), .power = jnum(g, "power")};
    if (people) {
        pb_text_paths_shown(v->title, sizeof v->title, jstr(g, "title"));
        pb_text_paths_shown(v->note, sizeof v->note, jstr(g, "note"));
    } else {
        snprintf(v->title, sizeof v->title, "%s", jstr(g, "title"));
        snprintf(v->note, sizeof v->note, "%s", jstr(g, "note"));
    }
    v->h = (pb_cmp_header){.title = v->title, .suite = jstr(g, "suite"), .metric = jstr(g, "metric"),
                           .pairing = jstr(g, "pairing"), .gate = jstr(g, "gate"),
                           .comparison_id = jint(g, "comparison_id", 0), .gp = &v->gp,
                           .exit_status = (int)jint(g, "exit_status", -1), .note = v->note,
                           .command = jstr(g, "command"), .measure = jstr(g, "measure"),
                           .method = *jstr(g, "method") ? jstr(g, "method") : NULL};
    return 0;
}

static void view_free(gate_view *v)
{
    free(v->cells);
    v->cells = NULL;
}

/* "claim xts", "commit drbg (counts)", "compare sigpool": a gate as lists name it */
static const char *gate_label(char *b, size_t cap, const json_t *g)
{
    const char *gate = jstr(g, "gate");
    snprintf(b, cap, "%s %s%s", gate[0] ? gate : jstr(g, "command"), jstr(g, "suite"),
             !strcmp(jstr(g, "measure"), "valgrind") ? " (counts)" : "");
    return b;
}

/* "new vs old: 256 enc 4096 B" (one impl on both sides: "new: ...") */
static const char *cell_label(char *b, size_t cap, const json_t *c)
{
    const char *a = jstr(c, "baseline"), *x = jstr(c, "candidate");
    double size = jnum(c, "size_bytes");
    snprintf(b, cap, "%s%s%s: %s %s %.0f B", x, strcmp(a, x) ? " vs " : "", strcmp(a, x) ? a : "", jstr(c, "variant"),
             jstr(c, "op"), isfinite(size) ? size : 0);
    return b;
}

typedef enum { NOTE_NONE, NOTE_REGRESSION, NOTE_UNDER, NOTE_INCONCLUSIVE } cell_kind;

static cell_kind kind_of(const json_t *c)
{
    const char *v = jstr(c, "verdict");
    if (!strcmp(v, "regression")) return NOTE_REGRESSION;
    if (json_is_true(json_object_get(c, "under_threshold"))) return NOTE_UNDER;
    if (!strcmp(v, "inconclusive")) return NOTE_INCONCLUSIVE;
    return NOTE_NONE;
}

static const char *pct(char *b, size_t cap, double f)
{
    if (isfinite(f)) snprintf(b, cap, "%.3g %%", 100 * f);
    else snprintf(b, cap, "-");
    return b;
}

/* what a cell found, in words: "12.3 % slower, over the 10 % threshold (p (Holm) 0.0012)" */
static const char *finding(char *b, size_t cap, const json_t *c)
{
    double r = jnum(c, "ratio"), t = jnum(c, "threshold"), ph = jnum(c, "p_holm");
    char tb[32], mb[32];
    switch (kind_of(c)) {
    case NOTE_REGRESSION:
        if (isfinite(ph))
            snprintf(b, cap, "regression: %.1f %% slower [%.1f %%, %.1f %%], over the %s threshold (p (Holm) %.2g)",
                     100 * (r - 1), 100 * (jnum(c, "ci_lo") - 1), 100 * (jnum(c, "ci_hi") - 1), pct(tb, sizeof tb, t), ph);
        else
            snprintf(b, cap, "regression: %.2f %% more, over the %s threshold", 100 * (r - 1), pct(tb, sizeof tb, t));
        /* a count gate names the functions that account for most of the increase */
        if (jstr(c, "grew")[0]) snprintf(b + strlen(b), cap - strlen(b), "; grew: %s", jstr(c, "grew"));
        break;
    case NOTE_UNDER: snprintf(b, cap, "%s", jstr(c, "finding")); break;
    case NOTE_INCONCLUSIVE:
        snprintf(b, cap, "inconclusive: cost %.3f [%.3f, %.3f] cannot be told from a %s slowdown (MDC %s)", r,
                 jnum(c, "ci_lo"), jnum(c, "ci_hi"), pct(tb, sizeof tb, t), pct(mb, sizeof mb, jnum(c, "mdc")));
        break;
    default: snprintf(b, cap, "%s", jstr(c, "verdict"));
    }
    return b;
}

/* ---- text ---- */

static int render_text(FILE *f, pb_gate_doc *d, pb_err *e)
{
    const json_t *root = pb_gate_doc_json(d);
    size_t i;
    const json_t *g;
    char buf[4096];
    json_array_foreach(jarr(root, "gates"), i, g) {
        gate_view v;
        if (view_gate(&v, g, 0, e) < 0) return -1;
        if (i) fputc('\n', f);
        pb_gate_print(f, 0, &v.h, v.cells, v.n);
        view_free(&v);
    }
    /* each line cut to the terminal's width, as the tables are */
    char what[4096 + 300], suite[256];
    json_array_foreach(jarr(root, "errors"), i, g) {
        snprintf(what, sizeof what, "error: %s: %s", pb_term_text(suite, sizeof suite, jstr(g, "suite")),
                 pb_term_text(buf, sizeof buf, jstr(g, "message")));
        pb_gate_text_line(f, what);
    }
    json_array_foreach(jarr(root, "skipped"), i, g) {
        snprintf(what, sizeof what, "skipped: %s: %s", pb_term_text(suite, sizeof suite, jstr(g, "suite")),
                 pb_term_text(buf, sizeof buf, jstr(g, "reason")));
        pb_gate_text_line(f, what);
    }
    pb_gate_text_line(f, pb_term_text(buf, sizeof buf, pb_gate_doc_sentence(d)));
    return 0;
}

/* ---- json ---- */

static int render_json(FILE *f, pb_gate_doc *d, pb_err *e)
{
    pb_gate_doc_finish(d);
    /* 10 significant digits, as ever: more would only show the noise */
    int rc = json_dumpf(pb_gate_doc_json(d), f, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
    fputc('\n', f);
    return rc ? pb_errf(e, "cannot encode the JSON") : 0;
}

/* ---- md: a pull request's comment ---- */

static void md_text(FILE *f, const char *s, int paths)
{
    char shown[8192];
    pb_md_text_fputs(f, paths ? pb_text_paths_shown(shown, sizeof shown, s) : s);
}

/* the verdict sentence, its first word in bold */
static void md_sentence(FILE *f, const char *s)
{
    const char *colon = strchr(s, ':');
    if (!colon) { md_text(f, s, 1); fputs("\n\n", f); return; }
    char head[64];
    snprintf(head, sizeof head, "%.*s", (int)(colon - s), s);
    fputs("**", f);
    md_text(f, head, 0);
    fputs("**", f);
    md_text(f, colon, 1);
    fputs("\n\n", f);
}

static void md_gates_table(FILE *f, const json_t *gates)
{
    fputs("| gate | verdict | cells | regression | under threshold | inconclusive | MDC median / largest |\n"
          "|---|---|---:|---:|---:|---:|---:|\n", f);
    size_t i;
    const json_t *g;
    char label[300], a[32], b[32];
    json_array_foreach(gates, i, g) {
        const json_t *s = json_object_get(g, "summary");
        fputs("| ", f);
        md_text(f, gate_label(label, sizeof label, g), 0);
        fputs(" | ", f);
        md_text(f, jstr(g, "verdict"), 0);
        fprintf(f, " | %lld | %lld | %lld | %lld | %s / %s |\n", jint(s, "cells", 0), jint(s, "regression", 0),
                jint(s, "under_threshold", 0), jint(s, "inconclusive", 0), pct(a, sizeof a, jnum(s, "mdc_median")),
                pct(b, sizeof b, jnum(s, "mdc_largest")));
    }
    fputc('\n', f);
}

/* regressions first, then the slowdowns under their threshold: the rows a reviewer must see */
static void md_notable(FILE *f, const json_t *gates)
{
    int any = 0;
    char label[300], cl[600], fb[400];
    for (cell_kind want = NOTE_REGRESSION; want <= NOTE_UNDER; want++) {
        size_t i, j;
        const json_t *g, *c;
        json_array_foreach(gates, i, g) json_array_foreach(jarr(g, "cells"), j, c) {
            if (kind_of(c) != want) continue;
            if (!any++)
                fputs("| gate | cell | cost B/A | 95% CI | threshold | finding |\n|---|---|---:|---|---:|---|\n", f);
            fputs("| ", f);
            md_text(f, gate_label(label, sizeof label, g), 0);
            fputs(" | ", f);
            md_text(f, cell_label(cl, sizeof cl, c), 0);
            fprintf(f, " | %.3f | [%.3f, %.3f] | %s | %s", jnum(c, "ratio"), jnum(c, "ci_lo"), jnum(c, "ci_hi"),
                    pct(fb, sizeof fb, jnum(c, "threshold")), want == NOTE_REGRESSION ? "**" : "");
            md_text(f, finding(fb, sizeof fb, c), 0);
            fprintf(f, "%s |\n", want == NOTE_REGRESSION ? "**" : "");
        }
    }
    if (!any) fputs("No cell regressed, and none is significantly slower under its threshold.\n", f);
    fputc('\n', f);
}

/* "**Could not run**: drbg: ...", "**Skipped**: ...", "**Noise warnings**: ..." */
static void md_list(FILE *f, const char *title, const json_t *list, const char *key)
{
    if (!list || !json_array_size(list)) return;
    fprintf(f, "**%s**:\n\n", title);
    size_t i;
    const json_t *v;
    json_array_foreach(list, i, v) {
        fputs("- ", f);
        md_text(f, jstr(v, "suite"), 0);
        fputs(": ", f);
        md_text(f, jstr(v, key), 1);
        fputc('\n', f);
    }
    fputc('\n', f);
}

static void md_noise(FILE *f, const json_t *gates)
{
    int any = 0;
    size_t i, j;
    const json_t *g, *w;
    char label[300];
    json_array_foreach(gates, i, g) json_array_foreach(jarr(g, "noise_warnings"), j, w) {
        if (!any++) fputs("**Noise warnings** (the verdicts stand; the MDC describes a loaded machine):\n\n", f);
        fprintf(f, "- run %lld (", jint(w, "run", 0));
        md_text(f, gate_label(label, sizeof label, g), 0);
        fputs("): ", f);
        md_text(f, jstr(w, "warning"), 1);
        fputc('\n', f);
    }
    if (any) fputc('\n', f);
}

/* a gate's runs and what they ran on, one line each */
static void md_provenance(FILE *f, const json_t *g)
{
    const json_t *p = json_object_get(g, "provenance"), *runs = jarr(g, "runs");
    if (!runs || !json_array_size(runs)) return;
    fputs("Runs:", f);
    size_t i;
    const json_t *r;
    json_array_foreach(runs, i, r) {
        fprintf(f, "%s %lld (", i ? "," : "", jint(r, "id", 0));
        md_text(f, jstr(r, "side"), 0);
        fputc(')', f);
    }
    static const struct { const char *key, *label; } shown[] = {
        {"cpu_model", "CPU"}, {"cpu_family", "family"}, {"cpu_model_number", "model"}, {"cpu_stepping", "stepping"},
        {"cpu_microcode", "microcode"}, {"hypervisor", "hypervisor"}, {"online_cpus", "online CPUs"},
        {"virt", "virtualisation"}, {"kernel", "kernel"},
        {"compiler", "compiler"}, {"buildtype", "build type"}, {"git_sha", "bench at"}, {"machine_id", "machine"},
    };
    fputs(". On:", f);
    for (size_t k = 0, n = 0; k < sizeof shown / sizeof shown[0]; k++) {
        const json_t *v = json_object_get(p, shown[k].key);
        if (!v || json_is_null(v)) continue;
        fprintf(f, "%s %s ", n++ ? ";" : "", shown[k].label);
        if (json_is_integer(v)) fprintf(f, "%lld", (long long)json_integer_value(v));
        else md_text(f, json_is_string(v) ? json_string_value(v) : "?", 1);
    }
    fputs(".\n\n", f);
}

static int render_md(FILE *f, pb_gate_doc *d, pb_err *e)
{
    const json_t *root = pb_gate_doc_json(d), *gates = jarr(root, "gates");
    md_sentence(f, pb_gate_doc_sentence(d));
    if (gates && json_array_size(gates)) {
        md_gates_table(f, gates);
        md_notable(f, gates);
    }
    md_list(f, "Could not run", jarr(root, "errors"), "message");
    md_list(f, "Skipped", jarr(root, "skipped"), "reason");
    md_noise(f, gates);
    if (!gates || !json_array_size(gates)) return 0;
    fputs("<details><summary>Every cell, the runs and what they ran on</summary>\n\n", f);
    size_t i;
    const json_t *g;
    json_array_foreach(gates, i, g) {
        gate_view v;
        if (view_gate(&v, g, 1, e) < 0) return -1;
        pb_gate_print(f, 1, &v.h, v.cells, v.n);
        fputc('\n', f);
        md_provenance(f, g);
        view_free(&v);
    }
    fputs("</details>\n", f);
    return 0;
}

/* ---- junit: one testsuite per gate, one testcase per cell ---- */

/* "2026-01-31T12:00:00.250Z", as the store writes a run's started_at and ended_at, in seconds since
 * the epoch; NAN for anything else */
static double stamp_seconds(const char *s)
{
    struct tm tm = {0};
    int ms = 0, end = 0;
    if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d.%3dZ%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
               &tm.tm_sec, &ms, &end) != 7 || !end || s[end])
        return NAN;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    return (double)timegm(&tm) + ms / 1000.0;
}

/* A gate's time: the sum of its runs' durations (what was measured; the runs of a compare may lie
 * days apart, so not the span from the first start to the last end). NAN when no run of the
 * document has both times (a document of a gate without a store). */
static double gate_seconds(const json_t *g)
{
    double sum = NAN;
    size_t i;
    const json_t *r;
    json_array_foreach(jarr(g, "runs"), i, r) {
        double d = stamp_seconds(jstr(r, "ended_at")) - stamp_seconds(jstr(r, "started_at"));
        if (isfinite(d) && d >= 0) sum = (isnan(sum) ? 0 : sum) + d;
    }
    return sum;
}

/* time="S" where the time is known; a cell's own time is not in the document, so a testcase
 * carries none and its testsuite the gate's (JUnit readers sum what is there; a 0 would be a
 * claim that the cell took no time) */
static void junit_time(FILE *f, double seconds)
{
    if (isfinite(seconds)) fprintf(f, " time=\"%.3f\"", seconds);
}

static void xml_attr(FILE *f, const char *name, const char *value)
{
    fprintf(f, " %s=\"", name);
    pb_xml_fputs(f, value);
    fputc('"', f);
}

static void junit_cell(FILE *f, const json_t *g, const json_t *c)
{
    char name[600], cls[300], fb[400], detail[600];
    snprintf(cls, sizeof cls, "patchbench.%s.%s", jstr(g, "gate")[0] ? jstr(g, "gate") : jstr(g, "command"),
             jstr(g, "suite"));
    fputs("    <testcase", f);
    xml_attr(f, "classname", cls);
    xml_attr(f, "name", cell_label(name, sizeof name, c));
    fputs(">\n", f);
    char mdc[32];
    snprintf(detail, sizeof detail, "cost B/A %.4f [%.4f, %.4f], p (Holm) %.3g, MDC %s, %lld pairs, verdict %s",
             jnum(c, "ratio"), jnum(c, "ci_lo"), jnum(c, "ci_hi"), jnum(c, "p_holm"), pct(mdc, sizeof mdc, jnum(c, "mdc")),
             jint(c, "pairs", 0), jstr(c, "verdict"));
    const char *v = jstr(c, "verdict");
    if (!strcmp(v, "regression")) {
        fputs("      <failure type=\"regression\"", f);
        xml_attr(f, "message", finding(fb, sizeof fb, c));
        fputc('>', f);
        pb_xml_fputs(f, detail);
        fputs("</failure>\n", f);
    } else if (!strcmp(v, "inconclusive") || !strcmp(v, "no data")) {
        fputs("      <skipped", f);
        xml_attr(f, "message", !strcmp(v, "no data") ? jstr(c, "note") : finding(fb, sizeof fb, c));
        fputs("/>\n", f);
    }
    fputs("      <system-out>", f);
    if (kind_of(c) == NOTE_UNDER) {
        pb_xml_fputs(f, jstr(c, "finding"));
        fputs("; ", f);
    }
    pb_xml_fputs(f, detail);
    if (jstr(c, "note")[0]) {
        fputs("; ", f);
        pb_xml_fputs(f, jstr(c, "note"));
    }
    fputs("</system-out>\n    </testcase>\n", f);
}

/* a suite that did not become a gate: one testcase, an error or skipped */
static void junit_suite_only(FILE *f, const json_t *v, int error)
{
    char name[300];
    snprintf(name, sizeof name, "%s %s", error ? "error" : "skipped", jstr(v, "suite"));
    fputs("  <testsuite", f);
    xml_attr(f, "name", name);
    fprintf(f, " tests=\"1\" failures=\"0\" errors=\"%d\" skipped=\"%d\">\n    <testcase", error, !error);
    xml_attr(f, "classname", "patchbench.gate");
    xml_attr(f, "name", jstr(v, "suite"));
    fprintf(f, ">\n      <%s", error ? "error" : "skipped");
    xml_attr(f, "message", jstr(v, error ? "message" : "reason"));
    fputs("/>\n    </testcase>\n  </testsuite>\n", f);
}

static int render_junit(FILE *f, pb_gate_doc *d, pb_err *e)
{
    (void)e;
    const json_t *root = pb_gate_doc_json(d), *gates = jarr(root, "gates");
    pb_gate_doc_finish(d);
    const json_t *s = json_object_get(root, "summary");
    long long nerr = jint(s, "errors", 0), nskip = jint(s, "skipped", 0);
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites");
    xml_attr(f, "name", "patchbench gate");
    fprintf(f, " tests=\"%lld\" failures=\"%lld\" errors=\"%lld\" skipped=\"%lld\"", jint(s, "cells", 0) + nerr + nskip,
            jint(s, "regression", 0), nerr, jint(s, "inconclusive", 0) + jint(s, "no_data", 0) + nskip);
    size_t i, j;
    const json_t *g, *c;
    double total = NAN;
    json_array_foreach(gates, i, g) {
        double t = gate_seconds(g);
        if (isfinite(t)) total = (isnan(total) ? 0 : total) + t;
    }
    junit_time(f, total);
    fputs(">\n", f);
    char label[300];
    json_array_foreach(gates, i, g) {
        const json_t *gs = json_object_get(g, "summary");
        fputs("  <testsuite", f);
        xml_attr(f, "name", gate_label(label, sizeof label, g));
        fprintf(f, " tests=\"%lld\" failures=\"%lld\" errors=\"0\" skipped=\"%lld\"", jint(gs, "cells", 0),
                jint(gs, "regression", 0), jint(gs, "inconclusive", 0) + jint(gs, "no_data", 0));
        junit_time(f, gate_seconds(g));
        fputs(">\n", f);
        fputs("    <properties>\n", f);
        static const char *const props[] = {"verdict", "metric", "pairing", "title"};
        for (size_t k = 0; k < sizeof props / sizeof props[0]; k++) {
            fputs("      <property", f);
            xml_attr(f, "name", props[k]);
            xml_attr(f, "value", jstr(g, props[k]));
            fputs("/>\n", f);
        }
        fprintf(f, "      <property name=\"comparison_id\" value=\"%lld\"/>\n    </properties>\n",
                jint(g, "comparison_id", 0));
        json_array_foreach(jarr(g, "cells"), j, c) junit_cell(f, g, c);
        fputs("  </testsuite>\n", f);
    }
    json_array_foreach(jarr(root, "errors"), i, g) junit_suite_only(f, g, 1);
    json_array_foreach(jarr(root, "skipped"), i, g) junit_suite_only(f, g, 0);
    fputs("</testsuites>\n", f);
    return 0;
}

/* ---- codequality: GitLab's Code Quality report ---- */

/* FNV-1a, twice (two offsets), as 32 hex digits: the same cell of the same gate has the same
 * fingerprint in every run, so GitLab can tell a new finding from one the target branch had */
static void fingerprint(char out[33], const char *key)
{
    uint64_t h[2] = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};
    for (int k = 0; k < 2; k++)
        for (const unsigned char *p = (const unsigned char *)key; *p; p++) h[k] = (h[k] ^ *p) * 0x100000001b3ull;
    snprintf(out, 33, "%016llx%016llx", (unsigned long long)h[0], (unsigned long long)h[1]);
}

/* the thresholds file, where a reviewer changes the rule (relative to the repository: the current
 * folder), or the current folder for --threshold */
static json_t *location_json(const json_t *g)
{
    const json_t *th = json_object_get(g, "thresholds");
    char shown[4096];
    const char *path = jstr(th, "path");
    json_t *loc = json_object(), *lines = json_object();
    json_object_set_new(loc, "path", pb_json_text(path[0] ? pb_path_shown(shown, sizeof shown, path) : "."));
    json_object_set_new(lines, "begin", json_integer(jint(th, "line", 1) > 0 ? jint(th, "line", 1) : 1));
    json_object_set_new(loc, "lines", lines);
    return loc;
}

static int render_codequality(FILE *f, pb_gate_doc *d, pb_err *e)
{
    static const char *const check[] = {"", "patchbench-regression", "patchbench-under-threshold",
                                         "patchbench-inconclusive"};
    static const char *const severity[] = {"", "major", "minor", "info"};
    json_t *list = json_array();
    size_t i, j;
    const json_t *g, *c;
    char label[300], cl[600], fb[400], text[1400], fp[33];
    json_array_foreach(jarr(pb_gate_doc_json(d), "gates"), i, g) json_array_foreach(jarr(g, "cells"), j, c) {
        cell_kind k = kind_of(c);
        if (k == NOTE_NONE) continue;
        snprintf(text, sizeof text, "%s, %s: %s", gate_label(label, sizeof label, g), cell_label(cl, sizeof cl, c),
                 finding(fb, sizeof fb, c));
        json_t *o = json_object();
        json_object_set_new(o, "description", pb_json_text(text));
        json_object_set_new(o, "check_name", json_string(check[k]));
        /* the gate's place in the document too: a script may gate one suite twice */
        snprintf(text, sizeof text, "%s\n%zu\n%s\n%s", check[k], i, label, cl);
        fingerprint(fp, text);
        json_object_set_new(o, "fingerprint", json_string(fp));
        json_object_set_new(o, "severity", json_string(severity[k]));
        json_object_set_new(o, "location", location_json(g));
        json_array_append_new(list, o);
    }
    json_array_foreach(jarr(pb_gate_doc_json(d), "errors"), i, g) {
        json_t *o = json_object();
        snprintf(text, sizeof text, "patchbench gate of suite %s could not run: %s", jstr(g, "suite"), jstr(g, "message"));
        json_object_set_new(o, "description", pb_json_text(text));
        json_object_set_new(o, "check_name", json_string("patchbench-error"));
        snprintf(text, sizeof text, "error\n%s", jstr(g, "suite"));
        fingerprint(fp, text);
        json_object_set_new(o, "fingerprint", json_string(fp));
        json_object_set_new(o, "severity", json_string("critical"));
        json_t *loc = json_object(), *lines = json_object();
        json_object_set_new(lines, "begin", json_integer(1));
        json_object_set_new(loc, "path", json_string("."));
        json_object_set_new(loc, "lines", lines);
        json_object_set_new(o, "location", loc);
        json_array_append_new(list, o);
    }
    int rc = json_dumpf(list, f, JSON_INDENT(2));
    fputc('\n', f);
    json_decref(list);
    return rc ? pb_errf(e, "cannot encode the JSON") : 0;
}

/* ---- GitHub workflow commands ---- */

static void gh_command(FILE *f, const char *cmd, const char *file, long long line, const char *title, const char *msg)
{
    char shown[8192];
    fprintf(f, "::%s ", cmd);
    if (file && file[0]) {
        fputs("file=", f);
        pb_gh_command_fputs(f, pb_path_shown(shown, sizeof shown, file), 1);
        fprintf(f, ",line=%lld,", line > 0 ? line : 1);
    }
    fputs("title=", f);
    pb_gh_command_fputs(f, title, 1);
    fputs("::", f);
    pb_gh_command_fputs(f, pb_text_paths_shown(shown, sizeof shown, msg), 0);
    fputc('\n', f);
}

void pb_gate_doc_github(FILE *f, pb_gate_doc *d, int max)
{
    static const char *const cmd[] = {"", "error", "warning", "notice"};
    static const char *const what[] = {"", "regression", "slower, under the threshold", "inconclusive"};
    int seen[4] = {0};
    size_t i, j;
    const json_t *g, *c;
    char title[400], label[300], cl[600], fb[400], msg[1200];
    json_array_foreach(jarr(pb_gate_doc_json(d), "gates"), i, g) {
        const json_t *th = json_object_get(g, "thresholds");
        /* a file in this folder is one a pull request can change: the annotation points at the rule */
        const char *file = jstr(th, "path")[0] && jstr(th, "path")[0] != '/' ? jstr(th, "path") : NULL;
        json_array_foreach(jarr(g, "cells"), j, c) {
            cell_kind k = kind_of(c);
            if (k == NOTE_NONE || seen[k]++ >= max) continue;
            snprintf(title, sizeof title, "patchbench %s: %s", gate_label(label, sizeof label, g), what[k]);
            snprintf(msg, sizeof msg, "%s: %s", cell_label(cl, sizeof cl, c), finding(fb, sizeof fb, c));
            gh_command(f, cmd[k], file, jint(th, "line", 1), title, msg);
        }
    }
    for (int k = NOTE_REGRESSION; k <= NOTE_INCONCLUSIVE; k++)
        if (seen[k] > max) {
            snprintf(title, sizeof title, "patchbench: %d more", seen[k] - max);
            snprintf(msg, sizeof msg, "%d more cells: %s (the job's log and its gate document list them all)",
                     seen[k] - max, what[k]);
            gh_command(f, cmd[k], NULL, 0, title, msg);
        }
    json_array_foreach(jarr(pb_gate_doc_json(d), "errors"), i, g) {
        snprintf(title, sizeof title, "patchbench gate %s: could not run", jstr(g, "suite"));
        gh_command(f, "error", NULL, 0, title, jstr(g, "message"));
    }
}

/* ---- the table ---- */

const pb_gate_renderer pb_gate_renderers[PB_FMT_COUNT] = {
    [PB_FMT_TEXT] = {"text", ".txt", render_text},
    [PB_FMT_MD] = {"md", ".md", render_md},
    [PB_FMT_JSON] = {"json", ".json", render_json},
    [PB_FMT_JUNIT] = {"junit", ".xml", render_junit},
    [PB_FMT_CODEQUALITY] = {"codequality", ".json", render_codequality},
};

int pb_gate_doc_render(FILE *f, pb_format fmt, pb_gate_doc *d, pb_err *e)
{
    pb_gate_doc_finish(d);
    return pb_gate_renderers[fmt].render(f, d, e);
}

int pb_format_parse(const char *s, pb_format *f)
{
    for (int i = 0; i < PB_FMT_COUNT; i++)
        if (!strcmp(s, pb_gate_renderers[i].name)) {
            *f = (pb_format)i;
            return 0;
        }
    return -1;
}

const char *pb_format_names(char *buf, size_t cap)
{
    size_t off = 0;
    buf[0] = 0;
    for (int i = 0; i < PB_FMT_COUNT && off < cap; i++)
        off += (size_t)snprintf(buf + off, cap - off, "%s%s", i == 0 ? "" : i == PB_FMT_COUNT - 1 ? " or " : ", ",
                                pb_gate_renderers[i].name);
    return buf;
}
