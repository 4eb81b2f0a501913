/* SPDX-License-Identifier: GPL-2.0-only */
/* schema_check.c — what a schema version requires, asked of a store at every open (migrate.h). */
#include "migrate.h"

#include <sqlite3.h> /* the reference: the schema's text run into a private in-memory database */
#include <stdio.h>
#include <string.h>

#include "db_impl.h"

/* ---- the tables a schema version requires ----
 *
 * A store whose user_version (or pb_meta) is right may still lack a table, a view or a column
 * (dropped or renamed by hand, a half-restored backup): read as it is, a command would fail
 * later, half-way through its output, or read nothing and say nothing. So every open asks the
 * store for each relation of the schema by name, column by column. The list is not written out
 * a second time: it is read from the schema text itself, run into a private in-memory SQLite
 * database, so that it cannot drift from what a new store gets. */

/* Every table and view of the core schema (and of the gate's tables where with_gate), in name
 * order, handed to each(ctx, kind, name, select) until it returns non-zero: kind "table" or
 * "view", select "SELECT col, col, ... FROM name LIMIT 0" (with_columns 0: "SELECT * ..."). 0,
 * the first non-zero of each, or -1 + e if the reference database cannot be made (out of memory). */
static int each_relation(int with_gate, int with_columns,
                         int (*each)(void *ctx, const char *kind, const char *name, const char *select), void *ctx,
                         pb_err *e)
{
    sqlite3 *ref = NULL;
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_open_v2(":memory:", &ref, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_exec(ref, pb_store_schema_sql, NULL, NULL, NULL);
    if (rc == SQLITE_OK && with_gate) rc = sqlite3_exec(ref, pb_gate_tables_sql, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(ref,
                                "SELECT m.name, group_concat(p.name, ', '), m.type FROM sqlite_master m,"
                                " pragma_table_info(m.name) p WHERE m.type IN ('table', 'view')"
                                " GROUP BY m.name ORDER BY m.name", -1, &q, NULL);
    if (rc != SQLITE_OK) {
        pb_errf(e, "cannot list the schema's tables: %s", ref ? sqlite3_errmsg(ref) : "out of memory");
        sqlite3_close(ref);
        return -1;
    }
    int out = 0;
    while (!out && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        const char *rel = (const char *)sqlite3_column_text(q, 0), *cols = (const char *)sqlite3_column_text(q, 1);
        char *select = sqlite3_mprintf("SELECT %s FROM %s LIMIT 0", with_columns ? cols : "*", rel);
        if (!select) { out = pb_errf(e, "out of memory"); break; }
        out = each(ctx, (const char *)sqlite3_column_text(q, 2), rel, select);
        sqlite3_free(select);
    }
    if (!out && rc != SQLITE_DONE) out = pb_errf(e, "cannot list the schema's tables: %s", sqlite3_errmsg(ref));
    sqlite3_finalize(q);
    sqlite3_close(ref);
    return out;
}

typedef struct relation_check {
    pb_store *s;
    int found, migrated;   /* the store's version; the one a migration in this transaction made, or 0 */
    int version;           /* the version whose relations are asked for */
    pb_err *e;
} relation_check;

/* The relations that came after version 2 (the schema's text has only the current ones): an older
 * store is not asked for them before its migration creates them. */
static int relation_since(const char *name)
{
    static const struct { const char *name; int version; } LATER[] = {{"objects", 6}, {"baselines", 6}, {"func_counts", 11}};
    for (size_t i = 0; i < sizeof LATER / sizeof LATER[0]; i++)
        if (!strcmp(LATER[i].name, name)) return LATER[i].version;
    return 1;
}

/* "PATH: store does not match schema version N[ (migrated to M, not kept)]: WHY" */
static int mismatch(const relation_check *c, const char *why)
{
    char migrated[64] = "";
    if (c->migrated) snprintf(migrated, sizeof migrated, " (migrated to %d, not kept)", c->migrated);
    pb_errf(c->e, "%s: store does not match schema version %d%s: %s", c->s->path, c->found, migrated, why);
    return PB_STORE_REFUSED;
}

/* Is name a relation of this kind in the store (not a view where the schema has a table, or the
 * other way round)? 0, PB_STORE_REFUSED or -1, + e. */
static int check_kind(const relation_check *c, const char *kind, const char *name, const char *what)
{
    int view = !strcmp(kind, "view");
    char sql[320];
    c->s->db->ops->relation_query(sql, sizeof sql, name, view);
    int64_t n = pb_db_query_int(c->s->db, c->s->path, sql, c->e);
    if (n < 0) return -1;
    if (n > 0) return 0;
    char why[200];
    snprintf(why, sizeof why, "%s is there but not as a %s", what, kind);
    return mismatch(c, why);
}

/* One relation of the schema, asked of the store: its statement prepared and run (PostgreSQL
 * reports a missing column only when it runs), the store's own words on failure; then whether it
 * is a table where the schema has a table (a view of the same columns reads alike, but takes no
 * row: a writer would fail half-way through a run). kind and name are the schema's own words. */
static int check_relation(void *ctx, const char *kind, const char *name, const char *select)
{
    relation_check *c = ctx;
    if (relation_since(name) > c->version) return 0;
    char what[128];
    snprintf(what, sizeof what, "%s %s", kind, name);
    pb_stmt *st;
    int rc = pb_db_prepare(c->s->db, select, &st);
    char why[PB_ERR_MAX];
    if (rc == PB_DB_OK) {
        rc = pb_db_step(st);
        snprintf(why, sizeof why, "%s", pb_db_errmsg(c->s->db));   /* before finalize can reset it */
        pb_db_finalize(st);
        if (rc == PB_DB_DONE || rc == PB_DB_ROW) return check_kind(c, kind, name, what);
    } else {
        snprintf(why, sizeof why, "%s", pb_db_errmsg(c->s->db));
    }
    /* a corrupt file, or a server that stopped answering, is not a store of another schema: say
     * which, in the back end's words either way */
    const pb_db_ops *ops = c->s->db->ops;
    if (ops->corrupt_code(rc) || !ops->schema_differs(c->s->db, rc)) {
        pb_errf(c->e, "%s: cannot read the store: %s", c->s->path, why);
        return PB_STORE_REFUSED;
    }
    size_t len = strlen(why);
    snprintf(why + len, sizeof why - len, " (asking for %s)", what);
    return mismatch(c, why);
}

int pb_schema_check(pb_store *s, int found, int version, pb_err *e)
{
    relation_check c = {.s = s, .found = found, .migrated = found != version ? version : 0, .version = version, .e = e};
    return each_relation(version >= 2, version == PB_SCHEMA_VERSION, check_relation, &c, e);
}
