/* SPDX-License-Identifier: GPL-2.0-only */
/* text_out.c — Markdown text, Markdown code spans and CSV fields for store text (text_out.h). */
#include "text_out.h"

#include <string.h>

size_t pb_escape_pieces(char *out, size_t cap, const char *in, pb_piece_fn *piece_of)
{
    size_t need = 0, w = 0;
    int full = 0;
    for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
        char scratch[4], one[2] = {(char)*p, 0};
        const char *piece = piece_of(*p, scratch);
        if (!piece) piece = one;
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

void pb_fputs_pieces(FILE *f, const char *in, pb_piece_fn *piece_of)
{
    for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
        char scratch[4];
        const char *piece = piece_of(*p, scratch);
        if (piece) fputs(piece, f);
        else fputc(*p, f);
    }
}

/* Markdown text: the replacement of one byte, or NULL for the byte itself */
static const char *md_text_piece(unsigned char c, char scratch[4])
{
    switch (c) {
    case '&': return "&amp;";
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '\\': case '`': case '*': case '_': case '[': case ']': case '|': case '~': case '#':
        scratch[0] = '\\', scratch[1] = (char)c, scratch[2] = 0;
        return scratch;
    default: return c < 0x20 || c == 0x7f ? " " : NULL;
    }
}

size_t pb_md_text_escape(char *out, size_t cap, const char *in) { return pb_escape_pieces(out, cap, in, md_text_piece); }

void pb_md_text_fputs(FILE *f, const char *in) { pb_fputs_pieces(f, in, md_text_piece); }

/* a byte as a code span shows it: control characters as spaces */
static unsigned char code_char(unsigned char c) { return c < 0x20 || c == 0x7f ? ' ' : c; }

void pb_md_code_fputs(FILE *f, const char *in)
{
    size_t longest = 0, run = 0, n = strlen(in), spaces = 0;
    for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        if (run > longest) longest = run;
        spaces += code_char(*p) == ' ';
    }
    /* CommonMark has no empty code span ("``" is two backquotes): none is one space, which a
     * reader keeps, as it keeps a span of spaces only (no padding for one: it would show) */
    if (!n) {
        fputs("` `", f);
        return;
    }
    /* padded where a backquote would join the fence, or where the reader would strip a space
     * each side: decided on what it sees, a control character being a space there */
    unsigned char first = code_char((unsigned char)in[0]), last = code_char((unsigned char)in[n - 1]);
    int pad = spaces != n && (first == '`' || last == '`' || (first == ' ' && last == ' '));
    for (size_t i = 0; i <= longest; i++) fputc('`', f);
    if (pad) fputc(' ', f);
    for (const unsigned char *p = (const unsigned char *)in; *p; p++) fputc(code_char(*p), f);
    if (pad) fputc(' ', f);
    for (size_t i = 0; i <= longest; i++) fputc('`', f);
}

void pb_csv_fputs(FILE *f, const char *in)
{
    int formula = strchr("=+-@\t\r", in[0]) && in[0];
    if (!formula && !strpbrk(in, ",\"\r\n")) {
        fputs(in, f);
        return;
    }
    fputc('"', f);
    if (formula) fputc('\'', f);
    for (const char *p = in; *p; p++) {
        if (*p == '"') fputc('"', f);
        fputc(*p, f);
    }
    fputc('"', f);
}

const char *pb_term_text(char *out, size_t cap, const char *in)
{
    size_t k = 0;
    for (; cap && in && in[k] && k + 1 < cap; k++) {
        unsigned char c = (unsigned char)in[k];
        out[k] = c < 0x20 || c == 0x7f ? '?' : (char)c;
    }
    if (cap) out[k] = 0;
    return out;
}
