/* SPDX-License-Identifier: GPL-2.0-only */
/* text_out.h — the one way store text reaches a Markdown page and a CSV file (html.h is HTML's,
 * gp_quote gnuplot's). Names and command lines in the store come from other machines' files (bench
 * import) and from users: written through here, they stay text in the reader that opens the output. */
#ifndef PB_TEXT_OUT_H
#define PB_TEXT_OUT_H

#include <stdio.h>

/* in as one CommonMark code span: fenced by one backquote more than its longest run of backquotes,
 * padded with a space inside the fence where it begins or ends with a backquote or space (the
 * reader strips one each side), line breaks and other control characters written as spaces (a
 * blank line would end the paragraph, and the span with it). Inside a code span `<` and `*` are
 * literal, so no text of the store becomes HTML or markup. */
void pb_md_code_fputs(FILE *f, const char *in);

/* in as one CSV field (RFC 4180: quoted, quotes doubled, when it holds a comma, quote or line
 * break), and, as OWASP advises against formula injection, a field that begins with = + - @, a tab
 * or a carriage return is written quoted behind a single quote ('), so that a spreadsheet shows it
 * as text instead of evaluating it. Every other field is written exactly. */
void pb_csv_fputs(FILE *f, const char *in);

#endif
