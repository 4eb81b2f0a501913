/* SPDX-License-Identifier: GPL-2.0-only */
/* db_pg_conn.c — db_pg.c's connection: its limits and its session (db_pg_conn.h). */
#ifdef PB_HAVE_LIBPQ

#include "db_pg_conn.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void pg_set_err(pg_db *d, const char *msg)
{
    snprintf(d->err, sizeof d->err, "%s", msg && *msg ? msg : "PostgreSQL error");
    d->sqlstate[0] = 0;
    size_t n = strlen(d->err);
    while (n && (d->err[n - 1] == '\n' || d->err[n - 1] == ' ')) d->err[--n] = 0;
}

void pg_set_result_err(pg_db *d, const PGresult *r, const char *prefix)
{
    char msg[sizeof d->err];
    snprintf(msg, sizeof msg, "%s%s", prefix ? prefix : "", r ? PQresultErrorMessage(r) : PQerrorMessage(d->conn));
    pg_set_err(d, msg);
    const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    if (state) snprintf(d->sqlstate, sizeof d->sqlstate, "%s", state);
    size_t n = strlen(d->err);
    if (state && !strcmp(state, "57014") && d->timeout_ms > 0)
        snprintf(d->err + n, sizeof d->err - n, " (bench's statement_timeout, PB_PG_TIMEOUT, is %d s)",
                 d->timeout_ms / 1000);
}

static int64_t now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* the next result, as PQgetResult, or NULL with d->dead set when none came before deadline. The
 * connection is non-blocking (pg_connect): what is left of the statements sent is written as the
 * server takes it, within the same limit. The statement is not cancelled from here (PQcancel would
 * wait for a frozen server in its turn): the server's own statement_timeout, the same limit
 * (pg_session_settings), ends it on a server that is alive. */
PGresult *pg_get_result(pg_db *d, int64_t deadline)
{
    while (!d->dead) {
        int unsent = PQflush(d->conn);
        if (unsent < 0 || (!unsent && !PQisBusy(d->conn))) break;
        int wait = -1;
        if (d->timeout_ms > 0) {
            int64_t left = deadline - now_ms();
            wait = left > 0 ? (int)(left < INT32_MAX ? left : INT32_MAX) : 0;
        }
        struct pollfd p = {.fd = PQsocket(d->conn), .events = (short)(POLLIN | (unsent ? POLLOUT : 0))};
        int r = p.fd < 0 ? 1 : poll(&p, 1, wait);
        if (r < 0 && errno == EINTR) continue;
        if (r == 0) {
            char msg[160];
            snprintf(msg, sizeof msg, "the server did not answer within PB_PG_TIMEOUT's %d s", d->timeout_ms / 1000);
            pg_set_err(d, msg);
            d->dead = 1;
            return NULL;
        }
        if ((p.revents & (POLLIN | POLLERR | POLLHUP)) && !PQconsumeInput(d->conn)) break; /* broken: PQgetResult says how */
    }
    return d->dead ? NULL : PQgetResult(d->conn);
}

/* A grace past the limit: on a server that is alive its own statement_timeout (the same limit)
 * fires first and cancels the statement, which leaves the connection usable (a run can still be
 * marked failed, with the server's reason); only a server that cannot answer meets the deadline. */
#define PG_GRACE_MS 1000
int64_t pg_deadline_of(const pg_db *d) { return now_ms() + d->timeout_ms + PG_GRACE_MS; }

/* PQexec's and PQexecParams's answer (the last result), each waited for with the limit */
static PGresult *last_result(pg_db *d, int sent)
{
    if (!sent) return pg_set_err(d, PQerrorMessage(d->conn)), NULL;
    int64_t deadline = pg_deadline_of(d);
    PGresult *last = NULL, *r;
    while ((r = pg_get_result(d, deadline))) {
        PQclear(last);
        last = r;
    }
    if (d->dead) PQclear(last), last = NULL;
    return last;
}

PGresult *pg_exec_waiting(pg_db *d, const char *sql)
{
    if (d->dead) return NULL;
    return last_result(d, PQsendQuery(d->conn, sql));
}

PGresult *pg_exec_params_waiting(pg_db *d, const char *sql, int n, const Oid *types, const char *const *vals)
{
    if (d->dead) return NULL;
    return last_result(d, PQsendQueryParams(d->conn, sql, n, types, vals, NULL, NULL, 0));
}

/* by default long enough for the largest statement of a merge of a year of nightly runs */
#define PG_TIMEOUT_DEFAULT_S 600
int pg_timeout_ms(pb_err *e)
{
    const char *v = getenv("PB_PG_TIMEOUT");
    if (!v || !*v) return PG_TIMEOUT_DEFAULT_S * 1000;
    char *end;
    errno = 0;
    long sec = strtol(v, &end, 10);
    if (*end || errno || sec < 0 || sec > 86400)
        return pb_errf(e, "PB_PG_TIMEOUT '%s': want whole seconds from 0 (no limit) to 86400", v);
    return (int)sec * 1000;
}

/* What bench reads and writes depends on these, whatever the server's defaults, the database's or
 * the user's PGOPTIONS say: floats in their shortest exact form (extra_float_digits 0 or -14 would
 * round them), ISO dates in UTC, the default schema path, strings as the standard says, and the
 * server's own statement limit as bench's (both cancel a statement that takes longer). A search_path
 * in the URI's own options is the store's name (docs/fleet.md: a schema of bench's own) and kept. */
int pg_session_settings(pg_db *d, int read_only)
{
    char sql[600];
    snprintf(sql, sizeof sql,
             "SET extra_float_digits = 3; SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; "
             "SET IntervalStyle = 'postgres'; %s"
             "SET standard_conforming_strings = on; SET statement_timeout = %d; SET lock_timeout = 0; "
             "SET idle_in_transaction_session_timeout = 0; SET default_transaction_read_only = %s",
             d->uri_schema ? "" : "SET search_path = \"$user\", public; ", d->timeout_ms, read_only ? "on" : "off");
    PGresult *r = pg_exec_waiting(d, sql);
    int ok = r && PQresultStatus(r) == PGRES_COMMAND_OK;
    if (!ok && !d->dead) pg_set_result_err(d, r, NULL);
    PQclear(r);
    return ok ? 0 : -1;
}

/* Does the URI itself (its options, not PGOPTIONS: libpq reads the environment only when the URI
 * has none) set search_path? */
static int uri_sets_search_path(const char *uri)
{
    PQconninfoOption *opts = PQconninfoParse(uri, NULL);
    int found = 0;
    for (PQconninfoOption *o = opts; o && o->keyword; o++)
        if (!strcmp(o->keyword, "options") && o->val && strstr(o->val, "search_path")) found = 1;
    PQconninfoFree(opts);
    return found;
}

int pg_connect(pg_db *d, const char *uri, pb_err *e)
{
    d->timeout_ms = pg_timeout_ms(e);
    if (d->timeout_ms < 0) return -1;
    /* defaults first: the URI expanded from dbname overrides them, the keys after it override it;
     * PGCONNECT_TIMEOUT, when set, is libpq's default and left to it */
    const char *keys[10], *vals[10];
    int n = 0;
    keys[n] = "keepalives", vals[n++] = "1";
    keys[n] = "keepalives_idle", vals[n++] = "30";
    keys[n] = "keepalives_interval", vals[n++] = "10";
    keys[n] = "keepalives_count", vals[n++] = "3";
    if (!getenv("PGCONNECT_TIMEOUT")) keys[n] = "connect_timeout", vals[n++] = "10";
    keys[n] = "dbname", vals[n++] = uri;
    keys[n] = "fallback_application_name", vals[n++] = "bench";
    keys[n] = "client_encoding", vals[n++] = "UTF8";
    keys[n] = NULL, vals[n] = NULL;
    d->uri_schema = uri_sets_search_path(uri);
    d->conn = PQconnectdbParams(keys, vals, 1);
    if (d->conn && PQstatus(d->conn) == CONNECTION_OK && PQsetnonblocking(d->conn, 1) == 0) return 0;
    pg_set_err(d, d->conn ? PQerrorMessage(d->conn) : "out of memory");
    pb_errf(e, "cannot open database %s: %s", uri, d->err);
    PQfinish(d->conn);
    d->conn = NULL;
    return -1;
}

#endif
