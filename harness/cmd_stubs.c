/* Commands whose issues are not done yet say so instead of pretending. */
#include <stdio.h>

#include "cli.h"

int cmd_import(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "bench import: not implemented yet\n");
    return 2;
}

int cmd_run_qemu(const char *suite, int argc, char **argv, const char *db, int quick)
{
    (void)suite; (void)argc; (void)argv; (void)db; (void)quick;
    fprintf(stderr, "bench run: --target qemu is not implemented yet\n");
    return 2;
}
