/* SPDX-License-Identifier: GPL-2.0-only */
/* main.c — the bench CLI: dispatch to one file per subcommand. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_opts.h"
#include "suite.h"

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *what;
} CMDS[] = {
    {"run", cmd_run, "run a suite's grid (interleaved, stored in SQLite)"},
    {"kat", cmd_kat, "check known-answer vector files against implementations"},
    {"list", cmd_list, "list suites, or stored runs (--runs)"},
    {"report", cmd_report, "draw plots and tables of a run into plots/"},
    {"history", cmd_history, "a suite's medians over all runs, per machine, with change points"},
    {"export", cmd_export, "a run's statistics as json, csv or Google Benchmark JSON (gbench)"},
    {"import", cmd_import, "import results saved from the kernel module (debugfs lines)"},
    {"compare", cmd_compare, "compare two implementations, runs or revisions (ratio, CI, test)"},
    {"gate", cmd_gate, "performance-regression gate for CI"},
    {"baseline", cmd_baseline, "name a stored run (save, list, delete), for bench gate --against NAME"},
    {"migrate", cmd_migrate, "bring a database to this bench's schema version"},
    {"merge", cmd_merge, "copy the complete runs of other stores into one (cross-machine reports)"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: bench COMMAND [options]   (bench COMMAND --help for each)\n"
               "       bench --version\n\ncommands:\n");
    for (size_t i = 0; i < sizeof CMDS / sizeof CMDS[0]; i++) fprintf(f, "  %-8s %s\n", CMDS[i].name, CMDS[i].what);
}

/* What a command printed counts only if it reached standard output (as gnulib's close_stdout): its
 * last lines may still sit in stdio's buffer, so flush and close it here, after the command, and
 * fail on either or on an earlier write that stdio flagged. A closed stdout that nothing was
 * written to is no failure. rc: the command's exit status, kept when it is already non-zero. */
static int close_stdout(int rc)
{
    int pending = ferror(stdout), err = 0;
    if (fflush(stdout) != 0) { pending = 1; err = errno; }
    if (fclose(stdout) != 0 && (pending || errno != EBADF)) { pending = 1; err = err ? err : errno; }
    if (!pending) return rc;
    fprintf(stderr, "bench: standard output: %s\n", err ? strerror(err) : "write error");
    return rc ? rc : 1;
}

static int dispatch(int argc, char **argv)
{
    pb_err e = {{0}};
    if (pb_suites_prepare(pb_suites, &e) < 0) {   /* a suite this bench was built with is broken */
        fprintf(stderr, "bench: %s\n", e.msg);
        return 2;
    }
    if (argc < 2) { usage(stderr); return 2; }
    /* bench help CMD: that command's own --help, as git help does */
    int help = !strcmp(argv[1], "help") && argc > 2;
    if (!help && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help"))) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) { pb_cli_version(stdout); return 0; }
    const char *want = argv[help ? 2 : 1];
    if (help && argc > 3) {
        fprintf(stderr, "bench help: one command at a time (got '%s' after '%s')\n", argv[3], want);
        return 2;
    }
    const char *names[sizeof CMDS / sizeof CMDS[0]];
    for (size_t i = 0; i < sizeof CMDS / sizeof CMDS[0]; i++) {
        names[i] = CMDS[i].name;
        if (strcmp(want, CMDS[i].name)) continue;
        if (!help) return CMDS[i].fn(argc - 1, argv + 1);
        char *args[] = {argv[2], "--help", NULL};
        return CMDS[i].fn(2, args);
    }
    const char *near = pb_cli_nearest(want, names, sizeof names / sizeof names[0]);
    fprintf(stderr, "bench: unknown command '%s'", want);
    if (near) fprintf(stderr, " (did you mean '%s'?)", near);
    fputc('\n', stderr);
    usage(stderr);
    return 2;
}

int main(int argc, char **argv) { return close_stdout(dispatch(argc, argv)); }
