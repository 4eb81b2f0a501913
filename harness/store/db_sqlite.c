/* SPDX-License-Identifier: GPL-2.0-only */
/* db_sqlite.c — db.h on SQLite: each statement call is the sqlite3 call it is named after; a store
 * is a file, opened as db_impl.h's slots say (WAL, read-only without leaving files behind, the
 * busy timeout) and versioned by PRAGMA user_version. */
#include "db_impl.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "out_stage.h"
#include "store.h"

typedef struct lite_db {
    pb_db base;
    sqlite3 *h;
    int nomem;   /* the last prepare failed allocating its wrapper: errmsg says so */
} lite_db;
typedef struct lite_stmt {
    pb_stmt base;
    sqlite3_stmt *h;
} lite_stmt;

#define LDB(d) (((lite_db *)(d))->h)
#define LST(s) (((lite_stmt *)(s))->h)

static int code(int rc)
{
    switch (rc) {
    case SQLITE_OK: return PB_DB_OK;
    case SQLITE_ROW: return PB_DB_ROW;
    case SQLITE_DONE: return PB_DB_DONE;
    case SQLITE_BUSY: return PB_DB_BUSY;
    default: return rc == PB_DB_OK || rc == PB_DB_ROW || rc == PB_DB_DONE ? PB_DB_ERROR : rc;
    }
}


static int l_prepare(pb_db *db, const char *sql, pb_stmt **out)
{
    lite_stmt *s = calloc(1, sizeof *s);
    ((lite_db *)db)->nomem = !s;
    if (!s) return SQLITE_NOMEM;
    int rc = sqlite3_prepare_v2(LDB(db), sql, -1, &s->h, NULL);
    if (rc != SQLITE_OK) {
        sqlite3_finalize(s->h);
        free(s);
        return code(rc);
    }
    s->base.ops = &pb_db_sqlite_ops;
    *out = &s->base;
    return PB_DB_OK;
}
static int l_bind_int64(pb_stmt *s, int i, int64_t v) { return code(sqlite3_bind_int64(LST(s), i, v)); }
static int l_bind_double(pb_stmt *s, int i, double v) { return code(sqlite3_bind_double(LST(s), i, v)); }
static int l_bind_text(pb_stmt *s, int i, const char *v)
{
    return code(sqlite3_bind_text(LST(s), i, v, -1, SQLITE_TRANSIENT));
}
static int l_bind_null(pb_stmt *s, int i) { return code(sqlite3_bind_null(LST(s), i)); }
static int l_step(pb_stmt *s) { return code(sqlite3_step(LST(s))); }
static int l_reset(pb_stmt *s) { return code(sqlite3_reset(LST(s))); }
static int l_clear_bindings(pb_stmt *s) { return code(sqlite3_clear_bindings(LST(s))); }
static int l_finalize(pb_stmt *s)
{
    int rc = sqlite3_finalize(LST(s));
    free(s);
    return code(rc);
}
static int l_column_count(pb_stmt *s) { return sqlite3_column_count(LST(s)); }
static const char *l_column_name(pb_stmt *s, int i) { return sqlite3_column_name(LST(s), i); }
static int l_column_type(pb_stmt *s, int i)
{
    switch (sqlite3_column_type(LST(s), i)) {
    case SQLITE_INTEGER: return PB_DB_INTEGER;
    case SQLITE_FLOAT: return PB_DB_FLOAT;
    case SQLITE_NULL: return PB_DB_NULL;
    default: return PB_DB_TEXT;
    }
}
static int64_t l_column_int64(pb_stmt *s, int i) { return sqlite3_column_int64(LST(s), i); }
static double l_column_double(pb_stmt *s, int i) { return sqlite3_column_double(LST(s), i); }
static const char *l_column_text(pb_stmt *s, int i) { return (const char *)sqlite3_column_text(LST(s), i); }
static int l_exec(pb_db *db, const char *sql)
{
    ((lite_db *)db)->nomem = 0;
    return code(sqlite3_exec(LDB(db), sql, NULL, NULL, NULL));
}
static int l_begin(pb_db *db) { return l_exec(db, "BEGIN IMMEDIATE"); }
static int l_commit(pb_db *db) { return l_exec(db, "COMMIT"); }
static void l_rollback(pb_db *db) { sqlite3_exec(LDB(db), "ROLLBACK", NULL, NULL, NULL); }
static const char *l_errmsg(pb_db *db)
{
    return ((lite_db *)db)->nomem ? "out of memory" : sqlite3_errmsg(LDB(db));
}
static void l_close(pb_db *db)
{
    sqlite3_close(LDB(db));
    free(db);
}

/* ---- the store's file ---- */

/* An SQLite store's path names a regular file (a link to one is followed, as the user meant) or
 * nothing yet. Checked before SQLite sees it: SQLite would open a device or FIFO and then make its
 * -journal or -wal beside it, and reads "file:" names (and their ?mode=memory, ?vfs=...) as URIs
 * that store nowhere or elsewhere, so every command refuses them alike. */
static int l_check_path(const char *path, const char *what, pb_err *e)
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

static int l_claims(const char *path)
{
    (void)path;
    return 1;
}

static int l_exists(const char *path) { return access(path, F_OK) == 0; }

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

/* A connection to name (a path or a file: URI) for the store at path, with the busy timeout set
 * first: everything after it may meet another writer. */
static int open_lite(pb_db **db, const char *path, const char *name, int flags, pb_err *e)
{
    sqlite3 *h = NULL;
    if (sqlite3_open_v2(name, &h, flags, NULL) != SQLITE_OK) {
        pb_errf(e, "cannot open database %s: %s", path, h ? sqlite3_errmsg(h) : "out of memory");
        sqlite3_close(h);
        return -1;
    }
    sqlite3_busy_timeout(h, PB_BUSY_TIMEOUT_MS);
    lite_db *d = calloc(1, sizeof *d);
    if (!d) {
        sqlite3_close(h);
        return pb_errf(e, "out of memory");
    }
    d->base.ops = &pb_db_sqlite_ops;
    d->h = h;
    *db = &d->base;
    return 0;
}

/* A read-only SQLite connection to a WAL file creates its -wal and -shm and, unable to
 * checkpoint, leaves them behind. So:
 *  - a -wal exists (a writer is at work, or was killed): read it read-only, creating nothing new;
 *  - none, in a folder we can write: a read-write connection with query_only, which cannot
 *    change the database and, as the last one out, removes the -wal and -shm it made;
 *  - none, in a folder we cannot write (no writer can be at work there either): immutable. */
static int open_read(pb_db **db, const char *path, pb_err *e)
{
    struct stat sb;
    if (stat(path, &sb) != 0) return pb_errf(e, "no database at %s: %s", path, strerror(errno));
    if (!S_ISREG(sb.st_mode)) return pb_errf(e, "%s is not a database file", path);
    char dir[1024], wal[1100];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) *(slash == dir ? slash + 1 : slash) = 0; else snprintf(dir, sizeof dir, ".");
    snprintf(wal, sizeof wal, "%s-wal", path);
    if (access(wal, F_OK) == 0) return open_lite(db, path, path, SQLITE_OPEN_READONLY, e);
    if (access(dir, W_OK) == 0 && access(path, W_OK) == 0) {
        if (open_lite(db, path, path, SQLITE_OPEN_READWRITE, e) < 0) return -1;
        if (l_exec(*db, "PRAGMA query_only = 1") == PB_DB_OK) return 0;
        pb_errf(e, "cannot open database %s: %s", path, l_errmsg(*db));
        l_close(*db);
        *db = NULL;
        return -1;
    }
    if (strpbrk(path, "?#%"))
        return pb_errf(e, "%s: a read-only folder and '?', '#' or '%%' in the name: cannot open it", path);
    char *uri = sqlite3_mprintf("file:%s?immutable=1", path);
    if (!uri) return pb_errf(e, "out of memory");
    int rc = open_lite(db, path, uri, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, e);
    sqlite3_free(uri);
    return rc;
}

static int l_open(pb_db **db, const char *path, pb_db_open_mode mode, pb_err *e)
{
    *db = NULL;
    if (mode == PB_DB_OPEN_READ) return open_read(db, path, e);
    if (mkdir_parent(path, e) < 0) return -1;
    return open_lite(db, path, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, e);
}

/* WAL: readers (report, gate) never block a running benchmark, and a killed writer leaves the last
 * committed state intact. PRAGMA journal_mode = WAL takes an exclusive lock and answers
 * SQLITE_BUSY at once, without the busy handler, while another process sets up the same new file:
 * retry until the busy timeout. */
static int l_journal(pb_db *db, const char *path, pb_err *e)
{
    for (int waited_ms = 0;; waited_ms += 10) {
        pb_stmt *st;
        int rc = l_prepare(db, "PRAGMA journal_mode = WAL", &st);
        if (rc == PB_DB_OK) {
            rc = l_step(st);
            l_finalize(st);
            if (rc == PB_DB_ROW) {
                if (l_exec(db, "PRAGMA synchronous = NORMAL") == PB_DB_OK) return 0;
                return pb_errf(e, "%s: %s", path, l_errmsg(db));
            }
        }
        if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) || waited_ms >= PB_BUSY_TIMEOUT_MS)
            return pb_errf(e, "%s: set WAL journal: %s", path, l_errmsg(db));
        sqlite3_sleep(10);
    }
}

/* ---- the schema ---- */

/* PRAGMA user_version; 1 for an unversioned file that has our tables (the stores from before
 * versions), 0 for an empty file. */
static int l_schema_version(pb_db *db, const char *path, pb_err *e)
{
    int uv = pb_db_read_version(db, path, "PRAGMA user_version", e);
    if (uv != 0) return uv;
    int64_t tables = pb_db_query_int(db, path, "SELECT count(*) FROM sqlite_master", e);
    if (tables < 0) return -1;
    if (tables == 0) return 0;
    int64_t runs = pb_db_query_int(db, path, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'runs'", e);
    if (runs < 0) return -1;
    if (runs == 0) {
        pb_errf(e, "%s is an SQLite file but not a patchbench database (no runs table)", path);
        return PB_DB_REFUSED;
    }
    return 1;
}

static void l_column_query(char *sql, size_t cap, const char *table, const char *column)
{
    snprintf(sql, cap, "SELECT count(*) FROM pragma_table_info('%s') WHERE name = '%s'", table, column);
}

static void l_relation_query(char *sql, size_t cap, const char *name, int view)
{
    snprintf(sql, cap, "SELECT count(*) FROM sqlite_master WHERE name = '%s' AND type = '%s'", name,
             view ? "view" : "table");
}

static int l_corrupt_code(int rc) { return rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB; }

/* a missing table or column is SQLite's generic error; BUSY, LOCKED, IOERR and the like are not */
static int l_schema_differs(pb_db *db, int rc)
{
    (void)db;
    return (rc & 0xff) == SQLITE_ERROR;
}

/* SQLite's "file is not a database" and "malformed" */
static int l_corrupt_text(const char *msg) { return strstr(msg, "not a database") || strstr(msg, "malformed"); }

static char *l_ddl(const char *sql) { return strdup(sql); }

const pb_db_ops pb_db_sqlite_ops = {
    .prepare = l_prepare, .bind_int64 = l_bind_int64, .bind_double = l_bind_double,
    .bind_text = l_bind_text, .bind_null = l_bind_null, .step = l_step, .reset = l_reset, .clear_bindings = l_clear_bindings, .finalize = l_finalize,
    .column_count = l_column_count, .column_name = l_column_name, .column_type = l_column_type,
    .column_int64 = l_column_int64, .column_double = l_column_double, .column_text = l_column_text,
    .exec = l_exec, .begin = l_begin, .commit = l_commit, .rollback = l_rollback, .errmsg = l_errmsg,
    .close = l_close,
    .name = "SQLite", .claims = l_claims, .check_path = l_check_path, .exists = l_exists, .open = l_open,
    .write_setup_sql = "PRAGMA foreign_keys = ON", .journal = l_journal,
    .schema_version = l_schema_version, .first_version = 1, .schema_lock_sql = NULL, .new_store_sql = NULL,
    .set_version_sql = "PRAGMA user_version = %d", .no_schema_msg = "%s is empty, not a patchbench database",
    .column_query = l_column_query, .relation_query = l_relation_query, .corrupt_code = l_corrupt_code, .schema_differs = l_schema_differs,
    .corrupt_text = l_corrupt_text, .ddl = l_ddl, .rowid = "rowid",
    .attach_sql = "ATTACH DATABASE ?1 AS pb_src", .detach_sql = "DETACH DATABASE pb_src",
    /* 128 MiB of page cache: with the default 2 MiB, a transaction of 1,000 runs spills its pages
     * to the WAL and reads them back through the WAL's index, over and over */
    .bulk_sql = "PRAGMA cache_size = -131072",
};
