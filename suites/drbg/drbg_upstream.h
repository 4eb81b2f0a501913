/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg_upstream.h — the real code of the drbg document, as scripts/upstream-libgcrypt left it:
 * OUT/upstream.tsv names libgcrypt built at the patch's parent (upstream-old) and at the patch
 * (upstream-new), each by commit and by its library's path under OUT. `--upstream OUT` loads the
 * two as the builds gcrypt:upstream-old and gcrypt:upstream-new (drbg_gcrypt_lib.h). */
#ifndef PB_DRBG_UPSTREAM_H
#define PB_DRBG_UPSTREAM_H

#include "pb.h"

#define DRBG_UPSTREAM_OLD "upstream-old"
#define DRBG_UPSTREAM_NEW "upstream-new"
#define DRBG_UPSTREAM_MANIFEST "upstream.tsv"

typedef struct drbg_upstream {
    char path[2][1024];     /* [0] upstream-old, [1] upstream-new: OUT/library */
    char commit[2][41];
} drbg_upstream;

/* Read OUT/upstream.tsv: the header `role<TAB>commit<TAB>library`, then exactly one row for each
 * role, a 40-hex commit and a relative library path without `..` that names a regular file.
 * 0, or -1 + e as "FILE:LINE: what" (or the file's own error). */
int drbg_upstream_read(const char *out, drbg_upstream *u, pb_err *e);

#endif
