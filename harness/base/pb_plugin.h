/* SPDX-License-Identifier: GPL-2.0-only */
/* pb_plugin.h — what every suite's plug-in loader shares (include/patchbench/SUITE_plugin.h): the
 * `--plugin NAME=PATH.so` option list, and opening the shared object up to its entry point with
 * the ABI version checked before anything of it is called. The self-test in a child is
 * pb_fork.h's; what the entry returns is each suite's own. */
#ifndef PB_PLUGIN_H
#define PB_PLUGIN_H

#include <stddef.h>

#include "pb.h"

/* Append `value` ("NAME=PATH") to a suite's list of names and paths (row i of `names` is
 * names + i * name_max, likewise paths): --OPT wants NAME=ARG (arg: how the help names the
 * value, "NAME=PATH.so"), at most `max`, names checked by check_name and not given twice.
 * 0, or -1 + e. */
int pb_plugin_opt_add(const char *opt, const char *arg, const char *value, int *n, int max, char *names,
                      size_t name_max, char *paths, size_t path_max, int (*check_name)(const char *, pb_err *),
                      pb_err *e);

/* Is NAME 1 .. name_max-1 characters of A-Z a-z 0-9 _ - . @? 0, or -1 + e (for --OPT). */
int pb_plugin_name_ok(const char *opt, const char *name, size_t name_max, pb_err *e);

typedef void (*pb_plugin_fn)(void);

/* dlopen PATH (RTLD_NOW | RTLD_LOCAL; a bare file name is taken as ./PATH, as written, never
 * looked up in the library path), check that it exports the `const unsigned` abi_symbol equal to
 * abi_version (read before anything of it runs), then find entry_symbol. The handle is never
 * closed: what the entry returns lives in it. 0 and *entry, or -1 + e, every message starting
 * "plug-in NAME": cannot load, missing symbol, "ABI version mismatch: built for SUITE plug-in
 * ABI N, this bench has M". */
int pb_plugin_open(const char *suite, const char *name, const char *path, const char *abi_symbol,
                   unsigned abi_version, const char *entry_symbol, pb_plugin_fn *entry, pb_err *e);

/* What the entry returned: `plugin` (NULL: it refused) with `abi` in its abi_version field.
 * 0, or -1 + e ("returned NULL", "ABI version mismatch: its entry says N, this bench has M"). */
int pb_plugin_check_returned(const char *name, const char *path, const char *entry_symbol, const void *plugin,
                             unsigned abi, unsigned abi_version, pb_err *e);

#endif
