/* SPDX-License-Identifier: GPL-2.0-only */
/* plugin_kat.c — `bench kat` for a plug-in: load PATH as impl NAME the way `bench run --plugin`
 * does (self-test in a child first), then run every public XTS vector file on it and print the
 * tally 'N passed, M failed, K skipped'. Exit 1 if a vector failed or the plug-in was refused.
 *   plugin_kat NAME=PATH.so FILE.rsp... */
#include <stdio.h>
#include <string.h>

#include "xts_suite.h"

int main(int argc, char **argv)
{
    pb_err e = {{0}};
    pb_kat_result r = {0, 0, 0};
    char *eq = argc > 2 ? strchr(argv[1], '=') : NULL;
    if (!eq) {
        fprintf(stderr, "usage: plugin_kat NAME=PATH.so FILE.rsp...\n");
        return 2;
    }
    *eq = 0;
    if (xts_plugin_load(argv[1], eq + 1, &e) < 0) {
        fprintf(stderr, "plugin_kat: %s\n", e.msg);
        return 1;
    }
    for (int i = 2; i < argc; i++)
        if (xts_suite_kat_file(argv[i], argv[1], &r, stdout, &e) < 0) {
            fprintf(stderr, "plugin_kat: %s\n", e.msg);
            return 1;
        }
    printf("%lu passed, %lu failed, %lu skipped\n", r.passed, r.failed, r.skipped);
    return r.failed || !r.passed;
}
