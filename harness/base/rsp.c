/* SPDX-License-Identifier: GPL-2.0-only */
#include "rsp.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pb_rsp {
    FILE *f;
    char *path;
    int lineno;
    char *line;          /* line buffer */
    size_t cap;
    int pending;         /* r->line holds a header line read but not yet used */
    /* storage for the current record / headers (freed on next call) */
    char *hdrs[PB_RSP_MAX_HDRS];
    int nhdrs;
    int hdr_run;         /* last non-blank line was a header: next header extends the run */
    char *fields[PB_RSP_MAX_FIELDS];
    int nfields_alloc;
    const char *repeatable[8];
    int nrepeatable;
};

int pb_read_line(FILE *f, char **buf, size_t *cap, size_t max, size_t *len)
{
    size_t n = 0;
    int c;
    errno = 0;
    while ((c = getc(f)) != EOF && c != '\n') {
        if (n == max) return -2;
        if (n + 2 > *cap) {
            size_t ncap = *cap ? *cap * 2 : 256;
            if (ncap > max + 2) ncap = max + 2;
            char *p = realloc(*buf, ncap);
            if (!p) { errno = ENOMEM; return -1; }
            *buf = p;
            *cap = ncap;
        }
        (*buf)[n++] = (char)c;
    }
    if (c == EOF && ferror(f)) {
        if (!errno) errno = EIO;
        return -1;
    }
    if (c == EOF && n == 0) return 0;
    if (!*buf) {                     /* an empty first line: still hand back a string */
        if (!(*buf = malloc(1))) { errno = ENOMEM; return -1; }
        *cap = 1;
    }
    if (n && (*buf)[n - 1] == '\r') n--;
    (*buf)[n] = 0;
    *len = n;
    return 1;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    char *end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1])) *--end = 0;
    return s;
}

pb_rsp *pb_rsp_open_stream(FILE *f, const char *name, pb_err *e)
{
    pb_rsp *r = calloc(1, sizeof *r);
    if (r) r->path = strdup(name);
    if (!r || !r->path) {
        free(r);
        fclose(f);
        pb_errf(e, "%s: out of memory", name);
        return NULL;
    }
    r->f = f;
    return r;
}

pb_rsp *pb_rsp_open(const char *path, pb_err *e)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        pb_errf(e, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    return pb_rsp_open_stream(f, path, e);
}

void pb_rsp_allow_repeat(pb_rsp *r, const char *name)
{
    if (r->nrepeatable < (int)(sizeof r->repeatable / sizeof r->repeatable[0]))
        r->repeatable[r->nrepeatable++] = name;
}

static int repeatable(const pb_rsp *r, const char *name)
{
    for (int i = 0; i < r->nrepeatable; i++)
        if (!strcmp(r->repeatable[i], name)) return 1;
    return 0;
}

const char *pb_rsp_path(const pb_rsp *r) { return r->path; }

static void free_fields(pb_rsp *r)
{
    for (int i = 0; i < r->nfields_alloc; i++) free(r->fields[i]);
    r->nfields_alloc = 0;
}

void pb_rsp_close(pb_rsp *r)
{
    if (!r) return;
    free_fields(r);
    for (int i = 0; i < r->nhdrs; i++) free(r->hdrs[i]);
    free(r->line);
    free(r->path);
    fclose(r->f);
    free(r);
}

/* Next line into r->line: 1, 0 at end of file, -1 + e on a line we refuse. */
static int next_line(pb_rsp *r, pb_err *e)
{
    if (r->pending) {
        r->pending = 0;
        return 1;
    }
    size_t n = 0;
    int rc = pb_read_line(r->f, &r->line, &r->cap, PB_LINE_MAX, &n);
    if (rc == 0) return 0;
    r->lineno++;
    if (rc == -2) return pb_errf(e, "%s:%d: line longer than %u bytes", r->path, r->lineno, PB_LINE_MAX);
    if (rc < 0) return pb_errf(e, "%s:%d: read error: %s", r->path, r->lineno, strerror(errno));
    if (memchr(r->line, 0, n))
        return pb_errf(e, "%s:%d: binary data (NUL byte) in a text vector file", r->path, r->lineno);
    if (memchr(r->line, '\r', n))
        return pb_errf(e, "%s:%d: carriage return inside a line (lines must end in LF or CR LF)", r->path,
                       r->lineno);
    return 1;
}

int pb_rsp_next(pb_rsp *r, pb_rsp_rec *rec, pb_err *e)
{
    free_fields(r);
    memset(rec, 0, sizeof *rec);
    int got;
    while ((got = next_line(r, e)) > 0) {
        char *s = trim(r->line);
        if (*s == 0) {
            r->hdr_run = 0;
            if (rec->nfields) break;       /* blank line ends a record */
            continue;
        }
        if (*s == '#') continue;
        if (*s == '[') {
            if (rec->nfields) {
                /* header right after a record without a blank line: it belongs to the next call */
                r->pending = 1;
                break;
            }
            char *end = strrchr(s, ']');
            if (!end) return pb_errf(e, "%s:%d: section header without ']'", r->path, r->lineno);
            *end = 0;
            if (!r->hdr_run) {
                for (int i = 0; i < r->nhdrs; i++) free(r->hdrs[i]);
                r->nhdrs = 0;
            }
            if (r->nhdrs == PB_RSP_MAX_HDRS)
                return pb_errf(e, "%s:%d: more than %d section headers in a row", r->path, r->lineno, PB_RSP_MAX_HDRS);
            if (!(r->hdrs[r->nhdrs] = strdup(trim(s + 1))))
                return pb_errf(e, "%s:%d: out of memory", r->path, r->lineno);
            r->nhdrs++;
            r->hdr_run = 1;
            continue;
        }
        r->hdr_run = 0;
        char *eq = strchr(s, '=');
        if (!eq) return pb_errf(e, "%s:%d: expected 'Name = value', got '%.40s'", r->path, r->lineno, s);
        *eq = 0;
        char *name = trim(s), *value = trim(eq + 1);
        if (!*name) return pb_errf(e, "%s:%d: empty field name", r->path, r->lineno);
        const pb_rsp_field *dup = pb_rsp_field_of(rec, name, 0);
        if (dup && !repeatable(r, name))
            return pb_errf(e, "%s:%d: field '%.40s' given twice in one record (first on line %d)", r->path,
                           r->lineno, name, dup->line);
        if (rec->nfields == PB_RSP_MAX_FIELDS)
            return pb_errf(e, "%s:%d: more than %d fields in one record", r->path, r->lineno, PB_RSP_MAX_FIELDS);
        if (!rec->nfields) rec->line = r->lineno;
        size_t ln = strlen(name), lv = strlen(value);
        char *buf = malloc(ln + lv + 2);
        if (!buf) return pb_errf(e, "%s:%d: out of memory", r->path, r->lineno);
        memcpy(buf, name, ln + 1);
        memcpy(buf + ln + 1, value, lv + 1);
        r->fields[r->nfields_alloc++] = buf;
        rec->f[rec->nfields].name = buf;
        rec->f[rec->nfields].value = buf + ln + 1;
        rec->f[rec->nfields].line = r->lineno;
        rec->nfields++;
    }
    if (got < 0) return -1;
    rec->nhdrs = r->nhdrs;
    for (int i = 0; i < r->nhdrs; i++) rec->hdr[i] = r->hdrs[i];
    return rec->nfields ? 1 : 0;
}

const pb_rsp_field *pb_rsp_field_of(const pb_rsp_rec *rec, const char *name, int nth)
{
    for (int i = 0; i < rec->nfields; i++)
        if (strcmp(rec->f[i].name, name) == 0 && nth-- == 0) return &rec->f[i];
    return NULL;
}

const char *pb_rsp_get(const pb_rsp_rec *rec, const char *name, int nth)
{
    const pb_rsp_field *f = pb_rsp_field_of(rec, name, nth);
    return f ? f->value : NULL;
}

const char *pb_rsp_hdr(const pb_rsp_rec *rec, const char *prefix)
{
    size_t n = strlen(prefix);
    for (int i = 0; i < rec->nhdrs; i++)
        if (strncmp(rec->hdr[i], prefix, n) == 0) return rec->hdr[i];
    return NULL;
}

long pb_rsp_hex(const pb_rsp *r, const pb_rsp_rec *rec, const char *name, int nth, uint8_t **out, pb_err *e)
{
    const pb_rsp_field *f = pb_rsp_field_of(rec, name, nth);
    if (!f) return pb_errf(e, "%s:%d: record has no field '%s'", r->path, rec->line, name);
    size_t len = 0;
    uint8_t *p = pb_unhex_alloc(f->value, &len);
    if (!p) return pb_errf(e, "%s:%d: field '%s' is not a hex string", r->path, f->line, name);
    *out = p;
    return (long)len;
}

int pb_rsp_sniff(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char buf[4097];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return strstr(buf, needle) != NULL;
}
