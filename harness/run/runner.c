/* SPDX-License-Identifier: GPL-2.0-only */
/* runner.c — a run's life (runner.h pb_run): its context set up from the options, its start
 * (counters, store, pinning, the run's row and the user's files, all before the first sample), the
 * grid's passes (passes.c) with SIGINT and SIGTERM caught, and its finish: finalized with its
 * noise, or marked failed or incomplete; one cleanup path. The other concerns of the runner are in
 * the files runner_internal.h lists. */
#include "runner_internal.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "provenance.h"
#include "term.h"

/* The one piece of state shared by all runs: a signal handler can reach nothing else. */
static volatile sig_atomic_t g_signal;

static void on_signal(int sig) { g_signal = sig; }

int run_interrupted(void) { return g_signal != 0; }

/* The build-parity warnings (objects.h) on stderr: each in full unbounded, else the first one's first
 * sentence and how many more, in a line that fits (all of them are stored: runs.build_parity). */
static void say_parity(const char *parity, int width)
{
    if (width <= 0) {
        for (const char *p = parity; *p;) {
            size_t n = strcspn(p, "\n");
            fprintf(stderr, "bench: warning: build parity: %.*s\n", (int)n, p);
            p += n + (p[n] == '\n');
        }
        return;
    }
    char tail[64] = "see bench report";
    int more = 0;
    for (const char *p = strchr(parity, '\n'); p && p[1]; p = strchr(p + 1, '\n')) more++;
    if (more) snprintf(tail, sizeof tail, "%d more: see bench report", more);
    pb_term_warn(stderr, width, "bench: warning: build parity: ", parity, tail);
}

/* The user's files the run times and the build-parity warnings (objects.h), with the run: said on
 * stderr whatever --quiet says, since they qualify every ratio of the run. */
static int record_objects(run_ctx *rx, pb_err *e)
{
    const pb_objects *ob = &rx->objects;
    if (!ob->n) return 0;
    char rev[256], repo[1024];
    pb_objects_user_revision(ob, rx->o->suite->candidate, rx->o->user_revision, rev, sizeof rev, repo, sizeof repo);
    if (ob->parity[0]) say_parity(ob->parity, rx->o->width);
    if (pb_store_begin(&rx->st, e) < 0) return -1;
    int rc = pb_store_run_user(&rx->st, rx->run, rev, rx->o->user_label, repo, ob->parity, e);
    for (int i = 0; rc == 0 && i < ob->n; i++) rc = pb_store_add_object(&rx->st, rx->run, &ob->v[i], e);
    if (rc == 0) return pb_store_commit(&rx->st, e);
    pb_store_rollback(&rx->st);
    return -1;
}

/* The run's options as stored (runs.options): the cage, passes and boundary rounds only when not
 * the defaults, so that a default run's options read as before they existed. */
static void describe_options(const run_ctx *rx, char *opts, size_t cap)
{
    const pb_runner_opts *o = rx->o;
    char cage[64] = "";
    if (o->cage != PB_CAGE_USER || o->timeout_s > 0)
        snprintf(cage, sizeof cage, "cage=%s timeout=%g ",
                 o->cage == PB_CAGE_ALL ? "all" : o->cage == PB_CAGE_NONE ? "none" : "user", o->timeout_s);
    char passes[64] = "";
    int k = 0;
    if (rx->passes > 1) k = snprintf(passes, sizeof passes, "passes=%d ", rx->passes);
    if (rx->boundary_rounds && k >= 0)
        snprintf(passes + k, sizeof passes - (size_t)k, "boundary_rounds=%d ", rx->boundary_rounds);
    snprintf(opts, cap, "rounds=%d %ssample_s=%g quick=%d impls=%s sizes=%s %s%s", rx->rounds, passes, rx->sample_s,
             o->quick, o->impls ? o->impls : "all", o->sizes ? o->sizes : "grid", cage,
             o->options_text ? o->options_text : "");
}

/* The run's header on stderr (with --progress): its cells, rounds, layouts, passes, what a sample is
 * and what counts it; in one line unbounded, else in two or three that fit, the counters in short words (their
 * reasons in full are stored: runs.counter_source). */
static void announce_run(const run_ctx *rx, int ncells, const char *counter_desc)
{
    const pb_suite *s = rx->o->suite;
    if (!rx->o->progress) return;
    /* what a sample is: a process for gbench and exec (suite.h), else a loop of sample_s */
    char sample[300];
    if (s->sample_words) snprintf(sample, sizeof sample, "a sample is %s", s->sample_words);
    else snprintf(sample, sizeof sample, "%.2g ms samples", rx->sample_s * 1e3);
    /* where a cell's rounds are spread over the run, the header says so */
    char spread[64] = "";
    if (rx->passes > 1) snprintf(spread, sizeof spread, " over %d passes of the grid", rx->passes);
    char line[1024];
    int k = snprintf(line, sizeof line, "bench: run %lld, suite %s: %d cell%s, %d rounds", (long long)rx->run, s->name,
                     ncells, ncells == 1 ? "" : "s", rx->rounds);
    /* another program's rounds run in no layout of bench's (suite.h pb_suite_times_a_program) */
    if (k > 0 && !rx->lay.program)
        k += snprintf(line + k, sizeof line - (size_t)k, " in %d code layout%s", rx->lay.n, rx->lay.n == 1 ? "" : "s");
    int w = rx->o->width;
    if (w <= 0) {
        fprintf(stderr, "%s%s, %s; %s\n", line, spread, sample, counter_desc);
        return;
    }
    /* bounded: the passes and the sample on a line of their own where the first has no room */
    int one = pb_utf8_cols(line) + pb_utf8_cols(spread) + 2 + pb_utf8_cols(sample) <= (size_t)w;
    if (one && k > 0) snprintf(line + k, sizeof line - (size_t)k, "%s, %s", spread, sample);
    pb_term_line(stderr, w, line);
    if (!one) {
        if (spread[0]) snprintf(line, sizeof line, "  %s, %s", spread + 1, sample);
        else snprintf(line, sizeof line, "  %s", sample);
        pb_term_line(stderr, w, line);
    }
    pb_counters_brief(&rx->counters, line, sizeof line);
    pb_term_line(stderr, w, line);
}

/* Counters, store, pinning and the run's row, all before the first sample: 0, -2 (bad --counters, or a
 * store refused as it is, PB_STORE_REFUSED: nothing recorded) or -1 + e. What it opened is marked in rx
 * whatever it returns, for close_run. */
static int begin_run(run_ctx *rx, int cpu, int ncells, pb_err *e)
{
    const pb_runner_opts *o = rx->o;
    const pb_suite *s = o->suite;
    if (pb_counters_open(&rx->counters, o->counters, e) < 0) return -2;
    rx->counters_open = 1;
    rx->cyc = pb_counters_find(&rx->counters, "cycles");
    rx->ins = pb_counters_find(&rx->counters, "instructions");
    char counter_desc[1024];
    pb_counters_describe(&rx->counters, counter_desc, sizeof counter_desc);

    int opened = pb_store_open(&rx->st, o->db_path, e);
    if (opened < 0) return opened == PB_STORE_REFUSED ? -2 : -1;
    rx->store_open = 1;
    pb_provenance prov;
    pb_provenance_collect(&prov, s);
    unsigned metrics = s->metrics;
    if (rx->cyc < 0) metrics &= ~(unsigned)PB_M_CYCLES_PER_BYTE;  /* never fake a cycle count */
    if (rx->ins < 0) metrics &= ~(unsigned)PB_M_INSNS_PER_BYTE;
    if (!rx->counters.tsc_ok) metrics &= ~(unsigned)(PB_M_TSC_PER_BYTE | PB_M_EST_CYCLES_PER_BYTE);
    char opts[1536];
    const char *effective = pb_suite_effective_options(s, o->suite_opts);
    describe_options(rx, opts, sizeof opts);
    pb_run_info ri = {
        .suite = s->name, .target = "userspace", .command_line = o->command_line, .options = opts,
        .suite_settings = effective && *effective ? effective : NULL,
        .tick_source = rx->counters.tick_source, .counter_source = counter_desc, .tsc_hz = rx->counters.tsc_hz,
        .metrics = metrics, .baseline = s->baseline, .candidate = s->candidate,
        .primary_metric = pb_suite_primary_metric(s),
    };
    char layouts[1200];
    pb_layouts_describe(&rx->lay, layouts, sizeof layouts);
    ri.layouts = layouts;
    /* pinned before the first sample (and the counters' calibration), released after the last */
    pb_pin_apply(cpu, &rx->pin);
    ri.cpu_affinity = rx->pin.desc;
    ri.loadavg_start = rx->la_start = pb_loadavg();
    rx->waits.move = NAN;
    rx->run = pb_store_begin_run(&rx->st, &ri, &prov, e);
    if (rx->run < 0 || record_objects(rx, e) < 0) return -1;
    announce_run(rx, ncells, counter_desc);
    return 0;
}

/* The run's row as the cells left it (rc): incomplete after a signal, failed, or finalized with its noise.
 * Returns what pb_run does. */
static int end_run(run_ctx *rx, int rc, pb_err *e)
{
    pb_err e2 = {{0}};
    if (g_signal) {
        char why[64];
        snprintf(why, sizeof why, "interrupted by signal %d", (int)g_signal);
        pb_store_end_run(&rx->st, rx->run, "incomplete", why, &e2);
        pb_errf(e, "run %lld %s: left incomplete in %s", (long long)rx->run, why, rx->o->db_path);
        return 130;
    }
    /* finalized first: what a shared core did to the ratios (finalize.c) is part of the run's noise */
    char core[600] = "";
    if (rc < 0 ||
        pb_store_finalize_run_noted(&rx->st, rx->run, pb_suite_ratio_pairs(rx->o->suite, rx->o->suite_opts), core,
                                    sizeof core, run_interrupted, e) < 0 ||
        record_noise(rx, core, e) < 0) {
        if (g_signal) return end_run(rx, 0, e);   /* stopped while deriving the statistics: incomplete */
        pb_store_end_run(&rx->st, rx->run, "failed", e->msg, &e2);
        return rc == -2 ? -2 : -1;   /* -2: the suite refused the run (suite.h cell_begin) */
    }
    return 0;
}

/* The grid's passes (passes.c) and the run's end, SIGINT and SIGTERM caught so that an interrupted
 * run is still marked in the store. Returns what pb_run does. */
static int run_and_end(run_ctx *rx, const pb_grid *g, pb_err *e)
{
    const pb_runner_opts *o = rx->o;
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    g_signal = 0;

    rx->t0 = pb_now_ns();
    int ret = end_run(rx, run_grid(rx, g, e), e);
    if (ret == 0 && o->grid_s) *o->grid_s = (double)(pb_now_ns() - rx->t0) * 1e-9;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (o->progress && ret == 0) {
        char done[1200];
        snprintf(done, sizeof done, "bench: run %lld complete in %.1f s -> %s", (long long)rx->run,
                 (double)(pb_now_ns() - rx->t0) * 1e-9, o->db_path);
        pb_term_wrap(stderr, o->width, done);
    }
    return ret;
}

/* The one cleanup path of a run: what begin_run opened, however far it got. */
static void close_run(run_ctx *rx)
{
    pb_pin_restore(&rx->pin);
    pb_waits_files_close(&rx->wait_files);
    free(rx->probes.worst);
    if (rx->store_open) pb_store_close(&rx->st);
    if (rx->counters_open) pb_counters_close(&rx->counters);
}

/* Before anything is recorded: the user's files of the grid, identified; --revision and --label
 * refused for a run that times none. 0, or -1 + e. */
static int collect_objects(run_ctx *rx, const pb_grid *g, pb_err *e)
{
    const pb_runner_opts *o = rx->o;
    if (pb_objects_collect(o->suite, o->suite_opts, g, &rx->objects, e) < 0) return -1;
    if (rx->objects.n || (!o->user_revision && !o->user_label)) return 0;
    return pb_errf(e, "--%s: this run times no code of yours (no --old/--new program, --plugin or --gcrypt-lib "
                      "among its impls): there is no user's side to name",
                   o->user_revision ? "revision" : "label");
}

/* A sample that is a process (exec, gbench) and a suite's cell hooks (exec --setup) keep their
 * cells whole: the hooks bracket every pass, and a process's sample is long enough already; such
 * a suite's cells get neither passes nor boundary rounds. */
int suite_keeps_cells_whole(const pb_suite *s)
{
    return s->sample_words || s->cell_begin || s->cell_end;
}

int pb_default_passes(const pb_suite *s, int rounds)
{
    if (suite_keeps_cells_whole(s)) return 1;
    int p = rounds / PB_PASS_ROUNDS;
    return p < 1 ? 1 : p > PB_MAX_DEFAULT_PASSES ? PB_MAX_DEFAULT_PASSES : p;
}

/* The run's context from its options: its rounds, passes and sample length; 0, or -2 + e for more
 * passes than rounds. */
static int run_ctx_init(run_ctx *rx, const pb_runner_opts *o, pb_err *e)
{
    *rx = (run_ctx){
        .o = o,
        .rounds = o->rounds > 0 ? o->rounds : (o->quick ? PB_DEFAULT_ROUNDS_QUICK : PB_DEFAULT_ROUNDS),
        .passes = 1,
        .tprobe_min = INFINITY,
        .wait_files = PB_WAITS_FILES_INIT,
        .sample_s = o->sample_seconds > 0 ? o->sample_seconds : (o->quick ? 0.0005 : 0.002),
    };
    if (o->passes > rx->rounds) {
        pb_errf(e, "--passes %d: more passes than the %d rounds of a cell (a pass runs at least one)", o->passes,
                rx->rounds);
        return -2;
    }
    rx->passes = o->passes > 0 ? o->passes : pb_default_passes(o->suite, rx->rounds);
    return 0;
}

int pb_run(const pb_runner_opts *o, int64_t *run_id, pb_err *e)
{
    const pb_suite *s = o->suite;
    if (!s->plan || !s->setup_case) return pb_errf(e, "suite %s cannot run benchmarks yet", s->name);
    /* impls the user named (exec --cmd): the run's baseline and candidate are the options' (suite.h
     * roles), and everything below, from the progress line to the stored run, goes by them */
    pb_suite named = *s;
    pb_runner_opts named_opts = *o;
    pb_suite_roles(s, o->suite_opts, &named.baseline, &named.candidate);
    if (named.baseline != s->baseline || named.candidate != s->candidate) {
        named_opts.suite = &named;
        o = &named_opts;
    }
    run_ctx rx;
    int cpu;
    pb_grid g = {0, NULL};
    if (run_ctx_init(&rx, o, e) < 0 || pb_cpu_parse(o->cpu, &cpu, e) < 0 || pb_runner_grid(o, &g, e) < 0) return -2;

    int ret = -2;
    if (pb_layouts_begin(&rx.lay, o, rx.rounds, e) < 0 || collect_objects(&rx, &g, e) < 0) goto out;
    rx.makeup_passes = should_run_makeup_passes(&rx) ? PB_MAKEUP_PASSES : 0;
    ret = -1;
    if (boundary_layouts(&rx, e) < 0) goto out;
    ret = begin_run(&rx, cpu, g.ncells, e);
    if (ret == 0) {
        *run_id = rx.run;
        ret = run_and_end(&rx, &g, e);
    }
    if (o->failed_cases) *o->failed_cases = rx.failed_cases;
    close_run(&rx);
out:
    free(rx.boundary_layout);
    pb_layouts_end(&rx.lay);
    pb_objects_free(&rx.objects);
    free(g.cells);
    return ret;
}
