/* SPDX-License-Identifier: GPL-2.0-only */
/* vg_work.c — a command whose work is set at compile time (-DWORK=N: N dependent multiply-adds), built
 * twice 2 % apart and once more alike, for the counts of `bench run --suite exec --measure valgrind`. */
#include <stdint.h>

#ifndef WORK
#define WORK 1000000
#endif

int main(void)
{
    volatile uint64_t x = 1;
    for (long i = 0; i < WORK; i++) x = x * 6364136223846793005u + 1442695040888963407u;
    return 0;
}
