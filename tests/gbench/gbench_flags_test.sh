#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# gbench_flags_test.sh BENCH FAKE_GB: the gbench suite on two fake binaries of fixed times
# (fake_gb.sh: old 100 ns real, 50 ns CPU per iteration; new 200 ns real, 60 ns CPU), so that every
# figure is known in advance. GB's --benchmark_filter (and --benchmark_min_time,
# --benchmark_min_warmup_time) reach the binaries measured and are stored with the run's options,
# while bench keeps --benchmark_repetitions for its own Google Benchmark.
. "$(dirname "$0")/../lib.sh"
bench=$1 fake=$2
db=$T/gb.db
for side in old:100:50 new:200:60; do
    IFS=: read -r name real cpu <<<"$side"
    printf '#!/bin/bash\nexec %q %s %s %q "$@"\n' "$fake" "$real" "$cpu" "$T/$name.log" >"$T/$name"
    chmod +x "$T/$name"
done
old=$T/old new=$T/new
run() { "$bench" run --suite gbench --old "$old" --new "$new" --rounds 6 --counters '' --quiet "$@"; }

# --benchmark_filter: the binaries list only what it matches; its samples get the warm-up flag
expect 0 "complete" run --db "$db" --benchmark_filter='^BM_copy' --benchmark_min_warmup_time=0.5s --benchmark_min_time=0.01
is "cells of the filter" "$(q "$db" "select group_concat(distinct variant) from (select variant from summary order by variant)")" \
   "BM_copy/4096,BM_copy/64"
is "the run's options keep the flags" \
   "$(q "$db" "select options like '%--benchmark_filter=^BM_copy --benchmark_min_warmup_time=0.5s --benchmark_min_time=0.01%' from runs")" 1
is "every listing got the filter" "$(grep -- '--benchmark_list_tests' "$T/old.log" | sort -u)" \
   "--benchmark_list_tests=true --benchmark_filter=^BM_copy"
is "each sample got min time and warm-up" \
   "$(grep -v list_tests "$T/new.log" | sort -u | tr '\n' '|')" \
   "--benchmark_filter=^BM_copy/4096\$ --benchmark_min_time=0.01 --benchmark_format=json --benchmark_min_warmup_time=0.5|--benchmark_filter=^BM_copy/64\$ --benchmark_min_time=0.01 --benchmark_format=json --benchmark_min_warmup_time=0.5|"
expect 0 "complete" run --db "$T/space.db" --benchmark_filter BM_hash
is "--benchmark_filter REGEX (two words)" "$(q "$T/space.db" "select group_concat(distinct variant) from summary")" "BM_hash"
# bench's own Google Benchmark keeps its flags: two repetitions a round, 6 x 2 samples a case
expect 0 "complete" run --db "$T/rep.db" --filter BM_hash --benchmark_repetitions=2
is "--benchmark_repetitions is bench's" "$(q "$T/rep.db" "select min(n) || '-' || max(n) from summary")" "12-12"
# the same choice twice: one value is fine, two are refused (exit 2, the options named, nothing stored)
expect 0 "complete" run --db "$T/same.db" --filter BM_hash --benchmark_filter=BM_hash
expect 2 "--benchmark_filter 'BM_copy': --filter 'BM_hash' already chose the benchmarks" \
    run --db "$T/no.db" --filter BM_hash --benchmark_filter=BM_copy
expect 2 "--min-time 0.2: --benchmark_min_time already set 0.1 s" \
    run --db "$T/no.db" --benchmark_min_time=0.1 --min-time 0.2
expect 2 "--benchmark_min_warmup_time wants seconds from 0 to 60, got 'soon'" \
    run --db "$T/no.db" --benchmark_min_warmup_time=soon
expect 2 "unrecognized command-line flag: --benchmark_no_such_flag" \
    run --db "$T/no.db" --benchmark_no_such_flag=1
if [[ -e $T/no.db ]]; then bad "a refused run left a database"; else ok; fi

finish
