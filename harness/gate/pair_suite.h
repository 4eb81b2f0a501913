/* SPDX-License-Identifier: GPL-2.0-only */
/* pair_suite.h — the suite as the gate runs it: a wrapper pb_suite whose cells are pairs of impls
 * (gate/pair_suite.c). */
#ifndef PB_PAIR_SUITE_H
#define PB_PAIR_SUITE_H

#include <stddef.h>
#include <stdint.h>

#include "gate.h"
#include "suite.h"

#define AA_SUFFIX "~aa"       /* the A/A copy of impl X is called X~aa */
#define BASE_SUFFIX "~base"   /* the baseline build's copy of impl X is called X~base */

/*  * The runner runs a suite's grid; the gate needs that grid restricted to pairs of impls, or to a
 * few cells (reruns), or with an impl against a copy of itself (A/A), or two builds' suites side
 * by side (the commit gate in one process). A thin wrapper suite does this without changing the
 * runner: its options object is a gate_wrap, its plan pairs the sides' plans, and its setup_case
 * and selftest send each impl of the run to its side's suite under that suite's own name. Each
 * pair of a cell becomes a cell of its own with just its two impls, so that the two members of
 * a pair always run next to each other in a round. */
typedef struct gate_side {
    const pb_suite *suite;
    void *opts;
} gate_side;

typedef struct gate_pair {
    char a[PB_NAME_MAX], b[PB_NAME_MAX];            /* the impls as the run names them */
    char real_a[PB_NAME_MAX], real_b[PB_NAME_MAX];  /* as side A's and side B's suite names them */
} gate_pair;

#define GATE_MAX_PAIRS PB_MAX_IMPLS

typedef struct gate_wrap {
    gate_side side_a, side_b;    /* the same suite and options, but for two builds (modules) */
    gate_pair pairs[GATE_MAX_PAIRS];
    int npairs;
    const pb_cmp_cell *only;     /* reruns: just these cells */
    size_t nonly;
    uint64_t instances_set_up;   /* seeds each multi_case's pick */
    char effective[1024];        /* both sides' effective settings, when they are two builds */
    /* two builds: the pairs are X~base against X for every impl X in both grids (or only_impl),
     * found by plan; unpaired says which impls only one build has */
    int auto_pairs;
    const char *only_impl;
    char unpaired[400];
    char shared[600];            /* the candidate's calibration as given to the baseline build */
    char run_base[PB_NAME_MAX + 8];   /* two builds: the run's baseline, the candidate's X~base */
} gate_wrap;

/* A wrap for impl A against impl B of suite s (aa: A against a copy of A, named A~aa). */
void pb_pair_claim(gate_wrap *W, const pb_suite *s, void *suite_opts, const char *A, const char *B, int aa);
/* The wrapper suite of W into *wrapped: W's side B's suite with W's plan, setup, self-test and
 * effective options; its options object is W itself (opts_size 0). W must outlive it. */
void pb_pair_suite(gate_wrap *W, pb_suite *wrapped);
/* Whether W's sides are two builds (two suites or options objects), not one suite against itself. */
int pb_pair_two_builds(const gate_wrap *w);
/* Which side runs impl (as the run names it), under which name (*real); NULL if none. */
const gate_side *pb_pair_side_of(const gate_wrap *w, const char *impl, const char **real);
/* 0 when suite s (with its options) has impl in some cell of its grid, else -1 + e naming them. */
int pb_suite_check_impl(const pb_suite *s, void *suite_opts, const char *impl, pb_err *e);

#endif
