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

/* x tics at the measured sizes, labelled in binary units ("32 KiB", never gnuplot's "33kB") */
static void write_size_xtics(FILE *gp, const axes *a)
{
    fprintf(gp, "set xtics (");
    for (int i = 0; i < a->ns; i++) {
        char b[32];
        fprintf(gp, "%s'%s' %lld", i ? ", " : "", pb_fmt_bytes(b, sizeof b, a->sizes[i]), (long long)a->sizes[i]);
    }
    fprintf(gp, ")%s\n", a->ns > 4 ? " rotate by -30" : "");
}

/* Plot for plot_x == "size": one panel per (variant, op), x = size (log2). */
static void write_size_plot(FILE *gp, FILE *dat, const char *datname, const pb_suite *s, const rows *m,
                            const rows *doc, const axes *a, const char *term, const char *out, int write_data,
                            pb_gpq *g)
{
    int cols = a->no > 1 ? a->no : (a->nv >= 4 ? 2 : 1);
    int nrows = a->no > 1 ? a->nv : (a->nv + cols - 1) / cols;
    fprintf(gp, "set terminal %s noenhanced\nset output '%s'\n", term, pb_gpq_text(g, out));
    fprintf(gp, "set datafile missing '?'\nset logscale x 2\nset logscale y\nset grid\n"
                "set key outside right top font ',7' spacing 0.9\n"
                "set multiplot layout %d,%d title \"%s: %s\\nmeasured here (lines) vs the document (points)\"\n",
            nrows, cols, s->name, pb_metric_words(pb_suite_primary_metric(s)));
    write_size_xtics(gp, a);
    int block = 0;
    for (int vi = 0; vi < a->nv; vi++)
        for (int oi = 0; oi < a->no; oi++) {
            fprintf(gp, "set title '%s %s'\nset xlabel 'bytes per operation'\nset ylabel '%s'\nplot ", pb_gpq_text(g, a->v[vi]),
                    pb_gpq_text(g, a->o[oi]), pb_metric_words(pb_suite_primary_metric(s)));
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
            fprintf(gp, "\n");
        }
    fprintf(gp, "unset multiplot\n");
}

/* Plot for plot_x == "variant": one panel per op, grouped bars per variant. */
static void write_variant_plot(FILE *gp, pb_stage *st, const pb_suite *s, const rows *m, const rows *doc,
                               const axes *a, const char *term, const char *out, int write_data, pb_gpq *g)
{
    fprintf(gp, "set terminal %s noenhanced\nset output '%s'\n", term, pb_gpq_text(g, out));
    fprintf(gp, "set datafile missing '?'\nset style data histogram\nset style histogram clustered gap 1\n"
                "set style fill solid 0.8 border -1\nset boxwidth 0.9\nset grid y\nset yrange [0:*]\nset xtics rotate by -30\n"
                "set key outside right top font ',8'\n"
                "set multiplot layout %d,1 title \"%s: %s\\nmeasured here vs the document\"\n",
            a->no, s->name, pb_metric_words(pb_suite_primary_metric(s)));
    for (int oi = 0; oi < a->no; oi++) {
        char datname[256];
        snprintf(datname, sizeof datname, "%s_%s.dat", s->name, a->o[oi]);
        /* columns: variant, each measured impl, each document impl */
        char dimpl[MAXV][PB_NAME_MAX];
        int nd = 0;
        for (int i = 0; i < doc->n; i++)
            if (!strcmp(doc->v[i].op, a->o[oi])) pb_report_add_unique(dimpl, &nd, doc->v[i].impl);
        if (write_data) {
            FILE *d = pb_stage_fopen(st, datname, g->bad ? &(pb_err){{0}} : &g->err);
            if (!d) {
                g->bad = 1;
                continue;
            }
            fprintf(d, "variant");
            for (int k = 0; k < a->ni; k++) {
                int guest = 0;
                for (int i = 0; i < m->n; i++) guest |= m->v[i].guest && !strcmp(m->v[i].impl, a->impl[k]);
                fprintf(d, " \"%s%s\"", a->impl[k], guest ? " (QEMU TCG, emulated)" : "");
            }
            for (int k = 0; k < nd; k++) fprintf(d, " \"document %s\"", dimpl[k]);
            fprintf(d, "\n");
            for (int vi = 0; vi < a->nv; vi++) {
                fprintf(d, "\"%s\"", a->v[vi]);
                for (int k = 0; k < a->ni; k++) {
                    const row *x = pb_report_find(m, a->impl[k], a->v[vi], a->o[oi], -1);
                    if (x) fprintf(d, " %.6g", x->median); else fprintf(d, " ?");
                }
                for (int k = 0; k < nd; k++) {
                    const row *x = pb_report_find(doc, dimpl[k], a->v[vi], a->o[oi], -1);
                    if (x) fprintf(d, " %.6g", x->median); else fprintf(d, " ?");
                }
                fprintf(d, "\n");
            }
            if (pb_stage_fclose(st, d, datname, g->bad ? &(pb_err){{0}} : &g->err) < 0) g->bad = 1;
        }
        fprintf(gp, "set title '%s'\nset ylabel '%s'\nplot ", pb_gpq_text(g, a->o[oi]),
                pb_metric_words(pb_suite_primary_metric(s)));
        int ncol = a->ni + nd;
        for (int k = 0; k < ncol; k++)
            fprintf(gp, "%s'%s' using %d%s title columnheader(%d)%s", k ? ", " : "", pb_gpq_text(g, datname), k + 2,
                    k == 0 ? ":xtic(1)" : "", k + 2, k >= a->ni ? " fs pattern 4" : "");
        if (!ncol) fprintf(gp, "NaN notitle");
        fprintf(gp, "\n");
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

/* The document's time ratio candidate/baseline of a cell (size < 0: any size), NaN if it gives none. */
static double doc_time_ratio(const pb_suite *s, const rows *doc, const char *variant, const char *op, int64_t size)
{
    const row *b = pb_report_find(doc, s->baseline, variant, op, size);
    const row *c = pb_report_find(doc, s->candidate, variant, op, size);
    if (!b || !c || !(b->median > 0) || !(c->median > 0)) return NAN;
    double r = c->median / b->median;
    return pb_metric_higher_is_better(pb_suite_primary_metric(s)) ? 1 / r : r;
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
            double dr = doc_time_ratio(p->s, &p->d->doc, v, p->a->o[p->oi], p->by_size ? p->a->sizes[xi] : -1);
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

/* The ratio figure: per panel ((variant, op) against size, or op against variant), each series'
 * time ratio with its 95 % CI as error bars (and, thin, its range over code layouts), the
 * document's ratio as a point inside its tolerance band [d/(1+t), d(1+t)] (a shaded box), 1 (no
 * change) dashed, and a ring around each point of a cell that differs from the real code. */
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
    fprintf(gp, "reset\nset datafile missing '?'\nset logscale y 2\nset format y '%%g'\nset grid\nset key outside right top font ',7'\n"
                "set style fill transparent solid 0.35 noborder\n");
    if (by_size) {
        fprintf(gp, "set logscale x 2\nset xlabel 'bytes per operation'\n");
        write_size_xtics(gp, a);
    } else {
        fprintf(gp, "set xrange [-0.5:%g]\nset xtics rotate by -30 (", a->nv - 0.5);
        for (int vi = 0; vi < a->nv; vi++) fprintf(gp, "%s'%s' %d", vi ? ", " : "", pb_gpq_text(g, a->v[vi]), vi);
        fprintf(gp, ")\n");
    }
    fprintf(gp, "set multiplot layout %d,%d title \"%s: time per operation, X/%s (below 1: X is faster)\\n"
                "95 %% CI as error bars, the range over code layouts as thin bars; the document's %s/%s as a diamond in its tolerance band (t = %.2f)\"\n",
            nrows, cols, s->name, s->baseline, s->candidate, s->baseline, t);
    panel p = {.gp = gp, .dat = dat, .datname = datname, .s = s, .d = d, .a = a, .by_size = by_size,
               .write_data = write_data, .g = g, .block = 0};
    for (p.vi = 0; p.vi < npanel_v; p.vi++)
        for (p.oi = 0; p.oi < a->no; p.oi++) {
            if (by_size) fprintf(gp, "set title '%s %s'\n", pb_gpq_text(g, a->v[p.vi]), pb_gpq_text(g, a->o[p.oi]));
            else fprintf(gp, "set title '%s'\n", pb_gpq_text(g, a->o[p.oi]));
            fprintf(gp, "set ylabel 'time ratio X/%s'\nplot 1 with lines dt 2 lc rgb '#606060' title 'no change'",
                    pb_gpq_text(g, s->baseline));
            write_doc_band(&p, t);
            for (int k = 0; k < nsr; k++) write_series(&p, sr, k, nsr);
            write_real_marks(&p, sr, nsr, d->run, 0, cfg->real_code_threshold);
            write_real_marks(&p, sr, nsr, d->guest_run, 1, cfg->real_code_threshold);
            fprintf(gp, "\n");
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
    int h = by_size ? (a.no > 1 ? a.nv : (a.nv + 1) / 2) * 330 + 60 : a.no * 380 + 60;
    int w = by_size ? (a.no > 1 ? a.no : (a.nv >= 4 ? 2 : 1)) * 700 : 1100;
    char tpng[128], tsvg[128];
    snprintf(tpng, sizeof tpng, "pngcairo size %d,%d font ',9'", w, h);
    snprintf(tsvg, sizeof tsvg, "svg size %d,%d font 'sans,9' dynamic", w, h);
    rdat = pb_stage_fopen(st, rdatname, e);
    if (!rdat) { fclose(gp); return -1; }
    write_ratio_plot(gp, rdat, rdatname, s, d, &a, in->cfg, tpng, fig->ratio_png, 1, &g);
    write_ratio_plot(gp, rdat, rdatname, s, d, &a, in->cfg, tsvg, fig->ratio_svg, 0, &g);
    if (pb_stage_fclose(st, rdat, rdatname, g.bad ? &(pb_err){{0}} : &g.err) < 0) g.bad = 1;
    if (by_size) {
        dat = pb_stage_fopen(st, datname, e);
        if (!dat) { fclose(gp); return -1; }
        write_size_plot(gp, dat, datname, s, &d->m, &d->doc, &a, tpng, fig->png, 1, &g);
        write_size_plot(gp, dat, datname, s, &d->m, &d->doc, &a, tsvg, fig->svg, 0, &g);
        if (pb_stage_fclose(st, dat, datname, g.bad ? &(pb_err){{0}} : &g.err) < 0) g.bad = 1;
    } else {
        write_variant_plot(gp, st, s, &d->m, &d->doc, &a, tpng, fig->png, 1, &g);
        write_variant_plot(gp, st, s, &d->m, &d->doc, &a, tsvg, fig->svg, 0, &g);
    }
    if (pb_stage_fclose(st, gp, gpname, g.bad ? &(pb_err){{0}} : &g.err) < 0) g.bad = 1;
    if (g.bad) return pb_errf(e, "%s", g.err.msg);
    /* on failure the caller drops every staged file but the log (pb_report_run_gnuplot keeps it) */
    return pb_report_run_gnuplot(in->gnuplot, st, gpname, log, e);
}
