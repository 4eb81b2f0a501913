/* SPDX-License-Identifier: GPL-2.0-only */
/* ticker.h — live progress on stderr while something long runs (a run's passes, a gate's looks):
 * one line every PB_TICK_EVERY_S at most (PB_TICK_EVERY_PLAIN_S where not a terminal), with how much of the plan is done and an ETA. On a
 * terminal it is one line rewritten in place ("\r", cleared before any other line is printed and
 * at the end, so that the screen never keeps half a line); otherwise a plain line each time, so
 * that a log or a CI job gets one line per few seconds, never a flood of carriage returns. */
#ifndef PB_TICKER_H
#define PB_TICKER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* the least time between two progress lines: on a terminal often enough to see that it moves;
 * elsewhere (a log, a CI job, a script that passes them on) seldom enough that a long run's log
 * stays readable, and still a line at least every 5 s */
#define PB_TICK_EVERY_S 2.0
#define PB_TICK_EVERY_PLAIN_S 4.0

/* What a progress line says (pb_progress_text). */
typedef struct pb_progress {
    const char *what;       /* "measuring", "make-up rounds", ... */
    double done, total;     /* of the plan, in any unit (its percentage is shown) */
    int pass, passes;       /* 1-based; passes <= 1: no pass shown */
    int cell, ncells;       /* 1-based; ncells <= 0: no cell shown */
    double elapsed_s;       /* since the start */
    double eta_s;           /* the seconds left by the plan; < 0: not known yet */
    const char *more;       /* what may still extend the plan ("boundary rounds"), or NULL */
} pb_progress;

/* The line, "bench: measuring 41% (pass 2 of 4, cell 12 of 64), 33 s, ETA 47 s + boundary rounds
 * if any", into buf; with width > 0 its least needed parts left out until it fits (then cut). */
void pb_progress_text(const pb_progress *p, int width, char *buf, size_t cap);

/* "47 s", "3 min 20 s", "1 h 05 min": seconds as a person reads a duration. Returns buf. */
char *pb_fmt_duration(char *buf, size_t cap, double s);

/* One ticker's state; it lives in its owner's context (the run's run_ctx). */
typedef struct pb_ticker {
    int on;                 /* 0: --quiet, nothing shown */
    int tty;                /* f is a terminal: the line rewritten in place */
    int width;              /* term.h pb_term_width, 0: unbounded */
    int every_sample;       /* test-only (PB_TEST_TICK=1): a line at every tick, not every few seconds */
    int shown;              /* a "\r" line is on the terminal now */
    uint64_t last_ns;       /* when the last line was shown (0: none yet) */
    uint64_t start_ns;      /* when the ticker started: no line in its first PB_TICK_EVERY_S */
    FILE *f;
} pb_ticker;

/* on: show anything at all; width: the lines' width (term.h; on a terminal, 0 is the terminal's:
 * a line rewritten in place must not wrap). Reads isatty(fileno(f)). */
void pb_ticker_init(pb_ticker *t, FILE *f, int on, int width, uint64_t now_ns);

/* Is a line due at now_ns? Cheap: a caller asks at every sample and composes a line only then. */
int pb_ticker_due(const pb_ticker *t, uint64_t now_ns);

/* Show text: rewritten in place on a terminal (cut to width - 1 so that it never wraps), else a
 * plain line (cut to width). */
void pb_ticker_show(pb_ticker *t, const char *text, uint64_t now_ns);

/* Before any other line on the terminal, and at the end: the "\r" line erased, the cursor at the
 * line's start. Nothing where no line is shown. */
void pb_ticker_clear(pb_ticker *t);

#endif
