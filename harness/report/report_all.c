/* SPDX-License-Identifier: GPL-2.0-only */
/* report_all.c — `bench report` over every suite: which runs it reports (their reads are
 * report_data.c's), and the life of the HTML page around the suites' sections. */
#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report_data.h"
#include "report_machines.h"

/* run's suite into suite (cap bytes) and whether it is a kernel-module run; 0, or -1 + e when it
 * is not in the store or not complete (an incomplete run is never reported) */
static int run_of(pb_store *st, int64_t run, char *suite, size_t cap, int *is_guest, pb_err *e)
{
    pb_run_row r;
    int found = pb_report_run_row(st, run, &r, e);
    if (found < 0) return -1;
    if (!found) return pb_errf(e, "no run %lld in %s", (long long)run, st->path);
    if (strcmp(r.status, "complete"))
        return pb_errf(e, "run %lld is %s, not complete: it is never reported", (long long)run, r.status);
    /* a count run is no kernel-module run: it stands beside the wall-time run of its build (docs/why.md) */
    if (!strcmp(r.target, "valgrind"))
        return pb_errf(e, "run %lld is a count run (--measure valgrind): report the wall-time run of the same build, "
                       "and its counts stand beside it (docs/why.md)", (long long)run);
    snprintf(suite, cap, "%s", r.suite);
    *is_guest = strcmp(r.target, "userspace") != 0;
    return 0;
}

int pb_report_plan_runs(pb_store *st, int64_t run, const char *suite, pb_report_plan *plan, pb_err *e)
{
    memset(plan, 0, sizeof *plan);
    int run_is_guest = 0;
    if (suite) snprintf(plan->suite, sizeof plan->suite, "%s", suite);
    if (run && run_of(st, run, plan->suite, sizeof plan->suite, &run_is_guest, e) < 0) return -1;
    for (int i = 0; pb_suites[i] && plan->n < PB_REPORT_MAX_JOBS; i++) {
        const pb_suite *s = pb_suites[i];
        if (*plan->suite && strcmp(s->name, plan->suite)) continue;
        pb_report_job j = {.s = s};
        if (run && !run_is_guest) j.run = run;
        else if (pb_report_latest_run(st, s->name, 0, &j.run, e) < 0) return -1;
        /* kernel-module rows only for a suite that declares a kernel-module part */
        if (!s->kmod_impls) j.guest_run = 0;
        else if (run && run_is_guest) j.guest_run = run;
        else if (pb_report_latest_run(st, s->name, 1, &j.guest_run, e) < 0) return -1;
        if (!j.run && run) {
            pb_errf(e, "run %lld is a kernel-module run; it is drawn beside a userspace run of %s, and there is none "
                    "yet (bench run --suite %s)", (long long)run, s->name, s->name);
            return -2;
        }
        if (!j.run) continue;
        if (j.guest_run == j.run) j.guest_run = 0;
        plan->jobs[plan->n++] = j;
    }
    return 0;
}

int pb_report_check_places(const char *out_dir, const pb_report_plan *plan, int machines, const char *page_name,
                           pb_err *e)
{
    struct stat sb;
    if (out_dir && *out_dir && strcmp(out_dir, "-") && stat(out_dir, &sb) != 0 && errno == ENOENT)
        return 0;   /* a folder still to be made: every place in it is free */
    pb_stage chk;
    if (pb_stage_open(&chk, out_dir, "--out", 0, e) < 0) return -1;
    char names[PB_REPORT_MAX_FILES][256];
    int rc = page_name ? pb_stage_check(&chk, page_name, e) : 0;
    for (int i = 0; rc == 0 && i < plan->n; i++) {
        int n = pb_report_suite_files(plan->jobs[i].s, names, PB_REPORT_MAX_FILES);
        for (int k = 0; rc == 0 && k < n; k++) rc = pb_stage_check(&chk, names[k], e);
    }
    /* the machines report covers --suite's suite, or every suite */
    for (int i = 0; machines && rc == 0 && pb_suites[i]; i++) {
        if (*plan->suite && strcmp(pb_suites[i]->name, plan->suite)) continue;
        pb_machines_files(pb_suites[i], names);
        for (int k = 0; rc == 0 && k < PB_MACHINES_FILES; k++) rc = pb_stage_check(&chk, names[k], e);
    }
    pb_stage_close(&chk);
    return rc;
}

int pb_report_page_open(pb_report_page *p, const char *path, const char *out_dir, const pb_report_plan *plan,
                        pb_err *e)
{
    p->f = NULL;
    snprintf(p->path, sizeof p->path, "%s", path);
    const char *slash = strrchr(p->path, '/');
    p->name = slash ? slash + 1 : p->path;
    if (pb_stage_open(&p->stage, out_dir, "--out", PB_STAGE_MKDIR, e) < 0) return -2;
    p->f = pb_stage_fopen(&p->stage, p->name, e);
    if (!p->f) {
        int refused = p->stage.refused;
        pb_stage_close(&p->stage);
        return refused ? -2 : -1;
    }
    /* the links name every suite before its first section */
    const char *names[PB_REPORT_MAX_JOBS];
    for (int i = 0; i < plan->n; i++) names[i] = plan->jobs[i].s->name;
    pb_report_html_begin(p->f, "patchbench report");
    pb_report_html_nav(p->f, names, plan->n);
    return 0;
}

int pb_report_page_close(pb_report_page *p, int failed, pb_err *e)
{
    pb_report_html_end(p->f);
    pb_err ce = {{0}};
    int rc = pb_stage_fclose(&p->stage, p->f, p->name, &ce);
    p->f = NULL;
    if (rc == 0 && !failed) rc = pb_stage_commit(&p->stage, &ce);
    pb_stage_close(&p->stage);   /* a page not renamed into place goes with the private folder */
    if (rc < 0 || failed) return failed ? 0 : pb_errf(e, "%s", ce.msg);
    return 1;
}
