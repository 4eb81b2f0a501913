/* SPDX-License-Identifier: GPL-2.0-only */
/* impls/old/xts.c — the XTS template as it was before Linux commit
 * 78105c7e769b ("crypto: xts - Drop use of auxiliary buffer"), in userspace.
 *
 * Per request: T_0 = AES-Enc(Key2, IV). Requests longer than XTS_BUFFER_SIZE
 * try to allocate a tweak cache of min(cryptlen, PAGE_SIZE) bytes; on failure
 * (or for short requests) the 128-byte cache inside the request context is
 * used. The request is then processed in chunks of the cache's size:
 *   pre_crypt    src -> dst: store each tweak in the cache, XOR it into dst
 *   child ECB    one call over the chunk, in place on dst
 *   post_crypt   XOR the cached tweaks back into dst
 * The cache is zeroed before it is freed (kzfree).
 *
 * What the kernel needs and userspace does not: scatterlists (the kernel
 * re-chains srcbuf/dstbuf to restart the walk mid-list for the next chunk;
 * here src/dst are flat and simply advance), skcipher walks over pages (one
 * step here), and asynchronous children (the child here is synchronous, so
 * the -EINPROGRESS/-EBUSY handling and the done callbacks are left out).
 * Compare with impls/new/xts.c: `diff impls/old/xts.c impls/new/xts.c`. */
#include <errno.h>
#include <stdbool.h>

#include "common/xts_gf128mul.h"
#include "common/xts_tmpl.h"

#define XTS_BUFFER_SIZE 128u
#define PAGE_SIZE 4096u

struct rctx {
    le128 buf[XTS_BUFFER_SIZE / sizeof(le128)];

    le128 t;

    le128 *ext;

    /* where the next chunk starts (the kernel's srcbuf/dstbuf re-chaining) */
    const uint8_t *src;
    uint8_t *dst;

    size_t left;

    xts_ecb_request subreq;
};

static int pre_crypt(xts_request *req)
{
    struct rctx *rctx = xts_request_ctx(req);
    le128 *buf = rctx->ext ? rctx->ext : rctx->buf;
    xts_ecb_request *subreq = &rctx->subreq;
    const size_t bs = XTS_BLOCK_SIZE;
    size_t cryptlen = subreq->cryptlen;
    bool more = rctx->left > cryptlen;

    if (!more)
        cryptlen = rctx->left;

    const uint8_t *wsrc = rctx->src;
    uint8_t *wdst = rctx->dst;
    size_t avail = cryptlen;

    do {
        *buf++ = rctx->t;
        le128_xor(wdst, &rctx->t, wsrc);
        gf128mul_x_ble(&rctx->t, &rctx->t);
        wsrc += bs;
        wdst += bs;
    } while ((avail -= bs) >= bs);

    /* the child runs in place on this chunk of dst */
    xts_ecb_request_set_crypt(subreq, subreq->tfm, rctx->dst, rctx->dst, cryptlen);

    if (more)
        rctx->src += cryptlen;

    return 0;
}

static int post_crypt(xts_request *req)
{
    struct rctx *rctx = xts_request_ctx(req);
    le128 *buf = rctx->ext ? rctx->ext : rctx->buf;
    xts_ecb_request *subreq = &rctx->subreq;
    const size_t bs = XTS_BLOCK_SIZE;
    uint8_t *wdst = subreq->dst;
    size_t avail = subreq->cryptlen;

    do {
        le128_xor(wdst, buf++, wdst);
        wdst += bs;
    } while ((avail -= bs) >= bs);

    rctx->left -= subreq->cryptlen;

    if (rctx->left)
        rctx->dst += subreq->cryptlen;

    return 0;
}

static void exit_crypt(xts_request *req)
{
    struct rctx *rctx = xts_request_ctx(req);

    rctx->left = 0;

    if (rctx->ext)
        xts_kzfree(req->tfm, rctx->ext);
}

typedef int (*child_crypt_fn)(xts_ecb_request *subreq);

/* The chunk loop of do_encrypt/do_decrypt (identical but for the child call). */
static int do_crypt(xts_request *req, int err, child_crypt_fn child_crypt)
{
    struct rctx *rctx = xts_request_ctx(req);
    xts_ecb_request *subreq = &rctx->subreq;

    while (!err && rctx->left) {
        err = pre_crypt(req);
        if (!err)
            err = child_crypt(subreq);
        if (!err)
            err = post_crypt(req);
    }

    exit_crypt(req);
    return err;
}

static int do_encrypt(xts_request *req, int err)
{
    return do_crypt(req, err, xts_ecb_encrypt);
}

static int do_decrypt(xts_request *req, int err)
{
    return do_crypt(req, err, xts_ecb_decrypt);
}

static int init_crypt(xts_request *req)
{
    xts_tfm *tfm = req->tfm;
    struct priv *ctx = xts_tfm_ctx(tfm);
    struct rctx *rctx = xts_request_ctx(req);
    xts_ecb_request *subreq = &rctx->subreq;

    subreq->tfm = &ctx->child;

    rctx->ext = NULL;

    subreq->cryptlen = XTS_BUFFER_SIZE;
    if (req->cryptlen > XTS_BUFFER_SIZE) {
        size_t n = req->cryptlen < PAGE_SIZE ? req->cryptlen : PAGE_SIZE;

        /* on failure: silently fall back to the inline 128-byte buffer */
        rctx->ext = xts_kmalloc(tfm, n);
        if (rctx->ext)
            subreq->cryptlen = n;
    }

    rctx->src = req->src;
    rctx->dst = req->dst;
    rctx->left = req->cryptlen;

    /* calculate first value of T */
    return xts_cipher_encrypt_one(&ctx->tweak, (uint8_t *)&rctx->t, req->iv);
}

static int encrypt(xts_request *req)
{
    int err = init_crypt(req);

    return do_encrypt(req, err);
}

static int decrypt(xts_request *req)
{
    int err = init_crypt(req);

    return do_decrypt(req, err);
}

const xts_alg xts_old_alg = {
    .name = "old",
    .driver = "xts template before 78105c7e769b over ecb(aes) = OpenSSL EVP aes-*-ecb",
    .ctxsize = sizeof(struct priv),
    .reqsize = sizeof(struct rctx),
    .key_sizes = XTS_KEYS_ALL,
    .init_tfm = xts_tmpl_init_tfm,
    .exit_tfm = xts_tmpl_exit_tfm,
    .setkey = xts_tmpl_setkey,
    .encrypt = encrypt,
    .decrypt = decrypt,
};
