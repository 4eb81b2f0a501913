/* SPDX-License-Identifier: GPL-2.0-only */
/* html.c — HTML escaping (html.h). */
#include "html.h"

#include "text_out.h"

/* the replacement of one byte: an entity, U+FFFD, or NULL for the byte itself */
static const char *entity(unsigned char c, char scratch[4])
{
    (void)scratch;
    switch (c) {
    case '&': return "&amp;";
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '"': return "&quot;";
    case '\'': return "&#39;";
    case '\t': case '\n': return NULL;
    default: return c < 0x20 || c == 0x7f ? "\xef\xbf\xbd" : NULL;
    }
}

size_t pb_html_escape(char *out, size_t cap, const char *in) { return pb_escape_pieces(out, cap, in, entity); }

void pb_html_fputs(FILE *f, const char *in) { pb_fputs_pieces(f, in, entity); }
