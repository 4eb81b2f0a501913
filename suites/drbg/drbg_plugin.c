/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg_plugin.c — loading a DRBG backend from a shared object (include/patchbench/drbg_plugin.h).
 * As for xts plug-ins: first loaded and self-tested in a forked child (pb_fork.h), only then
 * loaded into bench. */
#include <string.h>

#include "drbg_impls.h"
#include "drbg_plugin.h"
#include "drbg_selftest.h"
#include "patchbench/drbg_plugin.h"
#include "pb_fork.h"
#include "pb_plugin.h"

#define SELFTEST_SECONDS 60

static const pb_drbg_host host = {
    .abi_version = PB_DRBG_PLUGIN_ABI_VERSION,
    .backend_old = &pb_drbg_backend_old,
    .backend_new = &pb_drbg_backend_new,
};

int drbg_plugin_check_name(const char *name, pb_err *e)
{
    if (pb_plugin_name_ok("plugin", name, DRBG_IMPLS_NAME_MAX, e) < 0) return -1;
    if (drbg_impls_find(name))
        return pb_errf(e, "--plugin: '%s' is already an implementation of drbg", name);
    return 0;
}

/* dlopen, check the ABI, call the entry, register. The handle is never closed: the backend lives in it. */
static int load(const char *name, const char *path, pb_err *e)
{
    if (drbg_impls_nplugins() == DRBG_IMPLS_MAX_PLUGINS)
        return pb_errf(e, "--plugin: at most %d plug-ins", DRBG_IMPLS_MAX_PLUGINS);
    pb_plugin_fn sym;
    if (pb_plugin_open("drbg", name, path, PB_DRBG_PLUGIN_ABI_SYMBOL, PB_DRBG_PLUGIN_ABI_VERSION,
                       PB_DRBG_PLUGIN_ENTRY_SYMBOL, &sym, e) < 0)
        return -1;
    const pb_drbg_plugin *p = ((pb_drbg_plugin_entry_fn)sym)(&host);
    if (pb_plugin_check_returned(name, path, PB_DRBG_PLUGIN_ENTRY_SYMBOL, p, p ? p->abi_version : 0,
                                 PB_DRBG_PLUGIN_ABI_VERSION, e) < 0)
        return -1;
    const pb_drbg_backend *b = p->backend;
    if (!b || !b->init || !b->fini || !b->hash || !b->hmac_setkey || !b->hmac || !b->block_setkey ||
        !b->block_encrypt || !b->ctr_setkey || !b->ctr)
        return pb_errf(e, "plug-in %s (%s): its pb_drbg_backend lacks an operation", name, path);
    int err = drbg_impls_add_plugin(name, b);
    if (err) return pb_errf(e, "plug-in %s: cannot register: %s", name, strerror(-err));
    return 0;
}

int drbg_plugin_load(const char *name, const char *path, pb_err *e)
{
    const drbg_impl *m = drbg_impls_find(name);
    if (m && m->plugin) return 0;
    if (drbg_plugin_check_name(name, e) < 0) return -1;
    return pb_fork_load_checked("plug-in", name, path, SELFTEST_SECONDS, load, drbg_selftest, e);
}
