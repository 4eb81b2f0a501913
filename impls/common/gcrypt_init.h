/* SPDX-License-Identifier: GPL-2.0-only */
/* gcrypt_init.h — the one place where libgcrypt is initialised.
 *
 * libgcrypt must be initialised exactly once per process, and its own DRBG
 * (a peer row of the drbg suite) only works when the FIPS RNG type is chosen
 * *before* the first gcry_check_version(). Every suite calls pb_gcrypt_init()
 * before touching libgcrypt; it is idempotent and thread-safe. */
#ifndef PB_GCRYPT_INIT_H
#define PB_GCRYPT_INIT_H

/* Returns 0, or -1 if the installed libgcrypt is older than required. */
int pb_gcrypt_init(void);

#endif
