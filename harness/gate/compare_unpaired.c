/* SPDX-License-Identifier: GPL-2.0-only */
/* compare_unpaired.c — UNPAIRED comparison of two runs (compare_unpaired.h). */
#include "compare_unpaired.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "stats.h"

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

int pb_unpaired_ratio(const double *a, size_t na, const double *b, size_t nb, pb_unpaired *out)
{
    if (na < 2 || nb < 2) return -1;
    size_t nd = na * nb;
    double *d = malloc(nd * sizeof *d);
    if (!d) return -2;
    /* log ratios: the shift of log(time) is the ratio of times */
    size_t k = 0;
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++) d[k++] = log(b[j]) - log(a[i]);
    qsort(d, nd, sizeof *d, cmp_double);
    double est = nd % 2 ? d[nd / 2] : 0.5 * (d[nd / 2 - 1] + d[nd / 2]);
    /* the CI's order statistics: C = nm/2 - z sqrt(nm(n+m+1)/12) (Hollander & Wolfe, normal approx.) */
    double m = (double)na, n = (double)nb, z = pb_norm_quantile(0.975);
    double c = floor(m * n / 2 - z * sqrt(m * n * (m + n + 1) / 12));
    size_t ci = c < 0 ? 0 : (size_t)c;
    if (ci >= nd) ci = nd - 1;
    out->est = exp(est);
    out->lo = exp(d[ci]);
    out->hi = exp(d[nd - 1 - ci]);
    /* Mann-Whitney U = #{b_j > a_i} + ties/2, its normal approximation */
    double u = 0;
    for (size_t i = 0; i < nd; i++) u += d[i] > 0 ? 1 : d[i] == 0 ? 0.5 : 0;
    double mu = m * n / 2, sd = sqrt(m * n * (m + n + 1) / 12);
    double zz = sd > 0 ? (fabs(u - mu) - 0.5) / sd : 0;
    out->p = zz > 0 ? 2 * (1 - pb_norm_cdf(zz)) : 1;
    out->na = na;
    out->nb = nb;
    free(d);
    return 0;
}

/* the per-operation times of one case of run in (impl, variant, op, size) */
static int load_times(pb_db *db, int64_t run, const char *impl, const char *variant, const char *op, int64_t size,
                      double **v, size_t *n)
{
    pb_stmt *q;
    *v = NULL;
    *n = 0;
    if (pb_db_prepare(db,
                           "SELECT s.ns / s.iterations FROM samples s JOIN cases c ON c.id = s.case_id"
                           " WHERE c.run_id = ?1 AND c.impl = ?2 AND c.variant = ?3 AND c.op = ?4 AND c.size_bytes = ?5"
                           " AND s.iterations > 0 AND s.ns > 0", &q) != PB_DB_OK)
        return -1;
    pb_db_bind_int64(q, 1, run);
    pb_db_bind_text(q, 2, impl);
    pb_db_bind_text(q, 3, variant);
    pb_db_bind_text(q, 4, op);
    pb_db_bind_int64(q, 5, size);
    size_t cap = 0;
    int rc = 0;
    while (pb_db_step(q) == PB_DB_ROW) {
        if (*n == cap) {
            cap = cap ? cap * 2 : 64;
            double *nv = realloc(*v, cap * sizeof *nv);
            if (!nv) { rc = -2; break; }
            *v = nv;
        }
        (*v)[(*n)++] = pb_db_column_double(q, 0);
    }
    pb_db_finalize(q);
    return rc;
}

static int run_row(pb_db *db, int64_t run, char *suite, size_t cap, char *status, size_t scap)
{
    pb_stmt *q;
    if (pb_db_prepare(db, "SELECT suite, status FROM runs WHERE id = ?1", &q) != PB_DB_OK) return 0;
    pb_db_bind_int64(q, 1, run);
    int found = pb_db_step(q) == PB_DB_ROW;
    if (found) {
        snprintf(suite, cap, "%s", pb_db_column_text(q, 0));
        snprintf(status, scap, "%s", pb_db_column_text(q, 1));
    }
    pb_db_finalize(q);
    return found;
}

int pb_compare_unpaired(pb_store *st, int64_t run_a, int64_t run_b, const char *impl, FILE *f, pb_err *e)
{
    char sa[64], sb[64], xa[32], xb[32];
    if (!run_row(st->db, run_a, sa, sizeof sa, xa, sizeof xa)) return pb_errf(e, "no run %lld", (long long)run_a);
    if (!run_row(st->db, run_b, sb, sizeof sb, xb, sizeof xb)) return pb_errf(e, "no run %lld", (long long)run_b);
    if (strcmp(xa, "complete") || strcmp(xb, "complete"))
        return pb_errf(e, "run %lld is %s, run %lld is %s: only complete runs compare", (long long)run_a, xa,
                       (long long)run_b, xb);
    if (strcmp(sa, sb))
        return pb_errf(e, "run %lld is of suite %s, run %lld of suite %s: only runs of one suite compare",
                       (long long)run_a, sa, (long long)run_b, sb);
    pb_stmt *q;
    if (pb_db_prepare(st->db,
                           "SELECT a.impl, a.variant, a.op, a.size_bytes FROM cases a JOIN cases b"
                           " ON b.run_id = ?2 AND b.impl = a.impl AND b.variant = a.variant AND b.op = a.op"
                           " AND b.size_bytes = a.size_bytes WHERE a.run_id = ?1 AND a.status = 'ok' AND b.status = 'ok'"
                           " AND a.impl = coalesce(?3, a.impl) ORDER BY a.variant, a.op, a.size_bytes, a.impl", &q) != PB_DB_OK)
        return pb_errf(e, "%s: %s", st->path, pb_db_errmsg(st->db));
    pb_db_bind_int64(q, 1, run_a);
    pb_db_bind_int64(q, 2, run_b);
    if (impl) pb_db_bind_text(q, 3, impl);
    fprintf(f,
            "compare %s run %lld (B) against run %lld (A): UNPAIRED\n"
            "The runs were not made in one job (PB_JOB_ID differs or is unset), so no sample of B has a partner\n"
            "in A and the machine's state between the two sessions is unknown: every sample of B is set against\n"
            "every sample of A. Ratio = time per operation B/A (> 1: B is slower), Hodges-Lehmann estimate with\n"
            "the 95 %% Mann-Whitney CI; p: Mann-Whitney, two-sided. Not stored, not a gate decision.\n\n",
            sa, (long long)run_b, (long long)run_a);
    fprintf(f, "%-12s %-12s %-8s %9s %6s %6s %8s %20s %8s\n", "impl", "variant", "op", "bytes", "n A", "n B", "B/A",
            "95% CI", "p");
    int rows = 0, rc = 0;
    while (rc == 0 && pb_db_step(q) == PB_DB_ROW) {
        char im[PB_NAME_MAX], va[PB_NAME_MAX], op[PB_NAME_MAX];
        snprintf(im, sizeof im, "%s", pb_db_column_text(q, 0));
        snprintf(va, sizeof va, "%s", pb_db_column_text(q, 1));
        snprintf(op, sizeof op, "%s", pb_db_column_text(q, 2));
        int64_t size = pb_db_column_int64(q, 3);
        double *a = NULL, *b = NULL;
        size_t na = 0, nb = 0;
        int la = load_times(st->db, run_a, im, va, op, size, &a, &na);
        int lb = load_times(st->db, run_b, im, va, op, size, &b, &nb);
        pb_unpaired u;
        int ur = la || lb ? -2 : pb_unpaired_ratio(a, na, b, nb, &u);
        free(a);
        free(b);
        if (ur == -2) { rc = pb_errf(e, "out of memory comparing samples"); break; }
        char sz[32], ci[48];
        pb_fmt_bytes(sz, sizeof sz, size);
        if (ur < 0) {
            fprintf(f, "%-12s %-12s %-8s %9s %6zu %6zu %8s %20s %8s\n", im, va, op, sz, na, nb, "-", "too few samples", "-");
        } else {
            snprintf(ci, sizeof ci, "[%.3f, %.3f]", u.lo, u.hi);
            fprintf(f, "%-12s %-12s %-8s %9s %6zu %6zu %8.3f %20s %8.4f\n", im, va, op, sz, na, nb, u.est, ci, u.p);
        }
        rows++;
    }
    pb_db_finalize(q);
    if (rc == 0 && !rows)
        rc = pb_errf(e, "runs %lld and %lld have no cell in common%s%s", (long long)run_a, (long long)run_b,
                     impl ? " for impl " : "", impl ? impl : "");
    return rc;
}
