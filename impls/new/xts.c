/* SPDX-License-Identifier: GPL-2.0-only */
/* impls/new/xts.c — the XTS template after Linux commit 78105c7e769b
 * ("crypto: xts - Drop use of auxiliary buffer"), in userspace.
 *
 * Per request: T_0 = AES-Enc(Key2, IV), then
 *   xor_tweak_pre    src -> dst over the whole request: dst = src ^ T_j
 *   child ECB        one call over the whole request, in place on dst
 *   xor_tweak_post   dst ^= T_j, the tweaks regenerated from a copy of T_0
 * No tweak cache and so no allocation: multiplying by x is a few
 * instructions since gf128mul_x_ble became inline and branch-free.
 *
 * What the kernel needs and userspace does not: skcipher walks over pages
 * (one step here; the kernel's second pass also switches the subreq to the
 * parent tfm to get its alignment, which memcpy lane access makes moot) and
 * asynchronous children (the child here is synchronous, so crypt_done is
 * left out). Compare with impls/old/xts.c: `diff impls/old/xts.c impls/new/xts.c`. */
#include <errno.h>
#include <stdbool.h>

#include "common/xts_gf128mul.h"
#include "common/xts_tmpl.h"

struct rctx {
    le128 t;

    xts_ecb_request subreq;
};

static int xor_tweak(xts_request *req, bool second_pass)
{
    struct rctx *rctx = xts_request_ctx(req);
    const size_t bs = XTS_BLOCK_SIZE;
    /* a local copy: rctx->t stays T_0, so the second pass regenerates the same tweaks */
    le128 t = rctx->t;
    const uint8_t *wsrc = req->src;
    uint8_t *wdst = req->dst;
    size_t avail = req->cryptlen;

    if (second_pass) {
        /* walk the child's request: dst -> dst */
        wsrc = rctx->subreq.src;
        wdst = rctx->subreq.dst;
        avail = rctx->subreq.cryptlen;
    }

    do {
        le128_xor(wdst, &t, wsrc);
        gf128mul_x_ble(&t, &t);
        wsrc += bs;
        wdst += bs;
    } while ((avail -= bs) >= bs);

    return 0;
}

static int xor_tweak_pre(xts_request *req)
{
    return xor_tweak(req, false);
}

static int xor_tweak_post(xts_request *req)
{
    return xor_tweak(req, true);
}

typedef int (*child_crypt_fn)(xts_ecb_request *subreq);

/* The body of encrypt/decrypt (identical but for the child call). */
static int do_crypt(xts_request *req, int err, child_crypt_fn child_crypt)
{
    struct rctx *rctx = xts_request_ctx(req);
    xts_ecb_request *subreq = &rctx->subreq;

    if (!err)
        err = xor_tweak_pre(req);
    if (!err)
        err = child_crypt(subreq);
    if (!err)
        err = xor_tweak_post(req);

    return err;
}

static int init_crypt(xts_request *req)
{
    xts_tfm *tfm = req->tfm;
    struct priv *ctx = xts_tfm_ctx(tfm);
    struct rctx *rctx = xts_request_ctx(req);
    xts_ecb_request *subreq = &rctx->subreq;

    /* the whole request in one child call, in place on dst */
    xts_ecb_request_set_crypt(subreq, &ctx->child, req->dst, req->dst, req->cryptlen);

    /* calculate first value of T */
    return xts_cipher_encrypt_one(&ctx->tweak, (uint8_t *)&rctx->t, req->iv);
}

static int encrypt(xts_request *req)
{
    int err = init_crypt(req);

    return do_crypt(req, err, xts_ecb_encrypt);
}

static int decrypt(xts_request *req)
{
    int err = init_crypt(req);

    return do_crypt(req, err, xts_ecb_decrypt);
}

const xts_alg xts_new_alg = {
    .name = "new",
    .driver = "xts template after 78105c7e769b over ecb(aes) = OpenSSL EVP aes-*-ecb",
    .ctxsize = sizeof(struct priv),
    .reqsize = sizeof(struct rctx),
    .key_sizes = XTS_KEYS_ALL,
    .init_tfm = xts_tmpl_init_tfm,
    .exit_tfm = xts_tmpl_exit_tfm,
    .setkey = xts_tmpl_setkey,
    .encrypt = encrypt,
    .decrypt = decrypt,
};
