/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd_history.c — `bench history --suite S [--impl X] [--metric M]`: the options and messages;
 * the series, change points and plots are report/history.c. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "cli_opts.h"
#include "history.h"
#include "metrics.h"
#include "store.h"

enum { O_METRIC = 1, O_ALPHA };

typedef struct history_args {
    const char *db, *suite, *impl, *metric, *out;
    double alpha;
    int no_plots, all;
} history_args;

static const pb_cli_opt OPTS[] = {
    PB_OPT_SUITE("NAME", "the suite (required)", history_args, suite),
    PB_OPT_IMPL("X", "the implementation followed (default the suite's candidate)", history_args, impl),
    PB_OPT("metric", "M", "the metric (default the suite's primary metric)", O_METRIC),
    PB_OPT("alpha", "A", "significance level of each change point's permutation test (default 0.01)", O_ALPHA),
    PB_OPT_OUT("DIR", "where the plots go (default plots/)", history_args, out),
    PB_OPT_FLAG("no-plots", "the tables only: no gnuplot, nothing written", history_args, no_plots),
    PB_OPT_FLAG("all", "every run of every series (a series of over 30 runs is otherwise its first and last run)",
                history_args, all),
    PB_OPT_DB_READ(history_args, db),
    PB_OPT_END,
};

static int on_opt(void *ctx, int id, const char *v)
{
    history_args *a = ctx;
    switch (id) {
    case O_METRIC:
        if (!pb_metric_known(v)) {
            char why[700];
            fprintf(stderr, "bench history: --metric: %s\n", pb_metric_unknown(why, sizeof why, v, ""));
            return -1;
        }
        a->metric = v;
        return 0;
    case O_ALPHA: {
        char *end;
        a->alpha = strtod(v, &end);
        if (*end || !(a->alpha > 0 && a->alpha < 1)) {
            fprintf(stderr, "bench history: --alpha wants a number between 0 and 1, got '%s'\n", v);
            return -1;
        }
        return 0;
    }
    default: return 0;
    }
}

int cmd_history(int argc, char **argv)
{
    history_args a = {.db = pb_default_db(), .alpha = 0.01};
    pb_cli cli = {
        .cmd = "history", .opts = OPTS, .on_opt = on_opt, .ctx = &a,
        .synopsis = "usage: bench history --suite NAME [--impl X] [--metric M] [--alpha A] [--out DIR] [--no-plots]\n"
                    "                     [--all] [--db PATH]\n\n"
                    "Per machine and cell: the impl's median in every complete run of the suite, oldest\n"
                    "first: in git order when every run's commit is in the repository at hand\n"
                    "(PB_SOURCE_ROOT, git rev-list --topo-order), else by the time the run started; runs\n"
                    "of your code (gbench, exec, --plugin, --gcrypt-lib) by your revision (--revision, or\n"
                    "git describe of your binary's repository) in git's order of your repository, and\n"
                    "labelled by it (or by --label); and\n"
                    "the change points found by E-divisive means\n"
                    "(Matteson & James 2014, as in Apache Otava): each with the runs and git revisions on\n"
                    "either side, the medians before and after, and its permutation p-value (999\n"
                    "permutations, fixed seed: the same store always gives the same answer).\n"
                    "A series of over 30 runs is summed up as its first and last run and its count (--all:\n"
                    "every run).\n"
                    "A plot per cell (png and svg in --out DIR, default plots/): the series with each change\n"
                    "point as a dashed line and the segment medians as a step; the files are listed. A name\n"
                    "that gnuplot could run as a command is refused (exit 1) and no plot is left behind.\n",
    };
    int pr = pb_cli_parse(&cli, argc, argv);
    if (pr) return pr == 1 ? 0 : 2;
    const pb_suite *s = a.suite ? pb_suite_find(a.suite) : NULL;
    if (!a.suite) { fprintf(stderr, "bench history: --suite NAME is required\n"); return 2; }
    if (!s) {
        char why[700];
        fprintf(stderr, "bench history: %s\n", pb_suite_unknown(why, sizeof why, a.suite, ""));
        return 2;
    }
    pb_store st;
    pb_err e = {{0}};
    if (pb_store_open_readonly(&st, a.db, &e) < 0) {
        fprintf(stderr, "bench history: %s\n", e.msg);
        return 2;
    }
    pb_history_opts o = {.db = a.db, .suite = s, .impl = a.impl, .metric = a.metric, .alpha = a.alpha,
                         .all = a.all, .out_dir = a.no_plots ? NULL : a.out ? a.out : "plots"};
    int rc = pb_history(&st, &o);
    pb_store_close(&st);
    return rc;
}
