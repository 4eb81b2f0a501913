/* SPDX-License-Identifier: GPL-2.0-only */
/* impls/old/sigpool.c — per-CPU requests.
 *
 * The document's "per-CPU-requests" column: the fallback backend of the
 * tcp_sigpool v6 posting (SPEC 2.5), forced for every algorithm. For md5 it
 * is exactly the v6.6 tcp_md5sig_pool (SPEC 2.3): one shared transform and a
 * pre-allocated request and scratch per CPU.
 *
 * Creation allocates everything: per CPU a scratch buffer and a request; a
 * keyless algorithm shares one transform between all CPUs, a keyed one gets
 * a transform per CPU because TCP-AO sets the traffic key on every segment
 * and a shared transform would race. The fast path only takes the current
 * CPU's slot ("disables BHs") and allocates nothing, so it cannot fail. */
#include "common/sigpool.h"

#include <errno.h>
#include <stdlib.h>

struct pool {
    sigpool base;
    sp_cpus cpus;        /* per-CPU scratch + BH-disable emulation */
    sp_tfm **tfm;        /* per CPU: keyless -> the one shared transform */
    sp_req **req;        /* per CPU: the pre-allocated request */
};

static void pool_destroy(sigpool *sp)
{
    struct pool *p = (struct pool *)sp;
    for (unsigned i = 0; p->req && i < p->cpus.n; i++) sp_req_free(p->req[i]);
    for (unsigned i = 0; p->tfm && i < p->cpus.n; i++) sp_tfm_free(p->tfm[i]);
    free(p->req);
    free(p->tfm);
    sp_cpus_fini(&p->cpus);
    free(p);
}

static int pool_create(const char *name, size_t scratch_size, sigpool **out)
{
    const sp_alg *alg = sp_alg_find(name);
    if (!alg) return -EINVAL;
    struct pool *p = calloc(1, sizeof *p);
    if (!p) return -ENOMEM;
    p->base.ops = &sigpool_old;
    p->base.alg = alg;
    if (sp_cpus_init(&p->cpus, scratch_size)) goto nomem;
    p->tfm = calloc(p->cpus.n, sizeof *p->tfm);
    p->req = calloc(p->cpus.n, sizeof *p->req);
    if (!p->tfm || !p->req) goto nomem;
    for (unsigned i = 0; i < p->cpus.n; i++) {
        if (i == 0 || sp_alg_needs_key(alg))
            p->tfm[i] = sp_tfm_alloc(alg, p->cpus.n);
        else
            p->tfm[i] = sp_tfm_clone(p->tfm[0]);    /* keyless: a reference */
        if (!p->tfm[i]) goto nomem;
        p->req[i] = sp_req_alloc(p->tfm[i], i);
        if (!p->req[i]) goto nomem;
    }
    *out = &p->base;
    return 0;
nomem:
    pool_destroy(&p->base);
    return -ENOMEM;
}

static int pool_start(sigpool *sp, sigpool_handle *h)
{
    struct pool *p = (struct pool *)sp;
    sp_cpu *cpu = sp_bh_disable(&p->cpus);

    h->cpu = cpu;
    h->req = p->req[cpu->id];
    h->scratch = cpu->scratch;
    return 0;
}

static void pool_end(sigpool *sp, sigpool_handle *h)
{
    (void)sp;
    sp_bh_enable(h->cpu);
}

static void pool_inject_alloc_failure(sigpool *sp, unsigned every_nth)
{
    (void)sp;           /* nothing to fail: the fast path does not allocate */
    (void)every_nth;
}

static uint64_t pool_alloc_failures(const sigpool *sp)
{
    (void)sp;
    return 0;
}

const sigpool_ops sigpool_old = {
    .name = "old",
    .create = pool_create,
    .destroy = pool_destroy,
    .start = pool_start,
    .end = pool_end,
    .inject_alloc_failure = pool_inject_alloc_failure,
    .alloc_failures = pool_alloc_failures,
};
