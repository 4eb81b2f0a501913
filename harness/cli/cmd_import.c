/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd_import.c — `bench import FILE [--db PATH] [--target NAME]`: the options and messages; the
 * parser and the store of the file are store/import.c (the kernel module's lines) and
 * store/import_json.c (the lab's JSON). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_opts.h"
#include "import.h"
#include "import_json.h"
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

static int import_kmod(const import_args *ia)
{
    const char *db = ia->db, *target = ia->target, *file = ia->file;
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

/* The lab's own JSON (bench export --format json --full): every row of its runs, or nothing. */
static int import_json(const import_args *ia)
{
    pb_err e = {{0}};
    if (ia->target) {
        fprintf(stderr, "bench import: --target: a JSON export names each run's target itself\n");
        return 2;
    }
    if (pb_store_check_path(ia->db, &e) < 0) { fprintf(stderr, "bench import: %s\n", e.msg); return 2; }
    pb_import_json_counts n;
    if (pb_import_json(ia->db, ia->file, &n, &e) < 0) {
        fprintf(stderr, "bench import: %s%s\n", e.msg, n.refused ? " (nothing stored)" : "");
        return n.refused ? 2 : 1;
    }
    printf("%s: imported %d run%s (%lld samples), skipped %d already in %s\n", ia->file, n.imported,
           n.imported == 1 ? "" : "s", (long long)n.samples, n.skipped, ia->db);
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
                    "Import the runs of the lab's own JSON (bench export --format json --full: every row, as\n"
                    "bench merge copies them; a run whose uuid the store holds is skipped), or the kernel module's results (the debugfs lines 'pbk1 ...', see docs/kmod.md),\n"
                    "e.g. saved with `cat /sys/kernel/debug/patchbench/results > FILE` on a real machine.\n"
                    "Each suite in the file becomes one complete run; `bench report` draws it beside the\n"
                    "userspace rows.\n",
        .epilogue = "\nRefused with FILE:LINE: what, storing nothing: a line over 1 MiB, a NUL byte, an unknown\n"
                    "record kind, suite or field, a repeated field, an empty or unsafe name, a number out of\n"
                    "range (iters, ns and size at least 1), an impl, variant, op or size the suite does not\n"
                    "have, a second sample of one impl, cell and round (or the same line twice), an impl\n"
                    "both unavailable and sampled in a cell, samples of an impl whose self-test failed, and a\n"
                    "--target that contradicts the file (userspace, or another than its meta target).\n"
                    "A JSON file is refused with FILE:LINE: what where it does not parse, FILE: FIELD: what where\n"
                    "a field is not a column of its table or a run is not complete or has no uuid; nothing is\n"
                    "stored (its runs go in one transaction). A gzip file (bench export --out FILE.json.gz), known by\n"
                    "its first bytes, is read as the JSON within: FILE:LINE is a line of that text; a cut or damaged\n"
                    "stream or one over 2 GiB decompressed is refused.\n"
                    "Exit status: 0 imported, 2 unreadable, malformed or truncated file (nothing stored).\n",
    };
    import_args ia = {.cli = &cli, .db = pb_default_db()};
    cli.ctx = &ia;
    int pr = pb_cli_parse(&cli, argc, argv);
    if (pr) return pr == 1 ? 0 : 2;
    if (!ia.file) { fprintf(stderr, "bench import: no results file given (see bench import --help)\n"); return 2; }
    int json = pb_import_is_json(ia.file);
    if (json < 0) { fprintf(stderr, "bench import: %s: cannot open: %s\n", ia.file, strerror(errno)); return 2; }
    return json ? import_json(&ia) : import_kmod(&ia);
}
