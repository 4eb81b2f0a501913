/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg.h — SP 800-90A DRBGs: CTR_DRBG AES-128/AES-256 (with and without the
 * derivation function), Hash_DRBG SHA-256 and HMAC_DRBG SHA-256.
 *
 * The DRBG state machines (drbg.c, drbg_ctr.c, drbg_hash.c, drbg_hmac.c) are
 * written once. What libgcrypt commit 20886fdc ("random: Add performance
 * improvements for the DRBG") changed is the primitive layer underneath them,
 * so that is the only thing that differs between the two backends:
 *   pb_drbg_backend_old  (impls/old/drbg_prim.c): a libgcrypt handle is opened,
 *                        keyed, used and closed for every hash, HMAC and AES block;
 *   pb_drbg_backend_new  (impls/new/drbg_prim.c): handles live from instantiate
 *                        to uninstantiate, setkey only when the DRBG made a new
 *                        key, CTR_DRBG output through libgcrypt's CTR mode.
 *
 * Life cycle:
 *   pb_drbg_config cfg;
 *   pb_drbg_config_init(&cfg, PB_DRBG_CTR_AES128);     // defaults: df, no PR, SP maxima
 *   cfg.entropy = pb_drbg_entropy_getrandom;             // or a test source
 *   pb_drbg d;
 *   rc = pb_drbg_instantiate(&d, &pb_drbg_backend_new, &cfg, nonce, nlen, pers, plen);
 *   rc = pb_drbg_generate(&d, out, n, addtl, alen, 0);   // n <= cfg.max_request
 *   rc = pb_drbg_reseed(&d, addtl, alen);
 *   pb_drbg_uninstantiate(&d);                           // closes handles, zeroizes all of d
 * Every function returns PB_DRBG_OK (0) or a negative pb_drbg_status;
 * pb_drbg_strerror() names it. A failed primitive (libgcrypt error) leaves the
 * instance uninstantiated and zeroized, never half updated.
 *
 * Entropy is pulled through a callback (instantiate, reseed, and every
 * generate that requests prediction resistance or finds the reseed counter
 * past the reseed interval — SP 800-90A §9.3.1 step 7 — reseeds itself).
 */
#ifndef PB_DRBG_H
#define PB_DRBG_H

#include <stddef.h>
#include <stdint.h>

typedef enum pb_drbg_mech {
    PB_DRBG_CTR_AES128,
    PB_DRBG_CTR_AES256,
    PB_DRBG_HASH_SHA256,
    PB_DRBG_HMAC_SHA256,
    PB_DRBG_NMECH
} pb_drbg_mech;

typedef enum pb_drbg_status {
    PB_DRBG_OK = 0,
    PB_DRBG_ERR_ARG = -1,          /* bad configuration or argument */
    PB_DRBG_ERR_STATE = -2,        /* not instantiated (or failed earlier) */
    PB_DRBG_ERR_REQUEST = -3,      /* more bytes than max_request in one generate */
    PB_DRBG_ERR_INPUT_LEN = -4,    /* personalization/additional input too long */
    PB_DRBG_ERR_ENTROPY = -5,      /* entropy source failed or gave a bad length */
    PB_DRBG_ERR_NO_PR = -6,        /* prediction resistance requested, instance lacks it */
    PB_DRBG_ERR_BACKEND = -7,      /* a libgcrypt call failed */
} pb_drbg_status;

/* Entropy source: write between min_len and max_len bytes of entropy to buf
 * and return how many, or -1 on failure. */
typedef long (*pb_drbg_entropy_fn)(void *arg, uint8_t *buf, size_t min_len, size_t max_len);

/* getrandom(2); writes min_len bytes. arg unused. */
long pb_drbg_entropy_getrandom(void *arg, uint8_t *buf, size_t min_len, size_t max_len);

#define PB_DRBG_MAX_REQUEST 65536u               /* SP 800-90A: 2^19 bits per generate */
#define PB_DRBG_MAX_RESEED_INTERVAL (1ull << 48) /* SP 800-90A: requests between reseeds */
#define PB_DRBG_MAX_INPUT 65536u   /* our cap on personalization / additional input (SP: 2^32 B) */
#define PB_DRBG_MAX_ENTROPY 128u   /* our cap on one entropy input */

typedef struct pb_drbg_config {
    pb_drbg_mech mech;
    int use_df;                   /* CTR_DRBG: 1 = Block_Cipher_df (default); 0 = none
                                     (entropy is exactly seedlen bytes, no nonce) */
    int prediction_resistance;    /* instance accepts prediction-resistance requests */
    uint64_t reseed_interval;     /* generate requests between reseeds, 1..2^48 */
    size_t max_request;           /* bytes per generate, 1..65536 */
    pb_drbg_entropy_fn entropy;
    void *entropy_arg;
    /* The libgcrypt functions of the build to run on (gcry_prims.h), for the copy behind
     * "old+gcrypt:NAME" / "new+gcrypt:NAME" (pb_drbg_build_prims), which fails to instantiate
     * without; NULL, and unused, in the builds that call the linked libgcrypt. */
    const void *prims;
} pb_drbg_config;

/* Defaults: derivation function on, prediction resistance allowed, SP 800-90A
 * maxima for the reseed interval and the request size, entropy from getrandom. */
void pb_drbg_config_init(pb_drbg_config *cfg, pb_drbg_mech mech);

/* Sizes of a mechanism, in bytes (SP 800-90A Table 2/3). */
typedef struct pb_drbg_info {
    const char *name;       /* "CTR_DRBG AES-128" */
    unsigned strength;      /* security strength: entropy bytes with a df */
    unsigned seedlen;       /* CTR: keylen+16; Hash: 55; HMAC: outlen (state V) */
    unsigned outlen;        /* block / digest length */
    unsigned keylen;        /* CTR: AES key; HMAC: K; Hash: 0 */
    int is_ctr, is_hash, is_hmac;
} pb_drbg_info;
const pb_drbg_info *pb_drbg_info_of(pb_drbg_mech mech);

#define PB_DRBG_MAX_SEEDLEN 55    /* Hash_DRBG SHA-256 */

typedef struct pb_drbg_backend pb_drbg_backend; /* drbg_backend.h */

/* Caller-allocated so that a test can look at every byte after uninstantiate. */
typedef struct pb_drbg {
    const pb_drbg_backend *bk;
    const pb_drbg_info *info;
    pb_drbg_mech mech;
    int instantiated, use_df, pr_capable;
    uint64_t reseed_ctr;          /* SP 800-90A reseed_counter: 1 after (re)seeding */
    uint64_t reseed_interval;
    size_t max_request;
    pb_drbg_entropy_fn entropy;
    void *entropy_arg;
    const void *prims;            /* cfg->prims */
    long seed_pid;                /* the process that instantiated it (pb_drbg_randomize's fork check) */
    uint8_t V[PB_DRBG_MAX_SEEDLEN];  /* CTR: 16 B counter (SP 800-90A's V, not V+1) */
    uint8_t C[PB_DRBG_MAX_SEEDLEN];  /* Hash: constant C; HMAC and CTR: the key K */
    uint8_t scratch[PB_DRBG_MAX_SEEDLEN]; /* Hash_DRBG hashgen's data counter */
    /* Owned by the backend: persistent libgcrypt handles (new) or the keys to
     * apply at every call (old). */
    struct {
        void *h[2];
        uint8_t key[3][32];
    } prim;
} pb_drbg;

int pb_drbg_instantiate(pb_drbg *d, const pb_drbg_backend *bk, const pb_drbg_config *cfg,
                        const uint8_t *nonce, size_t nonce_len, const uint8_t *pers, size_t pers_len);
int pb_drbg_reseed(pb_drbg *d, const uint8_t *addtl, size_t addtl_len);
/* One SP 800-90A generate request: n <= max_request, else PB_DRBG_ERR_REQUEST
 * (nothing is written). pr = 1 requests prediction resistance (reseeds first). */
int pb_drbg_generate(pb_drbg *d, uint8_t *out, size_t n, const uint8_t *addtl, size_t addtl_len, int pr);
/* Any n: sliced into requests of at most max_request bytes, each with the
 * same additional input and pr flag (as libgcrypt's drbg_generate_long). */
int pb_drbg_generate_long(pb_drbg *d, uint8_t *out, size_t n, const uint8_t *addtl, size_t addtl_len, int pr);
/* What libgcrypt's gcry_randomize runs around the state machine (_gcry_rngdrbg_randomize in
 * random-drbg.c, the same before and after the patch): its initialisation check under the RNG
 * lock, then under the lock again the fork check (getpid(): in another process than the one that
 * instantiated, reseed first), then generate_long without prediction resistance. The timed
 * request of the drbg suite's old and new, as the document's were gcry_randomize calls. */
int pb_drbg_randomize(pb_drbg *d, uint8_t *out, size_t n, const uint8_t *addtl, size_t addtl_len);
/* Closes the backend's handles and zeroizes every byte of *d. Idempotent. */
void pb_drbg_uninstantiate(pb_drbg *d);

const char *pb_drbg_strerror(int status);

/* The two backends (impls/old/drbg_prim.c, impls/new/drbg_prim.c). */
extern const pb_drbg_backend pb_drbg_backend_old;
extern const pb_drbg_backend pb_drbg_backend_new;

/* One build of the state machines and both backends (docs/build-profiles.md):
 * the libgcrypt profile, behind impls "old" and "new", and the same sources
 * built native for the code-generation cross-check, behind "old@native" and
 * "new@native" (every symbol renamed NAME_native by scripts/native_copy.py). An instance is
 * driven only through the build that instantiated it. */
typedef struct pb_drbg_build {
    int (*instantiate)(pb_drbg *d, const pb_drbg_backend *bk, const pb_drbg_config *cfg,
                       const uint8_t *nonce, size_t nonce_len, const uint8_t *pers, size_t pers_len);
    int (*reseed)(pb_drbg *d, const uint8_t *addtl, size_t addtl_len);
    int (*generate)(pb_drbg *d, uint8_t *out, size_t n, const uint8_t *addtl, size_t addtl_len, int pr);
    int (*generate_long)(pb_drbg *d, uint8_t *out, size_t n, const uint8_t *addtl, size_t addtl_len, int pr);
    void (*uninstantiate)(pb_drbg *d);
    int (*randomize)(pb_drbg *d, uint8_t *out, size_t n, const uint8_t *addtl, size_t addtl_len);
    const pb_drbg_backend *bk_old, *bk_new;
} pb_drbg_build;
extern const pb_drbg_build pb_drbg_build_faithful;   /* libgcrypt profile */
extern const pb_drbg_build pb_drbg_build_faithful_native;
/* The libgcrypt profile again, its libgcrypt calls through the instance's cfg->prims
 * (impls/prims_names.h): old and new on another libgcrypt build's primitives. */
extern const pb_drbg_build pb_drbg_build_prims;

#endif
