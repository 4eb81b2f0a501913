/* SPDX-License-Identifier: GPL-2.0-only */
/* report.c — `bench report` for one suite: load its data once (report_data.c), count its verdicts,
 * then run every format of the render table that a suite's report writes (render.h). */
#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fmt.h"
#include "metrics.h"
#include "answer.h"
#include "report_data.h"

/* the figures named as the markdown links them and the page inlines them */
static void figures_of(const char *suite, pb_report_figures *fig)
{
    snprintf(fig->ratio_png, sizeof fig->ratio_png, "%s_ratio.png", suite);
    snprintf(fig->ratio_svg, sizeof fig->ratio_svg, "%s_ratio.svg", suite);
    snprintf(fig->png, sizeof fig->png, "%s.png", suite);
    snprintf(fig->svg, sizeof fig->svg, "%s.svg", suite);
    snprintf(fig->gp, sizeof fig->gp, "%s.gp", suite);
    snprintf(fig->dat, sizeof fig->dat, "%s.dat", suite);
    snprintf(fig->ratio_dat, sizeof fig->ratio_dat, "%s_ratio.dat", suite);
    snprintf(fig->log, sizeof fig->log, "%s.gnuplot.log", suite);
}

int pb_report_suite_files(const pb_suite *s, char (*names)[256], int cap)
{
    pb_report_figures fig;
    figures_of(s->name, &fig);
    const char *const fixed[] = {fig.ratio_png, fig.ratio_svg, fig.png, fig.svg, fig.gp, fig.dat, fig.ratio_dat, fig.log};
    int n = 0;
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0] && n < cap; i++) snprintf(names[n++], 256, "%s", fixed[i]);
    for (const pb_renderer *r = pb_renderers; r->name && n < cap; r++)
        if (r->kind == PB_RENDER_SUITE) pb_renderer_file(r, s->name, names[n++], 256);
    return n;
}

void pb_report_count(const pb_report_data *d, const pb_suite *s, const pb_verdict_cfg *cfg, pb_verdict_counts *host,
                     pb_verdict_counts *guest)
{
    pb_table_writer count_only = {.f = NULL};
    pb_report_table(&count_only, d, s, d->run, 0, cfg, host);
    if (d->guest_run && guest) pb_report_table(&count_only, d, s, d->guest_run, 1, cfg, guest);
}

int pb_report_suite(pb_store *st, const pb_suite *s, const pb_report_opts *o, pb_verdict_counts *host,
                    pb_verdict_counts *guest, pb_err *e)
{
    /* kernel-module rows only for a suite that declares a kernel-module part (suite.h) */
    const int64_t guest_run = s->kmod_impls ? o->guest_run : 0;
    pb_run_roles roles;
    s = pb_report_suite_of_run(st, s, o->run, &roles);
    pb_verdict_counts host_n, guest_n;
    if (!host) host = &host_n;
    if (!guest) guest = &guest_n;
    memset(host, 0, sizeof *host);
    memset(guest, 0, sizeof *guest);
    pb_verdict_cfg cfg;
    if (pb_verdict_cfg_load(o->data_dir, s->name, &cfg, e) < 0) return -1;
    char gnuplot[1100];
    if (!pb_report_find_gnuplot(gnuplot, sizeof gnuplot))
        return pb_errf(e, "gnuplot not found on PATH: install it (Debian: apt-get install gnuplot-nox)");
    pb_report_data d;
    if (pb_report_data_load(st, s, o->run, guest_run, o->data_dir, &d, e) < 0) return -1;
    /* every file of the suite is made in a private folder and renamed into --out only when all
     * are whole: a failed or refused report leaves the folder as it was (out_stage.h) */
    pb_stage stage;
    if (pb_stage_open(&stage, o->out_dir, "--out", PB_STAGE_MKDIR, e) < 0) {
        pb_report_data_free(&d);
        return -2;
    }
    pb_report_figures fig;
    figures_of(s->name, &fig);
    pb_report_count(&d, s, &cfg, host, guest);
    pb_answer answer;
    pb_answer_of(&answer, &d, s, &cfg, host);
    const pb_render_in in = {.s = s, .d = &d, .cfg = &cfg, .figures = &fig, .stage = &stage,
                             .gnuplot = gnuplot, .host = host, .guest = guest, .answer = &answer};
    int rc = 0;
    /* every file's place checked before anything is drawn, so that a refusal costs no gnuplot run */
    char names[PB_REPORT_MAX_FILES][256];
    int nnames = pb_report_suite_files(s, names, PB_REPORT_MAX_FILES);
    for (int i = 0; rc == 0 && i < nnames; i++) rc = pb_stage_check(&stage, names[i], e);
    for (const pb_renderer *r = pb_renderers; rc == 0 && r->name; r++) {
        char name[256];
        pb_render_out out = {.f = NULL, .name = NULL};
        if (r->kind == PB_RENDER_SUITE) {
            pb_renderer_file(r, s->name, name, sizeof name);
            out.name = name;
        } else if (r->kind == PB_RENDER_PAGE && o->html) {
            out.f = o->html;
        } else {
            continue;
        }
        rc = r->render(&out, &in, e);
    }
    if (rc == 0) rc = pb_stage_commit(&stage, e);
    if (rc == 0 && o->answer) *o->answer = answer;
    if (rc < 0 && stage.refused) rc = -2;
    pb_stage_close(&stage);
    pb_report_data_free(&d);
    return rc;
}

int pb_report_run_answer(pb_store *st, const pb_suite *s, int64_t run, const char *data_dir, FILE *f, int width,
                         pb_err *e)
{
    pb_run_roles roles;
    s = pb_report_suite_of_run(st, s, run, &roles);
    pb_verdict_cfg cfg;
    if (pb_verdict_cfg_load(data_dir, s->name, &cfg, e) < 0) return -1;
    pb_report_data d;
    if (pb_report_data_load(st, s, run, 0, data_dir, &d, e) < 0) return -1;
    pb_verdict_counts n;
    memset(&n, 0, sizeof n);
    pb_report_count(&d, s, &cfg, &n, NULL);
    pb_answer a;
    pb_answer_of(&a, &d, s, &cfg, &n);
    pb_report_data_free(&d);
    pb_answer_print(f, &a, width);
    return 0;
}
