/* SPDX-License-Identifier: GPL-2.0-only */
/* The answer line (answer.h, issue 42 items 1 and 5) from fixed report data: the counts without
 * zeros, the ratios against the document's, the CPU, why cells are inconclusive and the rounds
 * that would settle them (n (w / w_need)^2, docs/verdicts.md); a user's A/B in words; and every line
 * within 80 columns where the width is 80. No timing, no store. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "report_data.h"
#include "term.h"
#include "../lib/check.h"

static pb_claim equal(const pb_cell *c, double d)
{
    (void)c;
    (void)d;
    return PB_CLAIM_EQUAL;
}

static const pb_suite CLAIMED = {.name = "fixed", .baseline = "old", .candidate = "new", .metrics = PB_M_NS_PER_OP,
                                 .primary_metric = "ns_per_op", .claim = equal, .plot_x = "size"};
static const pb_suite AB = {.name = "exec", .baseline = "a", .candidate = "b", .metrics = PB_M_NS_PER_OP,
                            .primary_metric = "ns_per_op", .plot_x = "variant"};

static char CPU[] = "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz";
static char NOISE[] = "8 of 32 rounds waited (run-queue delay or steal over 1 % of a sample); without them the "
                      "ratios move by up to 2.3 % (new/old chain spin 10000 B: 1.073, 1.098 without)";

static ratio_row cell(const char *cand, const char *variant, int64_t size, double est, double lo, double hi, int n)
{
    ratio_row x;
    memset(&x, 0, sizeof x);
    x.run = 1;
    snprintf(x.metric, sizeof x.metric, "ns_per_op");
    snprintf(x.base, sizeof x.base, "%s", cand[0] == 'n' ? "old" : "a");
    snprintf(x.cand, sizeof x.cand, "%s", cand);
    snprintf(x.variant, sizeof x.variant, "%s", variant);
    snprintf(x.op, sizeof x.op, "spin");
    x.size = size;
    x.r = (ratio){.est = est, .lo = lo, .hi = hi, .n = n, .layouts = 1, .layout_lo = NAN, .layout_hi = NAN};
    return x;
}

static void data_of(pb_report_data *d, ratio_row *r, size_t n, char *noise)
{
    memset(d, 0, sizeof *d);
    d->run = 1;
    d->ratios = r;
    d->nratios = n;
    d->info[0].have = 1;
    d->info[0].col[RUN_INFO_CPU_MODEL] = CPU;
    d->info[0].col[RUN_INFO_NOISE] = noise;
}

/* every line of text no wider than width */
static int fits(const char *text, int width)
{
    char *copy = strdup(text), *save = NULL;
    int ok = 1;
    for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        if (pb_utf8_cols(l) > (size_t)width) ok = 0;
    free(copy);
    return ok;
}

static char *printed(const pb_answer *a, int width)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return strdup("");
    pb_answer_print(f, a, width);
    fclose(f);
    return buf;
}

static void counts_without_zeros(void)
{
    char line[256];
    pb_verdict_counts n = {.cells = 30, .holds = 18, .size_differs = 4, .inconclusive = 8};
    pb_answer_counts(&n, line, sizeof line);
    CHECK(!strcmp(line, "30 cells: 18 hold, 4 size differs, 8 inconclusive"), "counts '%s'", line);
    pb_verdict_counts one = {.cells = 1, .does_not_hold = 1};
    pb_answer_counts(&one, line, sizeof line);
    CHECK(!strcmp(line, "1 cell: 1 does not hold"), "counts '%s'", line);
}

static void inconclusive_says_why_and_rounds(void)
{
    /* equal, t = 0.10: the band [1/1.1, 1.1]. The first cell's CI [0.9, 1/0.9] about 1 is w = ln(1/0.9)
     * on the log scale; the verdict needs ln 1.1 (est 1 to the band's edge): 16 (w / ln 1.1)^2 = 19.55,
     * so 20 rounds. The second holds. */
    ratio_row r[2] = {cell("new", "chain", 1000, 1.0, 0.9, 1 / 0.9, 16), cell("new", "chain", 10000, 1.01, 0.98, 1.04, 16)};
    pb_report_data d;
    data_of(&d, r, 2, NOISE);
    pb_verdict_cfg cfg = {.tolerance = 0.10, .codegen_threshold = 0.10, .real_code_threshold = 0.10};
    pb_verdict_counts n = {.cells = 2, .holds = 1, .inconclusive = 1, .layout = 1};
    pb_answer a;
    pb_answer_of(&a, &d, &CLAIMED, &cfg, &n);
    char text[8192];
    pb_answer_text(&a, 0, text, sizeof text);
    CHECK(strstr(text, "fixed: 2 cells: 1 holds, 1 inconclusive; time new/old 1.000..1.010 on Intel(R) Xeon(R)") == text,
          "answer '%s'", text);
    CHECK(!strstr(text, " 0 ") && !strstr(text, "claim holds"), "zero counts or the old words: '%s'", text);
    CHECK(strstr(text, "why: CI \u00b111 % where \u00b110 % decides, only 16 rounds"), "why: '%s'", text);
    CHECK(strstr(text, "the run was noisy"), "noise as a reason: '%s'", text);
    CHECK(a.rounds_needed == 20 && strstr(text, "settle: --rounds 20, or --measure valgrind"), "rounds %ld: '%s'",
          a.rounds_needed, text);
    /* 80 columns: the head and what fits on the first line, the rest by rank on the next (why and what
     * settles it first, then the CPU and the marks), nothing wider */
    char *out = printed(&a, 80);
    CHECK(fits(out, 80), "wider than 80:\n%s", out);
    CHECK(!strcmp(out, "fixed: 2 cells: 1 holds, 1 inconclusive; time new/old 1.000..1.010\n"
                       "  why: CI \u00b111 % where \u00b110 % decides, only 16 rounds; settle: --rounds 20\n"
                       "  on Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz; depends on code layout 1\n"),
          "80: '%s'", out);
    CHECK(strstr(out, "\n  ") && strstr(out, "settle: --rounds 20"), "80: the second line lacks what settles it: '%s'",
          out);
    int lines = 0;
    for (const char *p = out; *p; p++) lines += *p == '\n';
    CHECK(lines == 3, "80: %d lines: '%s'", lines, out);
    free(out);
    /* unbounded: one line with every piece, then the marks and the whole noise warning */
    out = printed(&a, 0);
    CHECK(strstr(out, "depends on code layout 1; noise: 8 of 32 rounds waited") && strstr(out, "1.098 without)\n"),
          "unbounded: '%s'", out);
    free(out);
    /* and 40 columns still holds every line within them */
    out = printed(&a, 40);
    CHECK(fits(out, 40), "wider than 40:\n%s", out);
    free(out);
}

static void holds_and_not(void)
{
    ratio_row r[2] = {cell("new", "chain", 1000, 1.002, 0.991, 1.018, 32),
                      cell("new", "chain", 10000, 0.501, 0.498, 0.506, 32)};
    pb_report_data d;
    data_of(&d, r, 2, NULL);
    pb_verdict_cfg cfg = {.tolerance = 0.10};
    pb_verdict_counts n = {.cells = 2, .holds = 1, .does_not_hold = 1};
    pb_answer a;
    pb_answer_of(&a, &d, &CLAIMED, &cfg, &n);
    char text[8192];
    pb_answer_text(&a, 0, text, sizeof text);
    CHECK(!strcmp(text, "fixed: 2 cells: 1 holds, 1 does not hold; time new/old 0.501..1.002 on " "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz") &&
              !strstr(text, "why") && !strstr(text, "settle"),
          "answer '%s'", text);
    char *out = printed(&a, 80);
    /* the CPU's name does not fit beside the rest: the second line has it */
    CHECK(fits(out, 80) && strstr(out, "fixed: 2 cells: 1 holds, 1 does not hold; time new/old 0.501..1.002\n  on Intel") == out,
          "80: '%s'", out);
    free(out);
}

static void ab_words(void)
{
    char w[96];
    CHECK(!strcmp(pb_verdict_ab_words(0.68, 0.66, 0.70, w, sizeof w), "faster by 32 % [30 %, 34 %]"), "'%s'", w);
    CHECK(!strcmp(pb_verdict_ab_words(1.051, 1.02, 1.083, w, sizeof w), "slower by 5.1 % [2.0 %, 8.3 %]"), "'%s'", w);
    CHECK(!strcmp(pb_verdict_ab_words(0.99, 0.97, 1.021, w, sizeof w), "no detectable change [-3.0 %, +2.1 %]"), "'%s'",
          w);
    CHECK(!strcmp(pb_verdict_ab_words(1, NAN, NAN, w, sizeof w), "no data"), "'%s'", w);
    /* exec with three commands: the pair in a sentence, the third against the same baseline */
    ratio_row r[2] = {cell("b", "command", 0, 0.68, 0.66, 0.70, 16), cell("c", "command", 0, 1.0, 0.98, 1.02, 16)};
    pb_report_data d;
    data_of(&d, r, 2, NULL);
    pb_verdict_cfg cfg = {.tolerance = 0.10};
    pb_verdict_counts n = {.cells = 1, .no_claim = 1};
    pb_answer a;
    pb_answer_of(&a, &d, &AB, &cfg, &n);
    char text[8192];
    pb_answer_text(&a, 0, text, sizeof text);
    CHECK(a.ab && strstr(text, "exec: b is faster than a by 32 % [30 %, 34 %] on Intel(R) Xeon(R)") == text &&
              strstr(text, "; c against a: no detectable change [-2.0 %, +2.0 %]") && !strstr(text, "claim") &&
              !strstr(text, "cells"),
          "A/B '%s'", text);
    char *out = printed(&a, 80);
    CHECK(fits(out, 80) && strstr(out, "exec: b is faster than a by 32 % [30 %, 34 %]") == out, "80: '%s'", out);
    free(out);
}

int main(void)
{
    counts_without_zeros();
    inconclusive_says_why_and_rounds();
    holds_and_not();
    ab_words();
    return check_summary();
}
