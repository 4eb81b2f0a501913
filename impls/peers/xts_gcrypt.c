/* SPDX-License-Identifier: GPL-2.0-only */
/* impls/peers/xts_gcrypt.c — peer row: libgcrypt GCRY_CIPHER_MODE_XTS.
 *
 * The only peer with 2 x 192-bit keys. The cipher handle is opened and keyed
 * at setkey (its AES variant depends on the key size); per request: setiv,
 * then one gcry_cipher_en/decrypt over the data unit (in place when
 * src == dst). libgcrypt accepts K1 == K2 outside FIPS mode, like the 2018
 * kernel. Lengths are checked by xts_encrypt(), so libgcrypt's ciphertext
 * stealing is never reached (2018 kernel semantics). */
#include <errno.h>

#include <gcrypt.h>

#include "common/gcrypt_init.h"
#include "common/xts.h"

struct gcrypt_ctx {
    gcry_cipher_hd_t h;
};

static int gcrypt_init_tfm(xts_tfm *tfm)
{
    struct gcrypt_ctx *ctx = xts_tfm_ctx(tfm);
    ctx->h = NULL;
    return pb_gcrypt_init() < 0 ? -EOPNOTSUPP : 0;
}

static void gcrypt_exit_tfm(xts_tfm *tfm)
{
    struct gcrypt_ctx *ctx = xts_tfm_ctx(tfm);
    gcry_cipher_close(ctx->h);
    ctx->h = NULL;
}

static int gcrypt_setkey(xts_tfm *tfm, const uint8_t *key, size_t keylen)
{
    struct gcrypt_ctx *ctx = xts_tfm_ctx(tfm);
    int algo = keylen == 32 ? GCRY_CIPHER_AES128 : keylen == 48 ? GCRY_CIPHER_AES192 : GCRY_CIPHER_AES256;

    gcrypt_exit_tfm(tfm);
    if (gcry_cipher_open(&ctx->h, algo, GCRY_CIPHER_MODE_XTS, 0))
        return -EIO;
    gcry_error_t err = gcry_cipher_setkey(ctx->h, key, keylen);
    if (err) {
        gcrypt_exit_tfm(tfm);
        return gcry_err_code(err) == GPG_ERR_WEAK_KEY ? -EKEYREJECTED : -EIO;
    }
    return 0;
}

typedef gcry_error_t (*gcrypt_crypt_fn)(gcry_cipher_hd_t h, void *out, size_t outlen,
                                        const void *in, size_t inlen);

static int gcrypt_crypt(xts_request *req, gcrypt_crypt_fn crypt)
{
    struct gcrypt_ctx *ctx = xts_tfm_ctx(req->tfm);
    int in_place = req->src == req->dst;

    if (gcry_cipher_setiv(ctx->h, req->iv, XTS_IV_SIZE) ||
        crypt(ctx->h, req->dst, req->cryptlen, in_place ? NULL : req->src, in_place ? 0 : req->cryptlen))
        return -EIO;
    return 0;
}

static int gcrypt_encrypt(xts_request *req)
{
    return gcrypt_crypt(req, gcry_cipher_encrypt);
}

static int gcrypt_decrypt(xts_request *req)
{
    return gcrypt_crypt(req, gcry_cipher_decrypt);
}

const xts_alg xts_gcrypt_alg = {
    .name = "gcrypt",
    .driver = "libgcrypt GCRY_CIPHER_MODE_XTS (AES-128/192/256)",
    .ctxsize = sizeof(struct gcrypt_ctx),
    .reqsize = 0,
    .key_sizes = XTS_KEYS_ALL,
    .init_tfm = gcrypt_init_tfm,
    .exit_tfm = gcrypt_exit_tfm,
    .setkey = gcrypt_setkey,
    .encrypt = gcrypt_encrypt,
    .decrypt = gcrypt_decrypt,
};
