#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# pg_test.sh BENCH TEST_STORE SECTION — the PostgreSQL store (docs/fleet.md) against a throwaway
# server (tests/pg_server.sh: initdb into a temp folder, a Unix socket there, no TCP, removed at
# the end). Fixed data only: seeded synthetic runs (--seed: samples from a generator, not the
# clock) and a fixed import file; no figure of a live timing is asserted, and waiting for a
# writer to reach a point is a wait for a condition, never a timed guess. Each section prints
# its own wall time (the CI log keeps it).
BENCH=$(realpath "$1") TEST_STORE=$(realpath "$2") SECTION=$3
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../pg_server.sh"
export PB_JOB_ID=pg-test
unset PB_DB PGPASSWORD PGHOST PGUSER PGDATABASE PGSERVICE
started=$(date +%s)
QUICK=(run --suite synthetic --quick --quiet)

# the same output from two back ends, once the database's name, times, UUIDs and what each run
# measured of the machine (load averages and the noise warnings they draw, the TSC's rate) are masked
mask() {
    sed -e "s#$T/[A-Za-z0-9_.-]*#DB#g" -e "s#postgresql://[^ \`\"<:;]*#DB#g" \
        -e 's/[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T[0-9:.]*Z/TIME/g' \
        -e 's/[0-9a-f]\{8\}-[0-9a-f]\{4\}-4[0-9a-f]\{3\}-[0-9a-f]\{4\}-[0-9a-f]\{12\}/UUID/g' -e 's/`[0-9a-f]\{8\}`/`UUID8`/g' \
        -e 's/; NOISE WARNING:.*$//' -e '/was noisy/d' -e '/[Nn]oise warning/d' -e '/load average/d' \
        -e 's/"\(loadavg_start\|loadavg_end\)": [0-9.e+-]*/"\1": L/g' -e 's/"noise": "[^"]*"/"noise": N/g' \
        -e 's/[0-9.]\+ GHz/F GHz/g' -e 's/"\(tsc_hz\|mhz_per_cpu\)": [0-9.e+]*/"\1": F/g' "$@"
}
# a query's rows, numbers printed alike (SQLite and psql format doubles and infinity differently)
rows_of() {
    if [[ $1 == postgresql://* ]]; then pgq "$1" "$2" | tr '|' '\t'; else sqlite3 -separator $'\t' "$1" "$2"; fi |
        awk -F'\t' -v OFS='\t' '{ for (i = 1; i <= NF; i++) if ($i ~ /^-?[0-9]+\.[0-9]+(e[-+]?[0-9]+)?$/) $i = sprintf("%.10g", $i);
                                                     else if ($i ~ /^-?Infinity$/) sub(/inity/, "", $i); print }'
}

# results of the kernel-module variant as `bench import` reads them: 6 rounds of kmod-old and
# kmod-new, new twice as fast, and a part the guest kernel did not have
kmod_results() {
    printf 'pbk1 meta %s\n' kernel=6.1.0-99-amd64 target=qemu-tcg
    local r
    for r in 0 1 2 3 4 5; do
        printf 'pbk1 sample suite=xts impl=%s variant=256 op=enc size=4096 round=%d iters=8 ns=%d\n' \
            kmod-old "$r" $((16000 + r * 10)) kmod-new "$r" $((8000 + r * 7))
    done
    printf 'pbk1 unavailable suite=sigpool impl=kmod-new variant=md5 reason=no-tcp-ao\npbk1 end\n'
}

case $SECTION in
pg-uri-with-password-refused)
    # no server needed: refused before anything connects, by every command, from --db or PB_DB,
    # and the password appears nowhere in what is printed
    for uri in 'postgresql://lab:s3cret@db.example/bench' 'postgres://lab:@db.example/bench' \
               'postgresql://db.example/bench?sslmode=require&password=s3cret' \
               'postgresql://db.example/bench?pass%77ord=s3cret'; do
        for cmd in "${QUICK[*]}" "import /dev/null" "list --runs" "report" "history --suite synthetic" \
                   "export --format json" "gate --suite synthetic --quick" "compare" "migrate"; do
            # shellcheck disable=SC2086
            out=$("$BENCH" $cmd --db "$uri" 2>&1)
            rc=$?
            [[ $rc == 2 && $out == *"--db: the PostgreSQL URI carries a password"* && $out != *s3cret* ]] && ok ||
                bad "$cmd --db $uri: exit $rc: $out"
            # shellcheck disable=SC2086
            out=$(PB_DB=$uri "$BENCH" $cmd 2>&1)
            rc=$?
            [[ $rc == 2 && $out == *"PB_DB: the PostgreSQL URI carries a password"* && $out != *s3cret* ]] && ok ||
                bad "PB_DB=$uri $cmd: exit $rc: $out"
        done
    done
    # bench merge names its own options, and echoes no password either
    for args in "--into postgresql://lab:s3cret@db.example/bench" "postgresql://lab:s3cret@db.example/bench --into $T/d.db"; do
        # shellcheck disable=SC2086
        out=$("$BENCH" merge $T/none.db $args 2>&1)
        rc=$?
        [[ $rc == 2 && $out == *"the PostgreSQL URI carries a password"* && $out != *s3cret* ]] && ok ||
            bad "merge $args: exit $rc: $out"
    done
    [[ -e $T/d.db ]] && bad "a refused merge created its DEST" || ok
    # a user without a password is a URI like any other (it fails to connect here: no server)
    expect 1 "cannot open database postgresql://lab@/nodb?host=$T" "$BENCH" "${QUICK[@]}" --db "postgresql://lab@/nodb?host=$T"
    ;;

pg-store-finalize-zero-samples-oom)
    # test_store.c (zero-sample runs never complete, every failed allocation of finalize fails the
    # run, read-only opens create nothing and write nothing) against PostgreSQL
    pg_start
    out=$(PB_TEST_DB=$(pg_db teststore) "$TEST_STORE" 2>&1)
    rc=$?
    echo "$out" | tail -3
    [[ $rc == 0 && $out == *"back end: PostgreSQL"* ]] && ok || bad "test_store on PostgreSQL exited $rc: $out"
    ;;

pg-every-command-same-as-sqlite)
    # The same seeded runs, gates, comparisons, import and merge into an SQLite file and into PostgreSQL:
    # every command's output is the same (database names, times and UUIDs masked), and so are the
    # summary and summary_ratios views and the stored comparisons.
    pg_start
    # The machine's load must not reach the outputs compared: a run that draws a noise warning on
    # one backend and not on the other (a busy machine, the whole suite in parallel) changes its
    # summary line and its report's header. A fixed load reading (the test hook, runenv.c) does.
    export PB_TEST_LOADAVG=0.25 PB_TEST_WAITS=0
    TH=$T/thresholds
    printf 'claim synthetic * 15%%\ncommit synthetic * 15%%\n' > "$TH"
    G=(--quick --quiet --thresholds "$TH" --seed 1)
    K=$T/kmod.txt
    kmod_results > "$K"
    # another machine's store, for bench merge and report --machines
    PB_MACHINE_ID=machine-x "$BENCH" "${QUICK[@]}" --seed 5 --cpu none --db "$T/other.db" > /dev/null ||
        bad "the other machine's run failed"
    for be in lite pg; do
        if [[ $be == pg ]]; then D=$(pg_db every); else D=$T/every.db; fi
        O=$T/out.$be
        mkdir "$O"
        {
            "$BENCH" "${QUICK[@]}" --seed 1 --shift 1.5 --db "$D"
            "$BENCH" "${QUICK[@]}" --seed 2 --shift 1.5 --db "$D"
            "$BENCH" "${QUICK[@]}" --seed 3 --unavailable new --db "$D"
            "$BENCH" "${QUICK[@]}" --seed 4 --fail-selftest new --db "$D"
            echo "exit $?"
            "$BENCH" import "$K" --db "$D"
            "$BENCH" list --runs --db "$D"
            "$BENCH" report --db "$D" --out "$O/plots"
            "$BENCH" report --db "$D" --run 3 --out "$O/plots3"
            "$BENCH" report --html --db "$D" --out "$O/report.html"
            "$BENCH" history --suite synthetic --db "$D" --out "$O/hist"
            "$BENCH" history --suite synthetic --impl old --metric mb_per_s --db "$D" --out "$O/hist2"
            for f in json csv gbench; do "$BENCH" export --format $f --db "$D" --out "$O/export.$f"; done
            "$BENCH" export --format json --run 1 --db "$D" --out "$O/export1.json"
            "$BENCH" compare --db "$D" --run 1
            "$BENCH" compare --db "$D" --runs 1 2
            "$BENCH" gate --suite synthetic "${G[@]}" --db "$D"
            "$BENCH" gate --calibrate --suite synthetic --repeat 2 "${G[@]}" --db "$D"
            "$BENCH" gate --suite synthetic "${G[@]}" --db "$D" --format json
            # runs of two builds alternating in one job: compare --runs and the commit gate
            A=() B=()
            for k in 1 2 3 4 5 6; do
                A+=("$(PB_JOB_ID=job-1 "$BENCH" run --suite synthetic --quick --rounds 3 --quiet --seed 1 --db "$D" | sed -n 's/^run \([0-9]*\) complete.*/\1/p')")
                B+=("$(PB_JOB_ID=job-1 "$BENCH" run --suite synthetic --quick --rounds 3 --quiet --seed 1 --db "$D" | sed -n 's/^run \([0-9]*\) complete.*/\1/p')")
            done
            "$BENCH" compare --db "$D" --runs "$(IFS=,; echo "${A[*]}")" "$(IFS=,; echo "${B[*]}")"
            "$BENCH" gate --db "$D" --thresholds "$TH" --baseline-runs "$(IFS=,; echo "${A[*]}")" \
                --candidate-runs "$(IFS=,; echo "${B[*]}")"
            echo "exit $?"
            # the lab's JSON, whole: out of this store, and the other machine's into it (merge then skips it)
            "$BENCH" export --format json --full --run 1 --db "$D" --out "$O/export1full.json"
            "$BENCH" export --format json --full --db "$T/other.db" --out "$T/other-$be.json"
            "$BENCH" import "$T/other-$be.json" --db "$D"
            "$BENCH" merge "$T/other.db" --into "$D"
            "$BENCH" merge "$T/other.db" --into "$D"
            "$BENCH" report --machines all --db "$D" --out "$O/machines"
            "$BENCH" findings --db "$D" --out "$O/findings.md"
            "$BENCH" migrate --db "$D"
        } > "$O/stdout" 2>&1
        for f in machines/synthetic_machines.md report.html export.json export.csv export.gbench export1.json export1full.json \
                 findings.md plots/synthetic.md plots3/synthetic.md \
                 hist/history_synthetic.gp; do
            mask "$O/$f" > "$O/$f.masked" || bad "$be: no $f"
        done
        rows_of "$D" "SELECT * FROM summary ORDER BY run_id, suite, impl, variant, op, size_bytes, metric" > "$O/summary"
        rows_of "$D" "SELECT run_id, suite, variant, op, size_bytes, metric, baseline, candidate, n_pairs, estimate,
                      ci_lo, ci_hi, conf, p_value, median_ratio, method FROM summary_ratios ORDER BY id" > "$O/summary_ratios"
        rows_of "$D" "SELECT id, command, gate, suite, metric, pairing, ncells, verdict, exit_status FROM comparisons
                      ORDER BY id" > "$O/comparisons"
        rows_of "$D" "SELECT comparison_id, baseline, candidate, variant, op, size_bytes, n_pairs, ratio, ci_lo, ci_hi,
                      p_value, verdict FROM comparison_cells ORDER BY comparison_id, variant, op, size_bytes, baseline,
                      candidate" > "$O/cells"
        rows_of "$D" "SELECT id, suite, status, status_reason, target, job_id, guest_kernel FROM runs ORDER BY id" > "$O/runs"
        rows_of "$D" "SELECT count(*) FROM samples" > "$O/samples"
        mask "$O/stdout" > "$O/stdout.masked"
    done
    L=$T/out.lite P=$T/out.pg
    is "the summary view has rows" "$(($(wc -l < "$L/summary") > 20))" "1"
    for f in stdout.masked summary summary_ratios comparisons cells runs samples report.html.masked export.json.masked \
             export.csv.masked export.gbench.masked export1.json.masked plots/synthetic.md.masked \
             plots3/synthetic.md.masked hist/history_synthetic.gp.masked machines/synthetic_machines.md.masked; do
        if cmp -s "$L/$f" "$P/$f"; then ok; else bad "$f differs between SQLite and PostgreSQL: $(diff "$L/$f" "$P/$f" | head -8)"; fi
    done
    grep -q "exit 1" "$P/stdout" && grep -q "imported run" "$P/stdout" && grep -q "stored as comparison" "$P/stdout" && ok ||
        bad "the command sequence did not run as meant: $(head -40 "$P/stdout")"
    # and back: everything in PostgreSQL merged into a new SQLite file has the same summary
    expect 0 "merged 1 source into $T/back.db" "$BENCH" merge "$(pg_uri every)" --into "$T/back.db"
    is "merged back: the same summary rows" \
       "$(rows_of "$T/back.db" "SELECT suite, impl, variant, op, size_bytes, metric, n, median FROM summary" | sort)" \
       "$(rows_of "$(pg_uri every)" "SELECT suite, impl, variant, op, size_bytes, metric, n, median FROM summary" | sort)"
    # a store of before schema 9 kept derived metrics per sample: a case with them is copied with each
    # sample's new id read back (its metrics follow it), the others without (pipelined, store/merge.c);
    # through PostgreSQL and back, every sample in its order and every metric under its sample
    cp "$T/other.db" "$T/metrics.db"
    # and a run of 150 samples a case: two INSERTs of 64 rows and 22 rows one by one (merge.c BATCH_ROWS)
    "$BENCH" run --suite synthetic --seed 9 --rounds 150 --quiet --cpu none --db "$T/metrics.db" > /dev/null ||
        bad "the 150-round run failed"
    q "$T/metrics.db" "INSERT INTO sample_metrics (sample_id, metric, value) SELECT id, 'tsc_per_byte', id / 4.0
                       FROM samples WHERE case_id = (SELECT min(id) FROM cases)"
    expect 0 "copied 2 runs" "$BENCH" merge "$T/metrics.db" --into "$(pg_db withmetrics)"
    expect 0 "copied 2 runs" "$BENCH" merge "$(pg_uri withmetrics)" --into "$T/metrics-back.db"
    SM="SELECT c.impl, c.variant, c.op, c.size_bytes, s.round, s.position, s.repetition, m.metric, m.value FROM sample_metrics m
        JOIN samples s ON s.id = m.sample_id JOIN cases c ON c.id = s.case_id ORDER BY s.id"
    is "sample metrics under their samples, through PostgreSQL and back" "$(q "$T/metrics-back.db" "$SM")" "$(q "$T/metrics.db" "$SM")"
    SS="SELECT c.impl, c.variant, c.op, c.size_bytes, s.round, s.position, s.repetition, s.ns FROM samples s
        JOIN cases c ON c.id = s.case_id ORDER BY s.id"
    is "samples in their order, through PostgreSQL and back" "$(q "$T/metrics-back.db" "$SS")" "$(q "$T/metrics.db" "$SS")"
    [[ $(q "$T/metrics.db" "SELECT count(*) FROM sample_metrics") -gt 0 ]] && ok || bad "no sample metrics to copy"
    is "the 150-round run's samples" "$(q "$T/metrics-back.db" "SELECT count(*) FROM samples s JOIN cases c ON c.id = s.case_id
        JOIN runs r ON r.id = c.run_id WHERE r.uuid = (SELECT uuid FROM runs ORDER BY id DESC LIMIT 1)")" \
       "$(q "$T/metrics.db" "SELECT count(*) FROM samples WHERE case_id IN (SELECT id FROM cases WHERE run_id = 2)")"
    # the seeded gate and the commit gate reached their verdicts on PostgreSQL too
    is "the gates' verdicts" "$(rows_of "$(pg_uri every)" "SELECT string_agg(verdict, ',' ORDER BY id) FROM comparisons WHERE command = 'gate'")" \
       "$(rows_of "$T/every.db" "SELECT group_concat(verdict, ',') FROM (SELECT verdict FROM comparisons WHERE command = 'gate' ORDER BY id)")"
    # the claim gate with both measures reads its two comparisons back in insertion order (ctid)
    # (not in a sanitizer build, which Valgrind cannot run: tests/valgrind runs it in the plain one)
    if command -v valgrind > /dev/null && [[ -z ${PB_VG_SANITIZED:-} ]]; then
        expect 0 "two metrics per cell" "$BENCH" gate --suite synthetic "${G[@]}" --measure both --db "$(pg_uri every)"
    else
        echo "(no valgrind or a sanitizer build: gate --measure both not run)"
    fi
    # kat reads no store: it runs the same whichever PB_DB says
    expect 0 "passed" env PB_DB="$(pg_uri every)" "$BENCH" kat "$(dirname "$0")/../vectors/xts/"*.rsp
    ;;

pg-concurrent-writers-lose-nothing)
    # 4 `bench run` at once on a NEW database (they race to create the schema) through PB_DB,
    # twice: 4 complete runs each time, every sample of every cell, distinct ids and UUIDs
    pg_start
    N=4
    for k in 1 2; do
        U=$(pg_db "conc$k")
        pids=()
        for i in $(seq $N); do
            PB_DB=$U "$BENCH" run --suite synthetic --quick --quiet > "$T/w$k.$i.out" 2>&1 &
            pids+=($!)
        done
        for i in $(seq $N); do
            if wait "${pids[$((i - 1))]}"; then ok; else bad "writer $i failed: $(cat "$T/w$k.$i.out")"; fi
        done
        is "round $k: $N complete runs" "$(pgq "$U" "SELECT count(*) FROM runs WHERE status = 'complete' AND job_id = 'pg-test'")" "$N"
        is "round $k: no other run" "$(pgq "$U" "SELECT count(*) FROM runs")" "$N"
        is "round $k: every sample (16 rounds x 2 impls x 2 cells per run)" "$(pgq "$U" "SELECT count(*) FROM samples")" "$((N * 64))"
        is "round $k: every cell whole" \
           "$(pgq "$U" "SELECT count(*) FROM (SELECT c.id FROM cases c JOIN samples s ON s.case_id = c.id GROUP BY c.id HAVING count(*) = 16) x")" "$((N * 4))"
        is "round $k: distinct UUIDs, machine identity" \
           "$(pgq "$U" "SELECT count(DISTINCT uuid) || ',' || count(machine_id) || ',' || count(hostname) FROM runs")" "$N,$N,$N"
        is "round $k: summary rows of every run" "$(pgq "$U" "SELECT count(DISTINCT run_id) FROM summary")" "$N"
        is "round $k: schema version" "$(pgq "$U" "SELECT schema_version FROM pb_meta")" "11"
        is "round $k: one pb_meta row" "$(pgq "$U" "SELECT count(*) FROM pb_meta")" "1"
    done
    ;;

pg-killed-writer-stays-incomplete)
    # kill -9 of a writer mid-run: its run stays incomplete, its cells are whole or absent, nothing
    # of it is in summary, and the next run completes. Then SIGINT (incomplete, with the reason),
    # and a writer whose connection the server drops (pg_terminate_backend): incomplete as well.
    pg_start
    U=$(pg_db killed)
    # one pass: each cell is stored as its rounds end, nothing is made up and no boundary round run
    # (docs/layout.md)
    LONG=(run --suite synthetic --rounds 500 --passes 1 --boundary-rounds 0 --sample-ms 2 --sizes 1000,2000,3000,4000 --quiet --db "$U")
    # SIGINT must come while the run still measures: 12 cells of about 2 s, the signal once the first
    # is stored (with LONG's 4, a loaded CI once signalled after the last, and the run completed)
    LONGER=(run --suite synthetic --rounds 500 --passes 1 --boundary-rounds 0 --sample-ms 2
            --sizes 1000,2000,3000,4000,5000,6000,7000,8000,9000,10000,11000,12000 --quiet --db "$U")
    wait_for() { # wait_for SQL: until it returns non-zero (a bound for a broken writer, not a timing:
                 # a sanitizer build under a full parallel test run takes minutes for a cell)
        for _ in $(seq 1500); do
            [[ $(pgq "$U" "$1" 2>/dev/null) -gt 0 ]] && return 0
            sleep 0.2
        done
        bad "gave up waiting for: $1"
    }
    "$BENCH" "${LONG[@]}" > "$T/kill.out" 2>&1 &
    pid=$!
    wait_for "SELECT count(*) FROM samples"
    kill -9 $pid
    wait $pid 2>/dev/null
    is "killed writer: exactly one incomplete run" "$(pgq "$U" "SELECT count(*) || ':' || min(status) FROM runs")" "1:incomplete"
    is "killed writer: its cells whole (500 samples each) or absent" \
       "$(pgq "$U" "SELECT count(*) FROM (SELECT c.id FROM cases c JOIN samples s ON s.case_id = c.id GROUP BY c.id HAVING count(*) <> 500) x")" "0"
    is "killed writer: nothing in summary" "$(pgq "$U" "SELECT count(*) FROM summary")" "0"
    expect 2 "is incomplete, not complete" "$BENCH" report --db "$U" --run 1 --out "$T/p"
    expect 0 "run 2 complete" "$BENCH" "${QUICK[@]}" --db "$U"
    is "killed writer: still incomplete after the next run" "$(pgq "$U" "SELECT string_agg(status, ',' ORDER BY id) FROM runs")" \
       "incomplete,complete"
    # SIGINT: the writer marks its run incomplete with the reason, on its own connection
    "$BENCH" "${LONGER[@]}" > "$T/int.out" 2>&1 &
    pid=$!
    wait_for "SELECT count(*) FROM samples s JOIN cases c ON c.id = s.case_id WHERE c.run_id = 3"
    kill -INT $pid
    wait $pid
    is "SIGINT exit status" "$?" "130"
    is "SIGINT: incomplete with its reason" "$(pgq "$U" "SELECT status || ': ' || status_reason FROM runs WHERE id = 3")" \
       "incomplete: interrupted by signal 2"
    # the server drops the writer's connection: the writer fails, its run stays incomplete
    "$BENCH" "${LONG[@]}" > "$T/drop.out" 2>&1 &
    pid=$!
    wait_for "SELECT count(*) FROM samples s JOIN cases c ON c.id = s.case_id WHERE c.run_id = 4"
    pgq "$U" "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = 'bench'" > /dev/null
    wait $pid
    rc=$?
    [[ $rc -ne 0 ]] && ok || bad "a writer whose connection was dropped exited 0: $(cat "$T/drop.out")"
    is "dropped connection: the run stays incomplete" "$(pgq "$U" "SELECT status || ':' || coalesce(status_reason, '') FROM runs WHERE id = 4")" "incomplete:"
    is "dropped connection: cells whole or absent" \
       "$(pgq "$U" "SELECT count(*) FROM (SELECT c.id FROM cases c JOIN samples s ON s.case_id = c.id WHERE c.run_id = 4 GROUP BY c.id HAVING count(*) <> 500) x")" "0"
    is "only the complete run in summary" "$(pgq "$U" "SELECT string_agg(DISTINCT run_id::text, ',') FROM summary")" "2"
    ;;

pg-failed-write-fails-its-cell-whole)
    # a cell's samples are sent without waiting for each answer (pipelined in the transaction):
    # when the server refuses one of them (a trigger here), the cell's commit fails, none of its
    # samples is kept, and the run is failed with the server's reason
    pg_start
    U=$(pg_db refuse)
    expect 0 "schema version 11" "$BENCH" migrate --db "$U"
    pgq "$U" "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS
              \$\$ BEGIN IF NEW.round = 7 THEN RAISE EXCEPTION 'sample refused by the server'; END IF; RETURN NEW; END \$\$;
              CREATE TRIGGER refuse BEFORE INSERT ON samples FOR EACH ROW EXECUTE FUNCTION refuse();" > /dev/null
    expect 1 "sample refused by the server" "$BENCH" "${QUICK[@]}" --seed 1 --db "$U"
    is "the run failed with the server's reason" \
       "$(pgq "$U" "SELECT status || ':' || (status_reason LIKE '%sample refused by the server%') FROM runs")" "failed:true"
    is "none of the refused cell's samples" "$(pgq "$U" "SELECT count(*) FROM samples")" "0"
    pgq "$U" "DROP TRIGGER refuse ON samples" > /dev/null
    expect 0 "run 2 complete" "$BENCH" "${QUICK[@]}" --seed 1 --db "$U"
    is "then every sample of the next run" "$(pgq "$U" "SELECT count(*) FROM samples")" "64"
    ;;

pg-read-only-commands-create-nothing)
    # an empty database: commands that only read say so (exit 2) and create no table; refused
    # command lines create nothing either; migrate creates the schema (how a fleet starts)
    pg_start
    U=$(pg_db empty)
    tables() { pgq "$U" "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"; }
    expect 2 "no database at $U" "$BENCH" list --runs --db "$U"
    expect 2 "no database at" "$BENCH" report --db "$U" --out "$T/p"
    expect 2 "no database at" "$BENCH" history --suite synthetic --db "$U" --out "$T/h"
    expect 2 "no database at" "$BENCH" export --format json --db "$U"
    expect 2 "--quick takes no value" "$BENCH" run --suite synthetic --quick=no --db "$U"
    expect 2 "bad size '+64'" "$BENCH" "${QUICK[@]}" --db "$U" --sizes +64
    is "nothing created by reads and refusals" "$(tables)" "0"
    expect 0 "schema version 11" "$BENCH" migrate --db "$U"
    is "migrate created the schema" "$(pgq "$U" "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'
        AND table_name IN ('runs', 'cases', 'samples', 'sample_metrics', 'stats', 'ratios', 'summary', 'summary_ratios',
        'comparisons', 'comparison_runs', 'comparison_cells', 'calibrations', 'pb_meta')")" "13"
    expect 0 "schema version 11" "$BENCH" migrate --db "$U"
    expect 0 "run   suite" "$BENCH" list --runs --db "$U"
    # a table or column missing under a right pb_meta: refused by readers and writers alike at the
    # open, in the server's words (issue 21), and nothing written
    pgq "$U" "ALTER TABLE samples RENAME TO samples_away" >/dev/null
    expect 2 "$U: store does not match schema version 11: ERROR:  relation \"samples\" does not exist" \
        "$BENCH" list --runs --db "$U"
    expect 2 "store does not match schema version 11" "$BENCH" "${QUICK[@]}" --db "$U"
    pgq "$U" "CREATE VIEW samples AS SELECT * FROM samples_away" >/dev/null
    expect 2 "store does not match schema version 11: table samples is there but not as a table" \
        "$BENCH" "${QUICK[@]}" --db "$U"
    pgq "$U" "DROP VIEW samples" >/dev/null
    pgq "$U" "ALTER TABLE samples_away RENAME TO samples; ALTER TABLE ratios RENAME COLUMN per_layout TO pl" >/dev/null
    expect 2 "column \"per_layout\" does not exist" "$BENCH" export --format csv --db "$U"
    expect 2 "store does not match schema version 11" "$BENCH" migrate --db "$U"
    pgq "$U" "ALTER TABLE ratios RENAME COLUMN pl TO per_layout" >/dev/null
    # pb_meta without its row: no version at all
    pgq "$U" "DELETE FROM pb_meta" >/dev/null
    expect 2 "schema version 'none', which no bench writes" "$BENCH" list --runs --db "$U"
    expect 2 "schema version 'none', which no bench writes" "$BENCH" migrate --db "$U"
    pgq "$U" "INSERT INTO pb_meta VALUES (6)" >/dev/null
    is "nothing run into a store refused" "$(pgq "$U" "SELECT count(*) FROM runs")" "0"
    # a read-only command writes nothing even through SQL of its own
    is "a newer schema is refused" "$(pgq "$U" "UPDATE pb_meta SET schema_version = 99"; "$BENCH" list --runs --db "$U" 2>&1)" \
       "bench list: $U has schema version 99, this bench reads version 11: use a newer bench"
    expect 2 "newer than this bench" "$BENCH" "${QUICK[@]}" --db "$U"
    is "a newer database is left alone" "$(pgq "$U" "SELECT count(*) FROM runs")" "0"
    ;;

pg-migrates-v4-store)
    # a version-4 store (before the CPU identity, issue 23): migrations 4 -> 5 and 5 -> 6 run on
    # PostgreSQL too, in one transaction; the identity columns and the user's side come back NULL,
    # the tables objects and baselines come back, and every run and row stays
    pg_start
    U=$(pg_db v4)
    expect 0 "run 1 complete" "$BENCH" "${QUICK[@]}" --seed 1 --db "$U"
    cols="cpu_vendor cpu_family cpu_model_number cpu_stepping cpu_microcode cache_l1d_bytes cache_l1i_bytes cache_l2_bytes cache_l3_bytes threads_per_core hypervisor"
    cols+=" user_revision user_label user_repo build_parity"
    drop=$(for c in $cols; do printf 'ALTER TABLE runs DROP COLUMN %s; ' "$c"; done)
    pgq "$U" "$drop ALTER TABLE comparisons DROP COLUMN baseline; DROP TABLE objects; DROP TABLE baselines;
              UPDATE pb_meta SET schema_version = 4" >/dev/null
    rows() { pgq "$U" "SELECT (SELECT count(*) FROM runs) || ',' || (SELECT count(*) FROM samples) || ',' || (SELECT count(*) FROM ratios) || ',' || (SELECT count(*) FROM summary)"; }
    before=$(rows)
    expect 2 "has schema version 4, this bench reads version 11: migrate it" "$BENCH" list --runs --db "$U"
    expect 0 "schema version 11" "$BENCH" migrate --db "$U"
    is "v4 on PostgreSQL: version" "$(pgq "$U" "SELECT schema_version FROM pb_meta")" "11"
    is "v4 on PostgreSQL: every row kept" "$(rows)" "$before"
    is "v4 on PostgreSQL: the identity columns, NULL" \
       "$(pgq "$U" "SELECT count(*) FROM runs WHERE cpu_vendor IS NULL AND cpu_stepping IS NULL AND cache_l3_bytes IS NULL AND hypervisor IS NULL")" "1"
    is "v4 on PostgreSQL: the user's side, NULL" \
       "$(pgq "$U" "SELECT count(*) FROM runs WHERE user_revision IS NULL AND user_label IS NULL AND user_repo IS NULL AND build_parity IS NULL")" "1"
    is "v4 on PostgreSQL: objects, baselines and comparisons.baseline" \
       "$(pgq "$U" "SELECT (SELECT count(*) FROM objects) || ',' || (SELECT count(*) FROM baselines) || ',' || (SELECT count(baseline) FROM comparisons)")" "0,0,0"
    expect 0 "run 2 complete" "$BENCH" "${QUICK[@]}" --seed 1 --db "$U"
    is "a new run records its identity" "$(pgq "$U" "SELECT count(*) FROM runs WHERE id = 2 AND hypervisor IS NOT NULL")" "1"
    expect 0 "synthetic: " "$BENCH" report --db "$U" --run 1 --out "$T/v4p"
    grep -q "^- CPU identity: not recorded$" "$T/v4p/synthetic.md" && ok || bad "the migrated run's identity is not 'not recorded'"
    ;;

pg-lab-role-needs-only-dml)
    # docs/fleet.md: an owner role creates the schema (bench migrate); the fleet's role has only
    # CONNECT, USAGE, SELECT/INSERT/UPDATE on the tables, DELETE on ratios (a finalize replaces a
    # run's ratios) and USAGE on the sequences, and every command that writes runs with it
    pg_start
    U=$(pg_db fleet)
    expect 0 "schema version 11" "$BENCH" migrate --db "$U"
    pgq "$U" "CREATE ROLE pblab LOGIN;
              GRANT CONNECT ON DATABASE fleet TO pblab;
              GRANT USAGE ON SCHEMA public TO pblab;
              GRANT SELECT, INSERT, UPDATE ON ALL TABLES IN SCHEMA public TO pblab;
              GRANT DELETE ON ratios TO pblab;
              GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO pblab;
              REVOKE CREATE ON SCHEMA public FROM PUBLIC;" > /dev/null || bad "granting the lab role failed"
    L="postgresql://pblab@/fleet?host=$PG_HOST"
    TH=$T/thresholds
    printf 'claim synthetic * 15%%\n' > "$TH"
    expect 0 "run 1 complete" "$BENCH" "${QUICK[@]}" --seed 1 --db "$L"
    kmod_results > "$T/k.txt"
    expect 0 "imported run" "$BENCH" import "$T/k.txt" --db "$L"
    expect 0 "verdict" "$BENCH" gate --suite synthetic --quick --quiet --seed 1 --thresholds "$TH" --db "$L"
    expect 0 "stored as comparison" "$BENCH" compare --run 1 --db "$L"
    expect 0 "synthetic complete" "$BENCH" list --runs --db "$L"
    expect 0 "synthetic: run " "$BENCH" report --db "$L" --out "$T/plots"
    is "the lab role cannot change the schema" "$(pgq "$L" "CREATE TABLE x (y int)" 2>&1 | grep -c 'permission denied')" "1"
    is "the lab role cannot delete runs" "$(pgq "$L" "DELETE FROM runs" 2>&1 | grep -c 'permission denied')" "1"
    ;;

pg-hostile-session-settings-read-exact)
    # PGOPTIONS may carry session settings that change how the server prints what bench reads
    # (extra_float_digits 0 or -14 round floats to 15 or 1 significant digits): bench sets its own
    # after connecting, so the same seeded run reads back, finalizes and exports the same as in
    # SQLite whatever PGOPTIONS says, and a merge into PostgreSQL keeps every ratio exact
    pg_start
    export PB_TEST_LOADAVG=0.25 PB_TEST_WAITS=0
    "$BENCH" "${QUICK[@]}" --seed 7 --db "$T/lite.db" > /dev/null || bad "the SQLite run failed"
    "$BENCH" export --format json --db "$T/lite.db" | mask > "$T/lite.json"
    grep -q '"estimate": [0-9.]*[1-9][0-9]*,' "$T/lite.json" && ok || bad "the SQLite export has no fractional ratio"
    k=0
    for opt in '' '-c extra_float_digits=0' '-c extra_float_digits=-14' '-c extra_float_digits=-14 -c DateStyle=SQL,DMY -c TimeZone=Pacific/Chatham -c search_path=nowhere'; do
        k=$((k + 1))
        U=$(pg_db "hostile$k")
        PGOPTIONS=$opt "$BENCH" "${QUICK[@]}" --seed 7 --db "$U" > /dev/null || bad "PGOPTIONS='$opt': the run failed"
        PGOPTIONS=$opt "$BENCH" export --format json --db "$U" | mask > "$T/pg$k.json"
        if cmp -s "$T/lite.json" "$T/pg$k.json"; then ok; else
            bad "PGOPTIONS='$opt': the export differs from SQLite's: $(diff "$T/lite.json" "$T/pg$k.json" | head -8)"; fi
        # the run stored with the hostile settings, read without them: the same
        "$BENCH" export --format json --db "$U" | mask > "$T/pg$k.plain.json"
        cmp -s "$T/lite.json" "$T/pg$k.plain.json" && ok || bad "PGOPTIONS='$opt': the stored run differs from SQLite's"
        # a merge from SQLite keeps ratios exact
        M=$(pg_db "merged$k")
        PGOPTIONS=$opt "$BENCH" merge "$T/lite.db" --into "$M" > /dev/null || bad "PGOPTIONS='$opt': the merge failed"
        "$BENCH" export --format json --db "$M" | mask > "$T/merged$k.json"
        cmp -s "$T/lite.json" "$T/merged$k.json" && ok ||
            bad "PGOPTIONS='$opt': merged into PostgreSQL, the export differs: $(diff "$T/lite.json" "$T/merged$k.json" | head -8)"
        is "PGOPTIONS='$opt': merged ratios, not whole numbers" \
           "$(pgq "$M" "SELECT count(*) FROM ratios WHERE estimate <> round(estimate)")" \
           "$(sqlite3 "$T/lite.db" "SELECT count(*) FROM ratios WHERE estimate <> round(estimate)")"
        # and back into SQLite, read with the hostile settings: the same again
        PGOPTIONS=$opt "$BENCH" merge "$M" --into "$T/back$k.db" > /dev/null || bad "PGOPTIONS='$opt': the merge back failed"
        "$BENCH" export --format json --db "$T/back$k.db" | mask > "$T/back$k.json"
        cmp -s "$T/lite.json" "$T/back$k.json" && ok ||
            bad "PGOPTIONS='$opt': merged back into SQLite, the export differs: $(diff "$T/lite.json" "$T/back$k.json" | head -8)"
    done
    schemas() { pgq "$1" "SELECT string_agg(DISTINCT table_schema, ',') FROM information_schema.tables
                          WHERE table_name IN ('pb_meta', 'runs', 'samples', 'ratios')"; }
    is "PGOPTIONS' search_path does not move the tables" "$(schemas "$(pg_uri hostile4)")" "public"
    # a schema of bench's own named in the URI's options (docs/fleet.md) is kept: bench replaces
    # only the search_path that the environment or the server's defaults give
    S=$(pg_db schemaed)
    pgq "$S" "CREATE SCHEMA patchbench" > /dev/null
    PGOPTIONS='-c search_path=nowhere' "$BENCH" "${QUICK[@]}" --seed 7 --db "$S&options=-csearch_path%3Dpatchbench" > /dev/null ||
        bad "the run into the URI's schema failed"
    is "the tables in the URI's schema" "$(schemas "$S")" "patchbench"
    "$BENCH" export --format json --db "$S&options=-csearch_path%3Dpatchbench" | mask > "$T/schemaed.json"
    cmp -s "$T/lite.json" "$T/schemaed.json" && ok || bad "the run in the URI's schema differs from SQLite's"
    expect 2 "no database at" "$BENCH" list --runs --db "$S"
    ;;

pg-stalled-server-times-out)
    # a server that accepts the connection and never answers: bench gives up after the connect
    # timeout (the URI's, or PGCONNECT_TIMEOUT) with a clear error, by every kind of command;
    # `timeout` only bounds a broken bench (the limit itself is what is tested, not its time)
    port_file=$T/port
    python3 -c '
import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(16)
open(sys.argv[1] + ".tmp", "w").write(str(s.getsockname()[1]))
import os; os.rename(sys.argv[1] + ".tmp", sys.argv[1])
held = []
while True:
    c, _ = s.accept()
    held.append(c)   # never read, never answered, never closed
' "$port_file" &
stall=$!
    trap 'kill $stall 2> /dev/null; rm -rf "$T"' EXIT
    for _ in $(seq 300); do [[ -s $port_file ]] && break; sleep 0.1; done
    PORT=$(cat "$port_file")
    S="postgresql://x@127.0.0.1:$PORT/db"
    expect 2 "cannot open database $S?connect_timeout=2: " timeout 30 "$BENCH" list --runs --db "$S?connect_timeout=2"
    out=$(timeout 30 "$BENCH" list --runs --db "$S?connect_timeout=2" 2>&1)
    [[ $out == *timeout* ]] && ok || bad "the stalled server's error does not say it timed out: $out"
    expect 2 "cannot open database $S: " env PGCONNECT_TIMEOUT=2 timeout 30 "$BENCH" list --runs --db "$S"
    expect 1 "cannot open database $S: " env PGCONNECT_TIMEOUT=2 timeout 30 "$BENCH" "${QUICK[@]}" --db "$S"
    expect 2 "cannot open database $S: " env PGCONNECT_TIMEOUT=2 timeout 30 "$BENCH" export --format json --db "$S"
    expect 2 "cannot open" env PGCONNECT_TIMEOUT=2 timeout 30 "$BENCH" merge "$S" --into "$T/m.db"
    expect 1 "cannot open" env PGCONNECT_TIMEOUT=2 timeout 30 "$BENCH" migrate --db "$S"
    [[ -e $T/m.db ]] && bad "a merge from a stalled server created its DEST" || ok
    kill $stall
    wait $stall 2> /dev/null
    ;;

pg-frozen-server-times-out)
    # a server frozen (SIGSTOP: its kernel still accepts and acknowledges) before bench connects,
    # and then in the middle of a run: bench fails with a clear error within its limits
    # (connect_timeout, PB_PG_TIMEOUT), the run stays incomplete and the store intact once the
    # server thaws. `timeout` only bounds a broken bench.
    pg_start
    U=$(pg_db frozen)
    expect 0 "run 1 complete" "$BENCH" "${QUICK[@]}" --seed 1 --db "$U"
    server_pids() {
        local pm
        pm=$(head -1 "$PG_DIR/data/postmaster.pid")
        echo "$pm" $(pgrep -P "$pm")
    }
    freeze() { kill -STOP $(server_pids); }
    thaw() { kill -CONT $(server_pids); }
    trap 'thaw 2> /dev/null; pg_stop; rm -rf "$T"' EXIT
    freeze
    expect 1 "cannot open database $U&connect_timeout=2: " \
        env PB_PG_TIMEOUT=2 timeout 30 "$BENCH" "${QUICK[@]}" --seed 2 --db "$U&connect_timeout=2"
    expect 2 "timeout expired" env PGCONNECT_TIMEOUT=2 timeout 30 "$BENCH" list --runs --db "$U"
    thaw
    is "nothing of the refused run" "$(pgq "$U" "SELECT string_agg(id || ':' || status, ',' ORDER BY id) FROM runs")" "1:complete"
    # frozen mid-run, once the run has stored its first of 8 cells: its next write times out. 300
    # rounds of 2 ms samples a cell leave the other 7 cells seconds of work after the first is
    # stored (with 60, a quiet machine finished the run before the freeze reached the server)
    PB_PG_TIMEOUT=5 "$BENCH" run --suite synthetic --rounds 300 --passes 1 --boundary-rounds 0 --sample-ms 2 \
        --sizes 1000,2000,3000,4000,5000,6000,7000,8000 --quiet --db "$U" > "$T/mid.out" 2>&1 &
    pid=$!
    for _ in $(seq 1500); do
        [[ $(pgq "$U" "SELECT count(*) FROM samples s JOIN cases c ON c.id = s.case_id WHERE c.run_id = 2") -gt 0 ]] && break
        sleep 0.2
    done
    freeze
    # bench's own limit is what ends the run here: the server's statement_timeout cannot fire on a
    # frozen server. Waited for as a condition, bounded only for a bench that would hang.
    for _ in $(seq 600); do kill -0 $pid 2> /dev/null || break; sleep 0.1; done
    kill -0 $pid 2> /dev/null && { bad "frozen mid-run: bench still waits after 60 s"; thaw; kill $pid; }
    wait $pid
    rc=$?
    thaw
    mid=$(cat "$T/mid.out")
    [[ $rc == 1 && $mid == *"did not answer within PB_PG_TIMEOUT's 5 s"* ]] && ok ||
        bad "frozen mid-run: exit $rc, want 1 and the limit named: $mid"
    is "frozen mid-run: the run stays incomplete" "$(pgq "$U" "SELECT status FROM runs WHERE id = 2")" "incomplete"
    is "frozen mid-run: its cells whole (300 samples) or absent" \
       "$(pgq "$U" "SELECT count(*) FROM (SELECT c.id FROM cases c JOIN samples s ON s.case_id = c.id WHERE c.run_id = 2 GROUP BY c.id HAVING count(*) <> 300) x")" "0"
    is "frozen mid-run: only the complete run in summary" "$(pgq "$U" "SELECT string_agg(DISTINCT run_id::text, ',') FROM summary")" "1"
    expect 0 "run 3 complete" "$BENCH" "${QUICK[@]}" --seed 1 --db "$U"
    ;;

pg-blocked-statement-times-out)
    # a statement that waits on a lock another session holds: the server's statement_timeout (the
    # same limit as bench's, PB_PG_TIMEOUT) cancels it, bench fails naming the limit, and the run
    # is never started or stays incomplete
    pg_start
    U=$(pg_db blocked)
    expect 0 "run 1 complete" "$BENCH" "${QUICK[@]}" --seed 1 --db "$U"
    # the lock holder: its backend is ended by name afterwards (killing psql leaves it sleeping)
    PGAPPNAME=pb-locker "$PSQL" -X -q -d "$U" -c "BEGIN; LOCK TABLE runs IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(600);" \
        > /dev/null 2>&1 &
    locker=$!
    unlock() {
        pgq "$U" "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = 'pb-locker'" > /dev/null
        wait $locker 2> /dev/null
    }
    trap 'kill $locker 2> /dev/null; pg_stop; rm -rf "$T"' EXIT
    for _ in $(seq 1500); do
        [[ $(pgq "$U" "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
                       WHERE c.relname = 'runs' AND l.mode = 'AccessExclusiveLock' AND l.granted") -gt 0 ]] && break
        sleep 0.2
    done
    out=$(PB_PG_TIMEOUT=2 timeout 30 "$BENCH" "${QUICK[@]}" --seed 2 --db "$U" 2>&1)
    rc=$?
    [[ ($rc == 1 || $rc == 2) && $out == *"PB_PG_TIMEOUT"* ]] && ok || bad "a blocked run: exit $rc, want 1 or 2 and the limit named: $out"
    out=$(PB_PG_TIMEOUT=2 timeout 30 "$BENCH" list --runs --db "$U" 2>&1)
    rc=$?
    [[ $rc == 2 && $out == *"PB_PG_TIMEOUT"* ]] && ok || bad "a blocked list: exit $rc, want 2 and the limit named: $out"
    # the open's schema check is what waited: a store that did not answer is not one of another schema
    [[ $out == *"cannot read the store"* && $out != *"does not match schema"* ]] && ok ||
        bad "a blocked schema check is worded as a schema mismatch: $out"
    unlock
    is "the blocked run left nothing complete" "$(pgq "$U" "SELECT count(*) FROM runs WHERE status = 'complete'")" "1"
    is "nothing of it in summary" "$(pgq "$U" "SELECT string_agg(DISTINCT run_id::text, ',') FROM summary")" "1"
    expect 0 "complete" "$BENCH" "${QUICK[@]}" --seed 1 --db "$U"
    ;;

pg-timeout-setting-checked)
    # PB_PG_TIMEOUT is whole seconds, 0 for no limit: anything else is refused naming it, before
    # anything connects (no server here) and by every command that opens a PostgreSQL store
    for v in abc 1.5 -1 86401 5s; do
        expect 2 "PB_PG_TIMEOUT '$v'" env PB_PG_TIMEOUT="$v" "$BENCH" list --runs --db "postgresql://x@/db?host=$T"
        expect 2 "PB_PG_TIMEOUT '$v'" env PB_PG_TIMEOUT="$v" "$BENCH" "${QUICK[@]}" --db "postgresql://x@/db?host=$T"
    done
    # an SQLite store does not read it
    expect 0 "run 1 complete" env PB_PG_TIMEOUT=abc "$BENCH" "${QUICK[@]}" --db "$T/lite.db"
    ;;

*) bad "unknown section $SECTION" ;;
esac
echo "section $SECTION: $(($(date +%s) - started)) s"
finish
