/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg_openssl.c — OpenSSL 3 EVP_RAND DRBGs as a peer of old/new. */
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <stdlib.h>

#include "peers/drbg_peers.h"

struct pb_drbg_ossl {
    EVP_RAND_CTX *parent, *drbg;
    unsigned strength; /* bits */
    int test;          /* parent is TEST-RAND */
};

void pb_drbg_ossl_free(pb_drbg_ossl *o)
{
    if (!o) return;
    EVP_RAND_CTX_free(o->drbg);
    EVP_RAND_CTX_free(o->parent);
    free(o);
}

/* Parent: "SEED-SRC" (the system) or "TEST-RAND" with the given entropy/nonce. */
static EVP_RAND_CTX *parent_new(const uint8_t *entropy, size_t entropy_len, const uint8_t *nonce,
                                size_t nonce_len)
{
    int test = entropy != NULL;
    EVP_RAND *r = EVP_RAND_fetch(NULL, test ? "TEST-RAND" : "SEED-SRC", NULL);
    if (!r) return NULL;
    EVP_RAND_CTX *p = EVP_RAND_CTX_new(r, NULL);
    EVP_RAND_free(r);
    if (!p) return NULL;
    unsigned strength = 256;
    OSSL_PARAM params[4], *q = params;
    if (test) {
        *q++ = OSSL_PARAM_construct_uint(OSSL_RAND_PARAM_STRENGTH, &strength);
        *q++ = OSSL_PARAM_construct_octet_string(OSSL_RAND_PARAM_TEST_ENTROPY, (void *)entropy, entropy_len);
        if (nonce_len) *q++ = OSSL_PARAM_construct_octet_string(OSSL_RAND_PARAM_TEST_NONCE, (void *)nonce, nonce_len);
    }
    *q = OSSL_PARAM_construct_end();
    if (!EVP_RAND_instantiate(p, strength, 0, NULL, 0, params)) {
        EVP_RAND_CTX_free(p);
        return NULL;
    }
    return p;
}

static pb_drbg_ossl *create(pb_drbg_mech mech, int use_df, const uint8_t *entropy, size_t entropy_len,
                            const uint8_t *nonce, size_t nonce_len, const uint8_t *pers, size_t pers_len,
                            const char **why)
{
    static const char *const names[PB_DRBG_NMECH] = { "CTR-DRBG", "CTR-DRBG", "HASH-DRBG", "HMAC-DRBG" };
    *why = "invalid mechanism";
    if ((unsigned)mech >= PB_DRBG_NMECH) return NULL;
    pb_drbg_ossl *o = calloc(1, sizeof *o);
    if (!o) return *why = "out of memory", NULL;
    o->strength = mech == PB_DRBG_CTR_AES128 ? 128 : 256;
    o->test = entropy != NULL;
    *why = "cannot create the seed source parent";
    if (!(o->parent = parent_new(entropy, entropy_len, nonce, nonce_len))) goto err;
    *why = "EVP_RAND_fetch of the DRBG failed";
    EVP_RAND *r = EVP_RAND_fetch(NULL, names[mech], NULL);
    if (!r) goto err;
    o->drbg = EVP_RAND_CTX_new(r, o->parent);
    EVP_RAND_free(r);
    if (!o->drbg) goto err;

    int df = use_df;
    unsigned zero = 0;
    time_t no_time = 0;
    OSSL_PARAM params[6], *q = params;
    switch (mech) {
    case PB_DRBG_CTR_AES128:
    case PB_DRBG_CTR_AES256:
        *q++ = OSSL_PARAM_construct_utf8_string(OSSL_DRBG_PARAM_CIPHER,
                                                mech == PB_DRBG_CTR_AES128 ? "AES-128-CTR" : "AES-256-CTR", 0);
        *q++ = OSSL_PARAM_construct_int(OSSL_DRBG_PARAM_USE_DF, &df);
        break;
    case PB_DRBG_HASH_SHA256:
        *q++ = OSSL_PARAM_construct_utf8_string(OSSL_DRBG_PARAM_DIGEST, "SHA256", 0);
        break;
    case PB_DRBG_HMAC_SHA256:
        *q++ = OSSL_PARAM_construct_utf8_string(OSSL_DRBG_PARAM_MAC, "HMAC", 0);
        *q++ = OSSL_PARAM_construct_utf8_string(OSSL_DRBG_PARAM_DIGEST, "SHA256", 0);
        break;
    default:
        break;
    }
    /* No automatic reseeding (0 disables): old/new reseed only after 2^48 requests. */
    *q++ = OSSL_PARAM_construct_uint(OSSL_DRBG_PARAM_RESEED_REQUESTS, &zero);
    *q++ = OSSL_PARAM_construct_time_t(OSSL_DRBG_PARAM_RESEED_TIME_INTERVAL, &no_time);
    *q = OSSL_PARAM_construct_end();
    *why = "setting the DRBG parameters failed";
    if (!EVP_RAND_CTX_set_params(o->drbg, params)) goto err;
    *why = "EVP_RAND_instantiate failed";
    if (!EVP_RAND_instantiate(o->drbg, o->strength, 0, pers, pers_len, NULL)) goto err;
    *why = NULL;
    return o;
err:
    pb_drbg_ossl_free(o);
    return NULL;
}

pb_drbg_ossl *pb_drbg_ossl_new(pb_drbg_mech mech, const uint8_t *pers, size_t pers_len, const char **why)
{
    return create(mech, 1, NULL, 0, NULL, 0, pers, pers_len, why);
}

pb_drbg_ossl *pb_drbg_ossl_new_test(pb_drbg_mech mech, int use_df, const uint8_t *entropy, size_t entropy_len,
                                    const uint8_t *nonce, size_t nonce_len, const uint8_t *pers, size_t pers_len,
                                    const char **why)
{
    if (!entropy) return *why = "no test entropy given", NULL;
    return create(mech, use_df, entropy, entropy_len, nonce, nonce_len, pers, pers_len, why);
}

int pb_drbg_ossl_feed(pb_drbg_ossl *o, const uint8_t *entropy, size_t entropy_len)
{
    if (!o->test) return -1;
    OSSL_PARAM params[2] = {
        OSSL_PARAM_construct_octet_string(OSSL_RAND_PARAM_TEST_ENTROPY, (void *)entropy, entropy_len),
        OSSL_PARAM_construct_end(),
    };
    return EVP_RAND_CTX_set_params(o->parent, params) ? 0 : -1;
}

int pb_drbg_ossl_reseed(pb_drbg_ossl *o, const uint8_t *addtl, size_t addtl_len)
{
    return EVP_RAND_reseed(o->drbg, 0, NULL, 0, addtl, addtl_len) ? 0 : -1;
}

int pb_drbg_ossl_generate(pb_drbg_ossl *o, uint8_t *out, size_t n, const uint8_t *addtl, size_t addtl_len, int pr)
{
    return EVP_RAND_generate(o->drbg, out, n, o->strength, pr, addtl, addtl_len) ? 0 : -1;
}
