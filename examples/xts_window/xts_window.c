/* SPDX-License-Identifier: GPL-2.0-only */
/* xts_window.c — a third XTS template, as an xts plug-in (include/patchbench/xts_plugin.h).
 *
 * Between the two sides of Linux 78105c7e769b:
 *   old  tweaks cached in a kmalloc'd buffer (<= 4 KiB), one child call per 4 KiB chunk
 *   new  no buffer: tweaks computed twice (before and after), one child call per request
 *   this tweaks computed once into a bounded window on the stack (XTS_WINDOW_BYTES), XORed
 *        in, one child call per window, the same tweaks XORed out: no allocation and no
 *        second tweak computation, at the price of cryptlen / XTS_WINDOW_BYTES child calls.
 *
 * Built with the kernel profile like old/new (suites/xts/meson.build); there, as in a kernel
 * with CONFIG_INIT_STACK_ALL_ZERO, the window is zeroed on every request
 * (-ftrivial-auto-var-init=zero), a cost this template really would pay. */
#include <errno.h>

#include "common/xts_gf128mul.h"
#include "patchbench/xts_plugin.h"

#ifndef XTS_WINDOW_BYTES
#define XTS_WINDOW_BYTES 512u   /* 32 tweaks: a bounded kernel stack frame */
#endif

static const pb_xts_host *host;

struct rctx {
    xts_ecb_request subreq;
};

typedef int (*child_crypt_fn)(xts_ecb_request *subreq);

static int crypt_windows(xts_request *req, child_crypt_fn child_crypt)
{
    struct priv *ctx = xts_tfm_ctx(req->tfm);
    struct rctx *rctx = xts_request_ctx(req);
    le128 window[XTS_WINDOW_BYTES / sizeof(le128)];
    le128 t;
    const uint8_t *src = req->src;
    uint8_t *dst = req->dst;
    size_t left = req->cryptlen;

    /* calculate first value of T */
    int err = host->tweak_encrypt_one(&ctx->tweak, (uint8_t *)&t, req->iv);

    while (!err && left) {
        const size_t n = left < XTS_WINDOW_BYTES ? left : XTS_WINDOW_BYTES;
        const size_t blocks = n / XTS_BLOCK_SIZE;

        for (size_t i = 0; i < blocks; i++) {
            window[i] = t;
            le128_xor(dst + i * XTS_BLOCK_SIZE, &t, src + i * XTS_BLOCK_SIZE);
            gf128mul_x_ble(&t, &t);
        }
        /* the child runs in place on this window of dst */
        xts_ecb_request_set_crypt(&rctx->subreq, &ctx->child, dst, dst, n);
        err = child_crypt(&rctx->subreq);
        for (size_t i = 0; !err && i < blocks; i++)
            le128_xor(dst + i * XTS_BLOCK_SIZE, &window[i], dst + i * XTS_BLOCK_SIZE);
        src += n;
        dst += n;
        left -= n;
    }
    return err;
}

static int encrypt(xts_request *req)
{
    return crypt_windows(req, host->child_encrypt);
}

static int decrypt(xts_request *req)
{
    return crypt_windows(req, host->child_decrypt);
}

/* init_tfm/exit_tfm/setkey are the host's (filled in by the entry): the shared template set-up. */
static xts_alg window_alg = {
    .name = "xts_window",
    .driver = "xts template with a 512-byte on-stack tweak window over ecb(aes) = OpenSSL EVP aes-*-ecb",
    .ctxsize = sizeof(struct priv),
    .reqsize = sizeof(struct rctx),
    .key_sizes = XTS_KEYS_ALL,
    .encrypt = encrypt,
    .decrypt = decrypt,
};

static const pb_xts_plugin plugin = { PB_XTS_PLUGIN_ABI_VERSION, &window_alg };

__attribute__((visibility("default"))) const unsigned pb_xts_plugin_abi_version = PB_XTS_PLUGIN_ABI_VERSION;

__attribute__((visibility("default"))) const pb_xts_plugin *pb_xts_plugin_entry(const pb_xts_host *h)
{
    if (h->abi_version != PB_XTS_PLUGIN_ABI_VERSION) return NULL;
    host = h;
    window_alg.init_tfm = h->tmpl_init_tfm;
    window_alg.exit_tfm = h->tmpl_exit_tfm;
    window_alg.setkey = h->tmpl_setkey;
    return &plugin;
}
