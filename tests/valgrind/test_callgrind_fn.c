/* SPDX-License-Identifier: GPL-2.0-only */
/* Exclusive cost per function (callgrind_fn.h) on checked-in dumps: two real ones (GCC's clone
 * of a recursion folded into a loop; real recursion, callgrind's "fib'2") and a hand-written one
 * (inlined files, the lab's renamed copies, compressed names, cost before any fn=), then malformed
 * bodies, every error as FILE:LINE. No valgrind needed, no timing. */
#include <stdio.h>
#include <string.h>

#include "callgrind_fn.h"
#include "../lib/check.h"

#define HEAD "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\nevents: Ir Dr\nsummary: 0\n"

static const pb_cg_fn *fn(const pb_cg_fns *f, const char *name)
{
    for (size_t i = 0; i < f->n; i++)
        if (!strcmp(f->fn[i].name, name)) return &f->fn[i];
    return NULL;
}

static int load(const char *dir, const char *file, pb_cg_fns *f)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    pb_err e = {{0}};
    int rc = pb_cg_fns_parse_file(path, f, &e);
    CHECK(rc == 0, "%s parses: %s", file, e.msg);
    return rc;
}

static void real_dumps(const char *dir)
{
    pb_cg_fns f;
    /* rec() recursed into a loop by GCC, as "rec.constprop.0"; a call's inclusive lines left out */
    if (load(dir, "callgrind.out.fn-clone", &f) == 0) {
        const pb_cg_fn *leaf = fn(&f, "leaf"), *rec = fn(&f, "rec"), *mn = fn(&f, "main");
        CHECK(leaf && leaf->cost[0] == 112, "leaf: 112 Ir of its own, not its callers' 75 + 37 again");
        CHECK(rec && rec->cost[0] == 12 && !fn(&f, "rec.constprop.0"), "rec.constprop.0 is rec: 12 Ir");
        CHECK(mn && mn->cost[0] == 38, "main: 38 Ir (15 + 2 + 3 + 6 + 3 + 9)");
        CHECK(f.n == 3 && f.fn[0].cost[0] == 112 && !strcmp(f.fn[0].name, "leaf"), "3 functions, largest first");
        CHECK(!fn(&f, "(below main)"), "frames with only inclusive call lines have no cost of their own");
        pb_cg_fns_free(&f);
    }
    /* fib calls fib'2 which calls itself: one function, 21 + 118 Ir */
    if (load(dir, "callgrind.out.fn-recursion", &f) == 0) {
        const pb_cg_fn *fib = fn(&f, "fib"), *mn = fn(&f, "main");
        CHECK(fib && fib->cost[0] == 139 && fib->cost[1] == 49, "fib and fib'2: 139 Ir, 49 Dr, got %llu",
              fib ? (unsigned long long)fib->cost[0] : 0ull);
        CHECK(mn && mn->cost[0] == 17 && f.n == 2, "main 17 Ir; two functions");
        CHECK(!strcmp(f.counts.trigger, "Client Request: pbcase 2"), "the header is read as callgrind_parse reads it");
        pb_cg_fns_free(&f);
    }
    if (load(dir, "callgrind.out.fn-inlined", &f) == 0) {
        const pb_cg_fn *pre = fn(&f, "pre_crypt"), *dc = fn(&f, "do_crypt"), *ecb = fn(&f, "xts_ecb_encrypt"),
                       *unk = fn(&f, "???");
        int bc = pb_cg_fns_event(&f, "Bc"), d1 = pb_cg_fns_event(&f, "D1mr");
        CHECK(pre && pre->cost[0] == 613, "pre_crypt.isra.0 (with its inlined header's lines) and pre_crypt: 613 Ir");
        CHECK(dc && dc->cost[0] == 180 && dc->cost[1] == 25 && bc >= 0 && dc->cost[bc] == 4,
              "do_crypt_native: 100 + 50 (fi=) + 30 (fe=) Ir, 25 Dr, 4 Bc");
        CHECK(pre && d1 >= 0 && pre->cost[d1] == 1, "events after Ir: D1mr of pre_crypt");
        CHECK(ecb && ecb->cost[0] == 200, "xts_ecb_encrypt_native named by a cfn= id: 200 Ir, its call's 200 not again");
        CHECK(unk && unk->cost[0] == 7, "a cost before any fn= is callgrind's unknown function");
        CHECK(f.n == 4 && !strcmp(f.fn[0].name, "pre_crypt") && !strcmp(f.fn[3].name, "???"), "largest first");
        pb_cg_fns_free(&f);
    }
}

static void expect_error(const char *text, const char *want, const char *why)
{
    pb_cg_fns f;
    pb_err e = {{0}};
    int rc = pb_cg_fns_parse_text("t.out", text, &f, &e);
    CHECK(rc == -1 && strstr(e.msg, want), "%s: want an error with '%s', got rc %d '%s'", why, want, rc, e.msg);
    if (rc == 0) pb_cg_fns_free(&f);
}

static void canonical(void)
{
    static const char *const cases[][2] = {
        {"do_crypt_native", "do_crypt"}, {"pre_crypt.isra.0", "pre_crypt"}, {"fib'2", "fib"},
        {"xor_tweak.constprop.0.isra.0", "xor_tweak"}, {"md_prims", "md"}, {"post_crypt.part.0.cold", "post_crypt"},
        {"encrypt", "encrypt"}, {"_native", "_native"}, {"0x000000000001ab70", "0x000000000001ab70"},
        {"f'x", "f'x"}, {"gen_native'3", "gen"}, {"__x86_indirect_thunk_r15", "__x86_indirect_thunk"},
        {"__x86_indirect_thunk_rax", "__x86_indirect_thunk"}, {"__x86_indirect_thunk_", "__x86_indirect_thunk_"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[PB_CG_FN_NAME];
        pb_cg_fn_canonical(cases[i][0], out, sizeof out);
        CHECK(!strcmp(out, cases[i][1]), "canonical %s: %s, got %s", cases[i][0], cases[i][1], out);
    }
}

static void malformed(void)
{
    pb_cg_fns f;
    pb_err e = {{0}};
    CHECK(pb_cg_fns_parse_text("t.out", HEAD "fn=a\n1 5 1\nfn=b\n+1 3\n*\ntotals: 8 1\n", &f, &e) == 0 && f.n == 2 &&
              f.fn[0].cost[0] == 5,
          "plain names, relative positions, a cost line of positions only (%s)", e.msg);
    pb_cg_fns_free(&f);
    CHECK(pb_cg_fns_parse_text("t.out", HEAD "positions: instr line\nfn=a\n0x10 3 4 1\n+2 * 2\n", &f, &e) == 0 &&
              f.n == 1 && f.fn[0].cost[0] == 6 && f.fn[0].cost[1] == 1,
          "two positions (instr line); summary alone is not held to the sum (%s)", e.msg);
    pb_cg_fns_free(&f);
    expect_error(HEAD "fn=a\n1 5\ntotals: 6\n", "t.out: the functions' Ir add up to 5, the totals say 6", "a sum that does not close");
    expect_error(HEAD "fn=a\ncfn=b\ncalls=1 2\n", "t.out: the file ends after a calls= line", "calls= at the end");
    expect_error(HEAD "fn=a\ncalls=1 2\nfn=b\n", "t.out:8: a calls= line without its cost line", "calls= then fn=");
    expect_error(HEAD "fn=(3)\n1 2\n", "t.out:6: name id (3) used before it is defined", "an undefined id");
    expect_error(HEAD "fn=(3) a\nfn=(3) b\n", "t.out:7: name id (3) defined twice", "an id defined twice");
    expect_error(HEAD "fn=(x) a\n", "t.out:6: bad name id", "a bad id");
    expect_error(HEAD "fn=\n", "t.out:6: empty function name", "fn= with nothing");
    expect_error(HEAD "fn=a\n1 2 3 4\n", "t.out:7: more costs than the 2 events", "too many costs");
    expect_error(HEAD "fn=a\n1 2x\n", "t.out:7: bad cost '2x'", "a bad cost");
    expect_error(HEAD "fn=a\n+x 2\n", "t.out:7: bad position '+x'", "a bad position");
    expect_error(HEAD "totals: 1\n" "fn=a\n-1 -2\n", "t.out:8: bad cost '-2'", "a negative cost");
}

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: test_callgrind_fn FIXTURES_DIR\n"); return 2; }
    real_dumps(argv[1]);
    canonical();
    malformed();
    return check_summary();
}
