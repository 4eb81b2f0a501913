/* SPDX-License-Identifier: GPL-2.0-only */
/* prims_names.h — forced (-include) into the third copy of the DRBG sources: the state machines
 * and both backends, built with the libgcrypt profile as "old" and "new" are, whose libgcrypt
 * calls go to the instance's table of another build's functions (impls "old+gcrypt:NAME",
 * "new+gcrypt:NAME"; impls/common/gcry_prims.h says why).
 *
 * Each call the backends make, gcry_md_open(...) say, becomes a call through the table of the
 * instance `d` in scope (the pb_drbg every backend function takes): a call with no `d` in scope
 * does not compile, so no call can reach the linked libgcrypt unseen. The sources are not edited:
 * `diff impls/old/drbg_prim.c impls/new/drbg_prim.c` stays the patch. Symbols are renamed as in
 * the native copy (scripts/native_copy.py). An instance without a table fails at instantiate (the backends' init). */
#ifndef PB_PRIMS_NAMES_H
#define PB_PRIMS_NAMES_H

/* first, so that their declarations are read before the macros below */
#include <gcrypt.h>
#include "common/gcrypt_init.h"
#include "common/gcry_prims.h"

#define PB_DRBG_COPY_SUFFIX _prims
#include "drbg_copy_names.h"
#define pb_drbg_build_faithful pb_drbg_build_prims

#define PB_PRIMS_OF(d) ((const pb_gcry_prims *)(d)->prims)
#define gcry_md_open(...) (PB_PRIMS_OF(d)->md_open(__VA_ARGS__))
#define gcry_md_setkey(...) (PB_PRIMS_OF(d)->md_setkey(__VA_ARGS__))
#define gcry_md_write(...) (PB_PRIMS_OF(d)->md_write(__VA_ARGS__))
#define gcry_md_read(...) (PB_PRIMS_OF(d)->md_read(__VA_ARGS__))
#define gcry_md_reset(...) (PB_PRIMS_OF(d)->md_reset(__VA_ARGS__))
#define gcry_md_close(...) (PB_PRIMS_OF(d)->md_close(__VA_ARGS__))
#define gcry_cipher_open(...) (PB_PRIMS_OF(d)->cipher_open(__VA_ARGS__))
#define gcry_cipher_setkey(...) (PB_PRIMS_OF(d)->cipher_setkey(__VA_ARGS__))
#define gcry_cipher_encrypt(...) (PB_PRIMS_OF(d)->cipher_encrypt(__VA_ARGS__))
/* gcry_cipher_reset(h) is gcrypt.h's macro over gcry_cipher_ctl */
#define gcry_cipher_ctl(...) (PB_PRIMS_OF(d)->cipher_ctl(__VA_ARGS__))
#define gcry_cipher_setctr(...) (PB_PRIMS_OF(d)->cipher_setctr(__VA_ARGS__))
#define gcry_cipher_close(...) (PB_PRIMS_OF(d)->cipher_close(__VA_ARGS__))
/* the build was initialised when it was loaded (drbg_gcrypt_lib.c); no table, no instance */
#define pb_gcrypt_init() (PB_PRIMS_OF(d) ? 0 : -1)

#endif
