/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd_report.c — `bench report [--run ID|latest] [--suite S] [--out plots/] [--db PATH]` */
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_opts.h"
#include "paths.h"
#include "pb_config.h"
#include "report.h"
#include "report_data.h"
#include "report_machines.h"
#include "store.h"

enum { O_RUN, O_SUITE, O_OUT, O_DB, O_HTML, O_MACHINES };

static const pb_cli_opt OPTS[] = {
    {"run", "ID|latest", "the run to report (default: the latest complete run of each suite)", O_RUN},
    {"suite", "NAME", "only this suite", O_SUITE},
    {"out", "DIR|FILE.html", "output folder (default plots); a name ending in .html writes the HTML page there\n"
                             "(its plots beside it) and implies --html", O_OUT},
    {"html", NULL, "also write one self-contained HTML page (inline SVG, no network, no JavaScript):\n"
                   "<out>/report.html", O_HTML},
    {"machines", "all|ID,...", "also <out>/<suite>_machines.md/.png/.svg (and a section of the page): per cell the\n"
                               "time ratio with its CI and verdict on every machine (runs.machine_id or a prefix)\n"
                               "and configuration side by side, grouped by CPU model (docs/fleet.md)", O_MACHINES},
    {"db", "PATH", "database, opened read-only (default $PB_DB or " PB_DEFAULT_DB_PATH ")", O_DB},
    {NULL, NULL, NULL, 0},
};

typedef struct report_args {
    pb_cli *cli;
    const char *db, *out, *run_s, *suite, *machines;
    int html;
} report_args;

static int on_opt(void *ctx, int id, const char *v)
{
    report_args *a = ctx;
    int64_t id_ignored;
    switch (id) {
    case O_RUN: a->run_s = v; return pb_cli_run_id(a->cli, "run", v, 1, &id_ignored);
    case O_SUITE: a->suite = v; return 0;
    case O_OUT: a->out = v; return 0;
    case O_HTML: a->html = 1; return 0;
    case O_MACHINES: {
        pb_err me = {{0}};
        if (pb_machines_check(v, &me) < 0) return pb_cli_error(a->cli, "%s", me.msg);
        a->machines = v;
        return 0;
    }
    default: a->db = v; return 0;
    }
}

/* The newest complete run of a suite: userspace (guest = 0) or a kernel-module run (guest = 1). */
static int64_t latest_run(pb_store *st, const char *suite, int guest)
{
    pb_stmt *q;
    pb_db_prepare(st->db,
                       "SELECT id FROM runs WHERE status='complete' AND suite=?1 AND (CASE WHEN target = 'userspace' THEN 0 ELSE 1 END) = ?2"
                       " ORDER BY id DESC LIMIT 1", &q);
    pb_db_bind_text(q, 1, suite);
    pb_db_bind_int(q, 2, guest);
    int64_t id = 0;
    if (pb_db_step(q) == PB_DB_ROW) id = pb_db_column_int64(q, 0);
    pb_db_finalize(q);
    return id;
}

int cmd_report(int argc, char **argv)
{
    pb_cli cli = {
        .cmd = "report", .opts = OPTS, .on_opt = on_opt,
        .synopsis =
            "usage: bench report [--run ID|latest] [--suite NAME] [--out DIR|FILE.html] [--html] [--db PATH]\n"
            "\n"
            "Draw, with gnuplot, <suite>_ratio.png/.svg (each implementation's time ratio against the\n"
            "baseline with its 95 % CI, the document's ratio in its tolerance band), <suite>.png/.svg\n"
            "(measured medians beside the document's numbers) and write <suite>.md (per cell: baseline,\n"
            "candidate and peers, the paired time ratio (cost, as compare and gate) with\n"
            "its 95 % CI, the document's ratio, and a verdict that checks the size of the claim as well as\n"
            "its direction; data/verdict.tsv sets the tolerance). Where a run holds <candidate>@P and\n"
            "<baseline>@P (the same sources built with code-generation profile P), their ratio stands beside\n"
            "the faithful one and cells where the two differ by more than the threshold are marked\n"
            "'depends on code generation'. Prints one summary line per suite: cells per verdict.\n",
        .epilogue =
            "\nThe latest complete kernel-module run (target qemu-tcg/host-kmod/import) of the same suite is\n"
            "drawn beside the userspace rows. The document tables are read from data/<suite>_doc.tsv\n"
            "(PB_DATADIR overrides the folder).\n",
    };
    report_args ra = {.cli = &cli, .db = pb_default_db(), .out = "plots", .run_s = "latest"};
    cli.ctx = &ra;
    int pr = pb_cli_parse(&cli, argc, argv);
    if (pr) return pr == 1 ? 0 : 2;
    const char *db = ra.db, *out = ra.out, *run_s = ra.run_s, *suite = ra.suite;
    /* --out FILE.html: the page there, its plots in the folder that holds it */
    char out_dir[1024], page[1100] = "";
    size_t outlen = strlen(out);
    if (outlen > 5 && !strcmp(out + outlen - 5, ".html")) {
        ra.html = 1;
        snprintf(page, sizeof page, "%s", out);
        const char *slash = strrchr(out, '/');
        if (slash) snprintf(out_dir, sizeof out_dir, "%.*s", (int)(slash - out) ? (int)(slash - out) : 1, out);
        else snprintf(out_dir, sizeof out_dir, ".");
        out = out_dir;
    } else if (ra.html) {
        snprintf(page, sizeof page, "%s/report.html", out);
    }
    if (suite && !pb_suite_find(suite)) {
        fprintf(stderr, "bench report: unknown suite '%s'\n", suite);
        return 2;
    }
    pb_store st;
    pb_err e = {{0}};
    if (pb_store_open_readonly(&st, db, &e) < 0) {
        fprintf(stderr, "bench report: %s (run bench run first, or --db)\n", e.msg);
        return 2;
    }
    const char *data_dir = pb_data_dir();
    int64_t run = 0;
    int run_is_guest = 0;
    char run_suite[64] = "";
    if (strcmp(run_s, "latest")) {
        run = strtoll(run_s, NULL, 10);   /* checked by on_opt */
        pb_stmt *q;
        pb_db_prepare(st.db, "SELECT suite, status, target FROM runs WHERE id = ?1", &q);
        pb_db_bind_int64(q, 1, run);
        int found = pb_db_step(q) == PB_DB_ROW;
        char rs[64] = "", status[32] = "", target[32] = "";
        if (found) {
            snprintf(rs, sizeof rs, "%s", pb_db_column_text(q, 0));
            snprintf(status, sizeof status, "%s", pb_db_column_text(q, 1));
            snprintf(target, sizeof target, "%s", pb_db_column_text(q, 2));
        }
        pb_db_finalize(q);
        if (!found) { fprintf(stderr, "bench report: no run %lld in %s\n", (long long)run, db); pb_store_close(&st); return 2; }
        if (strcmp(status, "complete")) {
            fprintf(stderr, "bench report: run %lld is %s, not complete: it is never reported\n", (long long)run, status);
            pb_store_close(&st);
            return 2;
        }
        snprintf(run_suite, sizeof run_suite, "%s", rs);
        suite = run_suite;
        run_is_guest = strcmp(target, "userspace") != 0;
    }
    /* the runs to report, first: the page's links name every suite before its first section */
    const pb_suite *todo[64];
    pb_report_opts ros[64];
    const char *names[64];
    int ntodo = 0, reported = 0, rc = 0;
    for (int i = 0; pb_suites[i] && ntodo < 64; i++) {
        const pb_suite *s = pb_suites[i];
        if (suite && strcmp(s->name, suite)) continue;
        pb_report_opts ro = {.out_dir = out, .data_dir = data_dir};
        ro.run = run && !run_is_guest ? run : latest_run(&st, s->name, 0);
        /* kernel-module rows only for a suite that declares a kernel-module part */
        ro.guest_run = !s->kmod_impls ? 0 : run && run_is_guest ? run : latest_run(&st, s->name, 1);
        if (!ro.run) {
            if (run) {
                fprintf(stderr, "bench report: run %lld is a kernel-module run; it is drawn beside a userspace run of "
                        "%s, and there is none yet (bench run --suite %s)\n", (long long)run, s->name, s->name);
                rc = 2;
            }
            continue;
        }
        if (ro.guest_run == ro.run) ro.guest_run = 0;
        todo[ntodo] = s;
        names[ntodo] = s->name;
        ros[ntodo++] = ro;
    }
    /* the page is written beside its final name and renamed when whole: no half page is left */
    char page_tmp[1200];
    FILE *html = NULL;
    if (*page && ntodo) {
        if (mkdir(out, 0755) && errno != EEXIST) {
            fprintf(stderr, "bench report: cannot create %s: %s\n", out, strerror(errno));
            pb_store_close(&st);
            return 1;
        }
        snprintf(page_tmp, sizeof page_tmp, "%s.part", page);
        html = fopen(page_tmp, "w");
        if (!html) {
            fprintf(stderr, "bench report: cannot write %s: %s\n", page_tmp, strerror(errno));
            pb_store_close(&st);
            return 1;
        }
        pb_report_html_begin(html, "patchbench report");
        pb_report_html_nav(html, names, ntodo);
    }
    for (int i = 0; i < ntodo; i++) {
        const pb_suite *s = todo[i];
        pb_report_opts ro = ros[i];
        ro.html = html;
        pb_verdict_counts host_n, guest_n;
        if (pb_report_suite(&st, s, &ro, &host_n, &guest_n, &e) < 0) {
            fprintf(stderr, "bench report: %s\n", e.msg);
            rc = 1;
            continue;
        }
        printf("%s: run %lld%s -> %s/%s_ratio.png (.svg), %s/%s.png (.svg), %s/%s.md\n", s->name, (long long)ro.run,
               ro.guest_run ? " (+ kernel-module run)" : "", out, s->name, out, s->name, out, s->name);
        char line[512];
        pb_verdict_summary(&host_n, line, sizeof line);
        printf("%s summary: %s\n", s->name, line);
        if (ro.guest_run) {
            pb_verdict_summary(&guest_n, line, sizeof line);
            printf("%s kernel-module summary: %s\n", s->name, line);
        }
        reported++;
    }
    /* --machines: each suite across machines and configurations (report_machines.c) */
    int machine_reports = 0;
    for (int i = 0; ra.machines && pb_suites[i]; i++) {
        const pb_suite *s = pb_suites[i];
        if (suite && strcmp(s->name, suite)) continue;
        pb_machines_opts mo = {.machines = ra.machines, .out_dir = out, .data_dir = data_dir, .html = html};
        int ncols = 0;
        int mr = pb_report_machines(&st, s, &mo, &ncols, &e);
        if (mr < 0) {
            fprintf(stderr, "bench report: --machines: %s: %s\n", s->name, e.msg);
            rc = 1;
        } else if (mr > 0) {
            printf("%s: %d machine configuration%s -> %s/%s_machines.md, %s/%s_machines.png (.svg)\n", s->name, ncols,
                   ncols == 1 ? "" : "s", out, s->name, out, s->name);
            machine_reports++;
            reported++;
        }
    }
    if (ra.machines && !machine_reports && !rc) {
        fprintf(stderr, "bench report: --machines %s: no complete run of %s in %s\n", ra.machines,
                strcmp(ra.machines, "all") ? "those machines" : "any machine", db);
        rc = 2;
    }
    if (html) {
        pb_report_html_end(html);
        pb_err ce = {{0}};
        if (pb_report_close_checked(html, page_tmp, &ce) < 0 || rc) {
            if (!rc) fprintf(stderr, "bench report: %s\n", ce.msg);
            unlink(page_tmp);
            rc = rc ? rc : 1;
        } else if (rename(page_tmp, page)) {
            fprintf(stderr, "bench report: cannot write %s: %s\n", page, strerror(errno));
            unlink(page_tmp);
            rc = 1;
        } else {
            printf("page: %s\n", page);
        }
    }
    pb_store_close(&st);
    if (!reported && !rc) {
        fprintf(stderr, "bench report: no complete run%s%s in %s\n", suite ? " of suite " : "", suite ? suite : "", db);
        return 2;
    }
    return rc;
}
