/* SPDX-License-Identifier: GPL-2.0-only */
/* test_drbg_smoke.c — the benchmark path without timing: every impl's
 * selftest, then for every cell of the default grid and every impl of the
 * cell setup_case, body(ctx, 2), free_ctx; again with --addtl and a --mech
 * filter; and the option errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/drbg.h"
#include "peers/drbg_peers.h"
#include "suite.h"

/* the suite's options object (suite.h), one for the whole test: options accumulate as on a command line */
static void *suite_opts;

extern const pb_suite pb_suite_drbg;
static const pb_suite *S = &pb_suite_drbg;
static int failures;

static void fail(const char *what, const char *msg)
{
    fprintf(stderr, "FAIL %s: %s\n", what, msg);
    failures++;
}

/* Runs the grid; returns the number of cells. */
static int run_grid(const char *label)
{
    pb_plan_opts po = { .quick = 1 };
    pb_grid g = { 0, NULL };
    pb_err e = { { 0 } };
    if (S->plan(suite_opts, &po, &g, &e)) {
        fail(label, e.msg);
        return 0;
    }
    for (int i = 0; i < g.ncells; i++) {
        const pb_cell *c = &g.cells[i];
        for (int k = 0; k < c->nimpls; k++) {
            char what[160];
            snprintf(what, sizeof what, "%s %s %s %llu %s", label, c->variant, c->op,
                     (unsigned long long)c->size_bytes, c->impls[k]);
            pb_case pc = { 0 };
            if (S->setup_case(suite_opts, c, c->impls[k], &pc, &e)) {
                fail(what, e.msg);
                continue;
            }
            pc.body(pc.ctx, 2);
            if (pc.error_count && *pc.error_count) fail(what, "body counted errors");
            if (pc.free_ctx) pc.free_ctx(pc.ctx);
        }
    }
    int n = g.ncells;
    free(g.cells);
    return n;
}

static void expect_opt(const char *name, const char *value, int want)
{
    pb_err e = { { 0 } };
    int rc = pb_suite_set_opt(S, suite_opts, name, value, &e);
    if (rc != want) {
        char what[96];
        snprintf(what, sizeof what, "option --%s%s%s", name, value ? "=" : "", value ? value : "");
        fail(what, rc < 0 ? e.msg : "unexpected result");
    } else if (rc < 0 && !e.msg[0]) {
        fail(name, "rejected without a message");
    }
}

int main(void)
{
    suite_opts = pb_suite_opts_new(&pb_suite_drbg, NULL);
    if (!suite_opts) return 1;
    static const char *const impls[] = { "old", "new", "old@native", "new@native", "gcrypt", "openssl" };
    for (size_t i = 0; i < sizeof impls / sizeof impls[0]; i++) {
        pb_err e = { { 0 } };
        if (S->selftest(suite_opts, impls[i], &e)) fail(impls[i], e.msg);
    }
    pb_err e = { { 0 } };
    if (!S->selftest(suite_opts, "nope", &e)) fail("selftest(nope)", "accepted an unknown impl");

    int n = run_grid("default");
    if (n != 20) fail("default grid", "expected 4 mechanisms x 5 sizes");

    /* libgcrypt's DRBG is process-wide: a selftest between setup and body
     * re-instantiates it as other mechanisms; the body must take it back. */
    pb_case gc = { 0 };
    pb_cell g128 = { .variant = "aes128", .op = "generate", .size_bytes = 32 };
    if (S->setup_case(suite_opts, &g128, "gcrypt", &gc, &e)) {
        fail("setup_case(gcrypt)", e.msg);
    } else {
        if (S->selftest(suite_opts, "gcrypt", &e)) fail("selftest(gcrypt)", e.msg);
        gc.body(gc.ctx, 1);
        if (pb_drbg_gcrypt_current() != PB_DRBG_CTR_AES128) fail("gcrypt body", "measures the wrong mechanism");
        gc.free_ctx(gc.ctx);
    }

    expect_opt("addtl", NULL, 1);
    expect_opt("addtl", "1", -1);
    expect_opt("mech", "aes128,hmac-sha256", 1);
    expect_opt("mech", "aes192", -1);
    expect_opt("mech", NULL, -1);
    expect_opt("mech", ",", -1);
    expect_opt("sizes-in-furlongs", "3", 0);
    n = run_grid("--addtl --mech aes128,hmac-sha256");
    if (n != 10) fail("--mech grid", "expected 2 mechanisms x 5 sizes");

    /* a cell the suite does not have */
    pb_cell bad = { .variant = "aes192", .op = "generate", .size_bytes = 16 };
    pb_case pc = { 0 };
    if (!S->setup_case(suite_opts, &bad, "new", &pc, &e)) fail("setup_case(aes192)", "accepted");
    pb_cell big = { .variant = "aes128", .op = "generate", .size_bytes = 65537 };
    if (!S->setup_case(suite_opts, &big, "new", &pc, &e)) fail("setup_case(65537 B)", "accepted");

    if (failures) fprintf(stderr, "%d failures\n", failures);
    else printf("ok: selftests, default grid (%d cells) and --addtl/--mech grid, all impls\n", 20);
    return failures ? 1 : 0;
}
