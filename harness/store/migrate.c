/* SPDX-License-Identifier: GPL-2.0-only */
/* migrate.c — a store's schema version and the migrations between versions (migrate.h). */
#include "migrate.h"

#include <stdio.h>
#include <stdlib.h>

#include "db_impl.h"

/* Not in pb_store_schema_sql: migrate_1_to_2 replays it on a `runs` that has no uuid column yet. */
static const char RUNS_UUID_INDEX[] = "CREATE UNIQUE INDEX IF NOT EXISTS runs_uuid ON runs(uuid)";

int pb_schema_version(pb_store *s, pb_err *e) { return s->db->ops->schema_version(s->db, s->path, e); }

/* table and column are this file's own words, never data */
static int has_column(pb_store *s, const char *table, const char *column, pb_err *e)
{
    char sql[256];
    s->db->ops->column_query(sql, sizeof sql, table, column);
    return (int)pb_db_query_int(s->db, s->path, sql, e);
}

/* A column a migration adds, in SQLite's words (pb_store_ddl translates them). */
typedef struct added_column {
    const char *table, *name, *type;
} added_column;

/* Each column of cols that its table lacks, added (a file may already have some: a column that came
 * without a version step). 0, or -1 + e. */
static int add_columns(pb_store *s, const added_column *cols, size_t n, pb_err *e)
{
    for (size_t i = 0; i < n; i++) {
        int have = has_column(s, cols[i].table, cols[i].name, e);
        if (have < 0) return -1;
        if (have) continue;
        char sql[192];
        snprintf(sql, sizeof sql, "ALTER TABLE %s ADD COLUMN %s %s", cols[i].table, cols[i].name, cols[i].type);
        if (pb_store_ddl(s, sql, e) < 0) return -1;
    }
    return 0;
}

/* ---- migrations: MIGRATIONS[i] takes a database from version i + 1 to i + 2 ----
 *
 * Version 1 is every database written before the store was versioned (user_version 0 with a
 * `runs` table). Its `runs` came in three shapes: the first (target default 'host', where 'host'
 * meant the implementations in the bench process), then + machine_id and job_id, then target
 * 'userspace'. The gate's tables may be absent (a bench.db) or present (a gate.db). */
static int migrate_1_to_2(pb_store *s, pb_err *e)
{
    static const added_column added[] = {{"runs", "guest_kernel", "TEXT"}, {"runs", "machine_id", "TEXT"},
                                         {"runs", "job_id", "TEXT"}, {"runs", "suite_settings", "TEXT"}};
    if (add_columns(s, added, sizeof added / sizeof added[0], e) < 0) return -1;
    /* 'host' was the userspace target before kernel-module runs existed; left as it is, report
     * and import would take those runs for kernel-module ones. Every insert names its target, so
     * the old column default is never used again. */
    if (pb_store_exec(s, "UPDATE runs SET target = 'userspace' WHERE target = 'host'", e) < 0) return -1;
    /* tables, indexes and views of version 2 that a version-1 file may lack */
    if (pb_store_ddl(s, pb_store_schema_sql, e) < 0) return -1;
    return pb_store_ddl(s, pb_gate_tables_sql, e);
}

/* Version 3: a run carries a UUID (random, made where the run started) so that `bench merge` can
 * keep one identity for it across stores whose integer ids differ; and where its benchmark thread
 * ran (cpu_affinity) with the load average at its start and end and the noise warnings it drew.
 * Runs from before get a fresh UUID now: they existed in this file only. Also adds suite_settings
 * where an early version-2 file lacks it. */
static int migrate_2_to_3(pb_store *s, pb_err *e)
{
    static const added_column added[] = {
        /* suite_settings came during version 2 without a version step: files made by the
         * first version-2 benches lack it (found by bench merge on such a file) */
        {"runs", "suite_settings", "TEXT"},
        {"runs", "uuid", "TEXT"}, {"runs", "cpu_affinity", "TEXT"}, {"runs", "loadavg_start", "REAL"},
        {"runs", "loadavg_end", "REAL"}, {"runs", "noise", "TEXT"}};
    if (add_columns(s, added, sizeof added / sizeof added[0], e) < 0) return -1;
    /* SQLite's words: PostgreSQL stores began at version 3 (db_pg.c, first_version) */
    if (pb_store_exec(s,
                      "UPDATE runs SET uuid = lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' ||"
                      " substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) ||"
                      " substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))) WHERE uuid IS NULL",
                      e) < 0)
        return -1;
    return pb_store_exec(s, RUNS_UUID_INDEX, e);
}

/* Version 4: code layouts (docs/layout.md). A run says which layouts it sampled, a case in how many
 * it ran, a sample in which, a ratio across how many and their range (per_layout: each layout's
 * own). Earlier runs ran in one layout: the defaults say so. */
static int migrate_3_to_4(pb_store *s, pb_err *e)
{
    static const added_column added[] = {
        {"runs", "layouts", "TEXT"},
        {"cases", "layouts", "INTEGER NOT NULL DEFAULT 1"},
        {"samples", "layout", "INTEGER NOT NULL DEFAULT 0"},
        {"ratios", "layouts", "INTEGER NOT NULL DEFAULT 1"},
        {"ratios", "layout_lo", "REAL"},
        {"ratios", "layout_hi", "REAL"},
        {"ratios", "per_layout", "TEXT"}};
    return add_columns(s, added, sizeof added / sizeof added[0], e);
}

/* Version 5: the identity of the CPU a run ran on (identity.h): vendor, family, model and stepping,
 * which tell CPU generations apart where the model name ("AMD EPYC") does not, the microcode, the
 * cache sizes, SMT and the hypervisor. Earlier runs recorded none of it: NULL, "not recorded". */
static int migrate_4_to_5(pb_store *s, pb_err *e)
{
    static const added_column added[] = {
        {"runs", "cpu_vendor", "TEXT"}, {"runs", "cpu_family", "INTEGER"}, {"runs", "cpu_model_number", "INTEGER"},
        {"runs", "cpu_stepping", "INTEGER"}, {"runs", "cpu_microcode", "TEXT"},
        {"runs", "cache_l1d_bytes", "INTEGER"}, {"runs", "cache_l1i_bytes", "INTEGER"},
        {"runs", "cache_l2_bytes", "INTEGER"}, {"runs", "cache_l3_bytes", "INTEGER"},
        {"runs", "threads_per_core", "INTEGER"}, {"runs", "hypervisor", "TEXT"}};
    return add_columns(s, added, sizeof added / sizeof added[0], e);
}

/* Version 6: whose code a run timed (docs/your-code.md). A run of the user's code says the user's
 * revision and label, the repository, and the build-parity warnings it drew; table objects holds
 * the identity of each file of user code it timed; table baselines names stored runs (bench
 * baseline save), and a comparison says which baseline it was made against (bench gate --against).
 * Earlier runs timed no recorded objects: NULL says so. */
static int migrate_5_to_6(pb_store *s, pb_err *e)
{
    static const added_column added[] = {
        {"runs", "user_revision", "TEXT"}, {"runs", "user_label", "TEXT"}, {"runs", "user_repo", "TEXT"},
        {"runs", "build_parity", "TEXT"}, {"comparisons", "baseline", "TEXT"}};
    if (add_columns(s, added, sizeof added / sizeof added[0], e) < 0) return -1;
    return pb_store_ddl(s, pb_schema_v6_tables_sql, e);
}

/* Version 7: what kept each sample's thread from its CPU (runenv.h pb_waits): its run-queue delay
 * and the machine's steal time during the sample. Earlier samples did not read them: NULL. */
static int migrate_6_to_7(pb_store *s, pb_err *e)
{
    static const added_column added[] = {{"samples", "wait_ns", "REAL"}, {"samples", "steal_ns", "REAL"}};
    return add_columns(s, added, sizeof added / sizeof added[0], e);
}

/* Version 8: a sample of another program (exec) keeps the user and system parts of its CPU time
 * apart, as hyperfine reports them; cpu_ns stays their sum. Earlier samples did not keep them: NULL. */
static int migrate_7_to_8(pb_store *s, pb_err *e)
{
    static const added_column added[] = {{"samples", "user_ns", "REAL"}, {"samples", "sys_ns", "REAL"}};
    return add_columns(s, added, sizeof added / sizeof added[0], e);
}

/* Version 9: a sample keeps its core-sharing probes (counters.h pb_tprobe_ticks), by which finalize
 * tells the rounds that ran on a core of their own from those that shared it, and a ratio how many
 * of the pairs it took had a sample on a shared core. Earlier samples had no probes: NULL, and no
 * round of theirs counts as shared; earlier ratios: NULL (not known). */
static int migrate_8_to_9(pb_store *s, pb_err *e)
{
    static const added_column added[] = {{"samples", "tprobe_before", "REAL"}, {"samples", "tprobe_after", "REAL"},
                                         {"ratios", "shared_pairs", "INTEGER"}};
    return add_columns(s, added, sizeof added / sizeof added[0], e);
}

/* one suite's impl read without a scan of every stats row: 0.9 s of bench history at 1,000 runs */
static int migrate_9_to_10(pb_store *s, pb_err *e)
{
    return pb_store_ddl(s, "CREATE INDEX IF NOT EXISTS cases_suite_impl ON cases(suite, impl)", e);
}

/* per-function counts of a count run (docs/counts.md): a table of its own, no row for older runs */
static int migrate_10_to_11(pb_store *s, pb_err *e)
{
    return pb_store_ddl(s, pb_schema_v11_tables_sql, e);
}

static const struct {
    const char *what;
    int (*apply)(pb_store *, pb_err *);
} MIGRATIONS[] = {
    {"1 -> 2: runs gain guest_kernel/machine_id/job_id/suite_settings, target 'host' becomes 'userspace', gate tables",
     migrate_1_to_2},
    {"2 -> 3: runs gain uuid (filled for existing runs), cpu_affinity, loadavg_start/_end, noise", migrate_2_to_3},
    {"3 -> 4: runs/cases/samples/ratios gain their code layouts", migrate_3_to_4},
    {"4 -> 5: runs gain the CPU identity (vendor/family/model/stepping, microcode, caches, SMT, hypervisor)",
     migrate_4_to_5},
    {"5 -> 6: runs gain the user's revision, label, repository and build parity; tables objects and baselines; "
     "comparisons gain their baseline", migrate_5_to_6},
    {"6 -> 7: samples gain their run-queue delay and steal time", migrate_6_to_7},
    {"7 -> 8: samples gain user_ns and sys_ns, the two parts of cpu_ns", migrate_7_to_8},
    {"8 -> 9: samples gain their core-sharing probes, ratios the pairs on a shared core they took", migrate_8_to_9},
    {"9 -> 10: cases gain the index cases_suite_impl (bench history's reads)", migrate_9_to_10},
    {"10 -> 11: table func_counts (a count run's instructions per op per function)", migrate_10_to_11},
};
_Static_assert(sizeof MIGRATIONS / sizeof MIGRATIONS[0] == PB_SCHEMA_VERSION - 1, "one migration per version step");

static int refuse_newer(pb_store *s, int v, pb_err *e)
{
    pb_errf(e, "%s has schema version %d, newer than this bench's %d: use a newer bench", s->path, v, PB_SCHEMA_VERSION);
    return PB_STORE_REFUSED;
}

int pb_schema_check_ours(pb_store *s, pb_err *e)
{
    int v = pb_schema_version(s, e);
    if (v < 0) return v;
    if (v > PB_SCHEMA_VERSION) return refuse_newer(s, v, e);
    return v ? pb_schema_check(s, v, v, e) : 0;
}

/* One transaction that takes the writer's lock at once: concurrent openers wait for each other
 * (busy timeout), and the second one finds the work done. */
int pb_schema_ensure(pb_store *s, pb_err *e)
{
    const pb_db_ops *ops = s->db->ops;
    int rc = -1;
    if (pb_store_begin(s, e) < 0) return -1;
    /* where BEGIN's lock does not keep concurrent first openers apart, the back end's own */
    if (ops->schema_lock_sql && pb_store_exec(s, ops->schema_lock_sql, e) < 0) goto fail;
    int v = pb_schema_version(s, e);
    if (v < 0 || v > PB_SCHEMA_VERSION) {
        rc = v < 0 ? v : refuse_newer(s, v, e);
        goto fail;
    }
    /* what the version requires was asked for by check_ours (a concurrent migration adds columns
     * only, and checks its result before it commits) */
    if (v == 0) {
        if (pb_store_ddl(s, pb_store_schema_sql, e) < 0 || pb_store_ddl(s, pb_gate_tables_sql, e) < 0 ||
            pb_store_exec(s, RUNS_UUID_INDEX, e) < 0)
            goto fail;
        if (ops->new_store_sql && pb_store_exec(s, ops->new_store_sql, e) < 0) goto fail;
    } else if (v < ops->first_version) {
        pb_errf(e, "%s: schema version %d in %s, whose stores began at version %d", s->path, v, ops->name,
                ops->first_version);
        rc = PB_STORE_REFUSED;
        goto fail;
    } else {
        for (int k = v; k < PB_SCHEMA_VERSION; k++)
            if (MIGRATIONS[k - 1].apply(s, e) < 0) {
                char why[PB_ERR_MAX];
                snprintf(why, sizeof why, "%s", e->msg);
                pb_errf(e, "%s: migration %s failed, database left unchanged: %s", s->path, MIGRATIONS[k - 1].what,
                        why);
                goto fail;
            }
    }
    if (v != PB_SCHEMA_VERSION) {
        char sql[64];
        snprintf(sql, sizeof sql, ops->set_version_sql, PB_SCHEMA_VERSION);
        if (pb_store_exec(s, sql, e) < 0) goto fail;
    }
    /* a new schema is checked too: the schema text and the check read it alike */
    if (v != PB_SCHEMA_VERSION && (rc = pb_schema_check(s, v ? v : PB_SCHEMA_VERSION, PB_SCHEMA_VERSION, e)) < 0)
        goto fail;
    return pb_store_commit(s, e);
fail:
    pb_store_rollback(s);
    return rc;
}

