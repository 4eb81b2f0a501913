/* SPDX-License-Identifier: GPL-2.0-only */
/* gate_baseline.c — stored baselines (their rows are gate_store.c's) and what makes two runs
 * comparable unpaired (gate_baseline.h). The gate itself is gate_against.c. */
#include "gate_baseline.h"

#include <stdlib.h>
#include <string.h>

#include "gate_store.h"
#include "nearest.h"
#include "reads.h"
#include "suite.h"
#include "text_out.h"

int pb_baseline_name_ok(const char *name, pb_err *e)
{
    size_t n = strlen(name);
    if (!n || n > PB_BASELINE_NAME_MAX)
        return pb_errf(e, "baseline name '%.80s': 1 to %d characters", name, PB_BASELINE_NAME_MAX);
    if (name[0] == '-' || name[0] == '.')
        return pb_errf(e, "baseline name '%s' starts with '%c'", name, name[0]);
    if (strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-/@+") != n)
        return pb_errf(e, "baseline name '%.80s': letters, digits and . _ - / @ + only", name);
    return 0;
}

int pb_baseline_save(pb_store *st, const char *name, int64_t run, const char *command_line, int64_t *was, pb_err *e)
{
    *was = 0;
    pb_run_row r;
    int have = pb_store_run_row(st, run, &r, e);
    if (have < 0) return -1;
    if (!have) return pb_errf(e, "%s has no run %lld", st->path, (long long)run), PB_STORE_REFUSED;
    if (strcmp(r.status, "complete"))
        return pb_errf(e, "run %lld is %s: only a complete run can be a baseline", (long long)run, r.status),
               PB_STORE_REFUSED;
    if (pb_store_begin(st, e) < 0) return -1;
    if (pb_baseline_find(st, name, was, e) < 0 || pb_gate_baseline_write(st, name, run, command_line, e) < 0) {
        pb_store_rollback(st);
        return -1;
    }
    return pb_store_commit(st, e);
}

typedef struct list_ctx {
    FILE *f;
    int rows;
} list_ctx;

static void list_header(list_ctx *x)
{
    if (!x->rows) fprintf(x->f, "%-24s %6s %-10s %-26s %s\n", "baseline", "run", "suite", "saved", "your revision");
}

static void list_row(void *ctx, const pb_baseline_row *r)
{
    list_ctx *x = ctx;
    list_header(x);
    char name[PB_BASELINE_NAME_MAX * 4 + 1], suite[PB_NAME_MAX * 4], at[128], rev[1024];
    fprintf(x->f, "%-24s %6lld %-10s %-26s %s\n", pb_term_text(name, sizeof name, r->name), (long long)r->run,
            pb_term_text(suite, sizeof suite, r->suite), pb_term_text(at, sizeof at, r->saved_at),
            pb_term_text(rev, sizeof rev, r->revision));
    x->rows++;
}

int pb_baseline_list(pb_store *st, FILE *f, pb_err *e)
{
    list_ctx x = {.f = f};
    int r = pb_gate_each_baseline(st, list_row, &x, e);
    if (r < 0) return -1;
    list_header(&x);   /* none yet: the header above the line that says so */
    if (r) return -1;
    if (!x.rows) fprintf(f, "(none: bench baseline save NAME [--run ID])\n");
    return 0;
}

/* the stored names, for the nearest to a mistyped one (as many as a hint needs to look at) */
typedef struct names_ctx {
    char names[256][PB_BASELINE_NAME_MAX + 1];
    const char *at[256];
    size_t n;
} names_ctx;

static void name_row(void *ctx, const pb_baseline_row *r)
{
    names_ctx *x = ctx;
    if (x->n == sizeof x->names / sizeof x->names[0]) return;
    snprintf(x->names[x->n], sizeof x->names[0], "%s", r->name);
    x->at[x->n] = x->names[x->n];
    x->n++;
}

const char *pb_baseline_did_you_mean(pb_store *st, const char *name, char *buf, size_t cap)
{
    names_ctx *x = calloc(1, sizeof *x);
    pb_err e = {{0}};
    const char *near = x && pb_gate_each_baseline(st, name_row, x, &e) >= 0 ? pb_nearest(name, x->at, x->n) : NULL;
    if (near) snprintf(buf, cap, "did you mean %s?; ", near);
    else if (cap) buf[0] = 0;
    free(x);
    return buf;
}

/* ---- comparable runs ---- */

typedef struct run_conf {
    int64_t id;
    char suite[PB_NAME_MAX], status[32], target[32], machine[64], host[128], cpu[128];
    char options[4096], layouts[64];
} run_conf;

static int read_conf(pb_store *st, int64_t run, run_conf *c, pb_err *e)
{
    memset(c, 0, sizeof *c);
    pb_run_row row, *r = &row;
    int found = pb_store_run_row(st, run, r, e);
    if (found > 0) {
        c->id = run;
        char *f[] = {c->suite, c->status, c->target, c->machine, c->host, c->cpu, c->options, c->layouts};
        const char *v[] = {r->suite, r->status, r->target, r->machine_id, r->hostname, r->cpu_model, r->options,
                           r->layouts};
        size_t cap[] = {sizeof c->suite, sizeof c->status, sizeof c->target, sizeof c->machine, sizeof c->host,
                        sizeof c->cpu, sizeof c->options, sizeof c->layouts};
        for (int i = 0; i < 8; i++) snprintf(f[i], cap[i], "%s", v[i]);
        c->layouts[strcspn(c->layouts, ":")] = 0;   /* "16 (seed 1)": how many, and their seed */
    }
    if (found < 0) return -1;
    return found ? 0 : (pb_errf(e, "%s has no run %lld", st->path, (long long)run), PB_STORE_REFUSED);
}

/* The items of a run's options (runner.c: "rounds=N sample_s=S ... --opt=VALUE --flag ..."): the
 * runner's words split at spaces, the suite's options at each "--NAME" of the suite's own table (a
 * value may hold spaces: an exec command). Each item "key=value" into items[], at most max. */
static int is_option_start(const pb_suite *s, const char *t, const char *p)
{
    if (strncmp(p, "--", 2) || (p > t && p[-1] != ' ')) return 0;
    for (const pb_suite_opt *o = s ? s->options : NULL; o && o->name; o++) {
        size_t n = strlen(o->name);
        if (!strncmp(p + 2, o->name, n) && (p[2 + n] == '=' || p[2 + n] == ' ' || !p[2 + n])) return 1;
    }
    return 0;
}

static int split_options(const pb_suite *s, const char *t, char (*items)[512], int max)
{
    int n = 0;
    for (const char *p = t; *p && n < max;) {
        while (*p == ' ') p++;
        if (!*p) break;
        const char *q = p + 1;
        if (is_option_start(s, t, p))
            while (*q && !is_option_start(s, t, q)) q++;
        else
            q = p + strcspn(p, " ");
        size_t len = (size_t)(q - p);
        while (len && p[len - 1] == ' ') len--;
        snprintf(items[n++], sizeof items[0], "%.*s", (int)len, p);
        p = q;
    }
    return n;
}

/* Is item an option that names the code under test (suite.h code_options)? */
static int names_code(const pb_suite *s, const char *item)
{
    for (const char *const *c = s ? s->code_options : NULL; c && *c; c++) {
        size_t n = strlen(*c);
        if (!strncmp(item, "--", 2) && !strncmp(item + 2, *c, n) && (item[2 + n] == '=' || !item[2 + n])) return 1;
    }
    return 0;
}

/* The item of key k (its text up to '=') in the list, or NULL */
static const char *item_of(char (*items)[512], int n, const char *item)
{
    size_t k = strcspn(item, "=");
    for (int i = 0; i < n; i++)
        if (strcspn(items[i], "=") == k && !strncmp(items[i], item, k)) return items[i];
    return NULL;
}

/* "rounds=64 / rounds=16, --filter=BM_a / (not given)" for every item that differs, into why */
static int diff_options(const pb_suite *s, const run_conf *a, const run_conf *b, char *why, size_t cap)
{
    enum { MAX = 64 };
    char (*ia)[512] = calloc(2 * MAX, sizeof *ia), (*ib)[512] = ia ? ia + MAX : NULL;
    if (!ia) return snprintf(why, cap, "(out of memory comparing them)"), 1;
    int na = split_options(s, a->options, ia, MAX), nb = split_options(s, b->options, ib, MAX), d = 0;
    why[0] = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < (pass ? nb : na); i++) {
            const char *x = pass ? ib[i] : ia[i], *y = item_of(pass ? ia : ib, pass ? na : nb, x);
            if ((pass && y) || names_code(s, x) || (y && !strcmp(x, y))) continue;
            size_t k = strlen(why);
            snprintf(why + k, cap - k, "%s%s / %s", k ? ", " : "", pass ? "(not given)" : x, pass ? x : y ? y : "(not given)");
            d++;
        }
    free(ia);
    return d;
}

/* What keeps runs a and b apart (ca, cb their records), in e; 0 when nothing does. */
static int what_differs(const run_conf *ca, const run_conf *cb, pb_err *e)
{
    long long a = (long long)ca->id, b = (long long)cb->id;
    char why[2048];
    if (strcmp(ca->status, "complete") || strcmp(cb->status, "complete"))
        return pb_errf(e, "run %lld is %s and run %lld is %s: only complete runs compare", a, ca->status, b, cb->status);
    if (strcmp(ca->suite, cb->suite)) return pb_errf(e, "run %lld is of suite %s, run %lld of suite %s", a, ca->suite, b, cb->suite);
    if (strcmp(ca->machine, cb->machine))
        return pb_errf(e, "run %lld was made on another machine than run %lld: machine %.40s (%.60s, %.80s) / %.40s "
                       "(%.60s, %.80s)", a, b, ca->machine, ca->host, ca->cpu, cb->machine, cb->host, cb->cpu);
    if (strcmp(ca->target, cb->target)) return pb_errf(e, "runs %lld and %lld differ in target: %s / %s", a, b, ca->target, cb->target);
    if (strcmp(ca->layouts, cb->layouts))
        return pb_errf(e, "runs %lld and %lld differ in code layouts: %s / %s", a, b, ca->layouts, cb->layouts);
    if (diff_options(pb_suite_find(ca->suite), ca, cb, why, sizeof why))
        return pb_errf(e, "runs %lld and %lld differ in configuration (what the code under test is aside): %.400s", a,
                       b, why);
    return 0;
}

int pb_baseline_comparable(pb_store *st, int64_t a, int64_t b, pb_err *e)
{
    run_conf *ca = malloc(2 * sizeof *ca);
    if (!ca) return pb_errf(e, "out of memory");
    int rc = read_conf(st, a, ca, e);
    if (rc == 0) rc = read_conf(st, b, ca + 1, e);
    if (rc == 0 && what_differs(ca, ca + 1, e) < 0) rc = PB_STORE_REFUSED;
    free(ca);
    return rc;
}
