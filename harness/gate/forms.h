/* SPDX-License-Identifier: GPL-2.0-only */
/* forms.h — the gate's forms that time or read runs (docs/gate.md): the claim gate (two impls
 * interleaved in one run), A/A calibration, and the commit gate (one impl of two builds, from runs
 * made alternately by ci/perf-gate, or both builds' suite modules in one process). Each runs its
 * sessions (loop.h), stores the comparison and shows it (pb_gate_emit), and returns the exit
 * status (gate.h), or -1 + e. The gate against a stored baseline is gate_baseline.h's, the count
 * gate gate_det.h's. */
#ifndef PB_GATE_FORMS_H
#define PB_GATE_FORMS_H

#include "gate_det.h"
#include "loop.h"
#include "suite_module.h"

/* The claim gate's and a calibration's subject: impl a against impl b of one suite (a calibration:
 * a against a copy of itself, and layouts opened for that). */
typedef struct pb_gate_pair {
    const pb_suite *suite;
    void *suite_opts;
    const char *a, *b;
    pb_gate_layout_src layouts;
} pb_gate_pair;

/* The claim gate (rule 'claim'): b must not be slower than a. */
int pb_gate_claim(const pb_gate_job *j, const pb_gate_pair *p, pb_err *e);
/* --measure both: the wall-time claim gate, then the count gate (dg), then both per cell side by
 * side; fails when either fails (a time-only regression is memory, stalls or layout, and still real). */
int pb_gate_both(const pb_gate_job *j, const pb_gate_pair *p, pb_det_gate *dg, pb_err *e);
/* A/A calibration in one run, repeat times: stored (table calibrations) and its table shown. 0 or -1. */
int pb_gate_calibrate(const pb_gate_job *j, const pb_gate_pair *p, size_t repeat, pb_err *e);

/* The commit gate's decision from runs of two builds made alternately (rule 'commit'), or with
 * calibrate its A/A (one build against itself): the exit status of its gate either way. */
typedef struct pb_gate_runs {
    const char *runs_a, *runs_b;   /* comma lists of run ids: the old build's, the new build's */
    const char *impl;              /* only this impl; NULL: every one */
    const char *suite;             /* the runs' suite as given; NULL: any */
    const char *metric;            /* as given; NULL: the runs' suite's primary metric */
    int calibrate;
} pb_gate_runs;
int pb_gate_commit_runs(const pb_gate_job *j, const pb_gate_runs *r, pb_err *e);

/* The commit gate in one process: impl X~base of the old build's suite module against X of the
 * new build's, interleaved round by round (rule 'commit'); with calibrate the same build on both
 * sides, repeat times. The suites are found and their options set by the caller. */
typedef struct pb_gate_builds {
    const pb_suite_module *ma, *mb;          /* the old build's module, the new build's */
    const char *path_a, *path_b;
    const pb_suite *sa, *sb;
    void *oa, *ob;
    const char *impl;                        /* only this impl; NULL: every impl of both */
    int calibrate;
    size_t repeat;
    pb_gate_layout_src layouts;
} pb_gate_builds;
int pb_gate_commit_builds(const pb_gate_job *j, const pb_gate_builds *b, pb_err *e);

#endif
