/* SPDX-License-Identifier: GPL-2.0-only */
/* The cost model of the two pools and the stream op's segment shape,
 * checked by counting events, not by timing:
 *   - a keyless clone (md5, rmd160) in the clone-tfm pool is a reference
 *     plus one request allocation, no libgcrypt handle opened per use (the
 *     kernel's crypto_clone_ahash of a keyless tfm); a keyed clone copies
 *     the keyed state (one handle per use); the per-CPU pool opens,
 *     references and allocates nothing on the fast path. Digests agree with
 *     each other and with libgcrypt's one-shot hash.
 *   - the timestamp option: net.ipv4.tcp_timestamps parsed from a file,
 *     which connections use it (TCP-AO with the sysctl on, never TCP-MD5),
 *     the data bytes per stream segment and the MSS clamp for both
 *     settings, and headers with and without the option (same wire length). */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/gcrypt_init.h"
#include "sigpool_suite.h"

#define USES 50

/* One use of the pool: start, (key), hash 3 parts, final, end. */
static void use_pool(sigpool *p, const uint8_t *msg, size_t len, uint8_t *out)
{
    static const uint8_t key[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    sigpool_handle h;
    assert(sigpool_start(p, &h) == 0);
    if (sp_alg_needs_key(p->alg)) assert(sp_setkey(h.req, key, sizeof key) == 0);
    assert(sp_init(h.req) == 0);
    sp_update(h.req, msg, 7);
    sp_update(h.req, msg + 7, len - 7 - 100);
    sp_update(h.req, msg + len - 100, 100);
    assert(sp_final(h.req, out) == 0);
    sigpool_end(p, &h);
}

static sp_stats delta(const sp_stats *before)
{
    const sp_stats *now = sp_stats_this_thread();
    return (sp_stats){
        .handle_opens = now->handle_opens - before->handle_opens,
        .tfm_refs = now->tfm_refs - before->tfm_refs,
        .req_allocs = now->req_allocs - before->req_allocs,
        .req_frees = now->req_frees - before->req_frees,
    };
}

static void check_paths(const char *alg)
{
    uint8_t msg[1448];
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)(i * 7 + 3);
    sigpool *oldp, *newp;
    assert(sigpool_old.create(alg, TCP_SIGPOOL_SCRATCH, &oldp) == 0);
    sp_stats before = *sp_stats_this_thread();
    assert(sigpool_new.create(alg, TCP_SIGPOOL_SCRATCH, &newp) == 0);
    sp_stats made = delta(&before);
    long ncpu = sysconf(_SC_NPROCESSORS_CONF);
    int keyed = sp_alg_needs_key(newp->alg);
    /* creation (slow path): keyless opens one handle per CPU and test-clones
     * by reference; keyed opens its transform and test-clones by copy */
    assert(made.handle_opens == (keyed ? 2u : (uint64_t)(ncpu < 1 ? 1 : ncpu)));
    assert(made.tfm_refs == (keyed ? 0u : 1u));
    assert(made.req_allocs == 0);

    uint8_t a[SP_MAX_DIGEST], b[SP_MAX_DIGEST];
    before = *sp_stats_this_thread();
    for (int i = 0; i < USES; i++) use_pool(oldp, msg, sizeof msg, a);
    sp_stats o = delta(&before);
    assert(o.handle_opens == 0 && o.tfm_refs == 0 && o.req_allocs == 0 && o.req_frees == 0);

    before = *sp_stats_this_thread();
    for (int i = 0; i < USES; i++) use_pool(newp, msg, sizeof msg, b);
    sp_stats n = delta(&before);
    assert(n.req_allocs == USES && n.req_frees == USES);
    if (keyed) {
        assert(n.handle_opens == USES && n.tfm_refs == 0);
    } else {
        assert(n.handle_opens == 0 && n.tfm_refs == USES);
        uint8_t ref[SP_MAX_DIGEST];
        gcry_md_hash_buffer(newp->alg->gcry_algo, ref, msg, sizeof msg);
        assert(memcmp(ref, b, newp->alg->digest_len) == 0);
    }
    assert(memcmp(a, b, newp->alg->digest_len) == 0);
    printf("  %-13s new per use: %llu handle opens, %llu references, %llu request allocs (%u B)\n", alg,
           (unsigned long long)n.handle_opens / USES, (unsigned long long)n.tfm_refs / USES,
           (unsigned long long)n.req_allocs / USES, newp->alg->req_bytes);
    sigpool_destroy(oldp);
    sigpool_destroy(newp);
}

static int sysctl_from(const char *text)
{
    char path[] = "/tmp/pb_tcp_ts_XXXXXX";
    int fd = mkstemp(path);
    assert(fd >= 0);
    assert(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    int v = sp_read_tcp_timestamps(path);
    unlink(path);
    return v;
}

static void check_timestamps(void)
{
    assert(sysctl_from("1\n") == 1);
    assert(sysctl_from("0\n") == 0);
    assert(sysctl_from("2\n") == 1);      /* 2: on, without random offsets */
    assert(sysctl_from("0") == 0);
    assert(sysctl_from("x\n") == -1);
    assert(sysctl_from("") == -1);
    assert(sp_read_tcp_timestamps("/nonexistent/tcp_timestamps") == -1);

    /* Linux: never on TCP-MD5, on TCP-AO as the sysctl says */
    assert(sp_stream_timestamps(1, 1) == 0 && sp_stream_timestamps(1, 0) == 0);
    assert(sp_stream_timestamps(0, 1) == 1 && sp_stream_timestamps(0, 0) == 0);

    assert(sp_stream_data_bytes(1448, 1) == 1436);
    assert(sp_stream_data_bytes(1448, 0) == 1448);
    assert(sp_stream_data_bytes(13, 1) == 1);
    assert(sp_stream_data_bytes(12, 1) == 0);
    assert(sp_stream_data_bytes(12, 0) == 12);

    /* MSS = data + signature option + timestamps: the same wire budget either way */
    assert(sp_stream_mss(1448, 1, 12, 0) == 1468);    /* TCP-MD5, as Linux runs it */
    assert(sp_stream_mss(1436, 1, 12, 1) == 1468);
    assert(sp_stream_mss(1436, 0, 12, 1) == 1464);    /* AO: 4 + 12 */
    assert(sp_stream_mss(1448, 0, 10, 0) == 1464);    /* AO: 4 + 10, rounded to 16 */

    /* headers: the timestamp option's 12 bytes come and go, the segment
     * (header + data for --payload 1448) keeps its length */
    for (int md5 = 0; md5 <= 1; md5++) {
        tcp_hdr_spec hs = {.sig = md5 ? TCP_SIG_MD5 : TCP_SIG_AO, .maclen = 12, .tsval = 5, .tsecr = 6};
        uint8_t with[TCP_MAX_HDR], without[TCP_MAX_HDR];
        size_t hw = tcp_build_hdr(with, &hs);
        hs.no_timestamps = 1;
        size_t hn = tcp_build_hdr(without, &hs);
        assert(hw == hn + SP_TCP_TS_OPTION && hn % 4 == 0 && hw % 4 == 0);
        assert(hw + sp_stream_data_bytes(1448, 1) == hn + sp_stream_data_bytes(1448, 0));
        assert(tcp_find_option(with, hw, TCPOPT_TIMESTAMP) >= 0);
        assert(tcp_find_option(without, hn, TCPOPT_TIMESTAMP) < 0);
        assert(tcp_find_option(without, hn, md5 ? TCPOPT_MD5SIG : TCPOPT_AO) >= 0);
        assert(hn == (md5 ? 40u : 36u));
    }
}

int main(void)
{
    assert(pb_gcrypt_init() == 0);
    static const char *const algs[] = {"md5", "rmd160", "hmac(sha1)", "hmac(sha512)", "cmac(aes128)"};
    for (size_t i = 0; i < sizeof algs / sizeof *algs; i++) check_paths(algs[i]);
    check_timestamps();
    printf("sigpool model: ok\n");
    return 0;
}
