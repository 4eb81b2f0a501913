/* SPDX-License-Identifier: GPL-2.0-only */
/* xts_plugin.c — loading an XTS template from a shared object (include/patchbench/xts_plugin.h).
 *
 * The plug-in is first loaded in a forked child that runs the suite's whole self-test on it
 * and reports through a pipe: a plug-in that crashes or hangs there costs the child, not
 * bench. Only a plug-in that passed is loaded into bench itself. */
#include <stdio.h>
#include <string.h>

#include "patchbench/xts_plugin.h"
#include "pb_fork.h"
#include "pb_plugin.h"
#include "xts_impls.h"
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
    if (pb_plugin_name_ok("plugin", name, XTS_IMPLS_NAME_MAX, e) < 0) return -1;
    if (xts_impls_find(name)) return pb_errf(e, "--plugin: '%s' is already an implementation of xts", name);
    return 0;
}

/* dlopen, check the ABI, call the entry, register. The handle is never closed: the alg lives in it. */
static int load(const char *name, const char *path, pb_err *e)
{
    pb_plugin_fn sym;
    if (pb_plugin_open("xts", name, path, PB_XTS_PLUGIN_ABI_SYMBOL, PB_XTS_PLUGIN_ABI_VERSION,
                       PB_XTS_PLUGIN_ENTRY_SYMBOL, &sym, e) < 0)
        return -1;
    const pb_xts_plugin *p = ((pb_xts_plugin_entry_fn)sym)(&host);
    if (pb_plugin_check_returned(name, path, PB_XTS_PLUGIN_ENTRY_SYMBOL, p, p ? p->abi_version : 0,
                                 PB_XTS_PLUGIN_ABI_VERSION, e) < 0)
        return -1;
    const xts_alg *a = p->alg;
    if (!a || !a->init_tfm || !a->exit_tfm || !a->setkey || !a->encrypt || !a->decrypt ||
        !(a->key_sizes & XTS_KEYS_ALL))
        return pb_errf(e, "plug-in %s (%s): its xts_alg lacks a function or key size", name, path);
    int err = xts_impls_add_plugin(name, a);
    if (err) return pb_errf(e, "plug-in %s: cannot register: %s", name, strerror(-err));
    return 0;
}

int xts_plugin_load(const char *name, const char *path, pb_err *e)
{
    if (xts_plugin_check_name(name, e) < 0) return -1;
    return pb_fork_load_checked("plug-in", name, path, SELFTEST_SECONDS, load, xts_suite_selftest, e);
}
