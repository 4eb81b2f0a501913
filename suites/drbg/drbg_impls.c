/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg_impls.c — the drbg suite's implementations by name (drbg_impls.h). */
#include "drbg_impls.h"

#include <string.h>

#include "drbg_gcrypt_lib.h"
#include "pb_plugin.h"

static const drbg_impl builtin[] = {
    { "old", &pb_drbg_build_faithful, 0, NULL, 0 },
    { "new", &pb_drbg_build_faithful, 1, NULL, 0 },
    /* the code-generation cross-check: the same sources, built native */
    { "old@native", &pb_drbg_build_faithful_native, 0, NULL, 0 },
    { "new@native", &pb_drbg_build_faithful_native, 1, NULL, 0 },
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

pb_impl_dir *drbg_impls_dir(void)
{
    return &dir;
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

/* "old+gcrypt:NAME" / "new+gcrypt:NAME" of a loaded build: old or new of the prims copy, on its table */
static const pb_drbg_build *on_primitives(const char *name, const pb_drbg_backend **bk, const void **prims)
{
    const char *sep = strstr(name, DRBG_IMPLS_PRIMS_SEP);
    if (!sep) return NULL;
    size_t n = (size_t)(sep - name);
    int is_new = n == 3 && !strncmp(name, "new", 3);
    if (!is_new && !(n == 3 && !strncmp(name, "old", 3))) return NULL;
    drbg_gcrypt_lib *lib = drbg_gcrypt_lib_find(sep + 1);   /* "gcrypt:NAME" */
    if (!lib || !drbg_gcrypt_lib_prims(lib)) return NULL;
    *bk = is_new ? pb_drbg_build_prims.bk_new : pb_drbg_build_prims.bk_old;
    *prims = drbg_gcrypt_lib_prims(lib);
    return &pb_drbg_build_prims;
}

const pb_drbg_build *drbg_impls_build(const char *name, const pb_drbg_backend **bk, const void **prims)
{
    *prims = NULL;
    const pb_drbg_build *b = on_primitives(name, bk, prims);
    if (b) return b;
    /* a plug-in is loaded into this process here, at its first use (pb_impl_dir_use) */
    const drbg_impl *m = pb_impl_dir_use(&dir, name);
    if (!m || !m->build) return NULL;
    *bk = m->plugin ? m->backend : m->is_new ? m->build->bk_new : m->build->bk_old;
    return m->build;
}
