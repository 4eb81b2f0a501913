/* SPDX-License-Identifier: GPL-2.0-only */
/* db_sqlite.c — db.h on SQLite: each call is the sqlite3 call it is named after. */
#include "db_impl.h"

#include <sqlite3.h>
#include <stdlib.h>

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

static const pb_db_ops OPS;

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
    s->base.ops = &OPS;
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

static const pb_db_ops OPS = {
    .kind = PB_DB_SQLITE, .prepare = l_prepare, .bind_int64 = l_bind_int64, .bind_double = l_bind_double,
    .bind_text = l_bind_text, .bind_null = l_bind_null, .step = l_step, .reset = l_reset, .clear_bindings = l_clear_bindings, .finalize = l_finalize,
    .column_count = l_column_count, .column_name = l_column_name, .column_type = l_column_type,
    .column_int64 = l_column_int64, .column_double = l_column_double, .column_text = l_column_text,
    .exec = l_exec, .begin = l_begin, .commit = l_commit, .rollback = l_rollback, .errmsg = l_errmsg,
    .close = l_close,
};

pb_db *pb_db_wrap_sqlite(void *handle)
{
    lite_db *d = calloc(1, sizeof *d);
    if (!d) {
        sqlite3_close(handle);
        return NULL;
    }
    d->base.ops = &OPS;
    d->h = handle;
    return &d->base;
}

