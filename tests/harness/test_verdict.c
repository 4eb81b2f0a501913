/* SPDX-License-Identifier: GPL-2.0-only */
/* pb_verdict against a table of synthetic CIs (every verdict, every claim kind, CIs that touch the
 * band, NaN, no document number), pb_verdict_apart ("differs from the real code"), the verdict
 * settings file, and the summary line. No timing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report.h"
#include "../lib/check.h"

static const char HOLDS[] = "claim holds", SIZE[] = "direction holds, size differs", NOT[] = "claim does not hold",
                  INC[] = "inconclusive here";

typedef struct vcase {
    pb_claim claim;
    double doc, tol, lo, hi;
    const char *want;
    const char *why;
} vcase;

/* t = 0.25 makes the band edges exact in binary: d = 0.5 gives [0.4, 0.625], d = 1 gives [0.8, 1.25]. */
static const vcase CASES[] = {
    {PB_CLAIM_FASTER, 0.5, 0.25, 0.45, 0.55, HOLDS, "CI around the document's ratio"},
    {PB_CLAIM_FASTER, 0.5, 0.25, 0.30, 0.40, HOLDS, "CI touching the band's lower edge d/(1+t)"},
    {PB_CLAIM_FASTER, 0.5, 0.25, 0.625, 0.70, HOLDS, "CI touching the band's upper edge d*(1+t)"},
    {PB_CLAIM_FASTER, 0.5, 0.25, 0.30, 0.39, SIZE, "a gain larger than the document's"},
    {PB_CLAIM_FASTER, 0.5, 0.25, 0.63, 0.90, SIZE, "a gain smaller than the document's"},
    {PB_CLAIM_FASTER, 0.85, 0.10, 0.44, 0.47, SIZE, "issue 9: 0.45 measured against 0.85"},
    {PB_CLAIM_FASTER, 0.125, 0.10, 0.12, 0.13, HOLDS, "8x claim, matched"},
    {PB_CLAIM_FASTER, 0.125, 0.10, 0.20, 0.25, SIZE, "8x claim, 4-5x measured"},
    {PB_CLAIM_FASTER, 0.5, 0.25, 0.60, 1.00, INC, "CI reaching 1: direction not shown, the band not ruled out"},
    {PB_CLAIM_FASTER, 0.5, 0.25, 0.625, 1.05, INC, "CI touching the band's slow edge d*(1+t) from above"},
    {PB_CLAIM_FASTER, 0.5, 0.25, 0.63, 1.00, NOT, "the claimed gain ruled out, none shown (CI reaching 1)"},
    {PB_CLAIM_FASTER, 0.80, 0.10, 0.985, 1.05, NOT, "Zen 5 xts 4 KiB: claimed 0.80 ruled out, lower end under 0.99"},
    {PB_CLAIM_FASTER, 0.93, 0.10, 0.995, 1.02, NOT, "band edge 1.023 above 0.99: 0.99 decides"},
    {PB_CLAIM_FASTER, 0.93, 0.10, 0.985, 1.02, INC, "band edge 1.023 above 0.99, a 1 % gain possible"},
    {PB_CLAIM_FASTER, NAN, 0.25, 0.985, 1.05, INC, "no document number: only 0.99 decides"},
    {PB_CLAIM_FASTER, 0.5, 0.25, 0.50, 1.10, INC, "CI across 1"},
    {PB_CLAIM_FASTER, 0.5, 0.25, 0.995, 1.20, NOT, "not even a 1 % gain"},
    {PB_CLAIM_FASTER, 0.5, 0.25, 1.10, 1.30, NOT, "slower"},
    {PB_CLAIM_FASTER, NAN, 0.25, 0.20, 0.30, HOLDS, "no document number: direction only"},
    {PB_CLAIM_FASTER, NAN, 0.25, 1.00, 1.10, NOT, "no document number, slower"},
    {PB_CLAIM_FASTER, NAN, 0.25, 0.80, 1.20, INC, "no document number, CI across 1"},
    {PB_CLAIM_FASTER, 0.5, 0.25, NAN, 0.50, INC, "NaN lower bound"},
    {PB_CLAIM_FASTER, 0.5, 0.25, 0.40, NAN, INC, "NaN upper bound"},
    {PB_CLAIM_FASTER, 0.5, 0.25, 0.60, 0.50, INC, "inverted CI"},
    {PB_CLAIM_FASTER, 0.5, NAN, 0.45, 0.55, INC, "NaN tolerance"},
    {PB_CLAIM_FASTER, 0.5, 0.0, 0.45, 0.55, INC, "zero tolerance"},
    {PB_CLAIM_EQUAL, 1.0, 0.25, 0.90, 1.10, HOLDS, "equal, inside"},
    {PB_CLAIM_EQUAL, 1.0, 0.25, 0.80, 1.25, HOLDS, "equal, CI exactly the band"},
    {PB_CLAIM_EQUAL, 0.5, 0.25, 0.95, 1.05, HOLDS, "equal ignores the document's noise ratio"},
    {PB_CLAIM_EQUAL, NAN, 0.25, 0.95, 1.05, HOLDS, "equal without a document number"},
    {PB_CLAIM_EQUAL, 1.0, 0.25, 0.79, 1.00, INC, "equal, CI leaving the band"},
    {PB_CLAIM_EQUAL, 1.0, 0.25, 0.50, 0.80, INC, "equal, CI touching the band from below"},
    {PB_CLAIM_EQUAL, 1.0, 0.25, 0.50, 0.79, NOT, "equal, faster beyond the band"},
    {PB_CLAIM_EQUAL, 1.0, 0.25, 1.30, 1.50, NOT, "equal, slower beyond the band"},
    {PB_CLAIM_EQUAL, 1.0, 0.25, NAN, NAN, INC, "equal, NaN"},
    {PB_CLAIM_NOT_SLOWER, 1.0, 0.25, 0.90, 1.20, HOLDS, "comparable"},
    {PB_CLAIM_NOT_SLOWER, 1.0, 0.25, 1.00, 1.25, HOLDS, "CI touching 1+t"},
    {PB_CLAIM_NOT_SLOWER, 1.0, 0.25, 0.50, 0.70, SIZE, "'comparable' but much faster"},
    {PB_CLAIM_NOT_SLOWER, NAN, 0.25, 0.50, 0.70, HOLDS, "not slower, no document number"},
    {PB_CLAIM_NOT_SLOWER, 1.0, 0.25, 1.20, 1.30, INC, "CI across 1+t"},
    {PB_CLAIM_NOT_SLOWER, 1.0, 0.25, 1.30, 1.40, NOT, "slower beyond the tolerance"},
    {PB_CLAIM_NONE, 0.5, 0.25, 0.45, 0.55, "no claim", "no claim"},
    {PB_CLAIM_NONE, NAN, 0.25, NAN, NAN, "no claim", "no claim, no data"},
};

/* "differs from the real code": two CIs more than a factor 1+c apart, c = 0.25 (exact in binary) */
typedef struct acase {
    double alo, ahi, blo, bhi, c;
    int want;
    const char *why;
} acase;

static const acase APART[] = {
    {0.50, 0.52, 0.64, 0.66, 0.10, 1, "the re-implementation's gain larger than the real code's"},
    {0.95, 0.96, 0.80, 0.81, 0.10, 1, "... or smaller"},
    {0.50, 0.60, 0.62, 0.70, 0.25, 0, "estimates 20 % apart, CIs within 25 %"},
    {0.40, 0.50, 0.625, 0.70, 0.25, 0, "touching: 0.50 * 1.25 = 0.625 is not apart"},
    {0.40, 0.50, 0.626, 0.70, 0.25, 1, "just beyond the factor"},
    {1.25, 1.30, 1, 1, 0.10, 1, "kmod-new 25 % dearer than the kernel's template"},
    {0.95, 1.05, 1, 1, 0.10, 0, "kmod-new as dear as the kernel's"},
    {0.80, 0.95, 1, 1, 0.10, 0, "a CI reaching into [1/1.1, 1.1]"},
    {NAN, 0.5, 1, 1, 0.10, 0, "NaN"},
    {0.6, 0.5, 1, 1, 0.10, 0, "inverted CI"},
    {0.0, 0.1, 1, 1, 0.10, 0, "non-positive CI"},
    {0.1, 0.2, 1, 1, 0.0, 0, "zero threshold"},
};

static char dir[] = "/tmp/pb_verdict_XXXXXX";

static void write_cfg(const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/verdict.tsv", dir);
    FILE *f = fopen(path, "w");
    if (!f) { perror(path); exit(1); }
    fputs(text, f);
    fclose(f);
}

static void check_cfg_error(const char *text, const char *want)
{
    write_cfg(text);
    pb_verdict_cfg c;
    pb_err e = {{0}};
    int rc = pb_verdict_cfg_load(dir, "xts", &c, &e);
    CHECK(rc < 0 && strstr(e.msg, want), "cfg '%s': rc %d, message '%s', want '%s'", text, rc, e.msg, want);
}

int main(void)
{
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const vcase *c = &CASES[i];
        const char *got = pb_verdict(c->claim, c->doc, c->tol, c->lo, c->hi);
        CHECK(!strcmp(got, c->want), "%s: doc %g t %g CI [%g, %g]: got '%s', want '%s'", c->why, c->doc, c->tol,
              c->lo, c->hi, got, c->want);
    }

    for (size_t i = 0; i < sizeof APART / sizeof APART[0]; i++) {
        const acase *a = &APART[i];
        int got = pb_verdict_apart(a->alo, a->ahi, a->blo, a->bhi, a->c);
        CHECK(got == a->want, "apart: %s: [%g, %g] against [%g, %g], c %g: got %d", a->why, a->alo, a->ahi, a->blo,
              a->bhi, a->c, got);
        got = pb_verdict_apart(a->blo, a->bhi, a->alo, a->ahi, a->c);
        CHECK(got == a->want, "apart is symmetric: %s: got %d", a->why, got);
    }

    /* nearness: the smallest widening of the CI (about its estimate, log scale) that takes in a
     * boundary, up to 2. "faster", doc 0.5, t 0.25: boundaries 0.4, 0.625, 0.99 and 1. */
    CHECK(isinf(pb_verdict_nearness(PB_CLAIM_FASTER, 0.5, 0.25, 0.5, 0.45, 0.55)), "nearness: around the document's ratio, far");
    double w = pb_verdict_nearness(PB_CLAIM_FASTER, 0.5, 0.25, 0.55, 0.50, 0.60);
    CHECK(fabs(w - log(0.625 / 0.55) / log(0.60 / 0.55)) < 1e-9, "nearness: upper end towards 0.625: %.12g", w);
    w = pb_verdict_nearness(PB_CLAIM_FASTER, 0.5, 0.25, 1.03, 1.01, 1.05);
    CHECK(fabs(w - log(1.00 / 1.03) / log(1.01 / 1.03)) < 1e-9 && w > 1 && w < 2,
          "nearness: lower end 1.01 towards 1, the nearer of 1 and 0.99: %.12g", w);
    w = pb_verdict_nearness(PB_CLAIM_FASTER, 0.5, 0.25, 1.02, 1.00, 1.04);
    CHECK(fabs(w - 1) < 1e-9, "nearness: lower end on 1: %.12g", w);
    CHECK(isinf(pb_verdict_nearness(PB_CLAIM_FASTER, 0.5, 0.25, 1.05, 1.03, 1.07)),
          "nearness: lower end 1.03, doubled 1.01: far");
    w = pb_verdict_nearness(PB_CLAIM_FASTER, 0.5, 0.25, 0.98, 0.95, 1.01);
    CHECK(w < 1, "nearness: a CI across 1 (inconclusive) has its boundary inside: %g", w);
    w = pb_verdict_nearness(PB_CLAIM_NOT_SLOWER, 0.976, 0.10, 0.878, 0.865, 0.891);
    CHECK(w < 1, "nearness: xts 384 enc 64 B's band edge 0.887 inside the CI: %g", w);
    CHECK(pb_verdict_nearness(PB_CLAIM_EQUAL, NAN, 0.10, 1.08, 1.06, 1.10) < 2, "nearness: equal, 1.1 just past the CI");
    CHECK(isinf(pb_verdict_nearness(PB_CLAIM_EQUAL, NAN, 0.10, 1.0, 0.99, 1.01)), "nearness: equal, well inside");
    CHECK(isinf(pb_verdict_nearness(PB_CLAIM_NONE, NAN, 0.10, 1.0, 0.5, 1.5)), "nearness: no claim: never");
    CHECK(isinf(pb_verdict_nearness(PB_CLAIM_FASTER, 0.5, 0.25, NAN, 0.9, 1.1)), "nearness: NaN: never");
    CHECK(isinf(pb_verdict_nearness(PB_CLAIM_FASTER, 0.5, 0.25, 1.0, 1.1, 0.9)), "nearness: inverted: never");

    /* a ratio most of whose pairs ran on a shared core gives no verdict; half or fewer leave it as is */
    CHECK(!strcmp(pb_verdict_of_pairs(PB_CLAIM_FASTER, 1.0, 0.10, 0.908, 0.964, 110, 107), "inconclusive here"),
          "of pairs: 107 of 110 shared: no verdict");
    CHECK(!strcmp(pb_verdict_of_pairs(PB_CLAIM_FASTER, 1.0, 0.10, 0.908, 0.964, 10, 6), "inconclusive here"),
          "of pairs: 6 of 10 shared: no verdict");
    CHECK(!strcmp(pb_verdict_of_pairs(PB_CLAIM_FASTER, 1.0, 0.10, 0.908, 0.964, 10, 5), "claim holds"),
          "of pairs: 5 of 10 shared: the CI's verdict");
    CHECK(!strcmp(pb_verdict_of_pairs(PB_CLAIM_FASTER, 1.0, 0.10, 1.01, 1.05, 64, 0), "claim does not hold"),
          "of pairs: none shared: the CI's verdict");
    CHECK(!strcmp(pb_verdict_of_pairs(PB_CLAIM_NONE, 1.0, 0.10, 0.9, 0.95, 10, 9), "no claim"),
          "of pairs: no claim stays no claim");
    CHECK(!strcmp(pb_verdict_of_pairs(PB_CLAIM_EQUAL, NAN, 0.05, 0.99, 1.01, 0, 0), "claim holds"),
          "of pairs: n unknown (0): the CI's verdict");

    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    pb_verdict_cfg c;
    pb_err e = {{0}};
    CHECK(pb_verdict_cfg_load(dir, "xts", &c, &e) == 0 && c.tolerance == 0.10 && c.codegen_threshold == 0.10 &&
              c.real_code_threshold == 0.10 && strstr(c.source, "built-in defaults"),
          "missing file: defaults, said so ('%s')", c.source);
    /* a suite's own line wins over '*' in either order; other suites keep the default */
    write_cfg("# comment\n\ntolerance\txts\t0.3\ntolerance\t*\t0.2\ncodegen_threshold\t*\t0.15\n"
              "codegen_threshold\tdrbg\t0.05\n");
    CHECK(pb_verdict_cfg_load(dir, "xts", &c, &e) == 0 && c.tolerance == 0.3 && c.codegen_threshold == 0.15,
          "xts override: %g %g (%s)", c.tolerance, c.codegen_threshold, e.msg);
    CHECK(pb_verdict_cfg_load(dir, "drbg", &c, &e) == 0 && c.tolerance == 0.2 && c.codegen_threshold == 0.05,
          "drbg: %g %g (%s)", c.tolerance, c.codegen_threshold, e.msg);
    CHECK(strstr(c.source, "verdict.tsv") != NULL, "source '%s'", c.source);
    write_cfg("real_code_threshold\tdrbg\t0.2\nreal_code_threshold\t*\t0.15\n");
    CHECK(pb_verdict_cfg_load(dir, "drbg", &c, &e) == 0 && c.real_code_threshold == 0.2 && c.tolerance == 0.10,
          "drbg's real_code_threshold: %g (%s)", c.real_code_threshold, e.msg);
    CHECK(pb_verdict_cfg_load(dir, "xts", &c, &e) == 0 && c.real_code_threshold == 0.15,
          "the default real_code_threshold: %g (%s)", c.real_code_threshold, e.msg);
    check_cfg_error("real_code_threshold\t*\t1\n", "verdict.tsv:1: real_code_threshold wants a fraction");
    check_cfg_error("tolerance\t*\n", "verdict.tsv:1: expected 3 tab-separated fields");
    check_cfg_error("# x\ntolerance\t*\t0.1x\n", "verdict.tsv:2: expected 3");
    check_cfg_error("tolerance\t*\t1.5\n", "verdict.tsv:1: tolerance wants a fraction between 0 and 1");
    check_cfg_error("tolerance\t*\tnan\n", "wants a fraction");
    check_cfg_error("tolerance\tsigpool\t0\n", "verdict.tsv:1: tolerance wants a fraction");
    check_cfg_error("tolerence\tdrbg\t0.1\n", "verdict.tsv:1: unknown setting 'tolerence'");
    char path[256];
    snprintf(path, sizeof path, "%s/verdict.tsv", dir);
    unlink(path);
    rmdir(dir);

    char line[512];
    pb_verdict_counts n = {.cells = 9, .holds = 4, .size_differs = 2, .does_not_hold = 2, .inconclusive = 1,
                           .codegen = 2};
    pb_verdict_summary(&n, line, sizeof line);
    /* the counts that are not zero, and only those */
    CHECK(!strcmp(line, "9 cells: claim holds 4; direction holds, size differs 2; claim does not hold 2; "
                        "inconclusive here 1; depends on code generation 2"), "summary '%s'", line);
    pb_verdict_counts m = {.cells = 3, .holds = 1, .no_claim = 1, .no_data = 1};
    pb_verdict_summary(&m, line, sizeof line);
    CHECK(!strcmp(line, "3 cells: claim holds 1; no claim 1; no data 1"),
          "summary '%s'", line);
    /* the real code's count only where the table compared with the real code */
    pb_verdict_counts r = {.cells = 2, .holds = 2, .real = 1, .real_differs = 1};
    pb_verdict_summary(&r, line, sizeof line);
    CHECK(!strcmp(line, "2 cells: claim holds 2; differs from the real code 1"), "summary '%s'", line);
    r.real = 0;
    pb_verdict_summary(&r, line, sizeof line);
    CHECK(!strstr(line, "real code"), "summary without the real code '%s'", line);
    pb_verdict_counts one = {.cells = 1, .inconclusive = 1};
    pb_verdict_summary(&one, line, sizeof line);
    CHECK(!strcmp(line, "1 cell: inconclusive here 1"), "summary '%s'", line);
    char small[20];
    pb_verdict_summary(&n, small, sizeof small);
    CHECK(strlen(small) == sizeof small - 1, "truncated summary '%s'", small);

    return check_summary();
}
