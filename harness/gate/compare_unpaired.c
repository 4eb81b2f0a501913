/* SPDX-License-Identifier: GPL-2.0-only */
/* compare_unpaired.c — UNPAIRED comparison of two runs (compare_unpaired.h). */
#include "compare_unpaired.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "reads.h"
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

/* What the table of the cells two runs share needs while it is printed. */
typedef struct unpaired_ctx {
    pb_store *st;
    int64_t run_a, run_b;
    const char *suite;
    FILE *f;
    int header, rows;
    pb_err *e;
} unpaired_ctx;

/* What the table is, and its header: once, before its first line (or alone) */
static void unpaired_header(unpaired_ctx *x)
{
    if (x->header++) return;
    fprintf(x->f,
            "compare %s run %lld (B) against run %lld (A): UNPAIRED\n"
            "The runs were not made in one job (PB_JOB_ID differs or is unset), so no sample of B has a partner\n"
            "in A and the machine's state between the two sessions is unknown: every sample of B is set against\n"
            "every sample of A. Ratio = time per operation B/A (> 1: B is slower), Hodges-Lehmann estimate with\n"
            "the 95 %% Mann-Whitney CI; p: Mann-Whitney, two-sided. Not stored, not a gate decision.\n\n",
            x->suite, (long long)x->run_b, (long long)x->run_a);
    fprintf(x->f, "%-12s %-12s %-8s %9s %6s %6s %8s %20s %8s\n", "impl", "variant", "op", "bytes", "n A", "n B", "B/A",
            "95% CI", "p");
}

/* One cell and impl of both runs: its line of the table. 0, or -1 + e (out of memory). */
static int unpaired_row(void *ctx, const pb_case_key *k)
{
    unpaired_ctx *x = ctx;
    unpaired_header(x);
    FILE *f = x->f;
    char im[PB_NAME_MAX], va[PB_NAME_MAX], op[PB_NAME_MAX];
    snprintf(im, sizeof im, "%s", k->impl);
    snprintf(va, sizeof va, "%s", k->variant);
    snprintf(op, sizeof op, "%s", k->op);
    const pb_case_key key = {.impl = im, .variant = va, .op = op, .size = k->size};
    double *a = NULL, *b = NULL;
    size_t na = 0, nb = 0;
    int la = pb_store_case_times(x->st, x->run_a, &key, &a, &na);
    int lb = pb_store_case_times(x->st, x->run_b, &key, &b, &nb);
    pb_unpaired u;
    int ur = la || lb ? -2 : pb_unpaired_ratio(a, na, b, nb, &u);
    free(a);
    free(b);
    if (ur == -2) return pb_errf(x->e, "out of memory comparing samples");
    char sz[32], ci[48];
    pb_fmt_bytes(sz, sizeof sz, k->size);
    if (ur < 0) {
        fprintf(f, "%-12s %-12s %-8s %9s %6zu %6zu %8s %20s %8s\n", im, va, op, sz, na, nb, "-", "too few samples", "-");
    } else {
        snprintf(ci, sizeof ci, "[%.3f, %.3f]", u.lo, u.hi);
        fprintf(f, "%-12s %-12s %-8s %9s %6zu %6zu %8.3f %20s %8.4f\n", im, va, op, sz, na, nb, u.est, ci, u.p);
    }
    x->rows++;
    return 0;
}

/* run's suite and status (cap bytes each): 1, or 0 where there is no such run or it cannot be read */
static int run_row(pb_store *st, int64_t run, char *suite, size_t cap, char *status, size_t scap)
{
    pb_run_row r;
    if (pb_store_run_row(st, run, &r, NULL) != 1) return 0;
    snprintf(suite, cap, "%s", r.suite);
    snprintf(status, scap, "%s", r.status);
    return 1;
}

int pb_compare_unpaired(pb_store *st, int64_t run_a, int64_t run_b, const char *impl, FILE *f, pb_err *e)
{
    char sa[64], sb[64], xa[32], xb[32];
    if (!run_row(st, run_a, sa, sizeof sa, xa, sizeof xa)) return pb_errf(e, "no run %lld", (long long)run_a);
    if (!run_row(st, run_b, sb, sizeof sb, xb, sizeof xb)) return pb_errf(e, "no run %lld", (long long)run_b);
    if (strcmp(xa, "complete") || strcmp(xb, "complete"))
        return pb_errf(e, "run %lld is %s, run %lld is %s: only complete runs compare", (long long)run_a, xa,
                       (long long)run_b, xb);
    if (strcmp(sa, sb))
        return pb_errf(e, "run %lld is of suite %s, run %lld of suite %s: only runs of one suite compare",
                       (long long)run_a, sa, (long long)run_b, sb);
    unpaired_ctx x = {.st = st, .run_a = run_a, .run_b = run_b, .suite = sa, .f = f, .e = e};
    int rc = pb_store_each_common_case(st, run_a, run_b, impl, unpaired_row, &x, e);
    if (rc == 0) unpaired_header(&x);   /* no cell in common: the header, then why */
    if (rc == 0 && !x.rows)
        rc = pb_errf(e, "runs %lld and %lld have no cell in common%s%s", (long long)run_a, (long long)run_b,
                     impl ? " for impl " : "", impl ? impl : "");
    return rc;
}
