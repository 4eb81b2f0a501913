/* sigpool_tfm.h — the crypto layer under both signature pools: algorithms,
 * transforms and requests, in the kernel's vocabulary, on top of libgcrypt.
 *
 *   algorithm  a name as TCP-AO's setsockopt takes it: "md5", "hmac(sha1)",
 *              ..., "cmac(aes128)". Keyless ("md5", "rmd160") or keyed.
 *   transform  (crypto_ahash) what a key is set on.
 *              Keyless: libgcrypt has no object for an unkeyed hash, so the
 *              transform is the algorithm plus a reference count, and
 *              cloning it only takes a reference (as crypto_clone_ahash
 *              does for a keyless tfm).
 *              Keyed: a libgcrypt handle holding the key schedule (HMAC:
 *              inner/outer states after ipad/opad; CMAC: AES round keys and
 *              subkeys). Cloning allocates a new handle and copies the state:
 *              gcry_md_copy() for HMAC; for CMAC libgcrypt has no copy, so a
 *              clone is gcry_mac_open() plus, if the source has a key,
 *              gcry_mac_setkey() with the key the source remembers.
 *   request    (ahash_request) the running state of one computation.
 *              libgcrypt keeps the running state in the same handle as the
 *              key, so a keyed request borrows its transform's handle; a
 *              keyless request owns a handle of its own.
 *
 * Thread safety: a transform may be cloned by many threads at once as long
 * as nobody hashes with it or sets its key meanwhile (gcry_md_copy only
 * reads a handle whose buffer is empty). A request belongs to one thread. */
#ifndef PB_SIGPOOL_TFM_H
#define PB_SIGPOOL_TFM_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <gcrypt.h>

typedef enum { SP_HASH, SP_HMAC, SP_CMAC } sp_kind;

typedef struct sp_alg {
    const char *name;      /* "hmac(sha1)" */
    sp_kind kind;
    int gcry_algo;         /* GCRY_MD_* (SP_HASH, SP_HMAC) or GCRY_MAC_* (SP_CMAC) */
    unsigned digest_len;   /* bytes of the full digest / MAC */
} sp_alg;

#define SP_MAX_DIGEST 64
#define SP_CMAC_MAX_KEY 32

/* Every algorithm the pools know, NULL-terminated by name. */
extern const sp_alg sp_algs[];
const sp_alg *sp_alg_find(const char *name);
static inline int sp_alg_needs_key(const sp_alg *a) { return a->kind != SP_HASH; }

typedef struct sp_tfm {
    const sp_alg *alg;
    atomic_uint refs;             /* keyless clones are references */
    int has_key;
    gcry_md_hd_t md;              /* SP_HMAC */
    gcry_mac_hd_t mac;            /* SP_CMAC */
    uint8_t key[SP_CMAC_MAX_KEY]; /* SP_CMAC: what a clone must re-set */
    size_t keylen;
} sp_tfm;

typedef struct sp_req {
    sp_tfm *tfm;                  /* the transform the request computes with */
    gcry_md_hd_t own;             /* keyless: the request's own hash state */
} sp_req;

/* Slow path (may allocate). NULL on failure (unknown algorithm, no memory). */
sp_tfm *sp_tfm_alloc(const sp_alg *alg);
/* crypto_clone_ahash(): keyless -> the same transform with one more
 * reference (no allocation); keyed -> a new transform with a copy of the
 * state. NULL if the allocation failed. */
sp_tfm *sp_tfm_clone(sp_tfm *t);
/* Drop a reference; the last one frees (and wipes) the transform. */
void sp_tfm_free(sp_tfm *t);

/* ahash_request_alloc(): allocate a request on transform t. NULL on failure. */
sp_req *sp_req_alloc(sp_tfm *t);
/* Wipe and free (kfree_sensitive). NULL is a no-op. */
void sp_req_free(sp_req *r);

/* The hash operations on a request. All return 0 or -errno:
 * setkey: -EINVAL on a keyless algorithm or a key libgcrypt refuses;
 * init:   -ENOKEY on a keyed algorithm whose transform has no key yet. */
int sp_setkey(sp_req *r, const void *key, size_t len);
int sp_init(sp_req *r);
void sp_update(sp_req *r, const void *data, size_t len);
/* Writes alg->digest_len bytes. The request needs sp_init() before reuse. */
int sp_final(sp_req *r, uint8_t *out);

#endif
