/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg_plugin.c — loading a DRBG backend from a shared object (include/patchbench/drbg_plugin.h).
 * As for xts plug-ins: first loaded and self-tested in a forked child (pb_fork.h), only then
 * loaded into bench. */
#include <stdio.h>
#include <string.h>

#include "drbg_kat.h"
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

/* Loaded code, not options: the registry outlives one run's options; a handle is never closed. */
static struct {
    char name[DRBG_PLUGIN_NAME_MAX];
    const pb_drbg_backend *bk;
} plugins[DRBG_MAX_PLUGINS];
static int nplugins;

int drbg_plugin_check_name(const char *name, pb_err *e)
{
    const pb_drbg_backend *bk;
    if (pb_plugin_name_ok("plugin", name, DRBG_PLUGIN_NAME_MAX, e) < 0) return -1;
    if (drbg_build_of(name, &bk) || !strcmp(name, "gcrypt") || !strcmp(name, "openssl"))
        return pb_errf(e, "--plugin: '%s' is already an implementation of drbg", name);
    return 0;
}

const pb_drbg_backend *drbg_plugin_backend(const char *impl)
{
    for (int i = 0; i < nplugins; i++)
        if (!strcmp(plugins[i].name, impl)) return plugins[i].bk;
    return NULL;
}

/* dlopen, check the ABI, call the entry, register. */
static int load(const char *name, const char *path, pb_err *e)
{
    if (nplugins == DRBG_MAX_PLUGINS) return pb_errf(e, "--plugin: at most %d plug-ins", DRBG_MAX_PLUGINS);
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
    snprintf(plugins[nplugins].name, sizeof plugins[0].name, "%s", name);
    plugins[nplugins++].bk = b;
    return 0;
}

int drbg_plugin_load(const char *name, const char *path, pb_err *e)
{
    if (drbg_plugin_backend(name)) return 0;
    if (drbg_plugin_check_name(name, e) < 0) return -1;
    return pb_fork_load_checked("plug-in", name, path, SELFTEST_SECONDS, load, drbg_selftest, e);
}
