#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# hostile_test.sh CASE BENCH HOSTILE.so VECTORS...
# A plug-in's constructor or destructor (tests/xts/plugins/xts_hostile.c) runs only in the children
# that load it (discovery, the cage, the known answers: docs/cage.md), never in bench: it cannot end
# bench with its own status, write into bench's stdout, move bench's working directory or hold
# bench's output open. Asserts no time: a lingering process is bounded by `timeout 20` against its
# 30 s sleep.
. "$(dirname "$0")/../lib.sh"
case=$1 bench=$2 so=$3
shift 3
common=(--suite xts --keys 256 --sizes 512 --rounds 2 --layouts 1 --sample-ms 0.05 --counters ''
        --child-call-cost 0 --quiet)

case $case in
ctor_exit)
    # exit(0) at every load: refused at discovery, nothing stored
    expect 2 "plug-in w ($so): exited with status 0 in its self-test" \
        "$bench" run "${common[@]}" --impl old,new,w --plugin "w=$so" --db "$T/always.db"
    is "refused: no run stored" "$( [[ -e $T/always.db ]] && q "$T/always.db" "select count(*) from runs" || echo 0)" 0
    # exit(0) from its second load on: it passed discovery, then each cage that loads it fails its
    # own case; old and new are measured, and bench's status is its own (1), not the plug-in's 0
    PB_TEST_MARK=$T/mark expect 1 "xts plug-in w ($so) exited with status 0 during its set-up" \
        "$bench" run "${common[@]}" --impl old,new,w --plugin "w=$so" --db "$T/late.db"
    is "late: run complete" "$(q "$T/late.db" "select status from runs")" complete
    is "late: w failed with the reason" "$(q "$T/late.db" "select status, substr(reason, 1, 8) from cases where impl = 'w'" | sort -u)" \
        "unavailable|failed: "
    is "late: old and new ok" "$(q "$T/late.db" "select count(*) from cases where status = 'ok'")" 4
    ;;
ctor_print)
    out=$("$bench" kat --suite xts --plugin "w=$so" "$@" 2>"$T/kat.err"); rc=$?
    is "kat: exit" "$rc" 0
    is "kat: stdout is its own" "$out" "119 passed, 0 failed, 68 skipped"
    grep -q "hostile constructor output" "$T/kat.err" && ok || bad "kat: the plug-in's line is not on stderr"
    "$bench" run "${common[@]}" --impl old,new,w --plugin "w=$so" --db "$T/p.db" >"$T/run.out" 2>"$T/run.err"
    is "run: exit" "$?" 0
    is "run: stdout is its own" "$(grep -c hostile "$T/run.out")" 0
    # a gate's JSON document on stdout stays one valid document (its verdict is live timing:
    # 0, 1 or 3, not asserted)
    "$bench" gate --suite xts --plugin "w=$so" --candidate w --keys 256 --sizes 512 --quick --format json \
        --db "$T/g.db" >"$T/gate.json" 2>"$T/gate.err"
    rc=$?
    [[ $rc -eq 0 || $rc -eq 1 || $rc -eq 3 ]] && ok || bad "gate exited $rc: $(cat "$T/gate.err")"
    python3 -m json.tool "$T/gate.json" >/dev/null && ok || bad "gate --format json: not JSON: $(head -c 300 "$T/gate.json")"
    grep -q "hostile constructor output" "$T/gate.json" && bad "the plug-in's line is in the JSON" || ok
    ;;
ctor_chdir)
    mkdir "$T/here"
    before=$(stat -c %Y.%s /rel.db 2>/dev/null)
    (cd "$T/here" && "$bench" run "${common[@]}" --impl old,new,w --plugin "w=$so" --db rel.db >"$T/out" 2>&1)
    is "run: exit" "$?" 0
    is "the store is where --db rel.db says, from bench's directory" \
        "$(q "$T/here/rel.db" "select status from runs")" complete
    is "nothing written at /rel.db" "$(stat -c %Y.%s /rel.db 2>/dev/null)" "$before"
    ;;
ctor_fork)
    # $( ) waits for every writer of the pipe: a process the plug-in left holding it would hold this
    out=$(timeout 20 "$bench" run "${common[@]}" --impl old,new,w --plugin "w=$so" --db "$T/f.db" 2>&1); rc=$?
    is "run: exit (124: held past 20 s)" "$rc" 0
    is "run complete" "$(q "$T/f.db" "select status from runs")" complete
    out=$(timeout 20 "$bench" kat --suite xts --plugin "w=$so" "$@" 2>&1); rc=$?
    is "kat: exit (124: held past 20 s)" "$rc" 0
    ;;
ctor_setsid)
    # the process it forks leaves the group (setsid): killed all the same when the child that loaded
    # the plug-in ends (discovery, the cage, the known answers), none left once bench returns
    export PB_TEST_PIDS=$T/pids
    out=$(timeout 20 "$bench" run "${common[@]}" --impl old,new,w --plugin "w=$so" --db "$T/f.db" 2>&1); rc=$?
    is "run: exit (124: held past 20 s)" "$rc" 0
    is "run complete" "$(q "$T/f.db" "select status from runs")" complete
    out=$(timeout 20 "$bench" kat --suite xts --plugin "w=$so" "$@" 2>&1); rc=$?
    is "kat: exit (124: held past 20 s)" "$rc" 0
    [[ -s $PB_TEST_PIDS ]] && ok || bad "the plug-in's constructor never ran"
    left=0
    while read -r p; do kill -0 "$p" 2> /dev/null && { left=$((left + 1)); kill -9 "$p"; }; done < "$PB_TEST_PIDS"
    is "processes left after bench returned (of $(wc -l < "$PB_TEST_PIDS"))" "$left" 0
    ;;
dtor_exit)
    # wrong while timed from its first 1024-byte call: the run must exit 1, which the destructor's
    # _exit(0) would turn into 0 in bench's process
    common[5]=1024
    PB_TEST_LATE=1 expect 1 "gave a wrong answer while timed" \
        "$bench" run "${common[@]}" --impl old,new,w --plugin "w=$so" --db "$T/d.db"
    is "run complete" "$(q "$T/d.db" "select status from runs")" complete
    ;;
dtor_crash)
    "$bench" run "${common[@]}" --impl old,new,w --plugin "w=$so" --db "$T/c.db" >"$T/out" 2>&1
    is "run: exit (139: the destructor ran in bench)" "$?" 0
    is "run complete" "$(q "$T/c.db" "select status from runs")" complete
    expect 0 "119 passed, 0 failed" "$bench" kat --suite xts --plugin "w=$so" "$@"
    # a gate decides by live timing (0, 1 or 3, not asserted): never 139
    decided "$bench" gate --suite xts --plugin "w=$so" --candidate w --keys 256 --sizes 512 --quick --db "$T/g.db"
    ;;
*) bad "unknown case $case" ;;
esac
finish
