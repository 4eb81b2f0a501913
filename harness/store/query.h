/* SPDX-License-Identifier: GPL-2.0-only */
/* query.h — the plumbing every named query shares (store/, and the report's and the gate's data
 * files, report/report_data*.c and gate/gate_store*.c): a statement prepared and bound in one call,
 * run for its effect, read for one integer, or walked row by row. Nothing here knows a table.
 *
 * The parameters ?1, ?2, ... of a statement come after `types`, one letter each:
 *   'i' int64_t      'n' int        'd' double     't' const char * (NULL binds NULL)
 *   'r' double, NULL where it is not finite        'k' int64_t, NULL where it is < 0 (not known)
 *   '-' NULL (no argument) */
#ifndef PB_QUERY_H
#define PB_QUERY_H

#include <stdarg.h>
#include <stdint.h>

#include "store.h"

/* sql prepared on s with its parameters bound: 0, or -1 + e ("PATH: what: the database's words";
 * what NULL: "PATH: the database's words", as pb_store_sqlerr). */
int pb_query(pb_store *s, pb_stmt **q, pb_err *e, const char *what, const char *sql, const char *types, ...);
/* A prepared q reset and bound anew (a statement run once per row of a loop). */
void pb_query_bind(pb_stmt *q, const char *types, ...);
void pb_query_vbind(pb_stmt *q, const char *types, va_list ap);
/* sql run to its end (INSERT, UPDATE, DELETE): 0, or -1 + e. */
int pb_query_exec(pb_store *s, pb_err *e, const char *what, const char *sql, const char *types, ...);
/* The first column of sql's first row, as an integer, into *v: 1; 0 where it has no row; -1 + e. */
int pb_query_int(pb_store *s, int64_t *v, pb_err *e, const char *what, const char *sql, const char *types, ...);
/* Every row of q to each(ctx, q) until it returns non-zero, then q finalized: 0 when the rows ran
 * out, each's non-zero value, or -1 + e where a step failed. */
typedef int (*pb_row_fn)(void *ctx, pb_stmt *q);
int pb_query_rows(pb_store *s, pb_stmt *q, pb_row_fn each, void *ctx, pb_err *e, const char *what);

/* Column i as a double, NaN for NULL. */
double pb_query_real(pb_stmt *q, int i);

/* The samples columns (alias s) a metric's value is derived from, in the order pb_query_metric_sample
 * reads them: a derived metric is computed where it is read, never stored per sample (a default run
 * would store half its size again; docs/schema.md). */
#define PB_METRIC_SAMPLE_COLS "s.iterations, s.ns, s.tsc, s.cycles, s.instructions, s.probe_before, s.probe_after, s.cpu_ns"
#define PB_METRIC_SAMPLE_NCOLS 8
struct pb_metric_sample;
/* PB_METRIC_SAMPLE_COLS from column col on into *m */
void pb_query_metric_sample(pb_stmt *q, int col, struct pb_metric_sample *m);
/* Grows *v (of *cap elements of size sz) to hold n + 1: 0, or -1 without memory (*v kept). */
int pb_query_grow(void **v, size_t *cap, size_t n, size_t sz);

#endif
