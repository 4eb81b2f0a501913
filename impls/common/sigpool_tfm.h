/* SPDX-License-Identifier: GPL-2.0-only */
/* sigpool_tfm.h — the crypto layer under both signature pools: algorithms,
 * transforms and requests, in the kernel's vocabulary, on top of libgcrypt.
 *
 *   algorithm  a name as TCP-AO's setsockopt takes it: "md5", "hmac(sha1)",
 *              ..., "cmac(aes128)". Keyless ("md5", "rmd160") or keyed.
 *   transform  (crypto_ahash) what a key is set on.
 *              Keyless: nothing to hold but the algorithm, a reference
 *              count and the handles its requests compute in (below);
 *              cloning it only takes a reference (as crypto_clone_ahash
 *              does for a keyless tfm).
 *              Keyed: a libgcrypt handle holding the key schedule (HMAC:
 *              inner/outer states after ipad/opad; CMAC: AES round keys and
 *              subkeys). Cloning allocates a new handle and copies the state:
 *              gcry_md_copy() for HMAC; for CMAC libgcrypt has no copy, so a
 *              clone is gcry_mac_open() plus, if the source has a key,
 *              gcry_mac_setkey() with the key the source remembers.
 *   request    (ahash_request) the running state of one computation: an
 *              allocation of the kernel's request size (sp_alg.req_bytes),
 *              wiped when freed (kfree_sensitive). libgcrypt cannot keep a
 *              running hash in memory it did not allocate, so the state
 *              itself is computed in a libgcrypt handle the request borrows:
 *              keyed, its transform's handle (which holds the key);
 *              keyless, the handle of the CPU the request was allocated on,
 *              opened with the transform (slow path). That handle is the
 *              request's alone while its CPU slot is held (sigpool_cpu.h),
 *              which is where both pools use requests. So a keyless clone
 *              plus a request costs what the kernel's does: a reference and
 *              one allocation of the request size, no libgcrypt handle.
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
    /* What ahash_request_alloc() allocates for it in Linux 6.7 on x86-64:
     * sizeof(struct ahash_request) (80) + reqsize, where an shash-backed
     * ahash's reqsize is sizeof(struct shash_desc) (8) + the shash's
     * descsize, and hmac's descsize is another shash_desc + the inner
     * hash's (md5_state 88, sha1_state 96, sha256_state 104,
     * sha512_state 208, sha3_state 360, rmd160_ctx 96; cmac_desc_ctx plus
     * two AES blocks about 40). Inferred from the struct layouts [I]. */
    unsigned req_bytes;
} sp_alg;

#define SP_MAX_DIGEST 64
#define SP_CMAC_MAX_KEY 32

/* Every algorithm the pools know, NULL-terminated by name. */
extern const sp_alg sp_algs[];
const sp_alg *sp_alg_find(const char *name);
static inline int sp_alg_needs_key(const sp_alg *a) { return a->kind != SP_HASH; }

/* Events a test can count to see which path ran: per thread (no shared
 * cache line, one increment per event, the same in both pools), read with
 * sp_stats_this_thread(). */
typedef struct sp_stats {
    uint64_t handle_opens;        /* libgcrypt handles opened or copied */
    uint64_t tfm_refs;            /* clones that only took a reference */
    uint64_t req_allocs, req_frees;
} sp_stats;
const sp_stats *sp_stats_this_thread(void);

typedef struct sp_tfm {
    const sp_alg *alg;
    atomic_uint refs;             /* keyless clones are references */
    unsigned ncpu;                /* keyless: CPUs with a hash handle */
    gcry_md_hd_t *cpu_md;         /* keyless: per CPU, what requests compute in */
    int has_key;
    gcry_md_hd_t md;              /* SP_HMAC */
    gcry_mac_hd_t mac;            /* SP_CMAC */
    uint8_t key[SP_CMAC_MAX_KEY]; /* SP_CMAC: what a clone must re-set */
    size_t keylen;
} sp_tfm;

typedef struct sp_req {
    sp_tfm *tfm;                  /* the transform the request computes with */
    gcry_md_hd_t cpu_md;          /* keyless: its CPU's handle (borrowed) */
    size_t size;                  /* bytes allocated: alg->req_bytes */
} sp_req;

/* Slow path (may allocate). `ncpu`: the CPU slots requests may be
 * allocated on (keyless algorithms open one libgcrypt handle per slot).
 * NULL on failure (no memory, libgcrypt refused). */
sp_tfm *sp_tfm_alloc(const sp_alg *alg, unsigned ncpu);
/* crypto_clone_ahash(): keyless -> the same transform with one more
 * reference (no allocation); keyed -> a new transform with a copy of the
 * state. NULL if the allocation failed. */
sp_tfm *sp_tfm_clone(sp_tfm *t);
/* Drop a reference; the last one frees (and wipes) the transform. */
void sp_tfm_free(sp_tfm *t);

/* ahash_request_alloc(): allocate a request on transform t, for use while
 * CPU slot `cpu` (< the transform's ncpu) is held. NULL on failure. */
sp_req *sp_req_alloc(sp_tfm *t, unsigned cpu);
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
