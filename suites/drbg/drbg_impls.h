/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg_impls.h — the drbg suite's implementations by name: the built-in table, the plug-ins
 * loaded into this process, and the lookup every caller (suite, KAT, self-test, plug-in loading)
 * goes through. The same shape in every suite (xts_impls.h, sigpool_impls.h,
 * docs/adding-a-suite.md): one home for "which impls exist", so that no two files keep a copy.
 * The libgcrypt builds loaded by path (gcrypt:NAME) are not here: they are found by their
 * prefix (drbg_gcrypt_lib.h). */
#ifndef PB_DRBG_IMPLS_H
#define PB_DRBG_IMPLS_H

#include <stddef.h>

#include "common/drbg.h"

struct pb_impl_dir;

#define DRBG_IMPLS_MAX_PLUGINS 2    /* the cell has room for 6 built-in + 4 gcrypt:NAME + 2 */
#define DRBG_IMPLS_NAME_MAX 32

typedef struct drbg_impl {
    const char *name;
    const pb_drbg_build *build;       /* our state machines; NULL: a peer's own DRBG (gcrypt, openssl) */
    int is_new;                       /* built in: driven through build->bk_new, else build->bk_old */
    const pb_drbg_backend *backend;   /* a plug-in's, under the libgcrypt-profile build like old/new */
    int plugin;                       /* loaded by --plugin, not built in */
} drbg_impl;

/* "old", "new" (libgcrypt profile), "old@native", "new@native", "gcrypt", "openssl", then the
 * plug-ins in the order they were added. NULL: no such name. */
const drbg_impl *drbg_impls_find(const char *name);
size_t drbg_impls_count(void);
/* i < drbg_impls_count(), in the order above; NULL past the end. */
const drbg_impl *drbg_impls_at(size_t i);
/* Add a plug-in's backend as impl NAME. The name is copied; bk must outlive the process's use of
 * it. 0, -EINVAL: name empty or too long; -EEXIST: taken; -ENOSPC: DRBG_IMPLS_MAX_PLUGINS already. */
int drbg_impls_add_plugin(const char *name, const pb_drbg_backend *bk);
/* the directory behind these: which names are plug-ins, and their room (pb_plugin.h) */
struct pb_impl_dir *drbg_impls_dir(void);

/* "old+gcrypt:NAME" and "new+gcrypt:NAME": old and new on the primitives of the libgcrypt build
 * loaded as gcrypt:NAME (--gcrypt-lib NAME=PATH, --primitives NAME), driven through the third
 * copy of the sources, pb_drbg_build_prims (impls/prims_names.h). */
#define DRBG_IMPLS_PRIMS_SEP "+gcrypt:"

/* Ours (built in, a plug-in, or old/new on a loaded build's primitives): the build to drive impl
 * NAME through, its backend in *bk, and in *prims the primitives to put in its config
 * (pb_drbg_config.prims; NULL: the linked libgcrypt's). NULL for a peer or an unknown name. */
const pb_drbg_build *drbg_impls_build(const char *name, const pb_drbg_backend **bk, const void **prims);

#endif
