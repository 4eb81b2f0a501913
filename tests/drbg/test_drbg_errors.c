/* SPDX-License-Identifier: GPL-2.0-only */
/* test_drbg_errors.c — the DRBG's error paths and SP 800-90A bookkeeping, for
 * both backends and every mechanism: requests over the maximum are refused
 * (nothing written) and sliced by generate_long; use before instantiate or
 * after uninstantiate is refused; the reseed counter at its interval forces a
 * reseed through the entropy callback; prediction resistance pulls entropy on
 * every request; bad entropy and bad configurations are refused; uninstantiate
 * zeroizes every byte of the state. */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "common/drbg.h"
#include "pb.h"
#include "../lib/check.h"

/* Counting entropy source: a fixed stream; `fail` makes it fail, `short_by`
 * makes it return fewer bytes than asked. */
typedef struct source {
    pb_rng rng;
    int calls, fail;
    size_t short_by;
} source;

static long src_entropy(void *arg, uint8_t *buf, size_t min_len, size_t max_len)
{
    (void)max_len;
    source *s = arg;
    s->calls++;
    if (s->fail) return -1;
    pb_rng_bytes(&s->rng, buf, min_len);
    return (long)(min_len - s->short_by);
}

static const pb_drbg_backend *const backends[2] = { &pb_drbg_backend_old, &pb_drbg_backend_new };
static const char *const bk_names[2] = { "old", "new" };
static const uint8_t nonce[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };

static int inst(pb_drbg *d, int b, pb_drbg_mech mech, source *s, uint64_t interval, int pr)
{
    pb_drbg_config cfg;
    pb_drbg_config_init(&cfg, mech);
    cfg.entropy = src_entropy;
    cfg.entropy_arg = s;
    cfg.reseed_interval = interval;
    cfg.prediction_resistance = pr;
    memset(s, 0, sizeof *s);
    pb_rng_seed(&s->rng, 42);
    return pb_drbg_instantiate(d, backends[b], &cfg, nonce, sizeof nonce, NULL, 0);
}

static int all_zero(const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i]) return 0;
    return 1;
}

static void test_mech(int b, pb_drbg_mech mech)
{
    const char *name = pb_drbg_info_of(mech)->name;
    pb_drbg d;
    source s;
    static uint8_t out[PB_DRBG_MAX_REQUEST + 100], ref[PB_DRBG_MAX_REQUEST + 100];

    /* use before instantiate (zeroed state) and after uninstantiate */
    memset(&d, 0, sizeof d);
    CHECK(pb_drbg_generate(&d, out, 16, NULL, 0, 0) == PB_DRBG_ERR_STATE, "%s %s", bk_names[b], name);
    CHECK(pb_drbg_reseed(&d, NULL, 0) == PB_DRBG_ERR_STATE, "%s %s", bk_names[b], name);

    /* request over the maximum: refused, nothing written, instance still usable */
    assert(inst(&d, b, mech, &s, PB_DRBG_MAX_RESEED_INTERVAL, 1) == 0);
    memset(out, 0x5a, sizeof out);
    CHECK(pb_drbg_generate(&d, out, PB_DRBG_MAX_REQUEST + 1, NULL, 0, 0) == PB_DRBG_ERR_REQUEST, "%s %s",
          bk_names[b], name);
    CHECK(out[0] == 0x5a && out[PB_DRBG_MAX_REQUEST] == 0x5a, "%s %s: refused request wrote output", bk_names[b],
          name);
    CHECK(pb_drbg_generate(&d, out, 16, NULL, 0, 0) == PB_DRBG_OK, "%s %s", bk_names[b], name);
    pb_drbg_uninstantiate(&d);

    /* generate_long = the same requests issued one by one */
    size_t n = PB_DRBG_MAX_REQUEST + 77;
    assert(inst(&d, b, mech, &s, PB_DRBG_MAX_RESEED_INTERVAL, 1) == 0);
    CHECK(pb_drbg_generate_long(&d, out, n, (const uint8_t *)"ad", 2, 0) == PB_DRBG_OK, "%s %s", bk_names[b], name);
    pb_drbg_uninstantiate(&d);
    assert(inst(&d, b, mech, &s, PB_DRBG_MAX_RESEED_INTERVAL, 1) == 0);
    assert(pb_drbg_generate(&d, ref, PB_DRBG_MAX_REQUEST, (const uint8_t *)"ad", 2, 0) == 0);
    assert(pb_drbg_generate(&d, ref + PB_DRBG_MAX_REQUEST, 77, (const uint8_t *)"ad", 2, 0) == 0);
    CHECK(!memcmp(out, ref, n), "%s %s: generate_long differs from its slices", bk_names[b], name);
    pb_drbg_uninstantiate(&d);

    /* reseed counter at its limit: interval 3 -> requests 1..3 run, the 4th reseeds first */
    assert(inst(&d, b, mech, &s, 3, 1) == 0);
    CHECK(s.calls == 1 && d.reseed_ctr == 1, "%s %s: after instantiate", bk_names[b], name);
    for (int i = 0; i < 3; i++) assert(pb_drbg_generate(&d, out, 20, NULL, 0, 0) == 0);
    CHECK(s.calls == 1 && d.reseed_ctr == 4, "%s %s: no reseed before the limit", bk_names[b], name);
    assert(pb_drbg_generate(&d, out, 20, (const uint8_t *)"xy", 2, 0) == 0);
    CHECK(s.calls == 2 && d.reseed_ctr == 2, "%s %s: counter past the interval must reseed (calls %d, ctr %llu)",
          bk_names[b], name, s.calls, (unsigned long long)d.reseed_ctr);
    /* ... and that forced reseed is Reseed(addtl) followed by Generate(no addtl) */
    pb_drbg e;
    source s2;
    assert(inst(&e, b, mech, &s2, PB_DRBG_MAX_RESEED_INTERVAL, 1) == 0);
    for (int i = 0; i < 3; i++) assert(pb_drbg_generate(&e, ref, 20, NULL, 0, 0) == 0);
    assert(pb_drbg_reseed(&e, (const uint8_t *)"xy", 2) == 0);
    assert(pb_drbg_generate(&e, ref, 20, NULL, 0, 0) == 0);
    CHECK(!memcmp(out, ref, 20), "%s %s: automatic reseed differs from an explicit one", bk_names[b], name);
    pb_drbg_uninstantiate(&e);
    pb_drbg_uninstantiate(&d);

    /* prediction resistance: refused by an instance without it; else entropy on every request */
    assert(inst(&d, b, mech, &s, PB_DRBG_MAX_RESEED_INTERVAL, 0) == 0);
    CHECK(pb_drbg_generate(&d, out, 16, NULL, 0, 1) == PB_DRBG_ERR_NO_PR, "%s %s", bk_names[b], name);
    pb_drbg_uninstantiate(&d);
    assert(inst(&d, b, mech, &s, PB_DRBG_MAX_RESEED_INTERVAL, 1) == 0);
    for (int i = 0; i < 3; i++) assert(pb_drbg_generate(&d, out, 16, NULL, 0, 1) == 0);
    CHECK(s.calls == 4, "%s %s: 3 PR requests pulled %d entropy inputs", bk_names[b], name, s.calls - 1);
    /* entropy failure during a PR reseed: refused, state untouched and usable */
    uint8_t v_before[sizeof d.V];
    memcpy(v_before, d.V, sizeof v_before);
    s.fail = 1;
    CHECK(pb_drbg_generate(&d, out, 16, NULL, 0, 1) == PB_DRBG_ERR_ENTROPY, "%s %s", bk_names[b], name);
    CHECK(d.instantiated && !memcmp(v_before, d.V, sizeof v_before), "%s %s: failed reseed touched the state",
          bk_names[b], name);
    s.fail = 0;
    CHECK(pb_drbg_generate(&d, out, 16, NULL, 0, 0) == PB_DRBG_OK, "%s %s", bk_names[b], name);

    /* uninstantiate zeroizes every byte of the state (V, C/K, counters, backend slots) */
    CHECK(!all_zero(d.V, sizeof d.V) && !all_zero(d.C, sizeof d.C), "%s %s: live state is zero?", bk_names[b], name);
    pb_drbg_uninstantiate(&d);
    CHECK(all_zero(&d, sizeof d), "%s %s: state not zeroized by uninstantiate", bk_names[b], name);
    CHECK(pb_drbg_generate(&d, out, 16, NULL, 0, 0) == PB_DRBG_ERR_STATE, "%s %s", bk_names[b], name);
    pb_drbg_uninstantiate(&d); /* idempotent */

    /* entropy source failing or short at instantiate: refused, state zeroized */
    pb_drbg_config cfg;
    pb_drbg_config_init(&cfg, mech);
    cfg.entropy = src_entropy;
    cfg.entropy_arg = &s;
    memset(&s, 0, sizeof s);
    s.fail = 1;
    CHECK(pb_drbg_instantiate(&d, backends[b], &cfg, nonce, 16, NULL, 0) == PB_DRBG_ERR_ENTROPY, "%s %s",
          bk_names[b], name);
    CHECK(all_zero(&d, sizeof d), "%s %s: failed instantiate left state behind", bk_names[b], name);
    s.fail = 0;
    s.short_by = 1;
    CHECK(pb_drbg_instantiate(&d, backends[b], &cfg, nonce, 16, NULL, 0) == PB_DRBG_ERR_ENTROPY, "%s %s",
          bk_names[b], name);

    /* too long personalization / additional input */
    static uint8_t big[PB_DRBG_MAX_INPUT + 1];
    s.short_by = 0;
    CHECK(pb_drbg_instantiate(&d, backends[b], &cfg, nonce, 16, big, sizeof big) == PB_DRBG_ERR_INPUT_LEN, "%s %s",
          bk_names[b], name);
    assert(pb_drbg_instantiate(&d, backends[b], &cfg, nonce, 16, big, PB_DRBG_MAX_INPUT) == 0);
    CHECK(pb_drbg_generate(&d, out, 16, big, sizeof big, 0) == PB_DRBG_ERR_INPUT_LEN, "%s %s", bk_names[b], name);
    CHECK(pb_drbg_reseed(&d, big, sizeof big) == PB_DRBG_ERR_INPUT_LEN, "%s %s", bk_names[b], name);
    pb_drbg_uninstantiate(&d);

    /* bad configurations */
    cfg.reseed_interval = 0;
    CHECK(pb_drbg_instantiate(&d, backends[b], &cfg, nonce, 16, NULL, 0) == PB_DRBG_ERR_ARG, "%s %s", bk_names[b],
          name);
    cfg.reseed_interval = PB_DRBG_MAX_RESEED_INTERVAL + 1;
    CHECK(pb_drbg_instantiate(&d, backends[b], &cfg, nonce, 16, NULL, 0) == PB_DRBG_ERR_ARG, "%s %s", bk_names[b],
          name);
    cfg.reseed_interval = 1;
    cfg.max_request = PB_DRBG_MAX_REQUEST + 1;
    CHECK(pb_drbg_instantiate(&d, backends[b], &cfg, nonce, 16, NULL, 0) == PB_DRBG_ERR_ARG, "%s %s", bk_names[b],
          name);
    cfg.max_request = 100;
    cfg.use_df = 0;
    int is_ctr = pb_drbg_info_of(mech)->is_ctr;
    if (!is_ctr) {
        CHECK(pb_drbg_instantiate(&d, backends[b], &cfg, nonce, 16, NULL, 0) == PB_DRBG_ERR_ARG,
              "%s %s: only CTR_DRBG has a no-df form", bk_names[b], name);
    } else {
        /* no df: no nonce, input at most seedlen */
        size_t seedlen = pb_drbg_info_of(mech)->seedlen;
        CHECK(pb_drbg_instantiate(&d, backends[b], &cfg, nonce, 16, NULL, 0) == PB_DRBG_ERR_ARG, "%s %s: nonce",
              bk_names[b], name);
        CHECK(pb_drbg_instantiate(&d, backends[b], &cfg, NULL, 0, big, seedlen + 1) == PB_DRBG_ERR_INPUT_LEN, "%s %s",
              bk_names[b], name);
        assert(pb_drbg_instantiate(&d, backends[b], &cfg, NULL, 0, big, seedlen) == 0);
        CHECK(pb_drbg_generate(&d, out, 16, big, seedlen + 1, 0) == PB_DRBG_ERR_INPUT_LEN, "%s %s", bk_names[b], name);
        /* a smaller max_request is enforced too */
        CHECK(pb_drbg_generate(&d, out, 101, NULL, 0, 0) == PB_DRBG_ERR_REQUEST, "%s %s", bk_names[b], name);
        CHECK(pb_drbg_generate_long(&d, out, 301, NULL, 0, 0) == PB_DRBG_OK, "%s %s", bk_names[b], name);
        pb_drbg_uninstantiate(&d);
    }
}

/* pb_drbg_randomize (libgcrypt's gcry_randomize entry): in the instantiating process it is
 * generate_long, entropy untouched; in a forked child it reseeds first (one more entropy call)
 * and, as libgcrypt, again at every request; before instantiate it is refused. */
static void test_randomize(int b)
{
    pb_drbg d, twin;
    source s, st;
    uint8_t out[100], ref[100];
    CHECK(pb_drbg_randomize(&(pb_drbg){0}, out, sizeof out, NULL, 0) == PB_DRBG_ERR_STATE, "%s: before instantiate",
          bk_names[b]);
    CHECK(inst(&d, b, PB_DRBG_HASH_SHA256, &s, 1000, 0) == PB_DRBG_OK, "%s: instantiate", bk_names[b]);
    CHECK(inst(&twin, b, PB_DRBG_HASH_SHA256, &st, 1000, 0) == PB_DRBG_OK, "%s: instantiate", bk_names[b]);
    int calls = s.calls;
    CHECK(pb_drbg_randomize(&d, out, sizeof out, NULL, 0) == PB_DRBG_OK, "%s: randomize", bk_names[b]);
    CHECK(pb_drbg_generate_long(&twin, ref, sizeof ref, NULL, 0, 0) == PB_DRBG_OK, "%s: generate_long", bk_names[b]);
    CHECK(!memcmp(out, ref, sizeof out) && s.calls == calls, "%s: randomize is generate_long in its own process",
          bk_names[b]);
    d.seed_pid = -1;   /* as if forked: another process instantiated it */
    CHECK(pb_drbg_randomize(&d, out, sizeof out, NULL, 0) == PB_DRBG_OK && s.calls == calls + 1,
          "%s: a child reseeds first", bk_names[b]);
    CHECK(pb_drbg_generate_long(&twin, ref, sizeof ref, NULL, 0, 0) == PB_DRBG_OK && memcmp(out, ref, sizeof out),
          "%s: the reseeded output differs", bk_names[b]);
    CHECK(pb_drbg_randomize(&d, out, sizeof out, NULL, 0) == PB_DRBG_OK && s.calls == calls + 2,
          "%s: and again at the next request (libgcrypt keeps the instantiating pid)", bk_names[b]);
    pb_drbg_uninstantiate(&d);
    pb_drbg_uninstantiate(&twin);
}

int main(void)
{
    for (int b = 0; b < 2; b++) test_randomize(b);
    for (int b = 0; b < 2; b++)
        for (int m = 0; m < PB_DRBG_NMECH; m++) test_mech(b, (pb_drbg_mech)m);
    pb_drbg d;
    pb_drbg_config cfg;
    pb_drbg_config_init(&cfg, PB_DRBG_CTR_AES128);
    cfg.mech = PB_DRBG_NMECH;
    CHECK(pb_drbg_instantiate(&d, &pb_drbg_backend_new, &cfg, NULL, 0, NULL, 0) == PB_DRBG_ERR_ARG, "bad mechanism");
    for (int rc = 0; rc >= PB_DRBG_ERR_BACKEND; rc--)
        CHECK(strcmp(pb_drbg_strerror(rc), "unknown DRBG status"), "status %d has no message", rc);
    return check_summary();
}
