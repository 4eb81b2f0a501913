/* bootstrap main: replaced by the real CLI */
#include <stdio.h>
#include "suite.h"
int main(void)
{
    for (int i = 0; pb_suites[i]; i++) printf("%s\t%s\n", pb_suites[i]->name, pb_suites[i]->title ? pb_suites[i]->title : "");
    return 0;
}
