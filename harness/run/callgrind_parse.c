/* SPDX-License-Identifier: GPL-2.0-only */
/* callgrind_parse.c — see callgrind_parse.h */
#include "callgrind_parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the numbers after "totals:" or "summary:" into v[0..nevents); missing trailing ones are 0 */
static int parse_numbers(const char *path, int line, const char *key, const char *p, int nevents, uint64_t *v,
                         pb_err *e)
{
    int k = 0;
    memset(v, 0, (size_t)nevents * sizeof *v);
    for (;;) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) break;
        if (!isdigit((unsigned char)*p)) return pb_errf(e, "%s:%d: %s: '%.20s' is not an unsigned count", path, line, key, p);
        if (k == nevents)
            return pb_errf(e, "%s:%d: %s: more numbers than the %d events named by 'events:'", path, line, key, nevents);
        char *end;
        errno = 0;
        unsigned long long x = strtoull(p, &end, 10);
        if (errno || (*end && *end != ' ' && *end != '\t'))
            return pb_errf(e, "%s:%d: %s: bad count '%.20s'", path, line, key, p);
        v[k++] = x;
        p = end;
    }
    if (!k) return pb_errf(e, "%s:%d: %s: no numbers", path, line, key);
    return 0;
}

static int parse_events(const char *path, int line, const char *p, pb_cg_counts *c, pb_err *e)
{
    if (c->nevents) return pb_errf(e, "%s:%d: a second 'events:' line", path, line);
    for (;;) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) break;
        size_t n = strcspn(p, " \t");
        if (c->nevents == PB_CG_MAX_EVENTS) return pb_errf(e, "%s:%d: more than %d events", path, line, PB_CG_MAX_EVENTS);
        if (n >= sizeof c->event[0]) return pb_errf(e, "%s:%d: event name '%.*s' is too long", path, line, (int)n, p);
        for (size_t i = 0; i < n; i++)
            if (!isalnum((unsigned char)p[i]) && p[i] != '_')
                return pb_errf(e, "%s:%d: bad event name '%.*s'", path, line, (int)n, p);
        for (int i = 0; i < c->nevents; i++)
            if (strlen(c->event[i]) == n && !strncmp(c->event[i], p, n))
                return pb_errf(e, "%s:%d: event '%.*s' named twice", path, line, (int)n, p);
        memcpy(c->event[c->nevents], p, n);
        c->event[c->nevents++][n] = 0;
        p += n;
    }
    if (!c->nevents) return pb_errf(e, "%s:%d: 'events:' names no event", path, line);
    return 0;
}

int pb_cg_parse_text(const char *path, const char *text, pb_cg_counts *c, pb_err *e)
{
    memset(c, 0, sizeof *c);
    uint64_t summary[PB_CG_MAX_EVENTS], totals[PB_CG_MAX_EVENTS];
    int have_summary = 0, have_totals = 0, have_version = 0, have_creator = 0, line = 0;
    for (const char *p = text; *p;) {
        line++;
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char buf[4096];
        if (len >= sizeof buf) {
            /* long cost or name lines of the body are allowed; only header keys must fit */
            if (!strncmp(p, "events:", 7) || !strncmp(p, "totals:", 7) || !strncmp(p, "summary:", 8))
                return pb_errf(e, "%s:%d: line too long", path, line);
            p = nl ? nl + 1 : p + len;
            continue;
        }
        memcpy(buf, p, len);
        buf[len] = 0;
        if (len && buf[len - 1] == '\r') buf[--len] = 0;
        p = nl ? nl + 1 : p + len;
        if (memchr(buf, 0, len)) return pb_errf(e, "%s:%d: NUL byte", path, line);
        if (line == 1 && strncmp(buf, "# callgrind format", 18) && strncmp(buf, "version:", 8))
            return pb_errf(e, "%s:%d: not a callgrind output file (no '# callgrind format' header)", path, line);
        if (!strncmp(buf, "version:", 8)) {
            const char *v = buf + 8 + strspn(buf + 8, " \t");
            if (strcmp(v, "1")) return pb_errf(e, "%s:%d: callgrind format version '%s' (this reader knows 1)", path, line, v);
            have_version = 1;
        } else if (!strncmp(buf, "creator:", 8)) {
            const char *v = buf + 8 + strspn(buf + 8, " \t");
            if (strncmp(v, "callgrind", 9)) return pb_errf(e, "%s:%d: written by '%s', not callgrind", path, line, v);
            have_creator = 1;
        } else if (!strncmp(buf, "desc: Trigger:", 14)) {
            const char *v = buf + 14 + strspn(buf + 14, " \t");
            if (strlen(v) >= sizeof c->trigger) return pb_errf(e, "%s:%d: trigger text too long", path, line);
            snprintf(c->trigger, sizeof c->trigger, "%s", v);
        } else if (!strncmp(buf, "events:", 7)) {
            if (parse_events(path, line, buf + 7, c, e) < 0) return -1;
        } else if (!strncmp(buf, "summary:", 8) || !strncmp(buf, "totals:", 7)) {
            int is_sum = buf[0] == 's';
            const char *key = is_sum ? "summary" : "totals";
            if (!c->nevents) return pb_errf(e, "%s:%d: '%s:' before 'events:'", path, line, key);
            if (is_sum ? have_summary : have_totals) return pb_errf(e, "%s:%d: a second '%s:' line", path, line, key);
            if (parse_numbers(path, line, key, buf + (is_sum ? 8 : 7), c->nevents, is_sum ? summary : totals, e) < 0)
                return -1;
            *(is_sum ? &have_summary : &have_totals) = 1;
        }
    }
    if (!have_version) return pb_errf(e, "%s: no 'version:' line", path);
    if (!have_creator) return pb_errf(e, "%s: no 'creator:' line", path);
    if (!c->nevents) return pb_errf(e, "%s: no 'events:' line", path);
    if (!have_totals && !have_summary) return pb_errf(e, "%s: neither 'totals:' nor 'summary:': a truncated dump?", path);
    /* totals is the sum of the cost lines; callgrind's summary may count one client request more */
    memcpy(c->total, have_totals ? totals : summary, sizeof c->total);
    return 0;
}

char *pb_cg_read_file(const char *path, pb_err *e)
{
    FILE *f = fopen(path, "rb");
    if (!f) { pb_errf(e, "%s: %s", path, strerror(errno)); return NULL; }
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap);
    while (text) {
        if (n + 1 == cap) {
            if (cap >= (size_t)1 << 30) { free(text); fclose(f); pb_errf(e, "%s: larger than 1 GiB", path); return NULL; }
            char *t2 = realloc(text, cap *= 2);
            if (!t2) { free(text); text = NULL; break; }
            text = t2;
        }
        size_t got = fread(text + n, 1, cap - 1 - n, f);
        n += got;
        if (got == 0) break;
    }
    int err = ferror(f);
    fclose(f);
    if (!text) { pb_errf(e, "%s: out of memory", path); return NULL; }
    if (err) { free(text); pb_errf(e, "%s: read error", path); return NULL; }
    text[n] = 0;
    if (strlen(text) != n) { free(text); pb_errf(e, "%s: NUL byte in the file", path); return NULL; }
    return text;
}

int pb_cg_parse_file(const char *path, pb_cg_counts *c, pb_err *e)
{
    char *text = pb_cg_read_file(path, e);
    if (!text) return -1;
    int rc = pb_cg_parse_text(path, text, c, e);
    free(text);
    return rc;
}

int pb_cg_event(const pb_cg_counts *c, const char *event, uint64_t *v)
{
    for (int i = 0; i < c->nevents; i++)
        if (!strcmp(c->event[i], event)) { *v = c->total[i]; return 0; }
    return -1;
}
