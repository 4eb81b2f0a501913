/* SPDX-License-Identifier: GPL-2.0-only */
/* xts_impls.h — the xts suite's implementations by name: the built-in table, the plug-ins loaded
 * into this process, and the lookup every caller (suite, KAT, self-test, plug-in loading, tests)
 * goes through. The same shape in every suite (drbg_impls.h, sigpool_impls.h,
 * docs/adding-a-suite.md): one home for "which impls exist", so that no two files keep a copy.
 *
 * Harness-side code, built with the suite's flags: nothing here is timed. The transforms it
 * hands out are made by the kernel-profile glue (impls/common/xts.c). */
#ifndef PB_XTS_IMPLS_H
#define PB_XTS_IMPLS_H

#include <stddef.h>

#include "common/xts.h"

struct pb_impl_dir;

#define XTS_IMPLS_MAX_PLUGINS 4
#define XTS_IMPLS_NAME_MAX 32

typedef struct xts_impl {
    const char *name;
    const xts_alg *alg;
    int plugin;                       /* loaded by --plugin, not built in */
} xts_impl;

/* "old", "new", "old-nomem", "openssl", "gcrypt", "old@native", "new@native" (the templates built
 * with the native profile), then the plug-ins in the order they were added. NULL: no such name. */
const xts_impl *xts_impls_find(const char *name);
size_t xts_impls_count(void);
/* i < xts_impls_count(), in the order above; NULL past the end. */
const xts_impl *xts_impls_at(size_t i);
/* Add a plug-in's template as impl NAME. The name is copied; alg must
 * outlive the process's use of it. 0, -EINVAL: name empty or too long; -EEXIST: taken; -ENOSPC:
 * XTS_IMPLS_MAX_PLUGINS already. */
int xts_impls_add_plugin(const char *name, const xts_alg *alg);
/* the directory behind these: which names are plug-ins, and their room (pb_plugin.h) */
struct pb_impl_dir *xts_impls_dir(void);

/* A transform of impl NAME (xts_alloc_tfm with its alg). *err: -ENOENT for an
 * unknown name, else as xts_alloc_tfm. */
xts_tfm *xts_impls_alloc_tfm(const char *name, int *err);

#endif
