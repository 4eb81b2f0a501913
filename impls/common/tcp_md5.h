/* SPDX-License-Identifier: GPL-2.0-only */
/* tcp_md5.h — TCP-MD5 (RFC 2385) signatures through a signature pool.
 *
 * MD5 over, in this order (SPEC 2.2): the pseudo-header (IPv4 12 B / IPv6
 * 40 B, length = whole segment), the 20-byte base header with the checksum
 * zeroed (options excluded), the payload, the key. The kernel copies
 * pseudo-header and base header into the CPU's scratch and hashes them in
 * one update; so does this. */
#ifndef PB_TCP_MD5_H
#define PB_TCP_MD5_H

#include "sigpool.h"
#include "tcp_seg.h"

#define TCP_MD5_MAX_KEY 80

/* Digest of `seg` (header + payload, seglen bytes) into out[16]. The pool's
 * algorithm must be "md5". 0, -ENOMEM (pool start failed), -EINVAL (bad
 * segment or key). */
int tcp_md5_hash(sigpool *p, const tcp_addrs *a, const uint8_t *seg, size_t seglen,
                 const uint8_t *key, size_t keylen, uint8_t out[TCP_MD5_DIGEST]);

/* Sign in place: writes the digest into the segment's MD5 option. On a
 * pool failure the option is zeroed (the peer will drop the segment, as
 * with the kernel) and the error returned. */
int tcp_md5_sign(sigpool *p, const tcp_addrs *a, uint8_t *seg, size_t seglen,
                 const uint8_t *key, size_t keylen);

/* 0 if the MD5 option matches, 1 if not (or there is none), <0 on a pool error. */
int tcp_md5_verify(sigpool *p, const tcp_addrs *a, const uint8_t *seg, size_t seglen,
                   const uint8_t *key, size_t keylen);

#endif
