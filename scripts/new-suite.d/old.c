/* SPDX-License-Identifier: GPL-2.0-only */
/* old/@NAME@.c — the code before the patch (scripts/new-suite).
 * TODO: the patch's old code, as upstream has it before the commit. Until then: a byte at a time,
 * each byte XORed with 0x5a (the self-test's vector, suites/@NAME@/suite_@NAME@.c). */
#include "common/@NAME@.h"

static void run(const uint8_t *in, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) out[i] = in[i] ^ 0x5a;
}

const @NAME@_alg @NAME@_old_alg = {"old", run};
