/* SPDX-License-Identifier: GPL-2.0-only */
/* gcry_prims.h — the libgcrypt calls the DRBG backends make, as a table of one build's functions.
 *
 * impls/old/drbg_prim.c and impls/new/drbg_prim.c call libgcrypt directly, as libgcrypt's own
 * random-drbg.c calls its cipher and digest code. Their third copy (impls/prims_names.h, behind
 * the drbg impls "old+gcrypt:NAME" and "new+gcrypt:NAME") makes the very same calls through this
 * table, filled from a libgcrypt build loaded by path (--gcrypt-lib NAME=PATH, --primitives NAME),
 * so that the re-implemented state machines can run on that build's primitives: the 2016 cipher
 * and digest code under the re-implementation, set against the 2016 DRBG itself, isolates the
 * state machine from the primitives (docs/your-code.md). Only public API functions, whose ABI
 * libgcrypt.so.20 has kept since 1.5. */
#ifndef PB_GCRY_PRIMS_H
#define PB_GCRY_PRIMS_H

#include <gcrypt.h>

typedef struct pb_gcry_prims {
    gcry_error_t (*md_open)(gcry_md_hd_t *h, int algo, unsigned int flags);
    gcry_error_t (*md_setkey)(gcry_md_hd_t h, const void *key, size_t keylen);
    void (*md_write)(gcry_md_hd_t h, const void *buffer, size_t length);
    unsigned char *(*md_read)(gcry_md_hd_t h, int algo);
    void (*md_reset)(gcry_md_hd_t h);
    void (*md_close)(gcry_md_hd_t h);
    gcry_error_t (*cipher_open)(gcry_cipher_hd_t *h, int algo, int mode, unsigned int flags);
    gcry_error_t (*cipher_setkey)(gcry_cipher_hd_t h, const void *key, size_t keylen);
    gcry_error_t (*cipher_encrypt)(gcry_cipher_hd_t h, void *out, size_t outsize, const void *in, size_t inlen);
    gcry_error_t (*cipher_ctl)(gcry_cipher_hd_t h, int cmd, void *buffer, size_t buflen);
    gpg_error_t (*cipher_setctr)(gcry_cipher_hd_t h, const void *ctr, size_t ctrlen);
    void (*cipher_close)(gcry_cipher_hd_t h);
} pb_gcry_prims;

/* The symbol names, in the table's order: what a loader dlsym's (drbg_gcrypt_lib.c). */
#define PB_GCRY_PRIMS_SYMBOLS                                                                         \
    "gcry_md_open", "gcry_md_setkey", "gcry_md_write", "gcry_md_read", "gcry_md_reset", "gcry_md_close", \
    "gcry_cipher_open", "gcry_cipher_setkey", "gcry_cipher_encrypt", "gcry_cipher_ctl",                \
    "gcry_cipher_setctr", "gcry_cipher_close"

#endif
