/* suite_xts.c — the xts suite: Linux "crypto: xts - Drop use of auxiliary
 * buffer" (78105c7e769b) re-run old-vs-new in userspace.
 *
 * Grid (the document's): key sizes 256/384/512 bits x data 64 B .. 32 KiB x
 * enc/dec; impls old, new, old-nomem (old with kmalloc forced to fail) and
 * the peers openssl (no 2 x 192) and gcrypt.
 *
 * A timed case owns one keyed transform, one request and a src and a dst
 * buffer of size_bytes; body() performs `iters` requests src -> dst. The IV
 * changes per request, as a disk's would: it is the dm-crypt "plain64" IV,
 * the sector number little-endian, counting up from 0. The key is random from
 * a fixed seed (the same for every impl of a cell). */
#include <endian.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xts.h"
#include "xts_suite.h"

#define XTS_SEED 0x5854532d32303138ull   /* "XTS-2018" */

static const uint64_t grid_sizes[] = { 64, 512, 4096, 16384, 32768 };
static const unsigned grid_keys[] = { 256, 384, 512 };
#define NKEYS (sizeof grid_keys / sizeof grid_keys[0])

/* --keys: which of grid_keys to plan (bit i = grid_keys[i]) */
static unsigned keys_mask = (1u << NKEYS) - 1;

int xts_suite_check_impl(const char *impl, pb_err *e)
{
    if (xts_impl_alg(impl)) return 0;
    char list[128] = "";
    for (int i = 0; xts_impl_name(i); i++) {
        if (i) strncat(list, ", ", sizeof list - strlen(list) - 1);
        strncat(list, xts_impl_name(i), sizeof list - strlen(list) - 1);
    }
    return pb_errf(e, "xts: unknown implementation '%s' (xts has: %s)", impl, list);
}

static int key_index(const char *s, size_t n)
{
    for (size_t k = 0; k < NKEYS; k++) {
        char buf[8];
        int len = snprintf(buf, sizeof buf, "%u", grid_keys[k]);
        if ((size_t)len == n && memcmp(buf, s, n) == 0) return (int)k;
    }
    return -1;
}

static int parse_opt(const char *name, const char *value, pb_err *e)
{
    while (*name == '-') name++;
    if (strcmp(name, "keys") != 0) return 0;
    if (!value || !*value)
        return pb_errf(e, "--keys needs a value, e.g. --keys 256,512 (XTS key sizes in bits: 256, 384, 512)");
    unsigned mask = 0;
    for (const char *p = value; *p;) {
        size_t n = strcspn(p, ",");
        int k = key_index(p, n);
        if (k < 0)
            return pb_errf(e, "--keys: unknown key size '%.*s' (XTS key sizes in bits: 256, 384, 512 = 2 x AES-128/192/256)",
                           (int)n, p);
        mask |= 1u << k;
        p += n;
        if (*p == ',') p++;
    }
    keys_mask = mask;
    return 1;
}

static int impl_has_keybits(const char *impl, unsigned bits)
{
    /* OpenSSL has no AES-192-XTS: that cell is simply not planned for it */
    return !(bits == 384 && strcmp(impl, "openssl") == 0);
}

static int plan(const pb_plan_opts *o, pb_grid *g, pb_err *e)
{
    static const char *const ops[] = { "enc", "dec" };
    const size_t nsizes = sizeof grid_sizes / sizeof grid_sizes[0];
    (void)o;   /* --quick: same grid, the harness shortens the samples */

    g->ncells = 0;
    g->cells = calloc(NKEYS * 2 * nsizes, sizeof *g->cells);
    if (!g->cells) return pb_errf(e, "xts: out of memory");
    for (size_t k = 0; k < NKEYS; k++) {
        if (!(keys_mask & (1u << k))) continue;
        for (size_t op = 0; op < 2; op++)
            for (size_t s = 0; s < nsizes; s++) {
                pb_cell *c = &g->cells[g->ncells++];
                snprintf(c->variant, sizeof c->variant, "%u", grid_keys[k]);
                snprintf(c->op, sizeof c->op, "%s", ops[op]);
                c->size_bytes = grid_sizes[s];
                for (int i = 0; xts_impl_name(i); i++)
                    if (impl_has_keybits(xts_impl_name(i), grid_keys[k]))
                        snprintf(c->impls[c->nimpls++], PB_NAME_MAX, "%s", xts_impl_name(i));
            }
    }
    return 0;
}

typedef struct xts_case {
    xts_tfm *tfm;
    xts_request *req;
    int (*crypt)(xts_request *req);
    uint8_t *src, *dst;
    uint8_t iv[XTS_IV_SIZE];
    uint64_t sector;
    uint64_t errors;
} xts_case;

static void case_body(void *p, uint64_t iters)
{
    xts_case *c = p;
    for (uint64_t i = 0; i < iters; i++) {
        uint64_t sector = htole64(c->sector++);
        memcpy(c->iv, &sector, sizeof sector);
        if (c->crypt(c->req)) c->errors++;
    }
}

static void case_free(void *p)
{
    xts_case *c = p;
    if (!c) return;
    xts_request_free(c->req);
    xts_free_tfm(c->tfm);
    free(c->src);
    free(c->dst);
    free(c);
}

/* Page-aligned, as dm-crypt's pages are, and for the same reason as the kernel's numbers are
 * comparable: every case of every impl sees the same page offsets for src and dst. Buffers at
 * whatever offset malloc returns made two set-ups of one impl differ by 15-25 % at 64 B (4K
 * aliasing between the src and dst streams), which would leak into old/new ratios. */
static uint8_t *alloc_buffer(size_t n)
{
    return aligned_alloc(4096, (n + 4095) & ~(size_t)4095);
}

static int check_size(uint64_t len, pb_err *e)
{
    if (len < XTS_BLOCK_SIZE || len % XTS_BLOCK_SIZE)
        return pb_errf(e, "xts: size %llu is not a multiple of 16 bytes (2018 XTS has no ciphertext stealing)",
                       (unsigned long long)len);
    return 0;
}

static int setup_case(const pb_cell *cell, const char *impl, pb_case *out, pb_err *e)
{
    char *end;
    unsigned long bits = strtoul(cell->variant, &end, 10);
    size_t len = cell->size_bytes;
    int enc = strcmp(cell->op, "enc") == 0;
    int err;

    if (xts_suite_check_impl(impl, e)) return -1;
    if (*end || key_index(cell->variant, strlen(cell->variant)) < 0)
        return pb_errf(e, "xts: unknown variant '%s' (key sizes in bits: 256, 384, 512)", cell->variant);
    if (!enc && strcmp(cell->op, "dec") != 0)
        return pb_errf(e, "xts: unknown op '%s' (enc or dec)", cell->op);
    if (check_size(len, e) < 0) return -1;

    xts_case *c = calloc(1, sizeof *c);
    if (!c) return pb_errf(e, "xts: out of memory");
    c->tfm = xts_alloc_tfm(impl, &err);
    if (!c->tfm) {
        free(c);
        return pb_errf(e, "xts: %s: cannot create transform: %s", impl, strerror(-err));
    }
    c->req = xts_request_alloc(c->tfm);
    c->src = alloc_buffer(len);
    c->dst = alloc_buffer(len);
    if (!c->req || !c->src || !c->dst) {
        case_free(c);
        return pb_errf(e, "xts: out of memory for a %zu-byte case", len);
    }

    uint8_t key[XTS_MAX_KEY_SIZE];
    pb_rng rng;
    pb_rng_seed(&rng, XTS_SEED ^ bits);
    pb_rng_bytes(&rng, key, bits / 8);
    pb_rng_bytes(&rng, c->src, len);
    err = xts_setkey(c->tfm, key, bits / 8);
    explicit_bzero(key, sizeof key);
    if (err) {
        case_free(c);
        return pb_errf(e, "xts: %s: setkey with a %lu-bit key failed: %s", impl, bits, strerror(-err));
    }

    c->crypt = enc ? xts_encrypt : xts_decrypt;
    xts_request_set_crypt(c->req, c->src, c->dst, len, c->iv);
    /* one request now, so that a failing case is refused here, not counted in body() */
    if ((err = c->crypt(c->req)) != 0) {
        case_free(c);
        return pb_errf(e, "xts: %s: %s of %zu bytes failed: %s", impl, cell->op, len, strerror(-err));
    }

    out->body = case_body;
    out->ctx = c;
    out->free_ctx = case_free;
    out->error_count = &c->errors;
    return 0;
}

static pb_claim claim(const pb_cell *cell, double doc_ratio)
{
    (void)cell;
    if (isnan(doc_ratio)) return PB_CLAIM_NONE;
    /* the document: "either better or comparable for both small and large buffers" */
    return doc_ratio < 0.95 ? PB_CLAIM_FASTER : PB_CLAIM_NOT_SLOWER;
}

const pb_suite pb_suite_xts = {
    .name = "xts",
    .title = "Linux crypto/xts.c: drop the tweak buffer (78105c7e769b), old vs new template",
    .baseline = "old",
    .candidate = "new",
    .metrics = PB_M_NS_PER_OP | PB_M_TSC_PER_BYTE | PB_M_CYCLES_PER_BYTE | PB_M_EST_CYCLES_PER_BYTE,
    .primary_metric = "ns_per_op",
    .options_help =
        "  --keys LIST   XTS key sizes in bits to run, comma-separated: 256,384,512 (default all)\n"
        "                (256/384/512 = Key1||Key2 of 2 x AES-128/192/256; openssl has no 384)\n",
    .kat_help =
        "NIST CAVP XTSGen-style .rsp ([ENCRYPT]/[DECRYPT]; Key = Key1||Key2; i = tweak bytes or "
        "DataUnitSeqNumber = LE128 tweak; DataUnitLen in bits; PT; CT). Data units that are not a "
        "multiple of 128 bits are skipped (2018 XTS has no ciphertext stealing); openssl skips "
        "2 x 192-bit keys and K1 == K2 (it refuses both).",
    .parse_opt = parse_opt,
    .plan = plan,
    .check_size = check_size,
    .setup_case = setup_case,
    .selftest = xts_suite_selftest,
    .kat_accepts = xts_suite_kat_accepts,
    .kat_file = xts_suite_kat_file,
    .claim = claim,
    .plot_x = "size",
    .notes_md =
        "This is a userspace re-run of the kernel template, not the kernel: old and new are the "
        "pre- and post-78105c7e769b `crypto/xts.c` request paths over the same child `ecb(aes)`, "
        "here OpenSSL's EVP aes-*-ecb (pipelined AES-NI like the kernel's ecb-aes-aesni; one child "
        "request = one EVP_CipherUpdate, whose dispatch cost stands in for the kernel's walk and FPU "
        "save/restore). kmalloc/kzfree are glibc malloc and explicit_bzero+free, which are cheaper "
        "than the kernel's. `old-nomem` is the old code with the allocator forced to fail: 128-byte "
        "chunks, 32 child calls per 4 KiB. The peers are whole XTS implementations, not templates: "
        "OpenSSL EVP aes-xts (it has no AES-192-XTS, so no 384-bit cells) and libgcrypt's XTS mode. "
        "Every request uses a new IV (the sector number, as dm-crypt plain64); 2018 semantics: "
        "lengths must be whole 16-byte blocks.",
};
