#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# store_test.sh BENCH FIXTURES SECTION — the versioned store and `bench run`'s refusals.
# Fixed data only: the version-1 databases come from checked-in SQL dumps (FIXTURES/*.sql), the
# runs are the synthetic suite's (their numbers are never asserted, only their status and count).
BENCH=$(realpath "$1") FIX=$(realpath "$2") SECTION=$3
source "$(dirname "$0")/../lib.sh"
export PB_JOB_ID=store-test
unset PB_DB
QUICK=(run --suite synthetic --quick --quiet --rounds 2)

# load FIXTURE.sql into a new database file
load() { sqlite3 "$2" < "$FIX/$1.sql" || bad "cannot load fixture $1"; }

case $SECTION in
store-migrates-v1-databases)
    for f in store-v1-branch-start store-v1-first; do
        D=$T/$f.db
        load $f "$D"
        is "$f: unversioned" "$(q "$D" "PRAGMA user_version")" "0"
        before=$(sha256sum "$D")
        # a command that only reads refuses an old database and leaves it as it was
        expect 2 "schema version 1" "$BENCH" list --runs --db "$D"
        expect 2 "bench migrate" "$BENCH" report --db "$D" --out "$T/p"
        is "$f: a refused read leaves the file unchanged" "$(sha256sum "$D")" "$before"
        expect 0 "schema version 11" "$BENCH" migrate --db "$D"
        is "$f: user_version" "$(q "$D" "PRAGMA user_version")" "11"
        is "$f: old 'host' runs are userspace runs" "$(q "$D" "SELECT group_concat(target) FROM runs WHERE id IN (1, 2)")" \
           "userspace,userspace"
        is "$f: every column of version 2" \
           "$(q "$D" "SELECT count(*) FROM pragma_table_info('runs') WHERE name IN ('guest_kernel', 'machine_id', 'job_id')")" "3"
        is "$f: the gate's tables" \
           "$(q "$D" "SELECT count(*) FROM sqlite_master WHERE name IN ('comparisons', 'comparison_runs', 'comparison_cells', 'calibrations')")" "4"
        is "$f: samples, stats and ratios kept" \
           "$(q "$D" "SELECT (SELECT count(*) FROM samples) || ',' || (SELECT count(*) FROM stats) || ',' || (SELECT count(*) FROM ratios)")" "6,2,1"
        is "$f: the old run is in summary" "$(q "$D" "SELECT count(*) FROM summary WHERE run_id = 1")" "2"
        is "$f: every run has its own version-4 uuid (version 3)" \
           "$(q "$D" "SELECT count(DISTINCT uuid) = count(*) AND min(uuid GLOB '????????-????-4???-[89ab]???-????????????') FROM runs")" "1"
        is "$f: the integrity check" "$(q "$D" "PRAGMA integrity_check")" "ok"
        expect 0 "userspace" "$BENCH" list --runs --db "$D"
        # a second migrate finds nothing to do
        expect 0 "schema version 11" "$BENCH" migrate --db "$D"
    done
    # an early version-2 file (no suite_settings) is brought to version 3 whole
    D=$T/v2-early.db
    load store-v2-early "$D"
    expect 0 "schema version 11" "$BENCH" migrate --db "$D"
    is "v2-early: user_version" "$(q "$D" "PRAGMA user_version")" "11"
    is "v2-early: suite_settings and the version-3 columns" \
       "$(q "$D" "SELECT count(*) FROM pragma_table_info('runs') WHERE name IN ('suite_settings', 'uuid', 'cpu_affinity', 'loadavg_start', 'loadavg_end', 'noise')")" "6"
    is "v2-early: its run is reported (2 cases x 3 metrics)" "$(q "$D" "SELECT count(*) FROM summary WHERE run_id = 1")" "6"
    # a version-3 file (before code layouts): its run reads as one layout, and is still reported
    D=$T/v3.db
    load store-v3 "$D"
    is "v3: user_version before" "$(q "$D" "PRAGMA user_version")" "3"
    expect 0 "schema version 11" "$BENCH" migrate --db "$D"
    is "v3: the layout columns, one layout" \
       "$(q "$D" "SELECT (SELECT group_concat(DISTINCT layouts) FROM cases) || ',' || (SELECT group_concat(DISTINCT layout) FROM samples) || ',' || (SELECT group_concat(DISTINCT layouts || ':' || (layout_lo IS NULL) || (per_layout IS NULL)) FROM ratios) || ',' || (SELECT layouts IS NULL FROM runs)")" \
       "1,0,1:11,1"
    expect 0 "synthetic: 2 cells: " "$BENCH" report --db "$D" --out "$T/v3-plots"
    grep -q "code layout" "$T/v3-plots/synthetic.md" && grep -q "between [0-9]* code layouts" "$T/v3-plots/synthetic.md" \
        && bad "v3: a one-layout run got a between-layouts column" || ok
    # a version-4 file (before the CPU identity): the identity columns come, NULL (not recorded),
    # every row stays, and the run is still reported, its identity "not recorded"
    D=$T/v4.db
    load store-v4 "$D"
    is "v4: user_version before" "$(q "$D" "PRAGMA user_version")" "4"
    rows() { q "$1" "SELECT (SELECT count(*) FROM runs) || ',' || (SELECT count(*) FROM cases) || ',' || (SELECT count(*) FROM samples) || ',' || (SELECT count(*) FROM stats) || ',' || (SELECT count(*) FROM ratios) || ',' || (SELECT count(*) FROM summary WHERE run_id = 1)"; }
    before=$(rows "$D")
    expect 0 "schema version 11" "$BENCH" migrate --db "$D"
    is "v4: user_version" "$(q "$D" "PRAGMA user_version")" "11"
    is "v4: its runs and their rows kept (runs, cases, samples, stats, ratios, summary)" "$(rows "$D")" "$before"
    is "v4: the identity columns, not recorded" \
       "$(q "$D" "SELECT count(*) FROM runs WHERE cpu_vendor IS NULL AND cpu_family IS NULL AND cpu_model_number IS NULL AND cpu_stepping IS NULL AND cpu_microcode IS NULL AND cache_l1d_bytes IS NULL AND cache_l1i_bytes IS NULL AND cache_l2_bytes IS NULL AND cache_l3_bytes IS NULL AND threads_per_core IS NULL AND hypervisor IS NULL")" "1"
    is "v4: the old run is in summary" "$(q "$D" "SELECT count(*) > 0 FROM summary WHERE run_id = 1")" "1"
    expect 0 "synthetic: 2 cells: " "$BENCH" report --db "$D" --out "$T/v4-plots"
    grep -q "^- CPU identity: not recorded$" "$T/v4-plots/synthetic.md" && ok || bad "v4: the report does not say the identity was not recorded"
    # a run stored after the migration records its own
    expect 0 "run 2 complete" "$BENCH" "${QUICK[@]}" --db "$D"
    is "v4: a new run's identity" "$(q "$D" "SELECT count(*) FROM runs WHERE id = 2 AND hypervisor IS NOT NULL")" "1"
    # a version-5 file (before the user's code had an identity): no user's side, no objects, no
    # baselines, its comparison against no baseline; its run still reported
    D=$T/v5.db
    load store-v5 "$D"
    is "v5: user_version before" "$(q "$D" "PRAGMA user_version")" "5"
    expect 0 "schema version 11" "$BENCH" migrate --db "$D"
    is "v5: the user columns, NULL" \
       "$(q "$D" "SELECT count(*) FROM runs WHERE user_revision IS NULL AND user_label IS NULL AND user_repo IS NULL AND build_parity IS NULL")" "1"
    is "v5: tables objects and baselines, empty" "$(q "$D" "SELECT (SELECT count(*) FROM objects) || ',' || (SELECT count(*) FROM baselines)")" "0,0"
    is "v5: its comparison kept, against no baseline" "$(q "$D" "SELECT count(*) FROM comparisons WHERE baseline IS NULL")" "1"
    expect 0 "synthetic: 2 cells: " "$BENCH" report --db "$D" --out "$T/v5-plots"
    expect 0 "schema version 11" "$BENCH" migrate --db "$D"
    # a version-6 file (before the run-queue and steal times, and before user and system CPU
    # time were kept apart): migrated to 8, its samples have none of them, NULL, and its run is still reported
    D=$T/v6.db
    load store-v6 "$D"
    is "v6: user_version before" "$(q "$D" "PRAGMA user_version")" "6"
    expect 0 "schema version 11" "$BENCH" migrate --db "$D"
    is "v6: samples kept, user_ns, sys_ns and wait_ns NULL" \
       "$(q "$D" "SELECT count(*) || ',' || count(user_ns) || ',' || count(sys_ns) || ',' || count(wait_ns) FROM samples")" "$(q "$D" "SELECT count(*) FROM samples"),0,0,0"
    expect 0 "synthetic: 2 cells: " "$BENCH" report --db "$D" --out "$T/v6-plots"
    # a version-7 file (run-queue and steal times, no user/system split): its wait_ns kept, user_ns
    # and sys_ns NULL, its run still reported
    D=$T/v7.db
    load store-v7 "$D"
    is "v7: user_version before" "$(q "$D" "PRAGMA user_version")" "7"
    waits=$(q "$D" "SELECT count(wait_ns) FROM samples")
    expect 0 "schema version 11" "$BENCH" migrate --db "$D"
    is "v7: wait_ns kept, user_ns and sys_ns NULL" \
       "$(q "$D" "SELECT count(wait_ns) || ',' || count(user_ns) || ',' || count(sys_ns) FROM samples")" "$waits,0,0"
    expect 0 "synthetic: 2 cells: " "$BENCH" report --db "$D" --out "$T/v7-plots"
    # a version-8 file (before the core-sharing probes): its samples have none, NULL, every other
    # column kept, and a re-finalize of its run leaves its ratios as they were (no round counts as
    # shared without probes)
    D=$T/v8.db
    load store-v8 "$D"
    is "v8: user_version before" "$(q "$D" "PRAGMA user_version")" "8"
    waits=$(q "$D" "SELECT count(wait_ns) || ',' || count(probe_before) FROM samples")
    ratios=$(q "$D" "SELECT group_concat(estimate || ':' || n_pairs, ' ') FROM ratios")
    expect 0 "schema version 11" "$BENCH" migrate --db "$D"
    is "v8: probes kept, the core-sharing probes NULL" \
       "$(q "$D" "SELECT count(wait_ns) || ',' || count(probe_before) FROM samples")/$(q "$D" "SELECT count(tprobe_before) + count(tprobe_after) FROM samples")" "$waits/0"
    expect 0 "synthetic: 2 cells: " "$BENCH" report --db "$D" --out "$T/v8-plots"
    is "v8: its ratios as stored" "$(q "$D" "SELECT group_concat(estimate || ':' || n_pairs, ' ') FROM ratios")" "$ratios"
    # a version-9 file (before the index bench history reads cases by): the index comes, every row
    # stays, and the run is still reported and followed
    D=$T/v9.db
    load store-v9 "$D"
    is "v9: user_version before" "$(q "$D" "PRAGMA user_version")" "9"
    before=$(q "$D" "SELECT (SELECT count(*) FROM runs) || ',' || (SELECT count(*) FROM cases) || ',' || (SELECT count(*) FROM samples) || ',' || (SELECT count(*) FROM sample_metrics) || ',' || (SELECT count(*) FROM stats) || ',' || (SELECT count(*) FROM ratios)")
    expect 0 "schema version 11" "$BENCH" migrate --db "$D"
    is "v9: the index cases_suite_impl" "$(q "$D" "SELECT sql FROM sqlite_master WHERE name = 'cases_suite_impl'")" \
       "CREATE INDEX cases_suite_impl ON cases(suite, impl)"
    is "v9: every row kept" "$(q "$D" "SELECT (SELECT count(*) FROM runs) || ',' || (SELECT count(*) FROM cases) || ',' || (SELECT count(*) FROM samples) || ',' || (SELECT count(*) FROM sample_metrics) || ',' || (SELECT count(*) FROM stats) || ',' || (SELECT count(*) FROM ratios)")" "$before"
    q "$D" "EXPLAIN QUERY PLAN SELECT s.median FROM summary s WHERE s.suite = 'synthetic' AND s.impl = 'new' AND s.metric = 'ns_per_op'" |
        grep -q "USING INDEX cases_suite_impl" && ok || bad "v9: history's read does not use the index"
    expect 0 "synthetic: 2 cells: " "$BENCH" report --db "$D" --out "$T/v9-plots"
    expect 0 "change points: none" "$BENCH" history --suite synthetic --db "$D" --no-plots
    # a version-10 file (before per-function counts): the table func_counts comes, empty, every row
    # stays, both its runs (wall time and counts) are still reported, exported and merged
    D=$T/v10.db
    load store-v10 "$D"
    is "v10: user_version before" "$(q "$D" "PRAGMA user_version")" "10"
    before=$(q "$D" "SELECT (SELECT count(*) FROM runs) || ',' || (SELECT count(*) FROM cases) || ',' || (SELECT count(*) FROM samples) || ',' || (SELECT count(*) FROM stats) || ',' || (SELECT count(*) FROM ratios)")
    expect 0 "schema version 11" "$BENCH" migrate --db "$D"
    is "v10: func_counts, empty" "$(q "$D" "SELECT count(*) FROM func_counts")" "0"
    is "v10: every row kept" "$(q "$D" "SELECT (SELECT count(*) FROM runs) || ',' || (SELECT count(*) FROM cases) || ',' || (SELECT count(*) FROM samples) || ',' || (SELECT count(*) FROM stats) || ',' || (SELECT count(*) FROM ratios)")" "$before"
    expect 0 "synthetic: 2 cells: " "$BENCH" report --db "$D" --out "$T/v10-plots"
    expect 0 "" "$BENCH" export --format json --run 2 --db "$D" --out "$T/v10.json"
    expect 0 "copied 2 runs" "$BENCH" merge "$T/v10.db" --into "$T/v10-into.db"
    load store-v2-early "$T/v2-src.db"
    expect 0 "copied 1 run" "$BENCH" merge "$T/v2-src.db" --into "$T/v2-dest.db"
    is "a kernel-module run stays one" "$(q "$T/store-v1-branch-start.db" "SELECT target FROM runs WHERE id = 3")" "qemu-tcg"
    # a command that stores migrates by itself: the first schema had no machine_id column
    D=$T/run-on-old.db
    load store-v1-first "$D"
    expect 0 "run 3 complete" "$BENCH" "${QUICK[@]}" --db "$D"
    is "run on a version-1 file: migrated" "$(q "$D" "PRAGMA user_version")" "11"
    is "run on a version-1 file: its run" "$(q "$D" "SELECT status || ':' || target || ':' || (machine_id IS NOT NULL) FROM runs WHERE id = 3")" \
       "complete:userspace:1"
    # a file from a newer bench is refused by every command and left alone
    D=$T/newer.db
    load store-v1-branch-start "$D"
    sqlite3 "$D" "PRAGMA user_version = 99"
    before=$(sha256sum "$D")
    expect 2 "newer than this bench" "$BENCH" "${QUICK[@]}" --db "$D"
    expect 2 "use a newer bench" "$BENCH" list --runs --db "$D"
    is "a newer file is left unchanged" "$(sha256sum "$D")" "$before"
    # a migration that fails half-way (a trigger refuses the rewrite of 'host', after the new
    # columns were added) leaves the file as it was: one transaction
    D=$T/broken.db
    load store-v1-first "$D"
    sqlite3 "$D" "CREATE TRIGGER frozen BEFORE UPDATE ON runs BEGIN SELECT RAISE(ABORT, 'frozen'); END;"
    expect 1 "left unchanged" "$BENCH" migrate --db "$D"
    is "a failed migration adds no column" "$(q "$D" "SELECT count(*) FROM pragma_table_info('runs') WHERE name = 'machine_id'")" "0"
    is "a failed migration keeps version and rows" "$(q "$D" "PRAGMA user_version")$(q "$D" "SELECT group_concat(target) FROM runs")" \
       "0host,host"
    # a runs view is not our runs table
    D=$T/view.db
    sqlite3 "$D" "CREATE TABLE r0 (id INTEGER PRIMARY KEY, suite TEXT, target TEXT); CREATE VIEW runs AS SELECT * FROM r0;"
    expect 2 "not a patchbench database" "$BENCH" list --runs --db "$D"
    # an SQLite file of someone else's
    D=$T/other.db
    sqlite3 "$D" "CREATE TABLE t (x); INSERT INTO t VALUES (1);"
    before=$(sha256sum "$D")
    expect 2 "not a patchbench database" "$BENCH" "${QUICK[@]}" --db "$D"
    is "someone else's file is left unchanged" "$(sha256sum "$D")" "$before"
    ;;

store-concurrent-writers-all-complete)
    # 6 writers at once on a NEW file (they race to create it, set WAL and create the schema) and
    # on a version-1 file (they race to migrate it): every run completes. Three times each.
    N=6
    for kind in new1 old1 new2 old2 new3 old3; do
        D=$T/$kind.db
        [[ $kind == old* ]] && load store-v1-branch-start "$D"
        pids=()
        for i in $(seq $N); do
            "$BENCH" "${QUICK[@]}" --db "$D" > "$T/$kind.$i.out" 2>&1 &
            pids+=($!)
        done
        for i in $(seq $N); do
            if wait "${pids[$((i - 1))]}"; then ok; else bad "$kind file: writer $i failed: $(cat "$T/$kind.$i.out")"; fi
        done
        is "$kind file: $N complete runs" "$(q "$D" "SELECT count(*) FROM runs WHERE suite = 'synthetic' AND status = 'complete' AND job_id = 'store-test'")" "$N"
        is "$kind file: user_version" "$(q "$D" "PRAGMA user_version")" "11"
    done
    ;;

store-read-only-commands-create-nothing)
    cd "$T" || exit 1
    expect 2 "no database at" "$BENCH" list --runs --db new/dir/x.db
    expect 2 "no database at" "$BENCH" report --db new/dir/x.db --out "$T/p"
    expect 2 "no database at" "$BENCH" migrate --db new/dir/x.db
    [[ -e new ]] && bad "a read-only command created a folder" || ok
    expect 2 "no database at" "$BENCH" list --runs
    [[ -e results ]] && bad "a read-only command created the default folder" || ok
    # PB_DB: the default database of every command
    PB_DB=$T/env/e.db expect 0 "run 1 complete" "$BENCH" "${QUICK[@]}"
    PB_DB=$T/env/e.db expect 0 "synthetic complete" "$BENCH" list --runs
    [[ -e results ]] && bad "PB_DB was not used" || ok
    # a read-only folder: list reads it, and nothing is created in it. Root may write anywhere, so
    # as root the reader is `nobody` (where runuser exists); otherwise only "nothing created" holds.
    mkdir ro && cp env/e.db ro/e.db
    chmod 555 ro
    chmod 644 ro/e.db
    # `nobody` may not be allowed into the clone (a clone in /root, mode 0700): it runs a copy of
    # the binary from $T, which it may enter, never the build's own.
    as=() reader=$BENCH
    if [[ $(id -u) == 0 ]] && command -v runuser > /dev/null && runuser -u nobody -- true 2> /dev/null; then
        chmod 755 "$T"
        mkdir "$T/reader-bin" && cp "$BENCH" "$T/reader-bin/bench" && chmod 755 "$T/reader-bin" "$T/reader-bin/bench"
        as=(runuser -u nobody --) reader=$T/reader-bin/bench
    fi
    expect 0 "synthetic complete" "${as[@]}" "$reader" list --runs --db "$T/ro/e.db"
    is "nothing created beside a database read" "$(ls ro)" "e.db"
    chmod 755 ro
    # a corrupt file: list fails instead of printing a short list
    D=$T/corrupt.db
    sqlite3 "$D" "CREATE TABLE x (y)" && rm "$D"
    "$BENCH" "${QUICK[@]}" --db "$D" > /dev/null 2>&1 || bad "run for the corrupt-file test failed"
    sqlite3 "$D" "PRAGMA journal_mode = DELETE; WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
        INSERT INTO runs (suite, status, started_at, target, command_line) SELECT 'synthetic', 'failed', 'x', 'userspace',
        printf('%0200d', i) FROM n;" > /dev/null
    pages=$(q "$D" "PRAGMA page_count")
    root=$(q "$D" "SELECT rootpage FROM sqlite_master WHERE name = 'runs'")
    psize=$(q "$D" "PRAGMA page_size")
    # zero 20 leaf pages of the runs table (page type 0 is invalid): the schema and the root page
    # stay readable, so the listing starts and then meets the damage
    for p in $(q "$D" "SELECT pageno FROM dbstat WHERE name = 'runs' AND pageno <> $root LIMIT 20"); do
        dd if=/dev/zero of="$D" bs="$psize" seek=$((p - 1)) count=1 conv=notrunc status=none
    done
    [[ $pages -gt 20 ]] || bad "corrupt-file test: database too small ($pages pages)"
    out=$("$BENCH" list --runs --db "$D" 2>&1)
    rc=$?
    [[ $rc -eq 1 && $out == *"reading runs: database disk image is malformed"* ]] && ok ||
        bad "list on a corrupt file exited $rc: $(tail -2 <<< "$out")"
    ;;

run-refuses-bad-options-before-measuring)
    D=$T/r.db
    expect 2 "--benchmark_repetitions wants a whole number" "$BENCH" "${QUICK[@]}" --db "$D" --benchmark_repetitions=0
    expect 2 "--benchmark_repetitions wants a whole number" "$BENCH" "${QUICK[@]}" --db "$D" --benchmark_repetitions=-5
    expect 2 "--benchmark_repetitions wants a whole number" "$BENCH" "${QUICK[@]}" --db "$D" --benchmark_repetitions=1x
    expect 2 "bad size '18014398509481985k'" "$BENCH" "${QUICK[@]}" --db "$D" --sizes 18014398509481985k
    expect 2 "bad size '18446744073709551617'" "$BENCH" "${QUICK[@]}" --db "$D" --sizes 18446744073709551617
    expect 2 "bad size '+64'" "$BENCH" "${QUICK[@]}" --db "$D" --sizes +64
    expect 2 "--sizes is too long" "$BENCH" "${QUICK[@]}" --db "$D" --sizes "$(printf '64,%.0s' $(seq 200))4096"
    expect 2 "--quick takes no value" "$BENCH" run --suite synthetic --quick=no --db "$D"
    expect 2 "--quiet takes no value" "$BENCH" "${QUICK[@]}" --quiet=no --db "$D"
    expect 2 "--db: an empty path" "$BENCH" "${QUICK[@]}" --db ''
    expect 2 "--db: ':memory:'" "$BENCH" "${QUICK[@]}" --db :memory:
    expect 2 "--db: an empty path" "$BENCH" import /dev/null --db ''
    expect 2 "--db: ':memory:'" "$BENCH" migrate --db :memory:
    expect 2 "not a multiple of 16" "$BENCH" run --suite xts --quick --quiet --sizes 4096,17 --db "$D"
    expect 2 "outside 1.." "$BENCH" run --suite drbg --quick --quiet --sizes 1048576 --db "$D"
    [[ -e $D ]] && bad "a refused command line created the database: $(q "$D" "SELECT group_concat(status) FROM runs")" || ok
    # and the valid forms still run
    expect 0 "run 1 complete" "$BENCH" "${QUICK[@]}" --db "$D" --benchmark_repetitions=2 --sizes 64,1k
    is "2 repetitions stored" "$(q "$D" "SELECT group_concat(DISTINCT repetition) FROM samples")" "0,1"
    ;;

*) bad "unknown section $SECTION" ;;
esac
finish
