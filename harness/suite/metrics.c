/* SPDX-License-Identifier: GPL-2.0-only */
/* metrics.c — the one table of metrics (metrics.h). */
#include "metrics.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "nearest.h"

/* The formulas: per sample, from what the samples table holds. */
static double ns_per_op(const pb_metric_sample *r, double size)
{
    (void)size;
    return r->ns / r->iters;
}
static double cpu_ns(const pb_metric_sample *r, double size)
{
    (void)size;
    return r->has_cpu && r->cpu > 0 && r->iters > 0 ? r->cpu / r->iters : NAN;
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

/* Per item, from one op's time and the cell's items per op (pb_metric.per_item). */
static double ns_per_item(double ns_per_op, double items)
{
    return items > 0 ? ns_per_op / items : NAN;
}
static double items_per_s(double ns_per_op, double items)
{
    return items > 0 && ns_per_op > 0 ? items * 1e9 / ns_per_op : NAN;
}

#define WALL_CLOCK "google-benchmark real time (steady_clock)"
#define GUEST_CLOCK "ktime_get_ns in the kernel under test"

const pb_metric pb_metrics[] = {
    {PB_M_NS_PER_OP, "ns_per_op", "ns", 0, "ns per operation (median, p10-p90)", 0, ns_per_op, PB_FROM_FIXED,
     WALL_CLOCK, GUEST_CLOCK, NULL},
    {PB_M_TSC_PER_BYTE, "tsc_per_byte", "ticks/B", 0, "TSC ticks per byte", 0, tsc_per_byte, PB_FROM_TICKS, NULL,
     "get_cycles (TSC) in the kernel under test", NULL},
    {PB_M_CYCLES_PER_BYTE, "cycles_per_byte", "cycles/B", 0, "core cycles per byte", 0, cycles_per_byte,
     PB_FROM_COUNTERS, "perf:cycles", NULL, NULL},
    {PB_M_EST_CYCLES_PER_BYTE, "est_cycles_per_byte", "cycles/B (estimated)", 0, "estimated core cycles per byte", 0,
     est_cycles_per_byte, PB_FROM_FIXED, "TSC ticks x 1000 / core-speed probe (1000 dependent adds)", NULL, NULL},
    {PB_M_MB_PER_S, "mb_per_s", "MB/s", 1, "MB/s (median)", 0, mb_per_s, PB_FROM_FIXED, WALL_CLOCK, GUEST_CLOCK, NULL},
    {PB_M_GBIT_PER_S, "gbit_per_s", "Gbit/s", 1, "Gbit/s (median)", 0, gbit_per_s, PB_FROM_FIXED, WALL_CLOCK,
     GUEST_CLOCK, NULL},
    {PB_M_INSNS_PER_BYTE, "insns_per_byte", "insns/B", 0, "instructions per byte", 1, insns_per_byte,
     PB_FROM_COUNTERS, "perf:instructions", NULL, NULL},
    /* "cpu_ns", as `--metric cpu_ns` is asked for: per op like ns_per_op, only of a suite that asks for
     * PB_M_CPU_NS (its samples' CPU time is the measured program's), so no other run gains its rows */
    {PB_M_CPU_NS, "cpu_ns", "ns", 0, "CPU ns per operation, user + system (median, p10-p90)", 0, cpu_ns,
     PB_FROM_FIXED, "the measured program's CPU time (user + system) / iterations", NULL, NULL},
    /* --measure valgrind's counts per op under callgrind (harness/run/valgrind.h): deterministic. */
    {0, "insns_per_op", "insns/op", 0, "instructions per operation (callgrind)", 1, NULL, PB_FROM_FIXED, NULL, NULL,
     NULL},
    {0, "l1_miss_per_op", "L1 misses/op", 0, "L1 misses per operation (callgrind cache model)", 1, NULL,
     PB_FROM_FIXED, NULL, NULL, NULL},
    {0, "ll_miss_per_op", "LL misses/op", 0, "LL misses per operation (callgrind cache model)", 1, NULL,
     PB_FROM_FIXED, NULL, NULL, NULL},
    {0, "branch_miss_per_op", "mispredicts/op", 0, "branch mispredictions per operation (callgrind)", 1, NULL,
     PB_FROM_FIXED, NULL, NULL, NULL},
    {0, "model_cycles_per_op", "cycles/op (model, not measured)", 0,
     "estimated cycles per operation (a linear model of callgrind counts, not a measurement)", 1, NULL,
     PB_FROM_FIXED, NULL, NULL, NULL},
    /* per item (suite.h item_unit): "item" in the unit is the suite's word (pb_metric_unit_of) */
    {0, "ns_per_item", "ns/item", 0, "ns per item (median, p10-p90)", 0, NULL, PB_FROM_FIXED, WALL_CLOCK, GUEST_CLOCK,
     ns_per_item},
    {0, "items_per_s", "items/s", 1, "items per second (median)", 0, NULL, PB_FROM_FIXED, WALL_CLOCK, GUEST_CLOCK,
     items_per_s},
};
const size_t pb_nmetrics = sizeof pb_metrics / sizeof pb_metrics[0];

const pb_metric *pb_metric_find(const char *name)
{
    for (size_t i = 0; name && i < pb_nmetrics; i++)
        if (!strcmp(pb_metrics[i].name, name)) return &pb_metrics[i];
    return NULL;
}

int pb_metric_known(const char *name)
{
    const pb_metric *m = pb_metric_find(name);
    return m && !m->per_item;
}

const char *pb_metric_unknown(char *buf, size_t cap, const char *name, const char *more)
{
    char names[512] = "", hint[96];
    for (size_t i = 0; i < pb_nmetrics; i++)
        if (pb_metric_known(pb_metrics[i].name))   /* a per-item figure is never stored: no gate's */
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", *names ? ", " : "",
                     pb_metrics[i].name);
    snprintf(buf, cap, "unknown metric '%s' (%smetrics: %s%s)", name, pb_did_you_mean(hint, sizeof hint, name, names),
             names, more);
    return buf;
}

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

int pb_suite_has_items(const pb_suite *s)
{
    return s && s->item_unit && *s->item_unit;
}

double pb_suite_items(const pb_suite *s, uint64_t size)
{
    if (!pb_suite_has_items(s)) return 0;
    return s->item_bytes ? (double)size / (double)s->item_bytes : (double)size;
}

int pb_suite_size_of(const pb_suite *s, uint64_t n, uint64_t *size, pb_err *e)
{
    uint64_t per = pb_suite_has_items(s) && s->item_bytes ? s->item_bytes : 1;
    if (n > PB_MAX_SIZE_BYTES / per)
        return pb_errf(e, "--sizes: %llu %ss are more than a cell can hold (%llu bytes at most)",
                       (unsigned long long)n, s->item_unit, (unsigned long long)PB_MAX_SIZE_BYTES);
    *size = n * per;
    return 0;
}

char *pb_suite_fmt_size(const pb_suite *s, uint64_t size, char *buf, size_t cap)
{
    char b[32];
    if (!size) snprintf(buf, cap, "%s", "");
    else if (!pb_suite_has_items(s)) pb_fmt_bytes(buf, cap, (int64_t)size);
    else if (!s->item_bytes) snprintf(buf, cap, "%llu %s%s", (unsigned long long)size, s->item_unit, size == 1 ? "" : "s");
    else {
        double n = pb_suite_items(s, size);
        snprintf(buf, cap, "%g %s%s (%s)", n, s->item_unit, n == 1 ? "" : "s", pb_fmt_bytes(b, sizeof b, (int64_t)size));
    }
    return buf;
}

const char *pb_metric_unit_of(const pb_metric *m, const pb_suite *s, char *buf, size_t cap)
{
    if (!m->per_item || !pb_suite_has_items(s)) return m->unit;
    /* "ns/item" -> "ns/block", "items/s" -> "blocks/s" */
    const char *at = strstr(m->unit, "item");
    if (!at) return m->unit;
    snprintf(buf, cap, "%.*s%s%s", (int)(at - m->unit), m->unit, s->item_unit, at + 4);
    return buf;
}

void pb_metric_per_item_stats(const pb_metric *m, double items, const double ns[3], double out[3])
{
    int swap = m->higher_is_better;   /* the fastest op (the time's p10) is the highest throughput */
    out[0] = m->per_item(ns[0], items);
    out[1] = m->per_item(ns[swap ? 2 : 1], items);
    out[2] = m->per_item(ns[swap ? 1 : 2], items);
}
