/* SPDX-License-Identifier: GPL-2.0-only */
/* xts_check.c — check one known answer against one XTS implementation.
 * Shared by the selftest (embedded vectors) and `bench kat` (.rsp files). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xts.h"
#include "xts_impls.h"
#include "xts_suite.h"

/* the first bytes of `got` in hex, for a failure line */
static void hex_prefix(char *out, size_t n, const uint8_t *got, size_t len)
{
    size_t k = 0;
    out[0] = 0;
    for (size_t i = 0; i < len && i < 16 && k + 3 < n; i++)
        k += (size_t)snprintf(out + k, n - k, "%02x", got[i]);
    if (len > 16 && k + 4 < n) snprintf(out + k, n - k, "...");
}

/* One direction: `in` -> `want`, out of place, then in place. */
static int check_direction(xts_request *req, int (*crypt)(xts_request *), const char *what,
                           const xts_vector *v, const uint8_t *in, const uint8_t *want,
                           uint8_t *buf, char *why, size_t n)
{
    uint8_t iv[16];
    char got[48];

    for (int in_place = 0; in_place < 2; in_place++) {
        memcpy(iv, v->iv, sizeof iv);
        if (in_place) memcpy(buf, in, v->len);
        else memset(buf, 0, v->len);
        xts_request_set_crypt(req, in_place ? buf : in, buf, v->len, iv);
        int err = crypt(req);
        if (err) {
            snprintf(why, n, "%s%s failed: %s", what, in_place ? " in place" : "", strerror(-err));
            return -1;
        }
        if (memcmp(buf, want, v->len) != 0) {
            hex_prefix(got, sizeof got, buf, v->len);
            snprintf(why, n, "%s%s gives a wrong result (got %s)", what, in_place ? " in place" : "", got);
            return -1;
        }
    }
    return 0;
}

xts_check_result xts_check_vector(const char *impl, const xts_vector *v, char *why, size_t n)
{
    xts_check_result res = XTS_CHECK_FAIL;
    xts_request *req = NULL;
    uint8_t *buf = NULL;
    int err;
    xts_tfm *tfm = xts_impls_alloc_tfm(impl, &err);

    if (!tfm) {
        snprintf(why, n, "cannot create the transform: %s", strerror(-err));
        return XTS_CHECK_FAIL;
    }
    err = xts_setkey(tfm, v->key, v->keylen);
    if (err == -EOPNOTSUPP || err == -EKEYREJECTED) {
        snprintf(why, n, "%s", err == -EOPNOTSUPP ? "no XTS with this key size" : "refuses K1 == K2");
        res = XTS_CHECK_SKIP;
        goto out;
    }
    if (err) {
        snprintf(why, n, "setkey (%zu bytes) failed: %s", v->keylen, strerror(-err));
        goto out;
    }
    req = xts_request_alloc(tfm);
    buf = malloc(v->len);
    if (!req || !buf) {
        snprintf(why, n, "out of memory");
        goto out;
    }
    if (check_direction(req, xts_encrypt, "encrypt", v, v->pt, v->ct, buf, why, n) == 0 &&
        check_direction(req, xts_decrypt, "decrypt", v, v->ct, v->pt, buf, why, n) == 0)
        res = XTS_CHECK_PASS;
out:
    free(buf);
    xts_request_free(req);
    xts_free_tfm(tfm);
    return res;
}
