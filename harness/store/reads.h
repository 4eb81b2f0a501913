/* SPDX-License-Identifier: GPL-2.0-only */
/* reads.h — named reads and writes of runs, cases, samples, statistics and ratios for the floors
 * above (run, cli, and what report/ and gate/ read that is nobody's own: a run's columns, the cells
 * two runs share, a case's times). Each returns C data or hands rows to a function; the SQL stays
 * in store/ (reads.c). The report's own reads are report/report_data.c's, the gate's
 * gate/gate_store.c's. */
#ifndef PB_READS_H
#define PB_READS_H

#include <stddef.h>
#include <stdint.h>

#include "fn_diff.h"
#include "store.h"
#include "suite.h"

/* ---- runs ---- */

/* A run as `bench list --runs` shows it: text as stored (NULL where the store has none), valid
 * until each returns. */
typedef struct pb_run_listing {
    int64_t id;
    const char *suite, *status, *target, *started_at;
    const char *note;        /* status_reason, "" for none */
    const char *git;         /* git_sha's first 12 characters */
    int cases;
} pb_run_listing;
/* Every run, newest first, to each: 0; -1 + e ("PATH: the database's words") where the runs cannot
 * be read at all; 1 + e ("PATH: reading runs: ...") where reading failed after the rows handed on
 * (a corrupt page). */
int pb_store_each_run(pb_store *s, void (*each)(void *ctx, const pb_run_listing *r), void *ctx, pb_err *e);

/* The columns of a run that commands check and name it by; "" where NULL, layouts "1" where NULL
 * (a run of one code layout). */
typedef struct pb_run_row {
    int64_t id;
    char suite[64], status[32], target[32];
    char baseline[PB_NAME_MAX], candidate[PB_NAME_MAX], primary_metric[PB_NAME_MAX];
    char machine_id[64], job_id[128], git_sha[64], hostname[128], cpu_model[128];
    char options[4096], layouts[64];
} pb_run_row;
/* Run `run` into *r: 1; 0 where there is no such run; -1 + e ("PATH: read run: ..."). */
int pb_store_run_row(pb_store *s, int64_t run, pb_run_row *r, pb_err *e);

/* The newest complete run of suite other than run `but`; 0 for none. */
int64_t pb_store_newest_run_but(pb_store *s, const char *suite, int64_t but);

/* One column of a row as stored: type PB_DB_INTEGER (i), PB_DB_FLOAT (d), PB_DB_TEXT (text) or
 * PB_DB_NULL; valid until each returns. */
typedef struct pb_column {
    const char *name;
    int type;
    int64_t i;
    double d;
    const char *text;
} pb_column;
/* Every column of run id in the table's order to each; nothing where there is no such run or the
 * run cannot be read. */
void pb_store_run_columns(pb_store *s, int64_t id, void (*each)(void *ctx, const pb_column *c), void *ctx);

/* ---- cases and samples ---- */

/* A case's key: valid until each returns. */
typedef struct pb_case_key {
    const char *impl, *variant, *op;
    int64_t size;
} pb_case_key;
/* Every case of run that ran (status ok), in the order stored, to each. 0, or -1 where the cases
 * cannot be read. */
int pb_store_each_ok_case(pb_store *s, int64_t run, void (*each)(void *ctx, const pb_case_key *k), void *ctx);
/* Every cell and impl that ran (status ok) in both run a and run b (of impl only, where not NULL),
 * in the order variant, op, size, impl, to each until it returns non-zero. 0, each's value, or -1
 * + e ("PATH: the database's words") where they cannot be read. */
int pb_store_each_common_case(pb_store *s, int64_t a, int64_t b, const char *impl,
                              int (*each)(void *ctx, const pb_case_key *k), void *ctx, pb_err *e);
/* The time per operation of every sample of case k of run that took time (ns and iterations over
 * 0), into *v (malloc'd, *n of them; free it). 0, -1 where they cannot be read, -2 without memory. */
int pb_store_case_times(pb_store *s, int64_t run, const pb_case_key *k, double **v, size_t *n);

/* The spread of one case's wall time per operation over all of its stored samples, hyperfine's
 * figures: mean and standard deviation (n - 1), min and max, and the mean user and system CPU time
 * per operation where every sample has them (has_split; exec). ns throughout. */
typedef struct pb_time_spread {
    int64_t n;
    double mean, stddev, min, max;
    int has_split;
    double user, sys;
    int has_cpu;               /* every sample has its CPU time (cpu_ns: user + system) */
    double cpu;                /* its mean per operation (gbench's CPU time; exec's user + sys) */
} pb_time_spread;
/* That of case k of run (status ok): 1, 0 when it has no sample, -1 on a failed read. */
int pb_store_time_spread(pb_store *s, int64_t run, const pb_case_key *k, pb_time_spread *out);

/* ---- statistics and ratios ---- */

/* The stored paired ratio cand/base of cell (variant, op, size) of run in metric, with its CI:
 * r[0] estimate, r[1] ci_lo, r[2] ci_hi. 1, or 0 where there is none. */
int pb_store_ratio(pb_store *s, int64_t run, const char *metric, const char *base, const char *cand,
                   const char *variant, const char *op, int64_t size, double r[3]);

/* A case's statistic in one metric (counts: one per repetition summarised). */
typedef struct pb_case_stat {
    char impl[PB_NAME_MAX], variant[PB_NAME_MAX], op[PB_NAME_MAX];
    uint64_t size;
    double v[3];   /* smallest, median, largest */
    int n;
} pb_case_stat;
/* The statistics of run's cases in metric from source ('valgrind': counts), in case order, into
 * *out (malloc'd, *n; free it). 0, or -1 + e. */
int pb_store_case_stats(pb_store *s, int64_t run, const char *metric, const char *source, pb_case_stat **out,
                        size_t *n, pb_err *e);
/* A count's statistic of case_id (source 'valgrind', n repetitions; p10/min lo, p90/max hi). 0, or -1 + e. */
int pb_store_add_count_stat(pb_store *s, int64_t case_id, const char *metric, const char *unit, int n, double lo,
                            double median, double hi, pb_err *e);
/* A count ratio cand/base in insns_per_op of a cell of run (deterministic: one pair, no CI). 0, or -1 + e. */
int pb_store_add_count_ratio(pb_store *s, int64_t run, const char *suite, const char *variant, const char *op,
                             int64_t size, const char *base, const char *cand, double ratio, pb_err *e);

/* ---- per-function counts (table func_counts, docs/counts.md) ---- */

/* One row of a count case: rank 1.. the functions, 0 the rest. 0, or -1 + e. */
int pb_store_add_func_count(pb_store *s, int64_t case_id, const pb_fn_row *r, pb_err *e);
/* Every per-function row of run (impl NULL: every impl), case by case (fn_diff.h's pb_fn_rows_of
 * finds one case's), each case's functions by rank and its rest last, into *out (malloc'd, *n;
 * free it). None (a run before version 11, a wall-time run): *n 0. 0, or -1 + e. */
int pb_store_func_counts(pb_store *s, int64_t run, const char *impl, pb_fn_row **out, size_t *n, pb_err *e);

#endif
