/* SPDX-License-Identifier: GPL-2.0-only */
/* xts.c — the XTS API of xts.h: transform and request allocation, and the
 * checks every implementation shares (the kernel does them in
 * crypto_skcipher_setkey/encrypt and the skcipher walk). Which implementations
 * exist, by name, is the suite's directory (suites/xts/xts_impls.c). */
#include "xts.h"

#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

void *xts_kernel_kmalloc(size_t n)
{
    return malloc(n);
}

/* kzfree zeroes the whole object (ksize), not just what was asked for. */
void xts_kernel_kzfree(void *p)
{
    if (!p) return;
    explicit_bzero(p, malloc_usable_size(p));
    free(p);
}

static size_t round16(size_t n)
{
    return (n + 15) & ~(size_t)15;
}

/* zeroed, 16-byte aligned (le128 and the child's state) */
static void *zalloc16(size_t n)
{
    n = round16(n ? n : 1);
    void *p = aligned_alloc(16, n);
    if (p) memset(p, 0, n);
    return p;
}

xts_tfm *xts_alloc_tfm(const xts_alg *alg, int *err)
{
    int rc = -ENOMEM;
    xts_tfm *tfm = zalloc16(round16(sizeof *tfm) + alg->ctxsize);

    if (!tfm) goto out;
    tfm->alg = alg;
    tfm->ctx = (char *)tfm + round16(sizeof *tfm);
    rc = alg->init_tfm(tfm);
    if (rc) {
        free(tfm);
        tfm = NULL;
    }
out:
    if (err) *err = rc;
    return tfm;
}

void xts_free_tfm(xts_tfm *tfm)
{
    if (!tfm) return;
    tfm->alg->exit_tfm(tfm);
    explicit_bzero(tfm->ctx, tfm->alg->ctxsize);
    free(tfm);
}

static unsigned keys_bit(size_t keylen)
{
    switch (keylen) {
    case 32: return XTS_KEYS_256;
    case 48: return XTS_KEYS_384;
    case 64: return XTS_KEYS_512;
    default: return 0;
    }
}

int xts_supports_keylen(const xts_tfm *tfm, size_t keylen)
{
    return (tfm->alg->key_sizes & keys_bit(keylen)) != 0;
}

int xts_setkey(xts_tfm *tfm, const uint8_t *key, size_t keylen)
{
    int err;

    tfm->has_key = 0;
    if (!keys_bit(keylen)) return -EINVAL;
    if (!xts_supports_keylen(tfm, keylen)) return -EOPNOTSUPP;
    err = tfm->alg->setkey(tfm, key, keylen);
    tfm->has_key = err == 0;
    return err;
}

xts_request *xts_request_alloc(xts_tfm *tfm)
{
    xts_request *req = zalloc16(round16(sizeof *req) + tfm->alg->reqsize);
    if (!req) return NULL;
    req->tfm = tfm;
    req->ctx = (char *)req + round16(sizeof *req);
    return req;
}

void xts_request_free(xts_request *req)
{
    if (!req) return;
    explicit_bzero(req->ctx, req->tfm->alg->reqsize);
    free(req);
}

/* 2018 semantics: whole blocks only, at least one. */
static int check_request(const xts_request *req)
{
    if (!req->tfm->has_key) return -ENOKEY;
    if (req->cryptlen < XTS_BLOCK_SIZE || req->cryptlen % XTS_BLOCK_SIZE) return -EINVAL;
    return 0;
}

int xts_encrypt(xts_request *req)
{
    int err = check_request(req);
    return err ? err : req->tfm->alg->encrypt(req);
}

int xts_decrypt(xts_request *req)
{
    int err = check_request(req);
    return err ? err : req->tfm->alg->decrypt(req);
}
