/* SPDX-License-Identifier: GPL-2.0-only */
/* kmod_target.c — `bench run --suite S --target qemu|host`: the kernel module's benchmark, run by
 * scripts/kmod/ (in a QEMU guest or on this host), its results file then imported as runs. */
#include "kmod_target.h"

#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "import.h"
#include "paths.h"
#include "suite.h"

extern char **environ;

int pb_kmod_target_run(const char *suite, const char *target, const char *db, int quick, int rounds,
                       const char *cmdline)
{
    const pb_suite *ks = pb_suite_find(suite);
    if (!ks || !ks->kmod_impls) {
        fprintf(stderr, "bench run: --target %s exists for suites with a kernel-module part (", target);
        for (int i = 0, n = 0; pb_suites[i]; i++)
            if (pb_suites[i]->kmod_impls) fprintf(stderr, "%s%s", n++ ? ", " : "", pb_suites[i]->name);
        fprintf(stderr, "), not %s\n", suite);
        return 2;
    }
    const char *root = pb_source_root();
    char script[1200], out[] = "/tmp/pb-kmod-XXXXXX";
    snprintf(script, sizeof script, "%s/scripts/kmod/%s", root, !strcmp(target, "qemu") ? "run-qemu.sh" : "run-host.sh");
    if (access(script, X_OK) != 0) {
        fprintf(stderr, "bench run: %s is missing or not executable\n", script);
        return 2;
    }
    int fd = mkstemp(out);
    if (fd < 0) { perror("bench run: mkstemp"); return 1; }
    close(fd);
    /* an argument vector, no shell: the paths and names are data, never parsed as commands */
    char rounds_s[24];
    snprintf(rounds_s, sizeof rounds_s, "%d", rounds);
    char *args[10];
    int na = 0;
    args[na++] = script;
    args[na++] = "--out";
    args[na++] = out;
    args[na++] = "--suites";
    args[na++] = (char *)suite;
    if (quick) args[na++] = "--quick";
    if (rounds > 0) { args[na++] = "--rounds"; args[na++] = rounds_s; }
    args[na] = NULL;
    fprintf(stderr, "bench run:");
    for (int i = 0; i < na; i++) fprintf(stderr, " %s", args[i]);
    fprintf(stderr, "\n");
    pid_t pid;
    int err = posix_spawn(&pid, script, NULL, NULL, args, environ);
    int st = -1;
    if (err) {
        fprintf(stderr, "bench run: cannot start %s: %s\n", script, strerror(err));
    } else {
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    }
    if (st != 0) {
        fprintf(stderr, "bench run: the kernel-module run failed (%s exited %d); nothing imported\n", script,
                st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        unlink(out);
        return 1;
    }
    pb_err e = {{0}};
    int64_t runs[PB_IMPORT_MAX_SUITES];
    int n = 0;
    int rc = pb_import_file(db, out, !strcmp(target, "qemu") ? "qemu-tcg" : "kmod-host", cmdline, runs, &n, &e);
    if (rc < 0) {
        fprintf(stderr, "bench run: %s (results kept in %s)\n", e.msg, out);
        return 1;
    }
    unlink(out);
    for (int i = 0; i < n; i++) printf("run %lld complete (kernel module, target %s) in %s\n", (long long)runs[i], target, db);
    return 0;
}
