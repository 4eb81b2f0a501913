#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# gbench_test.sh BENCH OLD NEW: the gbench suite on two builds of tests/gbench/tiny_gb.c, NEW doing
# twice the work per iteration. The gate runs both ways to a decision and stores it; which verdict
# the clock gave is printed, not asserted (tests never depend on timing): measured here, the 2x
# build is a regression (ratio about 2.0) and A/A passes (about 1.0), see docs/your-code.md.
. "$(dirname "$0")/../lib.sh"
bench=$1 old=$2 new=$3
db=$T/gb.db

expect 0 "complete" "$bench" run --suite gbench --old "$old" --new "$new" --rounds 5 --min-time 0.005 \
    --counters '' --quiet --db "$db"
is "cells per impl" "$(q "$db" "select group_concat(impl || ':' || n, ' ') from (select impl, count(*) n from summary where metric = 'ns_per_op' group by impl order by impl)")" "new:2 old:2"
is "samples per case" "$(q "$db" "select min(n) || '-' || max(n) from summary where metric = 'ns_per_op'")" "5-5"
is "cell names" "$(q "$db" "select group_concat(distinct variant) from summary")" "BM_mix/1/real_time,BM_mix/4/real_time"

decided "$bench" gate --suite gbench --old "$old" --new "$new" --quick --min-time 0.005 --db "$db"
decided "$bench" gate --suite gbench --old "$old" --new "$old" --quick --min-time 0.005 --db "$db"
is "both gates stored their 2 cells" "$(q "$db" "select count(*) from comparison_cells")" "4"

# refusals: exit 2, the problem named, nothing stored
expect 2 "give both --old PATH and --new PATH" "$bench" run --suite gbench --old "$old" --db "$T/no.db"
expect 2 "--new: $T/missing: not an executable file" "$bench" run --suite gbench --old "$old" --new "$T/missing" --db "$T/no.db"
expect 2 "gbench: /bin/false --benchmark_list_tests=true exited with status 1" \
    "$bench" run --suite gbench --old /bin/false --new "$new" --db "$T/no.db"
expect 2 "have no benchmark in common that matches --filter" \
    "$bench" run --suite gbench --old "$old" --new "$new" --filter 'BM_none' --db "$T/no.db"
if [[ -e $T/no.db ]]; then bad "a refused run left a database"; else ok; fi
finish
