/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg_prim.c (new) — the DRBG primitive layer after libgcrypt 20886fdc.
 *
 * Handles are opened once at instantiate and closed at uninstantiate; setkey
 * runs only when the DRBG has produced a new key. HMAC reuses its keyed handle
 * through gcry_md_reset, which restores the saved inner (ipad) state, so the
 * key is not processed again. CTR_DRBG output comes from libgcrypt's CTR mode
 * over a zero buffer (keystream XOR 0 = the encrypted counters).
 *
 * Counter convention: the state keeps SP 800-90A's V (the patch stores V+1 and
 * reads it back with the internal _gcry_cipher_getctr). libgcrypt has no public
 * getctr, so we hand V+1 to setctr and advance V by ceil(n/16) ourselves. */
#include <gcrypt.h>
#include <string.h>

#include "common/drbg_backend.h"
#include "common/gcrypt_init.h"

#define BLOCK 16
#define DIGEST 32
#define CTR_NULL_LEN 128 /* DRBG_CTR_NULL_LEN: CTR "plaintext" per call */

enum { H_MD = 0, H_ECB = 0, H_CTR = 1 };

static const uint8_t ctr_null[CTR_NULL_LEN];

static int cipher_algo(const pb_drbg *d)
{
    return d->info->keylen == 16 ? GCRY_CIPHER_AES128 : GCRY_CIPHER_AES256;
}

static int prim_init(pb_drbg *d)
{
    if (pb_gcrypt_init()) return -1;
    if (d->info->is_ctr) {
        gcry_cipher_hd_t ecb, ctr;
        if (gcry_cipher_open(&ecb, cipher_algo(d), GCRY_CIPHER_MODE_ECB, 0)) return -1;
        d->prim.h[H_ECB] = ecb;
        if (gcry_cipher_open(&ctr, cipher_algo(d), GCRY_CIPHER_MODE_CTR, 0)) return -1;
        d->prim.h[H_CTR] = ctr;
    } else {
        gcry_md_hd_t h;
        if (gcry_md_open(&h, GCRY_MD_SHA256, d->info->is_hmac ? GCRY_MD_FLAG_HMAC : 0)) return -1;
        d->prim.h[H_MD] = h;
    }
    return 0;
}

static void prim_fini(pb_drbg *d)
{
    if (d->info && d->info->is_ctr) {
        if (d->prim.h[H_ECB]) gcry_cipher_close(d->prim.h[H_ECB]);
        if (d->prim.h[H_CTR]) gcry_cipher_close(d->prim.h[H_CTR]);
    } else if (d->prim.h[H_MD]) {
        gcry_md_close(d->prim.h[H_MD]);
    }
    d->prim.h[0] = d->prim.h[1] = NULL;
}

/* One SHA-256 or HMAC-SHA-256 on the persistent handle: reset, write, read. */
static int md(pb_drbg *d, uint8_t *out, const pb_drbg_part *parts, int nparts)
{
    gcry_md_hd_t h = d->prim.h[H_MD];
    gcry_md_reset(h);
    for (int i = 0; i < nparts; i++)
        if (parts[i].n) gcry_md_write(h, parts[i].p, parts[i].n);
    memcpy(out, gcry_md_read(h, 0), DIGEST);
    return 0;
}

static int prim_hash(pb_drbg *d, uint8_t *out, const pb_drbg_part *parts, int nparts)
{
    return md(d, out, parts, nparts);
}

static int prim_hmac_setkey(pb_drbg *d, const uint8_t *key)
{
    return gcry_md_setkey(d->prim.h[H_MD], key, d->info->keylen) ? -1 : 0;
}

static int prim_hmac(pb_drbg *d, uint8_t *out, const pb_drbg_part *parts, int nparts)
{
    return md(d, out, parts, nparts);
}

/* One AES block on the persistent, already keyed ECB handle. */
static int sym(pb_drbg *d, uint8_t *out, const uint8_t *in)
{
    gcry_cipher_hd_t h = d->prim.h[H_ECB];
    gcry_cipher_reset(h);
    return gcry_cipher_encrypt(h, out, BLOCK, in, BLOCK) ? -1 : 0;
}

static int prim_block_setkey(pb_drbg *d, const uint8_t *key)
{
    return gcry_cipher_setkey(d->prim.h[H_ECB], key, d->info->keylen) ? -1 : 0;
}

static int prim_block_encrypt(pb_drbg *d, uint8_t out[BLOCK], const uint8_t in[BLOCK])
{
    return sym(d, out, in);
}

static int prim_ctr_setkey(pb_drbg *d, const uint8_t *key)
{
    return gcry_cipher_setkey(d->prim.h[H_CTR], key, d->info->keylen) ? -1 : 0;
}

/* libgcrypt's CTR mode: encrypts the counter, then increments it, so start it
 * at V+1; feed the zero buffer (or the data to XOR) in CTR_NULL_LEN chunks. */
static int prim_ctr(pb_drbg *d, uint8_t *out, const uint8_t *in, size_t n)
{
    gcry_cipher_hd_t h = d->prim.h[H_CTR];
    uint8_t counter[BLOCK];
    memcpy(counter, d->V, BLOCK);
    pb_drbg_be_add(counter, BLOCK, 1);
    gcry_cipher_reset(h); /* drops keystream left over from a partial block */
    if (gcry_cipher_setctr(h, counter, BLOCK)) return -1;
    for (size_t off = 0; off < n; off += CTR_NULL_LEN) {
        size_t k = n - off < CTR_NULL_LEN ? n - off : CTR_NULL_LEN;
        if (gcry_cipher_encrypt(h, out + off, k, in ? in + off : ctr_null, k)) return -1;
    }
    pb_drbg_be_add(d->V, BLOCK, (n + BLOCK - 1) / BLOCK); /* no public getctr */
    return 0;
}

const pb_drbg_backend pb_drbg_backend_new = {
    .name = "new",
    .init = prim_init,
    .fini = prim_fini,
    .hash = prim_hash,
    .hmac_setkey = prim_hmac_setkey,
    .hmac = prim_hmac,
    .block_setkey = prim_block_setkey,
    .block_encrypt = prim_block_encrypt,
    .ctr_setkey = prim_ctr_setkey,
    .ctr = prim_ctr,
};
