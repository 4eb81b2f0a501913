/* SPDX-License-Identifier: GPL-2.0-only */
/* drbg_upstream.c — OUT/upstream.tsv, the manifest of scripts/upstream-libgcrypt (drbg_upstream.h). */
#include "drbg_upstream.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rsp.h"

#define HEADER "role\tcommit\tlibrary"
#define LINE_MAX_BYTES 2048

static int is_commit(const char *s)
{
    return strlen(s) == 40 && strspn(s, "0123456789abcdef") == 40;
}

/* A path under OUT that stays there: relative, no `..` component. */
static int stays_inside(const char *p)
{
    if (!*p || *p == '/') return 0;
    for (const char *c = p; c; c = strchr(c, '/') ? strchr(c, '/') + 1 : NULL)
        if (!strncmp(c, "..", 2) && (c[2] == '/' || !c[2])) return 0;
    return 1;
}

/* One row "role<TAB>commit<TAB>library" of line ln into u. */
static int read_row(const char *file, int ln, char *line, const char *out, drbg_upstream *u, int seen[2], pb_err *e)
{
    char *f[3];
    char *save = NULL;
    int n = 0;
    for (char *t = strtok_r(line, "\t", &save); t; t = strtok_r(NULL, "\t", &save)) {
        if (n == 3) return pb_errf(e, "%s:%d: more than 3 tab-separated fields", file, ln);
        f[n++] = t;
    }
    if (n != 3) return pb_errf(e, "%s:%d: expected 3 tab-separated fields (role commit library)", file, ln);
    int r = !strcmp(f[0], DRBG_UPSTREAM_OLD) ? 0 : !strcmp(f[0], DRBG_UPSTREAM_NEW) ? 1 : -1;
    if (r < 0) return pb_errf(e, "%s:%d: role must be %s or %s", file, ln, DRBG_UPSTREAM_OLD, DRBG_UPSTREAM_NEW);
    if (seen[r]++) return pb_errf(e, "%s:%d: %s given twice", file, ln, f[0]);
    if (!is_commit(f[1])) return pb_errf(e, "%s:%d: commit must be 40 lower-case hex digits", file, ln);
    if (!stays_inside(f[2])) return pb_errf(e, "%s:%d: library must be a path inside %s, without '..'", file, ln, out);
    if ((size_t)snprintf(u->path[r], sizeof u->path[r], "%s/%s", out, f[2]) >= sizeof u->path[r])
        return pb_errf(e, "%s:%d: library path too long", file, ln);
    struct stat st;
    if (stat(u->path[r], &st) < 0) return pb_errf(e, "%s:%d: %s: %s", file, ln, u->path[r], strerror(errno));
    if (!S_ISREG(st.st_mode)) return pb_errf(e, "%s:%d: %s: not a regular file", file, ln, u->path[r]);
    snprintf(u->commit[r], sizeof u->commit[r], "%s", f[1]);
    return 0;
}

int drbg_upstream_read(const char *out, drbg_upstream *u, pb_err *e)
{
    char file[1100];
    if ((size_t)snprintf(file, sizeof file, "%s/%s", out, DRBG_UPSTREAM_MANIFEST) >= sizeof file)
        return pb_errf(e, "--upstream: path too long");
    memset(u, 0, sizeof *u);
    FILE *fp = fopen(file, "r");
    if (!fp)
        return pb_errf(e, "--upstream %s: %s: %s (made by scripts/upstream-libgcrypt SRC %s)", out, file,
                       strerror(errno), out);
    char *line = NULL;
    size_t cap = 0, len;
    int ln = 0, rc = 0, got, seen[2] = { 0, 0 };
    while (rc == 0 && (got = pb_read_line(fp, &line, &cap, LINE_MAX_BYTES, &len)) > 0) {
        ln++;
        if (memchr(line, 0, len)) rc = pb_errf(e, "%s:%d: a NUL byte", file, ln);
        else if (ln == 1) rc = strcmp(line, HEADER) ? pb_errf(e, "%s:1: expected the header '%s'", file, "role\\tcommit\\tlibrary") : 0;
        else rc = read_row(file, ln, line, out, u, seen, e);
    }
    if (rc == 0 && got == -2) rc = pb_errf(e, "%s:%d: line longer than %d bytes", file, ln + 1, LINE_MAX_BYTES);
    if (rc == 0 && got == -1) rc = pb_errf(e, "%s: %s", file, strerror(errno));
    if (rc == 0 && ln == 0) rc = pb_errf(e, "%s: empty", file);
    if (rc == 0 && (!seen[0] || !seen[1]))
        rc = pb_errf(e, "%s: no %s row", file, !seen[0] ? DRBG_UPSTREAM_OLD : DRBG_UPSTREAM_NEW);
    free(line);
    fclose(fp);
    return rc;
}
