/* SPDX-License-Identifier: GPL-2.0-only */
/* lib_versions.h — "libgcrypt 1.10.1" / "libgcrypt 1.10.1; OpenSSL 3.0.x ...": what a suite's
 * library_versions (suite.h) returns. Static text, overwritten by the next call. */
#ifndef PB_LIB_VERSIONS_H
#define PB_LIB_VERSIONS_H
const char *pb_lib_versions_gcrypt(void);
const char *pb_lib_versions_gcrypt_openssl(void);
#endif
