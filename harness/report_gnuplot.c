/* report_gnuplot.c — the report's plots: names quoted by the one tested function (pb_gp_quote),
 * gnuplot started without a shell. Reads only the loaded data (report_data.h). */
#include "report_data.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "metrics.h"

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

/* Quote one name or path for a gnuplot string (see pb_gp_quote); on refusal an empty string and
 * *bad set, so that the script writers stay simple and the caller refuses the whole report. */
typedef struct gpq {
    char buf[4][2200];
    int next;
    pb_err err;
    int bad;
} gpq;

static const char *q(gpq *g, const char *in)
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
    const char *env = getenv("PATH");
    if (!env || !*env) return 0;
    for (const char *p = env;;) {
        const char *c = strchr(p, ':');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        /* an empty entry means the current folder, as for execvp */
        int n = len ? snprintf(path, cap, "%.*s/gnuplot", (int)len, p) : snprintf(path, cap, "./gnuplot");
        struct stat sb;
        if (n > 0 && (size_t)n < cap && stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && access(path, X_OK) == 0)
            return 1;
        if (!c) return 0;
        p = c + 1;
    }
}

/* Run `gnuplot SCRIPT` with stdin from /dev/null and stderr into LOG; no shell, the script's
 * path is one argument. 0 if gnuplot exited 0. */
static int run_gnuplot(const char *gnuplot, const char *script, const char *log, pb_err *e)
{
    char arg[1200];
    /* a relative path that starts with '-' must not read as an option */
    snprintf(arg, sizeof arg, "%s%s", script[0] == '/' ? "" : "./", script);
    char *argv[] = {"gnuplot", arg, NULL};
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa)) return pb_errf(e, "cannot start gnuplot: out of memory");
    int rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (!rc) rc = posix_spawn_file_actions_addopen(&fa, 2, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid;
    extern char **environ;
    if (!rc) rc = posix_spawn(&pid, gnuplot, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc) return pb_errf(e, "cannot start %s: %s", gnuplot, strerror(rc));
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return pb_errf(e, "waiting for gnuplot: %s", strerror(errno));
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
    if (WIFEXITED(status))
        return pb_errf(e, "gnuplot failed on %s (exit %d); see %s", script, WEXITSTATUS(status), log);
    return pb_errf(e, "gnuplot failed on %s (signal %d); see %s", script, WIFSIGNALED(status) ? WTERMSIG(status) : 0,
                   log);
}

/* Plot for plot_x == "size": one panel per (variant, op), x = size (log2). */
static void write_size_plot(FILE *gp, FILE *dat, const char *datname, const pb_suite *s, const rows *m,
                            const rows *doc, const axes *a, const char *term, const char *out, int write_data,
                            gpq *g)
{
    int cols = a->no > 1 ? a->no : (a->nv >= 4 ? 2 : 1);
    int nrows = a->no > 1 ? a->nv : (a->nv + cols - 1) / cols;
    fprintf(gp, "set terminal %s noenhanced\nset output '%s'\n", term, q(g, out));
    fprintf(gp, "set datafile missing '?'\nset logscale x 2\nset logscale y\nset grid\n"
                "set key outside right top font ',7' spacing 0.9\nset format x '%%.0s%%cB'\n"
                "set multiplot layout %d,%d title \"%s: %s\\nmeasured here (lines) vs the document (points)\"\n",
            nrows, cols, s->name, pb_metric_words(pb_suite_primary_metric(s)));
    int block = 0;
    for (int vi = 0; vi < a->nv; vi++)
        for (int oi = 0; oi < a->no; oi++) {
            fprintf(gp, "set title '%s %s'\nset xlabel 'bytes per operation'\nset ylabel '%s'\nplot ", q(g, a->v[vi]),
                    q(g, a->o[oi]), pb_suite_primary_metric(s));
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
                                first ? "" : ", \\\n     ", q(g, datname), block, nseen == 1 ? 6 : 8, lc, q(g, x->impl));
                    else
                        fprintf(gp, "%s'%s' index %d using 1:2:3:4 with yerrorlines %s lc %d title '%s%s'",
                                first ? "" : ", \\\n     ", q(g, datname), block, pass == 1 ? "dt 2" : "lw 1.5", lc,
                                q(g, x->impl), pass == 1 ? " (TCG)" : "");
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
static void write_variant_plot(FILE *gp, const char *dir, const pb_suite *s, const rows *m, const rows *doc,
                               const axes *a, const char *term, const char *out, int write_data, gpq *g)
{
    fprintf(gp, "set terminal %s noenhanced\nset output '%s'\n", term, q(g, out));
    fprintf(gp, "set datafile missing '?'\nset style data histogram\nset style histogram clustered gap 1\n"
                "set style fill solid 0.8 border -1\nset boxwidth 0.9\nset grid y\nset yrange [0:*]\nset xtics rotate by -30\n"
                "set key outside right top font ',8'\n"
                "set multiplot layout %d,1 title \"%s: %s\\nmeasured here vs the document\"\n",
            a->no, s->name, pb_metric_words(pb_suite_primary_metric(s)));
    for (int oi = 0; oi < a->no; oi++) {
        char datname[1100];
        snprintf(datname, sizeof datname, "%s/%s_%s.dat", dir, s->name, a->o[oi]);
        /* columns: variant, each measured impl, each document impl */
        char dimpl[MAXV][PB_NAME_MAX];
        int nd = 0;
        for (int i = 0; i < doc->n; i++)
            if (!strcmp(doc->v[i].op, a->o[oi])) pb_report_add_unique(dimpl, &nd, doc->v[i].impl);
        if (write_data) {
            FILE *d = fopen(datname, "w");
            if (!d) {
                if (!g->bad) pb_errf(&g->err, "cannot write %s: %s", datname, strerror(errno));
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
            if (pb_report_close_checked(d, datname, g->bad ? &(pb_err){{0}} : &g->err) < 0) g->bad = 1;
        }
        fprintf(gp, "set title '%s'\nset ylabel '%s'\nplot ", q(g, a->o[oi]),
                pb_suite_primary_metric(s));
        int ncol = a->ni + nd;
        for (int k = 0; k < ncol; k++)
            fprintf(gp, "%s'%s' using %d%s title columnheader(%d)%s", k ? ", " : "", q(g, datname), k + 2,
                    k == 0 ? ":xtic(1)" : "", k + 2, k >= a->ni ? " fs pattern 4" : "");
        if (!ncol) fprintf(gp, "NaN notitle");
        fprintf(gp, "\n");
    }
    fprintf(gp, "unset multiplot\n");
}

int pb_report_plots(const pb_suite *s, const pb_report_data *d, const char *gnuplot, const char *out_dir,
                    const char *png, const char *svg, const char *mdname, pb_err *e)
{
    /* names come from imported files of other machines: every one must be safe as gnuplot text
     * and as a data-file field before anything is written */
    gpq g = {.next = 0, .bad = 0};
    for (int pass = 0; pass < 2 && !g.bad; pass++) {
        const rows *r = pass ? &d->doc : &d->m;
        for (int i = 0; i < r->n && !g.bad; i++) {
            q(&g, r->v[i].impl);
            q(&g, r->v[i].variant);
            q(&g, r->v[i].op);
        }
    }
    if (g.bad) return pb_errf(e, "%s", g.err.msg);
    axes a;
    pb_report_axes(&d->m, &a);

    char gpname[1100], datname[1100];
    snprintf(gpname, sizeof gpname, "%s/%s.gp", out_dir, s->name);
    snprintf(datname, sizeof datname, "%s/%s.dat", out_dir, s->name);
    FILE *gp = fopen(gpname, "w"), *dat = NULL;
    if (!gp) return pb_errf(e, "cannot write %s: %s", gpname, strerror(errno));
    int by_size = !s->plot_x || !strcmp(s->plot_x, "size");
    int panels = by_size ? a.nv * (a.no > 1 ? a.no : 1) : a.no;
    int h = by_size ? (a.no > 1 ? a.nv : (a.nv + 1) / 2) * 330 + 60 : a.no * 380 + 60;
    int w = by_size ? (a.no > 1 ? a.no : (a.nv >= 4 ? 2 : 1)) * 700 : 1100;
    (void)panels;
    char tpng[128], tsvg[128];
    snprintf(tpng, sizeof tpng, "pngcairo size %d,%d font ',9'", w, h);
    snprintf(tsvg, sizeof tsvg, "svg size %d,%d font 'sans,9' dynamic", w, h);
    if (by_size) {
        dat = fopen(datname, "w");
        if (!dat) { fclose(gp); return pb_errf(e, "cannot write %s", datname); }
        write_size_plot(gp, dat, datname, s, &d->m, &d->doc, &a, tpng, png, 1, &g);
        write_size_plot(gp, dat, datname, s, &d->m, &d->doc, &a, tsvg, svg, 0, &g);
        if (pb_report_close_checked(dat, datname, g.bad ? &(pb_err){{0}} : &g.err) < 0) g.bad = 1;
    } else {
        write_variant_plot(gp, out_dir, s, &d->m, &d->doc, &a, tpng, png, 1, &g);
        write_variant_plot(gp, out_dir, s, &d->m, &d->doc, &a, tsvg, svg, 0, &g);
    }
    if (pb_report_close_checked(gp, gpname, g.bad ? &(pb_err){{0}} : &g.err) < 0) g.bad = 1;
    char log[1200];
    snprintf(log, sizeof log, "%s/%s.gnuplot.log", out_dir, s->name);
    if (g.bad || run_gnuplot(gnuplot, gpname, log, e) < 0) {
        if (g.bad) pb_errf(e, "%s", g.err.msg);
        pb_report_remove_outputs(png, svg, mdname);
        return -1;
    }

    return 0;
}
