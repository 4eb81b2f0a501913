/* SPDX-License-Identifier: GPL-2.0-only */
/* suite_exec.c — two commands, old vs new, timed as whole processes.
 *
 *   bench run --suite exec --old 'CMD ARGS' --new 'CMD ARGS' [--bytes N] [--warmup N]
 *
 * hyperfine's job, but interleaved and paired like every suite here: old and new alternate
 * round by round with a rotating start, one process per sample, wall time from spawn to reaped
 * and the child's CPU time (user + system) stored, and the gate works on it.
 *
 * No shell is involved: CMD is split into words here, with '...' (literal), "..." (\" and \\
 * escapes) and a backslash outside quotes; nothing is expanded ($, *, ~, |, > are plain
 * characters). The first word is a path, or a name looked up in $PATH once, at parse time.
 * Both commands are run --warmup times first (default 2): each must exit 0, and one writing to
 * stderr while the other does not is refused, since it usually means one side failed quietly. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pb_spawn.h"
#include "suite.h"

#define EXEC_CMD_MAX 2048
#define EXEC_MAX_WORDS 64

typedef struct exec_cmd {
    char buf[EXEC_CMD_MAX];            /* the words, NUL-separated */
    char path[EXEC_CMD_MAX];           /* argv[0] resolved */
    char *argv[EXEC_MAX_WORDS + 1];    /* into buf, argv[0] = path; NULL-terminated */
} exec_cmd;

typedef struct exec_opts {
    exec_cmd cmd[2];                   /* old, new */
    int given[2];
    unsigned long long bytes;
    int warmup;
    double timeout_s;                  /* --timeout; 0: from the warm-up runs */
    double slowest_warmup_ns;          /* plan's: the slowest warm-up run of either command */
} exec_opts;

/* A run with nothing to go by (a warm-up, or a sample with --warmup 0 and no --timeout): long
 * enough for a build or a test suite, short of forever. */
#define EXEC_UNCALIBRATED_LIMIT_S 600.0
/* A 1 ms command preempted on a busy VM can take tens of ms: no default limit under a second. */
#define EXEC_MIN_LIMIT_S 1.0

static void opts_init(void *p)
{
    ((exec_opts *)p)->warmup = 2;
}

/* Split s into words in c->buf (see the file comment). -1 + e on an unterminated quote, too many
 * words, or an empty command. */
static int split_words(const char *opt, const char *s, exec_cmd *c, pb_err *e)
{
    size_t o = 0;
    int n = 0;
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == '\n') s++;
        if (!*s) break;
        if (n == EXEC_MAX_WORDS) return pb_errf(e, "--%s: more than %d words", opt, EXEC_MAX_WORDS);
        c->argv[n++] = &c->buf[o];
        while (*s && *s != ' ' && *s != '\t' && *s != '\n') {
            char q = *s;
            if (q == '\'' || q == '"') {
                for (s++; *s && *s != q; s++) {
                    if (q == '"' && *s == '\\' && (s[1] == '"' || s[1] == '\\')) s++;
                    if (o + 1 >= sizeof c->buf) return pb_errf(e, "--%s: command too long", opt);
                    c->buf[o++] = *s;
                }
                if (!*s) return pb_errf(e, "--%s: unterminated %c quote", opt, q);
                s++;
                continue;
            }
            if (q == '\\' && s[1]) s++;
            if (o + 1 >= sizeof c->buf) return pb_errf(e, "--%s: command too long", opt);
            c->buf[o++] = *s++;
        }
        c->buf[o++] = 0;
    }
    c->argv[n] = NULL;
    if (n == 0) return pb_errf(e, "--%s needs a command, e.g. --%s 'gzip -9 -c data.bin'", opt, opt);
    return 0;
}

/* argv[0]: a path as given, or a bare name looked up in $PATH (as a shell would, without one). */
static int resolve(const char *opt, exec_cmd *c, pb_err *e)
{
    const char *name = c->argv[0];
    if (strchr(name, '/')) {
        snprintf(c->path, sizeof c->path, "%s", name);
    } else {
        const char *dirs = getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin";
        c->path[0] = 0;
        for (const char *d = dirs; *d;) {
            size_t n = strcspn(d, ":");
            char cand[EXEC_CMD_MAX];
            snprintf(cand, sizeof cand, "%.*s/%s", (int)(n ? n : 1), n ? d : ".", name);
            if (access(cand, X_OK) == 0) {
                snprintf(c->path, sizeof c->path, "%s", cand);
                break;
            }
            d += n + (d[n] == ':');
        }
        if (!c->path[0]) return pb_errf(e, "--%s: '%s' is not in $PATH", opt, name);
    }
    if (access(c->path, X_OK) != 0) return pb_errf(e, "--%s: %s: not executable: %s", opt, c->path, strerror(errno));
    c->argv[0] = c->path;
    return 0;
}

static int set_cmd(exec_opts *o, int side, const char *value, pb_err *e)
{
    const char *opt = side ? "new" : "old";
    exec_cmd *c = &o->cmd[side];
    memset(c, 0, sizeof *c);
    if (split_words(opt, value, c, e) < 0 || resolve(opt, c, e) < 0) return -1;
    o->given[side] = 1;
    return 0;
}

static int set_old(void *o, const char *v, pb_err *e) { return set_cmd(o, 0, v, e); }
static int set_new(void *o, const char *v, pb_err *e) { return set_cmd(o, 1, v, e); }

static int parse_count(const char *opt, const char *v, unsigned long long max, unsigned long long *out, pb_err *e)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (!*v || *end || errno || *v == '-' || x > max)
        return pb_errf(e, "--%s wants a whole number from 0 to %llu, got '%s'", opt, max, v);
    *out = x;
    return 0;
}

static int set_bytes(void *o, const char *v, pb_err *e)
{
    return parse_count("bytes", v, 1ull << 50, &((exec_opts *)o)->bytes, e);
}

static int set_warmup(void *o, const char *v, pb_err *e)
{
    unsigned long long x = 0;
    if (parse_count("warmup", v, 100, &x, e) < 0) return -1;
    ((exec_opts *)o)->warmup = (int)x;
    return 0;
}

static int set_timeout(void *o, const char *v, pb_err *e)
{
    return pb_parse_timeout(v, &((exec_opts *)o)->timeout_s, e);
}

static const pb_suite_opt options[] = {
    {"old", "CMD", "the baseline command, split into words without a shell ('..', \"..\", \\)", set_old},
    {"new", "CMD", "the candidate command, the same way", set_new},
    {"bytes", "N", "bytes one run of a command processes, for per-byte figures (default 0: none)", set_bytes},
    {"warmup", "N", "untimed runs of each command first (default 2); each must exit 0", set_warmup},
    {"timeout", "S", "a run past S seconds is killed, with what it started, and fails its cases\n"
                     "(default: 10 x the slowest warm-up run, at least 1 s; 600 s with no warm-up)", set_timeout},
    {NULL, NULL, NULL, NULL},
};

/* One run of a command, killed past limit_s: -1 + e unless it exited 0. */
static int run_once(const exec_cmd *c, const char *side, double limit_s, pb_proc *p, pb_err *e)
{
    char what[EXEC_CMD_MAX + 32];
    pb_err se = {{0}};
    snprintf(what, sizeof what, "exec: --%s command %s", side, c->path);
    if (pb_spawn(c->argv, NULL, limit_s, p, &se) < 0) return pb_errf(e, "exec: --%s: %s", side, se.msg);
    return pb_proc_check(what, p, e);
}

static int plan(void *opts, const pb_plan_opts *po, pb_grid *g, pb_err *e)
{
    exec_opts *o = opts;
    (void)po;
    if (!o->given[0] || !o->given[1]) return pb_errf(e, "exec: give both --old CMD and --new CMD");
    size_t stderr_bytes[2] = {0, 0};
    for (int w = 0; w < o->warmup; w++)
        for (int side = 0; side < 2; side++) {
            pb_proc p;
            if (run_once(&o->cmd[side], side ? "new" : "old", o->timeout_s > 0 ? o->timeout_s : EXEC_UNCALIBRATED_LIMIT_S,
                         &p, e) < 0)
                return -1;
            stderr_bytes[side] += p.stderr_bytes;
            if (p.wall_ns > o->slowest_warmup_ns) o->slowest_warmup_ns = p.wall_ns;
        }
    if (o->warmup && (stderr_bytes[0] == 0) != (stderr_bytes[1] == 0))
        return pb_errf(e, "exec: only the --%s command writes to stderr (%zu bytes in %d warm-up runs): "
                       "did it fail without saying so in its exit status?",
                       stderr_bytes[0] ? "old" : "new", stderr_bytes[0] + stderr_bytes[1], o->warmup);
    g->cells = calloc(1, sizeof *g->cells);
    if (!g->cells) return pb_errf(e, "exec: out of memory");
    g->ncells = 1;
    pb_cell *c = &g->cells[0];
    snprintf(c->variant, sizeof c->variant, "command");
    snprintf(c->op, sizeof c->op, "run");
    c->size_bytes = o->bytes;
    c->nimpls = 2;
    snprintf(c->impls[0], PB_NAME_MAX, "old");
    snprintf(c->impls[1], PB_NAME_MAX, "new");
    return 0;
}

typedef struct exec_case {
    const exec_cmd *cmd;
    const char *side;
    double limit_s;
} exec_case;

static int external_sample(void *p, int64_t *iters, double *ns, double *cpu_ns, pb_err *e)
{
    exec_case *c = p;
    pb_proc proc;
    if (run_once(c->cmd, c->side, c->limit_s, &proc, e) < 0) return -1;
    *iters = 1;
    *ns = proc.wall_ns;
    *cpu_ns = proc.cpu_ns;
    return 0;
}

static pb_setup_status setup_case(void *opts, const pb_cell *cell, const char *impl, pb_case *out, pb_err *e)
{
    const exec_opts *o = opts;
    (void)cell;
    int side = !strcmp(impl, "new");
    if (!side && strcmp(impl, "old")) return pb_errf(e, "exec: unknown implementation '%s' (old or new)", impl);
    exec_case *c = calloc(1, sizeof *c);
    if (!c) return pb_errf(e, "exec: out of memory");
    c->cmd = &o->cmd[side];
    c->side = side ? "new" : "old";
    double ten = 10 * o->slowest_warmup_ns * 1e-9;
    c->limit_s = o->timeout_s > 0 ? o->timeout_s
                 : o->warmup ? (ten > EXEC_MIN_LIMIT_S ? ten : EXEC_MIN_LIMIT_S) : EXEC_UNCALIBRATED_LIMIT_S;
    out->ctx = c;
    out->free_ctx = free;
    out->external_sample = external_sample;
    return PB_SETUP_OK;
}

/* the program each side runs (its first word, as found on $PATH): its identity and build are
 * stored with the run (suite.h) */
static int user_object(const void *opts, const char *impl, char *path, size_t cap)
{
    const exec_opts *o = opts;
    int side = !strcmp(impl, "new");
    if (!side && strcmp(impl, "old")) return 0;
    snprintf(path, cap, "%s", o->cmd[side].path);
    return 1;
}

/* --old and --new are the two impls' commands: a second of either would replace the first */
static const char *const once_options[] = { "old", "new", NULL };

/* the options that name the code under test: a baseline's configuration is the rest (suite.h) */
static const char *const code_options[] = {"old", "new", NULL};

const pb_suite pb_suite_exec = {
    .name = "exec",
    .title = "two commands (--old CMD --new CMD), whole processes, interleaved and paired",
    .baseline = "old",
    .candidate = "new",
    .metrics = PB_M_NS_PER_OP | PB_M_MB_PER_S,
    .primary_metric = "ns_per_op",
    .opts_size = sizeof(exec_opts),
    .opts_init = opts_init,
    .options = options,
    .plan = plan,
    .setup_case = setup_case,
    .once_options = once_options,
    .user_object = user_object,
    .code_options = code_options,
    .plot_x = "variant",
    .sample_words = "one process of the command, timed from posix_spawn to reaped",
    .notes_md = "Each sample is one process: wall time from posix_spawn to reaped (CLOCK_MONOTONIC_RAW), "
                "which includes exec and the dynamic loader, and the child's user + system CPU time. No "
                "shell runs the commands. There is no document: no claim is checked.",
};
