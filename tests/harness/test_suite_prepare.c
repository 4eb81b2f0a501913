/* SPDX-License-Identifier: GPL-2.0-only */
/* pb_suite_prepare (suite.h): a registration without what callers trust is refused with the suite
 * and the missing piece named; every suite bench links passes; the optional hooks' defaults. */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "suite.h"

static int plan(void *o, const pb_plan_opts *po, pb_grid *g, pb_err *e)
{
    (void)o, (void)po, (void)g, (void)e;
    return 0;
}

static pb_setup_status setup(void *o, const pb_cell *c, const char *impl, pb_case *k, pb_err *e)
{
    (void)o, (void)c, (void)impl, (void)k, (void)e;
    return PB_SETUP_OK;
}

static int set_x(void *o, const char *v, pb_err *e)
{
    (void)o, (void)v, (void)e;
    return 0;
}

static void refused(const pb_suite *s, const char *want)
{
    pb_err e = {{0}};
    assert(pb_suite_prepare(s, &e) == -1);
    if (!strstr(e.msg, want)) {
        fprintf(stderr, "FAIL: '%s' lacks '%s'\n", e.msg, want);
        assert(0);
    }
}

int main(void)
{
    pb_err e = {{0}};
    assert(pb_suites_prepare(pb_suites, &e) == 0);
    const pb_suite good = {.name = "t", .title = "a test", .baseline = "old", .candidate = "new", .plan = plan,
                           .setup_case = setup};
    assert(pb_suite_prepare(&good, &e) == 0);
    pb_suite s = good;
    s.plan = NULL;
    refused(&s, "suite t is registered without plan");
    s = good;
    s.setup_case = NULL;
    refused(&s, "without setup_case");
    s = good;
    s.candidate = "";
    refused(&s, "without candidate");
    s = good;
    s.name = NULL;
    refused(&s, "suite (unnamed) is registered without name");
    static const pb_suite_opt twice[] = {
        {"x", NULL, "x", set_x}, {"x", NULL, "x again", set_x}, {NULL, NULL, NULL, NULL}};
    s = good;
    s.options = twice;
    refused(&s, "without opts_size");
    s.opts_size = 8;
    refused(&s, "option --x is declared twice");
    static const pb_suite_opt one[] = {{"x", "LIST", "x", set_x}, {NULL, NULL, NULL, NULL}};
    static const char *const once_typo[] = {"y", NULL}, *const once_x[] = {"x", NULL};
    s = good;
    s.options = one;
    s.opts_size = 8;
    s.once_options = once_typo;
    refused(&s, "suite t: once_options names --y, which it has not");
    s.once_options = once_x;
    assert(pb_suite_prepare(&s, &e) == 0 && pb_suite_opt_once(&s, "--x") && !pb_suite_opt_once(&good, "x"));
    const pb_suite *const two[] = {&good, &good, NULL};
    assert(pb_suites_prepare(two, &e) == -1 && strstr(e.msg, "suite t is registered twice"));
    /* the defaults of the optional hooks */
    assert(pb_suite_selftest(&good, NULL, "old", &e) == 0);
    assert(pb_suite_check_size(&good, 17, &e) == 0);
    assert(pb_suite_effective_options(&good, NULL) == NULL);
    assert(pb_suite_calibrated_options(&good, NULL) == NULL);
    assert(pb_suite_library_versions(&good) == NULL);
    assert(pb_suite_claim(&good, NULL, 1.0) == PB_CLAIM_NONE);
    assert(pb_suite_kat_accepts(&good, "x.rsp") == 0);
    printf("1 passed, 0 failed\n");
    return 0;
}
