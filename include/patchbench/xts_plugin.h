/* SPDX-License-Identifier: GPL-2.0-only */
/* patchbench/xts_plugin.h — the plug-in ABI of the xts suite, version 1 (frozen).
 *
 * A plug-in is a shared object holding one XTS template, loaded by
 *   bench run --suite xts --plugin NAME=PATH.so
 * and timed as impl NAME in every cell beside old and new, over the same child ecb(aes)
 * (so it pays the same modelled child-call cost) and the same transform set-up.
 *
 * It exports two symbols:
 *   const unsigned pb_xts_plugin_abi_version = PB_XTS_PLUGIN_ABI_VERSION;
 *       read BEFORE anything of the plug-in is called: a plug-in built against another
 *       version of this header is refused (exit 2), never called.
 *   const pb_xts_plugin *pb_xts_plugin_entry(const pb_xts_host *host);
 *       called once; returns the template (its xts_alg), or NULL to refuse. `host` stays
 *       valid for the life of the process: keep the pointer.
 *
 * Version 1 is the xts_alg/xts_tfm/xts_request of impls/common/xts.h, the transform
 * context `struct priv` of impls/common/xts_tmpl.h (child ECB keyed with Key1, tweak cipher
 * keyed with Key2) and the xts_ecb_request of impls/common/xts_aes.h, as they are at this
 * version, plus the pb_xts_host table below. A change to any of them bumps the version.
 *
 * Before a plug-in is timed, bench runs the suite's whole built-in known-answer self-test
 * on it in a child process (so a crash cannot take bench down); it is refused, with the
 * failing vector named, if one fails. Examples: examples/xts_window/. */
#ifndef PATCHBENCH_XTS_PLUGIN_H
#define PATCHBENCH_XTS_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#include "common/xts_tmpl.h"

#define PB_XTS_PLUGIN_ABI_VERSION 1u
#define PB_XTS_PLUGIN_ABI_SYMBOL "pb_xts_plugin_abi_version"
#define PB_XTS_PLUGIN_ENTRY_SYMBOL "pb_xts_plugin_entry"

/* What bench gives a plug-in: the code old and new share, so that a third template differs
 * from them only in its request path. Every function returns 0 or a negative errno. */
typedef struct pb_xts_host {
    unsigned abi_version;                                         /* PB_XTS_PLUGIN_ABI_VERSION */
    /* the templates' init_tfm/exit_tfm/setkey: ctxsize must be sizeof(struct priv) */
    int (*tmpl_init_tfm)(xts_tfm *tfm);
    void (*tmpl_exit_tfm)(xts_tfm *tfm);
    int (*tmpl_setkey)(xts_tfm *tfm, const uint8_t *key, size_t keylen);
    /* one child request (ecb(aes), Key1), modelled cost included; counted in tfm stats */
    int (*child_encrypt)(xts_ecb_request *subreq);
    int (*child_decrypt)(xts_ecb_request *subreq);
    /* T_0 = AES-Enc(Key2, IV): dst and src are one 16-byte block */
    int (*tweak_encrypt_one)(xts_cipher *tweak, uint8_t *dst, const uint8_t *src);
} pb_xts_host;

typedef struct pb_xts_plugin {
    unsigned abi_version;      /* PB_XTS_PLUGIN_ABI_VERSION, again */
    const xts_alg *alg;        /* name/driver are for reports; bench times it as NAME */
} pb_xts_plugin;

typedef const pb_xts_plugin *(*pb_xts_plugin_entry_fn)(const pb_xts_host *host);

#endif
