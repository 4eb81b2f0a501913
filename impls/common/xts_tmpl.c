/* SPDX-License-Identifier: GPL-2.0-only */
/* xts_tmpl.c — transform set-up shared by the old and new XTS templates. */
#include "xts_tmpl.h"

int xts_tmpl_init_tfm(xts_tfm *tfm)
{
    struct priv *ctx = xts_tfm_ctx(tfm);
    int err = xts_ecb_init(&ctx->child, &tfm->stats);
    if (err) return err;
    err = xts_cipher_init(&ctx->tweak);
    if (err) xts_ecb_exit(&ctx->child);
    return err;
}

void xts_tmpl_exit_tfm(xts_tfm *tfm)
{
    struct priv *ctx = xts_tfm_ctx(tfm);
    xts_ecb_exit(&ctx->child);
    xts_cipher_exit(&ctx->tweak);
}

/* key = Key1 || Key2. K1 == K2 is accepted: the 2018 kernel refused weak
 * keys only in FIPS mode (xts_verify_key). keylen is already validated. */
int xts_tmpl_setkey(xts_tfm *tfm, const uint8_t *key, size_t keylen)
{
    struct priv *ctx = xts_tfm_ctx(tfm);
    size_t half = keylen / 2;

    /* tweak cipher: Key2, the second half */
    int err = xts_cipher_setkey(&ctx->tweak, key + half, half);
    if (err) return err;
    /* data cipher: Key1, the first half */
    return xts_ecb_setkey(&ctx->child, key, half);
}
