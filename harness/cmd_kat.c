/* cmd_kat.c — `bench kat FILE.rsp... [--impl NAME] [--suite NAME]`
 *
 * Each file is handed to the suite that recognises it (kat_accepts), or to
 * --suite. Output contract, shared by every suite: one line per failing
 * record, then the last line `N passed, M failed, K skipped`.
 * Exit: 0 all passed, 1 something failed, 2 unreadable/malformed input or usage. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "suite.h"

static void usage(FILE *f)
{
    fprintf(f,
        "usage: bench kat [--suite NAME] [--impl NAME] FILE.rsp...\n"
        "\n"
        "Check known-answer vectors (NIST CAVP-style .rsp) against implementations.\n"
        "Each file goes to the suite that recognises its format unless --suite is given.\n"
        "  --impl NAME   check only this implementation (default: every one of the suite)\n"
        "  --suite NAME  force the suite\n"
        "Prints one line per failure, then 'N passed, M failed, K skipped'.\n"
        "Exit status: 0 all passed, 1 a record failed, 2 bad usage or unreadable/malformed input.\n\n");
    for (int i = 0; pb_suites[i]; i++)
        if (pb_suites[i]->kat_help) fprintf(f, "%s: %s\n", pb_suites[i]->name, pb_suites[i]->kat_help);
}

int cmd_kat(int argc, char **argv)
{
    const char *impl = NULL, *suite_name = NULL;
    const char *files[1024];
    int nfiles = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return 0; }
        if (!strcmp(a, "--impl") || !strcmp(a, "--suite")) {
            if (i + 1 >= argc) { fprintf(stderr, "bench kat: %s needs a value\n", a); return 2; }
            if (!strcmp(a, "--impl")) impl = argv[++i]; else suite_name = argv[++i];
        } else if (!strncmp(a, "--impl=", 7)) impl = a + 7;
        else if (!strncmp(a, "--suite=", 8)) suite_name = a + 8;
        else if (a[0] == '-' && a[1]) { fprintf(stderr, "bench kat: unknown option '%s' (see bench kat --help)\n", a); return 2; }
        else if (nfiles < 1024) files[nfiles++] = a;
        else { fprintf(stderr, "bench kat: too many files (at most 1024)\n"); return 2; }
    }
    if (!nfiles) { fprintf(stderr, "bench kat: no vector file given (see bench kat --help)\n"); return 2; }
    const pb_suite *forced = NULL;
    if (suite_name && !(forced = pb_suite_find(suite_name))) {
        fprintf(stderr, "bench kat: unknown suite '%s' (bench list shows the suites)\n", suite_name);
        return 2;
    }
    pb_kat_result r = {0, 0, 0};
    int bad_input = 0;
    for (int i = 0; i < nfiles; i++) {
        const pb_suite *s = forced;
        FILE *probe = fopen(files[i], "r");
        if (!probe) { fprintf(stderr, "bench kat: %s: cannot open\n", files[i]); bad_input = 1; continue; }
        fclose(probe);
        for (int k = 0; !s && pb_suites[k]; k++)
            if (pb_suites[k]->kat_accepts && pb_suites[k]->kat_accepts(files[i])) s = pb_suites[k];
        if (!s || !s->kat_file) {
            fprintf(stderr, "bench kat: %s: no suite recognises this file format (try --suite)\n", files[i]);
            bad_input = 1;
            continue;
        }
        pb_err e = {{0}};
        if (s->kat_file(files[i], impl, &r, stdout, &e) < 0) {
            fprintf(stderr, "bench kat: %s\n", e.msg);
            bad_input = 1;
        }
    }
    printf("%lu passed, %lu failed, %lu skipped\n", r.passed, r.failed, r.skipped);
    if (bad_input) return 2;
    return r.failed ? 1 : 0;
}
