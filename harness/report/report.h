/* SPDX-License-Identifier: GPL-2.0-only */
/* report.h — plots (gnuplot, PNG + SVG) and a markdown verdict table per suite.
 *
 * Everything comes from the store (the `summary` view and the ratios of
 * complete runs) and from the document's own table, kept as data in
 * data/<suite>_doc.tsv. Layout is driven by the suite's plot_x only. */
#ifndef PB_REPORT_H
#define PB_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "out_stage.h"
#include "pb.h"
#include "store.h"
#include "suite.h"
#include "verdict.h"

/* Every figure's lettering, in points, for its text, keys and notes (report_gnuplot.c, history.c,
 * report_machines.c): cairo draws a point as a pixel (72 dpi), and 12 px is what reads at 100 %
 * zoom (the 7 and 8 pt keys did not). The figures are sized for it. */
#define PB_FIG_FONT_PT 12
/* The page (report_html.c) shows a figure at most this wide at 1280 px. An SVG drawn wider was
 * scaled down there with its lettering (7 px keys), so the SVG terminal draws on a canvas this wide
 * at most, its PB_FIG_FONT_PT lettering unshrunk, and as high as asked: a panel keeps the height
 * its key and notes need (a shorter one folded its key into two columns over the plot). The PNG
 * keeps the size asked. */
#define PB_FIG_PAGE_PX 1150
static inline void pb_fig_svg_terminal(char *buf, size_t len, int w, int h)
{
    if (w > PB_FIG_PAGE_PX) w = PB_FIG_PAGE_PX;
    snprintf(buf, len, "svg size %d,%d font 'sans,%d' dynamic", w, h, PB_FIG_FONT_PT);
}

typedef struct pb_report_opts {
    const char *out_dir;      /* "plots" */
    const char *data_dir;     /* where <suite>_doc.tsv lives */
    int64_t run;              /* the host run to report */
    int64_t guest_run;        /* 0, or a kmod/guest run of the same suite drawn beside it */
    FILE *html;               /* NULL, or the page (bench report --html) this suite's section is added to */
    struct pb_answer *answer; /* NULL, or where the run's answer goes once the report is whole (answer.h) */
} pb_report_opts;

/* Writes <out>/<suite>.png, .svg, .md (and the .dat/.gp it drew from), all or none: made in a
 * private folder and renamed into <out> when whole, each only over a regular file or nothing
 * (out_stage.h). host and guest (may be NULL) receive the summary counts of the userspace
 * table and of the kernel-module table (zero when there is no guest run). 0; -1 + e: it failed;
 * -2 + e: --out or one of the files' places was refused (bad input). */
int pb_report_suite(pb_store *st, const pb_suite *s, const pb_report_opts *o, pb_verdict_counts *host,
                    pb_verdict_counts *guest, pb_err *e);
/* The names of the files pb_report_suite writes for s in its --out folder (the variant plots'
 * <suite>_<op>.dat, named by the data, aside), at most cap: how many. */
#define PB_REPORT_MAX_FILES 16
int pb_report_suite_files(const pb_suite *s, char (*names)[256], int cap);

/* ---- bench report over every suite (report_all.c) ---- */

/* One suite's report to write: its run, and the kernel-module run drawn beside it (0: none). */
typedef struct pb_report_job {
    const pb_suite *s;
    int64_t run, guest_run;
} pb_report_job;

#define PB_REPORT_MAX_JOBS 64
typedef struct pb_report_plan {
    char suite[64];                            /* the one suite reported, "" for all: --suite, or --run's */
    pb_report_job jobs[PB_REPORT_MAX_JOBS];    /* in the order of the suites' registry */
    int n;
} pb_report_plan;

/* What bench report reports, into plan: run (0: each suite's latest complete runs) of suite (NULL:
 * every suite with a complete run). 0; -1 + e: run is not in the store or not complete; -2 + e:
 * run is a kernel-module run and its suite has no complete userspace run to draw it beside (no
 * jobs; plan->suite is set, for the machines report that may still be written). */
int pb_report_plan_runs(pb_store *st, int64_t run, const char *suite, pb_report_plan *plan, pb_err *e);

/* The HTML page (bench report --html): made in a private folder beside it and renamed when whole
 * (out_stage.h), so that no half page is ever left at its name. */
typedef struct pb_report_page {
    FILE *f;        /* what each suite's section is added to (pb_report_opts.html); NULL when closed */
    char path[1100];
    const char *name;   /* its file name in out_dir */
    pb_stage stage;
} pb_report_page;

/* Create out_dir, start the page at path (a file of out_dir): its head and the links to the
 * sections of plan's suites. 0; -1 + e; -2 + e when out_dir or the page's place is refused. */
int pb_report_page_open(pb_report_page *p, const char *path, const char *out_dir, const pb_report_plan *plan,
                        pb_err *e);
/* Whether every fixed file name the report of plan writes in out_dir may be written (free or a
 * regular file): each suite's (pb_report_suite_files), with machines its --machines report's
 * (pb_machines_files), and the page's (page_name, or NULL). Checked before anything is written,
 * so that a refused place leaves nothing of the command behind. 0, or -1 + e (a refusal). */
int pb_report_check_places(const char *out_dir, const pb_report_plan *plan, int machines, const char *page_name,
                           pb_err *e);
/* End the page: 1 when it stands whole at its name; 0 when it was discarded because failed (the
 * report it holds is not whole); -1 + e when it could not be written (and was removed). */
int pb_report_page_close(pb_report_page *p, int failed, pb_err *e);

/* The closing lines of `bench run` for run (a complete userspace run of s): its answer (answer.h) on f
 * within width columns (0: unbounded). 0, or -1 + e. */
int pb_report_run_answer(pb_store *st, const pb_suite *s, int64_t run, const char *data_dir, FILE *f, int width,
                         pb_err *e);

/* bench run's boundary rounds (runner.h, pb_runner_opts.nearness): suite s's verdict settings
 * and document ratios, read once from data_dir (its report's). NULL + e when they cannot be read. */
typedef struct pb_report_near pb_report_near;
pb_report_near *pb_report_near_open(const pb_suite *s, const char *data_dir, pb_err *e);
/* pb_runner_opts.nearness with ctx a pb_report_near: pb_verdict_nearness on the cell's claim, the
 * document's time ratio and the suite's tolerance, as its report judges it. */
double pb_report_near_cell(void *ctx, const pb_cell *cell, double est, double lo, double hi);
void pb_report_near_close(pb_report_near *n);

/* The one way text reaches a gnuplot script: `in` as the inside of a single-quoted gnuplot
 * string, written to out (cap bytes; the quotes themselves are not added). A single quote is
 * doubled (gnuplot's escape); a backquote (gnuplot runs `...` as a shell command), a double
 * quote (names are also data-file column headers), control characters, a leading single quote
 * and two single quotes in a row (gnuplot 5.4 misparses those once doubled) are refused, not
 * mangled: -1 with the reason in e. Also -1 if out is too small. 0 on success. */
int pb_gp_quote(char *out, size_t cap, const char *in, pb_err *e);

#endif
