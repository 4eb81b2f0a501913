/* SPDX-License-Identifier: GPL-2.0-only */
/* html.h — the one way text reaches an HTML page (`bench report --html`). Names in the store come
 * from other machines' files (bench import): every text from the store goes through here. */
#ifndef PB_HTML_H
#define PB_HTML_H

#include <stddef.h>
#include <stdio.h>

/* in as HTML text, safe both as element content and inside a double- or single-quoted attribute:
 * & < > " ' become entities; control characters other than tab and newline (and DEL) become
 * U+FFFD, so that no byte of the store can end an element or open a comment or script. Writes at
 * most cap bytes with the terminating NUL; returns the length it needed (as snprintf: >= cap means
 * truncated, cut only between whole entities). */
size_t pb_html_escape(char *out, size_t cap, const char *in);

/* pb_html_escape straight to f (no length limit). */
void pb_html_fputs(FILE *f, const char *in);

#endif
