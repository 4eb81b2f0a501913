/* SPDX-License-Identifier: GPL-2.0-only */
/* impls/new/sigpool.c — clone-tfm (tcp_sigpool as merged in Linux 6.7).
 *
 * The document's "clone-tfm" column (SPEC 2.4). Creation allocates one
 * transform per algorithm and per-CPU scratch, and test-clones the transform
 * once. Every use clones the transform (keyless: a reference only, no
 * allocation; keyed: a new transform with a copy of the state) and
 * allocates a request, both "GFP_ATOMIC": an allocation failure is an error
 * the caller counts (the segment is dropped), never a crash. end() frees
 * the request (wiped) and the clone.
 *
 * The document could not clone cmac(aes128) (no clone_tfm in the kernel's
 * cmac then); libgcrypt's CMAC clones here (gcry_mac_open, plus setkey when
 * the source has a key), so this pool supports every algorithm. */
#include "common/sigpool.h"

#include <errno.h>
#include <stdlib.h>

struct pool {
    sigpool base;
    sp_cpus cpus;        /* per-CPU scratch + BH-disable emulation */
    sp_tfm *tfm;         /* the one pre-allocated transform, cloned per use */
    sp_fail_hook fail;   /* the injected GFP_ATOMIC failures (test hook) and the count */
};

static void pool_destroy(sigpool *sp)
{
    struct pool *p = (struct pool *)sp;
    sp_tfm_free(p->tfm);    /* the last reference frees it */
    sp_cpus_fini(&p->cpus);
    free(p);
}

static int pool_create(const char *name, size_t scratch_size, sigpool **out)
{
    const sp_alg *alg = sp_alg_find(name);
    if (!alg) return -EINVAL;
    struct pool *p = calloc(1, sizeof *p);
    if (!p) return -ENOMEM;
    p->base.ops = &sigpool_new;
    p->base.alg = alg;
    if (sp_cpus_init(&p->cpus, scratch_size)) goto nomem;
    p->tfm = sp_tfm_alloc(alg, p->cpus.n);
    if (!p->tfm) goto nomem;
    /* like tcp_sigpool_alloc_ahash(): refuse an algorithm that cannot clone */
    sp_tfm *test = sp_tfm_clone(p->tfm);
    if (!test) {
        pool_destroy(&p->base);
        return -ENOSYS;
    }
    sp_tfm_free(test);
    *out = &p->base;
    return 0;
nomem:
    pool_destroy(&p->base);
    return -ENOMEM;
}

static sp_tfm *clone_tfm(struct pool *p)
{
    if (sp_alg_needs_key(p->base.alg) && sp_fail_hook_fires(&p->fail)) return NULL;
    return sp_tfm_clone(p->tfm);
}

static int pool_start(sigpool *sp, sigpool_handle *h)
{
    struct pool *p = (struct pool *)sp;
    sp_cpu *cpu = sp_bh_disable(&p->cpus);

    sp_tfm *tfm = clone_tfm(p);
    if (!tfm) goto nomem;
    sp_req *req = sp_fail_hook_fires(&p->fail) ? NULL : sp_req_alloc(tfm, cpu->id);
    if (!req) {
        sp_tfm_free(tfm);
        goto nomem;
    }
    h->cpu = cpu;
    h->req = req;
    h->scratch = cpu->scratch;
    return 0;
nomem:
    sp_fail_hook_count(&p->fail);
    sp_bh_enable(cpu);
    return -ENOMEM;
}

static void pool_end(sigpool *sp, sigpool_handle *h)
{
    (void)sp;
    sp_bh_enable(h->cpu);
    sp_tfm *tfm = h->req->tfm;
    sp_req_free(h->req);
    sp_tfm_free(tfm);
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

const sigpool_ops sigpool_new = {
    .name = "new",
    .create = pool_create,
    .destroy = pool_destroy,
    .start = pool_start,
    .end = pool_end,
    .inject_alloc_failure = pool_inject_alloc_failure,
    .alloc_failures = pool_alloc_failures,
};
