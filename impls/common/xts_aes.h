/* xts_aes.h — the two AES ciphers the XTS template is built on.
 *
 *   xts_ecb     the child "ecb(aes)" skcipher, keyed with Key1. In the
 *               document's measurement it is ecb-aes-aesni, a pipelined
 *               AES-NI ECB. Here: OpenSSL's EVP aes-*-ecb (AES-NI, 8 blocks
 *               in flight), padding off, one context per direction created at
 *               setkey and reused. One child request = one EVP_CipherUpdate
 *               over the whole chunk, so the per-call cost (provider dispatch)
 *               stands in for the kernel's per-call walk + FPU save/restore.
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
