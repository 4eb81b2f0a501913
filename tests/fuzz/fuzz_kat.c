/* SPDX-License-Identifier: GPL-2.0-only */
/* fuzz_kat.c — libFuzzer target for every suite's `bench kat` reader (suite->kat_file),
 * which take a path: the input is written to one temporary file, then read by
 * each suite as `bench kat --suite S` would. Beyond "no crash": a refusal
 * always carries a message, and a file read without error yields counts that
 * add up (no record counted twice by one impl's pass and fail). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "suite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    static FILE *devnull;
    if (!*path) {
        snprintf(path, sizeof path, "/tmp/pb-fuzz-kat-%ld.rsp", (long)getpid());
        devnull = fopen("/dev/null", "w");
        if (!devnull) abort();
    }
    FILE *f = fopen(path, "w");
    if (!f) abort();
    if (fwrite(data, 1, size, f) != size || fclose(f) != 0) abort();
    for (int i = 0; pb_suites[i]; i++) {
        const pb_suite *s = pb_suites[i];
        if (!s->kat_file) continue;
        if (s->kat_accepts) s->kat_accepts(path);
        pb_kat_result r = {0, 0, 0};
        pb_err e = {{0}};
        if (s->kat_file(path, NULL, &r, devnull, &e) < 0 && !e.msg[0]) abort();
    }
    unlink(path);
    return 0;
}
