#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# plugin_test.sh BENCH GOOD.so ABI.so NOSYM.so VECTOR.so CRASH.so
# bench run --suite xts --plugin: the good plug-in is self-tested, timed beside old/new, stored
# and reported (named in --impl or not); the bad ones are refused with exit 2 and a message that names what is wrong,
# and nothing is stored. Asserts no time: only that samples exist and where they are.
. "$(dirname "$0")/../lib.sh"
bench=$1 good=$2 abi=$3 nosym=$4 vector=$5 crash=$6
quick=(--keys 256 --sizes 512 --rounds 3 --sample-ms 0.05 --counters '' --child-call-cost 0 --quiet)

db=$T/good.db
if "$bench" run --suite xts --plugin "window=$good" --impl old,new,window "${quick[@]}" --db "$db" >"$T/out" 2>&1
then ok; else bad "good plug-in: $(cat "$T/out")"; fi
is "window cells" "$(q "$db" "select count(distinct op) from summary where impl = 'window'")" 2
is "window samples per cell" "$(q "$db" "select min(n) from summary where impl = 'window' and metric = 'ns_per_op'")" 3
if "$bench" report --db "$db" --out "$T/plots" >"$T/rep" 2>&1; then ok; else bad "report: $(cat "$T/rep")"; fi
if grep -q window "$T/plots/xts.md"; then ok; else bad "plots/xts.md does not mention the plug-in"; fi
if grep -q "time window/old" "$T/plots/xts.md"; then ok; else bad "plots/xts.md has no window/old ratio column"; fi

# a plug-in that --impl does not name is timed too, with a note, and the run stores the list it ran
db=$T/outside.db
expect 0 "--impl old,new does not name every --plugin: timing them too (--impl old,new,window)" \
    "$bench" run --suite xts --plugin "window=$good" --impl old,new "${quick[@]}" --db "$db"
is "the plug-in outside --impl: its cells" "$(q "$db" "select count(distinct op) from summary where impl = 'window'")" 2
is "the impls the run stored" "$(q "$db" "select options like '%impls=old,new,window %' from runs")" 1
expect 0 "" "$bench" run --suite xts --plugin "window=$good" --impl window,old "${quick[@]}" --db "$db"
is "a plug-in --impl names: the list as given" "$(q "$db" "select options like '%impls=window,old %' from runs where id = 2")" 1

for db in abi nosym vector crash; do rm -f "$T/$db.db"; done
expect 2 "ABI version mismatch: built for xts plug-in ABI 99, this bench has 1" \
    "$bench" run --suite xts --plugin "w=$abi" "${quick[@]}" --db "$T/abi.db"
expect 2 "missing symbol pb_xts_plugin_entry" \
    "$bench" run --suite xts --plugin "w=$nosym" "${quick[@]}" --db "$T/nosym.db"
expect 2 "xts selftest: w: IEEE 1619 vector 4 (2x128, 512 bytes): encrypt gives a wrong result" \
    "$bench" run --suite xts --plugin "w=$vector" "${quick[@]}" --db "$T/vector.db"
expect 2 "plug-in w ($crash): crashed in its self-test: signal 11" \
    "$bench" run --suite xts --plugin "w=$crash" "${quick[@]}" --db "$T/crash.db"
for db in abi nosym vector crash; do
    if [[ -e $T/$db.db ]]; then bad "$db: a refused plug-in left a database"; else ok; fi
done
expect 2 "--plugin wants NAME=PATH.so" "$bench" run --suite xts --plugin nope --db "$T/x.db"
expect 2 "'old' is already an implementation of xts" "$bench" run --suite xts --plugin "old=$good" --db "$T/x.db"
expect 2 "name 'w' given twice" "$bench" run --suite xts --plugin "w=$good" --plugin "w=$good" --db "$T/x.db"
finish
