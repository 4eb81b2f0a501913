/* SPDX-License-Identifier: GPL-2.0-only */
/* report_data.h — inside report/ (not for other layers): the data of one suite's report, loaded
 * once by report_data.c (where all of report/'s SQL is, the reads of export, history and the
 * per-machine report too), its lookups (report_cells.c), and the renderers that draw it:
 * report_gnuplot.c (plots), table.c (the one table writer), report_md.c and report_html.c (the
 * pages). report.c runs them through the render table (render.h). */
#ifndef PB_REPORT_DATA_H
#define PB_REPORT_DATA_H

#include <stdint.h>
#include <stdio.h>

#include "decompose.h"
#include "export.h"
#include "reads.h"
#include "render.h"
#include "report.h"

typedef struct row {
    char impl[PB_NAME_MAX], variant[PB_NAME_MAX], op[PB_NAME_MAX];
    int64_t size;
    double median, p10, p90;
    int guest;
} row;

typedef struct rows {
    row *v;
    int n, cap;
} rows;

/* a new zeroed row at the end of r; NULL when out of memory */
row *pb_report_push(rows *r);

typedef struct ratio {
    double est, lo, hi, p;
    int n;
    int layouts;                 /* code layouts it was estimated across (1: one) */
    double layout_lo, layout_hi; /* the smallest and largest per-layout ratio; NaN with one layout */
    int shared;                  /* of its n pairs, how many had a sample on a shared core (0: none, or not known) */
} ratio;


/* One stored ratio of a run (table ratios). */
typedef struct ratio_row {
    int64_t run;
    char metric[PB_NAME_MAX], base[2 * PB_NAME_MAX], cand[2 * PB_NAME_MAX], variant[PB_NAME_MAX], op[PB_NAME_MAX];
    int64_t size;
    ratio r;
} ratio_row;

/* One case's wall time per operation over all of its stored samples (export.h), where its sample is
 * a whole process (suite.sample_words: exec, gbench): hyperfine's mean ± σ, min … max and CPU time. */
typedef struct spread_row {
    char impl[PB_NAME_MAX], variant[PB_NAME_MAX], op[PB_NAME_MAX];
    int64_t size;
    pb_time_spread sp;
} spread_row;

/* A case set up as unavailable (op "-": every op of the variant), and why (the store's words). */
typedef struct unavail_row {
    int64_t run;
    char impl[PB_NAME_MAX], variant[PB_NAME_MAX], op[PB_NAME_MAX];
    char reason[512];
} unavail_row;

/* One line of "Unavailable here": an impl, the cells, the reason (malloc'd). */
typedef struct note_row {
    int64_t run;
    char *impl, *cells, *reason;
} note_row;

/* A run's header fields, in the order run_header prints them (malloc'd, NULL where absent). */
#define RUN_INFO_COLS 24
#define RUN_INFO_CPU_MODEL 4 /* runs.cpu_model: "AMD EPYC 7763 64-Core Processor" */
#define RUN_INFO_NOISE 21    /* runs.noise: the run's noise warnings, NULL if none */
#define RUN_INFO_IDENTITY 22 /* the CPU identity in words (pb_cpu_identity_describe) */
#define RUN_INFO_PARITY 23   /* runs.build_parity: how the timed builds differ, NULL if alike */
typedef struct run_info {
    int64_t run;
    int have;
    char *col[RUN_INFO_COLS];
} run_info;

typedef struct pb_report_data {
    int64_t run, guest_run;        /* guest_run 0: no kernel-module rows */
    rows m;                        /* measured medians of both runs (row.guest tells which) */
    rows t;                        /* their ns per op, for the per-item columns: a suite with items only */
    rows doc;                      /* data/<suite>_doc.tsv in the primary metric */
    ratio_row *ratios;
    size_t nratios;
    unavail_row *unavail;
    size_t nunavail;
    note_row *notes;
    size_t nnotes;
    spread_row *spreads;           /* of run (not guest_run), only for a suite whose sample is a process */
    size_t nspreads;
    run_info info[2];              /* [0] the run, [1] the kernel-module run */
    pb_run_sides sides;            /* whose code run timed, one per side (store.h); n 0: the lab's own */
    int64_t count_run;             /* the run itself where it is a count run, else the suite's latest; 0: none */
    pb_fn_row *fns;                /* its per-function rows (fn_diff.h), case by case */
    size_t nfns;
    pb_decomp_set decomp;          /* run's time ratios against a count run of its build (decompose.h); count_run 0: none */
} pb_report_data;

/* Everything the report of suite s draws from: run (and guest_run, 0 for none) in metric, the
 * document rows from data_dir. 0, or -1 + e (nothing to free then). */
int pb_report_data_load(pb_store *st, const pb_suite *s, int64_t run, int64_t guest_run, const char *data_dir,
                        pb_report_data *d, pb_err *e);
void pb_report_data_free(pb_report_data *d);

/* The stored ratio cand/base of a cell of run in metric: 1 and *r, or 0. */
int pb_report_ratio(const pb_report_data *d, int64_t run, const char *metric, const char *base, const char *cand,
                    const char *variant, const char *op, int64_t size, ratio *r);
/* The suite's claim for the cell (variant, op, size) whose document time ratio is dt (NaN: none). */
pb_claim pb_report_claim(const pb_suite *s, const char *variant, const char *op, int64_t size, double dt);

/* The real code's pair of a table, when the suite names one (suite.h): the userspace table's
 * real_candidate/real_baseline, the kernel-module table's (guest) kmod_candidate/kmod_real. 1 and
 * *base, *cand, or 0. */
int pb_report_real_pair(const pb_suite *s, int guest, const char **base, const char **cand);
/* The suite as run `run` was made: s, or a copy of it in *named whose baseline and candidate are the
 * run's stored ones (runs.baseline, candidate), where the user named the impls (exec --cmd NAME=CMD)
 * and they differ from the suite's; the copy makes no claim (the document's is about the suite's
 * pair): its cells are a user's A/B. names holds the copy's two strings. */
typedef struct pb_run_roles {
    pb_suite named;
    char base[PB_NAME_MAX], cand[PB_NAME_MAX];
} pb_run_roles;
const pb_suite *pb_report_suite_of_run(pb_store *st, const pb_suite *s, int64_t run, pb_run_roles *r);
/* The real code's pair of run's table (guest: its kernel-module rows) when the run stored a time
 * ratio of it in some cell: 1 and *base, *cand, or 0 (the table then stays as it was). */
int pb_report_real_of(const pb_report_data *d, const pb_suite *s, int64_t run, int guest, const char **base,
                      const char **cand);
/* The verdict of claim c on a stored ratio r (pb_verdict_of_pairs: none where most of its pairs ran
 * on a shared core), the document's time ratio dt and tolerance t: every report's verdicts. */
const char *pb_report_verdict(pb_claim c, double dt, double t, const ratio *r);
/* What a table shows for verdict v of the stored ratio r (NULL: none): v itself, or for a cell without a
 * claim ("no claim") a user's A/B in words, "faster by 32 % [30 %, 34 %]" (pb_verdict_ab_words, into
 * buf). *look (may be NULL): the string pb_verdict_look_of colours it by. */
const char *pb_report_verdict_words(const char *v, const ratio *r, const char **look, char *buf, size_t cap);
/* Does a cell differ from the real code (pb_verdict_apart with threshold c)? The userspace table
 * compares the re-implementation's ratio reimpl (have: it exists) with the real code's, real; the
 * kernel-module table (guest) the ratio kmod_candidate/kmod_real, real, with 1 (the same cost). */
int pb_report_real_differs(int guest, int have, const ratio *reimpl, const ratio *real, double c);

/* What run's real-code column is, where its table has one (pb_report_real_of): open, "the run also
 * timed CAND against BASE, ...", how its mark is decided, close, to f; every text but open and
 * close through esc (the output language's quoting function: text_out.h, html.h). Nothing else. */
void pb_report_real_legend(FILE *f, const pb_report_data *d, const pb_suite *s, int64_t run, int guest,
                           const pb_verdict_cfg *cfg, void (*esc)(FILE *, const char *), const char *open,
                           const char *close);

/* Was impl's case of (variant, op) in run set up as unavailable? */
int pb_report_unavailable(const pb_report_data *d, int64_t run, const char *impl, const char *variant,
                          const char *op);
/* Why impl has nothing in (variant, op) of run, for the figures' notes on a missing line: the
 * reason the store has for its unavailable case, else "no result in run N", into buf. */
const char *pb_report_missing_reason(const pb_report_data *d, int64_t run, const char *impl, const char *variant,
                                     const char *op, char *buf, size_t cap);

/* ---- report/'s other reads (report_data.c): text valid until each returns ---- */

/* The newest complete run of suite: userspace (guest 0) or a kernel-module run (guest 1; a count run,
 * target valgrind, is neither), in *id (0: none). 0, or -1 + e ("PATH: cannot read the store: ...") when the store cannot be read. */
int pb_report_latest_run(pb_store *st, const char *suite, int guest, int64_t *id, pb_err *e);
/* pb_store_run_row with the same words for a store that cannot be read: 1, 0 (no such run), -1 + e. */
int pb_report_run_row(pb_store *st, int64_t run, pb_run_row *r, pb_err *e);

/* One row of the summary view: a case's statistics in one metric ("" for NULL text). */
typedef struct pb_stat_row {
    int64_t run;
    const char *suite, *impl, *variant, *op;
    int64_t size;
    const char *metric, *unit;
    int64_t n;
    double median, p10, p90;
} pb_stat_row;
/* Every row of the summary of runs ids[0..n), run by run, each run's by suite, variant, op, size,
 * impl and metric, to each. 0, or -1 when a run's rows cannot be read (those before were handed on). */
int pb_report_each_stat(pb_store *st, const int64_t *ids, int n, void (*each)(void *ctx, const pb_stat_row *r),
                        void *ctx);
/* One stored ratio of a complete run, as the export lists it (NULL text ""; NULL numbers 0, but
 * layout_lo/hi NaN: one layout). */
typedef struct pb_export_ratio {
    int64_t run;
    const char *suite, *variant, *op;
    int64_t size;
    const char *metric, *baseline, *candidate;
    double estimate, ci_lo, ci_hi, p_value;
    int64_t n_pairs, layouts;
    double layout_lo, layout_hi;
} pb_export_ratio;
/* Every ratio of run, in the order stored, to each: 0, or -1 where they cannot be read. */
int pb_report_each_export_ratio(pb_store *st, int64_t run, void (*each)(void *ctx, const pb_export_ratio *r),
                                void *ctx);

/* One run's median of a cell in `bench history`'s series ("?" for a machine or commit not known). */
typedef struct pb_history_row {
    const char *machine, *variant, *op;
    int64_t size, run;
    const char *git, *started, *user;   /* git: the commit's first 12; user: the user's label or revision, or "" */
    double median;
} pb_history_row;
/* The rows of impl in metric of suite's complete runs of target (userspace; valgrind for a count
 * of --measure valgrind), ordered by machine and cell, then in run order: *q to read with
 * pb_report_history_next and free with pb_db_finalize. 0, or -1 + e ("PATH: the database's words"). */
int pb_report_history_rows(pb_store *st, const char *suite, const char *impl, const char *metric, const char *target,
                           pb_stmt **q, pb_err *e);
/* The next row into *r: 1, 0 after the last, -1 + e (the database's words). */
int pb_report_history_next(pb_store *st, pb_stmt *q, pb_history_row *r, pb_err *e);
/* Every complete userspace or valgrind run of suite by id: its commit, the user's revision and the user's
 * repository ("" where NULL), to each until it returns non-zero. 0, each's value, or -1 + e. */
int pb_report_each_run_rev(pb_store *st, const char *suite,
                           int (*each)(void *ctx, int64_t run, const char *git, const char *user, const char *repo),
                           void *ctx, pb_err *e);

/* A complete run of suite as the per-machine report groups it ("" for NULL). */
typedef struct pb_machine_run {
    int64_t run;
    const char *machine, *target, *affinity, *cpu, *started, *host;
} pb_machine_run;
/* Every complete run of suite, newest first, to each until it returns non-zero: 0, each's value, or
 * -1 + e ("PATH: the database's words"). */
int pb_report_each_machine_run(pb_store *st, const char *suite, int (*each)(void *ctx, const pb_machine_run *r),
                               void *ctx, pb_err *e);
/* Every pair (baseline, candidate) that run has a ratio of in metric, in name order, to each until it
 * returns non-zero: 0, each's value, or -1 + e ("PATH: reading ratios: ..."). */
int pb_report_each_ratio_pair(pb_store *st, int64_t run, const char *metric,
                              int (*each)(void *ctx, const char *base, const char *cand), void *ctx, pb_err *e);

#define MAXV 32
typedef struct axes {
    int nv, no, ni;
    char v[MAXV][PB_NAME_MAX], o[MAXV][PB_NAME_MAX], impl[MAXV][PB_NAME_MAX];
    int64_t sizes[64];
    int ns;
} axes;
int pb_report_index_of(char list[][PB_NAME_MAX], int n, const char *s);
void pb_report_add_unique(char list[][PB_NAME_MAX], int *n, const char *s);
/* variants, ops, impls and sizes (ascending) of m */
void pb_report_axes(const rows *m, axes *a);
/* the row of (impl, variant, op, size); size < 0 or a row of size 0: any size */
const row *pb_report_find(const rows *r, const char *impl, const char *variant, const char *op, int64_t size);

/* The document's time ratio candidate/baseline of a cell (size < 0: any size), NaN if it gives none. */
double pb_report_doc_time(const pb_suite *s, const rows *doc, const char *variant, const char *op, int64_t size);

/* The figures of one suite's report, drawn by report_gnuplot.c: the time ratios (what the finding
 * is) and the absolute medians, each as PNG and SVG (the page inlines the SVG), and the script,
 * data and log they come from. Names of files in the report's private folder (render.h's
 * pb_render_in.stage), the same in the --out folder. */
typedef struct pb_report_figures {
    char ratio_png[256], ratio_svg[256], png[256], svg[256];
    char gp[256], dat[256], ratio_dat[256], log[256];
} pb_report_figures;

/* report_gnuplot.c: gnuplot's path on PATH (0: none). Its renderer, pb_render_plots (render.h),
 * draws d's figures as png and svg (every name checked before anything is written): the time ratio
 * of every impl against the baseline (and X@P against baseline@P) with its 95 % CI beside the
 * document's ratio and its tolerance band, then the absolute medians. */
int pb_report_find_gnuplot(char *path, size_t cap);
/* Quote one name or path for a gnuplot string (see pb_gp_quote), into one of four rotating
 * buffers (so up to four may sit in one fprintf); on refusal an empty string, bad set and the
 * first reason kept in err, so that script writers stay simple and their caller refuses the
 * whole figure. Start from a zeroed pb_gpq. */
typedef struct pb_gpq {
    char buf[4][2200];
    int next;
    pb_err err;
    int bad;
} pb_gpq;
const char *pb_gpq_text(pb_gpq *g, const char *in);
/* Run `GNUPLOT ./SCRIPT` in the private folder st (out_stage.h), where SCRIPT and everything it
 * names are files of st, with stdin from /dev/null and stderr into LOG, staged too; no shell, the
 * script is one argument. 0 if gnuplot exited 0, else -1 with the exit status and the log's path
 * in e, the log renamed into the --out folder to be read (the figures are not). */
int pb_report_run_gnuplot(const char *gnuplot, pb_stage *st, const char *script, const char *log, pb_err *e);

/* fig_axes.c: the tics of a time-ratio axis (log 2) between lo and hi (0, 0: not known), as
 * fractions and decimals (1/4, 0.8), never 0.015625; and for a metric in ns whose values reach hi,
 * the divisor and unit (s, ms, µs, ns) to draw them in (1 and NULL: not a time in ns). */
void pb_fig_ratio_tics(FILE *gp, double lo, double hi);
double pb_fig_time_unit(const char *metric, double hi, const char **unit);

/* table.c: the verdict table of run (guest: its kernel-module rows) in markdown or HTML,
 * verdicts counted into n; every other implementation's time ratio against the baseline. */
typedef struct pb_table_writer {
    FILE *f;     /* NULL: write nothing, only count the verdicts */
    int html;    /* 0: markdown */
    int header;  /* inside the header row (set by the writer) */
    int part;    /* which columns (pb_table_part): all in one table (Markdown), or the HTML page's two */
    int mute;    /* the writer's: the column group being written is not of this part */
    int ncells;  /* the writer's: cells written in the current row */
    char names[4][5 * PB_NAME_MAX]; /* the writer's: store names escaped for one Markdown cell */
    int next;
} pb_table_writer;
/* The columns of a verdict table: the answer (the verdict, the cell, the measured ratio with its CI,
 * the document's ratio, measured/document, the real code's ratio) and the detail (the claim, the
 * medians of every impl, the profiles, the code layouts, the marks). Markdown writes both in one
 * table, the answer's first; the HTML page writes the answer as its first table, the detail below. */
typedef enum pb_table_part { PB_TABLE_ALL = 0, PB_TABLE_ANSWER, PB_TABLE_DETAIL } pb_table_part;
void pb_report_table(pb_table_writer *t, const pb_report_data *d, const pb_suite *s, int64_t run, int guest,
                     const pb_verdict_cfg *cfg, pb_verdict_counts *n);
void pb_report_other_ratios(pb_table_writer *t, const pb_report_data *d, const pb_suite *s, int64_t run);
/* The spread table (d->spreads): per cell and impl, mean ± σ, min … max, user and system (or CPU)
 * time and the samples, as the terminal shows them after `bench run`. Nothing where d has none.
 * A paragraph and the table, in the writer's notation. */
void pb_report_spread_table(pb_table_writer *t, const pb_report_data *d);
/* Where the candidate and the baseline differ, per cell of the count run (d->count_run), the functions
 * with the largest differences in instructions per op and the rest, summing to the total
 * (report_why.c, fn_diff.h): a compact list, Markdown (html 0) or HTML. Nothing without a count run. */
void pb_report_why(FILE *f, const pb_report_data *d, const pb_suite *s, int html);

/* Count the verdicts of d's userspace table into host and of its kernel-module table (if any) into
 * guest, as the renderers' tables show them (report.c). */
void pb_report_count(const pb_report_data *d, const pb_suite *s, const pb_verdict_cfg *cfg, pb_verdict_counts *host,
                     pb_verdict_counts *guest);

/* report_html.c: the page's head (title escaped), its links to each suite's section, its end; a
 * suite's section is pb_render_html (render.h), its figures inlined from the SVG files. */
void pb_report_html_begin(FILE *f, const char *title);
void pb_report_html_nav(FILE *f, const char *const *suites, int n);
void pb_report_html_end(FILE *f);

#endif
