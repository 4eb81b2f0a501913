/* SPDX-License-Identifier: GPL-2.0-only */
/* nearest.h — "did you mean": the name nearest to a mistyped one, for every floor that refuses a
 * name (a suite, an impl, a metric, a saved baseline, an option, a command), so that each refusal
 * offers the same suggestion by the same rule. */
#ifndef PB_NEAREST_H
#define PB_NEAREST_H

#include <stddef.h>

/* The one of the n names nearest to typed (edit distance, a swap of two neighbours counting one),
 * if it is near enough to be what was meant: at most 1 edit for a short name, a third of its length
 * for a longer one; a tie goes to a name with typed's first letter; else NULL. names[i] may be
 * NULL (skipped). */
const char *pb_nearest(const char *typed, const char *const *names, size_t n);

/* "did you mean NAME?; " into buf when one of the names in list (a message's list of them, separated
 * by spaces and/or commas) is near enough to typed (pb_nearest), else "". Returns buf, for a
 * refusal's "(%ssuites: ...)". */
const char *pb_did_you_mean(char *buf, size_t cap, const char *typed, const char *list);

#endif
