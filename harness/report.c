#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "metrics.h"

/* A faster claim that does not even show this gain does not hold (a CI wholly
 * above 1 - MIN_GAIN); see pb_verdict in report.h for the rest. */
#define MIN_GAIN 0.01

static const char V_HOLDS[] = "claim holds", V_SIZE[] = "direction holds, size differs",
                  V_NOT[] = "claim does not hold", V_INCONCLUSIVE[] = "inconclusive here", V_NONE[] = "no claim",
                  V_NODATA[] = "no data", CODEGEN_MARK[] = "depends on code generation";

/* Does [lo, hi] meet the document's band [doc/(1+t), doc*(1+t)]? Touching counts. */
static int overlaps_band(double doc, double t, double lo, double hi)
{
    return lo <= doc * (1 + t) && hi >= doc / (1 + t);
}

const char *pb_verdict(pb_claim c, double doc, double t, double lo, double hi)
{
    if (c == PB_CLAIM_NONE) return V_NONE;
    if (isnan(lo) || isnan(hi) || lo > hi || !(t > 0) || !isfinite(t)) return V_INCONCLUSIVE;
    int sized = isfinite(doc) && doc > 0; /* NaN: direction only */
    switch (c) {
    case PB_CLAIM_FASTER:
        if (hi < 1.0) return !sized || overlaps_band(doc, t, lo, hi) ? V_HOLDS : V_SIZE;
        if (lo > 1.0 - MIN_GAIN) return V_NOT;
        return V_INCONCLUSIVE;
    case PB_CLAIM_NOT_SLOWER:
        if (hi <= 1.0 + t) return !sized || overlaps_band(doc, t, lo, hi) ? V_HOLDS : V_SIZE;
        if (lo > 1.0 + t) return V_NOT;
        return V_INCONCLUSIVE;
    case PB_CLAIM_EQUAL:
        if (lo >= 1.0 / (1 + t) && hi <= 1.0 + t) return V_HOLDS;
        if (hi < 1.0 / (1 + t) || lo > 1.0 + t) return V_NOT;
        return V_INCONCLUSIVE;
    default:
        return V_NONE;
    }
}

static void count_verdict(pb_verdict_counts *n, const char *v)
{
    n->cells++;
    if (v == V_HOLDS) n->holds++;
    else if (v == V_SIZE) n->size_differs++;
    else if (v == V_NOT) n->does_not_hold++;
    else if (v == V_INCONCLUSIVE) n->inconclusive++;
    else if (v == V_NONE) n->no_claim++;
    else n->no_data++;
}

void pb_verdict_summary(const pb_verdict_counts *c, char *buf, size_t len)
{
    int k = snprintf(buf, len, "%d cell%s: %s %d; %s %d; %s %d; %s %d", c->cells, c->cells == 1 ? "" : "s",
                     V_HOLDS, c->holds, V_SIZE, c->size_differs, V_NOT, c->does_not_hold, V_INCONCLUSIVE,
                     c->inconclusive);
    if (c->no_claim && k > 0 && (size_t)k < len)
        k += snprintf(buf + k, len - (size_t)k, "; %s %d", V_NONE, c->no_claim);
    if (c->no_data && k > 0 && (size_t)k < len)
        k += snprintf(buf + k, len - (size_t)k, "; %s %d", V_NODATA, c->no_data);
    if (k > 0 && (size_t)k < len) snprintf(buf + k, len - (size_t)k, "; %s %d", CODEGEN_MARK, c->codegen);
}

/* data/verdict.tsv: setting <TAB> suite|* <TAB> value */
int pb_verdict_cfg_load(const char *data_dir, const char *suite, pb_verdict_cfg *cfg, pb_err *e)
{
    cfg->tolerance = 0.10;
    cfg->codegen_threshold = 0.10;
    char path[1024];
    snprintf(path, sizeof path, "%s/verdict.tsv", data_dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(cfg->source, sizeof cfg->source, "built-in defaults (%s: %s)", path, strerror(errno));
        return 0;
    }
    snprintf(cfg->source, sizeof cfg->source, "%s", path);
    int own_tol = 0, own_cg = 0; /* a suite's own line wins over `*` whatever the order */
    char line[512];
    int ln = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        ln++;
        if (line[0] == '#' || line[0] == '\n') continue;
        char setting[PB_NAME_MAX], who[PB_NAME_MAX], rest[64];
        double v;
        int got = sscanf(line, "%47[^\t\n]\t%47[^\t\n]\t%lf%63s", setting, who, &v, rest);
        if (got != 3) {
            rc = pb_errf(e, "%s:%d: expected 3 tab-separated fields (setting suite|* value)", path, ln);
            break;
        }
        if (!(v > 0 && v < 1)) {
            rc = pb_errf(e, "%s:%d: %s wants a fraction between 0 and 1, got %g", path, ln, setting, v);
            break;
        }
        int is_tol = !strcmp(setting, "tolerance");
        if (!is_tol && strcmp(setting, "codegen_threshold")) {
            rc = pb_errf(e, "%s:%d: unknown setting '%s' (tolerance, codegen_threshold)", path, ln, setting);
            break;
        }
        int own = !strcmp(who, suite);
        if (!own && strcmp(who, "*")) continue; /* another suite's override */
        if (is_tol) {
            if (own || !own_tol) cfg->tolerance = v;
            own_tol |= own;
        } else {
            if (own || !own_cg) cfg->codegen_threshold = v;
            own_cg |= own;
        }
    }
    fclose(f);
    return rc;
}

typedef struct row {
    char impl[PB_NAME_MAX], variant[PB_NAME_MAX], op[PB_NAME_MAX];
    int64_t size;
    double median, p10, p90;
    int guest;
} row;

typedef struct rows {
    row *v;
    int n, cap;
} rows;

static row *push(rows *r)
{
    if (r->n == r->cap) {
        int cap = r->cap ? 2 * r->cap : 64;
        row *nv = realloc(r->v, (size_t)cap * sizeof *nv);
        if (!nv) return NULL;
        r->v = nv;
        r->cap = cap;
    }
    row *x = &r->v[r->n++];
    memset(x, 0, sizeof *x);
    return x;
}

static int load_measured(pb_store *st, int64_t run, const char *metric, int guest, rows *out, pb_err *e)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(st->db,
                           "SELECT c.impl, c.variant, c.op, c.size_bytes, s.median, s.p10, s.p90"
                           " FROM cases c JOIN stats s ON s.case_id = c.id JOIN runs r ON r.id = c.run_id"
                           " WHERE c.run_id = ?1 AND s.metric = ?2 AND r.status = 'complete' ORDER BY c.id",
                           -1, &q, NULL) != SQLITE_OK)
        return pb_errf(e, "%s: %s", st->path, sqlite3_errmsg(st->db));
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_text(q, 2, metric, -1, SQLITE_TRANSIENT);
    while (sqlite3_step(q) == SQLITE_ROW) {
        row *x = push(out);
        if (!x) break;
        snprintf(x->impl, sizeof x->impl, "%s", sqlite3_column_text(q, 0));
        snprintf(x->variant, sizeof x->variant, "%s", sqlite3_column_text(q, 1));
        snprintf(x->op, sizeof x->op, "%s", sqlite3_column_text(q, 2));
        x->size = sqlite3_column_int64(q, 3);
        x->median = sqlite3_column_double(q, 4);
        x->p10 = sqlite3_column_double(q, 5);
        x->p90 = sqlite3_column_double(q, 6);
        x->guest = guest;
    }
    sqlite3_finalize(q);
    return 0;
}

/* data/<suite>_doc.tsv: impl variant op size_bytes metric value */
static int load_doc(const char *dir, const char *suite, const char *metric, rows *out, pb_err *e)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s_doc.tsv", dir, suite);
    FILE *f = fopen(path, "r");
    if (!f) return 0; /* a suite without a document table: nothing to draw beside */
    char line[512];
    int ln = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        if (ln == 1 || line[0] == '#' || line[0] == '\n') continue;
        char impl[PB_NAME_MAX], variant[PB_NAME_MAX], op[PB_NAME_MAX], m[PB_NAME_MAX];
        long long size;
        double v;
        if (sscanf(line, "%47[^\t]\t%47[^\t]\t%47[^\t]\t%lld\t%47[^\t]\t%lf", impl, variant, op, &size, m, &v) != 6) {
            fclose(f);
            return pb_errf(e, "%s:%d: expected 6 tab-separated fields (impl variant op size_bytes metric value)",
                           path, ln);
        }
        if (strcmp(m, metric)) continue;
        row *x = push(out);
        if (!x) break;
        snprintf(x->impl, sizeof x->impl, "%s", impl);
        snprintf(x->variant, sizeof x->variant, "%s", variant);
        snprintf(x->op, sizeof x->op, "%s", op);
        x->size = size;
        x->median = x->p10 = x->p90 = v;
    }
    fclose(f);
    return 0;
}

static int index_of(char list[][PB_NAME_MAX], int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(list[i], s)) return i;
    return -1;
}

#define MAXV 32
typedef struct axes {
    int nv, no, ni;
    char v[MAXV][PB_NAME_MAX], o[MAXV][PB_NAME_MAX], impl[MAXV][PB_NAME_MAX];
    int64_t sizes[64];
    int ns;
} axes;

static void add_unique(char list[][PB_NAME_MAX], int *n, const char *s)
{
    if (index_of(list, *n, s) < 0 && *n < MAXV) snprintf(list[(*n)++], PB_NAME_MAX, "%s", s);
}

static void collect_axes(const rows *m, axes *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 0; i < m->n; i++) {
        add_unique(a->v, &a->nv, m->v[i].variant);
        add_unique(a->o, &a->no, m->v[i].op);
        char label[PB_NAME_MAX];
        snprintf(label, sizeof label, "%s", m->v[i].impl);
        add_unique(a->impl, &a->ni, label);
        int found = 0;
        for (int k = 0; k < a->ns; k++) found |= a->sizes[k] == m->v[i].size;
        if (!found && a->ns < 64) a->sizes[a->ns++] = m->v[i].size;
    }
    /* sizes ascending */
    for (int i = 1; i < a->ns; i++)
        for (int j = i; j > 0 && a->sizes[j - 1] > a->sizes[j]; j--) {
            int64_t t = a->sizes[j]; a->sizes[j] = a->sizes[j - 1]; a->sizes[j - 1] = t;
        }
}

static const row *find(const rows *r, const char *impl, const char *variant, const char *op, int64_t size)
{
    for (int i = 0; i < r->n; i++) {
        const row *x = &r->v[i];
        if (!strcmp(x->impl, impl) && !strcmp(x->variant, variant) && !strcmp(x->op, op) &&
            (x->size == size || size < 0 || x->size == 0))
            return x;
    }
    return NULL;
}

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
static int find_gnuplot(char *path, size_t cap)
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

/* a report that failed leaves no plot or table behind that could pass for a whole one */
static void remove_outputs(const char *png, const char *svg, const char *md)
{
    unlink(png);
    unlink(svg);
    unlink(md);
}

/* fclose that reports any earlier failed write too (stdio keeps the error flag) */
static int close_checked(FILE *f, const char *name, pb_err *e)
{
    int failed = ferror(f);
    int err = errno;
    if (fclose(f) != 0) { failed = 1; err = errno; }
    return failed ? pb_errf(e, "cannot write %s: %s", name, strerror(err)) : 0;
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
                    if (index_of(seen, nseen, x->impl) >= 0) continue;
                    add_unique(seen, &nseen, x->impl);
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
                    int ci = index_of((char (*)[PB_NAME_MAX])a->impl, a->ni, x->impl);
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
            if (!strcmp(doc->v[i].op, a->o[oi])) add_unique(dimpl, &nd, doc->v[i].impl);
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
                    const row *x = find(m, a->impl[k], a->v[vi], a->o[oi], -1);
                    if (x) fprintf(d, " %.6g", x->median); else fprintf(d, " ?");
                }
                for (int k = 0; k < nd; k++) {
                    const row *x = find(doc, dimpl[k], a->v[vi], a->o[oi], -1);
                    if (x) fprintf(d, " %.6g", x->median); else fprintf(d, " ?");
                }
                fprintf(d, "\n");
            }
            if (close_checked(d, datname, g->bad ? &(pb_err){{0}} : &g->err) < 0) g->bad = 1;
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

typedef struct ratio {
    double est, lo, hi, p;
    int n;
} ratio;

static int get_ratio(pb_store *st, int64_t run, const char *metric, const char *base, const char *cand,
                     const char *variant, const char *op, int64_t size, ratio *r)
{
    sqlite3_stmt *q;
    sqlite3_prepare_v2(st->db,
                       "SELECT estimate, ci_lo, ci_hi, p_value, n_pairs FROM ratios WHERE run_id=?1 AND metric=?2"
                       " AND baseline=?3 AND candidate=?4 AND variant=?5 AND op=?6 AND size_bytes=?7",
                       -1, &q, NULL);
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_text(q, 2, metric, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 3, base, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 4, cand, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 5, variant, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 6, op, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(q, 7, size);
    int ok = 0;
    if (sqlite3_step(q) == SQLITE_ROW) {
        r->est = sqlite3_column_double(q, 0);
        r->lo = sqlite3_column_double(q, 1);
        r->hi = sqlite3_column_double(q, 2);
        r->p = sqlite3_column_double(q, 3);
        r->n = sqlite3_column_int(q, 4);
        ok = 1;
    }
    sqlite3_finalize(q);
    return ok;
}

static void run_header(FILE *md, pb_store *st, int64_t run, const char *label)
{
    sqlite3_stmt *q;
    sqlite3_prepare_v2(st->db,
                       "SELECT started_at, git_sha, compiler, cflags, cpu_model, cpu_flags, kernel, clock_source,"
                       " governor, boost, tick_source, counter_source, command_line, options, target,"
                       " COALESCE(guest_kernel,''), libs,"
                       " (SELECT CASE WHEN count(s.speed) > 0 THEN printf('%d of %d', sum(s.speed='fast'), count(*)) END"
                       "   FROM samples s JOIN cases c ON c.id = s.case_id WHERE c.run_id = runs.id)"
                       " FROM runs WHERE id = ?1",
                       -1, &q, NULL);
    sqlite3_bind_int64(q, 1, run);
    if (sqlite3_step(q) == SQLITE_ROW) {
        fprintf(md, "**%s: run %lld** (%s, target %s%s%s)\n\n", label, (long long)run, sqlite3_column_text(q, 0),
                sqlite3_column_text(q, 14), *sqlite3_column_text(q, 15) ? ", guest kernel " : "",
                sqlite3_column_text(q, 15));
        static const char *names[] = {"git", "compiler", "flags", "CPU", "CPU flags", "kernel", "clock source",
                                      "governor", "boost", "tick source", "counters", "command", "options"};
        for (int i = 0; i < 13; i++)
            fprintf(md, "- %s: `%s`\n", names[i], sqlite3_column_text(q, i + 1) ? (const char *)sqlite3_column_text(q, i + 1) : "");
        fprintf(md, "- libraries: `%s`\n", sqlite3_column_text(q, 16) ? (const char *)sqlite3_column_text(q, 16) : "");
        if (sqlite3_column_text(q, 17))
            fprintf(md, "- samples taken in the fast core state (core-speed probe): %s\n", sqlite3_column_text(q, 17));
        fprintf(md, "\n");
    }
    sqlite3_finalize(q);
}

/* Was this impl's case set up as unavailable (e.g. no TCP-AO in the host kernel)? */
static int unavailable(pb_store *st, int64_t run, const char *impl, const char *variant, const char *op)
{
    sqlite3_stmt *q;
    sqlite3_prepare_v2(st->db,
                       "SELECT 1 FROM cases WHERE run_id=?1 AND impl=?2 AND variant=?3 AND (op=?4 OR op='-') AND status='unavailable'",
                       -1, &q, NULL);
    sqlite3_bind_int64(q, 1, run);
    sqlite3_bind_text(q, 2, impl, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 3, variant, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 4, op, -1, SQLITE_TRANSIENT);
    int r = sqlite3_step(q) == SQLITE_ROW;
    sqlite3_finalize(q);
    return r;
}

static void unavailable_notes(FILE *md, pb_store *st, int64_t run)
{
    sqlite3_stmt *q;
    sqlite3_prepare_v2(st->db,
                       "SELECT impl, group_concat(variant || ' ' || op, ', '), min(reason) FROM cases"
                       " WHERE run_id=?1 AND status='unavailable' GROUP BY impl, reason",
                       -1, &q, NULL);
    sqlite3_bind_int64(q, 1, run);
    int first = 1;
    while (sqlite3_step(q) == SQLITE_ROW) {
        if (first) fprintf(md, "Unavailable here (reported, not counted as zero):\n\n");
        first = 0;
        fprintf(md, "- %s (%s): %s\n", sqlite3_column_text(q, 0), sqlite3_column_text(q, 1), sqlite3_column_text(q, 2));
    }
    if (!first) fprintf(md, "\n");
    sqlite3_finalize(q);
}

static const char *claim_name(pb_claim c)
{
    switch (c) {
    case PB_CLAIM_FASTER: return "faster";
    case PB_CLAIM_EQUAL: return "equal";
    case PB_CLAIM_NOT_SLOWER: return "not slower";
    default: return "-";
    }
}

#define MAXP 8
/* Code-generation profiles P with both <cand>@P and <base>@P among the impls. */
static int find_profiles(const axes *a, const char *base, const char *cand, char prof[][PB_NAME_MAX])
{
    int np = 0;
    size_t nc = strlen(cand);
    for (int k = 0; k < a->ni && np < MAXP; k++) {
        const char *im = a->impl[k];
        if (strncmp(im, cand, nc) || im[nc] != '@' || !im[nc + 1]) continue;
        char b[2 * PB_NAME_MAX];
        snprintf(b, sizeof b, "%s@%s", base, im + nc + 1);
        if (index_of((char (*)[PB_NAME_MAX])a->impl, a->ni, b) >= 0)
            snprintf(prof[np++], PB_NAME_MAX, "%s", im + nc + 1);
    }
    return np;
}

/* The measured/document column: the ratio of the two in the table's own metric, and for a
 * speed-up claim how large the measured speed-up is against the document's (time ratios). */
static void print_size_column(FILE *md, pb_claim cl, int have, const ratio *r, double dr, int have_t,
                              const ratio *rt, double dt)
{
    if (!have || !isfinite(dr) || dr <= 0 || !(r->est > 0)) { fprintf(md, " - |"); return; }
    fprintf(md, " %.2f", r->est / dr);
    if (cl != PB_CLAIM_EQUAL && have_t && rt->est > 0 && isfinite(dt) && dt > 0)
        fprintf(md, " (speed-up %.2fx the document's)", dt / rt->est);
    fprintf(md, " |");
}

static void write_table(FILE *md, pb_store *st, const pb_suite *s, int64_t run, const rows *m, const rows *doc,
                        int guest, const pb_verdict_cfg *cfg, pb_verdict_counts *n)
{
    const char *metric = pb_suite_primary_metric(s);
    axes a;
    rows sub = {0};
    for (int i = 0; i < m->n; i++)
        if (m->v[i].guest == guest) { row *x = push(&sub); if (x) *x = m->v[i]; }
    collect_axes(&sub, &a);
    const char *base = s->baseline, *cand = s->candidate;
    if (guest && s->kmod_impls) {
        base = s->kmod_baseline;
        cand = s->kmod_candidate;
    }
    char prof[MAXP][PB_NAME_MAX];
    int np = find_profiles(&a, base, cand, prof);
    fprintf(md, "| variant | op | bytes | %s %s | %s %s |", base, metric, cand, metric);
    for (int k = 0; k < a.ni; k++)
        if (strcmp(a.impl[k], base) && strcmp(a.impl[k], cand)) fprintf(md, " %s |", a.impl[k]);
    fprintf(md, " %s/%s measured [95%% CI] |", cand, base);
    for (int p = 0; p < np; p++) fprintf(md, " %s@%s/%s@%s [95%% CI] |", cand, prof[p], base, prof[p]);
    fprintf(md, " document | measured/document | claim | verdict |%s\n|---|---|---|---|---|",
            np ? " code generation |" : "");
    for (int k = 0; k < a.ni; k++)
        if (strcmp(a.impl[k], base) && strcmp(a.impl[k], cand)) fprintf(md, "---|");
    for (int p = 0; p < np; p++) fprintf(md, "---|");
    /* measured, document, measured/document, claim, verdict */
    fprintf(md, "---|---|---|---|---|%s\n", np ? "---|" : "");
    for (int vi = 0; vi < a.nv; vi++)
        for (int oi = 0; oi < a.no; oi++)
            for (int si = 0; si < a.ns; si++) {
                const row *b = find(&sub, base, a.v[vi], a.o[oi], a.sizes[si]);
                const row *c = find(&sub, cand, a.v[vi], a.o[oi], a.sizes[si]);
                if (!b && !c) continue;
                fprintf(md, "| %s | %s | %lld |", a.v[vi], a.o[oi], (long long)a.sizes[si]);
                if (b) fprintf(md, " %.4g |", b->median);
                else fprintf(md, " %s |", unavailable(st, run, base, a.v[vi], a.o[oi]) ? "unavailable" : "-");
                if (c) fprintf(md, " %.4g |", c->median);
                else fprintf(md, " %s |", unavailable(st, run, cand, a.v[vi], a.o[oi]) ? "unavailable" : "-");
                for (int k = 0; k < a.ni; k++) {
                    if (!strcmp(a.impl[k], base) || !strcmp(a.impl[k], cand)) continue;
                    const row *x = find(&sub, a.impl[k], a.v[vi], a.o[oi], a.sizes[si]);
                    if (x) fprintf(md, " %.4g |", x->median);
                    else fprintf(md, " %s |", unavailable(st, run, a.impl[k], a.v[vi], a.o[oi]) ? "unavailable" : "-");
                }
                ratio r, rt;
                int have = get_ratio(st, run, metric, base, cand, a.v[vi], a.o[oi], a.sizes[si], &r);
                int have_t = get_ratio(st, run, "ns_per_op", base, cand, a.v[vi], a.o[oi], a.sizes[si], &rt);
                if (have) fprintf(md, " %.3f [%.3f, %.3f] |", r.est, r.lo, r.hi);
                else fprintf(md, " - |");
                /* the same sources built with each profile, and whether the answer moves with them */
                int codegen = 0;
                for (int p = 0; p < np; p++) {
                    char pb[2 * PB_NAME_MAX], pc[2 * PB_NAME_MAX];
                    snprintf(pb, sizeof pb, "%s@%s", base, prof[p]);
                    snprintf(pc, sizeof pc, "%s@%s", cand, prof[p]);
                    ratio rp, rpt;
                    if (get_ratio(st, run, metric, pb, pc, a.v[vi], a.o[oi], a.sizes[si], &rp))
                        fprintf(md, " %.3f [%.3f, %.3f] |", rp.est, rp.lo, rp.hi);
                    else
                        fprintf(md, " - |");
                    if (have_t && rt.est > 0 &&
                        get_ratio(st, run, "ns_per_op", pb, pc, a.v[vi], a.o[oi], a.sizes[si], &rpt) &&
                        fabs(rpt.est / rt.est - 1) > cfg->codegen_threshold)
                        codegen = 1;
                }
                const row *db = find(doc, s->baseline, a.v[vi], a.o[oi], a.sizes[si]);
                const row *dc = find(doc, s->candidate, a.v[vi], a.o[oi], a.sizes[si]);
                double dr = db && dc && db->median > 0 ? dc->median / db->median : NAN;
                if (isfinite(dr)) fprintf(md, " %.3f |", dr); else fprintf(md, " - |");
                pb_cell cell;
                memset(&cell, 0, sizeof cell);
                snprintf(cell.variant, sizeof cell.variant, "%s", a.v[vi]);
                snprintf(cell.op, sizeof cell.op, "%s", a.o[oi]);
                cell.size_bytes = (uint64_t)a.sizes[si];
                /* the document's ratio in time terms, for the claim */
                double dt = dr;
                if (isfinite(dr) && pb_metric_higher_is_better(metric)) dt = 1 / dr;
                pb_claim cl = s->claim ? s->claim(&cell, dt) : PB_CLAIM_NONE;
                print_size_column(md, cl, have, &r, dr, have_t, &rt, dt);
                const char *v = have_t ? pb_verdict(cl, dt, cfg->tolerance, rt.lo, rt.hi) : V_NODATA;
                fprintf(md, " %s | %s |", claim_name(cl), v);
                if (np) fprintf(md, " %s |", codegen ? CODEGEN_MARK : "");
                fprintf(md, "\n");
                count_verdict(n, v);
                n->codegen += codegen;
            }
    free(sub.v);
}

/* What the verdicts mean, with the figures this report used. */
static void verdict_legend(FILE *md, const pb_suite *s, const char *metric, const pb_verdict_cfg *cfg)
{
    fprintf(md,
            "Each cell's implementations ran interleaved in rounds (rotating start); the ratio is the\n"
            "Hodges-Lehmann estimate over rounds of the paired ratio %s/%s of %s, with its 95 %%\n"
            "Wilcoxon signed-rank confidence interval.\n\n",
            s->candidate, s->baseline, metric);
    fprintf(md,
            "**Verdicts** (on the time ratio's CI; tolerance t = %.2f, code-generation threshold %.2f, from %s):\n\n"
            "- *claim holds*: the direction is right and the CI overlaps the document's ratio d widened by the\n"
            "  tolerance, [d/(1+t), d·(1+t)] (multiplicative, so a ratio of 0.5 and one of 1/8 get the same\n"
            "  relative room). Without a document number only the direction is judged. An *equal* claim holds\n"
            "  when the whole CI lies within [1/(1+t), 1+t]; *not slower* needs the CI below 1+t.\n"
            "- *direction holds, size differs*: the direction is right but the CI misses the document's band;\n"
            "  *measured/document* says by how much (and, for a speed-up, how large it is against the document's).\n"
            "- *claim does not hold*: *faster* shows not even a %.0f %% gain, *not slower* is slower by more than\n"
            "  t, *equal* lies wholly outside [1/(1+t), 1+t].\n"
            "- *inconclusive here*: anything else (the CI is too wide to tell on this machine).\n\n",
            cfg->tolerance, cfg->codegen_threshold, cfg->source, MIN_GAIN * 100);
    fprintf(md,
            "**Code generation**: where the same sources were also built with another profile P (impls\n"
            "`%s@P`, `%s@P`, measured interleaved in the same cells), their ratio stands beside the faithful one,\n"
            "and a cell whose two time ratios differ by more than %.0f %% (|r_P/r - 1| > %.2f) is marked\n"
            "*depends on code generation*: that answer is the compiler's as much as the patch's.\n\n",
            s->candidate, s->baseline, cfg->codegen_threshold * 100, cfg->codegen_threshold);
}

static void write_summary(FILE *md, const pb_verdict_counts *n)
{
    char line[512];
    pb_verdict_summary(n, line, sizeof line);
    fprintf(md, "**Summary:** %s.\n\n", line);
    if (n->does_not_hold)
        fprintf(md, "**This machine disagrees with the document in %d of %d cells** (verdict: claim does not hold).\n\n",
                n->does_not_hold, n->cells);
}

int pb_report_suite(pb_store *st, const pb_suite *s, const pb_report_opts *o, pb_verdict_counts *host,
                    pb_verdict_counts *guest, pb_err *e)
{
    const char *metric = pb_suite_primary_metric(s);
    /* kernel-module rows only for a suite that declares a kernel-module part (suite.h) */
    const int64_t guest_run = s->kmod_impls ? o->guest_run : 0;
    pb_verdict_counts host_n, guest_n;
    if (!host) host = &host_n;
    if (!guest) guest = &guest_n;
    memset(host, 0, sizeof *host);
    memset(guest, 0, sizeof *guest);
    pb_verdict_cfg cfg;
    if (pb_verdict_cfg_load(o->data_dir, s->name, &cfg, e) < 0) return -1;
    char gnuplot[1100];
    if (!find_gnuplot(gnuplot, sizeof gnuplot))
        return pb_errf(e, "gnuplot not found on PATH: install it (Debian: apt-get install gnuplot-nox)");
    if (mkdir(o->out_dir, 0755) && errno != EEXIST)
        return pb_errf(e, "cannot create %s: %s", o->out_dir, strerror(errno));
    rows m = {0}, doc = {0};
    if (load_measured(st, o->run, metric, 0, &m, e) < 0) return -1;
    if (guest_run && load_measured(st, guest_run, metric, 1, &m, e) < 0) return -1;
    if (!m.n) {
        free(m.v);
        return pb_errf(e, "run %lld has no complete %s results for metric %s", (long long)o->run, s->name, metric);
    }
    if (load_doc(o->data_dir, s->name, metric, &doc, e) < 0) { free(m.v); return -1; }
    /* names come from imported files of other machines: every one must be safe as gnuplot text
     * and as a data-file field before anything is written */
    gpq g = {.next = 0, .bad = 0};
    for (int pass = 0; pass < 2 && !g.bad; pass++) {
        const rows *r = pass ? &doc : &m;
        for (int i = 0; i < r->n && !g.bad; i++) {
            q(&g, r->v[i].impl);
            q(&g, r->v[i].variant);
            q(&g, r->v[i].op);
        }
    }
    if (g.bad) { free(m.v); free(doc.v); return pb_errf(e, "%s", g.err.msg); }
    axes a;
    collect_axes(&m, &a);

    char gpname[1100], datname[1100], png[1100], svg[1100], mdname[1100];
    snprintf(gpname, sizeof gpname, "%s/%s.gp", o->out_dir, s->name);
    snprintf(datname, sizeof datname, "%s/%s.dat", o->out_dir, s->name);
    snprintf(png, sizeof png, "%s/%s.png", o->out_dir, s->name);
    snprintf(svg, sizeof svg, "%s/%s.svg", o->out_dir, s->name);
    snprintf(mdname, sizeof mdname, "%s/%s.md", o->out_dir, s->name);
    FILE *gp = fopen(gpname, "w"), *dat = NULL;
    if (!gp) { free(m.v); free(doc.v); return pb_errf(e, "cannot write %s: %s", gpname, strerror(errno)); }
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
        if (!dat) { fclose(gp); free(m.v); free(doc.v); return pb_errf(e, "cannot write %s", datname); }
        write_size_plot(gp, dat, datname, s, &m, &doc, &a, tpng, png, 1, &g);
        write_size_plot(gp, dat, datname, s, &m, &doc, &a, tsvg, svg, 0, &g);
        if (close_checked(dat, datname, g.bad ? &(pb_err){{0}} : &g.err) < 0) g.bad = 1;
    } else {
        write_variant_plot(gp, o->out_dir, s, &m, &doc, &a, tpng, png, 1, &g);
        write_variant_plot(gp, o->out_dir, s, &m, &doc, &a, tsvg, svg, 0, &g);
    }
    if (close_checked(gp, gpname, g.bad ? &(pb_err){{0}} : &g.err) < 0) g.bad = 1;
    char log[1200];
    snprintf(log, sizeof log, "%s/%s.gnuplot.log", o->out_dir, s->name);
    if (g.bad || run_gnuplot(gnuplot, gpname, log, e) < 0) {
        if (g.bad) pb_errf(e, "%s", g.err.msg);
        remove_outputs(png, svg, mdname);
        free(m.v); free(doc.v);
        return -1;
    }

    FILE *md = fopen(mdname, "w");
    if (!md) {
        remove_outputs(png, svg, mdname);
        free(m.v); free(doc.v);
        return pb_errf(e, "cannot write %s: %s", mdname, strerror(errno));
    }
    fprintf(md, "# %s — %s\n\n", s->name, s->title ? s->title : "");
    fprintf(md, "![%s](%s.png)\n\n", s->name, s->name);
    run_header(md, st, o->run, "Measured");
    verdict_legend(md, s, metric, &cfg);
    write_table(md, st, s, o->run, &m, &doc, 0, &cfg, host);
    fprintf(md, "\n");
    write_summary(md, host);
    unavailable_notes(md, st, o->run);
    if (guest_run) {
        fprintf(md, "## Kernel-module variant\n\n");
        run_header(md, st, guest_run, "Kernel module");
        fprintf(md, "Timings under QEMU TCG are emulated (30-60x slower than hardware, ±25 %% between boots): only\n"
                    "the ratios measured within the same boot mean anything.\n\n");
        write_table(md, st, s, guest_run, &m, &doc, 1, &cfg, guest);
        fprintf(md, "\n");
        write_summary(md, guest);
        unavailable_notes(md, st, guest_run);
    }
    if (s->notes_md) fprintf(md, "## Notes\n\n%s\n", s->notes_md);
    free(m.v);
    free(doc.v);
    if (close_checked(md, mdname, e) < 0) {
        remove_outputs(png, svg, mdname);
        return -1;
    }
    return 0;
}
