// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sigpool part of a run: how TCP gets a hash request per segment, before
 * and after 8c73b26315aa ("net/tcp: Prepare tcp_md5sig_pool for TCP-AO"),
 * SPEC section 2, rebuilt here on the kernel's ahash API.
 *
 *   kmod-old  per-CPU ahash requests, allocated once (tcp_md5sig_pool; for
 *             keyed algorithms the v6 posting's fallback: one tfm per CPU).
 *             Per segment: BH off, this CPU's request, BH on. No allocation.
 *   kmod-new  tcp_sigpool: one tfm per algorithm; per segment, under
 *             rcu_read_lock_bh(), crypto_clone_ahash() it (a reference for
 *             keyless md5, a new tfm for keyed ones) and allocate a request
 *             GFP_ATOMIC; free both after. Needs Linux 6.4.
 *
 * One segment is hashed as TCP does (SPEC 2.2, 2.6): md5 = TCP-MD5, over
 * pseudo-header + 20-byte TCP header, payload, key; keyed algorithms = TCP-AO,
 * setkey(traffic key) per segment, then SNE + pseudo-header + header,
 * payload. Headers go through a per-CPU scratch buffer as in the kernel.
 */
#include <linux/bottom_half.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/timex.h>
#include <linux/timekeeping.h>
#include <crypto/hash.h>

#include "compat.h"
#include "pb_kmod.h"
#include "results.h"

#define SP_SCRATCH 60		/* as tcp_md5sig_pool: pseudo-hdr union + tcphdr */
#define SP_MAX_ALGS 16
#define SP_MAX_PAYLOAD 65536u
#define SP_KAT_PAYLOAD 1448u

struct sp_kat {
	const char *alg;
	unsigned int len;
	u8 digest[64];
};

#include "sigpool_kat.h"

enum { SP_OLD, SP_NEW, SP_NIMPL };
static const char *const sp_impl_names[SP_NIMPL] = { "kmod-old", "kmod-new" };

struct sp_pcpu {
	struct ahash_request *req;	/* kmod-old only */
	u8 *scratch;
};

struct sp_alg {
	char name[CRYPTO_MAX_ALG_NAME];
	bool keyed;		/* TCP-AO style: setkey per segment */
	bool ready[SP_NIMPL];
	struct crypto_ahash *new_tfm;	/* kmod-new: the pool's tfm, cloned per use */
	struct sp_pcpu __percpu *pcpu;	/* both: scratch; kmod-old: requests */
	unsigned int digestsize;
};

struct sp_bench {
	struct sp_alg alg[SP_MAX_ALGS];
	unsigned int nalgs;
	u8 *payload;		/* shared, read-only */
	unsigned int payload_len;
	struct scatterlist payload_sg;
	u8 *key;		/* MD5 key / AO traffic key */
	u8 *hdr;		/* the headers copied into scratch per segment */
	unsigned int hdr_len[2];	/* [keyed]: 32 for MD5, 36 with the SNE */
	u8 *out;
};

/* The segment's headers: SNE, IPv4 pseudo-header, TCP header (csum 0). */
static void sp_build_headers(struct sp_bench *b)
{
	static const u8 tcph[20] = {
		0x13, 0x89, 0x9c, 0x40,		/* ports 5001 -> 40000 */
		0x01, 0x02, 0x03, 0x04,		/* seq */
		0x0a, 0x0b, 0x0c, 0x0d,		/* ack */
		0x50, 0x10, 0xff, 0xff,		/* doff 5, ACK, window */
		0x00, 0x00, 0x00, 0x00,		/* checksum 0, urg 0 */
	};
	unsigned int seglen = sizeof(tcph) + b->payload_len;
	u8 *p = b->hdr;

	memset(p, 0, 4);		/* SNE (TCP-AO only) */
	p += 4;
	p[0] = 10; p[1] = 0; p[2] = 0; p[3] = 1;	/* saddr 10.0.0.1 */
	p[4] = 10; p[5] = 0; p[6] = 0; p[7] = 2;	/* daddr 10.0.0.2 */
	p[8] = 0;
	p[9] = 6;					/* IPPROTO_TCP */
	p[10] = seglen >> 8;
	p[11] = seglen & 0xff;
	memcpy(p + 12, tcph, sizeof(tcph));
	b->hdr_len[0] = 32;
	b->hdr_len[1] = 36;
}

/* init, headers, payload, (MD5: key), final: what tcp_v4_md5_hash_skb does. */
static int sp_hash_segment(struct sp_bench *b, struct sp_alg *a,
			   struct ahash_request *req, u8 *scratch)
{
	const u8 *hdr = a->keyed ? b->hdr : b->hdr + 4;
	unsigned int hdr_len = b->hdr_len[a->keyed];
	struct scatterlist sg;
	int err;

	if (a->keyed) {
		err = crypto_ahash_setkey(crypto_ahash_reqtfm(req), b->key,
					  a->digestsize);
		if (err)
			return err;
	}
	memcpy(scratch, hdr, hdr_len);
	err = crypto_ahash_init(req);
	if (err)
		return err;
	sg_init_one(&sg, scratch, hdr_len);
	ahash_request_set_crypt(req, &sg, NULL, hdr_len);
	err = crypto_ahash_update(req);
	if (err)
		return err;
	ahash_request_set_crypt(req, &b->payload_sg, NULL, b->payload_len);
	err = crypto_ahash_update(req);
	if (err)
		return err;
	if (!a->keyed) {
		sg_init_one(&sg, b->key, 16);
		ahash_request_set_crypt(req, &sg, NULL, 16);
		err = crypto_ahash_update(req);
		if (err)
			return err;
	}
	ahash_request_set_crypt(req, NULL, b->out, 0);
	return crypto_ahash_final(req);
}

static int sp_segment_old(struct sp_bench *b, struct sp_alg *a)
{
	struct sp_pcpu *p;
	int err;

	local_bh_disable();
	p = this_cpu_ptr(a->pcpu);
	err = sp_hash_segment(b, a, p->req, p->scratch);
	local_bh_enable();
	return err;
}

#if PB_HAVE_CLONE_AHASH
static int sp_segment_new(struct sp_bench *b, struct sp_alg *a)
{
	struct ahash_request *req;
	struct crypto_ahash *hash;
	int err;

	rcu_read_lock_bh();
	hash = crypto_clone_ahash(a->new_tfm);
	if (IS_ERR(hash)) {
		rcu_read_unlock_bh();
		return PTR_ERR(hash);
	}
	req = ahash_request_alloc(hash, GFP_ATOMIC);
	if (!req) {
		rcu_read_unlock_bh();
		crypto_free_ahash(hash);
		return -ENOMEM;
	}
	ahash_request_set_callback(req, 0, NULL, NULL);
	err = sp_hash_segment(b, a, req, this_cpu_ptr(a->pcpu)->scratch);
	rcu_read_unlock_bh();
	ahash_request_free(req);
	crypto_free_ahash(hash);
	return err;
}
#else
static int sp_segment_new(struct sp_bench *b, struct sp_alg *a)
{
	return -EOPNOTSUPP;
}
#endif

static int sp_segment(struct sp_bench *b, struct sp_alg *a, unsigned int impl)
{
	return impl == SP_OLD ? sp_segment_old(b, a) : sp_segment_new(b, a);
}

/* The variant as the document names it: TCP-AO's user-visible name cmac(aes128) is
 * the crypto API's cmac(aes) (the kernel maps one to the other at key-add time). */
static const char *sp_variant(const char *name)
{
	return strcmp(name, "cmac(aes)") ? name : "cmac(aes128)";
}

static void sp_unavailable(const struct sp_alg *a, unsigned int impl,
			   const char *reason, int err)
{
	char tok[CRYPTO_MAX_ALG_NAME];

	pb_token(tok, sizeof(tok), sp_variant(a->name));
	if (err)
		pb_emit("unavailable suite=sigpool impl=%s variant=%s reason=%s-error%d",
			sp_impl_names[impl], tok, reason, err);
	else
		pb_emit("unavailable suite=sigpool impl=%s variant=%s reason=%s",
			sp_impl_names[impl], tok, reason);
}

static void sp_alg_free(struct sp_alg *a)
{
	struct crypto_ahash *shared = NULL;
	int cpu;

	if (a->pcpu) {
		for_each_possible_cpu(cpu) {
			struct sp_pcpu *p = per_cpu_ptr(a->pcpu, cpu);

			kfree(p->scratch);
			if (p->req) {
				struct crypto_ahash *tfm = crypto_ahash_reqtfm(p->req);

				ahash_request_free(p->req);
				/* keyless: all CPUs share one tfm, free it once */
				if (a->keyed)
					crypto_free_ahash(tfm);
				else
					shared = tfm;
			}
		}
		free_percpu(a->pcpu);
	}
	if (shared)
		crypto_free_ahash(shared);
	if (a->new_tfm)
		crypto_free_ahash(a->new_tfm);
	memset(a->ready, 0, sizeof(a->ready));
	a->pcpu = NULL;
	a->new_tfm = NULL;
}

/*
 * kmod-old's pool, allocated up front as __tcp_alloc_md5sig_pool did:
 * synchronous algorithms only, a request per possible CPU; keyless algorithms
 * share one tfm, keyed ones get a tfm per CPU (setkey per segment would race).
 */
static int sp_old_setup(struct sp_alg *a)
{
	struct crypto_ahash *tfm = NULL;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct sp_pcpu *p = per_cpu_ptr(a->pcpu, cpu);

		if (!tfm || a->keyed) {
			tfm = crypto_alloc_ahash(a->name, 0, CRYPTO_ALG_ASYNC);
			if (IS_ERR(tfm))
				return PTR_ERR(tfm);
		}
		p->req = ahash_request_alloc(tfm, GFP_KERNEL);
		if (!p->req) {
			if (a->keyed || cpu == cpumask_first(cpu_possible_mask))
				crypto_free_ahash(tfm);
			return -ENOMEM;
		}
		ahash_request_set_callback(p->req, 0, NULL, NULL);
	}
	return 0;
}

/* kmod-new's pool: one tfm, test-cloned once as tcp_sigpool_alloc_ahash does. */
static int sp_new_setup(struct sp_alg *a)
{
#if PB_HAVE_CLONE_AHASH
	struct crypto_ahash *clone;

	a->new_tfm = crypto_alloc_ahash(a->name, 0, CRYPTO_ALG_ASYNC);
	if (IS_ERR(a->new_tfm)) {
		int err = PTR_ERR(a->new_tfm);

		a->new_tfm = NULL;
		return err;
	}
	clone = crypto_clone_ahash(a->new_tfm);
	if (IS_ERR(clone))
		return PTR_ERR(clone);
	crypto_free_ahash(clone);
	return 0;
#else
	return -EOPNOTSUPP;
#endif
}

static int sp_alg_setup(struct sp_alg *a)
{
	struct crypto_ahash *probe;
	int cpu, err;

	probe = crypto_alloc_ahash(a->name, 0, CRYPTO_ALG_ASYNC);
	if (IS_ERR(probe))
		return PTR_ERR(probe);
	a->keyed = crypto_ahash_get_flags(probe) & CRYPTO_TFM_NEED_KEY;
	a->digestsize = crypto_ahash_digestsize(probe);
	crypto_free_ahash(probe);
	if (a->digestsize > 64)	/* also the key length: digest-sized AO traffic keys */
		return -EINVAL;

	a->pcpu = alloc_percpu(struct sp_pcpu);
	if (!a->pcpu)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		u8 *s = kmalloc_node(SP_SCRATCH, GFP_KERNEL, cpu_to_node(cpu));

		if (!s)
			return -ENOMEM;
		per_cpu_ptr(a->pcpu, cpu)->scratch = s;
	}

	err = sp_old_setup(a);
	if (err)
		sp_unavailable(a, SP_OLD, "setup", err);
	a->ready[SP_OLD] = !err;

	err = sp_new_setup(a);
	if (err == -EOPNOTSUPP)
		sp_unavailable(a, SP_NEW, "crypto_clone_ahash-needs-6.4", 0);
	else if (err)
		sp_unavailable(a, SP_NEW, "clone", err);
	a->ready[SP_NEW] = !err;
	return 0;
}

static const struct sp_kat *sp_find_kat(const char *alg)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sp_kats); i++)
		if (!strcmp(sp_kats[i].alg, alg))
			return &sp_kats[i];
	return NULL;
}

/*
 * Known answers on a 1448-byte segment (scripts/kmod/gen_sigpool_kat.py);
 * algorithms without one are only checked old against new.
 */
static void sp_selftest(struct sp_bench *b)
{
	unsigned int saved = b->payload_len, i, impl, tested[SP_NIMPL] = { 0 };
	char fail[SP_NIMPL][96] = { "", "" }, tok[96];
	u8 first[64];

	b->payload_len = SP_KAT_PAYLOAD;
	sg_init_one(&b->payload_sg, b->payload, b->payload_len);
	sp_build_headers(b);

	for (i = 0; i < b->nalgs; i++) {
		struct sp_alg *a = &b->alg[i];
		const struct sp_kat *kat = sp_find_kat(a->name);
		bool have_first = false;

		for (impl = 0; impl < SP_NIMPL; impl++) {
			const u8 *want = kat ? kat->digest : have_first ? first : NULL;
			int err;

			if (!a->ready[impl])
				continue;
			err = sp_segment(b, a, impl);
			if (!err && want && memcmp(b->out, want, a->digestsize))
				err = -EBADMSG;
			if (err) {
				if (!fail[impl][0])
					snprintf(fail[impl], sizeof(fail[impl]),
						 "sigpool:%s:error%d", a->name, err);
				sp_unavailable(a, impl, "selftest-failed", 0);
				a->ready[impl] = false;
				continue;
			}
			tested[impl]++;
			if (!have_first) {
				memcpy(first, b->out, a->digestsize);
				have_first = true;
			}
		}
	}

	for (impl = 0; impl < SP_NIMPL; impl++) {
		if (fail[impl][0])
			pb_emit("selftest impl=%s status=fail detail=%s",
				sp_impl_names[impl], pb_token(tok, sizeof(tok), fail[impl]));
		else if (tested[impl])
			pb_emit("selftest impl=%s status=pass detail=sigpool:%u-algs",
				sp_impl_names[impl], tested[impl]);
		else	/* nothing to test: every algorithm is unavailable */
			pb_emit("selftest impl=%s status=pass detail=sigpool:none-available",
				sp_impl_names[impl]);
	}

	b->payload_len = saved;
	sg_init_one(&b->payload_sg, b->payload, b->payload_len);
	sp_build_headers(b);
}

static void sp_bench_run(struct sp_bench *b)
{
	unsigned int iters = pb_iters_for(b->payload_len + b->hdr_len[0]);
	unsigned int r, i, j, n;

	for (r = 0; r < pb_param_rounds; r++)
		for (i = 0; i < b->nalgs; i++)
			for (j = 0; j < SP_NIMPL; j++) {
				unsigned int impl = (r + j) % SP_NIMPL;
				struct sp_alg *a = &b->alg[i];
				char tok[CRYPTO_MAX_ALG_NAME];
				u64 t0, c0, ns, cyc;
				int err = 0;

				if (!a->ready[impl])
					continue;
				if (r == 0)	/* warm-up, not recorded */
					for (n = 0; n < min(iters, 4u) && !err; n++)
						err = sp_segment(b, a, impl);
				c0 = get_cycles();
				t0 = ktime_get_ns();
				for (n = 0; n < iters && !err; n++)
					err = sp_segment(b, a, impl);
				ns = ktime_get_ns() - t0;
				cyc = get_cycles() - c0;
				if (err) {
					sp_unavailable(a, impl, "hash", err);
					a->ready[impl] = false;
					continue;
				}
				pb_emit("sample suite=sigpool impl=%s variant=%s op=segment size=%u round=%u iters=%u ns=%llu cycles=%llu",
					sp_impl_names[impl], pb_token(tok, sizeof(tok), sp_variant(a->name)),
					b->payload_len, r, iters, ns, cyc);
				pb_pause();
			}
}

/* Split the sigpool_algs parameter into b->alg[].name. */
static void sp_parse_algs(struct sp_bench *b)
{
	const char *p = pb_param_algs;

	while (p && *p && b->nalgs < SP_MAX_ALGS) {
		const char *end = strchrnul(p, ',');
		size_t n = min_t(size_t, end - p, CRYPTO_MAX_ALG_NAME - 1);

		if (n) {
			memcpy(b->alg[b->nalgs].name, p, n);
			b->alg[b->nalgs].name[n] = '\0';
			b->nalgs++;
		}
		p = *end ? end + 1 : end;
	}
}

void pb_sigpool_part(bool bench)
{
	struct sp_bench *b;
	unsigned int i, impl;

	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return;
	sp_parse_algs(b);
	b->payload_len = clamp(pb_param_payload, 1u, SP_MAX_PAYLOAD);
	b->payload = kmalloc(max(b->payload_len, SP_KAT_PAYLOAD), GFP_KERNEL);
	b->key = kmalloc(64, GFP_KERNEL);
	b->hdr = kmalloc(64, GFP_KERNEL);
	b->out = kmalloc(64, GFP_KERNEL);
	if (!b->payload || !b->key || !b->hdr || !b->out) {
		for (i = 0; i < b->nalgs; i++)
			for (impl = 0; impl < SP_NIMPL; impl++)
				sp_unavailable(&b->alg[i], impl, "out-of-memory", 0);
		goto out;
	}
	for (i = 0; i < max(b->payload_len, SP_KAT_PAYLOAD); i++)
		b->payload[i] = (u8)(i * 11 + 3);
	for (i = 0; i < 64; i++)
		b->key[i] = (u8)(i * 13 + 1);

	for (i = 0; i < b->nalgs; i++) {
		struct sp_alg *a = &b->alg[i];
		int err = sp_alg_setup(a);

		if (err) {
			for (impl = 0; impl < SP_NIMPL; impl++)
				sp_unavailable(a, impl, "not-available", err);
			sp_alg_free(a);
		}
	}
	sp_selftest(b);
	if (bench)
		sp_bench_run(b);
out:
	for (i = 0; i < b->nalgs; i++)
		sp_alg_free(&b->alg[i]);
	kfree(b->payload);
	kfree(b->key);
	kfree(b->hdr);
	kfree(b->out);
	kfree(b);
}
