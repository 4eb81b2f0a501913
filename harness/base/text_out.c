/* SPDX-License-Identifier: GPL-2.0-only */
/* text_out.c — Markdown text, Markdown code spans, CSV fields, XML and GitHub workflow commands
 * for store text (text_out.h). */
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

/* the length of the well-formed UTF-8 sequence at p (1 to 4), or 0 when it is not one, or when it
 * encodes U+FFFE or U+FFFF (not characters in XML) */
static size_t utf8_len(const unsigned char *p)
{
    if (p[0] < 0x80) return 1;
    size_t n = p[0] >= 0xc2 && p[0] <= 0xdf ? 2 : p[0] >= 0xe0 && p[0] <= 0xef ? 3 : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : 0;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80) return 0;   /* also stops at the NUL */
    /* the second byte's range rules out overlong forms, surrogates and code points past U+10FFFF */
    if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] > 0x9f) || (p[0] == 0xf0 && p[1] < 0x90) ||
        (p[0] == 0xf4 && p[1] > 0x8f))
        return 0;
    if (n == 3 && p[0] == 0xef && p[1] == 0xbf && p[2] >= 0xbe) return 0;
    return n;
}

/* XML: the replacement of one ASCII byte, or NULL for the byte itself */
static const char *xml_piece(unsigned char c)
{
    switch (c) {
    case '&': return "&amp;";
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '"': return "&quot;";
    case '\'': return "&apos;";
    case '\t': return "&#9;";
    case '\n': return "&#10;";
    case '\r': return "&#13;";
    default: return c < 0x20 || c == 0x7f ? "?" : NULL;
    }
}

void pb_xml_fputs(FILE *f, const char *in)
{
    for (const unsigned char *p = (const unsigned char *)in; *p;) {
        size_t n = utf8_len(p);
        if (!n) {
            fputc('?', f);
            p++;
            continue;
        }
        const char *piece = n == 1 ? xml_piece(*p) : NULL;
        if (piece) fputs(piece, f);
        else fwrite(p, 1, n, f);
        p += n;
    }
}

/* a workflow command's message, and a property value, byte by byte */
static const char *gh_piece(unsigned char c, int property)
{
    switch (c) {
    case '%': return "%25";
    case '\r': return "%0D";
    case '\n': return "%0A";
    case ':': return property ? "%3A" : NULL;
    case ',': return property ? "%2C" : NULL;
    default: return c < 0x20 || c == 0x7f ? "?" : NULL;
    }
}

static const char *gh_message_piece(unsigned char c, char scratch[4])
{
    (void)scratch;
    return gh_piece(c, 0);
}

static const char *gh_property_piece(unsigned char c, char scratch[4])
{
    (void)scratch;
    return gh_piece(c, 1);
}

void pb_gh_command_fputs(FILE *f, const char *in, int property)
{
    pb_fputs_pieces(f, in, property ? gh_property_piece : gh_message_piece);
}
