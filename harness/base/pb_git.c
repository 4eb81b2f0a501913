/* SPDX-License-Identifier: GPL-2.0-only */
/* pb_git.c — see pb_git.h. */
#include "pb_git.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb_spawn.h"

/* git -c core.fsmonitor=false -C dir ARGS...: its stdout (malloc'd, NUL-terminated) when it exited
 * 0, else NULL. nargs words of args. */
static char *run_git(const char *dir, const char *const *args, size_t nargs)
{
    char git[1024];
    if (!pb_find_program("git", git, sizeof git)) return NULL;
    const char **argv = calloc(nargs + 6, sizeof *argv);
    if (!argv) return NULL;
    size_t k = 0;
    argv[k++] = git;
    argv[k++] = "-c";
    argv[k++] = "core.fsmonitor=false";
    argv[k++] = "-C";
    argv[k++] = dir;
    for (size_t i = 0; i < nargs; i++) argv[k++] = args[i];
    argv[k] = NULL;
    char *out = NULL;
    pb_proc p;
    pb_err e = {{0}};
    int rc = pb_spawn((char *const *)argv, &out, PB_GIT_LIMIT_S, &p, &e);
    free(argv);
    if (rc < 0) return NULL;
    if (pb_proc_check("git", &p, &e) < 0) {
        free(out);
        return NULL;
    }
    return out;
}

/* the first line of git's answer into out[cap]: 1, or 0 (failed, or an empty answer) */
static int git_line(const char *dir, const char *const *args, size_t nargs, char *out, size_t cap)
{
    char *s = run_git(dir, args, nargs);
    if (!s) return 0;
    s[strcspn(s, "\r\n")] = 0;
    snprintf(out, cap, "%s", s);
    int ok = *s != 0;
    free(s);
    return ok;
}

int pb_git_describe(const char *dir, char *top, size_t tcap, char *rev, size_t rcap)
{
    static const char *const top_args[] = {"rev-parse", "--show-toplevel"};
    static const char *const rev_args[] = {"describe", "--always", "--dirty"};
    top[0] = rev[0] = 0;
    if (!git_line(dir, top_args, 2, top, tcap) || !git_line(dir, rev_args, 3, rev, rcap)) {
        top[0] = rev[0] = 0;
        return 0;
    }
    return 1;
}

static int is_hex40(const char *s)
{
    if (strlen(s) != 40) return 0;
    for (const char *p = s; *p; p++)
        if (!strchr("0123456789abcdef", *p)) return 0;
    return 1;
}

int pb_git_commit(const char *top, const char *rev, char out[41])
{
    char name[300], spec[320];
    snprintf(name, sizeof name, "%s", rev);
    size_t n = strlen(name);
    if (n > 6 && !strcmp(name + n - 6, "-dirty")) name[n - 6] = 0;
    /* a name that starts with '-' would read as an option */
    if (!name[0] || name[0] == '-') return 0;
    snprintf(spec, sizeof spec, "%s^{commit}", name);
    const char *args[] = {"rev-parse", "--verify", "--quiet", spec};
    char line[128];
    if (!git_line(top, args, 4, line, sizeof line) || !is_hex40(line)) return 0;
    memcpy(out, line, 41);
    return 1;
}

/* a revision name git rev-parse reads as one commit: the trailing -dirty dropped; "" for a name
 * that would read as an option or as more than one revision (a range, a negation) */
static void rev_name(const char *rev, char *name, size_t cap)
{
    snprintf(name, cap, "%s", rev);
    size_t n = strlen(name);
    if (n > 6 && !strcmp(name + n - 6, "-dirty")) name[n - 6] = 0;
    if (name[0] == '-' || name[0] == '^' || strstr(name, "..") || strchr(name, ' ')) name[0] = 0;
}

/* One git log of the names specs[0..n) not yet answered (done[i] 0): `--no-walk=unsorted
 * --ignore-missing --format='%H %S'` lists each commit once, by the first name that reached it, and
 * leaves unknown names out. The number of names answered, -1 when git failed. */
static long commits_round(const char *top, char (*spec)[320], size_t n, char *done, char (*out)[41])
{
    const char **args = calloc(n + 6, sizeof *args);
    if (!args) return -1;
    size_t k = 0;
    args[k++] = "log";
    args[k++] = "--no-walk=unsorted";
    args[k++] = "--ignore-missing";
    args[k++] = "--format=%H %S";
    for (size_t i = 0; i < n; i++)
        if (!done[i]) args[k++] = spec[i];
    args[k++] = "--"; /* every word before it a revision, never a path */
    char *list = run_git(top, args, k);
    free(args);
    if (!list) return -1;
    long got = 0;
    size_t from = 0; /* answers come in the names' order: look from the last one on */
    for (char *line = list, *next; *line; line = next) {
        next = line + strcspn(line, "\n");
        if (*next) *next++ = 0;
        if (strlen(line) < 42 || line[40] != ' ') continue;
        line[40] = 0;
        if (!is_hex40(line)) continue;
        for (size_t c = 0; c < n; c++) {
            size_t i = (from + c) % n;
            if (done[i] || strcmp(spec[i], line + 41)) continue;
            memcpy(out[i], line, 41);
            done[i] = 1;
            got++;
            from = i + 1;
            break;
        }
    }
    free(list);
    return got;
}

int pb_git_commits(const char *top, const char *const *revs, size_t n, char (*out)[41])
{
    for (size_t i = 0; i < n; i++) out[i][0] = 0;
    char (*spec)[320] = calloc(n ? n : 1, sizeof *spec);
    char *done = calloc(n ? n : 1, 1);
    if (!spec || !done) {
        free(spec);
        free(done);
        return -1;
    }
    size_t left = 0;
    for (size_t i = 0; i < n; i++) {
        char name[300];
        rev_name(revs[i], name, sizeof name);
        done[i] = !name[0];
        if (name[0]) snprintf(spec[i], sizeof spec[0], "%s^{commit}", name);
        left += !done[i];
    }
    /* a second name of a commit already listed is answered in the next round; a round that
     * answers none leaves only names git does not know */
    long got;
    while (left && (got = commits_round(top, spec, n, done, out)) > 0) left -= (size_t)got;
    free(spec);
    free(done);
    return 0;
}

/* the common ancestor of all n commits in base (one commit: itself) */
static int common_base(const char *top, char (*commits)[41], size_t n, char base[41])
{
    if (n == 1) {
        memcpy(base, commits[0], 41);
        return 1;
    }
    const char **args = calloc(n + 2, sizeof *args);
    if (!args) return 0;
    args[0] = "merge-base";
    args[1] = "--octopus";
    for (size_t i = 0; i < n; i++) args[2 + i] = commits[i];
    char line[128];
    int ok = git_line(top, args, n + 2, line, sizeof line) && is_hex40(line);
    free(args);
    if (ok) memcpy(base, line, 41);
    return ok;
}

/* the commits after base up to all n, oldest first: malloc'd text of lines, NULL on failure */
static char *commits_since(const char *top, char (*commits)[41], size_t n, const char base[41])
{
    const char **args = calloc(n + 4, sizeof *args);
    if (!args) return NULL;
    char not_base[42];
    snprintf(not_base, sizeof not_base, "^%s", base);
    size_t k = 0;
    args[k++] = "rev-list";
    args[k++] = "--topo-order";
    args[k++] = "--reverse";
    for (size_t i = 0; i < n; i++) args[k++] = commits[i];
    args[k++] = not_base;
    char *out = run_git(top, args, k);
    free(args);
    return out;
}

int pb_git_order(const char *top, char (*commits)[41], size_t n, long *order)
{
    char base[41];
    if (n == 0) return 0;
    if (!common_base(top, commits, n, base)) return -1;
    char *list = commits_since(top, commits, n, base);
    if (!list) return -1;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (!strcmp(commits[i], base)) { order[i] = 0; continue; }
        const char *at = strstr(list, commits[i]);
        if (!at || (at != list && at[-1] != '\n')) { rc = -1; break; }
        long pos = 1;
        for (const char *p = list; p < at; p++) pos += *p == '\n';
        order[i] = pos;
    }
    free(list);
    return rc;
}
