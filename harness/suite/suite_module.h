/* SPDX-License-Identifier: GPL-2.0-only */
/* suite_module.h — a build's suites as one loadable module (build/harness/libpbsuites.so).
 *
 * Why: the commit gate asks whether this build is slower than another. Timed in two processes,
 * every run of either build is its own moment (its own heap, page placement, core speed): on a
 * 2-vCPU VM one pair of runs scatters by 20-50 % per cell, and 64 alternations left an MDC of
 * 17-19 %. Loaded into one process, the two builds' implementations of a cell are interleaved
 * round by round, like old and new in the claim gate, and the pairs are as tight as there
 * (docs/gate.md, "The commit gate in one process").
 *
 * The module holds everything a suite needs (the suites, the implementations built with their
 * own profiles, harness/pb.c and friends) and exports one symbol, PB_SUITE_MODULE_SYMBOL, of
 * type pb_suite_module_info; everything else is local to it (harness/suite_module.map), so two
 * builds' modules load side by side without their symbols meeting. What crosses the boundary is
 * the pb_suite table and what it hands out (suite.h, pb.h); PB_SUITE_ABI, a hash of those
 * headers, must match, else bench refuses the module and the gate falls back to separate
 * processes (ci/perf-gate says so). This struct itself never changes: a new layout is a new
 * symbol (pb_suite_module_v2). */
#ifndef PB_SUITE_MODULE_H
#define PB_SUITE_MODULE_H

#include "suite.h"

#define PB_SUITE_MODULE_SYMBOL "pb_suite_module_v1"
#define PB_SUITE_MODULE_FILE "libpbsuites.so"

typedef struct pb_suite_module_info {
    const char *abi;                 /* PB_SUITE_ABI of the build: sha256 of suite.h, pb.h, this file */
    const char *vcs;                 /* git describe of the build (PB_VCS_SHA) */
    const char *cflags;              /* PB_CFLAGS: the build profiles' flags */
    const pb_suite *const *suites;   /* NULL-terminated, as pb_suites */
} pb_suite_module_info;

/* bench's side (harness/suite_module.c). */
typedef struct pb_suite_module {
    void *handle;
    const pb_suite_module_info *info;
    char path[1024];                 /* as given */
} pb_suite_module;

/* Load the module at path as a private copy (so that the same file opened twice gives two
 * independent copies: the A/A form), check its ABI against this bench's. 0, or -1 + e. */
int pb_suite_module_open(pb_suite_module *m, const char *path, pb_err *e);
/* The module's suite called name, or NULL. */
const pb_suite *pb_suite_module_find(const pb_suite_module *m, const char *name);
void pb_suite_module_close(pb_suite_module *m);
/* This bench's own module: PB_SUITE_MODULE_FILE beside the bench executable. 0, or -1 + e. */
int pb_suite_module_own_path(char *buf, size_t cap, pb_err *e);

#endif
