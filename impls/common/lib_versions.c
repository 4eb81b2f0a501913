/* SPDX-License-Identifier: GPL-2.0-only */
/* lib_versions.c — the crypto libraries' versions, for a run's provenance. Here, in the suites'
 * common library, because the harness core links no crypto library (suite.h library_versions). */
#include "lib_versions.h"

#include <gcrypt.h>
#include <openssl/crypto.h>
#include <stdio.h>

#include "gcrypt_init.h"

const char *pb_lib_versions_gcrypt(void)
{
    static char text[128];
    /* through the one initialisation: asking libgcrypt its version initialises it, and its
     * DRBG (a drbg peer) needs the FIPS RNG type chosen before that */
    pb_gcrypt_init();
    snprintf(text, sizeof text, "libgcrypt %s", gcry_check_version(NULL));
    return text;
}

const char *pb_lib_versions_gcrypt_openssl(void)
{
    static char text[256];
    snprintf(text, sizeof text, "%s; %s", pb_lib_versions_gcrypt(), OpenSSL_version(OPENSSL_VERSION));
    return text;
}
