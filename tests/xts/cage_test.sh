#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# cage_test.sh BENCH GOOD.so LATE_CRASH.so LATE_EXIT.so LATE_SLOW.so LATE_WRONG.so
# Plug-ins that pass every self-test and then, while timed, crash, _exit(0), take 3 s a call or
# answer wrong (tests/xts/plugins/xts_faulty.c, from their first 1024-byte encryption): each
# fails its own cases only (enc at 1024 B), named in a message; bench exits 1 with the run
# complete, every other case (old and new everywhere, the plug-in's dec and 512 B cells) stored
# with all its samples. And a good plug-in runs under every --cage. Asserts no time: the slow
# one is 3 s a call against a 1 s --timeout.
. "$(dirname "$0")/../lib.sh"
bench=$1 good=$2
declare -A so=([crash]=$3 [exit]=$4 [slow]=$5 [wrong]=$6)
declare -A said=([crash]="crashed during" [exit]="exited with status 0 during" [slow]="did not finish"
                 [wrong]="gave a wrong answer while timed")
common=(--suite xts --keys 256 --sizes 1024,512 --rounds 4 --layouts 1 --sample-ms 0.05 --counters ''
        --child-call-cost 0 --quiet --timeout 1)

# PB_TEST_LATE=1: the fault from the first 1024-byte encryption on, which comes after every self-test
# (none has that length) and before or in the first sample. With the default 300 it depended on the
# clock: a slow build (the sanitizer's) could calibrate and take its 4 samples of 0.05 ms in fewer
# calls, and the fault never came.
for f in crash exit slow wrong; do
    db=$T/$f.db
    PB_TEST_LATE=1 expect 1 "xts 256 enc 1024 B: xts plug-in w (${so[$f]}) ${said[$f]}" \
        "$bench" run "${common[@]}" --impl old,new,w --plugin "w=${so[$f]}" --db "$db"
    is "$f: run complete" "$(q "$db" "select status from runs")" complete
    is "$f: w enc 1024 failed" \
        "$(q "$db" "select status, substr(reason, 1, 8) from cases where impl = 'w' and op = 'enc' and size_bytes = 1024")" \
        "unavailable|failed: "
    is "$f: w enc 1024 has no samples" \
        "$(q "$db" "select count(*) from samples s join cases c on c.id = s.case_id where c.impl = 'w' and c.op = 'enc' and c.size_bytes = 1024")" 0
    is "$f: every other case ok" \
        "$(q "$db" "select count(*) from cases where status = 'ok'")" 11
    is "$f: every other case has its 4 samples" \
        "$(q "$db" "select count(*) from (select c.id from cases c join samples s on s.case_id = c.id where c.status = 'ok' group by c.id having count(*) = 4)")" 11
    if "$bench" report --db "$db" --out "$T/rep-$f" >"$T/rep.out" 2>&1; then ok; else bad "$f: report: $(cat "$T/rep.out")"; fi
done

# the good plug-in under each cage: complete, exit 0, every case sampled
for cage in user all none; do
    db=$T/good-$cage.db
    expect 0 "" "$bench" run "${common[@]}" --impl old,new,w --plugin "w=$good" --cage "$cage" --db "$db"
    is "good, --cage $cage: cases ok" "$(q "$db" "select count(*) from cases where status = 'ok'")" 12
    is "good, --cage $cage: samples" "$(q "$db" "select count(*) from samples")" 48
done
is "--cage all is in the stored options" "$(q "$T/good-all.db" "select options like '%cage=all timeout=1 %' from runs")" 1
expect 2 "unknown --cage 'some' (user, all or none)" "$bench" run --suite xts --cage some --db "$T/x.db"
expect 2 "--timeout wants seconds from 0.001 to 86400, got '0'" "$bench" run --suite xts --timeout 0 --db "$T/x.db"
if [[ -e $T/x.db ]]; then bad "a refused option left a database"; else ok; fi
# bench kat --plugin runs the plug-in's known answers in a child as well: a record its self-test
# lacks (1024 bytes) makes it crash, exit or hang there; bench says so and exits 1, never 139 or 0
{
    echo "[ENCRYPT]"
    echo "COUNT = 0"
    echo "DataUnitLen = 8192"
    echo "Key = $(printf '%064d' 0)"
    echo "i = $(printf '%032d' 0)"
    echo "PT = $(printf '%02048d' 0)"
    echo "CT = $(printf '%02048d' 0)"
} > "$T/k1024.rsp"
declare -A kat_said=([crash]="xts plug-in w: crashed in the known answers of $T/k1024.rsp: signal 11"
                     [exit]="xts plug-in w: exited with status 0 in the known answers of $T/k1024.rsp")
for f in crash exit; do
    PB_TEST_LATE=1 expect 1 "${kat_said[$f]}" "$bench" kat --suite xts --plugin "w=${so[$f]}" "$T/k1024.rsp"
done
finish
