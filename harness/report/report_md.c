/* SPDX-License-Identifier: GPL-2.0-only */
/* report_md.c — the report's Markdown page of one suite: the run's header, the verdict table
 * (table.c), the other implementations' ratios, what is unavailable, the legend of the verdicts
 * (verdict.h) and the summary line. Reads only the loaded data (report_data.h). */
#include "answer.h"
#include "report_data.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "html.h"
#include "metrics.h"
#include "report_sides.h"
#include "text_out.h"

#define UNAVAILABLE_HERE "Unavailable here (reported, not counted as zero)"

/* "PREFIX: TEXT\n" where the store holds TEXT, as Markdown text (text_out.h) */
static void text_line(FILE *md, const char *prefix, const char *text, const char *suffix)
{
    if (!text) return;
    fputs(prefix, md);
    pb_md_text_fputs(md, text);
    fputs(suffix, md);
}

/* The run's provenance: every text of the store as Markdown text or, where it is machine words
 * (command lines, flags), as a code span; none of it can become markup or HTML. */
static void run_header(FILE *md, const run_info *ri, const char *label)
{
    if (!ri->have) return;
    char *const *c = ri->col;
    fprintf(md, "**%s: run %lld** (", label, (long long)ri->run);
    pb_md_text_fputs(md, c[0] ? c[0] : "");
    text_line(md, ", target ", c[14] ? c[14] : "", "");
    if (c[15] && *c[15]) text_line(md, ", guest kernel ", c[15], "");
    fputs(")\n\n", md);
    static const char *const names[] = {"git", "compiler", "flags", "CPU", "CPU flags", "kernel", "clock source",
                                  "governor", "boost", "tick source", "counters", "command", "options"};
    /* code spans fenced to fit what they hold (text_out.h): a command line may hold backquotes */
    for (int i = 0; i < 13; i++) {
        fprintf(md, "- %s: ", names[i]);
        pb_md_code_fputs(md, c[i + 1] ? c[i + 1] : "");
        fputc('\n', md);
        /* beside the model name, what tells CPU generations apart (identity.h) */
        if (i == 3) text_line(md, "- CPU identity: ", c[RUN_INFO_IDENTITY], "\n");
    }
    fputs("- libraries: ", md);
    pb_md_code_fputs(md, c[16] ? c[16] : "");
    fputc('\n', md);
    if (c[17]) {
        fputs("- suite settings derived on this machine: ", md);
        pb_md_code_fputs(md, c[17]);
        fputc('\n', md);
    }
    text_line(md, "- samples taken in the fast core state (core-speed probe): ", c[18], "\n");
    text_line(md, "- benchmark thread: ", c[19], "\n");
    text_line(md, "- load average (1 min): ", c[20], "\n");
    text_line(md, "\n**Noise warning: ", c[RUN_INFO_NOISE], ".** Read its numbers with that in mind.\n");
    /* the timed builds differ beyond the code under test (parity.h): the ratio measures that too */
    text_line(md, "\n**Build-parity warning: ", c[RUN_INFO_PARITY],
              ".** The ratio includes how the builds differ, not only the code.\n");
    fprintf(md, "\n");
}

/* Each impl's unavailable cells of run and the store's reason, under heading: beneath the figures
 * (the lines they lack; their panels note them too) and beneath the table. */
static void unavailable_notes(FILE *md, const pb_report_data *d, int64_t run, const char *heading)
{
    int first = 1;
    for (size_t i = 0; i < d->nnotes; i++) {
        const note_row *x = &d->notes[i];
        if (x->run != run) continue;
        if (first) fprintf(md, "%s:\n\n", heading);
        first = 0;
        text_line(md, "- ", x->impl ? x->impl : "", " (");
        text_line(md, "", x->cells ? x->cells : "", "): ");
        text_line(md, "", x->reason ? x->reason : "", "\n");
    }
    if (!first) fprintf(md, "\n");
}

/* What the verdicts mean, with the figures this report used. */
static void verdict_legend(FILE *md, const pb_suite *s, const char *metric, const pb_verdict_cfg *cfg, int have_doc)
{
    fprintf(md,
            "Each cell's implementations ran interleaved in rounds (rotating start); the ratio is the\n"
            "Hodges-Lehmann estimate over rounds of the paired ratio %s/%s, with its 95 %%\n"
            "Wilcoxon signed-rank confidence interval.\n\n"
            "**Every ratio here is one of time per operation (cost), X/%s: below 1, X is faster** (the\n"
            "orientation of `bench compare` and `bench gate`, cost B/A). The medians are in %s",
            s->candidate, s->baseline, s->baseline, pb_metric_words(metric));
    if (pb_metric_higher_is_better(metric))
        fprintf(md, "; a throughput ratio is the inverse of the time ratio (time 1.197 = throughput 0.836), so\n"
                    "the document's throughput figures are inverted too");
    fprintf(md, ".\n\n");
    if (!have_doc) {
        /* gbench, exec: no published table, so no document's ratio to judge against (docs/report.md) */
        fprintf(md,
                "**Verdicts** (on the time ratio's CI; tolerance t = %.2f, code-generation threshold %.2f, from %s):\n"
                "this suite has no document table, so no cell is judged against a published ratio. A claim the\n"
                "suite makes is judged on its direction only (*claim holds*, *claim does not hold*, *inconclusive\n"
                "here*); a cell without one is an A/B: *faster by X %%* or *slower by X %%* [its 95 %% CI] where\n"
                "the CI is wholly below or above 1, else *no detectable change*.\n\n",
                cfg->tolerance, cfg->codegen_threshold, cfg->source);
        return;
    }
    fprintf(md,
            "**Verdicts** (on the time ratio's CI; tolerance t = %.2f, code-generation threshold %.2f, from %s):\n\n"
            "- *claim holds*: the direction is right and the CI overlaps the document's ratio d widened by the\n"
            "  tolerance, [d/(1+t), d·(1+t)] (multiplicative, so a ratio of 0.5 and one of 1/8 get the same\n"
            "  relative room). Without a document number only the direction is judged. An *equal* claim holds\n"
            "  when the whole CI lies within [1/(1+t), 1+t]; *not slower* needs the CI below 1+t.\n"
            "- *direction holds, size differs*: the direction is right but the CI misses the document's band;\n"
            "  *measured/document* says by how much (and, for a speed-up, how large it is against the document's).\n"
            "- *claim does not hold*: *faster* shows no gain and rules out one of %.0f %% or, where the document\n"
            "  gives a number, every gain its band allows (CI wholly above d·(1+t)); *not slower* is slower by\n"
            "  more than t; *equal* lies wholly outside [1/(1+t), 1+t].\n"
            "- *inconclusive here*: anything else (the CI is too wide to tell on this machine).\n\n",
            cfg->tolerance, cfg->codegen_threshold, cfg->source, PB_VERDICT_MIN_GAIN * 100);
    fprintf(md,
            "**Code generation**: where the same sources were also built with another profile P (impls\n"
            "`%s@P`, `%s@P`, measured interleaved in the same cells), their ratio stands beside the faithful one,\n"
            "and a cell whose two time ratios differ by more than %.0f %% (|r_P/r - 1| > %.2f) is marked\n"
            "*depends on code generation*: that answer is the compiler's as much as the patch's.\n\n",
            s->candidate, s->baseline, cfg->codegen_threshold * 100, cfg->codegen_threshold);
}

static void write_summary(FILE *md, const pb_verdict_counts *n, int have_doc, int ab)
{
    char line[512];
    /* a user's A/B has no claim to count: its answer says it (answer.h) */
    if (!ab) {
        pb_verdict_summary(n, line, sizeof line);
        fprintf(md, "**Summary:** %s.\n\n", line);
    }
    if (n->does_not_hold)
        fprintf(md, "**This machine disagrees with the %s in %d of %d cells** (verdict: claim does not hold).\n\n",
                have_doc ? "document" : "suite's claim", n->does_not_hold, n->cells);
}

int pb_render_markdown(const pb_render_out *out, const pb_render_in *in, pb_err *e)
{
    const pb_suite *s = in->s;
    const pb_report_data *d = in->d;
    FILE *md = pb_stage_fopen(in->stage, out->name, e);
    if (!md) return -1;
    fprintf(md, "# %s — %s\n\n", s->name, s->title ? s->title : "");
    if (in->answer) {
        /* the finding first, in one line (answer.h); the counts, marks and noise come below */
        char line[4 * PB_ANSWER_PIECE * PB_ANSWER_PIECES];
        pb_answer_text(in->answer, 1, line, sizeof line);
        fputs("**Answer:** ", md);
        pb_md_text_fputs(md, line);
        fputs(".\n\n", md);
    }
    /* the document's words only where the suite has a document table (gbench, exec: none) */
    fprintf(md, "![%s: time ratios%s](%s_ratio.png)\n\n", s->name, d->doc.n ? " against the document" : "", s->name);
    fprintf(md, "![%s: measured medians%s](%s.png)\n\n", s->name, d->doc.n ? " beside the document's" : "", s->name);
    unavailable_notes(md, d, d->run, "No line in the figures where a case is unavailable");
    run_header(md, &d->info[0], "Measured");
    pb_report_sides_md(md, d);
    verdict_legend(md, s, pb_suite_primary_metric(s), in->cfg, d->doc.n > 0);
    pb_report_real_legend(md, d, s, d->run, 0, in->cfg, pb_md_text_fputs, "**Real code**: ", "\n\n");
    /* the verdicts were counted before (pb_report_count): the table's own count is not needed */
    pb_verdict_counts scratch;
    memset(&scratch, 0, sizeof scratch);
    pb_table_writer tw = {.f = md};
    pb_report_table(&tw, d, s, d->run, 0, in->cfg, &scratch);
    fprintf(md, "\n");
    write_summary(md, in->host, d->doc.n > 0, in->answer && in->answer->ab);
    unavailable_notes(md, d, d->run, UNAVAILABLE_HERE);
    pb_report_other_ratios(&tw, d, s, d->run);
    pb_report_spread_table(&tw, d);
    pb_decomp_md(md, &d->decomp);
    pb_report_why(md, d, s, 0);
    if (d->guest_run) {
        fprintf(md, "## Kernel-module variant\n\n");
        run_header(md, &d->info[1], "Kernel module");
        fprintf(md, "Timings under QEMU TCG are emulated (30-60x slower than hardware, ±25 %% between boots): only\n"
                    "the ratios measured within the same boot mean anything.\n\n");
        pb_report_real_legend(md, d, s, d->guest_run, 1, in->cfg, pb_md_text_fputs, "**Real code**: ", "\n\n");
        pb_report_table(&tw, d, s, d->guest_run, 1, in->cfg, &scratch);
        fprintf(md, "\n");
        write_summary(md, in->guest, d->doc.n > 0, 0);
        unavailable_notes(md, d, d->guest_run, UNAVAILABLE_HERE);
    }
    if (s->notes_md) fprintf(md, "## Notes\n\n%s\n", s->notes_md);
    return pb_stage_fclose(in->stage, md, out->name, e);
}
