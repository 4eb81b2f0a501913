/* SPDX-License-Identifier: GPL-2.0-only */
/* xts_impls.c — the xts suite's implementations by name (xts_impls.h). */
#include "xts_impls.h"

#include <errno.h>

#include "pb_plugin.h"

extern const xts_alg xts_old_alg, xts_new_alg, xts_openssl_alg, xts_gcrypt_alg;
/* the old template built with every kmalloc failing (impls/old_nomem_names.h) */
extern const xts_alg xts_old_nomem_alg;
/* the same two templates built with the native profile (scripts/native_copy.py: NAME_native) */
extern const xts_alg xts_old_alg_native, xts_new_alg_native;

static const xts_impl builtin[] = {
    { "old", &xts_old_alg, 0 },
    { "new", &xts_new_alg, 0 },
    /* the old template's allocation-failure path: 128-byte chunks */
    { "old-nomem", &xts_old_nomem_alg, 0 },
    { "openssl", &xts_openssl_alg, 0 },
    { "gcrypt", &xts_gcrypt_alg, 0 },
    /* the code-generation cross-check: the same sources, built native */
    { "old@native", &xts_old_alg_native, 0 },
    { "new@native", &xts_new_alg_native, 0 },
};

static xts_impl plugins[XTS_IMPLS_MAX_PLUGINS];
static char plugin_names[XTS_IMPLS_MAX_PLUGINS][XTS_IMPLS_NAME_MAX];
/* the algs of plug-ins belong to shared objects that stay loaded until the process ends */
static pb_impl_dir dir = PB_IMPL_DIR(builtin, plugins, plugin_names);

size_t xts_impls_count(void)
{
    return pb_impl_dir_count(&dir);
}

const xts_impl *xts_impls_at(size_t i)
{
    return pb_impl_dir_at(&dir, i);
}

const xts_impl *xts_impls_find(const char *name)
{
    return pb_impl_dir_find(&dir, name);
}

int xts_impls_add_plugin(const char *name, const xts_alg *alg)
{
    return pb_impl_dir_add(&dir, name, &(xts_impl){ .alg = alg, .plugin = 1 });
}

pb_impl_dir *xts_impls_dir(void)
{
    return &dir;
}

xts_tfm *xts_impls_alloc_tfm(const char *name, int *err)
{
    /* a plug-in is loaded into this process here, at its first use (pb_impl_dir_use) */
    const xts_impl *m = pb_impl_dir_use(&dir, name);
    if (m) return xts_alloc_tfm(m->alg, err);
    if (err) *err = -ENOENT;
    return NULL;
}
