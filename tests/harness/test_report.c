/* SPDX-License-Identifier: GPL-2.0-only */
/* The report on a store filled with seeded synthetic samples: magnitude verdicts, the
 * code-generation column and marker, the summary counts in the generated .md, and the
 * `X@P` against `baseline@P` ratios the store derives for it. No timing: every sample is
 * made up here. Skipped (77) where gnuplot is not installed, as the report needs it. */
#define _XOPEN_SOURCE 700
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
#include "store.h"
#include "../lib/check.h"

static pb_claim fake_claim(const pb_cell *cell, double doc_ratio)
{
    (void)doc_ratio;
    if (!strcmp(cell->variant, "equal")) return PB_CLAIM_EQUAL;
    if (!strcmp(cell->variant, "notslower")) return PB_CLAIM_NOT_SLOWER;
    return PB_CLAIM_FASTER;
}

static const pb_suite FAKE = {
    .name = "fake", .title = "report test", .baseline = "old", .candidate = "new",
    .metrics = PB_M_NS_PER_OP, .primary_metric = "ns_per_op", .claim = fake_claim, .plot_x = "size",
};

/* One cell: the faithful time ratio new/old, that of new@native/old@native (0: not measured),
 * the per-sample noise amplitude, and the document's ratio (0: no number). */
typedef struct cell_spec {
    const char *variant;
    int size;
    double ratio, native, noise, doc;
} cell_spec;

static const cell_spec CELLS[] = {
    {"faster", 512, 0.50, 0.50, 0.002, 0.50},    /* claim holds */
    {"faster", 4096, 0.45, 0.88, 0.002, 0.85},   /* size differs; depends on code generation */
    {"faster", 65536, 1.30, 1.30, 0.002, 0.80},  /* claim does not hold */
    {"faster", 1024, 0.70, 0.70, 0.002, 0},      /* no document number: direction only, holds */
    {"faster", 2048, 1.00, 0, 0.30, 0},          /* inconclusive here; no native pair */
    {"equal", 512, 1.02, 1.20, 0.002, 1.00},     /* claim holds; depends on code generation */
    {"equal", 4096, 1.50, 1.50, 0.002, 1.00},    /* claim does not hold */
    {"notslower", 512, 0.98, 0.98, 0.002, 1.00}, /* claim holds */
    {"notslower", 4096, 0.50, 0.50, 0.002, 1.00},/* size differs (faster than "comparable") */
};
#define NCELLS (int)(sizeof CELLS / sizeof CELLS[0])
#define ROUNDS 20

static uint64_t lcg = 42;
static double uniform(void) /* [-1, 1), seeded: the same samples every time */
{
    lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(lcg >> 11) / (double)(1ULL << 52) - 1.0;
}

static int fill(pb_store *st, pb_err *e)
{
    pb_provenance p;
    memset(&p, 0, sizeof p);
    snprintf(p.git_sha, sizeof p.git_sha, "test");
    pb_run_info ri = {.suite = "fake", .target = "userspace", .command_line = "test_report", .options = "",
                      .tick_source = "none", .counter_source = "none", .metrics = PB_M_NS_PER_OP,
                      .baseline = "old", .candidate = "new", .primary_metric = "ns_per_op"};
    int64_t run = pb_store_begin_run(st, &ri, &p, e);
    if (run < 0) return -1;
    if (pb_store_begin(st, e) < 0) return -1;
    static const char *impls[] = {"old", "new", "old@native", "new@native"};
    for (int c = 0; c < NCELLS; c++) {
        const cell_spec *cs = &CELLS[c];
        for (int k = 0; k < 4; k++) {
            if (k >= 2 && cs->native == 0) continue;
            double factor = k == 1 ? cs->ratio : k == 3 ? cs->native : 1.0;
            double base = k >= 2 ? 800.0 : 1000.0; /* the native build is faster overall */
            int64_t id = pb_store_add_case(st, run, "fake", impls[k], cs->variant, "enc", (uint64_t)cs->size, 100,
                                           "ok", NULL, e);
            if (id < 0) return -1;
            for (int r = 0; r < ROUNDS; r++) {
                pb_sample s = {.round = r, .position = k, .iterations = 100, .cpu_ns = -1, .cycles = -1, .insns = -1};
                s.ns = 100 * base * factor * (1 + cs->noise * uniform());
                if (pb_store_add_sample(st, id, &s, e) < 0) return -1;
            }
        }
    }
    if (pb_store_commit(st, e) < 0) return -1;
    return pb_store_finalize_run(st, run, e) < 0 ? -1 : (int)run;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

/* the table row of a cell ("| verdict | variant | enc | 4 KiB |" up to the end of its line: the size
 * in binary units, as the plots label it; the verdict leads the row) */
static const char *row_of(const char *md, const char *variant, int size, char *out, size_t len)
{
    char key[128], sz[32];
    snprintf(key, sizeof key, " | %s | enc | %s |", variant, pb_fmt_bytes(sz, sizeof sz, size));
    const char *p = strstr(md, key);
    if (!p) { snprintf(out, len, "(no row)"); return out; }
    while (p > md && p[-1] != '\n') p--;
    size_t n = strcspn(p, "\n");
    snprintf(out, len, "%.*s", (int)(n < len - 1 ? n : len - 1), p);
    return out;
}

static void check_row(const char *md, const char *variant, int size, const char *verdict, int codegen)
{
    char row[2048];
    row_of(md, variant, size, row, sizeof row);
    char want[96];
    snprintf(want, sizeof want, "| %s |", verdict);
    CHECK(strstr(row, want) != NULL, "%s %d: want '%s' in %s", variant, size, verdict, row);
    int marked = strstr(row, "depends on code generation") != NULL;
    CHECK(marked == codegen, "%s %d: code-generation mark %d, want %d: %s", variant, size, marked, codegen, row);
}

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

/* Removes dir, which mkdtemp made for this test, and everything in it: a list of the files the report
 * writes fell behind it (its SVG figures stayed in /tmp after every run). */
static void cleanup(const char *dir)
{
    nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

int main(void)
{
    char dir[] = "/tmp/pb_report_XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    char db[256], data[256], out[256], path[512];
    snprintf(db, sizeof db, "%s/t.db", dir);
    snprintf(data, sizeof data, "%s/data", dir);
    snprintf(out, sizeof out, "%s/plots", dir);
    if (mkdir(data, 0755)) { perror(data); return 1; }
    snprintf(path, sizeof path, "%s/verdict.tsv", data);
    FILE *f = fopen(path, "w");
    fputs("tolerance\t*\t0.10\ncodegen_threshold\t*\t0.10\ntolerance\tother\t0.5\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/fake_doc.tsv", data);
    f = fopen(path, "w");
    fputs("impl\tvariant\top\tsize_bytes\tmetric\tvalue\n", f);
    for (int c = 0; c < NCELLS; c++)
        if (CELLS[c].doc > 0)
            fprintf(f, "old\t%s\tenc\t%d\tns_per_op\t1000\nnew\t%s\tenc\t%d\tns_per_op\t%g\n", CELLS[c].variant,
                    CELLS[c].size, CELLS[c].variant, CELLS[c].size, 1000 * CELLS[c].doc);
    fclose(f);

    pb_store st;
    pb_err e = {{0}};
    if (pb_store_open(&st, db, &e) < 0) { printf("open: %s\n", e.msg); return 1; }
    int run = fill(&st, &e);
    if (run < 0) { printf("fill: %s\n", e.msg); return 1; }

    /* the store pairs X@native with old@native as well as every impl with old */
    pb_stmt *q;
    pb_db_prepare(st.db,
                       "SELECT sum(baseline = 'old@native' AND candidate = 'new@native'),"
                       " sum(baseline = 'old' AND candidate = 'new@native'),"
                       " sum(baseline = 'old@native' AND candidate = 'old'),"
                       " sum(baseline = 'old' AND candidate = 'new') FROM ratios WHERE metric = 'ns_per_op'", &q);
    if (pb_db_step(q) == PB_DB_ROW) {
        CHECK(pb_db_column_int(q, 0) == NCELLS - 1, "new@native/old@native ratios: %d", pb_db_column_int(q, 0));
        CHECK(pb_db_column_int(q, 1) == NCELLS - 1, "new@native/old ratios: %d", pb_db_column_int(q, 1));
        CHECK(pb_db_column_int(q, 2) == 0, "a plain impl paired against old@native: %d", pb_db_column_int(q, 2));
        CHECK(pb_db_column_int(q, 3) == NCELLS, "new/old ratios: %d", pb_db_column_int(q, 3));
    }
    pb_db_finalize(q);

    pb_report_opts o = {.out_dir = out, .data_dir = data, .run = run};
    pb_verdict_counts host, guest;
    if (pb_report_suite(&st, &FAKE, &o, &host, &guest, &e) < 0) {
        pb_store_close(&st);
        if (strstr(e.msg, "gnuplot not found")) { printf("SKIP: %s\n", e.msg); cleanup(dir); return 77; }
        printf("report: %s\n", e.msg);
        return 1;
    }
    pb_store_close(&st);
    CHECK(host.cells == 9 && host.holds == 4 && host.size_differs == 2 && host.does_not_hold == 2 &&
              host.inconclusive == 1 && host.codegen == 2 && guest.cells == 0,
          "counts: %d cells, %d/%d/%d/%d, codegen %d", host.cells, host.holds, host.size_differs, host.does_not_hold,
          host.inconclusive, host.codegen);

    snprintf(path, sizeof path, "%s/fake.md", out);
    const char *md = slurp(path);
    CHECK(md != NULL, "no %s", path);
    if (!md) return 1;
    CHECK(strstr(md, "tolerance t = 0.10, code-generation threshold 0.10, from ") != NULL, "header lacks the figures");
    CHECK(strstr(md, "*claim holds*") && strstr(md, "*direction holds, size differs*") &&
              strstr(md, "*claim does not hold*") && strstr(md, "*inconclusive here*") &&
              strstr(md, "*depends on code generation*"),
          "header lacks what the verdicts mean");
    CHECK(strstr(md, "| verdict | variant | op | bytes | time new/old [95% CI] | document time new/old |"
                     " measured/document | claim | time new@native/old@native [95% CI] | code generation |") != NULL,
          "table header lacks the code-generation column");
    int cols[3];
    md_table_columns(md, cols);
    CHECK(cols[0] > 10 && cols[0] == cols[1] && cols[1] == cols[2], "columns: header %d, separator %d, row %d",
          cols[0], cols[1], cols[2]);
    check_row(md, "faster", 512, "claim holds", 0);
    check_row(md, "faster", 4096, "direction holds, size differs", 1);
    check_row(md, "faster", 65536, "claim does not hold", 0);
    check_row(md, "faster", 1024, "claim holds", 0);
    check_row(md, "faster", 2048, "inconclusive here", 0);
    check_row(md, "equal", 512, "claim holds", 1);
    check_row(md, "equal", 4096, "claim does not hold", 0);
    check_row(md, "notslower", 512, "claim holds", 0);
    check_row(md, "notslower", 4096, "direction holds, size differs", 0);
    char row[2048];
    /* 0.45 against 0.85: measured/document 0.53, a speed-up 1.89x the document's */
    row_of(md, "faster", 4096, row, sizeof row);
    CHECK(strstr(row, "| 0.53 (speed-up 1.8") || strstr(row, "| 0.53 (speed-up 1.9"), "size column: %s", row);
    CHECK(strstr(row, "| 0.88") != NULL, "native ratio beside the faithful one: %s", row);
    row_of(md, "faster", 2048, row, sizeof row);
    CHECK(strstr(row, "| 1.000 [") == NULL && strstr(row, "| - | - |") != NULL, "no native pair, no doc: %s", row);
    CHECK(strstr(md, "**Summary:** 9 cells: claim holds 4; direction holds, size differs 2; claim does not hold 2; "
                     "inconclusive here 1; depends on code generation 2.") != NULL,
          "summary line missing or wrong");
    CHECK(strstr(md, "disagrees with the document in 2 of 9 cells") != NULL, "disagreement line");
    CHECK(strstr(md, "(fake_ratio.png)") != NULL && strstr(md, "below 1, X is faster") != NULL,
          "the ratio figure and the ratio orientation");
    /* the ratio figure: sizes in binary units, the ratio axis named, the document's band drawn */
    snprintf(path, sizeof path, "%s/fake_ratio.svg", out);
    const char *svg = slurp(path);
    CHECK(svg && strstr(svg, "64 KiB") && strstr(svg, "512 B") && !strstr(svg, "kB"), "ratio figure's size labels");
    CHECK(svg && strstr(svg, "time ratio X/old") && strstr(svg, "document, band"), "ratio figure's labels");
    snprintf(path, sizeof path, "%s/fake_ratio.dat", out);
    const char *rdat = slurp(path);
    /* faster 512: the document's 0.5 and its band [0.5/1.1, 0.5*1.1] */
    CHECK(rdat && strstr(rdat, "512 0.5 0.454545 0.55 "), "document band in the ratio data");

    if (!fails && !getenv("PB_KEEP")) cleanup(dir); /* the files stay for a look when something failed */
    else printf("files kept in %s\n", dir);
    return check_summary();
}
