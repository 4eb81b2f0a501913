/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg_hmac.c — HMAC_DRBG (SP 800-90A §10.1.2) with SHA-256.
 * State: V (32 B) and the key K (d->C). Every new K is announced to the
 * backend with hmac_setkey; all HMACs then run under it. */
#include <string.h>

#include "drbg_mech.h"

#define OUTLEN 32
#define MAX_PARTS 3

/* HMAC_DRBG_Update (§10.1.2.2):
 *   K = HMAC(K, V || 0x00 || provided); V = HMAC(K, V);
 *   if provided is not empty: K = HMAC(K, V || 0x01 || provided); V = HMAC(K, V). */
static int hmac_update(pb_drbg *d, const pb_drbg_part *provided, int np)
{
    size_t total = 0;
    for (int i = 0; i < np; i++) total += provided[i].n;
    uint8_t sep = 0x00;
    pb_drbg_part k_in[MAX_PARTS + 2] = { { d->V, OUTLEN }, { &sep, 1 } };
    memcpy(k_in + 2, provided, (size_t)np * sizeof *provided);
    pb_drbg_part v_in = { d->V, OUTLEN };
    for (;;) {
        if (d->bk->hmac(d, d->C, k_in, np + 2)) return -1;
        if (d->bk->hmac_setkey(d, d->C)) return -1;
        if (d->bk->hmac(d, d->V, &v_in, 1)) return -1;
        if (total == 0 || sep == 0x01) return 0;
        sep = 0x01;
    }
}

/* §10.1.2.3: K = 0x00..00, V = 0x01..01, Update(entropy || nonce || pers). */
static int hmac_instantiate(pb_drbg *d, const pb_drbg_part seed[3])
{
    memset(d->C, 0x00, OUTLEN);
    memset(d->V, 0x01, OUTLEN);
    if (d->bk->hmac_setkey(d, d->C)) return -1;
    return hmac_update(d, seed, 3);
}

/* §10.1.2.4: Update(entropy || additional_input). */
static int hmac_reseed(pb_drbg *d, const pb_drbg_part seed[2])
{
    return hmac_update(d, seed, 2);
}

/* §10.1.2.5 */
static int hmac_generate(pb_drbg *d, uint8_t *out, size_t n, const uint8_t *addtl, size_t addtl_len)
{
    pb_drbg_part add = { addtl, addtl_len };
    if (addtl_len && hmac_update(d, &add, 1)) return -1;
    pb_drbg_part v_in = { d->V, OUTLEN };
    for (size_t done = 0; done < n;) {
        if (d->bk->hmac(d, d->V, &v_in, 1)) return -1;
        size_t k = n - done < OUTLEN ? n - done : OUTLEN;
        memcpy(out + done, d->V, k);
        done += k;
    }
    return hmac_update(d, &add, 1); /* empty additional input: one round */
}

const pb_drbg_mech_ops pb_drbg_hmac_ops = { hmac_instantiate, hmac_reseed, hmac_generate };
