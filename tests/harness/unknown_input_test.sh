#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# unknown_input_test.sh BENCH SRCROOT CASE — inputs the suite does not know are refused (issue 21,
# item 3), one case per defect: a size given twice. Each refusal exits 2 naming the option and
# stores nothing. Seeded synthetic runs only: nothing depends on timing.
BENCH=$1 ROOT=$2 CASE=$3
source "$(dirname "$0")/../lib.sh"
RUN=(run --suite synthetic --seed 1 --quick --quiet --rounds 2)
# none NAME: a refused command line created no database at $T/NAME.db
none() { is "$1: no database created" "$([[ -e $T/$1.db ]] && echo created || echo none)" "none"; }
# no_runs NAME: bench gate opens its store before it checks its suite's impls and sizes (that order
# is the gate's own): a refusal there may leave an empty store, never a run
no_runs() { is "$1: no run stored" "$( [[ -e $T/$1.db ]] && q "$T/$1.db" "SELECT count(*) FROM runs" || echo 0)" "0"; }

case $CASE in
sizes-refuses-duplicates)
    # one size twice, or written two ways, would time one cell twice into one case
    expect 2 "--sizes: 1000 bytes given twice ('1000' and '1000'): each size is one cell" "$BENCH" "${RUN[@]}" --sizes 1000,1000 --db "$T/d.db"
    expect 2 "--sizes: 1024 bytes given twice ('1k' and '1024')" "$BENCH" "${RUN[@]}" --sizes 1k,1024 --db "$T/d.db"
    expect 2 "--sizes: 4096 bytes given twice ('4K' and '4096')" "$BENCH" "${RUN[@]}" --sizes 64,4K,4096 --db "$T/d.db"
    expect 2 "--sizes '1000,,2000' has an empty entry" "$BENCH" "${RUN[@]}" --sizes 1000,,2000 --db "$T/d.db"
    expect 2 "--sizes ',1000' has an empty entry" "$BENCH" "${RUN[@]}" --sizes ,1000 --db "$T/d.db"
    expect 2 "--sizes is empty" "$BENCH" "${RUN[@]}" --sizes '' --db "$T/d.db"
    expect 2 "--sizes: 1000 bytes given twice" "$BENCH" run --suite synthetic --measure valgrind --sizes 1000,1000 --db "$T/d.db"
    none d
    expect 2 "--sizes: 1000 bytes given twice" "$BENCH" gate --suite synthetic --seed 1 --quick --sizes 1000,1000 --db "$T/g.db"
    no_runs g
    # distinct sizes: one cell each
    expect 0 "" "$BENCH" "${RUN[@]}" --sizes 1000,1k,2000 --db "$T/ok.db"
    is "three cells, one case per impl each" "$(q "$T/ok.db" "SELECT group_concat(n) FROM (SELECT count(*) AS n FROM cases GROUP BY size_bytes ORDER BY size_bytes)")" "2,2,2" ;;
*) bad "unknown case '$CASE'" ;;
esac
finish
