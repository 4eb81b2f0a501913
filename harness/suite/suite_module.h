/* SPDX-License-Identifier: GPL-2.0-only */
/* suite_module.h — a build's suites as one loadable module (build/harness/libpbsuites.so).
 *
 * Why: the commit gate asks whether this build is slower than another. Timed in two processes,
 * every run of either build is its own moment (its own heap, page placement, core speed), and
 * pairs of runs scatter too widely for the gate's thresholds. Loaded into one process, the two
 * builds' implementations of a cell are interleaved round by round, like old and new in the
 * claim gate, and the pairs are as tight as there (the figures:
 * docs/measurements/gate-commit-one-process.md).
 *
 * The module holds everything a suite needs (the suites, the implementations built with their
 * own profiles, harness/base/pb.c and friends) and exports one symbol, PB_SUITE_MODULE_SYMBOL, of
 * type pb_suite_module_info; everything else is local to it (suite/suite_module.map), so two
 * builds' modules load side by side without their symbols meeting. What crosses the boundary is
 * the pb_suite table and what it hands out (suite.h, pb.h); their PB_SUITE_ABI_VERSION must match,
 * else bench refuses the module and the gate falls back to separate processes (ci/perf-gate says
 * so). A module of the same version built before an optional hook was appended to pb_suite loads:
 * the hooks it lacks read as NULL. This struct itself never changes: a new layout is a new
 * symbol (pb_suite_module_v1 had a hash of the headers' text, so that editing a comment refused
 * the other build's module; v2 has the version number). */
#ifndef PB_SUITE_MODULE_H
#define PB_SUITE_MODULE_H

#include <stddef.h>

#include "suite.h"

#define PB_SUITE_MODULE_SYMBOL "pb_suite_module_v2"
#define PB_SUITE_MODULE_SYMBOL_V1 "pb_suite_module_v1"   /* recognised, to refuse it by name */
#define PB_SUITE_MODULE_FILE "libpbsuites.so"
#define PB_SUITE_MODULE_MAX_SUITES 16

typedef struct pb_suite_module_info {
    int abi_version;                 /* PB_SUITE_ABI_VERSION of the build */
    size_t suite_size;               /* sizeof(pb_suite) in the build: how many optional hooks it has */
    const char *vcs;                 /* git describe of the build (PB_VCS_SHA) */
    const char *cflags;              /* PB_CFLAGS: the build profiles' flags */
    const pb_suite *const *suites;   /* NULL-terminated, as pb_suites */
} pb_suite_module_info;

/* bench's side (suite/suite_module.c). suites: the module's suites as this bench's pb_suite, the
 * hooks the module's build lacks NULL; they point into the module, which stays mapped. */
typedef struct pb_suite_module {
    void *handle;
    const pb_suite_module_info *info;
    char path[1024];                 /* as given */
    pb_suite suites[PB_SUITE_MODULE_MAX_SUITES];
    int nsuites;
} pb_suite_module;

/* Load the module at path as a private copy (so that the same file opened twice gives two
 * independent copies: the A/A form), check its suite ABI version against this bench's. 0, or
 * -1 + e (a module that cannot share this process says "cannot be run in this process"). */
int pb_suite_module_open(pb_suite_module *m, const char *path, pb_err *e);
/* The module's suite called name, or NULL. */
const pb_suite *pb_suite_module_find(const pb_suite_module *m, const char *name);
void pb_suite_module_close(pb_suite_module *m);
/* This bench's own module: PB_SUITE_MODULE_FILE beside the bench executable. 0, or -1 + e. */
int pb_suite_module_own_path(char *buf, size_t cap, pb_err *e);

#endif
