/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel API differences between the kernels this module is built for.
 *
 * Tested: Debian 6.1 (bookworm) and 6.12 (bookworm-backports). Older than
 * 5.10 is refused: the template code uses the spawn API of 5.10
 * (crypto_grab_skcipher with an instance, crypto_check_attr_type with a mask)
 * and kfree_sensitive(), which is what the 2018 code called kzfree().
 */
#ifndef PB_KMOD_COMPAT_H
#define PB_KMOD_COMPAT_H

#include <linux/version.h>
#include <linux/crypto.h>
#include <crypto/internal/skcipher.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 10, 0)
#error "patchbench kmod needs Linux 5.10 or later"
#endif

/*
 * Completion callbacks: up to 6.2 they receive the crypto_async_request and
 * read ->data; from 6.3 on they receive the data pointer itself.
 * Callbacks are written as  static void fn(pb_done_arg_t arg, int err)
 * and fetch their request with pb_done_data(arg).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
typedef void *pb_done_arg_t;
static inline void *pb_done_data(void *data)
{
	return data;
}
#else
typedef struct crypto_async_request *pb_done_arg_t;
static inline void *pb_done_data(struct crypto_async_request *areq)
{
	return areq->data;
}
#endif

/*
 * The child algorithm behind a skcipher spawn: 6.7 split the common part
 * (name, block size, key sizes, IV size) out of struct skcipher_alg so that
 * lskcipher children fit the same spawn. Both types have ->base, ->ivsize,
 * ->min_keysize and ->max_keysize, which is all the templates read.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
typedef struct skcipher_alg_common pb_spawn_alg;
static inline pb_spawn_alg *pb_spawn_skcipher_alg(struct crypto_skcipher_spawn *spawn)
{
	return crypto_spawn_skcipher_alg_common(spawn);
}
#else
typedef struct skcipher_alg pb_spawn_alg;
static inline pb_spawn_alg *pb_spawn_skcipher_alg(struct crypto_skcipher_spawn *spawn)
{
	return crypto_spawn_skcipher_alg(spawn);
}
#endif

/* crypto_clone_ahash() (the new tcp_sigpool's per-use clone) exists from 6.4. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
#define PB_HAVE_CLONE_AHASH 1
#else
#define PB_HAVE_CLONE_AHASH 0
#endif

#endif /* PB_KMOD_COMPAT_H */
