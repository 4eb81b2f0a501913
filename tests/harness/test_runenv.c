/* SPDX-License-Identifier: GPL-2.0-only */
/* The noise warnings' text and thresholds (runenv.h), and --cpu's refusals: no clock, no load. */
#include <stdio.h>
#include <string.h>

#include "runenv.h"

static int fails, checks;

static void has(const char *got, const char *part, const char *what)
{
    checks++;
    if (!strstr(got, part)) { fails++; printf("FAIL %s: '%s' lacks '%s'\n", what, got, part); }
}

static void empty(const char *got, const char *what)
{
    checks++;
    if (got[0]) { fails++; printf("FAIL %s: want no warning, got '%s'\n", what, got); }
}

int main(void)
{
    char b[512];
    /* load: online CPUs - 0.5 at the start (a predecessor bench run's own load), online CPUs at
     * the end (the run's own thread) */
    pb_noise_text(1.5, 2.0, 2, 100, 100, b, sizeof b);
    empty(b, "at both limits");
    pb_noise_text(1.02, 1.02, 2, 100, 100, b, sizeof b);
    empty(b, "a gate's back-to-back runs (load 1.02)");
    pb_noise_text(1.51, 0.5, 2, 100, 100, b, sizeof b);
    has(b, "load average 1.51 at start (limit 1.5), 0.50 at end (limit 2) with 2 online CPUs", "start above");
    pb_noise_text(0.2, 2.5, 2, 100, 100, b, sizeof b);
    has(b, "2.50 at end (limit 2)", "end above");
    pb_noise_text(9.5, 9.5, 16, 100, 100, b, sizeof b);
    empty(b, "16 CPUs carry 9.5");
    pb_noise_text(-1, -1, 2, 100, 100, b, sizeof b);
    empty(b, "unknown load");
    checks++;
    if (pb_noise_load_limit(1, 0) != 0.5 || pb_noise_load_limit(1, 1) != 1 || pb_noise_load_limit(4, 0) != 3.5) {
        fails++;
        printf("FAIL load limits\n");
    }
    /* the fast core state: under half of the probed samples */
    pb_noise_text(0, 0, 2, 49, 100, b, sizeof b);
    has(b, "only 49 of 100 samples (49 %) in the fast core state (limit 50 %)", "few fast");
    pb_noise_text(0, 0, 2, 50, 100, b, sizeof b);
    empty(b, "half fast");
    pb_noise_text(0, 0, 2, 0, 0, b, sizeof b);
    empty(b, "no probes, no judgement");
    pb_noise_text(5, 5, 2, 10, 100, b, sizeof b);
    has(b, "other work shared the CPUs; only 10 of 100", "both");
    /* --cpu */
    int cpu = 7;
    pb_err e = {{0}};
    checks++;
    if (pb_cpu_parse(NULL, &cpu, &e) != 0 || cpu != PB_CPU_DEFAULT) { fails++; printf("FAIL default\n"); }
    checks++;
    if (pb_cpu_parse("none", &cpu, &e) != 0 || cpu != PB_CPU_NONE) { fails++; printf("FAIL none\n"); }
    const char *badv[] = {"x", "-1", "1x", "", " 1", "99999", "4096"};
    for (size_t i = 0; i < sizeof badv / sizeof *badv; i++) {
        e.msg[0] = 0;
        checks++;
        if (pb_cpu_parse(badv[i], &cpu, &e) == 0) { fails++; printf("FAIL --cpu '%s' accepted\n", badv[i]); }
        has(e.msg, "--cpu", badv[i]);
    }
    checks++;
    if (pb_cpu_parse("0", &cpu, &e) != 0 || cpu != 0) { fails++; printf("FAIL --cpu 0: %s\n", e.msg); }
    pb_pin p;
    pb_pin_apply(PB_CPU_NONE, &p);
    has(p.desc, "not pinned: --cpu none", "none");
    printf("%d checks, %d failed\n", checks, fails);
    return fails ? 1 : 0;
}
