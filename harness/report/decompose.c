/* SPDX-License-Identifier: GPL-2.0-only */
/* decompose.c — the arithmetic and the sentence of the decomposition (decompose.h): pure, no store,
 * so that the unit test checks every case on fixed numbers. */
#include "decompose.h"

#include <math.h>
#include <stdio.h>

static int positive(double x)
{
    return isfinite(x) && x > 0;
}

int pb_decomp_of(double time, double time_lo, double time_hi, double insns, pb_decomp *d)
{
    d->time = time;
    d->time_lo = time_lo;
    d->time_hi = time_hi;
    d->insns = insns;
    d->per_insn = d->per_insn_lo = d->per_insn_hi = NAN;
    d->work = d->cost = PB_DECOMP_UNKNOWN;
    d->wide = 0;
    if (!positive(time) || !positive(insns)) return -1;
    d->per_insn = time / insns;
    d->work = fabs(insns - 1) < PB_DECOMP_SAME_WORK ? PB_DECOMP_SAME : insns < 1 ? PB_DECOMP_LESS : PB_DECOMP_MORE;
    /* counts are exact: the time ratio's CI divided by a constant is the per-instruction ratio's */
    if (!positive(time_lo) || !positive(time_hi) || time_lo > time_hi) return 0;
    d->per_insn_lo = time_lo / insns;
    d->per_insn_hi = time_hi / insns;
    /* beyond the CI, strictly: a CI whose edge is 1 has not ruled out "the same cost" */
    d->cost = d->per_insn_lo > 1 ? PB_DECOMP_MORE : d->per_insn_hi < 1 ? PB_DECOMP_LESS : PB_DECOMP_SAME;
    /* "the work explains it" only where every cost per instruction the CI allows changes the time
     * less than the work does (on a log scale, as the ratios are read) */
    const double w = fabs(log(insns));
    d->wide = d->cost == PB_DECOMP_SAME && d->work != PB_DECOMP_SAME &&
              (fabs(log(d->per_insn_lo)) >= w || fabs(log(d->per_insn_hi)) >= w);
    return 0;
}

const char *pb_decomp_pct(double pct, char *buf, size_t cap)
{
    double a = fabs(pct);
    snprintf(buf, cap, a >= 10 ? "%.0f" : a >= 1 ? "%.1f" : "%.2f", a);
    return buf;
}

/* "23 % fewer instructions", "5.0 % more instructions", "as many instructions (within 0.5 %)" */
static void work_words(const pb_decomp *d, char *buf, size_t cap)
{
    char p[32];
    if (d->work == PB_DECOMP_SAME) {
        snprintf(buf, cap, "as many instructions (within %g %%)", PB_DECOMP_SAME_WORK * 100);
        return;
    }
    snprintf(buf, cap, "%s %% %s instructions", pb_decomp_pct((d->insns - 1) * 100, p, sizeof p),
             d->work == PB_DECOMP_LESS ? "fewer" : "more");
}

const char *pb_decomp_sentence(const pb_decomp *d, const char *cand, char *buf, size_t cap)
{
    if (!positive(d->time) || !positive(d->insns)) {
        snprintf(buf, cap, "no decomposition: %s", positive(d->insns) ? "no time ratio" : "no instruction ratio");
        return buf;
    }
    char w[96], p[32];
    work_words(d, w, sizeof w);
    if (d->cost == PB_DECOMP_UNKNOWN) {
        snprintf(buf, cap, "%s executes %s; the time ratio has no CI, so whether each costs more or less cannot be told",
                 cand, w);
        return buf;
    }
    if (d->wide) {
        char lo[32];
        snprintf(buf, cap, "%s executes %s; the CI is too wide to tell whether the work explains it: each instruction "
                 "may cost from %s %% less to %s %% more", cand, w, pb_decomp_pct((1 - d->per_insn_lo) * 100, lo, sizeof lo),
                 pb_decomp_pct((d->per_insn_hi - 1) * 100, p, sizeof p));
        return buf;
    }
    if (d->cost == PB_DECOMP_SAME) {
        snprintf(buf, cap, "%s executes %s and each costs about the same: %s", cand, w,
                 d->work == PB_DECOMP_SAME ? "no difference in work or in cost per instruction beyond the CI"
                                           : "the work explains it");
        return buf;
    }
    const char *cost = d->cost == PB_DECOMP_MORE ? "more" : "less";
    pb_decomp_pct((d->per_insn - 1) * 100, p, sizeof p);
    /* the same way (fewer and cheaper, more and dearer): both factors; else the cost alone explains
     * the time, against the work or without it */
    if ((int)d->work == (int)d->cost)
        snprintf(buf, cap, "%s executes %s and each costs %s %% %s: the work explains part of it, memory, layout or "
                 "micro-architecture the rest", cand, w, p, cost);
    else
        snprintf(buf, cap, "%s executes %s but each costs %s %% %s: memory, layout or micro-architecture, not work", cand,
                 w, p, cost);
    return buf;
}

const char *pb_decomp_explained_by(const pb_decomp *d)
{
    if (d->cost == PB_DECOMP_UNKNOWN) return "unknown";
    if (d->wide) return "undecided";
    if (d->cost == PB_DECOMP_SAME) return "work";
    return (int)d->work == (int)d->cost ? "work and per instruction" : "per instruction";
}
