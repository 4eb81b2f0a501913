/* SPDX-License-Identifier: GPL-2.0-only */
/* valgrind.c — see valgrind.h */
#include "valgrind.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gcrypt.h>
#include <math.h>
#include <openssl/crypto.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "fmt.h"
#include "pb_spawn.h"
#include "pb_valgrind.h"

#include "callgrind_parse.h"
#include "metrics.h"
#include "reads.h"
#include "common/gcrypt_init.h"

extern char **environ;

static const char *const VG_CACHE[] = {"--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64"};
const char *const pb_vg_tool_options[] = {"-q", "--tool=callgrind", "--cache-sim=yes", "--branch-sim=yes",
                                          "--dump-instr=no", "--I1=32768,8,64", "--D1=32768,8,64",
                                          "--LL=8388608,16,64", NULL};

/* ---- figures ---- */

double pb_vg_model_cycles(const pb_vg_counts *k)
{
    double acc = (double)k->ir + (double)k->dr + (double)k->dw;
    double l1m = (double)k->i1mr + (double)k->d1mr + (double)k->d1mw;
    double llm = (double)k->ilmr + (double)k->dlmr + (double)k->dlmw;
    double l1_hits = acc - l1m, ll_hits = l1m - llm;
    return l1_hits + 5 * ll_hits + 35 * llm + 15 * ((double)k->bcm + (double)k->bim);
}

void pb_vg_metrics_of(const pb_vg_case *c, int rep, pb_vg_metrics *m)
{
    const pb_vg_counts *k = &c->rep[rep];
    double n = (double)c->iters;
    m->insns_per_op = (double)k->ir / n;
    m->insns_per_byte = c->size ? (double)k->ir / n / (double)c->size : NAN;
    m->l1_miss_per_op = ((double)k->i1mr + (double)k->d1mr + (double)k->d1mw) / n;
    m->ll_miss_per_op = ((double)k->ilmr + (double)k->dlmr + (double)k->dlmw) / n;
    m->branch_miss_per_op = ((double)k->bcm + (double)k->bim) / n;
    m->model_cycles_per_op = pb_vg_model_cycles(k) / n;
}

double pb_vg_spread(const pb_vg_case *c)
{
    double lo = INFINITY, hi = 0;
    for (int r = 0; r < c->reps; r++) {
        lo = fmin(lo, (double)c->rep[r].ir);
        hi = fmax(hi, (double)c->rep[r].ir);
    }
    return c->reps > 1 && lo > 0 ? hi / lo - 1 : 0;
}

void pb_vg_range(const pb_vg_case *c, const char *metric, double *lo, double *med, double *hi)
{
    double v[4];
    int n = c->reps < 4 ? c->reps : 4;
    for (int r = 0; r < n; r++) {
        pb_vg_metrics m;
        pb_vg_metrics_of(c, r, &m);
        v[r] = pb_vg_metric_value(&m, metric);
        for (int k = r; k > 0 && v[k] < v[k - 1]; k--) {
            double x = v[k];
            v[k] = v[k - 1];
            v[k - 1] = x;
        }
    }
    if (n < 1) { *lo = *med = *hi = NAN; return; }
    *lo = v[0];
    *hi = v[n - 1];
    *med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The per-op figures in the order of pb_vg_metrics; names, units and words are metrics.c's. */
static const char *const VG_METRICS[] = {"insns_per_op", "insns_per_byte", "l1_miss_per_op", "ll_miss_per_op",
                                         "branch_miss_per_op", "model_cycles_per_op"};
#define NVG (sizeof VG_METRICS / sizeof VG_METRICS[0])

int pb_vg_metric_known(const char *metric) { return pb_metric_valgrind(metric); }

double pb_vg_metric_value(const pb_vg_metrics *m, const char *metric)
{
    const double v[NVG] = {m->insns_per_op, m->insns_per_byte, m->l1_miss_per_op, m->ll_miss_per_op,
                           m->branch_miss_per_op, m->model_cycles_per_op};
    for (size_t i = 0; i < NVG; i++)
        if (!strcmp(metric, VG_METRICS[i])) return v[i];
    return NAN;
}

void pb_vg_cpu_features(char *buf, size_t cap)
{
    __builtin_cpu_init();
    buf[0] = 0;
#define F(x) if (__builtin_cpu_supports(x)) snprintf(buf + strlen(buf), cap - strlen(buf), "%s%s", *buf ? " " : "", x);
    F("sse4.2") F("aes") F("pclmul") F("avx") F("avx2") F("bmi2") F("vaes") F("vpclmulqdq") F("avx512f") F("avx512vl")
    F("sha")
#undef F
}

/* ---- what can be counted ---- */

static int refuse_external(const pb_suite *s, pb_err *e)
{
    return pb_errf(e, "--measure valgrind counts the instructions bench runs in its own process; the %s suite's "
                   "cases run another program and time it from outside (one process per sample), so there is "
                   "nothing in bench to count: run that program under valgrind --tool=callgrind yourself, or "
                   "measure wall time (--measure time)", s->name);
}

/* impl k of cell c set up, asked whether its case has a body, freed: 1 external, 0 in process,
 * -1 not set up (unavailable, an error: the run says so in its own words) */
static int case_is_external(const pb_suite *s, void *opts, const pb_cell *c, const char *impl)
{
    pb_case k = {0};
    pb_err ignored = {{0}};
    if (s->setup_case(opts, c, impl, &k, &ignored) != PB_SETUP_OK) return -1;
    int external = k.external_sample != NULL || k.body == NULL;
    if (k.free_ctx) k.free_ctx(k.ctx);
    return external;
}

int pb_vg_check_countable(const pb_suite *s, void *opts, const pb_grid *g, pb_err *e)
{
    if (s->count_sample) {
        /* its programs are counted in their own processes (valgrind_ext.c), by valgrind on PATH */
        char vg[1024];
        if (pb_find_program("valgrind", vg, sizeof vg)) return 0;
        return pb_errf(e, "cannot count the %s suite's programs: valgrind is not on PATH (Debian package valgrind; "
                          "scripts/setup.sh installs it)", s->name);
    }
    for (int i = 0; i < g->ncells; i++)
        for (int k = 0; k < g->cells[i].nimpls; k++) {
            char what[256];
            /* the lab's own code only: a plug-in's set-up is run in a cage, never here */
            if (pb_suite_user_code(s, opts, g->cells[i].impls[k], what, sizeof what)) continue;
            int x = case_is_external(s, opts, &g->cells[i], g->cells[i].impls[k]);
            if (x >= 0) return x ? refuse_external(s, e) : 0;
        }
    return 0;
}

/* ---- the child ---- */

/* tabs and newlines out of a reason, so that cases.tsv stays one record a line */
static void clean(char *s)
{
    for (; *s; s++)
        if (*s == '\t' || *s == '\n' || *s == '\r') *s = ' ';
}

/* What run-time dispatch keys on, as this process sees it: CPUID, libgcrypt's hardware features,
 * OpenSSL's version (its capability vector is internal; it follows CPUID). */
static void libraries_view(char *buf, size_t cap)
{
    char feat[256];
    pb_vg_cpu_features(feat, sizeof feat);
    pb_gcrypt_init();
    char *hwf = gcry_get_config(0, "hwflist");
    if (hwf) clean(hwf);
    snprintf(buf, cap, "cpuid: %s; libgcrypt %s %s; %s", feat, gcry_check_version(NULL), hwf ? hwf : "hwflist: ?",
             OpenSSL_version(OPENSSL_VERSION));
    gcry_free(hwf);
}

/* codepath.txt in dir: the libraries as this child sees them under valgrind, then the suite's
 * start-up settings as it applied them (runs.suite_settings). 0, or -1 + e. */
static int write_codepath(const pb_runner_opts *o, const char *dir, pb_err *e)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/codepath.txt", dir);
    FILE *f = fopen(path, "w");
    if (!f) return pb_errf(e, "%s: %s", path, strerror(errno));
    char libs[512];
    libraries_view(libs, sizeof libs);
    const char *eff = pb_suite_effective_options(o->suite, o->suite_opts);
    clean(libs);
    char settings[512];
    snprintf(settings, sizeof settings, "%s", eff ? eff : "");
    clean(settings);
    fprintf(f, "under valgrind: %s\n%s\n", libs, settings);
    return fclose(f) != 0 ? pb_errf(e, "%s: write error", path) : 0;
}

int pb_vg_child(const pb_runner_opts *o, const char *dir, int reps, pb_err *e)
{
    if (!RUNNING_ON_VALGRIND)
        return pb_errf(e, "--vg-child is bench's own (bench run --measure valgrind starts it under valgrind)");
    if (reps < 1 || reps > 4) return pb_errf(e, "--vg-reps wants 1 to 4");
    const pb_suite *s = o->suite;
    pb_grid g;
    if (pb_runner_grid(o, &g, e) < 0) return -1;
    char path[1024];
    if (write_codepath(o, dir, e) < 0) { free(g.cells); return -1; }
    snprintf(path, sizeof path, "%s/cases.tsv", dir);
    FILE *f = fopen(path, "w");
    if (!f) { free(g.cells); return pb_errf(e, "%s: %s", path, strerror(errno)); }
    char tested[PB_MAX_IMPLS * 4][PB_NAME_MAX];
    char why[PB_MAX_IMPLS * 4][PB_ERR_MAX];
    int ntested = 0, dump = 0, rc = 0;
    CALLGRIND_START_INSTRUMENTATION;
    for (int i = 0; i < g.ncells && rc == 0; i++) {
        const pb_cell *cell = &g.cells[i];
        char where[3 * PB_NAME_MAX + 32];
        if (o->progress)
            fprintf(stderr, "bench: valgrind [%d/%d] %s %s\n", i + 1, g.ncells, s->name,
                    pb_fmt_cell(where, sizeof where, cell->variant, cell->op, cell->size_bytes));
        for (int k = 0; k < cell->nimpls && rc == 0; k++) {
            const char *impl = cell->impls[k];
            int t = 0;
            while (t < ntested && strcmp(tested[t], impl)) t++;
            if (t == ntested && t < (int)(sizeof tested / sizeof tested[0])) {
                pb_err se = {{0}};
                snprintf(tested[t], PB_NAME_MAX, "%s", impl);
                why[t][0] = 0;
                if (pb_suite_selftest(s, o->suite_opts, impl, &se) != 0)
                    snprintf(why[t], PB_ERR_MAX, "self-test: %s", se.msg[0] ? se.msg : "(no reason)");
                ntested++;
            }
            pb_err ce = {{0}};
            pb_case c = {0};
            if (t < ntested && why[t][0]) {
                /* as the wall-time runner: an impl that fails its known answers is refused, not counted */
                rc = pb_errf(e, "refusing to count %s/%s: it failed its known-answer %s", s->name, impl, why[t]);
                break;
            }
            pb_setup_status st = s->setup_case(o->suite_opts, cell, impl, &c, &ce);
            if (st == PB_SETUP_ERROR) {
                /* as the wall-time runner: a set-up error fails the run; unavailable is stored */
                rc = pb_errf(e, "%s/%s %s: %s", s->name, impl,
                             pb_fmt_cell(where, sizeof where, cell->variant, cell->op, cell->size_bytes),
                             ce.msg[0] ? ce.msg : "set-up failed");
                break;
            }
            if (st == PB_SETUP_UNAVAILABLE) {
                if (!ce.msg[0]) snprintf(ce.msg, sizeof ce.msg, "unavailable");
            } else ce.msg[0] = 0;
            if (!ce.msg[0] && !c.body) {
                /* an external sample (gbench, exec): refused, never called (the parent refuses first) */
                if (c.free_ctx) c.free_ctx(c.ctx);
                rc = refuse_external(s, e);
                break;
            }
            if (ce.msg[0]) {
                clean(ce.msg);
                fprintf(f, "unavailable\t%s\t%s\t%s\t%llu\t%s\n", impl, cell->variant, cell->op,
                        (unsigned long long)cell->size_bytes, ce.msg);
                continue;
            }
            for (int r = 0; r < reps; r++) {
                /* Named before the counting starts (snprintf must not be counted). The counts are
                 * cleared by a dump of their own, not by CALLGRIND_ZERO_STATS: after ZERO_STATS the
                 * next dump still held a part of what ran before it (measured: +0.15 % Ir at xts
                 * 64 B, growing with the work before), while after a dump repetitions agree. */
                char warm[64], name[64];
                snprintf(warm, sizeof warm, "pbwarm %d", ++dump);
                snprintf(name, sizeof name, "pbcase %d", ++dump);
                c.body(c.ctx, 1);   /* warm caches and lazy state: not counted */
                CALLGRIND_DUMP_STATS_AT(warm);
                c.body(c.ctx, PB_VG_ITERS);
                CALLGRIND_DUMP_STATS_AT(name);
                fprintf(f, "case\t%d\t%s\t%s\t%s\t%llu\t%d\t%d\n", dump, impl, cell->variant, cell->op,
                        (unsigned long long)cell->size_bytes, PB_VG_ITERS, r);
            }
            if (c.free_ctx) c.free_ctx(c.ctx);
        }
    }
    CALLGRIND_STOP_INSTRUMENTATION;
    free(g.cells);
    if (fclose(f) != 0 && rc == 0) rc = pb_errf(e, "%s: write error", path);
    return rc;
}

/* ---- the parent ---- */

void pb_vg_result_free(pb_vg_result *r)
{
    for (size_t i = 0; r->c && i < r->n; i++) free(r->c[i].fn);
    free(r->c);
    memset(r, 0, sizeof *r);
}

void pb_vg_remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *de;
        while ((de = readdir(d)))
            if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) unlinkat(dirfd(d), de->d_name, 0);
        closedir(d);
    }
    rmdir(dir);
}

static void free_words(char **w)
{
    for (int i = 0; w && w[i]; i++) free(w[i]);
    free(w);
}

/* spawn argv (argv[0] looked up in PATH), stdout to out_path if given; exit status or -1 + e */
static int spawn_wait(char *const *argv, const char *out_path, pb_err *e)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (out_path) posix_spawn_file_actions_addopen(&fa, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    pid_t pid;
    int err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (err == ENOENT)
        return pb_errf(e, "%s not found in PATH (Debian package valgrind; scripts/setup.sh installs it)", argv[0]);
    if (err) return pb_errf(e, "cannot start %s: %s", argv[0], strerror(err));
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) return pb_errf(e, "waiting for %s: %s", argv[0], strerror(errno));
    if (WIFSIGNALED(st)) return pb_errf(e, "%s was killed by signal %d", argv[0], WTERMSIG(st));
    return WEXITSTATUS(st);
}

/* the first line of path into buf, the second (if any; may be NULL) into buf2, without newlines */
static int read_line_file(const char *path, char *buf, size_t cap, char *buf2, size_t cap2, pb_err *e)
{
    FILE *f = fopen(path, "r");
    if (!f) return pb_errf(e, "%s: %s", path, strerror(errno));
    if (!fgets(buf, (int)cap, f)) buf[0] = 0;
    if (buf2 && !fgets(buf2, (int)cap2, f)) buf2[0] = 0;
    fclose(f);
    buf[strcspn(buf, "\n")] = 0;
    if (buf2) buf2[strcspn(buf2, "\n")] = 0;
    return 0;
}

int pb_vg_counts_of(const pb_cg_counts *k, const char *path, pb_vg_counts *out, pb_err *e)
{
    static const char *const need[] = {"Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw",
                                       "Bc", "Bcm", "Bi", "Bim"};
    uint64_t v[13];
    for (int i = 0; i < 13; i++)
        if (pb_cg_event(k, need[i], &v[i]) < 0)
            return pb_errf(e, "%s: no event %s (cache and branch simulation were asked for)", path, need[i]);
    *out = (pb_vg_counts){v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12]};
    return 0;
}

/* cases.tsv, written by the child: every line checked, errors as FILE:LINE */
static int read_cases(const char *dir, pb_vg_result *r, pb_err *e)
{
    char path[1024], line[1024];
    snprintf(path, sizeof path, "%s/cases.tsv", dir);
    FILE *f = fopen(path, "r");
    if (!f) return pb_errf(e, "%s: %s (the valgrind child wrote no case list)", path, strerror(errno));
    size_t cap = 0;
    int ln = 0, rc = 0, want_dump = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        ln++;
        if (!strchr(line, '\n')) { rc = pb_errf(e, "%s:%d: line too long", path, ln); break; }
        line[strcspn(line, "\n")] = 0;
        char *fld[9];
        int nf = 0;
        for (char *p = line; nf < 9;) {
            fld[nf++] = p;
            char *t = strchr(p, '\t');
            if (!t) break;
            *t = 0;
            p = t + 1;
        }
        int is_case = !strcmp(fld[0], "case");
        if (!(is_case && nf == 8) && !(!strcmp(fld[0], "unavailable") && nf == 6)) {
            rc = pb_errf(e, "%s:%d: not a case or unavailable record", path, ln);
            break;
        }
        const char **names = (const char **)(fld + (is_case ? 2 : 1));
        char *end;
        unsigned long long size = strtoull(names[3], &end, 10);
        if (*end || !size) { rc = pb_errf(e, "%s:%d: bad size '%s'", path, ln, names[3]); break; }
        for (int i = 0; i < 3; i++)
            if (!*names[i] || strlen(names[i]) >= PB_NAME_MAX) rc = pb_errf(e, "%s:%d: bad name '%s'", path, ln, names[i]);
        if (rc) break;
        /* the case this line is about: the previous one when it is a further repetition */
        pb_vg_case *c = r->n ? &r->c[r->n - 1] : NULL;
        int rep = is_case ? atoi(fld[7]) : 0;
        int same = c && !strcmp(c->impl, names[0]) && !strcmp(c->variant, names[1]) && !strcmp(c->op, names[2]) &&
                   c->size == size;
        if (!(is_case && rep > 0)) {
            if (r->n == cap) {
                pb_vg_case *nc = realloc(r->c, (cap = cap ? 2 * cap : 64) * sizeof *nc);
                if (!nc) { rc = pb_errf(e, "out of memory"); break; }
                r->c = nc;
            }
            c = &r->c[r->n++];
            memset(c, 0, sizeof *c);
            snprintf(c->impl, PB_NAME_MAX, "%s", names[0]);
            snprintf(c->variant, PB_NAME_MAX, "%s", names[1]);
            snprintf(c->op, PB_NAME_MAX, "%s", names[2]);
            c->size = size;
        } else if (!same || rep != c->reps || rep >= 4) {
            rc = pb_errf(e, "%s:%d: repetition %d out of order", path, ln, rep);
            break;
        }
        if (!is_case) {
            snprintf(c->reason, sizeof c->reason, "%s", fld[5]);
            continue;
        }
        want_dump += 2;   /* every case: a warm-up dump (not read), then its own */
        if (atoi(fld[1]) != want_dump) { rc = pb_errf(e, "%s:%d: dump %s, expected %d", path, ln, fld[1], want_dump); break; }
        c->ok = 1;
        c->iters = strtoull(fld[6], &end, 10);
        if (*end || !c->iters) { rc = pb_errf(e, "%s:%d: bad op count '%s'", path, ln, fld[6]); break; }
        /* callgrind numbers the dumps of DUMP_STATS_AT from 1, as the child does */
        char dump[1100], trig[64];
        snprintf(dump, sizeof dump, "%s/cg.out.%d", dir, want_dump);
        pb_cg_fns fk;
        if (pb_cg_fns_parse_file(dump, &fk, e) < 0) { rc = -1; break; }
        const pb_cg_counts *k = &fk.counts;
        snprintf(trig, sizeof trig, "Client Request: pbcase %d", want_dump);
        if (strcmp(k->trigger, trig)) rc = pb_errf(e, "%s: trigger '%s', expected '%s'", dump, k->trigger, trig);
        if (rc == 0) rc = pb_vg_counts_of(k, dump, &c->rep[rep], e) < 0 ? -1 : 0;
        /* the functions of the first repetition: the others repeat it (or differ by data, sigpool) */
        if (rc == 0 && rep == 0) rc = pb_vg_case_funcs(c, &fk, e);
        pb_cg_fns_free(&fk);
        if (rc) break;
        c->reps = rep + 1;
    }
    if (rc == 0 && ferror(f)) rc = pb_errf(e, "%s: read error", path);
    fclose(f);
    if (rc == 0 && r->n == 0) rc = pb_errf(e, "%s: no case measured", path);
    return rc;
}

/* The items of the list after `key` in `native` that the same list in `under` lacks, as " a b". */
static void missing_items(const char *native, const char *under, const char *key, const char *sep, char *out,
                          size_t cap)
{
    char nat[512] = "", und[520] = "";
    const char *n = strstr(native, key), *u = strstr(under, key);
    out[0] = 0;
    if (!n) return;
    snprintf(nat, sizeof nat, "%.*s", (int)strcspn(n + strlen(key), ";"), n + strlen(key));
    if (u) snprintf(und, sizeof und, "%s%.*s%s", sep, (int)strcspn(u + strlen(key), ";"), u + strlen(key), sep);
    for (char *save = NULL, *t = strtok_r(nat, sep, &save); t; t = strtok_r(NULL, sep, &save)) {
        char pat[80];
        snprintf(pat, sizeof pat, "%s%s%s", sep, t, sep);
        if (!strstr(und, pat)) snprintf(out + strlen(out), cap - strlen(out), " %s", t);
    }
}

void pb_vg_describe_hidden(pb_vg_result *r, int external)
{
    char cpu_missing[256], hwf_missing[256];
    missing_items(r->native, r->codepath, "cpuid: ", " ", cpu_missing, sizeof cpu_missing);
    missing_items(r->native, r->codepath, "hwflist:", ":", hwf_missing, sizeof hwf_missing);
    if (external && *cpu_missing)
        snprintf(r->not_comparable, sizeof r->not_comparable,
                 "not comparable with wall-time rows where dispatch differs: Valgrind hides CPU features%s, so "
                 "a program that dispatches at run time (ifunc, cpuid checks, OpenSSL, libgcrypt, glibc's "
                 "string functions) may run another path under Valgrind; code built for a fixed ISA runs "
                 "the same instructions", cpu_missing);
    else if (*cpu_missing || *hwf_missing)
        snprintf(r->not_comparable, sizeof r->not_comparable,
                 "not comparable with wall-time rows where dispatch differs: Valgrind hides CPU features%s "
                 "(libgcrypt loses%s), so code that dispatches at run time (libgcrypt, OpenSSL) may run "
                 "another path under Valgrind; code built for a fixed ISA runs the same instructions",
                 cpu_missing, *hwf_missing ? hwf_missing : " nothing");
    else
        snprintf(r->not_comparable, sizeof r->not_comparable,
                 "CPUID under Valgrind shows every feature that dispatch keys on here");
}

int pb_vg_version(const char *valgrind, char *buf, size_t cap, pb_err *e)
{
    char *argv[] = {(char *)valgrind, "--version", NULL};
    char *out = NULL;
    pb_proc p;
    pb_err se = {{0}};
    if (pb_spawn(argv, &out, 60, &p, &se) < 0) {
        pb_errf(e, "%s", se.msg);
        return -2;
    }
    if (pb_proc_check(valgrind, &p, e) < 0) { free(out); return -2; }
    snprintf(buf, cap, "%.*s", (int)strcspn(out, "\n"), out);
    free(out);
    return 0;
}

/* The suite options as the child's words, "--name=value" or "--name": one word each, never split
 * again (exec's --old 'CMD ARGS' was cut at its spaces). NULL-terminated, malloc'd; NULL + e. */
static char **suite_words(const pb_vg_suite_args *a, pb_err *e)
{
    if (a->n < 0 || a->n > PB_VG_MAX_SUITE_ARGS) {
        pb_errf(e, "more than %d suite options for the valgrind child", PB_VG_MAX_SUITE_ARGS);
        return NULL;
    }
    char **w = calloc((size_t)a->n + 1, sizeof *w);
    for (int i = 0; w && i < a->n; i++) {
        const char *v = a->value[i];
        size_t len = strlen(a->name[i]) + (v ? strlen(v) + 1 : 0) + 3;
        if (!(w[i] = malloc(len))) {
            free_words(w);
            w = NULL;
            break;
        }
        snprintf(w[i], len, "--%s%s%s", a->name[i], v ? "=" : "", v ? v : "");
    }
    if (!w) pb_errf(e, "out of memory");
    return w;
}

int pb_vg_measure(const pb_vg_opts *o, pb_vg_result *r, pb_err *e)
{
    if (o->suite->count_sample) return pb_vg_measure_external(o, r, e);
    memset(r, 0, sizeof *r);
    char exe[1024];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return pb_errf(e, "cannot find this program (/proc/self/exe): %s", strerror(errno));
    exe[n] = 0;
    const char *tmp = getenv("TMPDIR");
    char dir[512];
    snprintf(dir, sizeof dir, "%s/pb-valgrind-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) return pb_errf(e, "cannot make a folder %s: %s", dir, strerror(errno));

    char version[128] = "valgrind", vpath[600];
    snprintf(vpath, sizeof vpath, "%s/version.txt", dir);
    char *vargv[] = {"valgrind", "--version", NULL};
    int rc = spawn_wait(vargv, vpath, e);
    if (rc == 0) rc = read_line_file(vpath, version, sizeof version, NULL, 0, e);
    else if (rc > 0) rc = pb_errf(e, "valgrind --version exited %d", rc);

    char out_opt[600], reps[16];
    snprintf(out_opt, sizeof out_opt, "--callgrind-out-file=%s/cg.out", dir);
    snprintf(reps, sizeof reps, "%d", o->reps > 0 ? o->reps : 1);
    char **words = rc == 0 ? suite_words(&o->args, e) : NULL;
    if (!words && rc == 0) rc = -1;
    char *argv[40 + PB_VG_MAX_SUITE_ARGS];
    int a = 0;
    const char *fixed[] = {"valgrind", "-q", "--tool=callgrind", "--instr-atstart=no", "--cache-sim=yes",
                           "--branch-sim=yes", "--dump-instr=no", VG_CACHE[0], VG_CACHE[1], VG_CACHE[2], out_opt,
                           exe, "run", "--suite", o->suite->name, "--vg-child", dir, "--vg-reps", reps};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) argv[a++] = (char *)fixed[i];
    if (o->impls) { argv[a++] = "--impl"; argv[a++] = (char *)o->impls; }
    if (o->sizes) { argv[a++] = "--sizes"; argv[a++] = (char *)o->sizes; }
    if (o->quick) argv[a++] = "--quick";
    if (!o->progress) argv[a++] = "--quiet";
    for (int i = 0; words && words[i]; i++) argv[a++] = words[i];
    argv[a] = NULL;
    if (rc == 0) {
        uint64_t t0 = pb_now_ns();
        rc = spawn_wait(argv, NULL, e);
        if (rc > 0) rc = pb_errf(e, "the valgrind child (bench run --vg-child) exited %d (see above)", rc);
        if (rc == 0 && o->progress)
            fprintf(stderr, "bench: valgrind child done in %.1f s\n", (double)(pb_now_ns() - t0) * 1e-9);
    }
    char cpath[600];
    snprintf(cpath, sizeof cpath, "%s/codepath.txt", dir);
    if (rc == 0) rc = read_line_file(cpath, r->codepath, sizeof r->codepath, r->suite_settings, sizeof r->suite_settings, e);
    if (rc == 0) rc = read_cases(dir, r, e);
    free_words(words);
    pb_vg_remove_dir(dir);
    if (rc < 0) { pb_vg_result_free(r); return -1; }

    char libs[512];
    libraries_view(libs, sizeof libs);
    snprintf(r->native, sizeof r->native, "natively: %s", libs);
    pb_vg_describe_hidden(r, 0);
    snprintf(r->settings, sizeof r->settings,
             "%s callgrind, cache-sim I1 %s D1 %s LL %s (fixed, not the host's), branch-sim; %d ops per case after "
             "1 warm-up op, %s repetition(s)",
             version, VG_CACHE[0] + 5, VG_CACHE[1] + 5, VG_CACHE[2] + 5, PB_VG_ITERS, reps);
    return 0;
}

/* ---- the store ---- */

static int insert_stat(pb_store *st, int64_t cid, const char *metric, const char *unit, const pb_vg_case *c,
                       pb_err *e)
{
    double lo, med, hi;
    pb_vg_range(c, metric, &lo, &med, &hi);
    if (!isfinite(med)) return 0;
    return pb_store_add_count_stat(st, cid, metric, unit, c->reps, lo, med, hi, e);
}

static int insert_ratio(pb_store *st, int64_t run, const char *suite, const pb_vg_case *b, const pb_vg_case *c,
                        pb_err *e)
{
    pb_vg_metrics mb, mc;
    pb_vg_metrics_of(b, 0, &mb);
    pb_vg_metrics_of(c, 0, &mc);
    return pb_store_add_count_ratio(st, run, suite, c->variant, c->op, (int64_t)c->size, b->impl, c->impl,
                                    mc.insns_per_op / mb.insns_per_op, e);
}

int64_t pb_vg_store(pb_store *st, const pb_vg_opts *o, const pb_vg_result *r, const char *command_line, pb_err *e)
{
    const pb_suite *s = o->suite;
    char opts[4096];
    snprintf(opts, sizeof opts, "measure=valgrind impls=%s sizes=%s quick=%d %s; %s; %s; %s; %s",
             o->impls ? o->impls : "all", o->sizes ? o->sizes : "grid", o->quick, o->suite_opts ? o->suite_opts : "",
             r->settings, r->codepath, r->native, r->not_comparable);
    pb_provenance prov;
    pb_provenance_collect(&prov, s);
    pb_run_info ri = {
        .suite = s->name, .target = "valgrind", .command_line = command_line, .options = opts,
        .suite_settings = r->suite_settings[0] ? r->suite_settings : NULL,
        .tick_source = "none (valgrind: counts, no time)", .counter_source = "valgrind callgrind (simulated)",
        .metrics = 0, .baseline = r->baseline[0] ? r->baseline : s->baseline,
        .candidate = r->candidate[0] ? r->candidate : s->candidate, .primary_metric = "insns_per_op",
        .cpu_affinity = "not pinned: counts under valgrind (one simulated core; neither the CPU nor the load changes them)",
        .loadavg_start = -1,
    };
    int64_t run = pb_store_begin_run(st, &ri, &prov, e);
    if (run < 0) return -1;
    int rc = pb_store_begin(st, e);
    for (size_t i = 0; i < r->n && rc == 0; i++) {
        const pb_vg_case *c = &r->c[i];
        int64_t cid = pb_store_add_case(st, run, s->name, c->impl, c->variant, c->op, c->size,
                                        c->ok ? (int64_t)c->iters : 0, c->ok ? "ok" : "unavailable",
                                        c->ok ? NULL : c->reason, e);
        if (cid < 0) { rc = -1; break; }
        for (size_t m = 0; m < NVG && rc == 0 && c->ok; m++)
            rc = insert_stat(st, cid, VG_METRICS[m], pb_metric_find(VG_METRICS[m])->unit, c, e);
        if (rc == 0 && c->ok) rc = pb_vg_store_funcs(st, cid, c, e);
    }
    /* every impl against the baseline of its cell */
    for (size_t i = 0; i < r->n && rc == 0; i++) {
        const pb_vg_case *b = &r->c[i];
        if (!b->ok || strcmp(b->impl, r->baseline[0] ? r->baseline : s->baseline)) continue;
        for (size_t j = 0; j < r->n && rc == 0; j++) {
            const pb_vg_case *c = &r->c[j];
            if (j != i && c->ok && c->size == b->size && !strcmp(c->variant, b->variant) && !strcmp(c->op, b->op))
                rc = insert_ratio(st, run, s->name, b, c, e);
        }
    }
    if (rc == 0) rc = pb_store_commit(st, e);
    else pb_store_rollback(st);
    pb_err e2 = {{0}};
    if (rc == 0) rc = pb_store_end_run(st, run, "complete", NULL, e);
    else pb_store_end_run(st, run, "failed", e->msg, &e2);
    return rc < 0 ? -1 : run;
}

void pb_vg_print(FILE *f, const pb_suite *s, const pb_vg_result *r)
{
    fprintf(f, "%-10s %-6s %8s %-12s %12s %9s %9s %9s %9s %12s %9s\n", "variant", "op", "bytes", "impl", "insns/op",
            "insns/B", "L1miss/op", "LLmiss/op", "brmiss/op", "model cyc/op", "insns/base");
    for (size_t i = 0; i < r->n; i++) {
        const pb_vg_case *c = &r->c[i];
        if (!c->ok) {
            fprintf(f, "%-10s %-6s %8llu %-12s unavailable: %s\n", c->variant, c->op, (unsigned long long)c->size,
                    c->impl, c->reason);
            continue;
        }
        pb_vg_metrics m, mb;
        pb_vg_metrics_of(c, 0, &m);
        double ratio = NAN;
        for (size_t j = 0; j < r->n; j++) {
            const pb_vg_case *b = &r->c[j];
            if (b->ok && !strcmp(b->impl, r->baseline[0] ? r->baseline : s->baseline) && b->size == c->size && !strcmp(b->variant, c->variant) &&
                !strcmp(b->op, c->op)) {
                pb_vg_metrics_of(b, 0, &mb);
                ratio = m.insns_per_op / mb.insns_per_op;
            }
        }
        fprintf(f, "%-10s %-6s %8llu %-12s %12.1f %9.3f %9.2f %9.2f %9.2f %12.1f %9.4f%s\n", c->variant, c->op,
                (unsigned long long)c->size, c->impl, m.insns_per_op, m.insns_per_byte, m.l1_miss_per_op,
                m.ll_miss_per_op, m.branch_miss_per_op, m.model_cycles_per_op, ratio,
                pb_vg_spread(c) > PB_VG_TOLERANCE ? "  (repetitions differ)" : "");
    }
    fprintf(f, "counts: %s\ncode path %s\ncode path %s\n%s\n", r->settings, r->codepath, r->native, r->not_comparable);
    fprintf(f, "model cyc/op = L1 hits + 5 x LL hits + 35 x LL misses (RAM) + 15 x branch mispredictions per op: a "
               "model (iai-callgrind's, plus mispredictions), not a measurement\n");
}
