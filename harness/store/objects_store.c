/* SPDX-License-Identifier: GPL-2.0-only */
/* objects_store.c — whose code a run timed (store.h pb_object_row, pb_store_run_user): the objects
 * table and the runs' user columns (docs/schema.md, version 6). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query.h"
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

/* ---- the sides as the outputs show them ---- */

static void copy_col(pb_stmt *q, int i, char *dst, size_t cap)
{
    const char *v = pb_db_column_type(q, i) == PB_DB_NULL ? NULL : pb_db_column_text(q, i);
    snprintf(dst, cap, "%s", v ? v : "");
}

static int side_row(void *ctx, pb_stmt *q)
{
    pb_run_sides *r = ctx;
    pb_side_id *nv = realloc(r->v, (size_t)(r->n + 1) * sizeof *nv);
    if (!nv) return 1;
    r->v = nv;
    pb_side_id *x = &r->v[r->n++];
    memset(x, 0, sizeof *x);
    copy_col(q, 0, x->impl, sizeof x->impl);
    copy_col(q, 1, x->path, sizeof x->path);
    copy_col(q, 2, x->sha256, sizeof x->sha256);
    copy_col(q, 3, x->build_id, sizeof x->build_id);
    copy_col(q, 4, x->revision, sizeof x->revision);
    copy_col(q, 5, x->label, sizeof x->label);
    copy_col(q, 6, r->parity, sizeof r->parity);
    return 0;
}

int pb_store_run_sides(pb_store *s, int64_t run, pb_run_sides *out, pb_err *e)
{
    memset(out, 0, sizeof *out);
    pb_stmt *q;
    /* the label is the user's side's: the run's candidate (runs.user_label, --label) */
    if (pb_query(s, &q, e, "the run's sides",
                 "SELECT o.impl, o.path, o.sha256, o.build_id, o.revision,"
                 " CASE WHEN o.impl = r.candidate THEN r.user_label END, r.build_parity"
                 " FROM objects o JOIN runs r ON r.id = o.run_id WHERE o.run_id = ?1 ORDER BY o.impl", "i", run) < 0)
        return -1;
    int rc = pb_query_rows(s, q, side_row, out, e, "the run's sides");
    if (rc != 0) {
        if (rc > 0) pb_errf(e, "out of memory reading the sides of run %lld", (long long)run);
        pb_run_sides_free(out);
        return -1;
    }
    return 0;
}

void pb_run_sides_free(pb_run_sides *r)
{
    free(r->v);
    r->v = NULL;
    r->n = 0;
}

void pb_side_line(const pb_side_id *x, int full, char *buf, size_t cap)
{
    /* the words a person knows the side by first, so that a line cut to the terminal keeps them */
    int w = full ? 128 : 12;
    int k = snprintf(buf, cap, "%s: revision %s", x->impl, x->revision[0] ? x->revision : "unknown");
    if (x->label[0] && k >= 0 && (size_t)k < cap) k += snprintf(buf + k, cap - (size_t)k, ", label %s", x->label);
    if (x->sha256[0] && k >= 0 && (size_t)k < cap)
        k += snprintf(buf + k, cap - (size_t)k, ", sha256 %.*s", w, x->sha256);
    if (x->build_id[0] && k >= 0 && (size_t)k < cap) snprintf(buf + k, cap - (size_t)k, ", build-id %.*s", w, x->build_id);
}

void pb_parity_verdict(const char *parity, char *buf, size_t cap)
{
    if (!parity || !*parity) {
        snprintf(buf, cap, "alike");
        return;
    }
    int n = 1;
    for (const char *p = parity; *p; p++) n += *p == '\n' && p[1];
    size_t first = strcspn(parity, "\n");
    snprintf(buf, cap, "differ: %d warning%s (%.*s)", n, n == 1 ? "" : "s", (int)(first > 300 ? 300 : first), parity);
}
