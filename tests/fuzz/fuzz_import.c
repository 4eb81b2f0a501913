/* SPDX-License-Identifier: GPL-2.0-only */
/* fuzz_import.c — libFuzzer target for the `bench import` parser (pb_import_parse).
 *
 * Beyond "no crash": a file the parser accepts must hold only what the store
 * can keep exactly. Any accepted row outside the documented ranges is a
 * silently wrong import and aborts, so the fuzzer reports it as a crash. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"

static FILE *open_bytes(const uint8_t *data, size_t size)
{
    /* fmemopen refuses size 0 on some libcs: an empty input is /dev/null */
    return size ? fmemopen((void *)data, size, "r") : fopen("/dev/null", "r");
}

static void check(const pb_import *imp)
{
    if (imp->nsamples < 1 || imp->nsuites < 1 || !*imp->target || !imp->meta) abort();
    if (!strcmp(imp->target, "userspace")) abort();
    for (int i = 0; i < imp->nrows; i++) {
        const pb_import_row *r = &imp->rows[i];
        if (!*r->suite || !*r->impl || !*r->variant || !*r->op || !pb_suite_find(r->suite)) abort();
        if (r->unavailable) {
            if (!*r->reason) abort();
            continue;
        }
        if (r->iters < 1 || r->ns < 1 || r->ns > (UINT64_C(1) << 53) || r->size < 1 || r->size > INT64_MAX ||
            r->round < 0 || (double)r->ns != (double)(int64_t)r->ns)
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const targets[] = {NULL, "kmod-host", "userspace"};
    for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
        FILE *f = open_bytes(data, size);
        if (!f) return 0;
        pb_import imp;
        pb_err e = {{0}};
        int rc = pb_import_parse(f, "fuzz.txt", targets[t], &imp, &e);
        fclose(f);
        if (rc < 0) {
            if (!e.msg[0]) abort();          /* every refusal says why */
            continue;
        }
        check(&imp);
        pb_import_free(&imp);
    }
    return 0;
}
