/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg_selftest.h — the drbg suite's selftest (suite.h: the harness refuses to
 * time an implementation whose selftest fails).
 *   old, new:  embedded NIST CAVS records, two per mechanism and df mode
 *              (no_reseed and pr_false, with personalization and additional input);
 *   openssl:   the same records through a TEST-RAND parent, plus a sanity check
 *              of the system-seeded instance the benchmark uses;
 *   gcrypt:    a sanity check only (output of the right length, not all zero,
 *              not repeating), because libgcrypt's DRBG seeds itself and cannot
 *              be given the vectors' entropy;
 *   gcrypt:NAME: a build by path (--gcrypt-lib): its GCRYCTL_SELFTEST, then the
 *              same sanity check as gcrypt (drbg_gcrypt_lib.h says why no more). */
#ifndef PB_DRBG_SELFTEST_H
#define PB_DRBG_SELFTEST_H

#include "pb.h"

int drbg_selftest(const char *impl, pb_err *e);

#endif
