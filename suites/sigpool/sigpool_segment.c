/* SPDX-License-Identifier: GPL-2.0-only */
/* sigpool_segment.c — the `segment` op: N threads sign and verify segments
 * in memory through one pool, as fast as they can.
 *
 * setup_case creates the pool and N persistent worker threads (pinned one
 * per allowed CPU) parked on a condition variable, each with its own
 * connection (ports, ISNs, keys) and segment buffer. body(ctx, iters)
 * splits `iters` over the workers, wakes them and returns when all are
 * done; thread creation is never timed. One op = one segment signed, then
 * verified. A segment that fails to sign or verify (only with injected
 * allocation failures) is counted in error_count. */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sigpool_suite.h"

struct worker {
    pthread_t tid;
    struct seg_ctx *ctx;
    int cpu;                 /* -1: not pinned */
    sp_flow flow;
    uint8_t *rec;
    uint32_t seq, sne;
    uint32_t last_sne;       /* the SNE the last segment was signed with (seg_check) */
    uint64_t todo, errors;
    int started;
};

struct seg_ctx {
    sp_case_head head;
    sigpool *pool;
    int nthreads;
    struct worker *w;
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    uint64_t gen;            /* bumped by body: new work for every worker */
    int remaining, quit;
    uint64_t errors;         /* error_count */
    /* seg_check's: what the flows were made from, and the built-in pool they are checked with */
    char variant[PB_NAME_MAX];
    size_t payload;
    unsigned maclen;
    int ipv6;
    sigpool *ref_pool;
    sp_flow *ref_flow;
};

static void run_segments(struct worker *w, uint64_t n)
{
    const sp_flow *f = &w->flow;
    for (uint64_t i = 0; i < n; i++) {
        uint32_t seq = w->seq, sne = w->sne;
        w->seq += (uint32_t)f->payload;
        if (w->seq < seq) w->sne++;     /* the next segment starts past a wrap */
        if (sp_flow_sign(f, w->rec, seq, sne) || sp_flow_verify(f, w->rec, sne)) w->errors++;
        w->last_sne = sne;
    }
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct seg_ctx *c = w->ctx;
    if (w->cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(w->cpu, &set);
        pthread_setaffinity_np(pthread_self(), sizeof set, &set);   /* best effort */
    }
    uint64_t seen = 0;
    pthread_mutex_lock(&c->mu);
    for (;;) {
        while (c->gen == seen && !c->quit) pthread_cond_wait(&c->go, &c->mu);
        if (c->quit) break;
        seen = c->gen;
        uint64_t n = w->todo;
        pthread_mutex_unlock(&c->mu);
        run_segments(w, n);
        pthread_mutex_lock(&c->mu);
        if (--c->remaining == 0) pthread_cond_signal(&c->done);
    }
    pthread_mutex_unlock(&c->mu);
    return NULL;
}

static void seg_body(void *ctx, uint64_t iters)
{
    struct seg_ctx *c = ctx;
    pthread_mutex_lock(&c->mu);
    for (int i = 0; i < c->nthreads; i++)
        c->w[i].todo = iters / (uint64_t)c->nthreads + ((uint64_t)i < iters % (uint64_t)c->nthreads);
    c->remaining = c->nthreads;
    c->gen++;
    pthread_cond_broadcast(&c->go);
    while (c->remaining) pthread_cond_wait(&c->done, &c->mu);
    uint64_t errors = 0;
    for (int i = 0; i < c->nthreads; i++) errors += c->w[i].errors;
    c->errors = errors;
    pthread_mutex_unlock(&c->mu);
}

static void seg_free(void *ctx)
{
    struct seg_ctx *c = ctx;
    if (!c) return;
    pthread_mutex_lock(&c->mu);
    c->quit = 1;
    pthread_cond_broadcast(&c->go);
    pthread_mutex_unlock(&c->mu);
    for (int i = 0; i < c->nthreads; i++) {
        if (c->w[i].started) pthread_join(c->w[i].tid, NULL);
        free(c->w[i].rec);
    }
    free(c->w);
    free(c->ref_flow);
    if (c->ref_pool) sigpool_destroy(c->ref_pool);
    sigpool_destroy(c->pool);
    pthread_cond_destroy(&c->go);
    pthread_cond_destroy(&c->done);
    pthread_mutex_destroy(&c->mu);
    free(c);
}

/* The flow of worker i, as set up (its keys from its seed), over `pool`. */
static int flow_of(const struct seg_ctx *c, int i, sigpool *pool, sp_flow *f, pb_err *e)
{
    tcp_addrs a;
    sp_test_addrs(&a, c->ipv6);
    uint32_t isn = 0xfff00000u + (uint32_t)i * 0x1000u;
    return sp_flow_init(f, pool, &a, (uint16_t)(40000 + i), 179, isn, 0x12345678u * (uint32_t)(i + 1), c->payload, 1,
                        c->maclen, 0x5167u + (uint64_t)i, e);
}

/* A caged case's output after a sample: every worker's last segment must verify under the
 * built-in "old" pool's flow of the same keys (its KDF too, for TCP-AO): a plug-in that signs
 * wrong and verifies its own wrong signatures fails here. */
static int seg_check(void *ctx, pb_err *e)
{
    struct seg_ctx *c = ctx;
    if (!c->ref_flow) {
        const sigpool_ops *ref = sigpool_impls_ops("old");
        if (!ref) return pb_errf(e, "sigpool: no built-in pool to check against");
        if (!c->ref_pool && sp_pool_create(ref, c->variant, &c->ref_pool, e)) return -1;
        sp_flow *f = calloc((size_t)c->nthreads, sizeof *f);
        if (!f) return pb_errf(e, "sigpool: out of memory");
        for (int i = 0; i < c->nthreads; i++)
            if (flow_of(c, i, c->ref_pool, &f[i], e)) {
                free(f);
                return -1;
            }
        c->ref_flow = f;
    }
    for (int i = 0; i < c->nthreads; i++)
        if (c->w[i].todo && sp_flow_verify(&c->ref_flow[i], c->w[i].rec, c->w[i].last_sne))
            return pb_errf(e, "sigpool %s segment of %zu bytes: worker %d's last segment does not verify with the "
                              "built-in pool", c->variant, c->payload, i);
    return 0;
}

/* The CPUs this process may run on, in order; returns how many. */
static int allowed_cpus(int *cpus, int max)
{
    cpu_set_t set;
    int n = 0;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
    for (int i = 0; i < CPU_SETSIZE && n < max; i++)
        if (CPU_ISSET(i, &set)) cpus[n++] = i;
    return n;
}

int sp_segment_setup(const sp_opts *o, const pb_cell *cell, const sigpool_ops *ops, pb_case *pc, pb_err *e)
{
    int nthreads = o->threads;
    if (nthreads <= 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        nthreads = n > 0 ? (int)n : 1;
    }
    struct seg_ctx *c = calloc(1, sizeof *c);
    if (!c) return pb_errf(e, "sigpool: out of memory");
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->go, NULL);
    pthread_cond_init(&c->done, NULL);
    c->head.check = seg_check;
    snprintf(c->variant, sizeof c->variant, "%s", cell->variant);
    c->payload = cell->size_bytes;
    c->maclen = o->maclen;
    c->ipv6 = o->ipv6;
    c->w = calloc((size_t)nthreads, sizeof *c->w);
    if (!c->w) goto nomem;
    if (sp_pool_create(ops, cell->variant, &c->pool, e)) goto fail;

    int cpus[1024];
    int ncpus = allowed_cpus(cpus, 1024);
    tcp_addrs a;
    sp_test_addrs(&a, o->ipv6);
    for (int i = 0; i < nthreads; i++) {
        struct worker *w = &c->w[i];
        w->ctx = c;
        w->cpu = ncpus ? cpus[i % ncpus] : -1;
        /* one connection per thread; the first ISN puts a wrap of the
         * sequence space (SNE + 1) a few hundred segments ahead */
        uint32_t isn = 0xfff00000u + (uint32_t)i * 0x1000u;
        /* in memory: the payload as given, headers always with the timestamp
         * option (only the stream op follows the host's TCP options) */
        if (flow_of(c, i, c->pool, &w->flow, e)) goto fail;
        w->rec = malloc(sp_flow_reclen(&w->flow));
        if (!w->rec) goto nomem;
        pb_rng rng;
        pb_rng_seed(&rng, 1000 + (uint64_t)i);
        sp_flow_fill(&w->flow, w->rec, &rng);
        w->seq = isn + 1;
    }
    for (int i = 0; i < nthreads; i++) {
        if (pthread_create(&c->w[i].tid, NULL, worker_main, &c->w[i]) != 0) {
            c->nthreads = i;
            seg_free(c);
            return pb_errf(e, "sigpool: cannot start segment thread %d of %d", i + 1, nthreads);
        }
        c->w[i].started = 1;
        c->nthreads = i + 1;
    }
    /* after key derivation: the hook fails only fast-path allocations */
    if (o->fail_every) ops->inject_alloc_failure(c->pool, o->fail_every);
    pc->body = seg_body;
    pc->ctx = c;
    pc->free_ctx = seg_free;
    pc->error_count = &c->errors;
    return 0;
nomem:
    pb_errf(e, "sigpool: out of memory");
fail:
    c->nthreads = nthreads;     /* no thread started yet: seg_free only frees */
    seg_free(c);
    return -1;
}
