/* SPDX-License-Identifier: GPL-2.0-only */
/* valgrind_ext.c — `--measure valgrind` for a suite whose cases are other programs (gbench, exec).
 *
 * Why not the child of valgrind.c: there bench counts the instructions of its own process, and
 * these suites' cases run another program. Here each case's program runs under callgrind in its
 * own process, started by its suite as a sample is (pb_suite.count_sample, no shell), with the
 * harness's options (the fixed cache geometry, cache and branch simulation) and the suite's (gbench:
 * zero at the start of GB's State loop, dump at its end; exec: follow what the command starts).
 * The counts come from its dumps (callgrind_parse.h), divided by the ops the suite reports, and
 * are stored by pb_vg_store as the lab's own count runs are. A count that cannot be taken is
 * refused (-2), never stored as a zero. */
#include "valgrind.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pb_spawn.h"
#include "term.h"

#define EXT_MAX_WRAP 32
/* A counted run of a GB loop holds, besides its iterations, GB's start of the loop once (its timer:
 * about 250 instructions, measured with GB 1.7.1): over 4 x 10^6 instructions that is under 7e-5 of the
 * per-op count, below the repetitions' tolerance (PB_VG_TOLERANCE) and far below a gate's 1 %.
 * GB chooses its iterations by time, so a shorter run is made longer (count_sample's longer). */
#define EXT_MIN_IR 4000000u

typedef struct ext_run {
    const pb_vg_opts *o;
    void *opts;                  /* the suite's options, rebuilt from o->args */
    char valgrind[1024];
    char dir[512];
    char out_opt[600], log_opt[600];   /* where a counted run's dumps and valgrind's messages go */
    char *wrap[EXT_MAX_WRAP];
    int runs;                    /* counted runs so far: each writes its own files */
    size_t cap;
} ext_run;

/* a refusal: e says why, bench exits 2 */
static int refuse(pb_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int refuse(pb_err *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    return -2;
}

/* the suite's options object, set from the words the CLI kept; NULL + e */
static void *suite_opts_of(const pb_vg_opts *o, pb_err *e)
{
    void *opts = pb_suite_opts_new(o->suite, e);
    for (int i = 0; opts && i < o->args.n; i++)
        if (pb_suite_set_opt(o->suite, opts, o->args.name[i], o->args.value[i], e) != 1) {
            if (!e->msg[0]) pb_errf(e, "--%s: not an option of suite %s", o->args.name[i], o->suite->name);
            pb_suite_opts_free(o->suite, opts);
            opts = NULL;
        }
    return opts;
}

/* valgrind's view of CPUID: this bench under valgrind --tool=none, which prints it (--vg-cpuid) */
static int cpuid_under_valgrind(const ext_run *x, char *buf, size_t cap, pb_err *e)
{
    char exe[1024];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return pb_errf(e, "cannot find this program (/proc/self/exe): %s", strerror(errno));
    exe[n] = 0;
    char *argv[] = {(char *)x->valgrind, "-q", "--tool=none", exe, "run", "--suite", (char *)x->o->suite->name,
                    "--vg-cpuid", NULL};
    char *out = NULL;
    pb_proc p;
    pb_err se = {{0}};
    if (pb_spawn(argv, &out, 300, &p, &se) < 0) return pb_errf(e, "%s", se.msg);
    if (pb_proc_check("bench run --vg-cpuid under valgrind", &p, e) < 0) { free(out); return -1; }
    snprintf(buf, cap, "%.*s", (int)strcspn(out, "\n"), out);
    free(out);
    return 0;
}

/* the files of counted run `run` in x->dir: "rN.PID" (a final dump) and "rN.PID.K" (dump K) */
static int is_run_file(const char *name, int run, int *part)
{
    char pre[32];
    int len = snprintf(pre, sizeof pre, "r%d.", run);
    if (strncmp(name, pre, (size_t)len)) return 0;
    const char *dot = strchr(name + len, '.');
    *part = dot ? atoi(dot + 1) : 0;
    return 1;
}

static void add_counts(pb_vg_counts *a, const pb_vg_counts *b)
{
    uint64_t *pa = &a->ir;
    const uint64_t *pb = &b->ir;
    for (size_t i = 0; i < sizeof *a / sizeof a->ir; i++) pa[i] += pb[i];
}

/* The counts of run `run`: its last triggered dump (last_dump), or every file summed. Every file
 * read is removed. 0, -1 + e, or -2 + e: nothing was dumped (no symbol to trigger on). */
static int collect(const ext_run *x, int run, int last_dump, const char *prog, pb_vg_counts *out, int *ndumps,
                   pb_err *e)
{
    DIR *d = opendir(x->dir);
    if (!d) return pb_errf(e, "%s: %s", x->dir, strerror(errno));
    memset(out, 0, sizeof *out);
    *ndumps = 0;
    int best = 0, nfiles = 0, rc = 0;
    struct dirent *de;
    while (rc == 0 && (de = readdir(d))) {
        int part;
        if (!is_run_file(de->d_name, run, &part)) continue;
        char path[1100];
        snprintf(path, sizeof path, "%s/%s", x->dir, de->d_name);
        pb_cg_counts k;
        pb_vg_counts v;
        pb_err pe = {{0}};
        /* a process's final dump holds nothing of a GB loop (and is cut short where it exec'd a
         * program valgrind did not follow): only the triggered dumps are read */
        if (last_dump && part == 0) {
            unlink(path);
            continue;
        }
        if (pb_cg_parse_file(path, &k, &pe) < 0 || pb_vg_counts_of(&k, path, &v, &pe) < 0)
            rc = refuse(e, "cannot count %s: callgrind's output does not read: %s", prog, pe.msg);
        else if (!last_dump) { add_counts(out, &v); nfiles++; }
        else if (!strncmp(k.trigger, "--dump-before=", 14)) {
            ++*ndumps;
            if (part > best) { *out = v; best = part; nfiles = 1; }
        }
        unlink(path);
    }
    closedir(d);
    if (rc == 0 && nfiles == 0)
        return refuse(e, "cannot count %s: callgrind dumped nothing%s", prog,
                      last_dump ? " at the end of a Google Benchmark State loop (no symbol "
                                  "benchmark::State::FinishKeepRunning: a stripped static build, or not Google "
                                  "Benchmark)" : "");
    if (rc == 0 && out->ir == 0)
        return refuse(e, "cannot count %s: callgrind counted no instruction", prog);
    return rc;
}

/* What valgrind said of counted run `run` that explains a failure (its log files: an instruction
 * it cannot decode, the signal the program died of), as "; valgrind: ...", or "". */
static void valgrind_said(const ext_run *x, int run, char *buf, size_t cap)
{
    buf[0] = 0;
    char pre[32];
    int len = snprintf(pre, sizeof pre, "log%d.", run);
    DIR *d = opendir(x->dir);
    struct dirent *de;
    while (d && !buf[0] && (de = readdir(d))) {
        if (strncmp(de->d_name, pre, (size_t)len)) continue;
        char path[1100], line[512];
        snprintf(path, sizeof path, "%s/%s", x->dir, de->d_name);
        FILE *f = fopen(path, "r");
        while (f && !buf[0] && fgets(line, sizeof line, f)) {
            char *t = strstr(line, "== ");
            t = t ? t + 3 : line;
            t[strcspn(t, "\n")] = 0;
            if (strstr(t, "unhandled instruction") || strstr(t, "Process terminating") || strstr(t, "valgrind: "))
                snprintf(buf, cap, "; valgrind: %s", t);
        }
        if (f) fclose(f);
    }
    if (d) closedir(d);
}

/* One case: reps counted runs of its program. 0, -1 + e, -2 + e. */
static int count_case(ext_run *x, const pb_case *k, const char *prog, pb_vg_case *c, pb_err *e)
{
    const pb_suite *s = x->o->suite;
    int reps = x->o->reps > 0 && x->o->reps <= 4 ? x->o->reps : 1;
    for (int r = 0; r < reps; r++) {
        int64_t iters = 0;
        for (int longer = 0;; longer++) {
            int run = ++x->runs, ndumps = 0;
            snprintf(x->out_opt, sizeof x->out_opt, "--callgrind-out-file=%s/r%d.%%p", x->dir, run);
            snprintf(x->log_opt, sizeof x->log_opt, "--log-file=%s/log%d.%%p", x->dir, run);
            pb_err ce = {{0}};
            if (s->count_sample(k->ctx, x->wrap, longer, &iters, &ce) < 0) {
                char why[300];
                valgrind_said(x, run, why, sizeof why);
                return refuse(e, "cannot count %s under valgrind: %s%s", prog, ce.msg, why);
            }
            if (iters <= 0) return pb_errf(e, "%s: %s reported no iterations", s->name, prog);
            int got = collect(x, run, s->count_last_dump, prog, &c->rep[r], &ndumps, e);
            if (got < 0) return got;
            /* the program's first run is cold, and each run holds GB's own start of its loop once:
             * a run long enough to leave both out is asked for, up to 100x the given length */
            if (!s->count_last_dump || (ndumps > 1 && c->rep[r].ir >= EXT_MIN_IR) || longer == 2) break;
        }
        if (r == 0) c->iters = (uint64_t)iters;
        else if ((uint64_t)iters != c->iters) {
            /* gbench's iterations follow the clock: this run's counts as if it had run the first's */
            uint64_t *p = &c->rep[r].ir;
            for (size_t i = 0; i < sizeof c->rep[r] / sizeof *p; i++)
                p[i] = (uint64_t)((double)p[i] * (double)c->iters / (double)iters + 0.5);
        }
        c->reps = r + 1;
    }
    c->ok = 1;
    return 0;
}

/* impl of cell set up, counted and freed into c; unavailable is recorded as the runner records it */
static int count_impl(ext_run *x, const pb_cell *cell, const char *impl, pb_vg_case *c, pb_err *e)
{
    const pb_suite *s = x->o->suite;
    memset(c, 0, sizeof *c);
    snprintf(c->impl, PB_NAME_MAX, "%s", impl);
    snprintf(c->variant, PB_NAME_MAX, "%s", cell->variant);
    snprintf(c->op, PB_NAME_MAX, "%s", cell->op);
    c->size = cell->size_bytes;
    pb_case k = {0};
    pb_err ce = {{0}};
    pb_setup_status st = s->setup_case(x->opts, cell, impl, &k, &ce);
    if (st == PB_SETUP_ERROR) return pb_errf(e, "%s/%s %s: %s", s->name, impl, cell->variant, ce.msg);
    if (st == PB_SETUP_UNAVAILABLE) {
        snprintf(c->reason, sizeof c->reason, "%s", ce.msg[0] ? ce.msg : "unavailable");
        return 0;
    }
    char prog[600] = "";
    if (!pb_suite_user_object(s, x->opts, impl, prog, sizeof prog)) snprintf(prog, sizeof prog, "%s", impl);
    char what[700];
    snprintf(what, sizeof what, "%s (%s, %s)", prog, impl, cell->variant);
    if (x->o->progress) {
        char line[3 * PB_NAME_MAX + 64];
        snprintf(line, sizeof line, "bench: valgrind: %s %s %s", s->name, cell->variant, impl);
        pb_term_line(stderr, pb_term_width(), line);
    }
    int rc = count_case(x, &k, what, c, e);
    if (k.free_ctx) k.free_ctx(k.ctx);
    return rc;
}

/* every cell of g: its --setup, its impls counted, its --cleanup (suite.h cell_begin/cell_end) */
static int count_grid(ext_run *x, const pb_grid *g, pb_vg_result *r, pb_err *e)
{
    const pb_suite *s = x->o->suite;
    int rc = 0;
    for (int i = 0; i < g->ncells && rc == 0; i++) {
        const pb_cell *cell = &g->cells[i];
        if (s->cell_begin && s->cell_begin(x->opts, cell, e) < 0) return -2;
        for (int k = 0; k < cell->nimpls && rc == 0; k++) {
            if (r->n == x->cap) {
                pb_vg_case *nc = realloc(r->c, (x->cap = x->cap ? 2 * x->cap : 16) * sizeof *nc);
                if (!nc) { rc = pb_errf(e, "out of memory"); break; }
                r->c = nc;
            }
            rc = count_impl(x, cell, cell->impls[k], &r->c[r->n], e);
            if (rc == 0) r->n++;
        }
        pb_err ce = {{0}};
        if (s->cell_end && s->cell_end(x->opts, cell, &ce) != 0)
            fprintf(stderr, "bench: warning: %s\n", ce.msg);
    }
    return rc;
}

/* valgrind found, its version, its CPUID, the folder of the dumps and the options every counted
 * run has. 0, -1 + e, -2 + e. */
static int prepare(ext_run *x, pb_vg_result *r, pb_err *e)
{
    if (!pb_find_program("valgrind", x->valgrind, sizeof x->valgrind))
        return refuse(e, "cannot count the %s suite's programs: valgrind is not on PATH (Debian package "
                         "valgrind; scripts/setup.sh installs it)", x->o->suite->name);
    char version[128];
    int rc = pb_vg_version(x->valgrind, version, sizeof version, e);
    if (rc < 0) return rc;
    char cpu[512];
    if (cpuid_under_valgrind(x, cpu, sizeof cpu, e) < 0) return -1;
    snprintf(r->codepath, sizeof r->codepath, "under valgrind: cpuid: %s", cpu);
    pb_vg_cpu_features(cpu, sizeof cpu);
    snprintf(r->native, sizeof r->native, "natively: cpuid: %s", cpu);
    pb_vg_describe_hidden(r, 1);
    const char *tmp = getenv("TMPDIR");
    snprintf(x->dir, sizeof x->dir, "%s/pb-valgrind-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(x->dir)) return pb_errf(e, "cannot make a folder %s: %s", x->dir, strerror(errno));
    int a = 0;
    x->wrap[a++] = x->valgrind;
    for (int i = 0; pb_vg_tool_options[i]; i++) x->wrap[a++] = (char *)pb_vg_tool_options[i];
    for (int i = 0; x->o->suite->count_options && x->o->suite->count_options[i] && a < EXT_MAX_WRAP - 2; i++)
        x->wrap[a++] = (char *)x->o->suite->count_options[i];
    x->wrap[a++] = x->out_opt;
    x->wrap[a++] = x->log_opt;
    x->wrap[a] = NULL;
    snprintf(r->settings, sizeof r->settings,
             "%s callgrind, cache-sim I1 32768,8,64 D1 32768,8,64 LL 8388608,16,64 (fixed, not the host's), "
             "branch-sim; %s; %d run(s) of each program", version,
             x->o->suite->count_last_dump ? "per op: the last run of Google Benchmark's State loop (zeroed at its "
                                            "start, dumped at its end) over the iterations GB reports"
                                          : "per op: the whole process and what it starts, one run",
             x->o->reps > 0 ? x->o->reps : 1);
    return 0;
}

int pb_vg_measure_external(const pb_vg_opts *o, pb_vg_result *r, pb_err *e)
{
    memset(r, 0, sizeof *r);
    ext_run x = {.o = o};
    if (!(x.opts = suite_opts_of(o, e))) return -2;
    pb_runner_opts ro = {.suite = o->suite, .suite_opts = x.opts, .impls = o->impls, .sizes = o->sizes,
                         .quick = o->quick};
    pb_grid g = {0};
    /* a refusal of the plan (a binary that does not list its benchmarks) is the user's to fix */
    int rc = pb_runner_grid(&ro, &g, e) < 0 ? -2 : prepare(&x, r, e);
    if (rc == 0) rc = count_grid(&x, &g, r, e);
    if (rc == 0 && r->n == 0) rc = refuse(e, "%s: no case to count", o->suite->name);
    const char *b = NULL, *c = NULL;
    pb_suite_roles(o->suite, x.opts, &b, &c);
    snprintf(r->baseline, sizeof r->baseline, "%s", b ? b : "");
    snprintf(r->candidate, sizeof r->candidate, "%s", c ? c : "");
    const char *eff = pb_suite_effective_options(o->suite, x.opts);
    snprintf(r->suite_settings, sizeof r->suite_settings, "%s", eff ? eff : "");
    free(g.cells);
    if (x.dir[0]) pb_vg_remove_dir(x.dir);
    pb_suite_opts_free(o->suite, x.opts);
    if (rc < 0) {
        pb_vg_result_free(r);
        return rc;
    }
    return 0;
}
