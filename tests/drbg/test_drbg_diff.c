/* SPDX-License-Identifier: GPL-2.0-only */
/* test_drbg_diff.c — differential test: for identical seeds the old and the new
 * backend produce identical output over random sequences of operations
 * (request sizes 1..70000 bytes, including non-multiples of 16 and requests
 * sliced by generate_long; with and without additional input; explicit
 * reseeds; prediction-resistance requests; automatic reseeds at a short
 * reseed interval), for every mechanism with and without df. OpenSSL's
 * EVP_RAND, seeded with the same bytes through a TEST-RAND parent, runs the
 * same sequence as an independent third opinion (not with the short reseed
 * interval, whose automatic reseeds OpenSSL counts differently).
 * Both builds (libgcrypt profile and native) run the whole sequence.
 * Deterministic: fixed seeds. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/drbg.h"
#include "pb.h"
#include "peers/drbg_peers.h"

#define MAX_LEN 70000
#define STEPS 60

/* Entropy for old and new: the same xoshiro stream, so both pull the same
 * bytes in the same order whenever they reseed. */
static long tape_entropy(void *arg, uint8_t *buf, size_t min_len, size_t max_len)
{
    (void)max_len;
    pb_rng_bytes(arg, buf, min_len);
    return (long)min_len;
}

static size_t pick_size(pb_rng *r)
{
    uint64_t x = pb_rng_next(r), k = x % 100;
    x >>= 8;
    if (k < 50) return 1 + x % 64;
    if (k < 80) return 65 + x % 4136;
    if (k < 95) return 4201 + x % 15800;
    return PB_DRBG_MAX_REQUEST + 1 + x % (MAX_LEN - PB_DRBG_MAX_REQUEST);
}

/* Additional input / personalization: empty half of the time. */
static size_t pick_input(pb_rng *r, uint8_t *buf, size_t max)
{
    uint64_t x = pb_rng_next(r);
    size_t n = x & 1 ? 0 : 1 + (x >> 8) % max;
    pb_rng_bytes(r, buf, n);
    return n;
}

static int failures;

static void check_same(const char *what, const uint8_t *a, const uint8_t *b, size_t n, const char *ctx, int step)
{
    if (memcmp(a, b, n)) {
        fprintf(stderr, "FAIL %s: step %d: %s differ (%zu bytes)\n", ctx, step, what, n);
        failures++;
    }
}

/* The build under test: the libgcrypt profile, then the native one. */
static const pb_drbg_build *B;

static void run(pb_drbg_mech mech, int use_df, uint64_t reseed_interval, uint64_t seed)
{
    const pb_drbg_info *info = pb_drbg_info_of(mech);
    char ctx[96];
    snprintf(ctx, sizeof ctx, "%s%s interval %llu seed %llu", info->name, use_df ? "" : " no df",
             (unsigned long long)reseed_interval, (unsigned long long)seed);
    int with_ossl = reseed_interval == PB_DRBG_MAX_RESEED_INTERVAL;
    size_t entlen = use_df ? info->strength : info->seedlen;
    size_t max_in = use_df ? 100 : info->seedlen;

    pb_rng ops, tape_old, tape_new, tape_ossl;
    pb_rng_seed(&ops, seed);
    pb_rng_seed(&tape_old, seed ^ 0xe17);
    pb_rng_seed(&tape_new, seed ^ 0xe17);
    pb_rng_seed(&tape_ossl, seed ^ 0xe17);

    pb_drbg_config cfg;
    pb_drbg_config_init(&cfg, mech);
    cfg.use_df = use_df;
    cfg.reseed_interval = reseed_interval;
    cfg.entropy = tape_entropy;
    uint8_t nonce[16], pers[100], addtl[100], ent[64];
    size_t nonce_len = use_df ? sizeof nonce : 0;
    pb_rng_bytes(&ops, nonce, nonce_len);
    size_t pers_len = pick_input(&ops, pers, max_in);

    pb_drbg d_old, d_new;
    cfg.entropy_arg = &tape_old;
    assert(B->instantiate(&d_old, B->bk_old, &cfg, nonce, nonce_len, pers, pers_len) == 0);
    cfg.entropy_arg = &tape_new;
    assert(B->instantiate(&d_new, B->bk_new, &cfg, nonce, nonce_len, pers, pers_len) == 0);
    pb_drbg_ossl *o = NULL;
    if (with_ossl) {
        const char *why;
        pb_rng_bytes(&tape_ossl, ent, entlen);
        o = pb_drbg_ossl_new_test(mech, use_df, ent, entlen, nonce, nonce_len, pers, pers_len, &why);
        if (!o) {
            fprintf(stderr, "FAIL %s: OpenSSL test instance: %s\n", ctx, why);
            failures++;
        }
    }

    uint8_t *a = malloc(MAX_LEN), *b = malloc(MAX_LEN), *c = malloc(MAX_LEN);
    assert(a && b && c);
    int reseeds = 0, prs = 0, longs = 0;
    for (int step = 0; step < STEPS; step++) {
        uint64_t kind = pb_rng_next(&ops) % 100;
        size_t alen = pick_input(&ops, addtl, max_in);
        if (kind < 10) { /* explicit reseed */
            reseeds++;
            assert(B->reseed(&d_old, addtl, alen) == 0);
            assert(B->reseed(&d_new, addtl, alen) == 0);
            if (o) {
                pb_rng_bytes(&tape_ossl, ent, entlen);
                if (pb_drbg_ossl_feed(o, ent, entlen) || pb_drbg_ossl_reseed(o, addtl, alen)) {
                    fprintf(stderr, "FAIL %s: step %d: OpenSSL reseed failed\n", ctx, step);
                    failures++;
                }
            }
            continue;
        }
        int pr = kind < 25;
        prs += pr;
        size_t n = pick_size(&ops);
        longs += n > PB_DRBG_MAX_REQUEST;
        memset(a, 0xaa, n);
        memset(b, 0x55, n);
        assert(B->generate_long(&d_old, a, n, addtl, alen, pr) == 0);
        assert(B->generate_long(&d_new, b, n, addtl, alen, pr) == 0);
        check_same("old and new output", a, b, n, ctx, step);
        if (o) {
            int rc = 0;
            /* sliced like generate_long; a fresh entropy input per PR request */
            for (size_t off = 0; off < n && !rc;) {
                size_t k = n - off < PB_DRBG_MAX_REQUEST ? n - off : PB_DRBG_MAX_REQUEST;
                if (pr) {
                    pb_rng_bytes(&tape_ossl, ent, entlen);
                    rc = pb_drbg_ossl_feed(o, ent, entlen);
                }
                rc = rc || pb_drbg_ossl_generate(o, c + off, k, addtl, alen, pr);
                off += k;
            }
            if (rc) {
                fprintf(stderr, "FAIL %s: step %d: OpenSSL generate failed\n", ctx, step);
                failures++;
            } else {
                check_same("new and OpenSSL output", b, c, n, ctx, step);
            }
        }
    }
    /* the state itself, not only the output, is the same */
    check_same("V", d_old.V, d_new.V, sizeof d_old.V, ctx, STEPS);
    check_same("C/K", d_old.C, d_new.C, sizeof d_old.C, ctx, STEPS);
    if (d_old.reseed_ctr != d_new.reseed_ctr) {
        fprintf(stderr, "FAIL %s: reseed counters differ\n", ctx);
        failures++;
    }
    printf("ok %s: %d steps (%d reseeds, %d prediction-resistance requests, %d sliced)%s\n", ctx, STEPS, reseeds,
           prs, longs, o ? ", OpenSSL agrees" : "");
    B->uninstantiate(&d_old);
    B->uninstantiate(&d_new);
    pb_drbg_ossl_free(o);
    free(a);
    free(b);
    free(c);
}

int main(void)
{
    static const struct { pb_drbg_mech mech; int use_df; } configs[] = {
        { PB_DRBG_CTR_AES128, 1 }, { PB_DRBG_CTR_AES128, 0 }, { PB_DRBG_CTR_AES256, 1 },
        { PB_DRBG_CTR_AES256, 0 }, { PB_DRBG_HASH_SHA256, 1 }, { PB_DRBG_HMAC_SHA256, 1 },
    };
    static const pb_drbg_build *const builds[] = { &pb_drbg_build_faithful, &pb_drbg_build_faithful_native };
    for (size_t b = 0; b < 2; b++) {
        B = builds[b];
        for (size_t i = 0; i < sizeof configs / sizeof configs[0]; i++)
            for (uint64_t seed = 1; seed <= 2; seed++) {
                run(configs[i].mech, configs[i].use_df, PB_DRBG_MAX_RESEED_INTERVAL, seed * 1000 + i);
                run(configs[i].mech, configs[i].use_df, 5, seed * 1000 + i + 100);
            }
    }
    if (failures) fprintf(stderr, "%d failures\n", failures);
    return failures ? 1 : 0;
}
