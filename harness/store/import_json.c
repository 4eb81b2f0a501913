/* SPDX-License-Identifier: GPL-2.0-only */
/* import_json.c — see import_json.h. A value of the file is one of the store's: text (a JSON
 * string), an integer, a real number, null, or {"float": "inf" | "-inf" | "nan"} for a real that
 * JSON cannot write (a CI's open end); which column takes which is the schema's business, as in
 * `bench merge`. */
#include "import_json.h"

#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "gz.h"
#include "store.h"

typedef struct jimport {
    const char *file;
    pb_restore r;      /* .s NULL: the checking pass, nothing written */
    pb_import_json_counts *n;
    pb_err *e;
} jimport;

int pb_import_is_json(const char *file)
{
    /* gzip'd (bench export --out FILE.gz), whatever its name: what it holds is read as JSON */
    int gz = pb_gz_is_gzip(file);
    if (gz != 0) return gz;
    FILE *f = fopen(file, "r");
    if (!f) return -1;
    int c;
    while ((c = fgetc(f)) != EOF && isspace(c)) {}
    fclose(f);
    return c == '{';
}

static int bad(jimport *j, const char *path, const char *what)
{
    j->n->refused = 1;
    return pb_errf(j->e, "%s: %s: %s", j->file, path, what);
}

/* value v of the file as a column c (named name): 0, or -1 + e naming path */
static int column_of(jimport *j, const char *path, const char *name, json_t *v, pb_column *c)
{
    *c = (pb_column){.name = name, .type = PB_DB_NULL};
    if (json_is_string(v)) { /* a NUL in a string is jansson's refusal (no JSON_ALLOW_NUL) */
        c->type = PB_DB_TEXT;
        c->text = json_string_value(v);
    } else if (json_is_integer(v)) {
        c->type = PB_DB_INTEGER;
        c->i = json_integer_value(v);
    } else if (json_is_real(v)) {
        c->type = PB_DB_FLOAT;
        c->d = json_real_value(v);
    } else if (json_is_object(v)) {
        const char *s = json_string_value(json_object_get(v, "float"));
        if (json_object_size(v) != 1 || !s) return bad(j, path, "an object that is not {\"float\": \"inf\"|\"-inf\"|\"nan\"}");
        c->type = PB_DB_FLOAT;
        if (!strcmp(s, "inf")) c->d = INFINITY;
        else if (!strcmp(s, "-inf")) c->d = -INFINITY;
        else if (!strcmp(s, "nan")) c->d = NAN;
        else return bad(j, path, "a \"float\" that is not \"inf\", \"-inf\" or \"nan\"");
    } else if (!json_is_null(v)) {
        return bad(j, path, "not text, a number, null or {\"float\": ...} (a column of the store)");
    }
    return 0;
}

static int rows_of(jimport *j, int t, json_t *list, int64_t parent, const char *path);

/* A run's own checks: complete (as every export's are), and a uuid, its identity across stores. */
static int run_checks(jimport *j, json_t *row, const char *path)
{
    char p[512];
    json_t *u = json_object_get(row, "uuid"), *st = json_object_get(row, "status");
    snprintf(p, sizeof p, "%s.uuid", path);
    if (!json_is_string(u) || !json_string_length(u)) return bad(j, p, "missing or not text: a run's uuid is its identity");
    snprintf(p, sizeof p, "%s.status", path);
    if (!json_is_string(st) || strcmp(json_string_value(st), "complete"))
        return bad(j, p, "not 'complete': only complete runs are exported and imported");
    return 0;
}

/* One row of table t: its columns, then (written) its children under its new id. */
static int row_of(jimport *j, int t, json_t *row, int64_t parent, const char *path)
{
    if (!json_is_object(row)) return bad(j, path, "not an object (a row)");
    if (t == PB_DUMP_RUNS && run_checks(j, row, path) < 0) return -1;
    pb_column c[PB_DUMP_MAXCOLS];
    int n = 0;
    const char *key;
    json_t *v;
    char p[512];
    json_object_foreach(row, key, v) {
        snprintf(p, sizeof p, "%s.%s", path, key);
        if (pb_dump_col(t, key) >= 0) {
            if (column_of(j, p, key, v, &c[n++]) < 0) return -1;
            continue;
        }
        int child = -1;
        for (int k = 0; k < PB_DUMP_NTABLES; k++)
            if (pb_dump_tables[k].up == t && !strcmp(pb_dump_tables[k].name, key)) child = k;
        if (child < 0) return bad(j, p, t == PB_DUMP_RUNS || t == PB_DUMP_CASES ? "no such column or table of the row"
                                                                                : "no such column");
        if (!json_is_array(v)) return bad(j, p, "not a list of rows");
    }
    if (t == PB_DUMP_RUNS && j->r.s) {
        int64_t have = pb_restore_run_by_uuid(j->r.s, json_string_value(json_object_get(row, "uuid")), j->e);
        if (have < 0) return -1;
        if (have > 0) {
            j->n->skipped++;
            return 0;
        }
    }
    int64_t id = 0;
    if (j->r.s && pb_restore_row(&j->r, t, parent, c, n, &id, j->e) < 0) {
        char why[sizeof j->e->msg];
        snprintf(why, sizeof why, "%s", j->e->msg);
        return bad(j, path, why);
    }
    if (t == PB_DUMP_RUNS && j->r.s) j->n->imported++;
    if (t == PB_DUMP_SAMPLES && j->r.s) j->n->samples++;
    for (int k = 0; k < PB_DUMP_NTABLES; k++) {
        if (pb_dump_tables[k].up != t) continue;
        json_t *list = json_object_get(row, pb_dump_tables[k].name);
        snprintf(p, sizeof p, "%s.%s", path, pb_dump_tables[k].name);
        if (list && rows_of(j, k, list, id, p) < 0) return -1;
    }
    return 0;
}

static int rows_of(jimport *j, int t, json_t *list, int64_t parent, const char *path)
{
    size_t i;
    json_t *row;
    char p[512];
    json_array_foreach(list, i, row) {
        snprintf(p, sizeof p, "%s[%zu]", path, i);
        if (row_of(j, t, row, parent, p) < 0) return -1;
    }
    return 0;
}

/* The document's head: ours, full, of a schema this bench can write. Its runs list, or NULL + e. */
static json_t *store_runs(jimport *j, json_t *root)
{
    const char *fmt = json_string_value(json_object_get(root, "format"));
    if (!fmt || strcmp(fmt, "patchbench-export"))
        return bad(j, "format", "not 'patchbench-export' (a file of bench export --format json)"), NULL;
    json_t *st = json_object_get(root, "store");
    if (!json_is_object(st))
        return bad(j, "store", "missing: the export has no rows to import (export it with --format json --full)"), NULL;
    json_t *ver = json_object_get(st, "schema_version"), *runs = json_object_get(st, "runs");
    if (!json_is_integer(ver) || json_integer_value(ver) < 1) return bad(j, "store.schema_version", "missing or not a version"), NULL;
    if (json_integer_value(ver) > PB_SCHEMA_VERSION)
        return bad(j, "store.schema_version", "newer than this bench's schema: use a newer bench"), NULL;
    if (!json_is_array(runs)) return bad(j, "store.runs", "missing or not a list of rows"), NULL;
    return runs;
}

/* The file's document, gunzipped first where it is gzip (its lines are those of the text within,
 * its size bounded: base/gz.h), or NULL + e (refused) */
static json_t *load(jimport *j)
{
    json_error_t je;
    json_t *root = NULL;
    int gz = pb_gz_is_gzip(j->file);
    if (gz == 1) {
        char *buf;
        size_t len;
        if (pb_gz_read_file(j->file, PB_GZ_MAX, &buf, &len, j->e) < 0) return j->n->refused = 1, NULL;
        root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
        free(buf);
    } else {
        root = json_load_file(j->file, JSON_REJECT_DUPLICATES, &je);
    }
    if (root) return root;
    j->n->refused = 1;
    if (je.line > 0) pb_errf(j->e, "%s:%d: %s", j->file, je.line, je.text);
    else pb_errf(j->e, "%s: %s", j->file, je.text);
    return NULL;
}

int pb_import_json(const char *db, const char *file, pb_import_json_counts *n, pb_err *e)
{
    *n = (pb_import_json_counts){0};
    jimport j = {.file = file, .n = n, .e = e};
    json_t *root = load(&j);
    if (!root) return -1;
    json_t *runs = json_is_object(root) ? store_runs(&j, root) : (bad(&j, "(top)", "not an object"), NULL);
    /* the checking pass: nothing is opened before the whole file is known good */
    if (!runs || rows_of(&j, PB_DUMP_RUNS, runs, 0, "store.runs") < 0) {
        json_decref(root);
        return -1;
    }
    pb_store st;
    if (pb_store_open(&st, db, e) < 0) {
        json_decref(root);
        return -1;
    }
    j.r = (pb_restore){.s = &st};
    int rc = pb_store_begin(&st, e);
    if (rc == 0) rc = rows_of(&j, PB_DUMP_RUNS, runs, 0, "store.runs");
    pb_restore_free(&j.r);
    if (rc == 0) rc = pb_store_commit(&st, e);
    else pb_store_rollback(&st);
    if (rc < 0) n->imported = n->skipped = 0, n->samples = 0;
    pb_store_close(&st);
    json_decref(root);
    return rc;
}
