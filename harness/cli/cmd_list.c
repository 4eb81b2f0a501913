/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd_list.c — `bench list [--runs] [--db PATH]`: suites, or the runs stored; `bench migrate`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_opts.h"
#include "metrics.h"
#include "reads.h"
#include "store.h"
#include "suite.h"
#include "term.h"

/* --db, the one option of list and migrate; --runs of list */
typedef struct db_args {
    const char *db;
    int runs;
    int names, published;   /* --names, --published */
    const char *ci;         /* --ci record|commit */
} db_args;

/* the header of the runs' table, once, before the first run or alone */
static void print_header(int *printed)
{
    if (*printed) return;
    *printed = 1;
    printf("%-5s %-8s %-10s %-9s %-24s %-6s %-12s %s\n", "run", "suite", "status", "target", "started", "cases",
           "git", "note");
}

/* what print_run needs: the header printed yet, the store for each run's sides, stdout's width */
typedef struct list_ctx {
    int header;
    pb_store *st;
    int width;
} list_ctx;

/* whose code the run timed, beneath it: the git column is bench's own revision, never the user's
 * (docs/your-code.md); one line per side and the parity verdict, each cut to the width */
static void print_sides(const list_ctx *x, int64_t run)
{
    pb_run_sides sd;
    pb_err e = {{0}};
    if (pb_store_run_sides(x->st, run, &sd, &e) < 0 || !sd.n) return;
    char line[1200], side[1100];
    for (int i = 0; i < sd.n; i++) {
        pb_side_line(&sd.v[i], 0, side, sizeof side);
        snprintf(line, sizeof line, "      %s", side);
        pb_term_line(stdout, x->width, line);
    }
    pb_parity_verdict(sd.parity, side, sizeof side);
    snprintf(line, sizeof line, "      build parity: %s", side);
    pb_term_line(stdout, x->width, line);
    pb_run_sides_free(&sd);
}

static void print_run(void *ctx, const pb_run_listing *r)
{
    list_ctx *x = ctx;
    print_header(&x->header);
    printf("%-5lld %-8s %-10s %-9s %-24s %-6d %-12s %s\n", (long long)r->id, r->suite, r->status, r->target,
           r->started_at, r->cases, r->git, r->note);
    print_sides(x, r->id);
}

/* Does suite s go with --published and --ci (its declaration, suite.h pb_suite_published)? */
static int suite_selected(const db_args *a, const pb_suite *s)
{
    if (a->published && !pb_suite_published(s)[0]) return 0;
    /* --ci record: every suite .ci/run claim-gates (record or commit); --ci commit: the commit-gated */
    if (a->ci && strcmp(pb_suite_ci(s), a->ci) && !(!strcmp(a->ci, "record") && !strcmp(pb_suite_ci(s), "commit")))
        return 0;
    return 1;
}

/* The suites, their impls' roles and metrics; with --names one name a line (for scripts) */
static int list_suites(const db_args *a)
{
    if (a->ci && strcmp(a->ci, "record") && strcmp(a->ci, "commit")) {
        fprintf(stderr, "bench list: --ci wants record or commit, got '%s'\n", a->ci);
        return 2;
    }
    for (int i = 0; pb_suites[i]; i++) {
        const pb_suite *s = pb_suites[i];
        if (!suite_selected(a, s)) continue;
        if (a->names) {
            printf("%s\n", s->name);
            continue;
        }
        printf("%-10s %s\n", s->name, s->title ? s->title : "");
        if (s->plan) {
            pb_grid g = {0, NULL};
            pb_err e = {{0}};
            if (pb_suite_default_grid(s, &g, &e) == 0) {
                char impls[256] = "";
                size_t off = 0;
                for (int c = 0; c < g.ncells; c++)
                    for (int k = 0; k < g.cells[c].nimpls; k++) {
                        char pat[PB_NAME_MAX + 2];
                        snprintf(pat, sizeof pat, "%s ", g.cells[c].impls[k]);
                        if (!strstr(impls, pat) && off < sizeof impls)
                            off += (size_t)snprintf(impls + off, sizeof impls - off, "%s", pat);
                    }
                printf("           impls: %s(baseline %s, candidate %s); %d cells; metric %s\n", impls,
                       s->baseline, s->candidate, g.ncells, pb_suite_primary_metric(s));
            }
            free(g.cells);
        }
    }
    return 0;
}

int cmd_list(int argc, char **argv)
{
    static const pb_cli_opt opts[] = {
        PB_OPT_FLAG("runs", "the runs in the database, newest first, with their status", db_args, runs),
        PB_OPT_FLAG("names", "the suites' names only, one a line (for scripts: ci/claim-gate, .ci/run)", db_args,
                    names),
        PB_OPT_FLAG("published", "only the suites that re-run a published patch (their declaration names\n"
                                 "its upstream commit: docs/adding-a-suite.md)", db_args, published),
        PB_OPT_STRING("ci", "record|commit", "only the suites .ci/run gates: record, their claim gate for the\n"
                                              "record; commit, the commit gates too", db_args, ci),
        PB_OPT_DB_READ(db_args, db),
        PB_OPT_END,
    };
    db_args a = {.db = pb_default_db()};
    pb_cli cli = {.cmd = "list", .opts = opts, .ctx = &a,
                  .synopsis = "usage: bench list [--names] [--published] [--ci record|commit] | --runs [--db PATH]\n\n"
                              "Without --runs: the suites, their implementations' roles and metrics.\n"
                              "With --runs: the runs in the database, newest first, with their status.\n"};
    int r = pb_cli_parse(&cli, argc, argv);
    if (r) return r == 1 ? 0 : 2;
    const char *db = a.db;
    const int runs = a.runs;
    if (!runs) return list_suites(&a);
    pb_store st;
    pb_err e = {{0}};
    if (pb_store_open_readonly(&st, db, &e) < 0) { fprintf(stderr, "bench list: %s\n", e.msg); return 2; }
    list_ctx x = {.st = &st, .width = pb_term_width()};
    int listed = pb_store_each_run(&st, print_run, &x, &e);
    if (listed >= 0) print_header(&x.header);   /* a store without runs: the header alone */
    if (listed) fprintf(stderr, "bench list: %s\n", e.msg);
    pb_store_close(&st);
    return listed ? 1 : 0;
}

/* `bench migrate [--db PATH]`: bring a database to this bench's schema (one transaction). */
int cmd_migrate(int argc, char **argv)
{
    static const pb_cli_opt opts[] = {
        PB_OPT_DB(db_args, db),
        PB_OPT_END,
    };
    char synopsis[512];
    snprintf(synopsis, sizeof synopsis,
             "usage: bench migrate [--db PATH]\n\n"
             "Bring an existing database to schema version %d in one transaction; commands that store\n"
             "do this themselves, commands that only read refuse an older database.\n", PB_SCHEMA_VERSION);
    db_args a = {.db = pb_default_db()};
    pb_cli cli = {.cmd = "migrate", .opts = opts, .ctx = &a, .synopsis = synopsis};
    int r = pb_cli_parse(&cli, argc, argv);
    if (r) return r == 1 ? 0 : 2;
    const char *db = a.db;
    pb_err e = {{0}};
    if (pb_store_check_path(db, &e) < 0) { fprintf(stderr, "bench migrate: %s\n", e.msg); return 2; }
    if (!pb_store_exists(db)) { fprintf(stderr, "bench migrate: no database at %s\n", db); return 2; }
    pb_store st;
    int opened = pb_store_open(&st, db, &e);
    if (opened < 0) {   /* a failed migration is 1 (the file left as it was); a refused store 2 */
        fprintf(stderr, "bench migrate: %s\n", e.msg);
        return opened == PB_STORE_REFUSED ? 2 : 1;
    }
    pb_store_close(&st);
    printf("%s: schema version %d\n", db, PB_SCHEMA_VERSION);
    return 0;
}
