/* SPDX-License-Identifier: GPL-2.0-only */
/* pb_plugin.h — what every suite's plug-in loader shares (include/patchbench/SUITE_plugin.h): the
 * `--plugin NAME=PATH.so` option list, opening the shared object up to its entry point with the
 * ABI version checked before anything of it is called, and the directory of a suite's impls by
 * name that loaded plug-ins join. The self-test in a child is pb_fork.h's; what the entry returns
 * is each suite's own. */
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

/* Is impl one of the n plug-ins of pb_plugin_opt_add's lists (the same rows)? 1 and, in
 * what[cap], "SUITE plug-in NAME (PATH)" (a suite's user_code hook, suite.h); else 0. */
int pb_plugin_user_code(const char *suite, const char *impl, int n, const char *names, size_t name_max,
                        const char *paths, size_t path_max, char *what, size_t cap);

/* Is impl one of the n plug-ins of those lists? 1 and its shared object's path in path[cap] (a
 * suite's user_object hook, suite.h); else 0. */
int pb_plugin_user_object(const char *impl, int n, const char *names, size_t name_max, const char *paths,
                          size_t path_max, char *path, size_t cap);

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

/* A suite's implementations by name (suites/SUITE/SUITE_impls.c wraps one with its own entry
 * type): the built-in table, then the plug-ins added at run time, in order. An entry is the
 * suite's struct, `size` bytes, whose first member is its `const char *name`. Loaded code, not
 * options: it lives in a file-scope variable of the suite, for the life of the process. */
typedef struct pb_impl_dir {
    const void *builtin;
    size_t nbuiltin, size;
    void *plugins;            /* room for max_plugins entries */
    char *names;              /* max_plugins rows of name_max bytes: the plug-ins' names, copied */
    size_t max_plugins, name_max;
    size_t nplugins;
} pb_impl_dir;

/* The initialiser from the suite's three arrays: builtin[], plugins[MAX], names[MAX][NAME_MAX]. */
#define PB_IMPL_DIR(builtin, plugins, names)                                                             \
    { (builtin), sizeof(builtin) / sizeof((builtin)[0]), sizeof((builtin)[0]), (plugins), (names)[0], \
      sizeof(plugins) / sizeof((plugins)[0]), sizeof((names)[0]), 0 }

size_t pb_impl_dir_count(const pb_impl_dir *d);
/* Entry i (built-in first); NULL past the end. */
const void *pb_impl_dir_at(const pb_impl_dir *d, size_t i);
/* The entry named `name`, or NULL. */
const void *pb_impl_dir_find(const pb_impl_dir *d, const char *name);
/* Append a copy of `entry` as `name` (copied; the entry's own name is not read). 0, -EINVAL: name
 * empty or too long; -EEXIST: taken; -ENOSPC: max_plugins already. */
int pb_impl_dir_add(pb_impl_dir *d, const char *name, const void *entry);

#endif
