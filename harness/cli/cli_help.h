/* SPDX-License-Identifier: GPL-2.0-only */
/* cli_help.h — a command's option table as a man page or as option names (cli_help.c). */
#ifndef PB_CLI_HELP_H
#define PB_CLI_HELP_H

#include <stdio.h>

#include "cli_opts.h"

/* --help as `bench help --man CMD` or `--options CMD` asks (pb_cli_help's `as`): 1 if it printed
 * (a man page or the option names), 0 for text (as NULL). */
int pb_cli_help_other(FILE *f, const pb_cli *c, const char *as);

#endif
