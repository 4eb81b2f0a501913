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

#include "cli.h"
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

enum { O_IMPL, O_SUITE, O_PLUGIN };

typedef struct kat_args {
    pb_cli *cli;
    const char *impl, *suite_name, *plugin;
    const char *files[1024];
    int nfiles;
} kat_args;

static int on_opt(void *ctx, int id, const char *v)
{
    kat_args *a = ctx;
    if (id == O_IMPL) a->impl = v;
    else if (id == O_PLUGIN) a->plugin = v;
    else a->suite_name = v;
    return 0;
}

static int on_file(void *ctx, const char *path)
{
    kat_args *a = ctx;
    if (a->nfiles == 1024) return pb_cli_error(a->cli, "too many files (at most 1024)");
    a->files[a->nfiles++] = path;
    return 0;
}

/* --plugin NAME=PATH.so of suite forced: loaded (the suite self-tests it in a child) as impl NAME,
 * which *impl becomes unless --impl was given. 0, or -1 after saying why. */
static int load_plugin(const pb_suite *forced, const char *spec, const char **impl)
{
    const char *eq = strchr(spec, '=');
    if (!forced || !forced->plugin_load) {
        fprintf(stderr, "bench kat: --plugin needs --suite with a suite that takes plug-ins (xts, drbg, sigpool)\n");
        return -1;
    }
    if (!eq || eq == spec || !eq[1] || eq - spec >= PB_NAME_MAX) {
        fprintf(stderr, "bench kat: --plugin wants NAME=PATH.so, got '%s'\n", spec);
        return -1;
    }
    /* static: *impl points at it once this returns */
    static char name[PB_NAME_MAX];
    snprintf(name, sizeof name, "%.*s", (int)(eq - spec), spec);
    pb_err e = {{0}};
    if (forced->plugin_load(name, eq + 1, &e) < 0) {
        fprintf(stderr, "bench kat: %s\n", e.msg);
        return -1;
    }
    if (!*impl) *impl = name;
    return 0;
}

int cmd_kat(int argc, char **argv)
{
    static const pb_cli_opt opts[] = {
        {"impl", "NAME", "check only this implementation (default: every one of the suite)", O_IMPL},
        {"suite", "NAME", "force the suite", O_SUITE},
        {"plugin", "NAME=PATH.so", "with --suite: load this plug-in of the suite as impl NAME (self-tested in a\n"
                                   "child first) and check it (default --impl NAME)", O_PLUGIN},
        {NULL, NULL, NULL, 0},
    };
    pb_cli cli = {
        .cmd = "kat", .opts = opts, .on_opt = on_opt, .on_pos = on_file, .more_help = kat_formats,
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
        fprintf(stderr, "bench kat: unknown suite '%s' (bench list shows the suites)\n", suite_name);
        return 2;
    }
    if (ka.plugin && load_plugin(forced, ka.plugin, &impl) < 0) return 2;
    pb_kat_result r = {0, 0, 0};
    int bad_input = 0;
    for (int i = 0; i < nfiles; i++) {
        const pb_suite *s = forced;
        pb_err e = {{0}};
        struct stat sb;
        if (stat(files[i], &sb) != 0) {
            fprintf(stderr, "bench kat: %s: cannot open: %s\n", files[i], strerror(errno));
            bad_input = 1;
            continue;
        }
        char tmp[4200] = "";
        const char *path = files[i];
        if (!S_ISREG(sb.st_mode)) {
            if (spool(files[i], tmp, sizeof tmp, &e) < 0) {
                fprintf(stderr, "bench kat: %s\n", e.msg);
                bad_input = 1;
                continue;
            }
            path = tmp;
            pb_rsp_show_as(tmp, files[i]);
        }
        for (int k = 0; !s && pb_suites[k]; k++)
            if (pb_suites[k]->kat_accepts && pb_suites[k]->kat_accepts(path)) s = pb_suites[k];
        unsigned long seen = r.passed + r.failed + r.skipped;
        if (!s || !s->kat_file) {
            fprintf(stderr, "bench kat: %s: no suite recognises this file format (try --suite)\n", files[i]);
            bad_input = 1;
        } else if (s->kat_file(path, impl, &r, stdout, &e) < 0) {
            fprintf(stderr, "bench kat: %s\n", e.msg);
            bad_input = 1;
        } else if (r.passed + r.failed + r.skipped == seen) {
            fprintf(stderr, "bench kat: %s: no records in the file (empty, or only comments and section headers): "
                    "nothing was checked\n", files[i]);
            bad_input = 1;
        }
        if (*tmp) {
            pb_rsp_show_as(NULL, NULL);
            unlink(tmp);
        }
    }
    printf("%lu passed, %lu failed, %lu skipped\n", r.passed, r.failed, r.skipped);
    if (bad_input) return 2;
    /* every record skipped is not a pass: nothing is known about the implementation */
    if (r.passed + r.failed == 0) {
        fprintf(stderr, "bench kat: no record was checked (%lu skipped): that is not a pass\n", r.skipped);
        return 1;
    }
    return r.failed ? 1 : 0;
}
