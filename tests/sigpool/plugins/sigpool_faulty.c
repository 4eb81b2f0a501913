/* SPDX-License-Identifier: GPL-2.0-only */
/* sigpool_faulty.c — sigpool plug-ins that must be refused (tests/sigpool/plugin_test.sh), one
 * per build; each wraps new's pool:
 *   FAULT_ABI     built for ABI 99: refused before anything of it is called
 *   FAULT_NOSYM   no entry point
 *   FAULT_VECTOR  hands out hmac(sha384) requests for an hmac(sha512) pool: fails the
 *                 HMAC-SHA-512 vector (an algorithm the MD5/SHA-1/CMAC/TCP-AO vectors miss)
 *   FAULT_CRASH   start dies of SIGSEGV: the self-test child dies, bench must not */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "patchbench/sigpool_plugin.h"

#define EXPORT __attribute__((visibility("default")))

#ifdef FAULT_ABI
EXPORT const unsigned pb_sigpool_plugin_abi_version = 99;
#else
EXPORT const unsigned pb_sigpool_plugin_abi_version = PB_SIGPOOL_PLUGIN_ABI_VERSION;
#endif

static const pb_sigpool_host *host;
static const sigpool_ops faulty_ops;

struct wrap {
    sigpool base;
    sigpool *inner;    /* new's pool */
};

static int wrap_create(const char *name, size_t scratch_size, sigpool **out)
{
    const char *use = name;
#ifdef FAULT_VECTOR
    if (!strcmp(name, "hmac(sha512)")) use = "hmac(sha384)";
#endif
    struct wrap *w = calloc(1, sizeof *w);
    if (!w) return -ENOMEM;
    int err = host->pool_new->create(use, scratch_size, &w->inner);
    if (err) {
        free(w);
        return err;
    }
    w->base.ops = &faulty_ops;
    w->base.alg = host->alg_find(name);
    *out = &w->base;
    return 0;
}

static void wrap_destroy(sigpool *p)
{
    struct wrap *w = (struct wrap *)p;
    w->inner->ops->destroy(w->inner);
    free(w);
}

static int wrap_start(sigpool *p, sigpool_handle *h)
{
#ifdef FAULT_CRASH
    /* the default action, even where a sanitizer runtime installed its own handler */
    signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);
#endif
    struct wrap *w = (struct wrap *)p;
    return w->inner->ops->start(w->inner, h);
}

static void wrap_end(sigpool *p, sigpool_handle *h)
{
    struct wrap *w = (struct wrap *)p;
    w->inner->ops->end(w->inner, h);
}

static void wrap_inject(sigpool *p, unsigned every_nth)
{
    struct wrap *w = (struct wrap *)p;
    w->inner->ops->inject_alloc_failure(w->inner, every_nth);
}

static uint64_t wrap_failures(const sigpool *p)
{
    const struct wrap *w = (const struct wrap *)p;
    return w->inner->ops->alloc_failures(w->inner);
}

static const sigpool_ops faulty_ops = {
    .name = "faulty",
    .create = wrap_create,
    .destroy = wrap_destroy,
    .start = wrap_start,
    .end = wrap_end,
    .inject_alloc_failure = wrap_inject,
    .alloc_failures = wrap_failures,
};

static const pb_sigpool_plugin plugin = {PB_SIGPOOL_PLUGIN_ABI_VERSION, &faulty_ops};

#ifndef FAULT_NOSYM
EXPORT const pb_sigpool_plugin *pb_sigpool_plugin_entry(const pb_sigpool_host *h)
{
    host = h;
    return &plugin;
}
#else
EXPORT const pb_sigpool_plugin *not_the_entry(const pb_sigpool_host *h);
EXPORT const pb_sigpool_plugin *not_the_entry(const pb_sigpool_host *h)
{
    host = h;
    return &plugin;
}
#endif
