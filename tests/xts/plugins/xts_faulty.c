/* SPDX-License-Identifier: GPL-2.0-only */
/* xts_faulty.c — xts plug-ins that bench must refuse, built from the real xts_window template
 * (examples/xts_window) with one fault each, chosen by -DFAULT_...:
 *   FAULT_ABI     says it was built for ABI 99
 *   FAULT_NOSYM   exports its entry under a misspelt name: no pb_xts_plugin_entry
 *   FAULT_VECTOR  flips one bit of every 512-byte encryption: IEEE 1619 vector 4 fails
 *   FAULT_CRASH   dies of SIGSEGV in its first encryption (the self-test's) */
#include <signal.h>

/* the template under other names: this file exports the plug-in symbols itself */
#define pb_xts_plugin_entry window_entry
#define pb_xts_plugin_abi_version window_abi_version
#include "xts_window.c"
#undef pb_xts_plugin_entry
#undef pb_xts_plugin_abi_version

static xts_alg faulty_alg;
static int (*template_encrypt)(xts_request *req);

static int faulty_encrypt(xts_request *req)
{
    int err = template_encrypt(req);
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
