/* SPDX-License-Identifier: GPL-2.0-only */
/* The Google Benchmark shim: flags pass through, every repetition and aggregate comes back
 * with its user counters, registration order is run order, errors are reported. */
#include <stdio.h>
#include <string.h>

#include "gbshim.h"
#include "../lib/check.h"

static volatile unsigned long sink;

static void work(pb_gb_state *st, void *arg)
{
    int *id = arg;
    uint64_t n = pb_gb_max_iterations(st);
    while (pb_gb_keep_running_batch(st, n))
        for (uint64_t i = 0; i < n; i++) sink += i;
    pb_gb_set_counter(st, "my_id", *id);
}

static void failing(pb_gb_state *st, void *arg)
{
    (void)arg;
    pb_gb_skip_with_error(st, "deliberate");
}

static int order[64], norder, reps, aggs, errors, counters_ok = 1;

static void cb(const pb_gb_result *r, void *user)
{
    (void)user;
    if (r->error) { errors++; CHECK(!strcmp(r->error_message, "deliberate"), "msg %s", r->error_message); return; }
    if (r->is_aggregate) { aggs++; return; }
    reps++;
    int id = *(int *)r->arg;
    if (r->repetition_index == 0 && norder < 64) order[norder++] = id;
    CHECK(r->iterations == 1000, "iterations %lld", (long long)r->iterations);
    CHECK(r->real_seconds > 0, "real time");
    int found = 0;
    for (int i = 0; i < r->ncounters; i++)
        if (!strcmp(r->counter_name[i], "my_id")) found = r->counter_value[i] == id;
    if (!found) counters_ok = 0;
}

int main(void)
{
    char a0[] = "test", a1[] = "--benchmark_repetitions=3", a2[] = "keep-me";
    char *argv[] = {a0, a1, a2, NULL};
    int argc = 3;
    CHECK(pb_gb_init(&argc, argv) == 0, "init");
    CHECK(argc == 2 && !strcmp(argv[1], "keep-me"), "non-GB args stay: argc %d", argc);
    int ids[3] = {2, 0, 1};
    CHECK(pb_gb_register("c", work, &ids[0], 1000) == 0, "register");
    CHECK(pb_gb_register("a", work, &ids[1], 1000) == 0, "register");
    CHECK(pb_gb_register("b", work, &ids[2], 1000) == 0, "register");
    CHECK(pb_gb_register("b", work, &ids[2], 1000) < 0, "duplicate name refused");
    CHECK(pb_gb_register("err", failing, NULL, 10) == 0, "register");
    pb_gb_run(cb, NULL, NULL);
    CHECK(reps == 9, "9 repetitions, got %d", reps);
    CHECK(aggs >= 12, "mean/median/stddev/cv for 3 benchmarks, got %d", aggs);
    CHECK(norder == 3 && order[0] == 2 && order[1] == 0 && order[2] == 1, "registration order is run order");
    CHECK(counters_ok, "user counters come back");
    CHECK(errors >= 1, "error reported");
    pb_gb_clear();
    reps = 0;
    pb_gb_run(cb, NULL, NULL);
    CHECK(reps == 0, "clear removes registrations");
    return check_summary();
}
