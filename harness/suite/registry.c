/* SPDX-License-Identifier: GPL-2.0-only */
/* registry.c — the suites linked into bench. Adding a suite = one line here
 * plus its subdir() in the top-level meson.build. */
#include <string.h>

#include "suite.h"

extern const pb_suite pb_suite_xts;
extern const pb_suite pb_suite_drbg;
extern const pb_suite pb_suite_sigpool;
extern const pb_suite pb_suite_synthetic;
extern const pb_suite pb_suite_gbench;
extern const pb_suite pb_suite_exec;

const pb_suite *const pb_suites[] = { &pb_suite_xts, &pb_suite_drbg, &pb_suite_sigpool, &pb_suite_synthetic, &pb_suite_gbench, &pb_suite_exec, NULL };

const pb_suite *pb_suite_find(const char *name)
{
    for (int i = 0; pb_suites[i]; i++)
        if (strcmp(pb_suites[i]->name, name) == 0) return pb_suites[i];
    return NULL;
}
