/* SPDX-License-Identifier: GPL-2.0-only */
/* callgrind_fn.c — see callgrind_fn.h */
#include "callgrind_fn.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* suffixes that name a copy of a function, not another function: GCC's clones */
static const char *const CLONE_MARKS[] = {".constprop.", ".isra.", ".part.", ".lto_priv.", ".cold"};
/* the lab's copy suffixes: scripts/native_copy.py, impls/prims_names.h */
static const char *const COPY_SUFFIXES[] = {"_native", "_prims"};

/* the kernel-profile copies' retpoline thunks, one per register (impls/common/retpoline.S): which
 * register the compiler picked for an indirect call is not another function */
#define THUNK "__x86_indirect_thunk_"

/* is every character of s one of set's? (a loop, not strspn: GCC 12's -Wstringop-overread takes
 * name + the prefix's length for a region of size 0 in the sanitizer build) */
static int all_of(const char *s, const char *set)
{
    for (; *s; s++)
        if (!strchr(set, *s)) return 0;
    return 1;
}

void pb_cg_fn_canonical(const char *name, char *out, size_t cap)
{
    size_t n = strlen(name);
    const size_t t = sizeof THUNK - 1;
    if (n > t && !strncmp(name, THUNK, t) && all_of(name + t, "abcdehilprsx0123456789")) n = t - 1;
    /* callgrind's recursion level: "f'2" */
    const char *q = strrchr(name, '\'');
    if (q && q > name && q[1] && strspn(q + 1, "0123456789") == strlen(q + 1)) n = (size_t)(q - name);
    /* the first clone mark cuts the rest: ".constprop.0.isra.0", ".part.0.cold" */
    for (size_t i = 0; i < sizeof CLONE_MARKS / sizeof CLONE_MARKS[0]; i++) {
        const char *m = strstr(name, CLONE_MARKS[i]);
        if (m && m > name && (size_t)(m - name) < n) n = (size_t)(m - name);
    }
    for (size_t i = 0; i < sizeof COPY_SUFFIXES / sizeof COPY_SUFFIXES[0]; i++) {
        size_t k = strlen(COPY_SUFFIXES[i]);
        if (n > k && !strncmp(name + n - k, COPY_SUFFIXES[i], k)) n -= k;
    }
    if (cap) snprintf(out, cap, "%.*s", (int)(n < cap ? n : cap - 1), name);
}

/* the parse's state: the name ids, the functions, where the next cost lines go */
typedef struct fn_parse {
    const char *path;
    int line, npos;
    pb_cg_fns *f;
    size_t cap;
    long *id_fn;        /* name id -> index in f->fn, -1 unset */
    size_t nid;
    long cur;           /* current function, -1 before any fn= */
    int call_pending;   /* a calls= line: its cost line is inclusive, not cur's */
} fn_parse;

static long fn_index(fn_parse *p, const char *name, pb_err *e)
{
    char canon[PB_CG_FN_NAME];
    pb_cg_fn_canonical(name, canon, sizeof canon);
    for (size_t i = 0; i < p->f->n; i++)
        if (!strcmp(p->f->fn[i].name, canon)) return (long)i;
    if (p->f->n == p->cap) {
        size_t nc = p->cap ? 2 * p->cap : 64;
        pb_cg_fn *g = realloc(p->f->fn, nc * sizeof *g);
        if (!g) return pb_errf(e, "out of memory"), -2;
        p->f->fn = g;
        p->cap = nc;
    }
    pb_cg_fn *x = &p->f->fn[p->f->n];
    memset(x, 0, sizeof *x);
    memcpy(x->name, canon, sizeof canon);
    return (long)p->f->n++;
}

/* "(id) name", "(id)" or "name" after fn=/cfn=: the function's index, or -2 + e */
static long name_ref(fn_parse *p, const char *v, int define_only, pb_err *e)
{
    if (*v != '(') return *v ? (define_only ? 0 : fn_index(p, v, e)) : (pb_errf(e, "%s:%d: empty function name", p->path, p->line), -2);
    char *end;
    errno = 0;
    unsigned long id = strtoul(v + 1, &end, 10);
    if (errno || end == v + 1 || *end != ')' || id >= (1ul << 24))
        return pb_errf(e, "%s:%d: bad name id '%.20s'", p->path, p->line, v), -2;
    const char *name = end + 1 + strspn(end + 1, " \t");
    if (id >= p->nid) {
        size_t nn = (id + 1) * 2;
        long *g = realloc(p->id_fn, nn * sizeof *g);
        if (!g) return pb_errf(e, "out of memory"), -2;
        for (size_t i = p->nid; i < nn; i++) g[i] = -1;
        p->id_fn = g;
        p->nid = nn;
    }
    if (*name) {
        long k = fn_index(p, name, e);
        if (k < 0) return k;
        if (p->id_fn[id] >= 0 && p->id_fn[id] != k)
            return pb_errf(e, "%s:%d: name id (%lu) defined twice", p->path, p->line, id), -2;
        p->id_fn[id] = k;
        return k;
    }
    if (p->id_fn[id] < 0) return pb_errf(e, "%s:%d: name id (%lu) used before it is defined", p->path, p->line, id), -2;
    return p->id_fn[id];
}

/* the positions and events of a cost line; added to cur unless it is a call's */
static int cost_line(fn_parse *p, const char *s, pb_err *e)
{
    uint64_t v[PB_CG_MAX_EVENTS] = {0};
    int npos = 0, k = 0, nev = p->f->counts.nevents;
    while (*s) {
        s += strspn(s, " \t");
        if (!*s) break;
        size_t len = strcspn(s, " \t");
        if (npos < p->npos) {
            /* a position: absolute (decimal or 0x hex), relative (+N, -N) or the same (*) */
            const char *d = s + (*s == '+' || *s == '-');
            if (!(len == 1 && *s == '*') && (d == s + len || !isxdigit((unsigned char)*d)))
                return pb_errf(e, "%s:%d: bad position '%.*s'", p->path, p->line, (int)len, s);
            npos++;
        } else {
            if (k == nev) return pb_errf(e, "%s:%d: more costs than the %d events", p->path, p->line, nev);
            char *end;
            errno = 0;
            if (!isdigit((unsigned char)*s)) return pb_errf(e, "%s:%d: bad cost '%.*s'", p->path, p->line, (int)len, s);
            v[k++] = strtoull(s, &end, 10);
            if (errno || end != s + len) return pb_errf(e, "%s:%d: bad cost '%.*s'", p->path, p->line, (int)len, s);
        }
        s += len;
    }
    if (npos < p->npos) return pb_errf(e, "%s:%d: a cost line without its positions", p->path, p->line);
    if (p->call_pending) { p->call_pending = 0; return 0; }   /* inclusive: the callee's, counted there */
    if (p->cur < 0 && (p->cur = fn_index(p, "???", e)) < 0) return -1;
    for (int i = 0; i < nev; i++) p->f->fn[p->cur].cost[i] += v[i];
    return 0;
}

static int body_line(fn_parse *p, const char *s, pb_err *e)
{
    if (p->call_pending && !(isdigit((unsigned char)*s) || *s == '+' || *s == '-' || *s == '*'))
        return pb_errf(e, "%s:%d: a calls= line without its cost line", p->path, p->line);
    if (isdigit((unsigned char)*s) || *s == '+' || *s == '-' || *s == '*') return cost_line(p, s, e);
    if (!strncmp(s, "fn=", 3)) {
        long k = name_ref(p, s + 3, 0, e);
        if (k < 0) return -1;
        p->cur = k;
    } else if (!strncmp(s, "cfn=", 4) || !strncmp(s, "cfnc=", 5)) {
        /* defines a name id the later fn= may use; the callee is not cur */
        if (name_ref(p, s + (s[3] == '=' ? 4 : 5), 1, e) < -1) return -1;
    } else if (!strncmp(s, "calls=", 6)) {
        p->call_pending = 1;
    } else if (!strncmp(s, "positions:", 10)) {
        p->npos = 0;
        for (const char *t = s + 10; *(t += strspn(t, " \t")); t += strcspn(t, " \t")) p->npos++;
        if (p->npos < 1 || p->npos > 2) return pb_errf(e, "%s:%d: positions '%s'", p->path, p->line, s + 10);
    }
    /* fl= fi= fe= ob= cfi= cfl= cob= jump= jcnd= and header keys: not the function's, not a cost */
    return 0;
}

static int by_cost(const void *a, const void *b)
{
    const pb_cg_fn *x = a, *y = b;
    if (x->cost[0] != y->cost[0]) return x->cost[0] < y->cost[0] ? 1 : -1;
    return strcmp(x->name, y->name);
}

/* every function's cost against the totals, then the ones with no cost out, largest first */
static int close_sum(fn_parse *p, int check, pb_err *e)
{
    pb_cg_fns *f = p->f;
    for (int i = 0; check && i < f->counts.nevents; i++) {
        uint64_t sum = 0;
        for (size_t k = 0; k < f->n; k++) sum += f->fn[k].cost[i];
        if (sum != f->counts.total[i])
            return pb_errf(e, "%s: the functions' %s add up to %llu, the totals say %llu", p->path, f->counts.event[i],
                           (unsigned long long)sum, (unsigned long long)f->counts.total[i]);
    }
    size_t m = 0;
    for (size_t k = 0; k < f->n; k++) {
        int any = 0;
        for (int i = 0; i < f->counts.nevents; i++) any |= f->fn[k].cost[i] != 0;
        if (any) f->fn[m++] = f->fn[k];
    }
    f->n = m;
    if (m) qsort(f->fn, m, sizeof *f->fn, by_cost);
    return 0;
}

int pb_cg_fns_parse_text(const char *path, const char *text, pb_cg_fns *f, pb_err *e)
{
    memset(f, 0, sizeof *f);
    if (pb_cg_parse_text(path, text, &f->counts, e) < 0) return -1;
    fn_parse p = {.path = path, .f = f, .cur = -1, .npos = 1};
    int rc = 0;
    for (const char *s = text; *s && rc == 0;) {
        p.line++;
        size_t len = strcspn(s, "\n");
        char *buf = malloc(len + 1);
        if (!buf) { rc = pb_errf(e, "out of memory"); break; }
        memcpy(buf, s, len);
        buf[len] = 0;
        if (len && buf[len - 1] == '\r') buf[len - 1] = 0;
        if (buf[0] && buf[0] != '#') rc = body_line(&p, buf, e);
        free(buf);
        s += len + (s[len] == '\n');
    }
    if (rc == 0 && p.call_pending) rc = pb_errf(e, "%s: the file ends after a calls= line", path);
    /* totals: is the sum of the cost lines; summary: alone may count a client request more */
    if (rc == 0) rc = close_sum(&p, !strncmp(text, "totals:", 7) || strstr(text, "\ntotals:"), e);
    free(p.id_fn);
    if (rc < 0) pb_cg_fns_free(f);
    return rc;
}

int pb_cg_fns_parse_file(const char *path, pb_cg_fns *f, pb_err *e)
{
    memset(f, 0, sizeof *f);
    char *text = pb_cg_read_file(path, e);
    if (!text) return -1;
    int rc = pb_cg_fns_parse_text(path, text, f, e);
    free(text);
    return rc;
}

void pb_cg_fns_free(pb_cg_fns *f)
{
    free(f->fn);
    f->fn = NULL;
    f->n = 0;
}

int pb_cg_fns_event(const pb_cg_fns *f, const char *event)
{
    for (int i = 0; i < f->counts.nevents; i++)
        if (!strcmp(f->counts.event[i], event)) return i;
    return -1;
}
