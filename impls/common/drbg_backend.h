/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg_backend.h — the primitive layer under the DRBG state machines.
 *
 * This is the seam the libgcrypt patch 20886fdc cut along: the DRBG algorithms
 * call these few primitives, and the old and the new backend implement them
 * with different handle management (impls/old/drbg_prim.c vs
 * impls/new/drbg_prim.c). All operations return 0 or -1 (a libgcrypt error).
 *
 * Keys: the DRBG announces every key it produces through *_setkey before it
 * uses it; a backend may key a persistent handle then (new) or remember the key
 * and process it again at every call (old). Key pointers are only valid during
 * the call: copy what you keep into d->prim.
 */
#ifndef PB_DRBG_BACKEND_H
#define PB_DRBG_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "drbg.h"

/* One piece of a concatenated input (SP 800-90A's "||"). */
typedef struct pb_drbg_part {
    const uint8_t *p;
    size_t n;
} pb_drbg_part;

typedef struct pb_drbg_backend {
    const char *name;
    /* Instantiate / uninstantiate: acquire / release what lives across calls.
     * fini must cope with a partly failed init (closes what is open). */
    int (*init)(pb_drbg *d);
    void (*fini)(pb_drbg *d);

    /* Hash_DRBG: out (outlen bytes) = SHA-256(parts[0] || parts[1] || ...). */
    int (*hash)(pb_drbg *d, uint8_t *out, const pb_drbg_part *parts, int nparts);

    /* HMAC_DRBG: out = HMAC-SHA-256(K, parts...) under the key last given to hmac_setkey. */
    int (*hmac_setkey)(pb_drbg *d, const uint8_t *key);
    int (*hmac)(pb_drbg *d, uint8_t *out, const pb_drbg_part *parts, int nparts);

    /* CTR_DRBG derivation function: one AES block under the key last given
     * to block_setkey. The DRBG calls block_setkey at the start of every BCC
     * run and once more for the df's output key (libgcrypt's drbg_ctr_bcc and
     * drbg_ctr_df). in and out may be the same 16 bytes. */
    int (*block_setkey)(pb_drbg *d, const uint8_t *key);
    int (*block_encrypt)(pb_drbg *d, uint8_t out[16], const uint8_t in[16]);

    /* CTR_DRBG keystream under the state key K (given to ctr_setkey):
     *   out = in XOR (E(K, V+1) || E(K, V+2) || ...), n bytes, in == NULL meaning
     *   zeros; afterwards d->V has advanced by ceil(n / 16).
     * Keystream left over in a partial last block is discarded (SP 800-90A). */
    int (*ctr_setkey)(pb_drbg *d, const uint8_t *key);
    int (*ctr)(pb_drbg *d, uint8_t *out, const uint8_t *in, size_t n);
} pb_drbg_backend;

/* dst (dlen bytes, big-endian) += v, modulo 2^(8*dlen). */
static inline void pb_drbg_be_add(uint8_t *dst, size_t dlen, uint64_t v)
{
    unsigned carry = 0;
    for (size_t i = dlen; i-- > 0 && (v || carry);) {
        unsigned s = dst[i] + (unsigned)(v & 0xff) + carry;
        dst[i] = (uint8_t)s;
        carry = s >> 8;
        v >>= 8;
    }
}

#endif
