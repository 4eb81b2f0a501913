/* report.h — plots (gnuplot, PNG + SVG) and a markdown verdict table per suite.
 *
 * Everything comes from the store (the `summary` view and the ratios of
 * complete runs) and from the document's own table, kept as data in
 * data/<suite>_doc.tsv. Layout is driven by the suite's plot_x only. */
#ifndef PB_REPORT_H
#define PB_REPORT_H

#include <stddef.h>
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

/* The one way text reaches a gnuplot script: `in` as the inside of a single-quoted gnuplot
 * string, written to out (cap bytes; the quotes themselves are not added). A single quote is
 * doubled (gnuplot's escape); a backquote (gnuplot runs `...` as a shell command), a double
 * quote (names are also data-file column headers), control characters, a leading single quote
 * and two single quotes in a row (gnuplot 5.4 misparses those once doubled) are refused, not
 * mangled: -1 with the reason in e. Also -1 if out is too small. 0 on success. */
int pb_gp_quote(char *out, size_t cap, const char *in, pb_err *e);

/* Verdict of a claim given the candidate/baseline *time* ratio CI. */
const char *pb_verdict(pb_claim c, double lo, double hi);

#endif
