/* SPDX-License-Identifier: GPL-2.0-only */
/* tcp_md5.c — TCP-MD5 signatures (see tcp_md5.h). */
#include "tcp_md5.h"

#include <errno.h>
#include <string.h>

int tcp_md5_hash(sigpool *p, const tcp_addrs *a, const uint8_t *seg, size_t seglen,
                 const uint8_t *key, size_t keylen, uint8_t out[TCP_MD5_DIGEST])
{
    size_t hl = tcp_check_hdr(seg, seglen);
    if (!hl || keylen > TCP_MD5_MAX_KEY || p->alg->kind != SP_HASH || p->alg->digest_len != TCP_MD5_DIGEST)
        return -EINVAL;

    sigpool_handle h;
    int err = sigpool_start(p, &h);
    if (err) return err;
    uint8_t *bp = h.scratch;
    size_t n = tcp_pseudohdr(bp, a, (uint32_t)seglen);
    memcpy(bp + n, seg, TCP_BASE_HDR);
    bp[n + 16] = bp[n + 17] = 0;                 /* checksum */
    err = sp_init(h.req);
    if (!err) {
        sp_update(h.req, bp, n + TCP_BASE_HDR);
        sp_update(h.req, seg + hl, seglen - hl);
        sp_update(h.req, key, keylen);
        err = sp_final(h.req, out);
    }
    sigpool_end(p, &h);
    if (err) memset(out, 0, TCP_MD5_DIGEST);
    return err;
}

static int md5_option(const uint8_t *seg, size_t seglen)
{
    size_t hl = tcp_check_hdr(seg, seglen);
    int off = hl ? tcp_find_option(seg, hl, TCPOPT_MD5SIG) : -1;
    if (off < 0 || seg[off + 1] != 2 + TCP_MD5_DIGEST) return -1;
    return off + 2;
}

int tcp_md5_sign(sigpool *p, const tcp_addrs *a, uint8_t *seg, size_t seglen,
                 const uint8_t *key, size_t keylen)
{
    int off = md5_option(seg, seglen);
    if (off < 0) return -EINVAL;
    return tcp_md5_hash(p, a, seg, seglen, key, keylen, seg + off);
}

int tcp_md5_verify(sigpool *p, const tcp_addrs *a, const uint8_t *seg, size_t seglen,
                   const uint8_t *key, size_t keylen)
{
    int off = md5_option(seg, seglen);
    if (off < 0) return 1;
    uint8_t d[TCP_MD5_DIGEST];
    int err = tcp_md5_hash(p, a, seg, seglen, key, keylen, d);
    if (err) return err;
    return tcp_memneq(d, seg + off, TCP_MD5_DIGEST) ? 1 : 0;
}
