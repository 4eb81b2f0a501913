/* SPDX-License-Identifier: GPL-2.0-only */
/* loop.h — the gate's loop in one run (docs/gate.md): a session runs the grid of a wrapped pair
 * suite (pair_suite.h), looks at its cells, reruns with twice the rounds those it cannot decide yet
 * (and, with a budget, those short of power) while looks (--reruns) and time (--budget) last; a
 * regression then fails the gate only once a second run confirms it. The command gives the
 * settings (cli/cmd_gate.c), the gate's forms run sessions and store and show what they decide
 * (forms.h). As Google Benchmark's runner: the session's state in members, each decision a named
 * predicate (which cells a pass reruns, how long the next pass takes, whether it fits). */
#ifndef PB_GATE_LOOP_H
#define PB_GATE_LOOP_H

#include <stdint.h>
#include <stdio.h>

#include "gate.h"
#include "gate_doc.h"
#include "pair_suite.h"
#include "runner.h"

#define PB_GATE_MAX_RERUNS 6

/* The command's settings, the same for every session of a gate. */
typedef struct pb_gate_settings {
    const char *db, *command_line, *suite_opts_text, *sizes;
    const char *cpu;                          /* --cpu (runenv.h); NULL: the default */
    const char *user_revision, *user_label;   /* --revision, --label (runner.h) */
    int quick;
    int rounds;            /* the first pass's; 0: PB_DEFAULT_ROUNDS (quick: _QUICK) */
    int reruns;            /* looks after the first */
    int progress;
    int live;              /* the runs' live progress line even without progress (runner.h) */
    int width;             /* the runs' stderr lines cut or wrapped to this (term.h); 0: unbounded */
    int no_confirm;        /* a regression of the first run stands unconfirmed */
    double budget;         /* --budget SECONDS; 0: none */
    uint64_t layout_seed;
    pb_gate_params gp;     /* as given: alpha is the whole gate's family-wise error rate */
    pb_gate_params look;   /* what each look at the data is tested at (pb_gate_look_params) */
    const pb_cmp_cell *only0;   /* the first pass's cells (a confirmation's); NULL: the whole grid */
    size_t nonly0;
} pb_gate_settings;

/* Where a gate's comparisons go as they are decided. */
typedef struct pb_gate_sink {
    FILE *tables;          /* each comparison's table (--format text); NULL: none */
    FILE *human;           /* what the gate says as it runs: standard output, else stderr */
    pb_gate_doc *doc;      /* every comparison, for the document's formats; NULL: none */
} pb_gate_sink;

/* A gate: its settings, where it stores, reads its thresholds and shows what it decides. */
typedef struct pb_gate_job {
    pb_gate_settings set;
    pb_store *st;
    const pb_thresholds *th;
    const char *metric;
    pb_gate_sink out;
} pb_gate_job;

/* The code layouts a session samples: the command opens them (cli/gate_layouts.h), the loop only
 * asks for them by layout seed (a confirmation takes the next seed), for the session's wrap (home:
 * each layout's wrap pairs as it does), and sets every layout's wrap to a pass's cells. open returns
 * NULL with e->msg empty when there is one layout (why says so), NULL with e->msg set on an error. */
typedef struct gate_layouts gate_layouts;
typedef struct pb_gate_layout_src {
    gate_layouts *(*open)(const void *ctx, const gate_wrap *home, uint64_t seed, char *why, size_t cap, pb_err *e);
    void (*only)(gate_layouts *G, const pb_cmp_cell *only, size_t nonly);
    const pb_layout_set *(*set)(const gate_layouts *G);
    void (*close)(gate_layouts *G);
    const void *ctx;
} pb_gate_layout_src;

/* What one session gates. */
typedef struct pb_gate_target {
    gate_wrap *W;                 /* the pairs; the loop sets W->only for each pass */
    pb_gate_layout_src layouts;
    const char *kind;             /* "claim", "aa" or "commit": what runs.options says */
    const char *extra;            /* more of runs.options, or NULL */
    double threshold;
    int builds;                   /* two builds' modules: a cell shows its candidate impl's
                                   * calibration (X), else its baseline impl's (the claim gate's) */
} pb_gate_target;

/* One gate in one run, or in a few with the reruns. */
typedef struct pb_gate_session {
    /* what it found: first = the first pass, final = after the reruns (and the confirmation) */
    pb_cmp_cell *first, *final;
    size_t nfirst, nfinal;
    int64_t runs[PB_GATE_MAX_RERUNS + 2];   /* the passes, then the confirmation's run */
    size_t nruns;
    int last_rounds;
    double spent_s;               /* --budget: the time spent and why it stopped */
    const char *stop;
    int narrowed;                 /* passes that reran the inconclusive cells alone (the budget) */
    int64_t confirm_run;          /* the confirmation's run, at runs[nruns]; 0: none */
    char confirm_note[300];
    char why[300];                /* its layouts: why one, or fewer than asked */
    /* the loop while it runs */
    pb_suite wrapped;
    char options[700];            /* runs.options */
    int pass, rounds;
    pb_cmp_cell *next;            /* the cells the next pass reruns */
    size_t nnext;
    size_t nran;                  /* the cells the last pass ran */
    pb_cmp_cell *kept;            /* the last pass's cells: what a cell left out of a rerun keeps */
    size_t nkept;
    pb_iters_memo memo;           /* a rerun's cases keep their first pass's iterations */
    pb_gate_data data;
    pb_run_meta meta;
    uint64_t t0;
    double pass_start, grid_s;
} pb_gate_session;

/* The rounds of a gate's first pass. */
int pb_gate_first_rounds(const pb_gate_settings *s);
/* --budget: a cell still worth more rounds (its MDC is not yet under half its threshold). */
int pb_gate_cell_needs_power(const pb_cmp_cell *c);

/* Run the session: its layouts opened at the settings' layout seed, passes until it stops. 0, or
 * -1 + e (the session then holds nothing). */
int pb_gate_session_run(const pb_gate_job *j, const pb_gate_target *t, pb_gate_session *s, pb_err *e);
/* The regressions of a session run again in a second run; those it does not find again become
 * inconclusive (pb_gate_confirm). Nothing without regressions or with no_confirm. 0 or -1 + e. */
int pb_gate_session_confirm(const pb_gate_job *j, const pb_gate_target *t, pb_gate_session *s, pb_err *e);
void pb_gate_session_free(pb_gate_session *s);
/* the runs a comparison stores: the passes and the confirmation's */
size_t pb_gate_session_nruns(const pb_gate_session *s);

/* "threshold ...; alpha ... over up to N looks; R rounds +2R ..." and the budget's and the
 * confirmation's account, into buf. */
void pb_gate_rounds_note(char *buf, size_t cap, const pb_gate_settings *set, const pb_gate_session *s, double t,
                         int line, const pb_thresholds *th);
/* "; MDC reached: median, largest; K of N cells not under half their threshold" appended to note
 * (ci/perf-gate --budget reads the count). */
void pb_gate_note_mdc_reached(char *note, size_t cap, const pb_cmp_cell *c, size_t n);

/* A comparison decided: its table now (out->tables), and into the document. 0 or -1 + e. */
int pb_gate_emit(const pb_gate_sink *out, pb_store *st, const pb_cmp_header *h, const pb_cmp_cell *cells, size_t n,
                 pb_err *e);

#endif
