/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg_mech.h — internal: the three SP 800-90A mechanisms as seen by drbg.c.
 *
 * drbg.c does everything the mechanisms share (argument and length checks,
 * pulling entropy, the reseed counter and interval, prediction resistance,
 * zeroization); a mechanism only transforms its state.
 *   instantiate(seed):  seed = entropy, nonce, personalization (3 parts)
 *   reseed(seed):       seed = entropy, additional input (2 parts)
 *   generate(out, n, addtl): one request, n <= max_request; reads d->reseed_ctr
 *                       (drbg.c increments it afterwards)
 * Lengths have been checked by drbg.c; parts may be empty (n == 0). */
#ifndef PB_DRBG_MECH_H
#define PB_DRBG_MECH_H

#include "drbg_backend.h"

typedef struct pb_drbg_mech_ops {
    int (*instantiate)(pb_drbg *d, const pb_drbg_part seed[3]);
    int (*reseed)(pb_drbg *d, const pb_drbg_part seed[2]);
    int (*generate)(pb_drbg *d, uint8_t *out, size_t n, const uint8_t *addtl, size_t addtl_len);
} pb_drbg_mech_ops;

extern const pb_drbg_mech_ops pb_drbg_ctr_ops, pb_drbg_hash_ops, pb_drbg_hmac_ops;

#endif
