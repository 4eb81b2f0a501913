/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd_kat.c — `bench kat FILE.rsp... [--impl NAME] [--suite NAME] [--plugin NAME=PATH.so]`
 *
 * Each file is handed to the suite that recognises it (kat_accepts), or to
 * --suite. With --plugin (and --suite), the suite first loads that shared object as impl NAME
 * (self-tested in a child, as bench run --plugin does) and checks NAME unless --impl says
 * otherwise. Output contract, shared by every suite: one line per failing
 * record, then the last line `N passed, M failed, K skipped`.
 * Exit: 0 all passed, 1 something failed or nothing was checked, 2 unreadable/malformed input or usage.
 * A file that yields no record at all (empty, only comments or headers) is
 * malformed input: "0 failed" must never mean "nothing was looked at".
 *
 * Suites open their file by path, more than once (format sniffing, then the
 * records), so a pipe or a device is first copied to a temporary file, with
 * the line bound of the .rsp reader: nothing is lost to sniffing, and an
 * endless input (/dev/zero) ends in a clear error. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sys/mman.h>

#include "cli.h"
#include "pb_fork.h"
#include "cli_opts.h"
#include "rsp.h"
#include "suite.h"

/* Copy a non-seekable input to a new temporary file (path in tmp). 0, or -1 + e. */
static int spool(const char *name, char *tmp, size_t tmpsz, pb_err *e)
{
    FILE *in = fopen(name, "r");
    if (!in) return pb_errf(e, "%s: cannot open: %s", name, strerror(errno));
    const char *dir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(tmp, tmpsz, "%s/pb-kat-XXXXXX", dir);
    int fd = mkstemp(tmp);
    FILE *out = fd < 0 ? NULL : fdopen(fd, "w");
    if (!out) {
        int err = errno;
        if (fd >= 0) { close(fd); unlink(tmp); }
        fclose(in);
        return pb_errf(e, "%s: cannot make a temporary copy in %s: %s", name, dir, strerror(err));
    }
    char *line = NULL;
    size_t cap = 0, n;
    int rc, lineno = 0;
    while ((rc = pb_read_line(in, &line, &cap, PB_LINE_MAX, &n)) > 0) {
        lineno++;
        if (fwrite(line, 1, n, out) != n || putc('\n', out) == EOF) { rc = -3; break; }
    }
    int err = errno;
    free(line);
    fclose(in);
    if (fclose(out) != 0 && rc == 0) { rc = -3; err = errno; }
    if (rc == 0) return 0;
    unlink(tmp);
    if (rc == -2) return pb_errf(e, "%s:%d: line longer than %u bytes", name, lineno + 1, PB_LINE_MAX);
    if (rc == -3) return pb_errf(e, "%s: cannot write its temporary copy %s: %s", name, tmp, strerror(err));
    return pb_errf(e, "%s:%d: read error: %s", name, lineno + 1, strerror(err));
}

static void kat_formats(FILE *f, const pb_cli *c)
{
    (void)c;
    fputc('\n', f);
    for (int i = 0; pb_suites[i]; i++)
        if (pb_suites[i]->kat_help) fprintf(f, "%s: %s\n", pb_suites[i]->name, pb_suites[i]->kat_help);
}

typedef struct kat_args {
    pb_cli *cli;
    const char *impl, *suite_name, *plugin;
    const char *files[1024];
    int nfiles;
    char plugin_name[PB_NAME_MAX];   /* --plugin's NAME, the impl checked */
} kat_args;

static int on_file(void *ctx, const char *path)
{
    kat_args *a = ctx;
    if (a->nfiles == 1024) return pb_cli_error(a->cli, "too many files (at most 1024)");
    a->files[a->nfiles++] = path;
    return 0;
}

/* text with every occurrence of from replaced by to, onto out */
static void put_renamed(FILE *out, const char *text, size_t len, const char *from, const char *to)
{
    size_t nf = strlen(from);
    for (const char *p = text, *end = text + len; p < end;) {
        const char *hit = nf ? memmem(p, (size_t)(end - p), from, nf) : NULL;
        size_t upto = hit ? (size_t)(hit - p) : (size_t)(end - p);
        fwrite(p, 1, upto, out);
        if (!hit) break;
        fputs(to, out);
        p = hit + nf;
    }
}

/* e's message with the temporary copy named as the user named the input */
static void rename_in_msg(pb_err *e, const char *from, const char *to)
{
    char buf[sizeof e->msg];
    FILE *m = fmemopen(buf, sizeof buf, "w");
    if (!m) return;
    put_renamed(m, e->msg, strlen(e->msg), from, to);
    if (fputc(0, m) != EOF && fclose(m) == 0) memcpy(e->msg, buf, sizeof buf);
    else fclose(m);
    e->msg[sizeof e->msg - 1] = 0;
}

/* A plug-in's known answers run in a child (pb_fork.h), as its self-test did: code the lab did not
 * write may crash, exit or hang on a record its self-test lacks, and the plug-in is loaded there,
 * never into bench. The tally comes back through a shared page; the failure lines through a
 * temporary file, flushed before the child ends and copied to the log here: the child's own
 * stdout is bench's stderr, so that what the plug-in prints never mixes with those lines. */
/* generous: the longest .rsp files take well under a second */
#define KAT_CHILD_SECONDS 300

typedef struct kat_call {
    const pb_suite *s;
    const char *path, *impl;
    FILE *log;
    pb_kat_result *r;
} kat_call;

static int kat_in_child(void *arg, pb_err *e)
{
    kat_call *k = arg;
    int rc = k->s->kat_file(k->path, k->impl, k->r, k->log, e);
    fflush(k->log);
    return rc;
}

/* kat_file in a child: 0, -1 + e (the file is bad: the suite said so), -3 + e (the code crashed,
 * exited or hung: it has failed) */
static int kat_caged(const pb_suite *s, const char *plugin, const char *file, const char *path, const char *impl,
                     pb_kat_result *r, FILE *log, pb_err *e)
{
    pb_kat_result *shared = mmap(NULL, sizeof *shared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED) return pb_errf(e, "%s: mmap: %s", file, strerror(errno));
    *shared = *r;
    char who[PB_NAME_MAX + 64], doing[4300];
    snprintf(who, sizeof who, "%s plug-in %s", s->name, plugin);
    snprintf(doing, sizeof doing, "the known answers of %s", file);
    FILE *lines = tmpfile();
    if (!lines) {
        munmap(shared, sizeof *shared);
        return pb_errf(e, "%s: a temporary file: %s", file, strerror(errno));
    }
    kat_call k = {s, path, impl, lines, shared};
    fflush(log);
    pb_err ce = {{0}};
    int rc = pb_fork_run(who, doing, KAT_CHILD_SECONDS, kat_in_child, &k, &ce);
    *r = *shared;
    munmap(shared, sizeof *shared);
    rewind(lines);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, lines)) > 0) fwrite(buf, 1, n, log);
    fclose(lines);
    if (rc == 0) return 0;
    /* the suite's own refusal (FILE:LINE) came back as the message: bad input, not a failure */
    int crashed = strncmp(ce.msg, who, strlen(who)) == 0;
    pb_errf(e, "%s", ce.msg);
    return crashed ? -3 : -1;
}

/* One file, checked by its suite (forced, else the first that recognises it) against impl (NULL:
 * all), counted into r. A pipe or device is first spooled to a temporary file; what the suite
 * says of that copy (failure lines, the error) names the file as given. 0, or -1 after saying on
 * stderr why the input is bad. */
static int kat_one(const pb_suite *forced, const char *plugin, const char *file, const char *impl, pb_kat_result *r)
{
    const pb_suite *s = forced;
    pb_err e = {{0}};
    struct stat sb;
    if (stat(file, &sb) != 0) {
        fprintf(stderr, "bench kat: %s: cannot open: %s\n", file, strerror(errno));
        return -1;
    }
    char tmp[4200] = "";
    const char *path = file;
    char *logbuf = NULL;
    size_t loglen = 0;
    FILE *log = stdout;
    if (!S_ISREG(sb.st_mode)) {
        if (spool(file, tmp, sizeof tmp, &e) < 0) {
            fprintf(stderr, "bench kat: %s\n", e.msg);
            return -1;
        }
        path = tmp;
        if (!(log = open_memstream(&logbuf, &loglen))) {
            unlink(tmp);
            fprintf(stderr, "bench kat: %s: out of memory\n", file);
            return -1;
        }
    }
    for (int k = 0; !s && pb_suites[k]; k++)
        if (pb_suite_kat_accepts(pb_suites[k], path)) s = pb_suites[k];
    unsigned long seen = r->passed + r->failed + r->skipped;
    int rc = 0;
    if (!s || !s->kat_file) {
        fprintf(stderr, "bench kat: %s: no suite recognises this file format (try --suite)\n", file);
        rc = -1;
    } else if (plugin && (rc = kat_caged(s, plugin, file, path, impl, r, log, &e)) < 0) {
        rc = rc == -3 ? -3 : -2;
    } else if (!plugin && s->kat_file(path, impl, r, log, &e) < 0) {
        rc = -2;
    } else if (r->passed + r->failed + r->skipped == seen) {
        fprintf(stderr, "bench kat: %s: no records in the file (empty, or only comments and section headers): "
                "nothing was checked\n", file);
        rc = -1;
    }
    if (*tmp) {
        fclose(log);
        put_renamed(stdout, logbuf ? logbuf : "", loglen, tmp, file);
        free(logbuf);
        rename_in_msg(&e, tmp, file);
        unlink(tmp);
    }
    if (rc == -2 || rc == -3) fprintf(stderr, "bench kat: %s\n", e.msg);
    return rc == -3 ? -3 : rc < 0 ? -1 : 0;
}

int cmd_kat(int argc, char **argv)
{
    static const pb_cli_opt opts[] = {
        PB_OPT_IMPL("NAME", "check only this implementation (default: every one of the suite)", kat_args, impl),
        PB_OPT_SUITE("NAME", "force the suite", kat_args, suite_name),
        PB_OPT_STRING_ONCE("plugin", "NAME=PATH.so", "with --suite: load this plug-in of the suite as impl NAME (self-tested in a\n"
                                                     "child first) and check it (default --impl NAME)", kat_args, plugin),
        PB_OPT_END,
    };
    pb_cli cli = {
        .cmd = "kat", .opts = opts, .on_pos = on_file, .more_help = kat_formats,
        .synopsis = "usage: bench kat [--suite NAME] [--impl NAME] [--plugin NAME=PATH.so] FILE.rsp...\n"
                    "\n"
                    "Check known-answer vectors (NIST CAVP-style .rsp) against implementations.\n"
                    "Each file goes to the suite that recognises its format unless --suite is given.\n",
        .epilogue = "\nPrints one line per failure, then 'N passed, M failed, K skipped'.\n"
                    "Exit status: 0 all passed, 1 a record failed or none was checked (all skipped), 2 bad usage\n"
                    "or unreadable/malformed input.\n",
    };
    kat_args ka = {.cli = &cli};
    cli.ctx = &ka;
    int pr = pb_cli_parse(&cli, argc, argv);
    if (pr) return pr == 1 ? 0 : 2;
    const char *impl = ka.impl, *suite_name = ka.suite_name;
    const char **files = ka.files;
    const int nfiles = ka.nfiles;
    if (!nfiles) { fprintf(stderr, "bench kat: no vector file given (see bench kat --help)\n"); return 2; }
    const pb_suite *forced = NULL;
    if (suite_name && !(forced = pb_suite_find(suite_name))) {
        char why[700];
        fprintf(stderr, "bench kat: %s\n", pb_suite_unknown(why, sizeof why, suite_name, ""));
        return 2;
    }
    if (ka.plugin) {
        const char *eq = strchr(ka.plugin, '=');
        if (!forced || !forced->plugin_load) {
            fprintf(stderr, "bench kat: --plugin needs --suite with a suite that takes plug-ins (xts, drbg, sigpool)\n");
            return 2;
        }
        if (!eq || eq == ka.plugin || !eq[1] || eq - ka.plugin >= PB_NAME_MAX) {
            fprintf(stderr, "bench kat: --plugin wants NAME=PATH.so, got '%s'\n", ka.plugin);
            return 2;
        }
        char *name = ka.plugin_name;
        snprintf(name, sizeof ka.plugin_name, "%.*s", (int)(eq - ka.plugin), ka.plugin);
        pb_err e = {{0}};
        if (forced->plugin_load(name, eq + 1, &e) < 0) {
            fprintf(stderr, "bench kat: %s\n", e.msg);
            return 2;
        }
        if (!impl) impl = name;
    }
    pb_kat_result r = {0, 0, 0};
    int bad_input = 0, code_failed = 0;
    for (int i = 0; i < nfiles; i++) {
        int k = kat_one(forced, ka.plugin ? ka.plugin_name : NULL, files[i], impl, &r);
        if (k == -3) code_failed = 1;
        else if (k < 0) bad_input = 1;
    }
    printf("%lu passed, %lu failed, %lu skipped\n", r.passed, r.failed, r.skipped);
    if (code_failed) return 1;   /* the plug-in crashed, exited or hung: it failed, the input may be fine */
    if (bad_input) return 2;
    /* every record skipped is not a pass: nothing is known about the implementation */
    if (r.passed + r.failed == 0) {
        fprintf(stderr, "bench kat: no record was checked (%lu skipped): that is not a pass\n", r.skipped);
        return 1;
    }
    return r.failed ? 1 : 0;
}
