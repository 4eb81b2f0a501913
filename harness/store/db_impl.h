/* SPDX-License-Identifier: GPL-2.0-only */
/* db_impl.h — what a back end of db.h provides (db_sqlite.c, db_pg.c): its method table. db.c
 * dispatches the statement calls through it; the store's open and schema code (store.c,
 * migrate.c, schema_check.c) calls the rest of it. Every way two back ends differ is a slot here,
 * as in SQLite's VFS: the code above never asks which back end it has. */
#ifndef PB_DB_IMPL_H
#define PB_DB_IMPL_H

#include "db.h"
#include "pb.h"

/* A store refused as it is (not ours, corrupt, newer): store.h's PB_STORE_REFUSED. */
#define PB_DB_REFUSED (-2)

typedef enum {
    PB_DB_OPEN_WRITE,   /* read-write, creating what is missing (a file, its folder) */
    PB_DB_OPEN_READ,    /* read-only: creates nothing, every transaction read-only */
} pb_db_open_mode;

typedef struct pb_db_ops {
    /* ---- statements ---- */
    int (*prepare)(pb_db *, const char *, pb_stmt **);
    int (*bind_int64)(pb_stmt *, int, int64_t);
    int (*bind_double)(pb_stmt *, int, double);
    int (*bind_text)(pb_stmt *, int, const char *);
    int (*bind_null)(pb_stmt *, int);
    int (*step)(pb_stmt *);
    int (*reset)(pb_stmt *);
    int (*clear_bindings)(pb_stmt *);
    int (*finalize)(pb_stmt *);
    int (*column_count)(pb_stmt *);
    const char *(*column_name)(pb_stmt *, int);
    int (*column_type)(pb_stmt *, int);
    int64_t (*column_int64)(pb_stmt *, int);
    double (*column_double)(pb_stmt *, int);
    const char *(*column_text)(pb_stmt *, int);
    int (*exec)(pb_db *, const char *);
    int (*begin)(pb_db *);
    int (*commit)(pb_db *);
    void (*rollback)(pb_db *);
    const char *(*errmsg)(pb_db *);
    void (*close)(pb_db *);

    /* ---- a store's path, before a connection ---- */
    const char *name;                      /* "SQLite", "PostgreSQL": in messages */
    int (*claims)(const char *path);       /* is path this back end's? (the last one claims every path) */
    /* what (--db or PB_DB) names a store this back end can open: 0, or -1 + e */
    int (*check_path)(const char *path, const char *what, pb_err *e);
    int (*exists)(const char *path);       /* may a store be there to open (a file that exists; a server)? */
    /* A connection in *db: 0, or -1 + e with *db NULL (nothing left open). */
    int (*open)(pb_db **db, const char *path, pb_db_open_mode mode, pb_err *e);
    const char *write_setup_sql;           /* run first on a read-write connection; NULL: nothing */
    /* Once the store is known to be ours, before anything else writes (SQLite: its WAL journal).
     * NULL: nothing. 0, or -1 + e. */
    int (*journal)(pb_db *db, const char *path, pb_err *e);

    /* ---- the schema ---- */
    /* The schema version the store holds: 0 for none (an empty store), PB_DB_REFUSED + e for a store
     * that is not ours, -1 + e where it cannot be read. */
    int (*schema_version)(pb_db *db, const char *path, pb_err *e);
    int first_version;                     /* the oldest version a store of this back end can hold */
    const char *schema_lock_sql;           /* taken inside the schema's transaction; NULL: BEGIN's lock is enough */
    const char *new_store_sql;             /* what a new store holds beside the schema; NULL: nothing */
    const char *set_version_sql;           /* printf format of the statement that writes version %d */
    const char *no_schema_msg;             /* printf format (%s the path): a store without our schema, read-only */
    /* SELECT count(*): whether table has column / whether name is a view (view) or a table (!view).
     * Names are the store's own words, never data. */
    void (*column_query)(char *sql, size_t cap, const char *table, const char *column);
    void (*relation_query)(char *sql, size_t cap, const char *name, int view);
    int (*corrupt_code)(int rc);           /* does a statement's code say the store is damaged? */
    int (*corrupt_text)(const char *msg);  /* does an open's message say so? */
    /* Does the last failure (rc) say the store's schema differs (a table or column missing, of
     * another type), rather than that the store could not answer (a timeout, a lock, a connection
     * gone)? Only then is a store "of another schema". */
    int (*schema_differs)(pb_db *db, int rc);
    /* Table definitions in SQLite's words, in this back end's: a copy to free(), NULL without memory. */
    char *(*ddl)(const char *sql);
    const char *rowid;                     /* the column that orders rows as inserted where a table has no id */
    /* Another store of this back end attached to a connection as schema pb_src (?1 its path), and
     * detached: bench merge's set-based copy (merge_set.c). NULL: it cannot be. */
    const char *attach_sql, *detach_sql;
    /* run before a transaction that writes a whole store's worth (merge_set.c); NULL: nothing */
    const char *bulk_sql;
} pb_db_ops;

/* Every connection and statement starts with its ops, so db.c can dispatch on either. */
struct pb_db {
    const pb_db_ops *ops;
};
struct pb_stmt {
    const pb_db_ops *ops;
};

/* The back ends (db_sqlite.c, db_pg.c), and the one whose path this is. */
extern const pb_db_ops pb_db_sqlite_ops, pb_db_pg_ops;
const pb_db_ops *pb_db_ops_for(const char *path);

/* Helpers of the schema code, on any back end (db.c). One integer from sql, -1 + e ("PATH: read
 * schema: the database's words") on failure. */
int64_t pb_db_query_int(pb_db *db, const char *path, const char *sql, pb_err *e);
/* The schema version sql reads (one row, one column): a whole number from 0 up, PB_DB_REFUSED + e
 * for anything else no bench writes (negative, NULL, text, a fraction, no row), -1 + e where the
 * query fails. */
int pb_db_read_version(pb_db *db, const char *path, const char *sql, pb_err *e);

#endif
