/* SPDX-License-Identifier: GPL-2.0-only */
/* kmod_target.h — the kernel-module targets of `bench run` (docs/kmod.md). */
#ifndef PB_KMOD_TARGET_H
#define PB_KMOD_TARGET_H

/* Runs scripts/kmod/run-qemu.sh (target "qemu") or run-host.sh ("host") for `suite`, then imports
 * the module's results into `db` (target qemu-tcg or kmod-host). No shell: an argument vector.
 * 0, 1 (the run or its import failed; messages on stderr), 2 (a suite without a kernel part, or
 * the script missing). */
int pb_kmod_target_run(const char *suite, const char *target, const char *db, int quick, int rounds,
                       const char *cmdline);

#endif
