/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg_kat.h — known-answer runs of the drbg suite: NIST CAVS DRBGVS .rsp
 * files (`bench kat`) and the suite's built-in selftest vectors.
 *
 * One DRBGVS record (SP 800-90A, DRBGVS §6):
 *   Instantiate(EntropyInput, Nonce, PersonalizationString)
 *   [pr_false files] Reseed(EntropyInputReseed, AdditionalInputReseed)
 *   Generate(ReturnedBitsLen, AdditionalInput #1)   [PR True: EntropyInputPR #1]
 *   Generate(ReturnedBitsLen, AdditionalInput #2)   [PR True: EntropyInputPR #2]
 *   the second output must equal ReturnedBits.
 */
#ifndef PB_DRBG_KAT_H
#define PB_DRBG_KAT_H

#include <stdio.h>

#include "common/drbg.h"
#include "suite.h"

typedef struct drbg_bytes {
    const uint8_t *p;
    size_t n;
} drbg_bytes;

typedef struct drbg_vec {
    pb_drbg_mech mech;
    int use_df;                 /* CTR_DRBG only */
    int pr;                     /* PredictionResistance = True */
    drbg_bytes entropy, nonce, pers;
    int reseed;                 /* has EntropyInputReseed / AdditionalInputReseed */
    drbg_bytes entropy_reseed, addtl_reseed;
    drbg_bytes addtl[2], entropy_pr[2];
    drbg_bytes expected;        /* ReturnedBits */
} drbg_vec;

/* Run one record against impl ("old", "new", "openssl", ...: drbg_impls.h).
 * 1 = output matches, 0 = mismatch or DRBG error (why says which),
 * -1 = impl cannot run this record (why says why: it counts as skipped). */
int drbg_vec_run(const drbg_vec *v, const char *impl, const char **why);

int drbg_kat_accepts(const char *path);
int drbg_kat_file(const char *path, const char *impl, pb_kat_result *r, FILE *log, pb_err *e);

#endif
