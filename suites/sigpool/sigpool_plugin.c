/* SPDX-License-Identifier: GPL-2.0-only */
/* sigpool_plugin.c — loading a signature pool from a shared object
 * (include/patchbench/sigpool_plugin.h). As for xts and drbg plug-ins: discovered (loaded and
 * self-tested) in a forked child, then loaded only by the processes that run it, never by bench
 * itself. The steps are pb_plugin.h's; this file is what sigpool's plug-ins are: its host, its
 * table and its impls. */
#include "patchbench/sigpool_plugin.h"
#include "pb_plugin.h"
#include "sigpool_impls.h"
#include "sigpool_plugin.h"
#include "sigpool_suite.h"

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

static const void *enter(pb_plugin_fn entry, unsigned *abi, const void **table)
{
    const pb_sigpool_plugin *p = ((pb_sigpool_plugin_entry_fn)entry)(&host);
    const sigpool_ops *o = p ? p->ops : NULL;
    if (p) *abi = p->abi_version;
    if (o && o->create && o->destroy && o->start && o->end && o->inject_alloc_failure && o->alloc_failures)
        *table = o;
    return p;
}

static int add(const char *name, const void *ops)
{
    return sigpool_impls_add_plugin(name, ops);
}

/* only the built-in names are refused; loading a loaded plug-in again (a later plan) does nothing */
static const pb_plugin_kind kind = {
    .suite = "sigpool", PB_PLUGIN_SYMBOLS(SIGPOOL), .table = "sigpool_ops", .lacks = "an operation",
    .load_again_ok = 1, .room_first = 1,
    .impls = sigpool_impls_dir, .table_size = sizeof(sigpool_ops),
    .enter = enter, .add = add, .selftest = sp_selftest,
};

int sp_plugin_check_name(const char *name, pb_err *e)
{
    return pb_plugin_check_name(&kind, name, e);
}

int sp_plugin_load(const char *name, const char *path, pb_err *e)
{
    return pb_plugin_load(&kind, name, path, e);
}
