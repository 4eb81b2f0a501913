/* SPDX-License-Identifier: GPL-2.0-only */
/* db_impl.h — what a back end of db.h provides (db_sqlite.c, db_pg.c); only db.c calls it. */
#ifndef PB_DB_IMPL_H
#define PB_DB_IMPL_H

#include "db.h"

typedef struct pb_db_ops {
    pb_db_kind kind;
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
} pb_db_ops;

/* Every connection and statement starts with its ops, so db.c can dispatch on either. */
struct pb_db {
    const pb_db_ops *ops;
};
struct pb_stmt {
    const pb_db_ops *ops;
};

#endif
