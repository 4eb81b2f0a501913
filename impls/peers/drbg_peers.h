/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg_peers.h — the DRBGs of the crypto libraries, measured beside old/new.
 *
 * gcrypt:  libgcrypt's own SP 800-90A DRBG (random/random-drbg.c, which has the
 *          2016 patch and later work). It is a process-wide singleton behind
 *          gcry_randomize(); it only exists when the FIPS RNG type was selected
 *          before gcry_check_version (pb_gcrypt_init does that). It seeds itself
 *          from the system and cannot be given test entropy through the public
 *          API, and gcry_randomize takes no additional input.
 * openssl: OpenSSL 3's EVP_RAND CTR-DRBG / HASH-DRBG / HMAC-DRBG, one private
 *          instance per context. Seeded either from the system (a SEED-SRC
 *          parent, for benchmarks) or deterministically from given bytes (a
 *          TEST-RAND parent, for the known-answer tests).
 */
#ifndef PB_DRBG_PEERS_H
#define PB_DRBG_PEERS_H

#include <stddef.h>
#include <stdint.h>

#include "common/drbg.h"

/* ---- libgcrypt's DRBG (global) ---- */

/* The GCRYCTL_DRBG_REINIT flag string of a mechanism ("aes sym128", ...). */
const char *pb_drbg_gcrypt_flags(pb_drbg_mech mech);
/* Re-instantiate libgcrypt's DRBG as `mech`. 0, or -1 with a reason in why. */
int pb_drbg_gcrypt_reinit(pb_drbg_mech mech, const char **why);
/* The mechanism of the last successful reinit through this module, or -1. */
int pb_drbg_gcrypt_current(void);
/* gcry_randomize(out, n, GCRY_STRONG_RANDOM) from the current DRBG. */
void pb_drbg_gcrypt_generate(uint8_t *out, size_t n);

/* ---- OpenSSL EVP_RAND ---- */

typedef struct pb_drbg_ossl pb_drbg_ossl;

/* Seeded from the system (SEED-SRC parent); automatic reseeding by request
 * count and time is switched off, like old/new's 2^48 interval. NULL on error
 * with a reason in why. */
pb_drbg_ossl *pb_drbg_ossl_new(pb_drbg_mech mech, const uint8_t *pers, size_t pers_len, const char **why);

/* Deterministic instance for known answers: entropy and nonce as given (use_df = 0:
 * CTR_DRBG without derivation function, entropy is seedlen bytes, no nonce). */
pb_drbg_ossl *pb_drbg_ossl_new_test(pb_drbg_mech mech, int use_df, const uint8_t *entropy, size_t entropy_len,
                                    const uint8_t *nonce, size_t nonce_len, const uint8_t *pers, size_t pers_len,
                                    const char **why);
/* Test instances: the next entropy input the DRBG will pull from its parent
 * (at a reseed or a prediction-resistance request). Note that
 * EVP_RAND_reseed(entropy != NULL) would mix the given bytes in and then pull
 * from the parent as well, so entropy always goes through the parent. 0 or -1. */
int pb_drbg_ossl_feed(pb_drbg_ossl *o, const uint8_t *entropy, size_t entropy_len);
/* Reseed with additional input, entropy from the parent. 0 or -1. */
int pb_drbg_ossl_reseed(pb_drbg_ossl *o, const uint8_t *addtl, size_t addtl_len);
/* One generate request (n <= 65536), pr = prediction resistance. 0 or -1. */
int pb_drbg_ossl_generate(pb_drbg_ossl *o, uint8_t *out, size_t n, const uint8_t *addtl, size_t addtl_len, int pr);
void pb_drbg_ossl_free(pb_drbg_ossl *o);

#endif
