/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg_plugin.h — loading a DRBG backend from a shared object (include/patchbench/drbg_plugin.h). */
#ifndef PB_SUITE_DRBG_PLUGIN_H
#define PB_SUITE_DRBG_PLUGIN_H

#include "common/drbg_backend.h"
#include "pb.h"

#define DRBG_MAX_PLUGINS 2          /* the cell has room for 6 built-in + 4 gcrypt:NAME + 2 */
#define DRBG_PLUGIN_NAME_MAX 32

/* Is NAME usable (1..31 of A-Z a-z 0-9 _ - . @, not a built-in impl)? 0, or -1 + e. */
int drbg_plugin_check_name(const char *name, pb_err *e);
/* Self-test PATH in a child, then load it as impl NAME. Loading NAME again is a no-op.
 * 0, or -1 + e: missing symbol, ABI mismatch, failing vector, crash or hang in the self-test. */
int drbg_plugin_load(const char *name, const char *path, pb_err *e);
/* The backend of plug-in impl NAME, or NULL. */
const pb_drbg_backend *drbg_plugin_backend(const char *impl);

#endif
