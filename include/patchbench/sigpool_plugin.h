/* SPDX-License-Identifier: GPL-2.0-only */
/* patchbench/sigpool_plugin.h — the plug-in ABI of the sigpool suite, version 1 (frozen).
 *
 * A plug-in is a shared object holding one signature pool (what TCP-MD5 and TCP-AO take a hash
 * request and a scratch buffer from in softirq context), loaded by
 *   bench run --suite sigpool --plugin NAME=PATH.so
 * and timed as impl NAME in every cell (segment and stream ops, every algorithm) beside old
 * (per-CPU requests) and new (clone-tfm), signing and verifying the same segments through the
 * same crypto layer: a third pool differs from old and new only in how it hands out requests.
 *
 * It exports two symbols:
 *   const unsigned pb_sigpool_plugin_abi_version = PB_SIGPOOL_PLUGIN_ABI_VERSION;
 *       read BEFORE anything of the plug-in is called: a plug-in built against another
 *       version of this header is refused (exit 2), never called.
 *   const pb_sigpool_plugin *pb_sigpool_plugin_entry(const pb_sigpool_host *host);
 *       called once; returns the pool's operations, or NULL to refuse. `host` stays valid for
 *       the life of the process: keep the pointer.
 *
 * Version 1 is sigpool / sigpool_handle / sigpool_ops of impls/common/sigpool.h, sp_alg /
 * sp_tfm / sp_req of impls/common/sigpool_tfm.h and sp_cpu / sp_cpus of
 * impls/common/sigpool_cpu.h as they are at this version, plus the tables below. A change to
 * any of them bumps the version.
 *
 * The contract of a pool (sigpool_ops; all six operations must be set):
 *   create(alg, scratch_size, &p)  slow path, may allocate and block. alg is a name sp_algs
 *        knows ("md5", "hmac(sha1)", ..., "cmac(aes128)"): set p->ops to the plug-in's own
 *        sigpool_ops and p->alg to host->alg_find(alg). 0, or -EINVAL (unknown algorithm),
 *        -ENOMEM, -ENOSYS.
 *   start(p, &h)  fast path, called from many threads at once: fill h.req with a request
 *        (host->req_alloc) on a transform of p->alg that no other holder uses until end(),
 *        h.scratch with >= scratch_size bytes that are this holder's alone until end(), h.cpu
 *        as the pool likes. The caller keys h.req (sp_setkey, every TCP-AO segment: a keyed
 *        transform must not be shared between holders), inits, updates and finals it. Never
 *        block; 0, or -ENOMEM only (the caller counts it and drops the segment).
 *   end(p, &h)    give back what start handed out. destroy(p) frees the pool.
 *   inject_alloc_failure / alloc_failures   the test hook and the count of fast-path
 *        allocations that failed; a pool whose fast path does not allocate ignores / says 0.
 * Transforms, requests and CPU slots come from the host table only: bench's suite hashes with
 * the request through its own copy of the crypto layer, so a plug-in must not link its own.
 *
 * Before a plug-in is timed, bench runs the suite's whole built-in known-answer self-test on it
 * in a child process (so a crash cannot take bench down): every algorithm of the grid (MD5,
 * HMAC and CMAC vectors of tests/vectors, RFC 9235 TCP-AO packets, Linux-signed TCP-MD5
 * packets), each record twice through one pool (a request handed out again must start clean);
 * it is refused, with the failing vector named, if one fails. Example: examples/sigpool_lazy/. */
#ifndef PATCHBENCH_SIGPOOL_PLUGIN_H
#define PATCHBENCH_SIGPOOL_PLUGIN_H

#include <stddef.h>

#include "common/sigpool.h"

#define PB_SIGPOOL_PLUGIN_ABI_VERSION 1u
#define PB_SIGPOOL_PLUGIN_ABI_SYMBOL "pb_sigpool_plugin_abi_version"
#define PB_SIGPOOL_PLUGIN_ENTRY_SYMBOL "pb_sigpool_plugin_entry"

/* What bench gives a plug-in: the crypto and CPU-slot layer old and new are built on (the
 * kernel-profile build bench's suite uses), and the two pools, to delegate to. Semantics as in
 * sigpool_tfm.h and sigpool_cpu.h. */
typedef struct pb_sigpool_host {
    unsigned abi_version;                                  /* PB_SIGPOOL_PLUGIN_ABI_VERSION */
    const sigpool_ops *pool_old;                           /* per-CPU requests */
    const sigpool_ops *pool_new;                           /* clone-tfm */
    const sp_alg *(*alg_find)(const char *name);           /* NULL: unknown */
    sp_tfm *(*tfm_alloc)(const sp_alg *alg, unsigned ncpu);   /* slow path; NULL on failure */
    sp_tfm *(*tfm_clone)(sp_tfm *t);                       /* crypto_clone_ahash; NULL on failure */
    void (*tfm_free)(sp_tfm *t);                           /* drop a reference */
    sp_req *(*req_alloc)(sp_tfm *t, unsigned cpu);         /* for use while slot `cpu` is held */
    void (*req_free)(sp_req *r);                           /* wipe and free; NULL is a no-op */
    int (*cpus_init)(sp_cpus *c, size_t scratch_size);     /* a slot per configured CPU; 0 or -ENOMEM */
    void (*cpus_fini)(sp_cpus *c);
    sp_cpu *(*bh_disable)(sp_cpus *c);                     /* take this CPU's slot (exclusive) */
    void (*bh_enable)(sp_cpu *cpu);
} pb_sigpool_host;

typedef struct pb_sigpool_plugin {
    unsigned abi_version;      /* PB_SIGPOOL_PLUGIN_ABI_VERSION, again */
    const sigpool_ops *ops;    /* name is for messages; bench times it as NAME */
} pb_sigpool_plugin;

typedef const pb_sigpool_plugin *(*pb_sigpool_plugin_entry_fn)(const pb_sigpool_host *host);

#endif
