/* SPDX-License-Identifier: GPL-2.0-only */
/* Injected allocation failures in the clone-tfm pool (GFP_ATOMIC failing on
 * the fast path): every failure is reported to the caller and counted by
 * the pool, nothing crashes, the successful segments are still right and
 * results after the failures stop are right. The per-CPU pool has nothing
 * to fail. Also through the suite: an injected failure shows up in the
 * case's error_count, in both ops, and the stream does not hang. */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "common/gcrypt_init.h"
#include "sigpool_suite.h"

/* the suite's options object (suite.h), one for the whole test: options accumulate as on a command line */
static void *suite_opts;

extern const pb_suite pb_suite_sigpool;

#define NSEG 300

struct run {
    sigpool *p, *ref;
    const char *alg;
    int enomem, mismatches, errors;
};

/* Sign NSEG segments with p and compare each success with the reference pool. */
static void *sign_many(void *arg)
{
    struct run *r = arg;
    const sp_alg *alg = r->p->alg;
    tcp_addrs a;
    sp_test_addrs(&a, 0);
    tcp_hdr_spec hs = {.sport = 1, .dport = 2, .seq = 3, .ack = 4, .flags = TCP_FLAG_ACK,
                       .sig = alg->kind == SP_HASH ? TCP_SIG_MD5 : TCP_SIG_AO, .maclen = 12};
    uint8_t seg[60 + 256], tk[SP_MAX_DIGEST] = {7}, got[SP_MAX_DIGEST], want[SP_MAX_DIGEST];
    size_t hl = tcp_build_hdr(seg, &hs);
    pb_rng rng;
    pb_rng_seed(&rng, 42);
    for (int i = 0; i < NSEG; i++) {
        pb_rng_bytes(&rng, seg + hl, 256);
        int err, rerr;
        if (alg->kind == SP_HASH) {
            err = tcp_md5_hash(r->p, &a, seg, hl + 256, tk, 16, got);
            rerr = tcp_md5_hash(r->ref, &a, seg, hl + 256, tk, 16, want);
        } else {
            err = tcp_ao_hash(r->p, tk, alg->digest_len, (uint32_t)i, &a, seg, hl + 256, 0, got);
            rerr = tcp_ao_hash(r->ref, tk, alg->digest_len, (uint32_t)i, &a, seg, hl + 256, 0, want);
        }
        assert(rerr == 0);
        if (err == -ENOMEM) r->enomem++;
        else if (err) r->errors++;
        else if (memcmp(got, want, alg->kind == SP_HASH ? 16 : 12)) r->mismatches++;
    }
    return NULL;
}

static void pool_level(const char *alg, unsigned every, int nthreads)
{
    sigpool *p, *ref;
    assert(sigpool_new.create(alg, TCP_SIGPOOL_SCRATCH, &p) == 0);
    assert(sigpool_old.create(alg, TCP_SIGPOOL_SCRATCH, &ref) == 0);
    sigpool_new.inject_alloc_failure(p, every);
    struct run r[4];
    pthread_t t[4];
    for (int i = 0; i < nthreads; i++) {
        r[i] = (struct run){.p = p, .ref = ref, .alg = alg};
        assert(pthread_create(&t[i], NULL, sign_many, &r[i]) == 0);
    }
    int enomem = 0;
    for (int i = 0; i < nthreads; i++) {
        pthread_join(t[i], NULL);
        assert(r[i].errors == 0 && r[i].mismatches == 0);
        enomem += r[i].enomem;
    }
    uint64_t counted = sigpool_new.alloc_failures(p);
    printf("%s, every %u, %d thread(s): %d of %d starts failed, pool counted %llu\n", alg, every, nthreads, enomem,
           nthreads * NSEG, (unsigned long long)counted);
    assert(enomem > 0 && (uint64_t)enomem == counted);
    /* keyed: two allocations per start (clone, request), keyless: one */
    if (nthreads == 1 && strcmp(alg, "md5") == 0) assert(enomem == NSEG / (int)every);

    /* failures off: everything right again, nothing more counted */
    sigpool_new.inject_alloc_failure(p, 0);
    struct run after = {.p = p, .ref = ref, .alg = alg};
    sign_many(&after);
    assert(after.enomem == 0 && after.errors == 0 && after.mismatches == 0);
    assert(sigpool_new.alloc_failures(p) == counted);

    /* the per-CPU pool ignores the hook: nothing on its fast path allocates */
    sigpool_old.inject_alloc_failure(ref, 1);
    struct run old = {.p = ref, .ref = ref, .alg = alg};
    sign_many(&old);
    assert(old.enomem == 0 && sigpool_old.alloc_failures(ref) == 0);
    sigpool_destroy(p);
    sigpool_destroy(ref);
}

static void suite_level(const char *op, const char *impl, int expect_errors)
{
    const pb_suite *s = &pb_suite_sigpool;
    pb_cell cell = {.variant = "hmac(sha1)", .size_bytes = 512};
    snprintf(cell.op, sizeof cell.op, "%s", op);
    pb_case c;
    pb_err e = {{0}};
    if (s->setup_case(suite_opts, &cell, impl, &c, &e)) {
        fprintf(stderr, "setup %s %s: %s\n", op, impl, e.msg);
        assert(0);
    }
    c.body(c.ctx, 40);
    c.body(c.ctx, 40);
    uint64_t errors = c.error_count ? *c.error_count : 0;
    printf("suite %s/%s with --fail-alloc-every 4: error_count %llu\n", op, impl, (unsigned long long)errors);
    assert(expect_errors ? errors > 0 && errors <= 80 : errors == 0);
    c.free_ctx(c.ctx);
}

int main(void)
{
    suite_opts = pb_suite_opts_new(&pb_suite_sigpool, NULL);
    if (!suite_opts) return 1;
    assert(pb_gcrypt_init() == 0);
    pool_level("md5", 3, 1);
    pool_level("hmac(sha1)", 3, 1);
    pool_level("cmac(aes128)", 5, 1);
    pool_level("hmac(sha256)", 7, 4);

    pb_err e;
    assert(pb_suite_set_opt(&pb_suite_sigpool, suite_opts, "threads", "2", &e) == 1);
    assert(pb_suite_set_opt(&pb_suite_sigpool, suite_opts, "fail-alloc-every", "4", &e) == 1);
    suite_level("segment", "new", 1);
    suite_level("segment", "old", 0);
    suite_level("stream", "new", 1);
    suite_level("stream", "old", 0);
    printf("ok\n");
    return 0;
}
