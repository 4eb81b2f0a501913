/* SPDX-License-Identifier: GPL-2.0-only */
/* history_order.c — see history_order.h. */
#include "history_order.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paths.h"
#include "pb_git.h"
#include "report_data.h"

typedef struct run_revs {
    int64_t *id;
    char (*lab)[128], (*user)[128];
    size_t n;
} run_revs;

static void revs_free(run_revs *r)
{
    free(r->id);
    free(r->lab);
    free(r->user);
}

static int revs_grow(run_revs *r, size_t cap)
{
    int64_t *id = realloc(r->id, cap * sizeof *id);
    if (id) r->id = id;
    char (*lab)[128] = id ? realloc(r->lab, cap * sizeof *lab) : NULL;
    if (lab) r->lab = lab;
    char (*user)[128] = lab ? realloc(r->user, cap * sizeof *user) : NULL;
    if (user) r->user = user;
    return user ? 0 : -1;
}

typedef struct revs_ctx {
    run_revs *r;
    size_t have;
    char *repo;
    size_t cap;
    pb_err *e;
} revs_ctx;

static int add_rev(void *ctx, int64_t run, const char *git, const char *user, const char *repo)
{
    revs_ctx *x = ctx;
    run_revs *r = x->r;
    if (r->n == x->have && revs_grow(r, x->have = x->have ? 2 * x->have : 64) < 0) return pb_errf(x->e, "out of memory");
    r->id[r->n] = run;
    snprintf(r->lab[r->n], sizeof r->lab[0], "%s", git);
    snprintf(r->user[r->n], sizeof r->user[0], "%s", user);
    if (r->user[r->n][0] && *repo) snprintf(x->repo, x->cap, "%s", repo);
    r->n++;
    return 0;
}

/* the runs' revisions, by id; the newest user repository in repo */
static int read_revs(pb_store *st, const char *suite, run_revs *r, char *repo, size_t cap, pb_err *e)
{
    revs_ctx x = {.r = r, .repo = repo, .cap = cap, .e = e};
    return pb_report_each_run_rev(st, suite, add_rev, &x, e);
}

/* The git order of each revision revs[i] (""; -1) in the repository at top, in out[i]; every one
 * -1 when git cannot order them. The distinct revisions are resolved by one git for all of them
 * (pb_git_commits), never one process a revision. */
static void order_revs(const char *top, char (*revs)[128], size_t n, long *out)
{
    size_t one = n ? n : 1;
    char (*commit)[41] = calloc(one, sizeof *commit), (*uniq)[41] = calloc(one, sizeof *uniq);
    const char **names = calloc(one, sizeof *names);
    size_t *name_of = calloc(one, sizeof *name_of); /* revs[i] is names[name_of[i]] */
    long *uo = calloc(one, sizeof *uo);
    size_t nu = 0, nn = 0;
    for (size_t i = 0; i < n; i++) out[i] = -1;
    int ok = commit && uniq && names && name_of && uo && *top;
    for (size_t i = 0; ok && i < n; i++) {
        size_t j = 0;
        while (j < nn && strcmp(names[j], revs[i])) j++;
        if (j == nn) names[nn++] = revs[i];
        name_of[i] = j;
    }
    char (*named)[41] = ok ? calloc(nn ? nn : 1, sizeof *named) : NULL;
    ok = named && pb_git_commits(top, names, nn, named) == 0;
    for (size_t i = 0; ok && i < n; i++) {
        memcpy(commit[i], named[name_of[i]], 41);
        size_t k = 0;
        while (k < nu && strcmp(uniq[k], commit[i])) k++;
        if (commit[i][0] && k == nu) memcpy(uniq[nu++], commit[i], 41);
    }
    if (ok && nu && pb_git_order(top, uniq, nu, uo) == 0)
        for (size_t i = 0; i < n; i++)
            for (size_t k = 0; commit[i][0] && k < nu; k++)
                if (!strcmp(uniq[k], commit[i])) out[i] = uo[k];
    free(named);
    free(commit);
    free(uniq);
    free(names);
    free(name_of);
    free(uo);
}

int pb_history_orders(pb_store *st, const char *suite, pb_run_orders *ro, pb_err *e)
{
    memset(ro, 0, sizeof *ro);
    run_revs r = {0};
    if (read_revs(st, suite, &r, ro->user_repo, sizeof ro->user_repo, e) < 0) {
        revs_free(&r);
        return -1;
    }
    long *lab = calloc(r.n ? r.n : 1, sizeof *lab), *user = calloc(r.n ? r.n : 1, sizeof *user);
    ro->v = calloc(r.n ? r.n : 1, sizeof *ro->v);
    int rc = lab && user && ro->v ? 0 : pb_errf(e, "out of memory");
    if (rc == 0) {
        order_revs(pb_source_root(), r.lab, r.n, lab);
        order_revs(ro->user_repo, r.user, r.n, user);
        for (size_t i = 0; i < r.n; i++)
            ro->v[i] = (pb_run_pos){.run = r.id[i], .lab = lab[i], .user = user[i], .has_user = r.user[i][0] != 0};
        ro->n = r.n;
    }
    free(lab);
    free(user);
    revs_free(&r);
    return rc;
}

const pb_run_pos *pb_history_pos(const pb_run_orders *ro, int64_t run)
{
    size_t lo = 0, hi = ro->n;   /* by id, ascending */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ro->v[mid].run == run) return &ro->v[mid];
        if (ro->v[mid].run < run) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

void pb_history_orders_free(pb_run_orders *ro)
{
    free(ro->v);
    memset(ro, 0, sizeof *ro);
}
