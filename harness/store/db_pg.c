/* SPDX-License-Identifier: GPL-2.0-only */
/* db_pg.c — db.h on PostgreSQL through libpq.
 *
 * A statement is its SQL with `?N` (and `?`) turned into `$N`, and its parameters as text; the
 * first step runs it (PQexecParams: the parameters travel apart from the SQL, never inside it)
 * and later steps walk the rows of the result.
 *
 * Inside a transaction (pb_db_begin), INSERT/UPDATE/DELETE without RETURNING are pipelined: sent
 * without waiting for their answers, which are collected before the next statement that returns
 * rows, every PIPE_MAX statements, and at COMMIT, whose failure then reports the first error. A
 * cell's samples or a run's statistics thus cost one round trip per batch, not one per row, and
 * they still commit together or not at all. Parameter types: integers int8, doubles float8,
 * text and NULL unknown (the server infers them from where they stand). Values read back as
 * SQLite would give them: booleans 1/0, NULL as NULL.
 *
 * A store here (db_impl.h's slots) is a postgresql:// URI without a password, versioned by its
 * pb_meta row, created and migrated under an advisory lock; table definitions are SQLite's words
 * translated (p_ddl). */
#include "db_impl.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the URI and the schema: the same with or without libpq ---- */

static int p_claims(const char *path)
{
    return path && (!strncmp(path, "postgresql://", 13) || !strncmp(path, "postgres://", 11));
}

/* percent-decoded copy of s[0..n) into out (cap bytes) */
static void pct_decode(const char *s, size_t n, char *out, size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < cap; i++) {
        if (s[i] == '%' && i + 2 < n && isxdigit((unsigned char)s[i + 1]) && isxdigit((unsigned char)s[i + 2])) {
            char hex[3] = {s[i + 1], s[i + 2], 0};
            out[k++] = (char)strtol(hex, NULL, 16);
            i += 2;
        } else {
            out[k++] = s[i];
        }
    }
    out[k] = 0;
}

/* A password in the URI would be in the process list, the shell history and the run's command_line
 * column: refused, whichever of --db or PB_DB (what) it came from. */
static int check_no_password(const char *path, const char *what, pb_err *e)
{
    const char *p = strstr(path, "://") + 3;
    size_t auth = strcspn(p, "/?");
    /* userinfo is what comes before the last '@' of the authority; a ':' in it starts a password */
    const char *at = NULL;
    for (size_t i = 0; i < auth; i++)
        if (p[i] == '@') at = p + i;
    int pw = at && memchr(p, ':', (size_t)(at - p)) != NULL;
    const char *q = strchr(p, '?');
    while (!pw && q && *q) {
        q++;
        size_t len = strcspn(q, "&"), klen = strcspn(q, "=&");
        char key[64];
        pct_decode(q, klen < len ? klen : len, key, sizeof key);
        if (!strcmp(key, "password")) pw = 1;
        q += len;
    }
    if (!pw) return 0;
    return pb_errf(e,
                   "%s: the PostgreSQL URI carries a password; give it through PGPASSWORD, PGPASSFILE or ~/.pgpass"
                   " (docs/fleet.md), never on the command line or in the store",
                   what);
}

int pb_db_check_no_password(const char *path, const char *what, char *msg, size_t cap)
{
    pb_err e;
    if (!p_claims(path) || check_no_password(path, what, &e) == 0) return 0;
    snprintf(msg, cap, "%s", e.msg);
    return -1;
}

#ifdef PB_HAVE_LIBPQ
#define HAVE_LIBPQ 1
#include "db_pg_conn.h"
#else
#define HAVE_LIBPQ 0
#endif

static int p_check_path(const char *path, const char *what, pb_err *e)
{
    if (check_no_password(path, what, e) < 0) return -1;
    if (!HAVE_LIBPQ) return pb_errf(e, "--db: this bench was built without libpq (libpq-dev): it cannot open %s", path);
#ifdef PB_HAVE_LIBPQ
    /* a malformed limit is the user's input: refused with the URI, before anything runs (exit 2) */
    if (pg_timeout_ms(e) < 0) return -1;
#endif
    return 0;
}

/* a server may answer there: only opening it tells */
static int p_exists(const char *path)
{
    (void)path;
    return 1;
}

/* The version is pb_meta's one row; a database without pb_meta is empty to us (other
 * applications' tables may share it) unless it has a `runs` table, which is then someone else's.
 * PostgreSQL stores began at version 3: there is no older one. */
static int p_schema_version(pb_db *db, const char *path, pb_err *e)
{
    /* both tables in one statement, so one snapshot: seen apart, another opener's commit of the
     * schema could fall between the two and show runs without pb_meta */
    int64_t t = pb_db_query_int(db, path,
                                "SELECT coalesce(sum(CASE WHEN table_name = 'pb_meta' THEN 2 ELSE 1 END), 0)"
                                " FROM information_schema.tables WHERE table_schema = current_schema()"
                                " AND table_name IN ('pb_meta', 'runs')", e);
    if (t < 0) return -1;
    if (t == 1) {
        pb_errf(e, "%s has a runs table but no pb_meta: not a patchbench database", path);
        return PB_DB_REFUSED;
    }
    if (t == 0) return 0;
    return pb_db_read_version(db, path, "SELECT max(schema_version) FROM pb_meta", e);
}

static void p_column_query(char *sql, size_t cap, const char *table, const char *column)
{
    snprintf(sql, cap,
             "SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema()"
             " AND table_name = '%s' AND column_name = '%s'", table, column);
}

static void p_relation_query(char *sql, size_t cap, const char *name, int view)
{
    snprintf(sql, cap,
             "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()"
             " AND table_name = '%s' AND table_type = '%s'", name, view ? "VIEW" : "BASE TABLE");
}

/* SQLSTATE class 42: syntax error or access rule violation (undefined table, column, function),
 * but for 42501, a role without the privilege: the store may be whole */
static int p_schema_differs(pb_db *db, int rc)
{
    const pg_db *d = (const pg_db *)db;
    (void)rc;
    return !d->dead && PQstatus(d->conn) == CONNECTION_OK && !strncmp(d->sqlstate, "42", 2) &&
           strcmp(d->sqlstate, "42501");
}

/* the server keeps its files to itself: what it answers is never a damaged file of ours */
static int p_corrupt_code(int rc)
{
    (void)rc;
    return 0;
}

static int p_corrupt_text(const char *msg)
{
    (void)msg;
    return 0;
}

/* ---- DDL: SQLite's words -> PostgreSQL's ----
 * Whole words only. TEXT gets the "C" collation so that ORDER BY and comparisons sort bytes, as
 * SQLite's BINARY does, whatever the server's locale. */
static const struct { const char *from, *to; } PG_DDL[] = {
    {"INTEGER PRIMARY KEY", "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"},
    {"CREATE VIEW IF NOT EXISTS", "CREATE OR REPLACE VIEW"},
    {") WITHOUT ROWID", ")"},
    {"INTEGER", "BIGINT"},
    {"REAL", "DOUBLE PRECISION"},
    {"TEXT", "TEXT COLLATE \"C\""},
};

static int word_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

static char *p_ddl(const char *sql)
{
    size_t cap = strlen(sql) * 3 + 64, k = 0;
    char *out = malloc(cap);
    if (!out) return NULL;
    int quote = 0;
    for (const char *p = sql; *p;) {
        if (*p == '\'') quote = !quote;
        size_t w = 0;
        if (!quote && (p == sql || !word_char(p[-1])))
            for (size_t i = 0; i < sizeof PG_DDL / sizeof PG_DDL[0]; i++) {
                size_t n = strlen(PG_DDL[i].from);
                if (!strncmp(p, PG_DDL[i].from, n) && !word_char(p[n])) {
                    size_t m = strlen(PG_DDL[i].to);
                    if (k + m + 1 > cap) { free(out); return NULL; }
                    memcpy(out + k, PG_DDL[i].to, m);
                    k += m;
                    w = n;
                    break;
                }
            }
        if (w) { p += w; continue; }
        if (k + 2 > cap) { free(out); return NULL; }
        out[k++] = *p++;
    }
    out[k] = 0;
    return out;
}

#ifdef PB_HAVE_LIBPQ

#include <inttypes.h>
#include <libpq-fe.h>
#include <math.h>
#include <strings.h>

#define OID_BOOL 16
#define OID_INT8 20
#define OID_INT2 21
#define OID_INT4 23
#define OID_TEXT 25
#define OID_OID 26
#define OID_FLOAT4 700
#define OID_FLOAT8 701
#define OID_NUMERIC 1700

/* answers collected at least this often: the server's replies to unread statements must fit its
 * socket buffer, or both sides would wait for each other */
#define PIPE_MAX 256

typedef struct pg_stmt {
    pb_stmt base;
    pg_db *db;
    char *sql;       /* with $N */
    int nparams;     /* highest $N */
    unsigned char *used; /* used[i]: $i+1 appears in the SQL */
    char **vals;     /* nparams, malloc'd text or NULL */
    Oid *types;
    PGresult *res;
    int row, nrows;  /* row: the current one (-1 before the first) */
    int ran;
    int pipeable;    /* INSERT/UPDATE/DELETE without RETURNING: no rows to wait for */
    int piped;       /* this execution was pipelined: done, its answer comes later */
    int failed;      /* the last step failed: reset and finalize say so, as SQLite's do */
} pg_stmt;


/* `?N` -> `$N`, `?` -> the next number, outside quotes and comments; group_concat( ->
 * string_agg( (SQLite before 3.44 has no string_agg; both take (text, separator)). */
static char *translate(const char *sql, int *nparams, unsigned char *used, int cap_used)
{
    size_t cap = strlen(sql) * 2 + 16, k = 0;
    char *out = malloc(cap);
    if (!out) return NULL;
    int next = 0, max = 0;
    char quote = 0;
    for (const char *p = sql; *p;) {
        if (k + 16 > cap) {
            char *n = realloc(out, cap *= 2);
            if (!n) { free(out); return NULL; }
            out = n;
        }
        char c = *p;
        if (quote) {
            if (c == quote) quote = 0;
            out[k++] = *p++;
            continue;
        }
        if (c == '\'' || c == '"') {
            quote = c;
            out[k++] = *p++;
            continue;
        }
        if (c == '-' && p[1] == '-') {
            while (*p && *p != '\n') out[k++] = *p++;
            continue;
        }
        if (c == '?') {
            p++;
            int n;
            if (isdigit((unsigned char)*p)) {
                n = 0;
                while (isdigit((unsigned char)*p) && n < 100000) n = n * 10 + (*p++ - '0');
                next = n;
            } else {
                n = ++next;
            }
            if (n > max) max = n;
            if (used && n <= cap_used) used[n - 1] = 1;
            k += (size_t)snprintf(out + k, cap - k, "$%d", n);
            continue;
        }
        if (!strncmp(p, "group_concat(", 13) && (p == sql || !(isalnum((unsigned char)p[-1]) || p[-1] == '_'))) {
            memcpy(out + k, "string_agg(", 11);
            k += 11;
            p += 13;
            continue;
        }
        out[k++] = *p++;
    }
    out[k] = 0;
    *nparams = max;
    return out;
}

/* Does sql change rows without returning any (INSERT, UPDATE or DELETE without RETURNING)? */
static int pipeable_sql(const char *sql)
{
    while (isspace((unsigned char)*sql)) sql++;
    if (strncasecmp(sql, "INSERT", 6) && strncasecmp(sql, "UPDATE", 6) && strncasecmp(sql, "DELETE", 6)) return 0;
    for (const char *p = sql; *p; p++)
        if (!strncasecmp(p, "RETURNING", 9)) return 0;
    return 1;
}

/* Read the answers of every pipelined statement and leave pipeline mode; -1 (and the first
 * error in d->err) if one failed, the later ones being then aborted by the server. */
static int drain(pg_db *d)
{
    if (!d->npending && PQpipelineStatus(d->conn) == PQ_PIPELINE_OFF) return 0;
    if (d->dead) return -1;
    int rc = 0;
    int64_t deadline = pg_deadline_of(d);
    if (!PQpipelineSync(d->conn)) {
        pg_set_err(d, PQerrorMessage(d->conn));
        rc = -1;
    }
    for (int nulls = 0; !d->dead && (rc == 0 || PQstatus(d->conn) == CONNECTION_OK);) {
        PGresult *r = pg_get_result(d, deadline);
        if (!r && d->dead) {
            rc = -1;
            break;
        }
        if (!r) {
            /* one NULL ends each statement's answers; two in a row: nothing more is coming */
            if (++nulls > 1) {
                if (rc == 0) pg_set_err(d, PQerrorMessage(d->conn));
                rc = -1;
                break;
            }
            continue;
        }
        nulls = 0;
        ExecStatusType t = PQresultStatus(r);
        if (t == PGRES_PIPELINE_SYNC) {
            PQclear(r);
            break;
        }
        if (t != PGRES_COMMAND_OK && t != PGRES_TUPLES_OK && rc == 0) {
            if (t == PGRES_PIPELINE_ABORTED) pg_set_err(d, "a write sent earlier in this transaction failed: pipeline aborted");
            else pg_set_result_err(d, r, "a write sent earlier in this transaction failed: ");
            rc = -1;
        }
        PQclear(r);
    }
    d->npending = 0;
    if (d->dead) return -1;
    if (!PQexitPipelineMode(d->conn) && rc == 0) {
        pg_set_err(d, PQerrorMessage(d->conn));
        rc = -1;
    }
    return rc;
}

static int p_prepare(pb_db *db, const char *sql, pb_stmt **out)
{
    pg_db *d = (pg_db *)db;
    pg_stmt *s = calloc(1, sizeof *s);
    if (!s) return pg_set_err(d, "out of memory"), PB_DB_ERROR;
    s->base.ops = &pb_db_pg_ops;
    s->db = d;
    s->row = -1;
    s->pipeable = pipeable_sql(sql);
    int n = 0;
    char *probe = translate(sql, &n, NULL, 0);
    s->used = probe ? calloc((size_t)n + 1, 1) : NULL;
    free(probe);
    s->sql = s->used ? translate(sql, &s->nparams, s->used, n) : NULL;
    if (s->sql && s->nparams) {
        s->vals = calloc((size_t)s->nparams, sizeof *s->vals);
        s->types = calloc((size_t)s->nparams, sizeof *s->types);
    }
    if (!s->sql || (s->nparams && (!s->vals || !s->types))) {
        free(s->used);
        free(s->sql);
        free(s->vals);
        free(s->types);
        free(s);
        return pg_set_err(d, "out of memory"), PB_DB_ERROR;
    }
    *out = &s->base;
    return PB_DB_OK;
}

static void clear_result(pg_stmt *s)
{
    PQclear(s->res);
    s->res = NULL;
    s->row = -1;
    s->nrows = 0;
    s->ran = 0;
    s->piped = 0;
}

static int set_param(pb_stmt *st, int i, char *v, Oid type)
{
    pg_stmt *s = (pg_stmt *)st;
    if (i < 1 || i > s->nparams) {
        free(v);
        return pg_set_err(s->db, "bind index out of range"), PB_DB_ERROR;
    }
    free(s->vals[i - 1]);
    s->vals[i - 1] = v;
    s->types[i - 1] = type;
    return PB_DB_OK;
}

static int p_bind_int64(pb_stmt *st, int i, int64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRId64, v);
    char *c = strdup(buf);
    if (!c) return PB_DB_ERROR;
    return set_param(st, i, c, OID_INT8);
}

static int p_bind_double(pb_stmt *st, int i, double v)
{
    /* SQLite stores a NaN as NULL */
    if (isnan(v)) return set_param(st, i, NULL, 0);
    char buf[40];
    if (isinf(v)) snprintf(buf, sizeof buf, v > 0 ? "Infinity" : "-Infinity");
    else snprintf(buf, sizeof buf, "%.17g", v);
    char *c = strdup(buf);
    if (!c) return PB_DB_ERROR;
    return set_param(st, i, c, OID_FLOAT8);
}

static int p_bind_text(pb_stmt *st, int i, const char *v)
{
    char *c = strdup(v);
    if (!c) return PB_DB_ERROR;
    return set_param(st, i, c, 0);
}

static int p_bind_null(pb_stmt *st, int i) { return set_param(st, i, NULL, 0); }

static int step_once(pg_stmt *s);

static int p_step(pb_stmt *st)
{
    pg_stmt *s = (pg_stmt *)st;
    int rc = step_once(s);
    s->failed = rc != PB_DB_ROW && rc != PB_DB_DONE;
    return rc;
}

static int step_once(pg_stmt *s)
{
    if (!s->ran) {
        s->ran = 1;
        /* a parameter the SQL does not mention (bound or not) still needs a type */
        for (int i = 0; i < s->nparams; i++)
            if (!s->used[i] && !s->types[i]) s->types[i] = OID_TEXT;
        pg_db *d = s->db;
        if (s->pipeable && d->in_txn) {
            if (d->npending >= PIPE_MAX && drain(d) < 0) return PB_DB_ERROR;
            if (PQpipelineStatus(d->conn) == PQ_PIPELINE_OFF && !PQenterPipelineMode(d->conn))
                return pg_set_err(d, PQerrorMessage(d->conn)), PB_DB_ERROR;
            if (!PQsendQueryParams(d->conn, s->sql, s->nparams, s->types, (const char *const *)s->vals, NULL, NULL, 0))
                return pg_set_err(d, PQerrorMessage(d->conn)), PB_DB_ERROR;
            d->npending++;
            s->piped = 1;
            return PB_DB_DONE;
        }
        if (drain(d) < 0) return PB_DB_ERROR;
        s->res = pg_exec_params_waiting(d, s->sql, s->nparams, s->types, (const char *const *)s->vals);
        ExecStatusType t = s->res ? PQresultStatus(s->res) : PGRES_FATAL_ERROR;
        if (t == PGRES_TUPLES_OK) {
            s->nrows = PQntuples(s->res);
        } else if (t == PGRES_COMMAND_OK) {
            s->nrows = 0;
        } else {
            if (!d->dead) pg_set_result_err(d, s->res, NULL);
            PQclear(s->res);
            s->res = NULL;
            return PB_DB_ERROR;
        }
    }
    if (s->piped) return PB_DB_DONE;
    if (!s->res) return PB_DB_ERROR;
    if (s->row + 1 < s->nrows) {
        s->row++;
        return PB_DB_ROW;
    }
    s->row = s->nrows;
    return PB_DB_DONE;
}

static int p_reset(pb_stmt *st)
{
    pg_stmt *s = (pg_stmt *)st;
    int failed = s->failed;
    clear_result(s);
    s->failed = 0;
    return failed ? PB_DB_ERROR : PB_DB_OK;
}

static int p_clear_bindings(pb_stmt *st)
{
    pg_stmt *s = (pg_stmt *)st;
    for (int i = 0; i < s->nparams; i++) {
        free(s->vals[i]);
        s->vals[i] = NULL;
        s->types[i] = 0;
    }
    return PB_DB_OK;
}

static int p_finalize(pb_stmt *st)
{
    pg_stmt *s = (pg_stmt *)st;
    int failed = s->failed;
    clear_result(s);
    for (int i = 0; i < s->nparams; i++) free(s->vals[i]);
    free(s->vals);
    free(s->types);
    free(s->used);
    free(s->sql);
    free(s);
    return failed ? PB_DB_ERROR : PB_DB_OK;
}

static int in_row(pg_stmt *s, int i)
{
    return s->res && s->row >= 0 && s->row < s->nrows && i >= 0 && i < PQnfields(s->res);
}

static int p_column_count(pb_stmt *st)
{
    pg_stmt *s = (pg_stmt *)st;
    return s->res ? PQnfields(s->res) : 0;
}

static const char *p_column_name(pb_stmt *st, int i)
{
    pg_stmt *s = (pg_stmt *)st;
    return s->res && i >= 0 && i < PQnfields(s->res) ? PQfname(s->res, i) : NULL;
}

static const char *p_column_text(pb_stmt *st, int i)
{
    pg_stmt *s = (pg_stmt *)st;
    if (!in_row(s, i) || PQgetisnull(s->res, s->row, i)) return NULL;
    const char *v = PQgetvalue(s->res, s->row, i);
    if (PQftype(s->res, i) == OID_BOOL) return v[0] == 't' ? "1" : "0";
    return v;
}

static int p_column_type(pb_stmt *st, int i)
{
    pg_stmt *s = (pg_stmt *)st;
    if (!in_row(s, i) || PQgetisnull(s->res, s->row, i)) return PB_DB_NULL;
    switch (PQftype(s->res, i)) {
    case OID_BOOL: case OID_INT2: case OID_INT4: case OID_INT8: case OID_OID: return PB_DB_INTEGER;
    case OID_FLOAT4: case OID_FLOAT8: return PB_DB_FLOAT;
    case OID_NUMERIC: return strpbrk(PQgetvalue(s->res, s->row, i), ".eEN") ? PB_DB_FLOAT : PB_DB_INTEGER;
    default: return PB_DB_TEXT;
    }
}

static double p_column_double(pb_stmt *st, int i)
{
    const char *v = p_column_text(st, i);
    return v ? strtod(v, NULL) : 0.0;
}

static int64_t p_column_int64(pb_stmt *st, int i)
{
    const char *v = p_column_text(st, i);
    if (!v) return 0;
    if (strpbrk(v, ".eEIN")) {
        double d = strtod(v, NULL);
        return isfinite(d) && fabs(d) < 9.2e18 ? (int64_t)d : 0;
    }
    return strtoll(v, NULL, 10);
}

static int p_exec(pb_db *db, const char *sql)
{
    pg_db *d = (pg_db *)db;
    if (drain(d) < 0) return PB_DB_ERROR;
    int n = 0;
    char *t = translate(sql, &n, NULL, 0);
    if (!t) return pg_set_err(d, "out of memory"), PB_DB_ERROR;
    PGresult *r = pg_exec_waiting(d, t);
    free(t);
    ExecStatusType st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    int rc = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK || st == PGRES_EMPTY_QUERY ? PB_DB_OK : PB_DB_ERROR;
    if (rc != PB_DB_OK && !d->dead) pg_set_result_err(d, r, NULL);
    PQclear(r);
    return rc;
}

static int p_begin(pb_db *db)
{
    int rc = p_exec(db, "BEGIN");
    ((pg_db *)db)->in_txn = rc == PB_DB_OK;
    return rc;
}

static int p_commit(pb_db *db)
{
    /* COMMIT of a transaction the server had aborted answers "ROLLBACK", without an error */
    pg_db *d = (pg_db *)db;
    d->in_txn = 0;
    if (drain(d) < 0) {
        PQclear(pg_exec_waiting(d, "ROLLBACK"));
        return PB_DB_ERROR;
    }
    PGresult *r = pg_exec_waiting(d, "COMMIT");
    int rc = PB_DB_ERROR;
    if (d->dead) return rc;
    if (r && PQresultStatus(r) == PGRES_COMMAND_OK && !strcmp(PQcmdStatus(r), "COMMIT")) rc = PB_DB_OK;
    else if (r && PQresultStatus(r) == PGRES_COMMAND_OK) pg_set_err(d, "the transaction was rolled back by the server");
    else pg_set_result_err(d, r, NULL);
    PQclear(r);
    return rc;
}

static void p_rollback(pb_db *db)
{
    pg_db *d = (pg_db *)db;
    d->in_txn = 0;
    drain(d);
    PQclear(pg_exec_waiting(d, "ROLLBACK"));
}

static const char *p_errmsg(pb_db *db) { return ((pg_db *)db)->err; }

static void p_close(pb_db *db)
{
    pg_db *d = (pg_db *)db;
    PQfinish(d->conn);
    free(d);
}

/* The server's notices (e.g. "relation ... already exists, skipping") are not the user's business. */
static void no_notice(void *arg, const char *msg)
{
    (void)arg;
    (void)msg;
}

/* A connection: libpq reads host, user, TLS settings and the password from the URI and its usual
 * environment (PGPASSWORD, PGPASSFILE/~/.pgpass, PGSSLMODE, ...); read-only: every transaction is
 * (as SQLite's query_only, nothing can be created or changed). Limits that the URI (or
 * PGCONNECT_TIMEOUT) may change: 10 s to connect, TCP keepalives that find a vanished server or
 * network in about a minute; and every answer waited for at most PB_PG_TIMEOUT (get_result). */
static int p_open(pb_db **out, const char *uri, pb_db_open_mode mode, pb_err *e)
{
    *out = NULL;
    pg_db *d = calloc(1, sizeof *d);
    if (!d) return pb_errf(e, "cannot open database %s: out of memory", uri);
    d->base.ops = &pb_db_pg_ops;
    if (pg_connect(d, uri, e) < 0) {
        free(d);
        return -1;
    }
    PQsetNoticeProcessor(d->conn, no_notice, NULL);
    if (pg_session_settings(d, mode == PB_DB_OPEN_READ) < 0) {
        pb_errf(e, "cannot open database %s: %s", uri, d->err);
        p_close(&d->base);
        return -1;
    }
    *out = &d->base;
    return 0;
}

#define STATEMENT_OPS                                                                                           \
    .prepare = p_prepare, .bind_int64 = p_bind_int64, .bind_double = p_bind_double, .bind_text = p_bind_text,   \
    .bind_null = p_bind_null, .step = p_step, .reset = p_reset, .clear_bindings = p_clear_bindings,             \
    .finalize = p_finalize, .column_count = p_column_count, .column_name = p_column_name,                       \
    .column_type = p_column_type, .column_int64 = p_column_int64, .column_double = p_column_double,             \
    .column_text = p_column_text, .exec = p_exec, .begin = p_begin, .commit = p_commit, .rollback = p_rollback, \
    .errmsg = p_errmsg, .close = p_close,

#else /* no libpq: its URIs are refused by p_check_path, before any open */

static int p_open(pb_db **out, const char *uri, pb_db_open_mode mode, pb_err *e)
{
    (void)mode;
    *out = NULL;
    return pb_errf(e, "cannot open database %s: this bench was built without libpq (install libpq-dev and rebuild)",
                   uri);
}

#define STATEMENT_OPS

#endif

const pb_db_ops pb_db_pg_ops = {
    STATEMENT_OPS
    .name = "PostgreSQL", .claims = p_claims, .check_path = p_check_path, .exists = p_exists, .open = p_open,
    .write_setup_sql = NULL, .journal = NULL, .schema_version = p_schema_version, .first_version = 3,
    /* concurrent first openers queue on a transaction-level advisory lock (released by COMMIT or
     * ROLLBACK, or when a connection dies), so one creates or migrates and the others find the work
     * done; CREATE ... IF NOT EXISTS alone races in PostgreSQL. The key: 'pbench' in ASCII. */
    .schema_lock_sql = "SELECT pg_advisory_xact_lock(112980098110099104)",
    .new_store_sql = "CREATE TABLE pb_meta (schema_version INTEGER NOT NULL); INSERT INTO pb_meta VALUES (0)",
    .set_version_sql = "UPDATE pb_meta SET schema_version = %d",
    .no_schema_msg = "no database at %s: no patchbench schema there (`bench migrate --db URI` creates it)",
    .column_query = p_column_query, .relation_query = p_relation_query, .corrupt_code = p_corrupt_code,
    .corrupt_text = p_corrupt_text, .schema_differs = p_schema_differs, .ddl = p_ddl, .rowid = "ctid",
};
