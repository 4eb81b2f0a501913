/* SPDX-License-Identifier: GPL-2.0-only */
/* The figures read at 100 % zoom and say what they lack (issue 24, item 4), checked in the text of
 * the gnuplot script bench report writes, never in pixels: 12 pt lettering in the terminals and the
 * keys; a tic at every measured size, labelled in binary units; one y range per figure, set before
 * its panels; a log y axis, said on its label, where the values span more than 100x; a note in the
 * panel (and a line beneath the figures) for every impl with no line there, in the store's words;
 * no word of a document for a suite without a document table, no "0 B" for cells without a size;
 * and each document bar of a variant figure at its own variant. Three made-up suites, seeded
 * samples, no timing. Skipped (77) where gnuplot is not installed, as the report needs it. */
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"
#include "report_files.h"
#include "store.h"
#include "../lib/check.h"

#define ROUNDS 12

static pb_claim faster(const pb_cell *cell, double doc_ratio)
{
    (void)cell;
    (void)doc_ratio;
    return PB_CLAIM_FASTER;
}

/* an xts-like suite: sizes on the x axis, three impls, OpenSSL without the 384-bit key */
static const pb_suite XTSLIKE = {.name = "xtslike", .title = "an xts-like suite", .baseline = "old", .candidate = "new",
                                 .metrics = PB_M_NS_PER_OP, .primary_metric = "ns_per_op", .claim = faster,
                                 .plot_x = "size"};
/* a gbench-like suite: variants on the x axis, cells without a size, no document table */
static const pb_suite GBLIKE = {.name = "gblike", .title = "a gbench-like suite", .baseline = "old", .candidate = "new",
                                .metrics = PB_M_NS_PER_OP, .primary_metric = "ns_per_op", .plot_x = "variant"};
/* a sigpool-like suite: variants on the x axis, a document that has one impl's number for one variant */
static const pb_suite SIGLIKE = {.name = "siglike", .title = "a sigpool-like suite", .baseline = "old",
                                 .candidate = "new", .metrics = PB_M_NS_PER_OP, .primary_metric = "ns_per_op",
                                 .claim = faster, .plot_x = "variant"};

static const int XTS_SIZES[] = {64, 512, 4096, 16384, 32768};
/* a reason with what gnuplot would read as code: shown as text, the figure not refused */
#define OPENSSL_WHY "OpenSSL offers no 384-bit XTS key (it's `xts' \"384\")"

static uint64_t lcg = 7;
static double noise(void) /* [-0.01, 0.01), seeded: the same samples every time */
{
    lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
    return ((double)(lcg >> 11) / (double)(1ULL << 52) - 1.0) * 0.01;
}

/* One cell's impl: ns per op (0: unavailable, with why). */
static int add_cell(pb_store *st, int64_t run, const pb_suite *s, const char *impl, const char *variant,
                    const char *op, uint64_t size, double ns, const char *why, pb_err *e)
{
    int64_t id = pb_store_add_case(st, run, s->name, impl, variant, op, size, 100, ns > 0 ? "ok" : "unavailable",
                                   ns > 0 ? NULL : why, e);
    if (id < 0) return -1;
    for (int r = 0; ns > 0 && r < ROUNDS; r++) {
        int pos = !strcmp(impl, s->baseline) ? 0 : !strcmp(impl, s->candidate) ? 1 : 2;
        pb_sample smp = {.round = r, .position = pos, .iterations = 100, .cpu_ns = -1, .cycles = -1, .insns = -1};
        smp.ns = 100 * ns * (1 + noise());
        if (pb_store_add_sample(st, id, &smp, e) < 0) return -1;
    }
    return 0;
}

static int64_t begin(pb_store *st, const pb_suite *s, pb_err *e)
{
    pb_provenance p;
    test_provenance(&p);
    pb_run_info ri = {.suite = s->name, .target = "userspace", .command_line = "test_report_figures", .options = "",
                      .tick_source = "none", .counter_source = "none", .metrics = s->metrics,
                      .baseline = s->baseline, .candidate = s->candidate, .primary_metric = s->primary_metric};
    int64_t run = pb_store_begin_run(st, &ri, &p, e);
    return run < 0 || pb_store_begin(st, e) < 0 ? -1 : run;
}

static int64_t end(pb_store *st, int64_t run, pb_err *e)
{
    if (pb_store_commit(st, e) < 0) return -1;
    return pb_store_finalize_run_pairs(st, run, NULL, e) < 0 ? -1 : run;
}

static int64_t fill_xts(pb_store *st, pb_err *e)
{
    static const char *const variants[] = {"256", "384", "512"}, *const ops[] = {"enc", "dec"};
    int64_t run = begin(st, &XTSLIKE, e);
    for (int v = 0; v < 3 && run > 0; v++)
        for (int o = 0; o < 2 && run > 0; o++)
            for (int z = 0; z < 5 && run > 0; z++) {
                double base = XTS_SIZES[z] * 1.5; /* 96 ns to 49 us: more than 100x, a log axis */
                if (add_cell(st, run, &XTSLIKE, "old", variants[v], ops[o], XTS_SIZES[z], base, NULL, e) < 0 ||
                    add_cell(st, run, &XTSLIKE, "new", variants[v], ops[o], XTS_SIZES[z], base * 0.8, NULL, e) < 0 ||
                    add_cell(st, run, &XTSLIKE, "openssl", variants[v], ops[o], XTS_SIZES[z], v == 1 ? 0 : base * 0.5,
                             OPENSSL_WHY, e) < 0)
                    run = -1;
            }
    return run < 0 ? -1 : end(st, run, e);
}

/* Google Benchmark's own names, a 48 ns benchmark beside one of 7.8 us */
static int64_t fill_gb(pb_store *st, pb_err *e)
{
    int64_t run = begin(st, &GBLIKE, e);
    if (run < 0 || add_cell(st, run, &GBLIKE, "old", "BM_fnv/64", "run", 0, 48, NULL, e) < 0 ||
        add_cell(st, run, &GBLIKE, "new", "BM_fnv/64", "run", 0, 47, NULL, e) < 0 ||
        add_cell(st, run, &GBLIKE, "old", "BM_fnv/4096", "run", 0, 7812, NULL, e) < 0 ||
        add_cell(st, run, &GBLIKE, "new", "BM_fnv/4096", "run", 0, 7700, NULL, e) < 0)
        return -1;
    return end(st, run, e);
}

/* sigpool's shape: the document has both impls of md5, none of hmac(sha256), old's of cmac(aes128) */
static const char *const SIG_VARIANTS[] = {"md5", "hmac(sha256)", "cmac(aes128)"};
static int64_t fill_sig(pb_store *st, pb_err *e)
{
    int64_t run = begin(st, &SIGLIKE, e);
    for (int v = 0; v < 3 && run > 0; v++)
        if (add_cell(st, run, &SIGLIKE, "old", SIG_VARIANTS[v], "stream", 0, 1000 + 100 * v, NULL, e) < 0 ||
            add_cell(st, run, &SIGLIKE, "new", SIG_VARIANTS[v], "stream", 0, 990 + 100 * v, NULL, e) < 0)
            run = -1;
    return run < 0 ? -1 : end(st, run, e);
}

/* The script's figures, one by one: from "set terminal" to "unset multiplot". Each must set its
 * y range once, before its panels ("set multiplot"), and its fonts at FONT points. */
/* the user's own pair of a suite that claims (as drbg --gcrypt-lib stores it: runs.baseline and
 * candidate its names): the document's claim is the suite's pair's, so this run is an A/B */
static const pb_suite SIGNAMED = {.name = "siglike", .title = "a sigpool-like suite", .baseline = "libA",
                                  .candidate = "libB", .metrics = PB_M_NS_PER_OP, .primary_metric = "ns_per_op",
                                  .claim = faster, .plot_x = "variant"};
static int64_t fill_named(pb_store *st, pb_err *e)
{
    int64_t run = begin(st, &SIGNAMED, e);
    if (run < 0 || add_cell(st, run, &SIGNAMED, "libA", "md5", "stream", 0, 1000, NULL, e) < 0 ||
        add_cell(st, run, &SIGNAMED, "libB", "md5", "stream", 0, 700, NULL, e) < 0)
        return -1;
    return end(st, run, e);
}

static void check_named(pb_store *st, const char *data, pb_err *e)
{
    int64_t run = fill_named(st, e);
    CHECK(run > 0, "named pair: %s", e->msg);
    char *line = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&line, &len);
    CHECK(f && pb_report_run_answer(st, &SIGLIKE, run, data, f, 0, e) == 0, "named pair answer: %s", e->msg);
    if (f) fclose(f);
    CHECK(line && strstr(line, "siglike: libB is faster than libA by 30 % [") == line && !strstr(line, "hold"),
          "named pair: not an A/B: %s", line ? line : "");
    free(line);
}

static void check_figures(const char *name, const char *gp, int nfigures)
{
    CHECK(count_of(gp, "set terminal ") == nfigures, "%s: %d figures, want %d", name, count_of(gp, "set terminal "),
          nfigures);
    int k = 0;
    for (const char *fig = strstr(gp, "set terminal "); fig; fig = strstr(fig + 1, "set terminal "), k++) {
        const char *mp = strstr(fig, "set multiplot"), *endmp = mp ? strstr(mp, "unset multiplot") : NULL;
        if (!mp || !endmp) { CHECK(0, "%s figure %d: no multiplot", name, k); continue; }
        char head[8192], panels[65536];
        snprintf(head, sizeof head, "%.*s", (int)(mp - fig), fig);
        snprintf(panels, sizeof panels, "%.*s", (int)(endmp - mp), mp);
        CHECK(strstr(head, "font ',12'") || strstr(head, "font 'sans,12'"), "%s figure %d: the terminal's font", name,
              k);
        CHECK(strstr(head, "set key outside right top font ',12'") != NULL, "%s figure %d: the key's font", name, k);
        CHECK(count_of(head, "set yrange [") == 1, "%s figure %d: %d y ranges before the panels", name, k,
              count_of(head, "set yrange ["));
        CHECK(!strstr(panels, "yrange") && !strstr(panels, "logscale y") && !strstr(panels, "autoscale"),
              "%s figure %d: a panel of its own y range", name, k);
        CHECK(strstr(head, "set ylabel '") != NULL, "%s figure %d: no y label", name, k);
    }
}

/* the medians' figure's part of the script (the ratio figure comes first) */
static const char *medians_part(const char *gp)
{
    const char *r = strstr(gp, "_ratio.svg'");
    return r ? strstr(r, "set terminal ") : NULL;
}

static int report(pb_store *st, const pb_suite *s, int64_t run, const char *dir, pb_err *e)
{
    char out[512], data[512];
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(data, sizeof data, "%s/data", dir);
    pb_report_opts o = {.out_dir = out, .data_dir = data, .run = run};
    return pb_report_suite(st, s, &o, NULL, NULL, e);
}

static void check_xts(const char *out)
{
    char *gp = slurp(out, "xtslike.gp"), *md = slurp(out, "xtslike.md");
    CHECK(gp && md, "xtslike: no script or page");
    if (!gp || !md) return;
    check_figures("xtslike", gp, 4);
    /* every size a tic, in binary units, the range wider than the sizes (the 32 KiB tic on no edge) */
    CHECK(count_of(gp, "set xtics ('64 B' 64, '512 B' 512, '4 KiB' 4096, '16 KiB' 16384, '32 KiB' 32768)") == 4,
          "xtslike: the sizes' tics");
    CHECK(count_of(gp, "set xrange [42.6667:49152]") == 4, "xtslike: the x range around the sizes");
    /* 96 ns to 49 us: log, said on the axis; the ratios on a log2 axis */
    const char *med = medians_part(gp);
    CHECK(med && strstr(med, "set logscale y 10\n") && strstr(med, "set ylabel 'ns per operation (median, p10-p90) (log scale)'"),
          "xtslike: the medians' log axis");
    CHECK(strstr(gp, "set logscale y 2\n") && strstr(gp, "set ylabel 'time ratio X/old (log scale)'"),
          "xtslike: the ratios' log axis");
    /* its tics as a reader writes them: 1/4, 1/16, never gnuplot's 0.015625 */
    CHECK(strstr(gp, "set ytics (") && strstr(gp, "'1/4' 0.25, ") && strstr(gp, "'1/64' 0.015625, ") &&
              !strstr(gp, "set format y '%g'\nset ytics"),
          "xtslike: the ratios' tics");
    /* openssl's missing 384-bit lines: a note in each 384 panel of both figures (png and svg), the
     * store's reason shown as text (its quotes made typographic) */
    const char *note = "'no line for openssl: OpenSSL offers no 384-bit XTS key (it\xe2\x80\x99s \xe2\x80\x98xts\xe2\x80\x99 "
                       "\xe2\x80\x9d" "384\xe2\x80\x9d)'";
    CHECK(count_of(gp, note) == 4, "xtslike: %d notes of openssl's medians line, want 4 (2 panels, 2 terminals)",
          count_of(gp, note));
    const char *rnote = "'no line for openssl/old (openssl): OpenSSL offers no 384-bit XTS key";
    CHECK(count_of(gp, rnote) == 4, "xtslike: %d notes of openssl's ratio line, want 4", count_of(gp, rnote));
    const char *p384 = strstr(gp, "set title '384 enc'"), *p512 = strstr(gp, "set title '512 enc'");
    const char *in384 = p384 ? strstr(p384, "set label 1 'no line for openssl") : NULL;
    CHECK(in384 && (!p512 || in384 < p512), "xtslike: the note is not in the 384 panel");
    CHECK(count_of(gp, "\nset label") == 8 && count_of(gp, "unset label") > 0, "xtslike: %d notes, want 8",
          count_of(gp, "\nset label"));
    /* beneath the figures in the page too */
    CHECK(strstr(md, "No line in the figures where a case is unavailable:\n\n- openssl (384 ") != NULL,
          "xtslike: the page's line beneath the figures");
    /* a suite with a document: its words stay */
    CHECK(strstr(gp, "vs the document (points)") && strstr(gp, "the document's new/old as a diamond"),
          "xtslike: the document's words");
    free(gp);
    free(md);
}

static void check_gb(pb_store *st, int64_t run, const char *out, const char *data)
{
    char *gp = slurp(out, "gblike.gp"), *md = slurp(out, "gblike.md"), *dat = slurp(out, "gblike_run.dat");
    CHECK(gp && md && dat, "gblike: no script, page or data");
    if (!gp || !md || !dat) return;
    check_figures("gblike", gp, 4);
    /* 48 ns beside 7.8 us: a log axis, said on its label, in the unit the values are read in (us) */
    const char *med = medians_part(gp);
    CHECK(med && strstr(med, "set logscale y 10\n") && strstr(med, "set ylabel 'time per operation, \u00b5s (median) (log scale)'") &&
              strstr(med, ":($3/1000) with boxes"),
          "gblike: the medians' log axis in us");
    /* no document table: no word of one, in the figures, the page's figures or the table */
    CHECK(!strstr(gp, "document"), "gblike: the script speaks of a document");
    CHECK(!strstr(md, "against the document]") && !strstr(md, "beside the document's]") &&
              !strstr(md, "| document time") && !strstr(md, "| measured/document |") &&
              !strstr(md, "the document's ratio d"),
          "gblike: the page's figures or table speak of a document");
    /* no size: no bytes column, no "0 B" */
    CHECK(!strstr(md, "run | 0 B") && !strstr(md, "| bytes |"), "gblike: a cell printed with 0 B");
    /* no claim, no document: a user's A/B, in the table and in the answer (issue 42, item 5) */
    CHECK(strstr(md, "| faster by ") && !strstr(md, "no claim"), "gblike: the table's verdicts are not an A/B's");
    char *line = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&line, &len);
    pb_err e = {{0}};
    CHECK(f && pb_report_run_answer(st, &GBLIKE, run, data, f, 0, &e) == 0, "gblike answer: %s", e.msg);
    if (f) fclose(f);
    CHECK(line && !strstr(line, " 0 B") && strstr(line, "gblike: 2 cells, new against old: 2 faster") &&
              !strstr(line, "claim") && !strstr(line, "hold"),
          "gblike answer: %s", line ? line : "");
    free(line);
    free(gp);
    free(md);
    free(dat);
}

static void check_sig(const char *out)
{
    char *gp = slurp(out, "siglike.gp"), *dat = slurp(out, "siglike_stream.dat");
    CHECK(gp && dat, "siglike: no script or data");
    if (!gp || !dat) return;
    check_figures("siglike", gp, 4);
    /* 1000 to 1200 ns (2.1 us with the document): a linear axis from 0, in us */
    const char *med = medians_part(gp);
    CHECK(med && strstr(med, "unset logscale y\nset yrange [0:2.") && strstr(med, "set ylabel 'time per operation, \u00b5s (median)'\n"),
          "siglike: the medians' linear axis, in us");
    /* every bar at its variant's own x: boxes at column 1, never gnuplot's histogram, which closes
     * up a column's missing rows; cmac(aes128)'s lone document value in its own row */
    CHECK(!strstr(gp, "histogram") && strstr(gp, "'siglike_stream.dat' using ($1"), "siglike: bars at implicit places");
    CHECK(strstr(dat, "\n0 \"md5\" ") && strstr(dat, "\n1 \"hmac(sha256)\" ") && strstr(dat, "\n2 \"cmac(aes128)\" "),
          "siglike: the data's x");
    const char *hmac = strstr(dat, "\n1 \"hmac(sha256)\" "), *cmac = strstr(dat, "\n2 \"cmac(aes128)\" ");
    char row[256];
    if (hmac) snprintf(row, sizeof row, "%.*s", (int)strcspn(hmac + 1, "\n"), hmac + 1);
    CHECK(hmac && !strcmp(row + strlen(row) - 4, " ? ?"), "siglike: hmac(sha256) has document bars: %s", row);
    if (cmac) snprintf(row, sizeof row, "%.*s", (int)strcspn(cmac + 1, "\n"), cmac + 1);
    CHECK(cmac && strstr(row, " 2110 ?"), "siglike: cmac(aes128)'s document bar not in its row: %s", row);
    CHECK(strstr(gp, "title 'document old'") != NULL, "siglike: the document bars' key");
    free(gp);
    free(dat);
}

static void write_data(const char *dir)
{
    char path[512];
    FILE *f;
    write_verdict_tsv(dir);
    snprintf(path, sizeof path, "%s/data/xtslike_doc.tsv", dir);
    if ((f = fopen(path, "w"))) {
        fputs("impl\tvariant\top\tsize_bytes\tmetric\tvalue\nold\t256\tenc\t4096\tns_per_op\t6000\n"
              "new\t256\tenc\t4096\tns_per_op\t4800\n", f);
        fclose(f);
    }
    snprintf(path, sizeof path, "%s/data/siglike_doc.tsv", dir);
    if ((f = fopen(path, "w"))) {
        fputs("impl\tvariant\top\tsize_bytes\tmetric\tvalue\nold\tmd5\tstream\t0\tns_per_op\t1010\n"
              "new\tmd5\tstream\t0\tns_per_op\t1000\nold\tcmac(aes128)\tstream\t0\tns_per_op\t2110\n", f);
        fclose(f);
    }
}

int main(void)
{
    char dir[] = "/tmp/pb_report_figures_XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    write_data(dir);
    char db[600], out[600], data[600];
    snprintf(db, sizeof db, "%s/f.db", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(data, sizeof data, "%s/data", dir);
    pb_store st;
    pb_err e = {{0}};
    if (pb_store_open(&st, db, &e) < 0) { printf("open: %s\n", e.msg); return 1; }
    int64_t xrun = fill_xts(&st, &e), grun = xrun < 0 ? -1 : fill_gb(&st, &e), srun = grun < 0 ? -1 : fill_sig(&st, &e);
    if (srun < 0) { printf("fill: %s\n", e.msg); return 1; }
    int rc = report(&st, &XTSLIKE, xrun, dir, &e);
    if (rc < 0 && strstr(e.msg, "gnuplot not found")) {
        printf("SKIP: %s\n", e.msg);
        pb_store_close(&st);
        remove_tree(dir);
        return 77;
    }
    CHECK(rc == 0, "xtslike report: %s", e.msg);
    CHECK(report(&st, &GBLIKE, grun, dir, &e) == 0, "gblike report: %s", e.msg);
    CHECK(report(&st, &SIGLIKE, srun, dir, &e) == 0, "siglike report: %s", e.msg);
    check_xts(out);
    check_gb(&st, grun, out, data);
    check_sig(out);
    check_named(&st, data, &e);
    pb_store_close(&st);
    if (!fails && !getenv("PB_KEEP")) remove_tree(dir);
    else printf("files kept in %s\n", dir);
    return check_summary();
}
