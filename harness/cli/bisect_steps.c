/* SPDX-License-Identifier: GPL-2.0-only */
/* bisect_steps.c — the steps of `bench bisect` (bisect.h): git asked through pb_spawn (an argv,
 * never a shell, core.fsmonitor off), a worktree per revision under the bisection's own temporary
 * folder, the build run there as an argv split as exec's --cmd is split, and a step's gate as a
 * child bench of this build, whose JSON document is kept for the answer. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bisect.h"
#include "pb_spawn.h"

/* The one piece of state a signal handler may reach (docs/architecture.md, "State"). */
static volatile sig_atomic_t g_bisect_signal;

static void on_signal(int sig) { g_bisect_signal = sig; }

int bisect_interrupted(void) { return g_bisect_signal != 0; }

void bisect_signals(int on)
{
    struct sigaction sa = {0};
    sa.sa_handler = on ? on_signal : SIG_DFL;   /* no SA_RESTART: a child's wait ends at once */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

#define MAX_WORDS 64

/* argv[0] as execvp finds it: a word with a slash as it is (relative to the current folder), else
 * on $PATH; 0, or -1 + e */
static int resolve_program(char **argv, char *path, size_t cap, pb_err *e)
{
    if (strchr(argv[0], '/')) return 0;
    if (!pb_find_program(argv[0], path, cap)) return pb_errf(e, "%s: not found on $PATH", argv[0]);
    argv[0] = path;
    return 0;
}

int bisect_git(const bisect_args *a, const char *const *argv, char **out, pb_err *e)
{
    char git[PATH_MAX];
    if (!pb_find_program("git", git, sizeof git)) return pb_errf(e, "git is not on $PATH");
    const char *av[32] = {git, "-C", a->top, "-c", "core.fsmonitor=false"};
    int n = 5;
    for (int i = 0; argv[i] && n < 31; i++) av[n++] = argv[i];
    av[n] = NULL;
    pb_proc p;
    char *buf = NULL;
    if (pb_spawn((char *const *)av, out ? &buf : NULL, 120, &p, e) < 0) return -1;
    if (out) *out = buf;
    else free(buf);
    if (p.timed_out || p.interrupted || !WIFEXITED(p.status)) {
        if (out) { free(buf); *out = NULL; }
        return pb_errf(e, "git %s did not finish", argv[0]);
    }
    return WEXITSTATUS(p.status);
}

int bisect_commits(const bisect_args *a, char (*shas)[41], int max, pb_err *e)
{
    char range[100];
    snprintf(range, sizeof range, "%s..%s", a->good_sha, a->bad_sha);
    const char *av[] = {"rev-list", "--ancestry-path", "--first-parent", "--reverse", range, NULL};
    char *out = NULL;
    int rc = bisect_git(a, av, &out, e);
    if (rc < 0) return -1;
    if (rc) { free(out); return pb_errf(e, "git rev-list %s failed", range); }
    int n = 0;
    for (char *l = out, *nl; l && *l; l = nl ? nl + 1 : NULL) {
        nl = strchr(l, '\n');
        if (nl) *nl = 0;
        if (strlen(l) != 40) continue;
        if (n == max) { free(out); return pb_errf(e, "more than %d commits between --good and --bad", max); }
        snprintf(shas[n++], 41, "%s", l);
    }
    free(out);
    return n;
}

void bisect_subject(const bisect_args *a, const char *sha, char *out, size_t cap)
{
    const char *av[] = {"log", "-1", "--format=%s", sha, NULL};
    char *s = NULL;
    pb_err e = {{0}};
    out[0] = 0;
    if (bisect_git(a, av, &s, &e) == 0 && s) snprintf(out, cap, "%.*s", (int)strcspn(s, "\n"), s);
    free(s);
}

/* one command (its words split from cmd) run in dir, stdout to /dev/null; 0, or -1 + e */
static int run_in(const char *opt, const char *cmd, const char *dir, pb_err *e)
{
    char buf[4096], path[PATH_MAX], *argv[MAX_WORDS + 1];
    int n = pb_split_words(opt, cmd, buf, sizeof buf, argv, MAX_WORDS, e);   /* as exec's --cmd */
    if (n < 0) return -1;
    if (n == 0) return pb_errf(e, "%s needs a command", opt);
    /* a build runs in its checkout's root; bench is single-threaded here and returns at once */
    int here = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (here < 0 || chdir(dir) < 0) {
        if (here >= 0) close(here);
        return pb_errf(e, "cannot enter %s: %s", dir, strerror(errno));
    }
    pb_proc p;
    int rc = resolve_program(argv, path, sizeof path, e);
    if (rc == 0) rc = pb_spawn(argv, NULL, 0, &p, e);
    if (fchdir(here) < 0) rc = pb_errf(e, "cannot return to the current folder: %s", strerror(errno));
    close(here);
    if (rc < 0) return -1;
    return pb_proc_check(cmd, &p, e);
}

int bisect_prepare(bisect_args *a, const char *sha, char *dir, pb_err *e)
{
    snprintf(dir, PATH_MAX, "%s/%.12s", a->tmp, sha);
    const char *av[] = {"worktree", "add", "--detach", "--quiet", dir, sha, NULL};
    int rc = bisect_git(a, av, NULL, e);
    if (rc < 0) return -1;
    if (rc) return pb_errf(e, "git worktree add %s %.12s failed", dir, sha);
    if (a->build) return run_in("--build", a->build, dir, e) < 0 ? pb_errf(e, "building %.12s: %.400s", sha, e->msg) : 0;
    /* the lab's own suites: the lab's own build (README), bench and its suite module */
    if (run_in("--build", "meson setup build", dir, e) < 0 || run_in("--build", "ninja -C build", dir, e) < 0)
        return pb_errf(e, "building %.12s (meson setup build, ninja -C build): %.400s", sha, e->msg);
    return 0;
}

void bisect_release(const bisect_args *a, const char *dir)
{
    const char *av[] = {"worktree", "remove", "--force", dir, NULL};
    pb_err e = {{0}};
    bisect_git(a, av, NULL, &e);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)ftw;
    if (flag == FTW_DP) rmdir(path);
    else unlink(path);
    return 0;
}

void bisect_remove_tmp(const bisect_args *a)
{
    const char *av[] = {"worktree", "prune", NULL};
    pb_err e = {{0}};
    if (a->tmp[0]) nftw(a->tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    bisect_git(a, av, NULL, &e);
}

/* GB's filter for one benchmark: its name as a regular expression that matches it only */
static void cell_filter(const char *cell, char *out, size_t cap)
{
    size_t o = 0;
    if (cap < 4) return;
    out[o++] = '^';
    for (const char *c = cell; *c && o + 3 < cap; c++) {
        if (strchr(".[]()*+?{}|^$\\", *c)) out[o++] = '\\';
        out[o++] = *c;
    }
    out[o++] = '$';
    out[o] = 0;
}

typedef struct gate_cmd {
    const char *argv[BISECT_MAX_GATE_ARGS + 40];
    int n;
    char old[PATH_MAX + 1200], new_[PATH_MAX + 1200], filter[512], mods[2][PATH_MAX + 64], ids[2][32];
} gate_cmd;

static void add(gate_cmd *g, const char *w)
{
    if (g->n < (int)(sizeof g->argv / sizeof *g->argv) - 1) g->argv[g->n++] = w;
}

/* the code each side of the gate runs: gbench and exec the binary in each checkout, the lab's suites
 * their suite modules */
static void gate_sides(const bisect_args *a, const char *dir, gate_cmd *g)
{
    if (a->lab) {
        snprintf(g->mods[0], sizeof g->mods[0], "%s/build/harness/libpbsuites.so", a->good_dir);
        snprintf(g->mods[1], sizeof g->mods[1], "%s/build/harness/libpbsuites.so", dir);
        add(g, "commit"), add(g, "--suite"), add(g, a->suite);
        add(g, "--baseline-module"), add(g, g->mods[0]), add(g, "--candidate-module"), add(g, g->mods[1]);
        return;
    }
    add(g, "--suite"), add(g, a->suite);
    if (!strcmp(a->suite, "exec")) {   /* one command line each: the path quoted, the arguments as given */
        snprintf(g->old, sizeof g->old, "'%s/%s' %s", a->good_dir, a->binary, a->args ? a->args : "");
        snprintf(g->new_, sizeof g->new_, "'%s/%s' %s", dir, a->binary, a->args ? a->args : "");
    } else {
        snprintf(g->old, sizeof g->old, "%s/%s", a->good_dir, a->binary);
        snprintf(g->new_, sizeof g->new_, "%s/%s", dir, a->binary);
    }
    add(g, "--old"), add(g, g->old), add(g, "--new"), add(g, g->new_);
}

/* The run named by bench run's closing line, "run N complete ...", at the start of a line of out: the
 * table and the notes above it may say "run" too ("dispatches at run time"). 0 where none is. */
static long long closing_run_id(const char *out)
{
    for (const char *l = out; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        long long id = 0;
        int end = 0;
        if (sscanf(l, "run %lld complete%n", &id, &end) == 1 && end > 0 && id > 0) return id;
    }
    return 0;
}

/* --measure valgrind on a lab suite: the gate of stored counted runs, one per build (as
 * ci/perf-gate's count gate); each build's own bench counts its own suites. The run's id, or -1 + e. */
static long long counted_run(const bisect_args *a, const char *dir, pb_err *e)
{
    char bench[PATH_MAX + 32], *out = NULL;
    snprintf(bench, sizeof bench, "%s/build/harness/bench", dir);
    const char *av[16] = {bench, "run", "--suite", a->suite, "--quick", "--measure", "valgrind", "--quiet", "--db",
                          a->dbpath};
    int n = 10;
    if (a->cell) av[n++] = "--sizes", av[n++] = a->cell;
    av[n] = NULL;
    pb_proc p;
    if (pb_spawn((char *const *)av, &out, 0, &p, e) < 0) return -1;
    long long id = out ? closing_run_id(out) : 0;
    free(out);
    if (pb_proc_check("bench run --measure valgrind", &p, e) < 0) return -1;
    if (id <= 0) return pb_errf(e, "bench run --measure valgrind in %s named no run", dir);
    return id;
}

static int gate_argv(bisect_args *a, const char *dir, gate_cmd *g, pb_err *e)
{
    add(g, a->bench), add(g, "gate");
    int vg_runs = a->lab && a->measure && !strcmp(a->measure, "valgrind");
    if (vg_runs) {
        if (!a->good_run && (a->good_run = counted_run(a, a->good_dir, e)) < 0) return a->good_run = 0, -1;
        long long cand = counted_run(a, dir, e);
        if (cand < 0) return -1;
        snprintf(g->ids[0], sizeof g->ids[0], "%lld", a->good_run);
        snprintf(g->ids[1], sizeof g->ids[1], "%lld", cand);
        add(g, "--baseline-runs"), add(g, g->ids[0]), add(g, "--candidate-runs"), add(g, g->ids[1]);
    } else {
        gate_sides(a, dir, g);
    }
    if (a->measure) add(g, "--measure"), add(g, a->measure);
    if (a->cell && !strcmp(a->suite, "gbench")) {
        cell_filter(a->cell, g->filter, sizeof g->filter);
        add(g, "--filter"), add(g, g->filter);
    } else if (a->cell && !vg_runs) {
        add(g, "--sizes"), add(g, a->cell);
    }
    add(g, "--format"), add(g, "json"), add(g, "--quiet"), add(g, "--db"), add(g, a->dbpath);
    for (int i = 0; i < a->ngate; i++) add(g, a->gate_argv[i]);
    g->argv[g->n] = NULL;
    return 0;
}

int bisect_gate(bisect_args *a, const char *dir, const char *doc, char *why, size_t cap, pb_err *e)
{
    gate_cmd g = {.n = 0};
    why[0] = 0;
    if (gate_argv(a, dir, &g, e) < 0) {
        snprintf(why, cap, "%s", e->msg);
        return BISECT_ERROR;
    }
    char *out = NULL;
    pb_proc p;
    if (pb_spawn((char *const *)g.argv, &out, 0, &p, e) < 0) return -1;
    if (p.interrupted || !WIFEXITED(p.status)) {
        free(out);
        return pb_errf(e, "bench gate %s", p.interrupted ? "was interrupted" : "died");
    }
    int rc = WEXITSTATUS(p.status);
    if (rc != BISECT_PASS && rc != BISECT_REGRESSION && rc != BISECT_INCONCLUSIVE) rc = BISECT_ERROR;
    snprintf(why, cap, "%s", p.stderr_head);
    FILE *f = fopen(doc, "w");
    int bad = !f;
    if (f) bad = (out && fputs(out, f) < 0) | (fclose(f) != 0);
    free(out);
    if (bad) return pb_errf(e, "cannot write %s", doc);
    return rc;
}
