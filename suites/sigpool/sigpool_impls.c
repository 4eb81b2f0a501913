/* SPDX-License-Identifier: GPL-2.0-only */
/* sigpool_impls.c — the sigpool suite's implementations by name (sigpool_impls.h). */
#include "sigpool_impls.h"

#include "pb_plugin.h"

static const sigpool_impl builtin[] = {
    { "old", &sigpool_old, 0 },
    { "new", &sigpool_new, 0 },
    /* the code-generation cross-check: the same pools, built native */
    { "old@native", &sigpool_old_native, 0 },
    { "new@native", &sigpool_new_native, 0 },
    { "kernel", NULL, 0 },
};

static sigpool_impl plugins[SIGPOOL_IMPLS_MAX_PLUGINS];
static char plugin_names[SIGPOOL_IMPLS_MAX_PLUGINS][SIGPOOL_IMPLS_NAME_MAX];
/* a plug-in's pool belongs to a shared object that stays loaded until the process ends */
static pb_impl_dir dir = PB_IMPL_DIR(builtin, plugins, plugin_names);

size_t sigpool_impls_count(void)
{
    return pb_impl_dir_count(&dir);
}

pb_impl_dir *sigpool_impls_dir(void)
{
    return &dir;
}

const sigpool_impl *sigpool_impls_at(size_t i)
{
    return pb_impl_dir_at(&dir, i);
}

const sigpool_impl *sigpool_impls_find(const char *name)
{
    return pb_impl_dir_find(&dir, name);
}

int sigpool_impls_add_plugin(const char *name, const sigpool_ops *ops)
{
    return pb_impl_dir_add(&dir, name, &(sigpool_impl){ .ops = ops, .plugin = 1 });
}

const sigpool_ops *sigpool_impls_ops(const char *name)
{
    /* a plug-in is loaded into this process here, at its first use (pb_impl_dir_use) */
    const sigpool_impl *m = pb_impl_dir_use(&dir, name);
    return m ? m->ops : NULL;
}

const char *sigpool_impls_name_of(const sigpool_ops *ops)
{
    const sigpool_impl *m;
    for (size_t i = 0; (m = sigpool_impls_at(i)); i++)
        if (m->ops == ops) return m->name;
    return ops->name;
}
