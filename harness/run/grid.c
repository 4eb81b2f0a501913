/* SPDX-License-Identifier: GPL-2.0-only */
/* grid.c — the grid a run measures (runner.h pb_runner_grid): the suite's plan, its impls filtered
 * by --impl and its sizes replaced by --sizes (counts of the suite's items where it has them: suite.h
 * item_unit), every size checked before anything is measured. */
#include "runner_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "nearest.h"

/* The counts of list, each of one `item` (NULL: bytes), into out; their number or -1 + e. */
static int parse_counts(const char *list, const char *item, uint64_t *out, int cap, pb_err *e)
{
    int n = 0;
    char buf[512];
    /* a cut copy would turn the last size into another one (4096 -> 40) */
    if (strlen(list) >= sizeof buf) return pb_errf(e, "--sizes is too long (at most %zu characters)", sizeof buf - 1);
    if (!*list) return pb_errf(e, "--sizes is empty");
    snprintf(buf, sizeof buf, "%s", list);
    const char *written[PB_MAX_SIZES];   /* each size as given, for a repeat's message */
    for (char *t = buf, *next; t; t = next) {
        /* cut by hand, not strtok: strtok would pass over an empty entry (",64" or "64,,512") */
        next = strchr(t, ',');
        if (next) *next++ = 0;
        if (!*t) return pb_errf(e, "--sizes '%s' has an empty entry (sizes are separated by single commas)", list);
        char *end;
        errno = 0;
        unsigned long long v = strtoull(t, &end, 10);
        /* check the range before scaling: 18014398509481985k would wrap to 1 KiB */
        if (!errno && (*end == 'k' || *end == 'K')) {
            if (v > PB_MAX_SIZE_BYTES / 1024) v = 0;
            else v *= 1024;
            end++;
        }
        if (errno || end == t || *end || v == 0 || v > PB_MAX_SIZE_BYTES || t[0] < '0' || t[0] > '9') {
            if (item) return pb_errf(e, "bad size '%s' in --sizes (want positive counts of %ss like 4,16,1k)", t, item);
            return pb_errf(e, "bad size '%s' in --sizes (want positive byte counts like 64,512,4k)", t);
        }
        /* one cell timed twice would be stored as one case with two samples per round */
        for (int i = 0; i < n; i++)
            if (out[i] == v)
                return pb_errf(e, "--sizes: %llu %ss given twice ('%s' and '%s'): each size is one cell",
                               (unsigned long long)v, item ? item : "byte", written[i], t);
        if (n == cap || n == PB_MAX_SIZES) return pb_errf(e, "too many sizes in --sizes (at most %d)", cap);
        written[n] = t;
        out[n++] = v;
    }
    return n;
}

int pb_parse_sizes(const char *list, uint64_t *out, int cap, pb_err *e)
{
    return parse_counts(list, NULL, out, cap, e);
}

int pb_parse_cell_sizes(const pb_suite *s, const char *list, uint64_t *out, int cap, pb_err *e)
{
    if (!pb_suite_has_items(s)) return pb_parse_sizes(list, out, cap, e);
    int n = parse_counts(list, s->item_unit, out, cap, e);
    for (int i = 0; i < n; i++)
        if (pb_suite_size_of(s, out[i], &out[i], e) < 0) return -1;
    return n;
}

static int in_list(const char *list, const char *name)
{
    if (!list) return 1;
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        if (len == n && !strncmp(p, name, n)) return 1;
        if (!c) break;
        p = c + 1;
    }
    return 0;
}

/* do two cells share an impl? (then they are one template: the first one's impls) */
static int share_impl(const pb_cell *a, const pb_cell *b)
{
    for (int k = 0; k < a->nimpls; k++)
        for (int j = 0; j < b->nimpls; j++)
            if (!strcmp(a->impls[k], b->impls[j])) return 1;
    return 0;
}

/* Is impl a cell's impl somewhere in the grid? */
static int grid_has_impl(const pb_grid *g, const char *impl)
{
    for (int i = 0; i < g->ncells; i++)
        for (int k = 0; k < g->cells[i].nimpls; k++)
            if (!strcmp(g->cells[i].impls[k], impl)) return 1;
    return 0;
}

/* --impl: every name checked against the grid's impls (an unknown one refused, with the list), then
 * each cell's impls kept only where named. 0 or -1 + e. */
static int filter_impls(const pb_runner_opts *o, pb_grid *g, pb_err *e)
{
    char buf[512];
    if (strlen(o->impls) >= sizeof buf)
        return pb_errf(e, "--impl is too long (at most %zu characters)", sizeof buf - 1);
    /* strtok would pass over an empty entry: "--impl ''" or "old,,new" would quietly mean something */
    if (!*o->impls || o->impls[0] == ',' || o->impls[strlen(o->impls) - 1] == ',' || strstr(o->impls, ",,"))
        return pb_errf(e, "--impl '%s' has an empty entry (impls are separated by single commas)", o->impls);
    snprintf(buf, sizeof buf, "%s", o->impls);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (grid_has_impl(g, t)) continue;
        char all[512] = "";
        size_t off = 0;
        for (int i = 0; i < g->ncells; i++)
            for (int k = 0; k < g->cells[i].nimpls; k++)
                if (!strstr(all, g->cells[i].impls[k]) && off < sizeof all)
                    off += (size_t)snprintf(all + off, sizeof all - off, "%s%s", off ? "," : "", g->cells[i].impls[k]);
        char hint[96];
        return pb_errf(e, "--impl: unknown impl '%s' for suite %s (%simpls: %s)", t, o->suite->name,
                       pb_did_you_mean(hint, sizeof hint, t, all), all);
    }
    for (int i = 0; i < g->ncells; i++) {
        pb_cell *c = &g->cells[i];
        int k2 = 0;
        for (int k = 0; k < c->nimpls; k++)
            if (in_list(o->impls, c->impls[k])) memmove(c->impls[k2++], c->impls[k], PB_NAME_MAX);
        c->nimpls = k2;
    }
    return 0;
}

/* --sizes: the grid's templates, the distinct (variant, op) cells, each at every size asked for;
 * cells of one (variant, op) with no impl in common are distinct templates (the gate's pairs of
 * impls). 0 or -1 + e. */
static int resize_grid(const pb_runner_opts *o, pb_grid *g, pb_err *e)
{
    uint64_t sizes[PB_MAX_SIZES];
    int ns = pb_parse_cell_sizes(o->suite, o->sizes, sizes, PB_MAX_SIZES, e);
    if (ns < 0) return -1;
    pb_cell *out = calloc((size_t)g->ncells * (size_t)ns + 1, sizeof *out);
    if (!out) return pb_errf(e, "out of memory");
    int n = 0;
    for (int i = 0; i < g->ncells; i++) {
        int dup = 0;
        for (int j = 0; j < i && !dup; j++)
            dup = !strcmp(g->cells[j].variant, g->cells[i].variant) && !strcmp(g->cells[j].op, g->cells[i].op) &&
                  share_impl(&g->cells[j], &g->cells[i]);
        if (dup) continue;
        for (int k = 0; k < ns; k++) {
            out[n] = g->cells[i];
            out[n].size_bytes = sizes[k];
            n++;
        }
    }
    free(g->cells);
    g->cells = out;
    g->ncells = n;
    return 0;
}

/* Apply --impl and --sizes to the suite's grid; errors for names that match nothing. */
static int filter_grid(const pb_runner_opts *o, pb_grid *g, pb_err *e)
{
    if (o->impls && filter_impls(o, g, e) < 0) return -1;
    if (o->sizes && resize_grid(o, g, e) < 0) return -1;
    int k = 0;
    for (int i = 0; i < g->ncells; i++)
        if (g->cells[i].nimpls > 0) g->cells[k++] = g->cells[i];
    g->ncells = k;
    if (!k) return pb_errf(e, "no cell of suite %s matches the filters", o->suite->name);
    /* every size before anything is measured: a bad one must not leave a half-measured failed run */
    for (int i = 0; i < g->ncells; i++)
        if (pb_suite_check_size(o->suite, g->cells[i].size_bytes, e) < 0) return -1;
    return 0;
}

int pb_runner_grid(const pb_runner_opts *o, pb_grid *g, pb_err *e)
{
    pb_plan_opts po = {.quick = o->quick};
    g->ncells = 0;
    g->cells = NULL;
    if (o->suite->plan(o->suite_opts, &po, g, e) < 0) return -1;
    if (filter_grid(o, g, e) < 0) { free(g->cells); g->cells = NULL; return -1; }
    return 0;
}
