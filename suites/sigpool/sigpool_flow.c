/* SPDX-License-Identifier: GPL-2.0-only */
/* sigpool_flow.c — one signed direction of a TCP connection (see sigpool_suite.h). */
#include <string.h>

#include "sigpool_suite.h"

void sp_test_addrs(tcp_addrs *a, int ipv6)
{
    memset(a, 0, sizeof *a);
    if (ipv6) {
        a->family = 6;
        a->src[0] = a->dst[0] = 0xfd;       /* fd00::1 -> fd00::2 */
        a->src[15] = 1;
        a->dst[15] = 2;
    } else {
        a->family = 4;
        const uint8_t s[4] = {10, 0, 0, 1}, d[4] = {10, 0, 0, 2};
        memcpy(a->src, s, 4);
        memcpy(a->dst, d, 4);
    }
}

int sp_flow_init(sp_flow *f, sigpool *pool, const tcp_addrs *a, uint16_t sport, uint16_t dport,
                 uint32_t isn_s, uint32_t isn_r, size_t payload, int timestamps, unsigned maclen, uint64_t seed,
                 pb_err *e)
{
    memset(f, 0, sizeof *f);
    f->pool = pool;
    f->md5 = pool->alg->kind == SP_HASH;
    f->addrs = *a;
    f->payload = payload;
    f->hdr = (tcp_hdr_spec){
        .sport = sport, .dport = dport, .seq = isn_s + 1, .ack = isn_r + 1,
        .flags = TCP_FLAG_ACK | TCP_FLAG_PSH, .window = 512,
        .sig = f->md5 ? TCP_SIG_MD5 : TCP_SIG_AO,
        .keyid = 123, .rnextkeyid = 123, .maclen = maclen,
        .tsval = 0x01020304, .tsecr = 0x05060708, .no_timestamps = !timestamps,
    };
    if (!f->md5 && maclen > pool->alg->digest_len)
        return pb_errf(e, "sigpool: --maclen %u exceeds the %u-byte MAC of %s", maclen,
                       pool->alg->digest_len, pool->alg->name);
    uint8_t th[TCP_MAX_HDR];
    f->hdrlen = tcp_build_hdr(th, &f->hdr);
    if (!f->hdrlen) return pb_errf(e, "sigpool: TCP options do not fit");

    pb_rng rng;
    pb_rng_seed(&rng, seed);
    f->keylen = 16;
    pb_rng_bytes(&rng, f->key, f->keylen);
    if (!f->md5) {
        /* Send_other_traffic_key of the sender == Receive_other of the receiver */
        uint8_t ctx[TCP_AO_CONTEXT_MAX];
        size_t n = tcp_ao_context(ctx, a, sport, dport, isn_s, isn_r);
        int err = tcp_ao_kdf(pool, f->key, f->keylen, ctx, n, f->tk);
        if (err) return pb_errf(e, "sigpool: %s traffic key: %s", pool->alg->name, strerror(-err));
        f->tklen = pool->alg->digest_len;
    }
    return 0;
}

void sp_flow_fill(const sp_flow *f, uint8_t *rec, pb_rng *rng)
{
    tcp_build_hdr(rec, &f->hdr);
    pb_rng_bytes(rng, rec + f->hdrlen, f->payload);
}

int sp_flow_sign(const sp_flow *f, uint8_t *rec, uint32_t seq, uint32_t sne)
{
    tcp_put32(rec + 4, seq);
    if (f->md5) return tcp_md5_sign(f->pool, &f->addrs, rec, sp_flow_reclen(f), f->key, f->keylen);
    return tcp_ao_sign(f->pool, f->tk, f->tklen, sne, &f->addrs, rec, sp_flow_reclen(f), 0);
}

int sp_flow_verify(const sp_flow *f, const uint8_t *rec, uint32_t sne)
{
    if (f->md5) return tcp_md5_verify(f->pool, &f->addrs, rec, sp_flow_reclen(f), f->key, f->keylen);
    return tcp_ao_verify(f->pool, f->tk, f->tklen, sne, &f->addrs, rec, sp_flow_reclen(f), 0);
}
