/* SPDX-License-Identifier: GPL-2.0-only */
/* store.c — a store's life: its path checked, opened (read-write with its schema made or migrated,
 * or read-only with its schema checked), transactions, closed. Where the back ends differ, their
 * method tables say how (db_impl.h); the schema's versions are migrate.c's, what a version requires
 * schema_check.c's. */
#include "store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_impl.h"
#include "migrate.h"

_Static_assert(PB_DB_REFUSED == PB_STORE_REFUSED, "one code for a refused store");

int pb_store_sqlerr(pb_store *s, pb_err *e, const char *what)
{
    if (!what) return pb_errf(e, "%s: %s", s->path, pb_db_errmsg(s->db));
    return pb_errf(e, "%s: %s: %s", s->path, what, pb_db_errmsg(s->db));
}

const char *pb_default_db(void)
{
    const char *env = getenv("PB_DB");
    return env && *env ? env : PB_DEFAULT_DB_PATH;
}

/* what the messages call the path: PB_DB when it came from there, else the option */
static const char *db_source(const char *path)
{
    const char *env = getenv("PB_DB");
    return env && !strcmp(env, path) ? "PB_DB" : "--db";
}

int pb_store_check_path(const char *path, pb_err *e)
{
    /* '' is a private temporary database and ':memory:' one in memory: both would throw the
     * results away when the process ends, while the command said it stored them. */
    if (!path || !*path) return pb_errf(e, "--db: an empty path is not a database file");
    if (!strcmp(path, ":memory:")) return pb_errf(e, "--db: ':memory:' would discard the results; name a file");
    return pb_db_ops_for(path)->check_path(path, db_source(path), e);
}

int pb_store_exists(const char *path) { return pb_db_ops_for(path)->exists(path); }

int pb_store_exec(pb_store *s, const char *sql, pb_err *e)
{
    if (pb_db_exec(s->db, sql) != PB_DB_OK) return pb_errf(e, "%s: %s", s->path, pb_db_errmsg(s->db));
    return 0;
}

int pb_store_ddl(pb_store *s, const char *sql, pb_err *e)
{
    char *t = pb_db_ddl(s->db, sql);
    if (!t) return pb_errf(e, "out of memory");
    int rc = pb_store_exec(s, t, e);
    free(t);
    return rc;
}

/* Closes s and returns rc (-1 or PB_STORE_REFUSED); a message in which the back end says the file
 * is damaged or not a database (SQLite's "file is not a database", "malformed") means a file
 * refused as it is, said in those words after ours. */
static int open_failed(pb_store *s, const char *path, int rc, pb_err *e)
{
    if (rc == -1 && s->db->ops->corrupt_text(e->msg)) {
        char why[PB_ERR_MAX];
        snprintf(why, sizeof why, "%s", e->msg);
        pb_errf(e, "%s is not a patchbench database (or is corrupt): %.300s", path, why);
        rc = PB_STORE_REFUSED;
    }
    pb_store_close(s);
    return rc;
}

/* A read-only command reads this schema version only, and only a store that holds all of it: an
 * older one could be misread, one that lacks a table or column would fail half-way through. */
static int check_readable(pb_store *s, const char *path, pb_err *e)
{
    int v = pb_schema_version(s, e);
    if (v < 0) {   /* a store that only cannot be read is refused as well: nothing is written to it */
        open_failed(s, path, v, e);
        return PB_STORE_REFUSED;
    }
    if (v == 0) {
        pb_errf(e, s->db->ops->no_schema_msg, path);
        return open_failed(s, path, PB_STORE_REFUSED, e);
    }
    if (v != PB_SCHEMA_VERSION) {
        pb_errf(e, "%s has schema version %d, this bench reads version %d: %s", path, v, PB_SCHEMA_VERSION,
                v < PB_SCHEMA_VERSION ? "migrate it with `bench migrate --db PATH` (one transaction)"
                                      : "use a newer bench");
        return open_failed(s, path, PB_STORE_REFUSED, e);
    }
    int rc = pb_schema_check(s, v, v, e);
    return rc < 0 ? open_failed(s, path, rc, e) : 0;
}

int pb_store_open(pb_store *s, const char *path, pb_err *e)
{
    memset(s, 0, sizeof *s);
    if (pb_store_check_path(path, e) < 0) return -1;
    snprintf(s->path, sizeof s->path, "%s", path);
    const pb_db_ops *ops = pb_db_ops_for(path);
    if (ops->open(&s->db, path, PB_DB_OPEN_WRITE, e) < 0) return -1;
    int rc = ops->write_setup_sql ? pb_store_exec(s, ops->write_setup_sql, e) : 0;
    /* nothing writes (not even the journal's switch, which changes an SQLite file's header) before
     * the store is known to be ours */
    if (rc == 0) rc = pb_schema_check_ours(s, e);
    if (rc == 0 && ops->journal) rc = ops->journal(s->db, path, e);
    if (rc == 0) rc = pb_schema_ensure(s, e);
    return rc < 0 ? open_failed(s, path, rc, e) : 0;
}

int pb_store_open_readonly(pb_store *s, const char *path, pb_err *e)
{
    memset(s, 0, sizeof *s);
    if (pb_store_check_path(path, e) < 0) return -1;
    snprintf(s->path, sizeof s->path, "%s", path);
    if (pb_db_ops_for(path)->open(&s->db, path, PB_DB_OPEN_READ, e) < 0) return -1;
    return check_readable(s, path, e);
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
