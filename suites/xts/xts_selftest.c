/* SPDX-License-Identifier: GPL-2.0-only */
/* xts_selftest.c — built-in known answers for every XTS implementation.
 *
 * IEEE Std 1619-2007 Annex B vectors 1, 2, 4 (2 x AES-128) and 10
 * (2 x AES-256), and one 2 x AES-192 vector (IEEE 1619 has none; generated,
 * cross-checked with libgcrypt: tests/vectors/xts/xts_aes192_generated.rsp
 * COUNT 4). Vector 1 has K1 == K2 == 0: the 2018 kernel (and so old and new)
 * accepts it; OpenSSL refuses it and 2 x 192, and skips those. The 512-byte
 * vectors take old through several 128-byte chunks (old-nomem) or one
 * allocated buffer (old). Each vector runs both directions, out of place and
 * in place. */
#include <stdlib.h>
#include <string.h>

#include "xts_suite.h"

typedef struct selftest_vector {
    const char *name;
    const char *key, *iv;
    const char *pt;            /* NULL: the IEEE counting pattern, byte i = i mod 256 */
    size_t len;
    const char *ct;
} selftest_vector;

static const selftest_vector vectors[] = {
    { "IEEE 1619 vector 1 (2x128, K1 == K2)",
      "0000000000000000000000000000000000000000000000000000000000000000",
      "00000000000000000000000000000000",
      "0000000000000000000000000000000000000000000000000000000000000000", 32,
      "917cf69ebd68b2ec9b9fe9a3eadda692cd43d2f59598ed858c02c2652fbf922e" },
    { "IEEE 1619 vector 2 (2x128)",
      "1111111111111111111111111111111122222222222222222222222222222222",
      "33333333330000000000000000000000",
      "4444444444444444444444444444444444444444444444444444444444444444", 32,
      "c454185e6a16936e39334038acef838bfb186fff7480adc4289382ecd6d394f0" },
    { "IEEE 1619 vector 4 (2x128, 512 bytes)",
      "2718281828459045235360287471352631415926535897932384626433832795",
      "00000000000000000000000000000000",
      NULL, 512,
        "27a7479befa1d476489f308cd4cfa6e2a96e4bbe3208ff25287dd3819616e89cc78cf7f5e543445f8333d8fa7f560000"
        "05279fa5d8b5e4ad40e736ddb4d35412328063fd2aab53e5ea1e0a9f332500a5df9487d07a5c92cc512c8866c7e860ce"
        "93fdf166a24912b422976146ae20ce846bb7dc9ba94a767aaef20c0d61ad02655ea92dc4c4e41a8952c651d33174be51"
        "a10c421110e6d81588ede82103a252d8a750e8768defffed9122810aaeb99f9172af82b604dc4b8e51bcb08235a6f434"
        "1332e4ca60482a4ba1a03b3e65008fc5da76b70bf1690db4eae29c5f1badd03c5ccf2a55d705ddcd86d449511ceb7ec3"
        "0bf12b1fa35b913f9f747a8afd1b130e94bff94effd01a91735ca1726acd0b197c4e5b03393697e126826fb6bbde8ecc"
        "1e08298516e2c9ed03ff3c1b7860f6de76d4cecd94c8119855ef5297ca67e9f3e7ff72b1e99785ca0a7e7720c5b36dc6"
        "d72cac9574c8cbbc2f801e23e56fd344b07f22154beba0f08ce8891e643ed995c94d9a69c9f1b5f499027a78572aeebd"
        "74d20cc39881c213ee770b1010e4bea718846977ae119f7a023ab58cca0ad752afe656bb3c17256a9f6e9bf19fdd5a38"
        "fc82bbe872c5539edb609ef4f79c203ebb140f2e583cb2ad15b4aa5b655016a8449277dbd477ef2c8d6c017db738b18d"
        "eb4a427d1923ce3ff262735779a418f20a282df920147beabe421ee5319d0568" },
    { "IEEE 1619 vector 10 (2x256, 512 bytes)",
      "27182818284590452353602874713526624977572470936999595749669676273141592653589793238462643383279502884197169399375105820974944592",
      "ff000000000000000000000000000000",
      NULL, 512,
        "1c3b3a102f770386e4836c99e370cf9bea00803f5e482357a4ae12d414a3e63b5d31e276f8fe4a8d66b317f9ac683f44"
        "680a86ac35adfc3345befecb4bb188fd5776926c49a3095eb108fd1098baec70aaa66999a72a82f27d848b21d4a741b0"
        "c5cd4d5fff9dac89aeba122961d03a757123e9870f8acf1000020887891429ca2a3e7a7d7df7b10355165c8b9a6d0a7d"
        "e8b062c4500dc4cd120c0f7418dae3d0b5781c34803fa75421c790dfe1de1834f280d7667b327f6c8cd7557e12ac3a0f"
        "93ec05c52e0493ef31a12d3d9260f79a289d6a379bc70c50841473d1a8cc81ec583e9645e07b8d9670655ba5bbcfecc6"
        "dc3966380ad8fecb17b6ba02469a020a84e18e8f84252070c13e9f1f289be54fbc481457778f616015e1327a02b140f1"
        "505eb309326d68378f8374595c849d84f4c333ec4423885143cb47bd71c5edae9be69a2ffeceb1bec9de244fbe15992b"
        "11b77c040f12bd8f6a975a44a0f90c29a9abc3d4d893927284c58754cce294529f8614dcd2aba991925fedc4ae74ffac"
        "6e333b93eb4aff0479da9a410e4450e0dd7ae4c6e2910900575da401fc07059f645e8b7e9bfdef33943054ff84011493"
        "c27b3429eaedb4ed5376441a77ed43851ad77f16f541dfd269d50d6a5f14fb0aab1cbb4c1550be97f7ab4066193c4caa"
        "773dad38014bd2092fa755c824bb5e54c4f36ffda9fcea70b9c6e693e148c151" },
    { "generated 2x192 vector (xts_aes192_generated.rsp COUNT 4)",
      "cc89e35a998fc65afc47b831b1039cd0a6506cc76807e95435d98f712fd8d03f18524d1cc2fe0be33cc425a4fe7d154f",
      "aeba7e2753b5b773e481c8904572940a",
      "bc671eb5597e24b87083f8d0008b5141cba5e79e7a4cfbac58f3f0530f2d4402", 32,
      "01f2b69afa7dc7cd562fd653413210e5a7dea77613bccad116244652ac3b6972" },
};

#define NVECTORS (sizeof vectors / sizeof vectors[0])

static int run_vector(const char *impl, const selftest_vector *sv, int *ran, pb_err *e)
{
    uint8_t key[64], pt[512], ct[512];
    xts_vector v = { .key = key, .pt = pt, .ct = ct, .len = sv->len };
    char why[160];

    long keylen = pb_unhex(sv->key, key, sizeof key);
    if (keylen < 0 || pb_unhex(sv->iv, v.iv, sizeof v.iv) != 16 ||
        pb_unhex(sv->ct, ct, sizeof ct) != (long)sv->len ||
        (sv->pt && pb_unhex(sv->pt, pt, sizeof pt) != (long)sv->len))
        return pb_errf(e, "xts selftest: %s: the embedded vector is broken", sv->name);
    if (!sv->pt)
        for (size_t i = 0; i < sv->len; i++) pt[i] = (uint8_t)i;
    v.keylen = (size_t)keylen;

    switch (xts_check_vector(impl, &v, why, sizeof why)) {
    case XTS_CHECK_PASS: ++*ran; return 0;
    case XTS_CHECK_SKIP: return 0;
    default: return pb_errf(e, "xts selftest: %s: %s: %s", impl, sv->name, why);
    }
}

int xts_suite_selftest(const char *impl, pb_err *e)
{
    int ran = 0;

    if (xts_suite_check_impl(impl, e)) return -1;
    for (size_t i = 0; i < NVECTORS; i++)
        if (run_vector(impl, &vectors[i], &ran, e)) return -1;
    if (!ran) return pb_errf(e, "xts selftest: %s: accepted none of the built-in vectors", impl);
    return 0;
}
