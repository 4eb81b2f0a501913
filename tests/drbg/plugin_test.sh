#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# plugin_test.sh BENCH GOOD.so ABI.so VECTOR.so CRASH.so LATE_WRONG.so CAVS.rsp...
# bench run --suite drbg --plugin: the good plug-in (examples/drbg_ctr_blocks) is self-tested,
# timed beside old/new, stored and reported; the bad ones are refused with exit 2 and a message
# that names what is wrong, and nothing is stored. Asserts no time: only that samples exist.
. "$(dirname "$0")/../lib.sh"
bench=$1 good=$2 abi=$3 vector=$4 crash=$5 late_wrong=$6
shift 6
quick=(--mech aes128,sha256 --sizes 16,4096 --rounds 3 --sample-ms 0.05 --counters '' --quiet)

# every CAVS record of the suite's mechanisms, through the plug-in's backend
expect 0 " passed, 0 failed, 0 skipped" "$bench" kat --suite drbg --plugin "blocks=$good" "$@"
expect 2 "bench kat: drbg selftest w: Hash_DRBG" "$bench" kat --suite drbg --plugin "w=$vector" "$@"

db=$T/good.db
if "$bench" run --suite drbg --plugin "blocks=$good" --impl old,new,blocks "${quick[@]}" --db "$db" >"$T/out" 2>&1
then ok; else bad "good plug-in: $(cat "$T/out")"; fi
is "blocks cells" "$(q "$db" "select count(*) from summary where impl = 'blocks' and metric = 'mb_per_s'")" 4
is "blocks samples per cell" "$(q "$db" "select min(n) from summary where impl = 'blocks' and metric = 'mb_per_s'")" 3
if "$bench" report --db "$db" --out "$T/plots" >"$T/rep" 2>&1; then ok; else bad "report: $(cat "$T/rep")"; fi
if grep -q blocks "$T/plots/drbg.md"; then ok; else bad "plots/drbg.md does not mention the plug-in"; fi

for db in abi vector crash; do rm -f "$T/$db.db"; done
expect 2 "ABI version mismatch: built for drbg plug-in ABI 99, this bench has 1" \
    "$bench" run --suite drbg --plugin "w=$abi" "${quick[@]}" --db "$T/abi.db"
expect 2 "drbg selftest w: Hash_DRBG" \
    "$bench" run --suite drbg --plugin "w=$vector" "${quick[@]}" --db "$T/vector.db"
expect 2 "plug-in w ($crash): crashed in its self-test: signal 11" \
    "$bench" run --suite drbg --plugin "w=$crash" "${quick[@]}" --db "$T/crash.db"
expect 2 "plug-in w: cannot load $good.nope" \
    "$bench" run --suite drbg --plugin "w=$good.nope" "${quick[@]}" --db "$T/crash.db"
for db in abi vector crash; do
    if [[ -e $T/$db.db ]]; then bad "$db: a refused plug-in left a database"; else ok; fi
done
expect 2 "'old' is already an implementation of drbg" "$bench" run --suite drbg --plugin "old=$good" --db "$T/x.db"
# a plug-in that passes its self-test and then hashes wrong while timed: the cage's output check
# (a twin over the built-in backend, from the same seeded entropy) fails its case only, exit 1
PB_TEST_LATE=1000 expect 1 "drbg sha256 generate 4096 B: drbg plug-in w ($late_wrong) gave a wrong answer while timed" \
    "$bench" run --suite drbg --mech sha256 --sizes 4096 --impl old,new,w --plugin "w=$late_wrong" --rounds 8 \
    --layouts 1 --sample-ms 0.05 --counters '' --quiet --db "$T/late.db"
is "late wrong: w failed, old and new stand" \
    "$(q "$T/late.db" "select group_concat(impl || ':' || coalesce(substr(reason, 1, 7), ''), ' ') from (select * from cases order by impl)")" \
    "new: old: w:failed:"
finish
