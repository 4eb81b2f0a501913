/* SPDX-License-Identifier: GPL-2.0-only */
/* xts.h — one interface for every XTS implementation of the xts suite.
 *
 * Modelled on the Linux skcipher API that crypto/xts.c implements, so that
 * impls/old/xts.c and impls/new/xts.c can keep the kernel's structure:
 *
 *   transform (xts_tfm)      the keyed object: crypto_alloc_skcipher + setkey.
 *                            Its impl-private part (xts_tfm_ctx) is the
 *                            kernel's "struct priv" (child ECB, tweak cipher).
 *   request   (xts_request)  one en/decryption: dst, src, cryptlen, iv.
 *                            Its impl-private part (xts_request_ctx) is the
 *                            kernel's "struct rctx": allocated once with the
 *                            request (reqsize), reused for every operation.
 *
 * Semantics are those of the 2018 kernel template (v4.19/v4.20):
 *   - key = Key1 || Key2, 32/48/64 bytes = 2 x AES-128/192/256. Key1 is the
 *     data key (child ECB), Key2 the tweak key (T_0 = AES-Enc(Key2, IV)).
 *     Other lengths: -EINVAL. K1 == K2 ("weak" keys) is accepted, as the
 *     kernel did outside FIPS mode (a peer library may refuse: -EKEYREJECTED).
 *   - cryptlen must be a multiple of 16 and at least 16: otherwise -EINVAL
 *     and dst is not touched (no ciphertext stealing before v5.4).
 *   - src == dst (in place) is allowed; partial overlap is not.
 *   - the IV is 16 bytes (for dm-crypt "plain64": the sector number, LE).
 *
 * Every function returns 0 or a negative errno value. */
#ifndef PB_XTS_H
#define PB_XTS_H

#include <stddef.h>
#include <stdint.h>

#define XTS_BLOCK_SIZE 16
#define XTS_IV_SIZE 16
#define XTS_MIN_KEY_SIZE 32
#define XTS_MAX_KEY_SIZE 64

typedef struct xts_tfm xts_tfm;
typedef struct xts_request xts_request;

/* What an implementation provides (the kernel's skcipher_alg). */
typedef struct xts_alg {
    const char *name;          /* "old", "new", "openssl", "gcrypt" */
    const char *driver;        /* one line: what computes (for reports) */
    size_t ctxsize;            /* bytes of xts_tfm_ctx() */
    size_t reqsize;            /* bytes of xts_request_ctx() */
    unsigned key_sizes;        /* XTS_KEYS_* bits the impl supports */
    int (*init_tfm)(xts_tfm *tfm);
    void (*exit_tfm)(xts_tfm *tfm);
    /* keylen is already known to be 32, 48 or 64 and in key_sizes. */
    int (*setkey)(xts_tfm *tfm, const uint8_t *key, size_t keylen);
    /* cryptlen is already validated; the tfm has a key. */
    int (*encrypt)(xts_request *req);
    int (*decrypt)(xts_request *req);
} xts_alg;

#define XTS_KEYS_256 1u  /* 2 x AES-128 */
#define XTS_KEYS_384 2u  /* 2 x AES-192 */
#define XTS_KEYS_512 4u  /* 2 x AES-256 */
#define XTS_KEYS_ALL (XTS_KEYS_256 | XTS_KEYS_384 | XTS_KEYS_512)

/* The kernel's kmalloc and kzfree, as the old template calls them: directly (in 2018 the
 * template called kmalloc/kzfree, no function pointer; a pointer here would cost two retpoline
 * calls per request in the kernel profile that the kernel does not pay). malloc; kzfree zeroes
 * the whole block before freeing it. The allocation-failure path (old-nomem) is a build of the
 * old template of its own (XTS_KMALLOC_FAILS, impls/old_nomem_names.h), not a run-time switch. */
void *xts_kernel_kmalloc(size_t n);
void xts_kernel_kzfree(void *p);

/* Counters a test can read to see which path ran (always kept: one
 * increment per event, the same in every implementation). */
typedef struct xts_stats {
    uint64_t child_calls;      /* calls into the child ECB (one "child request" each) */
    uint64_t allocs;           /* kmalloc calls that succeeded */
    uint64_t alloc_failures;   /* kmalloc calls that returned NULL */
    uint64_t frees;            /* kzfree calls */
    uint64_t last_alloc_size;  /* the size the last kmalloc call asked for */
} xts_stats;

struct xts_tfm {
    const xts_alg *alg;
    const void *reserved;      /* unused; keeps the layout of plug-in ABI 1 (include/patchbench) */
    xts_stats stats;
    int has_key;               /* cleared when setkey fails: the kernel's NEED_KEY */
    void *ctx;                 /* alg->ctxsize bytes, 16-byte aligned */
};

struct xts_request {
    xts_tfm *tfm;
    const uint8_t *src;
    uint8_t *dst;
    size_t cryptlen;
    uint8_t *iv;               /* XTS_IV_SIZE bytes, owned by the caller */
    void *ctx;                 /* alg->reqsize bytes, 16-byte aligned */
};

/* Allocate a transform of an implementation (the impls by name: suites/xts/xts_impls.h). *err
 * gets -EOPNOTSUPP if the peer library is unusable, -ENOMEM. */
xts_tfm *xts_alloc_tfm(const xts_alg *alg, int *err);
void xts_free_tfm(xts_tfm *tfm);

/* -EINVAL: keylen not 32/48/64; -EOPNOTSUPP: a valid XTS key size this
 * implementation does not have (OpenSSL: 2 x AES-192); -EKEYREJECTED: the
 * implementation refuses K1 == K2 (OpenSSL). */
int xts_setkey(xts_tfm *tfm, const uint8_t *key, size_t keylen);
int xts_supports_keylen(const xts_tfm *tfm, size_t keylen);

/* A request belongs to its transform: free it before the transform. */
xts_request *xts_request_alloc(xts_tfm *tfm);
void xts_request_free(xts_request *req);
static inline void xts_request_set_crypt(xts_request *req, const uint8_t *src, uint8_t *dst,
                                         size_t cryptlen, uint8_t *iv)
{
    req->src = src;
    req->dst = dst;
    req->cryptlen = cryptlen;
    req->iv = iv;
}

/* -ENOKEY before a successful setkey; -EINVAL for a bad cryptlen. */
int xts_encrypt(xts_request *req);
int xts_decrypt(xts_request *req);

static inline void *xts_tfm_ctx(const xts_tfm *tfm) { return tfm->ctx; }
static inline void *xts_request_ctx(const xts_request *req) { return req->ctx; }

#endif
