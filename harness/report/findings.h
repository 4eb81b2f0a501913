/* SPDX-License-Identifier: GPL-2.0-only */
/* findings.h — `bench findings`: per suite and cell, each CPU model's verdict and time ratio [CI]
 * side by side, one column per CPU model, with the instruction ratio and a sentence on why where a
 * count run of the same build is in the store (docs/findings.md, results/published/README.md). The
 * text depends on the store's rows only: no date but the runs' own, no path, no run id (a run is
 * named by its uuid), every list sorted, so that the same exports give the same bytes. */
#ifndef PB_FINDINGS_H
#define PB_FINDINGS_H

#include <stdio.h>

#include "pb.h"
#include "store.h"

/* The findings of every suite (or only suite, if not NULL) of st, as Markdown, to f; the verdicts'
 * settings and the documents' ratios from data_dir. 0, or -1 + e (a store that cannot be read). */
int pb_findings_write(FILE *f, pb_store *st, const char *data_dir, const char *suite, pb_err *e);

#endif
