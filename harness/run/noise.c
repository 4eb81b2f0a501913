/* SPDX-License-Identifier: GPL-2.0-only */
/* noise.c — the noise account of a run (runenv.h): each sample's core-speed probes (the fraction
 * of samples in the fast core state), its waits (the rounds whose thread waited, and how far they
 * moved a ratio), and its core-sharing probes (a sample on a shared core, against the run's
 * fastest probe so far); stored with the run as its noise and said on stderr. */
#include "runner_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a stored sample's core-speed probes, into the run's account (0: the sample had none) */
void note_probe(probes *p, double pb, double pa)
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

/* A sample's noise as stored (its waits; the shared-core test's), and the run's fastest
 * core-sharing probe so far. */
void account_sample_noise(const slot *sl, const raw_sample *rs, pb_sample *s)
{
    sample_waits(s, rs);
    sample_shared_test(sl, s);
    run_ctx *rx = sl->rx;
    if (s->tprobe_before > 0 && s->tprobe_before < rx->tprobe_min) rx->tprobe_min = s->tprobe_before;
    if (s->tprobe_after > 0 && s->tprobe_after < rx->tprobe_min) rx->tprobe_min = s->tprobe_after;
}

/* Did sample s run on a shared core, by the run's fastest core-sharing probe so far (store.h)? */
int on_shared_core(const run_ctx *rx, const pb_sample *s)
{
    return pb_shared_core(s->tprobe_before, s->tprobe_after, rx->tprobe_min);
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
void cell_waits(run_ctx *rx, const cell_run *cr)
{
    const pb_cell *cell = cr->cell;
    const case_state *cs = cr->cs;
    const slot *slots = cr->slots;
    int ncs = cr->ncs, rounds = cr->cap_rounds;
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
    /* each ratio is a paired estimate over the cell's rounds (50,000 take a good part of a second):
     * a signal is acted on between them */
    for (int i = 0; waited && bi >= 0 && i < ncs && !run_interrupted(); i++) {
        pb_cell_ratio r_all, r_without;
        if (i == bi || !cs[i].ready || cell_ratio_so_far(cr, rounds, i, bi, NULL, 0, &r_all) != 0) continue;
        if (run_interrupted() || cell_ratio_so_far(cr, rounds, i, bi, skip, 0, &r_without) != 0) continue;
        double all = r_all.pr.estimate, without = r_without.pr.estimate;
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

/* The load average at the end (a label) and the noise warnings (runenv.h): the core-speed probe's
 * and the rounds that waited; stored with the run and said on stderr, whatever --quiet says,
 * since they qualify every number of the run. */
int record_noise(run_ctx *rx, const char *core, pb_err *e)
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
    /* what a suite noted of a cell it kept (suite.h cell_end: exec's failed --cleanup): the report shows it */
    if (rx->cell_notes) {
        size_t k = strlen(noise);
        snprintf(noise + k, sizeof noise - k, "%sthe clean-up of %ld cell%s failed (first: %s; the samples are kept)",
                 k ? "; " : "", rx->cell_notes, rx->cell_notes == 1 ? "" : "s", rx->cell_note);
    }
    if (noise[0]) {
        /* bounded: the first of it, the rest in the store (runs.noise) and the report */
        char head[64];
        snprintf(head, sizeof head, "bench: warning: run %lld was noisy: ", (long long)rx->run);
        pb_term_warn(stderr, rx->o->width, head, noise, "see bench report");
    }
    return pb_store_run_noise(&rx->st, rx->run, la_end, noise, e);
}
