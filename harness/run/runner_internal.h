/* SPDX-License-Identifier: GPL-2.0-only */
/* runner_internal.h — what the runner's files share (runner.h is the API): a run's context, a
 * cell's state through the passes, and the functions one concern of the runner asks of another.
 *
 * The files, by concern:
 *   runner.c        a run's life: its context, start (counters, store, pinning, the run's row) and
 *                   finish (finalized, or marked failed or incomplete), the signal flag
 *   grid.c          the grid a run measures: the suite's plan after --impl and --sizes
 *   passes.c        the passes over the grid: a cell's state from its first pass to its store
 *   cases.c         a cell's cases: set up (self-tested first), warmed, calibrated, freed
 *   sample.c        one sample: timed in Google Benchmark's loop, and what is stored of it
 *   extra_rounds.c  rounds beyond the run's own: make-up rounds and boundary rounds
 *   progress.c      the progress lines
 *   noise.c         the noise account: core speed, rounds that waited, a shared core
 *   cage_client.c   the runner's side of the cage (cage.h): what it asks of a caged case's child,
 *                   and what that child does for it
 * The run's decisions are named predicates (should_..., cell_needs_..., predict_...), as Google
 * Benchmark's runner names its own. */
#ifndef PB_RUNNER_INTERNAL_H
#define PB_RUNNER_INTERNAL_H

#include <stdint.h>

#include "cage.h"
#include "cell_ratio.h"
#include "counters.h"
#include "gbshim.h"
#include "layouts.h"
#include "objects.h"
#include "runenv.h"
#include "runner.h"
#include "store.h"
#include "term.h"
#include "ticker.h"

/* samples of a run with a core-speed probe, and their probes' extremes: the fraction in the
 * fast core state, as pb_store_finalize_run classes them, for the noise warning */
typedef struct probes {
    long n;
    double min_probe;
    double *worst;
    size_t cap;
} probes;

/* one entry per (impl, layout): every layout is a copy of the code of its own, self-tested alone */
#define SELFTEST_CACHE 192
typedef struct selftest_cache {
    int n;
    const pb_suite *suite[SELFTEST_CACHE];
    char impl[SELFTEST_CACHE][PB_NAME_MAX];
    int ok[SELFTEST_CACHE];
    char why[SELFTEST_CACHE][PB_ERR_MAX];
} selftest_cache;

/* One pb_run's state, on pb_run's stack. Google Benchmark calls a benchmark back with the
 * argument it was registered with, not with a run: each slot points here instead. */
typedef struct run_ctx {
    const pb_runner_opts *o;
    int rounds;
    int passes;             /* each cell's rounds in this many passes over the grid (pb_runner_opts.passes) */
    long units_done;        /* cell-passes run so far: the progress line's ETA */
    double tprobe_min;      /* the fastest core-sharing probe so far (counters.h): the core alone */
    long makeup_rounds;     /* make-up rounds run (cell_makeup) */
    char cell_note[400];    /* the first cell_end's note (suite.h: 1 + e), for the run's noise */
    long cell_notes;        /* how many cells had one */
    int makeup_passes;      /* PB_MAKEUP_PASSES, or 0: --quick, one pass, one layout (runner.h) */
    int boundary_rounds;    /* the rounds a cell near a verdict's boundary gets (0: none; runner.h) */
    int boundary_base;      /* the first of them: after the make-up rounds' room, on a block's start */
    int *boundary_layout;   /* boundary round boundary_base + j's code layout: boundary_layout[j] */
    long boundary_cells;    /* cells that got them */
    double sample_s;
    pb_counters counters;
    int cyc, ins;           /* indices of cycles and instructions in counters; -1: not counted */
    pb_store st;
    int counters_open, store_open;  /* what close_run has to close */
    pb_pin pin;
    pb_waits_files wait_files;  /* the sampling thread's /proc files (pb_waits_read) */
    int64_t run;
    double la_start;        /* load average before the first sample */
    uint64_t t0;            /* when the first cell started: the progress line's elapsed time and ETA */
    probes probes;
    /* the rounds that waited (cell_waits): how many of how many, and the largest ratio move
     * without them (NaN: none estimated yet) */
    struct {
        long rounds, waited;
        double move, r_all, r_without;
        char where[200];
    } waits;
    pb_run_layouts lay;
    selftest_cache sc;
    int failed_cases;       /* cases of caged code that failed (stored unavailable, with why) */
    pb_objects objects;     /* the user's files the run times, identified before the first sample */
    /* live progress (progress.c, ticker.h): the plan as samples weighted by their cell's sample
     * length (a sample takes about that long, whatever its cell), and where the run is in it */
    struct {
        pb_ticker tick;
        double total, done;     /* the plan, and what of it is done */
        int pass, passes, cell, ncells;
        const char *what;       /* "measuring", "make-up rounds", "boundary rounds" */
        const char *more;       /* what may still extend the plan, or NULL */
        uint64_t since_ns;      /* the rate is taken from here on: the second pass's start, once */
        double since_done;      /* done at since_ns */
        double *round_s;        /* each cell's seconds per round in its latest pass (0: none yet) */
        uint64_t cell_ns;       /* when the current cell's pass started */
    } plan;
} run_ctx;

typedef struct raw_sample {
    double tsc, cycles, insns, pb, pa;
    double tb, ta;          /* the core-sharing probe before and after it (counters.h) */
    pb_waits w0, w1;        /* before and after it (runenv.h) */
    double seeded_ns;       /* > 0: the case's seeded source gave the time (tests) */
    int external;           /* the case's external_sample gave iterations, ns and cpu_ns */
    int caged;              /* the case's cage timed it: ns, cpu_ns, tsc, probes and errors are its child's */
    int64_t ext_iters;
    double ext_ns, ext_cpu_ns;
    int ext_split;          /* the case's suite gave the user and system parts of ext_cpu_ns */
    double ext_user_ns, ext_sys_ns;
    uint64_t errors;
    int have;
    pb_sample s;
} raw_sample;

typedef struct slot {
    run_ctx *rx;
    struct case_state *cs;
    int round, position;
    int layout;             /* the round's code layout */
    int li;                 /* which of cs's cases runs it: the layout's, or 0 for an impl with one */
    size_t stack_offset;
    int nraw, capraw;
    raw_sample *raw;
} slot;

typedef struct case_state {
    char impl[PB_NAME_MAX];
    pb_case c[PB_MAX_LAYOUTS]; /* one per code layout (layouts.h), or c[0] alone */
    int nl;
    int nl_set;             /* nl as the first pass set it up (free_impl zeroes nl): what is stored */
    void *heap_spacer[PB_MAX_LAYOUTS];  /* held while the case lives: its allocations start further on */
    int ready;              /* set up successfully */
    char unavailable[PB_ERR_MAX + 32]; /* reason, when set up said so (or the cage's code failed) */
    uint64_t iters;
    const pb_suite *suite[PB_MAX_LAYOUTS]; /* whose code each case is (the layout's suite) */
    pb_cage cage;           /* pid != 0: the cases live in this child (cage.h), c[] here is unused */
    char failed[PB_ERR_MAX];/* what the caged code did wrong: its cases are dropped from the cell */
    char where[200];        /* "xts 256 enc 4096 B", for the cage's messages */
    double target;          /* the cell's sample length, s: the cage's default limit */
} case_state;

/* One cell through the run's passes: what its impls' set-up found (unavailable, failed) and the
 * iterations of their samples, found in the first pass, and every round's slot, kept from its first
 * pass to its last, when the cell is stored whole. */
typedef struct cell_run {
    const pb_cell *cell;
    case_state *cs;
    int ncs;
    int cap_rounds;         /* the run's rounds and room for the extra rounds: slots[cap_rounds * ncs] */
    int nmakeup;            /* make-up rounds run so far: rounds rx->rounds .. rx->rounds + nmakeup - 1 */
    int *layout_of;         /* each round's code layout */
    slot *slots;
    double target;
} cell_run;

/* Iterations of a case with a seeded time source: the body does no timed work, so any count will do. */
#define SEEDED_ITERS 1000

/* runner.c: a run's life */
int run_interrupted(void);                      /* a signal asked the run to stop */
int suite_keeps_cells_whole(const pb_suite *s); /* no passes, no boundary rounds (runner.h) */

/* passes.c: the passes over the grid */
int run_grid(run_ctx *rx, const pb_grid *g, pb_err *e);
int cell_pass(run_ctx *rx, cell_run *cr, int first, const int *rr, int nrr, pb_err *e);
void pass_round_range(int rounds, int p, int passes, int *r0, int *r1);
int cell_ratio_so_far(const cell_run *cr, int rounds, int c, int b, const char *skip, int layouts,
                      pb_cell_ratio *out);

/* cases.c: a cell's cases */
int set_up_impl(run_ctx *rx, const pb_cell *cell, case_state *cs, pb_err *e);
int set_up_here(run_ctx *rx, const pb_cell *cell, case_state *cs, pb_err *e);
void free_impl(case_state *cs);
int case_body_is_timed(const case_state *cs);
uint64_t predict_iters(run_ctx *rx, case_state *cs, const pb_cell *cell, double target);
double run_body(run_ctx *rx, case_state *cs, int li, uint64_t k, int reps);

/* sample.c: one sample */
void take_sample(pb_gb_state *st, void *arg);
void keep_result(const pb_gb_result *r, void *user);

/* extra_rounds.c: make-up rounds and boundary rounds */
int should_run_makeup_passes(const run_ctx *rx);
int boundary_layouts(run_ctx *rx, pb_err *e);
int cell_round_room(const run_ctx *rx);
int makeup_passes(run_ctx *rx, cell_run *crs, int n, pb_err *e);
int boundary_passes(run_ctx *rx, cell_run *crs, int n, pb_err *e);

/* progress.c: the progress lines */
int should_report_progress(const run_ctx *rx);
int should_show_cell(const run_ctx *rx, int idx, int n);
void progress_pass_done(run_ctx *rx, int p, int r0, int r1);
void progress_line(run_ctx *rx, const cell_run *cr, int idx, int n);
void progress_plan(run_ctx *rx, const pb_grid *g);
void progress_where(run_ctx *rx, const char *what, int pass, int passes, int cell, int ncells);
void progress_extend(run_ctx *rx, const cell_run *cr, int rounds);
void progress_sample(run_ctx *rx, const case_state *cs);
void progress_cell_done(run_ctx *rx, int cell, int rounds);
void progress_clear(run_ctx *rx);
void progress_end(run_ctx *rx);

/* noise.c: the noise account */
void note_probe(probes *p, double pb, double pa);
void account_sample_noise(const slot *sl, const raw_sample *rs, pb_sample *s);
int on_shared_core(const run_ctx *rx, const pb_sample *s);
void cell_waits(run_ctx *rx, const cell_run *cr);
int record_noise(run_ctx *rx, const char *core, pb_err *e);

/* cage_client.c: the runner's side of the cage */
int should_cage_impl(const run_ctx *rx, const char *impl);
int set_up_caged(run_ctx *rx, const pb_cell *cell, case_state *cs, pb_err *e);
void cage_failed(case_state *cs, const char *why);
int cage_sample(slot *sl, uint64_t n, raw_sample *rs);
double cage_time(run_ctx *rx, case_state *cs, int li, uint64_t k, int reps);

#endif
