/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * patchbench.ko: module parameters and the parts of a run.
 *
 * A run (at load, or on a write to <debugfs>/patchbench/run) produces one
 * results document (results.h): meta lines, the self-tests of the selected
 * parts and, if benchmarking, their samples, then "pbk1 end".
 */
#ifndef PB_KMOD_H
#define PB_KMOD_H

#include <linux/types.h>

#define PB_KMOD_VERSION "0.1.0"
#define PB_MAX_SIZES 16
#define PB_MAX_KEYS 4

/* Module parameters (main.c); see MODULE_PARM_DESC there. */
extern unsigned int pb_param_rounds;
extern unsigned int pb_param_iters;
extern unsigned int pb_param_sample_bytes;
extern unsigned int pb_param_sizes[PB_MAX_SIZES];
extern unsigned int pb_param_nsizes;
extern unsigned int pb_param_keys[PB_MAX_KEYS];
extern unsigned int pb_param_nkeys;
extern unsigned int pb_param_payload;
extern char *pb_param_algs;

/*
 * Operations per sample: the iters parameter if set, else enough operations
 * of @bytes_per_op to cover sample_bytes.
 */
unsigned int pb_iters_for(unsigned int bytes_per_op);

/* Benchmark loops call this between samples. */
void pb_pause(void);

/* The XTS part: self-test the XTS impls, then benchmark them if @bench. */
void pb_xts_part(bool bench);

/* The sigpool part: same for per-CPU requests vs crypto_clone_ahash. */
void pb_sigpool_part(bool bench);

/*
 * Self-test of the XTS skcipher @alg: IEEE 1619 vectors and the long known
 * answers through several scatterlist layouts, enc and dec. @nomem forces
 * xts_buffered's allocation failure. On failure, returns non-zero and
 * leaves a token saying where in @detail; on success @detail says what ran.
 */
int pb_xts_selftest(const char *alg, bool nomem, char *detail, size_t size);

#endif /* PB_KMOD_H */
