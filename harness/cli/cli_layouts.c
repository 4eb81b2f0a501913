/* SPDX-License-Identifier: GPL-2.0-only */
/* cli_layouts.c — a build's code layouts (cli_layouts.h). */
#include "cli_layouts.h"
#include "pb_config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* layout l's file: the module itself for 0, else libpbsuites-layoutL.so in its folder */
static int layout_path(const char *module_path, int l, char *out, size_t cap)
{
    if (l == 0) return (size_t)snprintf(out, cap, "%s", module_path) < cap ? 0 : -1;
    const char *slash = strrchr(module_path, '/');
    int dirlen = slash ? (int)(slash - module_path) : 1;
    return (size_t)snprintf(out, cap, "%.*s/libpbsuites-layout%d.so", dirlen, slash ? module_path : ".", l) < cap ? 0
                                                                                                               : -1;
}

int pb_module_layouts_built(const char *module_path)
{
    int n = 1;
    char p[1100];
    while (n < PB_MAX_LAYOUTS && layout_path(module_path, n, p, sizeof p) == 0 && access(p, R_OK) == 0) n++;
    return n;
}

int pb_module_layouts_open(pb_module_layouts *L, const char *module_path, int n, const char *name,
                           const pb_cli *cli, pb_err *e)
{
    memset(L, 0, sizeof *L);
    for (int l = 0; l < n; l++) {
        char p[1100];
        if (layout_path(module_path, l, p, sizeof p) < 0) return pb_errf(e, "path too long: %.200s", module_path);
        if (pb_suite_module_open(&L->mods[l], p, e) < 0) return -1;
        L->n = l + 1;
        const pb_suite *s = pb_suite_module_find(&L->mods[l], name);
        if (!s) return pb_errf(e, "%s has no suite %s", p, name);
        L->suite[l] = s;
        if (!(L->opts[l] = pb_suite_opts_new(s, e))) return -1;
        if (pb_cli_apply_suite_opts(cli, s, L->opts[l], e) < 0) {
            char why[sizeof e->msg];
            snprintf(why, sizeof why, "%s", e->msg);
            return pb_errf(e, "%s: %.400s", p, why);
        }
    }
    return 0;
}

void pb_module_layouts_close(pb_module_layouts *L)
{
    for (int l = 0; l < L->n; l++) {
        if (L->suite[l]) pb_suite_opts_free(L->suite[l], L->opts[l]);
        pb_suite_module_close(&L->mods[l]);
    }
    memset(L, 0, sizeof *L);
}

void pb_module_layouts_what(char *buf, size_t cap, int n)
{
    if (PB_LAYOUT_SHUFFLE)
        snprintf(buf, cap, "libpbsuites.so and libpbsuites-layout1..%d.so: the same objects, layout N = 4 o + j "
                 "linked by lld from its own script (harness/suite/layout_script.py): every function in order o "
                 "(0 the archives' own) and at an offset of its 64-byte line drawn from its name and placement seed "
                 "%d (-Dlayout_seed), over 16 layouts each 4-byte offset once (harness/meson.build)", n - 1,
                 PB_LAYOUT_PLACEMENT_SEED);
    else
        snprintf(buf, cap, "libpbsuites.so and libpbsuites-layout1..%d.so: the same objects, layout N with the code "
                 "up to the first function aligned above 16 bytes shifted by 16 x (N %% 4) bytes; one order only "
                 "(no lld) (harness/meson.build)", n - 1);
}

int pb_cli_layout_opt(const pb_cli *c, pb_layout_args *a, const char *name, const char *value)
{
    if (!strcmp(name, "layouts")) return pb_cli_int(c, "layouts", value, 1, PB_MAX_LAYOUTS, &a->layouts);
    char *end;
    errno = 0;
    unsigned long long v = strtoull(value, &end, 10);
    if (errno || end == value || *end || value[0] == '-')
        return pb_cli_error(c, "--layout-seed wants a non-negative integer, got '%s'", value);
    a->seed = v;
    return 0;
}
