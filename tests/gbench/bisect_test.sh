#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# bisect_test.sh BENCH FAKE_GATE: bench bisect on a throw-away repository of 8 commits of a tiny C program
# whose work is set by a constant, commit 5 doubling it. The program stands in for a Google
# Benchmark binary and reports a time made from that constant (WORK / 10 ns per iteration), so that
# every gate's verdict is known in advance (tests never depend on timing): bisect must name commit 5,
# its gate document must name the benchmark, git bisect run must agree with --step, and bad input
# must be refused with exit 2 naming the option. No worktree or temporary folder may be left.
. "$(dirname "$0")/../lib.sh"
bench=$1 fake_gate=$2
repo=$T/repo
export TMPDIR=$T/tmp
mkdir -p "$repo" "$TMPDIR"
git -C "$repo" init -q
git -C "$repo" config user.email t@example.invalid
git -C "$repo" config user.name test
prog() { # prog WORK: the program, its work and its reported time set by WORK
    cat <<C
#include <stdio.h>
#include <string.h>
#define WORK $1
static volatile unsigned long sink;
int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--benchmark_list_tests=true")) { puts("BM_work"); return 0; }
    unsigned long x = 0;
    for (unsigned long i = 0; i < WORK; i++) x += i * i;
    sink = x;
    printf("{\"context\": {\"executable\": \"prog\"}, \"benchmarks\": [{\"name\": \"BM_work\", "
           "\"run_type\": \"iteration\", \"iterations\": 1000, \"real_time\": %d, \"cpu_time\": %d, "
           "\"time_unit\": \"ns\"}]}\n", WORK / 10, WORK / 10);
    return 0;
}
C
}
for k in 1 2 3 4 5 6 7 8; do
    work=1000
    ((k >= 5)) && work=2000
    prog $work >"$repo/prog.c"
    echo "commit $k" >"$repo/notes"
    git -C "$repo" add -A && git -C "$repo" commit -qm "commit $k"
    git -C "$repo" tag "c$k"
done
c5=$(git -C "$repo" rev-parse c5)
common=(--suite gbench --binary prog --build 'cc -O1 -o prog prog.c' --db "$T/b.db")
gate=(-- --quick --rounds 6 --min-time 0.001 --threshold 10%)

out=$("$bench" bisect --repo "$repo" "${common[@]}" --good c1 --bad c8 --format md --write "json=$T/answer.json" "${gate[@]}" 2>"$T/err")
rc=$?
is "bisect exit status" "$rc" 0
grep -q "^first bad commit: ${c5:0:12} commit 5" "$T/err" && ok || bad "bisect did not name commit 5: $(cat "$T/err")"
grep -qF 'BM\_work' <<<"$out" && ok || bad "the md document lacks the benchmark: $out"
is "the JSON document's regression" "$(jq -r '[.gates[0].cells[] | select(.verdict == "regression") | .variant] | join(",")' "$T/answer.json" 2>&1)" "BM_work"
grep -q "^bisect: step 1 " "$T/err" && ok || bad "no live line per step: $(cat "$T/err")"
grep -Eq "^7 commits after ${c5:0:0}.*, [0-9]+ steps, .*, 0 skipped, " "$T/err" && ok || bad "the steps' line: $(cat "$T/err")"
# text: the answer on stdout before the document, each line within COLUMNS
out=$(COLUMNS=60 "$bench" bisect --repo "$repo" "${common[@]}" --good c3 --bad c6 --quiet "${gate[@]}" 2>&1)
is "bisect c3..c6 names commit 5" "$(grep -c "^first bad commit: ${c5:0:12}" <<<"$out")" 1
long=0
while IFS= read -r l; do ((${#l} > 60)) && long=$((long + 1)); done < <(LC_ALL=C.UTF-8 sed -n '1,/^the gate of/p' <<<"$out")
is "the answer's lines fit 60 columns" "$long" 0
tr -s '\n ' '  ' <<<"$out" | grep -q "reruns of inconclusive gates)," && ok || bad "the steps' line was cut, not wrapped: $out"

# git bisect run with --step: the same commit
step=("$bench" bisect --step --good c1 --repo "$repo" "${common[@]}" "${gate[@]}")
git -C "$repo" bisect start c8 c1 >/dev/null
git -C "$repo" bisect run "${step[@]}" >"$T/run.out" 2>&1
grep -q "^$c5 is the first bad commit" "$T/run.out" && ok || bad "git bisect run: $(tail -n 20 "$T/run.out")"
git -C "$repo" bisect reset -q >/dev/null 2>&1
expect 1 "" "$bench" bisect --repo "$repo" --step --good c1 --rev c5 "${common[@]}" "${gate[@]}"
expect 0 "" "$bench" bisect --repo "$repo" --step --good c1 --rev c4 "${common[@]}" "${gate[@]}"

# bad input: exit 2, the option named
expect 2 "--good nope: not a revision" "$bench" bisect --repo "$repo" "${common[@]}" --good nope --bad c8
expect 2 "--bad nope: not a revision" "$bench" bisect --repo "$repo" "${common[@]}" --good c1 --bad nope
expect 2 "--good c8 is not an ancestor of --bad c1" "$bench" bisect --repo "$repo" "${common[@]}" --good c8 --bad c1
expect 2 "--rev c1 is --good's commit" "$bench" bisect --repo "$repo" "${common[@]}" --step --good c1 --rev c1
expect 2 "--good and --bad are one commit" "$bench" bisect --repo "$repo" "${common[@]}" --good c1 --bad c1
expect 2 "--build: no build command" "$bench" bisect --repo "$repo" --suite gbench --binary prog --good c1 --bad c8
expect 2 "--binary: the gbench program's path" "$bench" bisect --repo "$repo" --suite gbench --build true --good c1 --bad c8
expect 2 "--suite synthetic: bisect gates" "$bench" bisect --repo "$repo" "${common[@]}" --suite synthetic --good c1 --bad c8
expect 2 "--budget 'soon'" "$bench" bisect --repo "$repo" "${common[@]}" --good c1 --bad c8 --budget soon
expect 2 "--measure 'cycles'" "$bench" bisect --repo "$repo" "${common[@]}" --good c1 --bad c8 --measure cycles
expect 2 "--repo $T/none: not a git repository" "$bench" bisect "${common[@]}" --repo "$T/none" --good c1 --bad c8
expect 2 "--good: building" "$bench" bisect --repo "$repo" --suite gbench --binary prog --build false --good c1 --bad c8
expect 2 "unknown option '--bda'" "$bench" bisect --repo "$repo" "${common[@]}" --good c1 --bda c8
expect 3 "is no regression against --good" "$bench" bisect --repo "$repo" "${common[@]}" --good c1 --bad c4 "${gate[@]}"

# inconclusive and skipped, with a fake gate whose verdicts each commit fixes (its file `verdict`):
# d3 stays inconclusive through the budget's 3 gates and is skipped, so the first bad commit is d3
# or d4 (exit 3, both named); --step says 125 (skip) for it
r2=$T/repo2
mkdir -p "$r2"
git -C "$r2" init -q
git -C "$r2" config user.email t@example.invalid
git -C "$r2" config user.name test
k=0
for v in 0 0 3 1 1; do
    k=$((k + 1))
    echo "$v" >"$r2/verdict"
    echo "d$k" >"$r2/notes"
    git -C "$r2" add -A && git -C "$r2" commit -qm "d$k" && git -C "$r2" tag "d$k"
done
export FAKE_GATE_LOG=$T/gates.log FAKE_GATE_DOC=$T/answer.json
fake=(--repo "$r2" --suite gbench --binary prog --build true --db "$T/b.db" --gate-bench "$fake_gate")
expect 3 "skipped: $(git -C "$r2" rev-parse --short=12 d3) (inconclusive in 3 gates" "$bench" bisect "${fake[@]}" --good d1 --bad d5 --budget 3x
is "the gates' verdicts in order (d5, d3 three times, d2, d4)" "$(tr '\n' ' ' <"$FAKE_GATE_LOG")" "1 3 3 3 0 1 "
: >"$FAKE_GATE_LOG"
expect 125 "skipped" "$bench" bisect "${fake[@]}" --step --good d1 --rev d3 --budget 2x
is "--step --budget 2x: two gates" "$(wc -l <"$FAKE_GATE_LOG")" 2
# interrupted mid-step: exit 130, its worktrees and temporary folder removed
echo sleep >"$r2/verdict"
git -C "$r2" commit -qam d6 && git -C "$r2" tag d6
: >"$FAKE_GATE_LOG"
"$bench" bisect "${fake[@]}" --good d1 --bad d6 --quiet 2>"$T/int.err" &
pid=$!
for _ in $(seq 100); do [[ -s $FAKE_GATE_LOG ]] && break; sleep 0.1; done
kill -INT "$pid"
wait "$pid"
is "interrupted: exit 130" "$?" 130
is "no worktree left" "$(git -C "$r2" worktree list | wc -l)" 1

is "no worktree left" "$(git -C "$repo" worktree list | wc -l)" 1
is "no temporary folder left" "$(ls "$TMPDIR" | wc -l)" 0
finish
