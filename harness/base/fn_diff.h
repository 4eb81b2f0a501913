/* SPDX-License-Identifier: GPL-2.0-only */
/* fn_diff.h — where old and new differ, function by function (docs/counts.md): a count run keeps, per
 * case, the instructions per op of its top functions and of the rest as one row (store table
 * func_counts, run/callgrind_fn.h); this matches two cases' rows by name and ranks the differences
 * so that they sum to the whole difference. The report, bench compare, the export and the count
 * gate all call it, so they name the same functions. */
#ifndef PB_FN_DIFF_H
#define PB_FN_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "pb.h"

#define PB_FN_NAME 160
/* suite.h's PB_NAME_MAX, which this floor cannot include (vg_funcs.c asserts they agree) */
#define PB_FN_ID_MAX 48
/* How many functions a count run keeps per case (the rest is one row). */
#define PB_FN_KEEP 24
/* The name of the rest row, in the store and in every output. */
#define PB_FN_REST "(rest)"

typedef struct pb_fn_row {
    char impl[PB_FN_ID_MAX], variant[PB_FN_ID_MAX], op[PB_FN_ID_MAX];
    uint64_t size;
    int rank;              /* 1 the most instructions, then down; 0 the rest */
    char func[PB_FN_NAME];
    double insns, l1_miss, ll_miss, branch_miss;   /* per op; NaN where not collected */
} pb_fn_row;

typedef struct pb_fn_delta {
    char func[PB_FN_NAME];   /* PB_FN_REST: what the listed functions leave of the total */
    double base, cand;       /* instructions per op (NaN in the rest row) */
    double delta;            /* cand - base */
} pb_fn_delta;

/* The rows of one case among rows (impl, variant, op, size), in their order: the index of the
 * first and how many (consecutive, as the store reads them), 0 if none. */
size_t pb_fn_rows_of(const pb_fn_row *rows, size_t n, const char *impl, const char *variant, const char *op,
                     uint64_t size, size_t *first);

/* The at most max - 1 functions with the largest |cand - base| (matched by name; a function one
 * side lacks counts 0 there, or its rest where that side has one), largest first, then one row
 * PB_FN_REST with what they leave, so that the deltas sum to total(cand) - total(base) exactly.
 * out has max rows; returns how many it filled (0 when a side has no rows). */
size_t pb_fn_diff(const pb_fn_row *base, size_t nb, const pb_fn_row *cand, size_t nc, pb_fn_delta *out, size_t max);

/* The deltas as one line, "xor_tweak +9253.0, do_crypt -8788.0, (rest) -164.0" (instructions per
 * op, one decimal); plain text, each output quotes it its own way. */
void pb_fn_diff_text(const pb_fn_delta *d, size_t n, char *buf, size_t cap);

/* How many deltas a per-cell list shows: the largest functions and the rest row. */
#define PB_FN_SHOWN 6

/* The functions that account for most of an increase, for the count gate's line: the ones that
 * grew, largest first, until they make up 80 % of total (the sum of the deltas, > 0), at most 3:
 * "xor_tweak +120.0 (60 %), do_crypt +40.0 (20 %)". "" when nothing grew. */
void pb_fn_grew_text(const pb_fn_delta *d, size_t n, char *buf, size_t cap);

#endif
