// SPDX-License-Identifier: GPL-2.0-only
/*
 * Template plumbing shared by xts_buffered and xts_recompute: instance
 * creation, tfm init/exit, setkey. See xts_tmpl.h.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "compat.h"
#include "xts_tmpl.h"

struct xts_instance_ctx {
	struct crypto_skcipher_spawn spawn;
	const struct xts_variant *variant;
	char tweak_name[CRYPTO_MAX_ALG_NAME];	/* "aes" for child "ecb(aes)" */
};

static int xts_setkey(struct crypto_skcipher *tfm, const u8 *key,
		      unsigned int keylen)
{
	struct xts_tfm_ctx *ctx = crypto_skcipher_ctx(tfm);
	u32 req_flags = crypto_skcipher_get_flags(tfm) & CRYPTO_TFM_REQ_MASK;
	int err;

	err = xts_verify_key(tfm, key, keylen);
	if (err)
		return err;
	keylen /= 2;

	/* K2, the second half, only ever encrypts the IV. */
	crypto_cipher_clear_flags(ctx->tweak, CRYPTO_TFM_REQ_MASK);
	crypto_cipher_set_flags(ctx->tweak, req_flags);
	err = crypto_cipher_setkey(ctx->tweak, key + keylen, keylen);
	if (err)
		return err;

	/* K1, the first half, is the data key of the child ecb(X). */
	crypto_skcipher_clear_flags(ctx->child, CRYPTO_TFM_REQ_MASK);
	crypto_skcipher_set_flags(ctx->child, req_flags);
	return crypto_skcipher_setkey(ctx->child, key, keylen);
}

static int xts_init_tfm(struct crypto_skcipher *tfm)
{
	struct skcipher_instance *inst = skcipher_alg_instance(tfm);
	struct xts_instance_ctx *ictx = skcipher_instance_ctx(inst);
	struct xts_tfm_ctx *ctx = crypto_skcipher_ctx(tfm);
	struct crypto_skcipher *child;
	struct crypto_cipher *tweak;

	child = crypto_spawn_skcipher(&ictx->spawn);
	if (IS_ERR(child))
		return PTR_ERR(child);

	tweak = crypto_alloc_cipher(ictx->tweak_name, 0, 0);
	if (IS_ERR(tweak)) {
		crypto_free_skcipher(child);
		return PTR_ERR(tweak);
	}

	ctx->child = child;
	ctx->tweak = tweak;
	ctx->fail_alloc = false;
	/* The child's request context follows ours (subreq is our last member). */
	crypto_skcipher_set_reqsize(tfm, ictx->variant->rctx_size +
					 crypto_skcipher_reqsize(child));
	return 0;
}

static void xts_exit_tfm(struct crypto_skcipher *tfm)
{
	struct xts_tfm_ctx *ctx = crypto_skcipher_ctx(tfm);

	crypto_free_skcipher(ctx->child);
	crypto_free_cipher(ctx->tweak);
}

static void xts_free_instance(struct skcipher_instance *inst)
{
	struct xts_instance_ctx *ictx = skcipher_instance_ctx(inst);

	crypto_drop_skcipher(&ictx->spawn);
	kfree(inst);
}

/* "ecb(aes)" -> "aes": the tweak is one block of the child's own cipher. */
static int xts_tweak_cipher_name(char *out, const char *child_cra_name)
{
	size_t len = strlen(child_cra_name);

	if (len < 6 || strncmp(child_cra_name, "ecb(", 4) ||
	    child_cra_name[len - 1] != ')')
		return -EINVAL;
	len -= 5;
	if (len >= CRYPTO_MAX_ALG_NAME)
		return -ENAMETOOLONG;
	memcpy(out, child_cra_name + 4, len);
	out[len] = '\0';
	return 0;
}

int xts_tmpl_create(struct crypto_template *tmpl, struct rtattr **tb,
		    const struct xts_variant *v)
{
	struct skcipher_instance *inst;
	struct xts_instance_ctx *ictx;
	const char *child_name;
	pb_spawn_alg *alg;
	u32 mask;
	int err;

	err = crypto_check_attr_type(tb, CRYPTO_ALG_TYPE_SKCIPHER, &mask);
	if (err)
		return err;
	child_name = crypto_attr_alg_name(tb[1]);
	if (IS_ERR(child_name))
		return PTR_ERR(child_name);

	inst = kzalloc(sizeof(*inst) + sizeof(*ictx), GFP_KERNEL);
	if (!inst)
		return -ENOMEM;
	ictx = skcipher_instance_ctx(inst);
	ictx->variant = v;

	/* Only explicit children, e.g. T(ecb(aes)) or T(ecb-aes-aesni). */
	err = crypto_grab_skcipher(&ictx->spawn, skcipher_crypto_instance(inst),
				   child_name, 0, mask);
	if (err)
		goto err_free_inst;
	alg = pb_spawn_skcipher_alg(&ictx->spawn);

	err = -EINVAL;
	if (alg->base.cra_blocksize != XTS_BLOCK_SIZE || alg->ivsize)
		goto err_free_inst;
	err = xts_tweak_cipher_name(ictx->tweak_name, alg->base.cra_name);
	if (err)
		goto err_free_inst;
	err = crypto_inst_setname(skcipher_crypto_instance(inst), tmpl->name,
				  &alg->base);
	if (err)
		goto err_free_inst;

	/* CRYPTO_ALG_ASYNC is inherited from the child by the spawn. */
	inst->alg.base.cra_priority = alg->base.cra_priority;
	inst->alg.base.cra_blocksize = XTS_BLOCK_SIZE;
	inst->alg.base.cra_alignmask = alg->base.cra_alignmask |
				       (__alignof__(u64) - 1);
	inst->alg.base.cra_ctxsize = sizeof(struct xts_tfm_ctx);

	inst->alg.ivsize = XTS_BLOCK_SIZE;
	inst->alg.min_keysize = 2 * alg->min_keysize;
	inst->alg.max_keysize = 2 * alg->max_keysize;

	inst->alg.init = xts_init_tfm;
	inst->alg.exit = xts_exit_tfm;
	inst->alg.setkey = xts_setkey;
	inst->alg.encrypt = v->encrypt;
	inst->alg.decrypt = v->decrypt;
	inst->free = xts_free_instance;

	err = skcipher_register_instance(tmpl, inst);
	if (err) {
err_free_inst:
		xts_free_instance(inst);
	}
	return err;
}

int xts_walk_subreq(struct skcipher_walk *w, struct skcipher_request *subreq,
		    struct crypto_skcipher *parent)
{
	struct crypto_skcipher *child = crypto_skcipher_reqtfm(subreq);
	int err;

	/* The walk reads block size and alignmask from the tfm at start only. */
	skcipher_request_set_tfm(subreq, parent);
	err = skcipher_walk_virt(w, subreq, false);
	skcipher_request_set_tfm(subreq, child);
	return err;
}

int xts_buffered_force_alloc_failure(struct crypto_skcipher *tfm, bool on)
{
	struct skcipher_instance *inst;

	if (crypto_skcipher_alg(tfm)->base.cra_module != THIS_MODULE)
		return -EINVAL;
	inst = skcipher_alg_instance(tfm);
	if (skcipher_crypto_instance(inst)->tmpl != &xts_buffered_tmpl)
		return -EINVAL;
	((struct xts_tfm_ctx *)crypto_skcipher_ctx(tfm))->fail_alloc = on;
	return 0;
}
