// SPDX-License-Identifier: GPL-2.0-only
/*
 * xts_recompute: the XTS template as of 78105c7e769b ("crypto: xts - Drop
 * use of auxiliary buffer"), with the follow-up 44427c0fbc09 ("crypto: xts -
 * Fix atomic sleep when walking skcipher"), SPEC section 1.4.
 *
 * No tweak buffer and no chunks: a first pass XORs the tweaks into the whole
 * request (src -> dst), the child ecb(X) runs once, in place on dst, over the
 * whole request, and a second pass recomputes the same tweak sequence from
 * T0 and XORs it in again. Multiplying by x in GF(2^128) is a few
 * instructions, cheaper than storing and reloading the tweaks.
 *
 * An asynchronous child finishes in xtsr_crypt_done, which runs the second
 * pass there; that callback may run in softirq context, so the walk must not
 * sleep (the 44427c0 fix).
 */
#include <linux/kernel.h>
#include <linux/module.h>

#include "compat.h"
#include "xts_tmpl.h"

struct xtsr_rctx {
	le128 t;	/* T0; never advanced, both passes start from it */
	struct skcipher_request subreq;	/* last: the child's context follows */
};

/* dst = src ^ T_j over a whole request; the first pass reads the caller's. */
static int xtsr_xor_tweak(struct skcipher_request *req, bool second_pass)
{
	struct crypto_skcipher *tfm = crypto_skcipher_reqtfm(req);
	struct xtsr_rctx *rctx = skcipher_request_ctx(req);
	le128 t = rctx->t;
	struct skcipher_walk w;
	int err;

	if (second_pass)
		err = xts_walk_subreq(&w, &rctx->subreq, tfm);
	else
		err = skcipher_walk_virt(&w, req, false);

	while (w.nbytes) {
		unsigned int avail = w.nbytes;
		const le128 *wsrc = w.src.virt.addr;
		le128 *wdst = w.dst.virt.addr;

		for (; avail >= XTS_BLOCK_SIZE; avail -= XTS_BLOCK_SIZE) {
			le128_xor(wdst++, &t, wsrc++);
			gf128mul_x_ble(&t, &t);
		}
		err = skcipher_walk_done(&w, avail);
	}
	return err;
}

static int xtsr_xor_tweak_pre(struct skcipher_request *req)
{
	return xtsr_xor_tweak(req, false);
}

static int xtsr_xor_tweak_post(struct skcipher_request *req)
{
	return xtsr_xor_tweak(req, true);
}

static void xtsr_crypt_done(pb_done_arg_t arg, int err)
{
	struct skcipher_request *req = pb_done_data(arg);

	if (!err) {
		struct xtsr_rctx *rctx = skcipher_request_ctx(req);

		rctx->subreq.base.flags &= ~CRYPTO_TFM_REQ_MAY_SLEEP;
		err = xtsr_xor_tweak_post(req);
	}
	skcipher_request_complete(req, err);
}

static void xtsr_init_crypt(struct skcipher_request *req)
{
	struct crypto_skcipher *tfm = crypto_skcipher_reqtfm(req);
	struct xts_tfm_ctx *ctx = crypto_skcipher_ctx(tfm);
	struct xtsr_rctx *rctx = skcipher_request_ctx(req);
	struct skcipher_request *subreq = &rctx->subreq;

	skcipher_request_set_tfm(subreq, ctx->child);
	skcipher_request_set_callback(subreq, req->base.flags, xtsr_crypt_done,
				      req);
	skcipher_request_set_crypt(subreq, req->dst, req->dst, req->cryptlen,
				   NULL);

	crypto_cipher_encrypt_one(ctx->tweak, (u8 *)&rctx->t, req->iv);
}

static int xtsr_encrypt(struct skcipher_request *req)
{
	struct xtsr_rctx *rctx = skcipher_request_ctx(req);

	xtsr_init_crypt(req);
	return xtsr_xor_tweak_pre(req) ?:
	       crypto_skcipher_encrypt(&rctx->subreq) ?:
	       xtsr_xor_tweak_post(req);
}

static int xtsr_decrypt(struct skcipher_request *req)
{
	struct xtsr_rctx *rctx = skcipher_request_ctx(req);

	xtsr_init_crypt(req);
	return xtsr_xor_tweak_pre(req) ?:
	       crypto_skcipher_decrypt(&rctx->subreq) ?:
	       xtsr_xor_tweak_post(req);
}

static const struct xts_variant xtsr_variant = {
	.rctx_size = sizeof(struct xtsr_rctx),
	.encrypt = xtsr_encrypt,
	.decrypt = xtsr_decrypt,
};

static int xtsr_create(struct crypto_template *tmpl, struct rtattr **tb)
{
	return xts_tmpl_create(tmpl, tb, &xtsr_variant);
}

struct crypto_template xts_recompute_tmpl = {
	.name = "xts_recompute",
	.create = xtsr_create,
	.module = THIS_MODULE,
};
