/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg_selftest.c — built-in known answers and sanity checks per impl. */
#include "drbg_selftest.h"

#include <stdlib.h>
#include <string.h>

#include "drbg_gcrypt_lib.h"
#include "drbg_impls.h"
#include "drbg_kat.h"
#include "peers/drbg_peers.h"

/* Hex fields of one DRBGVS record (NULL = absent), copied from tests/vectors/drbg/. */
typedef struct hexvec {
    pb_drbg_mech mech;
    int use_df;
    const char *entropy, *nonce, *pers, *entropy_reseed, *addtl_reseed, *addtl1, *addtl2, *expected;
} hexvec;

static const hexvec vectors[] = {
    /* ctr_drbg_no_reseed.rsp:299 [AES-128 use df] COUNT = 1 */
    { PB_DRBG_CTR_AES128, 1, "c0701f9250758fcdf2be739880db66eb", "1468b4a5879c2da6", "8008aee8e96940c50873c79f8ecfe002",
      NULL, NULL,
      "f901f8167a1dffde8e3c83e24485e7fe",
      "171c0938c2389f97876055b48216627f",
      "97c0c0e5a0ccf24f3363488adb130a3589bf806562ee13957c33d37df407777a2b650b5f455c13f190777fc5043fcc1a38f8cd1bbbd557d14a4c2e8a2b491e5c" },
    /* ctr_drbg_pr_false.rsp:322 [AES-128 use df] COUNT = 0 */
    { PB_DRBG_CTR_AES128, 1, "e14ed7064a97814dd326b9a05bc44543", "876240c1f7de3dba", "26ccf56848a048721d0aad87d6fc65f0",
      "7ec4ac660fa0bbfa66ac3802e511901f", "8835d28e7f85a4e95087bdd1bb7ad57e",
      "2a9bd50bbb20fefe24649f5f80eede66",
      "f7ce3d5c6c381e56b25410c6909c1074",
      "d2f3130d309bed1da65545b9d793e035fd2564303d1fdcfb6c7fee019500d9f5d434fab2d3c8d15e39a25f965aaa804c7141407e90c4a86a6c8d303ce83bfb34" },
    /* ctr_drbg_no_reseed.rsp:987 [AES-128 no df] COUNT = 0 */
    { PB_DRBG_CTR_AES128, 0, "50b96542a1f2b8b05074051fe8fb0e45adbbd5560e3594e12d485fe1bfcb741f", "", "820c3030f97b3ead81a93b88b871937278fd3d711d2085d9280cba394673b17e",
      NULL, NULL,
      "1f1632058806d6d8e231288f3b15a3c324e90ccef4891bd595f09c3e80e27469",
      "5cadc8bfd86d2a5d44f921f64c7d153001b9bdd7caa6618639b948ebfad5cb8a",
      "02b76a66f103e98d450e25e09c35337747d987471d2b3d81e03be24c7e985417a32acd72bc0a6eddd9871410dacb921c659249b4e2b368c4ac8580fb5db559bc" },
    /* ctr_drbg_pr_false.rsp:1032 [AES-128 no df] COUNT = 2 */
    { PB_DRBG_CTR_AES128, 0, "897c097d815cb98e90d01d792ea4b36afa9037469512f03b3927b8952e908500", "", "761a0ea7d619f3ebc072bb799d7efbaafb54e8689d95f7ee57345607ae61a9c6",
      "868d7ffbe51bd12eb88b0b5dfb25df5d5dcb94764f054a3ae07680888bbf5e26", "59f8bb8b05abcbc25a404095055bac55d0dbd3ca41ecce177402dfd07404c38e",
      "a79802f985a1d1cd0d4ed8c6394ae53cab35423ebee2bc536a3866ed4965687a",
      "21b6ccaf45ae2e8d51d9636818a84680b38f9c2deb7a82040fd8f8b290316e4f",
      "99938411a854edfae36831f8870de39a170f236072c08fec936b7f7d7bd3abc3995616de965958c00c36030d57f6665632473b07ae78add2210f9561192e6994" },
    /* ctr_drbg_no_reseed.rsp:659 [AES-256 use df] COUNT = 0 */
    { PB_DRBG_CTR_AES256, 1, "87b56e964eba227154724bb9484b812d3e2c0c43b3d17f6098d9526e16e6d0ef", "9bea6a7ff2358df142e6c23e2157fb83", "9860b432edd58d1ccbfeecbce99ffaee7d935a614860d4e965bd67041403096b",
      NULL, NULL,
      "99a5cc87924e8ea65a596f81fd17d63f5b4542fe6e8e1511b5d35c835dfadb0b",
      "9a8dec54734a34582a2332f3452e82313524c3e0dfb485faeac6ca5fc0ff504d",
      "dbc6a2330b19b5cddd8cd6392ec1fb508678c805e87d1aca07ac265007632503044a00610c79d98375afa7ab4cca1a90989cbfe7c674af5d823ced11c47e9af6" },
    /* ctr_drbg_pr_false.rsp:702 [AES-256 use df] COUNT = 0 */
    { PB_DRBG_CTR_AES256, 1, "174b46250051a9e3d80c56ae7163dafe7e54481a56cafd3b8625f99bbb29c442", "98ffd99c466e0e94a45da7e0e82dbc6b", "7095268e99938b3e042734b9176c9aa051f00a5f8d2a89ada214b89beef18ebf",
      "e88be1967c5503f65d23867bbc891bd679db03b4878663f6c877592df25f0d9a", "cdf6ad549e45b6aa5cd67d024931c33cd133d52d5ae500c3015020beb30da063",
      "c7228e90c62f896a09e11684530102f926ec90a3255f6c21b857883c75800143",
      "76a94f224178fe4cbf9e2b8acc53c9dc3e50bb613aac8936601453cda3293b17",
      "1a6d8dbd642076d13916e5e23038b60b26061f13dd4e006277e0268698ffb2c87e453bae1251631ac90c701a9849d933995e8b0221fe9aca1985c546c2079027" },
    /* ctr_drbg_no_reseed.rsp:1299 [AES-256 no df] COUNT = 1 */
    { PB_DRBG_CTR_AES256, 0, "ca0ab9b22d0df4e680daa8dbab562c594bd079c394647af39dc1c616a6bd85c58f2d52a02f4b02435bbde80b33d405ed", "", "1695f83ec7f4f1742b7f13eb62cbbf17804965ed0acd3f0fba0cafc3cd55f306800339baf2567bb84fc37ca30ae2205d",
      NULL, NULL,
      "6f88faa9304a915b2b1988d4089bf0da10bf9f4dfa2fe3ccb1cd21202c06919c142d41324e51a5aefeefd05a664f701b",
      "135ead8f090344d1e967e720cbd6756d3b11e390cf2078bcfa5344944685a7590faa52242a207d0b9f33e2fc14c5a61e",
      "7f7e6f089722a06b741b385cdff7902f04f2e72dca7cbb64d6a4f373a9f693ec42fff76d11488ba86a3acc0395c02b7301249d02257da94e60f8ef9a3d844307" },
    /* ctr_drbg_pr_false.rsp:1352 [AES-256 no df] COUNT = 4 */
    { PB_DRBG_CTR_AES256, 0, "86b4437092cd13f427431ff7b55d3b9fd87326415fbacbd66eeb6c43a490c0fe3398837776788f67727d632a603bdf2a", "", "e236ba93937034ae24f18f4ebd134179a35d2569cf2baf0af430547bc5e2ec4f6db336bfa88d181970675875e5fbe1ab",
      "164084c70f3bbb159b82f13ed3d813fa7a07756a96037be06b55611d98fce609872e65507b99b503b0959cad84372aa9", "aa7ee7fec74223dda7304e43aefa8ceb5144db04d98b7392ab097005a3a12387ee1bbe3662a0bd277878855ac892dc94",
      "ec19a5d7d66a6034ef83ffdb24ac54e9d3d38f0517ed7edbb9a3acb648e4c4b02f974875cd3149b37432ae5d3b0d90ee",
      "98ea0624bfc95d0c0f7b810c464ef22e94c12392df5414cf6e6201c2d7db2e8570f09541334db0f1358b5c0fa2cf6d77",
      "a27facdbdbf49e64b55390beb35260a0713ab913d7e5a08aaf01e83cc94503e32d6a44a770f7a9ef6d3a9f96d3a33859d568dbf3e856fd91177a05fbf99dc4fb" },
    /* hash_drbg_sha256_no_reseed.rsp:211 [SHA-256] COUNT = 0 */
    { PB_DRBG_HASH_SHA256, 1, "68c43a008fe46a823d260a9d7fa388fb9e401f0197e7e758a744b4babb3f4651", "eb6825777856331884aaf3751b3e4006", "23ce0d32cbf2d26467f0d62acff1a3acbaa6d2746dc3ee7aa9d32c880788afc8",
      NULL, NULL,
      "a31b9f13b58d4fa2f8d8ac42b62a207ff647339a146bd8b268b33d4aff57adbd",
      "d34fc6504eca4b568193c75357b0d3821a48c77ff80d6dbd21c6cf045ff489cf",
      "abb4ecbacd4e8fa943c7221aed433861c3b203232657ec4c417d021f905d911db1058ff1e11e272232482ec96bae7cb4efc135502dbe41724077077f6de79b713670c385d04644e1281c3e582e0016255abbe5f8c06d0de57160559f0c08f7fb5be3563c649966190f8d3261364447537de2c7371c6e8c308933d27145bf90ab" },
    /* hash_drbg_sha256_pr_false.rsp:322 [SHA-256] COUNT = 0 */
    { PB_DRBG_HASH_SHA256, 1, "6c623aea73bc8a59e28c6cd9c7c7ec8ca2e75190bd5dcae5978cf0c199c23f4f", "e55db067a0ed537e66886b7cda02f772", "1e59d798810083d1ff848e90b25c9927e3dfb55a0888b0339566a9f9ca7542dc",
      "9ab40164744c7d00c78b4196f6f917ec33d70030a0812cd4606c5a25387568a9", "4e8bead7cbba7a7bc9ae1e1617222c4139661347599950e7225d1e2faa5d57f5",
      "dcb22a5d9f149858636f3ede2253e419816fb7b1103194451ed6a573a8fe6271",
      "8f9d5c78cdabc32e71ac3b3c49239caddf96053250f4fd92056efbd0be487d36",
      "6e98a3b1f686f6ffa79355c9d8a5ab7f93312159d52659a2298315f10007c71adabc0b5ccb4164c0949fbdb221b43acdb62bed3099596f2d7bd5d0048173dd2360a543b234ab61a441ddb9299af84ca45c6e618fd521366dbf509d4ec06174da924361d642b107e5564ac1b32340dd2f3158bf4c00bcb4dcf12c6d67af4b74ee" },
    /* hmac_drbg_sha256_no_reseed.rsp:597 [SHA-256] COUNT = 0 */
    { PB_DRBG_HMAC_SHA256, 1, "5d3286bc53a258a53ba781e2c4dcd79a790e43bbe0e89fb3eed39086be34174b", "c5422294b7318952ace7055ab7570abf", "2dba094d008e150d51c4135bb2f03dcde9cbf3468a12908a1b025c120c985b9d",
      NULL, NULL,
      "793a7ef8f6f0482beac542bb785c10f8b7b406a4de92667ab168ecc2cf7573c6",
      "2238cdb4e23d629fe0c2a83dd8d5144ce1a6229ef41dabe2a99ff722e510b530",
      "d04678198ae7e1aeb435b45291458ffde0891560748b43330eaf866b5a6385e74c6fa5a5a44bdb284d436e98d244018d6acedcdfa2e9f499d8089e4db86ae89a6ab2d19cb705e2f048f97fb597f04106a1fa6a1416ad3d859118e079a0c319eb95686f4cbcce3b5101c7a0b010ef029c4ef6d06cdfac97efb9773891688c37cf" },
    /* hmac_drbg_sha256_pr_false.rsp:542 [SHA-256] COUNT = 0 */
    { PB_DRBG_HMAC_SHA256, 1, "cdb0d9117cc6dbc9ef9dcb06a97579841d72dc18b2d46a1cb61e314012bdf416", "d0c0d01d156016d0eb6b7e9c7c3c8da8", "6f0fb9eab3f9ea7ab0a719bfa879bf0aaed683307fda0c6d73ce018b6e34faaa",
      "8ec6f7d5a8e2e88f43986f70b86e050d07c84b931bcf18e601c5a3eee3064c82", "1ab4ca9014fa98a55938316de8ba5a68c629b0741bdd058c4d70c91cda5099b3",
      "16e2d0721b58d839a122852abd3bf2c942a31c84d82fca74211871880d7162ff",
      "53686f042a7b087d5d2eca0d2a96de131f275ed7151189f7ca52deaa78b79fb2",
      "dda04a2ca7b8147af1548f5d086591ca4fd951a345ce52b3cd49d47e84aa31a183e31fbc42a1ff1d95afec7143c8008c97bc2a9c091df0a763848391f68cb4a366ad89857ac725a53b303ddea767be8dc5f605b1b95f6d24c9f06be65a973a089320b3cc42569dcfd4b92b62a993785b0301b3fc452445656fce22664827b88f" },
};

static int unhex(const char *hex, drbg_bytes *b, uint8_t **keep)
{
    b->p = NULL;
    b->n = 0;
    if (!hex) return 0;
    size_t n;
    uint8_t *p = pb_unhex_alloc(hex, &n);
    if (!p) return -1;
    *keep = p;
    b->p = p;
    b->n = n;
    return 0;
}

/* 1 passed, 0 failed (why), -1 cannot run (why). */
static int run_hexvec(const hexvec *h, const char *impl, const char **why)
{
    uint8_t *keep[8] = { 0 };
    drbg_vec v = { .mech = h->mech, .use_df = h->use_df, .reseed = h->entropy_reseed != NULL };
    int bad = unhex(h->entropy, &v.entropy, &keep[0]) | unhex(h->nonce, &v.nonce, &keep[1]) |
              unhex(h->pers, &v.pers, &keep[2]) | unhex(h->entropy_reseed, &v.entropy_reseed, &keep[3]) |
              unhex(h->addtl_reseed, &v.addtl_reseed, &keep[4]) | unhex(h->addtl1, &v.addtl[0], &keep[5]) |
              unhex(h->addtl2, &v.addtl[1], &keep[6]) | unhex(h->expected, &v.expected, &keep[7]);
    int rc = bad ? (*why = "bad embedded vector", 0) : drbg_vec_run(&v, impl, why);
    for (int i = 0; i < 8; i++) free(keep[i]);
    return rc;
}

/* Output that a working DRBG cannot plausibly produce: all one byte value, or
 * the same block twice. */
static const char *implausible(const uint8_t *a, const uint8_t *b, size_t n)
{
    size_t same = 0;
    for (size_t i = 1; i < n; i++) same += a[i] == a[0];
    if (same == n - 1) return "output is one repeated byte";
    if (!memcmp(a, b, n)) return "two requests returned the same output";
    return NULL;
}

static int sanity(const char *impl, pb_drbg_mech mech, pb_err *e)
{
    uint8_t a[64], b[64];
    const char *why = NULL;
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    drbg_gcrypt_lib *lib = drbg_gcrypt_lib_find(impl);
    if (lib) {
        if (!drbg_gcrypt_lib_reinit(lib, mech, &why)) {
            drbg_gcrypt_lib_generate(lib, a, sizeof a);
            drbg_gcrypt_lib_generate(lib, b, sizeof b);
        }
    } else if (!strcmp(impl, "gcrypt")) {
        if (!pb_drbg_gcrypt_reinit(mech, &why)) {
            pb_drbg_gcrypt_generate(a, sizeof a);
            pb_drbg_gcrypt_generate(b, sizeof b);
        }
    } else {
        pb_drbg_ossl *o = pb_drbg_ossl_new(mech, NULL, 0, &why);
        if (o && (pb_drbg_ossl_generate(o, a, sizeof a, NULL, 0, 0) || pb_drbg_ossl_generate(o, b, sizeof b, NULL, 0, 0)))
            why = "EVP_RAND_generate failed";
        pb_drbg_ossl_free(o);
    }
    if (!why) why = implausible(a, b, sizeof a);
    if (why) return pb_errf(e, "drbg selftest %s %s: %s", impl, pb_drbg_info_of(mech)->name, why);
    return 0;
}

int drbg_selftest(const char *impl, pb_err *e)
{
    const pb_drbg_backend *bk;
    const void *prims;
    int kat = drbg_impls_build(impl, &bk, &prims) || !strcmp(impl, "openssl");
    drbg_gcrypt_lib *lib = drbg_gcrypt_lib_find(impl);
    /* a libgcrypt build by path: its own self-test, then the same sanity checks as gcrypt's */
    if (lib && drbg_gcrypt_lib_selftest_ctl(lib, e) < 0) return -1;
    if (!kat && !lib && strcmp(impl, "gcrypt")) return pb_errf(e, "drbg selftest: unknown implementation '%s'", impl);
    for (size_t i = 0; kat && i < sizeof vectors / sizeof vectors[0]; i++) {
        const char *why;
        int rc = run_hexvec(&vectors[i], impl, &why);
        if (rc != 1)
            return pb_errf(e, "drbg selftest %s: %s%s vector %zu: %s", impl, pb_drbg_info_of(vectors[i].mech)->name,
                           vectors[i].use_df ? "" : " no df", i, why ? why : "failed");
    }
    if (lib || !strcmp(impl, "gcrypt") || !strcmp(impl, "openssl"))
        for (int m = 0; m < PB_DRBG_NMECH; m++)
            if (sanity(impl, (pb_drbg_mech)m, e)) return -1;
    return 0;
}
