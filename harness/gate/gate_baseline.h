/* SPDX-License-Identifier: GPL-2.0-only */
/* gate_baseline.h — stored baselines (docs/gate.md, "Stored baselines"): a name for a stored run
 * (`bench baseline save NAME [--run ID]`, table baselines), and the gate of a new run against it
 * (`bench gate --against NAME [--run ID]`): an UNPAIRED comparison, one run each, for users who
 * cannot re-run the old build. Weaker than a paired gate, and said so: nothing cancels what the
 * machine did between the two sessions, so its CI is wider (the runs' own scatter, their code
 * layouts' and, where this machine has an A/A calibration across runs, its between-run noise)
 * and it has its own, larger threshold (rule `baseline` of ci/thresholds). Only a run of the same
 * machine, suite, target and configuration is compared; anything else is refused, naming what
 * differs. */
#ifndef PB_GATE_BASELINE_H
#define PB_GATE_BASELINE_H

#include <stdint.h>
#include <stdio.h>

#include "gate.h"
#include "store.h"

#define PB_BASELINE_NAME_MAX 64

/* NAME: 1 to 64 of A-Z a-z 0-9 . _ - / @ +, not starting with '-' or '.'. 0, or -1 + e. */
int pb_baseline_name_ok(const char *name, pb_err *e);

/* Names run (a complete run of st) NAME; an existing NAME moves to it, *was its run before (0:
 * new). 0, -1 + e (the store), PB_STORE_REFUSED + e (no such run, or not complete). */
int pb_baseline_save(pb_store *st, const char *name, int64_t run, const char *command_line, int64_t *was, pb_err *e);
/* NAME's run in *run: 1, 0 when there is no such baseline, -1 + e. */
int pb_baseline_find(pb_store *st, const char *name, int64_t *run, pb_err *e);
/* Every baseline, one line each (name, run, suite, when saved), to f. 0, or -1 + e. */
int pb_baseline_list(pb_store *st, FILE *f, pb_err *e);
/* 1 removed, 0 none of that name, -1 + e. */
int pb_baseline_delete(pb_store *st, const char *name, pb_err *e);
/* For a name that is no baseline: "did you mean NEAR?; " into buf when a stored one is near enough
 * (nearest.h), else "" (also when the names cannot be read: a hint, never an error). */
const char *pb_baseline_did_you_mean(pb_store *st, const char *name, char *buf, size_t cap);

/* May run b be compared with run a unpaired? Both complete, of one suite, machine (machine_id) and
 * target, made with the same configuration: runs.options without the values of the options that
 * name the code (suite.h code_options, e.g. gbench --old/--new) and the number and seed of code
 * layouts. 0, PB_STORE_REFUSED + e saying what differs, -1 + e (the store). */
int pb_baseline_comparable(pb_store *st, int64_t a, int64_t b, pb_err *e);

typedef struct pb_against {
    const char *name;            /* the baseline */
    int64_t run;                 /* the new run; 0: the newest complete run of the baseline's suite after it */
    const char *impl;            /* NULL: the new run's candidate */
    const char *metric;          /* NULL: the runs' primary metric */
    const pb_thresholds *th;     /* rule 'baseline' */
    const pb_gate_params *gp;
    const char *command_line;
} pb_against;

/* What a gate against a stored baseline decided, stored as a comparison (comparisons.baseline = the
 * name): its cells and what its header says. */
typedef struct pb_against_result {
    pb_cmp_cell *cells;
    size_t n;
    int status;                  /* 0 pass, 1 regression, 3 inconclusive */
    int64_t comparison_id;
    int threshold_line;
    char suite[PB_NAME_MAX], metric[PB_NAME_MAX];
    char title[300], pairing[300], note[1024];
} pb_against_result;

/* The gate against a stored baseline, stored. 0 and *r (free with pb_against_result_free), or -1 +
 * e: a refusal (an unknown name, runs that cannot be compared) or the store's failure. */
int pb_gate_against(pb_store *st, const pb_against *o, pb_against_result *r, pb_err *e);
void pb_against_result_free(pb_against_result *r);
/* Its header, as every gate's is printed and put in the document (gate_doc.h); points into o and r. */
void pb_against_header(const pb_against *o, const pb_against_result *r, pb_cmp_header *h);

#endif
