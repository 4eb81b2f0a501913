/* SPDX-License-Identifier: GPL-2.0-only */
/* The decomposition time ratio = instruction ratio x time-per-instruction ratio (report/decompose.h)
 * on fixed numbers: every sentence case, the CI's edges (touching 1, NaN, inverted, not positive),
 * no ratio at all, the percentages' precision, and its outputs: nothing where there is no count run,
 * the Markdown row, `bench report`'s lines within a width. No timing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decompose.h"
#include "term.h"
#include "../lib/check.h"

typedef struct dcase {
    double t, lo, hi, insns;
    pb_decomp_dir work, cost;
    const char *explained, *sentence, *why;
} dcase;

#define NOT_WORK ": memory, layout or micro-architecture, not work"
#define PART ": the work explains part of it, memory, layout or micro-architecture the rest"

static const dcase CASES[] = {
    {1.0, 0.98, 1.02, 0.8, PB_DECOMP_LESS, PB_DECOMP_MORE, "per instruction",
     "new executes 20 % fewer instructions but each costs 25 % more" NOT_WORK, "fewer instructions, each dearer"},
    {0.8, 0.78, 0.82, 0.8, PB_DECOMP_LESS, PB_DECOMP_SAME, "work",
     "new executes 20 % fewer instructions and each costs about the same: the work explains it",
     "fewer instructions, the time with them"},
    {1.25, 1.2, 1.3, 1.25, PB_DECOMP_MORE, PB_DECOMP_SAME, "work",
     "new executes 25 % more instructions and each costs about the same: the work explains it",
     "more instructions, the time with them"},
    {1.0, 0.95, 1.05, 1.25, PB_DECOMP_MORE, PB_DECOMP_LESS, "per instruction",
     "new executes 25 % more instructions but each costs 20 % less" NOT_WORK, "more instructions, each cheaper"},
    {1.1, 1.05, 1.15, 1.0, PB_DECOMP_SAME, PB_DECOMP_MORE, "per instruction",
     "new executes as many instructions (within 0.5 %) but each costs 10 % more" NOT_WORK,
     "the same work, each instruction dearer"},
    {0.9, 0.85, 0.95, 1.002, PB_DECOMP_SAME, PB_DECOMP_LESS, "per instruction",
     "new executes as many instructions (within 0.5 %) but each costs 10 % less" NOT_WORK,
     "the same work (+0.2 %), each instruction cheaper"},
    {0.6, 0.58, 0.62, 0.8, PB_DECOMP_LESS, PB_DECOMP_LESS, "work and per instruction",
     "new executes 20 % fewer instructions and each costs 25 % less" PART, "fewer instructions, each cheaper"},
    {1.32, 1.3, 1.34, 1.1, PB_DECOMP_MORE, PB_DECOMP_MORE, "work and per instruction",
     "new executes 10 % more instructions and each costs 20 % more" PART, "more instructions, each dearer"},
    {1.0, 0.99, 1.01, 1.0, PB_DECOMP_SAME, PB_DECOMP_SAME, "work",
     "new executes as many instructions (within 0.5 %) and each costs about the same: no difference in work or in "
     "cost per instruction beyond the CI", "nothing moved"},
    /* the CI's edges: beyond it is strict, so an edge at exactly 1 has not moved (x/x is exactly 1) */
    {0.6, 0.5, 0.7, 0.5, PB_DECOMP_LESS, PB_DECOMP_SAME, "work",
     "new executes 50 % fewer instructions and each costs about the same: the work explains it",
     "the per-instruction CI's lower edge exactly 1"},
    {0.4, 0.3, 0.5, 0.5, PB_DECOMP_LESS, PB_DECOMP_SAME, "work",
     "new executes 50 % fewer instructions and each costs about the same: the work explains it",
     "the per-instruction CI's upper edge exactly 1"},
    {0.6, 0.5000001, 0.7, 0.5, PB_DECOMP_LESS, PB_DECOMP_MORE, "per instruction",
     "new executes 50 % fewer instructions but each costs 20 % more" NOT_WORK, "just beyond 1"},
    /* a CI that allows a cost per instruction changing the time as much as the work: undecided */
    {0.8, 0.6, 1.05, 0.8, PB_DECOMP_LESS, PB_DECOMP_SAME, "undecided",
     "new executes 20 % fewer instructions; the CI is too wide to tell whether the work explains it: each "
     "instruction may cost from 25 % less to 31 % more", "a wide CI: 0.75 to 1.31 per instruction against 0.8"},
    {0.5, 0.25, 0.75, 0.5, PB_DECOMP_LESS, PB_DECOMP_SAME, "undecided", NULL,
     "a per-instruction edge (0.5) exactly as far from 1 as the work's change"},
    {0.526, 0.285, 0.973, 0.7711, PB_DECOMP_LESS, PB_DECOMP_SAME, "undecided", NULL,
     "xts 4 KiB, a --quick run on a busy host: time below 1, the work's share not known"},
    {1.0, NAN, NAN, 0.8, PB_DECOMP_LESS, PB_DECOMP_UNKNOWN, "unknown",
     "new executes 20 % fewer instructions; the time ratio has no CI, so whether each costs more or less cannot be "
     "told", "no CI"},
    {1.0, 1.1, 0.9, 0.8, PB_DECOMP_LESS, PB_DECOMP_UNKNOWN, "unknown", NULL, "an inverted CI"},
    {1.0, 0.0, 1.1, 0.8, PB_DECOMP_LESS, PB_DECOMP_UNKNOWN, "unknown", NULL, "a CI edge at 0"},
    {1.0, 0.9, INFINITY, 0.8, PB_DECOMP_LESS, PB_DECOMP_UNKNOWN, "unknown", NULL, "an infinite CI edge"},
};

static void check_cases(void)
{
    char buf[512];
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const dcase *c = &CASES[i];
        pb_decomp d;
        CHECK(pb_decomp_of(c->t, c->lo, c->hi, c->insns, &d) == 0, "%s: decomposed", c->why);
        CHECK(d.work == c->work, "%s: work %d, want %d", c->why, d.work, c->work);
        CHECK(d.cost == c->cost, "%s: cost %d, want %d", c->why, d.cost, c->cost);
        /* the identity holds by construction, and the CI is the time's divided by the exact count */
        CHECK(fabs(d.insns * d.per_insn - c->t) < 1e-12, "%s: %g x %g != %g", c->why, d.insns, d.per_insn, c->t);
        if (c->cost != PB_DECOMP_UNKNOWN)
            CHECK(fabs(d.per_insn_lo * c->insns - c->lo) < 1e-12 && fabs(d.per_insn_hi * c->insns - c->hi) < 1e-12,
                  "%s: per-instruction CI [%g, %g]", c->why, d.per_insn_lo, d.per_insn_hi);
        else
            CHECK(isnan(d.per_insn_lo) && isnan(d.per_insn_hi), "%s: no per-instruction CI", c->why);
        CHECK(!strcmp(pb_decomp_explained_by(&d), c->explained), "%s: explained by '%s', want '%s'", c->why,
              pb_decomp_explained_by(&d), c->explained);
        pb_decomp_sentence(&d, "new", buf, sizeof buf);
        CHECK(d.wide == !strcmp(c->explained, "undecided"), "%s: wide %d", c->why, d.wide);
        if (c->sentence) CHECK(!strcmp(buf, c->sentence), "%s:\n  got  '%s'\n  want '%s'", c->why, buf, c->sentence);
        else CHECK(strstr(buf, d.wide ? "too wide" : "has no CI"), "%s: '%s'", c->why, buf);
    }
}

/* The issue's figures: xts 4 KiB on a Zen 5 core, 14,206 instructions per op against 18,405 and a
 * wall-time ratio of 1.02 [1.01, 1.03] */
static void check_issue_figures(void)
{
    pb_decomp d;
    char buf[512];
    CHECK(pb_decomp_of(1.02, 1.01, 1.03, 14206.0 / 18405.0, &d) == 0, "decomposed");
    pb_decomp_sentence(&d, "new", buf, sizeof buf);
    CHECK(!strcmp(buf, "new executes 23 % fewer instructions but each costs 32 % more" NOT_WORK), "'%s'", buf);
    CHECK(fabs(d.per_insn_lo - 1.3085) < 1e-4 && fabs(d.per_insn_hi - 1.3344) < 1e-4, "[%g, %g]", d.per_insn_lo,
          d.per_insn_hi);
}

/* nothing to decompose: no time ratio, no instruction ratio, or one that is not positive */
static void check_nothing(void)
{
    const double bad[][2] = {{NAN, 0.8}, {1.0, NAN}, {1.0, 0.0}, {0.0, 0.8}, {-1.0, 0.8}, {1.0, INFINITY}};
    char buf[256];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pb_decomp d;
        CHECK(pb_decomp_of(bad[i][0], 0.9, 1.1, bad[i][1], &d) == -1, "time %g, insns %g: refused", bad[i][0], bad[i][1]);
        CHECK(d.cost == PB_DECOMP_UNKNOWN && isnan(d.per_insn), "time %g, insns %g: nothing set", bad[i][0], bad[i][1]);
        pb_decomp_sentence(&d, "new", buf, sizeof buf);
        CHECK(!strncmp(buf, "no decomposition: ", 18), "time %g, insns %g: '%s'", bad[i][0], bad[i][1], buf);
    }
}

static void check_pct(void)
{
    const struct { double x; const char *want; } P[] = {{33.3, "33"}, {10.0, "10"}, {9.96, "10.0"}, {2.14, "2.1"},
                                                          {1.0, "1.0"}, {0.354, "0.35"}, {-23.4, "23"}, {0, "0.00"}};
    char buf[32];
    for (size_t i = 0; i < sizeof P / sizeof P[0]; i++)
        CHECK(!strcmp(pb_decomp_pct(P[i].x, buf, sizeof buf), P[i].want), "%g %%: '%s', want '%s'", P[i].x, buf,
              P[i].want);
}

/* f's text, read back from the start */
static char *slurp(FILE *f)
{
    long n = ftell(f);
    char *s = calloc(1, (size_t)n + 1);
    if (!s) abort();
    rewind(f);
    if (fread(s, 1, (size_t)n, f) != (size_t)n) s[0] = 0;
    fclose(f);
    return s;
}

static void check_outputs(void)
{
    pb_decomp_cell cells[2] = {
        {.variant = "256-bit", .op = "enc", .base = "old", .cand = "new", .size = 4096},
        {.variant = "256-bit", .op = "enc", .base = "old", .cand = "openssl", .size = 4096},
    };
    pb_decomp_of(1.0, 0.98, 1.02, 0.8, &cells[0].d);
    pb_decomp_of(0.5, 0.45, 0.55, 0.5, &cells[1].d);
    pb_decomp_set none = {.time_run = 1};
    pb_decomp_set set = {.time_run = 1, .count_run = 2, .v = cells, .n = 2, .caveat = "not comparable with wall-time rows"};
    FILE *f = tmpfile();
    pb_decomp_md(f, &none);
    pb_decomp_html(f, &none);
    pb_decomp_print(f, &none, "xts", "old", "new", 0);
    CHECK(ftell(f) == 0, "no count run: nothing written (%ld bytes)", ftell(f));
    pb_decomp_md(f, &set);
    char *md = slurp(f);
    CHECK(strstr(md, "## Why: instructions × time per instruction"), "md heading: %s", md);
    CHECK(strstr(md, "| 256-bit enc 4 KiB | new/old | 1.000 [0.980, 1.020] | 0.8000 | 1.250 [1.225, 1.275] | "
                           "new executes 20 % fewer instructions but each costs 25 % more" NOT_WORK " |"),
          "md row: %s", md);
    CHECK(strstr(md, "**Counts under Valgrind:** not comparable with wall-time rows.\n"), "md caveat: %s", md);
    free(md);
    /* bench report's lines: the suite's pair only, every line within the width */
    f = tmpfile();
    pb_decomp_print(f, &set, "xts", "old", "new", 40);
    char *out = slurp(f);
    CHECK(!strstr(out, "openssl"), "only new/old: %s", out);
    CHECK(strstr(out, "256-bit enc 4 KiB: 1.000 [0.98") && strstr(out, "each costs 25 %"), "lines: %s", out);
    int lines = 0;
    for (char *l = strtok(out, "\n"); l; l = strtok(NULL, "\n"), lines++)
        CHECK(pb_utf8_cols(l) <= 40, "line of %zu columns: '%s'", pb_utf8_cols(l), l);
    CHECK(lines >= 4, "%d lines", lines);
    free(out);
    /* a run whose pair is not the suite's (exec's named impls): every pair, each named */
    f = tmpfile();
    pb_decomp_print(f, &set, "xts", "a", "b", 0);
    out = slurp(f);
    CHECK(strstr(out, "256-bit enc 4 KiB new/old: ") && strstr(out, "256-bit enc 4 KiB openssl/old: "),
          "every pair: %s", out);
    free(out);
}

int main(void)
{
    check_cases();
    check_issue_figures();
    check_nothing();
    check_pct();
    check_outputs();
    return check_summary();
}
