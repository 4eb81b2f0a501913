/* SPDX-License-Identifier: GPL-2.0-only */
/* html.c — HTML escaping (html.h). */
#include "html.h"

#include <string.h>

/* the replacement of one byte: an entity, U+FFFD, or NULL for the byte itself */
static const char *entity(unsigned char c)
{
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

size_t pb_html_escape(char *out, size_t cap, const char *in)
{
    size_t need = 0, w = 0;
    int full = 0;
    for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
        const char *ent = entity(*p);
        char one[2] = {(char)*p, 0};
        const char *piece = ent ? ent : one;
        size_t len = strlen(piece);
        /* a piece that does not fit whole is left out, and so is everything after it */
        if (!full && w + len < cap) {
            memcpy(out + w, piece, len);
            w += len;
        } else {
            full = 1;
        }
        need += len;
    }
    if (cap) out[w] = 0;
    return need;
}

void pb_html_fputs(FILE *f, const char *in)
{
    for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
        const char *ent = entity(*p);
        if (ent) fputs(ent, f);
        else fputc(*p, f);
    }
}
