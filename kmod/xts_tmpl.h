/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the two XTS templates share: everything the 2018 patch
 * ("crypto: xts - Drop use of auxiliary buffer", 78105c7e769b) left alone.
 *
 * An instance "T(ecb(X))" of template T owns a spawn of the child skcipher
 * ecb(X). Each tfm holds the child (keyed with K1, the first key half) and a
 * single-block cipher X (keyed with K2) that turns the IV into T0. The
 * request paths (encrypt/decrypt and their completion callbacks) are what
 * differ, and live in xts_buffered.c (old) and xts_recompute.c (new); they
 * plug in through struct xts_variant.
 *
 * Unlike the kernel's own "xts", the instance keeps the child's name in its
 * cra_name ("xts_buffered(ecb(aes))", not "xts_buffered(aes)"), so that the
 * name users ask for is the name that gets registered, and the generic names
 * never collide with the kernel's xts(aes).
 */
#ifndef PB_KMOD_XTS_TMPL_H
#define PB_KMOD_XTS_TMPL_H

#include <crypto/b128ops.h>
#include <crypto/gf128mul.h>
#include <crypto/internal/cipher.h>
#include <crypto/internal/skcipher.h>
#include <crypto/xts.h>

struct xts_tfm_ctx {
	struct crypto_skcipher *child;	/* ecb(X), keyed with K1 */
	struct crypto_cipher *tweak;	/* X, keyed with K2: T0 = E_K2(IV) */
	/*
	 * Fault injection for xts_buffered only: its kmalloc of the tweak
	 * buffer "fails", so the 128-byte inline fallback runs. Set with
	 * xts_buffered_force_alloc_failure(); xts_recompute ignores it.
	 */
	bool fail_alloc;
};

struct xts_variant {
	unsigned int rctx_size;	/* request context; ends with the child's subreq */
	int (*encrypt)(struct skcipher_request *req);
	int (*decrypt)(struct skcipher_request *req);
};

/* crypto_template.create for a template whose request path is @v. */
int xts_tmpl_create(struct crypto_template *tmpl, struct rtattr **tb,
		    const struct xts_variant *v);

/*
 * Start a walk over a sub-request with the parent's geometry: the parent's
 * alignmask (>= 7) lets the tweak loops access blocks as le128 (two u64),
 * whatever the child's alignmask is. The sub-request's tfm is the child again
 * on return. (The new code does the same swap for its second pass.)
 */
int xts_walk_subreq(struct skcipher_walk *w, struct skcipher_request *subreq,
		    struct crypto_skcipher *parent);

extern struct crypto_template xts_buffered_tmpl;
extern struct crypto_template xts_recompute_tmpl;

/*
 * Make every request on @tfm (an xts_buffered instance) take the fallback
 * path as if kmalloc had failed. -EINVAL if @tfm is not ours.
 */
int xts_buffered_force_alloc_failure(struct crypto_skcipher *tfm, bool on);

/* Module parameter old_nomem: the same, for every xts_buffered request. */
extern bool pb_param_old_nomem;

#endif /* PB_KMOD_XTS_TMPL_H */
