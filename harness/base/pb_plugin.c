/* SPDX-License-Identifier: GPL-2.0-only */
/* pb_plugin.c — the plug-in loaders' shared steps (pb_plugin.h). */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "pb_fork.h"
#include "pb_plugin.h"

#define SELFTEST_SECONDS 60   /* far above what any suite's vectors take; a hung plug-in is refused */

int pb_plugin_name_ok(const char *opt, const char *name, size_t name_max, pb_err *e)
{
    size_t n = strlen(name);
    if (n == 0 || n >= name_max ||
        strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.@") != n)
        return pb_errf(e, "--%s: name '%s' must be 1 to %zu characters of A-Z a-z 0-9 _ - . @", opt, name,
                       name_max - 1);
    return 0;
}

int pb_plugin_opt_add(const char *opt, const char *arg, const char *value, int *n, int max, char *names,
                      size_t name_max, char *paths, size_t path_max, int (*check_name)(const char *, pb_err *),
                      pb_err *e)
{
    const char *eq = strchr(value, '=');
    if (!eq || eq == value || !eq[1]) return pb_errf(e, "--%s wants %s, got '%s'", opt, arg, value);
    if (*n == max) return pb_errf(e, "--%s: at most %d", opt, max);
    size_t len = (size_t)(eq - value);
    if (len >= name_max)
        return pb_errf(e, "--%s: name '%.*s' is longer than %zu characters", opt, (int)len, value, name_max - 1);
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)len, value);
    if (check_name(name, e) < 0) return -1;
    if (strlen(eq + 1) >= path_max) return pb_errf(e, "--%s: path too long", opt);
    for (int i = 0; i < *n; i++)
        if (!strcmp(names + (size_t)i * name_max, name)) return pb_errf(e, "--%s: name '%s' given twice", opt, name);
    snprintf(names + (size_t)*n * name_max, name_max, "%s", name);
    snprintf(paths + (size_t)*n * path_max, path_max, "%s", eq + 1);
    (*n)++;
    return 0;
}

/* dlopen, the ABI version, the entry */
static int open_entry(const pb_plugin_kind *k, const char *name, const char *path, pb_plugin_fn *entry, pb_err *e)
{
    char where[1100];
    snprintf(where, sizeof where, "%s%s", strchr(path, '/') ? "" : "./", path);
    void *h = dlopen(where, RTLD_NOW | RTLD_LOCAL);
    if (!h) return pb_errf(e, "plug-in %s: cannot load %s: %s", name, path, dlerror());
    const unsigned *abi = dlsym(h, k->abi_symbol);
    if (!abi)
        return pb_errf(e, "plug-in %s (%s): missing symbol %s (not a plug-in of the %s suite? see "
                          "include/patchbench/%s_plugin.h)", name, path, k->abi_symbol, k->suite, k->suite);
    if (*abi != k->abi_version)
        return pb_errf(e, "plug-in %s (%s): ABI version mismatch: built for %s plug-in ABI %u, this bench has %u",
                       name, path, k->suite, *abi, k->abi_version);
    void *sym = dlsym(h, k->entry_symbol);
    if (!sym) return pb_errf(e, "plug-in %s (%s): missing symbol %s", name, path, k->entry_symbol);
    memcpy(entry, &sym, sizeof *entry);   /* object to function pointer, as POSIX allows */
    return 0;
}

/* what the entry returned: `plugin` (NULL: it refused) with `abi` in its abi_version field */
static int check_returned(const pb_plugin_kind *k, const char *name, const char *path, const void *plugin,
                          unsigned abi, pb_err *e)
{
    if (!plugin) return pb_errf(e, "plug-in %s (%s): %s returned NULL (it refused to load)", name, path,
                                   k->entry_symbol);
    if (abi != k->abi_version)
        return pb_errf(e, "plug-in %s (%s): ABI version mismatch: its entry says %u, this bench has %u", name, path,
                       abi, k->abi_version);
    return 0;
}

/* dlopen, the ABI version, the entry, its table: into the process that calls it; *table the table */
static int open_table(const pb_plugin_kind *k, const char *name, const char *path, const void **table, pb_err *e)
{
    pb_plugin_fn entry;
    if (open_entry(k, name, path, &entry, e) < 0) return -1;
    unsigned abi = 0;
    *table = NULL;
    const void *plugin = k->enter(entry, &abi, table);
    if (check_returned(k, name, path, plugin, abi, e) < 0) return -1;
    if (!*table) return pb_errf(e, "plug-in %s (%s): its %s lacks %s", name, path, k->table, k->lacks);
    return 0;
}

/* the plug-in loaded into this process and registered in the impls; *table its table */
static int load_here(const pb_plugin_kind *k, const char *name, const char *path, const void **table, pb_err *e)
{
    const pb_impl_dir *d = k->impls();
    if (k->room_first && d->nplugins == d->max_plugins)
        return pb_errf(e, "--plugin: at most %zu plug-ins", d->max_plugins);
    if (open_table(k, name, path, table, e) < 0) return -1;
    int err = k->add(name, *table);
    if (err) return pb_errf(e, "plug-in %s: cannot register: %s", name, strerror(-err));
    return 0;
}

int pb_plugin_check_name(const pb_plugin_kind *k, const char *name, pb_err *e)
{
    if (pb_plugin_name_ok("plugin", name, k->impls()->name_max, e) < 0) return -1;
    int found = pb_impl_dir_which(k->impls(), name);
    if (found == PB_PLUGIN_BUILTIN || (found == PB_PLUGIN_LOADED && k->loaded_name_taken))
        return pb_errf(e, "--plugin: '%s' is already an implementation of %s", name, k->suite);
    return 0;
}

typedef struct plugin_ref {
    const pb_plugin_kind *k;
    const char *name, *path;
    unsigned char *stub;   /* the child's copy, sent back: what keep takes of the table */
} plugin_ref;

/* in the discovery child: load it there, the suite's self-test of it, then what bench keeps */
static int discover(void *arg, pb_err *e)
{
    const plugin_ref *r = arg;
    const void *table;
    if (load_here(r->k, r->name, r->path, &table, e) < 0 || r->k->selftest(r->name, e) < 0) return -1;
    memset(r->stub, 0, r->k->table_size);
    if (r->k->keep) r->k->keep(table, r->stub);
    return 0;
}

int pb_plugin_load(const pb_plugin_kind *k, const char *name, const char *path, pb_err *e)
{
    pb_impl_dir *d = k->impls();
    if (k->load_again_ok && pb_impl_dir_which(d, name) == PB_PLUGIN_LOADED) return 0;
    if (pb_plugin_check_name(k, name, e) < 0) return -1;
    if (k->room_first && d->nplugins == d->max_plugins)
        return pb_errf(e, "--plugin: at most %zu plug-ins", d->max_plugins);
    if (strlen(path) >= sizeof d->path[0]) return pb_errf(e, "--plugin %s: path too long", name);
    if (d->nplugins == PB_IMPL_DIR_MAX_PLUGINS || k->table_size > PB_PLUGIN_STUB_MAX)
        return pb_errf(e, "plug-in %s: no room to register it", name);
    char who[1200];
    snprintf(who, sizeof who, "plug-in %s (%s)", name, path);
    size_t i = d->nplugins;
    unsigned char *stub = d->stub[i];
    plugin_ref ref = {k, name, path, stub};
    if (pb_fork_run_out(who, "its self-test", SELFTEST_SECONDS, discover, &ref, stub, k->table_size, e) < 0)
        return -1;
    int err = k->add(name, stub);
    if (err) return pb_errf(e, "plug-in %s: cannot register: %s", name, strerror(-err));
    snprintf(d->path[i], sizeof d->path[i], "%s", path);
    d->deferred[i] = k;
    return 0;
}

const void *pb_impl_dir_use(pb_impl_dir *d, const char *name)
{
    const char *m = pb_impl_dir_find(d, name);
    const char *first = d->plugins;
    if (!m || m < first || m >= first + d->nplugins * d->size) return m;
    size_t i = (size_t)(m - first) / d->size;
    const pb_plugin_kind *k = d->deferred[i];
    if (!k) return m;
    pb_err e = {{0}};
    const void *table;
    int err = 0;
    if (open_table(k, name, d->path[i], &table, &e) < 0 || (err = k->add(name, table)) != 0) {
        if (err) pb_errf(&e, "plug-in %s: cannot register: %s", name, strerror(-err));
        fprintf(stderr, "bench: %s\n", e.msg);
        return NULL;
    }
    return m;   /* replaced in place */
}

size_t pb_impl_dir_count(const pb_impl_dir *d)
{
    return d->nbuiltin + d->nplugins;
}

const void *pb_impl_dir_at(const pb_impl_dir *d, size_t i)
{
    if (i < d->nbuiltin) return (const char *)d->builtin + i * d->size;
    return i - d->nbuiltin < d->nplugins ? (const char *)d->plugins + (i - d->nbuiltin) * d->size : NULL;
}

const void *pb_impl_dir_find(const pb_impl_dir *d, const char *name)
{
    const void *m;
    /* every entry starts with its const char *name */
    for (size_t i = 0; (m = pb_impl_dir_at(d, i)); i++)
        if (strcmp(*(const char *const *)m, name) == 0) return m;
    return NULL;
}

int pb_impl_dir_which(const pb_impl_dir *d, const char *name)
{
    const char *m = pb_impl_dir_find(d, name);
    if (!m) return PB_PLUGIN_FREE;
    /* the plug-ins' entries are the ones in its plugins array */
    const char *first = d->plugins;
    return m >= first && m < first + d->nplugins * d->size ? PB_PLUGIN_LOADED : PB_PLUGIN_BUILTIN;
}

int pb_impl_dir_add(pb_impl_dir *d, const char *name, const void *entry)
{
    if (!name[0] || strlen(name) >= d->name_max) return -EINVAL;
    const char *m = pb_impl_dir_find(d, name);
    size_t i = d->nplugins;
    if (m) {
        /* a deferred plug-in's entry, now loaded: replaced where it stands */
        if (pb_impl_dir_which(d, name) != PB_PLUGIN_LOADED) return -EEXIST;
        i = (size_t)(m - (const char *)d->plugins) / d->size;
        if (!d->deferred[i]) return -EEXIST;
    } else if (d->nplugins == d->max_plugins) {
        return -ENOSPC;
    }
    char *copy = d->names + i * d->name_max;
    void *slot = (char *)d->plugins + i * d->size;
    memcpy(copy, name, strlen(name) + 1);
    memcpy(slot, entry, d->size);
    *(const char **)slot = copy;
    if (m) d->deferred[i] = NULL;
    else d->nplugins++;
    return 0;
}

/* the row of impl in the lists, or -1 */
static int plugin_row(const char *impl, int n, const char *names, size_t name_max)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(names + (size_t)i * name_max, impl)) return i;
    return -1;
}

int pb_plugin_user_code(const char *suite, const char *impl, int n, const char *names, size_t name_max,
                        const char *paths, size_t path_max, char *what, size_t cap)
{
    int i = plugin_row(impl, n, names, name_max);
    if (i < 0) return 0;
    snprintf(what, cap, "%s plug-in %s (%s)", suite, impl, paths + (size_t)i * path_max);
    return 1;
}

int pb_plugin_user_object(const char *impl, int n, const char *names, size_t name_max, const char *paths,
                          size_t path_max, char *path, size_t cap)
{
    int i = plugin_row(impl, n, names, name_max);
    if (i < 0) return 0;
    snprintf(path, cap, "%s", paths + (size_t)i * path_max);
    return 1;
}
