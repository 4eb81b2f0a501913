/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg_kat.c — NIST CAVS DRBGVS .rsp files for `bench kat`, and the record
 * runner the suite's selftest shares. */
#include "drbg_kat.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/drbg_backend.h"
#include "drbg_impls.h"
#include "peers/drbg_peers.h"
#include "rsp.h"

/* ---------------------------------------------------------------- running */

/* Entropy source that hands out the record's inputs in order. */
typedef struct entropy_queue {
    const drbg_bytes *items[3];
    int n, next;
} entropy_queue;

static long queue_entropy(void *arg, uint8_t *buf, size_t min_len, size_t max_len)
{
    entropy_queue *q = arg;
    if (q->next == q->n) return -1;
    const drbg_bytes *b = q->items[q->next++];
    if (b->n < min_len || b->n > max_len) return -1;
    memcpy(buf, b->p, b->n);
    return (long)b->n;
}

static int run_ours(const drbg_vec *v, const pb_drbg_build *b, const pb_drbg_backend *bk, const void *prims,
                    uint8_t *out, const char **why)
{
    entropy_queue q = { .items = { &v->entropy } , .n = 1 };
    if (v->reseed) q.items[q.n++] = &v->entropy_reseed;
    if (v->pr) {
        q.items[q.n++] = &v->entropy_pr[0];
        q.items[q.n++] = &v->entropy_pr[1];
    }
    pb_drbg_config cfg;
    pb_drbg_config_init(&cfg, v->mech);
    cfg.use_df = v->use_df;
    cfg.prediction_resistance = v->pr;
    cfg.entropy = queue_entropy;
    cfg.entropy_arg = &q;
    cfg.prims = prims;
    pb_drbg d;
    int rc = b->instantiate(&d, bk, &cfg, v->nonce.p, v->nonce.n, v->pers.p, v->pers.n);
    if (!rc && v->reseed) rc = b->reseed(&d, v->addtl_reseed.p, v->addtl_reseed.n);
    for (int i = 0; i < 2 && !rc; i++)
        rc = b->generate(&d, out, v->expected.n, v->addtl[i].p, v->addtl[i].n, v->pr);
    b->uninstantiate(&d);
    if (rc) *why = pb_drbg_strerror(rc);
    return rc ? -1 : 0;
}

static int run_openssl(const drbg_vec *v, uint8_t *out, const char **why)
{
    pb_drbg_ossl *o = pb_drbg_ossl_new_test(v->mech, v->use_df, v->entropy.p, v->entropy.n, v->nonce.p, v->nonce.n,
                                            v->pers.p, v->pers.n, why);
    if (!o) return -1;
    int rc = 0;
    if (v->reseed) {
        rc = pb_drbg_ossl_feed(o, v->entropy_reseed.p, v->entropy_reseed.n) ||
             pb_drbg_ossl_reseed(o, v->addtl_reseed.p, v->addtl_reseed.n);
        if (rc) *why = "EVP_RAND_reseed failed";
    }
    for (int i = 0; i < 2 && !rc; i++) {
        if (v->pr) rc = pb_drbg_ossl_feed(o, v->entropy_pr[i].p, v->entropy_pr[i].n);
        rc = rc || pb_drbg_ossl_generate(o, out, v->expected.n, v->addtl[i].p, v->addtl[i].n, v->pr);
        if (rc) *why = "EVP_RAND_generate failed";
    }
    pb_drbg_ossl_free(o);
    return rc ? -1 : 0;
}

int drbg_vec_run(const drbg_vec *v, const char *impl, const char **why)
{
    *why = NULL;
    if (!strcmp(impl, "gcrypt"))
        return *why = "libgcrypt's DRBG cannot be seeded with given entropy through its public API", -1;
    if (v->expected.n > PB_DRBG_MAX_REQUEST) return *why = "ReturnedBits longer than one request", 0;
    uint8_t *out = malloc(v->expected.n ? v->expected.n : 1);
    if (!out) return *why = "out of memory", 0;
    int rc;
    const pb_drbg_backend *bk;
    const void *prims;
    const pb_drbg_build *b = drbg_impls_build(impl, &bk, &prims);
    if (b) rc = run_ours(v, b, bk, prims, out, why);
    else if (!strcmp(impl, "openssl")) {
        rc = run_openssl(v, out, why);
    } else rc = (*why = "unknown implementation", -1);
    int ok = rc == 0 && memcmp(out, v->expected.p, v->expected.n) == 0;
    if (rc == 0 && !ok) *why = "ReturnedBits mismatch";
    free(out);
    return ok;
}

/* ---------------------------------------------------------------- files */

int drbg_kat_accepts(const char *path)
{
    return pb_rsp_sniff(path, "DRBG") && pb_rsp_sniff(path, "[PredictionResistance");
}

typedef enum { FAM_UNKNOWN, FAM_HASH, FAM_HMAC } sha_family;

/* [SHA-256] alone does not say Hash_DRBG or HMAC_DRBG: the file's leading
 * comments do (our files, NIST's "# HMAC_DRBG ..."), else its name does. */
static sha_family family_of(const char *path, const char *shown)
{
    int hash = 0, hmac = 0;
    FILE *f = fopen(path, "r");
    if (f) {
        /* bounded lines, and any error or NUL ends the look: the record reader reports it */
        char *line = NULL;
        size_t cap = 0, n;
        while (pb_read_line(f, &line, &cap, PB_LINE_MAX, &n) > 0 && !memchr(line, 0, n) && line[0] != '[') {
            if (line[0] != '#') continue;
            if (strcasestr(line, "hash_drbg")) hash = 1;
            if (strcasestr(line, "hmac_drbg")) hmac = 1;
        }
        free(line);
        fclose(f);
    }
    if (hash != hmac) return hash ? FAM_HASH : FAM_HMAC;
    const char *base = strrchr(shown, '/');
    base = base ? base + 1 : shown;
    hash = strcasestr(base, "hash") != NULL;
    hmac = strcasestr(base, "hmac") != NULL;
    if (hash != hmac) return hash ? FAM_HASH : FAM_HMAC;
    return FAM_UNKNOWN;
}

/* The record's mechanism header: the one without '=' ("AES-128 use df", "SHA-256"). */
static const char *mech_header(const pb_rsp_rec *rec)
{
    for (int i = 0; i < rec->nhdrs; i++)
        if (!strchr(rec->hdr[i], '=')) return rec->hdr[i];
    return NULL;
}

/* 1 = implemented (mech, use_df set), 0 = a mechanism we do not implement. */
static int parse_mech(const char *h, sha_family fam, pb_drbg_mech *mech, int *use_df)
{
    *use_df = 1;
    if (!strcmp(h, "AES-128 use df")) return *mech = PB_DRBG_CTR_AES128, 1;
    if (!strcmp(h, "AES-256 use df")) return *mech = PB_DRBG_CTR_AES256, 1;
    *use_df = 0;
    if (!strcmp(h, "AES-128 no df")) return *mech = PB_DRBG_CTR_AES128, 1;
    if (!strcmp(h, "AES-256 no df")) return *mech = PB_DRBG_CTR_AES256, 1;
    *use_df = 1;
    if (!strcmp(h, "SHA-256") && fam != FAM_UNKNOWN)
        return *mech = fam == FAM_HASH ? PB_DRBG_HASH_SHA256 : PB_DRBG_HMAC_SHA256, 1;
    return 0;
}

typedef struct rec_bufs {
    uint8_t *p[12];
    int n;
} rec_bufs;

static void rec_bufs_free(rec_bufs *b)
{
    for (int i = 0; i < b->n; i++) free(b->p[i]);
    b->n = 0;
}

/* Field `name` (nth) as bytes; checks its length against the section's
 * [<lenhdr> = bits] when there is one. */
static int field(const pb_rsp *f, const pb_rsp_rec *rec, const char *name, int nth, const char *lenhdr,
                 drbg_bytes *out, rec_bufs *bufs, pb_err *e)
{
    uint8_t *p;
    long n = pb_rsp_hex(f, rec, name, nth, &p, e);
    if (n < 0) return -1;
    bufs->p[bufs->n++] = p;
    out->p = p;
    out->n = (size_t)n;
    const char *h = lenhdr ? pb_rsp_hdr(rec, lenhdr) : NULL;
    if (h) {
        const char *eq = strchr(h, '=');
        char *end;
        unsigned long bits = eq ? strtoul(eq + 1, &end, 10) : 0;
        if (!eq || *end) return pb_errf(e, "%s:%d: section header [%s] is not 'Name = bits'", pb_rsp_path(f),
                                        rec->line, h);
        if (bits != 8ul * (size_t)n) {
            const pb_rsp_field *fl = pb_rsp_field_of(rec, name, nth);
            return pb_errf(e, "%s:%d: %s has %ld bits but the section says [%s]", pb_rsp_path(f), fl->line, name,
                           8 * n, h);
        }
    }
    return 0;
}

/* Parse one record into v (pointing into bufs). -1 + e if malformed. */
static int parse_record(const pb_rsp *f, const pb_rsp_rec *rec, drbg_vec *v, rec_bufs *bufs, pb_err *e)
{
    if (field(f, rec, "EntropyInput", 0, "EntropyInputLen", &v->entropy, bufs, e) ||
        field(f, rec, "Nonce", 0, "NonceLen", &v->nonce, bufs, e) ||
        field(f, rec, "PersonalizationString", 0, "PersonalizationStringLen", &v->pers, bufs, e) ||
        field(f, rec, "AdditionalInput", 0, "AdditionalInputLen", &v->addtl[0], bufs, e) ||
        field(f, rec, "AdditionalInput", 1, "AdditionalInputLen", &v->addtl[1], bufs, e) ||
        field(f, rec, "ReturnedBits", 0, "ReturnedBitsLen", &v->expected, bufs, e))
        return -1;
    int has_ent = pb_rsp_get(rec, "EntropyInputReseed", 0) != NULL;
    int has_add = pb_rsp_get(rec, "AdditionalInputReseed", 0) != NULL;
    if (has_ent != has_add)
        return pb_errf(e, "%s:%d: record has %s without %s", pb_rsp_path(f), rec->line,
                       has_ent ? "EntropyInputReseed" : "AdditionalInputReseed",
                       has_ent ? "AdditionalInputReseed" : "EntropyInputReseed");
    v->reseed = has_ent;
    if (v->reseed && (field(f, rec, "EntropyInputReseed", 0, "EntropyInputLen", &v->entropy_reseed, bufs, e) ||
                      field(f, rec, "AdditionalInputReseed", 0, "AdditionalInputLen", &v->addtl_reseed, bufs, e)))
        return -1;
    if (v->pr && (field(f, rec, "EntropyInputPR", 0, "EntropyInputLen", &v->entropy_pr[0], bufs, e) ||
                  field(f, rec, "EntropyInputPR", 1, "EntropyInputLen", &v->entropy_pr[1], bufs, e)))
        return -1;
    return 0;
}

/* The impls a file is checked against: `impl` (a plug-in bench kat --plugin loaded, too), or
 * without --impl every built-in one of ours (the peers and plug-ins only when named). The count,
 * or -1 + e. */
static int kat_impls(const char *path, const char *impl, const char **impls, pb_err *e)
{
    int n = 0;
    if (impl) {
        if (!drbg_impls_find(impl))
            return pb_errf(e, "%s: the drbg suite has no implementation '%s' (old, new, old@native, new@native, "
                           "gcrypt, openssl)", path, impl);
        impls[n++] = impl;
    }
    for (size_t i = 0; !impl && i < drbg_impls_count() && n < PB_MAX_IMPLS; i++) {
        const drbg_impl *m = drbg_impls_at(i);
        if (m->build && !m->plugin) impls[n++] = m->name;
    }
    return n;
}

int drbg_kat_file(const char *path, const char *impl, pb_kat_result *r, FILE *log, pb_err *e)
{
    static int said_gcrypt;
    const char *impls[PB_MAX_IMPLS];
    int nimpls = kat_impls(path, impl, impls, e);
    if (nimpls < 0) return -1;

    pb_rsp *f = pb_rsp_open(path, e);
    if (!f) return -1;
    /* CAVP DRBG records give these twice (before and after the reseed / generate calls) */
    pb_rsp_allow_repeat(f, "AdditionalInput");
    pb_rsp_allow_repeat(f, "EntropyInputPR");
    const char *real_path = path;
    path = pb_rsp_path(f);
    sha_family fam = family_of(real_path, path);
    pb_rsp_rec rec;
    rec_bufs bufs = { .n = 0 };
    const char *last_skipped = NULL;
    char skipped_hdr[128] = "";
    int rc;
    while ((rc = pb_rsp_next(f, &rec, e)) > 0) {
        rec_bufs_free(&bufs);
        const char *mh = mech_header(&rec);
        if (!mh) { rc = pb_errf(e, "%s:%d: record outside a [mechanism] section", path, rec.line); break; }
        const char *prh = pb_rsp_hdr(&rec, "PredictionResistance");
        if (!prh) { rc = pb_errf(e, "%s:%d: section has no [PredictionResistance = ...] header", path, rec.line); break; }
        drbg_vec v = { .pr = strstr(prh, "True") != NULL };
        if (!v.pr && !strstr(prh, "False")) {
            rc = pb_errf(e, "%s:%d: [%s]: expected True or False", path, rec.line, prh);
            break;
        }
        if (!parse_mech(mh, fam, &v.mech, &v.use_df)) {
            if (!strcmp(mh, "SHA-256")) {
                rc = pb_errf(e, "%s:%d: [SHA-256] could be Hash_DRBG or HMAC_DRBG: name the mechanism in the "
                             "file's leading comments or its file name", path, rec.line);
                break;
            }
            /* A mechanism we do not implement (AES-192, SHA-1, SHA-512, TDEA...): skipped, said once per section. */
            if (!last_skipped || strcmp(skipped_hdr, mh)) {
                fprintf(log, "skipped: %s:%d: [%s] is not implemented by the drbg suite\n", path, rec.line, mh);
                snprintf(skipped_hdr, sizeof skipped_hdr, "%s", mh);
                last_skipped = skipped_hdr;
            }
            r->skipped += (unsigned long)nimpls;
            continue;
        }
        last_skipped = NULL;
        if (parse_record(f, &rec, &v, &bufs, e)) { rc = -1; break; }
        const char *count = pb_rsp_get(&rec, "COUNT", 0);
        for (int i = 0; i < nimpls; i++) {
            const char *why;
            int ok = drbg_vec_run(&v, impls[i], &why);
            if (ok < 0) {
                if (!strcmp(impls[i], "gcrypt") ? !said_gcrypt++ : 1)
                    fprintf(log, "skipped: %s:%d: %s: %s\n", path, rec.line, impls[i], why);
                r->skipped++;
            } else if (ok) {
                r->passed++;
            } else {
                fprintf(log, "FAIL %s:%d: [%s] COUNT = %s impl %s: %s\n", path, rec.line, mh, count ? count : "?",
                        impls[i], why);
                r->failed++;
            }
        }
    }
    rec_bufs_free(&bufs);
    pb_rsp_close(f);
    return rc < 0 ? -1 : 0;
}
