#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# bisect_counts_test.sh BENCH: bench bisect --measure valgrind on a throw-away repository of 8 commits
# of a real Google Benchmark binary (C++, libbenchmark), commit 5 doubling its loop's work. Counts
# are exact, so the answer is deterministic: bisect names commit 5 and the gate document names the
# benchmark (issue 45). Nothing depends on timing.
. "$(dirname "$0")/../lib.sh"
bench=$1
skip_unless_valgrind "bisect's count gates"
command -v c++ >/dev/null || { echo "SKIP: no C++ compiler to build the benchmark"; finish; exit 77; }
repo=$T/repo
export TMPDIR=$T/tmp
mkdir -p "$repo" "$TMPDIR"
git -C "$repo" init -q
git -C "$repo" config user.email t@example.invalid
git -C "$repo" config user.name test
for k in 1 2 3 4 5 6 7 8; do
    work=1000
    ((k >= 5)) && work=2000
    cat >"$repo/prog.cc" <<C
#include <benchmark/benchmark.h>
#define WORK $work
static void BM_work(benchmark::State &state)
{
    unsigned long x = 0;
    for (auto _ : state) {
        for (unsigned long i = 0; i < WORK; i++) x = x * 6364136223846793005ul + 1442695040888963407ul;
        benchmark::DoNotOptimize(x);
    }
}
BENCHMARK(BM_work);
BENCHMARK_MAIN();
C
    echo "commit $k" >"$repo/notes"
    git -C "$repo" add -A && git -C "$repo" commit -qm "commit $k"
    git -C "$repo" tag "c$k"
done
c5=$(git -C "$repo" rev-parse c5)
out=$("$bench" bisect --repo "$repo" --suite gbench --binary prog --build 'c++ -O1 -o prog prog.cc -lbenchmark -lpthread' \
    --measure valgrind --db "$T/b.db" --good c1 --bad c8 --format md --write "json=$T/answer.json" 2>"$T/err")
is "bisect --measure valgrind exit status" "$?" 0
grep -q "^first bad commit: ${c5:0:12} commit 5" "$T/err" && ok || bad "bisect did not name commit 5: $(cat "$T/err")"
grep -qF 'BM\_work' <<<"$out" && ok || bad "the md document lacks the benchmark: $out"
is "the JSON document's regression" \
    "$(jq -r '[.gates[0].cells[] | select(.verdict == "regression") | .variant] | join(",")' "$T/answer.json" 2>&1)" "BM_work"
is "the gates were count gates" "$(jq -r '.gates[0].metric' "$T/answer.json" 2>&1)" "insns_per_op"
grep -q "(0 reruns of inconclusive gates), 0 skipped" "$T/err" && ok || bad "a count gate was inconclusive: $(cat "$T/err")"
is "no worktree left" "$(git -C "$repo" worktree list | wc -l)" 1
is "no temporary folder left" "$(ls "$TMPDIR" | wc -l)" 0
finish
