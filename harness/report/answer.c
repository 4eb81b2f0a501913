/* SPDX-License-Identifier: GPL-2.0-only */
/* answer.c — a suite's report in one line (answer.h): composed from the loaded report data, the
 * table's counts and the verdict settings; printed within a terminal's width. */
#include "answer.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "metrics.h"
#include "report_data.h"
#include "runner.h"
#include "term.h"

/* --rounds' own limit (cmd_run.c): beyond it only a count that does not vary settles a cell */
#define ROUNDS_MAX 100000L

static void add(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(char *buf, size_t cap, const char *fmt, ...)
{
    size_t k = strlen(buf);
    if (k + 1 >= cap) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + k, cap - k, fmt, ap);
    va_end(ap);
}

/* A new piece of rank (0 first: what a narrow terminal keeps), tied to piece `to` (shown only on its
 * line; -1: free); NULL when the answer is full. */
static char *piece(pb_answer *a, int rank, int to)
{
    unsigned i = (unsigned)a->npieces;
    if (i >= PB_ANSWER_PIECES) return NULL;
    a->npieces++;
    a->rank[i] = rank;
    a->tied[i] = to >= 0 && (unsigned)to < i ? to : -1;
    a->after[i] = -1;
    a->piece[i][0] = 0;
    return a->piece[i];
}

/* " 0.919..1.259", or " 0.802" where the two read alike */
static void range(char *buf, size_t cap, double lo, double hi)
{
    char a[32], b[32];
    snprintf(a, sizeof a, "%.3f", lo);
    snprintf(b, sizeof b, "%.3f", hi);
    if (strcmp(a, b)) add(buf, cap, " %s..%s", a, b);
    else add(buf, cap, " %s", a);
}

/* one count, left out when zero: "a, " joined */
static void count(char *buf, size_t cap, int n, const char *one, const char *many)
{
    if (!n) return;
    size_t k = strlen(buf);
    add(buf, cap, "%s%d %s", k && buf[k - 1] != ' ' ? ", " : "", n, n == 1 ? one : many);
}

void pb_answer_counts(const pb_verdict_counts *n, char *buf, size_t len)
{
    buf[0] = 0;
    if (!n->cells) return;
    snprintf(buf, len, "%d cell%s: ", n->cells, n->cells == 1 ? "" : "s");
    count(buf, len, n->holds, "holds", "hold");
    count(buf, len, n->size_differs, "size differs", "size differs");
    count(buf, len, n->does_not_hold, "does not hold", "do not hold");
    count(buf, len, n->inconclusive, "inconclusive", "inconclusive");
    count(buf, len, n->no_claim, "without a claim", "without a claim");
    count(buf, len, n->no_data, "no data", "no data");
}

/* the marks beyond the verdicts, zero counts left out */
static void marks_of(const pb_verdict_counts *n, char *buf, size_t len)
{
    buf[0] = 0;
    const struct { int n; const char *mark; } m[] = {
        {n->codegen, pb_codegen_mark}, {n->layout, pb_layout_mark}, {n->shared, pb_shared_mark},
        {n->real_differs, pb_real_mark}};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        if (m[i].n) add(buf, len, "%s%s %d", buf[0] ? ", " : "", m[i].mark, m[i].n);
}

/* "b is faster than a by 32 % [30 %, 34 %]", "b against a: no detectable change [-3.0 %, +2.1 %]" */
static void ab_sentence(char *buf, size_t cap, const char *cand, const char *base, const ratio *r)
{
    char w[96];
    const char *v = pb_verdict_ab(r->lo, r->hi);
    pb_verdict_ab_words(r->est, r->lo, r->hi, w, sizeof w);
    /* "faster"/"slower" are the words' first six letters: "b is faster than a by ..." */
    if (v && strcmp(v, "no detectable change")) snprintf(buf, cap, "%s is %.6s than %s%s", cand, w, base, w + 6);
    else snprintf(buf, cap, "%s against %s: %s", cand, base, w);
}

/* Is x a stored time ratio of the run's pair (cand NULL: any candidate but the run's) against its baseline? */
static int of_pair(const pb_report_data *d, const pb_suite *s, const ratio_row *x, const char *cand)
{
    if (x->run != d->run || strcmp(x->metric, PB_DEFAULT_METRIC) || strcmp(x->base, s->baseline)) return 0;
    return cand ? !strcmp(x->cand, cand) : strcmp(x->cand, s->candidate) != 0;
}

/* What the inconclusive cells of the run's pair say: why, and the rounds that would settle them. */
typedef struct inconclusive_view {
    int wide, shared, edge;    /* CI wider than the verdict needs; most pairs on a shared core; on a boundary */
    double w, w_need;          /* the neediest cell's CI half-width and the one its verdict needs (fractions) */
    int n;                     /* its pairs */
} inconclusive_view;

static void inconclusive_cell(pb_answer *a, inconclusive_view *iv, pb_claim cl, double dt, double t, const ratio *r)
{
    if (pb_verdict_shared_most(r->n, r->shared)) { iv->shared++; return; }
    /* w_need / w: the share of the CI's half-width (log scale, on the side of the nearest boundary)
     * at which it would stop reaching a verdict's boundary (pb_verdict_nearness) */
    double near = pb_verdict_nearness(cl, dt, t, r->est, r->lo, r->hi);
    if (!(near <= 1) || !(r->n > 0)) return;
    if (!(near > 1e-3)) { iv->edge++; return; }
    iv->wide++;
    double need = ceil(r->n / (near * near));
    /* about that many: two significant digits (7698 reads as 7700), up to a multiple of the layouts */
    double unit = need >= 100 ? pow(10, floor(log10(need)) - 1) : 1;
    need = ceil(need / unit) * unit;
    if (r->layouts > 1) need = ceil(need / r->layouts) * r->layouts;   /* --rounds is a multiple of them */
    if (need > (double)a->rounds_needed) {
        a->rounds_needed = need > 1e9 ? 1000000000L : (long)need;
        double w = 0.5 * log(r->hi / r->lo);
        iv->w = expm1(w);
        iv->w_need = expm1(near * w);
        iv->n = r->n;
    }
}

/* a percentage to two significant figures, never in e-notation: 1.1, 38, 170 */
static const char *two_figures(char *buf, size_t cap, double v)
{
    snprintf(buf, cap, v >= 10 ? "%.0f" : "%.2g", v >= 100 ? round(v / 10) * 10 : v);
    return buf;
}

/* Why the cells are inconclusive ("; why: CI ±38 % where ±1.1 % decides, only 6 rounds, ...") and what
 * would settle them ("; settle: --rounds 7700, or --measure valgrind (a count)"), each reason and each
 * way its own piece: a narrow terminal keeps the first of each. */
static void why_and_settle(pb_answer *a, const inconclusive_view *iv, const char *noise)
{
    char *p;
    int why = -1, settle = -1;   /* the first reason and the first way: the others open with a comma */
    if (iv->wide && (p = piece(a, 2, -1))) {
        why = a->npieces - 1;
        char w[24], need[24];
        snprintf(p, PB_ANSWER_PIECE, "; why: CI \u00b1%s %% where \u00b1%s %% decides", two_figures(w, sizeof w, iv->w * 100),
                 two_figures(need, sizeof need, iv->w_need * 100));
        if ((p = piece(a, 4, why)))
            snprintf(p, PB_ANSWER_PIECE, ", %s%d rounds", iv->n < PB_DEFAULT_ROUNDS ? "only " : "", iv->n);
    }
    const struct { int on, rank; char text[64]; } reasons[] = {
        {iv->shared > 0, 2, ""}, {iv->edge > 0, 4, ""}, {noise != NULL, 6, "the run was noisy"},
        {why < 0, 4, "no CI to judge"}};
    for (size_t k = 0; k < sizeof reasons / sizeof reasons[0]; k++) {
        if (!reasons[k].on || (k == 3 && why >= 0) || !(p = piece(a, reasons[k].rank, why))) continue;
        snprintf(p, PB_ANSWER_PIECE, "%s ", why >= 0 ? "," : "; why:");
        if (k == 0)
            add(p, PB_ANSWER_PIECE, "%d cell%s with most pairs on a shared core", iv->shared, iv->shared == 1 ? "" : "s");
        else if (k == 1)
            add(p, PB_ANSWER_PIECE, "%d cell%s on a verdict's boundary", iv->edge, iv->edge == 1 ? "" : "s");
        else add(p, PB_ANSWER_PIECE, "%s", reasons[k].text);
        if (why < 0) why = a->npieces - 1;
    }
    if (a->rounds_needed && a->rounds_needed <= ROUNDS_MAX && (p = piece(a, 2, -1))) {
        snprintf(p, PB_ANSWER_PIECE, "; settle: --rounds %ld", a->rounds_needed);
        settle = a->npieces - 1;
        a->after[settle] = why;
    }
    if (iv->shared && (p = piece(a, 2, settle))) {
        snprintf(p, PB_ANSWER_PIECE, "%s a quiet core (--cpu N)", settle >= 0 ? ", or" : "; settle:");
        if (settle < 0) settle = a->npieces - 1, a->after[settle] = why;
    }
    if ((p = piece(a, settle >= 0 ? 8 : 2, settle))) {
        snprintf(p, PB_ANSWER_PIECE, "%s --measure valgrind (a count)", settle >= 0 ? ", or" : "; settle:");
        if (settle < 0) a->after[a->npieces - 1] = why;
    }
}

/* " on AMD EPYC 7763 ...": right after what was measured on it */
static void cpu_piece(pb_answer *a, const pb_report_data *d)
{
    const char *cpu = d->info[0].col[RUN_INFO_CPU_MODEL];
    char *p;
    if (cpu && *cpu && (p = piece(a, 5, -1))) snprintf(p, PB_ANSWER_PIECE, "; on %s", cpu);
}

/* the claim form's head and pieces: counts, the ratios against the document's, why, what settles it */
static void claim_answer(pb_answer *a, const pb_report_data *d, const pb_suite *s, const pb_verdict_cfg *cfg,
                         const pb_verdict_counts *n)
{
    pb_answer_counts(n, a->head, sizeof a->head);
    const ratio_row *lo = NULL, *hi = NULL;
    double dlo = NAN, dhi = NAN;
    inconclusive_view iv = {0};
    for (size_t i = 0; i < d->nratios; i++) {
        const ratio_row *x = &d->ratios[i];
        if (!of_pair(d, s, x, s->candidate) || !(x->r.est > 0)) continue;
        if (!lo || x->r.est < lo->r.est) lo = x;
        if (!hi || x->r.est > hi->r.est) hi = x;
        double dt = pb_report_doc_time(s, &d->doc, x->variant, x->op, x->size);
        if (isfinite(dt) && !(dt >= dlo)) dlo = dt;
        if (isfinite(dt) && !(dt <= dhi)) dhi = dt;
        pb_claim cl = pb_report_claim(s, x->variant, x->op, x->size, dt);
        if (pb_report_verdict(cl, dt, cfg->tolerance, &x->r) == pb_verdict_inconclusive)
            inconclusive_cell(a, &iv, cl, dt, cfg->tolerance, &x->r);
    }
    char *p;
    if (lo && (p = piece(a, 1, -1))) {
        if (lo == hi) snprintf(p, PB_ANSWER_PIECE, "; time %s/%s %.3f [%.3f, %.3f]", s->candidate, s->baseline,
                               lo->r.est, lo->r.lo, lo->r.hi);
        else {
            snprintf(p, PB_ANSWER_PIECE, "; time %s/%s", s->candidate, s->baseline);
            range(p, PB_ANSWER_PIECE, lo->r.est, hi->r.est);
        }
        if (isfinite(dlo)) {
            add(p, PB_ANSWER_PIECE, " (document");
            range(p, PB_ANSWER_PIECE, dlo, dhi);
            add(p, PB_ANSWER_PIECE, ")");
        }
    }
    a->inconclusive = n->inconclusive;
    a->wide = iv.wide;
    a->shared = iv.shared;
    a->rounds_now = iv.n;
    cpu_piece(a, d);
    if (n->inconclusive) why_and_settle(a, &iv, a->noise[0] ? a->noise : NULL);
}

/* a user's A/B: "b is faster than a by 32 % [30 %, 34 %]", or over several cells how many went which way */
static void ab_answer(pb_answer *a, const pb_report_data *d, const pb_suite *s)
{
    int cells = 0, faster = 0, slower = 0, same = 0;
    const ratio_row *lo = NULL, *hi = NULL;
    for (size_t i = 0; i < d->nratios; i++) {
        const ratio_row *x = &d->ratios[i];
        if (!of_pair(d, s, x, s->candidate)) continue;
        const char *v = pb_verdict_ab(x->r.lo, x->r.hi);
        cells++;
        faster += v && !strcmp(v, "faster");
        slower += v && !strcmp(v, "slower");
        same += v && !strcmp(v, "no detectable change");
        if (!(x->r.est > 0)) continue;
        if (!lo || x->r.est < lo->r.est) lo = x;
        if (!hi || x->r.est > hi->r.est) hi = x;
    }
    if (cells == 1 && lo) ab_sentence(a->head, sizeof a->head, s->candidate, s->baseline, &lo->r);
    else {
        snprintf(a->head, sizeof a->head, "%d cells, %s against %s: ", cells, s->candidate, s->baseline);
        count(a->head, sizeof a->head, faster, "faster", "faster");
        count(a->head, sizeof a->head, slower, "slower", "slower");
        count(a->head, sizeof a->head, same, "no detectable change", "no detectable change");
        count(a->head, sizeof a->head, cells - faster - slower - same, "no data", "no data");
        char *p;
        if (lo && lo != hi && (p = piece(a, 1, -1))) {
            snprintf(p, PB_ANSWER_PIECE, "; time %s/%s", s->candidate, s->baseline);
            range(p, PB_ANSWER_PIECE, lo->r.est, hi->r.est);
        }
    }
    cpu_piece(a, d);
    /* every other command or impl against the same baseline (an N-command exec) */
    for (size_t i = 0; i < d->nratios; i++) {
        const ratio_row *x = &d->ratios[i];
        if (!of_pair(d, s, x, NULL) || strchr(x->cand, '@')) continue;
        int seen = 0, ncells = 0;
        for (size_t j = 0; j < d->nratios; j++) {
            seen |= j < i && of_pair(d, s, &d->ratios[j], x->cand);
            ncells += of_pair(d, s, &d->ratios[j], x->cand);
        }
        char *p;
        if (seen || ncells != 1 || !(p = piece(a, 4, -1))) continue;
        p[0] = ';';
        p[1] = ' ';
        ab_sentence(p + 2, PB_ANSWER_PIECE - 2, x->cand, s->baseline, &x->r);
    }
}

void pb_answer_of(pb_answer *a, const pb_report_data *d, const pb_suite *s, const pb_verdict_cfg *cfg,
                  const pb_verdict_counts *n)
{
    memset(a, 0, sizeof *a);
    snprintf(a->name, sizeof a->name, "%s", s->name);
    if (d->info[0].col[RUN_INFO_NOISE]) snprintf(a->noise, sizeof a->noise, "%s", d->info[0].col[RUN_INFO_NOISE]);
    a->ab = n->no_claim > 0 && !(n->holds + n->size_differs + n->does_not_hold + n->inconclusive);
    if (a->ab) ab_answer(a, d, s);
    else claim_answer(a, d, s, cfg, n);
    marks_of(n, a->marks, sizeof a->marks);
}

/* a piece without its joint, at the start of the second line */
static const char *unjointed(const char *p)
{
    if (p[0] == ';') p++;
    while (*p == ' ') p++;
    return p;
}

/* The pieces on[] (in their order) after start on one line; the first of them without its joint
 * where the line has no head. */
static void compose(char *buf, size_t cap, const char *start, const pb_answer *a, const int *on, int line)
{
    snprintf(buf, cap, "%s", start);
    int first = line >= 2;
    for (int i = 0; i < a->npieces; i++) {
        if (on[i] != line) continue;
        /* a piece shown where its joint makes sense: beside " on CPU" a semicolon reads as ";" */
        const char *t = first ? unjointed(a->piece[i]) : a->piece[i];
        if (!first && !strncmp(t, "; on ", 5)) t++;
        add(buf, cap, "%s", t);
        first = 0;
    }
}

/* Put on line the pieces that fit width beside those already there, by rank, a tied piece only where
 * the piece it is tied to is. */
static void fill(const pb_answer *a, int *on, int line, const char *start, int width, char *buf, size_t cap)
{
    /* twice: a piece tied to one of a later rank gets its turn once that one is placed */
    for (int pass = 0; pass < 2; pass++)
        for (int rank = 0; rank <= 9; rank++)
            for (int i = 0; i < a->npieces; i++) {
                if (on[i] || a->rank[i] != rank || (a->tied[i] >= 0 && on[a->tied[i]] != line)) continue;
                if (a->after[i] >= 0 && (!on[a->after[i]] || on[a->after[i]] > line)) continue;
                on[i] = line;
                compose(buf, cap, start, a, on, line);
                if (width > 0 && pb_utf8_cols(buf) > (size_t)width) on[i] = 0;
            }
    compose(buf, cap, start, a, on, line);
}

void pb_answer_text(const pb_answer *a, int bare, char *buf, size_t len)
{
    char head[PB_NAME_MAX + PB_ANSWER_PIECE + 4];
    snprintf(head, sizeof head, "%s%s%s", bare ? "" : a->name, bare ? "" : ": ", a->head);
    int on[PB_ANSWER_PIECES];
    for (int i = 0; i < PB_ANSWER_PIECES; i++) on[i] = 1;
    compose(buf, len, head, a, on, 1);
}

void pb_answer_print(FILE *f, const pb_answer *a, int width)
{
    enum { LINES = 4 };
    char l[LINES][2 * PB_ANSWER_PIECE * PB_ANSWER_PIECES + sizeof a->noise + 512];
    char head[PB_NAME_MAX + PB_ANSWER_PIECE + 4];
    snprintf(head, sizeof head, "%s: %s", a->name, a->head);
    int on[PB_ANSWER_PIECES] = {0}, last = 0;
    /* the first line: the head and what fits by rank; the next lines: the rest that fits, by rank
     * (a narrow terminal: why cells are inconclusive and what would settle it get lines of their
     * own, why first: the same rank); the reports have what fits none */
    fill(a, on, 1, head, width, l[0], sizeof l[0]);
    for (int i = 1; i < LINES; i++) {
        fill(a, on, i + 1, "  ", width, l[i], sizeof l[i]);
        if (strlen(l[i]) > 2) last = i;
    }
    /* the marks and the noise warning where they fit, on the last line (all of them with no width) */
    char *m = l[last > 0 ? last : 1];
    const char *more[3] = {a->marks[0] ? a->marks : NULL, a->noise[0] ? "noise: " : NULL,
                           a->noise[0] ? "a noisy run (its warning is in the report)" : NULL};
    for (int i = 0; i < 3; i++) {
        if (!more[i]) continue;
        size_t k = strlen(m);
        add(m, sizeof l[0], "%s%s%s", k > 2 ? "; " : "", more[i], i == 1 ? a->noise : "");
        if (width > 0 && pb_utf8_cols(m) > (size_t)width) m[k] = 0;
        else if (i == 1) break;   /* the whole warning: not its short form */
    }
    pb_term_verdict_line(f, width, l[0]);
    for (int i = 1; i < LINES; i++)
        if (strlen(l[i]) > 2) pb_term_verdict_line(f, width, l[i]);
}
