/* SPDX-License-Identifier: GPL-2.0-only */
/* sigpool_kat.c — known answers through both pools: `bench kat` files and
 * the built-in selftest.
 *
 * Formats, recognised by the first line of the file ("# <TOKEN> ..."):
 *   MD5, RIPEMD-160          SHAVS style: Len (bits), Msg, MD        [L = digest bytes]
 *   HMAC-SHA-1 ... HMAC-MD5  HMACVS style: Klen, Tlen, Key, Msg, Mac [L=digest bytes]
 *   AES-128-CMAC             Klen, Mlen, Tlen, Key, Msg, Mac (Msg = 00 when Mlen = 0)
 *   AES-CMAC-PRF-128         Klen, Mlen, Key, Msg, PRF (RFC 4615)
 *   RFC 5926 ... KDF         [KDF_HMAC_SHA1|KDF_AES_128_CMAC] [Output_Length = n]:
 *                            MasterKey, Context, KDFInput, TrafficKey
 *   TCP-AO                   RFC 9235 packets: IPVersion, TCPOptionsInMAC, Segment
 *                            (direction), MasterKey, SNE, ClientISN, ServerISN, Packet,
 *                            TrafficKey, MAC. Traffic key and MAC are recomputed from
 *                            the packet's own headers; the IPv4 TCP checksums in the
 *                            RFC are wrong and are not looked at.
 *   TCP-MD5                  kernel-signed packets: IPVersion, Key, Packet, MD5
 * Every record runs through each selected pool (old, new). A record the
 * pools cannot run (a CMAC key that is not AES-128) is skipped. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/gcrypt_init.h"
#include "rsp.h"
#include "sigpool_impls.h"
#include "sigpool_suite.h"

typedef enum { K_HASH, K_HMAC, K_CMAC, K_CMAC_PRF, K_KDF, K_AO_PACKET, K_MD5_PACKET } kat_fmt;

static const struct kat_kind {
    const char *token;   /* first word after "# " on the first line */
    kat_fmt fmt;
    const char *alg;     /* NULL: from the record's section */
} kat_kinds[] = {
    {"MD5", K_HASH, "md5"},
    {"RIPEMD-160", K_HASH, "rmd160"},
    {"HMAC-SHA-1", K_HMAC, "hmac(sha1)"},
    {"HMAC-SHA-224", K_HMAC, "hmac(sha224)"},
    {"HMAC-SHA-256", K_HMAC, "hmac(sha256)"},
    {"HMAC-SHA-384", K_HMAC, "hmac(sha384)"},
    {"HMAC-SHA-512", K_HMAC, "hmac(sha512)"},
    {"HMAC-SHA3-512", K_HMAC, "hmac(sha3-512)"},
    {"HMAC-MD5", K_HMAC, "hmac(md5)"},
    {"HMAC-RIPEMD-160", K_HMAC, "hmac(rmd160)"},
    {"AES-128-CMAC", K_CMAC, "cmac(aes128)"},
    {"AES-CMAC-PRF-128", K_CMAC_PRF, "cmac(aes128)"},
    {"RFC 5926 traffic-key KDF", K_KDF, NULL},
    {"TCP-AO", K_AO_PACKET, NULL},
    {"TCP-MD5", K_MD5_PACKET, "md5"},
};

static const struct kat_kind *kind_of_line(const char *line)
{
    if (strncmp(line, "# ", 2) != 0) return NULL;
    line += 2;
    for (size_t i = 0; i < sizeof kat_kinds / sizeof kat_kinds[0]; i++) {
        size_t n = strlen(kat_kinds[i].token);
        if (strncmp(line, kat_kinds[i].token, n) == 0 && (line[n] == ' ' || line[n] == '\n' || !line[n]))
            return &kat_kinds[i];
    }
    return NULL;
}

static const struct kat_kind *kind_of_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    char line[256];
    const struct kat_kind *k = fgets(line, sizeof line, f) ? kind_of_line(line) : NULL;
    fclose(f);
    return k;
}

int sp_kat_accepts(const char *path)
{
    return kind_of_file(path) != NULL;
}

/* --- decoding one record ------------------------------------------------ */

typedef struct kat_rec {
    const char *path;
    const pb_rsp_rec *rec;
    pb_err *e;
    uint8_t *mem[16];
    int nmem;
} kat_rec;

static void kat_rec_free(kat_rec *k)
{
    for (int i = 0; i < k->nmem; i++) free(k->mem[i]);
    k->nmem = 0;
}

static const char *str_field(kat_rec *k, const char *name)
{
    const char *v = pb_rsp_get(k->rec, name, 0);
    if (!v) pb_errf(k->e, "%s:%d: record has no field '%s'", k->path, k->rec->line, name);
    return v;
}

static long hex_field(kat_rec *k, const char *name, const uint8_t **out)
{
    const pb_rsp_field *f = pb_rsp_field_of(k->rec, name, 0);
    if (!f) return pb_errf(k->e, "%s:%d: record has no field '%s'", k->path, k->rec->line, name);
    size_t len = 0;
    uint8_t *p = pb_unhex_alloc(f->value, &len);
    if (!p) return pb_errf(k->e, "%s:%d: field '%s' is not a hex string", k->path, f->line, name);
    if (k->nmem == (int)(sizeof k->mem / sizeof k->mem[0])) {
        free(p);
        return pb_errf(k->e, "%s:%d: too many fields", k->path, k->rec->line);
    }
    k->mem[k->nmem++] = p;
    *out = p;
    return (long)len;
}

static int uint_field(kat_rec *k, const char *name, unsigned long *v)
{
    const pb_rsp_field *f = pb_rsp_field_of(k->rec, name, 0);
    if (!f) return pb_errf(k->e, "%s:%d: record has no field '%s'", k->path, k->rec->line, name);
    char *end;
    errno = 0;
    *v = strtoul(f->value, &end, 10);
    if (errno || !*f->value || *end || f->value[0] == '-')
        return pb_errf(k->e, "%s:%d: field '%s' is not a decimal number", k->path, f->line, name);
    return 0;
}

/* hex field of exactly `want` bytes */
static int hex_exact(kat_rec *k, const char *name, size_t want, const uint8_t **out)
{
    long n = hex_field(k, name, out);
    if (n < 0) return -1;
    if ((size_t)n != want)
        return pb_errf(k->e, "%s:%d: field '%s' has %ld bytes, expected %zu", k->path,
                       pb_rsp_field_of(k->rec, name, 0)->line, name, n, want);
    return 0;
}

static int be32_field(kat_rec *k, const char *name, uint32_t *v)
{
    const uint8_t *p = NULL;
    if (hex_exact(k, name, 4, &p)) return -1;
    *v = tcp_get32(p);
    return 0;
}

/* "[L = 20]" / "[L=20]" / "[Output_Length = 160]": the number, or -1 if absent. */
static long hdr_number(const pb_rsp_rec *rec, const char *prefix)
{
    const char *h = pb_rsp_hdr(rec, prefix);
    const char *eq = h ? strchr(h, '=') : NULL;
    return eq ? strtol(eq + 1, NULL, 10) : -1;
}

/* A decoded record. */
typedef struct kat_vec {
    kat_fmt fmt;
    const sp_alg *alg;
    const uint8_t *key, *msg, *want, *want2;
    size_t keylen, msglen, wantlen, want2len;
    /* packets */
    tcp_packet pkt;
    int sig_off;              /* offset of the signature field in the TCP header */
    int exclude;
    uint32_t sne, src_isn, dst_isn;
} kat_vec;

static int decode_digest(kat_rec *k, kat_vec *v)
{
    long L = hdr_number(k->rec, "L");
    if (L >= 0 && (unsigned long)L != v->alg->digest_len)
        return pb_errf(k->e, "%s:%d: section [L = %ld] but %s has %u-byte digests", k->path, k->rec->line, L,
                       v->alg->name, v->alg->digest_len);
    unsigned long bits, klen, tlen, mlen;
    long n;
    switch (v->fmt) {
    case K_HASH:
        if (uint_field(k, "Len", &bits) || (n = hex_field(k, "Msg", &v->msg)) < 0 ||
            hex_exact(k, "MD", v->alg->digest_len, &v->want))
            return -1;
        if (bits % 8 || (bits && (unsigned long)n * 8 != bits))
            return pb_errf(k->e, "%s:%d: Len = %lu bits but Msg has %ld bytes", k->path, k->rec->line, bits, n);
        v->msglen = bits / 8;
        v->wantlen = v->alg->digest_len;
        return 0;
    case K_HMAC:
    case K_CMAC:
        if (uint_field(k, "Klen", &klen) || uint_field(k, "Tlen", &tlen) ||
            hex_exact(k, "Key", klen, &v->key) || hex_exact(k, "Mac", tlen, &v->want) ||
            (n = hex_field(k, "Msg", &v->msg)) < 0)
            return -1;
        if (tlen == 0 || tlen > v->alg->digest_len)
            return pb_errf(k->e, "%s:%d: Tlen = %lu, %s MACs have 1..%u bytes", k->path, k->rec->line, tlen,
                           v->alg->name, v->alg->digest_len);
        v->keylen = klen;
        v->wantlen = tlen;
        v->msglen = (size_t)n;
        if (v->fmt == K_CMAC) {
            if (uint_field(k, "Mlen", &mlen)) return -1;
            if (mlen ? (size_t)n != mlen : n > 1)
                return pb_errf(k->e, "%s:%d: Mlen = %lu but Msg has %ld bytes", k->path, k->rec->line, mlen, n);
            v->msglen = mlen;
            if (klen != 16) return 1;          /* AES-192/256: not this algorithm */
        }
        return 0;
    case K_CMAC_PRF:
        if (uint_field(k, "Klen", &klen) || uint_field(k, "Mlen", &mlen) || hex_exact(k, "Key", klen, &v->key) ||
            hex_exact(k, "Msg", mlen, &v->msg) || hex_exact(k, "PRF", 16, &v->want))
            return -1;
        v->keylen = klen;
        v->msglen = mlen;
        v->wantlen = 16;
        return 0;
    default:
        return -1;
    }
}

/* The KDF named by the record's section ("KDF_HMAC_SHA1 / ..." or "KDF_AES_128_CMAC ..."). */
static const sp_alg *kdf_alg(kat_rec *k)
{
    if (pb_rsp_hdr(k->rec, "KDF_HMAC_SHA1")) return sp_alg_find("hmac(sha1)");
    if (pb_rsp_hdr(k->rec, "KDF_AES_128_CMAC")) return sp_alg_find("cmac(aes128)");
    pb_errf(k->e, "%s:%d: no [KDF_HMAC_SHA1] or [KDF_AES_128_CMAC] section before this record", k->path,
            k->rec->line);
    return NULL;
}

static int decode_kdf(kat_rec *k, kat_vec *v)
{
    if (!(v->alg = kdf_alg(k))) return -1;
    long bits = hdr_number(k->rec, "Output_Length");
    if (bits >= 0 && (unsigned long)bits != v->alg->digest_len * 8)
        return pb_errf(k->e, "%s:%d: [Output_Length = %ld] but %s gives %u bits", k->path, k->rec->line, bits,
                       v->alg->name, v->alg->digest_len * 8);
    long n, c;
    if ((n = hex_field(k, "MasterKey", &v->key)) < 0 || (c = hex_field(k, "Context", &v->msg)) < 0 ||
        hex_exact(k, "TrafficKey", v->alg->digest_len, &v->want))
        return -1;
    if (n > TCP_AO_MAX_MKT || (c != 20 && c != 44))
        return pb_errf(k->e, "%s:%d: MasterKey over %d bytes or Context neither 20 (IPv4) nor 44 (IPv6) bytes",
                       k->path, k->rec->line, TCP_AO_MAX_MKT);
    v->keylen = (size_t)n;
    v->msglen = (size_t)c;
    v->wantlen = v->alg->digest_len;
    if (pb_rsp_get(k->rec, "KDFInput", 0)) {
        if ((n = hex_field(k, "KDFInput", &v->want2)) < 0) return -1;
        v->want2len = (size_t)n;
    }
    return 0;
}

static int decode_packet(kat_rec *k, kat_vec *v)
{
    const int ao = v->fmt == K_AO_PACKET;
    if (ao && !(v->alg = kdf_alg(k))) return -1;
    unsigned long ipv;
    const uint8_t *pkt;
    long n, keylen;
    if (uint_field(k, "IPVersion", &ipv) || (n = hex_field(k, "Packet", &pkt)) < 0 ||
        (keylen = hex_field(k, ao ? "MasterKey" : "Key", &v->key)) < 0)
        return -1;
    const pb_rsp_field *pf = pb_rsp_field_of(k->rec, "Packet", 0);
    const char *why;
    if (tcp_parse_packet(pkt, (size_t)n, &v->pkt, &why))
        return pb_errf(k->e, "%s:%d: Packet: %s", k->path, pf->line, why);
    if ((unsigned long)v->pkt.addrs.family != ipv)
        return pb_errf(k->e, "%s:%d: IPVersion = %lu but Packet is IPv%d", k->path, pf->line, ipv,
                       v->pkt.addrs.family);
    if (keylen > (ao ? TCP_AO_MAX_MKT : TCP_MD5_MAX_KEY))
        return pb_errf(k->e, "%s:%d: key longer than %d bytes", k->path, k->rec->line,
                       ao ? TCP_AO_MAX_MKT : TCP_MD5_MAX_KEY);
    v->keylen = (size_t)keylen;
    const uint8_t *th = v->pkt.seg;
    size_t hl = tcp_hdrlen(th);
    v->sig_off = tcp_find_option(th, hl, ao ? TCPOPT_AO : TCPOPT_MD5SIG);
    if (v->sig_off < 0)
        return pb_errf(k->e, "%s:%d: Packet has no %s option", k->path, pf->line, ao ? "TCP-AO" : "TCP-MD5");
    if (!ao) {
        if (th[v->sig_off + 1] != 2 + TCP_MD5_DIGEST)
            return pb_errf(k->e, "%s:%d: Packet's TCP-MD5 option is not 18 bytes long", k->path, pf->line);
        v->sig_off += 2;
        v->wantlen = TCP_MD5_DIGEST;
        return hex_exact(k, "MD5", TCP_MD5_DIGEST, &v->want);
    }
    const char *opts = str_field(k, "TCPOptionsInMAC"), *dir = str_field(k, "Segment");
    uint32_t client_isn, server_isn;
    if (!opts || !dir || be32_field(k, "SNE", &v->sne) || be32_field(k, "ClientISN", &client_isn) ||
        be32_field(k, "ServerISN", &server_isn) || hex_exact(k, "TrafficKey", v->alg->digest_len, &v->want2) ||
        (n = hex_field(k, "MAC", &v->want)) < 0)
        return -1;
    v->want2len = v->alg->digest_len;
    v->wantlen = (size_t)n;
    if (strcmp(opts, "yes") != 0 && strcmp(opts, "no") != 0)
        return pb_errf(k->e, "%s:%d: TCPOptionsInMAC must be yes or no", k->path, k->rec->line);
    v->exclude = strcmp(opts, "no") == 0;
    if ((size_t)th[v->sig_off + 1] != TCP_AO_HDR + v->wantlen || v->wantlen > v->alg->digest_len)
        return pb_errf(k->e, "%s:%d: MAC has %zu bytes but the packet's TCP-AO option carries %d", k->path,
                       k->rec->line, v->wantlen, th[v->sig_off + 1] - TCP_AO_HDR);
    v->sig_off += TCP_AO_HDR;
    int client_sends = strstr(dir, "client->server") != NULL;
    if (!client_sends && !strstr(dir, "server->client"))
        return pb_errf(k->e, "%s:%d: Segment names no direction (client->server or server->client)", k->path,
                       k->rec->line);
    /* RFC 5925 5.2: a SYN (no ACK) does not know the peer's ISN yet */
    int syn_only = (th[13] & (TCP_FLAG_SYN | TCP_FLAG_ACK)) == TCP_FLAG_SYN;
    v->src_isn = client_sends ? client_isn : server_isn;
    v->dst_isn = syn_only ? 0 : client_sends ? server_isn : client_isn;
    return 0;
}

static int decode(kat_fmt fmt, const char *alg, kat_rec *k, kat_vec *v)
{
    memset(v, 0, sizeof *v);
    v->fmt = fmt;
    if (alg) v->alg = sp_alg_find(alg);
    switch (fmt) {
    case K_KDF: return decode_kdf(k, v);
    case K_AO_PACKET:
    case K_MD5_PACKET: return decode_packet(k, v);
    default: return decode_digest(k, v);
    }
}

/* --- checking one decoded record through one pool ----------------------- */

static void hex(char *out, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) sprintf(out + 2 * i, "%02x", p[i]);
    out[2 * n] = 0;
}

static int mismatch(char *why, size_t cap, const char *what, const uint8_t *got, const uint8_t *want, size_t n)
{
    char g[2 * SP_MAX_DIGEST + 1], w[2 * SP_MAX_DIGEST + 1];
    if (n > SP_MAX_DIGEST) n = SP_MAX_DIGEST;
    hex(g, got, n);
    hex(w, want, n);
    snprintf(why, cap, "%s mismatch: got %s, want %s", what, g, w);
    return 0;
}

static int pool_error(char *why, size_t cap, const char *what, int err)
{
    snprintf(why, cap, "%s: %s", what, strerror(-err));
    return 0;
}

/* One digest/MAC of msg with key (NULL for a hash). */
static int digest_once(sigpool *p, const uint8_t *key, size_t keylen, const uint8_t *msg, size_t len,
                       uint8_t *out)
{
    sigpool_handle h;
    int err = sigpool_start(p, &h);
    if (err) return err;
    if (key) err = sp_setkey(h.req, key, keylen);
    if (!err) err = sp_init(h.req);
    if (!err) {
        sp_update(h.req, msg, len);
        err = sp_final(h.req, out);
    }
    sigpool_end(p, &h);
    return err;
}

static int check_packet(sigpool *p, const kat_vec *v, char *why, size_t cap)
{
    uint8_t out[SP_MAX_DIGEST];
    const uint8_t *th = v->pkt.seg;
    int err;
    if (v->fmt == K_MD5_PACKET) {
        err = tcp_md5_hash(p, &v->pkt.addrs, v->pkt.seg, v->pkt.seglen, v->key, v->keylen, out);
        if (err) return pool_error(why, cap, "TCP-MD5", err);
        if (memcmp(out, v->want, v->wantlen)) return mismatch(why, cap, "MD5", out, v->want, v->wantlen);
        if (memcmp(out, th + v->sig_off, v->wantlen))
            return mismatch(why, cap, "MD5 option in Packet", out, th + v->sig_off, v->wantlen);
        return 1;
    }
    uint8_t ctx[TCP_AO_CONTEXT_MAX], tk[SP_MAX_DIGEST];
    size_t n = tcp_ao_context(ctx, &v->pkt.addrs, tcp_get16(th), tcp_get16(th + 2), v->src_isn, v->dst_isn);
    err = tcp_ao_kdf(p, v->key, v->keylen, ctx, n, tk);
    if (err) return pool_error(why, cap, "traffic key", err);
    if (memcmp(tk, v->want2, v->want2len)) return mismatch(why, cap, "TrafficKey", tk, v->want2, v->want2len);
    err = tcp_ao_hash(p, tk, v->want2len, v->sne, &v->pkt.addrs, v->pkt.seg, v->pkt.seglen, v->exclude, out);
    if (err) return pool_error(why, cap, "MAC", err);
    if (memcmp(out, v->want, v->wantlen)) return mismatch(why, cap, "MAC", out, v->want, v->wantlen);
    if (memcmp(out, th + v->sig_off, v->wantlen))
        return mismatch(why, cap, "MAC option in Packet", out, th + v->sig_off, v->wantlen);
    return 1;
}

/* One use of the pool for the record: 1 pass, 0 fail (why says what). */
static int check_once(sigpool *p, const kat_vec *v, char *why, size_t cap)
{
    uint8_t out[SP_MAX_DIGEST] = {0};   /* a short digest shows as zeros, not stack contents */
    int err;
    int ok;
    switch (v->fmt) {
    case K_HASH:
    case K_HMAC:
    case K_CMAC:
        err = digest_once(p, v->fmt == K_HASH ? NULL : v->key, v->keylen, v->msg, v->msglen, out);
        ok = err ? pool_error(why, cap, "digest", err) : memcmp(out, v->want, v->wantlen) == 0 ? 1
             : mismatch(why, cap, v->fmt == K_HASH ? "MD" : "Mac", out, v->want, v->wantlen);
        break;
    case K_CMAC_PRF:
        err = tcp_ao_prf(p, v->key, v->keylen, v->msg, v->msglen, out);
        ok = err ? pool_error(why, cap, "PRF", err) : memcmp(out, v->want, v->wantlen) == 0 ? 1
             : mismatch(why, cap, "PRF", out, v->want, v->wantlen);
        break;
    case K_KDF: {
        uint8_t in[TCP_AO_KDF_INPUT_MAX];
        size_t n = tcp_ao_kdf_input(in, v->msg, v->msglen, v->alg->digest_len * 8);
        if (v->want2 && (n != v->want2len || memcmp(in, v->want2, n))) {
            ok = mismatch(why, cap, "KDFInput", in, v->want2, n < v->want2len ? n : v->want2len);
            break;
        }
        err = tcp_ao_kdf(p, v->key, v->keylen, v->msg, v->msglen, out);
        ok = err ? pool_error(why, cap, "KDF", err) : memcmp(out, v->want, v->wantlen) == 0 ? 1
             : mismatch(why, cap, "TrafficKey", out, v->want, v->wantlen);
        break;
    }
    default:
        ok = check_packet(p, v, why, cap);
    }
    return ok;
}

/* The record through a new pool of ops, twice: a request handed out again (a pool that caches
 * them) must start clean. 1 pass, 0 fail (why says what). */
static int check(const sigpool_ops *ops, const kat_vec *v, char *why, size_t cap)
{
    sigpool *p;
    int err = ops->create(v->alg->name, TCP_SIGPOOL_SCRATCH, &p);
    if (err) return pool_error(why, cap, "pool", err);
    int ok = 0;
    if (p->ops != ops || !p->alg || strcmp(p->alg->name, v->alg->name) != 0)
        snprintf(why, cap, "pool: create(\"%s\") did not set the pool's ops and algorithm", v->alg->name);
    else if ((ok = check_once(p, v, why, cap)) == 1 && (ok = check_once(p, v, why, cap)) == 0)
        strncat(why, " (the second use of the pool)", cap - strlen(why) - 1);
    ops->destroy(p);   /* not through p->ops: it may be what is wrong */
    return ok;
}

/* --- bench kat ----------------------------------------------------------- */

/* Without --impl: every built-in pool, each build of both (the kernel profile and native). */
static int kat_impls(const char *impl, const sigpool_ops **ops, pb_err *e)
{
    int n = 0;
    if (impl) {
        if (!(ops[n++] = sigpool_impls_ops(impl)))
            return pb_errf(e, "sigpool: unknown impl '%s' for known answers (old, new, old@native, new@native)",
                           impl);
    }
    for (size_t i = 0; !impl && i < sigpool_impls_count() && n < PB_MAX_IMPLS; i++) {
        const sigpool_impl *m = sigpool_impls_at(i);
        if (m->ops && !m->plugin) ops[n++] = m->ops;
    }
    return n;
}

int sp_kat_file(const char *path, const char *impl, pb_kat_result *r, FILE *log, pb_err *e)
{
    const sigpool_ops *ops[PB_MAX_IMPLS];
    int nops = kat_impls(impl, ops, e);
    if (nops < 0) return -1;
    if (pb_gcrypt_init() < 0) return pb_errf(e, "sigpool: libgcrypt is too old");
    const struct kat_kind *kind = kind_of_file(path);
    pb_rsp *rsp = pb_rsp_open(path, e);
    if (!rsp) return -1;
    path = pb_rsp_path(rsp);    /* the name the user gave, also for a pipe bench kat copied */
    if (!kind) {
        pb_errf(e, "%s:1: not a sigpool vector file (first line names no known format: %s)", path,
                "MD5, RIPEMD-160, HMAC-*, AES-128-CMAC, AES-CMAC-PRF-128, RFC 5926 KDF, TCP-AO, TCP-MD5");
        pb_rsp_close(rsp);
        return -1;
    }
    pb_rsp_rec rec;
    int rc, status = 0;
    while ((rc = pb_rsp_next(rsp, &rec, e)) > 0) {
        kat_rec k = {.path = path, .rec = &rec, .e = e};
        kat_vec v;
        int d = decode(kind->fmt, kind->alg, &k, &v);
        if (d < 0) {
            status = -1;
            kat_rec_free(&k);
            break;
        }
        for (int i = 0; i < nops; i++) {
            char why[400];
            if (d == 1) {
                r->skipped++;
                continue;
            }
            if (check(ops[i], &v, why, sizeof why)) {
                r->passed++;
            } else {
                r->failed++;
                const char *count = pb_rsp_get(&rec, "COUNT", 0);
                fprintf(log, "%s:%d: %s %s COUNT=%s: %s\n", path, rec.line, sigpool_impls_name_of(ops[i]), v.alg->name,
                        count ? count : "?", why);
            }
        }
        kat_rec_free(&k);
    }
    if (rc < 0) status = -1;
    pb_rsp_close(rsp);
    return status;
}

/* --- selftest: a few records of the vector files, built in --------------- */

typedef struct st_vec {
    const char *title;            /* first line of the file it comes from */
    const char *section;
    const char *const kv[26];     /* name, value, ..., NULL */
} st_vec;

static const st_vec selftest_vecs[] = {
    {"# MD5 (RFC 1321)", "L = 16", {"Len", "24", "Msg", "616263", "MD", "900150983cd24fb0d6963f7d28e17f72", NULL}},
    {"# HMAC-SHA-1 (RFC 2202)", "L=20",
     {"Klen", "4", "Tlen", "20", "Key", "4a656665", "Msg", "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
      "Mac", "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79", NULL}},
    /* one record of each other HMAC the grid runs (tests/vectors/mac, COUNT = 0) */
    {"# HMAC-SHA-224 (RFC 4231 4.2)", "L=28",
     {"Klen", "20", "Tlen", "28", "Key", "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "Msg",
      "4869205468657265",
      "Mac", "896fb1128abbdf196832107cd49df33f47b4b1169912ba4f53684b22", NULL}},
    {"# HMAC-SHA-256 (RFC 4231 4.2)", "L=32",
     {"Klen", "20", "Tlen", "32", "Key", "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "Msg",
      "4869205468657265",
      "Mac", "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7", NULL}},
    {"# HMAC-SHA-384 (RFC 4231 4.2)", "L=48",
     {"Klen", "20", "Tlen", "48", "Key", "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "Msg",
      "4869205468657265",
      "Mac",
      "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59c"
      "faea9ea9076ede7f4af152e8b2fa9cb6", NULL}},
    {"# HMAC-SHA-512 (RFC 4231 4.2)", "L=64",
     {"Klen", "20", "Tlen", "64", "Key", "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "Msg",
      "4869205468657265",
      "Mac",
      "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cde"
      "daa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854", NULL}},
    {"# HMAC-SHA3-512 (NIST example #1)", "L=64",
     {"Klen", "64", "Tlen", "64", "Key",
      "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
      "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f", "Msg",
      "53616d706c65206d65737361676520666f72206b65796c656e3c626c6f636b6c656e",
      "Mac",
      "4efd629d6c71bf86162658f29943b1c308ce27cdfa6db0d9c3ce81763f9cbce5"
      "f7ebe9868031db1a8f8eb7b6b95e5c5e3f657a8996c86a2f6527e307f0213196", NULL}},
    {"# HMAC-MD5 (RFC 2202)", "L=16",
     {"Klen", "16", "Tlen", "16", "Key", "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "Msg",
      "4869205468657265",
      "Mac", "9294727a3638bb1c13f48ef8158bfc9d", NULL}},
    {"# HMAC-RIPEMD-160 (RFC 2286)", "L=20",
     {"Klen", "20", "Tlen", "20", "Key", "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "Msg",
      "4869205468657265",
      "Mac", "24cb4bd67d20fc1a5d2ed7732dcc39377f0a5668", NULL}},
    {"# AES-128-CMAC (RFC 4493)", "CMAC-AES128",
     {"Klen", "16", "Mlen", "16", "Tlen", "16", "Key", "2b7e151628aed2a6abf7158809cf4f3c", "Msg",
      "6bc1bee22e409f96e93d7e117393172a", "Mac", "070a16b46b4d4144f79bdd9dd04a287c", NULL}},
    /* RFC 9235 4.1.1: HMAC-SHA-1-96, IPv4 SYN */
    {"# TCP-AO (RFC 9235)", "KDF_HMAC_SHA1 / HMAC-SHA-1-96",
     {"IPVersion", "4", "TCPOptionsInMAC", "yes", "Segment", "Send SYN (client->server)", "MasterKey",
      "74657374766563746f72", "SNE", "00000000", "ClientISN", "fbfbab5a", "ServerISN", "11c14261", "Packet",
      "45e0004cdd0f4000ff06bf6b0a0b0c0dac1b1c1de9d700b3fbfbab5a00000000e002ffffcac40000020405b4010303080402080a"
      "00155ab7000000001d103d542ee437c6f8ede6d7c4d602e7",
      "TrafficKey", "6d63ef1b02fe1509d4b1402707fd7b0416abb74f", "MAC", "2ee437c6f8ede6d7c4d602e7", NULL}},
    /* RFC 9235 4.2.1: options excluded */
    {"# TCP-AO (RFC 9235)", "KDF_HMAC_SHA1 / HMAC-SHA-1-96",
     {"IPVersion", "4", "TCPOptionsInMAC", "no", "Segment", "Send SYN (client->server)", "MasterKey",
      "74657374766563746f72", "SNE", "00000000", "ClientISN", "cb0efbee", "ServerISN", "acd5b5e1", "Packet",
      "45e0004c53994000ff0648e20a0b0c0dac1b1c1dff1200b3cb0efbee00000000e002ffff541f0000020405b4010303080402080a"
      "00024cce000000001d103d5480af3cfeb85368937b8f9ec2",
      "TrafficKey", "30eaa1560cf0be57dab5c045229fb10a423cd7ea", "MAC", "80af3cfeb85368937b8f9ec2", NULL}},
    /* RFC 9235 5.1.3: AES-128-CMAC-96, IPv4 data segment with payload */
    {"# TCP-AO (RFC 9235)", "KDF_AES_128_CMAC / AES-128-CMAC-96",
     {"IPVersion", "4", "TCPOptionsInMAC", "yes", "Segment", "Send Non-SYN (client->server)", "MasterKey",
      "74657374766563746f72", "SNE", "00000000", "ClientISN", "787a1ddf", "ServerISN", "fadd6de9", "Packet",
      "45e00087fb4f4000ff06a0f00a0b0c0dac1b1c1dc4fa00b3787a1de0fadd6deac0180104950500000101080a00017ed093f4e9e8"
      "1d103d5477412742fa4dc433eff0973effffffffffffffffffffffffffffffff00430104dabf00b40a0b0c0d260206010400010001"
      "020280000202020002024200020641040000dabf02084006006400010100",
      "TrafficKey", "8c8ae0e8371ec5cbb97ea79d90418391", "MAC", "77412742fa4dc433eff0973e", NULL}},
    /* RFC 9235 7.1.2: AES-128-CMAC-96, IPv6 SYN-ACK */
    {"# TCP-AO (RFC 9235)", "KDF_AES_128_CMAC / AES-128-CMAC-96",
     {"IPVersion", "6", "TCPOptionsInMAC", "yes", "Segment", "Receive SYN-ACK (server->client)", "MasterKey",
      "74657374766563746f72", "SNE", "00000000", "ClientISN", "193cccec", "ServerISN", "a6744ecb", "Packet",
      "6e06152000380640fd000000000000000000000000000002fd00000000000000000000000000000100b3f85aa6744ecb193ccced"
      "e012ffffeabb0000020405a0010303080402080a71daabc813e4ab991d10543ddc2843a84e78a6bcfdc5ed80",
      "TrafficKey", "cf1b1e225e06a63616764a067b46f4b1", "MAC", "dc2843a84e78a6bcfdc5ed80", NULL}},
    /* TCP-MD5 signed by Linux (tests/vectors/tcpao/tcpmd5_linux.rsp COUNT 2 and 6) */
    {"# TCP-MD5 (RFC 2385)", "TCP-MD5",
     {"IPVersion", "4", "Key", "706174636862656e63682d6d64352d6b6579", "Packet",
      "4500004e2059400040061c4f7f0000017f0000019204868bc9a98d810fd756b3a0180040fe42000001011312d816cad1131acf2a"
      "b58291a021b036fe474554202f20485454502f312e300d0a0d0a",
      "MD5", "d816cad1131acf2ab58291a021b036fe", NULL}},
    {"# TCP-MD5 (RFC 2385)", "TCP-MD5",
     {"IPVersion", "6", "Key", "0102030405060708090a0b0c0d0e0f10", "Packet",
      "60099f20002806400000000000000000000000000000000100000000000000000000000000000001b8969131542ff6baf9de38ef"
      "a010004000300000010113124612a890f10b7c674bece29bc31919c5",
      "MD5", "4612a890f10b7c674bece29bc31919c5", NULL}},
};

int sp_selftest(const char *impl, pb_err *e)
{
    if (strcmp(impl, "kernel") == 0) return 0;   /* the host kernel tests its own crypto */
    const sigpool_ops *ops = sigpool_impls_ops(impl);
    if (!ops) return pb_errf(e, "sigpool: unknown impl '%s'", impl);
    if (pb_gcrypt_init() < 0) return pb_errf(e, "sigpool: libgcrypt is too old");
    for (size_t i = 0; i < sizeof selftest_vecs / sizeof selftest_vecs[0]; i++) {
        const st_vec *s = &selftest_vecs[i];
        pb_rsp_rec rec;
        memset(&rec, 0, sizeof rec);
        rec.line = (int)i + 1;
        rec.nhdrs = 1;
        rec.hdr[0] = s->section;
        for (int j = 0; s->kv[j]; j += 2) {
            rec.f[rec.nfields].name = (char *)s->kv[j];
            rec.f[rec.nfields].value = (char *)s->kv[j + 1];
            rec.f[rec.nfields].line = (int)i + 1;
            rec.nfields++;
        }
        const struct kat_kind *kind = kind_of_line(s->title);
        kat_rec k = {.path = "selftest", .rec = &rec, .e = e};
        kat_vec v;
        char why[400];
        int ok = -1;
        if (!kind) pb_errf(e, "sigpool selftest: vector %zu has no known format", i + 1);
        else if (decode(kind->fmt, kind->alg, &k, &v) == 0) ok = check(ops, &v, why, sizeof why);
        kat_rec_free(&k);
        if (ok == 0) pb_errf(e, "sigpool selftest %s, vector %zu (%s): %s", impl, i + 1, s->title, why);
        if (ok != 1) return -1;
    }
    return 0;
}
