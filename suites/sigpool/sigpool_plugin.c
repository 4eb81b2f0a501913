/* SPDX-License-Identifier: GPL-2.0-only */
/* sigpool_plugin.c — loading a signature pool from a shared object
 * (include/patchbench/sigpool_plugin.h). As for xts and drbg plug-ins: first loaded and
 * self-tested in a forked child (pb_fork.h), only then loaded into bench. */
#include <string.h>

#include "patchbench/sigpool_plugin.h"
#include "pb_fork.h"
#include "pb_plugin.h"
#include "sigpool_impls.h"
#include "sigpool_plugin.h"
#include "sigpool_suite.h"

#define SELFTEST_SECONDS 60   /* far above what the vectors take; a hung plug-in is refused */

/* the kernel-profile layer: the one the suite's TCP code hashes requests with */
static const pb_sigpool_host host = {
    .abi_version = PB_SIGPOOL_PLUGIN_ABI_VERSION,
    .pool_old = &sigpool_old,
    .pool_new = &sigpool_new,
    .alg_find = sp_alg_find,
    .tfm_alloc = sp_tfm_alloc,
    .tfm_clone = sp_tfm_clone,
    .tfm_free = sp_tfm_free,
    .req_alloc = sp_req_alloc,
    .req_free = sp_req_free,
    .cpus_init = sp_cpus_init,
    .cpus_fini = sp_cpus_fini,
    .bh_disable = sp_bh_disable,
    .bh_enable = sp_bh_enable,
};

int sp_plugin_check_name(const char *name, pb_err *e)
{
    if (pb_plugin_name_ok("plugin", name, SIGPOOL_IMPLS_NAME_MAX, e) < 0) return -1;
    const sigpool_impl *m = sigpool_impls_find(name);
    if (m && !m->plugin)
        return pb_errf(e, "--plugin: '%s' is already an implementation of sigpool", name);
    return 0;
}

/* dlopen, check the ABI, call the entry, register. The handle is never closed: the pool lives in it. */
static int load(const char *name, const char *path, pb_err *e)
{
    if (sigpool_impls_nplugins() == SIGPOOL_IMPLS_MAX_PLUGINS)
        return pb_errf(e, "--plugin: at most %d plug-ins", SIGPOOL_IMPLS_MAX_PLUGINS);
    pb_plugin_fn sym;
    if (pb_plugin_open("sigpool", name, path, PB_SIGPOOL_PLUGIN_ABI_SYMBOL, PB_SIGPOOL_PLUGIN_ABI_VERSION,
                       PB_SIGPOOL_PLUGIN_ENTRY_SYMBOL, &sym, e) < 0)
        return -1;
    const pb_sigpool_plugin *p = ((pb_sigpool_plugin_entry_fn)sym)(&host);
    if (pb_plugin_check_returned(name, path, PB_SIGPOOL_PLUGIN_ENTRY_SYMBOL, p, p ? p->abi_version : 0,
                                 PB_SIGPOOL_PLUGIN_ABI_VERSION, e) < 0)
        return -1;
    const sigpool_ops *o = p->ops;
    if (!o || !o->create || !o->destroy || !o->start || !o->end || !o->inject_alloc_failure || !o->alloc_failures)
        return pb_errf(e, "plug-in %s (%s): its sigpool_ops lacks an operation", name, path);
    int err = sigpool_impls_add_plugin(name, o);
    if (err) return pb_errf(e, "plug-in %s: cannot register: %s", name, strerror(-err));
    return 0;
}

int sp_plugin_load(const char *name, const char *path, pb_err *e)
{
    const sigpool_impl *m = sigpool_impls_find(name);
    if (m && m->plugin) return 0;
    if (sp_plugin_check_name(name, e) < 0) return -1;
    return pb_fork_load_checked("plug-in", name, path, SELFTEST_SECONDS, load, sp_selftest, e);
}
