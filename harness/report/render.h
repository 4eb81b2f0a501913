/* SPDX-License-Identifier: GPL-2.0-only */
/* render.h — every format the report floor writes, in one table (render.c): the files `bench
 * report` writes for each suite, the section it adds to the HTML page, and what `bench export
 * --format` writes. One entry per format (its name, the suffix of its file, the function that
 * writes it), all behind one interface: a new format is one renderer and one entry, in this folder.
 * The gate floor's formats (`bench gate --format`) are a table of the same shape (gate.h). */
#ifndef PB_RENDER_H
#define PB_RENDER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "out_stage.h"
#include "pb.h"
#include "store.h"
#include "suite.h"
#include "verdict.h"

struct pb_report_data;
struct pb_report_figures;

/* Which command writes a format, and where to. */
typedef enum pb_render_kind {
    PB_RENDER_SUITE,    /* bench report, every suite: the file <suite><suffix>, which it creates in the stage */
    PB_RENDER_PAGE,     /* bench report --html, every suite: its section of the open page */
    PB_RENDER_EXPORT,   /* bench export --format NAME: the runs' statistics, into an open stream */
} pb_render_kind;

/* What a renderer reads; each kind fills its part. */
typedef struct pb_render_in {
    /* PB_RENDER_SUITE, PB_RENDER_PAGE: one suite's report, its verdicts counted beforehand */
    const pb_suite *s;
    const struct pb_report_data *d;
    const pb_verdict_cfg *cfg;
    const struct pb_report_figures *figures;   /* drawn by "gnuplot", which comes first */
    pb_stage *stage;                           /* where every file is made, renamed into --out when all are
                                                  whole (out_stage.h) */
    const char *gnuplot;                       /* gnuplot's path */
    const pb_verdict_counts *host, *guest;     /* of the userspace and the kernel-module tables */
    const struct pb_answer *answer;            /* the userspace table's in one line (answer.h) */
    /* PB_RENDER_EXPORT: the runs */
    pb_store *st;
    const int64_t *ids;
    int nids;
    int full;                                  /* json: every row of the runs too (export_full.c) */
} pb_render_in;

/* Where a renderer writes: PB_RENDER_SUITE the file name, which it makes in in->stage (f NULL); the
 * others f (name NULL). */
typedef struct pb_render_out {
    FILE *f;
    const char *name;
    int gzip;   /* json only: the document gzip-compressed into f (bench export --out FILE.gz) */
} pb_render_out;

typedef struct pb_renderer {
    const char *name;      /* what --format and messages call it */
    const char *suffix;    /* its file's: <out>/<suite><suffix> for PB_RENDER_SUITE */
    pb_render_kind kind;
    /* 0, or -1 + e (a failed write included); when any renderer fails, every file of the suite's
     * stage is dropped (pb_report_suite), so that none passes for a whole report */
    int (*render)(const pb_render_out *out, const pb_render_in *in, pb_err *e);
    /* what `bench report`'s line names of the files written, after "<out>/<suite>"; NULL: suffix */
    const char *const *listed;
} pb_renderer;

/* The table, in the order bench report runs it (the figures first: the others show them); ended
 * by an entry with name NULL. */
extern const pb_renderer pb_renderers[];

/* The entry of kind named name; NULL if none. */
const pb_renderer *pb_renderer_find(pb_render_kind kind, const char *name);
/* The names of kind's entries for a message, "a, b or c", into buf. */
void pb_renderer_names(pb_render_kind kind, char *buf, size_t cap);
/* names[0..n) as a message lists them, "a, b or c", into buf (any table of formats: the gate's too). */
void pb_render_join_names(const char *const *names, size_t n, char *buf, size_t cap);
/* A PB_RENDER_SUITE entry's file name for suite: <suite><suffix>, into buf. */
void pb_renderer_file(const pb_renderer *r, const char *suite, char *buf, size_t cap);
/* What bench report wrote for suite in out_dir: "<out>/<suite>_ratio.png (.svg), ..., <out>/<suite>.md". */
void pb_renderer_listed(const char *out_dir, const char *suite, char *buf, size_t cap);

/* The renderers of the table, by kind (call them through it). */
int pb_render_plots(const pb_render_out *out, const pb_render_in *in, pb_err *e);      /* report_gnuplot.c */
int pb_render_markdown(const pb_render_out *out, const pb_render_in *in, pb_err *e);   /* report_md.c */
int pb_render_html(const pb_render_out *out, const pb_render_in *in, pb_err *e);       /* report_html.c */
int pb_render_json(const pb_render_out *out, const pb_render_in *in, pb_err *e);       /* export.c */
int pb_render_csv(const pb_render_out *out, const pb_render_in *in, pb_err *e);        /* export.c */
int pb_render_gbench(const pb_render_out *out, const pb_render_in *in, pb_err *e);     /* export.c */

#endif
