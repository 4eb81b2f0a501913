/* report.h — plots (gnuplot, PNG + SVG) and a markdown verdict table per suite.
 *
 * Everything comes from the store (the `summary` view and the ratios of
 * complete runs) and from the document's own table, kept as data in
 * data/<suite>_doc.tsv. Layout is driven by the suite's plot_x only. */
#ifndef PB_REPORT_H
#define PB_REPORT_H

#include <stdint.h>

#include "pb.h"
#include "store.h"
#include "suite.h"

typedef struct pb_report_opts {
    const char *out_dir;      /* "plots" */
    const char *data_dir;     /* where <suite>_doc.tsv lives */
    int64_t run;              /* the host run to report */
    int64_t guest_run;        /* 0, or a kmod/guest run of the same suite drawn beside it */
} pb_report_opts;

/* Writes <out>/<suite>.png, .svg, .md (and the .dat/.gp it drew from). */
int pb_report_suite(pb_store *st, const pb_suite *s, const pb_report_opts *o, pb_err *e);

/* Verdict of a claim given the candidate/baseline *time* ratio CI. */
const char *pb_verdict(pb_claim c, double lo, double hi);

#endif
