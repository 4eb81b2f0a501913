/* SPDX-License-Identifier: GPL-2.0-only */
/* patchbench/drbg_plugin.h — the plug-in ABI of the drbg suite, version 1 (frozen).
 *
 * A plug-in is a shared object holding one DRBG primitive backend (impls/common/drbg_backend.h:
 * the seam libgcrypt's patch 20886fdc cut along), loaded by
 *   bench run --suite drbg --plugin NAME=PATH.so
 * and timed as impl NAME in every cell beside old and new: the same SP 800-90A state machines
 * (the libgcrypt-profile build behind old/new) over the plug-in's primitives, so a third
 * backend differs from old and new only in how it drives libgcrypt.
 *
 * It exports two symbols:
 *   const unsigned pb_drbg_plugin_abi_version = PB_DRBG_PLUGIN_ABI_VERSION;
 *       read BEFORE anything of the plug-in is called: a plug-in built against another
 *       version of this header is refused (exit 2), never called.
 *   const pb_drbg_plugin *pb_drbg_plugin_entry(const pb_drbg_host *host);
 *       called once; returns the backend, or NULL to refuse. `host` stays valid for the life
 *       of the process: keep the pointer.
 *
 * Version 1 is pb_drbg / pb_drbg_info / pb_drbg_part / pb_drbg_backend of
 * impls/common/drbg.h and drbg_backend.h as they are at this version (the backend owns
 * d->prim: two handle slots and three 32-byte key slots), plus the tables below. A change to
 * any of them bumps the version.
 *
 * Before a plug-in is timed, bench runs the suite's whole built-in known-answer self-test
 * (NIST CAVS records, every mechanism, with and without df) on it in a child process (so a
 * crash cannot take bench down); it is refused, with the failing vector named, if one fails.
 * Example: examples/drbg_ctr_blocks/. */
#ifndef PATCHBENCH_DRBG_PLUGIN_H
#define PATCHBENCH_DRBG_PLUGIN_H

#include "common/drbg_backend.h"

#define PB_DRBG_PLUGIN_ABI_VERSION 1u
#define PB_DRBG_PLUGIN_ABI_SYMBOL "pb_drbg_plugin_abi_version"
#define PB_DRBG_PLUGIN_ENTRY_SYMBOL "pb_drbg_plugin_entry"

/* What bench gives a plug-in: its two backends, to start from (copy one and replace the
 * operations the plug-in changes: its init/fini then open the handles the others expect). */
typedef struct pb_drbg_host {
    unsigned abi_version;                 /* PB_DRBG_PLUGIN_ABI_VERSION */
    const pb_drbg_backend *backend_old;   /* a libgcrypt handle per primitive call */
    const pb_drbg_backend *backend_new;   /* persistent handles, CTR mode */
} pb_drbg_host;

typedef struct pb_drbg_plugin {
    unsigned abi_version;                 /* PB_DRBG_PLUGIN_ABI_VERSION, again */
    const pb_drbg_backend *backend;       /* every operation set; name is for reports */
} pb_drbg_plugin;

typedef const pb_drbg_plugin *(*pb_drbg_plugin_entry_fn)(const pb_drbg_host *host);

#endif
