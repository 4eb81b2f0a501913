/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg_prim.c (old) — the DRBG primitive layer before libgcrypt 20886fdc.
 *
 * Nothing lives across calls: every hash, every HMAC and every AES block
 * opens its own libgcrypt handle, keys it, runs, and closes it again
 * (drbg_hmac / drbg_sym in random-drbg.c of 2016). The keys the DRBG announces
 * are only remembered, and processed again at every call. CTR_DRBG keeps its
 * counter V itself and encrypts it block by block. */
#include <gcrypt.h>
#include <string.h>

#include "common/drbg_backend.h"
#include "common/gcrypt_init.h"

#define BLOCK 16
#define DIGEST 32

enum { KEY_HMAC, KEY_BLOCK, KEY_CTR };

static int cipher_algo(const pb_drbg *d)
{
    return d->info->keylen == 16 ? GCRY_CIPHER_AES128 : GCRY_CIPHER_AES256;
}

static int prim_init(pb_drbg *d)
{
    (void)d;
    return pb_gcrypt_init();
}

static void prim_fini(pb_drbg *d)
{
    (void)d; /* nothing is held; uninstantiate zeroizes the remembered keys */
}

/* One SHA-256 or HMAC-SHA-256: open, [setkey], write, read, close. */
static int md(pb_drbg *d, const uint8_t *key, uint8_t *out, const pb_drbg_part *parts, int nparts)
{
    gcry_md_hd_t h;
    if (gcry_md_open(&h, GCRY_MD_SHA256, key ? GCRY_MD_FLAG_HMAC : 0)) return -1;
    if (key && gcry_md_setkey(h, key, d->info->keylen)) {
        gcry_md_close(h);
        return -1;
    }
    for (int i = 0; i < nparts; i++)
        if (parts[i].n) gcry_md_write(h, parts[i].p, parts[i].n);
    memcpy(out, gcry_md_read(h, 0), DIGEST);
    gcry_md_close(h);
    return 0;
}

static int prim_hash(pb_drbg *d, uint8_t *out, const pb_drbg_part *parts, int nparts)
{
    return md(d, NULL, out, parts, nparts);
}

static int prim_hmac_setkey(pb_drbg *d, const uint8_t *key)
{
    memcpy(d->prim.key[KEY_HMAC], key, d->info->keylen);
    return 0;
}

static int prim_hmac(pb_drbg *d, uint8_t *out, const pb_drbg_part *parts, int nparts)
{
    return md(d, d->prim.key[KEY_HMAC], out, parts, nparts);
}

/* One AES block: open an ECB handle, setkey (key expansion), encrypt, close. */
static int sym(pb_drbg *d, const uint8_t *key, uint8_t *out, const uint8_t *in)
{
    gcry_cipher_hd_t h;
    if (gcry_cipher_open(&h, cipher_algo(d), GCRY_CIPHER_MODE_ECB, 0)) return -1;
    int rc = gcry_cipher_setkey(h, key, d->info->keylen) || gcry_cipher_encrypt(h, out, BLOCK, in, BLOCK);
    gcry_cipher_close(h);
    return rc ? -1 : 0;
}

static int prim_block_setkey(pb_drbg *d, const uint8_t *key)
{
    memcpy(d->prim.key[KEY_BLOCK], key, d->info->keylen);
    return 0;
}

static int prim_block_encrypt(pb_drbg *d, uint8_t out[BLOCK], const uint8_t in[BLOCK])
{
    return sym(d, d->prim.key[KEY_BLOCK], out, in);
}

static int prim_ctr_setkey(pb_drbg *d, const uint8_t *key)
{
    memcpy(d->prim.key[KEY_CTR], key, d->info->keylen);
    return 0;
}

/* The DRBG's own counter: V += 1, encrypt V (a handle per block), XOR, repeat. */
static int prim_ctr(pb_drbg *d, uint8_t *out, const uint8_t *in, size_t n)
{
    uint8_t ks[BLOCK];
    for (size_t off = 0; off < n; off += BLOCK) {
        pb_drbg_be_add(d->V, BLOCK, 1);
        if (sym(d, d->prim.key[KEY_CTR], ks, d->V)) return -1;
        size_t k = n - off < BLOCK ? n - off : BLOCK;
        for (size_t i = 0; i < k; i++) out[off + i] = in ? in[off + i] ^ ks[i] : ks[i];
    }
    explicit_bzero(ks, sizeof ks);
    return 0;
}

const pb_drbg_backend pb_drbg_backend_old = {
    .name = "old",
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
