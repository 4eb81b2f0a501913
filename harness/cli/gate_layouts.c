/* SPDX-License-Identifier: GPL-2.0-only */
/* gate_layouts.c — the code layouts a gate samples (gate_layouts.h). */
#include "gate_layouts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gate_layouts {
    pb_module_layouts ma, mb;          /* mb: the candidate build's (or the only build's) */
    gate_wrap W[PB_MAX_LAYOUTS];
    pb_suite wrapped[PB_MAX_LAYOUTS];
    pb_layout_set set;
};

/* before layout l's plan: what the home wrap's candidate side calibrated (its own plan gives it to
 * its baseline side, pair_suite.c) */
static int share_home(void *ctx, const pb_suite *own, void *own_opts, int l, pb_err *e)
{
    (void)own;
    gate_layouts *G = ctx;
    const gate_wrap *home = own_opts;
    gate_wrap *w = &G->W[l];
    return pb_suite_copy_calibration(home->side_b.suite, home->side_b.opts, w->side_b.suite, w->side_b.opts, NULL, 0,
                                     e);
}

static void fill_set(gate_layouts *G, int n, uint64_t seed)
{
    G->set.n = n;
    for (int l = 0; l < n; l++) {
        pb_pair_suite(&G->W[l], &G->wrapped[l]);
        G->set.v[l].suite = &G->wrapped[l];
        G->set.v[l].opts = &G->W[l];
    }
    G->set.seed = seed;
    G->set.share = share_home;
    G->set.share_ctx = G;
    pb_module_layouts_what(G->set.what, sizeof G->set.what, n);
}

/* how many layouts to use of a build that has `built`: 0 when one (why says so), -1 + e when more are asked */
static int how_many(const pb_layout_args *la, int built, char *why, size_t cap, pb_err *e)
{
    if (la->layouts == 1) {
        snprintf(why, cap, "one code layout (--layouts 1)");
        return 0;
    }
    if (la->layouts > built) return pb_errf(e, "--layouts %d: the build has %d", la->layouts, built);
    int n = la->layouts ? la->layouts : built;
    if (n < 2) snprintf(why, cap, "one code layout (the build has no layout copies of its suite module)");
    return n < 2 ? 0 : n;
}

gate_layouts *pb_gate_layouts_claim(const pb_cli *cli, const pb_layout_args *la, const char *name, const char *A,
                                    const char *B, int aa, char *why, size_t cap, pb_err *e)
{
    why[0] = 0;
    e->msg[0] = 0;
    /* another program's code (gbench, exec) is not moved by bench's layouts: one, said so */
    const pb_suite *s = pb_suite_find(name);
    if (s && pb_suite_times_a_program(s)) {
        if (la->layouts > 1)
            pb_errf(e, "--layouts %d: suite %s times another program, whose code bench's layouts do not move "
                    "(docs/layout.md): it runs in one", la->layouts, name);
        else snprintf(why, cap, "one layout: the timed code is another program, which bench's code layouts do not move");
        return NULL;
    }
    char own[1024];
    if (pb_suite_module_own_path(own, sizeof own, e) < 0) {
        if (la->layouts > 1) return NULL;
        snprintf(why, cap, "one code layout (%.200s)", e->msg);
        e->msg[0] = 0;
        return NULL;
    }
    int n = how_many(la, pb_module_layouts_built(own), why, cap, e);
    if (n <= 0) return NULL;
    gate_layouts *G = calloc(1, sizeof *G);
    if (!G) { pb_errf(e, "out of memory"); return NULL; }
    if (pb_module_layouts_open(&G->mb, own, n, name, cli, e) < 0) {
        pb_gate_layouts_free(G);
        return NULL;
    }
    for (int l = 0; l < n; l++) pb_pair_claim(&G->W[l], G->mb.suite[l], G->mb.opts[l], A, B, aa);
    fill_set(G, n, la->seed);
    return G;
}

gate_layouts *pb_gate_layouts_builds(const pb_cli *cli, const pb_layout_args *la, const char *base_module,
                                     const char *cand_module, const char *name, const gate_wrap *home, char *why,
                                     size_t cap, pb_err *e)
{
    why[0] = 0;
    e->msg[0] = 0;
    int ba = pb_module_layouts_built(base_module), bb = pb_module_layouts_built(cand_module);
    int n = how_many(la, ba < bb ? ba : bb, why, cap, e);
    if (n <= 0) {
        if (!e->msg[0] && ba != bb)
            snprintf(why, cap, "one code layout: the baseline build has %d, the candidate build %d", ba, bb);
        return NULL;
    }
    gate_layouts *G = calloc(1, sizeof *G);
    if (!G) { pb_errf(e, "out of memory"); return NULL; }
    if (pb_module_layouts_open(&G->ma, base_module, n, name, cli, e) < 0 ||
        pb_module_layouts_open(&G->mb, cand_module, n, name, cli, e) < 0) {
        pb_gate_layouts_free(G);
        return NULL;
    }
    for (int l = 0; l < n; l++) {
        gate_wrap *w = &G->W[l];
        memset(w, 0, sizeof *w);
        w->side_a = (gate_side){G->ma.suite[l], G->ma.opts[l]};
        w->side_b = (gate_side){G->mb.suite[l], G->mb.opts[l]};
        w->auto_pairs = home->auto_pairs;
        w->only_impl = home->only_impl;
    }
    if (ba != bb) snprintf(why, cap, "%d code layouts: the baseline build has %d, the candidate build %d", n, ba, bb);
    fill_set(G, n, la->seed);
    return G;
}

void pb_gate_layouts_only(gate_layouts *G, const pb_cmp_cell *only, size_t nonly)
{
    for (int l = 0; G && l < G->set.n; l++) {
        G->W[l].only = only;
        G->W[l].nonly = nonly;
    }
}

const pb_layout_set *pb_gate_layouts_set(const gate_layouts *G)
{
    return G ? &G->set : NULL;
}

void pb_gate_layouts_free(gate_layouts *G)
{
    if (!G) return;
    pb_module_layouts_close(&G->ma);
    pb_module_layouts_close(&G->mb);
    free(G);
}

static gate_layouts *open_claim(const void *ctx, const gate_wrap *home, uint64_t seed, char *why, size_t cap, pb_err *e)
{
    (void)home;
    const gate_layouts_ctx *c = ctx;
    pb_layout_args la = c->la;
    la.seed = seed;
    return pb_gate_layouts_claim(c->cli, &la, c->name, c->a, c->b, c->aa, why, cap, e);
}

static gate_layouts *open_builds(const void *ctx, const gate_wrap *home, uint64_t seed, char *why, size_t cap,
                                 pb_err *e)
{
    const gate_layouts_ctx *c = ctx;
    pb_layout_args la = c->la;
    la.seed = seed;
    return pb_gate_layouts_builds(c->cli, &la, c->module_a, c->module_b, c->name, home, why, cap, e);
}

pb_gate_layout_src pb_gate_layouts_claim_src(const gate_layouts_ctx *c)
{
    return (pb_gate_layout_src){open_claim, pb_gate_layouts_only, pb_gate_layouts_set, pb_gate_layouts_free, c};
}

pb_gate_layout_src pb_gate_layouts_builds_src(const gate_layouts_ctx *c)
{
    return (pb_gate_layout_src){open_builds, pb_gate_layouts_only, pb_gate_layouts_set, pb_gate_layouts_free, c};
}
