/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd_import.c — `bench import FILE [--db PATH] [--target NAME]`: the options and messages; the
 * parser and the store of the file are store/import.c. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_opts.h"
#include "import.h"
#include "store.h"

typedef struct import_args {
    pb_cli *cli;
    const char *db, *target, *file;
} import_args;

static int import_pos(void *ctx, const char *path)
{
    import_args *a = ctx;
    if (a->file) return pb_cli_error(a->cli, "one file at a time ('%s' is extra)", path);
    a->file = path;
    return 0;
}

int cmd_import(int argc, char **argv)
{
    static const pb_cli_opt opts[] = {
        PB_OPT_DB(import_args, db),
        PB_OPT_STRING("target", "NAME", "the target of a file without `meta target` (default 'import')", import_args, target),
        PB_OPT_END,
    };
    pb_cli cli = {
        .cmd = "import", .opts = opts, .on_pos = import_pos,
        .synopsis = "usage: bench import FILE [--db PATH] [--target NAME]\n\n"
                    "Import the kernel module's results (the debugfs lines 'pbk1 ...', see docs/kmod.md),\n"
                    "e.g. saved with `cat /sys/kernel/debug/patchbench/results > FILE` on a real machine.\n"
                    "Each suite in the file becomes one complete run; `bench report` draws it beside the\n"
                    "userspace rows.\n",
        .epilogue = "\nRefused with FILE:LINE: what, storing nothing: a line over 1 MiB, a NUL byte, an unknown\n"
                    "record kind, suite or field, a repeated field, an empty or unsafe name, a number out of\n"
                    "range (iters, ns and size at least 1), an impl, variant, op or size the suite does not\n"
                    "have, a second sample of one impl, cell and round (or the same line twice), an impl\n"
                    "both unavailable and sampled in a cell, samples of an impl whose self-test failed, and a\n"
                    "--target that contradicts the file (userspace, or another than its meta target).\n"
                    "Exit status: 0 imported, 2 unreadable, malformed or truncated file (nothing stored).\n",
    };
    import_args ia = {.cli = &cli, .db = pb_default_db()};
    cli.ctx = &ia;
    int pr = pb_cli_parse(&cli, argc, argv);
    if (pr) return pr == 1 ? 0 : 2;
    const char *db = ia.db, *target = ia.target, *file = ia.file;
    if (!file) { fprintf(stderr, "bench import: no results file given (see bench import --help)\n"); return 2; }
    FILE *probe = fopen(file, "r");
    if (!probe) { fprintf(stderr, "bench import: %s: cannot open: %s\n", file, strerror(errno)); return 2; }
    fclose(probe);
    pb_err e = {{0}};
    if (pb_store_check_path(db, &e) < 0) { fprintf(stderr, "bench import: %s\n", e.msg); return 2; }
    char cmdline[1200];
    snprintf(cmdline, sizeof cmdline, "bench import %s", file);
    int64_t runs[PB_IMPORT_MAX_SUITES];
    int n = 0;
    int rc = pb_import_file(db, file, target, cmdline, runs, &n, &e);
    if (rc < 0) { fprintf(stderr, "bench import: %s\n", e.msg); return 2; }
    for (int i = 0; i < n; i++) printf("imported run %lld into %s\n", (long long)runs[i], db);
    return 0;
}
