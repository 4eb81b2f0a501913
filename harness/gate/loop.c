/* SPDX-License-Identifier: GPL-2.0-only */
/* loop.c — the gate's loop in one run: passes, reruns, the budget, the confirmation (loop.h). */
#include "loop.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

int pb_gate_first_rounds(const pb_gate_settings *s)
{
    return s->rounds ? s->rounds : (s->quick ? PB_DEFAULT_ROUNDS_QUICK : PB_DEFAULT_ROUNDS);
}

/* Decided or not, its MDC is not yet under half its threshold. A regression is left alone (the gate
 * fails on it already); a cell without data (an impl unavailable) gains nothing from more rounds. */
int pb_gate_cell_needs_power(const pb_cmp_cell *c)
{
    if (c->verdict == PB_CELL_REGRESSION || c->verdict == PB_CELL_NODATA) return 0;
    return !(c->mdc < c->threshold / 2);
}

/* A cell the next pass reruns: one not decided yet, and with --budget one short of power. */
static int should_rerun(const pb_gate_settings *set, const pb_cmp_cell *c)
{
    return c->verdict == PB_CELL_INCONCLUSIVE || (set->budget > 0 && pb_gate_cell_needs_power(c));
}

/* The seconds a pass of n cells at twice the rounds takes, after the last pass of s->nran cells
 * took pass_s. The last pass's grid, per cell-round, predicts its grid; what came before the grid
 * (planning, the code layouts' modules, the builds' namespaces) is paid once again, not doubled:
 * doubling it too stopped a 120 s commit gate of the drbg suite after its first pass at 25-55 s. */
static double predict_pass_s(const pb_gate_session *s, double pass_s, size_t n)
{
    double grid = s->grid_s >= 0 && s->grid_s <= pass_s ? s->grid_s : pass_s;
    return (pass_s - grid) + grid * 2.0 * (double)n / (double)s->nran;
}

/* Whether a pass of n cells, started now (seconds into the session), ends within the budget. */
static int pass_fits(const pb_gate_settings *set, const pb_gate_session *s, double now, size_t n)
{
    return !(now + predict_pass_s(s, now - s->pass_start, n) > set->budget);
}

/* One pass: the runner over the cells of this pass (the grid, or only0, or the reruns), the run
 * stored and its samples loaded. */
static int run_pass(const pb_gate_job *j, const pb_gate_target *t, gate_layouts *G, pb_gate_session *s, pb_err *e)
{
    const pb_gate_settings *set = &j->set;
    s->pass_start = (double)(pb_now_ns() - s->t0) * 1e-9;
    s->grid_s = -1;
    const pb_cmp_cell *only = s->pass ? s->next : set->only0;
    size_t nonly = s->pass ? s->nnext : set->nonly0;
    t->W->only = only;
    t->W->nonly = nonly;
    t->layouts.only(G, only, nonly);
    pb_runner_opts o = {.suite = &s->wrapped, .suite_opts = t->W, .quick = set->quick, .rounds = s->rounds,
                        .sizes = s->pass || set->only0 ? NULL : set->sizes,
                        .db_path = set->db, .command_line = set->command_line, .options_text = s->options,
                        .progress = set->progress, .live = set->live, .width = set->width, .cpu = set->cpu, .iters_memo = &s->memo,
                        .layouts = t->layouts.set(G), .grid_s = &s->grid_s, .user_revision = set->user_revision,
                        .user_label = set->user_label};
    int64_t run = 0;
    if (pb_run(&o, &run, e) != 0) return -1;
    s->runs[s->nruns++] = run;
    s->last_rounds = s->rounds;
    if (s->pass == 0 && pb_gate_run_meta(j->st, run, &s->meta, e) < 0) return -1;
    return pb_gate_load_run(j->st, run, j->metric, &s->data, e);
}

/* The pass's cells, each pair of the wrap compared, judged at one look's share of alpha. */
static int judge_pass(const pb_gate_job *j, const pb_gate_target *t, pb_gate_session *s, pb_err *e)
{
    const gate_wrap *W = t->W;
    const char *pa[GATE_MAX_PAIRS], *pbn[GATE_MAX_PAIRS];
    free(s->final);
    s->final = NULL;
    for (int i = 0; i < W->npairs; i++) {   /* known once planned (auto_pairs) */
        pa[i] = W->pairs[i].a;
        pbn[i] = W->pairs[i].b;
    }
    if (pb_gate_cells_within_pairs(&s->data, pa, pbn, (size_t)W->npairs, &j->set.look, &s->final, &s->nfinal, e) < 0)
        return -1;
    for (size_t i = 0; i < s->nfinal; i++) {
        pb_cmp_cell *c = &s->final[i];
        const char *real = NULL;
        const gate_side *sd = pb_pair_side_of(W, t->builds ? c->impl_b : c->impl_a, &real);
        c->threshold = t->threshold;
        c->calibrated_mdc = pb_gate_calibrated_mdc(j->st, s->meta.machine_id, "round", s->wrapped.name,
                                                   sd ? real : c->impl_a, c->variant, c->op, c->size, j->metric);
    }
    pb_gate_decide(s->final, s->nfinal, &j->set.look);
    return 0;
}

/* A cell this pass did not rerun keeps what the last look that had it found: it was decided there,
 * on that look's share of alpha. Judged again beside the reruns' cells, whose pairs are now many
 * times its own, the moderation's prior would no longer fit it (a 5 % slowdown's regressions after
 * the first look came out inconclusive). Then this pass's cells are kept for the next, and the
 * first pass's as the session's first. */
static int keep_pass(const pb_gate_settings *set, pb_gate_session *s, pb_err *e)
{
    const pb_cmp_cell *ran = s->pass ? s->next : set->only0;
    size_t nran = s->pass ? s->nnext : set->nonly0;
    if (s->pass > 0 && s->kept) {
        for (size_t i = 0; i < s->nfinal; i++) {
            if (pb_gate_find_cell(&s->final[i], ran, nran)) continue;
            const pb_cmp_cell *k = pb_gate_find_cell(&s->final[i], s->kept, s->nkept);
            if (k) s->final[i] = *k;
        }
    }
    free(s->kept);
    s->nkept = 0;
    s->kept = malloc((s->nfinal + 1) * sizeof *s->kept);
    if (!s->kept) return pb_errf(e, "out of memory");
    memcpy(s->kept, s->final, s->nfinal * sizeof *s->kept);
    s->nkept = s->nfinal;
    if (s->pass == 0) {
        s->first = malloc((s->nfinal + 1) * sizeof *s->first);
        if (!s->first) return pb_errf(e, "out of memory");
        memcpy(s->first, s->final, s->nfinal * sizeof *s->first);
        s->nfirst = s->nfinal;
    }
    return 0;
}

/* The cells the next pass would rerun (should_rerun); nran: how many this pass ran. */
static int pick_reruns(const pb_gate_settings *set, pb_gate_session *s, pb_err *e)
{
    free(s->next);
    s->next = malloc((s->nfinal + 1) * sizeof *s->next);
    s->nran = s->nnext ? s->nnext : s->nfinal;
    s->nnext = 0;
    if (!s->next) return pb_errf(e, "out of memory");
    for (size_t i = 0; i < s->nfinal; i++)
        if (should_rerun(set, &s->final[i])) s->next[s->nnext++] = s->final[i];
    return 0;
}

/* The cells short of power would overrun the budget: the inconclusive ones, whose decision is open,
 * are rerun alone where they fit (a 5 % slowdown's cells at 1.04 with Holm p just over alpha were
 * left so while the pass for every cell short of power did not fit). 1: they are the next pass. */
static int narrow_to_inconclusive(const pb_gate_settings *set, pb_gate_session *s, double now)
{
    size_t ninc = 0;
    for (size_t i = 0; i < s->nnext; i++)
        if (s->next[i].verdict == PB_CELL_INCONCLUSIVE) s->next[ninc++] = s->next[i];
    if (!ninc || ninc == s->nnext || !pass_fits(set, s, now, ninc)) {
        s->stop = "budget spent (the next pass would overrun it)";
        return 0;
    }
    s->nnext = ninc;
    s->narrowed++;
    return 1;
}

/* Whether another pass runs: cells left to rerun, a look left, and (--budget) time for it. */
static int another_pass(const pb_gate_settings *set, pb_gate_session *s)
{
    double now = (double)(pb_now_ns() - s->t0) * 1e-9;
    s->spent_s = now;
    if (!s->nnext) {
        s->stop = set->budget > 0 ? "every cell's MDC under half its threshold" : NULL;
        return 0;
    }
    if (s->pass >= set->reruns) {
        s->stop = "no looks left (--reruns)";
        return 0;
    }
    if (set->budget > 0 && !pass_fits(set, s, now, s->nnext)) return narrow_to_inconclusive(set, s, now);
    return 1;
}

/* what the loop holds while it runs, freed once it stops */
static void end_loop(const pb_gate_target *t, pb_gate_session *s)
{
    free(s->next);
    free(s->kept);
    s->next = s->kept = NULL;
    s->nnext = s->nkept = 0;
    pb_iters_memo_free(&s->memo);
    pb_gate_data_free(&s->data);
    t->W->only = NULL;
    t->W->nonly = 0;
}

int pb_gate_session_run(const pb_gate_job *j, const pb_gate_target *t, pb_gate_session *s, pb_err *e)
{
    const pb_gate_settings *set = &j->set;
    memset(s, 0, sizeof *s);
    gate_layouts *G = t->layouts.open(t->layouts.ctx, t->W, set->layout_seed, s->why, sizeof s->why, e);
    if (!G && e->msg[0]) return -1;
    pb_pair_suite(t->W, &s->wrapped);
    snprintf(s->options, sizeof s->options, "gate=%s%s%s %s", t->kind, t->extra ? " " : "", t->extra ? t->extra : "",
             set->suite_opts_text);
    s->rounds = pb_gate_first_rounds(set);
    s->t0 = pb_now_ns();
    int rc = 0;
    for (s->pass = 0;; s->pass++) {
        if (run_pass(j, t, G, s, e) < 0 || judge_pass(j, t, s, e) < 0 || keep_pass(set, s, e) < 0 ||
            pick_reruns(set, s, e) < 0) {
            rc = -1;
            break;
        }
        if (!another_pass(set, s)) break;
        s->rounds *= 2;
        if (set->progress)
            fprintf(stderr, "bench gate: %zu cell%s %s: rerun %d of %d with %d rounds\n", s->nnext,
                    s->nnext == 1 ? "" : "s",
                    set->budget > 0 && !s->narrowed ? "inconclusive or with MDC >= threshold/2" : "inconclusive",
                    s->pass + 1, set->reruns, s->rounds);
    }
    end_loop(t, s);
    t->layouts.close(G);
    if (rc < 0) pb_gate_session_free(s);
    return rc;
}

/* A regression fails a gate only once a second run of the same code finds it too.
 *
 * One run is one sample of everything the process fixed as it started: where the loader put each
 * layout's module (the address bits that index branch predictors and caches), where the heap
 * began, the seed's stack and heap offsets and round order, and what the machine's neighbours did
 * in those seconds. The layouts vary placement within the run; nothing varied it between runs, and
 * a commit that changed no timed code once failed CI on one xts cell of 320
 * (docs/measurements/gate-commit-gates.md). So the cells a run calls regressions run again: every
 * layout's module loaded anew behind a gap of address space, the next layout seed (other offsets,
 * another round order), one pass with the rounds of the pass that flagged them, Holm over those
 * cells only, at the whole alpha. A cell stays a regression when both runs call it one: an
 * intersection-union test, each run at level alpha, so the pair is too; a real slowdown is found
 * again, with the fewer cells' Holm even more easily. One not reproduced is inconclusive, and its
 * note gives the second run's ratio. Both runs are stored with the comparison. */
int pb_gate_session_confirm(const pb_gate_job *j, const pb_gate_target *t, pb_gate_session *ss, pb_err *e)
{
    size_t k = 0;
    for (size_t i = 0; i < ss->nfinal; i++) k += ss->final[i].verdict == PB_CELL_REGRESSION;
    if (!k || j->set.no_confirm) return 0;
    pb_cmp_cell *flagged = malloc(k * sizeof *flagged);
    if (!flagged) return pb_errf(e, "out of memory");
    k = 0;
    for (size_t i = 0; i < ss->nfinal; i++)
        if (ss->final[i].verdict == PB_CELL_REGRESSION) flagged[k++] = ss->final[i];
    pb_gate_job cj = *j;
    cj.set.reruns = 0;
    cj.set.budget = 0;
    cj.set.rounds = ss->last_rounds;
    cj.set.look = j->set.gp;
    cj.set.layout_seed = j->set.layout_seed + 1;
    cj.set.only0 = flagged;
    cj.set.nonly0 = k;
    if (j->set.progress)
        fprintf(stderr, "bench gate: %zu regression%s: confirming in a second run (modules loaded anew, layout seed "
                "%llu, %d rounds)\n", k, k == 1 ? "" : "s", (unsigned long long)cj.set.layout_seed, cj.set.rounds);
    /* A gap of address space ahead of the new copies, so that they do not fall back into the holes the
     * first copies left: the loader maps top-down, first fit. PROT_NONE: no memory behind it. */
    pb_rng r;
    pb_rng_seed(&r, cj.set.layout_seed ^ 0xc0f1c0f1ull);
    size_t gap_len = (size_t)(1 + pb_rng_next(&r) % 4096) * 4096u;   /* 4 KiB to 16 MiB */
    void *gap = mmap(NULL, gap_len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    char ex[300];
    snprintf(ex, sizeof ex, "%s%sconfirmation=1", t->extra ? t->extra : "", t->extra ? " " : "");
    pb_gate_target ct = *t;
    ct.extra = ex;
    pb_gate_session cs;
    int rc = pb_gate_session_run(&cj, &ct, &cs, e);
    if (gap != MAP_FAILED) munmap(gap, gap_len);
    free(flagged);
    if (rc < 0) return -1;
    size_t confirmed = pb_gate_confirm(ss->final, ss->nfinal, cs.final, cs.nfinal);
    ss->confirm_run = cs.nruns ? cs.runs[0] : 0;
    if (ss->confirm_run) ss->runs[ss->nruns] = ss->confirm_run;
    snprintf(ss->confirm_note, sizeof ss->confirm_note, "; %zu regression%s in the first run, %zu confirmed by a "
             "second (run %lld: modules loaded anew, layout seed %llu, %d rounds, Holm over those cells)", k,
             k == 1 ? "" : "s", confirmed, (long long)ss->confirm_run, (unsigned long long)cj.set.layout_seed,
             cj.set.rounds);
    pb_gate_session_free(&cs);
    return 0;
}

void pb_gate_session_free(pb_gate_session *s)
{
    free(s->first);
    free(s->final);
    memset(s, 0, sizeof *s);
}

size_t pb_gate_session_nruns(const pb_gate_session *s)
{
    return s->nruns + (s->confirm_run != 0);
}

void pb_gate_note_mdc_reached(char *note, size_t cap, const pb_cmp_cell *c, size_t n)
{
    double *m = malloc((n + 1) * sizeof *m);
    size_t k = 0, short_of = 0;
    for (size_t i = 0; m && i < n; i++) {
        if (c[i].verdict != PB_CELL_NODATA && isfinite(c[i].mdc)) m[k++] = c[i].mdc;
        short_of += pb_gate_cell_needs_power(&c[i]);
    }
    size_t len = strlen(note);
    snprintf(note + len, cap - len, "; MDC reached: median %.2f%%, largest %.2f%%; %zu of %zu cells not under half "
             "their threshold", k ? 100 * pb_median(m, k) : NAN, k ? 100 * pb_quantile(m, k, 1.0) : NAN, short_of, n);
    free(m);
}

void pb_gate_rounds_note(char *buf, size_t cap, const pb_gate_settings *set, const pb_gate_session *s, double t,
                         int line, const pb_thresholds *th)
{
    int r0 = pb_gate_first_rounds(set);
    char where[600];
    snprintf(buf, cap, "threshold %.3g%% (%s); alpha %g over up to %d looks; %d rounds%s", 100 * t,
             pb_thresholds_where(th, line, where, sizeof where), set->gp.alpha, 1 + set->reruns, r0,
             s->nruns == 1         ? ""
             : set->budget > 0     ? ", cells inconclusive or with MDC >= threshold/2 rerun"
                                   : ", inconclusive cells rerun");
    for (size_t i = 1; i < s->nruns; i++) snprintf(buf + strlen(buf), cap - strlen(buf), " +%d", r0 << i);
    if (set->budget > 0) {
        snprintf(buf + strlen(buf), cap - strlen(buf), "; budget %gs: %.1fs spent, %s", set->budget, s->spent_s,
                 s->stop ? s->stop : "done");
        if (s->narrowed)
            snprintf(buf + strlen(buf), cap - strlen(buf), "; %d rerun%s of the inconclusive cells alone (the budget "
                     "would not hold every cell short of power)", s->narrowed, s->narrowed == 1 ? "" : "s");
        pb_gate_note_mdc_reached(buf, cap, s->final, s->nfinal);
    }
    snprintf(buf + strlen(buf), cap - strlen(buf), "%s", s->confirm_note);
}

int pb_gate_emit(const pb_gate_sink *out, pb_store *st, const pb_cmp_header *h, const pb_cmp_cell *cells, size_t n,
                 pb_err *e)
{
    if (out->tables) pb_gate_print(out->tables, 0, h, cells, n);
    return out->doc ? pb_gate_doc_add(out->doc, st, h, cells, n, e) : 0;
}
