/* SPDX-License-Identifier: GPL-2.0-only */
/* term.c — lines that fit the terminal (term.h). */
#include "term.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int pb_term_width(void) { return pb_term_width_fd(STDERR_FILENO); }

int pb_term_width_fd(int fd)
{
    const char *c = getenv("COLUMNS");
    if (c && *c) {
        char *end;
        errno = 0;
        long v = strtol(c, &end, 10);
        if (!*end && !errno && v >= 0 && v <= 100000) return (int)v;
    }
    struct winsize ws;
    if (isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
    return 0;
}

static int continues(unsigned char b) { return (b & 0xC0) == 0x80; }

size_t pb_utf8_cols(const char *s)
{
    size_t n = 0;
    for (; *s; s++) n += !continues((unsigned char)*s);
    return n;
}

/* The byte offset of s's character number cols (its end if it has fewer). */
static size_t byte_at_col(const char *s, size_t cols)
{
    size_t i = 0, n = 0;
    while (s[i]) {
        if (!continues((unsigned char)s[i]) && n++ == cols) break;
        i++;
    }
    return i;
}

char *pb_utf8_fit(char *s, size_t cap, int width)
{
    if (width <= 0 || pb_utf8_cols(s) <= (size_t)width) return s;
    size_t keep = (size_t)width - 1, at = byte_at_col(s, keep);
    while (keep > 0 && at + sizeof "…" > cap) at = byte_at_col(s, --keep);
    if (at + sizeof "…" > cap) {
        s[0] = '\0';
        return s;
    }
    memcpy(s + at, "…", sizeof "…");
    return s;
}

void pb_term_line(FILE *f, int width, const char *s)
{
    if (width <= 0 || pb_utf8_cols(s) <= (size_t)width) {
        fprintf(f, "%s\n", s);
        return;
    }
    size_t at = byte_at_col(s, (size_t)width - 1);
    fprintf(f, "%.*s…\n", (int)at, s);
}

void pb_term_wrap(FILE *f, int width, const char *s)
{
    size_t indent = 0;
    while (width > 0 && pb_utf8_cols(s) + indent > (size_t)width) {
        size_t room = (size_t)width > indent + 1 ? (size_t)width - indent : 1;
        size_t at = byte_at_col(s, room), cut = at;
        while (cut > 0 && s[cut] != ' ') cut--;  /* the last space that ends a line in view */
        if (cut == 0) cut = at;
        fprintf(f, "%*s%.*s\n", (int)indent, "", (int)cut, s);
        s += cut;
        while (*s == ' ') s++;
        indent = 2;
        if (!*s) return;
    }
    fprintf(f, "%*s%s\n", (int)indent, "", s);
}

/* The length of text's first sentence: to its first ". " or "; " out of brackets, or its first line. */
static size_t first_sentence(const char *t)
{
    int depth = 0;
    for (size_t i = 0; t[i]; i++) {
        if (t[i] == '\n') return i;
        if (t[i] == '(' || t[i] == '[') depth++;
        else if ((t[i] == ')' || t[i] == ']') && depth > 0) depth--;
        else if (!depth && (t[i] == '.' || t[i] == ';') && t[i + 1] == ' ') return i;
    }
    return strlen(t);
}

/* s without its bracketed asides " (...)" (in place). */
static void drop_asides(char *s)
{
    char *w = s;
    int depth = 0;
    for (const char *r = s; *r; r++) {
        if (*r == '(') {
            if (!depth && w > s && w[-1] == ' ') w--;
            depth++;
        } else if (*r == ')' && depth > 0) {
            depth--;
        } else if (!depth) {
            *w++ = *r;
        }
    }
    *w = '\0';
}

void pb_term_warn(FILE *f, int width, const char *head, const char *text, const char *tail)
{
    if (width <= 0) {
        fprintf(f, "%s%s\n", head, text);
        return;
    }
    char s[1024], line[1400];
    size_t n = first_sentence(text);
    snprintf(s, sizeof s, "%.*s", (int)n, text);
    size_t room = (size_t)width, fixed = pb_utf8_cols(head);
    int rest = text[n] && !(text[n] == '\n' && !text[n + 1]);  /* more than this sentence */
    if (!rest && pb_utf8_cols(s) + fixed <= room) {
        fprintf(f, "%s%s\n", head, s);  /* the whole of it fits */
        return;
    }
    fixed += tail ? pb_utf8_cols(tail) + 3 : 0;
    if (pb_utf8_cols(s) + fixed > room) drop_asides(s);
    if (fixed < room) pb_utf8_fit(s, sizeof s, (int)(room - fixed));
    if (tail) snprintf(line, sizeof line, "%s%s (%s)", head, s, tail);
    else snprintf(line, sizeof line, "%s%s", head, s);
    pb_term_line(f, width, line);
}
