/* SPDX-License-Identifier: GPL-2.0-only */
/* xts_plugin.c — loading an XTS template from a shared object (include/patchbench/xts_plugin.h).
 *
 * The plug-in is first loaded in a forked child that runs the suite's whole self-test on it
 * and reports through a pipe: a plug-in that crashes or hangs there costs the child, not
 * bench. Only a plug-in that passed is loaded into bench itself. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "patchbench/xts_plugin.h"
#include "pb_fork.h"
#include "xts_suite.h"

#define SELFTEST_SECONDS 60   /* far above what the vectors take; a hung plug-in is refused */

static const pb_xts_host host = {
    .abi_version = PB_XTS_PLUGIN_ABI_VERSION,
    .tmpl_init_tfm = xts_tmpl_init_tfm,
    .tmpl_exit_tfm = xts_tmpl_exit_tfm,
    .tmpl_setkey = xts_tmpl_setkey,
    .child_encrypt = xts_ecb_encrypt,
    .child_decrypt = xts_ecb_decrypt,
    .tweak_encrypt_one = xts_cipher_encrypt_one,
};

int xts_plugin_check_name(const char *name, pb_err *e)
{
    size_t n = strlen(name);
    if (n == 0 || n >= XTS_IMPL_NAME_MAX || strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                          "0123456789_-.@") != n)
        return pb_errf(e, "--plugin: name '%s' must be 1 to %d characters of A-Z a-z 0-9 _ - . @", name,
                       XTS_IMPL_NAME_MAX - 1);
    if (xts_impl_alg(name)) return pb_errf(e, "--plugin: '%s' is already an implementation of xts", name);
    return 0;
}

/* dlopen, check the ABI, call the entry, register. The handle is never closed: the alg lives in it. */
static int load(const char *name, const char *path, pb_err *e)
{
    char where[1100];
    /* a bare file name would be looked up in the library path: take it as ./NAME, as written */
    snprintf(where, sizeof where, "%s%s", strchr(path, '/') ? "" : "./", path);
    void *h = dlopen(where, RTLD_NOW | RTLD_LOCAL);
    if (!h) return pb_errf(e, "plug-in %s: cannot load %s: %s", name, path, dlerror());
    const unsigned *abi = dlsym(h, PB_XTS_PLUGIN_ABI_SYMBOL);
    if (!abi)
        return pb_errf(e, "plug-in %s (%s): missing symbol %s (not an xts plug-in? see include/patchbench/xts_plugin.h)",
                       name, path, PB_XTS_PLUGIN_ABI_SYMBOL);
    if (*abi != PB_XTS_PLUGIN_ABI_VERSION)
        return pb_errf(e, "plug-in %s (%s): ABI version mismatch: built for xts plug-in ABI %u, this bench has %u",
                       name, path, *abi, PB_XTS_PLUGIN_ABI_VERSION);
    pb_xts_plugin_entry_fn entry;
    void *sym = dlsym(h, PB_XTS_PLUGIN_ENTRY_SYMBOL);
    if (!sym) return pb_errf(e, "plug-in %s (%s): missing symbol %s", name, path, PB_XTS_PLUGIN_ENTRY_SYMBOL);
    memcpy(&entry, &sym, sizeof entry);   /* object to function pointer, as POSIX allows */
    const pb_xts_plugin *p = entry(&host);
    if (!p) return pb_errf(e, "plug-in %s (%s): %s returned NULL (it refused to load)", name, path,
                           PB_XTS_PLUGIN_ENTRY_SYMBOL);
    if (p->abi_version != PB_XTS_PLUGIN_ABI_VERSION)
        return pb_errf(e, "plug-in %s (%s): ABI version mismatch: its entry says %u, this bench has %u", name,
                       path, p->abi_version, PB_XTS_PLUGIN_ABI_VERSION);
    const xts_alg *a = p->alg;
    if (!a || !a->init_tfm || !a->exit_tfm || !a->setkey || !a->encrypt || !a->decrypt ||
        !(a->key_sizes & XTS_KEYS_ALL))
        return pb_errf(e, "plug-in %s (%s): its xts_alg lacks a function or key size", name, path);
    int err = xts_register_impl(name, a);
    if (err) return pb_errf(e, "plug-in %s: cannot register: %s", name, strerror(-err));
    return 0;
}

int xts_plugin_load(const char *name, const char *path, pb_err *e)
{
    if (xts_plugin_check_name(name, e) < 0) return -1;
    return pb_fork_load_checked("plug-in", name, path, SELFTEST_SECONDS, load, xts_suite_selftest, e);
}
