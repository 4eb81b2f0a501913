// SPDX-License-Identifier: GPL-2.0-only
/*
 * The XTS part of a run: self-test and benchmark five implementations.
 *
 *   kmod-old         xts_buffered(<ecb(aes) driver>)   the 2018 parent
 *   kmod-new         xts_recompute(<ecb(aes) driver>)  78105c7e769b + 44427c0
 *   kmod-old-nomem   kmod-old with its kmalloc failing: 128-byte chunks
 *   kmod-builtin     the kernel's own xts(aes), e.g. xts-aes-aesni (by the
 *                    driver name it resolved to, recorded as driver_builtin)
 *   kmod-kernel-xts  xts(<ecb(aes) driver>): the running kernel's generic
 *                    crypto/xts.c template (the design after 78105c7e769b,
 *                    plus ciphertext stealing) over the same child
 *
 * The templates, ours and the kernel's, are instantiated over the driver that
 * ecb(aes) resolves to (e.g. ecb-aes-aesni), by driver name, so that all
 * three measure the same child. Asking for "xts(ecb-aes-aesni)" rather than
 * "xts(aes)" is what makes kmod-kernel-xts the template and not an arch
 * driver such as xts-aes-aesni (that one is kmod-builtin); the driver name
 * of what it got is checked to be exactly that, else it fails its self-test
 * and is not benchmarked. kmod-old, kmod-new and kmod-kernel-xts are also
 * self-tested over cryptd(ecb(aes-generic)), an always-asynchronous child,
 * which exercises their completion callbacks.
 *
 * Benchmark: for each round, key size, direction and data size, one sample
 * per impl, the impls in an order rotated by the round. A sample is @iters
 * requests back to back on one in-place buffer, timed with ktime_get_ns()
 * and get_cycles(); asynchronous results are waited for (crypto_wait_req),
 * as tcrypt does. Requests carry CRYPTO_TFM_REQ_MAY_BACKLOG only, as in
 * tcrypt, so the old template allocates with GFP_ATOMIC.
 *
 * The child alone (impl kmod-child-ecb): in every round and at every key
 * size, the ecb(aes) driver the templates use, keyed with one AES key of
 * half the XTS key, timed the same way on 16-byte and 4096-byte encryptions.
 * Those two sizes give the per-byte cost b and the per-call cost
 * c = t(16) - 16 b of one child request (walk, FPU save/restore, indirect
 * calls), which the old template pays once per chunk and the new one once
 * per request; the userspace model of that cost is calibrated from them
 * (scripts/kmod/child-call-cost.sh, data/xts_child_call.tsv).
 */
#include <linux/kernel.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/timex.h>
#include <linux/timekeeping.h>
#include <crypto/skcipher.h>

#include "pb_kmod.h"
#include "results.h"
#include "xts_tmpl.h"

#define XTS_MAX_SIZE (1u << 20)
#define XTS_ASYNC_CHILD "cryptd(ecb(aes-generic))"

enum { XTS_OLD, XTS_NEW, XTS_OLD_NOMEM, XTS_BUILTIN, XTS_KERNEL, XTS_NIMPL };

struct xts_impl {
	const char *impl;	/* name in the results */
	const char *tmpl;	/* a template over the child, or NULL for xts(aes) */
	bool nomem;
	/* If set, the driver must be named tmpl(child); recorded as this meta key. */
	const char *driver_meta;
	char alg[CRYPTO_MAX_ALG_NAME];
	bool ok;		/* self-test passed */
};

/* The child alone; .alg is the resolved ecb(aes) driver, .ok whether there is one. */
static struct xts_impl xts_child = { .impl = "kmod-child-ecb" };
static const unsigned int xts_child_sizes[] = { 16, 4096 };
#define XTS_CHILD_NSIZES ARRAY_SIZE(xts_child_sizes)

static struct xts_impl xts_impls[XTS_NIMPL] = {
	[XTS_OLD] = { .impl = "kmod-old", .tmpl = "xts_buffered" },
	[XTS_NEW] = { .impl = "kmod-new", .tmpl = "xts_recompute" },
	[XTS_OLD_NOMEM] = { .impl = "kmod-old-nomem", .tmpl = "xts_buffered",
			    .nomem = true },
	[XTS_BUILTIN] = { .impl = "kmod-builtin" },
	[XTS_KERNEL] = { .impl = "kmod-kernel-xts", .tmpl = "xts",
			 .driver_meta = "driver_kernel_xts" },
};

/* Driver name behind a generic skcipher name, e.g. ecb(aes) -> ecb-aes-aesni. */
static int xts_resolve(const char *name, char *drv, size_t size)
{
	struct crypto_skcipher *tfm = crypto_alloc_skcipher(name, 0, 0);

	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	strscpy(drv, crypto_tfm_alg_driver_name(crypto_skcipher_tfm(tfm)), size);
	crypto_free_skcipher(tfm);
	return 0;
}

/*
 * Is @alg served by a driver of that very name? "xts(ecb-aes-aesni)" is the
 * kernel's xts template over ecb-aes-aesni only if what it resolves to is
 * named so; anything else would be measured under a wrong name. The driver
 * found (or "none") is left in @drv, what is wrong in @detail.
 */
static int xts_check_driver(const char *alg, char *drv, size_t drv_size,
			    char *detail, size_t size)
{
	int err = xts_resolve(alg, drv, drv_size);

	if (err) {
		strscpy(drv, "none", drv_size);
		snprintf(detail, size, "alloc:error%d", err);
		return err;
	}
	if (strcmp(drv, alg)) {
		snprintf(detail, size, "driver:%s,not:%s", drv, alg);
		return -ENOENT;
	}
	return 0;
}

/*
 * Self-test @x over its benchmark child and, for the templates, over the
 * asynchronous child too (skipped, and said so, where cryptd is missing).
 * @builtin: what kmod-builtin allocates, the driver that xts(aes) resolved
 * to (or xts(aes) itself where it resolved to nothing).
 */
static void xts_selftest_impl(struct xts_impl *x, const char *child,
			      const char *builtin)
{
	char detail[160], adetail[160], async_alg[CRYPTO_MAX_ALG_NAME];
	char tok[160], drv[CRYPTO_MAX_ALG_NAME];
	int err = 0;

	if (x->tmpl)
		snprintf(x->alg, sizeof(x->alg), "%s(%s)", x->tmpl, child);
	else
		strscpy(x->alg, builtin, sizeof(x->alg));

	if (x->driver_meta) {
		err = xts_check_driver(x->alg, drv, sizeof(drv), detail,
				       sizeof(detail));
		pb_emit("meta %s=%s", x->driver_meta,
			pb_token(tok, sizeof(tok), drv));
	}
	if (!err)
		err = pb_xts_selftest(x->alg, x->nomem, detail, sizeof(detail));
	if (!err && x->tmpl) {
		if (xts_resolve(XTS_ASYNC_CHILD, async_alg, sizeof(async_alg))) {
			strlcat(detail, ",async=unavailable", sizeof(detail));
		} else {
			snprintf(async_alg, sizeof(async_alg), "%s(%s)", x->tmpl,
				 XTS_ASYNC_CHILD);
			err = pb_xts_selftest(async_alg, x->nomem, adetail,
					      sizeof(adetail));
			if (err)
				snprintf(detail, sizeof(detail), "async:%s", adetail);
			else
				strlcat(detail, ",async=" XTS_ASYNC_CHILD,
					sizeof(detail));
		}
	}
	x->ok = !err;
	pb_emit("selftest impl=%s status=%s detail=%s", x->impl,
		err ? "fail" : "pass", pb_token(tok, sizeof(tok), detail));
	if (err)
		pr_err("patchbench: %s (%s) failed its self-test: %s; not benchmarked\n",
		       x->impl, x->alg, detail);
}

/* One impl at one key size: its tfm and request. */
struct xts_slot {
	struct crypto_skcipher *tfm;
	struct skcipher_request *req;
	struct crypto_wait wait;
	struct scatterlist sg;
	u8 iv[XTS_BLOCK_SIZE];
};

static void xts_slot_free(struct xts_slot *s)
{
	skcipher_request_free(s->req);
	if (s->tfm)
		crypto_free_skcipher(s->tfm);
	memset(s, 0, sizeof(*s));
}

static int xts_slot_init(struct xts_slot *s, const struct xts_impl *x,
			 const u8 *key, unsigned int keylen)
{
	int err;

	s->tfm = crypto_alloc_skcipher(x->alg, 0, 0);
	if (IS_ERR(s->tfm)) {
		err = PTR_ERR(s->tfm);
		s->tfm = NULL;
		return err;
	}
	err = x->nomem ? xts_buffered_force_alloc_failure(s->tfm, true) : 0;
	if (!err)
		err = crypto_skcipher_setkey(s->tfm, key, keylen);
	s->req = err ? NULL : skcipher_request_alloc(s->tfm, GFP_KERNEL);
	if (!err && !s->req)
		err = -ENOMEM;
	if (err) {
		xts_slot_free(s);
		return err;
	}
	crypto_init_wait(&s->wait);
	skcipher_request_set_callback(s->req, CRYPTO_TFM_REQ_MAY_BACKLOG,
				      crypto_req_done, &s->wait);
	memset(s->iv, 0xa5, sizeof(s->iv));
	return 0;
}

/* @iters requests of @size bytes in place on @data; total ns and ticks. */
static int xts_sample(struct xts_slot *s, bool enc, u8 *data, unsigned int size,
		      unsigned int iters, u64 *ns, u64 *cycles)
{
	unsigned int i;
	u64 t0, c0;
	int err = 0;

	sg_init_one(&s->sg, data, size);
	skcipher_request_set_crypt(s->req, &s->sg, &s->sg, size, s->iv);

	c0 = get_cycles();
	t0 = ktime_get_ns();
	for (i = 0; i < iters && !err; i++)
		err = crypto_wait_req(enc ? crypto_skcipher_encrypt(s->req) :
					    crypto_skcipher_decrypt(s->req),
				      &s->wait);
	*ns = ktime_get_ns() - t0;
	*cycles = get_cycles() - c0;
	return err;
}

struct xts_bench {
	struct xts_slot slot[PB_MAX_KEYS][XTS_NIMPL];
	struct xts_slot child[PB_MAX_KEYS];	/* the child alone, one AES key */
	unsigned int sizes[PB_MAX_SIZES], nsizes;
	u8 *data;
};

/* @err, if non-zero, is appended to @reason as "-error<N>". */
static void xts_unavailable(unsigned int impl, unsigned int bits,
			    const char *reason, int err)
{
	if (err)
		pb_emit("unavailable suite=xts impl=%s variant=%u reason=%s-error%d",
			xts_impls[impl].impl, bits, reason, err);
	else
		pb_emit("unavailable suite=xts impl=%s variant=%u reason=%s",
			xts_impls[impl].impl, bits, reason);
}

static int xts_bench_setup(struct xts_bench *b)
{
	unsigned int i, k, maxsize = 0;
	u8 key[64];

	for (i = 0; i < pb_param_nsizes; i++) {
		unsigned int sz = pb_param_sizes[i];

		if (!sz || sz % XTS_BLOCK_SIZE || sz > XTS_MAX_SIZE) {
			pr_warn("patchbench: xts size %u skipped: not a multiple of 16 in 16..%u\n",
				sz, XTS_MAX_SIZE);
			pb_emit("meta xts_skipped_size=%u", sz);
			continue;
		}
		b->sizes[b->nsizes++] = sz;
		maxsize = max(maxsize, sz);
	}
	maxsize = max(maxsize, xts_child_sizes[XTS_CHILD_NSIZES - 1]);
	b->data = kmalloc(maxsize, GFP_KERNEL);
	if (!b->data)
		return -ENOMEM;
	memset(b->data, 0x5a, maxsize);

	for (i = 0; i < sizeof(key); i++)
		key[i] = (u8)(i * 29 + 1);
	for (k = 0; k < pb_param_nkeys; k++) {
		unsigned int bits = pb_param_keys[k];
		int err;

		for (i = 0; i < XTS_NIMPL; i++) {
			if (!xts_impls[i].ok) {
				xts_unavailable(i, bits, "selftest-failed", 0);
				continue;
			}
			if (bits != 256 && bits != 384 && bits != 512) {
				xts_unavailable(i, bits, "bad-key-bits", 0);
				continue;
			}
			err = xts_slot_init(&b->slot[k][i], &xts_impls[i], key,
					    bits / 8);
			if (err)
				xts_unavailable(i, bits, "setup-error", err);
		}
		if (!xts_child.ok || (bits != 256 && bits != 384 && bits != 512))
			continue;
		err = xts_slot_init(&b->child[k], &xts_child, key, bits / 16);
		if (err)
			pb_emit("unavailable suite=xts impl=%s variant=%u reason=setup-error-error%d",
				xts_child.impl, bits, err);
	}
	return 0;
}

/* One round of the child alone at key index @k, its two sizes in an order rotated by @r. */
static void xts_child_round(struct xts_bench *b, unsigned int r, unsigned int k)
{
	struct xts_slot *s = &b->child[k];
	unsigned int z;

	for (z = 0; z < XTS_CHILD_NSIZES && s->req; z++) {
		unsigned int size = xts_child_sizes[(r + z) % XTS_CHILD_NSIZES];
		unsigned int iters = pb_iters_for(size);
		u64 ns, cyc;
		int err = xts_sample(s, true, b->data, size, iters, &ns, &cyc);

		if (err) {
			pb_emit("unavailable suite=xts impl=%s variant=%u reason=crypt-error-error%d",
				xts_child.impl, pb_param_keys[k], err);
			xts_slot_free(s);
			return;
		}
		pb_emit("sample suite=xts impl=%s variant=%u op=enc size=%u round=%u iters=%u ns=%llu cycles=%llu",
			xts_child.impl, pb_param_keys[k], size, r, iters, ns, cyc);
		pb_pause();
	}
}

static void xts_bench_run(struct xts_bench *b)
{
	unsigned int r, k, op, z, j;

	/* Warm-up: a few requests per slot and size, not recorded. */
	for (k = 0; k < pb_param_nkeys; k++) {
		for (z = 0; z < XTS_CHILD_NSIZES && b->child[k].req; z++) {
			u64 ns, cyc;

			xts_sample(&b->child[k], true, b->data, xts_child_sizes[z],
				   min(pb_iters_for(xts_child_sizes[z]), 4u), &ns, &cyc);
		}
		for (j = 0; j < XTS_NIMPL; j++)
			for (z = 0; z < b->nsizes && b->slot[k][j].req; z++) {
				u64 ns, cyc;

				xts_sample(&b->slot[k][j], true, b->data, b->sizes[z],
					   min(pb_iters_for(b->sizes[z]), 4u), &ns, &cyc);
				pb_pause();
			}
	}

	for (r = 0; r < pb_param_rounds; r++)
		for (k = 0; k < pb_param_nkeys; k++) {
			xts_child_round(b, r, k);
			for (op = 0; op < 2; op++)
				for (z = 0; z < b->nsizes; z++)
					for (j = 0; j < XTS_NIMPL; j++) {
						unsigned int i = (r + j) % XTS_NIMPL;
						struct xts_slot *s = &b->slot[k][i];
						unsigned int size = b->sizes[z];
						unsigned int iters = pb_iters_for(size);
						u64 ns, cyc;
						int err;

						if (!s->req)
							continue;
						err = xts_sample(s, op == 0, b->data, size, iters,
								 &ns, &cyc);
						if (err) {
							xts_unavailable(i, pb_param_keys[k],
									"crypt-error", err);
							xts_slot_free(s);
							continue;
						}
						pb_emit("sample suite=xts impl=%s variant=%u op=%s size=%u round=%u iters=%u ns=%llu cycles=%llu",
							xts_impls[i].impl, pb_param_keys[k],
							op == 0 ? "enc" : "dec", size, r, iters,
							ns, cyc);
						pb_pause();
					}
		}
}

void pb_xts_part(bool bench)
{
	char child[CRYPTO_MAX_ALG_NAME], builtin[CRYPTO_MAX_ALG_NAME], tok[CRYPTO_MAX_ALG_NAME];
	struct xts_bench *b;
	unsigned int i, k;
	int err;

	err = xts_resolve("ecb(aes)", child, sizeof(child));
	if (err) {
		/* Nothing to build the templates on; they cannot be tested. */
		pb_emit("meta child_driver=none");
		strscpy(child, "ecb(aes)", sizeof(child));
	} else {
		pb_emit("meta child_driver=%s", pb_token(tok, sizeof(tok), child));
		strscpy(xts_child.alg, child, sizeof(xts_child.alg));
	}
	xts_child.ok = !err;
	/*
	 * kmod-builtin is then allocated by this driver name, so that what it
	 * measures is what driver_builtin says even where a template instance
	 * made later (kmod-kernel-xts's) has the arch driver's priority.
	 */
	err = xts_resolve("xts(aes)", builtin, sizeof(builtin));
	pb_emit("meta driver_builtin=%s",
		err ? "none" : pb_token(tok, sizeof(tok), builtin));
	if (err)
		strscpy(builtin, "xts(aes)", sizeof(builtin));

	for (i = 0; i < XTS_NIMPL; i++)
		xts_selftest_impl(&xts_impls[i], child, builtin);

	if (!bench)
		return;
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b || xts_bench_setup(b)) {
		for (k = 0; k < pb_param_nkeys; k++)
			for (i = 0; i < XTS_NIMPL; i++)
				xts_unavailable(i, pb_param_keys[k], "out-of-memory", 0);
	} else {
		xts_bench_run(b);
	}
	if (!b)
		return;
	for (k = 0; k < PB_MAX_KEYS; k++) {
		for (i = 0; i < XTS_NIMPL; i++)
			xts_slot_free(&b->slot[k][i]);
		xts_slot_free(&b->child[k]);
	}
	kfree(b->data);
	kfree(b);
}
