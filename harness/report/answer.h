/* SPDX-License-Identifier: GPL-2.0-only */
/* answer.h — a suite's report in one line, the finding first: which cells hold and which do not
 * (zero counts left out), the measured time ratios against the document's, the CPU, and where cells
 * are inconclusive why and what would settle it; for a user's A/B (cells without a claim) "b is
 * faster than a by 32 % [30 %, 34 %]". bench run's closing lines, bench report's, the Markdown
 * report and the HTML page's summary box all print it (docs/verdicts.md, "The answer"). */
#ifndef PB_ANSWER_H
#define PB_ANSWER_H

#include <stddef.h>
#include <stdio.h>

#include "suite.h"
#include "verdict.h"

struct pb_report_data;

/* An answer is a head and pieces in the order they read; the head is always shown, a piece where the
 * width leaves room, the more important first (rank; pb_answer_print). Each piece starts with its
 * joint ("; ", ", or"). */
#define PB_ANSWER_PIECES 10
#define PB_ANSWER_PIECE 320
typedef struct pb_answer {
    char name[PB_NAME_MAX];      /* the suite's */
    char head[PB_ANSWER_PIECE];
    char piece[PB_ANSWER_PIECES][PB_ANSWER_PIECE];
    int rank[PB_ANSWER_PIECES];  /* 0 first: the order in which a narrow line takes them */
    int tied[PB_ANSWER_PIECES];  /* the piece it is shown beside only (-1: none) */
    int after[PB_ANSWER_PIECES]; /* the piece it is shown on the line of or after only (-1: none):
                                  * what settles it after why */
    int npieces;
    char marks[PB_ANSWER_PIECE]; /* the marks beyond the verdicts, zero counts left out ("" none) */
    char noise[2048];            /* the run's noise warning ("" none) */
    int ab;                      /* a user's A/B: no cell has a claim */
    /* what would settle the inconclusive cells, for a caller and the tests */
    int inconclusive, wide, shared, rounds_now;
    long rounds_needed;          /* --rounds that would bring the widest CI to what its verdict needs; 0: none */
} pb_answer;

/* The answer of d's userspace run of s, n its table's counts (pb_report_count) and cfg its verdict
 * settings. */
void pb_answer_of(pb_answer *a, const struct pb_report_data *d, const pb_suite *s, const pb_verdict_cfg *cfg,
                  const pb_verdict_counts *n);

/* "N cells: a hold, b size differs, c do not hold, d inconclusive[, e without a claim][, f no data]",
 * zero counts left out; "" for no cell. */
void pb_answer_counts(const pb_verdict_counts *n, char *buf, size_t len);

/* The whole answer in one line (head and every piece), without the suite's name when bare. */
void pb_answer_text(const pb_answer *a, int bare, char *buf, size_t len);

/* The answer on f for a terminal width columns wide (0: unbounded): the head and the pieces that fit
 * on the first line, by rank; on a second line, indented, those that fit there, then the marks and
 * the noise warning (or a word that there is one) as far as they fit. Pieces keep their order on
 * each line. No line is longer than width. */
void pb_answer_print(FILE *f, const pb_answer *a, int width);

#endif
