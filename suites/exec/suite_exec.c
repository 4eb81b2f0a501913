/* SPDX-License-Identifier: GPL-2.0-only */
/* suite_exec.c — two or more commands timed as whole processes, interleaved and paired.
 *
 *   bench run --suite exec --cmd NAME=CMD --cmd NAME=CMD [--cmd ...] [--param N=V1,V2,... [--param M=...]]
 *             [--prepare CMD] [--setup CMD] [--cleanup CMD] [--check-output]
 *             [--bytes N] [--warmup N] [--timeout S]
 *   bench run --suite exec --old CMD --new CMD ...      (the same with two commands, old and new)
 *
 * hyperfine's job, but interleaved and paired like every suite here: the commands alternate round
 * by round with a rotating start, one process per sample, wall time from spawn to reaped and the
 * child's user and system CPU time stored, and the gate works on it. Each --cmd is an impl of each
 * cell, named NAME; the first is the baseline. --param N=V1,V2 makes one cell per value (variant
 * "N=V1"), with {N} in any word of a command replaced by the value; a second --param M=... one cell
 * per pair of values (variant "N=V1,M=W1", N's values outer). One --cmd with --param is a scan
 * (hyperfine -L): the first parameter's values are the impls, "N-V1", "N-V2", ..., the first the
 * baseline (exec_words.c), and a second parameter's are the cells.
 *
 * No shell is involved: CMD is split into words here, with '...' (literal), "..." (\" and \\
 * escapes) and a backslash outside quotes; nothing is expanded ($, *, ~, |, > are plain
 * characters) but {N}, inside a word, after the split: a value is never split or parsed. The first
 * word is a path, or a name looked up in $PATH. Every command is run --warmup times first
 * (default 2), each cell's commands in turn: each must exit 0, and some writing to stderr while
 * others do not is refused, since it usually means one side failed quietly; with --check-output,
 * their stdout (every byte, SHA-256, OpenSSL) must be the same. --prepare runs before every run,
 * warm-up or timed, untimed; --setup once per cell before any of its commands runs and --cleanup
 * once after the last, the commands sharing what --setup made, since they interleave (the runner's
 * cell_begin/cell_end, suite.h, which no code layout's copy repeats); a failing --cleanup is
 * warned about, never the end of a run whose samples are all taken. */
#include <errno.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec_suite.h"
#include "pb_spawn.h"

static const char *const hook_opt[NHOOKS] = {"prepare", "setup", "cleanup"};

/* A run with nothing to go by (a hook, or a command's first run in a cell, with no --timeout):
 * long enough for a build or a test suite, short of forever. */
#define EXEC_UNCALIBRATED_LIMIT_S 600.0
/* A 1 ms command preempted on a busy host can take tens of ms: no default limit under a second. */
#define EXEC_MIN_LIMIT_S 1.0
/* How much slower than its slowest earlier run a command may be before it is taken as hung. */
#define EXEC_LIMIT_FACTOR 10.0

static void opts_init(void *p)
{
    ((exec_opts *)p)->warmup = 2;
}

static int find_cmd(const exec_opts *o, const char *name)
{
    int n = o->oldnew ? 2 : o->ncmds;
    for (int i = 0; i < n; i++)
        if (o->cmd[i].given && !strcmp(o->cmd[i].name, name)) return i;
    return -1;
}

static int set_cmd(void *p, const char *value, pb_err *e)
{
    exec_opts *o = p;
    if (o->oldnew) return pb_errf(e, "--cmd: not with --old/--new (give every command as --cmd NAME=CMD)");
    const char *eq = strchr(value, '=');
    if (!eq) return pb_errf(e, "--cmd wants NAME=CMD, got '%s'", value);
    size_t n = (size_t)(eq - value);
    if (!exec_good_name(value, n))
        return pb_errf(e, "--cmd: bad NAME '%.*s' (1 to %d of letters, digits, '_', '-', '.', '+')", (int)n, value,
                       PB_NAME_MAX - 1);
    for (int i = 0; i < o->ncmds; i++)
        if (strlen(o->cmd[i].name) == n && !strncmp(o->cmd[i].name, value, n))
            return pb_errf(e, "--cmd: NAME '%.*s' given twice (each command is an impl of its own name)", (int)n, value);
    if (o->ncmds == EXEC_MAX_CMDS) return pb_errf(e, "--cmd: at most %d commands", EXEC_MAX_CMDS);
    exec_tmpl *t = &o->cmd[o->ncmds];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%.*s", (int)n, value);
    snprintf(t->opt, sizeof t->opt, "--cmd %.*s", (int)n, value);
    if (exec_split_words(t->opt, eq + 1, t, e) < 0) return -1;
    t->given = 1;
    o->ncmds++;
    return 0;
}

static int set_side(exec_opts *o, int side, const char *value, pb_err *e)
{
    const char *opt = side ? "--new" : "--old";
    if (o->ncmds) return pb_errf(e, "%s: not with --cmd (give every command as --cmd NAME=CMD)", opt);
    exec_tmpl *t = &o->cmd[side];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", side ? "new" : "old");
    snprintf(t->opt, sizeof t->opt, "%s", opt);
    if (exec_split_words(opt, value, t, e) < 0) return -1;
    t->given = 1;
    o->oldnew = 1;
    return 0;
}

static int set_old(void *o, const char *v, pb_err *e) { return set_side(o, 0, v, e); }
static int set_new(void *o, const char *v, pb_err *e) { return set_side(o, 1, v, e); }

static int set_hook(exec_opts *o, int h, const char *value, pb_err *e)
{
    exec_tmpl *t = &o->hook[h];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", hook_opt[h]);
    snprintf(t->opt, sizeof t->opt, "--%s", hook_opt[h]);
    if (exec_split_words(t->opt, value, t, e) < 0) return -1;
    t->given = 1;
    return 0;
}

static int set_prepare(void *o, const char *v, pb_err *e) { return set_hook(o, HOOK_PREPARE, v, e); }
static int set_setup(void *o, const char *v, pb_err *e) { return set_hook(o, HOOK_SETUP, v, e); }
static int set_cleanup(void *o, const char *v, pb_err *e) { return set_hook(o, HOOK_CLEANUP, v, e); }

/* --param NAME=V1,V2,... (at most twice): each value a cell, "NAME=V" its variant, which must fit a
 * name */
static int set_param(void *p, const char *value, pb_err *e)
{
    exec_opts *o = p;
    if (o->npar == EXEC_MAX_PARAMS) return pb_errf(e, "--param: at most %d parameters", EXEC_MAX_PARAMS);
    exec_param *par = &o->par[o->npar];
    const char *eq = strchr(value, '=');
    if (!eq) return pb_errf(e, "--param wants NAME=V1,V2,..., got '%s'", value);
    size_t n = (size_t)(eq - value);
    char probe[PB_NAME_MAX + 3];
    snprintf(probe, sizeof probe, "{%.*s}", (int)(n < PB_NAME_MAX ? n : PB_NAME_MAX), value);
    if (!n || n >= PB_NAME_MAX || exec_placeholder_at(probe) != n)
        return pb_errf(e, "--param: bad NAME '%.*s' (a letter or '_', then letters, digits, '_')", (int)n, value);
    if (exec_param_named(o, value, n) >= 0) return pb_errf(e, "--param %.*s given twice (one list per parameter)", (int)n, value);
    snprintf(par->name, sizeof par->name, "%.*s", (int)n, value);
    par->nvalues = 0;
    for (const char *v = eq + 1;;) {
        size_t len = strcspn(v, ",");
        if (!len) return pb_errf(e, "--param %s: an empty value in '%s' (values are separated by single commas)", par->name, eq + 1);
        for (size_t i = 0; i < len; i++)
            if ((unsigned char)v[i] <= ' ' || (unsigned char)v[i] >= 0x7f || v[i] == '{' || v[i] == '}')
                return pb_errf(e, "--param %s: value '%.*s' holds a space, a brace or a character outside printable "
                               "ASCII", par->name, (int)len, v);
        if (n + 1 + len >= PB_NAME_MAX)
            return pb_errf(e, "--param %s: value '%.*s' too long ('%s=VALUE' is a cell's name: at most %d characters)",
                           par->name, (int)len, v, par->name, PB_NAME_MAX - 1);
        for (int i = 0; i < par->nvalues; i++)
            if (strlen(par->value[i]) == len && !strncmp(par->value[i], v, len))
                return pb_errf(e, "--param %s: value '%.*s' given twice (each value is one cell)", par->name, (int)len, v);
        if (par->nvalues == EXEC_MAX_VALUES) return pb_errf(e, "--param %s: at most %d values", par->name, EXEC_MAX_VALUES);
        snprintf(par->value[par->nvalues++], PB_NAME_MAX, "%.*s", (int)len, v);
        if (!v[len]) break;
        v += len + 1;
    }
    o->npar++;
    return 0;
}

static int set_check_output(void *o, const char *v, pb_err *e)
{
    (void)v;
    (void)e;
    ((exec_opts *)o)->check_output = 1;
    return 0;
}

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

/* what the run's own copy's warm-ups found, set on a code layout's copy (calibrated_options) */
static int set_warmed(void *p, const char *v, pb_err *e)
{
    exec_opts *o = p;
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (end == v || *end || errno || !(x >= 0))
        return pb_errf(e, "--warmed-slowest-ns wants nanoseconds, got '%s'", v);
    o->slowest_warmup_ns = x;
    o->warmed = 1;
    return 0;
}

static const pb_suite_opt options[] = {
    {"cmd", "NAME=CMD", "a command, the impl NAME (two or more, the first the baseline; or one with --param);\n"
                        "split into words without a shell ('..', \"..\", \\); {P} in a word is --param's value", set_cmd},
    {"old", "CMD", "the baseline command (impl old), the same way: --old/--new are --cmd old=CMD --cmd new=CMD", set_old},
    {"new", "CMD", "the candidate command (impl new)", set_new},
    {"param", "P=V1,V2,...", "one cell per value (variant P=V), {P} in the commands' words replaced by it;\n"
                             "a second --param: one cell per pair of values (variant P=V,Q=W); with one\n"
                             "--cmd (hyperfine -L), the first --param's values are its impls, P-V1, P-V2, ...,\n"
                             "each against P-V1", set_param},
    {"prepare", "CMD", "run before every run of every command (warm-up or timed), not timed", set_prepare},
    {"setup", "CMD", "run once per cell, before any of its commands (then the warm-ups): the commands,\n"
                     "interleaved, share what it makes (hyperfine runs it once per command)", set_setup},
    {"cleanup", "CMD", "run once per cell, after its last timed run; failing, it is warned about and\n"
                       "the cell's samples are kept", set_cleanup},
    {"check-output", NULL, "refuse to time commands whose stdout (every byte, SHA-256) differs in the first\n"
                           "warm-up", set_check_output},
    {"bytes", "N", "bytes one run of a command processes, for per-byte figures (default 0: none)", set_bytes},
    {"warmup", "N", "untimed runs of each command first (default 2); each must exit 0", set_warmup},
    {"timeout", "S", "every run (warm-up, timed or hook) past S seconds is killed, with what it\n"
                     "started, and fails its cases (default: 10 x the command's slowest earlier run\n"
                     "in the cell, at least 1 s; 600 s for its first run and for the hooks)", set_timeout},
    /* bench's own: set on a copy of the suite (a gate's rerun) with what the run's warm-ups found,
     * so that the copy runs none of its own */
    {"warmed-slowest-ns", "NS", NULL, set_warmed},
    {NULL, NULL, NULL, NULL},
};

/* The one limit rule of every run this suite makes (docs/cage.md, "Limits"): k is the command (an
 * index into o->cmd), or -1 for a hook, in the cell of index cell.
 *   --timeout S: S, for every run, command or hook, warm-up or timed;
 *   a command: 10 x its slowest earlier run in this cell, warm-up or timed (in a gate's copy, which
 *     runs no warm-ups, at least the run's own copy's slowest warm-up counts), at least 1 s; its
 *     first run in the cell, with nothing to go by, 600 s (so with --warmup 0 only the first sample
 *     of each command has 600 s; with --setup the cell's warm-ups give the measure as well);
 *   a hook (--prepare, --setup, --cleanup; a build may be one): 600 s.
 * Each command's own runs, per cell: a command may well be ten times slower than another, or the
 * same command in another cell (--param N=1,1000). pb_proc.limit_s keeps what was applied, which
 * the message names. */
static double exec_limit_s(const exec_opts *o, int k, int cell)
{
    if (o->timeout_s > 0) return o->timeout_s;
    if (k < 0) return EXEC_UNCALIBRATED_LIMIT_S;
    double slowest = o->slowest_ns[cell][k];
    if (o->warmed && o->slowest_warmup_ns > slowest) slowest = o->slowest_warmup_ns;
    if (!(slowest > 0)) return EXEC_UNCALIBRATED_LIMIT_S;
    double lim = EXEC_LIMIT_FACTOR * slowest * 1e-9;
    return lim > EXEC_MIN_LIMIT_S ? lim : EXEC_MIN_LIMIT_S;
}

/* a run of command k in cell that exited 0 took wall_ns: the measure of its next runs' limit */
static void exec_ran(exec_opts *o, int k, int cell, double wall_ns)
{
    if (wall_ns > o->slowest_ns[cell][k]) o->slowest_ns[cell][k] = wall_ns;
}

/* the cell's index for exec_limit_s: a cell value, or the one cell (-1) */
static int cell_index(int v) { return v < 0 ? 0 : v; }

/* The commands in order: their number (0 until two are given). */
static int ncmds(const exec_opts *o)
{
    if (o->oldnew) return o->cmd[0].given && o->cmd[1].given ? 2 : 0;
    return o->ncmds >= 2 ? o->ncmds : 0;
}


/* pb_spawn_to's sink for --check-output: the hash goes on, the bytes are not kept */
typedef struct out_hash {
    EVP_MD_CTX *h;
    int failed;
} out_hash;

static int hash_some(void *ctx, const char *buf, size_t n)
{
    out_hash *x = ctx;
    if (EVP_DigestUpdate(x->h, buf, n) == 1) return 0;
    x->failed = 1;
    return -1;
}

/* One run of c, killed past limit_s (exec_limit_s), its stdout to /dev/null or, md != NULL, hashed
 * as it comes (SHA-256 of every byte into md; bytes in p->stdout_bytes): -1 + e unless it exited 0.
 * who names it in messages. */
static int run_once(const exec_cmd *c, const char *who, double limit_s, unsigned char *md, pb_proc *p, pb_err *e)
{
    char what[EXEC_CMD_MAX + 128];
    pb_err se = {{0}};
    snprintf(what, sizeof what, "exec: %s command %s", who, c->path);
    out_hash x = {md ? EVP_MD_CTX_new() : NULL, 0};
    if (md && (!x.h || EVP_DigestInit_ex(x.h, EVP_sha256(), NULL) != 1)) {
        EVP_MD_CTX_free(x.h);
        return pb_errf(e, "exec: --check-output: cannot hash the output of %s", who);
    }
    int rc = pb_spawn_to(c->argv, x.h ? hash_some : NULL, &x, limit_s, p, &se);
    unsigned int mdn = 0;
    int hashed = !x.h || (!x.failed && EVP_DigestFinal_ex(x.h, md, &mdn) == 1);
    EVP_MD_CTX_free(x.h);
    if (rc < 0) return pb_errf(e, "exec: %s: %s", who, se.msg);
    if (pb_proc_check(what, p, e) < 0) return -1;
    if (!hashed) return pb_errf(e, "exec: --check-output: cannot hash the output of %s", who);
    return 0;
}

/* --prepare for command k of a cell (value v), or (k < 0) --setup or --cleanup of the cell: -1 + e
 * saying which and how it failed */
static int run_hook(const exec_opts *o, int h, int k, int v, pb_err *e)
{
    if (!o->hook[h].given) return 0;
    exec_cmd c;
    if (exec_instantiate(o, &o->hook[h], v, k >= 0 ? o->cmd[k].scan_value : NULL, &c, e) < 0) return -1;
    char who[PB_NAME_MAX * 5 + 64], cw[PB_NAME_MAX * 2 + 8];
    exec_cell_words(o, v, cw, sizeof cw);
    if (k >= 0) snprintf(who, sizeof who, "--%s (for command %s%s)", hook_opt[h], o->cmd[k].name, cw);
    else snprintf(who, sizeof who, "--%s%s", hook_opt[h], cw);
    pb_proc p;
    return run_once(&c, who, exec_limit_s(o, -1, cell_index(v)), NULL, &p, e);
}

/* The warm-up runs of the commands impls[0..n) (indices into o->cmd) of the cell of value v: each
 * must exit 0; stderr written by some only, or (--check-output) differing stdout, refuses. */
static int warm_up(exec_opts *o, const int *impls, int n, int v, pb_err *e)
{
    size_t stderr_bytes[EXEC_MAX_CMDS] = {0};
    unsigned char md[EXEC_MAX_CMDS][EVP_MAX_MD_SIZE];
    size_t out_len[EXEC_MAX_CMDS] = {0};
    char cw[PB_NAME_MAX * 2 + 8];
    exec_cell_words(o, v, cw, sizeof cw);
    if (o->check_output && !o->warmup) return pb_errf(e, "exec: --check-output compares the warm-up runs: not with --warmup 0");
    for (int w = 0; w < o->warmup; w++)
        for (int i = 0; i < n; i++) {
            int k = impls[i];
            exec_cmd c;
            pb_proc p;
            char who[PB_NAME_MAX * 5 + 16];
            snprintf(who, sizeof who, "%s%s", o->cmd[k].opt, cw);
            /* every byte hashed as it comes: compressed or binary output holds NULs, and what
             * follows one counts; none of it is held (a command may print gigabytes) */
            int hash = o->check_output && w == 0;
            if (run_hook(o, HOOK_PREPARE, k, v, e) < 0 || exec_instantiate(o, &o->cmd[k], v, o->cmd[k].scan_value, &c, e) < 0 ||
                run_once(&c, who, exec_limit_s(o, k, cell_index(v)), hash ? md[i] : NULL, &p, e) < 0)
                return -1;
            if (hash) out_len[i] = p.stdout_bytes;
            stderr_bytes[i] += p.stderr_bytes;
            exec_ran(o, k, cell_index(v), p.wall_ns);
            if (p.wall_ns > o->slowest_warmup_ns) o->slowest_warmup_ns = p.wall_ns;
        }
    if (!o->warmup) return 0;
    int quiet = 0, loud = -1;
    for (int i = 0; i < n; i++) {
        if (stderr_bytes[i]) { if (loud < 0) loud = i; }
        else quiet++;
    }
    if (loud >= 0 && quiet) {
        char list[EXEC_MAX_CMDS * (PB_NAME_MAX + 8)] = "";
        size_t at = 0, total = 0;
        int many = n - quiet > 1;
        for (int i = 0; i < n; i++)
            if (stderr_bytes[i]) {
                at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", at ? ", " : "", o->cmd[impls[i]].opt);
                total += stderr_bytes[i];
            }
        return pb_errf(e, "exec: only the %s command%s write%s to stderr%s (%zu bytes in %d warm-up runs): "
                       "did %s fail without saying so in %s exit status?",
                       list, many ? "s" : "", many ? "" : "s", cw, total, o->warmup, many ? "they" : "it",
                       many ? "their" : "its");
    }
    for (int i = 1; o->check_output && i < n; i++)
        if (out_len[i] != out_len[0] || memcmp(md[i], md[0], 32))
            return pb_errf(e, "exec: --check-output: %s printed other output than %s%s (%zu bytes against %zu, "
                           "SHA-256 differs): refusing to time commands that do not do the same work",
                           o->cmd[impls[i]].opt, o->cmd[impls[0]].opt, cw, out_len[i], out_len[0]);
    return 0;
}

/* Every option that needs the others, checked once all are given: 0, or -1 + e. */
static int check_opts(const exec_opts *o, pb_err *e)
{
    int n = ncmds(o);
    if (!n)
        return pb_errf(e, "exec: give both --old CMD and --new CMD, or two or more --cmd NAME=CMD, or one with "
                       "--param P=V1,V2,... (each value timed against the first)");
    int uses[EXEC_MAX_PARAMS] = {0};
    for (int k = 0; k < n; k++)
        if (exec_check_placeholders(o, &o->cmd[k], 1, uses, e) < 0) return -1;
    for (int h = 0; h < NHOOKS; h++)
        if (o->hook[h].given && exec_check_placeholders(o, &o->hook[h], h == HOOK_PREPARE, uses, e) < 0) return -1;
    for (int i = 0; i < o->npar; i++)
        if (!uses[i])
            return pb_errf(e, "exec: --param %s: no command uses {%s} (its cells would time the same thing)",
                           o->par[i].name, o->par[i].name);
    if (exec_ncells(o) > EXEC_MAX_CELLS)
        return pb_errf(e, "exec: --param: %d cells, at most %d", exec_ncells(o), EXEC_MAX_CELLS);
    /* every cell's name fits one: the longest values of both together */
    if (o->npar == 2) {
        size_t len = strlen(o->par[0].name) + strlen(o->par[1].name) + 3;
        for (int i = 0; i < 2; i++) {
            size_t most = 0;
            for (int k = 0; k < o->par[i].nvalues; k++)
                if (strlen(o->par[i].value[k]) > most) most = strlen(o->par[i].value[k]);
            len += most;
        }
        if (len >= PB_NAME_MAX)
            return pb_errf(e, "exec: --param %s and --param %s: a cell's name 'N=V,M=W' would be %zu characters, at "
                           "most %d", o->par[0].name, o->par[1].name, len, PB_NAME_MAX - 1);
    }
    return 0;
}

static int plan(void *opts, const pb_plan_opts *po, pb_grid *g, pb_err *e)
{
    exec_opts *o = opts;
    (void)po;
    if (exec_expand_scan(o, e) < 0 || check_opts(o, e) < 0) return -1;
    int n = ncmds(o), ncells = exec_ncells(o), cellv = o->npar ? 0 : -1;
    int all[EXEC_MAX_CMDS];
    for (int k = 0; k < n; k++) all[k] = k;
    /* every command of every cell can be run: a name not on $PATH is refused before anything runs */
    for (int v = 0; v < ncells; v++)
        for (int k = 0; k < n; k++) {
            exec_cmd c;
            const exec_tmpl *t = &o->cmd[k];
            /* a program --setup makes need not be there yet */
            if (o->hook[HOOK_SETUP].given && strchr(t->buf, '/')) continue;
            if (exec_instantiate(o, t, cellv < 0 ? -1 : v, t->scan_value, &c, e) < 0) return -1;
        }
    /* with --setup the warm-ups follow it, cell by cell (cell_begin); a code layout's copy takes the
     * run's own copy's (--warmed-slowest-ns) */
    if (!o->hook[HOOK_SETUP].given && !o->warmed)
        for (int v = 0; v < ncells; v++)
            if (warm_up(o, all, n, cellv < 0 ? -1 : v, e) < 0) return -1;
    g->cells = calloc(ncells > 0 ? (size_t)ncells : 1u, sizeof *g->cells);
    if (!g->cells) return pb_errf(e, "exec: out of memory");
    g->ncells = ncells;
    for (int v = 0; v < ncells; v++) {
        pb_cell *c = &g->cells[v];
        exec_cell_variant(o, cellv < 0 ? -1 : v, c->variant, sizeof c->variant);
        snprintf(c->op, sizeof c->op, "run");
        c->size_bytes = o->bytes;
        c->nimpls = n;
        for (int k = 0; k < n; k++) snprintf(c->impls[k], PB_NAME_MAX, "%s", o->cmd[k].name);
    }
    return 0;
}

typedef struct exec_case {
    exec_cmd cmd, prepare;
    int has_prepare;
    char who[PB_NAME_MAX * 5 + 16];
    exec_opts *o;                      /* the suite's options: the limit's measure, kept up to date */
    int k, cell;                       /* the command and the cell's index */
    double user_ns, sys_ns;            /* the last sample's */
} exec_case;

static int external_sample(void *p, int64_t *iters, double *ns, double *cpu_ns, pb_err *e)
{
    exec_case *c = p;
    pb_proc proc;
    if (c->has_prepare) {
        char who[sizeof c->who + 32];
        snprintf(who, sizeof who, "--prepare (for %s)", c->who);
        if (run_once(&c->prepare, who, exec_limit_s(c->o, -1, c->cell), NULL, &proc, e) < 0) return -1;
    }
    if (run_once(&c->cmd, c->who, exec_limit_s(c->o, c->k, c->cell), NULL, &proc, e) < 0) return -1;
    exec_ran(c->o, c->k, c->cell, proc.wall_ns);
    *iters = 1;
    *ns = proc.wall_ns;
    *cpu_ns = proc.cpu_ns;
    c->user_ns = proc.user_ns;
    c->sys_ns = proc.sys_ns;
    return 0;
}

/* --measure valgrind (suite.h count_sample): --prepare as for a sample (not counted), then the
 * command under callgrind (wrap), following what it starts (count_options): the whole process,
 * one op per run. Valgrind runs it 20 to 100 times slower: a limit of its own, --timeout or 600 s. */
static const char *const count_options[] = {"--trace-children=yes", NULL};

static int count_sample(void *p, char *const *wrap, int longer, int64_t *iters, pb_err *e)
{
    exec_case *c = p;
    (void)longer;   /* a command's run is its whole process: no first run to leave out */
    pb_proc proc;
    if (c->has_prepare) {
        char who[sizeof c->who + 32];
        snprintf(who, sizeof who, "--prepare (for %s)", c->who);
        if (run_once(&c->prepare, who, exec_limit_s(c->o, -1, c->cell), NULL, &proc, e) < 0) return -1;
    }
    char *argv[EXEC_MAX_WORDS + 40];
    int n = 0;
    while (wrap[n] && n < 38) { argv[n] = wrap[n]; n++; }
    if (wrap[n]) return pb_errf(e, "exec: too many valgrind options");
    for (int i = 0; c->cmd.argv[i]; i++) argv[n++] = c->cmd.argv[i];
    argv[n] = NULL;
    char what[EXEC_CMD_MAX + 160];
    snprintf(what, sizeof what, "exec: %s command %s under valgrind", c->who, c->cmd.path);
    pb_err se = {{0}};
    if (pb_spawn_to(argv, NULL, NULL, c->o->timeout_s > 0 ? c->o->timeout_s : 600, &proc, &se) < 0)
        return pb_errf(e, "exec: %s: %s", c->who, se.msg);
    if (pb_proc_check(what, &proc, e) < 0) return -1;
    *iters = 1;
    return 0;
}

static int cpu_split(void *p, double *user_ns, double *sys_ns)
{
    const exec_case *c = p;
    *user_ns = c->user_ns;
    *sys_ns = c->sys_ns;
    return 1;
}

static pb_setup_status setup_case(void *opts, const pb_cell *cell, const char *impl, pb_case *out, pb_err *e)
{
    exec_opts *o = opts;
    int k = find_cmd(o, impl), v = exec_value_of(o, cell);
    if (k < 0) return pb_errf(e, "exec: unknown implementation '%s'", impl);
    exec_case *c = calloc(1, sizeof *c);
    if (!c) return pb_errf(e, "exec: out of memory");
    const char *scan = o->cmd[k].scan_value;
    if (exec_instantiate(o, &o->cmd[k], v, scan, &c->cmd, e) < 0 ||
        (o->hook[HOOK_PREPARE].given && exec_instantiate(o, &o->hook[HOOK_PREPARE], v, scan, &c->prepare, e) < 0)) {
        free(c);
        return PB_SETUP_ERROR;
    }
    c->has_prepare = o->hook[HOOK_PREPARE].given;
    char cw[PB_NAME_MAX * 2 + 8];
    snprintf(c->who, sizeof c->who, "%s%s", o->cmd[k].opt, exec_cell_words(o, v, cw, sizeof cw));
    c->o = o;
    c->k = k;
    c->cell = cell_index(v);
    out->ctx = c;
    out->free_ctx = free;
    out->external_sample = external_sample;
    return PB_SETUP_OK;
}

/* the commands of the cell (after --impl), as indices into o->cmd */
static int cell_cmds(const exec_opts *o, const pb_cell *cell, int *k)
{
    int n = 0;
    for (int i = 0; i < cell->nimpls; i++) {
        int c = find_cmd(o, cell->impls[i]);
        if (c >= 0) k[n++] = c;
    }
    return n;
}

/* --cleanup of cell v: a failure is said on stderr, never fatal: by now the cell's samples are all
 * taken, and a run whose every sample is in is stored whole */
static void clean_up(const exec_opts *o, int v)
{
    pb_err he = {{0}};
    if (run_hook(o, HOOK_CLEANUP, -1, v, &he) < 0)
        fprintf(stderr, "bench: warning: %s (the cell's samples are kept)\n", he.msg);
}

/* --setup once for the cell, before any of its commands runs, then the cell's warm-ups (which
 * follow it: the programs it makes may not be there before); --cleanup once after the cell's last
 * sample. The commands share what --setup made: hyperfine's --setup 'cp data.bin tmp.bin'
 * --cleanup 'rm tmp.bin' works, where a cleanup per command of interleaved commands would find
 * the file gone. A warm-up that fails after --setup refuses the cell, and --cleanup tidies up. */
static int cell_begin(void *opts, const pb_cell *cell, pb_err *e)
{
    exec_opts *o = opts;
    if (!o->hook[HOOK_SETUP].given) return 0;
    int k[EXEC_MAX_CMDS], n = cell_cmds(o, cell, k), v = exec_value_of(o, cell);
    if (run_hook(o, HOOK_SETUP, -1, v, e) < 0) return -1;
    if (warm_up(o, k, n, v, e) == 0) return 0;
    clean_up(o, v);
    return -1;
}

static int cell_end(void *opts, const pb_cell *cell, pb_err *e)
{
    exec_opts *o = opts;
    /* a failure after every sample is in: the runner warns, keeps the cell and notes it in the
     * run's noise (suite.h: 1 + e) */
    return run_hook(o, HOOK_CLEANUP, -1, exec_value_of(o, cell), e) < 0 ? 1 : 0;
}

/* the program each command runs (its first word, as found on $PATH): its identity and build are
 * stored with the run (suite.h). Not for a first word with {P} in it (one program per cell) or a
 * program not there yet (--setup may make it). */
static int user_object(const void *opts, const char *impl, char *path, size_t cap)
{
    const exec_opts *o = opts;
    int k = find_cmd(o, impl);
    if (k < 0) return 0;
    const char *w = o->cmd[k].buf;
    for (const char *p = w; *p; p++)
        if (exec_placeholder_at(p)) return 0;
    if (strchr(w, '/')) {
        if (access(w, X_OK) != 0) return 0;
        snprintf(path, cap, "%s", w);
        return 1;
    }
    return pb_find_program(w, path, cap);
}

static int roles(const void *opts, const char **baseline, const char **candidate)
{
    /* a scan's impls are its values (exec_expand_scan), and the run asks for its roles before it
     * plans: the options are made into the scan's commands here already (plan says why they could
     * not be) */
    exec_opts *o = (exec_opts *)opts;
    pb_err e = {{0}};
    if (exec_expand_scan(o, &e) < 0) return 0;
    if (o->oldnew || o->ncmds < 2) return 0;
    *baseline = o->cmd[0].name;
    *candidate = o->cmd[1].name;
    return 1;
}

/* a code layout's copy plans after the run's own copy: what the warm-ups found, so that it runs
 * none again (every --prepare and warm-up run once per run, not once per copy) */
static const char *calibrated_options(const void *opts)
{
    exec_opts *o = (exec_opts *)opts;
    snprintf(o->calibrated, sizeof o->calibrated, "warmed-slowest-ns=%.17g", o->slowest_warmup_ns);
    return o->calibrated;
}

/* --old, --new and the hooks replace a first value, which the stored options would still show;
 * --cmd and --param (twice at most) add one each */
static const char *const once_options[] = {"old", "new", "prepare", "setup", "cleanup", NULL};

/* the options that name the code under test: a baseline's configuration is the rest (suite.h) */
static const char *const code_options[] = {"old", "new", "cmd", NULL};

const pb_suite pb_suite_exec = {
    .name = "exec",
    .title = "commands (--cmd NAME=CMD ..., or --old CMD --new CMD), whole processes, interleaved and paired",
    .baseline = "old",
    .candidate = "new",
    .metrics = PB_M_NS_PER_OP | PB_M_MB_PER_S,
    .primary_metric = "ns_per_op",
    .opts_size = sizeof(exec_opts),
    .opts_init = opts_init,
    .options = options,
    .plan = plan,
    .setup_case = setup_case,
    .calibrated_options = calibrated_options,
    .once_options = once_options,
    .user_object = user_object,
    .code_options = code_options,
    .roles = roles,
    .cpu_split = cpu_split,
    .count_sample = count_sample,
    .count_options = count_options,
    .cell_begin = cell_begin,
    .cell_end = cell_end,
    .plot_x = "variant",
    .sample_words = "one process of the command, timed from posix_spawn to reaped",
    .notes_md = "Each sample is one process: wall time from posix_spawn to reaped (CLOCK_MONOTONIC_RAW), "
                "which includes exec and the dynamic loader, and the child's user and system CPU time. No "
                "shell runs the commands. There is no document: no claim is checked.",
};
