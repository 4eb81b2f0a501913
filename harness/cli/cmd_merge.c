/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd_merge.c — `bench merge SRC.db... --into DEST`: the complete runs of other stores (other
 * machines, other configurations) copied into one, for cross-machine reports (docs/fleet.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_opts.h"
#include "merge.h"
#include "store.h"

#define MAX_SRC 64

typedef struct merge_args {
    pb_cli *cli;
    const char *into;
    const char *src[MAX_SRC];
    int nsrc;
} merge_args;

static const pb_cli_opt OPTS[] = {
    PB_OPT_STRING("into", "PATH", "the store to merge into (created if missing, migrated if older); required", merge_args,
                  into),
    PB_OPT_END,
};

static int on_pos(void *ctx, const char *arg)
{
    merge_args *a = ctx;
    if (a->nsrc == MAX_SRC) return pb_cli_error(a->cli, "at most %d SRC stores at once", MAX_SRC);
    a->src[a->nsrc++] = arg;
    return 0;
}

static void remove_temp(const char *tmp)
{
    if (!*tmp) return;
    char side[1200];
    unlink(tmp);
    snprintf(side, sizeof side, "%s-wal", tmp);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", tmp);
    unlink(side);
}

int cmd_merge(int argc, char **argv)
{
    pb_cli cli = {
        .cmd = "merge", .opts = OPTS, .on_pos = on_pos,
        .synopsis =
            "usage: bench merge SRC.db [SRC.db...] --into DEST.db\n"
            "\n"
            "Copy the complete runs of each SRC store (with their cases, samples, metrics, statistics and\n"
            "ratios, and the gate's comparisons and calibrations that refer only to runs merged) into DEST,\n"
            "for cross-machine reports (bench report --machines). A run keeps its identity (runs.uuid):\n"
            "integer ids are remapped, and a run DEST already holds is skipped, so merging twice adds\n"
            "nothing. Each run is copied in one transaction. Incomplete and failed runs are left out.\n"
            "SRC is opened read-only and never written; one of an older schema version is migrated in a\n"
            "temporary copy; a newer one is refused (exit 2, DEST untouched). Prints per SRC what it\n"
            "copied, skipped and left out. Exit 0; 1 when a copy failed (that run rolled back); 2 on a\n"
            "bad command line or a refused SRC.\n",
        .epilogue = "\ndocs/fleet.md: merging stores and comparing machines.\n",
    };
    merge_args ma = {.cli = &cli};
    cli.ctx = &ma;
    int pr = pb_cli_parse(&cli, argc, argv);
    if (pr) return pr == 1 ? 0 : 2;
    if (!ma.into) { pb_cli_error(&cli, "--into DEST is required (the store to merge into)"); return 2; }
    if (!*ma.into || !strcmp(ma.into, ":memory:")) {
        pb_cli_error(&cli, "--into: '%s' is not a database file (the merged runs would be thrown away)", ma.into);
        return 2;
    }
    if (!ma.nsrc) { pb_cli_error(&cli, "name at least one SRC store to merge (bench merge SRC.db --into DEST)"); return 2; }
    /* a PostgreSQL URI with a password is refused before it is echoed in any message (docs/fleet.md) */
    char pw[PB_ERR_MAX];
    if (pb_db_check_no_password(ma.into, "--into", pw, sizeof pw) < 0) { pb_cli_error(&cli, "%s", pw); return 2; }
    for (int i = 0; i < ma.nsrc; i++) {
        if (pb_db_check_no_password(ma.src[i], "SRC", pw, sizeof pw) < 0) { pb_cli_error(&cli, "%s", pw); return 2; }
        if (pb_db_is_pg(ma.src[i]) && !strcmp(ma.src[i], ma.into)) {
            pb_cli_error(&cli, "SRC %s is the --into store itself", ma.src[i]);
            return 2;
        }
    }
    struct stat db_st;
    int dest_exists = stat(ma.into, &db_st) == 0;
    /* every SRC checked before DEST is opened: a refused one leaves DEST as it was (or absent) */
    pb_store src[MAX_SRC];
    char tmp[MAX_SRC][1100];
    int opened = 0, rc = 0;
    pb_err e = {{0}};
    for (int i = 0; i < ma.nsrc && rc == 0; i++) {
        struct stat ss;
        if (dest_exists && stat(ma.src[i], &ss) == 0 && ss.st_dev == db_st.st_dev && ss.st_ino == db_st.st_ino) {
            pb_cli_error(&cli, "SRC %s is the --into store itself", ma.src[i]);
            rc = 2;
            break;
        }
        int refused = 0;
        if (pb_merge_open_source(&src[i], ma.src[i], tmp[i], &refused, &e) < 0) {
            pb_cli_error(&cli, "SRC %s: %s", ma.src[i], e.msg);
            rc = 2;
            break;
        }
        opened++;
        if (*tmp[i]) printf("%s: older schema, merging from a migrated temporary copy (the file is not changed)\n", ma.src[i]);
    }
    pb_store dest;
    memset(&dest, 0, sizeof dest);
    if (rc == 0 && pb_store_open(&dest, ma.into, &e) < 0) {
        pb_cli_error(&cli, "--into %s: %s", ma.into, e.msg);
        rc = 2;
    }
    int total_copied = 0, total_skipped = 0;
    for (int i = 0; i < opened && rc == 0; i++) {
        pb_merge_counts n;
        int mr = pb_merge(&dest, &src[i], &n, &e);
        printf("%s: copied %d run%s (%lld samples), skipped %d already in %s; left out %d incomplete, %d failed;"
               " comparisons copied %d, already there %d, left out %d; calibrations copied %d, already there %d,"
               " left out %d\n",
               ma.src[i], n.copied, n.copied == 1 ? "" : "s", (long long)n.samples, n.skipped, ma.into,
               n.left_incomplete, n.left_failed, n.cmp_copied, n.cmp_skipped, n.cmp_left, n.cal_copied, n.cal_skipped,
               n.cal_left);
        total_copied += n.copied;
        total_skipped += n.skipped;
        if (mr < 0) {
            if (n.one_transaction)
                fprintf(stderr, "bench merge: %s: %s (its runs were rolled back: %s holds none of them)\n", ma.src[i],
                        e.msg, ma.into);
            else
                fprintf(stderr, "bench merge: %s: %s (the run being copied was rolled back; %s holds what was copied "
                                "before)\n", ma.src[i], e.msg, ma.into);
            rc = 1;
        }
    }
    if (rc == 0) printf("merged %d source%s into %s: %d run%s copied, %d skipped\n", opened, opened == 1 ? "" : "s",
                        ma.into, total_copied, total_copied == 1 ? "" : "s", total_skipped);
    if (dest.db) pb_store_close(&dest);
    for (int i = 0; i < opened; i++) {
        pb_store_close(&src[i]);
        remove_temp(tmp[i]);
    }
    return rc;
}
