/* SPDX-License-Identifier: GPL-2.0-only */
/* tcp_ao.h — TCP-AO (RFC 5925) traffic keys and MACs through a signature
 * pool, with the RFC 5926 KDF generalised to every pool algorithm the way
 * Linux does it (SPEC 2.6).
 *
 * KDF:   traffic key = PRF(MKT key, 0x01 || "TCP-AO" || Context || L16)
 *        L = digest bits (160 for HMAC-SHA1, 128 for AES-128-CMAC, ...); one
 *        PRF block is enough for every algorithm here. PRF = the MAC itself;
 *        for cmac(aes128) it is AES-CMAC-PRF-128 (RFC 4615): a key that is
 *        not 16 bytes is first replaced by AES-CMAC(0^128, key).
 * MAC:   MAC(traffic key, SNE || pseudo-header || TCP header with checksum
 *        and MAC field zeroed || payload), truncated to the option's MAC
 *        length. With "exclude options" (a flag of the MKT) only the 20-byte
 *        base header and the TCP-AO option (MAC zeroed) stand for the header.
 * Per segment, as Linux 6.7 does it: start the pool, setkey(traffic key) on
 * the handle's transform, init, four updates, final, end. */
#ifndef PB_TCP_AO_H
#define PB_TCP_AO_H

#include "sigpool.h"
#include "tcp_seg.h"

#define TCP_AO_CONTEXT_MAX 44          /* IPv6 */
#define TCP_AO_KDF_INPUT_MAX (1 + 6 + TCP_AO_CONTEXT_MAX + 2)
#define TCP_AO_MAX_MKT 80

/* KDF context (RFC 5925 5.2): src IP, dst IP, src port, dst port, src ISN,
 * dst ISN, as seen by the segments the key protects. Returns 20 or 44. */
size_t tcp_ao_context(uint8_t out[TCP_AO_CONTEXT_MAX], const tcp_addrs *a, uint16_t sport,
                      uint16_t dport, uint32_t src_isn, uint32_t dst_isn);

/* 0x01 || "TCP-AO" || ctx || bits (16-bit BE). Returns the length. */
size_t tcp_ao_kdf_input(uint8_t out[TCP_AO_KDF_INPUT_MAX], const uint8_t *ctx, size_t ctxlen,
                        unsigned bits);

/* PRF(key, msg) with the pool's algorithm (keyed algorithms only); writes
 * digest_len bytes. 0 or -errno. */
int tcp_ao_prf(sigpool *p, const uint8_t *key, size_t keylen, const uint8_t *msg, size_t len,
               uint8_t *out);

/* Traffic key from the MKT key and a context; writes digest_len bytes. */
int tcp_ao_kdf(sigpool *p, const uint8_t *mkt, size_t mktlen, const uint8_t *ctx, size_t ctxlen,
               uint8_t *traffic_key);

/* The MAC of `seg` into mac[] (as many bytes as the segment's TCP-AO
 * option holds; at most the digest length). The segment's MAC field is
 * ignored. 0, -ENOMEM (pool), -EINVAL (no/bad TCP-AO option, bad segment). */
int tcp_ao_hash(sigpool *p, const uint8_t *tk, size_t tklen, uint32_t sne, const tcp_addrs *a,
                const uint8_t *seg, size_t seglen, int exclude_opts, uint8_t *mac);

/* Sign in place (MAC field zeroed on failure); verify: 0 match, 1 mismatch
 * or no option, <0 pool error. */
int tcp_ao_sign(sigpool *p, const uint8_t *tk, size_t tklen, uint32_t sne, const tcp_addrs *a,
                uint8_t *seg, size_t seglen, int exclude_opts);
int tcp_ao_verify(sigpool *p, const uint8_t *tk, size_t tklen, uint32_t sne, const tcp_addrs *a,
                  const uint8_t *seg, size_t seglen, int exclude_opts);

/* SNE of an incoming sequence number (RFC 5925 6.2, Linux
 * tcp_ao_compute_sne): `next_sne`/`next_seq` describe the last in-order
 * point; a seq before it but numerically larger belongs to the previous
 * wrap, one after it but numerically smaller to the next. */
uint32_t tcp_ao_compute_sne(uint32_t next_sne, uint32_t next_seq, uint32_t seq);

#endif
