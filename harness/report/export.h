/* SPDX-License-Identifier: GPL-2.0-only */
/* export.h — `bench export`: which runs, and their statistics in one of the render table's export
 * formats (render.h: json, csv, gbench; report/export.c). */
#ifndef PB_EXPORT_H
#define PB_EXPORT_H

#include <stdint.h>
#include <stdio.h>

#include "pb.h"
#include "reads.h"
#include "store.h"

/* The runs to export into ids (at most cap): run (if not 0) when it is complete (and of suite, if
 * given), else the latest complete userspace run of each suite (of suite only). Their number, 0
 * for none, -1 when the store cannot be read. */
int pb_export_runs(pb_store *st, int64_t run, const char *suite, int64_t *ids, int cap);
/* As pb_export_runs, the latest of each suite among the runs of target (runs.target: "userspace",
 * "valgrind" for count runs, ...). */
int pb_export_runs_of(pb_store *st, int64_t run, const char *suite, const char *target, int64_t *ids, int cap);
/* Runs ids[0..n) in format (the name of a PB_RENDER_EXPORT entry: "json", "csv", "gbench") to f. 0,
 * or -1 (no such format, a failed read or encoding; the caller checks ferror(f) too). */
int pb_export_write(FILE *f, pb_store *st, const char *format, const int64_t *ids, int n);
/* As pb_export_write, its failure's words in e; full: json with every row of the runs too (--full,
 * export_full.c); gzip: json written gzip-compressed (--out FILE.gz, base/gz.h). */
int pb_export_write_as(FILE *f, pb_store *st, const char *format, const int64_t *ids, int n, int full, int gzip,
                       pb_err *e);
/* export_full.c: every row of runs ids[0..n) as the object "store" of a whole JSON export (dump.h's
 * tree, each value as the store holds it), which `bench import` reads back. NULL + e on a failed read. */
struct json_t *pb_export_store_json(pb_store *st, const int64_t *ids, int n, pb_err *e);

/* The one way text from the store becomes a JSON string (jansson's json_t; here and in the gate's
 * JSON): s as it is, or, where jansson refuses it (it takes UTF-8 only, and an imported file's
 * name may be in another encoding), with '?' for each byte outside ASCII rather than dropped.
 * NULL gives JSON null. */
struct json_t;
struct json_t *pb_json_text(const char *s);

/* The columns cols[0..ncols) of run id (those that are not NULL), as a JSON object in the table's order:
 * integers and reals as numbers, text as pb_json_text. An empty object for no such run. */
struct json_t *pb_json_run_columns(pb_store *st, int64_t id, const char *const *cols, size_t ncols);

/* Where the instructions went (docs/counts.md), for the JSON export and the gate's document
 * (export_fns.c): "functions", every per-function row of runs ids[0..n) (table func_counts), and
 * "function_diffs", per run and cell, the run's candidate against its baseline function by function
 * (fn_diff.h), the deltas summing to the total. Empty arrays where the runs have none. */
struct json_t *pb_json_fn_rows(pb_store *st, const int64_t *ids, int n);
struct json_t *pb_json_fn_diffs(pb_store *st, const int64_t *ids, int n);
/* One cell's deltas as a JSON array of {function, baseline, candidate, delta} (baseline and
 * candidate null in the rest row). */
struct json_t *pb_json_fn_deltas(const pb_fn_delta *d, size_t n);

#endif
