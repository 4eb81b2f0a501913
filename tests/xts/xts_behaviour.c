/* xts_behaviour.c — what the XTS implementations and the xts suite do
 * besides computing the right bytes:
 *   - error paths: bad key lengths, keys an impl lacks or refuses, requests
 *     before setkey, data lengths the 2018 code rejects (0, 8, 17, ...), and
 *     that a rejected request leaves dst untouched;
 *   - which path ran: child ECB calls and allocations of old, old-nomem and
 *     new (old-nomem really takes the 128-byte fallback: 32 child calls for
 *     4 KiB), and the sizes the old template asks its allocator for;
 *   - the suite's own errors: --keys, setup_case, bench kat --impl, claim();
 *   - data/xts_doc.tsv holds the document's whole grid for old and new.
 *
 * usage: xts_behaviour PATH/TO/xts_doc.tsv */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xts.h"
#include "suite.h"

extern const pb_suite pb_suite_xts;

static int failures;

#define CHECK(cond, ...)                                              \
    do {                                                              \
        if (!(cond)) {                                                \
            fprintf(stderr, "%s:%d: FAILED %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                             \
            fputc('\n', stderr);                                      \
            failures++;                                               \
        }                                                             \
    } while (0)

static uint8_t key[64], iv[16], src[65536], dst[65536];

static int is_openssl(const char *impl) { return strcmp(impl, "openssl") == 0; }

static void test_errors(const char *impl)
{
    int err;
    xts_tfm *tfm = xts_alloc_tfm(impl, &err);
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
    CHECK(xts_alloc_tfm("no-such-impl", &err) == NULL && err == -ENOENT, "unknown impl name");
}

/* child calls, allocations, frees of one request */
static void expect_path(const char *impl, size_t len, uint64_t calls, uint64_t allocs, uint64_t failures_)
{
    int err;
    xts_tfm *tfm = xts_alloc_tfm(impl, &err);
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

/* A recording allocator: what size does the old template ask for? */
static size_t last_request;
static void *recording_kmalloc(size_t n)
{
    last_request = n;
    return malloc(n);
}
static void plain_free(void *p) { free(p); }
static const xts_allocator recording = { recording_kmalloc, plain_free };

static void test_alloc_sizes(void)
{
    static const size_t lens[][2] = { { 144, 144 }, { 512, 512 }, { 4096, 4096 }, { 16384, 4096 } };
    int err;
    xts_tfm *tfm = xts_alloc_tfm("old", &err);
    xts_request *req = xts_request_alloc(tfm);
    xts_tfm_set_allocator(tfm, &recording);
    CHECK(xts_setkey(tfm, key, 32) == 0, "setkey");
    for (size_t i = 0; i < 4; i++) {
        last_request = 0;
        xts_request_set_crypt(req, src, dst, lens[i][0], iv);
        CHECK(xts_encrypt(req) == 0, "encrypt");
        CHECK(last_request == lens[i][1], "old asked for %zu bytes for a %zu-byte request, expected %zu",
              last_request, lens[i][0], lens[i][1]);
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

    CHECK(s->parse_opt("keys", "128", &e) == -1 && strstr(e.msg, "128"), "--keys 128: %s", e.msg);
    CHECK(s->parse_opt("keys", "256,", &e) == 1, "--keys 256, (trailing comma)");
    CHECK(s->parse_opt("keys", NULL, &e) == -1 && strstr(e.msg, "--keys"), "--keys without a value: %s", e.msg);
    CHECK(s->parse_opt("sizes", "64", &e) == 0, "--sizes is not the suite's option");
    CHECK(s->parse_opt("--keys", "256,512", &e) == 1, "--keys 256,512");
    CHECK(s->plan(&o, &g, &e) == 0 && g.ncells == 2 * 2 * 5, "--keys 256,512 plans %d cells", g.ncells);
    free(g.cells);
    CHECK(s->parse_opt("keys", "512,384,256", &e) == 1, "--keys all");
    CHECK(s->plan(&o, &g, &e) == 0 && g.ncells == 30, "default grid has %d cells", g.ncells);
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
    CHECK(s->setup_case(&cell, "openssl", &c, &e) == -1 && strstr(e.msg, "openssl"), "openssl 384: %s", e.msg);
    CHECK(s->setup_case(&g.cells[0], "nope", &c, &e) == -1 && strstr(e.msg, "old, new, old-nomem, openssl, gcrypt"),
          "unknown impl in setup_case: %s", e.msg);
    snprintf(cell.variant, sizeof cell.variant, "128");
    CHECK(s->setup_case(&cell, "old", &c, &e) == -1 && strstr(e.msg, "128"), "variant 128: %s", e.msg);
    cell = g.cells[0];
    cell.size_bytes = 100;
    CHECK(s->setup_case(&cell, "old", &c, &e) == -1 && strstr(e.msg, "100"), "size 100: %s", e.msg);
    free(g.cells);

    pb_kat_result r = { 0, 0, 0 };
    CHECK(s->kat_file("/nonexistent.rsp", "nope", &r, stdout, &e) == -1 &&
          strstr(e.msg, "unknown implementation 'nope'") && strstr(e.msg, "old-nomem"),
          "kat with an unknown impl: %s", e.msg);
    CHECK(s->selftest("nope", &e) == -1, "selftest of an unknown impl");

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

int main(int argc, char **argv)
{
    for (size_t i = 0; i < sizeof key; i++) key[i] = (uint8_t)(i * 7 + 1);
    for (int i = 0; xts_impl_name(i); i++) test_errors(xts_impl_name(i));
    test_paths();
    test_alloc_sizes();
    test_suite_errors();
    if (argc > 1) test_doc_table(argv[1]);
    else CHECK(0, "usage: xts_behaviour PATH/TO/xts_doc.tsv");
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("xts behaviour: all checks passed\n");
    return 0;
}
