/* SPDX-License-Identifier: GPL-2.0-only */
/* pb_plugin.c — the plug-in loaders' shared steps (pb_plugin.h). */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "pb_plugin.h"

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

int pb_plugin_open(const char *suite, const char *name, const char *path, const char *abi_symbol,
                   unsigned abi_version, const char *entry_symbol, pb_plugin_fn *entry, pb_err *e)
{
    char where[1100];
    snprintf(where, sizeof where, "%s%s", strchr(path, '/') ? "" : "./", path);
    void *h = dlopen(where, RTLD_NOW | RTLD_LOCAL);
    if (!h) return pb_errf(e, "plug-in %s: cannot load %s: %s", name, path, dlerror());
    const unsigned *abi = dlsym(h, abi_symbol);
    if (!abi)
        return pb_errf(e, "plug-in %s (%s): missing symbol %s (not a plug-in of the %s suite? see "
                          "include/patchbench/%s_plugin.h)", name, path, abi_symbol, suite, suite);
    if (*abi != abi_version)
        return pb_errf(e, "plug-in %s (%s): ABI version mismatch: built for %s plug-in ABI %u, this bench has %u",
                       name, path, suite, *abi, abi_version);
    void *sym = dlsym(h, entry_symbol);
    if (!sym) return pb_errf(e, "plug-in %s (%s): missing symbol %s", name, path, entry_symbol);
    memcpy(entry, &sym, sizeof *entry);   /* object to function pointer, as POSIX allows */
    return 0;
}

int pb_plugin_check_returned(const char *name, const char *path, const char *entry_symbol, const void *plugin,
                             unsigned abi, unsigned abi_version, pb_err *e)
{
    if (!plugin) return pb_errf(e, "plug-in %s (%s): %s returned NULL (it refused to load)", name, path, entry_symbol);
    if (abi != abi_version)
        return pb_errf(e, "plug-in %s (%s): ABI version mismatch: its entry says %u, this bench has %u", name, path,
                       abi, abi_version);
    return 0;
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

int pb_impl_dir_add(pb_impl_dir *d, const char *name, const void *entry)
{
    if (!name[0] || strlen(name) >= d->name_max) return -EINVAL;
    if (pb_impl_dir_find(d, name)) return -EEXIST;
    if (d->nplugins == d->max_plugins) return -ENOSPC;
    char *copy = d->names + d->nplugins * d->name_max;
    void *slot = (char *)d->plugins + d->nplugins * d->size;
    memcpy(copy, name, strlen(name) + 1);
    memcpy(slot, entry, d->size);
    *(const char **)slot = copy;
    d->nplugins++;
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
