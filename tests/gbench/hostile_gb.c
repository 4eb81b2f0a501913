/* SPDX-License-Identifier: GPL-2.0-only */
/* hostile_gb.c — a program that pretends to be a Google Benchmark binary (for the gbench suite)
 * or a command (for exec) and then misbehaves, as PB_TEST_HOSTILE says:
 *   list-hang   never answers --benchmark_list_tests
 *   run-hang    lists BM_a and BM_b, then never finishes a run
 *   run-crash   lists them, then dies of SIGSEGV when run
 *   leave-open  lists them; when run, leaves a grandchild holding stdout open for 1000 s and
 *               exits without output (a daemonising program)
 *   (unset)     lists them and answers a run with a valid JSON result, exit 0
 * The cage's test (tests/gbench/hostile_test.sh) runs each with a short --timeout. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    const char *how = getenv("PB_TEST_HOSTILE");
    how = how ? how : "";
    int listing = 0;
    const char *filter = "";
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "--benchmark_list_tests", 22)) listing = 1;
        if (!strncmp(argv[i], "--benchmark_filter=", 19)) filter = argv[i] + 19;
    }
    if (listing) {
        if (!strcmp(how, "list-hang")) sleep(1000);
        printf("BM_a\nBM_b\n");
        return 0;
    }
    if (!strcmp(how, "run-hang")) sleep(1000);
    if (!strcmp(how, "run-crash")) {
        signal(SIGSEGV, SIG_DFL);
        raise(SIGSEGV);
    }
    if (!strcmp(how, "leave-open")) {
        fflush(stdout);
        if (fork() == 0) sleep(1000);
        return 0;
    }
    /* "^BM_a$" from the suite: the name between ^ and $ */
    char name[64] = "BM_a";
    if (filter[0] == '^') {
        snprintf(name, sizeof name, "%s", filter + 1);
        name[strcspn(name, "$")] = 0;
    }
    printf("{\"benchmarks\": [{\"name\": \"%s\", \"run_type\": \"iteration\", \"iterations\": 1000, "
           "\"real_time\": 10.0, \"cpu_time\": 10.0, \"time_unit\": \"ns\"}]}\n", name);
    return 0;
}
