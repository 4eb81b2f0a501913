/* SPDX-License-Identifier: GPL-2.0-only */
/* metrics.c — the one table of metrics (metrics.h). */
#include "metrics.h"

#include <string.h>

const pb_metric pb_metrics[] = {
    {PB_M_NS_PER_OP, "ns_per_op", "ns", 0, "ns per operation (median, p10-p90)", 0},
    {PB_M_TSC_PER_BYTE, "tsc_per_byte", "ticks/B", 0, "TSC ticks per byte", 0},
    {PB_M_CYCLES_PER_BYTE, "cycles_per_byte", "cycles/B", 0, "core cycles per byte", 0},
    {PB_M_EST_CYCLES_PER_BYTE, "est_cycles_per_byte", "cycles/B (estimated)", 0, "estimated core cycles per byte", 0},
    {PB_M_MB_PER_S, "mb_per_s", "MB/s", 1, "MB/s (median)", 0},
    {PB_M_GBIT_PER_S, "gbit_per_s", "Gbit/s", 1, "Gbit/s (median)", 0},
    {PB_M_INSNS_PER_BYTE, "insns_per_byte", "insns/B", 0, "instructions per byte", 1},
    /* --measure valgrind's counts per op under callgrind (harness/run/valgrind.h): deterministic. */
    {0, "insns_per_op", "insns/op", 0, "instructions per operation (callgrind)", 1},
    {0, "l1_miss_per_op", "L1 misses/op", 0, "L1 misses per operation (callgrind cache model)", 1},
    {0, "ll_miss_per_op", "LL misses/op", 0, "LL misses per operation (callgrind cache model)", 1},
    {0, "branch_miss_per_op", "mispredicts/op", 0, "branch mispredictions per operation (callgrind)", 1},
    {0, "model_cycles_per_op", "cycles/op (model, not measured)", 0,
     "estimated cycles per operation (a linear model of callgrind counts, not a measurement)", 1},
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
