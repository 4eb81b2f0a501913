/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg_impls.c — the drbg suite's implementations by name (drbg_impls.h). */
#include "drbg_impls.h"

#include "pb_plugin.h"

static const drbg_impl builtin[] = {
    { "old", &pb_drbg_build_faithful, 0, NULL, 0 },
    { "new", &pb_drbg_build_faithful, 1, NULL, 0 },
    /* the code-generation cross-check: the same sources, built native */
    { "old@native", &pb_drbg_build_native, 0, NULL, 0 },
    { "new@native", &pb_drbg_build_native, 1, NULL, 0 },
    { "gcrypt", NULL, 0, NULL, 0 },
    { "openssl", NULL, 0, NULL, 0 },
};

static drbg_impl plugins[DRBG_IMPLS_MAX_PLUGINS];
static char plugin_names[DRBG_IMPLS_MAX_PLUGINS][DRBG_IMPLS_NAME_MAX];
/* a plug-in's backend belongs to a shared object that stays loaded until the process ends */
static pb_impl_dir dir = PB_IMPL_DIR(builtin, plugins, plugin_names);

size_t drbg_impls_count(void)
{
    return pb_impl_dir_count(&dir);
}

size_t drbg_impls_nplugins(void)
{
    return dir.nplugins;
}

const drbg_impl *drbg_impls_at(size_t i)
{
    return pb_impl_dir_at(&dir, i);
}

const drbg_impl *drbg_impls_find(const char *name)
{
    return pb_impl_dir_find(&dir, name);
}

int drbg_impls_add_plugin(const char *name, const pb_drbg_backend *bk)
{
    /* a plug-in runs under the libgcrypt-profile state machines, like old and new */
    return pb_impl_dir_add(&dir, name, &(drbg_impl){ .build = &pb_drbg_build_faithful, .backend = bk, .plugin = 1 });
}

const pb_drbg_build *drbg_impls_build(const char *name, const pb_drbg_backend **bk)
{
    const drbg_impl *m = drbg_impls_find(name);
    if (!m || !m->build) return NULL;
    *bk = m->plugin ? m->backend : m->is_new ? m->build->bk_new : m->build->bk_old;
    return m->build;
}
