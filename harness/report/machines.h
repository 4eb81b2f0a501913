/* SPDX-License-Identifier: GPL-2.0-only */
/* machines.h — inside the per-machine report (report_machines.c: its columns and cells;
 * machines_table.c: its words; machines_plot.c: its figure): what the three share. */
#ifndef PB_MACHINES_H
#define PB_MACHINES_H

#include <stdint.h>

#include "out_stage.h"
#include "report_data.h"
#include "report_machines.h"

#define MAXCOL 32
#define MAXCELLS 512

typedef struct mcol {
    int64_t run;
    char machine[128], target[64], affinity[128], cpu[256], started[40], host[256];
    /* what tells CPU generations apart, "AuthenticAMD family 25 model 1 stepping 1" (identity.h), or
     * "" where the run recorded none (before schema 5): part of the configuration and the group */
    char ident[160];
    pb_cpu_identity id;
    char ident_words[600];                  /* the whole identity in words, for the list of columns */
    char pin[64];                           /* "cpu N" when the run was pinned, else "" (pin_key) */
    char profile[PB_NAME_MAX];              /* "" faithful build, else P */
    char base[2 * PB_NAME_MAX], cand[2 * PB_NAME_MAX];
    int real;                               /* the run holds the real code's pair (a faithful column only) */
    const char *real_base, *real_cand;      /* that pair (pb_report_real_of), the suite's names */
    int guest;                              /* a kernel-module column (target not userspace) */
    char label[600];
    int older;                              /* older complete runs of this configuration, not shown */
    char older_ids[128];
    int group;                              /* index of its CPU model among the columns' */
    pb_report_data d;
    pb_verdict_counts n;
} mcol;

typedef struct mcell {
    char variant[PB_NAME_MAX], op[PB_NAME_MAX];
    int64_t size;
} mcell;

typedef struct mreport {
    const pb_suite *s;
    mcol *c;
    int nc;
    mcell cells[MAXCELLS];
    int ncells;
    char v[MAXV][PB_NAME_MAX], o[MAXV][PB_NAME_MAX];
    int nv, no;
    int64_t sizes[64];
    int ns;
    pb_verdict_cfg cfg;
} mreport;

/* the suite's files, by name in the report's private folder and in --out (out_stage.h) */
typedef struct mpaths {
    char md[256], png[256], svg[256], dat[256], gp[256], log[256];
} mpaths;

/* The document's time ratio candidate/baseline of a cell, NaN if it gives none. */
double pb_machines_doc_ratio(const mreport *m, const char *variant, const char *op, int64_t size);
/* The suite's claim for cell x, whose document ratio is dt. */
pb_claim pb_machines_claim(const mreport *m, const mcell *x, double dt);
/* Does any column hold the real code's pair? */
int pb_machines_any_real(const mreport *m);
/* column c's real-code ratio of cell x: 1 and *r, or 0 */
int pb_machines_real_ratio(const mcol *c, const mcell *x, ratio *r);

/* machines_plot.c: the figure, its data and script staged in st, drawn by gnuplot. 0, or -1 + e. */
int pb_machines_draw(const mreport *m, const mpaths *p, pb_stage *st, pb_err *e);
/* machines_table.c: the markdown file, staged in st; the page's section, to f. 0, or -1 + e. */
int pb_machines_write_md(const mreport *m, const mpaths *p, pb_stage *st, pb_err *e);
int pb_machines_write_html(FILE *f, const mreport *m, const mpaths *p, const pb_stage *st, pb_err *e);

#endif
