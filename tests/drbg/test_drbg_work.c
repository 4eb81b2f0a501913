/* SPDX-License-Identifier: GPL-2.0-only */
/* test_drbg_work.c — the work one generate request does, counted, against the
 * counts derived from libgcrypt's random-drbg.c (20886fdc for new; for old the
 * same state machine with per-call handles, as the patch's ChangeLog and
 * SPEC.md §3.3 describe it). No timing: the libgcrypt calls the backends make
 * are counted through the linker (-Wl,--wrap=gcry_...), the derivation
 * function's calls through a counting backend wrapped around old and new.
 *
 * Setup: fixed entropy (security strength bytes: 16 for AES-128, 32 for
 * AES-256 and SHA-256), additional input a = 32 bytes (what --addtl sends),
 * requests of n = 16 and n = 4096 bytes, counted after instantiate.
 * Modes: plain (no additional input), addtl, pr (prediction resistance with
 * the additional input: it goes into the reseed, generate then runs without).
 *
 * Derivation, CTR_DRBG (blocklen 16; AES-128: keylen 16, seedlen 32; AES-256:
 * keylen 32, seedlen 48):
 *   df(input of L bytes): BCC runs while 16*i < keylen + 16, i.e. 2 (AES-128)
 *     or 3 (AES-256); each is keyed (drbg_ctr_bcc: drbg_sym_setkey) and
 *     encrypts IV || S, S = 8 + L + 1 bytes padded to 16: 1 + ceil((L+9)/16)
 *     blocks; then one setkey (K') and seedlen/16 output blocks.
 *       L = 32 (addtl):              BCC = 1 + 3 = 4 blocks
 *       L = 16 + 32 (AES-128 reseed): BCC = 1 + 4 = 5 blocks
 *       L = 32 + 32 (AES-256 reseed): BCC = 1 + 5 = 6 blocks
 *   update: seedlen/16 blocks of keystream under K, then a new K.
 *   generate with addtl: df + update, output, df + update (drbg_ctr_update
 *     derives whenever addtl is non-empty, code 2 and code 3 alike);
 *     without: output + update; pr: reseed = df(entropy || addtl) + update,
 *     then output + update.
 *   new: AES keys expanded (gcry_cipher_setkey) = one per BCC run, one per
 *     df output key, one per update (the CTR handle); no handle opened.
 *       AES-128: plain 1; addtl 2*(2+1) + 2 = 8; pr (2+1) + 1 + 1 = 5
 *       AES-256: plain 1; addtl 2*(3+1) + 2 = 10; pr (3+1) + 1 + 1 = 6
 *   old: every AES block opens, keys and closes a handle (drbg_sym), so
 *     opens = setkeys = blocks, B = ceil(n/16) output blocks:
 *       AES-128: plain 2 + B; addtl 2*((2*4 + 2) + 2) + B = 24 + B;
 *                pr (2*5 + 2) + 2 + 2 + B = 16 + B
 *       AES-256: plain 3 + B; addtl 2*((3*4 + 3) + 3) + B = 36 + B;
 *                pr (3*6 + 3) + 3 + 3 + B = 27 + B
 *     (B = 1 for 16 bytes, 256 for 4096.)
 *   df invocations: addtl 2, plain 0, pr 1; BCC setkeys per df 2 / 3.
 *
 * HMAC_DRBG SHA-256 (outlen 32, B = ceil(n/32)): update(provided) = 2 rounds
 * of K = HMAC(K, ...), setkey(K), V = HMAC(K, V) when provided is non-empty,
 * 1 round when empty. generate: [update(addtl)], B HMACs, update(addtl).
 *   HMACs: plain 2 + B; addtl 4 + B + 4 = 8 + B; pr 4 (reseed) + B + 2 = 6 + B
 *   new: keys set (md_setkey) plain 1, addtl 4, pr 3; HMACs run by md_reset
 *     on the keyed handle; no handle opened.
 *   old: every HMAC opens and keys a handle: opens = setkeys = HMACs.
 * Hash_DRBG SHA-256 (seedlen 55): hash_df(55 bytes) = 2 hashes; reseed = 2 dfs;
 * generate: [1 hash of 0x02 || V || addtl], B hashes, H = 1 hash.
 *   hashes: plain 1 + B; addtl 2 + B; pr 4 + 1 + B = 5 + B
 *   new: md_reset per hash, no open, no setkey; old: md_open per hash.
 */
#include <gcrypt.h>
#include <stdio.h>
#include <string.h>

#include "common/drbg.h"
#include "common/drbg_backend.h"

/* libgcrypt calls, counted and forwarded (-Wl,--wrap in meson.build). */
static struct {
    unsigned cipher_open, cipher_setkey, md_open, md_setkey, md_reset;
} lib;

gcry_error_t __real_gcry_cipher_open(gcry_cipher_hd_t *h, int algo, int mode, unsigned int flags);
gcry_error_t __real_gcry_cipher_setkey(gcry_cipher_hd_t h, const void *key, size_t keylen);
gcry_error_t __real_gcry_md_open(gcry_md_hd_t *h, int algo, unsigned int flags);
gcry_error_t __real_gcry_md_setkey(gcry_md_hd_t h, const void *key, size_t keylen);
void __real_gcry_md_reset(gcry_md_hd_t h);
gcry_error_t __wrap_gcry_cipher_open(gcry_cipher_hd_t *h, int algo, int mode, unsigned int flags);
gcry_error_t __wrap_gcry_cipher_setkey(gcry_cipher_hd_t h, const void *key, size_t keylen);
gcry_error_t __wrap_gcry_md_open(gcry_md_hd_t *h, int algo, unsigned int flags);
gcry_error_t __wrap_gcry_md_setkey(gcry_md_hd_t h, const void *key, size_t keylen);
void __wrap_gcry_md_reset(gcry_md_hd_t h);

gcry_error_t __wrap_gcry_cipher_open(gcry_cipher_hd_t *h, int algo, int mode, unsigned int flags)
{
    lib.cipher_open++;
    return __real_gcry_cipher_open(h, algo, mode, flags);
}
gcry_error_t __wrap_gcry_cipher_setkey(gcry_cipher_hd_t h, const void *key, size_t keylen)
{
    lib.cipher_setkey++;
    return __real_gcry_cipher_setkey(h, key, keylen);
}
gcry_error_t __wrap_gcry_md_open(gcry_md_hd_t *h, int algo, unsigned int flags)
{
    lib.md_open++;
    return __real_gcry_md_open(h, algo, flags);
}
gcry_error_t __wrap_gcry_md_setkey(gcry_md_hd_t h, const void *key, size_t keylen)
{
    lib.md_setkey++;
    return __real_gcry_md_setkey(h, key, keylen);
}
void __wrap_gcry_md_reset(gcry_md_hd_t h)
{
    lib.md_reset++;
    __real_gcry_md_reset(h);
}

/* The derivation function's calls, seen at the backend seam: a block_setkey
 * with the df's fixed key 00 01 02 ... starts a BCC run, any other key is a
 * df's output key K' (one per df). */
static const pb_drbg_backend *inner;
static unsigned bcc_setkeys, df_calls;

static int count_block_setkey(pb_drbg *d, const uint8_t *key)
{
    static const uint8_t df_key[32] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                        16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31 };
    if (memcmp(key, df_key, d->info->keylen) == 0)
        bcc_setkeys++;
    else
        df_calls++;
    return inner->block_setkey(d, key);
}
static int fwd_init(pb_drbg *d) { return inner->init(d); }
static void fwd_fini(pb_drbg *d) { inner->fini(d); }
static int fwd_hash(pb_drbg *d, uint8_t *o, const pb_drbg_part *p, int n) { return inner->hash(d, o, p, n); }
static int fwd_hmac_setkey(pb_drbg *d, const uint8_t *k) { return inner->hmac_setkey(d, k); }
static int fwd_hmac(pb_drbg *d, uint8_t *o, const pb_drbg_part *p, int n) { return inner->hmac(d, o, p, n); }
static int fwd_block_encrypt(pb_drbg *d, uint8_t o[16], const uint8_t i[16]) { return inner->block_encrypt(d, o, i); }
static int fwd_ctr_setkey(pb_drbg *d, const uint8_t *k) { return inner->ctr_setkey(d, k); }
static int fwd_ctr(pb_drbg *d, uint8_t *o, const uint8_t *i, size_t n) { return inner->ctr(d, o, i, n); }

static const pb_drbg_backend counting = {
    .name = "counting",
    .init = fwd_init,
    .fini = fwd_fini,
    .hash = fwd_hash,
    .hmac_setkey = fwd_hmac_setkey,
    .hmac = fwd_hmac,
    .block_setkey = count_block_setkey,
    .block_encrypt = fwd_block_encrypt,
    .ctr_setkey = fwd_ctr_setkey,
    .ctr = fwd_ctr,
};

static long fixed_entropy(void *arg, uint8_t *buf, size_t min_len, size_t max_len)
{
    (void)arg;
    (void)max_len;
    for (size_t i = 0; i < min_len; i++) buf[i] = (uint8_t)(0x5a ^ i);
    return (long)min_len;
}

enum mode { PLAIN, ADDTL, PR };
static const char *const mode_name[] = { "plain", "addtl", "pr" };

/* Expected counts for one generate request, from the derivation above. */
typedef struct expect {
    pb_drbg_mech mech;
    const char *backend;
    enum mode mode;
    size_t n;
    unsigned cipher_open, cipher_setkey, md_open, md_setkey, md_reset;
    unsigned df_calls, bcc_setkeys;
} expect;

static const expect table[] = {
    /* CTR_DRBG AES-128: new setkeys 1 / 8 / 5; old blocks 2+B / 24+B / 16+B */
    { PB_DRBG_CTR_AES128, "new", PLAIN, 16, 0, 1, 0, 0, 0, 0, 0 },
    { PB_DRBG_CTR_AES128, "new", PLAIN, 4096, 0, 1, 0, 0, 0, 0, 0 },
    { PB_DRBG_CTR_AES128, "new", ADDTL, 16, 0, 8, 0, 0, 0, 2, 4 },
    { PB_DRBG_CTR_AES128, "new", ADDTL, 4096, 0, 8, 0, 0, 0, 2, 4 },
    { PB_DRBG_CTR_AES128, "new", PR, 16, 0, 5, 0, 0, 0, 1, 2 },
    { PB_DRBG_CTR_AES128, "new", PR, 4096, 0, 5, 0, 0, 0, 1, 2 },
    { PB_DRBG_CTR_AES128, "old", PLAIN, 16, 3, 3, 0, 0, 0, 0, 0 },
    { PB_DRBG_CTR_AES128, "old", PLAIN, 4096, 258, 258, 0, 0, 0, 0, 0 },
    { PB_DRBG_CTR_AES128, "old", ADDTL, 16, 25, 25, 0, 0, 0, 2, 4 },
    { PB_DRBG_CTR_AES128, "old", ADDTL, 4096, 280, 280, 0, 0, 0, 2, 4 },
    { PB_DRBG_CTR_AES128, "old", PR, 16, 17, 17, 0, 0, 0, 1, 2 },
    { PB_DRBG_CTR_AES128, "old", PR, 4096, 272, 272, 0, 0, 0, 1, 2 },
    /* CTR_DRBG AES-256: new setkeys 1 / 10 / 6; old blocks 3+B / 36+B / 27+B */
    { PB_DRBG_CTR_AES256, "new", PLAIN, 16, 0, 1, 0, 0, 0, 0, 0 },
    { PB_DRBG_CTR_AES256, "new", PLAIN, 4096, 0, 1, 0, 0, 0, 0, 0 },
    { PB_DRBG_CTR_AES256, "new", ADDTL, 16, 0, 10, 0, 0, 0, 2, 6 },
    { PB_DRBG_CTR_AES256, "new", ADDTL, 4096, 0, 10, 0, 0, 0, 2, 6 },
    { PB_DRBG_CTR_AES256, "new", PR, 16, 0, 6, 0, 0, 0, 1, 3 },
    { PB_DRBG_CTR_AES256, "new", PR, 4096, 0, 6, 0, 0, 0, 1, 3 },
    { PB_DRBG_CTR_AES256, "old", PLAIN, 16, 4, 4, 0, 0, 0, 0, 0 },
    { PB_DRBG_CTR_AES256, "old", PLAIN, 4096, 259, 259, 0, 0, 0, 0, 0 },
    { PB_DRBG_CTR_AES256, "old", ADDTL, 16, 37, 37, 0, 0, 0, 2, 6 },
    { PB_DRBG_CTR_AES256, "old", ADDTL, 4096, 292, 292, 0, 0, 0, 2, 6 },
    { PB_DRBG_CTR_AES256, "old", PR, 16, 28, 28, 0, 0, 0, 1, 3 },
    { PB_DRBG_CTR_AES256, "old", PR, 4096, 283, 283, 0, 0, 0, 1, 3 },
    /* HMAC_DRBG: HMACs 2+B / 8+B / 6+B (B = 1 or 128); new setkeys 1 / 4 / 3 */
    { PB_DRBG_HMAC_SHA256, "new", PLAIN, 16, 0, 0, 0, 1, 3, 0, 0 },
    { PB_DRBG_HMAC_SHA256, "new", PLAIN, 4096, 0, 0, 0, 1, 130, 0, 0 },
    { PB_DRBG_HMAC_SHA256, "new", ADDTL, 16, 0, 0, 0, 4, 9, 0, 0 },
    { PB_DRBG_HMAC_SHA256, "new", ADDTL, 4096, 0, 0, 0, 4, 136, 0, 0 },
    { PB_DRBG_HMAC_SHA256, "new", PR, 16, 0, 0, 0, 3, 7, 0, 0 },
    { PB_DRBG_HMAC_SHA256, "new", PR, 4096, 0, 0, 0, 3, 134, 0, 0 },
    { PB_DRBG_HMAC_SHA256, "old", PLAIN, 16, 0, 0, 3, 3, 0, 0, 0 },
    { PB_DRBG_HMAC_SHA256, "old", PLAIN, 4096, 0, 0, 130, 130, 0, 0, 0 },
    { PB_DRBG_HMAC_SHA256, "old", ADDTL, 16, 0, 0, 9, 9, 0, 0, 0 },
    { PB_DRBG_HMAC_SHA256, "old", ADDTL, 4096, 0, 0, 136, 136, 0, 0, 0 },
    { PB_DRBG_HMAC_SHA256, "old", PR, 16, 0, 0, 7, 7, 0, 0, 0 },
    { PB_DRBG_HMAC_SHA256, "old", PR, 4096, 0, 0, 134, 134, 0, 0, 0 },
    /* Hash_DRBG: hashes 1+B / 2+B / 5+B */
    { PB_DRBG_HASH_SHA256, "new", PLAIN, 16, 0, 0, 0, 0, 2, 0, 0 },
    { PB_DRBG_HASH_SHA256, "new", PLAIN, 4096, 0, 0, 0, 0, 129, 0, 0 },
    { PB_DRBG_HASH_SHA256, "new", ADDTL, 16, 0, 0, 0, 0, 3, 0, 0 },
    { PB_DRBG_HASH_SHA256, "new", ADDTL, 4096, 0, 0, 0, 0, 130, 0, 0 },
    { PB_DRBG_HASH_SHA256, "new", PR, 16, 0, 0, 0, 0, 6, 0, 0 },
    { PB_DRBG_HASH_SHA256, "new", PR, 4096, 0, 0, 0, 0, 133, 0, 0 },
    { PB_DRBG_HASH_SHA256, "old", PLAIN, 16, 0, 0, 2, 0, 0, 0, 0 },
    { PB_DRBG_HASH_SHA256, "old", PLAIN, 4096, 0, 0, 129, 0, 0, 0, 0 },
    { PB_DRBG_HASH_SHA256, "old", ADDTL, 16, 0, 0, 3, 0, 0, 0, 0 },
    { PB_DRBG_HASH_SHA256, "old", ADDTL, 4096, 0, 0, 130, 0, 0, 0, 0 },
    { PB_DRBG_HASH_SHA256, "old", PR, 16, 0, 0, 6, 0, 0, 0, 0 },
    { PB_DRBG_HASH_SHA256, "old", PR, 4096, 0, 0, 133, 0, 0, 0, 0 },
};

static int check(const char *what, const char *field, unsigned got, unsigned want)
{
    if (got == want) return 0;
    fprintf(stderr, "FAIL %s: %s = %u, upstream derivation says %u\n", what, field, got, want);
    return 1;
}

static int run(const expect *x)
{
    char what[96];
    snprintf(what, sizeof what, "%s %s %s %zu B", pb_drbg_info_of(x->mech)->name, x->backend, mode_name[x->mode],
             x->n);
    inner = strcmp(x->backend, "new") == 0 ? &pb_drbg_backend_new : &pb_drbg_backend_old;
    pb_drbg_config cfg;
    pb_drbg_config_init(&cfg, x->mech);
    cfg.entropy = fixed_entropy;
    static const uint8_t nonce[16] = { 1, 2, 3 }, addtl[32] = { 0xa5, 0x5a };
    static uint8_t out[4096];
    pb_drbg d;
    int rc = pb_drbg_instantiate(&d, &counting, &cfg, nonce, sizeof nonce, NULL, 0);
    if (rc) {
        fprintf(stderr, "FAIL %s: instantiate: %s\n", what, pb_drbg_strerror(rc));
        return 1;
    }
    memset(&lib, 0, sizeof lib);
    bcc_setkeys = df_calls = 0;
    rc = pb_drbg_generate(&d, out, x->n, x->mode == PLAIN ? NULL : addtl, x->mode == PLAIN ? 0 : sizeof addtl,
                          x->mode == PR);
    pb_drbg_uninstantiate(&d);
    if (rc) {
        fprintf(stderr, "FAIL %s: generate: %s\n", what, pb_drbg_strerror(rc));
        return 1;
    }
    int bad = check(what, "gcry_cipher_open", lib.cipher_open, x->cipher_open) +
              check(what, "gcry_cipher_setkey", lib.cipher_setkey, x->cipher_setkey) +
              check(what, "gcry_md_open", lib.md_open, x->md_open) +
              check(what, "gcry_md_setkey", lib.md_setkey, x->md_setkey) +
              check(what, "gcry_md_reset", lib.md_reset, x->md_reset) +
              check(what, "df invocations", df_calls, x->df_calls) +
              check(what, "BCC setkeys", bcc_setkeys, x->bcc_setkeys);
    if (!bad)
        printf("ok %s: cipher open %u setkey %u, md open %u setkey %u reset %u, df %u, BCC setkeys %u\n", what,
               lib.cipher_open, lib.cipher_setkey, lib.md_open, lib.md_setkey, lib.md_reset, df_calls, bcc_setkeys);
    return bad;
}

int main(void)
{
    int failures = 0;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) failures += run(&table[i]);
    if (failures) fprintf(stderr, "%d count(s) differ from the upstream derivation\n", failures);
    return failures ? 1 : 0;
}
