/* SPDX-License-Identifier: GPL-2.0-only */
/* The store's refusals, with fixed data: a run without samples is never complete, an allocation
 * that fails while a run is finalized fails the run (never a complete run with missing
 * statistics), '' and ':memory:' are refused, and a read-only open creates nothing.
 *
 * Linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc: the harness's own objects call
 * __wrap_malloc, which fails the Nth allocation when fail_at = N (SQLite, a shared library,
 * keeps the real one).
 *
 * With PB_TEST_DB set to the URI of an empty PostgreSQL database (tests/pg_server.sh), the same
 * checks run against PostgreSQL instead of a temporary SQLite file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pb.h"
#include "stats.h"
#include "store.h"
#include "suite.h"
#include "../lib/check.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t k);
void *__real_realloc(void *p, size_t n);
static long fail_at, allocs;
static int fail_now(void) { return fail_at && ++allocs == fail_at; }
void *__wrap_malloc(size_t n) { return fail_now() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t k) { return fail_now() ? NULL : __real_calloc(n, k); }
void *__wrap_realloc(void *p, size_t n) { return fail_now() ? NULL : __real_realloc(p, n); }

static int64_t new_run(pb_store *s)
{
    pb_provenance p;
    memset(&p, 0, sizeof p);
    pb_run_info ri = {.suite = "synthetic", .target = "userspace", .metrics = PB_M_NS_PER_OP, .baseline = "old",
                      .candidate = "new", .primary_metric = "ns_per_op"};
    pb_err e = {{0}};
    int64_t run = pb_store_begin_run(s, &ri, &p, &e);
    CHECK(run > 0, "begin run: %s", e.msg);
    return run;
}

/* old and new, 8 rounds of fixed times (new = 0.6 x old) */
static void add_cell(pb_store *s, int64_t run, int with_samples)
{
    pb_err e = {{0}};
    for (int k = 0; k < 2; k++) {
        int64_t c = pb_store_add_case(s, run, "synthetic", k ? "new" : "old", "chain", "add", 1000, 10, "ok", NULL, &e);
        CHECK(c > 0, "add case: %s", e.msg);
        for (int r = 0; r < 8 && with_samples; r++) {
            pb_sample m = {.round = r, .position = (r + k) % 2, .iterations = 10,
                           .ns = (k ? 600.0 : 1000.0) + r, .cpu_ns = -1, .cycles = -1, .insns = -1};
            CHECK(pb_store_add_sample(s, c, &m, &e) == 0, "add sample: %s", e.msg);
        }
    }
}

static char *status_of(pb_store *s, int64_t run, char *buf, size_t cap)
{
    pb_stmt *st;
    snprintf(buf, cap, "?");
    if (pb_db_prepare(s->db, "SELECT status FROM runs WHERE id = ?1", &st) != PB_DB_OK) return buf;
    pb_db_bind_int64(st, 1, run);
    if (pb_db_step(st) == PB_DB_ROW) snprintf(buf, cap, "%s", pb_db_column_text(st, 0));
    pb_db_finalize(st);
    return buf;
}

static int64_t count(pb_store *s, const char *sql)
{
    pb_stmt *st;
    int64_t v = -1;
    if (pb_db_prepare(s->db, sql, &st) != PB_DB_OK) return -1;
    if (pb_db_step(st) == PB_DB_ROW) v = pb_db_column_int64(st, 0);
    pb_db_finalize(st);
    return v;
}

static int always_stop(void) { return 1; }

int main(void)
{
    char dir[] = "/tmp/pb_test_store_XXXXXX", path[1024], buf[32];
    const char *pg = getenv("PB_TEST_DB");
    if (pg && *pg) {
        snprintf(path, sizeof path, "%s", pg);
        printf("back end: PostgreSQL (PB_TEST_DB)\n");
    } else {
        pg = NULL;
        if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
        snprintf(path, sizeof path, "%s/s.db", dir);
    }
    pb_err e = {{0}};
    pb_store s;

    /* '' and ':memory:' would throw the results away: refused, naming --db */
    CHECK(pb_store_open(&s, "", &e) < 0 && strstr(e.msg, "--db"), "'' accepted: %s", e.msg);
    CHECK(pb_store_open(&s, ":memory:", &e) < 0 && strstr(e.msg, "--db"), "':memory:' accepted: %s", e.msg);

    /* read-only open of a missing file: an error, and nothing created */
    CHECK(pb_store_open_readonly(&s, path, &e) < 0 && strstr(e.msg, "no database at"), "missing: %s", e.msg);
    if (pg) /* the first open created no schema, so a second one still finds none */
        CHECK(pb_store_open_readonly(&s, path, &e) < 0 && strstr(e.msg, "no database at"), "missing again: %s", e.msg);
    else
        CHECK(access(path, F_OK) != 0, "a read-only open created %s", path);

    if (pb_store_open(&s, path, &e) < 0) { printf("FAIL open: %s\n", e.msg); return 1; }
    CHECK(count(&s, pg ? "SELECT schema_version FROM pb_meta" : "PRAGMA user_version") == PB_SCHEMA_VERSION,
          "schema version");

    /* zero samples: an 'ok' case without samples, or a run without any case, is never complete */
    int64_t r1 = new_run(&s);
    add_cell(&s, r1, 0);
    CHECK(pb_store_finalize_run(&s, r1, &e) < 0 && strstr(e.msg, "no sample"), "zero-sample run finalized: %s", e.msg);
    CHECK(!strcmp(status_of(&s, r1, buf, sizeof buf), "incomplete"), "zero-sample run is %s", buf);
    int64_t r2 = new_run(&s);
    CHECK(pb_store_finalize_run(&s, r2, &e) < 0 && strstr(e.msg, "no case"), "caseless run finalized: %s", e.msg);
    CHECK(pb_store_latest_run(&s, "synthetic") == 0, "a run without samples counts as the latest complete one");

    /* a run asked to stop (SIGTERM) while its statistics are derived keeps none of them */
    int64_t asked = new_run(&s);
    add_cell(&s, asked, 1);
    CHECK(pb_store_finalize_run_noted(&s, asked, NULL, NULL, 0, always_stop, &e) < 0 && strstr(e.msg, "interrupted"),
          "a stopped finalize: %s", e.msg);
    CHECK(!strcmp(status_of(&s, asked, buf, sizeof buf), "incomplete"), "a stopped run is %s", buf);
    char sql[160];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM stats t JOIN cases c ON c.id = t.case_id WHERE c.run_id = %lld",
             (long long)asked);
    CHECK(count(&s, sql) == 0, "a stopped finalize kept %lld stats rows", (long long)count(&s, sql));

    /* the same data finalizes when nothing fails: 2 stats rows, 1 ratio of 0.6 */
    int64_t good = new_run(&s);
    add_cell(&s, good, 1);
    CHECK(pb_store_finalize_run(&s, good, &e) == 0, "finalize: %s", e.msg);
    CHECK(!strcmp(status_of(&s, good, buf, sizeof buf), "complete"), "good run is %s", buf);

    /* every allocation of finalize failed in turn: the run is either complete with all its
     * statistics and its ratio, or not complete and the error says why */
    int oom_failures = 0;
    for (long n = 1; n < 200; n++) {
        int64_t run = new_run(&s);
        add_cell(&s, run, 1);
        allocs = 0;
        fail_at = n;
        int rc = pb_store_finalize_run(&s, run, &e);
        long used = allocs;
        fail_at = 0;
        char sql[256];
        snprintf(sql, sizeof sql,
                 "SELECT (SELECT count(*) FROM stats t JOIN cases c ON c.id = t.case_id WHERE c.run_id = %lld)"
                 " * 10 + (SELECT count(*) FROM ratios WHERE run_id = %lld AND metric = 'ns_per_op')",
                 (long long)run, (long long)run);
        int64_t derived = count(&s, sql);
        status_of(&s, run, buf, sizeof buf);
        if (rc == 0) {
            CHECK(!strcmp(buf, "complete") && derived == 21, "alloc %ld: complete=%s with derived %lld", n, buf,
                  (long long)derived);
        } else {
            oom_failures++;
            CHECK(strcmp(buf, "complete") && strstr(e.msg, "memory"), "alloc %ld failed: status %s, error '%s'", n,
                  buf, e.msg);
        }
        if (used < n) break; /* fewer allocations than n: every one has been failed once */
    }
    CHECK(oom_failures > 0, "no allocation of finalize was failed");
    printf("finalize: %d failed allocations, each failed the run\n", oom_failures);

    pb_store_close(&s);

    /* read-only: reads what is there, refuses to write */
    CHECK(pb_store_open_readonly(&s, path, &e) == 0, "read-only open: %s", e.msg);
    CHECK(pb_store_latest_run(&s, "synthetic") >= good, "latest complete run");
    CHECK(pb_store_exec(&s, "DELETE FROM runs", &e) < 0, "a read-only store wrote");
    pb_store_close(&s);

    if (pg) return check_summary();
    unlink(path);
    char side[300];
    snprintf(side, sizeof side, "%s-wal", path); unlink(side);
    snprintf(side, sizeof side, "%s-shm", path); unlink(side);
    rmdir(dir);
    return check_summary();
}
