/* SPDX-License-Identifier: GPL-2.0-only */
/* runner.h — runs one suite's grid, interleaved, into the store.
 *
 * For every cell: set up one case per impl (selftest first: an impl that
 * fails its known answers is never timed), warm up, calibrate the iteration
 * count so one sample takes about sample_seconds, then register
 * rounds x impls Google Benchmark benchmarks in round-robin order with the
 * start rotated every round, run them, and store every sample (with TSC,
 * hardware counters where available, and a core-speed probe before and
 * after). Ratios are later taken on samples paired by round, so that both
 * sides of a pair ran within a few milliseconds of each other. */
#ifndef PB_RUNNER_H
#define PB_RUNNER_H

#include <stdint.h>

#include "pb.h"
#include "suite.h"

/* Code layouts (docs/layout.md): the same implementations placed differently in memory, each a
 * suite of its own (another copy of the suite module: libpbsuites-layoutN.so), with its own
 * options object. The runner runs every round in one layout, balanced (each layout gets the same
 * number of rounds in every block of n rounds, in an order drawn from seed), and each layout with
 * its own stack and heap offsets (drawn from seed too), so that a cell's ratio can be estimated
 * across layouts (store/finalize.c) rather than in one arbitrary one. An impl that no layout has
 * (a plug-in: code the lab did not compile) runs from the run's own suite in every round. */
#define PB_MAX_LAYOUTS 16
typedef struct pb_layout_set {
    int n;                          /* 0 or 1: one layout, the run's own suite (no offsets) */
    struct {
        const pb_suite *suite;
        void *opts;
    } v[PB_MAX_LAYOUTS];
    uint64_t seed;
    /* Optional: before layout l's plan, give it what the run's own suite calibrated in its plan
     * (suite.h calibrated_options), so that every layout pays the same modelled costs. 0 or -1 + e. */
    int (*share)(void *ctx, const pb_suite *own, void *own_opts, int l, pb_err *e);
    void *share_ctx;
    char what[512];                 /* what the layouts are, for runs.layouts: "suite module copies ..." */
} pb_layout_set;

/* The rounds of a cell when none are asked for: multiples of the layouts (PB_MAX_LAYOUTS), so that
 * every layout gets as many. The gate's first pass takes them too; `bench run --help` and `bench
 * gate --help` quote them (PB_STR). */
#define PB_DEFAULT_ROUNDS 64
#define PB_DEFAULT_ROUNDS_QUICK 16

typedef struct pb_runner_opts {
    const pb_suite *suite;
    void *suite_opts;         /* the suite's options object (pb_suite_opts_new), set from the CLI */
    int quick;
    int rounds;               /* 0: PB_DEFAULT_ROUNDS (quick: PB_DEFAULT_ROUNDS_QUICK) */
    /* Passes over the grid (docs/layout.md, "Passes"): pass p runs rounds [p R / P, (p + 1) R / P) of
     * every cell in turn, each cell's cases set up anew, so that a cell's rounds are spread over the
     * whole run rather than the second or so a cell takes. 0: pb_default_passes; 1..rounds. */
    int passes;
    double sample_seconds;    /* 0: default (quick: 0.5 ms, else 2 ms), or the cell's own */
    const char *impls;        /* comma list filter, NULL = all */
    const char *sizes;        /* comma list: filter/extend the sizes, NULL = the suite's grid */
    const char *db_path;
    const char *counters;     /* libpfm4 names, NULL = default */
    const char *command_line;
    const char *options_text; /* suite options as given, for provenance */
    int progress;             /* 1: progress lines on stderr once the run takes > 2 s */
    /* 1: the live progress line (progress.c, ticker.h) even where progress is 0 (--quiet --live: a
     * script that keeps bench's other lines to itself and passes this one on) */
    int live;
    /* The columns of stderr's lines (term.h pb_term_width): the header in at most three lines, each
     * line and warning cut to fit; 0: unbounded, every line in full (not a terminal, --wide). */
    int width;
    const char *cpu;          /* --cpu: NULL (the last online CPU), "none" or a CPU number (runenv.h) */
    /* Optional, for a caller that runs the same cases again (the gate's reruns): the iterations
     * per sample each case was calibrated to, kept across runs; a case found here is not
     * calibrated again. Calibrating costs up to ~1.5 s a case when timings are noisy (each
     * doubling must double the time twice in a row, else it doubles on up to 0.25 s), which made
     * a rerun of 60 cases take 61 s where 9 s were predicted, overrunning --budget. */
    struct pb_iters_memo *iters_memo;
    /* Optional: the code layouts to sample (NULL: one, the suite's own). */
    const pb_layout_set *layouts;
    /* Optional out: the seconds the grid took, its cells and their finalizing, without the plan
     * and the layouts' set-up before it: the part of a run that grows with its rounds (what the
     * gate's --budget forecast doubles; the rest is paid once per run). Untouched on failure. */
    double *grid_s;
    /* Which impls are timed in a cage (cage.h): PB_CAGE_USER (0, the default) the suite's user
     * code, PB_CAGE_ALL every impl (to measure what the cage costs), PB_CAGE_NONE none. */
    int cage;
    /* --timeout: the limit of one caged sample in seconds; 0: 10 x the cell's sample length, at
     * least PB_CAGE_MIN_LIMIT_S (calibration: PB_CAGE_CALIBRATION_LIMIT_S). */
    double timeout_s;
    /* Optional, out: how many cases of caged code failed (crashed, exited, hung, answered wrong)
     * and were stored unavailable with the reason; the run itself is still complete. */
    int *failed_cases;
    /* --revision, --label: the user's side of a run that times the user's code (objects.h); NULL:
     * the revision is git describe of the repository the candidate's file is in, no label. A run
     * that times no such code refuses them (-2). */
    const char *user_revision, *user_label;
    /* Boundary rounds (docs/layout.md, "Boundary rounds"): after the passes and make-up passes, the
     * candidate against the baseline of every cell, estimated as finalize.c does (across layouts, its
     * variance moderated over the cells); nearness(near_ctx, cell, estimate, CI) says how near a
     * verdict's boundary it is (smaller: nearer; INFINITY: not near), and the nearest cells, at most
     * a quarter of the run's (PB_BOUNDARY_SHARE), get boundary_rounds more rounds of all their impls,
     * in passes as the run's own. NULL: none (the gates; --quick has none either). boundary_rounds:
     * -1 half the run's rounds (rounded up), 0 none, else how many. */
    double (*nearness)(void *ctx, const pb_cell *cell, double est, double lo, double hi);
    void *near_ctx;
    int boundary_rounds;
} pb_runner_opts;

enum { PB_CAGE_USER = 0, PB_CAGE_ALL = 1, PB_CAGE_NONE = 2 };
/* A 2 ms sample preempted on a busy machine can take tens of ms: a limit under a second
 * would fail honest code. Set-up (self-tests included) and calibration get fixed limits. */
#define PB_CAGE_MIN_LIMIT_S 1.0
#define PB_CAGE_CALIBRATION_LIMIT_S 10.0
#define PB_CAGE_SETUP_LIMIT_S 60.0

/* The caller's memo of calibrated iterations (pb_runner_opts.iters_memo); zero-initialise,
 * free with pb_iters_memo_free. */
typedef struct pb_iters_memo {
    struct pb_iters_entry *v;
    size_t n, cap;
} pb_iters_memo;
void pb_iters_memo_free(pb_iters_memo *m);

/* Returns 0 (run complete), -1 (error in e; run marked failed), -2 (bad
 * input found before a run was recorded, a store refused as it is among it), or 130 when interrupted by
 * SIGINT/SIGTERM (run marked incomplete).
 *
 * Re-entrancy: a run's own state (counters, store, probes, self-test results, failed cases) is
 * in a context on pb_run's stack, so runs one after another in one
 * process do not see each other's (the gate's reruns; iters_memo is the caller's, to share on
 * purpose). Two things reach beyond one run, so pb_run is not re-entrant: two at once on two
 * threads, or one called from a suite's callback inside a run, would collide on
 *   - Google Benchmark's registry (and gbshim's map of names to arguments that goes with it),
 *     which every cell clears, fills with its rounds and runs;
 *   - the signal flag and the SIGINT/SIGTERM handlers that set it, installed for the run's
 *     duration and then restored: a signal stops whichever run is in progress.
 * (The pin, runenv.h, is the calling thread's and restored after: it collides with nothing, but
 * two runs at once would be pinned to one CPU by default.) */
int pb_run(const pb_runner_opts *o, int64_t *run_id, pb_err *e);

/* The default passes (pb_runner_opts.passes): one per PB_PASS_ROUNDS rounds (a block of the
 * layouts' permutation: each pass then runs every layout once), at most PB_MAX_DEFAULT_PASSES, at
 * least 1; 1 for a suite whose sample is a process (sample_words) or that has cell hooks. */
#define PB_PASS_ROUNDS 16
/* Make-up passes (docs/layout.md, "A shared core"): after the passes of a run in more than one (and
 * not --quick) and more than one layout, a cell's code layout none of whose rounds ran on a core of
 * its own gets one more round, in up to this many passes. */
#define PB_MAKEUP_PASSES 2
/* Boundary rounds go to at most one cell in this many of a run's (at least one): with half the
 * rounds each, an eighth of the grid's time more where cells cost alike (docs/layout.md) */
#define PB_BOUNDARY_SHARE 4
#define PB_MAX_DEFAULT_PASSES 4
int pb_default_passes(const pb_suite *s, int rounds);

/* The suite's grid after --impl and --sizes, every size checked (what pb_run measures); the
 * caller frees g->cells. -1 + e on a filter that matches nothing or a bad size. */
int pb_runner_grid(const pb_runner_opts *o, pb_grid *g, pb_err *e);

/* Parse "64,512,4k,32K" into sizes; -1 + e on a bad or empty entry, or a size given twice (1k,1024). */
int pb_parse_sizes(const char *list, uint64_t *out, int cap, pb_err *e);
/* --sizes of suite s into cells' stored sizes: pb_parse_sizes where s counts in bytes; where it has
 * items (suite.h item_unit) each entry is a count of them ("4,16": 4 and 16 blocks), stored as their
 * bytes (pb_suite_size_of). Their number, or -1 + e. */
int pb_parse_cell_sizes(const pb_suite *s, const char *list, uint64_t *out, int cap, pb_err *e);

#endif
