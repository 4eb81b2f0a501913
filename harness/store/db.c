/* SPDX-License-Identifier: GPL-2.0-only */
/* db.c — db.h's calls, dispatched to the connection's back end (db_impl.h); which back end a path
 * is; the two queries every back end's schema code shares. */
#include "db_impl.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int pb_db_is_pg(const char *path) { return pb_db_pg_ops.claims(path); }

const pb_db_ops *pb_db_ops_for(const char *path)
{
    return pb_db_pg_ops.claims(path) ? &pb_db_pg_ops : &pb_db_sqlite_ops;
}

int pb_db_prepare(pb_db *db, const char *sql, pb_stmt **st)
{
    *st = NULL;
    return db->ops->prepare(db, sql, st);
}
int pb_db_bind_int64(pb_stmt *st, int i, int64_t v) { return st->ops->bind_int64(st, i, v); }
int pb_db_bind_int(pb_stmt *st, int i, int v) { return st->ops->bind_int64(st, i, v); }
int pb_db_bind_double(pb_stmt *st, int i, double v) { return st->ops->bind_double(st, i, v); }
int pb_db_bind_text(pb_stmt *st, int i, const char *v)
{
    return v ? st->ops->bind_text(st, i, v) : st->ops->bind_null(st, i);
}
int pb_db_bind_null(pb_stmt *st, int i) { return st->ops->bind_null(st, i); }
int pb_db_step(pb_stmt *st) { return st->ops->step(st); }
int pb_db_reset(pb_stmt *st) { return st->ops->reset(st); }
int pb_db_clear_bindings(pb_stmt *st) { return st->ops->clear_bindings(st); }
int pb_db_finalize(pb_stmt *st) { return st ? st->ops->finalize(st) : PB_DB_OK; }
int pb_db_column_count(pb_stmt *st) { return st->ops->column_count(st); }
const char *pb_db_column_name(pb_stmt *st, int i) { return st->ops->column_name(st, i); }
int pb_db_column_type(pb_stmt *st, int i) { return st->ops->column_type(st, i); }
int64_t pb_db_column_int64(pb_stmt *st, int i) { return st->ops->column_int64(st, i); }
int pb_db_column_int(pb_stmt *st, int i) { return (int)st->ops->column_int64(st, i); }
double pb_db_column_double(pb_stmt *st, int i) { return st->ops->column_double(st, i); }
const char *pb_db_column_text(pb_stmt *st, int i) { return st->ops->column_text(st, i); }
const char *pb_db_column_str(pb_stmt *st, int i)
{
    const char *t = st->ops->column_text(st, i);
    return t ? t : "";
}
void pb_db_column_copy(pb_stmt *st, int i, char *out, size_t cap)
{
    snprintf(out, cap, "%s", pb_db_column_str(st, i));
}
int pb_db_exec(pb_db *db, const char *sql) { return db->ops->exec(db, sql); }
int pb_db_begin(pb_db *db) { return db->ops->begin(db); }
int pb_db_commit(pb_db *db) { return db->ops->commit(db); }
void pb_db_rollback(pb_db *db) { db->ops->rollback(db); }
const char *pb_db_errmsg(pb_db *db) { return db->ops->errmsg(db); }
void pb_db_close(pb_db *db)
{
    if (db) db->ops->close(db);
}

const char *pb_db_rowid(pb_db *db) { return db->ops->rowid; }
char *pb_db_ddl(pb_db *db, const char *sql) { return db->ops->ddl(sql); }

int64_t pb_db_query_int(pb_db *db, const char *path, const char *sql, pb_err *e)
{
    pb_stmt *st;
    if (pb_db_prepare(db, sql, &st) != PB_DB_OK)
        return pb_errf(e, "%s: read schema: %s", path, pb_db_errmsg(db));
    int64_t v = -1;
    int rc = pb_db_step(st);
    if (rc == PB_DB_ROW) v = pb_db_column_int64(st, 0);
    pb_db_finalize(st);
    if (rc != PB_DB_ROW) return pb_errf(e, "%s: read schema: %s", path, pb_db_errmsg(db));
    return v;
}

int pb_db_read_version(pb_db *db, const char *path, const char *sql, pb_err *e)
{
    pb_stmt *st;
    if (pb_db_prepare(db, sql, &st) != PB_DB_OK)
        return pb_errf(e, "%s: read schema version: %s", path, pb_db_errmsg(db));
    int rc = pb_db_step(st);
    int type = rc == PB_DB_ROW ? pb_db_column_type(st, 0) : PB_DB_NULL;
    int64_t v = type == PB_DB_INTEGER ? pb_db_column_int64(st, 0) : -1;
    char shown[64];
    snprintf(shown, sizeof shown, "%s", rc == PB_DB_ROW && type != PB_DB_NULL ? pb_db_column_str(st, 0) : "none");
    pb_db_finalize(st);
    if (rc != PB_DB_ROW && rc != PB_DB_DONE) return pb_errf(e, "%s: read schema version: %s", path, pb_db_errmsg(db));
    if (v < 0 || v > INT_MAX) {
        pb_errf(e, "%s has schema version '%s', which no bench writes: not a patchbench database as it is", path,
                shown);
        return PB_DB_REFUSED;
    }
    return (int)v;
}

void pb_db_now(char out[32])
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    char day[24];
    strftime(day, sizeof day, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out, 32, "%s.%03dZ", day, (int)(ts.tv_nsec / 1000000));
}
