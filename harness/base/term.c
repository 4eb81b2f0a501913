/* SPDX-License-Identifier: GPL-2.0-only */
/* term.c — lines that fit the terminal (term.h). */
#include "term.h"

#include <ctype.h>
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

/* s and a newline on f, cut to width with '…'; its verdicts painted when paint (pb_term_paint) */
static void put_line(FILE *f, int width, const char *s, int paint)
{
    size_t n = strlen(s);
    int cut = width > 0 && pb_utf8_cols(s) > (size_t)width;
    if (cut) n = byte_at_col(s, (size_t)width - 1);
    if (paint) pb_term_paint(f, s, n);
    else fwrite(s, 1, n, f);
    fputs(cut ? "…\n" : "\n", f);
}

void pb_term_line(FILE *f, int width, const char *s) { put_line(f, width, s, 0); }

void pb_term_verdict_line(FILE *f, int width, const char *s) { put_line(f, width, s, 1); }

int pb_term_colour(FILE *f)
{
    const char *no = getenv("NO_COLOR"), *force = getenv("CLICOLOR_FORCE"), *term = getenv("TERM");
    if ((no && *no) || (f != stdout && f != stderr)) return 0;   /* a file written (--write) never */
    if (force && *force && strcmp(force, "0")) return 1;
    return isatty(fileno(f)) && !(term && !strcmp(term, "dumb"));
}

/* the verdict phrases, each before any phrase it begins with (the longest is tried first) */
static const struct {
    const char *phrase, *sgr;
} PAINT[] = {
    {"claim does not hold", "31"}, {"does not hold", "31"}, {"do not hold", "31"}, {"regressions", "31"},
    {"regression", "31"},          {"inconclusive here", "33"}, {"inconclusive", "33"}, {"holds", "32"},
    {"hold", "32"},                {"pass", "32"},
};

static int word_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* the index in PAINT of the phrase that starts s at i as a whole word (not before n), or -1 */
static int phrase_at(const char *s, size_t i, size_t n)
{
    if (i > 0 && word_char(s[i - 1])) return -1;
    if (i >= 2 && s[i - 1] == ' ' && s[i - 2] == '0' && (i == 2 || !word_char(s[i - 3]))) return -1;   /* "0 pass" */
    for (size_t k = 0; k < sizeof PAINT / sizeof PAINT[0]; k++) {
        size_t len = strlen(PAINT[k].phrase);
        if (i + len <= n && !memcmp(s + i, PAINT[k].phrase, len) && (i + len == n || !word_char(s[i + len])))
            return (int)k;
    }
    return -1;
}

void pb_term_paint(FILE *f, const char *s, size_t n)
{
    if (!pb_term_colour(f)) {
        fwrite(s, 1, n, f);
        return;
    }
    size_t from = 0;
    for (size_t i = 0; i < n; i++) {
        int k = phrase_at(s, i, n);
        if (k < 0) continue;
        size_t len = strlen(PAINT[k].phrase);
        fwrite(s + from, 1, i - from, f);
        fprintf(f, "\033[%sm%.*s\033[0m", PAINT[k].sgr, (int)len, s + i);
        from = i + len;
        i = from - 1;
    }
    fwrite(s + from, 1, n - from, f);
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
