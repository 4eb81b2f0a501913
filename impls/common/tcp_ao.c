/* SPDX-License-Identifier: GPL-2.0-only */
/* tcp_ao.c — TCP-AO traffic keys and MACs (see tcp_ao.h). */
#include "tcp_ao.h"

#include <errno.h>
#include <string.h>

size_t tcp_ao_context(uint8_t out[TCP_AO_CONTEXT_MAX], const tcp_addrs *a, uint16_t sport,
                      uint16_t dport, uint32_t src_isn, uint32_t dst_isn)
{
    size_t alen = a->family == 4 ? 4 : 16;
    uint8_t *p = out;
    memcpy(p, a->src, alen); p += alen;
    memcpy(p, a->dst, alen); p += alen;
    tcp_put16(p, sport); tcp_put16(p + 2, dport);
    tcp_put32(p + 4, src_isn); tcp_put32(p + 8, dst_isn);
    return alen * 2 + 12;
}

size_t tcp_ao_kdf_input(uint8_t out[TCP_AO_KDF_INPUT_MAX], const uint8_t *ctx, size_t ctxlen,
                        unsigned bits)
{
    out[0] = 1;                       /* i: one PRF block is always enough here */
    memcpy(out + 1, "TCP-AO", 6);
    memcpy(out + 7, ctx, ctxlen);
    tcp_put16(out + 7 + ctxlen, (uint16_t)bits);
    return 7 + ctxlen + 2;
}

/* One MAC computation on a started handle. */
static int mac_once(sigpool_handle *h, const uint8_t *key, size_t keylen, const uint8_t *msg,
                    size_t len, uint8_t *out)
{
    int err = sp_setkey(h->req, key, keylen);
    if (!err) err = sp_init(h->req);
    if (err) return err;
    sp_update(h->req, msg, len);
    return sp_final(h->req, out);
}

int tcp_ao_prf(sigpool *p, const uint8_t *key, size_t keylen, const uint8_t *msg, size_t len,
               uint8_t *out)
{
    if (!sp_alg_needs_key(p->alg)) return -EINVAL;
    sigpool_handle h;
    int err = sigpool_start(p, &h);
    if (err) return err;
    uint8_t k[16];
    if (p->alg->kind == SP_CMAC && keylen != 16) {
        /* RFC 4615 / RFC 5926 3.1.1.2: compress the key to 128 bits */
        static const uint8_t zero[16];
        err = mac_once(&h, zero, sizeof zero, key, keylen, k);
        key = k;
        keylen = sizeof k;
    }
    if (!err) err = mac_once(&h, key, keylen, msg, len, out);
    sigpool_end(p, &h);
    explicit_bzero(k, sizeof k);
    return err;
}

int tcp_ao_kdf(sigpool *p, const uint8_t *mkt, size_t mktlen, const uint8_t *ctx, size_t ctxlen,
               uint8_t *traffic_key)
{
    uint8_t in[TCP_AO_KDF_INPUT_MAX];
    if (ctxlen > TCP_AO_CONTEXT_MAX || mktlen > TCP_AO_MAX_MKT) return -EINVAL;
    size_t n = tcp_ao_kdf_input(in, ctx, ctxlen, p->alg->digest_len * 8);
    return tcp_ao_prf(p, mkt, mktlen, in, n, traffic_key);
}

/* Offset of the MAC field and its length, or -1. */
static int ao_option(const uint8_t *seg, size_t seglen, size_t *hl, size_t *maclen)
{
    *hl = tcp_check_hdr(seg, seglen);
    int off = *hl ? tcp_find_option(seg, *hl, TCPOPT_AO) : -1;
    if (off < 0 || seg[off + 1] < TCP_AO_HDR) return -1;
    *maclen = seg[off + 1] - TCP_AO_HDR;
    return off;
}

int tcp_ao_hash(sigpool *p, const uint8_t *tk, size_t tklen, uint32_t sne, const tcp_addrs *a,
                const uint8_t *seg, size_t seglen, int exclude_opts, uint8_t *mac)
{
    size_t hl, maclen;
    int off = ao_option(seg, seglen, &hl, &maclen);
    if (off < 0 || maclen > p->alg->digest_len || !sp_alg_needs_key(p->alg)) return -EINVAL;

    sigpool_handle h;
    int err = sigpool_start(p, &h);
    if (err) return err;
    uint8_t *bp = h.scratch, digest[SP_MAX_DIGEST];
    err = sp_setkey(h.req, tk, tklen);      /* the traffic key, on every segment */
    if (!err) err = sp_init(h.req);
    if (!err) {
        tcp_put32(bp, sne);
        sp_update(h.req, bp, 4);
        sp_update(h.req, bp, tcp_pseudohdr(bp, a, (uint32_t)seglen));
        size_t n;
        if (exclude_opts) {
            memcpy(bp, seg, TCP_BASE_HDR);
            memcpy(bp + TCP_BASE_HDR, seg + off, TCP_AO_HDR);
            memset(bp + TCP_BASE_HDR + TCP_AO_HDR, 0, maclen);
            n = TCP_BASE_HDR + TCP_AO_HDR + maclen;
        } else {
            memcpy(bp, seg, hl);
            memset(bp + off + TCP_AO_HDR, 0, maclen);
            n = hl;
        }
        bp[16] = bp[17] = 0;                 /* checksum */
        sp_update(h.req, bp, n);
        sp_update(h.req, seg + hl, seglen - hl);
        err = sp_final(h.req, digest);
    }
    sigpool_end(p, &h);
    if (!err) memcpy(mac, digest, maclen);
    explicit_bzero(digest, sizeof digest);
    return err;
}

int tcp_ao_sign(sigpool *p, const uint8_t *tk, size_t tklen, uint32_t sne, const tcp_addrs *a,
                uint8_t *seg, size_t seglen, int exclude_opts)
{
    size_t hl, maclen;
    int off = ao_option(seg, seglen, &hl, &maclen);
    if (off < 0) return -EINVAL;
    uint8_t *field = seg + off + TCP_AO_HDR;
    int err = tcp_ao_hash(p, tk, tklen, sne, a, seg, seglen, exclude_opts, field);
    if (err) memset(field, 0, maclen);
    return err;
}

int tcp_ao_verify(sigpool *p, const uint8_t *tk, size_t tklen, uint32_t sne, const tcp_addrs *a,
                  const uint8_t *seg, size_t seglen, int exclude_opts)
{
    size_t hl, maclen;
    int off = ao_option(seg, seglen, &hl, &maclen);
    if (off < 0 || maclen > p->alg->digest_len) return 1;
    uint8_t mac[SP_MAX_DIGEST];
    int err = tcp_ao_hash(p, tk, tklen, sne, a, seg, seglen, exclude_opts, mac);
    if (err) return err;
    return tcp_memneq(mac, seg + off + TCP_AO_HDR, maclen) ? 1 : 0;
}

uint32_t tcp_ao_compute_sne(uint32_t next_sne, uint32_t next_seq, uint32_t seq)
{
    int before = (int32_t)(seq - next_seq) < 0;
    if (before && seq > next_seq) return next_sne - 1;
    if (!before && seq < next_seq) return next_sne + 1;
    return next_sne;
}
