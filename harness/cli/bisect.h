/* SPDX-License-Identifier: GPL-2.0-only */
/* bisect.h — what `bench bisect` (cmd_bisect.c: options, the search, the answer) shares with
 * bisect_steps.c (git, a worktree per revision, its build, and one step: a child `bench gate` of the
 * revision's build against the good one's). A step is the gate the lab already has, run as a child
 * bench process, so that every suite, --measure and gate option works in a bisection as it does by
 * hand, and a step's document is that gate's own (docs/your-code.md, "bench bisect"). */
#ifndef PB_CLI_BISECT_H
#define PB_CLI_BISECT_H

#include <limits.h>
#include <stdint.h>

#include "cli_opts.h"
#include "gate_outputs.h"

#define BISECT_MAX_COMMITS 4096
#define BISECT_MAX_GATE_ARGS 48   /* the words after "--", passed to every child bench gate */

typedef struct bisect_args {
    pb_cli *cli;
    const char *good, *bad, *rev, *build, *suite, *repo, *binary, *args, *cell, *measure, *db;
    const char *gate_bench;    /* tests: a fake bench gate for the steps */
    int step;                  /* --step: one revision against --good, exit status for git bisect run */
    int progress;              /* cleared by --quiet */
    int budget_gates;          /* --budget Nx: gates per revision at most (default 2) */
    double budget_s;           /* --budget S: seconds for the whole bisection (0: by gates) */
    pb_gate_outputs out;       /* --format, --write, --annotate: the first bad commit's document */
    char **gate_argv;          /* the words after "--" */
    int ngate;
    int lab;                   /* a suite of the lab's own (xts, drbg, sigpool): its own build, its module */
    int width;                 /* pb_term_width() */
    uint64_t t0;               /* when the bisection started */
    char top[PATH_MAX];        /* the repository's top folder */
    char tmp[PATH_MAX];        /* the worktrees, logs and documents of this bisection (removed) */
    char bench[PATH_MAX];      /* this bench, for the child gates */
    char dbpath[PATH_MAX];     /* --db, absolute (a build runs in its worktree) */
    char good_sha[41], bad_sha[41];
    char good_dir[PATH_MAX];   /* the good revision's worktree, built once */
    long long good_run;        /* --measure valgrind on a lab suite: the good build's counted run (0: none yet) */
} bisect_args;

/* What a step decided (the child gate's exit status, docs/gate.md). */
enum { BISECT_PASS = 0, BISECT_REGRESSION = 1, BISECT_ERROR = 2, BISECT_INCONCLUSIVE = 3 };

/* git in a->top with the words of argv (NULL-terminated, without "git"): its exit status, its
 * stdout in *out when out is not NULL (malloc'd); -1 + e when git cannot be run. */
int bisect_git(const bisect_args *a, const char *const *argv, char **out, pb_err *e);
/* The commits of --ancestry-path --first-parent good..bad, oldest first, into shas (at most max):
 * how many, or -1 + e. */
int bisect_commits(const bisect_args *a, char (*shas)[41], int max, pb_err *e);
/* The commit's subject line, cut to cap. */
void bisect_subject(const bisect_args *a, const char *sha, char *out, size_t cap);

/* The worktree of sha under a->tmp, checked out and built (--build, or the lab's own build):
 * dir[PATH_MAX] its folder. 0, or -1 + e (what failed, the build's first stderr line). */
int bisect_prepare(bisect_args *a, const char *sha, char *dir, pb_err *e);
/* The worktree removed (git worktree remove --force), whatever state it is in. */
void bisect_release(const bisect_args *a, const char *dir);
/* One gate of the build in dir against the good build: its exit status (BISECT_*), its JSON
 * document written to doc; -1 + e when the gate could not be run at all. why[cap]: the child's
 * first stderr line when it exited 2. */
int bisect_gate(bisect_args *a, const char *dir, const char *doc, char *why, size_t cap, pb_err *e);
/* a->tmp and everything in it removed (after the worktrees are released). */
void bisect_remove_tmp(const bisect_args *a);
/* whether SIGINT or SIGTERM came (bisect_signals installed the handler) */
int bisect_interrupted(void);
void bisect_signals(int on);

#endif
