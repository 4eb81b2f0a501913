/* SPDX-License-Identifier: GPL-2.0-only */
/* metrics.h — the one table of metrics: name, unit, direction, words for humans. Every layer
 * (runner, store, stats, report, gate, compare, import) asks it; there is no other list. */
#ifndef PB_METRICS_H
#define PB_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "suite.h"

/* The metric of a suite that names none, and of rows stored without one. */
#define PB_DEFAULT_METRIC "ns_per_op"

/* One stored sample as a metric's formula reads it (the samples table's columns). */
typedef struct pb_metric_sample {
    double iters, ns, tsc, cycles, insns;
    double cpu;                        /* samples.cpu_ns: CPU time over the iterations */
    double probe_before, probe_after;  /* core-speed probe ticks, 0 when not taken */
    int has_tsc, has_cycles, has_insns, has_cpu;
} pb_metric_sample;

/* Where a metric's values come from, besides its fixed words (pb_metric_source). */
typedef enum pb_metric_from {
    PB_FROM_FIXED,             /* source (guest_source in a kernel-module run) */
    PB_FROM_TICKS,             /* userspace: the run's tick source; guest: guest_source */
    PB_FROM_COUNTERS,          /* the run's counter description, whatever the target */
} pb_metric_from;

typedef struct pb_metric {
    unsigned bit;              /* PB_M_* (suite.h) */
    const char *name;          /* as stored: "ns_per_op" */
    const char *unit;          /* "ns" */
    int higher_is_better;      /* 1: a throughput (a cost is its inverse) */
    const char *words;         /* for a plot's axis: "ns per operation (median, p10-p90)" */
    int valgrind;              /* 1: a count `--measure valgrind` stores (source "valgrind"); bit 0
                                * when only that mode gives it (no suite asks for it by PB_M_*) */
    /* the value of one sample of a case of size bytes; NAN when the sample cannot give it. NULL:
     * not derived from samples (the valgrind counts are stored as they are) */
    double (*value)(const pb_metric_sample *s, double size);
    pb_metric_from from;
    const char *source, *guest_source;   /* the stats table's `source` words */
    /* A per-item figure (suite.h item_unit): its value from one op's ns and the cell's items per op.
     * Never stored: a cell's items are its size over the suite's item_bytes, so the stored time per
     * op holds it, and the progress, reports and exports derive it where they show it. NULL: a
     * stored metric. */
    double (*per_item)(double ns_per_op, double items);
} pb_metric;

extern const pb_metric pb_metrics[];
extern const size_t pb_nmetrics;

/* The entry called name, or NULL. */
const pb_metric *pb_metric_find(const char *name);
/* Is name a metric a run stores (the gates', compare's and history's --metric)? Not a per-item one. */
int pb_metric_known(const char *name);
/* "unknown metric 'NAME' (did you mean X?; metrics: a, b, ...MORE)" into buf, the metrics those
 * pb_metric_known takes (MORE: what the caller also takes, "" or ", or *"); returns buf. */
const char *pb_metric_unknown(char *buf, size_t cap, const char *name, const char *more);
/* Is name a count that `--measure valgrind` stores (insns_per_op, ..., model_cycles_per_op)? */
int pb_metric_valgrind(const char *name);
/* 0 for an unknown name */
int pb_metric_higher_is_better(const char *name);
/* words for humans; the name itself for an unknown one */
const char *pb_metric_words(const char *name);
/* The stats table's `source` of metric m in a run of target (NULL or "userspace": this process)
 * whose tick source and counter description are the ones given. */
const char *pb_metric_source(const pb_metric *m, const char *target, const char *tick_source,
                             const char *counter_source);
/* The suite's primary metric, PB_DEFAULT_METRIC when it names none. */
const char *pb_suite_primary_metric(const pb_suite *s);

/* ---- sizes in items (suite.h item_unit, item_bytes; docs/adding-a-suite.md "Sizes in items") ---- */

/* Does s count its cells' sizes in items of its own? */
int pb_suite_has_items(const pb_suite *s);
/* The items one op of a cell of stored size `size` handles: size / item_bytes, or size itself where
 * items carry no bytes; 0 for a suite without items (and a size of none). */
double pb_suite_items(const pb_suite *s, uint64_t size);
/* The stored size of a cell of n items (--sizes): n x item_bytes, or n where items carry no bytes; n
 * itself for a suite without items. 0, or -1 + e where it is over PB_MAX_SIZE_BYTES. */
int pb_suite_size_of(const pb_suite *s, uint64_t n, uint64_t *size, pb_err *e);
/* A cell's size for humans: "64 B" (pb_fmt_bytes' form), or for a suite with items "4 blocks (64 B)",
 * "4 packets" where items carry no bytes; "" for a size of none. */
char *pb_suite_fmt_size(const pb_suite *s, uint64_t size, char *buf, size_t cap);
/* Metric m's unit with the suite's item word where it is per item ("ns/block", "blocks/s"), else m's. */
const char *pb_metric_unit_of(const pb_metric *m, const pb_suite *s, char *buf, size_t cap);
/* A per-item metric m of a cell of `items` per op from the cell's statistics of ns per op (median,
 * p10, p90) into out[0..3) (median, p10, p90): a throughput's p10 is the time's p90. */
void pb_metric_per_item_stats(const pb_metric *m, double items, const double ns[3], double out[3]);

#endif
