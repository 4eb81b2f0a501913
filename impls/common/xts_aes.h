/* SPDX-License-Identifier: GPL-2.0-only */
/* xts_aes.h — the two AES ciphers the XTS template is built on.
 *
 *   xts_ecb     the child "ecb(aes)" skcipher, keyed with Key1. In the
 *               document's measurement it is ecb-aes-aesni, a pipelined
 *               AES-NI ECB. Here: OpenSSL's EVP aes-*-ecb (AES-NI, 8 blocks
 *               in flight), padding off, one context per direction created at
 *               setkey and reused. One child request = one EVP_CipherUpdate
 *               over the whole chunk; its per-call cost (provider dispatch)
 *               is far below the kernel's walk + FPU save/restore, which
 *               the modelled cost below adds.
 *               libgcrypt 1.10's ECB is not used: it runs one block per
 *               internal call and would blur the old/new difference.
 *   xts_cipher  the single-block "aes" cipher for T_0 = AES-Enc(Key2, IV)
 *               (crypto_cipher_encrypt_one), also an OpenSSL ECB context.
 *
 * Both return 0 or a negative errno (-EINVAL bad key length, -ENOMEM, -EIO
 * if OpenSSL reports an error). */
#ifndef PB_XTS_AES_H
#define PB_XTS_AES_H

#include <stddef.h>
#include <stdint.h>

#include "xts.h"

typedef struct evp_cipher_ctx_st EVP_CIPHER_CTX;

typedef struct xts_ecb {
    EVP_CIPHER_CTX *enc, *dec;
    xts_stats *stats;          /* counts child_calls; owned by the parent tfm */
} xts_ecb;

/* A request to the child: the kernel's subreq (skcipher_request on the child). */
typedef struct xts_ecb_request {
    xts_ecb *tfm;
    const uint8_t *src;
    uint8_t *dst;
    size_t cryptlen;           /* multiple of 16 */
} xts_ecb_request;

int xts_ecb_init(xts_ecb *c, xts_stats *stats);
void xts_ecb_exit(xts_ecb *c);
/* keylen 16, 24 or 32 (one AES key) */
int xts_ecb_setkey(xts_ecb *c, const uint8_t *key, size_t keylen);
int xts_ecb_encrypt(xts_ecb_request *subreq);
int xts_ecb_decrypt(xts_ecb_request *subreq);

/* The modelled cost of one child request.
 *
 * In the kernel a child call (crypto_skcipher_encrypt on ecb-aes-aesni) is
 * an skcipher walk, kernel_fpu_begin/end and indirect calls; here it is one
 * EVP_CipherUpdate, which costs far less. Since that per-call cost is what
 * the old template's chunking pays and the patch removed, xts_ecb_encrypt/
 * decrypt can add it: an empty loop of `spins` iterations between two
 * lfence (so that out-of-order execution cannot hide it) before every
 * `every`-th child request; every > 1 spreads a cost smaller than the
 * fences' own over several calls, so that the mean per call is right.
 * Every implementation that calls the child pays it (old, new, old-nomem;
 * not the peers, which have no child). spins 0 (the default) is off. The
 * suite calibrates spins and every against time and sets them (suite_xts.c:
 * --child-call-cost, --child-call-ns, data/xts_child_call.tsv); the state is
 * process-wide, for the single-threaded harness. Integer-only, so this file
 * builds with any code-generation profile. */
void xts_child_cost_set(uint64_t spins, unsigned every);   /* every 0 = 1 */
uint64_t xts_child_cost_spins(void);
/* Child requests charged the modelled cost since the process started
 * (counted while it is on, whether this call spun or a later one will): a
 * test can check it is once per call. */
uint64_t xts_child_cost_events(void);

static inline void xts_ecb_request_set_crypt(xts_ecb_request *subreq, xts_ecb *tfm,
                                             const uint8_t *src, uint8_t *dst, size_t cryptlen)
{
    subreq->tfm = tfm;
    subreq->src = src;
    subreq->dst = dst;
    subreq->cryptlen = cryptlen;
}

typedef struct xts_cipher {
    EVP_CIPHER_CTX *enc;
} xts_cipher;

int xts_cipher_init(xts_cipher *c);
void xts_cipher_exit(xts_cipher *c);
int xts_cipher_setkey(xts_cipher *c, const uint8_t *key, size_t keylen);
/* dst = AES-Enc(key, src), one 16-byte block */
int xts_cipher_encrypt_one(xts_cipher *c, uint8_t *dst, const uint8_t *src);

#endif
