/* cmd_run.c — `bench run --suite NAME [options] [suite options] [--benchmark_* flags]` */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gbshim.h"
#include "runner.h"
#include "store.h"
#include "suite.h"

static void usage(FILE *f, const pb_suite *s)
{
    fprintf(f,
        "usage: bench run --suite NAME [options] [suite options] [--benchmark_* flags]\n"
        "\n"
        "Run a suite's grid: every implementation of a cell interleaved in rounds (rotating\n"
        "start), every sample stored in SQLite, ratios paired by round.\n"
        "\n"
        "  --suite NAME        suite to run (bench list shows them)\n"
        "  --impl A,B          only these implementations\n"
        "  --sizes 64,4k,...   only these sizes (sizes outside the grid are added)\n"
        "  --quick             the whole grid with fewer and shorter samples\n"
        "  --rounds N          rounds per cell (default 61, quick 15)\n"
        "  --sample-ms X       target length of one sample in ms (default 2, quick 0.5)\n"
        "  --counters LIST     hardware events by libpfm4 name (default cycles,instructions;\n"
        "                      '' for none). Unavailable ones fall back to the TSC, visibly.\n"
        "  --db PATH           SQLite database (default $PB_DB or " PB_DEFAULT_DB_PATH ")\n"
        "  --target T          userspace (default): the implementations in this process.\n"
        "                      qemu: the kernel-module variant in a QEMU guest (TCG);\n"
        "                      host: the kernel-module variant on this machine's kernel\n"
        "                      (root, module support and /lib/modules/$(uname -r)/build needed).\n"
        "                      See docs/kmod.md.\n"
        "  --quiet             no progress on stderr\n"
        "  --benchmark_*       passed to Google Benchmark (e.g. --benchmark_repetitions=3)\n");
    if (s) {
        pb_suite_print_options(f, s);
    } else {
        fprintf(f, "\nSuites:");
        for (int i = 0; pb_suites[i]; i++) fprintf(f, " %s", pb_suites[i]->name);
        fprintf(f, "  (bench run --suite NAME --help shows a suite's options)\n");
    }
}

int cmd_run_kmod(const char *suite, const char *target, const char *db, int quick, int rounds, const char *cmdline);

int cmd_run(int argc, char **argv)
{
    char cmdline[2048] = "bench";
    size_t off = 5;
    for (int i = 0; i < argc && off < sizeof cmdline; i++)
        off += (size_t)snprintf(cmdline + off, sizeof cmdline - off, " %s", argv[i]);

    if (pb_gb_init(&argc, argv) < 0) {
        fprintf(stderr, "bench run: bad --benchmark_ flag (see above)\n");
        return 2;
    }
    /* first pass: find the suite, so that its options can be recognised */
    const pb_suite *s = NULL;
    int help = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) help = 1;
        const char *name = NULL;
        if (!strcmp(argv[i], "--suite") && i + 1 < argc) name = argv[i + 1];
        else if (!strncmp(argv[i], "--suite=", 8)) name = argv[i] + 8;
        if (name && !(s = pb_suite_find(name))) {
            fprintf(stderr, "bench run: unknown suite '%s' (suites:", name);
            for (int k = 0; pb_suites[k]; k++) fprintf(stderr, " %s", pb_suites[k]->name);
            fprintf(stderr, ")\n");
            return 2;
        }
    }
    if (help) { usage(stdout, s); return 0; }
    if (!s) { fprintf(stderr, "bench run: --suite is required (see bench run --help)\n"); return 2; }

    pb_err oe = {{0}};
    void *suite_opts = pb_suite_opts_new(s, &oe);
    if (!suite_opts) { fprintf(stderr, "bench run: %s\n", oe.msg); return 2; }
    pb_runner_opts o = {.suite = s, .suite_opts = suite_opts, .db_path = pb_default_db(), .progress = 1,
                        .command_line = cmdline};
    const char *target = "userspace";
    char suite_opts_text[512] = "";
    size_t so = 0;
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (strncmp(a, "--", 2)) {
            fprintf(stderr, "bench run: unexpected argument '%s' (options start with --)\n", a);
            return 2;
        }
        char name[64];
        const char *val = NULL;
        const char *eq = strchr(a, '=');
        size_t nl = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
        if (nl >= sizeof name) nl = sizeof name - 1;
        memcpy(name, a + 2, nl);
        name[nl] = 0;
        if (eq) val = eq + 1;
        static const char *with_value[] = {"suite", "impl", "sizes", "rounds", "sample-ms", "counters", "db",
                                           "target", NULL};
        int wants = 0;
        for (int k = 0; with_value[k]; k++) wants |= !strcmp(name, with_value[k]);
        if (wants && !val) {
            if (i + 1 >= argc) { fprintf(stderr, "bench run: --%s needs a value\n", name); return 2; }
            val = argv[++i];
        }
        static const char *flags[] = {"quick", "quiet", NULL};
        for (int k = 0; flags[k]; k++)
            if (!strcmp(name, flags[k]) && val) {
                /* "--quick=no" must not turn the option on */
                fprintf(stderr, "bench run: --%s takes no value (got '%s')\n", name, val);
                return 2;
            }
        if (!strcmp(name, "suite")) continue;
        else if (!strcmp(name, "impl")) o.impls = val;
        else if (!strcmp(name, "sizes")) o.sizes = val;
        else if (!strcmp(name, "quick")) o.quick = 1;
        else if (!strcmp(name, "quiet")) o.progress = 0;
        else if (!strcmp(name, "counters")) o.counters = val;
        else if (!strcmp(name, "db")) o.db_path = val;
        else if (!strcmp(name, "target")) target = val;
        else if (!strcmp(name, "rounds")) {
            char *end;
            long v = strtol(val, &end, 10);
            if (*end || v < 2 || v > 100000) {
                fprintf(stderr, "bench run: --rounds wants a whole number from 2 to 100000, got '%s'\n", val);
                return 2;
            }
            o.rounds = (int)v;
        } else if (!strcmp(name, "sample-ms")) {
            char *end;
            double v = strtod(val, &end);
            if (*end || !(v >= 0.01 && v <= 10000)) {
                fprintf(stderr, "bench run: --sample-ms wants a number from 0.01 to 10000, got '%s'\n", val);
                return 2;
            }
            o.sample_seconds = v / 1e3;
        } else {
            /* a suite option: --name or --name=value or --name value */
            pb_err e = {{0}};
            int r = 0;
            const pb_suite_opt *so_ = pb_suite_opt_find(s, name);
            if (so_ && so_->arg && !val && i + 1 < argc) val = argv[++i];   /* "--keys 256" */
            r = pb_suite_set_opt(s, suite_opts, name, val, &e);
            if (r < 0) { fprintf(stderr, "bench run: %s\n", e.msg); return 2; }
            if (r == 0) {
                fprintf(stderr, "bench run: unknown option '--%s' for suite %s (see bench run --suite %s --help)\n",
                        name, s->name, s->name);
                return 2;
            }
            if (so < sizeof suite_opts_text)
                so += (size_t)snprintf(suite_opts_text + so, sizeof suite_opts_text - so, "%s--%s%s%s", so ? " " : "", name,
                                       val ? "=" : "", val ? val : "");
        }
    }
    o.options_text = suite_opts_text;
    pb_err pe = {{0}};
    if (pb_store_check_path(o.db_path, &pe) < 0) { fprintf(stderr, "bench run: %s\n", pe.msg); return 2; }
    if (strcmp(target, "userspace")) {
        if (!strcmp(target, "qemu") || !strcmp(target, "host"))
            return cmd_run_kmod(s->name, target, o.db_path, o.quick, o.rounds, cmdline);
        fprintf(stderr, "bench run: unknown --target '%s' (userspace, qemu or host)\n", target);
        return 2;
    }
    int64_t run = 0;
    pb_err e = {{0}};
    int rc = pb_run(&o, &run, &e);
    if (rc == 130) { fprintf(stderr, "bench run: %s\n", e.msg); return 130; }
    if (rc < 0) {
        fprintf(stderr, "bench run: %s\n", e.msg);
        return rc == -2 ? 2 : 1;
    }
    printf("run %lld complete (suite %s) in %s\n", (long long)run, s->name, o.db_path);
    return 0;
}
