/* SPDX-License-Identifier: GPL-2.0-only */
/* native_names.h — forced (-include) into the native-profile copies of the
 * old/new sources (impls old@native, new@native; docs/build-profiles.md).
 *
 * The same source files are compiled twice, once with their faithful profile
 * (kernel or libgcrypt) and once native, and linked into one bench. Every
 * symbol a copy exports is renamed here so the two copies do not clash. A
 * name missed here is defined twice and the link fails ("multiple
 * definition"), so a silent mix of the two builds cannot happen. */
#ifndef PB_NATIVE_NAMES_H
#define PB_NATIVE_NAMES_H

/* xts: the two templates (the kernel-API glue stays one kernel-profile copy) */
#define xts_old_alg xts_old_alg_native
#define xts_new_alg xts_new_alg_native

/* sigpool: both pools and the tfm/request/CPU layer they are built on */
#define sigpool_old sigpool_old_native
#define sigpool_new sigpool_new_native
#define sp_algs sp_algs_native
#define sp_alg_find sp_alg_find_native
#define sp_tfm_alloc sp_tfm_alloc_native
#define sp_tfm_clone sp_tfm_clone_native
#define sp_tfm_free sp_tfm_free_native
#define sp_req_alloc sp_req_alloc_native
#define sp_req_free sp_req_free_native
#define sp_setkey sp_setkey_native
#define sp_init sp_init_native
#define sp_update sp_update_native
#define sp_final sp_final_native
#define sp_cpus_init sp_cpus_init_native
#define sp_cpus_fini sp_cpus_fini_native
#define sp_bh_disable sp_bh_disable_native
#define sp_bh_enable sp_bh_enable_native
#define sp_stats_this_thread sp_stats_this_thread_native

/* drbg: the state machines and both primitive backends */
#define PB_DRBG_COPY_SUFFIX _native
#include "drbg_copy_names.h"
#define pb_drbg_build_faithful pb_drbg_build_native

#endif
