/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg_ctr.c — CTR_DRBG (SP 800-90A §10.2.1) with AES-128 / AES-256, with or
 * without the derivation function Block_Cipher_df (§10.3.2).
 * State: the key K (d->C, also announced to the backend with ctr_setkey) and
 * the 16-byte counter V (d->V, SP 800-90A's own convention).
 * The keystream E(K,V+1) || E(K,V+2) ... comes from d->bk->ctr, the df's
 * single blocks from d->bk->block_encrypt. */
#include <string.h>

#include "drbg_mech.h"

#define BLOCK 16
#define MAX_SEEDLEN 48

/* BCC's chaining over a stream of input pieces: chain = E(K, chain ^ block). */
typedef struct bcc_state {
    pb_drbg *d;
    uint8_t chain[BLOCK], buf[BLOCK];
    size_t fill;
    int err;
} bcc_state;

static void bcc_feed(bcc_state *b, const uint8_t *p, size_t n)
{
    while (n && !b->err) {
        size_t k = BLOCK - b->fill < n ? BLOCK - b->fill : n;
        memcpy(b->buf + b->fill, p, k);
        b->fill += k;
        p += k;
        n -= k;
        if (b->fill == BLOCK) {
            for (int i = 0; i < BLOCK; i++) b->chain[i] ^= b->buf[i];
            if (b->d->bk->block_encrypt(b->d, b->chain, b->chain)) b->err = 1;
            b->fill = 0;
        }
    }
}

/* BCC(key, IV_i || S) (§10.3.3), S = L || N || input || 0x80 || 0^*, into out.
 * Keys the block cipher at every call, as libgcrypt's drbg_ctr_bcc does since
 * 20886fdc ("drbg_ctr_bcc: Set the key"): the new backend expands the df key
 * once per BCC run, two or three times per df. Before the patch every block
 * keyed its own handle; the old backend still does, its setkey only remembers. */
static int bcc(pb_drbg *d, uint8_t out[BLOCK], const uint8_t *key, uint32_t i, const uint8_t ln[8],
               const pb_drbg_part *in, int nin)
{
    static const uint8_t zeros[BLOCK], pad80 = 0x80;
    if (d->bk->block_setkey(d, key)) return -1;
    bcc_state b = { .d = d };
    uint8_t iv[BLOCK] = { (uint8_t)(i >> 24), (uint8_t)(i >> 16), (uint8_t)(i >> 8), (uint8_t)i };
    bcc_feed(&b, iv, BLOCK);
    bcc_feed(&b, ln, 8);
    for (int k = 0; k < nin; k++) bcc_feed(&b, in[k].p, in[k].n);
    bcc_feed(&b, &pad80, 1);
    if (b.fill) bcc_feed(&b, zeros, BLOCK - b.fill);
    memcpy(out, b.chain, BLOCK);
    int err = b.err;
    explicit_bzero(&b, sizeof b);
    return err ? -1 : 0;
}

/* Block_Cipher_df (§10.3.2): out = n bytes (n <= 64) derived from the
 * concatenation of the input parts. */
static int block_cipher_df(pb_drbg *d, uint8_t *out, size_t n, const pb_drbg_part *in, int nin)
{
    static const uint8_t df_key[32] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                        16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31 };
    size_t keylen = d->info->keylen, L = 0;
    for (int i = 0; i < nin; i++) L += in[i].n;
    /* L and N, 32-bit big-endian */
    uint8_t ln[8] = { (uint8_t)(L >> 24), (uint8_t)(L >> 16), (uint8_t)(L >> 8), (uint8_t)L,
                      (uint8_t)(n >> 24), (uint8_t)(n >> 16), (uint8_t)(n >> 8), (uint8_t)n };
    uint8_t temp[MAX_SEEDLEN];
    /* temp ||= BCC(K, IV_i || S) until keylen + 16 bytes */
    for (uint32_t i = 0; i * BLOCK < keylen + BLOCK; i++)
        if (bcc(d, temp + i * BLOCK, df_key, i, ln, in, nin)) return -1;
    /* K' = leftmost keylen bytes of temp, X = the next block; out = E(K',X) || E(K',E(K',X)) ... */
    if (d->bk->block_setkey(d, temp)) return -1;
    uint8_t *x = temp + keylen;
    for (size_t done = 0; done < n; done += BLOCK) {
        if (d->bk->block_encrypt(d, x, x)) return -1;
        memcpy(out + done, x, n - done < BLOCK ? n - done : BLOCK);
    }
    explicit_bzero(temp, sizeof temp);
    return 0;
}

/* CTR_DRBG_Update (§10.2.1.2): temp = keystream XOR provided (seedlen bytes,
 * NULL = zeros); K = temp[0..keylen), V = temp[keylen..seedlen). */
static int ctr_update(pb_drbg *d, const uint8_t *provided)
{
    uint8_t temp[MAX_SEEDLEN];
    size_t keylen = d->info->keylen;
    if (d->bk->ctr(d, temp, provided, d->info->seedlen)) return -1;
    memcpy(d->C, temp, keylen);
    memcpy(d->V, temp + keylen, BLOCK);
    explicit_bzero(temp, sizeof temp);
    return d->bk->ctr_setkey(d, d->C);
}

/* Seed material from the input parts: df(parts) with a derivation function;
 * without one, parts[0] (exactly seedlen bytes) XOR the zero-padded parts[last]. */
static int seed_material(pb_drbg *d, uint8_t *seed, const pb_drbg_part *in, int nin)
{
    size_t seedlen = d->info->seedlen;
    if (d->use_df) return block_cipher_df(d, seed, seedlen, in, nin);
    memcpy(seed, in[0].p, seedlen);
    const pb_drbg_part *x = &in[nin - 1];
    for (size_t i = 0; i < x->n; i++) seed[i] ^= x->p[i];
    return 0;
}

/* §10.2.1.3: K = 0, V = 0, Update(seed_material). */
static int ctr_instantiate(pb_drbg *d, const pb_drbg_part seed[3])
{
    uint8_t sm[MAX_SEEDLEN];
    int rc = seed_material(d, sm, seed, 3);
    memset(d->C, 0, d->info->keylen);
    memset(d->V, 0, BLOCK);
    if (!rc) rc = d->bk->ctr_setkey(d, d->C);
    if (!rc) rc = ctr_update(d, sm);
    explicit_bzero(sm, sizeof sm);
    return rc;
}

/* §10.2.1.4: Update(seed_material(entropy, additional_input)). */
static int ctr_reseed(pb_drbg *d, const pb_drbg_part seed[2])
{
    uint8_t sm[MAX_SEEDLEN];
    int rc = seed_material(d, sm, seed, 2);
    if (!rc) rc = ctr_update(d, sm);
    explicit_bzero(sm, sizeof sm);
    return rc;
}

/* The additional input as seedlen bytes of provided data: df(addtl), or
 * without a df addtl zero-padded. */
static int provided_from_addtl(pb_drbg *d, uint8_t add[MAX_SEEDLEN], const uint8_t *addtl, size_t addtl_len)
{
    if (!d->use_df) {
        memset(add, 0, MAX_SEEDLEN);
        memcpy(add, addtl, addtl_len);
        return 0;
    }
    pb_drbg_part in = { addtl, addtl_len };
    return block_cipher_df(d, add, d->info->seedlen, &in, 1);
}

/* §10.2.1.5: with additional input Update(df(addtl)) first; output =
 * E(K,V+1) || E(K,V+2) ...; then Update(df(addtl)) again. The df runs twice,
 * as in libgcrypt at 20886fdc: its drbg_ctr_update derives whenever it is
 * handed addtl, and drbg_ctr_generate hands it addtl both times, so the
 * df_data kept by "reseed code 2" for reuse is derived again (the patch left
 * that path as it was). SP 800-90A allows keeping the first result; this
 * models the code being measured. */
static int ctr_generate(pb_drbg *d, uint8_t *out, size_t n, const uint8_t *addtl, size_t addtl_len)
{
    uint8_t add[MAX_SEEDLEN];
    int rc = 0;
    if (addtl_len) rc = provided_from_addtl(d, add, addtl, addtl_len);
    if (!rc && addtl_len) rc = ctr_update(d, add);
    if (!rc) rc = d->bk->ctr(d, out, NULL, n);
    if (!rc && addtl_len) rc = provided_from_addtl(d, add, addtl, addtl_len);
    if (!rc) rc = ctr_update(d, addtl_len ? add : NULL);
    explicit_bzero(add, sizeof add);
    return rc;
}

const pb_drbg_mech_ops pb_drbg_ctr_ops = { ctr_instantiate, ctr_reseed, ctr_generate };
