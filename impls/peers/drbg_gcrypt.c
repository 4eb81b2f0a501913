/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg_gcrypt.c — libgcrypt's own DRBG as a peer of old/new. */
#include <gcrypt.h>

#include "common/gcrypt_init.h"
#include "peers/drbg_peers.h"

/* Flag tokens as parsed by random-drbg.c's parse_flag_string():
 * aes + sym128/sym256 = CTR_DRBG, sha256 = Hash_DRBG, hmac + sha256 = HMAC_DRBG;
 * no "pr" token: no prediction resistance, like the document's runs. */
const char *pb_drbg_gcrypt_flags(pb_drbg_mech mech)
{
    switch (mech) {
    case PB_DRBG_CTR_AES128: return "aes sym128";
    case PB_DRBG_CTR_AES256: return "aes sym256";
    case PB_DRBG_HASH_SHA256: return "sha256";
    case PB_DRBG_HMAC_SHA256: return "hmac sha256";
    default: return NULL;
    }
}

/* The mechanism libgcrypt's (process-wide) DRBG was last instantiated as. */
static int current = -1;

int pb_drbg_gcrypt_current(void)
{
    return current;
}

int pb_drbg_gcrypt_reinit(pb_drbg_mech mech, const char **why)
{
    const char *flags = pb_drbg_gcrypt_flags(mech);
    if (!flags) return *why = "invalid mechanism", -1;
    if (pb_gcrypt_init()) return *why = "libgcrypt is older than 1.8", -1;
    int type = 0;
    if (gcry_control(GCRYCTL_GET_CURRENT_RNG_TYPE, &type) || type != GCRY_RNG_TYPE_FIPS)
        return *why = "libgcrypt's DRBG is not the active RNG (GCRY_RNG_TYPE_FIPS must be chosen before "
                      "gcry_check_version)", -1;
    /* GCRYCTL_DRBG_REINIT: flag string, personalization buffers, their count, NULL guard. */
    current = -1;
    if (gcry_control(GCRYCTL_DRBG_REINIT, flags, (gcry_buffer_t *)NULL, 0, (void *)NULL))
        return *why = "GCRYCTL_DRBG_REINIT refused the flags", -1;
    current = (int)mech;
    *why = NULL;
    return 0;
}

void pb_drbg_gcrypt_generate(uint8_t *out, size_t n)
{
    gcry_randomize(out, n, GCRY_STRONG_RANDOM);
}
