/* SPDX-License-Identifier: GPL-2.0-only */
/* term.h — lines that fit the terminal: how wide stderr's lines may be, and text cut or wrapped to
 * that width, one column per UTF-8 character (µ, …), never a character split. A width of 0 is
 * unbounded: the text as it is, so that a log or a test that reads stderr gets the full lines. */
#ifndef PB_TERM_H
#define PB_TERM_H

#include <stddef.h>
#include <stdio.h>

/* The width of stderr's lines: COLUMNS when it is set to a number (which also lets a test force a
 * width without a terminal: COLUMNS=80), else the terminal's when stderr is one (TIOCGWINSZ), else
 * 0 (unbounded: not a terminal). */
int pb_term_width(void);
/* The same for the lines written to file descriptor fd (stdout's tables: STDOUT_FILENO). */
int pb_term_width_fd(int fd);

/* The display columns of s: its UTF-8 characters (bytes that do not continue one). */
size_t pb_utf8_cols(const char *s);

/* s cut in place to at most width columns, its last character '…' where it was cut, never inside a
 * UTF-8 character; width <= 0 leaves it. Returns s. */
char *pb_utf8_fit(char *s, size_t cap, int width);

/* s and a newline on f, cut to width (pb_utf8_fit). */
void pb_term_line(FILE *f, int width, const char *s);

/* s and a newline on f, wrapped at spaces into lines of at most width columns, each one after the
 * first indented by two spaces (a word longer than a line is cut there); width <= 0: s as it is. */
void pb_term_wrap(FILE *f, int width, const char *s);

/* A long warning whose detail is kept elsewhere (the store, and the report that shows it): head and
 * text as they are when width <= 0; else head, text's first sentence (its first line, to its first ". "
 * or "; " out of brackets, without its bracketed asides when they do not fit) and " (" tail ")", cut so that the
 * tail stays in view. */
void pb_term_warn(FILE *f, int width, const char *head, const char *text, const char *tail);

/* Whether f's text may be coloured: never in a file bench writes (only stdout and stderr), never with
 * NO_COLOR set to anything but "" (no-color.org); else
 * when CLICOLOR_FORCE is set to anything but "" or "0" (how a test, or a pager that keeps escapes,
 * asks for it without a terminal); else when f is a terminal whose TERM is not "dumb". */
int pb_term_colour(FILE *f);

/* The first n bytes of s on f, each verdict phrase of the answer line and the gate's table painted
 * where pb_term_colour(f) says so (green: holds, hold, pass; red: does not hold, regression;
 * yellow: inconclusive), whole words only; plain bytes otherwise. The paint takes no column, so
 * text fitted to a width before it still fits. */
void pb_term_paint(FILE *f, const char *s, size_t n);

/* pb_term_line with the verdicts painted (pb_term_paint). */
void pb_term_verdict_line(FILE *f, int width, const char *s);

#endif
