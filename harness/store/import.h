/* SPDX-License-Identifier: GPL-2.0-only */
/* import.h — the parser behind `bench import`: kernel-module result files (pbk1 lines).
 *
 * One rule: refuse or store exactly. pb_import_parse reads and checks the whole
 * file before anything is stored: whole lines of any length up to PB_LINE_MAX
 * (a longer line is refused, never split), fields split on any whitespace, no
 * NUL byte, every number range-checked (no wrap, no truncation, no zero count),
 * known suites, non-empty names from a safe character set, no unknown or
 * repeated field, a target that does not contradict the data, no sample of an
 * impl whose self-test failed, and `pbk1 end` present. Every row is one the
 * suite knows: an impl of its kernel-module part (suite.h kmod_impls), a
 * (variant, op) of the grid its plan() gives with default options, a size its
 * check_size accepts, no larger than bench run builds (PB_MAX_SIZE_BYTES; the
 * module's sizes are a parameter, as --sizes is for bench run); self-tests name
 * such an impl. A UTF-8 byte-order mark at the start is passed over. Nothing is said twice or both ways:
 * one sample per (impl, cell, round), one unavailable line per impl and variant
 * (and op), no impl both unavailable and sampled in one cell. The first bad line
 * gives -1 and e = "FILE:LINE: what". Only a parsed pb_import is ever stored.
 */
#ifndef PB_IMPORT_H
#define PB_IMPORT_H

#include <stdint.h>
#include <stdio.h>

#include "pb.h"
#include "store.h"
#include "suite.h"

#define PB_IMPORT_MAX_SUITES 8

typedef struct pb_import_row {
    int line;
    int unavailable;                 /* 1: an `unavailable` line (reason set, no numbers) */
    char suite[PB_NAME_MAX], impl[PB_NAME_MAX], variant[PB_NAME_MAX], op[PB_NAME_MAX];
    char reason[200];
    uint64_t size;                   /* 1 .. INT64_MAX */
    int round;                       /* 0 .. INT_MAX */
    int64_t iters;                   /* 1 .. INT64_MAX */
    uint64_t ns;                     /* 1 .. 2^53, exact as a double */
    uint64_t cycles;                 /* 0 .. 2^53; has_cycles 0 when the line has none */
    int has_cycles;
} pb_import_row;

typedef struct pb_import {
    pb_import_row *rows;
    int nrows, nsamples;
    char target[PB_NAME_MAX];        /* resolved: --target, else `meta target`, else "import" */
    char guest_kernel[160], cpu[128];
    pb_cpu_identity cpu_id;          /* the machine's CPU identity, from meta cpu_vendor=... (identity.h) */
    char *meta;                      /* " k=v selftest:impl=status ..." for the run's options */
    char suites[PB_IMPORT_MAX_SUITES][PB_NAME_MAX];
    int nsuites;
} pb_import;

/* Parse a whole file; `path` names it in messages. 0, or -1 + e (out is freed). */
int pb_import_parse(FILE *f, const char *path, const char *target_override, pb_import *out, pb_err *e);
void pb_import_free(pb_import *imp);

/* Parse `path`, then (only if every line passed) open the store at `db` and store the file,
 * each suite as one run, in one transaction. A refused file creates nothing. */
int pb_import_file(const char *db, const char *path, const char *target_override, const char *cmdline,
                   int64_t *runs, int *nruns, pb_err *e);

#endif
