/* SPDX-License-Identifier: GPL-2.0-only */
/* text_out.h — the one way store text reaches a Markdown page (as text and as a code span) and a
 * CSV file (html.h is HTML's, pb_gp_quote in report.h gnuplot's). Names and command lines in the
 * store come from other machines' files (bench import) and from users: written through here,
 * they stay text in the reader that opens the output. */
#ifndef PB_TEXT_OUT_H
#define PB_TEXT_OUT_H

#include <stddef.h>
#include <stdio.h>

/* in as Markdown text outside a code span, after other text on its line (inline, in a list item,
 * in a table cell): it renders as the same characters in CommonMark and GitHub's Markdown and
 * nothing of it is markup. & < > become entities (&amp; &lt; &gt;: no tag, no comment, no
 * autolink, and an entity in the store stays the text it was); the characters that open
 * emphasis, links, images, code spans, strikethrough, headings and table cells
 * (\ ` * _ [ ] | ~ #) are backslash-escaped; line breaks and other control characters become
 * spaces (a line break would end a table row, a blank line the paragraph). Bytes from 0x80 up
 * pass as they are (UTF-8 or not, a byte there is never markup). Writes at most cap bytes with
 * the terminating NUL and returns the length it needed (as snprintf: >= cap means truncated,
 * cut only between whole escapes). */
size_t pb_md_text_escape(char *out, size_t cap, const char *in);

/* pb_md_text_escape straight to f (no length limit). */
void pb_md_text_fputs(FILE *f, const char *in);

/* in as one CommonMark code span: fenced by one backquote more than its longest run of backquotes,
 * padded with a space inside the fence where it begins or ends with a backquote, or both begins
 * and ends with a space (the reader strips one each side then), a control character counting as
 * the space it is written as; a span of spaces only is kept as it is by the reader, and "" is
 * written as one space (CommonMark has no empty span), line breaks and other control characters written as spaces (a
 * blank line would end the paragraph, and the span with it). Inside a code span `<` and `*` are
 * literal, so no text of the store becomes HTML or markup. */
void pb_md_code_fputs(FILE *f, const char *in);

/* in as one CSV field (RFC 4180: quoted, quotes doubled, when it holds a comma, quote or line
 * break), and, as OWASP advises against formula injection, a field that begins with = + - @, a tab
 * or a carriage return is written quoted behind a single quote ('), so that a spreadsheet shows it
 * as text instead of evaluating it. Every other field is written exactly. */
void pb_csv_fputs(FILE *f, const char *in);

/* Text from the store for a terminal: a copy of in (cut to fit cap) with every control byte (an
 * escape sequence's ESC, CR, BS, ...) shown as '?', so that a name cannot drive the terminal it is
 * printed on. Returns out. */
const char *pb_term_text(char *out, size_t cap, const char *in);

/* in as XML 1.0 character data or as an attribute value between double quotes (JUnit XML): & < >
 * " ' as entities; tab, line feed and carriage return as character references (an attribute
 * keeps them so, where a reader would fold them into spaces); every other control character,
 * which XML 1.0 cannot hold at all, even as a reference, as '?'; and each byte that is not part of
 * well-formed UTF-8 (an overlong form, a surrogate, beyond U+10FFFF) or that encodes U+FFFE or
 * U+FFFF as '?', so that the document stays well-formed whatever the store held. */
void pb_xml_fputs(FILE *f, const char *in);

/* in as the text of a GitHub Actions workflow command (`::error title=T::MESSAGE`): % CR LF as
 * %25 %0D %0A, the escapes the runner undoes; as a property value (property = 1: title=, file=)
 * also : and , as %3A and %2C, which would end the value. Every other control character becomes
 * '?': nothing of in can end the command's line, start another command or drive the log's
 * terminal. */
void pb_gh_command_fputs(FILE *f, const char *in, int property);

/* The loop under every escaping function here and in html.h: in, byte by byte, as the piece
 * piece_of gives for it (NULL: the byte itself; scratch is room for a piece of up to 3 bytes).
 * pb_escape_pieces writes at most cap bytes with the NUL, cut only between whole pieces, and
 * returns the length it needed (as snprintf); pb_fputs_pieces writes all of it to f. */
typedef const char *pb_piece_fn(unsigned char c, char scratch[4]);
size_t pb_escape_pieces(char *out, size_t cap, const char *in, pb_piece_fn *piece_of);
void pb_fputs_pieces(FILE *f, const char *in, pb_piece_fn *piece_of);

#endif
