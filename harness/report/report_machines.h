/* SPDX-License-Identifier: GPL-2.0-only */
/* report_machines.h — `bench report --machines all|ID,...`: one suite's claim ratio per cell on
 * every machine and configuration side by side, grouped by CPU identity (vendor, family, model,
 * stepping; docs/fleet.md). */
#ifndef PB_REPORT_MACHINES_H
#define PB_REPORT_MACHINES_H

#include <stdio.h>

#include "out_stage.h"
#include "pb.h"
#include "store.h"
#include "suite.h"

typedef struct pb_machines_opts {
    const char *machines;  /* "all", or machine ids (runs.machine_id, or a prefix of one), comma-separated */
    const char *out_dir;
    const char *data_dir;
    FILE *html;            /* NULL, or the page its section is added to */
} pb_machines_opts;

/* Is spec a valid --machines value ("all" or non-empty comma-separated ids)? 0, or -1 + e. */
int pb_machines_check(const char *spec, pb_err *e);

/* <out>/<suite>_machines.md, .png, .svg (and the .dat/.gp they were drawn from), and the page's
 * section when o->html: one column per configuration (machine, target, CPU affinity when recorded,
 * code-generation profile), from the newest complete run of each, all renamed into out_dir when
 * whole (out_stage.h). Returns 1 and the number of columns in *ncols when written, 0 when no
 * complete run of s matched, -1 + e (nothing left behind), -2 + e when out_dir or one of the
 * files' places was refused (bad input). */
int pb_report_machines(pb_store *st, const pb_suite *s, const pb_machines_opts *o, int *ncols, pb_err *e);

/* The names of the files pb_report_machines writes for s in out_dir (PB_MACHINES_FILES of them). */
#define PB_MACHINES_FILES 6
void pb_machines_files(const pb_suite *s, char (*names)[256]);

/* report_html.c: gnuplot's SVG file name, staged in st, inlined into f (refused when it holds a
 * script). 0, or -1 + e. */
int pb_report_html_svg(FILE *f, const pb_stage *st, const char *name, pb_err *e);

#endif
