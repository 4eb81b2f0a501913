/* SPDX-License-Identifier: GPL-2.0-only */
/* import.c — the parser and store of `bench import`: the kernel module's result files.
 *
 * The file holds the kernel module's debugfs lines (docs/kmod.md). Only lines that
 * start with "pbk1 " are read, so a serial-console capture with kernel log noise
 * imports as is:
 *   pbk1 meta KEY=VALUE
 *   pbk1 selftest impl=I status=pass|fail detail=TEXT
 *   pbk1 sample suite=S impl=I variant=V op=O size=N round=R iters=N ns=N cycles=N
 *   pbk1 unavailable suite=S impl=I variant=V reason=TEXT
 *   pbk1 end
 * Every suite in the file becomes one run (target from `meta target`, or --target).
 * A file without `pbk1 end` is truncated and is refused; so is any malformed pbk1
 * line (file:line named). Nothing is stored unless the whole file is good: see import.h
 * for every check. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "import.h"
#include "metrics.h"
#include "pb_config.h"
#include "provenance.h"
#include "rsp.h"
#include "store.h"
#include "suite.h"

#define MAX_FIELDS 16
#define EXACT_DOUBLE_MAX (UINT64_C(1) << 53)

typedef struct kv {
    int n;
    char *k[MAX_FIELDS], *v[MAX_FIELDS];
} kv;

/* Split s on any whitespace into KEY=VALUE fields. NULL, or what is wrong. */
static const char *split_kv(char *s, kv *out)
{
    out->n = 0;
    for (;;) {
        while (isspace((unsigned char)*s)) s++;
        if (!*s) return NULL;
        char *t = s;
        while (*s && !isspace((unsigned char)*s)) s++;
        if (*s) *s++ = 0;
        char *eq = strchr(t, '=');
        if (!eq || eq == t) return "expected KEY=VALUE fields";
        if (out->n == MAX_FIELDS) return "too many fields";
        *eq = 0;
        for (int i = 0; i < out->n; i++)
            if (!strcmp(out->k[i], t)) return "a field is given twice";
        out->k[out->n] = t;
        out->v[out->n] = eq + 1;
        out->n++;
    }
}

static const char *get(const kv *f, const char *k)
{
    for (int i = 0; i < f->n; i++)
        if (!strcmp(f->k[i], k)) return f->v[i];
    return NULL;
}

/* Every key of f is in allowed (NULL-terminated)? NULL, or the first stranger. */
static const char *unknown_key(const kv *f, const char *const *allowed)
{
    for (int i = 0; i < f->n; i++) {
        int ok = 0;
        for (int j = 0; allowed[j] && !ok; j++) ok = !strcmp(f->k[i], allowed[j]);
        if (!ok) return f->k[i];
    }
    return NULL;
}

/* A decimal number in [lo, hi]: digits only (no sign, no space, no hex), no overflow. */
static int parse_u64(const char *v, uint64_t lo, uint64_t hi, uint64_t *out)
{
    if (!v || !*v) return -1;
    uint64_t x = 0;
    for (const char *p = v; *p; p++) {
        if (*p < '0' || *p > '9') return -1;
        unsigned d = (unsigned)(*p - '0');
        if (x > (UINT64_MAX - d) / 10) return -1;
        x = x * 10 + d;
    }
    if (x < lo || x > hi) return -1;
    *out = x;
    return 0;
}

/* Names reach SQL parameters, file names and plots: non-empty, short, and
 * from a character set with no quote, backquote, dollar, space or control. */
static int good_name(const char *v, size_t max)
{
    size_t n = strlen(v);
    if (n == 0 || n >= max) return 0;
    for (const char *p = v; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr("_.,:+-()/@%", *p)) return 0;
    return 1;
}

static int copy_name(pb_import_row *r, const kv *f, const char *key, char *dst, size_t max, const char *path,
                     pb_err *e)
{
    const char *v = get(f, key);
    if (!v) return pb_errf(e, "%s:%d: no %s= field", path, r->line, key);
    if (!good_name(v, max))
        return pb_errf(e, "%s:%d: %s='%.60s' is empty, longer than %zu bytes or has a character outside "
                       "[A-Za-z0-9_.,:+-()/@%%]", path, r->line, key, v, max - 1);
    memcpy(dst, v, strlen(v) + 1);
    return 0;
}

static int appendf(char **buf, size_t *len, const char *fmt, const char *a, const char *b)
{
    size_t need = strlen(fmt) + strlen(a) + strlen(b) + 1;
    char *p = realloc(*buf, *len + need);
    if (!p) return -1;
    *buf = p;
    *len += (size_t)snprintf(p + *len, need, fmt, a, b);
    return 0;
}

/* The kernel-module targets under the names a file or an option may give them. */
static const char *kernel_target(const char *t)
{
    if (!strcmp(t, "host")) return "kmod-host";
    if (!strcmp(t, "qemu")) return "qemu-tcg";
    return t;
}

void pb_import_free(pb_import *imp)
{
    free(imp->rows);
    free(imp->meta);
    memset(imp, 0, sizeof *imp);
}

typedef struct selftest_seen {
    char impl[PB_NAME_MAX];
    int failed, line;
} selftest_seen;

/* A suite's grid as its default options plan it: the variants and ops a row may name. */
typedef struct suite_grid {
    const pb_suite *suite;
    pb_grid grid;
} suite_grid;

/* What a file's lines have said so far, beyond the rows: its self-tests, its end, its target, and
 * the grids of its suites (planned once per file, at the suite's first row: xts's plan calibrates
 * its child-call cost, a tenth of a second that every row would otherwise pay). */
typedef struct parse_state {
    selftest_seen st[64];
    int nst, end_seen;
    char meta_target[PB_NAME_MAX];
    suite_grid grids[PB_IMPORT_MAX_SUITES];
    int ngrids;
} parse_state;

static void parse_state_free(parse_state *ps)
{
    for (int i = 0; i < ps->ngrids; i++) free(ps->grids[i].grid.cells);
    ps->ngrids = 0;
}

/* The grid of suite s, planned at its first row (line ln). NULL + e when it cannot be planned. */
static const pb_grid *grid_of(parse_state *ps, const pb_suite *s, const char *path, int ln, pb_err *e)
{
    for (int i = 0; i < ps->ngrids; i++)
        if (ps->grids[i].suite == s) return &ps->grids[i].grid;
    if (ps->ngrids == PB_IMPORT_MAX_SUITES) {
        pb_errf(e, "%s:%d: more than %d suites in one file", path, ln, PB_IMPORT_MAX_SUITES);
        return NULL;
    }
    suite_grid *sg = &ps->grids[ps->ngrids];
    pb_err why = {{0}};
    if (pb_suite_default_grid(s, &sg->grid, &why) < 0) {
        pb_errf(e, "%s:%d: cannot check the row against suite %s's grid: %s", path, ln, s->name, why.msg);
        return NULL;
    }
    sg->suite = s;
    ps->ngrids++;
    return &sg->grid;
}

/* The distinct variants of g (variant NULL), or the distinct ops of that variant, as "a, b, c". */
static void grid_names(const pb_grid *g, const char *variant, char *buf, size_t cap)
{
    size_t off = 0;
    buf[0] = 0;
    for (int i = 0; i < g->ncells && off < cap; i++) {
        const pb_cell *c = &g->cells[i];
        if (variant && strcmp(c->variant, variant)) continue;
        const char *name = variant ? c->op : c->variant;
        int seen = 0;
        for (int j = 0; j < i && !seen; j++) {
            const pb_cell *d = &g->cells[j];
            seen = (!variant || !strcmp(d->variant, variant)) && !strcmp(variant ? d->op : d->variant, name);
        }
        if (!seen) off += (size_t)snprintf(buf + off, cap - off, "%s%s", off ? ", " : "", name);
    }
}

/* A row's impl, variant, op and size are ones its suite has: the impls its kernel-module part
 * reports (suite.h kmod_impls), a (variant, op) of its grid, a size its check_size accepts (the
 * module's sizes are a parameter, as bench run's --sizes adds sizes to the grid: a size is outside
 * the suite only where the suite cannot build it). 0, or -1 + e naming the field. */
static int check_row_in_suite(const pb_import_row *r, const pb_suite *s, parse_state *ps, const char *path,
                              pb_err *e)
{
    int ln = r->line, known = 0;
    char list[400] = "";
    size_t off = 0;
    for (const char *const *k = s->kmod_impls; *k; k++) {
        known |= !strcmp(*k, r->impl);
        if (off < sizeof list) off += (size_t)snprintf(list + off, sizeof list - off, "%s%s", off ? ", " : "", *k);
    }
    if (!known)
        return pb_errf(e, "%s:%d: impl=%s is not one of suite %s's kernel-module impls (%s)", path, ln, r->impl,
                       s->name, list);
    const pb_grid *g = grid_of(ps, s, path, ln, e);
    if (!g) return -1;
    int variant_known = 0, cell_known = 0;
    for (int i = 0; i < g->ncells; i++) {
        if (strcmp(g->cells[i].variant, r->variant)) continue;
        variant_known = 1;
        cell_known |= !strcmp(r->op, "-") || !strcmp(g->cells[i].op, r->op);
    }
    if (!variant_known) {
        grid_names(g, NULL, list, sizeof list);
        return pb_errf(e, "%s:%d: variant=%s is not one of suite %s's variants (%s)", path, ln, r->variant, s->name,
                       list);
    }
    if (!cell_known) {
        grid_names(g, r->variant, list, sizeof list);
        return pb_errf(e, "%s:%d: op=%s is not an op of suite %s's variant %s (%s)", path, ln, r->op, s->name,
                       r->variant, list);
    }
    pb_err why = {{0}};
    if (!r->unavailable && r->size > PB_MAX_SIZE_BYTES)
        return pb_errf(e, "%s:%d: size=%llu is larger than any cell bench builds (%llu bytes)", path, ln,
                       (unsigned long long)r->size, (unsigned long long)PB_MAX_SIZE_BYTES);
    if (!r->unavailable && pb_suite_check_size(s, r->size, &why) < 0)
        return pb_errf(e, "%s:%d: size=%llu is not a size suite %s can have: %s", path, ln,
                       (unsigned long long)r->size, s->name, why.msg);
    return 0;
}

/* A meta whole number from 0 to max into *out; -1 + e otherwise. */
static int meta_number(const char *k, const char *v, int64_t max, const char *path, int ln, int64_t *out, pb_err *e)
{
    size_t n = strspn(v, "0123456789");
    if (!n || n > 15 || v[n] || strtoll(v, NULL, 10) > max)
        return pb_errf(e, "%s:%d: meta %s= wants a whole number from 0 to %lld, got '%.40s'", path, ln, k,
                       (long long)max, v);
    *out = strtoll(v, NULL, 10);
    return 0;
}

/* meta hypervisor_cpuid=HEX (the 12 bytes of CPUID 0x40000000's signature, as the module writes
 * them) or none: the hypervisor's name into id */
static int meta_hypervisor(const char *v, const char *path, int ln, pb_cpu_identity *id, pb_err *e)
{
    if (!strcmp(v, "none")) {
        snprintf(id->hypervisor, sizeof id->hypervisor, "none (no hypervisor flag in the kernel under test)");
        return 0;
    }
    char sig[13] = "";
    if (strlen(v) != 24 || strspn(v, "0123456789abcdef") != 24)
        return pb_errf(e, "%s:%d: meta hypervisor_cpuid= wants 24 hex digits or none, got '%.40s'", path, ln, v);
    for (int i = 0; i < 12; i++) {
        char byte[3] = {v[2 * i], v[2 * i + 1], 0};
        sig[i] = (char)strtol(byte, NULL, 16);
    }
    pb_hypervisor_name(sig, id->hypervisor, sizeof id->hypervisor);
    return 0;
}

/* The CPU identity's meta keys (kmod/main.c writes them): 1 when k is one (and v was taken), 0
 * when it is not, -1 + e for a value that is not one. */
static int meta_identity(const char *k, const char *v, const char *path, int ln, pb_cpu_identity *id, pb_err *e)
{
    static const char *const int_keys[] = {"cpu_family", "cpu_model_number", "cpu_stepping", "threads_per_core"};
    static const char *const cache_keys[PB_NCACHES] = {"cache_l1d_bytes", "cache_l1i_bytes", "cache_l2_bytes",
                                                       "cache_l3_bytes"};
    int *ints[] = {&id->family, &id->model, &id->stepping, &id->threads_per_core};
    int64_t x = 0;
    for (size_t i = 0; i < sizeof int_keys / sizeof int_keys[0]; i++)
        if (!strcmp(k, int_keys[i])) {
            if (meta_number(k, v, 1000000, path, ln, &x, e) < 0) return -1;
            *ints[i] = (int)x;
            return 1;
        }
    for (int i = 0; i < PB_NCACHES; i++)
        if (!strcmp(k, cache_keys[i])) {
            if (meta_number(k, v, 1ll << 40, path, ln, &x, e) < 0) return -1;
            id->cache[i] = x;
            return 1;
        }
    int vendor = !strcmp(k, "cpu_vendor"), microcode = !strcmp(k, "microcode");
    if (vendor || microcode) {
        char *dst = vendor ? id->vendor : id->microcode;
        size_t cap = vendor ? sizeof id->vendor : sizeof id->microcode;
        if (strlen(v) >= cap || strchr(v, ' '))
            return pb_errf(e, "%s:%d: meta %s= is not a %s", path, ln, k, vendor ? "CPU vendor" : "microcode revision");
        memcpy(dst, v, strlen(v) + 1);
        return 1;
    }
    if (!strcmp(k, "hypervisor_cpuid")) return meta_hypervisor(v, path, ln, id, e) < 0 ? -1 : 1;
    return 0;
}

/* pbk1 meta KEY=VALUE...: kept for the run's options; target, guest_kernel/kernel, cpu and the CPU
 * identity read */
static int parse_meta(const kv *fl, const char *path, int ln, pb_import *imp, parse_state *ps, pb_err *e)
{
    if (!fl->n) return pb_errf(e, "%s:%d: meta without KEY=VALUE", path, ln);
    for (int i = 0; i < fl->n; i++) {
        const char *k = fl->k[i], *v = fl->v[i];
        for (const char *c = k; *c; c++)
            if (!islower((unsigned char)*c) && !isdigit((unsigned char)*c) && *c != '_')
                return pb_errf(e, "%s:%d: meta key '%.40s' is not [a-z0-9_]+", path, ln, k);
        for (const char *c = v; *c; c++)
            if (!isprint((unsigned char)*c) || strchr("'\"`$\\", *c))
                return pb_errf(e, "%s:%d: meta %s= has a control, quote, backquote, $ or \\ character", path, ln, k);
        if (!strcmp(k, "target")) {
            if (*ps->meta_target && strcmp(ps->meta_target, v))
                return pb_errf(e, "%s:%d: meta target=%.40s contradicts an earlier target=%s", path, ln, v,
                               ps->meta_target);
            if (!good_name(v, PB_NAME_MAX)) return pb_errf(e, "%s:%d: meta target= is not a name", path, ln);
            memcpy(ps->meta_target, v, strlen(v) + 1);
        }
        int gk = !strcmp(k, "guest_kernel") || !strcmp(k, "kernel"), cpu = !strcmp(k, "cpu");
        if ((gk && strlen(v) >= sizeof imp->guest_kernel) || (cpu && strlen(v) >= sizeof imp->cpu))
            return pb_errf(e, "%s:%d: meta %s= is longer than the store keeps", path, ln, k);
        if (!strcmp(k, "guest_kernel") || (!strcmp(k, "kernel") && !*imp->guest_kernel))
            memcpy(imp->guest_kernel, v, strlen(v) + 1);
        if (cpu) memcpy(imp->cpu, v, strlen(v) + 1);
        if (meta_identity(k, v, path, ln, &imp->cpu_id, e) < 0) return -1;
        size_t len = imp->meta ? strlen(imp->meta) : 0;
        if (appendf(&imp->meta, &len, " %s=%s", k, v) < 0) return pb_errf(e, "%s:%d: out of memory", path, ln);
    }
    return 0;
}

/* A self-test line names an impl of some suite's kernel-module part (the sigpool part's reuse the
 * xts part's names); another name is a line the module does not write. */
static int kmod_impl_known(const char *impl)
{
    for (int i = 0; pb_suites[i]; i++)
        for (const char *const *k = pb_suites[i]->kmod_impls; k && *k; k++)
            if (!strcmp(*k, impl)) return 1;
    return 0;
}

/* pbk1 selftest impl=I status=pass|fail [detail=TEXT]: once per impl, never contradicted */
static int parse_selftest(const kv *fl, const char *path, int ln, pb_import *imp, parse_state *ps, pb_err *e)
{
    static const char *const keys[] = {"impl", "status", "detail", NULL};
    const char *k = unknown_key(fl, keys), *impl = get(fl, "impl"), *status = get(fl, "status");
    if (k) return pb_errf(e, "%s:%d: selftest has an unknown field %.40s=", path, ln, k);
    if (!impl || !good_name(impl, PB_NAME_MAX) || !status || (strcmp(status, "pass") && strcmp(status, "fail")))
        return pb_errf(e, "%s:%d: selftest needs impl=NAME and status=pass|fail", path, ln);
    if (!kmod_impl_known(impl))
        return pb_errf(e, "%s:%d: selftest of impl=%s, which no suite's kernel-module part has", path, ln, impl);
    int failed = !strcmp(status, "fail");
    for (int i = 0; i < ps->nst; i++)
        if (!strcmp(ps->st[i].impl, impl)) {
            if (ps->st[i].failed != failed)
                return pb_errf(e, "%s:%d: selftest of %s contradicts line %d", path, ln, impl, ps->st[i].line);
            return 0;
        }
    if (ps->nst == 64) return pb_errf(e, "%s:%d: more than 64 self-tested impls", path, ln);
    selftest_seen *seen = &ps->st[ps->nst++];
    memcpy(seen->impl, impl, strlen(impl) + 1);
    seen->failed = failed;
    seen->line = ln;
    size_t len = imp->meta ? strlen(imp->meta) : 0;
    if (appendf(&imp->meta, &len, " selftest:%s=%s", impl, status) < 0)
        return pb_errf(e, "%s:%d: out of memory", path, ln);
    return 0;
}

/* a sample line's numbers, each range-checked into r */
static int parse_sample_numbers(const kv *fl, const char *path, int ln, pb_import_row *r, pb_err *e)
{
    uint64_t round, iters;
    static const char what[] = "is missing, not a whole number or out of range";
    if (parse_u64(get(fl, "size"), 1, INT64_MAX, &r->size))
        return pb_errf(e, "%s:%d: sample field size= %s (1 .. 2^63-1 bytes)", path, ln, what);
    if (parse_u64(get(fl, "round"), 0, INT_MAX, &round))
        return pb_errf(e, "%s:%d: sample field round= %s (0 .. %d)", path, ln, what, INT_MAX);
    if (parse_u64(get(fl, "iters"), 1, INT64_MAX, &iters))
        return pb_errf(e, "%s:%d: sample field iters= %s (1 .. 2^63-1)", path, ln, what);
    if (parse_u64(get(fl, "ns"), 1, EXACT_DOUBLE_MAX, &r->ns))
        return pb_errf(e, "%s:%d: sample field ns= %s (1 .. 2^53)", path, ln, what);
    r->has_cycles = get(fl, "cycles") != NULL;
    if (r->has_cycles && parse_u64(get(fl, "cycles"), 0, EXACT_DOUBLE_MAX, &r->cycles))
        return pb_errf(e, "%s:%d: sample field cycles= %s (0 .. 2^53)", path, ln, what);
    r->round = (int)round;
    r->iters = (int64_t)iters;
    return 0;
}

/* pbk1 sample ... or pbk1 unavailable ...: one row of a known suite with a kernel-module part */
static int parse_row(const char *kind, const kv *fl, const char *path, int ln, pb_import *imp, parse_state *ps,
                     pb_err *e)
{
    int sample = !strcmp(kind, "sample");
    static const char *const sample_keys[] = {"suite", "impl", "variant", "op", "size", "round", "iters", "ns",
                                              "cycles", NULL};
    static const char *const unavail_keys[] = {"suite", "impl", "variant", "op", "reason", NULL};
    const char *k = unknown_key(fl, sample ? sample_keys : unavail_keys);
    if (k) return pb_errf(e, "%s:%d: %s has an unknown field %.40s=", path, ln, kind, k);
    if (imp->nrows % 256 == 0) {
        pb_import_row *rows = realloc(imp->rows, (size_t)(imp->nrows + 256) * sizeof *rows);
        if (!rows) return pb_errf(e, "%s:%d: out of memory", path, ln);
        imp->rows = rows;
    }
    pb_import_row *r = &imp->rows[imp->nrows];
    memset(r, 0, sizeof *r);
    r->line = ln;
    r->unavailable = !sample;
    if (copy_name(r, fl, "suite", r->suite, sizeof r->suite, path, e) ||
        copy_name(r, fl, "impl", r->impl, sizeof r->impl, path, e) ||
        copy_name(r, fl, "variant", r->variant, sizeof r->variant, path, e))
        return -1;
    if (sample || get(fl, "op")) {
        if (copy_name(r, fl, "op", r->op, sizeof r->op, path, e)) return -1;
    } else {
        memcpy(r->op, "-", 2);
    }
    const pb_suite *rs = pb_suite_find(r->suite);
    if (!rs) return pb_errf(e, "%s:%d: unknown suite '%s' (bench list shows them)", path, ln, r->suite);
    if (!rs->kmod_impls)
        return pb_errf(e, "%s:%d: suite %s has no kernel-module part: its results cannot come from the module", path,
                       ln, r->suite);
    if (!sample) {
        if (copy_name(r, fl, "reason", r->reason, sizeof r->reason, path, e)) return -1;
    } else {
        if (parse_sample_numbers(fl, path, ln, r, e) < 0) return -1;
    }
    if (check_row_in_suite(r, rs, ps, path, e) < 0) return -1;
    if (sample) imp->nsamples++;
    int known = 0;
    for (int i = 0; i < imp->nsuites; i++) known |= !strcmp(imp->suites[i], r->suite);
    if (!known) {
        if (imp->nsuites == PB_IMPORT_MAX_SUITES)
            return pb_errf(e, "%s:%d: more than %d suites in one file", path, ln, PB_IMPORT_MAX_SUITES);
        memcpy(imp->suites[imp->nsuites++], r->suite, sizeof r->suite);
    }
    imp->nrows++;
    return 0;
}

/* One pbk1 line (p: what follows "pbk1 "), by its record kind. */
static int parse_line(char *p, const char *path, int ln, pb_import *imp, parse_state *ps, pb_err *e)
{
    while (isspace((unsigned char)*p)) p++;
    char *kind = p;
    while (*p && !isspace((unsigned char)*p)) p++;
    if (*p) *p++ = 0;
    if (!*kind) return pb_errf(e, "%s:%d: empty pbk1 line", path, ln);
    kv fl;
    const char *bad = split_kv(p, &fl);
    if (bad) return pb_errf(e, "%s:%d: %s after '%s'", path, ln, bad, kind);
    if (!strcmp(kind, "end")) {
        if (fl.n) return pb_errf(e, "%s:%d: 'pbk1 end' takes no fields", path, ln);
        ps->end_seen = 1;
        return 0;
    }
    if (!strcmp(kind, "meta")) return parse_meta(&fl, path, ln, imp, ps, e);
    if (!strcmp(kind, "selftest")) return parse_selftest(&fl, path, ln, imp, ps, e);
    if (strcmp(kind, "sample") && strcmp(kind, "unavailable"))
        return pb_errf(e, "%s:%d: unknown record kind '%.40s' (meta, selftest, sample, unavailable, end)", path, ln,
                       kind);
    return parse_row(kind, &fl, path, ln, imp, ps, e);
}

/* Where "pbk1" starts a word followed by whitespace, or NULL: console noise around it is allowed. */
static char *find_pbk1(char *line)
{
    for (char *p = line; (p = strstr(p, "pbk1")); p += 4)
        if ((p == line || isspace((unsigned char)p[-1]) || p[-1] == ']') && isspace((unsigned char)p[4]))
            return p + 4;
    return NULL;
}

/* Rows in the order that puts what must be stored once side by side: one impl's rows of one
 * variant together, first its unavailable lines without op (they cover every op), then by op, an
 * op's unavailable lines before its samples, by size and round, and rows equal in all of that by
 * line. */
static int row_order(const void *pa, const void *pb)
{
    const pb_import_row *a = *(const pb_import_row *const *)pa, *b = *(const pb_import_row *const *)pb;
    int c;
    if ((c = strcmp(a->suite, b->suite)) || (c = strcmp(a->impl, b->impl)) || (c = strcmp(a->variant, b->variant)))
        return c;
    const int a_all = !strcmp(a->op, "-"), b_all = !strcmp(b->op, "-");
    if (a_all != b_all) return b_all - a_all;
    if ((c = strcmp(a->op, b->op))) return c;
    if (a->unavailable != b->unavailable) return b->unavailable - a->unavailable;
    if (a->size != b->size) return a->size < b->size ? -1 : 1;
    if (a->round != b->round) return a->round < b->round ? -1 : 1;
    return a->line - b->line;
}

static int same_impl_variant(const pb_import_row *a, const pb_import_row *b)
{
    return !strcmp(a->suite, b->suite) && !strcmp(a->impl, b->impl) && !strcmp(a->variant, b->variant);
}

/* Two rows that say one thing twice or contradict each other: `later` is the one further down. */
typedef enum { ROWS_REPEATED = 1, ROWS_SECOND_SAMPLE, ROWS_UNAVAILABLE_TWICE, ROWS_UNAVAILABLE_AND_SAMPLED } rows_clash;
typedef struct row_conflict {
    const pb_import_row *later, *earlier;
    rows_clash kind;
} row_conflict;

/* Keep the conflict whose later line comes first in the file: the line a reader fixes first. */
static void note_conflict(row_conflict *c, const pb_import_row *a, const pb_import_row *b, rows_clash kind)
{
    const pb_import_row *later = a->line > b->line ? a : b, *earlier = a->line > b->line ? b : a;
    if (!c->later || later->line < c->later->line) *c = (row_conflict){later, earlier, kind};
}

static int conflict_message(const row_conflict *c, const char *path, pb_err *e)
{
    const pb_import_row *r = c->later, *p = c->earlier;
    const pb_import_row *smp = r->unavailable ? p : r, *un = r->unavailable ? r : p;
    const int has_op = strcmp(r->op, "-") != 0;
    switch (c->kind) {
    case ROWS_REPEATED:
        return pb_errf(e, "%s:%d: repeats the sample on line %d (a sample is stored once)", path, r->line, p->line);
    case ROWS_SECOND_SAMPLE:
        return pb_errf(e, "%s:%d: a second sample of %s %s variant=%s op=%s size=%llu round=%d (the first is on line "
                       "%d): one sample per impl, cell and round", path, r->line, r->suite, r->impl, r->variant, r->op,
                       (unsigned long long)r->size, r->round, p->line);
    case ROWS_UNAVAILABLE_TWICE:
        return pb_errf(e, "%s:%d: %s %s variant=%s%s%s is unavailable a second time (line %d said so first)", path,
                       r->line, r->suite, r->impl, r->variant, has_op ? " op=" : "", has_op ? r->op : "", p->line);
    default:
        return pb_errf(e, "%s:%d: %s %s variant=%s op=%s is both unavailable (line %d) and sampled (line %d): an impl "
                       "of a cell is one or the other", path, r->line, smp->suite, smp->impl, smp->variant, smp->op,
                       un->line, smp->line);
    }
}

/* The first row (by line) that says again what an earlier row said: the second sample of one
 * (impl, cell, round), a second unavailable line of one impl and variant (and op), or a sample of
 * an impl that a line calls unavailable in that cell. Each would be stored as something no run of
 * the module makes: two samples where the ratio pairs one per round, a reason overwritten, a cell
 * both measured and not. Sorted, so that a file of a million rows is checked in n log n. 0, or
 * -1 + e at the later of the two lines. */
static int check_rows_once(const pb_import *imp, const char *path, pb_err *e)
{
    if (imp->nrows < 2) return 0;
    const pb_import_row **v = malloc((size_t)imp->nrows * sizeof *v);
    if (!v) return pb_errf(e, "%s: out of memory", path);
    for (int i = 0; i < imp->nrows; i++) v[i] = &imp->rows[i];
    qsort(v, (size_t)imp->nrows, sizeof *v, row_order);
    row_conflict c = {0};
    const pb_import_row *all = NULL, *op_unavailable = NULL;   /* of the current impl and variant, and op */
    for (int k = 0; k < imp->nrows; k++) {
        const pb_import_row *p = k ? v[k - 1] : NULL, *r = v[k];
        const int same_variant = p && same_impl_variant(p, r), same_op = same_variant && !strcmp(p->op, r->op);
        if (!same_variant) all = NULL;
        if (!same_op) op_unavailable = NULL;
        if (r->unavailable) {
            /* an unavailable line without op covers every op of the variant; row_order puts an op's
             * unavailable line before its samples, so both are known before the samples come */
            if (same_op && p->unavailable) note_conflict(&c, p, r, ROWS_UNAVAILABLE_TWICE);
            if (!strcmp(r->op, "-") && !all) all = r;
            if (!op_unavailable) op_unavailable = r;
            continue;
        }
        if (same_op && !p->unavailable && p->size == r->size && p->round == r->round)
            note_conflict(&c, p, r, p->iters == r->iters && p->ns == r->ns && p->has_cycles == r->has_cycles &&
                                    p->cycles == r->cycles ? ROWS_REPEATED : ROWS_SECOND_SAMPLE);
        if (op_unavailable || all) note_conflict(&c, op_unavailable ? op_unavailable : all, r, ROWS_UNAVAILABLE_AND_SAMPLED);
    }
    free(v);
    return c.later ? conflict_message(&c, path, e) : 0;
}

int pb_import_parse(FILE *f, const char *path, const char *target_override, pb_import *imp, pb_err *e)
{
    memset(imp, 0, sizeof *imp);
    pb_cpu_identity_unknown(&imp->cpu_id);
    char *line = NULL;
    size_t cap = 0, n = 0;
    int ln = 0, rc = 0, got;
    parse_state ps = {.nst = 0};
    const selftest_seen *st = ps.st;
    const char *meta_target = ps.meta_target;
    while (rc == 0 && (got = pb_read_line(f, &line, &cap, PB_LINE_MAX, &n)) > 0) {
        ln++;
        if (memchr(line, 0, n)) { rc = pb_errf(e, "%s:%d: NUL byte in a text results file", path, ln); break; }
        /* a UTF-8 byte-order mark (a file saved by a Windows editor) is no console noise: left in
         * front of "pbk1" it would hide the first line, and its meta or sample would be lost */
        char *start = ln == 1 && n >= 3 && !memcmp(line, "\xef\xbb\xbf", 3) ? line + 3 : line;
        char *p = find_pbk1(start);
        if (!p) continue;
        if (ps.end_seen) { rc = pb_errf(e, "%s:%d: data after 'pbk1 end'", path, ln); break; }
        rc = parse_line(p, path, ln, imp, &ps, e);
    }
    if (rc == 0 && got == -2) rc = pb_errf(e, "%s:%d: line longer than %u bytes", path, ln + 1, PB_LINE_MAX);
    if (rc == 0 && got == -1) rc = pb_errf(e, "%s:%d: read error: %s", path, ln + 1, strerror(errno));
    free(line);
    if (rc == 0 && !ps.end_seen)
        rc = pb_errf(e, "%s: no 'pbk1 end' line: the results are truncated (the module or guest stopped early)", path);
    parse_state_free(&ps);
    if (rc == 0 && imp->nsamples == 0) rc = pb_errf(e, "%s: no samples in the file", path);
    for (int i = 0; rc == 0 && i < imp->nrows; i++)
        for (int j = 0; rc == 0 && j < ps.nst; j++)
            if (st[j].failed && !imp->rows[i].unavailable && !strcmp(st[j].impl, imp->rows[i].impl))
                rc = pb_errf(e, "%s:%d: sample of %s, whose self-test failed on line %d: its numbers measure "
                             "wrong code", path, imp->rows[i].line, imp->rows[i].impl, st[j].line);
    if (rc == 0) rc = check_rows_once(imp, path, e);
    if (rc == 0) {
        const char *t = target_override ? target_override : *meta_target ? meta_target : "import";
        if (!good_name(t, sizeof imp->target))
            rc = pb_errf(e, "%s: target '%.60s' is not a name", path, t);
        else if (!strcmp(t, "userspace"))
            rc = pb_errf(e, "%s: target 'userspace' contradicts the data: these are kernel-module results", path);
        else if (target_override && *meta_target && strcmp(kernel_target(target_override), kernel_target(meta_target)))
            rc = pb_errf(e, "%s: --target %s contradicts the file's 'meta target=%s'", path, target_override,
                         meta_target);
        else
            memcpy(imp->target, t, strlen(t) + 1);
    }
    if (rc == 0 && !imp->meta && !(imp->meta = strdup(""))) rc = pb_errf(e, "%s: out of memory", path);
    if (rc < 0) pb_import_free(imp);
    return rc < 0 ? -1 : 0;
}

static int store_import(pb_store *st, const pb_import *imp, const char *path, const char *cmdline, int64_t *runs,
                        int *nruns, pb_err *e)
{
    pb_provenance prov;
    pb_provenance_collect(&prov, NULL);
    /* the numbers were not made on this machine: say what we know of the one that made them */
    snprintf(prov.kernel, sizeof prov.kernel, "%s", *imp->guest_kernel ? imp->guest_kernel : "unknown (imported)");
    snprintf(prov.cpu_model, sizeof prov.cpu_model, "%s", *imp->cpu ? imp->cpu : "unknown (imported)");
    snprintf(prov.cpu_flags, sizeof prov.cpu_flags, "unknown (imported)");
    snprintf(prov.clock_source, sizeof prov.clock_source, "ktime_get_ns (kernel under test)");
    snprintf(prov.governor, sizeof prov.governor, "unknown (imported)");
    snprintf(prov.boost, sizeof prov.boost, "unknown (imported)");
    prov.cpu = imp->cpu_id;   /* the module's machine, as far as the file says (unknown otherwise) */
    size_t olen = 0;
    char *opts = NULL;
    if (appendf(&opts, &olen, "imported from %s;%s", path, imp->meta) < 0)
        return pb_errf(e, "%s: out of memory", path);
    if (pb_store_begin(st, e) < 0) { free(opts); return -1; }
    int64_t run_of[PB_IMPORT_MAX_SUITES];
    int rc = 0;
    for (int i = 0; rc == 0 && i < imp->nsuites; i++) {
        const pb_suite *s = pb_suite_find(imp->suites[i]);
        unsigned metrics = PB_M_NS_PER_OP | PB_M_TSC_PER_BYTE | (s->metrics & (PB_M_MB_PER_S | PB_M_GBIT_PER_S));
        const char *base = s->kmod_baseline, *cand = s->kmod_candidate;   /* parse: s has a kmod part */
        pb_run_info ri = {
            .suite = s->name, .target = imp->target, .command_line = cmdline, .options = opts,
            .tick_source = "get_cycles() (TSC) in the kernel under test",
            .counter_source = "none: ktime_get_ns and get_cycles in the kernel", .tsc_hz = 0,
            .metrics = metrics, .baseline = base, .candidate = cand,
            .primary_metric = pb_suite_primary_metric(s),
            .guest_kernel = *imp->guest_kernel ? imp->guest_kernel : NULL,
            /* --cpu pins a thread of this process, not the guest's or the module's */
            .cpu_affinity = "not pinned: kernel-module results (measured in the kernel under test, outside bench)",
            .loadavg_start = -1,
        };
        if ((run_of[i] = pb_store_begin_run(st, &ri, &prov, e)) < 0) rc = -1;
    }
    for (int i = 0; rc == 0 && i < imp->nrows; i++) {
        const pb_import_row *r = &imp->rows[i];
        int si = 0;
        while (strcmp(imp->suites[si], r->suite)) si++;
        if (r->unavailable) {
            if (pb_store_add_case(st, run_of[si], r->suite, r->impl, r->variant, r->op, r->size, 0, "unavailable",
                                  r->reason, e) < 0)
                rc = -1;
            continue;
        }
        int64_t cid = pb_store_add_case(st, run_of[si], r->suite, r->impl, r->variant, r->op, r->size, r->iters,
                                        "ok", NULL, e);
        if (cid < 0) { rc = -1; break; }
        pb_sample smp = {.round = r->round, .position = 0, .repetition = 0, .iterations = r->iters,
                         .ns = (double)r->ns, .cpu_ns = -1, .tsc = r->has_cycles ? (double)r->cycles : 0,
                         .cycles = -1, .insns = -1, .wait_ns = -1, .steal_ns = -1};
        rc = pb_store_add_sample(st, cid, &smp, e);
    }
    free(opts);
    if (rc < 0 || pb_store_commit(st, e) < 0) {
        pb_store_rollback(st);
        return -1;
    }
    for (int i = 0; i < imp->nsuites; i++) {
        const pb_suite *s = pb_suite_find(imp->suites[i]);
        if (pb_store_finalize_run_pairs(st, run_of[i], s ? s->kmod_ratio_pairs : NULL, e) < 0) {
            pb_err e2;
            pb_store_end_run(st, run_of[i], "failed", e->msg, &e2);
            return -1;
        }
        if (*nruns < PB_IMPORT_MAX_SUITES) runs[(*nruns)++] = run_of[i];
    }
    return 0;
}

int pb_import_file(const char *db, const char *path, const char *target_override, const char *cmdline,
                   int64_t *runs, int *nruns, pb_err *e)
{
    FILE *f = fopen(path, "r");
    if (!f) return pb_errf(e, "%s: cannot open: %s", path, strerror(errno));
    pb_import imp;
    int rc = pb_import_parse(f, path, target_override, &imp, e);
    fclose(f);
    if (rc < 0) return -1;
    /* the store is opened only for a file that passed every check: a refused file leaves no
     * trace, not even a new empty database */
    pb_store st;
    rc = pb_store_open(&st, db, e);
    if (rc == 0) {
        rc = store_import(&st, &imp, path, cmdline, runs, nruns, e);
        pb_store_close(&st);
    }
    pb_import_free(&imp);
    return rc;
}
