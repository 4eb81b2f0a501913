/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd_export.c — `bench export --format json|csv|gbench [--run ID|latest] [--suite S] [--out FILE]`:
 * the options, the output file and the messages; the formats are the report floor's render table
 * (report/render.h, report/export.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_opts.h"
#include "export.h"
#include "out_stage.h"
#include "render.h"
#include "store.h"

enum { O_FORMAT = 1 };

typedef struct export_args {
    pb_cli *cli;
    const char *db, *format, *run, *suite, *out, *target;
    int full;
} export_args;

static const pb_cli_opt OPTS[] = {
    PB_OPT("format", "json|csv|gbench", "json: the run's provenance, every cell's statistics in every metric and the\n"
                                  "paired ratios; csv: the statistics, one row per (cell, impl, metric), RFC 4180,\n"
                                  "a name that starts like a spreadsheet formula (= + - @) behind a ';\n"
                                  "both with the time metric's mean, stddev, min, max and mean user and sys\n"
                                  "time per op over every stored sample (ns; user/sys where kept: exec);\n"
                                  "gbench: Google Benchmark's JSON, one median entry per (cell, impl) in ns,\n"
                                  "for compare.py", O_FORMAT),
    PB_OPT_FLAG("full", "json: every row of the runs too (every column of the run, its cases, samples, statistics,\n"
                        "objects and ratios), which bench import reads back into another store", export_args, full),
    PB_OPT_RUN("the run (default: the latest complete run of each suite)", export_args, run),
    PB_OPT_SUITE("NAME", "only this suite", export_args, suite),
    PB_OPT_STRING_ONCE("target", "NAME", "without --run: the latest complete run of each suite among those of this target\n"
                                         "(runs.target; default userspace; valgrind: the count runs, docs/counts.md)", export_args, target),
    PB_OPT_OUT("FILE", "write there instead of stdout ('-'), replaced only when whole and only if a regular\n"
                       "file or nothing (never a link, device or FIFO; docs/outputs.md); FILE.gz: json\n"
                       "gzip-compressed, as bench import reads it", export_args, out),
    PB_OPT_DB_READ(export_args, db),
    PB_OPT_END,
};

static int on_opt(void *ctx, int id, const char *v)
{
    export_args *a = ctx;
    (void)id;   /* --format: the one option checked its own way */
    if (!pb_renderer_find(PB_RENDER_EXPORT, v)) {
        char names[128];
        pb_renderer_names(PB_RENDER_EXPORT, names, sizeof names);
        fprintf(stderr, "bench export: --format: '%s' is not %s\n", v, names);
        return -1;
    }
    a->format = v;
    return 0;
}

/* --out FILE.gz: 1, the json gzip'd (a published run with every sample is tens of MB of indented
 * JSON; bench import knows it by its first bytes); 0 other names; -1 said where the format is not json */
static int out_gzip(const export_args *a)
{
    size_t n = a->out ? strlen(a->out) : 0;
    if (n <= 3 || strcmp(a->out + n - 3, ".gz")) return 0;
    if (!strcmp(a->format, "json")) return 1;
    fprintf(stderr, "bench export: --out: a .gz file only with --format json, not '%s'\n", a->format);
    return -1;
}

int cmd_export(int argc, char **argv)
{
    pb_cli cli = {
        .cmd = "export", .opts = OPTS, .on_opt = on_opt,
        .synopsis = "usage: bench export --format json|csv|gbench [--full] [--run ID|latest|--target NAME] [--suite NAME] [--out FILE]"
                    " [--db PATH]\n\n"
                    "A run's statistics for other tools. gbench files of two runs compare with Google Benchmark's\n"
                    "compare.py (Debian libbenchmark-tools):\n"
                    "  /usr/share/benchmark/compare.py benchmarks A.json B.json\n"
                    "and old against new within one file: compare.py filters A.json xts/old/ xts/new/\n",
    };
    export_args a = {.cli = &cli, .db = pb_default_db()};
    cli.ctx = &a;
    int pr = pb_cli_parse(&cli, argc, argv);
    if (pr) return pr == 1 ? 0 : 2;
    if (!a.format) {
        fprintf(stderr, "bench export: --format json|csv|gbench is required\n");
        return 2;
    }
    if (a.target && a.run) {
        fprintf(stderr, "bench export: --target: only without --run (a run is of its own target)\n");
        return 2;
    }
    if (a.full && strcmp(a.format, "json")) {
        fprintf(stderr, "bench export: --full: only with --format json ('%s' has no place for the rows)\n", a.format);
        return 2;
    }
    int gzip = out_gzip(&a);
    if (gzip < 0) return 2;
    if (a.suite && !pb_suite_find(a.suite)) {
        char why[700];
        fprintf(stderr, "bench export: %s\n", pb_suite_unknown(why, sizeof why, a.suite, ""));
        return 2;
    }
    pb_store st;
    pb_err e = {{0}};
    if (pb_store_open_readonly(&st, a.db, &e) < 0) {
        fprintf(stderr, "bench export: %s\n", e.msg);
        return 2;
    }
    int64_t ids[64];
    int n = pb_export_runs_of(&st, pb_cli_run_of(a.run), a.suite, a.target ? a.target : "userspace", ids, 64);
    if (n < 0) {   /* the store could not be read: its own words, not "no run" */
        fprintf(stderr, "bench export: %s: cannot read the store: %s\n", a.db, pb_db_errmsg(st.db));
        pb_store_close(&st);
        return 2;
    }
    if (n == 0) {
        if (pb_cli_run_of(a.run))
            fprintf(stderr, "bench export: no complete run %lld%s%s in %s\n", (long long)pb_cli_run_of(a.run),
                    a.suite ? " of suite " : "", a.suite ? a.suite : "", a.db);
        else fprintf(stderr, "bench export: no complete %s%srun%s%s in %s\n", a.target ? a.target : "",
                     a.target ? " " : "", a.suite ? " of suite " : "", a.suite ? a.suite : "", a.db);
        pb_store_close(&st);
        return 2;
    }
    /* --out FILE: made in a private folder beside FILE, renamed over it only when whole and only
     * if FILE is a regular file or nothing (out_stage.h); "-" or no --out: standard output, whose
     * every write main() checks */
    FILE *f = stdout;
    pb_stage stage = {.dirfd = -1, .fd = -1};
    const char *name = NULL;
    if (a.out && strcmp(a.out, "-")) {
        if (pb_stage_open_file(&stage, a.out, "--out", &name, &e) < 0 || !(f = pb_stage_fopen(&stage, name, &e))) {
            fprintf(stderr, "bench export: %s\n", e.msg);
            int refused = stage.refused;
            pb_stage_close(&stage);
            pb_store_close(&st);
            return refused ? 2 : 1;
        }
    }
    int rc = pb_export_write_as(f, &st, a.format, ids, n, a.full, gzip, &e);
    pb_store_close(&st);
    if (f == stdout) {
        if (rc < 0) fprintf(stderr, "bench export: %s\n", e.msg[0] ? e.msg : "write failed");
        return rc < 0 ? 1 : 0;
    }
    int failed = rc < 0;
    if (pb_stage_fclose(&stage, f, name, &e) < 0) failed = 1;
    else if (failed && !e.msg[0]) pb_errf(&e, "cannot write %s", a.out);
    if (!failed && pb_stage_commit(&stage, &e) < 0) failed = 1;
    if (failed) fprintf(stderr, "bench export: %s\n", e.msg);
    int refused = stage.refused;
    pb_stage_close(&stage);   /* a file not renamed into place goes with the private folder */
    return failed ? (refused ? 2 : 1) : 0;
}
