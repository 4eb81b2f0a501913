/* SPDX-License-Identifier: GPL-2.0-only */
/* @NAME@.h — what old and new of the @NAME@ suite share (scripts/new-suite): one function a variant,
 * so that the suite times both the same way. The harness never sees it.
 * TODO: the patch's interface: the function it changes, with the arguments it takes. */
#ifndef PB_@UPPER@_H
#define PB_@UPPER@_H

#include <stddef.h>
#include <stdint.h>

typedef struct @NAME@_alg {
    const char *name;
    /* out[0..n) from in[0..n) */
    void (*run)(const uint8_t *in, uint8_t *out, size_t n);
} @NAME@_alg;

extern const @NAME@_alg @NAME@_old_alg, @NAME@_new_alg;
/* the same two built natively (the kernel profile's cross-check): every name a copy defines is
 * renamed NAME_native by scripts/native_copy.py, with no list kept by hand */
extern const @NAME@_alg @NAME@_old_alg_native, @NAME@_new_alg_native;

#endif
