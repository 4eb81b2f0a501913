/* SPDX-License-Identifier: GPL-2.0-only */
/* history.h — `bench history`'s series and change points (report/history.c). */
#ifndef PB_HISTORY_H
#define PB_HISTORY_H

#include "store.h"
#include "suite.h"

typedef struct pb_history_opts {
    const char *db;                /* the store's name, for messages */
    const pb_suite *suite;
    const char *impl, *metric;     /* NULL: the suite's candidate, its primary metric */
    double alpha;                  /* each change point's permutation test */
    const char *out_dir;           /* where the plots go; NULL: no plots, nothing written */
    int all;                       /* every run of every series, however long */
} pb_history_opts;

/* A series of up to this many runs is printed whole (its table is its summary); a longer one as
 * its first and last run and its count, unless --all: a year of nightly runs is 30 cells x 365
 * lines. A plot's x axis names at most PB_HISTORY_TICS runs, evenly spaced. */
#define PB_HISTORY_FULL_RUNS 30
#define PB_HISTORY_TICS 20

/* Prints every (machine, cell) series of o->impl in st and its change points, and draws them. 0;
 * 1 when the plots or the memory failed; 2 when there is no such run or the store failed
 * (messages on stderr, "bench history: ..."). A failed plot leaves no file behind. */
int pb_history(pb_store *st, const pb_history_opts *o);

#endif
