/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg_copy_names.h — every symbol the DRBG state machines and both backends export, renamed with
 * the suffix PB_DRBG_COPY_SUFFIX, for a second or third copy of the same sources linked into one
 * bench (impls/prims_names.h: _prims; the native copy is renamed by scripts/native_copy.py). Included by those headers
 * only, after they define the suffix; each names its own pb_drbg_build. */
#ifndef PB_DRBG_COPY_NAMES_H
#define PB_DRBG_COPY_NAMES_H

#define PB_DRBG_COPY_CAT2(a, b) a##b
#define PB_DRBG_COPY_CAT(a, b) PB_DRBG_COPY_CAT2(a, b)
#define PB_DRBG_COPY(name) PB_DRBG_COPY_CAT(name, PB_DRBG_COPY_SUFFIX)

#define pb_drbg_info_of PB_DRBG_COPY(pb_drbg_info_of)
#define pb_drbg_entropy_getrandom PB_DRBG_COPY(pb_drbg_entropy_getrandom)
#define pb_drbg_config_init PB_DRBG_COPY(pb_drbg_config_init)
#define pb_drbg_strerror PB_DRBG_COPY(pb_drbg_strerror)
#define pb_drbg_instantiate PB_DRBG_COPY(pb_drbg_instantiate)
#define pb_drbg_reseed PB_DRBG_COPY(pb_drbg_reseed)
#define pb_drbg_generate PB_DRBG_COPY(pb_drbg_generate)
#define pb_drbg_generate_long PB_DRBG_COPY(pb_drbg_generate_long)
#define pb_drbg_randomize PB_DRBG_COPY(pb_drbg_randomize)
#define pb_drbg_uninstantiate PB_DRBG_COPY(pb_drbg_uninstantiate)
#define pb_drbg_ctr_ops PB_DRBG_COPY(pb_drbg_ctr_ops)
#define pb_drbg_hash_ops PB_DRBG_COPY(pb_drbg_hash_ops)
#define pb_drbg_hmac_ops PB_DRBG_COPY(pb_drbg_hmac_ops)
#define pb_drbg_backend_old PB_DRBG_COPY(pb_drbg_backend_old)
#define pb_drbg_backend_new PB_DRBG_COPY(pb_drbg_backend_new)

#endif
