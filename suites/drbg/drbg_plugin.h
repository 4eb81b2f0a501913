/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg_plugin.h — loading a DRBG backend from a shared object (include/patchbench/drbg_plugin.h). */
#ifndef PB_SUITE_DRBG_PLUGIN_H
#define PB_SUITE_DRBG_PLUGIN_H

#include "pb.h"

/* Is NAME usable (1..31 of A-Z a-z 0-9 _ - . @, not an impl: drbg_impls.h)? 0, or -1 + e. */
int drbg_plugin_check_name(const char *name, pb_err *e);
/* Self-test PATH in a child, then load it as impl NAME. Loading NAME again is a no-op.
 * 0, or -1 + e: missing symbol, ABI mismatch, failing vector, crash or hang in the self-test. */
int drbg_plugin_load(const char *name, const char *path, pb_err *e);

#endif
