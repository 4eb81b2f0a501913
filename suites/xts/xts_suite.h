/* SPDX-License-Identifier: GPL-2.0-only */
/* xts_suite.h — the pieces of the xts suite (suite_xts.c) kept in their own files. */
#ifndef PB_XTS_SUITE_H
#define PB_XTS_SUITE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "suite.h"

/* -1 + "xts: unknown implementation 'x' (xts has: old, new, ...)" if impl is not one of ours. */
int xts_suite_check_impl(const char *impl, pb_err *e);

/* xts_plugin.c: load plug-in PATH as impl NAME (include/patchbench/xts_plugin.h) after its
 * self-test passed in a child process; -1 + e (naming the plug-in and what failed) otherwise. */
int xts_plugin_check_name(const char *name, pb_err *e);
int xts_plugin_load(const char *name, const char *path, pb_err *e);

/* xts_check.c: one known answer against one implementation, both
 * directions, out of place and in place. */
typedef struct xts_vector {
    const uint8_t *key;
    size_t keylen;
    uint8_t iv[16];
    const uint8_t *pt, *ct;
    size_t len;                /* a multiple of 16, >= 16 */
} xts_vector;

typedef enum { XTS_CHECK_PASS, XTS_CHECK_FAIL, XTS_CHECK_SKIP } xts_check_result;

/* FAIL or SKIP: `why` (n bytes) says what happened. SKIP only where the
 * implementation refuses the key: a size it lacks (openssl 2 x 192) or K1 == K2 (openssl). */
xts_check_result xts_check_vector(const char *impl, const xts_vector *v, char *why, size_t n);

/* xts_selftest.c: embedded IEEE 1619 (and one generated 2 x 192) vectors. */
int xts_suite_selftest(const char *impl, pb_err *e);

/* xts_kat.c: `bench kat` on CAVP XTSGen-style files. */
int xts_suite_kat_accepts(const char *path);
int xts_suite_kat_file(const char *path, const char *impl, pb_kat_result *r, FILE *log, pb_err *e);

#endif
