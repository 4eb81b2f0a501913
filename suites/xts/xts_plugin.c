/* SPDX-License-Identifier: GPL-2.0-only */
/* xts_plugin.c — loading an XTS template from a shared object (include/patchbench/xts_plugin.h).
 *
 * The plug-in is discovered in a forked child that loads it, runs the suite's whole self-test on
 * it and reports through a pipe, with its key sizes: a plug-in that crashes, exits or hangs there
 * costs the child, not bench. bench itself never loads it: the processes that run it (a cage's
 * child, a known-answer child) load it at its first use. The steps are pb_plugin.h's; this file
 * is what xts's plug-ins are: its host, its table and its impls. */
#include "patchbench/xts_plugin.h"
#include "pb_plugin.h"
#include "xts_impls.h"
#include "xts_suite.h"

static const pb_xts_host host = {
    .abi_version = PB_XTS_PLUGIN_ABI_VERSION,
    .tmpl_init_tfm = xts_tmpl_init_tfm,
    .tmpl_exit_tfm = xts_tmpl_exit_tfm,
    .tmpl_setkey = xts_tmpl_setkey,
    .child_encrypt = xts_ecb_encrypt,
    .child_decrypt = xts_ecb_decrypt,
    .tweak_encrypt_one = xts_cipher_encrypt_one,
};

static const void *enter(pb_plugin_fn entry, unsigned *abi, const void **table)
{
    const pb_xts_plugin *p = ((pb_xts_plugin_entry_fn)entry)(&host);
    const xts_alg *a = p ? p->alg : NULL;
    if (p) *abi = p->abi_version;
    if (a && a->init_tfm && a->exit_tfm && a->setkey && a->encrypt && a->decrypt && (a->key_sizes & XTS_KEYS_ALL))
        *table = a;
    return p;
}

static int add(const char *name, const void *alg)
{
    return xts_impls_add_plugin(name, alg);
}

/* bench plans the grid from a plug-in's key sizes without loading it (pb_plugin_load) */
static void keep(const void *table, void *stub)
{
    const xts_alg *a = table;
    xts_alg *s = stub;
    s->key_sizes = a->key_sizes;
    s->ctxsize = a->ctxsize;
    s->reqsize = a->reqsize;
}

/* a loaded plug-in's name is refused like a built-in's; past the room, registering refuses it */
static const pb_plugin_kind kind = {
    .suite = "xts", PB_PLUGIN_SYMBOLS(XTS), .table = "xts_alg", .lacks = "a function or key size",
    .loaded_name_taken = 1,
    .impls = xts_impls_dir, .table_size = sizeof(xts_alg), .keep = keep,
    .enter = enter, .add = add, .selftest = xts_suite_selftest,
};

int xts_plugin_check_name(const char *name, pb_err *e)
{
    return pb_plugin_check_name(&kind, name, e);
}

int xts_plugin_load(const char *name, const char *path, pb_err *e)
{
    return pb_plugin_load(&kind, name, path, e);
}
