/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg_plugin.c — loading a DRBG backend from a shared object (include/patchbench/drbg_plugin.h).
 * As for xts plug-ins: discovered (loaded and self-tested) in a forked child, then loaded only by
 * the processes that run it, never by bench itself. The steps are pb_plugin.h's; this file is what
 * drbg's plug-ins are: its host, its table and its impls. */
#include "drbg_impls.h"
#include "drbg_plugin.h"
#include "drbg_selftest.h"
#include "patchbench/drbg_plugin.h"
#include "pb_plugin.h"

static const pb_drbg_host host = {
    .abi_version = PB_DRBG_PLUGIN_ABI_VERSION,
    .backend_old = &pb_drbg_backend_old,
    .backend_new = &pb_drbg_backend_new,
};

static const void *enter(pb_plugin_fn entry, unsigned *abi, const void **table)
{
    const pb_drbg_plugin *p = ((pb_drbg_plugin_entry_fn)entry)(&host);
    const pb_drbg_backend *b = p ? p->backend : NULL;
    if (p) *abi = p->abi_version;
    if (b && b->init && b->fini && b->hash && b->hmac_setkey && b->hmac && b->block_setkey && b->block_encrypt &&
        b->ctr_setkey && b->ctr)
        *table = b;
    return p;
}

static int add(const char *name, const void *backend)
{
    return drbg_impls_add_plugin(name, backend);
}

/* --plugin refuses a loaded plug-in's name; loading one again (a later plan) does nothing */
static const pb_plugin_kind kind = {
    .suite = "drbg", PB_PLUGIN_SYMBOLS(DRBG), .table = "pb_drbg_backend", .lacks = "an operation",
    .loaded_name_taken = 1, .load_again_ok = 1, .room_first = 1,
    .impls = drbg_impls_dir, .table_size = sizeof(pb_drbg_backend),
    .enter = enter, .add = add, .selftest = drbg_selftest,
};

int drbg_plugin_check_name(const char *name, pb_err *e)
{
    return pb_plugin_check_name(&kind, name, e);
}

int drbg_plugin_load(const char *name, const char *path, pb_err *e)
{
    return pb_plugin_load(&kind, name, path, e);
}
