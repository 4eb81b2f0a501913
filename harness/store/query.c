/* SPDX-License-Identifier: GPL-2.0-only */
/* query.c — see query.h */
#include "query.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"

void pb_query_vbind(pb_stmt *q, const char *types, va_list ap)
{
    for (int i = 1; types[i - 1]; i++) {
        switch (types[i - 1]) {
        case 'i': pb_db_bind_int64(q, i, va_arg(ap, int64_t)); break;
        case 'n': pb_db_bind_int(q, i, va_arg(ap, int)); break;
        case 'd': pb_db_bind_double(q, i, va_arg(ap, double)); break;
        case 't': pb_db_bind_text(q, i, va_arg(ap, const char *)); break;
        case 'r': {
            double v = va_arg(ap, double);
            if (isfinite(v)) pb_db_bind_double(q, i, v);
            else pb_db_bind_null(q, i);
            break;
        }
        case 'k': {
            int64_t v = va_arg(ap, int64_t);
            if (v >= 0) pb_db_bind_int64(q, i, v);
            else pb_db_bind_null(q, i);
            break;
        }
        default: pb_db_bind_null(q, i); break;
        }
    }
}

void pb_query_bind(pb_stmt *q, const char *types, ...)
{
    pb_db_reset(q);
    va_list ap;
    va_start(ap, types);
    pb_query_vbind(q, types, ap);
    va_end(ap);
}

/* the highest N of the ?N in sql */
static size_t params_of(const char *sql)
{
    size_t max = 0;
    for (const char *p = strchr(sql, '?'); p; p = strchr(p + 1, '?')) {
        size_t n = strtoul(p + 1, NULL, 10);
        if (n > max) max = n;
    }
    return max;
}

static int vquery(pb_store *s, pb_stmt **q, pb_err *e, const char *what, const char *sql, const char *types,
                  va_list ap)
{
    /* a caller's slip, caught where it is made rather than as a NULL in a column */
    if (params_of(sql) != strlen(types))
        return pb_errf(e, "%s: %s: %zu parameters given, the statement has %zu", s->path, what, strlen(types),
                       params_of(sql));
    if (pb_db_prepare(s->db, sql, q) != PB_DB_OK) return pb_store_sqlerr(s, e, what);
    pb_query_vbind(*q, types, ap);
    return 0;
}

int pb_query(pb_store *s, pb_stmt **q, pb_err *e, const char *what, const char *sql, const char *types, ...)
{
    va_list ap;
    va_start(ap, types);
    int rc = vquery(s, q, e, what, sql, types, ap);
    va_end(ap);
    return rc;
}

/* sql prepared, bound and stepped once: the step's code, *v the first column of the row it gave (v
 * may be NULL); -1 + e where it could not be prepared */
static int step_once(pb_store *s, int64_t *v, pb_err *e, const char *what, const char *sql, const char *types,
                     va_list ap)
{
    pb_stmt *q;
    if (vquery(s, &q, e, what, sql, types, ap) < 0) return -1;
    int rc = pb_db_step(q);
    if (rc == PB_DB_ROW && v) *v = pb_db_column_int64(q, 0);
    pb_db_finalize(q);
    return rc;
}

int pb_query_exec(pb_store *s, pb_err *e, const char *what, const char *sql, const char *types, ...)
{
    va_list ap;
    va_start(ap, types);
    int rc = step_once(s, NULL, e, what, sql, types, ap);
    va_end(ap);
    return rc == PB_DB_DONE ? 0 : rc < 0 ? -1 : pb_store_sqlerr(s, e, what);
}

int pb_query_int(pb_store *s, int64_t *v, pb_err *e, const char *what, const char *sql, const char *types, ...)
{
    va_list ap;
    va_start(ap, types);
    int rc = step_once(s, v, e, what, sql, types, ap);
    va_end(ap);
    return rc == PB_DB_ROW ? 1 : rc == PB_DB_DONE ? 0 : rc < 0 ? -1 : pb_store_sqlerr(s, e, what);
}

int pb_query_rows(pb_store *s, pb_stmt *q, pb_row_fn each, void *ctx, pb_err *e, const char *what)
{
    int rc = PB_DB_DONE, out = 0;
    while (!out && (rc = pb_db_step(q)) == PB_DB_ROW) out = each(ctx, q);
    if (!out && rc != PB_DB_DONE) out = pb_store_sqlerr(s, e, what);
    pb_db_finalize(q);
    return out;
}

double pb_query_real(pb_stmt *q, int i)
{
    return pb_db_column_type(q, i) == PB_DB_NULL ? NAN : pb_db_column_double(q, i);
}

void pb_query_metric_sample(pb_stmt *q, int col, pb_metric_sample *m)
{
    memset(m, 0, sizeof *m);
    m->iters = pb_db_column_double(q, col);
    m->ns = pb_db_column_double(q, col + 1);
    m->has_tsc = pb_db_column_type(q, col + 2) != PB_DB_NULL;
    m->tsc = pb_db_column_double(q, col + 2);
    m->has_cycles = pb_db_column_type(q, col + 3) != PB_DB_NULL;
    m->cycles = pb_db_column_double(q, col + 3);
    m->has_insns = pb_db_column_type(q, col + 4) != PB_DB_NULL;
    m->insns = pb_db_column_double(q, col + 4);
    m->probe_before = pb_db_column_double(q, col + 5);
    m->probe_after = pb_db_column_double(q, col + 6);
    m->has_cpu = pb_db_column_type(q, col + 7) != PB_DB_NULL;
    m->cpu = pb_db_column_double(q, col + 7);
}

int pb_query_grow(void **v, size_t *cap, size_t n, size_t sz)
{
    if (n < *cap) return 0;
    size_t nc = *cap ? 2 * *cap : 64;
    void *nv = realloc(*v, nc * sz);
    if (!nv) return -1;
    *v = nv;
    *cap = nc;
    return 0;
}
