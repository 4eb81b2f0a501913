/* SPDX-License-Identifier: GPL-2.0-only */
/* sigpool.h — the signature pool: what TCP-MD5 and TCP-AO use to hash a
 * segment in softirq context, where they must not sleep.
 *
 * Two implementations share this interface (the patch is the diff between
 * them):
 *   impls/old/sigpool.c  per-CPU requests: everything pre-allocated at
 *                        creation, one request per CPU; start() allocates
 *                        nothing.
 *   impls/new/sigpool.c  clone-tfm (tcp_sigpool, Linux 6.7): one transform
 *                        per algorithm, cloned on every start() together
 *                        with a fresh request.
 * A third can come from a shared object (bench run --suite sigpool --plugin;
 * this interface is version 1 of include/patchbench/sigpool_plugin.h).
 *
 * Life cycle:
 *   sigpool *p;  ops->create("hmac(sha1)", TCP_SIGPOOL_SCRATCH, &p)  slow path, may allocate
 *   sigpool_handle h;
 *   if (sigpool_start(p, &h) == 0) {                fast path
 *       sp_setkey(h.req, key, len);                 keyed algorithms (TCP-AO: per segment)
 *       sp_init(h.req); sp_update(h.req, ...); sp_final(h.req, out);
 *       ... h.scratch is this CPU's buffer ...
 *       sigpool_end(p, &h);
 *   }
 *   sigpool_destroy(p);
 *
 * Between start and end the caller holds its CPU's slot exclusively (the
 * kernel runs with bottom halves disabled): keep it short, never block.
 * start() fails only with -ENOMEM (clone-tfm's atomic allocations); the
 * caller counts that and drops the segment, as the kernel does. */
#ifndef PB_SIGPOOL_H
#define PB_SIGPOOL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "sigpool_cpu.h"
#include "sigpool_tfm.h"

/* Scratch each CPU needs: a TCP header with options (60 B), or the IPv6
 * pseudo-header plus the 20-byte base header for TCP-MD5 (40 + 20). */
#define TCP_SIGPOOL_SCRATCH 60

typedef struct sigpool_ops sigpool_ops;

/* Every pool starts with this; the rest is private to its implementation. */
typedef struct sigpool {
    const sigpool_ops *ops;
    const sp_alg *alg;
} sigpool;

/* One use of the pool, on the caller's stack (struct tcp_sigpool). */
typedef struct sigpool_handle {
    sp_req *req;      /* hash state; sp_setkey() keys its transform */
    void *scratch;    /* this CPU's scratch, >= the size given at creation */
    sp_cpu *cpu;      /* the CPU slot held until end() (pool-private) */
} sigpool_handle;

struct sigpool_ops {
    const char *name;                 /* "old", "new" */
    /* 0, or -EINVAL (unknown algorithm), -ENOMEM, -ENOSYS (libgcrypt refused). */
    int (*create)(const char *alg, size_t scratch_size, sigpool **out);
    void (*destroy)(sigpool *p);
    int (*start)(sigpool *p, sigpool_handle *h);
    void (*end)(sigpool *p, sigpool_handle *h);
    /* Test hook: make every n-th fast-path allocation fail (0 = never).
     * A pool whose fast path does not allocate ignores it. */
    void (*inject_alloc_failure)(sigpool *p, unsigned every_nth);
    /* Fast-path allocations that failed so far. */
    uint64_t (*alloc_failures)(const sigpool *p);
};

extern const sigpool_ops sigpool_old;   /* per-CPU requests */
extern const sigpool_ops sigpool_new;   /* clone-tfm */
/* The same two pools built with the native profile (scripts/native_copy.py: NAME_native),
 * for the code-generation cross-check: impls "old@native", "new@native". */
extern const sigpool_ops sigpool_old_native, sigpool_new_native;

/* The test hook behind inject_alloc_failure/alloc_failures, for a pool whose fast path
 * allocates ("GFP_ATOMIC"): every n-th fast-path allocation fails, and failed starts are
 * counted. Off (the benchmark), a check costs one relaxed load and no shared write. */
typedef struct sp_fail_hook {
    _Atomic unsigned every;            /* 0 = off */
    _Atomic uint64_t seq, failed;
} sp_fail_hook;

static inline void sp_fail_hook_set(sp_fail_hook *f, unsigned every_nth)
{
    atomic_store(&f->seq, 0);
    atomic_store(&f->every, every_nth);
}
/* Should this allocation fail? */
static inline int sp_fail_hook_fires(sp_fail_hook *f)
{
    unsigned every = atomic_load_explicit(&f->every, memory_order_relaxed);
    return every && (atomic_fetch_add(&f->seq, 1) + 1) % every == 0;
}
static inline void sp_fail_hook_count(sp_fail_hook *f) { atomic_fetch_add(&f->failed, 1); }
static inline uint64_t sp_fail_hook_failures(const sp_fail_hook *f)
{
    return atomic_load((_Atomic uint64_t *)&f->failed);
}

static inline int sigpool_start(sigpool *p, sigpool_handle *h) { return p->ops->start(p, h); }
static inline void sigpool_end(sigpool *p, sigpool_handle *h) { p->ops->end(p, h); }
static inline void sigpool_destroy(sigpool *p) { if (p) p->ops->destroy(p); }

#endif
