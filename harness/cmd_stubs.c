/* Commands whose issues are not done yet say so instead of pretending. */
#include <stdio.h>

#include "cli.h"

int cmd_compare(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "bench compare: not implemented yet\n");
    return 2;
}

int cmd_gate(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "bench gate: not implemented yet\n");
    return 2;
}
