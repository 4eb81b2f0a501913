#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# gbench_test.sh BENCH OLD NEW: the gbench suite on two builds of tests/gbench/tiny_gb.c, NEW doing
# twice the work per iteration. Timing enters only through the gate's verdicts, with margins far
# from this machine's noise: a 2x regression against a 15 % threshold, and A/A, which fails only
# when slower by more than 15 % AND significantly so (Holm), in both cells at once to fail the run.
. "$(dirname "$0")/../lib.sh"
bench=$1 old=$2 new=$3
db=$T/gb.db

expect 0 "complete" "$bench" run --suite gbench --old "$old" --new "$new" --rounds 5 --min-time 0.005 \
    --counters '' --quiet --db "$db"
is "cells per impl" "$(q "$db" "select group_concat(impl || ':' || n, ' ') from (select impl, count(*) n from summary where metric = 'ns_per_op' group by impl order by impl)")" "new:2 old:2"
is "samples per case" "$(q "$db" "select min(n) || '-' || max(n) from summary where metric = 'ns_per_op'")" "5-5"
is "cell names" "$(q "$db" "select group_concat(distinct variant) from summary")" "BM_mix/1/real_time,BM_mix/4/real_time"

expect 1 "verdict: regression (2 cells: 0 pass, 2 regression" \
    "$bench" gate --suite gbench --old "$old" --new "$new" --quick --min-time 0.005 --db "$db"
expect 0 "verdict: pass" "$bench" gate --suite gbench --old "$old" --new "$old" --quick --min-time 0.005 --db "$db"

# refusals: exit 2, the problem named, nothing stored
expect 2 "give both --old PATH and --new PATH" "$bench" run --suite gbench --old "$old" --db "$T/no.db"
expect 2 "--new: $T/missing: not an executable file" "$bench" run --suite gbench --old "$old" --new "$T/missing" --db "$T/no.db"
expect 2 "gbench: /bin/false --benchmark_list_tests=true exited with status 1" \
    "$bench" run --suite gbench --old /bin/false --new "$new" --db "$T/no.db"
expect 2 "have no benchmark in common that matches --filter" \
    "$bench" run --suite gbench --old "$old" --new "$new" --filter 'BM_none' --db "$T/no.db"
if [[ -e $T/no.db ]]; then bad "a refused run left a database"; else ok; fi
finish
