/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg_faulty.c — drbg plug-ins that must be refused (tests/drbg/plugin_test.sh), one per build:
 *   FAULT_ABI     built for ABI 99: refused before anything of it is called
 *   FAULT_VECTOR  new's backend with one bit of every SHA-256 flipped: fails a Hash_DRBG vector
 *   FAULT_CRASH   init dies of SIGSEGV: the self-test child dies, bench must not
 *   FAULT_LATE_WRONG  passes every self-test, then flips a bit of every hash from the process's
 *                     PB_TEST_LATE-th hash call on (default 100000): the cage's output check
 *                     must fail its case (tests/drbg/plugin_test.sh) */
#include <signal.h>
#include <stdlib.h>
#include <stddef.h>
#include <stdint.h>

#include "patchbench/drbg_plugin.h"

#define EXPORT __attribute__((visibility("default")))

#ifdef FAULT_ABI
EXPORT const unsigned pb_drbg_plugin_abi_version = 99;
#else
EXPORT const unsigned pb_drbg_plugin_abi_version = PB_DRBG_PLUGIN_ABI_VERSION;
#endif

static pb_drbg_backend backend;
static const pb_drbg_backend *base;
static const pb_drbg_plugin plugin = {PB_DRBG_PLUGIN_ABI_VERSION, &backend};

static int bad_hash(pb_drbg *d, uint8_t *out, const pb_drbg_part *parts, int nparts)
{
    int rc = base->hash(d, out, parts, nparts);
    out[0] ^= 1;
    return rc;
}

static int late_hash(pb_drbg *d, uint8_t *out, const pb_drbg_part *parts, int nparts)
{
    static unsigned long calls;
    const char *v = getenv("PB_TEST_LATE");
    int rc = base->hash(d, out, parts, nparts);
    if (++calls >= (v ? strtoul(v, NULL, 10) : 100000)) out[0] ^= 1;
    return rc;
}

static int bad_init(pb_drbg *d)
{
    (void)d;
    /* the default action, even where a sanitizer runtime installed its own handler (a NULL load
     * would be UBSan's finding, not a crash, in the sanitizer build) */
    signal(SIGSEGV, SIG_DFL);
    return raise(SIGSEGV);
}

EXPORT const pb_drbg_plugin *pb_drbg_plugin_entry(const pb_drbg_host *host)
{
    base = host->backend_new;
    backend = *base;
    backend.name = "faulty";
#ifdef FAULT_VECTOR
    backend.hash = bad_hash;
#endif
#ifdef FAULT_CRASH
    backend.init = bad_init;
#endif
#ifdef FAULT_LATE_WRONG
    backend.hash = late_hash;
#endif
    (void)late_hash;
    (void)bad_hash;
    (void)bad_init;
    return &plugin;
}
