/* SPDX-License-Identifier: GPL-2.0-only */
/* xts_kat.c — `bench kat` for NIST CAVP XTSGen-style .rsp files.
 *
 * Record fields: COUNT (for messages), DataUnitLen (bits), Key (Key1||Key2,
 * 32/48/64 bytes), the tweak as either `i` (16 bytes, hex, used as the IV
 * as given) or `DataUnitSeqNumber` (decimal j; tweak = j as a 128-bit
 * little-endian integer, IEEE 1619 5.1 / dm-crypt plain64), PT and CT.
 * Records sit in an [ENCRYPT] or [DECRYPT] section; every record is checked
 * in both directions either way.
 *
 * Counting: one record x one implementation = one pass, fail or skip.
 * Skipped: data units that are not a multiple of 128 bits (the 2018 code has
 * no ciphertext stealing) and keys an implementation refuses (openssl:
 * 2 x 192 and K1 == K2). Malformed records stop the file with file:line. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "common/xts.h"
#include "rsp.h"
#include "xts_impls.h"
#include "xts_suite.h"

typedef struct kat_record {
    const char *count;
    const char *section;       /* "ENCRYPT" / "DECRYPT" */
    unsigned long bits;        /* DataUnitLen */
    uint8_t *key, *pt, *ct;
    size_t keylen;
    xts_vector v;
} kat_record;

int xts_suite_kat_accepts(const char *path)
{
    /* the field name is CAVP XTSGen's own; no other suite's files use it */
    return pb_rsp_sniff(path, "DataUnitLen");
}

static int field_error(const pb_rsp *f, const pb_rsp_rec *rec, const char *name, const char *what, pb_err *e)
{
    const pb_rsp_field *fl = pb_rsp_field_of(rec, name, 0);
    return pb_errf(e, "%s:%d: %s %s", pb_rsp_path(f), fl ? fl->line : rec->line, name, what);
}

/* A non-empty run of decimal digits into a 128-bit little-endian integer. */
static int parse_le128_decimal(const char *s, uint8_t out[16])
{
    memset(out, 0, 16);
    if (!*s) return -1;
    for (; *s; s++) {
        if (!isdigit((unsigned char)*s)) return -1;
        unsigned carry = (unsigned)(*s - '0');
        for (int i = 0; i < 16; i++) {
            unsigned v = out[i] * 10u + carry;
            out[i] = (uint8_t)v;
            carry = v >> 8;
        }
        if (carry) return -1;   /* does not fit in 128 bits */
    }
    return 0;
}

static int parse_bits(const char *s, unsigned long *bits)
{
    char *end;
    if (!s || !isdigit((unsigned char)*s)) return -1;
    *bits = strtoul(s, &end, 10);
    return *end || *bits > (1ul << 24) ? -1 : 0;   /* 2 MiB: far beyond any data unit here */
}

static void record_free(kat_record *k)
{
    free(k->key);
    free(k->pt);
    free(k->ct);
}

static int parse_record(const pb_rsp *f, const pb_rsp_rec *rec, kat_record *k, pb_err *e)
{
    const char *path = pb_rsp_path(f);
    long n;

    memset(k, 0, sizeof *k);
    k->section = pb_rsp_hdr(rec, "ENCRYPT") ? "ENCRYPT" : pb_rsp_hdr(rec, "DECRYPT") ? "DECRYPT" : NULL;
    if (!k->section)
        return pb_errf(e, "%s:%d: record outside an [ENCRYPT] or [DECRYPT] section", path, rec->line);
    k->count = pb_rsp_get(rec, "COUNT", 0);
    if (!k->count) k->count = "?";

    const char *dul = pb_rsp_get(rec, "DataUnitLen", 0);
    if (!dul) return pb_errf(e, "%s:%d: record has no field 'DataUnitLen'", path, rec->line);
    if (parse_bits(dul, &k->bits) < 0) return field_error(f, rec, "DataUnitLen", "is not a number of bits", e);
    size_t bytes = (k->bits + 7) / 8;

    if ((n = pb_rsp_hex(f, rec, "Key", 0, &k->key, e)) < 0) return -1;
    k->keylen = (size_t)n;
    if (k->keylen != 32 && k->keylen != 48 && k->keylen != 64)
        return field_error(f, rec, "Key", "must be 32, 48 or 64 bytes (Key1||Key2 = 2 x AES-128/192/256)", e);

    const char *seqno = pb_rsp_get(rec, "DataUnitSeqNumber", 0);
    if (pb_rsp_get(rec, "i", 0)) {
        if (pb_unhex(pb_rsp_get(rec, "i", 0), k->v.iv, sizeof k->v.iv) != 16)
            return field_error(f, rec, "i", "must be a 16-byte hex string (the tweak)", e);
    } else if (seqno) {
        if (parse_le128_decimal(seqno, k->v.iv) < 0)
            return field_error(f, rec, "DataUnitSeqNumber", "must be a decimal number below 2^128", e);
    } else {
        return pb_errf(e, "%s:%d: record has neither a tweak 'i' nor a 'DataUnitSeqNumber'", path, rec->line);
    }

    if ((n = pb_rsp_hex(f, rec, "PT", 0, &k->pt, e)) < 0) return -1;
    if ((size_t)n != bytes) return field_error(f, rec, "PT", "length does not match DataUnitLen", e);
    if ((n = pb_rsp_hex(f, rec, "CT", 0, &k->ct, e)) < 0) return -1;
    if ((size_t)n != bytes) return field_error(f, rec, "CT", "length does not match DataUnitLen", e);

    k->v.key = k->key;
    k->v.keylen = k->keylen;
    k->v.pt = k->pt;
    k->v.ct = k->ct;
    k->v.len = bytes;
    return 0;
}

static void check_record(const char *path, const pb_rsp_rec *rec, const kat_record *k, const char *impl,
                         pb_kat_result *r, FILE *log)
{
    char why[200];

    /* 2018 xts: whole 16-byte blocks only, no ciphertext stealing */
    if (k->bits == 0 || k->bits % 128) {
        r->skipped++;
        return;
    }
    switch (xts_check_vector(impl, &k->v, why, sizeof why)) {
    case XTS_CHECK_PASS: r->passed++; break;
    case XTS_CHECK_SKIP: r->skipped++; break;
    default:
        r->failed++;
        fprintf(log, "%s:%d: FAIL impl %s COUNT %s [%s]: %s\n", path, rec->line, impl, k->count, k->section, why);
    }
}

int xts_suite_kat_file(const char *path, const char *impl, pb_kat_result *r, FILE *log, pb_err *e)
{
    if (impl && xts_suite_check_impl(impl, e)) return -1;
    pb_rsp *f = pb_rsp_open(path, e);
    if (!f) return -1;

    pb_rsp_rec rec;
    kat_record k;
    int rc;
    while ((rc = pb_rsp_next(f, &rec, e)) > 0) {
        if (parse_record(f, &rec, &k, e) < 0) {
            record_free(&k);
            rc = -1;
            break;
        }
        if (impl)
            check_record(pb_rsp_path(f), &rec, &k, impl, r, log);
        else
            for (size_t i = 0; i < xts_impls_count(); i++)
                check_record(pb_rsp_path(f), &rec, &k, xts_impls_at(i)->name, r, log);
        record_free(&k);
    }
    pb_rsp_close(f);
    return rc < 0 ? -1 : 0;
}
