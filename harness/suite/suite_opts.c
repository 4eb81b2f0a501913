/* SPDX-License-Identifier: GPL-2.0-only */
/* suite_opts.c — a suite's registration check, its optional hooks' defaults, its options object
 * and its option table (suite.h). */
#include <stdlib.h>
#include <string.h>

#include "suite.h"

void *pb_suite_opts_new(const pb_suite *s, pb_err *e)
{
    /* at least one byte: a suite without options still gets a distinct, freeable object */
    void *opts = calloc(1, s->opts_size ? s->opts_size : 1);
    if (!opts) {
        pb_errf(e, "out of memory for the options of suite %s", s->name);
        return NULL;
    }
    if (s->opts_init) s->opts_init(opts);
    return opts;
}

void pb_suite_opts_free(const pb_suite *s, void *opts)
{
    if (!opts) return;
    if (s->opts_free) s->opts_free(opts);
    free(opts);
}

const pb_suite_opt *pb_suite_opt_find(const pb_suite *s, const char *name)
{
    while (*name == '-') name++;
    for (const pb_suite_opt *o = s->options; o && o->name; o++)
        if (!strcmp(o->name, name)) return o;
    return NULL;
}

int pb_suite_set_opt(const pb_suite *s, void *opts, const char *name, const char *value, pb_err *e)
{
    const pb_suite_opt *o = pb_suite_opt_find(s, name);
    if (!o) return 0;
    if (!o->arg && value) return pb_errf(e, "--%s takes no value (got '%s')", o->name, value);
    if (o->arg && !value) return pb_errf(e, "--%s needs a value (%s)", o->name, o->arg);
    return o->set(opts, value, e) < 0 ? -1 : 1;
}

int pb_suite_copy_calibration(const pb_suite *from, const void *from_opts, const pb_suite *to, void *to_opts,
                              char *said, size_t cap, pb_err *e)
{
    const char *text = pb_suite_calibrated_options(from, from_opts);
    if (said && cap) said[0] = 0;
    if (!text || !*text) return 0;
    char buf[512];
    if (strlen(text) >= sizeof buf) return pb_errf(e, "calibrated options too long: %.100s...", text);
    snprintf(buf, sizeof buf, "%s", text);
    for (char *save = NULL, *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(t, '=');
        if (eq) *eq = 0;
        pb_err oe = {{0}};
        int r = pb_suite_set_opt(to, to_opts, t, eq ? eq + 1 : NULL, &oe);
        if (r < 0) return pb_errf(e, "refuses the calibration --%s: %.300s", t, oe.msg);
        if (said && cap) {
            size_t k = strlen(said);
            snprintf(said + k, cap - k, "%s--%s%s%s%s", k ? " " : "", t, eq ? "=" : "", eq ? eq + 1 : "",
                     r ? "" : " (not an option of the other copy: it calibrated itself)");
        }
    }
    return 0;
}

int pb_suite_prepare(const pb_suite *s, pb_err *e)
{
    const char *name = s && s->name && *s->name ? s->name : NULL;
    const char *missing = !name                                      ? "name"
                          : !s->title                                ? "title"
                          : !s->baseline || !*s->baseline            ? "baseline"
                          : !s->candidate || !*s->candidate          ? "candidate"
                          : !s->plan                                 ? "plan"
                          : !s->setup_case                           ? "setup_case"
                          : s->options && s->options->name && !s->opts_size ? "opts_size (it has options)"
                                                                     : NULL;
    if (missing) return pb_errf(e, "suite %s is registered without %s", name ? name : "(unnamed)", missing);
    for (const pb_suite_opt *o = s->options; o && o->name; o++) {
        if (!o->set) return pb_errf(e, "suite %s: option --%s has no setter", name, o->name);
        for (const pb_suite_opt *p = s->options; p != o; p++)
            if (!strcmp(p->name, o->name)) return pb_errf(e, "suite %s: option --%s is declared twice", name, o->name);
    }
    /* sizes in items (suite.h): bytes per item mean nothing without the item, and where items carry
     * no bytes a cell's size is no byte count, so no per-byte metric can be derived from it */
    if (s->item_bytes && !(s->item_unit && *s->item_unit))
        return pb_errf(e, "suite %s: item_bytes without an item_unit", name);
    if (s->item_unit && *s->item_unit && !s->item_bytes && (s->metrics & ~(unsigned)PB_M_NS_PER_OP))
        return pb_errf(e, "suite %s: its %ss carry no bytes (item_bytes 0), so it cannot ask for a per-byte metric",
                       name, s->item_unit);
    /* a name in once_options that is no option would make a typo the one option left repeatable */
    for (const char *const *o = s->once_options; o && *o; o++)
        if (!pb_suite_opt_find(s, *o)) return pb_errf(e, "suite %s: once_options names --%s, which it has not", name, *o);
    return 0;
}

int pb_suites_prepare(const pb_suite *const *suites, pb_err *e)
{
    for (int i = 0; suites[i]; i++) {
        if (pb_suite_prepare(suites[i], e) < 0) return -1;
        for (int j = 0; j < i; j++)
            if (!strcmp(suites[j]->name, suites[i]->name))
                return pb_errf(e, "suite %s is registered twice", suites[i]->name);
    }
    return 0;
}

int pb_suite_selftest(const pb_suite *s, const void *opts, const char *impl, pb_err *e)
{
    return s->selftest ? s->selftest(opts, impl, e) : 0;
}

int pb_suite_default_grid(const pb_suite *s, pb_grid *g, pb_err *e)
{
    pb_plan_opts po = {0};
    g->ncells = 0;
    g->cells = NULL;
    void *opts = pb_suite_opts_new(s, e);
    if (!opts) return -1;
    int rc = s->plan(opts, &po, g, e);
    pb_suite_opts_free(s, opts);
    if (rc < 0) {
        free(g->cells);
        g->cells = NULL;
        g->ncells = 0;
        return -1;
    }
    return 0;
}

int pb_suite_opt_once(const pb_suite *s, const char *name)
{
    while (*name == '-') name++;
    for (const char *const *o = s->once_options; o && *o; o++)
        if (!strcmp(*o, name)) return 1;
    return 0;
}

int pb_suite_check_size(const pb_suite *s, uint64_t size_bytes, pb_err *e)
{
    return s->check_size ? s->check_size(size_bytes, e) : 0;
}

const char *pb_suite_effective_options(const pb_suite *s, const void *opts)
{
    return s->effective_options ? s->effective_options(opts) : NULL;
}

const char *pb_suite_calibrated_options(const pb_suite *s, const void *opts)
{
    return s->calibrated_options ? s->calibrated_options(opts) : NULL;
}

const char *pb_suite_library_versions(const pb_suite *s)
{
    return s && s->library_versions ? s->library_versions() : NULL;
}

pb_claim pb_suite_claim(const pb_suite *s, const pb_cell *cell, double doc_ratio)
{
    return s->claim ? s->claim(cell, doc_ratio) : PB_CLAIM_NONE;
}

int pb_suite_kat_accepts(const pb_suite *s, const char *path)
{
    return s->kat_accepts && s->kat_file ? s->kat_accepts(path) : 0;
}

int pb_suite_user_code(const pb_suite *s, const void *opts, const char *impl, char *what, size_t cap)
{
    if (cap) what[0] = 0;
    return s->user_code ? s->user_code(opts, impl, what, cap) : 0;
}

int pb_suite_user_object(const pb_suite *s, const void *opts, const char *impl, char *path, size_t cap)
{
    if (cap) path[0] = 0;
    return s->user_object ? s->user_object(opts, impl, path, cap) : 0;
}

int pb_suite_times_a_program(const pb_suite *s)
{
    return s->sample_words != NULL;
}

int pb_suite_check_output(const pb_suite *s, void *case_ctx, pb_err *e)
{
    return s->check_output ? s->check_output(case_ctx, e) : 0;
}

const char *const *pb_suite_ratio_pairs(const pb_suite *s, const void *opts)
{
    return s && s->ratio_pairs ? s->ratio_pairs(opts) : NULL;
}

void pb_suite_roles(const pb_suite *s, const void *opts, const char **baseline, const char **candidate)
{
    *baseline = s->baseline;
    *candidate = s->candidate;
    if (s->roles && opts && !s->roles(opts, baseline, candidate)) {
        *baseline = s->baseline;
        *candidate = s->candidate;
    }
}
