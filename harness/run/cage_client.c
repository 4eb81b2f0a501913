/* SPDX-License-Identifier: GPL-2.0-only */
/* cage_client.c — the runner's side of the cage (cage.h): which impls are caged, what the runner
 * asks of a caged case's child (set-up, timings for calibration, samples) and what that child
 * does for it (cage_serve: the same set-up and timing as here, its output checked after each
 * sample). A caged case that fails (crashes, exits, hangs, answers wrong) is said on stderr and
 * left out of its cell (cage_failed), not the run. */
#include "runner_internal.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

/* The caged code failed: said now, on stderr, and its cases left out of the cell when it is
 * stored (cell_store, passes.c), with why. */
void cage_failed(case_state *cs, const char *why)
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
int cage_sample(slot *sl, uint64_t n, raw_sample *rs)
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

/* run_body's timings in the case's child: the shortest of reps, in s, or 1 s where the code failed
 * (cage_failed has said how: calibration then stops) */
double cage_time(run_ctx *rx, case_state *cs, int li, uint64_t k, int reps)
{
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

/* The child of a caged impl: set_up_here there, then each request of the runner (cage.h). */
typedef struct cage_server_ctx {
    run_ctx *rx;
    const pb_cell *cell;
    case_state *cs;
    pb_counters tsc_only;   /* bench's counters without its hardware events: those count bench's thread */
    pb_waits_files waits;   /* the child's own: its thread's run-queue delay, not bench's */
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
    /* as sample_here does in-process (sample.c): the layout's stack offset, the probes, the clocks */
    if (q->stack_offset) {
        volatile char *pad = __builtin_alloca(q->stack_offset);
        pad[0] = 0;
    }
    pb_waits w0, w1;
    r->probe_before = pb_probe_ticks(&x->tsc_only);
    r->tprobe_before = pb_tprobe_ticks(&x->tsc_only);
    pb_waits_read(&x->waits, &w0);
    struct timespec c0, c1;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
    pb_reading rd;
    uint64_t t0 = pb_now_ns();
    pb_counters_start(&x->tsc_only, &rd);
    c->body(c->ctx, q->iters);
    pb_counters_stop(&x->tsc_only, &rd);
    uint64_t t1 = pb_now_ns();
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
    pb_waits_read(&x->waits, &w1);
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
int should_cage_impl(const run_ctx *rx, const char *impl)
{
    const pb_runner_opts *o = rx->o;
    char who[300];
    int user = pb_suite_user_code(o->suite, o->suite_opts, impl, who, sizeof who) == 1;
    return !(o->cage == PB_CAGE_NONE || (o->cage == PB_CAGE_USER && !user));
}

/* The impl's cases set up in a cage of their own (should_cage_impl): 0 (set up, or marked
 * unavailable, or failed in its cage: cs->failed; set up here where there is nothing to cage) or
 * -1 + e (the lab's own set-up failed: the run fails). */
int set_up_caged(run_ctx *rx, const pb_cell *cell, case_state *cs, pb_err *e)
{
    const pb_runner_opts *o = rx->o;
    char who[300];
    int user = pb_suite_user_code(o->suite, o->suite_opts, cs->impl, who, sizeof who) == 1;
    if (!user || !who[0]) snprintf(who, sizeof who, "%s %s", o->suite->name, cs->impl);
    cage_server_ctx x = {rx, cell, cs, rx->counters, PB_WAITS_FILES_INIT};
    x.tsc_only.nhw = 0;
    pb_cage_server srv = {&x, cage_set_up, cage_serve, cage_quit};
    pb_cage_reply r;
    pb_err ce = {{0}};
    /* a --timeout above the set-up's own limit raises it (as the refusal says): a sanitizer build on
     * a loaded machine once set a good plug-in up in over 60 s; a smaller one, meant for the
     * samples, does not cut an honest set-up short */
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
