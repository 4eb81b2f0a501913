/* SPDX-License-Identifier: GPL-2.0-only */
/* cli_help.h — a command's option table as a man page or as option names (cli_help.c). */
#ifndef PB_CLI_HELP_H
#define PB_CLI_HELP_H

#include <stdio.h>

#include "cli_opts.h"

typedef enum { PB_HELP_TEXT, PB_HELP_MAN, PB_HELP_OPTIONS } pb_help_format;

/* How the next --help prints: as text (the default), a man page whose NAME line says `what`, or
 * one option per line. Set by bench help before it calls the command with --help. */
void pb_cli_set_help_format(pb_help_format f, const char *what);
pb_help_format pb_cli_help_format(void);
/* --help in the format set: 1 if it printed (man page or option names), 0 for text. */
int pb_cli_help_other(FILE *f, const pb_cli *c);

#endif
