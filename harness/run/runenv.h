/* SPDX-License-Identifier: GPL-2.0-only */
/* runenv.h — what a timed run records about the machine it shared (issue 11):
 * the CPU its benchmark thread was pinned to (--cpu), the load average at its start and end,
 * and the noise warnings these and the core-speed probe give (runs.cpu_affinity,
 * loadavg_start, loadavg_end, noise; thresholds in docs/gate.md). */
#ifndef PB_RUNENV_H
#define PB_RUNENV_H

#include <sched.h>
#include <stddef.h>

#include "pb.h"

#define PB_CPU_DEFAULT (-2) /* --cpu not given: the last online CPU this thread may use */
#define PB_CPU_NONE (-1)    /* --cpu none */

/* Noise thresholds (docs/gate.md): the load average above which a run is flagged, and the
 * smallest fraction of samples in the fast core state that is not. */
#define PB_NOISE_FAST_MIN 0.5

/* --cpu VALUE: "none" or the number of an online CPU. NULL: PB_CPU_DEFAULT. -1 + e naming --cpu
 * for anything else (a CPU that does not exist or is offline included). */
int pb_cpu_parse(const char *v, int *cpu, pb_err *e);

/* Online CPUs (/sys/devices/system/cpu/online, else sysconf); 0 if unknown. */
int pb_online_cpus(void);

typedef struct pb_pin {
    int pinned;          /* 1: the calling thread was pinned (restore with pb_pin_restore) */
    int have_old;
    cpu_set_t old;
    char desc[200];      /* runs.cpu_affinity: "cpu N (...)" or "not pinned: why" */
} pb_pin;

/* Pin the calling thread to one CPU as `cpu` (pb_cpu_parse) asks, when more than one CPU is
 * online. A refusal of the kernel (a cgroup cpuset, say) is warned on stderr and said in desc. */
void pb_pin_apply(int cpu, pb_pin *p);
void pb_pin_restore(pb_pin *p);

/* The 1-minute load average; the test-only environment variable PB_TEST_LOADAVG replaces the
 * reading. -1 if unknown. */
double pb_loadavg(void);

/* The load limit a run is flagged above: online CPUs - 1 at the start (the run's own thread is
 * not yet counted), online CPUs at the end (it counts up to 1 by then); 0.5 and 1 on one CPU. */
double pb_noise_load_limit(int ncpu, int at_end);

/* The noise warnings of a run (empty: none): load averages (< 0: unknown) against
 * pb_noise_load_limit, and n_fast of n_probed samples in the fast core state against
 * PB_NOISE_FAST_MIN (n_probed 0: no probe, no judgement). */
void pb_noise_text(double la_start, double la_end, int ncpu, long n_fast, long n_probed, char *buf, size_t len);

#endif
