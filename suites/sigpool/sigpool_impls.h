/* SPDX-License-Identifier: GPL-2.0-only */
/* sigpool_impls.h — the sigpool suite's implementations by name: the built-in table, the plug-ins
 * loaded into this process, and the lookup every caller (suite, KAT, self-test, plug-in loading,
 * tests) goes through. The same shape in every suite (xts_impls.h, drbg_impls.h,
 * docs/adding-a-suite.md): one home for "which impls exist", so that no two files keep a copy. */
#ifndef PB_SIGPOOL_IMPLS_H
#define PB_SIGPOOL_IMPLS_H

#include <stddef.h>

#include "common/sigpool.h"

struct pb_impl_dir;

#define SIGPOOL_IMPLS_MAX_PLUGINS 4   /* a cell: 4 pools + kernel + 4 plug-ins */
#define SIGPOOL_IMPLS_NAME_MAX 32

typedef struct sigpool_impl {
    const char *name;
    const sigpool_ops *ops;   /* NULL: "kernel", the host kernel's own signing (stream op only) */
    int plugin;               /* loaded by --plugin, not built in */
} sigpool_impl;

/* "old", "new" (kernel profile), "old@native", "new@native", "kernel", then the plug-ins in the
 * order they were added. NULL: no such name. */
const sigpool_impl *sigpool_impls_find(const char *name);
size_t sigpool_impls_count(void);
/* i < sigpool_impls_count(), in the order above; NULL past the end. */
const sigpool_impl *sigpool_impls_at(size_t i);
/* Add a plug-in's pool as impl NAME. The name is copied; ops must outlive the process's use of
 * it. 0, -EINVAL: name empty or too long; -EEXIST: taken; -ENOSPC: SIGPOOL_IMPLS_MAX_PLUGINS
 * already. */
int sigpool_impls_add_plugin(const char *name, const sigpool_ops *ops);
/* the directory behind these: which names are plug-ins, and their room (pb_plugin.h) */
struct pb_impl_dir *sigpool_impls_dir(void);

/* The pool behind impl NAME; NULL for kernel or an unknown name. */
const sigpool_ops *sigpool_impls_ops(const char *name);
/* The impl name of a pool, for messages: its entry's ("old@native", a plug-in's NAME), else
 * ops->name. */
const char *sigpool_impls_name_of(const sigpool_ops *ops);

#endif
