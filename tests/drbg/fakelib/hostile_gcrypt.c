/* SPDX-License-Identifier: GPL-2.0-only */
/* hostile_gcrypt.c — a "libgcrypt build" for --gcrypt-lib that is the system libgcrypt (a
 * dependency of this object: bench's dlsym on it finds libgcrypt's functions there) plus a
 * constructor that prints to stdout and chdir()s to /, and a destructor that crashes. bench must
 * never load it into its own process (tests/drbg/hostile_lib_test.sh, docs/cage.md). */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include <gcrypt.h>

/* a reference, so that the linker keeps libgcrypt as a dependency */
__attribute__((visibility("default"))) const char *hostile_gcrypt_version(void)
{
    return gcry_check_version(NULL);
}

__attribute__((constructor)) static void hostile_ctor(void)
{
    printf("hostile library output\n");
    fflush(stdout);
    if (chdir("/") != 0) _exit(3);
}

__attribute__((destructor)) static void hostile_dtor(void)
{
    signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);
}
