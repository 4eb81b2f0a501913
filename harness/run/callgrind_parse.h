/* SPDX-License-Identifier: GPL-2.0-only */
/* callgrind_parse.h — the event totals of one callgrind output file (`bench ... --measure valgrind`).
 *
 * Only the parts the harness uses are read, and those strictly: the format header
 * ("# callgrind format", "version: 1", "creator: callgrind-..."), the "desc: Trigger: ..." line
 * (which client request wrote this dump, so that a dump is matched to its case by name, never by
 * position alone), the "events:" line and the "totals:" line (else "summary:"). Cost lines of the
 * body are not needed and are not read. A totals line may give fewer numbers than there are events
 * (callgrind leaves trailing zeros out); more is an error. Numbers are unsigned decimal integers.
 * Every error names FILE:LINE and what is wrong. Format: valgrind's docs/callgrind-format. */
#ifndef PB_CALLGRIND_PARSE_H
#define PB_CALLGRIND_PARSE_H

#include <stdint.h>

#include "pb.h"

#define PB_CG_MAX_EVENTS 32

typedef struct pb_cg_counts {
    char trigger[256];                  /* text after "desc: Trigger: "; "" if none */
    int nevents;
    char event[PB_CG_MAX_EVENTS][16];   /* "Ir", "D1mr", ... in the file's order */
    uint64_t total[PB_CG_MAX_EVENTS];
} pb_cg_counts;

/* Parse text (path only names it in errors). 0, or -1 + "path:line: what" in e. */
int pb_cg_parse_text(const char *path, const char *text, pb_cg_counts *c, pb_err *e);
/* A whole file as one string (malloc'd; a NUL byte in it or over 1 GiB is an error), or NULL + e. */
char *pb_cg_read_file(const char *path, pb_err *e);
/* Read and parse a file. */
int pb_cg_parse_file(const char *path, pb_cg_counts *c, pb_err *e);
/* The total of one event; -1 (and *v untouched) when the file has no such event. */
int pb_cg_event(const pb_cg_counts *c, const char *event, uint64_t *v);

#endif
