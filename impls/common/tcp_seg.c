/* SPDX-License-Identifier: GPL-2.0-only */
/* tcp_seg.c — TCP segment layout (see tcp_seg.h). */
#include "tcp_seg.h"

#include <string.h>

size_t tcp_pseudohdr(uint8_t out[40], const tcp_addrs *a, uint32_t seglen)
{
    if (a->family == 4) {
        memcpy(out, a->src, 4);
        memcpy(out + 4, a->dst, 4);
        out[8] = 0;
        out[9] = 6;                   /* IPPROTO_TCP */
        tcp_put16(out + 10, (uint16_t)seglen);
        return 12;
    }
    memcpy(out, a->src, 16);
    memcpy(out + 16, a->dst, 16);
    tcp_put32(out + 32, seglen);
    tcp_put32(out + 36, 6);           /* three zero bytes, next header */
    return 40;
}

size_t tcp_check_hdr(const uint8_t *seg, size_t seglen)
{
    if (seglen < TCP_BASE_HDR) return 0;
    size_t hl = tcp_hdrlen(seg);
    return hl < TCP_BASE_HDR || hl > seglen ? 0 : hl;
}

int tcp_find_option(const uint8_t *th, size_t hdrlen, uint8_t kind)
{
    size_t i = TCP_BASE_HDR;
    while (i < hdrlen) {
        uint8_t k = th[i];
        if (k == TCPOPT_EOL) return -1;
        if (k == TCPOPT_NOP) { i++; continue; }
        if (i + 1 >= hdrlen) return -1;
        uint8_t len = th[i + 1];
        if (len < 2 || i + len > hdrlen) return -1;
        if (k == kind) return (int)i;
        i += len;
    }
    return -1;
}

size_t tcp_build_hdr(uint8_t th[TCP_MAX_HDR], const tcp_hdr_spec *s)
{
    uint8_t opt[40];
    size_t n = 0;
    if (s->sig == TCP_SIG_MD5) {
        opt[n++] = TCPOPT_NOP;
        opt[n++] = TCPOPT_NOP;
        opt[n++] = TCPOPT_MD5SIG;
        opt[n++] = 2 + TCP_MD5_DIGEST;
        memset(opt + n, 0, TCP_MD5_DIGEST);
        n += TCP_MD5_DIGEST;
    } else {
        if (s->maclen < 4 || s->maclen > TCP_AO_MAX_MAC || TCP_AO_HDR + s->maclen > 40 - 12) return 0;
        opt[n++] = TCPOPT_AO;
        opt[n++] = (uint8_t)(TCP_AO_HDR + s->maclen);
        opt[n++] = s->keyid;
        opt[n++] = s->rnextkeyid;
        memset(opt + n, 0, s->maclen);
        n += s->maclen;
    }
    if (s->no_timestamps) {
        while (n % 4) opt[n++] = TCPOPT_NOP;
    } else {
        while (n % 4 != 2) opt[n++] = TCPOPT_NOP;   /* timestamps end on a word */
        if (n + 10 > 40) return 0;
        opt[n++] = TCPOPT_TIMESTAMP;
        opt[n++] = 10;
        tcp_put32(opt + n, s->tsval);
        tcp_put32(opt + n + 4, s->tsecr);
        n += 8;
    }

    size_t hl = TCP_BASE_HDR + n;
    memset(th, 0, TCP_BASE_HDR);
    tcp_put16(th, s->sport);
    tcp_put16(th + 2, s->dport);
    tcp_put32(th + 4, s->seq);
    tcp_put32(th + 8, s->ack);
    th[12] = (uint8_t)(hl / 4 << 4);
    th[13] = s->flags;
    tcp_put16(th + 14, s->window);
    memcpy(th + TCP_BASE_HDR, opt, n);
    return hl;
}

int tcp_parse_packet(const uint8_t *pkt, size_t len, tcp_packet *out, const char **why)
{
    memset(out, 0, sizeof *out);
    if (len < 1) return *why = "empty packet", -1;
    unsigned version = pkt[0] >> 4;
    size_t off, total;
    if (version == 4) {
        if (len < 20) return *why = "IPv4 header truncated", -1;
        off = (size_t)(pkt[0] & 15) * 4;
        total = tcp_get16(pkt + 2);
        if (off < 20 || off > len) return *why = "bad IPv4 header length", -1;
        if (total > len || total < off) return *why = "IPv4 total length does not match the packet", -1;
        if (pkt[9] != 6) return *why = "IPv4 protocol is not TCP", -1;
        out->addrs.family = 4;
        memcpy(out->addrs.src, pkt + 12, 4);
        memcpy(out->addrs.dst, pkt + 16, 4);
    } else if (version == 6) {
        if (len < 40) return *why = "IPv6 header truncated", -1;
        off = 40;
        total = 40 + (size_t)tcp_get16(pkt + 4);
        if (total > len) return *why = "IPv6 payload length does not match the packet", -1;
        if (pkt[6] != 6) return *why = "IPv6 next header is not TCP (extension headers unsupported)", -1;
        out->addrs.family = 6;
        memcpy(out->addrs.src, pkt + 8, 16);
        memcpy(out->addrs.dst, pkt + 24, 16);
    } else {
        return *why = "not an IPv4 or IPv6 packet", -1;
    }
    out->seg = pkt + off;
    out->seglen = total - off;
    if (!tcp_check_hdr(out->seg, out->seglen)) return *why = "TCP header truncated or bad data offset", -1;
    return 0;
}

int tcp_memneq(const void *a, const void *b, size_t n)
{
    const volatile uint8_t *x = a, *y = b;
    uint8_t d = 0;
    for (size_t i = 0; i < n; i++) d |= x[i] ^ y[i];
    return d != 0;
}
