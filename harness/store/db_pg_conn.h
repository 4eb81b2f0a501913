/* SPDX-License-Identifier: GPL-2.0-only */
/* db_pg_conn.h — db_pg.c's connection: its state, and every wait for the server bounded.
 *
 * libpq's blocking calls wait for ever on a server that accepted the connection and stopped
 * answering (stalled, or frozen by SIGSTOP: its kernel still acknowledges, so TCP keepalives see
 * nothing wrong). So every statement is sent and its answer read as it arrives, for at most
 * timeout_ms (PB_PG_TIMEOUT). A server that is alive cancels the statement itself at that limit
 * (its statement_timeout) and the connection stays usable; one that still says nothing a second
 * later is called dead, and every later call on the connection fails at once, which leaves the run
 * being stored incomplete (as a killed bench does). Connecting has its own limits (pg_connect). Only with libpq. */
#ifndef PB_DB_PG_CONN_H
#define PB_DB_PG_CONN_H

#include <libpq-fe.h>
#include <stdint.h>

#include "db_impl.h"

typedef struct pg_db {
    pb_db base;
    PGconn *conn;
    char err[1024];
    int in_txn;      /* between pb_db_begin and commit/rollback: writes may be pipelined */
    int npending;    /* statements sent in pipeline mode whose answers are not read yet */
    int timeout_ms;  /* how long one statement's answer may take (PB_PG_TIMEOUT); 0: no limit */
    int dead;        /* an answer took longer: the connection is not used again */
    int uri_schema;  /* the URI's own options name a search_path: kept (pg_session_settings) */
    char sqlstate[6]; /* the last error's SQLSTATE; "" for one of the connection's own */
} pg_db;

/* How long one statement's answer may take: PB_PG_TIMEOUT seconds (0: no limit, default 600), in
 * ms; -1 + e when malformed (checked with the URI, db_pg.c's p_check_path, and again at connect). */
int pg_timeout_ms(pb_err *e);

/* d->err = msg (trailing newlines and spaces dropped), or a generic message for none */
void pg_set_err(pg_db *d, const char *msg);
/* d->err = r's error (the connection's when r is NULL) after prefix; a statement the server cancelled
 * (SQLSTATE 57014: its statement_timeout, which bench sets to PB_PG_TIMEOUT) names the limit. */
void pg_set_result_err(pg_db *d, const PGresult *r, const char *prefix);

/* Connect d to uri with libpq's environment, the URI's settings and these defaults, which the
 * URI (or PGCONNECT_TIMEOUT) may change: 10 s to connect; TCP keepalives that find a vanished
 * server or network in about a minute. d->timeout_ms from PB_PG_TIMEOUT. 0, or -1 + e (d->conn
 * finished). */
int pg_connect(pg_db *d, const char *uri, pb_err *e);

/* The session settings bench's reading and writing depend on, whatever the server's defaults, the
 * database's or PGOPTIONS say (db_pg_conn.c); read_only: every transaction is. 0, or -1 + d->err. */
int pg_session_settings(pg_db *d, int read_only);

/* When the answer to a statement sent now is due: the limit and a grace for the server's own cancel. */
int64_t pg_deadline_of(const pg_db *d);
/* The next result, as PQgetResult, or NULL with d->dead set (and d->err) when none came by deadline. */
PGresult *pg_get_result(pg_db *d, int64_t deadline);
/* PQexec's and PQexecParams's answer (the last result), waited for with the limit; NULL when d is
 * dead or becomes so. */
PGresult *pg_exec_waiting(pg_db *d, const char *sql);
PGresult *pg_exec_params_waiting(pg_db *d, const char *sql, int n, const Oid *types, const char *const *vals);

#endif
