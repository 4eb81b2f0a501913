/* SPDX-License-Identifier: GPL-2.0-only */
/* report_html.c — one suite's section of the self-contained HTML page of `bench report --html`:
 * the summary sentence, the ratio figure and the absolute figure as inline SVG (gnuplot's, read
 * back), the verdict table and the provenance. Every text from the store goes through
 * pb_html_escape (html.h); the page needs no network and no JavaScript. */
#include "answer.h"
#include "report_data.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "html.h"
#include "metrics.h"
#include "report_machines.h"
#include "report_sides.h"

void pb_report_html_begin(FILE *f, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>", f);
    pb_html_fputs(f, title);
    fputs("</title>\n<style>\n"
          "body{font-family:sans-serif;margin:1.5em auto;max-width:1200px;padding:0 1em;color:#111}\n"
          "table{border-collapse:collapse;font-size:0.85em;margin:1em 0}\n"
          "th,td{border:1px solid #bbb;padding:0.2em 0.45em;text-align:right;white-space:nowrap}\n"
          "th{background:#eee}td:nth-child(-n+3){text-align:left}th{white-space:normal}\n"
          /* verdict colours, each beside a text marker (table.c): never colour alone */
          "td.verdict{font-weight:bold}.v-holds{background:#9fe0a0}.v-size{background:#ffd866}"
          ".v-not{background:#f59a9a}.v-inconclusive{background:#c9c9f2}.v-none{background:#e4e4e4}\n"
          ".summary{font-size:1.1em;background:#f4f4f4;padding:0.5em;border-left:4px solid #d09000;margin:1em 0}\n"
          ".summary p{margin:0.2em 0}.summary p.noise{font-size:0.85em}\n"
          ".tbl{overflow-x:auto}nav a{margin-right:1em}figure{margin:1em 0}svg{max-width:100%;height:auto}\n"
          ".warn{background:#fff0e0;padding:0.5em;border-left:4px solid #c03000}\n"
          "dl{font-size:0.8em}dt{font-weight:bold}dd{margin:0 0 0.3em 1em;font-family:monospace}\n"
          "</style></head><body>\n<h1>", f);
    pb_html_fputs(f, title);
    fputs("</h1>\n", f);
}

void pb_report_html_nav(FILE *f, const char *const *suites, int n)
{
    fputs("<nav>Suites: ", f);
    for (int i = 0; i < n; i++) {
        fputs("<a href=\"#suite-", f);
        pb_html_fputs(f, suites[i]);
        fputs("\">", f);
        pb_html_fputs(f, suites[i]);
        fputs("</a>", f);
    }
    fputs("</nav>\n", f);
}

void pb_report_html_end(FILE *f)
{
    fputs("<p><small>Written by <code>bench report --html</code>; numbers as measured, never rounded toward the "
          "documents.</small></p>\n</body></html>\n",
          f);
}

/* gnuplot's SVG file name, staged in st (it was drawn in this report, never an older one), from its
 * <svg> element on, into f. An SVG that holds a script or foreign content is refused: the page
 * must not run code. */
static int inline_svg(FILE *f, const pb_stage *st, const char *name, pb_err *e)
{
    char path[1300];
    pb_stage_shown(st, name, path, sizeof path);
    int fd = openat(st->fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    FILE *in = fd < 0 ? NULL : fdopen(fd, "r");
    if (!in) {
        int err = errno;
        if (fd >= 0) close(fd);
        return pb_errf(e, "cannot read %s: %s", path, strerror(err));
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n - 1, in)) > 0) {
        n += got;
        if (n + 1 == cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) { free(buf); buf = NULL; break; }
            buf = nb;
            cap *= 2;
        }
    }
    int err = ferror(in);
    fclose(in);
    if (!buf) return pb_errf(e, "out of memory reading %s", path);
    buf[n] = 0;
    const char *svg = strstr(buf, "<svg");
    int rc = 0;
    if (err || !svg) rc = pb_errf(e, "%s: not an SVG file", path);
    for (const char *p = buf; rc == 0 && *p; p++)
        if (*p == '<' && (!strncasecmp(p + 1, "script", 6) || !strncasecmp(p + 1, "foreignobject", 13)))
            rc = pb_errf(e, "%s: refusing an SVG that holds a script or foreign content", path);
    if (rc == 0) fputs(svg, f);
    free(buf);
    return rc;
}

int pb_report_html_svg(FILE *f, const pb_stage *st, const char *name, pb_err *e) { return inline_svg(f, st, name, e); }

/* The machine in the section's header, visible: the model name and what tells CPU generations
 * apart (identity.h); the rest of the provenance is folded below the table. */
static void machine_line(FILE *f, const run_info *ri, const char *label)
{
    if (!ri->have) return;
    fprintf(f, "<p class=\"machine\"><strong>%s: run %lld, CPU</strong> ", label, (long long)ri->run);
    pb_html_fputs(f, ri->col[4] ? ri->col[4] : "unknown");
    fputs(": ", f);
    pb_html_fputs(f, ri->col[RUN_INFO_IDENTITY] ? ri->col[RUN_INFO_IDENTITY] : "not recorded");
    fputs("</p>\n", f);
}

/* Inside the summary box, beside the summary line: the run's noise warning, the reason a verdict
 * may read "inconclusive here" (nothing where the run drew none). */
static void noise_reason(FILE *f, const run_info *ri, const char *label)
{
    if (!ri->have || !ri->col[RUN_INFO_NOISE]) return;
    fprintf(f, "<p class=\"noise\"><strong>%s: run %lld, noise warning:</strong> ", label, (long long)ri->run);
    pb_html_fputs(f, ri->col[RUN_INFO_NOISE]);
    fputs(". Read its numbers with that in mind: it is what makes a verdict inconclusive here.</p>\n", f);
}

/* The verdict tables of run (guest: its kernel-module rows): the answer first, in view at 1280 px
 * (verdict, cell, measured ratio, the document's, measured/document, the real code's); the medians
 * and every other column in a second table, folded below it. */
static void verdict_tables(FILE *f, const pb_report_data *d, const pb_suite *s, int64_t run, int guest,
                           const pb_verdict_cfg *cfg)
{
    pb_verdict_counts scratch;
    memset(&scratch, 0, sizeof scratch);
    pb_table_writer tw = {.f = f, .html = 1, .part = PB_TABLE_ANSWER};
    fputs("<div class=\"tbl\"><table class=\"answer\">\n", f);
    pb_report_table(&tw, d, s, run, guest, cfg, &scratch);
    fputs("</table></div>\n<details><summary>Medians, claims and the other columns of each cell</summary>\n"
          "<div class=\"tbl\"><table>\n", f);
    tw.part = PB_TABLE_DETAIL;
    pb_report_table(&tw, d, s, run, guest, cfg, &scratch);
    fputs("</table></div></details>\n", f);
}

static void provenance(FILE *f, const run_info *ri, const char *label)
{
    if (!ri->have) return;
    static const char *const names[] = {"started", "git", "compiler", "flags", "CPU", "CPU flags", "kernel",
                                  "clock source", "governor", "boost", "tick source", "counters", "command",
                                  "options", "target", "guest kernel", "libraries",
                                  "suite settings derived on this machine", "samples in the fast core state",
                                  "benchmark thread", "load average (1 min)", "noise warning", "CPU identity",
                                  "build-parity warning"};
    _Static_assert(sizeof names / sizeof names[0] == RUN_INFO_COLS, "a name per header field");
    if (ri->col[RUN_INFO_PARITY]) {
        fprintf(f, "<p class=\"warn\"><strong>%s: run %lld, build-parity warning:</strong> ", label, (long long)ri->run);
        pb_html_fputs(f, ri->col[RUN_INFO_PARITY]);
        fputs(". The ratio includes how the builds differ, not only the code.</p>\n", f);
    }
    fprintf(f, "<details><summary>%s: run %lld, provenance</summary><dl>\n", label, (long long)ri->run);
    for (int i = 0; i < RUN_INFO_COLS; i++) {
        if (!ri->col[i] || !*ri->col[i]) continue;
        fprintf(f, "<dt>%s</dt><dd>", names[i]);
        pb_html_fputs(f, ri->col[i]);
        fputs("</dd>\n", f);
    }
    fputs("</dl></details>\n", f);
}

/* Beneath the ratio figure, what it lacks: each impl's unavailable cells of run and the store's
 * reason (the figure's panels note them too). */
static void missing_caption(FILE *f, const pb_report_data *d, int64_t run)
{
    int first = 1;
    for (size_t i = 0; i < d->nnotes; i++) {
        const note_row *x = &d->notes[i];
        if (x->run != run) continue;
        fputs(first ? " No line where a case is unavailable: " : "; ", f);
        first = 0;
        pb_html_fputs(f, x->impl ? x->impl : "");
        fputs(" (", f);
        pb_html_fputs(f, x->cells ? x->cells : "");
        fputs("): ", f);
        pb_html_fputs(f, x->reason ? x->reason : "");
    }
    if (!first) fputs(".", f);
}

int pb_render_html(const pb_render_out *out, const pb_render_in *in, pb_err *e)
{
    FILE *f = out->f;
    const pb_suite *s = in->s;
    const pb_report_data *d = in->d;
    const pb_verdict_cfg *cfg = in->cfg;
    char line[512];
    fputs("<section id=\"suite-", f);
    pb_html_fputs(f, s->name);
    fputs("\">\n<h2>", f);
    pb_html_fputs(f, s->name);
    fputs(" — ", f);
    pb_html_fputs(f, s->title ? s->title : "");
    fputs("</h2>\n<div class=\"summary\"><p><strong>", f);
    pb_html_fputs(f, s->name);
    fputs(" summary:</strong> ", f);
    /* the answer first (answer.h); the full counts and marks under it, never for a user's A/B */
    char answer[4 * PB_ANSWER_PIECE * PB_ANSWER_PIECES];
    if (in->answer) pb_answer_text(in->answer, 1, answer, sizeof answer);
    else pb_verdict_summary(in->host, answer, sizeof answer);
    pb_html_fputs(f, answer);
    fputs(".</p>\n", f);
    if (in->answer && !in->answer->ab) {
        pb_verdict_summary(in->host, line, sizeof line);
        fputs("<p class=\"counts\">", f);
        pb_html_fputs(f, line);
        fputs(".</p>\n", f);
    }
    noise_reason(f, &d->info[0], "Measured");
    fputs("</div>\n", f);
    machine_line(f, &d->info[0], "Measured");
    pb_report_sides_html(f, d);
    fprintf(f, "<p>Every ratio is one of <strong>time per operation (cost), X/");
    pb_html_fputs(f, s->baseline);
    fprintf(f, ": below 1, X is faster</strong> (as <code>bench compare</code> and <code>bench gate</code>); "
               "medians in %s. ", pb_metric_words(pb_suite_primary_metric(s)));
    /* the document's words only where the suite has a document table (gbench, exec, a plug-in's run: none) */
    if (d->doc.n)
        fprintf(f, "Verdicts judge the 95 %% CI against the document's ratio with tolerance t = %.2f.</p>\n",
                cfg->tolerance);
    else
        fputs("This suite has no document table: no document ratio is drawn or judged against; a claim the suite "
              "makes is judged on its direction only.</p>\n", f);
    pb_report_real_legend(f, d, s, d->run, 0, cfg, pb_html_fputs, "<p><strong>Real code</strong>: ", "</p>\n");
    verdict_tables(f, d, s, d->run, 0, cfg);
    pb_table_writer tw = {.f = f, .html = 1};
    pb_report_other_ratios(&tw, d, s, d->run);
    pb_report_spread_table(&tw, d);
    pb_decomp_html(f, &d->decomp);
    pb_report_why(f, d, s, 1);
    /* the figure after the verdicts: the first screen shows what the run concluded */
    fputs("<figure>\n", f);
    if (inline_svg(f, in->stage, in->figures->ratio_svg, e) < 0) return -1;
    fprintf(f, "<figcaption>Time ratios against the baseline%s.", d->doc.n ? ", with the document's ratio in its "
                                                                           "tolerance band" : "");
    missing_caption(f, d, d->run);
    fputs("</figcaption></figure>\n", f);
    provenance(f, &d->info[0], "Measured");
    if (d->guest_run) {
        fputs("<h3>Kernel-module variant (QEMU TCG: only ratios within one boot mean anything)</h3>\n"
              "<div class=\"summary\"><p>", f);
        pb_verdict_summary(in->guest, line, sizeof line);
        pb_html_fputs(f, line);
        fputs(".</p>\n", f);
        noise_reason(f, &d->info[1], "Kernel module");
        fputs("</div>\n", f);
        machine_line(f, &d->info[1], "Kernel module");
        pb_report_real_legend(f, d, s, d->guest_run, 1, cfg, pb_html_fputs, "<p><strong>Real code</strong>: ", "</p>\n");
        verdict_tables(f, d, s, d->guest_run, 1, cfg);
        provenance(f, &d->info[1], "Kernel module");
    }
    fprintf(f, "<details><summary>Measured medians%s (absolute)</summary>\n<figure>\n",
            d->doc.n ? " beside the document's" : "");
    if (inline_svg(f, in->stage, in->figures->svg, e) < 0) return -1;
    fputs("</figure></details>\n</section>\n", f);
    return 0;
}
