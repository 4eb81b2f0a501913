/* SPDX-License-Identifier: GPL-2.0-only */
/* check.h — the C tests' one check: every test binary counts its checks and failures alike and
 * ends with the same line, `N checks, M failed`, so a failure reads the same in any test's log.
 * Header-only: each test binary has one file that includes it, so the counters are its own. */
#ifndef PB_TEST_CHECK_H
#define PB_TEST_CHECK_H

#include <stdio.h>

static int checks, fails;

/* The message (a printf format and its arguments) is built only when cond is false: its
 * arguments may be what a passing check rules out, e.g. a NULL or an unset error text. */
#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        checks++;                                                                                                      \
        if (!(cond)) {                                                                                                 \
            fails++;                                                                                                   \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                                                \
            printf(__VA_ARGS__);                                                                                       \
            printf("\n");                                                                                              \
        }                                                                                                              \
    } while (0)

/* The summary line, and main's exit status: 1 when any check failed. */
static inline int check_summary(void)
{
    printf("%d checks, %d failed\n", checks, fails);
    return fails != 0;
}

#endif
