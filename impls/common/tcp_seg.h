/* SPDX-License-Identifier: GPL-2.0-only */
/* tcp_seg.h — TCP segment layout shared by TCP-MD5 and TCP-AO: addresses,
 * the pseudo-header, header options, building and parsing segments.
 *
 * A segment here is what the kernel hashes: the TCP header (doff*4 bytes,
 * options included) followed by the payload, contiguous in memory. All
 * multi-byte fields are in network order. */
#ifndef PB_TCP_SEG_H
#define PB_TCP_SEG_H

#include <stddef.h>
#include <stdint.h>

#define TCP_BASE_HDR 20
#define TCP_MAX_HDR 60

#define TCPOPT_EOL 0
#define TCPOPT_NOP 1
#define TCPOPT_TIMESTAMP 8
#define TCPOPT_MD5SIG 19    /* RFC 2385: kind, len 18, 16-byte digest */
#define TCPOPT_AO 29        /* RFC 5925: kind, len 4+maclen, KeyID, RNextKeyID, MAC */

#define TCP_MD5_DIGEST 16
#define TCP_AO_HDR 4        /* kind, length, KeyID, RNextKeyID */
#define TCP_AO_MAX_MAC 32

#define TCP_FLAG_FIN 0x01
#define TCP_FLAG_SYN 0x02
#define TCP_FLAG_PSH 0x08
#define TCP_FLAG_ACK 0x10

/* The two ends of a segment, as carried in its IP header. */
typedef struct tcp_addrs {
    int family;             /* 4 or 6 */
    uint8_t src[16], dst[16];
} tcp_addrs;

/* The pseudo-header for a segment of `seglen` bytes (header + options +
 * payload): IPv4 12 bytes (src, dst, 0, 6, len16), IPv6 40 bytes (src, dst,
 * len32, 0, 0, 0, 6). Returns its length. */
size_t tcp_pseudohdr(uint8_t out[40], const tcp_addrs *a, uint32_t seglen);

static inline uint32_t tcp_get32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static inline void tcp_put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}
static inline uint16_t tcp_get16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static inline void tcp_put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }

static inline size_t tcp_hdrlen(const uint8_t *th) { return (size_t)(th[12] >> 4) * 4; }
static inline uint32_t tcp_get_seq(const uint8_t *th) { return tcp_get32(th + 4); }

/* Header length of a segment, checked: 20..60 and within seglen. 0 if not. */
size_t tcp_check_hdr(const uint8_t *seg, size_t seglen);

/* Offset (from the start of the header) of option `kind`, or -1 if the
 * options hold no such option or are malformed (length byte < 2 or past
 * the header). */
int tcp_find_option(const uint8_t *th, size_t hdrlen, uint8_t kind);

/* What a built segment looks like. */
typedef enum { TCP_SIG_MD5, TCP_SIG_AO } tcp_sig_kind;

typedef struct tcp_hdr_spec {
    uint16_t sport, dport;
    uint32_t seq, ack;
    uint8_t flags;
    uint16_t window;
    tcp_sig_kind sig;
    uint8_t keyid, rnextkeyid;   /* TCP-AO */
    unsigned maclen;             /* TCP-AO: 4..TCP_AO_MAX_MAC, default 12 */
    uint32_t tsval, tsecr;
    int no_timestamps;           /* omit the timestamp option (net.ipv4.tcp_timestamps = 0) */
} tcp_hdr_spec;

/* Writes a TCP header: base header, the signature option first (as the
 * kernel orders them; MD5: NOP NOP kind 19 len 18; AO: kind 29 len
 * 4+maclen), then NOP NOP timestamps (unless no_timestamps); padded with
 * NOPs to 4 bytes.
 * Signature field and checksum are zero. Returns the header length, or 0
 * if the options do not fit into 40 bytes. */
size_t tcp_build_hdr(uint8_t th[TCP_MAX_HDR], const tcp_hdr_spec *s);

/* A parsed IP packet carrying one TCP segment (no IPv6 extension headers). */
typedef struct tcp_packet {
    tcp_addrs addrs;
    const uint8_t *seg;     /* TCP header + payload, inside the packet */
    size_t seglen;
} tcp_packet;

/* Parse an IPv4/IPv6 packet. 0, or -1 with a reason in `why`. The TCP
 * checksum is not looked at (RFC 9235's are wrong, and both signatures
 * hash it as zero). */
int tcp_parse_packet(const uint8_t *pkt, size_t len, tcp_packet *out, const char **why);

/* Constant-time comparison: 0 if equal. */
int tcp_memneq(const void *a, const void *b, size_t n);

#endif
