/* SPDX-License-Identifier: GPL-2.0-only */
/* fake_gcrypt.c — a shared object that looks like libgcrypt to --gcrypt-lib (the three symbols it
 * resolves) but is faulty on purpose, so that tests/drbg/gcrypt_lib_test.sh can check the refusals:
 *   FAULT_ZERO   its "DRBG" returns zeros: the self-test must refuse it
 *   FAULT_CRASH  gcry_randomize dies of SIGSEGV: the self-test child dies, bench must not
 *   FAULT_NOSYM  no gcry_randomize: not a libgcrypt */
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <gcrypt.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT const char *gcry_check_version(const char *req)
{
    (void)req;   /* claims to be any version asked for */
    return "1.10.1-fake";
}

EXPORT gcry_error_t gcry_control(enum gcry_ctl_cmds cmd, ...)
{
    va_list ap;
    va_start(ap, cmd);
    if (cmd == GCRYCTL_GET_CURRENT_RNG_TYPE) *va_arg(ap, int *) = GCRY_RNG_TYPE_FIPS;
    va_end(ap);
    return 0;
}

#ifndef FAULT_NOSYM
EXPORT void gcry_randomize(void *buffer, size_t length, enum gcry_random_level level)
{
    (void)level;
#ifdef FAULT_CRASH
    /* the default action, even where a sanitizer runtime in bench installed its own handler */
    (void)buffer;
    (void)length;
    signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);
#else
    memset(buffer, 0, length);
#endif
}
#endif
