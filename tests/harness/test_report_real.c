/* SPDX-License-Identifier: GPL-2.0-only */
/* The real code's column (issue 22, item 3) on stores filled with seeded synthetic samples: a
 * drbg-like run that also timed the real code's pair (gcrypt:upstream-new against
 * gcrypt:upstream-old) and a kernel-module run with kmod-kernel-xts beside kmod-new. Checked in the
 * Markdown page, the HTML page, the ratio figure's data and the --machines report: the column, the
 * mark "differs from the real code" in exactly the cells where both CIs are more than 10 % apart,
 * the summary count; names that are markup in one output language stay text there; and a run
 * without the real code's rows gives the same bytes as a suite that names no real code. No timing:
 * every sample is made up here. Skipped (77) where gnuplot is not installed, as the report needs it. */
#include <ftw.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fmt.h"
#include "md_table.h"
#include "report.h"
#include "report_files.h"
#include "report_machines.h"
#include "store.h"
#include "../lib/check.h"

static pb_claim faster(const pb_cell *cell, double doc_ratio)
{
    (void)cell;
    (void)doc_ratio;
    return PB_CLAIM_FASTER;
}

static const char *const KMOD_IMPLS[] = {"kmod-old", "kmod-new", "kmod-kernel-xts", NULL};
static const char *const KMOD_PAIRS[] = {"kmod-new", "kmod-kernel-xts", NULL};
#define UP_OLD "gcrypt:upstream-old"
#define UP_NEW "gcrypt:upstream-new"
/* names that are markup in Markdown (| * _ [ ]) and in HTML (< > &): text in every output */
#define HOSTILE_OLD "up&old_[1]"
#define HOSTILE_NEW "up<b>new</b>|*x*"

/* drbg's shape: a throughput suite (the table's medians in MB/s, its ratios of time) whose real
 * code is libgcrypt at the patch's parent and at the patch, with a kernel-module part */
static const pb_suite REAL = {
    .name = "drbglike", .title = "a drbg-like suite", .baseline = "old", .candidate = "new",
    .metrics = PB_M_NS_PER_OP | PB_M_MB_PER_S, .primary_metric = "mb_per_s", .claim = faster, .plot_x = "size",
    .kmod_impls = KMOD_IMPLS, .kmod_baseline = "kmod-old", .kmod_candidate = "kmod-new",
    .kmod_ratio_pairs = KMOD_PAIRS, .real_baseline = UP_OLD, .real_candidate = UP_NEW, .kmod_real = "kmod-kernel-xts",
};

/* One userspace cell: the time ratios new/old and upstream-new/upstream-old (0: the real code did
 * not run there), the per-sample noise amplitude, the document's time ratio (0: none) and whether
 * the cell is to be marked. */
typedef struct host_cell {
    const char *variant;
    int size;
    double reimpl, real, noise, doc;
    int marked;
} host_cell;

static const host_cell HOST[] = {
    {"sha256", 4096, 0.52, 0.64, 0.002, 0.64, 1},   /* the re-implementation overstates the gain */
    {"sha256", 128, 0.95, 0.80, 0.002, 0.85, 1},    /* ... or understates it */
    {"hmac-sha256", 4096, 0.34, 0.43, 0.002, 0.40, 1},
    {"hmac-sha256", 128, 0.60, 0.57, 0.002, 0, 0},  /* 5 % apart: the same answer */
    {"aes128", 128, 0.114, 0.154, 0.002, 0.185, 1},
    {"aes128", 4096, 0.50, 0.57, 0.30, 0, 0},       /* 14 % apart in the estimates, but the CIs are not */
    {"aes256", 4096, 0.022, 0, 0.002, 0, 0},        /* the real code did not run here */
};
#define NHOST (int)(sizeof HOST / sizeof HOST[0])
#define HOST_MARKED 4

/* One kernel-module cell (variant 256, the op of the userspace cells: one grid of panels): kmod-new/kmod-old and kmod-new/kmod-kernel-xts (0: no
 * kernel template), the noise, and whether it is to be marked (kmod-new/kmod-kernel-xts apart from 1). */
typedef struct kmod_cell {
    int size;
    double reimpl, vs_real, noise;
    int marked;
} kmod_cell;

static const kmod_cell KMOD[] = {
    {512, 0.90, 1.02, 0.002, 0},
    {4096, 0.85, 1.25, 0.002, 1},
    {65536, 0.80, 0.85, 0.002, 1},
    {1024, 0.88, 1.12, 0.30, 0},   /* noisy: its CI reaches into [1/1.1, 1.1] */
};
#define NKMOD (int)(sizeof KMOD / sizeof KMOD[0])
#define KMOD_MARKED 2
#define ROUNDS 20

static uint64_t lcg = 42;
static double uniform(void) /* [-1, 1), seeded: the same samples every time */
{
    lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(lcg >> 11) / (double)(1ULL << 52) - 1.0;
}

/* A run of ROUNDS rounds of the given impls per cell; what one cell's impl k costs comes from cost(). */
typedef struct run_spec {
    const char *target, *baseline, *candidate;
    const char *const *impls;
    int nimpls, ncells;
    const char *op;
    const char *const *pairs;    /* finalize's extra pairs */
    /* the time of impl k in cell c relative to the baseline's (0: not measured), its cell and noise */
    double (*cost)(int c, int k);
    const char *(*variant)(int c);
    int (*size)(int c);
    double (*noise)(int c);
} run_spec;

static int64_t fill_run(pb_store *st, const run_spec *rs, pb_err *e)
{
    pb_provenance p;
    test_provenance(&p);
    pb_run_info ri = {.suite = REAL.name, .target = rs->target, .command_line = "test_report_real", .options = "",
                      .tick_source = "none", .counter_source = "none", .metrics = REAL.metrics,
                      .baseline = rs->baseline, .candidate = rs->candidate, .primary_metric = "mb_per_s"};
    int64_t run = pb_store_begin_run(st, &ri, &p, e);
    if (run < 0 || pb_store_begin(st, e) < 0) return -1;
    for (int c = 0; c < rs->ncells; c++)
        for (int k = 0; k < rs->nimpls; k++) {
            double factor = rs->cost(c, k);
            if (factor <= 0) continue;
            int64_t id = pb_store_add_case(st, run, REAL.name, rs->impls[k], rs->variant(c), rs->op,
                                           (uint64_t)rs->size(c), 100, "ok", NULL, e);
            if (id < 0) return -1;
            for (int r = 0; r < ROUNDS; r++) {
                pb_sample s = {.round = r, .position = k, .iterations = 100, .cpu_ns = -1, .cycles = -1, .insns = -1};
                s.ns = 100 * 1000.0 * factor * (1 + rs->noise(c) * uniform());
                if (pb_store_add_sample(st, id, &s, e) < 0) return -1;
            }
        }
    if (pb_store_commit(st, e) < 0) return -1;
    return pb_store_finalize_run_pairs(st, run, rs->pairs, e) < 0 ? -1 : run;
}

/* ---- the two runs' figures ---- */

static int with_real = 1; /* 0: the stores hold no real code's rows */

/* host impls: old, new, then the real code's pair (upstream-old costs as old, upstream-new the real ratio) */
static double host_cost(int c, int k)
{
    const host_cell *h = &HOST[c];
    if (k >= 2 && (!with_real || h->real == 0)) return 0;
    return k == 1 ? h->reimpl : k == 3 ? h->real : 1.0;
}
static const char *host_variant(int c) { return HOST[c].variant; }
static int host_size(int c) { return HOST[c].size; }
static double host_noise(int c) { return HOST[c].noise; }

static double kmod_cost(int c, int k)
{
    const kmod_cell *x = &KMOD[c];
    if (k == 2) return with_real ? x->reimpl / x->vs_real : 0;
    return k == 1 ? x->reimpl : 1.0;
}
static const char *kmod_variant(int c) { (void)c; return "256"; }
static int kmod_size(int c) { return KMOD[c].size; }
static double kmod_noise(int c) { return KMOD[c].noise; }

/* A store of a host run (its real code's pair named up_new/up_old) and a kernel-module run: the
 * two runs' ids in run[0], run[1]. 0, or -1 + e. */
static int fill(const char *db, const char *up_old, const char *up_new, int64_t run[2], pb_err *e)
{
    const char *host_impls[] = {"old", "new", up_old, up_new};
    const char *host_pairs[] = {up_new, up_old, NULL};
    const run_spec host = {.target = "userspace", .baseline = "old", .candidate = "new", .impls = host_impls,
                           .nimpls = 4, .ncells = NHOST, .op = "generate", .pairs = host_pairs, .cost = host_cost,
                           .variant = host_variant, .size = host_size, .noise = host_noise};
    const run_spec kmod = {.target = "qemu-tcg", .baseline = "kmod-old", .candidate = "kmod-new",
                           .impls = KMOD_IMPLS, .nimpls = 3, .ncells = NKMOD, .op = "generate", .pairs = KMOD_PAIRS,
                           .cost = kmod_cost, .variant = kmod_variant, .size = kmod_size, .noise = kmod_noise};
    pb_store st;
    if (pb_store_open(&st, db, e) < 0) return -1;
    lcg = 42;
    run[0] = fill_run(&st, &host, e);
    run[1] = run[0] < 0 ? -1 : fill_run(&st, &kmod, e);
    pb_store_close(&st);
    return run[1] < 0 ? -1 : 0;
}

/* ---- reading the outputs back ---- */

/* the line that starts with key (after a line break), up to its end: "(no row)" if none */
static const char *line_of(const char *text, const char *key, char *out, size_t len)
{
    const char *p = text ? strstr(text, key) : NULL;
    if (!p) { snprintf(out, len, "(no row)"); return out; }
    if (*p == '\n') p++;
    size_t n = strcspn(p, "\n");
    snprintf(out, len, "%.*s", (int)(n < len - 1 ? n : len - 1), p);
    return out;
}

static const char *md_row(const char *md, const char *variant, const char *op, int size, char *out, size_t len)
{
    char key[128], sz[32];
    /* the report's row leads with its verdict, then variant, op and size; the machines table's with the variant */
    snprintf(key, sizeof key, "| %s | %s | %s |", variant, op, pb_fmt_bytes(sz, sizeof sz, size));
    const char *p = md ? strstr(md, key) : NULL;
    while (p && p > md && p[-1] != '\n') p--;
    line_of(p, "|", out, len);
    return out;
}

static const char *html_row(const char *html, const char *variant, const char *op, int size, char *out, size_t len)
{
    char key[160], sz[32];
    /* the row of the second table (the detail: claim, marks, medians; report_html.c), which leads
     * with variant, op and size */
    snprintf(key, sizeof key, "<tr><td>%s</td><td>%s</td><td>%s</td>", variant, op, pb_fmt_bytes(sz, sizeof sz, size));
    const char *p = html ? strstr(html, key) : NULL;
    while (p && p > html && strncmp(p, "<tr>", 4)) p--;
    const char *end = p ? strstr(p, "</tr>") : NULL;
    if (!end) snprintf(out, len, "(no row)");
    else snprintf(out, len, "%.*s", (int)((size_t)(end - p) < len - 1 ? (size_t)(end - p) : len - 1), p);
    return out;
}

/* the number that begins field k of a Markdown row ("| a | b |": a is field 1); NaN if none */
static double ratio_field(const char *row, int k)
{
    const char *p = row;
    for (int i = 1; i < k && p; i++) p = strchr(p + 1, '|');
    double v;
    return p && sscanf(p + 1, "%lf", &v) == 1 ? v : NAN;
}

/* ---- the checks ---- */

typedef const char *row_fn(const char *text, const char *variant, const char *op, int size, char *out, size_t len);

/* Every cell's row of text (found by row_of) holds mark exactly where the cell is to be marked. */
static void check_marks(const char *what, const char *text, row_fn *row_of, const char *mark)
{
    char row[4096];
    for (int c = 0; c < NHOST + NKMOD; c++) {
        int host = c < NHOST;
        const char *variant = host ? HOST[c].variant : "256";
        int size = host ? HOST[c].size : KMOD[c - NHOST].size, want = host ? HOST[c].marked : KMOD[c - NHOST].marked;
        row_of(text, variant, "generate", size, row, sizeof row);
        int marked = strstr(row, mark) != NULL;
        CHECK(marked == want, "%s, %s %d: marked %d, want %d: %s", what, variant, size, marked, want, row);
    }
}

static void check_markdown(const char *md)
{
    CHECK(md != NULL, "no Markdown page");
    if (!md) return;
    CHECK(strstr(md, "| time new/old [95% CI] | document time new/old | measured/document |"
                     " real code: time gcrypt:upstream-new/gcrypt:upstream-old [95% CI] | claim |"
                     " verdict on the real code | real code |") != NULL,
          "the userspace table's header lacks the real code's columns");
    CHECK(strstr(md, "| time kmod-new/kmod-old [95% CI] | document time kmod-new/kmod-old | measured/document |"
                     " real code: time kmod-new/kmod-kernel-xts [95% CI] |") != NULL,
          "the kernel-module table's header lacks kmod-new/kmod-kernel-xts");
    CHECK(strstr(md, "**Real code**: the run also timed gcrypt:upstream-new against gcrypt:upstream-old,") &&
              strstr(md, "**Real code**: the run also timed kmod-new against kmod-kernel-xts,"),
          "the legend does not say what the real code is");
    check_marks("Markdown", md, md_row, "| differs from the real code |");
    char row[4096];
    /* the real code's ratio and its own verdict: sha256 4 KiB holds on the real code (0.64 against the
     * document's 0.64) while the re-implementation's 0.52 misses the band */
    md_row(md, "sha256", "generate", 4096, row, sizeof row);
    CHECK(strstr(row, "| 0.640 [") && !strncmp(row, "| direction holds, size differs |", 33) &&
              strstr(row, "| faster | claim holds |"),
          "sha256 4 KiB: the real code's ratio and verdict: %s", row);
    md_row(md, "aes256", "generate", 4096, row, sizeof row);
    CHECK(!strncmp(row, "| claim holds |", 15) &&
              strstr(row, "| 0.022 [0.022, 0.022] | - | - | - | faster | no data |  |") != NULL,
          "aes256 (no real code): no ratio, no verdict on it, no mark: %s", row);
    /* the rule is on the CIs: the noisy aes128 4 KiB cell is more than 10 % apart in its estimates
     * (fields 5 and 8: new/old, the real code's), yet not marked */
    md_row(md, "aes128", "generate", 4096, row, sizeof row);
    double reimpl = ratio_field(row, 5), real = ratio_field(row, 8);
    CHECK(reimpl > 0 && real > 0 && fabs(real / reimpl - 1) > 0.10, "aes128 4 KiB: estimates %g and %g not 10 %% apart",
          reimpl, real);
    md_row(md, "256", "generate", 4096, row, sizeof row);
    CHECK(ratio_field(row, 8) >= 1.24 && ratio_field(row, 8) < 1.26, "kmod 4 KiB: kmod-new/kmod-kernel-xts: %s", row);
    CHECK(strstr(md, "**Summary:** 7 cells: claim holds ") &&
              strstr(md, "; differs from the real code 4.\n") && !strstr(md, " 0; "),
          "the userspace summary line does not count 4 cells that differ from the real code");
    CHECK(strstr(md, "**Summary:** 4 cells: ") &&
              strstr(md, "; differs from the real code 2.\n"),
          "the kernel-module summary line does not count 2 cells");
    int cols[3];
    md_table_columns(md, cols);
    CHECK(cols[0] > 10 && cols[0] == cols[1] && cols[1] == cols[2], "columns: header %d, separator %d, row %d",
          cols[0], cols[1], cols[2]);
}

static void check_html(const char *html)
{
    CHECK(html != NULL, "no HTML page");
    if (!html) return;
    CHECK(strstr(html, "<th>real code: time gcrypt:upstream-new/gcrypt:upstream-old [95% CI]</th>") &&
              strstr(html, "<th>verdict on the real code</th>") &&
              strstr(html, "<th>real code: time kmod-new/kmod-kernel-xts [95% CI]</th>"),
          "the HTML tables lack the real code's columns");
    check_marks("HTML", html, html_row, "<td>differs from the real code</td>");
    CHECK(count_of(html, "<td>differs from the real code</td>") == HOST_MARKED + KMOD_MARKED, "HTML marks: %d",
          count_of(html, "<td>differs from the real code</td>"));
    CHECK(strstr(html, "; differs from the real code 4.</p>") && strstr(html, "; differs from the real code 2.</p>"),
          "the HTML summaries do not count the marks");
}

/* the ratio figure: the real code's lines, and a ring (a block of "x y" lines) per marked cell */
static void check_figure(const char *gp, const char *rdat)
{
    CHECK(gp && strstr(gp, "title 'real code: gcrypt:upstream-new/gcrypt:upstream-old'") &&
              strstr(gp, "title 'real code: kmod-new/kmod-kernel-xts (QEMU TCG)'"),
          "the ratio figure lacks the real code's lines");
    CHECK(gp && strstr(gp, "title 'differs from the real code'") && strstr(gp, "title 'differs from the real code (QEMU TCG)'"),
          "the ratio figure lacks the marks");
    int rings = 0;
    for (const char *p = rdat; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        double a, b;
        char extra[8];
        char line[256];
        snprintf(line, sizeof line, "%.*s", (int)strcspn(p, "\n"), p);
        rings += sscanf(line, "%lf %lf %7s", &a, &b, extra) == 2;
    }
    CHECK(rings == HOST_MARKED + KMOD_MARKED, "ratio figure: %d rings, want %d", rings, HOST_MARKED + KMOD_MARKED);
}

static void check_machines(const char *md, const char *html)
{
    CHECK(md != NULL, "no machines page");
    if (!md) return;
    CHECK(strstr(md, "machine-a userspace: new/old \\[95% CI\\], verdict; {real code gcrypt:upstream-new/"
                     "gcrypt:upstream-old \\[95% CI\\], verdict} |") &&
              strstr(md, "machine-a qemu-tcg: kmod-new/kmod-old \\[95% CI\\], verdict; {real code "
                         "kmod-new/kmod-kernel-xts \\[95% CI\\]} |"),
          "the machines table's header lacks the real code");
    check_marks("machines", md, md_row, ": differs from the real code}");
    char row[4096];
    for (int c = 0; c < NHOST; c++) {
        md_row(md, HOST[c].variant, "generate", HOST[c].size, row, sizeof row);
        CHECK(strstr(row, HOST[c].real > 0 ? "{real code 0." : "{real code -}") != NULL, "machines %s %d: %s",
              HOST[c].variant, HOST[c].size, row);
    }
    char line[2048];
    line_of(md, "- **machine-a userspace**", line, sizeof line);
    CHECK(strstr(line, "cells: claim holds ") && strstr(line, "; differs from the real code 4") &&
              !strstr(line, "code layout"),
          "the userspace column's line: %s", line);
    line_of(md, "- **machine-a qemu-tcg**", line, sizeof line);
    CHECK(strstr(line, "; differs from the real code 2") != NULL, "the kernel-module column's line: %s", line);
    CHECK(html && count_of(html, ": differs from the real code}</td>") == HOST_MARKED + KMOD_MARKED &&
              strstr(html, "; differs from the real code 4</li>"),
          "the machines section of the page");
}

/* Markup in the real code's names stays text: escaped in Markdown and HTML, as it is in gnuplot's quotes. */
static void check_hostile(const char *md, const char *html, const char *gp)
{
    CHECK(md && strstr(md, "real code: time up&lt;b&gt;new&lt;/b&gt;\\|\\*x\\*/up&amp;old\\_\\[1\\] [95% CI]") &&
              !strstr(md, "<b>"),
          "Markdown: the real code's names not as text");
    CHECK(html && strstr(html, "<th>real code: time up&lt;b&gt;new&lt;/b&gt;|*x*/up&amp;old_[1] [95% CI]</th>") &&
              !strstr(html, "<b>new"),
          "HTML: the real code's names not as text");
    CHECK(gp && strstr(gp, "title 'real code: up<b>new</b>|*x*/up&old_[1]'"), "gnuplot: the names");
}

/* ---- the reports ---- */

typedef struct outputs {
    char *md, *html, *gp, *dat, *rdat, *mmd, *mgp, *mdat, *mhtml;
} outputs;

static void outputs_free(outputs *o)
{
    char **all[] = {&o->md, &o->html, &o->gp, &o->dat, &o->rdat, &o->mmd, &o->mgp, &o->mdat, &o->mhtml};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) { free(*all[i]); *all[i] = NULL; }
}

/* s's report of the store db (both runs) and its --machines report, into dir/out. 0, 77 when there
 * is no gnuplot, or -1. */
static int report(const char *db, const pb_suite *s, const int64_t run[2], const char *dir, const char *out, outputs *o)
{
    char outdir[512], data[512], page[600], mpage[600];
    snprintf(outdir, sizeof outdir, "%s/%s", dir, out);
    snprintf(data, sizeof data, "%s/data", dir);
    snprintf(page, sizeof page, "%s/%s.html", dir, out);
    snprintf(mpage, sizeof mpage, "%s/%s_machines.html", dir, out);
    pb_store st;
    pb_err e = {{0}};
    if (pb_store_open(&st, db, &e) < 0) { printf("open %s: %s\n", db, e.msg); return -1; }
    FILE *html = fopen(page, "w"), *mhtml = fopen(mpage, "w");
    pb_report_opts ro = {.out_dir = outdir, .data_dir = data, .run = run[0], .guest_run = run[1], .html = html};
    pb_machines_opts mo = {.machines = "all", .out_dir = outdir, .data_dir = data, .html = mhtml};
    int rc = html && mhtml ? 0 : -1, ncols = 0;
    if (rc == 0) rc = pb_report_suite(&st, s, &ro, NULL, NULL, &e);
    if (rc == 0) rc = pb_report_machines(&st, s, &mo, &ncols, &e) == 1 ? 0 : -1;
    if (html) fclose(html);
    if (mhtml) fclose(mhtml);
    pb_store_close(&st);
    if (rc < 0) {
        printf("report %s: %s\n", out, e.msg);
        return strstr(e.msg, "gnuplot not found") ? 77 : -1;
    }
    CHECK(ncols == 2, "%s: %d machine configurations, want 2", out, ncols);
    char name[64];
    snprintf(name, sizeof name, "%s.html", out);
    o->html = slurp(dir, name);
    snprintf(name, sizeof name, "%s_machines.html", out);
    o->mhtml = slurp(dir, name);
    o->md = slurp(outdir, "drbglike.md");
    o->gp = slurp(outdir, "drbglike.gp");
    o->dat = slurp(outdir, "drbglike.dat");
    o->rdat = slurp(outdir, "drbglike_ratio.dat");
    o->mmd = slurp(outdir, "drbglike_machines.md");
    o->mgp = slurp(outdir, "drbglike_machines.gp");
    o->mdat = slurp(outdir, "drbglike_machines.dat");
    return 0;
}

/* Without the real code's rows, a suite that names real code reports byte for byte as one that names none. */
static void check_unchanged(const outputs *named, const outputs *none)
{
    const char *const what[] = {"Markdown", "HTML", "script", "data", "ratio data", "machines Markdown",
                                "machines script", "machines data", "machines HTML"};
    const char *const a[] = {named->md, named->html, named->gp, named->dat, named->rdat, named->mmd, named->mgp,
                             named->mdat, named->mhtml};
    const char *const b[] = {none->md, none->html, none->gp, none->dat, none->rdat, none->mmd, none->mgp,
                             none->mdat, none->mhtml};
    for (size_t i = 0; i < sizeof what / sizeof what[0]; i++)
        CHECK(a[i] && b[i] && !strcmp(a[i], b[i]), "no real code's rows: the %s differs from a suite without real code",
              what[i]);
    CHECK(none->md && !strstr(none->md, "real code"), "no real code's rows, yet the page speaks of real code");
}

static void write_data(const char *dir)
{
    char path[512];
    FILE *f;
    write_verdict_tsv(dir);
    /* the document in the primary metric (MB/s): new's throughput is old's over the time ratio */
    snprintf(path, sizeof path, "%s/data/drbglike_doc.tsv", dir);
    f = fopen(path, "w");
    if (!f) return;
    fputs("impl\tvariant\top\tsize_bytes\tmetric\tvalue\n", f);
    for (int c = 0; c < NHOST; c++)
        if (HOST[c].doc > 0)
            fprintf(f, "old\t%s\tgenerate\t%d\tmb_per_s\t100\nnew\t%s\tgenerate\t%d\tmb_per_s\t%.6f\n", HOST[c].variant,
                    HOST[c].size, HOST[c].variant, HOST[c].size, 100 / HOST[c].doc);
    fclose(f);
}

int main(void)
{
    char dir[] = "/tmp/pb_report_real_XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    write_data(dir);
    char db[600];
    int64_t run[2];
    pb_err e = {{0}};
    outputs real = {0}, named = {0}, none = {0}, hostile = {0};

    snprintf(db, sizeof db, "%s/real.db", dir);
    if (fill(db, UP_OLD, UP_NEW, run, &e) < 0) { printf("fill: %s\n", e.msg); return 1; }
    int rc = report(db, &REAL, run, dir, "real", &real);
    if (rc == 77) { remove_tree(dir); return 77; }
    if (rc < 0) return 1;
    check_markdown(real.md);
    check_html(real.html);
    check_figure(real.gp, real.rdat);
    check_machines(real.mmd, real.mhtml);

    /* the same suite on a store without the real code's rows, and a suite that names no real code */
    with_real = 0;
    snprintf(db, sizeof db, "%s/plain.db", dir);
    if (fill(db, UP_OLD, UP_NEW, run, &e) < 0) { printf("fill: %s\n", e.msg); return 1; }
    pb_suite plain = REAL;
    plain.real_baseline = plain.real_candidate = plain.kmod_real = NULL;
    if (report(db, &REAL, run, dir, "named", &named) < 0 || report(db, &plain, run, dir, "none", &none) < 0) return 1;
    check_unchanged(&named, &none);

    with_real = 1;
    snprintf(db, sizeof db, "%s/hostile.db", dir);
    pb_suite hs = REAL;
    hs.real_baseline = HOSTILE_OLD;
    hs.real_candidate = HOSTILE_NEW;
    if (fill(db, HOSTILE_OLD, HOSTILE_NEW, run, &e) < 0) { printf("fill: %s\n", e.msg); return 1; }
    if (report(db, &hs, run, dir, "hostile", &hostile) < 0) return 1;
    check_hostile(hostile.md, hostile.html, hostile.gp);

    outputs *all[] = {&real, &named, &none, &hostile};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) outputs_free(all[i]);
    if (!fails && !getenv("PB_KEEP")) remove_tree(dir);
    else printf("files kept in %s\n", dir);
    return check_summary();
}
