/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd_bisect.c — `bench bisect`: the first commit between --good and --bad whose build a gate finds
 * slower than --good's. Each step is a paired gate of one revision's build against the good one's
 * (bisect_steps.c: a child bench gate, --measure passed on); pass is good, regression bad, and an
 * inconclusive gate is run again within --budget, then skipped as `git bisect skip` does. The
 * search is binary over the first-parent commits of --ancestry-path good..bad. --step gates one
 * revision for `git bisect run` (exit 0 good, 1 bad, 125 skip). docs/your-code.md, "bench bisect". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bisect.h"
#include "cli.h"
#include "gate.h"
#include "gate_merge.h"
#include "pb_git.h"
#include "store.h"
#include "term.h"

static const char SYNOPSIS[] =
    "usage: bench bisect --good REV --bad REV --suite gbench|exec --binary PATH --build CMD [options] [-- GATE-OPTIONS]\n"
    "       bench bisect --good REV --bad REV --suite xts|drbg|sigpool [--build CMD] [options] [-- GATE-OPTIONS]\n"
    "       bench bisect --step --good REV [--rev REV] ... (one revision, for git bisect run)\n"
    "\n"
    "Finds the first commit of your repository (--repo, default the current folder) whose build is\n"
    "slower than --good's: each revision is checked out in a git worktree of its own, built there\n"
    "with --build (an argv, split as exec's --cmd, no shell; the lab's suites default to the lab's\n"
    "own build, meson setup build and ninja -C build), and gated against the good build by a child\n"
    "bench gate (gbench and exec: --old/--new the binary of each checkout; the lab's suites: the commit\n"
    "gate of both builds' suite modules in one process, or with --measure valgrind each build's\n"
    "counted run). pass: good; regression: bad; inconclusive: gated again within --budget, then\n"
    "skipped. The search is binary over git rev-list --ancestry-path --first-parent GOOD..BAD; --bad\n"
    "is gated first, and must be a regression. The answer: the first bad commit and its gate's document\n"
    "(--format, --write, as every gate), the commits skipped, the steps and the time. The words after\n"
    "\"--\" go to every child bench gate (--quick, --threshold 5%, --min-time 0.01, ...).\n";

static const char EPILOGUE[] =
    "\nExit status: 0 the first bad commit found; 3 no single answer (--bad is no regression against\n"
    "--good, or skipped commits hide it); 2 bad input or a gate of --good/--bad that could not run.\n"
    "--step: 0 good (pass), 1 bad (regression), 125 skip (inconclusive within --budget, or the revision\n"
    "does not build), 2 bad input or a --good that does not build: git bisect run's statuses.\n";

enum { O_BUDGET = 1, O_FORMAT, O_WRITE, O_OUT, O_ANNOTATE };

static const pb_cli_opt OPTS[] = {
    PB_OPT_STRING_ONCE("good", "REV", "a revision without the regression: every step is gated against it", bisect_args,
                       good),
    PB_OPT_STRING_ONCE("bad", "REV", "a later revision with it (a descendant of --good)", bisect_args, bad),
    PB_OPT_FLAG("step", "gate one revision (--rev) against --good, with git bisect run's exit status", bisect_args, step),
    PB_OPT_STRING_ONCE("rev", "REV", "--step: the revision to gate (default HEAD)", bisect_args, rev),
    PB_OPT_SUITE("gbench|exec|xts|drbg|sigpool", "the suite each step gates", bisect_args, suite),
    PB_OPT_STRING_ONCE("build", "CMD", "the build, run in each checkout's root (no shell: sh -c '...' for one)",
                       bisect_args, build),
    PB_OPT_STRING_ONCE("binary", "PATH", "gbench, exec: the program's path in a built checkout", bisect_args, binary),
    PB_OPT_STRING_ONCE("args", "WORDS", "exec: the program's arguments (split as --cmd)", bisect_args, args),
    PB_OPT_STRING_ONCE("cell", "NAME", "only this cell: gbench a benchmark's name, the lab's suites a size", bisect_args,
                       cell),
    PB_OPT_STRING_ONCE("measure", "time|valgrind", "what each gate measures (default time; bench gate --measure)",
                       bisect_args, measure),
    PB_OPT("budget", "S|Nx", "an inconclusive revision is gated again while the bisection's time stays\n"
                             "under S seconds, or up to N gates per revision (default 2x); then skipped",
           O_BUDGET),
    PB_OPT_STRING_ONCE("repo", "DIR", "the repository (default: the current folder)", bisect_args, repo),
    PB_GATE_OUTPUT_OPTS(O_FORMAT, O_WRITE, O_OUT, O_ANNOTATE),
    PB_OPT_DB(bisect_args, db),
    PB_OPT_QUIET(bisect_args, progress),
    PB_OPT_INTERNAL_STRING("gate-bench", "PATH", "for tests: the program each step runs as bench gate (a fake whose\n"
                           "verdicts are fixed), in place of this bench", bisect_args, gate_bench),
    PB_OPT_END,
};

static int budget_opt(bisect_args *a, const char *v)
{
    char *end;
    double x = strtod(v, &end);
    int gates = *end == 'x' && !end[1];
    if (end == v || !(x > 0) || (*end && !gates && strcmp(end, "s")) || (gates && (x != (int)x || x > 100)) ||
        x > 86400)
        return pb_cli_error(a->cli, "--budget '%s': seconds (120, 120s) or gates per revision (3x, at most 100x)", v);
    a->budget_gates = gates ? (int)x : 0;
    a->budget_s = gates ? 0 : x;
    return 0;
}

static int on_opt(void *ctx, int id, const char *v)
{
    bisect_args *a = ctx;
    switch (id) {
    case O_BUDGET: return budget_opt(a, v);
    case O_FORMAT: return pb_gate_outputs_opt(&a->out, a->cli, "format", v) < 0 ? -1 : 0;
    case O_WRITE: return pb_gate_outputs_opt(&a->out, a->cli, "write", v) < 0 ? -1 : 0;
    case O_OUT: return pb_gate_outputs_opt(&a->out, a->cli, "out", v) < 0 ? -1 : 0;
    case O_ANNOTATE: return pb_gate_outputs_opt(&a->out, a->cli, "annotate", v) < 0 ? -1 : 0;
    }
    return 0;
}

static int on_pos(void *ctx, const char *arg)
{
    bisect_args *a = ctx;
    return pb_cli_error(a->cli, "unexpected argument '%s' (gate options go after \"--\")", arg);
}

/* what the options ask, checked before git or a build runs: 0, or -1 after printing */
static int check_opts(bisect_args *a)
{
    pb_cli *c = a->cli;
    static const char *const suites[] = {"gbench", "exec", "xts", "drbg", "sigpool"};
    int known = 0;
    for (size_t i = 0; a->suite && i < sizeof suites / sizeof *suites; i++) known |= !strcmp(a->suite, suites[i]);
    if (!a->suite) return pb_cli_error(c, "--suite: which suite each step gates (gbench, exec, xts, drbg, sigpool)");
    if (!known) return pb_cli_error(c, "--suite %s: bisect gates gbench, exec, xts, drbg or sigpool", a->suite);
    a->lab = strcmp(a->suite, "gbench") && strcmp(a->suite, "exec");
    if (!a->good) return pb_cli_error(c, "--good: the revision every step is gated against");
    if (!a->step && !a->bad) return pb_cli_error(c, "--bad: the revision with the regression (or --step)");
    if (a->step && a->bad) return pb_cli_error(c, "--bad: --step gates one revision, --rev (default HEAD)");
    if (!a->step && a->rev) return pb_cli_error(c, "--rev goes with --step");
    if (!a->lab && !a->build) return pb_cli_error(c, "--build: no build command (how each checkout of %s is built)", a->suite);
    if (!a->lab && !a->binary) return pb_cli_error(c, "--binary: the %s program's path in a built checkout", a->suite);
    if (a->lab && a->binary) return pb_cli_error(c, "--binary: %s runs the lab's own suite module", a->suite);
    if (a->args && strcmp(a->suite, "exec")) return pb_cli_error(c, "--args is exec's (the program's arguments)");
    if (a->cell && !strcmp(a->suite, "exec"))
        return pb_cli_error(c, "--cell: exec's cells are its --param values (pass -- --param P=V)");
    if (a->measure && strcmp(a->measure, "time") && strcmp(a->measure, "valgrind"))
        return pb_cli_error(c, "--measure '%s': time or valgrind", a->measure);
    if (a->binary && (strchr(a->binary, '\'') || a->binary[0] == '/'))
        return pb_cli_error(c, "--binary %s: a path inside the checkout, without quotes", a->binary);
    return pb_gate_outputs_check(&a->out, "bisect");
}

/* the repository, the revisions, this bench, the store and the temporary folder: 0, or -1 after
 * printing (exit 2) */
static int setup(bisect_args *a)
{
    pb_cli *c = a->cli;
    char rev[256], top[PATH_MAX];
    const char *repo = a->repo ? a->repo : ".";
    if (!realpath(repo, top) || !pb_git_describe(top, a->top, sizeof a->top, rev, sizeof rev))
        return pb_cli_error(c, "--repo %s: not a git repository", repo);
    if (!pb_git_commit(a->top, a->good, a->good_sha)) return pb_cli_error(c, "--good %s: not a revision of %s", a->good, a->top);
    const char *bad = a->step ? (a->rev ? a->rev : "HEAD") : a->bad;
    if (!pb_git_commit(a->top, bad, a->bad_sha))
        return pb_cli_error(c, "%s %s: not a revision of %s", a->step ? "--rev" : "--bad", bad, a->top);
    if (!strcmp(a->good_sha, a->bad_sha))
        return pb_cli_error(c, a->step ? "--rev %s is --good's commit: nothing to gate" : "--good and --bad are one commit", bad);
    const char *av[] = {"merge-base", "--is-ancestor", a->good_sha, a->bad_sha, NULL};
    pb_err e = {{0}};
    int rc = bisect_git(a, av, NULL, &e);
    if (rc != 0 && !a->step)
        return pb_cli_error(c, "--good %s is not an ancestor of --bad %s%s%s", a->good, bad, rc < 0 ? ": " : "",
                            rc < 0 ? e.msg : "");
    ssize_t n = a->gate_bench ? 0 : readlink("/proc/self/exe", a->bench, sizeof a->bench - 1);
    if (a->gate_bench && !realpath(a->gate_bench, a->bench)) return pb_cli_error(c, "--gate-bench %s: not found", a->gate_bench);
    if (!a->gate_bench && n <= 0) return pb_cli_error(c, "cannot find this bench's path (/proc/self/exe)");
    if (!a->gate_bench) a->bench[n] = 0;
    const char *db = a->db ? a->db : pb_default_db();
    char cwd[PATH_MAX];
    if (db[0] == '/' || strstr(db, "://") || !getcwd(cwd, sizeof cwd)) snprintf(a->dbpath, sizeof a->dbpath, "%s", db);
    else snprintf(a->dbpath, sizeof a->dbpath, "%s/%s", cwd, db);
    const char *t = getenv("TMPDIR");
    snprintf(a->tmp, sizeof a->tmp, "%s/pb-bisect-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(a->tmp)) {
        a->tmp[0] = 0;
        return pb_cli_error(c, "cannot make a temporary folder under %s", t && *t ? t : "/tmp");
    }
    return 0;
}

typedef struct bisect_state {
    char (*sha)[41];
    int *verdict;              /* per commit: -1 untested, BISECT_PASS, REGRESSION, or 4 skipped */
    char (*why)[160];          /* a skipped commit's reason */
    int n, steps, gates, reruns;
    char doc[PATH_MAX + 64];   /* the newest regression's document */
} bisect_state;

#define SKIPPED 4

static double elapsed(const bisect_args *a) { return (double)(pb_now_ns() - a->t0) / 1e9; }

/* the live line of a step, on stderr, within the terminal's width */
static void say_step(const bisect_args *a, const bisect_state *s, const char *sha, const char *what, int left)
{
    if (!a->progress) return;
    char subj[200], line[512];
    bisect_subject(a, sha, subj, sizeof subj);
    snprintf(line, sizeof line, "bisect: step %d (~%d more, %.0f s): %.12s %s: %s", s->steps, left, elapsed(a), sha,
             what, subj);
    pb_term_line(stderr, a->width, line);
}

/* Gates of the commit built in dir, against the good build, until one decides or the budget is
 * spent: BISECT_PASS, REGRESSION, INCONCLUSIVE or ERROR (why said); -1 + e when interrupted. */
static int gate_within_budget(bisect_args *a, bisect_state *s, const char *dir, const char *doc,
                              char *why, size_t cap, pb_err *e)
{
    int per_rev = a->budget_gates ? a->budget_gates : a->budget_s > 0 ? 100 : 2;
    int rc = BISECT_INCONCLUSIVE;
    for (int k = 0; k < per_rev && rc == BISECT_INCONCLUSIVE; k++) {
        double t = elapsed(a);
        if (k && a->budget_s > 0 && t + (t / (s->gates ? s->gates : 1)) > a->budget_s) break;
        if (k) s->reruns++;
        s->gates++;
        rc = bisect_gate(a, dir, doc, why, cap, e);
        if (rc < 0 || bisect_interrupted()) return rc < 0 ? -1 : pb_errf(e, "interrupted");
    }
    return rc;
}

/* one step: commit i checked out, built, gated; its verdict stored in s. 0, or -1 + e (interrupted,
 * or --bad/the good build that cannot be gated) */
static int step(bisect_args *a, bisect_state *s, int i, int left, pb_err *e)
{
    char dir[PATH_MAX], doc[PATH_MAX + 64], why[300] = "";
    int gates0 = s->gates;
    s->steps++;
    say_step(a, s, s->sha[i], "building", left);
    int rc = bisect_prepare(a, s->sha[i], dir, e);
    if (rc == 0) {
        say_step(a, s, s->sha[i], "gating", left);
        snprintf(doc, sizeof doc, "%s/gate-%.12s.json", a->tmp, s->sha[i]);
        rc = gate_within_budget(a, s, dir, doc, why, sizeof why, e);
    } else {
        snprintf(why, sizeof why, "%s", e->msg);
        rc = BISECT_ERROR;
    }
    bisect_release(a, dir);
    if (rc < 0 || bisect_interrupted()) return rc < 0 ? -1 : pb_errf(e, "interrupted");
    static const char *const words[] = {"pass: good", "regression: bad", "error: skipped", "inconclusive: skipped"};
    say_step(a, s, s->sha[i], words[rc], left);
    if (rc == BISECT_REGRESSION) snprintf(s->doc, sizeof s->doc, "%s", doc);
    s->verdict[i] = rc == BISECT_PASS || rc == BISECT_REGRESSION ? rc : SKIPPED;
    if (rc == BISECT_INCONCLUSIVE) snprintf(why, sizeof why, "inconclusive in %d gates, the budget's", s->gates - gates0);
    snprintf(s->why[i], sizeof s->why[i], "%s", why);
    if (rc == BISECT_ERROR && i == s->n - 1) return pb_errf(e, "--bad %.12s: %s", s->sha[i], why);
    return 0;
}

/* the untested commit in (lo, hi) nearest the middle, or -1 */
static int next_commit(const bisect_state *s, int lo, int hi)
{
    int mid = lo + (hi - lo) / 2, best = -1;
    for (int i = lo + 1; i < hi; i++)
        if (s->verdict[i] < 0 && (best < 0 || abs(i - mid) < abs(best - mid))) best = i;
    return best;
}

static int log2_ceil(int n)
{
    int k = 0;
    while ((1 << k) < n) k++;
    return k;
}

/* the search after --bad was found bad: lo the newest good (-1: --good), hi the oldest bad */
static int search(bisect_args *a, bisect_state *s, int *lo, int *hi, pb_err *e)
{
    for (;;) {
        for (int i = *lo + 1; i < *hi; i++)
            if (s->verdict[i] == BISECT_REGRESSION) *hi = i;
        for (int i = *hi - 1; i > *lo; i--)
            if (s->verdict[i] == BISECT_PASS) { *lo = i; break; }
        int i = next_commit(s, *lo, *hi);
        if (i < 0) return 0;
        if (step(a, s, i, log2_ceil(*hi - *lo - 1), e) < 0) return -1;
    }
}

/* the first bad commit's document, as every gate writes it (bench gate merge of one document): 0, or
 * 2 when it cannot be written */
static int emit_doc(bisect_args *a, const char *doc)
{
    pb_gate_merge_args m = {.nfiles = 1};
    m.files[0] = doc;
    fflush(stdout);
    int rc = pb_gate_merge(&m, &a->out);
    return rc == PB_GATE_EXIT_ERROR ? 2 : 0;
}

/* the answer: on stdout before a text document, else on stderr (stdout holds the document alone).
 * Skipped commits between the newest good and the oldest bad one leave several candidates: all are
 * named, oldest first, and the oldest bad one's document follows; exit 3. */
static int answer(bisect_args *a, bisect_state *s, int lo, int hi)
{
    FILE *f = a->out.format == PB_FMT_TEXT ? stdout : stderr;
    int width = f == stdout ? pb_term_width_fd(1) : a->width;
    char line[600], subj[200];
    int nskip = 0, all_skipped = 0;
    for (int i = lo + 1; i < hi; i++) nskip += s->verdict[i] == SKIPPED;
    for (int i = 0; i < s->n; i++) all_skipped += s->verdict[i] == SKIPPED;
    bisect_subject(a, s->sha[hi], subj, sizeof subj);
    if (nskip) {
        snprintf(line, sizeof line, "first bad commit: one of %d (skipped commits come before the oldest bad one):",
                 nskip + 1);
        pb_term_wrap(f, width, line);
        for (int i = lo + 1; i <= hi; i++) {
            if (i < hi && s->verdict[i] != SKIPPED) continue;
            bisect_subject(a, s->sha[i], subj, sizeof subj);
            snprintf(line, sizeof line, "  %.12s %s%s", s->sha[i], subj, i < hi ? " (skipped)" : " (bad)");
            pb_term_line(f, width, line);
        }
    } else {
        snprintf(line, sizeof line, "first bad commit: %.12s %s", s->sha[hi], subj);
        pb_term_wrap(f, width, line);
    }
    for (int i = 0; i < s->n; i++)
        if (s->verdict[i] == SKIPPED) {
            snprintf(line, sizeof line, "skipped: %.12s (%s)", s->sha[i], s->why[i]);
            pb_term_wrap(f, width, line);
        }
    snprintf(line, sizeof line, "%d commits after %.12s, %d steps, %d gates (%d reruns of inconclusive gates), "
             "%d skipped, %.1f s", s->n, a->good_sha, s->steps, s->gates, s->reruns, all_skipped, elapsed(a));
    pb_term_wrap(f, width, line);
    snprintf(line, sizeof line, "the gate of %.12s against %.12s:", s->sha[hi], a->good_sha);
    pb_term_wrap(f, width, line);
    int rc = emit_doc(a, s->doc) ? 2 : 0;
    return rc ? rc : nskip ? 3 : 0;
}

/* the bisection, the good build made: exit status */
static int bisect(bisect_args *a, pb_err *e)
{
    bisect_state s = {0};
    s.sha = calloc(BISECT_MAX_COMMITS, sizeof *s.sha);
    s.verdict = calloc(BISECT_MAX_COMMITS, sizeof *s.verdict);
    s.why = calloc(BISECT_MAX_COMMITS, sizeof *s.why);
    int rc = s.sha && s.verdict && s.why ? 0 : pb_errf(e, "out of memory");
    if (rc == 0 && (s.n = bisect_commits(a, s.sha, BISECT_MAX_COMMITS, e)) <= 0)
        rc = s.n < 0 ? -1 : pb_errf(e, "--bad: no commit after --good on its first-parent line");
    if (rc == 0 && strcmp(s.sha[s.n - 1], a->bad_sha))
        rc = pb_errf(e, "--good %.12s is not on --bad's first-parent line (merge it, or take a --good on it)",
                     a->good_sha);
    for (int i = 0; i < s.n; i++) s.verdict[i] = -1;
    if (rc == 0) rc = step(a, &s, s.n - 1, log2_ceil(s.n), e);
    int lo = -1, hi = s.n - 1;
    if (rc == 0 && s.verdict[hi] != BISECT_REGRESSION) {
        fprintf(stderr, "bench bisect: --bad %.12s is no regression against --good %.12s (%s): nothing to bisect\n",
                a->bad_sha, a->good_sha, s.verdict[hi] == BISECT_PASS ? "pass" : s.why[hi]);
        rc = 3;
    } else if (rc == 0 && search(a, &s, &lo, &hi, e) == 0) {
        rc = answer(a, &s, lo, hi);
    } else if (rc == 0) {
        rc = -1;
    }
    free(s.sha);
    free(s.verdict);
    free(s.why);
    return rc;
}

/* --step: one revision against --good, with git bisect run's statuses */
static int one_step(bisect_args *a, pb_err *e)
{
    char sha[1][41], why[1][160];
    int verdict = -1;
    snprintf(sha[0], sizeof sha[0], "%s", a->bad_sha);
    bisect_state s = {.sha = sha, .verdict = &verdict, .why = why, .n = 2};   /* n: not --bad's message */
    if (step(a, &s, 0, 0, e) < 0) return -1;
    if (verdict == BISECT_PASS) return 0;
    if (verdict != BISECT_REGRESSION) {
        fprintf(stderr, "bench bisect: %.12s skipped: %s\n", sha[0], why[0]);
        return 125;
    }
    return emit_doc(a, s.doc) ? 2 : 1;
}

static int run(bisect_args *a)
{
    pb_err e = {{0}};
    int rc = 0;
    if (a->progress) fprintf(stderr, "bisect: building --good %.12s in %s\n", a->good_sha, a->tmp);
    if (bisect_prepare(a, a->good_sha, a->good_dir, &e) < 0) {
        fprintf(stderr, "bench bisect: --good: %s\n", e.msg);
        rc = 2;
    } else {
        rc = a->step ? one_step(a, &e) : bisect(a, &e);
        if (rc < 0) fprintf(stderr, "bench bisect: %s\n", e.msg);
        if (rc < 0) rc = bisect_interrupted() ? 130 : 2;
    }
    if (a->good_dir[0]) bisect_release(a, a->good_dir);
    return bisect_interrupted() ? 130 : rc;   /* a signal ends it however far it got, as a shell's 128 + 2 */
}

int cmd_bisect(int argc, char **argv)
{
    bisect_args a = {.progress = 1, .out = {.format = PB_FMT_TEXT}, .width = pb_term_width()};
    int nopt = argc;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--")) { nopt = i; break; }
    a.gate_argv = argv + nopt + (nopt < argc);
    a.ngate = nopt < argc ? argc - nopt - 1 : 0;
    pb_cli cli = {.cmd = "bisect", .synopsis = SYNOPSIS, .epilogue = EPILOGUE, .opts = OPTS, .on_opt = on_opt,
                  .on_pos = on_pos, .ctx = &a};
    a.cli = &cli;
    if (a.ngate > BISECT_MAX_GATE_ARGS) return pb_cli_error(&cli, "more than %d words after \"--\"", BISECT_MAX_GATE_ARGS), 2;
    int r = pb_cli_parse(&cli, nopt, argv);
    if (r) return r == 1 ? 0 : 2;
    if (check_opts(&a) < 0 || setup(&a) < 0) {
        if (a.tmp[0]) rmdir(a.tmp);
        return 2;
    }
    a.t0 = pb_now_ns();
    bisect_signals(1);
    pb_gate_outputs_begin(&a.out);
    int rc = run(&a);
    bisect_remove_tmp(&a);
    bisect_signals(0);
    return rc;
}
