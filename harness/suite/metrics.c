/* SPDX-License-Identifier: GPL-2.0-only */
/* metrics.c — the one table of metrics (metrics.h). */
#include "metrics.h"

#include <math.h>
#include <string.h>

/* The formulas: per sample, from what the samples table holds. */
static double ns_per_op(const pb_metric_sample *r, double size)
{
    (void)size;
    return r->ns / r->iters;
}
static double tsc_per_byte(const pb_metric_sample *r, double size)
{
    double bytes = r->iters * size;
    return r->has_tsc && bytes > 0 ? r->tsc / bytes : NAN;
}
static double cycles_per_byte(const pb_metric_sample *r, double size)
{
    double bytes = r->iters * size;
    return r->has_cycles && bytes > 0 ? r->cycles / bytes : NAN;
}
/* TSC ticks scaled by the core-speed probe (1000 dependent adds, taken before and after) */
static double est_cycles_per_byte(const pb_metric_sample *r, double size)
{
    double bytes = r->iters * size;
    double probe = (r->probe_before > 0 && r->probe_after > 0) ? (r->probe_before + r->probe_after) / 2 : 0;
    return r->has_tsc && probe > 0 && bytes > 0 ? r->tsc * 1000.0 / probe / bytes : NAN;
}
static double mb_per_s(const pb_metric_sample *r, double size)
{
    double bytes = r->iters * size;
    return bytes > 0 ? bytes * 1e3 / r->ns : NAN;
}
static double gbit_per_s(const pb_metric_sample *r, double size)
{
    double bytes = r->iters * size;
    return bytes > 0 ? bytes * 8.0 / r->ns : NAN;
}
static double insns_per_byte(const pb_metric_sample *r, double size)
{
    double bytes = r->iters * size;
    return r->has_insns && bytes > 0 ? r->insns / bytes : NAN;
}

#define WALL_CLOCK "google-benchmark real time (steady_clock)"
#define GUEST_CLOCK "ktime_get_ns in the kernel under test"

const pb_metric pb_metrics[] = {
    {PB_M_NS_PER_OP, "ns_per_op", "ns", 0, "ns per operation (median, p10-p90)", 0, ns_per_op, PB_FROM_FIXED,
     WALL_CLOCK, GUEST_CLOCK},
    {PB_M_TSC_PER_BYTE, "tsc_per_byte", "ticks/B", 0, "TSC ticks per byte", 0, tsc_per_byte, PB_FROM_TICKS, NULL,
     "get_cycles (TSC) in the kernel under test"},
    {PB_M_CYCLES_PER_BYTE, "cycles_per_byte", "cycles/B", 0, "core cycles per byte", 0, cycles_per_byte,
     PB_FROM_COUNTERS, "perf:cycles", NULL},
    {PB_M_EST_CYCLES_PER_BYTE, "est_cycles_per_byte", "cycles/B (estimated)", 0, "estimated core cycles per byte", 0,
     est_cycles_per_byte, PB_FROM_FIXED, "TSC ticks x 1000 / core-speed probe (1000 dependent adds)", NULL},
    {PB_M_MB_PER_S, "mb_per_s", "MB/s", 1, "MB/s (median)", 0, mb_per_s, PB_FROM_FIXED, WALL_CLOCK, GUEST_CLOCK},
    {PB_M_GBIT_PER_S, "gbit_per_s", "Gbit/s", 1, "Gbit/s (median)", 0, gbit_per_s, PB_FROM_FIXED, WALL_CLOCK,
     GUEST_CLOCK},
    {PB_M_INSNS_PER_BYTE, "insns_per_byte", "insns/B", 0, "instructions per byte", 1, insns_per_byte,
     PB_FROM_COUNTERS, "perf:instructions", NULL},
    /* --measure valgrind's counts per op under callgrind (harness/run/valgrind.h): deterministic. */
    {0, "insns_per_op", "insns/op", 0, "instructions per operation (callgrind)", 1, NULL, PB_FROM_FIXED, NULL, NULL},
    {0, "l1_miss_per_op", "L1 misses/op", 0, "L1 misses per operation (callgrind cache model)", 1, NULL,
     PB_FROM_FIXED, NULL, NULL},
    {0, "ll_miss_per_op", "LL misses/op", 0, "LL misses per operation (callgrind cache model)", 1, NULL,
     PB_FROM_FIXED, NULL, NULL},
    {0, "branch_miss_per_op", "mispredicts/op", 0, "branch mispredictions per operation (callgrind)", 1, NULL,
     PB_FROM_FIXED, NULL, NULL},
    {0, "model_cycles_per_op", "cycles/op (model, not measured)", 0,
     "estimated cycles per operation (a linear model of callgrind counts, not a measurement)", 1, NULL,
     PB_FROM_FIXED, NULL, NULL},
};
const size_t pb_nmetrics = sizeof pb_metrics / sizeof pb_metrics[0];

const pb_metric *pb_metric_find(const char *name)
{
    for (size_t i = 0; name && i < pb_nmetrics; i++)
        if (!strcmp(pb_metrics[i].name, name)) return &pb_metrics[i];
    return NULL;
}

int pb_metric_known(const char *name) { return pb_metric_find(name) != NULL; }

int pb_metric_valgrind(const char *name)
{
    const pb_metric *m = pb_metric_find(name);
    return m && m->valgrind;
}

int pb_metric_higher_is_better(const char *name)
{
    const pb_metric *m = pb_metric_find(name);
    return m ? m->higher_is_better : 0;
}

const char *pb_metric_words(const char *name)
{
    const pb_metric *m = pb_metric_find(name);
    return m ? m->words : name;
}

const char *pb_suite_primary_metric(const pb_suite *s)
{
    return s && s->primary_metric ? s->primary_metric : PB_DEFAULT_METRIC;
}

const char *pb_metric_source(const pb_metric *m, const char *target, const char *tick_source,
                             const char *counter_source)
{
    int guest = target && strcmp(target, "userspace") != 0;
    const char *fixed = guest && m->guest_source ? m->guest_source : m->source;
    switch (m->from) {
    case PB_FROM_TICKS: return guest ? m->guest_source : tick_source;
    case PB_FROM_COUNTERS: return counter_source ? counter_source : m->source;
    default: return fixed ? fixed : "";
    }
}
