/* SPDX-License-Identifier: GPL-2.0-only */
/* decompose.h — why a time ratio is what it is, per cell: time ratio = instruction ratio x
 * time-per-instruction ratio, where a wall-time run and a count run (`--measure valgrind`) of the
 * same build are both in the store (docs/why.md).
 *
 * Why: a verdict says whether new is faster here; it does not say whether new does less work or
 * does the same work faster (or, as xts's 4 KiB cells on a Zen 5 core, less work at a higher cost
 * per instruction). Counts are exact (the same binary gives the same Ir in every run), so the time
 * ratio's layout-inclusive CI carries over to the time-per-instruction ratio divided by the exact
 * instruction ratio, and a plain sentence says which factor moved beyond that CI.
 *
 * The arithmetic and the sentence are pure functions (pb_decomp_of, pb_decomp_sentence: the unit
 * test's fixed numbers); the rest reads the two runs' stored ratios (pb_decomp_load) and writes the
 * section of the Markdown page, the HTML page, `bench report`'s lines and the JSON export. */
#ifndef PB_DECOMPOSE_H
#define PB_DECOMPOSE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pb.h"
#include "store.h"
#include "suite.h"

/* An instruction ratio within this of 1 reads "as many instructions": counts are exact, but a
 * difference of a few instructions in thousands is no difference in work a reader acts on. */
#define PB_DECOMP_SAME_WORK 0.005

/* Which way each factor moved. Work: the instruction ratio against 1 (PB_DECOMP_SAME_WORK). Cost:
 * the time-per-instruction ratio's CI against 1, strictly (a CI that touches 1 has not moved);
 * unknown where the time ratio has no usable CI (NaN, inverted, not positive). */
typedef enum pb_decomp_dir { PB_DECOMP_LESS = -1, PB_DECOMP_SAME = 0, PB_DECOMP_MORE = 1, PB_DECOMP_UNKNOWN = 2 } pb_decomp_dir;

typedef struct pb_decomp {
    double time, time_lo, time_hi;              /* cand/base time ratio and its 95 % CI */
    double insns;                               /* cand/base instructions per op: exact */
    double per_insn, per_insn_lo, per_insn_hi;  /* time / insns and the CI / insns (NaN where the CI is not usable) */
    pb_decomp_dir work, cost;
    /* the cost has not moved beyond the CI, but the CI allows a change per instruction as large as
     * the work's (a quick run on a busy host): the work may explain the time, or may not */
    int wide;
} pb_decomp;

/* time = insns x per_insn into *d: 0, or -1 (nothing to decompose) where time or insns is not a
 * positive finite number. A CI that is NaN, inverted or not positive leaves per_insn_lo/hi NaN
 * and the cost PB_DECOMP_UNKNOWN: the point estimates still stand. */
int pb_decomp_of(double time, double time_lo, double time_hi, double insns, pb_decomp *d);

/* The plain sentence of d for candidate cand, into buf ("new executes 23 % fewer instructions but
 * each costs 33 % more: memory, layout or micro-architecture, not work"). Returns buf. */
const char *pb_decomp_sentence(const pb_decomp *d, const char *cand, char *buf, size_t cap);

/* What explains the time ratio in one word for machines (the JSON export): "work" (the cost per
 * instruction did not move beyond the CI), "per instruction" (the work did not move, or moved the
 * other way), "work and per instruction" (both, the same way), "undecided" (the CI is too wide:
 * pb_decomp.wide) or "unknown" (no usable CI). */
const char *pb_decomp_explained_by(const pb_decomp *d);

/* A percentage as the sentence writes it: whole above 10, one decimal above 1, two below
 * ("33", "2.1", "0.35"). Returns buf. */
const char *pb_decomp_pct(double pct, char *buf, size_t cap);

/* ---- the two runs' cells (decompose_data.c) ---- */

typedef struct pb_decomp_cell {
    char variant[PB_NAME_MAX], op[PB_NAME_MAX], base[2 * PB_NAME_MAX], cand[2 * PB_NAME_MAX];
    int64_t size;
    pb_decomp d;
} pb_decomp_cell;

/* room for the count run's words kept with a set (runs.options' note, runs.suite_settings) */
#define PB_DECOMP_TEXT 768

typedef struct pb_decomp_set {
    int64_t time_run, count_run;   /* count_run 0: no count run of the same build: nothing is shown */
    pb_decomp_cell *v;             /* every (pair, cell) with a time ratio in time_run and a count ratio in count_run */
    size_t n;
    char caveat[PB_DECOMP_TEXT];              /* the count run's words where Valgrind hid CPU features dispatch keys on; "" none */
    char settings[PB_DECOMP_TEXT];            /* the count run's suite settings where the time run's differ (xts's modelled
                                      child-call cost is off under valgrind); "" where alike */
} pb_decomp_set;

/* The decomposition of time_run (a complete userspace run) against the count run of the same build
 * (pb_store_count_run_of): every cell and pair both runs have a ratio of, in the time run's order.
 * 0 (set->count_run 0 and no cells where there is none), or -1 + e. */
int pb_decomp_load(pb_store *st, int64_t time_run, pb_decomp_set *set, pb_err *e);
void pb_decomp_free(pb_decomp_set *set);

/* ---- its outputs (decompose_out.c): nothing at all where set has no count run ---- */

/* The Markdown section: a heading, what the two runs are, one table row per cell and pair. */
void pb_decomp_md(FILE *f, const pb_decomp_set *set);
/* The same as a section of the HTML page. */
void pb_decomp_html(FILE *f, const pb_decomp_set *set);
/* `bench report`'s lines for suite's pair cand/base: a heading line, then per cell its numbers (cut
 * to width) and its sentence (wrapped to width); width 0: unbounded. */
void pb_decomp_print(FILE *f, const pb_decomp_set *set, const char *suite, const char *base, const char *cand,
                     int width);
/* `bench export --format json`'s "decomposition": per cell and pair of each userspace run of
 * ids[0..n) that has a count run of the same build, the three ratios (time and time per instruction
 * with their CIs, instructions exact), what explains the time (pb_decomp_explained_by) and the
 * sentence. A run whose ratios cannot be read ends the list, as the export's ratios do. */
struct json_t *pb_decomp_json(pb_store *st, const int64_t *ids, int n);

#endif
