/* SPDX-License-Identifier: GPL-2.0-only */
/* db.h — the one SQL layer under the store: SQLite (a file, the default) or PostgreSQL (libpq,
 * a `postgresql://` or `postgres://` URI). Its calls mirror the subset of SQLite's C API that
 * the harness uses, so that code written for one back end runs on both:
 *
 *     sqlite3_prepare_v2(db, sql, -1, &st, NULL)   ->  pb_db_prepare(db, sql, &st)
 *     sqlite3_bind_text(st, i, v, -1, SQLITE_*)    ->  pb_db_bind_text(st, i, v)   (copied; NULL binds NULL)
 *     sqlite3_bind_int64/int/double/null           ->  pb_db_bind_int64/int/double/null
 *     sqlite3_step / reset / finalize              ->  pb_db_step / reset / finalize
 *     sqlite3_clear_bindings                       ->  pb_db_clear_bindings
 *     sqlite3_column_int64/int/double/text/type    ->  pb_db_column_... (text is const char *)
 *     sqlite3_column_count / column_name           ->  pb_db_column_count / column_name
 *     sqlite3_errmsg                               ->  pb_db_errmsg
 *     sqlite3_exec(db, sql, NULL, NULL, NULL)      ->  pb_db_exec(db, sql)
 *     SQLITE_OK/ROW/DONE/NULL/INTEGER/FLOAT/TEXT   ->  PB_DB_OK/ROW/DONE/NULL/INTEGER/FLOAT/TEXT
 *     sqlite3_last_insert_rowid                    ->  "INSERT ... RETURNING id" and a step
 *
 * SQL that runs on both (docs/fleet.md, "Writing SQL for both back ends"): `?N` placeholders;
 * timestamps made in C (pb_db_now); `INSERT ... ON CONFLICT (...) DO NOTHING / DO UPDATE SET` in
 * place of INSERT OR IGNORE / OR REPLACE; `RETURNING id` in place of last_insert_rowid; ORDER BY
 * a real column (no rowid; NULLS FIRST where the column may be NULL, as SQLite sorts); every
 * non-aggregated column in GROUP BY; no PRAGMA or sqlite_master
 * outside db_sqlite.c; boolean expressions read with pb_db_column_int (0/1 on both);
 * `group_concat(x, sep)` always with its separator (PostgreSQL runs it as string_agg); no
 * `?N IS NULL` (PostgreSQL cannot tell ?N's type from it): `col = coalesce(?N, col)` for an
 * optional filter on a NOT NULL column. Table
 * definitions are written once, in SQLite's words, and translated by pb_db_ddl. */
#ifndef PB_DB_H
#define PB_DB_H

#include <stddef.h>
#include <stdint.h>

typedef struct pb_db pb_db;
typedef struct pb_stmt pb_stmt;

enum { PB_DB_OK = 0, PB_DB_ERROR = 1, PB_DB_BUSY = 5, PB_DB_ROW = 100, PB_DB_DONE = 101 };
enum { PB_DB_INTEGER = 1, PB_DB_FLOAT = 2, PB_DB_TEXT = 3, PB_DB_NULL = 5 };

/* Is this --db / PB_DB value a PostgreSQL URI (postgresql:// or postgres://)? */
int pb_db_is_pg(const char *path);
/* For a PostgreSQL URI: 0 if it carries no password (user:pw@ or password=), else -1 with a
 * message in msg naming `what` (the option or variable it came from). Files: always 0. */
int pb_db_check_no_password(const char *path, const char *what, char *msg, size_t cap);
void pb_db_close(pb_db *db);

int pb_db_prepare(pb_db *db, const char *sql, pb_stmt **st);
int pb_db_bind_int64(pb_stmt *st, int i, int64_t v);
int pb_db_bind_int(pb_stmt *st, int i, int v);
int pb_db_bind_double(pb_stmt *st, int i, double v);
int pb_db_bind_text(pb_stmt *st, int i, const char *v);
int pb_db_bind_null(pb_stmt *st, int i);
/* PB_DB_ROW (a row to read), PB_DB_DONE, or an error code (message: pb_db_errmsg) */
int pb_db_step(pb_stmt *st);
/* Ready to run again; bindings are kept (as SQLite keeps them). Like pb_db_finalize, returns an
 * error when the last step failed: a loop `while (step == ROW)` checks how it ended by it. */
int pb_db_reset(pb_stmt *st);
/* Every parameter back to NULL. */
int pb_db_clear_bindings(pb_stmt *st);
int pb_db_finalize(pb_stmt *st); /* NULL is fine; an error when the last step failed */
int pb_db_column_count(pb_stmt *st);
const char *pb_db_column_name(pb_stmt *st, int i);
int pb_db_column_type(pb_stmt *st, int i);
int64_t pb_db_column_int64(pb_stmt *st, int i);
int pb_db_column_int(pb_stmt *st, int i);
double pb_db_column_double(pb_stmt *st, int i);
const char *pb_db_column_text(pb_stmt *st, int i); /* NULL for NULL */
/* column i as text, "" for NULL */
const char *pb_db_column_str(pb_stmt *st, int i);
/* column i as text into out (cap bytes, truncated), "" for NULL */
void pb_db_column_copy(pb_stmt *st, int i, char *out, size_t cap);

/* One or more statements, no result rows wanted. */
int pb_db_exec(pb_db *db, const char *sql);
/* Transactions: SQLite BEGIN IMMEDIATE (the writer's lock at once), PostgreSQL BEGIN. COMMIT
 * fails (and nothing is kept) where PostgreSQL had aborted the transaction. */
int pb_db_begin(pb_db *db);
int pb_db_commit(pb_db *db);
void pb_db_rollback(pb_db *db);
const char *pb_db_errmsg(pb_db *db);

/* Table definitions written for SQLite (INTEGER PRIMARY KEY, REAL, WITHOUT ROWID, CREATE VIEW IF
 * NOT EXISTS) in db's back end's words: a copy to free(), or NULL without memory. */
char *pb_db_ddl(pb_db *db, const char *sql);
/* The column that orders a table's rows as inserted where it has no id: SQLite's rowid, PostgreSQL's
 * ctid (insertion order for rows never updated). A fixed word, never data. */
const char *pb_db_rowid(pb_db *db);
/* UTC now as ISO 8601 with milliseconds, as SQLite's strftime('%Y-%m-%dT%H:%M:%fZ','now'). */
void pb_db_now(char out[32]);

#endif
