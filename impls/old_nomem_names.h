/* SPDX-License-Identifier: GPL-2.0-only */
/* old_nomem_names.h — forced (-include) into the old-nomem build of impls/old/xts.c: the old
 * template compiled with XTS_KMALLOC_FAILS (every kmalloc fails: the 128-byte fallback path),
 * with the kernel profile like old itself, its symbol renamed so that both copies link into one
 * bench (as scripts/native_copy.py does for the native copies). */
#ifndef PB_OLD_NOMEM_NAMES_H
#define PB_OLD_NOMEM_NAMES_H

#define XTS_KMALLOC_FAILS 1
#define xts_old_alg xts_old_nomem_alg

#endif
