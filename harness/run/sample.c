/* SPDX-License-Identifier: GPL-2.0-only */
/* sample.c — one sample of a case, in Google Benchmark's loop (take_sample: timed here, by the
 * case's cage, or by another process), and what is stored of it once Google Benchmark reports
 * it (keep_result). Each slot (runner_internal.h) keeps its raw samples until its cell is stored. */
#include "runner_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The slot's next raw sample, zeroed; NULL when out of memory. */
static raw_sample *next_raw(slot *sl)
{
    if (sl->nraw == sl->capraw) {
        int cap = sl->capraw ? 2 * sl->capraw : 2;
        raw_sample *r = realloc(sl->raw, (size_t)cap * sizeof *r);
        if (!r) return NULL;
        sl->raw = r;
        sl->capraw = cap;
    }
    raw_sample *rs = &sl->raw[sl->nraw++];
    memset(rs, 0, sizeof *rs);
    return rs;
}

/* Measured by another process (a program the lab did not write): GB's loop runs once, around the
 * call; a failure (it died, exited non-zero, ran past its limit) fails this impl's case, as a
 * caged one's does, not the run. */
static void sample_external(pb_gb_state *st, slot *sl, raw_sample *rs, uint64_t n)
{
    case_state *cs = sl->cs;
    const pb_case *c = &cs->c[sl->li];
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
}

/* Timed by the case's child: GB's loop runs once, around the request. */
static void sample_caged(pb_gb_state *st, slot *sl, raw_sample *rs, uint64_t n)
{
    int ok = 0, tried = 0;
    while (pb_gb_keep_running_batch(st, n))
        if (!tried++) ok = cage_sample(sl, n, rs) == 0;
    if (!ok) pb_gb_skip_with_error(st, "caged code failed");
    rs->caged = ok;
}

/* Timed here, in this thread: the probes, the waits and the counters around GB's loop. */
static void sample_here(pb_gb_state *st, slot *sl, raw_sample *rs, uint64_t n)
{
    run_ctx *rx = sl->rx;
    const pb_case *c = &sl->cs->c[sl->li];
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
    pb_waits_read(&rx->wait_files, &rs->w0);
    pb_counters_start(&rx->counters, &rd);
    while (pb_gb_keep_running_batch(st, n)) c->body(c->ctx, n);
    pb_counters_stop(&rx->counters, &rd);
    pb_waits_read(&rx->wait_files, &rs->w1);
    rs->pa = pb_probe_ticks(&rx->counters);
    rs->ta = pb_tprobe_ticks(&rx->counters);
    rs->tsc = (double)rd.tsc;
    rs->cycles = rx->cyc >= 0 ? (double)rd.hw[rx->cyc] : -1;
    rs->insns = rx->ins >= 0 ? (double)rd.hw[rx->ins] : -1;
    rs->errors = (c->error_count ? *c->error_count : 0) - err0;
    if (c->seeded_ns) seeded_sample(rs, c, sl->round, sl->nraw - 1, n);
}

void take_sample(pb_gb_state *st, void *arg)
{
    slot *sl = arg;
    if (run_interrupted()) {
        pb_gb_skip_with_error(st, "interrupted");
        return;
    }
    raw_sample *rs = next_raw(sl);
    if (!rs) {
        pb_gb_skip_with_error(st, "out of memory");
        return;
    }
    case_state *cs = sl->cs;
    uint64_t n = pb_gb_max_iterations(st);
    if (cs->c[sl->li].external_sample) sample_external(st, sl, rs, n);
    else if (cs->cage.pid || cs->failed[0]) sample_caged(st, sl, rs, n);
    else sample_here(st, sl, rs, n);
    progress_sample(sl->rx, cs);   /* after GB's timed loop: outside the sample's time */
}

/* what is stored of a sample another process measured: its iterations, times and CPU split */
static void stored_external(pb_sample *s, const raw_sample *rs)
{
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
}

/* what is stored of a sample timed here (GB's clocks, or the seeded time) or by the case's child
 * (caged: its own clocks); either way the TSC only where it is usable */
static void stored_timed(pb_sample *s, const raw_sample *rs, const pb_gb_result *r, int tsc_ok)
{
    if (rs->caged) {
        s->ns = rs->ext_ns;
        s->cpu_ns = rs->ext_cpu_ns;
    } else {
        s->ns = rs->seeded_ns > 0 ? rs->seeded_ns : r->real_seconds * 1e9;
        s->cpu_ns = rs->seeded_ns > 0 ? rs->seeded_ns : r->cpu_seconds * 1e9;
    }
    s->tsc = tsc_ok ? rs->tsc : 0;
    s->cycles = rs->caged ? -1 : rs->cycles;
    s->insns = rs->caged ? -1 : rs->insns;
    s->probe_before = rs->pb;
    s->probe_after = rs->pa;
    s->tprobe_before = rs->tb;
    s->tprobe_after = rs->ta;
    s->errors = rs->errors;
}

void keep_result(const pb_gb_result *r, void *user)
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
    if (rs->external) stored_external(s, rs);
    else stored_timed(s, rs, r, sl->rx->counters.tsc_ok);
    account_sample_noise(sl, rs, s);
}
