/* SPDX-License-Identifier: GPL-2.0-only */
/* Differential test: the per-CPU-requests pool (old) and the clone-tfm pool
 * (new) produce identical TCP-MD5 signatures, TCP-AO traffic keys and MACs,
 * and both equal a reference that builds the whole message in one buffer
 * and hashes it in one call (a second, independent rendering of the
 * layout). Random segments, keys, algorithms, IPv4/IPv6, options included
 * or excluded, under 4 threads at once sharing the pools. Fixed seeds. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/gcrypt_init.h"
#include "common/sigpool.h"
#include "common/tcp_ao.h"
#include "common/tcp_md5.h"
#include "pb.h"

#define NTHREADS 4
#define NSEGS 2000
#define MAXPAY 1600

static const char *const algs[] = {
    "md5", "hmac(sha1)", "hmac(sha512)", "hmac(sha384)", "hmac(sha224)",
    "hmac(sha3-512)", "hmac(md5)", "hmac(rmd160)", "cmac(aes128)", "hmac(sha256)",
};
#define NALGS (sizeof algs / sizeof algs[0])

static sigpool *pools[2][NALGS];
static int failures;
static pthread_mutex_t fail_mu = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *what, const char *alg, int seg)
{
    pthread_mutex_lock(&fail_mu);
    if (failures++ < 10) fprintf(stderr, "FAIL %s: %s, segment %d\n", what, alg, seg);
    pthread_mutex_unlock(&fail_mu);
}

/* --- reference: one buffer, one libgcrypt call ------------------------- */

static void ref_mac(const sp_alg *a, const uint8_t *key, size_t keylen, const uint8_t *msg, size_t len, uint8_t *out)
{
    if (a->kind == SP_CMAC) {
        gcry_mac_hd_t h;
        size_t n = a->digest_len;
        uint8_t k[16];
        if (keylen != 16) {          /* RFC 4615: compress the key first */
            assert(!gcry_mac_open(&h, GCRY_MAC_CMAC_AES, 0, NULL));
            assert(!gcry_mac_setkey(h, (const uint8_t[16]){0}, 16));
            assert(!gcry_mac_write(h, key, keylen));
            assert(!gcry_mac_read(h, k, &n));
            gcry_mac_close(h);
            key = k;
            keylen = 16;
        }
        assert(!gcry_mac_open(&h, GCRY_MAC_CMAC_AES, 0, NULL));
        assert(!gcry_mac_setkey(h, key, keylen));
        assert(!gcry_mac_write(h, msg, len));
        n = a->digest_len;
        assert(!gcry_mac_read(h, out, &n));
        gcry_mac_close(h);
        return;
    }
    gcry_md_hd_t h;
    assert(!gcry_md_open(&h, a->gcry_algo, GCRY_MD_FLAG_HMAC));
    assert(!gcry_md_setkey(h, key, keylen));
    gcry_md_write(h, msg, len);
    memcpy(out, gcry_md_read(h, 0), a->digest_len);
    gcry_md_close(h);
}

static size_t put_pseudo(uint8_t *p, const tcp_addrs *a, size_t seglen)
{
    size_t n = a->family == 4 ? 4 : 16;
    memcpy(p, a->src, n);
    memcpy(p + n, a->dst, n);
    p += 2 * n;
    if (a->family == 4) {
        p[0] = 0; p[1] = 6; p[2] = (uint8_t)(seglen >> 8); p[3] = (uint8_t)seglen;
        return 12;
    }
    p[0] = (uint8_t)(seglen >> 24); p[1] = (uint8_t)(seglen >> 16); p[2] = (uint8_t)(seglen >> 8); p[3] = (uint8_t)seglen;
    p[4] = p[5] = p[6] = 0; p[7] = 6;
    return 40;
}

static void ref_md5(const tcp_addrs *a, const uint8_t *seg, size_t seglen, const uint8_t *key, size_t keylen,
                    uint8_t out[16])
{
    static _Thread_local uint8_t msg[40 + 20 + MAXPAY + 80];
    size_t hl = (size_t)(seg[12] >> 4) * 4, n = put_pseudo(msg, a, seglen);
    memcpy(msg + n, seg, 20);
    msg[n + 16] = msg[n + 17] = 0;
    n += 20;
    memcpy(msg + n, seg + hl, seglen - hl);
    n += seglen - hl;
    memcpy(msg + n, key, keylen);
    gcry_md_hash_buffer(GCRY_MD_MD5, out, msg, n + keylen);
}

static void ref_ao(const sp_alg *alg, const uint8_t *mkt, size_t mktlen, const uint8_t *ctx, size_t ctxlen,
                   uint32_t sne, const tcp_addrs *a, const uint8_t *seg, size_t seglen, int exclude,
                   uint8_t *tk, uint8_t *mac)
{
    uint8_t in[64];
    size_t n = 0;
    in[n++] = 1;
    memcpy(in + n, "TCP-AO", 6);
    n += 6;
    memcpy(in + n, ctx, ctxlen);
    n += ctxlen;
    in[n++] = (uint8_t)(alg->digest_len * 8 >> 8);
    in[n++] = (uint8_t)(alg->digest_len * 8);
    ref_mac(alg, mkt, mktlen, in, n, tk);

    static _Thread_local uint8_t msg[4 + 40 + 60 + MAXPAY];
    size_t hl = (size_t)(seg[12] >> 4) * 4;
    int ao = tcp_find_option(seg, hl, TCPOPT_AO);
    size_t maclen = seg[ao + 1] - 4;
    msg[0] = (uint8_t)(sne >> 24); msg[1] = (uint8_t)(sne >> 16); msg[2] = (uint8_t)(sne >> 8); msg[3] = (uint8_t)sne;
    n = 4 + put_pseudo(msg + 4, a, seglen);
    size_t h0 = n;
    if (exclude) {
        memcpy(msg + n, seg, 20);
        memcpy(msg + n + 20, seg + ao, 4 + maclen);
        memset(msg + n + 24, 0, maclen);
        n += 24 + maclen;
    } else {
        memcpy(msg + n, seg, hl);
        memset(msg + n + ao + 4, 0, maclen);
        n += hl;
    }
    msg[h0 + 16] = msg[h0 + 17] = 0;
    memcpy(msg + n, seg + hl, seglen - hl);
    n += seglen - hl;
    uint8_t full[SP_MAX_DIGEST];
    ref_mac(alg, tk, alg->digest_len, msg, n, full);
    memcpy(mac, full, maclen);
}

/* --- one random segment through both pools ----------------------------- */

static void one_segment(pb_rng *r, int idx)
{
    unsigned ai = (unsigned)(pb_rng_next(r) % NALGS);
    const sp_alg *alg = sp_alg_find(algs[ai]);
    int md5 = alg->kind == SP_HASH;
    tcp_addrs a = {.family = pb_rng_next(r) & 1 ? 6 : 4};
    pb_rng_bytes(r, a.src, 16);
    pb_rng_bytes(r, a.dst, 16);
    unsigned maxmac = alg->digest_len < 16 ? alg->digest_len : 16;
    tcp_hdr_spec hs = {
        .sport = (uint16_t)pb_rng_next(r), .dport = (uint16_t)pb_rng_next(r),
        .seq = (uint32_t)pb_rng_next(r), .ack = (uint32_t)pb_rng_next(r),
        .flags = (uint8_t)pb_rng_next(r), .window = (uint16_t)pb_rng_next(r),
        .sig = md5 ? TCP_SIG_MD5 : TCP_SIG_AO, .keyid = (uint8_t)pb_rng_next(r),
        .rnextkeyid = (uint8_t)pb_rng_next(r), .maclen = 4 + (unsigned)(pb_rng_next(r) % (maxmac - 3)),
        .tsval = (uint32_t)pb_rng_next(r), .tsecr = (uint32_t)pb_rng_next(r),
    };
    uint8_t seg[60 + MAXPAY];
    size_t hl = tcp_build_hdr(seg, &hs);
    assert(hl);
    size_t pay = (size_t)(pb_rng_next(r) % (MAXPAY + 1));
    pb_rng_bytes(r, seg + hl, pay);
    size_t seglen = hl + pay;
    pb_rng_bytes(r, seg + 16, 2);                      /* a checksum: must be ignored */
    int off = tcp_find_option(seg, hl, md5 ? TCPOPT_MD5SIG : TCPOPT_AO);
    assert(off >= 0);
    uint8_t *field = seg + off + (md5 ? 2 : 4);
    size_t fieldlen = md5 ? 16 : hs.maclen;
    pb_rng_bytes(r, field, fieldlen);                  /* an old signature: ignored too */

    uint8_t key[80];
    size_t keylen = 1 + (size_t)(pb_rng_next(r) % 80);
    pb_rng_bytes(r, key, keylen);

    if (md5) {
        uint8_t d[2][16], want[16];
        for (int p = 0; p < 2; p++)
            if (tcp_md5_hash(pools[p][ai], &a, seg, seglen, key, keylen, d[p])) fail("md5 hash", alg->name, idx);
        ref_md5(&a, seg, seglen, key, keylen, want);
        if (memcmp(d[0], want, 16)) fail("md5 old != reference", alg->name, idx);
        if (memcmp(d[1], want, 16)) fail("md5 new != reference", alg->name, idx);
        /* signed by one pool, verified by the other; then tampered */
        if (tcp_md5_sign(pools[0][ai], &a, seg, seglen, key, keylen)) fail("md5 sign", alg->name, idx);
        if (tcp_md5_verify(pools[1][ai], &a, seg, seglen, key, keylen) != 0) fail("md5 verify", alg->name, idx);
        seg[pay ? hl + pay / 2 : 14] ^= 0x40;          /* payload, or the window field */
        if (tcp_md5_verify(pools[1][ai], &a, seg, seglen, key, keylen) != 1) fail("md5 tamper", alg->name, idx);
        return;
    }
    uint8_t ctx[TCP_AO_CONTEXT_MAX];
    size_t ctxlen = tcp_ao_context(ctx, &a, hs.sport, hs.dport, (uint32_t)pb_rng_next(r), (uint32_t)pb_rng_next(r));
    uint32_t sne = (uint32_t)pb_rng_next(r);
    int exclude = (int)(pb_rng_next(r) % 4 == 0);
    uint8_t tk[2][SP_MAX_DIGEST], mac[2][SP_MAX_DIGEST], want_tk[SP_MAX_DIGEST], want_mac[SP_MAX_DIGEST];
    for (int p = 0; p < 2; p++) {
        if (tcp_ao_kdf(pools[p][ai], key, keylen, ctx, ctxlen, tk[p])) fail("ao kdf", alg->name, idx);
        if (tcp_ao_hash(pools[p][ai], tk[p], alg->digest_len, sne, &a, seg, seglen, exclude, mac[p]))
            fail("ao hash", alg->name, idx);
    }
    ref_ao(alg, key, keylen, ctx, ctxlen, sne, &a, seg, seglen, exclude, want_tk, want_mac);
    if (memcmp(tk[0], want_tk, alg->digest_len)) fail("traffic key old != reference", alg->name, idx);
    if (memcmp(tk[1], want_tk, alg->digest_len)) fail("traffic key new != reference", alg->name, idx);
    if (memcmp(mac[0], want_mac, hs.maclen)) fail("ao mac old != reference", alg->name, idx);
    if (memcmp(mac[1], want_mac, hs.maclen)) fail("ao mac new != reference", alg->name, idx);
    if (tcp_ao_sign(pools[1][ai], want_tk, alg->digest_len, sne, &a, seg, seglen, exclude)) fail("ao sign", alg->name, idx);
    if (tcp_ao_verify(pools[0][ai], want_tk, alg->digest_len, sne, &a, seg, seglen, exclude) != 0)
        fail("ao verify", alg->name, idx);
    if (tcp_ao_verify(pools[0][ai], want_tk, alg->digest_len, sne + 1, &a, seg, seglen, exclude) != 1)
        fail("ao verify with a wrong SNE", alg->name, idx);
}

static void *thread_main(void *arg)
{
    pb_rng r;
    pb_rng_seed(&r, 0xd1ff + (uint64_t)(uintptr_t)arg);
    for (int i = 0; i < NSEGS; i++) one_segment(&r, i);
    return NULL;
}

/* One round: the two pools of one build, against each other and the reference. */
static int run_build(const sigpool_ops *old_ops, const sigpool_ops *new_ops)
{
    const sigpool_ops *ops[2] = {old_ops, new_ops};
    for (int p = 0; p < 2; p++)
        for (unsigned i = 0; i < NALGS; i++)
            if (ops[p]->create(algs[i], TCP_SIGPOOL_SCRATCH, &pools[p][i])) {
                fprintf(stderr, "cannot create %s pool for %s\n", ops[p]->name, algs[i]);
                return 1;
            }
    pthread_t t[NTHREADS];
    for (uintptr_t i = 0; i < NTHREADS; i++) assert(pthread_create(&t[i], NULL, thread_main, (void *)i) == 0);
    for (int i = 0; i < NTHREADS; i++) pthread_join(t[i], NULL);
    for (int p = 0; p < 2; p++)
        for (unsigned i = 0; i < NALGS; i++) {
            if (ops[p]->alloc_failures(pools[p][i])) fail("unexpected allocation failure", algs[i], -1);
            sigpool_destroy(pools[p][i]);
        }
    return 0;
}

int main(void)
{
    assert(pb_gcrypt_init() == 0);
    /* the faithful (kernel-profile) build, then the native one (old@native, new@native) */
    if (run_build(&sigpool_old, &sigpool_new) || run_build(&sigpool_old_native, &sigpool_new_native)) return 1;
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("ok: both builds, %d threads x %d segments, old == new == reference\n", NTHREADS, NSEGS);
    return 0;
}
