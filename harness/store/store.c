/* SPDX-License-Identifier: GPL-2.0-only */
#include "store.h"

#include <errno.h>
#include <limits.h>
#include <sqlite3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "metrics.h"
#include "out_stage.h"
#include "stats.h"
#include "suite.h"

/* the advisory lock key of schema changes in PostgreSQL: 'pbench' in ASCII */
#define PB_PG_SCHEMA_LOCK "112980098110099104"

/* Not in pb_store_schema_sql: migrate_1_to_2 replays it on a `runs` that has no uuid column yet. */
static const char *RUNS_UUID_INDEX = "CREATE UNIQUE INDEX IF NOT EXISTS runs_uuid ON runs(uuid)";

int pb_store_sqlerr(pb_store *s, pb_err *e, const char *what)
{
    return pb_errf(e, "%s: %s: %s", s->path, what, pb_db_errmsg(s->db));
}

const char *pb_default_db(void)
{
    const char *env = getenv("PB_DB");
    return env && *env ? env : PB_DEFAULT_DB_PATH;
}

/* what the messages call the path: PB_DB when it came from there, else the option */
static const char *db_source(const char *path)
{
    const char *env = getenv("PB_DB");
    return env && !strcmp(env, path) ? "PB_DB" : "--db";
}

/* An SQLite store's path names a regular file (a link to one is followed, as the user meant) or
 * nothing yet. Checked before SQLite sees it: SQLite would open a device or FIFO and then make its
 * -journal or -wal beside it, and reads "file:" names (and their ?mode=memory, ?vfs=...) as URIs
 * that store nowhere or elsewhere, so every command refuses them alike. */
static int check_file_path(const char *path, const char *what, pb_err *e)
{
    if (!strncasecmp(path, "file:", 5))
        return pb_errf(e, "%s: '%s' is an SQLite URI: name a database file (a path), not a URI", what, path);
    if (strchr(path, '?'))
        return pb_errf(e, "%s: '%s' holds '?', which SQLite can read as a URI query: name a plain file", what, path);
    struct stat sb;
    if (lstat(path, &sb) != 0) {
        if (errno == ENOENT) return 0;   /* a new database: created by a command that writes */
        return pb_errf(e, "%s: %s: %s", what, path, strerror(errno));
    }
    if (S_ISLNK(sb.st_mode) && stat(path, &sb) != 0)
        return pb_errf(e, "%s: %s is a symbolic link to nothing (%s): name the database file itself", what, path,
                       strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return pb_errf(e, "%s: %s is %s, not a database file", what, path, pb_file_kind(sb.st_mode));
    return 0;
}

int pb_store_check_path(const char *path, pb_err *e)
{
    /* '' is a private temporary database and ':memory:' one in memory: both would throw the
     * results away when the process ends, while the command said it stored them. */
    if (!path || !*path) return pb_errf(e, "--db: an empty path is not a database file");
    if (!strcmp(path, ":memory:")) return pb_errf(e, "--db: ':memory:' would discard the results; name a file");
    /* a password in the URI would be in the process list, the shell history and the run's
     * command_line column: refused, whichever of --db or PB_DB it came from */
    char msg[PB_ERR_MAX];
    if (pb_db_check_no_password(path, db_source(path), msg, sizeof msg) < 0) return pb_errf(e, "%s", msg);
    if (pb_db_is_pg(path) && !pb_db_have_pg())
        return pb_errf(e, "--db: this bench was built without libpq (libpq-dev): it cannot open %s", path);
    return pb_db_is_pg(path) ? 0 : check_file_path(path, db_source(path), e);
}

int pb_store_exists(const char *path)
{
    return pb_db_is_pg(path) || access(path, F_OK) == 0;
}

static int mkdir_parent(const char *path, pb_err *e)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir) return 0;
    *slash = 0;
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(dir, 0755) && errno != EEXIST) return pb_errf(e, "cannot create folder %s: %s", dir, strerror(errno));
        *p = '/';
    }
    if (mkdir(dir, 0755) && errno != EEXIST) return pb_errf(e, "cannot create folder %s: %s", dir, strerror(errno));
    return 0;
}

int pb_store_exec(pb_store *s, const char *sql, pb_err *e)
{
    if (pb_db_exec(s->db, sql) != PB_DB_OK) return pb_errf(e, "%s: %s", s->path, pb_db_errmsg(s->db));
    return 0;
}

int pb_store_ddl(pb_store *s, const char *sql, pb_err *e)
{
    char *t = pb_db_ddl(pb_db_kind_of(s->db), sql);
    if (!t) return pb_errf(e, "out of memory");
    int rc = pb_store_exec(s, t, e);
    free(t);
    return rc;
}

static int is_pg(const pb_store *s) { return pb_db_kind_of(s->db) == PB_DB_PG; }

/* One integer from a query (PRAGMA user_version, a count); -1 on error. */
static int64_t query_int(pb_store *s, const char *sql, pb_err *e)
{
    pb_stmt *st;
    if (pb_db_prepare(s->db, sql, &st) != PB_DB_OK) return pb_store_sqlerr(s, e, "read schema");
    int64_t v = -1;
    int rc = pb_db_step(st);
    if (rc == PB_DB_ROW) v = pb_db_column_int64(st, 0);
    pb_db_finalize(st);
    if (rc != PB_DB_ROW) return pb_store_sqlerr(s, e, "read schema");
    return v;
}

/* The schema version the store holds (PRAGMA user_version, pb_meta's row), asked with sql: a whole
 * number from 0 up, or PB_STORE_REFUSED + e for anything else (a negative user_version, a NULL,
 * text or fraction in pb_meta, no row): no bench writes those, so no bench can read the file
 * as any version. -1 + e where the query fails. */
static int read_version(pb_store *s, const char *sql, pb_err *e)
{
    pb_stmt *st;
    if (pb_db_prepare(s->db, sql, &st) != PB_DB_OK) return pb_store_sqlerr(s, e, "read schema version");
    int rc = pb_db_step(st);
    int type = rc == PB_DB_ROW ? pb_db_column_type(st, 0) : PB_DB_NULL;
    int64_t v = type == PB_DB_INTEGER ? pb_db_column_int64(st, 0) : -1;
    char shown[64];
    snprintf(shown, sizeof shown, "%s", rc == PB_DB_ROW && type != PB_DB_NULL ? pb_db_column_str(st, 0) : "none");
    pb_db_finalize(st);
    if (rc != PB_DB_ROW && rc != PB_DB_DONE) return pb_store_sqlerr(s, e, "read schema version");
    if (v < 0 || v > INT_MAX) {
        pb_errf(e, "%s has schema version '%s', which no bench writes: not a patchbench database as it is", s->path,
                shown);
        return PB_STORE_REFUSED;
    }
    return (int)v;
}

/* table and column are this file's own words, never data */
static int has_column(pb_store *s, const char *table, const char *column, pb_err *e)
{
    char sql[256];
    if (is_pg(s))
        snprintf(sql, sizeof sql,
                 "SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema()"
                 " AND table_name = '%s' AND column_name = '%s'", table, column);
    else
        snprintf(sql, sizeof sql, "SELECT count(*) FROM pragma_table_info('%s') WHERE name = '%s'", table, column);
    return (int)query_int(s, sql, e);
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
    /* SQLite's words: PostgreSQL stores began at version 3 (see schema_version) */
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
};
_Static_assert(sizeof MIGRATIONS / sizeof MIGRATIONS[0] == PB_SCHEMA_VERSION - 1, "one migration per version step");

/* The schema version of an open database: PRAGMA user_version, 1 for an unversioned file that
 * has our tables, 0 for an empty file; PB_STORE_REFUSED + e for a file that is not ours, -1 + e
 * where the file could not be read. */
static int schema_version(pb_store *s, pb_err *e)
{
    if (is_pg(s)) {
        /* PostgreSQL: the version is pb_meta's one row; a database without pb_meta is empty to
         * us (other applications' tables may share it) unless it has a `runs` table, which is
         * then someone else's. PostgreSQL stores began at version 3: there is no older one. */
        /* both tables in one statement, so one snapshot: seen apart, another opener's commit of
         * the schema could fall between the two and show runs without pb_meta */
        int64_t t = query_int(s, "SELECT coalesce(sum(CASE WHEN table_name = 'pb_meta' THEN 2 ELSE 1 END), 0)"
                                 " FROM information_schema.tables WHERE table_schema = current_schema()"
                                 " AND table_name IN ('pb_meta', 'runs')", e);
        if (t < 0) return -1;
        if (t == 1) {
            pb_errf(e, "%s has a runs table but no pb_meta: not a patchbench database", s->path);
            return PB_STORE_REFUSED;
        }
        if (t == 0) return 0;
        return read_version(s, "SELECT max(schema_version) FROM pb_meta", e);
    }
    int uv = read_version(s, "PRAGMA user_version", e);
    if (uv != 0) return uv;
    int64_t tables = query_int(s, "SELECT count(*) FROM sqlite_master", e);
    if (tables < 0) return -1;
    if (tables == 0) return 0;
    int64_t runs = query_int(s, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'runs'", e);
    if (runs < 0) return -1;
    if (runs == 0) {
        pb_errf(e, "%s is an SQLite file but not a patchbench database (no runs table)", s->path);
        return PB_STORE_REFUSED;
    }
    return 1;
}


/* ---- the tables a schema version requires ----
 *
 * A store whose user_version (or pb_meta) is right may still lack a table, a view or a column
 * (dropped or renamed by hand, a half-restored backup): read as it is, a command would fail
 * later, half-way through its output, or read nothing and say nothing. So every open asks the
 * store for each relation of the schema by name, column by column. The list is not written out
 * a second time: it is read from the schema text itself, run into a private in-memory SQLite
 * database, so that it cannot drift from what a new store gets. */

/* Every table and view of the core schema (and of the gate's tables where with_gate), in name
 * order, handed to each(ctx, kind, name, select) until it returns non-zero: kind "table" or
 * "view", select "SELECT col, col, ... FROM name LIMIT 0" (with_columns 0: "SELECT * ..."). 0,
 * the first non-zero of each, or -1 + e if the reference database cannot be made (out of memory). */
static int each_relation(int with_gate, int with_columns,
                         int (*each)(void *ctx, const char *kind, const char *name, const char *select), void *ctx,
                         pb_err *e)
{
    sqlite3 *ref = NULL;
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_open_v2(":memory:", &ref, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_exec(ref, pb_store_schema_sql, NULL, NULL, NULL);
    if (rc == SQLITE_OK && with_gate) rc = sqlite3_exec(ref, pb_gate_tables_sql, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(ref,
                                "SELECT m.name, group_concat(p.name, ', '), m.type FROM sqlite_master m,"
                                " pragma_table_info(m.name) p WHERE m.type IN ('table', 'view')"
                                " GROUP BY m.name ORDER BY m.name", -1, &q, NULL);
    if (rc != SQLITE_OK) {
        pb_errf(e, "cannot list the schema's tables: %s", ref ? sqlite3_errmsg(ref) : "out of memory");
        sqlite3_close(ref);
        return -1;
    }
    int out = 0;
    while (!out && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        const char *rel = (const char *)sqlite3_column_text(q, 0), *cols = (const char *)sqlite3_column_text(q, 1);
        char *select = sqlite3_mprintf("SELECT %s FROM %s LIMIT 0", with_columns ? cols : "*", rel);
        if (!select) { out = pb_errf(e, "out of memory"); break; }
        out = each(ctx, (const char *)sqlite3_column_text(q, 2), rel, select);
        sqlite3_free(select);
    }
    if (!out && rc != SQLITE_DONE) out = pb_errf(e, "cannot list the schema's tables: %s", sqlite3_errmsg(ref));
    sqlite3_finalize(q);
    sqlite3_close(ref);
    return out;
}

typedef struct relation_check {
    pb_store *s;
    int found, migrated;   /* the store's version; the one a migration in this transaction made, or 0 */
    int version;           /* the version whose relations are asked for */
    pb_err *e;
} relation_check;

/* The relations that came after version 2 (the schema's text has only the current ones): an older
 * store is not asked for them before its migration creates them. */
static int relation_since(const char *name)
{
    static const struct { const char *name; int version; } LATER[] = {{"objects", 6}, {"baselines", 6}};
    for (size_t i = 0; i < sizeof LATER / sizeof LATER[0]; i++)
        if (!strcmp(LATER[i].name, name)) return LATER[i].version;
    return 1;
}

/* "PATH: store does not match schema version N[ (migrated to M, not kept)]: WHY" */
static int mismatch(const relation_check *c, const char *why)
{
    char migrated[64] = "";
    if (c->migrated) snprintf(migrated, sizeof migrated, " (migrated to %d, not kept)", c->migrated);
    pb_errf(c->e, "%s: store does not match schema version %d%s: %s", c->s->path, c->found, migrated, why);
    return PB_STORE_REFUSED;
}

/* Is name a relation of this kind in the store (not a view where the schema has a table, or the
 * other way round)? 0, PB_STORE_REFUSED or -1, + e. */
static int check_kind(const relation_check *c, const char *kind, const char *name, const char *what)
{
    int view = !strcmp(kind, "view");
    char sql[320];
    if (is_pg(c->s))
        snprintf(sql, sizeof sql,
                 "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()"
                 " AND table_name = '%s' AND table_type = '%s'", name, view ? "VIEW" : "BASE TABLE");
    else
        snprintf(sql, sizeof sql, "SELECT count(*) FROM sqlite_master WHERE name = '%s' AND type = '%s'", name, kind);
    int64_t n = query_int(c->s, sql, c->e);
    if (n < 0) return -1;
    if (n > 0) return 0;
    char why[200];
    snprintf(why, sizeof why, "%s is there but not as a %s", what, kind);
    return mismatch(c, why);
}

/* One relation of the schema, asked of the store: its statement prepared and run (PostgreSQL
 * reports a missing column only when it runs), the store's own words on failure; then whether it
 * is a table where the schema has a table (a view of the same columns reads alike, but takes no
 * row: a writer would fail half-way through a run). kind and name are the schema's own words. */
static int check_relation(void *ctx, const char *kind, const char *name, const char *select)
{
    relation_check *c = ctx;
    if (relation_since(name) > c->version) return 0;
    char what[128];
    snprintf(what, sizeof what, "%s %s", kind, name);
    pb_stmt *st;
    int rc = pb_db_prepare(c->s->db, select, &st);
    char why[PB_ERR_MAX];
    if (rc == PB_DB_OK) {
        rc = pb_db_step(st);
        snprintf(why, sizeof why, "%s", pb_db_errmsg(c->s->db));   /* before finalize can reset it */
        pb_db_finalize(st);
        if (rc == PB_DB_DONE || rc == PB_DB_ROW) return check_kind(c, kind, name, what);
    } else {
        snprintf(why, sizeof why, "%s", pb_db_errmsg(c->s->db));
    }
    /* a corrupt file is not a file of another schema: say which, in SQLite's words either way */
    if (!is_pg(c->s) && (rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB)) {
        pb_errf(c->e, "%s: cannot read the store: %s", c->s->path, why);
        return PB_STORE_REFUSED;
    }
    size_t len = strlen(why);
    snprintf(why + len, sizeof why - len, " (asking for %s)", what);
    return mismatch(c, why);
}

/* Does the store hold what schema version `version` requires? At PB_SCHEMA_VERSION: every table
 * and view of the schema with every column. Older (before a migration): the relations only, by
 * name (their columns are what the migration adds); version 1 may lack the gate's tables, which
 * migration 1 -> 2 creates. `found`: the version the store said it was, for the message (it
 * differs where a migration in the open transaction made `version`). 0, or PB_STORE_REFUSED + e. */
static int check_relations(pb_store *s, int found, int version, pb_err *e)
{
    relation_check c = {.s = s, .found = found, .migrated = found != version ? version : 0, .version = version, .e = e};
    return each_relation(version >= 2, version == PB_SCHEMA_VERSION, check_relation, &c, e);
}

static int refuse_newer(pb_store *s, int v, pb_err *e)
{
    pb_errf(e, "%s has schema version %d, newer than this bench's %d: use a newer bench", s->path, v, PB_SCHEMA_VERSION);
    return PB_STORE_REFUSED;
}

/* Before anything writes (even the switch to WAL changes the file header): refuse a file that is
 * not ours, is newer than this bench or lacks what its version requires, and leave it exactly as
 * it was. 0, -1 (unreadable) or PB_STORE_REFUSED, + e. */
static int check_ours(pb_store *s, pb_err *e)
{
    int v = schema_version(s, e);
    if (v < 0) return v;
    if (v > PB_SCHEMA_VERSION) return refuse_newer(s, v, e);
    return v ? check_relations(s, v, v, e) : 0;
}

/* Brings the file to PB_SCHEMA_VERSION in one IMMEDIATE transaction: concurrent openers wait for
 * each other (busy timeout), and the second one finds the work done. What a migration or a new
 * schema leaves is checked whole before the transaction commits: 0, PB_STORE_REFUSED or -1, + e. */
static int ensure_schema(pb_store *s, pb_err *e)
{
    int rc = -1;
    if (pb_store_begin(s, e) < 0) return -1;
    /* PostgreSQL: concurrent first openers queue on a transaction-level advisory lock (released
     * by COMMIT or ROLLBACK, or when a connection dies), so one creates or migrates and the
     * others find the work done; CREATE ... IF NOT EXISTS alone races in PostgreSQL. */
    if (is_pg(s) && pb_store_exec(s, "SELECT pg_advisory_xact_lock(" PB_PG_SCHEMA_LOCK ")", e) < 0) goto fail;
    int v = schema_version(s, e);
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
        if (is_pg(s) && pb_store_exec(s, "CREATE TABLE pb_meta (schema_version INTEGER NOT NULL);"
                                         " INSERT INTO pb_meta VALUES (0)", e) < 0)
            goto fail;
    } else if (is_pg(s) && v < 3) {
        pb_errf(e, "%s: schema version %d in PostgreSQL, whose stores began at version 3", s->path, v);
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
        snprintf(sql, sizeof sql, is_pg(s) ? "UPDATE pb_meta SET schema_version = %d" : "PRAGMA user_version = %d",
                 PB_SCHEMA_VERSION);
        if (pb_store_exec(s, sql, e) < 0) goto fail;
    }
    /* a new schema is checked too: the schema text and the check read it alike */
    if (v != PB_SCHEMA_VERSION && (rc = check_relations(s, v ? v : PB_SCHEMA_VERSION, PB_SCHEMA_VERSION, e)) < 0)
        goto fail;
    return pb_store_commit(s, e);
fail:
    pb_store_rollback(s);
    return rc;
}

/* PRAGMA journal_mode = WAL takes an exclusive lock and answers SQLITE_BUSY at once, without the
 * busy handler, while another process sets up the same new file: retry until the busy timeout. */
static int set_wal(pb_store *s, pb_err *e)
{
    for (int waited_ms = 0;; waited_ms += 10) {
        pb_stmt *st;
        int rc = pb_db_prepare(s->db, "PRAGMA journal_mode = WAL", &st);
        if (rc == PB_DB_OK) {
            rc = pb_db_step(st);
            pb_db_finalize(st);
            if (rc == PB_DB_ROW) return pb_store_exec(s, "PRAGMA synchronous = NORMAL", e);
        }
        if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) || waited_ms >= PB_BUSY_TIMEOUT_MS)
            return pb_store_sqlerr(s, e, "set WAL journal");
        sqlite3_sleep(10);
    }
}

static int check_readable(pb_store *s, const char *path, pb_err *e);

/* Closes s and returns rc (-1 or PB_STORE_REFUSED); SQLite's "file is not a database" and
 * "malformed" mean a file refused as it is, said in those words after ours. */
static int open_failed(pb_store *s, const char *path, int rc, pb_err *e)
{
    if (rc == -1 && (strstr(e->msg, "not a database") || strstr(e->msg, "malformed"))) {
        char why[PB_ERR_MAX];
        snprintf(why, sizeof why, "%s", e->msg);
        pb_errf(e, "%s is not a patchbench database (or is corrupt): %.300s", path, why);
        rc = PB_STORE_REFUSED;
    }
    pb_store_close(s);
    return rc;
}

/* An SQLite connection for s (name: a path or a file: URI), with the busy timeout set first:
 * everything after it may meet another writer. */
static int open_lite(pb_store *s, const char *name, int flags, pb_err *e)
{
    sqlite3 *h = NULL;
    if (sqlite3_open_v2(name, &h, flags, NULL) != SQLITE_OK) {
        pb_errf(e, "cannot open database %s: %s", s->path, h ? sqlite3_errmsg(h) : "out of memory");
        sqlite3_close(h);
        return -1;
    }
    sqlite3_busy_timeout(h, PB_BUSY_TIMEOUT_MS);
    if (!(s->db = pb_db_wrap_sqlite(h))) return pb_errf(e, "out of memory");
    return 0;
}

/* A PostgreSQL connection for s: libpq reads host, user, TLS settings and the password from the
 * URI and its usual environment (PGPASSWORD, PGPASSFILE/~/.pgpass, PGSSLMODE, ...). */
static int open_pg(pb_store *s, const char *uri, int read_only, pb_err *e)
{
    char msg[PB_ERR_MAX];
    if (pb_db_open_pg(&s->db, uri, read_only, msg, sizeof msg) < 0)
        return pb_errf(e, "cannot open database %s: %s", uri, msg);
    return 0;
}

int pb_store_open(pb_store *s, const char *path, pb_err *e)
{
    memset(s, 0, sizeof *s);
    if (pb_store_check_path(path, e) < 0) return -1;
    snprintf(s->path, sizeof s->path, "%s", path);
    if (pb_db_is_pg(path)) {
        int rc = open_pg(s, path, 0, e);
        if (rc == 0) rc = check_ours(s, e);
        if (rc == 0) rc = ensure_schema(s, e);
        if (rc < 0) pb_store_close(s);
        return rc;
    }
    if (mkdir_parent(path, e) < 0) return -1;
    if (open_lite(s, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, e) < 0) return -1;
    /* WAL: readers (report, gate) never block a running benchmark, and a killed
     * writer leaves the last committed state intact. */
    int rc = pb_store_exec(s, "PRAGMA foreign_keys = ON", e);
    if (rc == 0) rc = check_ours(s, e);
    if (rc == 0) rc = set_wal(s, e);
    if (rc == 0) rc = ensure_schema(s, e);
    return rc < 0 ? open_failed(s, path, rc, e) : 0;
}

int pb_store_open_readonly(pb_store *s, const char *path, pb_err *e)
{
    memset(s, 0, sizeof *s);
    if (pb_store_check_path(path, e) < 0) return -1;
    snprintf(s->path, sizeof s->path, "%s", path);
    if (pb_db_is_pg(path)) {
        /* every transaction read-only: as SQLite's query_only, nothing can be created or changed */
        if (open_pg(s, path, 1, e) < 0) return -1;
        return check_readable(s, path, e);
    }
    struct stat sb;
    if (stat(path, &sb) != 0) return pb_errf(e, "no database at %s: %s", path, strerror(errno));
    if (!S_ISREG(sb.st_mode)) return pb_errf(e, "%s is not a database file", path);
    /* A read-only SQLite connection to a WAL file creates its -wal and -shm and, unable to
     * checkpoint, leaves them behind. So:
     *  - a -wal exists (a writer is at work, or was killed): read it read-only, creating nothing new;
     *  - none, in a folder we can write: a read-write connection with query_only, which cannot
     *    change the database and, as the last one out, removes the -wal and -shm it made;
     *  - none, in a folder we cannot write (no writer can be at work there either): immutable. */
    char dir[1024], wal[1100];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) *(slash == dir ? slash + 1 : slash) = 0; else snprintf(dir, sizeof dir, ".");
    snprintf(wal, sizeof wal, "%s-wal", path);
    int rc;
    if (access(wal, F_OK) == 0) {
        rc = open_lite(s, path, SQLITE_OPEN_READONLY, e);
    } else if (access(dir, W_OK) == 0 && access(path, W_OK) == 0) {
        rc = open_lite(s, path, SQLITE_OPEN_READWRITE, e);
        if (rc == 0 && pb_db_exec(s->db, "PRAGMA query_only = 1") != PB_DB_OK)
            rc = pb_errf(e, "cannot open database %s: %s", path, pb_db_errmsg(s->db));
    } else {
        if (strpbrk(path, "?#%"))
            return pb_errf(e, "%s: a read-only folder and '?', '#' or '%%' in the name: cannot open it", path);
        char *uri = sqlite3_mprintf("file:%s?immutable=1", path);
        if (!uri) return pb_errf(e, "out of memory");
        rc = open_lite(s, uri, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, e);
        sqlite3_free(uri);
    }
    if (rc < 0) {
        pb_store_close(s);
        return -1;
    }
    return check_readable(s, path, e);
}

/* A read-only command reads this schema version only, and only a store that holds all of it: an
 * older one could be misread, one that lacks a table or column would fail half-way through. */
static int check_readable(pb_store *s, const char *path, pb_err *e)
{
    int v = schema_version(s, e);
    if (v < 0) {   /* a store that only cannot be read is refused as well: nothing is written to it */
        open_failed(s, path, v, e);
        return PB_STORE_REFUSED;
    }
    if (v == 0) {
        if (is_pg(s)) pb_errf(e, "no database at %s: no patchbench schema there (`bench migrate --db URI` creates it)", path);
        else pb_errf(e, "%s is empty, not a patchbench database", path);
        return open_failed(s, path, PB_STORE_REFUSED, e);
    }
    if (v != PB_SCHEMA_VERSION) {
        pb_errf(e, "%s has schema version %d, this bench reads version %d: %s", path, v, PB_SCHEMA_VERSION,
                v < PB_SCHEMA_VERSION ? "migrate it with `bench migrate --db PATH` (one transaction)"
                                      : "use a newer bench");
        return open_failed(s, path, PB_STORE_REFUSED, e);
    }
    int rc = check_relations(s, v, v, e);
    return rc < 0 ? open_failed(s, path, rc, e) : 0;
}


void pb_store_close(pb_store *s)
{
    pb_db_close(s->db);
    s->db = NULL;
}

int pb_store_begin(pb_store *s, pb_err *e)
{
    return pb_db_begin(s->db) == PB_DB_OK ? 0 : pb_errf(e, "%s: begin: %s", s->path, pb_db_errmsg(s->db));
}
int pb_store_commit(pb_store *s, pb_err *e)
{
    return pb_db_commit(s->db) == PB_DB_OK ? 0 : pb_errf(e, "%s: commit: %s", s->path, pb_db_errmsg(s->db));
}
void pb_store_rollback(pb_store *s) { pb_db_rollback(s->db); }

int pb_uuid4(char out[37], pb_err *e)
{
    unsigned char b[16];
    size_t got = 0;
    while (got < sizeof b) {
        ssize_t n = getrandom(b + got, sizeof b - got, 0);
        if (n < 0) {
            if (errno == EINTR) continue;
            return pb_errf(e, "getrandom: %s", strerror(errno));
        }
        got += (size_t)n;
    }
    b[6] = (unsigned char)((b[6] & 0x0f) | 0x40); /* version 4 */
    b[8] = (unsigned char)((b[8] & 0x3f) | 0x80); /* RFC 4122 variant */
    snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3],
             b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
    return 0;
}

/* The identity columns of runs, in the order bind_identity binds and pb_store_run_identity reads them. */
#define PB_IDENTITY_COLS                                                                                     \
    "cpu_vendor, cpu_family, cpu_model_number, cpu_stepping, cpu_microcode, cache_l1d_bytes, cache_l1i_bytes,"  \
    " cache_l2_bytes, cache_l3_bytes, threads_per_core, hypervisor"

static void bind_text_known(pb_stmt *st, int i, const char *v)
{
    if (*v) pb_db_bind_text(st, i, v);
    else pb_db_bind_null(st, i);
}

static void bind_int_known(pb_stmt *st, int i, int64_t v)
{
    if (v >= 0) pb_db_bind_int64(st, i, v);
    else pb_db_bind_null(st, i);
}

/* id into parameters first .. first + 10: what is unknown as NULL */
static void bind_identity(pb_stmt *st, int first, const pb_cpu_identity *id)
{
    bind_text_known(st, first, id->vendor);
    bind_int_known(st, first + 1, id->family);
    bind_int_known(st, first + 2, id->model);
    bind_int_known(st, first + 3, id->stepping);
    bind_text_known(st, first + 4, id->microcode);
    for (int i = 0; i < PB_NCACHES; i++) bind_int_known(st, first + 5 + i, id->cache[i]);
    bind_int_known(st, first + 9, id->threads_per_core);
    bind_text_known(st, first + 10, id->hypervisor);
}

static void column_text_known(pb_stmt *st, int i, char *out, size_t cap)
{
    out[0] = 0;
    if (pb_db_column_type(st, i) != PB_DB_NULL) snprintf(out, cap, "%s", pb_db_column_str(st, i));
}

static int64_t column_int_known(pb_stmt *st, int i)
{
    return pb_db_column_type(st, i) == PB_DB_NULL ? -1 : pb_db_column_int64(st, i);
}

int pb_store_run_identity(pb_store *s, int64_t run, pb_cpu_identity *id, pb_err *e)
{
    pb_cpu_identity_unknown(id);
    pb_stmt *st;
    if (pb_db_prepare(s->db, "SELECT " PB_IDENTITY_COLS " FROM runs WHERE id = ?1", &st) != PB_DB_OK)
        return pb_store_sqlerr(s, e, "read the run's CPU identity");
    pb_db_bind_int64(st, 1, run);
    int rc = pb_db_step(st);
    if (rc == PB_DB_ROW) {
        column_text_known(st, 0, id->vendor, sizeof id->vendor);
        id->family = (int)column_int_known(st, 1);
        id->model = (int)column_int_known(st, 2);
        id->stepping = (int)column_int_known(st, 3);
        column_text_known(st, 4, id->microcode, sizeof id->microcode);
        for (int i = 0; i < PB_NCACHES; i++) id->cache[i] = column_int_known(st, 5 + i);
        id->threads_per_core = (int)column_int_known(st, 9);
        column_text_known(st, 10, id->hypervisor, sizeof id->hypervisor);
    }
    pb_db_finalize(st);
    if (rc == PB_DB_ROW) return 0;
    if (rc == PB_DB_DONE) return pb_errf(e, "%s: no run %lld", s->path, (long long)run);
    return pb_store_sqlerr(s, e, "read the run's CPU identity");
}

int64_t pb_store_begin_run(pb_store *s, const pb_run_info *ri, const pb_provenance *p, pb_err *e)
{
    static const char *sql =
        "INSERT INTO runs (suite, status, started_at, target, command_line, options, metrics, baseline, candidate,"
        " primary_metric, git_sha, git_dirty, version, compiler, cflags, buildtype, libs, cpu_model, cpu_flags,"
        " online_cpus, kernel, hostname, virt, clock_source, governor, boost, tick_source, tsc_hz, counter_source,"
        " guest_kernel, machine_id, job_id, suite_settings, uuid, cpu_affinity, loadavg_start, layouts,"
        " " PB_IDENTITY_COLS ")"
        " VALUES (?1, 'incomplete', ?35, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
        " ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32,"
        " ?33, ?34, ?36, ?37, ?38, ?39, ?40, ?41, ?42, ?43, ?44, ?45, ?46, ?47) RETURNING id";
    pb_stmt *st;
    if (pb_db_prepare(s->db, sql, &st) != PB_DB_OK) return pb_store_sqlerr(s, e, "insert run");
    pb_db_bind_text(st, 1, ri->suite);
    pb_db_bind_text(st, 2, ri->target ? ri->target : "userspace");
    pb_db_bind_text(st, 3, ri->command_line);
    pb_db_bind_text(st, 4, ri->options);
    pb_db_bind_int64(st, 5, ri->metrics);
    pb_db_bind_text(st, 6, ri->baseline);
    pb_db_bind_text(st, 7, ri->candidate);
    pb_db_bind_text(st, 8, ri->primary_metric);
    pb_db_bind_text(st, 9, p->git_sha);
    pb_db_bind_int(st, 10, p->git_dirty);
    pb_db_bind_text(st, 11, p->version);
    pb_db_bind_text(st, 12, p->compiler);
    pb_db_bind_text(st, 13, p->cflags);
    pb_db_bind_text(st, 14, p->buildtype);
    pb_db_bind_text(st, 15, p->libs);
    pb_db_bind_text(st, 16, p->cpu_model);
    pb_db_bind_text(st, 17, p->cpu_flags);
    pb_db_bind_int(st, 18, p->online_cpus);
    pb_db_bind_text(st, 19, p->kernel);
    pb_db_bind_text(st, 20, p->hostname);
    pb_db_bind_text(st, 21, p->virt);
    pb_db_bind_text(st, 22, p->clock_source);
    pb_db_bind_text(st, 23, p->governor);
    pb_db_bind_text(st, 24, p->boost);
    pb_db_bind_text(st, 25, ri->tick_source);
    pb_db_bind_double(st, 26, ri->tsc_hz);
    pb_db_bind_text(st, 27, ri->counter_source);
    pb_db_bind_text(st, 28, ri->guest_kernel);
    pb_db_bind_text(st, 29, p->machine_id);
    /* runs of one CI job (or one gate session) share PB_JOB_ID: only those may be compared */
    pb_db_bind_text(st, 30, getenv("PB_JOB_ID"));
    pb_db_bind_text(st, 31, ri->suite_settings);
    char uuid[37];
    if (pb_uuid4(uuid, e) < 0) {
        pb_db_finalize(st);
        return -1;
    }
    pb_db_bind_text(st, 32, uuid);
    pb_db_bind_text(st, 33, ri->cpu_affinity);
    if (ri->loadavg_start >= 0) pb_db_bind_double(st, 34, ri->loadavg_start);
    char now[32];
    pb_db_now(now);
    pb_db_bind_text(st, 35, now);
    pb_db_bind_text(st, 36, ri->layouts);
    bind_identity(st, 37, &p->cpu);
    int rc = pb_db_step(st);
    int64_t id = rc == PB_DB_ROW ? pb_db_column_int64(st, 0) : -1;
    pb_db_finalize(st);
    if (rc != PB_DB_ROW) return pb_store_sqlerr(s, e, "insert run");
    return id;
}

int pb_store_run_noise(pb_store *s, int64_t run, double loadavg_end, const char *noise, pb_err *e)
{
    pb_stmt *st;
    if (pb_db_prepare(s->db, "UPDATE runs SET loadavg_end = ?1, noise = ?2 WHERE id = ?3", &st) != PB_DB_OK)
        return pb_store_sqlerr(s, e, "run noise");
    if (loadavg_end >= 0) pb_db_bind_double(st, 1, loadavg_end);
    pb_db_bind_text(st, 2, noise && *noise ? noise : NULL);
    pb_db_bind_int64(st, 3, run);
    int rc = pb_db_step(st);
    pb_db_finalize(st);
    return rc == PB_DB_DONE ? 0 : pb_store_sqlerr(s, e, "run noise");
}

int pb_store_end_run(pb_store *s, int64_t run, const char *status, const char *why, pb_err *e)
{
    pb_stmt *st;
    if (pb_db_prepare(s->db,
                           "UPDATE runs SET status = ?1, status_reason = ?2,"
                           " ended_at = ?4 WHERE id = ?3", &st) != PB_DB_OK)
        return pb_store_sqlerr(s, e, "end run");
    pb_db_bind_text(st, 1, status);
    pb_db_bind_text(st, 2, why);
    pb_db_bind_int64(st, 3, run);
    char now[32];
    pb_db_now(now);
    pb_db_bind_text(st, 4, now);
    int rc = pb_db_step(st);
    pb_db_finalize(st);
    return rc == PB_DB_DONE ? 0 : pb_store_sqlerr(s, e, "end run");
}

int64_t pb_store_add_case(pb_store *s, int64_t run, const char *suite, const char *impl, const char *variant,
                          const char *op, uint64_t size, int64_t iterations, const char *status,
                          const char *reason, pb_err *e)
{
    pb_stmt *st;
    if (pb_db_prepare(s->db,
                           "INSERT INTO cases (run_id, suite, impl, variant, op, size_bytes, iterations, status, reason)"
                           " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
                           " ON CONFLICT (run_id, impl, variant, op, size_bytes) DO UPDATE SET iterations = excluded.iterations"
                           " RETURNING id", &st) != PB_DB_OK)
        return pb_store_sqlerr(s, e, "insert case");
    pb_db_bind_int64(st, 1, run);
    pb_db_bind_text(st, 2, suite);
    pb_db_bind_text(st, 3, impl);
    pb_db_bind_text(st, 4, variant);
    pb_db_bind_text(st, 5, op);
    pb_db_bind_int64(st, 6, (int64_t)size);
    if (iterations > 0) pb_db_bind_int64(st, 7, iterations); else pb_db_bind_null(st, 7);
    pb_db_bind_text(st, 8, status ? status : "ok");
    pb_db_bind_text(st, 9, reason);
    int64_t id = -1;
    if (pb_db_step(st) == PB_DB_ROW) id = pb_db_column_int64(st, 0);
    pb_db_finalize(st);
    if (id < 0) return pb_store_sqlerr(s, e, "insert case");
    return id;
}

int pb_store_add_sample(pb_store *s, int64_t case_id, const pb_sample *m, pb_err *e)
{
    pb_stmt *st;
    if (pb_db_prepare(s->db,
                           "INSERT INTO samples (case_id, round, position, repetition, iterations, ns, cpu_ns, tsc,"
                           " cycles, instructions, probe_before, probe_after, errors, layout, wait_ns, steal_ns,"
                           " user_ns, sys_ns, tprobe_before, tprobe_after) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,"
                           " ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)", &st) != PB_DB_OK)
        return pb_store_sqlerr(s, e, "insert sample");
    pb_db_bind_int64(st, 1, case_id);
    pb_db_bind_int(st, 2, m->round);
    pb_db_bind_int(st, 3, m->position);
    pb_db_bind_int(st, 4, m->repetition);
    pb_db_bind_int64(st, 5, m->iterations);
    pb_db_bind_double(st, 6, m->ns);
    if (m->cpu_ns >= 0) pb_db_bind_double(st, 7, m->cpu_ns); else pb_db_bind_null(st, 7);
    if (m->tsc > 0) pb_db_bind_double(st, 8, m->tsc); else pb_db_bind_null(st, 8);
    if (m->cycles >= 0) pb_db_bind_double(st, 9, m->cycles); else pb_db_bind_null(st, 9);
    if (m->insns >= 0) pb_db_bind_double(st, 10, m->insns); else pb_db_bind_null(st, 10);
    if (m->probe_before > 0) pb_db_bind_double(st, 11, m->probe_before); else pb_db_bind_null(st, 11);
    if (m->probe_after > 0) pb_db_bind_double(st, 12, m->probe_after); else pb_db_bind_null(st, 12);
    pb_db_bind_int64(st, 13, (int64_t)m->errors);
    pb_db_bind_int(st, 14, m->layout);
    if (m->wait_ns >= 0) pb_db_bind_double(st, 15, m->wait_ns); else pb_db_bind_null(st, 15);
    if (m->steal_ns >= 0) pb_db_bind_double(st, 16, m->steal_ns); else pb_db_bind_null(st, 16);
    if (m->has_cpu_split) {
        pb_db_bind_double(st, 17, m->user_ns);
        pb_db_bind_double(st, 18, m->sys_ns);
    } else {
        pb_db_bind_null(st, 17);
        pb_db_bind_null(st, 18);
    }
    if (m->tprobe_before > 0) pb_db_bind_double(st, 19, m->tprobe_before); else pb_db_bind_null(st, 19);
    if (m->tprobe_after > 0) pb_db_bind_double(st, 20, m->tprobe_after); else pb_db_bind_null(st, 20);
    int rc = pb_db_step(st);
    pb_db_finalize(st);
    return rc == PB_DB_DONE ? 0 : pb_store_sqlerr(s, e, "insert sample");
}

int pb_store_case_layouts(pb_store *s, int64_t case_id, int layouts, pb_err *e)
{
    if (layouts == 1) return 0;   /* the column's default */
    pb_stmt *st;
    if (pb_db_prepare(s->db, "UPDATE cases SET layouts = ?1 WHERE id = ?2", &st) != PB_DB_OK)
        return pb_store_sqlerr(s, e, "set case layouts");
    pb_db_bind_int(st, 1, layouts);
    pb_db_bind_int64(st, 2, case_id);
    int rc = pb_db_step(st);
    pb_db_finalize(st);
    return rc == PB_DB_DONE ? 0 : pb_store_sqlerr(s, e, "set case layouts");
}

int64_t pb_store_latest_run(pb_store *s, const char *suite)
{
    pb_stmt *st;
    if (pb_db_prepare(s->db,
                           "SELECT id FROM runs WHERE status = 'complete' AND suite = coalesce(?1, suite)"
                           " ORDER BY id DESC LIMIT 1", &st) != PB_DB_OK)
        return 0;
    pb_db_bind_text(st, 1, suite);
    int64_t id = 0;
    if (pb_db_step(st) == PB_DB_ROW) id = pb_db_column_int64(st, 0);
    pb_db_finalize(st);
    return id;
}
