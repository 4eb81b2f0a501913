/* SPDX-License-Identifier: GPL-2.0-only */
#include "store.h"

#include <errno.h>
#include <sqlite3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "metrics.h"
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

int pb_store_check_path(const char *path, pb_err *e)
{
    /* '' is a private temporary database and ':memory:' one in memory: both would throw the
     * results away when the process ends, while the command said it stored them. */
    if (!path || !*path) return pb_errf(e, "--db: an empty path is not a database file");
    if (!strcmp(path, ":memory:")) return pb_errf(e, "--db: ':memory:' would discard the results; name a file");
    /* a password in the URI would be in the process list, the shell history and the run's
     * command_line column: refused, whichever of --db or PB_DB it came from */
    char msg[PB_ERR_MAX];
    if (pb_db_check_no_password(path, getenv("PB_DB") && !strcmp(getenv("PB_DB"), path) ? "PB_DB" : "--db", msg,
                                sizeof msg) < 0)
        return pb_errf(e, "%s", msg);
    if (pb_db_is_pg(path) && !pb_db_have_pg())
        return pb_errf(e, "--db: this bench was built without libpq (libpq-dev): it cannot open %s", path);
    return 0;
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

/* ---- migrations: MIGRATIONS[i] takes a database from version i + 1 to i + 2 ----
 *
 * Version 1 is every database written before the store was versioned (user_version 0 with a
 * `runs` table). Its `runs` came in three shapes: the first (target default 'host', where 'host'
 * meant the implementations in the bench process), then + machine_id and job_id, then target
 * 'userspace'. The gate's tables may be absent (a bench.db) or present (a gate.db). */
static int migrate_1_to_2(pb_store *s, pb_err *e)
{
    static const char *added[] = {"guest_kernel", "machine_id", "job_id", "suite_settings"};
    for (size_t i = 0; i < sizeof added / sizeof added[0]; i++) {
        int have = has_column(s, "runs", added[i], e);
        if (have < 0) return -1;
        if (have) continue;
        char sql[128];
        snprintf(sql, sizeof sql, "ALTER TABLE runs ADD COLUMN %s TEXT", added[i]);
        if (pb_store_ddl(s, sql, e) < 0) return -1;
    }
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
    static const struct { const char *name, *type; } added[] = {
        /* suite_settings came during version 2 without a version step: files made by the
         * first version-2 benches lack it (found by bench merge on such a file) */
        {"suite_settings", "TEXT"},
        {"uuid", "TEXT"}, {"cpu_affinity", "TEXT"}, {"loadavg_start", "REAL"}, {"loadavg_end", "REAL"}, {"noise", "TEXT"}};
    for (size_t i = 0; i < sizeof added / sizeof added[0]; i++) {
        int have = has_column(s, "runs", added[i].name, e);
        if (have < 0) return -1;
        if (have) continue;
        char sql[128];
        snprintf(sql, sizeof sql, "ALTER TABLE runs ADD COLUMN %s %s", added[i].name, added[i].type);
        if (pb_store_ddl(s, sql, e) < 0) return -1;
    }
    /* SQLite's words: PostgreSQL stores began at version 3 (see schema_version) */
    if (pb_store_exec(s,
                      "UPDATE runs SET uuid = lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' ||"
                      " substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) ||"
                      " substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))) WHERE uuid IS NULL",
                      e) < 0)
        return -1;
    return pb_store_exec(s, RUNS_UUID_INDEX, e);
}

static const struct {
    const char *what;
    int (*apply)(pb_store *, pb_err *);
} MIGRATIONS[] = {
    {"1 -> 2: runs gain guest_kernel/machine_id/job_id/suite_settings, target 'host' becomes 'userspace', gate tables",
     migrate_1_to_2},
    {"2 -> 3: runs gain uuid (filled for existing runs), cpu_affinity, loadavg_start/_end, noise", migrate_2_to_3},
};
_Static_assert(sizeof MIGRATIONS / sizeof MIGRATIONS[0] == PB_SCHEMA_VERSION - 1, "one migration per version step");

/* The schema version of an open database: PRAGMA user_version, 1 for an unversioned file that
 * has our tables, 0 for an empty file; -1 + e for a file that is not ours. */
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
        if (t == 1) return pb_errf(e, "%s has a runs table but no pb_meta: not a patchbench database", s->path);
        if (t == 0) return 0;
        int64_t v = query_int(s, "SELECT max(schema_version) FROM pb_meta", e);
        return v < 0 ? -1 : (int)v;
    }
    int64_t uv = query_int(s, "PRAGMA user_version", e);
    if (uv < 0) return -1;
    if (uv > 0) return (int)uv;
    int64_t tables = query_int(s, "SELECT count(*) FROM sqlite_master", e);
    if (tables < 0) return -1;
    if (tables == 0) return 0;
    int64_t runs = query_int(s, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'runs'", e);
    if (runs < 0) return -1;
    if (runs == 0) return pb_errf(e, "%s is an SQLite file but not a patchbench database (no runs table)", s->path);
    return 1;
}

/* Before anything writes (even the switch to WAL changes the file header): refuse a file that is
 * not ours or is newer than this bench, and leave it exactly as it was. */
static int check_ours(pb_store *s, pb_err *e)
{
    int v = schema_version(s, e);
    if (v < 0) return -1;
    if (v > PB_SCHEMA_VERSION)
        return pb_errf(e, "%s has schema version %d, newer than this bench's %d: use a newer bench", s->path, v,
                       PB_SCHEMA_VERSION);
    return 0;
}

/* Brings the file to PB_SCHEMA_VERSION in one IMMEDIATE transaction: concurrent openers wait for
 * each other (busy timeout), and the second one finds the work done. */
static int ensure_schema(pb_store *s, pb_err *e)
{
    if (pb_store_begin(s, e) < 0) return -1;
    /* PostgreSQL: concurrent first openers queue on a transaction-level advisory lock (released
     * by COMMIT or ROLLBACK, or when a connection dies), so one creates or migrates and the
     * others find the work done; CREATE ... IF NOT EXISTS alone races in PostgreSQL. */
    if (is_pg(s) && pb_store_exec(s, "SELECT pg_advisory_xact_lock(" PB_PG_SCHEMA_LOCK ")", e) < 0) goto fail;
    int v = schema_version(s, e);
    if (v < 0 || (v > PB_SCHEMA_VERSION && check_ours(s, e) < 0)) goto fail;
    if (v == 0) {
        if (pb_store_ddl(s, pb_store_schema_sql, e) < 0 || pb_store_ddl(s, pb_gate_tables_sql, e) < 0 ||
            pb_store_exec(s, RUNS_UUID_INDEX, e) < 0)
            goto fail;
        if (is_pg(s) && pb_store_exec(s, "CREATE TABLE pb_meta (schema_version INTEGER NOT NULL);"
                                         " INSERT INTO pb_meta VALUES (0)", e) < 0)
            goto fail;
    } else if (is_pg(s) && v < 3) {
        pb_errf(e, "%s: schema version %d in PostgreSQL, whose stores began at version 3", s->path, v);
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
    return pb_store_commit(s, e);
fail:
    pb_store_rollback(s);
    return -1;
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

static int open_failed(pb_store *s, const char *path, pb_err *e)
{
    if (strstr(e->msg, "not a database") || strstr(e->msg, "malformed"))
        pb_errf(e, "%s is not a patchbench database (or is corrupt)", path);
    pb_store_close(s);
    return -1;
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
        if (open_pg(s, path, 0, e) < 0 || check_ours(s, e) < 0 || ensure_schema(s, e) < 0) {
            pb_store_close(s);
            return -1;
        }
        return 0;
    }
    if (mkdir_parent(path, e) < 0) return -1;
    if (open_lite(s, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, e) < 0) return -1;
    /* WAL: readers (report, gate) never block a running benchmark, and a killed
     * writer leaves the last committed state intact. */
    if (pb_store_exec(s, "PRAGMA foreign_keys = ON", e) < 0 || check_ours(s, e) < 0 || set_wal(s, e) < 0 ||
        ensure_schema(s, e) < 0)
        return open_failed(s, path, e);
    return 0;
}

int pb_store_open_readonly(pb_store *s, const char *path, pb_err *e)
{
    memset(s, 0, sizeof *s);
    if (!path || !*path) return pb_errf(e, "--db: an empty path is not a database file");
    snprintf(s->path, sizeof s->path, "%s", path);
    if (pb_db_is_pg(path)) {
        /* every transaction read-only: as SQLite's query_only, nothing can be created or changed */
        if (pb_store_check_path(path, e) < 0 || open_pg(s, path, 1, e) < 0) return -1;
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

/* A read-only command reads this schema version only: an older one could be misread. */
static int check_readable(pb_store *s, const char *path, pb_err *e)
{
    int v = schema_version(s, e);
    if (v < 0) return open_failed(s, path, e);
    if (v == 0) {
        if (is_pg(s)) pb_errf(e, "no database at %s: no patchbench schema there (`bench migrate --db URI` creates it)", path);
        else pb_errf(e, "%s is empty, not a patchbench database", path);
        return open_failed(s, path, e);
    }
    if (v != PB_SCHEMA_VERSION) {
        pb_errf(e, "%s has schema version %d, this bench reads version %d: %s", path, v, PB_SCHEMA_VERSION,
                v < PB_SCHEMA_VERSION ? "migrate it with `bench migrate --db PATH` (one transaction)"
                                      : "use a newer bench");
        return open_failed(s, path, e);
    }
    return 0;
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

int64_t pb_store_begin_run(pb_store *s, const pb_run_info *ri, const pb_provenance *p, pb_err *e)
{
    static const char *sql =
        "INSERT INTO runs (suite, status, started_at, target, command_line, options, metrics, baseline, candidate,"
        " primary_metric, git_sha, git_dirty, version, compiler, cflags, buildtype, libs, cpu_model, cpu_flags,"
        " online_cpus, kernel, hostname, virt, clock_source, governor, boost, tick_source, tsc_hz, counter_source,"
        " guest_kernel, machine_id, job_id, suite_settings, uuid, cpu_affinity, loadavg_start)"
        " VALUES (?1, 'incomplete', ?35, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
        " ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32,"
        " ?33, ?34) RETURNING id";
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
                           " cycles, instructions, probe_before, probe_after, errors)"
                           " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)", &st) != PB_DB_OK)
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
    int rc = pb_db_step(st);
    pb_db_finalize(st);
    return rc == PB_DB_DONE ? 0 : pb_store_sqlerr(s, e, "insert sample");
}

/* ---- finalize: metrics, statistics, ratios ---- */

/* the metrics: metrics.h's table */
#define METRICS pb_metrics
#define NMETRICS pb_nmetrics

typedef struct raw {
    int64_t id;
    int round, rep;
    double iters, ns, tsc, cycles, insns, pb, pa;
    int has_tsc, has_cycles, has_insns;
    const char *speed;
} raw;

/* ns per op of the paired samples of case c and its baseline b (pb_pair_by_round) */
typedef struct time_pairs {
    const struct case_row *c, *b;
    double *cv, *bv;
    size_t n;
} time_pairs;

static int push_time_pair(void *ctx, size_t i, size_t j);

/* value of metric m for one sample of a case of `size` bytes; NAN if not derivable */
static double metric_value(unsigned bit, const raw *r, double size)
{
    double bytes = r->iters * size;
    switch (bit) {
    case PB_M_NS_PER_OP: return r->ns / r->iters;
    case PB_M_TSC_PER_BYTE: return r->has_tsc && bytes > 0 ? r->tsc / bytes : NAN;
    case PB_M_CYCLES_PER_BYTE: return r->has_cycles && bytes > 0 ? r->cycles / bytes : NAN;
    case PB_M_EST_CYCLES_PER_BYTE: {
        double probe = (r->pb > 0 && r->pa > 0) ? (r->pb + r->pa) / 2 : 0;
        return r->has_tsc && probe > 0 && bytes > 0 ? r->tsc * 1000.0 / probe / bytes : NAN;
    }
    case PB_M_MB_PER_S: return bytes > 0 ? bytes * 1e3 / r->ns : NAN;
    case PB_M_GBIT_PER_S: return bytes > 0 ? bytes * 8.0 / r->ns : NAN;
    case PB_M_INSNS_PER_BYTE: return r->has_insns && bytes > 0 ? r->insns / bytes : NAN;
    }
    return NAN;
}

static const char *metric_source(unsigned bit, const char *target, const char *tick_source,
                                 const char *counter_source)
{
    int guest = target && strcmp(target, "userspace") != 0;
    switch (bit) {
    case PB_M_NS_PER_OP:
    case PB_M_MB_PER_S:
    case PB_M_GBIT_PER_S:
        return guest ? "ktime_get_ns in the kernel under test" : "google-benchmark real time (steady_clock)";
    case PB_M_TSC_PER_BYTE: return guest ? "get_cycles (TSC) in the kernel under test" : tick_source;
    case PB_M_CYCLES_PER_BYTE: return counter_source ? counter_source : "perf:cycles";
    case PB_M_EST_CYCLES_PER_BYTE: return "TSC ticks x 1000 / core-speed probe (1000 dependent adds)";
    case PB_M_INSNS_PER_BYTE: return counter_source ? counter_source : "perf:instructions";
    }
    return "";
}

static int load_raw(pb_store *s, int64_t case_id, raw **out, size_t *n, pb_err *e)
{
    pb_stmt *st;
    if (pb_db_prepare(s->db,
                           "SELECT id, round, repetition, iterations, ns, tsc, cycles, instructions, probe_before,"
                           " probe_after FROM samples WHERE case_id = ?1 ORDER BY round, repetition", &st) != PB_DB_OK)
        return pb_store_sqlerr(s, e, "read samples");
    pb_db_bind_int64(st, 1, case_id);
    size_t cap = 64, k = 0;
    raw *v = malloc(cap * sizeof *v);
    while (v && pb_db_step(st) == PB_DB_ROW) {
        if (k == cap) {
            raw *nv = realloc(v, (cap *= 2) * sizeof *v);
            if (!nv) { free(v); v = NULL; break; }
            v = nv;
        }
        raw *r = &v[k++];
        memset(r, 0, sizeof *r);
        r->id = pb_db_column_int64(st, 0);
        r->round = pb_db_column_int(st, 1);
        r->rep = pb_db_column_int(st, 2);
        r->iters = pb_db_column_double(st, 3);
        r->ns = pb_db_column_double(st, 4);
        r->has_tsc = pb_db_column_type(st, 5) != PB_DB_NULL;
        r->tsc = pb_db_column_double(st, 5);
        r->has_cycles = pb_db_column_type(st, 6) != PB_DB_NULL;
        r->cycles = pb_db_column_double(st, 6);
        r->has_insns = pb_db_column_type(st, 7) != PB_DB_NULL;
        r->insns = pb_db_column_double(st, 7);
        r->pb = pb_db_column_double(st, 8);
        r->pa = pb_db_column_double(st, 9);
    }
    pb_db_finalize(st);
    if (!v) return pb_errf(e, "out of memory reading samples");
    *out = v;
    *n = k;
    return 0;
}

typedef struct case_row {
    int64_t id;
    char impl[PB_NAME_MAX], variant[PB_NAME_MAX], op[PB_NAME_MAX];
    int64_t size;
    raw *r;
    size_t n;
} case_row;

static int push_time_pair(void *ctx, size_t i, size_t j)
{
    time_pairs *tp = ctx;
    const raw *cr = &tp->c->r[i], *br = &tp->b->r[j];
    tp->cv[tp->n] = cr->ns / cr->iters;
    tp->bv[tp->n] = br->ns / br->iters;
    tp->n++;
    return 0;
}

/* "" if impl is the baseline itself, P if it is `baseline@P`, NULL otherwise. */
static const char *profile_of_baseline(const char *impl, const char *baseline)
{
    size_t n = strlen(baseline);
    if (strncmp(impl, baseline, n)) return NULL;
    if (!impl[n]) return "";
    return impl[n] == '@' && impl[n + 1] ? impl + n + 1 : NULL;
}

/* Is impl named `X@profile` (X not empty)? */
static int has_profile(const char *impl, const char *profile)
{
    const char *at = strrchr(impl, '@');
    return at && at != impl && !strcmp(at + 1, profile);
}

static int finalize_body(pb_store *s, int64_t run, pb_err *e)
{
    pb_stmt *st;
    if (pb_db_prepare(s->db,
                           "SELECT metrics, baseline, primary_metric, target, tick_source, counter_source, suite"
                           " FROM runs WHERE id = ?1", &st) != PB_DB_OK)
        return pb_store_sqlerr(s, e, "read run");
    pb_db_bind_int64(st, 1, run);
    if (pb_db_step(st) != PB_DB_ROW) {
        pb_db_finalize(st);
        return pb_errf(e, "run %lld not found", (long long)run);
    }
    unsigned metrics = (unsigned)pb_db_column_int64(st, 0);
    char baseline[PB_NAME_MAX], primary[PB_NAME_MAX], target[64], tick[256], counter[512], suite[PB_NAME_MAX];
    snprintf(baseline, sizeof baseline, "%s", (const char *)pb_db_column_text(st, 1) ?: "old");
    snprintf(primary, sizeof primary, "%s", (const char *)pb_db_column_text(st, 2) ?: PB_DEFAULT_METRIC);
    snprintf(target, sizeof target, "%s", (const char *)pb_db_column_text(st, 3) ?: "userspace");
    snprintf(tick, sizeof tick, "%s", (const char *)pb_db_column_text(st, 4) ?: "tsc");
    snprintf(counter, sizeof counter, "%s", (const char *)pb_db_column_text(st, 5) ?: "");
    snprintf(suite, sizeof suite, "%s", (const char *)pb_db_column_text(st, 6) ?: "");
    pb_db_finalize(st);
    metrics |= PB_M_NS_PER_OP; /* always */

    /* load all cases of the run */
    if (pb_db_prepare(s->db,
                           "SELECT id, impl, variant, op, size_bytes FROM cases WHERE run_id = ?1 AND status = 'ok'"
                           " ORDER BY id", &st) != PB_DB_OK)
        return pb_store_sqlerr(s, e, "read cases");
    pb_db_bind_int64(st, 1, run);
    size_t ncases = 0, cap = 32;
    case_row *cs = calloc(cap, sizeof *cs);
    while (cs && pb_db_step(st) == PB_DB_ROW) {
        if (ncases == cap) {
            case_row *n2 = realloc(cs, (cap *= 2) * sizeof *cs);
            if (!n2) { free(cs); cs = NULL; break; }
            cs = n2;
        }
        case_row *c = &cs[ncases++];
        memset(c, 0, sizeof *c);
        c->id = pb_db_column_int64(st, 0);
        snprintf(c->impl, sizeof c->impl, "%s", pb_db_column_text(st, 1));
        snprintf(c->variant, sizeof c->variant, "%s", pb_db_column_text(st, 2));
        snprintf(c->op, sizeof c->op, "%s", pb_db_column_text(st, 3));
        c->size = pb_db_column_int64(st, 4);
    }
    pb_db_finalize(st);
    if (!cs) return pb_errf(e, "out of memory");
    int rc = 0;
    for (size_t i = 0; i < ncases && rc == 0; i++) rc = load_raw(s, cs[i].id, &cs[i].r, &cs[i].n, e);
    /* a run is complete only with samples, in every measured case: otherwise it would hide the
     * earlier runs ("latest complete") with nothing to show */
    if (rc == 0 && ncases == 0) {
        /* a run whose every case is unavailable (with its reason) says something; one with no case
         * at all says nothing */
        char sql[128];
        snprintf(sql, sizeof sql, "SELECT count(*) FROM cases WHERE run_id = %lld", (long long)run);
        int64_t all = query_int(s, sql, e);
        if (all < 0) rc = -1;
        else if (all == 0) rc = pb_errf(e, "run %lld has no case: nothing measured, not complete", (long long)run);
    }
    for (size_t i = 0; i < ncases && rc == 0; i++)
        if (cs[i].n == 0)
            rc = pb_errf(e, "run %lld: case %s/%s/%s/%lld has no sample: not complete", (long long)run, cs[i].impl,
                         cs[i].variant, cs[i].op, (long long)cs[i].size);

    /* the run's fastest probe defines the "fast" core state */
    double min_probe = INFINITY;
    for (size_t i = 0; i < ncases; i++)
        for (size_t j = 0; j < cs[i].n; j++) {
            if (cs[i].r[j].pb > 0 && cs[i].r[j].pb < min_probe) min_probe = cs[i].r[j].pb;
            if (cs[i].r[j].pa > 0 && cs[i].r[j].pa < min_probe) min_probe = cs[i].r[j].pa;
        }

    pb_stmt *ins_m = NULL, *ins_s = NULL, *ins_r = NULL, *upd_speed = NULL;
    if (rc == 0 &&
        (pb_db_prepare(s->db, "INSERT INTO sample_metrics (sample_id, metric, value) VALUES (?1,?2,?3)"
                            " ON CONFLICT (sample_id, metric) DO UPDATE SET value = excluded.value", &ins_m) != PB_DB_OK ||
         pb_db_prepare(s->db,
                            "INSERT INTO stats (case_id, metric, unit, source, n, median, p10, p90, min, max,"
                            " n_fast, median_fast) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)"
                            " ON CONFLICT (case_id, metric) DO UPDATE SET unit = excluded.unit,"
                            " source = excluded.source, n = excluded.n, median = excluded.median,"
                            " p10 = excluded.p10, p90 = excluded.p90, min = excluded.min, max = excluded.max,"
                            " n_fast = excluded.n_fast, median_fast = excluded.median_fast", &ins_s) != PB_DB_OK ||
         pb_db_prepare(s->db,
                            "INSERT INTO ratios (run_id, suite, variant, op, size_bytes, metric, baseline, candidate,"
                            " n_pairs, estimate, ci_lo, ci_hi, conf, p_value, median_ratio, method)"
                            " VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16)", &ins_r) != PB_DB_OK ||
         pb_db_prepare(s->db, "UPDATE samples SET speed = ?1 WHERE id = ?2", &upd_speed) != PB_DB_OK))
        rc = pb_store_sqlerr(s, e, "prepare finalize");

    for (size_t i = 0; i < ncases && rc == 0; i++) {
        case_row *c = &cs[i];
        /* speed class of each sample, from the probe before and after it */
        for (size_t j = 0; j < c->n && isfinite(min_probe); j++) {
            raw *r = &c->r[j];
            if (r->pb <= 0 || r->pa <= 0) continue;
            double lim = PB_FAST_PROBE_FACTOR * min_probe;
            r->speed = (r->pb <= lim && r->pa <= lim) ? "fast" : (r->pb > lim && r->pa > lim) ? "slow" : "mixed";
            pb_db_reset(upd_speed);
            pb_db_bind_text(upd_speed, 1, r->speed);
            pb_db_bind_int64(upd_speed, 2, r->id);
            if (pb_db_step(upd_speed) != PB_DB_DONE) rc = pb_store_sqlerr(s, e, "update speed");
        }
        double *vals = malloc((c->n ? c->n : 1) * sizeof *vals), *fast = malloc((c->n ? c->n : 1) * sizeof *fast);
        if (rc == 0 && (!vals || !fast)) rc = pb_errf(e, "out of memory deriving statistics");
        for (size_t m = 0; m < NMETRICS && rc == 0 && vals && fast; m++) {
            if (!(metrics & METRICS[m].bit)) continue;
            size_t k = 0, kf = 0;
            for (size_t j = 0; j < c->n; j++) {
                double v = metric_value(METRICS[m].bit, &c->r[j], (double)c->size);
                if (!isfinite(v)) continue;
                vals[k++] = v;
                if (c->r[j].speed && !strcmp(c->r[j].speed, "fast")) fast[kf++] = v;
                pb_db_reset(ins_m);
                pb_db_bind_int64(ins_m, 1, c->r[j].id);
                pb_db_bind_text(ins_m, 2, METRICS[m].name);
                pb_db_bind_double(ins_m, 3, v);
                if (pb_db_step(ins_m) != PB_DB_DONE) { rc = pb_store_sqlerr(s, e, "insert sample metric"); break; }
            }
            if (rc || k == 0) continue;
            double med = pb_median(vals, k), p10 = pb_quantile(vals, k, 0.10), p90 = pb_quantile(vals, k, 0.90),
                   lo = pb_quantile(vals, k, 0.0), hi = pb_quantile(vals, k, 1.0),
                   med_fast = kf ? pb_median(fast, kf) : 0;
            if (isnan(med) || isnan(p10) || isnan(p90) || isnan(lo) || isnan(hi) || isnan(med_fast)) {
                rc = pb_errf(e, "out of memory deriving statistics");
                break;
            }
            pb_db_reset(ins_s);
            pb_db_bind_int64(ins_s, 1, c->id);
            pb_db_bind_text(ins_s, 2, METRICS[m].name);
            pb_db_bind_text(ins_s, 3, METRICS[m].unit);
            pb_db_bind_text(ins_s, 4, metric_source(METRICS[m].bit, target, tick, counter));
            pb_db_bind_int64(ins_s, 5, (int64_t)k);
            pb_db_bind_double(ins_s, 6, med);
            pb_db_bind_double(ins_s, 7, p10);
            pb_db_bind_double(ins_s, 8, p90);
            pb_db_bind_double(ins_s, 9, lo);
            pb_db_bind_double(ins_s, 10, hi);
            pb_db_bind_int64(ins_s, 11, (int64_t)kf);
            if (kf) pb_db_bind_double(ins_s, 12, med_fast); else pb_db_bind_null(ins_s, 12);
            if (pb_db_step(ins_s) != PB_DB_DONE) rc = pb_store_sqlerr(s, e, "insert stats");
        }
        free(vals);
        free(fast);
    }

    /* paired ratios, paired by (round, repetition), within one cell: every impl against the run's
     * baseline, and every `X@P` against `baseline@P` (the same sources built with code-generation
     * profile P), so that a report can set the profile's ratio beside the faithful one. */
    for (size_t i = 0; i < ncases && rc == 0; i++) {
        case_row *b = &cs[i];
        const char *profile = profile_of_baseline(b->impl, baseline);
        if (!profile) continue;
        for (size_t j = 0; j < ncases && rc == 0; j++) {
            case_row *c = &cs[j];
            if (j == i || strcmp(c->variant, b->variant) || strcmp(c->op, b->op) || c->size != b->size) continue;
            if (*profile && !has_profile(c->impl, profile)) continue;
            size_t cap2 = c->n < b->n ? c->n : b->n;
            double *cv = malloc((cap2 ? cap2 : 1) * sizeof *cv), *bv = malloc((cap2 ? cap2 : 1) * sizeof *bv);
            if (!cv || !bv) rc = pb_errf(e, "out of memory pairing samples");
            time_pairs tp = {c, b, cv, bv, 0};
            if (cv && bv && c->n && b->n)
                pb_pair_by_round((const pb_round_key *)&c->r[0].round, c->n, sizeof *c->r,
                                 (const pb_round_key *)&b->r[0].round, b->n, sizeof *b->r, push_time_pair, &tp);
            size_t np = tp.n;
            pb_paired pr;
            int prc = rc == 0 ? pb_paired_ratio(cv, bv, np, 0.95, &pr) : -1;
            if (prc == -2) rc = pb_errf(e, "out of memory computing ratios");
            if (prc == 0) {
                /* time ratio, and the primary metric's own ratio when it is a throughput */
                for (int pass = 0; pass < 2 && rc == 0; pass++) {
                    const char *metric = pass == 0 ? PB_DEFAULT_METRIC : primary;
                    if (pass == 1 && !strcmp(primary, PB_DEFAULT_METRIC)) break;
                    int inv = pass == 1 && pb_metric_higher_is_better(primary);
                    pb_db_reset(ins_r);
                    pb_db_bind_int64(ins_r, 1, run);
                    pb_db_bind_text(ins_r, 2, suite);
                    pb_db_bind_text(ins_r, 3, c->variant);
                    pb_db_bind_text(ins_r, 4, c->op);
                    pb_db_bind_int64(ins_r, 5, c->size);
                    pb_db_bind_text(ins_r, 6, metric);
                    pb_db_bind_text(ins_r, 7, b->impl);
                    pb_db_bind_text(ins_r, 8, c->impl);
                    pb_db_bind_int64(ins_r, 9, (int64_t)pr.n);
                    pb_db_bind_double(ins_r, 10, inv ? 1 / pr.estimate : pr.estimate);
                    pb_db_bind_double(ins_r, 11, inv ? 1 / pr.ci_hi : pr.ci_lo);
                    pb_db_bind_double(ins_r, 12, inv ? 1 / pr.ci_lo : pr.ci_hi);
                    pb_db_bind_double(ins_r, 13, pr.conf);
                    pb_db_bind_double(ins_r, 14, pr.p_value);
                    pb_db_bind_double(ins_r, 15, inv ? 1 / pr.median_ratio : pr.median_ratio);
                    pb_db_bind_text(ins_r, 16, "paired by round; Hodges-Lehmann on log ratios, Wilcoxon signed-rank CI");
                    if (pb_db_step(ins_r) != PB_DB_DONE) rc = pb_store_sqlerr(s, e, "insert ratio");
                }
            }
            free(cv);
            free(bv);
        }
    }
    pb_db_finalize(ins_m);
    pb_db_finalize(ins_s);
    pb_db_finalize(ins_r);
    pb_db_finalize(upd_speed);
    for (size_t i = 0; i < ncases; i++) free(cs[i].r);
    free(cs);
    if (rc == 0) rc = pb_store_end_run(s, run, "complete", NULL, e);
    return rc;
}

int pb_store_finalize_run(pb_store *s, int64_t run, pb_err *e)
{
    if (pb_store_begin(s, e) < 0) return -1;
    /* idempotent: a re-finalize replaces what an earlier one derived */
    char sql[256];
    snprintf(sql, sizeof sql, "DELETE FROM ratios WHERE run_id = %lld", (long long)run);
    if (pb_store_exec(s, sql, e) < 0 || finalize_body(s, run, e) < 0) {
        pb_store_rollback(s);
        return -1;
    }
    return pb_store_commit(s, e);
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
