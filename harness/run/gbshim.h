/* SPDX-License-Identifier: GPL-2.0-only */
/* gbshim.h — Google Benchmark (libbenchmark 1.7) behind a C API.
 *
 * Google Benchmark is C++; the suites and the harness are C. This shim is
 * the only C++ in the project. It lets C code:
 *   - pass Google Benchmark's own flags through (--benchmark_repetitions=...,
 *     --benchmark_min_warmup_time is not in 1.7, etc.),
 *   - register a benchmark as (name, C function, argument, fixed iteration count),
 *   - run everything registered, in registration order, and get every result
 *     back through a C callback: each repetition and each aggregate
 *     (mean/median/stddev/cv when repetitions > 1), with its user counters,
 *   - clear the registrations (the runner registers one cell at a time).
 *
 * Inside the C function, the timed region is what runs between the first
 * pb_gb_keep_running_batch() call and the one that returns 0, exactly as
 * Google Benchmark's `while (state.KeepRunningBatch(n))`. */
#ifndef PB_GBSHIM_H
#define PB_GBSHIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pb_gb_state pb_gb_state;          /* wraps benchmark::State */
typedef void (*pb_gb_fn)(pb_gb_state *st, void *arg);

#define PB_GB_MAX_COUNTERS 16

typedef struct pb_gb_result {
    const char *name;            /* as registered */
    void *arg;                   /* as registered */
    int is_aggregate;            /* 0: one repetition; 1: an aggregate over repetitions */
    const char *aggregate_name;  /* "" for a repetition; "mean", "median", "stddev", "cv" */
    int64_t repetition_index;    /* 0-based; -1 for aggregates */
    int64_t repetitions;
    int64_t iterations;
    double real_seconds;         /* wall time over all iterations (aggregates: per GB) */
    double cpu_seconds;          /* thread CPU time over all iterations */
    int error;                   /* the function called pb_gb_skip_with_error() */
    const char *error_message;
    int ncounters;
    const char *counter_name[PB_GB_MAX_COUNTERS];
    double counter_value[PB_GB_MAX_COUNTERS];
} pb_gb_result;

typedef struct pb_gb_context {
    int num_cpus;
    double mhz_per_cpu;          /* what Google Benchmark read (cpuinfo) */
    int cpu_scaling_enabled;
    const char *build_type;      /* "release"/"debug" of libbenchmark itself */
} pb_gb_context;

typedef void (*pb_gb_result_cb)(const pb_gb_result *r, void *user);
typedef void (*pb_gb_context_cb)(const pb_gb_context *c, void *user);

/* Take Google Benchmark's own flags (--benchmark_*) out of argv and hand them
 * to it; other arguments stay in argv, in order. Returns -1 (and prints GB's
 * message) for a malformed --benchmark_ flag, or a --benchmark_repetitions
 * that is not a whole number from 1 to 100000. Call before registering. */
int pb_gb_init(int *argc, char **argv);
/* pb_gb_init, except that the --benchmark_NAME flags (=VALUE or not) whose NAME keep lists
 * (NULL-terminated; NULL: none) stay in argv, in order, for the caller: a suite's own options
 * (the gbench suite hands them to the binary it measures). */
int pb_gb_init_keeping(int *argc, char **argv, const char *const *keep);

/* Register one benchmark. iterations > 0 fixes the iteration count (no GB
 * auto-sizing); 0 lets GB size it with its --benchmark_min_time. */
int pb_gb_register(const char *name, pb_gb_fn fn, void *arg, uint64_t iterations);

/* Run everything registered (in registration order unless GB's own
 * --benchmark_enable_random_interleaving is given); results go to cb.
 * Returns the number of results delivered, or -1 if Google Benchmark threw
 * (the shim catches every C++ exception; none reaches C). */
int pb_gb_run(pb_gb_result_cb cb, pb_gb_context_cb ctx_cb, void *user);

void pb_gb_clear(void);
/* Run everything registered as a stock Google Benchmark main() would: GB's own console/JSON
 * reporters, --benchmark_list_tests, --benchmark_filter, --benchmark_format all as GB has them.
 * For programs that are Google Benchmark binaries (tests/gbench). 0, or -1 if GB threw. */
int pb_gb_run_console(void);

/* --- inside a benchmark function --- */
int pb_gb_keep_running_batch(pb_gb_state *st, uint64_t n);
uint64_t pb_gb_max_iterations(const pb_gb_state *st);
void pb_gb_set_counter(pb_gb_state *st, const char *name, double value);
void pb_gb_skip_with_error(pb_gb_state *st, const char *msg);

#ifdef __cplusplus
}
#endif
#endif
