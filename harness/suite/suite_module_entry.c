/* SPDX-License-Identifier: GPL-2.0-only */
/* suite_module_entry.c — the one symbol libpbsuites.so exports (suite_module.h). */
#include "pb_config.h"
#include "pb_suite_list.h"
#include "pb_vcs.h"
#include "suite_module.h"

/* Writable and of a fixed size, so in .data behind the code, not in .rodata ahead of it
 * (docs/layout.md): a revision of another length ("-dirty") must not move one build's functions or
 * static data against another's. */
_Static_assert(sizeof PB_VCS_SHA <= 256, "git describe gave more than 255 characters");
static PB_LAYOUT_DATA char module_vcs[256] = PB_VCS_SHA;

__attribute__((visibility("default"))) const pb_suite_module_info pb_suite_module_v2 = {
    .abi_version = PB_SUITE_ABI_VERSION,
    .suite_size = sizeof(pb_suite),
    .vcs = module_vcs,
    .cflags = PB_CFLAGS,
    .suites = pb_suites,
};
