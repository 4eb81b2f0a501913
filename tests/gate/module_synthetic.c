/* SPDX-License-Identifier: GPL-2.0-only */
/* module_synthetic.c — test suite modules (harness/suite/suite_module.h) with only the synthetic suite:
 * built with suites/synthetic/suite_synthetic.c compiled with PB_SYNTHETIC_BUILD_FACTOR (a build
 * whose every impl does more work), and with PB_TEST_FOREIGN_ABI (a module of another layout,
 * which bench must refuse). For tests/gate/module_gate_test.sh only. */
#include "pb_config.h"
#include "pb_suite_abi.h"
#include "suite_module.h"

extern const pb_suite pb_suite_synthetic;
static const pb_suite *const suites[] = {&pb_suite_synthetic, NULL};

#ifdef PB_TEST_FOREIGN_ABI
#define ABI "0000000000000000000000000000000000000000000000000000000000000000"
#else
#define ABI PB_SUITE_ABI
#endif

__attribute__((visibility("default"))) const pb_suite_module_info pb_suite_module_v1 = {
    .abi = ABI,
    .vcs = "test-module-synthetic",
    .cflags = PB_CFLAGS,
    .suites = suites,
};
