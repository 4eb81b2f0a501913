/* SPDX-License-Identifier: GPL-2.0-only */
/* pb_plugin.h — what every suite's plug-in loader shares (include/patchbench/SUITE_plugin.h): the
 * `--plugin NAME=PATH.so` option list, the checks of a name, its discovery in a child (pb_fork.h:
 * loaded there, the ABI version checked before anything of it is called, self-tested), loading
 * it only where it is used (never in bench but under --cage none, docs/cage.md), every message of
 * those steps, and the directory of a suite's impls by name that plug-ins join. A suite keeps its
 * own symbols, host and table checks: one pb_plugin_kind. */
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

/* A suite's --plugin glue, defined once here for the suites that take plug-ins: the option's
 * setter `set_plugin` (a pb_suite_opt's), and `plugin_user_code`/`plugin_user_object` (the
 * user_code and user_object hooks of suite.h, or the first step of the suite's own), over the
 * members `nplugins`, `plugin_name[max][..]` and `plugin_path[max][..]` of the options object
 * `opts_type`, each name checked by check_name. The members stay the suite's own: the size of its
 * options object is part of what its cases' heap looks like, and instruction counts of code that
 * allocates (the old DRBG's handles) move with it. */
#define PB_PLUGIN_OPTION_GLUE(suite, opts_type, max, check_name)                                               \
    static int set_plugin(void *p, const char *value, pb_err *e)                                                  \
    {                                                                                                             \
        opts_type *o = p;                                                                                         \
        return pb_plugin_opt_add("plugin", "NAME=PATH.so", value, &o->nplugins, (max), o->plugin_name[0],        \
                                 sizeof o->plugin_name[0], o->plugin_path[0], sizeof o->plugin_path[0],           \
                                 check_name, e);                                                                 \
    }                                                                                                             \
    static int plugin_user_code(const void *opts, const char *impl, char *what, size_t cap)                       \
    {                                                                                                             \
        const opts_type *o = opts;                                                                                \
        return pb_plugin_user_code(suite, impl, o->nplugins, o->plugin_name[0], sizeof o->plugin_name[0],         \
                                   o->plugin_path[0], sizeof o->plugin_path[0], what, cap);                       \
    }                                                                                                             \
    static int plugin_user_object(const void *opts, const char *impl, char *path, size_t cap)                     \
    {                                                                                                             \
        const opts_type *o = opts;                                                                                \
        return pb_plugin_user_object(impl, o->nplugins, o->plugin_name[0], sizeof o->plugin_name[0],              \
                                     o->plugin_path[0], sizeof o->plugin_path[0], path, cap);                     \
    }

/* Is NAME 1 .. name_max-1 characters of A-Z a-z 0-9 _ - . @? 0, or -1 + e (for --OPT). */
int pb_plugin_name_ok(const char *opt, const char *name, size_t name_max, pb_err *e);

typedef void (*pb_plugin_fn)(void);

/* A suite's implementations by name (suites/SUITE/SUITE_impls.c wraps one with its own entry
 * type): the built-in table, then the plug-ins added at run time, in order. An entry is the
 * suite's struct, `size` bytes, whose first member is its `const char *name`. Loaded code, not
 * options: it lives in a file-scope variable of the suite, for the life of the process.
 *
 * A plug-in bench knows from its discovery only (pb_plugin_load) is `deferred`: its entry's table
 * is stub[i], what the discovery child kept of the real one (the kind's keep: data such as key
 * sizes, no function), and it is loaded for real at its first use (pb_impl_dir_use) in the
 * process that runs it: a cage's child, a known-answer child, or bench itself only under
 * --cage none. So bench's own process never runs a plug-in's constructor or destructor. */
#define PB_IMPL_DIR_MAX_PLUGINS 8
#define PB_PLUGIN_STUB_MAX 512
#define PB_PLUGIN_PATH_MAX 1024
struct pb_plugin_kind;
typedef struct pb_impl_dir {
    const void *builtin;
    size_t nbuiltin, size;
    void *plugins;            /* room for max_plugins entries */
    char *names;              /* max_plugins rows of name_max bytes: the plug-ins' names, copied */
    size_t max_plugins, name_max;
    size_t nplugins;
    const struct pb_plugin_kind *deferred[PB_IMPL_DIR_MAX_PLUGINS];   /* NULL: loaded in this process */
    char path[PB_IMPL_DIR_MAX_PLUGINS][PB_PLUGIN_PATH_MAX];
    _Alignas(max_align_t) unsigned char stub[PB_IMPL_DIR_MAX_PLUGINS][PB_PLUGIN_STUB_MAX];
} pb_impl_dir;

/* The initialiser from the suite's three arrays: builtin[], plugins[MAX], names[MAX][NAME_MAX]. */
#define PB_IMPL_DIR(builtin, plugins, names)                                                             \
    { (builtin), sizeof(builtin) / sizeof((builtin)[0]), sizeof((builtin)[0]), (plugins), (names)[0], \
      sizeof(plugins) / sizeof((plugins)[0]), sizeof((names)[0]), 0, {0}, {{0}}, {{0}} }

size_t pb_impl_dir_count(const pb_impl_dir *d);
/* Entry i (built-in first); NULL past the end. */
const void *pb_impl_dir_at(const pb_impl_dir *d, size_t i);
/* The entry named `name`, or NULL. */
const void *pb_impl_dir_find(const pb_impl_dir *d, const char *name);
/* Append a copy of `entry` as `name` (copied; the entry's own name is not read); a deferred
 * plug-in's entry of that name is replaced in place by the loaded one. 0, -EINVAL: name empty or
 * too long; -EEXIST: taken; -ENOSPC: max_plugins already. */
int pb_impl_dir_add(pb_impl_dir *d, const char *name, const void *entry);

/* The entry named `name` for calling it: a deferred plug-in is loaded into this process first
 * (dlopen, its ABI version, its entry, its table). NULL: no such impl, or its loading failed (said
 * on stderr: the plug-in loaded in its discovery child, so this is rare). */
const void *pb_impl_dir_use(pb_impl_dir *d, const char *name);

/* What the impls say of a name: none, a built-in one, a plug-in added already. */
enum { PB_PLUGIN_FREE, PB_PLUGIN_BUILTIN, PB_PLUGIN_LOADED };
int pb_impl_dir_which(const pb_impl_dir *d, const char *name);

/* One suite's plug-ins: what the loader reads of include/patchbench/SUITE_plugin.h and the
 * suite's own steps, as the method table that is the only place the suites differ. */
typedef struct pb_plugin_kind {
    const char *suite;                 /* "xts": in messages and include/patchbench/SUITE_plugin.h */
    const char *abi_symbol, *entry_symbol;
    unsigned abi_version;
    const char *table, *lacks;         /* "its TABLE lacks LACKS": the plug-in's table incomplete */
    int loaded_name_taken;             /* --plugin refuses the name of a loaded plug-in too */
    int load_again_ok;                 /* loading a loaded name again does nothing */
    int room_first;                    /* a plug-in past the impls' room is refused before dlopen */
    pb_impl_dir *(*impls)(void);       /* the suite's impls: names, room, which are plug-ins */
    size_t table_size;                 /* sizeof the table, at most PB_PLUGIN_STUB_MAX */
    /* Optional: copy into the zeroed stub what bench reads of the table without calling it (xts:
     * its key sizes, for the grid). NULL: nothing. */
    void (*keep)(const void *table, void *stub);
    /* Call the entry with the suite's host. What it returned (NULL: it refused), its ABI version
     * in *abi and, in *table, its table when that has everything bench calls (else NULL). */
    const void *(*enter)(pb_plugin_fn entry, unsigned *abi, const void **table);
    /* register table as impl name in the suite's impls: 0 or -errno (pb_impl_dir_add) */
    int (*add)(const char *name, const void *table);
    int (*selftest)(const char *impl, pb_err *e);   /* the suite's, of a loaded impl */
} pb_plugin_kind;

/* The include/patchbench/SUITE_plugin.h names of suite S (upper case): its symbols and version. */
#define PB_PLUGIN_SYMBOLS(S)                                                                        \
    .abi_symbol = PB_##S##_PLUGIN_ABI_SYMBOL, .entry_symbol = PB_##S##_PLUGIN_ENTRY_SYMBOL,         \
    .abi_version = PB_##S##_PLUGIN_ABI_VERSION

/* Is NAME usable for --plugin: pb_plugin_name_ok with the impls' name room, and no impl of the
 * suite (a loaded plug-in's name only where loaded_name_taken)? 0, or -1 + e. */
int pb_plugin_check_name(const pb_plugin_kind *k, const char *name, pb_err *e);

/* Register PATH as impl NAME, discovered in a forked child (pb_fork_run_out, who = "plug-in NAME
 * (PATH)"; a crash, exit or hang there costs the child, and its output goes to stderr): there it is
 * loaded, the suite's self-test run on it, and what keep takes of its table sent back. Here, only
 * if it passed, NAME is registered deferred with that stub (pb_impl_dir above); nothing of PATH is
 * loaded into this process. Loading it (in the child, and at first use): dlopen (RTLD_NOW |
 * RTLD_LOCAL; a bare file name is taken as ./PATH, as written, never looked up in the library
 * path), the `const unsigned` abi_symbol equal to abi_version (read before anything of it runs),
 * the entry called, what it returned checked, its table registered. The handle is never closed:
 * the table lives in it. A registered NAME again: nothing where load_again_ok. 0, or -1 + e, the
 * loader's messages starting "plug-in NAME": cannot load, missing symbol, "ABI version mismatch:
 * built for SUITE plug-in ABI N, this bench has M", "returned NULL", "its TABLE lacks LACKS",
 * "cannot register"; or a bad name, a failing vector, a crash, exit or hang in the self-test. */
int pb_plugin_load(const pb_plugin_kind *k, const char *name, const char *path, pb_err *e);

#endif
