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
# whose binaries were timed (issue 23): each side's sha256 and build-id as sha256sum and readelf -n
# say, and the revision of the repository it is in (git describe), the run's user revision the new's
for side in old new; do
    bin=$old
    [[ $side == new ]] && bin=$new
    is "$side: sha256" "$(q "$db" "select sha256 from objects where impl = '$side'")" "$(sha256sum "$bin" | cut -d' ' -f1)"
    is "$side: build-id" "$(q "$db" "select build_id from objects where impl = '$side'")" \
       "$(readelf -n "$bin" | sed -n 's/^ *Build ID: *//p')"
    is "$side: what it is" "$(q "$db" "select elf || ' | ' || (needed like '%libbenchmark%') from objects where impl = '$side'")" \
       "ELF64 PIE executable | 1"
    # two different builds in one checkout (this tree's build folder): its revision is the new side's
    # alone; the old side's is unknown, never the checkout's (issue 42, item 5)
    want=$(git -C "$(dirname "$(realpath "$bin")")" describe --always --dirty 2>/dev/null)
    [[ $side == old ]] && want=
    is "$side: its repository's revision" "$(q "$db" "select coalesce(revision, '') from objects where impl = '$side'")" "$want"
done
is "the run's user revision is the new binary's" "$(q "$db" "select coalesce(user_revision, '') from runs")" \
   "$(q "$db" "select coalesce(revision, '') from objects where impl = 'new'")"

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
