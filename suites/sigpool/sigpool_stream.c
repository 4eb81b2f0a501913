/* SPDX-License-Identifier: GPL-2.0-only */
/* sigpool_stream.c — the `stream` op: an iperf3-like run over a real TCP
 * connection on loopback (127.0.0.1, or ::1 with --ipv6; never anything
 * else).
 *
 * setup_case connects a socket pair through a listener on port 0 and starts
 * a receiver thread. body(ctx, iters) is the sender: it signs `iters`
 * segments (TCP header with the MD5/AO option + payload, framed back to
 * back in the byte stream) in batches of about 128 KiB (iperf3's write
 * size) and writes them; the receiver reads, verifies every segment through
 * the same pool (tracking the SNE across sequence-number wraps as TCP-AO
 * does) and counts failures. body returns when the receiver has handled
 * all `iters` segments. Everything is bounded: send timeouts and a 30 s
 * deadline turn a stuck peer into counted errors, never a hang.
 *
 * `kernel`: the same stream of plain payload with the host kernel signing
 * every real TCP segment (setsockopt TCP_MD5SIG, or TCP_AO_ADD_KEY for
 * TCP-AO where the kernel has it) and the MSS clamped so each segment
 * carries `size_bytes` of payload. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "sigpool_suite.h"

#define BATCH_BYTES (128 * 1024)
#define RX_BYTES (256 * 1024)
#define DEADLINE_S 30

/* uapi <linux/tcp.h> of Linux >= 6.7; the installed headers predate it. */
#define SP_TCP_AO_ADD_KEY 38
struct sp_tcp_ao_add {
    struct sockaddr_storage addr;
    char alg_name[64];
    int32_t ifindex;
    uint32_t set_current : 1, set_rnext : 1, reserved : 30;
    uint16_t reserved2;
    uint8_t prefix, sndid, rcvid, maclen, keyflags, keylen;
    uint8_t key[80];
} __attribute__((aligned(8)));

struct stream_ctx {
    sp_case_head head;             /* no check: the receiver verifies every segment */
    int kernel;
    sigpool *pool;
    sp_flow flow;
    size_t reclen;                 /* bytes of one segment in the byte stream */
    int sfd, rfd;                  /* sender's and receiver's sockets */
    uint8_t *batch;
    size_t batch_recs;
    uint32_t snd_seq, snd_sne;
    /* receiver */
    pthread_t rx;
    int rx_started;
    uint8_t *rbuf;
    uint32_t rcv_next, rcv_sne;
    uint64_t rx_bytes;
    _Atomic uint64_t received;     /* segments handled (verified or not) */
    _Atomic uint64_t bad;          /* segments that did not verify */
    _Atomic uint64_t target;       /* segments sent so far */
    _Atomic int broken;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint64_t errors;               /* error_count: bad + lost, cumulative */
};

static void wake_sender(struct stream_ctx *c)
{
    pthread_mutex_lock(&c->mu);
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu);
}

/* Verify the complete segments in buf[0..have); returns the bytes used. */
static size_t rx_segments(struct stream_ctx *c, const uint8_t *buf, size_t have, uint64_t *done, uint64_t *bad)
{
    size_t off = 0;
    while (have - off >= c->reclen) {
        const uint8_t *rec = buf + off;
        uint32_t seq = tcp_get_seq(rec);
        uint32_t sne = tcp_ao_compute_sne(c->rcv_sne, c->rcv_next, seq);
        if (sp_flow_verify(&c->flow, rec, sne)) (*bad)++;
        c->rcv_next = seq + (uint32_t)c->flow.payload;
        c->rcv_sne = c->rcv_next < seq ? sne + 1 : sne;
        off += c->reclen;
        (*done)++;
    }
    return off;
}

static void *rx_main(void *arg)
{
    struct stream_ctx *c = arg;
    size_t have = 0;
    for (;;) {
        ssize_t n = recv(c->rfd, c->rbuf + have, RX_BYTES - have, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;                      /* EOF (free_ctx) or error */
        uint64_t done = 0, bad = 0;
        if (c->kernel) {
            uint64_t before = c->rx_bytes / c->reclen;
            c->rx_bytes += (uint64_t)n;
            done = c->rx_bytes / c->reclen - before;
        } else {
            have += (size_t)n;
            size_t used = rx_segments(c, c->rbuf, have, &done, &bad);
            memmove(c->rbuf, c->rbuf + used, have - used);
            have -= used;
        }
        if (bad) atomic_fetch_add(&c->bad, bad);
        uint64_t total = atomic_fetch_add(&c->received, done) + done;
        if (done && total >= atomic_load(&c->target)) wake_sender(c);
    }
    atomic_store(&c->broken, 1);
    wake_sender(c);
    return NULL;
}

static int send_all(int fd, const uint8_t *p, size_t n)
{
    while (n) {
        ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;                  /* EPIPE, or the send timeout */
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

static void sign_batch(struct stream_ctx *c, size_t k)
{
    for (size_t j = 0; j < k; j++) {
        uint32_t seq = c->snd_seq, sne = c->snd_sne;
        c->snd_seq += (uint32_t)c->flow.payload;
        if (c->snd_seq < seq) c->snd_sne++;
        /* a failed signature leaves a zero MAC: the receiver counts it */
        sp_flow_sign(&c->flow, c->batch + j * c->reclen, seq, sne);
    }
}

static void stream_body(void *ctx, uint64_t iters)
{
    struct stream_ctx *c = ctx;
    uint64_t target = atomic_load(&c->target) + iters;
    atomic_store(&c->target, target);
    for (uint64_t left = iters; left && !atomic_load(&c->broken);) {
        size_t k = left < c->batch_recs ? (size_t)left : c->batch_recs;
        if (!c->kernel) sign_batch(c, k);
        if (send_all(c->sfd, c->batch, k * c->reclen)) {
            atomic_store(&c->broken, 1);
            break;
        }
        left -= k;
    }
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += DEADLINE_S;
    pthread_mutex_lock(&c->mu);
    while (atomic_load(&c->received) < target && !atomic_load(&c->broken))
        if (pthread_cond_timedwait(&c->cv, &c->mu, &deadline) == ETIMEDOUT) atomic_store(&c->broken, 1);
    pthread_mutex_unlock(&c->mu);
    uint64_t got = atomic_load(&c->received);
    c->errors = atomic_load(&c->bad) + (target > got ? target - got : 0);
}

static void stream_free(void *ctx)
{
    struct stream_ctx *c = ctx;
    if (!c) return;
    if (c->sfd >= 0) shutdown(c->sfd, SHUT_RDWR);
    if (c->rfd >= 0) shutdown(c->rfd, SHUT_RDWR);
    if (c->rx_started) pthread_join(c->rx, NULL);
    if (c->sfd >= 0) close(c->sfd);
    if (c->rfd >= 0) close(c->rfd);
    sigpool_destroy(c->pool);
    free(c->batch);
    free(c->rbuf);
    pthread_cond_destroy(&c->cv);
    pthread_mutex_destroy(&c->mu);
    free(c);
}

/* --- sockets --------------------------------------------------------- */

static socklen_t loopback(struct sockaddr_storage *ss, int ipv6, uint16_t port)
{
    memset(ss, 0, sizeof *ss);
    if (ipv6) {
        struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;
        s6->sin6_family = AF_INET6;
        s6->sin6_addr = in6addr_loopback;
        s6->sin6_port = htons(port);
        return sizeof *s6;
    }
    struct sockaddr_in *s4 = (struct sockaddr_in *)ss;
    s4->sin_family = AF_INET;
    s4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    s4->sin_port = htons(port);
    return sizeof *s4;
}

/* What the kernel signs with, if anything. */
typedef struct kernel_sig {
    const char *alg;          /* NULL: no kernel signature; "md5": TCP-MD5; else TCP-AO */
    const uint8_t *key;
    size_t keylen;
    size_t payload;           /* MSS clamp target */
} kernel_sig;

/* 0, PB_SETUP_UNAVAILABLE + why in e (this kernel cannot sign so), or -1 + e. */
static int set_kernel_key(int fd, int ipv6, unsigned maclen, const kernel_sig *k, pb_err *e)
{
    if (strcmp(k->alg, "md5") == 0) {
        struct tcp_md5sig m;
        memset(&m, 0, sizeof m);
        loopback(&m.tcpm_addr, ipv6, 0);
        m.tcpm_keylen = (uint16_t)k->keylen;
        memcpy(m.tcpm_key, k->key, k->keylen);
        if (setsockopt(fd, IPPROTO_TCP, TCP_MD5SIG, &m, sizeof m) != 0) {
            pb_errf(e, "host kernel TCP-MD5: setsockopt(TCP_MD5SIG): %s", strerror(errno));
            return PB_SETUP_UNAVAILABLE;
        }
        return 0;
    }
    struct sp_tcp_ao_add ao;
    memset(&ao, 0, sizeof ao);
    loopback(&ao.addr, ipv6, 0);
    snprintf(ao.alg_name, sizeof ao.alg_name, "%s", k->alg);
    ao.prefix = ipv6 ? 128 : 32;
    ao.sndid = ao.rcvid = 123;
    ao.maclen = (uint8_t)maclen;
    ao.keylen = (uint8_t)k->keylen;
    memcpy(ao.key, k->key, k->keylen);
    if (setsockopt(fd, IPPROTO_TCP, SP_TCP_AO_ADD_KEY, &ao, sizeof ao) != 0) {
        if (errno == ENOPROTOOPT)
            pb_errf(e, "the host kernel has no TCP-AO (setsockopt TCP_AO_ADD_KEY: %s)", strerror(errno));
        else
            pb_errf(e, "host kernel TCP-AO with %s: setsockopt(TCP_AO_ADD_KEY): %s", k->alg, strerror(errno));
        return PB_SETUP_UNAVAILABLE;
    }
    return 0;
}

int sp_read_tcp_timestamps(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char buf[32];
    int on = -1;
    if (fgets(buf, sizeof buf, f)) {
        char *end;
        errno = 0;
        long v = strtol(buf, &end, 10);
        if (!errno && end != buf && (*end == '\n' || *end == 0)) on = v != 0;
    }
    fclose(f);
    return on;
}

size_t sp_stream_data_bytes(size_t payload, int timestamps)
{
    if (!timestamps) return payload;
    return payload > SP_TCP_TS_OPTION ? payload - SP_TCP_TS_OPTION : 0;
}

size_t sp_stream_mss(size_t data, int md5, unsigned maclen, int timestamps)
{
    size_t sig = md5 ? 20 : (TCP_AO_HDR + maclen + 3) & ~(size_t)3;
    return data + sig + (timestamps ? SP_TCP_TS_OPTION : 0);
}

/* MSS so that every segment carries k->payload bytes: Linux takes the
 * options it sends on every segment (signature, timestamps) out of the
 * clamped MSS. Out of TCP_MAXSEG's range: leave the default. */
static void clamp_mss(int fd, const sp_opts *o, const kernel_sig *k)
{
    int md5 = strcmp(k->alg, "md5") == 0;
    size_t mss = sp_stream_mss(k->payload, md5, o->maclen, sp_stream_timestamps(md5, o->tcp_timestamps));
    if (mss < 88 || mss > 32767) return;
    int v = (int)mss;
    setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &v, sizeof v);
}

static int sock_prepare(int fd, const sp_opts *o, const kernel_sig *k, pb_err *e)
{
    struct timeval tv = {.tv_sec = 10};
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    if (!k->alg) return 0;
    int rc = set_kernel_key(fd, o->ipv6, o->maclen, k, e);
    if (rc) return rc;
    clamp_mss(fd, o, k);
    return 0;
}

/* Connected pair over loopback: *sfd = client (sender), *rfd = accepted (receiver).
 * 0, PB_SETUP_UNAVAILABLE (the kernel cannot sign with k) or -1, with e. */
static int open_pair(const sp_opts *o, const kernel_sig *k, int *sfd, int *rfd, pb_err *e)
{
    const int ipv6 = o->ipv6;
    int fam = ipv6 ? AF_INET6 : AF_INET;
    int l = socket(fam, SOCK_STREAM | SOCK_CLOEXEC, 0), s = -1, r = -1, rc = -1;
    struct sockaddr_storage ss;
    socklen_t len;
    if (l < 0) return pb_errf(e, "sigpool stream: socket: %s", strerror(errno));
    if ((rc = sock_prepare(l, o, k, e)) != 0) goto fail;
    rc = -1;
    len = loopback(&ss, ipv6, 0);
    if (bind(l, (struct sockaddr *)&ss, len) || listen(l, 1) || getsockname(l, (struct sockaddr *)&ss, &len)) {
        pb_errf(e, "sigpool stream: listen on %s loopback: %s", ipv6 ? "::1" : "127.0.0.1", strerror(errno));
        goto fail;
    }
    s = socket(fam, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0) {
        pb_errf(e, "sigpool stream: socket: %s", strerror(errno));
        goto fail;
    }
    if ((rc = sock_prepare(s, o, k, e)) != 0) goto fail;
    rc = -1;
    if (connect(s, (struct sockaddr *)&ss, len) != 0) {
        pb_errf(e, "sigpool stream: connect to loopback: %s", strerror(errno));
        goto fail;
    }
    r = accept4(l, NULL, NULL, SOCK_CLOEXEC);
    if (r < 0) {
        pb_errf(e, "sigpool stream: accept: %s", strerror(errno));
        goto fail;
    }
    close(l);
    *sfd = s;
    *rfd = r;
    return 0;
fail:
    close(l);
    if (s >= 0) close(s);
    return rc;
}

/* The sender's view of the connection: addresses and ports of segments it sends. */
static int pair_addrs(int sfd, tcp_addrs *a, uint16_t *sport, uint16_t *dport, pb_err *e)
{
    struct sockaddr_storage me, peer;
    socklen_t l1 = sizeof me, l2 = sizeof peer;
    if (getsockname(sfd, (struct sockaddr *)&me, &l1) || getpeername(sfd, (struct sockaddr *)&peer, &l2))
        return pb_errf(e, "sigpool stream: getsockname: %s", strerror(errno));
    memset(a, 0, sizeof *a);
    if (me.ss_family == AF_INET6) {
        const struct sockaddr_in6 *m = (void *)&me, *p = (void *)&peer;
        a->family = 6;
        memcpy(a->src, &m->sin6_addr, 16);
        memcpy(a->dst, &p->sin6_addr, 16);
        *sport = ntohs(m->sin6_port);
        *dport = ntohs(p->sin6_port);
    } else {
        const struct sockaddr_in *m = (void *)&me, *p = (void *)&peer;
        a->family = 4;
        memcpy(a->src, &m->sin_addr, 4);
        memcpy(a->dst, &p->sin_addr, 4);
        *sport = ntohs(m->sin_port);
        *dport = ntohs(p->sin_port);
    }
    return 0;
}

static struct stream_ctx *ctx_new(void)
{
    struct stream_ctx *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->sfd = c->rfd = -1;
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->cv, NULL);
    return c;
}

static int ctx_start(struct stream_ctx *c, pb_case *pc, pb_err *e)
{
    c->batch_recs = BATCH_BYTES / c->reclen ? BATCH_BYTES / c->reclen : 1;
    c->batch = malloc(c->batch_recs * c->reclen);
    c->rbuf = malloc(RX_BYTES);
    if (!c->batch || !c->rbuf) return pb_errf(e, "sigpool stream: out of memory");
    pb_rng rng;
    pb_rng_seed(&rng, 0x57ea);
    for (size_t j = 0; j < c->batch_recs; j++) {
        uint8_t *rec = c->batch + j * c->reclen;
        if (c->kernel) pb_rng_bytes(&rng, rec, c->reclen);
        else sp_flow_fill(&c->flow, rec, &rng);
    }
    if (pthread_create(&c->rx, NULL, rx_main, c) != 0) return pb_errf(e, "sigpool stream: cannot start the receiver");
    c->rx_started = 1;
    pc->body = stream_body;
    pc->ctx = c;
    pc->free_ctx = stream_free;
    pc->error_count = &c->errors;
    return 0;
}

int sp_stream_setup(const sp_opts *o, const pb_cell *cell, const sigpool_ops *ops, pb_case *pc, pb_err *e)
{
    if (cell->size_bytes > RX_BYTES / 2) return pb_errf(e, "sigpool stream: payload too large");
    struct stream_ctx *c = ctx_new();
    if (!c) return pb_errf(e, "sigpool stream: out of memory");
    const kernel_sig none = {0};
    tcp_addrs a;
    uint16_t sport = 0, dport = 0;
    /* ISN just below a wrap: the SNE changes a few hundred segments in */
    const uint32_t isn_s = 0xfff00000u, isn_r = 0x2468ace0u;
    if (sp_pool_create(ops, cell->variant, &c->pool, e) || open_pair(o, &none, &c->sfd, &c->rfd, e) ||
        pair_addrs(c->sfd, &a, &sport, &dport, e) ||
        sp_flow_init(&c->flow, c->pool, &a, sport, dport, isn_s, isn_r, cell->size_bytes,
                     sp_stream_timestamps(strcmp(cell->variant, "md5") == 0, o->tcp_timestamps), o->maclen, 0x5eed, e))
        goto fail;
    c->reclen = sp_flow_reclen(&c->flow);
    c->snd_seq = c->rcv_next = isn_s + 1;
    if (ctx_start(c, pc, e)) goto fail;
    if (o->fail_every) ops->inject_alloc_failure(c->pool, o->fail_every);
    return 0;
fail:
    stream_free(c);
    return -1;
}

int sp_kernel_setup(const sp_opts *o, const pb_cell *cell, pb_case *pc, pb_err *e)
{
    struct stream_ctx *c = ctx_new();
    if (!c) return pb_errf(e, "sigpool stream: out of memory");
    c->kernel = 1;
    c->reclen = cell->size_bytes;
    uint8_t key[16];
    pb_rng rng;
    pb_rng_seed(&rng, 0x6b65);
    pb_rng_bytes(&rng, key, sizeof key);
    const kernel_sig k = {.alg = cell->variant, .key = key, .keylen = sizeof key, .payload = cell->size_bytes};
    int rc = open_pair(o, &k, &c->sfd, &c->rfd, e);
    if (rc || ctx_start(c, pc, e)) {
        stream_free(c);
        return rc > 0 ? rc : -1;
    }
    return 0;
}
