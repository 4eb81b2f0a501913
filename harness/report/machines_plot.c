/* SPDX-License-Identifier: GPL-2.0-only */
/* machines_plot.c — the per-machine report's figure (report_machines.c, docs/fleet.md): per panel
 * (a variant and op, or an op) each configuration's time ratio with its CI, the document's ratio
 * and the real code's, drawn by gnuplot as png and svg. Names reach the script only through
 * pb_gpq_text. */
#include "machines.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "metrics.h"
#include "report.h"

/* whether the suite re-runs a published document (data/<suite>_doc.tsv): only then does the figure
 * draw and name the document's ratios */
static int has_doc(const mreport *m) { return m->c[0].d.doc.n > 0; }

/* ---- the figure ---- */

/* A column's line in the figure's key: its label, CPU model and identity. */
static void key_title(const mcol *c, char *out, size_t cap)
{
    snprintf(out, cap, "%s (%s; %s)", c->label, c->cpu, c->ident[0] ? c->ident : "identity not recorded");
}

/* The figure's layout follows the suite's plot_x: "size" (one panel per (variant, op), x = bytes per
 * operation, log 2) or "variant" (one panel per op, x = the variants, each at the size its cell has). */
static int by_size(const mreport *m) { return !m->s->plot_x || !strcmp(m->s->plot_x, "size"); }
static int npanels(const mreport *m) { return by_size(m) ? m->nv * m->no : m->no; }
static int npoints(const mreport *m) { return by_size(m) ? m->ns : m->nv; }

/* The cell at point xi of panel p: its variant, op and size (size < 0: any) */
static void point_cell(const mreport *m, int p, int xi, const char **v, const char **o, int64_t *size)
{
    if (by_size(m)) {
        *v = m->v[p / m->no];
        *o = m->o[p % m->no];
        *size = m->sizes[xi];
    } else {
        *v = m->v[xi];
        *o = m->o[p];
        *size = -1;
    }
}

/* column c's time ratio cand/base of a cell; size < 0: the first the run holds for (variant, op) */
static int pair_ratio(const mcol *c, const char *base, const char *cand, const char *v, const char *o, int64_t size,
                      ratio *r)
{
    for (size_t i = 0; i < c->d.nratios; i++) {
        const ratio_row *x = &c->d.ratios[i];
        if (!strcmp(x->metric, PB_DEFAULT_METRIC) && !strcmp(x->base, base) && !strcmp(x->cand, cand) &&
            !strcmp(x->variant, v) && !strcmp(x->op, o) && (size < 0 || x->size == size)) {
            *r = x->r;
            return 1;
        }
    }
    return 0;
}

static void write_xtics(FILE *gp, const mreport *m, pb_gpq *g)
{
    fprintf(gp, "set xtics (");
    for (int i = 0; i < npoints(m); i++) {
        char b[32];
        if (by_size(m))
            fprintf(gp, "%s'%s' %lld", i ? ", " : "", pb_fmt_bytes(b, sizeof b, m->sizes[i]), (long long)m->sizes[i]);
        else
            fprintf(gp, "%s'%s' %d", i ? ", " : "", pb_gpq_text(g, m->v[i]), i);
    }
    fprintf(gp, ")%s\n", npoints(m) > 4 ? " rotate by -30" : "");
}

/* The series of the figure per column k: its ratio, its real code's (where the run holds it), and
 * the cells that differ from the real code (rings on its ratio's points). */
enum { SER_RATIO, SER_REAL, SER_MARK, NSER };
#define NBLOCKS (1 + NSER * MAXCOL)
/* blocks[panel][0]: the document's block (-1 none); blocks[panel][blk(kind, k)]: column k's series of kind */
static int blk(int kind, int k) { return 1 + kind * MAXCOL + k; }

/* Column k's point of series kind at point xi of panel p: 1 and the values of its data line, or 0. */
static int series_point(const mreport *m, int kind, int k, int p, int xi, ratio *r)
{
    const mcol *c = &m->c[k];
    const char *v, *o;
    int64_t size;
    point_cell(m, p, xi, &v, &o, &size);
    ratio own, rr;
    int have_real = c->real && pair_ratio(c, c->real_base, c->real_cand, v, o, size, &rr) && rr.est > 0;
    int have = pair_ratio(c, c->base, c->cand, v, o, size, &own) && own.est > 0;
    /* a ring goes where the table's mark is about: the column's own ratio, or in a kernel-module
     * column kmod_candidate/kmod_real */
    if (kind == SER_REAL || (kind == SER_MARK && c->guest)) *r = rr;
    else *r = own;
    if (kind == SER_RATIO) return have;
    if (kind == SER_REAL) return have_real;
    return have_real && (have || c->guest) && pb_report_real_differs(c->guest, have, &own, &rr, m->cfg.real_code_threshold);
}

/* whether column k's series of kind is drawn at the real code's points (a little apart from its own) */
static int on_real_points(const mreport *m, int kind, int k)
{
    return kind == SER_REAL || (kind == SER_MARK && m->c[k].guest);
}

/* Column k's series of kind over panel p, one block: its number, or -1 when it has no point there. */
static int write_series(FILE *dat, const mreport *m, int kind, int k, int p, int block)
{
    int any = 0;
    double shift = k - (m->nc - 1) / 2.0;
    for (int xi = 0; xi < npoints(m); xi++) {
        const char *v, *o;
        int64_t size;
        point_cell(m, p, xi, &v, &o, &size);
        ratio r;
        if (!series_point(m, kind, k, p, xi, &r)) continue;
        /* side by side so that the error bars do not hide each other (the real code's a little apart) */
        int apart = on_real_points(m, kind, k);
        double x = by_size(m) ? (double)size * pow(2, 0.04 * shift + (apart ? 0.02 : 0)) : xi + 0.06 * shift + (apart ? 0.03 : 0);
        fprintf(dat, "%.6g %.6g %.6g %.6g\n", x, r.est, r.lo, r.hi);
        any = 1;
    }
    if (!any) return -1;
    fprintf(dat, "\n\n");
    return block;
}

static int write_dat(FILE *dat, const mreport *m, int (*blocks)[NBLOCKS])
{
    int block = 0;
    for (int p = 0; p < npanels(m); p++) {
        blocks[p][0] = -1;
        int any = 0;
        for (int xi = 0; xi < npoints(m); xi++) {
            const char *v, *o;
            int64_t size;
            point_cell(m, p, xi, &v, &o, &size);
            double dr = pb_machines_doc_ratio(m, v, o, size);
            if (!isfinite(dr)) continue;
            fprintf(dat, "%.6g %.6g\n", by_size(m) ? (double)size : xi, dr);
            any = 1;
        }
        if (any) { fprintf(dat, "\n\n"); blocks[p][0] = block++; }
        for (int k = 0; k < m->nc; k++)
            for (int kind = 0; kind < NSER; kind++) {
                blocks[p][blk(kind, k)] = write_series(dat, m, kind, k, p, block);
                if (blocks[p][blk(kind, k)] >= 0) block++;
            }
    }
    return block;
}

/* panels, then one that holds only the key (names can be long) */
static void layout(const mreport *m, int *cols, int *nrows)
{
    int np = npanels(m) + 1;
    *cols = by_size(m) && m->no > 1 ? m->no : (np > 3 ? 2 : 1);
    *nrows = (np + *cols - 1) / *cols;
}

static void write_plot(FILE *gp, const mreport *m, int (*blocks)[NBLOCKS], const char *datname, const char *term,
                       const char *out, pb_gpq *g)
{
    int cols, nrows;
    layout(m, &cols, &nrows);
    fprintf(gp, "set terminal %s noenhanced\nset output '%s'\n", term, pb_gpq_text(g, out));
    fprintf(gp, "reset\nset datafile missing '?'\nset logscale y 2\nset format y '%%g'\nset grid\nunset key\n");
    pb_fig_ratio_tics(gp, 0, 0);
    if (by_size(m)) fprintf(gp, "set logscale x 2\nset xlabel 'bytes per operation'\n");
    else fprintf(gp, "set xrange [-0.5:%g]\n", m->nv - 0.5);
    write_xtics(gp, m, g);
    /* the suite's own names only (suite.h constants, not stored text) inside this double-quoted title */
    fprintf(gp, "set multiplot layout %d,%d title \"%s: time %s/%s per machine and configuration, 95 %% CI as "
                "error bars\\n(line colour: configuration; dash type: CPU identity%s)\"\n",
            nrows, cols, m->s->name, m->s->candidate, m->s->baseline, has_doc(m) ? "; diamonds: the document" : "");
    for (int p = 0; p < npanels(m); p++) {
        if (by_size(m))
            fprintf(gp, "set title '%s %s'\n", pb_gpq_text(g, m->v[p / m->no]), pb_gpq_text(g, m->o[p % m->no]));
        else
            fprintf(gp, "set title '%s'\n", pb_gpq_text(g, m->o[p]));
        fprintf(gp, "set ylabel 'time ratio'\nplot 1 with lines dt 2 lc rgb '#606060' notitle");
        if (blocks[p][0] >= 0)
            fprintf(gp, ", \\\n     '%s' index %d using 1:2 with points pt 13 ps 1.5 lc rgb '#a06000' notitle",
                    pb_gpq_text(g, datname), blocks[p][0]);
        for (int k = 0; k < m->nc; k++) {
            if (blocks[p][blk(SER_RATIO, k)] >= 0)
                fprintf(gp, ", \\\n     '%s' index %d using 1:2:3:4 with %s lc %d dt %d lw 1.3 notitle",
                        pb_gpq_text(g, datname), blocks[p][blk(SER_RATIO, k)], by_size(m) ? "yerrorlines" : "yerrorbars",
                        k + 1, m->c[k].group % 5 + 1);
            if (blocks[p][blk(SER_REAL, k)] >= 0)
                fprintf(gp, ", \\\n     '%s' index %d using 1:2:3:4 with yerrorbars pt 4 ps 1.2 lc %d lw 1 notitle",
                        pb_gpq_text(g, datname), blocks[p][blk(SER_REAL, k)], k + 1);
            if (blocks[p][blk(SER_MARK, k)] >= 0)
                fprintf(gp, ", \\\n     '%s' index %d using 1:2 with points pt 6 ps 2.5 lw 1.5 lc rgb '#c00000' notitle",
                        pb_gpq_text(g, datname), blocks[p][blk(SER_MARK, k)]);
        }
        fprintf(gp, "\n");
    }
    /* the key panel: every series' title, nothing drawn (the curves lie outside the range) */
    fprintf(gp, "unset title\nunset xlabel\nunset ylabel\nunset border\nunset tics\nunset grid\nunset logscale\n"
                "set xrange [0:1]\nset yrange [0:1]\nset key center center vertical Left reverse font ',%d'\n"
                "plot 2 with lines dt 2 lc rgb '#606060' title 'no change'",
            PB_FIG_FONT_PT);
    if (has_doc(m)) fprintf(gp, ", \\\n     2 with points pt 13 ps 1.5 lc rgb '#a06000' title 'document'");
    for (int k = 0; k < m->nc; k++) {
        char title[1100];
        key_title(&m->c[k], title, sizeof title);
        fprintf(gp, ", \\\n     2 with linespoints lc %d dt %d lw 1.3 title '%s'", k + 1, m->c[k].group % 5 + 1,
                pb_gpq_text(g, title));
        if (m->c[k].real)
            fprintf(gp, ", \\\n     2 with points pt 4 ps 1.2 lc %d title 'real code %s/%s'", k + 1,
                    pb_gpq_text(g, m->c[k].real_cand), pb_gpq_text(g, m->c[k].real_base));
    }
    if (pb_machines_any_real(m))
        fprintf(gp, ", \\\n     2 with points pt 6 ps 2.5 lw 1.5 lc rgb '#c00000' title '%s'", pb_real_mark);
    fprintf(gp, "\nunset multiplot\nreset\n");
}


int pb_machines_draw(const mreport *m, const mpaths *p, pb_stage *st, pb_err *e)
{
    char gnuplot[1100];
    if (!pb_report_find_gnuplot(gnuplot, sizeof gnuplot))
        return pb_errf(e, "gnuplot not found on PATH: install it (Debian: apt-get install gnuplot-nox)");
    /* every text that goes into the script checked before anything is written */
    pb_gpq g = {.next = 0, .bad = 0};
    for (int k = 0; k < m->nc && !g.bad; k++) {
        char title[1100];
        key_title(&m->c[k], title, sizeof title);
        pb_gpq_text(&g, title);
    }
    for (int i = 0; i < m->nv && !g.bad; i++) pb_gpq_text(&g, m->v[i]);
    for (int i = 0; i < m->no && !g.bad; i++) pb_gpq_text(&g, m->o[i]);
    if (g.bad) return pb_errf(e, "%s", g.err.msg);
    /* the figures' places checked before anything is drawn: gnuplot writes them by name */
    if (pb_stage_add(st, p->png, e) < 0 || pb_stage_add(st, p->svg, e) < 0) return -1;
    int (*blocks)[NBLOCKS] = calloc((size_t)(npanels(m) + 1), sizeof *blocks);
    if (!blocks) return pb_errf(e, "out of memory");
    FILE *dat = pb_stage_fopen(st, p->dat, e), *gp = dat ? pb_stage_fopen(st, p->gp, e) : NULL;
    if (!dat || !gp) {
        if (dat) fclose(dat);
        free(blocks);
        return -1;
    }
    write_dat(dat, m, blocks);
    int cols, nrows;
    layout(m, &cols, &nrows);
    /* room for PB_FIG_FONT_PT lettering (report.h) */
    int w = cols * 900, h = nrows * 420 + 90;
    char tpng[128], tsvg[128];
    snprintf(tpng, sizeof tpng, "pngcairo size %d,%d font ',%d'", w, h, PB_FIG_FONT_PT);
    pb_fig_svg_terminal(tsvg, sizeof tsvg, w, h);
    write_plot(gp, m, blocks, p->dat, tpng, p->png, &g);
    write_plot(gp, m, blocks, p->dat, tsvg, p->svg, &g);
    free(blocks);
    int bad = g.bad;
    if (pb_stage_fclose(st, dat, p->dat, e) < 0) bad = 1;
    if (pb_stage_fclose(st, gp, p->gp, bad ? &(pb_err){{0}} : e) < 0) bad = 1;
    if (g.bad) pb_errf(e, "%s", g.err.msg);
    if (bad) return -1;
    return pb_report_run_gnuplot(gnuplot, st, p->gp, p->log, e);
}
