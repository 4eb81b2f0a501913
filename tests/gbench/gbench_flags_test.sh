#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# gbench_flags_test.sh BENCH FAKE_GB: the gbench suite on two fake binaries of fixed times
# (fake_gb.sh: old 100 ns real, 50 ns CPU per iteration; new 200 ns real, 60 ns CPU), so that every
# figure is known in advance. GB's --benchmark_filter (and --benchmark_min_time,
# --benchmark_min_warmup_time) reach the binaries measured and are stored with the run's options,
# while bench keeps --benchmark_repetitions for its own Google Benchmark; the CPU time is a metric of
# its own (cpu_ns), compared and gated with --metric cpu_ns, and export --format gbench writes it as
# GB's cpu_time.
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

# cpu_ns: GB's cpu_time per op beside the wall time, of this suite only
is "medians per impl and metric" \
   "$(q "$db" "select group_concat(impl || ':' || metric || '=' || median, ' ') from (select distinct impl, metric, median from summary order by impl, metric)")" \
   "new:cpu_ns=60.0 new:ns_per_op=200.0 old:cpu_ns=50.0 old:ns_per_op=100.0"
expect 0 "cost = cpu_ns" "$bench" compare --db "$db" --metric cpu_ns
out=$("$bench" compare --db "$db" --metric cpu_ns 2>&1)
is "compare --metric cpu_ns: the CPU ratio" "$(grep -c '^BM_copy/[0-9]* *run .* 1\.200 *\[1\.200, 1\.200\]' <<<"$out")" 2
is "compare --metric cpu_ns stored" "$(q "$db" "select count(*) from comparisons where metric = 'cpu_ns'")" 2
g() { "$bench" gate --suite gbench --old "$old" --new "$new" --quick --benchmark_filter=BM_hash --metric cpu_ns \
    --db "$T/gate.db" "$@"; }
expect 1 "verdict: regression" g --threshold +10%
expect 0 "pass (slower by 20.0 % [20.0 %, 20.0 %], under the 30 % threshold)" g --threshold +30%
is "gates stored on cpu_ns" "$(q "$T/gate.db" "select group_concat(metric) from comparisons")" "cpu_ns,cpu_ns"
is "bench gate: the filter reached the binaries" "$(q "$T/gate.db" "select group_concat(distinct variant) from summary")" "BM_hash"

# export --format gbench: cpu_time is the stored CPU time
"$bench" export --db "$db" --format gbench >"$T/gb.json" || bad "export --format gbench"
is "real_time and cpu_time" \
   "$(jq -r '.benchmarks[] | "\(.run_name) \(.real_time) \(.cpu_time)"' "$T/gb.json" | sort | tr '\n' '|')" \
   "gbench/new/BM_copy/4096/run/0 200 60|gbench/new/BM_copy/64/run/0 200 60|gbench/old/BM_copy/4096/run/0 100 50|gbench/old/BM_copy/64/run/0 100 50|"

# a suite that does not ask for cpu_ns has no such rows: its exports are as they were
"$bench" run --suite synthetic --quick --quiet --rounds 6 --seed 1 --db "$T/syn.db" >/dev/null || bad "synthetic run"
is "synthetic: no cpu_ns rows" "$(q "$T/syn.db" "select count(*) from summary where metric = 'cpu_ns'")" 0
expect 2 "no samples of metric cpu_ns" "$bench" compare --db "$T/syn.db" --metric cpu_ns
"$bench" export --db "$T/syn.db" --format gbench >"$T/syn.json" || bad "export synthetic"
is "synthetic: cpu_time is the real time" "$(jq '[.benchmarks[] | select(.cpu_time != .real_time)] | length' "$T/syn.json")" 0
finish
