/* SPDX-License-Identifier: GPL-2.0-only */
#include "runner.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cage.h"
#include "fmt.h"
#include "calibrate.h"
#include "counters.h"
#include "gbshim.h"
#include "layout_stats.h"
#include "layouts.h"
#include "metrics.h"
#include "objects.h"
#include "provenance.h"
#include "runenv.h"
#include "stats.h"
#include "store.h"

/* The one piece of state shared by all runs: a signal handler can reach nothing else. */
static volatile sig_atomic_t g_signal;

static void on_signal(int sig) { g_signal = sig; }

/* samples of a run with a core-speed probe, and their probes' extremes: the fraction in the
 * fast core state, as pb_store_finalize_run classes them, for the noise warning */
typedef struct probes {
    long n;
    double min_probe;
    double *worst;
    size_t cap;
} probes;

static void note_probe(probes *p, double pb, double pa)
{
    if (pb <= 0 || pa <= 0) return;
    if ((size_t)p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 1024;
        double *w = realloc(p->worst, cap * sizeof *w);
        if (!w) return;
        p->worst = w;
        p->cap = cap;
    }
    double worst = pb > pa ? pb : pa;
    p->worst[p->n++] = worst;
    double best = pb < pa ? pb : pa;
    if (p->n == 1 || best < p->min_probe) p->min_probe = best;
}

static long fast_samples(const probes *p)
{
    long k = 0;
    for (long i = 0; i < p->n; i++)
        if (p->worst[i] <= PB_FAST_PROBE_FACTOR * p->min_probe) k++;
    return k;
}

/* one entry per (impl, layout): every layout is a copy of the code of its own, self-tested alone */
#define SELFTEST_CACHE 192
typedef struct selftest_cache {
    int n;
    const pb_suite *suite[SELFTEST_CACHE];
    char impl[SELFTEST_CACHE][PB_NAME_MAX];
    int ok[SELFTEST_CACHE];
    char why[SELFTEST_CACHE][PB_ERR_MAX];
} selftest_cache;

/* One pb_run's state, on pb_run's stack. Google Benchmark calls a benchmark back with the
 * argument it was registered with, not with a run: each slot points here instead. */
typedef struct run_ctx {
    const pb_runner_opts *o;
    int rounds;
    int passes;             /* each cell's rounds in this many passes over the grid (pb_runner_opts.passes) */
    long units_done;        /* cell-passes run so far: the progress line's ETA */
    double tprobe_min;      /* the fastest core-sharing probe so far (counters.h): the core alone */
    long makeup_rounds;     /* make-up rounds run (cell_makeup) */
    int makeup_passes;      /* PB_MAKEUP_PASSES, or 0: --quick, one pass, one layout (runner.h) */
    int boundary_rounds;    /* the rounds a cell near a verdict's boundary gets (0: none; runner.h) */
    int boundary_base;      /* the first of them: after the make-up rounds' room, on a block's start */
    int *boundary_layout;   /* boundary round boundary_base + j's code layout: boundary_layout[j] */
    long boundary_cells;    /* cells that got them */
    double sample_s;
    pb_counters counters;
    int cyc, ins;           /* indices of cycles and instructions in counters; -1: not counted */
    pb_store st;
    int counters_open, store_open;  /* what close_run has to close */
    pb_pin pin;
    int64_t run;
    double la_start;        /* load average before the first sample */
    uint64_t t0;            /* when the first cell started: the progress line's elapsed time and ETA */
    probes probes;
    /* the rounds that waited (cell_waits): how many of how many, and the largest ratio move
     * without them (NaN: none estimated yet) */
    struct {
        long rounds, waited;
        double move, r_all, r_without;
        char where[200];
    } waits;
    pb_run_layouts lay;
    selftest_cache sc;
    int failed_cases;       /* cases of caged code that failed (stored unavailable, with why) */
    pb_objects objects;     /* the user's files the run times, identified before the first sample */
} run_ctx;

typedef struct raw_sample {
    double tsc, cycles, insns, pb, pa;
    double tb, ta;          /* the core-sharing probe before and after it (counters.h) */
    pb_waits w0, w1;        /* before and after it (runenv.h) */
    double seeded_ns;       /* > 0: the case's seeded source gave the time (tests) */
    int external;           /* the case's external_sample gave iterations, ns and cpu_ns */
    int caged;              /* the case's cage timed it: ns, cpu_ns, tsc, probes and errors are its child's */
    int64_t ext_iters;
    double ext_ns, ext_cpu_ns;
    int ext_split;          /* the case's suite gave the user and system parts of ext_cpu_ns */
    double ext_user_ns, ext_sys_ns;
    uint64_t errors;
    int have;
    pb_sample s;
} raw_sample;

typedef struct slot {
    run_ctx *rx;
    struct case_state *cs;
    int round, position;
    int layout;             /* the round's code layout */
    int li;                 /* which of cs's cases runs it: the layout's, or 0 for an impl with one */
    size_t stack_offset;
    int nraw, capraw;
    raw_sample *raw;
} slot;

typedef struct case_state {
    char impl[PB_NAME_MAX];
    pb_case c[PB_MAX_LAYOUTS]; /* one per code layout (layouts.h), or c[0] alone */
    int nl;
    int nl_set;             /* nl as the first pass set it up (free_impl zeroes nl): what is stored */
    void *heap_spacer[PB_MAX_LAYOUTS];  /* held while the case lives: its allocations start further on */
    int ready;              /* set up successfully */
    char unavailable[PB_ERR_MAX + 32]; /* reason, when set up said so (or the cage's code failed) */
    uint64_t iters;
    const pb_suite *suite[PB_MAX_LAYOUTS]; /* whose code each case is (the layout's suite) */
    pb_cage cage;           /* pid != 0: the cases live in this child (cage.h), c[] here is unused */
    char failed[PB_ERR_MAX];/* what the caged code did wrong: its cases are dropped from the cell */
    char where[200];        /* "xts 256 enc 4096 B", for the cage's messages */
    double target;          /* the cell's sample length, s: the cage's default limit */
} case_state;

/* seconds of ops that warm a code layout's case before a pass's rounds (cell_pass) */
#define PB_WARM_S 0.25e-3

/* Iterations of a case with a seeded time source: the body does no timed work, so any count will do. */
#define SEEDED_ITERS 1000

/* A seeded case: its time, and ticks and probes consistent with it (TSC and core both at 3 GHz,
 * whatever this machine has; no hardware counters), so that every derived metric is a function
 * of the seed too. */
static void seeded_sample(raw_sample *rs, const pb_case *c, int round, int rep, uint64_t iters)
{
    double ns = c->seeded_ns(c->ctx, round, rep, iters);
    rs->seeded_ns = ns > 0 ? ns : 1;
    rs->tsc = rs->seeded_ns * 3.0;
    rs->pb = rs->pa = 1000.0;
    rs->tb = rs->ta = 1000.0;
    rs->cycles = rs->insns = -1;
}

/* The caged code failed: said now, on stderr, and its cases left out of the cell when it is
 * stored (run_cell), with why. */
static void cage_failed(case_state *cs, const char *why)
{
    if (cs->failed[0]) return;
    pb_cage_stop(&cs->cage);
    snprintf(cs->failed, sizeof cs->failed, "%s", why);
    fprintf(stderr, "bench: %s\n", why);
}

static double cage_sample_limit(const run_ctx *rx, const case_state *cs)
{
    double t = 10 * cs->target;
    return rx->o->timeout_s > 0 ? rx->o->timeout_s : t > PB_CAGE_MIN_LIMIT_S ? t : PB_CAGE_MIN_LIMIT_S;
}

/* One sample timed by the case's child, its output checked there after it. 0, or -1: the code
 * failed (cage_failed has said how). */
static int cage_sample(slot *sl, uint64_t n, raw_sample *rs)
{
    case_state *cs = sl->cs;
    if (cs->failed[0]) return -1;
    pb_cage_req q = {.op = PB_CAGE_SAMPLE, .li = sl->li, .iters = n, .stack_offset = sl->stack_offset};
    pb_cage_reply r;
    pb_err e = {{0}};
    char why[PB_ERR_MAX + 64];
    if (pb_cage_call(&cs->cage, &q, cage_sample_limit(sl->rx, cs), &r, &e) < 0) {
        snprintf(why, sizeof why, "%s: %s", cs->where, e.msg);
        cage_failed(cs, why);
        return -1;
    }
    if (r.status < 0) {
        snprintf(why, sizeof why, "%s: %s gave a wrong answer while timed (round %d): %s", cs->where, cs->cage.who,
                 sl->round, r.msg);
        cage_failed(cs, why);
        return -1;
    }
    rs->ext_ns = r.ns;
    rs->ext_cpu_ns = r.cpu_ns;
    rs->tsc = r.tsc;
    rs->pb = r.probe_before;
    rs->pa = r.probe_after;
    rs->tb = r.tprobe_before;
    rs->ta = r.tprobe_after;
    rs->w0 = r.w0;
    rs->w1 = r.w1;
    rs->errors = r.errors;
    rs->cycles = rs->insns = -1;   /* bench's counters count bench's thread, not the child's */
    return 0;
}

static void sample_fn(pb_gb_state *st, void *arg)
{
    slot *sl = arg;
    run_ctx *rx = sl->rx;
    if (g_signal) {
        pb_gb_skip_with_error(st, "interrupted");
        return;
    }
    if (sl->nraw == sl->capraw) {
        int cap = sl->capraw ? 2 * sl->capraw : 2;
        raw_sample *r = realloc(sl->raw, (size_t)cap * sizeof *r);
        if (!r) {
            pb_gb_skip_with_error(st, "out of memory");
            return;
        }
        sl->raw = r;
        sl->capraw = cap;
    }
    raw_sample *rs = &sl->raw[sl->nraw++];
    memset(rs, 0, sizeof *rs);
    case_state *cs = sl->cs;
    const pb_case *c = &cs->c[sl->li];
    uint64_t n = pb_gb_max_iterations(st);
    if (c->external_sample) {
        /* measured by another process (a program the lab did not write): GB's loop runs once,
         * around the call; a failure (it died, exited non-zero, ran past its limit) fails this
         * impl's case, as a caged one's does, not the run */
        int rc = -1, tried = 0;
        pb_err xe = {{0}};
        while (pb_gb_keep_running_batch(st, n))
            if (!tried++ && !cs->failed[0])
                rc = c->external_sample(c->ctx, &rs->ext_iters, &rs->ext_ns, &rs->ext_cpu_ns, &xe);
        if (rc < 0 && xe.msg[0]) {
            char why[PB_ERR_MAX + 64];
            snprintf(why, sizeof why, "%s, %s: %s", cs->where, cs->impl, xe.msg);
            cage_failed(cs, why);
        }
        if (rc < 0) pb_gb_skip_with_error(st, "external sample failed");
        rs->external = rc == 0 && rs->ext_iters > 0;
        const pb_suite *cs_suite = cs->suite[sl->li];
        if (rs->external && cs_suite && cs_suite->cpu_split)
            rs->ext_split = cs_suite->cpu_split(c->ctx, &rs->ext_user_ns, &rs->ext_sys_ns) == 1;
        return;
    }
    if (cs->cage.pid || cs->failed[0]) {
        /* timed by its child: GB's loop runs once, around the request */
        int ok = 0, tried = 0;
        while (pb_gb_keep_running_batch(st, n))
            if (!tried++) ok = cage_sample(sl, n, rs) == 0;
        if (!ok) pb_gb_skip_with_error(st, "caged code failed");
        rs->caged = ok;
        return;
    }
    uint64_t err0 = c->error_count ? *c->error_count : 0;
    /* the layout's stack offset: everything called below runs that much deeper (a volatile store, so
     * the allocation is made), taken before the probe and the counters so that they do not count it */
    if (sl->stack_offset) {
        volatile char *pad = __builtin_alloca(sl->stack_offset);
        pad[0] = 0;
    }
    rs->pb = pb_probe_ticks(&rx->counters);
    rs->tb = pb_tprobe_ticks(&rx->counters);
    pb_reading rd;
    /* the waits right around the timed loop (GB's timer runs within the while), not the probes */
    pb_waits_read(&rs->w0);
    pb_counters_start(&rx->counters, &rd);
    while (pb_gb_keep_running_batch(st, n)) c->body(c->ctx, n);
    pb_counters_stop(&rx->counters, &rd);
    pb_waits_read(&rs->w1);
    rs->pa = pb_probe_ticks(&rx->counters);
    rs->ta = pb_tprobe_ticks(&rx->counters);
    rs->tsc = (double)rd.tsc;
    rs->cycles = rx->cyc >= 0 ? (double)rd.hw[rx->cyc] : -1;
    rs->insns = rx->ins >= 0 ? (double)rd.hw[rx->ins] : -1;
    rs->errors = (c->error_count ? *c->error_count : 0) - err0;
    if (c->seeded_ns) seeded_sample(rs, c, sl->round, sl->nraw - 1, n);
}

/* The sample's waits (runenv.h): what its thread (bench's, or the cage's child's) read before and
 * after it; unknown (-1) for a seeded sample, one measured by another program, or an unreadable
 * file. Test-only: PB_TEST_WAITS=F makes every sample of rounds 1, 5, 9, ... wait F of its wall
 * time, so that the waits warning's path can be checked on seeded samples. */
static void sample_waits(pb_sample *s, const raw_sample *rs)
{
    s->wait_ns = s->steal_ns = -1;
    if (!rs->external && rs->seeded_ns <= 0) {
        if (rs->w0.run_delay_ns >= 0 && rs->w1.run_delay_ns >= rs->w0.run_delay_ns)
            s->wait_ns = rs->w1.run_delay_ns - rs->w0.run_delay_ns;
        if (rs->w0.steal_ns >= 0 && rs->w1.steal_ns >= rs->w0.steal_ns) s->steal_ns = rs->w1.steal_ns - rs->w0.steal_ns;
    }
    const char *t = getenv("PB_TEST_WAITS");
    if (t && *t) {
        char *end;
        double f = strtod(t, &end);
        if (end != t && !*end && f >= 0 && f <= 1) {
            s->wait_ns = s->round % 4 == 1 ? f * s->ns : 0;
            s->steal_ns = 0;
        }
    }
}

/* Test-only: PB_TEST_SHARED=F puts every sample of rounds 2, 6, 10, ... on a shared core: its
 * core-sharing probes read twice as long, and every impl but the run's baseline takes F times as long
 * there, so that the estimate on the core alone can be checked on seeded samples (finalize.c). */
static void sample_shared_test(const slot *sl, pb_sample *s)
{
    const char *t = getenv("PB_TEST_SHARED");
    if (!t || !*t || s->round % 4 != 2) return;
    char *end;
    double f = strtod(t, &end);
    if (end == t || *end || !(f > 0 && f <= 100)) return;
    s->tprobe_before *= 2;
    s->tprobe_after *= 2;
    if (strcmp(sl->cs->impl, sl->rx->o->suite->baseline)) {
        s->ns *= f;
        if (s->cpu_ns > 0) s->cpu_ns *= f;
        s->tsc *= f;
    }
}

static void result_cb(const pb_gb_result *r, void *user)
{
    (void)user;
    slot *sl = r->arg;
    if (!sl || r->is_aggregate) return;
    int rep = (int)r->repetition_index;
    if (rep < 0 || rep >= sl->nraw) return;
    raw_sample *rs = &sl->raw[rep];
    if (r->error) return;
    rs->have = 1;
    pb_sample *s = &rs->s;
    s->round = sl->round;
    s->position = sl->position;
    s->layout = sl->layout;
    s->repetition = rep;
    s->iterations = r->iterations;
    if (rs->external) {
        s->iterations = rs->ext_iters;
        s->ns = rs->ext_ns;
        s->cpu_ns = rs->ext_cpu_ns;
        s->has_cpu_split = rs->ext_split;
        s->user_ns = rs->ext_user_ns;
        s->sys_ns = rs->ext_sys_ns;
        s->tsc = 0;
        s->cycles = s->insns = -1;
        s->probe_before = s->probe_after = 0;
        s->tprobe_before = s->tprobe_after = 0;
        s->errors = 0;
    } else if (rs->caged) {
        s->ns = rs->ext_ns;
        s->cpu_ns = rs->ext_cpu_ns;
        s->tsc = sl->rx->counters.tsc_ok ? rs->tsc : 0;
        s->cycles = s->insns = -1;
        s->probe_before = rs->pb;
        s->probe_after = rs->pa;
        s->tprobe_before = rs->tb;
        s->tprobe_after = rs->ta;
        s->errors = rs->errors;
    } else {
        s->ns = rs->seeded_ns > 0 ? rs->seeded_ns : r->real_seconds * 1e9;
        s->cpu_ns = rs->seeded_ns > 0 ? rs->seeded_ns : r->cpu_seconds * 1e9;
        s->tsc = sl->rx->counters.tsc_ok ? rs->tsc : 0;
        s->cycles = rs->cycles;
        s->insns = rs->insns;
        s->probe_before = rs->pb;
        s->probe_after = rs->pa;
        s->tprobe_before = rs->tb;
        s->tprobe_after = rs->ta;
        s->errors = rs->errors;
    }
    sample_waits(s, rs);
    sample_shared_test(sl, s);
    run_ctx *rx = sl->rx;
    if (s->tprobe_before > 0 && s->tprobe_before < rx->tprobe_min) rx->tprobe_min = s->tprobe_before;
    if (s->tprobe_after > 0 && s->tprobe_after < rx->tprobe_min) rx->tprobe_min = s->tprobe_after;
}

int pb_parse_sizes(const char *list, uint64_t *out, int cap, pb_err *e)
{
    int n = 0;
    char buf[512];
    /* a cut copy would turn the last size into another one (4096 -> 40) */
    if (strlen(list) >= sizeof buf) return pb_errf(e, "--sizes is too long (at most %zu characters)", sizeof buf - 1);
    if (!*list) return pb_errf(e, "--sizes is empty");
    snprintf(buf, sizeof buf, "%s", list);
    const char *written[PB_MAX_SIZES];   /* each size as given, for a repeat's message */
    for (char *t = buf, *next; t; t = next) {
        /* cut by hand, not strtok: strtok would pass over an empty entry (",64" or "64,,512") */
        next = strchr(t, ',');
        if (next) *next++ = 0;
        if (!*t) return pb_errf(e, "--sizes '%s' has an empty entry (sizes are separated by single commas)", list);
        char *end;
        errno = 0;
        unsigned long long v = strtoull(t, &end, 10);
        /* check the range before scaling: 18014398509481985k would wrap to 1 KiB */
        if (!errno && (*end == 'k' || *end == 'K')) {
            if (v > PB_MAX_SIZE_BYTES / 1024) v = 0;
            else v *= 1024;
            end++;
        }
        if (errno || end == t || *end || v == 0 || v > PB_MAX_SIZE_BYTES || t[0] < '0' || t[0] > '9')
            return pb_errf(e, "bad size '%s' in --sizes (want positive byte counts like 64,512,4k)", t);
        /* one cell timed twice would be stored as one case with two samples per round */
        for (int i = 0; i < n; i++)
            if (out[i] == v)
                return pb_errf(e, "--sizes: %llu bytes given twice ('%s' and '%s'): each size is one cell",
                               (unsigned long long)v, written[i], t);
        if (n == cap || n == PB_MAX_SIZES) return pb_errf(e, "too many sizes in --sizes (at most %d)", cap);
        written[n] = t;
        out[n++] = v;
    }
    return n;
}

static int in_list(const char *list, const char *name)
{
    if (!list) return 1;
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        if (len == n && !strncmp(p, name, n)) return 1;
        if (!c) break;
        p = c + 1;
    }
    return 0;
}

/* do two cells share an impl? (then they are one template: the first one's impls) */
static int share_impl(const pb_cell *a, const pb_cell *b)
{
    for (int k = 0; k < a->nimpls; k++)
        for (int j = 0; j < b->nimpls; j++)
            if (!strcmp(a->impls[k], b->impls[j])) return 1;
    return 0;
}

/* Apply --impl and --sizes to the suite's grid; errors for names that match nothing. */
static int filter_grid(const pb_runner_opts *o, pb_grid *g, pb_err *e)
{
    if (o->impls) {
        char buf[512];
        if (strlen(o->impls) >= sizeof buf) return pb_errf(e, "--impl is too long (at most %zu characters)", sizeof buf - 1);
        /* strtok would pass over an empty entry: "--impl ''" or "old,,new" would quietly mean something */
        if (!*o->impls || o->impls[0] == ',' || o->impls[strlen(o->impls) - 1] == ',' || strstr(o->impls, ",,"))
            return pb_errf(e, "--impl '%s' has an empty entry (impls are separated by single commas)", o->impls);
        snprintf(buf, sizeof buf, "%s", o->impls);
        for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            int found = 0;
            for (int i = 0; i < g->ncells && !found; i++)
                for (int k = 0; k < g->cells[i].nimpls; k++)
                    if (!strcmp(g->cells[i].impls[k], t)) found = 1;
            if (!found) {
                char all[512] = "";
                size_t off = 0;
                for (int i = 0; i < g->ncells; i++)
                    for (int k = 0; k < g->cells[i].nimpls; k++)
                        if (!strstr(all, g->cells[i].impls[k]) && off < sizeof all)
                            off += (size_t)snprintf(all + off, sizeof all - off, "%s%s", off ? "," : "",
                                                    g->cells[i].impls[k]);
                return pb_errf(e, "--impl: unknown impl '%s' for suite %s (impls: %s)", t, o->suite->name, all);
            }
        }
        for (int i = 0; i < g->ncells; i++) {
            pb_cell *c = &g->cells[i];
            int k2 = 0;
            for (int k = 0; k < c->nimpls; k++)
                if (in_list(o->impls, c->impls[k])) memmove(c->impls[k2++], c->impls[k], PB_NAME_MAX);
            c->nimpls = k2;
        }
    }
    if (o->sizes) {
        uint64_t sizes[PB_MAX_SIZES];
        int ns = pb_parse_sizes(o->sizes, sizes, PB_MAX_SIZES, e);
        if (ns < 0) return -1;
        /* templates: the distinct (variant, op) cells of the grid, at each requested size; cells of one
         * (variant, op) with no impl in common are distinct templates (the gate's pairs of impls) */
        pb_cell *out = calloc((size_t)g->ncells * (size_t)ns + 1, sizeof *out);
        if (!out) return pb_errf(e, "out of memory");
        int n = 0;
        for (int i = 0; i < g->ncells; i++) {
            int dup = 0;
            for (int j = 0; j < i && !dup; j++)
                dup = !strcmp(g->cells[j].variant, g->cells[i].variant) && !strcmp(g->cells[j].op, g->cells[i].op) &&
                      share_impl(&g->cells[j], &g->cells[i]);
            if (dup) continue;
            for (int k = 0; k < ns; k++) {
                out[n] = g->cells[i];
                out[n].size_bytes = sizes[k];
                n++;
            }
        }
        free(g->cells);
        g->cells = out;
        g->ncells = n;
    }
    int k = 0;
    for (int i = 0; i < g->ncells; i++)
        if (g->cells[i].nimpls > 0) g->cells[k++] = g->cells[i];
    g->ncells = k;
    if (!k) return pb_errf(e, "no cell of suite %s matches the filters", o->suite->name);
    /* every size before anything is measured: a bad one must not leave a half-measured failed run */
    for (int i = 0; i < g->ncells; i++)
        if (pb_suite_check_size(o->suite, g->cells[i].size_bytes, e) < 0) return -1;
    return 0;
}

int pb_runner_grid(const pb_runner_opts *o, pb_grid *g, pb_err *e)
{
    pb_plan_opts po = {.quick = o->quick};
    g->ncells = 0;
    g->cells = NULL;
    if (o->suite->plan(o->suite_opts, &po, g, e) < 0) return -1;
    if (filter_grid(o, g, e) < 0) { free(g->cells); g->cells = NULL; return -1; }
    return 0;
}

/* Shortest of `reps` timings of case li's body(k), in s, here or in its cage (where a failure
 * marks the case failed and gives 1 s: calibration then stops, stop_requested). A single
 * timing (reps 1) is a warm-up. Shortest of three for calibrating: a preempted or slow-phase
 * timing would otherwise give one case far fewer iterations than its peers. */
static double run_body(run_ctx *rx, case_state *cs, int li, uint64_t k, int reps)
{
    if (cs->failed[0]) return 1;
    if (cs->cage.pid) {
        pb_cage_req q = {.op = PB_CAGE_TIME, .li = li, .iters = k, .reps = (uint64_t)reps};
        pb_cage_reply r;
        pb_err e = {{0}};
        double limit = rx->o->timeout_s > 0 ? rx->o->timeout_s : PB_CAGE_CALIBRATION_LIMIT_S;
        char why[PB_ERR_MAX + 64];
        if (pb_cage_call(&cs->cage, &q, limit * reps, &r, &e) < 0 || r.status < 0) {
            snprintf(why, sizeof why, "%s: %s", cs->where, e.msg[0] ? e.msg : r.msg);
            cage_failed(cs, why);
            return 1;
        }
        return r.ns * 1e-9;
    }
    double best = INFINITY;
    for (int i = 0; i < reps; i++) {
        uint64_t t0 = pb_now_ns();
        cs->c[li].body(cs->c[li].ctx, k);
        double dt = (double)(pb_now_ns() - t0) * 1e-9;
        if (dt < best) best = dt;
    }
    return best;
}

typedef struct calibrating {
    run_ctx *rx;
    case_state *cs;
} calibrating;

static double time_case(void *p, uint64_t k)
{
    calibrating *c = p;
    return run_body(c->rx, c->cs, 0, k, 3);
}

static int stop_requested(void *p)
{
    calibrating *c = p;
    return g_signal != 0 || c->cs->failed[0] != 0;
}

/* iterations so that one sample holds about `target` seconds of work (calibrate.h: a fixed cost
 * per call of the body is not taken for work) */
static uint64_t calibrate(run_ctx *rx, case_state *cs, const pb_cell *cell, double target)
{
    run_body(rx, cs, 0, 1, 1); /* warm caches, lazy init, page faults */
    calibrating cc = {rx, cs};
    pb_calibration cal = pb_calibrate(time_case, stop_requested, &cc, target);
    char where[3 * PB_NAME_MAX + 32];
    if (cal.fixed_dominates && !cs->failed[0])
        fprintf(stderr,
                "bench: warning: %s %s: a fixed cost per call of the body is still over a quarter of "
                "a %.2f s sample (%llu iterations); its time per op includes part of it\n",
                cs->impl, pb_fmt_cell(where, sizeof where, cell->variant, cell->op, cell->size_bytes),
                PB_CAL_MAX_SAMPLE_S, (unsigned long long)cal.iters);
    return cal.iters;
}

struct pb_iters_entry {
    char impl[PB_NAME_MAX], variant[PB_NAME_MAX], op[PB_NAME_MAX];
    uint64_t size;
    double target;
    uint64_t iters;
};

void pb_iters_memo_free(pb_iters_memo *m)
{
    free(m->v);
    memset(m, 0, sizeof *m);
}

/* the memo's iterations for this case and sample length, else a calibration (remembered) */
static uint64_t memo_iters(run_ctx *rx, pb_iters_memo *m, const char *impl, const pb_cell *cell, double target,
                           case_state *cs)
{
    for (size_t i = 0; m && i < m->n; i++) {
        const struct pb_iters_entry *x = &m->v[i];
        if (x->size == cell->size_bytes && x->target == target && !strcmp(x->impl, impl) &&
            !strcmp(x->variant, cell->variant) && !strcmp(x->op, cell->op)) {
            run_body(rx, cs, 0, 1, 1);   /* the warm-up calibrate() would have done */
            return x->iters;
        }
    }
    uint64_t iters = calibrate(rx, cs, cell, target);
    if (cs->failed[0]) return iters;   /* nothing to remember of code that failed */
    if (m && m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 256;
        struct pb_iters_entry *nv = realloc(m->v, cap * sizeof *nv);
        if (!nv) return iters;   /* no memo: the next run calibrates again */
        m->v = nv;
        m->cap = cap;
    }
    if (m) {
        struct pb_iters_entry *x = &m->v[m->n++];
        memset(x, 0, sizeof *x);
        snprintf(x->impl, sizeof x->impl, "%s", impl);
        snprintf(x->variant, sizeof x->variant, "%s", cell->variant);
        snprintf(x->op, sizeof x->op, "%s", cell->op);
        x->size = cell->size_bytes;
        x->target = target;
        x->iters = iters;
    }
    return iters;
}

/* impl i's first sample of each round (skip[r] set: not round r), keyed by its round, into out:
 * paired as the store pairs them. Returns how many. */
static size_t keyed_of(const slot *slots, int rounds, int ncs, int i, const char *skip, pb_keyed_layout *out)
{
    size_t n = 0;
    for (int r = 0; r < rounds; r++) {
        const slot *a = &slots[r * ncs + i];
        if (a->nraw && a->raw[0].have && !(skip && skip[r]))
            out[n++] = (pb_keyed_layout){{r, 0}, a->raw[0].s.ns / (double)a->raw[0].s.iterations, a->layout};
    }
    return n;
}

/* the headline ratio of impl c against impl b over the rounds not skipped (across layouts when
 * there are several); 0, or -1 when it cannot be estimated */
static int slot_ratio(const slot *slots, int rounds, int ncs, int c, int b, const char *skip, double *ratio)
{
    pb_keyed_layout *kc = malloc((size_t)rounds * sizeof *kc), *kb = malloc((size_t)rounds * sizeof *kb);
    int rc = -1;
    if (kc && kb) {
        size_t nc = keyed_of(slots, rounds, ncs, c, skip, kc), nb = keyed_of(slots, rounds, ncs, b, skip, kb);
        pb_paired pr;
        pb_layout_ratio lr;
        int across = 0;
        if (pb_paired_ratio_by_layout(kc, nc, kb, nb, 0, 0.95, &pr, &lr, &across) == 0) {
            *ratio = across ? lr.estimate : pr.estimate;
            rc = 0;
        }
    }
    free(kc);
    free(kb);
    return rc;
}

/* a sample whose thread waited (runenv.h PB_WAIT_FRACTION); 0 when unknown */
static int sample_waited(const pb_sample *s)
{
    if (s->wait_ns < 0 && s->steal_ns < 0) return 0;
    double w = (s->wait_ns > 0 ? s->wait_ns : 0) + (s->steal_ns > 0 ? s->steal_ns : 0);
    return w > PB_WAIT_FRACTION * s->ns;
}

/* The cell's rounds that waited (one of its samples did), counted into rx->waits, and how far each
 * impl's ratio against the baseline moves without them: the largest move of the run is kept. */
static void cell_waits(run_ctx *rx, const pb_cell *cell, const case_state *cs, int ncs, const slot *slots, int rounds)
{
    int waited = 0, measured = 0, bi = -1;
    char *skip = calloc((size_t)rounds + 1, 1);
    if (!skip) return;
    for (int r = 0; r < rounds; r++) {
        int any = 0;
        for (int i = 0; i < ncs; i++) {
            const slot *sl = &slots[r * ncs + i];
            if (!cs[i].ready) continue;
            for (int k = 0; k < sl->nraw; k++)
                if (sl->raw[k].have) {
                    any = 1;
                    if (sample_waited(&sl->raw[k].s)) skip[r] = 1;
                }
        }
        measured += any;
        waited += skip[r];
    }
    rx->waits.rounds += measured;
    rx->waits.waited += waited;
    for (int i = 0; i < ncs; i++)
        if (cs[i].ready && !strcmp(cs[i].impl, rx->o->suite->baseline)) bi = i;
    for (int i = 0; waited && bi >= 0 && i < ncs; i++) {
        double all, without;
        if (i == bi || !cs[i].ready || slot_ratio(slots, rounds, ncs, i, bi, NULL, &all) < 0) continue;
        if (slot_ratio(slots, rounds, ncs, i, bi, skip, &without) < 0) continue;
        double move = fabs(without / all - 1);
        if (!(move <= rx->waits.move)) {
            rx->waits.move = move;
            rx->waits.r_all = all;
            rx->waits.r_without = without;
            snprintf(rx->waits.where, sizeof rx->waits.where, "%s/%s %s %s %llu B", cs[i].impl, cs[bi].impl,
                     cell->variant, cell->op, (unsigned long long)cell->size_bytes);
        }
    }
    free(skip);
}

static void progress_line(const run_ctx *rx, int idx, int n, const pb_cell *cell, case_state *cs, int ncs,
                          slot *slots, int rounds)
{
    const pb_runner_opts *o = rx->o;
    /* the ETA assumes the cell-passes left take as long as the mean cell-pass so far (the cells are
     * shown as their last pass stores them) */
    double elapsed = (double)(pb_now_ns() - rx->t0) * 1e-9;
    long total = (long)rx->passes * n, done = rx->units_done > 0 ? rx->units_done : 1;
    fprintf(stderr, "[%d/%d %.0f s, ETA %.0f s] ", idx + 1, n, elapsed, elapsed / (double)done * (double)(total - done));
    char where[3 * PB_NAME_MAX + 32];
    fprintf(stderr, "%s %s:", o->suite->name, pb_fmt_cell(where, sizeof where, cell->variant, cell->op, cell->size_bytes));
    int bi = -1, ci = -1;
    for (int i = 0; i < ncs; i++) {
        if (!strcmp(cs[i].impl, o->suite->baseline)) bi = i;
        if (!strcmp(cs[i].impl, o->suite->candidate)) ci = i;
        if (!cs[i].ready) { fprintf(stderr, " %s %s", cs[i].impl, cs[i].failed[0] ? "failed" : "unavailable"); continue; }
        double v[4096];
        int k = 0;
        for (int r = 0; r < rounds && k < 4096; r++) {
            slot *sl = &slots[r * ncs + i];
            if (sl->nraw && sl->raw[0].have) v[k++] = sl->raw[0].s.ns / (double)sl->raw[0].s.iterations;
        }
        char t[32];
        fprintf(stderr, " %s %s", cs[i].impl, pb_fmt_ns(t, sizeof t, pb_median(v, (size_t)k)));
    }
    if (bi >= 0 && ci >= 0 && cs[bi].ready && cs[ci].ready) {
        pb_keyed_layout *kc = malloc((size_t)rounds * sizeof *kc), *kb = malloc((size_t)rounds * sizeof *kb);
        size_t nc = kc && kb ? keyed_of(slots, rounds, ncs, ci, NULL, kc) : 0;
        size_t nb = kc && kb ? keyed_of(slots, rounds, ncs, bi, NULL, kb) : 0;
        pb_paired pr;
        pb_layout_ratio lr;
        int across = 0;
        int prc = kc && kb ? pb_paired_ratio_by_layout(kc, nc, kb, nb, 0, 0.95, &pr, &lr, &across) : -2;
        if (prc == 0 && across)
            fprintf(stderr, "  time %s/%s %.3f [%.3f, %.3f] across %d layouts (%.3f to %.3f)", o->suite->candidate,
                    o->suite->baseline, lr.estimate, lr.ci_lo, lr.ci_hi, lr.nlayouts, lr.lo, lr.hi);
        else if (prc == 0)
            fprintf(stderr, "  time %s/%s %.3f [%.3f, %.3f]", o->suite->candidate, o->suite->baseline, pr.estimate,
                    pr.ci_lo, pr.ci_hi);
        free(kc);
        free(kb);
    }
    fputc('\n', stderr);
}

static int selftest_once(const pb_suite *s, const void *suite_opts, selftest_cache *sc, const char *impl, pb_err *e)
{
    for (int i = 0; i < sc->n; i++)
        if (sc->suite[i] == s && !strcmp(sc->impl[i], impl)) return sc->ok[i] ? 0 : pb_errf(e, "%s", sc->why[i]);
    pb_err te = {{0}};
    int ok = pb_suite_selftest(s, suite_opts, impl, &te) == 0;
    if (sc->n < SELFTEST_CACHE) {
        sc->suite[sc->n] = s;
        snprintf(sc->impl[sc->n], PB_NAME_MAX, "%s", impl);
        sc->ok[sc->n] = ok;
        snprintf(sc->why[sc->n], PB_ERR_MAX, "refusing to time %s/%s: it failed its known-answer self-test: %.400s",
                 s->name, impl, te.msg);
        sc->n++;
    }
    return ok ? 0 : pb_errf(e, "refusing to time %s/%s: it failed its known-answer self-test: %.400s", s->name, impl,
                            te.msg);
}

/* Free what set_up_impl set up of cs (in its cage: the child frees them as it quits). */
static void free_impl(case_state *cs)
{
    if (cs->cage.pid) {
        pb_cage_stop(&cs->cage);
        cs->nl = 0;
        return;
    }
    for (int l = 0; l < cs->nl; l++) {
        if (cs->c[l].free_ctx) cs->c[l].free_ctx(cs->c[l].ctx);
        free(cs->heap_spacer[l]);
    }
    cs->nl = 0;
}

/* One case of impl per code layout when every layout has it, else one from the run's own suite:
 * each self-tested first (every layout is a copy of the code of its own), each set up behind its
 * layout's heap offset. 0 (set up, or marked unavailable) or -1 + e. */
static int set_up_here(run_ctx *rx, const pb_cell *cell, case_state *cs, pb_err *e)
{
    const pb_runner_opts *o = rx->o;
    const pb_run_layouts *L = &rx->lay;
    int all = L->n > 1;
    for (int l = 0; l < L->n && all; l++) all = pb_layouts_has(L, l, cell, cs->impl);
    int nl = all ? L->n : 1;
    for (int l = 0; l < nl; l++) {
        const pb_suite *s = all ? L->set->v[l].suite : o->suite;
        void *so = all ? L->set->v[l].opts : o->suite_opts;
        if (selftest_once(s, so, &rx->sc, cs->impl, e) < 0) {
            free_impl(cs);
            return -1;
        }
        size_t spacer = all ? pb_layouts_heap_offset(L, l, cs->impl) : 0;
        if (spacer && !(cs->heap_spacer[l] = malloc(spacer))) {
            free_impl(cs);
            return pb_errf(e, "out of memory");
        }
        pb_err se = {{0}};
        cs->suite[l] = s;
        pb_setup_status st = s->setup_case(so, cell, cs->impl, &cs->c[l], &se);
        if (st != PB_SETUP_OK) free(cs->heap_spacer[l]);
        if (st == PB_SETUP_UNAVAILABLE) {
            free_impl(cs);
            snprintf(cs->unavailable, sizeof cs->unavailable, "unavailable: %s", se.msg);
            return 0;
        }
        if (st != PB_SETUP_OK) {
            free_impl(cs);
            char where[3 * PB_NAME_MAX + 32];
            return pb_errf(e, "%s %s, impl %s%s: set-up failed: %s", o->suite->name,
                           pb_fmt_cell(where, sizeof where, cell->variant, cell->op, cell->size_bytes), cs->impl,
                           all ? " (a code layout)" : "", se.msg);
        }
        cs->nl = l + 1;
    }
    cs->ready = 1;
    return 0;
}

/* The child of a caged impl: set_up_here there, then each request of the runner (cage.h). */
typedef struct cage_server_ctx {
    run_ctx *rx;
    const pb_cell *cell;
    case_state *cs;
    pb_counters tsc_only;   /* bench's counters without its hardware events: those count bench's thread */
} cage_server_ctx;

static void cage_set_up(void *p, pb_cage_reply *r)
{
    cage_server_ctx *x = p;
    pb_err e = {{0}};
    if (set_up_here(x->rx, x->cell, x->cs, &e) < 0) {
        r->status = -1;
        snprintf(r->msg, sizeof r->msg, "%s", e.msg);
    } else if (!x->cs->ready) {
        r->unavailable = 1;
        snprintf(r->msg, sizeof r->msg, "%s", x->cs->unavailable);
    } else if (x->cs->c[0].external_sample || x->cs->c[0].seeded_ns) {
        r->unavailable = 2;   /* measured outside bench, or seeded: nothing to cage */
    }
    r->nl = x->cs->nl;
}

static void cage_serve(void *p, const pb_cage_req *q, pb_cage_reply *r)
{
    cage_server_ctx *x = p;
    case_state *cs = x->cs;
    if (q->li < 0 || q->li >= cs->nl || !q->iters || (q->op == PB_CAGE_TIME && !q->reps) ||
        (q->op != PB_CAGE_TIME && q->op != PB_CAGE_SAMPLE)) {
        r->status = -1;
        snprintf(r->msg, sizeof r->msg, "bad request %d to the cage", q->op);
        return;
    }
    if (q->op == PB_CAGE_TIME) {
        r->ns = run_body(x->rx, cs, q->li, q->iters, (int)q->reps) * 1e9;
        return;
    }
    pb_case *c = &cs->c[q->li];
    uint64_t err0 = c->error_count ? *c->error_count : 0;
    /* as sample_fn does in-process: the layout's stack offset, the probes, the clocks */
    if (q->stack_offset) {
        volatile char *pad = __builtin_alloca(q->stack_offset);
        pad[0] = 0;
    }
    pb_waits w0, w1;
    r->probe_before = pb_probe_ticks(&x->tsc_only);
    r->tprobe_before = pb_tprobe_ticks(&x->tsc_only);
    pb_waits_read(&w0);
    struct timespec c0, c1;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
    pb_reading rd;
    uint64_t t0 = pb_now_ns();
    pb_counters_start(&x->tsc_only, &rd);
    c->body(c->ctx, q->iters);
    pb_counters_stop(&x->tsc_only, &rd);
    uint64_t t1 = pb_now_ns();
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
    pb_waits_read(&w1);
    r->probe_after = pb_probe_ticks(&x->tsc_only);
    r->tprobe_after = pb_tprobe_ticks(&x->tsc_only);
    r->w0 = w0;
    r->w1 = w1;
    r->ns = (double)(t1 - t0);
    r->cpu_ns = (double)(c1.tv_sec - c0.tv_sec) * 1e9 + (double)(c1.tv_nsec - c0.tv_nsec);
    r->tsc = (double)rd.tsc;
    r->errors = (c->error_count ? *c->error_count : 0) - err0;
    pb_err e = {{0}};
    if (pb_suite_check_output(cs->suite[q->li], c->ctx, &e) < 0) {
        r->status = -1;
        snprintf(r->msg, sizeof r->msg, "%s", e.msg);
    }
}

static void cage_quit(void *p)
{
    cage_server_ctx *x = p;
    free_impl(x->cs);
}

/* Is impl set up and timed in a cage (pb_runner_opts.cage)? 1 or 0 */
static int impl_caged(const run_ctx *rx, const char *impl)
{
    const pb_runner_opts *o = rx->o;
    char who[300];
    int user = pb_suite_user_code(o->suite, o->suite_opts, impl, who, sizeof who) == 1;
    return !(o->cage == PB_CAGE_NONE || (o->cage == PB_CAGE_USER && !user));
}

/* The impl's cases set up here, or in a cage of their own when they are code the lab did not
 * write (or --cage all): 0 (set up, or marked unavailable, or failed in its cage: cs->failed) or
 * -1 + e (the lab's own set-up failed: the run fails). */
static int set_up_impl(run_ctx *rx, const pb_cell *cell, case_state *cs, pb_err *e)
{
    const pb_runner_opts *o = rx->o;
    char who[300];
    int user = pb_suite_user_code(o->suite, o->suite_opts, cs->impl, who, sizeof who) == 1;
    if (!impl_caged(rx, cs->impl)) return set_up_here(rx, cell, cs, e);
    if (!user || !who[0]) snprintf(who, sizeof who, "%s %s", o->suite->name, cs->impl);
    cage_server_ctx x = {rx, cell, cs, rx->counters};
    x.tsc_only.nhw = 0;
    pb_cage_server srv = {&x, cage_set_up, cage_serve, cage_quit};
    pb_cage_reply r;
    pb_err ce = {{0}};
    /* a --timeout above the set-up's own limit raises it (as the refusal says): a sanitizer build on
     * a loaded VM once set a good plug-in up in over 60 s; a smaller one, meant for the samples,
     * does not cut an honest set-up short */
    double setup_limit = o->timeout_s > PB_CAGE_SETUP_LIMIT_S ? o->timeout_s : PB_CAGE_SETUP_LIMIT_S;
    if (pb_cage_start(&cs->cage, who, &srv, setup_limit, &r, &ce) < 0) {
        char why[PB_ERR_MAX + 64];
        snprintf(why, sizeof why, "%s: %s", cs->where, ce.msg);
        cage_failed(cs, why);
        return 0;
    }
    if (r.unavailable == 2) {   /* nothing to cage: here, then */
        pb_cage_stop(&cs->cage);
        return set_up_here(rx, cell, cs, e);
    }
    if (r.status < 0) {
        if (!user) return pb_errf(e, "%s", r.msg);   /* the lab's own set-up failed, as it would here */
        char why[PB_ERR_MAX + 64];
        snprintf(why, sizeof why, "%s: %s", cs->where, r.msg);
        cage_failed(cs, why);
        return 0;
    }
    if (r.unavailable) {
        snprintf(cs->unavailable, sizeof cs->unavailable, "%s", r.msg);
        return 0;
    }
    cs->nl = r.nl;
    cs->ready = 1;
    return 0;
}

/* One cell through the run's passes: what its impls' set-up found (unavailable, failed) and the
 * iterations of their samples, found in the first pass, and every round's slot, kept from its first
 * pass to its last, when the cell is stored whole. */
typedef struct cell_run {
    const pb_cell *cell;
    case_state *cs;
    int ncs;
    int cap_rounds;         /* the run's rounds and room for the make-up rounds: slots[cap_rounds * ncs] */
    int nmakeup;            /* make-up rounds run so far: rounds rx->rounds .. rx->rounds + nmakeup - 1 */
    int *layout_of;         /* each round's code layout */
    slot *slots;
    double target;
} cell_run;

static int cell_run_init(run_ctx *rx, cell_run *cr, const pb_cell *cell, pb_err *e)
{
    const pb_suite *s = rx->o->suite;
    cr->cell = cell;
    cr->ncs = cell->nimpls;
    cr->target = cell->sample_seconds > 0 ? cell->sample_seconds : rx->sample_s;
    cr->cs = calloc(PB_MAX_IMPLS, sizeof *cr->cs);
    cr->cap_rounds = rx->boundary_rounds ? rx->boundary_base + rx->boundary_rounds
                                         : rx->rounds + rx->makeup_passes * rx->lay.n;
    cr->slots = calloc((size_t)(unsigned)cr->cap_rounds * (size_t)(unsigned)cr->ncs, sizeof *cr->slots);
    cr->layout_of = calloc((size_t)(unsigned)cr->cap_rounds, sizeof *cr->layout_of);
    if (!cr->cs || !cr->slots || !cr->layout_of) return pb_errf(e, "out of memory");
    for (int r = 0; r < rx->rounds; r++) cr->layout_of[r] = rx->lay.of_round[r];
    for (int j = 0; j < rx->boundary_rounds; j++) cr->layout_of[rx->boundary_base + j] = rx->boundary_layout[j];
    for (int i = 0; i < cr->ncs; i++) {
        case_state *c = &cr->cs[i];
        snprintf(c->impl, sizeof c->impl, "%s", cell->impls[i]);
        char where[3 * PB_NAME_MAX + 32];
        snprintf(c->where, sizeof c->where, "%s %s", s->name,
                 pb_fmt_cell(where, sizeof where, cell->variant, cell->op, cell->size_bytes));
        c->target = cr->target;
    }
    return 0;
}

static void cell_run_free(cell_run *cr)
{
    for (int i = 0; i < cr->cap_rounds * cr->ncs && cr->slots; i++) free(cr->slots[i].raw);
    free(cr->slots);
    free(cr->layout_of);
    for (int i = 0; cr->cs && i < cr->ncs; i++) free_impl(&cr->cs[i]);
    free(cr->cs);
    memset(cr, 0, sizeof *cr);
}

/* Rounds rr[0..nrr) of a cell, one pass of it: the suite's cell hooks around it, its cases set up
 * anew (fresh allocations: where its buffers and contexts land is drawn again in every pass), the
 * first pass calibrating each impl's iterations and the later ones reusing them, every layout's
 * case warmed, the rounds run, the cases freed. An impl that was unavailable or failed in an
 * earlier pass stays out; one that turns unavailable in a later pass is out of the whole cell
 * (its samples are not stored). 0, -1 or -2 (the suite refused the cell) + e. */
static int cell_pass(run_ctx *rx, cell_run *cr, int first, const int *rr, int nrr, pb_err *e)
{
    const pb_runner_opts *o = rx->o;
    const pb_suite *s = o->suite;
    const pb_cell *cell = cr->cell;
    case_state *cs = cr->cs;
    int ncs = cr->ncs, rc = 0;
    /* the suite's per-cell set-up, on the run's own options: once per pass of the cell, whatever the layouts */
    pb_err he = {{0}};
    int begun = !s->cell_begin || s->cell_begin(o->suite_opts, cell, &he) == 0;
    if (!begun) {
        pb_errf(e, "%s %s %s %llu B: %s", s->name, cell->variant, cell->op, (unsigned long long)cell->size_bytes,
                he.msg);
        rc = -2;
    }
    /* the caged impls first: their cage is a fork of this process, and a fork taken while the
     * suite's own cases run threads (sigpool's workers) can inherit a lock one of them held; in the
     * sanitizer build the child's set-up then never ended (tests/sigpool/plugin_test.sh) */
    for (int caged = 1; caged >= 0; caged--)
        for (int i = 0; i < ncs && rc == 0; i++) {
            if (impl_caged(rx, cs[i].impl) != caged || (!first && (!cs[i].ready || cs[i].failed[0]))) continue;
            cs[i].ready = 0;
            rc = set_up_impl(rx, cell, &cs[i], e);
            if (rc == 0 && first && cs[i].ready) cs[i].nl_set = cs[i].nl;
        }
    for (int i = 0; i < ncs && rc == 0; i++) {
        if (!cs[i].ready || cs[i].failed[0]) continue;
        const pb_case *c0 = &cs[i].c[0];
        if (first)
            cs[i].iters = c0->external_sample ? 1 : c0->seeded_ns ? SEEDED_ITERS
                          : memo_iters(rx, o->iters_memo, cs[i].impl, cell, cr->target, &cs[i]);
        else if (!c0->external_sample && !c0->seeded_ns)
            run_body(rx, &cs[i], 0, 1, 1);   /* the warm-up the first pass's calibration did */
    }
    /* the other layouts' cases warmed, so that no layout's first round pays its page faults and cold
     * code alone: the ops of PB_WARM_S (an eighth of a default 2 ms sample; at least one op) touch
     * every page and line a sample does. A whole sample each, 15 of them per case with 16 layouts,
     * cost a quarter of a default run's time (sigpool: 117 s against 100 s with 8 layouts); an
     * eighth of sigpool's 10-15 ms samples still cost 12 of its 130 s on the Zen 5 VM
     * (2026-12-05), where make-up passes warmed 15 layouts for one round. So only the layouts
     * this pass's rounds run in, each for the same time whatever the sample length. */
    char used[PB_MAX_LAYOUTS] = {0};
    for (int k = 0; k < nrr; k++) used[cr->layout_of[rr[k]]] = 1;
    double share = cr->target > PB_WARM_S * 8 ? PB_WARM_S / cr->target : 1.0 / 8;
    for (int i = 0; i < ncs && rc == 0; i++) {
        uint64_t warm = (uint64_t)((double)cs[i].iters * share);
        for (int l = 1; cs[i].ready && !cs[i].c[0].external_sample && !cs[i].c[0].seeded_ns && l < cs[i].nl; l++)
            if (used[l]) run_body(rx, &cs[i], l, warm ? warm : 1, 1);
    }

    if (rc == 0) {
        pb_gb_clear();
        for (int k = 0; k < nrr && rc == 0; k++)
            for (int p = 0, r = rr[k]; p < ncs; p++) {
                int i = (p + r) % ncs; /* rotate the start every round */
                slot *sl = &cr->slots[r * ncs + i];
                sl->rx = rx;
                sl->cs = &cs[i];
                sl->round = r;
                sl->position = p;
                sl->layout = cr->layout_of[r];
                sl->li = cs[i].nl > 1 ? sl->layout : 0;
                sl->stack_offset = rx->lay.n > 1 ? rx->lay.stack_offset[sl->layout] : 0;
                if (!cs[i].ready || (!first && cs[i].failed[0])) continue;
                char name[256];
                snprintf(name, sizeof name, "%s/%s/%s/%llu/%s/round:%d", s->name, cell->variant, cell->op,
                         (unsigned long long)cell->size_bytes, cs[i].impl, r);
                if (pb_gb_register(name, sample_fn, sl, cs[i].iters) < 0) {
                    rc = pb_errf(e, "cannot register benchmark %s", name);
                    break;
                }
            }
        if (rc == 0 && pb_gb_run(result_cb, NULL, NULL) < 0)
            rc = pb_errf(e, "Google Benchmark failed in cell %s/%s/%llu (see above)", cell->variant, cell->op,
                         (unsigned long long)cell->size_bytes);
        pb_gb_clear();
    }
    /* the suite's per-cell clean-up, after the pass's last sample: a failure refuses the run and the
     * cell is not stored */
    if (begun && s->cell_end && s->cell_end(o->suite_opts, cell, &he) < 0 && rc == 0) {
        pb_errf(e, "%s %s %s %llu B: %s", s->name, cell->variant, cell->op, (unsigned long long)cell->size_bytes,
                he.msg);
        rc = -2;
    }
    for (int i = 0; i < ncs; i++) free_impl(&cs[i]);
    return rc;
}

/* Did sample s run on a shared core, by the run's fastest core-sharing probe so far (store.h)? */
static int on_shared_core(const run_ctx *rx, const pb_sample *s)
{
    return pb_shared_core(s->tprobe_before, s->tprobe_after, rx->tprobe_min);
}

/* The code layouts of a cell without a round on the core alone (every ready impl's sample of the
 * round on a core of its own), into missing[] (at most rx->lay.n); how many. finalize.c takes a
 * cell's ratio from the pairs on the core alone only where every layout keeps one. */
static int layouts_without_alone(const run_ctx *rx, const cell_run *cr, int *missing)
{
    int n = 0, ncs = cr->ncs;
    for (int l = 0; l < rx->lay.n; l++) {
        int found = 0, any = 0;
        for (int r = 0; r < rx->rounds + cr->nmakeup && !found; r++) {
            if (cr->layout_of[r] != l) continue;
            int alone = 1, seen = 0;
            for (int i = 0; i < ncs && alone; i++) {
                if (!cr->cs[i].ready || cr->cs[i].failed[0]) continue;
                const slot *sl = &cr->slots[r * ncs + i];
                for (int k = 0; k < sl->nraw && alone; k++)
                    if (sl->raw[k].have) {
                        seen = 1;
                        alone = !on_shared_core(rx, &sl->raw[k].s);
                    }
            }
            any |= seen;
            found = seen && alone;
        }
        if (any && !found) missing[n++] = l;
    }
    return n;
}

/* A make-up pass of a cell: one more round in each code layout that has none on the core alone
 * yet (rounds rx->rounds + nmakeup, ...), its cases set up anew. Every sample is kept: the make-up
 * rounds add to a cell, they replace nothing. 0 (nothing to make up, or made up) or as cell_pass. */
static int cell_makeup(run_ctx *rx, cell_run *cr, pb_err *e)
{
    int missing[PB_MAX_LAYOUTS], rr[PB_MAX_LAYOUTS];
    int n = layouts_without_alone(rx, cr, missing);
    if (n > cr->cap_rounds - rx->rounds - cr->nmakeup) n = cr->cap_rounds - rx->rounds - cr->nmakeup;
    if (n <= 0) return 0;
    for (int k = 0; k < n; k++) {
        rr[k] = rx->rounds + cr->nmakeup + k;
        cr->layout_of[rr[k]] = missing[k];
    }
    cr->nmakeup += n;
    rx->makeup_rounds += n;
    return cell_pass(rx, cr, 0, rr, n, e);
}

/* Test-only: PB_TEST_NEAR_ALL=1 puts every cell with a ratio on a boundary (nearness 0), so that the
 * boundary rounds of a suite with more impls than the two can be checked without depending on the
 * clock. */
static int near_all_test(void)
{
    const char *t = getenv("PB_TEST_NEAR_ALL");
    return t && !strcmp(t, "1");
}

/* impl's ready case in a cell, or -1 */
static int ready_case(const cell_run *cr, const char *impl)
{
    for (int i = 0; i < cr->ncs; i++)
        if (!strcmp(cr->cs[i].impl, impl)) return cr->cs[i].ready && !cr->cs[i].failed[0] ? i : -1;
    return -1;
}

/* The candidate against the baseline in every cell after the passes and make-up passes, as
 * finalize.c estimates a run's ratio (across layouts, two-way where the layouts allow, the two-way
 * variances moderated over the cells: pb_moderate_prior), on all the pairs so far; near[i] set for
 * the nearest cells by the caller's nearness, at most one in PB_BOUNDARY_SHARE of the run's (at
 * least one), ties in the grid's order. 0, or -2 when out of memory. */
static int find_near(run_ctx *rx, cell_run *crs, int n, char *near)
{
    const pb_runner_opts *o = rx->o;
    pb_layout_ratio *lr = calloc((size_t)n, sizeof *lr);
    pb_paired *pr = calloc((size_t)n, sizeof *pr);
    int *state = calloc((size_t)n, sizeof *state);   /* 0 none, 1 paired, 2 across layouts, 3 two-way */
    double *v = calloc((size_t)n, sizeof *v), *df = calloc((size_t)n, sizeof *df), *w = calloc((size_t)n, sizeof *w);
    int rc = lr && pr && state && v && df && w ? 0 : -2;
    for (int i = 0; i < n && rc == 0; i++) {
        cell_run *cr = &crs[i];
        int c = ready_case(cr, o->suite->candidate), b = ready_case(cr, o->suite->baseline);
        int upto = rx->rounds + cr->nmakeup;
        if (c < 0 || b < 0) continue;
        pb_keyed_layout *kc = malloc((size_t)upto * sizeof *kc), *kb = malloc((size_t)upto * sizeof *kb);
        if (!kc || !kb) rc = -2;
        int across = 0;
        if (rc == 0) {
            size_t nc = keyed_of(cr->slots, upto, cr->ncs, c, NULL, kc), nb = keyed_of(cr->slots, upto, cr->ncs, b, NULL, kb);
            int prc = pb_paired_ratio_by_layout(kc, nc, kb, nb, rx->lay.n, 0.95, &pr[i], &lr[i], &across);
            if (prc == -2) rc = -2;
            else if (prc == 0) state[i] = !across ? 1 : lr[i].blocks > 0 ? 3 : 2;
        }
        free(kc);
        free(kb);
    }
    size_t k = 0;
    for (int i = 0; i < n && rc == 0; i++)
        if (state[i] == 3) {
            v[k] = lr[i].se_log * lr[i].se_log;
            df[k++] = lr[i].df;
        }
    double d0, s0;
    if (rc == 0 && pb_moderate_prior(v, df, k, &d0, &s0) == 0)
        for (int i = 0; i < n; i++)
            if (state[i] == 3) pb_layout_moderate(&lr[i], d0, s0, (int)k, 0.95);
    for (int i = 0; i < n && rc == 0; i++) {
        w[i] = INFINITY;
        if (!state[i]) continue;
        double est = state[i] > 1 ? lr[i].estimate : pr[i].estimate, lo = state[i] > 1 ? lr[i].ci_lo : pr[i].ci_lo,
               hi = state[i] > 1 ? lr[i].ci_hi : pr[i].ci_hi;
        w[i] = near_all_test() ? 0 : o->nearness(o->near_ctx, crs[i].cell, est, lo, hi);
    }
    /* the nearest first: a cell that is not picked yet and nearer than every other not picked */
    int most = (n + PB_BOUNDARY_SHARE - 1) / PB_BOUNDARY_SHARE;
    for (int k = 0; k < most && rc == 0; k++) {
        int best = -1;
        for (int i = 0; i < n; i++)
            if (!near[i] && isfinite(w[i]) && (best < 0 || w[i] < w[best])) best = i;
        if (best < 0) break;
        near[best] = 1;
    }
    free(lr);
    free(pr);
    free(state);
    free(v);
    free(df);
    free(w);
    return rc;
}

/* Boundary rounds (runner.h; docs/layout.md, "Boundary rounds"): the cells find_near picks get
 * rx->boundary_rounds more rounds of every impl, as the run's own rounds (not the candidate and the
 * baseline alone: with nothing between them they measured another ratio, docs/layout.md), in passes
 * over those cells of as many rounds as the run's passes (each a block of every layout once). */
static int boundary_passes(run_ctx *rx, cell_run *crs, int n, pb_err *e)
{
    const pb_runner_opts *o = rx->o;
    int E = rx->boundary_rounds;
    char *near = calloc((size_t)(n > 0 ? n : 1), 1);
    int *rr = malloc((size_t)E * sizeof *rr);
    int rc = near && rr ? find_near(rx, crs, n, near) : -2;
    if (rc == -2) rc = pb_errf(e, "out of memory");
    for (int i = 0; i < n && rc == 0; i++) rx->boundary_cells += near[i];
    int passes = (int)((long long)rx->passes * E / rx->rounds);
    if (passes < 1) passes = 1;
    if (o->progress && rx->boundary_cells && rc == 0)
        fprintf(stderr, "bench: %ld cell%s near a verdict's boundary (%s/%s): %d more rounds each\n",
                rx->boundary_cells, rx->boundary_cells == 1 ? "" : "s", o->suite->candidate, o->suite->baseline, E);
    for (int p = 0; p < passes && rx->boundary_cells && rc == 0 && !g_signal; p++) {
        int r0 = (int)((long long)E * p / passes), r1 = (int)((long long)E * (p + 1) / passes);
        for (int r = r0; r < r1; r++) rr[r - r0] = rx->boundary_base + r;
        for (int i = 0; i < n && rc == 0 && !g_signal; i++)
            if (near[i]) rc = cell_pass(rx, &crs[i], 0, rr, r1 - r0, e);
    }
    free(near);
    free(rr);
    return rc;
}

/* The cell after its last pass, stored in one transaction: whole or not at all. idx: its place
 * among the run's ncells. */
static int cell_store(run_ctx *rx, cell_run *cr, int idx, int ncells, int show, pb_err *e)
{
    const pb_suite *s = rx->o->suite;
    const pb_cell *cell = cr->cell;
    case_state *cs = cr->cs;
    int ncs = cr->ncs, rounds = cr->cap_rounds, rc = 0;
    pb_store *st = &rx->st;
    if (pb_store_begin(st, e) < 0) rc = -1;
    for (int i = 0; i < ncs && rc == 0; i++) {
        /* caged code that failed: none of its samples, which it may have faked, and why */
        if (cs[i].failed[0]) {
            cs[i].ready = 0;
            snprintf(cs[i].unavailable, sizeof cs[i].unavailable, "failed: %s", cs[i].failed);
            rx->failed_cases++;
        }
        int64_t cid = pb_store_add_case(st, rx->run, s->name, cs[i].impl, cell->variant, cell->op, cell->size_bytes,
                                        cs[i].ready ? (int64_t)cs[i].iters : 0,
                                        cs[i].ready ? "ok" : "unavailable",
                                        cs[i].ready ? NULL : cs[i].unavailable, e);
        if (cid < 0) { rc = -1; break; }
        /* the layouts of its first pass's set-up: every pass sets up as many (layouts.h) */
        if (cs[i].ready && pb_store_case_layouts(st, cid, cs[i].nl_set, e) < 0) { rc = -1; break; }
        for (int r = 0; r < rounds && rc == 0 && cs[i].ready; r++) {
            slot *sl = &cr->slots[r * ncs + i];
            for (int k = 0; k < sl->nraw && rc == 0; k++)
                if (sl->raw[k].have) {
                    rc = pb_store_add_sample(st, cid, &sl->raw[k].s, e);
                    note_probe(&rx->probes, sl->raw[k].s.probe_before, sl->raw[k].s.probe_after);
                }
        }
    }
    if (rc == 0) rc = pb_store_commit(st, e);
    else pb_store_rollback(st);
    if (rc == 0) cell_waits(rx, cell, cs, ncs, cr->slots, rounds);
    if (rc == 0 && show) progress_line(rx, idx, ncells, cell, cs, ncs, cr->slots, rounds);
    return rc;
}

/* The load average at the end (a label) and the noise warnings (runenv.h): the core-speed probe's
 * and the rounds that waited; stored with the run and said on stderr, whatever --quiet says,
 * since they qualify every number of the run. */
static int record_noise(run_ctx *rx, const char *core, pb_err *e)
{
    double la_end = pb_loadavg();
    char noise[1400], probe[256], waits[400];
    pb_noise_text(fast_samples(&rx->probes), rx->probes.n, probe, sizeof probe);
    pb_waits_text(rx->waits.waited, rx->waits.rounds, rx->waits.move, rx->waits.where, rx->waits.r_all,
                  rx->waits.r_without, waits, sizeof waits);
    char makeup[160] = "";
    if (rx->makeup_rounds)
        snprintf(makeup, sizeof makeup, "; %ld make-up round%s in code layouts that had none on the core alone",
                 rx->makeup_rounds, rx->makeup_rounds == 1 ? "" : "s");
    snprintf(noise, sizeof noise, "%s%s%s%s%s%s", probe, probe[0] && waits[0] ? "; " : "", waits,
             (probe[0] || waits[0]) && core[0] ? "; " : "", core, core[0] ? makeup : "");
    if (noise[0]) fprintf(stderr, "bench: warning: run %lld was noisy: %s\n", (long long)rx->run, noise);
    return pb_store_run_noise(&rx->st, rx->run, la_end, noise, e);
}

/* The user's files the run times and the build-parity warnings (objects.h), with the run: said on
 * stderr whatever --quiet says, since they qualify every ratio of the run. */
static int record_objects(run_ctx *rx, pb_err *e)
{
    const pb_objects *ob = &rx->objects;
    if (!ob->n) return 0;
    char rev[256], repo[1024];
    pb_objects_user_revision(ob, rx->o->suite->candidate, rx->o->user_revision, rev, sizeof rev, repo, sizeof repo);
    for (const char *p = ob->parity; *p;) {
        size_t n = strcspn(p, "\n");
        fprintf(stderr, "bench: warning: build parity: %.*s\n", (int)n, p);
        p += n + (p[n] == '\n');
    }
    if (pb_store_begin(&rx->st, e) < 0) return -1;
    int rc = pb_store_run_user(&rx->st, rx->run, rev, rx->o->user_label, repo, ob->parity, e);
    for (int i = 0; rc == 0 && i < ob->n; i++) rc = pb_store_add_object(&rx->st, rx->run, &ob->v[i], e);
    if (rc == 0) return pb_store_commit(&rx->st, e);
    pb_store_rollback(&rx->st);
    return -1;
}

/* Counters, store, pinning and the run's row, all before the first sample: 0, -2 (bad --counters, or a
 * store refused as it is, PB_STORE_REFUSED: nothing recorded) or -1 + e. What it opened is marked in rx whatever it returns, for close_run. */
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
    /* the cage and its limit only when not the defaults: a default run's options read as before */
    char cage[64] = "";
    if (o->cage != PB_CAGE_USER || o->timeout_s > 0)
        snprintf(cage, sizeof cage, "cage=%s timeout=%g ",
                 o->cage == PB_CAGE_ALL ? "all" : o->cage == PB_CAGE_NONE ? "none" : "user", o->timeout_s);
    /* passes only when more than one: a run in one pass reads as before passes existed */
    char passes[64] = "";
    int k = 0;
    if (rx->passes > 1) k = snprintf(passes, sizeof passes, "passes=%d ", rx->passes);
    if (rx->boundary_rounds && k >= 0)
        snprintf(passes + k, sizeof passes - (size_t)k, "boundary_rounds=%d ", rx->boundary_rounds);
    snprintf(opts, sizeof opts, "rounds=%d %ssample_s=%g quick=%d impls=%s sizes=%s %s%s", rx->rounds, passes, rx->sample_s,
             o->quick, o->impls ? o->impls : "all", o->sizes ? o->sizes : "grid", cage,
             o->options_text ? o->options_text : "");
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
    /* what a sample is: a process for gbench and exec (suite.h), else a loop of sample_s */
    char sample[300];
    if (s->sample_words) snprintf(sample, sizeof sample, "a sample is %s", s->sample_words);
    else snprintf(sample, sizeof sample, "%.2g ms samples", rx->sample_s * 1e3);
    /* where a cell's rounds are spread over the run, the header says so */
    char spread[64] = "";
    if (rx->passes > 1) snprintf(spread, sizeof spread, " over %d passes of the grid", rx->passes);
    if (o->progress)
        fprintf(stderr, "bench: run %lld, suite %s: %d cells, %d rounds in %d code layout%s%s, %s; %s\n",
                (long long)rx->run, s->name, ncells, rx->rounds, rx->lay.n, rx->lay.n == 1 ? "" : "s", spread,
                sample, counter_desc);
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
                                    sizeof core, e) < 0 ||
        record_noise(rx, core, e) < 0) {
        pb_store_end_run(&rx->st, rx->run, "failed", e->msg, &e2);
        return rc == -2 ? -2 : -1;   /* -2: the suite refused the run (suite.h cell_begin) */
    }
    return 0;
}

/* Every cell in turn, SIGINT and SIGTERM caught so that an interrupted run is still marked in the store. */
static int run_grid(run_ctx *rx, const pb_grid *g, pb_err *e)
{
    const pb_runner_opts *o = rx->o;
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    g_signal = 0;

    rx->t0 = pb_now_ns();
    int rc = 0, passes = rx->passes, n = g->ncells;
    cell_run *crs = calloc((size_t)(n > 0 ? n : 1), sizeof *crs);
    if (!crs) rc = pb_errf(e, "out of memory");
    /* pass p runs rounds [p R / P, (p + 1) R / P) of every cell in turn: each cell's rounds are spread
     * over the whole run (docs/layout.md, "Passes"), and a cell is stored after its last pass */
    int *rr = malloc((size_t)(unsigned)(rx->rounds > 0 ? rx->rounds : 1) * sizeof *rr);
    if (!rr && rc == 0) rc = pb_errf(e, "out of memory");
    for (int p = 0; p < passes && rc == 0 && !g_signal; p++) {
        int r0 = (int)((long long)rx->rounds * p / passes), r1 = (int)((long long)rx->rounds * (p + 1) / passes);
        for (int r = r0; r < r1; r++) rr[r - r0] = r;
        for (int i = 0; i < n && rc == 0 && !g_signal; i++) {
            if (p == 0) rc = cell_run_init(rx, &crs[i], &g->cells[i], e);
            if (rc == 0) rc = cell_pass(rx, &crs[i], p == 0, rr, r1 - r0, e);
            rx->units_done = (long)p * n + i + 1;
        }
        if (o->progress && p < passes - 1 && rc == 0 && !g_signal && pb_now_ns() - rx->t0 > 2000000000ull)
            fprintf(stderr, "bench: pass %d of %d (rounds %d-%d of every cell) done in %.0f s\n", p + 1, passes, r0,
                    r1 - 1, (double)(pb_now_ns() - rx->t0) * 1e-9);
    }
    free(rr);
    /* make-up passes (docs/layout.md, "A shared core"): a layout of a cell whose every round shared
     * its core gets one more round, in a pass over the cells of their own, up to PB_MAKEUP_PASSES */
    for (int m = 0; m < rx->makeup_passes && rc == 0 && !g_signal; m++) {
        long before = rx->makeup_rounds;
        for (int i = 0; i < n && rc == 0 && !g_signal; i++) rc = cell_makeup(rx, &crs[i], e);
        long made = rx->makeup_rounds - before, left = 0;
        int missing[PB_MAX_LAYOUTS];
        for (int i = 0; i < n && rc == 0; i++) left += layouts_without_alone(rx, &crs[i], missing);
        if (o->progress && made && rc == 0 && !g_signal)
            fprintf(stderr, "bench: make-up pass %d: %ld round%s in code layouts that had none on a core of its own"
                            " (%ld still without)\n", m + 1, made, made == 1 ? "" : "s", left);
        /* a make-up pass that found the core alone in fewer than half its layouts: the core stays
         * shared, and another pass would cost a quarter of a run for little (the noise says so) */
        if (2 * left > made) break;
    }
    if (rx->boundary_rounds && rc == 0 && !g_signal) rc = boundary_passes(rx, crs, n, e);
    for (int i = 0; i < n && rc == 0 && !g_signal; i++) {
        int show = o->progress && (pb_now_ns() - rx->t0 > 2000000000ull || i == n - 1);
        rc = cell_store(rx, &crs[i], i, n, show, e);
        cell_run_free(&crs[i]);
    }
    for (int i = 0; crs && i < n; i++)
        if (crs[i].cs) cell_run_free(&crs[i]);
    free(crs);
    int ret = end_run(rx, rc, e);
    if (ret == 0 && o->grid_s) *o->grid_s = (double)(pb_now_ns() - rx->t0) * 1e-9;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (o->progress && ret == 0)
        fprintf(stderr, "bench: run %lld complete in %.1f s -> %s\n", (long long)rx->run,
                (double)(pb_now_ns() - rx->t0) * 1e-9, o->db_path);
    return ret;
}

/* The one cleanup path of a run: what begin_run opened, however far it got. */
static void close_run(run_ctx *rx)
{
    pb_pin_restore(&rx->pin);
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

int pb_default_passes(const pb_suite *s, int rounds)
{
    /* a sample that is a process (exec, gbench) and a suite's cell hooks (exec --setup) keep their
     * cells whole: the hooks bracket every pass, and a process's sample is long enough already */
    if (s->sample_words || s->cell_begin || s->cell_end) return 1;
    int p = rounds / PB_PASS_ROUNDS;
    return p < 1 ? 1 : p > PB_MAX_DEFAULT_PASSES ? PB_MAX_DEFAULT_PASSES : p;
}

/* Boundary rounds' room and code layouts (runner.h): none with --quick (one look at each cell), for
 * a suite whose sample is a process or that has cell hooks (as passes: such a sample is long
 * already), or without a caller's nearness. They start on a block of the layouts' permutation
 * after the make-up rounds' room, and continue its blocks (pb_layouts_assign), so that each is a
 * time block of every layout once. 0, or -1 + e. */
static int boundary_layouts(run_ctx *rx, pb_err *e)
{
    const pb_runner_opts *o = rx->o;
    const pb_suite *s = o->suite;
    if (!o->nearness || o->quick || s->sample_words || s->cell_begin || s->cell_end || !o->boundary_rounds)
        return 0;
    int E = o->boundary_rounds < 0 ? (rx->rounds + 1) / 2 : o->boundary_rounds, L = rx->lay.n;
    int base = (rx->rounds + rx->makeup_passes * L + L - 1) / L * L;
    int *all = calloc((size_t)(base + E), sizeof *all);
    rx->boundary_layout = calloc((size_t)E, sizeof *rx->boundary_layout);
    if (!all || !rx->boundary_layout) {
        free(all);
        return pb_errf(e, "out of memory");
    }
    if (L > 1) pb_layouts_assign(all, base + E, L, rx->lay.set->seed);
    memcpy(rx->boundary_layout, all + base, (size_t)E * sizeof *all);
    free(all);
    rx->boundary_rounds = E;
    rx->boundary_base = base;
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
        s = &named;
    }
    run_ctx rx = {
        .o = o,
        .rounds = o->rounds > 0 ? o->rounds : (o->quick ? PB_DEFAULT_ROUNDS_QUICK : PB_DEFAULT_ROUNDS),
        .passes = 1,
        .tprobe_min = INFINITY,
        .sample_s = o->sample_seconds > 0 ? o->sample_seconds : (o->quick ? 0.0005 : 0.002),
    };

    if (o->passes > rx.rounds) {
        pb_errf(e, "--passes %d: more passes than the %d rounds of a cell (a pass runs at least one)", o->passes,
                rx.rounds);
        return -2;
    }
    rx.passes = o->passes > 0 ? o->passes : pb_default_passes(s, rx.rounds);

    int cpu;
    if (pb_cpu_parse(o->cpu, &cpu, e) < 0) return -2;
    pb_grid g = {0, NULL};
    if (pb_runner_grid(o, &g, e) < 0) return -2;

    if (pb_layouts_begin(&rx.lay, o, rx.rounds, e) < 0 || collect_objects(&rx, &g, e) < 0) {
        pb_layouts_end(&rx.lay);
        pb_objects_free(&rx.objects);
        free(g.cells);
        return -2;
    }
    /* make-up passes follow the passes of a run that has more than one (not --quick, 32 rounds or
     * more by default) in more than one layout: a run in one pass is one look at each cell, and its
     * samples are as many as its rounds say */
    rx.makeup_passes = o->quick || rx.passes < 2 || rx.lay.n < 2 ? 0 : PB_MAKEUP_PASSES;
    if (boundary_layouts(&rx, e) < 0) {
        free(rx.boundary_layout);
        pb_layouts_end(&rx.lay);
        pb_objects_free(&rx.objects);
        free(g.cells);
        return -1;
    }
    int ret = begin_run(&rx, cpu, g.ncells, e);
    if (ret == 0) {
        *run_id = rx.run;
        ret = run_grid(&rx, &g, e);
    }
    if (o->failed_cases) *o->failed_cases = rx.failed_cases;
    close_run(&rx);
    free(rx.boundary_layout);
    pb_layouts_end(&rx.lay);
    pb_objects_free(&rx.objects);
    free(g.cells);
    return ret;
}
