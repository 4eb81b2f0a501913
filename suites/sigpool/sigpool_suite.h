/* SPDX-License-Identifier: GPL-2.0-only */
/* sigpool_suite.h — internals of the sigpool suite shared by its files:
 * options, the flow (one signed direction of a connection), the ops
 * (segment, stream), known answers. */
#ifndef PB_SIGPOOL_SUITE_H
#define PB_SIGPOOL_SUITE_H

#include <stdint.h>
#include <stdio.h>

#include "common/sigpool.h"
#include "common/tcp_ao.h"
#include "common/tcp_md5.h"
#include "common/tcp_seg.h"
#include "sigpool_impls.h"
#include "suite.h"

/* The document's rows, in its order, plus hmac(sha256). "md5" is TCP-MD5;
 * every other variant is TCP-AO with that MAC algorithm. */
#define SP_NVARIANTS 10
extern const char *const sp_variants[SP_NVARIANTS];

enum { SP_MODE_SEGMENT = 1, SP_MODE_STREAM = 2 };

typedef struct sp_opts {
    unsigned modes;        /* SP_MODE_* */
    uint64_t payload;      /* bytes per segment */
    int threads;           /* segment op workers; 0 = online CPUs */
    uint32_t algs;         /* bit i = sp_variants[i] */
    int ipv6;
    unsigned maclen;       /* TCP-AO MAC bytes */
    unsigned fail_every;   /* test hook: every n-th fast-path allocation fails (new, plug-ins) */
    int tcp_timestamps;    /* stream op: net.ipv4.tcp_timestamps (1 on, 0 off); plan() reads it */
    /* --plugin NAME=PATH.so, in the order given; plan() loads them */
    int nplugins;
    char plugin_name[SIGPOOL_IMPLS_MAX_PLUGINS][SIGPOOL_IMPLS_NAME_MAX];
    char plugin_path[SIGPOOL_IMPLS_MAX_PLUGINS][1024];
} sp_opts;

/* the suite's options object (suite.h): set from the command line, read by plan and setup */

/* Index in sp_variants, or -1. */
int sp_variant_index(const char *name);
/* Create the pool for a variant ("md5" -> the md5 pool). 0 or -1 + e. */
int sp_pool_create(const sigpool_ops *ops, const char *variant, sigpool **out, pb_err *e);

/* One direction of a connection: segments signed by the sender and
 * verified by the receiver through the same pool. */
typedef struct sp_flow {
    sigpool *pool;
    int md5;                       /* TCP-MD5, else TCP-AO */
    tcp_addrs addrs;               /* src = sender */
    tcp_hdr_spec hdr;
    size_t hdrlen, payload;
    uint8_t key[TCP_AO_MAX_MKT];   /* TCP-MD5 key, or the TCP-AO MKT key */
    size_t keylen;
    uint8_t tk[SP_MAX_DIGEST];     /* TCP-AO: sender's Send_other = receiver's Receive_other */
    size_t tklen;
} sp_flow;

/* Keys come from `seed`; TCP-AO traffic keys through the pool (KDF).
 * `timestamps`: headers carry the timestamp option (0: they do not). */
int sp_flow_init(sp_flow *f, sigpool *pool, const tcp_addrs *a, uint16_t sport, uint16_t dport,
                 uint32_t isn_s, uint32_t isn_r, size_t payload, int timestamps, unsigned maclen, uint64_t seed,
                 pb_err *e);
static inline size_t sp_flow_reclen(const sp_flow *f) { return f->hdrlen + f->payload; }
/* Header template + payload from rng into rec (sp_flow_reclen bytes). */
void sp_flow_fill(const sp_flow *f, uint8_t *rec, pb_rng *rng);
/* Set the sequence number and sign. 0 or the pool's error (MAC zeroed). */
int sp_flow_sign(const sp_flow *f, uint8_t *rec, uint32_t seq, uint32_t sne);
/* 0 if the signature verifies; nonzero otherwise (mismatch or pool error). */
int sp_flow_verify(const sp_flow *f, const uint8_t *rec, uint32_t sne);

/* The first member of every case's context: its output check (the suite's check_output), or
 * NULL where there is none to make (the stream op: the receiving kernel or worker verifies). */
typedef struct sp_case_head {
    int (*check)(void *ctx, pb_err *e);
} sp_case_head;

/* Addresses of the segment op (10.0.0.1 -> 10.0.0.2 or fd00::1 -> fd00::2). */
void sp_test_addrs(tcp_addrs *a, int ipv6);

/* The stream op's segment shape. A segment's room for options and data
 * (the MSS) is fixed, so the bytes that carry data are the MSS minus the
 * options. A connection that uses timestamps carries the 12-byte option
 * (NOP NOP kind 8 len 10) on every segment, so 12 bytes less data.
 * --payload is the data a segment carries without timestamps. */
#define SP_TCP_TS_OPTION 12
#define SP_TCP_TIMESTAMPS_SYSCTL "/proc/sys/net/ipv4/tcp_timestamps"
/* net.ipv4.tcp_timestamps from `path`: 1 on (any nonzero value: 1, 2),
 * 0 off, -1 unreadable or not a number. */
int sp_read_tcp_timestamps(const char *path);
/* Does a connection use timestamps? Linux (tcp_syn_options, 6.7) never
 * offers them on a TCP-MD5 connection (no room next to the MD5 option in a
 * SYN); TCP-AO and plain connections offer them when the sysctl is on. */
static inline int sp_stream_timestamps(int md5, int sysctl_on) { return !md5 && sysctl_on; }
/* Data bytes per stream segment for --payload, `timestamps` as
 * sp_stream_timestamps() says; 0 if the timestamp option leaves none. */
size_t sp_stream_data_bytes(size_t payload, int timestamps);
/* MSS to clamp the host kernel's connection to so that each segment carries
 * `data` bytes: data + the signature option (TCP-MD5 20, TCP-AO 4 + maclen
 * rounded to 4) + the timestamp option when on. */
size_t sp_stream_mss(size_t data, int md5, unsigned maclen, int timestamps);

/* 0 or -1 + e; sp_kernel_setup also PB_SETUP_UNAVAILABLE + why in e (the host kernel cannot sign). */
int sp_segment_setup(const sp_opts *o, const pb_cell *cell, const sigpool_ops *ops, pb_case *c, pb_err *e);
int sp_stream_setup(const sp_opts *o, const pb_cell *cell, const sigpool_ops *ops, pb_case *c, pb_err *e);
int sp_kernel_setup(const sp_opts *o, const pb_cell *cell, pb_case *c, pb_err *e);

int sp_selftest(const char *impl, pb_err *e);
int sp_kat_accepts(const char *path);
int sp_kat_file(const char *path, const char *impl, pb_kat_result *r, FILE *log, pb_err *e);

#endif
