/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd_baseline.c — `bench baseline save NAME [--run ID|latest] [--suite S]`, `bench baseline list`,
 * `bench baseline delete NAME`: names for stored runs, which `bench gate --against NAME` compares a
 * new run with (gate/gate_baseline.h, docs/gate.md "Stored baselines"). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_opts.h"
#include "gate_baseline.h"
#include "store.h"

typedef struct baseline_args {
    pb_cli *cli;
    const char *db, *run_text, *suite;
    const char *pos[3];
    int npos;
} baseline_args;

static const pb_cli_opt OPTS[] = {
    PB_OPT_RUN("save: the run to name (default latest: the newest complete run, of --suite if given)", baseline_args,
               run_text),
    PB_OPT_STRING_ONCE("suite", "S", "save --run latest: the newest complete run of suite S", baseline_args, suite),
    PB_OPT_DB(baseline_args, db),
    PB_OPT_END,
};

static int on_pos(void *ctx, const char *arg)
{
    baseline_args *a = ctx;
    if (a->npos == 2) return pb_cli_error(a->cli, "unexpected argument '%s' (see bench baseline --help)", arg);
    a->pos[a->npos++] = arg;
    return 0;
}

static int save(baseline_args *a, pb_store *st, const char *cmdline)
{
    int64_t run = pb_cli_run_of(a->run_text);   /* checked by the parser (PB_OPT_RUN) */
    char why[700];
    if (a->suite && !pb_suite_find(a->suite))
        return pb_cli_error(a->cli, "--suite: %s", pb_suite_unknown(why, sizeof why, a->suite, "")), 2;
    if (!run && !(run = pb_store_latest_run(st, a->suite))) {
        pb_cli_error(a->cli, "%s has no complete run%s%s to save", a->db, a->suite ? " of suite " : "", a->suite ? a->suite : "");
        return 2;
    }
    pb_err e = {{0}};
    int64_t was = 0;
    int rc = pb_baseline_save(st, a->pos[1], run, cmdline, &was, &e);
    if (rc < 0) { pb_cli_error(a->cli, "%s", e.msg); return rc == PB_STORE_REFUSED ? 2 : 1; }
    if (was && was != run) printf("baseline %s: run %lld (was run %lld) in %s\n", a->pos[1], (long long)run, (long long)was, a->db);
    else printf("baseline %s: run %lld in %s\n", a->pos[1], (long long)run, a->db);
    return 0;
}

static int delete_one(baseline_args *a, pb_store *st)
{
    pb_err e = {{0}};
    int rc = pb_baseline_delete(st, a->pos[1], &e);
    if (rc < 0) { pb_cli_error(a->cli, "%s", e.msg); return 1; }
    char near[PB_BASELINE_NAME_MAX + 32];
    if (!rc) {
        pb_cli_error(a->cli, "no baseline '%s' in %s (%sbench baseline list shows them)", a->pos[1], a->db,
                     pb_baseline_did_you_mean(st, a->pos[1], near, sizeof near));
        return 2;
    }
    printf("baseline %s deleted (its run stays) in %s\n", a->pos[1], a->db);
    return 0;
}

/* what the words ask for: 0 list, 1 save, 2 delete; -1 after saying what is wrong */
static int action(baseline_args *a)
{
    const char *what = a->npos ? a->pos[0] : "";
    int act = !strcmp(what, "list") ? 0 : !strcmp(what, "save") ? 1 : !strcmp(what, "delete") ? 2 : -1;
    if (act < 0) return pb_cli_error(a->cli, "%s%s%s: give save NAME, list or delete NAME (see bench baseline --help)",
                                     *what ? "unknown action '" : "no action", what, *what ? "'" : "");
    if (act && a->npos < 2) return pb_cli_error(a->cli, "%s needs the baseline's NAME", what);
    if (!act && a->npos > 1) return pb_cli_error(a->cli, "unexpected argument '%s' (list takes no name)", a->pos[1]);
    if (act != 1 && (a->run_text || a->suite)) return pb_cli_error(a->cli, "--run and --suite go with save");
    pb_err e = {{0}};
    if (act && pb_baseline_name_ok(a->pos[1], &e) < 0) return pb_cli_error(a->cli, "%s", e.msg);
    return act;
}

int cmd_baseline(int argc, char **argv)
{
    pb_cli cli = {
        .cmd = "baseline",
        .synopsis = "usage: bench baseline save NAME [--run ID|latest] [--suite S] [--db PATH]\n"
                    "       bench baseline list [--db PATH]\n"
                    "       bench baseline delete NAME [--db PATH]\n"
                    "\n"
                    "A name for a stored run (saving a name again moves it), which `bench gate --against NAME`\n"
                    "compares a new run of the same machine and configuration with: unpaired, one run each,\n"
                    "weaker than a paired gate (docs/gate.md, \"Stored baselines\"). NAME: 1 to 64 letters,\n"
                    "digits and . _ - / @ +.\n",
        .opts = OPTS,
        .on_pos = on_pos,
    };
    baseline_args a = {.cli = &cli, .db = pb_default_db()};
    cli.ctx = &a;
    char cmdline[2048];
    pb_cli_join(argc, argv, cmdline, sizeof cmdline);
    int pr = pb_cli_parse(&cli, argc, argv);
    if (pr) return pr == 1 ? 0 : 2;
    int act = action(&a);
    if (act < 0) return 2;
    pb_store st;
    pb_err e = {{0}};
    /* a name is for a run that is there: a store that is not is never made here */
    if (pb_store_check_path(a.db, &e) < 0 || !pb_store_exists(a.db)) {
        if (e.msg[0]) pb_cli_error(&cli, "%s", e.msg);
        else pb_cli_error(&cli, "no database at %s", a.db);
        return 2;
    }
    int opened = act ? pb_store_open(&st, a.db, &e) : pb_store_open_readonly(&st, a.db, &e);
    if (opened < 0) {
        pb_cli_error(&cli, "%s", e.msg);
        return opened == PB_STORE_REFUSED ? 2 : 1;
    }
    int rc = act == 1 ? save(&a, &st, cmdline) : act == 2 ? delete_one(&a, &st) : 0;
    if (!act && pb_baseline_list(&st, stdout, &e) < 0) rc = (pb_cli_error(&cli, "%s", e.msg), 1);
    pb_store_close(&st);
    return rc;
}
