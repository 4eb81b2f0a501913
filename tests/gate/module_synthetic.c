/* SPDX-License-Identifier: GPL-2.0-only */
/* module_synthetic.c — test suite modules (harness/suite/suite_module.h) with only the synthetic suite:
 * built with suites/synthetic/suite_synthetic.c compiled with PB_SYNTHETIC_BUILD_FACTOR (a build
 * whose every impl does more work), with PB_TEST_FOREIGN_ABI (a module of another suite ABI
 * version, which bench must refuse), PB_TEST_V1_LAYOUT (the entry of a build from before the ABI
 * was a version number: refused by name) and PB_TEST_SHORT_SUITE (a build whose pb_suite ends
 * before its last hook, as one from before that hook was appended: it loads, the hook NULL).
 * For tests/gate/module_gate_test.sh only. */
#include "pb_config.h"
#include "pb_suite_list.h"
#include "suite_module.h"

extern const pb_suite pb_suite_synthetic;
static const pb_suite *const suites[] = {&pb_suite_synthetic, NULL};

#ifdef PB_TEST_FOREIGN_ABI
#define ABI 0
#else
#define ABI PB_SUITE_ABI_VERSION
#endif

#ifdef PB_TEST_SHORT_SUITE
#include <stddef.h>
#define SUITE_SIZE offsetof(pb_suite, notes_md)
#else
#define SUITE_SIZE sizeof(pb_suite)
#endif

#ifdef PB_TEST_V1_LAYOUT
/* the first layout of the entry: a text hash where the version is now */
struct module_info_v1 {
    const char *abi, *vcs, *cflags;
    const pb_suite *const *suites;
};
__attribute__((visibility("default"))) const struct module_info_v1 pb_suite_module_v1 = {
    .abi = "0000000000000000000000000000000000000000000000000000000000000000",
    .vcs = "test-module-v1",
    .cflags = PB_CFLAGS,
    .suites = suites,
};
#else
__attribute__((visibility("default"))) const pb_suite_module_info pb_suite_module_v2 = {
    .abi_version = ABI,
    .suite_size = SUITE_SIZE,
    .vcs = "test-module-synthetic",
    .cflags = PB_CFLAGS,
    .suites = suites,
};
#endif
