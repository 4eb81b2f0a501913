/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg_ctr_blocks.c — a third DRBG backend as a drbg plug-in (include/patchbench/drbg_plugin.h):
 * new's persistent, keyed-once handles, but CTR_DRBG output produced block by block, as before
 * the patch, through the persistent ECB handle (E(K, V+1), E(K, V+2), ... XORed in), instead
 * of libgcrypt's CTR mode.
 *
 * Why it is worth having: 20886fdc did two things at once for CTR_DRBG, keep the handles and
 * switch to CTR mode. old vs this isolates the first, this vs new the second.
 *
 * The one ECB handle serves the derivation function (keyed by block_setkey at every BCC run)
 * and the output (keyed with K here): the DRBG never interleaves the two (the df runs to
 * completion before update/generate use K), so ctr re-keys it with K once per call. That
 * setkey per request is the price of one handle; new pays none, old one per block.
 * Hash and HMAC: new's, unchanged. */
#include <string.h>

#include <gcrypt.h>

#include "patchbench/drbg_plugin.h"

#define BLOCK 16
#define H_ECB 0       /* new's slot for its ECB handle (impls/new/drbg_prim.c) */
#define K_CTR 2       /* d->prim.key[K_CTR]: the state key K, applied at every ctr call */

#define EXPORT __attribute__((visibility("default")))

static pb_drbg_backend backend;

static int ctr_setkey(pb_drbg *d, const uint8_t *key)
{
    memcpy(d->prim.key[K_CTR], key, d->info->keylen);
    return 0;
}

static int ctr(pb_drbg *d, uint8_t *out, const uint8_t *in, size_t n)
{
    gcry_cipher_hd_t h = d->prim.h[H_ECB];
    if (gcry_cipher_setkey(h, d->prim.key[K_CTR], d->info->keylen)) return -1;
    uint8_t ks[BLOCK];
    for (size_t off = 0; off < n; off += BLOCK) {
        pb_drbg_be_add(d->V, BLOCK, 1);
        if (gcry_cipher_encrypt(h, ks, BLOCK, d->V, BLOCK)) return -1;
        size_t k = n - off < BLOCK ? n - off : BLOCK;
        for (size_t i = 0; i < k; i++) out[off + i] = (uint8_t)((in ? in[off + i] : 0) ^ ks[i]);
    }
    return 0;
}

static const pb_drbg_plugin plugin = {
    .abi_version = PB_DRBG_PLUGIN_ABI_VERSION,
    .backend = &backend,
};

EXPORT const unsigned pb_drbg_plugin_abi_version = PB_DRBG_PLUGIN_ABI_VERSION;

EXPORT const pb_drbg_plugin *pb_drbg_plugin_entry(const pb_drbg_host *host)
{
    if (host->abi_version != PB_DRBG_PLUGIN_ABI_VERSION) return NULL;
    backend = *host->backend_new;
    backend.name = "ctr_blocks";
    backend.ctr_setkey = ctr_setkey;
    backend.ctr = ctr;
    return &plugin;
}
