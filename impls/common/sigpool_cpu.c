/* SPDX-License-Identifier: GPL-2.0-only */
/* sigpool_cpu.c — per-CPU slots (see sigpool_cpu.h). */
#include "sigpool_cpu.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static size_t round64(size_t n) { return (n + 63) & ~(size_t)63; }

int sp_cpus_init(sp_cpus *c, size_t scratch_size)
{
    long n = sysconf(_SC_NPROCESSORS_CONF);
    if (n < 1) n = 1;
    memset(c, 0, sizeof *c);
    c->cpu = aligned_alloc(64, round64((size_t)n * sizeof *c->cpu));
    if (!c->cpu) return -ENOMEM;
    c->n = (unsigned)n;
    c->scratch_size = scratch_size;
    for (unsigned i = 0; i < c->n; i++) {
        sp_cpu *s = &c->cpu[i];
        memset(s, 0, sizeof *s);
        pthread_mutex_init(&s->bh, NULL);
        s->id = i;
        /* own cache lines: no false sharing between CPUs */
        s->scratch = aligned_alloc(64, round64(scratch_size ? scratch_size : 1));
        if (!s->scratch) {
            c->n = i + 1;
            sp_cpus_fini(c);
            return -ENOMEM;
        }
        memset(s->scratch, 0, round64(scratch_size ? scratch_size : 1));
    }
    return 0;
}

void sp_cpus_fini(sp_cpus *c)
{
    if (!c->cpu) return;
    for (unsigned i = 0; i < c->n; i++) {
        if (c->cpu[i].scratch) {
            explicit_bzero(c->cpu[i].scratch, c->scratch_size);
            free(c->cpu[i].scratch);
        }
        pthread_mutex_destroy(&c->cpu[i].bh);
    }
    free(c->cpu);
    memset(c, 0, sizeof *c);
}

sp_cpu *sp_bh_disable(sp_cpus *c)
{
    int cpu = sched_getcpu();
    sp_cpu *s = &c->cpu[cpu < 0 ? 0 : (unsigned)cpu % c->n];
    pthread_mutex_lock(&s->bh);
    return s;
}

void sp_bh_enable(sp_cpu *cpu)
{
    pthread_mutex_unlock(&cpu->bh);
}
