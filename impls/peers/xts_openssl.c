/* SPDX-License-Identifier: GPL-2.0-only */
/* impls/peers/xts_openssl.c — peer row: OpenSSL 3 EVP aes-{128,256}-xts.
 *
 * Not a template: OpenSSL computes the tweaks and the AES-NI blocks in one
 * fused loop. OpenSSL has no AES-192-XTS, so 2 x 192-bit keys are
 * -EOPNOTSUPP, and it refuses K1 == K2 for encryption (duplicated-keys
 * check), so weak keys are -EKEYREJECTED for the whole transform.
 * One context per direction, keyed at setkey; per request only the IV is
 * set (EVP_CipherInit_ex with no cipher and no key) and one EVP_CipherUpdate
 * processes the whole data unit. Lengths are checked by xts_encrypt(), so
 * OpenSSL's ciphertext stealing is never reached (2018 kernel semantics). */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>

#include "common/xts.h"

struct openssl_ctx {
    EVP_CIPHER_CTX *enc, *dec;
};

static void openssl_exit_tfm(xts_tfm *tfm)
{
    struct openssl_ctx *ctx = xts_tfm_ctx(tfm);
    EVP_CIPHER_CTX_free(ctx->enc);
    EVP_CIPHER_CTX_free(ctx->dec);
    ctx->enc = ctx->dec = NULL;
}

static int openssl_init_tfm(xts_tfm *tfm)
{
    struct openssl_ctx *ctx = xts_tfm_ctx(tfm);
    ctx->enc = EVP_CIPHER_CTX_new();
    ctx->dec = EVP_CIPHER_CTX_new();
    if (ctx->enc && ctx->dec)
        return 0;
    openssl_exit_tfm(tfm);
    return -ENOMEM;
}

static int openssl_setkey(xts_tfm *tfm, const uint8_t *key, size_t keylen)
{
    struct openssl_ctx *ctx = xts_tfm_ctx(tfm);
    const EVP_CIPHER *cipher = keylen == 32 ? EVP_aes_128_xts() : EVP_aes_256_xts();

    if (memcmp(key, key + keylen / 2, keylen / 2) == 0)
        return -EKEYREJECTED;
    if (!EVP_CipherInit_ex(ctx->enc, cipher, NULL, key, NULL, 1) ||
        !EVP_CipherInit_ex(ctx->dec, cipher, NULL, key, NULL, 0)) {
        ERR_clear_error();
        return -EIO;
    }
    return 0;
}

static int openssl_crypt(xts_request *req, EVP_CIPHER_CTX *c)
{
    int outl;

    if (req->cryptlen > INT_MAX)
        return -EINVAL;
    if (!EVP_CipherInit_ex(c, NULL, NULL, NULL, req->iv, -1) ||
        !EVP_CipherUpdate(c, req->dst, &outl, req->src, (int)req->cryptlen)) {
        ERR_clear_error();
        return -EIO;
    }
    return 0;
}

static int openssl_encrypt(xts_request *req)
{
    struct openssl_ctx *ctx = xts_tfm_ctx(req->tfm);
    return openssl_crypt(req, ctx->enc);
}

static int openssl_decrypt(xts_request *req)
{
    struct openssl_ctx *ctx = xts_tfm_ctx(req->tfm);
    return openssl_crypt(req, ctx->dec);
}

const xts_alg xts_openssl_alg = {
    .name = "openssl",
    .driver = "OpenSSL EVP aes-128-xts / aes-256-xts",
    .ctxsize = sizeof(struct openssl_ctx),
    .reqsize = 0,
    .key_sizes = XTS_KEYS_256 | XTS_KEYS_512,
    .init_tfm = openssl_init_tfm,
    .exit_tfm = openssl_exit_tfm,
    .setkey = openssl_setkey,
    .encrypt = openssl_encrypt,
    .decrypt = openssl_decrypt,
};
