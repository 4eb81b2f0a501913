// SPDX-License-Identifier: GPL-2.0-only
/*
 * Known-answer self-test of an XTS skcipher, in the spirit of testmgr: every
 * vector, both directions, through several scatterlist layouts (in place and
 * out of place, one entry and entries cut inside blocks and across pages),
 * with and without CRYPTO_TFM_REQ_MAY_SLEEP (which selects the old
 * template's GFP flags). The long answers exceed a page, so xts_buffered
 * needs several chunks (and many more with its allocation failure forced).
 */
#include <linux/kernel.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <crypto/hash.h>
#include <crypto/skcipher.h>

#include "pb_kmod.h"
#include "xts_tmpl.h"

struct xts_kat {
	const char *name;
	unsigned int klen, len;
	u8 key[64];
	u8 iv[16];
	const u8 *pt, *ct;
};

struct xts_long_kat {
	const char *name;
	unsigned int klen, len;
	u8 key[64];
	u8 iv[16];
	u8 ct_sha256[32];	/* plaintext: xts_pattern() */
};

#include "xts_kat.h"

#define XTS_SELFTEST_MAX 12336u

struct xts_layout {
	const char *name;
	bool inplace;
	u32 flags;			/* besides CRYPTO_TFM_REQ_MAY_BACKLOG */
	unsigned int src_cuts[3];	/* offsets where a new sg entry starts */
	unsigned int dst_cuts[3];
};

static const struct xts_layout xts_layouts[] = {
	{ "inplace", true, CRYPTO_TFM_REQ_MAY_SLEEP, { 0 }, { 0 } },
	{ "oop-atomic", false, 0, { 0 }, { 0 } },
	{ "split", false, CRYPTO_TFM_REQ_MAY_SLEEP, { 7, 40, 4100 }, { 100, 5000 } },
	{ "split-inplace-atomic", true, 0, { 24, 4104, 8200 }, { 0 } },
};

static u8 xts_pattern_byte(unsigned int i)
{
	return (u8)(i * 7 + (i >> 8));
}

static void xts_pattern(u8 *p, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		p[i] = xts_pattern_byte(i);
}

static bool xts_is_pattern(const u8 *p, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		if (p[i] != xts_pattern_byte(i))
			return false;
	return true;
}

/* @sg (4 entries) over @buf, cut at the offsets in @cuts that are < @len. */
static void xts_build_sg(struct scatterlist *sg, u8 *buf, unsigned int len,
			 const unsigned int *cuts)
{
	unsigned int n = 0, start = 0, i;

	sg_init_table(sg, 4);
	for (i = 0; i < 3 && cuts[i] && cuts[i] < len; i++) {
		sg_set_buf(&sg[n++], buf + start, cuts[i] - start);
		start = cuts[i];
	}
	sg_set_buf(&sg[n++], buf + start, len - start);
	sg_mark_end(&sg[n - 1]);
}

/*
 * One request over @len bytes that the caller put in @a; returns the output
 * buffer (@a in place, else @b) through @out. Waits for async completion.
 */
static int xts_crypt_once(struct crypto_skcipher *tfm,
			  const struct xts_layout *lay, bool enc, u8 *a, u8 *b,
			  unsigned int len, const u8 *iv_in, u8 **out)
{
	struct scatterlist ssg[4], dsg[4];
	struct skcipher_request *req;
	DECLARE_CRYPTO_WAIT(wait);
	u8 iv[XTS_BLOCK_SIZE];
	int err;

	req = skcipher_request_alloc(tfm, GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	memcpy(iv, iv_in, sizeof(iv));
	xts_build_sg(ssg, a, len, lay->src_cuts);
	if (!lay->inplace)
		xts_build_sg(dsg, b, len, lay->dst_cuts);
	skcipher_request_set_callback(req, CRYPTO_TFM_REQ_MAY_BACKLOG | lay->flags,
				      crypto_req_done, &wait);
	skcipher_request_set_crypt(req, ssg, lay->inplace ? ssg : dsg, len, iv);
	err = crypto_wait_req(enc ? crypto_skcipher_encrypt(req) :
				    crypto_skcipher_decrypt(req), &wait);
	skcipher_request_free(req);
	*out = lay->inplace ? a : b;
	return err;
}

struct xts_selftest {
	struct crypto_skcipher *tfm;
	struct crypto_shash *sha256;
	u8 *a, *b;
	char *detail;
	size_t size;
};

static int xts_fail(struct xts_selftest *st, const char *vec, bool enc,
		    const struct xts_layout *lay, int err)
{
	if (err)
		snprintf(st->detail, st->size, "%s/%s/%s:error%d", vec,
			 enc ? "enc" : "dec", lay->name, err);
	else
		snprintf(st->detail, st->size, "%s/%s/%s:mismatch", vec,
			 enc ? "enc" : "dec", lay->name);
	return err ?: -EBADMSG;
}

static int xts_check_kat(struct xts_selftest *st, const struct xts_kat *v)
{
	unsigned int d, l;
	u8 *out;
	int err;

	err = crypto_skcipher_setkey(st->tfm, v->key, v->klen);
	if (err)
		return xts_fail(st, v->name, true, &xts_layouts[0], err);
	for (d = 0; d < 2; d++) {
		bool enc = d == 0;
		const u8 *in = enc ? v->pt : v->ct, *want = enc ? v->ct : v->pt;

		for (l = 0; l < ARRAY_SIZE(xts_layouts); l++) {
			memcpy(st->a, in, v->len);
			err = xts_crypt_once(st->tfm, &xts_layouts[l], enc, st->a,
					     st->b, v->len, v->iv, &out);
			if (err || memcmp(out, want, v->len))
				return xts_fail(st, v->name, enc, &xts_layouts[l], err);
		}
	}
	return 0;
}

static int xts_check_long_kat(struct xts_selftest *st,
			      const struct xts_long_kat *v)
{
	u8 digest[32];
	unsigned int l;
	u8 *out;
	int err;

	err = crypto_skcipher_setkey(st->tfm, v->key, v->klen);
	if (err)
		return xts_fail(st, v->name, true, &xts_layouts[0], err);
	for (l = 0; l < ARRAY_SIZE(xts_layouts); l++) {
		const struct xts_layout *lay = &xts_layouts[l];

		xts_pattern(st->a, v->len);
		err = xts_crypt_once(st->tfm, lay, true, st->a, st->b, v->len,
				     v->iv, &out);
		if (!err)
			err = crypto_shash_tfm_digest(st->sha256, out, v->len, digest);
		if (err || memcmp(digest, v->ct_sha256, sizeof(digest)))
			return xts_fail(st, v->name, true, lay, err);

		if (out != st->a)
			memcpy(st->a, out, v->len);
		err = xts_crypt_once(st->tfm, lay, false, st->a, st->b, v->len,
				     v->iv, &out);
		if (err || !xts_is_pattern(out, v->len))
			return xts_fail(st, v->name, false, lay, err);
	}
	return 0;
}

int pb_xts_selftest(const char *alg, bool nomem, char *detail, size_t size)
{
	struct xts_selftest st = { .detail = detail, .size = size };
	unsigned int i;
	int err;

	st.tfm = crypto_alloc_skcipher(alg, 0, 0);
	if (IS_ERR(st.tfm)) {
		err = PTR_ERR(st.tfm);
		snprintf(detail, size, "alloc:error%d", err);
		return err;
	}
	st.sha256 = crypto_alloc_shash("sha256", 0, 0);
	st.a = kmalloc(XTS_SELFTEST_MAX, GFP_KERNEL);
	st.b = kmalloc(XTS_SELFTEST_MAX, GFP_KERNEL);
	err = -ENOMEM;
	if (IS_ERR(st.sha256)) {
		err = PTR_ERR(st.sha256);
		st.sha256 = NULL;
	}
	if (!st.sha256 || !st.a || !st.b) {
		snprintf(detail, size, "setup:error%d", err);
		goto out;
	}
	if (nomem) {
		err = xts_buffered_force_alloc_failure(st.tfm, true);
		if (err) {
			snprintf(detail, size, "force-nomem:error%d", err);
			goto out;
		}
	}

	for (i = 0; i < ARRAY_SIZE(xts_kats); i++) {
		err = xts_check_kat(&st, &xts_kats[i]);
		if (err)
			goto out;
	}
	for (i = 0; i < ARRAY_SIZE(xts_long_kats); i++) {
		err = xts_check_long_kat(&st, &xts_long_kats[i]);
		if (err)
			goto out;
	}
	snprintf(detail, size, "kats=%zu,long=%zu,layouts=%zu,enc+dec",
		 ARRAY_SIZE(xts_kats), ARRAY_SIZE(xts_long_kats),
		 ARRAY_SIZE(xts_layouts));
out:
	kfree(st.a);
	kfree(st.b);
	crypto_free_shash(st.sha256);
	crypto_free_skcipher(st.tfm);
	return err;
}
