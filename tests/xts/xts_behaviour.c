/* SPDX-License-Identifier: GPL-2.0-only */
/* xts_behaviour.c — what the XTS implementations and the xts suite do
 * besides computing the right bytes:
 *   - error paths: bad key lengths, keys an impl lacks or refuses, requests
 *     before setkey, data lengths the 2018 code rejects (0, 8, 17, ...), and
 *     that a rejected request leaves dst untouched;
 *   - which path ran: child ECB calls and allocations of old, old-nomem and
 *     new (old-nomem really takes the 128-byte fallback: 32 child calls for
 *     4 KiB), and the sizes the old template asks its allocator for;
 *   - the suite's own errors: --keys, setup_case, bench kat --impl, claim();
 *   - data/xts_doc.tsv holds the document's whole grid for old and new;
 *   - the modelled child-call cost (xts_aes.h, --child-call-cost/-ns,
 *     data/xts_child_call.tsv), by counting events, never timing them: paid
 *     exactly once per child call by old, new and old-nomem at 4 and 16 KiB,
 *     none at all when 0; bad values refused naming the option, both options
 *     refused together, the default read from the data file (malformed:
 *     FILE:LINE), and effective_options(suite_opts) says what was applied.
 *
 * usage: xts_behaviour PATH/TO/xts_doc.tsv */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xts.h"
#include "common/xts_aes.h"
#include "suite.h"
#include "xts_impls.h"
#include "../lib/check.h"

/* the suite's options object (suite.h), one for the whole test: options accumulate as on a command line */
static void *suite_opts;

extern const pb_suite pb_suite_xts;

static uint8_t key[64], iv[16], src[65536], dst[65536];

static int is_openssl(const char *impl) { return strcmp(impl, "openssl") == 0; }

static void test_errors(const char *impl)
{
    int err;
    xts_tfm *tfm = xts_impls_alloc_tfm(impl, &err);
    CHECK(tfm, "%s: alloc_tfm: %d", impl, err);
    if (!tfm) return;
    xts_request *req = xts_request_alloc(tfm);

    xts_request_set_crypt(req, src, dst, 64, iv);
    CHECK(xts_encrypt(req) == -ENOKEY, "%s: encrypt before setkey", impl);

    static const size_t bad_keys[] = { 0, 16, 24, 31, 33, 47, 63, 65, 96, 128 };
    for (size_t i = 0; i < sizeof bad_keys / sizeof bad_keys[0]; i++)
        CHECK(xts_setkey(tfm, key, bad_keys[i]) == -EINVAL, "%s: %zu-byte key accepted", impl, bad_keys[i]);
    CHECK(xts_encrypt(req) == -ENOKEY, "%s: encrypt after a failed setkey", impl);

    err = xts_setkey(tfm, key, 48);
    CHECK(err == (is_openssl(impl) ? -EOPNOTSUPP : 0), "%s: 48-byte key gives %d", impl, err);

    uint8_t weak[64];
    memset(weak, 0x5a, sizeof weak);
    for (size_t kl = 32; kl <= 64; kl += 32) {
        err = xts_setkey(tfm, weak, kl);
        CHECK(err == (is_openssl(impl) ? -EKEYREJECTED : 0), "%s: weak %zu-byte key gives %d", impl, kl, err);
    }

    CHECK(xts_setkey(tfm, key, 64) == 0, "%s: setkey 64", impl);
    static const size_t bad_lens[] = { 0, 1, 8, 15, 17, 31, 33, 100, 4095, 4097 };
    for (size_t i = 0; i < sizeof bad_lens / sizeof bad_lens[0]; i++) {
        memset(dst, 0xee, 8192);
        xts_request_set_crypt(req, src, dst, bad_lens[i], iv);
        CHECK(xts_encrypt(req) == -EINVAL, "%s: encrypt of %zu bytes accepted", impl, bad_lens[i]);
        CHECK(xts_decrypt(req) == -EINVAL, "%s: decrypt of %zu bytes accepted", impl, bad_lens[i]);
        CHECK(dst[0] == 0xee && dst[bad_lens[i] ? bad_lens[i] - 1 : 0] == 0xee, "%s: rejected request wrote dst", impl);
    }
    xts_request_set_crypt(req, src, dst, 16, iv);
    CHECK(xts_encrypt(req) == 0 && xts_decrypt(req) == 0, "%s: one block", impl);

    xts_request_free(req);
    xts_free_tfm(tfm);
    CHECK(xts_impls_alloc_tfm("no-such-impl", &err) == NULL && err == -ENOENT, "unknown impl name");
}

/* child calls, allocations, frees of one request */
static void expect_path(const char *impl, size_t len, uint64_t calls, uint64_t allocs, uint64_t failures_)
{
    int err;
    xts_tfm *tfm = xts_impls_alloc_tfm(impl, &err);
    xts_request *req = xts_request_alloc(tfm);
    CHECK(xts_setkey(tfm, key, 32) == 0, "%s setkey", impl);
    xts_request_set_crypt(req, src, dst, len, iv);
    for (int enc = 0; enc < 2; enc++) {
        memset(&tfm->stats, 0, sizeof tfm->stats);
        CHECK((enc ? xts_encrypt(req) : xts_decrypt(req)) == 0, "%s %zu", impl, len);
        const xts_stats *s = &tfm->stats;
        CHECK(s->child_calls == calls, "%s, %zu bytes, %s: %llu child calls, expected %llu", impl, len,
              enc ? "enc" : "dec", (unsigned long long)s->child_calls, (unsigned long long)calls);
        CHECK(s->allocs == allocs && s->alloc_failures == failures_ && s->frees == allocs,
              "%s, %zu bytes: %llu allocs, %llu failures, %llu frees; expected %llu, %llu, %llu", impl, len,
              (unsigned long long)s->allocs, (unsigned long long)s->alloc_failures, (unsigned long long)s->frees,
              (unsigned long long)allocs, (unsigned long long)failures_, (unsigned long long)allocs);
    }
    xts_request_free(req);
    xts_free_tfm(tfm);
}

static void test_paths(void)
{
    /* old: inline buffer up to 128 B, then one kmalloc(min(len, 4096)), chunks of it */
    expect_path("old", 64, 1, 0, 0);
    expect_path("old", 128, 1, 0, 0);
    expect_path("old", 144, 1, 1, 0);
    expect_path("old", 4096, 1, 1, 0);
    expect_path("old", 4112, 2, 1, 0);
    expect_path("old", 16384, 4, 1, 0);
    expect_path("old", 32768, 8, 1, 0);
    /* old-nomem: the kmalloc fails, 128-byte chunks from the inline buffer */
    expect_path("old-nomem", 64, 1, 0, 0);
    expect_path("old-nomem", 144, 2, 0, 1);
    expect_path("old-nomem", 4096, 32, 0, 1);
    expect_path("old-nomem", 32768, 256, 0, 1);
    /* new: one child call, never an allocation */
    expect_path("new", 64, 1, 0, 0);
    expect_path("new", 4096, 1, 0, 0);
    expect_path("new", 65536, 1, 0, 0);
}

/* What size does the old template ask kmalloc for? (the transform's stats record it) */
static void test_alloc_sizes(void)
{
    static const size_t lens[][2] = { { 144, 144 }, { 512, 512 }, { 4096, 4096 }, { 16384, 4096 } };
    int err;
    xts_tfm *tfm = xts_impls_alloc_tfm("old", &err);
    xts_request *req = xts_request_alloc(tfm);
    CHECK(xts_setkey(tfm, key, 32) == 0, "setkey");
    for (size_t i = 0; i < 4; i++) {
        tfm->stats.last_alloc_size = 0;
        xts_request_set_crypt(req, src, dst, lens[i][0], iv);
        CHECK(xts_encrypt(req) == 0, "encrypt");
        CHECK(tfm->stats.last_alloc_size == lens[i][1], "old asked for %zu bytes for a %zu-byte request, expected %zu",
              (size_t)tfm->stats.last_alloc_size, lens[i][0], lens[i][1]);
    }
    xts_request_free(req);
    xts_free_tfm(tfm);
}

static void test_suite_errors(void)
{
    const pb_suite *s = &pb_suite_xts;
    pb_err e = { { 0 } };
    pb_plan_opts o = { 0 };
    pb_grid g = { 0, NULL };

    CHECK(pb_suite_set_opt(s, suite_opts, "keys", "128", &e) == -1 && strstr(e.msg, "128"), "--keys 128: %s", e.msg);
    CHECK(pb_suite_set_opt(s, suite_opts, "keys", "256,", &e) == 1, "--keys 256, (trailing comma)");
    CHECK(pb_suite_set_opt(s, suite_opts, "keys", NULL, &e) == -1 && strstr(e.msg, "--keys"), "--keys without a value: %s", e.msg);
    CHECK(pb_suite_set_opt(s, suite_opts, "sizes", "64", &e) == 0, "--sizes is not the suite's option");
    CHECK(pb_suite_set_opt(s, suite_opts, "--keys", "256,512", &e) == 1, "--keys 256,512");
    CHECK(s->plan(suite_opts, &o, &g, &e) == 0 && g.ncells == 2 * 2 * 5, "--keys 256,512 plans %d cells", g.ncells);
    free(g.cells);
    CHECK(pb_suite_set_opt(s, suite_opts, "keys", "512,384,256", &e) == 1, "--keys all");
    CHECK(s->plan(suite_opts, &o, &g, &e) == 0 && g.ncells == 30, "default grid has %d cells", g.ncells);
    for (int i = 0; i < g.ncells; i++) {
        /* old, new, old-nomem, openssl (no 2 x 192), gcrypt, old@native, new@native */
        int want = strcmp(g.cells[i].variant, "384") == 0 ? 6 : 7;
        int native = 0;
        for (int k = 0; k < g.cells[i].nimpls; k++)
            native += !strcmp(g.cells[i].impls[k], "old@native") || !strcmp(g.cells[i].impls[k], "new@native");
        CHECK(native == 2, "cell %s/%s/%llu plans %d of old@native, new@native", g.cells[i].variant,
              g.cells[i].op, (unsigned long long)g.cells[i].size_bytes, native);
        CHECK(g.cells[i].nimpls == want, "cell %s/%s/%llu has %d impls", g.cells[i].variant, g.cells[i].op,
              (unsigned long long)g.cells[i].size_bytes, g.cells[i].nimpls);
    }

    pb_cell cell = g.cells[0];
    pb_case c;
    snprintf(cell.variant, sizeof cell.variant, "384");
    CHECK(s->setup_case(suite_opts, &cell, "openssl", &c, &e) == -1 && strstr(e.msg, "openssl"), "openssl 384: %s", e.msg);
    CHECK(s->setup_case(suite_opts, &g.cells[0], "nope", &c, &e) == -1 && strstr(e.msg, "old, new, old-nomem, openssl, gcrypt"),
          "unknown impl in setup_case: %s", e.msg);
    snprintf(cell.variant, sizeof cell.variant, "128");
    CHECK(s->setup_case(suite_opts, &cell, "old", &c, &e) == -1 && strstr(e.msg, "128"), "variant 128: %s", e.msg);
    cell = g.cells[0];
    cell.size_bytes = 100;
    CHECK(s->setup_case(suite_opts, &cell, "old", &c, &e) == -1 && strstr(e.msg, "100"), "size 100: %s", e.msg);
    free(g.cells);

    pb_kat_result r = { 0, 0, 0 };
    CHECK(s->kat_file("/nonexistent.rsp", "nope", &r, stdout, &e) == -1 &&
          strstr(e.msg, "unknown implementation 'nope'") && strstr(e.msg, "old-nomem"),
          "kat with an unknown impl: %s", e.msg);
    CHECK(s->selftest(suite_opts, "nope", &e) == -1, "selftest of an unknown impl");

    CHECK(s->claim(&g.cells[0], NAN) == PB_CLAIM_NONE, "no document number");
    CHECK(s->claim(&g.cells[0], 476.0 / 889.0) == PB_CLAIM_FASTER, "512 B: 0.54");
    CHECK(s->claim(&g.cells[0], 328.0 / 331.0) == PB_CLAIM_NOT_SLOWER, "64 B: 0.99");
}

/* The document's table: header, then old and new x 3 keys x 5 sizes x 2 ops. */
static void test_doc_table(const char *path)
{
    FILE *f = fopen(path, "r");
    CHECK(f, "cannot open %s", path);
    if (!f) return;
    char line[256];
    int rows = 0, seen[2][3][5][2] = { { { { 0 } } } };
    CHECK(fgets(line, sizeof line, f) && strcmp(line, "impl\tvariant\top\tsize_bytes\tmetric\tvalue\n") == 0,
          "%s: header", path);
    static const unsigned sizes[] = { 64, 512, 4096, 16384, 32768 };
    while (fgets(line, sizeof line, f)) {
        char impl[16], op[8], metric[16];
        unsigned variant, size;
        double value;
        rows++;
        if (sscanf(line, "%15[^\t]\t%u\t%7[^\t]\t%u\t%15[^\t]\t%lf", impl, &variant, op, &size, metric, &value) != 6) {
            CHECK(0, "%s: bad row %d: %s", path, rows, line);
            continue;
        }
        int i = strcmp(impl, "new") == 0, k = (int)(variant / 128) - 2, o = strcmp(op, "dec") == 0, z = -1;
        for (int j = 0; j < 5; j++)
            if (sizes[j] == size) z = j;
        CHECK((i || !strcmp(impl, "old")) && k >= 0 && k < 3 && variant % 128 == 0 && z >= 0 &&
              (o || !strcmp(op, "enc")) && !strcmp(metric, "ns_per_op") && value > 0,
              "%s: unexpected row %s", path, line);
        if (k >= 0 && k < 3 && z >= 0) seen[i][k][z][o]++;
    }
    fclose(f);
    CHECK(rows == 60, "%s: %d rows, expected 60", path, rows);
    for (int i = 0; i < 60; i++)
        CHECK(seen[i / 30][i / 10 % 3][i / 2 % 5][i % 2] == 1, "%s: grid point %d missing or repeated", path, i);
}

/* ---- the modelled child-call cost ---- */

/* One request of impl over len bytes: child calls made and modelled-cost events paid. */
static void one_request(const char *impl, size_t len, int enc, uint64_t *calls, uint64_t *events)
{
    int err;
    xts_tfm *tfm = xts_impls_alloc_tfm(impl, &err);
    CHECK(tfm, "%s: alloc_tfm: %d", impl, err);
    if (!tfm) return;
    xts_request *req = xts_request_alloc(tfm);
    CHECK(req && xts_setkey(tfm, key, 32) == 0, "%s: set-up", impl);
    xts_request_set_crypt(req, src, dst, len, iv);
    memset(&tfm->stats, 0, sizeof tfm->stats);
    const uint64_t e0 = xts_child_cost_events();
    CHECK((enc ? xts_encrypt(req) : xts_decrypt(req)) == 0, "%s: %zu bytes", impl, len);
    *calls = tfm->stats.child_calls;
    *events = xts_child_cost_events() - e0;
    xts_request_free(req);
    xts_free_tfm(tfm);
}

static void test_once_per_call(void)
{
    static const struct { const char *impl; size_t chunk; } impls[] = {
        { "old", 4096 }, { "new", 0 }, { "old-nomem", 128 },
    };
    static const size_t lens[] = { 4096, 16384 };
    for (uint64_t spins = 0; spins <= 2; spins++)  /* off; every 3rd call; every call */ {
        xts_child_cost_set(spins, spins == 1 ? 3 : 1);
        for (size_t i = 0; i < 3; i++)
            for (size_t l = 0; l < 2; l++)
                for (int enc = 0; enc <= 1; enc++) {
                    uint64_t calls = 0, events = 0;
                    one_request(impls[i].impl, lens[l], enc, &calls, &events);
                    const uint64_t want = impls[i].chunk ? lens[l] / impls[i].chunk : 1;
                    CHECK(calls == want, "%s %zu B: %llu child calls, want %llu", impls[i].impl, lens[l],
                          (unsigned long long)calls, (unsigned long long)want);
                    CHECK(events == (spins ? calls : 0), "%s %zu B %s, spins %llu: %llu events for %llu calls",
                          impls[i].impl, lens[l], enc ? "enc" : "dec", (unsigned long long)spins,
                          (unsigned long long)events, (unsigned long long)calls);
                }
    }
    xts_child_cost_set(0, 1);
}

static int opt(const char *name, const char *value, pb_err *e)
{
    memset(e, 0, sizeof *e);
    return pb_suite_set_opt(&pb_suite_xts, suite_opts, name, value, e);
}

static int plan(pb_err *e)
{
    pb_plan_opts o = { .quick = 1 };
    pb_grid g = { 0, NULL };
    memset(e, 0, sizeof *e);
    int rc = pb_suite_xts.plan(suite_opts, &o, &g, e);
    free(g.cells);
    return rc;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f, "cannot write %s", path);
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

static void test_suite(const char *datadir, const char *tmpdir)
{
    pb_err e;
    char path[1024];
    const char *eff;

    /* bad values: refused, the option named */
    static const char *const bad[] = { "-1", "abc", "", "1e9", "nan", "5x" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(opt("--child-call-cost", bad[i], &e) == -1 && strstr(e.msg, "--child-call-cost"),
              "--child-call-cost '%s': %s", bad[i], e.msg);
        CHECK(opt("--child-call-ns", bad[i], &e) == -1 && strstr(e.msg, "--child-call-ns"),
              "--child-call-ns '%s': %s", bad[i], e.msg);
    }
    CHECK(opt("--child-call-cost", NULL, &e) == -1 && strstr(e.msg, "needs a value"), "no value: %s", e.msg);

    /* the default comes from DATADIR/xts_child_call.tsv */
    snprintf(path, sizeof path, "%s/xts_child_call.tsv", tmpdir);
    setenv("PB_DATADIR", tmpdir, 1);
    write_file(path, "# comment\n\nabc\tsource\n");
    CHECK(plan(&e) == -1 && strstr(e.msg, "xts_child_call.tsv:3: expected 'BYTES<TAB>source'"), "malformed: %s",
          e.msg);
    write_file(path, "12\n");
    CHECK(plan(&e) == -1 && strstr(e.msg, "xts_child_call.tsv:1:"), "no source: %s", e.msg);
    write_file(path, "# only comments\n");
    CHECK(plan(&e) == -1 && strstr(e.msg, "no data line"), "empty: %s", e.msg);
    write_file(path, "0\ta test file that turns the model off\n");
    CHECK(plan(&e) == 0 && xts_child_cost_spins() == 0, "0 in the file: %s", e.msg);
    eff = pb_suite_xts.effective_options(suite_opts);
    CHECK(eff && strstr(eff, "child_call_cost=off") && strstr(eff, "says 0"), "effective: %s", eff);
    setenv("PB_DATADIR", datadir, 1);
    CHECK(plan(&e) == 0 && xts_child_cost_spins() >= 1, "the project's default: %s", e.msg);
    eff = pb_suite_xts.effective_options(suite_opts);
    CHECK(eff && strstr(eff, "default, data/xts_child_call.tsv") && strstr(eff, "spins per"),
          "effective: %s", eff);
    remove(path);
    setenv("PB_DATADIR", tmpdir, 1);
    CHECK(plan(&e) == -1 && strstr(e.msg, "cannot open"), "missing file: %s", e.msg);

    /* an option overrides the file (which is then not read); 0 is off */
    CHECK(opt("child-call-cost", "0", &e) == 1, "--child-call-cost 0: %s", e.msg);
    CHECK(plan(&e) == 0 && xts_child_cost_spins() == 0, "--child-call-cost 0 leaves it on: %s", e.msg);
    eff = pb_suite_xts.effective_options(suite_opts);
    CHECK(eff && strstr(eff, "off (--child-call-cost 0)"), "effective: %s", eff);
    CHECK(opt("child-call-ns", "10", &e) == -1 && strstr(e.msg, "not both"), "both options: %s", e.msg);
    CHECK(opt("child-call-cost", "50", &e) == 1, "--child-call-cost 50: %s", e.msg);
    CHECK(plan(&e) == 0 && xts_child_cost_spins() >= 1, "--child-call-cost 50: %s", e.msg);
    eff = pb_suite_xts.effective_options(suite_opts);
    CHECK(eff && strstr(eff, "child_call_cost=50.0B") && strstr(eff, "(--child-call-cost"), "effective: %s", eff);
    xts_child_cost_set(0, 1);
}

int main(int argc, char **argv)
{
    suite_opts = pb_suite_opts_new(&pb_suite_xts, NULL);
    if (!suite_opts) return 1;
    for (size_t i = 0; i < sizeof key; i++) key[i] = (uint8_t)(i * 7 + 1);
    for (size_t i = 0; i < xts_impls_count(); i++) test_errors(xts_impls_at(i)->name);
    test_paths();
    test_alloc_sizes();
    test_suite_errors();
    if (argc > 1) {
        test_doc_table(argv[1]);
        /* last: it leaves suite options set. DATADIR = the folder of xts_doc.tsv. */
        char datadir[1024], tmpdir[] = "/tmp/xts_behaviour-XXXXXX";
        snprintf(datadir, sizeof datadir, "%s", argv[1]);
        char *slash = strrchr(datadir, '/');
        if (slash) *slash = 0;
        else snprintf(datadir, sizeof datadir, ".");
        test_once_per_call();
        CHECK(mkdtemp(tmpdir), "mkdtemp: %s", strerror(errno));
        test_suite(datadir, tmpdir);
        rmdir(tmpdir);
    } else {
        CHECK(0, "usage: xts_behaviour PATH/TO/xts_doc.tsv");
    }
    return check_summary();
}
