/* SPDX-License-Identifier: GPL-2.0-only */
/* counters.h — what a sample is measured with: hardware counters where the
 * kernel offers them, the invariant TSC otherwise, and a core-speed probe.
 *
 * Hardware events are named as libpfm4 names them ("cycles", "instructions",
 * "ref-cycles", ...), encoded with pfm_get_os_event_encoding() and opened
 * with perf_event_open() on the calling thread (user mode only). Where the
 * VM has no PMU perf_event_open fails (ENOENT): the counter is then marked
 * unavailable with the reason, and only TSC-based metrics are reported. TSC
 * ticks are never reported as core cycles: the probe (a chain of 1000
 * dependent adds, i.e. 1000 core cycles) converts them into an *estimate*
 * labelled as such. */
#ifndef PB_COUNTERS_H
#define PB_COUNTERS_H

#include <stdint.h>

#include "pb.h"

#define PB_MAX_HW 4

typedef struct pb_hw_event {
    char name[32];        /* as requested */
    int fd;               /* -1 if unavailable */
    char status[160];     /* "perf:cycles (libpfm4 PERF_COUNT_HW_CPU_CYCLES)" or "unavailable: ..." */
    char brief[24];       /* the status in a word or two for a header that fits: "perf", "no PMU", ... */
} pb_hw_event;

typedef struct pb_counters {
    int nhw;
    pb_hw_event hw[PB_MAX_HW];
    int tsc_ok;           /* invariant TSC (constant_tsc + nonstop_tsc) */
    double tsc_hz;        /* measured against CLOCK_MONOTONIC_RAW */
    double probe_overhead;/* ticks of an empty probe, subtracted */
    char tick_source[128];
} pb_counters;

typedef struct pb_reading {
    uint64_t tsc;               /* or ns from the clock when the TSC is not invariant */
    uint64_t hw[PB_MAX_HW];
} pb_reading;

/* names: comma-separated libpfm4 event names, NULL for the default "cycles,instructions",
 * "" for none. Unknown names are an error (e); unavailable ones are not. */
int pb_counters_open(pb_counters *c, const char *names, pb_err *e);
void pb_counters_close(pb_counters *c);

/* Index of an available hardware event by name, or -1. */
int pb_counters_find(const pb_counters *c, const char *name);

void pb_counters_start(const pb_counters *c, pb_reading *r);
void pb_counters_stop(const pb_counters *c, pb_reading *r); /* r becomes stop - start */

/* Core-speed probe: TSC ticks for 1000 dependent adds (minimum of a few tries,
 * empty-probe overhead removed): ~899 ticks at 3.11 GHz, ~1670 at 1.67 GHz on a core that flips
 * between those two speeds (docs/measurements/gate-design.md). */
double pb_probe_ticks(const pb_counters *c);

/* Core-sharing probe: TSC ticks for 3000 independent adds (six chains; minimum of a few tries,
 * empty-probe overhead removed). Alone on its core it runs several adds a cycle; with the core's
 * other hardware thread busy (another tenant of a VM's host) it slows by a third or more, which
 * the dependent-add probe above does not show (docs/layout.md, "A shared core"). 0 without the TSC. */
double pb_tprobe_ticks(const pb_counters *c);

/* One-line description of the sources, for the run's provenance. */
void pb_counters_describe(const pb_counters *c, char *buf, size_t len);

/* The same in short words, for a header that fits the terminal (the full one is stored):
 * "ticks: TSC 2.45 GHz (invariant); cycles, instructions: no PMU". */
void pb_counters_brief(const pb_counters *c, char *buf, size_t len);

#endif
