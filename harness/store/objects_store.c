/* SPDX-License-Identifier: GPL-2.0-only */
/* objects_store.c — whose code a run timed (store.h pb_object_row, pb_store_run_user): the objects
 * table and the runs' user columns (docs/schema.md, version 6). */
#include <string.h>

#include "store.h"

/* text, or NULL for "" (unknown reads as NULL in the store) */
static void bind_text_or_null(pb_stmt *st, int i, const char *v)
{
    if (v && *v) pb_db_bind_text(st, i, v);
    else pb_db_bind_null(st, i);
}

/* st run to its end and finalized: 0, or -1 + e naming what */
static int step_done(pb_store *s, pb_stmt *st, const char *what, pb_err *e)
{
    int rc = pb_db_step(st);
    pb_db_finalize(st);
    return rc == PB_DB_DONE ? 0 : pb_store_sqlerr(s, e, what);
}

int pb_store_add_object(pb_store *s, int64_t run, const pb_object_row *o, pb_err *e)
{
    pb_stmt *st;
    if (pb_db_prepare(s->db,
                      "INSERT INTO objects (run_id, impl, path, real_path, size_bytes, sha256, elf, build_id, compiler,"
                      " flags, flags_source, producers, comment, needed, build_type, revision, repo)"
                      " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
                      &st) != PB_DB_OK)
        return pb_store_sqlerr(s, e, "insert object");
    pb_db_bind_int64(st, 1, run);
    pb_db_bind_text(st, 2, o->impl);
    pb_db_bind_text(st, 3, o->path);
    bind_text_or_null(st, 4, o->real_path);
    if (o->size >= 0) pb_db_bind_int64(st, 5, o->size);
    else pb_db_bind_null(st, 5);
    const char *text[] = {o->sha256, o->elf, o->build_id, o->compiler, o->flags, o->flags_source, o->producers,
                          o->comment, o->needed, o->build_type, o->revision, o->repo};
    for (int i = 0; i < (int)(sizeof text / sizeof text[0]); i++) bind_text_or_null(st, 6 + i, text[i]);
    return step_done(s, st, "insert object", e);
}

int pb_store_run_user(pb_store *s, int64_t run, const char *revision, const char *label, const char *repo,
                      const char *parity, pb_err *e)
{
    pb_stmt *st;
    if (pb_db_prepare(s->db,
                      "UPDATE runs SET user_revision = ?1, user_label = ?2, user_repo = ?3, build_parity = ?4"
                      " WHERE id = ?5", &st) != PB_DB_OK)
        return pb_store_sqlerr(s, e, "run user identity");
    const char *text[] = {revision, label, repo, parity};
    for (int i = 0; i < 4; i++) bind_text_or_null(st, 1 + i, text[i]);
    pb_db_bind_int64(st, 5, run);
    return step_done(s, st, "run user identity", e);
}
