/* SPDX-License-Identifier: GPL-2.0-only */
/* layouts.c — a run's code layouts (layouts.h). */
#include "layouts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "term.h"

void pb_layouts_assign(int *of_round, int rounds, int n, uint64_t seed)
{
    for (int b = 0; b * n < rounds; b++) {
        int perm[PB_MAX_LAYOUTS];
        for (int i = 0; i < n; i++) perm[i] = i;
        pb_rng r;
        pb_rng_seed(&r, seed * 0x9e3779b97f4a7c15ull + (uint64_t)b + 1);
        for (int i = n - 1; i > 0; i--) {
            int j = (int)(pb_rng_next(&r) % (uint64_t)(i + 1));
            int t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        for (int i = 0; i < n && b * n + i < rounds; i++) of_round[b * n + i] = perm[i];
    }
}

int pb_layouts_begin(pb_run_layouts *L, const pb_runner_opts *o, int rounds, pb_err *e)
{
    memset(L, 0, sizeof *L);
    const pb_layout_set *set = o->layouts;
    /* another program's code is where its own binary put it, whichever copy of bench's module runs */
    L->program = pb_suite_times_a_program(o->suite);
    L->n = set && set->n > 1 && !L->program ? set->n : 1;
    L->rounds = rounds;
    L->of_round = calloc((size_t)(rounds > 0 ? rounds : 1), sizeof *L->of_round);
    if (!L->of_round) return pb_errf(e, "out of memory");
    if (L->n == 1) return 0;
    if (L->n > PB_MAX_LAYOUTS) return pb_errf(e, "%d layouts: at most %d", L->n, PB_MAX_LAYOUTS);
    L->set = set;
    /* Stack and heap offsets: 0 to 4080 bytes in 16-byte steps (the ABI's stack alignment, malloc's),
     * the analogue of the environment size that moved the stack in Mytkowicz et al. */
    pb_rng r;
    pb_rng_seed(&r, set->seed ^ 0x6c61796f757473ull);
    for (int l = 0; l < L->n; l++) {
        L->stack_offset[l] = 16 * (size_t)(pb_rng_next(&r) % 256);
        L->heap_offset[l] = 16 * (size_t)(pb_rng_next(&r) % 256);
    }
    /* The run's own suite planned already (pb_runner_grid), so a layout that cannot plan is this
     * process's limit, not bad input: e.g. each copy of the drbg suite loading its own libgcrypt
     * (--gcrypt-lib) until glibc's static TLS is full. The run goes on with the layouts before it,
     * says so, and records it (runs.layouts). */
    pb_plan_opts po = {.quick = o->quick};
    for (int l = 0; l < L->n; l++) {
        const pb_suite *s = set->v[l].suite;
        pb_err le = {{0}};
        if ((set->share && set->share(set->share_ctx, o->suite, o->suite_opts, l, &le) < 0) ||
            s->plan(set->v[l].opts, &po, &L->grid[l], &le) < 0) {
            snprintf(L->short_of, sizeof L->short_of, "%d of %d layouts: layout %d could not plan: %.300s",
                     l < 2 ? 1 : l, L->n, l, le.msg);
            char line[sizeof L->short_of + 32];
            snprintf(line, sizeof line, "bench: warning: %s", L->short_of);
            pb_term_wrap(stderr, o->width, line);
            L->n = l < 2 ? 1 : l;
            break;
        }
    }
    if (L->n > 1) pb_layouts_assign(L->of_round, rounds, L->n, set->seed);
    return 0;
}

int pb_layouts_has(const pb_run_layouts *L, int l, const pb_cell *cell, const char *impl)
{
    if (L->n == 1) return 0;
    const pb_grid *g = &L->grid[l];
    for (int i = 0; i < g->ncells; i++) {
        const pb_cell *c = &g->cells[i];
        if (strcmp(c->variant, cell->variant) || strcmp(c->op, cell->op)) continue;
        for (int k = 0; k < c->nimpls; k++)
            if (!strcmp(c->impls[k], impl)) return 1;
    }
    return 0;
}

void pb_layouts_describe(const pb_run_layouts *L, char *buf, size_t cap)
{
    if (L->n == 1 && L->program) {
        snprintf(buf, cap, "1: the timed code is another program, which bench's code layouts do not move");
        return;
    }
    if (L->n == 1) {
        snprintf(buf, cap, "1 (the run's own build; no layout variants)%s%s", L->short_of[0] ? ": " : "",
                 L->short_of);
        return;
    }
    size_t k = (size_t)snprintf(buf, cap, "%d (seed %llu): %s%s%s; stack offsets", L->n,
                                (unsigned long long)L->set->seed, L->set->what, L->short_of[0] ? "; " : "",
                                L->short_of);
    for (int l = 0; l < L->n && k < cap; l++)
        k += (size_t)snprintf(buf + k, cap - k, "%s%zu", l ? "," : " ", L->stack_offset[l]);
    if (k < cap) k += (size_t)snprintf(buf + k, cap - k, " B; heap offsets");
    for (int l = 0; l < L->n && k < cap; l++)
        k += (size_t)snprintf(buf + k, cap - k, "%s%zu", l ? "," : " ", L->heap_offset[l]);
    if (k < cap) snprintf(buf + k, cap - k, " B, each impl's own added (seed, layout, name)");
}

size_t pb_layouts_heap_offset(const pb_run_layouts *L, int l, const char *impl)
{
    if (L->n == 1) return 0;
    uint64_t h = 14695981039346656037ull;   /* FNV-1a of the name, then a draw seeded by it */
    for (const unsigned char *p = (const unsigned char *)impl; *p; p++) h = (h ^ *p) * 1099511628211ull;
    pb_rng r;
    pb_rng_seed(&r, h ^ L->set->seed ^ (0x9e3779b97f4a7c15ull * (uint64_t)(l + 1)));
    return (L->heap_offset[l] + 16 * (size_t)(pb_rng_next(&r) % 256)) % 4096;
}

void pb_layouts_end(pb_run_layouts *L)
{
    for (int l = 0; l < PB_MAX_LAYOUTS; l++) free(L->grid[l].cells);
    free(L->of_round);
    memset(L, 0, sizeof *L);
}
