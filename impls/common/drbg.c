/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg.c — the SP 800-90A envelope shared by all mechanisms (§9): checks,
 * entropy, reseed counter and interval, prediction resistance, zeroization. */
#include "drbg.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>
#include <sys/random.h>

#include "drbg_backend.h"
#include "drbg_mech.h"

static const pb_drbg_info infos[PB_DRBG_NMECH] = {
    [PB_DRBG_CTR_AES128] = { "CTR_DRBG AES-128", 16, 32, 16, 16, 1, 0, 0 },
    [PB_DRBG_CTR_AES256] = { "CTR_DRBG AES-256", 32, 48, 16, 32, 1, 0, 0 },
    [PB_DRBG_HASH_SHA256] = { "Hash_DRBG SHA-256", 32, 55, 32, 0, 0, 1, 0 },
    [PB_DRBG_HMAC_SHA256] = { "HMAC_DRBG SHA-256", 32, 32, 32, 32, 0, 0, 1 },
};

const pb_drbg_info *pb_drbg_info_of(pb_drbg_mech mech)
{
    return (unsigned)mech < PB_DRBG_NMECH ? &infos[mech] : NULL;
}

static const pb_drbg_mech_ops *ops_of(const pb_drbg *d)
{
    if (d->info->is_ctr) return &pb_drbg_ctr_ops;
    if (d->info->is_hash) return &pb_drbg_hash_ops;
    return &pb_drbg_hmac_ops;
}

long pb_drbg_entropy_getrandom(void *arg, uint8_t *buf, size_t min_len, size_t max_len)
{
    (void)arg;
    (void)max_len;
    size_t got = 0;
    while (got < min_len) {
        ssize_t r = getrandom(buf + got, min_len - got, 0);
        if (r < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        got += (size_t)r;
    }
    return (long)got;
}

void pb_drbg_config_init(pb_drbg_config *cfg, pb_drbg_mech mech)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->mech = mech;
    cfg->use_df = 1;
    cfg->prediction_resistance = 1;
    cfg->reseed_interval = PB_DRBG_MAX_RESEED_INTERVAL;
    cfg->max_request = PB_DRBG_MAX_REQUEST;
    cfg->entropy = pb_drbg_entropy_getrandom;
}

const char *pb_drbg_strerror(int status)
{
    switch (status) {
    case PB_DRBG_OK: return "success";
    case PB_DRBG_ERR_ARG: return "invalid argument or configuration";
    case PB_DRBG_ERR_STATE: return "DRBG is not instantiated";
    case PB_DRBG_ERR_REQUEST: return "request exceeds the maximum number of bytes per generate";
    case PB_DRBG_ERR_INPUT_LEN: return "personalization string or additional input too long";
    case PB_DRBG_ERR_ENTROPY: return "entropy source failed or returned a bad length";
    case PB_DRBG_ERR_NO_PR: return "prediction resistance requested from an instance without it";
    case PB_DRBG_ERR_BACKEND: return "libgcrypt primitive failed";
    default: return "unknown DRBG status";
    }
}

/* Without a derivation function the seed material is entropy XOR input,
 * so the input may be at most seedlen bytes (SP 800-90A §10.2.1.3.1). */
static size_t max_input(const pb_drbg *d)
{
    return d->info->is_ctr && !d->use_df ? d->info->seedlen : PB_DRBG_MAX_INPUT;
}

/* Entropy input: security strength with a df, exactly seedlen without. */
static long get_entropy(pb_drbg *d, uint8_t buf[PB_DRBG_MAX_ENTROPY])
{
    size_t min = d->info->strength, max = PB_DRBG_MAX_ENTROPY;
    if (d->info->is_ctr && !d->use_df) min = max = d->info->seedlen;
    long n = d->entropy(d->entropy_arg, buf, min, max);
    if (n < (long)min || n > (long)max) return PB_DRBG_ERR_ENTROPY;
    return n;
}

/* A failed primitive leaves nothing half updated behind: zeroize and require
 * a new instantiate. */
static int fail(pb_drbg *d, int rc)
{
    pb_drbg_uninstantiate(d);
    return rc;
}

int pb_drbg_instantiate(pb_drbg *d, const pb_drbg_backend *bk, const pb_drbg_config *cfg,
                        const uint8_t *nonce, size_t nonce_len, const uint8_t *pers, size_t pers_len)
{
    memset(d, 0, sizeof *d);
    if (!bk || !cfg || !cfg->entropy || !pb_drbg_info_of(cfg->mech)) return PB_DRBG_ERR_ARG;
    d->info = pb_drbg_info_of(cfg->mech);
    if (!cfg->use_df && !d->info->is_ctr) return PB_DRBG_ERR_ARG; /* only CTR_DRBG has a no-df form */
    if (cfg->reseed_interval < 1 || cfg->reseed_interval > PB_DRBG_MAX_RESEED_INTERVAL) return PB_DRBG_ERR_ARG;
    if (cfg->max_request < 1 || cfg->max_request > PB_DRBG_MAX_REQUEST) return PB_DRBG_ERR_ARG;
    d->bk = bk;
    d->mech = cfg->mech;
    d->use_df = cfg->use_df;
    d->pr_capable = cfg->prediction_resistance;
    d->reseed_interval = cfg->reseed_interval;
    d->max_request = cfg->max_request;
    d->entropy = cfg->entropy;
    d->entropy_arg = cfg->entropy_arg;
    d->prims = cfg->prims;
    if (d->info->is_ctr && !d->use_df && nonce_len) return fail(d, PB_DRBG_ERR_ARG); /* no nonce without df */
    if (pers_len > max_input(d) || nonce_len > PB_DRBG_MAX_INPUT) return fail(d, PB_DRBG_ERR_INPUT_LEN);

    uint8_t ent[PB_DRBG_MAX_ENTROPY];
    long n = get_entropy(d, ent);
    if (n < 0) return fail(d, (int)n);
    if (bk->init(d)) return fail(d, PB_DRBG_ERR_BACKEND);
    pb_drbg_part seed[3] = { { ent, (size_t)n }, { nonce, nonce_len }, { pers, pers_len } };
    int rc = ops_of(d)->instantiate(d, seed);
    explicit_bzero(ent, sizeof ent);
    if (rc) return fail(d, PB_DRBG_ERR_BACKEND);
    d->reseed_ctr = 1;
    d->instantiated = 1;
    d->seed_pid = (long)getpid();
    return PB_DRBG_OK;
}

static int reseed(pb_drbg *d, const uint8_t *addtl, size_t addtl_len)
{
    uint8_t ent[PB_DRBG_MAX_ENTROPY];
    long n = get_entropy(d, ent);
    if (n < 0) return (int)n; /* the state is untouched: the caller may retry */
    pb_drbg_part seed[2] = { { ent, (size_t)n }, { addtl, addtl_len } };
    int rc = ops_of(d)->reseed(d, seed);
    explicit_bzero(ent, sizeof ent);
    if (rc) return fail(d, PB_DRBG_ERR_BACKEND);
    d->reseed_ctr = 1;
    return PB_DRBG_OK;
}

int pb_drbg_reseed(pb_drbg *d, const uint8_t *addtl, size_t addtl_len)
{
    if (!d->instantiated) return PB_DRBG_ERR_STATE;
    if (addtl_len > max_input(d)) return PB_DRBG_ERR_INPUT_LEN;
    return reseed(d, addtl, addtl_len);
}

int pb_drbg_generate(pb_drbg *d, uint8_t *out, size_t n, const uint8_t *addtl, size_t addtl_len, int pr)
{
    if (!d->instantiated) return PB_DRBG_ERR_STATE;
    if (n > d->max_request) return PB_DRBG_ERR_REQUEST;
    if (addtl_len > max_input(d)) return PB_DRBG_ERR_INPUT_LEN;
    if (pr && !d->pr_capable) return PB_DRBG_ERR_NO_PR;
    /* §9.3.1: a prediction-resistance request, or a counter past the interval,
     * reseeds first; the additional input then went into the reseed. */
    if (pr || d->reseed_ctr > d->reseed_interval) {
        int rc = reseed(d, addtl, addtl_len);
        if (rc) return rc;
        addtl = NULL;
        addtl_len = 0;
    }
    if (ops_of(d)->generate(d, out, n, addtl, addtl_len)) return fail(d, PB_DRBG_ERR_BACKEND);
    d->reseed_ctr++;
    return PB_DRBG_OK;
}

int pb_drbg_generate_long(pb_drbg *d, uint8_t *out, size_t n, const uint8_t *addtl, size_t addtl_len, int pr)
{
    if (!d->instantiated) return PB_DRBG_ERR_STATE;
    do {
        size_t chunk = n < d->max_request ? n : d->max_request;
        int rc = pb_drbg_generate(d, out, chunk, addtl, addtl_len, pr);
        if (rc) return rc;
        out += chunk;
        n -= chunk;
    } while (n);
    return PB_DRBG_OK;
}

/* libgcrypt's one RNG lock (drbg_lock_var, a gpgrt lock: a pthread mutex on Linux); one per copy
 * of these sources, as each copy models one libgcrypt. */
static pthread_mutex_t rng_lock = PTHREAD_MUTEX_INITIALIZER;

int pb_drbg_randomize(pb_drbg *d, uint8_t *out, size_t n, const uint8_t *addtl, size_t addtl_len)
{
    /* _gcry_rngdrbg_inititialize(1): is there a DRBG, under the lock */
    pthread_mutex_lock(&rng_lock);
    int instantiated = d->instantiated;
    pthread_mutex_unlock(&rng_lock);
    if (!instantiated) return PB_DRBG_ERR_STATE;
    pthread_mutex_lock(&rng_lock);
    int rc = PB_DRBG_OK;
    /* a child of the process that instantiated reseeds; like libgcrypt, the pid is not updated
     * then, so there every request reseeds (the cage sets up in the process that times) */
    if (d->seed_pid != (long)getpid()) rc = pb_drbg_reseed(d, NULL, 0);
    if (rc == PB_DRBG_OK) rc = pb_drbg_generate_long(d, out, n, addtl, addtl_len, 0);
    pthread_mutex_unlock(&rng_lock);
    return rc;
}

void pb_drbg_uninstantiate(pb_drbg *d)
{
    if (d->bk && d->bk->fini) d->bk->fini(d);
    explicit_bzero(d, sizeof *d);
}

/* This build's entry points; in the native copy it and every name below become NAME_native
 * (scripts/native_copy.py): pb_drbg_build_faithful_native. */
const pb_drbg_build pb_drbg_build_faithful = {
    pb_drbg_instantiate, pb_drbg_reseed, pb_drbg_generate, pb_drbg_generate_long, pb_drbg_uninstantiate,
    pb_drbg_randomize, &pb_drbg_backend_old, &pb_drbg_backend_new,
};
