/* SPDX-License-Identifier: GPL-2.0-only */
/* same_build.h — which stored runs measured the same build: the count run (`--measure valgrind`)
 * that a wall-time run's decomposition reads (report/decompose.h, docs/why.md). */
#ifndef PB_SAME_BUILD_H
#define PB_SAME_BUILD_H

#include <stdint.h>

#include "store.h"

/* The complete count run (target 'valgrind') of the same suite and build as the complete userspace
 * run `run`, on the same machine, into *count (0: none). The same build: every provenance column
 * that names it alike (git commit and dirty flag, version, compiler, flags, build type, libraries:
 * provenance.h); the same machine (machine_id), because a build for `-march=native` or a library
 * that dispatches on the CPU is other code elsewhere. Of several, the one nearest to `run` in the
 * store's order, the later on a tie (`bench run --measure both` stores the count run right after).
 * A dirty tree's builds share a commit: the match is then by commit and flags alone, as docs/why.md
 * says. 0, or -1 + e ("PATH: the database's words"). */
int pb_store_count_run_of(pb_store *st, int64_t run, int64_t *count, pb_err *e);

#endif
