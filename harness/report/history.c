/* SPDX-License-Identifier: GPL-2.0-only */
/* history.c — behind `bench history`: one impl's median per cell over every complete run of a
 * suite, per machine, in git order (of the user's revisions, for runs of the user's code:
 * history_order.h) or run order, with the change points that E-divisive means finds in each
 * cell's series (changepoint.h): where (the runs and git revisions on either side), how large
 * (median after / median before) and how significant (permutation p at a fixed seed, so the same
 * store always gives the same answer); and a plot per cell. */
#include "history.h"
#include "text_out.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "changepoint.h"
#include "fmt.h"
#include "history_order.h"
#include "metrics.h"
#include "paths.h"
#include "report.h"
#include "report_data.h"
#include "stats.h"

typedef struct point {
    int64_t run;
    char git[16], started[32];
    char user[64];  /* the user's label or revision (runs of the user's code), "" none */
    long order;     /* position of its commit in git's history, -1 unknown */
    double median;
} point;

static int by_commit(const void *x, const void *y)
{
    const point *a = x, *b = y;
    if (a->order != b->order) return a->order < b->order ? -1 : 1;
    int c = strcmp(a->started, b->started);
    return c ? c : (a->run > b->run) - (a->run < b->run);
}

/* The history plots: one gnuplot script and one data file for every series, gnuplot run once at
 * the end, all made in a private folder and renamed into the output folder when whole
 * (out_stage.h). Every name (machine, cell, git revision) reaches the script only through
 * pb_gp_quote, and the script names its files relative to the private folder, where gnuplot runs;
 * one refusal and nothing is drawn, and nothing written is left. */
typedef struct history_plots {
    FILE *gp, *dat;
    pb_stage stage;
    char gpname[256], datname[256], log[256];
    const char *suite, *ylabel;
    int block, series;
    char (*files)[256]; /* the png and svg of each series, in order */
    size_t nfiles, cap;
    pb_gpq q; /* every name in the script passes through it */
} history_plots;

/* "chain spin 4 KiB" as a file-name part: anything but letters, digits, '.' and '-' becomes '_',
 * so that no name can leave the folder or look like an option */
static void slug(char *out, size_t cap, const char *in)
{
    size_t k = 0;
    for (const unsigned char *p = (const unsigned char *)in; *p && k + 1 < cap && k < 60; p++) {
        int keep = (isalnum(*p) || *p == '.' || *p == '-') && !(k == 0 && *p == '-');
        out[k++] = keep ? (char)*p : '_';
    }
    out[k] = 0;
}

/* the series' figure, png and svg: the medians in order, the change points as dashed vertical
 * lines labelled with the shift and p, and each segment's median as a step */
static void hp_series(history_plots *h, const char *machine, const char *cell, const point *pts, size_t n,
                      const pb_change *ch, int k, int by_commit, int user)
{
    if (h->q.bad || !n) return;
    char name[128];
    slug(name, sizeof name, cell);
    h->series++;
    if (h->nfiles + 2 > h->cap) {
        size_t nc = h->cap ? h->cap * 2 : 32;
        char (*nf)[256] = realloc(h->files, nc * sizeof *nf);
        if (!nf) { pb_errf(&h->q.err, "out of memory"); h->q.bad = 1; return; }
        h->files = nf;
        h->cap = nc;
    }
    char *png = h->files[h->nfiles], *svg = h->files[h->nfiles + 1];
    snprintf(png, 256, "history_%s_%02d_%s.png", h->suite, h->series, name);
    snprintf(svg, 256, "history_%s_%02d_%s.svg", h->suite, h->series, name);
    h->nfiles += 2;
    /* their places checked now: gnuplot writes them by name */
    if (pb_stage_add(&h->stage, png, &h->q.err) < 0 || pb_stage_add(&h->stage, svg, &h->q.err) < 0) {
        h->q.bad = 1;
        return;
    }
    /* block h->block: the medians; block h->block + 1: the segment medians as a step */
    for (size_t i = 0; i < n; i++) fprintf(h->dat, "%zu %.6g\n", i + 1, pts[i].median);
    fprintf(h->dat, "\n\n");
    double *x = malloc(n * sizeof *x);
    if (!x) { pb_errf(&h->q.err, "out of memory"); h->q.bad = 1; return; }
    for (size_t i = 0; i < n; i++) x[i] = pts[i].median;
    for (int c = 0; c <= k; c++) {
        size_t lo = c ? ch[c - 1].index : 0, hi = c < k ? ch[c].index : n;
        double med = pb_median(x + lo, hi - lo);
        fprintf(h->dat, "%.6g %.6g\n%.6g %.6g\n", lo + 0.5, med, hi + 0.5, med);
    }
    fprintf(h->dat, "\n\n");
    free(x);
    for (int t = 0; t < 2; t++) {
        /* room for PB_FIG_FONT_PT lettering (report.h) */
        int w = n > 24 ? 1400 : 1000, ht = 560;
        if (t == 0) fprintf(h->gp, "reset\nset terminal pngcairo size %d,%d font ',%d' noenhanced\n", w, ht, PB_FIG_FONT_PT);
        else {
            char tsvg[128];
            pb_fig_svg_terminal(tsvg, sizeof tsvg, w, ht);
            fprintf(h->gp, "reset\nset terminal %s noenhanced\n", tsvg);
        }
        fprintf(h->gp, "set output '%s'\n", pb_gpq_text(&h->q, t ? svg : png));
        fprintf(h->gp, "set title '%s: %s [%s]'\nset grid\nset key below font ',%d'\n", pb_gpq_text(&h->q, h->suite),
                pb_gpq_text(&h->q, cell), pb_gpq_text(&h->q, machine), PB_FIG_FONT_PT);
        fprintf(h->gp, "set ylabel '%s'\nset xlabel '%s'\nset xrange [0.5:%zu.5]\nset xtics rotate by -45 (", pb_gpq_text(&h->q, h->ylabel),
                user ? (by_commit ? "your revision (git order)" : "your revision (runs by start time)")
                : by_commit ? "git revision (git order)" : "git revision (runs by start time)", n);
        /* at most PB_HISTORY_TICS labels, evenly spaced, the last run's always: 1,000 would be ink */
        size_t every = (n + PB_HISTORY_TICS - 1) / PB_HISTORY_TICS;
        for (size_t i = 0; i < n; i++)
            if (i % every == 0 || i + 1 == n)
                fprintf(h->gp, "%s'%s' %zu", i ? ", " : "", pb_gpq_text(&h->q, user ? pts[i].user : pts[i].git), i + 1);
        fprintf(h->gp, ")\n");
        for (int c = 0; c < k; c++)
            fprintf(h->gp, "set arrow from %zu.5, graph 0 to %zu.5, graph 1 nohead dt 2 lw 1.5 lc rgb '#c00000'\n"
                           "set label 'x%.3f, p = %.3f' at %zu.5, graph 0.96 left offset 0.5,0 textcolor rgb '#c00000'\n",
                    ch[c].index, ch[c].index, ch[c].after / ch[c].before, ch[c].p, ch[c].index);
        fprintf(h->gp, "plot '%s' index %d using 1:2 with linespoints pt 7 ps 0.8 lc rgb '#1f5fa0' title 'median per run', \\\n"
                       "     '' index %d using 1:2 with lines lw 2 lc rgb '#d09000' title '%s'\n",
                pb_gpq_text(&h->q, h->datname), h->block, h->block + 1,
                k ? "segment median (E-divisive change points)" : "median (no change point)");
    }
    h->block += 2;
}

/* Each point's place in git's order: the user's revision when every run of the series names one
 * (runs of the user's code), else the lab's. 1 when every place is known, and *user says which. */
static int place_points(point *pts, size_t n, const pb_run_orders *ro, int *user)
{
    *user = n > 0;
    for (size_t i = 0; i < n; i++) {
        const pb_run_pos *p = pb_history_pos(ro, pts[i].run);
        *user &= p && p->has_user;
    }
    int all_known = 1;
    for (size_t i = 0; i < n; i++) {
        const pb_run_pos *p = pb_history_pos(ro, pts[i].run);
        pts[i].order = !p ? -1 : *user ? p->user : p->lab;
        all_known &= pts[i].order >= 0;
    }
    return all_known;
}

/* a long series' summary: how many runs, the first and the last */
static void print_ends(const point *pts, size_t n, const pb_metric *m, int user)
{
    for (int end = 0; end < 2; end++) {
        const point *p = &pts[end ? n - 1 : 0];
        char b[48], tg[128], ts[128];
        printf("  %-5s run %lld (%s %s, %s): %s %s\n", end ? "last" : "first", (long long)p->run, user ? "revision" : "git",
               pb_term_text(tg, sizeof tg, user ? p->user : p->git), pb_term_text(ts, sizeof ts, p->started),
               pb_fmt_sig(b, sizeof b, p->median, 4), m->unit);
    }
    printf("  %zu runs (every one with --all)\n", n);
}

/* the series' table: one row per run, in the order placed; a series longer than
 * PB_HISTORY_FULL_RUNS as its summary unless every run is asked for */
static void print_points(const point *pts, size_t n, const pb_metric *m, int user, int all)
{
    if (!all && n > PB_HISTORY_FULL_RUNS) {
        printf("\n");
        print_ends(pts, n, m, user);
        return;
    }
    char b[48], tg[128], ts[128];
    printf("\n  %-6s %-*s %-24s %s (%s)\n", "run", user ? 24 : 13, user ? "your revision" : "git", "started", "median",
           m->unit);
    for (size_t i = 0; i < n; i++)
        printf("  %-6lld %-*s %-24s %s\n", (long long)pts[i].run, user ? 24 : 13,
               pb_term_text(tg, sizeof tg, user ? pts[i].user : pts[i].git), pb_term_text(ts, sizeof ts, pts[i].started),
               pb_fmt_sig(b, sizeof b, pts[i].median, 4));
}

/* one cell's series on one machine: print it and its change points. In git order when every
 * run's commit is in the repository at hand (the user's, for runs of the user's code), else in the
 * order the runs started. */
static void report_series(const char *machine, const char *cell, point *pts, size_t n, const pb_cp_opts *o,
                          const pb_metric *m, const pb_run_orders *ro, history_plots *plots, int all)
{
    int user, all_known = place_points(pts, n, ro, &user);
    if (all_known) qsort(pts, n, sizeof *pts, by_commit);
    /* names and provenance from the store, for a terminal: no control byte reaches it */
    char tc[1024], tm[512], tr[1100];
    printf("\n%s  [%s] (ordered by %s", pb_term_text(tc, sizeof tc, cell), pb_term_text(tm, sizeof tm, machine),
           !all_known ? "run start time" : user ? "your revision, git order in " : "commit, git order");
    if (all_known && user) printf("%s", pb_term_text(tr, sizeof tr, ro->user_repo));
    printf("%s)", all_known ? "; runs of one commit by start time" : user ? "; your revisions are not all in "
                                                                            "one git history at hand" : "");
    print_points(pts, n, m, user, all);
    double *x = malloc((n ? n : 1) * sizeof *x);
    pb_change ch[32];
    int k = -1;
    if (x) {
        for (size_t i = 0; i < n; i++) x[i] = pts[i].median;
        k = pb_changepoints(x, n, o, ch, 32);
    }
    free(x);
    if (k < 0) { printf("  change points: out of memory\n"); return; }
    if (plots) hp_series(plots, machine, cell, pts, n, ch, k, all_known, user);
    if (k == 0) {
        printf("  change points: none (E-divisive means, alpha %.3g, %zu runs%s)\n", o->alpha, n,
               n < 2 * (size_t)o->min_size ? ", too few to test" : "");
        return;
    }
    for (int i = 0; i < k; i++) {
        const point *a = &pts[ch[i].index - 1], *z = &pts[ch[i].index];
        char bb[48], ba[48], ta[128], tz[128];
        printf("  CHANGE between run %lld (%s %s) and run %lld (%s %s): median %s -> %s %s (x%.3f, %+.1f %%), "
               "p = %.4f (%d permutations)\n",
               (long long)a->run, user ? "revision" : "git", pb_term_text(ta, sizeof ta, user ? a->user : a->git),
               (long long)z->run, user ? "revision" : "git", pb_term_text(tz, sizeof tz, user ? z->user : z->git),
               pb_fmt_sig(bb, sizeof bb, ch[i].before, 4),
               pb_fmt_sig(ba, sizeof ba, ch[i].after, 4), m->unit, ch[i].after / ch[i].before,
               (ch[i].after / ch[i].before - 1) * 100, ch[i].p, o->permutations);
    }
}

/* The plots' files in o->out_dir, opened; 0, or with the reason on stderr 1 (failed) or 2 (--out
 * or a file's place in it refused), nothing left. */
static int hp_open(history_plots *hp, const pb_history_opts *o, char *gnuplot, size_t cap)
{
    snprintf(hp->gpname, sizeof hp->gpname, "history_%s.gp", o->suite->name);
    snprintf(hp->datname, sizeof hp->datname, "history_%s.dat", o->suite->name);
    snprintf(hp->log, sizeof hp->log, "history_%s.gnuplot.log", o->suite->name);
    hp->stage = (pb_stage){.dirfd = -1, .fd = -1};
    pb_err e = {{0}};
    if (!pb_report_find_gnuplot(gnuplot, cap)) {
        fprintf(stderr, "bench history: %s: gnuplot not found on PATH: install it (Debian: apt-get install "
                        "gnuplot-nox) or pass --no-plots\n", o->out_dir);
        return 1;
    }
    if (pb_stage_open(&hp->stage, o->out_dir, "--out", PB_STAGE_MKDIR, &e) == 0 &&
        (hp->gp = pb_stage_fopen(&hp->stage, hp->gpname, &e)) && (hp->dat = pb_stage_fopen(&hp->stage, hp->datname, &e)))
        return 0;
    fprintf(stderr, "bench history: %s\n", e.msg);
    if (hp->gp) fclose(hp->gp);
    int refused = hp->stage.refused;
    pb_stage_close(&hp->stage);
    return refused ? 2 : 1;
}

/* Closes the plots' script and data, runs gnuplot when there is something to draw and nothing
 * failed, renames the files into the output folder and lists them; leaves none on any failure.
 * rc: the series loop's status. */
static int hp_finish(history_plots *hp, const char *gnuplot, int series, int rc)
{
    int bad = hp->q.bad;
    pb_stage *st = &hp->stage;
    if (pb_stage_fclose(st, hp->gp, hp->gpname, bad ? &(pb_err){{0}} : &hp->q.err) < 0) bad = 1;
    if (pb_stage_fclose(st, hp->dat, hp->datname, bad ? &(pb_err){{0}} : &hp->q.err) < 0) bad = 1;
    if (!bad && series && !rc && pb_report_run_gnuplot(gnuplot, st, hp->gpname, hp->log, &hp->q.err) < 0) bad = 1;
    if (!bad && series && !rc && pb_stage_commit(st, &hp->q.err) < 0) bad = 1;
    int refused = st->refused;
    if (!bad && series && !rc) {
        char shown[1300];
        printf("\nplots (png and svg per cell; script %s):\n", pb_stage_shown(st, hp->gpname, shown, sizeof shown));
        for (size_t i = 0; i < hp->nfiles; i++) printf("  %s\n", pb_stage_shown(st, hp->files[i], shown, sizeof shown));
    }
    pb_stage_close(st);   /* what was not renamed into place goes with the private folder */
    free(hp->files);
    if (bad) {
        fprintf(stderr, "bench history: no plots: %s\n", hp->q.err.msg);
        return rc ? rc : refused ? 2 : 1;
    }
    return rc;
}

/* Reads q's rows into one series per (machine, cell) and reports each as it ends. The number of
 * series in *series; 0, 1 (out of memory) or 2 (the store failed). */
static int history_series(pb_store *st, pb_stmt *q, const pb_cp_opts *cp, const pb_metric *m,
                          const pb_run_orders *ro, history_plots *plots, int all, int *series)
{
    point *pts = NULL;
    size_t n = 0, cap = 0;
    char key[512] = "", machine[256] = "", cell[256] = "";
    int rc = 0;
    for (;;) {
        pb_history_row r;
        pb_err e = {{0}};
        int step = pb_report_history_next(st, q, &r, &e);
        char k2[512] = "";
        if (step > 0)
            snprintf(k2, sizeof k2, "%s\x1f%s\x1f%s\x1f%lld", r.machine, r.variant, r.op, (long long)r.size);
        if (n && (step <= 0 || strcmp(k2, key))) {
            report_series(machine, cell, pts, n, cp, m, ro, plots, all);
            (*series)++;
            n = 0;
        }
        if (step <= 0) {
            if (step < 0) { fprintf(stderr, "bench history: %s\n", e.msg); rc = 2; }
            break;
        }
        snprintf(key, sizeof key, "%s", k2);
        snprintf(machine, sizeof machine, "machine %s", r.machine);
        char sz[32];
        snprintf(cell, sizeof cell, "%s %s %s", r.variant, r.op, pb_fmt_bytes(sz, sizeof sz, r.size));
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 64;
            point *np = realloc(pts, nc * sizeof *np);
            if (!np) { fprintf(stderr, "bench history: out of memory\n"); rc = 1; break; }
            pts = np;
            cap = nc;
        }
        point *p = &pts[n++];
        p->run = r.run;
        snprintf(p->git, sizeof p->git, "%s", r.git);
        snprintf(p->user, sizeof p->user, "%s", r.user);
        snprintf(p->started, sizeof p->started, "%s", r.started);
        p->median = r.median;
    }
    free(pts);
    return rc;
}

int pb_history(pb_store *st, const pb_history_opts *o)
{
    const pb_suite *s = o->suite;
    const char *impl = o->impl ? o->impl : s->candidate;
    const char *metric = o->metric ? o->metric : pb_suite_primary_metric(s);
    const pb_metric *m = pb_metric_find(metric);
    char gnuplot[1100], ylabel[256];
    history_plots hp = {.suite = s->name, .ylabel = ylabel}, *plots = o->out_dir ? &hp : NULL;
    /* the metric's words without their "(median, p10-p90)": the plot shows each run's median only */
    const char *words = m ? m->words : metric;
    size_t wl = strcspn(words, "(");
    while (wl && words[wl - 1] == ' ') wl--;
    snprintf(ylabel, sizeof ylabel, "%.*s, each run's median", (int)wl, words);
    int orc = plots ? hp_open(&hp, o, gnuplot, sizeof gnuplot) : 0;
    if (orc) return orc;
    pb_stmt *q;
    pb_err qe = {{0}};
    /* a count only callgrind gives (insns_per_op) is in the runs of --measure valgrind: their own series */
    const char *target = pb_metric_valgrind(metric) && !(m && m->bit) ? "valgrind" : "userspace";
    if (pb_report_history_rows(st, s->name, impl, metric, target, &q, &qe) < 0) {
        fprintf(stderr, "bench history: %s\n", qe.msg);
        if (plots) hp_finish(&hp, gnuplot, 0, 2);   /* nothing drawn, nothing left */
        return 2;
    }
    char ti[256], td[1100];
    printf("%s: %s, %s, every complete %s run in %s\n", s->name, pb_term_text(ti, sizeof ti, impl),
           m ? m->words : metric, target, pb_term_text(td, sizeof td, o->db));
    /* git order when the repository the runs were built from is at hand (PB_SOURCE_ROOT), or the
     * user's, for runs of the user's code */
    pb_run_orders ro;
    pb_err oe = {{0}};
    if (pb_history_orders(st, s->name, &ro, &oe) < 0) {
        fprintf(stderr, "bench history: %s\n", oe.msg);
        pb_db_finalize(q);
        if (plots) hp_finish(&hp, gnuplot, 0, 2);
        return 2;
    }
    pb_cp_opts cp = {.alpha = o->alpha, .permutations = 999, .min_size = 3, .seed = 20161229};
    int series = 0;
    int rc = history_series(st, q, &cp, m, &ro, plots, o->all, &series);
    pb_db_finalize(q);
    pb_history_orders_free(&ro);
    if (plots) {
        int prc = hp_finish(&hp, gnuplot, series, rc);
        if (prc && !rc) return prc;
        if (prc) return rc;
    }
    if (!series && !rc) {
        fprintf(stderr, "bench history: no complete run of %s with impl '%s' in %s\n", s->name, impl, o->db);
        return 2;
    }
    return rc;
}
