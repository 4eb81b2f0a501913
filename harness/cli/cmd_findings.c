/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd_findings.c — `bench findings [--from DIR | --db PATH] [--suite S] [--out FILE]`: the findings
 * across CPUs (report/findings.h) of a store, or of the exports in a folder imported into a store of
 * the command's own that goes when it ends (docs/findings.md, results/published/README.md). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_opts.h"
#include "findings.h"
#include "import_json.h"
#include "out_stage.h"
#include "paths.h"
#include "store.h"

typedef struct findings_args {
    pb_cli *cli;
    const char *db, *from, *suite, *out;
} findings_args;

static const pb_cli_opt OPTS[] = {
    PB_OPT_STRING_ONCE("from", "DIR", "import every *.json and *.json.gz of DIR (bench export --format json --full),\n"
                                      "in name order, into a store of the command's own, removed when it ends, and read that", findings_args, from),
    PB_OPT_SUITE("NAME", "only this suite", findings_args, suite),
    PB_OPT_OUT("FILE", "write there instead of stdout ('-'), replaced only when whole (docs/outputs.md)", findings_args, out),
    PB_OPT_DB_READ(findings_args, db),
    PB_OPT_END,
};

/* the names of DIR's *.json and *.json.gz files (regular, not hidden), sorted, into *names (n of them, malloc'd) */
static int json_names(const char *dir, char ***names, int *n)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    struct dirent *de;
    int cap = 0;
    *names = NULL;
    *n = 0;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        int json = len > 5 && !strcmp(de->d_name + len - 5, ".json");
        int gz = len > 8 && !strcmp(de->d_name + len - 8, ".json.gz");   /* bench export --out FILE.json.gz */
        if (de->d_name[0] == '.' || !(json || gz)) continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 16;
            char **v = realloc(*names, (size_t)cap * sizeof *v);
            if (!v) break;
            *names = v;
        }
        if (!((*names)[*n] = strdup(de->d_name))) break;
        (*n)++;
    }
    closedir(d);
    for (int i = 1; i < *n; i++)
        for (int j = i; j > 0 && strcmp((*names)[j - 1], (*names)[j]) > 0; j--) {
            char *t = (*names)[j];
            (*names)[j] = (*names)[j - 1];
            (*names)[j - 1] = t;
        }
    return 0;
}

/* The exports of dir into a new store at db: 0, or exit status 2 (a refused or unreadable file)
 * with the message said. */
static int import_all(const char *dir, const char *db)
{
    char **names;
    int n;
    if (json_names(dir, &names, &n) < 0) {
        fprintf(stderr, "bench findings: --from: %s: %s\n", dir, strerror(errno));
        return 2;
    }
    int rc = 0;
    for (int i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        pb_import_json_counts c;
        pb_err e = {{0}};
        if (rc == 0 && pb_import_json(db, path, &c, &e) < 0) {
            fprintf(stderr, "bench findings: --from: %s\n", e.msg);
            rc = c.refused ? 2 : 1;
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

/* the page of st into --out (or stdout), made aside and renamed when whole */
static int write_out(const findings_args *a, pb_store *st)
{
    pb_path data;
    pb_err e = {{0}};
    FILE *f = stdout;
    pb_stage stage = {.dirfd = -1, .fd = -1};
    const char *name = NULL;
    if (a->out && strcmp(a->out, "-")) {
        if (pb_stage_open_file(&stage, a->out, "--out", &name, &e) < 0 || !(f = pb_stage_fopen(&stage, name, &e))) {
            fprintf(stderr, "bench findings: %s\n", e.msg);
            int refused = stage.refused;
            pb_stage_close(&stage);
            return refused ? 2 : 1;
        }
    }
    int failed = pb_findings_write(f, st, pb_data_dir(&data), a->suite, &e) < 0;
    if (f != stdout) {
        if (pb_stage_fclose(&stage, f, name, &e) < 0) failed = 1;
        else if (!failed && pb_stage_commit(&stage, &e) < 0) failed = 1;
    }
    if (failed) fprintf(stderr, "bench findings: %s\n", e.msg[0] ? e.msg : "write failed");
    int refused = stage.refused;
    if (f != stdout) pb_stage_close(&stage);
    return failed ? (refused ? 2 : 1) : 0;
}

/* a private folder for the store of --from: $TMPDIR or /tmp */
static int temp_store(char *dir, size_t cap, char *db, size_t dbcap)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, cap, "%s/bench-findings-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (!mkdtemp(dir)) return -1;
    snprintf(db, dbcap, "%s/store.db", dir);
    return 0;
}

static void temp_remove(const char *dir, const char *db)
{
    const char *const ext[] = {"", "-wal", "-shm", "-journal"};
    for (int i = 0; i < 4; i++) {
        char p[4200];
        snprintf(p, sizeof p, "%s%s", db, ext[i]);
        unlink(p);
    }
    rmdir(dir);
}

int cmd_findings(int argc, char **argv)
{
    pb_cli cli = {
        .cmd = "findings", .opts = OPTS,
        .synopsis = "usage: bench findings [--from DIR | --db PATH] [--suite NAME] [--out FILE]\n\n"
                    "Per suite and cell, each CPU model's verdict and time ratio [CI] side by side, one column per\n"
                    "CPU model (its newest default run), with the instruction ratio where a count run of the same\n"
                    "build exists: the page docs/findings.md, regenerated from the published exports with\n"
                    "  bench findings --from results/published --out docs/findings.md\n\n"
                    "The same exports give the same bytes (no date but the runs', no path, sorted).\n",
    };
    findings_args a = {.cli = &cli};
    cli.ctx = &a;
    int pr = pb_cli_parse(&cli, argc, argv);
    if (pr) return pr == 1 ? 0 : 2;
    if (a.from && a.db) {
        fprintf(stderr, "bench findings: --from and --db: one source at a time\n");
        return 2;
    }
    if (a.suite && !pb_suite_find(a.suite)) {
        char why[700];
        fprintf(stderr, "bench findings: %s\n", pb_suite_unknown(why, sizeof why, a.suite, ""));
        return 2;
    }
    char dir[4096] = "", db[4200];
    if (a.from) {
        struct stat sb;
        if (stat(a.from, &sb) < 0 || !S_ISDIR(sb.st_mode)) {
            fprintf(stderr, "bench findings: --from: %s is not a folder\n", a.from);
            return 2;
        }
        if (temp_store(dir, sizeof dir, db, sizeof db) < 0) {
            fprintf(stderr, "bench findings: cannot make a private folder: %s\n", strerror(errno));
            return 1;
        }
        pb_store st;
        pb_err e = {{0}};
        int rc = import_all(a.from, db);
        /* no export at all: an empty store, made here, so that the page says so */
        if (rc == 0 && pb_store_open(&st, db, &e) == 0) pb_store_close(&st);
        if (rc) {
            temp_remove(dir, db);
            return rc;
        }
    }
    const char *path = a.from ? db : a.db ? a.db : pb_default_db();
    pb_store st;
    pb_err e = {{0}};
    if (pb_store_open_readonly(&st, path, &e) < 0) {
        fprintf(stderr, "bench findings: %s\n", e.msg);
        if (a.from) temp_remove(dir, db);
        return 2;
    }
    int rc = write_out(&a, &st);
    pb_store_close(&st);
    if (a.from) temp_remove(dir, db);
    return rc;
}
