/* SPDX-License-Identifier: GPL-2.0-only */
/* sigpool_plugin.h — loading a signature pool from a shared object
 * (include/patchbench/sigpool_plugin.h). */
#ifndef PB_SUITE_SIGPOOL_PLUGIN_H
#define PB_SUITE_SIGPOOL_PLUGIN_H

#include "pb.h"

/* Is NAME usable (1..31 of A-Z a-z 0-9 _ - . @, not a built-in impl: sigpool_impls.h)? 0, or -1 + e. */
int sp_plugin_check_name(const char *name, pb_err *e);
/* Self-test PATH in a child, then load it as impl NAME. Loading NAME again is a no-op.
 * 0, or -1 + e: missing symbol, ABI mismatch, failing vector, crash or hang in the self-test. */
int sp_plugin_load(const char *name, const char *path, pb_err *e);

#endif
