/* SPDX-License-Identifier: GPL-2.0-only */
/* Smoke test of the benchmark path, without timing anything: every cell of
 * the default grid (segment op with 2 threads, stream op) and every impl
 * passes selftest, sets up, runs body a few times, reports no errors and
 * frees. The kernel impl may only be unavailable (PB_SETUP_UNAVAILABLE: TCP-AO is not
 * in the host kernel; TCP-MD5 may be missing elsewhere). One segment and
 * one stream case also run past a sequence-number wrap (SNE + 1). Also the
 * suite's option errors. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sigpool_suite.h"

/* the suite's options object (suite.h), one for the whole test: options accumulate as on a command line */
static void *suite_opts;

extern const pb_suite pb_suite_sigpool;

static int run_case(const pb_cell *cell, const char *impl, uint64_t iters)
{
    const pb_suite *s = &pb_suite_sigpool;
    pb_case c;
    pb_err e = {{0}};
    pb_setup_status st = s->setup_case(suite_opts, cell, impl, &c, &e);
    if (st != PB_SETUP_OK) {
        if (strcmp(impl, "kernel") == 0 && st == PB_SETUP_UNAVAILABLE) {
            printf("  %-8s %-15s %-6s unavailable: %s\n", cell->op, cell->variant, impl, e.msg);
            return 0;
        }
        fprintf(stderr, "FAIL setup %s %s %s: %s\n", cell->op, cell->variant, impl, e.msg);
        return 1;
    }
    c.body(c.ctx, 2);
    c.body(c.ctx, 1);
    c.body(c.ctx, iters);
    uint64_t errors = c.error_count ? *c.error_count : 0;
    if (c.free_ctx) c.free_ctx(c.ctx);
    if (errors) {
        fprintf(stderr, "FAIL %s %s %s: %llu errors\n", cell->op, cell->variant, impl, (unsigned long long)errors);
        return 1;
    }
    printf("  %-8s %-15s %-6s ok\n", cell->op, cell->variant, impl);
    return 0;
}

static void expect_opt_error(const char *name, const char *value, const char *needle)
{
    pb_err e = {{0}};
    int rc = pb_suite_set_opt(&pb_suite_sigpool, suite_opts, name, value, &e);
    if (rc != -1 || !strstr(e.msg, needle)) {
        fprintf(stderr, "FAIL --%s %s: rc %d, message '%s' lacks '%s'\n", name, value ? value : "(none)", rc, e.msg,
                needle);
        exit(1);
    }
}

int main(void)
{
    suite_opts = pb_suite_opts_new(&pb_suite_sigpool, NULL);
    if (!suite_opts) return 1;
    const pb_suite *s = &pb_suite_sigpool;
    pb_err e = {{0}};
    expect_opt_error("algs", "hmac(sha1),hmac(sha999)", "valid: md5, hmac(sha1)");
    expect_opt_error("algs", "hmac(sha1),hmac(sha999)", "cmac(aes128), hmac(sha256)");
    expect_opt_error("payload", "0", "--payload");
    expect_opt_error("payload", "12x", "--payload");
    expect_opt_error("payload", NULL, "needs a value");
    expect_opt_error("mode", "fast", "segment, stream or both");
    expect_opt_error("threads", "-1", "--threads");
    expect_opt_error("maclen", "17", "--maclen");
    assert(pb_suite_set_opt(s, suite_opts, "no-such-option", "1", &e) == 0);
    assert(pb_suite_set_opt(s, suite_opts, "--algs", "all", &e) == 1 && ((sp_opts *)suite_opts)->algs == (1u << SP_NVARIANTS) - 1);
    assert(pb_suite_set_opt(s, suite_opts, "threads", "2", &e) == 1);

    for (const char *impl = "old"; impl; impl = strcmp(impl, "old") == 0 ? "new" : strcmp(impl, "new") == 0 ? "kernel" : NULL)
        if (s->selftest(suite_opts, impl, &e)) {
            fprintf(stderr, "FAIL selftest %s: %s\n", impl, e.msg);
            return 1;
        }

    pb_plan_opts po = {.quick = 1};
    pb_grid g;
    if (s->plan(suite_opts, &po, &g, &e)) {
        fprintf(stderr, "FAIL plan: %s\n", e.msg);
        return 1;
    }
    assert(g.ncells == 2 * SP_NVARIANTS);
    int fails = 0;
    for (int i = 0; i < g.ncells; i++) {
        const pb_cell *c = &g.cells[i];
        /* stream cells: the data a segment carries under this host's timestamp setting */
        int ts = sp_stream_timestamps(strcmp(c->variant, "md5") == 0, ((sp_opts *)suite_opts)->tcp_timestamps);
        size_t want = strcmp(c->op, "stream") == 0 ? sp_stream_data_bytes(1448, ts) : 1448;
        assert(c->size_bytes == want && sp_variant_index(c->variant) >= 0);
        assert(s->claim(c, 1.0) == PB_CLAIM_EQUAL);
        for (int k = 0; k < c->nimpls; k++) fails += run_case(c, c->impls[k], 3);
    }
    free(g.cells);

    /* past a sequence-number wrap: ISN 0xfff00000, 1448-byte segments */
    pb_cell wrap = {.variant = "hmac(sha1)", .op = "stream", .size_bytes = 1448};
    fails += run_case(&wrap, "new", 800);
    snprintf(wrap.op, sizeof wrap.op, "segment");
    fails += run_case(&wrap, "old", 1600);

    /* IPv6 pseudo-headers (stream over ::1) */
    assert(pb_suite_set_opt(s, suite_opts, "ipv6", NULL, &e) == 1);
    pb_cell v6 = {.variant = "cmac(aes128)", .op = "stream", .size_bytes = 100};
    fails += run_case(&v6, "old", 5);
    snprintf(v6.variant, sizeof v6.variant, "md5");
    fails += run_case(&v6, "new", 5);
    fails += run_case(&v6, "kernel", 5);
    snprintf(v6.op, sizeof v6.op, "segment");
    fails += run_case(&v6, "new", 5);

    pb_cell bad = {.variant = "hmac(sha1)", .op = "segment", .size_bytes = 100};
    pb_case c;
    assert(s->setup_case(suite_opts, &bad, "kernel", &c, &e) == -1 && strstr(e.msg, "only the stream op"));
    assert(s->setup_case(suite_opts, &bad, "foo", &c, &e) == -1 && strstr(e.msg, "unknown impl"));
    if (fails) return 1;
    printf("ok\n");
    return 0;
}
