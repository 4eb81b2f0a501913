/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd_report.c — `bench report [--run ID|latest] [--suite S] [--out plots/] [--db PATH]`: the options,
 * and the lines it prints; which runs, the reports and the page are the report floor's (report.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "answer.h"
#include "cli_opts.h"
#include "decompose.h"
#include "paths.h"
#include "pb_config.h"
#include "render.h"
#include "report.h"
#include "report_machines.h"
#include "store.h"
#include "term.h"

enum { O_MACHINES = 1 };

typedef struct report_args {
    pb_cli *cli;
    const char *db, *out, *run_s, *suite, *machines;
    int html, wide;
} report_args;

static const pb_cli_opt OPTS[] = {
    PB_OPT_RUN("the run to report (default: the latest complete run of each suite)", report_args, run_s),
    PB_OPT_SUITE("NAME", "only this suite", report_args, suite),
    PB_OPT_OUT("DIR|FILE.html", "output folder (default plots); a name ending in .html writes the HTML page there\n"
                             "(its plots beside it) and implies --html", report_args, out),
    PB_OPT_FLAG("html", "also write one self-contained HTML page (inline SVG, no network, no JavaScript):\n"
                        "<out>/report.html", report_args, html),
    PB_OPT_LIST("machines", "all|ID,...", "also <out>/<suite>_machines.md/.png/.svg (and a section of the page): per cell the\n"
                               "time ratio with its CI and verdict on every machine (runs.machine_id or a prefix)\n"
                               "and configuration side by side, grouped by CPU identity (docs/fleet.md)", O_MACHINES),
    PB_OPT_FLAG("wide", "each suite's answer in full lines, as when stdout is not a terminal (else they fit\n"
                        "its width, or COLUMNS where set; the rest is in the report)", report_args, wide),
    PB_OPT_DB_READ(report_args, db),
    PB_OPT_END,
};

static int on_opt(void *ctx, int id, const char *v)
{
    report_args *a = ctx;
    (void)id;   /* --machines: the one option checked its own way */
    pb_err me = {{0}};
    if (pb_machines_check(v, &me) < 0) return pb_cli_error(a->cli, "%s", me.msg);
    a->machines = v;
    return 0;
}

/* --out FILE.html: the page there, its plots in the folder that holds it; --out DIR --html: the page
 * is DIR/report.html. The folder the files go to is returned (dir or a->out); page "" for none. */
static const char *out_folder(report_args *a, char *dir, size_t dir_cap, char *page, size_t page_cap)
{
    const char *out = a->out;
    size_t outlen = strlen(out);
    page[0] = 0;
    if (outlen > 5 && !strcmp(out + outlen - 5, ".html")) {
        a->html = 1;
        snprintf(page, page_cap, "%s", out);
        const char *slash = strrchr(out, '/');
        if (slash) snprintf(dir, dir_cap, "%.*s", (int)(slash - out) ? (int)(slash - out) : 1, out);
        else snprintf(dir, dir_cap, ".");
        return dir;
    }
    if (a->html) snprintf(page, page_cap, "%s/report.html", out);
    return out;
}

/* Where a count run of the run's build is stored, each cell's time ratio as instructions x time per
 * instruction, and why in a sentence (decompose.h); nothing where there is none. A store that cannot
 * be read here was read whole by the report just written: nothing more to say then. */
static void why_lines(pb_store *st, const pb_report_job *j, int width)
{
    pb_decomp_set set;
    if (pb_decomp_load(st, j->run, &set, NULL) < 0) return;
    /* the suite's pair; a run whose impls the user named (exec) has every pair printed instead */
    pb_decomp_print(stdout, &set, j->s->name, j->s->baseline, j->s->candidate, width);
    pb_decomp_free(&set);
}

/* One suite's report and its lines on stdout; 0, or after saying why on stderr 1 (it failed) or
 * 2 (--out or a file's place in it was refused). */
static int report_one(pb_store *st, const pb_report_job *j, const char *out, FILE *page, int width)
{
    pb_path data;
    pb_answer answer;
    pb_report_opts ro = {.out_dir = out, .data_dir = pb_data_dir(&data), .run = j->run, .guest_run = j->guest_run,
                         .html = page, .answer = &answer};
    pb_verdict_counts host_n, guest_n;
    pb_err e = {{0}};
    int r = pb_report_suite(st, j->s, &ro, &host_n, &guest_n, &e);
    if (r < 0) {
        fprintf(stderr, "bench report: %s\n", e.msg);
        return r == -2 ? 2 : 1;
    }
    char files[4096], line[640];
    pb_renderer_listed(out, j->s->name, files, sizeof files);
    printf("%s: run %lld%s -> %s\n", j->s->name, (long long)j->run, j->guest_run ? " (+ kernel-module run)" : "",
           files);
    /* the finding first, within the terminal's width (answer.h) */
    pb_answer_print(stdout, &answer, width);
    why_lines(st, j, width);
    if (j->guest_run) {
        char counts[512];
        pb_answer_counts(&guest_n, counts, sizeof counts);
        snprintf(line, sizeof line, "%s kernel-module: %s", j->s->name, counts);
        pb_term_line(stdout, width, line);
    }
    return 0;
}

/* --machines: each suite (only suite, unless "") across machines and configurations
 * (report_machines.c); how many were written into *written. 0, or after saying why 1 (failed) or
 * 2 (a place refused). */
static int report_machines(pb_store *st, const char *machines, const char *suite, const char *out, FILE *page,
                           int *written)
{
    int rc = 0;
    *written = 0;
    for (int i = 0; pb_suites[i]; i++) {
        const pb_suite *s = pb_suites[i];
        if (*suite && strcmp(s->name, suite)) continue;
        pb_path data;
        pb_machines_opts mo = {.machines = machines, .out_dir = out, .data_dir = pb_data_dir(&data), .html = page};
        int ncols = 0;
        pb_err e = {{0}};
        int mr = pb_report_machines(st, s, &mo, &ncols, &e);
        if (mr < 0) {
            fprintf(stderr, "bench report: --machines: %s: %s\n", s->name, e.msg);
            if (rc != 2) rc = mr == -2 ? 2 : 1;
        } else if (mr > 0) {
            printf("%s: %d machine configuration%s -> %s/%s_machines.md, %s/%s_machines.png (.svg)\n", s->name, ncols,
                   ncols == 1 ? "" : "s", out, s->name, out, s->name);
            (*written)++;
        }
    }
    return rc;
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
            "(PB_DATADIR overrides the folder); a suite without one (gbench, exec) gets no document's words\n"
            "or columns. The figures (docs/report.md): 12 pt lettering, a tic at every measured size, one y\n"
            "range per figure (log where the values span more than 100x, said on the axis), and a note in\n"
            "each panel for an implementation with no line there, with the store's reason.\n",
    };
    report_args ra = {.cli = &cli, .db = pb_default_db(), .out = "plots", .run_s = "latest"};
    cli.ctx = &ra;
    int pr = pb_cli_parse(&cli, argc, argv);
    if (pr) return pr == 1 ? 0 : 2;
    char out_dir[1024], page_path[1100];
    const char *out = out_folder(&ra, out_dir, sizeof out_dir, page_path, sizeof page_path);
    if (ra.suite && !pb_suite_find(ra.suite)) {
        char why[700];
        fprintf(stderr, "bench report: %s\n", pb_suite_unknown(why, sizeof why, ra.suite, ""));
        return 2;
    }
    pb_store st;
    pb_err e = {{0}};
    int opened = pb_store_open_readonly(&st, ra.db, &e);
    if (opened < 0) {   /* the advice only where there is no store to read, not for one refused */
        fprintf(stderr, "bench report: %s%s\n", e.msg, opened == PB_STORE_REFUSED ? "" : " (run bench run first, or --db)");
        return 2;
    }
    int64_t run = pb_cli_run_of(ra.run_s);   /* checked by the parser (PB_OPT_RUN) */
    pb_report_plan plan;
    int rc = 0, reported = 0, planned = pb_report_plan_runs(&st, run, ra.suite, &plan, &e);
    if (planned < 0) fprintf(stderr, "bench report: %s\n", e.msg);
    if (planned == -1) { pb_store_close(&st); return 2; }
    if (planned == -2) rc = 2;
    /* every place checked first: a refused one leaves nothing of the command behind */
    const char *page_name = *page_path ? (strrchr(page_path, '/') ? strrchr(page_path, '/') + 1 : page_path) : NULL;
    if (pb_report_check_places(out, &plan, ra.machines != NULL, page_name, &e) < 0) {
        fprintf(stderr, "bench report: %s\n", e.msg);
        pb_store_close(&st);
        return 2;
    }
    pb_report_page page = {.f = NULL};
    int po = *page_path && plan.n ? pb_report_page_open(&page, page_path, out, &plan, &e) : 0;
    if (po < 0) {
        fprintf(stderr, "bench report: %s\n", e.msg);
        pb_store_close(&st);
        return po == -2 ? 2 : 1;
    }
    for (int i = 0; i < plan.n; i++) {
        int failed = report_one(&st, &plan.jobs[i], out, page.f, ra.wide ? 0 : pb_term_width());
        if (failed && rc != 2) rc = failed;   /* a refused place (2) is what the user must fix first */
        reported += !failed;
    }
    if (ra.machines) {
        int written;
        int mrc = report_machines(&st, ra.machines, plan.suite, out, page.f, &written);
        if (mrc && rc != 2) rc = mrc;
        reported += written;
        if (!written && !rc) {
            fprintf(stderr, "bench report: --machines %s: no complete run of %s in %s\n", ra.machines,
                    strcmp(ra.machines, "all") ? "those machines" : "any machine", ra.db);
            rc = 2;
        }
    }
    if (page.f) {
        int pc = pb_report_page_close(&page, rc != 0, &e);
        if (pc > 0) printf("page: %s\n", page.path);
        if (pc < 0) {
            fprintf(stderr, "bench report: %s\n", e.msg);
            rc = 1;
        }
    }
    pb_store_close(&st);
    if (!reported && !rc) {
        fprintf(stderr, "bench report: no complete run%s%s in %s\n", *plan.suite ? " of suite " : "", plan.suite,
                ra.db);
        return 2;
    }
    return rc;
}
