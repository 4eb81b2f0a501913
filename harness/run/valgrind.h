/* SPDX-License-Identifier: GPL-2.0-only */
/* valgrind.h — `--measure valgrind`: instruction, cache and branch counts per op under callgrind.
 *
 * Why: on a shared VM without a PMU, wall time moves by several percent from run to run, so a
 * wall-time gate cannot see a 1-2 % regression; callgrind's simulated counts of the same binary
 * are the same in every run (CodSpeed and iai-callgrind gate on them for this reason).
 *
 * How: bench re-executes itself (posix_spawnp of an argv vector, no shell) as
 *   valgrind --tool=callgrind --instr-atstart=no --cache-sim=yes --branch-sim=yes
 *            --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 --callgrind-out-file=DIR/cg.out
 *            BENCH run --suite S --vg-child DIR --vg-reps N [--impl ..] [--sizes ..] [suite options]
 * The child (pb_vg_child) plans the same grid, sets every case up, then per case and
 * repetition: one warm-up op, CALLGRIND_ZERO_STATS, PB_VG_ITERS ops, CALLGRIND_DUMP_STATS_AT with
 * the case's name. So set-up, self-test and warm-up are never counted, and one Valgrind start
 * serves the whole grid. The cache geometry is fixed (not the host's, which callgrind would
 * otherwise copy) so that miss counts do not depend on the machine. The parent parses every dump
 * (callgrind_parse.h) and matches it to its case by the trigger name.
 *
 * Per op: insns_per_op (Ir), insns_per_byte, l1_miss_per_op (I1mr+D1mr+D1mw), ll_miss_per_op
 * (ILmr+DLmr+DLmw), branch_miss_per_op (Bcm+Bim) and model_cycles_per_op, a MODEL, not a
 * measurement (pb_vg_model_cycles). Source of every one: "valgrind".
 *
 * Under Valgrind, CPUID reports what Valgrind emulates (no AVX-512, no VAES/VPCLMULQDQ, no SHA):
 * code that dispatches at run time (OpenSSL, libgcrypt) may take another path than it does
 * natively. The child records what it saw (pb_vg_result.codepath) beside the native view. */
#ifndef PB_VALGRIND_H
#define PB_VALGRIND_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "callgrind_fn.h"
#include "callgrind_parse.h"
#include "fn_diff.h"
#include "pb.h"
#include "runner.h"
#include "store.h"
#include "suite.h"

/* Ops counted per case and repetition: counts are deterministic, so few suffice; 50 so that a
 * test switch adding one op in 50 (the xts suite's PB_XTS_TEST_SLOWDOWN) is exactly +2 %. */
#define PB_VG_ITERS 50

/* Repetitions of a case whose Ir differ by more than this are flagged "repetitions differ": the
 * op's path depends on its data (sigpool's segments: up to 0.1 %). A gate then judges the range
 * the repetitions span, not one value (gate_det.h). xts, drbg and synthetic repeat exactly. */
#define PB_VG_TOLERANCE 1e-4

typedef struct pb_vg_counts {
    uint64_t ir, dr, dw, i1mr, d1mr, d1mw, ilmr, dlmr, dlmw, bc, bcm, bi, bim;
} pb_vg_counts;

typedef struct pb_vg_case {
    char impl[PB_NAME_MAX], variant[PB_NAME_MAX], op[PB_NAME_MAX];
    uint64_t size, iters;
    int ok;                      /* 0: unavailable (reason) */
    char reason[200];
    int reps;
    pb_vg_counts rep[4];         /* one per repetition */
    pb_fn_row *fn;               /* repetition 0's top functions per op and the rest (vg_funcs.c) */
    size_t nfn;
} pb_vg_case;

/* Per-op figures of a case (from repetition r). */
typedef struct pb_vg_metrics {
    double insns_per_op, insns_per_byte, l1_miss_per_op, ll_miss_per_op, branch_miss_per_op, model_cycles_per_op;
} pb_vg_metrics;

typedef struct pb_vg_result {
    pb_vg_case *c;
    size_t n;
    char codepath[1024];         /* CPU features the child saw under Valgrind, and the libraries */
    char native[768];            /* the same, seen natively by this process */
    char not_comparable[768];    /* what differs, and so which rows differ from wall-time rows */
    char settings[512];          /* valgrind version and options, ops per case */
    char suite_settings[512];    /* the suite's start-up settings in the child (runs.suite_settings) */
    /* the impls the ratios are against and about where the options name them (exec --cmd: the
     * first and the second command, pb_suite_roles); "": the suite's baseline and candidate */
    char baseline[PB_NAME_MAX], candidate[PB_NAME_MAX];
} pb_vg_result;

/* The suite options given on the command line, in order (pb_cli's suite_given_name/_value; value
 * NULL for a boolean): the child gets each as one word, "--name=value", so that a value with a
 * space in it (exec's commands, a plug-in's path) reaches it whole. */
#define PB_VG_MAX_SUITE_ARGS 32   /* as many as the CLI takes (PB_CLI_MAX_SUITE_GIVEN) */
typedef struct pb_vg_suite_args {
    int n;
    const char *const *name, *const *value;
} pb_vg_suite_args;

typedef struct pb_vg_opts {
    const pb_suite *suite;
    const char *impls, *sizes;   /* as --impl / --sizes; NULL = all */
    int quick, reps, progress;
    const char *suite_opts;      /* "--name=value ..." as given, for the run's stored options */
    pb_vg_suite_args args;       /* the same, word by word, for the child's command line */
} pb_vg_opts;

/* The model: cycles ~= L1 hits + 5 x LL hits + 35 x LL misses (RAM) + 15 x branch mispredictions,
 * where L1 hits = Ir + Dr + Dw - L1 misses and LL hits = L1 misses - LL misses. The first three terms are iai-callgrind's "estimated cycles"
 * (after Itamar Turner-Trauring's model); the misprediction term (15, a typical penalty of a
 * modern x86 core) is ours, because callgrind's branch simulator counts them and a template
 * change can move them. Not a measurement: it ignores ILP, SIMD width and latency chains. */
double pb_vg_model_cycles(const pb_vg_counts *k);
void pb_vg_metrics_of(const pb_vg_case *c, int rep, pb_vg_metrics *m);
/* Largest relative difference of Ir between the repetitions of a case (0 with one). */
double pb_vg_spread(const pb_vg_case *c);
/* Smallest, median and largest value of a metric over the repetitions of a case. */
void pb_vg_range(const pb_vg_case *c, const char *metric, double *lo, double *med, double *hi);

/* Where a case's instructions went: the first PB_FN_KEEP functions of f (by Ir) per op, divided
 * as the case's totals are (c->iters), and the rest as one row, into c->fn (vg_funcs.c). 0, or -1 + e. */
int pb_vg_case_funcs(pb_vg_case *c, const pb_cg_fns *f, pb_err *e);
/* c's per-function rows into table func_counts under case_id. 0, or -1 + e. */
int pb_vg_store_funcs(pb_store *st, int64_t case_id, const pb_vg_case *c, pb_err *e);

/* Run the child under Valgrind and collect every case. -1 + e (valgrind missing, child failed,
 * a dump that does not parse or does not match its case). A suite whose cases are other programs
 * (pb_suite.count_sample: gbench, exec) is counted by pb_vg_measure_external instead, and -2 + e
 * is a refusal (bench exits 2: valgrind missing, a program it cannot run or count). */
int pb_vg_measure(const pb_vg_opts *o, pb_vg_result *r, pb_err *e);

/* valgrind_ext.c: each case's program run by its suite under callgrind (count_sample), in this
 * process, with the suite's options rebuilt from o->args; reps runs of each. Its code path is
 * valgrind's CPUID against this process's (bench run --vg-cpuid under valgrind --tool=none).
 * 0, -1 + e (a failure), or -2 + e (a refusal, above). */
int pb_vg_measure_external(const pb_vg_opts *o, pb_vg_result *r, pb_err *e);

/* The 13 events of a parsed dump (path names it in errors): 0, or -1 + e when one is missing. */
int pb_vg_counts_of(const pb_cg_counts *k, const char *path, pb_vg_counts *out, pb_err *e);
/* r->not_comparable from the two views (r->native, r->codepath): which features Valgrind hides,
 * what the code path then is; external: worded for another program (its run-time dispatch). */
void pb_vg_describe_hidden(pb_vg_result *r, int external);
/* "valgrind-X.Y.Z" (valgrind --version), or -1 + e; not found: -2 + e (a refusal) */
int pb_vg_version(const char *valgrind, char *buf, size_t cap, pb_err *e);
/* dir and the files in it removed (the dumps' folder) */
void pb_vg_remove_dir(const char *dir);
/* The fixed cache geometry and the options every callgrind run of bench has, NULL-terminated. */
extern const char *const pb_vg_tool_options[];
void pb_vg_result_free(pb_vg_result *r);

/* Store the result as a complete run (target "valgrind", stats rows with source "valgrind",
 * ratios of each impl against the suite's baseline in insns_per_op, method "count ratio").
 * Returns the run id, or -1 + e. */
int64_t pb_vg_store(pb_store *st, const pb_vg_opts *o, const pb_vg_result *r, const char *command_line, pb_err *e);

/* Can callgrind count the cases of grid g (suite s, options opts)? A suite with count_sample
 * (gbench, exec) can where valgrind is on PATH. Else: it counts the instructions bench
 * runs in its own process (pb_case.body); a suite whose cases run another program and time it from
 * outside (pb_case.external_sample) without count_sample has nothing there to count. The first case of the
 * lab's own code that sets up decides (a suite's cases are all of one kind); one that does not set
 * up is left to the run to report. 0, or -1 + e naming the suite and why (bench run exits 2). */
int pb_vg_check_countable(const pb_suite *s, void *opts, const pb_grid *g, pb_err *e);

/* The child's side (bench run --vg-child DIR --vg-reps N): measure the grid as described above,
 * writing DIR/cases.tsv (one line per dump, in dump order) and DIR/codepath.txt. */
int pb_vg_child(const pb_runner_opts *o, const char *dir, int reps, pb_err *e);

/* What this process's CPUID says, as "aes pclmul avx avx2 ..." (the features dispatch keys on). */
void pb_vg_cpu_features(char *buf, size_t cap);

/* The measured cells as a table, with the settings, the code path and what is not comparable. */
void pb_vg_print(FILE *f, const pb_suite *s, const pb_vg_result *r);

/* Is the per-op metric one of the above? (for --metric) */
int pb_vg_metric_known(const char *metric);
double pb_vg_metric_value(const pb_vg_metrics *m, const char *metric);

#endif
