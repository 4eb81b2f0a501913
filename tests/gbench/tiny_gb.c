/* SPDX-License-Identifier: GPL-2.0-only */
/* tiny_gb.c — a Google Benchmark binary (through harness/gbshim: GB's own main behaviour, its
 * flags, listing and JSON), built twice by meson with a different amount of work per iteration
 * (-DWORK=N: N dependent multiply-adds), so that one build is slower than the other by
 * construction. Two benchmarks, so that a run has two cells. */
#include <stdint.h>
#include <stdio.h>

#include "gbshim.h"

#ifndef WORK
#define WORK 1000
#endif

static volatile uint64_t sink;

static void work(pb_gb_state *st, void *arg)
{
    const uint64_t n = (uint64_t)(uintptr_t)arg * WORK;
    while (pb_gb_keep_running_batch(st, 1)) {
        uint64_t x = sink;
        for (uint64_t i = 0; i < n; i++) x = x * 6364136223846793005u + 1442695040888963407u;
        sink = x;
    }
}

int main(int argc, char **argv)
{
    if (pb_gb_init(&argc, argv) < 0) return 1;
    if (argc > 1) {
        fprintf(stderr, "tiny_gb: unknown argument %s\n", argv[1]);
        return 1;
    }
    if (pb_gb_register("BM_mix/1", work, (void *)(uintptr_t)1, 0) < 0 ||
        pb_gb_register("BM_mix/4", work, (void *)(uintptr_t)4, 0) < 0)
        return 1;
    return pb_gb_run_console() < 0;
}
