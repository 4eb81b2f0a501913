/* SPDX-License-Identifier: GPL-2.0-only */
#include "gcrypt_init.h"

#include <gcrypt.h>
#include <pthread.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int status = -1;

static void init(void)
{
    gcry_control(GCRYCTL_SET_PREFERRED_RNG_TYPE, GCRY_RNG_TYPE_FIPS);
    if (!gcry_check_version("1.8.0")) return;
    gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
    gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
    status = 0;
}

int pb_gcrypt_init(void)
{
    pthread_once(&once, init);
    return status;
}
