/* SPDX-License-Identifier: GPL-2.0-only */
/* pb.h — small shared helpers of the patchbench harness: errors, hex, strings.
 *
 * Contract: functions that can fail take a `pb_err *` and return -1 after
 * writing a one-line, human-readable message into it (never NULL-terminated
 * garbage); 0 on success. Callers print `e.msg` and exit non-zero. */
#ifndef PB_H
#define PB_H

#include <stddef.h>
#include <stdint.h>

#define PB_ERR_MAX 512

typedef struct pb_err {
    char msg[PB_ERR_MAX];
} pb_err;

/* A macro's value as a string literal, for help text built from the constant it quotes:
 * "default " PB_STR(PB_DEFAULT_ROUNDS) */
#define PB_STR2(x) #x
#define PB_STR(x) PB_STR2(x)

/* printf into e->msg; always returns -1 so `return pb_errf(e, ...)` reads well. */
int pb_errf(pb_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Hex string -> bytes. Accepts upper/lower case, no separators. Returns the
 * number of bytes written, or -1 if `hex` has an odd length, a non-hex
 * character, or more than `cap` bytes. */
long pb_unhex(const char *hex, uint8_t *out, size_t cap);

/* Same, but allocates (caller frees). *len gets the byte count. NULL on error. */
uint8_t *pb_unhex_alloc(const char *hex, size_t *len);

/* Fill buf with pseudo-random bytes from a seeded xoshiro256** stream
 * (deterministic: for tests and benchmark inputs, never for keys in production). */
typedef struct pb_rng { uint64_t s[4]; } pb_rng;
void pb_rng_seed(pb_rng *r, uint64_t seed);
uint64_t pb_rng_next(pb_rng *r);
void pb_rng_bytes(pb_rng *r, void *buf, size_t len);

/* Monotonic nanoseconds (CLOCK_MONOTONIC_RAW). */
uint64_t pb_now_ns(void);

/* Keep the compiler from optimising away a computed value. */
static inline void pb_sink(const void *p) { __asm__ volatile("" : : "r"(p) : "memory"); }

/* Marks a build's own text kept writable and never written: it then lies in .data behind the
 * code, not in .rodata ahead of it, so that its length (a checkout's path, a revision's) cannot move
 * one build's functions against another's (docs/layout.md). tests/form accepts such file-scope
 * state, as it accepts the runner's signal flag, and nothing else. */
#define PB_LAYOUT_DATA

#endif
