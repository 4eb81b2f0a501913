/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg_hash.c — Hash_DRBG (SP 800-90A §10.1.1) with SHA-256: seedlen 55 bytes.
 * State: V and the constant C (d->C). Every hash goes through d->bk->hash. */
#include <string.h>

#include "drbg_mech.h"

#define SEEDLEN 55
#define OUTLEN 32
#define MAX_PARTS 6

/* Hash_df (§10.3.1): out = leftmost n bytes of
 * Hash(1 || n*8 || input) || Hash(2 || n*8 || input) || ... */
static int hash_df(pb_drbg *d, uint8_t *out, size_t n, const pb_drbg_part *in, int nin)
{
    uint8_t hdr[5] = { 1, (uint8_t)(n >> 21), (uint8_t)(n >> 13), (uint8_t)(n >> 5), (uint8_t)(n << 3) };
    pb_drbg_part parts[MAX_PARTS + 1] = { { hdr, sizeof hdr } };
    memcpy(parts + 1, in, (size_t)nin * sizeof *in);
    uint8_t dig[OUTLEN];
    for (size_t done = 0; done < n; done += OUTLEN, hdr[0]++) {
        if (d->bk->hash(d, dig, parts, nin + 1)) return -1;
        size_t k = n - done < OUTLEN ? n - done : OUTLEN;
        memcpy(out + done, dig, k);
    }
    explicit_bzero(dig, sizeof dig);
    return 0;
}

/* V = Hash_df(prefix? || input...); C = Hash_df(0x00 || V). */
static int seed_v_and_c(pb_drbg *d, const pb_drbg_part *in, int nin)
{
    uint8_t v[SEEDLEN];
    if (hash_df(d, v, SEEDLEN, in, nin)) return -1;
    memcpy(d->V, v, SEEDLEN);
    explicit_bzero(v, sizeof v);
    static const uint8_t zero = 0x00;
    pb_drbg_part c_in[2] = { { &zero, 1 }, { d->V, SEEDLEN } };
    return hash_df(d, d->C, SEEDLEN, c_in, 2);
}

/* seed_material = entropy || nonce || personalization (§10.1.1.2) */
static int hash_instantiate(pb_drbg *d, const pb_drbg_part seed[3])
{
    return seed_v_and_c(d, seed, 3);
}

/* seed_material = 0x01 || V || entropy || additional_input (§10.1.1.3) */
static int hash_reseed(pb_drbg *d, const pb_drbg_part seed[2])
{
    static const uint8_t one = 0x01;
    pb_drbg_part in[4] = { { &one, 1 }, { d->V, SEEDLEN }, seed[0], seed[1] };
    return seed_v_and_c(d, in, 4);
}

/* V += a (mod 2^440), a big-endian of alen <= SEEDLEN bytes. */
static void add_be(uint8_t v[SEEDLEN], const uint8_t *a, size_t alen)
{
    unsigned carry = 0;
    for (size_t i = 0; i < SEEDLEN; i++) {
        unsigned s = v[SEEDLEN - 1 - i] + (i < alen ? a[alen - 1 - i] : 0) + carry;
        v[SEEDLEN - 1 - i] = (uint8_t)s;
        carry = s >> 8;
    }
}

/* §10.1.1.4 */
static int hash_generate(pb_drbg *d, uint8_t *out, size_t n, const uint8_t *addtl, size_t addtl_len)
{
    uint8_t w[OUTLEN];
    if (addtl_len) {
        static const uint8_t two = 0x02;
        pb_drbg_part in[3] = { { &two, 1 }, { d->V, SEEDLEN }, { addtl, addtl_len } };
        if (d->bk->hash(d, w, in, 3)) return -1;
        add_be(d->V, w, OUTLEN);
    }
    /* Hashgen: data = V; W = Hash(data) || Hash(data+1) || ... */
    uint8_t *data = d->scratch;
    memcpy(data, d->V, SEEDLEN);
    pb_drbg_part in = { data, SEEDLEN };
    for (size_t done = 0; done < n;) {
        if (n - done >= OUTLEN) {
            if (d->bk->hash(d, out + done, &in, 1)) return -1;
            done += OUTLEN;
        } else {
            if (d->bk->hash(d, w, &in, 1)) return -1;
            memcpy(out + done, w, n - done);
            done = n;
        }
        if (done < n) pb_drbg_be_add(data, SEEDLEN, 1);
    }
    /* H = Hash(0x03 || V); V = V + H + C + reseed_counter */
    static const uint8_t three = 0x03;
    pb_drbg_part h_in[2] = { { &three, 1 }, { d->V, SEEDLEN } };
    if (d->bk->hash(d, w, h_in, 2)) return -1;
    add_be(d->V, w, OUTLEN);
    add_be(d->V, d->C, SEEDLEN);
    pb_drbg_be_add(d->V, SEEDLEN, d->reseed_ctr);
    explicit_bzero(w, sizeof w);
    return 0;
}

const pb_drbg_mech_ops pb_drbg_hash_ops = { hash_instantiate, hash_reseed, hash_generate };
