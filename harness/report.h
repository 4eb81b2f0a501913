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

#include "pb.h"
#include "store.h"
#include "suite.h"

typedef struct pb_report_opts {
    const char *out_dir;      /* "plots" */
    const char *data_dir;     /* where <suite>_doc.tsv lives */
    int64_t run;              /* the host run to report */
    int64_t guest_run;        /* 0, or a kmod/guest run of the same suite drawn beside it */
    FILE *html;               /* NULL, or the page (bench report --html) this suite's section is added to */
} pb_report_opts;

/* How many cells of a table got each verdict (the summary line). */
typedef struct pb_verdict_counts {
    int cells;
    int holds, size_differs, does_not_hold, inconclusive, no_claim, no_data;
    int codegen; /* cells marked "depends on code generation" */
} pb_verdict_counts;

/* Writes <out>/<suite>.png, .svg, .md (and the .dat/.gp it drew from).
 * host and guest (may be NULL) receive the summary counts of the userspace
 * table and of the kernel-module table (zero when there is no guest run). */
int pb_report_suite(pb_store *st, const pb_suite *s, const pb_report_opts *o, pb_verdict_counts *host,
                    pb_verdict_counts *guest, pb_err *e);

/* The closing line of `bench run` for run (a complete userspace run of s): the cells per verdict
 * (as pb_verdict_summary) and the smallest and largest time ratio candidate/baseline with their
 * 95 % CI and cells, into buf. 0, or -1 + e. */
int pb_report_run_summary(pb_store *st, const pb_suite *s, int64_t run, const char *data_dir, char *buf, size_t len,
                          pb_err *e);

/* "N cell(s): claim holds a; direction holds, size differs b; claim does not hold c;
 * inconclusive here d[; no claim e][; no data f]; depends on code generation g" */
void pb_verdict_summary(const pb_verdict_counts *c, char *buf, size_t len);

/* The verdict settings, from <data_dir>/verdict.tsv (lines `setting<TAB>suite<TAB>value`,
 * suite `*` = the default, a suite's own line overrides it):
 *   tolerance          t: the document's time ratio d is matched by any CI that overlaps
 *                      [d/(1+t), d*(1+t)] (multiplicative, symmetric in log space);
 *                      an "equal" claim holds when the CI lies within [1/(1+t), 1+t];
 *   codegen_threshold  c: a cell "depends on code generation" when |r_P/r - 1| > c,
 *                      r the faithful time ratio, r_P that of the same sources built with profile P.
 * A missing file leaves the built-in defaults (0.10, 0.10) and says so in `source`.
 * Returns 0, or -1 with "FILE:LINE: what" in e on a malformed line. */
typedef struct pb_verdict_cfg {
    double tolerance, codegen_threshold;
    char source[1100]; /* where the figures came from, for the report header */
} pb_verdict_cfg;
int pb_verdict_cfg_load(const char *data_dir, const char *suite, pb_verdict_cfg *cfg, pb_err *e);

/* Verdict of a claim from the 95 % CI [lo, hi] of the measured candidate/baseline
 * *time* ratio, the document's time ratio doc (NaN: the document gives no number,
 * the claim is judged on its direction only) and the tolerance t of pb_verdict_cfg:
 *   faster      "claim holds" when hi < 1 and the CI overlaps [doc/(1+t), doc*(1+t)]
 *               (any hi < 1 without a doc number); "direction holds, size differs"
 *               when hi < 1 and it does not overlap; "claim does not hold" when
 *               lo > 0.99 (not even a 1 % gain); else "inconclusive here".
 *   not slower  "claim holds" when hi <= 1+t and the CI overlaps doc's band (any
 *               hi <= 1+t without a number); "direction holds, size differs" when
 *               hi <= 1+t outside the band; "claim does not hold" when lo > 1+t.
 *   equal       "claim holds" when [lo, hi] lies within [1/(1+t), 1+t]; "claim does
 *               not hold" when it lies wholly outside; the size of "equal" is 1, so
 *               the document's own (noise) ratio is not used.
 *   none        "no claim".
 * A NaN or inverted CI, or a NaN/non-positive tolerance, is "inconclusive here". */
const char *pb_verdict(pb_claim c, double doc, double t, double lo, double hi);
/* "faster", "equal", "not slower", or "-" (no claim): the report's claim column. */
const char *pb_claim_name(pb_claim c);

/* The one way text reaches a gnuplot script: `in` as the inside of a single-quoted gnuplot
 * string, written to out (cap bytes; the quotes themselves are not added). A single quote is
 * doubled (gnuplot's escape); a backquote (gnuplot runs `...` as a shell command), a double
 * quote (names are also data-file column headers), control characters, a leading single quote
 * and two single quotes in a row (gnuplot 5.4 misparses those once doubled) are refused, not
 * mangled: -1 with the reason in e. Also -1 if out is too small. 0 on success. */
int pb_gp_quote(char *out, size_t cap, const char *in, pb_err *e);


#endif
