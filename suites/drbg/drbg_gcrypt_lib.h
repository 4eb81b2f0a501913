/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg_gcrypt_lib.h — another libgcrypt build, given by path (--gcrypt-lib NAME=PATH), timed as
 * impl "gcrypt:NAME" through its public API: GCRYCTL_DRBG_REINIT per mechanism, gcry_randomize.
 *
 * Each build is loaded with dlmopen(LM_ID_NEWLM): a link-map namespace of its own, with its own
 * libgpg-error and libc, so two builds with one soname (libgcrypt.so.20) coexist in bench beside
 * the libgcrypt bench links, and each has its own process-wide DRBG. The timed calls stay in
 * bench's process (the harness brackets them with its clocks, like every other impl's); crash
 * safety comes from the self-test, which runs first in a forked child (load + the suite's
 * selftest for "gcrypt:NAME"). Only a build that passed there is loaded into bench itself.
 *
 * What the self-test can check through the public API: libgcrypt's DRBG seeds itself from the
 * system and the API has no way to give it test entropy (the CAVS driver in random-drbg.c is
 * internal), so no CAVS vector is reachable. Checked instead: the library is a libgcrypt >= 1.7
 * (gcry_check_version, gcry_control, gcry_randomize), its FIPS DRBG became the active RNG,
 * GCRYCTL_SELFTEST passes (in FIPS mode that includes the DRBG's own known-answer health
 * check; outside FIPS mode its cipher/digest self-tests only), GCRYCTL_DRBG_REINIT accepts each
 * mechanism, and its output is plausible (not one repeated byte, two requests differ). */
#ifndef PB_DRBG_GCRYPT_LIB_H
#define PB_DRBG_GCRYPT_LIB_H

#include <stddef.h>
#include <stdint.h>

#include "common/drbg.h"
#include "pb.h"

#define DRBG_GCRYPT_LIB_MAX 4          /* builds per run (the cell has room for 6 + 4 impls) */
#define DRBG_GCRYPT_LIB_PREFIX "gcrypt:"
#define DRBG_GCRYPT_LIB_NAME_MAX 32    /* NAME, without the prefix, NUL included */

typedef struct drbg_gcrypt_lib drbg_gcrypt_lib;
typedef struct drbg_gcrypt_lib_registry drbg_gcrypt_lib_registry;

/* The builds this copy of the suite has loaded, and using another copy's instead (one build's
 * code layouts: suite.h loaded_code). */
drbg_gcrypt_lib_registry *drbg_gcrypt_lib_registry_of_this_copy(void);
void drbg_gcrypt_lib_use_registry(drbg_gcrypt_lib_registry *r);

/* Is NAME usable (1..31 of A-Z a-z 0-9 _ - . @)? 0, or -1 + e naming --gcrypt-lib. */
int drbg_gcrypt_lib_check_name(const char *name, pb_err *e);
/* Self-test PATH in a child (pb_fork_run_out: its output on stderr, what it starts killed with it)
 * and register it as impl "gcrypt:NAME" from what that child found (its version, which primitives
 * it lacks), without loading it here: it is loaded at its first call (reinit, prims, selftest_ctl)
 * by the process that makes it, a cage's child, or bench itself only under --cage none; origin (NULL: none)
 * says where it came from, for the provenance ("commit 20886fdc…"). Loading the same NAME again
 * is a no-op. 0, or -1 + e: missing file, not a libgcrypt, too old, failed or crashed self-test,
 * more than DRBG_GCRYPT_LIB_MAX builds. */
int drbg_gcrypt_lib_load(const char *name, const char *path, const char *origin, pb_err *e);
/* The loaded build of impl "gcrypt:NAME", or NULL. */
drbg_gcrypt_lib *drbg_gcrypt_lib_find(const char *impl);
/* GCRYCTL_DRBG_REINIT of that build's DRBG as `mech`. 0, or -1 with a reason in why. */
int drbg_gcrypt_lib_reinit(drbg_gcrypt_lib *l, pb_drbg_mech mech, const char **why);
/* Its cipher and digest functions (common/gcry_prims.h), for old+gcrypt:NAME and new+gcrypt:NAME;
 * NULL when it lacks one, whose name drbg_gcrypt_lib_prims_missing gives. */
struct pb_gcry_prims;
const struct pb_gcry_prims *drbg_gcrypt_lib_prims(drbg_gcrypt_lib *l);
const char *drbg_gcrypt_lib_prims_missing(const drbg_gcrypt_lib *l);
/* The mechanism of its last successful reinit, or -1. */
int drbg_gcrypt_lib_current(const drbg_gcrypt_lib *l);
/* Its gcry_randomize(out, n, GCRY_STRONG_RANDOM). */
void drbg_gcrypt_lib_generate(drbg_gcrypt_lib *l, uint8_t *out, size_t n);
/* Its GCRYCTL_SELFTEST: 0, or -1 + e. */
int drbg_gcrypt_lib_selftest_ctl(drbg_gcrypt_lib *l, pb_err *e);
/* "gcrypt:sys=/usr/lib/…/libgcrypt.so.20 (libgcrypt 1.10.1); …" for every loaded build, or "". */
const char *drbg_gcrypt_lib_describe(void);

#endif
