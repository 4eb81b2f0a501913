/* SPDX-License-Identifier: GPL-2.0-only */
/* cli_layouts.h — a build's code layouts as bench run and bench gate load them (docs/layout.md):
 * its suite module (libpbsuites.so) and the layout copies beside it (libpbsuites-layoutN.so), each
 * loaded as a private copy, the suite asked for found in each with the command line's suite
 * options set on it. */
#ifndef PB_CLI_LAYOUTS_H
#define PB_CLI_LAYOUTS_H

#include <stdint.h>

#include "cli_opts.h"
#include "runner.h"
#include "suite_module.h"

typedef struct pb_module_layouts {
    int n;
    pb_suite_module mods[PB_MAX_LAYOUTS];
    const pb_suite *suite[PB_MAX_LAYOUTS];
    void *opts[PB_MAX_LAYOUTS];
} pb_module_layouts;

/* How many layouts the build of the module at module_path has: 1 + the layout copies beside it. */
int pb_module_layouts_built(const char *module_path);
/* Open the first n (<= built) layouts of that build, suite `name` in each, cli's suite options set.
 * 0, or -1 + e (which names the file). */
int pb_module_layouts_open(pb_module_layouts *L, const char *module_path, int n, const char *name,
                           const pb_cli *cli, pb_err *e);
void pb_module_layouts_close(pb_module_layouts *L);

/* What a layout set of these modules is, for runs.layouts. */
void pb_module_layouts_what(char *buf, size_t cap, int n);

/* --layouts and --layout-seed, as bench run and bench gate take them (0: not given) */
typedef struct pb_layout_args {
    int layouts;         /* 0: every layout the build has */
    uint64_t seed;       /* default 1 */
} pb_layout_args;
int pb_cli_layout_opt(const pb_cli *c, pb_layout_args *a, const char *name, const char *value);
#define PB_LAYOUT_HELP_LAYOUTS                                                                        \
    "code layouts to run every implementation this build compiles in (default:\n"                    \
    "all the build has: -Dlayouts, at most and by default " PB_STR(PB_MAX_LAYOUTS) "; 1: this binary's\n"     \
    "one layout, as before). Ratios and CIs are then across layouts (docs/layout.md)"
#define PB_LAYOUT_HELP_SEED "seed of the layouts' round order and stack/heap offsets (default 1)"

#endif
