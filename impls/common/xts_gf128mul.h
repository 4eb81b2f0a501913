/* SPDX-License-Identifier: GPL-2.0-only */
/* xts_gf128mul.h — the XTS tweak as the kernel handles it: le128 and
 * multiplication by x in GF(2^128) (include/crypto/b128ops.h, gf128mul.h).
 *
 * The tweak is a 128-bit little-endian integer stored as two 64-bit lanes,
 * low lane first (byte 0 = least significant byte). Multiplying by x is a
 * 1-bit left shift of the 128-bit value; the bit shifted out of the top is
 * folded back in with the XTS polynomial x^128 + x^7 + x^2 + x + 1, i.e. as
 * 0x87 into byte 0. The mask is computed without a branch (an arithmetic
 * shift of the top bit), as the kernel does since commit acb9b159c784: this
 * is why recomputing tweaks became cheaper than caching them.
 *
 * Data blocks are loaded/stored with memcpy so buffers need no alignment. */
#ifndef PB_XTS_GF128MUL_H
#define PB_XTS_GF128MUL_H

#include <endian.h>
#include <stdint.h>
#include <string.h>

typedef struct le128 {
    uint64_t b;   /* low 64 bits, little-endian in memory */
    uint64_t a;   /* high 64 bits, little-endian in memory */
} le128;

/* r = x ^ y over 16-byte blocks that need no alignment (any may alias),
 * as two 64-bit lanes: XOR does not care about byte order. Lane by lane,
 * like the kernel, keeps the tweak in general registers; a 16-byte struct
 * copy lets the compiler move it into a vector register and back every
 * block, which lengthens the tweak's dependency chain. */
static inline void le128_xor(void *r, const le128 *x, const void *y)
{
    uint64_t b, a;
    memcpy(&b, y, 8);
    memcpy(&a, (const uint8_t *)y + 8, 8);
    b ^= x->b;
    a ^= x->a;
    memcpy(r, &b, 8);
    memcpy((uint8_t *)r + 8, &a, 8);
}

/* r = x * x (the polynomial), r may alias x. */
static inline void gf128mul_x_ble(le128 *r, const le128 *x)
{
    uint64_t a = le64toh(x->a);
    uint64_t b = le64toh(x->b);
    /* all ones if the top bit is set: then reduce by 0x87 */
    uint64_t tt = (uint64_t)((int64_t)a >> 63) & 0x87;

    r->a = htole64((a << 1) | (b >> 63));
    r->b = htole64((b << 1) ^ tt);
}

#endif
