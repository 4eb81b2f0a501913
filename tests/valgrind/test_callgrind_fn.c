/* SPDX-License-Identifier: GPL-2.0-only */
/* Exclusive cost per function (callgrind_fn.h) on checked-in dumps: two real ones (GCC's clone
 * of a recursion folded into a loop; real recursion, callgrind's "fib'2") and a hand-written one
 * (inlined files, the lab's renamed copies, compressed names, cost before any fn=), then malformed
 * bodies, every error as FILE:LINE. No valgrind needed, no timing. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "callgrind_fn.h"
#include "fn_diff.h"
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

static pb_fn_row fr(const char *impl, int rank, const char *func, double insns)
{
    pb_fn_row r = {.size = 4096, .rank = rank, .insns = insns};
    snprintf(r.impl, sizeof r.impl, "%s", impl);
    snprintf(r.variant, sizeof r.variant, "256");
    snprintf(r.op, sizeof r.op, "enc");
    snprintf(r.func, sizeof r.func, "%s", func);
    return r;
}

/* old and new of the xts 4 KiB cell as a count run stored them (rounded): matched by name, ranked
 * by the size of the difference, the rest closing the sum to the total exactly */
static void matching(void)
{
    const pb_fn_row rows[] = {
        fr("old", 1, "do_crypt", 8788), fr("old", 2, "__memset_avx2_unaligned_erms", 4120), fr("old", 3, "aes_enc", 3616),
        fr("old", 4, "_int_malloc", 111), fr("old", 5, "xts_encrypt", 17), fr("old", 0, PB_FN_REST, 1524.5),
        fr("new", 1, "xor_tweak", 9253), fr("new", 2, "aes_enc", 3616), fr("new", 3, "xts_encrypt", 17),
        fr("new", 0, PB_FN_REST, 1255.5),
    };
    size_t n = sizeof rows / sizeof rows[0], fo, fn;
    size_t no = pb_fn_rows_of(rows, n, "old", "256", "enc", 4096, &fo);
    size_t nn = pb_fn_rows_of(rows, n, "new", "256", "enc", 4096, &fn);
    CHECK(no == 6 && fo == 0 && nn == 4 && fn == 6, "each impl's rows of the cell: %zu at %zu, %zu at %zu", no, fo, nn, fn);
    CHECK(pb_fn_rows_of(rows, n, "new", "256", "dec", 4096, &fo) == 0, "a cell with no rows");
    pb_fn_delta d[PB_FN_SHOWN];
    size_t k = pb_fn_diff(rows + 0, no, rows + 6, nn, d, PB_FN_SHOWN);
    double sum = 0;
    for (size_t i = 0; i < k; i++) sum += d[i].delta;
    double want = (9253 + 3616 + 17 + 1255.5) - (8788 + 4120 + 3616 + 111 + 17 + 1524.5);
    CHECK(k == 5, "4 functions that differ, then the rest: %zu", k);
    CHECK(k == 5 && !strcmp(d[0].func, "xor_tweak") && d[0].delta == 9253 && !strcmp(d[1].func, "do_crypt") &&
              d[1].delta == -8788 && !strcmp(d[2].func, "__memset_avx2_unaligned_erms") && !strcmp(d[3].func, "_int_malloc"),
          "largest |difference| first, matched by name");
    CHECK(k == 5 && !strcmp(d[4].func, PB_FN_REST) && fabs(sum - want) < 1e-9, "the rest closes the sum: %g, want %g", sum, want);
    CHECK(k == 5 && fabs(d[4].delta - (1255.5 - 1524.5)) < 1e-9, "the functions equal on both sides are not listed, "
          "the rests' difference is the rest row");
    /* fewer rows than differences: what is not listed goes to the rest, the sum still closes */
    k = pb_fn_diff(rows + 0, no, rows + 6, nn, d, 3);
    sum = 0;
    for (size_t i = 0; i < k; i++) sum += d[i].delta;
    CHECK(k == 3 && !strcmp(d[2].func, PB_FN_REST) && fabs(sum - want) < 1e-9, "max 3: two functions and the rest");
    char text[512];
    pb_fn_diff_text(d, k, text, sizeof text);
    CHECK(!strcmp(text, "xor_tweak +9253.0, do_crypt -8788.0, (rest) -4500.0"), "as text: %s", text);
    CHECK(pb_fn_diff(rows, 0, rows + 6, nn, d, PB_FN_SHOWN) == 0, "a side without rows: nothing");

    /* what grew: +2 % in one known function of otherwise equal sides is named first, alone */
    const pb_fn_row grow[] = {fr("old", 1, "spin_chain", 4000), fr("old", 2, "spin_tail", 400), fr("old", 3, "main", 5),
                              fr("new", 1, "spin_chain", 4000), fr("new", 2, "spin_tail", 488), fr("new", 3, "main", 5)};
    k = pb_fn_diff(grow, 3, grow + 3, 3, d, PB_FN_SHOWN);
    pb_fn_grew_text(d, k, text, sizeof text);
    CHECK(!strcmp(text, "spin_tail +88.0 (100 %)"), "grew: %s", text);
    /* several that grew, one that shrank: the largest first, until 80 % of the increase */
    const pb_fn_row mix[] = {fr("old", 1, "a", 100), fr("old", 2, "b", 100), fr("old", 3, "c", 100), fr("old", 4, "d", 100),
                             fr("new", 1, "a", 160), fr("new", 2, "b", 130), fr("new", 3, "c", 110), fr("new", 4, "d", 90)};
    k = pb_fn_diff(mix, 4, mix + 4, 4, d, PB_FN_SHOWN);
    pb_fn_grew_text(d, k, text, sizeof text);
    CHECK(!strcmp(text, "a +60.0 (67 %), b +30.0 (33 %)"), "grew, two of three: %s", text);
    k = pb_fn_diff(mix + 4, 4, mix, 4, d, PB_FN_SHOWN);
    pb_fn_grew_text(d, k, text, sizeof text);
    CHECK(!text[0], "nothing grew on the whole: no text, got '%s'", text);
}

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: test_callgrind_fn FIXTURES_DIR\n"); return 2; }
    real_dumps(argv[1]);
    canonical();
    malformed();
    matching();
    return check_summary();
}
