/* sigpool_tfm.c — transforms and requests on libgcrypt (see sigpool_tfm.h). */
#include "sigpool_tfm.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const sp_alg sp_algs[] = {
    {"md5", SP_HASH, GCRY_MD_MD5, 16},
    {"rmd160", SP_HASH, GCRY_MD_RMD160, 20},
    {"hmac(sha1)", SP_HMAC, GCRY_MD_SHA1, 20},
    {"hmac(sha224)", SP_HMAC, GCRY_MD_SHA224, 28},
    {"hmac(sha256)", SP_HMAC, GCRY_MD_SHA256, 32},
    {"hmac(sha384)", SP_HMAC, GCRY_MD_SHA384, 48},
    {"hmac(sha512)", SP_HMAC, GCRY_MD_SHA512, 64},
    {"hmac(sha3-512)", SP_HMAC, GCRY_MD_SHA3_512, 64},
    {"hmac(md5)", SP_HMAC, GCRY_MD_MD5, 16},
    {"hmac(rmd160)", SP_HMAC, GCRY_MD_RMD160, 20},
    {"cmac(aes128)", SP_CMAC, GCRY_MAC_CMAC_AES, 16},
    {NULL, 0, 0, 0},
};

const sp_alg *sp_alg_find(const char *name)
{
    for (const sp_alg *a = sp_algs; a->name; a++)
        if (strcmp(a->name, name) == 0) return a;
    return NULL;
}

static sp_tfm *tfm_new(const sp_alg *alg)
{
    sp_tfm *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->alg = alg;
    atomic_init(&t->refs, 1);
    return t;
}

static void tfm_destroy(sp_tfm *t)
{
    if (t->md) gcry_md_close(t->md);     /* libgcrypt wipes its contexts */
    if (t->mac) gcry_mac_close(t->mac);
    explicit_bzero(t, sizeof *t);
    free(t);
}

sp_tfm *sp_tfm_alloc(const sp_alg *alg)
{
    sp_tfm *t = tfm_new(alg);
    if (!t) return NULL;
    gcry_error_t err = 0;
    if (alg->kind == SP_HMAC)
        err = gcry_md_open(&t->md, alg->gcry_algo, GCRY_MD_FLAG_HMAC);
    else if (alg->kind == SP_CMAC)
        err = gcry_mac_open(&t->mac, alg->gcry_algo, 0, NULL);
    if (err) {
        tfm_destroy(t);
        return NULL;
    }
    return t;
}

sp_tfm *sp_tfm_clone(sp_tfm *t)
{
    if (!sp_alg_needs_key(t->alg)) {
        atomic_fetch_add_explicit(&t->refs, 1, memory_order_relaxed);
        return t;
    }
    sp_tfm *c = tfm_new(t->alg);
    if (!c) return NULL;
    gcry_error_t err;
    if (t->alg->kind == SP_HMAC) {
        err = gcry_md_copy(&c->md, t->md);
    } else {
        err = gcry_mac_open(&c->mac, t->alg->gcry_algo, 0, NULL);
        if (!err && t->has_key) err = gcry_mac_setkey(c->mac, t->key, t->keylen);
        if (!err && t->has_key) {
            memcpy(c->key, t->key, t->keylen);
            c->keylen = t->keylen;
        }
    }
    if (err) {
        tfm_destroy(c);
        return NULL;
    }
    c->has_key = t->has_key;
    return c;
}

void sp_tfm_free(sp_tfm *t)
{
    if (!t) return;
    /* acq_rel: the freeing thread must see every other user's writes */
    if (atomic_fetch_sub_explicit(&t->refs, 1, memory_order_acq_rel) == 1) tfm_destroy(t);
}

sp_req *sp_req_alloc(sp_tfm *t)
{
    sp_req *r = malloc(sizeof *r);
    if (!r) return NULL;
    r->tfm = t;
    r->own = NULL;
    if (!sp_alg_needs_key(t->alg) && gcry_md_open(&r->own, t->alg->gcry_algo, 0)) {
        free(r);
        return NULL;
    }
    return r;
}

void sp_req_free(sp_req *r)
{
    if (!r) return;
    if (r->own) gcry_md_close(r->own);
    explicit_bzero(r, sizeof *r);
    free(r);
}

int sp_setkey(sp_req *r, const void *key, size_t len)
{
    sp_tfm *t = r->tfm;
    gcry_error_t err;
    switch (t->alg->kind) {
    case SP_HMAC:
        err = gcry_md_setkey(t->md, key, len);
        break;
    case SP_CMAC:
        if (len > sizeof t->key) return -EINVAL;
        err = gcry_mac_setkey(t->mac, key, len);
        if (!err) {
            memcpy(t->key, key, len);
            t->keylen = len;
        }
        break;
    default:
        return -EINVAL;
    }
    if (err) {
        t->has_key = 0;    /* a half-set key is no key */
        return -EINVAL;
    }
    t->has_key = 1;
    return 0;
}

int sp_init(sp_req *r)
{
    sp_tfm *t = r->tfm;
    switch (t->alg->kind) {
    case SP_HASH:
        gcry_md_reset(r->own);
        return 0;
    case SP_HMAC:
        if (!t->has_key) return -ENOKEY;
        gcry_md_reset(t->md);
        return 0;
    case SP_CMAC:
        /* libgcrypt crashes when an unkeyed CMAC handle is finalised */
        if (!t->has_key) return -ENOKEY;
        return gcry_mac_reset(t->mac) ? -EINVAL : 0;
    }
    return -EINVAL;
}

void sp_update(sp_req *r, const void *data, size_t len)
{
    sp_tfm *t = r->tfm;
    switch (t->alg->kind) {
    case SP_HASH: gcry_md_write(r->own, data, len); break;
    case SP_HMAC: gcry_md_write(t->md, data, len); break;
    case SP_CMAC: gcry_mac_write(t->mac, data, len); break;
    }
}

int sp_final(sp_req *r, uint8_t *out)
{
    sp_tfm *t = r->tfm;
    const uint8_t *d;
    size_t n = t->alg->digest_len;
    switch (t->alg->kind) {
    case SP_HASH:
        d = gcry_md_read(r->own, 0);
        break;
    case SP_HMAC:
        if (!t->has_key) return -ENOKEY;
        d = gcry_md_read(t->md, 0);
        break;
    case SP_CMAC:
        if (!t->has_key) return -ENOKEY;
        return gcry_mac_read(t->mac, out, &n) || n != t->alg->digest_len ? -EINVAL : 0;
    default:
        return -EINVAL;
    }
    if (!d) return -EINVAL;
    memcpy(out, d, n);
    return 0;
}
