/* SPDX-License-Identifier: GPL-2.0-only */
/* callgrind_fn.h — the exclusive cost of each function in one callgrind output file: where the
 * instructions of a case went, so that old and new can be compared function by function (docs/counts.md).
 *
 * The header and totals are read by callgrind_parse.h, as strictly; this reads the body
 * (valgrind's docs/callgrind-format):
 *   fn=(id) name / fn=(id)   the function the next cost lines belong to (names compressed or not);
 *   fl= fi= fe= ob=          file and object switches: an inlined file (fi=/fe=) changes the source
 *                            file, not the function, so its lines stay the current fn='s;
 *   cfn= cfi= cfl= cob=      the target of the next call; a cfn= may define a name id as fn= does;
 *   calls=N POS              the next cost line is the call's INCLUSIVE cost: not this function's own;
 *   cost lines               positions (as many as "positions:" names; absolute, +N, -N or *), then
 *                            the events in "events:" order, trailing zeros left out.
 * Cost lines before any fn= are callgrind's unknown function "???". A function's copies and
 * recursion levels are one function (pb_cg_fn_canonical). The sum of every function's cost must
 * equal the file's totals: a file that does not add up is refused. */
#ifndef PB_CALLGRIND_FN_H
#define PB_CALLGRIND_FN_H

#include <stddef.h>
#include <stdint.h>

#include "callgrind_parse.h"
#include "pb.h"

#define PB_CG_FN_NAME 160   /* longer names are cut (the lab's own functions are short) */

typedef struct pb_cg_fn {
    char name[PB_CG_FN_NAME];              /* canonical: pb_cg_fn_canonical */
    uint64_t cost[PB_CG_MAX_EVENTS];       /* exclusive, in the events' order */
} pb_cg_fn;

typedef struct pb_cg_fns {
    pb_cg_counts counts;   /* header, events and totals (callgrind_parse.h) */
    pb_cg_fn *fn;          /* functions with a cost, largest first by the first event */
    size_t n;
} pb_cg_fns;

/* One name for a function's copies, so that old and new (and their native and kernel-profile
 * copies) match by name: callgrind's recursion level "'N" (--separate-recs), GCC's clones
 * (".constprop.N", ".isra.N", ".part.N", ".cold", ".lto_priv.N") and the lab's copy suffixes
 * ("_native": scripts/native_copy.py; "_prims": impls/prims_names.h) are taken off, and the
 * retpoline thunks "__x86_indirect_thunk_REG" are one "__x86_indirect_thunk". */
void pb_cg_fn_canonical(const char *name, char *out, size_t cap);

/* Parse text (path only names it in errors): 0, or -1 + "path:line: what" in e. */
int pb_cg_fns_parse_text(const char *path, const char *text, pb_cg_fns *f, pb_err *e);
int pb_cg_fns_parse_file(const char *path, pb_cg_fns *f, pb_err *e);
void pb_cg_fns_free(pb_cg_fns *f);
/* the index of an event in f's events, or -1 */
int pb_cg_fns_event(const pb_cg_fns *f, const char *event);

#endif
