/* SPDX-License-Identifier: GPL-2.0-only */
/* decompose_out.c — the decomposition's outputs (decompose.h): the Markdown and HTML sections of a
 * suite's report, `bench report`'s lines and the JSON export's array. Each writes nothing where the
 * set has no count run, so that a report without one is what it was, byte for byte. */
#include "decompose.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "export.h"
#include "fmt.h"
#include "html.h"
#include "term.h"
#include "text_out.h"

/* "256-bit enc 4 KiB", "BM_fnv/4096 run" (a cell without a size: fmt.h) */
static const char *cell_name(const pb_decomp_cell *c, char *buf, size_t cap)
{
    char b[32];
    if (c->size > 0) snprintf(buf, cap, "%s %s %s", c->variant, c->op, pb_fmt_bytes(b, sizeof b, c->size));
    else snprintf(buf, cap, "%s %s", c->variant, c->op);
    return buf;
}

/* "1.021 [1.010, 1.032]", or the estimate alone where the CI is not known */
static const char *with_ci(double x, double lo, double hi, char *buf, size_t cap)
{
    if (isfinite(lo) && isfinite(hi)) snprintf(buf, cap, "%.3f [%.3f, %.3f]", x, lo, hi);
    else snprintf(buf, cap, "%.3f (no CI)", x);
    return buf;
}

/* the time ratio with its CI where the CI is usable (pb_decomp_of: the cost is known then) */
static const char *time_ci(const pb_decomp *d, char *buf, size_t cap)
{
    int known = d->cost != PB_DECOMP_UNKNOWN;
    return with_ci(d->time, known ? d->time_lo : NAN, known ? d->time_hi : NAN, buf, cap);
}

/* One output language: its quoting of store text and its markup around the same words. */
typedef struct decomp_lang {
    void (*text)(FILE *f, const char *s);
    const char *head, *intro_end, *table_open, *row_open, *sep, *row_close, *table_close, *caveat_open,
        *settings_open, *caveat_close;
} decomp_lang;

static void intro(FILE *f, const pb_decomp_set *set, const decomp_lang *L)
{
    fputs(L->head, f);
    fprintf(f, "Run %lld (wall time) and run %lld (counts, --measure valgrind) measured the same build (commit, "
               "compiler, flags, libraries) on the same machine. Per cell, the time ratio = the instruction ratio "
               "× the time-per-instruction ratio. The time ratio's 95 %% CI includes code layout; the counts are "
               "exact, so the time-per-instruction ratio's CI is the time ratio's divided by the instruction "
               "ratio, and the reading says which of the two moved beyond it. The counts are of the whole "
               "operation, the harness's own per-call code included; a time-per-instruction ratio mixes memory, "
               "branch, layout and micro-architecture effects (docs/why.md).",
            (long long)set->time_run, (long long)set->count_run);
    fputs(L->intro_end, f);
}

static void section(FILE *f, const pb_decomp_set *set, const decomp_lang *L)
{
    if (!set->count_run || !set->n) return;
    intro(f, set, L);
    fputs(L->table_open, f);
    for (size_t i = 0; i < set->n; i++) {
        const pb_decomp_cell *c = &set->v[i];
        char name[4 * PB_NAME_MAX], pair[5 * PB_NAME_MAX], t[80], k[80], words[512];
        snprintf(pair, sizeof pair, "%s/%s", c->cand, c->base);
        fputs(L->row_open, f);
        L->text(f, cell_name(c, name, sizeof name));
        fputs(L->sep, f);
        L->text(f, pair);
        fputs(L->sep, f);
        fputs(time_ci(&c->d, t, sizeof t), f);
        fprintf(f, "%s%.4f%s", L->sep, c->d.insns, L->sep);
        fputs(with_ci(c->d.per_insn, c->d.per_insn_lo, c->d.per_insn_hi, k, sizeof k), f);
        fputs(L->sep, f);
        L->text(f, pb_decomp_sentence(&c->d, c->cand, words, sizeof words));
        fputs(L->row_close, f);
    }
    fputs(L->table_close, f);
    if (*set->caveat) {
        fputs(L->caveat_open, f);
        L->text(f, set->caveat);
        fputs(L->caveat_close, f);
    }
    if (*set->settings) {
        fputs(L->settings_open, f);
        L->text(f, set->settings);
        fputs(L->caveat_close, f);
    }
}

void pb_decomp_md(FILE *f, const pb_decomp_set *set)
{
    static const decomp_lang L = {
        pb_md_text_fputs, "## Why: instructions × time per instruction\n\n", "\n\n",
        "| cell | ratio | time [95 % CI] | instructions (exact) | time per instruction [95 % CI] | reading |\n"
        "|---|---|---|---|---|---|\n",
        "| ", " | ", " |\n", "\n", "**Counts under Valgrind:** ",
        "**The count run's suite settings** (not the timed run's; the time per instruction includes the difference): ",
        ".\n\n"};
    section(f, set, &L);
}

void pb_decomp_html(FILE *f, const pb_decomp_set *set)
{
    static const decomp_lang L = {
        pb_html_fputs, "<h3>Why: instructions × time per instruction</h3>\n<p>", "</p>\n",
        "<div class=\"tbl\"><table class=\"why\">\n<tr><th>cell</th><th>ratio</th><th>time [95 % CI]</th>"
        "<th>instructions (exact)</th><th>time per instruction [95 % CI]</th><th>reading</th></tr>\n",
        "<tr><td>", "</td><td>", "</td></tr>\n", "</table></div>\n", "<p class=\"warn\"><strong>Counts under "
        "Valgrind:</strong> ", "<p class=\"warn\"><strong>The count run's suite settings</strong> (not the timed "
        "run's; the time per instruction includes the difference): ", ".</p>\n"};
    section(f, set, &L);
}

static int is_pair(const pb_decomp_cell *c, const char *base, const char *cand)
{
    return !strcmp(c->base, base) && !strcmp(c->cand, cand);
}

void pb_decomp_print(FILE *f, const pb_decomp_set *set, const char *suite, const char *base, const char *cand,
                     int width)
{
    if (!set->count_run || !set->n) return;
    /* the suite's own pair where the runs have it, else every pair, each line naming its own */
    int main_pair = 0;
    for (size_t i = 0; i < set->n && !main_pair; i++) main_pair = is_pair(&set->v[i], base, cand);
    char line[1400], safe[1400];
    snprintf(line, sizeof line, "%s why (run %lld's counts, the same build): time = instructions × time per instruction%s%s%s",
             suite, (long long)set->count_run, main_pair ? ", " : "", main_pair ? cand : "", main_pair ? "/" : "");
    if (main_pair) snprintf(line + strlen(line), sizeof line - strlen(line), "%s", base);
    pb_term_line(f, width, pb_term_text(safe, sizeof safe, line));
    for (size_t i = 0; i < set->n; i++) {
        const pb_decomp_cell *c = &set->v[i];
        if (main_pair && !is_pair(c, base, cand)) continue;
        char name[4 * PB_NAME_MAX], t[80], k[80], words[512];
        char pair[5 * PB_NAME_MAX + 2] = "";
        if (!main_pair) snprintf(pair, sizeof pair, " %s/%s", c->cand, c->base);
        snprintf(line, sizeof line, "  %s%s: %s = %.4f × %s", cell_name(c, name, sizeof name), pair,
                 time_ci(&c->d, t, sizeof t),
                 c->d.insns, with_ci(c->d.per_insn, c->d.per_insn_lo, c->d.per_insn_hi, k, sizeof k));
        pb_term_line(f, width, pb_term_text(safe, sizeof safe, line));
        snprintf(line, sizeof line, "    %s", pb_decomp_sentence(&c->d, c->cand, words, sizeof words));
        pb_term_wrap(f, width, pb_term_text(safe, sizeof safe, line));
    }
}

static json_t *real_or_null(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

/* {"estimate": x, "ci_lo": lo, "ci_hi": hi}, null where not known */
static json_t *with_ci_json(double x, double lo, double hi)
{
    json_t *o = json_object();
    json_object_set_new(o, "estimate", real_or_null(x));
    json_object_set_new(o, "ci_lo", real_or_null(lo));
    json_object_set_new(o, "ci_hi", real_or_null(hi));
    return o;
}

static void cells_json(json_t *a, const pb_decomp_set *set)
{
    for (size_t i = 0; i < set->n; i++) {
        const pb_decomp_cell *c = &set->v[i];
        const int known = c->d.cost != PB_DECOMP_UNKNOWN;
        char words[512];
        json_t *o = json_object();
        json_object_set_new(o, "run_id", json_integer(set->time_run));
        json_object_set_new(o, "count_run_id", json_integer(set->count_run));
        json_object_set_new(o, "variant", pb_json_text(c->variant));
        json_object_set_new(o, "op", pb_json_text(c->op));
        json_object_set_new(o, "size_bytes", json_integer(c->size));
        json_object_set_new(o, "baseline", pb_json_text(c->base));
        json_object_set_new(o, "candidate", pb_json_text(c->cand));
        json_object_set_new(o, "time_ratio", with_ci_json(c->d.time, known ? c->d.time_lo : NAN,
                                                          known ? c->d.time_hi : NAN));
        json_object_set_new(o, "instruction_ratio", real_or_null(c->d.insns));
        json_object_set_new(o, "time_per_instruction_ratio",
                            with_ci_json(c->d.per_insn, c->d.per_insn_lo, c->d.per_insn_hi));
        json_object_set_new(o, "explained_by", json_string(pb_decomp_explained_by(&c->d)));
        json_object_set_new(o, "reading", pb_json_text(pb_decomp_sentence(&c->d, c->cand, words, sizeof words)));
        json_array_append_new(a, o);
    }
}

json_t *pb_decomp_json(pb_store *st, const int64_t *ids, int n)
{
    json_t *a = json_array();
    for (int r = 0; r < n; r++) {
        pb_decomp_set set;
        if (pb_decomp_load(st, ids[r], &set, NULL) < 0) break;
        cells_json(a, &set);
        pb_decomp_free(&set);
    }
    return a;
}
