/* SPDX-License-Identifier: GPL-2.0-only */
/* cli.h — the bench subcommands (one file each). Each returns the process exit status. */
#ifndef PB_CLI_H
#define PB_CLI_H
int cmd_run(int argc, char **argv);
int cmd_kat(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_gate(int argc, char **argv);
int cmd_migrate(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_findings(int argc, char **argv);
int cmd_baseline(int argc, char **argv);
int cmd_bisect(int argc, char **argv);
#endif
