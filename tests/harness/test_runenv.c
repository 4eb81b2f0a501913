/* SPDX-License-Identifier: GPL-2.0-only */
/* The noise warnings' text and thresholds (runenv.h), and --cpu's refusals: no clock, no load. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "runenv.h"
#include "../lib/check.h"

static void has(const char *got, const char *part, const char *what)
{
    CHECK(strstr(got, part), "%s: '%s' lacks '%s'", what, got, part);
}

static void empty(const char *got, const char *what)
{
    CHECK(!got[0], "%s: want no warning, got '%s'", what, got);
}

int main(void)
{
    char b[512];
    /* the load average draws no warning, whatever it is (a label only): it counted the user's own
     * earlier runs; what competed with a round is its waits */
    /* the fast core state: under half of the probed samples */
    pb_noise_text(49, 100, b, sizeof b);
    has(b, "only 49 of 100 samples (49 %) in the fast core state (limit 50 %)", "few fast");
    pb_noise_text(50, 100, b, sizeof b);
    empty(b, "half fast");
    pb_noise_text(0, 0, b, sizeof b);
    empty(b, "no probes, no judgement");
    /* waits: rounds whose samples waited, and how far the ratios move without them */
    pb_waits_text(0, 64, 0.0, "new/old 256 enc 64 B", 1.0, 1.0, b, sizeof b);
    empty(b, "no round waited");
    pb_waits_text(3, 0, 0.0, "", 1.0, 1.0, b, sizeof b);
    empty(b, "no rounds measured");
    pb_waits_text(16, 1920, 0.0123, "new/old 256 enc 64 B", 0.912, 0.9008, b, sizeof b);
    has(b, "16 of 1920 rounds waited (run-queue delay or steal over 1 % of a sample); without them the ratios move by "
           "up to 1.2 % (new/old 256 enc 64 B: 0.912, 0.901 without)", "waited, moved");
    pb_waits_text(64, 64, NAN, "", NAN, NAN, b, sizeof b);
    has(b, "64 of 64 rounds waited", "all waited");
    has(b, "too few rounds without them to say how far the ratios move", "all waited: no move");
    /* the waits read here: this thread's run-queue delay and the machine's steal, or unknown */
    pb_waits w;
    pb_waits_files wf = PB_WAITS_FILES_INIT;
    for (int i = 0; i < 2; i++) {   /* the first read opens the files, the second reuses them */
        pb_waits_read(&wf, &w);
        CHECK((w.run_delay_ns >= 0 || w.run_delay_ns == -1) && (w.steal_ns >= 0 || w.steal_ns == -1),
              "waits read %d: %g %g", i, w.run_delay_ns, w.steal_ns);
    }
    pb_waits_files_close(&wf);
    CHECK(wf.sched_fd == -1 && wf.stat_fd == -1, "waits files closed");
    /* --cpu */
    int cpu = 7;
    pb_err e = {{0}};
    CHECK(pb_cpu_parse(NULL, &cpu, &e) == 0 && cpu == PB_CPU_DEFAULT, "default");
    CHECK(pb_cpu_parse("none", &cpu, &e) == 0 && cpu == PB_CPU_NONE, "none");
    const char *badv[] = {"x", "-1", "1x", "", " 1", "99999", "4096"};
    for (size_t i = 0; i < sizeof badv / sizeof *badv; i++) {
        e.msg[0] = 0;
        CHECK(pb_cpu_parse(badv[i], &cpu, &e) != 0, "--cpu '%s' accepted", badv[i]);
        has(e.msg, "--cpu", badv[i]);
    }
    CHECK(pb_cpu_parse("0", &cpu, &e) == 0 && cpu == 0, "--cpu 0: %s", e.msg);
    pb_pin p;
    pb_pin_apply(PB_CPU_NONE, &p);
    has(p.desc, "not pinned: --cpu none", "none");
    return check_summary();
}
