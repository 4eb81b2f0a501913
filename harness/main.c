/* bootstrap main: replaced by the real CLI */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "suite.h"
int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "kat")) return cmd_kat(argc - 1, argv + 1);
    for (int i = 0; pb_suites[i]; i++) printf("%s\t%s\n", pb_suites[i]->name, pb_suites[i]->title ? pb_suites[i]->title : "");
    return 0;
}
