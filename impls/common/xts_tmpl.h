/* SPDX-License-Identifier: GPL-2.0-only */
/* xts_tmpl.h — what the old and new XTS templates share unchanged: the
 * transform context and its set-up (the patch did not touch them).
 *
 *   struct priv   the kernel's per-tfm context: the child "ecb(aes)" keyed
 *                 with Key1 and the single-block tweak cipher keyed with Key2.
 *   xts_tmpl_*    init_tfm / exit_tfm / setkey of both templates.
 *   xts_kmalloc   the kernel's kmalloc, called directly, counted; in a build with
 *                 XTS_KMALLOC_FAILS (old-nomem) it fails, counted, and calls nothing.
 *   xts_kzfree    zero, then free (the kernel's kzfree), counted. */
#ifndef PB_XTS_TMPL_H
#define PB_XTS_TMPL_H

#include "xts.h"
#include "xts_aes.h"

struct priv {
    xts_ecb child;
    xts_cipher tweak;
};

int xts_tmpl_init_tfm(xts_tfm *tfm);
void xts_tmpl_exit_tfm(xts_tfm *tfm);
int xts_tmpl_setkey(xts_tfm *tfm, const uint8_t *key, size_t keylen);

static inline void *xts_kmalloc(xts_tfm *tfm, size_t n)
{
#ifdef XTS_KMALLOC_FAILS
    void *p = NULL;
#else
    void *p = xts_kernel_kmalloc(n);
#endif
    tfm->stats.last_alloc_size = n;
    if (p) tfm->stats.allocs++;
    else tfm->stats.alloc_failures++;
    return p;
}

static inline void xts_kzfree(xts_tfm *tfm, void *p)
{
    tfm->stats.frees++;
    xts_kernel_kzfree(p);
}

#endif
