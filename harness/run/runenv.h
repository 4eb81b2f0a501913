/* SPDX-License-Identifier: GPL-2.0-only */
/* runenv.h — what a timed run records about the machine it shared:
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

/* The noise warning of the core-speed probe (empty: none): n_fast of n_probed samples in the fast
 * core state against PB_NOISE_FAST_MIN (n_probed 0: no probe, no judgement). The load average is
 * stored and shown as a label, never warned on: it counts the user's own earlier runs, and what
 * competed with a round is read per sample instead (pb_waits_read). */
void pb_noise_text(long n_fast, long n_probed, char *buf, size_t len);

/* What kept the benchmark thread from its CPU, as counters since boot (ns): its run-queue delay
 * (/proc/thread-self/schedstat, the kernel's per-task wait time) and the machine's steal time (the
 * hypervisor ran someone else; /proc/stat). -1 each where unreadable. Read before and after each
 * sample, outside its timing; the files stay open per thread, so a read is one pread. */
typedef struct pb_waits {
    double run_delay_ns, steal_ns;
} pb_waits;
/* The two files, kept open by whoever samples (the run, a cage's child): -1 until the first read,
 * which opens them in the reading thread (/proc/thread-self names the thread that opens it), -2
 * where unreadable. */
typedef struct pb_waits_files {
    int sched_fd, stat_fd;
} pb_waits_files;
#define PB_WAITS_FILES_INIT ((pb_waits_files){-1, -1})
void pb_waits_read(pb_waits_files *f, pb_waits *w);
void pb_waits_files_close(pb_waits_files *f);

/* A sample waited when its run-queue delay plus steal exceeds this fraction of its wall time; a
 * round waited when one of its samples did. */
#define PB_WAIT_FRACTION 0.01

/* The waits warning of a run (empty: none, or no round waited): `waited` of `rounds` rounds
 * waited; move: the largest relative change of a ratio when those rounds are left out (NaN: none
 * could be computed), of the ratio `where` from r_all to r_without. */
void pb_waits_text(long waited, long rounds, double move, const char *where, double r_all, double r_without, char *buf,
                   size_t len);

#endif
