/* SPDX-License-Identifier: GPL-2.0-only */
/* xts_faulty.c — xts plug-ins that bench must refuse, built from the real xts_window template
 * (examples/xts_window) with one fault each, chosen by -DFAULT_...:
 *   FAULT_ABI     says it was built for ABI 99
 *   FAULT_NOSYM   exports its entry under a misspelt name: no pb_xts_plugin_entry
 *   FAULT_VECTOR  flips one bit of every 512-byte encryption: IEEE 1619 vector 4 fails
 *   FAULT_CRASH   dies of SIGSEGV in its first encryption (the self-test's)
 * and four that pass every self-test and then turn hostile while timed (the cage's cases,
 * tests/xts/cage_test.sh), from their LATE-th encryption of 1024 bytes on (no self-test vector
 * has that length; LATE: the environment's PB_TEST_LATE, default 300):
 *   FAULT_LATE_CRASH  SIGSEGV
 *   FAULT_LATE_EXIT   _exit(0)
 *   FAULT_LATE_SLOW   3 s a call
 *   FAULT_LATE_WRONG  one bit of the ciphertext flipped */
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* the template under other names: this file exports the plug-in symbols itself */
#define pb_xts_plugin_entry window_entry
#define pb_xts_plugin_abi_version window_abi_version
#include "xts_window.c"
#undef pb_xts_plugin_entry
#undef pb_xts_plugin_abi_version

static xts_alg faulty_alg;
static int (*template_encrypt)(xts_request *req);

#if defined FAULT_LATE_CRASH || defined FAULT_LATE_EXIT || defined FAULT_LATE_SLOW || defined FAULT_LATE_WRONG
#define FAULT_LATE 1
/* has the LATE-th 1024-byte encryption of this process come? */
static int turned(const xts_request *req)
{
    static unsigned long calls;
    if (req->cryptlen != 1024) return 0;
    const char *v = getenv("PB_TEST_LATE");
    unsigned long late = v ? strtoul(v, NULL, 10) : 300;
    return ++calls >= late;
}
#endif

static int faulty_encrypt(xts_request *req)
{
    int err = template_encrypt(req);
#ifdef FAULT_LATE
    if (turned(req)) {
#if defined FAULT_LATE_CRASH
        signal(SIGSEGV, SIG_DFL);
        raise(SIGSEGV);
#elif defined FAULT_LATE_EXIT
        _exit(0);
#elif defined FAULT_LATE_SLOW
        struct timespec ts = {3, 0};
        nanosleep(&ts, NULL);
#else
        req->dst[100] ^= 1;
#endif
    }
#endif
#if defined FAULT_VECTOR
    if (!err && req->cryptlen == 512) req->dst[100] ^= 1;
#elif defined FAULT_CRASH
    /* the default action, even where a sanitizer runtime installed its own handler */
    signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);
#endif
    return err;
}

static const pb_xts_plugin faulty = { PB_XTS_PLUGIN_ABI_VERSION, &faulty_alg };

#ifdef FAULT_ABI
__attribute__((visibility("default"))) const unsigned pb_xts_plugin_abi_version = 99;
#else
__attribute__((visibility("default"))) const unsigned pb_xts_plugin_abi_version = PB_XTS_PLUGIN_ABI_VERSION;
#endif

#ifdef FAULT_NOSYM
#define ENTRY pb_xts_plugin_entry_v1
#else
#define ENTRY pb_xts_plugin_entry
#endif
__attribute__((visibility("default"))) const pb_xts_plugin *ENTRY(const pb_xts_host *h)
{
    const pb_xts_plugin *p = window_entry(h);
    if (!p) return NULL;
    faulty_alg = *p->alg;
    template_encrypt = faulty_alg.encrypt;
    faulty_alg.encrypt = faulty_encrypt;
    return &faulty;
}
