/* SPDX-License-Identifier: GPL-2.0-only */
/* gate_doc.c — the gate document (gate_doc.h, docs/gate-outputs.md): built with jansson from the
 * comparisons of one command, or joined from saved documents; its summary, verdict and sentence. */
#include "gate_doc.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "pb_config.h"
#include "pb_vcs.h"

struct pb_gate_doc {
    json_t *root;                    /* owns everything below */
    json_t *gates, *skipped, *errors;
    char sentence[1200];
};

/* the counts a gate's summary holds, and the overall summary sums */
static const char *const COUNT_KEYS[] = {"cells", "pass", "regression", "inconclusive", "under_threshold",
                                         "no_data", "untested", "compared", "slower", "faster"};
enum { K_CELLS, K_PASS, K_REGRESSION, K_INCONCLUSIVE, K_UNDER, K_NODATA, K_UNTESTED, K_COMPARED, K_SLOWER, K_FASTER,
       NKEYS };

/* what a run of a gate shows of its provenance: the machine and build (from its first run) */
static const char *const PROVENANCE_COLS[] = {"machine_id", "job_id", "cpu_model", "cpu_vendor", "cpu_family",
                                              "cpu_model_number", "cpu_stepping", "cpu_microcode", "hypervisor",
                                              "online_cpus", "virt", "kernel", "target", "version", "git_sha",
                                              "git_dirty", "compiler", "buildtype", "clock_source", "governor",
                                              "boost", "counter_source", "cpu_affinity"};
/* ... and per run */
static const char *const RUN_COLS[] = {"started_at", "ended_at", "git_sha", "git_dirty", "loadavg_start", "loadavg_end",
                                       "noise", "user_revision", "user_label", "build_parity"};

pb_gate_doc *pb_gate_doc_new(void)
{
    pb_gate_doc *d = calloc(1, sizeof *d);
    json_t *bench = json_object();
    if (!d || !bench || !(d->root = json_object())) {
        json_decref(bench);
        free(d);
        return NULL;
    }
    json_object_set_new(bench, "version", json_string(PB_VERSION));
    json_object_set_new(bench, "revision", pb_json_text(PB_VCS_SHA));
    json_object_set_new(d->root, "schema", json_string(PB_GATE_DOC_SCHEMA));
    json_object_set_new(d->root, "schema_version", json_integer(PB_GATE_DOC_VERSION));
    json_object_set_new(d->root, "bench", bench);
    /* set again by pb_gate_doc_finish: here so that they come first in the file */
    static const char *const later[] = {"verdict", "exit_status", "sentence", "summary"};
    for (size_t i = 0; i < sizeof later / sizeof later[0]; i++) json_object_set_new(d->root, later[i], json_null());
    json_object_set_new(d->root, "gates", d->gates = json_array());
    json_object_set_new(d->root, "skipped", d->skipped = json_array());
    json_object_set_new(d->root, "errors", d->errors = json_array());
    if (!d->gates || !d->skipped || !d->errors) {
        pb_gate_doc_free(d);
        return NULL;
    }
    return d;
}

void pb_gate_doc_free(pb_gate_doc *d)
{
    if (!d) return;
    json_decref(d->root);
    free(d);
}

const json_t *pb_gate_doc_json(pb_gate_doc *d) { return d->root; }

/* A number as the gate's JSON has always shown it, %.10g: an integer where that shows neither a
 * fraction nor an exponent (a count, an id, a size), null where it is not finite. */
static json_t *json_num(double v)
{
    if (!isfinite(v)) return json_null();
    char b[40];
    snprintf(b, sizeof b, "%.10g", v);
    if (!strpbrk(b, ".e")) return json_integer(strtoll(b, NULL, 10));
    return json_real(v);
}

static json_t *cell_json(const pb_cmp_cell *c, const pb_gate_params *gp)
{
    json_t *o = json_object();
    json_object_set_new(o, "baseline", pb_json_text(c->impl_a));
    json_object_set_new(o, "candidate", pb_json_text(c->impl_b));
    json_object_set_new(o, "variant", pb_json_text(c->variant));
    json_object_set_new(o, "op", pb_json_text(c->op));
    json_object_set_new(o, "size_bytes", json_num((double)c->size));
    json_object_set_new(o, "pairs", json_num((double)c->n));
    json_object_set_new(o, "rounds", json_num(c->rounds));
    json_object_set_new(o, "layouts", json_num(c->layouts));
    const struct { const char *k; double v; } nums[] = {
        {"ratio", c->ratio}, {"ci_lo", c->ci_lo}, {"ci_hi", c->ci_hi}, {"conf", c->conf}, {"p", c->p},
        {"p_holm", c->p_holm}, {"se_log", c->se_log}, {"noise", c->noise}, {"order_effect", c->order_effect},
        {"mdc", c->mdc}, {"calibrated_mdc", c->calibrated_mdc}, {"threshold", c->threshold},
        {"layout_lo", c->layout_lo}, {"layout_hi", c->layout_hi}, {"layout_df", c->layout_df},
    };
    for (size_t k = 0; k < sizeof nums / sizeof nums[0]; k++) json_object_set_new(o, nums[k].k, json_num(nums[k].v));
    json_object_set_new(o, "change", pb_json_text(pb_cmp_change(c, gp)));
    json_object_set_new(o, "verdict", pb_json_text(pb_cell_verdict_name(c->verdict)));
    int under = pb_cell_under_threshold(c, gp);
    char finding[200];
    json_object_set_new(o, "under_threshold", json_boolean(under));
    json_object_set_new(o, "finding", under ? pb_json_text(pb_under_threshold_text(finding, sizeof finding, c))
                                            : json_null());
    json_object_set_new(o, "note", pb_json_text(c->note));
    /* count gates: where the instructions differ, and on a regression what grew (docs/counts.md) */
    if (c->nfn) {
        char grew[600];
        json_object_set_new(o, "functions", pb_json_fn_deltas(c->fn, c->nfn));
        pb_fn_grew_text(c->fn, c->nfn, grew, sizeof grew);
        json_object_set_new(o, "grew", grew[0] ? pb_json_text(grew) : json_null());
    }
    return o;
}

/* the counts of a gate's cells, and their MDC (median, largest) */
static json_t *cells_summary(const pb_cmp_cell *cells, size_t n, const pb_gate_params *gp)
{
    size_t k[NKEYS] = {0}, nm = 0;
    double *mdc = malloc((n + 1) * sizeof *mdc);
    static const int KEY_OF[] = {[PB_CELL_PASS] = K_PASS, [PB_CELL_REGRESSION] = K_REGRESSION,
                                 [PB_CELL_INCONCLUSIVE] = K_INCONCLUSIVE, [PB_CELL_NODATA] = K_NODATA,
                                 [PB_CELL_UNTESTED] = K_UNTESTED, [PB_CELL_COMPARED] = K_COMPARED};
    for (size_t i = 0; i < n; i++) {
        const pb_cmp_cell *c = &cells[i];
        k[K_CELLS]++;
        k[KEY_OF[c->verdict]]++;
        k[K_UNDER] += (size_t)pb_cell_under_threshold(c, gp);
        if (c->verdict == PB_CELL_COMPARED) {
            const char *ch = pb_cmp_change(c, gp);
            k[K_SLOWER] += !strcmp(ch, "slower");
            k[K_FASTER] += !strcmp(ch, "faster");
        }
        if (mdc && c->verdict != PB_CELL_NODATA && isfinite(c->mdc)) mdc[nm++] = c->mdc;
    }
    json_t *o = json_object();
    for (int i = 0; i < NKEYS; i++) json_object_set_new(o, COUNT_KEYS[i], json_integer((json_int_t)k[i]));
    json_object_set_new(o, "mdc_median", json_num(nm ? pb_median(mdc, nm) : NAN));
    json_object_set_new(o, "mdc_largest", json_num(nm ? pb_quantile(mdc, nm, 1.0) : NAN));
    free(mdc);
    return o;
}

/* where the threshold came from: null without one (compare) */
static json_t *thresholds_json(const pb_cmp_header *h, const pb_cmp_cell *cells, size_t n)
{
    if (!h->th) return json_null();
    double t = NAN;
    for (size_t i = 0; i < n && isnan(t); i++) t = cells[i].threshold;
    json_t *o = json_object();
    json_object_set_new(o, "source", json_string(h->th->option ? "option" : "file"));
    json_object_set_new(o, "path", h->th->option ? json_null() : pb_json_text(h->th->path));
    json_object_set_new(o, "line", h->th->option ? json_null() : json_integer(h->threshold_line));
    json_object_set_new(o, "value", json_num(t));
    return o;
}

/* the comparison's runs (ids, sides, their time and load) into g, with its provenance (the first
 * run's machine and build) and every run's noise warning */
static int add_runs(json_t *g, pb_store *st, int64_t comparison, pb_err *e)
{
    pb_cmp_run *runs;
    size_t n;
    if (pb_gate_comparison_runs(st, comparison, &runs, &n, e) < 0) return -1;
    json_t *list = json_array(), *warnings = json_array();
    for (size_t i = 0; i < n; i++) {
        json_t *r = pb_json_run_columns(st, runs[i].run, RUN_COLS, sizeof RUN_COLS / sizeof RUN_COLS[0]);
        json_object_set_new(r, "id", json_integer(runs[i].run));
        json_object_set_new(r, "side", pb_json_text(runs[i].side));
        json_object_set_new(r, "alternation", runs[i].alternation ? json_integer(runs[i].alternation) : json_null());
        json_t *noise = json_object_get(r, "noise");
        if (json_is_string(noise)) {
            json_t *w = json_object();
            json_object_set_new(w, "run", json_integer(runs[i].run));
            json_object_set_new(w, "side", pb_json_text(runs[i].side));
            json_object_set(w, "warning", noise);
            json_array_append_new(warnings, w);
        }
        json_array_append_new(list, r);
    }
    json_object_set_new(g, "provenance", n ? pb_json_run_columns(st, runs[0].run, PROVENANCE_COLS,
                                                                 sizeof PROVENANCE_COLS / sizeof PROVENANCE_COLS[0])
                                           : json_object());
    json_object_set_new(g, "runs", list);
    json_object_set_new(g, "noise_warnings", warnings);
    free(runs);
    return 0;
}

int pb_gate_doc_add(pb_gate_doc *d, pb_store *st, const pb_cmp_header *h, const pb_cmp_cell *cells, size_t n,
                    pb_err *e)
{
    json_t *g = json_object();
    if (!g) return pb_errf(e, "out of memory");
    int counts = h->measure && !strcmp(h->measure, "valgrind");
    json_object_set_new(g, "command", json_string(h->command ? h->command : "gate"));
    json_object_set_new(g, "gate", h->gate ? pb_json_text(h->gate) : json_null());
    json_object_set_new(g, "measure", json_string(counts ? "valgrind" : "time"));
    json_object_set_new(g, "title", pb_json_text(h->title ? h->title : ""));
    json_object_set_new(g, "suite", pb_json_text(h->suite));
    json_object_set_new(g, "metric", pb_json_text(h->metric));
    json_object_set_new(g, "ratio", json_string("cost(candidate)/cost(baseline); > 1 is slower"));
    json_object_set_new(g, "pairing", pb_json_text(h->pairing));
    if (h->method) json_object_set_new(g, "method", pb_json_text(h->method));   /* when not the pairing's usual way */
    json_object_set_new(g, "alpha", json_num(h->gp->alpha));
    json_object_set_new(g, "conf", json_num(h->gp->conf));
    json_object_set_new(g, "power", json_num(h->gp->power));
    json_object_set_new(g, "correction", json_string(counts ? "none" : "holm"));
    json_object_set_new(g, "comparison_id", json_num((double)h->comparison_id));
    json_object_set_new(g, "verdict", json_string(pb_gate_exit_name(h->exit_status)));
    json_object_set_new(g, "exit_status", h->exit_status >= 0 ? json_integer(h->exit_status) : json_null());
    json_object_set_new(g, "note", pb_json_text(h->note ? h->note : ""));
    json_object_set_new(g, "thresholds", thresholds_json(h, cells, n));
    json_object_set_new(g, "summary", cells_summary(cells, n, h->gp));
    if (st && h->comparison_id > 0 && add_runs(g, st, h->comparison_id, e) < 0) {
        json_decref(g);
        return -1;
    }
    json_t *list = json_array();
    for (size_t i = 0; i < n; i++) json_array_append_new(list, cell_json(&cells[i], h->gp));
    json_object_set_new(g, "cells", list);
    json_array_append_new(d->gates, g);
    return 0;
}

static void add_entry(json_t *list, const char *suite, const char *key, const char *text)
{
    json_t *o = json_object();
    json_object_set_new(o, "suite", pb_json_text(suite));
    json_object_set_new(o, key, pb_json_text(text));
    json_array_append_new(list, o);
}

void pb_gate_doc_skipped(pb_gate_doc *d, const char *suite, const char *reason)
{
    add_entry(d->skipped, suite, "reason", reason);
}

void pb_gate_doc_error(pb_gate_doc *d, const char *suite, const char *message)
{
    add_entry(d->errors, suite, "message", message);
}

/* every element of the array key of src is an object: appended to dst */
static int append_objects(json_t *dst, const json_t *src, const char *key, const char *path, pb_err *e)
{
    json_t *a = json_object_get(src, key);
    if (!a) return 0;
    if (!json_is_array(a)) return pb_errf(e, "%s: \"%s\" is not an array", path, key);
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v) {
        if (!json_is_object(v)) return pb_errf(e, "%s: %s[%zu] is not an object", path, key, i);
    }
    json_array_foreach(a, i, v) json_array_append(dst, v);
    return 0;
}

int pb_gate_doc_merge_file(pb_gate_doc *d, const char *path, pb_err *e)
{
    json_error_t je;
    json_t *src = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    if (!src) return pb_errf(e, "%s: not a JSON document: %s (line %d)", path, je.text, je.line);
    json_t *schema = json_object_get(src, "schema"), *version = json_object_get(src, "schema_version");
    int rc = 0;
    if (!json_is_object(src) || !json_is_string(schema) || strcmp(json_string_value(schema), PB_GATE_DOC_SCHEMA))
        rc = pb_errf(e, "%s: not a gate document (no \"schema\": \"%s\"; bench gate --format json writes one)", path,
                     PB_GATE_DOC_SCHEMA);
    else if (!json_is_integer(version))
        rc = pb_errf(e, "%s: no \"schema_version\" (this bench reads version %d)", path, PB_GATE_DOC_VERSION);
    else if (json_integer_value(version) != PB_GATE_DOC_VERSION)
        rc = pb_errf(e, "%s: schema version %lld; this bench reads version %d", path,
                     (long long)json_integer_value(version), PB_GATE_DOC_VERSION);
    /* all three checked before any is appended: a refused file adds nothing */
    json_t *probe = json_array();
    if (rc == 0 && (append_objects(probe, src, "gates", path, e) < 0 || append_objects(probe, src, "skipped", path, e) < 0 ||
                    append_objects(probe, src, "errors", path, e) < 0))
        rc = -1;
    json_decref(probe);
    if (rc == 0) {
        append_objects(d->gates, src, "gates", path, e);
        append_objects(d->skipped, src, "skipped", path, e);
        append_objects(d->errors, src, "errors", path, e);
    }
    json_decref(src);
    return rc;
}

/* ---- the verdict over everything ---- */

static json_int_t count_of(const json_t *summary, const char *key)
{
    json_t *v = json_object_get(summary, key);
    return json_is_integer(v) && json_integer_value(v) > 0 ? json_integer_value(v) : 0;
}

int pb_gate_doc_exit_status(pb_gate_doc *d)
{
    int seen[4] = {0};
    size_t i;
    json_t *g;
    json_array_foreach(d->gates, i, g) {
        json_t *x = json_object_get(g, "exit_status");
        json_int_t s = json_is_integer(x) ? json_integer_value(x) : -1;
        if (s >= 0 && s <= 3) seen[s] = 1;
    }
    if (json_array_size(d->errors)) seen[PB_GATE_EXIT_ERROR] = 1;
    /* the ci scripts' order: a regression, then an error, then an inconclusive cell */
    if (seen[PB_GATE_EXIT_REGRESSION]) return PB_GATE_EXIT_REGRESSION;
    if (seen[PB_GATE_EXIT_ERROR]) return PB_GATE_EXIT_ERROR;
    if (seen[PB_GATE_EXIT_INCONCLUSIVE]) return PB_GATE_EXIT_INCONCLUSIVE;
    return seen[PB_GATE_EXIT_PASS] ? PB_GATE_EXIT_PASS : -1;
}

/* "1 cell" / "3 cells" */
static const char *cells_word(char *b, size_t cap, json_int_t n, const char *one, const char *many)
{
    snprintf(b, cap, "%lld %s", (long long)n, n == 1 ? one : many);
    return b;
}

/* the suites of a list of skipped or failed suites, "a, b" */
static void suites_of(const json_t *list, char *b, size_t cap)
{
    size_t i, off = 0;
    json_t *v;
    b[0] = 0;
    json_array_foreach(list, i, v) {
        json_t *s = json_object_get(v, "suite");
        if (off < cap)
            off += (size_t)snprintf(b + off, cap - off, "%s%s", i ? ", " : "", json_is_string(s) ? json_string_value(s) : "?");
    }
}

static void make_sentence(pb_gate_doc *d, int status, const json_t *sum)
{
    char *b = d->sentence, w1[64], w2[64], names[400];
    size_t cap = sizeof d->sentence, off = 0;
    json_int_t N = count_of(sum, "cells"), R = count_of(sum, "regression"), U = count_of(sum, "under_threshold"),
               I = count_of(sum, "inconclusive");
#define ADD(...) (off += off < cap ? (size_t)snprintf(b + off, cap - off, __VA_ARGS__) : 0)
    if (status == PB_GATE_EXIT_ERROR) {
        suites_of(d->errors, names, sizeof names);
        json_int_t E = (json_int_t)json_array_size(d->errors);
        ADD("Error: %s could not run%s%s%s", cells_word(w1, sizeof w1, E ? E : 1, "gate", "gates"), names[0] ? " (" : "",
            names, names[0] ? ")" : "");
        if (N) ADD("; in the others no cell of %lld is slower than its threshold", (long long)N);
    } else if (status == PB_GATE_EXIT_REGRESSION) {
        ADD("Regression: %lld of %s slower than %s threshold", (long long)R, cells_word(w1, sizeof w1, N, "cell", "cells"),
            R == 1 ? "its" : "their");
        if (U) ADD("; %lld more significantly slower but under it", (long long)U);
    } else if (status == PB_GATE_EXIT_INCONCLUSIVE) {
        ADD("Inconclusive: no regression in %s, but %s too noisy to rule one out", cells_word(w1, sizeof w1, N, "cell", "cells"),
            cells_word(w2, sizeof w2, I, "is", "are"));
    } else if (status == PB_GATE_EXIT_PASS) {
        ADD("Pass: no cell of %lld is slower than its threshold", (long long)N);
    } else if (count_of(sum, "compared")) {
        ADD("Compared: %s, %lld slower, %lld faster (no threshold: not a gate)", cells_word(w1, sizeof w1, N, "cell", "cells"),
            (long long)count_of(sum, "slower"), (long long)count_of(sum, "faster"));
    } else {
        ADD("Nothing gated");
    }
    if (status != PB_GATE_EXIT_REGRESSION && U) ADD("; %s significantly slower but under the threshold",
                                                    cells_word(w1, sizeof w1, U, "is", "are"));
    if ((status == PB_GATE_EXIT_REGRESSION || status == PB_GATE_EXIT_ERROR) && I) ADD("; %lld inconclusive", (long long)I);
    if (json_array_size(d->skipped)) {
        suites_of(d->skipped, names, sizeof names);
        ADD("; skipped: %s", names);
    }
    ADD(".");
#undef ADD
}

void pb_gate_doc_finish(pb_gate_doc *d)
{
    json_int_t k[NKEYS] = {0};
    size_t i;
    json_t *g;
    json_array_foreach(d->gates, i, g) {
        const json_t *s = json_object_get(g, "summary");
        for (int j = 0; j < NKEYS; j++) k[j] += count_of(s, COUNT_KEYS[j]);
    }
    json_t *sum = json_object();
    json_object_set_new(sum, "gates", json_integer((json_int_t)json_array_size(d->gates)));
    for (int j = 0; j < NKEYS; j++) json_object_set_new(sum, COUNT_KEYS[j], json_integer(k[j]));
    json_object_set_new(sum, "skipped", json_integer((json_int_t)json_array_size(d->skipped)));
    json_object_set_new(sum, "errors", json_integer((json_int_t)json_array_size(d->errors)));
    int status = pb_gate_doc_exit_status(d);
    make_sentence(d, status, sum);
    json_object_set_new(d->root, "verdict", json_string(status >= 0 ? pb_gate_exit_name(status) : "none"));
    json_object_set_new(d->root, "exit_status", status >= 0 ? json_integer(status) : json_null());
    json_object_set_new(d->root, "sentence", pb_json_text(d->sentence));
    json_object_set_new(d->root, "summary", sum);
}

const char *pb_gate_doc_sentence(pb_gate_doc *d)
{
    pb_gate_doc_finish(d);
    return d->sentence;
}
