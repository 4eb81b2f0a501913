/* SPDX-License-Identifier: GPL-2.0-only */
/* gate_layouts.h — the code layouts a gate samples (docs/layout.md): one gate wrap (pair_suite.h)
 * per layout, over the layout copies of this bench's suite module (claim and A/A gates) or of the
 * two builds' modules (the commit gate in one process), handed to the runner as a layout set, so
 * that a gate compares placements on both sides rather than one arbitrary one. */
#ifndef PB_GATE_LAYOUTS_H
#define PB_GATE_LAYOUTS_H

#include "cli_layouts.h"
#include "loop.h"
#include "pair_suite.h"

/* Claim or A/A gate of impls A and B of suite `name` (aa: A against a copy of A): this bench's own
 * layouts. NULL with e->msg empty when there is one layout (--layouts 1, or no layout modules
 * built: said in why); NULL with e->msg set on an error. */
gate_layouts *pb_gate_layouts_claim(const pb_cli *cli, const pb_layout_args *la, const char *name, const char *A,
                                    const char *B, int aa, char *why, size_t cap, pb_err *e);
/* The commit gate: layout l of each build against the same layout of the other, as many as both
 * builds have (why says when that is fewer than asked, or one). home is the gate's wrap of the two
 * builds' own modules, whose pairing settings (auto_pairs, only_impl) each layout's wrap copies. */
gate_layouts *pb_gate_layouts_builds(const pb_cli *cli, const pb_layout_args *la, const char *base_module,
                                     const char *cand_module, const char *name, const gate_wrap *home, char *why,
                                     size_t cap, pb_err *e);
/* What a session of the gate's loop opens (loop.h): the claim gate's or a calibration's layouts
 * (pb_gate_layouts_claim), or the commit gate's of two builds (pb_gate_layouts_builds, the session's
 * wrap its home), at the seed the session asks for. ctx must outlive the sessions. */
typedef struct gate_layouts_ctx {
    const pb_cli *cli;
    pb_layout_args la;
    const char *name;                     /* the suite */
    const char *a, *b;                    /* claim: the impls */
    int aa;                               /* claim: a against a copy of a */
    const char *module_a, *module_b;      /* two builds: the old build's module, the new build's */
} gate_layouts_ctx;
pb_gate_layout_src pb_gate_layouts_claim_src(const gate_layouts_ctx *c);
pb_gate_layout_src pb_gate_layouts_builds_src(const gate_layouts_ctx *c);
/* Before each pass of a session: the cells to run (reruns), in every layout's wrap. */
void pb_gate_layouts_only(gate_layouts *G, const pb_cmp_cell *only, size_t nonly);
const pb_layout_set *pb_gate_layouts_set(const gate_layouts *G);
void pb_gate_layouts_free(gate_layouts *G);

#endif
