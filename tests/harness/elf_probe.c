/* SPDX-License-Identifier: GPL-2.0-only */
/* A small program for test_elf_read: built plain and with -g (tests/harness/meson.build). */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    printf("%d\n", argc * 3);
    return 0;
}
