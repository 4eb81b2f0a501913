/* SPDX-License-Identifier: GPL-2.0-only */
/* sigpool_tfm.c — transforms and requests on libgcrypt (see sigpool_tfm.h). */
#include "sigpool_tfm.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const sp_alg sp_algs[] = {
    {"md5", SP_HASH, GCRY_MD_MD5, 16, 176},
    {"rmd160", SP_HASH, GCRY_MD_RMD160, 20, 184},
    {"hmac(sha1)", SP_HMAC, GCRY_MD_SHA1, 20, 192},
    {"hmac(sha224)", SP_HMAC, GCRY_MD_SHA224, 28, 200},
    {"hmac(sha256)", SP_HMAC, GCRY_MD_SHA256, 32, 200},
    {"hmac(sha384)", SP_HMAC, GCRY_MD_SHA384, 48, 304},
    {"hmac(sha512)", SP_HMAC, GCRY_MD_SHA512, 64, 304},
    {"hmac(sha3-512)", SP_HMAC, GCRY_MD_SHA3_512, 64, 456},
    {"hmac(md5)", SP_HMAC, GCRY_MD_MD5, 16, 184},
    {"hmac(rmd160)", SP_HMAC, GCRY_MD_RMD160, 20, 192},
    {"cmac(aes128)", SP_CMAC, GCRY_MAC_CMAC_AES, 16, 128},
    {NULL, 0, 0, 0, 0},
};

const sp_alg *sp_alg_find(const char *name)
{
    for (const sp_alg *a = sp_algs; a->name; a++)
        if (strcmp(a->name, name) == 0) return a;
    return NULL;
}

static _Thread_local sp_stats stats;

const sp_stats *sp_stats_this_thread(void) { return &stats; }

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
    for (unsigned i = 0; t->cpu_md && i < t->ncpu; i++)
        if (t->cpu_md[i]) gcry_md_close(t->cpu_md[i]);
    free(t->cpu_md);
    explicit_bzero(t, sizeof *t);
    free(t);
}

/* Keyless: one handle per CPU slot, for the requests allocated on it. */
static gcry_error_t open_cpu_handles(sp_tfm *t, unsigned ncpu)
{
    t->cpu_md = calloc(ncpu ? ncpu : 1, sizeof *t->cpu_md);
    if (!t->cpu_md) return gcry_error_from_errno(ENOMEM);
    t->ncpu = ncpu;
    for (unsigned i = 0; i < ncpu; i++) {
        gcry_error_t err = gcry_md_open(&t->cpu_md[i], t->alg->gcry_algo, 0);
        if (err) return err;
        stats.handle_opens++;
    }
    return 0;
}

sp_tfm *sp_tfm_alloc(const sp_alg *alg, unsigned ncpu)
{
    sp_tfm *t = tfm_new(alg);
    if (!t) return NULL;
    gcry_error_t err = 0;
    if (alg->kind == SP_HMAC)
        err = gcry_md_open(&t->md, alg->gcry_algo, GCRY_MD_FLAG_HMAC);
    else if (alg->kind == SP_CMAC)
        err = gcry_mac_open(&t->mac, alg->gcry_algo, 0, NULL);
    else
        err = open_cpu_handles(t, ncpu);
    if (!err && alg->kind != SP_HASH) stats.handle_opens++;
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
        stats.tfm_refs++;
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
    stats.handle_opens++;
    c->has_key = t->has_key;
    return c;
}

void sp_tfm_free(sp_tfm *t)
{
    if (!t) return;
    /* acq_rel: the freeing thread must see every other user's writes */
    if (atomic_fetch_sub_explicit(&t->refs, 1, memory_order_acq_rel) == 1) tfm_destroy(t);
}

sp_req *sp_req_alloc(sp_tfm *t, unsigned cpu)
{
    if (!sp_alg_needs_key(t->alg) && cpu >= t->ncpu) return NULL;
    size_t size = t->alg->req_bytes > sizeof(sp_req) ? t->alg->req_bytes : sizeof(sp_req);
    sp_req *r = malloc(size);    /* the kernel's ahash_request_alloc: kmalloc, not zeroed */
    if (!r) return NULL;
    stats.req_allocs++;
    r->tfm = t;
    r->cpu_md = sp_alg_needs_key(t->alg) ? NULL : t->cpu_md[cpu];
    r->size = size;
    return r;
}

void sp_req_free(sp_req *r)
{
    if (!r) return;
    stats.req_frees++;
    explicit_bzero(r, r->size);    /* kfree_sensitive wipes the request */
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
        gcry_md_reset(r->cpu_md);
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
    case SP_HASH: gcry_md_write(r->cpu_md, data, len); break;
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
        d = gcry_md_read(r->cpu_md, 0);
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
