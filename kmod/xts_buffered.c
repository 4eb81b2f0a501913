// SPDX-License-Identifier: GPL-2.0-only
/*
 * xts_buffered: the XTS template as it was before 78105c7e769b
 * ("crypto: xts - Drop use of auxiliary buffer"), SPEC section 1.3.
 *
 * The request is cut into chunks. For each chunk a first pass XORs the
 * tweaks into the data and stores them in a tweak buffer, the child ecb(X)
 * runs in place on the destination, and a second pass XORs the stored
 * tweaks back. The buffer is kmalloc'ed per request, min(len, PAGE_SIZE)
 * bytes (so a chunk is at most a page), with GFP flags taken from the
 * request; when that allocation fails the request silently falls back to a
 * 128-byte buffer inside the request context, i.e. 8 blocks per child call.
 * The buffer is zeroed and freed (kzfree, now kfree_sensitive) at the end.
 *
 * An asynchronous child completes a chunk in encrypt_done/decrypt_done,
 * which finish that chunk and carry on with the next ones from the callback.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <crypto/scatterwalk.h>

#include "compat.h"
#include "xts_tmpl.h"

#define XTS_BUFFER_SIZE 128u

struct xtsb_rctx {
	le128 buf[XTS_BUFFER_SIZE / sizeof(le128)];	/* fallback tweak buffer */
	le128 t;		/* running tweak, carried across chunks */
	le128 *ext;		/* kmalloc'ed tweak buffer, or NULL */
	unsigned int chunk;	/* bytes per child call: 128 or the ext size */
	unsigned int left;	/* bytes not yet through the second pass */

	/* Where the next chunk starts, re-pointed into the caller's lists. */
	struct scatterlist srcbuf[2];
	struct scatterlist dstbuf[2];
	struct scatterlist *src;
	struct scatterlist *dst;

	struct skcipher_request subreq;	/* last: the child's context follows */
};

static void xtsb_init_crypt(struct skcipher_request *req,
			    crypto_completion_t done)
{
	struct crypto_skcipher *tfm = crypto_skcipher_reqtfm(req);
	struct xts_tfm_ctx *ctx = crypto_skcipher_ctx(tfm);
	struct xtsb_rctx *rctx = skcipher_request_ctx(req);
	struct skcipher_request *subreq = &rctx->subreq;
	gfp_t gfp = req->base.flags & CRYPTO_TFM_REQ_MAY_SLEEP ? GFP_KERNEL :
								  GFP_ATOMIC;

	skcipher_request_set_tfm(subreq, ctx->child);
	skcipher_request_set_callback(subreq, req->base.flags, done, req);

	rctx->ext = NULL;
	rctx->chunk = XTS_BUFFER_SIZE;
	if (req->cryptlen > XTS_BUFFER_SIZE) {
		unsigned int n = min_t(unsigned int, req->cryptlen, PAGE_SIZE);

		if (!ctx->fail_alloc && !READ_ONCE(pb_param_old_nomem))
			rctx->ext = kmalloc(n, gfp);
		if (rctx->ext)
			rctx->chunk = n;
	}

	rctx->src = req->src;
	rctx->dst = req->dst;
	rctx->left = req->cryptlen;

	crypto_cipher_encrypt_one(ctx->tweak, (u8 *)&rctx->t, req->iv);
}

static void xtsb_exit_crypt(struct skcipher_request *req)
{
	struct xtsb_rctx *rctx = skcipher_request_ctx(req);

	rctx->left = 0;
	kfree_sensitive(rctx->ext);	/* kzfree() in the 2018 code */
	rctx->ext = NULL;
}

/*
 * First pass over the next chunk: dst = src ^ T_j, T_j saved in the buffer.
 * Leaves the sub-request set up for the child, in place on dst.
 */
static int xtsb_pre_crypt(struct skcipher_request *req)
{
	struct crypto_skcipher *tfm = crypto_skcipher_reqtfm(req);
	struct xtsb_rctx *rctx = skcipher_request_ctx(req);
	struct skcipher_request *subreq = &rctx->subreq;
	le128 *buf = rctx->ext ?: rctx->buf;
	unsigned int len = min(rctx->left, rctx->chunk);
	struct skcipher_walk w;
	int err;

	skcipher_request_set_crypt(subreq, rctx->src, rctx->dst, len, NULL);
	err = xts_walk_subreq(&w, subreq, tfm);

	while (w.nbytes) {
		unsigned int avail = w.nbytes;
		const le128 *wsrc = w.src.virt.addr;
		le128 *wdst = w.dst.virt.addr;

		for (; avail >= XTS_BLOCK_SIZE; avail -= XTS_BLOCK_SIZE) {
			*buf++ = rctx->t;
			le128_xor(wdst++, &rctx->t, wsrc++);
			gf128mul_x_ble(&rctx->t, &rctx->t);
		}
		err = skcipher_walk_done(&w, avail);
	}

	skcipher_request_set_crypt(subreq, rctx->dst, rctx->dst, len, NULL);

	if (!err && rctx->left > len)
		rctx->src = scatterwalk_ffwd(rctx->srcbuf, req->src,
					     req->cryptlen - rctx->left + len);
	return err;
}

/* Second pass over the chunk the child just did: dst ^= saved T_j. */
static int xtsb_post_crypt(struct skcipher_request *req)
{
	struct crypto_skcipher *tfm = crypto_skcipher_reqtfm(req);
	struct xtsb_rctx *rctx = skcipher_request_ctx(req);
	struct skcipher_request *subreq = &rctx->subreq;
	const le128 *buf = rctx->ext ?: rctx->buf;
	struct skcipher_walk w;
	int err;

	err = xts_walk_subreq(&w, subreq, tfm);

	while (w.nbytes) {
		unsigned int avail = w.nbytes;
		le128 *wdst = w.dst.virt.addr;

		for (; avail >= XTS_BLOCK_SIZE; avail -= XTS_BLOCK_SIZE) {
			le128_xor(wdst, wdst, buf++);
			wdst++;
		}
		err = skcipher_walk_done(&w, avail);
	}

	rctx->left -= subreq->cryptlen;

	if (!err && rctx->left)
		rctx->dst = scatterwalk_ffwd(rctx->dstbuf, req->dst,
					     req->cryptlen - rctx->left);
	return err;
}

static bool xtsb_in_flight(struct skcipher_request *req, int err)
{
	return err == -EINPROGRESS ||
	       (err == -EBUSY && req->base.flags & CRYPTO_TFM_REQ_MAY_BACKLOG);
}

/* The chunk loop; returns early when the child went asynchronous. */
static int xtsb_do_crypt(struct skcipher_request *req, int err, bool enc)
{
	struct xtsb_rctx *rctx = skcipher_request_ctx(req);
	struct skcipher_request *subreq = &rctx->subreq;

	while (!err && rctx->left) {
		err = xtsb_pre_crypt(req) ?:
		      (enc ? crypto_skcipher_encrypt(subreq) :
			     crypto_skcipher_decrypt(subreq)) ?:
		      xtsb_post_crypt(req);
		if (xtsb_in_flight(req, err))
			return err;
	}

	xtsb_exit_crypt(req);
	return err;
}

static void xtsb_crypt_done(struct skcipher_request *req, int err, bool enc)
{
	struct xtsb_rctx *rctx = skcipher_request_ctx(req);

	if (err == -EINPROGRESS) {
		/*
		 * A backlogged chunk is now queued. The caller saw -EBUSY only
		 * for the first chunk; later chunks were submitted from here,
		 * so their notification is ours to swallow.
		 */
		if (rctx->left != req->cryptlen)
			return;
		skcipher_request_complete(req, err);
		return;
	}

	/* We may be in softirq context now: no sleeping in later walks. */
	rctx->subreq.base.flags &= CRYPTO_TFM_REQ_MAY_BACKLOG;

	err = xtsb_do_crypt(req, err ?: xtsb_post_crypt(req), enc);
	if (rctx->left)
		return;		/* the next chunk went asynchronous */
	skcipher_request_complete(req, err);
}

static void xtsb_encrypt_done(pb_done_arg_t arg, int err)
{
	xtsb_crypt_done(pb_done_data(arg), err, true);
}

static void xtsb_decrypt_done(pb_done_arg_t arg, int err)
{
	xtsb_crypt_done(pb_done_data(arg), err, false);
}

static int xtsb_encrypt(struct skcipher_request *req)
{
	xtsb_init_crypt(req, xtsb_encrypt_done);
	return xtsb_do_crypt(req, 0, true);
}

static int xtsb_decrypt(struct skcipher_request *req)
{
	xtsb_init_crypt(req, xtsb_decrypt_done);
	return xtsb_do_crypt(req, 0, false);
}

static const struct xts_variant xtsb_variant = {
	.rctx_size = sizeof(struct xtsb_rctx),
	.encrypt = xtsb_encrypt,
	.decrypt = xtsb_decrypt,
};

static int xtsb_create(struct crypto_template *tmpl, struct rtattr **tb)
{
	return xts_tmpl_create(tmpl, tb, &xtsb_variant);
}

struct crypto_template xts_buffered_tmpl = {
	.name = "xts_buffered",
	.create = xtsb_create,
	.module = THIS_MODULE,
};
