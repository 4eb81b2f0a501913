/* SPDX-License-Identifier: GPL-2.0-only */
/* sigpool_plugin.h — loading a signature pool from a shared object
 * (include/patchbench/sigpool_plugin.h). */
#ifndef PB_SUITE_SIGPOOL_PLUGIN_H
#define PB_SUITE_SIGPOOL_PLUGIN_H

#include "common/sigpool.h"
#include "pb.h"

#define SP_MAX_PLUGINS 4          /* a cell: 4 pools + kernel + 4 plug-ins */
#define SP_PLUGIN_NAME_MAX 32

/* Is NAME usable (1..31 of A-Z a-z 0-9 _ - . @, not a built-in impl)? 0, or -1 + e. */
int sp_plugin_check_name(const char *name, pb_err *e);
/* Self-test PATH in a child, then load it as impl NAME. Loading NAME again is a no-op.
 * 0, or -1 + e: missing symbol, ABI mismatch, failing vector, crash or hang in the self-test. */
int sp_plugin_load(const char *name, const char *path, pb_err *e);
/* The pool of plug-in impl NAME, or NULL. */
const sigpool_ops *sp_plugin_ops(const char *impl);
/* The impl name a plug-in pool was loaded as, or NULL. */
const char *sp_plugin_impl(const sigpool_ops *ops);

#endif
