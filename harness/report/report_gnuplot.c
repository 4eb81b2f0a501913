/* SPDX-License-Identifier: GPL-2.0-only */
/* report_gnuplot.c — the report's plots: names quoted by the one tested function (pb_gp_quote),
 * gnuplot started without a shell. Reads only the loaded data (report_data.h). */
#include "report_data.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fmt.h"
#include "metrics.h"
#include "pb_spawn.h"

int pb_gp_quote(char *out, size_t cap, const char *in, pb_err *e)
{
    size_t k = 0;
    /* gnuplot 5.4 misreads a doubled quote right after the opening one or after another doubled
     * quote ('''x', 'a''''b'): such text could end the string early, so it is refused */
    if (in[0] == '\'' || strstr(in, "''"))
        return pb_errf(e, "refusing '%.200s' in a plot: a leading or repeated single quote", in);
    for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
        if (*p == '`') return pb_errf(e, "refusing '%.200s' in a plot: a backquote would run a command in gnuplot", in);
        if (*p == '"') return pb_errf(e, "refusing '%.200s' in a plot: it holds a double quote", in);
        if (*p < 0x20 || *p == 0x7f)
            return pb_errf(e, "refusing a name in a plot: it holds control character 0x%02x", (unsigned)*p);
        size_t need = *p == '\'' ? 2 : 1;
        if (k + need + 1 > cap) return pb_errf(e, "refusing '%.200s' in a plot: too long", in);
        if (*p == '\'') out[k++] = '\'';
        out[k++] = (char)*p;
    }
    if (cap == 0) return pb_errf(e, "no room to quote '%.200s'", in);
    out[k] = 0;
    return 0;
}

const char *pb_gpq_text(pb_gpq *g, const char *in)
{
    char *b = g->buf[g->next++ % 4];
    if (pb_gp_quote(b, sizeof g->buf[0], in, g->bad ? &(pb_err){{0}} : &g->err) < 0) {
        g->bad = 1;
        b[0] = 0;
    }
    return b;
}

/* gnuplot's path, found on PATH without a shell; 0 if it is not there */
int pb_report_find_gnuplot(char *path, size_t cap)
{
    return pb_find_program("gnuplot", path, cap);
}

int pb_report_run_gnuplot(const char *gnuplot, pb_stage *st, const char *script, const char *log, pb_err *e)
{
    char shown_script[1300], shown_log[1300];
    pb_stage_shown(st, script, shown_script, sizeof shown_script);
    pb_stage_shown(st, log, shown_log, sizeof shown_log);
    int logfd = pb_stage_create(st, log, e);
    if (logfd < 0) return -1;
    char arg[300];
    /* a name that starts with '-' must not read as an option */
    snprintf(arg, sizeof arg, "./%s", script);
    char *argv[] = {"gnuplot", arg, NULL};
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa)) { close(logfd); return pb_errf(e, "cannot start gnuplot: out of memory"); }
    /* gnuplot works in the private folder, where every name in the script is a file of ours
     * (out_stage.h): the folder the user named never reaches the script */
    int rc = posix_spawn_file_actions_addfchdir_np(&fa, st->fd);
    if (!rc) rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (!rc) rc = posix_spawn_file_actions_adddup2(&fa, logfd, 2);
    pid_t pid;
    extern char **environ;
    if (!rc) rc = posix_spawn(&pid, gnuplot, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(logfd);
    if (rc) return pb_errf(e, "cannot start %s: %s", gnuplot, strerror(rc));
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return pb_errf(e, "waiting for gnuplot: %s", strerror(errno));
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
    /* the log is what says why: it is kept, the figures are not */
    pb_err le = {{0}};
    if (pb_stage_commit_one(st, log, &le) < 0) snprintf(shown_log, sizeof shown_log, "(log lost: %.200s)", le.msg);
    if (WIFEXITED(status))
        return pb_errf(e, "gnuplot failed on %s (exit %d); see %s", shown_script, WEXITSTATUS(status), shown_log);
    return pb_errf(e, "gnuplot failed on %s (signal %d); see %s", shown_script,
                   WIFSIGNALED(status) ? WTERMSIG(status) : 0, shown_log);
}

/* A figure whose values span more than this factor (largest over smallest) gets a log y axis: on a
 * linear one a 48 ns bar beside one of 7.8 us is a line on the floor. */
#define FIG_LOG_SPAN 100.0
/* Room around the drawn values: on a log axis a factor, on a linear one above the largest. */
#define FIG_Y_ROOM 1.25
#define FIG_Y_ROOM_LINEAR 1.08
/* The x range of a size axis reaches this factor beyond the smallest and the largest size: a tic on
 * the range's very edge can be lost to rounding in log space (xts.png lost its 32 KiB), and the
 * ratio figure draws its series up to 2^(0.05 * MAXSERIES / 2) apart (point_x). */
#define FIG_X_ROOM 1.5

/* The values a figure draws, for its one y range: its panels share it, so that two panels read
 * alike (empty: hi == 0). */
typedef struct yspan {
    double lo, hi;
} yspan;

static void span_add(yspan *sp, double v)
{
    if (!isfinite(v) || v <= 0) return;
    if (sp->hi == 0 || v < sp->lo) sp->lo = v;
    if (v > sp->hi) sp->hi = v;
}

static int span_is_log(const yspan *sp) { return sp->hi > 0 && sp->hi / sp->lo > FIG_LOG_SPAN; }

/* The figure's one y axis, set before its panels: on a log scale of base log_base when asked (time
 * ratios, whose 1/2 and 2 are as far from 1) or base 10 when the values span decades, else linear
 * from 0; its label says which. */
static void write_yaxis(FILE *gp, const yspan *sp, int log_base, const char *label, pb_gpq *g)
{
    int logscale = log_base || span_is_log(sp);
    if (logscale) {
        fprintf(gp, "set logscale y %d\n", log_base ? log_base : 10);
        if (sp->hi > 0) fprintf(gp, "set yrange [%.6g:%.6g]\n", sp->lo / FIG_Y_ROOM, sp->hi * FIG_Y_ROOM);
        if (log_base == 2) pb_fig_ratio_tics(gp, sp->lo / FIG_Y_ROOM, sp->hi * FIG_Y_ROOM);
    } else {
        fprintf(gp, "unset logscale y\n");
        if (sp->hi > 0) fprintf(gp, "set yrange [0:%.6g]\n", sp->hi * FIG_Y_ROOM_LINEAR);
    }
    fprintf(gp, "set ylabel '%s%s'\n", pb_gpq_text(g, label), logscale ? " (log scale)" : "");
}

/* x tics at every measured size, labelled in binary units ("32 KiB", never gnuplot's "33kB"), on a
 * log2 axis a little wider than the sizes (FIG_X_ROOM); a size of 0 (a suite without sizes) is no
 * point of a log axis. */
static void write_size_xaxis(FILE *gp, const axes *a)
{
    int n = 0;
    int64_t lo = 0, hi = 0;
    fprintf(gp, "set logscale x 2\nset xtics (");
    for (int i = 0; i < a->ns; i++) {
        if (a->sizes[i] <= 0) continue;
        char b[32];
        fprintf(gp, "%s'%s' %lld", n ? ", " : "", pb_fmt_bytes(b, sizeof b, a->sizes[i]), (long long)a->sizes[i]);
        if (!n) lo = a->sizes[i];
        hi = a->sizes[i];
        n++;
    }
    fprintf(gp, ")%s\n", n > 4 ? " rotate by -30" : "");
    if (n) fprintf(gp, "set xrange [%.6g:%.6g]\n", (double)lo / FIG_X_ROOM, (double)hi * FIG_X_ROOM);
}

/* Text of the store (a case's reason) for a figure's note: the characters the quoting function
 * refuses in a gnuplot string (a double quote, a backquote, control characters, a single quote,
 * which it would refuse where doubled) become their typographic or blank stand-ins, so that a
 * reason is shown, never run, and never refuses the figure. */
static void note_text(char *out, size_t cap, const char *in)
{
    size_t k = 0;
    for (const unsigned char *p = (const unsigned char *)in; *p && k + 4 < cap; p++) {
        const char *sub = *p == '\'' ? "\xe2\x80\x99" : *p == '"' ? "\xe2\x80\x9d" : *p == '`' ? "\xe2\x80\x98" : NULL;
        if (sub) { memcpy(out + k, sub, 3); k += 3; }
        else out[k++] = *p < 0x20 || *p == 0x7f ? ' ' : (char)*p;
    }
    out[k] = 0;
}

/* A panel holds at most this many notes, one a line below its x axis (FIG_NOTE_FOOT lines down,
 * past the tics and the axis label: drawn over the data they hid it), and a note at most
 * FIG_NOTE_CHARS characters, about what a panel of a multiplot is wide at the figures' font. */
#define FIG_NOTES_MAX 6
#define FIG_NOTE_FOOT 4.5
#define FIG_NOTE_CHARS 80

/* cut text after FIG_NOTE_CHARS characters (UTF-8: on a character's first byte), marked by "..." */
static void fig_note_clip(char *text)
{
    int chars = 0;
    for (const char *p = text; *p; p++) chars += ((unsigned char)*p & 0xc0) != 0x80;
    if (chars <= FIG_NOTE_CHARS) return;
    chars = 0;
    for (char *p = text; *p; p++) {
        if (((unsigned char)*p & 0xc0) == 0x80) continue;
        if (++chars > FIG_NOTE_CHARS - 3) { strcpy(p, "..."); return; }
    }
}

/* Note number k of a panel: "LEAD: why", why from the store for impl's case (variant, op) of run
 * (pb_report_missing_reason: its unavailable case's reason). A missing line must not read as one
 * hidden behind another. The notes go with the panel: unset before the next one. */
static void write_missing_note(FILE *gp, int k, const pb_report_data *d, int64_t run, const char *lead,
                               const char *impl, const char *variant, const char *op, pb_gpq *g)
{
    char why[600], words[800], text[1200];
    if (k >= FIG_NOTES_MAX - 1) {
        /* a panel that lacks many lines: the last note slot counts the rest (label FIG_NOTES_MAX is set
         * again by each, gnuplot keeps the last), so the notes stay inside the panel */
        snprintf(words, sizeof words, "and %d more missing: the reasons are in the table", k - FIG_NOTES_MAX + 2);
        k = FIG_NOTES_MAX - 1;
    } else {
        pb_report_missing_reason(d, run, impl, variant, op, why, sizeof why);
        snprintf(words, sizeof words, "%s: %s", lead, why);
    }
    note_text(text, sizeof text, words);
    fig_note_clip(text);
    /* below the panel's x axis, out of its data: the panel's foot grows a line per note (gnuplot
     * keeps the last bmargin set before the plot; FIG_NOTE_FOOT lines for the tics and the label) */
    fprintf(gp, "set bmargin %.1f\nset label %d '%s' at graph 0, graph 0 offset 0,%.1f left front font ',%d' "
            "textcolor rgb '#a00000'\n", FIG_NOTE_FOOT + 1.2 * (k + 1), k + 1, pb_gpq_text(g, text),
            -(FIG_NOTE_FOOT - 0.5) - 1.2 * k, PB_FIG_FONT_PT);
}

/* Does run (guest: the kernel-module rows) have any row in (variant, op)? A missing line is noted
 * only in a panel its run measured. */
static int run_has_cell(const rows *m, int guest, const char *variant, const char *op)
{
    for (int i = 0; i < m->n; i++)
        if (m->v[i].guest == guest && !strcmp(m->v[i].variant, variant) && !strcmp(m->v[i].op, op)) return 1;
    return 0;
}

/* The notes of panel (variant, op) of the medians' figures: each impl of the figure's runs without a
 * row there, in a panel its run measured. */
static void write_panel_notes(FILE *gp, const pb_report_data *d, const axes *a, const char *what,
                              const char *variant, const char *op, pb_gpq *g)
{
    int k = 0;
    for (int guest = 0; guest < 2; guest++) {
        if (!run_has_cell(&d->m, guest, variant, op)) continue;
        for (int i = 0; i < a->ni; i++) {
            int in_run = 0, here = 0;
            for (int r = 0; r < d->m.n; r++) {
                const row *x = &d->m.v[r];
                if (x->guest != guest || strcmp(x->impl, a->impl[i])) continue;
                in_run = 1;
                here |= !strcmp(x->variant, variant) && !strcmp(x->op, op);
            }
            if (!in_run || here) continue;
            char lead[PB_NAME_MAX + 64];
            snprintf(lead, sizeof lead, "no %s for %s", what, a->impl[i]);
            write_missing_note(gp, k++, d, guest ? d->guest_run : d->run, lead, a->impl[i], variant, op, g);
        }
    }
}

/* The medians' figures' one y range: every measured median and spread, every document value. */
static void medians_span(const pb_report_data *d, yspan *sp)
{
    for (int pass = 0; pass < 2; pass++) {
        const rows *r = pass ? &d->doc : &d->m;
        for (int i = 0; i < r->n; i++) {
            span_add(sp, r->v[i].median);
            span_add(sp, r->v[i].p10);
            span_add(sp, r->v[i].p90);
        }
    }
}

/* Plot for plot_x == "size": one panel per (variant, op), x = size (log2). */
static void write_size_plot(FILE *gp, FILE *dat, const char *datname, const pb_suite *s, const pb_report_data *d,
                            const axes *a, const char *term, const char *out, int write_data, pb_gpq *g)
{
    const rows *m = &d->m, *doc = &d->doc;
    int cols = a->no > 1 ? a->no : (a->nv >= 4 ? 2 : 1);
    int nrows = a->no > 1 ? a->nv : (a->nv + cols - 1) / cols;
    yspan sp = {0, 0};
    medians_span(d, &sp);
    fprintf(gp, "set terminal %s noenhanced\nset output '%s'\n", term, pb_gpq_text(g, out));
    fprintf(gp, "set datafile missing '?'\nset grid\nset key outside right top font ',%d' spacing 1.1 maxrows 24\n"
                "set xlabel 'bytes per operation'\n", PB_FIG_FONT_PT);
    write_size_xaxis(gp, a);
    write_yaxis(gp, &sp, 0, pb_metric_words(pb_suite_primary_metric(s)), g);
    /* the document's points only where the suite has a document table (gbench, exec: none) */
    fprintf(gp, "set multiplot layout %d,%d title \"%s: %s\\nmeasured here (lines)%s\"\n", nrows, cols, s->name,
            pb_metric_words(pb_suite_primary_metric(s)), doc->n ? " vs the document (points)" : "");
    int block = 0;
    for (int vi = 0; vi < a->nv; vi++)
        for (int oi = 0; oi < a->no; oi++) {
            fprintf(gp, "set title '%s %s'\n", pb_gpq_text(g, a->v[vi]), pb_gpq_text(g, a->o[oi]));
            write_panel_notes(gp, d, a, "line", a->v[vi], a->o[oi], g);
            fprintf(gp, "plot ");
            int first = 1;
            for (int pass = 0; pass < 3; pass++) {
                /* pass 0: host impls; 1: guest (kmod) impls; 2: document */
                const rows *src = pass == 2 ? doc : m;
                char seen[MAXV][PB_NAME_MAX];
                int nseen = 0;
                for (int i = 0; i < src->n; i++) {
                    const row *x = &src->v[i];
                    if (pass < 2 && x->guest != pass) continue;
                    if (strcmp(x->variant, a->v[vi]) || strcmp(x->op, a->o[oi])) continue;
                    if (pb_report_index_of(seen, nseen, x->impl) >= 0) continue;
                    pb_report_add_unique(seen, &nseen, x->impl);
                    /* one block: this impl over sizes */
                    if (write_data) {
                        fprintf(dat, "# %s %s %s %s\n", pass == 2 ? "document" : "measured", x->impl, a->v[vi],
                                a->o[oi]);
                        for (int k = 0; k < src->n; k++) {
                            const row *y = &src->v[k];
                            if (!strcmp(y->impl, x->impl) && !strcmp(y->variant, a->v[vi]) &&
                                !strcmp(y->op, a->o[oi]) && y->guest == x->guest && y->size > 0)
                                fprintf(dat, "%lld %.6g %.6g %.6g\n", (long long)y->size, y->median, y->p10, y->p90);
                        }
                        fprintf(dat, "\n\n");
                    }
                    /* one colour per impl name across all panels; the document's points take the colour of
                     * the impl they describe */
                    int ci = pb_report_index_of((char (*)[PB_NAME_MAX])a->impl, a->ni, x->impl);
                    int lc = ci >= 0 ? ci + 1 : 8 + nseen;
                    if (pass == 2)
                        fprintf(gp, "%s'%s' index %d using 1:2 with points pt %d ps 1.6 lw 2 lc %d title 'document: %s'",
                                first ? "" : ", \\\n     ", pb_gpq_text(g, datname), block, nseen == 1 ? 6 : 8, lc, pb_gpq_text(g, x->impl));
                    else
                        fprintf(gp, "%s'%s' index %d using 1:2:3:4 with yerrorlines %s lc %d title '%s%s'",
                                first ? "" : ", \\\n     ", pb_gpq_text(g, datname), block, pass == 1 ? "dt 2" : "lw 1.5", lc,
                                pb_gpq_text(g, x->impl), pass == 1 ? " (TCG)" : "");
                    first = 0;
                    block++;
                }
            }
            if (first) fprintf(gp, "NaN notitle");
            fprintf(gp, "\nunset label\nset bmargin\n");
        }
    fprintf(gp, "unset multiplot\n");
}

/* Plot for plot_x == "variant": one panel per op, a group of bars per variant, each bar at its own
 * variant's x (boxes at explicit places, not gnuplot's histogram, which closes up the row of a
 * column's missing value: sigpool's lone document bar of cmac(aes128) stood at hmac(sha256)). */
static void write_variant_plot(FILE *gp, pb_stage *st, const pb_suite *s, const pb_report_data *d,
                               const axes *a, const char *term, const char *out, int write_data, pb_gpq *g)
{
    const rows *m = &d->m, *doc = &d->doc;
    yspan sp = {0, 0};
    medians_span(d, &sp);
    /* times in the unit they are read in (700 ms, not 7e+08 ns on the axis) */
    const char *tu;
    double div = pb_fig_time_unit(pb_suite_primary_metric(s), sp.hi, &tu);
    char ylabel[64];
    snprintf(ylabel, sizeof ylabel, "time per operation, %s (median)", tu ? tu : "");
    sp.lo /= div;
    sp.hi /= div;
    fprintf(gp, "set terminal %s noenhanced\nset output '%s'\n", term, pb_gpq_text(g, out));
    fprintf(gp, "set datafile missing '?'\nset style fill solid 0.8 border -1\nset grid y\n"
                "set key outside right top font ',%d' spacing 1.1 maxrows 24\nset xrange [-0.5:%g]\nset xtics rotate by -30 (",
            PB_FIG_FONT_PT, a->nv - 0.5);
    for (int vi = 0; vi < a->nv; vi++) fprintf(gp, "%s'%s' %d", vi ? ", " : "", pb_gpq_text(g, a->v[vi]), vi);
    fprintf(gp, ")\n");
    write_yaxis(gp, &sp, 0, tu ? ylabel : pb_metric_words(pb_suite_primary_metric(s)), g);
    fprintf(gp, "set multiplot layout %d,1 title \"%s: %s\\nmeasured here%s\"\n", a->no, s->name,
            tu ? ylabel : pb_metric_words(pb_suite_primary_metric(s)), doc->n ? " vs the document" : "");
    for (int oi = 0; oi < a->no; oi++) {
        char datname[256];
        snprintf(datname, sizeof datname, "%s_%s.dat", s->name, a->o[oi]);
        /* columns: the variant's x, the variant, each measured impl, each document impl */
        char dimpl[MAXV][PB_NAME_MAX];
        int nd = 0;
        for (int i = 0; i < doc->n; i++)
            if (!strcmp(doc->v[i].op, a->o[oi])) pb_report_add_unique(dimpl, &nd, doc->v[i].impl);
        if (write_data) {
            FILE *f = pb_stage_fopen(st, datname, g->bad ? &(pb_err){{0}} : &g->err);
            if (!f) {
                g->bad = 1;
                continue;
            }
            fprintf(f, "# x variant");
            for (int k = 0; k < a->ni; k++) fprintf(f, " \"%s\"", a->impl[k]);
            for (int k = 0; k < nd; k++) fprintf(f, " \"document %s\"", dimpl[k]);
            fprintf(f, "\n");
            for (int vi = 0; vi < a->nv; vi++) {
                fprintf(f, "%d \"%s\"", vi, a->v[vi]);
                for (int k = 0; k < a->ni; k++) {
                    const row *x = pb_report_find(m, a->impl[k], a->v[vi], a->o[oi], -1);
                    if (x) fprintf(f, " %.6g", x->median); else fprintf(f, " ?");
                }
                for (int k = 0; k < nd; k++) {
                    const row *x = pb_report_find(doc, dimpl[k], a->v[vi], a->o[oi], -1);
                    if (x) fprintf(f, " %.6g", x->median); else fprintf(f, " ?");
                }
                fprintf(f, "\n");
            }
            if (pb_stage_fclose(st, f, datname, g->bad ? &(pb_err){{0}} : &g->err) < 0) g->bad = 1;
        }
        fprintf(gp, "set title '%s'\n", pb_gpq_text(g, a->o[oi]));
        int k = 0;
        for (int vi = 0; vi < a->nv; vi++)
            if (run_has_cell(m, 0, a->v[vi], a->o[oi]))
                for (int i = 0; i < a->ni; i++)
                    if (!pb_report_find(m, a->impl[i], a->v[vi], a->o[oi], -1)) {
                        char lead[2 * PB_NAME_MAX + 64];
                        snprintf(lead, sizeof lead, "no %s bar for %s", a->v[vi], a->impl[i]);
                        write_missing_note(gp, k++, d, d->run, lead, a->impl[i], a->v[vi], a->o[oi], g);
                    }
        int ncol = a->ni + nd;
        /* the group of a variant 0.8 wide, each bar at its own place in it */
        double w = 0.8 / (ncol ? ncol : 1);
        fprintf(gp, "set boxwidth %.6g absolute\nplot ", w);
        for (int c = 0; c < ncol; c++) {
            double off = -0.4 + w * (c + 0.5);
            const char *impl = c < a->ni ? a->impl[c] : dimpl[c - a->ni];
            int guest = 0;
            for (int i = 0; c < a->ni && i < m->n; i++) guest |= m->v[i].guest && !strcmp(m->v[i].impl, impl);
            int ci = pb_report_index_of((char (*)[PB_NAME_MAX])a->impl, a->ni, impl);
            fprintf(gp, "%s'%s' using ($1%+.6g):($%d/%g) with boxes lc %d%s title '%s%s%s'", c ? ", \\\n     " : "",
                    pb_gpq_text(g, datname), off, c + 3, div, ci >= 0 ? ci + 1 : 8 + c, c >= a->ni ? " fs pattern 4" : "",
                    c >= a->ni ? "document " : "", pb_gpq_text(g, impl), guest ? " (QEMU TCG, emulated)" : "");
        }
        if (!ncol) fprintf(gp, "NaN notitle");
        fprintf(gp, "\nunset label\nset bmargin\n");
    }
    fprintf(gp, "unset multiplot\n");
}

/* One line of the ratio figure: cand/base time ratios of one run. */
typedef struct ratio_series {
    int64_t run;
    const char *base, *cand;
    int guest, profile, real; /* a kernel-module run; an X@P / baseline@P pair; the real code's pair */
} ratio_series;

enum { SERIES_NONE = -1, SERIES_PLAIN, SERIES_PROFILE, SERIES_REAL };

/* Which line of the figure a stored ratio is: an impl against the run's baseline, an X@P against
 * baseline@P, the real code's own pair (pb_report_real_pair), or none. */
static int series_kind(const pb_suite *s, const ratio_row *x, int guest)
{
    const char *rb, *rc;
    if (pb_report_real_pair(s, guest, &rb, &rc) && !strcmp(x->base, rb) && !strcmp(x->cand, rc)) return SERIES_REAL;
    const char *base = guest ? s->kmod_baseline : s->baseline;
    if (!base) return SERIES_NONE;
    size_t nb = strlen(base);
    int profile = !strncmp(x->base, base, nb) && x->base[nb] == '@';
    if (!profile && strcmp(x->base, base)) return SERIES_NONE;
    if (!profile && strchr(x->cand, '@')) return SERIES_NONE; /* X@P against the faithful baseline: not shown */
    if (profile && strcmp(strchr(x->cand, '@') ? strchr(x->cand, '@') : "", x->base + nb)) return SERIES_NONE;
    return profile ? SERIES_PROFILE : SERIES_PLAIN;
}

#define MAXSERIES 24
/* The lines of the ratio figure: every impl against the run's baseline, each X@P against
 * baseline@P and the real code's pair, in the order the store holds them. */
static int ratio_series_of(const pb_suite *s, const pb_report_data *d, ratio_series *out)
{
    int n = 0;
    for (size_t i = 0; i < d->nratios && n < MAXSERIES; i++) {
        const ratio_row *x = &d->ratios[i];
        if (strcmp(x->metric, PB_DEFAULT_METRIC)) continue;
        int guest = x->run != d->run;
        int kind = series_kind(s, x, guest);
        if (kind == SERIES_NONE) continue;
        int seen = 0;
        for (int k = 0; k < n && !seen; k++)
            seen = out[k].run == x->run && !strcmp(out[k].base, x->base) && !strcmp(out[k].cand, x->cand);
        if (!seen) out[n++] = (ratio_series){x->run, x->base, x->cand, guest, kind == SERIES_PROFILE, kind == SERIES_REAL};
    }
    return n;
}

/* One panel of the ratio figure being written: where its script and data go, what it draws from,
 * and the next data block. */
typedef struct panel {
    FILE *gp, *dat;
    const char *datname;
    const pb_suite *s;
    const pb_report_data *d;
    const axes *a;
    int by_size, vi, oi, write_data;
    pb_gpq *g;
    int block;
} panel;

static int npoints_of(const panel *p) { return p->by_size ? p->a->ns : p->a->nv; }

/* The cell of point xi of the panel for series sr: its variant and size (a variant plot's cell has
 * one size: the one sr's baseline was measured at). */
static void point_cell(const panel *p, const ratio_series *sr, int xi, const char **v, int64_t *size)
{
    *v = p->by_size ? p->a->v[p->vi] : p->a->v[xi];
    const row *at = p->by_size ? NULL : pb_report_find(&p->d->m, sr->base, *v, p->a->o[p->oi], -1);
    *size = p->by_size ? p->a->sizes[xi] : at ? at->size : 0;
}

/* sr's time ratio at point xi: 1 and *r, or 0 (none, or not positive) */
static int series_point(const panel *p, const ratio_series *sr, int xi, ratio *r)
{
    const char *v;
    int64_t size;
    point_cell(p, sr, xi, &v, &size);
    return pb_report_ratio(p->d, sr->run, PB_DEFAULT_METRIC, sr->base, sr->cand, v, p->a->o[p->oi], size, r) &&
           r->est > 0;
}

/* where series k of nsr draws point xi: side by side so that the error bars do not hide each other */
static double point_x(const panel *p, int xi, int k, int nsr)
{
    double shift = (k - (nsr - 1) / 2.0);
    return p->by_size ? (double)p->a->sizes[xi] * pow(2, 0.05 * shift) : xi + 0.08 * shift;
}

/* The document's ratios and their band, one block (nothing where the document gives none). */
static void write_doc_band(panel *p, double t)
{
    int have_doc = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && !have_doc) break;
        for (int xi = 0; xi < npoints_of(p); xi++) {
            const char *v = p->by_size ? p->a->v[p->vi] : p->a->v[xi];
            double dr = pb_report_doc_time(p->s, &p->d->doc, v, p->a->o[p->oi], p->by_size ? p->a->sizes[xi] : -1);
            if (!isfinite(dr)) continue;
            have_doc = 1;
            if (pass == 1 && p->write_data) {
                double x = p->by_size ? (double)p->a->sizes[xi] : xi;
                double xlo = p->by_size ? x / 1.25 : x - 0.35, xhi = p->by_size ? x * 1.25 : x + 0.35;
                fprintf(p->dat, "%.6g %.6g %.6g %.6g %.6g %.6g\n", x, dr, dr / (1 + t), dr * (1 + t), xlo, xhi);
            }
        }
    }
    if (!have_doc) return;
    if (p->write_data) fprintf(p->dat, "\n\n");
    fprintf(p->gp, ", \\\n     '%s' index %d using 1:2:5:6:3:4 with boxxyerror lc rgb '#d09000' "
                   "title 'document, band \xc2\xb1t', \\\n     '' index %d using 1:2 with points pt 13 ps 1.5 "
                   "lc rgb '#a06000' title 'document %s/%s'",
            pb_gpq_text(p->g, p->datname), p->block, p->block, pb_gpq_text(p->g, p->s->candidate),
            pb_gpq_text(p->g, p->s->baseline));
    p->block++;
}

/* Series k of nsr over the panel's points, one block: its CI as error bars, its range over code
 * layouts thin (nothing where it has no point here). */
static void write_series(panel *p, const ratio_series *sr, int k, int nsr)
{
    int any = 0;
    for (int xi = 0; xi < npoints_of(p); xi++) {
        ratio r;
        if (!series_point(p, &sr[k], xi, &r)) continue;
        any = 1;
        double x = point_x(p, xi, k, nsr);
        /* columns 5, 6: the per-layout range (docs/layout.md); the CI when there is one layout */
        double llo = r.layouts > 1 && isfinite(r.layout_lo) ? r.layout_lo : r.lo;
        double lhi = r.layouts > 1 && isfinite(r.layout_hi) ? r.layout_hi : r.hi;
        if (p->write_data) fprintf(p->dat, "%.6g %.6g %.6g %.6g %.6g %.6g\n", x, r.est, r.lo, r.hi, llo, lhi);
    }
    if (!any) return;
    if (p->write_data) fprintf(p->dat, "\n\n");
    int ci = pb_report_index_of((char (*)[PB_NAME_MAX])p->a->impl, p->a->ni, sr[k].cand);
    /* one colour per impl name; the real code's pair dark, whatever its candidate's colour */
    char colour[32];
    if (sr[k].real) snprintf(colour, sizeof colour, "rgb '#303030'");
    else snprintf(colour, sizeof colour, "%d", ci >= 0 ? ci + 1 : 8 + k);
    const char *style = sr[k].real ? "dt 4 lw 2" : sr[k].guest ? "dt 2" : sr[k].profile ? "dt 3 lw 1.2" : "lw 1.5";
    fprintf(p->gp, ", \\\n     '%s' index %d using 1:2:3:4 with %s lc %s %s title '%s%s/%s%s'",
            pb_gpq_text(p->g, p->datname), p->block, p->by_size ? "yerrorlines" : "yerrorbars", colour, style,
            sr[k].real ? "real code: " : "", pb_gpq_text(p->g, sr[k].cand), pb_gpq_text(p->g, sr[k].base),
            sr[k].guest ? " (QEMU TCG)" : "");
    /* the range over code layouts, thin and pale: wider than the CI where layout matters */
    fprintf(p->gp, ", \\\n     '%s' index %d using 1:2:5:6 with yerrorbars pt 0 lw 0.6 lc %s notitle",
            pb_gpq_text(p->g, p->datname), p->block, colour);
    p->block++;
}

/* The series a table's "differs from the real code" is about: the userspace table's
 * candidate/baseline, the kernel-module table's (guest) kmod_candidate/kmod_real; -1 if none. */
static int marked_series(const panel *p, const ratio_series *sr, int nsr, int64_t run, int guest)
{
    for (int k = 0; k < nsr; k++) {
        if (sr[k].run != run) continue;
        if (guest ? sr[k].real
                  : !sr[k].real && !sr[k].profile && !strcmp(sr[k].base, p->s->baseline) &&
                        !strcmp(sr[k].cand, p->s->candidate))
            return k;
    }
    return -1;
}

/* The cells of run's table (guest: the kernel-module one) marked "differs from the real code", as
 * the table marks them (pb_report_real_differs, threshold c): a ring around the marked series'
 * point, one block (nothing where no cell of the panel is marked). */
static void write_real_marks(panel *p, const ratio_series *sr, int nsr, int64_t run, int guest, double c)
{
    const char *rb, *rc;
    int k = run ? marked_series(p, sr, nsr, run, guest) : -1;
    if (k < 0 || !pb_report_real_of(p->d, p->s, run, guest, &rb, &rc)) return;
    int any = 0;
    for (int xi = 0; xi < npoints_of(p); xi++) {
        ratio rt, rr;
        const char *v;
        int64_t size;
        if (!series_point(p, &sr[k], xi, &rt)) continue;
        point_cell(p, &sr[k], xi, &v, &size);
        if (!pb_report_ratio(p->d, run, PB_DEFAULT_METRIC, rb, rc, v, p->a->o[p->oi], size, &rr) ||
            !pb_report_real_differs(guest, 1, &rt, &rr, c))
            continue;
        any = 1;
        if (p->write_data) fprintf(p->dat, "%.6g %.6g\n", point_x(p, xi, k, nsr), rt.est);
    }
    if (!any) return;
    if (p->write_data) fprintf(p->dat, "\n\n");
    fprintf(p->gp, ", \\\n     '%s' index %d using 1:2 with points pt 6 ps 2.5 lw 1.5 lc rgb '#c00000' "
                   "title 'differs from the real code%s'",
            pb_gpq_text(p->g, p->datname), p->block, guest ? " (QEMU TCG)" : "");
    p->block++;
}

/* The ratio figure's one y range: 1 (no change), every stored ratio of its series with its CI and
 * range over code layouts, every document ratio with its band. */
static void ratio_span(const pb_suite *s, const pb_report_data *d, const ratio_series *sr, int nsr, double t,
                       yspan *sp)
{
    span_add(sp, 1);
    for (size_t i = 0; i < d->nratios; i++) {
        const ratio_row *x = &d->ratios[i];
        int ours = 0;
        for (int k = 0; k < nsr && !ours; k++)
            ours = sr[k].run == x->run && !strcmp(sr[k].base, x->base) && !strcmp(sr[k].cand, x->cand);
        if (!ours || strcmp(x->metric, PB_DEFAULT_METRIC) || !(x->r.est > 0)) continue;
        span_add(sp, x->r.est);
        span_add(sp, x->r.lo);
        span_add(sp, x->r.hi);
        if (x->r.layouts > 1) {
            span_add(sp, x->r.layout_lo);
            span_add(sp, x->r.layout_hi);
        }
    }
    for (int i = 0; i < d->doc.n; i++) {
        const row *c = &d->doc.v[i];
        if (strcmp(c->impl, s->candidate)) continue;
        double dr = pb_report_doc_time(s, &d->doc, c->variant, c->op, c->size);
        span_add(sp, dr / (1 + t));
        span_add(sp, dr * (1 + t));
    }
}

/* Note k of a panel of the ratio figure: series sr draws nothing at variant, and why (the
 * unavailable case of its baseline when only that one is, else of its candidate). */
static void ratio_note(panel *p, int k, const ratio_series *sr, const char *variant)
{
    const char *op = p->a->o[p->oi];
    const char *who = pb_report_unavailable(p->d, sr->run, sr->base, variant, op) &&
                              !pb_report_unavailable(p->d, sr->run, sr->cand, variant, op)
                          ? sr->base
                          : sr->cand;
    char lead[6 * PB_NAME_MAX + 32];
    snprintf(lead, sizeof lead, "no %s%s%s for %s/%s (%s)", p->by_size ? "" : variant, p->by_size ? "" : " ",
             p->by_size ? "line" : "point", sr->cand, sr->base, who);
    write_missing_note(p->gp, k, p->d, sr->run, lead, who, variant, op, p->g);
}

/* The notes of a panel of the ratio figure: each series that draws no line in it (against size:
 * no point at all; against variant: none at a variant) where another series of its run does. */
static void write_ratio_notes(panel *p, const ratio_series *sr, int nsr)
{
    int note = 0;
    for (int k = 0; k < nsr; k++) {
        int mine = 0, gap = -1;
        for (int xi = 0; xi < npoints_of(p); xi++) {
            ratio r;
            int here = series_point(p, &sr[k], xi, &r), others = 0;
            for (int j = 0; j < nsr && !others; j++)
                others = j != k && sr[j].run == sr[k].run && series_point(p, &sr[j], xi, &r);
            mine |= here;
            if (here || !others) continue;
            if (!p->by_size) ratio_note(p, note++, &sr[k], p->a->v[xi]);
            else if (gap < 0) gap = xi;
        }
        if (p->by_size && !mine && gap >= 0) ratio_note(p, note++, &sr[k], p->a->v[p->vi]);
    }
}

/* The ratio figure: per panel ((variant, op) against size, or op against variant), each series'
 * time ratio with its 95 % CI as error bars (and, thin, its range over code layouts), the
 * document's ratio as a point inside its tolerance band [d/(1+t), d(1+t)] (a shaded box), 1 (no
 * change) dashed, and a ring around each point of a cell that differs from the real code. One y
 * range (log2) for all panels; a note where a series draws no line. */
static void write_ratio_plot(FILE *gp, FILE *dat, const char *datname, const pb_suite *s, const pb_report_data *d,
                             const axes *a, const pb_verdict_cfg *cfg, const char *term, const char *out,
                             int write_data, pb_gpq *g)
{
    const double t = cfg->tolerance;
    int by_size = !s->plot_x || !strcmp(s->plot_x, "size");
    ratio_series sr[MAXSERIES];
    int nsr = ratio_series_of(s, d, sr);
    int npanel_v = by_size ? a->nv : 1;
    int cols = by_size ? (a->no > 1 ? a->no : (a->nv >= 4 ? 2 : 1)) : 1;
    int nrows = by_size ? (a->no > 1 ? a->nv : (a->nv + cols - 1) / cols) : a->no;
    fprintf(gp, "set terminal %s noenhanced\nset output '%s'\n", term, pb_gpq_text(g, out));
    fprintf(gp, "reset\nset datafile missing '?'\nset format y '%%g'\nset grid\nset key outside right top font ',%d' spacing 1.1 maxrows 24\n"
                "set style fill transparent solid 0.35 noborder\n", PB_FIG_FONT_PT);
    if (by_size) {
        fprintf(gp, "set xlabel 'bytes per operation'\n");
        write_size_xaxis(gp, a);
    } else {
        fprintf(gp, "set xrange [-0.5:%g]\nset xtics rotate by -30 (", a->nv - 0.5);
        for (int vi = 0; vi < a->nv; vi++) fprintf(gp, "%s'%s' %d", vi ? ", " : "", pb_gpq_text(g, a->v[vi]), vi);
        fprintf(gp, ")\n");
    }
    yspan sp = {0, 0};
    ratio_span(s, d, sr, nsr, t, &sp);
    char ylabel[2 * PB_NAME_MAX];
    snprintf(ylabel, sizeof ylabel, "time ratio X/%s", s->baseline);
    write_yaxis(gp, &sp, 2, ylabel, g);
    /* the document's diamond and band only where the suite has a document table */
    char doc_words[4 * PB_NAME_MAX + 100] = "";
    if (d->doc.n)
        snprintf(doc_words, sizeof doc_words, "; the document's %s/%s as a diamond in its tolerance band (t = %.2f)",
                 s->candidate, s->baseline, t);
    fprintf(gp, "set multiplot layout %d,%d title \"%s: time per operation, X/%s (below 1: X is faster)\\n"
                "95 %% CI as error bars, the range over code layouts as thin bars%s\"\n",
            nrows, cols, s->name, s->baseline, doc_words);
    panel p = {.gp = gp, .dat = dat, .datname = datname, .s = s, .d = d, .a = a, .by_size = by_size,
               .write_data = write_data, .g = g, .block = 0};
    for (p.vi = 0; p.vi < npanel_v; p.vi++)
        for (p.oi = 0; p.oi < a->no; p.oi++) {
            if (by_size) fprintf(gp, "set title '%s %s'\n", pb_gpq_text(g, a->v[p.vi]), pb_gpq_text(g, a->o[p.oi]));
            else fprintf(gp, "set title '%s'\n", pb_gpq_text(g, a->o[p.oi]));
            write_ratio_notes(&p, sr, nsr);
            fprintf(gp, "plot 1 with lines dt 2 lc rgb '#606060' title 'no change'");
            write_doc_band(&p, t);
            for (int k = 0; k < nsr; k++) write_series(&p, sr, k, nsr);
            write_real_marks(&p, sr, nsr, d->run, 0, cfg->real_code_threshold);
            write_real_marks(&p, sr, nsr, d->guest_run, 1, cfg->real_code_threshold);
            fprintf(gp, "\nunset label\nset bmargin\n");
        }
    fprintf(gp, "unset multiplot\nreset\n");
}

/* The script, its data and the four figures, all in the private folder in->stage (out_stage.h); the
 * script names them relative to it, gnuplot runs there. */
int pb_render_plots(const pb_render_out *out, const pb_render_in *in, pb_err *e)
{
    (void)out;
    const pb_suite *s = in->s;
    const pb_report_data *d = in->d;
    const pb_report_figures *fig = in->figures;
    pb_stage *st = in->stage;
    /* names come from imported files of other machines: every one must be safe as gnuplot text
     * and as a data-file field before anything is written */
    pb_gpq g = {.next = 0, .bad = 0};
    for (int pass = 0; pass < 2 && !g.bad; pass++) {
        const rows *r = pass ? &d->doc : &d->m;
        for (int i = 0; i < r->n && !g.bad; i++) {
            pb_gpq_text(&g, r->v[i].impl);
            pb_gpq_text(&g, r->v[i].variant);
            pb_gpq_text(&g, r->v[i].op);
        }
    }
    for (size_t i = 0; i < d->nratios && !g.bad; i++) {
        pb_gpq_text(&g, d->ratios[i].base);
        pb_gpq_text(&g, d->ratios[i].cand);
    }
    if (g.bad) return pb_errf(e, "%s", g.err.msg);
    axes a;
    pb_report_axes(&d->m, &a);

    const char *gpname = fig->gp, *datname = fig->dat, *rdatname = fig->ratio_dat, *log = fig->log;
    /* the figures' places checked before anything is drawn: gnuplot writes them by name */
    if (pb_stage_add(st, fig->ratio_png, e) < 0 || pb_stage_add(st, fig->ratio_svg, e) < 0 ||
        pb_stage_add(st, fig->png, e) < 0 || pb_stage_add(st, fig->svg, e) < 0)
        return -1;
    FILE *gp = pb_stage_fopen(st, gpname, e), *dat = NULL, *rdat = NULL;
    if (!gp) return -1;
    int by_size = !s->plot_x || !strcmp(s->plot_x, "size");
    /* room for PB_FIG_FONT_PT lettering: a panel 420 px high, 900 wide with its key */
    int h = by_size ? (a.no > 1 ? a.nv : (a.nv + 1) / 2) * 420 + 80 : a.no * 460 + 80;
    int w = by_size ? (a.no > 1 ? a.no : (a.nv >= 4 ? 2 : 1)) * 900 : 1300;
    char tpng[128], tsvg[128];
    snprintf(tpng, sizeof tpng, "pngcairo size %d,%d font ',%d'", w, h, PB_FIG_FONT_PT);
    pb_fig_svg_terminal(tsvg, sizeof tsvg, w, h);
    rdat = pb_stage_fopen(st, rdatname, e);
    if (!rdat) { fclose(gp); return -1; }
    write_ratio_plot(gp, rdat, rdatname, s, d, &a, in->cfg, tpng, fig->ratio_png, 1, &g);
    write_ratio_plot(gp, rdat, rdatname, s, d, &a, in->cfg, tsvg, fig->ratio_svg, 0, &g);
    if (pb_stage_fclose(st, rdat, rdatname, g.bad ? &(pb_err){{0}} : &g.err) < 0) g.bad = 1;
    if (by_size) {
        dat = pb_stage_fopen(st, datname, e);
        if (!dat) { fclose(gp); return -1; }
        write_size_plot(gp, dat, datname, s, d, &a, tpng, fig->png, 1, &g);
        write_size_plot(gp, dat, datname, s, d, &a, tsvg, fig->svg, 0, &g);
        if (pb_stage_fclose(st, dat, datname, g.bad ? &(pb_err){{0}} : &g.err) < 0) g.bad = 1;
    } else {
        write_variant_plot(gp, st, s, d, &a, tpng, fig->png, 1, &g);
        write_variant_plot(gp, st, s, d, &a, tsvg, fig->svg, 0, &g);
    }
    if (pb_stage_fclose(st, gp, gpname, g.bad ? &(pb_err){{0}} : &g.err) < 0) g.bad = 1;
    if (g.bad) return pb_errf(e, "%s", g.err.msg);
    /* on failure the caller drops every staged file but the log (pb_report_run_gnuplot keeps it) */
    return pb_report_run_gnuplot(in->gnuplot, st, gpname, log, e);
}
