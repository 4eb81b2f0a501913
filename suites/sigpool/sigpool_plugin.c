/* SPDX-License-Identifier: GPL-2.0-only */
/* sigpool_plugin.c — loading a signature pool from a shared object
 * (include/patchbench/sigpool_plugin.h). As for xts and drbg plug-ins: first loaded and
 * self-tested in a forked child (pb_fork.h), only then loaded into bench. */
#include <stdio.h>
#include <string.h>

#include "patchbench/sigpool_plugin.h"
#include "pb_fork.h"
#include "pb_plugin.h"
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

/* Loaded code, not options: the registry outlives one run's options; a handle is never closed. */
static struct {
    char name[SP_PLUGIN_NAME_MAX];
    const sigpool_ops *ops;
} plugins[SP_MAX_PLUGINS];
static int nplugins;

int sp_plugin_check_name(const char *name, pb_err *e)
{
    if (pb_plugin_name_ok("plugin", name, SP_PLUGIN_NAME_MAX, e) < 0) return -1;
    if (!strcmp(name, "kernel") || (sp_pool_ops(name) && !sp_plugin_ops(name)))
        return pb_errf(e, "--plugin: '%s' is already an implementation of sigpool", name);
    return 0;
}

const sigpool_ops *sp_plugin_ops(const char *impl)
{
    for (int i = 0; i < nplugins; i++)
        if (!strcmp(plugins[i].name, impl)) return plugins[i].ops;
    return NULL;
}

const char *sp_plugin_impl(const sigpool_ops *ops)
{
    for (int i = 0; i < nplugins; i++)
        if (plugins[i].ops == ops) return plugins[i].name;
    return NULL;
}

/* dlopen, check the ABI, call the entry, register. */
static int load(const char *name, const char *path, pb_err *e)
{
    if (nplugins == SP_MAX_PLUGINS) return pb_errf(e, "--plugin: at most %d plug-ins", SP_MAX_PLUGINS);
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
    snprintf(plugins[nplugins].name, sizeof plugins[0].name, "%s", name);
    plugins[nplugins++].ops = o;
    return 0;
}

int sp_plugin_load(const char *name, const char *path, pb_err *e)
{
    if (sp_plugin_ops(name)) return 0;
    if (sp_plugin_check_name(name, e) < 0) return -1;
    return pb_fork_load_checked("plug-in", name, path, SELFTEST_SECONDS, load, sp_selftest, e);
}
