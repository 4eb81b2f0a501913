/* cmd_import.c — `bench import FILE [--db PATH] [--target NAME]`, and the kernel-module
 * targets of `bench run` (--target qemu|host), which produce such a file and import it.
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
 * line (file:line named). Nothing is stored unless the whole file is good. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "pb_config.h"
#include "provenance.h"
#include "store.h"
#include "suite.h"

#define MAX_FIELDS 16

typedef struct kv {
    int n;
    char *k[MAX_FIELDS], *v[MAX_FIELDS];
} kv;

static int split_kv(char *s, kv *out)
{
    out->n = 0;
    for (char *save = NULL, *t = strtok_r(s, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        char *eq = strchr(t, '=');
        if (!eq || eq == t || out->n == MAX_FIELDS) return -1;
        *eq = 0;
        out->k[out->n] = t;
        out->v[out->n] = eq + 1;
        out->n++;
    }
    return 0;
}

static const char *get(const kv *f, const char *k)
{
    for (int i = 0; i < f->n; i++)
        if (!strcmp(f->k[i], k)) return f->v[i];
    return NULL;
}

static int get_u64(const kv *f, const char *k, uint64_t *out)
{
    const char *v = get(f, k);
    if (!v || !*v) return -1;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (errno || *end || v[0] == '-') return -1;
    *out = x;
    return 0;
}

typedef struct imp_suite {
    char name[PB_NAME_MAX];
    int64_t run;
} imp_suite;

int pb_import_file(pb_store *st, const char *path, const char *target_override, const char *cmdline,
                   int64_t *runs, int *nruns, pb_err *e)
{
    FILE *f = fopen(path, "r");
    if (!f) return pb_errf(e, "%s: cannot open: %s", path, strerror(errno));
    /* pass 1: validate everything and collect meta */
    char line[2048], meta_target[64] = "", guest_kernel[160] = "", cpu[128] = "", meta_all[1024] = "";
    int ln = 0, end_seen = 0, nsamples = 0, rc = 0;
    size_t moff = 0;
    char selftests[1024] = "";
    size_t soff = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        ln++;
        line[strcspn(line, "\r\n")] = 0;
        char *p = strstr(line, "pbk1 ");
        if (!p) continue;
        if (end_seen) { rc = pb_errf(e, "%s:%d: data after 'pbk1 end'", path, ln); break; }
        p += 5;
        char kind[16];
        if (sscanf(p, "%15s", kind) != 1) { rc = pb_errf(e, "%s:%d: empty pbk1 line", path, ln); break; }
        char *rest = p + strlen(kind);
        kv fl;
        char buf[2048];
        snprintf(buf, sizeof buf, "%s", rest);
        if (!strcmp(kind, "end")) { end_seen = 1; continue; }
        if (split_kv(buf, &fl) < 0) { rc = pb_errf(e, "%s:%d: expected KEY=VALUE fields after '%s'", path, ln, kind); break; }
        if (!strcmp(kind, "meta")) {
            for (int i = 0; i < fl.n; i++) {
                if (!strcmp(fl.k[i], "target")) snprintf(meta_target, sizeof meta_target, "%s", fl.v[i]);
                if (!strcmp(fl.k[i], "guest_kernel") || (!strcmp(fl.k[i], "kernel") && !*guest_kernel))
                    snprintf(guest_kernel, sizeof guest_kernel, "%s", fl.v[i]);
                if (!strcmp(fl.k[i], "cpu")) snprintf(cpu, sizeof cpu, "%s", fl.v[i]);
                if (moff < sizeof meta_all)
                    moff += (size_t)snprintf(meta_all + moff, sizeof meta_all - moff, " %s=%s", fl.k[i], fl.v[i]);
            }
        } else if (!strcmp(kind, "selftest")) {
            const char *impl = get(&fl, "impl"), *status = get(&fl, "status");
            if (!impl || !status || (strcmp(status, "pass") && strcmp(status, "fail"))) {
                rc = pb_errf(e, "%s:%d: selftest needs impl= and status=pass|fail", path, ln);
                break;
            }
            if (soff < sizeof selftests)
                soff += (size_t)snprintf(selftests + soff, sizeof selftests - soff, " selftest:%s=%s", impl, status);
        } else if (!strcmp(kind, "sample")) {
            uint64_t u;
            const char *need[] = {"suite", "impl", "variant", "op", NULL};
            for (int i = 0; need[i] && rc == 0; i++)
                if (!get(&fl, need[i]) || !*get(&fl, need[i]))
                    rc = pb_errf(e, "%s:%d: sample without %s=", path, ln, need[i]);
            const char *nums[] = {"size", "round", "iters", "ns", NULL};
            for (int i = 0; nums[i] && rc == 0; i++)
                if (get_u64(&fl, nums[i], &u) < 0)
                    rc = pb_errf(e, "%s:%d: sample field %s= is missing or not a whole number", path, ln, nums[i]);
            if (rc == 0 && (get_u64(&fl, "iters", &u) < 0 || u == 0))
                rc = pb_errf(e, "%s:%d: sample with iters=0", path, ln);
            nsamples++;
        } else if (!strcmp(kind, "unavailable")) {
            if (!get(&fl, "suite") || !get(&fl, "impl"))
                rc = pb_errf(e, "%s:%d: unavailable needs suite= and impl=", path, ln);
        } else {
            rc = pb_errf(e, "%s:%d: unknown record kind '%s' (meta, selftest, sample, unavailable, end)", path, ln, kind);
        }
    }
    if (rc == 0 && !end_seen)
        rc = pb_errf(e, "%s: no 'pbk1 end' line: the results are truncated (the module or guest stopped early)", path);
    if (rc == 0 && nsamples == 0) rc = pb_errf(e, "%s: no samples in the file", path);
    if (rc < 0) { fclose(f); return -1; }

    /* pass 2: store, one transaction for everything */
    pb_provenance prov;
    pb_provenance_collect(&prov);
    /* the numbers were not made on this machine: say what we know of the one that made them */
    snprintf(prov.kernel, sizeof prov.kernel, "%s", *guest_kernel ? guest_kernel : "unknown (imported)");
    snprintf(prov.cpu_model, sizeof prov.cpu_model, "%s", *cpu ? cpu : "unknown (imported)");
    snprintf(prov.cpu_flags, sizeof prov.cpu_flags, "unknown (imported)");
    snprintf(prov.clock_source, sizeof prov.clock_source, "ktime_get_ns (kernel under test)");
    snprintf(prov.governor, sizeof prov.governor, "unknown (imported)");
    snprintf(prov.boost, sizeof prov.boost, "unknown (imported)");
    const char *target = target_override ? target_override : *meta_target ? meta_target : "import";
    char opts[2300];
    snprintf(opts, sizeof opts, "imported from %s;%s%s", path, meta_all, selftests);
    if (pb_store_begin(st, e) < 0) { fclose(f); return -1; }
    imp_suite suites[8];
    int ns = 0;
    rewind(f);
    ln = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        ln++;
        line[strcspn(line, "\r\n")] = 0;
        char *p = strstr(line, "pbk1 ");
        if (!p) continue;
        p += 5;
        int is_sample = !strncmp(p, "sample ", 7), is_unavail = !strncmp(p, "unavailable ", 12);
        if (!is_sample && !is_unavail) continue;
        kv fl;
        char buf[2048];
        snprintf(buf, sizeof buf, "%s", p + (is_sample ? 7 : 12));
        split_kv(buf, &fl);
        const char *sname = get(&fl, "suite");
        int si = -1;
        for (int i = 0; i < ns; i++)
            if (!strcmp(suites[i].name, sname)) si = i;
        if (si < 0) {
            if (ns == 8) { rc = pb_errf(e, "%s:%d: more than 8 suites in one file", path, ln); break; }
            const pb_suite *s = pb_suite_find(sname);
            unsigned metrics = PB_M_NS_PER_OP | PB_M_TSC_PER_BYTE;
            if (s) metrics |= s->metrics & (PB_M_MB_PER_S | PB_M_GBIT_PER_S);
            char base[PB_NAME_MAX], cand[PB_NAME_MAX];
            snprintf(base, sizeof base, "kmod-%s", s ? s->baseline : "old");
            snprintf(cand, sizeof cand, "kmod-%s", s ? s->candidate : "new");
            pb_run_info ri = {
                .suite = sname, .target = target, .command_line = cmdline, .options = opts,
                .tick_source = "get_cycles() (TSC) in the kernel under test",
                .counter_source = "none: ktime_get_ns and get_cycles in the kernel", .tsc_hz = 0,
                .metrics = metrics, .baseline = base, .candidate = cand,
                .primary_metric = s && s->primary_metric ? s->primary_metric : "ns_per_op",
                .guest_kernel = *guest_kernel ? guest_kernel : NULL,
            };
            int64_t run = pb_store_begin_run(st, &ri, &prov, e);
            if (run < 0) { rc = -1; break; }
            snprintf(suites[ns].name, PB_NAME_MAX, "%s", sname);
            suites[ns].run = run;
            si = ns++;
        }
        uint64_t size = 0;
        get_u64(&fl, "size", &size);
        const char *variant = get(&fl, "variant") ? get(&fl, "variant") : "-";
        const char *op = get(&fl, "op") ? get(&fl, "op") : "-";
        if (is_unavail) {
            if (pb_store_add_case(st, suites[si].run, sname, get(&fl, "impl"), variant, op, size, 0, "unavailable",
                                  get(&fl, "reason") ? get(&fl, "reason") : "unavailable", e) < 0)
                rc = -1;
            continue;
        }
        uint64_t round = 0, iters = 0, ns_ = 0, cyc = 0;
        get_u64(&fl, "round", &round);
        get_u64(&fl, "iters", &iters);
        get_u64(&fl, "ns", &ns_);
        int has_cyc = get_u64(&fl, "cycles", &cyc) == 0;
        int64_t cid = pb_store_add_case(st, suites[si].run, sname, get(&fl, "impl"), variant, op, size,
                                        (int64_t)iters, "ok", NULL, e);
        if (cid < 0) { rc = -1; break; }
        pb_sample smp = {.round = (int)round, .position = 0, .repetition = 0, .iterations = (int64_t)iters,
                         .ns = (double)ns_, .cpu_ns = -1, .tsc = has_cyc ? (double)cyc : 0, .cycles = -1,
                         .insns = -1};
        rc = pb_store_add_sample(st, cid, &smp, e);
    }
    fclose(f);
    if (rc < 0 || pb_store_commit(st, e) < 0) {
        pb_store_rollback(st);
        return -1;
    }
    for (int i = 0; i < ns; i++) {
        if (pb_store_finalize_run(st, suites[i].run, e) < 0) {
            pb_err e2;
            pb_store_end_run(st, suites[i].run, "failed", e->msg, &e2);
            return -1;
        }
        if (*nruns < 8) runs[(*nruns)++] = suites[i].run;
    }
    return 0;
}

int cmd_import(int argc, char **argv)
{
    const char *db = pb_default_db(), *target = NULL, *file = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("usage: bench import FILE [--db PATH] [--target NAME]\n\n"
                   "Import the kernel module's results (the debugfs lines 'pbk1 ...', see docs/kmod.md),\n"
                   "e.g. saved with `cat /sys/kernel/debug/patchbench/results > FILE` on a real machine.\n"
                   "Each suite in the file becomes one complete run; `bench report` draws it beside the\n"
                   "userspace rows. --target overrides the file's `meta target` (default 'import').\n"
                   "Exit status: 0 imported, 2 unreadable, malformed or truncated file (nothing stored).\n");
            return 0;
        }
        if (!strcmp(a, "--db") && i + 1 < argc) db = argv[++i];
        else if (!strncmp(a, "--db=", 5)) db = a + 5;
        else if (!strcmp(a, "--target") && i + 1 < argc) target = argv[++i];
        else if (!strncmp(a, "--target=", 9)) target = a + 9;
        else if (a[0] == '-' && a[1]) { fprintf(stderr, "bench import: unknown option '%s'\n", a); return 2; }
        else if (!file) file = a;
        else { fprintf(stderr, "bench import: one file at a time ('%s' is extra)\n", a); return 2; }
    }
    if (!file) { fprintf(stderr, "bench import: no results file given (see bench import --help)\n"); return 2; }
    FILE *probe = fopen(file, "r");
    if (!probe) { fprintf(stderr, "bench import: %s: cannot open: %s\n", file, strerror(errno)); return 2; }
    fclose(probe);
    pb_store st;
    pb_err e = {{0}};
    if (pb_store_open(&st, db, &e) < 0) { fprintf(stderr, "bench import: %s\n", e.msg); return 2; }
    char cmdline[1200];
    snprintf(cmdline, sizeof cmdline, "bench import %s", file);
    int64_t runs[8];
    int n = 0;
    int rc = pb_import_file(&st, file, target, cmdline, runs, &n, &e);
    pb_store_close(&st);
    if (rc < 0) { fprintf(stderr, "bench import: %s\n", e.msg); return 2; }
    for (int i = 0; i < n; i++) printf("imported run %lld into %s\n", (long long)runs[i], db);
    return 0;
}

/* bench run --suite S --target qemu|host: the module's benchmark, through scripts/kmod/. */
int cmd_run_kmod(const char *suite, const char *target, const char *db, int quick, int rounds, const char *cmdline)
{
    if (strcmp(suite, "xts") && strcmp(suite, "sigpool")) {
        fprintf(stderr, "bench run: --target %s exists for the xts suite (and sigpool's kernel part), not %s\n",
                target, suite);
        return 2;
    }
    const char *root = getenv("PB_SOURCE_ROOT") ? getenv("PB_SOURCE_ROOT") : PB_SOURCE_ROOT;
    char script[1200], out[] = "/tmp/pb-kmod-XXXXXX";
    snprintf(script, sizeof script, "%s/scripts/kmod/%s", root, !strcmp(target, "qemu") ? "run-qemu.sh" : "run-host.sh");
    if (access(script, X_OK) != 0) {
        fprintf(stderr, "bench run: %s is missing or not executable\n", script);
        return 2;
    }
    int fd = mkstemp(out);
    if (fd < 0) { perror("bench run: mkstemp"); return 1; }
    close(fd);
    char cmd[4096], extra[64] = "";
    if (rounds > 0) snprintf(extra, sizeof extra, " --rounds %d", rounds);
    snprintf(cmd, sizeof cmd, "'%s' --out '%s' --suites %s%s%s", script, out, suite, quick ? " --quick" : "", extra);
    fprintf(stderr, "bench run: %s\n", cmd);
    int st = system(cmd);
    if (st != 0) {
        fprintf(stderr, "bench run: the kernel-module run failed (%s exited %d); nothing imported\n", script,
                WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        unlink(out);
        return 1;
    }
    pb_store s;
    pb_err e = {{0}};
    if (pb_store_open(&s, db, &e) < 0) { fprintf(stderr, "bench run: %s\n", e.msg); unlink(out); return 2; }
    int64_t runs[8];
    int n = 0;
    int rc = pb_import_file(&s, out, !strcmp(target, "qemu") ? "qemu-tcg" : "kmod-host", cmdline, runs, &n, &e);
    pb_store_close(&s);
    if (rc < 0) {
        fprintf(stderr, "bench run: %s (results kept in %s)\n", e.msg, out);
        return 1;
    }
    unlink(out);
    for (int i = 0; i < n; i++) printf("run %lld complete (kernel module, target %s) in %s\n", (long long)runs[i], target, db);
    return 0;
}
