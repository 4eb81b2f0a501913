/* SPDX-License-Identifier: GPL-2.0-only */
/* xts_aes.c — child ECB and tweak cipher on OpenSSL EVP (see xts_aes.h). */
#include "xts_aes.h"

#include <errno.h>
#include <limits.h>

#include <openssl/evp.h>

static uint64_t child_cost_spins, child_cost_events;
static unsigned child_cost_every = 1, child_cost_due;

void xts_child_cost_set(uint64_t spins, unsigned every)
{
    child_cost_spins = spins;
    child_cost_every = every ? every : 1;
    child_cost_due = 0;
}
uint64_t xts_child_cost_spins(void) { return child_cost_spins; }
uint64_t xts_child_cost_events(void) { return child_cost_events; }

/* lfence: later instructions start only once earlier ones have completed. Around the loop it
 * keeps out-of-order execution from hiding the loop under the AES and tweak chains beside it
 * (without it, 31 extra calls at the default cost added nothing measurable to old-nomem). */
static inline void serialize_execution(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __asm__ volatile("lfence" ::: "memory");
#endif
}

/* The modelled per-call cost (xts_aes.h): an empty counted loop, nothing else. A count rather
 * than a clock: no floor of clock reads (rdtsc costs ~15 ns in some VMs, more than the whole
 * cost at small K), and, like the kernel code it stands for, it runs at the core's clock. */
static void pay_child_call_cost(void)
{
    if (!child_cost_spins) return;
    child_cost_events++;
    if (++child_cost_due < child_cost_every) return;
    child_cost_due = 0;
    serialize_execution();
    for (uint64_t i = 0; i < child_cost_spins; i++) __asm__ volatile("" ::: "memory");
    serialize_execution();
}

static const EVP_CIPHER *aes_ecb(size_t keylen)
{
    switch (keylen) {
    case 16: return EVP_aes_128_ecb();
    case 24: return EVP_aes_192_ecb();
    case 32: return EVP_aes_256_ecb();
    default: return NULL;
    }
}

/* Key an ECB context for one direction; padding off: every call is whole blocks. */
static int ecb_ctx_setkey(EVP_CIPHER_CTX *ctx, const uint8_t *key, size_t keylen, int enc)
{
    const EVP_CIPHER *cipher = aes_ecb(keylen);
    if (!cipher) return -EINVAL;
    if (!EVP_CipherInit_ex(ctx, cipher, NULL, key, NULL, enc)) return -EIO;
    EVP_CIPHER_CTX_set_padding(ctx, 0);
    return 0;
}

/* One EVP_CipherUpdate over the whole buffer: the pipelined AES-NI path. */
static int ecb_ctx_crypt(EVP_CIPHER_CTX *ctx, uint8_t *dst, const uint8_t *src, size_t len)
{
    int outl;
    if (len > INT_MAX) return -EINVAL;
    if (!EVP_CipherUpdate(ctx, dst, &outl, src, (int)len) || (size_t)outl != len) return -EIO;
    return 0;
}

int xts_ecb_init(xts_ecb *c, xts_stats *stats)
{
    c->enc = EVP_CIPHER_CTX_new();
    c->dec = EVP_CIPHER_CTX_new();
    c->stats = stats;
    if (!c->enc || !c->dec) {
        xts_ecb_exit(c);
        return -ENOMEM;
    }
    return 0;
}

void xts_ecb_exit(xts_ecb *c)
{
    EVP_CIPHER_CTX_free(c->enc);
    EVP_CIPHER_CTX_free(c->dec);
    c->enc = c->dec = NULL;
}

int xts_ecb_setkey(xts_ecb *c, const uint8_t *key, size_t keylen)
{
    int err = ecb_ctx_setkey(c->enc, key, keylen, 1);
    return err ? err : ecb_ctx_setkey(c->dec, key, keylen, 0);
}

int xts_ecb_encrypt(xts_ecb_request *subreq)
{
    subreq->tfm->stats->child_calls++;
    pay_child_call_cost();
    return ecb_ctx_crypt(subreq->tfm->enc, subreq->dst, subreq->src, subreq->cryptlen);
}

int xts_ecb_decrypt(xts_ecb_request *subreq)
{
    subreq->tfm->stats->child_calls++;
    pay_child_call_cost();
    return ecb_ctx_crypt(subreq->tfm->dec, subreq->dst, subreq->src, subreq->cryptlen);
}

int xts_cipher_init(xts_cipher *c)
{
    c->enc = EVP_CIPHER_CTX_new();
    return c->enc ? 0 : -ENOMEM;
}

void xts_cipher_exit(xts_cipher *c)
{
    EVP_CIPHER_CTX_free(c->enc);
    c->enc = NULL;
}

int xts_cipher_setkey(xts_cipher *c, const uint8_t *key, size_t keylen)
{
    return ecb_ctx_setkey(c->enc, key, keylen, 1);
}

int xts_cipher_encrypt_one(xts_cipher *c, uint8_t *dst, const uint8_t *src)
{
    return ecb_ctx_crypt(c->enc, dst, src, XTS_BLOCK_SIZE);
}
