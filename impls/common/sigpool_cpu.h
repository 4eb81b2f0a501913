/* SPDX-License-Identifier: GPL-2.0-only */
/* sigpool_cpu.h — per-CPU slots: userspace stand-in for local_bh_disable().
 *
 * Both kernel pools hand out per-CPU state (a scratch buffer, and in the
 * per-CPU-requests pool a request too) with bottom halves disabled, which
 * makes the current CPU's state exclusively the caller's until it enables
 * them again. Userspace cannot stop preemption, so a slot also carries a
 * lock: sp_bh_disable() picks the slot of the CPU the thread runs on
 * (sched_getcpu()) and locks it. A thread that migrates in between still
 * holds a slot exclusively, just another CPU's; threads pinned to distinct
 * CPUs never contend. The lock's uncontended cost (one atomic exchange to
 * lock, one to unlock) is the same in both pools.
 *
 * Slots exist for every configured ("possible") CPU, like the kernel's
 * for_each_possible_cpu(). */
#ifndef PB_SIGPOOL_CPU_H
#define PB_SIGPOOL_CPU_H

#include <pthread.h>
#include <stddef.h>

typedef struct sp_cpu {
    _Alignas(64) pthread_mutex_t bh;  /* held = "BH disabled on this CPU" */
    void *scratch;                    /* this CPU's scratch buffer */
    unsigned id;                      /* slot index: per-CPU arrays use it */
} sp_cpu;

typedef struct sp_cpus {
    unsigned n;
    size_t scratch_size;
    sp_cpu *cpu;
} sp_cpus;

/* Slow path: n = configured CPUs, each with `scratch_size` bytes of scratch
 * (64-byte aligned, zeroed). 0 or -ENOMEM. */
int sp_cpus_init(sp_cpus *c, size_t scratch_size);
void sp_cpus_fini(sp_cpus *c);

sp_cpu *sp_bh_disable(sp_cpus *c);
void sp_bh_enable(sp_cpu *cpu);

#endif
