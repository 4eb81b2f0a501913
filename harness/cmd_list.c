/* cmd_list.c — `bench list [--runs] [--db PATH]`: suites, or the runs stored. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "store.h"
#include "suite.h"

int cmd_list(int argc, char **argv)
{
    const char *db = "results/bench.db";
    int runs = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: bench list [--runs] [--db PATH]\n\n"
                   "Without --runs: the suites, their implementations' roles and metrics.\n"
                   "With --runs: the runs in the database, newest first, with their status.\n");
            return 0;
        } else if (!strcmp(argv[i], "--runs")) runs = 1;
        else if (!strcmp(argv[i], "--db") && i + 1 < argc) db = argv[++i];
        else if (!strncmp(argv[i], "--db=", 5)) db = argv[i] + 5;
        else { fprintf(stderr, "bench list: unknown argument '%s' (see bench list --help)\n", argv[i]); return 2; }
    }
    if (!runs) {
        for (int i = 0; pb_suites[i]; i++) {
            const pb_suite *s = pb_suites[i];
            printf("%-10s %s\n", s->name, s->title ? s->title : "");
            if (s->plan) {
                pb_grid g = {0, NULL};
                pb_err e = {{0}};
                pb_plan_opts po = {0};
                if (s->plan(&po, &g, &e) == 0) {
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
                           s->baseline, s->candidate, g.ncells, s->primary_metric ? s->primary_metric : "ns_per_op");
                }
                free(g.cells);
            }
        }
        return 0;
    }
    pb_store st;
    pb_err e = {{0}};
    if (pb_store_open(&st, db, &e) < 0) { fprintf(stderr, "bench list: %s\n", e.msg); return 2; }
    sqlite3_stmt *q;
    sqlite3_prepare_v2(st.db,
                       "SELECT r.id, r.suite, r.status, r.target, r.started_at, COALESCE(r.status_reason,''),"
                       " (SELECT count(*) FROM cases c WHERE c.run_id = r.id), substr(r.git_sha,1,12)"
                       " FROM runs r ORDER BY r.id DESC",
                       -1, &q, NULL);
    printf("%-5s %-8s %-10s %-9s %-24s %-6s %-12s %s\n", "run", "suite", "status", "target", "started", "cases",
           "git", "note");
    while (sqlite3_step(q) == SQLITE_ROW)
        printf("%-5lld %-8s %-10s %-9s %-24s %-6d %-12s %s\n", (long long)sqlite3_column_int64(q, 0),
               sqlite3_column_text(q, 1), sqlite3_column_text(q, 2), sqlite3_column_text(q, 3),
               sqlite3_column_text(q, 4), sqlite3_column_int(q, 6), sqlite3_column_text(q, 7),
               sqlite3_column_text(q, 5));
    sqlite3_finalize(q);
    pb_store_close(&st);
    return 0;
}
