/* SPDX-License-Identifier: GPL-2.0-only */
/* suite_sigpool.c — "net/tcp: Prepare tcp_md5sig_pool for TCP-AO":
 * per-CPU requests (old) vs clone-tfm (new) signing TCP-MD5 and TCP-AO
 * segments, in Gbit/s of payload.
 *
 * Grid: op x variant, one payload size.
 *   segment  N threads (default: online CPUs) sign then verify segments
 *            through one pool; one op = one segment signed and verified.
 *   stream   a sender signs segments and writes them into a TCP connection
 *            on loopback, a receiver thread reads and verifies every one;
 *            one op = one segment through the connection. The `kernel` impl
 *            is the host kernel's own TCP-MD5 (TCP-AO where built in) on a
 *            plain byte stream.
 * Impls old@native, new@native: the same pools built native instead of with
 * the kernel's flags (the code-generation cross-check, docs/build-profiles.md).
 * Options, metrics, cells: see the option table (options) and plan() below. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/lib_versions.h"
#include "common/gcrypt_init.h"
#include "pb_config.h"
#include "pb_plugin.h"
#include "sigpool_impls.h"
#include "sigpool_plugin.h"
#include "sigpool_suite.h"

const char *const sp_variants[SP_NVARIANTS] = {
    "md5", "hmac(sha1)", "hmac(sha512)", "hmac(sha384)", "hmac(sha224)",
    "hmac(sha3-512)", "hmac(md5)", "hmac(rmd160)", "cmac(aes128)", "hmac(sha256)",
};

#define SP_MAX_PAYLOAD 65000   /* header + payload must fit the 16-bit IPv4 length */

static void opts_init(void *p)
{
    *(sp_opts *)p = (sp_opts){
        .modes = SP_MODE_SEGMENT | SP_MODE_STREAM,
        .payload = 1448,
        .algs = (1u << SP_NVARIANTS) - 1,
        .maclen = 12,
        .tcp_timestamps = 1,
    };
}

int sp_variant_index(const char *name)
{
    for (int i = 0; i < SP_NVARIANTS; i++)
        if (strcmp(sp_variants[i], name) == 0) return i;
    return -1;
}

int sp_pool_create(const sigpool_ops *ops, const char *variant, sigpool **out, pb_err *e)
{
    if (pb_gcrypt_init() < 0) return pb_errf(e, "sigpool: libgcrypt is too old");
    int err = ops->create(variant, TCP_SIGPOOL_SCRATCH, out);
    if (err) return pb_errf(e, "sigpool: %s pool for %s: %s", sigpool_impls_name_of(ops), variant, strerror(-err));
    return 0;
}

static int parse_uint(const char *opt, const char *v, uint64_t lo, uint64_t hi, uint64_t *out, pb_err *e)
{
    if (!v || !*v) return pb_errf(e, "--%s needs a value", opt);
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (errno || *end || v[0] == '-' || x < lo || x > hi)
        return pb_errf(e, "--%s: '%s' is not a number in %llu..%llu", opt, v,
                       (unsigned long long)lo, (unsigned long long)hi);
    *out = x;
    return 0;
}

static int parse_algs(const char *v, uint32_t *mask, pb_err *e)
{
    if (!v || !*v) return pb_errf(e, "--algs needs a value (comma-separated algorithm names)");
    uint32_t m = 0;
    const char *p = v;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        char name[PB_NAME_MAX];
        if (n == 0 || n >= sizeof name) goto bad;
        memcpy(name, p, n);
        name[n] = 0;
        if (strcmp(name, "all") == 0) {
            m |= (1u << SP_NVARIANTS) - 1;
        } else {
            int i = sp_variant_index(name);
            if (i < 0) goto bad;
            m |= 1u << i;
        }
        p += n + (comma ? 1 : 0);
        continue;
    bad:;
        char list[512] = "";
        for (int i = 0; i < SP_NVARIANTS; i++) {
            strcat(list, i ? ", " : "");
            strcat(list, sp_variants[i]);
        }
        return pb_errf(e, "--algs: unknown algorithm '%.*s' (valid: %s, all)", (int)n, p, list);
    }
    *mask = m;
    return 0;
}

static int set_mode(void *p, const char *value, pb_err *e)
{
    sp_opts *o = p;
    if (strcmp(value, "segment") == 0) o->modes = SP_MODE_SEGMENT;
    else if (strcmp(value, "stream") == 0) o->modes = SP_MODE_STREAM;
    else if (strcmp(value, "both") == 0) o->modes = SP_MODE_SEGMENT | SP_MODE_STREAM;
    else return pb_errf(e, "--mode: '%s' is not segment, stream or both", value);
    return 0;
}

static int set_payload(void *p, const char *value, pb_err *e)
{
    return parse_uint("payload", value, 1, SP_MAX_PAYLOAD, &((sp_opts *)p)->payload, e);
}

static int set_threads(void *p, const char *value, pb_err *e)
{
    uint64_t x = 0;
    if (parse_uint("threads", value, 1, 1024, &x, e)) return -1;
    ((sp_opts *)p)->threads = (int)x;
    return 0;
}

static int set_maclen(void *p, const char *value, pb_err *e)
{
    uint64_t x = 0;
    if (parse_uint("maclen", value, 4, 16, &x, e)) return -1;
    ((sp_opts *)p)->maclen = (unsigned)x;
    return 0;
}

static int set_fail_every(void *p, const char *value, pb_err *e)
{
    uint64_t x = 0;
    if (parse_uint("fail-alloc-every", value, 0, 1000000000, &x, e)) return -1;
    ((sp_opts *)p)->fail_every = (unsigned)x;
    return 0;
}

static int set_algs(void *p, const char *value, pb_err *e)
{
    return parse_algs(value, &((sp_opts *)p)->algs, e);
}

static int set_ipv6(void *p, const char *value, pb_err *e)
{
    (void)value;
    (void)e;
    ((sp_opts *)p)->ipv6 = 1;
    return 0;
}

PB_PLUGIN_OPTION_GLUE("sigpool", sp_opts, SIGPOOL_IMPLS_MAX_PLUGINS, sp_plugin_check_name)

static const pb_suite_opt options[] = {
    {"mode", "segment|stream|both", "ops to run (default both)", set_mode},
    {"payload", "N", "payload bytes per segment, 1..65000 (default 1448); stream op, TCP-AO:\n"
                     "12 less when net.ipv4.tcp_timestamps is on (the timestamp option)", set_payload},
    {"threads", "N", "segment op: signing threads (default: online CPUs)", set_threads},
    {"algs", "a,b,...", "algorithms: md5 (TCP-MD5), hmac(sha1), hmac(sha512), hmac(sha384),\n"
                        "hmac(sha224), hmac(sha3-512), hmac(md5), hmac(rmd160), cmac(aes128),\n"
                        "hmac(sha256) (TCP-AO), or all (default)", set_algs},
    {"ipv6", NULL, "IPv6 pseudo-headers (stream: over ::1)", set_ipv6},
    {"maclen", "N", "TCP-AO MAC bytes, 4..16 (default 12)", set_maclen},
    {"fail-alloc-every", "N", "test hook: every N-th fast-path allocation fails (new, and a plug-in\n"
                              "whose fast path allocates; old allocates nothing there)", set_fail_every},
    {"plugin", "NAME=PATH.so", "also time the signature pool in this shared object as impl NAME\n"
                               "(repeatable, at most 4; ABI: include/patchbench/sigpool_plugin.h). It must\n"
                               "pass the suite's self-test, run in a child process, before it is timed", set_plugin},
    {NULL, NULL, NULL, NULL},
};

static int plan(void *opts, const pb_plan_opts *o, pb_grid *g, pb_err *e)
{
    sp_opts *const so = opts;
    for (int i = 0; i < so->nplugins; i++)
        if (sp_plugin_load(so->plugin_name[i], so->plugin_path[i], e) < 0) return -1;
    static const struct { unsigned mode; const char *op; } ops[] = {
        {SP_MODE_SEGMENT, "segment"}, {SP_MODE_STREAM, "stream"},
    };
    if (so->modes & SP_MODE_STREAM) {
        int ts = sp_read_tcp_timestamps(SP_TCP_TIMESTAMPS_SYSCTL);
        if (ts < 0) fprintf(stderr, "sigpool: cannot read " SP_TCP_TIMESTAMPS_SYSCTL "; stream op assumes "
                                    "timestamps on (Linux's default)\n");
        so->tcp_timestamps = ts != 0;
        /* every variant but md5 (bit 0) is TCP-AO */
        if (!sp_stream_data_bytes(so->payload, so->tcp_timestamps) && (so->algs & ~1u))
            return pb_errf(e, "--payload %llu: no data left in a TCP-AO stream segment after the %d-byte "
                              "timestamp option (net.ipv4.tcp_timestamps is on)",
                           (unsigned long long)so->payload, SP_TCP_TS_OPTION);
    }
    g->ncells = 0;
    g->cells = calloc(2 * SP_NVARIANTS, sizeof *g->cells);
    if (!g->cells) return pb_errf(e, "sigpool: out of memory");
    for (int k = 0; k < 2; k++) {
        if (!(so->modes & ops[k].mode)) continue;
        for (int i = 0; i < SP_NVARIANTS; i++) {
            if (!(so->algs & 1u << i)) continue;
            pb_cell *c = &g->cells[g->ncells++];
            snprintf(c->variant, sizeof c->variant, "%s", sp_variants[i]);
            snprintf(c->op, sizeof c->op, "%s", ops[k].op);
            /* stream cells store the data bytes their segments carry: the
             * stored size says which timestamp setting the run used */
            int md5 = strcmp(sp_variants[i], "md5") == 0;
            c->size_bytes = ops[k].mode == SP_MODE_STREAM
                                ? sp_stream_data_bytes(so->payload, sp_stream_timestamps(md5, so->tcp_timestamps))
                                : so->payload;
            /* the built-in pools, then the plug-ins as the options list them */
            for (size_t n = 0; n < sigpool_impls_count(); n++) {
                const sigpool_impl *m = sigpool_impls_at(n);
                if (m->ops && !m->plugin) snprintf(c->impls[c->nimpls++], PB_NAME_MAX, "%s", m->name);
            }
            for (int p = 0; p < so->nplugins; p++)
                snprintf(c->impls[c->nimpls++], PB_NAME_MAX, "%s", so->plugin_name[p]);
            if (ops[k].mode == SP_MODE_STREAM) {
                /* the kernel's own TCP-MD5/TCP-AO; its setup says unavailable
                 * where the kernel lacks it (TCP-AO on many hosts) */
                strcpy(c->impls[c->nimpls++], "kernel");
                /* a stream sample must cover socket buffers many times over: 15 ms
                 * (quick 8 ms), whatever --sample-ms says; with the harness's rounds
                 * (PB_DEFAULT_ROUNDS 64, quick 16) and 3 impls a cell takes about 2.9 s
                 * (quick 0.4 s) */
                c->sample_seconds = o->quick ? 0.008 : 0.015;
            } else {
                /* a segment sample wakes N worker threads: 10 ms (quick 5 ms), whatever
                 * --sample-ms says, long enough that the hand-off (tens of µs on a
                 * loaded machine) is noise, not the measurement */
                c->sample_seconds = o->quick ? 0.005 : 0.01;
            }
        }
    }
    return 0;
}

static int check_size(uint64_t size, pb_err *e)
{
    if (size < 1 || size > SP_MAX_PAYLOAD)
        return pb_errf(e, "sigpool: payload %llu outside 1..%d", (unsigned long long)size, SP_MAX_PAYLOAD);
    return 0;
}

static pb_setup_status setup_case(void *opts, const pb_cell *cell, const char *impl, pb_case *c, pb_err *e)
{
    const sp_opts *o = opts;
    memset(c, 0, sizeof *c);
    if (sp_variant_index(cell->variant) < 0)
        return pb_errf(e, "sigpool: unknown variant '%s'", cell->variant);
    if (check_size(cell->size_bytes, e) < 0) return -1;
    int stream = strcmp(cell->op, "stream") == 0;
    if (!stream && strcmp(cell->op, "segment") != 0)
        return pb_errf(e, "sigpool: unknown op '%s' (segment, stream)", cell->op);
    if (strcmp(impl, "kernel") == 0) {
        if (!stream) return pb_errf(e, "sigpool: impl kernel has only the stream op");
        return sp_kernel_setup(o, cell, c, e);
    }
    const sigpool_ops *ops = sigpool_impls_ops(impl);
    if (!ops) return pb_errf(e, "sigpool: unknown impl '%s' (old, new, old@native, new@native, kernel, a --plugin NAME)",
                            impl);
    return stream ? sp_stream_setup(o, cell, ops, c, e) : sp_segment_setup(o, cell, ops, c, e);
}

static int selftest(const void *opts, const char *impl, pb_err *e)
{
    (void)opts;   /* the known answers do not depend on the options */
    return sp_selftest(impl, e);
}

/* every case's context begins with its check (sigpool_suite.h) */
static int check_output(void *ctx, pb_err *e)
{
    const sp_case_head *h = ctx;
    return h->check ? h->check(ctx, e) : 0;
}

static pb_claim claim(const pb_cell *cell, double doc_ratio)
{
    (void)cell;
    (void)doc_ratio;
    return PB_CLAIM_EQUAL;   /* "differences are noise-level" */
}

/* what kmod/sigpool_bench.c reports */
static const char *const kmod_impls[] = { "kmod-old", "kmod-new", NULL };

/* --algs is one comma list and --mode one choice: a second would replace the first */
static const char *const once_options[] = { "mode", "algs", NULL };

/* the options that name the code under test: a baseline's configuration is the rest (suite.h) */
static const char *const code_options[] = {"plugin", NULL};

const pb_suite pb_suite_sigpool = {
    .name = "sigpool",
    .title = "TCP-MD5/TCP-AO signature pool: per-CPU requests (old) vs clone-tfm (new), Gbit/s",
    .baseline = "old",
    .candidate = "new",
    .metrics = PB_M_GBIT_PER_S | PB_M_NS_PER_OP,
    .primary_metric = "gbit_per_s",
    .kat_help = "MD5/RIPEMD-160 (SHAVS style), HMAC-* (HMACVS style), AES-128-CMAC, AES-CMAC-PRF-128, "
                "RFC 5926 KDF, RFC 9235 TCP-AO packets, TCP-MD5 packets (old, new)",
    .opts_size = sizeof(sp_opts),
    .opts_init = opts_init,
    .options = options,
    .plan = plan,
    .check_size = check_size,
    .setup_case = setup_case,
    .selftest = selftest,
    .kat_accepts = sp_kat_accepts,
    .kat_file = sp_kat_file,
    .plugin_load = sp_plugin_load,
    .user_code = plugin_user_code,
    .user_object = plugin_user_object,
    .code_options = code_options,
    .own_profile = "kernel profile",
    .own_cflags = PB_KERNEL_PROFILE_CFLAGS,
    .check_output = check_output,
    .claim = claim,
    .library_versions = pb_lib_versions_gcrypt,
    .kmod_impls = kmod_impls,
    .kmod_baseline = "kmod-old",
    .kmod_candidate = "kmod-new",
    .once_options = once_options,
    .plot_x = "variant",
    .notes_md =
        "Both pools sign exactly what Linux signs: TCP-MD5 (RFC 2385) for `md5`, TCP-AO (RFC 5925/5926, "
        "12-byte MAC, traffic keys from the RFC 5926 KDF, `setkey(traffic key)` on every segment as in "
        "Linux 6.7) for every other algorithm; libgcrypt computes the hashes. "
        "A request is an allocation of the kernel's request size (176 B for md5; wiped when freed); the "
        "running hash is kept in a libgcrypt handle it borrows (keyless: its CPU's, opened with the "
        "transform; keyed: its transform's), so `new`'s md5 clone costs what the kernel's does: a "
        "reference and one request allocation, no libgcrypt handle; a keyed clone copies the keyed "
        "libgcrypt state as `crypto_clone_ahash` copies the keyed tfm. "
        "`old` is the per-CPU-requests backend of the v6 posting, forced for every algorithm (for md5 it is "
        "the v6.6 `tcp_md5sig_pool`); `new` is clone-tfm as merged. "
        "The document could not clone `cmac(aes128)` (its clone-tfm cell says \"not supported yet\"); here "
        "both pools support it: libgcrypt has no CMAC copy, so a clone is `gcry_mac_open` (plus the source's "
        "key, which a TCP-AO pool transform never has). "
        "Disabling bottom halves is emulated by a per-CPU slot (chosen with `sched_getcpu()`) and a lock, "
        "identical in both pools; segment-op threads are pinned one per CPU. "
        "`segment`: N threads sign and verify in memory; one op = one segment signed and verified. "
        "`stream`: a sender signs and writes 128 KiB batches into a loopback TCP connection, a receiver "
        "thread verifies every segment (failures are counted, not timed away). A stream segment carries "
        "the data of an MSS less its options: for TCP-AO `--payload` less the 12-byte timestamp option when "
        "`net.ipv4.tcp_timestamps` is on (read at the start of the run; the stored size of the stream cells "
        "is the data per segment, e.g. 1436 for 1448), with the option in the header only then; for TCP-MD5 "
        "`--payload` whatever the sysctl, because Linux never uses timestamps on a TCP-MD5 connection "
        "(`tcp_syn_options`). `kernel`'s MSS is clamped to data + signature option + timestamps. "
        "Samples are fixed by the suite, whatever --sample-ms says: "
        "`stream` 15 ms (8 ms with --quick), `segment` 10 ms (5 ms), rounds as the harness runs them. "
        "`kernel` is the host kernel's TCP-MD5 (`setsockopt(TCP_MD5SIG)`, MSS clamped so every segment "
        "carries the same payload) on a plain byte stream: it includes the whole TCP/IP stack per segment, "
        "so it is a reference, not a third pool. The host kernel has no TCP-AO: those cells are unavailable. "
        "The document's numbers are iperf3 Gbit/s on an i7-7600U laptop (size unknown, stored as 0).",
};
