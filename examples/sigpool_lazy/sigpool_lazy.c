/* SPDX-License-Identifier: GPL-2.0-only */
/* sigpool_lazy.c — a third signature pool as a sigpool plug-in
 * (include/patchbench/sigpool_plugin.h): per-CPU requests, made on a CPU's first use.
 *
 * Why it is worth having: old pre-allocates a request (and for keyed algorithms a transform)
 * for every possible CPU when the pool is created, whether or not that CPU ever signs a
 * segment; new holds nothing per CPU but clones the transform and allocates a request on every
 * use. This pool clones and allocates once per CPU, the first time that CPU signs (an atomic
 * allocation: a failure is -ENOMEM, counted, and tried again at the CPU's next use), and keeps
 * both in the CPU's slot: memory for the CPUs that sign only, and old's fast path after the
 * first segment. old vs this is the cost of the lazy check; new vs this the cost of a clone
 * and a request per use.
 *
 * As in old, a cached request is the slot's alone while the slot is held (sp_bh_disable), and
 * a keyed clone keeps the last traffic key until the pool is destroyed (new wipes it at every
 * end()). */
#include <errno.h>
#include <stdlib.h>

#include "patchbench/sigpool_plugin.h"

#define EXPORT __attribute__((visibility("default")))

static const pb_sigpool_host *host;
static const sigpool_ops lazy_ops;

struct pool {
    sigpool base;
    sp_cpus cpus;          /* per-CPU scratch + BH-disable emulation */
    sp_tfm *tfm;           /* the pool's transform, cloned once per CPU */
    sp_req **req;          /* per CPU: NULL until that CPU's first use */
    sp_fail_hook fail;     /* injected failures of the first-use allocations, and the count */
};

static void pool_destroy(sigpool *sp)
{
    struct pool *p = (struct pool *)sp;
    for (unsigned i = 0; p->req && i < p->cpus.n; i++) {
        if (!p->req[i]) continue;
        sp_tfm *clone = p->req[i]->tfm;
        host->req_free(p->req[i]);
        host->tfm_free(clone);
    }
    free(p->req);
    host->tfm_free(p->tfm);
    host->cpus_fini(&p->cpus);
    free(p);
}

static int pool_create(const char *name, size_t scratch_size, sigpool **out)
{
    const sp_alg *alg = host->alg_find(name);
    if (!alg) return -EINVAL;
    struct pool *p = calloc(1, sizeof *p);
    if (!p) return -ENOMEM;
    p->base.ops = &lazy_ops;
    p->base.alg = alg;
    if (host->cpus_init(&p->cpus, scratch_size) || !(p->req = calloc(p->cpus.n, sizeof *p->req)) ||
        !(p->tfm = host->tfm_alloc(alg, p->cpus.n))) {
        pool_destroy(&p->base);
        return -ENOMEM;
    }
    sp_tfm *test = host->tfm_clone(p->tfm);    /* as new: refuse an algorithm that cannot clone */
    if (!test) {
        pool_destroy(&p->base);
        return -ENOSYS;
    }
    host->tfm_free(test);
    *out = &p->base;
    return 0;
}

static int pool_start(sigpool *sp, sigpool_handle *h)
{
    struct pool *p = (struct pool *)sp;
    sp_cpu *cpu = host->bh_disable(&p->cpus);
    sp_req *req = p->req[cpu->id];
    if (!req) {    /* this CPU's first use: what old did at creation */
        sp_tfm *clone = sp_fail_hook_fires(&p->fail) ? NULL : host->tfm_clone(p->tfm);
        req = clone ? host->req_alloc(clone, cpu->id) : NULL;
        if (!req) {
            if (clone) host->tfm_free(clone);
            sp_fail_hook_count(&p->fail);
            host->bh_enable(cpu);
            return -ENOMEM;
        }
        p->req[cpu->id] = req;
    }
    h->cpu = cpu;
    h->req = req;
    h->scratch = cpu->scratch;
    return 0;
}

static void pool_end(sigpool *sp, sigpool_handle *h)
{
    (void)sp;
    host->bh_enable(h->cpu);
}

static void pool_inject_alloc_failure(sigpool *sp, unsigned every_nth)
{
    struct pool *p = (struct pool *)sp;
    sp_fail_hook_set(&p->fail, every_nth);
}

static uint64_t pool_alloc_failures(const sigpool *sp)
{
    struct pool *p = (struct pool *)sp;
    return sp_fail_hook_failures(&p->fail);
}

static const sigpool_ops lazy_ops = {
    .name = "lazy",
    .create = pool_create,
    .destroy = pool_destroy,
    .start = pool_start,
    .end = pool_end,
    .inject_alloc_failure = pool_inject_alloc_failure,
    .alloc_failures = pool_alloc_failures,
};

static const pb_sigpool_plugin plugin = {
    .abi_version = PB_SIGPOOL_PLUGIN_ABI_VERSION,
    .ops = &lazy_ops,
};

EXPORT const unsigned pb_sigpool_plugin_abi_version = PB_SIGPOOL_PLUGIN_ABI_VERSION;

EXPORT const pb_sigpool_plugin *pb_sigpool_plugin_entry(const pb_sigpool_host *h)
{
    if (h->abi_version != PB_SIGPOOL_PLUGIN_ABI_VERSION) return NULL;
    host = h;
    return &plugin;
}
